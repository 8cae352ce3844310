//! A fragment page of a compressed MySQL 8.0+ LOB
//! (`FIL_PAGE_TYPE_ZLOB_FRAG` = 28, `lob0impl.h`, `z_frag_page_t`): short
//! zlib streams (or the tails of long ones) of one LOB share it as
//! fragments ([`crate::zlob::frag_node::ZlobFragNode`]).
//!
//! After the FIL header: a version byte, the address of the fragment entry
//! describing the page, the page lists of free and used fragments, then the
//! fragments from offset 61. A page directory grows down from the FIL
//! trailer: its entry count in the 2 bytes before the trailer, then one
//! 2-byte entry per fragment id holding the fragment's page offset (0 for a
//! free id). `FIL_PAGE_NEXT` and `FIL_PAGE_PREV` link the LOB's fragment
//! pages, not a zlib stream.

use crate::bytes::u16_at;
use crate::context::PageContext;
use crate::field::Field;
use crate::fil::header::FIL_PAGE_DATA;
use crate::fil::trailer::FIL_PAGE_DATA_END;
use crate::fsp::flst::FilAddr;
use crate::layout::layout;
use crate::section::Body;
use crate::zlob::frag_node::ZlobFragNode;
use crate::zlob::plist::PlistBase;
use crate::FormatError;
use serde::Serialize;

layout! {
    /// The header of a `FIL_PAGE_TYPE_ZLOB_FRAG` page (absolute offsets 38 to 61).
    pub struct ZlobFragHeader {
        /// Offset 38 (`OFFSET_VERSION`, 1 byte): 0.
        ZLOB_FRAG_VERSION "OFFSET_VERSION" @ FIL_PAGE_DATA => version: u8;
        /// Offset 39 (`OFFSET_FRAG_ENTRY`, 6-byte file address): the fragment entry describing this page.
        ZLOB_FRAG_FRAG_ENTRY "OFFSET_FRAG_ENTRY" @ FIL_PAGE_DATA + 1 => frag_entry: FilAddr;
        /// Offset 45 (`OFFSET_FREE_LIST`, page list base): the free fragments.
        ZLOB_FRAG_FREE_LIST "OFFSET_FREE_LIST" @ FIL_PAGE_DATA + 7 => free_list: PlistBase;
        /// Offset 53 (`OFFSET_FRAGS_LIST`, page list base): the used fragments.
        ZLOB_FRAG_FRAGS_LIST "OFFSET_FRAGS_LIST" @ FIL_PAGE_DATA + 15 => frag_list: PlistBase;
    }
}

/// Offset 61: `OFFSET_FRAGS_BEGIN`, where fragments may start.
pub const ZLOB_FRAG_FRAGS_BEGIN: usize = ZlobFragHeader::END;
/// `OFFSET_PAGE_DIR_ENTRY_COUNT`: the directory's entry count (2 bytes) lies
/// this many bytes before the end of the physical page.
pub const ZLOB_FRAG_DIR_ENTRY_COUNT_FROM_END: usize = FIL_PAGE_DATA_END + 2;
/// `OFFSET_PAGE_DIR_ENTRY_FIRST`: directory entry 0 (2 bytes) lies this many
/// bytes before the end of the physical page; entry `i` lies `2 * i` bytes lower.
pub const ZLOB_FRAG_DIR_ENTRY_FIRST_FROM_END: usize = ZLOB_FRAG_DIR_ENTRY_COUNT_FROM_END + 2;
/// Size of one page directory entry (`SIZE_OF_PAGE_DIR_ENTRY`).
pub const ZLOB_FRAG_DIR_ENTRY_SIZE: usize = 2;

/// The header and directory size of a `FIL_PAGE_TYPE_ZLOB_FRAG` page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ZlobFragPage {
    /// The header at offsets 38 to 61.
    pub header: ZlobFragHeader,
    /// The page directory's entry count (`OFFSET_PAGE_DIR_ENTRY_COUNT`, 2
    /// bytes, 10 bytes before the page end).
    pub n_dir_entries: u16,
}

impl ZlobFragPage {
    /// Reads the header of a fragment page image (the whole physical page).
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        let count_at = page
            .len()
            .checked_sub(ZLOB_FRAG_DIR_ENTRY_COUNT_FROM_END)
            .unwrap_or(usize::MAX);
        Ok(ZlobFragPage {
            header: ZlobFragHeader::parse_at(page, 0)?,
            n_dir_entries: u16_at(page, count_at, "OFFSET_PAGE_DIR_ENTRY_COUNT")?,
        })
    }

    /// Absolute offset of directory entry `frag_id` on a page of `page_size` bytes.
    pub fn dir_entry_offset(page_size: usize, frag_id: u16) -> Option<usize> {
        page_size
            .checked_sub(ZLOB_FRAG_DIR_ENTRY_FIRST_FROM_END)?
            .checked_sub(usize::from(frag_id) * ZLOB_FRAG_DIR_ENTRY_SIZE)
    }

    /// The page offset directory entry `frag_id` holds (0 for a free id);
    /// an error for an id beyond the directory.
    pub fn dir_entry(&self, page: &[u8], frag_id: u16) -> Result<u16, FormatError> {
        let at = ZlobFragPage::dir_entry_offset(page.len(), frag_id).unwrap_or(usize::MAX);
        if frag_id >= self.n_dir_entries {
            return Err(FormatError::BadValue {
                field: "OFFSET_PAGE_DIR_ENTRY_COUNT",
                offset: page
                    .len()
                    .saturating_sub(ZLOB_FRAG_DIR_ENTRY_COUNT_FROM_END),
                reason: format!(
                    "fragment id {frag_id} is beyond the {}-entry page directory",
                    self.n_dir_entries
                ),
            });
        }
        u16_at(page, at, "page directory entry")
    }

    /// The offset of the first byte the page directory uses (`slots_end_ptr()`).
    pub fn dir_start(&self, page_size: usize) -> usize {
        page_size
            .saturating_sub(ZLOB_FRAG_DIR_ENTRY_COUNT_FROM_END)
            .saturating_sub(usize::from(self.n_dir_entries) * ZLOB_FRAG_DIR_ENTRY_SIZE)
    }

    /// The fragment with id `frag_id`: its offset, header and payload. The
    /// fragment must be in use, carry that id, and lie between offset 61 and
    /// the page directory.
    pub fn fragment<'a>(
        &self,
        page: &'a [u8],
        frag_id: u16,
    ) -> Result<(usize, ZlobFragNode, &'a [u8]), FormatError> {
        let at = usize::from(self.dir_entry(page, frag_id)?);
        let dir_at = ZlobFragPage::dir_entry_offset(page.len(), frag_id).unwrap_or(0);
        if at == 0 {
            return Err(FormatError::BadValue {
                field: "page directory entry",
                offset: dir_at,
                reason: format!("fragment id {frag_id} is free"),
            });
        }
        if at < ZLOB_FRAG_FRAGS_BEGIN {
            return Err(FormatError::BadValue {
                field: "page directory entry",
                offset: dir_at,
                reason: format!(
                    "fragment id {frag_id} points to offset {at}, inside the page header"
                ),
            });
        }
        let node = ZlobFragNode::parse_at(page, at)?;
        if node.frag_id != frag_id {
            return Err(FormatError::BadValue {
                field: "OFFSET_FRAG_ID",
                offset: at + crate::zlob::frag_node::FRAG_NODE_FRAG_ID,
                reason: format!(
                    "the fragment at offset {at} has id {}, the directory says {frag_id}",
                    node.frag_id
                ),
            });
        }
        let end = at + usize::from(node.total_len);
        if end > self.dir_start(page.len()) {
            return Err(FormatError::BadValue {
                field: "OFFSET_LEN",
                offset: at + crate::zlob::frag_node::FRAG_NODE_LEN,
                reason: format!(
                    "the fragment at offset {at} ({} bytes) runs into the page directory at {}",
                    node.total_len,
                    self.dir_start(page.len())
                ),
            });
        }
        let payload = node.payload(page, at)?;
        Ok((at, node, payload))
    }

    /// The header's fields for display, on a page of `page_size` bytes:
    /// the declared header, then the directory's entry count.
    pub fn fields(&self, page_size: usize, ctx: &PageContext) -> Vec<Field> {
        let mut out = self.header.fields_at(0, ctx);
        out.push(Field::new(
            page_size.saturating_sub(ZLOB_FRAG_DIR_ENTRY_COUNT_FROM_END),
            2,
            "OFFSET_PAGE_DIR_ENTRY_COUNT",
            self.n_dir_entries.into(),
        ));
        out
    }
}

/// The sections of a ZLOB fragment page: its header and directory size,
/// then one section per fragment the directory names.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    let Some(h) = body.keep(ZlobFragPage::parse(page)) else {
        return;
    };
    body.push("ZLOB fragment page header", h.fields(page.len(), ctx));
    for id in 0..h.n_dir_entries {
        let Some(at) = body.keep(h.dir_entry(page, id)) else {
            break;
        };
        if at == 0 {
            continue;
        }
        let at = usize::from(at);
        if let Some(node) = body.keep(ZlobFragNode::parse_at(page, at)) {
            body.push(format!("fragment {id} at {at}"), node.fields_at(at, ctx));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page_with_fragment() -> Vec<u8> {
        let mut page = vec![0u8; 1024];
        // Directory: 2 entries; id 0 free, id 1 at offset 61.
        page[1024 - 10..1024 - 8].copy_from_slice(&2u16.to_be_bytes());
        page[1024 - 14..1024 - 12].copy_from_slice(&61u16.to_be_bytes());
        // The fragment: 8-byte header + 5 bytes.
        page[61 + 4..61 + 8].copy_from_slice(&[0, 13, 0, 1]);
        page[69..74].copy_from_slice(b"hello");
        page
    }

    #[test]
    fn finds_fragments_through_the_directory() {
        let page = page_with_fragment();
        let h = ZlobFragPage::parse(&page).unwrap();
        assert_eq!(h.n_dir_entries, 2);
        assert_eq!(h.dir_start(1024), 1024 - 14);
        let (at, node, data) = h.fragment(&page, 1).unwrap();
        assert_eq!((at, node.total_len, data), (61, 13, &b"hello"[..]));
        assert!(h.fragment(&page, 0).is_err()); // free
        assert!(h.fragment(&page, 2).is_err()); // beyond the directory
        assert_eq!(h.fields(1024, &PageContext::default()).len(), 5);
    }

    #[test]
    fn rejects_bad_fragments() {
        let mut page = page_with_fragment();
        page[61 + 7] = 0; // wrong id
        let h = ZlobFragPage::parse(&page).unwrap();
        assert!(h.fragment(&page, 1).is_err());
        let mut page = page_with_fragment();
        page[61 + 4..61 + 6].copy_from_slice(&2000u16.to_be_bytes()); // past the directory
        let h = ZlobFragPage::parse(&page).unwrap();
        assert!(h.fragment(&page, 1).is_err());
        let mut page = page_with_fragment();
        page[1024 - 14..1024 - 12].copy_from_slice(&20u16.to_be_bytes()); // in the header
        let h = ZlobFragPage::parse(&page).unwrap();
        assert!(h.fragment(&page, 1).is_err());
        assert!(ZlobFragPage::parse(&page[..50]).is_err());
    }
}

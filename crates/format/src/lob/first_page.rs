//! The first page of an uncompressed MySQL 8.0+ LOB
//! (`FIL_PAGE_TYPE_LOB_FIRST` = 24, `lob0first.h`, `first_page_t`).
//!
//! After the FIL header: a version byte, a flag byte, the LOB version, the
//! last modifying transaction and its undo number, the length of the data
//! kept on this page, the creating transaction, then two list base nodes:
//! the LOB index (the entries, in LOB order, of the current version) and
//! the free index entries. Ten index entries
//! ([`crate::lob::index_entry::LobIndexEntry`], 60 bytes each) follow at
//! offset 96, then the page's share of the LOB's bytes from offset 696 up to
//! the FIL trailer. Further index entries live on `FIL_PAGE_TYPE_LOB_INDEX`
//! pages, further data on `FIL_PAGE_TYPE_LOB_DATA` pages.

use crate::bytes::slice;
use crate::context::PageContext;
use crate::fil::trailer::FIL_PAGE_DATA_END;
use crate::fsp::flst::FlstBase;
use crate::layout::layout;
pub use crate::lob::first_page_common::{
    LobFirstCommon, LOB_FIRST_DATA_LEN, LOB_FIRST_FLAGS, LOB_FIRST_LAST_TRX_ID,
    LOB_FIRST_LAST_UNDO_NO, LOB_FIRST_LOB_VERSION, LOB_FIRST_TRX_ID, LOB_FIRST_VERSION,
};
use crate::lob::index_entry::LOB_INDEX_ENTRY_SIZE;
use crate::section::Body;
use crate::FormatError;

layout! {
    /// The header of a `FIL_PAGE_TYPE_LOB_FIRST` page (absolute offsets 38 to 96).
    pub struct LobFirstPage includes LobFirstCommon as common {
        /// Offset 64 (`OFFSET_INDEX_LIST`, list base): the LOB index, one
        /// entry per data page of the current version.
        LOB_FIRST_INDEX_LIST "OFFSET_INDEX_LIST" @ 64 => index_list: FlstBase;
        /// Offset 80 (`OFFSET_INDEX_FREE_NODES`, list base): the unused index entries.
        LOB_FIRST_INDEX_FREE_NODES "OFFSET_INDEX_FREE_NODES" @ 80 => free_list: FlstBase;
    }
}

/// Offset 96: `LOB_PAGE_DATA`, where the index entry array begins.
pub const LOB_FIRST_INDEX_ENTRIES: usize = LobFirstPage::END;
/// Index entries on the first page (`first_page_t::node_count()`).
pub const LOB_FIRST_N_INDEX_ENTRIES: usize = 10;
/// Offset 696: where the LOB data on the first page begins (`data_begin()`).
pub const LOB_FIRST_DATA: usize =
    LOB_FIRST_INDEX_ENTRIES + LOB_FIRST_N_INDEX_ENTRIES * LOB_INDEX_ENTRY_SIZE;

impl LobFirstPage {
    /// Reads the header of a LOB first page image.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        Self::parse_at(page, 0)
    }

    /// Absolute offset of index entry slot `i` (0 to 9) on the first page.
    pub fn entry_offset(i: usize) -> usize {
        LOB_FIRST_INDEX_ENTRIES + i * LOB_INDEX_ENTRY_SIZE
    }

    /// The slot number of the index entry starting at absolute `offset`, or
    /// `None` when no entry of the first page starts there.
    pub fn entry_slot(offset: usize) -> Option<usize> {
        let rel = offset.checked_sub(LOB_FIRST_INDEX_ENTRIES)?;
        let i = rel / LOB_INDEX_ENTRY_SIZE;
        (rel % LOB_INDEX_ENTRY_SIZE == 0 && i < LOB_FIRST_N_INDEX_ENTRIES).then_some(i)
    }

    /// Bytes of LOB data a first page of `page_size` bytes can hold
    /// (`max_space_available()`).
    pub fn payload(page_size: usize) -> usize {
        page_size.saturating_sub(LOB_FIRST_DATA + FIL_PAGE_DATA_END)
    }

    /// The LOB data on this page: `data_len` bytes from offset 696, which
    /// must end before the FIL trailer.
    pub fn data<'a>(&self, page: &'a [u8]) -> Result<&'a [u8], FormatError> {
        let len = self.common.data_len as usize;
        if len > LobFirstPage::payload(page.len()) {
            return Err(FormatError::BadValue {
                field: "OFFSET_DATA_LEN",
                offset: LOB_FIRST_DATA_LEN,
                reason: format!(
                    "{len} bytes of data do not fit in the {} bytes a {}-byte first page holds",
                    LobFirstPage::payload(page.len()),
                    page.len()
                ),
            });
        }
        slice(page, LOB_FIRST_DATA, len, "LOB first page data")
    }
}

/// The sections of a LOB first page: its header and its index entries in use.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    let Some(h) = body.keep(LobFirstPage::parse(page)) else {
        return;
    };
    body.push("LOB first page header", h.fields_at(0, ctx));
    crate::section::entry_sections::<crate::lob::index_entry::LobIndexEntry>(
        page,
        (0..LOB_FIRST_N_INDEX_ENTRIES).map(|i| (i, LobFirstPage::entry_offset(i))),
        "LOB index entry",
        ctx,
        body,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_lob0first() {
        assert_eq!(LOB_FIRST_INDEX_LIST, 64);
        assert_eq!(LOB_FIRST_INDEX_FREE_NODES, 80);
        assert_eq!(LOB_FIRST_INDEX_ENTRIES, 96);
        assert_eq!(LOB_FIRST_DATA, 696);
        assert_eq!(LobFirstPage::payload(16384), 15680);
        assert_eq!(LobFirstPage::entry_slot(96), Some(0));
        assert_eq!(LobFirstPage::entry_slot(96 + 9 * 60), Some(9));
        assert_eq!(LobFirstPage::entry_slot(96 + 10 * 60), None);
        assert_eq!(LobFirstPage::entry_slot(97), None);
        assert_eq!(LobFirstPage::entry_slot(38), None);
    }

    #[test]
    fn reads_header_and_checks_data_length() {
        let mut page = vec![0u8; 1024];
        page[LOB_FIRST_LOB_VERSION + 3] = 3;
        page[LOB_FIRST_DATA_LEN + 3] = 200;
        page[LOB_FIRST_INDEX_LIST + 3] = 1;
        let h = LobFirstPage::parse(&page).unwrap();
        assert_eq!(
            (h.common.lob_version, h.common.data_len, h.index_list.len),
            (3, 200, 1)
        );
        assert!(h.common.can_be_partially_updated());
        assert_eq!(h.data(&page).unwrap().len(), 200);
        let f = h.fields_at(0, &crate::context::PageContext::default());
        assert_eq!(f.len(), 9);
        assert_eq!(
            (f[5].name, f[5].offset, f[5].value),
            ("OFFSET_DATA_LEN", 54, 200)
        );
        // 1024 - 696 - 8 = 320 bytes at most.
        page[LOB_FIRST_DATA_LEN + 2] = 1;
        let h = LobFirstPage::parse(&page).unwrap();
        assert!(h.data(&page).is_err());
        assert!(LobFirstPage::parse(&page[..90]).is_err());
    }
}

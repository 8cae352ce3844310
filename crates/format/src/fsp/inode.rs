//! INODE pages (`FIL_PAGE_INODE`, `fsp0fsp.h`) and their file-segment entries.
//!
//! The page: `FSEG_INODE_PAGE_NODE` at 38 (12 bytes, links the page into
//! `FSP_SEG_INODES_FULL`/`FREE`), entries from `FSEG_ARR_OFFSET` = 50. An entry:
//! `FSEG_ID` 0 (8), `FSEG_NOT_FULL_N_USED` 8 (4), `FSEG_FREE` 12, `FSEG_NOT_FULL`
//! 28, `FSEG_FULL` 44 (list bases, 16 each), `FSEG_MAGIC_N` 60 (4), then
//! `FSEG_FRAG_ARR` 64: `FSP_EXTENT_SIZE / 2` fragment-page slots of 4 bytes.

use crate::bytes::{slice, u32_at};
use crate::context::PageContext;
use crate::field::{Field, Pointer};
use crate::fsp::flst::{FlstBase, FlstNode};
use crate::layout::layout;
use crate::section::Body;
use crate::FormatError;

layout! {
    /// The INODE page's own header (absolute offsets).
    pub struct InodePageHeader {
        /// Offset 38 (`FSEG_INODE_PAGE_NODE`, 12 bytes): links the page into
        /// `FSP_SEG_INODES_FULL` or `FSP_SEG_INODES_FREE`.
        FSEG_INODE_PAGE_NODE @ 38 => node: FlstNode;
    }
}

/// Absolute offset of the first entry (`FSEG_ARR_OFFSET`).
pub const FSEG_ARR_OFFSET: usize = InodePageHeader::END;

layout! {
    /// The fixed part of a file-segment entry, offsets from the entry's
    /// start; the fragment array (`FSEG_FRAG_ARR`) follows it.
    pub struct InodeFixed {
        /// Offset 0 (`FSEG_ID`, 8 bytes): the segment id; 0 for an unused slot.
        FSEG_ID @ 0 => id: u64, points segment;
        /// Offset 8 (`FSEG_NOT_FULL_N_USED`, 4 bytes): used pages in the NOT_FULL extents.
        FSEG_NOT_FULL_N_USED @ 8 => not_full_n_used: u32;
        /// Offset 12 (`FSEG_FREE`, list base): the segment's free extents.
        FSEG_FREE @ 12 => free: FlstBase;
        /// Offset 28 (`FSEG_NOT_FULL`, list base): its partly used extents.
        FSEG_NOT_FULL @ 28 => not_full: FlstBase;
        /// Offset 44 (`FSEG_FULL`, list base): its full extents.
        FSEG_FULL @ 44 => full: FlstBase;
        /// Offset 60 (`FSEG_MAGIC_N`, 4 bytes): `FSEG_MAGIC_N_VALUE` in a valid entry.
        FSEG_MAGIC_N @ 60 => magic: u32, shows show_magic;
    }
}

/// Offset of `FSEG_FRAG_ARR` within an entry: `FSP_EXTENT_SIZE / 2` page numbers.
pub const FSEG_FRAG_ARR: usize = InodeFixed::END;
/// `FSEG_MAGIC_N_VALUE`.
pub const FSEG_MAGIC_N_VALUE: u32 = 97_937_874;

fn show_magic(v: &u32, _: &PageContext) -> Option<String> {
    Some(
        if *v == FSEG_MAGIC_N_VALUE {
            "valid"
        } else {
            "wrong"
        }
        .into(),
    )
}

/// Fragment-page slots per entry (`FSEG_FRAG_ARR_N_SLOTS` = `FSP_EXTENT_SIZE / 2`).
pub fn frag_slots(extent_size: usize) -> usize {
    extent_size / 2
}

/// Size of one entry (`FSEG_INODE_SIZE`).
pub fn inode_size(extent_size: usize) -> usize {
    FSEG_FRAG_ARR + 4 * frag_slots(extent_size)
}

/// Entries per INODE page (`FSP_SEG_INODES_PER_PAGE`).
pub fn inodes_per_page(physical_page_size: usize, extent_size: usize) -> usize {
    physical_page_size.saturating_sub(FSEG_ARR_OFFSET + 10) / inode_size(extent_size).max(1)
}

/// One file-segment entry, borrowed from its INODE page.
#[derive(Debug, Clone, Copy)]
pub struct Inode<'a> {
    bytes: &'a [u8],
    fixed: InodeFixed,
    offset: usize,
    extent_size: usize,
}

impl<'a> Inode<'a> {
    /// Entry `index` of an INODE page.
    pub fn at(page: &'a [u8], index: usize, extent_size: usize) -> Result<Self, FormatError> {
        let offset = FSEG_ARR_OFFSET + index * inode_size(extent_size);
        Self::at_offset(page, offset, extent_size)
    }

    /// The entry at absolute byte `offset` (as an `FSEG_HEADER` gives it).
    pub fn at_offset(
        page: &'a [u8],
        offset: usize,
        extent_size: usize,
    ) -> Result<Self, FormatError> {
        let bytes = slice(page, offset, inode_size(extent_size), "FSEG_INODE")?;
        Ok(Inode {
            bytes,
            fixed: InodeFixed::parse_at(bytes, 0)?,
            offset,
            extent_size,
        })
    }

    /// The entry index an `FSEG_HEADER` offset designates, if it is the start of one.
    pub fn index_of_offset(
        offset: usize,
        physical_page_size: usize,
        extent_size: usize,
    ) -> Option<usize> {
        let size = inode_size(extent_size);
        let rel = offset.checked_sub(FSEG_ARR_OFFSET)?;
        let index = rel / size;
        (rel % size == 0 && index < inodes_per_page(physical_page_size, extent_size))
            .then_some(index)
    }

    /// Absolute offset of the entry on its page.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// `FSEG_ID` (offset 0): the segment id; 0 for an unused slot.
    pub fn segment_id(&self) -> u64 {
        self.fixed.id
    }

    /// `FSEG_NOT_FULL_N_USED` (offset 8): used pages in the NOT_FULL extents.
    pub fn not_full_n_used(&self) -> u32 {
        self.fixed.not_full_n_used
    }

    /// `FSEG_FREE` (offset 12): the segment's free extents.
    pub fn free(&self) -> FlstBase {
        self.fixed.free
    }

    /// `FSEG_NOT_FULL` (offset 28): partly used extents.
    pub fn not_full(&self) -> FlstBase {
        self.fixed.not_full
    }

    /// `FSEG_FULL` (offset 44): full extents.
    pub fn full(&self) -> FlstBase {
        self.fixed.full
    }

    /// `FSEG_MAGIC_N` (offset 60).
    pub fn magic(&self) -> u32 {
        self.fixed.magic
    }

    /// `FSEG_FRAG_ARR` (offset 64): every slot, `FIL_NULL` for an empty one.
    pub fn frag_slots(&self) -> impl Iterator<Item = u32> + 'a {
        let bytes = self.bytes;
        (0..frag_slots(self.extent_size)).map(move |i| {
            u32_at(bytes, FSEG_FRAG_ARR + 4 * i, "FSEG_FRAG_ARR").unwrap_or(crate::FIL_NULL)
        })
    }

    /// The entry's fields for display at their absolute offsets: the
    /// declared fixed part, then the fragment array as the count of pages
    /// in use, listed, pointing at the first.
    pub fn fields_at(&self, ctx: &PageContext) -> Vec<Field> {
        let frag: Vec<String> = self.frag_pages().map(|p| p.to_string()).collect();
        let mut out = self.fixed.fields_at(self.offset, ctx);
        out.push(
            Field::with_meaning(
                self.offset + FSEG_FRAG_ARR,
                4 * frag_slots(self.extent_size),
                "FSEG_FRAG_ARR",
                frag.len() as u64,
                if frag.is_empty() {
                    "no fragment pages".to_string()
                } else {
                    format!("pages {}", frag.join(", "))
                },
            )
            .pointing(self.frag_pages().next().map(Pointer::Page)),
        );
        out
    }

    /// The fragment pages in use.
    pub fn frag_pages(&self) -> impl Iterator<Item = u32> + 'a {
        self.frag_slots().filter(|&p| p != crate::FIL_NULL)
    }
}

/// The INODE page's list node and one section per segment entry in use.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    body.add(
        "INODE page list node",
        InodePageHeader::parse_at(page, 0).map(|h| h.fields_at(0, ctx)),
    );
    for i in 0..inodes_per_page(page.len(), ctx.extent_size) {
        let Some(e) = body.keep(Inode::at(page, i, ctx.extent_size)) else {
            break;
        };
        if e.segment_id() != 0 {
            body.push(
                format!("INODE entry {i}: segment {}", e.segment_id()),
                e.fields_at(ctx),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_extent_size() {
        // Values from fsp0fsp.h: FSEG_INODE_SIZE = 16 + 3 * 16 + 4 * FSP_EXTENT_SIZE / 2.
        assert_eq!(inode_size(64), 192);
        assert_eq!(inode_size(128), 320);
        assert_eq!(inode_size(256), 576);
        assert_eq!(inodes_per_page(16384, 64), 85);
        assert_eq!(inodes_per_page(4096, 256), 7);
        assert_eq!(inodes_per_page(1024, 256), 1);
        assert_eq!(Inode::index_of_offset(50 + 192 * 2, 16384, 64), Some(2));
        assert_eq!(Inode::index_of_offset(51, 16384, 64), None);
        assert_eq!(Inode::index_of_offset(50 + 192 * 85, 16384, 64), None);
    }
}

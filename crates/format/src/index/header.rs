//! Index page header (`PAGE_HEADER` = 38, 56 bytes): the fields of B-tree,
//! R-tree and SDI pages up to the two segment headers.

use crate::context::PageContext;
pub use crate::fsp::fseg_header::FsegHeader;
use crate::layout::layout;
use crate::section::Body;
use crate::FormatError;

/// Offset of the index page header (`PAGE_HEADER`).
pub const PAGE_HEADER: usize = 38;

layout! {
    /// The header of an index page (absolute offsets).
    pub struct IndexHeader {
        /// Offset 38 (`PAGE_N_DIR_SLOTS`, 2 bytes): slots in the page directory.
        PAGE_N_DIR_SLOTS @ 38 => n_dir_slots: u16;
        /// Offset 40 (`PAGE_HEAP_TOP`, 2 bytes): the first byte after the record heap.
        PAGE_HEAP_TOP @ 40 => heap_top: u16;
        /// Offset 42 (`PAGE_N_HEAP`, 2 bytes) as stored: records in the heap,
        /// bit 15 set for the COMPACT record format.
        PAGE_N_HEAP @ 42 => n_heap_raw: u16, shows show_n_heap;
        /// Offset 44 (`PAGE_FREE`, 2 bytes): the first record of the garbage list.
        PAGE_FREE @ 44 => free: u16;
        /// Offset 46 (`PAGE_GARBAGE`, 2 bytes): bytes in deleted records.
        PAGE_GARBAGE @ 46 => garbage: u16;
        /// Offset 48 (`PAGE_LAST_INSERT`, 2 bytes): the last inserted record.
        PAGE_LAST_INSERT @ 48 => last_insert: u16;
        /// Offset 50 (`PAGE_DIRECTION`, 2 bytes) as stored (MariaDB instant
        /// root: `PAGE_INSTANT` in bits 3-15).
        PAGE_DIRECTION @ 50 => direction_raw: u16, shows show_direction;
        /// Offset 52 (`PAGE_N_DIRECTION`, 2 bytes): inserts in the same direction.
        PAGE_N_DIRECTION @ 52 => n_direction: u16;
        /// Offset 54 (`PAGE_N_RECS`, 2 bytes): user records on the page.
        PAGE_N_RECS @ 54 => n_recs: u16;
        /// Offset 56 (`PAGE_MAX_TRX_ID`, 8 bytes): the newest transaction
        /// that changed a secondary index leaf (MariaDB clustered root:
        /// `PAGE_ROOT_AUTO_INC`).
        PAGE_MAX_TRX_ID @ 56 => max_trx_id: u64;
        /// Offset 64 (`PAGE_LEVEL`, 2 bytes): the level in the tree, 0 for leaves.
        PAGE_LEVEL @ 64 => level: u16, shows show_level;
        /// Offset 66 (`PAGE_INDEX_ID`, 8 bytes): the index the page belongs to.
        PAGE_INDEX_ID @ 66 => index_id: u64;
        /// Offset 74 (`PAGE_BTR_SEG_LEAF`, 10 bytes): the leaf segment (meaningful on the root only).
        PAGE_BTR_SEG_LEAF @ 74 => seg_leaf: FsegHeader;
        /// Offset 84 (`PAGE_BTR_SEG_TOP`, 10 bytes): the non-leaf segment (meaningful on the root only).
        PAGE_BTR_SEG_TOP @ 84 => seg_top: FsegHeader;
    }
}

/// Size of the fields decoded here (up to and including `PAGE_BTR_SEG_TOP`).
pub const PAGE_HEADER_SIZE: usize = IndexHeader::END - PAGE_HEADER;

fn show_n_heap(raw: &u16, _: &PageContext) -> Option<String> {
    Some(format!(
        "{} records, {} format",
        raw & 0x7FFF,
        if raw & 0x8000 != 0 {
            "COMPACT"
        } else {
            "REDUNDANT"
        }
    ))
}

fn show_direction(raw: &u16, _: &PageContext) -> Option<String> {
    let direction = match raw & 7 {
        1 => "LEFT",
        2 => "RIGHT",
        3 => "SAME_REC",
        4 => "SAME_PAGE",
        5 => "NO_DIRECTION",
        _ => "none",
    };
    Some(if raw >> 3 != 0 {
        format!("{direction}; PAGE_INSTANT n_core_fields={}", raw >> 3)
    } else {
        direction.to_string()
    })
}

fn show_level(level: &u16, _: &PageContext) -> Option<String> {
    Some(if *level == 0 { "leaf" } else { "non-leaf" }.into())
}

impl IndexHeader {
    /// Reads the header from an (uncompressed, logical) index page image.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        Self::parse_at(page, 0)
    }

    /// True for the COMPACT (and DYNAMIC/COMPRESSED) record format.
    pub fn is_compact(&self) -> bool {
        self.n_heap_raw & 0x8000 != 0
    }

    /// Records in the heap, including infimum, supremum and deleted ones.
    pub fn n_heap(&self) -> u16 {
        self.n_heap_raw & 0x7FFF
    }
}

/// The INDEX page header section of a B-tree, R-tree or SDI page.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    body.add(
        "INDEX page header",
        IndexHeader::parse(page).map(|h| h.fields_at(0, ctx)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_fields_and_meanings() {
        assert_eq!(PAGE_HEADER_SIZE, 56);
        let mut p = vec![0u8; 200];
        p[42..44].copy_from_slice(&(0x8000u16 | 7).to_be_bytes());
        p[50..52].copy_from_slice(&((3u16 << 3) | 2).to_be_bytes());
        let h = IndexHeader::parse(&p).unwrap();
        assert!(h.is_compact());
        assert_eq!(h.n_heap(), 7);
        let f = h.fields_at(0, &PageContext::default());
        assert_eq!(f.len(), 14);
        assert_eq!(f[2].meaning.as_deref(), Some("7 records, COMPACT format"));
        assert_eq!(
            f[6].meaning.as_deref(),
            Some("RIGHT; PAGE_INSTANT n_core_fields=3")
        );
        assert_eq!(f[10].meaning.as_deref(), Some("leaf"));
        assert_eq!(f[12].meaning.as_deref(), Some("space 0 page 0 offset 0"));
    }
}

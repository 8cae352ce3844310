//! A fragment entry of a compressed MySQL 8.0+ LOB (`lob0impl.h`,
//! `z_frag_entry_t`, 24 bytes): a file list node describing one
//! `FIL_PAGE_TYPE_ZLOB_FRAG` page (its number, fragments, used and free
//! space). The first page holds a fixed number of them after its index
//! entries; more live on `FIL_PAGE_TYPE_ZLOB_FRAG_ENTRY` pages (version byte
//! at offset 38, entries from offset 39). Reading a LOB does not need them.

use crate::fsp::flst::FlstNode;
use crate::layout::layout;

layout! {
    /// One fragment entry (`z_frag_entry_t`, 24 bytes, offsets from the entry's start).
    pub struct ZlobFragEntry {
        /// Offset 0 (`OFFSET_PREV` and `OFFSET_NEXT`, two 6-byte file addresses): the list links.
        ZLOB_FRAG_ENTRY_PREV "OFFSET_PREV/OFFSET_NEXT" @ 0 => node: FlstNode;
        /// Offset 12 (`OFFSET_PAGE_NO`, 4 bytes): the fragment page described, `FIL_NULL` for none.
        ZLOB_FRAG_ENTRY_PAGE_NO "OFFSET_PAGE_NO" @ 12 => page_no: u32, points page;
        /// Offset 16 (`OFFSET_N_FRAGS`, 2 bytes): fragments in use on that page.
        ZLOB_FRAG_ENTRY_N_FRAGS "OFFSET_N_FRAGS" @ 16 => n_frags: u16;
        /// Offset 18 (`OFFSET_USED_LEN`, 2 bytes): bytes used.
        ZLOB_FRAG_ENTRY_USED_LEN "OFFSET_USED_LEN" @ 18 => used_len: u16;
        /// Offset 20 (`OFFSET_TOTAL_FREE_LEN`, 2 bytes): bytes free in all.
        ZLOB_FRAG_ENTRY_TOTAL_FREE_LEN "OFFSET_TOTAL_FREE_LEN" @ 20 => total_free_len: u16;
        /// Offset 22 (`OFFSET_BIG_FREE_LEN`, 2 bytes): the largest free fragment.
        ZLOB_FRAG_ENTRY_BIG_FREE_LEN "OFFSET_BIG_FREE_LEN" @ 22 => big_free_len: u16;
    }
}

/// Size of a fragment entry (`z_frag_entry_t::SIZE`).
pub const ZLOB_FRAG_ENTRY_SIZE: usize = ZlobFragEntry::END;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_an_entry() {
        assert_eq!(ZLOB_FRAG_ENTRY_SIZE, 24);
        let mut b = vec![0xFFu8; 24];
        b[12..16].copy_from_slice(&9u32.to_be_bytes());
        b[16..18].copy_from_slice(&2u16.to_be_bytes());
        let e = ZlobFragEntry::parse_at(&b, 0).unwrap();
        assert_eq!((e.page_no, e.n_frags), (9, 2));
        assert!(e.node.prev.is_null());
        assert!(ZlobFragEntry::parse_at(&b, 1).is_err());
    }
}

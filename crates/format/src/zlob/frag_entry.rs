//! A fragment entry of a compressed MySQL 8.0+ LOB (`lob0impl.h`,
//! `z_frag_entry_t`, 24 bytes): a file list node describing one
//! `FIL_PAGE_TYPE_ZLOB_FRAG` page (its number, fragments, used and free
//! space). The first page holds a fixed number of them after its index
//! entries; more live on `FIL_PAGE_TYPE_ZLOB_FRAG_ENTRY` pages (version byte
//! at offset 38, entries from offset 39). Reading a LOB does not need them.

use crate::bytes::{slice, u16_at, u32_at};
use crate::fsp::flst::{FlstNode, FLST_NODE_SIZE};
use crate::FormatError;
use serde::Serialize;

/// Offset 0 within the entry: `OFFSET_PREV` and `OFFSET_NEXT` (6-byte file addresses).
pub const ZLOB_FRAG_ENTRY_PREV: usize = 0;
/// Offset 12: `OFFSET_PAGE_NO` (4 bytes), the fragment page described.
pub const ZLOB_FRAG_ENTRY_PAGE_NO: usize = 12;
/// Offset 16: `OFFSET_N_FRAGS` (2 bytes), fragments in use on that page.
pub const ZLOB_FRAG_ENTRY_N_FRAGS: usize = 16;
/// Offset 18: `OFFSET_USED_LEN` (2 bytes), bytes used.
pub const ZLOB_FRAG_ENTRY_USED_LEN: usize = 18;
/// Offset 20: `OFFSET_TOTAL_FREE_LEN` (2 bytes), bytes free in all.
pub const ZLOB_FRAG_ENTRY_TOTAL_FREE_LEN: usize = 20;
/// Offset 22: `OFFSET_BIG_FREE_LEN` (2 bytes), the largest free fragment.
pub const ZLOB_FRAG_ENTRY_BIG_FREE_LEN: usize = 22;
/// Size of a fragment entry (`z_frag_entry_t::SIZE`).
pub const ZLOB_FRAG_ENTRY_SIZE: usize = 24;

/// One fragment entry (`z_frag_entry_t`, 24 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ZlobFragEntry {
    /// `OFFSET_PREV` / `OFFSET_NEXT` (offsets 0 and 6): the list links.
    pub node: FlstNode,
    /// `OFFSET_PAGE_NO` (offset 12): the fragment page, `FIL_NULL` for none.
    pub page_no: u32,
    /// `OFFSET_N_FRAGS` (offset 16): fragments in use.
    pub n_frags: u16,
    /// `OFFSET_USED_LEN` (offset 18): bytes used.
    pub used_len: u16,
    /// `OFFSET_TOTAL_FREE_LEN` (offset 20): bytes free.
    pub total_free_len: u16,
    /// `OFFSET_BIG_FREE_LEN` (offset 22): the largest free fragment.
    pub big_free_len: u16,
}

impl ZlobFragEntry {
    /// Reads the entry starting at absolute `offset` of `page`.
    pub fn parse_at(page: &[u8], offset: usize) -> Result<Self, FormatError> {
        let b = slice(page, offset, ZLOB_FRAG_ENTRY_SIZE, "ZLOB fragment entry")?;
        Ok(ZlobFragEntry {
            node: FlstNode::parse(slice(
                b,
                ZLOB_FRAG_ENTRY_PREV,
                FLST_NODE_SIZE,
                "OFFSET_PREV",
            )?)?,
            page_no: u32_at(b, ZLOB_FRAG_ENTRY_PAGE_NO, "OFFSET_PAGE_NO")?,
            n_frags: u16_at(b, ZLOB_FRAG_ENTRY_N_FRAGS, "OFFSET_N_FRAGS")?,
            used_len: u16_at(b, ZLOB_FRAG_ENTRY_USED_LEN, "OFFSET_USED_LEN")?,
            total_free_len: u16_at(b, ZLOB_FRAG_ENTRY_TOTAL_FREE_LEN, "OFFSET_TOTAL_FREE_LEN")?,
            big_free_len: u16_at(b, ZLOB_FRAG_ENTRY_BIG_FREE_LEN, "OFFSET_BIG_FREE_LEN")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_an_entry() {
        let mut b = vec![0xFFu8; 24];
        b[12..16].copy_from_slice(&9u32.to_be_bytes());
        b[16..18].copy_from_slice(&2u16.to_be_bytes());
        let e = ZlobFragEntry::parse_at(&b, 0).unwrap();
        assert_eq!((e.page_no, e.n_frags), (9, 2));
        assert!(e.node.prev.is_null());
        assert!(ZlobFragEntry::parse_at(&b, 1).is_err());
    }
}

//! An index entry of an uncompressed MySQL 8.0+ LOB (`lob0index.h`,
//! `index_entry_t`, 60 bytes).
//!
//! Each entry describes one piece of the LOB: the page holding it (the
//! first page or a `FIL_PAGE_TYPE_LOB_DATA` page), its length and the LOB
//! version that wrote it. Entries are file list nodes: the first page's
//! index list links the entries of the current version in LOB order, and
//! each entry heads a list of the older entries it replaced (partial
//! updates), newest first. Ten entries sit on the first page; more on
//! `FIL_PAGE_TYPE_LOB_INDEX` pages.

use crate::bytes::{slice, u16_at, u32_at, u48_at};
use crate::field::{page_no_meaning, Field};
use crate::fsp::flst::{FlstBase, FlstNode, FLST_BASE_NODE_SIZE, FLST_NODE_SIZE};
use crate::FormatError;
use serde::Serialize;

/// Offset 0 within the entry: `OFFSET_PREV` (6-byte file address).
pub const LOB_ENTRY_PREV: usize = 0;
/// Offset 6: `OFFSET_NEXT` (6-byte file address).
pub const LOB_ENTRY_NEXT: usize = 6;
/// Offset 12: `OFFSET_VERSIONS` (16-byte list base), the older versions of this entry.
pub const LOB_ENTRY_VERSIONS: usize = 12;
/// Offset 28: `OFFSET_TRXID` (6 bytes), the creating transaction.
pub const LOB_ENTRY_TRXID: usize = 28;
/// Offset 34: `OFFSET_TRXID_MODIFIER` (6 bytes), the transaction that replaced the entry.
pub const LOB_ENTRY_TRXID_MODIFIER: usize = 34;
/// Offset 40: `OFFSET_TRX_UNDO_NO` (4 bytes), the creator's undo number.
pub const LOB_ENTRY_TRX_UNDO_NO: usize = 40;
/// Offset 44: `OFFSET_TRX_UNDO_NO_MODIFIER` (4 bytes), the modifier's undo number.
pub const LOB_ENTRY_TRX_UNDO_NO_MODIFIER: usize = 44;
/// Offset 48: `OFFSET_PAGE_NO` (4 bytes), the page holding the data.
pub const LOB_ENTRY_PAGE_NO: usize = 48;
/// Offset 52: `OFFSET_DATA_LEN`. The slot is 4 bytes wide but the server
/// reads and writes only its first 2 (`mach_read_from_2`); the other 2 are zero.
pub const LOB_ENTRY_DATA_LEN: usize = 52;
/// Offset 56: `OFFSET_LOB_VERSION` (4 bytes), the LOB version that wrote the data.
pub const LOB_ENTRY_LOB_VERSION: usize = 56;
/// Size of an index entry (`index_entry_t::SIZE`).
pub const LOB_INDEX_ENTRY_SIZE: usize = 60;

/// One index entry of an uncompressed LOB (`index_entry_t`, 60 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LobIndexEntry {
    /// `OFFSET_PREV` and `OFFSET_NEXT` (offsets 0 and 6): the list links.
    pub node: FlstNode,
    /// `OFFSET_VERSIONS` (offset 12): the older versions of this entry, newest first.
    pub versions: FlstBase,
    /// `OFFSET_TRXID` (offset 28, 6 bytes): the creating transaction.
    pub trx_id: u64,
    /// `OFFSET_TRXID_MODIFIER` (offset 34, 6 bytes): the transaction that replaced it.
    pub trx_id_modifier: u64,
    /// `OFFSET_TRX_UNDO_NO` (offset 40): the creator's undo number.
    pub trx_undo_no: u32,
    /// `OFFSET_TRX_UNDO_NO_MODIFIER` (offset 44): the modifier's undo number.
    pub trx_undo_no_modifier: u32,
    /// `OFFSET_PAGE_NO` (offset 48): the page holding this piece, `FIL_NULL` for none.
    pub page_no: u32,
    /// `OFFSET_DATA_LEN` (offset 52, 2 bytes used): bytes of data in this piece.
    pub data_len: u16,
    /// `OFFSET_LOB_VERSION` (offset 56): the LOB version that wrote this piece.
    pub lob_version: u32,
}

impl LobIndexEntry {
    /// Reads the entry starting at absolute `offset` of `page`.
    pub fn parse_at(page: &[u8], offset: usize) -> Result<Self, FormatError> {
        let b = slice(page, offset, LOB_INDEX_ENTRY_SIZE, "LOB index entry")?;
        Ok(LobIndexEntry {
            node: FlstNode::parse(slice(b, LOB_ENTRY_PREV, FLST_NODE_SIZE, "OFFSET_PREV")?)?,
            versions: FlstBase::parse(slice(
                b,
                LOB_ENTRY_VERSIONS,
                FLST_BASE_NODE_SIZE,
                "OFFSET_VERSIONS",
            )?)?,
            trx_id: u48_at(b, LOB_ENTRY_TRXID, "OFFSET_TRXID")?,
            trx_id_modifier: u48_at(b, LOB_ENTRY_TRXID_MODIFIER, "OFFSET_TRXID_MODIFIER")?,
            trx_undo_no: u32_at(b, LOB_ENTRY_TRX_UNDO_NO, "OFFSET_TRX_UNDO_NO")?,
            trx_undo_no_modifier: u32_at(
                b,
                LOB_ENTRY_TRX_UNDO_NO_MODIFIER,
                "OFFSET_TRX_UNDO_NO_MODIFIER",
            )?,
            page_no: u32_at(b, LOB_ENTRY_PAGE_NO, "OFFSET_PAGE_NO")?,
            data_len: u16_at(b, LOB_ENTRY_DATA_LEN, "OFFSET_DATA_LEN")?,
            lob_version: u32_at(b, LOB_ENTRY_LOB_VERSION, "OFFSET_LOB_VERSION")?,
        })
    }

    /// The entry's fields at absolute offsets, the entry starting at `at`.
    pub fn fields(&self, at: usize) -> Vec<Field> {
        let page = match page_no_meaning(self.page_no) {
            Some(m) => Field::with_meaning(
                at + LOB_ENTRY_PAGE_NO,
                4,
                "OFFSET_PAGE_NO",
                self.page_no.into(),
                m,
            ),
            None => Field::new(
                at + LOB_ENTRY_PAGE_NO,
                4,
                "OFFSET_PAGE_NO",
                self.page_no.into(),
            ),
        };
        vec![
            self.node
                .field(at + LOB_ENTRY_PREV, "OFFSET_PREV/OFFSET_NEXT"),
            self.versions
                .field(at + LOB_ENTRY_VERSIONS, "OFFSET_VERSIONS"),
            Field::new(at + LOB_ENTRY_TRXID, 6, "OFFSET_TRXID", self.trx_id),
            Field::new(
                at + LOB_ENTRY_TRXID_MODIFIER,
                6,
                "OFFSET_TRXID_MODIFIER",
                self.trx_id_modifier,
            ),
            Field::new(
                at + LOB_ENTRY_TRX_UNDO_NO,
                4,
                "OFFSET_TRX_UNDO_NO",
                self.trx_undo_no.into(),
            ),
            Field::new(
                at + LOB_ENTRY_TRX_UNDO_NO_MODIFIER,
                4,
                "OFFSET_TRX_UNDO_NO_MODIFIER",
                self.trx_undo_no_modifier.into(),
            ),
            page,
            Field::new(
                at + LOB_ENTRY_DATA_LEN,
                2,
                "OFFSET_DATA_LEN",
                self.data_len.into(),
            ),
            Field::new(
                at + LOB_ENTRY_LOB_VERSION,
                4,
                "OFFSET_LOB_VERSION",
                self.lob_version.into(),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_an_entry() {
        // Entry 0 of sakila 8.0 staff.ibd page 7: first page data, 15680 bytes, version 1.
        let hex = "ffffffff000000000007009c00000000ffffffff0000ffffffff0000000000000642\
                   0000000006420000000000000000000000073d40000000000001";
        let b: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        let e = LobIndexEntry::parse_at(&b, 0).unwrap();
        assert!(e.node.prev.is_null());
        assert_eq!((e.node.next.page, e.node.next.byte), (7, 156));
        assert_eq!(e.versions.len, 0);
        assert_eq!((e.trx_id, e.trx_id_modifier), (0x642, 0x642));
        assert_eq!((e.page_no, e.data_len, e.lob_version), (7, 15680, 1));
        assert_eq!(e.fields(96).len(), 9);
        assert!(LobIndexEntry::parse_at(&b, 1).is_err());
    }
}

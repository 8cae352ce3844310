//! An index entry of a compressed MySQL 8.0+ LOB (`zlob0index.h`,
//! `z_index_entry_t`, 66 bytes).
//!
//! A compressed LOB (ROW_FORMAT=COMPRESSED tables) is cut into chunks, each
//! deflated into its own zlib stream. An entry names one stream: the page it
//! starts on (the first page, a `FIL_PAGE_TYPE_ZLOB_DATA` page or a
//! `FIL_PAGE_TYPE_ZLOB_FRAG` page), the fragment id when it starts in a
//! fragment, and its compressed and uncompressed lengths. As for the
//! uncompressed format, entries are file list nodes: the first page's index
//! list links the current version, each entry heads its older versions.

use crate::bytes::{slice, u16_at, u32_at, u48_at};
use crate::field::{page_no_meaning, Field};
use crate::fsp::flst::{FlstBase, FlstNode, FLST_BASE_NODE_SIZE, FLST_NODE_SIZE};
use crate::FormatError;
use serde::Serialize;

/// Offset 0 within the entry: `OFFSET_PREV` (6-byte file address).
pub const ZLOB_ENTRY_PREV: usize = 0;
/// Offset 6: `OFFSET_NEXT` (6-byte file address).
pub const ZLOB_ENTRY_NEXT: usize = 6;
/// Offset 12: `OFFSET_VERSIONS` (16-byte list base), the older versions of this entry.
pub const ZLOB_ENTRY_VERSIONS: usize = 12;
/// Offset 28: `OFFSET_TRXID` (6 bytes), the creating transaction.
pub const ZLOB_ENTRY_TRXID: usize = 28;
/// Offset 34: `OFFSET_TRXID_MODIFIER` (6 bytes), the transaction that replaced the entry.
pub const ZLOB_ENTRY_TRXID_MODIFIER: usize = 34;
/// Offset 40: `OFFSET_TRX_UNDO_NO` (4 bytes), the creator's undo number.
pub const ZLOB_ENTRY_TRX_UNDO_NO: usize = 40;
/// Offset 44: `OFFSET_TRX_UNDO_NO_MODIFIER` (4 bytes), the modifier's undo number.
pub const ZLOB_ENTRY_TRX_UNDO_NO_MODIFIER: usize = 44;
/// Offset 48: `OFFSET_Z_PAGE_NO` (4 bytes), the page where the zlib stream starts.
pub const ZLOB_ENTRY_Z_PAGE_NO: usize = 48;
/// Offset 52: `OFFSET_Z_FRAG_ID` (2 bytes), the fragment id when the stream is in a fragment page.
pub const ZLOB_ENTRY_Z_FRAG_ID: usize = 52;
/// Offset 54: `OFFSET_DATA_LEN` (4 bytes), the chunk's uncompressed length.
pub const ZLOB_ENTRY_DATA_LEN: usize = 54;
/// Offset 58: `OFFSET_ZDATA_LEN` (4 bytes), the zlib stream's length.
pub const ZLOB_ENTRY_ZDATA_LEN: usize = 58;
/// Offset 62: `OFFSET_LOB_VERSION` (4 bytes), the LOB version that wrote the chunk.
pub const ZLOB_ENTRY_LOB_VERSION: usize = 62;
/// Size of an index entry (`z_index_entry_t::SIZE`).
pub const ZLOB_INDEX_ENTRY_SIZE: usize = 66;
/// `FRAG_ID_NULL`: no fragment.
pub const FRAG_ID_NULL: u16 = 0xFFFF;

/// One index entry of a compressed LOB (`z_index_entry_t`, 66 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ZlobIndexEntry {
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
    /// `OFFSET_Z_PAGE_NO` (offset 48): where the zlib stream starts, `FIL_NULL` for none.
    pub z_page_no: u32,
    /// `OFFSET_Z_FRAG_ID` (offset 52): the fragment id, [`FRAG_ID_NULL`] for none.
    pub z_frag_id: u16,
    /// `OFFSET_DATA_LEN` (offset 54): the chunk's uncompressed length.
    pub data_len: u32,
    /// `OFFSET_ZDATA_LEN` (offset 58): the zlib stream's length.
    pub zdata_len: u32,
    /// `OFFSET_LOB_VERSION` (offset 62): the LOB version that wrote the chunk.
    pub lob_version: u32,
}

impl ZlobIndexEntry {
    /// Reads the entry starting at absolute `offset` of `page`.
    pub fn parse_at(page: &[u8], offset: usize) -> Result<Self, FormatError> {
        let b = slice(page, offset, ZLOB_INDEX_ENTRY_SIZE, "ZLOB index entry")?;
        Ok(ZlobIndexEntry {
            node: FlstNode::parse(slice(b, ZLOB_ENTRY_PREV, FLST_NODE_SIZE, "OFFSET_PREV")?)?,
            versions: FlstBase::parse(slice(
                b,
                ZLOB_ENTRY_VERSIONS,
                FLST_BASE_NODE_SIZE,
                "OFFSET_VERSIONS",
            )?)?,
            trx_id: u48_at(b, ZLOB_ENTRY_TRXID, "OFFSET_TRXID")?,
            trx_id_modifier: u48_at(b, ZLOB_ENTRY_TRXID_MODIFIER, "OFFSET_TRXID_MODIFIER")?,
            trx_undo_no: u32_at(b, ZLOB_ENTRY_TRX_UNDO_NO, "OFFSET_TRX_UNDO_NO")?,
            trx_undo_no_modifier: u32_at(
                b,
                ZLOB_ENTRY_TRX_UNDO_NO_MODIFIER,
                "OFFSET_TRX_UNDO_NO_MODIFIER",
            )?,
            z_page_no: u32_at(b, ZLOB_ENTRY_Z_PAGE_NO, "OFFSET_Z_PAGE_NO")?,
            z_frag_id: u16_at(b, ZLOB_ENTRY_Z_FRAG_ID, "OFFSET_Z_FRAG_ID")?,
            data_len: u32_at(b, ZLOB_ENTRY_DATA_LEN, "OFFSET_DATA_LEN")?,
            zdata_len: u32_at(b, ZLOB_ENTRY_ZDATA_LEN, "OFFSET_ZDATA_LEN")?,
            lob_version: u32_at(b, ZLOB_ENTRY_LOB_VERSION, "OFFSET_LOB_VERSION")?,
        })
    }

    /// The entry's fields at absolute offsets, the entry starting at `at`.
    pub fn fields(&self, at: usize) -> Vec<Field> {
        let page = match page_no_meaning(self.z_page_no) {
            Some(m) => Field::with_meaning(
                at + ZLOB_ENTRY_Z_PAGE_NO,
                4,
                "OFFSET_Z_PAGE_NO",
                self.z_page_no.into(),
                m,
            ),
            None => Field::new(
                at + ZLOB_ENTRY_Z_PAGE_NO,
                4,
                "OFFSET_Z_PAGE_NO",
                self.z_page_no.into(),
            ),
        };
        let frag = if self.z_frag_id == FRAG_ID_NULL {
            Field::with_meaning(
                at + ZLOB_ENTRY_Z_FRAG_ID,
                2,
                "OFFSET_Z_FRAG_ID",
                self.z_frag_id.into(),
                "FRAG_ID_NULL",
            )
        } else {
            Field::new(
                at + ZLOB_ENTRY_Z_FRAG_ID,
                2,
                "OFFSET_Z_FRAG_ID",
                self.z_frag_id.into(),
            )
        };
        vec![
            self.node
                .field(at + ZLOB_ENTRY_PREV, "OFFSET_PREV/OFFSET_NEXT"),
            self.versions
                .field(at + ZLOB_ENTRY_VERSIONS, "OFFSET_VERSIONS"),
            Field::new(at + ZLOB_ENTRY_TRXID, 6, "OFFSET_TRXID", self.trx_id),
            Field::new(
                at + ZLOB_ENTRY_TRXID_MODIFIER,
                6,
                "OFFSET_TRXID_MODIFIER",
                self.trx_id_modifier,
            ),
            Field::new(
                at + ZLOB_ENTRY_TRX_UNDO_NO,
                4,
                "OFFSET_TRX_UNDO_NO",
                self.trx_undo_no.into(),
            ),
            Field::new(
                at + ZLOB_ENTRY_TRX_UNDO_NO_MODIFIER,
                4,
                "OFFSET_TRX_UNDO_NO_MODIFIER",
                self.trx_undo_no_modifier.into(),
            ),
            page,
            frag,
            Field::new(
                at + ZLOB_ENTRY_DATA_LEN,
                4,
                "OFFSET_DATA_LEN",
                self.data_len.into(),
            ),
            Field::new(
                at + ZLOB_ENTRY_ZDATA_LEN,
                4,
                "OFFSET_ZDATA_LEN",
                self.zdata_len.into(),
            ),
            Field::new(
                at + ZLOB_ENTRY_LOB_VERSION,
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
        let mut b = vec![0u8; 70];
        b[4..10].copy_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF, 0, 0]);
        b[4 + ZLOB_ENTRY_Z_PAGE_NO..4 + ZLOB_ENTRY_Z_PAGE_NO + 4]
            .copy_from_slice(&12u32.to_be_bytes());
        b[4 + ZLOB_ENTRY_Z_FRAG_ID..4 + ZLOB_ENTRY_Z_FRAG_ID + 2]
            .copy_from_slice(&3u16.to_be_bytes());
        b[4 + ZLOB_ENTRY_DATA_LEN..4 + ZLOB_ENTRY_DATA_LEN + 4]
            .copy_from_slice(&131072u32.to_be_bytes());
        b[4 + ZLOB_ENTRY_ZDATA_LEN..4 + ZLOB_ENTRY_ZDATA_LEN + 4]
            .copy_from_slice(&900u32.to_be_bytes());
        b[4 + ZLOB_ENTRY_LOB_VERSION..4 + ZLOB_ENTRY_LOB_VERSION + 4]
            .copy_from_slice(&2u32.to_be_bytes());
        let e = ZlobIndexEntry::parse_at(&b, 4).unwrap();
        assert!(e.node.prev.is_null());
        assert_eq!(
            (
                e.z_page_no,
                e.z_frag_id,
                e.data_len,
                e.zdata_len,
                e.lob_version
            ),
            (12, 3, 131072, 900, 2)
        );
        assert_eq!(e.fields(4).len(), 11);
        assert!(ZlobIndexEntry::parse_at(&b, 5).is_err());
    }
}

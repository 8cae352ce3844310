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

use crate::bytes::{slice, u32_at, u48_at, u8_at};
use crate::field::Field;
use crate::fil::header::FIL_PAGE_DATA;
use crate::fil::trailer::FIL_PAGE_DATA_END;
use crate::fsp::flst::{FlstBase, FLST_BASE_NODE_SIZE};
use crate::lob::index_entry::LOB_INDEX_ENTRY_SIZE;
use crate::FormatError;
use serde::Serialize;

/// Offset 38: `OFFSET_VERSION` (1 byte), the LOB format version (0).
pub const LOB_FIRST_VERSION: usize = FIL_PAGE_DATA;
/// Offset 39: `OFFSET_FLAGS` (1 byte); bit 0 set = no longer partially updatable.
pub const LOB_FIRST_FLAGS: usize = FIL_PAGE_DATA + 1;
/// Offset 40: `OFFSET_LOB_VERSION` (4 bytes), the LOB's latest version.
pub const LOB_FIRST_LOB_VERSION: usize = LOB_FIRST_FLAGS + 1;
/// Offset 44: `OFFSET_LAST_TRX_ID` (6 bytes), the last transaction that modified the LOB.
pub const LOB_FIRST_LAST_TRX_ID: usize = LOB_FIRST_LOB_VERSION + 4;
/// Offset 50: `OFFSET_LAST_UNDO_NO` (4 bytes), that transaction's undo number.
pub const LOB_FIRST_LAST_UNDO_NO: usize = LOB_FIRST_LAST_TRX_ID + 6;
/// Offset 54: `OFFSET_DATA_LEN` (4 bytes), bytes of LOB data stored on this page.
pub const LOB_FIRST_DATA_LEN: usize = LOB_FIRST_LAST_UNDO_NO + 4;
/// Offset 58: `OFFSET_TRX_ID` (6 bytes), the transaction that wrote this page's data.
pub const LOB_FIRST_TRX_ID: usize = LOB_FIRST_DATA_LEN + 4;
/// Offset 64: `OFFSET_INDEX_LIST` (16-byte list base), the LOB index.
pub const LOB_FIRST_INDEX_LIST: usize = LOB_FIRST_TRX_ID + 6;
/// Offset 80: `OFFSET_INDEX_FREE_NODES` (16-byte list base), free index entries.
pub const LOB_FIRST_INDEX_FREE_NODES: usize = LOB_FIRST_INDEX_LIST + FLST_BASE_NODE_SIZE;
/// Offset 96: `LOB_PAGE_DATA`, where the index entry array begins.
pub const LOB_FIRST_INDEX_ENTRIES: usize = LOB_FIRST_INDEX_FREE_NODES + FLST_BASE_NODE_SIZE;
/// Index entries on the first page (`first_page_t::node_count()`).
pub const LOB_FIRST_N_INDEX_ENTRIES: usize = 10;
/// Offset 696: where the LOB data on the first page begins (`data_begin()`).
pub const LOB_FIRST_DATA: usize =
    LOB_FIRST_INDEX_ENTRIES + LOB_FIRST_N_INDEX_ENTRIES * LOB_INDEX_ENTRY_SIZE;

/// The header of a `FIL_PAGE_TYPE_LOB_FIRST` page (offsets 38 to 96).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LobFirstPage {
    /// `OFFSET_VERSION` (offset 38): the LOB format version, 0.
    pub version: u8,
    /// `OFFSET_FLAGS` (offset 39): bit 0 set when the LOB can no longer be partially updated.
    pub flags: u8,
    /// `OFFSET_LOB_VERSION` (offset 40): the LOB's latest version.
    pub lob_version: u32,
    /// `OFFSET_LAST_TRX_ID` (offset 44, 6 bytes): the last transaction that modified the LOB.
    pub last_trx_id: u64,
    /// `OFFSET_LAST_UNDO_NO` (offset 50): that transaction's undo number.
    pub last_undo_no: u32,
    /// `OFFSET_DATA_LEN` (offset 54): bytes of LOB data stored on this page.
    pub data_len: u32,
    /// `OFFSET_TRX_ID` (offset 58, 6 bytes): the transaction that wrote this page's data.
    pub trx_id: u64,
    /// `OFFSET_INDEX_LIST` (offset 64): the LOB index, one entry per data page of the current version.
    pub index_list: FlstBase,
    /// `OFFSET_INDEX_FREE_NODES` (offset 80): the unused index entries.
    pub free_list: FlstBase,
}

impl LobFirstPage {
    /// Reads the header of a LOB first page image.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        Ok(LobFirstPage {
            version: u8_at(page, LOB_FIRST_VERSION, "OFFSET_VERSION")?,
            flags: u8_at(page, LOB_FIRST_FLAGS, "OFFSET_FLAGS")?,
            lob_version: u32_at(page, LOB_FIRST_LOB_VERSION, "OFFSET_LOB_VERSION")?,
            last_trx_id: u48_at(page, LOB_FIRST_LAST_TRX_ID, "OFFSET_LAST_TRX_ID")?,
            last_undo_no: u32_at(page, LOB_FIRST_LAST_UNDO_NO, "OFFSET_LAST_UNDO_NO")?,
            data_len: u32_at(page, LOB_FIRST_DATA_LEN, "OFFSET_DATA_LEN")?,
            trx_id: u48_at(page, LOB_FIRST_TRX_ID, "OFFSET_TRX_ID")?,
            index_list: FlstBase::parse(slice(
                page,
                LOB_FIRST_INDEX_LIST,
                FLST_BASE_NODE_SIZE,
                "OFFSET_INDEX_LIST",
            )?)?,
            free_list: FlstBase::parse(slice(
                page,
                LOB_FIRST_INDEX_FREE_NODES,
                FLST_BASE_NODE_SIZE,
                "OFFSET_INDEX_FREE_NODES",
            )?)?,
        })
    }

    /// True unless bit 0 of `OFFSET_FLAGS` says the LOB can no longer be partially updated.
    pub fn can_be_partially_updated(&self) -> bool {
        self.flags & 1 == 0
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
        let len = self.data_len as usize;
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

    /// The header's fields at their absolute offsets.
    pub fn fields(&self) -> Vec<Field> {
        vec![
            Field::new(LOB_FIRST_VERSION, 1, "OFFSET_VERSION", self.version.into()),
            Field::with_meaning(
                LOB_FIRST_FLAGS,
                1,
                "OFFSET_FLAGS",
                self.flags.into(),
                if self.can_be_partially_updated() {
                    "partially updatable"
                } else {
                    "not partially updatable"
                },
            ),
            Field::new(
                LOB_FIRST_LOB_VERSION,
                4,
                "OFFSET_LOB_VERSION",
                self.lob_version.into(),
            ),
            Field::new(
                LOB_FIRST_LAST_TRX_ID,
                6,
                "OFFSET_LAST_TRX_ID",
                self.last_trx_id,
            ),
            Field::new(
                LOB_FIRST_LAST_UNDO_NO,
                4,
                "OFFSET_LAST_UNDO_NO",
                self.last_undo_no.into(),
            ),
            Field::new(
                LOB_FIRST_DATA_LEN,
                4,
                "OFFSET_DATA_LEN",
                self.data_len.into(),
            ),
            Field::new(LOB_FIRST_TRX_ID, 6, "OFFSET_TRX_ID", self.trx_id),
            self.index_list
                .field(LOB_FIRST_INDEX_LIST, "OFFSET_INDEX_LIST"),
            self.free_list
                .field(LOB_FIRST_INDEX_FREE_NODES, "OFFSET_INDEX_FREE_NODES"),
        ]
    }
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
        assert_eq!((h.lob_version, h.data_len, h.index_list.len), (3, 200, 1));
        assert_eq!(h.data(&page).unwrap().len(), 200);
        assert_eq!(h.fields().len(), 9);
        // 1024 - 696 - 8 = 320 bytes at most.
        page[LOB_FIRST_DATA_LEN + 2] = 1;
        let h = LobFirstPage::parse(&page).unwrap();
        assert!(h.data(&page).is_err());
        assert!(LobFirstPage::parse(&page[..90]).is_err());
    }
}

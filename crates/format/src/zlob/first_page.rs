//! The first page of a compressed MySQL 8.0+ LOB
//! (`FIL_PAGE_TYPE_ZLOB_FIRST` = 25, `zlob0first.h`, `z_first_page_t`),
//! used by ROW_FORMAT=COMPRESSED tables for LOBs too large for a single
//! old-style ZBLOB stream.
//!
//! After the FIL header: version, flags, LOB version, last modifying
//! transaction and undo number, the length of the zlib bytes kept on this
//! page, the creating transaction, the first ZLOB index page and fragment
//! entry page, then four list base nodes (free index entries, the index,
//! free fragment entries, fragment entries). From offset 136 come a fixed
//! number of index entries ([`crate::zlob::index_entry::ZlobIndexEntry`]) and
//! fragment entries ([`crate::zlob::frag_entry::ZlobFragEntry`]), both
//! numbers set by the physical page size, and then zlib bytes up to the FIL
//! trailer. A zlib stream that starts here continues on the page named by
//! `FIL_PAGE_NEXT`; `FIL_PAGE_PREV` heads the list of fragment pages (0 in
//! LOBs written before that list existed).

use crate::bytes::{slice, u32_at, u48_at, u8_at};
use crate::field::{page_no_meaning, Field};
use crate::fil::header::FIL_PAGE_DATA;
use crate::fil::trailer::FIL_PAGE_DATA_END;
use crate::fsp::flst::{FlstBase, FLST_BASE_NODE_SIZE};
use crate::zlob::frag_entry::ZLOB_FRAG_ENTRY_SIZE;
use crate::zlob::index_entry::ZLOB_INDEX_ENTRY_SIZE;
use crate::FormatError;
use serde::Serialize;

/// Offset 38: `OFFSET_VERSION` (1 byte), 0.
pub const ZLOB_FIRST_VERSION: usize = FIL_PAGE_DATA;
/// Offset 39: `OFFSET_FLAGS` (1 byte); bit 0 set = no longer partially updatable.
pub const ZLOB_FIRST_FLAGS: usize = FIL_PAGE_DATA + 1;
/// Offset 40: `OFFSET_LOB_VERSION` (4 bytes), the LOB's latest version.
pub const ZLOB_FIRST_LOB_VERSION: usize = ZLOB_FIRST_FLAGS + 1;
/// Offset 44: `OFFSET_LAST_TRX_ID` (6 bytes), the last transaction that modified the LOB.
pub const ZLOB_FIRST_LAST_TRX_ID: usize = ZLOB_FIRST_LOB_VERSION + 4;
/// Offset 50: `OFFSET_LAST_UNDO_NO` (4 bytes), that transaction's undo number.
pub const ZLOB_FIRST_LAST_UNDO_NO: usize = ZLOB_FIRST_LAST_TRX_ID + 6;
/// Offset 54: `OFFSET_DATA_LEN` (4 bytes), zlib bytes stored on this page.
pub const ZLOB_FIRST_DATA_LEN: usize = ZLOB_FIRST_LAST_UNDO_NO + 4;
/// Offset 58: `OFFSET_TRX_ID` (6 bytes), the transaction that wrote this page's data.
pub const ZLOB_FIRST_TRX_ID: usize = ZLOB_FIRST_DATA_LEN + 4;
/// Offset 64: `OFFSET_INDEX_PAGE_NO` (4 bytes), the first ZLOB index page.
pub const ZLOB_FIRST_INDEX_PAGE_NO: usize = ZLOB_FIRST_TRX_ID + 6;
/// Offset 68: `OFFSET_FRAG_NODES_PAGE_NO` (4 bytes), the first fragment entry page.
pub const ZLOB_FIRST_FRAG_NODES_PAGE_NO: usize = ZLOB_FIRST_INDEX_PAGE_NO + 4;
/// Offset 72: `OFFSET_FREE_LIST` (16-byte list base), free index entries.
pub const ZLOB_FIRST_FREE_LIST: usize = ZLOB_FIRST_FRAG_NODES_PAGE_NO + 4;
/// Offset 88: `OFFSET_INDEX_LIST` (16-byte list base), the LOB index.
pub const ZLOB_FIRST_INDEX_LIST: usize = ZLOB_FIRST_FREE_LIST + FLST_BASE_NODE_SIZE;
/// Offset 104: `OFFSET_FREE_FRAG_LIST` (16-byte list base), free fragment entries.
pub const ZLOB_FIRST_FREE_FRAG_LIST: usize = ZLOB_FIRST_INDEX_LIST + FLST_BASE_NODE_SIZE;
/// Offset 120: `OFFSET_FRAG_LIST` (16-byte list base), fragment entries in use.
pub const ZLOB_FIRST_FRAG_LIST: usize = ZLOB_FIRST_FREE_FRAG_LIST + FLST_BASE_NODE_SIZE;
/// Offset 136: `OFFSET_INDEX_BEGIN`, where the index entry array begins.
pub const ZLOB_FIRST_INDEX_BEGIN: usize = ZLOB_FIRST_FRAG_LIST + FLST_BASE_NODE_SIZE;

/// The header of a `FIL_PAGE_TYPE_ZLOB_FIRST` page (offsets 38 to 136).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ZlobFirstPage {
    /// `OFFSET_VERSION` (offset 38): 0.
    pub version: u8,
    /// `OFFSET_FLAGS` (offset 39): bit 0 set when the LOB can no longer be partially updated.
    pub flags: u8,
    /// `OFFSET_LOB_VERSION` (offset 40): the LOB's latest version.
    pub lob_version: u32,
    /// `OFFSET_LAST_TRX_ID` (offset 44, 6 bytes): the last transaction that modified the LOB.
    pub last_trx_id: u64,
    /// `OFFSET_LAST_UNDO_NO` (offset 50): that transaction's undo number.
    pub last_undo_no: u32,
    /// `OFFSET_DATA_LEN` (offset 54): zlib bytes stored on this page.
    pub data_len: u32,
    /// `OFFSET_TRX_ID` (offset 58, 6 bytes): the transaction that wrote this page's data.
    pub trx_id: u64,
    /// `OFFSET_INDEX_PAGE_NO` (offset 64): the first ZLOB index page, `FIL_NULL` for none.
    pub index_page_no: u32,
    /// `OFFSET_FRAG_NODES_PAGE_NO` (offset 68): the first fragment entry page, `FIL_NULL` for none.
    pub frag_nodes_page_no: u32,
    /// `OFFSET_FREE_LIST` (offset 72): free index entries.
    pub free_list: FlstBase,
    /// `OFFSET_INDEX_LIST` (offset 88): the LOB index, one entry per zlib stream of the current version.
    pub index_list: FlstBase,
    /// `OFFSET_FREE_FRAG_LIST` (offset 104): free fragment entries.
    pub free_frag_list: FlstBase,
    /// `OFFSET_FRAG_LIST` (offset 120): fragment entries in use.
    pub frag_list: FlstBase,
}

fn size_error(physical_size: usize) -> FormatError {
    FormatError::BadValue {
        field: "ZLOB first page",
        offset: 0,
        reason: format!(
            "a {physical_size}-byte page is not a ROW_FORMAT=COMPRESSED page size (1k to 16k)"
        ),
    }
}

impl ZlobFirstPage {
    /// Reads the header of a ZLOB first page image.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        let base = |at: usize, name: &'static str| -> Result<FlstBase, FormatError> {
            FlstBase::parse(slice(page, at, FLST_BASE_NODE_SIZE, name)?)
        };
        Ok(ZlobFirstPage {
            version: u8_at(page, ZLOB_FIRST_VERSION, "OFFSET_VERSION")?,
            flags: u8_at(page, ZLOB_FIRST_FLAGS, "OFFSET_FLAGS")?,
            lob_version: u32_at(page, ZLOB_FIRST_LOB_VERSION, "OFFSET_LOB_VERSION")?,
            last_trx_id: u48_at(page, ZLOB_FIRST_LAST_TRX_ID, "OFFSET_LAST_TRX_ID")?,
            last_undo_no: u32_at(page, ZLOB_FIRST_LAST_UNDO_NO, "OFFSET_LAST_UNDO_NO")?,
            data_len: u32_at(page, ZLOB_FIRST_DATA_LEN, "OFFSET_DATA_LEN")?,
            trx_id: u48_at(page, ZLOB_FIRST_TRX_ID, "OFFSET_TRX_ID")?,
            index_page_no: u32_at(page, ZLOB_FIRST_INDEX_PAGE_NO, "OFFSET_INDEX_PAGE_NO")?,
            frag_nodes_page_no: u32_at(
                page,
                ZLOB_FIRST_FRAG_NODES_PAGE_NO,
                "OFFSET_FRAG_NODES_PAGE_NO",
            )?,
            free_list: base(ZLOB_FIRST_FREE_LIST, "OFFSET_FREE_LIST")?,
            index_list: base(ZLOB_FIRST_INDEX_LIST, "OFFSET_INDEX_LIST")?,
            free_frag_list: base(ZLOB_FIRST_FREE_FRAG_LIST, "OFFSET_FREE_FRAG_LIST")?,
            frag_list: base(ZLOB_FIRST_FRAG_LIST, "OFFSET_FRAG_LIST")?,
        })
    }

    /// True unless bit 0 of `OFFSET_FLAGS` says the LOB can no longer be partially updated.
    pub fn can_be_partially_updated(&self) -> bool {
        self.flags & 1 == 0
    }

    /// Index entries on a first page of `physical_size` bytes
    /// (`get_n_index_entries()`: 100 at 16k, 80 at 8k, 40 at 4k, 20 at 2k, 5 at 1k).
    pub fn n_index_entries(physical_size: usize) -> Result<usize, FormatError> {
        match physical_size {
            16384 => Ok(100),
            8192 => Ok(80),
            4096 => Ok(40),
            2048 => Ok(20),
            1024 => Ok(5),
            other => Err(size_error(other)),
        }
    }

    /// Fragment entries on a first page of `physical_size` bytes
    /// (`get_n_frag_entries()`: 200 at 16k, 100 at 8k, 40 at 4k, 20 at 2k, 5 at 1k).
    pub fn n_frag_entries(physical_size: usize) -> Result<usize, FormatError> {
        match physical_size {
            16384 => Ok(200),
            8192 => Ok(100),
            4096 => Ok(40),
            2048 => Ok(20),
            1024 => Ok(5),
            other => Err(size_error(other)),
        }
    }

    /// Absolute offset of the fragment entry array (`begin_frag_entries()`).
    pub fn frag_entries_begin(physical_size: usize) -> Result<usize, FormatError> {
        Ok(ZLOB_FIRST_INDEX_BEGIN
            + ZlobFirstPage::n_index_entries(physical_size)? * ZLOB_INDEX_ENTRY_SIZE)
    }

    /// Absolute offset where the zlib bytes begin (`begin_data()`).
    pub fn data_begin(physical_size: usize) -> Result<usize, FormatError> {
        Ok(ZlobFirstPage::frag_entries_begin(physical_size)?
            + ZlobFirstPage::n_frag_entries(physical_size)? * ZLOB_FRAG_ENTRY_SIZE)
    }

    /// Bytes of zlib data a first page of `physical_size` bytes can hold (`payload()`).
    pub fn payload(physical_size: usize) -> Result<usize, FormatError> {
        Ok(physical_size
            .saturating_sub(ZlobFirstPage::data_begin(physical_size)? + FIL_PAGE_DATA_END))
    }

    /// The slot number of the index entry starting at absolute `offset` of a
    /// first page of `physical_size` bytes, or `None` when no entry starts there.
    pub fn entry_slot(offset: usize, physical_size: usize) -> Option<usize> {
        let n = ZlobFirstPage::n_index_entries(physical_size).ok()?;
        let rel = offset.checked_sub(ZLOB_FIRST_INDEX_BEGIN)?;
        let i = rel / ZLOB_INDEX_ENTRY_SIZE;
        (rel % ZLOB_INDEX_ENTRY_SIZE == 0 && i < n).then_some(i)
    }

    /// The zlib bytes on this page: `data_len` bytes from [`Self::data_begin`],
    /// which must end before the FIL trailer.
    pub fn data<'a>(&self, page: &'a [u8]) -> Result<&'a [u8], FormatError> {
        let begin = ZlobFirstPage::data_begin(page.len())?;
        let payload = ZlobFirstPage::payload(page.len())?;
        let len = self.data_len as usize;
        if len > payload {
            return Err(FormatError::BadValue {
                field: "OFFSET_DATA_LEN",
                offset: ZLOB_FIRST_DATA_LEN,
                reason: format!(
                    "{len} bytes do not fit in the {payload} bytes a {}-byte ZLOB first page holds",
                    page.len()
                ),
            });
        }
        slice(page, begin, len, "ZLOB first page data")
    }

    /// The header's fields at their absolute offsets.
    pub fn fields(&self) -> Vec<Field> {
        let page_field = |at: usize, name: &'static str, v: u32| match page_no_meaning(v) {
            Some(m) => Field::with_meaning(at, 4, name, v.into(), m),
            None => Field::new(at, 4, name, v.into()),
        };
        vec![
            Field::new(ZLOB_FIRST_VERSION, 1, "OFFSET_VERSION", self.version.into()),
            Field::with_meaning(
                ZLOB_FIRST_FLAGS,
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
                ZLOB_FIRST_LOB_VERSION,
                4,
                "OFFSET_LOB_VERSION",
                self.lob_version.into(),
            ),
            Field::new(
                ZLOB_FIRST_LAST_TRX_ID,
                6,
                "OFFSET_LAST_TRX_ID",
                self.last_trx_id,
            ),
            Field::new(
                ZLOB_FIRST_LAST_UNDO_NO,
                4,
                "OFFSET_LAST_UNDO_NO",
                self.last_undo_no.into(),
            ),
            Field::new(
                ZLOB_FIRST_DATA_LEN,
                4,
                "OFFSET_DATA_LEN",
                self.data_len.into(),
            ),
            Field::new(ZLOB_FIRST_TRX_ID, 6, "OFFSET_TRX_ID", self.trx_id),
            page_field(
                ZLOB_FIRST_INDEX_PAGE_NO,
                "OFFSET_INDEX_PAGE_NO",
                self.index_page_no,
            ),
            page_field(
                ZLOB_FIRST_FRAG_NODES_PAGE_NO,
                "OFFSET_FRAG_NODES_PAGE_NO",
                self.frag_nodes_page_no,
            ),
            self.free_list
                .field(ZLOB_FIRST_FREE_LIST, "OFFSET_FREE_LIST"),
            self.index_list
                .field(ZLOB_FIRST_INDEX_LIST, "OFFSET_INDEX_LIST"),
            self.free_frag_list
                .field(ZLOB_FIRST_FREE_FRAG_LIST, "OFFSET_FREE_FRAG_LIST"),
            self.frag_list
                .field(ZLOB_FIRST_FRAG_LIST, "OFFSET_FRAG_LIST"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_zlob0first() {
        assert_eq!(ZLOB_FIRST_INDEX_PAGE_NO, 64);
        assert_eq!(ZLOB_FIRST_FREE_LIST, 72);
        assert_eq!(ZLOB_FIRST_INDEX_LIST, 88);
        assert_eq!(ZLOB_FIRST_FRAG_LIST, 120);
        assert_eq!(ZLOB_FIRST_INDEX_BEGIN, 136);
        assert_eq!(ZlobFirstPage::data_begin(16384).unwrap(), 136 + 6600 + 4800);
        assert_eq!(ZlobFirstPage::data_begin(8192).unwrap(), 136 + 5280 + 2400);
        assert_eq!(ZlobFirstPage::payload(8192).unwrap(), 8192 - 7816 - 8);
        assert_eq!(ZlobFirstPage::payload(1024).unwrap(), 1024 - 586 - 8);
        assert!(ZlobFirstPage::data_begin(32768).is_err());
        assert_eq!(ZlobFirstPage::entry_slot(136, 8192), Some(0));
        assert_eq!(ZlobFirstPage::entry_slot(136 + 79 * 66, 8192), Some(79));
        assert_eq!(ZlobFirstPage::entry_slot(136 + 80 * 66, 8192), None);
        assert_eq!(ZlobFirstPage::entry_slot(137, 8192), None);
    }

    #[test]
    fn reads_header_and_data() {
        let mut page = vec![0u8; 8192];
        page[ZLOB_FIRST_DATA_LEN + 3] = 100;
        page[ZLOB_FIRST_INDEX_LIST + 3] = 2;
        let h = ZlobFirstPage::parse(&page).unwrap();
        assert_eq!((h.data_len, h.index_list.len), (100, 2));
        assert_eq!(h.data(&page).unwrap().len(), 100);
        assert_eq!(h.fields().len(), 13);
        page[ZLOB_FIRST_DATA_LEN + 2] = 1; // 356 bytes fit in the 368 an 8k first page holds
        assert!(ZlobFirstPage::parse(&page).unwrap().data(&page).is_ok());
        page[ZLOB_FIRST_DATA_LEN + 2] = 2; // 612 bytes do not
        assert!(ZlobFirstPage::parse(&page).unwrap().data(&page).is_err());
        assert!(ZlobFirstPage::parse(&page[..130]).is_err());
        assert!(ZlobFirstPage::parse(&page[..3000])
            .unwrap()
            .data(&page[..3000])
            .is_err());
    }
}

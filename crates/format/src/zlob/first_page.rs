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

use crate::bytes::slice;
use crate::context::PageContext;
use crate::fil::trailer::FIL_PAGE_DATA_END;
use crate::fsp::flst::FlstBase;
use crate::layout::layout;
pub use crate::lob::first_page_common::{
    LobFirstCommon, LOB_FIRST_DATA_LEN as ZLOB_FIRST_DATA_LEN, LOB_FIRST_FLAGS as ZLOB_FIRST_FLAGS,
    LOB_FIRST_LAST_TRX_ID as ZLOB_FIRST_LAST_TRX_ID,
    LOB_FIRST_LAST_UNDO_NO as ZLOB_FIRST_LAST_UNDO_NO,
    LOB_FIRST_LOB_VERSION as ZLOB_FIRST_LOB_VERSION, LOB_FIRST_TRX_ID as ZLOB_FIRST_TRX_ID,
    LOB_FIRST_VERSION as ZLOB_FIRST_VERSION,
};
use crate::section::Body;
use crate::zlob::frag_entry::ZLOB_FRAG_ENTRY_SIZE;
use crate::zlob::index_entry::ZLOB_INDEX_ENTRY_SIZE;
use crate::FormatError;

layout! {
    /// The header of a `FIL_PAGE_TYPE_ZLOB_FIRST` page (absolute offsets 38 to 136).
    pub struct ZlobFirstPage includes LobFirstCommon as common {
        /// Offset 64 (`OFFSET_INDEX_PAGE_NO`, 4 bytes): the first ZLOB index page, `FIL_NULL` for none.
        ZLOB_FIRST_INDEX_PAGE_NO "OFFSET_INDEX_PAGE_NO" @ 64 => index_page_no: u32, points page;
        /// Offset 68 (`OFFSET_FRAG_NODES_PAGE_NO`, 4 bytes): the first
        /// fragment entry page, `FIL_NULL` for none.
        ZLOB_FIRST_FRAG_NODES_PAGE_NO "OFFSET_FRAG_NODES_PAGE_NO" @ 68 => frag_nodes_page_no: u32, points page;
        /// Offset 72 (`OFFSET_FREE_LIST`, list base): free index entries.
        ZLOB_FIRST_FREE_LIST "OFFSET_FREE_LIST" @ 72 => free_list: FlstBase;
        /// Offset 88 (`OFFSET_INDEX_LIST`, list base): the LOB index, one
        /// entry per zlib stream of the current version.
        ZLOB_FIRST_INDEX_LIST "OFFSET_INDEX_LIST" @ 88 => index_list: FlstBase;
        /// Offset 104 (`OFFSET_FREE_FRAG_LIST`, list base): free fragment entries.
        ZLOB_FIRST_FREE_FRAG_LIST "OFFSET_FREE_FRAG_LIST" @ 104 => free_frag_list: FlstBase;
        /// Offset 120 (`OFFSET_FRAG_LIST`, list base): fragment entries in use.
        ZLOB_FIRST_FRAG_LIST "OFFSET_FRAG_LIST" @ 120 => frag_list: FlstBase;
    }
}

/// Offset 136: `OFFSET_INDEX_BEGIN`, where the index entry array begins.
pub const ZLOB_FIRST_INDEX_BEGIN: usize = ZlobFirstPage::END;

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
        Self::parse_at(page, 0)
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
        let len = self.common.data_len as usize;
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
}

/// The sections of a ZLOB first page: its header, its index entries in use
/// and its fragment entries in use.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    let Some(h) = body.keep(ZlobFirstPage::parse(page)) else {
        return;
    };
    body.push("ZLOB first page header", h.fields_at(0, ctx));
    let ps = page.len();
    let (Some(n_index), Some(n_frag), Some(frag_at)) = (
        body.keep(ZlobFirstPage::n_index_entries(ps)),
        body.keep(ZlobFirstPage::n_frag_entries(ps)),
        body.keep(ZlobFirstPage::frag_entries_begin(ps)),
    ) else {
        return;
    };
    crate::section::entry_sections::<crate::zlob::index_entry::ZlobIndexEntry>(
        page,
        (0..n_index).map(|i| (i, ZLOB_FIRST_INDEX_BEGIN + i * ZLOB_INDEX_ENTRY_SIZE)),
        "ZLOB index entry",
        ctx,
        body,
    );
    crate::section::entry_sections::<crate::zlob::frag_entry::ZlobFragEntry>(
        page,
        (0..n_frag).map(|i| (i, frag_at + i * ZLOB_FRAG_ENTRY_SIZE)),
        "ZLOB fragment entry",
        ctx,
        body,
    );
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
        assert_eq!((h.common.data_len, h.index_list.len), (100, 2));
        assert_eq!(h.data(&page).unwrap().len(), 100);
        let f = h.fields_at(0, &crate::context::PageContext::default());
        assert_eq!(f.len(), 13);
        assert_eq!(
            (f[10].name, f[10].offset, f[10].value),
            ("OFFSET_INDEX_LIST", 88, 2)
        );
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

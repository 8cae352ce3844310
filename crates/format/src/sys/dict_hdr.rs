//! The data dictionary header page of the system tablespace (`dict0boot.h`):
//! page 7, `FIL_PAGE_TYPE_SYS`, base `DICT_HDR` = 38. The counters the
//! server hands ids out from, and the root pages of the SYS_* tables.

use crate::context::PageContext;
use crate::fsp::fseg_header::FsegHeader;
use crate::layout::layout;
use crate::section::Body;
use crate::FormatError;

/// Page number of the dictionary header (`DICT_HDR_PAGE_NO`).
pub const DICT_HDR_PAGE_NO: u32 = 7;
/// Absolute offset of the dictionary header (`DICT_HDR` = `FSEG_PAGE_DATA`).
pub const DICT_HDR: usize = 38;

layout! {
    /// The dictionary header (absolute offsets).
    pub struct DictHeader {
        /// Offset 38 (`DICT_HDR_ROW_ID`, 8 bytes): the latest assigned row id.
        DICT_HDR_ROW_ID @ DICT_HDR => row_id: u64;
        /// Offset 46 (`DICT_HDR_TABLE_ID`, 8 bytes): the latest assigned table id.
        DICT_HDR_TABLE_ID @ DICT_HDR + 8 => table_id: u64;
        /// Offset 54 (`DICT_HDR_INDEX_ID`, 8 bytes): the latest assigned index id.
        DICT_HDR_INDEX_ID @ DICT_HDR + 16 => index_id: u64;
        /// Offset 62 (`DICT_HDR_MAX_SPACE_ID`, 4 bytes): the latest assigned space id, or 0.
        DICT_HDR_MAX_SPACE_ID @ DICT_HDR + 24 => max_space_id: u32;
        /// Offset 66 (`DICT_HDR_MIX_ID_LOW`, 4 bytes): obsolete, always `DICT_HDR_FIRST_ID`.
        DICT_HDR_MIX_ID_LOW @ DICT_HDR + 28 => mix_id_low: u32;
        /// Offset 70 (`DICT_HDR_TABLES`, 4 bytes): the root of SYS_TABLES.
        DICT_HDR_TABLES @ DICT_HDR + 32 => tables: u32, points page;
        /// Offset 74 (`DICT_HDR_TABLE_IDS`, 4 bytes): the root of SYS_TABLE_IDS
        /// (the secondary index of SYS_TABLES on ID).
        DICT_HDR_TABLE_IDS @ DICT_HDR + 36 => table_ids: u32, points page;
        /// Offset 78 (`DICT_HDR_COLUMNS`, 4 bytes): the root of SYS_COLUMNS.
        DICT_HDR_COLUMNS @ DICT_HDR + 40 => columns: u32, points page;
        /// Offset 82 (`DICT_HDR_INDEXES`, 4 bytes): the root of SYS_INDEXES.
        DICT_HDR_INDEXES @ DICT_HDR + 44 => indexes: u32, points page;
        /// Offset 86 (`DICT_HDR_FIELDS`, 4 bytes): the root of SYS_FIELDS.
        DICT_HDR_FIELDS @ DICT_HDR + 48 => fields: u32, points page;
        /// Offset 94 (`DICT_HDR_FSEG_HEADER`, 10 bytes): the dictionary header's file segment.
        DICT_HDR_FSEG_HEADER @ DICT_HDR + 56 => fseg: FsegHeader;
    }
}

impl DictHeader {
    /// Reads the dictionary header from page 7 of the system tablespace.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        Self::parse_at(page, 0)
    }
}

/// The dictionary header section of page 7 of the system tablespace.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    body.add(
        "dictionary header",
        DictHeader::parse(page).map(|h| h.fields_at(0, ctx)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_dict0boot_plus_38() {
        assert_eq!(
            (
                DICT_HDR_TABLES,
                DICT_HDR_COLUMNS,
                DICT_HDR_INDEXES,
                DICT_HDR_FIELDS
            ),
            (70, 78, 82, 86)
        );
        assert_eq!((DICT_HDR_MAX_SPACE_ID, DICT_HDR_FSEG_HEADER), (62, 94));
        assert_eq!(DictHeader::END, 104);
    }
}

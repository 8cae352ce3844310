//! The data dictionary header page of the system tablespace (`dict0boot.h`):
//! page 7, `FIL_PAGE_TYPE_SYS`, base `DICT_HDR` = 38.

/// Page number of the dictionary header (`DICT_HDR_PAGE_NO`).
pub const DICT_HDR_PAGE_NO: u32 = 7;
/// Absolute offset of the dictionary header segment's FSEG header
/// (`DICT_HDR` 38 + `DICT_HDR_FSEG_HEADER` 56).
pub const DICT_HDR_FSEG_HEADER: usize = 94;

/// Absolute offset of the root page number of `SYS_TABLES` (`DICT_HDR_TABLES`).
pub const DICT_HDR_TABLES: usize = 70;
/// Absolute offset of the root page number of `SYS_COLUMNS` (`DICT_HDR_COLUMNS`).
pub const DICT_HDR_COLUMNS: usize = 78;
/// Absolute offset of the root page number of `SYS_INDEXES` (`DICT_HDR_INDEXES`).
pub const DICT_HDR_INDEXES: usize = 82;
/// Absolute offset of the root page number of `SYS_FIELDS` (`DICT_HDR_FIELDS`).
pub const DICT_HDR_FIELDS: usize = 86;

//! The data dictionary header page of the system tablespace (`dict0boot.h`):
//! page 7, `FIL_PAGE_TYPE_SYS`, base `DICT_HDR` = 38.

/// Page number of the dictionary header (`DICT_HDR_PAGE_NO`).
pub const DICT_HDR_PAGE_NO: u32 = 7;
/// Absolute offset of the dictionary header segment's FSEG header
/// (`DICT_HDR` 38 + `DICT_HDR_FSEG_HEADER` 56).
pub const DICT_HDR_FSEG_HEADER: usize = 94;

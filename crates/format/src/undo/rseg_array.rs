//! The rollback-segment array page of a MySQL 8 undo tablespace
//! (`FIL_PAGE_TYPE_RSEG_ARRAY`, `trx0rseg.h`), normally page 3.

/// Absolute offset of the array's FSEG header
/// (`RSEG_ARRAY_HEADER` 38 + `RSEG_ARRAY_FSEG_HEADER` 8).
pub const RSEG_ARRAY_FSEG_HEADER: usize = 46;

//! Rollback segment header page (`FIL_PAGE_TYPE_SYS`, `trx0rseg.h`, base
//! `TRX_RSEG` = 38). Only what the space walkers need so far.

/// Absolute offset of the rollback segment's own FSEG header
/// (`TRX_RSEG` 38 + `TRX_RSEG_FSEG_HEADER` 24).
pub const TRX_RSEG_FSEG_HEADER: usize = 62;

//! Undo log pages (`FIL_PAGE_UNDO_LOG`, `trx0undo.h`). Only what the space
//! walkers need so far.

/// Absolute offset of the undo segment header on a segment's first page
/// (`TRX_UNDO_SEG_HDR` = 38 + `TRX_UNDO_PAGE_HDR_SIZE` 18).
pub const TRX_UNDO_SEG_HDR: usize = 56;
/// Absolute offset of the undo segment's FSEG header
/// (`TRX_UNDO_SEG_HDR` + `TRX_UNDO_FSEG_HEADER` 4).
pub const TRX_UNDO_FSEG_HEADER: usize = 60;

//! Rollback segment header page (`FIL_PAGE_TYPE_SYS`, `trx0rseg.h`, base
//! `TRX_RSEG` = 38): the history list of committed undo logs that purge has
//! not removed yet, and the slots of the undo segments in use.

use crate::bytes::{slice, u32_at, u64_at};
use crate::flst::{FlstBase, FLST_BASE_NODE_SIZE};
use crate::FormatError;
use serde::Serialize;

/// Absolute offset of the rollback segment's own FSEG header
/// (`TRX_RSEG` 38 + `TRX_RSEG_FSEG_HEADER` 24).
pub const TRX_RSEG_FSEG_HEADER: usize = 62;
/// Absolute offset of `TRX_RSEG_FORMAT` (MariaDB 10.3+, 0) or
/// `TRX_RSEG_MAX_SIZE` (MySQL, and older): 4 bytes.
pub const TRX_RSEG_FORMAT: usize = 38;
/// Absolute offset of `TRX_RSEG_HISTORY_SIZE`: pages in the history list.
pub const TRX_RSEG_HISTORY_SIZE: usize = 42;
/// Absolute offset of `TRX_RSEG_HISTORY`: the history list's base node.
pub const TRX_RSEG_HISTORY: usize = 46;
/// Absolute offset of `TRX_RSEG_UNDO_SLOTS`: one 4-byte page number per slot.
pub const TRX_RSEG_UNDO_SLOTS: usize = 72;

/// A rollback segment header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RsegHeader {
    /// `TRX_RSEG_FORMAT` / `TRX_RSEG_MAX_SIZE` (offset 38).
    pub format_or_max_size: u32,
    /// `TRX_RSEG_HISTORY_SIZE` (offset 42): pages used by the history list.
    pub history_size: u32,
    /// `TRX_RSEG_HISTORY` (offset 46): the history list of undo log headers.
    pub history: FlstBase,
    /// `TRX_RSEG_UNDO_SLOTS` (offset 72): first page of each undo segment in
    /// use, by slot (`page_size / 16` slots; `FIL_NULL` for a free one).
    pub undo_slots: Vec<(usize, u32)>,
    /// `TRX_RSEG_MAX_TRX_ID` (MariaDB 10.3+, after the slots): the largest
    /// transaction number committed to this segment.
    pub max_trx_id: u64,
}

impl RsegHeader {
    /// Number of undo slots on a page of `page_size` bytes (`TRX_RSEG_N_SLOTS`).
    pub fn n_slots(page_size: usize) -> usize {
        page_size / 16
    }

    /// Reads the header of a rollback segment header page.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        let n = Self::n_slots(page.len());
        let mut undo_slots = Vec::new();
        for i in 0..n {
            let p = u32_at(page, TRX_RSEG_UNDO_SLOTS + 4 * i, "TRX_RSEG_UNDO_SLOTS")?;
            if p != crate::FIL_NULL {
                undo_slots.push((i, p));
            }
        }
        Ok(RsegHeader {
            format_or_max_size: u32_at(page, TRX_RSEG_FORMAT, "TRX_RSEG_FORMAT")?,
            history_size: u32_at(page, TRX_RSEG_HISTORY_SIZE, "TRX_RSEG_HISTORY_SIZE")?,
            history: FlstBase::parse(slice(
                page,
                TRX_RSEG_HISTORY,
                FLST_BASE_NODE_SIZE,
                "TRX_RSEG_HISTORY",
            )?)?,
            undo_slots,
            max_trx_id: u64_at(page, TRX_RSEG_UNDO_SLOTS + 4 * n, "TRX_RSEG_MAX_TRX_ID")?,
        })
    }
}

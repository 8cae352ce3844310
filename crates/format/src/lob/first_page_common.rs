//! The fields the first pages of uncompressed and compressed MySQL 8.0+
//! LOBs share (`lob0first.h` `first_page_t`, `zlob0first.h`
//! `z_first_page_t`, offsets 38 to 64): declared once here, included by
//! [`crate::lob::first_page::LobFirstPage`] and
//! [`crate::zlob::first_page::ZlobFirstPage`].

use crate::context::PageContext;
use crate::fil::header::FIL_PAGE_DATA;
use crate::layout::{layout, U48};

layout! {
    /// The common head of a LOB or ZLOB first page (absolute offsets).
    pub struct LobFirstCommon {
        /// Offset 38 (`OFFSET_VERSION`, 1 byte): the LOB format version, 0.
        LOB_FIRST_VERSION "OFFSET_VERSION" @ FIL_PAGE_DATA => version: u8;
        /// Offset 39 (`OFFSET_FLAGS`, 1 byte): bit 0 set when the LOB can no
        /// longer be partially updated.
        LOB_FIRST_FLAGS "OFFSET_FLAGS" @ FIL_PAGE_DATA + 1 => flags: u8, shows show_flags;
        /// Offset 40 (`OFFSET_LOB_VERSION`, 4 bytes): the LOB's latest version.
        LOB_FIRST_LOB_VERSION "OFFSET_LOB_VERSION" @ FIL_PAGE_DATA + 2 => lob_version: u32;
        /// Offset 44 (`OFFSET_LAST_TRX_ID`, 6 bytes): the last transaction that modified the LOB.
        LOB_FIRST_LAST_TRX_ID "OFFSET_LAST_TRX_ID" @ FIL_PAGE_DATA + 6 => last_trx_id: U48;
        /// Offset 50 (`OFFSET_LAST_UNDO_NO`, 4 bytes): that transaction's undo number.
        LOB_FIRST_LAST_UNDO_NO "OFFSET_LAST_UNDO_NO" @ FIL_PAGE_DATA + 12 => last_undo_no: u32;
        /// Offset 54 (`OFFSET_DATA_LEN`, 4 bytes): bytes of LOB data (zlib
        /// bytes for a ZLOB) stored on this page.
        LOB_FIRST_DATA_LEN "OFFSET_DATA_LEN" @ FIL_PAGE_DATA + 16 => data_len: u32;
        /// Offset 58 (`OFFSET_TRX_ID`, 6 bytes): the transaction that wrote this page's data.
        LOB_FIRST_TRX_ID "OFFSET_TRX_ID" @ FIL_PAGE_DATA + 20 => trx_id: U48;
    }
}

fn show_flags(flags: &u8, _: &PageContext) -> Option<String> {
    Some(
        if flags & 1 == 0 {
            "partially updatable"
        } else {
            "not partially updatable"
        }
        .into(),
    )
}

impl LobFirstCommon {
    /// True unless bit 0 of `OFFSET_FLAGS` says the LOB can no longer be partially updated.
    pub fn can_be_partially_updated(&self) -> bool {
        self.flags & 1 == 0
    }
}

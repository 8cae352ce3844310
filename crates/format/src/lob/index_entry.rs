//! An index entry of an uncompressed MySQL 8.0+ LOB (`lob0index.h`,
//! `index_entry_t`, 60 bytes).
//!
//! Each entry describes one piece of the LOB: the page holding it (the
//! first page or a `FIL_PAGE_TYPE_LOB_DATA` page), its length and the LOB
//! version that wrote it. Entries are file list nodes: the first page's
//! index list links the entries of the current version in LOB order, and
//! each entry heads a list of the older entries it replaced (partial
//! updates), newest first. Ten entries sit on the first page; more on
//! `FIL_PAGE_TYPE_LOB_INDEX` pages. The first 48 bytes are those every
//! index entry has ([`LobIndexEntryCommon`]).

use crate::layout::layout;
pub use crate::lob::index_entry_common::{
    LobIndexEntryCommon, LOB_ENTRY_NEXT, LOB_ENTRY_PREV, LOB_ENTRY_TRXID, LOB_ENTRY_TRXID_MODIFIER,
    LOB_ENTRY_TRX_UNDO_NO, LOB_ENTRY_TRX_UNDO_NO_MODIFIER, LOB_ENTRY_VERSIONS,
};

layout! {
    /// One index entry of an uncompressed LOB (`index_entry_t`, 60 bytes,
    /// offsets from the entry's start).
    pub struct LobIndexEntry includes LobIndexEntryCommon as common {
        /// Offset 48 (`OFFSET_PAGE_NO`, 4 bytes): the page holding this piece, `FIL_NULL` for none.
        LOB_ENTRY_PAGE_NO "OFFSET_PAGE_NO" @ 48 => page_no: u32, points page;
        /// Offset 52 (`OFFSET_DATA_LEN`): bytes of data in this piece. The
        /// slot is 4 bytes wide but the server reads and writes only its
        /// first 2 (`mach_read_from_2`); the other 2 are zero.
        LOB_ENTRY_DATA_LEN "OFFSET_DATA_LEN" @ 52 => data_len: u16;
        /// Offset 56 (`OFFSET_LOB_VERSION`, 4 bytes): the LOB version that wrote this piece.
        LOB_ENTRY_LOB_VERSION "OFFSET_LOB_VERSION" @ 56 => lob_version: u32;
    }
}

/// Size of an index entry (`index_entry_t::SIZE`).
pub const LOB_INDEX_ENTRY_SIZE: usize = LobIndexEntry::END;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::PageContext;

    #[test]
    fn reads_an_entry() {
        // Entry 0 of sakila 8.0 staff.ibd page 7: first page data, 15680 bytes, version 1.
        let hex = "ffffffff000000000007009c00000000ffffffff0000ffffffff0000000000000642\
                   0000000006420000000000000000000000073d40000000000001";
        let b: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        let e = LobIndexEntry::parse_at(&b, 0).unwrap();
        assert_eq!(LOB_INDEX_ENTRY_SIZE, 60);
        assert!(e.common.node.prev.is_null());
        assert_eq!((e.common.node.next.page, e.common.node.next.byte), (7, 156));
        assert_eq!(e.common.versions.len, 0);
        assert_eq!((e.common.trx_id, e.common.trx_id_modifier), (0x642, 0x642));
        assert_eq!((e.page_no, e.data_len, e.lob_version), (7, 15680, 1));
        let f = e.fields_at(96, &PageContext::default());
        assert_eq!(f.len(), 9);
        assert_eq!(
            (f[6].name, f[6].offset, f[6].value),
            ("OFFSET_PAGE_NO", 144, 7)
        );
        assert!(LobIndexEntry::parse_at(&b, 1).is_err());
    }
}

//! An index entry of a compressed MySQL 8.0+ LOB (`zlob0index.h`,
//! `z_index_entry_t`, 66 bytes).
//!
//! A compressed LOB (ROW_FORMAT=COMPRESSED tables) is cut into chunks, each
//! deflated into its own zlib stream. An entry names one stream: the page it
//! starts on (the first page, a `FIL_PAGE_TYPE_ZLOB_DATA` page or a
//! `FIL_PAGE_TYPE_ZLOB_FRAG` page), the fragment id when it starts in a
//! fragment, and its compressed and uncompressed lengths. As for the
//! uncompressed format, entries are file list nodes: the first page's index
//! list links the current version, each entry heads its older versions. The
//! first 48 bytes are those every index entry has ([`LobIndexEntryCommon`]).

use crate::context::PageContext;
use crate::layout::layout;
pub use crate::lob::index_entry_common::{
    LobIndexEntryCommon, LOB_ENTRY_NEXT as ZLOB_ENTRY_NEXT, LOB_ENTRY_PREV as ZLOB_ENTRY_PREV,
    LOB_ENTRY_TRXID as ZLOB_ENTRY_TRXID, LOB_ENTRY_TRXID_MODIFIER as ZLOB_ENTRY_TRXID_MODIFIER,
    LOB_ENTRY_TRX_UNDO_NO as ZLOB_ENTRY_TRX_UNDO_NO,
    LOB_ENTRY_TRX_UNDO_NO_MODIFIER as ZLOB_ENTRY_TRX_UNDO_NO_MODIFIER,
    LOB_ENTRY_VERSIONS as ZLOB_ENTRY_VERSIONS,
};

layout! {
    /// One index entry of a compressed LOB (`z_index_entry_t`, 66 bytes,
    /// offsets from the entry's start).
    pub struct ZlobIndexEntry includes LobIndexEntryCommon as common {
        /// Offset 48 (`OFFSET_Z_PAGE_NO`, 4 bytes): where the zlib stream starts, `FIL_NULL` for none.
        ZLOB_ENTRY_Z_PAGE_NO "OFFSET_Z_PAGE_NO" @ 48 => z_page_no: u32, points page;
        /// Offset 52 (`OFFSET_Z_FRAG_ID`, 2 bytes): the fragment id when the
        /// stream is in a fragment page, [`FRAG_ID_NULL`] for none.
        ZLOB_ENTRY_Z_FRAG_ID "OFFSET_Z_FRAG_ID" @ 52 => z_frag_id: u16, shows show_frag_id;
        /// Offset 54 (`OFFSET_DATA_LEN`, 4 bytes): the chunk's uncompressed length.
        ZLOB_ENTRY_DATA_LEN "OFFSET_DATA_LEN" @ 54 => data_len: u32;
        /// Offset 58 (`OFFSET_ZDATA_LEN`, 4 bytes): the zlib stream's length.
        ZLOB_ENTRY_ZDATA_LEN "OFFSET_ZDATA_LEN" @ 58 => zdata_len: u32;
        /// Offset 62 (`OFFSET_LOB_VERSION`, 4 bytes): the LOB version that wrote the chunk.
        ZLOB_ENTRY_LOB_VERSION "OFFSET_LOB_VERSION" @ 62 => lob_version: u32;
    }
}

/// Size of an index entry (`z_index_entry_t::SIZE`).
pub const ZLOB_INDEX_ENTRY_SIZE: usize = ZlobIndexEntry::END;
/// `FRAG_ID_NULL`: no fragment.
pub const FRAG_ID_NULL: u16 = 0xFFFF;

fn show_frag_id(id: &u16, _: &PageContext) -> Option<String> {
    (*id == FRAG_ID_NULL).then(|| "FRAG_ID_NULL".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_an_entry() {
        assert_eq!(ZLOB_INDEX_ENTRY_SIZE, 66);
        let mut b = vec![0u8; 70];
        b[4..10].copy_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF, 0, 0]);
        b[4 + ZLOB_ENTRY_Z_PAGE_NO..4 + ZLOB_ENTRY_Z_PAGE_NO + 4]
            .copy_from_slice(&12u32.to_be_bytes());
        b[4 + ZLOB_ENTRY_Z_FRAG_ID..4 + ZLOB_ENTRY_Z_FRAG_ID + 2]
            .copy_from_slice(&3u16.to_be_bytes());
        b[4 + ZLOB_ENTRY_DATA_LEN..4 + ZLOB_ENTRY_DATA_LEN + 4]
            .copy_from_slice(&131072u32.to_be_bytes());
        b[4 + ZLOB_ENTRY_ZDATA_LEN..4 + ZLOB_ENTRY_ZDATA_LEN + 4]
            .copy_from_slice(&900u32.to_be_bytes());
        b[4 + ZLOB_ENTRY_LOB_VERSION..4 + ZLOB_ENTRY_LOB_VERSION + 4]
            .copy_from_slice(&2u32.to_be_bytes());
        let e = ZlobIndexEntry::parse_at(&b, 4).unwrap();
        assert!(e.common.node.prev.is_null());
        assert_eq!(
            (
                e.z_page_no,
                e.z_frag_id,
                e.data_len,
                e.zdata_len,
                e.lob_version
            ),
            (12, 3, 131072, 900, 2)
        );
        let f = e.fields_at(4, &PageContext::default());
        assert_eq!(f.len(), 11);
        assert_eq!(
            (f[7].name, f[7].offset, f[7].value),
            ("OFFSET_Z_FRAG_ID", 56, 3)
        );
        assert!(ZlobIndexEntry::parse_at(&b, 5).is_err());
    }
}

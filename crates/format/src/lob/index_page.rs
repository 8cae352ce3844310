//! A LOB index page of an uncompressed MySQL 8.0+ LOB
//! (`FIL_PAGE_TYPE_LOB_INDEX` = 22, `lob0impl.h`, `node_page_t`): a version
//! byte at offset 38, then as many 60-byte index entries
//! ([`crate::lob::index_entry::LobIndexEntry`]) as fit before the FIL trailer.
//! Allocated when the ten entries of the first page are used up; the
//! entries join the first page's free list.

use crate::context::PageContext;
use crate::fil::header::FIL_PAGE_DATA;
use crate::layout::layout;
use crate::lob::index_entry::LOB_INDEX_ENTRY_SIZE;
use crate::section::Body;
use crate::FormatError;

layout! {
    /// The header of a LOB index page (absolute offsets).
    pub struct LobIndexPage {
        /// Offset 38 (`OFFSET_VERSION`, 1 byte): 0.
        LOB_INDEX_PAGE_VERSION "OFFSET_VERSION" @ FIL_PAGE_DATA => version: u8;
    }
}

/// Offset 39: `LOB_PAGE_DATA`, where the index entry array begins.
pub const LOB_INDEX_PAGE_ENTRIES: usize = LobIndexPage::END;

/// The version byte (offset 38) of a LOB index page.
pub fn version(page: &[u8]) -> Result<u8, FormatError> {
    LobIndexPage::parse_at(page, 0).map(|h| h.version)
}

/// Index entries a LOB index page of `page_size` bytes holds (`node_count()`).
pub fn entry_count(page_size: usize) -> usize {
    crate::lob::index_entry_common::entries_on_page(
        page_size,
        LOB_INDEX_PAGE_ENTRIES,
        LOB_INDEX_ENTRY_SIZE,
    )
}

/// The slot number of the entry starting at absolute `offset` of a LOB index
/// page of `page_size` bytes, or `None` when no entry starts there.
pub fn entry_slot(offset: usize, page_size: usize) -> Option<usize> {
    crate::lob::index_entry_common::slot_at(
        offset,
        page_size,
        LOB_INDEX_PAGE_ENTRIES,
        LOB_INDEX_ENTRY_SIZE,
    )
}

/// The sections of a LOB index page: its version and its index entries in use.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    body.add(
        "LOB index page header",
        LobIndexPage::parse_at(page, 0).map(|h| h.fields_at(0, ctx)),
    );
    crate::section::entry_sections::<crate::lob::index_entry::LobIndexEntry>(
        page,
        (0..entry_count(page.len()))
            .map(|i| (i, LOB_INDEX_PAGE_ENTRIES + i * LOB_INDEX_ENTRY_SIZE)),
        "LOB index entry",
        ctx,
        body,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots() {
        assert_eq!(entry_count(16384), 272);
        assert_eq!(entry_slot(39, 16384), Some(0));
        assert_eq!(entry_slot(39 + 271 * 60, 16384), Some(271));
        assert_eq!(entry_slot(39 + 272 * 60, 16384), None);
        assert_eq!(entry_slot(40, 16384), None);
        assert_eq!(entry_slot(0, 16384), None);
        assert!(version(&[0u8; 38]).is_err());
    }
}

//! An index page of a compressed MySQL 8.0+ LOB
//! (`FIL_PAGE_TYPE_ZLOB_INDEX` = 27, `lob0impl.h`, `z_index_page_t`): a
//! version byte at offset 38, then as many 66-byte index entries
//! ([`crate::zlob::index_entry::ZlobIndexEntry`]) as fit in the physical page
//! before the FIL trailer. Index pages are chained from the first page's
//! `OFFSET_INDEX_PAGE_NO` through `FIL_PAGE_NEXT`.

use crate::context::PageContext;
use crate::fil::header::FIL_PAGE_DATA;
use crate::layout::layout;
use crate::section::Body;
use crate::zlob::index_entry::ZLOB_INDEX_ENTRY_SIZE;
use crate::FormatError;

layout! {
    /// The header of a ZLOB index page (absolute offsets).
    pub struct ZlobIndexPage {
        /// Offset 38 (`OFFSET_VERSION`, 1 byte): 0.
        ZLOB_INDEX_PAGE_VERSION "OFFSET_VERSION" @ FIL_PAGE_DATA => version: u8;
    }
}

/// Offset 39: `LOB_PAGE_DATA`, where the index entry array begins.
pub const ZLOB_INDEX_PAGE_ENTRIES: usize = ZlobIndexPage::END;

/// The version byte (offset 38) of a ZLOB index page.
pub fn version(page: &[u8]) -> Result<u8, FormatError> {
    ZlobIndexPage::parse_at(page, 0).map(|h| h.version)
}

/// Index entries a ZLOB index page of `physical_size` bytes holds
/// (`get_n_index_entries()`).
pub fn entry_count(physical_size: usize) -> usize {
    crate::lob::index_entry_common::entries_on_page(
        physical_size,
        ZLOB_INDEX_PAGE_ENTRIES,
        ZLOB_INDEX_ENTRY_SIZE,
    )
}

/// The slot number of the entry starting at absolute `offset` of a ZLOB
/// index page of `physical_size` bytes, or `None` when no entry starts there.
pub fn entry_slot(offset: usize, physical_size: usize) -> Option<usize> {
    crate::lob::index_entry_common::slot_at(
        offset,
        physical_size,
        ZLOB_INDEX_PAGE_ENTRIES,
        ZLOB_INDEX_ENTRY_SIZE,
    )
}

/// The sections of a ZLOB index page: its version and its index entries in use.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    body.add(
        "ZLOB index page header",
        ZlobIndexPage::parse_at(page, 0).map(|h| h.fields_at(0, ctx)),
    );
    crate::section::entry_sections::<crate::zlob::index_entry::ZlobIndexEntry>(
        page,
        (0..entry_count(page.len()))
            .map(|i| (i, ZLOB_INDEX_PAGE_ENTRIES + i * ZLOB_INDEX_ENTRY_SIZE)),
        "ZLOB index entry",
        ctx,
        body,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots() {
        assert_eq!(entry_count(8192), 123);
        assert_eq!(entry_slot(39, 8192), Some(0));
        assert_eq!(entry_slot(39 + 122 * 66, 8192), Some(122));
        assert_eq!(entry_slot(39 + 123 * 66, 8192), None);
        assert_eq!(entry_slot(41, 8192), None);
        assert!(version(&[0u8; 10]).is_err());
    }
}

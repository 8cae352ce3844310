//! A fragment entry page of a compressed MySQL 8.0+ LOB
//! (`FIL_PAGE_TYPE_ZLOB_FRAG_ENTRY` = 29, `lob0impl.h`,
//! `z_frag_node_page_t`): a version byte at offset 38, then as many 24-byte
//! fragment entries ([`crate::zlob::frag_entry::ZlobFragEntry`]) as fit
//! before the FIL trailer. Allocated when the first page's fragment entries
//! are used up.

use crate::context::PageContext;
use crate::fil::header::FIL_PAGE_DATA;
use crate::fil::trailer::FIL_PAGE_DATA_END;
use crate::layout::layout;
use crate::section::Body;
use crate::zlob::frag_entry::ZLOB_FRAG_ENTRY_SIZE;

layout! {
    /// The header of a ZLOB fragment entry page (absolute offsets).
    pub struct ZlobFragEntryPage {
        /// Offset 38 (`OFFSET_VERSION`, 1 byte): 0.
        ZLOB_FRAG_ENTRY_PAGE_VERSION "OFFSET_VERSION" @ FIL_PAGE_DATA => version: u8;
    }
}

/// Offset 39: `LOB_PAGE_DATA`, where the fragment entry array begins.
pub const ZLOB_FRAG_ENTRY_PAGE_ENTRIES: usize = ZlobFragEntryPage::END;

/// Fragment entries a page of `physical_size` bytes holds (`get_n_frag_entries()`).
pub fn entry_count(physical_size: usize) -> usize {
    physical_size.saturating_sub(ZLOB_FRAG_ENTRY_PAGE_ENTRIES + FIL_PAGE_DATA_END)
        / ZLOB_FRAG_ENTRY_SIZE
}

/// The sections of a fragment entry page: its version and its entries in use.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    body.add(
        "ZLOB fragment entry page header",
        ZlobFragEntryPage::parse_at(page, 0).map(|h| h.fields_at(0, ctx)),
    );
    crate::section::entry_sections::<crate::zlob::frag_entry::ZlobFragEntry>(
        page,
        (0..entry_count(page.len()))
            .map(|i| (i, ZLOB_FRAG_ENTRY_PAGE_ENTRIES + i * ZLOB_FRAG_ENTRY_SIZE)),
        "ZLOB fragment entry",
        ctx,
        body,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_fill_the_page() {
        assert_eq!(entry_count(16384), (16384 - 39 - 8) / 24);
    }
}

//! The fields the index entries of uncompressed and compressed MySQL 8.0+
//! LOBs share (`lob0index.h` `index_entry_t`, `zlob0index.h`
//! `z_index_entry_t`, entry offsets 0 to 48): declared once here, included
//! by [`crate::lob::index_entry::LobIndexEntry`] and
//! [`crate::zlob::index_entry::ZlobIndexEntry`].

use crate::fsp::flst::{FlstBase, FlstNode, FIL_ADDR_SIZE};
use crate::layout::{layout, U48};

layout! {
    /// The common head of a LOB or ZLOB index entry (offsets from the entry's start).
    pub struct LobIndexEntryCommon {
        /// Offset 0 (`OFFSET_PREV` and `OFFSET_NEXT`, two 6-byte file
        /// addresses): the entry's links in its list.
        LOB_ENTRY_PREV "OFFSET_PREV/OFFSET_NEXT" @ 0 => node: FlstNode;
        /// Offset 12 (`OFFSET_VERSIONS`, list base): the older versions of this entry, newest first.
        LOB_ENTRY_VERSIONS "OFFSET_VERSIONS" @ 12 => versions: FlstBase;
        /// Offset 28 (`OFFSET_TRXID`, 6 bytes): the creating transaction.
        LOB_ENTRY_TRXID "OFFSET_TRXID" @ 28 => trx_id: U48;
        /// Offset 34 (`OFFSET_TRXID_MODIFIER`, 6 bytes): the transaction that replaced the entry.
        LOB_ENTRY_TRXID_MODIFIER "OFFSET_TRXID_MODIFIER" @ 34 => trx_id_modifier: U48;
        /// Offset 40 (`OFFSET_TRX_UNDO_NO`, 4 bytes): the creator's undo number.
        LOB_ENTRY_TRX_UNDO_NO "OFFSET_TRX_UNDO_NO" @ 40 => trx_undo_no: u32;
        /// Offset 44 (`OFFSET_TRX_UNDO_NO_MODIFIER`, 4 bytes): the modifier's undo number.
        LOB_ENTRY_TRX_UNDO_NO_MODIFIER "OFFSET_TRX_UNDO_NO_MODIFIER" @ 44 => trx_undo_no_modifier: u32;
    }
}

/// Offset 6 within an entry: `OFFSET_NEXT` (6-byte file address), the
/// second half of the node at `OFFSET_PREV`.
pub const LOB_ENTRY_NEXT: usize = LOB_ENTRY_PREV + FIL_ADDR_SIZE;
/// Entries of `entry_size` bytes an index page of `page_size` bytes holds
/// from offset `first` to its trailer (LOB and ZLOB index pages alike).
pub fn entries_on_page(page_size: usize, first: usize, entry_size: usize) -> usize {
    page_size.saturating_sub(first + crate::fil::trailer::FIL_PAGE_DATA_END) / entry_size.max(1)
}

/// The slot number of the entry starting at absolute `offset` of such a
/// page, or `None` when no entry starts there.
pub fn slot_at(offset: usize, page_size: usize, first: usize, entry_size: usize) -> Option<usize> {
    let rel = offset.checked_sub(first)?;
    let i = rel / entry_size.max(1);
    (rel % entry_size.max(1) == 0 && i < entries_on_page(page_size, first, entry_size)).then_some(i)
}

//! MySQL 8.0.20+'s doublewrite files (`buf/buf0dblwr.cc`,
//! `include/buf0dblwr.h`), which replaced the doublewrite area of the system
//! tablespace ([`crate::sys::trx_sys`]'s `TRX_SYS_DOUBLEWRITE` blocks).
//!
//! A doublewrite file, `#ib_<innodb_page_size>_<n>.dblwr`, has no header:
//! it is an array of slots of one `innodb_page_size` each. The first
//! `innodb_doublewrite_pages` × (segments per file) slots are the batch
//! segments the page cleaners write a batch of pages into before writing
//! them to their tablespaces; files with an odd number then hold the slots
//! of single-page flushes ([`SYNC_PAGE_FLUSH_SLOTS`] divided among the odd
//! files). Each slot holds a page image as it went to its tablespace: its
//! own FIL header names the tablespace (`FIL_PAGE_SPACE_ID`) and page
//! (`FIL_PAGE_OFFSET`) it copies. A ROW_FORMAT=COMPRESSED page fills only
//! the first KEY_BLOCK_SIZE bytes of its slot (the rest is what the slot
//! held before); a page of an encrypted tablespace is copied encrypted.
//! A slot never written is all zero.
//!
//! With `innodb_doublewrite=DETECT_ONLY` the server writes, instead of page
//! images, 16-byte entries into `#ib_<innodb_page_size>_0.bdblwr`
//! ([`reduced`]).

pub mod reduced;

/// Slots reserved for single-page flushes (`SYNC_PAGE_FLUSH_SLOTS`): all in
/// the file when there is one, else divided among the files with an odd
/// number.
pub const SYNC_PAGE_FLUSH_SLOTS: u32 = 512;

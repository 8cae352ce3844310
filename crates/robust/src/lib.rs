//! Every command of innodb-inspect driven over arbitrary input through the
//! same library functions the binary calls (`innodb_inspect::commands`):
//! what the fuzz targets (`crates/fuzz`), the property tests and the corpus
//! replay (`tests/fuzz_corpus.rs`) call.
//!
//! Each entry point takes bytes or a file that may be anything (damaged,
//! truncated, not InnoDB at all) and runs the reports and their renderers
//! over it. None of them returns an error: the property is that they return
//! at all, without a panic and within a bounded time. What each produced is
//! returned as a count of output bytes, so that no work is optimised away.

#![deny(clippy::indexing_slicing)]

mod bytes;
pub mod file;
pub mod target;
mod undo_pages;

pub use bytes::{undo_records, zip_page};
pub use file::{every_page, records, sdi, undo, whole_file, Limits, Subject};
pub use target::Target;
pub use undo_pages::{base_undo_pages, undo_pages};

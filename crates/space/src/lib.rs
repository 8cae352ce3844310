//! Tablespace files: opened read-only, page size detected, pages served from a
//! memory map, and each page checked (checksum, LSN, page number, space id)
//! into a [`page_check::PageCheck`].
//!
//! Nothing here prints; problems that do not stop the work are
//! [`finding::Finding`]s.

#![deny(clippy::indexing_slicing)]

pub mod btree;
pub mod btree_summary;
pub mod carve;
pub mod carved_source;
pub mod datadir;
pub mod detect;
pub mod dictionary;
pub mod doublewrite;
pub mod doublewrite_file;
pub mod error;
pub mod finding;
pub mod finding_log;
pub mod frm_file;
pub mod index_roots;
pub mod list_walk;
pub mod lob;
pub mod logical_pages;
pub mod page_check;
pub mod segment;
pub mod source;
pub mod space_map;
pub mod tablespace;
pub mod undo;
pub mod undo_tablespaces;
pub mod zblob;

pub use datadir::DataDir;
pub use doublewrite_file::DoublewriteFile;
pub use error::SpaceError;
pub use finding::{Finding, FindingKind};
pub use finding_log::FindingLog;
pub use page_check::{PageCheck, PageChecker};
pub use space_map::SpaceMap;
pub use tablespace::{OpenOptions, ScanItem, Tablespace};

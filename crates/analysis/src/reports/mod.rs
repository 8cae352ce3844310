//! Reports: each a plain struct deriving `Serialize`, built from a
//! tablespace (mostly in one pass over its pages) and rendered elsewhere.

pub mod carve_report;
pub mod checksum_report;
pub mod count_report;
pub mod datadir_report;
pub mod datadir_totals;
pub mod doublewrite_report;
pub mod doublewrite_sources;
pub mod dropped_tables;
pub mod indexes;
pub mod naming;
pub mod ownership;
pub mod page_detail;
pub mod page_list;
pub mod page_ranges;
pub mod page_records;
pub mod scan;
pub mod sdi_report;
pub mod space_reports;
pub mod summary;
pub mod tree_report;
pub mod undo_report;
pub mod undo_tables;

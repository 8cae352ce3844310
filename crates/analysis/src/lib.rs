//! Reports built from a tablespace: each is a plain struct deriving
//! `Serialize`, produced by one pass over the pages, rendered elsewhere.

#![deny(clippy::indexing_slicing)]

pub mod checksum_report;
pub mod count_report;
pub mod datadir_report;
pub mod datadir_totals;
pub mod ddl;
pub mod indexes;
pub mod instant;
pub mod key_search;
pub mod mariadb_instant;
pub mod naming;
pub mod ownership;
pub mod page_detail;
pub mod page_list;
pub mod page_ranges;
pub mod page_records;
pub mod picture;
pub mod records;
pub mod row_history;
pub mod scan;
pub mod schema;
pub mod sdi_report;
pub mod space_reports;
pub mod summary;
pub mod tree_report;
pub mod undo_report;

pub use checksum_report::ChecksumReport;
pub use page_detail::PageDetail;
pub use page_list::{PageFilter, PageList, PageRow};
pub use summary::Summary;

//! What is made from a tablespace, in three rooms: [`reports`] (plain
//! structs deriving `Serialize`, each built in one pass where it can),
//! [`rows`] (a table's columns laid over its records, values decoded) and
//! [`pictures`] (the models of heatmaps and charts). Nothing here prints;
//! the renderers draw what is made here.

#![deny(clippy::indexing_slicing)]

pub mod dictionary;
pub mod pictures;
pub mod reports;
pub mod rows;

pub use reports::checksum_report::ChecksumReport;
pub use reports::page_detail::PageDetail;
pub use reports::page_list::{PageFilter, PageList, PageRow};
pub use reports::summary::Summary;

/// A fraction from the JSON of a report (a share, a relative error: to
/// four decimals) in percent, to two decimals, for text.
pub fn percent(fraction: f64) -> f64 {
    (fraction * 10_000.0).round() / 100.0
}

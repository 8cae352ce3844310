//! B-tree, R-tree and SDI index pages (`page0page.h`, `rem0rec.h`, `page0zip.h`): the page header, the records, ROW_FORMAT=COMPRESSED pages, MariaDB's instant-ALTER field map and SDI records.

pub mod header;
pub mod instant_field_map;
pub mod page;
pub mod page_zip;
pub mod record;
pub mod rtree;
pub mod sdi;

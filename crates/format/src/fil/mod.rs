//! The FIL header and trailer every page has, its type, MariaDB's page-compressed frame
//! and MySQL's transparent page compression.

pub mod header;
pub mod mysql_compressed;
pub mod page_compressed;
pub mod page_type;
pub mod trailer;

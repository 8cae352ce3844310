//! The FIL header and trailer every page has, its type, and MariaDB's page-compressed frame.

pub mod header;
pub mod page_compressed;
pub mod page_type;
pub mod trailer;

//! Off-page columns: the external field reference, old-style BLOB pages, and MySQL 8.0+ uncompressed LOB pages (`lob0*.h`).

pub mod blob_page;
pub mod data_page;
pub mod field_ref;
pub mod first_page;
pub mod first_page_common;
pub mod index_entry;
pub mod index_entry_common;
pub mod index_page;

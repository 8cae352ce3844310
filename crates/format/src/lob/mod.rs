//! Off-page columns: the external field reference, and MySQL 8.0+ uncompressed LOB pages (`lob0*.h`).

pub mod data_page;
pub mod field_ref;
pub mod first_page;
pub mod index_entry;
pub mod index_page;

//! MySQL 8.0+ compressed LOB pages (`zlob0*.h`, `lob0impl.h`): first, index, data and fragment pages, and the in-page lists they use.

pub mod data_page;
pub mod first_page;
pub mod frag_entry;
pub mod frag_entry_page;
pub mod frag_node;
pub mod frag_page;
pub mod index_entry;
pub mod index_page;
pub mod plist;

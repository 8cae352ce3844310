//! Rows: a table's columns (from the dictionary, the SDI or a `CREATE
//! TABLE` statement) laid over its records, and the values decoded, the
//! versions kept in the undo log included.

pub mod collation_names;
pub mod ddl;
pub mod definition_dd;
pub mod definition_ddl;
pub mod definition_sys;
pub mod field_layout;
pub mod frm_definition;
pub mod frm_schema;
pub mod index_scan;
pub mod instant;
pub mod key_search;
pub mod mariadb_instant;
pub mod off_page;
pub mod records;
pub mod row_history;
pub mod row_recovery;
pub mod row_state;
pub mod schema;
pub mod table_definition;

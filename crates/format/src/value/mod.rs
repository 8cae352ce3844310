//! Column values: the bytes of one field decoded by its type, and MySQL's binary JSON.
//!
//! The files depend one way: [`column_value`] uses [`json_binary`] for JSON
//! columns, and both use [`decimal`] for DECIMAL digits.

pub mod charset;
pub mod column_value;
pub mod decimal;
pub mod json_binary;

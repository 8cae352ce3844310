//! Column values: the bytes of one field decoded by its type, and MySQL's binary JSON.

pub mod column_value;
pub mod json_binary;

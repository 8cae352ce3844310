//! Errors of the format layer: every variant names the field and byte offset.

use thiserror::Error;

/// A structure could not be read from a page image.
///
/// The format crate knows nothing about files; the space layer wraps this error
/// with the file name and page number.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// A field lies (partly) beyond the end of the buffer.
    #[error(
        "field {field} at offset {offset} (+{len} bytes) lies beyond the {available}-byte buffer"
    )]
    OutOfBounds {
        /// Name of the field, as in the server source.
        field: &'static str,
        /// Byte offset of the field within the buffer.
        offset: usize,
        /// Length of the field in bytes.
        len: usize,
        /// Bytes available in the buffer.
        available: usize,
    },
    /// A compressed payload could not be decompressed.
    #[error("field {field} at offset {offset}: cannot decompress: {reason}")]
    Decompress {
        /// Name of the field holding the payload.
        field: &'static str,
        /// Byte offset of the payload.
        offset: usize,
        /// What went wrong.
        reason: String,
    },
    /// A field holds a value the structure cannot have.
    #[error("field {field} at offset {offset}: {reason}")]
    BadValue {
        /// Name of the field.
        field: &'static str,
        /// Byte offset of the field.
        offset: usize,
        /// What is wrong with it.
        reason: String,
    },
}

impl FormatError {
    /// The field the error names.
    pub fn field(&self) -> &'static str {
        match self {
            FormatError::OutOfBounds { field, .. }
            | FormatError::Decompress { field, .. }
            | FormatError::BadValue { field, .. } => field,
        }
    }

    /// The byte offset the error names.
    pub fn offset(&self) -> usize {
        match self {
            FormatError::OutOfBounds { offset, .. }
            | FormatError::Decompress { offset, .. }
            | FormatError::BadValue { offset, .. } => *offset,
        }
    }
}

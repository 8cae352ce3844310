//! A decoded header field together with where it lives on the page.
//!
//! Structures list their fields this way so that `innodb-inspect page` (and
//! later the terminal browser) can show every value with its offset without
//! knowing the layout itself.

use serde::Serialize;

/// One decoded field of an on-disk structure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Field {
    /// Absolute byte offset within the page.
    pub offset: usize,
    /// Size in bytes.
    pub size: usize,
    /// Name as in the server source (`FIL_PAGE_LSN`, `PAGE_N_RECS`, …).
    pub name: &'static str,
    /// The raw value as an unsigned integer (fields of up to 8 bytes).
    pub value: u64,
    /// What the value means, when there is more to say than the number
    /// (a page type name, a decoded flag set, "FIL_NULL", …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning: Option<String>,
}

impl Field {
    /// A field with no interpretation beyond its number.
    pub fn new(offset: usize, size: usize, name: &'static str, value: u64) -> Self {
        Field {
            offset,
            size,
            name,
            value,
            meaning: None,
        }
    }

    /// A field with an interpretation.
    pub fn with_meaning(
        offset: usize,
        size: usize,
        name: &'static str,
        value: u64,
        meaning: impl Into<String>,
    ) -> Self {
        Field {
            offset,
            size,
            name,
            value,
            meaning: Some(meaning.into()),
        }
    }
}

/// Names a page-number field value: `FIL_NULL` or nothing.
pub fn page_no_meaning(value: u32) -> Option<String> {
    (value == crate::FIL_NULL).then(|| "FIL_NULL".to_string())
}

//! JSON rendering: the report structs serialised as they are.

use serde::Serialize;

/// Pretty-printed JSON of any report, with a trailing newline.
pub fn render<T: Serialize + ?Sized>(report: &T) -> String {
    // Serialising plain structs with string keys cannot fail.
    let mut s =
        serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

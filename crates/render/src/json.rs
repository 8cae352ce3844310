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

/// `records` as JSON lines: one object per row, `{"page", "origin",
/// "deleted", "row": {column: value, …}}`, then findings as `{"finding": …}`.
pub fn records_lines(r: &innodb_analysis::records::RecordsReport) -> String {
    let mut out = String::new();
    for row in &r.rows {
        let mut obj = serde_json::Map::new();
        for (f, v) in r.fields.iter().zip(&row.values) {
            obj.insert(
                f.name.clone(),
                serde_json::to_value(v).unwrap_or(serde_json::Value::Null),
            );
        }
        let line = serde_json::json!({
            "page": row.page,
            "origin": row.origin,
            "deleted": row.deleted,
            "state": row.state,
            "row": obj,
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    for f in &r.findings {
        out.push_str(&serde_json::json!({ "finding": f }).to_string());
        out.push('\n');
    }
    out
}

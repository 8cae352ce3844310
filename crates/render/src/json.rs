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

/// `pages` as JSON, written piece by piece: exactly what [`render`] makes
/// of a whole `PageList`, without holding its rows.
pub mod pages_stream {
    use innodb_analysis::PageRow;
    use innodb_space::Finding;

    /// Everything before the first row.
    pub fn head(file: &str) -> String {
        format!(
            "{{\n  \"file\": {},\n  \"pages\": [",
            serde_json::to_string(file).unwrap_or_else(|_| "\"\"".into())
        )
    }

    /// One row; `first` for the first row of the list.
    pub fn row(r: &PageRow, first: bool) -> String {
        let body = serde_json::to_string_pretty(r).unwrap_or_default();
        let mut out = String::from(if first { "\n" } else { ",\n" });
        out.push_str(&indent(&body, 4));
        out
    }

    /// Everything after the last row; `any_rows` when at least one was written.
    pub fn tail(findings: &[Finding], any_rows: bool) -> String {
        let findings = serde_json::to_string_pretty(findings).unwrap_or_default();
        let close = if any_rows { "\n  ]" } else { "]" };
        format!(
            "{close},\n  \"findings\": {}\n}}\n",
            indent(&findings, 2).trim_start()
        )
    }

    fn indent(text: &str, by: usize) -> String {
        let pad = " ".repeat(by);
        text.lines()
            .map(|l| format!("{pad}{l}"))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

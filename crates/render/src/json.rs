//! JSON rendering: the report structs serialised as they are.

use serde::Serialize;

/// The version of the JSON every command writes: the first key,
/// `"format_version"`, of every JSON object a command writes whole, of the
/// streamed `pages` object, and of every line of `records`' JSON lines.
/// Raised when a field is removed, renamed or changes type or meaning;
/// fields may be added within a version. Written only by this module.
pub const FORMAT_VERSION: u32 = 1;

/// The key that carries [`FORMAT_VERSION`].
pub const VERSION_KEY: &str = "format_version";

/// A report with [`FORMAT_VERSION`] put first in its JSON object.
#[derive(Serialize)]
struct Versioned<'r, T: ?Sized> {
    format_version: u32,
    #[serde(flatten)]
    report: &'r T,
}

/// Pretty-printed JSON of any report (a JSON object: a struct or a map),
/// with [`FORMAT_VERSION`] as its first key and a trailing newline;
/// integers past 2^53 − 1 as strings ([`exact_integers`]).
pub fn render<T: Serialize + ?Sized>(report: &T) -> String {
    let versioned = Versioned {
        format_version: FORMAT_VERSION,
        report,
    };
    // Serialising plain structs with string keys cannot fail.
    let mut s = serde_json::to_string_pretty(&versioned)
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    match exact_integers(&s) {
        std::borrow::Cow::Borrowed(_) => s,
        std::borrow::Cow::Owned(safe) => safe,
    }
}

/// One JSON line (compact, with its newline) of a JSON-lines output: the
/// object `value` with [`FORMAT_VERSION`] as its first key.
pub fn line<T: Serialize + ?Sized>(value: &T) -> String {
    let versioned = Versioned {
        format_version: FORMAT_VERSION,
        report: value,
    };
    let mut s =
        serde_json::to_string(&versioned).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

/// `records` as JSON lines: one object per row, `{"page", "origin",
/// "deleted", "state", "roll_ptr" (clustered records: `DB_ROLL_PTR` taken
/// apart), "row": {column: value, …}}`, then findings as `{"finding": …}`.
pub fn records_lines(r: &innodb_analysis::rows::records::RecordsReport) -> String {
    let mut out = String::new();
    for row in &r.rows {
        records_line(&mut out, &r.fields, row);
    }
    out.push_str(&records_findings(r));
    out
}

/// One row of `records` as a JSON line, appended to `out`; `fields` are
/// the report's.
pub fn records_line(
    out: &mut String,
    fields: &[innodb_analysis::rows::records::IndexField],
    row: &innodb_analysis::rows::records::Row,
) {
    let mut obj = serde_json::Map::new();
    for (f, v) in fields.iter().zip(&row.values) {
        obj.insert(
            f.name.clone(),
            serde_json::to_value(v).unwrap_or(serde_json::Value::Null),
        );
    }
    let mut line = serde_json::Map::new();
    line.insert(VERSION_KEY.into(), FORMAT_VERSION.into());
    line.insert("page".into(), row.page.into());
    line.insert("origin".into(), row.origin.into());
    line.insert("deleted".into(), row.deleted.into());
    line.insert("state".into(), serde_json::json!(row.state));
    if let Some(t) = &row.trx {
        if let Some(s) = t.state {
            line.insert("trx_state".into(), serde_json::json!(s));
        }
        if t.rebuild != innodb_analysis::rows::row_state::Rebuild::Stored {
            line.insert("rebuilt".into(), serde_json::json!(t));
        }
    }
    if let Some(r) = &row.roll_ptr {
        line.insert("roll_ptr".into(), serde_json::json!(r));
    }
    line.insert("row".into(), serde_json::Value::Object(obj));
    let line = serde_json::Value::Object(line);
    out.push_str(&line.to_string());
    out.push('\n');
}

/// The field names of `records` as JSON object keys (quoted, as
/// [`push_str_value`] writes them), for [`records_line_keyed`]; `None`
/// when two fields share a name (a JSON object keeps one of them:
/// [`records_line`] writes that).
pub fn records_keys(fields: &[innodb_analysis::rows::records::IndexField]) -> Option<Vec<String>> {
    let mut seen = std::collections::HashSet::new();
    fields
        .iter()
        .map(|f| {
            seen.insert(f.name.as_str()).then(|| {
                let mut k = String::new();
                push_str_value(&mut k, &f.name);
                k
            })
        })
        .collect()
}

/// `s` as a JSON string, appended to `out`: escaped as serde_json escapes
/// it (`\"`, `\\`, `\n` and the other C0 controls), and DEL and C1
/// controls as `\u007f` … `\u009f` — what [`push_exact`] makes of
/// serde's string.
pub fn push_str_value(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let b = s.as_bytes();
    out.push('"');
    // Most text has nothing to escape.
    if !crate::safe::any_byte(b, json_special) {
        out.push_str(s);
        out.push('"');
        return;
    }
    let mut done = 0;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        // The byte escaped (C0, `"`, `\`, DEL; the second byte of a C1
        // character), and how many bytes of `s` it stands for.
        let (escaped, len) = match c {
            b'"' | b'\\' | 0..0x20 | 0x7f => (c, 1),
            0xc2 => match b.get(i + 1) {
                Some(&n @ 0x80..=0x9f) => (n, 2),
                _ => (0, 0),
            },
            _ => (0, 0),
        };
        if len == 0 {
            i += 1;
            continue;
        }
        // `i` is an ASCII byte or the first of a two-byte character: a
        // char boundary of `s`, as is `i + len`.
        out.push_str(s.get(done..i).unwrap_or_default());
        match escaped {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            n => {
                out.push_str("\\u00");
                for d in [n >> 4, n & 15] {
                    out.push(char::from(HEX.get(usize::from(d)).copied().unwrap_or(b'0')));
                }
            }
        }
        i += len;
        done = i;
    }
    out.push_str(s.get(done..).unwrap_or_default());
    out.push('"');
}

/// True for the bytes [`push_str_value`] looks at: those it escapes
/// (C0, `"`, `\\`, DEL) and the first byte of a C1 character.
fn json_special(c: u8) -> bool {
    (c < 0x20) | (c == b'"') | (c == b'\\') | (c == 0x7f) | (c == 0xc2)
}

/// The integer `n` (of magnitude `magnitude`) as [`exact_integers`]
/// leaves it: a number, or a string of its digits past
/// [`MAX_SAFE_INTEGER`].
fn push_integer(out: &mut String, n: impl itoa::Integer, magnitude: u64) {
    let unsafe_ = magnitude > MAX_SAFE_INTEGER;
    if unsafe_ {
        out.push('"');
    }
    out.push_str(itoa::Buffer::new().format(n));
    if unsafe_ {
        out.push('"');
    }
}

/// JSON text (whole values) appended to `out` as the JSON output writes
/// it: integers past [`MAX_SAFE_INTEGER`] as strings ([`exact_integers`]),
/// DEL and C1 controls escaped (`safe::escape_json_controls`).
pub fn push_exact(out: &mut String, s: &str) {
    match exact_integers(s) {
        std::borrow::Cow::Borrowed(s) => out.push_str(&crate::safe::escape_json_controls(s)),
        std::borrow::Cow::Owned(s) => out.push_str(&crate::safe::escape_json_controls(&s)),
    }
}

/// A row state as its JSON string.
fn state_name(state: innodb_analysis::rows::records::RowState) -> &'static str {
    use innodb_analysis::rows::records::RowState;
    match state {
        RowState::Live => "\"live\"",
        RowState::DeleteMarked => "\"delete_marked\"",
        RowState::Garbage => "\"garbage\"",
    }
}

/// [`records_line`] written directly, the field names already quoted
/// (`keys`, from [`records_keys`]), in its final form ([`push_exact`]'s):
/// the same bytes, without building a JSON tree per row.
pub fn records_line_keyed(
    out: &mut String,
    keys: &[String],
    row: &innodb_analysis::rows::records::Row,
) {
    use innodb_format::value::column_value::Value;
    let mut num = itoa::Buffer::new();
    out.push_str("{\"");
    out.push_str(VERSION_KEY);
    out.push_str("\":");
    out.push_str(num.format(FORMAT_VERSION));
    out.push_str(",\"page\":");
    out.push_str(num.format(row.page));
    out.push_str(",\"origin\":");
    push_integer(out, row.origin, row.origin as u64);
    out.push_str(",\"deleted\":");
    out.push_str(if row.deleted { "true" } else { "false" });
    out.push_str(",\"state\":");
    out.push_str(state_name(row.state));
    out.push(',');
    if let Some(t) = &row.trx {
        if let Some(s) = t.state {
            out.push_str("\"trx_state\":\"");
            out.push_str(s.name());
            out.push_str("\",");
        }
        if t.rebuild != innodb_analysis::rows::row_state::Rebuild::Stored {
            out.push_str("\"rebuilt\":");
            push_exact(
                out,
                &serde_json::to_string(t).unwrap_or_else(|_| "null".into()),
            );
            out.push(',');
        }
    }
    if let Some(r) = &row.roll_ptr {
        out.push_str("\"roll_ptr\":{\"insert\":");
        out.push_str(if r.insert { "true" } else { "false" });
        out.push_str(",\"rseg\":");
        out.push_str(num.format(r.rseg));
        out.push_str(",\"page\":");
        out.push_str(num.format(r.page));
        out.push_str(",\"offset\":");
        out.push_str(num.format(r.offset));
        out.push_str("},");
    }
    out.push_str("\"row\":{");
    for (i, (k, v)) in keys.iter().zip(&row.values).enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(k);
        out.push(':');
        match v {
            Value::Null => out.push_str("null"),
            Value::Int(n) => push_integer(out, *n, n.unsigned_abs()),
            Value::UInt(n) => push_integer(out, *n, *n),
            Value::Text(t) => push_str_value(out, t),
            Value::Hex { hex } => {
                out.push_str("{\"hex\":");
                push_str_value(out, hex);
                out.push('}');
            }
            Value::Undecoded { undecoded } => {
                out.push_str("{\"undecoded\":");
                push_str_value(out, undecoded);
                out.push('}');
            }
            Value::Float(_) => push_exact(
                out,
                &serde_json::to_string(v).unwrap_or_else(|_| "null".into()),
            ),
        }
    }
    out.push_str("}}\n");
}

/// The findings of `records`, one JSON line each (after the rows).
pub fn records_findings(r: &innodb_analysis::rows::records::RecordsReport) -> String {
    let mut out = String::new();
    for f in &r.findings {
        out.push_str(&line(&serde_json::json!({ "finding": f })));
    }
    out
}

/// The largest integer a JSON consumer that reads numbers as IEEE doubles
/// (JavaScript, jq 1.6) holds exactly: 2^53 − 1.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// JSON text with every integer whose magnitude is above
/// [`MAX_SAFE_INTEGER`] written as a string of its decimal digits
/// (`37154696945991952` → `"37154696945991952"`): every number left is
/// exact as a double, and no digit is lost to a consumer that reads
/// numbers as doubles. Numbers with a fraction or an exponent and
/// everything inside strings stay as they are. `s` is whole JSON values
/// (or pieces cut between tokens, never inside a string or a number).
pub fn exact_integers(s: &str) -> std::borrow::Cow<'_, str> {
    let b = s.as_bytes();
    let Some(first) = first_unsafe_integer(b, 0) else {
        return std::borrow::Cow::Borrowed(s);
    };
    let mut out = String::with_capacity(s.len() + 16);
    let mut done = 0;
    let mut next = Some(first);
    while let Some((start, end)) = next {
        // Token bounds are ASCII positions of `s`: always char boundaries.
        out.push_str(s.get(done..start).unwrap_or_default());
        out.push('"');
        out.push_str(s.get(start..end).unwrap_or_default());
        out.push('"');
        done = end;
        next = first_unsafe_integer(b, end);
    }
    out.push_str(s.get(done..).unwrap_or_default());
    std::borrow::Cow::Owned(out)
}

/// Where the first integer token from `from` on lies (outside strings)
/// whose magnitude is above [`MAX_SAFE_INTEGER`]: its start and end.
fn first_unsafe_integer(b: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut i = from;
    let mut in_string = false;
    while let Some(&c) = b.get(i) {
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if c == b'"' {
            in_string = true;
            i += 1;
            continue;
        }
        if c != b'-' && !c.is_ascii_digit() {
            i += 1;
            continue;
        }
        let digits_from = if c == b'-' { i + 1 } else { i };
        let run = |from: usize, ok: fn(u8) -> bool| {
            from + b
                .get(from..)
                .map_or(0, |t| t.iter().take_while(|&&x| ok(x)).count())
        };
        let digits_end = run(digits_from, |x| x.is_ascii_digit());
        let fraction = matches!(b.get(digits_end), Some(b'.' | b'e' | b'E'));
        let end = run(digits_end, |x| {
            matches!(x, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
        });
        let digits = b.get(digits_from..digits_end).unwrap_or_default();
        if !fraction && above_safe(digits) {
            return Some((i, end));
        }
        i = end.max(i + 1);
    }
    None
}

/// True when the decimal `digits` (no sign, no leading zero) are above
/// [`MAX_SAFE_INTEGER`] (16 digits: `9007199254740991`).
fn above_safe(digits: &[u8]) -> bool {
    const SAFE: &[u8] = b"9007199254740991";
    digits.len() > SAFE.len() || (digits.len() == SAFE.len() && digits > SAFE)
}

/// `pages` as JSON, written piece by piece: exactly what [`render`] makes
/// of a whole `PageList`, without holding its rows.
pub mod pages_stream {
    use innodb_analysis::PageRow;
    use innodb_space::Finding;
    use std::collections::BTreeMap;

    /// Everything before the first row, [`FORMAT_VERSION`](super::FORMAT_VERSION)
    /// first when `top` (the whole output, not a report nested in another).
    pub fn head(file: &str, top: bool) -> String {
        let version = if top {
            format!("\n  \"{}\": {},", super::VERSION_KEY, super::FORMAT_VERSION)
        } else {
            String::new()
        };
        format!(
            "{{{version}\n  \"file\": {},\n  \"pages\": [",
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

    /// Everything after the last row: the kept `findings` and the count of
    /// every finding `by_kind`; `any_rows` when at least one row was written.
    pub fn tail(findings: &[Finding], by_kind: &BTreeMap<String, u64>, any_rows: bool) -> String {
        let findings = serde_json::to_string_pretty(findings).unwrap_or_default();
        let by_kind = serde_json::to_string_pretty(by_kind).unwrap_or_default();
        let close = if any_rows { "\n  ]" } else { "]" };
        format!(
            "{close},\n  \"findings\": {},\n  \"findings_by_kind\": {}\n}}\n",
            indent(&findings, 2).trim_start(),
            indent(&by_kind, 2).trim_start()
        )
    }

    pub(super) fn indent(text: &str, by: usize) -> String {
        let pad = " ".repeat(by);
        text.lines()
            .map(|l| format!("{pad}{l}"))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// `--datadir DIR pages` as JSON, written piece by piece: exactly what
/// [`render`] makes of a whole `DatadirReport` of page lists, without
/// holding any file's rows. Each file's report is written with
/// [`pages_stream`], its pieces passed through [`nested`](datadir_pages_stream::nested).
pub mod datadir_pages_stream {
    use serde::Serialize;

    /// Everything before the first file: the directory, the server that
    /// wrote it, and the files of it that are not read (when there are any).
    pub fn head(
        datadir: &str,
        server: &innodb_space::datadir::Server,
        skipped: &[innodb_space::datadir::SkippedFile],
    ) -> String {
        let server = serde_json::to_string_pretty(server).unwrap_or_default();
        let skipped = if skipped.is_empty() {
            String::new()
        } else {
            let list = serde_json::to_string_pretty(skipped).unwrap_or_default();
            format!(
                "\n  \"skipped\": {},",
                super::pages_stream::indent(&list, 2).trim_start()
            )
        };
        format!(
            "{{\n  \"{}\": {},\n  \"datadir\": {},\n  \"server\": {},{skipped}\n  \"files\": [",
            super::VERSION_KEY,
            super::FORMAT_VERSION,
            serde_json::to_string(datadir).unwrap_or_else(|_| "\"\"".into()),
            super::pages_stream::indent(&server, 2).trim_start()
        )
    }

    /// A file's entry up to its report; `first` for the first file.
    pub fn file_open(first: bool, file: &str, bytes: u64) -> String {
        format!(
            "{}\n    {{\n      \"file\": {},\n      \"bytes\": {bytes},\n      \"report\": ",
            if first { "" } else { "," },
            serde_json::to_string(file).unwrap_or_else(|_| "\"\"".into())
        )
    }

    /// A piece of a file's report (as [`pages_stream`](super::pages_stream)
    /// writes it), indented to its place in the file's entry.
    pub fn nested(piece: &str) -> String {
        piece
            .strip_suffix('\n')
            .unwrap_or(piece)
            .replace('\n', "\n      ")
    }

    /// The end of a file's entry with a report.
    pub fn file_close() -> &'static str {
        "\n    }"
    }

    /// A whole entry (a file without a report); `first` for the first file.
    pub fn entry<E: Serialize>(first: bool, entry: &E) -> String {
        let body = serde_json::to_string_pretty(entry).unwrap_or_default();
        format!(
            "{}\n{}",
            if first { "" } else { "," },
            super::pages_stream::indent(&body, 4)
        )
    }

    /// Everything after the last file; `any_files` when at least one was written.
    pub fn tail<T: Serialize>(totals: &T, any_files: bool) -> String {
        let totals = serde_json::to_string_pretty(totals).unwrap_or_default();
        let close = if any_files { "\n  ]" } else { "]" };
        format!(
            "{close},\n  \"totals\": {}\n}}\n",
            super::pages_stream::indent(&totals, 2).trim_start()
        )
    }
}

/// `tree` as JSON, written piece by piece: exactly what [`render`] makes
/// of the whole report, without holding its pages.
pub mod tree_stream {
    use innodb_analysis::reports::tree_report::{TreePage, TreeReport};

    /// The list of pages of a report that has none yet, as [`render`](super::render) writes it.
    const NO_PAGES: &str = "\"pages\": []";

    /// Everything before the first page: `r` (its pages not in it) up to
    /// the opening of its list of pages.
    pub fn head(r: &TreeReport) -> String {
        let s = super::render(r);
        match s.find(NO_PAGES) {
            Some(i) => format!("{}\"pages\": [", s.get(..i).unwrap_or_default()),
            None => s,
        }
    }

    /// One page; `first` for the first page of the list.
    pub fn row(p: &TreePage, first: bool) -> String {
        let body = serde_json::to_string_pretty(p).unwrap_or_default();
        let mut out = String::from(if first { "\n" } else { ",\n" });
        out.push_str(&super::exact_integers(&super::pages_stream::indent(
            &body, 4,
        )));
        out
    }

    /// Everything after the last page: the close of the list and the rest
    /// of `r` (its findings); `any_rows` when at least one page was written.
    pub fn tail(r: &TreeReport, any_rows: bool) -> String {
        let s = super::render(r);
        let rest = s
            .find(NO_PAGES)
            .and_then(|i| s.get(i + NO_PAGES.len()..))
            .unwrap_or_default();
        let close = if any_rows { "\n  ]" } else { "]" };
        format!("{close}{rest}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A string with one byte to escape at every place, in strings of
    /// lengths around the 32-byte blocks the scan tests: the same JSON as
    /// serde_json's made safe ([`push_exact`]), and clean strings as they are.
    #[test]
    fn strings_escape_at_every_place_as_serde_does() {
        for len in [0usize, 1, 5, 31, 32, 33, 63, 64, 65, 100] {
            let clean = "a".repeat(len);
            let mut out = String::new();
            push_str_value(&mut out, &clean);
            assert_eq!(out, format!("\"{clean}\""));
            for special in ["\"", "\\", "\n", "\u{1}", "\u{7f}", "\u{85}", "é"] {
                for at in 0..=len {
                    let s = format!("{}{special}{}", &clean[..at], &clean[at..]);
                    let mut out = String::new();
                    push_str_value(&mut out, &s);
                    let mut want = String::new();
                    push_exact(&mut want, &serde_json::to_string(&s).unwrap());
                    assert_eq!(out, want, "{special:?} at {at} of {len}");
                }
            }
        }
    }

    /// Integers past 2^53 − 1 become strings of the same digits; the
    /// largest safe one, floats, and digits inside strings stay.
    #[test]
    fn integers_past_2_53_are_strings() {
        let v = serde_json::json!({
            "safe": MAX_SAFE_INTEGER,
            "unsafe": MAX_SAFE_INTEGER + 1,
            "max": u64::MAX,
            "min": i64::MIN,
            "neg_safe": -9_007_199_254_740_991_i64,
            "float": 1.5e300,
            "text": "12345678901234567890 \"99999999999999999\"",
            "list": [18_446_744_073_709_551_615_u64, 1, -2]
        });
        let text = v.to_string();
        let safe = exact_integers(&text);
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back["safe"], MAX_SAFE_INTEGER);
        assert_eq!(back["unsafe"], "9007199254740992");
        assert_eq!(back["max"], "18446744073709551615");
        assert_eq!(back["min"], "-9223372036854775808");
        assert_eq!(back["neg_safe"], -9_007_199_254_740_991_i64);
        assert_eq!(back["float"], 1.5e300);
        assert_eq!(back["text"], v["text"]);
        assert_eq!(
            back["list"],
            serde_json::json!(["18446744073709551615", 1, -2])
        );
        let small = r#"{"a":1,"b":"x"}"#;
        assert!(matches!(
            exact_integers(small),
            std::borrow::Cow::Borrowed(_)
        ));
    }
    use innodb_analysis::rows::ddl::schema_from_ddl;
    use innodb_analysis::rows::records::{Confidence, Row, RowState};
    use innodb_analysis::rows::row_state::{Rebuild, RowTrx, TrxState};
    use innodb_format::value::column_value::{RollPtr, Value};

    /// The direct writer gives the bytes serde's JSON tree gives, for every
    /// kind of value (strings with quotes, controls and non-ASCII too).
    #[test]
    fn records_line_keyed_is_records_line() {
        let schema = schema_from_ddl(
            "CREATE TABLE `t\"q` (`id` INT PRIMARY KEY, `n\\u` INT, `f` DOUBLE, `s` VARCHAR(9), `h` BLOB, `x` INT, `é` INT)",
            &[(1, 3)],
        )
        .unwrap();
        let fields = &schema.indexes[0].fields;
        let keys = records_keys(fields).unwrap();
        let mut values = vec![
            Value::Int(-7),
            Value::Null,
            Value::Float(3.25e-9),
            Value::Text("a\"b\\c\n\u{1}é\u{7f}\u{85}\u{9f}\u{a0}\t\r\u{8}\u{c}\u{1f}".into()),
            Value::Hex { hex: "00ff".into() },
            Value::Undecoded {
                undecoded: "why \"not\"".into(),
            },
            Value::UInt(u64::MAX),
        ];
        values.resize(fields.len(), Value::Null);
        for state in [RowState::Live, RowState::DeleteMarked, RowState::Garbage] {
            let row = Row {
                page: 4,
                origin: 125,
                deleted: state != RowState::Live,
                state,
                confidence: Some(Confidence::High),
                values: values.clone(),
                roll_ptr: (state == RowState::Live).then_some(RollPtr {
                    insert: true,
                    rseg: 4,
                    page: 308,
                    offset: 272,
                }),
                external: Vec::new(),
                trx: (state != RowState::Garbage).then_some(RowTrx {
                    state: Some(TrxState::Active),
                    rebuild: Rebuild::Reverted,
                    stored_trx_id: Some(41),
                    undone: 2,
                }),
            };
            let (mut a, mut b) = (String::new(), String::new());
            records_line(&mut a, fields, &row);
            records_line_keyed(&mut b, &keys, &row);
            let mut exact = String::new();
            push_exact(&mut exact, &a);
            assert_eq!(exact, b);
            let roll = state == RowState::Live;
            let want = r#""roll_ptr":{"insert":true,"rseg":4,"page":308,"offset":272},"row""#;
            assert_eq!(a.contains(want), roll, "{a}");
        }
    }
}

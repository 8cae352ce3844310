//! Text rendering for terminals.

use innodb_analysis::reports::checksum_report::ChecksumReport;
use innodb_analysis::reports::page_detail::PageDetail;
use innodb_analysis::reports::page_list::PageList;
use innodb_analysis::reports::summary::Summary;
use innodb_format::index::sdi::index_id_text;
use innodb_space::Finding;
use std::fmt::Write;

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// `name count, name count, …`.
fn counts(map: &std::collections::BTreeMap<String, u64>) -> String {
    map.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn findings_block(out: &mut String, findings: &[Finding], total: Option<usize>) {
    let total = total.unwrap_or(findings.len());
    if total == 0 {
        let _ = writeln!(out, "Findings: none");
        return;
    }
    let _ = writeln!(out, "Findings: {total}");
    for f in findings {
        let _ = writeln!(out, "  {f}");
    }
    if total > findings.len() {
        let _ = writeln!(
            out,
            "  … {} more, not listed (counted by kind in --format json)",
            total - findings.len()
        );
    }
}

/// The `summary` report.
pub fn summary(s: &Summary) -> String {
    let mut o = String::new();
    let row = |o: &mut String, k: &str, v: String| {
        let _ = writeln!(o, "{k:<18}{v}");
    };
    row(&mut o, "File", s.file.clone());
    row(&mut o, "Format", s.format.clone());
    row(&mut o, "Space id", s.space_id.to_string());
    row(
        &mut o,
        "Flags",
        format!("0x{:x} ({})", s.flags.raw, s.flags.describe()),
    );
    row(
        &mut o,
        "Page size",
        format!(
            "{} logical, {} physical (from {}), {} pages per extent",
            s.page_size,
            s.physical_page_size,
            match s.page_size_source {
                innodb_space::tablespace::PageSizeSource::Page0 => "page 0",
                innodb_space::tablespace::PageSizeSource::User => "--page-size",
                innodb_space::tablespace::PageSizeSource::Probed => "probing",
            },
            s.extent_size
        ),
    );
    row(
        &mut o,
        "Pages",
        format!(
            "{} in file, FSP_SIZE {}, free limit {}, {} never written (all zero){}",
            s.page_count,
            opt(s.fsp_size),
            opt(s.free_limit),
            s.all_zero_pages,
            if s.hole_pages > 0 {
                format!(" ({} in holes of the sparse file, not read)", s.hole_pages)
            } else {
                String::new()
            }
        ),
    );
    row(
        &mut o,
        "LSN",
        format!("{} .. {}", opt(s.lsn_min), opt(s.lsn_max)),
    );
    let algos = counts(&s.checksum_algorithms);
    row(
        &mut o,
        "Checksums",
        format!(
            "{} ({algos}); {} bad",
            s.checksum_algorithm, s.bad_checksums
        ),
    );
    if s.lsn_mismatches > 0 {
        row(&mut o, "LSN mismatches", s.lsn_mismatches.to_string());
    }
    if let Some(c) = &s.page_compression {
        row(&mut o, "Page-compressed", page_compression(s, c));
    }
    if let Some(line) = on_disk(s) {
        row(&mut o, "On disk", line);
    }
    if let Some(d) = &s.doublewrite {
        row(
            &mut o,
            "Doublewrite",
            format!(
                "blocks at {} and {} ({} pages each): {} copies verify, {} empty, {} bad",
                d.block1, d.block2, d.block_pages, d.valid_copies, d.empty_slots, d.bad_copies
            ),
        );
    }
    let _ = writeln!(o, "Page types");
    let width = s.page_types.keys().map(String::len).max().unwrap_or(0);
    let total: u64 = s.page_types.values().sum();
    for (name, n) in &s.page_types {
        let pct = if total == 0 {
            0.0
        } else {
            *n as f64 * 100.0 / total as f64
        };
        let _ = writeln!(o, "  {name:<width$}  {n:>10}  {pct:5.1}%");
    }
    let total_findings: u64 = s.findings_by_kind.values().sum();
    findings_block(&mut o, &s.findings, Some(total_findings as usize));
    o
}

/// The page-compressed pages: whose compression, pages per algorithm, and
/// the bytes their compressed data takes of their logical size.
fn page_compression(
    s: &innodb_analysis::reports::summary::Summary,
    c: &innodb_analysis::reports::summary::PageCompression,
) -> String {
    use innodb_format::fil::page_compressed::FrameLayout;
    let whose = match c.layout {
        FrameLayout::Mysql => "MySQL COMPRESSION",
        FrameLayout::MariadbClassic | FrameLayout::MariadbFullCrc32 => "MariaDB PAGE_COMPRESSED",
    };
    let algos = c
        .by_algorithm
        .iter()
        .map(|(a, n)| format!("{a} {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "{} pages, {whose} ({algos}): {} bytes of compressed data for {} ({:.1}%)",
        s.page_compressed_pages,
        c.stored_bytes,
        c.logical_bytes,
        c.stored_bytes as f64 * 100.0 / c.logical_bytes.max(1) as f64
    )
}

/// What the file occupies on disk, when it says something: a sparse file's
/// allocation, or that a `.gz` copy of a page-compressed file cannot tell.
fn on_disk(s: &innodb_analysis::reports::summary::Summary) -> Option<String> {
    match s.allocated_bytes {
        Some(a) if a < s.file_bytes => Some(format!(
            "{a} bytes allocated of {} ({:.1}%): a sparse file",
            s.file_bytes,
            a as f64 * 100.0 / s.file_bytes.max(1) as f64
        )),
        Some(a) if s.page_compression.is_some() => Some(format!(
            "{a} bytes allocated of {}: no holes (a copy that did not keep them?)",
            s.file_bytes
        )),
        None if s.page_compression.is_some() => {
            Some("not known: read from a .gz copy, which keeps no holes".to_string())
        }
        _ => None,
    }
}

/// The `pages` listing.
pub fn pages(list: &PageList) -> String {
    let mut o = pages_header();
    for r in &list.pages {
        o.push_str(&page_row(r));
    }
    let total = list.findings_by_kind.values().sum();
    o.push_str(&pages_footer(&list.findings, total));
    o
}

/// The column heads of the `pages` listing.
pub fn pages_header() -> String {
    format!(
        "{:>10}  {:<16} {:>16}  {:<12} {:>8}  {:>18} {:>5} {:>6}  note\n",
        "page", "type", "lsn", "checksum", "lsn_ok", "index_id", "level", "recs"
    )
}

/// One line of the `pages` listing.
pub fn page_row(r: &innodb_analysis::PageRow) -> String {
    let mut note = String::new();
    if let (Some(p), Some(s)) = (r.copy_of_page, r.copy_of_space) {
        let _ = write!(note, "doublewrite copy of space {s} page {p}");
    }
    if let Some(c) = r.compressed_bytes {
        let _ = write!(note, "page-compressed, {c} bytes");
    }
    if let Some(n) = r.hole_pages {
        let last = u64::from(r.page) + u64::from(n) - 1;
        let _ = write!(
            note,
            "pages {}..{last}: {n} in a hole of the sparse file (never written, not read)",
            r.page
        );
    }
    if let Some(n) = r.index_name.as_deref().filter(|n| *n != "SDI") {
        if !note.is_empty() {
            note.push_str("; ");
        }
        note.push_str(n);
    }
    format!(
        "{:>10}  {:<16} {:>16}  {:<12} {:>8}  {:>18} {:>5} {:>6}  {note}\n",
        r.page,
        r.page_type,
        r.lsn,
        r.checksum,
        r.lsn_consistent
            .map_or("-", |b| if b { "yes" } else { "NO" }),
        r.index_id.map_or_else(|| "-".to_string(), index_id_text),
        opt(r.level),
        opt(r.records),
    )
}

/// The findings block that ends the `pages` listing: the kept `findings`
/// of `total` made.
pub fn pages_footer(findings: &[Finding], total: u64) -> String {
    let mut o = String::new();
    findings_block(&mut o, findings, usize::try_from(total).ok());
    o
}

/// The `page` report.
pub fn page(d: &PageDetail) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{} page {} ({} bytes at file offset {}): {}, checksum {}{}",
        d.file,
        d.page,
        d.physical_page_size,
        d.file_offset,
        d.page_type,
        d.checksum,
        if d.doublewrite_copy {
            ", doublewrite copy"
        } else {
            ""
        }
    );
    for s in &d.sections {
        let _ = writeln!(o, "\n{}", s.title);
        let width = s.fields.iter().map(|f| f.name.len()).max().unwrap_or(0);
        for f in &s.fields {
            let meaning = f
                .meaning
                .as_deref()
                .map(|m| format!("  ({m})"))
                .unwrap_or_default();
            let pointer = f.pointer.map(|p| format!("  {p}")).unwrap_or_default();
            let _ = writeln!(
                o,
                "  {:>6} {:>3}  {:<width$}  {}{meaning}{pointer}",
                f.offset, f.size, f.name, f.value
            );
        }
    }
    if let Some(r) = &d.records {
        records_block(&mut o, r);
    }
    if let innodb_format::checksum::ChecksumVerdict::Invalid { stored, computed } =
        &d.checksum_verdict
    {
        let _ = writeln!(o, "\nChecksum does not verify");
        for v in stored {
            let _ = writeln!(
                o,
                "  stored   {:<28} 0x{:08x} at offset {}",
                v.name,
                v.value,
                opt(v.offset)
            );
        }
        for v in computed {
            let _ = writeln!(o, "  computed {:<28} 0x{:08x}", v.name, v.value);
        }
    }
    let _ = writeln!(o);
    findings_block(&mut o, &d.findings, None);
    o
}

/// The `checksum` report for several files.
pub fn checksums(reports: &[ChecksumReport]) -> String {
    let mut o = String::new();
    for r in reports {
        let algos = counts(&r.by_algorithm);
        let verdict = if r.all_valid() { "OK" } else { "BAD" };
        let _ = writeln!(o, "{verdict}  {}: {} pages ({algos})", r.file, r.pages);
        for b in &r.bad_pages {
            let list = innodb_format::checksum::list_values;
            let _ = writeln!(
                o,
                "  page {}: stored {}; computed {}",
                b.page,
                list(&b.stored),
                list(&b.computed)
            );
        }
        if r.bad_page_ranges.len() > r.bad_pages.len() {
            let _ = writeln!(
                o,
                "  … {} more bad pages; all {} are pages {}",
                r.bad_page_ranges.len() - r.bad_pages.len(),
                r.bad_page_ranges.len(),
                r.bad_page_ranges
            );
        }
        page_lines(
            &mut o,
            &r.lsn_mismatches,
            "trailer LSN does not match FIL_PAGE_LSN",
        );
        page_lines(
            &mut o,
            &r.unverifiable,
            "cannot be verified (encrypted or unsupported compression)",
        );
        rescues(&mut o, r, "");
        for f in &r.other_findings {
            let _ = writeln!(o, "  {f}");
        }
        let other: u64 = r.other_findings_by_kind.values().sum();
        if other > r.other_findings.len() as u64 {
            let _ = writeln!(
                o,
                "  … {} more findings (by kind: {})",
                other - r.other_findings.len() as u64,
                counts(&r.other_findings_by_kind)
            );
        }
    }
    o
}

/// `  page N: good doublewrite copy in FILE slot S` for each page of `r`
/// that does not verify and has one; file names shortened by `prefix`.
pub fn rescues(o: &mut String, r: &ChecksumReport, prefix: &str) {
    for c in &r.doublewrite_copies {
        let file = match c.file.strip_prefix(prefix) {
            Some(f) if !prefix.is_empty() => f.trim_start_matches('/'),
            _ => c.file.as_str(),
        };
        let _ = writeln!(
            o,
            "  page {}: has a good doublewrite copy in {file} slot {} (LSN {}): the copy crash recovery would write over it",
            c.page, c.slot, c.copy_lsn
        );
    }
}

/// `  page N: what` for each page of `pages`, up to
/// [`ChecksumReport::DETAILED`] lines; then the rest as runs of pages.
fn page_lines(
    o: &mut String,
    pages: &innodb_analysis::reports::page_ranges::PageRanges,
    what: &str,
) {
    let limit = ChecksumReport::DETAILED;
    for p in pages.pages().take(limit) {
        let _ = writeln!(o, "  page {p}: {what}");
    }
    if pages.len() > limit {
        let _ = writeln!(
            o,
            "  … {} more pages: {what}; all {} are pages {pages}",
            pages.len() - limit,
            pages.len()
        );
    }
}

/// The records of an index page, for `page`.
fn records_block(o: &mut String, r: &innodb_analysis::reports::page_records::PageRecords) {
    let _ = writeln!(
        o,
        "\nRecords ({:?}): {} in the list, {} in the garbage list; data {} bytes, free {}, garbage {}, fill {:.1}%",
        r.format,
        r.records.len(),
        r.garbage.len(),
        r.space.data_bytes,
        r.space.free_bytes,
        r.space.garbage_bytes,
        r.fill * 100.0
    );
    let _ = writeln!(
        o,
        "  {:>6} {:>5} {:<12} {:<8} {:>5} {:>6} {:>8} {:>5}  bytes (hex, first 32)",
        "origin", "heap", "type", "flags", "owned", "next", "child", "len"
    );
    for rec in &r.records {
        let flags = match (rec.deleted, rec.min_rec) {
            (true, true) => "del,min",
            (true, false) => "deleted",
            (false, true) => "min_rec",
            (false, false) => "-",
        };
        let hex: String = rec.bytes.chars().take(64).collect();
        let _ = writeln!(
            o,
            "  {:>6} {:>5} {:<12} {:<8} {:>5} {:>6} {:>8} {:>5}  {hex}",
            rec.origin,
            rec.heap_no,
            rec.record_type,
            flags,
            rec.n_owned,
            opt(rec.next),
            opt(rec.child_page),
            rec.bytes_len
        );
    }
    let list = |v: &[usize]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    let _ = writeln!(o, "Garbage list: {}", list(&r.garbage));
    let _ = writeln!(o, "Directory slots: {}", list(&r.directory));
}

/// `records` as tab-separated text: a line naming the index, a header
/// line of field names, one line per row (NULL as `NULL`, binary as hex),
/// then the row count and the findings.
pub fn records(r: &innodb_analysis::rows::records::RecordsReport) -> String {
    let mut o = records_head(r);
    for row in &r.rows {
        records_row(&mut o, row);
    }
    o.push_str(&records_tail(r, r.rows.len()));
    o
}

/// What `records` writes before the first row: the index, and the field
/// names.
pub fn records_head(r: &innodb_analysis::rows::records::RecordsReport) -> String {
    let mut o = String::new();
    let names: Vec<&str> = r.fields.iter().map(|f| f.name.as_str()).collect();
    let _ = writeln!(
        o,
        "# {} index {} ({})",
        r.table,
        r.index,
        index_id_text(r.index_id)
    );
    let _ = writeln!(o, "{}", names.join("\t"));
    o
}

/// One row of `records`, appended to `o`.
pub fn records_row(o: &mut String, row: &innodb_analysis::rows::records::Row) {
    use innodb_analysis::rows::records::RowState;
    for (i, v) in row.values.iter().enumerate() {
        if i > 0 {
            o.push('\t');
        }
        push_cell(o, v);
    }
    let confidence = match row.confidence {
        Some(c) => format!(", {} confidence", confidence_name(c)),
        None => String::new(),
    };
    match row.state {
        RowState::Live => {}
        RowState::DeleteMarked => {
            let _ = write!(o, "\t(delete-marked{confidence})");
        }
        RowState::Garbage => {
            let _ = write!(o, "\t(garbage list: purged, bytes still there{confidence})");
        }
    }
    if let Some(t) = &row.trx {
        let _ = write!(o, "\t({})", crate::recovery_text::trx_mark(t));
    }
    o.push('\n');
}

/// What `records` writes after the last of its `rows` rows: their count,
/// the records the server zeroed, the findings.
pub fn records_tail(r: &innodb_analysis::rows::records::RecordsReport, rows: usize) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "# {rows} rows");
    if r.erased_records > 0 {
        let _ = writeln!(
            o,
            "# {} garbage-list records were zeroed by the server: nothing of them is left",
            r.erased_records
        );
    }
    if !r.findings.is_empty() {
        findings_block(&mut o, &r.findings, None);
    }
    o
}

/// Appends a value as a tab-separated text cell (see [`cell`]).
fn push_cell(o: &mut String, v: &innodb_format::value::column_value::Value) {
    use innodb_format::value::column_value::Value;
    match v {
        Value::Null => o.push_str("NULL"),
        Value::Int(i) => o.push_str(itoa::Buffer::new().format(*i)),
        Value::UInt(u) => o.push_str(itoa::Buffer::new().format(*u)),
        Value::Text(t) if !holds_tab_or_newline(t.as_bytes()) => o.push_str(t),
        Value::Hex { hex } => {
            o.push_str("0x");
            o.push_str(hex);
        }
        other => o.push_str(&cell(other)),
    }
}

/// True when some byte of `bytes` is a tab or a newline (every text
/// value of `records` is tested; `memchr` tests 16 or 32 bytes at once).
fn holds_tab_or_newline(bytes: &[u8]) -> bool {
    memchr::memchr2(b'\t', b'\n', bytes).is_some()
}

/// A value as a tab-separated text cell: NULL, numbers, text with tabs
/// and newlines escaped, binary as `0x…`.
pub(crate) fn cell(v: &innodb_format::value::column_value::Value) -> String {
    use innodb_format::value::column_value::Value;
    match v {
        Value::Null => "NULL".into(),
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        Value::Float(f) => float_text(*f),
        Value::Text(t) => t.replace('\t', "\\t").replace('\n', "\\n"),
        Value::Hex { hex } => format!("0x{hex}"),
        Value::Undecoded { undecoded } => format!("<undecoded: {undecoded}>"),
    }
}

/// A deleted row's confidence, as in JSON.
fn confidence_name(c: innodb_analysis::rows::records::Confidence) -> &'static str {
    match c {
        innodb_analysis::rows::records::Confidence::High => "high",
        innodb_analysis::rows::records::Confidence::Medium => "medium",
        innodb_analysis::rows::records::Confidence::Low => "low",
    }
}

/// A FLOAT or DOUBLE in its shortest exact digits, with an exponent when
/// it is very large or very small (`3.4028234663852886e38`), not hundreds
/// of digits.
fn float_text(f: f64) -> String {
    if f == 0.0 || (1e-5..1e16).contains(&f.abs()) {
        f.to_string()
    } else {
        format!("{f:e}")
    }
}

/// `records` as CSV (RFC 4180): a header of field names and a `state`
/// column, one line per row; NULL is an empty field, binary is hex.
pub fn records_csv(r: &innodb_analysis::rows::records::RecordsReport) -> String {
    let mut o = records_csv_head(r);
    for row in &r.rows {
        records_csv_row(&mut o, row);
    }
    o
}

/// A CSV field, quoted when it must be.
fn csv_quote(o: &mut String, s: &str) {
    let b = s.as_bytes();
    if memchr::memchr3(b',', b'"', b'\n', b).is_some() || memchr::memchr(b'\r', b).is_some() {
        o.push('"');
        o.push_str(&s.replace('"', "\"\""));
        o.push('"');
    } else {
        o.push_str(s);
    }
}

/// The header line of `records` as CSV.
pub fn records_csv_head(r: &innodb_analysis::rows::records::RecordsReport) -> String {
    let mut o = String::new();
    for f in &r.fields {
        csv_quote(&mut o, &f.name);
        o.push(',');
    }
    o.push_str("state,confidence\n");
    o
}

/// [`records_csv_head`] with the `trx` column of [`records_csv_row_trx`].
pub fn records_csv_head_trx(r: &innodb_analysis::rows::records::RecordsReport) -> String {
    let mut o = records_csv_head(r);
    o.pop();
    o.push_str(",trx\n");
    o
}

/// [`records_csv_row`] with a last column: what the undo logs tell of the
/// row (`active`, `prepared`, `reverted`, `restored`; empty when committed
/// as stored).
pub fn records_csv_row_trx(o: &mut String, row: &innodb_analysis::rows::records::Row) {
    records_csv_row(o, row);
    o.pop();
    o.push(',');
    if let Some(t) = &row.trx {
        o.push_str(crate::recovery_text::trx_word(t));
    }
    o.push('\n');
}

/// One row of `records` as CSV, appended to `o`.
pub fn records_csv_row(o: &mut String, row: &innodb_analysis::rows::records::Row) {
    use innodb_analysis::rows::records::RowState;
    use innodb_format::value::column_value::Value;
    for v in &row.values {
        match v {
            Value::Null => {}
            Value::Int(i) => o.push_str(itoa::Buffer::new().format(*i)),
            Value::UInt(u) => o.push_str(itoa::Buffer::new().format(*u)),
            Value::Float(f) => o.push_str(&float_text(*f)),
            Value::Text(t) => csv_quote(o, t),
            Value::Hex { hex } => {
                o.push_str("0x");
                o.push_str(hex);
            }
            Value::Undecoded { undecoded } => csv_quote(o, &format!("<undecoded: {undecoded}>")),
        }
        o.push(',');
    }
    o.push_str(match row.state {
        RowState::Live => "live",
        RowState::DeleteMarked => "delete_marked",
        RowState::Garbage => "garbage",
    });
    o.push(',');
    o.push_str(row.confidence.map_or("", confidence_name));
    o.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each byte CSV quotes, and each a text cell escapes, at every place
    /// of values around the 16- and 32-byte blocks `memchr` tests: found
    /// wherever it is, and clean values left as they are.
    #[test]
    fn special_bytes_are_found_at_every_place() {
        for len in [0usize, 1, 15, 16, 17, 31, 32, 33, 60, 64, 100] {
            let clean = "a".repeat(len);
            let mut o = String::new();
            csv_quote(&mut o, &clean);
            assert_eq!(o, clean);
            assert!(!holds_tab_or_newline(clean.as_bytes()));
            for at in 0..=len {
                for special in [",", "\"", "\n", "\r"] {
                    let s = format!("{}{special}{}", &clean[..at], &clean[at..]);
                    let mut o = String::new();
                    csv_quote(&mut o, &s);
                    assert_eq!(
                        o,
                        format!("\"{}\"", s.replace('"', "\"\"")),
                        "{special:?} at {at}"
                    );
                }
                for special in ["\t", "\n"] {
                    let s = format!("{}{special}{}", &clean[..at], &clean[at..]);
                    assert!(holds_tab_or_newline(s.as_bytes()), "{special:?} at {at}");
                }
            }
        }
    }
}

//! `carve` as text: what each input held, then per tablespace found its
//! pages, types, index ids, LSN range, missing pages and tables.

use innodb_analysis::reports::carve_report::{CarveReport, CarvedSpace};
use std::fmt::Write;

/// The whole report.
pub fn report(r: &CarveReport) -> String {
    let mut o = String::new();
    for i in &r.inputs {
        let _ = writeln!(
            o,
            "{}: {} bytes read, {} pages found ({} checksums computed)",
            i.path, i.stats.bytes, i.stats.pages, i.stats.checksummed
        );
    }
    let _ = writeln!(o, "{} tablespaces found", r.spaces.len());
    for s in &r.spaces {
        o.push('\n');
        space(&mut o, s);
    }
    o
}

/// One tablespace.
fn space(o: &mut String, s: &CarvedSpace) {
    let _ = writeln!(
        o,
        "space {} (page size {}, {}): {} pages found, {} copies",
        s.space_id,
        s.page_size,
        s.checksums.join(", "),
        s.pages,
        s.copies
    );
    let tables = if s.tables.is_empty() {
        "none named".to_string()
    } else {
        s.tables.join(", ")
    };
    let _ = writeln!(o, "  tables:     {tables}");
    let size = s.size_pages.map_or_else(
        || "unknown (page 0 not found)".to_string(),
        |n| n.to_string(),
    );
    let _ = writeln!(o, "  size:       {size} pages");
    let _ = writeln!(o, "  found:      {}", s.found);
    let missing = if s.missing.is_empty() {
        "none".to_string()
    } else {
        let n = s.missing.len();
        let unit = crate::space_text::plural(n as u64, "page", "pages");
        format!("{} ({n} {unit})", s.missing)
    };
    let _ = writeln!(o, "  missing:    {missing}");
    let types: Vec<String> = s
        .page_types
        .iter()
        .map(|(t, n)| format!("{t} {n}"))
        .collect();
    let _ = writeln!(o, "  page types: {}", types.join(", "));
    let ids: Vec<String> = s.index_ids.iter().map(|i| index_id(*i)).collect();
    let _ = writeln!(o, "  index ids:  {}", ids.join(", "));
    let _ = writeln!(o, "  LSN:        {}..{}", s.lsn_min, s.lsn_max);
    if let Some(f) = &s.file {
        let _ = writeln!(o, "  written:    {f}");
    }
    if let Some(d) = &s.dropped_tables {
        crate::dropped_text::dropped(o, d);
    }
    for n in &s.notes {
        let _ = writeln!(o, "  note: {n}");
    }
}

/// An index id; the SDI index (2^64 − 1) by name.
fn index_id(id: u64) -> String {
    if id == u64::MAX {
        "SDI".to_string()
    } else {
        id.to_string()
    }
}

//! `undo` as text.

use crate::text::findings_block;
use innodb_analysis::reports::undo_report::UndoReport;
use std::fmt::Write;

/// The `undo` report for people.
pub fn undo(r: &UndoReport) -> String {
    let mut o = String::new();
    totals(&mut o, r);
    rollback_segments(&mut o, r);
    in_flight(&mut o, r);
    undo_tablespaces(&mut o, r);
    history_tables(&mut o, r);
    records(&mut o, r);
    o.push('\n');
    findings_block(&mut o, &r.findings, None);
    o
}

/// `name count, …` of a map, or `none`.
fn counts<K: std::fmt::Display, V: std::fmt::Display>(
    m: impl IntoIterator<Item = (K, V)>,
) -> String {
    let parts: Vec<String> = m.into_iter().map(|(k, v)| format!("{k} {v}")).collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// The totals and the transaction system's state.
fn totals(o: &mut String, r: &UndoReport) {
    let t = &r.totals;
    let _ = writeln!(o, "History list length  {}", t.history_list_length);
    let _ = writeln!(o, "Rollback segments    {}", t.rollback_segments);
    let _ = writeln!(
        o,
        "Undo logs walked     {} ({} records, {} bytes, {} pages; the headers count {} history pages)",
        t.undo_logs, t.undo_records, t.undo_bytes, t.undo_pages, t.history_size_pages
    );
    let _ = writeln!(o, "TRX_SYS trx id store {}", r.trx_id_store);
    let _ = writeln!(
        o,
        "Max trx id           {} ({})",
        r.max_trx_id, r.max_trx_id_source
    );
    if let Some(n) = r.next_trx_id_at_startup {
        let _ = writeln!(
            o,
            "Next trx id          {n} (the counter {} restarts from)",
            if r.mysql_8 {
                "MySQL 8.0+"
            } else {
                "MariaDB 10.3.5+"
            }
        );
    }
    match &r.binlog {
        Some(b) => {
            let _ = writeln!(
                o,
                "Binlog               {} at {} ({})",
                b.file, b.offset, b.source
            );
        }
        None => {
            let _ = writeln!(o, "Binlog               none recorded");
        }
    }
    for s in &r.rollback_segments {
        if let Some(x) = &s.wsrep_xid {
            let _ = writeln!(
                o,
                "WSREP XID            rseg {}: format {}, gtrid {} bytes, bqual {} bytes, data {}",
                s.id, x.format_id, x.gtrid_length, x.bqual_length, x.data_hex
            );
        }
    }
    let _ = writeln!(o, "Undo segments        {}", counts(&r.segments_by_state));
    let _ = writeln!(o, "Records by type      {}", counts(&r.records_by_kind));
}

/// The rollback segments with history or undo segments other than cached
/// ones (those holding only cached segments are counted).
fn rollback_segments(o: &mut String, r: &UndoReport) {
    let busy: Vec<_> = r
        .rollback_segments
        .iter()
        .filter(|s| s.history_length > 0 || s.segments.keys().any(|k| *k != "cached"))
        .collect();
    let cached_only = r
        .rollback_segments
        .iter()
        .filter(|s| s.history_length == 0 && s.segments.keys().all(|k| *k == "cached"))
        .filter(|s| !s.segments.is_empty())
        .count();
    let _ = writeln!(
        o,
        "\nRollback segments with history or undo segments in use ({} of {}):",
        busy.len(),
        r.rollback_segments.len()
    );
    let _ = writeln!(
        o,
        "{:>5} {:>10} {:>7} {:>8} {:>7}  segments",
        "rseg", "space", "page", "history", "pages"
    );
    for s in busy {
        let _ = writeln!(
            o,
            "{:>5} {:>10} {:>7} {:>8} {:>7}  {}",
            s.id,
            s.space_id,
            s.page,
            s.history_length,
            s.history_size_pages,
            if s.segments.is_empty() {
                String::new()
            } else {
                counts(&s.segments)
            }
        );
    }
    if cached_only > 0 {
        let _ = writeln!(
            o,
            "  ({cached_only} more hold only undo segments cached for reuse)"
        );
    }
}

/// The undo segments of transactions still in flight, and each
/// transaction over all its segments when it has several.
fn in_flight(o: &mut String, r: &UndoReport) {
    if r.in_flight.is_empty() {
        return;
    }
    let tables = |by_table: &[(u64, Option<String>, u64)]| {
        let parts: Vec<String> = by_table
            .iter()
            .map(|(id, name, n)| {
                format!(
                    "{} {n}",
                    name.clone().unwrap_or_else(|| format!("table {id}"))
                )
            })
            .collect();
        parts.join(", ")
    };
    let _ = writeln!(o, "\nTransactions still in undo segments:");
    for t in &r.in_flight {
        let xid = t.xid.as_ref().map_or(String::new(), |x| {
            format!(
                " XID format {} gtrid {:?} bqual {:?}",
                x.format_id, x.gtrid, x.bqual
            )
        });
        let space = if r.mysql_8 {
            format!("space {} ", t.space_id)
        } else {
            String::new()
        };
        let _ = writeln!(
            o,
            "  {} trx {} {space}rseg {} slot {} page {}: {} records ({}){xid}",
            t.state,
            t.trx_id.map_or("-".into(), |x| x.to_string()),
            t.rseg,
            t.slot.map_or("-".into(), |x| x.to_string()),
            t.page,
            t.records,
            tables(&t.by_table)
        );
    }
    for t in r.open_transactions.iter().filter(|t| t.segments > 1) {
        let _ = writeln!(
            o,
            "  {} trx {} in all: {} records in {} undo segments ({}; {})",
            t.state,
            t.trx_id,
            t.records,
            t.segments,
            counts(&t.by_kind),
            tables(&t.by_table)
        );
    }
}

/// The undo tablespaces given: number, generation, rollback segments,
/// history, segments and what they hold.
fn undo_tablespaces(o: &mut String, r: &UndoReport) {
    if r.undo_tablespaces.is_empty() {
        return;
    }
    let _ = writeln!(o, "\nUndo tablespaces:");
    let _ = writeln!(
        o,
        "  {:<16} {:>10} {:>6} {:>4} {:>6} {:>8}  {:<12} segments",
        "file", "space", "number", "gen", "rsegs", "history", "holds"
    );
    for u in &r.undo_tablespaces {
        let t = &u.tablespace;
        let (number, generation) = t.undo_space.map_or(("-".into(), "-".into()), |s| {
            (s.number.to_string(), s.generation.to_string())
        });
        let holds = match u.contents {
            innodb_analysis::reports::undo_report::UndoContents::InFlight => "in-flight",
            innodb_analysis::reports::undo_report::UndoContents::History => "history",
            innodb_analysis::reports::undo_report::UndoContents::CachedOnly => "cached only",
            innodb_analysis::reports::undo_report::UndoContents::Nothing => "nothing",
        };
        let _ = writeln!(
            o,
            "  {:<16} {:>10} {:>6} {:>4} {:>6} {:>8}  {:<12} {}{}",
            t.file,
            t.space_id,
            number,
            generation,
            u.rollback_segments,
            u.history_list_length,
            holds,
            counts(&u.segments),
            if u.truncation_log {
                "; truncation log present: being truncated"
            } else {
                ""
            }
        );
    }
}

/// The history by table and by transaction.
fn history_tables(o: &mut String, r: &UndoReport) {
    let _ = writeln!(o, "\nHistory by table:");
    let _ = writeln!(
        o,
        "{:>10} {:>10} {:>12}  name",
        "table_id", "records", "bytes"
    );
    for t in &r.by_table {
        let _ = writeln!(
            o,
            "{:>10} {:>10} {:>12}  {}",
            t.table_id,
            t.records,
            t.bytes,
            t.name.as_deref().unwrap_or("-")
        );
    }
    let _ = writeln!(
        o,
        "\nHistory by transaction (oldest first), with running totals:"
    );
    let _ = writeln!(
        o,
        "{:>10} {:>10} {:>10} {:>5} {:>9} {:>10} {:>6} {:>11} {:>12} {:>9}",
        "trx_no",
        "trx_id",
        "space",
        "rseg",
        "records",
        "bytes",
        "pages",
        "cum_records",
        "cum_bytes",
        "cum_pages"
    );
    for x in &r.by_transaction {
        let _ = writeln!(
            o,
            "{:>10} {:>10} {:>10} {:>5} {:>9} {:>10} {:>6} {:>11} {:>12} {:>9}",
            x.trx_no,
            x.trx_id,
            x.space_id,
            x.rseg,
            x.records,
            x.bytes,
            x.pages,
            x.cumulative_records,
            x.cumulative_bytes,
            x.cumulative_pages
        );
    }
}

/// The undo records listed (`--records N`).
fn records(o: &mut String, r: &UndoReport) {
    if r.records.is_empty() {
        return;
    }
    let _ = writeln!(o, "\nUndo records ({} listed):", r.records.len());
    for x in &r.records {
        let key: Vec<String> = x
            .key
            .iter()
            .map(|(k, v)| format!("{k}={}", value_text(v)))
            .collect();
        let upd: Vec<String> = x
            .update
            .iter()
            .map(|(no, k, v)| format!("{k}(#{no})={}", value_text(v)))
            .collect();
        let prev = match (x.old_trx_id, &x.old_roll_ptr) {
            (Some(t), Some(p)) => format!(
                " prev trx {t} roll {}{} {} page {} offset {}",
                if p.insert { "insert " } else { "" },
                if r.mysql_8 { "undo space" } else { "rseg" },
                p.rseg,
                p.page,
                p.offset
            ),
            _ => String::new(),
        };
        let _ = writeln!(
            o,
            "  space {} page {} offset {} trx_no {} undo_no {} {} {}{} key [{}]{}{}",
            x.space_id,
            x.page,
            x.offset,
            x.trx_no,
            x.undo_no,
            x.kind,
            x.table
                .clone()
                .unwrap_or_else(|| format!("table {}", x.table_id)),
            prev,
            key.join(", "),
            if upd.is_empty() {
                String::new()
            } else {
                format!(" old [{}]", upd.join(", "))
            },
            x.undecoded
                .as_ref()
                .map_or(String::new(), |u| format!(" (undecoded: {u})"))
        );
    }
}

/// A value in an undo record listing: text quoted, the rest as a cell.
fn value_text(v: &innodb_format::value::column_value::Value) -> String {
    match v {
        innodb_format::value::column_value::Value::Text(t) => format!("{t:?}"),
        other => crate::text::cell(other),
    }
}

/// The `history` report: one line per version, newest first.
pub fn history(h: &innodb_analysis::rows::row_history::RowHistory) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "# {} key {}: {} versions",
        h.table,
        h.key,
        h.versions.len()
    );
    let mut header = vec!["version".to_string(), "undo record".to_string()];
    header.extend(h.fields.iter().map(|f| f.name.clone()));
    let _ = writeln!(o, "{}", header.join("\t"));
    for (i, v) in h.versions.iter().enumerate() {
        let undo = match &v.undo {
            Some(u) => format!(
                "{} space {} page {} offset {} ({})",
                u.kind,
                u.space_id,
                u.page,
                u.offset,
                u.changed.join(",")
            ),
            None => "current".into(),
        };
        let undo = if v.deleted {
            format!("{undo}, delete-marked")
        } else {
            undo
        };
        let mut cells = vec![i.to_string(), undo];
        cells.extend(v.values.iter().map(crate::text::cell));
        let _ = writeln!(o, "{}", cells.join("\t"));
    }
    let _ = writeln!(o, "# end: {}", h.end);
    if !h.findings.is_empty() {
        findings_block(&mut o, &h.findings, None);
    }
    o
}

/// `undo --compare A B` for people.
pub fn undo_comparison(c: &innodb_analysis::reports::undo_report::UndoComparison) -> String {
    let mut o = String::new();
    let trx = |t: Option<u64>| t.map_or("-".to_string(), |t| t.to_string());
    let _ = writeln!(o, "A: {}\nB: {}\n", c.a.dir, c.b.dir);
    let _ = writeln!(o, "{:<24} {:>12} {:>12} {:>12}", "", "A", "B", "change");
    let rows = [
        (
            "history list length",
            c.a.totals.history_list_length,
            c.b.totals.history_list_length,
            c.history_list_length_change,
        ),
        (
            "undo logs",
            c.a.totals.undo_logs as u64,
            c.b.totals.undo_logs as u64,
            c.b.totals.undo_logs as i64 - c.a.totals.undo_logs as i64,
        ),
        (
            "undo records",
            c.a.totals.undo_records,
            c.b.totals.undo_records,
            c.undo_records_change,
        ),
        (
            "undo pages",
            c.a.totals.undo_pages,
            c.b.totals.undo_pages,
            c.undo_pages_change,
        ),
        (
            "undo bytes",
            c.a.totals.undo_bytes,
            c.b.totals.undo_bytes,
            c.undo_bytes_change,
        ),
    ];
    for (name, a, b, d) in rows {
        let _ = writeln!(o, "{name:<24} {a:>12} {b:>12} {d:>+12}");
    }
    let _ = writeln!(
        o,
        "{:<24} {:>12} {:>12}",
        "oldest retained trx_no",
        trx(c.a.oldest_trx_no),
        trx(c.b.oldest_trx_no)
    );
    let _ = writeln!(
        o,
        "{:<24} {:>12} {:>12}",
        "newest trx_no",
        trx(c.a.newest_trx_no),
        trx(c.b.newest_trx_no)
    );
    let _ = writeln!(o, "\nHistory records by table (A → B):");
    let mut tables: Vec<u64> =
        c.a.by_table
            .iter()
            .chain(&c.b.by_table)
            .map(|t| t.table_id)
            .collect();
    tables.sort_unstable();
    tables.dedup();
    for id in tables {
        let side = |s: &innodb_analysis::reports::undo_report::UndoSide| {
            s.by_table.iter().find(|t| t.table_id == id).cloned()
        };
        let (a, b) = (side(&c.a), side(&c.b));
        let name = a
            .as_ref()
            .or(b.as_ref())
            .and_then(|t| t.name.clone())
            .unwrap_or_else(|| format!("table {id}"));
        let _ = writeln!(
            o,
            "  {name}: {} → {}",
            a.map_or(0, |t| t.records),
            b.map_or(0, |t| t.records)
        );
    }
    if c.a.findings + c.b.findings > 0 {
        let _ = writeln!(
            o,
            "\nFindings: {} in A, {} in B (run `undo` on each for them)",
            c.a.findings, c.b.findings
        );
    }
    o
}

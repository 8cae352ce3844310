//! `doublewrite` as text: per doublewrite file (or system tablespace area)
//! its slots counted and its copies listed, and over a data directory what
//! crash recovery would restore.

use innodb_analysis::reports::datadir_report::DatadirReport;
use innodb_analysis::reports::doublewrite_report::{
    CopySlot, DoublewriteReport, DoublewriteTotals, EntryState, SlotState, SourceKind,
};
use std::collections::BTreeMap;
use std::fmt::Write;

/// `doublewrite FILE…`: each file's report; `all` lists every copy, else
/// (once compared) the copies that are not the same as or older than
/// their page.
pub fn files(reports: &[DoublewriteReport], all: bool) -> String {
    let mut o = String::new();
    for (i, r) in reports.iter().enumerate() {
        if i > 0 {
            o.push('\n');
        }
        one(&mut o, r, r.file.as_str(), Some(all));
    }
    o
}

/// `summary FILE` of a doublewrite file: what it is and its slots counted,
/// no copy listed.
pub fn summary(reports: &[DoublewriteReport]) -> String {
    let mut o = String::new();
    for r in reports {
        one(&mut o, r, r.file.as_str(), None);
    }
    o
}

/// `--datadir DIR doublewrite`: every source's report under its name, then
/// the copies crash recovery would write.
pub fn datadir(r: &DatadirReport<DoublewriteReport, DoublewriteTotals>, all: bool) -> String {
    let mut o = crate::datadir_text::title(&r.datadir, &r.server, &r.skipped);
    for f in &r.files {
        o.push('\n');
        let name = short(&r.datadir, &f.file);
        match (&f.report, &f.error) {
            (Some(rep), _) => one(&mut o, rep, name, Some(all)),
            (None, Some(e)) => {
                let _ = writeln!(o, "{name}: cannot be read: {e}");
            }
            (None, None) => {}
        }
    }
    let t = &r.totals;
    let _ = writeln!(
        o,
        "\nTotal: {} sources, {} slots, {} copies ({}), {} do not verify",
        t.files,
        t.slots,
        t.copies,
        states(&t.by_state),
        t.bad_copies
    );
    if t.restores.is_empty() {
        let _ = writeln!(
            o,
            "Crash recovery would restore no page: every page with a good copy verifies in its tablespace."
        );
    } else {
        let _ = writeln!(
            o,
            "Crash recovery would write {} copies over pages that do not verify:",
            t.restores.len()
        );
        for x in &t.restores {
            let _ = writeln!(
                o,
                "  {} page {} (space {}): the copy in {} slot {} (LSN {})",
                x.tablespace,
                x.page_no,
                x.space_id,
                short(&r.datadir, &x.file),
                x.slot,
                x.copy_lsn
            );
        }
    }
    o
}

fn short<'a>(dir: &str, file: &'a str) -> &'a str {
    file.strip_prefix(dir)
        .map(|f| f.trim_start_matches('/'))
        .unwrap_or(file)
}

fn states<V: std::fmt::Display>(m: &BTreeMap<&'static str, V>) -> String {
    if m.is_empty() {
        return "none".into();
    }
    m.iter()
        .map(|(k, v)| format!("{} {v}", k.replace('_', " ")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One source; `list` says which copies are listed: none (`None`), all
/// (`Some(true)`), or those of note once compared (`Some(false)`).
fn one(o: &mut String, r: &DoublewriteReport, name: &str, list: Option<bool>) {
    let what = match r.kind {
        SourceKind::DoublewriteFile => "doublewrite file",
        SourceKind::ReducedFile => "reduced doublewrite file (innodb_doublewrite=DETECT_ONLY)",
        SourceKind::SystemTablespaceArea => "doublewrite area of the system tablespace",
    };
    let single = r
        .single_page_slots
        .filter(|&s| s > 0)
        .map(|s| {
            format!(
                " ({} batch, {s} single-page)",
                r.slot_count.saturating_sub(s)
            )
        })
        .unwrap_or_default();
    let _ = writeln!(
        o,
        "{name}: {what}, {} slots of {} bytes{single}",
        r.slot_count, r.slot_size
    );
    let own = if r.own_pages > 0 {
        format!(
            ", {} pages of its own (not copies: MySQL 8.0.20+ writes its copies to #ib_*.dblwr files)",
            r.own_pages
        )
    } else {
        String::new()
    };
    if r.kind == SourceKind::ReducedFile {
        let _ = writeln!(
            o,
            "  slots      {} empty, {} entries",
            r.empty_slots,
            r.entries.len()
        );
    } else {
        let _ = writeln!(
            o,
            "  slots      {} empty, {} copies ({}){own}",
            r.empty_slots,
            r.copies,
            states(&r.by_checksum)
        );
    }
    if let Some([lo, hi]) = r.lsn_range {
        let _ = writeln!(o, "  LSN        {lo} .. {hi}");
    }
    if r.compared && r.kind != SourceKind::ReducedFile {
        let _ = writeln!(o, "  compared   {}", states(&r.by_state));
    }
    by_tablespace(o, &r.slots);
    let _ = writeln!(o, "  verdict    {}", verdict(r));
    for f in &r.findings {
        let _ = writeln!(o, "  {f}");
    }
    let Some(all) = list else {
        return;
    };
    if r.kind == SourceKind::ReducedFile {
        entries(o, r, all);
        return;
    }
    let listed: Vec<&CopySlot> = r
        .slots
        .iter()
        .filter(|s| all || !r.compared || s.state.of_note())
        .collect();
    if !listed.is_empty() {
        let _ = writeln!(
            o,
            "  {:>6} {:>10} {:>10} {:>8} {:<14} {:>14} {:<9} {:<14} tablespace",
            "slot", "offset", "space", "page", "type", "LSN", "checksum", "state"
        );
        for s in &listed {
            slot_line(o, s, r.slot_size);
        }
        // The note on a copy of no tablespace is the same for every copy of
        // that space id: said once, after the table.
        let mut unknown: BTreeMap<u32, &str> = BTreeMap::new();
        for s in listed.iter().filter(|s| s.state == SlotState::NoTablespace) {
            if let Some(n) = &s.note {
                unknown.entry(s.space_id).or_insert(n);
            }
        }
        for (space, note) in unknown {
            let _ = writeln!(o, "  space {space}: {note}");
        }
    }
    let hidden = r.slots.len() - listed.len();
    if hidden > 0 {
        let _ = writeln!(
            o,
            "  ({hidden} copies the same as or older than the page in their tablespace are not listed; --all lists them)"
        );
    }
}

fn slot_line(o: &mut String, s: &CopySlot, slot_size: usize) {
    let mut place = s.tablespace.clone().unwrap_or_else(|| "-".into());
    if let Some(p) = s.page_lsn {
        let _ = write!(place, " (page LSN {p}");
        if let Some(c) = s.page_checksum {
            let _ = write!(place, ", {c}");
        }
        place.push(')');
    }
    if let (Some(n), false) = (&s.note, s.state == SlotState::NoTablespace) {
        let _ = write!(place, "; {n}");
    }
    let size = if s.size != slot_size {
        format!(" [{} bytes]", s.size)
    } else {
        String::new()
    };
    let _ = writeln!(
        o,
        "  {:>6} {:>10} {:>10} {:>8} {:<14} {:>14} {:<9} {:<14} {place}{size}",
        s.slot,
        s.offset,
        s.space_id,
        s.page_no,
        s.page_type,
        s.lsn,
        s.checksum,
        s.state.name()
    );
}

/// Copies per tablespace (or space id, when not compared).
fn by_tablespace(o: &mut String, slots: &[CopySlot]) {
    if slots.is_empty() {
        return;
    }
    let mut m: BTreeMap<String, u32> = BTreeMap::new();
    for s in slots {
        let k = s
            .tablespace
            .clone()
            .unwrap_or_else(|| format!("space {}", s.space_id));
        *m.entry(k).or_insert(0) += 1;
    }
    let list: Vec<String> = m.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(o, "  copies of  {}", list.join(", "));
}

fn verdict(r: &DoublewriteReport) -> String {
    if r.kind == SourceKind::ReducedFile {
        let bad = r
            .entries
            .iter()
            .filter(|e| e.state == EntryState::PageBad)
            .count();
        return if bad > 0 {
            format!("{bad} entries name a page that does not verify: the server's recovery stops there (the file holds no copy to repair it with)")
        } else if r.all_good() {
            "OK".into()
        } else {
            "some batch page does not read (see above)".into()
        };
    }
    let restores = r.count(SlotState::Restores);
    let bad = r.bad_copies();
    let mut parts = Vec::new();
    if bad > 0 {
        parts.push(format!(
            "{bad} copies do not verify (crash recovery ignores them)"
        ));
    }
    if restores > 0 {
        parts.push(format!(
            "crash recovery would write {restores} of its copies over pages that do not verify"
        ));
    }
    if parts.is_empty() {
        if r.compared {
            "OK: every copy verifies, and no page with a copy here needs it".into()
        } else {
            "OK: every copy verifies (give --datadir to compare them with their pages)".into()
        }
    } else {
        parts.join("; ")
    }
}

fn entries(o: &mut String, r: &DoublewriteReport, all: bool) {
    let listed: Vec<_> = r
        .entries
        .iter()
        .filter(|e| all || !r.compared || !matches!(e.state, EntryState::Written))
        .collect();
    if listed.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        "  {:>5} {:>5} {:>10} {:>8} {:>14} {:<14} tablespace",
        "batch", "entry", "space", "page", "LSN", "state"
    );
    for e in listed {
        let state = e.state.name();
        let mut place = e.tablespace.clone().unwrap_or_else(|| "-".into());
        if let Some(p) = e.page_lsn {
            let _ = write!(place, " (page LSN {p})");
        }
        let _ = writeln!(
            o,
            "  {:>5} {:>5} {:>10} {:>8} {:>14} {:<14} {place}",
            e.batch_page, e.entry, e.space_id, e.page_no, e.lsn, state
        );
    }
}

//! Reports over a data directory as text: one line per file, then the totals.

use innodb_analysis::reports::datadir_report::{
    ChecksumTotals, DatadirReport, FileResult, SummaryTotals, WasteTotals,
};
use innodb_analysis::reports::datadir_totals::{PagesTotals, SdiTotals};
use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::reports::space_reports::WasteReport;
use innodb_analysis::{ChecksumReport, Summary};
use innodb_format::index::sdi::index_id_text;
use innodb_space::datadir::{FileKind, Server, SkippedFile};
use std::fmt::Write;

/// The file name relative to the data directory.
fn short<'a>(dir: &str, file: &'a str) -> &'a str {
    file.strip_prefix(dir)
        .map(|f| f.trim_start_matches('/'))
        .unwrap_or(file)
}

fn errors<R>(o: &mut String, dir: &str, files: &[FileResult<R>]) {
    for f in files {
        if let Some(e) = &f.error {
            let _ = writeln!(o, "  {}: {e}", short(dir, &f.file));
        }
    }
}

/// `--datadir DIR summary`.
pub fn summary(r: &DatadirReport<Summary, SummaryTotals>) -> String {
    let mut o = title(&r.datadir, &r.server, &r.skipped);
    o.push('\n');
    let _ = writeln!(
        o,
        "{:<36} {:>8} {:>6} {:>10} {:>14} {:>6} {:>6} {:>8}  format",
        "file", "space", "page", "pages", "bytes", "bad", "lsn!", "zero"
    );
    for f in &r.files {
        let Some(s) = &f.report else { continue };
        let _ = writeln!(
            o,
            "{:<36} {:>8} {:>6} {:>10} {:>14} {:>6} {:>6} {:>8}  {}",
            short(&r.datadir, &f.file),
            s.space_id,
            format!("{}k", s.page_size / 1024),
            s.page_count,
            f.bytes,
            s.bad_checksums,
            s.lsn_mismatches,
            s.all_zero_pages,
            s.format
        );
    }
    let t = &r.totals;
    let _ = writeln!(
        o,
        "{:<36} {:>8} {:>6} {:>10} {:>14} {:>6} {:>6} {:>8}",
        format!("total: {} files", t.files),
        "",
        "",
        t.pages,
        t.bytes,
        t.bad_checksums,
        t.lsn_mismatches,
        t.all_zero_pages
    );
    let types: Vec<String> = t
        .page_types
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let _ = writeln!(o, "\nPage types: {}", types.join(", "));
    if t.errors > 0 {
        let _ = writeln!(o, "\nFiles that could not be read ({}):", t.errors);
        errors(&mut o, &r.datadir, &r.files);
    }
    o
}

/// `--datadir DIR checksum`.
pub fn checksum(r: &DatadirReport<ChecksumReport, ChecksumTotals>) -> String {
    let mut o = title(&r.datadir, &r.server, &r.skipped);
    o.push('\n');
    let _ = writeln!(
        o,
        "{:<36} {:>10} {:>6} {:>6} {:>6}  verdict",
        "file", "pages", "bad", "lsn!", "unver"
    );
    for f in &r.files {
        let Some(c) = &f.report else { continue };
        let _ = writeln!(
            o,
            "{:<36} {:>10} {:>6} {:>6} {:>6}  {}",
            short(&r.datadir, &f.file),
            c.pages,
            c.bad_page_ranges.len(),
            c.lsn_mismatches.len(),
            c.unverifiable.len(),
            if c.all_valid() { "ok" } else { "NOT VALID" }
        );
    }
    let t = &r.totals;
    let _ = writeln!(
        o,
        "{:<36} {:>10} {:>6} {:>6} {:>6}",
        format!("total: {} files", t.files),
        t.pages,
        t.bad_pages,
        t.lsn_mismatches,
        t.unverifiable
    );
    if !t.doublewrite_files.is_empty() {
        let names: Vec<&str> = t
            .doublewrite_files
            .iter()
            .map(|f| short(&r.datadir, f))
            .collect();
        let _ = writeln!(
            o,
            "\nDoublewrite copies read from {}: {} bad pages have a good copy",
            names.join(", "),
            t.doublewrite_copies
        );
        for f in r.files.iter().filter_map(|f| f.report.as_ref()) {
            if !f.doublewrite_copies.is_empty() {
                let _ = writeln!(o, "{}:", short(&r.datadir, &f.file));
                crate::text::rescues(&mut o, f, &r.datadir);
            }
        }
    }
    if t.errors > 0 {
        let _ = writeln!(o, "\nFiles that could not be read ({}):", t.errors);
        errors(&mut o, &r.datadir, &r.files);
    }
    o
}

/// `--datadir DIR waste`.
pub fn waste(r: &DatadirReport<WasteReport, WasteTotals>) -> String {
    let mut o = title(&r.datadir, &r.server, &r.skipped);
    o.push('\n');
    let _ = writeln!(
        o,
        "{:<36} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7}",
        "file", "pages", "used", "reserved", "frag_free", "free", "waste%"
    );
    for f in &r.files {
        let Some(w) = &f.report else { continue };
        let _ = writeln!(
            o,
            "{:<36} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7.2}",
            short(&r.datadir, &f.file),
            w.header.file_pages,
            w.used_pages,
            w.reserved_unused_pages,
            w.fragment_unused_pages,
            w.free_pages,
            innodb_analysis::percent(w.waste_share)
        );
    }
    let t = &r.totals;
    let _ = writeln!(
        o,
        "{:<36} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7.2}",
        format!("total: {} files", t.files),
        t.pages,
        t.used_pages,
        t.reserved_unused_pages,
        t.fragment_unused_pages,
        t.free_pages,
        innodb_analysis::percent(t.waste_share)
    );
    let _ = writeln!(
        o,
        "Reclaimable {} pages ({:.2} MiB); pre-allocated at the ends of the files {} pages ({:.2} MiB), not waste",
        t.reclaimable_pages, t.reclaimable_mib, t.preallocated_pages, t.preallocated_mib
    );
    if t.errors > 0 {
        let _ = writeln!(o, "\nFiles without a space map ({}):", t.errors);
        errors(&mut o, &r.datadir, &r.files);
    }
    o
}

/// `--datadir DIR indexes`.
pub fn indexes(
    r: &DatadirReport<
        innodb_analysis::reports::indexes::IndexesReport,
        innodb_analysis::reports::datadir_report::IndexesTotals,
    >,
) -> String {
    let mut o = title(&r.datadir, &r.server, &r.skipped);
    o.push('\n');
    let _ = writeln!(
        o,
        "{:<36} {:>10} {:>8} {:>10} {:>14} {:>7} {:>9}",
        "file", "index_id", "levels", "pages", "records", "fill%", "findings"
    );
    for f in &r.files {
        let Some(rep) = &f.report else { continue };
        let _ = writeln!(o, "{}", short(&r.datadir, &f.file));
        for i in &rep.indexes {
            let _ = writeln!(
                o,
                "{:<36} {:>10} {:>8} {:>10} {:>14} {:>7.1} {:>9}  {}",
                "",
                index_id_text(i.index_id),
                i.levels,
                i.pages_per_level.iter().sum::<u64>(),
                i.records,
                i.fill * 100.0,
                i.findings,
                i.name.as_deref().unwrap_or("")
            );
        }
    }
    let t = &r.totals;
    let _ = writeln!(
        o,
        "{:<36} {:>10} {:>8} {:>10} {:>14} {:>7} {:>9}",
        format!("total: {} files", t.files),
        format!("{} idx", t.indexes),
        "",
        t.pages,
        t.records,
        "",
        t.findings
    );
    if t.errors > 0 {
        let _ = writeln!(o, "\nFiles without a space map ({}):", t.errors);
        errors(&mut o, &r.datadir, &r.files);
    }
    o
}

/// The first lines of a report over a data directory: its name, the
/// server that wrote it and why that is thought, then the files it holds
/// that were not read, a line per kind and reason (the files named when
/// there are at most three).
pub fn title(datadir: &str, server: &Server, skipped: &[SkippedFile]) -> String {
    let mut o = format!("Data directory {datadir}\n");
    let version = server
        .version
        .as_deref()
        .map(|v| format!(" {v}"))
        .unwrap_or_default();
    let why = if server.evidence.is_empty() {
        " — nothing tells".to_string()
    } else {
        format!(" — {}", server.evidence.join("; "))
    };
    let _ = writeln!(o, "Server {}{version}{why}", server.family.name());
    let mut groups: Vec<(FileKind, &str, Vec<&str>)> = Vec::new();
    for s in skipped {
        match groups
            .iter_mut()
            .find(|(k, r, _)| *k == s.kind && *r == s.reason)
        {
            Some((_, _, files)) => files.push(&s.file),
            None => groups.push((s.kind, &s.reason, vec![&s.file])),
        }
    }
    for (kind, reason, files) in groups {
        let names = if files.len() <= 3 {
            files.join(", ")
        } else {
            format!("{} files", files.len())
        };
        let why = if reason.is_empty() {
            String::new()
        } else {
            format!(" — {reason}")
        };
        let _ = writeln!(o, "Not read ({}): {names}{why}", kind.describe());
    }
    o
}

/// The heading above one file's own report.
pub fn heading(datadir: &str, file: &str) -> String {
    format!("\n=== {} ===\n", short(datadir, file))
}

/// What stands in one file's section when it has no report.
pub fn no_report(error: &str) -> String {
    format!("no report: {error}\n")
}

/// Any report over a data directory: each file's own text report under a
/// heading, then how many files there were.
pub fn each<R>(
    r: &DatadirReport<R, innodb_analysis::reports::datadir_report::FileTotals>,
    text: impl Fn(&R) -> String,
) -> String {
    let footer = format!(
        "{} files, {} without a report",
        r.totals.files, r.totals.errors
    );
    each_with(r, text, &footer)
}

/// Each file's own text report under a heading, then `footer`.
pub fn each_with<R, T>(
    r: &DatadirReport<R, T>,
    text: impl Fn(&R) -> String,
    footer: &str,
) -> String {
    let mut o = title(&r.datadir, &r.server, &r.skipped);
    for f in &r.files {
        o.push_str(&heading(&r.datadir, &f.file));
        match (&f.report, &f.error, &f.note) {
            (Some(rep), _, _) => o.push_str(&text(rep)),
            (None, Some(e), _) => o.push_str(&no_report(e)),
            (None, None, Some(n)) => {
                let _ = writeln!(o, "{n}");
            }
            (None, None, None) => {}
        }
    }
    let _ = writeln!(o, "\n{footer}");
    o
}

/// The last line of `--datadir DIR pages`.
pub fn pages_footer(t: &PagesTotals) -> String {
    format!(
        "\n{} files, {} without a report, {} pages listed\n",
        t.files, t.errors, t.pages
    )
}

/// `--datadir DIR sdi`: each file's SDI (as `sdi FILE` prints it) or why
/// it has none.
pub fn sdi(r: &DatadirReport<SdiReport, SdiTotals>) -> String {
    let t = &r.totals;
    let footer = format!(
        "{} files: {} with SDI ({} objects), {} without SDI, {} without a report",
        t.files, t.with_sdi, t.objects, t.without_sdi, t.errors
    );
    each_with(r, crate::space_text::sdi, &footer)
}

//! Entry points over a whole file: the commands themselves, run through
//! the library exactly as the binary runs them (`innodb_inspect::commands`),
//! with argument lists that reach every command and option a file target
//! can reach, in text and in JSON.

use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::rows::key_search;
use innodb_analysis::rows::records::{RecordsReport, Schema};
use innodb_inspect::args::Cli;
use innodb_inspect::inputs::Inputs;
use innodb_inspect::Output;
use innodb_space::dictionary::Dictionary;
use innodb_space::space_map::SpaceMap;
use innodb_space::Tablespace;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How much of a file the per-page entry points look at.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Pages decoded one by one (`page N`, page-local records).
    pub pages: u32,
    /// Rows listed per index (`records`), undo records per log (`undo`).
    pub rows: usize,
    /// Indexes walked with `tree`.
    pub trees: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            pages: 64,
            rows: 200,
            trees: 4,
        }
    }
}

/// Where the file goes in an argument list.
const FILE: &str = "{file}";
/// Where a PNG output path goes.
const PNG: &str = "{png}";
/// Where an index id goes (the list is run once per index, up to [`Limits::trees`]).
const INDEX: &str = "{index}";
/// Where a page number goes (the list is run once per page, up to [`Limits::pages`]).
const PAGE: &str = "{page}";
/// Where a row limit goes ([`Limits::rows`]).
const ROWS: &str = "{rows}";

/// The commands of the `whole_file` target: every whole-file report, every
/// heatmap and index chart (terminal and PNG), `tree` of the first indexes.
pub const WHOLE_FILE: &[&[&str]] = &[
    &["summary", FILE],
    &["checksum", FILE],
    &["checksum", "--threads", "2", FILE],
    &["doublewrite", FILE],
    &["doublewrite", "--all", FILE],
    &["carve", FILE],
    &["pages", FILE],
    &["segments", FILE],
    &["extents", FILE],
    &["extents", "--color", "always", FILE],
    &["waste", FILE],
    &["indexes", FILE],
    &["fill", FILE],
    &["count", "--sample-pages", "8", "--seed", "1", FILE],
    &["tree", "--index", INDEX, FILE],
    &["heatmap", "--by", "lsn-age", "--color", "always", FILE],
    &["heatmap", "--by", "page-type", "--color", "always", FILE],
    &["heatmap", "--by", "fill", "--color", "always", FILE],
    &["heatmap", "--by", "index", "--color", "always", FILE],
    &["heatmap", "--by", "lsn-age", "--png", PNG, FILE],
    &["heatmap", "--by", "page-type", "--png", PNG, FILE],
    &["heatmap", "--by", "fill", "--png", PNG, FILE],
    &["heatmap", "--by", "index", "--png", PNG, FILE],
    &["plot", "--fill-histogram", "--color", "always", FILE],
    &["plot", "--levels", "--color", "always", FILE],
    &["plot", "--fill-histogram", "--png", PNG, FILE],
    &["plot", "--levels", "--png", PNG, FILE],
    &["heatmap", "--lsn-scale", "rank", "--png", PNG, FILE],
];

/// The commands of the `pages` target: `page N` (every page type's decoder).
pub const PAGES: &[&[&str]] = &[&["page", FILE, PAGE]];

/// The commands of the `records` target: the clustered index's rows, then
/// with the delete-marked ones, in every output format; the table's
/// CREATE TABLE.
pub const RECORDS: &[&[&str]] = &[
    &["records", "--limit", ROWS, FILE],
    &["records", "--deleted", "--limit", ROWS, FILE],
    &["--format", "csv", "records", "--limit", ROWS, FILE],
    &[
        "--format",
        "sql",
        "records",
        "--deleted",
        "--limit",
        ROWS,
        FILE,
    ],
    &["schema", FILE],
];

/// The commands of the `undo` targets: the undo logs with their records
/// listed, and the undo history's growth chart (drawn as PNG: its terminal
/// drawing is the chart renderer `whole_file` drives).
pub const UNDO: &[&[&str]] = &[
    &["undo", "--records", ROWS, FILE],
    &["plot", "--undo-growth", "--png", PNG, FILE],
];

/// The commands of the `sdi` target: the SDI, and rows typed with the
/// columns it gives.
pub const SDI: &[&[&str]] = &[&["sdi", FILE], &["records", "--limit", "20", FILE]];

/// Commands no file target drives, and why.
pub const NOT_DRIVEN: &[(&str, &str)] = &[
    (
        "completions",
        "reads no file: prints a script made from the argument definitions (tests/setup.rs)",
    ),
    (
        "man",
        "reads no file: prints manual pages made from the argument definitions (tests/setup.rs)",
    ),
    (
        "json-schema",
        "reads no file: prints schemas made from the report types (tests/json_schema.rs)",
    ),
    (
        "browse",
        "needs a terminal: tests/browse.rs drives its library (App) instead",
    ),
    (
        "export",
        "needs a data directory and writes a directory of files; its per-table writer is driven by `--format sql records`",
    ),
    (
        "history",
        "needs a table and its system tablespace together; the undo walk it uses is driven by `undo`",
    ),
];

/// A file handed to the commands: the tablespace as it opened (for the
/// index ids and page count that argument lists need), the `--page-size`
/// it opened with, the dictionary to type rows with, and where PNGs go.
pub struct Subject<'a> {
    /// The open file.
    pub space: &'a Tablespace,
    /// The `--page-size` it was opened with, if any.
    pub page_size: Option<usize>,
    /// The data dictionary the commands are given.
    pub dict: Option<&'a Dictionary>,
    /// What the limits are.
    pub limits: Limits,
}

impl Subject<'_> {
    /// Runs every argument list of `lists` (each in text and JSON, PNG
    /// lists once); returns the bytes of output made.
    pub fn run_all(&self, lists: &[&[&str]]) -> usize {
        lists.iter().map(|args| self.run_list(args)).sum()
    }

    /// One argument list, expanded for each index id or page number it
    /// names.
    fn run_list(&self, args: &[&str]) -> usize {
        if args.contains(&INDEX) {
            let ids: Vec<String> = SpaceMap::read(self.space)
                .map(|m| m.index_roots())
                .unwrap_or_default()
                .iter()
                .take(self.limits.trees)
                .map(|(id, _)| id.to_string())
                .collect();
            return ids.iter().map(|id| self.run_formats(args, id)).sum();
        }
        if args.contains(&PAGE) {
            let pages = self.space.page_count().min(self.limits.pages);
            return (0..pages)
                .map(|n| self.run_formats(args, &n.to_string()))
                .sum();
        }
        self.run_formats(args, "")
    }

    /// `args` in text and in JSON; a PNG or CSV list as it is, and a list
    /// that sets `--color` in text only (the colour changes nothing else).
    fn run_formats(&self, args: &[&str], value: &str) -> usize {
        if args.contains(&PNG) || args.contains(&"csv") {
            return self.command(args, value, None);
        }
        if args.contains(&"--color") {
            return self.command(args, value, Some("text"));
        }
        self.command(args, value, Some("text")) + self.command(args, value, Some("json"))
    }

    /// Runs `innodb-inspect [--format F] ARGS` through the library, the
    /// placeholders filled in; returns the bytes written to stdout and stderr.
    fn command(&self, args: &[&str], value: &str, format: Option<&str>) -> usize {
        let file = self.space.path();
        let png = png_path(file);
        let rows = self.limits.rows.to_string();
        let mut argv: Vec<OsString> = vec!["innodb-inspect".into(), "--quiet".into()];
        if let Some(f) = format {
            argv.extend(["--format".into(), f.into()]);
        }
        if let Some(n) = self.page_size {
            argv.extend(["--page-size".into(), n.to_string().into()]);
        }
        argv.extend(args.iter().map(|a| match *a {
            FILE => file.as_os_str().to_owned(),
            PNG => png.as_os_str().to_owned(),
            INDEX | PAGE => value.into(),
            ROWS => rows.as_str().into(),
            a => a.into(),
        }));
        let Ok(cli) = <Cli as clap::Parser>::try_parse_from(argv) else {
            return 0;
        };
        let Ok(inputs) = Inputs::resolve(&cli) else {
            return 0;
        };
        let inputs = inputs.with_dictionary(self.dict.cloned().map(Arc::new));
        let (mut out, mut err) = (Counter(0), Counter(0));
        let mut output = Output::new(&mut out, &mut err, false);
        let _ = innodb_inspect::commands::run(&inputs, &cli.command, &mut output);
        let _ = output.finish();
        drop(output);
        out.0 + err.0
    }
}

/// Where a file's PNG pictures are written: beside it, `.png` for its extension.
fn png_path(file: &Path) -> PathBuf {
    file.with_extension("png")
}

/// A writer that only counts.
struct Counter(usize);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Every whole-file report of `subject`'s file ([`WHOLE_FILE`]).
pub fn whole_file(subject: &Subject) -> usize {
    subject.run_all(WHOLE_FILE)
}

/// `page N` for the first [`Limits::pages`] pages ([`PAGES`]).
pub fn every_page(subject: &Subject) -> usize {
    subject.run_all(PAGES)
}

/// `records` ([`RECORDS`]), and the browser's paths over the same rows:
/// page-local records of the first pages and primary-key searches, typed
/// with the file's own SDI or the dictionary.
pub fn records(subject: &Subject) -> usize {
    let mut out = subject.run_all(RECORDS);
    let space = subject.space;
    let own = SdiReport::build(space)
        .ok()
        .and_then(|s| Schema::from_sdi(&s))
        .or_else(|| {
            subject
                .dict
                .and_then(|d| Schema::from_dictionary(d, space.space_id()))
        });
    let Some(schema) = own else {
        return out;
    };
    for n in 0..space.page_count().min(subject.limits.pages) {
        if let Ok(r) = RecordsReport::build_page(space, &schema, None, n) {
            out += innodb_render::json::records_lines(&r).len();
        }
    }
    for key in ["1", "5", "500", "99999", "-1", "x", "1,2"] {
        let found = key_search::find(space, &schema, key);
        out += format!("{found:?}").len();
    }
    out
}

/// `undo` with the file as the system tablespace ([`UNDO`]).
pub fn undo(subject: &Subject) -> usize {
    subject.run_all(UNDO)
}

/// `sdi`, and rows typed with its columns ([`SDI`]).
pub fn sdi(subject: &Subject) -> usize {
    subject.run_all(SDI)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Every command of the command line is driven by a target, or named
    /// in [`NOT_DRIVEN`] with the reason: a new command cannot be left out
    /// unnoticed.
    #[test]
    fn every_command_is_driven_or_named() {
        let driven: BTreeSet<&str> = [WHOLE_FILE, PAGES, RECORDS, UNDO, SDI]
            .iter()
            .flat_map(|lists| lists.iter())
            .filter_map(|args| {
                args.iter()
                    .find(|a| !a.starts_with('-') && **a != "csv" && **a != "sql")
            })
            .copied()
            .collect();
        let cli = <Cli as clap::CommandFactory>::command();
        for sub in cli.get_subcommands() {
            let name = sub.get_name();
            let excused = NOT_DRIVEN.iter().any(|(n, _)| *n == name);
            assert!(
                driven.contains(name) != excused,
                "{name}: driven by a target: {}, named as not driven: {excused}",
                driven.contains(name)
            );
        }
    }
}

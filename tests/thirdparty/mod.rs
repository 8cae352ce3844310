//! The tool checked against real third-party tablespace files, read in place
//! from `../shared/thirdparty/`, and the facts their `MANIFEST.md` records.
//!
//! The MANIFEST's markdown tables are parsed at test time: every per-file row
//! gives path, bytes, sha256, version, page size, flags, row format, space id,
//! FSP size, checksum algorithm and the raw index leaf-record sums. Owner facts
//! stated in the MANIFEST prose (the owners' specs, golden outputs and READMEs)
//! are written out in the module of their source, each with the sentence it
//! comes from.
//!
//! This file parses the MANIFEST and holds the helpers; the tests are in one
//! module per source (a directory of `../shared/thirdparty/`), and in
//! `every_file` for the checks over every file the MANIFEST lists, whatever
//! its source. `DFO-Ocean-Navigator__onav-mariadb` has no facts of its own
//! beyond its MANIFEST rows, so `every_file` is where its files are checked.
//!
//! Without `../shared/thirdparty` (a fresh clone) every test here is
//! skipped with a line saying so, unless `INNODB_INSPECT_REQUIRE_THIRDPARTY`
//! is set, as CI sets it: then every test fails with a message saying so.
//! With the directory there, a file the MANIFEST lists and that is missing
//! is a failure.

// The helpers below are test code too: a panic there is a test failure with
// its message, as `allow-panic-in-tests` / `allow-expect-in-tests` already
// grant the #[test] functions (clippy.toml).
#![allow(clippy::panic, clippy::expect_used)]

/// Every file the MANIFEST lists.
mod every_file;
/// `KernelMaker__ibdNinja`: MySQL 8.0, 8.4 and 9.x fixtures and golden outputs.
mod ibdninja;
/// `ringo380__idb-utils`: MySQL 9.0 and 9.1 files.
mod idb_utils;
/// `baotiao__inno_space`: `sbtest1.ibd`.
mod inno_space;
/// `alibaba__innodb-java-reader`: its test suite's tables, MySQL 5.6 to 8.0.
mod innodb_java_reader;
/// `jeremycole__innodb_ruby`: its spec data, sakila in six server versions.
mod innodb_ruby;
/// `AIchemist87__mantisbt-docker`: a MariaDB data directory.
mod mantisbt_docker;

use crate::support;

use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::rows::records::{RecordsReport, Schema};
use innodb_analysis::{PageDetail, PageFilter, PageList, PageRow, Summary};
use innodb_space::{OpenOptions, Tablespace};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::fmt::Debug;
use std::path::{Path, PathBuf};

/// `FIL_NULL`: no page.
const FIL_NULL: u64 = 0xFFFF_FFFF;
/// Index id of the SDI index (MySQL 8.0+), `SDI` in the MANIFEST.
const SDI_INDEX_ID: u64 = u64::MAX;
/// `PAGE_N_HEAP` bit set on COMPACT-format (new-style) index pages.
const N_HEAP_COMPACT: u64 = 0x8000;

// ---------------------------------------------------------------------------
// Where the data is, and the MANIFEST.

/// `../shared/thirdparty`, or a failure saying its MANIFEST.md is missing.
/// (Each test first calls `support::thirdparty::present`, which skips it
/// when the whole directory is absent.)
fn root() -> PathBuf {
    let dir = support::thirdparty_dir();
    assert!(
        dir.join("MANIFEST.md").is_file(),
        "third-party test data is incomplete: {} has no MANIFEST.md; these tests read the \
         files it lists in place and must not pass without them.",
        dir.display()
    );
    dir
}

/// One markdown table of the MANIFEST with the `## ` section it is in.
struct Table {
    section: String,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn has(&self, col: &str) -> bool {
        self.header.iter().any(|h| h == col)
    }

    fn rows(&self) -> impl Iterator<Item = Row> + '_ {
        self.rows.iter().map(|r| Row {
            section: self.section.clone(),
            cells: self.header.iter().cloned().zip(r.iter().cloned()).collect(),
        })
    }
}

/// One table row, by column name.
struct Row {
    section: String,
    cells: BTreeMap<String, String>,
}

impl Row {
    fn get(&self, col: &str) -> &str {
        self.cells
            .get(col)
            .unwrap_or_else(|| panic!("MANIFEST row {:?} has no column {col:?}", self.cells))
    }

    fn num(&self, col: &str) -> u64 {
        let s = self.get(col);
        parse_num(s).unwrap_or_else(|| panic!("MANIFEST {col} {s:?} is not a number"))
    }

    /// The file the row describes: `thirdparty/<section>/<path>`.
    fn file(&self) -> PathBuf {
        root().join(&self.section).join(self.get("path"))
    }

    /// `<section>/<path>`, for messages.
    fn label(&self) -> String {
        format!("{}/{}", self.section, self.get("path"))
    }
}

/// `path` relative to the third-party directory, for messages.
fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn parse_num(s: &str) -> Option<u64> {
    match s.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

struct Manifest {
    text: String,
    tables: Vec<Table>,
}

fn table_cells(line: &str) -> Vec<String> {
    let l = line.trim();
    let l = l.strip_prefix('|').unwrap_or(l);
    let l = l.strip_suffix('|').unwrap_or(l);
    l.split('|')
        .map(|c| c.trim().trim_matches('`').to_string())
        .collect()
}

fn manifest() -> Manifest {
    let text =
        std::fs::read_to_string(root().join("MANIFEST.md")).expect("MANIFEST.md is readable");
    let lines: Vec<&str> = text.lines().collect();
    let mut tables = Vec::new();
    let mut section = String::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(s) = lines[i].strip_prefix("## ") {
            section = s.trim().to_string();
        } else if lines[i].starts_with('|')
            && lines.get(i + 1).is_some_and(|l| l.starts_with("|---"))
        {
            let header = table_cells(lines[i]);
            let mut rows = Vec::new();
            i += 2;
            while i < lines.len() && lines[i].starts_with('|') {
                let row = table_cells(lines[i]);
                assert_eq!(
                    row.len(),
                    header.len(),
                    "MANIFEST line {}: {} cells under a {}-column header",
                    i + 1,
                    row.len(),
                    header.len()
                );
                rows.push(row);
                i += 1;
            }
            tables.push(Table {
                section: section.clone(),
                header,
                rows,
            });
            continue;
        }
        i += 1;
    }
    Manifest { text, tables }
}

impl Manifest {
    /// Every row of every per-file table (the ones with `sid` and `cksum`)
    /// whose path is a `.ibd` file.
    fn ibd_rows(&self) -> Vec<Row> {
        let rows: Vec<Row> = self
            .tables
            .iter()
            .filter(|t| t.has("path") && t.has("sid") && t.has("cksum"))
            .flat_map(Table::rows)
            .filter(|r| r.get("path").ends_with(".ibd"))
            .collect();
        // 238 tablespace files are listed; a parse that finds far fewer is broken.
        assert!(
            rows.len() >= 200,
            "only {} .ibd rows parsed from MANIFEST.md",
            rows.len()
        );
        rows
    }

    /// The per-file row of `<section>/<path>`.
    fn ibd_row(&self, section: &str, path: &str) -> Row {
        self.ibd_rows()
            .into_iter()
            .find(|r| r.section == section && r.get("path") == path)
            .unwrap_or_else(|| panic!("MANIFEST has no row for {section}/{path}"))
    }

    /// Every row of every file listing (per-file, companion and golden tables).
    fn listed_files(&self) -> Vec<Row> {
        self.tables
            .iter()
            .filter(|t| {
                t.header.first().is_some_and(|h| h == "path") && t.has("bytes") && t.has("sha256")
            })
            .flat_map(Table::rows)
            .collect()
    }
}

// ---------------------------------------------------------------------------
// The MANIFEST's columns.

/// (vendor, version numbers) of the `version` column: `MySQL 8.0.40` ->
/// ("MySQL", [8, 0, 40]); `MySQL 5.7.x` -> ("MySQL", [5, 7]).
fn version(row: &Row) -> (String, Vec<u64>) {
    let v = row.get("version");
    let (vendor, rest) = v.split_once(' ').unwrap_or((v, ""));
    let numbers = rest
        .split(|ch: char| !ch.is_ascii_digit() && ch != '.')
        .next()
        .unwrap_or("")
        .split('.')
        .map_while(|n| n.parse().ok())
        .collect();
    (vendor.to_string(), numbers)
}

/// The MySQL server version id (`80040`) of a `MySQL X.Y.Z` row of 8.0 or later.
fn mysql_version_id(row: &Row) -> Option<u64> {
    match version(row) {
        (vendor, n) if vendor == "MySQL" && n.len() == 3 && n[0] >= 8 => {
            Some(n[0] * 10000 + n[1] * 100 + n[2])
        }
        _ => None,
    }
}

/// Our checksum algorithm name for the MANIFEST's `cksum` column.
fn our_checksum_name(manifest: &str) -> &str {
    // The MANIFEST's names (innodb, crc32, zip_crc32, full_crc32) are the ones
    // our summary uses ("innodb" = the legacy InnoDB fold, "crc32" = CRC-32C,
    // "zip_crc32" = CRC-32C of ROW_FORMAT=COMPRESSED pages, "full_crc32" =
    // MariaDB's whole-page CRC-32C), so the mapping is the identity. Any other
    // name is passed through and will show up as a mismatch.
    manifest
}

// ---------------------------------------------------------------------------
// Reading the files with our crates.

fn open(path: &Path) -> Tablespace {
    Tablespace::open(path, OpenOptions::default())
        .unwrap_or_else(|e| panic!("{}: cannot open: {e}", path.display()))
}

/// Our `summary` report as the JSON the CLI prints.
fn summary(space: &Tablespace) -> Value {
    serde_json::to_value(Summary::build(space)).expect("summary serialises")
}

/// One row per page: a row that stands for a hole of a sparse file (some
/// of these files are stored sparse) is spread over the pages it covers.
fn page_rows(space: &Tablespace) -> Vec<PageRow> {
    let mut out = Vec::new();
    for row in PageList::build(space, &PageFilter::default()).pages {
        let n = row.hole_pages.unwrap_or(1);
        for i in 0..n {
            let mut one = row.clone();
            one.page += i;
            one.hole_pages = None;
            out.push(one);
        }
    }
    out
}

/// Our `page` report's fields, by name (first occurrence).
fn page_fields(space: &Tablespace, n: u32) -> BTreeMap<&'static str, u64> {
    let d = PageDetail::build(space, n).unwrap_or_else(|e| panic!("page {n}: {e}"));
    let mut out = BTreeMap::new();
    for f in d.sections.iter().flat_map(|s| &s.fields) {
        out.entry(f.name).or_insert(f.value);
    }
    out
}

/// The same fields from the CLI's `page FILE N --format json`.
fn cli_page_fields(file: &Path, n: u32) -> (Value, BTreeMap<String, u64>) {
    let (v, out) = support::run_json([
        OsStr::new("page"),
        file.as_os_str(),
        OsStr::new(&n.to_string()),
    ]);
    assert!(
        out.status.success(),
        "page {} {n} failed: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut fields = BTreeMap::new();
    for s in v["sections"].as_array().expect("sections") {
        for f in s["fields"].as_array().expect("fields") {
            let name = f["name"].as_str().expect("field name").to_string();
            let value = f["value"]
                .as_u64()
                .unwrap_or_else(|| panic!("{name}: value {} is not a u64", f["value"]));
            fields.entry(name).or_insert(value);
        }
    }
    (v, fields)
}

/// Per index id: the sum of records on its level-0 pages, its set of levels,
/// and how many pages it has at each level. Only pages whose type is in `types`.
#[derive(Debug, Default, Clone)]
struct IndexStats {
    leaf_records: u64,
    levels: BTreeSet<u16>,
    pages_at_level: BTreeMap<u16, u64>,
}

fn index_stats(rows: &[PageRow], types: &[&str]) -> BTreeMap<u64, IndexStats> {
    let mut out: BTreeMap<u64, IndexStats> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| types.contains(&r.page_type.as_str()))
    {
        let (Some(id), Some(level)) = (r.index_id, r.level) else {
            continue;
        };
        let s = out.entry(id).or_default();
        s.levels.insert(level);
        *s.pages_at_level.entry(level).or_default() += 1;
        if level == 0 {
            s.leaf_records += u64::from(r.records.unwrap_or(0));
        }
    }
    out
}

fn row_at(rows: &[PageRow], page: u32) -> Option<&PageRow> {
    rows.iter().find(|r| r.page == page)
}

/// `records` of `path` with the columns of its own SDI; `deleted` reads the
/// deleted records back from the garbage lists too.
fn sdi_records(path: &Path, deleted: bool) -> RecordsReport {
    let space = open(path);
    let sdi = SdiReport::build(&space).expect("an SDI");
    let schema = Schema::from_sdi(&sdi).expect("a schema from the SDI");
    RecordsReport::build(&space, &schema, None, deleted, None).expect("records")
}

/// Column `col` of row `row` of `r`, as text.
fn cell_text(r: &RecordsReport, row: usize, col: &str) -> String {
    use innodb_format::value::column_value::Value;
    let i = r
        .fields
        .iter()
        .position(|f| f.name == col)
        .unwrap_or_else(|| panic!("no column {col}"));
    match &r.rows[row].values[i] {
        Value::Text(t) => t.clone(),
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        other => format!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------
// Collecting mismatches so one run shows all of them.

#[derive(Default)]
struct Checks {
    checked: usize,
    problems: Vec<String>,
}

impl Checks {
    fn eq<T: PartialEq + Debug>(&mut self, label: &str, what: &str, ours: T, expected: T) {
        self.checked += 1;
        if ours != expected {
            self.problems.push(format!(
                "{label}: {what}: ours {ours:?}, MANIFEST/owner {expected:?}"
            ));
        }
    }

    fn ok(&mut self, label: &str, ok: bool, what: impl FnOnce() -> String) {
        self.checked += 1;
        if !ok {
            self.problems.push(format!("{label}: {}", what()));
        }
    }

    fn finish(self, test: &str) {
        println!("{test}: {} facts checked", self.checked);
        assert!(
            self.problems.is_empty(),
            "{test}: {} of {} checks failed:\n{}",
            self.problems.len(),
            self.checked,
            self.problems.join("\n")
        );
    }
}

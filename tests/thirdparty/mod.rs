//! The tool checked against real third-party tablespace files, read in place
//! from `../shared/thirdparty/`, and the facts their `MANIFEST.md` records.
//!
//! The MANIFEST's markdown tables are parsed at test time: every per-file row
//! gives path, bytes, sha256, version, page size, flags, row format, space id,
//! FSP size, checksum algorithm and the raw index leaf-record sums. Owner facts
//! stated in the MANIFEST prose (the owners' specs, golden outputs and READMEs)
//! are written out below, each with the sentence it comes from.
//!
//! The data directory is always present in CI; without it every test fails
//! with a message saying so.

// The helpers below are test code too: a panic there is a test failure with
// its message, as `allow-panic-in-tests` / `allow-expect-in-tests` already
// grant the #[test] functions (clippy.toml).
#![allow(clippy::panic, clippy::expect_used)]

use crate::support;

use innodb_analysis::reports::indexes::IndexAnalysis;
use innodb_analysis::reports::ownership::SpaceAccount;
use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::reports::space_reports::SegmentsReport;
use innodb_analysis::rows::records::{RecordsReport, RowState, Schema};
use innodb_analysis::{PageDetail, PageFilter, PageList, PageRow, Summary};
use innodb_space::segment::SegmentOwner;
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

/// `../shared/thirdparty`, or a failure saying it is missing.
fn root() -> PathBuf {
    let dir = support::thirdparty_dir();
    assert!(
        dir.join("MANIFEST.md").is_file(),
        "third-party test data is missing: {} (with its MANIFEST.md) must exist beside the \
         repository. It is always present in CI; these tests read the files in place and must \
         not pass without them.",
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
// Reading the files with our crates.

fn open(path: &Path) -> Tablespace {
    Tablespace::open(path, OpenOptions::default())
        .unwrap_or_else(|e| panic!("{}: cannot open: {e}", path.display()))
}

/// Our `summary` report as the JSON the CLI prints.
fn summary(space: &Tablespace) -> Value {
    serde_json::to_value(Summary::build(space)).expect("summary serialises")
}

fn page_rows(space: &Tablespace) -> Vec<PageRow> {
    PageList::build(space, &PageFilter::default()).pages
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

// ---------------------------------------------------------------------------
// The data set itself: what the MANIFEST lists is what is there.

/// SHA-256 of `data` as lowercase hex (no hashing crate among the
/// dev-dependencies; this is FIPS 180-4 as written).
fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (word, bytes) in w.iter_mut().zip(block.chunks_exact(4)) {
            *word = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for (k, wi) in K.iter().zip(w.iter()) {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(*k)
                .wrapping_add(*wi);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[test]
fn sha256_matches_the_standard_test_vectors() {
    // FIPS 180-4 examples, so a wrong hash below is the data's fault, not this one's.
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
}

/// Every file the MANIFEST lists is there with its size and sha256, nothing
/// else is, and the count is the MANIFEST's "Total: N files". This makes sure
/// the facts below are about the very bytes the MANIFEST describes.
#[test]
fn manifest_lists_exactly_the_files_present() {
    let root = root();
    let m = manifest();
    let mut c = Checks::default();
    let listed = m.listed_files();
    let mut listed_paths = BTreeSet::new();
    for r in &listed {
        let file = r.file();
        let label = r.label();
        listed_paths.insert(file.clone());
        let Ok(data) = std::fs::read(&file) else {
            c.ok(&label, false, || "listed in MANIFEST.md but missing".into());
            continue;
        };
        c.eq(&label, "bytes", data.len() as u64, r.num("bytes"));
        c.eq(
            &label,
            "sha256",
            sha256_hex(&data),
            r.get("sha256").to_string(),
        );
    }
    let present: BTreeSet<PathBuf> = support::files_below(&root, "")
        .into_iter()
        .filter(|p| !p.ends_with("MANIFEST.md"))
        .collect();
    for extra in present.difference(&listed_paths) {
        c.ok(&rel(extra), false, || {
            "present but not listed in MANIFEST.md".into()
        });
    }
    let total: usize = m
        .text
        .split("Total: ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("MANIFEST says \"Total: N files\"");
    c.eq("thirdparty", "number of files listed", listed.len(), total);
    c.eq(
        "thirdparty",
        "number of files present",
        present.len(),
        total,
    );
    c.finish("manifest_lists_exactly_the_files_present");
}

// ---------------------------------------------------------------------------
// 1. The per-file rows against our summary.

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

#[test]
fn every_ibd_row_matches_our_summary() {
    let m = manifest();
    let rows = m.ibd_rows();
    let mut c = Checks::default();
    for r in &rows {
        let label = r.label();
        let file = r.file();
        let Ok(meta) = std::fs::metadata(&file) else {
            c.ok(&label, false, || {
                format!("{} does not exist", file.display())
            });
            continue;
        };
        let bytes = r.num("bytes");
        c.eq(&label, "file size", meta.len(), bytes);
        let space = open(&file);
        let s = summary(&space);
        let (logical, physical) = r
            .get("page")
            .split_once('/')
            .expect("page is logical/physical");
        let (logical, physical): (u64, u64) = (
            logical.parse().expect("page"),
            physical.parse().expect("page"),
        );
        c.eq(
            &label,
            "space id",
            s["space_id"].as_u64(),
            Some(r.num("sid")),
        );
        c.eq(
            &label,
            "logical page size",
            s["page_size"].as_u64(),
            Some(logical),
        );
        c.eq(
            &label,
            "physical page size",
            s["physical_page_size"].as_u64(),
            Some(physical),
        );
        c.eq(
            &label,
            "page count (bytes / physical page)",
            s["page_count"].as_u64(),
            Some(bytes / physical),
        );
        c.eq(
            &label,
            "flags.raw",
            s["flags"]["raw"].as_u64(),
            Some(r.num("flags")),
        );
        c.eq(
            &label,
            "fsp_size",
            s["fsp_size"].as_u64(),
            Some(r.num("FSP pages")),
        );
        let cksum = our_checksum_name(r.get("cksum"));
        c.eq(
            &label,
            "checksum_algorithm",
            s["checksum_algorithm"].as_str(),
            Some(cksum),
        );
        // "algorithm that validates every non-zero page": nothing verifies
        // under another algorithm, and nothing is bad or unverifiable.
        let algorithms: BTreeSet<&str> = s["checksum_algorithms"]
            .as_object()
            .expect("checksum_algorithms")
            .keys()
            .map(String::as_str)
            .filter(|k| *k != "all_zero")
            .collect();
        c.eq(
            &label,
            "checksum algorithms of the non-zero pages",
            algorithms,
            BTreeSet::from([cksum]),
        );
        c.eq(
            &label,
            "bad_checksums",
            s["bad_checksums"].as_u64(),
            Some(0),
        );
        c.ok(
            &label,
            s["findings"].as_array().is_some_and(Vec::is_empty),
            || format!("findings: {}", s["findings"]),
        );
        // Vendor, where the version decides it: MySQL 8.0 and later, and
        // MariaDB 10.4+ files in the full_crc32 format (FSP flags bit 4).
        let (vendor, numbers) = version(r);
        let expected_vendor = match vendor.as_str() {
            "MySQL" if numbers.first().is_some_and(|&n| n >= 8) => Some("mysql"),
            "MariaDB" if numbers >= vec![10, 4] && r.num("flags") & 0x10 != 0 => Some("mariadb"),
            _ => None,
        };
        if let Some(v) = expected_vendor {
            c.eq(&label, "vendor", s["vendor"].as_str(), Some(v));
        }
        // Row format: REDUNDANT index pages lack the compact bit of
        // PAGE_N_HEAP, every other row format (COMPACT, DYNAMIC, COMPRESSED) has it.
        let compact = !r.get("row fmt").starts_with("REDUNDANT");
        for p in page_rows(&space).iter().filter(|p| p.index_id.is_some()) {
            let n_heap = page_fields(&space, p.page).get("PAGE_N_HEAP").copied();
            c.eq(
                &label,
                &format!(
                    "page {} ({}) compact bit of PAGE_N_HEAP (row fmt {})",
                    p.page,
                    p.page_type,
                    r.get("row fmt")
                ),
                n_heap.map(|n| n & N_HEAP_COMPACT != 0),
                Some(compact),
            );
        }
    }
    // `checksum FILE...` over all of them at once: exit 0, one OK line each.
    let files: Vec<PathBuf> = rows.iter().map(Row::file).filter(|f| f.exists()).collect();
    let mut args = vec![std::ffi::OsString::from("checksum")];
    args.extend(files.iter().map(|f| f.as_os_str().to_os_string()));
    let out = support::run(args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    c.ok(
        "checksum (all .ibd rows)",
        out.status.code() == Some(0),
        || {
            format!(
                "exit {:?}, stderr: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            )
        },
    );
    for f in &files {
        let ok_line = format!("OK  {}:", f.display());
        c.ok(
            &rel(f),
            stdout.lines().any(|l| l.starts_with(&ok_line)),
            || {
                let ours: Vec<&str> = stdout
                    .lines()
                    .filter(|l| l.contains(&*f.to_string_lossy()))
                    .collect();
                format!("`checksum` does not report it OK: {ours:?}")
            },
        );
    }
    println!("{} .ibd files", rows.len());
    c.finish("every_ibd_row_matches_our_summary");
}

// ---------------------------------------------------------------------------
// 2. The `raw idx leaf recs` column against our page list.

/// `159:2/1L SDI:2/1L` -> {159: (2, 1), u64::MAX: (2, 1)}.
fn parse_raw_idx(cell: &str) -> BTreeMap<u64, (u64, usize)> {
    cell.split_whitespace()
        .map(|e| {
            let parsed = e.split_once(':').and_then(|(id, rest)| {
                let (recs, levels) = rest.split_once('/')?;
                let id = if id == "SDI" {
                    SDI_INDEX_ID
                } else {
                    id.parse().ok()?
                };
                Some((
                    id,
                    (recs.parse().ok()?, levels.strip_suffix('L')?.parse().ok()?),
                ))
            });
            parsed.unwrap_or_else(|| panic!("raw idx leaf recs entry {e:?} is not id:recs/NL"))
        })
        .collect()
}

#[test]
fn raw_index_leaf_records_match_our_page_list() {
    let m = manifest();
    let mut c = Checks::default();
    let mut entries = 0;
    for r in m.ibd_rows() {
        let label = r.label();
        let expected = parse_raw_idx(r.get("raw idx leaf recs"));
        entries += expected.len();
        let space = open(&r.file());
        let rows = page_rows(&space);
        // "for every index id seen on INDEX/SDI/INSTANT pages".
        let ours = index_stats(&rows, &["INDEX", "SDI", "INSTANT"]);
        for (id, (recs, levels)) in &expected {
            let s = ours.get(id).cloned().unwrap_or_default();
            c.eq(
                &label,
                &format!("index {id}: sum of level-0 records"),
                s.leaf_records,
                *recs,
            );
            c.eq(
                &label,
                &format!("index {id}: number of levels"),
                s.levels.len(),
                *levels,
            );
        }
        // No index id on an INDEX or SDI page that the column does not list.
        // (RTREE pages are not counted by the column: 5.7+ address.ibd lists
        // 2 of its 3 indexes. INSTANT pages are exempt from this direction
        // only: the MANIFEST's row for MariaDB's mantis_plugin_table.ibd, whose
        // only index page is its INSTANT root, leaves the column empty, so the
        // derivation did not in fact list INSTANT-only ids; that page is
        // checked against the prose in `mariadb_owner_facts`.)
        let on_index_pages: BTreeSet<u64> =
            index_stats(&rows, &["INDEX", "SDI"]).into_keys().collect();
        c.eq(
            &label,
            "index ids on INDEX/SDI pages",
            on_index_pages,
            expected.keys().copied().collect(),
        );
    }
    println!("{entries} index entries");
    c.finish("raw_index_leaf_records_match_our_page_list");
}

// ---------------------------------------------------------------------------
// 3. Owner facts from the MANIFEST prose.

fn ruby(path: &str) -> PathBuf {
    root().join("jeremycole__innodb_ruby/spec/data").join(path)
}

/// page/index_spec.rb on `t_empty.ibd` page 3, through the CLI's JSON.
#[test]
fn t_empty_page3_index_header_matches_innodb_ruby() {
    let file = ruby("t_empty.ibd");
    let (v, f) = cli_page_fields(&file, 3);
    let mut c = Checks::default();
    let label = "t_empty.ibd page 3";
    c.eq(label, "type", v["type"].as_str(), Some("INDEX"));
    let expected: [(&str, u64); 11] = [
        ("PAGE_N_DIR_SLOTS", 2),
        ("PAGE_HEAP_TOP", 120),
        // n_heap 2, format compact: the raw field carries the 0x8000 bit.
        ("PAGE_N_HEAP", N_HEAP_COMPACT | 2),
        ("PAGE_FREE", 0),    // garbage_offset 0
        ("PAGE_GARBAGE", 0), // garbage_size 0
        ("PAGE_LAST_INSERT", 0),
        ("PAGE_N_DIRECTION", 0),
        ("PAGE_N_RECS", 0),
        ("PAGE_MAX_TRX_ID", 0),
        ("PAGE_LEVEL", 0),
        ("PAGE_INDEX_ID", 16),
    ];
    for (name, value) in expected {
        c.eq(label, name, f.get(name).copied(), Some(value));
    }
    // direction no_direction: PAGE_NO_DIRECTION is 5.
    c.eq(
        label,
        "PAGE_DIRECTION",
        f.get("PAGE_DIRECTION").copied(),
        Some(5),
    );
    let direction_meaning = v["sections"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["fields"].as_array().into_iter().flatten())
        .find(|f| f["name"] == "PAGE_DIRECTION")
        .and_then(|f| f["meaning"].as_str())
        .map(str::to_ascii_lowercase);
    c.eq(
        label,
        "PAGE_DIRECTION meaning",
        direction_meaning.as_deref(),
        Some("no_direction"),
    );
    // fsp_hdr_xdes_spec.rb: page 0 lists include free, free_frag, full_frag,
    // full_inodes, free_inodes.
    let f0 = page_fields(&open(&file), 0);
    for list in [
        "FSP_FREE",
        "FSP_FREE_FRAG",
        "FSP_FULL_FRAG",
        "FSP_SEG_INODES_FULL",
        "FSP_SEG_INODES_FREE",
    ] {
        c.ok("t_empty.ibd page 0", f0.contains_key(list), || {
            format!("no {list} list in our FSP header")
        });
    }
    c.finish("t_empty_page3_index_header_matches_innodb_ruby");
}

/// space_spec.rb / system_spec.rb on `sakila/compact/sakila/film.ibd`.
#[test]
fn sakila_compact_film_matches_innodb_ruby_space_spec() {
    let file = ruby("sakila/compact/sakila/film.ibd");
    let label = "sakila/compact/sakila/film.ibd";
    let space = open(&file);
    let s = summary(&space);
    let rows = page_rows(&space);
    let mut c = Checks::default();
    // system_spec.rb: space id 7.
    c.eq(label, "space id", s["space_id"].as_u64(), Some(7));
    // each_page yields 21 pages: every page of the 344064-byte file (21 x 16 KiB).
    c.eq(label, "page_count", s["page_count"].as_u64(), Some(21));
    c.eq(label, "rows in `pages`", rows.len(), 21);
    // each_index yields 4 indexes.
    let indexes: BTreeSet<u64> = rows
        .iter()
        .filter(|r| r.page_type == "INDEX")
        .filter_map(|r| r.index_id)
        .collect();
    c.eq(label, "distinct index ids", indexes.len(), 4);
    // 1 XDES page (page 0, the FSP_HDR, is the only extent-descriptor page).
    let xdes_pages = rows
        .iter()
        .filter(|r| r.page_type == "FSP_HDR" || r.page_type == "XDES")
        .count();
    c.eq(label, "FSP_HDR/XDES pages", xdes_pages, 1);
    // 5 page-type regions (runs of consecutive pages of one type); region 0 =
    // {0, 0, FSP_HDR, 1}, region 1 = {1, 1, IBUF_BITMAP, 1}.
    let mut regions: Vec<(u32, u32, String, u32)> = Vec::new();
    for r in &rows {
        match regions.last_mut() {
            Some(last) if last.2 == r.page_type && last.1 + 1 == r.page => {
                last.1 = r.page;
                last.3 += 1;
            }
            _ => regions.push((r.page, r.page, r.page_type.clone(), 1)),
        }
    }
    c.eq(label, "page-type regions", regions.len(), 5);
    c.eq(
        label,
        "region 0",
        regions.first().cloned(),
        Some((0, 0, "FSP_HDR".into(), 1)),
    );
    c.eq(
        label,
        "region 1",
        regions.get(1).cloned(),
        Some((1, 1, "IBUF_BITMAP".into(), 1)),
    );
    // index root at page 3: an INDEX page at the top level of its index.
    let root = row_at(&rows, 3);
    c.eq(
        label,
        "page 3 type",
        root.map(|r| r.page_type.as_str()),
        Some("INDEX"),
    );
    let root_id = root.and_then(|r| r.index_id);
    let top = rows
        .iter()
        .filter(|r| r.index_id == root_id)
        .filter_map(|r| r.level)
        .max();
    c.eq(
        label,
        "page 3 level is its index's top level",
        root.and_then(|r| r.level),
        top,
    );
    c.eq(
        label,
        "pages at page 3's level of its index",
        rows.iter()
            .filter(|r| r.index_id == root_id && r.level == top)
            .count(),
        1,
    );
    c.finish("sakila_compact_film_matches_innodb_ruby_space_spec");
}

/// The other innodb_ruby specs whose facts our page headers can show.
#[test]
fn innodb_ruby_spec_files_match() {
    let mut c = Checks::default();

    // hello_world.rb: PRIMARY is index 29 (page 3), `message` is index 30
    // (page 4); rows (1, ...), (2, ...).
    let label = "hello_world.ibd";
    let space = open(&ruby("hello_world.ibd"));
    let rows = page_rows(&space);
    for (page, id) in [(3, 29), (4, 30)] {
        let r = row_at(&rows, page);
        c.eq(
            label,
            &format!("page {page} (type, index id)"),
            r.map(|r| (r.page_type.as_str(), r.index_id)),
            Some(("INDEX", Some(id))),
        );
        c.eq(
            label,
            &format!("page {page} (level, records)"),
            r.map(|r| (r.level, r.records)),
            Some((Some(0), Some(2))),
        );
    }

    // index_spec.rb on t_10k_rows.ibd: clustered index rooted at page 3, keys
    // 1..10000, the first leaf record is on page 4 and 901 records later the
    // cursor is past page 4.
    let label = "t_10k_rows.ibd";
    let space = open(&ruby("t_10k_rows.ibd"));
    let rows = page_rows(&space);
    let root_id = row_at(&rows, 3).and_then(|r| r.index_id);
    let stats = index_stats(&rows, &["INDEX"]);
    let s = root_id
        .and_then(|id| stats.get(&id))
        .cloned()
        .unwrap_or_default();
    c.eq(
        label,
        "page 3 type",
        row_at(&rows, 3).map(|r| r.page_type.as_str()),
        Some("INDEX"),
    );
    c.eq(
        label,
        "page 3 is the root (top level)",
        row_at(&rows, 3).and_then(|r| r.level),
        s.levels.last().copied(),
    );
    c.eq(
        label,
        "records on the clustered index's leaves (keys 1..10000)",
        s.leaf_records,
        10000,
    );
    let p4 = row_at(&rows, 4);
    c.eq(
        label,
        "page 4 (index id, level)",
        p4.map(|r| (r.index_id, r.level)),
        Some((root_id, Some(0))),
    );
    c.ok(
        label,
        p4.and_then(|r| r.records)
            .is_some_and(|n| (1..=901).contains(&n)),
        || {
            format!(
                "page 4 holds {:?} records; the spec leaves it after at most 901",
                p4.and_then(|r| r.records)
            )
        },
    );
    // The first leaf record is on page 4: page 4 is the leftmost leaf.
    c.eq(
        label,
        "page 4 FIL_PAGE_PREV",
        page_fields(&space, 4).get("FIL_PAGE_PREV").copied(),
        Some(FIL_NULL),
    );

    // record_describer_spec.rb on t_record_describer.ibd (space id 6):
    // clustered index at page 3, whose root is level 1 and whose min node
    // pointer points at child page 10; 210 records; an externally stored
    // column on page 5 of space 6; secondary index at page 4 with 210 records.
    let label = "t_record_describer.ibd";
    let space = open(&ruby("t_record_describer.ibd"));
    let rows = page_rows(&space);
    let p3 = row_at(&rows, 3);
    let clustered = p3.and_then(|r| r.index_id);
    c.eq(
        label,
        "space id",
        summary(&space)["space_id"].as_u64(),
        Some(6),
    );
    c.eq(
        label,
        "page 3 (type, level)",
        p3.map(|r| (r.page_type.as_str(), r.level)),
        Some(("INDEX", Some(1))),
    );
    let stats = index_stats(&rows, &["INDEX"]);
    c.eq(
        label,
        "clustered leaf records",
        clustered
            .and_then(|id| stats.get(&id))
            .map(|s| s.leaf_records),
        Some(210),
    );
    // The min record of a level-1 root points at the leftmost leaf.
    let p10 = row_at(&rows, 10);
    c.eq(
        label,
        "child page 10 (index id, level)",
        p10.map(|r| (r.index_id, r.level)),
        Some((clustered, Some(0))),
    );
    c.eq(
        label,
        "child page 10 FIL_PAGE_PREV",
        page_fields(&space, 10).get("FIL_PAGE_PREV").copied(),
        Some(FIL_NULL),
    );
    let p4 = row_at(&rows, 4);
    c.ok(
        label,
        p4.and_then(|r| r.index_id)
            .is_some_and(|id| Some(id) != clustered),
        || {
            format!(
                "page 4 should be the secondary index's root, ours index id {:?}",
                p4.and_then(|r| r.index_id)
            )
        },
    );
    c.eq(
        label,
        "page 4 (level, records)",
        p4.map(|r| (r.level, r.records)),
        Some((Some(0), Some(210))),
    );
    c.eq(
        label,
        "page 5 (extern field) type",
        row_at(&rows, 5).map(|r| r.page_type.as_str()),
        Some("BLOB"),
    );
    c.eq(
        label,
        "page 5 FIL_PAGE_SPACE_ID",
        page_fields(&space, 5).get("FIL_PAGE_SPACE_ID").copied(),
        Some(6),
    );

    c.finish("innodb_ruby_spec_files_match");
}

/// innodb_ruby's sakila tables: (table, rows, clustered B-tree height), from
/// its spec data README: "actor 200, address 603, category 16, city 600,
/// country 109, customer 599, film 1000, film_actor 5462, film_category
/// 1000, film_text 1000 (5.7/8.0/8.4 only), inventory 4581, language 6,
/// staff 2, store 2. B-tree heights: address, city, customer, film,
/// film_actor, film_category, film_text, inventory = 2 levels; the others = 1."
const SAKILA_TABLES: [(&str, u64, usize); 14] = [
    ("actor", 200, 1),
    ("address", 603, 2),
    ("category", 16, 1),
    ("city", 600, 2),
    ("country", 109, 1),
    ("customer", 599, 2),
    ("film", 1000, 2),
    ("film_actor", 5462, 2),
    ("film_category", 1000, 2),
    ("film_text", 1000, 2),
    ("inventory", 4581, 2),
    ("language", 6, 1),
    ("staff", 2, 1),
    ("store", 2, 1),
];

/// Sakila row counts and B-tree heights per version directory, the staff
/// BLOB pages, and the 5.7 SPATIAL index.
#[test]
fn sakila_row_counts_heights_and_blob_pages() {
    let tables = SAKILA_TABLES;
    let mut c = Checks::default();
    for dir in ["5.0", "compact", "redundant", "5.7", "8.0", "8.4"] {
        for (table, rows_expected, height) in tables {
            if table == "film_text" && !["5.7", "8.0", "8.4"].contains(&dir) {
                continue;
            }
            let label = format!("sakila/{dir}/sakila/{table}.ibd");
            let space = open(&ruby(&format!("sakila/{dir}/sakila/{table}.ibd")));
            let rows = page_rows(&space);
            // The clustered index is the first one created: its root is the
            // lowest-numbered INDEX page (3, or 4 after the SDI root in 8.0+).
            let clustered = rows
                .iter()
                .find(|r| r.page_type == "INDEX")
                .and_then(|r| r.index_id);
            let s = clustered
                .and_then(|id| index_stats(&rows, &["INDEX"]).remove(&id))
                .unwrap_or_default();
            c.eq(
                &label,
                "clustered index leaf records",
                s.leaf_records,
                rows_expected,
            );
            c.eq(&label, "clustered index levels", s.levels.len(), height);
        }
        // staff.ibd holds the picture BLOB of staff 1: 3 BLOB pages (type 10)
        // in compact/redundant/5.7; LOB_FIRST (24) + 2 LOB_DATA (23) in
        // 8.0/8.4; untyped (0) pages in 5.0 (checked in `mysql50_pages_are_untyped`).
        let label = format!("sakila/{dir}/sakila/staff.ibd");
        let types =
            summary(&open(&ruby(&format!("sakila/{dir}/sakila/staff.ibd"))))["page_types"].clone();
        let count = |t: &str| types[t].as_u64().unwrap_or(0);
        match dir {
            "compact" | "redundant" | "5.7" => c.eq(&label, "BLOB pages", count("BLOB"), 3),
            "8.0" | "8.4" => {
                c.eq(&label, "LOB_FIRST pages", count("LOB_FIRST"), 1);
                c.eq(&label, "LOB_DATA pages", count("LOB_DATA"), 2);
            }
            _ => {}
        }
    }
    // 5.7/: "address.ibd has a SPATIAL index (RTREE pages 17854)".
    let space = open(&ruby("sakila/5.7/sakila/address.ibd"));
    let rtree = page_fields_of_type(&space, "RTREE");
    c.ok("sakila/5.7/sakila/address.ibd", !rtree.is_empty(), || {
        "no RTREE pages".into()
    });
    for (page, raw_type) in rtree {
        c.eq(
            "sakila/5.7/sakila/address.ibd",
            &format!("page {page} FIL_PAGE_TYPE"),
            raw_type,
            Some(17854),
        );
    }
    c.finish("sakila_row_counts_heights_and_blob_pages");
}

/// (page, raw FIL_PAGE_TYPE) of every page whose type we name `name`.
fn page_fields_of_type(space: &Tablespace, name: &str) -> Vec<(u32, Option<u64>)> {
    page_rows(space)
        .iter()
        .filter(|r| r.page_type == name)
        .map(|r| {
            (
                r.page,
                page_fields(space, r.page).get("FIL_PAGE_TYPE").copied(),
            )
        })
        .collect()
}

/// MySQL 5.0 does not stamp FSP_HDR, IBUF_BITMAP and BLOB pages: they carry
/// FIL_PAGE_TYPE 0, only INODE (3) and INDEX (17855) are typed;
/// `staff.ibd` = [0,0,3,17855,17855,17855,0,0,0]. Those pages are not empty,
/// so the checksum column must show them verifying (`innodb`), not `all_zero`.
#[test]
fn mysql50_pages_are_untyped() {
    let m = manifest();
    let mut c = Checks::default();
    // staff.ibd through the CLI's `pages` JSON.
    let file = ruby("sakila/5.0/sakila/staff.ibd");
    let (v, out) = support::run_json([OsStr::new("pages"), file.as_os_str()]);
    assert!(out.status.success(), "pages {} failed", file.display());
    let label = "sakila/5.0/sakila/staff.ibd";
    let name = |t: u64| match t {
        0 => "ALLOCATED",
        3 => "INODE",
        17855 => "INDEX",
        _ => "?",
    };
    let expected: Vec<&str> = [0, 0, 3, 17855, 17855, 17855, 0, 0, 0]
        .into_iter()
        .map(name)
        .collect();
    let pages = v["pages"].as_array().expect("pages");
    let ours: Vec<&str> = pages
        .iter()
        .map(|p| p["type"].as_str().unwrap_or("?"))
        .collect();
    c.eq(label, "page types", ours, expected);
    let cksum = m
        .ibd_row(
            "jeremycole__innodb_ruby",
            "spec/data/sakila/5.0/sakila/staff.ibd",
        )
        .get("cksum")
        .to_string();
    for p in pages {
        c.eq(
            label,
            &format!("page {} checksum", p["page"]),
            p["checksum"].as_str(),
            Some(our_checksum_name(&cksum)),
        );
    }
    // Every 5.0 file: pages 0 (FSP_HDR) and 1 (IBUF_BITMAP) are untyped but
    // verify; no page carries a type other than 0, 3 and 17855.
    for r in m
        .ibd_rows()
        .iter()
        .filter(|r| r.get("version") == "MySQL 5.0")
    {
        let label = r.label();
        let space = open(&r.file());
        let rows = page_rows(&space);
        for page in [0, 1] {
            let p = row_at(&rows, page);
            c.eq(
                &label,
                &format!("page {page} type"),
                p.map(|p| p.page_type.as_str()),
                Some("ALLOCATED"),
            );
            c.eq(
                &label,
                &format!("page {page} checksum"),
                p.map(|p| p.checksum),
                Some(our_checksum_name(r.get("cksum"))),
            );
            c.eq(
                &label,
                &format!("page {page} FIL_PAGE_TYPE"),
                page_fields(&space, page).get("FIL_PAGE_TYPE").copied(),
                Some(0),
            );
        }
        let types: BTreeSet<&str> = rows.iter().map(|r| r.page_type.as_str()).collect();
        c.ok(
            &label,
            types
                .iter()
                .all(|t| ["ALLOCATED", "INODE", "INDEX"].contains(t)),
            || format!("page types {types:?} beyond 0/3/17855"),
        );
    }
    c.finish("mysql50_pages_are_untyped");
}

/// "version: from page 0 FIL_PAGE_PREV/FIL_PAGE_NEXT (MySQL 8.0+ stores
/// server version id / space version there)": every `MySQL X.Y.Z` row of 8.0
/// or later has X*10000+Y*100+Z in page 0's FIL_PAGE_PREV. Plus: sakila/8.0's
/// 8.0.40 files have space version 1 in FIL_PAGE_NEXT; MariaDB 12.0.2 page 0
/// PREV/NEXT = 0xFFFFFFFF and bytes 0-3 of the FIL header are 0 on every page;
/// MariaDB 10.3.22 page 0 prev/next = 0.
#[test]
fn page0_prev_next_hold_the_version() {
    let m = manifest();
    let mut c = Checks::default();
    let mut versioned = 0;
    for r in m.ibd_rows() {
        let label = r.label();
        let (vendor, numbers) = version(&r);
        let id = mysql_version_id(&r);
        if id.is_none() && vendor != "MariaDB" {
            continue;
        }
        let space = open(&r.file());
        let f0 = page_fields(&space, 0);
        let prev = f0.get("FIL_PAGE_PREV").copied();
        let next = f0.get("FIL_PAGE_NEXT").copied();
        if let Some(id) = id {
            versioned += 1;
            c.eq(
                &label,
                "page 0 FIL_PAGE_PREV (server version)",
                prev,
                Some(id),
            );
            if r.section == "jeremycole__innodb_ruby"
                && r.get("path").contains("sakila/8.0/")
                && id == 80040
            {
                c.eq(
                    &label,
                    "page 0 FIL_PAGE_NEXT (space version)",
                    next,
                    Some(1),
                );
            }
        } else if numbers.starts_with(&[12, 0, 2]) {
            c.eq(
                &label,
                "page 0 (FIL_PAGE_PREV, FIL_PAGE_NEXT)",
                (prev, next),
                (Some(FIL_NULL), Some(FIL_NULL)),
            );
            for p in 0..space.page_count() {
                let f = page_fields(&space, p);
                c.eq(
                    &label,
                    &format!("page {p} FIL_PAGE_SPACE_OR_CHKSUM (bytes 0-3)"),
                    f.get("FIL_PAGE_SPACE_OR_CHKSUM").copied(),
                    Some(0),
                );
            }
        } else if numbers.starts_with(&[10, 3, 22]) {
            c.eq(
                &label,
                "page 0 (FIL_PAGE_PREV, FIL_PAGE_NEXT)",
                (prev, next),
                (Some(0), Some(0)),
            );
        }
    }
    c.ok("MANIFEST", versioned >= 100, || {
        format!("only {versioned} MySQL 8.0+ rows found")
    });
    println!("{versioned} MySQL 8.0+ files");
    c.finish("page0_prev_next_hold_the_version");
}

/// The page-0 FIL_PAGE_PREV of an 8.0 file through the CLI, as the brief's
/// example: sakila/8.0 (80040), 8.4 (80403), mysql9 (90001 / 90100).
#[test]
fn cli_page0_shows_the_server_version() {
    let m = manifest();
    let mut c = Checks::default();
    for (section, path) in [
        (
            "jeremycole__innodb_ruby",
            "spec/data/sakila/8.0/sakila/film.ibd",
        ),
        (
            "jeremycole__innodb_ruby",
            "spec/data/sakila/8.4/sakila/film.ibd",
        ),
        (
            "ringo380__idb-utils",
            "tests/fixtures/mysql9/mysql90_standard.ibd",
        ),
        (
            "ringo380__idb-utils",
            "tests/fixtures/mysql9/mysql91_compressed.ibd",
        ),
    ] {
        let r = m.ibd_row(section, path);
        let (_, f) = cli_page_fields(&r.file(), 0);
        c.eq(
            &r.label(),
            "page 0 FIL_PAGE_PREV",
            f.get("FIL_PAGE_PREV").copied(),
            mysql_version_id(&r),
        );
    }
    c.finish("cli_page0_shows_the_server_version");
}

fn java(path: &str) -> PathBuf {
    root()
        .join("alibaba__innodb-java-reader/innodb-java-reader/src/test/resources/testsuite")
        .join(path)
}

/// SimpleTableReaderTest: tb01 has 6 pages in 5.6/5.7 (FSP size 6, pages
/// used 4: FSP_HDR, IBUF_BITMAP, INODE, INDEX root at 3, ALLOCATED,
/// ALLOCATED) and 7 in 8.0 (used 5, SDI at 3, root INDEX at 4). Root: level
/// 0, 10 records, 12 heap records, COMPACT, prev/next FIL_NULL.
/// tb_redundant_format (5.6): REDUNDANT, 1 record on the root page.
#[test]
fn innodb_java_reader_simple_tables() {
    let mut c = Checks::default();
    for (dir, pages, used, types, root) in [
        (
            "mysql56",
            6,
            4,
            &[
                "FSP_HDR",
                "IBUF_BITMAP",
                "INODE",
                "INDEX",
                "ALLOCATED",
                "ALLOCATED",
            ][..],
            3,
        ),
        (
            "mysql57",
            6,
            4,
            &[
                "FSP_HDR",
                "IBUF_BITMAP",
                "INODE",
                "INDEX",
                "ALLOCATED",
                "ALLOCATED",
            ][..],
            3,
        ),
        (
            "mysql80",
            7,
            5,
            &["FSP_HDR", "IBUF_BITMAP", "INODE", "SDI", "INDEX"][..],
            4,
        ),
    ] {
        let label = format!("{dir}/simple/tb01.ibd");
        let space = open(&java(&format!("{dir}/simple/tb01.ibd")));
        let rows = page_rows(&space);
        let s = summary(&space);
        c.eq(&label, "page_count", s["page_count"].as_u64(), Some(pages));
        c.eq(&label, "fsp_size", s["fsp_size"].as_u64(), Some(pages));
        // "pages used" = FSP_FRAG_N_USED: the fragment pages handed out.
        c.eq(
            &label,
            "FSP_FRAG_N_USED",
            page_fields(&space, 0).get("FSP_FRAG_N_USED").copied(),
            Some(used),
        );
        let ours: Vec<&str> = rows
            .iter()
            .take(types.len())
            .map(|r| r.page_type.as_str())
            .collect();
        c.eq(&label, "page types", ours, types.to_vec());
        let f = page_fields(&space, root);
        c.eq(
            &label,
            &format!("root page {root} type"),
            row_at(&rows, root).map(|r| r.page_type.as_str()),
            Some("INDEX"),
        );
        c.eq(
            &label,
            "root PAGE_LEVEL",
            f.get("PAGE_LEVEL").copied(),
            Some(0),
        );
        c.eq(
            &label,
            "root PAGE_N_RECS",
            f.get("PAGE_N_RECS").copied(),
            Some(10),
        );
        c.eq(
            &label,
            "root PAGE_N_HEAP (12 records, compact)",
            f.get("PAGE_N_HEAP").copied(),
            Some(N_HEAP_COMPACT | 12),
        );
        c.eq(
            &label,
            "root (FIL_PAGE_PREV, FIL_PAGE_NEXT)",
            (
                f.get("FIL_PAGE_PREV").copied(),
                f.get("FIL_PAGE_NEXT").copied(),
            ),
            (Some(FIL_NULL), Some(FIL_NULL)),
        );
    }
    let label = "mysql56/simple/tb_redundant_format.ibd";
    let space = open(&java("mysql56/simple/tb_redundant_format.ibd"));
    let f = page_fields(&space, 3);
    c.eq(
        label,
        "root PAGE_N_RECS",
        f.get("PAGE_N_RECS").copied(),
        Some(1),
    );
    c.eq(
        label,
        "root PAGE_N_HEAP compact bit (REDUNDANT)",
        f.get("PAGE_N_HEAP").map(|n| n & N_HEAP_COMPACT),
        Some(0),
    );
    c.finish("innodb_java_reader_simple_tables");
}

fn ninja(path: &str) -> PathBuf {
    root().join("KernelMaker__ibdNinja/tests").join(path)
}

/// ibdNinja: the MANIFEST's golden summary table (space, pages, index
/// id@root, clustered leaf records, levels, page-4 LSN), "SDI at page 3,
/// clustered root at page 4", and the prose facts of simple_table,
/// with_deletes and multi_page.
#[test]
fn ibdninja_golden_summary_table() {
    let m = manifest();
    let mut c = Checks::default();
    let golden: Vec<Row> = m
        .tables
        .iter()
        .filter(|t| t.header.first().is_some_and(|h| h == "ver") && t.has("page 4 LSN"))
        .flat_map(Table::rows)
        .collect();
    assert!(
        golden.len() >= 40,
        "only {} rows in the ibdNinja golden summary table",
        golden.len()
    );
    for g in &golden {
        let rel = format!("{}/fixtures/{}.ibd", g.get("ver"), g.get("fixture"));
        let label = format!("ibdNinja {rel}");
        let space = open(&ninja(&rel));
        let s = summary(&space);
        let rows = page_rows(&space);
        let stats = index_stats(&rows, &["INDEX"]);
        c.eq(
            &label,
            "space id",
            s["space_id"].as_u64(),
            Some(g.num("space")),
        );
        c.eq(
            &label,
            "pages",
            s["page_count"].as_u64(),
            Some(g.num("pages")),
        );
        c.eq(
            &label,
            "page 4 LSN",
            row_at(&rows, 4).map(|r| r.lsn),
            Some(g.num("page 4 LSN")),
        );
        c.eq(
            &label,
            "page 3 type (SDI root)",
            row_at(&rows, 3).map(|r| r.page_type.as_str()),
            Some("SDI"),
        );
        c.eq(
            &label,
            "page 4 type (clustered root)",
            row_at(&rows, 4).map(|r| r.page_type.as_str()),
            Some("INDEX"),
        );
        // "194@4 PRIMARY, ...": each index's root page has its id and is its top level.
        let mut primary = None;
        for idx in g.get("indexes (id@root name)").split(", ") {
            let (id_root, name) = idx.split_once(' ').expect("id@root name");
            let (id, root) = id_root.split_once('@').expect("id@root");
            let (id, root): (u64, u32) = (
                id.parse().expect("index id"),
                root.parse().expect("root page"),
            );
            if name == "PRIMARY" {
                primary = Some(id);
            }
            let r = row_at(&rows, root);
            c.eq(
                &label,
                &format!("{name} root page {root} index id"),
                r.and_then(|r| r.index_id),
                Some(id),
            );
            let top = stats.get(&id).and_then(|s| s.levels.last().copied());
            c.eq(
                &label,
                &format!("{name} root page {root} is at the top level"),
                r.and_then(|r| r.level),
                top,
            );
        }
        let p = primary
            .and_then(|id| stats.get(&id))
            .cloned()
            .unwrap_or_default();
        c.eq(
            &label,
            "PRIMARY leaf records",
            p.leaf_records,
            g.num("leaf recs"),
        );
        c.eq(
            &label,
            "PRIMARY levels",
            p.levels.len() as u64,
            g.num("levels"),
        );
    }
    // simple_table (all versions): page 4: level 0, 5 records, dir slots 2,
    // heap top 371, n_heap 7, garbage 0, last insert 332, direction 2,
    // n_direction 4.
    // with_deletes: page 4 has 5 records, n_heap 12, first free record at
    // offset 432, garbage 176 bytes.
    for ver in ["8.0", "8.4", "9.0"] {
        let f = page_fields(
            &open(&ninja(&format!("{ver}/fixtures/simple_table.ibd"))),
            4,
        );
        let label = format!("ibdNinja {ver}/fixtures/simple_table.ibd page 4");
        for (name, value) in [
            ("PAGE_LEVEL", 0),
            ("PAGE_N_RECS", 5),
            ("PAGE_N_DIR_SLOTS", 2),
            ("PAGE_HEAP_TOP", 371),
            ("PAGE_N_HEAP", N_HEAP_COMPACT | 7),
            ("PAGE_GARBAGE", 0),
            ("PAGE_LAST_INSERT", 332),
            ("PAGE_DIRECTION", 2),
            ("PAGE_N_DIRECTION", 4),
        ] {
            c.eq(&label, name, f.get(name).copied(), Some(value));
        }
        let f = page_fields(
            &open(&ninja(&format!("{ver}/fixtures/with_deletes.ibd"))),
            4,
        );
        let label = format!("ibdNinja {ver}/fixtures/with_deletes.ibd page 4");
        for (name, value) in [
            ("PAGE_N_RECS", 5),
            ("PAGE_N_HEAP", N_HEAP_COMPACT | 12),
            ("PAGE_FREE", 432),
            ("PAGE_GARBAGE", 176),
        ] {
            c.eq(&label, name, f.get(name).copied(), Some(value));
        }
        // multi_page: PRIMARY index 168 has 2 levels, 12 pages (1 non-leaf,
        // 11 leaves, 500 leaf records).
        let label = format!("ibdNinja {ver}/fixtures/multi_page.ibd");
        let rows = page_rows(&open(&ninja(&format!("{ver}/fixtures/multi_page.ibd"))));
        let s = index_stats(&rows, &["INDEX"])
            .remove(&168)
            .unwrap_or_default();
        c.eq(
            &label,
            "index 168 pages per level",
            s.pages_at_level,
            BTreeMap::from([(0, 11), (1, 1)]),
        );
        c.eq(&label, "index 168 leaf records", s.leaf_records, 500);
    }
    c.finish("ibdninja_golden_summary_table");
}

/// `    Key:    value` lines of an ibdNinja golden output, first occurrence.
fn golden_values(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim().trim_start_matches('[').trim_end_matches(']');
        // `Key: value`, and one `Is compressed page?    0` with no colon.
        if let Some((k, v)) = line.split_once(':').or_else(|| line.split_once('?')) {
            out.entry(k.trim().to_string())
                .or_insert_with(|| v.trim().to_string());
        }
    }
    out
}

/// A golden number: `344064 B` -> 344064, `NULL` -> FIL_NULL.
fn golden_num(v: &BTreeMap<String, String>, key: &str) -> Option<u64> {
    let s = v.get(key)?.trim_end_matches(" B").trim();
    if s == "NULL" {
        Some(FIL_NULL)
    } else {
        s.parse().ok()
    }
}

/// The fixture a golden output is about: `File name: <FIXTURES>/x.ibd`,
/// beside `expected/` in `fixtures/`.
fn golden_fixture(golden: &Path, v: &BTreeMap<String, String>) -> PathBuf {
    let name = v
        .get("File name")
        .and_then(|n| n.strip_prefix("<FIXTURES>/"))
        .unwrap_or_else(|| panic!("{}: no File name line", golden.display()));
    golden
        .parent()
        .and_then(Path::parent)
        .expect("tests/<ver>/expected")
        .join("fixtures")
        .join(name)
}

/// The owner's golden outputs (`expected/*_parse_page_4.txt`,
/// `*_parse_index_N.txt`, `*_leftmost_pages_N.txt`, listed in the MANIFEST
/// as "owner assertions, copied verbatim") against our headers.
#[test]
fn ibdninja_golden_outputs() {
    let dir = root().join("KernelMaker__ibdNinja/tests");
    let mut c = Checks::default();
    let mut n_files = 0;
    // parse_page_4: the file information block and page 4's headers.
    for golden in support::files_below(&dir, "_parse_page_4.txt") {
        n_files += 1;
        let v = golden_values(&std::fs::read_to_string(&golden).expect("golden file"));
        let file = golden_fixture(&golden, &v);
        let label = format!("{} vs {}", rel(&golden), rel(&file));
        let space = open(&file);
        let s = summary(&space);
        let f = page_fields(&space, 4);
        let rows = page_rows(&space);
        let field = |name: &str| f.get(name).copied();
        c.eq(
            &label,
            "File size",
            std::fs::metadata(&file).ok().map(|m| m.len()),
            golden_num(&v, "File size"),
        );
        c.eq(
            &label,
            "Space id",
            s["space_id"].as_u64(),
            golden_num(&v, "Space id"),
        );
        c.eq(
            &label,
            "Page logical size",
            s["page_size"].as_u64(),
            golden_num(&v, "Page logical size"),
        );
        c.eq(
            &label,
            "Page physical size",
            s["physical_page_size"].as_u64(),
            golden_num(&v, "Page physical size"),
        );
        c.eq(
            &label,
            "Total number of pages",
            s["page_count"].as_u64(),
            golden_num(&v, "Total number of pages"),
        );
        c.eq(
            &label,
            "Is compressed page?",
            Some(u64::from(s["flags"]["zip_ssize"].as_u64() != Some(0))),
            golden_num(&v, "Is compressed page"),
        );
        let sdi_root = golden_num(&v, "SDI root page number").and_then(|p| u32::try_from(p).ok());
        let sdi = sdi_root.and_then(|p| row_at(&rows, p));
        c.eq(
            &label,
            "SDI root page (type, index id)",
            sdi.map(|r| (r.page_type.as_str(), r.index_id)),
            Some(("SDI", Some(SDI_INDEX_ID))),
        );
        for (key, flag) in [
            ("Post antelop", "post_antelope"),
            ("Atomic blobs", "atomic_blobs"),
            ("Has data dir", "data_dir"),
            ("Shared", "shared"),
            ("Temporary", "temporary"),
            ("Encryption", "encryption"),
        ] {
            c.eq(
                &label,
                key,
                s["flags"][flag].as_bool().map(u64::from),
                golden_num(&v, key),
            );
        }
        let siblings: Vec<&str> = v
            .get("Slibling pages no")
            .map(|s| s.split_whitespace().collect())
            .unwrap_or_default();
        let sib = |i: usize| {
            siblings.get(i).and_then(|s| {
                if *s == "NULL" {
                    Some(FIL_NULL)
                } else {
                    s.parse().ok()
                }
            })
        };
        c.eq(
            &label,
            "page 4 FIL_PAGE_PREV",
            field("FIL_PAGE_PREV"),
            sib(0),
        );
        c.eq(
            &label,
            "page 4 FIL_PAGE_NEXT",
            field("FIL_PAGE_NEXT"),
            sib(2),
        );
        c.eq(
            &label,
            "page 4 FIL_PAGE_SPACE_ID",
            field("FIL_PAGE_SPACE_ID"),
            golden_num(&v, "Space id"),
        );
        c.eq(
            &label,
            "page 4 type",
            row_at(&rows, 4).map(|r| r.page_type.clone()),
            v.get("Page type").cloned(),
        );
        c.eq(
            &label,
            "page 4 LSN",
            field("FIL_PAGE_LSN"),
            golden_num(&v, "Lsn"),
        );
        c.eq(
            &label,
            "page 4 flush LSN",
            field("FIL_PAGE_FILE_FLUSH_LSN"),
            golden_num(&v, "FLush lsn"),
        );
        c.eq(
            &label,
            "page 4 level",
            field("PAGE_LEVEL"),
            golden_num(&v, "Page level"),
        );
        c.eq(
            &label,
            "page 4 records",
            field("PAGE_N_RECS"),
            golden_num(&v, "Number of records"),
        );
        c.eq(
            &label,
            "page 4 index id",
            field("PAGE_INDEX_ID"),
            golden_num(&v, "Index id"),
        );
        c.eq(
            &label,
            "page 4 dir slots",
            field("PAGE_N_DIR_SLOTS"),
            golden_num(&v, "Number dir slots"),
        );
        c.eq(
            &label,
            "page 4 heap top",
            field("PAGE_HEAP_TOP"),
            golden_num(&v, "Heap top"),
        );
        c.eq(
            &label,
            "page 4 n_heap",
            field("PAGE_N_HEAP").map(|n| n & !N_HEAP_COMPACT),
            golden_num(&v, "Number of heap"),
        );
        c.eq(
            &label,
            "page 4 compact format (Row format)",
            field("PAGE_N_HEAP").map(|n| n & N_HEAP_COMPACT != 0),
            v.get("Row format").map(|f| f != "REDUNDANT"),
        );
        c.eq(
            &label,
            "page 4 first free rec",
            field("PAGE_FREE"),
            golden_num(&v, "First free rec"),
        );
        c.eq(
            &label,
            "page 4 garbage",
            field("PAGE_GARBAGE"),
            golden_num(&v, "Garbage"),
        );
        c.eq(
            &label,
            "page 4 last insert",
            field("PAGE_LAST_INSERT"),
            golden_num(&v, "Last insert"),
        );
        c.eq(
            &label,
            "page 4 direction",
            field("PAGE_DIRECTION"),
            golden_num(&v, "Direction"),
        );
        c.eq(
            &label,
            "page 4 n_direction",
            field("PAGE_N_DIRECTION"),
            golden_num(&v, "Number direction"),
        );
        c.eq(
            &label,
            "page 4 max trx id",
            field("PAGE_MAX_TRX_ID"),
            golden_num(&v, "Max trx id"),
        );
    }
    // parse_index_N: levels, pages per level, records per level.
    for golden in support::files_below(&dir, ".txt")
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("_parse_index_"))
    {
        n_files += 1;
        let text = std::fs::read_to_string(&golden).expect("golden file");
        let v = golden_values(&text);
        let file = golden_fixture(&golden, &v);
        let label = format!("{} vs {}", rel(&golden), rel(&file));
        let space = open(&file);
        let rows = page_rows(&space);
        let id = golden_num(&v, "Index id").expect("Index id");
        let s = index_stats(&rows, &["INDEX"])
            .remove(&id)
            .unwrap_or_default();
        let root = golden_num(&v, "Root page no").and_then(|p| u32::try_from(p).ok());
        let root_row = root.and_then(|p| row_at(&rows, p));
        c.eq(
            &label,
            "root page (index id, level)",
            root_row.map(|r| (r.index_id, r.level)),
            Some((Some(id), s.levels.last().copied())),
        );
        c.eq(
            &label,
            "Num of levels",
            Some(s.levels.len() as u64),
            golden_num(&v, "Num of levels"),
        );
        c.eq(
            &label,
            "Num of pages",
            Some(s.pages_at_level.values().sum()),
            golden_num(&v, "Num of pages"),
        );
        c.eq(
            &label,
            "Leaf pages",
            Some(s.pages_at_level.get(&0).copied().unwrap_or(0)),
            golden_num(&v, "Leaf pages"),
        );
        c.eq(
            &label,
            "Non leaf pages",
            Some(
                s.pages_at_level
                    .iter()
                    .filter(|(l, _)| **l > 0)
                    .map(|(_, n)| n)
                    .sum(),
            ),
            golden_num(&v, "Non leaf pages"),
        );
        // PAGE_N_RECS counts valid and delete-marked records alike.
        let leaf = text
            .split("--------LEAF-LEVEL")
            .nth(1)
            .map(golden_values)
            .unwrap_or_default();
        let leaf_total = golden_num(&leaf, "Total valid records count")
            .zip(golden_num(&leaf, "Total delete-marked records count"))
            .map(|(a, b)| a + b);
        c.eq(
            &label,
            "leaf records (valid + delete-marked)",
            Some(s.leaf_records),
            leaf_total,
        );
    }
    // leftmost_pages_N: "Level L: page P" -> P is a level-L page of index N
    // with no left sibling.
    for golden in support::files_below(&dir, ".txt")
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("_leftmost_pages_"))
    {
        n_files += 1;
        let text = std::fs::read_to_string(&golden).expect("golden file");
        let v = golden_values(&text);
        let file = golden_fixture(&golden, &v);
        let label = format!("{} vs {}", rel(&golden), rel(&file));
        let id: u64 = golden
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.rsplit('_').next())
            .and_then(|s| s.parse().ok())
            .expect("index id in the file name");
        let space = open(&file);
        let rows = page_rows(&space);
        let mut levels = 0;
        for line in text
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("Level "))
        {
            let (level, page) = line
                .strip_prefix("Level ")
                .and_then(|l| l.split_once(": page "))
                .and_then(|(l, p)| Some((l.parse::<u16>().ok()?, p.trim().parse::<u32>().ok()?)))
                .expect("Level L: page P");
            levels += 1;
            c.eq(
                &label,
                &format!("page {page} (index id, level)"),
                row_at(&rows, page).map(|r| (r.index_id, r.level)),
                Some((Some(id), Some(level))),
            );
            c.eq(
                &label,
                &format!("page {page} FIL_PAGE_PREV"),
                page_fields(&space, page).get("FIL_PAGE_PREV").copied(),
                Some(FIL_NULL),
            );
        }
        c.ok(&label, levels > 0, || "no Level lines".into());
    }
    c.ok("ibdNinja", n_files >= 100, || {
        format!("only {n_files} golden files found")
    });
    println!("{n_files} golden files");
    c.finish("ibdninja_golden_outputs");
}

/// idb-utils tests/integration_test.rs and the MANIFEST's note on the
/// compressed files.
#[test]
fn idb_utils_mysql9_files() {
    let mut c = Checks::default();
    let dir = root().join("ringo380__idb-utils/tests/fixtures/mysql9");
    for name in ["mysql90_standard.ibd", "mysql91_standard.ibd"] {
        // page_size 16384, page_count 7, FSP size 7, space_id 2, every
        // non-zero page valid under CRC-32C, page types include FSP_HDR,
        // INODE, SDI, INDEX, vendor MySQL.
        let s = summary(&open(&dir.join(name)));
        c.eq(name, "page_size", s["page_size"].as_u64(), Some(16384));
        c.eq(name, "page_count", s["page_count"].as_u64(), Some(7));
        c.eq(name, "fsp_size", s["fsp_size"].as_u64(), Some(7));
        c.eq(name, "space_id", s["space_id"].as_u64(), Some(2));
        c.eq(
            name,
            "checksum_algorithm",
            s["checksum_algorithm"].as_str(),
            Some("crc32"),
        );
        c.eq(name, "bad_checksums", s["bad_checksums"].as_u64(), Some(0));
        for t in ["FSP_HDR", "INODE", "SDI", "INDEX"] {
            c.ok(
                name,
                s["page_types"][t].as_u64().is_some_and(|n| n > 0),
                || format!("no {t} page"),
            );
        }
        c.eq(name, "vendor", s["vendor"].as_str(), Some("mysql"));
    }
    for name in ["mysql90_compressed.ibd", "mysql91_compressed.ibd"] {
        // space_id 3, FSP flags 0x4029 (zip_ssize 4), every page including
        // page 0 is 8192 bytes, 7 pages, compressed-page CRC-32C.
        let s = summary(&open(&dir.join(name)));
        c.eq(name, "space_id", s["space_id"].as_u64(), Some(3));
        c.eq(name, "flags.raw", s["flags"]["raw"].as_u64(), Some(0x4029));
        c.eq(
            name,
            "flags.zip_ssize",
            s["flags"]["zip_ssize"].as_u64(),
            Some(4),
        );
        c.eq(
            name,
            "physical_page_size",
            s["physical_page_size"].as_u64(),
            Some(8192),
        );
        c.eq(name, "page_count", s["page_count"].as_u64(), Some(7));
        c.eq(
            name,
            "checksum_algorithm",
            s["checksum_algorithm"].as_str(),
            Some("zip_crc32"),
        );
        c.eq(name, "bad_checksums", s["bad_checksums"].as_u64(), Some(0));
    }
    c.finish("idb_utils_mysql9_files");
}

/// inno_space: `test/sbtest1.ibd` (space id 61): PRIMARY index 270 at page 4
/// (20 recs); index 271 (k_1) on two leaf pages 5 and 6 with 20 records
/// each. Read through the CLI's `pages` JSON, whose SDI index id must be
/// u64::MAX.
#[test]
fn inno_space_sbtest1() {
    let file = root().join("baotiao__inno_space/test/sbtest1.ibd");
    let (v, out) = support::run_json([OsStr::new("pages"), file.as_os_str()]);
    assert!(out.status.success(), "pages {} failed", file.display());
    let label = "baotiao__inno_space/test/sbtest1.ibd";
    let mut c = Checks::default();
    let page = |n: u64| {
        v["pages"]
            .as_array()
            .and_then(|p| p.iter().find(|r| r["page"].as_u64() == Some(n)))
            .cloned()
            .unwrap_or_default()
    };
    let idx = |n: u64| {
        let p = page(n);
        (
            p["type"].as_str().map(str::to_string),
            p["index_id"].as_u64(),
            p["level"].as_u64(),
            p["records"].as_u64(),
        )
    };
    c.eq(
        label,
        "page 3 (SDI root)",
        idx(3),
        (Some("SDI".into()), Some(SDI_INDEX_ID), Some(0), Some(2)),
    );
    c.eq(
        label,
        "page 4 (PRIMARY)",
        idx(4),
        (Some("INDEX".into()), Some(270), Some(0), Some(20)),
    );
    c.eq(
        label,
        "page 5 (k_1)",
        idx(5),
        (Some("INDEX".into()), Some(271), Some(0), Some(20)),
    );
    c.eq(
        label,
        "page 6 (k_1)",
        idx(6),
        (Some("INDEX".into()), Some(271), Some(0), Some(20)),
    );
    c.eq(
        label,
        "space id",
        summary(&open(&file))["space_id"].as_u64(),
        Some(61),
    );
    c.finish("inno_space_sbtest1");
}

/// MariaDB facts: mantis_plugin_table.ibd's clustered root page 3 has
/// FIL_PAGE_TYPE 18 = FIL_PAGE_TYPE_INSTANT with 3 records;
/// innodb_index_stats (12.0.2) is a 2-level B-tree of 1 root + 5 leaves.
#[test]
fn mariadb_owner_facts() {
    let mut c = Checks::default();
    let dir = root().join("AIchemist87__mantisbt-docker/mysql");
    let label = "mantisbt mysql/bugtracker/mantis_plugin_table.ibd";
    let space = open(&dir.join("bugtracker/mantis_plugin_table.ibd"));
    let rows = page_rows(&space);
    let p3 = row_at(&rows, 3);
    c.eq(
        label,
        "page 3 FIL_PAGE_TYPE",
        page_fields(&space, 3).get("FIL_PAGE_TYPE").copied(),
        Some(18),
    );
    c.eq(
        label,
        "page 3 type",
        p3.map(|r| r.page_type.as_str()),
        Some("INSTANT"),
    );
    c.eq(label, "page 3 records", p3.and_then(|r| r.records), Some(3));
    c.eq(
        label,
        "vendor",
        summary(&space)["vendor"].as_str(),
        Some("mariadb"),
    );
    let label = "mantisbt mysql/mysql/innodb_index_stats.ibd";
    let rows = page_rows(&open(&dir.join("mysql/innodb_index_stats.ibd")));
    let s = index_stats(&rows, &["INDEX"])
        .remove(&17)
        .unwrap_or_default();
    c.eq(
        label,
        "index 17 pages per level",
        s.pages_at_level,
        BTreeMap::from([(0, 5), (1, 1)]),
    );
    c.eq(label, "index 17 leaf records", s.leaf_records, 249);
    c.finish("mariadb_owner_facts");
}

/// Every listed third-party tablespace through the space-structure reports:
/// every page accounted for exactly once, every segment's owner found from
/// the segment headers the file holds, no finding. The ibdNinja golden
/// table's indexes (id@root) are exactly the indexes whose roots name their
/// segments, beside the SDI index; innodb_ruby's `each_index` on
/// `sakila/compact/sakila/film.ibd` yields 4 indexes.
#[test]
fn space_structure_of_every_file() {
    let m = manifest();
    let mut c = Checks::default();
    let mut files = 0;
    for row in m.ibd_rows() {
        let label = row.label();
        let space = open(&row.file());
        let account = match SpaceAccount::build(&space) {
            Ok(a) => a,
            Err(e) => {
                c.ok(&label, false, || format!("no space map: {e:?}"));
                continue;
            }
        };
        files += 1;
        c.eq(
            &label,
            "pages accounted",
            account.counts.total(),
            u64::from(space.page_count()),
        );
        c.ok(&label, account.findings.is_empty(), || {
            format!("findings: {:?}", account.findings)
        });
        for s in &account.map.segments {
            c.ok(&label, s.owner != SegmentOwner::Unknown, || {
                format!("segment {} has no owner", s.id)
            });
        }
    }
    assert!(files >= 200, "only {files} files accounted");

    let golden: Vec<Row> = m
        .tables
        .iter()
        .filter(|t| t.header.first().is_some_and(|h| h == "ver") && t.has("page 4 LSN"))
        .flat_map(Table::rows)
        .collect();
    assert!(golden.len() >= 40, "only {} golden rows", golden.len());
    for g in &golden {
        let rel = format!("{}/fixtures/{}.ibd", g.get("ver"), g.get("fixture"));
        let label = format!("ibdNinja {rel}");
        let space = open(&ninja(&rel));
        let report = SegmentsReport::new(&space, &SpaceAccount::build(&space).unwrap());
        let ours: BTreeSet<(u64, u32)> = report
            .indexes
            .iter()
            .filter(|r| r.index_id != SDI_INDEX_ID)
            .map(|r| (r.index_id, r.root_page))
            .collect();
        let theirs: BTreeSet<(u64, u32)> = g
            .get("indexes (id@root name)")
            .split(", ")
            .map(|idx| {
                let (id, root) = idx.split(' ').next().unwrap().split_once('@').unwrap();
                (id.parse().unwrap(), root.parse().unwrap())
            })
            .collect();
        // ibdNinja lists the indexes it can parse; it names the ones it skips
        // (spatial, virtual-column and fulltext). A fulltext index keeps its
        // trees in auxiliary tables; every other skipped index has a root here.
        let listing = ninja(&format!(
            "{}/expected/{}_list_tables.txt",
            g.get("ver"),
            g.get("fixture")
        ));
        let skipped = std::fs::read_to_string(&listing)
            .map(|t| {
                t.lines()
                    .filter(|l| l.contains("Skipping loading index") && !l.contains("Fulltext"))
                    .count()
            })
            .unwrap_or(0);
        c.ok(&label, theirs.is_subset(&ours), || {
            format!("golden indexes {theirs:?} are not all among ours {ours:?}")
        });
        c.eq(
            &label,
            "indexes beyond the golden list (skipped by ibdNinja)",
            ours.len() - theirs.len().min(ours.len()),
            skipped,
        );
        c.eq(
            &label,
            "SDI index root",
            report
                .indexes
                .iter()
                .find(|r| r.index_id == SDI_INDEX_ID)
                .map(|r| r.root_page),
            Some(3),
        );
    }

    let film = ruby("sakila/compact/sakila/film.ibd");
    let space = open(&film);
    let report = SegmentsReport::new(&space, &SpaceAccount::build(&space).unwrap());
    c.eq(
        "sakila/compact/sakila/film.ibd",
        "indexes",
        report.indexes.len(),
        4,
    );
    c.finish("space_structure_of_every_file");
}

/// The B+tree walks against the owners' facts: sakila row counts and heights
/// in six server versions (the clustered index is the one with the lowest
/// root page that is no SDI root; every secondary index has one entry per
/// row too), innodb_ruby's empty `t_empty.ibd` root page, and the ibdNinja
/// golden leaf-record counts and levels. No walk finds anything.
#[test]
fn tree_walks_match_the_owners_facts() {
    let tables = SAKILA_TABLES;
    let mut c = Checks::default();
    for dir in ["5.0", "compact", "redundant", "5.7", "8.0", "8.4"] {
        for (table, rows, height) in tables {
            if table == "film_text" && !["5.7", "8.0", "8.4"].contains(&dir) {
                continue;
            }
            let label = format!("sakila/{dir}/sakila/{table}.ibd");
            let space = open(&ruby(&format!("sakila/{dir}/sakila/{table}.ibd")));
            let a = IndexAnalysis::build(&space).unwrap();
            c.ok(&label, a.account.findings.is_empty(), || {
                format!("findings {:?}", a.account.findings)
            });
            let mut user: Vec<_> = a
                .indexes
                .iter()
                .map(|(s, _)| s)
                .filter(|s| s.index_id != SDI_INDEX_ID)
                .collect();
            user.sort_by_key(|s| s.root_page);
            let Some(clustered) = user.first() else {
                c.ok(&label, false, || "no index".into());
                continue;
            };
            c.eq(&label, "clustered records", clustered.records, rows);
            c.eq(&label, "clustered levels", clustered.levels, height as u64);
            for s in &user[1..] {
                // film_text's FULLTEXT index keeps its entries elsewhere; every
                // other secondary index holds one entry per row.
                c.eq(
                    &label,
                    &format!("index {} records", s.index_id),
                    s.records,
                    rows,
                );
            }
        }
    }

    // page/index_spec.rb on t_empty.ibd page 3: an empty root.
    let space = open(&ruby("t_empty.ibd"));
    let a = IndexAnalysis::build(&space).unwrap();
    let (root, _) = a
        .indexes
        .iter()
        .find(|(s, _)| s.root_page == 3)
        .expect("root 3");
    c.eq("t_empty.ibd", "records", root.records, 0);
    c.eq("t_empty.ibd", "levels", root.levels, 1);
    let d = PageDetail::build(&space, 3).unwrap();
    let r = d.records.expect("records of page 3");
    c.eq("t_empty.ibd", "free space", r.space.free_bytes, 16252);
    c.eq("t_empty.ibd", "record space", r.space.data_bytes, 0);
    c.eq("t_empty.ibd", "used space", 16384 - r.space.free_bytes, 132);
    c.eq("t_empty.ibd", "records listed", r.records.len(), 0);

    // ibdNinja golden summary: clustered leaf records and levels.
    let m = manifest();
    for g in m
        .tables
        .iter()
        .filter(|t| t.header.first().is_some_and(|h| h == "ver") && t.has("page 4 LSN"))
        .flat_map(Table::rows)
    {
        let rel = format!("{}/fixtures/{}.ibd", g.get("ver"), g.get("fixture"));
        let label = format!("ibdNinja {rel}");
        let space = open(&ninja(&rel));
        let a = IndexAnalysis::build(&space).unwrap();
        c.ok(&label, a.account.findings.is_empty(), || {
            format!("findings {:?}", a.account.findings)
        });
        let Some((primary, _)) = a.indexes.iter().find(|(s, _)| s.root_page == 4) else {
            c.ok(&label, false, || "no index rooted at page 4".into());
            continue;
        };
        c.eq(
            &label,
            "leaf records",
            primary.records + primary.delete_marked,
            g.num("leaf recs"),
        );
        c.eq(&label, "levels", primary.levels, g.num("levels"));
    }
    c.finish("tree_walks_match_the_owners_facts");
}

/// Every listed third-party tablespace with every index walked from its root
/// (ROW_FORMAT=COMPRESSED pages rebuilt): no page check, sibling chain, node
/// pointer or orphan finding anywhere; and where no freed page keeps old
/// content, each index's leaf records and levels are the MANIFEST's.
#[test]
fn every_file_walks_without_a_finding() {
    let m = manifest();
    let mut c = Checks::default();
    let (mut files, mut compressed, mut stale) = (0, 0, 0);
    for row in m.ibd_rows() {
        let label = row.label();
        let space = open(&row.file());
        let Ok(a) = IndexAnalysis::build(&space) else {
            c.ok(&label, false, || "no space map".into());
            continue;
        };
        files += 1;
        compressed += usize::from(a.indexes.iter().any(|(s, _)| s.compressed.is_some()));
        c.ok(&label, a.account.findings.is_empty(), || {
            format!(
                "findings: {:?}",
                &a.account.findings.kept()[..a.account.findings.kept().len().min(3)]
            )
        });
        // The MANIFEST's header scan: leaf records (PAGE_N_RECS summed over
        // every leaf page of an index id) and levels. It also counts pages the
        // server freed but did not erase, which no tree reaches: compare where
        // the file has none.
        if a.account.counts.free_with_old_content > 0 {
            stale += 1;
            continue;
        }
        for (id, (recs, levels)) in parse_raw_idx(row.get("raw idx leaf recs")) {
            match a.indexes.iter().find(|(s, _)| s.index_id == id) {
                Some((s, _)) => {
                    c.eq(
                        &label,
                        &format!("index {id} leaf records"),
                        s.records + s.delete_marked + s.metadata_records,
                        recs,
                    );
                    c.eq(
                        &label,
                        &format!("index {id} levels"),
                        s.levels as usize,
                        levels,
                    );
                }
                None => c.ok(&label, false, || format!("index {id} not walked")),
            }
        }
    }
    assert!(files >= 200, "only {files} files walked");
    assert!(compressed >= 2, "only {compressed} compressed files walked");
    assert!(
        stale < 20,
        "{stale} files with stale pages: the header-scan check covers too few"
    );
    c.finish("every_file_walks_without_a_finding");
}

/// `sdi` on every MySQL 8.0+ tablespace: every SDI object inflates to JSON
/// whose `mysqld_version_id` is the server version the MANIFEST gives the
/// file; sakila's 8.0 and 8.4 tables are named as their files, with their
/// tablespace `sakila/<table>`; idb-utils' `standard` table is there.
#[test]
fn sdi_of_every_mysql8_file() {
    let m = manifest();
    let mut c = Checks::default();
    let mut files = 0;
    for row in m.ibd_rows() {
        let Some(version) = mysql_version_id(&row) else {
            continue;
        };
        let label = row.label();
        let space = open(&row.file());
        let r = match SdiReport::build(&space) {
            Ok(r) => r,
            Err(e) => {
                c.ok(&label, false, || format!("no SDI: {e:?}"));
                continue;
            }
        };
        files += 1;
        c.ok(&label, r.findings.is_empty(), || {
            format!("findings {:?}", r.findings)
        });
        c.ok(&label, !r.records.is_empty(), || "no SDI object".into());
        // ibdNinja's `ddl_test.ibd` is an upgrade fixture: its table was
        // altered by a newer server than the one that created the file, and
        // its table SDI says so.
        let upgraded = row.get("path").ends_with("ddl_test.ibd");
        for e in &r.records {
            let ours = e.object["mysqld_version_id"].as_u64();
            if upgraded {
                c.ok(&label, ours.is_some_and(|v| v >= version), || {
                    format!(
                        "SDI {} {}: version {ours:?} older than {version}",
                        e.sdi_type, e.id
                    )
                });
            } else {
                c.eq(
                    &label,
                    &format!("SDI {} {} mysqld_version_id", e.sdi_type, e.id),
                    ours,
                    Some(version),
                );
            }
        }
        let path = row.get("path");
        if let Some(table) = path
            .strip_prefix("spec/data/sakila/8.0/sakila/")
            .or_else(|| path.strip_prefix("spec/data/sakila/8.4/sakila/"))
            .and_then(|t| t.strip_suffix(".ibd"))
            .filter(|t| !t.starts_with("fts_"))
        {
            let name = |t: u32| {
                r.records
                    .iter()
                    .find(|e| e.sdi_type == t)
                    .and_then(|e| e.object["dd_object"]["name"].as_str().map(str::to_string))
            };
            c.eq(&label, "table name", name(1), Some(table.to_string()));
            c.eq(
                &label,
                "tablespace name",
                name(2),
                Some(format!("sakila/{table}")),
            );
        }
    }
    assert!(files >= 50, "only {files} MySQL 8.0+ files");
    let standard = support::thirdparty_dir().join("ringo380__idb-utils/tests/fixtures");
    let mut found = false;
    for f in support::files_below(&standard, "standard.ibd") {
        let r = SdiReport::build(&open(&f)).unwrap();
        found |= r
            .records
            .iter()
            .any(|e| e.sdi_type == 1 && e.object["dd_object"]["name"] == "standard");
    }
    c.ok("idb-utils standard.ibd", found, || {
        "no SDI table named standard".into()
    });
    c.finish("sdi_of_every_mysql8_file");
}

/// `records` with the columns of each MySQL 8.0+ file's own SDI: sakila's
/// tables in 8.0 and 8.4 give their row counts and known first rows;
/// ibdNinja's `with_deletes` gives ids 1,3,5,7,9 live and the deleted ids
/// 2,4,6,8,10 back from the page's garbage list; innodb-java-reader's
/// `tb13` gives its 2000 visible rows with the values the test suite
/// inserted, and deleted rows (even ids up to 2000) from garbage lists.
#[test]
fn records_from_the_sdi() {
    use innodb_format::value::column_value::Value;
    let mut c = Checks::default();
    let text = |v: &Value| match v {
        Value::Text(t) => t.clone(),
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        other => format!("{other:?}"),
    };
    let records = |path: &Path, deleted: bool| {
        let space = open(path);
        let schema = Schema::from_sdi(&SdiReport::build(&space).unwrap()).unwrap();
        RecordsReport::build(&space, &schema, None, deleted, None).unwrap()
    };
    let get = |r: &RecordsReport, row: usize, col: &str| {
        let i = r.fields.iter().position(|f| f.name == col).unwrap();
        text(&r.rows[row].values[i])
    };
    for dir in ["8.0", "8.4"] {
        for (table, rows, _) in SAKILA_TABLES {
            let label = format!("sakila/{dir}/sakila/{table}.ibd");
            let r = records(&ruby(&format!("sakila/{dir}/sakila/{table}.ibd")), false);
            c.eq(&label, "rows", r.rows.len() as u64, rows);
            c.ok(&label, r.findings.is_empty(), || {
                format!("findings {:?}", r.findings)
            });
            if table == "staff" {
                // Staff 1's picture: a MySQL 8 LOB (LOB_FIRST + 2 LOB_DATA
                // pages) holding a PNG image of 36,365 bytes.
                let i = r.fields.iter().position(|f| f.name == "picture").unwrap();
                let hex = match &r.rows[0].values[i] {
                    Value::Hex { hex } => hex.clone(),
                    other => format!("{other:?}"),
                };
                c.eq(&label, "picture bytes", hex.len() / 2, 36365);
                c.ok(&label, hex.starts_with("89504E470D0A1A0A"), || {
                    format!("picture starts {}", &hex[..hex.len().min(16)])
                });
                c.ok(&label, hex.ends_with("49454E44AE426082"), || {
                    "the picture does not end with the PNG IEND chunk".into()
                });
            }
            match table {
                "actor" => {
                    c.eq(
                        &label,
                        "first actor",
                        (get(&r, 0, "first_name"), get(&r, 0, "last_name")),
                        ("PENELOPE".into(), "GUINESS".into()),
                    );
                }
                "film" => {
                    c.eq(
                        &label,
                        "film 1 title",
                        get(&r, 0, "title"),
                        "ACADEMY DINOSAUR".into(),
                    );
                    c.eq(&label, "film 1 rating", get(&r, 0, "rating"), "PG".into());
                    c.eq(
                        &label,
                        "film 1 rental_rate",
                        get(&r, 0, "rental_rate"),
                        "0.99".into(),
                    );
                    c.eq(
                        &label,
                        "film 1 replacement_cost",
                        get(&r, 0, "replacement_cost"),
                        "20.99".into(),
                    );
                    c.eq(
                        &label,
                        "film 1 special_features",
                        get(&r, 0, "special_features"),
                        "Deleted Scenes,Behind the Scenes".into(),
                    );
                }
                "customer" => {
                    c.eq(
                        &label,
                        "customer 1",
                        (get(&r, 0, "first_name"), get(&r, 0, "email")),
                        ("MARY".into(), "MARY.SMITH@sakilacustomer.org".into()),
                    );
                }
                _ => {}
            }
        }
    }
    for ver in ["8.0", "8.4", "9.0"] {
        let label = format!("ibdNinja {ver}/with_deletes");
        let r = records(&ninja(&format!("{ver}/fixtures/with_deletes.ibd")), true);
        let mut live = Vec::new();
        let mut gone = Vec::new();
        for (i, row) in r.rows.iter().enumerate() {
            let id = get(&r, i, "id");
            let name = get(&r, i, "name");
            match row.state {
                RowState::Live => live.push((id, name)),
                _ => {
                    // Nothing has reused their bytes, and each ends where
                    // a neighbour begins.
                    c.eq(
                        &label,
                        &format!("confidence of deleted row {id}"),
                        row.confidence,
                        Some(innodb_analysis::rows::records::Confidence::High),
                    );
                    gone.push((id, name))
                }
            }
        }
        c.eq(
            &label,
            "live rows",
            live,
            [1, 3, 5, 7, 9]
                .iter()
                .map(|i| (i.to_string(), format!("Keep{i}")))
                .collect::<Vec<_>>(),
        );
        gone.sort_by_key(|(id, _)| id.parse::<u32>().unwrap_or(0));
        c.eq(
            &label,
            "deleted rows read back",
            gone,
            [2, 4, 6, 8, 10]
                .iter()
                .map(|i| (i.to_string(), format!("Delete{i}")))
                .collect::<Vec<_>>(),
        );
    }
    let r = records(&java("mysql80/deletion/tb13.ibd"), true);
    let label = "java-reader mysql80/deletion/tb13.ibd";
    let (mut live, mut recovered, mut wrong) = (0, 0, Vec::new());
    for (i, row) in r.rows.iter().enumerate() {
        let id: u64 = get(&r, i, "id").parse().unwrap();
        let a: u64 = get(&r, i, "a").parse().unwrap();
        let (b, cc) = (get(&r, i, "b"), get(&r, i, "c"));
        let tail = char::from(b'a' + (id % 26) as u8);
        let ok = if id <= 2000 {
            a == 2 * id && b == "A".repeat(16) && cc == format!("{}{tail}", "C".repeat(8))
        } else {
            a == 5 * id && b == "我".repeat(8) && cc == format!("{}{tail}", "你".repeat(4))
        };
        if !ok {
            wrong.push(format!("id {id}: a {a} b {b:?} c {cc:?}"));
        }
        match row.state {
            RowState::Live => live += 1,
            _ => {
                recovered += 1;
                if id > 2000 || !id.is_multiple_of(2) {
                    wrong.push(format!("deleted row {id} was never deleted"));
                }
                if row.confidence != Some(innodb_analysis::rows::records::Confidence::High) {
                    wrong.push(format!("deleted row {id}: confidence {:?}", row.confidence));
                }
            }
        }
    }
    c.eq(label, "visible rows", live, 2000);
    c.ok(label, wrong.is_empty(), || {
        wrong[..wrong.len().min(5)].join("; ")
    });
    c.eq(label, "deleted rows read back", recovered, 44);
    c.finish("records_from_the_sdi");
}

/// The fields of each record in one of ibdNinja's golden
/// `*_parse_page_4_records.txt` files: per row, field name and its bytes
/// ([`Golden`]).
#[derive(Debug, Clone, PartialEq)]
enum Golden {
    Bytes(Vec<u8>),
    Null,
    Default,
}

fn ninja_golden_rows(path: &Path) -> Vec<Vec<(String, Golden)>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut rows: Vec<Vec<(String, Golden)>> = Vec::new();
    let mut name = None;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with("[ROW ") {
            rows.push(Vec::new());
        } else if let Some(n) = l
            .strip_prefix("[FIELD")
            .and_then(|r| r.split_once("Name  : "))
        {
            name = Some(n.1.trim().to_string());
        } else if let Some(v) = l.strip_prefix("Value : ") {
            let Some(n) = name.take() else { continue };
            let g = match v.trim() {
                "*NULL*" => Golden::Null,
                "*DEFAULT*" => Golden::Default,
                hex => Golden::Bytes(
                    hex.split_whitespace()
                        .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
                        .collect(),
                ),
            };
            if let Some(r) = rows.last_mut() {
                r.push((n, g));
            }
        }
    }
    rows
}

/// MySQL 8.0.29+ INSTANT ADD/DROP COLUMN in ibdNinja's `instant_add_col`
/// and `instant_add_drop` tables (MySQL 8.0.40, 8.4.8, 9.6.0): every field of
/// every record is what ibdNinja's golden page dump shows — the same bytes
/// for stored fields, the instant default for rows older than an ADD, NULL
/// for rows newer than a DROP — with records of row versions 0, 1, 2 and 4,
/// and the dropped columns' old values kept.
#[test]
fn instant_columns_decode_by_row_version() {
    use innodb_format::value::column_value::{decode, Value};
    let mut c = Checks::default();
    for dir in ["8.0", "8.4", "9.0"] {
        for table in ["instant_add_col", "instant_add_drop"] {
            let label = format!("ibdNinja {dir}/{table}");
            let space = open(&ninja(&format!("{dir}/fixtures/{table}.ibd")));
            let schema = Schema::from_sdi(&SdiReport::build(&space).unwrap()).unwrap();
            let r = RecordsReport::build(&space, &schema, None, false, None).unwrap();
            c.ok(&label, r.findings.is_empty(), || {
                format!("{:?}", r.findings)
            });
            let golden = ninja_golden_rows(&ninja(&format!(
                "{dir}/expected/{table}_parse_page_4_records.txt"
            )));
            c.eq(&label, "rows", r.rows.len(), golden.len());
            for (i, (row, want)) in r.rows.iter().zip(&golden).enumerate() {
                let names: Vec<&str> = want.iter().map(|(n, _)| n.as_str()).collect();
                let ours: Vec<&str> = r.fields.iter().map(|f| f.name.as_str()).collect();
                c.eq(&label, "field names", ours, names);
                for ((f, v), (name, g)) in r.fields.iter().zip(&row.values).zip(want) {
                    let expected = match g {
                        Golden::Null => Value::Null,
                        Golden::Default => match &f.instant.default {
                            Some(d) => decode(&f.column_type, d),
                            None => Value::Null,
                        },
                        Golden::Bytes(b) if f.name.starts_with("DB_") => {
                            Value::UInt(b.iter().fold(0, |a, &x| (a << 8) | u64::from(x)))
                        }
                        Golden::Bytes(b) => decode(&f.column_type, b),
                    };
                    c.eq(&label, &format!("row {} {name}", i + 1), v, &expected);
                }
            }
        }
    }
    assert!(c.checked > 100, "{} checks: {:?}", c.checked, c.problems);
    c.finish("instant_columns_decode_by_row_version");
}

/// Runs `records FILE --ddl <sql> --format json [extra…]` and gives the
/// rows (`row` objects), the findings and the standard error.
fn records_with_ddl(file: &Path, sql: &str, extra: &[&str]) -> (Vec<Value>, Vec<Value>, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let ddl = dir.path().join("table.sql");
    std::fs::write(&ddl, sql).expect("write DDL");
    let mut args: Vec<&OsStr> = vec![
        "--format".as_ref(),
        "json".as_ref(),
        "records".as_ref(),
        file.as_os_str(),
        "--ddl".as_ref(),
        ddl.as_os_str(),
    ];
    args.extend(extra.iter().map(OsStr::new));
    let out = support::run(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (mut rows, mut findings) = (Vec::new(), Vec::new());
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: Value = serde_json::from_str(line).expect("a JSON line");
        if let Some(r) = v.get("row") {
            rows.push(r.clone());
        } else if let Some(f) = v.get("finding") {
            findings.push(f.clone());
        }
    }
    (
        rows,
        findings,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// innodb_ruby's typed tables read with `--ddl` statements written from its
/// record describers: `t_numeric_types` gives the six rows of
/// numeric_types_spec.rb (zero, minus one, one, minimum, maximum, random
/// values of every integer, float, DECIMAL and BIT type); `t_date_and_time_types`
/// the four rows of date_and_time_types_spec.rb, found to be in the temporal
/// storage format of MySQL before 5.6.4 (the newer reading does not fit and
/// the tool says so); `t_record_describer` its 210 records with the min
/// record of record_describer_spec.rb (a 16,384-byte BLOB, 768 bytes in the
/// record and the rest off-page), and 210 in its secondary index;
/// `hello_world` its two rows in both indexes.
#[test]
fn innodb_ruby_tables_read_with_their_ddl() {
    let mut c = Checks::default();
    let num = |v: &Value| {
        v.as_f64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
    };
    let (rows, findings, _) = records_with_ddl(
        &ruby("t_numeric_types.ibd"),
        "CREATE TABLE t_numeric_types (c01 INT UNSIGNED NOT NULL, c02 TINYINT, \
         c03 TINYINT UNSIGNED, c04 SMALLINT, c05 SMALLINT UNSIGNED, c06 MEDIUMINT, \
         c07 MEDIUMINT UNSIGNED, c08 INT, c09 INT UNSIGNED, c10 BIGINT, c11 BIGINT UNSIGNED, \
         c12 FLOAT, c13 FLOAT UNSIGNED, c14 DOUBLE, c15 DOUBLE UNSIGNED, c16 DECIMAL(10,0), \
         c17 DECIMAL(10,0) UNSIGNED, c18 DECIMAL(65,0), c19 DECIMAL(35,30), c20 BIT, \
         c21 BIT(32), c22 BIT(64), PRIMARY KEY (c01))",
        &[],
    );
    c.ok("t_numeric_types", findings.is_empty(), || {
        format!("{findings:?}")
    });
    // numeric_types_spec.rb's rows; BIT values as numbers, DECIMALs as text.
    let expected: [[&str; 21]; 6] = [
        [
            "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",
            "0", "0", "0", "0",
        ],
        [
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "-1",
            "1",
            "4294967295",
            "18446744073709551615",
        ],
        [
            "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1",
            "1", "1", "1", "1",
        ],
        [
            "-128",
            "0",
            "-32768",
            "0",
            "-8388608",
            "0",
            "-2147483648",
            "0",
            "-9223372036854775808",
            "0",
            "-1.1754943508222875e-38",
            "0",
            "-2.2250738585072014e-208",
            "0",
            "-9999999999",
            "0",
            "-99999999999999999999999999999999999999999999999999999999999999999",
            "-99999.999999999999999999999999999999",
            "0",
            "0",
            "0",
        ],
        [
            "127",
            "255",
            "32767",
            "65535",
            "8388607",
            "16777215",
            "2147483647",
            "4294967295",
            "9223372036854775807",
            "18446744073709551615",
            "3.4028234663852886e+38",
            "3.4028234663852886e+38",
            "1.7976931348623157e+308",
            "1.7976931348623157e+308",
            "9999999999",
            "9999999999",
            "99999999999999999999999999999999999999999999999999999999999999999",
            "99999.999999999999999999999999999999",
            "1",
            "4294967295",
            "18446744073709551615",
        ],
        [
            "-92",
            "216",
            "-21244",
            "37375",
            "-2029076",
            "13161062",
            "-561256167",
            "2859565307",
            "-2989164089322500559",
            "4909805763357741578",
            "8.007314291015967e+37",
            "2.3826953364781035e+38",
            "-1.0024988592301854e+308",
            "3.8077578553713446e+307",
            "-2118290683",
            "7554694345",
            "36896958284301606307227443682014665342058559023876912710455539626",
            "59908.987290718443144993967601373349",
            "0",
            "1882703476",
            "10559002278153011522",
        ],
    ];
    c.eq("t_numeric_types", "rows", rows.len(), 6);
    for (i, (row, want)) in rows.iter().zip(&expected).enumerate() {
        for (k, w) in want.iter().enumerate() {
            let col = format!("c{:02}", k + 2);
            let ours = &row[&col];
            let ok = match (k, ours) {
                // FLOAT: the same 4-byte float (the spec gives its exact
                // double image, we its shortest digits); DOUBLE: the same
                // number (serde_json's parser may be one unit in the last
                // place off).
                (10..=13, v) => num(v).zip(w.parse::<f64>().ok()).is_some_and(|(a, b)| {
                    let tolerance = if k <= 11 { 1e-7 } else { 1e-15 };
                    (a - b).abs() <= b.abs() * tolerance
                }),
                // DECIMAL(35,30) prints its 30 digits of scale.
                (17, Value::String(s)) => {
                    s.parse::<f64>().ok() == w.parse::<f64>().ok()
                        && s.starts_with(w.trim_end_matches(".0"))
                }
                (_, Value::String(s)) => s == w,
                (_, v) => serde_json::from_str::<Value>(w).ok().as_ref() == Some(v),
            };
            c.ok("t_numeric_types", ok, || {
                format!("row {i} {col}: ours {ours}, spec {w}")
            });
        }
    }

    let (rows, findings, stderr) = records_with_ddl(
        &ruby("t_date_and_time_types.ibd"),
        "CREATE TABLE t_date_and_time_types (c01 INT NOT NULL, c02 YEAR, c03 TIME, c04 DATE, \
         c05 DATETIME, c06 TIMESTAMP, PRIMARY KEY (c01))",
        &[],
    );
    c.ok("t_date_and_time_types", findings.is_empty(), || {
        format!("{findings:?}")
    });
    c.ok(
        "t_date_and_time_types",
        stderr.contains("before 5.6.4"),
        || stderr.clone(),
    );
    let expected = [
        [
            "0000",
            "00:00:00",
            "0000-00-00",
            "0000-00-00 00:00:00",
            "0000-00-00 00:00:00",
        ],
        [
            "1901",
            "-838:59:59",
            "1000-01-01",
            "1000-01-01 00:00:00",
            "1970-01-01 00:00:01",
        ],
        [
            "2155",
            "838:59:59",
            "9999-12-31",
            "9999-12-31 23:59:59",
            "2038-01-19 03:14:07",
        ],
        [
            "2153",
            "20:47:10",
            "3275-11-07",
            "5172-01-24 13:36:22",
            "1985-03-16 18:35:56",
        ],
    ];
    c.eq("t_date_and_time_types", "rows", rows.len(), 4);
    for (i, (row, want)) in rows.iter().zip(&expected).enumerate() {
        let ours: Vec<String> = ["c02", "c03", "c04", "c05", "c06"]
            .iter()
            .map(|k| match &row[*k] {
                Value::String(s) => s.clone(),
                // YEAR is a number; 0 is the zero year.
                v => format!("{:04}", v.as_u64().unwrap_or(u64::MAX)),
            })
            .collect();
        c.eq(
            "t_date_and_time_types",
            &format!("row {i}"),
            ours,
            want.map(String::from).to_vec(),
        );
    }

    let describer = "CREATE TABLE t_record_describer (c1 BIGINT UNSIGNED NOT NULL, c2 INT, \
         c3 VARCHAR(64), c4 INT NOT NULL, c5 VARCHAR(128) NOT NULL, c6 MEDIUMINT UNSIGNED, \
         c7 VARBINARY(512), c8 BIGINT UNSIGNED, c9 BLOB, PRIMARY KEY (c1, c4), KEY k (c6, c8)) \
         DEFAULT CHARSET=latin1";
    let (rows, findings, _) = records_with_ddl(&ruby("t_record_describer.ibd"), describer, &[]);
    c.ok("t_record_describer", findings.is_empty(), || {
        format!("{findings:?}")
    });
    c.eq("t_record_describer", "rows", rows.len(), 210);
    if let Some(r) = rows.first() {
        let blob = r["c9"]["hex"].as_str().unwrap_or("");
        c.eq(
            "t_record_describer",
            "min record",
            (
                r["c1"].clone(),
                r["c4"].clone(),
                r["DB_TRX_ID"].clone(),
                r["c2"].clone(),
                r["c3"].clone(),
                r["c5"].clone(),
                r["c6"].clone(),
                r["c7"].clone(),
                r["c8"].clone(),
            ),
            (
                1.into(),
                1.into(),
                2305.into(),
                (-1).into(),
                "1".repeat(64).into(),
                "1".repeat(128).into(),
                1.into(),
                Value::Null,
                1.into(),
            ),
        );
        // 768 bytes in the record + 15,616 off-page ("16384 - 768"), all '1'.
        c.ok(
            "t_record_describer",
            blob.len() == 2 * 16384
                && blob
                    .chars()
                    .collect::<Vec<_>>()
                    .chunks(2)
                    .all(|p| p == ['3', '1']),
            || format!("c9 is {} hex digits", blob.len()),
        );
    }
    let (rows, findings, _) = records_with_ddl(
        &ruby("t_record_describer.ibd"),
        describer,
        &["--index", "k"],
    );
    c.ok("t_record_describer k", findings.is_empty(), || {
        format!("{findings:?}")
    });
    c.eq("t_record_describer k", "rows", rows.len(), 210);
    if let Some(r) = rows.first() {
        c.eq(
            "t_record_describer k",
            "first",
            (
                r["c6"].clone(),
                r["c8"].clone(),
                r["c1"].clone(),
                r["c4"].clone(),
            ),
            (1.into(), 1.into(), 1.into(), 1.into()),
        );
    }

    let hello = "CREATE TABLE hello_world (id INT NOT NULL, message VARCHAR(100) NOT NULL, \
         author VARCHAR(100) NOT NULL, PRIMARY KEY (id), KEY message (message)) \
         ENGINE=InnoDB DEFAULT CHARSET=latin1";
    for index in ["PRIMARY", "message"] {
        let (rows, findings, _) =
            records_with_ddl(&ruby("hello_world.ibd"), hello, &["--index", index]);
        c.ok("hello_world", findings.is_empty(), || {
            format!("{findings:?}")
        });
        let got: Vec<(Value, Value)> = rows
            .iter()
            .map(|r| (r["id"].clone(), r["message"].clone()))
            .collect();
        c.eq(
            "hello_world",
            index,
            got,
            vec![(1.into(), "Hello".into()), (2.into(), "World".into())],
        );
        if index == "PRIMARY" {
            let authors: Vec<Value> = rows.iter().map(|r| r["author"].clone()).collect();
            c.eq(
                "hello_world",
                "authors",
                authors,
                vec!["Jack".into(), "Jill".into()],
            );
        }
    }
    assert!(c.checked >= 147, "{} checks", c.checked);
    c.finish("innodb_ruby_tables_read_with_their_ddl");
}

/// A `CREATE TABLE` that does not describe the file is said to be wrong —
/// a finding at the head of the output and a warning on stderr — rather
/// than giving quietly wrong values: hello_world read with other columns,
/// t_numeric_types read with date columns.
#[test]
fn a_ddl_that_does_not_fit_is_said_to_be_wrong() {
    for (file, sql) in [
        (
            "hello_world.ibd",
            "CREATE TABLE hello_world (id INT NOT NULL, message CHAR(10) NOT NULL, n BIGINT, PRIMARY KEY (id))",
        ),
        (
            "t_numeric_types.ibd",
            "CREATE TABLE t (c01 INT UNSIGNED NOT NULL, c02 DATE, c03 VARCHAR(10), c04 DOUBLE, PRIMARY KEY (c01))",
        ),
    ] {
        let (_, findings, stderr) = records_with_ddl(&ruby(file), sql, &[]);
        let first = findings.first().and_then(|f| f["message"].as_str()).unwrap_or("");
        assert!(first.starts_with("the schema does not fit the records"), "{file}: {findings:?}");
        assert!(stderr.contains("the schema does not fit the records"), "{file}: {stderr}");
    }
}

/// Every MySQL 8.0+ file's clustered index read with the columns of its own
/// SDI fits its records: each record ends where the next one begins. This
/// holds only with the columns the SDI leaves out of the index elements
/// (a FULLTEXT table's hidden `FTS_DOC_ID`; the system columns and
/// `nullable=1` keys of InnoDB's FULLTEXT auxiliary tables) and with every
/// INSTANT row version read as such.
#[test]
fn every_sdi_schema_fits_its_records() {
    let m = manifest();
    let mut c = Checks::default();
    let mut fitted_pairs = 0;
    for row in m.ibd_rows() {
        if mysql_version_id(&row).is_none() {
            continue;
        }
        let label = row.label();
        let space = open(&row.file());
        let Some(schema) = SdiReport::build(&space)
            .ok()
            .and_then(|s| Schema::from_sdi(&s))
        else {
            c.ok(&label, false, || "no schema from the SDI".into());
            continue;
        };
        let r = match RecordsReport::build(&space, &schema, None, false, None) {
            Ok(r) => r,
            Err(e) => {
                c.ok(&label, false, || format!("{e:?}"));
                continue;
            }
        };
        c.ok(&label, r.layout.fits() && r.layout.unreadable == 0, || {
            format!("{:?}", r.layout)
        });
        fitted_pairs += r.layout.fitting_pairs;
    }
    assert!(
        fitted_pairs > 10_000,
        "{fitted_pairs} neighbouring records fitted"
    );
    c.finish("every_sdi_schema_fits_its_records");
}

/// MySQL 8 LOBs and binary JSON in ibdNinja's files (8.0.40, 8.4.8,
/// 9.6.0): each of the five off-page values of `blob_external` has the length
/// and the first bytes ibdNinja's golden page dump shows for it, and the
/// JSON documents of `json_partial` and `json_partial_large` (off-page,
/// partially updated) are, as JSON, the documents its golden
/// `*_inspect_*_current.txt` files print.
#[test]
fn mysql8_lobs_and_json_documents() {
    use innodb_format::value::column_value::Value as Cv;
    let mut c = Checks::default();
    for dir in ["8.0", "8.4", "9.0"] {
        // Golden: per row, the LOBs by field: (total bytes, first bytes).
        let text = std::fs::read_to_string(ninja(&format!(
            "{dir}/expected/blob_external_parse_page_4_records.txt"
        )))
        .unwrap();
        let mut golden: Vec<BTreeMap<String, (usize, Vec<u8>)>> = Vec::new();
        let (mut field, mut in_lob) = (String::new(), false);
        for line in text.lines().map(str::trim) {
            let is_hex = |l: &str| {
                !l.is_empty()
                    && l.split(' ')
                        .all(|b| b.len() == 2 && u8::from_str_radix(b, 16).is_ok())
            };
            if line.starts_with("[ROW ") {
                golden.push(BTreeMap::new());
            } else if let Some((_, name)) = line.split_once("Name  : ") {
                field = name.trim().to_string();
                in_lob = false;
            } else if let Some(rest) = line.strip_prefix("[LOB DATA (hex, ") {
                let total = rest.split(' ').next().and_then(|n| n.parse().ok()).unwrap();
                if let Some(g) = golden.last_mut() {
                    g.insert(field.clone(), (total, Vec::new()));
                }
                in_lob = true;
            } else if in_lob && is_hex(line) {
                if let Some((_, head)) = golden.last_mut().and_then(|g| g.get_mut(&field)) {
                    head.extend(line.split(' ').map(|b| u8::from_str_radix(b, 16).unwrap()));
                }
            } else {
                in_lob = false;
            }
        }
        let label = format!("ibdNinja {dir}/blob_external");
        let space = open(&ninja(&format!("{dir}/fixtures/blob_external.ibd")));
        let schema = Schema::from_sdi(&SdiReport::build(&space).unwrap()).unwrap();
        let r = RecordsReport::build(&space, &schema, None, false, None).unwrap();
        c.ok(&label, r.findings.is_empty(), || {
            format!("{:?}", r.findings)
        });
        c.eq(&label, "rows", r.rows.len(), golden.len());
        let mut lobs = 0;
        for (i, (row, g)) in r.rows.iter().zip(&golden).enumerate() {
            for (name, (total, head)) in g {
                lobs += 1;
                let f = r.fields.iter().position(|f| &f.name == name).unwrap();
                let ours: Vec<u8> = match &row.values[f] {
                    Cv::Hex { hex } => (0..hex.len() / 2)
                        .map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).unwrap())
                        .collect(),
                    Cv::Text(t) => t.as_bytes().to_vec(),
                    other => panic!("{label} row {i} {name}: {other:?}"),
                };
                c.eq(
                    &label,
                    &format!("row {i} {name} length"),
                    ours.len(),
                    *total,
                );
                c.ok(&label, !head.is_empty() && ours.starts_with(head), || {
                    format!(
                        "row {i} {name}: does not start with the golden {} bytes",
                        head.len()
                    )
                });
            }
        }
        c.eq(&label, "LOBs", lobs, 5);

        for (table, docs) in [
            (
                "json_partial",
                vec![("doc1", "doc1_current"), ("doc2", "doc2_current")],
            ),
            ("json_partial_large", vec![("doc", "current")]),
        ] {
            let label = format!("ibdNinja {dir}/{table}");
            let space = open(&ninja(&format!("{dir}/fixtures/{table}.ibd")));
            let schema = Schema::from_sdi(&SdiReport::build(&space).unwrap()).unwrap();
            let r = RecordsReport::build(&space, &schema, None, false, None).unwrap();
            c.ok(&label, r.findings.is_empty(), || {
                format!("{:?}", r.findings)
            });
            for (column, golden) in docs {
                let Some(i) = r.fields.iter().position(|f| f.name == column) else {
                    c.ok(&label, false, || {
                        format!(
                            "no column {column}: {:?}",
                            r.fields.iter().map(|f| &f.name).collect::<Vec<_>>()
                        )
                    });
                    continue;
                };
                let want: Value = serde_json::from_str(
                    &std::fs::read_to_string(ninja(&format!(
                        "{dir}/expected/{table}_inspect_{golden}.txt"
                    )))
                    .unwrap(),
                )
                .unwrap();
                let ours = match r.rows.first().map(|row| &row.values[i]) {
                    Some(Cv::Text(t)) => serde_json::from_str::<Value>(t).ok(),
                    _ => None,
                };
                c.ok(&label, ours.as_ref() == Some(&want), || {
                    format!("{column} is not the golden document")
                });
            }
        }
    }
    c.finish("mysql8_lobs_and_json_documents");
}

/// A `CREATE TABLE` statement for a sakila table, written from the table's
/// definition in the MySQL 8.0 copy's SDI (`column_type_utf8`, nullability,
/// keys), with the older servers' default character set.
fn sakila_ddl(table: &str, dir: &str) -> String {
    let space = open(&ruby(&format!("sakila/8.0/sakila/{table}.ibd")));
    let sdi = SdiReport::build(&space).expect("the 8.0 SDI");
    let t = &sdi
        .records
        .iter()
        .find(|e| e.sdi_type == 1)
        .expect("the 8.0 SDI")
        .object["dd_object"];
    let columns = t["columns"].as_array().expect("the 8.0 SDI");
    // `address.location` (GEOMETRY, with its SPATIAL key) came with the
    // sakila of MySQL 5.7; the older copies do not have it.
    let in_version = |name: &str| dir == "5.7" || name != "location";
    let mut parts: Vec<String> = columns
        .iter()
        .filter(|c| c["hidden"] == 1 && in_version(c["name"].as_str().expect("the 8.0 SDI")))
        .map(|c| {
            format!(
                "`{}` {}{}",
                c["name"].as_str().expect("the 8.0 SDI"),
                c["column_type_utf8"].as_str().expect("the 8.0 SDI"),
                if c["is_nullable"] == false {
                    " NOT NULL"
                } else {
                    ""
                }
            )
        })
        .collect();
    for i in t["indexes"].as_array().expect("the 8.0 SDI") {
        let cols: Vec<String> = i["elements"]
            .as_array()
            .expect("the 8.0 SDI")
            .iter()
            .filter(|e| e["hidden"] == false)
            .map(|e| {
                format!(
                    "`{}`",
                    columns[e["column_opx"].as_u64().expect("the 8.0 SDI") as usize]["name"]
                        .as_str()
                        .expect("the 8.0 SDI")
                )
            })
            .collect();
        // Hidden indexes (FTS_DOC_ID_INDEX) are not declared.
        if cols.is_empty()
            || i["hidden"] == true
            || !cols.iter().all(|c| in_version(c.trim_matches('`')))
        {
            continue;
        }
        // dd::Index types: 1 PRIMARY, 2 UNIQUE, 3 MULTIPLE, 4 FULLTEXT, 5 SPATIAL.
        let kind = match i["type"].as_u64() {
            Some(4) => "FULLTEXT KEY",
            Some(5) => "SPATIAL KEY",
            _ => "KEY",
        };
        match i["name"].as_str().expect("the 8.0 SDI") {
            "PRIMARY" => parts.push(format!("PRIMARY KEY ({})", cols.join(", "))),
            name => parts.push(format!("{kind} `{name}` ({})", cols.join(", "))),
        }
    }
    format!(
        "CREATE TABLE `{table}` ({}) ENGINE=InnoDB DEFAULT CHARSET=utf8",
        parts.join(", ")
    )
}

/// Sakila in MySQL 5.0, 5.6 (COMPACT and REDUNDANT) and 5.7, whose
/// dictionary (ibdata1) is not in the snapshot, read with `--ddl`
/// statements written from the 8.0 copy's SDI: every table's row count, no
/// finding (so the records fit the statement, in every row format and both
/// temporal formats), the known first rows of actor, film and customer, and
/// staff 1's picture. The 5.7 `film_text` has the hidden FTS_DOC_ID its
/// FULLTEXT key brings; the older `address` has no `location` yet.
#[test]
fn sakila_of_older_servers_read_with_ddl() {
    let mut c = Checks::default();
    for dir in ["5.0", "compact", "redundant", "5.7"] {
        for (table, rows_expected, _) in SAKILA_TABLES {
            if table == "film_text" && dir != "5.7" {
                continue;
            }
            let label = format!("sakila/{dir}/{table}");
            let (rows, findings, _) = records_with_ddl(
                &ruby(&format!("sakila/{dir}/sakila/{table}.ibd")),
                &sakila_ddl(table, dir),
                &[],
            );
            c.eq(&label, "rows", rows.len() as u64, rows_expected);
            c.ok(&label, findings.is_empty(), || format!("{findings:?}"));
            let Some(first) = rows.first() else { continue };
            let get = |k: &str| {
                first[k]
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| first[k].to_string())
            };
            match table {
                "actor" => c.eq(
                    &label,
                    "actor 1",
                    (get("actor_id"), get("first_name"), get("last_name")),
                    ("1".into(), "PENELOPE".into(), "GUINESS".into()),
                ),
                "film" => c.eq(
                    &label,
                    "film 1",
                    (
                        get("title"),
                        get("rating"),
                        get("rental_rate"),
                        get("replacement_cost"),
                        get("special_features"),
                    ),
                    (
                        "ACADEMY DINOSAUR".into(),
                        "PG".into(),
                        "0.99".into(),
                        "20.99".into(),
                        "Deleted Scenes,Behind the Scenes".into(),
                    ),
                ),
                "customer" => c.eq(
                    &label,
                    "customer 1",
                    (get("first_name"), get("last_name"), get("email")),
                    (
                        "MARY".into(),
                        "SMITH".into(),
                        "MARY.SMITH@sakilacustomer.org".into(),
                    ),
                ),
                // The same 36,365-byte PNG as in 8.0: a BLOB chain (untyped
                // pages in 5.0) instead of a LOB.
                "staff" => c.eq(
                    &label,
                    "picture",
                    first["picture"]["hex"]
                        .as_str()
                        .map(|h| (h.len() / 2, h[..16].to_string())),
                    Some((36365, "89504E470D0A1A0A".to_string())),
                ),
                _ => {}
            }
        }
    }
    c.finish("sakila_of_older_servers_read_with_ddl");
}

/// The index roots found by reading the index pages alone (what `records
/// --ddl` falls back on when page 0 is lost) are the roots the file's own
/// segments name, on every third-party file: MySQL 5.0 to 9.x and MariaDB,
/// every page size and row format, the SDI index of MySQL 8.0+ included.
#[test]
fn index_roots_found_by_scanning_match_the_segments() {
    let m = manifest();
    let mut c = Checks::default();
    let (mut files, mut roots) = (0, 0);
    for row in m.ibd_rows() {
        let label = row.label();
        let space = open(&row.file());
        let Ok(map) = innodb_space::SpaceMap::read(&space) else {
            continue;
        };
        let named = map.index_roots();
        let scanned = innodb_space::index_roots::index_roots_by_scan(&space);
        c.ok(&label, scanned == named, || {
            format!("scanned {scanned:?}, segments name {named:?}")
        });
        files += 1;
        roots += named.len();
    }
    c.finish("index_roots_found_by_scanning_match_the_segments");
    assert!(
        files >= 200 && roots >= 300,
        "only {files} files, {roots} roots compared"
    );
}

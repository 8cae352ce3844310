//! Hostile and damaged input: empty, truncated, random and corrupted files,
//! nonsense options, unreadable paths. The tool must never panic or hang,
//! must always say which file, page and field are wrong, and must never
//! modify its input.
//!
//! The base files are real tablespaces from `../shared/thirdparty/`; each test
//! copies them into a temporary directory and damages the copy. Without that
//! directory (a fresh clone) the tests that need them are skipped, saying so
//! (see `support::thirdparty`). Every run of
//! the binary goes through [`inspect`], which also checks on every run that
//! the tool neither panicked, hung nor died from a signal, that the input files
//! are byte-for-byte unchanged (and keep their mtime), that no file appeared
//! beside them, and that nothing was left in its `TMPDIR`.
//!
//! Each test collects every failed expectation (over all base files and
//! cases) before failing, so one run shows the whole picture.

// In tests a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use serde_json::Value;
use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};
use tempfile::TempDir;

// ---------------------------------------------------------------------------
// Base files
// ---------------------------------------------------------------------------

/// Checksum layout of a base file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Classic pages, CRC-32C checksums (MySQL 5.7+, MariaDB ≤ 10.3).
    Crc32,
    /// MariaDB full_crc32.
    FullCrc32,
    /// ROW_FORMAT=COMPRESSED: every page is a zip page, no trailer.
    Zip,
    /// Classic pages, legacy `innodb` fold checksums (MySQL 5.x).
    Innodb,
}

/// A real tablespace and what is known about it.
#[derive(Debug, Clone, Copy)]
struct Base {
    /// Short name used for the copies.
    name: &'static str,
    /// Path below `../shared/thirdparty/`.
    rel: &'static str,
    layout: Layout,
    /// On-disk page size (the unit of the file).
    physical: usize,
    /// Logical page size.
    logical: usize,
    /// Whole pages in the file.
    pages: u32,
    /// `FSP_SPACE_ID`.
    space_id: u64,
    /// A XOR mask for `FSP_SPACE_FLAGS` that flips bits of the page-size
    /// field so that the flags claim another, valid-looking, page size.
    flags_flip: u32,
}

const BASES: [Base; 5] = [
    Base {
        name: "crc32",
        rel: "jeremycole__innodb_ruby/spec/data/sakila/8.0/sakila/actor.ibd",
        layout: Layout::Crc32,
        physical: 16384,
        logical: 16384,
        pages: 8,
        space_id: 2,
        flags_flip: 0xC0, // PAGE_SSIZE 0 (16k) -> 3 (4k)
    },
    Base {
        name: "full_crc32",
        rel: "AIchemist87__mantisbt-docker/mysql/mysql/innodb_index_stats.ibd",
        layout: Layout::FullCrc32,
        physical: 16384,
        logical: 16384,
        pages: 10,
        space_id: 5,
        flags_flip: 0x06, // PAGE_SSIZE 5 (16k) -> 3 (4k)
    },
    Base {
        name: "zip",
        rel: "ringo380__idb-utils/tests/fixtures/mysql9/mysql90_compressed.ibd",
        layout: Layout::Zip,
        physical: 8192,
        logical: 16384,
        pages: 7,
        space_id: 3,
        flags_flip: 0xC0, // PAGE_SSIZE 0 (16k) -> 3 (4k)
    },
    Base {
        name: "mariadb103_crc32",
        rel: "DFO-Ocean-Navigator__onav-mariadb/mysql/innodb_index_stats.ibd",
        layout: Layout::Crc32,
        physical: 16384,
        logical: 16384,
        pages: 6,
        space_id: 2,
        flags_flip: 0xC0, // PAGE_SSIZE 0 (16k) -> 3 (4k)
    },
    Base {
        name: "innodb_legacy",
        rel: "jeremycole__innodb_ruby/spec/data/t_empty.ibd",
        layout: Layout::Innodb,
        physical: 16384,
        logical: 16384,
        pages: 6,
        space_id: 2,
        flags_flip: 0xC0, // PAGE_SSIZE 0 (16k) -> 3 (4k)
    },
];

/// A page that is not all-zero in every base file (pages 0..=3 all are).
const BODY_PAGE: u32 = 3;

impl Base {
    fn path(&self) -> PathBuf {
        support::thirdparty_dir().join(self.rel)
    }

    /// The bytes of the original (never written).
    fn bytes(&self) -> Vec<u8> {
        let p = self.path();
        let bytes = std::fs::read(&p).unwrap_or_else(|e| {
            panic!(
                "base file {} is missing ({e}); ../shared/thirdparty/MANIFEST.md lists it",
                p.display()
            )
        });
        assert_eq!(
            bytes.len(),
            self.physical * self.pages as usize,
            "{}: base file is not the expected size",
            self.name
        );
        bytes
    }

    /// `--page-size` value naming the physical page size.
    fn page_size_arg(&self) -> String {
        format!("{}k", self.physical / 1024)
    }

    /// Byte range of page `n` in the file.
    fn page_range(&self, n: u32) -> std::ops::Range<usize> {
        let start = n as usize * self.physical;
        start..start + self.physical
    }
}

// ---------------------------------------------------------------------------
// Deterministic pseudo-random bytes
// ---------------------------------------------------------------------------

/// xorshift64*: deterministic, good enough to make junk.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        // Never zero, and seeds that differ by little still diverge at once.
        Rng((seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03) | 1)
    }

    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = Vec::with_capacity(n + 8);
        while v.len() < n {
            v.extend_from_slice(&self.next_u64().to_le_bytes());
        }
        v.truncate(n);
        v
    }
}

// ---------------------------------------------------------------------------
// Running the binary
// ---------------------------------------------------------------------------

/// How long one run may take before it counts as a hang.
const RUN_LIMIT: Duration = Duration::from_secs(60);

/// One run of `innodb-inspect`.
struct Run {
    /// The arguments, for messages.
    args: String,
    /// Exit code (-1 when killed by a signal or by the time limit).
    code: i32,
    stdout: String,
    stderr: String,
    /// What went wrong beyond the exit code: panic, signal, hang, modified
    /// input, left-over temporary files.
    problems: Vec<String>,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "`{}`: stdout is not JSON ({e})\nstdout: {}\nstderr: {}",
                self.args, self.stdout, self.stderr
            )
        })
    }

    /// Parses stdout as JSON, recording a failure instead of panicking.
    fn json_or(&self, f: &mut Failures) -> Option<Value> {
        match serde_json::from_str(&self.stdout) {
            Ok(v) => Some(v),
            Err(e) => {
                f.fail(format!(
                    "`{}`: stdout is not JSON ({e}); exit {}; stderr: {}",
                    self.args,
                    self.code,
                    self.stderr.trim()
                ));
                None
            }
        }
    }

    fn show(&self) -> String {
        format!(
            "`innodb-inspect {}` exited {}\n    stderr: {}\n    stdout (start): {}",
            self.args,
            self.code,
            self.stderr.trim(),
            self.stdout.chars().take(600).collect::<String>()
        )
    }
}

/// What an input file looked like before a run.
#[derive(Debug, PartialEq, Eq)]
struct Snapshot {
    bytes: Vec<u8>,
    modified: Option<SystemTime>,
    readonly: bool,
}

impl Snapshot {
    fn of(p: &Path) -> Option<Snapshot> {
        let meta = std::fs::metadata(p).ok()?;
        if !meta.is_file() {
            return None;
        }
        Some(Snapshot {
            bytes: std::fs::read(p).ok()?,
            modified: meta.modified().ok(),
            readonly: meta.permissions().readonly(),
        })
    }
}

fn dir_listing(dir: &Path) -> BTreeSet<OsString> {
    std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default()
}

/// Runs `innodb-inspect ARGS` with the default time limit.
fn inspect<S: AsRef<OsStr>>(args: &[S]) -> Run {
    inspect_within(args, RUN_LIMIT)
}

/// Runs `innodb-inspect ARGS`, killing it after `limit`, and checks what
/// every run must satisfy (recorded in `Run::problems`): exit code 0, 1 or 2,
/// no signal, no panic message, no hang; every argument that names a regular
/// file is unchanged (bytes, mtime, permissions) and no file appeared beside
/// it; nothing is left in the run's private `TMPDIR`.
fn inspect_within<S: AsRef<OsStr>>(args: &[S], limit: Duration) -> Run {
    let args: Vec<OsString> = args.iter().map(|a| a.as_ref().to_os_string()).collect();
    let shown = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    let watched: Vec<(PathBuf, Snapshot)> = args
        .iter()
        .map(PathBuf::from)
        .filter_map(|p| Snapshot::of(&p).map(|s| (p, s)))
        .collect();
    let dirs: Vec<(PathBuf, BTreeSet<OsString>)> = watched
        .iter()
        .filter_map(|(p, _)| p.parent().map(Path::to_path_buf))
        .map(|d| {
            let l = dir_listing(&d);
            (d, l)
        })
        .collect();
    let tmp = tempfile::tempdir().unwrap();

    let mut problems = Vec::new();
    let run = support::run_limited(&args, &[("TMPDIR", tmp.path())], limit);
    let (status, stdout, stderr) = (run.status, run.stdout, run.stderr);
    if status.is_none() {
        problems.push(format!(
            "`innodb-inspect {shown}` hung: still running after {limit:?}, killed"
        ));
    }
    let code = status.and_then(|s| s.code()).unwrap_or(-1);

    if let Some(s) = status {
        match s.code() {
            Some(0..=2) => {}
            Some(c) => problems.push(format!(
                "`innodb-inspect {shown}` exited {c} (only 0, 1 and 2 are allowed); stderr: {}",
                stderr.trim()
            )),
            None => problems.push(format!(
                "`innodb-inspect {shown}` was killed by a signal ({s}); stderr: {}",
                stderr.trim()
            )),
        }
    }
    if stderr.contains("panicked") {
        problems.push(format!(
            "`innodb-inspect {shown}` panicked: {}",
            stderr.trim()
        ));
    }
    for (p, before) in &watched {
        match Snapshot::of(p) {
            Some(after) if after == *before => {}
            Some(after) => problems.push(format!(
                "`innodb-inspect {shown}` modified {}: bytes {}, mtime {}, permissions {}",
                p.display(),
                if after.bytes == before.bytes {
                    "same"
                } else {
                    "CHANGED"
                },
                if after.modified == before.modified {
                    "same"
                } else {
                    "CHANGED"
                },
                if after.readonly == before.readonly {
                    "same"
                } else {
                    "CHANGED"
                },
            )),
            None => problems.push(format!(
                "`innodb-inspect {shown}` removed or replaced {}",
                p.display()
            )),
        }
    }
    for (d, before) in &dirs {
        let after = dir_listing(d);
        if after != *before {
            problems.push(format!(
                "`innodb-inspect {shown}` changed the directory {}: before {before:?}, after {after:?}",
                d.display()
            ));
        }
    }
    let left = dir_listing(tmp.path());
    if !left.is_empty() {
        problems.push(format!(
            "`innodb-inspect {shown}` left files in its TMPDIR: {left:?}"
        ));
    }
    Run {
        args: shown,
        code,
        stdout,
        stderr,
        problems,
    }
}

/// `[--format json] ARGS` as an argument vector.
fn with_format(json: bool, args: &[&OsStr]) -> Vec<OsString> {
    let mut v: Vec<OsString> = Vec::new();
    if json {
        v.push("--format".into());
        v.push("json".into());
    }
    v.extend(args.iter().map(|a| a.to_os_string()));
    v
}

/// Every command on `file`, in text only.
fn text_commands(file: &Path, extra: &[&str]) -> Vec<Vec<OsString>> {
    let all = every_command(file, extra);
    let n = all.len() / 2;
    all.into_iter().take(n).collect()
}

/// Every command on `file`, in text and in JSON.
fn every_command(file: &Path, extra: &[&str]) -> Vec<Vec<OsString>> {
    let f = file.as_os_str();
    let mut all = Vec::new();
    for json in [false, true] {
        for cmd in [
            vec![OsStr::new("summary"), f],
            vec![OsStr::new("pages"), f],
            vec![OsStr::new("page"), f, OsStr::new("0")],
            vec![OsStr::new("checksum"), f],
            vec![OsStr::new("extents"), f],
            vec![OsStr::new("segments"), f],
            vec![OsStr::new("waste"), f],
            vec![OsStr::new("indexes"), f],
            vec![OsStr::new("fill"), f],
            vec![OsStr::new("count"), f],
        ] {
            let mut args = with_format(json, &cmd);
            args.extend(extra.iter().map(OsString::from));
            all.push(args);
        }
    }
    all
}

// ---------------------------------------------------------------------------
// Failures
// ---------------------------------------------------------------------------

/// Every failed expectation of a test, reported together at the end.
#[derive(Default)]
struct Failures(Vec<String>);

impl Failures {
    fn fail(&mut self, msg: impl Into<String>) {
        self.0.push(msg.into());
    }

    fn check(&mut self, ok: bool, msg: impl FnOnce() -> String) {
        if !ok {
            self.0.push(msg());
        }
    }

    /// Records the run's problems (panic, hang, modified input…).
    fn sane(&mut self, run: &Run) {
        self.0.extend(run.problems.iter().cloned());
    }

    /// A fatal error: exit 2 and `innodb-inspect: error: FILE: …` naming
    /// `file` and containing every one of `needles`.
    fn fatal(&mut self, run: &Run, file: &Path, needles: &[&str]) {
        self.sane(run);
        let name = file.display().to_string();
        let line = run.stderr.lines().find(|l| l.contains(&name)).unwrap_or("");
        let ok = run.code == 2
            && line.starts_with(&format!("innodb-inspect: error: {name}: "))
            && needles.iter().all(|n| line.contains(n));
        self.check(ok, || {
            format!(
                "expected exit 2 and `innodb-inspect: error: {name}: …` containing {needles:?}\n  {}",
                run.show()
            )
        });
    }

    fn finish(mut self, what: &str) {
        let mut seen = BTreeSet::new();
        self.0.retain(|m| seen.insert(m.clone()));
        if !self.0.is_empty() {
            panic!(
                "{what}: {} failed expectation(s):\n\n{}\n",
                self.0.len(),
                self.0.join("\n\n")
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Files and JSON helpers
// ---------------------------------------------------------------------------

fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn put_u32(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

fn get_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// The findings array of a report (`findings`, or `other_findings` of a
/// checksum report).
fn findings(v: &Value) -> Vec<Value> {
    v.get("findings")
        .or_else(|| v.get("other_findings"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// Findings of `kind` (on `page`, when given).
fn findings_of(v: &Value, kind: &str, page: Option<u32>) -> Vec<Value> {
    findings(v)
        .into_iter()
        .filter(|f| f["kind"] == kind && page.is_none_or(|p| f["page"] == u64::from(p)))
        .collect()
}

/// Findings on pages other than page 0.
fn findings_past_page0(v: &Value) -> Vec<Value> {
    findings(v)
        .into_iter()
        .filter(|f| f["page"].as_u64().is_some_and(|p| p > 0))
        .collect()
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 400 {
        format!("{}…", s.chars().take(400).collect::<String>())
    } else {
        s
    }
}

/// The summary facts that say what the tool made of a file.
fn summary_shape(v: &Value) -> String {
    format!(
        "page_size {}, physical_page_size {}, page_count {}, page_size_source {}, space_id {}, findings [{}]",
        v["page_size"],
        v["physical_page_size"],
        v["page_count"],
        v["page_size_source"],
        v["space_id"],
        brief(&findings(v))
    )
}

// ---------------------------------------------------------------------------
// 1. Empty file
// ---------------------------------------------------------------------------

#[test]
fn empty_file_is_fatal_for_every_command() {
    let dir = TempDir::new().unwrap();
    let empty = write_file(dir.path(), "empty.ibd", b"");
    let mut f = Failures::default();
    for extra in [&[][..], &["--page-size", "16k"][..]] {
        for args in every_command(&empty, extra) {
            let run = inspect(&args);
            f.fatal(&run, &empty, &["empty"]);
        }
    }
    // A gzip file that inflates to nothing is just as empty.
    let gz = write_file(dir.path(), "empty.ibd.gz", &gzip(b""));
    for args in every_command(&gz, &[]) {
        let run = inspect(&args);
        f.fatal(&run, &gz, &["empty"]);
    }
    // The library says the same, with the path.
    match innodb_space::Tablespace::open(&empty, innodb_space::OpenOptions::default()) {
        Ok(_) => f.fail("Tablespace::open accepted an empty file"),
        Err(e) => f.check(
            matches!(e, innodb_space::SpaceError::Empty { .. })
                && e.to_string().contains(&empty.display().to_string()),
            || format!("Tablespace::open on an empty file: {e:?}"),
        ),
    }
    f.finish("empty file");
}

// ---------------------------------------------------------------------------
// 2. Trailing bytes
// ---------------------------------------------------------------------------

#[test]
fn trailing_bytes_are_a_finding_and_whole_pages_still_verify() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    for b in BASES {
        let mut bytes = b.bytes();
        bytes.extend(Rng::new(7).bytes(100));
        let file = write_file(dir.path(), &format!("{}_trailing.ibd", b.name), &bytes);
        let end = b.physical * b.pages as usize;

        let run = inspect(&with_format(true, &["summary".as_ref(), file.as_os_str()]));
        f.sane(&run);
        f.check(run.code == 0, || {
            format!("{}: summary\n  {}", b.name, run.show())
        });
        if let Some(v) = run.json_or(&mut f) {
            f.check(v["page_count"] == b.pages, || {
                format!("{}: page_count {} != {}", b.name, v["page_count"], b.pages)
            });
            let t = findings_of(&v, "trailing_bytes", None);
            f.check(t.len() == 1 && t[0]["offset"] == end as u64, || {
                format!(
                    "{}: expected one trailing_bytes finding at offset {end}: {}",
                    b.name,
                    short(&v["findings"])
                )
            });
            f.check(v["bad_checksums"] == 0, || {
                format!("{}: bad_checksums {}", b.name, v["bad_checksums"])
            });
        }
        let text = inspect(&["summary".as_ref(), file.as_os_str()]);
        f.sane(&text);
        f.check(
            text.code == 0 && text.stdout.contains(&end.to_string()),
            || {
                format!(
                    "{}: text summary should give offset {end}\n  {}",
                    b.name,
                    text.show()
                )
            },
        );

        let run = inspect(&with_format(true, &["checksum".as_ref(), file.as_os_str()]));
        f.sane(&run);
        f.check(run.code == 0, || {
            format!(
                "{}: checksum should pass the whole pages\n  {}",
                b.name,
                run.show()
            )
        });
        if let Some(v) = run.json_or(&mut f) {
            let r = &v["files"][0];
            f.check(
                r["pages"] == b.pages
                    && r["bad_pages"].as_array().is_some_and(Vec::is_empty)
                    && findings_of(r, "trailing_bytes", None).len() == 1,
                || format!("{}: checksum report {}", b.name, short(r)),
            );
        }
    }
    f.finish("trailing bytes");
}

// ---------------------------------------------------------------------------
// 3. Random bytes, random-but-plausible pages, mutated real files
// ---------------------------------------------------------------------------

#[test]
fn random_bytes_never_panic_and_fatal_errors_name_file_page_and_field() {
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    let mut sizes = vec![
        0usize,
        1,
        2,
        37,
        38,
        100,
        149,
        150,
        151,
        1023,
        1024,
        4096,
        8191,
        8192,
        16383,
        16384,
        16385,
        32768,
        65536 + 5,
        100_000,
        199_999,
    ];
    let mut rng = Rng::new(2024);
    sizes.extend((0..4).map(|_| rng.below(200_000)));
    for (i, &size) in sizes.iter().enumerate() {
        let bytes = Rng::new(i as u64 + 1).bytes(size);
        let file = write_file(dir.path(), &format!("random_{size}.ibd"), &bytes);
        let fo = file.as_os_str();
        let runs: Vec<Vec<OsString>> = vec![
            with_format(false, &["summary".as_ref(), fo]),
            with_format(true, &["summary".as_ref(), fo]),
            with_format(false, &["pages".as_ref(), fo]),
            with_format(true, &["page".as_ref(), fo, "0".as_ref()]),
            with_format(false, &["checksum".as_ref(), fo]),
        ];
        for args in runs {
            let run = inspect(&args);
            f.sane(&run);
            if run.code == 2 {
                // Without --page-size, the only way to fail on a non-empty
                // file is page 0: the message must say where.
                let needles: &[&str] = if size == 0 {
                    &["empty"]
                } else {
                    &["page 0", "offset ", "field "]
                };
                f.fatal(&run, &file, needles);
            }
        }
        // Forcing a page size reads the junk page by page.
        for ps in ["16k", "1k"] {
            for cmd in ["pages", "checksum"] {
                let run = inspect(&with_format(
                    cmd == "pages",
                    &["--page-size".as_ref(), ps.as_ref(), cmd.as_ref(), fo],
                ));
                f.sane(&run);
                if run.code == 2 {
                    f.fatal(&run, &file, &[]);
                }
            }
        }
    }
    f.finish("random bytes");
}

/// Random pages that each carry their own page number, behind a page 0 with
/// valid flags: the junk gets past page 0 and is checked page by page.
#[test]
fn random_pages_behind_a_plausible_page0_never_panic() {
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    // (page size, FSP_SPACE_FLAGS)
    let layouts: [(usize, u32); 5] = [
        (16384, 0x21),  // classic 16k
        (16384, 0x15),  // full_crc32 16k
        (8192, 0x4029), // zip 8k
        (4096, 0xE1),   // classic 4k
        (65536, 0x1C1), // classic 64k
    ];
    for (li, &(ps, flags)) in layouts.iter().enumerate() {
        for pages in [1usize, 2, 5] {
            let seed = (li * 10 + pages) as u64;
            let mut rng = Rng::new(seed);
            let tail = rng.below(3) * 333;
            let mut bytes = rng.bytes(ps * pages + tail);
            for n in 0..pages {
                put_u32(&mut bytes, n * ps + 4, n as u32);
            }
            put_u32(&mut bytes, 54, flags);
            let file = write_file(dir.path(), &format!("plausible_{li}_{pages}.ibd"), &bytes);
            let fo = file.as_os_str();
            let mut all = text_commands(&file, &[]);
            all.push(with_format(true, &["summary".as_ref(), fo]));
            all.push(with_format(false, &["page".as_ref(), fo, "1".as_ref()]));
            all.push(with_format(true, &["page".as_ref(), fo, "4".as_ref()]));
            all.push(with_format(
                false,
                &["pages".as_ref(), fo, "--type".as_ref(), "INDEX".as_ref()],
            ));
            for args in all {
                let run = inspect(&args);
                f.sane(&run);
                if run.code == 2 {
                    f.fatal(&run, &file, &[]);
                }
            }
        }
    }
    f.finish("random pages behind a plausible page 0");
}

/// Interesting values for `FIL_PAGE_TYPE`.
const PAGE_TYPES: [u16; 24] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 17853, 17854, 17855, 34354,
    37401, 0xFFFF,
];

/// Damages a copy of a real file in `n` random ways.
fn mutate(b: &Base, bytes: &mut [u8], rng: &mut Rng, n: usize) {
    let ps = b.physical;
    let pages = bytes.len() / ps;
    for _ in 0..n {
        let page = rng.below(pages);
        let base = page * ps;
        match rng.below(8) {
            // A run of junk somewhere in the page header area.
            0 => {
                let at = base + rng.below(200);
                let len = 1 + rng.below(16);
                let junk = rng.bytes(len);
                let end = (at + len).min(base + ps);
                bytes[at..end].copy_from_slice(&junk[..end - at]);
            }
            // The page type.
            1 => {
                let t = if rng.below(3) == 0 {
                    0x8000 | rng.below(0x8000) as u16
                } else {
                    PAGE_TYPES[rng.below(PAGE_TYPES.len())]
                };
                bytes[base + 24..base + 26].copy_from_slice(&t.to_be_bytes());
            }
            // Page 0's flags.
            2 => put_u32(bytes, 54, rng.next_u64() as u32),
            // A page number.
            3 => put_u32(bytes, base + 4, rng.next_u64() as u32 % 64),
            // The trailer.
            4 => {
                let at = base + ps - 8;
                let junk = rng.bytes(8);
                bytes[at..at + 8].copy_from_slice(&junk);
            }
            // Index page header fields.
            5 => {
                let at = base + 38 + rng.below(56);
                bytes[at] = rng.next_u64() as u8;
            }
            // A bit anywhere.
            6 => {
                let at = base + rng.below(ps);
                bytes[at] ^= 1 << rng.below(8);
            }
            // A page of zeroes.
            _ => bytes[base..base + ps].fill(0),
        }
    }
}

#[test]
fn mutated_real_files_never_panic() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    use innodb_analysis::{ChecksumReport, PageDetail, PageFilter, PageList, Summary};
    use innodb_space::{OpenOptions, Tablespace};
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    for (bi, b) in BASES.iter().enumerate() {
        let original = b.bytes();
        for m in 0..40u64 {
            let mut rng = Rng::new(bi as u64 * 1000 + m);
            let mut bytes = original.clone();
            let n = 1 + rng.below(6);
            mutate(b, &mut bytes, &mut rng, n);
            let file = write_file(dir.path(), &format!("{}_mut{m}.ibd", b.name), &bytes);
            // In process: every report, every page, serialised.
            for page_size in [None, Some(b.physical)] {
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let Ok(space) = Tablespace::open(
                        &file,
                        OpenOptions {
                            page_size,
                            ..OpenOptions::default()
                        },
                    ) else {
                        return;
                    };
                    let s = Summary::build(&space);
                    serde_json::to_string(&s).unwrap();
                    let l = PageList::build(&space, &PageFilter::default());
                    serde_json::to_string(&l).unwrap();
                    let c = ChecksumReport::build(&space);
                    serde_json::to_string(&c).unwrap();
                    for p in 0..=space.page_count().min(16) {
                        if let Ok(d) = PageDetail::build(&space, p) {
                            serde_json::to_string(&d).unwrap();
                        }
                    }
                }));
                f.check(r.is_ok(), || {
                    format!(
                        "{} mutant {m} (seed {}): the library panicked with page_size {page_size:?}",
                        b.name,
                        bi as u64 * 1000 + m
                    )
                });
            }
            // Through the binary, for the rendering, on some of them.
            if m % 8 == 0 {
                let fo = file.as_os_str();
                for args in [
                    with_format(false, &["summary".as_ref(), fo]),
                    with_format(false, &["page".as_ref(), fo, "0".as_ref()]),
                    with_format(false, &["page".as_ref(), fo, "3".as_ref()]),
                    with_format(false, &["checksum".as_ref(), fo]),
                ] {
                    let run = inspect(&args);
                    f.sane(&run);
                    if run.code == 2 {
                        f.fatal(&run, &file, &[]);
                    }
                }
            }
        }
    }
    f.finish("mutated real files");
}

/// MariaDB page-compressed frames with junk payloads: a finding on the page,
/// never a panic.
#[test]
fn garbage_page_compressed_frames_are_findings() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    let page = BODY_PAGE;

    // Classic layout (type 34354): algorithm at 26 (8 bytes), length at 38, payload at 40.
    let b = BASES[3];
    let original = b.bytes();
    let r = b.page_range(page);
    let bomb = zlib(&vec![0u8; 1 << 20]);
    let short_stream = zlib(&original[r.start + 40..r.start + 1000]);
    let cases: Vec<(&str, u64, u16, Vec<u8>)> = vec![
        ("zlib_junk", 1, 2000, Rng::new(1).bytes(2000)),
        ("zlib_len_0", 1, 0, Vec::new()),
        ("zlib_len_max", 1, 0xFFFF, Rng::new(2).bytes(100)),
        ("zlib_bomb", 1, bomb.len() as u16, bomb),
        ("zlib_short", 1, short_stream.len() as u16, short_stream),
        ("lz4", 2, 500, Rng::new(3).bytes(500)),
        ("algo_255", 255, 500, Rng::new(4).bytes(500)),
        ("algo_huge", 0x1234_5678_9abc, 500, Rng::new(5).bytes(500)),
    ];
    for (name, algo, len, payload) in cases {
        let mut bytes = original.clone();
        let p = &mut bytes[r.clone()];
        p[24..26].copy_from_slice(&34354u16.to_be_bytes());
        p[26..34].copy_from_slice(&algo.to_be_bytes());
        p[38..40].copy_from_slice(&len.to_be_bytes());
        let n = payload.len().min(p.len() - 40);
        p[40..40 + n].copy_from_slice(&payload[..n]);
        let file = write_file(dir.path(), &format!("pagecomp_{name}.ibd"), &bytes);
        check_page_compressed_case(&mut f, &file, name, page);
    }

    // full_crc32 layout (type 0x8000 | n, frame of n * 256 bytes).
    let b = BASES[1];
    let original = b.bytes();
    let r = b.page_range(page);
    for n in [0u16, 1, 2, 16, 63, 64, 65, 0x7FFF] {
        let mut bytes = original.clone();
        let p = &mut bytes[r.clone()];
        p[24..26].copy_from_slice(&(0x8000 | n).to_be_bytes());
        let junk = Rng::new(u64::from(n)).bytes(p.len() - 26);
        p[26..].copy_from_slice(&junk);
        let file = write_file(dir.path(), &format!("fcrc32_comp_{n}.ibd"), &bytes);
        check_page_compressed_case(&mut f, &file, &format!("full_crc32 frame {n}"), page);
    }
    f.finish("garbage page-compressed frames");
}

fn check_page_compressed_case(f: &mut Failures, file: &Path, name: &str, page: u32) {
    let fo = file.as_os_str();
    let run = inspect(&with_format(true, &["summary".as_ref(), fo]));
    f.sane(&run);
    f.check(run.code == 0, || {
        format!("{name}: summary\n  {}", run.show())
    });
    if let Some(v) = run.json_or(f) {
        let on_page: Vec<Value> = findings(&v)
            .into_iter()
            .filter(|x| x["page"] == u64::from(page))
            .collect();
        f.check(!on_page.is_empty(), || {
            format!(
                "{name}: a junk page-compressed frame on page {page} gives no finding on it: {}",
                short(&v["findings"])
            )
        });
    }
    // A junk frame is either bad or cannot be verified: not every page is valid.
    let run = inspect(&["checksum".as_ref(), fo]);
    f.sane(&run);
    f.check(run.code == 1, || {
        format!("{name}: checksum must exit 1\n  {}", run.show())
    });
    for args in [
        with_format(false, &["page".as_ref(), fo, page.to_string().as_ref()]),
        with_format(true, &["page".as_ref(), fo, page.to_string().as_ref()]),
        with_format(false, &["pages".as_ref(), fo]),
    ] {
        let run = inspect(&args);
        f.sane(&run);
        if run.code == 2 {
            f.fatal(&run, file, &[&format!("page {page}")]);
        }
    }
}

// ---------------------------------------------------------------------------
// 4. Damaged page 0
// ---------------------------------------------------------------------------

/// A way of damaging a file in place.
type Damage = Box<dyn Fn(&mut [u8])>;

/// The ways page 0 is damaged.
fn page0_damages(b: &Base) -> Vec<(&'static str, Damage)> {
    let ps = b.physical;
    let flip = b.flags_flip;
    vec![
        ("zeroed", Box::new(move |d: &mut [u8]| d[..ps].fill(0))),
        (
            "flags_ffffffff",
            Box::new(|d: &mut [u8]| put_u32(d, 54, 0xFFFF_FFFF)),
        ),
        (
            "flags_page_size_bits_flipped",
            Box::new(move |d: &mut [u8]| {
                let v = get_u32(d, 54) ^ flip;
                put_u32(d, 54, v);
            }),
        ),
        (
            "page_number_bits_flipped",
            Box::new(|d: &mut [u8]| d[7] ^= 0xFF),
        ),
    ]
}

/// What a damaged page 0 must still give: the right sizes and page count, a
/// `page0` finding, the space id, and no finding on the intact pages. Returns
/// what is wrong.
fn page0_recovery_problems(b: &Base, v: &Value, source: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    if v["physical_page_size"] != b.physical || v["page_size"] != b.logical {
        wrong.push(format!(
            "page size {}/{} instead of {}/{} (logical/physical)",
            v["page_size"], v["physical_page_size"], b.logical, b.physical
        ));
    }
    if v["page_count"] != b.pages {
        wrong.push(format!("{} pages instead of {}", v["page_count"], b.pages));
    }
    let p0 = findings_of(v, "page0", Some(0));
    if p0.is_empty()
        || !p0
            .iter()
            .all(|x| x["field"].as_str().is_some_and(|s| !s.is_empty()) && x["offset"].is_u64())
    {
        wrong.push("no page0 finding (with offset and field)".into());
    }
    if v["page_size_source"] != source {
        wrong.push(format!(
            "page_size_source {} instead of {source:?}",
            v["page_size_source"]
        ));
    }
    if v["space_id"] != b.space_id {
        wrong.push(format!(
            "space_id {} instead of {}",
            v["space_id"], b.space_id
        ));
    }
    let past = findings_past_page0(v);
    if !past.is_empty() {
        wrong.push(format!(
            "{} findings on the intact pages 1..: {}",
            past.len(),
            brief(&past)
        ));
    }
    wrong
}

/// `kind@page` for each finding, at most 10.
fn brief(findings: &[Value]) -> String {
    let mut parts: Vec<String> = findings
        .iter()
        .take(10)
        .map(|x| format!("{}@{}", x["kind"].as_str().unwrap_or("?"), x["page"]))
        .collect();
    if findings.len() > 10 {
        parts.push(format!("… {} more", findings.len() - 10));
    }
    parts.join(", ")
}

#[test]
fn damaged_page0_is_probed() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    for b in BASES {
        let original = b.bytes();
        for (name, damage) in page0_damages(&b) {
            let mut bytes = original.clone();
            damage(&mut bytes);
            let file = write_file(dir.path(), &format!("{}_{name}.ibd", b.name), &bytes);
            let fo = file.as_os_str();
            let what = format!("{} ({:?}), page 0 {name}, no --page-size", b.name, b.layout);
            let mut wrong = Vec::new();

            let run = inspect(&with_format(true, &["summary".as_ref(), fo]));
            f.sane(&run);
            if run.code == 0 {
                if let Some(v) = run.json_or(&mut f) {
                    wrong.extend(page0_recovery_problems(&b, &v, "probed"));
                }
            } else {
                wrong.push(format!(
                    "summary exited {} although pages 1.. are intact: {}",
                    run.code,
                    run.stderr.trim()
                ));
            }
            // The other commands get through as well.
            for args in [
                with_format(false, &["pages".as_ref(), fo]),
                with_format(false, &["page".as_ref(), fo, "0".as_ref()]),
                with_format(false, &["page".as_ref(), fo, "3".as_ref()]),
            ] {
                let run = inspect(&args);
                f.sane(&run);
                if run.code != 0 {
                    wrong.push(format!(
                        "`{}` exited {}: {}",
                        run.args,
                        run.code,
                        run.stderr.trim()
                    ));
                }
            }
            // checksum: every page once, the page0 finding, and page 0 bad
            // when its bytes no longer match its checksum.
            let run = inspect(&with_format(true, &["checksum".as_ref(), fo]));
            f.sane(&run);
            if let Some(v) = run.json_or(&mut f) {
                let r = &v["files"][0];
                if r["pages"] != b.pages {
                    wrong.push(format!("checksum checked {} pages", r["pages"]));
                }
                if findings_of(r, "page0", Some(0)).is_empty() {
                    wrong.push("checksum: no page0 finding".into());
                }
                let bad: Vec<u64> = r["bad_pages"]
                    .as_array()
                    .map(|a| a.iter().filter_map(|x| x["page"].as_u64()).collect())
                    .unwrap_or_default();
                // A zeroed page 0 is all-zero, not a bad checksum; whether the
                // page0 finding alone fails `checksum` is left open (0 or 1).
                let expected: Vec<u64> = if name == "zeroed" { vec![] } else { vec![0] };
                let code_ok = if name == "zeroed" {
                    run.code == 0 || run.code == 1
                } else {
                    run.code == 1
                };
                if bad != expected || !code_ok {
                    wrong.push(format!(
                        "checksum exited {} with bad pages {bad:?} (expected {expected:?})",
                        run.code
                    ));
                }
            }
            f.check(wrong.is_empty(), || {
                format!(
                    "{what}:
    - {}",
                    wrong.join("\n    - ")
                )
            });
        }
    }
    f.finish("damaged page 0, probed");
}

#[test]
fn damaged_page0_with_page_size_option() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    for b in BASES {
        let original = b.bytes();
        let size = b.page_size_arg();
        for (name, damage) in page0_damages(&b) {
            let mut bytes = original.clone();
            damage(&mut bytes);
            let file = write_file(dir.path(), &format!("{}_{name}.ibd", b.name), &bytes);
            let what = format!(
                "{} ({:?}), page 0 {name}, --page-size {size}",
                b.name, b.layout
            );
            let mut wrong = Vec::new();
            let run = inspect(&with_format(
                true,
                &[
                    "--page-size".as_ref(),
                    size.as_ref(),
                    "summary".as_ref(),
                    file.as_os_str(),
                ],
            ));
            f.sane(&run);
            if run.code == 0 {
                if let Some(v) = run.json_or(&mut f) {
                    wrong.extend(page0_recovery_problems(&b, &v, "user"));
                }
            } else {
                wrong.push(format!(
                    "summary exited {}: {}",
                    run.code,
                    run.stderr.trim()
                ));
            }
            for args in text_commands(&file, &["--page-size", &size]) {
                let run = inspect(&args);
                f.sane(&run);
                if run.code == 2 {
                    wrong.push(format!("`{}` exited 2: {}", run.args, run.stderr.trim()));
                }
            }
            f.check(wrong.is_empty(), || {
                format!(
                    "{what}:
    - {}",
                    wrong.join("\n    - ")
                )
            });
        }
    }
    f.finish("damaged page 0 with --page-size");
}

#[test]
fn unprobeable_page0_asks_for_page_size() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    for b in BASES {
        let original = b.bytes();
        let ps = b.physical;
        let size = b.page_size_arg();

        // Only page 0, and its flags are junk: nothing to probe.
        let mut one = original[..ps].to_vec();
        put_u32(&mut one, 54, 0xFFFF_FFFF);
        let file = write_file(dir.path(), &format!("{}_only_page0.ibd", b.name), &one);
        for args in every_command(&file, &[]) {
            let run = inspect(&args);
            f.fatal(
                &run,
                &file,
                &["page 0", "offset 54", "FSP_SPACE_FLAGS", "--page-size"],
            );
        }
        let run = inspect(&with_format(
            true,
            &[
                "--page-size".as_ref(),
                size.as_ref(),
                "summary".as_ref(),
                file.as_os_str(),
            ],
        ));
        f.sane(&run);
        f.check(run.code == 0, || {
            format!("{}: one page with --page-size\n  {}", b.name, run.show())
        });
        if run.code == 0 {
            let v = run.json();
            f.check(
                v["page_count"] == 1
                    && v["physical_page_size"] == ps
                    && !findings_of(&v, "page0", Some(0)).is_empty(),
                || {
                    format!(
                        "{}: one page with --page-size: {}",
                        b.name,
                        summary_shape(&v)
                    )
                },
            );
        }

        // Page 0 junk, every other page never initialised.
        let mut rest_zero = vec![0u8; original.len()];
        rest_zero[..ps].copy_from_slice(&original[..ps]);
        put_u32(&mut rest_zero, 54, 0xFFFF_FFFF);
        let file = write_file(dir.path(), &format!("{}_rest_zero.ibd", b.name), &rest_zero);
        let run = inspect(&["summary".as_ref(), file.as_os_str()]);
        f.fatal(&run, &file, &["page 0", "FSP_SPACE_FLAGS", "--page-size"]);
    }

    // A file of zeroes is no tablespace, and no page size can be probed from it.
    let zeroes = write_file(dir.path(), "zeroes.ibd", &vec![0u8; 4 * 16384]);
    for args in text_commands(&zeroes, &[]) {
        let run = inspect(&args);
        f.fatal(&run, &zeroes, &["page 0", "field ", "--page-size"]);
    }
    f.finish("unprobeable page 0");
}

// ---------------------------------------------------------------------------
// 5. Flipped bits in a page body
// ---------------------------------------------------------------------------

#[test]
fn flipped_bits_in_a_page_body_are_a_bad_checksum() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    for b in BASES {
        let mut bytes = b.bytes();
        let r = b.page_range(BODY_PAGE);
        let mid = r.start + b.physical / 2;
        bytes[mid] ^= 0x01;
        bytes[mid + 1] ^= 0x80;
        bytes[mid + 333] ^= 0x10;
        let file = write_file(dir.path(), &format!("{}_body_bits.ibd", b.name), &bytes);
        let fo = file.as_os_str();
        let what = format!(
            "{} ({:?}) with bits flipped on page {BODY_PAGE}",
            b.name, b.layout
        );

        // checksum, JSON: that page, with stored and computed values.
        let run = inspect(&with_format(true, &["checksum".as_ref(), fo]));
        f.sane(&run);
        f.check(run.code == 1, || {
            format!("{what}: checksum must exit 1\n  {}", run.show())
        });
        let mut values: Vec<String> = Vec::new();
        if let Some(v) = run.json_or(&mut f) {
            let bad = v["files"][0]["bad_pages"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let ok = bad.len() == 1
                && bad[0]["page"] == BODY_PAGE
                && bad[0]["stored"].as_array().is_some_and(|a| !a.is_empty())
                && bad[0]["computed"].as_array().is_some_and(|a| !a.is_empty());
            f.check(ok, || {
                format!("{what}: bad_pages {}", short(&v["files"][0]["bad_pages"]))
            });
            if ok {
                for x in bad[0]["stored"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .chain(bad[0]["computed"].as_array().unwrap())
                {
                    values.push(format!("0x{:08x}", x["value"].as_u64().unwrap_or(0)));
                }
                let stored: BTreeSet<u64> = bad[0]["stored"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|x| x["value"].as_u64())
                    .collect();
                let computed: BTreeSet<u64> = bad[0]["computed"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|x| x["value"].as_u64())
                    .collect();
                f.check(
                    stored.is_disjoint(&computed) || b.layout == Layout::Innodb,
                    || {
                        format!(
                            "{what}: a stored value equals a computed one: {}",
                            short(&bad[0])
                        )
                    },
                );
            }
            f.check(v["files"][0]["pages"] == b.pages, || {
                format!("{what}: pages {}", v["files"][0]["pages"])
            });
        }
        // checksum, text: names the page and the values.
        let run = inspect(&["checksum".as_ref(), fo]);
        f.sane(&run);
        f.check(
            run.code == 1
                && run.stdout.contains(&format!("page {BODY_PAGE}"))
                && values.iter().all(|x| run.stdout.contains(x.as_str())),
            || {
                format!(
                    "{what}: text checksum should name page {BODY_PAGE} and {values:?}\n  {}",
                    run.show()
                )
            },
        );

        // summary: one bad page, the finding at that page.
        let run = inspect(&with_format(true, &["summary".as_ref(), fo]));
        f.sane(&run);
        f.check(run.code == 0, || {
            format!("{what}: summary\n  {}", run.show())
        });
        if let Some(v) = run.json_or(&mut f) {
            f.check(v["bad_checksums"] == 1, || {
                format!("{what}: bad_checksums {}", v["bad_checksums"])
            });
            let bc = findings_of(&v, "bad_checksum", None);
            // The finding names the stored checksum: at 0 (classic, zip), or in
            // the last 4 bytes of the page (full_crc32).
            let (field, offset) = match b.layout {
                Layout::FullCrc32 => ("FIL_PAGE_FCRC32_CHECKSUM", b.physical - 4),
                _ => ("FIL_PAGE_SPACE_OR_CHKSUM", 0),
            };
            f.check(
                bc.len() == 1
                    && bc[0]["page"] == BODY_PAGE
                    && bc[0]["field"] == field
                    && bc[0]["offset"] == offset
                    && bc[0]["message"]
                        .as_str()
                        .is_some_and(|m| m.contains("stored") && m.contains("computed")),
                || {
                    format!(
                        "{what}: bad_checksum findings {}",
                        short(&Value::Array(bc.clone()))
                    )
                },
            );
        }

        // pages: still every page, that one marked bad.
        let run = inspect(&with_format(true, &["pages".as_ref(), fo]));
        f.sane(&run);
        f.check(run.code == 0, || format!("{what}: pages\n  {}", run.show()));
        if let Some(v) = run.json_or(&mut f) {
            let rows = v["pages"].as_array().cloned().unwrap_or_default();
            let numbers: Vec<u64> = rows.iter().filter_map(|r| r["page"].as_u64()).collect();
            f.check(
                numbers == (0..u64::from(b.pages)).collect::<Vec<_>>(),
                || format!("{what}: pages lists {numbers:?}"),
            );
            f.check(
                rows.get(BODY_PAGE as usize)
                    .is_some_and(|r| r["checksum"] == "bad"),
                || {
                    format!(
                        "{what}: page {BODY_PAGE} row {}",
                        short(&rows[BODY_PAGE as usize])
                    )
                },
            );
        }
        let run = inspect(&["pages".as_ref(), fo]);
        f.sane(&run);
        let listed: BTreeSet<u64> = run
            .stdout
            .lines()
            .filter_map(|l| l.split_whitespace().next()?.parse().ok())
            .collect();
        f.check(
            run.code == 0 && listed == (0..u64::from(b.pages)).collect(),
            || format!("{what}: text pages lists {listed:?}\n  {}", run.show()),
        );

        // page N: decodes, says bad.
        let run = inspect(&with_format(
            true,
            &["page".as_ref(), fo, BODY_PAGE.to_string().as_ref()],
        ));
        f.sane(&run);
        f.check(run.code == 0, || {
            format!("{what}: page {BODY_PAGE}\n  {}", run.show())
        });
        if let Some(v) = run.json_or(&mut f) {
            f.check(v["checksum"] == "bad", || {
                format!("{what}: page detail checksum {}", v["checksum"])
            });
        }
    }
    f.finish("flipped bits in a page body");
}

// ---------------------------------------------------------------------------
// 6. LSN mismatch, swapped pages, wrong space id
// ---------------------------------------------------------------------------

#[test]
fn trailer_lsn_mismatch_is_reported() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    for b in BASES {
        if b.layout == Layout::Zip {
            continue; // ROW_FORMAT=COMPRESSED pages have no trailer.
        }
        let mut bytes = b.bytes();
        let r = b.page_range(BODY_PAGE);
        // The LSN low word: the last 4 bytes of a classic page, the 4 before
        // the checksum in full_crc32 (which the checksum covers).
        let at = if b.layout == Layout::FullCrc32 {
            r.end - 8
        } else {
            r.end - 4
        };
        for x in &mut bytes[at..at + 4] {
            *x ^= 0x5A;
        }
        let file = write_file(dir.path(), &format!("{}_lsn.ibd", b.name), &bytes);
        let fo = file.as_os_str();
        let what = format!(
            "{} ({:?}) trailer LSN changed on page {BODY_PAGE}",
            b.name, b.layout
        );

        let run = inspect(&with_format(true, &["summary".as_ref(), fo]));
        f.sane(&run);
        f.check(run.code == 0, || {
            format!("{what}: summary\n  {}", run.show())
        });
        if let Some(v) = run.json_or(&mut f) {
            let lm = findings_of(&v, "lsn_mismatch", None);
            f.check(
                lm.len() == 1
                    && lm[0]["page"] == BODY_PAGE
                    && lm[0]["offset"] == (at - r.start) as u64
                    && lm[0]["field"].as_str().is_some_and(|s| s.contains("LSN")),
                || format!("{what}: lsn_mismatch findings {}", short(&v["findings"])),
            );
            f.check(v["lsn_mismatches"] == 1, || {
                format!("{what}: lsn_mismatches {}", v["lsn_mismatches"])
            });
            let bc = findings_of(&v, "bad_checksum", None);
            if b.layout == Layout::FullCrc32 {
                // The checksum covers the trailer LSN: both findings.
                f.check(bc.len() == 1 && bc[0]["page"] == BODY_PAGE, || {
                    format!(
                        "{what}: expected a bad_checksum on page {BODY_PAGE} too: {}",
                        short(&v["findings"])
                    )
                });
            } else {
                // Classic checksums stop 8 bytes before the end: still valid.
                f.check(bc.is_empty() && v["bad_checksums"] == 0, || {
                    format!(
                        "{what}: the checksum does not cover the trailer LSN: {}",
                        short(&v["findings"])
                    )
                });
            }
        }
        let run = inspect(&with_format(true, &["checksum".as_ref(), fo]));
        f.sane(&run);
        f.check(run.code == 1, || {
            format!("{what}: checksum must exit 1\n  {}", run.show())
        });
        if let Some(v) = run.json_or(&mut f) {
            f.check(
                v["files"][0]["lsn_mismatches"]
                    == serde_json::json!({"count": 1, "runs": [[BODY_PAGE, BODY_PAGE]]}),
                || {
                    format!(
                        "{what}: checksum lsn_mismatches {}",
                        v["files"][0]["lsn_mismatches"]
                    )
                },
            );
        }
        let run = inspect(&["checksum".as_ref(), fo]);
        f.sane(&run);
        f.check(run.stdout.contains(&format!("page {BODY_PAGE}")), || {
            format!(
                "{what}: text checksum must name page {BODY_PAGE}\n  {}",
                run.show()
            )
        });
    }
    f.finish("trailer LSN mismatch");
}

#[test]
fn swapped_pages_are_page_number_mismatches_with_valid_checksums() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    let (a, c) = (2u32, 3u32);
    for b in BASES {
        let original = b.bytes();
        let mut bytes = original.clone();
        bytes[b.page_range(a)].copy_from_slice(&original[b.page_range(c)]);
        bytes[b.page_range(c)].copy_from_slice(&original[b.page_range(a)]);
        let file = write_file(dir.path(), &format!("{}_swapped.ibd", b.name), &bytes);
        let fo = file.as_os_str();
        let what = format!("{} ({:?}) pages {a} and {c} swapped", b.name, b.layout);

        let run = inspect(&with_format(true, &["summary".as_ref(), fo]));
        f.sane(&run);
        f.check(run.code == 0, || {
            format!("{what}: summary\n  {}", run.show())
        });
        if let Some(v) = run.json_or(&mut f) {
            let pm = findings_of(&v, "page_number_mismatch", None);
            let pages: BTreeSet<u64> = pm.iter().filter_map(|x| x["page"].as_u64()).collect();
            f.check(
                pm.len() == 2
                    && pages == [u64::from(a), u64::from(c)].into()
                    && pm
                        .iter()
                        .all(|x| x["field"] == "FIL_PAGE_OFFSET" && x["offset"] == 4),
                || {
                    format!(
                        "{what}: page_number_mismatch findings {}",
                        short(&v["findings"])
                    )
                },
            );
            f.check(v["bad_checksums"] == 0 && v["lsn_mismatches"] == 0, || {
                format!(
                    "{what}: checksums must stay valid: {}",
                    short(&v["findings"])
                )
            });
        }
        let run = inspect(&with_format(true, &["checksum".as_ref(), fo]));
        f.sane(&run);
        f.check(run.code == 0, || {
            format!(
                "{what}: every checksum is valid, checksum must exit 0\n  {}",
                run.show()
            )
        });
        if let Some(v) = run.json_or(&mut f) {
            f.check(
                v["files"][0]["bad_pages"]
                    .as_array()
                    .is_some_and(Vec::is_empty)
                    && findings_of(&v["files"][0], "page_number_mismatch", None).len() == 2,
                || format!("{what}: checksum report {}", short(&v["files"][0])),
            );
        }
    }
    f.finish("swapped pages");
}

#[test]
fn wrong_space_id_on_a_page_is_reported() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    for b in BASES {
        let mut bytes = b.bytes();
        let r = b.page_range(BODY_PAGE);
        put_u32(&mut bytes, r.start + 34, 4242);
        let file = write_file(dir.path(), &format!("{}_space_id.ibd", b.name), &bytes);
        let what = format!(
            "{} ({:?}) space id 4242 on page {BODY_PAGE}",
            b.name, b.layout
        );
        let run = inspect(&with_format(true, &["summary".as_ref(), file.as_os_str()]));
        f.sane(&run);
        f.check(run.code == 0, || {
            format!("{what}: summary\n  {}", run.show())
        });
        if let Some(v) = run.json_or(&mut f) {
            let sm = findings_of(&v, "space_id_mismatch", None);
            f.check(
                sm.len() == 1
                    && sm[0]["page"] == BODY_PAGE
                    && sm[0]["offset"] == 34
                    && sm[0]["field"] == "FIL_PAGE_SPACE_ID"
                    && sm[0]["message"]
                        .as_str()
                        .is_some_and(|m| m.contains("4242")),
                || {
                    format!(
                        "{what}: space_id_mismatch findings {}",
                        short(&v["findings"])
                    )
                },
            );
            f.check(v["space_id"] == b.space_id, || {
                format!("{what}: space_id {}", v["space_id"])
            });
            // Classic checksums skip bytes 26..38; zip and full_crc32 cover them.
            let covered = matches!(b.layout, Layout::Zip | Layout::FullCrc32);
            let bc = findings_of(&v, "bad_checksum", Some(BODY_PAGE));
            f.check(bc.len() == usize::from(covered), || {
                format!(
                    "{what}: bad_checksum findings {}",
                    short(&Value::Array(bc.clone()))
                )
            });
        }
    }
    f.finish("wrong space id");
}

// ---------------------------------------------------------------------------
// 7. Page number out of range
// ---------------------------------------------------------------------------

#[test]
fn page_number_out_of_range_is_fatal_and_gives_the_page_count() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    for b in BASES {
        let file = write_file(dir.path(), &format!("{}.ibd", b.name), &b.bytes());
        let count = format!("{} pages", b.pages);
        for n in [999_999u64, u64::from(b.pages), u64::from(u32::MAX)] {
            for json in [false, true] {
                let run = inspect(&with_format(
                    json,
                    &["page".as_ref(), file.as_os_str(), n.to_string().as_ref()],
                ));
                f.fatal(&run, &file, &[&format!("page {n} does not exist"), &count]);
            }
        }
        // The last page exists.
        let last = (b.pages - 1).to_string();
        let run = inspect(&["page".as_ref(), file.as_os_str(), last.as_ref()]);
        f.sane(&run);
        f.check(run.code == 0, || {
            format!("{}: the last page\n  {}", b.name, run.show())
        });
    }
    // Not a page number at all: refused by the argument parser, no panic.
    let file = write_file(dir.path(), "any.ibd", &BASES[0].bytes());
    for n in ["4294967296", "-1", "x", ""] {
        let run = inspect(&["page".as_ref(), file.as_os_str(), n.as_ref()]);
        f.sane(&run);
        f.check(run.code == 2 && !run.stderr.trim().is_empty(), || {
            format!("page number {n:?}\n  {}", run.show())
        });
    }
    f.finish("page number out of range");
}

// ---------------------------------------------------------------------------
// 8. Nonsense --page-size
// ---------------------------------------------------------------------------

#[test]
fn nonsense_page_size_is_refused_clearly() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    let file = write_file(dir.path(), "actor.ibd", &BASES[0].bytes());
    let fo = file.as_os_str();
    let nonsense = [
        "1000",
        "abc",
        "0",
        "",
        "-1",
        "16kk",
        "1.5k",
        "k",
        "16 k",
        "3k",
        "128k",
        "4294967296",
        "4194304k",
        "18446744073709551615",
        "18446744073709551615k",
        "99999999999999999999",
    ];
    for size in nonsense {
        // The exact byte count the user asked for, when there is one: a
        // message may give that instead of the text as typed.
        let lower = size.to_ascii_lowercase();
        let bytes = match lower.strip_suffix('k') {
            Some(k) => k.parse::<u128>().ok().map(|k| k * 1024),
            None => lower.parse::<u128>().ok(),
        };
        for cmd in ["summary", "checksum"] {
            // `--page-size=V`, so that "-1" reaches the value parser.
            let opt = format!("--page-size={size}");
            let run = inspect(&[opt.as_ref(), cmd.as_ref(), fo]);
            f.sane(&run);
            let quoted = run.stderr.contains(size)
                || bytes.is_some_and(|n| run.stderr.contains(&format!("--page-size {n}")));
            f.check(
                run.code == 2
                    && run.stderr.contains("page-size")
                    && quoted
                    && run.stdout.trim().is_empty(),
                || {
                    format!(
                        "--page-size {size:?} must be refused (exit 2) with a message quoting it\n  {}",
                        run.show()
                    )
                },
            );
        }
    }
    // A real page size that does not fit the file: no panic, and a fatal
    // error only with the file's name.
    for b in BASES {
        let file = write_file(dir.path(), &format!("{}.ibd", b.name), &b.bytes());
        for size in ["1k", "4k", "8k", "64k"] {
            for args in text_commands(&file, &["--page-size", size]) {
                let run = inspect(&args);
                f.sane(&run);
                if run.code == 2 {
                    f.fatal(&run, &file, &[]);
                }
            }
        }
    }
    f.finish("nonsense --page-size");
}

// ---------------------------------------------------------------------------
// 9. Read-only guarantee
// ---------------------------------------------------------------------------

#[test]
fn input_files_are_never_modified() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    let past = SystemTime::UNIX_EPOCH + Duration::from_secs(1_500_000_000);
    let mut files = Vec::new();
    for b in BASES {
        let bytes = b.bytes();
        let plain = write_file(dir.path(), &format!("{}.ibd", b.name), &bytes);
        let gz = write_file(dir.path(), &format!("{}.ibd.gz", b.name), &gzip(&bytes));
        files.push((b, plain, false));
        files.push((b, gz, true));
    }
    // Writable copies with an old mtime: any write would show.
    for (_, p, _) in &files {
        std::fs::File::options()
            .write(true)
            .open(p)
            .unwrap()
            .set_modified(past)
            .unwrap();
    }
    let before: Vec<Snapshot> = files
        .iter()
        .map(|(_, p, _)| Snapshot::of(p).unwrap())
        .collect();
    let listing = dir_listing(dir.path());

    for (b, p, is_gz) in &files {
        let fo = p.as_os_str();
        for json in [false, true] {
            for cmd in [
                vec!["summary".as_ref(), fo],
                vec!["pages".as_ref(), fo],
                vec!["page".as_ref(), fo, "0".as_ref()],
                vec!["page".as_ref(), fo, "3".as_ref()],
                vec!["checksum".as_ref(), fo],
            ] {
                let run = inspect(&with_format(json, &cmd));
                f.sane(&run);
                f.check(run.code == 0, || format!("{}: {}", b.name, run.show()));
            }
        }
        if *is_gz {
            // The .gz is read through its inflated copy: same page count.
            let run = inspect(&with_format(true, &["summary".as_ref(), fo]));
            if let Some(v) = run.json_or(&mut f) {
                f.check(
                    v["page_count"] == b.pages && v["bad_checksums"] == 0,
                    || format!("{}: .gz summary {}", b.name, summary_shape(&v)),
                );
            }
        }
    }
    // Several files in one checksum run, and a damaged one too.
    let mut damaged = BASES[0].bytes();
    damaged[BASES[0].page_range(3).start + 1000] ^= 1;
    let bad = write_file(dir.path(), "damaged.ibd", &damaged);
    let bad_before = Snapshot::of(&bad).unwrap();
    let listing_with_bad = dir_listing(dir.path());
    let mut all: Vec<OsString> = vec!["checksum".into()];
    all.extend(files.iter().map(|(_, p, _)| p.as_os_str().to_os_string()));
    all.push(bad.clone().into_os_string());
    let run = inspect(&all);
    f.sane(&run);
    f.check(run.code == 1, || {
        format!("checksum of all files\n  {}", run.show())
    });

    for ((_, p, _), s) in files.iter().zip(&before) {
        f.check(Snapshot::of(p).as_ref() == Some(s), || {
            format!("{} changed (bytes, mtime or permissions)", p.display())
        });
    }
    f.check(Snapshot::of(&bad).as_ref() == Some(&bad_before), || {
        format!("{} changed", bad.display())
    });
    let after = dir_listing(dir.path());
    f.check(after == listing_with_bad, || {
        format!("the directory changed: before {listing:?} (+ damaged.ibd), after {after:?}")
    });
    // The originals are untouched too.
    for b in BASES {
        f.check(std::fs::read(b.path()).unwrap() == b.bytes(), || {
            format!("{} changed", b.path().display())
        });
    }
    f.finish("read-only guarantee");
}

// ---------------------------------------------------------------------------
// 10. Truncated files
// ---------------------------------------------------------------------------

#[test]
fn truncated_files() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    for b in BASES {
        let original = b.bytes();
        let ps = b.physical;
        // Shorter than a page: fatal, naming page 0 and the field.
        for cut in [1, 100, 149, ps / 2, ps - 1] {
            let file = write_file(
                dir.path(),
                &format!("{}_cut{cut}.ibd", b.name),
                &original[..cut],
            );
            let mut all = text_commands(&file, &[]);
            all.push(with_format(true, &["summary".as_ref(), file.as_os_str()]));
            for args in all {
                let run = inspect(&args);
                f.fatal(&run, &file, &["page 0", "offset ", "field "]);
            }
            // With --page-size, it is the length that is wrong.
            let size = b.page_size_arg();
            let run = inspect(&[
                "--page-size".as_ref(),
                size.as_ref(),
                "summary".as_ref(),
                file.as_os_str(),
            ]);
            f.fatal(&run, &file, &[&cut.to_string()]);
        }
        // One page and a byte; three pages and a bit.
        for (cut, pages) in [(ps + 1, 1u32), (3 * ps + 5000, 3)] {
            let file = write_file(
                dir.path(),
                &format!("{}_cut{cut}.ibd", b.name),
                &original[..cut],
            );
            let fo = file.as_os_str();
            let what = format!("{} cut at {cut}", b.name);
            let run = inspect(&with_format(true, &["summary".as_ref(), fo]));
            f.sane(&run);
            f.check(run.code == 0, || {
                format!("{what}: summary\n  {}", run.show())
            });
            if run.code == 0 {
                let v = run.json();
                let t = findings_of(&v, "trailing_bytes", None);
                f.check(
                    v["page_count"] == pages
                        && v["physical_page_size"] == ps
                        && t.len() == 1
                        && t[0]["offset"] == (pages as usize * ps) as u64,
                    || format!("{what}: {}", summary_shape(&v)),
                );
                f.check(v["bad_checksums"] == 0, || {
                    format!("{what}: {}", summary_shape(&v))
                });
            }
            let run = inspect(&["checksum".as_ref(), fo]);
            f.sane(&run);
            f.check(run.code == 0, || {
                format!("{what}: the whole pages verify\n  {}", run.show())
            });
            let run = inspect(&["page".as_ref(), fo, pages.to_string().as_ref()]);
            f.fatal(
                &run,
                &file,
                &[
                    &format!("page {pages} does not exist"),
                    &format!("{pages} pages"),
                ],
            );
            for args in text_commands(&file, &[]) {
                let run = inspect(&args);
                f.sane(&run);
                f.check(run.code == 0, || format!("{what}\n  {}", run.show()));
            }
        }
    }
    f.finish("truncated files");
}

// ---------------------------------------------------------------------------
// Unreadable inputs, several files, gzip damage
// ---------------------------------------------------------------------------

#[test]
fn unreadable_inputs_fail_cleanly() {
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    let missing = dir.path().join("no_such_file.ibd");
    for args in every_command(&missing, &[]) {
        let run = inspect(&args);
        f.fatal(&run, &missing, &[]);
    }
    let subdir = dir.path().join("a_directory.ibd");
    std::fs::create_dir(&subdir).unwrap();
    for args in text_commands(&subdir, &[]) {
        let run = inspect(&args);
        f.fatal(&run, &subdir, &[]);
    }
    // Damaged gzip: a header and junk; a stream cut short; junk after the magic.
    let mut cases: Vec<(&str, Vec<u8>)> = vec![
        ("magic_only.ibd.gz", vec![0x1f, 0x8b]),
        (
            "bad_header.ibd.gz",
            [&[0x1f, 0x8b][..], &Rng::new(9).bytes(5000)].concat(),
        ),
    ];
    // The streams cut short are of a real base file.
    if support::thirdparty::present_or_skip_part("cut gzip streams of a base file").is_some() {
        let whole = gzip(&BASES[0].bytes());
        cases.push(("cut.ibd.gz", whole[..whole.len() / 2].to_vec()));
        cases.push(("cut_tail.ibd.gz", whole[..whole.len() - 4].to_vec()));
    }
    for (name, bytes) in cases {
        let file = write_file(dir.path(), name, &bytes);
        for args in every_command(&file, &[]) {
            let run = inspect(&args);
            f.fatal(&run, &file, &[]);
        }
    }
    // A gzip of junk reads like junk.
    let file = write_file(
        dir.path(),
        "junk.ibd.gz",
        &gzip(&Rng::new(10).bytes(50_000)),
    );
    let run = inspect(&["summary".as_ref(), file.as_os_str()]);
    f.fatal(&run, &file, &["page 0", "field "]);
    f.finish("unreadable inputs");
}

#[test]
#[cfg(unix)]
fn a_fifo_does_not_hang_the_tool() {
    let dir = TempDir::new().unwrap();
    let fifo = dir.path().join("pipe.ibd");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("mkfifo is not available: skipped");
        return;
    }
    let mut f = Failures::default();
    // Nobody writes to the pipe: opening it for reading blocks. The tool must
    // refuse a file that is not a regular file instead of waiting forever.
    let run = inspect_within(
        &["summary".as_ref(), fifo.as_os_str()],
        Duration::from_secs(2),
    );
    f.fatal(&run, &fifo, &[]);
    f.finish("fifo");
}

#[test]
fn checksum_keeps_going_after_a_fatal_file() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let mut f = Failures::default();
    let good = write_file(dir.path(), "good.ibd", &BASES[0].bytes());
    let empty = write_file(dir.path(), "empty.ibd", b"");
    let junk = write_file(dir.path(), "junk.ibd", &Rng::new(11).bytes(40_000));
    let mut damaged = BASES[1].bytes();
    damaged[BASES[1].page_range(5).start + 3000] ^= 4;
    let bad = write_file(dir.path(), "bad.ibd", &damaged);
    let run = inspect(&[
        "--format".as_ref(),
        "json".as_ref(),
        "checksum".as_ref(),
        good.as_os_str(),
        empty.as_os_str(),
        junk.as_os_str(),
        bad.as_os_str(),
    ]);
    f.sane(&run);
    f.check(run.code == 2, || {
        format!("a fatal file makes checksum exit 2\n  {}", run.show())
    });
    for (p, needle) in [(&empty, "empty"), (&junk, "page 0")] {
        let name = p.display().to_string();
        f.check(
            run.stderr.lines().any(|l| {
                l.starts_with(&format!("innodb-inspect: error: {name}: ")) && l.contains(needle)
            }),
            || format!("stderr must name {name} with {needle:?}\n  {}", run.show()),
        );
    }
    if let Some(v) = run.json_or(&mut f) {
        let files: Vec<String> = v["files"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|r| r["file"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        f.check(
            files == [good.display().to_string(), bad.display().to_string()],
            || format!("the readable files are still checked: {files:?}"),
        );
        let bad_report = v["files"].as_array().and_then(|a| a.get(1));
        f.check(
            bad_report.is_some_and(|r| r["bad_pages"][0]["page"] == 5),
            || format!("bad.ibd page 5: {}", short(&v)),
        );
    }
    f.finish("checksum with a fatal file");
}

// ---------------------------------------------------------------------------
// Filters that match nothing on any file
// ---------------------------------------------------------------------------

#[test]
fn pages_filters_that_cannot_match_are_refused() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let b = BASES[0];
    let dir = TempDir::new().unwrap();
    let file = write_file(dir.path(), "filters.ibd", &b.bytes());
    let fo = file.as_os_str();
    let mut f = Failures::default();
    let run = inspect(&["pages".as_ref(), fo, "--type".as_ref(), "FOO".as_ref()]);
    f.sane(&run);
    f.check(run.code == 2 && run.stderr.contains("--type FOO"), || {
        format!("pages --type FOO\n  {}", run.show())
    });
    // Names resolve in any case and with the FIL_PAGE_ prefix; numbers too.
    for t in ["index", "FIL_PAGE_INDEX", "17855"] {
        let run = inspect(&with_format(
            true,
            &["pages".as_ref(), fo, "--type".as_ref(), t.as_ref()],
        ));
        f.sane(&run);
        if let Some(v) = run.json_or(&mut f) {
            let pages = v["pages"].as_array().cloned().unwrap_or_default();
            f.check(
                !pages.is_empty() && pages.iter().all(|p| p["type"] == "INDEX"),
                || format!("pages --type {t}: {}", short(&v["pages"])),
            );
        }
    }
    let past = b.pages.to_string();
    let run = inspect(&[
        "pages".as_ref(),
        fo,
        "--range".as_ref(),
        format!("{past}..").as_ref(),
    ]);
    f.sane(&run);
    f.check(
        run.code == 2 && run.stderr.contains(&format!("the file has {past} pages")),
        || format!("pages --range {past}..\n  {}", run.show()),
    );
    f.finish("pages filters");
}

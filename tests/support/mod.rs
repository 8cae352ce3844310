//! Shared helpers of the integration tests: where the fixtures and the
//! third-party files are, and how to run the binary.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod mysql;
pub mod thirdparty;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `fixtures/` of this repository.
pub fn fixtures_dir() -> PathBuf {
    repo_root().join("fixtures")
}

/// The fixtures to check against their truth: `$INNODB_INSPECT_FIXTURES` when
/// set (a fresh `FIXTURES_OUT=DIR fixtures/generate.sh` run, as CI makes),
/// else the committed `fixtures/`.
pub fn truth_fixtures_dir() -> (PathBuf, bool) {
    match std::env::var_os("INNODB_INSPECT_FIXTURES") {
        Some(d) => (PathBuf::from(d), true),
        None => (fixtures_dir(), false),
    }
}

/// The third-party files: `../shared/thirdparty/` beside the repository,
/// or `$INNODB_INSPECT_THIRDPARTY`. A test that reads them first calls
/// [`thirdparty::present`], which skips it on a fresh clone.
pub fn thirdparty_dir() -> PathBuf {
    thirdparty::dir()
}

/// Runs `innodb-inspect` with `args`.
pub fn run<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    Command::new(env!("CARGO_BIN_EXE_innodb-inspect"))
        .args(args)
        .output()
        .expect("innodb-inspect runs")
}

/// Runs `innodb-inspect --format json ARGS` and parses its standard output.
pub fn run_json<I, S>(args: I) -> (serde_json::Value, Output)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut all: Vec<std::ffi::OsString> = vec!["--format".into(), "json".into()];
    all.extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
    let out = run(all);
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (v, out)
}

/// `innodb-inspect ARGS`: its exit code, standard output and error.
pub fn inspect<I, S>(args: I) -> (i32, String, String)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let o = run(args);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `records --format json FILE --scan --index-id ID MORE…`: exit code,
/// standard output, standard error.
pub fn records_scan(file: &Path, id: &str, more: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let head: [&std::ffi::OsStr; 7] = [
        "--format".as_ref(),
        "json".as_ref(),
        "records".as_ref(),
        file.as_os_str(),
        "--scan".as_ref(),
        "--index-id".as_ref(),
        id.as_ref(),
    ];
    inspect(head.iter().chain(more))
}

/// The `row` objects of `records --format json` output (every line must
/// be JSON).
pub fn json_rows(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v.get("row").is_some())
        .collect()
}

/// Every file below `dir` whose name ends with `suffix`, sorted; table
/// definitions (`.frm`, `.frm.gz`) left out: the fixtures' tablespaces.
pub fn tablespaces_below(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    files_below(dir, suffix)
        .into_iter()
        .filter(|p| !is_frm(p))
        .collect()
}

/// Every file below `dir` whose name ends with `suffix`, sorted.
pub fn files_below(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(suffix) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A table definition (`t.frm`, `t.frm.gz`), which the fixtures keep beside
/// the tablespaces and [`tablespaces_below`] leaves out: no tablespace.
fn is_frm(p: &Path) -> bool {
    let name = p.to_string_lossy();
    name.ends_with(".frm") || name.ends_with(".frm.gz")
}

/// Inflates a `.gz` fixture into `dir` and returns the path of the copy.
pub fn gunzip_into(gz: &Path, dir: &Path) -> PathBuf {
    use std::io::Read;
    let name = gz
        .file_name()
        .unwrap()
        .to_string_lossy()
        .trim_end_matches(".gz")
        .to_string();
    let mut data = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(gz).unwrap())
        .read_to_end(&mut data)
        .unwrap();
    let out = dir.join(name);
    std::fs::write(&out, data).unwrap();
    out
}

/// Runs `f` on a thread of its own: `Ok` with its result when it returns
/// within `limit`, `Err` naming a panic or a run past the limit (the thread
/// is left to finish on its own).
pub fn run_bounded<T: Send + 'static>(
    limit: std::time::Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        let _ = tx.send(r);
    });
    match rx.recv_timeout(limit) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(_)) => Err("panicked".into()),
        Err(_) => Err(format!("still running after {limit:?}")),
    }
}

/// A fixture file (a path below `fixtures/`) unpacked into `dir`, with its bytes.
pub fn unpack(dir: &Path, rel: &str) -> (PathBuf, Vec<u8>) {
    let path = gunzip_into(&fixtures_dir().join(rel), dir);
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

/// Restores page `n`'s full_crc32 checksum after an edit, so that the
/// structure alone is damaged, not also the checksum.
pub fn reseal(bytes: &mut [u8], page_size: usize, n: usize) {
    let page = &mut bytes[n * page_size..(n + 1) * page_size];
    let c = innodb_format::checksum::full_crc32::full_crc32(page);
    page[page_size - 4..].copy_from_slice(&c.to_be_bytes());
}

/// What a run of the binary under a time limit gave.
pub struct LimitedRun {
    /// How it ended; `None` when it ran past the limit and was killed.
    pub status: Option<std::process::ExitStatus>,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

/// Runs `innodb-inspect ARGS` (with `envs` set and `RUST_BACKTRACE=0`),
/// reading its output as it comes, and kills it after `limit`.
pub fn run_limited<S: AsRef<std::ffi::OsStr>>(
    args: &[S],
    envs: &[(&str, &Path)],
    limit: std::time::Duration,
) -> LimitedRun {
    use std::io::Read;
    use std::process::Stdio;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_innodb-inspect"));
    cmd.args(args)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("innodb-inspect starts");
    let drain = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut buf);
            }
            String::from_utf8_lossy(&buf).into_owned()
        })
    };
    let out = drain(child.stdout.take().map(|s| Box::new(s) as _));
    let err = drain(child.stderr.take().map(|s| Box::new(s) as _));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_micros(300));
    };
    LimitedRun {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// Opens `path`, accounts for every page (each must be accounted once) and
/// builds every space report over the account.
pub fn account(
    path: &Path,
) -> (
    innodb_space::Tablespace,
    innodb_analysis::reports::ownership::SpaceAccount,
) {
    use innodb_analysis::reports::space_reports::{ExtentsReport, SegmentsReport, WasteReport};
    let space = innodb_space::Tablespace::open(path, innodb_space::OpenOptions::default()).unwrap();
    let account =
        innodb_analysis::reports::ownership::SpaceAccount::build(&space).expect("a space map");
    assert_eq!(
        account.counts.total(),
        u64::from(space.page_count()),
        "every page accounted once"
    );
    let _ = ExtentsReport::new(&space, &account);
    let _ = SegmentsReport::new(&space, &account);
    let _ = WasteReport::new(&space, &account);
    (space, account)
}

/// An unsigned integer of the JSON output: a number, or (past 2^53 − 1,
/// as every command writes those) a string of its digits. `None` for
/// anything else, a small value written as a string included.
pub fn json_u64(v: &serde_json::Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_str()?
            .parse::<u64>()
            .ok()
            .filter(|&n| n > (1 << 53) - 1)
    })
}

/// A command's JSON object without its `format_version` (asserted to be 1):
/// the report as a data directory's `files[].report` nests it.
pub fn unversioned(mut v: serde_json::Value) -> serde_json::Value {
    let object = v.as_object_mut().expect("a command's JSON is an object");
    assert_eq!(
        object.shift_remove("format_version"),
        Some(serde_json::Value::from(1)),
        "format_version first"
    );
    v
}

/// The entry of the list `key` of a truth.json (`tables`, `indexes`) that
/// `pred` picks; panics naming the list when there is none.
pub fn entry<'a>(
    truth: &'a serde_json::Value,
    key: &str,
    pred: impl Fn(&&serde_json::Value) -> bool,
) -> &'a serde_json::Value {
    truth[key]
        .as_array()
        .and_then(|a| a.iter().find(pred))
        .unwrap_or_else(|| panic!("no such entry in truth.json's {key}"))
}

/// `BIT_XOR(CRC32(CONCAT_WS('|', cols…)))` over `records --format json`
/// rows, as the server computes the fixtures' row digests: CONCAT_WS skips
/// NULLs, values as `mysql -B` prints them.
pub fn concat_ws_digest(rows: &[serde_json::Value], cols: &[&str]) -> u64 {
    rows.iter()
        .map(|r| {
            let cells: Vec<String> = cols
                .iter()
                .filter_map(|c| match &r["row"][*c] {
                    serde_json::Value::Null => None,
                    serde_json::Value::String(s) => Some(s.clone()),
                    v => Some(v.to_string()),
                })
                .collect();
            u64::from(crc32fast::hash(cells.join("|").as_bytes()))
        })
        .fold(0, |a, b| a ^ b)
}

/// The big-endian 4 bytes of `b` at `at` (a field of a page in a test).
pub fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

/// The origins of the first `n` COMPACT records of a page, following
/// their next-record links from the infimum at 99.
pub fn first_records(page: &[u8], n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 99usize;
    for _ in 0..n {
        let rel = u16::from_be_bytes([page[at - 2], page[at - 1]]) as usize;
        at = (at + rel) % page.len();
        out.push(at);
    }
    out
}

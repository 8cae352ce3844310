//! Crafted corruptions with expected findings: copies of real fixture files
//! (made by a real MariaDB server, unpacked into a temporary directory and
//! never changed in place) with one structure broken on purpose, where the
//! checksum is then re-sealed so that the structure, not the checksum, is
//! what is wrong. Each test asserts the exact finding (kind, page, offset,
//! field), that every command named finishes within a time bound with its
//! documented exit code, and that the rest of the report is still produced.
//!
//! docs/corruption-catalogue.md lists every crafted corruption of the test
//! suite (these, tests/space_corruption.rs, tests/bad_input.rs and others)
//! with what each command yields.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use innodb_analysis::reports::indexes::IndexAnalysis;
use innodb_analysis::reports::page_detail::PageDetail;
use innodb_analysis::rows::records::{RecordsReport, Schema};
use innodb_format::value::column_value::Value as Cell;
use innodb_space::dictionary::Dictionary;
use innodb_space::{Finding, FindingKind, OpenOptions, Tablespace};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

// ---------------------------------------------------------------------------
// Bytes
// ---------------------------------------------------------------------------

fn be16(b: &[u8], at: usize) -> usize {
    usize::from(u16::from_be_bytes([b[at], b[at + 1]]))
}

fn put16(b: &mut [u8], at: usize, v: usize) {
    b[at..at + 2].copy_from_slice(&u16::try_from(v).unwrap().to_be_bytes());
}

fn put32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

const FIL_NULL: u32 = 0xFFFF_FFFF;

// ---------------------------------------------------------------------------
// Running the binary within a time bound
// ---------------------------------------------------------------------------

/// How long one run may take before it counts as a hang.
const RUN_LIMIT: Duration = Duration::from_secs(60);

/// One finished run of `innodb-inspect`.
struct Run {
    args: String,
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "`{}`: stdout is not JSON ({e}); stderr: {}",
                self.args, self.stderr
            )
        })
    }

    /// JSON lines (`records --format json`): the rows and the findings.
    fn json_lines(&self) -> (Vec<Value>, Vec<Value>) {
        let mut rows = Vec::new();
        let mut findings = Vec::new();
        for line in self.stdout.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("`{}`: not a JSON line ({e}): {line}", self.args));
            match v.get("finding") {
                Some(f) => findings.push(f.clone()),
                None => rows.push(v),
            }
        }
        (rows, findings)
    }

    /// Asserts the documented exit code.
    fn exits(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "`innodb-inspect {}` exited {}; stderr: {}",
            self.args, self.code, self.stderr
        );
        assert!(
            !self.stderr.contains("panicked"),
            "`innodb-inspect {}` panicked: {}",
            self.args,
            self.stderr
        );
        self
    }
}

/// Runs `innodb-inspect ARGS`; a run still going after [`RUN_LIMIT`] is
/// killed and fails the test as a hang, and so does a death by a signal.
fn inspect<S: AsRef<OsStr>>(args: &[S]) -> Run {
    let shown = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    let run = support::run_limited(args, &[], RUN_LIMIT);
    let Some(status) = run.status else {
        panic!("`innodb-inspect {shown}` hung: still running after {RUN_LIMIT:?}, killed");
    };
    let (stdout, stderr) = (run.stdout, run.stderr);
    let code = status.code().unwrap_or_else(|| {
        panic!("`innodb-inspect {shown}` was killed by a signal ({status}); stderr: {stderr}")
    });
    Run {
        args: shown,
        code,
        stdout,
        stderr,
    }
}

/// `--format json ARGS`.
fn json_args<'a>(args: &[&'a OsStr]) -> Vec<&'a OsStr> {
    let mut v: Vec<&OsStr> = vec!["--format".as_ref(), "json".as_ref()];
    v.extend_from_slice(args);
    v
}

// ---------------------------------------------------------------------------
// Findings
// ---------------------------------------------------------------------------

/// The one finding of `kind` at (`page`, `offset`, `field`) among the
/// library's `findings`; fails unless there is exactly one.
fn one<'a>(
    findings: &'a [Finding],
    kind: FindingKind,
    page: u32,
    offset: usize,
    field: &str,
) -> &'a Finding {
    let hits: Vec<&Finding> = findings
        .iter()
        .filter(|f| {
            f.kind == kind && f.page == Some(page) && f.offset == Some(offset) && f.field == field
        })
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "expected one {} finding at page {page}, offset {offset}, field {field}; findings: {findings:#?}",
        kind.name()
    );
    hits[0]
}

/// The same, among the `findings` of a JSON report (or any JSON array of findings).
fn one_json<'a>(
    findings: &'a [Value],
    kind: &str,
    page: u32,
    offset: usize,
    field: &str,
) -> &'a Value {
    let hits: Vec<&Value> = findings
        .iter()
        .filter(|f| {
            f["kind"] == kind && f["page"] == page && f["offset"] == offset && f["field"] == field
        })
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "expected one {kind} finding at page {page}, offset {offset}, field {field}; findings: {findings:#?}"
    );
    hits[0]
}

/// The `findings` array of a JSON report.
fn findings_of(v: &Value) -> Vec<Value> {
    v["findings"].as_array().cloned().unwrap_or_default()
}

fn message(f: &Value) -> &str {
    f["message"].as_str().unwrap_or("")
}

// ---------------------------------------------------------------------------
// 1. A page directory slot past PAGE_HEAP_TOP, and one past the page
// ---------------------------------------------------------------------------

/// Offset of directory slot `i` on a page of `ps` bytes (`PAGE_DIR` = 8
/// bytes before the end, 2 bytes per slot, slot 0 the infimum's).
fn slot_offset(ps: usize, i: usize) -> usize {
    ps - 8 - 2 * (i + 1)
}

/// Two leaves of `t_ordered` (16k): page 5's directory slot 1 points just
/// past `PAGE_HEAP_TOP` (inside the page, in the free space), page 6's slot 2
/// past the end of the page. `page`, `tree`, `indexes` and `records` each
/// give one finding per page naming the slot's offset and `PAGE_DIR_SLOT`,
/// exit 0, and still count and read all 10,000 rows (the record lists are
/// intact; only the directory is wrong).
#[test]
fn a_directory_slot_past_the_heap_top_or_the_page_is_a_finding() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/test/t_ordered.ibd.gz");
    let (system, _) = support::unpack(tmp.path(), "p16k/files/ibdata1.gz");

    // Page 5, slot 1 := PAGE_HEAP_TOP + 8.
    let p5 = 5 * PS;
    let n_slots = be16(&bytes, p5 + 38); // PAGE_N_DIR_SLOTS
    let heap_top = be16(&bytes, p5 + 40); // PAGE_HEAP_TOP
    assert_eq!(
        be16(&bytes, p5 + 24),
        17855,
        "page 5 should be an INDEX page"
    );
    let past_heap = heap_top + 8;
    assert!(
        n_slots >= 3 && past_heap < slot_offset(PS, n_slots - 1),
        "heap top {heap_top} should leave room before the directory of {n_slots} slots"
    );
    put16(&mut bytes, p5 + slot_offset(PS, 1), past_heap);
    support::reseal(&mut bytes, PS, 5);
    // Page 6, slot 2 := 0xFFF0, beyond the 16 KiB page.
    let p6 = 6 * PS;
    assert_eq!(
        be16(&bytes, p6 + 24),
        17855,
        "page 6 should be an INDEX page"
    );
    put16(&mut bytes, p6 + slot_offset(PS, 2), 0xFFF0);
    support::reseal(&mut bytes, PS, 6);
    std::fs::write(&path, &bytes).unwrap();

    let expect = |findings: &[Value], what: &str| {
        let f5 = one_json(
            findings,
            "bad_index_page",
            5,
            slot_offset(PS, 1),
            "PAGE_DIR_SLOT",
        );
        assert_eq!(
            message(f5),
            format!("directory slot 1 points at {past_heap}, at or past PAGE_HEAP_TOP {heap_top}"),
            "{what}"
        );
        let f6 = one_json(
            findings,
            "bad_index_page",
            6,
            slot_offset(PS, 2),
            "PAGE_DIR_SLOT",
        );
        assert_eq!(
            message(f6),
            "directory slot 2 points at 65520, past the end of the 16384-byte page",
            "{what}"
        );
    };

    // The library, page by page.
    let space = Tablespace::open(&path, OpenOptions::default()).unwrap();
    let d5 = PageDetail::build(&space, 5).unwrap();
    one(
        &d5.findings,
        FindingKind::BadIndexPage,
        5,
        slot_offset(PS, 1),
        "PAGE_DIR_SLOT",
    );
    let d6 = PageDetail::build(&space, 6).unwrap();
    one(
        &d6.findings,
        FindingKind::BadIndexPage,
        6,
        slot_offset(PS, 2),
        "PAGE_DIR_SLOT",
    );

    let f = path.as_os_str();
    // page N: the slot's finding on that page only.
    for n in ["5", "6"] {
        let run = inspect(&json_args(&["page".as_ref(), f, n.as_ref()]));
        let v = run.exits(0).json();
        let findings = findings_of(&v);
        let page: u32 = n.parse().unwrap();
        assert!(
            findings.iter().all(|x| x["page"] == page),
            "page {n}: {findings:#?}"
        );
        let offset = slot_offset(PS, if page == 5 { 1 } else { 2 });
        one_json(&findings, "bad_index_page", page, offset, "PAGE_DIR_SLOT");
        // The directory is still shown as stored.
        let text = inspect(&["page".as_ref(), f, n.as_ref()]);
        assert!(
            text.exits(0).stdout.contains("Directory slots: 99, "),
            "{}",
            text.stdout
        );
    }
    // indexes: both, and every row is still counted.
    let run = inspect(&json_args(&["indexes".as_ref(), f]));
    let v = run.exits(0).json();
    expect(&findings_of(&v), "indexes");
    assert_eq!(
        v["indexes"][0]["records"], 10000,
        "indexes still counts every row"
    );
    let index_id = v["indexes"][0]["index_id"].to_string();
    // tree: both.
    let run = inspect(&json_args(&[
        "tree".as_ref(),
        f,
        "--index".as_ref(),
        index_id.as_ref(),
    ]));
    let v = run.exits(0).json();
    expect(&findings_of(&v), "tree");
    // records: both, and every row.
    let run = inspect(&json_args(&[
        "--system".as_ref(),
        system.as_os_str(),
        "records".as_ref(),
        f,
    ]));
    let (rows, findings) = run.exits(0).json_lines();
    expect(&findings, "records");
    assert_eq!(rows.len(), 10000, "records still reads every row");
}

/// The origin of the last user record of COMPACT page `at` (a page of `ps`
/// bytes), walking from the infimum (99) to the supremum (112).
fn last_record(bytes: &[u8], at: usize, ps: usize) -> usize {
    let mut origin = 99;
    let mut last = None;
    for _ in 0..ps {
        let next = (origin + be16(bytes, at + origin - 2)) & (ps - 1);
        if next == 112 {
            return last.expect("the page holds user records");
        }
        last = Some(next);
        origin = next;
    }
    panic!("page at {at}: the record list does not reach the supremum");
}

/// Records that overlap (`page_validate`'s heap check): on two leaves of
/// `t_ordered` (16k), `PAGE_FREE` is pointed at the last record of the list
/// (page 5: one record in both lists) and 2 bytes past it (page 6: a garbage
/// record inside the list's last record). `page` and `indexes` name the
/// second record of each pair, field `record`, and still count every row.
#[test]
fn records_that_overlap_are_a_finding() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/test/t_ordered.ibd.gz");
    let mut expected = Vec::new();
    for (page, shift) in [(5usize, 0), (6, 2)] {
        let at = page * PS;
        assert_eq!(be16(&bytes, at + 24), 17855, "page {page}: INDEX");
        assert_eq!(be16(&bytes, at + 38 + 6), 0, "page {page}: no garbage");
        let last = last_record(&bytes, at, PS);
        put16(&mut bytes, at + 38 + 6, last + shift);
        support::reseal(&mut bytes, PS, page);
        expected.push((page, last, last + shift));
    }
    std::fs::write(&path, &bytes).unwrap();
    let f = path.as_os_str();
    let overlap = |findings: &[Value], (page, a, b): (usize, usize, usize)| {
        let page = u32::try_from(page).unwrap();
        let hit = one_json(findings, "bad_index_page", page, b, "record");
        assert_eq!(message(hit), format!("records at {a} and {b} overlap"));
    };
    for &e in &expected {
        let n = e.0.to_string();
        let v = inspect(&json_args(&["page".as_ref(), f, n.as_ref()]))
            .exits(0)
            .json();
        overlap(&findings_of(&v), e);
    }
    let v = inspect(&json_args(&["indexes".as_ref(), f]))
        .exits(0)
        .json();
    for &e in &expected {
        overlap(&findings_of(&v), e);
    }
    assert_eq!(v["indexes"][0]["records"], 10000, "every row still counted");
}

// ---------------------------------------------------------------------------
// 2. XDES bitmaps that contradict the segment lists and the trees
// ---------------------------------------------------------------------------

/// Size of one XDES entry for 64-page extents: 24 bytes of header, 2 bits per page.
const XDES_SIZE_64: usize = 24 + 16;

/// `extents`, `segments`, `waste` and `indexes` in JSON: each exits 0 and
/// its findings are returned by command.
fn space_reports(path: &Path) -> Vec<(&'static str, Vec<Value>)> {
    ["extents", "segments", "waste", "indexes"]
        .into_iter()
        .map(|cmd| {
            let run = inspect(&json_args(&[cmd.as_ref(), path.as_os_str()]));
            (cmd, findings_of(&run.exits(0).json()))
        })
        .collect()
}

/// `t_blob` (16k): the extent at page 64 is on its leaf segment's
/// `FSEG_FULL` list; setting the `XDES_FREE_BIT` of page 66, a leaf the
/// B+tree uses, makes the bitmap contradict both the list and the tree.
/// The space reports name the descriptor's `XDES_BITMAP` (page 0, entry 1);
/// `indexes` also names page 66 as a page its walk reached that is marked
/// free.
#[test]
fn a_used_page_of_a_full_extent_marked_free_is_a_finding() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/test/t_blob.ibd.gz");
    let entry = 150 + XDES_SIZE_64; // extent 1 (pages 64..127) on page 0
    assert_eq!(
        support::be32(&bytes, entry + 20),
        4,
        "extent 64 should be FSEG"
    );
    let page = 66usize;
    assert_eq!(be16(&bytes, page * PS + 24), 17855, "page 66: INDEX");
    assert_eq!(be16(&bytes, page * PS + 38 + 26), 0, "page 66: a leaf");
    let bit = 2 * (page - 64);
    let at = entry + 24 + bit / 8;
    assert_eq!(bytes[at] >> (bit % 8) & 1, 0, "page 66 is marked used");
    bytes[at] |= 1 << (bit % 8);
    support::reseal(&mut bytes, PS, 0);
    std::fs::write(&path, &bytes).unwrap();

    let (_, acc) = support::account(&path);
    let f = one(
        acc.findings.kept(),
        FindingKind::ExtentState,
        0,
        entry + 24,
        "XDES_BITMAP",
    );
    assert!(
        f.message
            .starts_with("extent at page 64 is on FSEG_FULL of segment ")
            && f.message.ends_with("but 1 of its pages are free"),
        "{f}"
    );
    let a =
        IndexAnalysis::build(&Tablespace::open(&path, OpenOptions::default()).unwrap()).unwrap();
    let root = a.indexes[0].0.root_page;
    let f = one(
        a.account.findings.kept(),
        FindingKind::OwnershipMismatch,
        66,
        0,
        "XDES_FREE_BIT",
    );
    assert_eq!(
        f.message,
        format!(
            "level-0 page of index {} is reached from root {root} but its extent descriptor marks it free (reserved_unused)",
            a.indexes[0].0.index_id
        )
    );
    // The walk itself is untouched: every leaf still counted.
    let leaves = a.indexes[0].1.leaves().len() as u64;
    assert_eq!(a.indexes[0].0.leaf_pages, leaves);

    for (cmd, findings) in space_reports(&path) {
        one_json(&findings, "extent_state", 0, entry + 24, "XDES_BITMAP");
        if cmd == "indexes" {
            one_json(&findings, "ownership_mismatch", 66, 0, "XDES_FREE_BIT");
        } else {
            assert_eq!(findings.len(), 1, "{cmd}: {findings:#?}");
        }
    }
}

/// `t_blob` (16k): the index root, page 3, is a fragment page of the
/// non-leaf segment in the `FREE_FRAG` extent at page 0; marking it free
/// makes `FSP_FRAG_N_USED` disagree with the bits it counts and the
/// fragment slot disagree with the bitmap. Both are findings, and
/// `indexes` does not report the root a second time.
#[test]
fn a_fragment_page_marked_free_is_a_finding() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/test/t_blob.ibd.gz");
    let entry = 150; // extent 0 on page 0
    assert_eq!(
        support::be32(&bytes, entry + 20),
        2,
        "extent 0 should be FREE_FRAG"
    );
    let frag_n_used = support::be32(&bytes, 38 + 20); // FSP_FRAG_N_USED
    let bit = 2 * 3;
    let at = entry + 24 + bit / 8;
    assert_eq!(bytes[at] >> (bit % 8) & 1, 0, "page 3 is marked used");
    bytes[at] |= 1 << (bit % 8);
    support::reseal(&mut bytes, PS, 0);
    std::fs::write(&path, &bytes).unwrap();

    let (_, acc) = support::account(&path);
    let f = one(
        acc.findings.kept(),
        FindingKind::CountMismatch,
        0,
        58,
        "FSP_FRAG_N_USED",
    );
    assert_eq!(
        f.message,
        format!(
            "FSP_FRAG_N_USED says {frag_n_used} used pages in FREE_FRAG extents; their descriptors mark {} used",
            frag_n_used - 1
        )
    );
    let f = one(
        acc.findings.kept(),
        FindingKind::OwnershipMismatch,
        3,
        0,
        "XDES_FREE_BIT",
    );
    assert_eq!(
        f.message,
        "page 3 is a fragment page of segment 1 but its descriptor marks it free"
    );
    for (cmd, findings) in space_reports(&path) {
        one_json(&findings, "count_mismatch", 0, 58, "FSP_FRAG_N_USED");
        one_json(&findings, "ownership_mismatch", 3, 0, "XDES_FREE_BIT");
        assert_eq!(findings.len(), 2, "{cmd}: {findings:#?}");
    }
}

// ---------------------------------------------------------------------------
// 3. Undo logs: a record chain, a page list and a version chain that loop
// ---------------------------------------------------------------------------

/// `TRX_SYS_RSEGS` slots with a rollback segment: (rseg id, space id, page).
fn rseg_slots(ibdata: &[u8], ps: usize) -> Vec<(usize, u32, u32)> {
    (0..128)
        .filter_map(|i| {
            let at = 5 * ps + 56 + 8 * i;
            let page = support::be32(ibdata, at + 4);
            (page != FIL_NULL).then(|| (i, support::be32(ibdata, at), page))
        })
        .collect()
}

/// The first history node of a rollback segment header page (`TRX_RSEG_HISTORY` at 46), if any.
fn history_first(file: &[u8], ps: usize, rseg_page: u32) -> Option<(usize, usize)> {
    let r = rseg_page as usize * ps;
    (support::be32(file, r + 46) > 0)
        .then(|| (support::be32(file, r + 50) as usize, be16(file, r + 54)))
}

/// A copy of a fixture configuration's data directory: `ibdata1`, its undo
/// tablespaces and `test/t_undo.ibd`, unpacked.
fn undo_datadir(dir: &Path, config: &str) -> PathBuf {
    let files = support::fixtures_dir().join(config).join("files");
    let out = dir.join(config);
    std::fs::create_dir_all(out.join("test")).unwrap();
    for name in ["ibdata1", "undo001", "undo002", "undo003"] {
        let gz = files.join(format!("{name}.gz"));
        if gz.exists() {
            support::gunzip_into(&gz, &out);
        }
    }
    support::gunzip_into(&files.join("test/t_undo.ibd.gz"), &out.join("test"));
    out
}

/// `undo` over a data directory, in JSON.
fn undo_report(datadir: &Path) -> Value {
    inspect(&json_args(&[
        "--datadir".as_ref(),
        datadir.as_os_str(),
        "undo".as_ref(),
    ]))
    .exits(0)
    .json()
}

/// `history test/t_undo --key 7` over a data directory, in JSON.
fn history_of_key_7(datadir: &Path) -> Value {
    inspect(&json_args(&[
        "--datadir".as_ref(),
        datadir.as_os_str(),
        "history".as_ref(),
        "test/t_undo".as_ref(),
        "--key".as_ref(),
        "7".as_ref(),
    ]))
    .exits(0)
    .json()
}

/// `p4k-undo` (undo logs in ibdata1, 4k): in the first history log that
/// fits on one page with at least three records, the third record's
/// `next` is pointed back at the first. `undo` names that record's offset
/// and stops reading the log there (bounded; the other logs are read as
/// before); `history`, which follows roll pointers rather than this chain,
/// still rebuilds every version.
#[test]
fn an_undo_record_that_points_back_is_a_finding() {
    const PS: usize = 4096;
    let tmp = tempfile::tempdir().unwrap();
    let datadir = undo_datadir(tmp.path(), "p4k-undo");
    let before = undo_report(&datadir);
    assert_eq!(findings_of(&before), Vec::<Value>::new());
    let ibdata = datadir.join("ibdata1");
    let mut bytes = std::fs::read(&ibdata).unwrap();
    // (page, first three records, records on the page)
    let (page, recs, n) = rseg_slots(&bytes, PS)
        .into_iter()
        .filter(|&(_, space, _)| space == 0)
        .filter_map(|(_, _, rseg)| history_first(&bytes, PS, rseg))
        .find_map(|(page, byte)| {
            let p = page * PS;
            let log = p + byte - 34;
            let one_page =
                support::be32(&bytes, p + 44 + 6) == FIL_NULL && be16(&bytes, log + 30) == 0;
            let free = be16(&bytes, p + 42);
            let mut recs = vec![be16(&bytes, log + 18)];
            while *recs.last().unwrap() < free && recs.len() < 1000 {
                recs.push(be16(&bytes, p + recs.last().unwrap()));
            }
            let n = recs.len() - 1;
            (one_page && n >= 3).then_some((page, recs, n))
        })
        .expect("a one-page history log with three records");
    let (first, third) = (recs[0], recs[2]);
    put16(&mut bytes, page * PS + third, first);
    support::reseal(&mut bytes, PS, page);
    std::fs::write(&ibdata, &bytes).unwrap();

    let v = undo_report(&datadir);
    let findings = findings_of(&v);
    let f = one_json(
        &findings,
        "broken_list",
        page as u32,
        third,
        "undo record next",
    );
    assert_eq!(
        message(f),
        format!(
            "space 0: the undo record at {third} points back to {first} (records end at {})",
            recs[n]
        )
    );
    assert_eq!(findings.len(), 1, "{findings:#?}");
    // Two of the log's records were read before the loop; every other log as before.
    assert_eq!(
        v["totals"]["undo_records"].as_u64().unwrap(),
        before["totals"]["undo_records"].as_u64().unwrap() - (n as u64 - 2)
    );
    assert_eq!(v["totals"]["undo_logs"], before["totals"]["undo_logs"]);

    let h = history_of_key_7(&datadir);
    assert_eq!(findings_of(&h), Vec::<Value>::new());
    assert_eq!(h["versions"].as_array().unwrap().len(), 6);
}

/// `p16k-undo` (three undo tablespaces, 16k): in the first history log of
/// at least three pages, the third page's `TRX_UNDO_PAGE_NODE` next link
/// is pointed back at the second page. `undo` names the page list's base
/// (`TRX_UNDO_PAGE_LIST` in the segment header on the log's header page,
/// as list walks name a cycle) with the link that closes the loop, and
/// reads that log's three pages once; `history` still rebuilds every
/// version.
#[test]
fn an_undo_page_list_that_loops_is_a_finding() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let datadir = undo_datadir(tmp.path(), "p16k-undo");
    let ibdata = std::fs::read(datadir.join("ibdata1")).unwrap();
    let undo: Vec<(PathBuf, Vec<u8>)> = ["undo001", "undo002", "undo003"]
        .iter()
        .map(|n| {
            let p = datadir.join(n);
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect();
    let space_file = |space: u32| undo.iter().position(|(_, b)| support::be32(b, 34) == space);
    // (file, header page, history node byte, the log's first three pages)
    let (file, header, byte, pages) = rseg_slots(&ibdata, PS)
        .into_iter()
        .filter_map(|(_, space, rseg)| {
            let i = space_file(space)?;
            let b = &undo[i].1;
            let (page, byte) = history_first(b, PS, rseg)?;
            let mut pages = vec![page];
            while pages.len() < 3 {
                let next = support::be32(b, *pages.last().unwrap() * PS + 44 + 6);
                if next == FIL_NULL {
                    break;
                }
                pages.push(next as usize);
            }
            (pages.len() == 3).then_some((i, page, byte, pages))
        })
        .next()
        .expect("a history log of three pages or more");
    let trx_id = u64::from_be_bytes(
        undo[file].1[header * PS + byte - 34..header * PS + byte - 26]
            .try_into()
            .unwrap(),
    );
    let (path, mut bytes) = undo[file].clone();
    let space_id = support::be32(&bytes, 34);
    // FLST_NEXT of the third page's node (offset 44 + 6) := the second page's node.
    let at = pages[2] * PS + 44 + 6;
    put32(&mut bytes, at, pages[1] as u32);
    put16(&mut bytes, at + 4, 44);
    support::reseal(&mut bytes, PS, pages[2]);
    std::fs::write(&path, &bytes).unwrap();

    let v = undo_report(&datadir);
    let findings = findings_of(&v);
    let f = one_json(
        &findings,
        "broken_list",
        header as u32,
        70,
        "TRX_UNDO_PAGE_LIST",
    );
    assert_eq!(
        message(f),
        format!(
            "space {space_id}: the undo page list of the undo log at page {header} offset {} comes back to page {}: cycle: node {}:44 links back to {}:44",
            byte - 34,
            pages[1],
            pages[2],
            pages[1]
        )
    );
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let log = v["by_transaction"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["trx_id"] == trx_id)
        .unwrap_or_else(|| panic!("transaction {trx_id}: {}", v["by_transaction"]));
    assert_eq!(log["pages"], 3, "each page of the loop read once: {log}");

    let h = history_of_key_7(&datadir);
    assert_eq!(findings_of(&h), Vec::<Value>::new());
    assert_eq!(h["versions"].as_array().unwrap().len(), 6);
}

/// InnoDB's `mach_u64_write_compressed` of a roll pointer taken apart as
/// `history` prints it: the high word compressed, then the low word.
fn roll_ptr_bytes(rp: &Value) -> Vec<u8> {
    let insert = u32::from(rp["insert"].as_bool().unwrap());
    let rseg = rp["rseg"].as_u64().unwrap() as u32;
    let page = rp["page"].as_u64().unwrap() as u32;
    let offset = rp["offset"].as_u64().unwrap() as u32;
    let high = (insert << 23) | (rseg << 16) | (page >> 16);
    let low = ((page & 0xFFFF) << 16) | offset;
    let mut out = match high {
        0..0x80 => vec![high as u8],
        0x80..0x4000 => (0x8000 | high as u16).to_be_bytes().to_vec(),
        0x4000..0x20_0000 => (0xC0_0000 | high).to_be_bytes()[1..].to_vec(),
        0x20_0000..0x1000_0000 => (0xE000_0000 | high).to_be_bytes().to_vec(),
        _ => [&[0xF0][..], &high.to_be_bytes()].concat(),
    };
    out.extend_from_slice(&low.to_be_bytes());
    out
}

/// `p4k-undo`: key 7 of `t_undo` has six versions, each older one rebuilt
/// from an undo record whose old `DB_ROLL_PTR` leads to the next. The
/// second undo record's roll pointer is pointed back at the first: a cycle
/// in the version chain. `history` names that roll pointer (page, offset
/// of the field in the record) and stops after the versions it could
/// rebuild; `undo`, which does not follow roll pointers, is unchanged.
#[test]
fn a_version_chain_that_loops_is_a_finding() {
    const PS: usize = 4096;
    let tmp = tempfile::tempdir().unwrap();
    let datadir = undo_datadir(tmp.path(), "p4k-undo");
    let before = history_of_key_7(&datadir);
    let versions = before["versions"].as_array().unwrap();
    assert_eq!(versions.len(), 6);
    // versions[k].roll_ptr leads to the undo record of version k + 1.
    let (first, second, third) = (
        &versions[0]["roll_ptr"],
        &versions[1]["roll_ptr"],
        &versions[2]["roll_ptr"],
    );
    for rp in [first, second] {
        assert_eq!(rp["rseg"].as_u64().map(|r| r >= 15), Some(true), "{rp}");
    }
    let (old, new) = (roll_ptr_bytes(third), roll_ptr_bytes(first));
    assert_eq!(old.len(), new.len(), "the same encoded length");
    let ibdata = datadir.join("ibdata1");
    let mut bytes = std::fs::read(&ibdata).unwrap();
    let page = second["page"].as_u64().unwrap() as usize;
    let rec = page * PS + second["offset"].as_u64().unwrap() as usize;
    let rec_end = page * PS + be16(&bytes, rec);
    let hits: Vec<usize> = (rec..rec_end - old.len())
        .filter(|&i| bytes[i..i + old.len()] == old[..])
        .collect();
    assert_eq!(hits.len(), 1, "the old roll pointer once in the record");
    bytes[hits[0]..hits[0] + new.len()].copy_from_slice(&new);
    support::reseal(&mut bytes, PS, page);
    std::fs::write(&ibdata, &bytes).unwrap();

    let h = history_of_key_7(&datadir);
    let findings = findings_of(&h);
    let f = one_json(
        &findings,
        "broken_list",
        page as u32,
        hits[0] - page * PS,
        "DB_ROLL_PTR",
    );
    assert_eq!(
        message(f),
        format!(
            "space 0: cycle: this undo record's DB_ROLL_PTR points back to the undo record at page {} offset {} of space 0, which the version chain already passed",
            first["page"], first["offset"]
        )
    );
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(h["versions"].as_array().unwrap().len(), 3);
    assert_eq!(h["end"], "a cycle in the version chain");

    let v = undo_report(&datadir);
    assert_eq!(findings_of(&v), Vec::<Value>::new());
}

// ---------------------------------------------------------------------------
// 4. A BLOB chain that loops
// ---------------------------------------------------------------------------

/// The pages of the first BLOB chain of `bytes` (16k pages) that has three
/// pages or more, from its head.
fn blob_chain_of_three_pages(bytes: &[u8]) -> Vec<usize> {
    const PS: usize = 16384;
    // BLOB pages (type 10) and their next pages (BTR_BLOB_HDR_NEXT_PAGE_NO at 38 + 4).
    let next = |b: &[u8], n: usize| {
        (be16(b, n * PS + 24) == 10).then(|| support::be32(b, n * PS + 42) as usize)
    };
    let blobs: Vec<usize> = (0..bytes.len() / PS)
        .filter(|&n| next(bytes, n).is_some())
        .collect();
    let targets: Vec<usize> = blobs.iter().filter_map(|&n| next(bytes, n)).collect();
    blobs
        .iter()
        .filter(|n| !targets.contains(n))
        .map(|&head| {
            let mut c = vec![head];
            while let Some(n) = next(bytes, *c.last().unwrap()) {
                if n == FIL_NULL as usize || c.len() > 10 {
                    break;
                }
                c.push(n);
            }
            c
        })
        .find(|c| c.len() >= 3)
        .expect("a BLOB chain of three pages")
}

/// `t_compact_blob` (`p16k-offpage`) unpacked beside its system tablespace,
/// whose dictionary types its rows.
struct CompactBlob {
    _dir: tempfile::TempDir,
    path: PathBuf,
    bytes: Vec<u8>,
    system: PathBuf,
    dict: Dictionary,
}

impl CompactBlob {
    fn unpack() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let (path, bytes) =
            support::unpack(dir.path(), "p16k-offpage/files/test/t_compact_blob.ibd.gz");
        let (system, _) = support::unpack(dir.path(), "p16k-offpage/files/ibdata1.gz");
        let dict =
            Dictionary::read(&Tablespace::open(&system, OpenOptions::default()).unwrap()).unwrap();
        CompactBlob {
            _dir: dir,
            path,
            bytes,
            system,
            dict,
        }
    }

    /// Writes `bytes` over the table's file.
    fn write(&self) {
        std::fs::write(&self.path, &self.bytes).unwrap();
    }

    /// The rows of the clustered index, read by the library.
    fn records(&self) -> RecordsReport {
        let space = Tablespace::open(&self.path, OpenOptions::default()).unwrap();
        let schema = Schema::from_dictionary(&self.dict, space.space_id()).unwrap();
        RecordsReport::build(&space, &schema, None, false, None).unwrap()
    }

    /// `records --system ibdata1` by the binary, exit 0: its rows and findings.
    fn records_by_binary(&self) -> (Vec<Value>, Vec<Value>) {
        inspect(&json_args(&[
            "--system".as_ref(),
            self.system.as_os_str(),
            "records".as_ref(),
            self.path.as_os_str(),
        ]))
        .exits(0)
        .json_lines()
    }
}

/// `t_compact_blob` (`p16k-offpage`, 16k): the first BLOB chain of three
/// pages or more gets its second page's `BTR_BLOB_HDR_NEXT_PAGE_NO`
/// pointed back at its first page. `records` (and the library) reads every
/// row, marks that row's column undecodable, and gives a finding naming
/// the chain (its first page and the reference's offset) and the page
/// that links back; the walk ends.
#[test]
fn a_blob_chain_that_loops_is_a_finding() {
    const PS: usize = 16384;
    let mut t = CompactBlob::unpack();
    let chain = blob_chain_of_three_pages(&t.bytes);
    let (head, second) = (chain[0], chain[1]);
    put32(&mut t.bytes, second * PS + 42, head as u32);
    support::reseal(&mut t.bytes, PS, second);
    t.write();
    let expected = |m: &str| {
        m.starts_with(&format!(
            "cycle: page {head} comes back (BTR_BLOB_HDR_NEXT_PAGE_NO of page {second} at offset 42 links back to it after "
        ))
    };

    // The library.
    let r = t.records();
    assert_eq!(r.rows.len(), 100);
    let undecoded: Vec<_> = r
        .rows
        .iter()
        .filter(|row| {
            row.values
                .iter()
                .any(|v| matches!(v, Cell::Undecoded { .. }))
        })
        .collect();
    assert_eq!(undecoded.len(), 1, "one row's BLOB runs into the loop");
    assert_eq!(
        undecoded[0]
            .external
            .iter()
            .map(|&(_, p)| p as usize)
            .collect::<Vec<_>>(),
        vec![head]
    );
    let f = one(
        &r.findings,
        FindingKind::BrokenList,
        head as u32,
        38,
        "BLOB chain",
    );
    assert!(expected(&f.message), "{f}");
    assert_eq!(r.findings.len(), 1, "{:#?}", r.findings);

    // The binary.
    let (rows, findings) = t.records_by_binary();
    assert_eq!(rows.len(), 100);
    let f = one_json(&findings, "broken_list", head as u32, 38, "BLOB chain");
    assert!(expected(message(f)), "{f}");
    // The other reports do not follow BLOB chains: no finding, exit 0.
    for cmd in ["indexes", "segments"] {
        let run = inspect(&json_args(&[cmd.as_ref(), t.path.as_os_str()]));
        assert_eq!(
            findings_of(&run.exits(0).json()),
            Vec::<Value>::new(),
            "{cmd}"
        );
    }
    let run = inspect(&[
        "page".as_ref(),
        t.path.as_os_str(),
        second.to_string().as_ref(),
    ]);
    run.exits(0);
}

/// The same chain's *last* page pointed back at its first page. The value
/// is whole before the link is followed (the reference's length is reached
/// on that page), so the row reads exactly as on the undamaged file; the
/// link, which the server writes as FIL_NULL, is a finding on the last
/// page's `BTR_BLOB_HDR_NEXT_PAGE_NO`.
#[test]
fn a_blob_chain_whose_last_page_points_back_is_a_finding() {
    const PS: usize = 16384;
    let mut t = CompactBlob::unpack();
    let before = t.records();
    assert_eq!(before.findings, Vec::new());

    let chain = blob_chain_of_three_pages(&t.bytes);
    let (head, last) = (chain[0], *chain.last().unwrap());
    assert_eq!(
        support::be32(&t.bytes, last * PS + 42),
        FIL_NULL,
        "page {last} ends the chain {chain:?}"
    );
    put32(&mut t.bytes, last * PS + 42, head as u32);
    support::reseal(&mut t.bytes, PS, last);
    t.write();
    let expected =
        format!("cycle: the last page of the chain links back to page {head} after all ");

    // The library: every row and value as before, one finding.
    let after = t.records();
    assert_eq!(
        serde_json::to_value(&after.rows).unwrap(),
        serde_json::to_value(&before.rows).unwrap(),
        "the value is read whole"
    );
    let f = one(
        &after.findings,
        FindingKind::BrokenList,
        last as u32,
        42,
        "BTR_BLOB_HDR_NEXT_PAGE_NO",
    );
    assert!(f.message.starts_with(&expected), "{f}");
    assert_eq!(after.findings.len(), 1, "{:#?}", after.findings);

    // The binary.
    let (rows, findings) = t.records_by_binary();
    assert_eq!(rows.len(), 100);
    let f = one_json(
        &findings,
        "broken_list",
        last as u32,
        42,
        "BTR_BLOB_HDR_NEXT_PAGE_NO",
    );
    assert!(message(f).starts_with(&expected), "{f}");
}

// ---------------------------------------------------------------------------
// 5. Page 0 whose flags give the wrong page size (checksum re-sealed)
// ---------------------------------------------------------------------------

/// `t_ordered` (16k, full_crc32, `FSP_SPACE_FLAGS` 0x15): the page-size
/// bits of the flags flipped to claim 4k pages (0x13), page 0's checksum
/// re-sealed over its 16 KiB. Page 0 does not verify under its own flags,
/// the following pages verify as 16k: the probed size wins, and the
/// `page0` finding names `FSP_SPACE_FLAGS`. `summary`, `pages` and
/// `checksum` work (exit 0, every page verifies); with `--page-size 16k`
/// the same, the size coming from the user. The space reports read page
/// 0's FSP header only when the size was given (`extents` exits 0 with the
/// finding); with a probed size they say page 0 is unusable (exit 2), as
/// documented. (tests/bad_input.rs
/// `damaged_page0_is_probed` and `damaged_page0_with_page_size_option`
/// make the same flip on third-party files without re-sealing.)
#[test]
fn page0_flags_with_a_wrong_page_size_are_a_finding_and_the_size_is_probed() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/test/t_ordered.ibd.gz");
    assert_eq!(
        support::be32(&bytes, 54),
        0x15,
        "full_crc32, PAGE_SSIZE 5 (16k)"
    );
    put32(&mut bytes, 54, 0x15 ^ 0x06); // PAGE_SSIZE 3: 4k
    support::reseal(&mut bytes, PS, 0);
    std::fs::write(&path, &bytes).unwrap();
    let pages = (bytes.len() / PS) as u64;
    let f = path.as_os_str();

    for (extra, source, how) in [
        (&[][..], "probed", "probed from the following pages"),
        (&["--page-size", "16k"][..], "user", "--page-size"),
    ] {
        let mut args: Vec<&OsStr> = extra.iter().map(OsStr::new).collect();
        args.extend(["summary".as_ref(), f]);
        let v = inspect(&json_args(&args)).exits(0).json();
        assert_eq!(
            (
                &v["page_size"],
                &v["page_size_source"],
                &v["page_count"],
                &v["bad_checksums"]
            ),
            (
                &Value::from(PS),
                &Value::from(source),
                &Value::from(pages),
                &Value::from(0)
            ),
            "{extra:?}"
        );
        let findings = findings_of(&v);
        let p0 = one_json(&findings, "page0", 0, 54, "FSP_SPACE_FLAGS");
        assert_eq!(
            message(p0),
            format!(
                "page 0 does not verify under the checksum its flags give (4096-byte pages, full_crc32 checksums), and the following pages disagree with those flags; reading with 16384-byte pages ({how})"
            )
        );
        assert_eq!(findings.len(), 1, "{findings:#?}");

        let mut args: Vec<&OsStr> = extra.iter().map(OsStr::new).collect();
        args.extend(["checksum".as_ref(), f]);
        let v = inspect(&json_args(&args)).exits(0).json();
        assert_eq!(v["files"][0]["pages"], pages);
        let others = v["files"][0]["other_findings"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        one_json(&others, "page0", 0, 54, "FSP_SPACE_FLAGS");

        let mut args: Vec<&OsStr> = extra.iter().map(OsStr::new).collect();
        args.extend(["pages".as_ref(), f]);
        let v = inspect(&json_args(&args)).exits(0).json();
        assert_eq!(v["pages"].as_array().unwrap().len() as u64, pages);

        // The space reports trust page 0's FSP header when the size was
        // given, not when it had to be probed.
        let mut args: Vec<&OsStr> = extra.iter().map(OsStr::new).collect();
        args.extend(["extents".as_ref(), f]);
        if source == "user" {
            let v = inspect(&json_args(&args)).exits(0).json();
            let findings = findings_of(&v);
            one_json(&findings, "page0", 0, 54, "FSP_SPACE_FLAGS");
            assert_eq!(findings.len(), 1, "{findings:#?}");
        } else {
            let run = inspect(&args);
            run.exits(2);
            assert!(run.stderr.contains("page 0 is unusable"), "{}", run.stderr);
        }
    }
}

/// `t_ordered` (16k, full_crc32): one byte of page 0's body changed, the
/// flags left intact and the checksum not re-sealed. Page 0 does not
/// verify, the following pages agree with its flags: they are used, and
/// the `page0` finding names the stored full_crc32 checksum (the last 4
/// bytes), as does the page's `bad_checksum`. `checksum` exits 1.
#[test]
fn page0_with_a_bad_checksum_and_good_flags_keeps_its_flags() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/test/t_ordered.ibd.gz");
    bytes[5000] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let f = path.as_os_str();

    let v = inspect(&json_args(&["summary".as_ref(), f]))
        .exits(0)
        .json();
    assert_eq!(v["page_size"], PS);
    assert_eq!(v["page_size_source"], "page0");
    let findings = findings_of(&v);
    let p0 = one_json(&findings, "page0", 0, PS - 4, "FIL_PAGE_FCRC32_CHECKSUM");
    assert_eq!(
        message(p0),
        "page 0 does not verify under the checksum its flags give; the following pages agree with its flags"
    );
    one_json(
        &findings,
        "bad_checksum",
        0,
        PS - 4,
        "FIL_PAGE_FCRC32_CHECKSUM",
    );
    assert_eq!(findings.len(), 2, "{findings:#?}");
    let v = inspect(&json_args(&["checksum".as_ref(), f]))
        .exits(1)
        .json();
    assert_eq!(v["files"][0]["bad_pages"][0]["page"], 0);
}

// ---------------------------------------------------------------------------
// Page 0 of a page-compressed tablespace, and a zeroed leaf
// ---------------------------------------------------------------------------

/// A fixture file unpacked into `dir` to be damaged (path and bytes), and an
/// undamaged copy beside it to compare with.
fn unpack_keeping_a_copy(dir: &Path, rel: &str) -> (PathBuf, Vec<u8>, PathBuf) {
    let (path, bytes) = support::unpack(dir, rel);
    let undamaged = dir.join("undamaged.ibd");
    std::fs::write(&undamaged, &bytes).unwrap();
    (path, bytes, undamaged)
}

/// The server's numbers for `p16k/test/t_pagecomp.ibd` (truth.json): space
/// id 10, flags 0x60000035 (full_crc32, PAGE_COMPRESSED, zlib).
const PAGECOMP_SPACE_ID: u64 = 10;

/// Page types of `t_pagecomp` as `summary` counts them, from the undamaged
/// file, with page 0 taken out.
fn page_types_but_page0(path: &Path) -> Value {
    let v = inspect(&json_args(&["summary".as_ref(), path.as_os_str()]))
        .exits(0)
        .json();
    let mut types = v["page_types"].clone();
    let map = types.as_object_mut().unwrap();
    let fsp = map.remove("FSP_HDR").unwrap();
    assert_eq!(fsp, 1);
    types
}

/// `t_pagecomp` (16k, full_crc32, every page but page 0 a zlib
/// page-compressed frame) with page 0 all zero. Nothing on page 0 is left:
/// the page size is probed, the space id comes from the other pages'
/// inflated images (their frames hold compressed data where the space id
/// would be), the algorithm from their zlib headers. `summary` gives one
/// finding, `page0` @ 0, 46, `FSP_SIZE`; every page decodes to its real
/// type, with no space-id or unverifiable finding. `records --ddl` finds the
/// index root by reading the index pages and gives the 10,000 rows of the
/// undamaged file, byte for byte, and still does with the INODE page (2)
/// zeroed as well; `records --system ibdata1` gives them too.
#[test]
fn page0_of_a_page_compressed_file_lost_is_read_from_the_other_pages() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes, undamaged) =
        unpack_keeping_a_copy(tmp.path(), "p16k/files/test/t_pagecomp.ibd.gz");
    bytes[..PS].fill(0);
    std::fs::write(&path, &bytes).unwrap();
    let f = path.as_os_str();

    let v = inspect(&json_args(&["summary".as_ref(), f]))
        .exits(0)
        .json();
    assert_eq!(v["space_id"], PAGECOMP_SPACE_ID);
    assert_eq!(v["page_size"], PS);
    assert_eq!(v["page_size_source"], "probed");
    assert_eq!(v["flags"]["compression_algorithm"], "zlib");
    let findings = findings_of(&v);
    let p0 = one_json(&findings, "page0", 0, 46, "FSP_SIZE");
    assert_eq!(
        message(p0),
        "page 0 gives a tablespace size of 0 pages; reading with 16384-byte pages (probed from the following pages)"
    );
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let mut types = v["page_types"].clone();
    let allocated = types["ALLOCATED"].as_u64().unwrap();
    types["ALLOCATED"] = Value::from(allocated - 1); // page 0, all zero now
    assert_eq!(types, page_types_but_page0(&undamaged));
    assert_eq!(v["page_types"]["INDEX"], 69);

    let ddl = tmp.path().join("t_pagecomp.sql");
    std::fs::write(
        &ddl,
        "CREATE TABLE `t_pagecomp` (`id` int(11) NOT NULL, `a` int(11) NOT NULL, \
         `b` varchar(64) DEFAULT NULL, `c` char(20) DEFAULT NULL, PRIMARY KEY (`id`)) \
         ENGINE=InnoDB DEFAULT CHARSET=latin1",
    )
    .unwrap();
    let want = inspect(&[
        "records".as_ref(),
        "--ddl".as_ref(),
        ddl.as_os_str(),
        undamaged.as_os_str(),
    ])
    .exits(0)
    .stdout
    .clone();
    assert!(
        want.starts_with("# t_pagecomp index PRIMARY (30)\n") && want.contains("\n# 10000 rows\n"),
        "{want}"
    );
    let run = inspect(&["records".as_ref(), "--ddl".as_ref(), ddl.as_os_str(), f]);
    run.exits(0);
    assert_eq!(run.stdout, want);
    assert!(
        run.stderr.contains(
            "page 0 is unusable; roots found by reading the index pages: index 30 at page 3"
        ),
        "{}",
        run.stderr
    );

    // The INODE page lost too: the root still holds its segment headers,
    // which now lead nowhere readable; it is the root all the same.
    bytes[2 * PS..3 * PS].fill(0);
    std::fs::write(&path, &bytes).unwrap();
    let run = inspect(&["records".as_ref(), "--ddl".as_ref(), ddl.as_os_str(), f]);
    run.exits(0);
    assert_eq!(run.stdout, want);
    bytes[2 * PS..3 * PS].copy_from_slice(&std::fs::read(&undamaged).unwrap()[2 * PS..3 * PS]);
    std::fs::write(&path, &bytes).unwrap();

    let (ibdata, _) = support::unpack(tmp.path(), "p16k/files/ibdata1.gz");
    let run = inspect(&[
        "records".as_ref(),
        "--system".as_ref(),
        ibdata.as_os_str(),
        f,
    ]);
    run.exits(0);
    assert!(
        run.stdout
            .starts_with("# test/t_pagecomp index PRIMARY (30)\n")
            && run.stdout.contains("\n# 10000 rows\n"),
        "{}",
        run.stdout
    );
    assert_eq!(run.stdout.lines().count(), 10_003);
}

/// `t_pagecomp` with the compression algorithm of page 0's flags
/// (`FSP_SPACE_FLAGS` bits 5–7 in full_crc32, byte 57) turned from zlib (1)
/// to none (0), the checksum not re-sealed. Page 0 does not verify; its page
/// size and checksum agree with the following pages, so its flags are used,
/// but not its algorithm: the compressed pages carry zlib streams. One
/// `page0` finding says so, beside page 0's `bad_checksum`; every page
/// decodes to its real type.
#[test]
fn page0_with_a_damaged_compression_algorithm_is_corrected_from_the_pages() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes, undamaged) =
        unpack_keeping_a_copy(tmp.path(), "p16k/files/test/t_pagecomp.ibd.gz");
    // The server reports 0x60000035 (truth.json); bits 27 and up are
    // memory-only (FSP_FLAGS_MEM_MASK, fsp0types.h: the compression level, 6,
    // in bits 28-31) and never written to page 0.
    assert_eq!(support::be32(&bytes, 54), 0x6000_0035 & !(u32::MAX << 27));
    bytes[57] ^= 0x20; // algorithm 1 -> 0
    std::fs::write(&path, &bytes).unwrap();

    let v = inspect(&json_args(&["summary".as_ref(), path.as_os_str()]))
        .exits(0)
        .json();
    assert_eq!(v["space_id"], PAGECOMP_SPACE_ID);
    assert_eq!(v["page_size_source"], "page0");
    assert_eq!(v["flags"]["compression_algorithm"], "zlib");
    let findings = findings_of(&v);
    let p0 = one_json(&findings, "page0", 0, PS - 4, "FIL_PAGE_FCRC32_CHECKSUM");
    assert_eq!(
        message(p0),
        "page 0 does not verify under the checksum its flags give; the following pages agree with its flags; \
         its flags give compression algorithm none but the page-compressed pages are zlib, which is used"
    );
    one_json(
        &findings,
        "bad_checksum",
        0,
        PS - 4,
        "FIL_PAGE_FCRC32_CHECKSUM",
    );
    assert_eq!(findings.len(), 2, "{findings:#?}");
    let mut types = v["page_types"].clone();
    types.as_object_mut().unwrap().remove("FSP_HDR");
    assert_eq!(types, page_types_but_page0(&undamaged));
}

/// `t_ordered` (16k): leaf page 5, the child of the root's node pointer at
/// 140, all zero. An all-zero page passes every page check, for the server
/// as for us (`summary` and `checksum` find nothing, exit 0); the tree
/// tells: `indexes` gives `broken_list` @ 3, 140, `node pointer`, naming page
/// 5 and what it is, and the two siblings whose links go to it; it counts
/// every row but page 5's (10,000 in the server's `COUNT(*)`). The space
/// account (`indexes`, `waste`, `segments`) finds page 5 used by the leaf
/// segment but all zero: `ownership_mismatch` @ 5, 0, `FIL_PAGE_TYPE`.
#[test]
fn a_zeroed_leaf_page_is_a_finding_on_its_parent() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes, undamaged) =
        unpack_keeping_a_copy(tmp.path(), "p16k/files/test/t_ordered.ibd.gz");
    let records_of_5 = {
        let v = inspect(&json_args(&[
            "tree".as_ref(),
            "--index".as_ref(),
            "23".as_ref(),
            undamaged.as_os_str(),
        ]))
        .exits(0)
        .json();
        let pages = v["pages"].as_array().unwrap();
        let p5 = pages.iter().find(|p| p["page"] == 5).unwrap();
        p5["records"].as_u64().unwrap()
    };
    assert!(records_of_5 > 100, "{records_of_5}");
    bytes[5 * PS..6 * PS].fill(0);
    std::fs::write(&path, &bytes).unwrap();
    let f = path.as_os_str();

    let v = inspect(&json_args(&["summary".as_ref(), f]))
        .exits(0)
        .json();
    assert_eq!(findings_of(&v), Vec::<Value>::new());
    inspect(&["checksum".as_ref(), f]).exits(0);

    let v = inspect(&json_args(&["indexes".as_ref(), f]))
        .exits(0)
        .json();
    let findings = findings_of(&v);
    let np = one_json(&findings, "broken_list", 3, 140, "node pointer");
    assert_eq!(
        message(np),
        "node pointer at 140 points at no page of index 23 at level 0: its child page number reads 5, \
         a page that is all zero (never written, or zeroed)"
    );
    one_json(&findings, "broken_list", 4, 12, "FIL_PAGE_NEXT");
    one_json(&findings, "broken_list", 6, 8, "FIL_PAGE_PREV");
    let zero = one_json(&findings, "ownership_mismatch", 5, 0, "FIL_PAGE_TYPE");
    assert_eq!(
        message(zero),
        "page 5 is used by segment 2 (index 23 leaf) but it is all zero (never written, or zeroed)"
    );
    assert_eq!(findings.len(), 4, "{findings:#?}");
    // The space reports, which walk no tree, see the used page that is zero.
    for cmd in ["waste", "segments"] {
        let v = inspect(&json_args(&[cmd.as_ref(), f])).exits(0).json();
        assert_eq!(findings_of(&v), vec![zero.clone()], "{cmd}");
    }
    let index = &v["indexes"][0];
    assert_eq!(index["index_id"], 23);
    assert_eq!(index["records"].as_u64().unwrap(), 10_000 - records_of_5);
}

// ---------------------------------------------------------------------------
// 6. Pages whose loss nothing else would show (found by zeroing every page
//    of the p16k tables in turn: these two were the only silent ones)
// ---------------------------------------------------------------------------

/// The id and root of `index` of `table` in `p16k/truth.json` (the server's
/// `INNODB_SYS_INDEXES.PAGE_NO`).
fn p16k_root(table: &str, index: &str) -> (u64, u32) {
    let truth: Value = serde_json::from_str(
        &std::fs::read_to_string(support::fixtures_dir().join("p16k/truth.json")).unwrap(),
    )
    .unwrap();
    let i = truth["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["table"] == table && i["name"] == index)
        .unwrap_or_else(|| panic!("{table}.{index} in truth.json"));
    (
        i["index_id"].as_u64().unwrap(),
        i["root_page"].as_u64().unwrap() as u32,
    )
}

/// `t_sec_before` (16k) with the root of its secondary index `k_a` zeroed.
/// The root holds the only headers that name the index's two segments, so
/// without a finding the index would simply vanish from every report (it
/// did). `segments`, `waste`, `extents` and `indexes` give one
/// `ownership_mismatch` per segment at its INODE entry's `FSEG_ID`, saying
/// the owner is lost and what the segment's first fragment page holds: the
/// zeroed root for the non-leaf segment, a leaf of the index for the leaf
/// segment; and the root itself, used by a segment but all zero. The
/// primary key is walked as before.
#[test]
fn a_zeroed_index_root_is_a_finding_on_its_segments() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes, undamaged) =
        unpack_keeping_a_copy(tmp.path(), "p16k/files/test/t_sec_before.ibd.gz");
    let (index_id, root) = p16k_root("test/t_sec_before", "k_a");
    let (primary, _) = p16k_root("test/t_sec_before", "PRIMARY");
    // The index's segments (INODE page and entry offset), from the undamaged file.
    let v = inspect(&json_args(&["segments".as_ref(), undamaged.as_os_str()]))
        .exits(0)
        .json();
    let segments: Vec<(u64, u32, usize, String)> = v["segments"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["owner"]["index_id"] == index_id)
        .map(|s| {
            (
                s["id"].as_u64().unwrap(),
                s["inode_page"].as_u64().unwrap() as u32,
                s["inode_offset"].as_u64().unwrap() as usize,
                s["owner"]["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(segments.len(), 2, "{segments:?}");
    bytes[root as usize * PS..(root as usize + 1) * PS].fill(0);
    std::fs::write(&path, &bytes).unwrap();
    let f = path.as_os_str();

    for cmd in ["segments", "waste", "extents", "indexes"] {
        let v = inspect(&json_args(&[cmd.as_ref(), f])).exits(0).json();
        let findings = findings_of(&v);
        for (id, page, offset, kind) in &segments {
            let x = one_json(&findings, "ownership_mismatch", *page, *offset, "FSEG_ID");
            let m = message(x);
            assert!(
                m.starts_with(&format!(
                    "segment {id} is in use but no segment header in the file names it: \
                     the index root or system page that owned it is lost or overwritten; \
                     its first fragment page, "
                )),
                "{cmd}: {m}"
            );
            if kind == "index_non_leaf" {
                assert!(
                    m.ends_with(&format!(
                        "{root}, where an owner's header usually is, is all zero"
                    )),
                    "{cmd}: {m}"
                );
            } else {
                assert!(
                    m.ends_with(&format!(
                        "(a page of index {index_id} at level 0), names no segment"
                    )),
                    "{cmd}: {m}"
                );
            }
        }
        let zero = one_json(&findings, "ownership_mismatch", root, 0, "FIL_PAGE_TYPE");
        let non_leaf = segments.iter().find(|s| s.3 == "index_non_leaf").unwrap().0;
        assert_eq!(
            message(zero),
            format!("page {root} is used by segment {non_leaf} (unknown) but it is all zero (never written, or zeroed)"),
            "{cmd}"
        );
        assert_eq!(findings.len(), 3, "{cmd}: {findings:#?}");
        if cmd == "indexes" {
            let ids: Vec<u64> = v["indexes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["index_id"].as_u64().unwrap())
                .collect();
            assert_eq!(ids, vec![primary], "only the primary key has a root left");
            assert_eq!(v["indexes"][0]["records"], 10_000);
        }
    }
}

/// `t_ordered` (16k) with page 1, its IBUF_BITMAP page, zeroed; and with
/// page 1 made a copy of page 2 (an INODE page). The space account
/// (`segments`, `waste`, `extents`) gives `ownership_mismatch` @ 1, 0 (and
/// @ 1, 24 for the wrong type), `FIL_PAGE_TYPE`; `summary` has nothing to
/// say of an all-zero page.
#[test]
fn a_lost_ibuf_bitmap_page_is_a_finding() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/test/t_ordered.ibd.gz");
    assert_eq!(be16(&bytes, PS + 24), 5, "page 1 is IBUF_BITMAP");
    let inode = bytes[2 * PS..3 * PS].to_vec();
    bytes[PS..2 * PS].fill(0);
    std::fs::write(&path, &bytes).unwrap();
    let f = path.as_os_str();
    for cmd in ["segments", "waste", "extents"] {
        let v = inspect(&json_args(&[cmd.as_ref(), f])).exits(0).json();
        let findings = findings_of(&v);
        let x = one_json(&findings, "ownership_mismatch", 1, 0, "FIL_PAGE_TYPE");
        assert_eq!(
            message(x),
            "page 1 should be the IBUF_BITMAP page of pages 0..16383 but it is all zero",
            "{cmd}"
        );
        assert_eq!(findings.len(), 1, "{cmd}: {findings:#?}");
    }

    bytes[PS..2 * PS].copy_from_slice(&inode);
    std::fs::write(&path, &bytes).unwrap();
    let v = inspect(&json_args(&["waste".as_ref(), f])).exits(0).json();
    let findings = findings_of(&v);
    let x = one_json(&findings, "ownership_mismatch", 1, 24, "FIL_PAGE_TYPE");
    assert_eq!(
        message(x),
        "page 1 should be the IBUF_BITMAP page of pages 0..16383 but its FIL_PAGE_TYPE is INODE"
    );
}

/// `p4k-undo` (undo logs in ibdata1, 4k) with, in turn, the TRX_SYS page,
/// the header page of the first rollback segment with history, the header
/// page of that segment's history log, and the segment header page of the
/// XA-prepared transaction zeroed. Each was read as if it held zeros (a
/// zeroed TRX_SYS page made 128 rollback segments out of page 0, with no
/// finding); each is now a finding on the page's `FIL_PAGE_TYPE` (the
/// history log's on the history node that leads to it) and the rest of the
/// undo state is read as before.
#[test]
fn zeroed_undo_pages_are_findings() {
    const PS: usize = 4096;
    let tmp = tempfile::tempdir().unwrap();
    let datadir = undo_datadir(tmp.path(), "p4k-undo");
    let ibdata = datadir.join("ibdata1");
    let undamaged = std::fs::read(&ibdata).unwrap();
    let before = undo_report(&datadir);
    assert_eq!(findings_of(&before), Vec::<Value>::new());
    let totals = |v: &Value, k: &str| v["totals"][k].as_u64().unwrap();
    let rseg = before["rollback_segments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["history_length"] == 1 && r["space_id"] == 0)
        .expect("a rollback segment with one history log");
    let (rseg_id, rseg_page) = (rseg["id"].as_u64().unwrap(), rseg["page"].as_u64().unwrap());
    let (log_page, log_byte) = history_first(&undamaged, PS, rseg_page as u32).unwrap();
    let prepared = &before["in_flight"][0];
    assert_eq!(prepared["state"], "prepared");
    let zeroed = |page: u64| {
        let mut b = undamaged.clone();
        b[page as usize * PS..(page as usize + 1) * PS].fill(0);
        std::fs::write(&ibdata, &b).unwrap();
        let v = undo_report(&datadir);
        (findings_of(&v), v)
    };

    let (findings, v) = zeroed(5);
    let f = one_json(&findings, "unreadable", 5, 0, "FIL_PAGE_TYPE");
    assert_eq!(
        message(f),
        "page 5 should be the TRX_SYS page but it is all zero; no rollback segment can be found"
    );
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(totals(&v, "rollback_segments"), 0);

    let (findings, v) = zeroed(rseg_page);
    let f = one_json(
        &findings,
        "unreadable",
        rseg_page as u32,
        0,
        "FIL_PAGE_TYPE",
    );
    assert_eq!(
        message(f),
        format!("space 0: rollback segment {rseg_id} header page {rseg_page} (TRX_SYS_RSEGS) should be a SYS page but it is all zero")
    );
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(
        totals(&v, "history_list_length"),
        totals(&before, "history_list_length") - 1
    );
    assert_eq!(totals(&v, "undo_logs"), totals(&before, "undo_logs") - 1);

    let (findings, v) = zeroed(log_page as u64);
    let f = one_json(
        &findings,
        "broken_list",
        log_page as u32,
        log_byte,
        "TRX_RSEG_HISTORY",
    );
    assert_eq!(
        message(f),
        format!("space 0: the undo log header page {log_page} should be an UNDO_LOG page but it is all zero")
    );
    let f = one_json(
        &findings,
        "count_mismatch",
        rseg_page as u32,
        46,
        "TRX_RSEG_HISTORY",
    );
    assert_eq!(
        message(f),
        format!("space 0: rollback segment {rseg_id} says its history list has 1 undo logs; 0 were walked")
    );
    assert_eq!(findings.len(), 2, "{findings:#?}");
    assert_eq!(totals(&v, "undo_logs"), totals(&before, "undo_logs") - 1);

    let page = prepared["page"].as_u64().unwrap();
    let (findings, v) = zeroed(page);
    let f = one_json(&findings, "unreadable", page as u32, 0, "FIL_PAGE_TYPE");
    assert_eq!(
        message(f),
        format!(
            "space 0: undo segment of rollback segment {} slot {} (page {page}) should be an UNDO_LOG page but it is all zero",
            prepared["rseg"], prepared["slot"]
        )
    );
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(v["in_flight"], Value::Array(Vec::new()));
    assert_eq!(v["totals"], before["totals"]);
}

/// Page 0 sizes and flags that the file or each other contradict, on a
/// real table (`p16k/test/t_random.ibd`, 576 pages, FSP_FREE_LIMIT 128;
/// page 0 re-sealed after each edit): each is a `page0` finding on its
/// field, and every report is still made.
#[test]
fn page0_sizes_and_flags_that_contradict_the_file_are_findings() {
    const FSP_SIZE: usize = 38 + 8;
    const FSP_FREE_LIMIT: usize = 38 + 12;
    const FSP_SPACE_FLAGS: usize = 38 + 16;
    let tmp = tempfile::tempdir().unwrap();
    let (_, original) = support::unpack(tmp.path(), "p16k/files/test/t_random.ibd.gz");
    assert_eq!(support::be32(&original, FSP_SIZE), 576);
    assert_eq!(support::be32(&original, FSP_FREE_LIMIT), 128);
    let flags = support::be32(&original, FSP_SPACE_FLAGS);
    let cases: [(&str, usize, u32, usize, &str); 6] = [
        (
            "size_max",
            FSP_SIZE,
            u32::MAX,
            FSP_SIZE,
            "pages 576..4294967294 are missing",
        ),
        (
            "size_1",
            FSP_SIZE,
            1,
            FSP_SIZE,
            "pages 1..575 lie past FSP_SIZE",
        ),
        (
            "limit_0",
            FSP_FREE_LIMIT,
            0,
            FSP_FREE_LIMIT,
            "FSP_FREE_LIMIT 0 is not",
        ),
        (
            "limit_max",
            FSP_FREE_LIMIT,
            u32::MAX,
            FSP_FREE_LIMIT,
            "FSP_FREE_LIMIT 4294967295 is not",
        ),
        (
            "limit_odd",
            FSP_FREE_LIMIT,
            100,
            FSP_FREE_LIMIT,
            "FSP_FREE_LIMIT 100 is not",
        ),
        (
            "algo_7",
            FSP_SPACE_FLAGS,
            flags | 7 << 5,
            FSP_SPACE_FLAGS,
            "compression algorithm 7, which no server defines",
        ),
    ];
    for (name, at, value, offset, message) in cases {
        let mut bytes = original.clone();
        put32(&mut bytes, at, value);
        support::reseal(&mut bytes, 16384, 0);
        let file = tmp.path().join(format!("t_random_{name}.ibd"));
        std::fs::write(&file, &bytes).unwrap();
        for cmd in ["summary", "extents", "checksum"] {
            let r = support::run_limited(
                &[
                    "--format".as_ref(),
                    "json".as_ref(),
                    cmd.as_ref(),
                    file.as_os_str(),
                ],
                &[],
                RUN_LIMIT,
            );
            let code = r.status.and_then(|s| s.code());
            assert_eq!(code, Some(0), "{name} {cmd}: {}", r.stderr);
            let v: Value = serde_json::from_str(&r.stdout).unwrap();
            let findings = match cmd {
                "checksum" => v["files"][0]["other_findings"].clone(),
                _ => v["findings"].clone(),
            };
            let hit = findings.as_array().unwrap().iter().find(|f| {
                f["kind"] == "page0"
                    && f["page"] == 0
                    && f["offset"] == offset
                    && f["message"].as_str().unwrap().contains(message)
            });
            assert!(
                hit.is_some(),
                "{name} {cmd}: no page0 finding at {offset} saying {message:?}: {findings}"
            );
        }
    }
}

//! Files that are sparse, longer than their page 0 says, or that change
//! length while they are read. The inputs are real fixture tablespaces,
//! copied sparse (their all-zero pages left as holes), extended with
//! `set_len` (a 2 TiB hole past FSP_SIZE), truncated or extended after
//! they were opened: crafted, labelled as such.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;
use innodb_analysis::reports::summary::Summary;
use innodb_analysis::ChecksumReport;
use innodb_space::{FindingKind, OpenOptions, Tablespace};
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(120);

/// Writes `bytes` to `path` leaving every all-zero page of `ps` bytes as a
/// hole; returns how many pages were left out.
fn write_sparse(bytes: &[u8], ps: usize, path: &Path) -> u64 {
    let mut f = std::fs::File::create(path).unwrap();
    let mut holes = 0;
    for page in bytes.chunks(ps) {
        if page.iter().all(|&b| b == 0) {
            f.seek(SeekFrom::Current(page.len() as i64)).unwrap();
            holes += 1;
        } else {
            f.write_all(page).unwrap();
        }
    }
    f.set_len(bytes.len() as u64).unwrap();
    holes
}

fn json(args: &[&std::ffi::OsStr]) -> serde_json::Value {
    let r = support::run_limited(args, &[], LIMIT);
    let status = r
        .status
        .unwrap_or_else(|| panic!("{args:?} still running after {LIMIT:?}"));
    assert_eq!(status.code(), Some(0), "{args:?}: {}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap()
}

/// A sparse copy of a real table reads as the table does: every report the
/// same but for the pages counted as holes, which are exactly its
/// all-zero pages (on a file system that reports holes; tmpfs and ext4 do).
#[test]
fn a_sparse_copy_reads_as_its_original() {
    let tmp = tempfile::tempdir().unwrap();
    let (dense, bytes) = support::unpack(tmp.path(), "p16k/files/test/t_random.ibd.gz");
    let sparse = tmp.path().join("t_random_sparse.ibd");
    let left_out = write_sparse(&bytes, 16384, &sparse);
    assert!(left_out > 400, "t_random has {left_out} all-zero pages");
    let a = json(&[
        "--format".as_ref(),
        "json".as_ref(),
        "summary".as_ref(),
        dense.as_os_str(),
    ]);
    let mut b = json(&[
        "--format".as_ref(),
        "json".as_ref(),
        "summary".as_ref(),
        sparse.as_os_str(),
    ]);
    assert_eq!(a["hole_pages"], 0);
    assert_eq!(
        b["hole_pages"], left_out,
        "every all-zero page is in a hole"
    );
    assert_eq!(a["all_zero_pages"], b["all_zero_pages"]);
    b["hole_pages"] = 0.into();
    b["file"] = a["file"].clone();
    // What each occupies on disk: the sparse copy less, by at least the
    // pages left out.
    let (da, db) = (
        a["allocated_bytes"].as_u64().unwrap(),
        b["allocated_bytes"].as_u64().unwrap(),
    );
    assert!(db + left_out * 16384 <= da, "{db} of {da} bytes allocated");
    b["allocated_bytes"] = a["allocated_bytes"].clone();
    assert_eq!(a, b, "the same summary but for the holes");
    for cmd in ["extents", "segments", "waste", "indexes", "count"] {
        let mut a = json(&[
            "--format".as_ref(),
            "json".as_ref(),
            cmd.as_ref(),
            dense.as_os_str(),
        ]);
        let mut b = json(&[
            "--format".as_ref(),
            "json".as_ref(),
            cmd.as_ref(),
            sparse.as_os_str(),
        ]);
        a["file"] = serde_json::Value::Null;
        b["file"] = serde_json::Value::Null;
        assert_eq!(a, b, "{cmd}: the same report for the sparse copy");
    }
    let pages = json(&[
        "--format".as_ref(),
        "json".as_ref(),
        "pages".as_ref(),
        sparse.as_os_str(),
    ]);
    let in_holes: u64 = pages["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["hole_pages"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(in_holes, left_out, "pages lists each hole as one row");
}

/// `truncate -s 2T` on a real 9 MiB table: 134,217,152 pages past FSP_SIZE,
/// all in one hole. Each command finishes in seconds, in little memory,
/// and says that the pages lie past FSP_SIZE.
#[test]
fn a_two_terabyte_hole_past_fsp_size_is_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let (path, bytes) = support::unpack(tmp.path(), "p16k/files/test/t_random.ibd.gz");
    let fsp_size = bytes.len() as u64 / 16384;
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(2 << 40)
        .unwrap();
    let total = (2u64 << 40) / 16384;
    let s = json(&[
        "--format".as_ref(),
        "json".as_ref(),
        "summary".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(s["page_count"], total);
    assert_eq!(s["hole_pages"], total - fsp_size);
    let finding = s["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["field"] == "FSP_SIZE")
        .expect("a finding on FSP_SIZE");
    assert!(
        finding["message"].as_str().unwrap().contains(&format!(
            "pages {fsp_size}..{} lie past FSP_SIZE",
            total - 1
        )),
        "{finding}"
    );
    let c = json(&[
        "--format".as_ref(),
        "json".as_ref(),
        "checksum".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(c["files"][0]["pages"], total, "{c}");
    for cmd in [
        "pages", "extents", "segments", "waste", "indexes", "fill", "count",
    ] {
        let r = support::run_limited(&[cmd.as_ref(), path.as_os_str()], &[], LIMIT);
        let status = r
            .status
            .unwrap_or_else(|| panic!("{cmd}: still running after {LIMIT:?}"));
        assert_eq!(status.code(), Some(0), "{cmd}: {}", r.stderr);
        assert!(
            r.stdout.len() < 1 << 20,
            "{cmd}: {} bytes of output",
            r.stdout.len()
        );
        assert!(r.stdout.contains("past FSP_SIZE"), "{cmd}: {}", r.stdout);
    }
    // The pictures, every colouring: findings go to stderr beside the PNG.
    for by in ["lsn-age", "page-type", "index", "fill"] {
        let png = tmp.path().join(format!("{by}.png"));
        let r = support::run_limited(
            &[
                "heatmap".as_ref(),
                path.as_os_str(),
                "--by".as_ref(),
                by.as_ref(),
                "--png".as_ref(),
                png.as_os_str(),
            ],
            &[],
            LIMIT,
        );
        let status = r
            .status
            .unwrap_or_else(|| panic!("heatmap --by {by}: still running"));
        assert_eq!(status.code(), Some(0), "heatmap --by {by}: {}", r.stderr);
        assert!(r.stderr.contains("past FSP_SIZE"), "{}", r.stderr);
        assert!(png.is_file());
    }
}

/// A file shortened after it was opened: the scan stops at its new end with
/// a `file_changed` finding, `checksum` is not OK, and reading a page past
/// the end is an error (a memory map would have raised SIGBUS).
#[test]
fn a_file_shortened_while_open_is_a_finding_not_a_crash() {
    let tmp = tempfile::tempdir().unwrap();
    let (path, bytes) = support::unpack(tmp.path(), "p16k/files/test/t_random.ibd.gz");
    let changed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let options = OpenOptions {
        changed: Some(changed.clone()),
        ..OpenOptions::default()
    };
    let space = Tablespace::open(&path, options.clone()).unwrap();
    assert_eq!(u64::from(space.page_count()), bytes.len() as u64 / 16384);
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(4 * 16384).unwrap();
    let err = space.page(500).expect_err("page 500 is gone");
    assert!(err.to_string().contains("shrunk to 65536 bytes"), "{err}");
    let report = ChecksumReport::build(&space);
    assert!(!report.all_valid());
    assert_eq!(report.pages, 4, "the four pages still there are checked");
    let summary = Summary::build(&space);
    let f = summary
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::FileChanged)
        .expect("a file_changed finding");
    assert_eq!(f.page, Some(4));
    assert!(
        f.message.contains("shortened to 65536 bytes"),
        "{}",
        f.message
    );
    assert!(changed.load(std::sync::atomic::Ordering::Relaxed));

    // Longer after it was opened: the scan reads what was there and says
    // the length changed.
    let grown = Tablespace::open(&path, OpenOptions::default()).unwrap();
    file.set_len(8 * 16384).unwrap();
    let summary = Summary::build(&grown);
    assert!(
        summary
            .findings
            .iter()
            .any(|f| f.kind == FindingKind::FileChanged
                && f.message.contains("from 65536 to 131072 bytes")),
        "{:?}",
        summary.findings
    );
}

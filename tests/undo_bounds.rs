//! Undo walks bounded in total and honest about what they drop: rollback
//! segments whose slots and history lists all lead to the same undo
//! segment or log, an undo log header whose `TRX_UNDO_NEXT_LOG` points at
//! itself, a `TRX_UNDO_LOG_START` of 0xFFFF and a page list that claims
//! 2^32−1 pages. The files are real MariaDB system and undo tablespaces
//! (fixtures p16k, p32k, p64k and the p16k-undo crash copy) with those
//! fields overwritten and the pages re-sealed: crafted, labelled as such.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;
use innodb_space::undo::{self, UndoState};
use innodb_space::{Finding, FindingKind, OpenOptions, Tablespace};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Offset of `TRX_RSEG_UNDO_SLOTS` on a rollback segment header page.
const UNDO_SLOTS: usize = 72;
/// Offset of the undo segment header's `TRX_UNDO_PAGE_LIST` length.
const PAGE_LIST_LEN: usize = 70;
/// Offsets inside an undo log header.
const LOG_START: usize = 18;
const NEXT_LOG: usize = 30;

fn put16(b: &mut [u8], at: usize, v: u16) {
    b[at..at + 2].copy_from_slice(&v.to_be_bytes());
}

fn put32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

fn open(p: &Path) -> Tablespace {
    Tablespace::open(p, OpenOptions::default()).unwrap()
}

fn state(system: &Path, undo_files: &[PathBuf]) -> UndoState {
    let sys = open(system);
    let undo: Vec<Tablespace> = undo_files.iter().map(|p| open(p)).collect();
    let refs: Vec<&Tablespace> = undo.iter().collect();
    undo::read(&sys, &refs)
}

fn records(s: &UndoState) -> u64 {
    s.rollback_segments
        .iter()
        .flat_map(|r| &r.history)
        .map(|l| l.counts.records)
        .sum()
}

fn find<'a>(s: &'a UndoState, field: &str, page: u32, offset: usize) -> Option<&'a Finding> {
    s.findings
        .iter()
        .find(|f| f.field == field && f.page == Some(page) && f.offset == Some(offset))
}

/// Every undo slot of every rollback segment of a real system tablespace
/// names one undo page (128 × page_size/16 slots: 524,288 at 64k). The
/// walk reads it once, says so in 1,000 findings and one count, and
/// finishes in well under a second; `plot --undo-growth` too.
#[test]
fn every_slot_naming_one_segment_is_read_once() {
    let tmp = tempfile::tempdir().unwrap();
    for (set, ps) in [("p16k", 16384usize), ("p32k", 32768), ("p64k", 65536)] {
        let (path, mut bytes) = support::unpack(tmp.path(), &format!("{set}/files/ibdata1.gz"));
        let before = state(&path, &[]);
        let rsegs: Vec<u32> = before
            .rollback_segments
            .iter()
            .filter(|r| r.slot.space_id == 0)
            .map(|r| r.slot.page_no)
            .collect();
        assert_eq!(rsegs.len(), 128, "{set}");
        // The first UNDO_LOG page of the file.
        let target = (0..bytes.len() / ps)
            .find(|&n| u16::from_be_bytes([bytes[n * ps + 24], bytes[n * ps + 25]]) == 2)
            .expect("an undo page") as u32;
        for &p in &rsegs {
            let p = p as usize;
            for i in 0..ps / 16 {
                put32(&mut bytes, p * ps + UNDO_SLOTS + 4 * i, target);
            }
            support::reseal(&mut bytes, ps, p);
        }
        let crafted = tmp.path().join(format!("{set}_fan_ibdata1"));
        std::fs::write(&crafted, &bytes).unwrap();
        let run = support::run_bounded(Duration::from_secs(60), {
            let crafted = crafted.clone();
            move || state(&crafted, &[])
        });
        let after = run.unwrap_or_else(|e| panic!("{set}: {e}"));
        let segments: usize = after
            .rollback_segments
            .iter()
            .map(|r| r.segments.len())
            .sum();
        assert_eq!(segments, 1, "{set}: the one undo segment, read once");
        let repeats = after
            .findings
            .iter()
            .filter(|f| f.kind == FindingKind::PageClaimedTwice)
            .count();
        assert_eq!(repeats, 1001, "{set}: 1000 findings and one count");
        let slots = 128 * (ps / 16) as u64;
        let summary = after.findings.iter().find(|f| f.page.is_none()).unwrap();
        assert!(
            summary
                .message
                .starts_with(&format!("{} more undo slots", slots - 1 - 1000)),
            "{set}: {}",
            summary.message
        );
        let png = tmp.path().join(format!("{set}.png"));
        let r = support::run_limited(
            &[
                "plot".as_ref(),
                "--undo-growth".as_ref(),
                crafted.as_os_str(),
                "--png".as_ref(),
                png.as_os_str(),
            ],
            &[],
            Duration::from_secs(60),
        );
        assert_eq!(
            r.status.and_then(|s| s.code()),
            Some(0),
            "{set}: {}",
            r.stderr
        );
    }
}

/// History lists of every rollback segment of an undo tablespace set to
/// one list: its log is walked once, each repeat a finding.
#[test]
fn history_lists_sharing_one_log_count_it_once() {
    let tmp = tempfile::tempdir().unwrap();
    let ps = 16384;
    let (system, _) = support::unpack(tmp.path(), "p16k-undo/files/ibdata1.gz");
    let undo_files: Vec<PathBuf> = (1..=3)
        .map(|i| support::unpack(tmp.path(), &format!("p16k-undo/files/undo00{i}.gz")).0)
        .collect();
    let before = state(&system, &undo_files);
    let in_space1: Vec<_> = before
        .rollback_segments
        .iter()
        .filter(|r| r.slot.space_id == 1)
        .collect();
    let with_history = in_space1.iter().find(|r| !r.history.is_empty()).unwrap();
    let mut bytes = std::fs::read(&undo_files[0]).unwrap();
    let from = with_history.slot.page_no as usize * ps + 38 + 8;
    let base: Vec<u8> = bytes[from..from + 16].to_vec();
    for r in &in_space1 {
        let p = r.slot.page_no as usize;
        bytes[p * ps + 38 + 8..p * ps + 38 + 24].copy_from_slice(&base);
        support::reseal(&mut bytes, ps, p);
    }
    std::fs::write(&undo_files[0], &bytes).unwrap();
    let after = state(&system, &undo_files);
    let logs_in_space1: usize = after
        .rollback_segments
        .iter()
        .filter(|r| r.slot.space_id == 1)
        .map(|r| r.history.len())
        .sum();
    assert_eq!(logs_in_space1, 1, "the shared log is walked once");
    let shared = after
        .findings
        .iter()
        .filter(|f| f.kind == FindingKind::PageClaimedTwice && f.field == "TRX_UNDO_HISTORY_NODE")
        .count();
    assert_eq!(shared, in_space1.len() - 1, "one finding per other list");
}

/// A log header's `TRX_UNDO_NEXT_LOG` pointing at itself, its
/// `TRX_UNDO_LOG_START` at 0xFFFF, and its segment's page list claiming
/// 2^32−1 pages: each a finding on its field (before: records dropped or
/// a wrong count, and no finding).
#[test]
fn undo_log_header_fields_that_drop_records_are_findings() {
    let tmp = tempfile::tempdir().unwrap();
    let ps = 16384;
    let (system, _) = support::unpack(tmp.path(), "p16k-undo/files/ibdata1.gz");
    let undo_files: Vec<PathBuf> = (1..=3)
        .map(|i| support::unpack(tmp.path(), &format!("p16k-undo/files/undo00{i}.gz")).0)
        .collect();
    let original: Vec<Vec<u8>> = undo_files
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let before = state(&system, &undo_files);
    let all_records = records(&before);
    assert!(all_records > 10_000, "{all_records}");
    // The biggest history log: the first page of its own (to_purge) segment.
    let log = before
        .rollback_segments
        .iter()
        .flat_map(|r| &r.history)
        .max_by_key(|l| l.counts.records)
        .unwrap();
    let (file, page, offset) = (log.space_id as usize - 1, log.page, log.offset);
    let at = page as usize * ps + offset;
    type Edit = fn(&mut [u8], usize, usize);
    let cases: [(&str, Edit, &str, usize); 3] = [
        (
            "next log at itself",
            |b, at, off| put16(b, at + NEXT_LOG, off as u16),
            "TRX_UNDO_NEXT_LOG",
            offset + NEXT_LOG,
        ),
        (
            "log start 0xFFFF",
            |b, at, _| put16(b, at + LOG_START, 0xFFFF),
            "TRX_UNDO_LOG_START",
            offset + LOG_START,
        ),
        (
            "page list of 2^32-1 pages",
            |b, at, off| put32(b, at - off + PAGE_LIST_LEN, u32::MAX),
            "TRX_UNDO_PAGE_LIST",
            PAGE_LIST_LEN,
        ),
    ];
    for (what, edit, field, field_offset) in cases {
        let mut bytes = original[file].clone();
        edit(&mut bytes, at, offset);
        support::reseal(&mut bytes, ps, page as usize);
        std::fs::write(&undo_files[file], &bytes).unwrap();
        let after = state(&system, &undo_files);
        let f = find(&after, field, page, field_offset)
            .unwrap_or_else(|| panic!("{what}: no finding on {field}: {:?}", after.findings));
        assert!(!f.message.is_empty());
        if what == "next log at itself" {
            assert_eq!(
                records(&after),
                all_records,
                "{what}: every record still read"
            );
        }
        std::fs::write(&undo_files[file], &original[file]).unwrap();
    }
}

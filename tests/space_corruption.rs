//! Damaged space-management structures: real fixture files (copied to a
//! temporary directory, never changed in place) with one structure broken
//! on purpose. Each damage must give a clear finding naming page, offset and
//! field, and every report must still be produced with every page accounted.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use innodb_analysis::reports::indexes::IndexAnalysis;
use innodb_space::{Finding, FindingKind, OpenOptions, Tablespace};
use std::path::Path;

fn find<'a>(findings: &'a [Finding], kind: FindingKind, needle: &str) -> Option<&'a Finding> {
    findings
        .iter()
        .find(|f| f.kind == kind && f.message.contains(needle))
}

/// The CLI on the damaged file: exit 0, the finding in its output.
fn cli_reports(path: &Path, needle: &str) {
    for cmd in ["extents", "segments", "waste"] {
        let out = support::run([cmd, path.to_str().unwrap()]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{cmd}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains(needle),
            "{cmd} output lacks {needle:?}:\n{stdout}"
        );
    }
}

/// The system tablespace's full INODE pages form a list from
/// `FSP_SEG_INODES_FULL`; pointing the last one back at the first (itself,
/// when there is one) makes a cycle.
#[test]
fn a_cyclic_inode_list_is_a_finding_and_the_walk_stops() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/ibdata1.gz");
    // FSP_SEG_INODES_FULL base at page 0, offset 118: len, first (page, byte), last.
    let base = 38 + 80;
    let len = support::be32(&bytes, base);
    let first = support::be32(&bytes, base + 4);
    let last = support::be32(&bytes, base + 10);
    assert!(len >= 1, "the fixture should have a full INODE page");
    // FLST_NEXT of the last node (page `last`, byte 38 + 6) := first node.
    let at = last as usize * PS + 38 + 6;
    bytes[at..at + 4].copy_from_slice(&first.to_be_bytes());
    bytes[at + 4..at + 6].copy_from_slice(&38u16.to_be_bytes());
    support::reseal(&mut bytes, PS, last as usize);
    std::fs::write(&path, &bytes).unwrap();

    let (_, account) = support::account(&path);
    let f = find(account.findings.kept(), FindingKind::BrokenList, "cycle")
        .unwrap_or_else(|| panic!("no cycle finding: {:?}", account.findings));
    assert_eq!(
        (f.page, f.offset, f.field),
        (Some(0), Some(base), "FSP_SEG_INODES_FULL")
    );
    assert!(
        f.message
            .contains(&format!("{last}:38 links back to {first}:38")),
        "{f}"
    );
    // The walk kept the pages it reached: every segment is still read.
    assert!(
        account.map.segments.len() >= 150,
        "{} segments",
        account.map.segments.len()
    );
    cli_reports(&path, "cycle");
}

/// Zeroing the XDES page at page 1024 of a 1 KiB-page compressed table (the
/// second descriptor page) leaves its extents undescribed; the pages before
/// it are still described and accounted.
#[test]
fn a_zeroed_xdes_page_is_a_finding_and_the_scan_goes_on() {
    const PS: usize = 1024;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p4k/files/test/t_zip1.ibd.gz");
    let before = {
        let (_, a) = support::account(&path);
        assert!(a.findings.is_empty(), "{:?}", a.findings);
        a.counts
    };
    bytes[1024 * PS..1025 * PS].fill(0);
    std::fs::write(&path, &bytes).unwrap();

    let (_, account) = support::account(&path);
    let f = find(
        account.findings.kept(),
        FindingKind::ExtentState,
        "all zero",
    )
    .unwrap_or_else(|| panic!("no XDES finding: {:?}", account.findings));
    assert_eq!((f.page, f.field), (Some(1024), "FIL_PAGE_TYPE"));
    assert!(
        f.message.contains("XDES page describing pages 1024..2047"),
        "{f}"
    );
    // The 256-page extents at 1024 and 1280 lie below the free limit (1536):
    // without their descriptor they are undescribed, not free. Pages 1024
    // and 1025 stay bookkeeping: their role is fixed by their position.
    assert_eq!(account.counts.undescribed, 512 - 2, "{:?}", account.counts);
    assert_eq!(account.counts.bookkeeping, before.bookkeeping);
    // Everything described by page 0 is as before.
    assert_eq!(account.counts.segment, before.segment);
    assert_eq!(account.counts.reserved_unused, before.reserved_unused);
    cli_reports(&path, "all zero");
}

/// `FSP_FREE` pointing beyond the file: a broken-list finding naming the
/// list, and the reports still come out.
#[test]
fn a_list_pointer_beyond_the_file_is_a_finding() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/ibdata1.gz");
    let base = 38 + 24; // FSP_FREE
    assert!(
        support::be32(&bytes, base) > 0,
        "the fixture should have free extents"
    );
    bytes[base + 4..base + 8].copy_from_slice(&999_999u32.to_be_bytes());
    support::reseal(&mut bytes, PS, 0);
    std::fs::write(&path, &bytes).unwrap();

    let (_, account) = support::account(&path);
    let f = find(
        account.findings.kept(),
        FindingKind::BrokenList,
        "not a place a list node can be",
    )
    .unwrap_or_else(|| panic!("no finding: {:?}", account.findings));
    assert_eq!(
        (f.page, f.offset, f.field),
        (Some(0), Some(base), "FSP_FREE")
    );
    assert!(f.message.contains("999999:"), "{f}");
    cli_reports(&path, "FSP_FREE");
}

/// A segment's `FSEG_NOT_FULL_N_USED` that disagrees with the descriptors.
#[test]
fn a_wrong_not_full_count_is_a_finding() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/test/t_random.ibd.gz");
    // INODE page 2, entry 1 (the leaf segment) at 50 + 192; FSEG_NOT_FULL_N_USED at +8.
    let at = 2 * PS + 50 + 192 + 8;
    let stored = support::be32(&bytes, at);
    assert!(stored > 0, "the leaf segment should have a NOT_FULL extent");
    bytes[at..at + 4].copy_from_slice(&(stored + 5).to_be_bytes());
    support::reseal(&mut bytes, PS, 2);
    std::fs::write(&path, &bytes).unwrap();

    let (_, account) = support::account(&path);
    let f = find(
        account.findings.kept(),
        FindingKind::CountMismatch,
        "NOT_FULL",
    )
    .unwrap_or_else(|| panic!("no finding: {:?}", account.findings));
    assert_eq!(
        (f.page, f.offset, f.field),
        (Some(2), Some(50 + 192 + 8), "FSEG_NOT_FULL_N_USED")
    );
    assert!(
        f.message
            .contains(&format!("says {} used pages", stored + 5)),
        "{f}"
    );
    assert!(f.message.contains(&format!("mark {stored} used")), "{f}");
}

/// A leaf whose third record links back to the first: a cycle finding on
/// that page, the walk goes on, every other page is still counted.
#[test]
fn a_cyclic_record_chain_is_a_finding_not_a_hang() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/test/t_ordered.ibd.gz");
    let page_no = 5u32;
    let page = &mut bytes[page_no as usize * PS..(page_no as usize + 1) * PS];
    let recs = support::first_records(page, 3);
    let (first, third) = (recs[0], recs[2]);
    let rel = ((first + PS - third) % PS) as u16;
    page[third - 2..third].copy_from_slice(&rel.to_be_bytes());
    support::reseal(&mut bytes, PS, page_no as usize);
    std::fs::write(&path, &bytes).unwrap();

    let space = Tablespace::open(&path, OpenOptions::default()).unwrap();
    let a = IndexAnalysis::build(&space).unwrap();
    let f = find(
        a.account.findings.kept(),
        FindingKind::BadIndexPage,
        "cycle",
    )
    .unwrap_or_else(|| panic!("no cycle finding: {:?}", a.account.findings));
    assert_eq!(
        (f.page, f.offset, f.field),
        (Some(page_no), Some(third), "REC_NEXT")
    );
    assert!(
        f.message
            .contains(&format!("links back to record {first} after 3 records")),
        "{f}"
    );
    let (stats, walk) = &a.indexes[0];
    // The other leaves are all still walked and counted.
    assert_eq!(walk.leaves().len() as u64, stats.leaf_pages);
    assert!(
        stats.records > 9000 && stats.records < 10000,
        "{}",
        stats.records
    );
    let out = support::run(["indexes", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("cycle"));
}

/// A leaf whose `FIL_PAGE_NEXT` points back at the first leaf, and a root
/// node pointer that points at the root itself: findings naming page and
/// field; the walk follows node pointers, never loops.
#[test]
fn a_cyclic_sibling_chain_and_a_child_pointing_at_its_ancestor_are_findings() {
    const PS: usize = 16384;
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/test/t_ordered.ibd.gz");
    // Leaves in key order are pages 4, 5, 6, …: page 6's next := 4.
    let at = 6 * PS + 12;
    assert_eq!(
        support::be32(&bytes, at),
        7,
        "page 6's next leaf should be page 7"
    );
    bytes[at..at + 4].copy_from_slice(&4u32.to_be_bytes());
    support::reseal(&mut bytes, PS, 6);
    // Root page 3: the second node pointer's child (at origin + 4, after the
    // 4-byte key) := 3, the root itself.
    let root = &mut bytes[3 * PS..4 * PS];
    let second = support::first_records(root, 2)[1];
    assert_eq!(
        support::be32(root, second + 4),
        5,
        "the second node pointer should point at page 5"
    );
    root[second + 4..second + 8].copy_from_slice(&3u32.to_be_bytes());
    support::reseal(&mut bytes, PS, 3);
    std::fs::write(&path, &bytes).unwrap();

    let space = Tablespace::open(&path, OpenOptions::default()).unwrap();
    let a = IndexAnalysis::build(&space).unwrap();
    let sibling = find(
        a.account.findings.kept(),
        FindingKind::BrokenList,
        "FIL_PAGE_NEXT is 4",
    )
    .unwrap_or_else(|| panic!("no sibling finding: {:?}", a.account.findings));
    assert_eq!((sibling.page, sibling.field), (Some(6), "FIL_PAGE_NEXT"));
    let child = find(
        a.account.findings.kept(),
        FindingKind::BrokenList,
        "already reached",
    )
    .unwrap_or_else(|| panic!("no node pointer finding: {:?}", a.account.findings));
    assert_eq!(
        (child.page, child.offset, child.field),
        (Some(3), Some(second), "node pointer")
    );
    // Page 5 is no longer reached from the root: an orphan.
    assert!(find(
        a.account.findings.kept(),
        FindingKind::OwnershipMismatch,
        "orphan"
    )
    .is_some_and(|f| f.page == Some(5)));
}

//! The one-pass tree analysis (`indexes`, `fill`, `count`, `plot
//! --fill-histogram`: the file read once in page order, the trees walked
//! over the index pages' summaries) against the page-by-page walk it
//! replaced: the same statistics, levels, pages reached and findings, on
//! every bundled fixture file and on real fixtures damaged on purpose
//! (crafted damage, labelled as such; copies in a temporary directory);
//! and the same pass split over 2 and 3 threads against the one thread.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use innodb_analysis::reports::indexes::{IndexAnalysis, IndexesReport};
use innodb_space::{FindingKind, OpenOptions, Tablespace};
use std::path::Path;

const PS: usize = 16384;

/// Both analyses of `path`; panics naming `label` where they differ.
/// Returns the one-pass analysis (`None` when the file has no space map,
/// which both then say).
pub(crate) fn same_analysis(path: &Path, label: &str) -> Option<IndexAnalysis> {
    let space =
        Tablespace::open(path, OpenOptions::default()).unwrap_or_else(|e| panic!("{label}: {e}"));
    let (one, walked) = match (
        IndexAnalysis::build(&space),
        IndexAnalysis::build_walked(&space),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(a), Err(b)) => {
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "{label}: errors");
            return None;
        }
        (a, b) => panic!("{label}: one pass {:?}, walk {:?}", a.is_ok(), b.is_ok()),
    };
    let json = |a: &IndexAnalysis| serde_json::to_value(IndexesReport::new(&space, a)).unwrap();
    assert_eq!(json(&one), json(&walked), "{label}: indexes report");
    assert_eq!(one.indexes.len(), walked.indexes.len(), "{label}: indexes");
    for ((_, a), (_, b)) in one.indexes.iter().zip(&walked.indexes) {
        // Levels in key order, every page reached, findings in order.
        assert_eq!(
            format!("{a:?}"),
            format!("{b:?}"),
            "{label}: walk from root {}",
            a.root_page
        );
    }
    assert_eq!(
        one.account.findings.kept(),
        walked.account.findings.kept(),
        "{label}: findings"
    );
    assert_eq!(
        one.account.findings.counts(),
        walked.account.findings.counts(),
        "{label}: finding counts"
    );
    // The pass split over threads (`--threads N`) gives the same again.
    for threads in [2, 3] {
        let split = IndexAnalysis::build_threads(&space, threads).unwrap();
        let label = format!("{label} ({threads} threads)");
        assert_eq!(json(&split), json(&one), "{label}: indexes report");
        assert_eq!(
            format!("{:?}", split.indexes),
            format!("{:?}", one.indexes),
            "{label}: walks"
        );
        assert_eq!(
            split.account.findings.kept(),
            one.account.findings.kept(),
            "{label}: findings"
        );
    }
    Some(one)
}

/// Every tablespace of every bundled fixture set (MariaDB `p*`, MySQL
/// `mysql-*`): the one pass gives what the walk gives.
#[test]
fn one_pass_equals_the_walk_on_every_fixture() {
    let dir = support::fixtures_dir();
    let mut files = 0;
    let mut indexes = 0;
    let mut leaves = 0;
    for set in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = set.file_name().to_string_lossy().to_string();
        if !(name.starts_with('p') || name.starts_with("mysql-")) || !set.path().is_dir() {
            continue;
        }
        for f in support::tablespaces_below(&set.path().join("files"), ".gz") {
            let label = f.strip_prefix(&dir).unwrap().display().to_string();
            // Doublewrite files are no tablespaces.
            if label.contains(".dblwr") || label.contains(".bdblwr") {
                continue;
            }
            files += 1;
            if let Some(a) = same_analysis(&f, &label) {
                indexes += a.indexes.len();
                leaves += a.indexes.iter().map(|(s, _)| s.leaf_pages).sum::<u64>();
            }
        }
    }
    // Ten sets of tables, system and undo tablespaces.
    assert!(files > 100, "{files} files compared");
    assert!(indexes > 300, "{indexes} indexes compared");
    assert!(leaves > 5000, "{leaves} leaf pages compared");
}

/// `p16k/files/test/t_ordered.ibd` (root 3, leaves 4, 5, 6, … in key
/// order, 4-byte keys) damaged by `damage`, resealed; both analyses must
/// agree and find `kind` with `needle` in its message.
fn damaged_t_ordered(
    what: &str,
    damage: impl FnOnce(&mut Vec<u8>),
    kind: FindingKind,
    needle: &str,
) {
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/test/t_ordered.ibd.gz");
    damage(&mut bytes);
    std::fs::write(&path, &bytes).unwrap();
    let a = same_analysis(&path, what).unwrap_or_else(|| panic!("{what}: no analysis"));
    assert!(
        a.account
            .findings
            .kept()
            .iter()
            .any(|f| f.kind == kind && f.message.contains(needle)),
        "{what}: no {kind:?} finding with {needle:?}: {:?}",
        a.account.findings.kept()
    );
}

/// The child page of the root's second node pointer := `to`.
fn repoint_second_child(bytes: &mut [u8], to: u32) {
    let root = &mut bytes[3 * PS..4 * PS];
    let second = support::first_records(root, 2)[1];
    assert_eq!(
        support::be32(root, second + 4),
        5,
        "second node pointer's child"
    );
    root[second + 4..second + 8].copy_from_slice(&to.to_be_bytes());
    support::reseal(bytes, PS, 3);
}

#[test]
fn one_pass_equals_the_walk_on_a_broken_next_pointer() {
    damaged_t_ordered(
        "leaf 6's FIL_PAGE_NEXT := 4",
        |b| {
            let at = 6 * PS + 12;
            assert_eq!(support::be32(b, at), 7, "page 6's next leaf");
            b[at..at + 4].copy_from_slice(&4u32.to_be_bytes());
            support::reseal(b, PS, 6);
        },
        FindingKind::BrokenList,
        "FIL_PAGE_NEXT is 4 but key order says 7",
    );
}

#[test]
fn one_pass_equals_the_walk_on_a_child_pointing_at_the_root() {
    damaged_t_ordered(
        "root's second child := 3",
        |b| repoint_second_child(b, 3),
        FindingKind::BrokenList,
        "which the walk already reached",
    );
}

#[test]
fn one_pass_equals_the_walk_on_children_that_are_no_leaves() {
    // Beyond the file: the finding reads the root again for the number.
    damaged_t_ordered(
        "root's second child := 0x00ffff00",
        |b| repoint_second_child(b, 0x00ff_ff00),
        FindingKind::BrokenList,
        "its child page number reads 16776960, beyond the file",
    );
    // An INODE page.
    damaged_t_ordered(
        "root's second child := 2",
        |b| repoint_second_child(b, 2),
        FindingKind::OwnershipMismatch,
        "orphan: level-0 page",
    );
    // A zeroed leaf: its parent's pointer fits no page.
    damaged_t_ordered(
        "leaf 5 zeroed",
        |b| b[5 * PS..6 * PS].fill(0),
        FindingKind::BrokenList,
        "a page that is all zero",
    );
}

/// A ROW_FORMAT=COMPRESSED leaf whose zlib stream is overwritten: the page
/// cannot be rebuilt, which both analyses say on that page (the one pass
/// keeps no summary of it and reads it again when the walk reaches it).
#[test]
fn one_pass_equals_the_walk_on_a_compressed_page_that_cannot_be_rebuilt() {
    let tmp = tempfile::tempdir().unwrap();
    let (path, mut bytes) = support::unpack(tmp.path(), "p16k/files/test/t_zip8.ibd.gz");
    let leaf = {
        let space = Tablespace::open(&path, OpenOptions::default()).unwrap();
        let a = IndexAnalysis::build_walked(&space).unwrap();
        a.indexes[0].1.leaves()[1] as usize
    };
    // KEY_BLOCK_SIZE=8: 8 KiB pages; the stream starts at byte 94.
    let zps = 8192;
    bytes[leaf * zps + 100..leaf * zps + 400].fill(0xa5);
    std::fs::write(&path, &bytes).unwrap();
    let a = same_analysis(&path, "t_zip8 leaf stream overwritten").unwrap();
    assert!(
        a.account
            .findings
            .kept()
            .iter()
            .any(|f| f.kind == FindingKind::Decompression && f.page == Some(leaf as u32)),
        "no decompression finding on page {leaf}: {:?}",
        a.account.findings.kept()
    );
}

/// Leaf 5's directory slots 1 and 2 swapped: slot 2 points at a record
/// before slot 1's, which the page check (run on every index page by the
/// one pass) names as out of key order, on that page and slot.
#[test]
fn one_pass_equals_the_walk_on_directory_slots_out_of_order() {
    let slot = |i: usize| 5 * PS + PS - 8 - 2 * (i + 1);
    let tmp = tempfile::tempdir().unwrap();
    let (_, bytes) = support::unpack(tmp.path(), "p16k/files/test/t_ordered.ibd.gz");
    let first = u16::from_be_bytes([bytes[slot(1)], bytes[slot(1) + 1]]);
    damaged_t_ordered(
        "leaf 5's slots 1 and 2 swapped",
        |b| {
            let (s1, s2) = (slot(1), slot(2));
            let one = [b[s1], b[s1 + 1]];
            b.copy_within(s2..s2 + 2, s1);
            b[s2..s2 + 2].copy_from_slice(&one);
            support::reseal(b, PS, 5);
        },
        FindingKind::BadIndexPage,
        &format!("directory slot 2 points at record {first}, out of key order"),
    );
}

/// Random damage (crafted, seeded, so each run is the same): bytes of one
/// index page overwritten at a time, half of the time in its FIL and page
/// headers, the rest anywhere (records, node pointers, directory), on a
/// table filled in random key order and one with a secondary index; the
/// one pass gives what the walk gives every time.
#[test]
fn one_pass_equals_the_walk_on_random_damage() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let tmp = tempfile::tempdir().unwrap();
    let (mut runs, mut seen) = (0, 0);
    for rel in [
        "p16k/files/test/t_random.ibd.gz",
        "p16k/files/test/t_sec_after.ibd.gz",
    ] {
        let (path, clean) = support::unpack(tmp.path(), rel);
        let pages = clean.len() / PS;
        // Index pages: FIL_PAGE_TYPE 17855.
        let index: Vec<usize> = (0..pages)
            .filter(|&n| clean[n * PS + 24..n * PS + 26] == [0x45, 0xbf])
            .collect();
        assert!(index.len() > 20, "{rel}: {} index pages", index.len());
        for round in 0..40 {
            let mut bytes = clean.clone();
            let n = index[next(index.len())];
            for _ in 0..1 + next(8) {
                let at = if next(2) == 0 {
                    8 + next(38 + 56 - 8)
                } else {
                    next(PS - 8)
                };
                bytes[n * PS + at] = next(256) as u8;
            }
            support::reseal(&mut bytes, PS, n);
            std::fs::write(&path, &bytes).unwrap();
            let a = same_analysis(&path, &format!("{rel}, round {round}: page {n} damaged"))
                .unwrap_or_else(|| panic!("{rel}, round {round}: no analysis"));
            runs += 1;
            // Damage the trees saw: a finding of a walk.
            seen += usize::from(a.indexes.iter().any(|(_, w)| !w.findings.is_empty()));
        }
    }
    assert_eq!(runs, 80);
    assert!(
        seen >= 20,
        "only {seen} of {runs} damaged copies gave a walk finding"
    );
}

/// The summaries of pages `first..last` of `space`, as one thread of the
/// pass makes them.
fn summaries(space: &Tablespace, first: u32, last: u32) -> innodb_space::btree_summary::TreePages {
    let mut trees = innodb_space::btree_summary::TreePages::new(space.page_count());
    let mut pages = innodb_space::logical_pages::LogicalPages::new(space);
    let mut checker = space.checker();
    let mut on_page = Vec::new();
    space.for_each_page(first, last.saturating_sub(1), |item| {
        if let innodb_space::ScanItem::Page(n, bytes) = item {
            if n < last {
                let check = checker.check(n, bytes, &mut on_page);
                trees.add(&mut pages, &check, bytes);
            }
        }
    });
    trees
}

/// The summaries of a file made in two runs and joined (`--threads`) are
/// those of one run: every page's summary, and each index's walk over
/// them (node pointers and their child candidates included), at several
/// split points of real fixture files.
#[test]
fn summaries_of_runs_join_into_those_of_one_run() {
    let dir = support::fixtures_dir();
    let files = [
        "p16k/files/test/t_random.ibd.gz",
        "p16k/files/test/t_sec_before.ibd.gz",
        "p4k/files/test/t_random.ibd.gz",
        "p16k/files/ibdata1.gz",
        "mysql-p16k/files/test/t_hist.ibd.gz",
    ];
    let (mut compared, mut split_runs) = (0, 0);
    for f in files {
        let space = Tablespace::open(dir.join(f), OpenOptions::default()).unwrap();
        let n = space.page_count();
        let whole = summaries(&space, 0, n);
        let roots = innodb_space::space_map::SpaceMap::read(&space)
            .unwrap()
            .index_roots();
        // Splits among the index pages: after the first page, a third and
        // half of the way to the last index page, and just before it.
        let hi = (0..n).rev().find(|&p| whole.get(p).is_some()).unwrap();
        for split in [1, hi / 3, hi / 2, hi] {
            let mut joined = summaries(&space, 0, split);
            let second = summaries(&space, split, n);
            split_runs += usize::from(!second.is_empty() && !joined.is_empty());
            joined.append(second);
            assert_eq!(joined.len(), whole.len(), "{f} at {split}");
            for p in 0..n {
                assert_eq!(joined.get(p), whole.get(p), "{f} at {split}: page {p}");
            }
            for &(_, root) in &roots {
                let mut pages = innodb_space::logical_pages::LogicalPages::new(&space);
                let walk = |t: &innodb_space::btree_summary::TreePages,
                            pages: &mut innodb_space::logical_pages::LogicalPages<'_>| {
                    let mut seen = Vec::new();
                    let w = t.walk(pages, root, |s, _| seen.push(*s));
                    format!("{w:?} {seen:?}")
                };
                assert_eq!(
                    walk(&joined, &mut pages),
                    walk(&whole, &mut pages),
                    "{f} at {split}: root {root}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 20, "{compared} walks compared");
    // Index pages on both sides of the split, for most splits.
    assert!(
        split_runs >= 10,
        "{split_runs} splits with index pages on both sides"
    );
}

/// `tree` writes each page as its walk reads it: its text and JSON are,
/// byte for byte, what the renderers make of the whole report built first
/// (the pages held), on files of both servers, every index, and one level.
#[test]
fn tree_streams_what_the_whole_report_renders() {
    use innodb_analysis::reports::naming::{name_indexes, IndexNames};
    use innodb_analysis::reports::tree_report::TreeReport;
    let dir = support::fixtures_dir();
    let mut pages = 0;
    for f in [
        "p16k/files/test/t_sec_before.ibd.gz",
        "p4k/files/test/t_random.ibd.gz",
        "p16k/files/test/t_zip4.ibd.gz",
        "mysql-p16k/files/test/t_hist.ibd.gz",
    ] {
        let path = dir.join(f);
        let space = Tablespace::open(&path, OpenOptions::default()).unwrap();
        let names = IndexNames::for_file(&space, None, OpenOptions::default());
        for (id, _) in innodb_space::space_map::SpaceMap::read(&space)
            .unwrap()
            .index_roots()
        {
            for level in [None, Some(0)] {
                let mut r = TreeReport::build(&space, id, level).unwrap();
                name_indexes(&mut r, &names);
                pages += r.pages.len();
                let mut args = vec![
                    "tree".to_string(),
                    path.display().to_string(),
                    "--index".into(),
                    id.to_string(),
                ];
                if let Some(l) = level {
                    args.extend(["--level".into(), l.to_string()]);
                }
                let text = support::run(&args);
                assert_eq!(
                    String::from_utf8(text.stdout).unwrap(),
                    innodb_render::space_text::tree(&r),
                    "{f} index {id} level {level:?}: text"
                );
                args.extend(["--format".into(), "json".into()]);
                let json = support::run(&args);
                assert_eq!(
                    String::from_utf8(json.stdout).unwrap(),
                    innodb_render::json::render(&r),
                    "{f} index {id} level {level:?}: JSON"
                );
            }
        }
    }
    assert!(pages > 200, "{pages} pages compared");
}

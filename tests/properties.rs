//! Property tests (proptest) in the normal test run: random bytes, and real
//! fixture files with random bit flips, truncations, zeroed ranges and
//! swapped pages, through every command's library path
//! (`innodb_robust::Target`). No input may panic or run past a time bound,
//! and every problem must be a finding that names its page, offset and field.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use innodb_analysis::reports::indexes::IndexAnalysis;
use innodb_analysis::reports::tree_report::TreeReport;
use innodb_analysis::reports::undo_report::UndoReport;
use innodb_analysis::Summary;
use innodb_robust::Target;
use innodb_space::dictionary::Dictionary;
use innodb_space::{Finding, FindingKind, OpenOptions, Tablespace};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

/// Real files cut to their first pages (page 0 intact), with their page size.
fn bases() -> &'static [(&'static str, usize, Vec<u8>)] {
    static B: OnceLock<Vec<(&'static str, usize, Vec<u8>)>> = OnceLock::new();
    B.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let f = support::fixtures_dir();
        [
            ("p4k/files/test/t_types.ibd.gz", 4096, 32),
            ("p4k/files/test/t_random.ibd.gz", 4096, 48),
            ("p4k/files/test/t_zip4.ibd.gz", 4096, 32),
            ("p4k/files/test/t_blob.ibd.gz", 4096, 48),
            ("p16k/files/test/t_redundant.ibd.gz", 16384, 8),
            ("p16k-crc32/files/test/t_random.ibd.gz", 16384, 8),
            ("p4k-undo/files/ibdata1.gz", 4096, 976),
        ]
        .into_iter()
        .map(|(rel, ps, pages)| {
            let copy = support::gunzip_into(&f.join(rel), tmp.path());
            let mut bytes = std::fs::read(copy).unwrap();
            bytes.truncate(ps * pages);
            (rel, ps, bytes)
        })
        .collect()
    })
}

fn dictionary() -> Option<&'static Dictionary> {
    static D: OnceLock<Option<Dictionary>> = OnceLock::new();
    D.get_or_init(|| {
        let p = support::fixtures_dir().join("p4k/files/ibdata1.gz");
        Dictionary::read(&Tablespace::open(p, OpenOptions::default()).ok()?).ok()
    })
    .as_ref()
}

/// One damage to a file of pages.
#[derive(Debug, Clone)]
enum Damage {
    /// Flip bit `bit` of byte `at` (taken modulo the page) of page `page`.
    FlipBit { page: usize, at: usize, bit: u8 },
    /// Zero `len` bytes from `at` of page `page`.
    Zero { page: usize, at: usize, len: usize },
    /// Swap two whole pages.
    Swap { a: usize, b: usize },
    /// Cut the file to `keep` bytes (taken modulo its length).
    Truncate { keep: usize },
}

/// A damage to one of the first `pages` pages (or a truncation).
fn damage(pages: usize) -> impl Strategy<Value = Damage> {
    prop_oneof![
        4 => (0..pages, 0usize..65536, 0u8..8).prop_map(|(page, at, bit)| Damage::FlipBit { page, at, bit }),
        // Headers and the structures right after them are where most is decoded.
        3 => (0..pages, 0usize..160, 0u8..8).prop_map(|(page, at, bit)| Damage::FlipBit { page, at, bit }),
        2 => (0..pages, 0usize..65536, 1usize..2048).prop_map(|(page, at, len)| Damage::Zero { page, at, len }),
        1 => (0..pages, 0..pages).prop_map(|(a, b)| Damage::Swap { a, b }),
        1 => (0usize..1 << 24).prop_map(|keep| Damage::Truncate { keep }),
    ]
}

fn apply(bytes: &mut Vec<u8>, ps: usize, d: &Damage) {
    let pages = (bytes.len() / ps).max(1);
    match *d {
        Damage::FlipBit { page, at, bit } => {
            let i = (page % pages) * ps + at % ps;
            if let Some(b) = bytes.get_mut(i) {
                *b ^= 1 << bit;
            }
        }
        Damage::Zero { page, at, len } => {
            let start = ((page % pages) * ps + at % ps).min(bytes.len());
            let end = (start + len).min(bytes.len());
            bytes[start..end].fill(0);
        }
        Damage::Swap { a, b } => {
            let (a, b) = (a % pages, b % pages);
            if a != b && (a.max(b) + 1) * ps <= bytes.len() {
                let pa = bytes[a * ps..(a + 1) * ps].to_vec();
                let pb = bytes[b * ps..(b + 1) * ps].to_vec();
                bytes[a * ps..(a + 1) * ps].copy_from_slice(&pb);
                bytes[b * ps..(b + 1) * ps].copy_from_slice(&pa);
            }
        }
        Damage::Truncate { keep } => {
            let n = bytes.len();
            if n > 0 {
                bytes.truncate(keep % n);
            }
        }
    }
}

/// Kinds that are always about one page: they must name it.
fn names_a_page(kind: FindingKind) -> bool {
    matches!(
        kind,
        FindingKind::BadChecksum
            | FindingKind::LsnMismatch
            | FindingKind::PageNumberMismatch
            | FindingKind::SpaceIdMismatch
            | FindingKind::UnknownPageType
            | FindingKind::Unverifiable
            | FindingKind::Decompression
            | FindingKind::Unreadable
    )
}

/// What is wrong with how `f` locates its problem, if anything.
fn badly_located(f: &Finding) -> Option<String> {
    if f.field.is_empty() {
        return Some(format!("no field: {f:?}"));
    }
    if f.page.is_none() && f.offset.is_none() {
        return Some(format!("neither page nor offset: {f:?}"));
    }
    if names_a_page(f.kind) && (f.page.is_none() || f.offset.is_none()) {
        return Some(format!("a page finding without page and offset: {f:?}"));
    }
    None
}

/// Runs every target over `bytes` and checks the findings of the scans, the
/// space account, `tree` of every index and `undo`; `Err` says what went
/// wrong.
fn check(bytes: Vec<u8>, scratch: PathBuf) -> Result<(), String> {
    let dict = dictionary();
    support::run_bounded(LIMIT, move || -> Result<(), String> {
        for t in [
            Target::WholeFile,
            Target::Pages,
            Target::Records,
            Target::Undo,
            Target::ZipPage,
            Target::UndoRecords,
        ] {
            t.run(
                &bytes,
                &scratch,
                if t == Target::Records { dict } else { None },
            );
        }
        std::fs::write(&scratch, &bytes).unwrap();
        located(&scratch)
    })?
}

/// Checks that every finding of `summary`, the space account, `tree` of
/// every index and `undo` over the file at `path` is located; `Err` names
/// the first that is not.
fn located(path: &Path) -> Result<(), String> {
    let Ok(space) = Tablespace::open(path, OpenOptions::default()) else {
        return Ok(());
    };
    let s = Summary::build(&space);
    let mut all: Vec<&Finding> = s.findings.iter().collect();
    let a = IndexAnalysis::build(&space).ok();
    let mut trees = Vec::new();
    if let Some(a) = &a {
        all.extend(a.account.findings.kept());
        trees.extend(
            a.indexes
                .iter()
                .filter_map(|(i, _)| TreeReport::build(&space, i.index_id, None).ok()),
        );
    }
    all.extend(trees.iter().flat_map(|t| &t.findings));
    let undo = UndoReport::build(&space, &[], None);
    all.extend(&undo.findings);
    match all.into_iter().find_map(badly_located) {
        Some(problem) => Err(problem),
        None => Ok(()),
    }
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // A failure is reported with the shrunk damages; no persistence file.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(96))]

    /// Real files with 1 to 8 damages of any kind.
    #[test]
    fn damaged_real_files(base in 0usize..7, damages in proptest::collection::vec(damage(64), 1..8)) {
        let (rel, ps, bytes) = &bases()[base];
        let mut bytes = bytes.clone();
        for d in &damages {
            apply(&mut bytes, *ps, d);
        }
        let tmp = tempfile::tempdir().unwrap();
        let r = check(bytes, tmp.path().join("damaged.ibd"));
        prop_assert!(r.is_ok(), "{rel} {damages:?}: {r:?}");
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// Random bytes of any length up to a few pages.
    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..40_000)) {
        let tmp = tempfile::tempdir().unwrap();
        let r = check(bytes, tmp.path().join("random.ibd"));
        prop_assert!(r.is_ok(), "{r:?}");
    }

    /// A real page 0 followed by random pages: the file opens, and every
    /// page-level decoder meets garbage.
    #[test]
    fn random_pages_behind_a_real_page0(base in 0usize..6, tail in proptest::collection::vec(any::<u8>(), 0..65_536)) {
        let (rel, ps, bytes) = &bases()[base];
        let mut file = bytes[..*ps].to_vec();
        file.extend_from_slice(&tail);
        let tmp = tempfile::tempdir().unwrap();
        let r = check(file, tmp.path().join("tail.ibd"));
        prop_assert!(r.is_ok(), "{rel}: {r:?}");
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// The undo scenario's 316 undo pages with 1 to 8 damages, laid over
    /// its real system tablespace: `undo` meets damage on every page it
    /// reads, not only on the first 64 pages of the file.
    #[test]
    fn damaged_undo_pages(damages in proptest::collection::vec(damage(316), 1..8)) {
        let mut bytes = innodb_robust::base_undo_pages();
        prop_assert_eq!(bytes.len(), 316 * 4096);
        for d in &damages {
            apply(&mut bytes, 4096, d);
        }
        let tmp = tempfile::tempdir().unwrap();
        let scratch = tmp.path().join("undo.ibd");
        let r = support::run_bounded(LIMIT, move || {
            innodb_robust::undo_pages(&bytes, &scratch);
            located(&scratch)
        });
        prop_assert!(matches!(r, Ok(Ok(()))), "{damages:?}: {r:?}");
    }
}

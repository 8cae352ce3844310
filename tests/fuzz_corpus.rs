//! The fuzz corpus kept in `crates/fuzz/kept/TARGET/` (minimised from the
//! fuzzers' working corpus) and the inputs that
//! once crashed or hung a target, kept in `crates/fuzz/regressions/TARGET/`
//! (gzipped when large: `NAME.gz`),
//! replayed through the same entry points the fuzz targets call
//! (`innodb_robust::Target`): none may panic, and each must finish within a
//! time bound. See docs/robustness.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use innodb_robust::Target;
use innodb_space::dictionary::Dictionary;
use innodb_space::{OpenOptions, Tablespace};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Generous: the slowest corpus input takes well under a second in a
/// test build; a walk that does not end is what this catches.
const LIMIT: Duration = Duration::from_secs(60);

fn fuzz_dir() -> PathBuf {
    support::repo_root().join("crates/fuzz")
}

fn dictionary() -> Option<Dictionary> {
    let p = support::fixtures_dir().join("p4k/files/ibdata1.gz");
    Dictionary::read(&Tablespace::open(p, OpenOptions::default()).ok()?).ok()
}

/// The files of `dir`, sorted (none when it does not exist).
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.is_file());
    v.sort();
    v
}

/// Runs `target` over `input` within [`LIMIT`]; `Err` names a panic or
/// a run past it.
fn replay(
    target: Target,
    input: &Path,
    dict: Option<Dictionary>,
    scratch: PathBuf,
) -> Result<usize, String> {
    let mut data = std::fs::read(input).unwrap();
    if input.extension().is_some_and(|e| e == "gz") {
        // Large inputs are kept gzipped.
        use std::io::Read;
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(&data[..])
            .read_to_end(&mut raw)
            .unwrap();
        data = raw;
    }
    support::run_bounded(LIMIT, move || target.run(&data, &scratch, dict.as_ref()))
}

#[test]
fn kept_corpus_and_regressions_replay_without_panic_or_hang() {
    let tmp = tempfile::tempdir().unwrap();
    let dict = dictionary();
    assert!(dict.is_some(), "the fixture dictionary reads");
    let mut failures = Vec::new();
    let mut replayed = 0;
    for target in Target::ALL {
        for kind in ["kept", "regressions"] {
            for input in inputs(&fuzz_dir().join(kind).join(target.name())) {
                let scratch = tmp.path().join(format!("{}-{replayed}.ibd", target.name()));
                let d = if target == Target::Records {
                    dict.clone()
                } else {
                    None
                };
                match replay(target, &input, d, scratch) {
                    Ok(_) => replayed += 1,
                    Err(e) => failures.push(format!("{} {}: {e}", target.name(), input.display())),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // The corpus is committed: an empty replay means it went missing.
    assert!(
        replayed >= Target::ALL.len(),
        "only {replayed} inputs replayed"
    );
}

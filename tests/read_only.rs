//! Files are read, never written: every command run over real tablespaces
//! leaves their bytes and modification times as they were.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use md5::{Digest, Md5};
use std::path::{Path, PathBuf};

fn fingerprint(p: &Path) -> (String, std::time::SystemTime, u64) {
    let bytes = std::fs::read(p).unwrap();
    let meta = std::fs::metadata(p).unwrap();
    (
        format!("{:x}", Md5::digest(&bytes)),
        meta.modified().unwrap(),
        meta.len(),
    )
}

#[test]
fn no_command_writes_to_the_files_it_reads() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("test")).unwrap();
    let src = support::fixtures_dir().join("p16k-undo/files");
    let mut files: Vec<PathBuf> = Vec::new();
    for f in support::tablespaces_below(&src, ".gz") {
        let rel = f.strip_prefix(&src).unwrap();
        let target_dir = dir.join(rel.parent().unwrap());
        files.push(support::gunzip_into(&f, &target_dir));
    }
    let before: Vec<_> = files.iter().map(|f| fingerprint(f)).collect();
    let t = |n: &str| dir.join("test").join(n).display().to_string();
    let ibdata = dir.join("ibdata1").display().to_string();
    let d = dir.display().to_string();
    let png = dir.join("out.png").display().to_string();
    let runs: Vec<Vec<String>> = vec![
        vec!["summary".into(), t("t_undo.ibd")],
        vec!["pages".into(), t("t_undo.ibd")],
        vec!["page".into(), t("t_undo.ibd"), "3".into()],
        vec![
            "checksum".into(),
            t("t_undo.ibd"),
            ibdata.clone(),
            "--threads".into(),
            "2".into(),
        ],
        vec!["extents".into(), t("t_ordered.ibd")],
        vec!["segments".into(), ibdata.clone()],
        vec!["waste".into(), t("t_ordered.ibd")],
        vec!["indexes".into(), t("t_ordered.ibd")],
        vec!["fill".into(), t("t_ordered.ibd")],
        vec!["count".into(), t("t_ordered.ibd")],
        vec![
            "--datadir".into(),
            d.clone(),
            "records".into(),
            "test/t_undo".into(),
        ],
        vec![
            "--datadir".into(),
            d.clone(),
            "undo".into(),
            "--records".into(),
            "5".into(),
        ],
        vec![
            "--datadir".into(),
            d.clone(),
            "history".into(),
            t("t_undo.ibd"),
            "--key".into(),
            "7".into(),
        ],
        vec!["--datadir".into(), d.clone(), "summary".into()],
        vec!["--datadir".into(), d.clone(), "indexes".into()],
        vec![
            "heatmap".into(),
            t("t_undo.ibd"),
            "--by".into(),
            "index".into(),
        ],
        vec![
            "heatmap".into(),
            ibdata.clone(),
            "--png".into(),
            png.clone(),
        ],
        vec![
            "--datadir".into(),
            d.clone(),
            "plot".into(),
            "--undo-growth".into(),
        ],
        vec!["plot".into(), t("t_ordered.ibd"), "--levels".into()],
    ];
    for args in &runs {
        let out = support::run(args);
        assert!(
            out.status.code().is_some_and(|c| c <= 1),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let after: Vec<_> = files.iter().map(|f| fingerprint(f)).collect();
    for ((f, b), a) in files.iter().zip(&before).zip(&after) {
        assert_eq!(b, a, "{} changed", f.display());
    }
    assert!(files.len() >= 6);
}

/// Every whole-directory command over every fixture data directory, and
/// the one-object commands (`page`, `tree`, `records`, `history`) over each
/// of its files, with the fixtures read in place: not one file's bytes,
/// length or modification time changes.
#[test]
fn every_command_over_every_fixture_leaves_it_unchanged() {
    let fixtures = support::fixtures_dir();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path().join("files")))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 10, "{} fixture directories", dirs.len());
    let files: Vec<PathBuf> = dirs
        .iter()
        .flat_map(|d| support::tablespaces_below(d, ".gz"))
        .collect();
    let before: Vec<_> = files.iter().map(|f| fingerprint(f)).collect();
    let out = tempfile::tempdir().unwrap();
    let whole_dir: [&[&str]; 16] = [
        &["summary"],
        &["checksum"],
        &["pages"],
        &["extents"],
        &["segments"],
        &["waste"],
        &["indexes"],
        &["fill"],
        &["count"],
        &["sdi"],
        &["heatmap", "--by", "index"],
        &["heatmap", "--by", "lsn-age", "--png", "PNG"],
        &["plot", "--levels", "--png", "PNG"],
        &["plot", "--fill-histogram"],
        &["plot", "--undo-growth"],
        &["undo", "--records", "3"],
    ];
    let mut runs = 0;
    for d in &dirs {
        let png = out.path().join(format!("png-{runs}"));
        for args in whole_dir {
            let mut a = vec!["--datadir".to_string(), d.display().to_string()];
            a.extend(args.iter().map(|s| {
                if *s == "PNG" {
                    png.display().to_string()
                } else {
                    s.to_string()
                }
            }));
            let o = support::run(&a);
            assert!(
                o.status.code().is_some_and(|c| c <= 1),
                "{a:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            runs += 1;
        }
        for f in support::files_below(d, ".ibd.gz") {
            let file = f.display().to_string();
            let dir = d.display().to_string();
            for args in [
                vec!["page", &file, "3"],
                vec!["tree", &file, "--index", "1"],
                vec!["--datadir", &dir, "records", &file, "--limit", "5"],
                vec!["--datadir", &dir, "history", &file, "--key", "1"],
            ] {
                // Exit 2 is a usage or not-found answer (no such index, no
                // such key): still a run that must not write.
                let o = support::run(&args);
                assert!(o.status.code().is_some(), "{args:?} was killed");
                runs += 1;
            }
        }
    }
    let after: Vec<_> = files.iter().map(|f| fingerprint(f)).collect();
    for ((f, b), a) in files.iter().zip(&before).zip(&after) {
        assert_eq!(b, a, "{} changed", f.display());
    }
    assert!(
        files.len() >= 90 && runs > 400,
        "{} files, {runs} runs",
        files.len()
    );
}

/// `--png` pointed at a tablespace (a slip of the keyboard) is refused: the
/// file keeps its bytes, and an existing PNG may still be replaced.
#[test]
fn png_output_never_writes_over_a_data_file() {
    let tmp = tempfile::tempdir().unwrap();
    let gz = support::fixtures_dir().join("p16k/files/test/t_types.ibd.gz");
    let file = support::gunzip_into(&gz, tmp.path());
    let before = fingerprint(&file);
    let f = file.display().to_string();
    for args in [
        vec!["heatmap", &f, "--png", &f],
        vec!["plot", &f, "--levels", "--png", &f],
    ] {
        let out = support::run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("is neither a PNG nor an SVG document"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(fingerprint(&file), before);
    let png = tmp.path().join("map.png").display().to_string();
    for _ in 0..2 {
        let out = support::run(["heatmap", &f, "--png", &png]);
        assert_eq!(out.status.code(), Some(0));
    }
}

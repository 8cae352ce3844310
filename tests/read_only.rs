//! Files are read, never written: every command run over real tablespaces
//! leaves their bytes and modification times as they were.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

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
    for f in support::files_below(&src, ".gz") {
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

//! A tree hundreds of levels deep (crafted damage of a real file: p16k's
//! `t_random`, whose root's first node pointer is made to lead down a
//! chain of copies of the root, one level each, to the real leaves): every
//! report still reads all 10,000 rows and 68 leaves through it, names the
//! chain's damage, and does so in time linear in the depth (measured in
//! docs/robustness.md; this test bounds the work by what it checks).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;
use std::path::{Path, PathBuf};

const PS: usize = 16384;

/// `t_random` with its root (page 3) at level `depth + 1`, its first node
/// pointer leading to page 128, which is a copy of the root at level
/// `depth`, and so on down to a copy at level 1 whose node pointers are
/// the root's own, to the leaves. Pages 128.. are past the free limit.
fn deep_copy(dir: &Path, depth: usize) -> PathBuf {
    let (path, mut bytes) = support::unpack(dir, "p16k/files/test/t_random.ibd.gz");
    let root: Vec<u8> = bytes[3 * PS..4 * PS].to_vec();
    // The first user record: the infimum (origin 99) points at it.
    let next = i16::from_be_bytes([root[97], root[98]]);
    let first = (99 + i32::from(next)) as usize;
    let pages: Vec<usize> = std::iter::once(3).chain(128..128 + depth).collect();
    assert!(128 + depth <= bytes.len() / PS);
    for (k, &n) in pages.iter().enumerate() {
        let p = &mut bytes[n * PS..(n + 1) * PS];
        p.copy_from_slice(&root);
        p[4..8].copy_from_slice(&(n as u32).to_be_bytes());
        p[64..66].copy_from_slice(&((depth + 1 - k) as u16).to_be_bytes());
        if let Some(&child) = pages.get(k + 1) {
            // A node pointer: the key (INT, 4 bytes), then the child.
            p[first + 4..first + 8].copy_from_slice(&(child as u32).to_be_bytes());
        }
        support::reseal(&mut bytes, PS, n);
    }
    std::fs::write(&path, &bytes).unwrap();
    path
}

#[test]
fn a_tree_hundreds_of_levels_deep_is_read_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let depth = 440;
    let file = deep_copy(tmp.path(), depth);
    let (v, out) = support::run_json(["indexes".as_ref(), file.as_os_str()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let index = &v["indexes"][0];
    assert_eq!(index["index_id"], 24);
    assert_eq!(index["levels"], depth as u64 + 2);
    assert_eq!(index["leaf_pages"], 68);
    assert_eq!(index["records"], 10_000);
    // Each copy's other 67 node pointers lead to leaves, not to a page of
    // the level below: named, every one.
    assert!(index["findings"].as_u64().unwrap() >= 67 * depth as u64);

    let ddl = tmp.path().join("t.sql");
    std::fs::write(
        &ddl,
        "CREATE TABLE t_random (id int NOT NULL, a int NOT NULL, b varchar(64), c char(20), PRIMARY KEY (id)) DEFAULT CHARSET=latin1",
    )
    .unwrap();
    let o = support::run([
        "records".as_ref(),
        file.as_os_str(),
        "--ddl".as_ref(),
        ddl.as_os_str(),
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("\n# 10000 rows\n"),
        "{}",
        &text[text.len().saturating_sub(500)..]
    );
    for args in [vec!["tree", "--index", "24"], vec!["count"], vec!["fill"]] {
        let mut argv: Vec<std::ffi::OsString> = vec![args[0].into(), file.clone().into()];
        argv.extend(args[1..].iter().map(Into::into));
        let o = support::run(argv);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

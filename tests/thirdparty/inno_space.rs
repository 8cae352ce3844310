//! `baotiao__inno_space`: its `test/sbtest1.ibd`.

use super::{open, root, summary, Checks, SDI_INDEX_ID};
use crate::support;
use std::ffi::OsStr;

/// inno_space: `test/sbtest1.ibd` (space id 61): PRIMARY index 270 at page 4
/// (20 recs); index 271 (k_1) on two leaf pages 5 and 6 with 20 records
/// each. Read through the CLI's `pages` JSON, whose SDI index id must be
/// u64::MAX.
#[test]
fn inno_space_sbtest1() {
    let file = root().join("baotiao__inno_space/test/sbtest1.ibd");
    let (v, out) = support::run_json([OsStr::new("pages"), file.as_os_str()]);
    assert!(out.status.success(), "pages {} failed", file.display());
    let label = "baotiao__inno_space/test/sbtest1.ibd";
    let mut c = Checks::default();
    let page = |n: u64| {
        v["pages"]
            .as_array()
            .and_then(|p| p.iter().find(|r| r["page"].as_u64() == Some(n)))
            .cloned()
            .unwrap_or_default()
    };
    let idx = |n: u64| {
        let p = page(n);
        (
            p["type"].as_str().map(str::to_string),
            p["index_id"].as_u64(),
            p["level"].as_u64(),
            p["records"].as_u64(),
        )
    };
    c.eq(
        label,
        "page 3 (SDI root)",
        idx(3),
        (Some("SDI".into()), Some(SDI_INDEX_ID), Some(0), Some(2)),
    );
    c.eq(
        label,
        "page 4 (PRIMARY)",
        idx(4),
        (Some("INDEX".into()), Some(270), Some(0), Some(20)),
    );
    c.eq(
        label,
        "page 5 (k_1)",
        idx(5),
        (Some("INDEX".into()), Some(271), Some(0), Some(20)),
    );
    c.eq(
        label,
        "page 6 (k_1)",
        idx(6),
        (Some("INDEX".into()), Some(271), Some(0), Some(20)),
    );
    c.eq(
        label,
        "space id",
        summary(&open(&file))["space_id"].as_u64(),
        Some(61),
    );
    c.finish("inno_space_sbtest1");
}

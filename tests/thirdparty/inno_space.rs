//! `baotiao__inno_space`: its `test/sbtest1.ibd`.

use super::{open, root, summary, Checks, SDI_INDEX_ID};
use crate::support;
use std::ffi::OsStr;

/// The index pages of inno_space's `test/sbtest1.ibd`: (page, what it is,
/// type, index id, level, records).
#[rustfmt::skip]
const SBTEST1_PAGES: [(u64, &str, &str, u64, u64, u64); 4] = [
    (3, "SDI root", "SDI",   SDI_INDEX_ID, 0, 2),
    (4, "PRIMARY",  "INDEX", 270,          0, 20),
    (5, "k_1",      "INDEX", 271,          0, 20),
    (6, "k_1",      "INDEX", 271,          0, 20),
];

/// inno_space: `test/sbtest1.ibd` (space id 61): PRIMARY index 270 at page 4
/// (20 recs); index 271 (k_1) on two leaf pages 5 and 6 with 20 records
/// each. Read through the CLI's `pages` JSON, whose SDI index id must be
/// u64::MAX (a string of its digits: past 2^53 − 1).
#[test]
fn inno_space_sbtest1() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
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
    for (n, what, page_type, index_id, level, records) in SBTEST1_PAGES {
        let p = page(n);
        c.eq(
            label,
            &format!("page {n} ({what})"),
            (
                p["type"].as_str().map(str::to_string),
                support::json_u64(&p["index_id"]),
                p["level"].as_u64(),
                p["records"].as_u64(),
            ),
            (
                Some(page_type.into()),
                Some(index_id),
                Some(level),
                Some(records),
            ),
        );
    }
    c.eq(
        label,
        "space id",
        summary(&open(&file))["space_id"].as_u64(),
        Some(61),
    );
    c.finish("inno_space_sbtest1");
}

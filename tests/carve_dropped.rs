//! Issue 26, a dropped table: fixtures/p16k-dropped is a real MariaDB
//! 10.11 server's ibdata1 (innodb_file_per_table=OFF) after `DROP TABLE
//! t_dropped`, purge and a slow shutdown; its truth was taken before the
//! drop. `carve` must list the table's index ids with its pages, and
//! `records --scan --index-id` must return exactly its rows.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::{fixtures_dir, run_json, unpack};
use serde_json::Value;

const SET: &str = "p16k-dropped";

/// `dropped_scenario.table` of the set's truth.
fn dropped_truth() -> Value {
    let t: Value = serde_json::from_slice(
        &std::fs::read(fixtures_dir().join(SET).join("truth.json")).unwrap(),
    )
    .unwrap();
    t["dropped_scenario"]["table"].clone()
}

#[test]
fn carve_lists_the_dropped_tables_indexes_and_pages() {
    let truth = dropped_truth();
    let dir = tempfile::tempdir().unwrap();
    let (ibdata, _) = unpack(dir.path(), &format!("{SET}/files/ibdata1.gz"));
    let (r, o) = run_json(["carve".as_ref(), ibdata.as_os_str()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let space = r["spaces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["space_id"] == 0)
        .unwrap();
    let d = &space["dropped_tables"];
    assert_eq!(d["live_dictionary"], true, "{d}");
    // MariaDB erased the purged SYS_* records: each one read is counted so.
    assert!(d["garbage_records"].as_u64().unwrap() > 0, "{d}");
    assert_eq!(d["erased_records"], d["garbage_records"], "{d}");
    // The index ids no live index has are exactly the dropped table's, with
    // as many INDEX pages as the server's buffer pool held for each.
    let unknown: Vec<(u64, u64)> = d["unknown_indexes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["index_id"].as_u64().unwrap(),
                i["pages"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(u64, u64)> = truth["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let name = i["name"].as_str().unwrap();
            (
                i["index_id"].as_u64().unwrap(),
                truth["index_pages"][name].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(unknown, expected, "{d}");
    for i in d["unknown_indexes"].as_array().unwrap() {
        assert!(i["leaf_pages"].as_u64().unwrap() < i["pages"].as_u64().unwrap());
    }
}

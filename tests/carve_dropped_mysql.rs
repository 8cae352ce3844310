//! Issue 26, a table dropped from a MySQL 8.0+ system tablespace:
//! fixtures/mysql-p16k-dropped is a real MySQL 9.7 server's ibdata1 and
//! mysql.ibd (innodb_file_per_table=OFF) after `DROP TABLE t_dropped`;
//! `files/` after purge and a slow shutdown, `unpurged/files/` while a read
//! view held purge back. Its truth was taken before the drop. `carve
//! ibdata1 mysql.ibd` must list the table from mysql.ibd's deleted
//! dictionary records, with its ids, columns and pages, and `records
//! --scan --index-id` must return exactly its rows, typed by those records
//! or by the server's SHOW CREATE TABLE. (Every test name says `mysql`.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::{self, fixtures_dir, inspect, json_rows, records_scan, run_json, unpack};
use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

const SET: &str = "mysql-p16k-dropped";

/// The two copies of the set: after purge, and with purge held back.
const COPIES: [&str; 2] = ["files", "unpurged/files"];

/// `dropped_scenario.table` of the set's truth.
fn dropped_truth() -> Value {
    let t: Value = serde_json::from_slice(
        &std::fs::read(fixtures_dir().join(SET).join("truth.json")).unwrap(),
    )
    .unwrap();
    t["dropped_scenario"]["table"].clone()
}

/// ibdata1 and mysql.ibd of one copy, inflated into `dir`.
fn unpack_copy(dir: &Path, copy: &str) -> (PathBuf, PathBuf) {
    let sub = dir.join(copy.replace('/', "_"));
    std::fs::create_dir_all(&sub).unwrap();
    let (ibdata, _) = unpack(&sub, &format!("{SET}/{copy}/ibdata1.gz"));
    let (dd, _) = unpack(&sub, &format!("{SET}/{copy}/mysql.ibd.gz"));
    (ibdata, dd)
}

fn args(list: &[&OsStr]) -> Vec<OsString> {
    list.iter().map(|a| a.to_os_string()).collect()
}

/// The truth's column names, in table order.
fn column_names(truth: &Value) -> Vec<&str> {
    truth["column_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect()
}

/// Count, digest, key order and MIN/MAX/SUM(id) of `rows` against the truth.
fn assert_rows_are_the_servers(rows: &[Value], truth: &Value, label: &str) {
    assert_eq!(
        rows.len() as u64,
        truth["count"].as_u64().unwrap(),
        "{label}"
    );
    assert_eq!(
        support::concat_ws_digest(rows, &column_names(truth)),
        truth["checks"]["row_digest"].as_u64().unwrap(),
        "{label}"
    );
    let ids: Vec<i64> = rows
        .iter()
        .map(|r| r["row"]["id"].as_i64().unwrap())
        .collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{label}: key order");
    assert_eq!(
        ids[0],
        truth["checks"]["min_id"].as_i64().unwrap(),
        "{label}"
    );
    assert_eq!(
        *ids.last().unwrap(),
        truth["checks"]["max_id"].as_i64().unwrap(),
        "{label}"
    );
    assert_eq!(
        ids.iter().sum::<i64>(),
        truth["checks"]["sum_id"].as_i64().unwrap(),
        "{label}"
    );
}

/// The dropped tables `carve ibdata1 mysql.ibd` lists under mysql.ibd.
fn carve_dropped(ibdata: &Path, dd: &Path) -> Value {
    let (r, o) = run_json([OsStr::new("carve"), ibdata.as_os_str(), dd.as_os_str()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let spaces = r["spaces"].as_array().unwrap();
    // Listed under the dictionary that remembers them, not under space 0.
    let system = spaces.iter().find(|s| s["space_id"] == 0).unwrap();
    assert!(system.get("dropped_tables").is_none(), "{system}");
    spaces
        .iter()
        .find(|s| s["space_id"] == 4_294_967_294u64)
        .unwrap()["dropped_tables"]
        .clone()
}

#[test]
fn carve_lists_the_mysql_dropped_table_with_its_ids_columns_and_pages() {
    let truth = dropped_truth();
    let dir = tempfile::tempdir().unwrap();
    for copy in COPIES {
        let (ibdata, dd) = unpack_copy(dir.path(), copy);
        let d = carve_dropped(&ibdata, &dd);
        assert_eq!(d["dictionary"], "mysql.ibd", "{copy}: {d}");
        assert_eq!(d["live_dictionary"], true, "{copy}");
        // MySQL leaves the purged records' bytes: none is erased.
        assert_eq!(d["erased_records"], 0, "{copy}");
        if copy == "files" {
            // Purged: every record of the table in a garbage list.
            assert_eq!(d["delete_marked_records"], 0, "{copy}: {d}");
        } else {
            // The read view held purge: its records are delete-marked
            // (a table, 9 columns, 3 ENUM labels, 2 indexes and their
            // index_column_usage, at least).
            assert!(
                d["delete_marked_records"].as_u64().unwrap() >= 14,
                "{copy}: {d}"
            );
        }
        assert!(d["garbage_records"].as_u64().unwrap() > 0, "{copy}");
        // t_dropped only: not the live t_keep and t_small, nor the older
        // versions of live tables' records (sys/sys_config's mysql.tables
        // record, written anew by --initialize under another id, keeps its
        // InnoDB table id).
        let tables = d["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 1, "{copy}: {d}");
        let t = &tables[0];
        assert_eq!(t["name"], truth["name"], "{copy}");
        assert_eq!(t["source"], "mysql.ibd records", "{copy}");
        assert_eq!(t["table_id"], truth["table_id"], "{copy}");
        assert_eq!(t["space_id"], truth["space_id"], "{copy}");
        assert_eq!(
            t["n_columns"].as_u64().unwrap(),
            truth["columns"].as_array().unwrap().len() as u64,
            "{copy}"
        );
        // The definition: each column's name, type and nullability as
        // information_schema.COLUMNS gave them.
        let def = &t["definition"];
        assert_eq!(def["database"], "test", "{copy}");
        let ours: Vec<(String, String, bool)> = def["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap().to_string(),
                    c["sql_type"].as_str().unwrap().to_string(),
                    c["nullable"].as_bool().unwrap(),
                )
            })
            .collect();
        let expected: Vec<(String, String, bool)> = truth["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap().to_string(),
                    c["column_type"].as_str().unwrap().to_string(),
                    c["nullable"] == "YES",
                )
            })
            .collect();
        assert_eq!(ours, expected, "{copy}");
        assert_indexes(t, &truth, &ibdata, copy);
        // Its index ids are known, and no live index is unknown.
        assert_eq!(d["unknown_indexes"], serde_json::json!([]), "{copy}: {d}");
    }
}

/// The indexes `carve` lists: ids, names, fields and roots as
/// INNODB_INDEXES gave them; the server's buffer pool held each index's
/// leaf pages and its root, and DROP TABLE zeroed the root's
/// PAGE_INDEX_ID (btr_free_root_invalidate): the leaf pages are counted,
/// and the root is at its page with index id 0.
fn assert_indexes(t: &Value, truth: &Value, ibdata: &Path, copy: &str) {
    let bytes = std::fs::read(ibdata).unwrap();
    let ours = t["indexes"].as_array().unwrap();
    let expected = truth["indexes"].as_array().unwrap();
    assert_eq!(ours.len(), expected.len(), "{copy}");
    for (i, e) in ours.iter().zip(expected) {
        assert_eq!(i["index_id"], e["index_id"], "{copy}");
        assert_eq!(i["name"], e["name"], "{copy}");
        assert_eq!(i["n_fields"], e["n_fields"], "{copy}");
        assert_eq!(i["root_page"], e["root_page"], "{copy}");
        assert_eq!(i["pages"], i["leaf_pages"], "{copy}: {i}");
        let name = e["name"].as_str().unwrap();
        assert_eq!(
            i["leaf_pages"].as_u64().unwrap() + 1,
            truth["index_pages"][name].as_u64().unwrap(),
            "{copy}: {name}"
        );
        let root = usize::try_from(e["root_page"].as_u64().unwrap()).unwrap() * 16384;
        let page = &bytes[root..root + 16384];
        assert_eq!(u16::from_be_bytes([page[24], page[25]]), 17855, "INDEX");
        assert_eq!(u16::from_be_bytes([page[64], page[65]]), 1, "PAGE_LEVEL");
        assert_eq!(&page[66..74], &[0u8; 8], "{copy}: {name}: PAGE_INDEX_ID");
    }
}

#[test]
fn mysql_dropped_rows_come_back_by_records_scan_exactly() {
    let truth = dropped_truth();
    let dir = tempfile::tempdir().unwrap();
    let primary = truth["indexes"][0]["index_id"].to_string();
    let secondary = truth["indexes"][1]["index_id"].to_string();
    let ddl = dir.path().join("t_dropped.sql");
    std::fs::write(&ddl, truth["create_table"].as_str().unwrap()).unwrap();
    for copy in COPIES {
        let (ibdata, dd) = unpack_copy(dir.path(), copy);
        // Typed by the dropped table's deleted records in mysql.ibd.
        let (code, stdout, stderr) =
            records_scan(&ibdata, &primary, &["--system".as_ref(), dd.as_os_str()]);
        assert_eq!(code, 0, "{copy}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "index {primary} is of the dropped table {}",
                truth["name"].as_str().unwrap()
            )),
            "{copy}: {stderr}"
        );
        assert_rows_are_the_servers(&json_rows(&stdout), &truth, copy);
        // The same through --datadir (the directory holding mysql.ibd).
        let datadir = dd.parent().unwrap();
        let (code, stdout, stderr) = records_scan(
            &ibdata,
            &primary,
            &["--datadir".as_ref(), datadir.as_os_str()],
        );
        assert_eq!(code, 0, "{copy}: {stderr}");
        assert_rows_are_the_servers(&json_rows(&stdout), &truth, copy);
        // Typed by the server's SHOW CREATE TABLE instead.
        let (code, stdout, stderr) =
            records_scan(&ibdata, &primary, &["--ddl".as_ref(), ddl.as_os_str()]);
        assert_eq!(code, 0, "{copy}: {stderr}");
        assert_rows_are_the_servers(&json_rows(&stdout), &truth, copy);
        // The secondary index: a row per row of the table.
        let (code, stdout, stderr) =
            records_scan(&ibdata, &secondary, &["--system".as_ref(), dd.as_os_str()]);
        assert_eq!(code, 0, "{copy}: {stderr}");
        assert_eq!(
            json_rows(&stdout).len() as u64,
            truth["count"].as_u64().unwrap(),
            "{copy}"
        );
    }
}

#[test]
fn mysql_dropped_table_s_create_table_from_carve_reads_its_rows() {
    // The CREATE TABLE carve prints, given back with --ddl: the server's
    // rows again.
    let truth = dropped_truth();
    let dir = tempfile::tempdir().unwrap();
    let (ibdata, dd) = unpack_copy(dir.path(), "files");
    let (code, stdout, stderr) = inspect(args(&[
        "carve".as_ref(),
        ibdata.as_os_str(),
        dd.as_os_str(),
    ]));
    assert_eq!(code, 0, "{stderr}");
    let start = stdout
        .find("CREATE TABLE `t_dropped`")
        .unwrap_or_else(|| panic!("{stdout}"));
    let len = stdout[start..].find(";\n").unwrap() + 1;
    let sql: String = stdout[start..start + len]
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(sql.contains("`state` enum('new','paid','void')"), "{sql}");
    let ddl = dir.path().join("carved.sql");
    std::fs::write(&ddl, &sql).unwrap();
    let id = truth["indexes"][0]["index_id"].to_string();
    let (code, stdout, stderr) = records_scan(&ibdata, &id, &["--ddl".as_ref(), ddl.as_os_str()]);
    assert_eq!(code, 0, "{stderr}");
    assert_rows_are_the_servers(&json_rows(&stdout), &truth, "carved CREATE TABLE");
}

#[test]
fn carve_of_a_mysql_ibdata1_alone_lists_the_dropped_table_from_its_sdi() {
    // Without mysql.ibd: ibdata1's own SDI index keeps the dropped table's
    // SDI record (delete-marked, or in the SDI page's garbage list), the
    // whole definition with each index's id and root.
    let truth = dropped_truth();
    let dir = tempfile::tempdir().unwrap();
    for copy in COPIES {
        let (ibdata, _) = unpack_copy(dir.path(), copy);
        let (r, o) = run_json([OsStr::new("carve"), ibdata.as_os_str()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let system = r["spaces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["space_id"] == 0)
            .unwrap();
        assert!(
            system["notes"]
                .as_array()
                .unwrap()
                .iter()
                .any(|n| n.as_str().unwrap().contains("give mysql.ibd too")),
            "{copy}: {system}"
        );
        let d = &system["dropped_tables"];
        assert_eq!(d["dictionary"], "SDI", "{copy}: {d}");
        let tables = d["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 1, "{copy}: {d}");
        let t = &tables[0];
        assert_eq!(t["source"], "SDI records", "{copy}");
        assert_eq!(t["name"], truth["name"], "{copy}");
        assert_eq!(t["table_id"], truth["table_id"], "{copy}");
        assert_eq!(t["space_id"], truth["space_id"], "{copy}");
        let names: Vec<&str> = t["definition"]["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, column_names(&truth), "{copy}");
        assert_indexes(t, &truth, &ibdata, copy);
        assert_eq!(d["unknown_indexes"], serde_json::json!([]), "{copy}: {d}");
        if copy == "files" {
            assert_eq!(d["delete_marked_records"], 0, "{copy}: {d}");
            assert!(d["garbage_records"].as_u64().unwrap() > 0, "{copy}: {d}");
        } else {
            assert_eq!(d["delete_marked_records"], 1, "{copy}: {d}");
        }
        // records --scan of its index, typed by that SDI record alone.
        let id = truth["indexes"][0]["index_id"].to_string();
        let (code, stdout, stderr) = records_scan(&ibdata, &id, &[]);
        assert_eq!(code, 0, "{copy}: {stderr}");
        if copy == "files" {
            assert!(stderr.contains("deleted SDI record"), "{copy}: {stderr}");
        }
        // (Unpurged, the delete-marked SDI record is still in the SDI
        // index's record list: the file's SDI, read as `sdi` reads it,
        // types the rows.)
        assert_rows_are_the_servers(&json_rows(&stdout), &truth, copy);
    }
}

#[test]
fn carve_lists_no_mysql_dropped_table_where_none_was_dropped() {
    // mysql-p16k dropped no table (its server refused none at 16k): the
    // garbage records of its dictionary are older versions of live ones.
    let dir = tempfile::tempdir().unwrap();
    let ibdata = support::gunzip_into(
        &fixtures_dir().join("mysql-p16k/purged/files/ibdata1.gz"),
        dir.path(),
    );
    let dd = support::gunzip_into(
        &fixtures_dir().join("mysql-p16k/purged/files/mysql.ibd.gz"),
        dir.path(),
    );
    let d = carve_dropped(&ibdata, &dd);
    assert!(d["garbage_records"].as_u64().unwrap() > 0, "{d}");
    assert_eq!(d["tables"], serde_json::json!([]), "{d}");
    assert_eq!(d["unknown_indexes"], serde_json::json!([]), "{d}");
}

#[test]
fn mysql_dropped_table_comes_back_from_an_image_holding_both_files() {
    // A crafted image (not a server's file): 1 MiB of other bytes, then
    // mysql.ibd, 15 sectors of zeros, then ibdata1, each at a 512-byte
    // boundary. carve rebuilds both spaces and lists the dropped table;
    // records --scan on the rebuilt ibdata1, typed by the rebuilt
    // mysql.ibd, gives the server's rows.
    let truth = dropped_truth();
    let dir = tempfile::tempdir().unwrap();
    let (ibdata, dd) = unpack_copy(dir.path(), "files");
    let mut image: Vec<u8> = (0..1u32 << 20)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    image.extend(std::fs::read(&dd).unwrap());
    image.extend(std::iter::repeat_n(0u8, 15 * 512));
    image.extend(std::fs::read(&ibdata).unwrap());
    let img = dir.path().join("disk.img");
    std::fs::write(&img, &image).unwrap();
    let out = dir.path().join("carved");
    let (r, o) = run_json([
        OsStr::new("carve"),
        img.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let dd_space = r["spaces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["space_id"] == 4_294_967_294u64)
        .unwrap();
    let tables = dd_space["dropped_tables"]["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 1, "{dd_space}");
    assert_eq!(tables[0]["name"], truth["name"]);
    assert_eq!(tables[0]["table_id"], truth["table_id"]);
    for (i, e) in tables[0]["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .zip(truth["indexes"].as_array().unwrap())
    {
        assert_eq!(i["index_id"], e["index_id"]);
        let name = e["name"].as_str().unwrap();
        assert_eq!(
            i["leaf_pages"].as_u64().unwrap() + 1,
            truth["index_pages"][name].as_u64().unwrap(),
            "{name}"
        );
    }
    let id = truth["indexes"][0]["index_id"].to_string();
    let dd = out.join("space-4294967294.ibd");
    let (code, stdout, stderr) = records_scan(
        &out.join("space-0.ibd"),
        &id,
        &["--system".as_ref(), dd.as_os_str()],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_rows_are_the_servers(&json_rows(&stdout), &truth, "rebuilt from the image");
}

#[test]
fn carve_of_mysql_ibd_alone_lists_the_dropped_table_and_says_its_pages_are_elsewhere() {
    let truth = dropped_truth();
    let dir = tempfile::tempdir().unwrap();
    let (_, dd) = unpack_copy(dir.path(), "files");
    let (r, o) = run_json([OsStr::new("carve"), dd.as_os_str()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let d = &r["spaces"][0]["dropped_tables"];
    let t = &d["tables"][0];
    assert_eq!(t["name"], truth["name"], "{d}");
    assert_eq!(t["table_id"], truth["table_id"], "{d}");
    for i in t["indexes"].as_array().unwrap() {
        assert_eq!(i["pages"], 0, "{i}");
    }
    let notes: Vec<&str> = d["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n
                .starts_with("tablespace 0, where the pages of test/t_dropped were, was not read")),
        "{notes:?}"
    );
}

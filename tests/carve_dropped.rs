//! Issue 26, a dropped table: fixtures/p16k-dropped is a real MariaDB
//! 10.11 server's ibdata1 (innodb_file_per_table=OFF) after `DROP TABLE
//! t_dropped`, purge and a slow shutdown; its truth was taken before the
//! drop. `carve` must list the table's index ids with its pages, and
//! `records --scan --index-id` must return exactly its rows; so must it of
//! a real table file whose root page was zeroed (crafted damage).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::{self, fixtures_dir, inspect, json_rows, records_scan, run_json, unpack};
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
    let (d, _) = dropped_of(dir.path(), &format!("{SET}/files/ibdata1.gz"));
    assert_eq!(d["live_dictionary"], true, "{d}");
    // MariaDB erased the purged SYS_* records: each one read is counted so.
    assert!(d["garbage_records"].as_u64().unwrap() > 0, "{d}");
    assert_eq!(d["erased_records"], d["garbage_records"], "{d}");
    // MariaDB erased the SYS_* records; the undo log of the DROP TABLE
    // still names the table, its id, its index ids and how many columns
    // and index fields it had: all as the server's truth.
    let tables = d["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 1, "{d}");
    let t = &tables[0];
    assert_eq!(t["source"], "undo log");
    assert_eq!(t["name"], truth["name"]);
    assert_eq!(t["table_id"], truth["table_id"]);
    assert_eq!(
        t["n_columns"].as_u64().unwrap(),
        truth["columns"].as_array().unwrap().len() as u64
    );
    let ours: Vec<(u64, u64, u64)> = t["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["index_id"].as_u64().unwrap(),
                i["n_fields"].as_u64().unwrap(),
                i["pages"].as_u64().unwrap(),
            )
        })
        .collect();
    // With as many INDEX pages as the server's buffer pool held for each.
    let expected: Vec<(u64, u64, u64)> = truth["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let name = i["name"].as_str().unwrap();
            (
                i["index_id"].as_u64().unwrap(),
                i["n_fields"].as_u64().unwrap(),
                truth["index_pages"][name].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(ours, expected, "{d}");
    for i in t["indexes"].as_array().unwrap() {
        assert!(i["leaf_pages"].as_u64().unwrap() < i["pages"].as_u64().unwrap());
    }
    // Its index ids are no longer unknown; no live index is.
    assert_eq!(d["unknown_indexes"], serde_json::json!([]), "{d}");
}

#[test]
fn records_scan_returns_exactly_the_dropped_rows() {
    let truth = dropped_truth();
    let dir = tempfile::tempdir().unwrap();
    let (ibdata, _) = unpack(dir.path(), &format!("{SET}/files/ibdata1.gz"));
    let ddl = dir.path().join("t_dropped.sql");
    std::fs::write(&ddl, truth["create_table"].as_str().unwrap()).unwrap();
    let primary = truth["indexes"][0]["index_id"]
        .as_u64()
        .unwrap()
        .to_string();
    let secondary = truth["indexes"][1]["index_id"]
        .as_u64()
        .unwrap()
        .to_string();
    let base = |format: &str, id: &str| -> Vec<std::ffi::OsString> {
        let args: [&std::ffi::OsStr; 9] = [
            "--format".as_ref(),
            format.as_ref(),
            "records".as_ref(),
            ibdata.as_os_str(),
            "--scan".as_ref(),
            "--index-id".as_ref(),
            id.as_ref(),
            "--ddl".as_ref(),
            ddl.as_os_str(),
        ];
        args.iter().map(|a| a.to_os_string()).collect()
    };
    let args = base("json", &primary);
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let (code, stdout, stderr) = inspect(&refs);
    assert_eq!(code, 0, "{stderr}");
    let rows = json_rows(&stdout);
    let count = truth["count"].as_u64().unwrap();
    assert_eq!(rows.len() as u64, count);
    assert_eq!(
        support::concat_ws_digest(&rows, &["id", "k", "v", "s", "dt"]),
        truth["checks"]["row_digest"].as_u64().unwrap()
    );
    // In key order, each key once: min, max and sum of id as the server's.
    let ids: Vec<u64> = rows
        .iter()
        .map(|r| r["row"]["id"].as_u64().unwrap())
        .collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(ids[0], truth["checks"]["min_id"].as_u64().unwrap());
    assert_eq!(
        *ids.last().unwrap(),
        truth["checks"]["max_id"].as_u64().unwrap()
    );
    assert_eq!(
        ids.iter().sum::<u64>(),
        truth["checks"]["sum_id"].as_u64().unwrap()
    );
    // The secondary index k_dt, read as that index of the statement.
    let mut args = base("json", &secondary);
    args.extend(["--index".into(), "k_dt".into()]);
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let (code, stdout, stderr) = inspect(&refs);
    assert_eq!(code, 0, "{stderr}");
    let n = stdout.lines().filter(|l| l.contains("\"row\"")).count();
    assert_eq!(n as u64, count);
    // As SQL: every row in the INSERTs.
    let args = base("sql", &primary);
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let (code, stdout, stderr) = inspect(&refs);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!("-- {count} rows written")),
        "{stdout}"
    );
}

#[test]
fn records_scan_without_a_schema_asks_for_one() {
    // MariaDB erased the dropped table's SYS_* records: its name is left
    // (the undo log), its columns are not, and the command says so rather
    // than guess.
    let truth = dropped_truth();
    let dir = tempfile::tempdir().unwrap();
    let (ibdata, _) = unpack(dir.path(), &format!("{SET}/files/ibdata1.gz"));
    let id = truth["indexes"][0]["index_id"]
        .as_u64()
        .unwrap()
        .to_string();
    let (code, _, stderr) = inspect([
        "records".as_ref(),
        ibdata.as_os_str(),
        "--scan".as_ref(),
        "--index-id".as_ref(),
        id.as_ref(),
    ]);
    assert_eq!(code, 2);
    let name = truth["name"].as_str().unwrap();
    assert!(
        stderr.contains(&format!("index {id} is of the dropped table {name}")),
        "{stderr}"
    );
    assert!(stderr.contains("--ddl"), "{stderr}");
}

#[test]
fn records_scan_of_a_live_index_types_it_by_the_files_own_dictionary() {
    let all: Value = serde_json::from_slice(
        &std::fs::read(fixtures_dir().join(SET).join("truth.json")).unwrap(),
    )
    .unwrap();
    let keep = support::entry(&all, "tables", |t| t["name"] == "test/t_keep");
    let id = support::entry(&all, "indexes", |i| {
        i["table"] == "test/t_keep" && i["name"] == "PRIMARY"
    })["index_id"]
        .as_u64()
        .unwrap()
        .to_string();
    let dir = tempfile::tempdir().unwrap();
    let (ibdata, _) = unpack(dir.path(), &format!("{SET}/files/ibdata1.gz"));
    let (code, stdout, stderr) = records_scan(&ibdata, &id, &[]);
    assert_eq!(code, 0, "{stderr}");
    let rows = json_rows(&stdout);
    assert_eq!(rows.len() as u64, keep["count"].as_u64().unwrap());
    assert_eq!(
        support::concat_ws_digest(&rows, &["id", "a", "b", "c"]),
        keep["checks"]["row_digest"].as_u64().unwrap()
    );
}

#[test]
fn records_scan_reads_the_newest_copy_of_each_page() {
    // ibdata1's doublewrite buffer holds older copies of the one page of
    // mysql.innodb_index_stats (index 17), one with t_dropped's rows from
    // before the DROP. --scan reads the newest copy only: the rows of
    // database `test` are the server's mysql.innodb_index_stats.
    let all: Value = serde_json::from_slice(
        &std::fs::read(fixtures_dir().join(SET).join("truth.json")).unwrap(),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (ibdata, bytes) = unpack(dir.path(), &format!("{SET}/files/ibdata1.gz"));
    // The stale copy is there: an INDEX page of index 17 not at its own
    // page number, holding the dropped table's name.
    let stale = bytes.chunks(16384).enumerate().any(|(n, p)| {
        u64::from_be_bytes(p[66..74].try_into().unwrap()) == 17
            && u32::from_be_bytes(p[4..8].try_into().unwrap()) as usize != n
            && p.windows(9).any(|w| w == b"t_dropped")
    });
    assert!(stale, "no older copy of index 17's page holds t_dropped");
    let (code, stdout, stderr) = records_scan(&ibdata, "17", &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("older copies not read"), "{stderr}");
    let ours: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|v| v.get("row").cloned())
        .filter(|r| r["database_name"] == "test")
        .map(|r| {
            serde_json::json!({
                "table": format!("test/{}", r["table_name"].as_str().unwrap()),
                "index": r["index_name"],
                "stat_name": r["stat_name"],
                "stat_value": r["stat_value"],
                "sample_size": r["sample_size"],
                "stat_description": r["stat_description"],
            })
        })
        .collect();
    assert_eq!(Value::Array(ours), all["index_stats"]);
}

/// `carve --format json` of `rel`: space 0's `dropped_tables`.
fn dropped_of(dir: &std::path::Path, rel: &str) -> (Value, std::path::PathBuf) {
    let (file, _) = unpack(dir, rel);
    let (r, o) = run_json(["carve".as_ref(), file.as_os_str()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = r["spaces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["space_id"] == 0)
        .unwrap();
    (s["dropped_tables"].clone(), file)
}

#[test]
fn unpurged_sys_records_give_the_whole_dropped_table() {
    // The copy taken while a read view kept purge from removing the
    // delete-marked SYS_* records: name, columns, indexes, fields as the
    // server's INNODB_SYS_* views said before the DROP.
    let truth = dropped_truth();
    let dir = tempfile::tempdir().unwrap();
    let (d, file) = dropped_of(dir.path(), &format!("{SET}/unpurged/files/ibdata1.gz"));
    assert_eq!(d["erased_records"], 0, "{d}");
    let tables = d["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 1, "{d}");
    let t = &tables[0];
    assert_eq!(t["source"], "SYS_* records");
    assert_eq!(t["name"], truth["name"]);
    assert_eq!(t["table_id"], truth["table_id"]);
    assert_eq!(t["space_id"], truth["space_id"]);
    let cols: Vec<Value> = t["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            serde_json::json!({"name": c["name"], "pos": c["pos"], "mtype": c["mtype"],
                               "prtype": c["prtype"], "len": c["len"]})
        })
        .collect();
    assert_eq!(Value::Array(cols), truth["columns"]);
    let idx: Vec<Value> = t["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            serde_json::json!({"name": i["name"], "index_id": i["index_id"],
                               "root_page": i["root_page"], "type": i["index_type"],
                               "n_fields": i["n_fields"]})
        })
        .collect();
    assert_eq!(Value::Array(idx), truth["indexes"]);
    let fields: Vec<Value> = t["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|i| {
            let id = i["index_id"].clone();
            i["fields"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
                .map(move |(pos, f)| serde_json::json!({"index_id": id, "name": f, "pos": pos}))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(Value::Array(fields), truth["fields"]);
    for i in t["indexes"].as_array().unwrap() {
        let name = i["name"].as_str().unwrap();
        assert_eq!(i["pages"], truth["index_pages"][name], "{name}");
    }
    assert!(t["definition"].is_object(), "{t}");

    // records --scan with no --ddl: typed by those records, the server's rows.
    let id = truth["indexes"][0]["index_id"]
        .as_u64()
        .unwrap()
        .to_string();
    let (code, stdout, stderr) = records_scan(&file, &id, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("typed by its deleted SYS_* records"),
        "{stderr}"
    );
    let rows = json_rows(&stdout);
    assert_eq!(rows.len() as u64, truth["count"].as_u64().unwrap());
    assert_eq!(
        support::concat_ws_digest(&rows, &["id", "k", "v", "s", "dt"]),
        truth["checks"]["row_digest"].as_u64().unwrap()
    );
}

#[test]
fn records_scan_reads_a_tree_whose_root_is_lost() {
    // Crafted damage of a real file: the root page of p16k's t_ordered
    // zeroed. The tree walk finds no row; --scan finds every leaf.
    let truth: Value = serde_json::from_slice(
        &std::fs::read(fixtures_dir().join("p16k").join("truth.json")).unwrap(),
    )
    .unwrap();
    let table = support::entry(&truth, "tables", |t| t["name"] == "test/t_ordered");
    let index = support::entry(&truth, "indexes", |i| {
        i["table"] == "test/t_ordered" && i["name"] == "PRIMARY"
    });
    let root = index["root_page"].as_u64().unwrap() as usize;
    let id = index["index_id"].as_u64().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let (ibdata, _) = unpack(dir.path(), "p16k/files/ibdata1.gz");
    let (file, mut bytes) = unpack(dir.path(), "p16k/files/test/t_ordered.ibd.gz");
    bytes[root * 16384..(root + 1) * 16384].fill(0);
    std::fs::write(&file, &bytes).unwrap();
    let args = |scan: bool| {
        let mut a: Vec<&std::ffi::OsStr> = vec![
            "--format".as_ref(),
            "json".as_ref(),
            "records".as_ref(),
            file.as_os_str(),
            "--system".as_ref(),
            ibdata.as_os_str(),
        ];
        if scan {
            a.extend([
                "--scan".as_ref(),
                "--index-id".as_ref(),
                id.as_ref() as &std::ffi::OsStr,
            ]);
        }
        a
    };
    let rows = |stdout: &str| -> Vec<Value> {
        stdout
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v.get("row").is_some())
            .collect()
    };
    let (_, walked, _) = inspect(args(false));
    assert!(rows(&walked).is_empty(), "the tree walk still reads rows");
    let (code, stdout, stderr) = inspect(args(true));
    assert_eq!(code, 0, "{stderr}");
    let ours = rows(&stdout);
    assert_eq!(ours.len() as u64, table["count"].as_u64().unwrap());
    assert_eq!(
        support::concat_ws_digest(&ours, &["id", "a", "b", "c"]),
        table["checks"]["row_digest"].as_u64().unwrap()
    );
}

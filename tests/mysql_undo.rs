//! The undo logs of the MySQL 9.7 sets against the server's own numbers:
//! the history list length (`truth.json` `history_list_length`, what
//! `SHOW ENGINE INNODB STATUS` printed), the open transaction
//! (`undo_scenario.open_transaction`, the rows it changed as the
//! `rows/*.uncommitted.tsv.gz` differ from the committed rows), the
//! counter the server restarted from and the undo tablespaces
//! (`INFORMATION_SCHEMA.INNODB_TABLESPACES`), and `history` of `t_hist`
//! rows through every committed version down to what the read view held
//! (`rows/t_hist.snapshot.tsv.gz`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::mysql::{sets, MysqlCopy};
use crate::support::{run, run_json};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// `undo` over a copy's data directory, as JSON.
fn undo(copy: &MysqlCopy) -> Value {
    let (v, out) = run_json([
        "--datadir".as_ref(),
        copy.files.as_os_str(),
        "undo".as_ref(),
    ]);
    assert!(out.status.success(), "{}: {out:?}", copy.name);
    v
}

/// The system tablespace and undo tablespaces of a copy, as the server
/// lists them (`truth.undo_tablespaces[].file`), ibdata1 first.
fn undo_files(copy: &MysqlCopy) -> Vec<PathBuf> {
    let mut files = vec![copy.file("ibdata1")];
    let mut undo: Vec<&str> = copy.truth["undo_tablespaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["file"].as_str().unwrap())
        .collect();
    undo.sort_unstable();
    files.extend(undo.into_iter().map(|f| copy.file(f)));
    files
}

fn findings(v: &Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_history_list_length_is_the_servers() {
    for set in sets() {
        for copy in [&set.crash, &set.purged] {
            let server = copy.truth["history_list_length"].as_u64().unwrap();
            assert_eq!(server, copy.truth["trx_rseg_history_len"].as_u64().unwrap());
            let n_undo = copy.truth["undo_tablespaces"].as_array().unwrap().len() as u64;
            let per_space = copy.truth["server_variables"]["rollback_segments"]
                .as_u64()
                .unwrap();
            // Through --datadir and with the files named, in any order.
            let mut named: Vec<std::ffi::OsString> = vec!["undo".into()];
            named.extend(undo_files(copy).into_iter().rev().map(Into::into));
            let (by_files, out) = run_json(&named);
            assert!(out.status.success(), "{}: {out:?}", copy.name);
            for v in [undo(copy), by_files] {
                let t = &v["totals"];
                assert_eq!(t["history_list_length"], server, "{}", copy.name);
                assert_eq!(t["undo_logs"], server, "{}: logs walked", copy.name);
                let by_rseg: u64 = v["rollback_segments"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r["history_length"].as_u64().unwrap())
                    .sum();
                assert_eq!(by_rseg, server, "{}", copy.name);
                // The system tablespace's one, and each undo tablespace's.
                assert_eq!(
                    t["rollback_segments"],
                    1 + n_undo * per_space,
                    "{}",
                    copy.name
                );
                assert_eq!(v["mysql_8"], true);
                assert_eq!(findings(&v), Vec::<String>::new(), "{}", copy.name);
            }
        }
    }
}

#[test]
fn the_oldest_history_and_the_next_trx_id_are_the_servers() {
    for set in sets() {
        let copy = &set.crash;
        let v = undo(copy);
        // Purge had removed everything below this transaction number, and
        // the read view kept everything after it.
        let purged_below = &copy.truth["trx_state"]["purge_done_for_trx_no_below"];
        let oldest = v["by_transaction"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["trx_no"].as_u64().unwrap())
            .min();
        assert_eq!(oldest, purged_below.as_u64(), "{}", copy.name);
        // "Trx id counter is N" of the server's recovery from these files.
        let recovered = &copy.truth["undo_scenario"]["recovery_startup"]["trx_id_counter"];
        assert_eq!(&v["next_trx_id_at_startup"], recovered, "{}", copy.name);
    }
}

/// For each table the open transaction changed: how many rows of the
/// committed copy differ from, are missing from or added in the rows the
/// open transaction saw (`undo_scenario.views.uncommitted`).
fn rows_changed(copy: &MysqlCopy) -> BTreeMap<String, u64> {
    let views = copy.truth["undo_scenario"]["views"]["uncommitted"]
        .as_object()
        .unwrap();
    let mut out = BTreeMap::new();
    for (table, view) in views {
        let name = format!("test/{table}");
        let committed_file = copy.table(&name)["rows"]["file"].as_str().unwrap();
        let key = |rows: Vec<Vec<String>>| -> BTreeMap<String, Vec<String>> {
            rows.into_iter()
                .map(|r| (r.first().cloned().unwrap_or_default(), r))
                .collect()
        };
        let committed = key(copy.rows(committed_file));
        let seen = key(copy.rows(view["rows"].as_str().unwrap()));
        let keys: std::collections::BTreeSet<&String> =
            committed.keys().chain(seen.keys()).collect();
        let changed = keys
            .into_iter()
            .filter(|k| committed.get(*k) != seen.get(*k))
            .count() as u64;
        out.insert(name, changed);
    }
    out
}

#[test]
fn the_open_transaction_is_counted_as_the_server_does() {
    for set in sets() {
        let copy = &set.crash;
        let v = undo(copy);
        let open = &copy.truth["undo_scenario"]["open_transaction"];
        let open_trx = v["open_transactions"].as_array().unwrap();
        assert_eq!(open_trx.len(), 1, "{}: {open_trx:?}", copy.name);
        let t = &open_trx[0];
        assert_eq!(t["trx_id"], open["trx_id"], "{}", copy.name);
        assert_eq!(t["state"], "active");
        // One undo record per row changed: the server's "undo log entries"
        // and the rows recovery rolled back.
        assert_eq!(t["records"], open["trx_rows_modified"], "{}", copy.name);
        assert_eq!(
            t["records"], copy.truth["undo_scenario"]["recovery_startup"]["rows_to_undo"],
            "{}",
            copy.name
        );
        // By table: the rows whose values the open transaction changed.
        let by_table: BTreeMap<String, u64> = t["by_table"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e[1].as_str().unwrap().to_string(), e[2].as_u64().unwrap()))
            .collect();
        assert_eq!(by_table, rows_changed(copy), "{}", copy.name);
        // MySQL keeps inserts and updates in two undo segments.
        assert_eq!(t["segments"], 2, "{}", copy.name);
    }
}

#[test]
fn the_undo_tablespaces_are_the_servers() {
    for set in sets() {
        for copy in [&set.crash, &set.purged] {
            let v = undo(copy);
            let rows = v["undo_tablespaces"].as_array().unwrap();
            let per_space = &copy.truth["server_variables"]["rollback_segments"];
            for server in copy.truth["undo_tablespaces"].as_array().unwrap() {
                let file = format!("{}.gz", server["file"].as_str().unwrap());
                let ours = rows
                    .iter()
                    .find(|u| u["file"] == file.as_str())
                    .unwrap_or_else(|| panic!("{}: no {file} in {rows:?}", copy.name));
                assert_eq!(ours["space_id"], server["space_id"], "{}", copy.name);
                assert_eq!(&ours["rollback_segments"], per_space, "{}", copy.name);
                assert_eq!(ours["rseg_array"]["version_ok"], true);
                // An undo tablespace the server holds `empty` (inactive and
                // truncated) has no undo segment; it was given a new space
                // id of its number when truncated.
                if server["state"] == "empty" {
                    assert_eq!(ours["contents"], "nothing", "{}: {file}", copy.name);
                    assert!(
                        ours["undo_space"]["generation"].as_u64().unwrap() > 0,
                        "{}: {file}",
                        copy.name
                    );
                }
            }
            let history: u64 = rows
                .iter()
                .map(|u| u["history_list_length"].as_u64().unwrap())
                .sum();
            assert_eq!(history, copy.truth["history_list_length"].as_u64().unwrap());
        }
    }
}

/// `history test/t_hist --key KEY` of a copy, as JSON.
fn history(copy: &MysqlCopy, key: &str) -> Value {
    let (v, out) = run_json([
        "--datadir".as_ref(),
        copy.files.as_os_str(),
        "history".as_ref(),
        "test/t_hist".as_ref(),
        "--key".as_ref(),
        key.as_ref(),
    ]);
    assert!(out.status.success(), "{} key {key}: {out:?}", copy.name);
    v
}

/// The values of a version, without DB_TRX_ID and DB_ROLL_PTR, as `mysql
/// -B` prints them.
fn columns(version: &Value) -> Vec<String> {
    version["values"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(i, _)| !matches!(i, 1 | 2))
        .map(|(_, v)| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

#[test]
fn history_walks_a_row_through_its_committed_versions() {
    for set in sets() {
        let copy = &set.crash;
        let by_id = |file: &str| -> BTreeMap<String, Vec<String>> {
            copy.rows(file)
                .into_iter()
                .map(|r| (r[0].clone(), r))
                .collect()
        };
        let committed = by_id("rows/t_hist.tsv.gz");
        let snapshot = by_id("rows/t_hist.snapshot.tsv.gz");
        let uncommitted = by_id("rows/t_hist.uncommitted.tsv.gz");
        let open_trx = copy.truth["undo_scenario"]["open_transaction"]["trx_id"]
            .as_u64()
            .unwrap();
        // Updated, deleted and inserted by the history; changed, deleted and
        // inserted by the open transaction; untouched by it.
        for key in [
            "1", "5", "77", "100", "500", "901", "999", "1001", "1010", "1105",
        ] {
            let h = history(copy, key);
            let versions = h["versions"].as_array().unwrap();
            let what = format!("{} key {key}", copy.name);
            assert!(h["findings"].as_array().unwrap().is_empty(), "{what}: {h}");
            // The newest version is what the open transaction saw: its
            // row, or delete-marked when it (or the history) deleted it.
            let newest = &versions[0];
            match uncommitted.get(key) {
                Some(row) => {
                    assert_eq!(&columns(newest), row, "{what}");
                    assert_eq!(newest["deleted"], false, "{what}");
                }
                None => assert_eq!(newest["deleted"], true, "{what}"),
            }
            // The newest committed version: the committed row.
            let first_committed = versions
                .iter()
                .find(|v| v["trx_id"].as_u64() != Some(open_trx))
                .map(|v| (columns(v), v["deleted"] == true));
            match committed.get(key) {
                Some(row) => assert_eq!(first_committed, Some((row.clone(), false)), "{what}"),
                None if snapshot.contains_key(key) => {
                    // Deleted by the history: delete-marked, then its values.
                    assert_eq!(first_committed.map(|c| c.1), Some(true), "{what}");
                }
                None => {
                    // Inserted by the open transaction: its only version.
                    assert_eq!(versions.len(), 1, "{what}");
                }
            }
            // The oldest version: what the read view taken before the
            // history saw (purge kept every version it needed), or the
            // insert when the row is younger than the view.
            let oldest = versions.last().unwrap();
            match snapshot.get(key) {
                Some(row) => assert_eq!(&columns(oldest), row, "{what}"),
                None => assert_eq!(oldest["roll_ptr"]["insert"], true, "{what}"),
            }
            assert_eq!(oldest["roll_ptr"]["insert"], true, "{what}: {}", h["end"]);
            // Each older version from an older transaction.
            let trx: Vec<u64> = versions
                .iter()
                .map(|v| v["trx_id"].as_u64().unwrap())
                .collect();
            assert!(trx.windows(2).all(|w| w[0] > w[1]), "{what}: {trx:?}");
        }
    }
}

/// `undo ibdata1` without the undo tablespaces of a MySQL 9.7 data
/// directory: ONE finding names the two undo tablespaces every 8.0.14+
/// server has, by number, file and the space id the server lists for
/// them (`INNODB_TABLESPACES`: 4294967279, 4294967278), and says how to
/// give them; the whole directory has no such finding.
#[test]
fn ibdata1_alone_names_its_missing_undo_tablespaces_once() {
    for set in sets() {
        let copy = &set.crash;
        let (v, out) = run_json(["undo".as_ref(), copy.file("ibdata1").as_os_str()]);
        assert!(out.status.success(), "{}: {out:?}", copy.name);
        let f = findings(&v);
        assert_eq!(f.len(), 1, "{}: {f:#?}", copy.name);
        for (n, file) in [(1, "undo_001"), (2, "undo_002")] {
            let server = copy.truth["undo_tablespaces"]
                .as_array()
                .unwrap()
                .iter()
                .find(|u| u["file"] == file)
                .unwrap();
            let want = format!("number {n} ({file}, space id {} ", server["space_id"]);
            assert!(
                f[0].contains(&want),
                "{}: {want} not in {}",
                copy.name,
                f[0]
            );
        }
        assert!(f[0].contains("--datadir DIR"), "{}", f[0]);
        let all = findings(&undo(copy));
        assert!(
            all.iter().all(|m| !m.contains("not given")),
            "{}: {all:#?}",
            copy.name
        );
    }
}

#[test]
fn a_missing_or_foreign_undo_tablespace_is_a_finding_and_the_rest_is_read() {
    let set = sets().into_iter().next().unwrap();
    let copy = &set.crash;
    let full = undo(copy);
    let history_of = |file: &str| {
        full["undo_tablespaces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["file"] == format!("{file}.gz").as_str())
            .map(|u| u["history_list_length"].as_u64().unwrap())
            .unwrap()
    };
    let server = copy.truth["history_list_length"].as_u64().unwrap();

    // undo_002 left out: named, and the others' history read.
    let mut args: Vec<std::ffi::OsString> = vec!["undo".into()];
    args.extend(
        undo_files(copy)
            .into_iter()
            .filter(|p| !p.ends_with("undo_002.gz"))
            .map(Into::into),
    );
    let (v, out) = run_json(&args);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        v["totals"]["history_list_length"].as_u64().unwrap(),
        server - history_of("undo_002")
    );
    let f = findings(&v);
    assert!(
        f.iter()
            .any(|m| m.starts_with("undo tablespace not given: number 2 (undo_002, ")),
        "{f:?}"
    );

    // A table's tablespace given as an undo tablespace: its space id is
    // no undo space id; the rest is read in full.
    let mut args: Vec<std::ffi::OsString> = vec!["undo".into()];
    args.extend(undo_files(copy).into_iter().map(Into::into));
    args.push(copy.file("test/t_plain.ibd").into());
    let (v, out) = run_json(&args);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(v["totals"]["history_list_length"], server);
    let f = findings(&v);
    assert!(
        f.iter()
            .any(|m| m.contains("t_plain.ibd.gz: space id") && m.contains("outside the ids")),
        "{f:?}"
    );

    // An undo tablespace alone: no TRX_SYS page to start from.
    let out = run(["undo".as_ref(), copy.file("undo_001").as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not a system tablespace") && err.contains("undo tablespace number 1"),
        "{err}"
    );
}

#[test]
fn compare_and_growth_read_the_mysql_undo_tablespaces() {
    for set in sets() {
        let (v, out) = run_json([
            "undo".as_ref(),
            "--compare".as_ref(),
            set.crash.files.as_os_str(),
            set.purged.files.as_os_str(),
        ]);
        assert!(out.status.success(), "{out:?}");
        assert_eq!(
            v["a"]["totals"]["history_list_length"],
            set.crash.truth["history_list_length"]
        );
        assert_eq!(
            v["b"]["totals"]["history_list_length"],
            set.purged.truth["history_list_length"]
        );
        let (v, out) = run_json([
            "--datadir".as_ref(),
            set.crash.files.as_os_str(),
            "plot".as_ref(),
            "--undo-growth".as_ref(),
        ]);
        assert!(out.status.success(), "{out:?}");
        let subtitle = v["subtitle"].as_str().unwrap();
        let want = format!(
            "history list length {}",
            set.crash.truth["history_list_length"]
        );
        assert!(subtitle.contains(&want), "{subtitle}");
    }
}

/// Undo tablespaces are given the same way to every command that reads
/// them: `--undo` (repeated) on `undo` and `plot --undo-growth` reads the
/// same as listing them after ibdata1, and `history` and `records` take
/// `--undo` too. On the crash copy of every set: the history list length
/// of the server's truth either way.
#[test]
fn undo_tablespaces_are_given_by_undo_to_every_command() {
    let program = <innodb_inspect::Cli as clap::CommandFactory>::command();
    for name in ["undo", "history", "records", "plot"] {
        let sub = program.find_subcommand(name).unwrap();
        assert!(
            sub.get_arguments().any(|a| a.get_long() == Some("undo")),
            "{name} takes no --undo"
        );
    }
    for set in sets() {
        let copy = &set.crash;
        let files = undo_files(copy);
        let listed: Vec<&std::ffi::OsStr> = std::iter::once("undo".as_ref())
            .chain(files.iter().map(|f| f.as_os_str()))
            .collect();
        let mut by_option: Vec<&std::ffi::OsStr> = vec!["undo".as_ref(), files[0].as_os_str()];
        for f in &files[1..] {
            by_option.push("--undo".as_ref());
            by_option.push(f.as_os_str());
        }
        let (a, _) = run_json(&listed);
        let (b, _) = run_json(&by_option);
        assert_eq!(a, b, "{}", copy.name);
        assert_eq!(
            b["totals"]["history_list_length"], copy.truth["history_list_length"],
            "{}",
            copy.name
        );
        let plot = |args: &[&std::ffi::OsStr]| {
            let mut all: Vec<&std::ffi::OsStr> = vec![
                "plot".as_ref(),
                "--undo-growth".as_ref(),
                "--color".as_ref(),
                "never".as_ref(),
            ];
            all.extend_from_slice(&args[1..]);
            let out = run(&all);
            assert!(out.status.success(), "{}: {out:?}", copy.name);
            out.stdout
        };
        assert_eq!(plot(&listed), plot(&by_option), "{}", copy.name);
    }
}

//! `records` with the undo logs against the servers' own rows: each row's
//! transaction state, `--committed` (what crash recovery leaves),
//! `--as-of-trx N` (what a read view opened before N saw), `--deleted` as a
//! set of its own, and the bad cases (a view beyond the newest
//! transaction or below what purge kept, an undo chain broken half way).
//!
//! The issue's `t_mvcc`/`t_history` are not in our fixtures; their place is
//! taken by the MariaDB undo sets' `t_ordered` (an XA transaction left
//! PREPARED updated rows 1–10) and `t_undo` (five committed update rounds
//! while a consistent snapshot was held: `undo_scenario`), and by the
//! MySQL sets' `t_hist`, `t_plain`, `t_inst_*`, `t_json` (an open
//! transaction, a read view taken before the history: `rows/*.tsv.gz`,
//! `undo_scenario.views`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::mysql::{sets, MysqlCopy};
use crate::support::{self, run, run_json};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What `records --format json` wrote: the rows, the transactions
/// summary, the findings' messages, and the error stream.
struct Listing {
    rows: Vec<Value>,
    summary: Value,
    findings: Vec<String>,
    stderr: String,
}

impl Listing {
    /// The row values of `cols`, as `mysql -B` prints them.
    fn cells(&self, cols: &[&str]) -> Vec<Vec<String>> {
        self.rows.iter().map(|r| cells(r, cols)).collect()
    }

    /// The rows as `cols` joined by tabs, as a set.
    fn lines(&self, cols: &[&str]) -> BTreeSet<String> {
        self.cells(cols).into_iter().map(|c| c.join("\t")).collect()
    }

    /// BIT_XOR(CRC32(CONCAT_WS('|', cols))) over the rows (CONCAT_WS
    /// skips NULLs).
    fn digest(&self, cols: &[&str]) -> u64 {
        support::concat_ws_digest(&self.rows, cols)
    }

    /// A count of the summary.
    fn count(&self, what: &str) -> u64 {
        self.summary["counts"][what].as_u64().unwrap()
    }
}

/// One row's values of `cols`, as `mysql -B` prints them.
fn cells(r: &Value, cols: &[&str]) -> Vec<String> {
    cols.iter()
        .map(|c| match &r["row"][*c] {
            Value::String(s) => s.clone(),
            Value::Null => "NULL".into(),
            other => other.to_string(),
        })
        .collect()
}

/// `records TABLE ARGS` of the data directory `dir`, as JSON lines.
fn records(dir: &Path, table: &str, args: &[&str]) -> Listing {
    let mut all: Vec<OsString> = vec![
        "--datadir".into(),
        dir.into(),
        "--format".into(),
        "json".into(),
        "records".into(),
        table.into(),
    ];
    all.extend(args.iter().map(OsString::from));
    let out = run(all);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{table} {args:?}: {stderr}");
    let mut l = Listing {
        rows: Vec::new(),
        summary: Value::Null,
        findings: Vec::new(),
        stderr,
    };
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v.get("row").is_some() {
            l.rows.push(v);
        } else if let Some(t) = v.get("transactions") {
            l.summary = t.clone();
        } else {
            l.findings
                .push(v["finding"]["message"].as_str().unwrap().to_string());
        }
    }
    l
}

/// The MariaDB crash sets with an undo scenario: (name, data directory, truth).
fn mariadb_sets() -> Vec<(String, PathBuf, Value)> {
    let (dir, _) = support::truth_fixtures_dir();
    let sets: Vec<(String, PathBuf, Value)> = ["p16k-undo", "p4k-undo"]
        .iter()
        .map(|n| {
            let root = dir.join(n);
            let truth =
                serde_json::from_slice(&std::fs::read(root.join("truth.json")).unwrap()).unwrap();
            (n.to_string(), root, truth)
        })
        .collect();
    assert_eq!(sets.len(), 2);
    sets
}

/// The lines of a `rows/*.tsv.gz` file of a MariaDB set, as a set.
fn truth_lines(root: &Path, file: &str) -> BTreeSet<String> {
    let gz = std::fs::read(root.join(file)).unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut text).unwrap();
    text.lines().map(str::to_string).collect()
}

/// The XA transaction the server found prepared on restart ("Transaction
/// 55 was in the XA prepared state."), from the recovery log in truth.
fn prepared_trx(truth: &Value) -> u64 {
    truth["undo_scenario"]["recovery_startup"]["error_log_lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l.as_str())
        .find_map(|l| {
            let rest = l.split("InnoDB: Transaction ").nth(1)?;
            let (n, tail) = rest.split_once(' ')?;
            tail.starts_with("was in the XA prepared state")
                .then(|| n.parse().unwrap())
        })
        .unwrap()
}

/// The transaction id of the oldest undo log of the history (`undo`): the
/// first transaction the held read view did not see.
fn first_history_trx(dir: &Path) -> u64 {
    let (v, out) = run_json(["--datadir".as_ref(), dir.as_os_str(), "undo".as_ref()]);
    assert!(out.status.success());
    v["by_transaction"][0]["trx_id"].as_u64().unwrap()
}

const T_ORDERED: [&str; 4] = ["id", "a", "b", "c"];
const T_UNDO: [&str; 3] = ["id", "v", "s"];

#[test]
fn rows_of_a_prepared_xa_transaction_are_marked_and_rolled_back() {
    for (name, root, truth) in mariadb_sets() {
        let files = root.join("files");
        let xa = prepared_trx(&truth);
        let rows_updated = truth["undo_scenario"]["xa_prepared"]["rows_updated"]
            .as_u64()
            .unwrap();
        let committed = truth_lines(&root, "rows/t_ordered.tsv.gz");
        let checks = &truth["tables"][0]["checks"];
        assert_eq!(truth["tables"][0]["name"], "test/t_ordered");

        // As stored: the XA transaction's rows (a = a + 1 where id <= 10),
        // marked prepared, the summary naming it.
        let stored = records(&files, "test/t_ordered", &[]);
        let marked: Vec<&Value> = stored
            .rows
            .iter()
            .filter(|r| r.get("trx_state").is_some())
            .collect();
        assert_eq!(marked.len() as u64, rows_updated, "{name}");
        for r in &marked {
            assert_eq!(r["trx_state"], "prepared", "{name}");
            assert_eq!(r["row"]["DB_TRX_ID"], xa, "{name}");
            assert!(r["row"]["id"].as_u64().unwrap() <= 10, "{name}");
        }
        assert_eq!(
            stored.summary["uncommitted_rows"],
            serde_json::json!([{"trx_id": xa, "state": "prepared", "rows": rows_updated}]),
            "{name}"
        );
        // Exactly those rows differ from the committed ones.
        let differ: BTreeSet<String> = stored
            .lines(&T_ORDERED)
            .difference(&committed)
            .cloned()
            .collect();
        assert_eq!(differ.len() as u64, rows_updated, "{name}");

        // --committed: the server's committed rows, a restored.
        let c = records(&files, "test/t_ordered", &["--committed"]);
        assert_eq!(c.lines(&T_ORDERED), committed, "{name}");
        assert_eq!(
            c.rows.len() as u64,
            truth["tables"][0]["count"].as_u64().unwrap()
        );
        assert_eq!(
            c.digest(&T_ORDERED),
            checks["row_digest"].as_u64().unwrap(),
            "{name}"
        );
        let sum_a: u64 = c.rows.iter().map(|r| r["row"]["a"].as_u64().unwrap()).sum();
        assert_eq!(sum_a, checks["sum_a"].as_u64().unwrap(), "{name}");
        assert_eq!(c.count("reverted"), rows_updated, "{name}");
        assert_eq!(c.count("unrecoverable"), 0, "{name}");
        let reverted: Vec<&Value> = c
            .rows
            .iter()
            .filter(|r| r.get("rebuilt").is_some())
            .collect();
        assert_eq!(reverted.len() as u64, rows_updated, "{name}");
        assert_eq!(reverted[0]["rebuilt"]["stored_trx_id"], xa, "{name}");
    }
}

#[test]
fn as_of_the_first_update_gives_the_snapshot_the_server_held() {
    for (name, root, truth) in mariadb_sets() {
        let files = root.join("files");
        let snapshot = &truth["undo_scenario"]["snapshot_view_before_updates"];
        let current = &truth["undo_scenario"]["current_committed"];
        let first = first_history_trx(&files);
        let n = first.to_string();
        let view = records(&files, "test/t_undo", &["--as-of-trx", &n]);
        assert_eq!(view.stderr, "", "{name}: the view is complete");
        assert_eq!(view.rows.len() as u64, snapshot["count"].as_u64().unwrap());
        let sum_v: i64 = view
            .rows
            .iter()
            .map(|r| r["row"]["v"].as_i64().unwrap())
            .sum();
        assert_eq!(sum_v, snapshot["sum_v"].as_i64().unwrap(), "{name}");
        assert_eq!(
            view.digest(&T_UNDO),
            snapshot["row_digest"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(view.count("reverted"), view.rows.len() as u64, "{name}");

        // --committed (no transaction in flight touched t_undo): the rows
        // as stored, the server's current committed ones.
        let c = records(&files, "test/t_undo", &["--committed"]);
        assert_eq!(
            c.digest(&T_UNDO),
            current["row_digest"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(
            c.lines(&T_UNDO),
            truth_lines(&root, "rows/t_undo.tsv.gz"),
            "{name}"
        );
        assert_eq!(
            c.count("stored"),
            current["count"].as_u64().unwrap(),
            "{name}"
        );
    }
}

#[test]
fn an_as_of_trx_beyond_the_newest_or_below_purge_is_said() {
    let (name, root, truth) = mariadb_sets().remove(0);
    let files = root.join("files");
    // The counter the server restarted from ("Trx id counter is 57").
    let next = truth["undo_scenario"]["recovery_startup"]["trx_id_counter"]
        .as_u64()
        .unwrap();
    let at = records(&files, "test/t_undo", &["--as-of-trx", &next.to_string()]);
    assert_eq!(at.stderr, "", "{name}");
    let beyond = records(
        &files,
        "test/t_undo",
        &["--as-of-trx", &(next + 1).to_string()],
    );
    assert!(
        beyond.stderr.contains(&format!(
            "--as-of-trx {} is beyond the newest transaction of these files (the server would give out {next} next)",
            next + 1
        )),
        "{name}: {}",
        beyond.stderr
    );
    // Every committed row, as --committed gives them.
    let current = &truth["undo_scenario"]["current_committed"];
    assert_eq!(
        beyond.digest(&T_UNDO),
        current["row_digest"].as_u64().unwrap()
    );

    // The purged copy: no history left, so a view before the updates is
    // below what purge kept; the rows that can be rebuilt still are.
    let purged = root.join("purged/files");
    let first = first_history_trx(&files).to_string();
    let below = records(&purged, "test/t_undo", &["--as-of-trx", &first]);
    assert!(
        below.stderr.contains(&format!(
            "--as-of-trx {first} is below what purge kept: it has removed every committed undo log"
        )),
        "{name}: {}",
        below.stderr
    );
    assert_eq!(
        below.rows.len() as u64 + below.count("unrecoverable") + below.count("removed"),
        3000
    );
}

/// The MySQL sets' tables the open transaction changed, with the columns
/// of their row digest.
const MYSQL_TABLES: [(&str, &[&str]); 3] = [
    ("t_hist", &["id", "v", "s"]),
    ("t_plain", &["id", "a", "b", "c"]),
    ("t_inst_redundant", &["id", "a", "c", "e", "d"]),
];

/// The rows of `rows/FILE` of a MySQL copy, joined by tabs, as a set.
fn mysql_lines(copy: &MysqlCopy, file: &str) -> BTreeSet<String> {
    copy.rows(file).into_iter().map(|r| r.join("\t")).collect()
}

#[test]
fn rows_of_mysqls_open_transaction_are_marked_and_rolled_back() {
    for set in sets() {
        let copy = &set.crash;
        let open = &copy.truth["undo_scenario"]["open_transaction"];
        let trx = open["trx_id"].as_u64().unwrap();
        let mut marked_total = 0;
        for (t, cols) in MYSQL_TABLES {
            let table = format!("test/{t}");
            let what = format!("{} {t}", copy.name);
            let committed = mysql_lines(copy, &format!("rows/{t}.tsv.gz"));
            let uncommitted = mysql_lines(copy, &format!("rows/{t}.uncommitted.tsv.gz"));
            // As stored: the live rows marked active are those the open
            // transaction's view has and the committed rows do not.
            let stored = records(&copy.files, &table, &[]);
            let marked: BTreeSet<String> = stored
                .rows
                .iter()
                .filter(|r| r["trx_state"] == "active")
                .map(|r| cells(r, cols).join("\t"))
                .collect();
            let changed: BTreeSet<String> = uncommitted.difference(&committed).cloned().collect();
            assert_eq!(marked, changed, "{what}");
            let rows = &stored.summary["uncommitted_rows"][0];
            assert_eq!(rows["trx_id"], trx, "{what}");
            assert_eq!(rows["state"], "active", "{what}");
            marked_total += rows["rows"].as_u64().unwrap();

            // --committed: the committed rows, count and digest the server's.
            let c = records(&copy.files, &table, &["--committed"]);
            let checks = &copy.table(&table)["checks"];
            assert_eq!(c.lines(cols), committed, "{what}");
            assert_eq!(
                c.digest(cols),
                checks["row_digest"].as_u64().unwrap(),
                "{what}"
            );
            assert_eq!(
                c.rows.len() as u64,
                checks["count"].as_u64().unwrap(),
                "{what}"
            );
            assert_eq!(c.count("unrecoverable"), 0, "{what}");
        }
        // t_json's two rows (its LOB partly updated: undo not read) are
        // left out by name, never guessed.
        let j = records(&copy.files, "test/t_json", &["--committed"]);
        assert_eq!(j.count("unrecoverable"), 2, "{}", copy.name);
        assert_eq!(j.rows.len(), 38);
        for key in [1, 2] {
            assert!(
                j.findings.iter().any(|f| f.starts_with(&format!(
                    "row with key ({key}): its committed version cannot be rebuilt, left out (DB_ROLL_PTR rseg "
                ))),
                "{}: {:?}",
                copy.name,
                j.findings
            );
        }
        let stored = records(&copy.files, "test/t_json", &[]);
        marked_total += stored.summary["uncommitted_rows"][0]["rows"]
            .as_u64()
            .unwrap();
        // Every row the open transaction modified, over its four tables.
        assert_eq!(marked_total, open["trx_rows_modified"].as_u64().unwrap());
    }
}

#[test]
fn as_of_before_the_history_gives_mysqls_held_read_view() {
    for set in sets() {
        let copy = &set.crash;
        let first = first_history_trx(&copy.files).to_string();
        let views = &copy.truth["undo_scenario"]["views"]["snapshot"];
        for (t, cols) in [
            ("t_hist", &["id", "v", "s"][..]),
            ("t_inst_dynamic", &["id", "a", "c", "e", "d"][..]),
            ("t_inst_compact", &["id", "a", "c", "e", "d"][..]),
            ("t_inst_redundant", &["id", "a", "c", "e", "d"][..]),
        ] {
            let what = format!("{} {t} as of {first}", copy.name);
            let v = records(&copy.files, &format!("test/{t}"), &["--as-of-trx", &first]);
            assert_eq!(v.stderr, "", "{what}");
            assert_eq!(
                v.lines(cols),
                mysql_lines(copy, &format!("rows/{t}.snapshot.tsv.gz"))
            );
            assert_eq!(
                v.digest(cols),
                views[t]["row_digest"].as_u64().unwrap(),
                "{what}"
            );
            assert_eq!(
                v.rows.len() as u64,
                views[t]["count"].as_u64().unwrap(),
                "{what}"
            );
        }
    }
}

#[test]
fn deleted_rows_come_after_the_live_ones_as_a_set() {
    for set in sets() {
        let copy = &set.crash;
        let snapshot: BTreeMap<String, Vec<String>> = copy
            .rows("rows/t_hist.snapshot.tsv.gz")
            .into_iter()
            .map(|r| (r[0].clone(), r))
            .collect();
        let committed: BTreeSet<String> = copy
            .rows("rows/t_hist.tsv.gz")
            .into_iter()
            .map(|r| r[0].clone())
            .collect();
        let uncommitted: BTreeSet<String> = copy
            .rows("rows/t_hist.uncommitted.tsv.gz")
            .into_iter()
            .map(|r| r[0].clone())
            .collect();
        // Deleted by the committed history: in the held view, not in the
        // committed rows; deleted by the open transaction: committed,
        // not in its view.
        let by_history: BTreeSet<String> = snapshot
            .keys()
            .filter(|k| !committed.contains(*k))
            .cloned()
            .collect();
        let by_open: BTreeSet<String> = committed.difference(&uncommitted).cloned().collect();
        assert_eq!((by_history.len(), by_open.len()), (10, 10), "{}", copy.name);

        let l = records(&copy.files, "test/t_hist", &["--deleted"]);
        let first_deleted = l.rows.iter().position(|r| r["state"] != "live").unwrap();
        let (live, deleted) = l.rows.split_at(first_deleted);
        assert!(deleted.iter().all(|r| r["state"] != "live"));
        assert_eq!(live.len(), uncommitted.len(), "{}", copy.name);
        let ids = |rows: &[Value], active: bool| -> BTreeSet<String> {
            rows.iter()
                .filter(|r| r["state"] == "delete_marked" && (r["trx_state"] == "active") == active)
                .map(|r| r["row"]["id"].to_string())
                .collect()
        };
        assert_eq!(ids(deleted, false), by_history, "{}", copy.name);
        assert_eq!(ids(deleted, true), by_open, "{}", copy.name);

        // --committed: the open transaction's deletes restored among the
        // live rows; the history's deletes the deleted set.
        let c = records(&copy.files, "test/t_hist", &["--committed", "--deleted"]);
        let first_deleted = c.rows.iter().position(|r| r["state"] != "live").unwrap();
        let (live, deleted) = c.rows.split_at(first_deleted);
        assert_eq!(live.len(), committed.len());
        assert_eq!(ids(deleted, false), by_history, "{}", copy.name);
        let restored: BTreeSet<String> = live
            .iter()
            .filter(|r| r["rebuilt"]["rebuild"] == "restored")
            .map(|r| r["row"]["id"].to_string())
            .collect();
        assert_eq!(restored, by_open, "{}", copy.name);
    }
}

/// `p4k-undo` (undo logs in ibdata1), crafted: key 7 of `t_undo` has six
/// versions; the undo record of its third is made another row's (its key
/// 7 written as 8), so the chain breaks half way. `--as-of-trx` before
/// the updates names row 7 (key, page, the roll pointer that leads to the
/// damaged record) and leaves it out; every other row is still rebuilt;
/// `--committed`, which needs no undo here, is unchanged.
#[test]
fn an_undo_chain_broken_half_way_is_named_and_the_rest_recovered() {
    const PS: usize = 4096;
    let (_, root, truth) = mariadb_sets().remove(1);
    assert_eq!(truth["page_size"], PS);
    let tmp = tempfile::tempdir().unwrap();
    let files = root.join("files");
    let dir = tmp.path().join("p4k-undo");
    std::fs::create_dir_all(dir.join("test")).unwrap();
    let ibdata = support::gunzip_into(&files.join("ibdata1.gz"), &dir);
    support::gunzip_into(&files.join("test/t_undo.ibd.gz"), &dir.join("test"));
    let first = first_history_trx(&dir).to_string();
    let pristine = records(&dir, "test/t_undo", &["--as-of-trx", &first]);
    assert_eq!(pristine.rows.len(), 3000);

    let (h, out) = run_json([
        "--datadir".as_ref(),
        dir.as_os_str(),
        "history".as_ref(),
        "test/t_undo".as_ref(),
        "--key".as_ref(),
        "7".as_ref(),
    ]);
    assert!(out.status.success());
    let versions = h["versions"].as_array().unwrap();
    assert_eq!(versions.len(), 6);
    let (pointer, damaged) = (&versions[1]["roll_ptr"], &versions[2]["undo"]);
    let page = damaged["page"].as_u64().unwrap() as usize;
    let rec = page * PS + damaged["offset"].as_u64().unwrap() as usize;
    let mut bytes = std::fs::read(&ibdata).unwrap();
    // The key as stored in the undo record: length 4, INT 7 with its sign bit flipped.
    let key = [4u8, 0x80, 0, 0, 7];
    let at = (rec..rec + 40)
        .find(|&i| bytes[i..i + key.len()] == key)
        .expect("the key in the undo record");
    bytes[at + 4] = 8;
    support::reseal(&mut bytes, PS, page);
    std::fs::write(&ibdata, &bytes).unwrap();

    let broken = records(&dir, "test/t_undo", &["--as-of-trx", &first]);
    assert_eq!(broken.count("unrecoverable"), 1);
    assert_eq!(broken.findings.len(), 1, "{:?}", broken.findings);
    assert_eq!(
        broken.findings[0],
        format!(
            "row with key (7): its as of transaction {first} version cannot be rebuilt, left out (DB_ROLL_PTR rseg {} page {page} offset {}): the undo record at page {page} offset {} is of another row: this row's older history was purged",
            pointer["rseg"], pointer["offset"], pointer["offset"]
        )
    );
    let mut expected = pristine.lines(&T_UNDO);
    expected.retain(|l| !l.starts_with("7\t"));
    assert_eq!(broken.lines(&T_UNDO), expected);
    let c = records(&dir, "test/t_undo", &["--committed"]);
    assert_eq!(c.count("unrecoverable"), 0);
    let current = &truth["undo_scenario"]["current_committed"];
    assert_eq!(c.digest(&T_UNDO), current["row_digest"].as_u64().unwrap());
}

/// `--system ibdata1` alone on `p16k-undo`, whose XA transaction's undo
/// segment is in an undo tablespace: the undo logs are not all read, and
/// `records` says so; given each undo tablespace with `--undo` (the way
/// `history` takes them), its rows are marked and rolled back as with
/// `--datadir`.
#[test]
fn undo_tablespaces_given_one_by_one_with_system() {
    let (name, root, truth) = mariadb_sets().remove(0);
    let files = root.join("files");
    let base: Vec<OsString> = vec![
        "--system".into(),
        files.join("ibdata1.gz").into(),
        "--format".into(),
        "json".into(),
        "records".into(),
        files.join("test/t_ordered.ibd.gz").into(),
    ];
    let alone = run(&base);
    assert!(alone.status.success());
    let stderr = String::from_utf8_lossy(&alone.stderr);
    assert!(
        stderr.contains("problems reading the undo logs (`undo` lists them; with --system, give each undo tablespace with --undo)"),
        "{name}: {stderr}"
    );
    assert!(!String::from_utf8_lossy(&alone.stdout).contains("trx_state"));

    let mut with_undo = base.clone();
    for u in ["undo001", "undo002", "undo003"] {
        with_undo.push("--undo".into());
        with_undo.push(files.join(format!("{u}.gz")).into());
    }
    with_undo.push("--committed".into());
    let out = run(&with_undo);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{name}");
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &Value| v.get("row").is_some())
        .collect();
    let l = Listing {
        rows,
        summary: Value::Null,
        findings: Vec::new(),
        stderr: String::new(),
    };
    assert_eq!(
        l.digest(&T_ORDERED),
        truth["tables"][0]["checks"]["row_digest"].as_u64().unwrap(),
        "{name}"
    );
    let reverted = l.rows.iter().filter(|r| r.get("rebuilt").is_some()).count();
    assert_eq!(
        reverted as u64,
        truth["undo_scenario"]["xa_prepared"]["rows_updated"]
            .as_u64()
            .unwrap()
    );
}

/// The rows of each table of a SQL dump, by the table its `INSERT`s name:
/// the first value of each row (the key of these tables).
fn sql_first_values(sql: &str) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut table = String::new();
    for line in sql.lines() {
        if let Some(rest) = line.strip_prefix("INSERT INTO `") {
            table = rest.split('`').next().unwrap().to_string();
        } else if let Some(row) = line.strip_prefix('(') {
            let first = row.split([',', ')']).next().unwrap().trim_matches('\'');
            out.entry(table.clone())
                .or_default()
                .push(first.to_string());
        }
    }
    out
}

/// `export --committed --deleted` of each MySQL crash copy: t_hist's rows
/// are the server's committed ones (the open transaction's deletes
/// restored), its delete-marked rows the history's deletes, in a table of
/// their own; t_json's two rows that cannot be rebuilt are left out and
/// said in the summary. As stored, the summary counts the open
/// transaction's rows.
#[test]
fn export_writes_the_committed_rows_of_every_table() {
    for set in sets() {
        let copy = &set.crash;
        let tmp = tempfile::tempdir().unwrap();
        let export = |dir: &str, args: &[&str]| {
            let out = tmp.path().join(dir);
            let mut argv: Vec<OsString> = vec![
                "--datadir".into(),
                copy.files.clone().into(),
                "export".into(),
                out.clone().into(),
            ];
            argv.extend(args.iter().map(OsString::from));
            let o = run(argv);
            assert_eq!(o.status.code(), Some(0), "{}", copy.name);
            (out, String::from_utf8(o.stdout).unwrap())
        };
        let (out, summary) = export("committed", &["--committed", "--deleted"]);
        let sql = std::fs::read_to_string(out.join("test/t_hist.sql")).unwrap();
        let rows = sql_first_values(&sql);
        let ids = |file: &str| -> BTreeSet<String> {
            copy.rows(file).into_iter().map(|r| r[0].clone()).collect()
        };
        let committed = ids("rows/t_hist.tsv.gz");
        let live: BTreeSet<String> = rows["t_hist"].iter().cloned().collect();
        assert_eq!(live, committed, "{}", copy.name);
        assert_eq!(rows["t_hist"].len(), committed.len(), "{}", copy.name);
        let by_history: BTreeSet<String> = ids("rows/t_hist.snapshot.tsv.gz")
            .difference(&committed)
            .cloned()
            .collect();
        let marked: BTreeSet<String> = sql
            .lines()
            .filter_map(|l| l.strip_prefix("('delete-marked',"))
            .map(|l| l.split(',').nth(2).unwrap().to_string())
            .collect();
        assert_eq!(marked, by_history, "{}", copy.name);
        assert!(
            summary.contains("test/t_json: 38 rows -> ")
                && summary.contains("(2 rows cannot be rebuilt from the undo logs: left out)"),
            "{}: {summary}",
            copy.name
        );

        // As stored: t_hist's rows of the open transaction counted.
        let stored = records(&copy.files, "test/t_hist", &[]);
        let n = stored.summary["uncommitted_rows"][0]["rows"]
            .as_u64()
            .unwrap();
        let (_, summary) = export("stored", &[]);
        assert!(
            summary.contains(&format!(
                "({n} rows as a transaction in flight left them, uncommitted)"
            )),
            "{}: {summary}",
            copy.name
        );
    }
}

//! `records` as a command: its exit codes, and what its JSON gives a
//! machine (integers past 2^53, the roll pointer taken apart), on the
//! fixtures the real servers wrote.

// In tests a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;
use std::path::PathBuf;

/// p16k's `t_ordered` (MariaDB 10.11, 10,000 rows).
fn t_ordered() -> PathBuf {
    support::fixtures_dir().join("p16k/files/test/t_ordered.ibd.gz")
}

/// `CREATE TABLE` text written to a temporary file for `--ddl`.
fn ddl_file(dir: &tempfile::TempDir, sql: &str) -> PathBuf {
    let p = dir.path().join("t.sql");
    std::fs::write(&p, sql).unwrap();
    p
}

/// `records` exits 1 when the schema does not fit the records (a `--ddl`
/// of other columns than the table's) and still writes the rows, in every
/// format; with the table's own `SHOW CREATE TABLE` (from truth.json) it
/// exits 0 with the server's `COUNT(*)` rows.
#[test]
fn records_exit_1_when_the_schema_does_not_fit() {
    let truth: serde_json::Value = serde_json::from_slice(
        &std::fs::read(support::fixtures_dir().join("p16k/truth.json")).unwrap(),
    )
    .unwrap();
    let table = support::entry(&truth, "tables", |t| t["name"] == "test/t_ordered");
    let count = table["count"].as_u64().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let file = t_ordered();
    // The server's own statement: fits.
    let right = ddl_file(&tmp, table["create_table"].as_str().unwrap());
    let out = support::run([
        "records".as_ref(),
        file.as_os_str(),
        "--ddl".as_ref(),
        right.as_os_str(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains(&format!("# {count} rows")), "{stderr}");
    assert!(!stderr.contains("does not fit"), "{stderr}");
    // Other columns (crafted statement): 8 + 6 + 7 + 5 bytes where the
    // records hold 4 + 6 + 7 + 4 + a VARCHAR + 20.
    let wrong = tmp.path().join("wrong.sql");
    std::fs::write(
        &wrong,
        "CREATE TABLE t_ordered (id BIGINT NOT NULL, x DATETIME, PRIMARY KEY (id));",
    )
    .unwrap();
    for format in ["text", "json", "csv", "sql"] {
        let out = support::run([
            "--format".as_ref(),
            format.as_ref(),
            "records".as_ref(),
            file.as_os_str(),
            "--ddl".as_ref(),
            wrong.as_os_str(),
            "--limit".as_ref(),
            "5".as_ref(),
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{format}: {stderr}");
        assert!(
            stderr.contains("the schema does not fit"),
            "{format}: {stderr}"
        );
        let rows = match format {
            "text" => usize::from(stdout.contains("\n# 5 rows\n")) * 5,
            "json" => stdout.lines().filter(|l| l.contains("\"row\"")).count(),
            "csv" => stdout.lines().count() - 1,
            _ => stdout.lines().filter(|l| l.starts_with('(')).count(),
        };
        assert_eq!(rows, 5, "{format}: rows written:\n{stdout}");
    }
}

/// 2^53 − 1: the largest integer a reader of numbers as doubles keeps.
const MAX_SAFE: u64 = (1 << 53) - 1;

/// Every number in `v` is exact as a double: a float, or an integer of
/// magnitude at most 2^53 − 1. Gives the path of the first that is not.
fn unsafe_number(v: &serde_json::Value, path: &str) -> Option<String> {
    use serde_json::Value;
    match v {
        Value::Number(n) => {
            let safe = n.is_f64()
                || n.as_u64().is_some_and(|x| x <= MAX_SAFE)
                || n.as_i64().is_some_and(|x| x.unsigned_abs() <= MAX_SAFE);
            (!safe).then(|| format!("{path} = {n}"))
        }
        Value::Array(a) => a
            .iter()
            .enumerate()
            .find_map(|(i, x)| unsafe_number(x, &format!("{path}[{i}]"))),
        Value::Object(o) => o
            .iter()
            .find_map(|(k, x)| unsafe_number(x, &format!("{path}.{k}"))),
        _ => None,
    }
}

/// JSON lines of `records --format json ARGS`: the `row` objects.
fn json_rows(args: &[&std::ffi::OsStr]) -> Vec<serde_json::Value> {
    let mut all: Vec<&std::ffi::OsStr> =
        vec!["--format".as_ref(), "json".as_ref(), "records".as_ref()];
    all.extend(args);
    let out = support::run(all);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .inspect(|v| assert_eq!(unsafe_number(v, ""), None, "{v}"))
        .filter_map(|v| v.get("row").cloned())
        .collect()
}

/// Integers past 2^53 − 1 are JSON strings of their exact digits, in
/// `records` and every other command; smaller ones stay numbers.
/// `t_types`'s BIGINT and BIGINT UNSIGNED are the server's values (from
/// truth.json: -9223372036854775808, 18446744073709551615, …) digit for
/// digit; `t_ordered`'s DB_ROLL_PTR (MariaDB sets the insert flag, bit
/// 55) is the string of the digits the text output prints; MySQL's SDI
/// index id in `pages` is "18446744073709551615".
#[test]
fn json_integers_past_2_53_are_exact_strings() {
    let fixtures = support::fixtures_dir();
    let truth: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixtures.join("p16k/truth.json")).unwrap()).unwrap();
    let t_types = fixtures.join("p16k/files/test/t_types.ibd.gz");
    let rows = json_rows(&[t_types.as_os_str()]);
    let want = truth["rows"]["test/t_types"].as_array().unwrap();
    assert_eq!(rows.len(), want.len());
    let (mut strings, mut numbers) = (0, 0);
    for (ours, server) in rows.iter().zip(want) {
        for c in ["bi", "biu"] {
            let (o, s) = (&ours[c], &server[c]);
            if s.is_null() {
                assert!(o.is_null(), "id {}: {c} {o}", server["id"]);
                continue;
            }
            let big = s.as_u64().map_or_else(
                || s.as_i64().unwrap().unsigned_abs() > MAX_SAFE,
                |x| x > MAX_SAFE,
            );
            if big {
                strings += 1;
                assert_eq!(
                    o.as_str(),
                    Some(s.to_string().as_str()),
                    "id {}: {c}",
                    server["id"]
                );
            } else {
                numbers += 1;
                assert_eq!(o, s, "id {}: {c}", server["id"]);
            }
        }
    }
    assert!(
        strings > 100 && numbers > 0,
        "{strings} strings, {numbers} numbers"
    );
    assert!(rows.iter().any(|r| r["biu"] == "18446744073709551615"));
    assert!(rows.iter().any(|r| r["bi"] == "-9223372036854775808"));

    // DB_ROLL_PTR: the text output's digits, as a string.
    let file = t_ordered();
    let rows = json_rows(&[file.as_os_str(), "--limit".as_ref(), "3".as_ref()]);
    let text = support::run([
        "records".as_ref(),
        file.as_os_str(),
        "--limit".as_ref(),
        "3".as_ref(),
    ]);
    let text = String::from_utf8_lossy(&text.stdout);
    let text_ptrs: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split('\t').nth(2).unwrap())
        .collect();
    let json_ptrs: Vec<&str> = rows
        .iter()
        .map(|r| r["DB_ROLL_PTR"].as_str().unwrap())
        .collect();
    assert_eq!(json_ptrs, text_ptrs);
    assert!(json_ptrs
        .iter()
        .all(|p| p.parse::<u64>().unwrap() > MAX_SAFE));

    // MySQL's SDI index (page 3 of a MySQL 9.7 table) in `pages`.
    let mysql = fixtures.join("mysql-p16k/files/test/t_plain.ibd.gz");
    let (v, _) = support::run_json([
        "pages".as_ref(),
        mysql.as_os_str(),
        "--range".as_ref(),
        "3..3".as_ref(),
    ]);
    assert_eq!(v["pages"][0]["type"], "SDI");
    assert_eq!(v["pages"][0]["index_id"], "18446744073709551615");
    assert_eq!(unsafe_number(&v, ""), None);
}

/// `DB_ROLL_PTR` of a JSON row as a number (a number or, past 2^53 − 1,
/// a string of digits).
fn roll_ptr_value(row: &serde_json::Value) -> u64 {
    support::json_u64(&row["row"]["DB_ROLL_PTR"]).unwrap()
}

/// The JSON lines of `records` (whole objects, not only `row`).
fn json_lines(args: &[&std::ffi::OsStr]) -> Vec<serde_json::Value> {
    let mut all: Vec<&std::ffi::OsStr> = vec!["--format".as_ref(), "json".as_ref()];
    all.extend(args);
    let out = support::run(all);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v.get("row").is_some())
        .collect()
}

/// `records` JSON takes `DB_ROLL_PTR` apart as docs/records.md says:
/// `roll_ptr` {insert (bit 55), rseg (bits 48–54), page (bits 16–47),
/// offset (bits 0–15)}, on every row. On p16k-undo (MariaDB 10.11, five
/// rounds of UPDATEs of t_undo's 3,000 rows kept by an open snapshot),
/// each pointer leads where `undo` and `page` say an undo record is: its
/// rollback segment is one `undo` lists, in the undo tablespace whose
/// space id that segment names; the page there is an UNDO_LOG page whose
/// undo log was written by the row's DB_TRX_ID, and it holds an undo
/// record at exactly that offset, of t_undo's table id (19 in the
/// server's truth.json). p16k's t_ordered (never updated) has the insert
/// flag on every row.
#[test]
fn roll_ptr_is_taken_apart_and_leads_to_its_undo_record() {
    let fixtures = support::fixtures_dir();
    let dir = fixtures.join("p16k-undo/files");
    let truth: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixtures.join("p16k-undo/truth.json")).unwrap())
            .unwrap();
    let table_id = support::entry(&truth, "tables", |t| t["name"] == "test/t_undo")["table_id"]
        .as_u64()
        .unwrap();
    let rows = json_lines(&[
        "--datadir".as_ref(),
        dir.as_os_str(),
        "records".as_ref(),
        "test/t_undo".as_ref(),
    ]);
    assert_eq!(rows.len(), 3000);
    // The bits, row by row.
    let mut by_page: std::collections::BTreeMap<(u64, u64), Vec<(u64, u64)>> =
        std::collections::BTreeMap::new();
    for r in &rows {
        let v = roll_ptr_value(r);
        let p = &r["roll_ptr"];
        assert_eq!(p["insert"], (v >> 55) & 1 == 1, "{r}");
        assert_eq!(p["rseg"], (v >> 48) & 0x7f, "{r}");
        assert_eq!(p["page"], (v >> 16) & 0xffff_ffff, "{r}");
        assert_eq!(p["offset"], v & 0xffff, "{r}");
        assert_eq!(p["insert"], false, "{r}");
        by_page
            .entry((p["rseg"].as_u64().unwrap(), p["page"].as_u64().unwrap()))
            .or_default()
            .push((
                p["offset"].as_u64().unwrap(),
                r["row"]["DB_TRX_ID"].as_u64().unwrap(),
            ));
    }
    // Where `undo` says each rollback segment and undo tablespace is.
    let (undo, _) = support::run_json(["--datadir".as_ref(), dir.as_os_str(), "undo".as_ref()]);
    let space_of = |rseg: u64| {
        undo["rollback_segments"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == rseg)
            .unwrap_or_else(|| panic!("rseg {rseg} not in `undo`"))["space_id"]
            .as_u64()
            .unwrap()
    };
    let file_of = |space: u64| {
        let f = undo["undo_tablespaces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["space_id"] == space)
            .unwrap_or_else(|| panic!("space {space} not in `undo`"))["file"]
            .as_str()
            .unwrap()
            .to_string();
        dir.join(f)
    };
    let (mut records, mut with_header) = (0, 0);
    for ((rseg, page), pointers) in &by_page {
        let file = file_of(space_of(*rseg));
        let (p, _) =
            support::run_json(["page".as_ref(), file.as_os_str(), page.to_string().as_ref()]);
        assert_eq!(p["type"], "UNDO_LOG", "rseg {rseg} page {page}");
        let fields: Vec<&serde_json::Value> = p["sections"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["fields"].as_array().unwrap())
            .collect();
        let writers: Vec<u64> = fields
            .iter()
            .filter(|f| f["name"] == "TRX_UNDO_TRX_ID")
            .map(|f| f["value"].as_u64().unwrap())
            .collect();
        for (offset, trx) in pointers {
            // A log's first page has its header (the writer's trx id);
            // the pages it continues on have none.
            if !writers.is_empty() {
                assert!(
                    writers.contains(trx),
                    "page {page}: trx {trx} not in {writers:?}"
                );
                with_header += 1;
            }
            let rec = fields
                .iter()
                .find(|f| {
                    f["offset"] == *offset && f["name"].as_str().unwrap().starts_with("TRX_UNDO_")
                })
                .unwrap_or_else(|| panic!("rseg {rseg} page {page}: no undo record at {offset}"));
            let meaning = rec["meaning"].as_str().unwrap();
            assert!(
                meaning.contains(&format!("table {table_id},")),
                "page {page} offset {offset}: {meaning}"
            );
            records += 1;
        }
    }
    assert_eq!(records, 3000);
    assert!(
        with_header > 0 && by_page.len() > 1,
        "{with_header} on {} pages",
        by_page.len()
    );
    // Rows never updated since their INSERT: the insert flag.
    let rows = json_lines(&["records".as_ref(), t_ordered().as_os_str()]);
    assert_eq!(rows.len(), 10_000);
    for r in &rows {
        assert_eq!(r["roll_ptr"]["insert"], true, "{r}");
        assert_eq!(r["roll_ptr"]["offset"], roll_ptr_value(r) & 0xffff, "{r}");
    }
}

/// `export` is no success either when a table's schema does not fit: a
/// data directory of p16k's t_ordered (with its own `.frm`) and t_random
/// beside a real `.frm` of another table (t_blob's; crafted, as in
/// `frm::a_frm_of_another_table_warns`) exports both, says t_random's
/// values are not to be trusted, and exits 1; without t_random it exits 0.
#[test]
fn export_exits_1_when_a_schema_does_not_fit() {
    let files = support::fixtures_dir().join("p16k/files/test");
    let tmp = tempfile::tempdir().unwrap();
    let test = tmp.path().join("datadir/test");
    std::fs::create_dir_all(&test).unwrap();
    for f in ["t_ordered.ibd.gz", "t_ordered.frm.gz", "t_random.ibd.gz"] {
        std::fs::copy(files.join(f), test.join(f)).unwrap();
    }
    // Crafted: another table's real .frm under t_random's name.
    std::fs::copy(files.join("t_blob.frm.gz"), test.join("t_random.frm.gz")).unwrap();
    let export = |out: &str| {
        support::run([
            "--datadir".as_ref(),
            tmp.path().join("datadir").as_os_str(),
            "export".as_ref(),
            tmp.path().join(out).as_os_str(),
        ])
    };
    let out = export("out1");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("test/t_ordered.ibd.gz: 10000 rows")
            && stdout.contains("t_random.sql (the schema does not fit the records"),
        "{stdout}"
    );
    assert!(tmp.path().join("out1/test/t_random.sql").is_file());
    for f in ["t_random.ibd.gz", "t_random.frm.gz"] {
        std::fs::remove_file(test.join(f)).unwrap();
    }
    let out = export("out2");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

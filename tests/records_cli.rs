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
    let table = truth["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "test/t_ordered")
        .unwrap();
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

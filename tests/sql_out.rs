//! SQL a server loads back: `schema` against the CREATE TABLE the servers
//! printed (truth.json's `create_table`), `export` over a whole fixture
//! directory against the server's row counts, and `records --format sql`
//! loaded into a real MariaDB (tests/load-sql.sh), and `export` of the
//! MySQL sets into MySQL 9.x (tests/load-sql-mysql.sh), against the
//! truth's COUNT(*) and row CRCs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The column lines of a `CREATE TABLE`: `(name, type)`, the type being
/// what follows the name up to the first attribute.
fn column_types(create: &str) -> Vec<(String, String)> {
    const ATTRIBUTES: [&str; 10] = [
        " CHARACTER SET ",
        " COLLATE ",
        " NOT NULL",
        " NULL",
        " DEFAULT ",
        " GENERATED ",
        " COMMENT ",
        " AUTO_INCREMENT",
        " /*",
        " CHECK ",
    ];
    create
        .lines()
        .filter_map(|l| {
            let l = l.trim().trim_end_matches(',');
            let rest = l.strip_prefix('`')?;
            let (name, ty) = rest.split_once("` ")?;
            let end = ATTRIBUTES
                .iter()
                .filter_map(|a| ty.find(a))
                .min()
                .unwrap_or(ty.len());
            Some((name.to_string(), ty[..end].to_string()))
        })
        .collect()
}

/// MariaDB's type as a type SYS_COLUMNS can give back: integer display
/// widths dropped, `year(4)` as `year`.
fn without_widths(ty: &str) -> String {
    let ty = ty.replace("year(4)", "year");
    for int in ["tinyint", "smallint", "mediumint", "bigint", "int"] {
        if let Some(rest) = ty.strip_prefix(&format!("{int}(")) {
            if let Some((_, after)) = rest.split_once(')') {
                return format!("{int}{after}");
            }
        }
    }
    ty
}

/// The MariaDB fixture sets: `(name, truth)`.
fn mariadb_sets() -> Vec<(PathBuf, Value)> {
    let (dir, _) = support::truth_fixtures_dir();
    let mut out = Vec::new();
    for truth in support::files_below(&dir, "truth.json") {
        let v: Value = serde_json::from_slice(&std::fs::read(&truth).unwrap()).unwrap();
        let set = truth.parent().unwrap().to_path_buf();
        if v["server_version"]
            .as_str()
            .is_some_and(|s| s.contains("MariaDB"))
            && set.join("files").is_dir()
        {
            out.push((set, v));
        }
    }
    assert!(
        !out.is_empty(),
        "no MariaDB fixture set in {}",
        dir.display()
    );
    out
}

/// The CREATE TABLE `schema` prints for `table` of `datadir`, in the file
/// `file` (the table's own when `None`).
fn schema_of(datadir: &Path, table: &str, file: Option<&str>) -> String {
    let o = support::run([
        "--datadir".as_ref(),
        datadir.as_os_str(),
        "schema".as_ref(),
        file.unwrap_or(table).as_ref(),
        "--table".as_ref(),
        table.as_ref(),
    ]);
    assert!(
        o.status.success(),
        "schema {table} of {}: {}",
        datadir.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// A data directory of links to every file of `files` but the `.frm`s, so
/// that the dictionary is the only source of a table's definition.
fn datadir_without_frm(files: &Path) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for f in support::tablespaces_below(files, "") {
        let link = tmp.path().join(f.strip_prefix(files).unwrap());
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&f, &link).unwrap();
    }
    tmp
}

/// On every MariaDB set, every table's columns from SYS_* have the names,
/// order and types of the server's SHOW CREATE TABLE, but for what
/// SYS_COLUMNS does not keep, which the column's comment says: DECIMAL
/// (binary of its bytes), ENUM and SET (their stored number), BIT (whole
/// bytes), TIME/DATETIME/TIMESTAMP fractional digits (rounded up to even).
#[test]
fn schema_from_sys_tables_gives_the_server_s_columns() {
    let (mut compared, mut columns) = (0, 0);
    for (set, truth) in mariadb_sets() {
        let without_frm = datadir_without_frm(&set.join("files"));
        for t in truth["tables"].as_array().unwrap() {
            let name = t["name"].as_str().unwrap();
            let want = column_types(t["create_table"].as_str().unwrap());
            // A table of the system tablespace (innodb_file_per_table=OFF,
            // p16k-dropped) is read in ibdata1; the others in their own file.
            let system = without_frm.path().join("ibdata1");
            let file = (t["space_id"] == 0).then(|| system.to_str().unwrap());
            let ours = schema_of(without_frm.path(), name, file);
            let got = column_types(&ours);
            let names = |v: &[(String, String)]| v.iter().map(|c| c.0.clone()).collect::<Vec<_>>();
            assert_eq!(names(&got), names(&want), "{}: {name}", set.display());
            columns += want.len();
            for ((col, got_ty), (_, want_ty)) in got.iter().zip(&want) {
                let want_ty = without_widths(want_ty);
                let lost = [
                    "decimal",
                    "enum",
                    "set",
                    "bit",
                    "time(",
                    "datetime(",
                    "timestamp(",
                ]
                .iter()
                .any(|k| want_ty.starts_with(k));
                if lost && *got_ty != want_ty {
                    let line = ours
                        .lines()
                        .find(|l| l.contains(&format!("`{col}` ")))
                        .unwrap();
                    assert!(
                        line.contains("COMMENT")
                            || want_ty.starts_with("bit")
                            || want_ty.contains('('),
                        "{}: {name}.{col}: {got_ty} for {want_ty} without a word why",
                        set.display()
                    );
                    continue;
                }
                // MariaDB's JSON is longtext with a CHECK.
                assert_eq!(*got_ty, want_ty, "{}: {name}.{col}", set.display());
                compared += 1;
            }
        }
    }
    // Most columns keep their exact type without the .frm; the few that
    // lose precision or labels are checked above to say why. A set of
    // fixtures (all of them, or the three CI makes anew) must compare most.
    eprintln!("{compared} of {columns} columns compared type for type");
    assert!(
        columns > 0 && compared * 4 >= columns * 3,
        "only {compared} of {columns} columns compared"
    );
}

/// On every MySQL set, the SDI's (or mysql.ibd's) columns are the server's
/// SHOW CREATE TABLE columns, type for type.
#[test]
fn schema_from_mysql_s_dictionary_gives_the_server_s_columns() {
    let mut compared = 0;
    for set in support::mysql::sets() {
        let truth: Value =
            serde_json::from_slice(&std::fs::read(set.crash.root.join("truth.json")).unwrap())
                .unwrap();
        let files = set.crash.root.join("files");
        for t in truth["tables"].as_array().unwrap() {
            let name = t["name"].as_str().unwrap();
            let Some(create) = t["create_table"].as_str() else {
                continue;
            };
            let want = column_types(create);
            // A general tablespace's or a partitioned table's file.
            let inner = &t["innodb_tables"][0];
            let file = inner["file"].as_str();
            let table = inner["name"].as_str().unwrap_or(name);
            let got = column_types(&schema_of(&files, table, file));
            assert_eq!(got, want, "{}: {name}", set.crash.name);
            compared += want.len();
        }
    }
    assert!(compared > 50, "only {compared} columns compared");
}

/// `export` of the p4k set writes one file per table of the truth, each
/// with the server's row count in its summary; a target inside the data
/// directory is refused.
#[test]
fn export_writes_every_table_with_the_server_s_row_count() {
    let (set, truth) = mariadb_sets()
        .into_iter()
        .find(|(s, _)| s.ends_with("p4k"))
        .or_else(|| mariadb_sets().into_iter().next())
        .unwrap();
    let out = tempfile::tempdir().unwrap();
    let files = set.join("files");
    let o = support::run([
        "--datadir".as_ref(),
        files.as_os_str(),
        "export".as_ref(),
        out.path().as_os_str(),
    ]);
    let summary = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{summary}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let tables = truth["tables"].as_array().unwrap();
    for t in tables {
        let name = t["name"].as_str().unwrap();
        let (db, table) = name.split_once('/').unwrap();
        let path = out.path().join(db).join(format!("{table}.sql"));
        let sql =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(sql.contains(&format!("CREATE TABLE `{table}`")), "{name}");
        let line = format!("{name}: {} rows -> ", t["count"]);
        assert!(summary.contains(&line), "{line} not in\n{summary}");
    }
    assert!(
        summary.contains(&format!("{} tables exported", tables.len())),
        "{summary}"
    );
    let inside = files.join("out");
    let o = support::run([
        "--datadir".as_ref(),
        files.as_os_str(),
        "export".as_ref(),
        inside.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!inside.exists());
    assert!(String::from_utf8_lossy(&o.stderr).contains("inside the data directory"));
}

/// Runs `tests/SCRIPT` (a load into a real server) over the fixture sets
/// and returns what it printed, after printing it; `None` when it skipped
/// (exit 77: no server) and INNODB_INSPECT_REQUIRE_SERVER is not set. A
/// failed load fails the test.
fn load_script(script: &str) -> Option<String> {
    let (dir, _) = support::truth_fixtures_dir();
    let o = std::process::Command::new("bash")
        .arg(support::repo_root().join("tests").join(script))
        .arg(env!("CARGO_BIN_EXE_innodb-inspect"))
        .arg(&dir)
        .output()
        .unwrap();
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    eprintln!("{report}");
    if o.status.code() == Some(77) && std::env::var_os("INNODB_INSPECT_REQUIRE_SERVER").is_none() {
        return None;
    }
    assert!(o.status.success(), "{report}");
    Some(report)
}

/// The lines of `report` that end in ` ok` and contain `what`.
fn ok_lines(report: &str, what: &str) -> usize {
    report
        .lines()
        .filter(|l| l.ends_with(" ok") && l.contains(what))
        .count()
}

/// `records --format sql` of t_random, t_deleted, t_zip4, t_pagecomp and
/// the BLOB tables of every MariaDB set, loaded into a fresh MariaDB, give
/// the truth's COUNT(*) and row CRCs (tests/load-sql.sh); so do t_ordered
/// with `--committed` and t_undo with `--as-of-trx` on the undo sets. Skipped, saying
/// so, where no MariaDB server is installed, unless
/// INNODB_INSPECT_REQUIRE_SERVER is set (CI), which installs one.
#[test]
fn records_sql_loads_into_mariadb_with_the_server_s_counts_and_crcs() {
    let Some(report) = load_script("load-sql.sh") else {
        return;
    };
    let ok = |what: &str| ok_lines(&report, what);
    assert!(ok("") >= 5, "{report}");
    // Every fixture directory has an undo set (CI's live one: p4k-undo).
    assert!(ok(" --committed ") >= 1, "{report}");
    assert!(ok(" --as-of-trx ") >= 1, "{report}");
}

/// `export` of every MySQL set's purged copy, loaded into a fresh MySQL 9.x
/// (the project's chroot), gives every table's COUNT(*) and row digest of
/// truth.json (tests/load-sql-mysql.sh); on the crash copies, so does
/// `records --format sql` with `--committed` and `--as-of-trx`. Skipped, saying so, without the
/// chroot unless INNODB_INSPECT_REQUIRE_SERVER is set (CI), which builds it.
#[test]
fn export_of_mysql_sets_loads_into_mysql_with_the_server_s_counts_and_crcs() {
    let Some(report) = load_script("load-sql-mysql.sh") else {
        return;
    };
    let ok = |what: &str| ok_lines(&report, what);
    assert!(ok("/purged ") >= 15, "{report}");
    assert!(ok(" committed ") >= 3, "{report}");
    assert!(ok(" asof ") >= 4, "{report}");
}

/// `records --format sql --deleted` of mysql-p16k's t_hist (delete-marked
/// and garbage records among the live ones): each statement ends before
/// the next begins, and the live and deleted rows written are those
/// `--format json --deleted` lists, each in its own table.
#[test]
fn deleted_rows_go_to_their_own_table_in_whole_statements() {
    let files = support::fixtures_dir().join("mysql-p16k/files");
    let args = |format: &str| {
        vec![
            "--datadir".to_string(),
            files.display().to_string(),
            "--format".into(),
            format.into(),
            "records".into(),
            "--deleted".into(),
            "test/t_hist".into(),
        ]
    };
    let o = support::run(args("sql"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sql = String::from_utf8(o.stdout).unwrap();
    let json = support::run(args("json"));
    let rows: Vec<Value> = String::from_utf8(json.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v.get("row").is_some())
        .collect();
    let deleted = rows.iter().filter(|r| r["deleted"] == true).count();
    assert!(deleted > 0, "t_hist has delete-marked or garbage records");
    let mut previous = "";
    let (mut live_rows, mut deleted_rows, mut table) = (0, 0, "");
    for line in sql.lines() {
        if line.starts_with("INSERT INTO") {
            assert!(
                previous.ends_with(';'),
                "a statement begins inside another after {previous}"
            );
            table = if line.starts_with("INSERT INTO `t_hist__deleted`") {
                "deleted"
            } else {
                "live"
            };
        } else if line.starts_with('(') {
            match table {
                "deleted" => deleted_rows += 1,
                _ => live_rows += 1,
            }
        }
        previous = line;
    }
    assert_eq!(deleted_rows, deleted);
    assert_eq!(live_rows, rows.len() - deleted);
}

//! `.frm` files: MariaDB's (the fixtures, made by the server of
//! `fixtures/generate.sh`) against the server's truth, MySQL 5.x's (sakila
//! in `../shared/thirdparty`) against sakila's schema and data, crafted
//! mismatches and damage, and character sets (innodb-java-reader's tb20).

// In tests a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;
use innodb_analysis::rows::frm_definition::definition;
use innodb_analysis::rows::table_definition::KeyKind;
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The MariaDB fixture sets (name, truth).
fn mariadb_sets() -> Vec<(String, Value)> {
    let dir = support::fixtures_dir();
    let mut out = Vec::new();
    for truth in support::files_below(&dir, "truth.json") {
        let v: Value = serde_json::from_slice(&std::fs::read(&truth).unwrap()).unwrap();
        // p16k-dropped, the carving scenario (tests/carve_dropped.rs), keeps
        // its tables in ibdata1: not a set of a table per file.
        if v["server_version"]
            .as_str()
            .is_some_and(|s| s.contains("MariaDB"))
            && v.get("dropped_scenario").is_none()
        {
            let name = truth.parent().unwrap().file_name().unwrap();
            out.push((name.to_string_lossy().to_string(), v));
        }
    }
    assert_eq!(out.len(), 10, "the ten MariaDB sets");
    out
}

/// `records` as JSON lines: the rows, and standard error.
fn records(args: &[&OsStr]) -> (Vec<Value>, String, Option<i32>) {
    let mut all: Vec<&OsStr> = vec!["--format".as_ref(), "json".as_ref()];
    all.extend_from_slice(args);
    let out = support::run(all);
    let rows = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v.get("row").cloned())
        .collect();
    (
        rows,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// The arguments of `records FILE --ddl DDL`.
fn records_with_ddl<'a>(file: &'a Path, ddl: &'a Path) -> Vec<&'a OsStr> {
    vec![
        "records".as_ref(),
        file.as_os_str(),
        "--ddl".as_ref(),
        ddl.as_os_str(),
    ]
}

/// Compares our t_types rows with the server's (`truth.rows`), every
/// value: returns (values equal, values compared, the differences).
fn compare_t_types(ours: &[Value], server: &[Value]) -> (usize, usize, Vec<String>) {
    let (mut equal, mut compared, mut problems) = (0, 0, Vec::new());
    if ours.len() != server.len() {
        problems.push(format!("{} rows, the server {}", ours.len(), server.len()));
    }
    for (row, want) in ours.iter().zip(server) {
        for (c, w) in want.as_object().unwrap() {
            // Numbers of ENUM/SET and the TIMESTAMP's epoch have no column.
            if matches!(c.as_str(), "en_num" | "st_num" | "ts_unix") {
                continue;
            }
            let (name, hex) = match c.strip_suffix("_hex") {
                Some(n) => (n, true),
                None => (c.as_str(), false),
            };
            let got = &row[name];
            let ok = match (got, w) {
                (Value::Null, Value::Null) => true,
                (g, w) if hex => g["hex"].as_str().is_some_and(|h| Some(h) == w.as_str()),
                (Value::Number(g), Value::Number(w)) if g.is_f64() || w.is_f64() => {
                    let (g, w) = (g.as_f64().unwrap(), w.as_f64().unwrap());
                    (g - w).abs() <= w.abs() * 1e-6
                }
                // YEAR: the server's JSON has a number, the client prints
                // four digits.
                (Value::String(g), Value::Number(w)) if name == "yr" => {
                    *g == format!("{:04}", w.as_u64().unwrap())
                }
                (Value::String(g), Value::Object(_)) => {
                    serde_json::from_str::<Value>(g).ok().as_ref() == Some(w)
                }
                // Integers past 2^53 − 1: a string of the same digits.
                (Value::String(g), Value::Number(w)) if !w.is_f64() => {
                    *g == w.to_string()
                        && w.as_i64().is_none_or(|n| n.unsigned_abs() > (1 << 53) - 1)
                }
                (g, w) => g == w,
            };
            compared += 1;
            if ok {
                equal += 1;
            } else {
                problems.push(format!("id {}: {name}: ours {got}, server {w}", want["id"]));
            }
        }
    }
    (equal, compared, problems)
}

/// On every MariaDB page size, `records --datadir` of t_types (the .frm
/// beside it in the data directory) gives every value the server returned:
/// DECIMAL(20,6) as text, ENUM and SET labels, TIME(3) and DATETIME(6)
/// with their declared digits, YEAR, character columns, JSON.
#[test]
fn t_types_through_datadir_equals_the_server() {
    let mut sets = 0;
    for (set, truth) in mariadb_sets() {
        let Some(server) = truth["rows"]["test/t_types"].as_array() else {
            continue;
        };
        let files = support::fixtures_dir().join(&set).join("files");
        let ibd = files.join("test/t_types.ibd.gz");
        assert!(
            files.join("test/t_types.frm.gz").is_file(),
            "{set}: no .frm"
        );
        let (rows, err, code) = records(&[
            "--datadir".as_ref(),
            files.as_os_str(),
            "records".as_ref(),
            ibd.as_os_str(),
        ]);
        assert_eq!(code, Some(0), "{set}: {err}");
        assert!(!err.contains("warning"), "{set}: {err}");
        let (equal, compared, problems) = compare_t_types(&rows, server);
        eprintln!(
            "{set}: t_types through --datadir: {} rows, {equal} of {compared} values equal the server's",
            rows.len()
        );
        assert!(problems.is_empty(), "{set}: {problems:#?}");
        // Every column but the 3 that have none of ours (en_num, st_num,
        // ts_unix), in every row.
        let per_row = server[0].as_object().unwrap().len() - 3;
        assert_eq!(compared, server.len() * per_row, "{set}");
        sets += 1;
    }
    assert_eq!(
        sets, 6,
        "t_types is in p4k, p8k, p16k, p32k, p64k, p16k-crc32"
    );
}

/// Without `ibdata1`, the `.ibd` and its `.frm` alone give the same rows
/// (index ids and roots from the file's pages), and a secondary index.
#[test]
fn the_frm_alone_gives_the_rows_without_the_dictionary() {
    let sets = mariadb_sets();
    let (set, truth) = sets.iter().find(|(s, _)| s == "p16k").unwrap();
    let files = support::fixtures_dir().join(set).join("files/test");
    let tmp = tempfile::tempdir().unwrap();
    for f in [
        "t_types.ibd.gz",
        "t_types.frm.gz",
        "t_sec_before.ibd.gz",
        "t_sec_before.frm.gz",
    ] {
        std::fs::copy(files.join(f), tmp.path().join(f)).unwrap();
    }
    let ibd = tmp.path().join("t_types.ibd.gz");
    let (rows, err, code) = records(&["records".as_ref(), ibd.as_os_str()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("the columns come from"), "{err}");
    let server = truth["rows"]["test/t_types"].as_array().unwrap();
    let (equal, compared, problems) = compare_t_types(&rows, server);
    assert!(problems.is_empty(), "{problems:#?}");
    eprintln!("p16k t_types from the .frm alone: {equal} of {compared} values equal");
    let count = |t: &str| {
        support::entry(truth, "tables", |x| x["name"] == t)["count"]
            .as_u64()
            .unwrap() as usize
    };
    let sec = tmp.path().join("t_sec_before.ibd.gz");
    let (rows, err, code) = records(&[
        "records".as_ref(),
        sec.as_os_str(),
        "--index".as_ref(),
        "k_a".as_ref(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(rows.len(), count("test/t_sec_before"), "{err}");
    assert!(rows.iter().all(|r| r["a"].is_i64() && r["id"].is_i64()));
}

/// Every table's `.frm` of every MariaDB set, as a table definition, says
/// what the server's `SHOW CREATE TABLE` said: each column's type,
/// nullability and default, the keys, the table options.
#[test]
fn frm_definitions_match_show_create_table() {
    let (mut tables, mut columns) = (0, 0);
    for (set, truth) in mariadb_sets() {
        for t in truth["tables"].as_array().unwrap() {
            let name = t["name"].as_str().unwrap();
            let frm_path = support::fixtures_dir()
                .join(&set)
                .join("files")
                .join(format!("{name}.frm.gz"));
            let frm = innodb_space::frm_file::read(&frm_path).unwrap();
            let (db, table) = name.split_once('/').unwrap();
            let def = definition(&frm, Some(db), table);
            let show = t["create_table"].as_str().unwrap();
            let lines: Vec<&str> = show.lines().collect();
            for c in &def.columns {
                let head = format!("  `{}` {}", c.name, c.sql_type);
                let line = lines
                    .iter()
                    .find(|l| l.starts_with(&format!("  `{}` ", c.name)))
                    .unwrap_or_else(|| panic!("{set}/{name}: no line for {}", c.name));
                assert!(
                    line.starts_with(&head) && line[head.len()..].starts_with([' ', ',']),
                    "{set}/{name}: {line:?} is not {head:?}"
                );
                assert_eq!(
                    line.contains(" NOT NULL"),
                    !c.nullable,
                    "{set}/{name}: {line}"
                );
                if let Some(d) = &c.default {
                    assert!(
                        line.contains(&format!("DEFAULT {d}")),
                        "{set}/{name}: {line} / {d}"
                    );
                }
                if let (Some(cs), Some(coll)) = (&c.charset, &c.collation) {
                    if line.contains("CHARACTER SET") {
                        assert!(
                            line.contains(&format!("CHARACTER SET {cs} COLLATE {coll}")),
                            "{set}/{name}: {line}"
                        );
                    }
                }
                columns += 1;
            }
            assert_eq!(
                def.columns.len(),
                t["columns"].as_array().unwrap().len(),
                "{set}/{name}"
            );
            for k in &def.keys {
                let cols: Vec<String> = k.parts.iter().map(|p| format!("`{}`", p.column)).collect();
                let want = match k.kind {
                    KeyKind::Primary => format!("PRIMARY KEY ({})", cols.join(",")),
                    KeyKind::Unique => format!("UNIQUE KEY `{}` ({})", k.name, cols.join(",")),
                    _ => format!("KEY `{}` ({})", k.name, cols.join(",")),
                };
                assert!(show.contains(&want), "{set}/{name}: {want} not in {show}");
            }
            let last = lines.last().unwrap();
            for o in &def.options {
                assert!(last.contains(o.as_str()), "{set}/{name}: {o} not in {last}");
            }
            tables += 1;
        }
    }
    eprintln!("{tables} .frm files, {columns} columns as SHOW CREATE TABLE printed them");
    assert_eq!(tables, 81);
}

/// A crafted mismatch: a real `.frm` of another table (p16k's t_blob)
/// beside t_random's `.ibd`. With the dictionary: a warning naming the
/// `.frm` and the dictionary's table, and the dictionary's rows. Alone:
/// the schema does not fit, said so.
#[test]
fn a_frm_of_another_table_warns() {
    let files = support::fixtures_dir().join("p16k/files");
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("test")).unwrap();
    std::fs::copy(files.join("ibdata1.gz"), tmp.path().join("ibdata1.gz")).unwrap();
    let ibd = tmp.path().join("test/t_random.ibd.gz");
    std::fs::copy(files.join("test/t_random.ibd.gz"), &ibd).unwrap();
    // Crafted: another table's real .frm under this table's name.
    std::fs::copy(
        files.join("test/t_blob.frm.gz"),
        tmp.path().join("test/t_random.frm.gz"),
    )
    .unwrap();
    let (rows, err, code) = records(&[
        "--datadir".as_ref(),
        tmp.path().as_os_str(),
        "records".as_ref(),
        ibd.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("t_random.frm.gz does not match the dictionary's test/t_random")
            && err.contains("column k of the .frm is not in the dictionary"),
        "{err}"
    );
    assert_eq!(rows.len(), 10_000);
    assert!(rows.iter().all(|r| r["c"].is_string()));
    std::fs::remove_file(tmp.path().join("ibdata1.gz")).unwrap();
    let (_, err, _) = records(&["records".as_ref(), ibd.as_os_str()]);
    assert!(
        err.contains("the columns come from") && err.contains("the schema does not fit"),
        "{err}"
    );
}

/// A damaged `.frm` (crafted: a real one cut short, or its magic broken)
/// is named with the field and offset; with the dictionary the rows still
/// come, without it the command says why it cannot.
#[test]
fn a_damaged_frm_is_named() {
    let files = support::fixtures_dir().join("p16k/files");
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("test")).unwrap();
    std::fs::copy(files.join("ibdata1.gz"), tmp.path().join("ibdata1.gz")).unwrap();
    let ibd = tmp.path().join("test/t_types.ibd.gz");
    std::fs::copy(files.join("test/t_types.ibd.gz"), &ibd).unwrap();
    let real = support::gunzip_into(&files.join("test/t_types.frm.gz"), tmp.path());
    let bytes = std::fs::read(&real).unwrap();
    let frm = tmp.path().join("test/t_types.frm");
    // t_types.frm: the form at 1359, its 31 column records from 1647, the
    // names from 2174.
    for (cut, want) in [
        (2200, "field column names"),
        (1000, "field forminfo at offset 1359"),
        (1, "field frm magic"),
    ] {
        // Crafted damage of a real file.
        std::fs::write(&frm, bytes.get(..cut).unwrap()).unwrap();
        let (rows, err, code) = records(&[
            "--datadir".as_ref(),
            tmp.path().as_os_str(),
            "records".as_ref(),
            ibd.as_os_str(),
        ]);
        assert_eq!(code, Some(0), "{err}");
        assert!(
            err.contains("t_types.frm: damaged .frm") && err.contains(want),
            "cut at {cut}: {err}"
        );
        assert_eq!(rows.len(), 256);
    }
    let mut bad = bytes.clone();
    bad[0] = 0;
    std::fs::write(&frm, &bad).unwrap();
    std::fs::remove_file(tmp.path().join("ibdata1.gz")).unwrap();
    let (rows, err, code) = records(&["records".as_ref(), ibd.as_os_str()]);
    assert!(err.contains("not a .frm file"), "{err}");
    assert_eq!(code, Some(2), "{err}");
    assert!(rows.is_empty());
}

fn sakila(version: &str, file: &str) -> Option<PathBuf> {
    let dir = support::thirdparty::present()?;
    Some(
        dir.join("jeremycole__innodb_ruby/spec/data/sakila")
            .join(version)
            .join("sakila")
            .join(file),
    )
}

/// sakila's `film` of MySQL 5.0 and 5.6 (COMPACT, REDUNDANT): its `.frm`
/// read as sakila's schema declares the table, and its 1,000 rows from the
/// `.ibd` and the `.frm` alone, with labels and DECIMALs as sakila's data
/// has them.
#[test]
fn sakila_frm_of_mysql_5() {
    for version in ["5.0", "compact", "redundant"] {
        let Some(frm_path) = sakila(version, "film.frm") else {
            return;
        };
        let frm = innodb_space::frm_file::read(&frm_path).unwrap();
        let def = definition(&frm, Some("sakila"), "film");
        let types: Vec<(&str, &str, bool)> = def
            .columns
            .iter()
            .map(|c| (c.name.as_str(), c.sql_type.as_str(), c.nullable))
            .collect();
        assert_eq!(
            types,
            [
                ("film_id", "smallint(5) unsigned", false),
                ("title", "varchar(255)", false),
                ("description", "text", true),
                ("release_year", "year(4)", true),
                ("language_id", "tinyint(3) unsigned", false),
                ("original_language_id", "tinyint(3) unsigned", true),
                ("rental_duration", "tinyint(3) unsigned", false),
                ("rental_rate", "decimal(4,2)", false),
                ("length", "smallint(5) unsigned", true),
                ("replacement_cost", "decimal(5,2)", false),
                ("rating", "enum('G','PG','PG-13','R','NC-17')", true),
                (
                    "special_features",
                    "set('Trailers','Commentaries','Deleted Scenes','Behind the Scenes')",
                    true
                ),
                ("last_update", "timestamp", false),
            ],
            "{version}"
        );
        let defaults: Vec<Option<&str>> =
            def.columns.iter().map(|c| c.default.as_deref()).collect();
        assert_eq!(
            defaults,
            [
                None,
                None,
                None,
                Some("NULL"),
                None,
                Some("NULL"),
                Some("'3'"),
                Some("'4.99'"),
                Some("NULL"),
                Some("'19.99'"),
                Some("'G'"),
                Some("NULL"),
                Some("CURRENT_TIMESTAMP"),
            ],
            "{version}"
        );
        assert!(def.columns[0].auto_increment);
        let keys: Vec<(&str, Vec<&str>)> = def
            .keys
            .iter()
            .map(|k| {
                (
                    k.name.as_str(),
                    k.parts.iter().map(|p| p.column.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(
            keys,
            [
                ("PRIMARY", vec!["film_id"]),
                ("idx_title", vec!["title"]),
                ("idx_fk_language_id", vec!["language_id"]),
                ("idx_fk_original_language_id", vec!["original_language_id"]),
            ],
            "{version}"
        );
        let ibd = sakila(version, "film.ibd").unwrap();
        let (rows, err, code) = records(&["records".as_ref(), ibd.as_os_str()]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(rows.len(), 1000, "{version}: {err}");
        let first = &rows[0];
        assert_eq!(first["title"], "ACADEMY DINOSAUR");
        assert_eq!(first["rental_rate"], "0.99");
        assert_eq!(first["replacement_cost"], "20.99");
        assert_eq!(first["rating"], "PG");
        assert_eq!(
            first["special_features"],
            "Deleted Scenes,Behind the Scenes"
        );
        let ratings = ["G", "PG", "PG-13", "R", "NC-17"];
        assert!(rows
            .iter()
            .all(|r| ratings.contains(&r["rating"].as_str().unwrap_or("?"))));
        assert!(rows.iter().all(|r| {
            let rate = r["rental_rate"].as_str().unwrap_or("");
            ["0.99", "2.99", "4.99"].contains(&rate)
        }));
    }
}

/// sakila's staff table of MySQL 5.7 (no `.frm` there) with sakila's own
/// DDL, `password VARCHAR(40) BINARY` and `active BOOLEAN` included, and
/// of MySQL 5.6 with its `.frm`: the two staff members.
#[test]
fn sakila_staff_with_its_ddl_and_its_frm() {
    let Some(ibd57) = sakila("5.7", "staff.ibd") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let ddl = tmp.path().join("staff.sql");
    std::fs::write(
        &ddl,
        "CREATE TABLE staff (
  staff_id TINYINT UNSIGNED NOT NULL AUTO_INCREMENT,
  first_name VARCHAR(45) NOT NULL,
  last_name VARCHAR(45) NOT NULL,
  address_id SMALLINT UNSIGNED NOT NULL,
  picture BLOB DEFAULT NULL,
  email VARCHAR(50) DEFAULT NULL,
  store_id TINYINT UNSIGNED NOT NULL,
  active BOOLEAN NOT NULL DEFAULT TRUE,
  username VARCHAR(16) NOT NULL,
  password VARCHAR(40) BINARY DEFAULT NULL,
  last_update TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  PRIMARY KEY  (staff_id),
  KEY idx_fk_store_id (store_id),
  KEY idx_fk_address_id (address_id),
  CONSTRAINT fk_staff_store FOREIGN KEY (store_id) REFERENCES store (store_id) ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT fk_staff_address FOREIGN KEY (address_id) REFERENCES address (address_id) ON DELETE RESTRICT ON UPDATE CASCADE
)ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;",
    )
    .unwrap();
    let ibd56 = sakila("compact", "staff.ibd").unwrap();
    for (args, what) in [
        (records_with_ddl(&ibd57, &ddl), "5.7 --ddl"),
        (vec!["records".as_ref(), ibd56.as_os_str()], "5.6 .frm"),
    ] {
        let (rows, err, code) = records(&args);
        assert_eq!(code, Some(0), "{what}: {err}");
        assert!(!err.contains("warning"), "{what}: {err}");
        let names: Vec<(&str, &str, &str)> = rows
            .iter()
            .map(|r| {
                (
                    r["first_name"].as_str().unwrap(),
                    r["last_name"].as_str().unwrap(),
                    r["username"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            names,
            [("Mike", "Hillyer", "Mike"), ("Jon", "Stephens", "Jon")],
            "{what}"
        );
        assert_eq!(rows[0]["active"], 1, "{what}");
    }
}

fn tb20(version: &str) -> Option<PathBuf> {
    let dir = support::thirdparty::present()?;
    Some(dir.join(format!(
        "alibaba__innodb-java-reader/innodb-java-reader/src/test/resources/testsuite/{version}/column/char/tb20.ibd"
    )))
}

/// tb20 of innodb-java-reader: columns in utf8, gbk and ujis; the values of
/// its owner's test (ColumnCharSpecifyColumnCharsetTableReaderTest), from
/// MySQL 8.0's SDI and, for 5.6 and 5.7, the table's DDL (its column-level
/// CHARACTER SET and COLLATE).
#[test]
fn gbk_and_ujis_columns_decode_as_their_character_sets() {
    let Some(t80) = tb20("mysql80") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let ddl = tmp.path().join("tb20.sql");
    std::fs::write(
        &ddl,
        "CREATE TABLE `tb20` (
  `id` int(11) NOT NULL,
  `a` varchar(64) CHARACTER SET utf8 COLLATE utf8_bin NOT NULL,
  `b` varchar(1024) CHARACTER SET utf8 NOT NULL,
  `c` varchar(256) CHARACTER SET gbk COLLATE gbk_bin DEFAULT '',
  `d` varchar(1024) CHARACTER SET gbk COLLATE gbk_bin DEFAULT '',
  `e` varchar(512) CHARACTER SET ujis NOT NULL,
  `f` varchar(1024) CHARACTER SET ujis DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1;",
    )
    .unwrap();
    let t56 = tb20("mysql56").unwrap();
    let t57 = tb20("mysql57").unwrap();
    for (args, what) in [
        (vec!["records".as_ref(), t80.as_os_str()], "8.0 SDI"),
        (records_with_ddl(&t57, &ddl), "5.7 --ddl"),
        (records_with_ddl(&t56, &ddl), "5.6 --ddl"),
    ] {
        let (rows, err, code) = records(&args);
        assert_eq!(code, Some(0), "{what}: {err}");
        assert_eq!(rows.len(), 2, "{what}: {err}");
        let (r1, r2) = (&rows[0], &rows[1]);
        assert_eq!(r1["id"], 100);
        let c = r1["c"].as_str().unwrap_or_default();
        assert!(
            c.starts_with("2006年，杂志《时代》评选的时代年度风云人物“你”中，\t提到了")
                && c.ends_with("促进维基百科成长。"),
            "{what}: c {c}"
        );
        let e = r1["e"].as_str().unwrap_or_default();
        assert!(
            e.starts_with("ルートヴィヒ・ヨーゼフ・ヨーハン・ウィトゲンシュタイン")
                && e.ends_with("という命題は、一般にも有名な言葉の一つである。"),
            "{what}: e {e}"
        );
        assert_eq!(r2["a"], format!("a{}", "阿".repeat(63)), "{what}");
        assert_eq!(r2["c"], format!("c{}", "巴".repeat(255)), "{what}");
        assert_eq!(r2["e"], format!("e{}", "ン".repeat(511)), "{what}");
        assert_eq!(r2["d"], format!("d{}", "数".repeat(1023)), "{what}");
        assert_eq!(r2["f"], format!("f{}", "ト".repeat(1023)), "{what}");
        // Nothing replaced.
        for r in &rows {
            assert!(!r.to_string().contains('\u{FFFD}'), "{what}");
        }
    }
}

/// Bytes that are not characters of the column's set are kept as hex,
/// never replaced: tb20's gbk column read as if it were utf8mb4 (a
/// deliberately wrong DDL) gives hex, not U+FFFD.
#[test]
fn bytes_that_do_not_decode_are_kept_as_hex() {
    let Some(t57) = tb20("mysql57") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let ddl = tmp.path().join("wrong.sql");
    std::fs::write(
        &ddl,
        "CREATE TABLE tb20 (id INT NOT NULL, a VARCHAR(64) CHARACTER SET utf8, \
         b VARCHAR(1024) CHARACTER SET utf8, c VARCHAR(256) CHARACTER SET utf8mb4, \
         d VARCHAR(1024) CHARACTER SET utf8mb4, e VARCHAR(512) CHARACTER SET utf8mb4, \
         f VARCHAR(1024) CHARACTER SET utf8mb4, PRIMARY KEY (id)) DEFAULT CHARSET=latin1",
    )
    .unwrap();
    let (rows, err, _) = records(&records_with_ddl(&t57, &ddl));
    assert_eq!(rows.len(), 2, "{err}");
    // 巴 in GBK is B0 CD.
    let hex = rows[1]["c"]["hex"].as_str().unwrap_or_default();
    assert!(hex.starts_with("63B0CDB0CD"), "{}", rows[1]["c"]);
    assert!(!rows[1].to_string().contains('\u{FFFD}'));
}

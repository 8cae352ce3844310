//! MySQL 8.0+'s data dictionary on the MySQL 9.7 sets: every index of
//! every table named as the server names it (`INNODB_INDEXES` joined with
//! `INNODB_TABLES`, and for the partitions `mysql.innodb_index_stats` with
//! the ids `ibd2sdi` printed), from `mysql.ibd`, from each file's SDI when
//! `mysql.ibd` is missing or damaged; and the rows of both tables of the
//! general tablespace and of each partition equal to the server's.

// In tests a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::mysql::{sets, MysqlCopy};
use crate::support::{self, run, run_json};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;

/// `PAGE_INDEX_ID` of the SDI index, which reports call `SDI`.
const SDI_INDEX_ID: u64 = u64::MAX;

/// Tables whose files are page-compressed (`COMPRESSION=`): their index
/// pages are another helper's work (`pages`), so they are left out here.
fn page_compressed(copy: &MysqlCopy, table: &str) -> bool {
    copy.tables().iter().any(|t| {
        t["name"] == table
            && t["create_options"]
                .as_str()
                .is_some_and(|o| o.to_ascii_lowercase().contains("compression"))
    })
}

/// An `ibd2sdi` output of `sdi/`: its dictionary objects.
fn ibd2sdi(path: &Path) -> Vec<Value> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(&std::fs::read(path).unwrap()[..])
        .read_to_string(&mut text)
        .unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .skip(1)
        .map(|o| o["object"]["dd_object"].clone())
        .collect()
}

/// A `key=value;…` value.
fn private(data: &str, key: &str) -> Option<u64> {
    data.split(';')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))?
        .parse()
        .ok()
}

/// The server's name (`db/table.index`) of every index of the copy with
/// a B-tree, by (space id, index id): `truth.indexes` (`INNODB_INDEXES`
/// with its table's name), and for each leaf partition the index ids
/// `ibd2sdi` printed under the partition `truth.tables[].innodb_tables`
/// names, each (partition, index name) also in `innodb_index_stats`.
fn server_names(copy: &MysqlCopy) -> BTreeMap<(u64, u64), String> {
    let mut out = BTreeMap::new();
    for i in copy.truth["indexes"].as_array().unwrap() {
        let table = i["table"].as_str().unwrap();
        if i["root_page"].as_i64() == Some(-1) || page_compressed(copy, table) {
            continue;
        }
        out.insert(
            (
                i["space_id"].as_u64().unwrap(),
                i["index_id"].as_u64().unwrap(),
            ),
            format!("{table}.{}", i["name"].as_str().unwrap()),
        );
    }
    let stats: BTreeSet<String> = copy.truth["index_stats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{}/{}.{}",
                s["database_name"].as_str().unwrap(),
                s["table_name"].as_str().unwrap(),
                s["index_name"].as_str().unwrap()
            )
        })
        .collect();
    let mut partitions = 0;
    for t in copy.tables() {
        let Some(parts) = t["partitions"].as_array() else {
            continue;
        };
        let leaf_name = |space: u64| {
            t["innodb_tables"]
                .as_array()
                .unwrap()
                .iter()
                .find(|l| l["space_id"].as_u64() == Some(space))
                .map(|l| l["name"].as_str().unwrap().to_string())
        };
        let first = parts[0]["file"].as_str().unwrap();
        let sdi = copy.root.join("sdi").join(format!("{first}.json.gz"));
        for o in ibd2sdi(&sdi) {
            let Some(indexes) = o["indexes"].as_array() else {
                continue;
            };
            let mut leaves: Vec<&Value> = Vec::new();
            for p in o["partitions"].as_array().unwrap() {
                match p["subpartitions"].as_array() {
                    Some(s) if !s.is_empty() => leaves.extend(s),
                    _ => leaves.push(p),
                }
            }
            for leaf in leaves {
                for pi in leaf["indexes"].as_array().unwrap() {
                    let data = pi["se_private_data"].as_str().unwrap();
                    let space = private(data, "space_id").unwrap();
                    let index = &indexes[pi["index_opx"].as_u64().unwrap() as usize];
                    let name = format!(
                        "{}.{}",
                        leaf_name(space).unwrap(),
                        index["name"].as_str().unwrap()
                    );
                    assert!(
                        stats.contains(&name),
                        "{}: {name} not in innodb_index_stats",
                        copy.name
                    );
                    out.insert((space, private(data, "id").unwrap()), name);
                    partitions += 1;
                }
            }
        }
    }
    assert!(
        partitions >= 12,
        "{}: {partitions} partition indexes",
        copy.name
    );
    out
}

/// Every (space id, index id) → name a data-directory report's JSON gives
/// (`files[].report.indexes[]`), and the SDI indexes' names apart.
/// A report's index names by (space id, index id).
type Names = BTreeMap<(u64, u64), Option<String>>;

fn named_in(report: &Value) -> (Names, Vec<Option<String>>) {
    let mut names = BTreeMap::new();
    let mut sdi = Vec::new();
    for f in report["files"].as_array().unwrap() {
        let r = &f["report"];
        let Some(space) = r["space_id"].as_u64() else {
            continue;
        };
        for i in r["indexes"].as_array().into_iter().flatten() {
            let id = crate::support::json_u64(&i["index_id"]).unwrap();
            let name = i["name"].as_str().map(str::to_string);
            if id == SDI_INDEX_ID {
                sdi.push(name);
            } else {
                names.insert((space, id), name);
            }
        }
    }
    (names, sdi)
}

/// The names `command` over the data directory `dir` gives are the
/// server's; returns how many were checked.
fn check_names(copy: &MysqlCopy, dir: &Path, command: &str, problems: &mut Vec<String>) -> usize {
    let want = server_names(copy);
    let (report, out) = run_json(["--datadir".as_ref(), dir.as_os_str(), command.as_ref()]);
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}: {command}: {}",
        copy.name,
        String::from_utf8_lossy(&out.stderr)
    );
    let (ours, sdi) = named_in(&report);
    for (key, name) in &want {
        match ours.get(key) {
            Some(Some(n)) if n == name => {}
            other => problems.push(format!(
                "{} {command}: space {} index {}: {other:?}, the server says {name}",
                copy.name, key.0, key.1
            )),
        }
    }
    if sdi.is_empty() || sdi.iter().any(|n| n.as_deref() != Some("SDI")) {
        problems.push(format!(
            "{} {command}: SDI indexes named {sdi:?}",
            copy.name
        ));
    }
    want.len()
}

/// With `mysql.ibd`, every index of every table (with a B-tree), in every
/// report that lists indexes, has the server's name; the SDI index is
/// `SDI`.
#[test]
fn every_index_is_named_as_the_server_names_it() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for set in sets() {
        let copy = &set.crash;
        checked += check_names(copy, &copy.files, "indexes", &mut problems);
        if copy.name == "mysql-p16k" {
            for command in ["segments", "waste", "count"] {
                check_names(copy, &copy.files, command, &mut problems);
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // 41 INNODB_INDEXES rows less FULLTEXT and the page-compressed tables,
    // and 12 partition indexes, per set.
    assert!(checked >= sets().len() * 45, "{checked} names checked");
}

/// A change made to a file's bytes.
type Damage<'a> = dyn Fn(&mut Vec<u8>) + 'a;

/// A copy of the data directory without `mysql.ibd` (or with `mysql.ibd`
/// changed by `damage`), the other files linked in place.
fn copy_without_dictionary(copy: &MysqlCopy, damage: Option<&Damage<'_>>) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for rel in copy.file_facts().keys() {
        let src = copy.file(rel);
        let dst = tmp.path().join(format!("{rel}.gz"));
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        if rel == "mysql.ibd" {
            let Some(damage) = damage else { continue };
            let mut bytes = Vec::new();
            flate2::read::GzDecoder::new(&std::fs::read(&src).unwrap()[..])
                .read_to_end(&mut bytes)
                .unwrap();
            damage(&mut bytes);
            std::fs::write(tmp.path().join(rel), bytes).unwrap();
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
    tmp
}

/// Without `mysql.ibd` the names come from each file's SDI, the same as
/// the server's, and a note says so.
#[test]
fn without_mysql_ibd_the_sdi_names_every_index() {
    let mut problems = Vec::new();
    for set in sets() {
        let copy = &set.crash;
        let dir = copy_without_dictionary(copy, None);
        check_names(copy, dir.path(), "indexes", &mut problems);
        let out = run([
            "--datadir".as_ref(),
            dir.path().as_os_str(),
            "indexes".as_ref(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("note: no mysql.ibd in") && err.contains("from each file's SDI"),
            "{}: {err}",
            copy.name
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `mysql.ibd` damaged: every page of its SDI index (the definitions of
/// the dictionary tables) overwritten with 0xA5 (crafted damage of the
/// real file of mysql-p16k). The dictionary cannot be read from it, a note
/// says so, and the names come from each file's SDI, the same as the
/// server's.
#[test]
fn with_mysql_ibd_damaged_the_sdi_names_every_index() {
    let set = sets().into_iter().next().unwrap();
    let copy = &set.crash;
    let page = copy.page_size() as usize;
    // The SDI index's root is page 3 of a MySQL 8.0+ tablespace (the page
    // after the INODE page; `indexes mysql.ibd` gives root 3 for SDI).
    let damage = move |b: &mut Vec<u8>| b[3 * page..4 * page].fill(0xA5);
    let dir = copy_without_dictionary(copy, Some(&damage));
    let mut problems = Vec::new();
    check_names(copy, dir.path(), "indexes", &mut problems);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let out = run([
        "--datadir".as_ref(),
        dir.path().as_os_str(),
        "indexes".as_ref(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("note: mysql.ibd: not read as MySQL's dictionary")
            && err.contains("from each file's SDI"),
        "{err}"
    );
}

/// A value of `records --format json` as `mysql -B -N -r` prints it.
fn client_text(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The rows of `records --format json ARGS` in the columns `columns`,
/// each as the client prints it, sorted by their first column (the id).
fn records(args: &[&std::ffi::OsStr], columns: &[Value]) -> Vec<Vec<String>> {
    let mut all = vec!["--format".as_ref(), "json".as_ref(), "records".as_ref()];
    all.extend_from_slice(args);
    records_raw(&all, columns)
}

/// `records` of both tables of the general tablespace (by `--table`, and
/// by `--index table.PRIMARY`), and of each partition file alone (its
/// table's definition from the first partition's SDI) and with
/// `--datadir` (from `mysql.ibd`): the server's rows, in both copies of
/// every set.
#[test]
fn general_tablespace_and_partition_rows_are_the_servers() {
    let mut compared = 0;
    for set in sets() {
        for copy in [&set.crash, &set.purged] {
            let gts = copy.file("gts.ibd");
            for table in ["test/t_gts_a", "test/t_gts_b"] {
                let t = copy.table(table);
                let want = copy.rows(t["rows"]["file"].as_str().unwrap());
                let columns = t["rows"]["columns"].as_array().unwrap();
                let short = table.trim_start_matches("test/");
                let by_index = format!("{short}.PRIMARY");
                for args in [
                    vec![gts.as_os_str(), "--table".as_ref(), table.as_ref()],
                    vec![gts.as_os_str(), "--index".as_ref(), by_index.as_ref()],
                    vec![
                        "--datadir".as_ref(),
                        copy.files.as_os_str(),
                        gts.as_os_str(),
                        "--table".as_ref(),
                        short.as_ref(),
                    ],
                ] {
                    // `--datadir` is a global option: before the command.
                    let args: Vec<&std::ffi::OsStr> = args;
                    let got = if args[0] == "--datadir" {
                        let mut all = vec![args[0], args[1], "--format".as_ref(), "json".as_ref()];
                        all.push("records".as_ref());
                        all.extend_from_slice(&args[2..]);
                        records_raw(&all, columns)
                    } else {
                        records(&args, columns)
                    };
                    assert_eq!(got.len(), want.len(), "{} {table} {args:?}", copy.name);
                    assert_eq!(got, want, "{} {table} {args:?}", copy.name);
                    compared += got.len();
                }
            }
            let t = copy.table("test/t_part");
            let columns = t["rows"]["columns"].as_array().unwrap();
            let want = copy.rows(t["rows"]["file"].as_str().unwrap());
            for with_datadir in [false, true] {
                let mut all_rows = Vec::new();
                for p in t["partitions"].as_array().unwrap() {
                    let file = copy.file(p["file"].as_str().unwrap());
                    let got = if with_datadir {
                        records_raw(
                            &[
                                "--datadir".as_ref(),
                                copy.files.as_os_str(),
                                "--format".as_ref(),
                                "json".as_ref(),
                                "records".as_ref(),
                                file.as_os_str(),
                            ],
                            columns,
                        )
                    } else {
                        records(&[file.as_os_str()], columns)
                    };
                    assert_eq!(
                        got.len() as u64,
                        p["checks"]["count"].as_u64().unwrap(),
                        "{} {}",
                        copy.name,
                        p["innodb_table"]
                    );
                    all_rows.extend(got);
                }
                all_rows.sort_by_key(|r| r[0].parse::<i64>().unwrap());
                assert_eq!(
                    all_rows, want,
                    "{} t_part (--datadir: {with_datadir})",
                    copy.name
                );
                compared += all_rows.len();
            }
        }
    }
    // Per copy: 3 × 1000 + 3 × 1000 + 2 × 1500.
    assert_eq!(compared, 2 * sets().len() * 9000);
}

/// The rows `innodb-inspect ALL` prints as JSON lines, in the columns
/// `columns`, each as the client prints it, sorted by the id.
fn records_raw(all: &[&std::ffi::OsStr], columns: &[Value]) -> Vec<Vec<String>> {
    let out = run(all);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut rows: Vec<Vec<String>> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            columns
                .iter()
                .map(|c| client_text(&v["row"][c.as_str().unwrap()]))
                .collect()
        })
        .collect();
    rows.sort_by_key(|r| r[0].parse::<i64>().unwrap_or(i64::MAX));
    rows
}

/// The dictionary's own tables in `mysql.ibd` read with `records --table`:
/// `mysql.tablespaces` holds every tablespace `INNODB_TABLESPACES` lists
/// (by name, with its space id in `se_private_data`), and `mysql.tables`
/// every table of `test` the server reported.
#[test]
fn the_dictionary_tables_of_mysql_ibd_are_readable() {
    for set in sets() {
        let copy = &set.crash;
        let mysql = copy.file("mysql.ibd");
        let out = run([
            "--format".as_ref(),
            "json".as_ref(),
            "records".as_ref(),
            mysql.as_os_str(),
            "--table".as_ref(),
            "mysql/tablespaces".as_ref(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ours: BTreeMap<String, u64> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                let name = v["row"]["name"].as_str().unwrap().to_string();
                let id = private(v["row"]["se_private_data"].as_str().unwrap(), "id").unwrap();
                (name, id)
            })
            .collect();
        for ts in copy.truth["innodb_tablespaces"].as_array().unwrap() {
            let name = ts["name"].as_str().unwrap();
            assert_eq!(
                ours.get(name),
                ts["space"].as_u64().as_ref(),
                "{}: tablespace {name}",
                copy.name
            );
        }
        let out = run([
            "--format".as_ref(),
            "json".as_ref(),
            "records".as_ref(),
            mysql.as_os_str(),
            "--table".as_ref(),
            "mysql.tables".as_ref(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let names: BTreeSet<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                v["row"]["name"].as_str().unwrap().to_string()
            })
            .collect();
        for t in copy.tables() {
            let short = t["name"].as_str().unwrap().trim_start_matches("test/");
            assert!(
                names.contains(short),
                "{}: mysql.tables has no {short}",
                copy.name
            );
        }
    }
}

/// A data directory of two servers: every file of a MySQL set (with its
/// `mysql.ibd`) and a MariaDB table file copied in (`t_random` of the
/// bundled p16k set, as `test/t_maria.ibd.gz`). The server line names
/// the MariaDB file and leaves the family undecided; every MySQL index is
/// still named as the server names it, and the MariaDB file is still read
/// (its index walk counts the server's `COUNT(*)`).
#[test]
fn a_directory_of_two_servers_names_the_foreign_file_and_reads_all() {
    let set = sets().into_iter().next().unwrap();
    let copy = &set.crash;
    let tmp = tempfile::tempdir().unwrap();
    for rel in copy.file_facts().keys() {
        let dst = tmp.path().join(format!("{rel}.gz"));
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(copy.file(rel), dst).unwrap();
    }
    let maria = crate::support::fixtures_dir().join("p16k");
    let truth: Value =
        serde_json::from_slice(&std::fs::read(maria.join("truth.json")).unwrap()).unwrap();
    let count = support::entry(&truth, "tables", |t| t["name"] == "test/t_random")["count"]
        .as_u64()
        .unwrap();
    std::os::unix::fs::symlink(
        maria.join("files/test/t_random.ibd.gz"),
        tmp.path().join("test/t_maria.ibd.gz"),
    )
    .unwrap();

    let mut problems = Vec::new();
    check_names(copy, tmp.path(), "indexes", &mut problems);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let (report, _) = run_json([
        "--datadir".as_ref(),
        tmp.path().as_os_str(),
        "indexes".as_ref(),
    ]);
    assert_eq!(
        report["server"]["family"], "unknown",
        "{}",
        report["server"]
    );
    let evidence: Vec<&str> = report["server"]["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert!(
        evidence.iter().any(|e| e.starts_with(
            "test/t_maria.ibd.gz: page 0's flags are MariaDB's, in a directory of MySQL's"
        )),
        "{evidence:?}"
    );
    let maria_file = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"].as_str().unwrap().ends_with("t_maria.ibd.gz"))
        .unwrap();
    let records: Vec<u64> = maria_file["report"]["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["records"].as_u64().unwrap())
        .collect();
    assert_eq!(records, vec![count], "{maria_file}");
    // The text report says it in its server line.
    let out = run([
        "--datadir".as_ref(),
        tmp.path().as_os_str(),
        "summary".as_ref(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .nth(1)
            .is_some_and(|l| l.contains("t_maria.ibd.gz: page 0's flags are MariaDB's")),
        "{text}"
    );
}

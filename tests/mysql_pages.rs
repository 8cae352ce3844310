//! Pages and formats of MySQL 8.0+ on the real MySQL 9.7 fixture sets
//! (`fixtures/mysql-p*`, see fixtures/README.md, "MySQL sets"), against the
//! server's own numbers: transparent page compression (`COMPRESSION='zlib'`
//! and `'lz4'`, with the holes the server punched), the rows of an INSTANT
//! ADD/DROP table in ROW_FORMAT=REDUNDANT, the SDI and rows of
//! ROW_FORMAT=COMPRESSED tables at every KEY_BLOCK_SIZE, the R-tree of a
//! SPATIAL index, and every file read with no bad page (the doublewrite
//! files aside). docs/mysql.md, "Page compression and formats", says what
//! is read and how each number relates to the server's.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;
use crate::support::mysql::{sets, MysqlCopy};
use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::rows::records::RecordsReport;
use innodb_analysis::rows::schema::Schema;
use innodb_format::value::column_value::Value as Cell;
use innodb_space::{OpenOptions, Tablespace};
use serde_json::Value;
use std::path::Path;

fn open(path: &Path) -> Tablespace {
    Tablespace::open(path, OpenOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every copy of every MySQL set: the crash copies, then the purged ones.
fn copies() -> Vec<MysqlCopy> {
    let (crash, purged): (Vec<_>, Vec<_>) = sets().into_iter().map(|s| (s.crash, s.purged)).unzip();
    crash.into_iter().chain(purged).collect()
}

/// A value as `mysql -B -N -r` prints it (geometry selected as `HEX(g)`).
fn client_text(v: &Cell) -> String {
    match v {
        Cell::Null => "NULL".into(),
        Cell::Int(i) => i.to_string(),
        Cell::UInt(u) => u.to_string(),
        Cell::Float(f) => f.to_string(),
        Cell::Text(t) => t.clone(),
        Cell::Hex { hex } => hex.to_uppercase(),
        Cell::Undecoded { undecoded } => format!("<undecoded: {undecoded}>"),
    }
}

/// The rows of index `index` (the clustered one when `None`) of a file,
/// typed with its own SDI.
fn sdi_records(space: &Tablespace, index: Option<&str>) -> RecordsReport {
    let sdi = SdiReport::build(space).unwrap_or_else(|e| panic!("{e:?}"));
    let schema = Schema::from_sdi(&sdi).expect("a table in the SDI");
    RecordsReport::build(space, &schema, index, false, None).unwrap_or_else(|e| panic!("{e:?}"))
}

/// Compares a clustered index's rows with a rows file of the server (lines
/// in `ORDER BY id`, columns as `truth.tables[].rows.columns` names them):
/// the mismatches, at most 5, each naming the row.
fn rows_against(r: &RecordsReport, want: &[Vec<String>], columns: &[&str]) -> Vec<String> {
    let at: Vec<usize> = columns
        .iter()
        .map(|c| {
            r.fields
                .iter()
                .position(|f| f.name == *c)
                .unwrap_or_else(|| panic!("no column {c} in {:?}", r.fields))
        })
        .collect();
    let mut bad = Vec::new();
    if r.rows.len() != want.len() {
        bad.push(format!("{} rows, the server {}", r.rows.len(), want.len()));
    }
    for (row, line) in r.rows.iter().zip(want) {
        let got: Vec<String> = at.iter().map(|&i| client_text(&row.values[i])).collect();
        if &got != line {
            bad.push(format!("row {got:?}, the server's {line:?}"));
        }
    }
    bad.truncate(5);
    bad
}

/// The column names of `truth.tables[].rows.columns`.
fn row_columns(table: &Value) -> Vec<&str> {
    table["rows"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect()
}

/// The row of index `id` in an `indexes` report.
fn index_row(report: &Value, id: u64) -> &Value {
    report["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["index_id"] == id)
        .unwrap_or_else(|| panic!("no index {id} in {report}"))
}

/// `mysql.innodb_index_stats` of `table.index`: the value of `stat`.
fn index_stat(copy: &MysqlCopy, table: &str, index: &str, stat: &str) -> u64 {
    copy.truth["index_stats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["table_name"] == table && s["index_name"] == index && s["stat_name"] == stat)
        .and_then(|s| s["stat_value"].as_u64())
        .unwrap_or_else(|| panic!("{}: no {stat} of {table}.{index}", copy.name))
}

// ---------------------------------------------------------------------------
// Transparent page compression
// ---------------------------------------------------------------------------

const COMPRESSED_TABLES: [&str; 2] = ["t_zlib", "t_lz4"];

/// `summary` of t_zlib.ibd and t_lz4.ibd: every page verifies (0 bad, 0
/// findings), the page types are innochecksum's (which inflates the pages
/// too), the pages compressed with the table's algorithm are those the
/// server punched a hole in, and the bytes each compressed page keeps, rounded
/// up to the file system block, are exactly what the server's file had
/// allocated on that page (`files[...].data_extents`, read with
/// SEEK_DATA/SEEK_HOLE): the hole after each page is where we say the
/// compressed data ends.
#[test]
fn compressed_pages_inflate_verify_and_end_where_the_servers_holes_begin() {
    let mut pages_checked = 0;
    for copy in copies() {
        let ps = copy.page_size();
        for t in COMPRESSED_TABLES {
            let rel = format!("test/{t}.ibd");
            let facts = &copy.file_facts()[&rel];
            let file = copy.file(&rel);
            let what = format!("{}: {rel}", copy.name);
            let (s, out) = support::run_json(["summary".as_ref(), file.as_os_str()]);
            assert!(out.status.success(), "{what}: {s}");
            assert_eq!(s["bad_checksums"], 0, "{what}");
            assert_eq!(s["findings"], serde_json::json!([]), "{what}");
            let want: serde_json::Map<String, Value> = facts["innochecksum"]["page_types"]
                .as_object()
                .unwrap()
                .iter()
                .filter(|(_, n)| n.as_u64() != Some(0))
                .map(|(k, n)| (k.clone(), n.clone()))
                .collect();
            assert_eq!(s["page_types"], Value::Object(want), "{what}");
            let n = s["page_count"].as_u64().unwrap();
            assert_eq!(
                s["allocated_bytes"],
                Value::Null,
                "{what}: a .gz keeps no holes"
            );

            // The server's data extents, as bytes of each page.
            let extents: Vec<(u64, u64)> = facts["data_extents"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| (e[0].as_u64().unwrap(), e[1].as_u64().unwrap()))
                .collect();
            let block = extents.iter().map(|e| e.1).min().unwrap();
            assert!(
                block.is_power_of_two() && block < ps,
                "{what}: block {block}"
            );
            let mut on_page = vec![0u64; n as usize];
            for (o, l) in &extents {
                for p in o / ps..(o + l).div_ceil(ps) {
                    let (a, b) = ((*o).max(p * ps), (o + l).min((p + 1) * ps));
                    on_page[p as usize] += b - a;
                }
            }
            // The pages the server punched a hole in: those it compressed
            // (a page that would not save a block is written whole).
            let holed = on_page.iter().filter(|&&b| b < ps).count() as u64;
            assert!(holed > n / 2, "{what}: {holed} of {n} pages have a hole");
            assert_eq!(s["page_compressed_pages"], holed, "{what}");
            let algo = t.trim_start_matches("t_");
            assert_eq!(
                s["page_compression"]["by_algorithm"],
                serde_json::json!({ algo: holed }),
                "{what}"
            );
            assert_eq!(s["page_compression"]["layout"], "mysql", "{what}");
            let (list, _) = support::run_json(["pages".as_ref(), file.as_os_str()]);
            let mut compared_here = 0;
            for p in list["pages"].as_array().unwrap() {
                let no = p["page"].as_u64().unwrap();
                let stored = match p["compressed_bytes"].as_u64() {
                    Some(c) => (38 + c).div_ceil(block) * block,
                    None => ps,
                };
                if no + 1 == n {
                    // The last page: all zero, written by the server when it
                    // extended the file (not a hole).
                    assert_eq!(p["checksum"], "all_zero", "{what}");
                    continue;
                }
                assert_eq!(stored, on_page[no as usize], "{what}: page {no}: {p}");
                compared_here += 1;
            }
            // Every page but the last, of a file of more than a few pages.
            assert!(n > 4, "{what}: {n} pages");
            assert_eq!(compared_here, n - 1, "{what}: pages compared");
            pages_checked += compared_here;
        }
    }
    let tables = (copies().len() * COMPRESSED_TABLES.len()) as u64;
    assert!(
        pages_checked >= tables * 4,
        "{pages_checked} pages compared"
    );
}

/// The rows of t_zlib and t_lz4, typed with their own SDI (whose page is
/// compressed too), are the server's: every line of `rows/*.tsv.gz`; the
/// PRIMARY walk has the server's leaf pages, size and `COUNT(*)`
/// (`innodb_index_stats`), and every index page the level and record count
/// innochecksum's page dump gives.
#[test]
fn compressed_tables_give_the_servers_rows_and_counts() {
    let mut rows = 0;
    for copy in copies() {
        for t in COMPRESSED_TABLES {
            let rel = format!("test/{t}.ibd");
            let what = format!("{}: {rel}", copy.name);
            let space = open(&copy.file(&rel));
            let table = copy.table(&format!("test/{t}"));
            let r = sdi_records(&space, None);
            assert!(r.findings.is_empty(), "{what}: {:?}", r.findings);
            let want = copy.rows(table["rows"]["file"].as_str().unwrap());
            let bad = rows_against(&r, &want, &row_columns(table));
            assert!(bad.is_empty(), "{what}: {bad:?}");
            rows += r.rows.len();

            let (ix, _) = support::run_json(["indexes".as_ref(), copy.file(&rel).as_os_str()]);
            let primary = index_row(&ix, r.index_id);
            assert_eq!(primary["records"], table["count"], "{what}");
            assert_eq!(
                primary["leaf_pages"],
                index_stat(&copy, t, "PRIMARY", "n_leaf_pages"),
                "{what}"
            );
            assert_eq!(
                primary["size_pages"],
                index_stat(&copy, t, "PRIMARY", "size"),
                "{what}"
            );
            assert_eq!(ix["findings"], serde_json::json!([]), "{what}");

            let (list, _) = support::run_json(["pages".as_ref(), copy.file(&rel).as_os_str()]);
            let dump = &copy.file_facts()[&rel]["innochecksum"]["page_dump"]["index_pages"];
            for d in dump.as_array().unwrap() {
                let p = &list["pages"][d[0].as_u64().unwrap() as usize];
                assert_eq!(
                    (&p["type"], &p["level"], &p["records"]),
                    (&d[5], &d[2], &d[3]),
                    "{what}: page {p}, innochecksum {d}"
                );
            }
        }
    }
    // Two tables of 2,000 rows in every copy of every set present (one
    // set when CI makes the 16k set live).
    assert!(rows >= 2 * 2000 * copies().len(), "{rows} rows");
}

/// Every command a DBA starts with works on the compressed tables, with
/// exit 0 and no finding: `summary`, `checksum`, `pages`, `page` (of a
/// compressed index page: the control bytes, the block and the hole after
/// it named), `indexes`, `records`, `sdi`, `count` (its exact count the
/// server's `COUNT(*)`), `extents`, `segments`, `waste`, `fill`.
#[test]
fn every_command_reads_the_compressed_tables() {
    for set in sets() {
        for t in COMPRESSED_TABLES {
            let file = set.crash.file(&format!("test/{t}.ibd"));
            let f = file.as_os_str();
            for args in [
                vec!["summary".as_ref(), f],
                vec!["checksum".as_ref(), f],
                vec!["pages".as_ref(), f],
                vec!["indexes".as_ref(), f],
                vec!["records".as_ref(), f],
                vec!["sdi".as_ref(), f],
                vec!["page".as_ref(), f, "5".as_ref()],
                vec!["count".as_ref(), f],
                vec!["extents".as_ref(), f],
                vec!["segments".as_ref(), f],
                vec!["waste".as_ref(), f],
                vec!["fill".as_ref(), f],
            ] {
                let out = support::run(&args);
                let text = String::from_utf8_lossy(&out.stdout);
                assert_eq!(out.status.code(), Some(0), "{args:?}: {text}");
                assert!(
                    !text.contains("Findings: ") || text.contains("Findings: none"),
                    "{args:?}: {text}"
                );
            }
            let (count, _) = support::run_json(["count".as_ref(), f]);
            let count_now = &set.crash.table(&format!("test/{t}"))["count"];
            assert_eq!(
                count["indexes"][0]["exact_rows"], *count_now,
                "{}",
                set.crash.name
            );
            let out = support::run(["page".as_ref(), f, "5".as_ref()]);
            let text = String::from_utf8(out.stdout).unwrap();
            let algo = t.trim_start_matches("t_");
            for want in [
                format!("MySQL compressed page (COMPRESSION='{algo}')"),
                "FIL_PAGE_VERSION".into(),
                format!(
                    "FIL_PAGE_ALGORITHM_V1      {}  ({algo})",
                    if algo == "zlib" { 1 } else { 2 }
                ),
                "FIL_PAGE_ORIGINAL_TYPE_V1  17855  (INDEX)".into(),
                "FIL_PAGE_ORIGINAL_SIZE_V1".into(),
                "FIL_PAGE_COMPRESS_SIZE_V1".into(),
                "all zero: the hole the server punches".into(),
                "PAGE_N_RECS".into(),
            ] {
                assert!(text.contains(&want), "{}: {want}:\n{text}", set.crash.name);
            }
        }
    }
}

/// A sparse copy of t_zlib.ibd made from the server's own data extents:
/// `summary` says what the file occupies on disk (`st_blocks`), which is
/// what those extents take, and reads it as the dense copy.
#[test]
fn summary_says_what_a_sparse_compressed_file_occupies() {
    use std::io::{Seek, SeekFrom, Write};
    let tmp = tempfile::tempdir().unwrap();
    for set in sets() {
        let copy = &set.crash;
        let rel = "test/t_zlib.ibd";
        let facts = &copy.file_facts()[rel];
        let dense = support::gunzip_into(&copy.file(rel), tmp.path());
        let bytes = std::fs::read(&dense).unwrap();
        let sparse_path = tmp
            .path()
            .join(format!("{}-sparse.ibd", copy.name.replace('/', "-")));
        let mut sparse = std::fs::File::create(&sparse_path).unwrap();
        let mut data = 0;
        for e in facts["data_extents"].as_array().unwrap() {
            let (o, l) = (e[0].as_u64().unwrap(), e[1].as_u64().unwrap());
            sparse.seek(SeekFrom::Start(o)).unwrap();
            sparse
                .write_all(&bytes[o as usize..(o + l) as usize])
                .unwrap();
            data += l;
        }
        sparse.set_len(bytes.len() as u64).unwrap();
        sparse.sync_all().unwrap();
        drop(sparse);
        let blocks = {
            use std::os::unix::fs::MetadataExt;
            std::fs::metadata(&sparse_path).unwrap().blocks() * 512
        };
        if blocks >= bytes.len() as u64 {
            eprintln!("{}: this file system keeps no holes; skipped", copy.name);
            continue;
        }
        let (s, out) = support::run_json(["summary".as_ref(), sparse_path.as_os_str()]);
        assert!(out.status.success());
        assert_eq!(s["allocated_bytes"], blocks, "{}", copy.name);
        assert_eq!(s["file_bytes"], bytes.len() as u64);
        // What the data extents take, give or take the file system's own
        // bookkeeping (the server's file had one block more than its extents).
        assert!(
            blocks >= data && blocks <= data + 8192,
            "{blocks} for {data} bytes of data"
        );
        assert!(
            facts["allocated_bytes"].as_u64().unwrap() >= data,
            "{}",
            copy.name
        );
        let (d, _) = support::run_json(["summary".as_ref(), dense.as_os_str()]);
        assert_eq!(s["page_types"], d["page_types"]);
        assert_eq!(s["checksum_algorithms"], d["checksum_algorithms"]);
        let text =
            String::from_utf8(support::run(["summary".as_ref(), sparse_path.as_os_str()]).stdout)
                .unwrap();
        assert!(
            text.contains(&format!(
                "On disk           {blocks} bytes allocated of {}",
                bytes.len()
            )),
            "{text}"
        );
        assert!(text.contains("MySQL COMPRESSION (zlib"), "{text}");
    }
}

// ---------------------------------------------------------------------------
// INSTANT ADD/DROP row versions
// ---------------------------------------------------------------------------

/// The INSTANT tables: each `CREATE`d with (id, a, b, e), then `c` added
/// `AFTER a` (row version 1), `b` dropped (2), `d` added (3), rows
/// inserted between the ALTERs; in REDUNDANT a record of version ≥ 1
/// keeps its version byte at `origin − 7`, its field end offsets below it.
const INSTANT_TABLES: [&str; 3] = ["t_inst_redundant", "t_inst_compact", "t_inst_dynamic"];

/// The open transaction of the crash copies (`undo_scenario`): its change,
/// on the page but not committed, is what the crash copy's records hold
/// where the server's rows (read after recovery rolled it back) do not.
const OPEN_INSTANT_UPDATE: &str =
    "UPDATE t_inst_redundant SET d = 'w-d' WHERE id IN (1, 501, 1001, 1501);";

/// The rows of every INSTANT table, in every row format, typed with its own
/// SDI: every one of the server's 2,000 rows, with no finding: those of
/// version 0 (`c` its instant default 7, `d` 'dflt'), of version 1 and 2
/// (`b` stored, then not) and 3. In the crash copies the 4 rows the open
/// transaction updated hold its `d` = 'w-d' (the server's rows are read
/// after it rolled back).
#[test]
fn instant_add_drop_rows_of_every_version_and_row_format() {
    let mut rows = 0;
    for copy in copies() {
        let crash = !copy.name.ends_with("/purged");
        if crash {
            let open = &copy.truth["undo_scenario"]["open_transaction_statements"];
            assert!(
                open.as_array()
                    .unwrap()
                    .iter()
                    .any(|s| s == OPEN_INSTANT_UPDATE),
                "{}: {open}",
                copy.name
            );
        }
        for t in INSTANT_TABLES {
            let rel = format!("test/{t}.ibd");
            let what = format!("{}: {rel}", copy.name);
            let space = open(&copy.file(&rel));
            let table = copy.table(&format!("test/{t}"));
            let r = sdi_records(&space, None);
            assert!(r.findings.is_empty(), "{what}: {:?}", r.findings);
            let columns = row_columns(table);
            let mut want = copy.rows(table["rows"]["file"].as_str().unwrap());
            if crash && t == "t_inst_redundant" {
                let d = columns.iter().position(|c| *c == "d").unwrap();
                for line in &mut want {
                    if ["1", "501", "1001", "1501"].contains(&line[0].as_str()) {
                        line[d] = "w-d".into();
                    }
                }
            }
            let bad = rows_against(&r, &want, &columns);
            assert!(bad.is_empty(), "{what}: {bad:?}");
            assert_eq!(
                r.rows.len() as u64,
                table["count"].as_u64().unwrap(),
                "{what}"
            );
            rows += r.rows.len();
        }
    }
    assert_eq!(rows, copies().len() * 3 * 2000);
}

// ---------------------------------------------------------------------------
// ROW_FORMAT=COMPRESSED: the SDI at every KEY_BLOCK_SIZE
// ---------------------------------------------------------------------------

/// The ROW_FORMAT=COMPRESSED tables of a copy (t_zip1, …, t_zip16): those
/// the server made (`truth.tables`; it refuses a KEY_BLOCK_SIZE above the
/// page size, and every one with 64 KiB pages: `truth.refused`).
fn zip_tables(copy: &MysqlCopy) -> Vec<String> {
    copy.tables()
        .iter()
        .filter(|t| t["row_format"] == "Compressed")
        .filter_map(|t| {
            t["name"]
                .as_str()?
                .strip_prefix("test/")
                .map(str::to_string)
        })
        .collect()
}

/// The SDI of every ROW_FORMAT=COMPRESSED table is ibd2sdi's: the same
/// objects, each equal to the one ibd2sdi printed (with KEY_BLOCK_SIZE=1
/// the table's object does not fit its 1 KiB page: it is read from its
/// SDI_ZBLOB chain); the rows typed with that SDI are the server's, and
/// each index has `COUNT(*)` records.
#[test]
fn compressed_row_format_sdi_and_rows_at_every_key_block_size() {
    let mut tables = Vec::new();
    let mut expected = 0;
    for copy in copies() {
        let refused: Vec<&str> = copy.truth["refused"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["table"].as_str())
            .collect();
        let zips = zip_tables(&copy);
        // InnoDB makes ROW_FORMAT=COMPRESSED tables with a KEY_BLOCK_SIZE
        // up to the page size, and none with pages over 16 KiB.
        let ps = copy.page_size();
        let made = [1u64, 2, 4, 8, 16]
            .iter()
            .filter(|&&k| ps <= 16384 && k * 1024 <= ps)
            .count();
        assert_eq!(zips.len(), made, "{}: {zips:?}", copy.name);
        expected += made;
        for k in [1, 2, 4, 8, 16] {
            let t = format!("t_zip{k}");
            assert!(
                zips.contains(&t) != refused.contains(&t.as_str()),
                "{}: {t} is neither made nor refused",
                copy.name
            );
        }
        for t in zips {
            let rel = format!("test/{t}.ibd");
            let what = format!("{}: {rel}", copy.name);
            let space = open(&copy.file(&rel));
            let sdi = SdiReport::build(&space).unwrap_or_else(|e| panic!("{what}: {e:?}"));
            assert!(sdi.findings.is_empty(), "{what}: {:?}", sdi.findings);
            let theirs = ibd2sdi(&copy, &rel);
            let ours: Vec<(u64, u64, &Value)> = sdi
                .records
                .iter()
                .map(|r| (u64::from(r.sdi_type), r.id, &r.object))
                .collect();
            assert_eq!(ours.len(), theirs.len(), "{what}");
            for (ty, id, object) in &ours {
                let want = theirs
                    .iter()
                    .find(|o| o["type"] == *ty && o["id"] == *id)
                    .unwrap_or_else(|| panic!("{what}: ibd2sdi has no object {ty}/{id}"));
                assert_eq!(*object, &want["object"], "{what}: object {ty}/{id}");
            }
            assert!(ours.iter().any(|o| o.0 == 1), "{what}: no table object");

            let table = copy.table(&format!("test/{t}"));
            let r = sdi_records(&space, None);
            assert!(r.findings.is_empty(), "{what}: {:?}", r.findings);
            let want = copy.rows(table["rows"]["file"].as_str().unwrap());
            let bad = rows_against(&r, &want, &row_columns(table));
            assert!(bad.is_empty(), "{what}: {bad:?}");
            let (ix, _) = support::run_json(["indexes".as_ref(), copy.file(&rel).as_os_str()]);
            for i in innodb_indexes(&copy, &t) {
                let row = index_row(&ix, i["index_id"].as_u64().unwrap());
                assert_eq!(row["root_page"], i["page_no"], "{what}: {}", i["name"]);
                assert_eq!(row["records"], table["count"], "{what}: {}", i["name"]);
            }
            tables.push(what);
        }
    }
    // 5 tables with 16 KiB pages, 4 with 8 KiB, none with 64 KiB; twice.
    assert!(expected > 0, "{tables:?}");
    assert_eq!(tables.len(), expected, "{tables:?}");
}

/// The objects ibd2sdi printed for `rel` (`sdi/<rel>.json.gz`).
fn ibd2sdi(copy: &MysqlCopy, rel: &str) -> Vec<Value> {
    let gz = std::fs::read(copy.root.join("sdi").join(format!("{rel}.json.gz")))
        .unwrap_or_else(|e| panic!("{}: sdi of {rel}: {e}", copy.name));
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut text).unwrap();
    let all: Value = serde_json::from_str(&text).unwrap();
    all.as_array()
        .unwrap()
        .iter()
        .filter(|o| o.is_object())
        .cloned()
        .collect()
}

/// The rows of `INFORMATION_SCHEMA.INNODB_INDEXES` of table `t` (in `test`).
fn innodb_indexes<'a>(copy: &'a MysqlCopy, t: &str) -> Vec<&'a Value> {
    let id = &copy.table(&format!("test/{t}"))["innodb_tables"][0]["table_id"];
    copy.truth["innodb_indexes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| &i["table_id"] == id)
        .collect()
}

// ---------------------------------------------------------------------------
// R-tree (SPATIAL index)
// ---------------------------------------------------------------------------

/// The bounding box (xmin, xmax, ymin, ymax) of a geometry as the client
/// prints `HEX(g)`: a 4-byte SRID, then WKB (here a POINT or a POLYGON).
fn geometry_box(hex: &str) -> [f64; 4] {
    let b: Vec<u8> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let u32le = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap());
    let f64le = |o: usize| f64::from_le_bytes(b[o..o + 8].try_into().unwrap());
    assert_eq!(b[4], 1, "little-endian WKB");
    let points: Vec<(f64, f64)> = match u32le(5) {
        1 => vec![(f64le(9), f64le(17))],
        3 => {
            assert_eq!(u32le(9), 1, "one ring");
            (0..u32le(13) as usize)
                .map(|i| (f64le(17 + 16 * i), f64le(25 + 16 * i)))
                .collect()
        }
        t => panic!("WKB type {t}"),
    };
    let mut m = [f64::MAX, f64::MIN, f64::MAX, f64::MIN];
    for (x, y) in points {
        m = [m[0].min(x), m[1].max(x), m[2].min(y), m[3].max(y)];
    }
    m
}

/// The union of boxes.
fn union(boxes: impl Iterator<Item = [f64; 4]>) -> [f64; 4] {
    boxes.fold([f64::MAX, f64::MIN, f64::MAX, f64::MIN], |m, b| {
        [
            m[0].min(b[0]),
            m[1].max(b[1]),
            m[2].min(b[2]),
            m[3].max(b[3]),
        ]
    })
}

/// The SPATIAL index of t_spatial walked as the server has it: its root is
/// `INNODB_INDEXES.PAGE_NO`, it has `COUNT(*)` leaf records, its pages are
/// the RTREE pages innochecksum counts (as "Other type of page"), each
/// leaf record's MBR is the bounding box of that row's geometry as the
/// server returns it, and each node pointer's MBR is the bounding box of
/// the geometries of the rows on the page it leads to (the tree is only
/// inserted into: no MBR is wider than its child's).
#[test]
fn spatial_index_pages_mbrs_and_counts_are_the_servers() {
    use innodb_format::index::header::IndexHeader;
    use innodb_format::index::page::{IndexPage, RecordList};
    use innodb_format::index::rtree::Mbr;
    let mut pointers = 0;
    for copy in copies() {
        let rel = "test/t_spatial.ibd";
        let what = format!("{}: {rel}", copy.name);
        let table = copy.table("test/t_spatial");
        let sp = innodb_indexes(&copy, "t_spatial")
            .into_iter()
            .find(|i| i["name"] == "sp_g")
            .unwrap();
        let (ix, _) = support::run_json(["indexes".as_ref(), copy.file(rel).as_os_str()]);
        let row = index_row(&ix, sp["index_id"].as_u64().unwrap());
        assert_eq!(row["root_page"], sp["page_no"], "{what}");
        assert_eq!(row["records"], table["count"], "{what}");
        let other = &copy.file_facts()[rel]["innochecksum"]["page_types"]["OTHER"];
        assert_eq!(row["size_pages"], *other, "{what}");
        assert_eq!(ix["findings"], serde_json::json!([]), "{what}");

        // The server's boxes, by id.
        let geometry: std::collections::HashMap<String, [f64; 4]> = copy
            .rows(table["rows"]["file"].as_str().unwrap())
            .into_iter()
            .map(|l| (l[0].clone(), geometry_box(&l[1])))
            .collect();
        let space = open(&copy.file(rel));
        let r = sdi_records(&space, Some("sp_g"));
        assert!(r.findings.is_empty(), "{what}: {:?}", r.findings);
        assert_eq!(r.rows.len(), geometry.len(), "{what}");
        let (g, id) = (
            r.fields.iter().position(|f| f.name == "g").unwrap(),
            r.fields.iter().position(|f| f.name == "id").unwrap(),
        );
        let mut by_page: std::collections::BTreeMap<u32, Vec<[f64; 4]>> = Default::default();
        for row in &r.rows {
            let Cell::Hex { hex } = &row.values[g] else {
                panic!("{what}: g is {:?}", row.values[g]);
            };
            let bytes: Vec<u8> = (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
                .collect();
            let m = Mbr::parse_at(&bytes, 0).unwrap();
            let want = geometry[&client_text(&row.values[id])];
            assert_eq!(
                [m.xmin, m.xmax, m.ymin, m.ymax],
                want,
                "{what}: row {row:?}"
            );
            by_page.entry(row.page).or_default().push(want);
        }

        // The root's node pointers: one per leaf page, each with the box
        // of the rows on it.
        let root = sp["page_no"].as_u64().unwrap() as u32;
        let page = &space.page(root).unwrap()[..];
        let header = IndexHeader::parse(page).unwrap();
        assert_eq!(header.level, 1, "{what}: two levels");
        let mut list = RecordList::default();
        IndexPage::new(page, header).walk(&mut list, &mut Vec::new());
        assert!(list.complete, "{what}");
        assert_eq!(list.records.len(), by_page.len(), "{what}");
        for rec in &list.records {
            let m = Mbr::parse_at(page, rec.origin).unwrap();
            let child = innodb_format::bytes::u32_at(page, rec.origin + 32, "child").unwrap();
            let rows = by_page
                .get(&child)
                .unwrap_or_else(|| panic!("{what}: child {child} has no leaf row"));
            let want = union(rows.iter().copied());
            assert_eq!(
                [m.xmin, m.xmax, m.ymin, m.ymax],
                want,
                "{what}: child {child}"
            );
            pointers += 1;
        }
    }
    assert!(pointers >= copies().len() * 4, "{pointers} node pointers");
}

// ---------------------------------------------------------------------------
// Every file
// ---------------------------------------------------------------------------

/// Every file of every MySQL copy but the doublewrite files (another
/// helper's area) is read by `summary` with no bad page and no finding:
/// innochecksum's count of bad pages (`--allow-mismatches`), 0 for each.
#[test]
fn every_mysql_file_reads_with_no_bad_page() {
    let mut files = 0;
    for copy in copies() {
        for (rel, facts) in copy.file_facts() {
            if facts["kind"] == "doublewrite" {
                continue;
            }
            let what = format!("{}: {rel}", copy.name);
            let (s, out) = support::run_json(["summary".as_ref(), copy.file(rel).as_os_str()]);
            assert!(out.status.success(), "{what}: {s}");
            let bad = &facts["innochecksum"]["check_all"]["bad_pages_count"];
            if !bad.is_null() {
                assert_eq!(s["bad_checksums"], *bad, "{what}");
            }
            assert_eq!(s["bad_checksums"], 0, "{what}");
            assert_eq!(s["findings"], serde_json::json!([]), "{what}");
            files += 1;
        }
    }
    assert!(files > copies().len() * 30, "{files} files");
}

/// Every `.ibd.gz` below `dir`.
fn ibd_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            ibd_files(&p, out);
        } else if p.to_string_lossy().ends_with(".ibd.gz") {
            out.push(p);
        }
    }
}

#[test]
fn sdi_objects_parsed_straight_equal_those_of_the_sdi_report() {
    use innodb_analysis::dictionary::sdi::{objects, objects_of};
    // Every MySQL 9.7 file with SDI (tables, partitions, a general
    // tablespace, mysql.ibd with the dictionary's own tables): the typed
    // parse gives the same tables, tablespaces, notes and findings as the
    // report's JSON values typed afterwards.
    for copy in copies() {
        let mut files = Vec::new();
        ibd_files(&copy.files, &mut files);
        let mut checked = Vec::new();
        for f in files {
            let space = open(&f);
            let what = format!("{}: {}", copy.name, f.display());
            let Ok(sdi) = SdiReport::build(&space) else {
                assert!(objects_of(&space).is_err(), "{what}");
                continue;
            };
            let (typed, findings) = objects_of(&space).unwrap_or_else(|e| panic!("{what}: {e:?}"));
            let json = |v| serde_json::to_value(v).unwrap();
            assert_eq!(json(&typed), json(&objects(&sdi)), "{what}");
            assert_eq!(
                format!("{findings:?}"),
                format!("{:?}", sdi.findings),
                "{what}"
            );
            assert!(
                !typed.tables.is_empty() || !typed.tablespaces.is_empty(),
                "{what}"
            );
            checked.push(f);
        }
        // mysql.ibd (the dictionary tables' SDI) and the table files.
        assert!(
            checked.iter().any(|f| f.ends_with("mysql.ibd.gz")) && checked.len() > 10,
            "{}: only {} files with SDI",
            copy.name,
            checked.len()
        );
    }
}

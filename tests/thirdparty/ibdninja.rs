//! `KernelMaker__ibdNinja`: its fixtures of MySQL 8.0.40, 8.4.8 and 9.6.0
//! against the MANIFEST's golden summary table and ibdNinja's own golden
//! outputs (`expected/`): page headers, index levels and pages, leftmost
//! pages, records by row version, LOBs and JSON documents.

// The helpers below are test code too (see `thirdparty`).
#![allow(clippy::panic, clippy::expect_used)]

use super::{
    cell_text, index_stats, manifest, open, page_fields, page_rows, rel, root, row_at, sdi_records,
    summary, Checks, Row, Table, FIL_NULL, N_HEAP_COMPACT, SDI_INDEX_ID,
};
use crate::support;
use innodb_analysis::reports::indexes::IndexAnalysis;
use innodb_analysis::reports::ownership::SpaceAccount;
use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::reports::space_reports::SegmentsReport;
use innodb_analysis::rows::records::{RecordsReport, RowState, Schema};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn ninja(path: &str) -> PathBuf {
    root().join("KernelMaker__ibdNinja/tests").join(path)
}

/// ibdNinja: the MANIFEST's golden summary table (space, pages, index
/// id@root, clustered leaf records, levels, page-4 LSN), "SDI at page 3,
/// clustered root at page 4", and the prose facts of simple_table,
/// with_deletes and multi_page.
#[test]
fn ibdninja_golden_summary_table() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let m = manifest();
    let mut c = Checks::default();
    let golden: Vec<Row> = m
        .tables
        .iter()
        .filter(|t| t.header.first().is_some_and(|h| h == "ver") && t.has("page 4 LSN"))
        .flat_map(Table::rows)
        .collect();
    assert!(
        golden.len() >= 40,
        "only {} rows in the ibdNinja golden summary table",
        golden.len()
    );
    for g in &golden {
        let rel = format!("{}/fixtures/{}.ibd", g.get("ver"), g.get("fixture"));
        let label = format!("ibdNinja {rel}");
        let space = open(&ninja(&rel));
        let s = summary(&space);
        let rows = page_rows(&space);
        let stats = index_stats(&rows, &["INDEX"]);
        c.eq(
            &label,
            "space id",
            s["space_id"].as_u64(),
            Some(g.num("space")),
        );
        c.eq(
            &label,
            "pages",
            s["page_count"].as_u64(),
            Some(g.num("pages")),
        );
        c.eq(
            &label,
            "page 4 LSN",
            row_at(&rows, 4).map(|r| r.lsn),
            Some(g.num("page 4 LSN")),
        );
        c.eq(
            &label,
            "page 3 type (SDI root)",
            row_at(&rows, 3).map(|r| r.page_type.as_str()),
            Some("SDI"),
        );
        c.eq(
            &label,
            "page 4 type (clustered root)",
            row_at(&rows, 4).map(|r| r.page_type.as_str()),
            Some("INDEX"),
        );
        // "194@4 PRIMARY, ...": each index's root page has its id and is its top level.
        let mut primary = None;
        for idx in g.get("indexes (id@root name)").split(", ") {
            let (id_root, name) = idx.split_once(' ').expect("id@root name");
            let (id, root) = id_root.split_once('@').expect("id@root");
            let (id, root): (u64, u32) = (
                id.parse().expect("index id"),
                root.parse().expect("root page"),
            );
            if name == "PRIMARY" {
                primary = Some(id);
            }
            let r = row_at(&rows, root);
            c.eq(
                &label,
                &format!("{name} root page {root} index id"),
                r.and_then(|r| r.index_id),
                Some(id),
            );
            let top = stats.get(&id).and_then(|s| s.levels.last().copied());
            c.eq(
                &label,
                &format!("{name} root page {root} is at the top level"),
                r.and_then(|r| r.level),
                top,
            );
        }
        let p = primary
            .and_then(|id| stats.get(&id))
            .cloned()
            .unwrap_or_default();
        c.eq(
            &label,
            "PRIMARY leaf records",
            p.leaf_records,
            g.num("leaf recs"),
        );
        c.eq(
            &label,
            "PRIMARY levels",
            p.levels.len() as u64,
            g.num("levels"),
        );
    }
    // simple_table (all versions): page 4: level 0, 5 records, dir slots 2,
    // heap top 371, n_heap 7, garbage 0, last insert 332, direction 2,
    // n_direction 4.
    // with_deletes: page 4 has 5 records, n_heap 12, first free record at
    // offset 432, garbage 176 bytes.
    for ver in ["8.0", "8.4", "9.0"] {
        let f = page_fields(
            &open(&ninja(&format!("{ver}/fixtures/simple_table.ibd"))),
            4,
        );
        let label = format!("ibdNinja {ver}/fixtures/simple_table.ibd page 4");
        for (name, value) in [
            ("PAGE_LEVEL", 0),
            ("PAGE_N_RECS", 5),
            ("PAGE_N_DIR_SLOTS", 2),
            ("PAGE_HEAP_TOP", 371),
            ("PAGE_N_HEAP", N_HEAP_COMPACT | 7),
            ("PAGE_GARBAGE", 0),
            ("PAGE_LAST_INSERT", 332),
            ("PAGE_DIRECTION", 2),
            ("PAGE_N_DIRECTION", 4),
        ] {
            c.eq(&label, name, f.get(name).copied(), Some(value));
        }
        let f = page_fields(
            &open(&ninja(&format!("{ver}/fixtures/with_deletes.ibd"))),
            4,
        );
        let label = format!("ibdNinja {ver}/fixtures/with_deletes.ibd page 4");
        for (name, value) in [
            ("PAGE_N_RECS", 5),
            ("PAGE_N_HEAP", N_HEAP_COMPACT | 12),
            ("PAGE_FREE", 432),
            ("PAGE_GARBAGE", 176),
        ] {
            c.eq(&label, name, f.get(name).copied(), Some(value));
        }
        // multi_page: PRIMARY index 168 has 2 levels, 12 pages (1 non-leaf,
        // 11 leaves, 500 leaf records).
        let label = format!("ibdNinja {ver}/fixtures/multi_page.ibd");
        let rows = page_rows(&open(&ninja(&format!("{ver}/fixtures/multi_page.ibd"))));
        let s = index_stats(&rows, &["INDEX"])
            .remove(&168)
            .unwrap_or_default();
        c.eq(
            &label,
            "index 168 pages per level",
            s.pages_at_level,
            BTreeMap::from([(0, 11), (1, 1)]),
        );
        c.eq(&label, "index 168 leaf records", s.leaf_records, 500);
    }
    c.finish("ibdninja_golden_summary_table");
}

/// `    Key:    value` lines of an ibdNinja golden output, first occurrence.
fn golden_values(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim().trim_start_matches('[').trim_end_matches(']');
        // `Key: value`, and one `Is compressed page?    0` with no colon.
        if let Some((k, v)) = line.split_once(':').or_else(|| line.split_once('?')) {
            out.entry(k.trim().to_string())
                .or_insert_with(|| v.trim().to_string());
        }
    }
    out
}

/// A golden number: `344064 B` -> 344064, `NULL` -> FIL_NULL.
fn golden_num(v: &BTreeMap<String, String>, key: &str) -> Option<u64> {
    let s = v.get(key)?.trim_end_matches(" B").trim();
    if s == "NULL" {
        Some(FIL_NULL)
    } else {
        s.parse().ok()
    }
}

/// The fixture a golden output is about: `File name: <FIXTURES>/x.ibd`,
/// beside `expected/` in `fixtures/`.
fn golden_fixture(golden: &Path, v: &BTreeMap<String, String>) -> PathBuf {
    let name = v
        .get("File name")
        .and_then(|n| n.strip_prefix("<FIXTURES>/"))
        .unwrap_or_else(|| panic!("{}: no File name line", golden.display()));
    golden
        .parent()
        .and_then(Path::parent)
        .expect("tests/<ver>/expected")
        .join("fixtures")
        .join(name)
}

/// The owner's golden outputs (`expected/*_parse_page_4.txt`,
/// `*_parse_index_N.txt`, `*_leftmost_pages_N.txt`, listed in the MANIFEST
/// as "owner assertions, copied verbatim") against our headers.
#[test]
fn ibdninja_golden_outputs() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let dir = root().join("KernelMaker__ibdNinja/tests");
    let mut c = Checks::default();
    let mut n_files = 0;
    // parse_page_4: the file information block and page 4's headers.
    for golden in support::files_below(&dir, "_parse_page_4.txt") {
        n_files += 1;
        let v = golden_values(&std::fs::read_to_string(&golden).expect("golden file"));
        let file = golden_fixture(&golden, &v);
        let label = format!("{} vs {}", rel(&golden), rel(&file));
        let space = open(&file);
        let s = summary(&space);
        let f = page_fields(&space, 4);
        let rows = page_rows(&space);
        let field = |name: &str| f.get(name).copied();
        c.eq(
            &label,
            "File size",
            std::fs::metadata(&file).ok().map(|m| m.len()),
            golden_num(&v, "File size"),
        );
        c.eq(
            &label,
            "Space id",
            s["space_id"].as_u64(),
            golden_num(&v, "Space id"),
        );
        c.eq(
            &label,
            "Page logical size",
            s["page_size"].as_u64(),
            golden_num(&v, "Page logical size"),
        );
        c.eq(
            &label,
            "Page physical size",
            s["physical_page_size"].as_u64(),
            golden_num(&v, "Page physical size"),
        );
        c.eq(
            &label,
            "Total number of pages",
            s["page_count"].as_u64(),
            golden_num(&v, "Total number of pages"),
        );
        c.eq(
            &label,
            "Is compressed page?",
            Some(u64::from(s["flags"]["zip_ssize"].as_u64() != Some(0))),
            golden_num(&v, "Is compressed page"),
        );
        let sdi_root = golden_num(&v, "SDI root page number").and_then(|p| u32::try_from(p).ok());
        let sdi = sdi_root.and_then(|p| row_at(&rows, p));
        c.eq(
            &label,
            "SDI root page (type, index id)",
            sdi.map(|r| (r.page_type.as_str(), r.index_id)),
            Some(("SDI", Some(SDI_INDEX_ID))),
        );
        for (key, flag) in [
            ("Post antelop", "post_antelope"),
            ("Atomic blobs", "atomic_blobs"),
            ("Has data dir", "data_dir"),
            ("Shared", "shared"),
            ("Temporary", "temporary"),
            ("Encryption", "encryption"),
        ] {
            c.eq(
                &label,
                key,
                s["flags"][flag].as_bool().map(u64::from),
                golden_num(&v, key),
            );
        }
        let siblings: Vec<&str> = v
            .get("Slibling pages no")
            .map(|s| s.split_whitespace().collect())
            .unwrap_or_default();
        let sib = |i: usize| {
            siblings.get(i).and_then(|s| {
                if *s == "NULL" {
                    Some(FIL_NULL)
                } else {
                    s.parse().ok()
                }
            })
        };
        c.eq(
            &label,
            "page 4 FIL_PAGE_PREV",
            field("FIL_PAGE_PREV"),
            sib(0),
        );
        c.eq(
            &label,
            "page 4 FIL_PAGE_NEXT",
            field("FIL_PAGE_NEXT"),
            sib(2),
        );
        c.eq(
            &label,
            "page 4 FIL_PAGE_SPACE_ID",
            field("FIL_PAGE_SPACE_ID"),
            golden_num(&v, "Space id"),
        );
        c.eq(
            &label,
            "page 4 type",
            row_at(&rows, 4).map(|r| r.page_type.clone()),
            v.get("Page type").cloned(),
        );
        c.eq(
            &label,
            "page 4 LSN",
            field("FIL_PAGE_LSN"),
            golden_num(&v, "Lsn"),
        );
        c.eq(
            &label,
            "page 4 flush LSN",
            field("FIL_PAGE_FILE_FLUSH_LSN"),
            golden_num(&v, "FLush lsn"),
        );
        c.eq(
            &label,
            "page 4 level",
            field("PAGE_LEVEL"),
            golden_num(&v, "Page level"),
        );
        c.eq(
            &label,
            "page 4 records",
            field("PAGE_N_RECS"),
            golden_num(&v, "Number of records"),
        );
        c.eq(
            &label,
            "page 4 index id",
            field("PAGE_INDEX_ID"),
            golden_num(&v, "Index id"),
        );
        c.eq(
            &label,
            "page 4 dir slots",
            field("PAGE_N_DIR_SLOTS"),
            golden_num(&v, "Number dir slots"),
        );
        c.eq(
            &label,
            "page 4 heap top",
            field("PAGE_HEAP_TOP"),
            golden_num(&v, "Heap top"),
        );
        c.eq(
            &label,
            "page 4 n_heap",
            field("PAGE_N_HEAP").map(|n| n & !N_HEAP_COMPACT),
            golden_num(&v, "Number of heap"),
        );
        c.eq(
            &label,
            "page 4 compact format (Row format)",
            field("PAGE_N_HEAP").map(|n| n & N_HEAP_COMPACT != 0),
            v.get("Row format").map(|f| f != "REDUNDANT"),
        );
        c.eq(
            &label,
            "page 4 first free rec",
            field("PAGE_FREE"),
            golden_num(&v, "First free rec"),
        );
        c.eq(
            &label,
            "page 4 garbage",
            field("PAGE_GARBAGE"),
            golden_num(&v, "Garbage"),
        );
        c.eq(
            &label,
            "page 4 last insert",
            field("PAGE_LAST_INSERT"),
            golden_num(&v, "Last insert"),
        );
        c.eq(
            &label,
            "page 4 direction",
            field("PAGE_DIRECTION"),
            golden_num(&v, "Direction"),
        );
        c.eq(
            &label,
            "page 4 n_direction",
            field("PAGE_N_DIRECTION"),
            golden_num(&v, "Number direction"),
        );
        c.eq(
            &label,
            "page 4 max trx id",
            field("PAGE_MAX_TRX_ID"),
            golden_num(&v, "Max trx id"),
        );
    }
    // parse_index_N: levels, pages per level, records per level.
    for golden in support::files_below(&dir, ".txt")
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("_parse_index_"))
    {
        n_files += 1;
        let text = std::fs::read_to_string(&golden).expect("golden file");
        let v = golden_values(&text);
        let file = golden_fixture(&golden, &v);
        let label = format!("{} vs {}", rel(&golden), rel(&file));
        let space = open(&file);
        let rows = page_rows(&space);
        let id = golden_num(&v, "Index id").expect("Index id");
        let s = index_stats(&rows, &["INDEX"])
            .remove(&id)
            .unwrap_or_default();
        let root = golden_num(&v, "Root page no").and_then(|p| u32::try_from(p).ok());
        let root_row = root.and_then(|p| row_at(&rows, p));
        c.eq(
            &label,
            "root page (index id, level)",
            root_row.map(|r| (r.index_id, r.level)),
            Some((Some(id), s.levels.last().copied())),
        );
        c.eq(
            &label,
            "Num of levels",
            Some(s.levels.len() as u64),
            golden_num(&v, "Num of levels"),
        );
        c.eq(
            &label,
            "Num of pages",
            Some(s.pages_at_level.values().sum()),
            golden_num(&v, "Num of pages"),
        );
        c.eq(
            &label,
            "Leaf pages",
            Some(s.pages_at_level.get(&0).copied().unwrap_or(0)),
            golden_num(&v, "Leaf pages"),
        );
        c.eq(
            &label,
            "Non leaf pages",
            Some(
                s.pages_at_level
                    .iter()
                    .filter(|(l, _)| **l > 0)
                    .map(|(_, n)| n)
                    .sum(),
            ),
            golden_num(&v, "Non leaf pages"),
        );
        // PAGE_N_RECS counts valid and delete-marked records alike.
        let leaf = text
            .split("--------LEAF-LEVEL")
            .nth(1)
            .map(golden_values)
            .unwrap_or_default();
        let leaf_total = golden_num(&leaf, "Total valid records count")
            .zip(golden_num(&leaf, "Total delete-marked records count"))
            .map(|(a, b)| a + b);
        c.eq(
            &label,
            "leaf records (valid + delete-marked)",
            Some(s.leaf_records),
            leaf_total,
        );
    }
    // leftmost_pages_N: "Level L: page P" -> P is a level-L page of index N
    // with no left sibling.
    for golden in support::files_below(&dir, ".txt")
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("_leftmost_pages_"))
    {
        n_files += 1;
        let text = std::fs::read_to_string(&golden).expect("golden file");
        let v = golden_values(&text);
        let file = golden_fixture(&golden, &v);
        let label = format!("{} vs {}", rel(&golden), rel(&file));
        let id: u64 = golden
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.rsplit('_').next())
            .and_then(|s| s.parse().ok())
            .expect("index id in the file name");
        let space = open(&file);
        let rows = page_rows(&space);
        let mut levels = 0;
        for line in text
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("Level "))
        {
            let (level, page) = line
                .strip_prefix("Level ")
                .and_then(|l| l.split_once(": page "))
                .and_then(|(l, p)| Some((l.parse::<u16>().ok()?, p.trim().parse::<u32>().ok()?)))
                .expect("Level L: page P");
            levels += 1;
            c.eq(
                &label,
                &format!("page {page} (index id, level)"),
                row_at(&rows, page).map(|r| (r.index_id, r.level)),
                Some((Some(id), Some(level))),
            );
            c.eq(
                &label,
                &format!("page {page} FIL_PAGE_PREV"),
                page_fields(&space, page).get("FIL_PAGE_PREV").copied(),
                Some(FIL_NULL),
            );
        }
        c.ok(&label, levels > 0, || "no Level lines".into());
    }
    c.ok("ibdNinja", n_files >= 100, || {
        format!("only {n_files} golden files found")
    });
    println!("{n_files} golden files");
    c.finish("ibdninja_golden_outputs");
}

/// The ibdNinja golden table's indexes (id@root) are exactly the indexes
/// whose roots name their segments, beside the SDI index, apart from the
/// indexes ibdNinja says it skips.
#[test]
fn segments_name_the_golden_indexes() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let m = manifest();
    let mut c = Checks::default();
    let golden: Vec<Row> = m
        .tables
        .iter()
        .filter(|t| t.header.first().is_some_and(|h| h == "ver") && t.has("page 4 LSN"))
        .flat_map(Table::rows)
        .collect();
    assert!(golden.len() >= 40, "only {} golden rows", golden.len());
    for g in &golden {
        let rel = format!("{}/fixtures/{}.ibd", g.get("ver"), g.get("fixture"));
        let label = format!("ibdNinja {rel}");
        let space = open(&ninja(&rel));
        let report = SegmentsReport::new(&space, &SpaceAccount::build(&space).unwrap());
        let ours: BTreeSet<(u64, u32)> = report
            .indexes
            .iter()
            .filter(|r| r.index_id != SDI_INDEX_ID)
            .map(|r| (r.index_id, r.root_page))
            .collect();
        let theirs: BTreeSet<(u64, u32)> = g
            .get("indexes (id@root name)")
            .split(", ")
            .map(|idx| {
                let (id, root) = idx.split(' ').next().unwrap().split_once('@').unwrap();
                (id.parse().unwrap(), root.parse().unwrap())
            })
            .collect();
        // ibdNinja lists the indexes it can parse; it names the ones it skips
        // (spatial, virtual-column and fulltext). A fulltext index keeps its
        // trees in auxiliary tables; every other skipped index has a root here.
        let listing = ninja(&format!(
            "{}/expected/{}_list_tables.txt",
            g.get("ver"),
            g.get("fixture")
        ));
        let skipped = std::fs::read_to_string(&listing)
            .map(|t| {
                t.lines()
                    .filter(|l| l.contains("Skipping loading index") && !l.contains("Fulltext"))
                    .count()
            })
            .unwrap_or(0);
        c.ok(&label, theirs.is_subset(&ours), || {
            format!("golden indexes {theirs:?} are not all among ours {ours:?}")
        });
        c.eq(
            &label,
            "indexes beyond the golden list (skipped by ibdNinja)",
            ours.len() - theirs.len().min(ours.len()),
            skipped,
        );
        c.eq(
            &label,
            "SDI index root",
            report
                .indexes
                .iter()
                .find(|r| r.index_id == SDI_INDEX_ID)
                .map(|r| r.root_page),
            Some(3),
        );
    }
    c.finish("segments_name_the_golden_indexes");
}

/// The B+tree walks against the ibdNinja golden summary table: the
/// clustered index's leaf records and levels. No walk finds anything.
#[test]
fn tree_walks_match_the_owners_facts() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let mut c = Checks::default();
    let m = manifest();
    for g in m
        .tables
        .iter()
        .filter(|t| t.header.first().is_some_and(|h| h == "ver") && t.has("page 4 LSN"))
        .flat_map(Table::rows)
    {
        let rel = format!("{}/fixtures/{}.ibd", g.get("ver"), g.get("fixture"));
        let label = format!("ibdNinja {rel}");
        let space = open(&ninja(&rel));
        let a = IndexAnalysis::build(&space).unwrap();
        c.ok(&label, a.account.findings.is_empty(), || {
            format!("findings {:?}", a.account.findings)
        });
        let Some((primary, _)) = a.indexes.iter().find(|(s, _)| s.root_page == 4) else {
            c.ok(&label, false, || "no index rooted at page 4".into());
            continue;
        };
        c.eq(
            &label,
            "leaf records",
            primary.records + primary.delete_marked,
            g.num("leaf recs"),
        );
        c.eq(&label, "levels", primary.levels, g.num("levels"));
    }
    c.finish("tree_walks_match_the_owners_facts");
}

/// `records` with the columns of the file's own SDI: ibdNinja's
/// `with_deletes` gives ids 1,3,5,7,9 live and the deleted ids 2,4,6,8,10
/// back from the page's garbage list.
#[test]
fn records_from_the_sdi() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let mut c = Checks::default();
    for ver in ["8.0", "8.4", "9.0"] {
        let label = format!("ibdNinja {ver}/with_deletes");
        let r = sdi_records(&ninja(&format!("{ver}/fixtures/with_deletes.ibd")), true);
        let mut live = Vec::new();
        let mut gone = Vec::new();
        for (i, row) in r.rows.iter().enumerate() {
            let id = cell_text(&r, i, "id");
            let name = cell_text(&r, i, "name");
            match row.state {
                RowState::Live => live.push((id, name)),
                _ => {
                    // Nothing has reused their bytes, and each ends where
                    // a neighbour begins.
                    c.eq(
                        &label,
                        &format!("confidence of deleted row {id}"),
                        row.confidence,
                        Some(innodb_analysis::rows::records::Confidence::High),
                    );
                    gone.push((id, name))
                }
            }
        }
        c.eq(
            &label,
            "live rows",
            live,
            [1, 3, 5, 7, 9]
                .iter()
                .map(|i| (i.to_string(), format!("Keep{i}")))
                .collect::<Vec<_>>(),
        );
        gone.sort_by_key(|(id, _)| id.parse::<u32>().unwrap_or(0));
        c.eq(
            &label,
            "deleted rows read back",
            gone,
            [2, 4, 6, 8, 10]
                .iter()
                .map(|i| (i.to_string(), format!("Delete{i}")))
                .collect::<Vec<_>>(),
        );
    }
    c.finish("records_from_the_sdi");
}

/// The fields of each record in one of ibdNinja's golden
/// `*_parse_page_4_records.txt` files: per row, field name and its bytes
/// ([`Golden`]).
#[derive(Debug, Clone, PartialEq)]
enum Golden {
    Bytes(Vec<u8>),
    Null,
    Default,
}

fn ninja_golden_rows(path: &Path) -> Vec<Vec<(String, Golden)>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut rows: Vec<Vec<(String, Golden)>> = Vec::new();
    let mut name = None;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with("[ROW ") {
            rows.push(Vec::new());
        } else if let Some(n) = l
            .strip_prefix("[FIELD")
            .and_then(|r| r.split_once("Name  : "))
        {
            name = Some(n.1.trim().to_string());
        } else if let Some(v) = l.strip_prefix("Value : ") {
            let Some(n) = name.take() else { continue };
            let g = match v.trim() {
                "*NULL*" => Golden::Null,
                "*DEFAULT*" => Golden::Default,
                hex => Golden::Bytes(
                    hex.split_whitespace()
                        .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
                        .collect(),
                ),
            };
            if let Some(r) = rows.last_mut() {
                r.push((n, g));
            }
        }
    }
    rows
}

/// MySQL 8.0.29+ INSTANT ADD/DROP COLUMN in ibdNinja's `instant_add_col`
/// and `instant_add_drop` tables (MySQL 8.0.40, 8.4.8, 9.6.0): every field of
/// every record is what ibdNinja's golden page dump shows — the same bytes
/// for stored fields, the instant default for rows older than an ADD, NULL
/// for rows newer than a DROP — with records of row versions 0, 1, 2 and 4,
/// and the dropped columns' old values kept.
#[test]
fn instant_columns_decode_by_row_version() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    use innodb_format::value::column_value::{decode, Value};
    let mut c = Checks::default();
    for dir in ["8.0", "8.4", "9.0"] {
        for table in ["instant_add_col", "instant_add_drop"] {
            let label = format!("ibdNinja {dir}/{table}");
            let space = open(&ninja(&format!("{dir}/fixtures/{table}.ibd")));
            let schema = Schema::from_sdi(&SdiReport::build(&space).unwrap()).unwrap();
            let r = RecordsReport::build(&space, &schema, None, false, None).unwrap();
            c.ok(&label, r.findings.is_empty(), || {
                format!("{:?}", r.findings)
            });
            let golden = ninja_golden_rows(&ninja(&format!(
                "{dir}/expected/{table}_parse_page_4_records.txt"
            )));
            c.eq(&label, "rows", r.rows.len(), golden.len());
            for (i, (row, want)) in r.rows.iter().zip(&golden).enumerate() {
                let names: Vec<&str> = want.iter().map(|(n, _)| n.as_str()).collect();
                let ours: Vec<&str> = r.fields.iter().map(|f| f.name.as_str()).collect();
                c.eq(&label, "field names", ours, names);
                for ((f, v), (name, g)) in r.fields.iter().zip(&row.values).zip(want) {
                    let expected = match g {
                        Golden::Null => Value::Null,
                        Golden::Default => match &f.instant.default {
                            Some(d) => decode(&f.column_type, d),
                            None => Value::Null,
                        },
                        Golden::Bytes(b) if f.name.starts_with("DB_") => {
                            Value::UInt(b.iter().fold(0, |a, &x| (a << 8) | u64::from(x)))
                        }
                        Golden::Bytes(b) => decode(&f.column_type, b),
                    };
                    c.eq(&label, &format!("row {} {name}", i + 1), v, &expected);
                }
            }
        }
    }
    assert!(c.checked > 100, "{} checks: {:?}", c.checked, c.problems);
    c.finish("instant_columns_decode_by_row_version");
}

/// MySQL 8 LOBs and binary JSON in ibdNinja's files (8.0.40, 8.4.8,
/// 9.6.0): each of the five off-page values of `blob_external` has the length
/// and the first bytes ibdNinja's golden page dump shows for it, and the
/// JSON documents of `json_partial` and `json_partial_large` (off-page,
/// partially updated) are, as JSON, the documents its golden
/// `*_inspect_*_current.txt` files print.
#[test]
fn mysql8_lobs_and_json_documents() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    use innodb_format::value::column_value::Value as Cv;
    let mut c = Checks::default();
    for dir in ["8.0", "8.4", "9.0"] {
        // Golden: per row, the LOBs by field: (total bytes, first bytes).
        let text = std::fs::read_to_string(ninja(&format!(
            "{dir}/expected/blob_external_parse_page_4_records.txt"
        )))
        .unwrap();
        let mut golden: Vec<BTreeMap<String, (usize, Vec<u8>)>> = Vec::new();
        let (mut field, mut in_lob) = (String::new(), false);
        for line in text.lines().map(str::trim) {
            let is_hex = |l: &str| {
                !l.is_empty()
                    && l.split(' ')
                        .all(|b| b.len() == 2 && u8::from_str_radix(b, 16).is_ok())
            };
            if line.starts_with("[ROW ") {
                golden.push(BTreeMap::new());
            } else if let Some((_, name)) = line.split_once("Name  : ") {
                field = name.trim().to_string();
                in_lob = false;
            } else if let Some(rest) = line.strip_prefix("[LOB DATA (hex, ") {
                let total = rest.split(' ').next().and_then(|n| n.parse().ok()).unwrap();
                if let Some(g) = golden.last_mut() {
                    g.insert(field.clone(), (total, Vec::new()));
                }
                in_lob = true;
            } else if in_lob && is_hex(line) {
                if let Some((_, head)) = golden.last_mut().and_then(|g| g.get_mut(&field)) {
                    head.extend(line.split(' ').map(|b| u8::from_str_radix(b, 16).unwrap()));
                }
            } else {
                in_lob = false;
            }
        }
        let label = format!("ibdNinja {dir}/blob_external");
        let space = open(&ninja(&format!("{dir}/fixtures/blob_external.ibd")));
        let schema = Schema::from_sdi(&SdiReport::build(&space).unwrap()).unwrap();
        let r = RecordsReport::build(&space, &schema, None, false, None).unwrap();
        c.ok(&label, r.findings.is_empty(), || {
            format!("{:?}", r.findings)
        });
        c.eq(&label, "rows", r.rows.len(), golden.len());
        let mut lobs = 0;
        for (i, (row, g)) in r.rows.iter().zip(&golden).enumerate() {
            for (name, (total, head)) in g {
                lobs += 1;
                let f = r.fields.iter().position(|f| &f.name == name).unwrap();
                let ours: Vec<u8> = match &row.values[f] {
                    Cv::Hex { hex } => (0..hex.len() / 2)
                        .map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).unwrap())
                        .collect(),
                    Cv::Text(t) => t.as_bytes().to_vec(),
                    other => panic!("{label} row {i} {name}: {other:?}"),
                };
                c.eq(
                    &label,
                    &format!("row {i} {name} length"),
                    ours.len(),
                    *total,
                );
                c.ok(&label, !head.is_empty() && ours.starts_with(head), || {
                    format!(
                        "row {i} {name}: does not start with the golden {} bytes",
                        head.len()
                    )
                });
            }
        }
        c.eq(&label, "LOBs", lobs, 5);

        for (table, docs) in [
            (
                "json_partial",
                vec![("doc1", "doc1_current"), ("doc2", "doc2_current")],
            ),
            ("json_partial_large", vec![("doc", "current")]),
        ] {
            let label = format!("ibdNinja {dir}/{table}");
            let space = open(&ninja(&format!("{dir}/fixtures/{table}.ibd")));
            let schema = Schema::from_sdi(&SdiReport::build(&space).unwrap()).unwrap();
            let r = RecordsReport::build(&space, &schema, None, false, None).unwrap();
            c.ok(&label, r.findings.is_empty(), || {
                format!("{:?}", r.findings)
            });
            for (column, golden) in docs {
                let Some(i) = r.fields.iter().position(|f| f.name == column) else {
                    c.ok(&label, false, || {
                        format!(
                            "no column {column}: {:?}",
                            r.fields.iter().map(|f| &f.name).collect::<Vec<_>>()
                        )
                    });
                    continue;
                };
                let want: Value = serde_json::from_str(
                    &std::fs::read_to_string(ninja(&format!(
                        "{dir}/expected/{table}_inspect_{golden}.txt"
                    )))
                    .unwrap(),
                )
                .unwrap();
                let ours = match r.rows.first().map(|row| &row.values[i]) {
                    Some(Cv::Text(t)) => serde_json::from_str::<Value>(t).ok(),
                    _ => None,
                };
                c.ok(&label, ours.as_ref() == Some(&want), || {
                    format!("{column} is not the golden document")
                });
            }
        }
    }
    c.finish("mysql8_lobs_and_json_documents");
}

//! `jeremycole__innodb_ruby`: the facts of innodb_ruby's specs and spec
//! data README (`spec/data`: `t_empty`, `hello_world`, `t_10k_rows`,
//! `t_record_describer`, the typed tables, and sakila written by MySQL 5.0,
//! 5.6 COMPACT and REDUNDANT, 5.7, 8.0 and 8.4).

// The helpers below are test code too (see `thirdparty`).
#![allow(clippy::panic, clippy::expect_used)]

use super::{
    cell_text, cli_page_fields, index_stats, manifest, open, our_checksum_name, page_fields,
    page_rows, root, row_at, sdi_records, summary, Checks, FIL_NULL, N_HEAP_COMPACT, SDI_INDEX_ID,
};
use crate::support;
use innodb_analysis::reports::indexes::IndexAnalysis;
use innodb_analysis::reports::ownership::SpaceAccount;
use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::reports::space_reports::SegmentsReport;
use innodb_analysis::PageDetail;
use innodb_space::Tablespace;
use serde_json::Value;
use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

fn ruby(path: &str) -> PathBuf {
    root().join("jeremycole__innodb_ruby/spec/data").join(path)
}

/// page/index_spec.rb on `t_empty.ibd` page 3, through the CLI's JSON.
#[test]
fn t_empty_page3_index_header_matches_innodb_ruby() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let file = ruby("t_empty.ibd");
    let (v, f) = cli_page_fields(&file, 3);
    let mut c = Checks::default();
    let label = "t_empty.ibd page 3";
    c.eq(label, "type", v["type"].as_str(), Some("INDEX"));
    let expected: [(&str, u64); 11] = [
        ("PAGE_N_DIR_SLOTS", 2),
        ("PAGE_HEAP_TOP", 120),
        // n_heap 2, format compact: the raw field carries the 0x8000 bit.
        ("PAGE_N_HEAP", N_HEAP_COMPACT | 2),
        ("PAGE_FREE", 0),    // garbage_offset 0
        ("PAGE_GARBAGE", 0), // garbage_size 0
        ("PAGE_LAST_INSERT", 0),
        ("PAGE_N_DIRECTION", 0),
        ("PAGE_N_RECS", 0),
        ("PAGE_MAX_TRX_ID", 0),
        ("PAGE_LEVEL", 0),
        ("PAGE_INDEX_ID", 16),
    ];
    for (name, value) in expected {
        c.eq(label, name, f.get(name).copied(), Some(value));
    }
    // direction no_direction: PAGE_NO_DIRECTION is 5.
    c.eq(
        label,
        "PAGE_DIRECTION",
        f.get("PAGE_DIRECTION").copied(),
        Some(5),
    );
    let direction_meaning = v["sections"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["fields"].as_array().into_iter().flatten())
        .find(|f| f["name"] == "PAGE_DIRECTION")
        .and_then(|f| f["meaning"].as_str())
        .map(str::to_ascii_lowercase);
    c.eq(
        label,
        "PAGE_DIRECTION meaning",
        direction_meaning.as_deref(),
        Some("no_direction"),
    );
    // fsp_hdr_xdes_spec.rb: page 0 lists include free, free_frag, full_frag,
    // full_inodes, free_inodes.
    let f0 = page_fields(&open(&file), 0);
    for list in [
        "FSP_FREE",
        "FSP_FREE_FRAG",
        "FSP_FULL_FRAG",
        "FSP_SEG_INODES_FULL",
        "FSP_SEG_INODES_FREE",
    ] {
        c.ok("t_empty.ibd page 0", f0.contains_key(list), || {
            format!("no {list} list in our FSP header")
        });
    }
    c.finish("t_empty_page3_index_header_matches_innodb_ruby");
}

/// space_spec.rb / system_spec.rb on `sakila/compact/sakila/film.ibd`.
#[test]
fn sakila_compact_film_matches_innodb_ruby_space_spec() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let file = ruby("sakila/compact/sakila/film.ibd");
    let label = "sakila/compact/sakila/film.ibd";
    let space = open(&file);
    let s = summary(&space);
    let rows = page_rows(&space);
    let mut c = Checks::default();
    // system_spec.rb: space id 7.
    c.eq(label, "space id", s["space_id"].as_u64(), Some(7));
    // each_page yields 21 pages: every page of the 344064-byte file (21 x 16 KiB).
    c.eq(label, "page_count", s["page_count"].as_u64(), Some(21));
    c.eq(label, "rows in `pages`", rows.len(), 21);
    // each_index yields 4 indexes.
    let indexes: BTreeSet<u64> = rows
        .iter()
        .filter(|r| r.page_type == "INDEX")
        .filter_map(|r| r.index_id)
        .collect();
    c.eq(label, "distinct index ids", indexes.len(), 4);
    // 1 XDES page (page 0, the FSP_HDR, is the only extent-descriptor page).
    let xdes_pages = rows
        .iter()
        .filter(|r| r.page_type == "FSP_HDR" || r.page_type == "XDES")
        .count();
    c.eq(label, "FSP_HDR/XDES pages", xdes_pages, 1);
    // 5 page-type regions (runs of consecutive pages of one type); region 0 =
    // {0, 0, FSP_HDR, 1}, region 1 = {1, 1, IBUF_BITMAP, 1}.
    let mut regions: Vec<(u32, u32, String, u32)> = Vec::new();
    for r in &rows {
        match regions.last_mut() {
            Some(last) if last.2 == r.page_type && last.1 + 1 == r.page => {
                last.1 = r.page;
                last.3 += 1;
            }
            _ => regions.push((r.page, r.page, r.page_type.clone(), 1)),
        }
    }
    c.eq(label, "page-type regions", regions.len(), 5);
    c.eq(
        label,
        "region 0",
        regions.first().cloned(),
        Some((0, 0, "FSP_HDR".into(), 1)),
    );
    c.eq(
        label,
        "region 1",
        regions.get(1).cloned(),
        Some((1, 1, "IBUF_BITMAP".into(), 1)),
    );
    // index root at page 3: an INDEX page at the top level of its index.
    let root = row_at(&rows, 3);
    c.eq(
        label,
        "page 3 type",
        root.map(|r| r.page_type.as_str()),
        Some("INDEX"),
    );
    let root_id = root.and_then(|r| r.index_id);
    let top = rows
        .iter()
        .filter(|r| r.index_id == root_id)
        .filter_map(|r| r.level)
        .max();
    c.eq(
        label,
        "page 3 level is its index's top level",
        root.and_then(|r| r.level),
        top,
    );
    c.eq(
        label,
        "pages at page 3's level of its index",
        rows.iter()
            .filter(|r| r.index_id == root_id && r.level == top)
            .count(),
        1,
    );
    c.finish("sakila_compact_film_matches_innodb_ruby_space_spec");
}

/// The other innodb_ruby specs whose facts our page headers can show.
#[test]
fn innodb_ruby_spec_files_match() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let mut c = Checks::default();

    // hello_world.rb: PRIMARY is index 29 (page 3), `message` is index 30
    // (page 4); rows (1, ...), (2, ...).
    let label = "hello_world.ibd";
    let space = open(&ruby("hello_world.ibd"));
    let rows = page_rows(&space);
    for (page, id) in [(3, 29), (4, 30)] {
        let r = row_at(&rows, page);
        c.eq(
            label,
            &format!("page {page} (type, index id)"),
            r.map(|r| (r.page_type.as_str(), r.index_id)),
            Some(("INDEX", Some(id))),
        );
        c.eq(
            label,
            &format!("page {page} (level, records)"),
            r.map(|r| (r.level, r.records)),
            Some((Some(0), Some(2))),
        );
    }

    // index_spec.rb on t_10k_rows.ibd: clustered index rooted at page 3, keys
    // 1..10000, the first leaf record is on page 4 and 901 records later the
    // cursor is past page 4.
    let label = "t_10k_rows.ibd";
    let space = open(&ruby("t_10k_rows.ibd"));
    let rows = page_rows(&space);
    let root_id = row_at(&rows, 3).and_then(|r| r.index_id);
    let stats = index_stats(&rows, &["INDEX"]);
    let s = root_id
        .and_then(|id| stats.get(&id))
        .cloned()
        .unwrap_or_default();
    c.eq(
        label,
        "page 3 type",
        row_at(&rows, 3).map(|r| r.page_type.as_str()),
        Some("INDEX"),
    );
    c.eq(
        label,
        "page 3 is the root (top level)",
        row_at(&rows, 3).and_then(|r| r.level),
        s.levels.last().copied(),
    );
    c.eq(
        label,
        "records on the clustered index's leaves (keys 1..10000)",
        s.leaf_records,
        10000,
    );
    let p4 = row_at(&rows, 4);
    c.eq(
        label,
        "page 4 (index id, level)",
        p4.map(|r| (r.index_id, r.level)),
        Some((root_id, Some(0))),
    );
    c.ok(
        label,
        p4.and_then(|r| r.records)
            .is_some_and(|n| (1..=901).contains(&n)),
        || {
            format!(
                "page 4 holds {:?} records; the spec leaves it after at most 901",
                p4.and_then(|r| r.records)
            )
        },
    );
    // The first leaf record is on page 4: page 4 is the leftmost leaf.
    c.eq(
        label,
        "page 4 FIL_PAGE_PREV",
        page_fields(&space, 4).get("FIL_PAGE_PREV").copied(),
        Some(FIL_NULL),
    );

    // record_describer_spec.rb on t_record_describer.ibd (space id 6):
    // clustered index at page 3, whose root is level 1 and whose min node
    // pointer points at child page 10; 210 records; an externally stored
    // column on page 5 of space 6; secondary index at page 4 with 210 records.
    let label = "t_record_describer.ibd";
    let space = open(&ruby("t_record_describer.ibd"));
    let rows = page_rows(&space);
    let p3 = row_at(&rows, 3);
    let clustered = p3.and_then(|r| r.index_id);
    c.eq(
        label,
        "space id",
        summary(&space)["space_id"].as_u64(),
        Some(6),
    );
    c.eq(
        label,
        "page 3 (type, level)",
        p3.map(|r| (r.page_type.as_str(), r.level)),
        Some(("INDEX", Some(1))),
    );
    let stats = index_stats(&rows, &["INDEX"]);
    c.eq(
        label,
        "clustered leaf records",
        clustered
            .and_then(|id| stats.get(&id))
            .map(|s| s.leaf_records),
        Some(210),
    );
    // The min record of a level-1 root points at the leftmost leaf.
    let p10 = row_at(&rows, 10);
    c.eq(
        label,
        "child page 10 (index id, level)",
        p10.map(|r| (r.index_id, r.level)),
        Some((clustered, Some(0))),
    );
    c.eq(
        label,
        "child page 10 FIL_PAGE_PREV",
        page_fields(&space, 10).get("FIL_PAGE_PREV").copied(),
        Some(FIL_NULL),
    );
    let p4 = row_at(&rows, 4);
    c.ok(
        label,
        p4.and_then(|r| r.index_id)
            .is_some_and(|id| Some(id) != clustered),
        || {
            format!(
                "page 4 should be the secondary index's root, ours index id {:?}",
                p4.and_then(|r| r.index_id)
            )
        },
    );
    c.eq(
        label,
        "page 4 (level, records)",
        p4.map(|r| (r.level, r.records)),
        Some((Some(0), Some(210))),
    );
    c.eq(
        label,
        "page 5 (extern field) type",
        row_at(&rows, 5).map(|r| r.page_type.as_str()),
        Some("BLOB"),
    );
    c.eq(
        label,
        "page 5 FIL_PAGE_SPACE_ID",
        page_fields(&space, 5).get("FIL_PAGE_SPACE_ID").copied(),
        Some(6),
    );

    c.finish("innodb_ruby_spec_files_match");
}

/// innodb_ruby's sakila tables: (table, rows, clustered B-tree height), from
/// its spec data README: "actor 200, address 603, category 16, city 600,
/// country 109, customer 599, film 1000, film_actor 5462, film_category
/// 1000, film_text 1000 (5.7/8.0/8.4 only), inventory 4581, language 6,
/// staff 2, store 2. B-tree heights: address, city, customer, film,
/// film_actor, film_category, film_text, inventory = 2 levels; the others = 1."
const SAKILA_TABLES: [(&str, u64, usize); 14] = [
    ("actor", 200, 1),
    ("address", 603, 2),
    ("category", 16, 1),
    ("city", 600, 2),
    ("country", 109, 1),
    ("customer", 599, 2),
    ("film", 1000, 2),
    ("film_actor", 5462, 2),
    ("film_category", 1000, 2),
    ("film_text", 1000, 2),
    ("inventory", 4581, 2),
    ("language", 6, 1),
    ("staff", 2, 1),
    ("store", 2, 1),
];

/// The sakila copies (their directories), each with the pages of staff 1's
/// picture in `staff.ibd`, by our page type: 3 BLOB pages (type 10) in
/// compact/redundant/5.7; LOB_FIRST (24) + 2 LOB_DATA (23) in 8.0/8.4;
/// untyped (0) pages in 5.0 (checked in `mysql50_pages_are_untyped`).
#[rustfmt::skip]
const STAFF_PICTURE_PAGES: [(&str, &[(&str, u64)]); 6] = [
    ("5.0",       &[]),
    ("compact",   &[("BLOB", 3)]),
    ("redundant", &[("BLOB", 3)]),
    ("5.7",       &[("BLOB", 3)]),
    ("8.0",       &[("LOB_FIRST", 1), ("LOB_DATA", 2)]),
    ("8.4",       &[("LOB_FIRST", 1), ("LOB_DATA", 2)]),
];

/// Sakila row counts and B-tree heights per version directory, the staff
/// BLOB pages ([`STAFF_PICTURE_PAGES`]), and the 5.7 SPATIAL index.
#[test]
fn sakila_row_counts_heights_and_blob_pages() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let tables = SAKILA_TABLES;
    let mut c = Checks::default();
    for (dir, picture_pages) in STAFF_PICTURE_PAGES {
        for (table, rows_expected, height) in tables {
            if table == "film_text" && !["5.7", "8.0", "8.4"].contains(&dir) {
                continue;
            }
            let label = format!("sakila/{dir}/sakila/{table}.ibd");
            let space = open(&ruby(&format!("sakila/{dir}/sakila/{table}.ibd")));
            let rows = page_rows(&space);
            // The clustered index is the first one created: its root is the
            // lowest-numbered INDEX page (3, or 4 after the SDI root in 8.0+).
            let clustered = rows
                .iter()
                .find(|r| r.page_type == "INDEX")
                .and_then(|r| r.index_id);
            let s = clustered
                .and_then(|id| index_stats(&rows, &["INDEX"]).remove(&id))
                .unwrap_or_default();
            c.eq(
                &label,
                "clustered index leaf records",
                s.leaf_records,
                rows_expected,
            );
            c.eq(&label, "clustered index levels", s.levels.len(), height);
        }
        let label = format!("sakila/{dir}/sakila/staff.ibd");
        let types =
            summary(&open(&ruby(&format!("sakila/{dir}/sakila/staff.ibd"))))["page_types"].clone();
        let count = |t: &str| types[t].as_u64().unwrap_or(0);
        for (t, n) in picture_pages {
            c.eq(&label, &format!("{t} pages"), count(t), *n);
        }
    }
    // 5.7/: "address.ibd has a SPATIAL index (RTREE pages 17854)".
    let space = open(&ruby("sakila/5.7/sakila/address.ibd"));
    let rtree = page_fields_of_type(&space, "RTREE");
    c.ok("sakila/5.7/sakila/address.ibd", !rtree.is_empty(), || {
        "no RTREE pages".into()
    });
    for (page, raw_type) in rtree {
        c.eq(
            "sakila/5.7/sakila/address.ibd",
            &format!("page {page} FIL_PAGE_TYPE"),
            raw_type,
            Some(17854),
        );
    }
    c.finish("sakila_row_counts_heights_and_blob_pages");
}

/// (page, raw FIL_PAGE_TYPE) of every page whose type we name `name`.
fn page_fields_of_type(space: &Tablespace, name: &str) -> Vec<(u32, Option<u64>)> {
    page_rows(space)
        .iter()
        .filter(|r| r.page_type == name)
        .map(|r| {
            (
                r.page,
                page_fields(space, r.page).get("FIL_PAGE_TYPE").copied(),
            )
        })
        .collect()
}

/// MySQL 5.0 does not stamp FSP_HDR, IBUF_BITMAP and BLOB pages: they carry
/// FIL_PAGE_TYPE 0, only INODE (3) and INDEX (17855) are typed;
/// `staff.ibd` = [0,0,3,17855,17855,17855,0,0,0]. Those pages are not empty,
/// so the checksum column must show them verifying (`innodb`), not `all_zero`.
#[test]
fn mysql50_pages_are_untyped() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let m = manifest();
    let mut c = Checks::default();
    // staff.ibd through the CLI's `pages` JSON.
    let file = ruby("sakila/5.0/sakila/staff.ibd");
    let (v, out) = support::run_json([OsStr::new("pages"), file.as_os_str()]);
    assert!(out.status.success(), "pages {} failed", file.display());
    let label = "sakila/5.0/sakila/staff.ibd";
    let name = |t: u64| match t {
        0 => "ALLOCATED",
        3 => "INODE",
        17855 => "INDEX",
        _ => "?",
    };
    let expected: Vec<&str> = [0, 0, 3, 17855, 17855, 17855, 0, 0, 0]
        .into_iter()
        .map(name)
        .collect();
    let pages = v["pages"].as_array().expect("pages");
    let ours: Vec<&str> = pages
        .iter()
        .map(|p| p["type"].as_str().unwrap_or("?"))
        .collect();
    c.eq(label, "page types", ours, expected);
    let cksum = m
        .ibd_row(
            "jeremycole__innodb_ruby",
            "spec/data/sakila/5.0/sakila/staff.ibd",
        )
        .get("cksum")
        .to_string();
    for p in pages {
        c.eq(
            label,
            &format!("page {} checksum", p["page"]),
            p["checksum"].as_str(),
            Some(our_checksum_name(&cksum)),
        );
    }
    // Every 5.0 file: pages 0 (FSP_HDR) and 1 (IBUF_BITMAP) are untyped but
    // verify; no page carries a type other than 0, 3 and 17855.
    for r in m
        .ibd_rows()
        .iter()
        .filter(|r| r.get("version") == "MySQL 5.0")
    {
        let label = r.label();
        let space = open(&r.file());
        let rows = page_rows(&space);
        for page in [0, 1] {
            let p = row_at(&rows, page);
            c.eq(
                &label,
                &format!("page {page} type"),
                p.map(|p| p.page_type.as_str()),
                Some("ALLOCATED"),
            );
            c.eq(
                &label,
                &format!("page {page} checksum"),
                p.map(|p| p.checksum),
                Some(our_checksum_name(r.get("cksum"))),
            );
            c.eq(
                &label,
                &format!("page {page} FIL_PAGE_TYPE"),
                page_fields(&space, page).get("FIL_PAGE_TYPE").copied(),
                Some(0),
            );
        }
        let types: BTreeSet<&str> = rows.iter().map(|r| r.page_type.as_str()).collect();
        c.ok(
            &label,
            types
                .iter()
                .all(|t| ["ALLOCATED", "INODE", "INDEX"].contains(t)),
            || format!("page types {types:?} beyond 0/3/17855"),
        );
    }
    c.finish("mysql50_pages_are_untyped");
}

/// innodb_ruby's `each_index` on `sakila/compact/sakila/film.ibd` yields 4
/// indexes: the segments report finds 4.
#[test]
fn segments_name_the_4_indexes_of_sakila_film() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let mut c = Checks::default();
    let film = ruby("sakila/compact/sakila/film.ibd");
    let space = open(&film);
    let report = SegmentsReport::new(&space, &SpaceAccount::build(&space).unwrap());
    c.eq(
        "sakila/compact/sakila/film.ibd",
        "indexes",
        report.indexes.len(),
        4,
    );
    c.finish("segments_name_the_4_indexes_of_sakila_film");
}

/// The B+tree walks against innodb_ruby's facts: sakila row counts and
/// heights in six server versions (the clustered index is the one with the
/// lowest root page that is no SDI root; every secondary index has one entry
/// per row too) and the empty `t_empty.ibd` root page. No walk finds
/// anything.
#[test]
fn tree_walks_match_the_owners_facts() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let tables = SAKILA_TABLES;
    let mut c = Checks::default();
    for dir in ["5.0", "compact", "redundant", "5.7", "8.0", "8.4"] {
        for (table, rows, height) in tables {
            if table == "film_text" && !["5.7", "8.0", "8.4"].contains(&dir) {
                continue;
            }
            let label = format!("sakila/{dir}/sakila/{table}.ibd");
            let space = open(&ruby(&format!("sakila/{dir}/sakila/{table}.ibd")));
            let a = IndexAnalysis::build(&space).unwrap();
            c.ok(&label, a.account.findings.is_empty(), || {
                format!("findings {:?}", a.account.findings)
            });
            let mut user: Vec<_> = a
                .indexes
                .iter()
                .map(|(s, _)| s)
                .filter(|s| s.index_id != SDI_INDEX_ID)
                .collect();
            user.sort_by_key(|s| s.root_page);
            let Some(clustered) = user.first() else {
                c.ok(&label, false, || "no index".into());
                continue;
            };
            c.eq(&label, "clustered records", clustered.records, rows);
            c.eq(&label, "clustered levels", clustered.levels, height as u64);
            for s in &user[1..] {
                // film_text's FULLTEXT index keeps its entries elsewhere; every
                // other secondary index holds one entry per row.
                c.eq(
                    &label,
                    &format!("index {} records", s.index_id),
                    s.records,
                    rows,
                );
            }
        }
    }

    // page/index_spec.rb on t_empty.ibd page 3: an empty root.
    let space = open(&ruby("t_empty.ibd"));
    let a = IndexAnalysis::build(&space).unwrap();
    let (root, _) = a
        .indexes
        .iter()
        .find(|(s, _)| s.root_page == 3)
        .expect("root 3");
    c.eq("t_empty.ibd", "records", root.records, 0);
    c.eq("t_empty.ibd", "levels", root.levels, 1);
    let d = PageDetail::build(&space, 3).unwrap();
    let r = d.records.expect("records of page 3");
    c.eq("t_empty.ibd", "free space", r.space.free_bytes, 16252);
    c.eq("t_empty.ibd", "record space", r.space.data_bytes, 0);
    c.eq("t_empty.ibd", "used space", 16384 - r.space.free_bytes, 132);
    c.eq("t_empty.ibd", "records listed", r.records.len(), 0);
    c.finish("tree_walks_match_the_owners_facts");
}

/// The first row of sakila's actor, film and customer tables, as sakila's
/// data loads them: (table, column, value as text).
#[rustfmt::skip]
const SAKILA_FIRST_ROWS: [(&str, &str, &str); 11] = [
    ("actor",    "actor_id",         "1"),
    ("actor",    "first_name",       "PENELOPE"),
    ("actor",    "last_name",        "GUINESS"),
    ("film",     "title",            "ACADEMY DINOSAUR"),
    ("film",     "rating",           "PG"),
    ("film",     "rental_rate",      "0.99"),
    ("film",     "replacement_cost", "20.99"),
    ("film",     "special_features", "Deleted Scenes,Behind the Scenes"),
    ("customer", "first_name",       "MARY"),
    ("customer", "last_name",        "SMITH"),
    ("customer", "email",            "MARY.SMITH@sakilacustomer.org"),
];

/// The columns and values [`SAKILA_FIRST_ROWS`] gives for `table`.
fn sakila_first_row(table: &str) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
    SAKILA_FIRST_ROWS
        .iter()
        .filter(move |(t, ..)| *t == table)
        .map(|(_, column, value)| (*column, *value))
}

/// `records` with the columns of each MySQL 8.0+ file's own SDI: sakila's
/// tables in 8.0 and 8.4 give their row counts and known first rows
/// ([`SAKILA_FIRST_ROWS`]).
#[test]
fn records_from_the_sdi() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    use innodb_format::value::column_value::Value;
    let mut c = Checks::default();
    for dir in ["8.0", "8.4"] {
        for (table, rows, _) in SAKILA_TABLES {
            let label = format!("sakila/{dir}/sakila/{table}.ibd");
            let r = sdi_records(&ruby(&format!("sakila/{dir}/sakila/{table}.ibd")), false);
            c.eq(&label, "rows", r.rows.len() as u64, rows);
            c.ok(&label, r.findings.is_empty(), || {
                format!("findings {:?}", r.findings)
            });
            if table == "staff" {
                // Staff 1's picture: a MySQL 8 LOB (LOB_FIRST + 2 LOB_DATA
                // pages) holding a PNG image of 36,365 bytes.
                let i = r.fields.iter().position(|f| f.name == "picture").unwrap();
                let hex = match &r.rows[0].values[i] {
                    Value::Hex { hex } => hex.clone(),
                    other => format!("{other:?}"),
                };
                c.eq(&label, "picture bytes", hex.len() / 2, 36365);
                c.ok(&label, hex.starts_with("89504E470D0A1A0A"), || {
                    format!("picture starts {}", &hex[..hex.len().min(16)])
                });
                c.ok(&label, hex.ends_with("49454E44AE426082"), || {
                    "the picture does not end with the PNG IEND chunk".into()
                });
            }
            for (column, value) in sakila_first_row(table) {
                c.eq(
                    &label,
                    &format!("{table} 1 {column}"),
                    cell_text(&r, 0, column),
                    value.to_string(),
                );
            }
        }
    }
    c.finish("records_from_the_sdi");
}

/// Runs `records FILE --ddl <sql> --format json [extra…]` and gives the
/// rows (`row` objects), the findings and the standard error; the exit
/// code is checked: 1 when a finding says the schema does not fit, else 0.
fn records_with_ddl(file: &Path, sql: &str, extra: &[&str]) -> (Vec<Value>, Vec<Value>, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let ddl = dir.path().join("table.sql");
    std::fs::write(&ddl, sql).expect("write DDL");
    let mut args: Vec<&OsStr> = vec![
        "--format".as_ref(),
        "json".as_ref(),
        "records".as_ref(),
        file.as_os_str(),
        "--ddl".as_ref(),
        ddl.as_os_str(),
    ];
    args.extend(extra.iter().map(OsStr::new));
    let out = support::run(args);
    let (mut rows, mut findings) = (Vec::new(), Vec::new());
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: Value = serde_json::from_str(line).expect("a JSON line");
        if let Some(r) = v.get("row") {
            rows.push(r.clone());
        } else if let Some(f) = v.get("finding") {
            findings.push(f.clone());
        }
    }
    // Exit 1 exactly when the schema does not fit the records.
    let misfit = findings.iter().any(|f| {
        f["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("the schema does not fit"))
    });
    assert_eq!(
        out.status.code(),
        Some(i32::from(misfit)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        rows,
        findings,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// innodb_ruby's typed tables read with `--ddl` statements written from its
/// record describers: `t_numeric_types` gives the six rows of
/// numeric_types_spec.rb (zero, minus one, one, minimum, maximum, random
/// values of every integer, float, DECIMAL and BIT type); `t_date_and_time_types`
/// the four rows of date_and_time_types_spec.rb, found to be in the temporal
/// storage format of MySQL before 5.6.4 (the newer reading does not fit and
/// the tool says so); `t_record_describer` its 210 records with the min
/// record of record_describer_spec.rb (a 16,384-byte BLOB, 768 bytes in the
/// record and the rest off-page), and 210 in its secondary index;
/// `hello_world` its two rows in both indexes.
#[test]
fn innodb_ruby_tables_read_with_their_ddl() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let mut c = Checks::default();
    let num = |v: &Value| {
        v.as_f64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
    };
    let (rows, findings, _) = records_with_ddl(
        &ruby("t_numeric_types.ibd"),
        "CREATE TABLE t_numeric_types (c01 INT UNSIGNED NOT NULL, c02 TINYINT, \
         c03 TINYINT UNSIGNED, c04 SMALLINT, c05 SMALLINT UNSIGNED, c06 MEDIUMINT, \
         c07 MEDIUMINT UNSIGNED, c08 INT, c09 INT UNSIGNED, c10 BIGINT, c11 BIGINT UNSIGNED, \
         c12 FLOAT, c13 FLOAT UNSIGNED, c14 DOUBLE, c15 DOUBLE UNSIGNED, c16 DECIMAL(10,0), \
         c17 DECIMAL(10,0) UNSIGNED, c18 DECIMAL(65,0), c19 DECIMAL(35,30), c20 BIT, \
         c21 BIT(32), c22 BIT(64), PRIMARY KEY (c01))",
        &[],
    );
    c.ok("t_numeric_types", findings.is_empty(), || {
        format!("{findings:?}")
    });
    // numeric_types_spec.rb's rows; BIT values as numbers, DECIMALs as text.
    let expected: [[&str; 21]; 6] = [
        [
            "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",
            "0", "0", "0", "0",
        ],
        [
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "0",
            "-1",
            "-1",
            "1",
            "4294967295",
            "18446744073709551615",
        ],
        [
            "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1",
            "1", "1", "1", "1",
        ],
        [
            "-128",
            "0",
            "-32768",
            "0",
            "-8388608",
            "0",
            "-2147483648",
            "0",
            "-9223372036854775808",
            "0",
            "-1.1754943508222875e-38",
            "0",
            "-2.2250738585072014e-208",
            "0",
            "-9999999999",
            "0",
            "-99999999999999999999999999999999999999999999999999999999999999999",
            "-99999.999999999999999999999999999999",
            "0",
            "0",
            "0",
        ],
        [
            "127",
            "255",
            "32767",
            "65535",
            "8388607",
            "16777215",
            "2147483647",
            "4294967295",
            "9223372036854775807",
            "18446744073709551615",
            "3.4028234663852886e+38",
            "3.4028234663852886e+38",
            "1.7976931348623157e+308",
            "1.7976931348623157e+308",
            "9999999999",
            "9999999999",
            "99999999999999999999999999999999999999999999999999999999999999999",
            "99999.999999999999999999999999999999",
            "1",
            "4294967295",
            "18446744073709551615",
        ],
        [
            "-92",
            "216",
            "-21244",
            "37375",
            "-2029076",
            "13161062",
            "-561256167",
            "2859565307",
            "-2989164089322500559",
            "4909805763357741578",
            "8.007314291015967e+37",
            "2.3826953364781035e+38",
            "-1.0024988592301854e+308",
            "3.8077578553713446e+307",
            "-2118290683",
            "7554694345",
            "36896958284301606307227443682014665342058559023876912710455539626",
            "59908.987290718443144993967601373349",
            "0",
            "1882703476",
            "10559002278153011522",
        ],
    ];
    c.eq("t_numeric_types", "rows", rows.len(), 6);
    for (i, (row, want)) in rows.iter().zip(&expected).enumerate() {
        for (k, w) in want.iter().enumerate() {
            let col = format!("c{:02}", k + 2);
            let ours = &row[&col];
            let ok = match (k, ours) {
                // FLOAT: the same 4-byte float (the spec gives its exact
                // double image, we its shortest digits); DOUBLE: the same
                // number (serde_json's parser may be one unit in the last
                // place off).
                (10..=13, v) => num(v).zip(w.parse::<f64>().ok()).is_some_and(|(a, b)| {
                    let tolerance = if k <= 11 { 1e-7 } else { 1e-15 };
                    (a - b).abs() <= b.abs() * tolerance
                }),
                // DECIMAL(35,30) prints its 30 digits of scale.
                (17, Value::String(s)) => {
                    s.parse::<f64>().ok() == w.parse::<f64>().ok()
                        && s.starts_with(w.trim_end_matches(".0"))
                }
                (_, Value::String(s)) => s == w,
                (_, v) => serde_json::from_str::<Value>(w).ok().as_ref() == Some(v),
            };
            c.ok("t_numeric_types", ok, || {
                format!("row {i} {col}: ours {ours}, spec {w}")
            });
        }
    }

    let (rows, findings, stderr) = records_with_ddl(
        &ruby("t_date_and_time_types.ibd"),
        "CREATE TABLE t_date_and_time_types (c01 INT NOT NULL, c02 YEAR, c03 TIME, c04 DATE, \
         c05 DATETIME, c06 TIMESTAMP, PRIMARY KEY (c01))",
        &[],
    );
    c.ok("t_date_and_time_types", findings.is_empty(), || {
        format!("{findings:?}")
    });
    c.ok(
        "t_date_and_time_types",
        stderr.contains("before 5.6.4"),
        || stderr.clone(),
    );
    let expected = [
        [
            "0000",
            "00:00:00",
            "0000-00-00",
            "0000-00-00 00:00:00",
            "0000-00-00 00:00:00",
        ],
        [
            "1901",
            "-838:59:59",
            "1000-01-01",
            "1000-01-01 00:00:00",
            "1970-01-01 00:00:01",
        ],
        [
            "2155",
            "838:59:59",
            "9999-12-31",
            "9999-12-31 23:59:59",
            "2038-01-19 03:14:07",
        ],
        [
            "2153",
            "20:47:10",
            "3275-11-07",
            "5172-01-24 13:36:22",
            "1985-03-16 18:35:56",
        ],
    ];
    c.eq("t_date_and_time_types", "rows", rows.len(), 4);
    for (i, (row, want)) in rows.iter().zip(&expected).enumerate() {
        let ours: Vec<String> = ["c02", "c03", "c04", "c05", "c06"]
            .iter()
            .map(|k| match &row[*k] {
                Value::String(s) => s.clone(),
                // YEAR is a number; 0 is the zero year.
                v => format!("{:04}", v.as_u64().unwrap_or(u64::MAX)),
            })
            .collect();
        c.eq(
            "t_date_and_time_types",
            &format!("row {i}"),
            ours,
            want.map(String::from).to_vec(),
        );
    }

    let describer = "CREATE TABLE t_record_describer (c1 BIGINT UNSIGNED NOT NULL, c2 INT, \
         c3 VARCHAR(64), c4 INT NOT NULL, c5 VARCHAR(128) NOT NULL, c6 MEDIUMINT UNSIGNED, \
         c7 VARBINARY(512), c8 BIGINT UNSIGNED, c9 BLOB, PRIMARY KEY (c1, c4), KEY k (c6, c8)) \
         DEFAULT CHARSET=latin1";
    let (rows, findings, _) = records_with_ddl(&ruby("t_record_describer.ibd"), describer, &[]);
    c.ok("t_record_describer", findings.is_empty(), || {
        format!("{findings:?}")
    });
    c.eq("t_record_describer", "rows", rows.len(), 210);
    if let Some(r) = rows.first() {
        let blob = r["c9"]["hex"].as_str().unwrap_or("");
        c.eq(
            "t_record_describer",
            "min record",
            (
                r["c1"].clone(),
                r["c4"].clone(),
                r["DB_TRX_ID"].clone(),
                r["c2"].clone(),
                r["c3"].clone(),
                r["c5"].clone(),
                r["c6"].clone(),
                r["c7"].clone(),
                r["c8"].clone(),
            ),
            (
                1.into(),
                1.into(),
                2305.into(),
                (-1).into(),
                "1".repeat(64).into(),
                "1".repeat(128).into(),
                1.into(),
                Value::Null,
                1.into(),
            ),
        );
        // 768 bytes in the record + 15,616 off-page ("16384 - 768"), all '1'.
        c.ok(
            "t_record_describer",
            blob.len() == 2 * 16384
                && blob
                    .chars()
                    .collect::<Vec<_>>()
                    .chunks(2)
                    .all(|p| p == ['3', '1']),
            || format!("c9 is {} hex digits", blob.len()),
        );
    }
    let (rows, findings, _) = records_with_ddl(
        &ruby("t_record_describer.ibd"),
        describer,
        &["--index", "k"],
    );
    c.ok("t_record_describer k", findings.is_empty(), || {
        format!("{findings:?}")
    });
    c.eq("t_record_describer k", "rows", rows.len(), 210);
    if let Some(r) = rows.first() {
        c.eq(
            "t_record_describer k",
            "first",
            (
                r["c6"].clone(),
                r["c8"].clone(),
                r["c1"].clone(),
                r["c4"].clone(),
            ),
            (1.into(), 1.into(), 1.into(), 1.into()),
        );
    }

    let hello = "CREATE TABLE hello_world (id INT NOT NULL, message VARCHAR(100) NOT NULL, \
         author VARCHAR(100) NOT NULL, PRIMARY KEY (id), KEY message (message)) \
         ENGINE=InnoDB DEFAULT CHARSET=latin1";
    for index in ["PRIMARY", "message"] {
        let (rows, findings, _) =
            records_with_ddl(&ruby("hello_world.ibd"), hello, &["--index", index]);
        c.ok("hello_world", findings.is_empty(), || {
            format!("{findings:?}")
        });
        let got: Vec<(Value, Value)> = rows
            .iter()
            .map(|r| (r["id"].clone(), r["message"].clone()))
            .collect();
        c.eq(
            "hello_world",
            index,
            got,
            vec![(1.into(), "Hello".into()), (2.into(), "World".into())],
        );
        if index == "PRIMARY" {
            let authors: Vec<Value> = rows.iter().map(|r| r["author"].clone()).collect();
            c.eq(
                "hello_world",
                "authors",
                authors,
                vec!["Jack".into(), "Jill".into()],
            );
        }
    }
    assert!(c.checked >= 147, "{} checks", c.checked);
    c.finish("innodb_ruby_tables_read_with_their_ddl");
}

/// A `CREATE TABLE` that does not describe the file is said to be wrong —
/// a finding at the head of the output and a warning on stderr — rather
/// than giving quietly wrong values: hello_world read with other columns,
/// t_numeric_types read with date columns.
#[test]
fn a_ddl_that_does_not_fit_is_said_to_be_wrong() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    for (file, sql) in [
        (
            "hello_world.ibd",
            "CREATE TABLE hello_world (id INT NOT NULL, message CHAR(10) NOT NULL, n BIGINT, PRIMARY KEY (id))",
        ),
        (
            "t_numeric_types.ibd",
            "CREATE TABLE t (c01 INT UNSIGNED NOT NULL, c02 DATE, c03 VARCHAR(10), c04 DOUBLE, PRIMARY KEY (c01))",
        ),
    ] {
        let (_, findings, stderr) = records_with_ddl(&ruby(file), sql, &[]);
        let first = findings.first().and_then(|f| f["message"].as_str()).unwrap_or("");
        assert!(first.starts_with("the schema does not fit the records"), "{file}: {findings:?}");
        assert!(stderr.contains("the schema does not fit the records"), "{file}: {stderr}");
    }
}

/// A `CREATE TABLE` statement for a sakila table, written from the table's
/// definition in the MySQL 8.0 copy's SDI (`column_type_utf8`, nullability,
/// keys), with the older servers' default character set.
fn sakila_ddl(table: &str, dir: &str) -> String {
    let space = open(&ruby(&format!("sakila/8.0/sakila/{table}.ibd")));
    let sdi = SdiReport::build(&space).expect("the 8.0 SDI");
    let t = &sdi
        .records
        .iter()
        .find(|e| e.sdi_type == 1)
        .expect("the 8.0 SDI")
        .object["dd_object"];
    let columns = t["columns"].as_array().expect("the 8.0 SDI");
    // `address.location` (GEOMETRY, with its SPATIAL key) came with the
    // sakila of MySQL 5.7; the older copies do not have it.
    let in_version = |name: &str| dir == "5.7" || name != "location";
    let mut parts: Vec<String> = columns
        .iter()
        .filter(|c| c["hidden"] == 1 && in_version(c["name"].as_str().expect("the 8.0 SDI")))
        .map(|c| {
            format!(
                "`{}` {}{}",
                c["name"].as_str().expect("the 8.0 SDI"),
                c["column_type_utf8"].as_str().expect("the 8.0 SDI"),
                if c["is_nullable"] == false {
                    " NOT NULL"
                } else {
                    ""
                }
            )
        })
        .collect();
    for i in t["indexes"].as_array().expect("the 8.0 SDI") {
        let cols: Vec<String> = i["elements"]
            .as_array()
            .expect("the 8.0 SDI")
            .iter()
            .filter(|e| e["hidden"] == false)
            .map(|e| {
                format!(
                    "`{}`",
                    columns[e["column_opx"].as_u64().expect("the 8.0 SDI") as usize]["name"]
                        .as_str()
                        .expect("the 8.0 SDI")
                )
            })
            .collect();
        // Hidden indexes (FTS_DOC_ID_INDEX) are not declared.
        if cols.is_empty()
            || i["hidden"] == true
            || !cols.iter().all(|c| in_version(c.trim_matches('`')))
        {
            continue;
        }
        // dd::Index types: 1 PRIMARY, 2 UNIQUE, 3 MULTIPLE, 4 FULLTEXT, 5 SPATIAL.
        let kind = match i["type"].as_u64() {
            Some(4) => "FULLTEXT KEY",
            Some(5) => "SPATIAL KEY",
            _ => "KEY",
        };
        match i["name"].as_str().expect("the 8.0 SDI") {
            "PRIMARY" => parts.push(format!("PRIMARY KEY ({})", cols.join(", "))),
            name => parts.push(format!("{kind} `{name}` ({})", cols.join(", "))),
        }
    }
    format!(
        "CREATE TABLE `{table}` ({}) ENGINE=InnoDB DEFAULT CHARSET=utf8",
        parts.join(", ")
    )
}

/// Sakila in MySQL 5.0, 5.6 (COMPACT and REDUNDANT) and 5.7, whose
/// dictionary (ibdata1) is not in the snapshot, read with `--ddl`
/// statements written from the 8.0 copy's SDI: every table's row count, no
/// finding (so the records fit the statement, in every row format and both
/// temporal formats), the known first rows of actor, film and customer, and
/// staff 1's picture. The 5.7 `film_text` has the hidden FTS_DOC_ID its
/// FULLTEXT key brings; the older `address` has no `location` yet.
#[test]
fn sakila_of_older_servers_read_with_ddl() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let mut c = Checks::default();
    for dir in ["5.0", "compact", "redundant", "5.7"] {
        for (table, rows_expected, _) in SAKILA_TABLES {
            if table == "film_text" && dir != "5.7" {
                continue;
            }
            let label = format!("sakila/{dir}/{table}");
            let (rows, findings, _) = records_with_ddl(
                &ruby(&format!("sakila/{dir}/sakila/{table}.ibd")),
                &sakila_ddl(table, dir),
                &[],
            );
            c.eq(&label, "rows", rows.len() as u64, rows_expected);
            c.ok(&label, findings.is_empty(), || format!("{findings:?}"));
            let Some(first) = rows.first() else { continue };
            let get = |k: &str| {
                first[k]
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| first[k].to_string())
            };
            for (column, value) in sakila_first_row(table) {
                c.eq(
                    &label,
                    &format!("{table} 1 {column}"),
                    get(column),
                    value.to_string(),
                );
            }
            if table == "staff" {
                // The same 36,365-byte PNG as in 8.0: a BLOB chain (untyped
                // pages in 5.0) instead of a LOB.
                c.eq(
                    &label,
                    "picture",
                    first["picture"]["hex"]
                        .as_str()
                        .map(|h| (h.len() / 2, h[..16].to_string())),
                    Some((36365, "89504E470D0A1A0A".to_string())),
                );
            }
        }
    }
    c.finish("sakila_of_older_servers_read_with_ddl");
}

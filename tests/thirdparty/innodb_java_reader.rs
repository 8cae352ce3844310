//! `alibaba__innodb-java-reader`: the facts of its test suite
//! (`SimpleTableReaderTest`, the `deletion` tables) on the tables it keeps
//! for MySQL 5.6, 5.7 and 8.0.

// The helpers below are test code too (see `thirdparty`).
#![allow(clippy::panic, clippy::expect_used)]

use super::{
    cell_text, open, page_fields, page_rows, root, row_at, sdi_records, summary, Checks, FIL_NULL,
    N_HEAP_COMPACT,
};
use crate::support;
use innodb_analysis::rows::records::RowState;
use std::path::PathBuf;

fn java(path: &str) -> PathBuf {
    root()
        .join("alibaba__innodb-java-reader/innodb-java-reader/src/test/resources/testsuite")
        .join(path)
}

/// `simple/tb01.ibd` per server version, as SimpleTableReaderTest gives it:
/// (directory, pages = FSP size, fragment pages used, the types of the first
/// pages, root page).
#[rustfmt::skip]
const SIMPLE_TB01: [(&str, u64, u64, &[&str], u32); 3] = [
    ("mysql56", 6, 4, &["FSP_HDR", "IBUF_BITMAP", "INODE", "INDEX", "ALLOCATED", "ALLOCATED"], 3),
    ("mysql57", 6, 4, &["FSP_HDR", "IBUF_BITMAP", "INODE", "INDEX", "ALLOCATED", "ALLOCATED"], 3),
    ("mysql80", 7, 5, &["FSP_HDR", "IBUF_BITMAP", "INODE", "SDI", "INDEX"],                    4),
];

/// SimpleTableReaderTest ([`SIMPLE_TB01`]): tb01 has 6 pages in 5.6/5.7
/// (FSP size 6, pages used 4: FSP_HDR, IBUF_BITMAP, INODE, INDEX root at 3,
/// ALLOCATED, ALLOCATED) and 7 in 8.0 (used 5, SDI at 3, root INDEX at 4).
/// Root: level 0, 10 records, 12 heap records, COMPACT, prev/next FIL_NULL.
/// tb_redundant_format (5.6): REDUNDANT, 1 record on the root page.
#[test]
fn innodb_java_reader_simple_tables() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let mut c = Checks::default();
    for (dir, pages, used, types, root) in SIMPLE_TB01 {
        let label = format!("{dir}/simple/tb01.ibd");
        let space = open(&java(&format!("{dir}/simple/tb01.ibd")));
        let rows = page_rows(&space);
        let s = summary(&space);
        c.eq(&label, "page_count", s["page_count"].as_u64(), Some(pages));
        c.eq(&label, "fsp_size", s["fsp_size"].as_u64(), Some(pages));
        // "pages used" = FSP_FRAG_N_USED: the fragment pages handed out.
        c.eq(
            &label,
            "FSP_FRAG_N_USED",
            page_fields(&space, 0).get("FSP_FRAG_N_USED").copied(),
            Some(used),
        );
        let ours: Vec<&str> = rows
            .iter()
            .take(types.len())
            .map(|r| r.page_type.as_str())
            .collect();
        c.eq(&label, "page types", ours, types.to_vec());
        let f = page_fields(&space, root);
        c.eq(
            &label,
            &format!("root page {root} type"),
            row_at(&rows, root).map(|r| r.page_type.as_str()),
            Some("INDEX"),
        );
        c.eq(
            &label,
            "root PAGE_LEVEL",
            f.get("PAGE_LEVEL").copied(),
            Some(0),
        );
        c.eq(
            &label,
            "root PAGE_N_RECS",
            f.get("PAGE_N_RECS").copied(),
            Some(10),
        );
        c.eq(
            &label,
            "root PAGE_N_HEAP (12 records, compact)",
            f.get("PAGE_N_HEAP").copied(),
            Some(N_HEAP_COMPACT | 12),
        );
        c.eq(
            &label,
            "root (FIL_PAGE_PREV, FIL_PAGE_NEXT)",
            (
                f.get("FIL_PAGE_PREV").copied(),
                f.get("FIL_PAGE_NEXT").copied(),
            ),
            (Some(FIL_NULL), Some(FIL_NULL)),
        );
    }
    let label = "mysql56/simple/tb_redundant_format.ibd";
    let space = open(&java("mysql56/simple/tb_redundant_format.ibd"));
    let f = page_fields(&space, 3);
    c.eq(
        label,
        "root PAGE_N_RECS",
        f.get("PAGE_N_RECS").copied(),
        Some(1),
    );
    c.eq(
        label,
        "root PAGE_N_HEAP compact bit (REDUNDANT)",
        f.get("PAGE_N_HEAP").map(|n| n & N_HEAP_COMPACT),
        Some(0),
    );
    c.finish("innodb_java_reader_simple_tables");
}

/// `records` with the columns of the file's own SDI: innodb-java-reader's
/// `tb13` gives its 2000 visible rows with the values the test suite
/// inserted, and deleted rows (even ids up to 2000) from garbage lists.
#[test]
fn records_from_the_sdi() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let mut c = Checks::default();
    let r = sdi_records(&java("mysql80/deletion/tb13.ibd"), true);
    let label = "java-reader mysql80/deletion/tb13.ibd";
    let (mut live, mut recovered, mut wrong) = (0, 0, Vec::new());
    for (i, row) in r.rows.iter().enumerate() {
        let id: u64 = cell_text(&r, i, "id").parse().unwrap();
        let a: u64 = cell_text(&r, i, "a").parse().unwrap();
        let (b, cc) = (cell_text(&r, i, "b"), cell_text(&r, i, "c"));
        let tail = char::from(b'a' + (id % 26) as u8);
        let ok = if id <= 2000 {
            a == 2 * id && b == "A".repeat(16) && cc == format!("{}{tail}", "C".repeat(8))
        } else {
            a == 5 * id && b == "我".repeat(8) && cc == format!("{}{tail}", "你".repeat(4))
        };
        if !ok {
            wrong.push(format!("id {id}: a {a} b {b:?} c {cc:?}"));
        }
        match row.state {
            RowState::Live => live += 1,
            _ => {
                recovered += 1;
                if id > 2000 || !id.is_multiple_of(2) {
                    wrong.push(format!("deleted row {id} was never deleted"));
                }
                if row.confidence != Some(innodb_analysis::rows::records::Confidence::High) {
                    wrong.push(format!("deleted row {id}: confidence {:?}", row.confidence));
                }
            }
        }
    }
    c.eq(label, "visible rows", live, 2000);
    c.ok(label, wrong.is_empty(), || {
        wrong[..wrong.len().min(5)].join("; ")
    });
    c.eq(label, "deleted rows read back", recovered, 44);
    c.finish("records_from_the_sdi");
}

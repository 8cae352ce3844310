//! `page` decodes page bodies: TRX_SYS, rollback segment headers, undo
//! pages, the dictionary and change buffer headers and bitmaps, doublewrite
//! copies on the fixtures; LOB, SDI and R-tree pages on the third-party
//! files. Every decoded value is checked against what the server said
//! (the fixtures' truth.json: innochecksum's page dump, the server's
//! dictionary and recovery log) or against another structure written
//! independently (a MySQL 5.7 BLOB chain, a parent's MBR), never against
//! the parser that produced it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use crate::support;

use innodb_analysis::reports::page_detail::Section;
use innodb_analysis::reports::undo_report::UndoReport;
use innodb_analysis::PageDetail;
use innodb_browse::app::{Item, View};
use innodb_browse::{Action, App, Context};
use innodb_format::field::{Field, Pointer};
use innodb_space::{FindingKind, OpenOptions, Tablespace};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};

fn fixture(config: &str, name: &str) -> PathBuf {
    support::fixtures_dir()
        .join(config)
        .join("files")
        .join(format!("{name}.gz"))
}

fn truth(config: &str) -> Value {
    let p = support::fixtures_dir().join(config).join("truth.json");
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn open(path: &Path) -> Tablespace {
    Tablespace::open(path, OpenOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn detail(space: &Tablespace, n: u32) -> PageDetail {
    PageDetail::build(space, n).unwrap_or_else(|e| panic!("page {n}: {e}"))
}

/// The sections whose title starts with `prefix`.
fn sections<'a>(d: &'a PageDetail, prefix: &str) -> Vec<&'a Section> {
    d.sections
        .iter()
        .filter(|s| s.title.starts_with(prefix))
        .collect()
}

/// The one section whose title starts with `prefix`.
fn section<'a>(d: &'a PageDetail, prefix: &str) -> &'a Section {
    let found = sections(d, prefix);
    assert_eq!(
        found.len(),
        1,
        "page {}: sections {:?}",
        d.page,
        d.sections.iter().map(|s| &s.title).collect::<Vec<_>>()
    );
    found[0]
}

/// The first field named `name` of a section.
fn field<'a>(s: &'a Section, name: &str) -> &'a Field {
    s.fields
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no {name} in {}", s.title))
}

/// The page runs innochecksum's page dump gives a file (`[first, count, type]`).
fn type_runs(truth: &Value, file: &str) -> Vec<(u32, u32, String)> {
    truth["files"][file]["innochecksum"]["page_dump"]["type_runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r[0].as_u64().unwrap() as u32,
                r[1].as_u64().unwrap() as u32,
                r[2].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The pages of a file innochecksum gives the type `ty`.
fn pages_of_type(truth: &Value, file: &str, ty: &str) -> BTreeSet<u32> {
    type_runs(truth, file)
        .into_iter()
        .filter(|(_, _, t)| t == ty)
        .flat_map(|(first, n, _)| first..first + n)
        .collect()
}

/// The doublewrite area innochecksum skipped in a file (`[first, last]` ranges).
fn doublewrite_ranges(truth: &Value, file: &str) -> Vec<(u32, u32)> {
    truth["files"][file]["innochecksum"]["page_dump"]["marked_double_write_buffer"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r[0].as_u64().unwrap() as u32, r[1].as_u64().unwrap() as u32))
        .collect()
}

/// `../shared/thirdparty`, or `None` (the test skipped, saying so) when
/// it is absent and `INNODB_INSPECT_REQUIRE_THIRDPARTY` is not set.
fn thirdparty() -> Option<PathBuf> {
    support::thirdparty::present()
}

/// TRX_SYS (ibdata1 page 5 of the undo fixture): 128 rollback segment
/// slots; rollback segment 0 is ibdata1 page 6, and the slots naming each
/// undo tablespace name exactly the pages innochecksum calls SYS in that
/// file (43 in undo001, 42 in undo002 and undo003: rollback segments 1 to
/// 127 dealt round-robin). Each slot points at its page, typed: a page of
/// this file, or a page of another tablespace.
#[test]
fn trx_sys_slots_name_every_rollback_segment_header() {
    let t = truth("p16k-undo");
    let d = detail(&open(&fixture("p16k-undo", "ibdata1")), 5);
    assert_eq!(d.page_type, "TRX_SYS");
    assert_eq!(
        field(section(&d, "TRX_SYS header"), "TRX_SYS_FSEG_HEADER").pointer,
        Some(Pointer::FileAddr {
            page: 2,
            offset: 242
        })
    );
    let s = section(&d, "TRX_SYS rollback segment slots");
    assert_eq!(field(s, "TRX_SYS_RSEGS").value, 128);
    let slots: Vec<(u32, u32)> = s
        .fields
        .iter()
        .filter(|f| f.name == "TRX_SYS_RSEG_PAGE_NO")
        .map(|f| match f.pointer {
            Some(Pointer::Page(p)) => (0, p),
            Some(Pointer::SpacePage { space, page }) => {
                assert_ne!(space, 0, "a page of ibdata1 is a Page pointer");
                (space, page)
            }
            other => panic!("slot pointer {other:?}"),
        })
        .collect();
    assert_eq!(slots.len(), 128);
    assert_eq!(slots[0], (0, 6));
    assert!(pages_of_type(&t, "ibdata1", "SYS").contains(&6));
    for file in ["undo001", "undo002", "undo003"] {
        let space = t["files"][file]["space_id"].as_u64().unwrap() as u32;
        let named: BTreeSet<u32> = slots
            .iter()
            .filter(|(s, _)| *s == space)
            .map(|&(_, p)| p)
            .collect();
        assert_eq!(named, pages_of_type(&t, file, "SYS"), "{file}");
    }
    // Binary log position: MariaDB 10.3.5+ keeps it in the rollback
    // segment headers; the TRX_SYS field says it is absent.
    let b = section(&d, "TRX_SYS binary log position");
    assert_eq!(
        field(b, "TRX_SYS_MYSQL_LOG_MAGIC_N_FLD").meaning.as_deref(),
        Some("absent")
    );
    assert_eq!(b.fields.len(), 1);
}

/// Every rollback segment header of the undo fixture (the SYS pages the
/// TRX_SYS slots name, among them undo001 page 45, which page showed
/// with its FIL header and trailer only): the 10.3.5 format; their history
/// lists add up to the server's history list length (7); the greatest
/// binary log position they keep is the one the server recovered
/// (`./mysql-bin.000001` at 3327); each agrees with the undo report's row
/// for it.
#[test]
fn rollback_segment_headers_hold_the_history_and_the_binlog_position() {
    let t = truth("p16k-undo");
    let system = open(&fixture("p16k-undo", "ibdata1"));
    let undo: Vec<Tablespace> = ["undo001", "undo002", "undo003"]
        .iter()
        .map(|f| open(&fixture("p16k-undo", f)))
        .collect();
    let report = UndoReport::build(&system, &undo.iter().collect::<Vec<_>>(), None);
    assert_eq!(report.rollback_segments.len(), 128);
    let mut history = 0;
    let mut binlogs = Vec::new();
    for r in &report.rollback_segments {
        let space = if r.space_id == 0 {
            &system
        } else {
            &undo[r.space_id as usize - 1]
        };
        let d = detail(space, r.page);
        let label = format!("rseg {} (space {} page {})", r.id, r.space_id, r.page);
        assert_eq!(d.page_type, "SYS", "{label}");
        let h = section(&d, "rollback segment header");
        assert_eq!(field(h, "TRX_RSEG_FORMAT").value, 0, "{label}");
        let len = field(h, "TRX_RSEG_HISTORY").value;
        assert_eq!(len, r.history_length, "{label}");
        assert_eq!(
            field(h, "TRX_RSEG_HISTORY_SIZE").value,
            r.history_size_pages,
            "{label}"
        );
        history += len;
        let tail = section(&d, "after the undo slots (MariaDB 10.3.5+)");
        assert_eq!(
            Some(field(tail, "TRX_RSEG_MAX_TRX_ID").value),
            r.max_trx_id,
            "{label}"
        );
        let name = field(tail, "TRX_RSEG_BINLOG_NAME");
        if name.value > 0 {
            binlogs.push((
                name.meaning.clone().unwrap(),
                field(tail, "TRX_RSEG_BINLOG_OFFSET").value,
            ));
        }
        let slots = section(&d, "TRX_RSEG_UNDO_SLOTS");
        let used = field(slots, "TRX_RSEG_UNDO_SLOTS").value;
        assert_eq!(used, r.undo_slots_used, "{label}: undo slots");
        // Every segment in a slot, and those a commit took out of their
        // slot for purge, found through the history.
        assert_eq!(
            used + r.segments.get("to_purge").copied().unwrap_or(0),
            r.segments.values().sum::<u64>(),
            "{label}: undo segments"
        );
    }
    assert_eq!(history, t["history_list_length"].as_u64().unwrap());
    let recovered = &t["undo_scenario"]["recovery_startup"];
    assert_eq!(
        binlogs.iter().max(),
        Some(&(
            recovered["last_binlog_file"].as_str().unwrap().to_string(),
            recovered["last_binlog_position"].as_u64().unwrap()
        ))
    );
    // undo001 page 45: the header of rollback segment 127.
    let d = detail(&undo[0], 45);
    assert_eq!(
        field(section(&d, "rollback segment header"), "TRX_RSEG_FORMAT").value,
        0
    );
}

/// The undo pages of the undo tablespaces and of two system tablespaces
/// holding undo logs: the state of every undo segment header found (on a
/// segment's first page) is what innochecksum counted for the file (it
/// reads the state field of every undo page; on the other pages that field
/// holds a record offset and counts as "other"); every page's records chain
/// up to its free space or the next log. In the undo fixture the records
/// are the server's: 5 rounds of updates of the 3000 rows of t_undo
/// (table 19) and the 10 rows the prepared XA transaction updated in
/// t_ordered (table 18), whose log carries the XID XA RECOVER showed.
#[test]
fn undo_pages_show_segments_logs_and_records() {
    let cases = [
        ("p16k-undo", "undo001"),
        ("p16k-undo", "undo002"),
        ("p16k-undo", "undo003"),
        ("p16k", "ibdata1"),
        ("p4k-undo", "ibdata1"),
    ];
    let mut updates: BTreeMap<u64, u64> = BTreeMap::new();
    let mut xids = Vec::new();
    for (config, file) in cases {
        let t = truth(config);
        let space = open(&fixture(config, file));
        let skipped = doublewrite_ranges(&t, file);
        let mut states: BTreeMap<&str, u64> = BTreeMap::new();
        for n in 0..space.page_count() {
            if skipped.iter().any(|&(a, b)| (a..=b).contains(&n)) {
                continue;
            }
            let d = detail(&space, n);
            if d.page_type != "UNDO_LOG" {
                continue;
            }
            let label = format!("{config}/{file} page {n}");
            assert!(d.findings.is_empty(), "{label}: {:?}", d.findings);
            let ph = section(&d, "undo page header");
            let free = field(ph, "TRX_UNDO_PAGE_FREE").value;
            let seg = sections(&d, "undo segment header");
            let state = match seg.first() {
                Some(s) => match field(s, "TRX_UNDO_STATE").value {
                    1 => "active",
                    2 => "cached",
                    4 => "to_purge",
                    5 => "prepared",
                    _ => "other",
                },
                None => "other",
            };
            *states.entry(state).or_default() += 1;
            for (i, recs) in sections(&d, "undo records").into_iter().enumerate() {
                // The last record of the page's last run of records links to
                // the free space.
                let last = recs.fields.last().unwrap();
                let is_last_run = i + 1 == sections(&d, "undo records").len();
                if is_last_run {
                    assert_eq!((last.offset + last.size) as u64, free, "{label}");
                }
                for f in &recs.fields {
                    let table: u64 = f
                        .meaning
                        .as_deref()
                        .and_then(|m| m.split("table ").nth(1))
                        .and_then(|m| m.split(',').next())
                        .and_then(|m| m.parse().ok())
                        .unwrap();
                    if config == "p16k-undo" && f.name == "TRX_UNDO_UPD_EXIST_REC" {
                        *updates.entry(table).or_default() += 1;
                        assert!(
                            matches!(f.pointer, Some(Pointer::RollPtr { .. })),
                            "{label}: an update points at the older version"
                        );
                    }
                }
            }
            for log in sections(&d, "undo log header at ") {
                if let Some(x) = log.fields.iter().find(|f| f.name == "TRX_UNDO_XA_XID") {
                    xids.push((
                        config,
                        field(log, "TRX_UNDO_XA_FORMAT").value,
                        field(log, "TRX_UNDO_XA_TRID_LEN").value,
                        field(log, "TRX_UNDO_XA_BQUAL_LEN").value,
                        x.meaning.clone().unwrap(),
                        state,
                    ));
                }
            }
        }
        let want = &t["files"][file]["innochecksum"]["additional"]["undo_page_state"];
        for s in ["active", "cached", "to_purge", "prepared", "other"] {
            assert_eq!(
                states.get(s).copied().unwrap_or(0),
                want[s].as_u64().unwrap(),
                "{config}/{file}: undo pages in state {s}"
            );
        }
    }
    let t = truth("p16k-undo");
    let rows = t["undo_scenario"]["snapshot_view_before_updates"]["count"]
        .as_u64()
        .unwrap();
    let rounds = t["undo_scenario"]["update_rounds"].as_u64().unwrap();
    let xa = &t["undo_scenario"]["xa_prepared"];
    let table_id = |name: &str| {
        support::entry(&t, "tables", |x| x["name"] == name)["table_id"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(
        updates,
        BTreeMap::from([
            (table_id("test/t_undo"), rows * rounds),
            (
                table_id("test/t_ordered"),
                xa["rows_updated"].as_u64().unwrap()
            ),
        ])
    );
    let r = &xa["xa_recover"][0];
    let hex: String = r["data"]
        .as_str()
        .unwrap()
        .bytes()
        .map(|b| format!("{b:02x}"))
        .collect();
    let num = |v: &Value| v.as_str().unwrap().parse::<u64>().unwrap();
    let prepared: Vec<_> = xids
        .iter()
        .filter(|x| x.0 == "p16k-undo" && x.5 == "prepared")
        .map(|x| (x.1, x.2, x.3, x.4.clone()))
        .collect();
    assert_eq!(
        prepared,
        [(
            num(&r["formatID"]),
            num(&r["gtrid_length"]),
            num(&r["bqual_length"]),
            hex
        )]
    );
    // The other logs with an XID are binary-logged commits: the server's
    // internal XID (format 1, "MySQLXid" then the server id and query id).
    let mysql_xid: String = b"MySQLXid".iter().map(|b| format!("{b:02x}")).collect();
    for x in xids.iter().filter(|x| x.5 != "prepared") {
        assert_eq!((x.1, x.2, x.3), (1, 24, 0), "{x:?}");
        assert!(x.4.starts_with(&mysql_xid), "{x:?}");
    }
}

/// The dictionary header (page 7) of every fixture's ibdata1: the SYS_*
/// roots are the root pages innochecksum saw for index ids 1 (SYS_TABLES),
/// 5 (SYS_TABLE_IDS), 2 (SYS_COLUMNS), 3 (SYS_INDEXES) and 4 (SYS_FIELDS),
/// outside the doublewrite area (p4k: 8, 9, 11, 12, 13); the id counters
/// are at least the largest table, index and space ids the server listed,
/// and equal to them where no table was ever dropped (no undo scenario).
/// The change buffer header (page 3) names the INODE entry whose fragment
/// pages are the header page and the change buffer root (page 4, index id
/// 0xFFFFFFFF00000000 in innochecksum's dump).
#[test]
fn dictionary_and_change_buffer_headers() {
    let configs = [
        "p16k",
        "p16k-crc32",
        "p16k-instant",
        "p16k-offpage",
        "p16k-undo",
        "p32k",
        "p4k",
        "p4k-undo",
        "p64k",
        "p8k",
    ];
    for config in configs {
        let t = truth(config);
        let space = open(&fixture(config, "ibdata1"));
        let d = detail(&space, 7);
        let h = section(&d, "dictionary header");
        let dump = &t["files"]["ibdata1"]["innochecksum"]["page_dump"];
        let skipped = doublewrite_ranges(&t, "ibdata1");
        let mut roots: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
        for p in dump["index_pages"].as_array().unwrap() {
            let (page, id, level) = (
                p[0].as_u64().unwrap(),
                p[1].as_u64().unwrap(),
                p[2].as_u64().unwrap(),
            );
            if skipped
                .iter()
                .any(|&(a, b)| (u64::from(a)..=u64::from(b)).contains(&page))
            {
                continue;
            }
            let r = roots.entry(id).or_insert((page, level));
            if level > r.1 {
                *r = (page, level);
            }
        }
        for (name, id) in [
            ("DICT_HDR_TABLES", 1),
            ("DICT_HDR_TABLE_IDS", 5),
            ("DICT_HDR_COLUMNS", 2),
            ("DICT_HDR_INDEXES", 3),
            ("DICT_HDR_FIELDS", 4),
        ] {
            let f = field(h, name);
            assert_eq!(f.value, roots[&id].0, "{config}: {name}");
            assert_eq!(f.pointer, Some(Pointer::Page(f.value as u32)));
        }
        let max = |list: &str, key: &str| {
            t[list]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x[key].as_u64().unwrap())
                .max()
                .unwrap()
        };
        let dropped_some = t.get("undo_scenario").is_some();
        for (name, want) in [
            ("DICT_HDR_TABLE_ID", max("tables", "table_id")),
            ("DICT_HDR_INDEX_ID", max("indexes", "index_id")),
            ("DICT_HDR_MAX_SPACE_ID", max("tablespaces", "space_id")),
        ] {
            let got = field(h, name).value;
            assert!(got >= want, "{config}: {name} {got} < {want}");
            if !dropped_some {
                assert_eq!(got, want, "{config}: {name}");
            }
        }
        // The change buffer header and its segment.
        let ibuf = detail(&space, 3);
        let Some(Pointer::FileAddr { page, offset }) = field(
            section(&ibuf, "change buffer header"),
            "IBUF_TREE_SEG_HEADER",
        )
        .pointer
        else {
            panic!("{config}: IBUF_TREE_SEG_HEADER points nowhere");
        };
        let inode = detail(&space, page);
        let entry = inode
            .sections
            .iter()
            .find(|s| {
                s.title.starts_with("INODE entry")
                    && s.fields.first().map(|f| f.offset) == Some(usize::from(offset))
            })
            .unwrap_or_else(|| panic!("{config}: no INODE entry at {page}:{offset}"));
        assert_eq!(
            field(entry, "FSEG_FRAG_ARR").meaning.as_deref(),
            Some("pages 3, 4"),
            "{config}"
        );
        assert!(dump["index_pages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p[0] == 4 && p[1].as_u64() == Some(0xFFFF_FFFF_0000_0000)));
    }
}

/// The change buffer bitmap (page 1) of t_sec_before, a table with a
/// secondary index: the pages whose bits are set are all leaves of the
/// secondary index k_a (its id from the server's dictionary), none of the
/// clustered index, and none is a change buffer page. On the MariaDB
/// system tablespaces, which buffer no change, no bit is set.
#[test]
fn change_buffer_bitmap_marks_secondary_index_leaves() {
    for config in ["p16k", "p4k", "p8k", "p32k", "p64k"] {
        let t = truth(config);
        let index_id = |name: &str| {
            support::entry(&t, "indexes", |i| {
                i["table"] == "test/t_sec_before" && i["name"] == name
            })["index_id"]
                .as_u64()
                .unwrap()
        };
        let space = open(&fixture(config, "test/t_sec_before.ibd"));
        let d = detail(&space, 1);
        let s = section(&d, "change buffer bitmap");
        let runs = &s.fields[1..];
        assert!(!runs.is_empty(), "{config}: no bit set");
        let mut marked = 0;
        for r in runs {
            let meaning = r.meaning.as_deref().unwrap();
            assert!(
                !meaning.contains("change buffer page"),
                "{config}: {meaning}"
            );
            let pages = meaning.split(':').next().unwrap();
            let (a, b) = match pages.strip_prefix("pages ") {
                Some(range) => {
                    let (a, b) = range.split_once("..").unwrap();
                    (a.parse::<u32>().unwrap(), b.parse::<u32>().unwrap())
                }
                None => {
                    let p = pages.strip_prefix("page ").unwrap().parse().unwrap();
                    (p, p)
                }
            };
            assert_eq!(r.pointer, Some(Pointer::Page(a)));
            for p in a..=b {
                let leaf = detail(&space, p);
                let h = section(&leaf, "INDEX page header");
                assert_eq!(
                    (
                        field(h, "PAGE_INDEX_ID").value,
                        field(h, "PAGE_LEVEL").value
                    ),
                    (index_id("k_a"), 0),
                    "{config}: page {p}"
                );
                assert_ne!(field(h, "PAGE_INDEX_ID").value, index_id("PRIMARY"));
                marked += 1;
            }
        }
        assert_eq!(s.fields[0].value, marked, "{config}");
        let sys = detail(&open(&fixture(config, "ibdata1")), 1);
        let s = section(&sys, "change buffer bitmap");
        assert_eq!((s.fields.len(), s.fields[0].value), (1, 0), "{config}");
    }
}

/// The pages of ibdata1's doublewrite area: a copy names the page it
/// copies, and that page, read where it lives, belongs to the index
/// innochecksum saw in the copy. The area is the one TRX_SYS describes.
#[test]
fn doublewrite_copies_name_the_page_they_copy() {
    for config in ["p16k", "p4k", "p8k"] {
        let t = truth(config);
        let space = open(&fixture(config, "ibdata1"));
        let (first, last) = doublewrite_ranges(&t, "ibdata1")[0];
        let dw = detail(&space, 5);
        let dw = section(&dw, "TRX_SYS doublewrite");
        let block = first.abs_diff(last) / 2 + 1;
        assert_eq!(
            (
                field(dw, "TRX_SYS_DOUBLEWRITE_BLOCK1").value,
                field(dw, "TRX_SYS_DOUBLEWRITE_BLOCK2").value
            ),
            (u64::from(first), u64::from(first + block)),
            "{config}"
        );
        let index_of: BTreeMap<u64, u64> = t["files"]["ibdata1"]["innochecksum"]["page_dump"]
            ["index_pages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()))
            .collect();
        let mut copies = 0;
        for n in first..=last {
            let d = detail(&space, n);
            if !d.doublewrite_copy || d.checksum == "all_zero" {
                continue;
            }
            let c = section(&d, "doublewrite copy");
            let Some(Pointer::SpacePage { space: s, page }) = field(c, "FIL_PAGE_SPACE_ID").pointer
            else {
                panic!("{config} page {n}: no pointer");
            };
            copies += 1;
            if let (0, Some(id)) = (s, index_of.get(&u64::from(n))) {
                assert_eq!(
                    index_of.get(&u64::from(page)),
                    Some(id),
                    "{config}: page {n} copies page {page}"
                );
            }
        }
        assert!(copies > 0, "{config}: no copy in the doublewrite area");
    }
}

/// Page bodies in JSON: the pointer is typed (`list_node`, `page`), the
/// undo page of undo001 names the next page of its segment, which is the
/// next UNDO_LOG page innochecksum lists.
#[test]
fn json_pointers_are_typed() {
    let file = fixture("p16k-undo", "undo001");
    let (v, out) = support::run_json([OsStr::new("page"), file.as_os_str(), OsStr::new("46")]);
    assert!(out.status.success());
    let node = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["fields"].as_array().unwrap())
        .find(|f| f["name"] == "TRX_UNDO_PAGE_NODE")
        .unwrap();
    assert_eq!(node["pointer"]["list_node"]["prev"], Value::Null);
    assert_eq!(node["pointer"]["list_node"]["next"]["page"], 47);
    let t = truth("p16k-undo");
    assert!(pages_of_type(&t, "undo001", "UNDO_LOG").contains(&47));
    let lsn = v["sections"][0]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "FIL_PAGE_LSN")
        .unwrap();
    assert!(lsn.get("pointer").is_none(), "no pointer where none leads");
}

/// The browser follows typed pointers: a TRX_SYS slot to the rollback
/// segment header in this file, an undo page's list node to the next page,
/// a slot in another tablespace says where it leads.
#[test]
fn the_browser_follows_body_pointers() {
    let mut app = App::open(&fixture("p16k-undo", "ibdata1"), Context::default()).unwrap();
    goto(&mut app, 5);
    select(&mut app, |p, it| match it {
        Item::Field(s, f) => {
            p.detail.sections[s].fields[f].name == "TRX_SYS_RSEG_PAGE_NO"
                && p.detail.sections[s].fields[f].offset == 60
        }
        _ => false,
    });
    app.apply(Action::Open);
    assert_eq!(current_page(&app), 6);
    app.apply(Action::Back);
    select(&mut app, |p, it| match it {
        Item::Field(s, f) => p.detail.sections[s].fields[f].offset == 68,
        _ => false,
    });
    app.apply(Action::Open);
    assert_eq!(current_page(&app), 5);
    assert_eq!(app.status, "→ space 1 page 3: not in this file");

    let mut app = App::open(&fixture("p16k-undo", "undo001"), Context::default()).unwrap();
    goto(&mut app, 46);
    select(&mut app, |p, it| match it {
        Item::Field(s, f) => p.detail.sections[s].fields[f].name == "TRX_UNDO_PAGE_NODE",
        _ => false,
    });
    app.apply(Action::Open);
    assert_eq!(current_page(&app), 47);
}

fn goto(app: &mut App, n: u32) {
    app.wait_jobs();
    app.apply(Action::StartGoto);
    for c in n.to_string().chars() {
        app.apply(Action::Input(c));
    }
    app.apply(Action::Submit);
    app.wait_jobs();
}

fn current_page(app: &App) -> u32 {
    match app.view() {
        Some(View::Page(p)) => p.detail.page,
        _ => panic!("not a page view: {}", app.status),
    }
}

/// Moves the page view's selection to the first line matching `pred`.
fn select(app: &mut App, pred: impl Fn(&innodb_browse::app::PageView, Item) -> bool) {
    let (target, now) = match app.view() {
        Some(View::Page(p)) => (
            p.items
                .iter()
                .position(|&it| pred(p, it))
                .expect("a matching line"),
            p.selected,
        ),
        _ => panic!("not a page view"),
    };
    let step = if target > now {
        Action::Down
    } else {
        Action::Up
    };
    for _ in 0..target.abs_diff(now) {
        app.apply(step);
    }
}

fn ruby(rel: &str) -> Option<PathBuf> {
    thirdparty().map(|d| d.join("jeremycole__innodb_ruby/spec/data/sakila").join(rel))
}

/// sakila 8.0 `staff.ibd` (MANIFEST: the picture of staff 1 on LOB_FIRST +
/// 2 LOB_DATA pages): the first page's index lists 3 entries, the first
/// page and the two data pages, each data page holding what its entry says;
/// together they hold as many bytes as MySQL 5.7 stored for the same
/// picture in its old-style BLOB chain (the part lengths along
/// BTR_BLOB_HDR_NEXT_PAGE_NO).
#[test]
fn lob_pages_of_the_staff_picture() {
    let (Some(v80), Some(v57)) = (ruby("8.0/sakila/staff.ibd"), ruby("5.7/sakila/staff.ibd"))
    else {
        return;
    };
    let space = open(&v80);
    let first = detail(&space, 7);
    assert_eq!(first.page_type, "LOB_FIRST");
    let h = section(&first, "LOB first page header");
    assert_eq!(field(h, "OFFSET_INDEX_LIST").value, 3);
    let mut pieces = Vec::new();
    let mut at = match field(h, "OFFSET_INDEX_LIST").pointer {
        Some(Pointer::ListBase { first, .. }) => first,
        p => panic!("{p:?}"),
    };
    while let Some(a) = at {
        assert_eq!(
            a.page, 7,
            "the entries of a LOB this size are on its first page"
        );
        let e = first
            .sections
            .iter()
            .find(|s| s.title.ends_with(&format!(" at {}", a.offset)))
            .unwrap();
        let page = field(e, "OFFSET_PAGE_NO").value as u32;
        let len = field(e, "OFFSET_DATA_LEN").value;
        pieces.push((page, len));
        at = match field(e, "OFFSET_PREV/OFFSET_NEXT").pointer {
            Some(Pointer::ListNode { next, .. }) => next,
            None => None,
            p => panic!("{p:?}"),
        };
    }
    assert_eq!(pieces.len(), 3);
    assert_eq!(pieces[0], (7, field(h, "OFFSET_DATA_LEN").value));
    for &(page, len) in &pieces[1..] {
        let d = detail(&space, page);
        assert_eq!(d.page_type, "LOB_DATA");
        assert_eq!(
            field(section(&d, "LOB data page header"), "OFFSET_DATA_LEN").value,
            len
        );
    }
    let lob: u64 = pieces.iter().map(|p| p.1).sum();
    let old = open(&v57);
    let mut chain = 0;
    let mut page = 6;
    loop {
        let d = detail(&old, page);
        assert_eq!(d.page_type, "BLOB");
        let b = section(&d, "BLOB page header");
        chain += field(b, "BTR_BLOB_HDR_PART_LEN").value;
        match field(b, "BTR_BLOB_HDR_NEXT_PAGE_NO").pointer {
            Some(Pointer::Page(n)) => page = n,
            None => break,
            p => panic!("{p:?}"),
        }
    }
    assert_eq!((lob, chain), (36365, 36365));
}

/// The SDI pages of every sakila 8.0 file (MANIFEST: 2 SDI records, one
/// level): a table and a tablespace record; the bytes the `data` field
/// spans inflate to the length the record says, into the JSON of a
/// Table named after the file and of its Tablespace.
#[test]
fn sdi_records_of_every_sakila_8_0_file() {
    let Some(dir) = ruby("8.0/sakila") else {
        return;
    };
    let mut files = support::files_below(&dir, ".ibd");
    files.retain(|f| !f.to_string_lossy().contains("fts_"));
    assert!(files.len() >= 10);
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        let space = open(&file);
        let image = std::fs::read(&file).unwrap();
        let mut kinds = Vec::new();
        for n in 0..space.page_count() {
            let d = detail(&space, n);
            if d.page_type != "SDI" {
                continue;
            }
            for s in sections(&d, "SDI record at ") {
                let ty = field(s, "type").value;
                let len = field(s, "uncompressed_len").value as usize;
                let data = field(s, "data");
                assert_eq!(data.value, field(s, "compressed_len").value, "{stem}");
                let at = n as usize * d.physical_page_size + data.offset;
                let mut json = Vec::new();
                flate2::read::ZlibDecoder::new(&image[at..at + data.size])
                    .read_to_end(&mut json)
                    .unwrap();
                assert_eq!(json.len(), len, "{stem}: uncompressed_len");
                let v: Value = serde_json::from_slice(&json).unwrap();
                let object = v["dd_object_type"].as_str().unwrap().to_string();
                match ty {
                    1 => assert_eq!(v["dd_object"]["name"], stem.as_str()),
                    2 => assert_eq!(v["dd_object"]["name"], format!("sakila/{stem}").as_str()),
                    _ => panic!("{stem}: SDI type {ty}"),
                }
                kinds.push((ty, object));
            }
        }
        kinds.sort();
        assert_eq!(
            kinds,
            [(1, "Table".to_string()), (2, "Tablespace".to_string())],
            "{stem}"
        );
    }
}

/// The R-tree of sakila 5.7 `address.ibd` (MANIFEST: a SPATIAL index,
/// 603 rows): its leaves hold 603 points (an MBR whose minimum is its
/// maximum); every node pointer's MBR is the bounding box the server
/// computed for its child, equal to the box of the child's MBRs.
#[test]
fn rtree_node_pointers_bound_their_children() {
    let Some(file) = ruby("5.7/sakila/address.ibd") else {
        return;
    };
    let space = open(&file);
    let mbrs = |d: &PageDetail| -> Vec<[f64; 4]> {
        section(d, "R-tree records")
            .fields
            .iter()
            .filter(|f| f.name == "MBR")
            .map(|f| {
                let m = f.meaning.as_deref().unwrap();
                let (x, y) = m.split_once(", y ").unwrap();
                let (x0, x1) = x.strip_prefix("x ").unwrap().split_once("..").unwrap();
                let (y0, y1) = y.split_once("..").unwrap();
                [x0, x1, y0, y1].map(|v| v.parse::<f64>().unwrap())
            })
            .collect()
    };
    let mut points = 0;
    let mut parents = 0;
    for n in 0..space.page_count() {
        let d = detail(&space, n);
        if d.page_type != "RTREE" {
            continue;
        }
        let s = section(&d, "R-tree records");
        if s.title.ends_with("(leaf)") {
            for m in mbrs(&d) {
                assert_eq!((m[0], m[2]), (m[1], m[3]), "page {n}: a point");
                points += 1;
            }
            continue;
        }
        let children: Vec<u32> = s
            .fields
            .iter()
            .filter(|f| f.name == "node pointer child page")
            .map(|f| match f.pointer {
                Some(Pointer::Page(c)) => c,
                p => panic!("{p:?}"),
            })
            .collect();
        for (m, child) in mbrs(&d).into_iter().zip(children) {
            let c = mbrs(&detail(&space, child));
            let b = [
                c.iter().map(|m| m[0]).fold(f64::INFINITY, f64::min),
                c.iter().map(|m| m[1]).fold(f64::NEG_INFINITY, f64::max),
                c.iter().map(|m| m[2]).fold(f64::INFINITY, f64::min),
                c.iter().map(|m| m[3]).fold(f64::NEG_INFINITY, f64::max),
            ];
            assert_eq!(m, b, "page {n}: child {child}");
            parents += 1;
        }
    }
    assert_eq!((points, parents), (603, 3));
}

/// Every page of every fixture (and third-party) file: the body decoders
/// meet no structure they cannot read.
#[test]
fn every_real_page_decodes_without_problems() {
    let mut files = support::tablespaces_below(&support::fixtures_dir(), ".gz");
    if let Some(dir) = thirdparty() {
        files.extend(support::files_below(&dir, ".ibd"));
    }
    let mut pages = 0;
    let mut problems = Vec::new();
    for f in &files {
        let Ok(space) = Tablespace::open(f, OpenOptions::default()) else {
            continue;
        };
        for n in 0..space.page_count() {
            pages += 1;
            let Ok(d) = PageDetail::build(&space, n) else {
                continue;
            };
            problems.extend(
                d.findings
                    .iter()
                    .filter(|x| x.kind == FindingKind::Unreadable)
                    .map(|x| format!("{} page {n}: {x:?}", f.display())),
            );
        }
    }
    assert!(pages > 20_000, "{pages} pages");
    assert!(problems.is_empty(), "{problems:#?}");
}

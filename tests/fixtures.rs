//! Every fixture file made by a real MariaDB server (`fixtures/generate.sh`)
//! checked against the ground truth the server and its `innochecksum`
//! recorded beside it (`fixtures/<config>/truth.json`).

// In tests a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use innodb_analysis::reports::count_report::CountReport;
use innodb_analysis::reports::indexes::{IndexAnalysis, IndexesReport};
use innodb_analysis::reports::ownership::SpaceAccount;
use innodb_analysis::reports::space_reports::{ExtentsReport, SegmentsReport, WasteReport};
use innodb_analysis::reports::tree_report::TreeReport;
use innodb_analysis::rows::ddl::schema_from_ddl;
use innodb_analysis::rows::records::{RecordsReport, Schema};
use innodb_analysis::{PageFilter, PageList, Summary};
use innodb_space::dictionary::Dictionary;
use innodb_space::{OpenOptions, Tablespace};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One fixture file with its truth.
struct FixtureFile {
    config: String,
    name: String,
    gz: PathBuf,
    truth: Value,
    config_truth: Value,
}

fn configs(dir: &Path, fresh: bool) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for truth in support::files_below(dir, "truth.json") {
        let config = truth
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let v: Value = serde_json::from_slice(&std::fs::read(&truth).unwrap()).unwrap();
        // The MariaDB sets; the MySQL ones (mysql-*, made by
        // generate-mysql.sh, with truth of another shape) have their own tests.
        if !v["server_version"]
            .as_str()
            .is_some_and(|s| s.contains("MariaDB"))
        {
            continue;
        }
        // p16k-dropped (innodb_file_per_table=OFF: its tables share ibdata1,
        // and one was dropped) is the carving scenario, checked against its
        // truth by tests/carve_dropped.rs; these sweeps read a table per file.
        if v.get("dropped_scenario").is_some() {
            continue;
        }
        out.push((config, v));
    }
    // The committed set has all ten MariaDB configurations; a fresh run may have fewer.
    let expected = if fresh { 1 } else { 10 };
    assert!(
        out.len() >= expected,
        "expected {expected} fixture configurations in {}, found {}",
        dir.display(),
        out.len()
    );
    out
}

fn fixture_files(dir: &Path, fresh: bool) -> Vec<FixtureFile> {
    let mut out = Vec::new();
    for (config, truth) in configs(dir, fresh) {
        let files = truth["files"].as_object().expect("truth.files").clone();
        assert!(!files.is_empty(), "{config}: no files in truth.json");
        for (name, t) in files {
            let gz = dir.join(&config).join("files").join(format!("{name}.gz"));
            assert!(gz.exists(), "{} is missing", gz.display());
            out.push(FixtureFile {
                config: config.clone(),
                name,
                gz,
                truth: t,
                config_truth: truth.clone(),
            });
        }
    }
    out
}

/// The server's row of `INNODB_SYS_TABLES` for a `.ibd` file.
fn table_truth(f: &FixtureFile) -> Option<&Value> {
    f.config_truth["tables"]
        .as_array()?
        .iter()
        .find(|t| t["file"] == f.name.as_str())
}

fn open(path: &Path) -> Tablespace {
    Tablespace::open(path, OpenOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// innochecksum counts some page types together; fold our names the same way.
fn innochecksum_bucket(our_type: &str) -> &str {
    match our_type {
        // innochecksum's "Index page" covers B-tree and R-tree pages. (The
        // instant-ALTER root, type 18, is "Other type of page" to it.)
        "RTREE" => "INDEX",
        other => other,
    }
}

#[test]
fn every_fixture_file_matches_the_server_truth() {
    let mut problems = Vec::new();
    let mut index_rows_compared = 0;
    let (dir, fresh) = support::truth_fixtures_dir();
    let files = fixture_files(&dir, fresh);
    for f in &files {
        let label = format!("{}/{}", f.config, f.name);
        let space = open(&f.gz);
        let s = Summary::build(&space);
        let mut check = |ok: bool, what: String| {
            if !ok {
                problems.push(format!("{label}: {what}"));
            }
        };
        let table = table_truth(f);
        // Space id: the server's INNODB_SYS_TABLES, or the file's own record.
        let expected_space = table
            .map(|t| t["space_id"].as_u64().unwrap())
            .or_else(|| f.truth["space_id"].as_u64())
            .unwrap_or_else(|| panic!("{label}: truth has no space id"));
        check(
            u64::from(s.space_id) == expected_space,
            format!("space id {} != server {expected_space}", s.space_id),
        );
        // Page sizes: the server's innodb_page_size, and the zip size of COMPRESSED tables.
        let server_page = f.config_truth["page_size"].as_u64().unwrap() as usize;
        let zip = table.and_then(|t| t["zip_page_size"].as_u64()).unwrap_or(0) as usize;
        check(
            s.page_size == server_page,
            format!("page size {} != server {server_page}", s.page_size),
        );
        let physical = if zip != 0 { zip } else { server_page };
        check(
            s.physical_page_size == physical,
            format!("physical page size {} != {physical}", s.physical_page_size),
        );
        let bytes = f.truth["bytes"].as_u64().unwrap();
        check(
            u64::from(s.page_count) * physical as u64 == bytes,
            format!("{} pages x {physical} != {bytes} bytes", s.page_count),
        );
        check(
            s.fsp_size == Some(s.page_count),
            format!("FSP_SIZE {:?} != {} pages", s.fsp_size, s.page_count),
        );
        // Checksums: every page valid, under the algorithm the server was set to.
        let expected_algo = match (
            zip != 0,
            f.config_truth["checksum_algorithm"].as_str().unwrap(),
        ) {
            (true, _) => "zip_crc32",
            (false, "full_crc32") => "full_crc32",
            (false, "crc32") => "crc32",
            (false, other) => panic!("unexpected server checksum setting {other}"),
        };
        check(
            s.checksum_algorithm == expected_algo,
            format!(
                "checksum algorithm {} != {expected_algo}",
                s.checksum_algorithm
            ),
        );
        check(
            s.bad_checksums == 0,
            format!("{} bad checksums", s.bad_checksums),
        );
        check(s.findings.is_empty(), format!("findings: {:?}", s.findings));
        // Page types: innochecksum -S's counts. innochecksum cannot look inside
        // page-compressed pages (it counts them as "Page compressed page" in the
        // classic layout and "Other type of page" in full_crc32); we count them
        // under their real type, so compare the rest and the compressed total.
        let list = PageList::build(&space, &PageFilter::default());
        let mut ours: BTreeMap<String, u64> = BTreeMap::new();
        let (mut compressed, mut instant_roots, mut zblob2) = (0u64, 0u64, 0u64);
        for row in &list.pages {
            if row.compressed_bytes.is_some() {
                compressed += 1;
            } else if row.page_type == "ZBLOB2" {
                // innochecksum -S counts no ZBLOB2 page (only -D lists them).
                zblob2 += 1;
            } else if row.page_type == "INSTANT" {
                // MariaDB's instant-ALTER root: innochecksum 10.11 does not
                // know page type 18 and counts it as "Other type of page".
                instant_roots += 1;
            } else {
                *ours
                    .entry(innochecksum_bucket(&row.page_type).to_string())
                    .or_default() += 1;
            }
        }
        check(
            compressed == s.page_compressed_pages,
            "page-compressed count differs between reports".into(),
        );
        let ic = &f.truth["innochecksum"];
        let mut theirs: BTreeMap<String, u64> = ic["page_types"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
            .filter(|(_, v)| *v > 0)
            .collect();
        let their_compressed =
            theirs.remove("PAGE_COMPRESSED").unwrap_or(0) + theirs.remove("OTHER").unwrap_or(0);
        check(
            their_compressed == compressed + instant_roots,
            format!("innochecksum compressed/other pages {their_compressed} != our page-compressed {compressed} + instant-ALTER roots {instant_roots}"),
        );
        check(
            ours == theirs,
            format!("page types {ours:?} != innochecksum {theirs:?}"),
        );
        let their_zblob2: u64 = ic["page_dump"]["type_runs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r[2] == "ZBLOB2")
            .map(|r| r[1].as_u64().unwrap())
            .sum();
        check(
            zblob2 == their_zblob2,
            format!("ZBLOB2 pages: ours {zblob2}, innochecksum -D {their_zblob2}"),
        );
        // Index pages: innochecksum -S -D lists page, index id, level and record count.
        let their_index: Vec<(u64, u64, u64, u64)> = ic["page_dump"]["index_pages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let n = |i: usize| r[i].as_u64().unwrap();
                (n(0), n(1), n(2), n(3))
            })
            .collect();
        let our_index: Vec<(u64, u64, u64, u64)> = list
            .pages
            .iter()
            // innochecksum -D prints no line for pages it calls "other".
            .filter(|r| {
                r.compressed_bytes.is_none()
                    && r.page_type != "INSTANT"
                    && !f.truth_dblwr_page(r.page)
            })
            .filter_map(|r| {
                Some((
                    u64::from(r.page),
                    r.index_id?,
                    u64::from(r.level?),
                    u64::from(r.records?),
                ))
            })
            .collect();
        let their_index: Vec<_> = their_index
            .into_iter()
            .filter(|r| !f.truth_dblwr_page(r.0 as u32))
            .collect();
        index_rows_compared += their_index.len();
        check(
            our_index == their_index,
            format!(
                "index pages differ from innochecksum -D: ours {} rows, theirs {} rows; first difference {:?}",
                our_index.len(),
                their_index.len(),
                our_index.iter().zip(&their_index).find(|(a, b)| a != b)
            ),
        );
    }
    // The committed set: 83 files with 8725 index pages listed by innochecksum.
    let (min_files, min_index_rows) = if fresh { (5, 100) } else { (80, 8000) };
    assert!(
        files.len() >= min_files,
        "only {} fixture files",
        files.len()
    );
    assert!(
        index_rows_compared >= min_index_rows,
        "only {index_rows_compared} index pages compared with innochecksum"
    );
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

impl FixtureFile {
    /// Pages innochecksum skipped as doublewrite (or page-compressed) slots.
    fn truth_dblwr_page(&self, page: u32) -> bool {
        self.truth["innochecksum"]["page_dump"]["marked_double_write_buffer"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|r| {
                let (a, b) = (r[0].as_u64().unwrap(), r[1].as_u64().unwrap());
                (a..=b).contains(&u64::from(page))
            })
    }
}

/// The path a report shows for a fixture, independent of where the checkout is.
fn display_name(f: &FixtureFile) -> String {
    format!("fixtures/{}/files/{}.gz", f.config, f.name)
}

/// `summary` and `pages` JSON of every fixture file, pinned. The page rows are
/// written one compact JSON object per line to keep the snapshots readable.
#[test]
fn summary_and_pages_snapshots() {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        for f in fixture_files(&support::fixtures_dir(), false) {
            let space = open(&f.gz);
            let name = format!("{}__{}", f.config, f.name.replace('/', "__"));
            let mut summary = Summary::build(&space);
            summary.file = display_name(&f);
            insta::assert_snapshot!(
                format!("summary@{name}"),
                innodb_render::json::render(&summary)
            );
            let list = PageList::build(&space, &PageFilter::default());
            let mut out = format!(
                "{{\"file\": {:?}, \"findings\": {}, \"pages\": [\n",
                display_name(&f),
                serde_json::to_string(&list.findings).unwrap()
            );
            for (i, row) in list.pages.iter().enumerate() {
                out.push_str(&serde_json::to_string(row).unwrap());
                out.push_str(if i + 1 < list.pages.len() {
                    ",\n"
                } else {
                    "\n"
                });
            }
            out.push_str("]}\n");
            let reparsed: Value = serde_json::from_str(&out).expect("snapshot text is JSON");
            assert_eq!(
                reparsed["pages"].as_array().unwrap().len(),
                list.pages.len()
            );
            insta::assert_snapshot!(format!("pages@{name}"), out);
        }
    });
}

/// `mysql.innodb_index_stats` of one index, by stat name.
fn index_stats(config_truth: &Value, table: &str, index: &str) -> BTreeMap<String, u64> {
    config_truth["index_stats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["table"] == table && s["index"] == index)
        .map(|s| {
            (
                s["stat_name"].as_str().unwrap().to_string(),
                s["stat_value"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// `innodb_stats_persistent_sample_pages`: the generator leaves MariaDB's default.
const N_SAMPLE_PAGES: u64 = 20;

/// Every page of every fixture accounted for exactly once, every segment
/// named, no finding; and every index's segments agree with what the server
/// stored: `size` in `mysql.innodb_index_stats` is the pages both segments
/// reserve, the root page is `INNODB_SYS_INDEXES.PAGE_NO`, the level-0 page
/// count is innochecksum's per-index leaf count, and `n_leaf_pages` is the
/// pages the leaf segment uses, except where MariaDB scanned the whole leaf
/// level instead of sampling (`N_SAMPLE_PAGES × n_uniq` > leaf pages, see
/// `dict_stats_analyze_index`) and stored the placeholder 1.
#[test]
fn index_segments_match_the_server_statistics() {
    let mut problems = Vec::new();
    let (mut compared, mut full_scan_placeholders, mut leaf_counts) = (0, 0, 0);
    let (dir, fresh) = support::truth_fixtures_dir();
    for f in fixture_files(&dir, fresh) {
        let label = format!("{}/{}", f.config, f.name);
        let space = open(&f.gz);
        let account = SpaceAccount::build(&space).unwrap_or_else(|e| panic!("{label}: {e:?}"));
        let report = SegmentsReport::new(&space, &account);
        let mut fail = |m: String| problems.push(format!("{label}: {m}"));
        if account.counts.total() != u64::from(space.page_count()) {
            fail(format!(
                "pages accounted {} != pages in the file {}",
                account.counts.total(),
                space.page_count()
            ));
        }
        if !account.findings.is_empty() {
            fail(format!("findings: {:?}", account.findings));
        }
        for s in &report.segments {
            if s.owner == innodb_space::segment::SegmentOwner::Unknown {
                fail(format!("segment {} has no owner", s.id));
            }
        }
        let space_id = u64::from(space.space_id());
        // innochecksum's per-index leaf counts (-S) leave out pages its XDES
        // check finds free, but include the copies in ibdata1's doublewrite
        // buffer, which belong to no segment: take those copies (from its
        // per-page dump, -D) away.
        let mut checksum_leaves: BTreeMap<u64, u64> = f.truth["innochecksum"]["index_summary"]
            .as_array()
            .into_iter()
            .flatten()
            // innochecksum prints index ids as signed: the change buffer's
            // 0xFFFFFFFF00000000 appears as -4294967296.
            .map(|r| {
                (
                    r["index_id"].as_i64().unwrap() as u64,
                    r["leaf_pages"].as_u64().unwrap(),
                )
            })
            .collect();
        for r in f.truth["innochecksum"]["page_dump"]["index_pages"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let page = r[0].as_u64().unwrap();
            let id = r[1].as_u64().or(r[1].as_i64().map(|v| v as u64)).unwrap();
            if r[2].as_u64() == Some(0) && f.truth_dblwr_page(page as u32) {
                if let Some(n) = checksum_leaves.get_mut(&id) {
                    *n -= 1;
                }
            }
        }
        checksum_leaves.retain(|_, n| *n > 0);
        let other_pages = ["OTHER", "PAGE_COMPRESSED"]
            .iter()
            .map(|k| {
                f.truth["innochecksum"]["page_types"][k]
                    .as_u64()
                    .unwrap_or(0)
            })
            .sum::<u64>();
        let truth_indexes: Vec<&Value> = f.config_truth["indexes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["space_id"].as_u64() == Some(space_id))
            .collect();
        for ours in &report.indexes {
            let known = truth_indexes
                .iter()
                .any(|t| t["index_id"].as_u64() == Some(ours.index_id));
            // The truth lists the test database's indexes; the system
            // tablespace's own (dictionary tables) are checked against
            // innochecksum only.
            if !known && space_id != 0 {
                fail(format!(
                    "index {} (root {}) is not in INNODB_SYS_INDEXES",
                    ours.index_id, ours.root_page
                ));
            }
            if let Some(&leaves) = checksum_leaves.get(&ours.index_id) {
                leaf_counts += 1;
                if leaves != ours.leaf_pages {
                    fail(format!(
                        "index {}: leaf_pages {} != innochecksum {leaves}",
                        ours.index_id, ours.leaf_pages
                    ));
                }
            }
        }
        for &id in checksum_leaves.keys() {
            // The change buffer's tree (id 0xFFFFFFFF00000000 + space id) has
            // no segment headers on its root: it is the change-buffer segment.
            let change_buffer = id >> 32 == 0xFFFF_FFFF;
            if !change_buffer && !report.indexes.iter().any(|r| r.index_id == id) {
                fail(format!(
                    "innochecksum lists index {id}; we found no root for it"
                ));
            }
        }
        for t in truth_indexes {
            let id = t["index_id"].as_u64().unwrap();
            let Some(ours) = report.indexes.iter().find(|r| r.index_id == id) else {
                fail(format!(
                    "index {id} ({} {}) not found",
                    t["table"], t["name"]
                ));
                continue;
            };
            compared += 1;
            if Some(u64::from(ours.root_page)) != t["root_page"].as_u64() {
                fail(format!(
                    "index {id}: root {} != server {}",
                    ours.root_page, t["root_page"]
                ));
            }
            let table = t["table"].as_str().unwrap();
            let stats = index_stats(&f.config_truth, table, t["name"].as_str().unwrap());
            if stats.is_empty() {
                // Only the server's own tables (SYS_FOREIGN…) have no persistent statistics.
                if !table.starts_with("SYS_") {
                    fail(format!(
                        "index {id}: no innodb_index_stats rows for {table}"
                    ));
                }
                continue;
            }
            if Some(&ours.size_pages) != stats.get("size") {
                fail(format!(
                    "index {id}: size_pages {} != innodb_index_stats size {:?}",
                    ours.size_pages,
                    stats.get("size")
                ));
            }
            let n_uniq = stats.keys().filter(|k| k.starts_with("n_diff_pfx")).count() as u64;
            let expected_n_leaf = if N_SAMPLE_PAGES * n_uniq > ours.leaf_segment_used_pages {
                full_scan_placeholders += 1;
                1
            } else {
                ours.leaf_segment_used_pages
            };
            if Some(&expected_n_leaf) != stats.get("n_leaf_pages") {
                fail(format!(
                    "index {id}: n_leaf_pages {:?}, expected {expected_n_leaf} (leaf segment uses {}, n_uniq {n_uniq})",
                    stats.get("n_leaf_pages"),
                    ours.leaf_segment_used_pages
                ));
            }
            // innochecksum cannot look inside page-compressed pages (it counts
            // them as "Other type of page" or "Page compressed page") and so
            // has no leaf count for them.
            if !checksum_leaves.contains_key(&id) && other_pages == 0 {
                fail(format!("index {id}: innochecksum lists no leaf count"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        compared >= if fresh { 10 } else { 89 },
        "only {compared} indexes compared"
    );
    assert!(
        leaf_counts > 0 && full_scan_placeholders > 0,
        "{leaf_counts} leaf counts, {full_scan_placeholders} placeholders"
    );
}

/// Files whose space reports are pinned: two indexes at every page size, every
/// compressed table, a page-compressed table, a system and an undo tablespace.
fn space_snapshot_files() -> Vec<FixtureFile> {
    fixture_files(&support::fixtures_dir(), false)
        .into_iter()
        .filter(|f| {
            f.name.contains("t_sec_before")
                || f.name.contains("t_zip")
                || (f.config == "p16k" && (f.name == "ibdata1" || f.name.contains("t_pagecomp")))
                || (f.config == "p16k-undo" && f.name == "undo001")
        })
        .collect()
}

/// `extents` (text, no colour), `segments` and `waste` (JSON), pinned.
#[test]
fn space_report_snapshots() {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let files = space_snapshot_files();
    assert!(files.len() >= 25, "only {} files picked", files.len());
    settings.bind(|| {
        for f in files {
            let space = open(&f.gz);
            let account = SpaceAccount::build(&space).unwrap();
            let name = format!("{}__{}", f.config, f.name.replace('/', "__"));
            let mut extents = ExtentsReport::new(&space, &account);
            extents.header.file = display_name(&f);
            insta::assert_snapshot!(
                format!("extents@{name}"),
                innodb_render::space_text::extents(&extents, false)
            );
            let mut segments = SegmentsReport::new(&space, &account);
            segments.header.file = display_name(&f);
            insta::assert_snapshot!(
                format!("segments@{name}"),
                innodb_render::json::render(&segments)
            );
            let mut waste = WasteReport::new(&space, &account);
            waste.header.file = display_name(&f);
            insta::assert_snapshot!(format!("waste@{name}"), innodb_render::json::render(&waste));
        }
    });
}

/// `page` on the INODE pages and on page 0 shows the same segments and
/// extent descriptors the space map read: every segment entry with its
/// fragment pages, every descriptor in use with its state and used pages.
#[test]
fn page_detail_shows_every_segment_and_descriptor() {
    for f in fixture_files(&support::fixtures_dir(), false) {
        let label = format!("{}/{}", f.config, f.name);
        let space = open(&f.gz);
        let account = SpaceAccount::build(&space).unwrap();
        let map = &account.map;
        let mut shown = Vec::new();
        for &n in &map.inode_pages {
            let d = innodb_analysis::PageDetail::build(&space, n).unwrap();
            for s in d
                .sections
                .iter()
                .filter(|s| s.title.starts_with("INODE entry"))
            {
                let field = |name: &str| s.fields.iter().find(|x| x.name == name).unwrap().value;
                shown.push((field("FSEG_ID"), field("FSEG_FRAG_ARR")));
            }
        }
        let expected: Vec<(u64, u64)> = map
            .segments
            .iter()
            .map(|s| (s.id, s.frag_pages.len() as u64))
            .collect();
        assert_eq!(shown, expected, "{label}: INODE entries");

        let d = innodb_analysis::PageDetail::build(&space, 0).unwrap();
        let per_page = map.physical_page_size / map.extent_size;
        let shown: Vec<(String, u64)> = d
            .sections
            .iter()
            .filter(|s| s.title.starts_with("XDES entry"))
            .map(|s| {
                let state = s.fields.iter().find(|x| x.name == "XDES_STATE").unwrap();
                let bitmap = s.fields.iter().find(|x| x.name == "XDES_BITMAP").unwrap();
                (state.meaning.clone().unwrap(), bitmap.value)
            })
            .collect();
        let expected: Vec<(String, u64)> = map
            .extents
            .iter()
            .take(per_page as usize)
            .filter(|x| x.described && x.state.0 != 0)
            .map(|x| (x.state.to_string(), u64::from(x.used_pages)))
            .collect();
        assert!(
            !expected.is_empty(),
            "{label}: no descriptor in use on page 0"
        );
        assert_eq!(shown, expected, "{label}: XDES entries on page 0");
    }
}

/// Every index of every fixture table walked from its root: its leaf-level
/// records that are not delete-marked are the table's `COUNT(*)` (one per
/// row for a secondary index too), at every page size, in REDUNDANT,
/// page-compressed and every KEY_BLOCK_SIZE; its leaf pages are the ones
/// innochecksum counts and its size the server's `size`; no walk and no page
/// check finds anything.
#[test]
fn index_walks_count_the_rows_the_server_counted() {
    let (dir, fresh) = support::truth_fixtures_dir();
    let mut problems = Vec::new();
    let mut indexes = 0;
    for f in fixture_files(&dir, fresh) {
        let label = format!("{}/{}", f.config, f.name);
        let space = open(&f.gz);
        let a = IndexAnalysis::build(&space).unwrap_or_else(|e| panic!("{label}: {e:?}"));
        if !a.account.findings.is_empty() {
            problems.push(format!(
                "{label}: findings {:?}",
                &a.account.findings.kept()[..a.account.findings.kept().len().min(3)]
            ));
        }
        let segments = SegmentsReport::new(&space, &a.account);
        for (stats, walk) in &a.indexes {
            let seg = segments
                .indexes
                .iter()
                .find(|r| r.root_page == stats.root_page)
                .unwrap();
            if stats.leaf_pages != seg.leaf_pages || stats.size_pages != seg.size_pages {
                problems.push(format!(
                    "{label}: index {}: walk found {} leaf pages (segments hold {}), size {} ({})",
                    stats.index_id,
                    stats.leaf_pages,
                    seg.leaf_pages,
                    stats.size_pages,
                    seg.size_pages
                ));
            }
            if walk.leaves().len() as u64 != stats.leaf_pages {
                problems.push(format!(
                    "{label}: index {}: leaf chain length",
                    stats.index_id
                ));
            }
        }
        let Some(table) = table_truth(&f) else {
            continue;
        };
        let count = table["count"].as_u64().unwrap();
        let space_id = u64::from(space.space_id());
        for t in f.config_truth["indexes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["space_id"].as_u64() == Some(space_id))
        {
            let id = t["index_id"].as_u64().unwrap();
            let Some((stats, _)) = a.indexes.iter().find(|(s, _)| s.index_id == id) else {
                problems.push(format!("{label}: index {id} not walked"));
                continue;
            };
            indexes += 1;
            if stats.records != count || stats.delete_marked != 0 {
                problems.push(format!(
                    "{label}: index {id} ({}): {} records, {} delete-marked; COUNT(*) = {count}",
                    t["name"], stats.records, stats.delete_marked
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        indexes >= if fresh { 10 } else { 89 },
        "only {indexes} indexes compared"
    );
}

/// Index roots found by reading the index pages alone (what `records --ddl`
/// falls back on when page 0 is lost) are the roots the server's dictionary
/// gives (`INNODB_SYS_INDEXES.PAGE_NO`), for every index of every `.ibd`
/// fixture (the system tablespace's internal trees are not in that table).
#[test]
fn index_roots_found_by_scanning_are_the_servers() {
    let (dir, fresh) = support::truth_fixtures_dir();
    let mut problems = Vec::new();
    let mut compared = 0;
    for f in fixture_files(&dir, fresh) {
        if table_truth(&f).is_none() {
            continue;
        }
        let space = open(&f.gz);
        let space_id = u64::from(space.space_id());
        let mut theirs: Vec<(u64, u32)> = f.config_truth["indexes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["space_id"].as_u64() == Some(space_id))
            .map(|i| {
                (
                    i["index_id"].as_u64().unwrap(),
                    u32::try_from(i["root_page"].as_u64().unwrap()).unwrap(),
                )
            })
            .collect();
        theirs.sort_unstable();
        let ours = innodb_space::index_roots::index_roots_by_scan(&space);
        if ours != theirs {
            problems.push(format!(
                "{}/{}: scanned {ours:?}, server {theirs:?}",
                f.config, f.name
            ));
        }
        compared += theirs.len();
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        compared >= if fresh { 10 } else { 89 },
        "only {compared} roots compared"
    );
}

/// `indexes` (JSON) and `tree` (text) pinned: two indexes at every page
/// size, REDUNDANT, and every KEY_BLOCK_SIZE.
#[test]
fn index_report_snapshots() {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let files: Vec<FixtureFile> = fixture_files(&support::fixtures_dir(), false)
        .into_iter()
        .filter(|f| {
            f.name.contains("t_sec_before")
                || f.name.contains("t_zip")
                || f.name.ends_with("t_redundant.ibd")
        })
        .collect();
    assert!(files.len() >= 29, "only {} files picked", files.len());
    settings.bind(|| {
        for f in files {
            let space = open(&f.gz);
            let name = format!("{}__{}", f.config, f.name.replace('/', "__"));
            let a = IndexAnalysis::build(&space).unwrap();
            let mut r = IndexesReport::new(&space, &a);
            r.header.file = display_name(&f);
            insta::assert_snapshot!(format!("indexes@{name}"), innodb_render::json::render(&r));
            let first = r.indexes.first().expect("an index").index_id;
            let mut t = TreeReport::build(&space, first, None).unwrap();
            t.header.file = display_name(&f);
            insta::assert_snapshot!(format!("tree@{name}"), innodb_render::space_text::tree(&t));
        }
    });
}

/// ROW_FORMAT=COMPRESSED pages rebuilt into logical pages: walking the
/// clustered index of every `t_zip*` fixture (KEY_BLOCK_SIZE 1–16 at 4k,
/// 8k and 16k) gives the primary keys 1..=10000 in order, read from the
/// rebuilt records (the first field, an INT with its sign bit flipped), and
/// every page's bytes add up: header, stream, log, free and trailer.
#[test]
fn compressed_pages_rebuild_every_row_in_key_order() {
    let mut checked = 0;
    for f in fixture_files(&support::fixtures_dir(), false)
        .into_iter()
        .filter(|f| f.name.contains("t_zip"))
    {
        let label = format!("{}/{}", f.config, f.name);
        let space = open(&f.gz);
        let physical = space.format().physical_page_size();
        let mut keys: Vec<u32> = Vec::new();
        let mut clustered = None;
        let mut pages = 0;
        let a = IndexAnalysis::build_with(&space, |index_id, v| {
            let z = v
                .zip
                .unwrap_or_else(|| panic!("{label}: page {} not rebuilt", v.page_no));
            assert_eq!(
                94 + z.stream_bytes + z.mlog_bytes + z.free_bytes + z.trailer_bytes,
                physical,
                "{label}: page {} bytes",
                v.page_no
            );
            pages += 1;
            if v.page.header.level != 0 {
                return;
            }
            // The clustered index has the lowest id: it is created first, and
            // the walks go in index id order.
            if *clustered.get_or_insert(index_id) != index_id {
                return;
            }
            for r in &v.records.records {
                let b = &v.page.bytes()[r.origin..r.origin + 4];
                keys.push(u32::from_be_bytes([b[0] ^ 0x80, b[1], b[2], b[3]]));
            }
        })
        .unwrap();
        assert!(
            a.account.findings.is_empty(),
            "{label}: {:?}",
            a.account.findings
        );
        let expected: Vec<u32> = (1..=10000).collect();
        assert_eq!(keys, expected, "{label}: clustered keys");
        assert!(pages > 10, "{label}: {pages} pages");
        checked += 1;
    }
    assert_eq!(checked, 17, "t_zip files checked");
}

/// `count` on every fixture table: the exact count is the server's
/// `COUNT(*)` for every index, every estimate comes from the pages sampled,
/// an index with at most 20 leaves is read whole (its estimate is then
/// `COUNT(*)`), and with more leaves than samples the sampled estimate of the clustered
/// index is within 25% of the exact count (the server's own `n_rows`
/// estimate is recorded in the truth for comparison in the docs).
#[test]
fn count_gives_count_star_and_sampled_estimates() {
    let (dir, fresh) = support::truth_fixtures_dir();
    let mut problems = Vec::new();
    for f in fixture_files(&dir, fresh) {
        let Some(table) = table_truth(&f) else {
            continue;
        };
        let label = format!("{}/{}", f.config, f.name);
        let count = table["count"].as_u64().unwrap();
        let space = open(&f.gz);
        let r = CountReport::build(&space, 20, 1).unwrap();
        let space_id = u64::from(space.space_id());
        let ids: Vec<u64> = f.config_truth["indexes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["space_id"].as_u64() == Some(space_id))
            .map(|i| i["index_id"].as_u64().unwrap())
            .collect();
        for i in r.indexes.iter().filter(|i| ids.contains(&i.index_id)) {
            if i.exact_rows != count {
                problems.push(format!(
                    "{label}: index {}: exact {} != COUNT(*) {count}",
                    i.index_id, i.exact_rows
                ));
            }
            // InnoDB reads an index with no more leaves than the sample whole.
            let want = i.leaf_pages.min(20) as usize;
            if i.sampled_pages != want {
                problems.push(format!(
                    "{label}: index {}: {} of {} leaves sampled, not {want}",
                    i.index_id, i.sampled_pages, i.leaf_pages
                ));
            }
            if i.leaf_pages <= 20 && i.estimated_rows != count {
                problems.push(format!(
                    "{label}: index {}: {} leaves read whole give {}, not COUNT(*) {count}",
                    i.index_id, i.leaf_pages, i.estimated_rows
                ));
            }
        }
        let clustered = r
            .indexes
            .iter()
            .filter(|i| ids.contains(&i.index_id))
            .min_by_key(|i| i.index_id)
            .unwrap();
        if clustered.leaf_pages > 20 && clustered.estimate_error.abs() > 0.25 {
            problems.push(format!(
                "{label}: sampled estimate {} is {}% off",
                clustered.estimated_rows, clustered.estimate_error
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The data dictionary read from each fixture's `ibdata1` (`SYS_TABLES`,
/// `SYS_COLUMNS`, `SYS_INDEXES`, `SYS_FIELDS`) holds every test table with
/// the server's table id, space id and column count, and every index with
/// its id, name and root page.
#[test]
fn dictionary_matches_the_server() {
    let (dir, fresh) = support::truth_fixtures_dir();
    let mut problems = Vec::new();
    let mut tables_checked = 0;
    for (config, truth) in configs(&dir, fresh) {
        let ibdata = dir.join(&config).join("files").join("ibdata1.gz");
        let d = Dictionary::read(&open(&ibdata)).unwrap_or_else(|e| panic!("{config}: {e}"));
        if !d.findings.is_empty() {
            problems.push(format!("{config}: findings {:?}", d.findings));
        }
        for t in truth["tables"].as_array().unwrap() {
            let name = t["name"].as_str().unwrap();
            let Some(ours) = d.tables.iter().find(|x| x.name == name) else {
                problems.push(format!(
                    "{config}: table {name} not in SYS_TABLES ({} tables read)",
                    d.tables.len()
                ));
                continue;
            };
            tables_checked += 1;
            let n_cols = t["n_cols"].as_u64().unwrap();
            if ours.id != t["table_id"].as_u64().unwrap()
                || u64::from(ours.space) != t["space_id"].as_u64().unwrap()
                // INNODB_SYS_TABLES.N_COLS counts the 3 system columns.
                || u64::from(ours.n_cols & 0xFFFF) + 3 != n_cols
                || ours.columns.len() as u64 + 3 != n_cols
            {
                problems.push(format!(
                    "{config}: {name}: id {} space {} n_cols {:#x} columns {}; server {t}",
                    ours.id,
                    ours.space,
                    ours.n_cols,
                    ours.columns.len()
                ));
            }
            for i in truth["indexes"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|i| i["table"] == name)
            {
                let found = ours
                    .indexes
                    .iter()
                    .find(|x| Some(x.id) == i["index_id"].as_u64());
                match found {
                    Some(x)
                        if x.name == i["name"].as_str().unwrap()
                            && Some(u64::from(x.root_page)) == i["root_page"].as_u64()
                            && Some(u64::from(x.n_fields)) == i["n_fields"].as_u64() => {}
                    other => problems.push(format!("{config}: {name}: index {i}: ours {other:?}")),
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        tables_checked >= if fresh { 5 } else { 73 },
        "{tables_checked} tables"
    );
    // The reports name indexes with it.
    let cfg = dir.join(if fresh { "p4k" } else { "p16k" }).join("files");
    let (v, out) = support::run_json([
        std::ffi::OsStr::new("--system"),
        cfg.join("ibdata1.gz").as_os_str(),
        std::ffi::OsStr::new("indexes"),
        cfg.join("test/t_sec_after.ibd.gz").as_os_str(),
    ]);
    assert!(out.status.success());
    let names: Vec<&str> = v["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["name"].as_str())
        .collect();
    assert_eq!(names, ["test/t_sec_after.PRIMARY", "test/t_sec_after.k_a"]);
}

/// The rows the generator dumped for a table (`rows/<table>.tsv.gz`, as the
/// client prints them), or `None` for a fixture set made before it did.
fn dumped_rows_of(config_dir: &Path, table: &str) -> Option<Vec<String>> {
    let tbl = table.split('/').nth(1)?;
    let gz = std::fs::read(config_dir.join("rows").join(format!("{tbl}.tsv.gz"))).ok()?;
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut text).unwrap();
    Some(text.lines().map(str::to_string).collect())
}

/// A value as the `mariadb` client prints it in batch mode.
fn client_text(v: &innodb_format::value::column_value::Value) -> String {
    use innodb_format::value::column_value::Value;
    match v {
        Value::Null => "NULL".into(),
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Text(t) => t.clone(),
        Value::Hex { hex } => format!("0x{hex}"),
        Value::Undecoded { undecoded } => format!("<undecoded: {undecoded}>"),
    }
}

fn int_text(v: &innodb_format::value::column_value::Value) -> Option<String> {
    use innodb_format::value::column_value::Value;
    matches!(v, Value::Int(_) | Value::UInt(_)).then(|| client_text(v))
}

/// The bytes of a text or binary value; `None` for NULL.
fn value_bytes(v: &innodb_format::value::column_value::Value) -> Option<Vec<u8>> {
    use innodb_format::value::column_value::Value;
    match v {
        Value::Text(t) => Some(t.as_bytes().to_vec()),
        Value::Hex { hex } => Some(
            (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
                .collect(),
        ),
        _ => None,
    }
}

fn md5_hex(b: &[u8]) -> String {
    use md5::Digest;
    md5::Md5::digest(b)
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

/// `records` with the dictionary of each configuration's `ibdata1`: every
/// row of `t_types` (every column type, NULLs in every column) decodes to
/// what the server returned, at every page size and checksum layout; every
/// row of `t_blob` has the server's lengths and MD5s of its TEXT and
/// LONGBLOB; every other table gives `COUNT(*)` rows whose
/// `BIT_XOR(CRC32(CONCAT_WS('|', id, a, b, c)))`, `SUM(id)` and `SUM(a)`
/// are the server's, and, where the generator dumped the table's rows (a
/// fresh run), each row equals the server's line, in COMPACT, DYNAMIC,
/// REDUNDANT, page-compressed and every KEY_BLOCK_SIZE. DECIMAL comes out
/// as hex: InnoDB's dictionary has no scale for it.
#[test]
fn records_decode_to_what_the_server_returned() {
    use innodb_format::value::column_value::Value;
    let mut problems = Vec::new();
    let (mut typed_rows, mut typed_expected, mut digest_rows, mut dumped_rows, mut blob_rows) =
        (0, 0, 0, 0, 0);
    let frac_trim = |s: &str| s.trim_end_matches('0').trim_end_matches('.').to_string();
    let (dir, fresh) = support::truth_fixtures_dir();
    for (config, truth) in configs(&dir, fresh) {
        let files = dir.join(&config).join("files");
        let dict = Dictionary::read(&open(&files.join("ibdata1.gz"))).unwrap();
        for t in truth["tables"].as_array().unwrap() {
            let name = t["name"].as_str().unwrap();
            let space = open(&files.join(format!("{}.gz", t["file"].as_str().unwrap())));
            let schema = Schema::from_dictionary(&dict, space.space_id()).unwrap();
            let r = RecordsReport::build(&space, &schema, None, false, None).unwrap();
            if !r.findings.is_empty() {
                problems.push(format!("{config}/{name}: findings {:?}", r.findings));
            }
            if r.rows.len() as u64 != t["count"].as_u64().unwrap() {
                problems.push(format!(
                    "{config}/{name}: {} rows, COUNT(*) {}",
                    r.rows.len(),
                    t["count"]
                ));
            }
            let col = |row: &innodb_analysis::rows::records::Row, c: &str| {
                r.fields
                    .iter()
                    .position(|f| f.name == c)
                    .map(|i| row.values[i].clone())
            };
            if name == "test/t_types" {
                let expected = truth["rows"]["test/t_types"].as_array().unwrap();
                typed_expected += expected.len();
                for (row, want) in r.rows.iter().zip(expected) {
                    typed_rows += 1;
                    for (c, v) in want.as_object().unwrap() {
                        let (ours_name, want_v) = match c.as_str() {
                            "ts_unix" | "en" | "st" => continue,
                            "bin_hex" => ("bin", v.clone()),
                            "vbin_hex" => ("vbin", v.clone()),
                            "bl_hex" => ("bl", v.clone()),
                            "en_num" => ("en", v.clone()),
                            "st_num" => ("st", v.clone()),
                            other => (other, v.clone()),
                        };
                        let Some(ours) = col(row, ours_name) else {
                            problems.push(format!("{config}: no column {ours_name}"));
                            continue;
                        };
                        let ok = match (&ours, &want_v) {
                            (Value::Null, serde_json::Value::Null) => true,
                            (Value::Int(a), w) => w.as_i64() == Some(*a),
                            (Value::UInt(a), w) => w.as_u64() == Some(*a),
                            (Value::Float(a), w) => {
                                w.as_f64().is_some_and(|w| (a - w).abs() <= w.abs() * 1e-6)
                            }
                            (Value::Hex { hex }, w) if ours_name == "dec1" => {
                                !hex.is_empty() && w.is_string()
                            }
                            (Value::Hex { hex }, w) => {
                                w.as_str().is_some_and(|w| w.eq_ignore_ascii_case(hex))
                            }
                            (Value::Text(a), serde_json::Value::Object(_)) => {
                                serde_json::from_str::<serde_json::Value>(a).ok().as_ref()
                                    == Some(&want_v)
                            }
                            // YEAR as the server prints it (`0000`), the
                            // truth's JSON a number.
                            (Value::Text(a), w) if ours_name == "yr" => {
                                w.as_u64().map(|y| format!("{y:04}")).as_deref() == Some(a.as_str())
                            }
                            (Value::Text(a), w) if ours_name == "tm" => {
                                w.as_str().map(frac_trim) == Some(frac_trim(a))
                            }
                            (Value::Text(a), w) => w.as_str() == Some(a.as_str()),
                            _ => false,
                        };
                        if !ok {
                            problems.push(format!("{config}: t_types id {}: {ours_name}: ours {ours:?}, server {want_v}", want["id"]));
                        }
                    }
                }
                continue;
            }
            // t_blob, and t_zblob8/t_zblob4 (ROW_FORMAT=COMPRESSED: ZBLOB chains).
            if let (Some(expected), false) =
                (truth["rows"][name].as_array(), name == "test/t_types")
            {
                for (row, want) in r.rows.iter().zip(expected) {
                    blob_rows += 1;
                    let got = serde_json::json!({
                        "id": col(row, "id").and_then(|v| int_text(&v)).map(|s| s.parse::<i64>().unwrap()),
                        "k": col(row, "k").and_then(|v| int_text(&v)).map(|s| s.parse::<i64>().unwrap()),
                        "t_len": col(row, "t").and_then(|v| value_bytes(&v)).map(|b| b.len()),
                        "t_md5": col(row, "t").and_then(|v| value_bytes(&v)).map(|b| md5_hex(&b)),
                        "b_len": col(row, "b").and_then(|v| value_bytes(&v)).map(|b| b.len()),
                        "b_md5": col(row, "b").and_then(|v| value_bytes(&v)).map(|b| md5_hex(&b)),
                    });
                    if &got != want {
                        problems.push(format!("{config}/{name}: ours {got}, server {want}"));
                    }
                }
                continue;
            }
            let mut server_lines = dumped_rows_of(&dir.join(&config), name);
            // In the undo scenario an XA transaction was left prepared after
            // `UPDATE t_ordered SET a = a + 1 WHERE id <= 10`: its changes are
            // in the pages (not committed, so not in the server's dump or
            // digest, which see the committed view).
            let xa_rows = truth["undo_scenario"]["xa_prepared"]["rows_updated"]
                .as_i64()
                .filter(|_| name == "test/t_ordered");
            if let (Some(n), Some(lines)) = (xa_rows, server_lines.as_mut()) {
                for line in lines.iter_mut() {
                    let mut cols: Vec<String> = line.split('\t').map(str::to_string).collect();
                    if cols[0].parse::<i64>().unwrap() <= n {
                        cols[1] = (cols[1].parse::<i64>().unwrap() + 1).to_string();
                        *line = cols.join("\t");
                    }
                }
            }
            // The server's columns in its order, each looked up by name
            // (instant ALTERs put the physical order apart from it).
            let server_columns: Vec<&str> = t["columns"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|c| c.as_str())
                .collect();
            let as_lines: Vec<String> = r
                .rows
                .iter()
                .map(|row| {
                    server_columns
                        .iter()
                        .map(|c| {
                            col(row, c)
                                .map_or_else(|| format!("<no column {c}>"), |v| client_text(&v))
                        })
                        .collect::<Vec<_>>()
                        .join("\t")
                })
                .collect();
            if let Some(lines) = &server_lines {
                dumped_rows += lines.len();
                if lines != &as_lines {
                    let first = lines.iter().zip(&as_lines).position(|(a, b)| a != b);
                    problems.push(format!(
                        "{config}/{name}: {} server lines, {} rows; first difference at {first:?}: server {:?}, ours {:?}",
                        lines.len(),
                        as_lines.len(),
                        first.and_then(|i| lines.get(i)),
                        first.and_then(|i| as_lines.get(i)),
                    ));
                }
            }
            // The server's digest: of (id, a, b, c) for the four-column
            // tables, of (id, v, s) as committed for the undo scenario's table.
            if xa_rows.is_some() {
                // Checked line by line above; the server's digest is of the
                // committed view.
                if server_lines.is_none() {
                    problems.push(format!("{config}/{name}: no dumped rows to check against"));
                }
                continue;
            }
            let (digest_cols, server) = match &t["checks"] {
                c if c.get("row_digest").is_some() => (
                    ["id", "a", "b", "c"].as_slice(),
                    serde_json::json!([t["count"], c["row_digest"], c["sum_a"]]),
                ),
                _ if name == "test/t_undo" => {
                    let c = &truth["undo_scenario"]["current_committed"];
                    (
                        ["id", "v", "s"].as_slice(),
                        serde_json::json!([c["count"], c["row_digest"], c["sum_v"]]),
                    )
                }
                _ if server_lines.is_some() => continue,
                _ => {
                    problems.push(format!(
                        "{config}/{name}: neither a digest nor dumped rows to check against"
                    ));
                    continue;
                }
            };
            let (mut digest, mut sum_second) = (0u32, 0i64);
            for row in &r.rows {
                digest_rows += 1;
                let cols: Vec<String> = digest_cols
                    .iter()
                    .map(|c| col(row, c).map(|v| client_text(&v)).unwrap_or_default())
                    .collect();
                digest ^= crc32fast::hash(cols.join("|").as_bytes());
                sum_second += cols[1].parse::<i64>().unwrap_or(0);
            }
            let ours = serde_json::json!([r.rows.len(), digest, sum_second]);
            if ours != server {
                problems.push(format!(
                    "{config}/{name}: [rows, digest, sum of {}] ours {ours}, server {server}",
                    digest_cols[1]
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems[..problems.len().min(30)].join("\n")
    );
    assert!(
        typed_expected >= 256 && typed_rows == typed_expected,
        "t_types: {typed_rows} of {typed_expected} rows"
    );
    assert!(blob_rows >= 300, "{blob_rows} t_blob rows");
    println!("{digest_rows} rows digested, {dumped_rows} compared with dumps, {typed_rows} t_types rows, {blob_rows} t_blob rows");
    let least = if fresh { 50_000 } else { 500_000 };
    assert!(digest_rows > least, "{digest_rows} rows digested");
    if fresh {
        assert!(
            dumped_rows > least,
            "{dumped_rows} rows compared with the dumps"
        );
    }
}

/// `records --deleted` on `t_deleted` (half the rows deleted, then a range,
/// purged before the clean shutdown): no delete-marked record is left, and
/// the records in the pages' garbage lists are there but zeroed by MariaDB,
/// so they are counted as erased and listed as nothing else.
#[test]
fn deleted_records_of_mariadb_are_erased() {
    for (config, truth) in configs(&support::fixtures_dir(), false) {
        let files = support::fixtures_dir().join(&config).join("files");
        let Some(t) = truth["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "test/t_deleted")
        else {
            continue;
        };
        let dict = Dictionary::read(&open(&files.join("ibdata1.gz"))).unwrap();
        let space = open(&files.join("test/t_deleted.ibd.gz"));
        let schema = Schema::from_dictionary(&dict, space.space_id()).unwrap();
        let r = RecordsReport::build(&space, &schema, None, true, None).unwrap();
        let live = r.rows.iter().filter(|x| !x.deleted).count() as u64;
        assert_eq!(live, t["count"].as_u64().unwrap(), "{config}");
        assert_eq!(
            r.rows.len() as u64,
            live,
            "{config}: rows read from deleted records"
        );
        assert!(
            r.erased_records > 0,
            "{config}: no garbage-list record at all"
        );
        assert!(r.findings.is_empty(), "{config}: {:?}", r.findings);
    }
}

/// A secondary index's records are its key and the primary key: `k_a` of
/// `t_sec_before` and `t_sec_after` gives 10000 entries in key order naming
/// every id once; `--format csv` writes them as CSV.
#[test]
fn secondary_index_records_and_csv() {
    let files = support::fixtures_dir().join("p16k").join("files");
    let dict = Dictionary::read(&open(&files.join("ibdata1.gz"))).unwrap();
    for t in ["t_sec_before", "t_sec_after"] {
        let file = files.join(format!("test/{t}.ibd.gz"));
        let space = open(&file);
        let schema = Schema::from_dictionary(&dict, space.space_id()).unwrap();
        let r = RecordsReport::build(&space, &schema, Some("k_a"), false, None).unwrap();
        let names: Vec<&str> = r.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a", "id"], "{t}");
        let pairs: Vec<(i64, i64)> = r
            .rows
            .iter()
            .map(|row| match (&row.values[0], &row.values[1]) {
                (
                    innodb_format::value::column_value::Value::Int(a),
                    innodb_format::value::column_value::Value::Int(id),
                ) => (*a, *id),
                other => panic!("{t}: {other:?}"),
            })
            .collect();
        assert!(
            pairs.windows(2).all(|w| w[0] <= w[1]),
            "{t}: not in key order"
        );
        let mut ids: Vec<i64> = pairs.iter().map(|p| p.1).collect();
        ids.sort_unstable();
        assert_eq!(ids, (1..=10000).collect::<Vec<i64>>(), "{t}");
        let out = support::run([
            std::ffi::OsStr::new("--system"),
            files.join("ibdata1.gz").as_os_str(),
            std::ffi::OsStr::new("--format"),
            std::ffi::OsStr::new("csv"),
            std::ffi::OsStr::new("records"),
            std::ffi::OsStr::new("--index"),
            std::ffi::OsStr::new("k_a"),
            file.as_os_str(),
        ]);
        let csv = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "a,id,state,confidence", "{t}");
        assert_eq!(lines.len(), 10001, "{t}");
        assert_eq!(
            lines[1],
            format!("{},{},live,", pairs[0].0, pairs[0].1),
            "{t}"
        );
    }
}

/// `records --ddl`: the schema from each table's `SHOW CREATE TABLE` (as the
/// server printed it) reads every fixture table to `COUNT(*)` rows without a
/// finding, and gives what InnoDB's own dictionary cannot: `t_types`'s
/// DECIMAL(20,6) values and its ENUM and SET labels, as the server returned them.
#[test]
fn records_with_ddl() {
    use innodb_format::value::column_value::Value;
    let mut problems = Vec::new();
    let mut checked = 0;
    for (config, truth) in configs(&support::fixtures_dir(), false) {
        let files = support::fixtures_dir().join(&config).join("files");
        for t in truth["tables"].as_array().unwrap() {
            let name = t["name"].as_str().unwrap();
            let space = open(&files.join(format!("{}.gz", t["file"].as_str().unwrap())));
            let roots = innodb_space::space_map::SpaceMap::read(&space)
                .unwrap()
                .index_roots();
            let schema = match schema_from_ddl(t["create_table"].as_str().unwrap(), &roots) {
                Ok(s) => s,
                Err(e) => {
                    problems.push(format!("{config}/{name}: {e}"));
                    continue;
                }
            };
            let r = RecordsReport::build(&space, &schema, None, false, None).unwrap();
            if r.rows.len() as u64 != t["count"].as_u64().unwrap() || !r.findings.is_empty() {
                problems.push(format!(
                    "{config}/{name}: {} rows, findings {:?}",
                    r.rows.len(),
                    r.findings
                ));
            }
            if name != "test/t_types" {
                continue;
            }
            let col = |c: &str| r.fields.iter().position(|f| f.name == c).unwrap();
            for (row, want) in r
                .rows
                .iter()
                .zip(truth["rows"]["test/t_types"].as_array().unwrap())
            {
                checked += 1;
                for c in ["dec1", "en", "st"] {
                    let ours = match &row.values[col(c)] {
                        Value::Text(s) => Some(s.clone()),
                        Value::Null => None,
                        other => Some(format!("{other:?}")),
                    };
                    if ours.as_deref() != want[c].as_str() {
                        problems.push(format!(
                            "{config}: id {}: {c}: ours {ours:?}, server {}",
                            want["id"], want[c]
                        ));
                    }
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{}",
        problems[..problems.len().min(20)].join("\n")
    );
    assert_eq!(checked, 256 * 6);
}

/// MariaDB's instant ALTER (`p16k-instant`): the rows of `t_inst_add`
/// written before each `ADD COLUMN` take the added columns' defaults from
/// the metadata record, the later ones (status `REC_STATUS_INSTANT`) their
/// own values, and every row is the server's (checked line by line in
/// `records_decode_to_what_the_server_returned`); in `t_inst_drop`, after a
/// `DROP COLUMN` and an `ADD COLUMN … FIRST`, the column map of the metadata
/// BLOB places each field, and the dropped column's values are still there
/// in the 3000 rows written before the drop ("b<id>"), NULL in the others.
#[test]
fn mariadb_instant_alter_columns() {
    use innodb_analysis::rows::mariadb_instant;
    use innodb_format::value::column_value::Value;
    let (dir, fresh) = support::truth_fixtures_dir();
    let Some((config, _)) = configs(&dir, fresh)
        .into_iter()
        .find(|(c, _)| c == "p16k-instant")
    else {
        assert!(fresh, "the committed fixtures have p16k-instant");
        return;
    };
    let files = dir.join(&config).join("files");
    let dict = Dictionary::read(&open(&files.join("ibdata1.gz"))).unwrap();
    for (table, n_core, map) in [("t_inst_add", 5, false), ("t_inst_drop", 6, true)] {
        let space = open(&files.join(format!("test/{table}.ibd.gz")));
        let schema = Schema::from_dictionary(&dict, space.space_id()).unwrap();
        let clustered = schema.indexes.iter().find(|i| i.clustered).unwrap();
        let mut pages = innodb_space::logical_pages::LogicalPages::new(&space);
        let m =
            mariadb_instant::prepare(&mut pages, clustered.root_page, &schema, &clustered.fields)
                .unwrap()
                .unwrap();
        assert_eq!((m.n_core, m.column_map), (n_core, map), "{table}");
        let r = RecordsReport::build(&space, &schema, None, false, None).unwrap();
        assert!(r.findings.is_empty(), "{table}: {:?}", r.findings);
        assert_eq!(r.rows.len(), 9000, "{table}");
        if table == "t_inst_drop" {
            let names: Vec<&str> = r.fields.iter().map(|f| f.name.as_str()).collect();
            assert_eq!(
                names,
                [
                    "id",
                    "DB_TRX_ID",
                    "DB_ROLL_PTR",
                    "a",
                    "!dropped_1",
                    "e",
                    "f"
                ]
            );
            for row in &r.rows {
                let Value::Int(id) = row.values[0] else {
                    panic!("id {:?}", row.values[0])
                };
                let want = if id <= 3000 {
                    Value::Hex {
                        hex: format!("b{id}")
                            .bytes()
                            .map(|b| format!("{b:02X}"))
                            .collect(),
                    }
                } else {
                    Value::Null
                };
                assert_eq!(row.values[4], want, "{table} id {id}");
            }
        }
    }
}

/// `--datadir DIR`: the data directory's ibdata1 gives the dictionary, and
/// a file is found inside it by its path there (`test/t_types`): the same
/// rows as with `--system` and the full path; indexes named by `count`; a
/// directory without ibdata1 is an error.
#[test]
fn datadir_gives_the_dictionary_and_finds_files() {
    let files = support::fixtures_dir().join("p16k").join("files");
    let by_datadir = support::run([
        "--format".as_ref(),
        "json".as_ref(),
        "--datadir".as_ref(),
        files.as_os_str(),
        "records".as_ref(),
        "test/t_types".as_ref(),
    ]);
    let by_system = support::run([
        "--format".as_ref(),
        "json".as_ref(),
        "--system".as_ref(),
        files.join("ibdata1.gz").as_os_str(),
        "records".as_ref(),
        files.join("test/t_types.ibd.gz").as_os_str(),
    ]);
    assert!(
        by_datadir.status.success(),
        "{}",
        String::from_utf8_lossy(&by_datadir.stderr)
    );
    assert_eq!(by_datadir.stdout, by_system.stdout);
    assert_eq!(
        String::from_utf8_lossy(&by_datadir.stdout).lines().count(),
        256
    );
    let (count, _) = support::run_json([
        "--datadir".as_ref(),
        files.as_os_str(),
        "count".as_ref(),
        "test/t_sec_after.ibd".as_ref(),
    ]);
    let names: Vec<&str> = count["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["name"].as_str())
        .collect();
    assert_eq!(names, ["test/t_sec_after.PRIMARY", "test/t_sec_after.k_a"]);
    // A data directory without ibdata1: a MariaDB table in it has no SDI,
    // so its columns cannot be known, and the error says where they were
    // looked for.
    let empty = tempfile::tempdir().unwrap();
    std::fs::create_dir(empty.path().join("test")).unwrap();
    std::fs::copy(
        files.join("test/t_sec_after.ibd.gz"),
        empty.path().join("test/t1.ibd.gz"),
    )
    .unwrap();
    let out = support::run([
        "--datadir".as_ref(),
        empty.path().as_os_str(),
        "records".as_ref(),
        "test/t1".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no ibdata1"));
    // Commands that need no dictionary work there.
    let summary = support::run([
        "--datadir".as_ref(),
        empty.path().as_os_str(),
        "summary".as_ref(),
    ]);
    assert_eq!(summary.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&summary.stdout).contains("test/t1.ibd.gz"));
}

/// A compressed BLOB chain (ZBLOB/ZBLOB2 pages of a ROW_FORMAT=COMPRESSED
/// table) whose page points back to itself: the row's value is marked
/// undecodable with a finding naming the cycle, every other row is still
/// read, and the walk ends.
#[test]
fn a_compressed_blob_chain_that_loops_is_a_finding() {
    use innodb_format::value::column_value::Value;
    let tmp = tempfile::tempdir().unwrap();
    let files = support::fixtures_dir().join("p16k-offpage").join("files");
    let path = support::gunzip_into(&files.join("test/t_zblob8.ibd.gz"), tmp.path());
    let mut bytes = std::fs::read(&path).unwrap();
    let ps = 8192;
    // A ZBLOB2 page that has a next page: make it its own next page.
    let looped = (0..bytes.len() / ps)
        .find(|&n| {
            let p = &bytes[n * ps..(n + 1) * ps];
            u16::from_be_bytes([p[24], p[25]]) == 12 && p[12..16] != [0xFF; 4]
        })
        .expect("a ZBLOB2 page with a successor");
    bytes[looped * ps + 12..looped * ps + 16].copy_from_slice(&(looped as u32).to_be_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let dict = Dictionary::read(&open(&files.join("ibdata1.gz"))).unwrap();
    let space = open(&path);
    let schema = Schema::from_dictionary(&dict, space.space_id()).unwrap();
    let r = RecordsReport::build(&space, &schema, None, false, None).unwrap();
    assert_eq!(r.rows.len(), 100);
    let undecoded = r
        .rows
        .iter()
        .filter(|row| {
            row.values
                .iter()
                .any(|v| matches!(v, Value::Undecoded { .. }))
        })
        .count();
    assert_eq!(undecoded, 1, "one row's BLOB runs into the loop");
    assert!(
        r.findings
            .iter()
            .any(|f| f.message.contains(&format!("page {looped} comes back"))),
        "{:?}",
        r.findings
    );
}

/// `undo` over each configuration's system tablespace and undo tablespaces
/// (`--datadir`): the history list length is the server's `History list
/// length` at capture time, on every configuration (0 after purge; 7 in the
/// crash copy taken while a snapshot held the history). In `p16k-undo` the
/// five autocommitted UPDATEs of every `t_undo` row are five undo logs of
/// exactly `rows` update records each, in commit order, named by the
/// dictionary; the totals add up; the XA transaction left prepared is one
/// PREPARED undo segment whose XID is the one `XA RECOVER` gave; no finding.
#[test]
fn undo_history_matches_the_server() {
    let (dir, fresh) = support::truth_fixtures_dir();
    let mut undo_configs = 0;
    for (config, truth) in configs(&dir, fresh) {
        let files = dir.join(&config).join("files");
        let (v, out) =
            support::run_json(["--datadir".as_ref(), files.as_os_str(), "undo".as_ref()]);
        assert!(
            out.status.success(),
            "{config}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(v["findings"], serde_json::json!([]), "{config}");
        let t = &v["totals"];
        assert_eq!(
            t["history_list_length"], truth["history_list_length"],
            "{config}"
        );
        assert_eq!(
            t["rollback_segments"], 128,
            "{config}: MariaDB keeps 128 rollback segments"
        );
        assert_eq!(
            t["undo_logs"], truth["history_list_length"],
            "{config}: every log walked"
        );
        let Some(scenario) = truth.get("undo_scenario") else {
            continue;
        };
        undo_configs += 1;
        let rows = support::entry(&truth, "tables", |t| t["name"] == "test/t_undo");
        let (table_id, count) = (
            rows["table_id"].as_u64().unwrap(),
            rows["count"].as_u64().unwrap(),
        );
        let rounds = scenario["update_rounds"].as_u64().unwrap();
        let by_table = v["by_table"].as_array().unwrap();
        let t_undo = by_table.iter().find(|r| r["table_id"] == table_id).unwrap();
        assert_eq!(t_undo["name"], "test/t_undo");
        assert_eq!(
            t_undo["records"].as_u64(),
            Some(count * rounds),
            "{config}: rows × updates"
        );
        let logs: Vec<&Value> = v["by_transaction"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["records"].as_u64() == Some(count))
            .collect();
        assert_eq!(logs.len() as u64, rounds, "{config}: one log per UPDATE");
        assert!(logs
            .iter()
            .all(|l| l["by_kind"]["update_existing"].as_u64() == Some(count)));
        let trx_nos: Vec<u64> = v["by_transaction"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["trx_no"].as_u64().unwrap())
            .collect();
        assert!(
            trx_nos.windows(2).all(|w| w[0] < w[1]),
            "commit order: {trx_nos:?}"
        );
        let last = v["by_transaction"].as_array().unwrap().last().unwrap();
        assert_eq!(last["cumulative_records"], t["undo_records"]);
        assert_eq!(last["cumulative_pages"], t["undo_pages"]);
        // The XA transaction left prepared: one undo segment PREPARED, its
        // log's XID the one XA RECOVER gave, its records the rows it updated.
        let xa = &scenario["xa_prepared"];
        let recovered = &xa["xa_recover"][0];
        let data = recovered["data"].as_str().unwrap();
        let gtrid_len: usize = recovered["gtrid_length"].as_str().unwrap().parse().unwrap();
        let bqual_len: usize = recovered["bqual_length"].as_str().unwrap().parse().unwrap();
        let in_flight = v["in_flight"].as_array().unwrap();
        assert_eq!(in_flight.len(), 1, "{config}: {in_flight:?}");
        let p = &in_flight[0];
        assert_eq!(p["state"], "prepared");
        assert_eq!(
            p["xid"],
            serde_json::json!({
                "format_id": recovered["formatID"].as_str().unwrap().parse::<i64>().unwrap(),
                "gtrid": &data[..gtrid_len],
                "bqual": &data[gtrid_len..gtrid_len + bqual_len],
            }),
            "{config}"
        );
        assert_eq!(p["records"], xa["rows_updated"], "{config}");
        assert_eq!(p["by_table"][0][1], "test/t_ordered");
        assert_eq!(v["segments_by_state"]["prepared"], 1);
    }
    assert!(fresh || undo_configs == 2, "p16k-undo and p4k-undo checked");
}

/// The undo scenario's transaction state against what the server itself
/// recovered from exactly these files (it ran with the binary log on; after
/// each copy it was restarted on the same data directory as a crash
/// recovery, and InnoDB printed "Last binlog file '…', position N" and, with
/// the XA transaction recovered, "Trx id counter is N"):
///
/// * `binlog` is the file and position InnoDB printed, for the crash copy
///   and for the purged copy; it is the position SHOW MASTER STATUS gave
///   right after the last UPDATE (the last binlogged commit InnoDB took part
///   in), in the file SHOW MASTER STATUS named then and at the kill.
/// * The crash copy tells the server's choice between rollback segment
///   headers apart from the other rules one could think of: the header
///   holding C's older position (connection H's binlogged commit, purged
///   last) has both the highest `FIL_PAGE_LSN` and the largest
///   `TRX_RSEG_MAX_TRX_ID` of the headers keeping a position, and still the
///   server took the greatest position.
/// * `next_trx_id_at_startup` is the "Trx id counter is N" the server
///   printed; `max_trx_id` (`TRX_SYS_TRX_ID_STORE`, 0 here, and the headers'
///   `TRX_RSEG_MAX_TRX_ID`) is below it, at most the counter SHOW ENGINE
///   INNODB STATUS gave just before the kill, and every transaction id and
///   number of the undo logs is below it.
/// * The purged copy (no transaction left to recover, so no counter
///   printed): its next id is at most the counter the server showed right
///   after that restart, and at least the crash copy's.
/// * No WSREP XID (the server ran with `wsrep_on` 0).
#[test]
fn undo_binlog_position_and_trx_ids_are_the_servers() {
    let (dir, fresh) = support::truth_fixtures_dir();
    let mut checked = 0;
    for (config, truth) in configs(&dir, fresh) {
        let Some(scenario) = truth.get("undo_scenario") else {
            continue;
        };
        let report = |sub: &str| {
            let files = dir.join(&config).join(sub);
            let (v, out) =
                support::run_json(["--datadir".as_ref(), files.as_os_str(), "undo".as_ref()]);
            assert!(out.status.success(), "{config}/{sub}");
            assert_eq!(v["findings"], serde_json::json!([]), "{config}/{sub}");
            v
        };
        let crash = report("files");
        let purged = report("purged/files");
        let startup = &scenario["recovery_startup"];
        let at_kill = &scenario["at_kill"];
        let after_updates = &scenario["after_updates"]["master_status"];

        // The binlog position, as the server recovered it from each copy.
        for (v, recovered, what) in [
            (&crash, startup, "crash copy"),
            (
                &purged,
                &scenario["purged_copy"]["recovery_startup"],
                "purged copy",
            ),
        ] {
            let file = recovered["last_binlog_file"].as_str().unwrap();
            let position = recovered["last_binlog_position"].as_u64().unwrap();
            assert_eq!(v["binlog"]["file"], file, "{config} {what}");
            assert_eq!(v["binlog"]["offset"], position, "{config} {what}");
            assert!(
                v["binlog"]["source"].as_str().unwrap().starts_with("rseg "),
                "{config} {what}"
            );
            assert_eq!(
                file.rsplit('/').next(),
                after_updates["file"].as_str(),
                "{config} {what}: the binary log SHOW MASTER STATUS named"
            );
            assert_eq!(position, after_updates["position"].as_u64().unwrap());
        }
        assert_eq!(at_kill["master_status"]["file"], after_updates["file"]);
        assert!(
            at_kill["master_status"]["position"].as_u64() > after_updates["position"].as_u64(),
            "{config}: later events (ANALYZE, XA PREPARE) are not InnoDB commits"
        );
        // The purged copy is the crash copy after recovery and purge: every
        // header keeps the position it had (no binlogged commit since).
        let positions = |v: &Value| -> Vec<(Value, Value)> {
            v["rollback_segments"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| (r["id"].clone(), r["binlog"].clone()))
                .collect()
        };
        assert_eq!(positions(&crash), positions(&purged), "{config}");
        // The crash copy tells the server's rule apart: the header with the
        // highest page LSN, and the one with the largest TRX_RSEG_MAX_TRX_ID,
        // among those keeping a position, keep an older one than the server took.
        let keeping: Vec<&Value> = crash["rollback_segments"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["binlog"].is_object())
            .collect();
        let by = |key: &str| {
            keeping
                .iter()
                .max_by_key(|r| r[key].as_u64().unwrap())
                .unwrap()
        };
        let marker = scenario["after_marker_commit"]["master_status"]["position"]
            .as_u64()
            .unwrap();
        for key in ["page_lsn", "max_trx_id"] {
            assert_eq!(
                by(key)["binlog"]["offset"].as_u64(),
                Some(marker),
                "{config}: the header with the highest {key} keeps C's position"
            );
        }
        assert!(marker < after_updates["position"].as_u64().unwrap());

        // Transaction ids.
        let printed = startup["trx_id_counter"].as_u64().unwrap();
        assert!(
            startup["error_log_lines"]
                .as_array()
                .unwrap()
                .iter()
                .any(|l| l
                    .as_str()
                    .unwrap()
                    .ends_with(&format!("Trx id counter is {printed}"))),
            "{config}"
        );
        assert_eq!(crash["next_trx_id_at_startup"], printed, "{config}");
        assert_eq!(crash["trx_id_store"], 0, "{config}: MariaDB 10.3.5+");
        let max = crash["max_trx_id"].as_u64().unwrap();
        assert!(max < printed, "{config}");
        assert!(
            max <= at_kill["trx_id_counter"].as_u64().unwrap(),
            "{config}"
        );
        let source = crash["max_trx_id_source"].as_str().unwrap();
        let rseg: u64 = source.strip_prefix("rseg ").unwrap().parse().unwrap();
        let held = crash["rollback_segments"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["max_trx_id"].as_u64())
            .max();
        assert_eq!(held, Some(max), "{config}");
        assert_eq!(
            crash["rollback_segments"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["id"] == rseg)
                .unwrap()["max_trx_id"],
            max
        );
        for t in crash["by_transaction"].as_array().unwrap() {
            assert!(t["trx_id"].as_u64().unwrap() < printed, "{config} {t}");
            assert!(t["trx_no"].as_u64().unwrap() < printed, "{config} {t}");
        }
        for t in crash["in_flight"].as_array().unwrap() {
            assert!(t["trx_id"].as_u64().unwrap() < printed, "{config} {t}");
        }
        let after_restart = scenario["purged_copy"]["recovery_startup"]["server_state"]
            ["trx_id_counter"]
            .as_u64()
            .unwrap();
        let purged_next = purged["next_trx_id_at_startup"].as_u64().unwrap();
        assert!(
            printed <= purged_next && purged_next <= after_restart,
            "{config}: {printed} <= {purged_next} <= {after_restart}"
        );
        assert!(
            purged["max_trx_id"].as_u64().unwrap() < purged_next,
            "{config}"
        );

        // No WSREP XID without Galera.
        assert_eq!(at_kill["wsrep_on"], 0);
        for v in [&crash, &purged] {
            assert!(v["rollback_segments"]
                .as_array()
                .unwrap()
                .iter()
                .all(|r| r.get("wsrep_xid").is_none()));
        }
        checked += 1;
    }
    assert!(fresh || checked == 2, "p16k-undo and p4k-undo checked");
}

/// `undo` with the system tablespace alone where the rollback segments live
/// in undo tablespaces: ONE finding names the missing undo tablespaces
/// (space ids 1, 2, 3: the `undo` of the whole set lists them so), the
/// 127 rollback segments in them and how to give them, and the rest is
/// still reported.
#[test]
fn a_missing_undo_tablespace_is_a_finding() {
    let files = support::fixtures_dir().join("p16k-undo").join("files");
    let (v, out) = support::run_json(["undo".as_ref(), files.join("ibdata1.gz").as_os_str()]);
    assert!(out.status.success());
    let findings = v["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let f = &findings[0];
    assert_eq!(
        (f["page"].as_u64(), f["offset"].as_u64()),
        (Some(5), Some(64))
    );
    let m = f["message"].as_str().unwrap();
    assert!(
        m.starts_with("undo tablespaces not given: space ids 1, 2, 3 (undo001, undo002, undo003), which hold 127 rollback segments (1–127)")
            && m.contains("--datadir DIR"),
        "{m}"
    );
    assert_eq!(v["totals"]["rollback_segments"], 128);
    // The whole set: those are the undo tablespaces' space ids, and the
    // rollback segments outside the system tablespace are 127.
    let mut args: Vec<std::ffi::OsString> = vec!["undo".into(), files.join("ibdata1.gz").into()];
    args.extend(["undo001", "undo002", "undo003"].map(|u| files.join(format!("{u}.gz")).into()));
    let (all, _) = support::run_json(&args);
    let ids: Vec<u64> = all["undo_tablespaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["space_id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [1, 2, 3]);
    let outside = all["rollback_segments"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["space_id"] != 0)
        .count();
    assert_eq!(outside, 127);
    assert!(
        all["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| !f["message"].as_str().unwrap().contains("not given")),
        "{}",
        all["findings"]
    );
}

/// A history list that loops (a copy of `undo001` whose first undo log's
/// history node points back to itself, its rollback segment claiming five
/// logs): the walk stops at the repeat with a finding, and the count the
/// header gives and the logs walked are reported apart.
#[test]
fn a_looping_history_list_is_a_finding() {
    let tmp = tempfile::tempdir().unwrap();
    let files = support::fixtures_dir().join("p16k-undo").join("files");
    let system = support::gunzip_into(&files.join("ibdata1.gz"), tmp.path());
    let undo: Vec<_> = ["undo001", "undo002", "undo003"]
        .iter()
        .map(|n| support::gunzip_into(&files.join(format!("{n}.gz")), tmp.path()))
        .collect();
    let ps = 16384;
    let mut bytes = std::fs::read(&undo[0]).unwrap();
    // The first rollback segment header of undo001 with a history (a SYS
    // page, FIL_PAGE_TYPE 6, whose TRX_RSEG_HISTORY length is not 0).
    let rseg = (3..bytes.len() / ps)
        .map(|p| p * ps)
        .find(|&r| bytes[r + 24..r + 26] == [0, 6] && bytes[r + 46..r + 50] != [0; 4])
        .unwrap();
    let history = rseg + 46;
    assert_eq!(
        &bytes[history..history + 4],
        &1u32.to_be_bytes(),
        "one log in its history"
    );
    let page = u32::from_be_bytes(bytes[history + 4..history + 8].try_into().unwrap()) as usize;
    let byte = u16::from_be_bytes(bytes[history + 8..history + 10].try_into().unwrap()) as usize;
    bytes[history..history + 4].copy_from_slice(&5u32.to_be_bytes());
    let next = page * ps + byte + 6;
    bytes[next..next + 4].copy_from_slice(&(page as u32).to_be_bytes());
    bytes[next + 4..next + 6].copy_from_slice(&(byte as u16).to_be_bytes());
    std::fs::write(&undo[0], &bytes).unwrap();
    let mut args = vec!["undo".as_ref(), system.as_os_str()];
    args.extend(undo.iter().map(|p| p.as_os_str()));
    let (v, out) = support::run_json(args);
    assert!(out.status.success());
    let messages: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["message"].as_str())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains(&format!("comes back to page {page} offset {byte}"))),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("says its history list has 5 undo logs; 1 were walked")),
        "{messages:?}"
    );
    assert_eq!(
        v["totals"]["history_list_length"], 11,
        "the headers' count, 7 + 4"
    );
    assert_eq!(v["totals"]["undo_logs"], 7, "each log walked once");
}

/// `history` on the undo scenario (`p16k-undo` with undo tablespaces,
/// `p4k-undo` with the undo logs in ibdata1): every one of the 3000
/// `t_undo` rows has six versions, from the current one (`v = id + 5000`,
/// `s = "upd5-<id>"`) back through each UPDATE's undo record to the one
/// connection A's snapshot saw; those oldest versions are exactly the
/// snapshot's rows: their `BIT_XOR(CRC32(CONCAT_WS('|', id, v, s)))` and
/// `SUM(v)` are what the server computed in A's snapshot. The CLI gives the
/// same chain for one key.
#[test]
fn history_rebuilds_every_version_the_snapshot_kept() {
    let (dir, fresh) = support::truth_fixtures_dir();
    let scenarios: Vec<_> = configs(&dir, fresh)
        .into_iter()
        .filter(|(_, t)| t.get("undo_scenario").is_some())
        .collect();
    assert!(
        fresh || scenarios.len() == 2,
        "p16k-undo (undo tablespaces) and p4k-undo (ibdata1)"
    );
    for (config, truth) in scenarios {
        history_of_the_undo_scenario(&dir, &config, &truth);
    }
}

fn history_of_the_undo_scenario(dir: &Path, config: &str, truth: &Value) {
    use innodb_analysis::rows::row_history::RowHistory;
    use innodb_format::value::column_value::Value;
    let files = dir.join(config).join("files");
    let system = open(&files.join("ibdata1.gz"));
    let undo: Vec<Tablespace> = (1..=3)
        .map(|i| files.join(format!("undo00{i}.gz")))
        .filter(|p| p.exists())
        .map(|p| open(&p))
        .collect();
    let undo_refs: Vec<&Tablespace> = undo.iter().collect();
    let dict = Dictionary::read(&system).unwrap();
    let space = open(&files.join("test/t_undo.ibd.gz"));
    let schema = Schema::from_dictionary(&dict, space.space_id()).unwrap();
    let records = RecordsReport::build(&space, &schema, None, false, None).unwrap();
    let rounds = truth["undo_scenario"]["update_rounds"].as_u64().unwrap() as i64;
    let (mut digest, mut sum_v, mut rows) = (0u32, 0i64, 0u64);
    for row in &records.rows {
        let h = RowHistory::chain(
            &records.table,
            "",
            &records.fields,
            1,
            row,
            &system,
            &undo_refs,
        );
        let Value::Int(id) = row.values[0] else {
            panic!("id {:?}", row.values[0])
        };
        assert_eq!(h.versions.len() as i64, rounds + 1, "id {id}: {}", h.end);
        for (k, v) in h.versions.iter().enumerate() {
            let k = k as i64;
            let want_s = if k == rounds {
                format!("init-{id}")
            } else {
                format!("upd{}-{id}", rounds - k)
            };
            assert_eq!(
                v.values[3],
                Value::Int(id + 1000 * (rounds - k)),
                "id {id} version {k}"
            );
            assert_eq!(v.values[4], Value::Text(want_s), "id {id} version {k}");
        }
        let oldest = h.versions.last().unwrap();
        let (Value::Int(v), Value::Text(s)) = (&oldest.values[3], &oldest.values[4]) else {
            panic!()
        };
        digest ^= crc32fast::hash(format!("{id}|{v}|{s}").as_bytes());
        sum_v += v;
        rows += 1;
    }
    let seen = &truth["undo_scenario"]["snapshot_view_after_updates"];
    assert_eq!(rows, seen["count"].as_u64().unwrap());
    assert_eq!(
        u64::from(digest),
        seen["row_digest"].as_u64().unwrap(),
        "the snapshot's rows"
    );
    assert_eq!(sum_v, seen["sum_v"].as_i64().unwrap());
    let out = support::run([
        "--datadir".as_ref(),
        files.as_os_str(),
        "history".as_ref(),
        "test/t_undo".as_ref(),
        "--key".as_ref(),
        "7".as_ref(),
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("# test/t_undo key 7: 6 versions"),
        "{text}"
    );
    assert!(text.contains("\t7\tinit-7\n"), "{text}");
}

/// `undo --compare A B` on the undo scenario's two copies of one data
/// directory — taken while the snapshot held the history, and after the
/// server recovered and purged — : the history list length goes from the
/// server's count at the first copy to its count after purge, `t_undo`'s
/// `rows × updates` records go, and so does the oldest retained transaction.
#[test]
fn undo_compare_follows_the_history_through_purge() {
    let (dir, fresh) = support::truth_fixtures_dir();
    let mut compared = 0;
    for (config, truth) in configs(&dir, fresh) {
        let Some(scenario) = truth.get("undo_scenario") else {
            continue;
        };
        let (a, b) = (
            dir.join(&config).join("files"),
            dir.join(&config).join("purged/files"),
        );
        let (v, out) = support::run_json([
            "undo".as_ref(),
            "--compare".as_ref(),
            a.as_os_str(),
            b.as_os_str(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let held = truth["history_list_length"].as_i64().unwrap();
        let purged = scenario["purged_copy"]["history_list_length"]
            .as_i64()
            .unwrap();
        assert_eq!(
            v["a"]["totals"]["history_list_length"].as_i64(),
            Some(held),
            "{config}"
        );
        assert_eq!(
            v["b"]["totals"]["history_list_length"].as_i64(),
            Some(purged),
            "{config}"
        );
        assert_eq!(
            v["history_list_length_change"].as_i64(),
            Some(purged - held)
        );
        let t_undo = |side: &str| {
            v[side]["by_table"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["name"] == "test/t_undo")
                .map_or(0, |t| t["records"].as_u64().unwrap())
        };
        assert_eq!(
            t_undo("a"),
            3000 * scenario["update_rounds"].as_u64().unwrap(),
            "{config}"
        );
        assert_eq!(t_undo("b"), 0, "{config}");
        assert!(
            v["a"]["oldest_trx_no"].is_u64() && v["b"]["oldest_trx_no"].is_null(),
            "{config}"
        );
        compared += 1;
    }
    assert!(fresh || compared == 2, "{compared} configurations compared");
}

/// `undo` as text on the undo scenario: at 4k with the undo logs in the
/// system tablespace (`p4k-undo`), at 16k in three undo tablespaces
/// (`p16k-undo`).
#[test]
fn undo_report_snapshots() {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        for config in ["p4k-undo", "p16k-undo"] {
            let files = support::fixtures_dir().join(config).join("files");
            let out = support::run(["--datadir".as_ref(), files.as_os_str(), "undo".as_ref()]);
            assert!(out.status.success());
            insta::assert_snapshot!(
                format!("undo@{config}"),
                String::from_utf8(out.stdout).unwrap()
            );
        }
    });
}

/// `undo --records N` on the undo scenario: every undo record of the
/// history listed and decoded with its table's columns — for `t_undo`, each
/// of the five UPDATEs' 3000 records names its row's key and holds the old
/// `v` and `s` that UPDATE replaced (`v = id + 1000·k`, `s` "init-<id>" or
/// "upd<k>-<id>" for the k-th UPDATE), and points to the previous version.
#[test]
fn undo_records_are_decoded_with_their_tables_columns() {
    let (dir, fresh) = support::truth_fixtures_dir();
    for (config, truth) in configs(&dir, fresh) {
        if truth.get("undo_scenario").is_none() {
            continue;
        }
        let files = dir.join(&config).join("files");
        let (v, out) = support::run_json([
            "--datadir".as_ref(),
            files.as_os_str(),
            "undo".as_ref(),
            "--records".as_ref(),
            "100000".as_ref(),
        ]);
        assert!(out.status.success());
        let records = v["records"].as_array().unwrap();
        assert_eq!(
            Some(records.len() as u64),
            v["totals"]["undo_records"].as_u64(),
            "{config}"
        );
        let mut trx_nos: Vec<u64> = records
            .iter()
            .filter(|r| r["table"] == "test/t_undo")
            .map(|r| r["trx_no"].as_u64().unwrap())
            .collect();
        trx_nos.sort_unstable();
        trx_nos.dedup();
        assert_eq!(trx_nos.len(), 5, "{config}");
        let mut checked = 0;
        for r in records.iter().filter(|r| r["table"] == "test/t_undo") {
            let k = trx_nos
                .iter()
                .position(|t| Some(*t) == r["trx_no"].as_u64())
                .unwrap() as i64;
            let id = r["key"][0][1].as_i64().unwrap();
            assert_eq!(r["key"][0][0], "id");
            assert_eq!(r["kind"], "update_existing");
            let want_s = if k == 0 {
                format!("init-{id}")
            } else {
                format!("upd{k}-{id}")
            };
            assert_eq!(
                r["update"],
                serde_json::json!([[3, "v", id + 1000 * k], [4, "s", want_s]]),
                "{config} id {id} update {k}"
            );
            assert!(r["old_roll_ptr"].is_object() && r["old_trx_id"].is_u64());
            checked += 1;
        }
        assert_eq!(checked, 15000, "{config}");
    }
}

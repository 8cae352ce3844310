//! Every file the MANIFEST lists, whatever its source: the data set is the
//! one the MANIFEST describes, and each per-file row's facts (size, page
//! size, space id, flags, checksum algorithm, index leaf records, server
//! version) are what our reports give; every file reads through the space,
//! tree, SDI and record reports without a finding.

use super::{
    cli_page_fields, index_stats, manifest, mysql_version_id, open, our_checksum_name, page_fields,
    page_rows, rel, root, summary, version, Checks, Row, FIL_NULL, N_HEAP_COMPACT, SDI_INDEX_ID,
};
use crate::support;
use innodb_analysis::reports::indexes::IndexAnalysis;
use innodb_analysis::reports::ownership::SpaceAccount;
use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::rows::records::{RecordsReport, Schema};
use innodb_space::segment::SegmentOwner;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

// ---------------------------------------------------------------------------
// The data set itself: what the MANIFEST lists is what is there.

/// SHA-256 of `data` as lowercase hex (no hashing crate among the
/// dev-dependencies; this is FIPS 180-4 as written).
fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (word, bytes) in w.iter_mut().zip(block.chunks_exact(4)) {
            *word = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for (k, wi) in K.iter().zip(w.iter()) {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(*k)
                .wrapping_add(*wi);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[test]
fn sha256_matches_the_standard_test_vectors() {
    // FIPS 180-4 examples, so a wrong hash below is the data's fault, not this one's.
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
}

/// Every file the MANIFEST lists is there with its size and sha256, nothing
/// else is, and the count is the MANIFEST's "Total: N files". This makes sure
/// the facts below are about the very bytes the MANIFEST describes.
#[test]
fn manifest_lists_exactly_the_files_present() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let root = root();
    let m = manifest();
    let mut c = Checks::default();
    let listed = m.listed_files();
    let mut listed_paths = BTreeSet::new();
    for r in &listed {
        let file = r.file();
        let label = r.label();
        listed_paths.insert(file.clone());
        let Ok(data) = std::fs::read(&file) else {
            c.ok(&label, false, || "listed in MANIFEST.md but missing".into());
            continue;
        };
        c.eq(&label, "bytes", data.len() as u64, r.num("bytes"));
        c.eq(
            &label,
            "sha256",
            sha256_hex(&data),
            r.get("sha256").to_string(),
        );
    }
    let present: BTreeSet<PathBuf> = support::files_below(&root, "")
        .into_iter()
        .filter(|p| !p.ends_with("MANIFEST.md"))
        .collect();
    for extra in present.difference(&listed_paths) {
        c.ok(&rel(extra), false, || {
            "present but not listed in MANIFEST.md".into()
        });
    }
    let total: usize = m
        .text
        .split("Total: ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("MANIFEST says \"Total: N files\"");
    c.eq("thirdparty", "number of files listed", listed.len(), total);
    c.eq(
        "thirdparty",
        "number of files present",
        present.len(),
        total,
    );
    c.finish("manifest_lists_exactly_the_files_present");
}

// ---------------------------------------------------------------------------
// 1. The per-file rows against our summary.

#[test]
fn every_ibd_row_matches_our_summary() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let m = manifest();
    let rows = m.ibd_rows();
    let mut c = Checks::default();
    for r in &rows {
        let label = r.label();
        let file = r.file();
        let Ok(meta) = std::fs::metadata(&file) else {
            c.ok(&label, false, || {
                format!("{} does not exist", file.display())
            });
            continue;
        };
        let bytes = r.num("bytes");
        c.eq(&label, "file size", meta.len(), bytes);
        let space = open(&file);
        let s = summary(&space);
        let (logical, physical) = r
            .get("page")
            .split_once('/')
            .expect("page is logical/physical");
        let (logical, physical): (u64, u64) = (
            logical.parse().expect("page"),
            physical.parse().expect("page"),
        );
        c.eq(
            &label,
            "space id",
            s["space_id"].as_u64(),
            Some(r.num("sid")),
        );
        c.eq(
            &label,
            "logical page size",
            s["page_size"].as_u64(),
            Some(logical),
        );
        c.eq(
            &label,
            "physical page size",
            s["physical_page_size"].as_u64(),
            Some(physical),
        );
        c.eq(
            &label,
            "page count (bytes / physical page)",
            s["page_count"].as_u64(),
            Some(bytes / physical),
        );
        c.eq(
            &label,
            "flags.raw",
            s["flags"]["raw"].as_u64(),
            Some(r.num("flags")),
        );
        c.eq(
            &label,
            "fsp_size",
            s["fsp_size"].as_u64(),
            Some(r.num("FSP pages")),
        );
        let cksum = our_checksum_name(r.get("cksum"));
        c.eq(
            &label,
            "checksum_algorithm",
            s["checksum_algorithm"].as_str(),
            Some(cksum),
        );
        // "algorithm that validates every non-zero page": nothing verifies
        // under another algorithm, and nothing is bad or unverifiable.
        let algorithms: BTreeSet<&str> = s["checksum_algorithms"]
            .as_object()
            .expect("checksum_algorithms")
            .keys()
            .map(String::as_str)
            .filter(|k| *k != "all_zero")
            .collect();
        c.eq(
            &label,
            "checksum algorithms of the non-zero pages",
            algorithms,
            BTreeSet::from([cksum]),
        );
        c.eq(
            &label,
            "bad_checksums",
            s["bad_checksums"].as_u64(),
            Some(0),
        );
        c.ok(
            &label,
            s["findings"].as_array().is_some_and(Vec::is_empty),
            || format!("findings: {}", s["findings"]),
        );
        // Vendor, where the version decides it: MySQL 8.0 and later, and
        // MariaDB 10.4+ files in the full_crc32 format (FSP flags bit 4).
        let (vendor, numbers) = version(r);
        let expected_vendor = match vendor.as_str() {
            "MySQL" if numbers.first().is_some_and(|&n| n >= 8) => Some("mysql"),
            "MariaDB" if numbers >= vec![10, 4] && r.num("flags") & 0x10 != 0 => Some("mariadb"),
            _ => None,
        };
        if let Some(v) = expected_vendor {
            c.eq(&label, "vendor", s["vendor"].as_str(), Some(v));
        }
        // Row format: REDUNDANT index pages lack the compact bit of
        // PAGE_N_HEAP, every other row format (COMPACT, DYNAMIC, COMPRESSED) has it.
        let compact = !r.get("row fmt").starts_with("REDUNDANT");
        for p in page_rows(&space).iter().filter(|p| p.index_id.is_some()) {
            let n_heap = page_fields(&space, p.page).get("PAGE_N_HEAP").copied();
            c.eq(
                &label,
                &format!(
                    "page {} ({}) compact bit of PAGE_N_HEAP (row fmt {})",
                    p.page,
                    p.page_type,
                    r.get("row fmt")
                ),
                n_heap.map(|n| n & N_HEAP_COMPACT != 0),
                Some(compact),
            );
        }
    }
    // `checksum FILE...` over all of them at once: exit 0, one OK line each.
    let files: Vec<PathBuf> = rows.iter().map(Row::file).filter(|f| f.exists()).collect();
    let mut args = vec![std::ffi::OsString::from("checksum")];
    args.extend(files.iter().map(|f| f.as_os_str().to_os_string()));
    let out = support::run(args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    c.ok(
        "checksum (all .ibd rows)",
        out.status.code() == Some(0),
        || {
            format!(
                "exit {:?}, stderr: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            )
        },
    );
    for f in &files {
        let ok_line = format!("OK  {}:", f.display());
        c.ok(
            &rel(f),
            stdout.lines().any(|l| l.starts_with(&ok_line)),
            || {
                let ours: Vec<&str> = stdout
                    .lines()
                    .filter(|l| l.contains(&*f.to_string_lossy()))
                    .collect();
                format!("`checksum` does not report it OK: {ours:?}")
            },
        );
    }
    println!("{} .ibd files", rows.len());
    c.finish("every_ibd_row_matches_our_summary");
}

// ---------------------------------------------------------------------------
// 2. The `raw idx leaf recs` column against our page list.

/// `159:2/1L SDI:2/1L` -> {159: (2, 1), u64::MAX: (2, 1)}.
fn parse_raw_idx(cell: &str) -> BTreeMap<u64, (u64, usize)> {
    cell.split_whitespace()
        .map(|e| {
            let parsed = e.split_once(':').and_then(|(id, rest)| {
                let (recs, levels) = rest.split_once('/')?;
                let id = if id == "SDI" {
                    SDI_INDEX_ID
                } else {
                    id.parse().ok()?
                };
                Some((
                    id,
                    (recs.parse().ok()?, levels.strip_suffix('L')?.parse().ok()?),
                ))
            });
            parsed.unwrap_or_else(|| panic!("raw idx leaf recs entry {e:?} is not id:recs/NL"))
        })
        .collect()
}

#[test]
fn raw_index_leaf_records_match_our_page_list() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let m = manifest();
    let mut c = Checks::default();
    let mut entries = 0;
    for r in m.ibd_rows() {
        let label = r.label();
        let expected = parse_raw_idx(r.get("raw idx leaf recs"));
        entries += expected.len();
        let space = open(&r.file());
        let rows = page_rows(&space);
        // "for every index id seen on INDEX/SDI/INSTANT pages".
        let ours = index_stats(&rows, &["INDEX", "SDI", "INSTANT"]);
        for (id, (recs, levels)) in &expected {
            let s = ours.get(id).cloned().unwrap_or_default();
            c.eq(
                &label,
                &format!("index {id}: sum of level-0 records"),
                s.leaf_records,
                *recs,
            );
            c.eq(
                &label,
                &format!("index {id}: number of levels"),
                s.levels.len(),
                *levels,
            );
        }
        // No index id on an INDEX or SDI page that the column does not list.
        // (RTREE pages are not counted by the column: 5.7+ address.ibd lists
        // 2 of its 3 indexes. INSTANT pages are exempt from this direction
        // only: the MANIFEST's row for MariaDB's mantis_plugin_table.ibd, whose
        // only index page is its INSTANT root, leaves the column empty, so the
        // derivation did not in fact list INSTANT-only ids; that page is
        // checked against the prose in `mariadb_owner_facts`.)
        let on_index_pages: BTreeSet<u64> =
            index_stats(&rows, &["INDEX", "SDI"]).into_keys().collect();
        c.eq(
            &label,
            "index ids on INDEX/SDI pages",
            on_index_pages,
            expected.keys().copied().collect(),
        );
    }
    println!("{entries} index entries");
    c.finish("raw_index_leaf_records_match_our_page_list");
}

// ---------------------------------------------------------------------------
// 3. The server version in page 0.

/// "version: from page 0 FIL_PAGE_PREV/FIL_PAGE_NEXT (MySQL 8.0+ stores
/// server version id / space version there)": every `MySQL X.Y.Z` row of 8.0
/// or later has X*10000+Y*100+Z in page 0's FIL_PAGE_PREV. Plus: sakila/8.0's
/// 8.0.40 files have space version 1 in FIL_PAGE_NEXT; MariaDB 12.0.2 page 0
/// PREV/NEXT = 0xFFFFFFFF and bytes 0-3 of the FIL header are 0 on every page;
/// MariaDB 10.3.22 page 0 prev/next = 0.
#[test]
fn page0_prev_next_hold_the_version() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let m = manifest();
    let mut c = Checks::default();
    let mut versioned = 0;
    for r in m.ibd_rows() {
        let label = r.label();
        let (vendor, numbers) = version(&r);
        let id = mysql_version_id(&r);
        if id.is_none() && vendor != "MariaDB" {
            continue;
        }
        let space = open(&r.file());
        let f0 = page_fields(&space, 0);
        let prev = f0.get("FIL_PAGE_PREV").copied();
        let next = f0.get("FIL_PAGE_NEXT").copied();
        if let Some(id) = id {
            versioned += 1;
            c.eq(
                &label,
                "page 0 FIL_PAGE_PREV (server version)",
                prev,
                Some(id),
            );
            if r.section == "jeremycole__innodb_ruby"
                && r.get("path").contains("sakila/8.0/")
                && id == 80040
            {
                c.eq(
                    &label,
                    "page 0 FIL_PAGE_NEXT (space version)",
                    next,
                    Some(1),
                );
            }
        } else if numbers.starts_with(&[12, 0, 2]) {
            c.eq(
                &label,
                "page 0 (FIL_PAGE_PREV, FIL_PAGE_NEXT)",
                (prev, next),
                (Some(FIL_NULL), Some(FIL_NULL)),
            );
            for p in 0..space.page_count() {
                let f = page_fields(&space, p);
                c.eq(
                    &label,
                    &format!("page {p} FIL_PAGE_SPACE_OR_CHKSUM (bytes 0-3)"),
                    f.get("FIL_PAGE_SPACE_OR_CHKSUM").copied(),
                    Some(0),
                );
            }
        } else if numbers.starts_with(&[10, 3, 22]) {
            c.eq(
                &label,
                "page 0 (FIL_PAGE_PREV, FIL_PAGE_NEXT)",
                (prev, next),
                (Some(0), Some(0)),
            );
        }
    }
    c.ok("MANIFEST", versioned >= 100, || {
        format!("only {versioned} MySQL 8.0+ rows found")
    });
    println!("{versioned} MySQL 8.0+ files");
    c.finish("page0_prev_next_hold_the_version");
}

/// The page-0 FIL_PAGE_PREV of an 8.0 file through the CLI, as the brief's
/// example: sakila/8.0 (80040), 8.4 (80403), mysql9 (90001 / 90100).
#[test]
fn cli_page0_shows_the_server_version() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let m = manifest();
    let mut c = Checks::default();
    for (section, path) in [
        (
            "jeremycole__innodb_ruby",
            "spec/data/sakila/8.0/sakila/film.ibd",
        ),
        (
            "jeremycole__innodb_ruby",
            "spec/data/sakila/8.4/sakila/film.ibd",
        ),
        (
            "ringo380__idb-utils",
            "tests/fixtures/mysql9/mysql90_standard.ibd",
        ),
        (
            "ringo380__idb-utils",
            "tests/fixtures/mysql9/mysql91_compressed.ibd",
        ),
    ] {
        let r = m.ibd_row(section, path);
        let (_, f) = cli_page_fields(&r.file(), 0);
        c.eq(
            &r.label(),
            "page 0 FIL_PAGE_PREV",
            f.get("FIL_PAGE_PREV").copied(),
            mysql_version_id(&r),
        );
    }
    c.finish("cli_page0_shows_the_server_version");
}

// ---------------------------------------------------------------------------
// 4. Every file through the space, tree, SDI and record reports.

/// Every listed third-party tablespace through the space-structure reports:
/// every page accounted for exactly once, every segment's owner found from
/// the segment headers the file holds, no finding. (The owners' facts on
/// segments are in `ibdninja` and `innodb_ruby`.)
#[test]
fn space_structure_of_every_file() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let m = manifest();
    let mut c = Checks::default();
    let mut files = 0;
    for row in m.ibd_rows() {
        let label = row.label();
        let space = open(&row.file());
        let account = match SpaceAccount::build(&space) {
            Ok(a) => a,
            Err(e) => {
                c.ok(&label, false, || format!("no space map: {e:?}"));
                continue;
            }
        };
        files += 1;
        c.eq(
            &label,
            "pages accounted",
            account.counts.total(),
            u64::from(space.page_count()),
        );
        c.ok(&label, account.findings.is_empty(), || {
            format!("findings: {:?}", account.findings)
        });
        for s in &account.map.segments {
            c.ok(&label, s.owner != SegmentOwner::Unknown, || {
                format!("segment {} has no owner", s.id)
            });
        }
    }
    assert!(files >= 200, "only {files} files accounted");
    c.finish("space_structure_of_every_file");
}

/// Every listed third-party tablespace with every index walked from its root
/// (ROW_FORMAT=COMPRESSED pages rebuilt): no page check, sibling chain, node
/// pointer or orphan finding anywhere; and where no freed page keeps old
/// content, each index's leaf records and levels are the MANIFEST's.
#[test]
fn every_file_walks_without_a_finding() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let m = manifest();
    let mut c = Checks::default();
    let (mut files, mut compressed, mut stale) = (0, 0, 0);
    for row in m.ibd_rows() {
        let label = row.label();
        let space = open(&row.file());
        let Ok(a) = IndexAnalysis::build(&space) else {
            c.ok(&label, false, || "no space map".into());
            continue;
        };
        files += 1;
        compressed += usize::from(a.indexes.iter().any(|(s, _)| s.compressed.is_some()));
        c.ok(&label, a.account.findings.is_empty(), || {
            format!(
                "findings: {:?}",
                &a.account.findings.kept()[..a.account.findings.kept().len().min(3)]
            )
        });
        // The MANIFEST's header scan: leaf records (PAGE_N_RECS summed over
        // every leaf page of an index id) and levels. It also counts pages the
        // server freed but did not erase, which no tree reaches: compare where
        // the file has none.
        if a.account.counts.free_with_old_content > 0 {
            stale += 1;
            continue;
        }
        for (id, (recs, levels)) in parse_raw_idx(row.get("raw idx leaf recs")) {
            match a.indexes.iter().find(|(s, _)| s.index_id == id) {
                Some((s, _)) => {
                    c.eq(
                        &label,
                        &format!("index {id} leaf records"),
                        s.records + s.delete_marked + s.metadata_records,
                        recs,
                    );
                    c.eq(
                        &label,
                        &format!("index {id} levels"),
                        s.levels as usize,
                        levels,
                    );
                }
                None => c.ok(&label, false, || format!("index {id} not walked")),
            }
        }
    }
    assert!(files >= 200, "only {files} files walked");
    assert!(compressed >= 2, "only {compressed} compressed files walked");
    assert!(
        stale < 20,
        "{stale} files with stale pages: the header-scan check covers too few"
    );
    c.finish("every_file_walks_without_a_finding");
}

/// The one-pass tree analysis of `indexes`, `fill` and `count` gives what
/// the page-by-page walk gives (report, walks, findings) on every listed
/// third-party tablespace (`tests/tree_pass.rs` does the same for the
/// fixtures).
#[test]
fn every_file_one_pass_equals_the_walk() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let m = manifest();
    let (mut files, mut walked) = (0, 0);
    for row in m.ibd_rows() {
        files += 1;
        walked += usize::from(crate::tree_pass::same_analysis(&row.file(), &row.label()).is_some());
    }
    assert!(files >= 200, "only {files} files compared");
    assert!(walked >= 200, "only {walked} files with a space map");
}

/// `sdi` on every MySQL 8.0+ tablespace: every SDI object inflates to JSON
/// whose `mysqld_version_id` is the server version the MANIFEST gives the
/// file; sakila's 8.0 and 8.4 tables are named as their files, with their
/// tablespace `sakila/<table>`. (idb-utils' `standard` table: `idb_utils`.)
#[test]
fn sdi_of_every_mysql8_file() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let m = manifest();
    let mut c = Checks::default();
    let mut files = 0;
    for row in m.ibd_rows() {
        let Some(version) = mysql_version_id(&row) else {
            continue;
        };
        let label = row.label();
        let space = open(&row.file());
        let r = match SdiReport::build(&space) {
            Ok(r) => r,
            Err(e) => {
                c.ok(&label, false, || format!("no SDI: {e:?}"));
                continue;
            }
        };
        files += 1;
        c.ok(&label, r.findings.is_empty(), || {
            format!("findings {:?}", r.findings)
        });
        c.ok(&label, !r.records.is_empty(), || "no SDI object".into());
        // ibdNinja's `ddl_test.ibd` is an upgrade fixture: its table was
        // altered by a newer server than the one that created the file, and
        // its table SDI says so.
        let upgraded = row.get("path").ends_with("ddl_test.ibd");
        for e in &r.records {
            let ours = e.object["mysqld_version_id"].as_u64();
            if upgraded {
                c.ok(&label, ours.is_some_and(|v| v >= version), || {
                    format!(
                        "SDI {} {}: version {ours:?} older than {version}",
                        e.sdi_type, e.id
                    )
                });
            } else {
                c.eq(
                    &label,
                    &format!("SDI {} {} mysqld_version_id", e.sdi_type, e.id),
                    ours,
                    Some(version),
                );
            }
        }
        let path = row.get("path");
        if let Some(table) = path
            .strip_prefix("spec/data/sakila/8.0/sakila/")
            .or_else(|| path.strip_prefix("spec/data/sakila/8.4/sakila/"))
            .and_then(|t| t.strip_suffix(".ibd"))
            .filter(|t| !t.starts_with("fts_"))
        {
            let name = |t: u32| {
                r.records
                    .iter()
                    .find(|e| e.sdi_type == t)
                    .and_then(|e| e.object["dd_object"]["name"].as_str().map(str::to_string))
            };
            c.eq(&label, "table name", name(1), Some(table.to_string()));
            c.eq(
                &label,
                "tablespace name",
                name(2),
                Some(format!("sakila/{table}")),
            );
        }
    }
    assert!(files >= 50, "only {files} MySQL 8.0+ files");
    c.finish("sdi_of_every_mysql8_file");
}

/// Every MySQL 8.0+ file's clustered index read with the columns of its own
/// SDI fits its records: each record ends where the next one begins. This
/// holds only with the columns the SDI leaves out of the index elements
/// (a FULLTEXT table's hidden `FTS_DOC_ID`; the system columns and
/// `nullable=1` keys of InnoDB's FULLTEXT auxiliary tables) and with every
/// INSTANT row version read as such.
#[test]
fn every_sdi_schema_fits_its_records() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let m = manifest();
    let mut c = Checks::default();
    let mut fitted_pairs = 0;
    for row in m.ibd_rows() {
        if mysql_version_id(&row).is_none() {
            continue;
        }
        let label = row.label();
        let space = open(&row.file());
        let Some(schema) = SdiReport::build(&space)
            .ok()
            .and_then(|s| Schema::from_sdi(&s))
        else {
            c.ok(&label, false, || "no schema from the SDI".into());
            continue;
        };
        let r = match RecordsReport::build(&space, &schema, None, false, None) {
            Ok(r) => r,
            Err(e) => {
                c.ok(&label, false, || format!("{e:?}"));
                continue;
            }
        };
        c.ok(&label, r.layout.fits() && r.layout.unreadable == 0, || {
            format!("{:?}", r.layout)
        });
        fitted_pairs += r.layout.fitting_pairs;
    }
    assert!(
        fitted_pairs > 10_000,
        "{fitted_pairs} neighbouring records fitted"
    );
    c.finish("every_sdi_schema_fits_its_records");
}

/// The index roots found by reading the index pages alone (what `records
/// --ddl` falls back on when page 0 is lost) are the roots the file's own
/// segments name, on every third-party file: MySQL 5.0 to 9.x and MariaDB,
/// every page size and row format, the SDI index of MySQL 8.0+ included.
#[test]
fn index_roots_found_by_scanning_match_the_segments() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let m = manifest();
    let mut c = Checks::default();
    let (mut files, mut roots) = (0, 0);
    for row in m.ibd_rows() {
        let label = row.label();
        let space = open(&row.file());
        let Ok(map) = innodb_space::SpaceMap::read(&space) else {
            continue;
        };
        let named = map.index_roots();
        let scanned = innodb_space::index_roots::index_roots_by_scan(&space);
        c.ok(&label, scanned == named, || {
            format!("scanned {scanned:?}, segments name {named:?}")
        });
        files += 1;
        roots += named.len();
    }
    c.finish("index_roots_found_by_scanning_match_the_segments");
    assert!(
        files >= 200 && roots >= 300,
        "only {files} files, {roots} roots compared"
    );
}

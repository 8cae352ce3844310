//! Every page a real tablespace uses, zeroed in turn, is named by a finding.
//!
//! An all-zero page passes every page check (the server's as ours: it is
//! what a never-written page looks like), so losing a page in use is seen
//! only by the structures that lead to it. For each page the space map
//! says is in use (a bookkeeping page, or a page a segment uses; the
//! doublewrite buffer's copies aside), a copy of the file with that page
//! zeroed is read by `summary`, the space account and tree walks
//! (`indexes`, `segments`, `waste`), `records` (with the fixture's own
//! dictionary) and, for a system tablespace, `undo`: at least one finding
//! must name the page, by its page number or in its message. Pages that no
//! structure uses (free pages with old content) may be zeroed silently.
//!
//! This sweep first found the silent pages it now guards: an index root
//! (its index vanished from every report), the IBUF_BITMAP page, the
//! change-buffer root, the TRX_SYS page (read as 128 rollback segments on
//! page 0), rollback segment and undo segment header pages, and undo log
//! pages.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use innodb_analysis::reports::indexes::{IndexAnalysis, IndexesReport};
use innodb_analysis::reports::ownership::{classify, PageUse};
use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::reports::undo_report::UndoReport;
use innodb_analysis::rows::records::{RecordsReport, Schema};
use innodb_analysis::Summary;
use innodb_space::dictionary::Dictionary;
use innodb_space::segment::SegmentOwner;
use innodb_space::space_map::SpaceMap;
use innodb_space::{Finding, OpenOptions, Tablespace};
use std::path::Path;

/// True when `f` is about page `n`: located on it, or naming it in its
/// message as a page (the number with "page" shortly before it: "page 5",
/// "child page number reads 5", "first fragment page, 4").
fn names(f: &Finding, n: u32) -> bool {
    let m = &f.message;
    let number = n.to_string();
    f.page == Some(n)
        || m.match_indices(&number).any(|(at, _)| {
            let end = at + number.len();
            let whole = !m[..at].ends_with(|c: char| c.is_ascii_digit())
                && !m[end..].starts_with(|c: char| c.is_ascii_digit());
            // The 24 characters before it, reversed.
            let before: String = m[..at].chars().rev().take(24).collect();
            whole && before.contains("egap")
        })
}

/// Every finding the reports make of the file at `path`.
fn all_findings(path: &Path, dict: Option<&Dictionary>, system: bool) -> Vec<Finding> {
    let Ok(space) = Tablespace::open(path, OpenOptions::default()) else {
        return Vec::new();
    };
    let mut out = Summary::build(&space).findings;
    if let Ok(a) = IndexAnalysis::build(&space) {
        out.extend(IndexesReport::new(&space, &a).findings.findings);
    }
    let schema = match dict {
        Some(d) => Schema::from_dictionary(d, space.space_id()),
        None => SdiReport::build(&space)
            .ok()
            .and_then(|r| Schema::from_sdi(&r)),
    };
    if let Some(schema) = schema {
        if let Ok(r) = RecordsReport::build(&space, &schema, None, true, None) {
            out.extend(r.findings);
        }
    }
    if system {
        out.extend(UndoReport::build(&space, &[], None).findings);
    }
    out
}

/// Zeroes every used page of fixture `rel` in turn; returns how many
/// pages were zeroed and those no finding names, described. `ibdata` is the
/// fixture's system tablespace (its dictionary types the records), or the
/// file itself; with `None` the file is a third-party one, typed by its own
/// SDI when it has one.
fn silent_pages(rel: &str, ibdata: Option<&str>) -> (usize, Vec<String>) {
    let tmp = tempfile::tempdir().unwrap();
    let (path, bytes) = match ibdata {
        Some(_) => support::unpack(tmp.path(), rel),
        None => {
            let bytes = std::fs::read(support::thirdparty_dir().join(rel)).unwrap();
            let path = tmp.path().join("copy.ibd");
            (path, bytes)
        }
    };
    std::fs::write(&path, &bytes).unwrap();
    let system = ibdata == Some(rel);
    let dict = match ibdata {
        Some(sys) if !system => {
            let (sys, _) = support::unpack(tmp.path(), sys);
            Some(
                Dictionary::read(&Tablespace::open(&sys, OpenOptions::default()).unwrap()).unwrap(),
            )
        }
        _ => None,
    };
    let space = Tablespace::open(&path, OpenOptions::default()).unwrap();
    let map = SpaceMap::read(&space).unwrap();
    let ps = space.format().physical_page_size();
    let vendor = space.format().vendor;
    let undamaged = all_findings(&path, dict.as_ref(), system);
    assert_eq!(undamaged, Vec::new(), "{rel} undamaged");
    let mut used = Vec::new();
    for n in 0..space.page_count() {
        let page = &bytes[n as usize * ps..(n as usize + 1) * ps];
        let in_use = match classify(&map, n, &mut Vec::new()) {
            PageUse::Bookkeeping => true,
            PageUse::Segment { segment, .. } => {
                map.segments[segment].owner != SegmentOwner::Doublewrite
            }
            _ => false,
        };
        if in_use && page.iter().any(|&b| b != 0) {
            let t = u16::from_be_bytes([page[24], page[25]]);
            used.push((n, innodb_format::fil::page_type::PageType(t).name(vendor)));
        }
    }
    drop(space);
    let mut silent = Vec::new();
    for (n, kind) in &used {
        let n = *n;
        let mut damaged = bytes.clone();
        damaged[n as usize * ps..(n as usize + 1) * ps].fill(0);
        std::fs::write(&path, &damaged).unwrap();
        let findings = all_findings(&path, dict.as_ref(), system);
        if !findings.iter().any(|f| names(f, n)) {
            silent.push(format!("page {n} ({kind}): {findings:?}"));
        }
    }
    (used.len(), silent)
}

fn sweep(rel: &str, ibdata: Option<&str>, at_least: usize) {
    let (used, silent) = silent_pages(rel, ibdata);
    eprintln!("{rel}: {used} used pages zeroed in turn");
    assert!(used >= at_least, "{rel}: only {used} used pages swept");
    assert!(
        silent.is_empty(),
        "{rel}: {} of {used} used pages zeroed without a finding naming them:\n{}",
        silent.len(),
        silent.join("\n")
    );
}

/// Two indexes (the secondary built before the load), 16k.
#[test]
fn every_used_page_of_a_table_with_a_secondary_index() {
    sweep(
        "p16k/files/test/t_sec_before.ibd.gz",
        Some("p16k/files/ibdata1.gz"),
        85,
    );
}

/// Off-page columns: BLOB chains of COMPACT rows, 16k.
#[test]
fn every_used_page_of_a_table_with_blob_chains() {
    sweep(
        "p16k-offpage/files/test/t_compact_blob.ibd.gz",
        Some("p16k-offpage/files/ibdata1.gz"),
        140,
    );
}

/// REDUNDANT rows with BLOB chains, 16k.
#[test]
fn every_used_page_of_a_redundant_table_with_blob_chains() {
    sweep(
        "p16k-offpage/files/test/t_redundant_blob.ibd.gz",
        Some("p16k-offpage/files/ibdata1.gz"),
        100,
    );
}

/// MariaDB PAGE_COMPRESSED=1 (zlib frames), full_crc32, 16k.
#[test]
fn every_used_page_of_a_page_compressed_table() {
    sweep(
        "p16k/files/test/t_pagecomp.ibd.gz",
        Some("p16k/files/ibdata1.gz"),
        60,
    );
}

/// ROW_FORMAT=COMPRESSED, KEY_BLOCK_SIZE=8 under 16k pages.
#[test]
fn every_used_page_of_a_compressed_table() {
    sweep(
        "p16k/files/test/t_zip8.ibd.gz",
        Some("p16k/files/ibdata1.gz"),
        70,
    );
}

/// The system tablespace of the undo scenario (4k): the dictionary, the
/// change buffer, TRX_SYS, 128 rollback segments, undo logs with history
/// and an XA-prepared transaction.
#[test]
fn every_used_page_of_a_system_tablespace_with_undo_history() {
    sweep(
        "p4k-undo/files/ibdata1.gz",
        Some("p4k-undo/files/ibdata1.gz"),
        330,
    );
}

/// MySQL 8.0 (sakila `staff`, innodb_ruby's copy): SDI pages and a LOB
/// (the staff picture, LOB_FIRST/LOB_DATA pages), typed by the file's SDI.
#[test]
fn every_used_page_of_a_mysql_8_table_with_a_lob() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    sweep(
        "jeremycole__innodb_ruby/spec/data/sakila/8.0/sakila/staff.ibd",
        None,
        10,
    );
}

/// MySQL 5.7 (sakila `film`, the clustered index and three secondary
/// indexes): no dictionary beside it, so no records; the space and tree
/// walks.
#[test]
fn every_used_page_of_a_mysql_5_7_table() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    sweep(
        "jeremycole__innodb_ruby/spec/data/sakila/5.7/sakila/film.ibd",
        None,
        20,
    );
}

//! Speed-related paths give the same answers as the plain ones: checking a
//! file with several threads finds exactly what one thread finds.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use innodb_analysis::ChecksumReport;
use innodb_space::datadir::{DataDir, DataDirOptions};
use innodb_space::{OpenOptions, Tablespace};

fn report_json(r: &ChecksumReport) -> String {
    serde_json::to_string(r).unwrap()
}

#[test]
fn threaded_checksum_equals_one_thread_on_every_fixture() {
    // Every tablespace of every fixture data directory (`files/`, and
    // `purged/files/` of the undo scenarios), as the data directory model
    // classifies them.
    let dirs: std::collections::BTreeSet<_> =
        support::tablespaces_below(&support::fixtures_dir(), ".gz")
            .iter()
            .filter_map(|f| {
                f.ancestors()
                    .find(|a| a.ends_with("files"))
                    .map(|d| d.to_path_buf())
            })
            .collect();
    let files: Vec<_> = dirs
        .iter()
        .flat_map(|d| {
            DataDir::open(d, &DataDirOptions::default())
                .unwrap()
                .tablespace_paths()
        })
        .collect();
    assert!(files.len() > 300, "{} fixture files", files.len());
    for f in &files {
        let space = Tablespace::open(f, OpenOptions::default()).unwrap();
        let one = report_json(&ChecksumReport::build(&space));
        for threads in [2, 3, 7] {
            assert_eq!(
                report_json(&ChecksumReport::build_threads(&space, threads)),
                one,
                "{} with {threads} threads",
                f.display()
            );
        }
    }
}

#[test]
fn threaded_checksum_finds_bad_pages_in_every_run() {
    let tmp = tempfile::tempdir().unwrap();
    let gz = support::fixtures_dir().join("p16k/files/test/t_random.ibd.gz");
    let copy = support::gunzip_into(&gz, tmp.path());
    let mut bytes = std::fs::read(&copy).unwrap();
    let ps = 16384;
    // Damage pages spread over the file (576 pages): each of 4 runs of 144
    // gets one (a never-written page with a byte set no longer verifies).
    let damaged = [3usize, 150, 300, 500];
    for &p in &damaged {
        bytes[p * ps + 200] ^= 0x55;
    }
    std::fs::write(&copy, &bytes).unwrap();
    let space = Tablespace::open(&copy, OpenOptions::default()).unwrap();
    let one = ChecksumReport::build(&space);
    let four = ChecksumReport::build_threads(&space, 4);
    let bad: Vec<u32> = four.bad_pages.iter().map(|b| b.page).collect();
    assert_eq!(bad, damaged.iter().map(|&p| p as u32).collect::<Vec<_>>());
    assert_eq!(report_json(&one), report_json(&four));
}

/// `pages` streams its rows as the scan reaches them; what it prints is
/// exactly the rendering of the whole listing, in text and in JSON, for
/// every fixture file (and a damaged one, with findings).
#[test]
fn streamed_pages_listing_equals_the_whole_listing() {
    use innodb_analysis::{PageFilter, PageList};
    let tmp = tempfile::tempdir().unwrap();
    let gz = support::fixtures_dir().join("p16k/files/test/t_random.ibd.gz");
    let damaged = support::gunzip_into(&gz, tmp.path());
    let mut bytes = std::fs::read(&damaged).unwrap();
    bytes[5 * 16384 + 99] ^= 1;
    std::fs::write(&damaged, &bytes).unwrap();
    let mut files = support::tablespaces_below(&support::fixtures_dir().join("p4k"), ".gz");
    files.extend(support::tablespaces_below(
        &support::fixtures_dir().join("p16k-undo/files"),
        ".gz",
    ));
    files.push(damaged);
    for f in &files {
        let space = Tablespace::open(f, OpenOptions::default()).unwrap();
        let list = PageList::build(&space, &PageFilter::default());
        let text = support::run(["pages".as_ref(), f.as_os_str()]);
        assert_eq!(
            String::from_utf8(text.stdout).unwrap(),
            innodb_render::text::pages(&list),
            "{}",
            f.display()
        );
        let json = support::run([
            "--format".as_ref(),
            "json".as_ref(),
            "pages".as_ref(),
            f.as_os_str(),
        ]);
        assert_eq!(
            String::from_utf8(json.stdout).unwrap(),
            innodb_render::json::render(&list),
            "{}",
            f.display()
        );
    }
    // A filter that keeps no row.
    let f = &files[0];
    let space = Tablespace::open(f, OpenOptions::default()).unwrap();
    let filter = PageFilter {
        page_type: Some("RSEG_ARRAY".into()),
        range: None,
    };
    let list = PageList::build(&space, &filter);
    assert!(list.pages.is_empty());
    let json = support::run([
        "--format".as_ref(),
        "json".as_ref(),
        "pages".as_ref(),
        f.as_os_str(),
        "--type".as_ref(),
        "RSEG_ARRAY".as_ref(),
    ]);
    assert_eq!(
        String::from_utf8(json.stdout).unwrap(),
        innodb_render::json::render(&list)
    );
}

/// `--datadir DIR summary|checksum|waste` without a file: one row per
/// tablespace, each equal to the file's own report, in parallel, with the
/// totals; page counts are the server's file sizes over its page size.
#[test]
fn datadir_reports_cover_every_tablespace() {
    use serde_json::Value;
    for config in ["p16k", "p4k-undo"] {
        let dir = support::fixtures_dir().join(config).join("files");
        let truth: Value = serde_json::from_slice(
            &std::fs::read(support::fixtures_dir().join(config).join("truth.json")).unwrap(),
        )
        .unwrap();
        let page_size = truth["page_size"].as_u64().unwrap();
        for report in [
            "summary", "checksum", "waste", "indexes", "segments", "fill", "count", "extents",
        ] {
            let (v, out) =
                support::run_json(["--datadir".as_ref(), dir.as_os_str(), report.as_ref()]);
            assert!(
                out.status.success(),
                "{config} {report}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let files = v["files"].as_array().unwrap();
            let expected = truth["files"].as_object().unwrap();
            assert_eq!(files.len(), expected.len(), "{config} {report}");
            let mut pages_total = 0;
            for f in files {
                let path = f["file"].as_str().unwrap();
                let name = path
                    .strip_prefix(&format!("{}/", dir.display()))
                    .unwrap()
                    .trim_end_matches(".gz");
                // ROW_FORMAT=COMPRESSED files are in pages of the table's KEY_BLOCK_SIZE.
                let zip = truth["tables"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|t| t["file"] == name)
                    .and_then(|t| t["zip_page_size"].as_u64())
                    .filter(|&z| z > 0);
                let server_pages =
                    expected[name]["bytes"].as_u64().unwrap() / zip.unwrap_or(page_size);
                let ours = &f["report"];
                let pages = match report {
                    "summary" => ours["page_count"].as_u64(),
                    "checksum" => ours["pages"].as_u64(),
                    _ => ours["file_pages"].as_u64(),
                }
                .unwrap();
                assert_eq!(pages, server_pages, "{config} {report} {name}");
                pages_total += pages;
                // The same report as the file's own.
                // With the same --datadir, so that indexes get the same names.
                let (single, _) = support::run_json([
                    "--datadir".as_ref(),
                    dir.as_os_str(),
                    report.as_ref(),
                    std::ffi::OsStr::new(path),
                ]);
                let single = support::unversioned(single);
                let single = if report == "checksum" {
                    &single["files"][0]
                } else {
                    &single
                };
                assert_eq!(ours, single, "{config} {report} {name}");
            }
            assert_eq!(v["totals"]["files"].as_u64().unwrap(), files.len() as u64);
            if ["segments", "fill", "count", "extents"].contains(&report) {
                assert_eq!(v["totals"]["errors"].as_u64().unwrap(), 0);
            } else if report == "indexes" {
                let records: u64 = files
                    .iter()
                    .flat_map(|f| f["report"]["indexes"].as_array().unwrap())
                    .map(|i| i["records"].as_u64().unwrap())
                    .sum();
                assert_eq!(v["totals"]["records"].as_u64().unwrap(), records);
            } else {
                assert_eq!(
                    v["totals"]["pages"].as_u64().unwrap(),
                    pages_total,
                    "{config} {report}"
                );
            }
        }
    }
}

/// A damaged file in a data directory: `checksum` says which, exits 1.
#[test]
fn datadir_checksum_finds_the_damaged_file() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("test")).unwrap();
    let src = support::fixtures_dir().join("p16k/files");
    support::gunzip_into(&src.join("ibdata1.gz"), tmp.path());
    support::gunzip_into(&src.join("test/t_types.ibd.gz"), &tmp.path().join("test"));
    let bad = support::gunzip_into(&src.join("test/t_random.ibd.gz"), &tmp.path().join("test"));
    let mut bytes = std::fs::read(&bad).unwrap();
    bytes[4 * 16384 + 500] ^= 0x10;
    std::fs::write(&bad, &bytes).unwrap();
    let (v, out) = support::run_json([
        "--datadir".as_ref(),
        tmp.path().as_os_str(),
        "checksum".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let bad_files: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| !f["report"]["bad_pages"].as_array().unwrap().is_empty())
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(bad_files.len(), 1);
    assert!(bad_files[0].ends_with("test/t_random.ibd"));
    assert_eq!(v["totals"]["bad_pages"], 1);
}

/// A file that cannot be read costs only its line: every data-directory
/// report still reports the others, names the file with why, and exits 1.
#[test]
fn datadir_reports_exit_1_when_a_file_cannot_be_read() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("test")).unwrap();
    let src = support::fixtures_dir().join("p16k/files");
    support::gunzip_into(&src.join("ibdata1.gz"), tmp.path());
    support::gunzip_into(&src.join("test/t_types.ibd.gz"), &tmp.path().join("test"));
    // Shorter than one page: no report can be made of it.
    std::fs::write(tmp.path().join("test/t_cut.ibd"), [0u8; 100]).unwrap();
    for report in [
        "summary", "waste", "indexes", "segments", "extents", "fill", "count",
    ] {
        let (v, out) = support::run_json([
            "--datadir".as_ref(),
            tmp.path().as_os_str(),
            report.as_ref(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{report}");
        let files = v["files"].as_array().unwrap();
        assert_eq!(files.len(), 3, "{report}");
        let failed: Vec<&str> = files
            .iter()
            .filter(|f| f["error"].is_string())
            .map(|f| f["file"].as_str().unwrap())
            .collect();
        assert_eq!(failed.len(), 1, "{report}");
        assert!(failed[0].ends_with("t_cut.ibd"), "{report}: {failed:?}");
        assert_eq!(v["totals"]["errors"], 1, "{report}");
    }
}

/// A file damaged on every page keeps bounded findings: every bad page is
/// counted (as runs of pages), the first [`ChecksumReport::DETAILED`] are
/// listed with their values, and each finding kind keeps at most
/// `FindingLog::PER_KIND` findings while counting all. The same holds with
/// threads, and in the summary and the space account.
#[test]
fn findings_are_bounded_on_a_file_damaged_on_every_page() {
    use innodb_analysis::reports::indexes::IndexAnalysis;
    use innodb_analysis::Summary;
    use innodb_space::{FindingKind, FindingLog};
    let tmp = tempfile::tempdir().unwrap();
    let gz = support::fixtures_dir().join("p4k/files/test/t_sec_before.ibd.gz");
    let copy = support::gunzip_into(&gz, tmp.path());
    let mut bytes = std::fs::read(&copy).unwrap();
    let ps = 4096;
    let n = bytes.len() / ps;
    assert!(n > 2 * ChecksumReport::DETAILED, "{n} pages");
    // One byte of every page but page 0 flipped: no page past 0 verifies
    // (a never-written page with a byte set does not either).
    for p in 1..n {
        bytes[p * ps + 1000] ^= 0xFF;
    }
    std::fs::write(&copy, &bytes).unwrap();
    let space = Tablespace::open(&copy, OpenOptions::default()).unwrap();
    let bad = (n - 1) as u64;

    let one = ChecksumReport::build(&space);
    assert_eq!(one.bad_page_ranges.len() as u64, bad);
    assert_eq!(one.bad_page_ranges.runs(), &[(1, (n - 1) as u32)]);
    assert_eq!(one.bad_pages.len(), ChecksumReport::DETAILED);
    let listed: Vec<u32> = one.bad_pages.iter().map(|b| b.page).collect();
    assert_eq!(
        listed,
        (1..=ChecksumReport::DETAILED as u32).collect::<Vec<_>>()
    );
    assert!(!one.all_valid());
    let v = serde_json::to_value(&one).unwrap();
    assert_eq!(v["bad_page_ranges"]["count"], bad);
    assert_eq!(v["bad_page_ranges"]["runs"][0][1], n - 1);
    for threads in [2, 3] {
        let t = ChecksumReport::build_threads(&space, threads);
        assert_eq!(report_json(&t), report_json(&one), "{threads} threads");
    }

    let s = Summary::build(&space);
    assert_eq!(s.findings_by_kind.get("bad_checksum"), Some(&bad));
    let kept_bad = s
        .findings
        .iter()
        .filter(|f| f.kind == FindingKind::BadChecksum)
        .count() as u64;
    assert_eq!(kept_bad, FindingLog::PER_KIND);
    for (kind, count) in &s.findings_by_kind {
        let kept = s.findings.iter().filter(|f| f.kind.name() == kind).count() as u64;
        assert_eq!(kept, (*count).min(FindingLog::PER_KIND), "{kind}");
    }

    let a = IndexAnalysis::build(&space).unwrap();
    let log = &a.account.findings;
    assert_eq!(log.counts().get(&FindingKind::BadChecksum), Some(&bad));
    for (kind, count) in log.counts() {
        let kept = log.kept().iter().filter(|f| f.kind == *kind).count() as u64;
        assert_eq!(kept, (*count).min(FindingLog::PER_KIND), "{kind:?}");
    }
    assert_eq!(log.omitted(), log.total() - log.kept().len() as u64);
}

/// The walkers read pages for their structure and leave checksums to the
/// scan: a page the walkers read many times costs no checksum each time
/// (a fuzzed undo tablespace took 13 s for 115,000 reads of a few damaged
/// pages), while the scan still reports it.
#[test]
fn walkers_do_not_verify_checksums_the_scan_does() {
    use innodb_format::checksum::ChecksumVerdict;
    use innodb_space::logical_pages::LogicalPages;
    use innodb_space::page_check::NOT_VERIFIED;
    let tmp = tempfile::tempdir().unwrap();
    let gz = support::fixtures_dir().join("p16k/files/test/t_random.ibd.gz");
    let copy = support::gunzip_into(&gz, tmp.path());
    let mut bytes = std::fs::read(&copy).unwrap();
    bytes[4 * 16384 + 500] ^= 0x10;
    std::fs::write(&copy, &bytes).unwrap();
    let space = Tablespace::open(&copy, OpenOptions::default()).unwrap();
    let mut pages = LogicalPages::new(&space);
    let p = pages.read(4).unwrap();
    assert_eq!(
        p.check.checksum,
        ChecksumVerdict::Unverifiable {
            reason: NOT_VERIFIED.into()
        }
    );
    assert!(!p.check.all_zero);
    let report = ChecksumReport::build(&space);
    assert_eq!(report.bad_page_ranges.runs(), &[(4, 4)]);
}

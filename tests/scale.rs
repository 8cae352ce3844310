//! Speed-related paths give the same answers as the plain ones: checking a
//! file with several threads finds exactly what one thread finds.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use innodb_analysis::ChecksumReport;
use innodb_space::{OpenOptions, Tablespace};

fn report_json(r: &ChecksumReport) -> String {
    serde_json::to_string(r).unwrap()
}

#[test]
fn threaded_checksum_equals_one_thread_on_every_fixture() {
    let files = support::files_below(&support::fixtures_dir(), ".gz");
    assert!(files.len() > 100, "{} fixture files", files.len());
    for f in files
        .iter()
        .filter(|f| !f.to_string_lossy().contains("/rows/"))
    {
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
    let mut files = support::files_below(&support::fixtures_dir().join("p4k"), ".gz");
    files.extend(support::files_below(
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

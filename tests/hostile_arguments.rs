//! Arguments and inputs that would make a read unbounded or a write land
//! in the wrong place: a `--ddl` that names a device or a FIFO, a `--png`
//! that names a FIFO or a file inside the data directory being read, a
//! `.gz` input that inflates far beyond what its page 0 claims, and a
//! `--sample-pages` in the billions. Each ends quickly: refused with exit 2
//! and a message naming the file, or capped where a cap is the answer.
//!
//! The gzip inputs are real fixture tablespaces with zeros appended before
//! compression (crafted, labelled as such).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// The longest any of these runs may take: each is refused or capped in
/// well under a second on this machine; a regression runs for minutes.
const LIMIT: Duration = Duration::from_secs(60);

fn run(args: &[&std::ffi::OsStr]) -> support::LimitedRun {
    support::run_limited(args, &[], LIMIT)
}

fn assert_refused(what: &str, r: &support::LimitedRun, needle: &str) {
    let status = r
        .status
        .unwrap_or_else(|| panic!("{what}: still running after {LIMIT:?}"));
    assert_eq!(
        status.code(),
        Some(2),
        "{what}: exit code; stderr {}",
        r.stderr
    );
    assert!(
        r.stderr.contains(needle),
        "{what}: stderr should name {needle:?}: {}",
        r.stderr
    );
}

fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(ok.success(), "mkfifo {}", path.display());
}

#[test]
fn ddl_from_a_device_a_fifo_or_a_directory_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let table = support::gunzip_into(
        &support::fixtures_dir().join("p16k/files/test/t_ordered.ibd.gz"),
        tmp.path(),
    );
    let fifo = tmp.path().join("ddl.fifo");
    mkfifo(&fifo);
    let big = tmp.path().join("big.sql");
    let mut f = std::fs::File::create(&big).unwrap();
    f.write_all(b"CREATE TABLE t (a INT PRIMARY KEY) -- ")
        .unwrap();
    f.write_all(&vec![b'x'; 2 << 20]).unwrap();
    drop(f);
    for (ddl, needle) in [
        (Path::new("/dev/zero"), "names no regular file"),
        (Path::new("/dev/urandom"), "names no regular file"),
        (fifo.as_path(), "names no regular file"),
        (tmp.path(), "names no regular file"),
        (big.as_path(), "is longer than 1048576 bytes"),
    ] {
        let r = run(&[
            "records".as_ref(),
            table.as_os_str(),
            "--ddl".as_ref(),
            ddl.as_os_str(),
        ]);
        assert_refused(&format!("--ddl {}", ddl.display()), &r, needle);
        assert!(r.stderr.contains(&*ddl.to_string_lossy()), "{}", r.stderr);
    }
}

#[test]
fn png_to_a_fifo_or_into_the_data_directory_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let evidence = tmp.path().join("datadir");
    std::fs::create_dir(&evidence).unwrap();
    let table = support::gunzip_into(
        &support::fixtures_dir().join("p16k/files/test/t_ordered.ibd.gz"),
        &evidence,
    );
    let fifo = tmp.path().join("out.fifo");
    mkfifo(&fifo);
    let r = run(&[
        "heatmap".as_ref(),
        table.as_os_str(),
        "--png".as_ref(),
        fifo.as_os_str(),
    ]);
    assert_refused("--png FIFO", &r, "is not a regular file");

    let before = std::fs::read_dir(&evidence).unwrap().count();
    for png in [
        evidence.clone(),
        evidence.join("t.png"),
        evidence.join("new/sub"),
    ] {
        let r = run(&[
            "--datadir".as_ref(),
            evidence.as_os_str(),
            "heatmap".as_ref(),
            "--png".as_ref(),
            png.as_os_str(),
        ]);
        assert_refused(
            &format!("--png {}", png.display()),
            &r,
            "is inside the data directory",
        );
    }
    // A path that reaches the directory through `..` or a link is the
    // same directory.
    std::fs::create_dir(tmp.path().join("elsewhere")).unwrap();
    std::os::unix::fs::symlink(&evidence, tmp.path().join("link")).unwrap();
    for sneaky in [
        tmp.path().join("elsewhere/../datadir/x.png"),
        tmp.path().join("link/x.png"),
    ] {
        let r = run(&[
            "--datadir".as_ref(),
            evidence.as_os_str(),
            "heatmap".as_ref(),
            table.as_os_str(),
            "--png".as_ref(),
            sneaky.as_os_str(),
        ]);
        assert_refused(
            &format!("--png {}", sneaky.display()),
            &r,
            "is inside the data directory",
        );
    }
    assert_eq!(
        std::fs::read_dir(&evidence).unwrap().count(),
        before,
        "nothing written into the data directory"
    );

    // Outside it, the same command writes its picture.
    let outside = tmp.path().join("pictures");
    let r = run(&[
        "--datadir".as_ref(),
        evidence.as_os_str(),
        "heatmap".as_ref(),
        "--png".as_ref(),
        outside.as_os_str(),
    ]);
    assert_eq!(r.status.and_then(|s| s.code()), Some(0), "{}", r.stderr);
    assert!(
        outside.join("t_ordered.png").is_file(),
        "{:?}",
        std::fs::read_dir(&outside)
    );
}

/// Writes `gz`: the gzip of `table`'s bytes followed by `zeros` zero bytes.
fn gzip_with_zeros(table: &[u8], zeros: u64, gz: &Path) {
    let file = std::fs::File::create(gz).unwrap();
    let mut enc = flate2::write::GzEncoder::new(file, flate2::Compression::fast());
    enc.write_all(table).unwrap();
    let block = vec![0u8; 1 << 20];
    let mut left = zeros;
    while left > 0 {
        let n = left.min(block.len() as u64) as usize;
        enc.write_all(&block[..n]).unwrap();
        left -= n as u64;
    }
    enc.finish().unwrap();
}

#[test]
fn gzip_inputs_inflate_no_further_than_page0_or_the_limit_allows() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, table) = support::unpack(tmp.path(), "p16k/files/test/t_ordered.ibd.gz");
    // FSP_SIZE × 16 KiB is the table's own length; twice that plus 64 MiB
    // is the cap, so 160 MiB of zeros behind it are over.
    let bomb = tmp.path().join("bomb.ibd.gz");
    gzip_with_zeros(&table, 160 << 20, &bomb);
    let r = run(&["summary".as_ref(), bomb.as_os_str()]);
    assert_refused("bomb", &r, "twice the size its page 0 claims (FSP_SIZE)");
    assert!(r.stderr.contains("bomb.ibd.gz"), "{}", r.stderr);

    // --gz-limit raises the cap: the same file then reads, its trailing
    // zeros whole pages past FSP_SIZE.
    let r = run(&[
        "--gz-limit".as_ref(),
        "1G".as_ref(),
        "summary".as_ref(),
        bomb.as_os_str(),
    ]);
    assert!(
        r.status.is_some_and(|s| s.code() != Some(2)),
        "{}",
        r.stderr
    );

    // And lowers it: the plain fixture (no zeros) is over 100 KiB.
    let plain = tmp.path().join("plain.ibd.gz");
    gzip_with_zeros(&table, 0, &plain);
    let r = run(&[
        "--gz-limit".as_ref(),
        "100K".as_ref(),
        "summary".as_ref(),
        plain.as_os_str(),
    ]);
    assert_refused("--gz-limit 100K", &r, "the limit --gz-limit gives");
    let r = run(&["summary".as_ref(), plain.as_os_str()]);
    assert_eq!(r.status.and_then(|s| s.code()), Some(0), "{}", r.stderr);
}

#[test]
fn sample_pages_in_the_billions_is_capped_at_the_leaf_pages() {
    let tmp = tempfile::tempdir().unwrap();
    let table = support::gunzip_into(
        &support::fixtures_dir().join("p16k/files/test/t_random.ibd.gz"),
        tmp.path(),
    );
    let json = |pages: &str| {
        let r = run(&[
            "--format".as_ref(),
            "json".as_ref(),
            "count".as_ref(),
            table.as_os_str(),
            "--sample-pages".as_ref(),
            pages.as_ref(),
        ]);
        assert_eq!(r.status.and_then(|s| s.code()), Some(0), "{}", r.stderr);
        serde_json::from_str::<serde_json::Value>(&r.stdout).unwrap()
    };
    let huge = json("4294967295");
    let indexes = huge["indexes"].as_array().expect("indexes");
    assert!(!indexes.is_empty());
    for ix in indexes {
        let leaves = ix["leaf_pages"].as_u64().expect("leaf_pages");
        let sampled = ix["sampled_pages"].as_u64().expect("sampled_pages");
        assert!(
            sampled <= leaves.max(20),
            "sampled {sampled} of {leaves} leaves: {ix}"
        );
    }
}

/// `--page-size` that page 0 contradicts is refused, not taken silently:
/// a 16k table (page 0 verifies) read with 4k pages, and a text file given
/// a page size, exit 2 naming the option and why; the page size page 0
/// gives, given again, is read as without the option.
#[test]
fn a_page_size_the_file_contradicts_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let table = support::fixtures_dir().join("p16k/files/test/t_ordered.ibd.gz");
    for size in ["4k", "8k", "1k", "64k"] {
        let r = run(&[
            "--page-size".as_ref(),
            size.as_ref(),
            "summary".as_ref(),
            table.as_os_str(),
        ]);
        assert_refused(
            &format!("16k table with --page-size {size}"),
            &r,
            "page 0 verifies as a 16384-byte page",
        );
    }
    let same = run(&[
        "--page-size".as_ref(),
        "16k".as_ref(),
        "summary".as_ref(),
        table.as_os_str(),
    ]);
    assert_eq!(
        same.status.and_then(|s| s.code()),
        Some(0),
        "{}",
        same.stderr
    );

    let text = tmp.path().join("passwd");
    std::fs::write(&text, "root:x:0:0:root:/root:/bin/bash\n".repeat(200)).unwrap();
    for size in ["1k", "4k", "16k"] {
        for cmd in ["summary", "checksum", "pages"] {
            let r = run(&[
                "--page-size".as_ref(),
                size.as_ref(),
                cmd.as_ref(),
                text.as_os_str(),
            ]);
            assert_refused(
                &format!("a text file, {cmd} --page-size {size}"),
                &r,
                "not an InnoDB tablespace",
            );
            assert!(r.stderr.contains("passwd"), "{}", r.stderr);
        }
    }
}

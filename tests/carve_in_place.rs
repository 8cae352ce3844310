//! `carve` without `--out` reads carved spaces in place: nothing is
//! written anywhere (no temporary file), and a page that changed between
//! the scan and the read is reported, never used. Inputs are real server
//! files (fixtures/mysql-p16k/purged, p16k-dropped, mysql-p16k-dropped)
//! laid into crafted images; the changed page is crafted damage of a copy
//! of a real table file.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::carve::carved;
use crate::support::{fixtures_dir, unpack};
use innodb_space::carve::{scan, CarvedPage};
use innodb_space::carved_source::{CarveInputs, CarvedSource, ChangedPage};
use innodb_space::{OpenOptions, Tablespace};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

const PAGE: usize = 16384;

/// The truth.json of fixture set `set`.
fn truth(set: &str) -> Value {
    serde_json::from_slice(&std::fs::read(fixtures_dir().join(set).join("truth.json")).unwrap())
        .unwrap()
}

/// Every file below `dir` with its bytes, by path.
fn listing(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(listing(&p));
        } else {
            let bytes = std::fs::read(&p).unwrap();
            out.push((p, bytes));
        }
    }
    out.sort();
    out
}

/// `carve --format json INPUTS` run in the empty directory `cwd` with
/// `TMPDIR` a directory `tmp` that does not exist (a temporary file or
/// directory could not be made there: the carve would fail): the report,
/// after checking that it succeeded, said nothing on stderr (not a
/// terminal: no progress), and left `cwd` and the inputs' directory as
/// they were.
fn carve_writing_nothing(inputs: &[&Path], cwd: &Path, tmp: &Path) -> Value {
    let input_dir = inputs[0].parent().unwrap();
    let before = listing(input_dir);
    let o = Command::new(env!("CARGO_BIN_EXE_innodb-inspect"))
        .args(["--format", "json", "carve"])
        .args(inputs)
        .current_dir(cwd)
        .env("TMPDIR", tmp)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "",
        "stderr not a terminal"
    );
    assert!(!tmp.exists(), "carve made TMPDIR");
    assert_eq!(listing(cwd), vec![], "carve wrote to its working directory");
    assert!(
        listing(input_dir) == before,
        "carve changed its inputs' directory"
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The names and table ids of a space's dropped tables.
fn dropped(s: &Value) -> Vec<(Value, Value)> {
    s["dropped_tables"]["tables"]
        .as_array()
        .unwrap_or_else(|| panic!("no dropped tables: {s}"))
        .iter()
        .map(|t| (t["name"].clone(), t["table_id"].clone()))
        .collect()
}

#[test]
fn carve_without_out_writes_no_file_anywhere() {
    let dir = tempfile::tempdir().unwrap();
    let (cwd, tmp, inputs) = (
        dir.path().join("cwd"),
        dir.path().join("no-tmp"),
        dir.path().join("in"),
    );
    for d in [&cwd, &inputs] {
        std::fs::create_dir(d).unwrap();
    }
    // 1. Two real MySQL table files in one crafted image, after 3 sectors
    // of other bytes: each named from its SDI, read in place.
    let set = "mysql-p16k/purged";
    let t = truth(set);
    let (_, plain) = unpack(dir.path(), &format!("{set}/files/test/t_plain.ibd.gz"));
    let (_, desc) = unpack(dir.path(), &format!("{set}/files/test/t_desc.ibd.gz"));
    let mut image = vec![0x5a; 3 * 512];
    image.extend(&plain);
    image.extend(&desc);
    let img = inputs.join("tables.bin");
    std::fs::write(&img, &image).unwrap();
    let r = carve_writing_nothing(&[&img], &cwd, &tmp);
    for name in ["test/t_plain", "test/t_desc"] {
        let table = crate::support::entry(&t, "tables", |x| x["name"] == name);
        let id = table["innodb_tables"][0]["space_id"].as_u64().unwrap();
        let s = carved(&r, id);
        assert_eq!(s["tables"], serde_json::json!([name]), "{s}");
        assert!(s.get("file").is_none());
    }

    // 2. A MariaDB system tablespace beside another input (a MariaDB table
    // file, no SDI: so that only the system tablespace is read further,
    // and not as the file it is): its dropped table from the SYS_* records
    // and the undo log, read in place, as the server's truth names it.
    let set = "p16k-dropped";
    let want = &truth(set)["dropped_scenario"]["table"];
    let ibdata = crate::support::gunzip_into(
        &fixtures_dir().join(format!("{set}/files/ibdata1.gz")),
        &inputs,
    );
    let other = crate::support::gunzip_into(
        &fixtures_dir().join("p16k/files/test/t_ordered.ibd.gz"),
        &inputs,
    );
    let r = carve_writing_nothing(&[&ibdata, &other], &cwd, &tmp);
    assert_eq!(
        dropped(carved(&r, 0)),
        vec![(want["name"].clone(), want["table_id"].clone())]
    );

    // 3. A crafted image holding a real MySQL 9.7 mysql.ibd and ibdata1:
    // the dropped table from mysql.ibd's dictionary, read in place.
    let set = "mysql-p16k-dropped";
    let want = &truth(set)["dropped_scenario"]["table"];
    let (dd, _) = unpack(dir.path(), &format!("{set}/files/mysql.ibd.gz"));
    let (sys, _) = unpack(dir.path(), &format!("{set}/files/ibdata1.gz"));
    let mut image = vec![0x33; 7 * 512];
    image.extend(std::fs::read(&dd).unwrap());
    image.extend(std::fs::read(&sys).unwrap());
    let img = inputs.join("mysql.bin");
    std::fs::write(&img, &image).unwrap();
    let r = carve_writing_nothing(&[&img], &cwd, &tmp);
    assert_eq!(
        dropped(carved(&r, 4_294_967_294)),
        vec![(want["name"].clone(), want["table_id"].clone())]
    );
}

/// The pages of `file` a carve finds, newest copy of each page number.
fn carved_pages(file: &Path) -> Vec<CarvedPage> {
    let mut pages = Vec::new();
    let mut f = std::fs::File::open(file).unwrap();
    scan(&mut f, 0, &mut |p| pages.push(p), &mut |_| {}).unwrap();
    pages.sort_by_key(|p| p.page_no);
    pages
}

/// `file` as a carved space of `pages`, read in place.
fn open_carved(file: &Path, pages: &[CarvedPage], len: u64) -> Tablespace {
    let inputs = Arc::new(CarveInputs::new(&[file.to_path_buf()]));
    let source = CarvedSource::new(inputs, PAGE as u32, len, pages.iter().copied());
    Tablespace::open_carved("carved:t_plain".into(), source, OpenOptions::default()).unwrap()
}

/// Every page of `space` read whole, and read by prefix, equals `want`.
fn reads_as(space: &Tablespace, want: &[u8]) {
    assert_eq!(space.page_count() as usize, want.len() / PAGE);
    for (n, page) in want.chunks(PAGE).enumerate() {
        assert_eq!(space.page(n as u32).unwrap(), page, "page {n}");
        let mut head = vec![0u8; 100];
        assert_eq!(space.read_page_prefix(n as u32, &mut head).unwrap(), 100);
        assert_eq!(head, page[..100], "page {n} prefix");
    }
    // Read in runs too (several pages at once, across holes).
    let mut all = Vec::new();
    space.for_each_page(0, u32::MAX, |item| match item {
        innodb_space::ScanItem::Page(_, p) => all.extend_from_slice(p),
        innodb_space::ScanItem::Hole { count, .. } => {
            all.resize(all.len() + count as usize * PAGE, 0);
        }
        other => panic!("{other:?}"),
    });
    assert!(all == want, "for_each_page differs");
}

#[test]
fn a_page_changed_after_the_scan_is_reported_not_used() {
    let dir = tempfile::tempdir().unwrap();
    let (file, original) = unpack(dir.path(), "mysql-p16k/purged/files/test/t_plain.ibd.gz");
    let pages = carved_pages(&file);
    // Every page the server wrote is found: the never-written (all-zero)
    // pages are not, and read as zeros.
    let written = original
        .chunks(PAGE)
        .filter(|p| p.iter().any(|&b| b != 0))
        .count();
    assert_eq!(pages.len(), written);
    let space = open_carved(&file, &pages, original.len() as u64);
    reads_as(&space, &original);
    assert_eq!(space.changed_pages(), vec![]);

    // Crafted damage of the copy after the scan: one byte of page 3's body.
    let n = 3usize;
    assert!(pages.iter().any(|p| p.page_no == n as u32));
    let mut damaged = original.clone();
    damaged[n * PAGE + 200] ^= 0xff;
    std::fs::write(&file, &damaged).unwrap();
    let mut want = original.clone();
    want[n * PAGE..(n + 1) * PAGE].fill(0);
    let space = open_carved(&file, &pages, original.len() as u64);
    reads_as(&space, &want);
    assert_eq!(
        space.changed_pages(),
        vec![ChangedPage {
            page_no: n as u32,
            offset: (n * PAGE) as u64,
            input: file.clone(),
        }]
    );
}

#[test]
fn a_fifo_input_is_scanned_once_and_not_opened_again() {
    // Two real table files written into a FIFO: the scan reads them; the
    // SDI cannot be read again from a FIFO (opening it again would wait for
    // a writer forever), so the spaces are found but not named, and a note
    // says why.
    let dir = tempfile::tempdir().unwrap();
    let set = "mysql-p16k/purged";
    let t = truth(set);
    let (_, plain) = unpack(dir.path(), &format!("{set}/files/test/t_plain.ibd.gz"));
    let (_, desc) = unpack(dir.path(), &format!("{set}/files/test/t_desc.ibd.gz"));
    let fifo = dir.path().join("pipe");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let image: Vec<u8> = plain.iter().chain(&desc).copied().collect();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            f.write_all(&image).unwrap();
        })
    };
    let arg = fifo.as_os_str();
    let run = crate::support::run_limited(
        &["--format".as_ref(), "json".as_ref(), "carve".as_ref(), arg],
        &[],
        std::time::Duration::from_secs(60),
    );
    writer.join().unwrap();
    assert!(
        run.status.is_some_and(|s| s.success()),
        "{:?} {}",
        run.status,
        run.stderr
    );
    let r: Value = serde_json::from_str(&run.stdout).unwrap();
    for (name, bytes) in [("test/t_plain", &plain), ("test/t_desc", &desc)] {
        let table = crate::support::entry(&t, "tables", |x| x["name"] == name);
        let id = table["innodb_tables"][0]["space_id"].as_u64().unwrap();
        let s = carved(&r, id);
        let written = bytes
            .chunks(PAGE)
            .filter(|p| p.iter().any(|&b| b != 0))
            .count();
        assert_eq!(s["pages"], written as u64, "{s}");
        assert_eq!(s["tables"], serde_json::json!([]), "{s}");
        let notes = s["notes"].to_string();
        assert!(notes.contains("not a regular file or block device"), "{s}");
    }

    // With --out: refused (exit 2) before any file is written.
    let writer = {
        let fifo = fifo.clone();
        let image: Vec<u8> = plain.iter().chain(&desc).copied().collect();
        std::thread::spawn(move || {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            // The reader may stop early: a broken pipe is no failure here.
            let _ = f.write_all(&image);
        })
    };
    let out = dir.path().join("out");
    let run = crate::support::run_limited(
        &["carve".as_ref(), arg, "--out".as_ref(), out.as_os_str()],
        &[],
        std::time::Duration::from_secs(60),
    );
    writer.join().unwrap();
    assert_eq!(run.status.and_then(|s| s.code()), Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot be read again"),
        "{}",
        run.stderr
    );
    assert_eq!(listing(&out), vec![]);
}

/// A reader that gives at most `step` bytes a call, as a pipe does.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.step).min(self.data.len());
        let (head, rest) = self.data.split_at(n);
        buf[..n].copy_from_slice(head);
        self.data = rest;
        Ok(n)
    }
}

#[test]
fn pages_across_read_chunks_are_found_once_each() {
    use innodb_space::carve::CARVE_CHUNK;
    // A real 16k table file and a real 64k one (MySQL 9.7), laid after
    // 7 sectors of crafted noise so that pages straddle the scan's chunks,
    // then padded so that the image ends exactly at a chunk's end with a
    // page ending there.
    let dir = tempfile::tempdir().unwrap();
    let (_, small) = unpack(dir.path(), "mysql-p16k/purged/files/test/t_plain.ibd.gz");
    let (_, large) = unpack(dir.path(), "mysql-p64k/files/test/t_plain.ibd.gz");
    let lead = 7 * 512;
    let mut image = vec![0x33; lead];
    image.extend(&small);
    let at_large = image.len();
    image.extend(&large);
    let end = image.len().div_ceil(CARVE_CHUNK) * CARVE_CHUNK + CARVE_CHUNK;
    let last = large
        .chunks(65536)
        .rev()
        .find(|p| p.iter().any(|&b| b != 0))
        .unwrap();
    image.resize(end - last.len(), 0);
    let at_last = image.len();
    image.extend(last);
    assert_eq!(image.len() % CARVE_CHUNK, 0);

    let mut want: Vec<(u64, u32)> = Vec::new();
    let mut written = |file: &[u8], size: usize, at: usize| {
        for (n, p) in file.chunks(size).enumerate() {
            if p.iter().any(|&b| b != 0) {
                want.push(((at + n * size) as u64, size as u32));
            }
        }
    };
    written(&small, 16384, lead);
    written(&large, 65536, at_large);
    written(last, 65536, at_last);
    assert!(want
        .iter()
        .any(|&(o, s)| o / CARVE_CHUNK as u64 != (o + u64::from(s) - 1) / CARVE_CHUNK as u64));

    for step in [usize::MAX, 1000, 65536 + 512] {
        let mut got = Vec::new();
        let mut input = Trickle { data: &image, step };
        let stats = scan(
            &mut input,
            0,
            &mut |p| got.push((p.offset, p.page_size)),
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(got, want, "reads of at most {step} bytes");
        assert_eq!(stats.bytes, image.len() as u64);
        assert_eq!(stats.pages, want.len() as u64);
    }
}

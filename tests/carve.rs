//! `carve`: a real MySQL 9.7 table file (fixtures/mysql-p16k/purged) written into
//! a small ext4 image between other real files and deleted there, then
//! found and rebuilt from the image; and two real tables' pages
//! interleaved in one input, told apart by space id.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::{self, fixtures_dir, run, run_json, unpack};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The copy after recovery, purge and a slow shutdown: no transaction in
/// flight, so the rows on disk are the committed rows the truth counts (the
/// crash copy holds ten rows of t_plain changed by an open transaction).
const SET: &str = "mysql-p16k/purged";
const PAGE: usize = 16384;

/// `truth.json` of the set.
fn truth() -> Value {
    serde_json::from_slice(&std::fs::read(fixtures_dir().join(SET).join("truth.json")).unwrap())
        .unwrap()
}

/// The table `name` of the truth.
fn table<'a>(truth: &'a Value, name: &str) -> &'a Value {
    support::entry(truth, "tables", |t| t["name"] == name)
}

/// The space id the server gave table `name`.
fn space_id(truth: &Value, name: &str) -> u64 {
    table(truth, name)["innodb_tables"][0]["space_id"]
        .as_u64()
        .unwrap()
}

/// True when `tool -V` runs.
fn has(tool: &str) -> bool {
    Command::new(tool)
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `tool args`, which must succeed.
fn must(tool: &str, args: &[&str]) -> String {
    let o = Command::new(tool).args(args).output().unwrap();
    assert!(
        o.status.success(),
        "{tool} {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `records --format json FILE`: the rows.
fn rows(file: &Path) -> Vec<Value> {
    rows_typed(None, file)
}

/// `records --format json [--ddl DDL] FILE`: the rows.
fn rows_typed(ddl: Option<&Path>, file: &Path) -> Vec<Value> {
    let mut args: Vec<&std::ffi::OsStr> =
        vec!["--format".as_ref(), "json".as_ref(), "records".as_ref()];
    if let Some(d) = ddl {
        args.extend(["--ddl".as_ref(), d.as_os_str()]);
    }
    args.push(file.as_os_str());
    let o = run(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `carve --format json INPUT --out OUT`, which must succeed: its report.
fn carve_out(input: &Path, out: &Path) -> Value {
    let (r, o) = run_json([
        "carve".as_ref(),
        input.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    r
}

/// The space of `report` with id `id`.
pub(crate) fn carved(report: &Value, id: u64) -> &Value {
    report["spaces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["space_id"] == id)
        .unwrap_or_else(|| panic!("space {id} not found: {report}"))
}

/// The page numbers of a JSON page set: a list, or `{count, runs}`.
fn page_set(v: &Value) -> Vec<u64> {
    match v {
        Value::Array(a) => a.iter().map(|p| p.as_u64().unwrap()).collect(),
        m => m["runs"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r[0].as_u64().unwrap()..=r[1].as_u64().unwrap())
            .collect(),
    }
}

/// The rebuilt file equals `original` on every page (of `size` bytes); the
/// pages `carve` calls missing are the all-zero (never written) pages of
/// the original.
fn same_pages_of(rebuilt: &Path, original: &[u8], space: &Value, size: usize) {
    let got = std::fs::read(rebuilt).unwrap();
    assert_eq!(got.len(), original.len(), "{}", rebuilt.display());
    let missing = page_set(&space["missing"]);
    for (n, (a, b)) in got.chunks(size).zip(original.chunks(size)).enumerate() {
        assert_eq!(a, b, "page {n} of {} differs", rebuilt.display());
        let zero = b.iter().all(|&x| x == 0);
        assert_eq!(
            zero,
            missing.contains(&(n as u64)),
            "page {n}: all zero vs missing"
        );
    }
}

/// [`same_pages_of`] for 16 KiB pages.
fn same_pages(rebuilt: &Path, original: &[u8], space: &Value) {
    same_pages_of(rebuilt, original, space, PAGE);
}

/// Checks `records` on the rebuilt t_plain against `records` on the
/// original and against the server's count and digest.
fn rows_as_server(rebuilt: &Path, original: &Path, truth: &Value) {
    rows_as_table(
        rebuilt,
        original,
        table(truth, "test/t_plain"),
        "test/t_plain",
    );
}

/// Checks `records` on `rebuilt` against `records` on `original` and
/// against the server's count and digest of its table `t` (columns id, a,
/// b, c); `what` names the case in a failure.
fn rows_as_table(rebuilt: &Path, original: &Path, t: &Value, what: &str) {
    let ours = rows(rebuilt);
    assert_eq!(ours, rows(original), "{what}");
    assert_eq!(ours.len() as u64, t["count"].as_u64().unwrap(), "{what}");
    assert_eq!(
        support::concat_ws_digest(&ours, &["id", "a", "b", "c"]),
        t["checks"]["row_digest"].as_u64().unwrap(),
        "{what}"
    );
}

#[test]
fn deleted_file_rebuilt_from_ext4_image() {
    let required = std::env::var_os("INNODB_INSPECT_REQUIRE_SERVER").is_some();
    if required && (!has("mkfs.ext4") || !has("debugfs")) {
        // Required (CI): installed as the server tests install theirs.
        let _ = Command::new("apt-get")
            .args(["install", "-y", "-q", "e2fsprogs"])
            .output();
    }
    if !has("mkfs.ext4") || !has("debugfs") {
        assert!(
            !required,
            "mkfs.ext4 and debugfs are required (INNODB_INSPECT_REQUIRE_SERVER is set) and apt-get install e2fsprogs did not give them"
        );
        eprintln!("skipped: carve ext4 test needs mkfs.ext4 and debugfs (e2fsprogs)");
        return;
    }
    let truth = truth();
    let dir = tempfile::tempdir().unwrap();
    let (plain, plain_bytes) = unpack(dir.path(), &format!("{SET}/files/test/t_plain.ibd.gz"));
    let (desc, desc_bytes) = unpack(dir.path(), &format!("{SET}/files/test/t_desc.ibd.gz"));
    let other = fixtures_dir().join(SET).join("truth.json");
    let img = dir.path().join("disk.img");
    std::fs::File::create(&img)
        .unwrap()
        .set_len(8 << 20)
        .unwrap();
    let img_s = img.to_str().unwrap();
    // debugfs (like mke2fs -d) stores no all-zero block: a file's blocks
    // are contiguous only within a block. With blocks of the page size each
    // block is whole pages; with 4k blocks pages with a zero 4k run inside
    // are split and cannot be carved (see docs/recovery.md).
    must("mkfs.ext4", &["-q", "-F", "-b", "16384", img_s]);
    for (src, name) in [
        (&other, "truth.json"),
        (&plain, "t_plain.ibd"),
        (&desc, "t_desc.ibd"),
    ] {
        let cmd = format!("write {} {name}", src.display());
        must("debugfs", &["-w", "-R", &cmd, img_s]);
    }
    must("debugfs", &["-w", "-R", "rm t_plain.ibd", img_s]);
    let listing = must("debugfs", &["-R", "ls", img_s]);
    assert!(!listing.contains("t_plain.ibd") && listing.contains("t_desc.ibd"));
    let before = std::fs::read(&img).unwrap();

    let out = dir.path().join("carved");
    let r = carve_out(&img, &out);
    assert_eq!(
        std::fs::read(&img).unwrap(),
        before,
        "carve wrote to its input"
    );
    let id = space_id(&truth, "test/t_plain");
    let s = carved(&r, id);
    assert_eq!(s["tables"], serde_json::json!(["test/t_plain"]));
    assert_eq!(s["copies"], s["pages"]);
    let rebuilt = PathBuf::from(s["file"].as_str().unwrap());
    assert_eq!(rebuilt, out.join(format!("space-{id}.ibd")));
    same_pages(&rebuilt, &plain_bytes, s);
    rows_as_server(&rebuilt, &plain, &truth);
    // The file still in the image comes back too.
    let d = carved(&r, space_id(&truth, "test/t_desc"));
    same_pages(Path::new(d["file"].as_str().unwrap()), &desc_bytes, d);
    // Index ids: exactly those the server recorded for the table, and the SDI's.
    let mut ids: Vec<u64> = truth["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["table"] == "test/t_plain")
        .map(|i| i["index_id"].as_u64().unwrap())
        .collect();
    assert!(!ids.is_empty());
    ids.sort_unstable();
    // The SDI's index id, u64::MAX, is past 2^53 - 1: JSON gives it as a
    // string of its digits.
    let mut want: Vec<Value> = ids.iter().map(|&i| serde_json::json!(i)).collect();
    want.push(serde_json::json!(u64::MAX.to_string()));
    assert_eq!(s["index_ids"], serde_json::json!(want));
}

#[test]
fn interleaved_tables_told_apart_and_out_refused() {
    let truth = truth();
    let dir = tempfile::tempdir().unwrap();
    let (plain, plain_bytes) = unpack(dir.path(), &format!("{SET}/files/test/t_plain.ibd.gz"));
    let (_, desc_bytes) = unpack(dir.path(), &format!("{SET}/files/test/t_desc.ibd.gz"));
    // Three sectors of another real file first: every page at an odd
    // multiple of 512, pages of the two tables alternating.
    let other = std::fs::read(fixtures_dir().join(SET).join("truth.json")).unwrap();
    let mut mixed = other[..3 * 512].to_vec();
    let (a, b) = (plain_bytes.chunks(PAGE), desc_bytes.chunks(PAGE));
    let mut b = b.fuse();
    for pa in a {
        mixed.extend_from_slice(pa);
        if let Some(pb) = b.next() {
            mixed.extend_from_slice(pb);
        }
    }
    b.for_each(|pb| mixed.extend_from_slice(pb));
    let input = dir.path().join("mixed.bin");
    std::fs::write(&input, &mixed).unwrap();

    let out = dir.path().join("carved");
    let r = carve_out(&input, &out);
    assert_eq!(r["spaces"].as_array().unwrap().len(), 2, "{r}");
    for (name, bytes) in [("test/t_plain", &plain_bytes), ("test/t_desc", &desc_bytes)] {
        let s = carved(&r, space_id(&truth, name));
        assert_eq!(s["tables"], serde_json::json!([name]));
        same_pages(Path::new(s["file"].as_str().unwrap()), bytes, s);
    }
    rows_as_server(
        &out.join(format!("space-{}.ibd", space_id(&truth, "test/t_plain"))),
        &plain,
        &truth,
    );

    // Without --out: the same tables named (from page 0, the INODE and SDI
    // pages written to a temporary file), nothing written beside the input.
    let (plain_r, o) = run_json(["carve".as_ref(), input.as_os_str()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for name in ["test/t_plain", "test/t_desc"] {
        let s = carved(&plain_r, space_id(&truth, name));
        assert_eq!(s["tables"], serde_json::json!([name]));
        assert!(s.get("file").is_none());
    }

    // Again into the same directory: refused, nothing overwritten.
    let first = out.join(format!("space-{}.ibd", space_id(&truth, "test/t_plain")));
    let second = out.join(format!("space-{}.ibd", space_id(&truth, "test/t_desc")));
    let kept = std::fs::read(&second).unwrap();
    // The first (lower space id, written first) gone: still refused, and
    // before it is written again.
    std::fs::remove_file(&first).unwrap();
    let o = run([
        "carve".as_ref(),
        input.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("never overwrites"));
    assert_eq!(std::fs::read(&second).unwrap(), kept);
    assert!(!first.exists());
    // A directory holding the input: refused before anything is written.
    let o = run([
        "carve".as_ref(),
        input.as_os_str(),
        "--out".as_ref(),
        dir.path().as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds the input"));
    assert!(!dir.path().join(first.file_name().unwrap()).exists());
}

#[test]
fn pages_straddling_reads_are_found() {
    use innodb_space::carve::CARVE_CHUNK;
    let dir = tempfile::tempdir().unwrap();
    let (_, plain_bytes) = unpack(dir.path(), &format!("{SET}/files/test/t_plain.ibd.gz"));
    // The first read fills CARVE_CHUNK + 64 KiB; the file starts 5 sectors
    // before its end, so its pages cross that read and the next ones.
    for lead in [CARVE_CHUNK + 65536 - 5 * 512, 2 * CARVE_CHUNK + 512] {
        let mut data = vec![0u8; lead];
        data.extend_from_slice(&plain_bytes);
        data.extend_from_slice(&[0u8; 1536]);
        let input = dir.path().join(format!("lead-{lead}.bin"));
        std::fs::write(&input, &data).unwrap();
        let out = dir.path().join(format!("out-{lead}"));
        let r = carve_out(&input, &out);
        assert_eq!(r["inputs"][0]["bytes"], data.len() as u64);
        let s = carved(&r, space_id(&truth(), "test/t_plain"));
        let written = plain_bytes
            .chunks(PAGE)
            .filter(|p| p.iter().any(|&b| b != 0))
            .count();
        assert_eq!(s["pages"], written as u64, "lead {lead}");
        same_pages(Path::new(s["file"].as_str().unwrap()), &plain_bytes, s);
    }
}

#[test]
fn compressed_tables_carved_at_their_physical_sizes() {
    let truth = truth();
    let dir = tempfile::tempdir().unwrap();
    // KEY_BLOCK_SIZE=1 and 16: pages of 1 KiB and 16 KiB, one checksum at
    // offset 0 and no trailer. One input, the 16k file at an odd sector.
    let (zip1, zip1_bytes) = unpack(dir.path(), &format!("{SET}/files/test/t_zip1.ibd.gz"));
    let (zip16, zip16_bytes) = unpack(dir.path(), &format!("{SET}/files/test/t_zip16.ibd.gz"));
    let mut data = zip1_bytes.clone();
    data.extend_from_slice(&[0x5a; 3 * 512]);
    data.extend_from_slice(&zip16_bytes);
    let input = dir.path().join("zip.bin");
    std::fs::write(&input, &data).unwrap();
    let out = dir.path().join("carved");
    let r = carve_out(&input, &out);
    for (name, file, bytes, size) in [
        ("test/t_zip1", &zip1, &zip1_bytes, 1024usize),
        ("test/t_zip16", &zip16, &zip16_bytes, 16384),
    ] {
        let s = carved(&r, space_id(&truth, name));
        assert_eq!(s["page_size"], size as u64, "{name}");
        assert_eq!(s["checksums"], serde_json::json!(["zip_crc32"]), "{name}");
        assert_eq!(s["tables"], serde_json::json!([name]));
        let rebuilt = PathBuf::from(s["file"].as_str().unwrap());
        same_pages_of(&rebuilt, bytes, s, size);
        rows_as_table(&rebuilt, file, table(&truth, name), name);
    }
}

#[test]
fn page_compressed_tables_carved_from_their_stored_blocks() {
    let truth = truth();
    let dir = tempfile::tempdir().unwrap();
    // COMPRESSION='lz4' and 'zlib' (MySQL 9.7): every page but page 0 is a
    // compressed block in the first bytes of its 16 KiB, the rest a hole.
    // Each file once as the server's copy holds it (holes as zeros), and
    // once as a file system stores it (crafted: every all-zero 4 KiB block
    // after page 0 left out, so each block is followed by the next page's
    // bytes, not by zeros), at an odd sector.
    let mut data = Vec::new();
    let mut files = Vec::new();
    for name in ["t_lz4", "t_zlib"] {
        let (file, bytes) = unpack(dir.path(), &format!("{SET}/files/test/{name}.ibd.gz"));
        data.extend_from_slice(&bytes);
        files.push((name, file, bytes));
    }
    let plain = data.len();
    data.extend_from_slice(&[0x5a; 3 * 512]);
    for (_, _, bytes) in &files {
        data.extend_from_slice(&bytes[..PAGE]);
        for block in bytes[PAGE..].chunks(4096) {
            if block.iter().any(|&b| b != 0) {
                data.extend_from_slice(block);
            }
        }
    }
    for (label, input_bytes) in [("copy", &data[..plain]), ("stored", &data[plain..])] {
        let input = dir.path().join(format!("{label}.bin"));
        std::fs::write(&input, input_bytes).unwrap();
        let out = dir.path().join(format!("carved-{label}"));
        let r = carve_out(&input, &out);
        for (name, file, bytes) in &files {
            let name = format!("test/{name}");
            let s = carved(&r, space_id(&truth, &name));
            let written = bytes
                .chunks(PAGE)
                .filter(|p| p.iter().any(|&b| b != 0))
                .count();
            assert_eq!(s["pages"], written as u64, "{label} {name}");
            assert_eq!(s["tables"], serde_json::json!([name]), "{label}");
            let rebuilt = PathBuf::from(s["file"].as_str().unwrap());
            same_pages_of(&rebuilt, bytes, s, PAGE);
            let what = format!("{label} {name}");
            rows_as_table(&rebuilt, file, table(&truth, &name), &what);
        }
    }
}

#[test]
fn mariadb_page_compressed_tables_carved_from_their_frames() {
    // PAGE_COMPRESSED=1 (MariaDB 10.11, zlib): in the full_crc32 layout
    // (p16k) each page but page 0 is a frame of n * 256 bytes with its own
    // CRC-32C; in the classic layout (p16k-crc32, innodb_checksum_algorithm
    // =crc32) a 40-byte header and a zlib payload, stored with no checksum
    // (0xDEADBEEF). Each as the server's copy holds it, and as a file
    // system stores it (crafted: all-zero 4 KiB blocks after page 0 left
    // out, at an odd sector).
    let dir = tempfile::tempdir().unwrap();
    for set in ["p16k", "p16k-crc32"] {
        let truth: Value = serde_json::from_slice(
            &std::fs::read(fixtures_dir().join(set).join("truth.json")).unwrap(),
        )
        .unwrap();
        let t = support::entry(&truth, "tables", |t| t["name"] == "test/t_pagecomp");
        let ddl = dir.path().join(format!("{set}.sql"));
        std::fs::write(&ddl, t["create_table"].as_str().unwrap()).unwrap();
        let sub = dir.path().join(set);
        std::fs::create_dir_all(&sub).unwrap();
        let (file, bytes) = unpack(&sub, &format!("{set}/files/test/t_pagecomp.ibd.gz"));
        let mut stored = vec![0x5a; 3 * 512];
        stored.extend_from_slice(&bytes[..PAGE]);
        for block in bytes[PAGE..].chunks(4096) {
            if block.iter().any(|&b| b != 0) {
                stored.extend_from_slice(block);
            }
        }
        let records = |f: &Path| rows_typed(Some(&ddl), f);
        let want = records(&file);
        for (label, input_bytes) in [("copy", &bytes), ("stored", &stored)] {
            let input = sub.join(format!("{label}.bin"));
            std::fs::write(&input, input_bytes).unwrap();
            let out = sub.join(format!("carved-{label}"));
            let r = carve_out(&input, &out);
            let s = carved(&r, t["space_id"].as_u64().unwrap());
            let written = bytes
                .chunks(PAGE)
                .filter(|p| p.iter().any(|&b| b != 0))
                .count();
            assert_eq!(s["pages"], written as u64, "{set} {label}");
            let rebuilt = PathBuf::from(s["file"].as_str().unwrap());
            same_pages_of(&rebuilt, &bytes, s, PAGE);
            let ours = records(&rebuilt);
            assert_eq!(ours, want, "{set} {label}");
            let rows: Vec<Value> = ours
                .into_iter()
                .filter(|l| l.get("row").is_some())
                .collect();
            assert_eq!(rows.len() as u64, t["count"].as_u64().unwrap(), "{set}");
            assert_eq!(
                support::concat_ws_digest(&rows, &["id", "a", "b", "c"]),
                t["checks"]["row_digest"].as_u64().unwrap(),
                "{set} {label}"
            );
        }
    }
}

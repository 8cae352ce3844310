//! MySQL 8.0.20+'s doublewrite files (`#ib_<page size>_<n>.dblwr`) of the
//! MySQL sets, read by `doublewrite` and checked against the server: the
//! files' sizes and the `innodb_doublewrite_*` variables, innochecksum's
//! page-type count of the file where it read it, and every copy against the
//! page of its tablespace read here byte for byte (the tablespace found by
//! the space id truth.json gives each file). Then crafted damage: a page of
//! a copied tablespace overwritten, which `checksum --datadir` must name as
//! having a good copy in the doublewrite file.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::mysql::{sets, MysqlCopy};
use crate::support::{run, run_json};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};

fn inflate(path: &Path) -> Vec<u8> {
    let mut data = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_end(&mut data)
        .unwrap();
    data
}

/// The data directory's file of `space_id` per truth.json: its name
/// relative to the directory.
fn file_of_space(copy: &MysqlCopy, space_id: u64) -> Option<String> {
    copy.file_facts()
        .iter()
        .find(|(_, f)| f["space_id"].as_u64() == Some(space_id))
        .map(|(rel, _)| rel.clone())
}

/// The name of a report's file relative to the data directory, without `.gz`.
fn rel(copy: &MysqlCopy, file: &str) -> String {
    let p = PathBuf::from(file);
    let r = crate::support::mysql::short(&copy.files, &p);
    r.strip_suffix(".gz").unwrap_or(&r).to_string()
}

/// What innochecksum's page-type summary names a page type.
fn innochecksum_type(t: &str) -> &str {
    match t {
        "INDEX" | "SDI" | "UNDO_LOG" | "INODE" | "IBUF_FREE_LIST" | "ALLOCATED" | "IBUF_BITMAP"
        | "SYS" | "TRX_SYS" | "FSP_HDR" | "XDES" | "BLOB" | "ZBLOB" | "ZBLOB2" | "SDI_BLOB"
        | "SDI_ZBLOB" => t,
        _ => "OTHER",
    }
}

fn check_copy(copy: &MysqlCopy) {
    let truth = &copy.truth;
    let page_size = copy.page_size() as usize;
    let vars = &truth["server_variables"];
    let n_files = vars["doublewrite_files"].as_u64().unwrap() as u32;
    let n_pages = vars["doublewrite_pages"].as_u64().unwrap() as u32;
    let (v, out) = run_json([
        "--datadir".as_ref(),
        copy.files.as_os_str(),
        "doublewrite".as_ref(),
        "--all".as_ref(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}: {}",
        copy.name,
        String::from_utf8_lossy(&out.stderr)
    );
    let reports: Vec<&Value> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| &f["report"])
        .filter(|r| r["kind"] == "doublewrite_file")
        .collect();
    // As many files as innodb_doublewrite_files, each as big as the server left it.
    assert_eq!(reports.len() as u32, n_files, "{}", copy.name);
    let mut tablespaces: HashMap<String, Vec<u8>> = HashMap::new();
    let mut states: BTreeMap<String, u32> = BTreeMap::new();
    for r in reports {
        let name = rel(copy, r["file"].as_str().unwrap());
        let facts = &copy.file_facts()[&name];
        let slots = r["slot_count"].as_u64().unwrap() as usize;
        assert_eq!(r["slot_size"].as_u64().unwrap() as usize, page_size);
        assert_eq!(
            (slots * page_size) as u64,
            facts["bytes"].as_u64().unwrap(),
            "{}: {name}",
            copy.name
        );
        // Batch segments of innodb_doublewrite_pages each; the single-page
        // slots (SYNC_PAGE_FLUSH_SLOTS = 512) shared by the odd files.
        let number: u32 = name.rsplit('_').next().unwrap()[..1].parse().unwrap();
        let single = r["single_page_slots"].as_u64().unwrap() as u32;
        let expected_single = if number % 2 == 1 {
            512 / (n_files / 2)
        } else {
            0
        };
        assert_eq!(single, expected_single, "{}: {name}", copy.name);
        assert_eq!(
            (slots as u32 - single) % n_pages,
            0,
            "{}: {name}",
            copy.name
        );
        assert!(slots as u32 > single);
        // No copy fails its checksum (innochecksum, where it read the file,
        // found no bad page either).
        assert_eq!(r["by_checksum"].get("bad"), None, "{}: {name}", copy.name);
        let ic = &facts["innochecksum"];
        if ic["exit_code"] == 0 {
            assert_eq!(ic["check_all"]["bad_pages_count"], 0);
        }
        let dblwr = inflate(&copy.file(&name));
        let mut types: BTreeMap<String, u64> = BTreeMap::new();
        let empty = r["empty_slots"].as_u64().unwrap();
        if empty > 0 {
            types.insert("ALLOCATED".into(), empty);
        }
        for s in r["slots"].as_array().unwrap() {
            let t = innochecksum_type(s["type"].as_str().unwrap()).to_string();
            *types.entry(t).or_default() += 1;
            let state = s["state"].as_str().unwrap().to_string();
            *states.entry(state.clone()).or_default() += 1;
            let space_id = s["space_id"].as_u64().unwrap();
            let page_no = s["page_no"].as_u64().unwrap() as usize;
            let slot = s["slot"].as_u64().unwrap() as usize;
            let Some(ts) = file_of_space(copy, space_id) else {
                // No file of the directory has this space id (per the server).
                assert_eq!(state, "no_tablespace", "{}: {name} slot {slot}", copy.name);
                continue;
            };
            assert_eq!(
                s["tablespace"].as_str().map(|t| rel(copy, t)),
                Some(ts.clone()),
                "{}: {name} slot {slot}",
                copy.name
            );
            // The copy against the page, read here.
            let size = s["size"].as_u64().unwrap() as usize;
            let data = tablespaces
                .entry(ts.clone())
                .or_insert_with(|| inflate(&copy.file(&ts)));
            let page = &data[page_no * size..(page_no + 1) * size];
            let copy_bytes = &dblwr[slot * page_size..slot * page_size + size];
            let page_lsn = u64::from_be_bytes(page[16..24].try_into().unwrap());
            let copy_lsn = u64::from_be_bytes(copy_bytes[16..24].try_into().unwrap());
            assert_eq!(s["lsn"].as_u64(), Some(copy_lsn));
            assert_eq!(
                u32::from_be_bytes(copy_bytes[4..8].try_into().unwrap()) as usize,
                page_no
            );
            let expected = if page == copy_bytes {
                "same"
            } else if copy_lsn < page_lsn {
                "older"
            } else {
                "newer"
            };
            assert_eq!(
                state, expected,
                "{}: {name} slot {slot} ({ts} page {page_no})",
                copy.name
            );
        }
        // innochecksum's page-type summary of the file, where it read it as
        // pages of this size.
        let total = ic["page_types_total"].as_u64().unwrap_or(0);
        if ic["exit_code"] == 0 && total == slots as u64 {
            let theirs: BTreeMap<String, u64> = ic["page_types"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
                .filter(|(_, v)| *v > 0)
                .collect();
            assert_eq!(types, theirs, "{}: {name}", copy.name);
        }
    }
    // A server that flushed every dirty page before it stopped leaves no
    // torn page for a copy to mend.
    for bad in ["restores", "superseded", "copy_bad", "beyond_end"] {
        assert_eq!(states.get(bad), None, "{}: {states:?}", copy.name);
    }
    assert!(
        states.get("same").copied().unwrap_or(0) > 0,
        "{}",
        copy.name
    );
}

#[test]
fn every_copy_verifies_and_matches_its_tablespace_page() {
    for set in sets() {
        check_copy(&set.crash);
        check_copy(&set.purged);
    }
}

#[test]
fn summary_pages_and_page_read_a_doublewrite_file() {
    for set in sets() {
        let copy = &set.crash;
        let ps = copy.page_size();
        let f = copy.file(&format!("#ib_{ps}_0.dblwr"));
        let out = run(["summary".as_ref(), f.as_os_str()]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("doublewrite file"), "{text}");
        let (v, out) = run_json(["pages".as_ref(), f.as_os_str()]);
        assert!(out.status.success());
        let r = &v["reports"][0];
        let slots = r["slot_count"].as_u64().unwrap();
        assert_eq!(
            slots * ps,
            copy.file_facts()[&format!("#ib_{ps}_0.dblwr")]["bytes"]
        );
        // `page` decodes the copy in a slot as the page it copies.
        let first = &r["slots"][0];
        let n = first["slot"].as_u64().unwrap().to_string();
        let (p, out) = run_json(["page".as_ref(), f.as_os_str(), n.as_ref()]);
        assert!(out.status.success());
        assert_eq!(p["type"], first["type"]);
        let fields: Vec<&Value> = p["sections"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["fields"].as_array().unwrap())
            .collect();
        let field = |name: &str| {
            fields
                .iter()
                .find(|f| f["name"] == name)
                .map(|f| f["value"].clone())
        };
        assert_eq!(field("FIL_PAGE_OFFSET").unwrap(), first["page_no"]);
        assert_eq!(field("FIL_PAGE_SPACE_ID").unwrap(), first["space_id"]);
        // `checksum` verifies every slot.
        let out = run(["checksum".as_ref(), f.as_os_str()]);
        assert_eq!(out.status.code(), Some(0));
    }
}

/// Crafted damage: a copied data directory whose tablespace page, of which
/// the doublewrite file holds an identical copy, is overwritten in its
/// middle; `checksum --datadir` names the good copy, `doublewrite` says it
/// restores the page, and another damaged page without a copy gets none.
#[test]
fn checksum_names_the_good_copy_of_a_crafted_torn_page() {
    for set in sets() {
        let copy = &set.crash;
        let (v, _) = run_json([
            "--datadir".as_ref(),
            copy.files.as_os_str(),
            "doublewrite".as_ref(),
            "--all".as_ref(),
        ]);
        // A copy the same as its page, of a table's .ibd.
        let (file, slot, page, size) = v["files"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| {
                let file = f["file"].as_str().unwrap().to_string();
                f["report"]["slots"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(move |s| (file.clone(), s.clone()))
            })
            .find(|(_, s)| {
                s["state"] == "same"
                    && s["tablespace"].as_str().unwrap().starts_with("test/")
                    && s["size"].as_u64() == Some(copy.page_size())
            })
            .map(|(f, s)| {
                (
                    f,
                    s["slot"].as_u64().unwrap(),
                    s["page_no"].as_u64().unwrap() as usize,
                    (
                        s["tablespace"].as_str().unwrap().to_string(),
                        s["size"].as_u64().unwrap() as usize,
                    ),
                )
            })
            .expect("a copy of a test/ page the same as its page");
        let (ts, size) = size;
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&copy.files, dir.path());
        let ts_rel = rel(copy, &ts);
        let gz = dir.path().join(format!("{ts_rel}.gz"));
        let mut data = inflate(&gz);
        std::fs::remove_file(&gz).unwrap();
        // The crafted damage: 16 bytes in the middle of the page, and of
        // another page in use, of which no slot holds a copy.
        let space_id = &rescue_space(&v, &ts);
        let copied: Vec<u64> = v["files"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| f["report"]["slots"].as_array().unwrap())
            .filter(|s| &s["space_id"] == space_id)
            .map(|s| s["page_no"].as_u64().unwrap())
            .collect();
        let other = (0..data.len() / size)
            .find(|&p| {
                !copied.contains(&(p as u64))
                    && data[p * size..(p + 1) * size].iter().any(|&b| b != 0)
            })
            .expect("a page in use without a copy");
        for p in [page, other] {
            let at = p * size + size / 2;
            for b in &mut data[at..at + 16] {
                *b ^= 0x5a;
            }
        }
        let damaged = dir.path().join(&ts_rel);
        std::fs::write(&damaged, &data).unwrap();
        let (c, out) = run_json([
            "--datadir".as_ref(),
            dir.path().as_os_str(),
            "checksum".as_ref(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", copy.name);
        let f = c["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["file"].as_str().unwrap().ends_with(&ts_rel))
            .unwrap();
        let rescues = f["report"]["doublewrite_copies"].as_array().unwrap();
        let file_name = Path::new(&file)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        assert_eq!(rescues.len(), 1, "{}: {rescues:?}", copy.name);
        assert_eq!(rescues[0]["page"], page as u64);
        assert_eq!(rescues[0]["slot"], slot);
        assert!(rescues[0]["file"].as_str().unwrap().ends_with(&file_name));
        assert_eq!(c["totals"]["doublewrite_copies"], 1);
        assert_eq!(
            f["report"]["bad_page_ranges"]["count"].as_u64(),
            Some(2),
            "{}: both damaged pages are bad",
            copy.name
        );
        // `doublewrite` says which copy restores the page.
        let (d, out) = run_json([
            "--datadir".as_ref(),
            dir.path().as_os_str(),
            "doublewrite".as_ref(),
        ]);
        assert_eq!(out.status.code(), Some(1));
        let restores = d["totals"]["restores"].as_array().unwrap();
        assert_eq!(restores.len(), 1);
        assert_eq!(restores[0]["page_no"], page as u64);
        assert_eq!(restores[0]["tablespace"], ts_rel.as_str());
    }
}

/// The space id of the copies of tablespace `ts` in a `doublewrite` report.
fn rescue_space(v: &Value, ts: &str) -> Value {
    v["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["report"]["slots"].as_array().unwrap())
        .find(|s| s["tablespace"] == ts)
        .map(|s| s["space_id"].clone())
        .unwrap()
}

fn copy_dir(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

//! MySQL 8.0+ LOBs read from real files: the sakila `staff` picture, the
//! ibdNinja `blob_external` and `json_partial*` fixtures (checked against
//! their golden files), damaged copies (loops, wrong pages), and a
//! synthetic compressed LOB (no third-party file has one).

// In tests a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use innodb_format::fil::header::{
    FIL_PAGE_NEXT, FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID, FIL_PAGE_TYPE,
};
use innodb_format::fil::page_type::PageType;
use innodb_format::lob::field_ref::{LobRef, LOB_REF_SIZE};
use innodb_space::lob::{read_lob, read_lob_version};
use innodb_space::logical_pages::LogicalPages;
use innodb_space::{OpenOptions, Tablespace};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where the third-party files are, and the skip of a test on a fresh
/// clone without them: the integration tests' helper, shared.
#[path = "../../../tests/support/thirdparty.rs"]
mod thirdparty;

/// A file below `../shared/thirdparty`.
fn fixture(rel: &str) -> PathBuf {
    thirdparty::dir().join(rel)
}

fn open(path: &Path) -> Tablespace {
    Tablespace::open(path, OpenOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every page of the file whose type is one of `types`.
fn pages_of_type(space: &Tablespace, types: &[PageType]) -> Vec<u32> {
    let mut pages = LogicalPages::new(space);
    let mut buf = Vec::new();
    (0..space.page_count())
        .filter(|&n| {
            pages
                .read_into(n, &mut buf)
                .is_some_and(|c| types.contains(&c.page_type))
        })
        .collect()
}

/// The external references on the leaf pages of the file's indexes: every
/// 20 bytes that name this space, a LOB first page (LOB_FIRST or
/// ZLOB_FIRST), and a length whose unused bytes are zero. In page order,
/// then in order of position within each page.
fn leaf_refs(space: &Tablespace) -> Vec<(u32, usize, LobRef)> {
    refs_to(space, &[PageType::LOB_FIRST, PageType::ZLOB_FIRST])
}

/// As [`leaf_refs`], for references to pages of the given types.
fn refs_to(space: &Tablespace, types: &[PageType]) -> Vec<(u32, usize, LobRef)> {
    let firsts = pages_of_type(space, types);
    let mut pages = LogicalPages::new(space);
    let mut out = Vec::new();
    for n in 0..space.page_count() {
        let Some(page) = pages.read(n) else { continue };
        if page.check.page_type != PageType::INDEX || page.check.index.is_none_or(|i| i.level != 0)
        {
            continue;
        }
        let b = &page.bytes;
        for at in 0..b.len().saturating_sub(LOB_REF_SIZE) {
            let r = LobRef::parse(&b[at..]).unwrap();
            if r.space_id == space.space_id()
                && firsts.contains(&r.page_no)
                && r.flags & 0x1F == 0
                && b[at + 13..at + 16] == [0, 0, 0]
                && r.length > 0
            {
                out.push((n, at, r));
            }
        }
    }
    out
}

fn read(space: &Tablespace, r: &LobRef) -> Vec<u8> {
    let mut pages = LogicalPages::new(space);
    read_lob(&mut pages, r.page_no, r.length as usize, &mut Vec::new())
        .unwrap_or_else(|e| panic!("{}: page {}: {e}", space.path().display(), r.page_no))
}

/// Walks a PNG's chunks, checking each CRC; returns the bytes consumed
/// (through IEND) and the chunk count.
fn png_chunks(b: &[u8]) -> (usize, usize) {
    assert_eq!(&b[..8], b"\x89PNG\r\n\x1a\n");
    let mut at = 8;
    let mut n = 0;
    loop {
        let len = u32::from_be_bytes(b[at..at + 4].try_into().unwrap()) as usize;
        let kind = &b[at + 4..at + 8];
        let mut crc = flate2::Crc::new();
        crc.update(&b[at + 4..at + 8 + len]);
        let stored = u32::from_be_bytes(b[at + 8 + len..at + 12 + len].try_into().unwrap());
        assert_eq!(crc.sum(), stored, "CRC of chunk {n} at {at}");
        at += 12 + len;
        n += 1;
        if kind == b"IEND" {
            return (at, n);
        }
    }
}

#[test]
fn sakila_staff_picture_is_a_whole_png() {
    let Some(_) = thirdparty::present() else {
        return;
    };
    for dir in ["8.0", "8.4"] {
        let path = fixture(&format!(
            "jeremycole__innodb_ruby/spec/data/sakila/{dir}/sakila/staff.ibd"
        ));
        let space = open(&path);
        let refs = leaf_refs(&space);
        // Only staff 1 has a picture; the LOB starts on page 7.
        assert_eq!(refs.len(), 1, "{dir}: {refs:?}");
        let (_, _, r) = refs[0];
        assert_eq!((r.page_no, r.version(), r.length), (7, 1, 36365), "{dir}");
        assert!(r.is_owner() && !r.is_being_modified());
        let picture = read(&space, &r);
        assert_eq!(picture.len(), 36365, "{dir}");
        // A PNG whose every chunk's CRC holds, ending exactly at IEND.
        let (end, chunks) = png_chunks(&picture);
        assert_eq!(end, picture.len(), "{dir}");
        assert!(chunks > 3, "{dir}");
    }
}

/// The `[EXTERNAL: ...]` fields of an ibdNinja records golden file: page,
/// version, length and the first bytes shown.
fn golden_externals(text: &str) -> Vec<(u32, u32, u32, u32, Vec<u8>)> {
    let mut out = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(rest) = line.trim().strip_prefix("[EXTERNAL: ") else {
            continue;
        };
        let mut nums = rest
            .trim_end_matches(']')
            .split(", ")
            .map(|kv| kv.split('=').nth(1).unwrap().parse::<u32>().unwrap());
        let (space, page, version, len) = (
            nums.next().unwrap(),
            nums.next().unwrap(),
            nums.next().unwrap(),
            nums.next().unwrap(),
        );
        let mut prefix = Vec::new();
        assert!(lines.next().unwrap().contains("[LOB DATA"));
        while let Some(l) = lines.peek() {
            let l = l.trim();
            if l.is_empty() || l.starts_with('[') {
                break;
            }
            prefix.extend(l.split(' ').map(|h| u8::from_str_radix(h, 16).unwrap()));
            lines.next();
        }
        out.push((space, page, version, len, prefix));
    }
    out
}

#[test]
fn ibdninja_blob_external_rows_match_the_golden_file() {
    let Some(_) = thirdparty::present() else {
        return;
    };
    for v in ["8.0", "8.4", "9.0"] {
        let dir = fixture(&format!("KernelMaker__ibdNinja/tests/{v}"));
        let space = open(&dir.join("fixtures/blob_external.ibd"));
        let golden =
            std::fs::read_to_string(dir.join("expected/blob_external_parse_page_4_records.txt"))
                .unwrap();
        let expected = golden_externals(&golden);
        assert_eq!(expected.len(), 5, "{v}");
        let refs = leaf_refs(&space);
        assert_eq!(refs.len(), expected.len(), "{v}: {refs:?}");
        for (space_id, page, version, len, prefix) in expected {
            // The reference in the file says what the golden file says.
            let (leaf, _, r) = *refs.iter().find(|(_, _, r)| r.page_no == page).unwrap();
            assert_eq!(leaf, 4);
            assert_eq!(
                (r.space_id, r.version(), r.length),
                (space_id, version, len),
                "{v} page {page}"
            );
            let value = read(&space, &r);
            assert_eq!(value.len(), len as usize, "{v} page {page}");
            assert_eq!(prefix.len(), 256.min(len as usize), "{v} page {page}");
            assert_eq!(&value[..prefix.len()], &prefix[..], "{v} page {page}");
        }
    }
}

/// The maximal runs of one byte at least 1000 long, sorted.
fn long_runs(b: &[u8]) -> Vec<(u8, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let j = i + b[i..].iter().take_while(|&&c| c == b[i]).count();
        if j - i >= 1000 {
            out.push((b[i], j - i));
        }
        i = j;
    }
    out.sort();
    out
}

/// Checks that the binary JSON `doc` holds the document `text`: the same
/// long runs (the payload strings) and every other string, key or value.
fn assert_same_document(doc: &[u8], text: &str, what: &str) {
    assert_eq!(long_runs(doc), long_runs(text.as_bytes()), "{what}");
    for s in text.split('"').skip(1).step_by(2) {
        if s.len() >= 3 && long_runs(s.as_bytes()).is_empty() {
            assert!(
                doc.windows(s.len()).any(|w| w == s.as_bytes()),
                "{what}: {s:?} is not in the binary document"
            );
        }
    }
}

fn read_version(space: &Tablespace, r: &LobRef, version: Option<u32>) -> Vec<u8> {
    let mut pages = LogicalPages::new(space);
    read_lob_version(
        &mut pages,
        r.page_no,
        version,
        r.length as usize,
        &mut Vec::new(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", space.path().display()))
}

#[test]
fn ibdninja_json_partial_updates_read_at_every_version() {
    let Some(_) = thirdparty::present() else {
        return;
    };
    for v in ["8.0", "8.4", "9.0"] {
        let dir = fixture(&format!("KernelMaker__ibdNinja/tests/{v}"));
        let golden =
            |name: &str| std::fs::read_to_string(dir.join(format!("expected/{name}.txt"))).unwrap();

        // Two JSON columns; doc1 was updated twice (LOB version 3), doc2 once.
        let space = open(&dir.join("fixtures/json_partial.ibd"));
        let refs = leaf_refs(&space);
        assert_eq!(refs.len(), 2, "{v}");
        let (doc1, doc2) = (refs[0].2, refs[1].2);
        assert_eq!((doc1.version(), doc2.version()), (3, 2), "{v}");
        let current = read(&space, &doc1);
        assert_eq!(current.len(), doc1.length as usize);
        assert_eq!(current, read_version(&space, &doc1, Some(3)));
        assert_same_document(
            &current,
            &golden("json_partial_inspect_doc1_current"),
            "doc1",
        );
        for k in 1..=3 {
            let old = read_version(&space, &doc1, Some(k));
            let name = format!("json_partial_inspect_doc1_v{k}");
            assert_same_document(&old, &golden(&name), &name);
        }
        assert_same_document(
            &read(&space, &doc2),
            &golden("json_partial_inspect_doc2_current"),
            "doc2",
        );
        for k in 1..=2 {
            let name = format!("json_partial_inspect_doc2_v{k}");
            assert_same_document(&read_version(&space, &doc2, Some(k)), &golden(&name), &name);
        }

        // A 48 KB document over 3 index entries, updated piecewise 3 times.
        let space = open(&dir.join("fixtures/json_partial_large.ibd"));
        let refs = leaf_refs(&space);
        assert_eq!(refs.len(), 1, "{v}");
        let r = refs[0].2;
        assert_eq!((r.version(), r.length), (4, 48130), "{v}");
        let current = read(&space, &r);
        assert_eq!(current.len(), 48130);
        assert_same_document(
            &current,
            &golden("json_partial_large_inspect_current"),
            "large",
        );
        for k in 1..=4 {
            let name = format!("json_partial_large_inspect_v{k}");
            assert_same_document(&read_version(&space, &r, Some(k)), &golden(&name), &name);
        }

        // Old versions purged: version 1 falls back to the current entry, as the server does.
        if v != "9.0" {
            let space = open(&dir.join("fixtures/json_partial_purged.ibd"));
            let refs = leaf_refs(&space);
            assert_eq!(refs.len(), 1, "{v}");
            let r = refs[0].2;
            let current = read(&space, &r);
            assert_same_document(
                &current,
                &golden("json_partial_purged_inspect_current"),
                "purged",
            );
            assert_eq!(read_version(&space, &r, Some(1)), current);
            assert_same_document(
                &read_version(&space, &r, Some(4)),
                &golden("json_partial_purged_inspect_v4"),
                "purged v4",
            );
        }
    }
}

/// A copy of `src` in a temporary file, patched by `patch` (page size 16k).
fn patched_copy(src: &Path, patch: impl FnOnce(&mut Vec<u8>)) -> tempfile::NamedTempFile {
    let mut bytes = std::fs::read(src).unwrap();
    patch(&mut bytes);
    let mut tmp = tempfile::NamedTempFile::new().unwrap();
    tmp.write_all(&bytes).unwrap();
    tmp.flush().unwrap();
    tmp
}

const PS: usize = 16384;

fn put_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

fn put_addr(b: &mut [u8], at: usize, page: u32, byte: u16) {
    put_u32(b, at, page);
    b[at + 4..at + 6].copy_from_slice(&byte.to_be_bytes());
}

fn staff_80() -> PathBuf {
    fixture("jeremycole__innodb_ruby/spec/data/sakila/8.0/sakila/staff.ibd")
}

fn read_staff_copy(tmp: &tempfile::NamedTempFile, want: usize) -> Result<Vec<u8>, String> {
    let space = open(tmp.path());
    let mut pages = LogicalPages::new(&space);
    read_lob(&mut pages, 7, want, &mut Vec::new())
}

// Page 7 of staff.ibd holds entries 0, 1, 2 (offsets 96, 156, 216) linked in that order.
const E0: usize = 7 * PS + 96;
const E1: usize = 7 * PS + 156;
const E2: usize = 7 * PS + 216;

#[test]
fn a_looping_index_list_is_an_error_not_a_hang() {
    let Some(_) = thirdparty::present() else {
        return;
    };
    let original = std::fs::read(staff_80()).unwrap();
    // Entry 1's next points back to entry 0: 32007 of 36365 bytes, then the loop.
    let tmp = patched_copy(&staff_80(), |b| put_addr(b, E1 + 6, 7, 96));
    let err = read_staff_copy(&tmp, 36365).unwrap_err();
    assert_eq!(
        err,
        "page 7: LOB index entry at offset 156: next node points back to page 7 offset 96, an entry already visited"
    );
    // An entry pointing to itself.
    let tmp = patched_copy(&staff_80(), |b| put_addr(b, E0 + 6, 7, 96));
    let err = read_staff_copy(&tmp, 36365).unwrap_err();
    assert!(
        err.contains("offset 96: next node points back to page 7 offset 96"),
        "{err}"
    );
    // A loop through the version list of the last entry.
    let tmp = patched_copy(&staff_80(), |b| {
        put_u32(b, E2 + 12, 1);
        put_addr(b, E2 + 16, 7, 216);
        put_addr(b, E2 + 22, 7, 216);
        put_u32(b, E2 + 56, 9); // a newer version than asked for: the versions are searched
    });
    let space = open(tmp.path());
    let mut pages = LogicalPages::new(&space);
    let err = read_lob_version(&mut pages, 7, Some(1), 36365, &mut Vec::new()).unwrap_err();
    assert!(
        err.contains("first node of OFFSET_VERSIONS points back to page 7 offset 216"),
        "{err}"
    );
    // The original is untouched.
    assert_eq!(std::fs::read(staff_80()).unwrap(), original);
}

#[test]
fn damaged_links_are_reported_with_page_and_field() {
    let Some(_) = thirdparty::present() else {
        return;
    };
    // The list ends early.
    let tmp = patched_copy(&staff_80(), |b| put_addr(b, E1 + 6, 0xFFFF_FFFF, 0));
    let err = read_staff_copy(&tmp, 36365).unwrap_err();
    assert_eq!(
        err,
        "page 7: the LOB index list ends after 32007 of 36365 bytes (2 entries)"
    );
    // A next node between two slots.
    let tmp = patched_copy(&staff_80(), |b| put_addr(b, E0 + 6, 7, 100));
    let err = read_staff_copy(&tmp, 36365).unwrap_err();
    assert!(err.starts_with("page 7: LOB index entry at offset 96: next node points to page 7 offset 100, which is not an index entry slot"), "{err}");
    // A next node on a B-tree page.
    let tmp = patched_copy(&staff_80(), |b| put_addr(b, E0 + 6, 4, 99));
    let err = read_staff_copy(&tmp, 36365).unwrap_err();
    assert!(
        err.contains(
            "points to page 4 offset 99, a page of type INDEX, not the first page or a LOB_INDEX page"
        ),
        "{err}"
    );
    // A next node beyond the file.
    let tmp = patched_copy(&staff_80(), |b| put_addr(b, E0 + 6, 500, 39));
    let err = read_staff_copy(&tmp, 36365).unwrap_err();
    assert!(
        err.contains("points to page 500 offset 39, which cannot be read"),
        "{err}"
    );
    // A data page that is not one.
    let tmp = patched_copy(&staff_80(), |b| put_u32(b, E1 + 48, 3));
    let err = read_staff_copy(&tmp, 36365).unwrap_err();
    assert_eq!(
        err,
        "page 7: LOB index entry at offset 156: OFFSET_PAGE_NO 3 is a page of type SDI, not LOB_DATA"
    );
    // The same data page twice.
    let tmp = patched_copy(&staff_80(), |b| put_u32(b, E2 + 48, 8));
    let err = read_staff_copy(&tmp, 36365).unwrap_err();
    assert_eq!(
        err,
        "page 7: LOB index entry at offset 216: data page 8 was already read for this LOB"
    );
    // A data length past the page.
    let tmp = patched_copy(&staff_80(), |b| put_u32(b, 8 * PS + 39, 20000));
    let err = read_staff_copy(&tmp, 36365).unwrap_err();
    assert!(
        err.starts_with("page 8: field OFFSET_DATA_LEN at offset 39: 20000 bytes"),
        "{err}"
    );
    // The first page is not a LOB page.
    let space = open(&staff_80());
    let mut pages = LogicalPages::new(&space);
    let err = read_lob(&mut pages, 8, 10, &mut Vec::new()).unwrap_err();
    assert_eq!(
        err,
        "page 8 is a page of type LOB_DATA, not LOB_FIRST or ZLOB_FIRST"
    );
    let err = read_lob(&mut pages, 99, 10, &mut Vec::new()).unwrap_err();
    assert_eq!(
        err,
        "LOB first page 99 cannot be read (the file has 11 pages)"
    );
}

#[test]
fn entries_on_a_lob_index_page_are_followed() {
    let Some(_) = thirdparty::present() else {
        return;
    };
    let original = read(&open(&staff_80()), &leaf_refs(&open(&staff_80()))[0].2);
    // Move entry 1 to slot 2 of page 10 (unused) made a LOB_INDEX page.
    let at = 39 + 2 * 60;
    let tmp = patched_copy(&staff_80(), |b| {
        let p10 = 10 * PS;
        put_u32(b, p10 + FIL_PAGE_OFFSET, 10);
        b[p10 + FIL_PAGE_TYPE..p10 + FIL_PAGE_TYPE + 2].copy_from_slice(&22u16.to_be_bytes());
        put_u32(b, p10 + FIL_PAGE_SPACE_ID, 27);
        let e1: Vec<u8> = b[E1..E1 + 60].to_vec();
        b[p10 + at..p10 + at + 60].copy_from_slice(&e1);
        b[E1..E1 + 60].fill(0);
        put_addr(b, E0 + 6, 10, at as u16);
        put_addr(b, E2, 10, at as u16);
    });
    assert_eq!(read_staff_copy(&tmp, 36365).unwrap(), original);
    // Capped at what is wanted.
    assert_eq!(read_staff_copy(&tmp, 20000).unwrap(), original[..20000]);
}

/// Sets the FIL header of synthetic page `n` of an 8k-page copy.
fn zip_page(b: &mut [u8], n: usize, page_type: u16, next: u32) {
    let p = n * 8192;
    b[p..p + 8192].fill(0);
    put_u32(b, p + FIL_PAGE_OFFSET, n as u32);
    put_u32(b, p + 8, 0xFFFF_FFFF);
    put_u32(b, p + FIL_PAGE_NEXT, next);
    b[p + FIL_PAGE_TYPE..p + FIL_PAGE_TYPE + 2].copy_from_slice(&page_type.to_be_bytes());
    put_u32(b, p + FIL_PAGE_SPACE_ID, 3);
}

fn deflate(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Writes a ZLOB index entry at absolute `at`.
#[allow(clippy::too_many_arguments)]
fn zentry(
    b: &mut [u8],
    at: usize,
    next: (u32, u16),
    z_page: u32,
    frag: u16,
    len: usize,
    zlen: usize,
    version: u32,
) {
    put_addr(b, at, 0xFFFF_FFFF, 0);
    put_addr(b, at + 6, next.0, next.1);
    put_addr(b, at + 16, 0xFFFF_FFFF, 0);
    put_addr(b, at + 22, 0xFFFF_FFFF, 0);
    put_u32(b, at + 48, z_page);
    b[at + 52..at + 54].copy_from_slice(&frag.to_be_bytes());
    put_u32(b, at + 54, len as u32);
    put_u32(b, at + 58, zlen as u32);
    put_u32(b, at + 62, version);
}

/// Writes fragment `id` of `len` payload bytes at page offset `off` of page `p`.
fn fragment(b: &mut [u8], p: usize, off: usize, id: u16, data: &[u8]) {
    let at = p * 8192 + off;
    b[at + 4..at + 6].copy_from_slice(&((data.len() + 8) as u16).to_be_bytes());
    b[at + 6..at + 8].copy_from_slice(&id.to_be_bytes());
    b[at + 8..at + 8 + data.len()].copy_from_slice(data);
    let dir = p * 8192 + 8192 - 12 - 2 * usize::from(id);
    b[dir..dir + 2].copy_from_slice(&(off as u16).to_be_bytes());
}

#[test]
fn a_synthetic_compressed_lob_is_inflated_chunk_by_chunk() {
    let Some(_) = thirdparty::present() else {
        return;
    };
    // No third-party file holds a ZLOB (no ROW_FORMAT=COMPRESSED table with
    // off-page columns): this builds one, following zlob0first.h, zlob0index.h
    // and lob0impl.h, in pages appended to a copy of a real 8k-page
    // COMPRESSED tablespace. It checks the walk, not the server's output.
    let src = fixture("ringo380__idb-utils/tests/fixtures/mysql9/mysql90_compressed.ibd");
    // Chunk A: incompressible, its stream starts on the first page (368
    // bytes there) and ends on ZLOB_DATA page 8. Chunk B: a fragment
    // (id 0) of ZLOB_FRAG page 9, replaced in version 2 by chunk B2
    // (fragment id 1). Chunk C: its entry on ZLOB_INDEX page 10, its
    // stream in fragment id 2.
    let mut x: u32 = 12345;
    let a: Vec<u8> = (0..1500)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        })
        .collect();
    let b1 = vec![b'b'; 3000];
    let b2 = vec![b'B'; 3000];
    let c = b"the end of the LOB".repeat(50);
    let (za, zb1, zb2, zc) = (deflate(&a), deflate(&b1), deflate(&b2), deflate(&c));
    assert!(za.len() > 368 && za.len() < 368 + 8135);
    let tmp = patched_copy(&src, |b| {
        b.resize(11 * 8192, 0);
        // Page 7: ZLOB_FIRST, stream A continues on page 8.
        zip_page(b, 7, 25, 8);
        let p7 = 7 * 8192;
        put_u32(b, p7 + 40, 2); // LOB version
        put_u32(b, p7 + 54, 368); // OFFSET_DATA_LEN
        put_u32(b, p7 + 64, 10); // OFFSET_INDEX_PAGE_NO
                                 // Index list: entries 0 (A), 1 (B2, versions: entry 2 = B1), then C on page 10.
        put_u32(b, p7 + 88, 3);
        put_addr(b, p7 + 92, 7, 136);
        put_addr(b, p7 + 98, 10, 39);
        let e = |i: usize| p7 + 136 + 66 * i;
        zentry(b, e(0), (7, 202), 7, 0xFFFF, a.len(), za.len(), 1);
        zentry(b, e(1), (10, 39), 9, 1, b2.len(), zb2.len(), 2);
        put_u32(b, e(1) + 12, 1);
        put_addr(b, e(1) + 16, 7, 268);
        put_addr(b, e(1) + 22, 7, 268);
        zentry(b, e(2), (0xFFFF_FFFF, 0), 9, 0, b1.len(), zb1.len(), 1);
        b[p7 + 7816..p7 + 7816 + 368].copy_from_slice(&za[..368]);
        // Page 8: ZLOB_DATA with the rest of stream A.
        zip_page(b, 8, 26, 0xFFFF_FFFF);
        put_u32(b, 8 * 8192 + 39, (za.len() - 368) as u32);
        b[8 * 8192 + 49..8 * 8192 + 49 + za.len() - 368].copy_from_slice(&za[368..]);
        // Page 9: ZLOB_FRAG with fragments 0, 1 and 2.
        zip_page(b, 9, 28, 0xFFFF_FFFF);
        b[9 * 8192 + 8192 - 10..9 * 8192 + 8192 - 8].copy_from_slice(&3u16.to_be_bytes());
        fragment(b, 9, 61, 0, &zb1);
        fragment(b, 9, 61 + 8 + zb1.len(), 1, &zb2);
        fragment(b, 9, 61 + 16 + zb1.len() + zb2.len(), 2, &zc);
        // Page 10: ZLOB_INDEX with entry C in slot 0.
        zip_page(b, 10, 27, 0xFFFF_FFFF);
        zentry(
            b,
            10 * 8192 + 39,
            (0xFFFF_FFFF, 0),
            9,
            2,
            c.len(),
            zc.len(),
            1,
        );
    });
    let space = open(tmp.path());
    assert_eq!(space.format().physical_page_size(), 8192);
    let total = a.len() + b2.len() + c.len();
    let mut pages = LogicalPages::new(&space);
    let current = read_lob(&mut pages, 7, total, &mut Vec::new()).unwrap();
    assert_eq!(current, [&a[..], &b2[..], &c[..]].concat());
    let v1 = read_lob_version(&mut pages, 7, Some(1), total, &mut Vec::new()).unwrap();
    assert_eq!(v1, [&a[..], &b1[..], &c[..]].concat());
    // Capped in the middle of a chunk.
    let part = read_lob(&mut pages, 7, 2000, &mut Vec::new()).unwrap();
    assert_eq!(part, current[..2000]);

    // A damaged stream is an error naming the entry.
    let bad = patched_copy(tmp.path(), |b| b[9 * 8192 + 61 + 8 + 2] ^= 0xFF);
    let space = open(bad.path());
    let mut pages = LogicalPages::new(&space);
    let err = read_lob_version(&mut pages, 7, Some(1), total, &mut Vec::new()).unwrap_err();
    assert!(
        err.starts_with("page 7: ZLOB index entry at offset 268: the zlib stream"),
        "{err}"
    );
    // A fragment id beyond the directory.
    let bad = patched_copy(tmp.path(), |b| {
        b[7 * 8192 + 136 + 66 + 52..7 * 8192 + 136 + 66 + 54].copy_from_slice(&7u16.to_be_bytes())
    });
    let space = open(bad.path());
    let mut pages = LogicalPages::new(&space);
    let err = read_lob(&mut pages, 7, total, &mut Vec::new()).unwrap_err();
    assert!(
        err.contains("fragment id 7 is beyond the 3-entry page directory"),
        "{err}"
    );
    // A chunk whose stream inflates to more than its entry says.
    let bad = patched_copy(tmp.path(), |b| {
        put_u32(b, 10 * 8192 + 39 + 54, (c.len() - 1) as u32)
    });
    let space = open(bad.path());
    let mut pages = LogicalPages::new(&space);
    let err = read_lob(&mut pages, 7, total, &mut Vec::new()).unwrap_err();
    assert_eq!(
        err,
        "page 10: ZLOB index entry at offset 39: the zlib stream goes on past the 899 bytes OFFSET_DATA_LEN gives"
    );
    // A stream chain that loops back to its data page.
    let bad = patched_copy(tmp.path(), |b| {
        put_u32(b, 8 * 8192 + FIL_PAGE_NEXT, 8);
        put_u32(b, 7 * 8192 + 136 + 58, 9000);
    });
    let space = open(bad.path());
    let mut pages = LogicalPages::new(&space);
    let err = read_lob(&mut pages, 7, total, &mut Vec::new()).unwrap_err();
    assert_eq!(
        err,
        "page 7: ZLOB index entry at offset 136: data page 8 was already read for this LOB"
    );
}

/// Follows an old-style BLOB chain (MySQL 5.7) from its reference.
fn old_chain(space: &Tablespace, r: &LobRef) -> Vec<u8> {
    let mut pages = LogicalPages::new(space);
    let (mut page, mut offset) = (r.page_no, r.offset_or_version as usize);
    let mut out = Vec::new();
    while out.len() < r.length as usize {
        let p = pages.read(page).unwrap();
        assert_eq!(p.check.page_type, PageType::TYPE_BLOB);
        let (part, next) = innodb_format::index::sdi::blob_part(&p.bytes, offset).unwrap();
        out.extend_from_slice(part);
        (page, offset) = (next, innodb_format::fil::header::FIL_PAGE_DATA);
    }
    out
}

#[test]
fn mysql80_lobs_hold_what_mysql57_blob_chains_hold() {
    let Some(_) = thirdparty::present() else {
        return;
    };
    // innodb-java-reader loads the same rows into MySQL 5.7.27 (BLOB chains)
    // and 8.0.18 (LOB pages): the off-page values must be the same.
    for table in ["tb04utf8mb4", "tb20"] {
        let dir = "alibaba__innodb-java-reader/innodb-java-reader/src/test/resources/testsuite";
        let old = open(&fixture(&format!("{dir}/mysql57/column/char/{table}.ibd")));
        let new = open(&fixture(&format!("{dir}/mysql80/column/char/{table}.ibd")));
        // Split pages keep stale copies of moved records: one reference per LOB.
        let distinct = |mut refs: Vec<(u32, usize, LobRef)>| {
            refs.sort_by_key(|(_, _, r)| r.page_no);
            refs.dedup_by(|x, y| x.2 == y.2);
            refs
        };
        let mut old_values: Vec<Vec<u8>> = distinct(refs_to(&old, &[PageType::TYPE_BLOB]))
            .iter()
            .map(|(_, _, r)| old_chain(&old, r))
            .collect();
        let new_refs = distinct(leaf_refs(&new));
        assert_eq!(
            new_refs.len(),
            pages_of_type(&new, &[PageType::LOB_FIRST]).len(),
            "{table}"
        );
        let mut new_values: Vec<Vec<u8>> = new_refs.iter().map(|(_, _, r)| read(&new, r)).collect();
        assert!(!new_values.is_empty(), "{table}");
        old_values.sort();
        new_values.sort();
        assert_eq!(
            old_values.iter().map(Vec::len).collect::<Vec<_>>(),
            new_values.iter().map(Vec::len).collect::<Vec<_>>(),
            "{table}"
        );
        assert!(old_values == new_values, "{table}: values differ");
    }
}

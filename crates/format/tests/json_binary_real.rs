//! `json_binary::to_text` on JSON values MySQL itself wrote, read from real
//! tablespaces under `../shared/thirdparty` (ibdNinja's fixtures, MySQL
//! 8.0.40, 8.4.8 and 9.6.0, 16 KiB pages, DYNAMIC rows); skipped, saying so,
//! on a fresh clone without them.
//!
//! Inline values come from clustered-index leaf records (page 4 of each file).
//! Off-page values are joined from their LOB pages by following the MySQL 8
//! LOB index (`lob0first.h`, `lob0index.h`): the record's 20-byte external
//! reference names the LOB first page; that page's `OFFSET_INDEX_LIST` base
//! node (byte 64) lists index entries (60 bytes each: next node at +6, data
//! page number at +48, data length at +52, read as 2 bytes of its 4-byte
//! slot); an entry's data lives in a LOB_DATA page from byte 49
//! (`OFFSET_DATA_LEN` at 39).

// The helpers are test code too: a panic there is a test failure with its
// message, as clippy.toml already grants the #[test] functions.
#![allow(clippy::panic)]

use innodb_format::value::json_binary::to_text;

const PAGE: usize = 16384;
/// `PAGE_NEW_INFIMUM`: the infimum record's origin in a COMPACT page; its
/// relative next-record link is the 2 bytes before it.
const INFIMUM: usize = 99;

/// Where the third-party files are, and the skip of a test on a fresh
/// clone without them: the integration tests' helper, shared.
#[path = "../../../tests/support/thirdparty.rs"]
mod thirdparty;

fn fixture(version: &str, name: &str) -> Vec<u8> {
    let path = thirdparty::dir().join(format!(
        "KernelMaker__ibdNinja/tests/{version}/fixtures/{name}"
    ));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn expected(version: &str, name: &str) -> String {
    let path = thirdparty::dir().join(format!(
        "KernelMaker__ibdNinja/tests/{version}/expected/{name}"
    ));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.trim_end().to_owned()
}

fn page(file: &[u8], no: usize) -> &[u8] {
    &file[no * PAGE..(no + 1) * PAGE]
}

fn be(b: &[u8]) -> usize {
    b.iter().fold(0, |a, &x| (a << 8) | usize::from(x))
}

/// Origins of the user records of a COMPACT page, in list order.
fn records(page: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = INFIMUM;
    loop {
        let rel = i16::from_be_bytes([page[at - 2], page[at - 1]]);
        at = (at as i64 + i64::from(rel)) as usize % PAGE;
        if at == 112 {
            // PAGE_NEW_SUPREMUM
            return out;
        }
        out.push(at);
    }
}

/// MySQL's text with the blanks it puts after ',' and ':' removed (outside
/// strings), to compare with ibdNinja's compact printing.
fn compact(text: &str) -> String {
    let mut out = String::new();
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c != ' ' {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

/// ibdNinja's `data_types` table (tests/sql/04_data_types.sql): `json_col` is
/// '{"key": "value", "number": 42}' in row 1 and '[]' in row 2, NULL in row 3.
/// The record is id, DB_TRX_ID, DB_ROLL_PTR, then tiny 1, small 2, medium 3,
/// big 8, float 4, double 8, DECIMAL(10,2) 5, char_col, varchar_col,
/// text_col, binary 16, varbinary_col, blob_col, date 3, time 3, datetime 5,
/// timestamp 4, year 1, enum 1, set 1, bit 1, json_col. Its COMPACT header
/// holds, below the 5 fixed bytes and the 3-byte null bitmap, one length byte
/// per variable column (char, varchar, text, varbinary, blob, json), the
/// nearest first, so json_col's length is at origin - 14.
#[test]
fn inline_json_in_data_types_rows() {
    let Some(_) = thirdparty::present() else {
        return;
    };
    for version in ["8.0", "8.4", "9.0"] {
        let file = fixture(version, "data_types.ibd");
        let p = page(&file, 4);
        let recs = records(p);
        assert_eq!(recs.len(), 3, "{version}");
        // Row 1 (origin 134): 'CHAR10' takes 10 bytes, the strings 22, 20, 4, 4.
        let r1 = recs[0];
        assert_eq!(&p[r1..r1 + 4], &[0x80, 0, 0, 1], "id 1");
        let at =
            r1 + 17 + 1 + 2 + 3 + 8 + 4 + 8 + 5 + 10 + 22 + 20 + 16 + 4 + 4 + 3 + 3 + 5 + 4 + 4;
        assert_eq!((r1, at), (134, 277), "{version}");
        let len = usize::from(p[r1 - 14]);
        assert_eq!(len, 34);
        assert_eq!(
            to_text(&p[at..at + len]).unwrap(),
            r#"{"key": "value", "number": 42}"#,
            "{version}"
        );
        // Row 2: 'ABC' 10 bytes, then 14, 14, 4 and an empty BLOB.
        let r2 = recs[1];
        assert_eq!(&p[r2..r2 + 4], &[0x80, 0, 0, 2], "id 2");
        let at = r2 + 17 + 1 + 2 + 3 + 8 + 4 + 8 + 5 + 10 + 14 + 14 + 16 + 4 + 3 + 3 + 5 + 4 + 4;
        let len = usize::from(p[r2 - 14]);
        assert_eq!((at, len), (450, 5), "{version}");
        assert_eq!(to_text(&p[at..at + len]).unwrap(), "[]", "{version}");
    }
}

/// ibdNinja's `type_test` table: `col_json` of its three rows, located from
/// ibdNinja's golden dump `type_test_parse_page_4_records.txt` (which prints
/// the same bytes) and checked here by the column that follows it
/// (`verify_column`, INT 666 = `80 00 02 9a`). The creating SQL is not in the
/// snapshot, so the expected texts were decoded by hand from those bytes
/// with the format of `json_binary.cc` (nested small objects, an array of
/// inlined int16s, int16 9999 and 123, strings).
#[test]
fn inline_json_in_type_test_rows() {
    let Some(_) = thirdparty::present() else {
        return;
    };
    for version in ["8.0", "8.4", "9.0"] {
        let file = fixture(version, "type_test.ibd");
        let p = page(&file, 4);
        for (at, len, want) in [
            (739, 5, "{}"),
            (
                2446,
                108,
                r#"{"nested": {"array": [1, 2, 3], "object": {"key": "max"}}, "number": 9999, "string": "max"}"#,
            ),
            (
                3393,
                105,
                r#"{"mixed": {"array": [1], "object": {"key": "value"}}, "number": 123, "string": "mixed"}"#,
            ),
        ] {
            assert_eq!(
                &p[at + len..at + len + 4],
                &[0x80, 0, 0x02, 0x9a],
                "{version} {at}"
            );
            assert_eq!(to_text(&p[at..at + len]).unwrap(), want, "{version} {at}");
        }
    }
}

/// The bytes of an off-page value whose 20-byte external reference is `r`
/// (space id, page number, version, 8-byte length), joined from the current
/// entries of its LOB index.
fn lob(file: &[u8], r: &[u8]) -> Vec<u8> {
    let first = be(&r[4..8]);
    let total = be(&r[12..20]);
    let fp = page(file, first);
    assert_eq!(be(&fp[24..26]), 24, "FIL_PAGE_TYPE_LOB_FIRST");
    let (mut node_page, mut node_off) = (be(&fp[68..72]), be(&fp[72..74]));
    let mut out = Vec::new();
    for _ in 0..be(&fp[64..68]) {
        let e = &page(file, node_page)[node_off..node_off + 60];
        let (data_page, len) = (be(&e[48..52]), be(&e[52..54]));
        let dp = page(file, data_page);
        assert_eq!(be(&dp[24..26]), 23, "FIL_PAGE_TYPE_LOB_DATA");
        assert_eq!(be(&dp[39..43]), len, "OFFSET_DATA_LEN");
        out.extend_from_slice(&dp[49..49 + len]);
        (node_page, node_off) = (be(&e[6..10]), be(&e[10..12]));
    }
    assert_eq!(out.len(), total, "length in the external reference");
    out
}

/// ibdNinja's `json_partial` table (tests/sql/13_json_partial_update.sql):
/// one row, `id INT, doc1 JSON, doc2 JSON`, both documents over 10 KB and
/// stored off-page, then partially updated. Page 4's only record has the two
/// external references after id (4), DB_TRX_ID (6) and DB_ROLL_PTR (7):
/// doc1 at origin + 17 (page 5, 10390 bytes), doc2 at origin + 37 (page 6,
/// 10236 bytes). ibdNinja's `--inspect-blob` output for the current versions
/// (`json_partial_inspect_doc{1,2}_current.txt`) prints them without blanks.
/// doc1 holds int16s, int32s (65535, 100000, ±2^31), int64s (4294967295,
/// 9999999999), null/true/false, nesting four levels deep and empty
/// containers.
#[test]
fn off_page_json_partial_documents() {
    let Some(_) = thirdparty::present() else {
        return;
    };
    for version in ["8.0", "8.4", "9.0"] {
        let file = fixture(version, "json_partial.ibd");
        let p = page(&file, 4);
        let recs = records(p);
        assert_eq!(recs.len(), 1);
        let origin = recs[0];
        for (at, name) in [
            (17, "json_partial_inspect_doc1_current.txt"),
            (37, "json_partial_inspect_doc2_current.txt"),
        ] {
            let r = &p[origin + at..origin + at + 20];
            let text = to_text(&lob(&file, r)).unwrap();
            assert_eq!(compact(&text), expected(version, name), "{version} {name}");
        }
        let doc1 = to_text(&lob(&file, &p[origin + 17..origin + 37])).unwrap();
        assert!(
            doc1.starts_with(
                r#"{"nullval": null, "numbers": [0, 1, -1, 255, -128, 65535, 100000, 2147483647, -2147483648, 4294967295, 9999999999], "payload": "MMMM"#
            ),
            "{version}"
        );
        assert!(
            doc1.ends_with(
                r#"MMMM", "booleans": {"true_val": true, "false_val": false}, "metadata": {"name": "test_record_1", "tags": ["alpha", "beta", "gamma", "delta"], "nested": {"level2": {"level3": {"flag": true, "value": 42}}}, "version": 1}, "empty_arr": [], "empty_obj": {}}"#
            ),
            "{version}"
        );
    }
}

/// ibdNinja's `json_partial_large` (tests/sql/14_json_partial_large.sql): a
/// 48130-byte document whose current version spans three LOB index entries
/// (LOB_DATA pages 11, 9 and 10 in the 8.0 file).
#[test]
fn off_page_json_over_several_lob_pages() {
    let Some(_) = thirdparty::present() else {
        return;
    };
    for version in ["8.0", "8.4", "9.0"] {
        let file = fixture(version, "json_partial_large.ibd");
        let p = page(&file, 4);
        let origin = records(p)[0];
        let bytes = lob(&file, &p[origin + 17..origin + 37]);
        assert_eq!(bytes.len(), 48130);
        let text = to_text(&bytes).unwrap();
        assert_eq!(
            compact(&text),
            expected(version, "json_partial_large_inspect_current.txt"),
            "{version}"
        );
    }
}

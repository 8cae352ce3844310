//! `ringo380__idb-utils`: its MySQL 9.0 and 9.1 files, as its
//! `tests/integration_test.rs` and the MANIFEST describe them.

use super::{open, root, summary, Checks};
use crate::support;
use innodb_analysis::reports::sdi_report::SdiReport;

/// idb-utils tests/integration_test.rs and the MANIFEST's note on the
/// compressed files.
#[test]
fn idb_utils_mysql9_files() {
    let mut c = Checks::default();
    let dir = root().join("ringo380__idb-utils/tests/fixtures/mysql9");
    for name in ["mysql90_standard.ibd", "mysql91_standard.ibd"] {
        // page_size 16384, page_count 7, FSP size 7, space_id 2, every
        // non-zero page valid under CRC-32C, page types include FSP_HDR,
        // INODE, SDI, INDEX, vendor MySQL.
        let s = summary(&open(&dir.join(name)));
        c.eq(name, "page_size", s["page_size"].as_u64(), Some(16384));
        c.eq(name, "page_count", s["page_count"].as_u64(), Some(7));
        c.eq(name, "fsp_size", s["fsp_size"].as_u64(), Some(7));
        c.eq(name, "space_id", s["space_id"].as_u64(), Some(2));
        c.eq(
            name,
            "checksum_algorithm",
            s["checksum_algorithm"].as_str(),
            Some("crc32"),
        );
        c.eq(name, "bad_checksums", s["bad_checksums"].as_u64(), Some(0));
        for t in ["FSP_HDR", "INODE", "SDI", "INDEX"] {
            c.ok(
                name,
                s["page_types"][t].as_u64().is_some_and(|n| n > 0),
                || format!("no {t} page"),
            );
        }
        c.eq(name, "vendor", s["vendor"].as_str(), Some("mysql"));
    }
    for name in ["mysql90_compressed.ibd", "mysql91_compressed.ibd"] {
        // space_id 3, FSP flags 0x4029 (zip_ssize 4), every page including
        // page 0 is 8192 bytes, 7 pages, compressed-page CRC-32C.
        let s = summary(&open(&dir.join(name)));
        c.eq(name, "space_id", s["space_id"].as_u64(), Some(3));
        c.eq(name, "flags.raw", s["flags"]["raw"].as_u64(), Some(0x4029));
        c.eq(
            name,
            "flags.zip_ssize",
            s["flags"]["zip_ssize"].as_u64(),
            Some(4),
        );
        c.eq(
            name,
            "physical_page_size",
            s["physical_page_size"].as_u64(),
            Some(8192),
        );
        c.eq(name, "page_count", s["page_count"].as_u64(), Some(7));
        c.eq(
            name,
            "checksum_algorithm",
            s["checksum_algorithm"].as_str(),
            Some("zip_crc32"),
        );
        c.eq(name, "bad_checksums", s["bad_checksums"].as_u64(), Some(0));
    }
    c.finish("idb_utils_mysql9_files");
}

/// idb-utils' `standard` table is in the SDI of its `standard.ibd` files.
#[test]
fn sdi_names_the_standard_table() {
    let mut c = Checks::default();
    let standard = root().join("ringo380__idb-utils/tests/fixtures");
    let mut found = false;
    for f in support::files_below(&standard, "standard.ibd") {
        let r = SdiReport::build(&open(&f)).unwrap();
        found |= r
            .records
            .iter()
            .any(|e| e.sdi_type == 1 && e.object["dd_object"]["name"] == "standard");
    }
    c.ok("idb-utils standard.ibd", found, || {
        "no SDI table named standard".into()
    });
    c.finish("sdi_names_the_standard_table");
}

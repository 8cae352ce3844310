//! `ringo380__idb-utils`: its MySQL 9.0 and 9.1 files, as its
//! `tests/integration_test.rs` and the MANIFEST describe them.

use super::{open, root, summary, Checks};
use crate::support;
use innodb_analysis::reports::sdi_report::SdiReport;

/// A MySQL 9 file of idb-utils and what is known of it: (file, space id,
/// page count, checksum algorithm, (logical page size, FSP size), (raw FSP
/// flags, their zip_ssize, physical page size), page types it has, vendor);
/// `None` or nothing where the sources do not say.
type Mysql9File = (
    &'static str,
    u64,
    u64,
    &'static str,
    Option<(u64, u64)>,
    Option<(u64, u64, u64)>,
    &'static [&'static str],
    Option<&'static str>,
);

/// The `standard` tables as idb-utils' tests/integration_test.rs gives them:
/// page size 16384, 7 pages, FSP size 7, space id 2, every non-zero page
/// valid under CRC-32C, FSP_HDR, INODE, SDI and INDEX pages among its
/// pages, vendor MySQL. The `compressed` ones as the MANIFEST's note gives
/// them: space id 3, FSP flags 0x4029 (zip_ssize 4), every page including
/// page 0 8192 bytes, 7 pages, compressed-page CRC-32C.
#[rustfmt::skip]
const MYSQL9_FILES: [Mysql9File; 4] = [
    ("mysql90_standard.ibd",   2, 7, "crc32",     Some((16384, 7)), None,                    STANDARD_TYPES, Some("mysql")),
    ("mysql91_standard.ibd",   2, 7, "crc32",     Some((16384, 7)), None,                    STANDARD_TYPES, Some("mysql")),
    ("mysql90_compressed.ibd", 3, 7, "zip_crc32", None,             Some((0x4029, 4, 8192)), &[],            None),
    ("mysql91_compressed.ibd", 3, 7, "zip_crc32", None,             Some((0x4029, 4, 8192)), &[],            None),
];

/// The page types idb-utils' tests find in its `standard` tables.
const STANDARD_TYPES: &[&str] = &["FSP_HDR", "INODE", "SDI", "INDEX"];

/// idb-utils tests/integration_test.rs and the MANIFEST's note on the
/// compressed files ([`MYSQL9_FILES`]); every page verifies.
#[test]
fn idb_utils_mysql9_files() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let mut c = Checks::default();
    let dir = root().join("ringo380__idb-utils/tests/fixtures/mysql9");
    for (name, space_id, pages, checksum, sizes, zip, types, vendor) in MYSQL9_FILES {
        let s = summary(&open(&dir.join(name)));
        c.eq(name, "space_id", s["space_id"].as_u64(), Some(space_id));
        c.eq(name, "page_count", s["page_count"].as_u64(), Some(pages));
        c.eq(
            name,
            "checksum_algorithm",
            s["checksum_algorithm"].as_str(),
            Some(checksum),
        );
        c.eq(name, "bad_checksums", s["bad_checksums"].as_u64(), Some(0));
        if let Some((page_size, fsp_size)) = sizes {
            c.eq(name, "page_size", s["page_size"].as_u64(), Some(page_size));
            c.eq(name, "fsp_size", s["fsp_size"].as_u64(), Some(fsp_size));
        }
        if let Some((raw, zip_ssize, physical)) = zip {
            c.eq(name, "flags.raw", s["flags"]["raw"].as_u64(), Some(raw));
            c.eq(
                name,
                "flags.zip_ssize",
                s["flags"]["zip_ssize"].as_u64(),
                Some(zip_ssize),
            );
            c.eq(
                name,
                "physical_page_size",
                s["physical_page_size"].as_u64(),
                Some(physical),
            );
        }
        for t in types {
            c.ok(
                name,
                s["page_types"][t].as_u64().is_some_and(|n| n > 0),
                || format!("no {t} page"),
            );
        }
        if let Some(vendor) = vendor {
            c.eq(name, "vendor", s["vendor"].as_str(), Some(vendor));
        }
    }
    c.finish("idb_utils_mysql9_files");
}

/// idb-utils' `standard` table is in the SDI of its `standard.ibd` files.
#[test]
fn sdi_names_the_standard_table() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
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

//! `page_zip_calc_checksum`: the checksum of ROW_FORMAT=COMPRESSED pages (and
//! of every page of a compressed tablespace), stored only at offset 0. It
//! covers `[4,16)` (page number, prev, next), `[24,26)` (type) and
//! `[34, zip_size)` (space id and all data).

use super::{read_u32, ChecksumAlgorithm, ChecksumValue, ChecksumVerdict, BUF_NO_CHECKSUM_MAGIC};
use crate::fil::header::{FIL_PAGE_LSN, FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID, FIL_PAGE_TYPE};

/// The three covered ranges; a range the page is too short to hold is
/// empty (pages shorter than [`super::MIN_CHECKSUM_PAGE`] never verify).
fn ranges(page: &[u8]) -> [&[u8]; 3] {
    [
        page.get(FIL_PAGE_OFFSET..FIL_PAGE_LSN).unwrap_or_default(),
        page.get(FIL_PAGE_TYPE..FIL_PAGE_TYPE + 2)
            .unwrap_or_default(),
        page.get(FIL_PAGE_SPACE_ID..).unwrap_or_default(),
    ]
}

/// The zip checksum with CRC-32C: the XOR of the CRCs of the three ranges.
pub fn zip_crc32c(page: &[u8]) -> u32 {
    ranges(page)
        .iter()
        .fold(0, |acc, r| acc ^ super::crc32c::crc32c(r))
}

/// The zip checksum with adler32 (`innodb`), chained over the three ranges,
/// started from 0 as the server does (`adler32(0L, …)`).
pub fn zip_adler32(page: &[u8]) -> u32 {
    let mut a = adler2::Adler32::from_checksum(0);
    for r in ranges(page) {
        a.write_slice(r);
    }
    a.checksum()
}

pub(super) fn verify(page: &[u8]) -> ChecksumVerdict {
    let stored = read_u32(page, 0);
    let crc = zip_crc32c(page);
    if stored == crc {
        return ChecksumVerdict::Valid {
            algorithm: ChecksumAlgorithm::ZipCrc32,
        };
    }
    let adler = zip_adler32(page);
    if stored == adler {
        return ChecksumVerdict::Valid {
            algorithm: ChecksumAlgorithm::ZipInnodb,
        };
    }
    if stored == BUF_NO_CHECKSUM_MAGIC {
        return ChecksumVerdict::Valid {
            algorithm: ChecksumAlgorithm::ZipNone,
        };
    }
    ChecksumVerdict::Invalid {
        stored: vec![ChecksumValue {
            name: "FIL_PAGE_SPACE_OR_CHKSUM",
            offset: Some(0),
            value: stored,
        }],
        computed: vec![
            ChecksumValue {
                name: ChecksumAlgorithm::ZipCrc32.name(),
                offset: None,
                value: crc,
            },
            ChecksumValue {
                name: ChecksumAlgorithm::ZipInnodb.name(),
                offset: None,
                value: adler,
            },
        ],
    }
}

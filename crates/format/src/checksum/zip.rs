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
    let mut a = simd_adler32::Adler32::from_checksum(0);
    for r in ranges(page) {
        a.write(r);
    }
    a.finish()
}

/// The first of `sizes` (ascending, none shorter than
/// [`FIL_PAGE_SPACE_ID`]) at which the start of `buf` is a zip page whose
/// checksum verifies as `crc32` or `innodb` (a stored
/// `BUF_NO_CHECKSUM_MAGIC` is not taken), with its algorithm; and how many
/// sizes were tried (those `buf` holds, up to the one that verified).
/// Each size is checked as [`super::verify`] with the zip layout does,
/// but the CRCs and adler32s of all sizes come from one pass over the
/// largest: a carve tries every size where no other page verifies.
pub fn first_verifying_size(
    buf: &[u8],
    sizes: &[usize],
) -> (Option<(usize, ChecksumAlgorithm)>, u64) {
    let [offset, page_type, _] = ranges(buf);
    let head = super::crc32c::crc32c(offset) ^ super::crc32c::crc32c(page_type);
    let mut crc = super::crc32c::Crc32cStream::new();
    let mut adler = simd_adler32::Adler32::from_checksum(0);
    adler.write(offset);
    adler.write(page_type);
    let stored = read_u32(buf, 0);
    let (mut done, mut tried) = (FIL_PAGE_SPACE_ID, 0);
    for &size in sizes {
        let Some(more) = buf.get(done..size) else {
            break;
        };
        tried += 1;
        crc.update(more);
        adler.write(more);
        done = size;
        if stored == head ^ crc.value() {
            return (Some((size, ChecksumAlgorithm::ZipCrc32)), tried);
        }
        if stored == adler.finish() {
            return (Some((size, ChecksumAlgorithm::ZipInnodb)), tried);
        }
    }
    (None, tried)
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

#[cfg(test)]
mod tests {
    use super::{first_verifying_size, verify, zip_adler32, zip_crc32c};
    use crate::checksum::{ChecksumAlgorithm, ChecksumVerdict};

    /// Each size's checksum from the one pass equals the page's own, for
    /// both algorithms; the tries count the sizes the buffer holds.
    #[test]
    fn one_pass_finds_the_size_verify_finds() {
        let sizes = [1024usize, 2048, 4096, 8192, 16384];
        let buf: Vec<u8> = (0..16384usize)
            .map(|i| u8::try_from((i * 7919 + i / 251) % 256).unwrap_or(0))
            .collect();
        for (n, &size) in sizes.iter().enumerate() {
            for (algorithm, sum) in [
                (ChecksumAlgorithm::ZipCrc32, zip_crc32c as fn(&[u8]) -> u32),
                (ChecksumAlgorithm::ZipInnodb, zip_adler32),
            ] {
                let mut b = buf.clone();
                let value = sum(&b[..size]);
                b[..4].copy_from_slice(&value.to_be_bytes());
                assert_eq!(verify(&b[..size]), ChecksumVerdict::Valid { algorithm });
                // No smaller size verifies (checked, not assumed).
                for &smaller in &sizes[..n] {
                    assert!(!matches!(
                        verify(&b[..smaller]),
                        ChecksumVerdict::Valid { .. }
                    ));
                }
                assert_eq!(
                    first_verifying_size(&b, &sizes),
                    (Some((size, algorithm)), n as u64 + 1)
                );
            }
        }
        assert_eq!(first_verifying_size(&buf, &sizes).1, 5);
        assert_eq!(first_verifying_size(&buf[..5000], &sizes), (None, 3));
    }

    /// adler32 by its definition (RFC 1950), one byte at a time.
    fn adler32_by_definition(start: u32, data: &[u8]) -> u32 {
        let (mut a, mut b) = (start & 0xFFFF, start >> 16);
        for &byte in data {
            a = (a + u32::from(byte)) % 65521;
            b = (b + a) % 65521;
        }
        (b << 16) | a
    }

    /// The chained checksum equals the definition's over the three ranges,
    /// for pages of every zip size filled with a varied pattern.
    #[test]
    fn zip_adler32_follows_the_definition() {
        for size in [1024usize, 2048, 4096, 8192, 16384] {
            let page: Vec<u8> = (0..size)
                .map(|i| u8::try_from((i * 7919 + i / 251) % 256).unwrap_or(0))
                .collect();
            let mut want = 0;
            for r in [&page[4..16], &page[24..26], &page[34..]] {
                want = adler32_by_definition(want, r);
            }
            assert_eq!(zip_adler32(&page), want, "{size}-byte page");
        }
    }
}

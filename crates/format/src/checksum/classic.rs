//! Checksums of uncompressed pages in the classic layout: stored at offset 0
//! (`FIL_PAGE_SPACE_OR_CHKSUM`) and at size-8 (`FIL_PAGE_END_LSN_OLD_CHKSUM`).

use super::crc32c::{crc32c, Crc32cStream};
use super::innodb_fold::fold_binary;
use super::{read_u32, ChecksumAlgorithm, ChecksumValue, ChecksumVerdict, BUF_NO_CHECKSUM_MAGIC};
use crate::fil::header::{FIL_PAGE_DATA, FIL_PAGE_FILE_FLUSH_LSN, FIL_PAGE_LSN, FIL_PAGE_OFFSET};

/// `page[start..end]`, or nothing when the page is too short to hold it
/// (pages shorter than [`super::MIN_CHECKSUM_PAGE`] never verify).
#[inline]
fn range(page: &[u8], start: usize, end: usize) -> &[u8] {
    page.get(start..end).unwrap_or_default()
}

/// `[38, size-8)`: the page body the checksums cover.
#[inline]
fn body(page: &[u8]) -> &[u8] {
    range(page, FIL_PAGE_DATA, page.len().saturating_sub(8))
}

/// `buf_calc_page_crc32`: CRC-32C of `[4,26)` XOR CRC-32C of `[38, size-8)`.
pub fn crc32c_classic(page: &[u8]) -> u32 {
    crc32c(range(page, FIL_PAGE_OFFSET, FIL_PAGE_FILE_FLUSH_LSN)) ^ crc32c(body(page))
}

/// CRC-32C over `range` as an old big-endian server computed it: every
/// 8-byte group aligned to a multiple of 8 from the page start is fed
/// byte-reversed, the unaligned bytes one by one.
fn crc32c_legacy_range(page: &[u8], start: usize, end: usize) -> u32 {
    let mut crc = Crc32cStream::new();
    let bytes = range(page, start, end);
    // The bytes before the first multiple of 8 go in as they are.
    let unaligned = start.wrapping_neg() % 8;
    let (head, aligned) = bytes.split_at_checked(unaligned).unwrap_or((bytes, &[]));
    crc.update(head);
    let (groups, tail) = aligned.as_chunks::<8>();
    // Reversed groups are gathered into a small buffer so the CRC is fed in
    // runs, not 8 bytes at a time.
    let mut run = [[0u8; 8]; 32];
    for batch in groups.chunks(run.len()) {
        let mut filled = 0;
        for (dst, src) in run.iter_mut().zip(batch) {
            *dst = *src;
            dst.reverse();
            filled += 1;
        }
        crc.update(run.get(..filled).unwrap_or_default().as_flattened());
    }
    crc.update(tail);
    crc.value()
}

/// `buf_calc_page_crc32(page, use_legacy_big_endian = true)`.
pub fn crc32c_classic_legacy_big_endian(page: &[u8]) -> u32 {
    crc32c_legacy_range(page, FIL_PAGE_OFFSET, FIL_PAGE_FILE_FLUSH_LSN)
        ^ crc32c_legacy_range(page, FIL_PAGE_DATA, page.len().saturating_sub(8))
}

/// `buf_calc_page_new_checksum`: the `innodb` checksum stored at offset 0.
pub fn innodb_new(page: &[u8]) -> u32 {
    fold_binary(range(page, FIL_PAGE_OFFSET, FIL_PAGE_FILE_FLUSH_LSN))
        .wrapping_add(fold_binary(body(page)))
}

/// `buf_calc_page_old_checksum`: the `innodb` checksum stored at size-8.
pub fn innodb_old(page: &[u8]) -> u32 {
    fold_binary(range(page, 0, FIL_PAGE_FILE_FLUSH_LSN))
}

pub(super) fn verify(page: &[u8]) -> ChecksumVerdict {
    let n = page.len();
    let field1 = read_u32(page, 0);
    let field2 = read_u32(page, n - 8);
    let valid = |algorithm| ChecksumVerdict::Valid { algorithm };

    // crc32: both fields hold the same CRC (the default since MySQL 5.7.7,
    // MariaDB 10.2 until 10.5); try the cheap comparison first.
    let crc = if field1 == field2 {
        let crc = crc32c_classic(page);
        if crc == field1 {
            return valid(ChecksumAlgorithm::Crc32);
        }
        if field1 == BUF_NO_CHECKSUM_MAGIC {
            return valid(ChecksumAlgorithm::None);
        }
        if crc32c_classic_legacy_big_endian(page) == field1 {
            return valid(ChecksumAlgorithm::Crc32LegacyBigEndian);
        }
        crc
    } else {
        crc32c_classic(page)
    };

    // innodb: field2 holds the old checksum (or, from very old servers, the
    // 4 bytes at FIL_PAGE_LSN, as `buf_page_is_checksum_valid_innodb` reads
    // them); field1 holds the new checksum or 0 (before 4.0.14).
    // As the server does, the costly new checksum (a byte-serial fold of the
    // whole page, ~30 times CRC-32C's time) is computed only when the old
    // one agrees: a page damaged everywhere costs no more than CRC-32C.
    let old = innodb_old(page);
    let lsn_word = read_u32(page, FIL_PAGE_LSN);
    let new = (field2 == old || field2 == lsn_word).then(|| innodb_new(page));
    if let Some(new) = new {
        if field1 == 0 || field1 == new {
            return valid(ChecksumAlgorithm::Innodb);
        }
    }

    ChecksumVerdict::Invalid {
        stored: vec![
            ChecksumValue {
                name: "FIL_PAGE_SPACE_OR_CHKSUM",
                offset: Some(0),
                value: field1,
            },
            ChecksumValue {
                name: "FIL_PAGE_END_LSN_OLD_CHKSUM",
                offset: Some(n - 8),
                value: field2,
            },
        ],
        computed: [ChecksumValue {
            name: ChecksumAlgorithm::Crc32.name(),
            offset: None,
            value: crc,
        }]
        .into_iter()
        .chain(new.map(|value| ChecksumValue {
            name: "innodb_new",
            offset: None,
            value,
        }))
        .chain([ChecksumValue {
            name: "innodb_old",
            offset: None,
            value: old,
        }])
        .collect(),
    }
}

//! MariaDB full_crc32: CRC-32C of `[0, S-4)` stored big-endian at `S-4`.

use super::{read_u32, ChecksumAlgorithm, ChecksumValue, ChecksumVerdict};
use crate::fil::header::FIL_PAGE_TYPE;
use crate::fil::page_type::PageType;

/// Size of the checksummed frame: the page, or for a page-compressed frame
/// (`FIL_PAGE_TYPE` = `0x8000 | n`) `n * 256` bytes, when that fits.
pub fn frame_size(page: &[u8]) -> usize {
    let t = PageType(crate::bytes::u16_at(page, FIL_PAGE_TYPE, "FIL_PAGE_TYPE").unwrap_or(0));
    if t.is_full_crc32_compressed() {
        let s = usize::from(t.0 & 0x7FFF) << 8;
        if s >= crate::fil::header::FIL_PAGE_DATA + 4 && s <= page.len() {
            return s;
        }
    }
    page.len()
}

/// CRC-32C of the first `size - 4` bytes.
pub fn full_crc32(frame: &[u8]) -> u32 {
    super::crc32c::crc32c(
        frame
            .get(..frame.len().saturating_sub(4))
            .unwrap_or_default(),
    )
}

pub(super) fn verify(page: &[u8]) -> ChecksumVerdict {
    let s = frame_size(page);
    // frame_size never exceeds the page.
    let frame = page.get(..s).unwrap_or(page);
    let stored = read_u32(frame, s - 4);
    let computed = full_crc32(frame);
    if stored == computed {
        ChecksumVerdict::Valid {
            algorithm: ChecksumAlgorithm::FullCrc32,
        }
    } else {
        ChecksumVerdict::Invalid {
            stored: vec![ChecksumValue {
                name: "FIL_PAGE_FCRC32_CHECKSUM",
                offset: Some(s - 4),
                value: stored,
            }],
            computed: vec![ChecksumValue {
                name: ChecksumAlgorithm::FullCrc32.name(),
                offset: None,
                value: computed,
            }],
        }
    }
}

//! FIL trailer: the last 8 bytes of a page (`FIL_PAGE_DATA_END`).
//!
//! Classic layout: old-style checksum at size-8, low 32 bits of the LSN at
//! size-4. MariaDB full_crc32: low 32 bits of the LSN at size-8, CRC-32C at
//! size-4. ROW_FORMAT=COMPRESSED pages have no trailer.

use crate::bytes::u32_at;
use crate::FormatError;
use serde::Serialize;

/// Size of the trailer (`FIL_PAGE_DATA_END`).
pub const FIL_PAGE_DATA_END: usize = 8;
/// Distance from the page end of the classic old-style checksum (`FIL_PAGE_END_LSN_OLD_CHKSUM`).
pub const FIL_PAGE_END_LSN_OLD_CHKSUM: usize = 8;
/// Distance from the page end of the full_crc32 LSN low word (`FIL_PAGE_FCRC32_END_LSN`).
pub const FIL_PAGE_FCRC32_END_LSN: usize = 8;
/// Distance from the page end of the full_crc32 checksum (`FIL_PAGE_FCRC32_CHECKSUM`).
pub const FIL_PAGE_FCRC32_CHECKSUM: usize = 4;

/// The trailer of an uncompressed page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FilTrailer {
    /// Classic: old-style checksum (size-8). full_crc32: none.
    pub old_checksum: Option<u32>,
    /// Checksum at size-4 (full_crc32 only).
    pub full_crc32_checksum: Option<u32>,
    /// Low 32 bits of the page LSN as stored in the trailer.
    pub lsn_low32: u32,
}

impl FilTrailer {
    /// Reads the trailer of a page of `size` bytes (`size` may be smaller than
    /// the buffer for full_crc32 compressed frames).
    pub fn parse(page: &[u8], full_crc32: bool) -> Result<Self, FormatError> {
        let n = page.len();
        let at = |back: usize, field| u32_at(page, n.saturating_sub(back), field);
        if full_crc32 {
            Ok(FilTrailer {
                old_checksum: None,
                full_crc32_checksum: Some(at(
                    FIL_PAGE_FCRC32_CHECKSUM,
                    "FIL_PAGE_FCRC32_CHECKSUM",
                )?),
                lsn_low32: at(FIL_PAGE_FCRC32_END_LSN, "FIL_PAGE_FCRC32_END_LSN")?,
            })
        } else {
            Ok(FilTrailer {
                old_checksum: Some(at(
                    FIL_PAGE_END_LSN_OLD_CHKSUM,
                    "FIL_PAGE_END_LSN_OLD_CHKSUM",
                )?),
                full_crc32_checksum: None,
                lsn_low32: at(4, "FIL_PAGE_END_LSN_OLD_CHKSUM+4")?,
            })
        }
    }

    /// Offset of the LSN low word within a page of `size` bytes.
    pub fn lsn_offset(size: usize, full_crc32: bool) -> usize {
        if full_crc32 {
            size - FIL_PAGE_FCRC32_END_LSN
        } else {
            size - 4
        }
    }
}

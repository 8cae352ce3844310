//! FIL trailer: the last 8 bytes of a page (`FIL_PAGE_DATA_END`).
//!
//! Classic layout: old-style checksum at size-8, low 32 bits of the LSN at
//! size-4. MariaDB full_crc32: low 32 bits of the LSN at size-8, CRC-32C at
//! size-4. ROW_FORMAT=COMPRESSED pages have no trailer. The server gives
//! these places as distances from the page end; the two layouts below count
//! from the trailer's start (page size − 8).

use crate::context::PageContext;
use crate::field::Field;
use crate::layout::layout;
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

layout! {
    /// The classic trailer, counted from the trailer's start (page size − 8).
    pub struct ClassicTrailer {
        /// Trailer offset 0 (page size − 8, the first 4 bytes of
        /// `FIL_PAGE_END_LSN_OLD_CHKSUM`): the old-style checksum.
        FIL_TRAILER_OLD_CHKSUM "FIL_PAGE_END_LSN_OLD_CHKSUM" @ 0 => old_checksum: u32, shows show_checksum;
        /// Trailer offset 4 (page size − 4, the last 4 bytes of
        /// `FIL_PAGE_END_LSN_OLD_CHKSUM`): the low 32 bits of `FIL_PAGE_LSN`.
        FIL_TRAILER_LSN_LOW "FIL_PAGE_END_LSN_OLD_CHKSUM+4 (LSN low 32 bits)" @ 4 => lsn_low32: u32;
    }
}

layout! {
    /// MariaDB's full_crc32 trailer, counted from the trailer's start (page size − 8).
    pub struct FullCrc32Trailer {
        /// Trailer offset 0 (page size − 8, `FIL_PAGE_FCRC32_END_LSN`): the
        /// low 32 bits of `FIL_PAGE_LSN`.
        FIL_TRAILER_FCRC32_END_LSN "FIL_PAGE_FCRC32_END_LSN" @ 0 => lsn_low32: u32;
        /// Trailer offset 4 (page size − 4, `FIL_PAGE_FCRC32_CHECKSUM`): the
        /// CRC-32C of the page up to here.
        FIL_TRAILER_FCRC32_CHECKSUM "FIL_PAGE_FCRC32_CHECKSUM" @ 4 => checksum: u32, shows show_checksum;
    }
}

fn show_checksum(v: &u32, _: &PageContext) -> Option<String> {
    Some(format!("checksum 0x{v:08x}"))
}

/// The trailer of an uncompressed page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FilTrailer {
    /// Classic: old-style checksum (size-8). full_crc32: none.
    pub old_checksum: Option<u32>,
    /// Checksum at size-4 (full_crc32 only).
    pub full_crc32_checksum: Option<u32>,
    /// Low 32 bits of the page LSN as stored in the trailer.
    pub lsn_low32: u32,
}

/// Where the trailer starts on a page of `len` bytes (`usize::MAX` when the
/// page is shorter than a trailer, so that every read fails).
fn trailer_start(len: usize) -> usize {
    len.checked_sub(FIL_PAGE_DATA_END).unwrap_or(usize::MAX)
}

impl FilTrailer {
    /// Reads the trailer of a page of `size` bytes (`size` may be smaller than
    /// the buffer for full_crc32 compressed frames).
    pub fn parse(page: &[u8], full_crc32: bool) -> Result<Self, FormatError> {
        let base = trailer_start(page.len());
        if full_crc32 {
            let t = FullCrc32Trailer::parse_at(page, base)?;
            Ok(FilTrailer {
                old_checksum: None,
                full_crc32_checksum: Some(t.checksum),
                lsn_low32: t.lsn_low32,
            })
        } else {
            let t = ClassicTrailer::parse_at(page, base)?;
            Ok(FilTrailer {
                old_checksum: Some(t.old_checksum),
                full_crc32_checksum: None,
                lsn_low32: t.lsn_low32,
            })
        }
    }

    /// The trailer's fields for display, in the layout `full_crc32` names.
    pub fn fields(
        page: &[u8],
        full_crc32: bool,
        ctx: &PageContext,
    ) -> Result<Vec<Field>, FormatError> {
        let base = trailer_start(page.len());
        Ok(if full_crc32 {
            FullCrc32Trailer::parse_at(page, base)?.fields_at(base, ctx)
        } else {
            ClassicTrailer::parse_at(page, base)?.fields_at(base, ctx)
        })
    }

    /// Offset of the LSN low word within a page of `size` bytes.
    pub fn lsn_offset(size: usize, full_crc32: bool) -> usize {
        let lsn = if full_crc32 {
            FIL_TRAILER_FCRC32_END_LSN
        } else {
            FIL_TRAILER_LSN_LOW
        };
        size.saturating_sub(FIL_PAGE_DATA_END) + lsn
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_layouts_read_from_the_page_end() {
        let mut p = vec![0u8; 1024];
        p[1016..1020].copy_from_slice(&0xAABB_CCDDu32.to_be_bytes());
        p[1020..1024].copy_from_slice(&0x1122_3344u32.to_be_bytes());
        let classic = FilTrailer::parse(&p, false).unwrap();
        assert_eq!(
            (classic.old_checksum, classic.lsn_low32),
            (Some(0xAABB_CCDD), 0x1122_3344)
        );
        let fcrc = FilTrailer::parse(&p, true).unwrap();
        assert_eq!(
            (fcrc.lsn_low32, fcrc.full_crc32_checksum),
            (0xAABB_CCDD, Some(0x1122_3344))
        );
        assert_eq!(FilTrailer::lsn_offset(1024, false), 1020);
        assert_eq!(FilTrailer::lsn_offset(1024, true), 1016);
        let f = FilTrailer::fields(&p, true, &PageContext::default()).unwrap();
        assert_eq!((f[1].name, f[1].offset), ("FIL_PAGE_FCRC32_CHECKSUM", 1020));
        assert!(FilTrailer::parse(&p[..6], false).is_err());
    }
}

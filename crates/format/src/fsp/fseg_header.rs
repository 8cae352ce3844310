//! `FSEG_HEADER` (`fsp0types.h`, 10 bytes): where a file segment's INODE
//! entry lives. Index roots, undo and rollback segment headers, TRX_SYS, the
//! change buffer and dictionary headers carry one per segment they own.

use crate::FormatError;
use binrw::BinRead;
use serde::Serialize;

/// Size of an `FSEG_HEADER`.
pub const FSEG_HEADER_SIZE: usize = 10;

/// `FSEG_HEADER` (10 bytes): where a file segment's INODE entry lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, BinRead, Serialize)]
#[br(big)]
pub struct FsegHeader {
    /// `FSEG_HDR_SPACE` (offset 0): space id of the INODE page.
    pub space: u32,
    /// `FSEG_HDR_PAGE_NO` (offset 4): INODE page number.
    pub page_no: u32,
    /// `FSEG_HDR_OFFSET` (offset 8): byte offset of the INODE entry.
    pub offset: u16,
}

impl FsegHeader {
    /// Reads the header at absolute `offset` of `page`; `field` names it in errors.
    pub fn parse_at(page: &[u8], offset: usize, field: &'static str) -> Result<Self, FormatError> {
        let b = crate::bytes::slice(page, offset, FSEG_HEADER_SIZE, field)?;
        Ok(FsegHeader {
            space: crate::bytes::u32_at(b, 0, "FSEG_HDR_SPACE")?,
            page_no: crate::bytes::u32_at(b, 4, "FSEG_HDR_PAGE_NO")?,
            offset: crate::bytes::u16_at(b, 8, "FSEG_HDR_OFFSET")?,
        })
    }
}

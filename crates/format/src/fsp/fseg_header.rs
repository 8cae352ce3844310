//! `FSEG_HEADER` (`fsp0types.h`, 10 bytes): where a file segment's INODE
//! entry lives. Index roots, undo and rollback segment headers, TRX_SYS, the
//! change buffer and dictionary headers carry one per segment they own.

use crate::field::{Field, Pointer};
use crate::layout::{layout, read_composite, OnDisk};
use crate::FormatError;

layout! {
    /// `FSEG_HEADER` (10 bytes): where a file segment's INODE entry lives.
    pub struct FsegHeader {
        /// Offset 0 (`FSEG_HDR_SPACE`, 4 bytes): the space id of the INODE page.
        FSEG_HDR_SPACE @ 0 => space: u32;
        /// Offset 4 (`FSEG_HDR_PAGE_NO`, 4 bytes): the INODE page.
        FSEG_HDR_PAGE_NO @ 4 => page_no: u32;
        /// Offset 8 (`FSEG_HDR_OFFSET`, 2 bytes): the byte offset of the INODE entry.
        FSEG_HDR_OFFSET @ 8 => offset: u16;
    }
}

/// Size of an `FSEG_HEADER` (`FSEG_HEADER_SIZE`).
pub const FSEG_HEADER_SIZE: usize = FsegHeader::END;

impl FsegHeader {
    /// Reads the header at absolute `offset` of `page`; `field` names it in errors.
    pub fn parse_at_named(
        page: &[u8],
        offset: usize,
        field: &'static str,
    ) -> Result<Self, FormatError> {
        <Self as OnDisk>::read(page, offset, field)
    }
}

impl OnDisk for FsegHeader {
    type Value = FsegHeader;
    const SIZE: usize = FsegHeader::END;
    fn read(buf: &[u8], offset: usize, name: &'static str) -> Result<Self, FormatError> {
        read_composite(buf, offset, Self::SIZE, name, Self::parse_at)
    }
    /// One field: the INODE page as the value, pointing at the INODE entry
    /// (the meaning names the space); no entry starts at offset 0, so an
    /// all-zero header, as on a non-root index page, points nowhere and its
    /// meaning gives all three numbers.
    fn field(v: &Self, offset: usize, name: &'static str) -> Field {
        let pointer =
            (v.offset != 0 && v.page_no != crate::FIL_NULL).then_some(Pointer::FileAddr {
                page: v.page_no,
                offset: v.offset,
            });
        let meaning = match pointer {
            Some(_) => format!("space {}", v.space),
            None => format!("space {} page {} offset {}", v.space, v.page_no, v.offset),
        };
        Field::with_meaning(offset, Self::SIZE, name, v.page_no.into(), meaning).pointing(pointer)
    }
}

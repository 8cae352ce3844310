//! FSP header: page 0 bytes 38..150 (`FSP_HEADER_OFFSET` = 38, size 112).

use crate::field::Field;
use crate::fsp::flags::FspFlags;
use crate::fsp::flst::FlstBase;
use crate::FormatError;
use binrw::BinRead;
use serde::Serialize;

/// Offset of the FSP header on page 0 (`FSP_HEADER_OFFSET`).
pub const FSP_HEADER_OFFSET: usize = 38;
/// Size of the FSP header.
pub const FSP_HEADER_SIZE: usize = 112;
/// Absolute offset of `FSP_SPACE_ID`.
pub const FSP_SPACE_ID: usize = FSP_HEADER_OFFSET;
/// Absolute offset of `FSP_SIZE`.
pub const FSP_SIZE: usize = FSP_HEADER_OFFSET + 8;
/// Absolute offset of `FSP_FREE_LIMIT`.
pub const FSP_FREE_LIMIT: usize = FSP_HEADER_OFFSET + 12;
/// Absolute offset of `FSP_SPACE_FLAGS`.
pub const FSP_SPACE_FLAGS: usize = FSP_HEADER_OFFSET + 16;
/// Absolute offset of `FSP_FRAG_N_USED`.
pub const FSP_FRAG_N_USED: usize = FSP_HEADER_OFFSET + 20;
/// Absolute offset of the `FSP_FREE` list base.
pub const FSP_FREE: usize = FSP_HEADER_OFFSET + 24;
/// Absolute offset of the `FSP_FREE_FRAG` list base.
pub const FSP_FREE_FRAG: usize = FSP_HEADER_OFFSET + 40;
/// Absolute offset of the `FSP_FULL_FRAG` list base.
pub const FSP_FULL_FRAG: usize = FSP_HEADER_OFFSET + 56;
/// Absolute offset of `FSP_SEG_ID` (next unused segment id).
pub const FSP_SEG_ID: usize = FSP_HEADER_OFFSET + 72;
/// Absolute offset of the `FSP_SEG_INODES_FULL` list base.
pub const FSP_SEG_INODES_FULL: usize = FSP_HEADER_OFFSET + 80;
/// Absolute offset of the `FSP_SEG_INODES_FREE` list base.
pub const FSP_SEG_INODES_FREE: usize = FSP_HEADER_OFFSET + 96;

/// The FSP header of page 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, BinRead, Serialize)]
#[br(big)]
pub struct FspHeader {
    /// Offset 38: `FSP_SPACE_ID`.
    pub space_id: u32,
    /// Offset 42: `FSP_NOT_USED`.
    pub not_used: u32,
    /// Offset 46: `FSP_SIZE`, the tablespace size in pages.
    pub size: u32,
    /// Offset 50: `FSP_FREE_LIMIT`, first page not yet initialised.
    pub free_limit: u32,
    /// Offset 54: `FSP_SPACE_FLAGS`.
    #[br(map = FspFlags)]
    pub flags: FspFlags,
    /// Offset 58: `FSP_FRAG_N_USED`, used pages in FREE_FRAG extents.
    pub frag_n_used: u32,
    /// Offset 62: `FSP_FREE`, free extents.
    pub free: FlstBase,
    /// Offset 78: `FSP_FREE_FRAG`, partly used fragment extents.
    pub free_frag: FlstBase,
    /// Offset 94: `FSP_FULL_FRAG`, full fragment extents.
    pub full_frag: FlstBase,
    /// Offset 110: `FSP_SEG_ID`, next unused segment id.
    pub seg_id: u64,
    /// Offset 118: `FSP_SEG_INODES_FULL`, INODE pages with no free slot.
    pub seg_inodes_full: FlstBase,
    /// Offset 134: `FSP_SEG_INODES_FREE`, INODE pages with a free slot.
    pub seg_inodes_free: FlstBase,
}

impl FspHeader {
    /// Reads the FSP header from page 0.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        let bytes = crate::bytes::slice(page, FSP_HEADER_OFFSET, FSP_HEADER_SIZE, "FSP_HEADER")?;
        FspHeader::read(&mut binrw::io::Cursor::new(bytes)).map_err(|e| FormatError::BadValue {
            field: "FSP_HEADER",
            offset: FSP_HEADER_OFFSET,
            reason: e.to_string(),
        })
    }

    /// Every field with its offset, for display.
    pub fn fields(&self) -> Vec<Field> {
        let flags_meaning = match self.flags.decode() {
            Ok(d) => d.describe(),
            Err(e) => format!("invalid: {e}"),
        };
        let mut out = vec![
            Field::new(FSP_SPACE_ID, 4, "FSP_SPACE_ID", self.space_id.into()),
            Field::new(
                FSP_HEADER_OFFSET + 4,
                4,
                "FSP_NOT_USED",
                self.not_used.into(),
            ),
            Field::new(FSP_SIZE, 4, "FSP_SIZE", self.size.into()),
            Field::new(FSP_FREE_LIMIT, 4, "FSP_FREE_LIMIT", self.free_limit.into()),
            Field::with_meaning(
                FSP_SPACE_FLAGS,
                4,
                "FSP_SPACE_FLAGS",
                self.flags.0.into(),
                flags_meaning,
            ),
            Field::new(
                FSP_FRAG_N_USED,
                4,
                "FSP_FRAG_N_USED",
                self.frag_n_used.into(),
            ),
        ];
        for (offset, name, list) in [
            (FSP_FREE, "FSP_FREE", &self.free),
            (FSP_FREE_FRAG, "FSP_FREE_FRAG", &self.free_frag),
            (FSP_FULL_FRAG, "FSP_FULL_FRAG", &self.full_frag),
        ] {
            out.push(list.field(offset, name));
        }
        out.push(Field::new(FSP_SEG_ID, 8, "FSP_SEG_ID", self.seg_id));
        out.push(
            self.seg_inodes_full
                .field(FSP_SEG_INODES_FULL, "FSP_SEG_INODES_FULL"),
        );
        out.push(
            self.seg_inodes_free
                .field(FSP_SEG_INODES_FREE, "FSP_SEG_INODES_FREE"),
        );
        out
    }
}

//! Index page header (`PAGE_HEADER` = 38, 56 bytes): the fields of B-tree,
//! R-tree and SDI pages up to the two segment headers.

use crate::field::Field;
pub use crate::fsp::fseg_header::FsegHeader;
use crate::FormatError;
use binrw::BinRead;
use serde::Serialize;

/// Offset of the index page header (`PAGE_HEADER`).
pub const PAGE_HEADER: usize = 38;
/// Size of the fields decoded here (up to and including `PAGE_BTR_SEG_TOP`).
pub const PAGE_HEADER_SIZE: usize = 56;
/// Absolute offset of `PAGE_N_DIR_SLOTS`.
pub const PAGE_N_DIR_SLOTS: usize = 38;
/// Absolute offset of `PAGE_HEAP_TOP`.
pub const PAGE_HEAP_TOP: usize = 40;
/// Absolute offset of `PAGE_N_HEAP` (bit 15: COMPACT record format).
pub const PAGE_N_HEAP: usize = 42;
/// Absolute offset of `PAGE_FREE`.
pub const PAGE_FREE: usize = 44;
/// Absolute offset of `PAGE_GARBAGE`.
pub const PAGE_GARBAGE: usize = 46;
/// Absolute offset of `PAGE_LAST_INSERT`.
pub const PAGE_LAST_INSERT: usize = 48;
/// Absolute offset of `PAGE_DIRECTION` (MariaDB instant root: `PAGE_INSTANT` in bits 3-15).
pub const PAGE_DIRECTION: usize = 50;
/// Absolute offset of `PAGE_N_DIRECTION`.
pub const PAGE_N_DIRECTION: usize = 52;
/// Absolute offset of `PAGE_N_RECS`.
pub const PAGE_N_RECS: usize = 54;
/// Absolute offset of `PAGE_MAX_TRX_ID` (MariaDB clustered root: `PAGE_ROOT_AUTO_INC`).
pub const PAGE_MAX_TRX_ID: usize = 56;
/// Absolute offset of `PAGE_LEVEL`.
pub const PAGE_LEVEL: usize = 64;
/// Absolute offset of `PAGE_INDEX_ID`.
pub const PAGE_INDEX_ID: usize = 66;
/// Absolute offset of `PAGE_BTR_SEG_LEAF` (root only).
pub const PAGE_BTR_SEG_LEAF: usize = 74;
/// Absolute offset of `PAGE_BTR_SEG_TOP` (root only).
pub const PAGE_BTR_SEG_TOP: usize = 84;

/// The header of an index page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, BinRead, Serialize)]
#[br(big)]
pub struct IndexHeader {
    /// Offset 38: `PAGE_N_DIR_SLOTS`.
    pub n_dir_slots: u16,
    /// Offset 40: `PAGE_HEAP_TOP`.
    pub heap_top: u16,
    /// Offset 42: `PAGE_N_HEAP` as stored (bit 15 = COMPACT format).
    pub n_heap_raw: u16,
    /// Offset 44: `PAGE_FREE`, first record of the garbage list.
    pub free: u16,
    /// Offset 46: `PAGE_GARBAGE`, bytes in deleted records.
    pub garbage: u16,
    /// Offset 48: `PAGE_LAST_INSERT`.
    pub last_insert: u16,
    /// Offset 50: `PAGE_DIRECTION` as stored.
    pub direction_raw: u16,
    /// Offset 52: `PAGE_N_DIRECTION`.
    pub n_direction: u16,
    /// Offset 54: `PAGE_N_RECS`, user records on the page.
    pub n_recs: u16,
    /// Offset 56: `PAGE_MAX_TRX_ID`.
    pub max_trx_id: u64,
    /// Offset 64: `PAGE_LEVEL`, 0 for leaves.
    pub level: u16,
    /// Offset 66: `PAGE_INDEX_ID`.
    pub index_id: u64,
    /// Offset 74: `PAGE_BTR_SEG_LEAF` (meaningful on the root only).
    pub seg_leaf: FsegHeader,
    /// Offset 84: `PAGE_BTR_SEG_TOP` (meaningful on the root only).
    pub seg_top: FsegHeader,
}

impl IndexHeader {
    /// Reads the header from an (uncompressed, logical) index page image.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        let bytes = crate::bytes::slice(page, PAGE_HEADER, PAGE_HEADER_SIZE, "PAGE_HEADER")?;
        IndexHeader::read(&mut binrw::io::Cursor::new(bytes)).map_err(|e| FormatError::BadValue {
            field: "PAGE_HEADER",
            offset: PAGE_HEADER,
            reason: e.to_string(),
        })
    }

    /// True for the COMPACT (and DYNAMIC/COMPRESSED) record format.
    pub fn is_compact(&self) -> bool {
        self.n_heap_raw & 0x8000 != 0
    }

    /// Records in the heap, including infimum, supremum and deleted ones.
    pub fn n_heap(&self) -> u16 {
        self.n_heap_raw & 0x7FFF
    }

    /// Every field with its offset, for display.
    pub fn fields(&self) -> Vec<Field> {
        let direction = match self.direction_raw & 7 {
            1 => "LEFT",
            2 => "RIGHT",
            3 => "SAME_REC",
            4 => "SAME_PAGE",
            5 => "NO_DIRECTION",
            _ => "none",
        };
        let direction_meaning = if self.direction_raw >> 3 != 0 {
            format!(
                "{direction}; PAGE_INSTANT n_core_fields={}",
                self.direction_raw >> 3
            )
        } else {
            direction.to_string()
        };
        let seg = |offset, name, s: &FsegHeader| {
            Field::with_meaning(
                offset,
                10,
                name,
                s.page_no.into(),
                format!("space {} page {} offset {}", s.space, s.page_no, s.offset),
            )
        };
        vec![
            Field::new(
                PAGE_N_DIR_SLOTS,
                2,
                "PAGE_N_DIR_SLOTS",
                self.n_dir_slots.into(),
            ),
            Field::new(PAGE_HEAP_TOP, 2, "PAGE_HEAP_TOP", self.heap_top.into()),
            Field::with_meaning(
                PAGE_N_HEAP,
                2,
                "PAGE_N_HEAP",
                self.n_heap_raw.into(),
                format!(
                    "{} records, {} format",
                    self.n_heap(),
                    if self.is_compact() {
                        "COMPACT"
                    } else {
                        "REDUNDANT"
                    }
                ),
            ),
            Field::new(PAGE_FREE, 2, "PAGE_FREE", self.free.into()),
            Field::new(PAGE_GARBAGE, 2, "PAGE_GARBAGE", self.garbage.into()),
            Field::new(
                PAGE_LAST_INSERT,
                2,
                "PAGE_LAST_INSERT",
                self.last_insert.into(),
            ),
            Field::with_meaning(
                PAGE_DIRECTION,
                2,
                "PAGE_DIRECTION",
                self.direction_raw.into(),
                direction_meaning,
            ),
            Field::new(
                PAGE_N_DIRECTION,
                2,
                "PAGE_N_DIRECTION",
                self.n_direction.into(),
            ),
            Field::new(PAGE_N_RECS, 2, "PAGE_N_RECS", self.n_recs.into()),
            Field::new(PAGE_MAX_TRX_ID, 8, "PAGE_MAX_TRX_ID", self.max_trx_id),
            Field::with_meaning(
                PAGE_LEVEL,
                2,
                "PAGE_LEVEL",
                self.level.into(),
                if self.level == 0 { "leaf" } else { "non-leaf" },
            ),
            Field::new(PAGE_INDEX_ID, 8, "PAGE_INDEX_ID", self.index_id),
            seg(PAGE_BTR_SEG_LEAF, "PAGE_BTR_SEG_LEAF", &self.seg_leaf),
            seg(PAGE_BTR_SEG_TOP, "PAGE_BTR_SEG_TOP", &self.seg_top),
        ]
    }
}

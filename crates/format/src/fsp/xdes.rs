//! Extent descriptors (`XDES`, `fsp0fsp.h`): the array after the FSP header on
//! page 0 and on every XDES page (pages `n × physical page size`), one entry per
//! extent of `FSP_EXTENT_SIZE` pages.
//!
//! Entry layout: `XDES_ID` 0 (8), `XDES_FLST_NODE` 8 (12), `XDES_STATE` 20 (4),
//! `XDES_BITMAP` 24 (2 bits per page, least significant bit first).

use crate::bytes::slice;
use crate::context::PageContext;
use crate::field::{Field, Pointer};
use crate::fsp::flst::FlstNode;
use crate::layout::{layout, OnDisk};
use crate::section::Body;
use crate::FormatError;
use serde::Serialize;

/// Absolute offset of the descriptor array (`XDES_ARR_OFFSET` = FSP header end).
pub const XDES_ARR_OFFSET: usize = 150;

layout! {
    /// The fixed part of an extent descriptor, offsets from the entry's
    /// start; the page bitmap (`XDES_BITMAP`) follows it.
    pub struct XdesFixed {
        /// Offset 0 (`XDES_ID`, 8 bytes): the owning segment, meaningful for FSEG extents.
        XDES_ID @ 0 => id: u64;
        /// Offset 8 (`XDES_FLST_NODE`, 12 bytes): the node linking the extent into a list.
        XDES_FLST_NODE @ 8 => node: FlstNode;
        /// Offset 20 (`XDES_STATE`, 4 bytes): what the extent is used for.
        XDES_STATE @ 20 => state: XdesState;
    }
}

/// Offset of `XDES_BITMAP` within an entry: 2 bits per page (`XDES_FREE_BIT`, `XDES_CLEAN_BIT`).
pub const XDES_BITMAP: usize = XdesFixed::END;

/// Size of one entry for extents of `extent_size` pages (`XDES_SIZE`).
pub fn xdes_size(extent_size: usize) -> usize {
    XDES_BITMAP + (2 * extent_size).div_ceil(8)
}

/// Entries on one XDES page: one per extent of the `physical_page_size` pages it describes.
pub fn entries_per_page(physical_page_size: usize, extent_size: usize) -> usize {
    physical_page_size.checked_div(extent_size).unwrap_or(0)
}

/// `XDES_STATE`: what an extent is used for. Unknown values are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct XdesState(pub u32);

impl XdesState {
    /// `XDES_NOT_INITED` (MySQL 8 name; MariaDB leaves 0 in never-used entries).
    pub const NOT_INITED: XdesState = XdesState(0);
    /// `XDES_FREE`: on the space's FREE list.
    pub const FREE: XdesState = XdesState(1);
    /// `XDES_FREE_FRAG`: fragment extent with free pages.
    pub const FREE_FRAG: XdesState = XdesState(2);
    /// `XDES_FULL_FRAG`: fragment extent with no free page.
    pub const FULL_FRAG: XdesState = XdesState(3);
    /// `XDES_FSEG`: belongs to the segment `XDES_ID`.
    pub const FSEG: XdesState = XdesState(4);
    /// `XDES_FSEG_FRAG` (MySQL 8 only): a fragment extent leased to a segment.
    pub const FSEG_FRAG: XdesState = XdesState(5);

    /// The state's name as in the source, without the `XDES_` prefix.
    pub fn name(self) -> &'static str {
        match self.0 {
            0 => "NOT_INITED",
            1 => "FREE",
            2 => "FREE_FRAG",
            3 => "FULL_FRAG",
            4 => "FSEG",
            5 => "FSEG_FRAG",
            _ => "UNKNOWN",
        }
    }

    /// True for the two states of extents whose pages are handed out one by one.
    pub fn is_fragment(self) -> bool {
        self == Self::FREE_FRAG || self == Self::FULL_FRAG
    }

    /// True for extents owned by a segment.
    pub fn is_segment(self) -> bool {
        self == Self::FSEG || self == Self::FSEG_FRAG
    }
}

impl OnDisk for XdesState {
    type Value = XdesState;
    const SIZE: usize = 4;
    fn read(buf: &[u8], offset: usize, name: &'static str) -> Result<Self, FormatError> {
        crate::bytes::u32_at(buf, offset, name).map(XdesState)
    }
    /// One field: the state number, named.
    fn field(v: &Self, offset: usize, name: &'static str) -> Field {
        Field::with_meaning(offset, 4, name, v.0.into(), v.to_string())
    }
}

impl Serialize for XdesState {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.name() {
            "UNKNOWN" => s.serialize_str(&format!("UNKNOWN({})", self.0)),
            name => s.serialize_str(name),
        }
    }
}

/// As serialised: a name, or `UNKNOWN(N)`.
impl schemars::JsonSchema for XdesState {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "XdesState".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "An extent's XDES_STATE, by name; a value no server writes as UNKNOWN(N)",
            "type": "string",
            "pattern": "^(NOT_INITED|FREE|FREE_FRAG|FULL_FRAG|FSEG|FSEG_FRAG|UNKNOWN\\([0-9]+\\))$"
        })
    }
}

impl std::fmt::Display for XdesState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.name() {
            "UNKNOWN" => write!(f, "UNKNOWN({})", self.0),
            name => f.write_str(name),
        }
    }
}

/// One extent descriptor, borrowed from its page.
#[derive(Debug, Clone, Copy)]
pub struct XdesEntry<'a> {
    bytes: &'a [u8],
    fixed: XdesFixed,
    extent_size: usize,
}

impl<'a> XdesEntry<'a> {
    /// Entry `index` of the descriptor page `page` (page 0 or an XDES page).
    pub fn at(page: &'a [u8], index: usize, extent_size: usize) -> Result<Self, FormatError> {
        let size = xdes_size(extent_size);
        let offset = XDES_ARR_OFFSET + index * size;
        let bytes = slice(page, offset, size, "XDES entry")?;
        Ok(XdesEntry {
            bytes,
            fixed: XdesFixed::parse_at(bytes, 0)?,
            extent_size,
        })
    }

    /// Absolute offset of the entry `index` on its page.
    pub fn offset_of(index: usize, extent_size: usize) -> usize {
        XDES_ARR_OFFSET + index * xdes_size(extent_size)
    }

    /// `XDES_ID` (offset 0): the owning segment, meaningful for FSEG extents.
    pub fn segment_id(&self) -> u64 {
        self.fixed.id
    }

    /// `XDES_FLST_NODE` (offset 8): the node linking the extent into a list.
    pub fn list_node(&self) -> FlstNode {
        self.fixed.node
    }

    /// `XDES_STATE` (offset 20).
    pub fn state(&self) -> XdesState {
        self.fixed.state
    }

    /// `XDES_FREE_BIT` of page `i` of the extent: true when the page is free.
    pub fn is_page_free(&self, i: usize) -> bool {
        let bit = 2 * i;
        self.bytes
            .get(XDES_BITMAP + bit / 8)
            .is_some_and(|b| b >> (bit % 8) & 1 == 1)
    }

    /// Pages of the extent whose free bit is clear.
    pub fn used_pages(&self) -> usize {
        (0..self.extent_size)
            .filter(|&i| !self.is_page_free(i))
            .count()
    }

    /// The entry's fields for display, the entry starting at absolute
    /// `base` and describing the extent that starts at page `first_page`:
    /// the declared fixed part, then the bitmap as the count of used pages
    /// with the free ones listed. The fields with no pointer of their own
    /// point at the extent.
    pub fn fields_at(&self, base: usize, first_page: u32, ctx: &PageContext) -> Vec<Field> {
        let free: Vec<usize> = (0..self.extent_size)
            .filter(|&i| self.is_page_free(i))
            .collect();
        let mut out = self.fixed.fields_at(base, ctx);
        out.push(Field::with_meaning(
            base + XDES_BITMAP,
            xdes_size(self.extent_size) - XDES_BITMAP,
            "XDES_BITMAP",
            self.used_pages() as u64,
            format!("{} used; free: {}", self.used_pages(), ranges(&free)),
        ));
        for f in &mut out {
            f.pointer = f.pointer.or(Some(Pointer::Extent(first_page)));
        }
        out
    }

    /// Pages per extent this entry describes.
    pub fn extent_size(&self) -> usize {
        self.extent_size
    }
}

/// One section per extent descriptor in use on a descriptor page (page 0,
/// an FSP_HDR, or an XDES page at a multiple of the physical page size).
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    let es = ctx.extent_size;
    for i in 0..entries_per_page(ctx.physical_page_size, es) {
        let Some(e) = body.keep(XdesEntry::at(page, i, es)) else {
            break;
        };
        if e.state() == XdesState::NOT_INITED {
            continue;
        }
        let first = ctx.page_no as usize + i * es;
        body.push(
            format!("XDES entry {i}: pages {first}..{}", first + es - 1),
            e.fields_at(XdesEntry::offset_of(i, es), first as u32, ctx),
        );
    }
}

/// `0-3, 7, 9-12`, or `none`.
pub(crate) fn ranges(items: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some(&start) = items.get(i) {
        let mut end = start;
        while items.get(i + 1) == Some(&(end + 1)) {
            end += 1;
            i += 1;
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    if out.is_empty() {
        "none".into()
    } else {
        out.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_sizes_follow_the_extent_size() {
        // fsp0fsp.h: XDES_SIZE = 24 + ceil(2 * FSP_EXTENT_SIZE / 8).
        assert_eq!(xdes_size(64), 40);
        assert_eq!(xdes_size(128), 56);
        assert_eq!(xdes_size(256), 88);
        assert_eq!(entries_per_page(16384, 64), 256);
        assert_eq!(entries_per_page(1024, 256), 4);
    }

    #[test]
    fn free_bits_are_read_least_significant_first() {
        let mut page = vec![0u8; 16384];
        let at = XdesEntry::offset_of(1, 64);
        page[at + XDES_STATE + 3] = 4;
        page[at + 7] = 9;
        // Page 0 free (bit 0), page 1 used, page 4 free (byte 1, bit 0).
        page[at + XDES_BITMAP] = 0b0000_0001;
        page[at + XDES_BITMAP + 1] = 0b0000_0001;
        let e = XdesEntry::at(&page, 1, 64).unwrap();
        assert_eq!(e.state(), XdesState::FSEG);
        assert_eq!(e.segment_id(), 9);
        assert!(e.is_page_free(0));
        assert!(!e.is_page_free(1));
        assert!(e.is_page_free(4));
        assert_eq!(e.used_pages(), 62);
    }
}

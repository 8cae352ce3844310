//! FSP header: page 0 bytes 38..150 (`FSP_HEADER_OFFSET` = 38, size 112).

use crate::context::PageContext;
use crate::fsp::flags::FspFlags;
use crate::fsp::flst::FlstBase;
use crate::layout::layout;
use crate::section::Body;
use crate::FormatError;

/// Offset of the FSP header on page 0 (`FSP_HEADER_OFFSET`).
pub const FSP_HEADER_OFFSET: usize = 38;

layout! {
    /// The FSP header of page 0 (absolute offsets).
    pub struct FspHeader {
        /// Offset 38 (`FSP_SPACE_ID`, 4 bytes): the tablespace id.
        FSP_SPACE_ID @ FSP_HEADER_OFFSET => space_id: u32;
        /// Offset 42 (`FSP_NOT_USED`, 4 bytes): unused.
        FSP_NOT_USED @ FSP_HEADER_OFFSET + 4 => not_used: u32;
        /// Offset 46 (`FSP_SIZE`, 4 bytes): the tablespace size in pages.
        FSP_SIZE @ FSP_HEADER_OFFSET + 8 => size: u32;
        /// Offset 50 (`FSP_FREE_LIMIT`, 4 bytes): the first page not yet initialised.
        FSP_FREE_LIMIT @ FSP_HEADER_OFFSET + 12 => free_limit: u32;
        /// Offset 54 (`FSP_SPACE_FLAGS`, 4 bytes): page sizes, format and vendor markers.
        FSP_SPACE_FLAGS @ FSP_HEADER_OFFSET + 16 => flags: FspFlags, shows show_flags;
        /// Offset 58 (`FSP_FRAG_N_USED`, 4 bytes): used pages in FREE_FRAG extents.
        FSP_FRAG_N_USED @ FSP_HEADER_OFFSET + 20 => frag_n_used: u32;
        /// Offset 62 (`FSP_FREE`, list base): the free extents.
        FSP_FREE @ FSP_HEADER_OFFSET + 24 => free: FlstBase;
        /// Offset 78 (`FSP_FREE_FRAG`, list base): the partly used fragment extents.
        FSP_FREE_FRAG @ FSP_HEADER_OFFSET + 40 => free_frag: FlstBase;
        /// Offset 94 (`FSP_FULL_FRAG`, list base): the full fragment extents.
        FSP_FULL_FRAG @ FSP_HEADER_OFFSET + 56 => full_frag: FlstBase;
        /// Offset 110 (`FSP_SEG_ID`, 8 bytes): the next unused segment id.
        FSP_SEG_ID @ FSP_HEADER_OFFSET + 72 => seg_id: u64;
        /// Offset 118 (`FSP_SEG_INODES_FULL`, list base): INODE pages with no free slot.
        FSP_SEG_INODES_FULL @ FSP_HEADER_OFFSET + 80 => seg_inodes_full: FlstBase;
        /// Offset 134 (`FSP_SEG_INODES_FREE`, list base): INODE pages with a free slot.
        FSP_SEG_INODES_FREE @ FSP_HEADER_OFFSET + 96 => seg_inodes_free: FlstBase;
    }
}

/// Size of the FSP header (`FSP_HEADER_SIZE`, 112).
pub const FSP_HEADER_SIZE: usize = FspHeader::END - FSP_HEADER_OFFSET;

fn show_flags(flags: &FspFlags, _: &PageContext) -> Option<String> {
    Some(match flags.decode() {
        Ok(d) => d.describe(),
        Err(e) => format!("invalid: {e}"),
    })
}

impl FspHeader {
    /// Reads the FSP header from page 0.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        Self::parse_at(page, 0)
    }
}

/// The FSP header section of page 0.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    body.add(
        "FSP header",
        FspHeader::parse(page).map(|h| h.fields_at(0, ctx)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_those_of_fsp0fsp() {
        assert_eq!(FSP_HEADER_SIZE, 112);
        assert_eq!((FSP_SIZE, FSP_SPACE_FLAGS, FSP_FREE), (46, 54, 62));
        assert_eq!((FSP_SEG_ID, FSP_SEG_INODES_FREE), (110, 134));
        let mut p = vec![0u8; 150];
        p[46..50].copy_from_slice(&7u32.to_be_bytes());
        let h = FspHeader::parse(&p).unwrap();
        assert_eq!(h.size, 7);
        assert_eq!(h.fields_at(0, &PageContext::default()).len(), 12);
        assert!(FspHeader::parse(&p[..149]).is_err());
    }
}

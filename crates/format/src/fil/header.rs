//! FIL header: the first 38 bytes of every page (`FIL_PAGE_DATA` = 38).

use crate::field::{page_no_meaning, Field};
use crate::fil::page_type::PageType;
use crate::vendor::Vendor;
use crate::FormatError;
use binrw::BinRead;
use serde::Serialize;

/// Offset of `FIL_PAGE_SPACE_OR_CHKSUM`: checksum (MariaDB full_crc32: key version).
pub const FIL_PAGE_SPACE_OR_CHKSUM: usize = 0;
/// Offset of `FIL_PAGE_OFFSET`: the page number.
pub const FIL_PAGE_OFFSET: usize = 4;
/// Offset of `FIL_PAGE_PREV`: left sibling (MySQL 8.0 page 0: server version).
pub const FIL_PAGE_PREV: usize = 8;
/// Offset of `FIL_PAGE_NEXT`: right sibling (MySQL 8.0 page 0: space version).
pub const FIL_PAGE_NEXT: usize = 12;
/// Offset of `FIL_PAGE_LSN`: LSN of the last modification.
pub const FIL_PAGE_LSN: usize = 16;
/// Offset of `FIL_PAGE_TYPE`.
pub const FIL_PAGE_TYPE: usize = 24;
/// Offset of `FIL_PAGE_FILE_FLUSH_LSN` (page 0 of the system tablespace; overloaded elsewhere).
pub const FIL_PAGE_FILE_FLUSH_LSN: usize = 26;
/// Offset of `FIL_PAGE_SPACE_ID` (called `FIL_PAGE_ARCH_LOG_NO_OR_SPACE_ID` in old sources).
pub const FIL_PAGE_SPACE_ID: usize = 34;
/// Size of the FIL header; page data starts here.
pub const FIL_PAGE_DATA: usize = 38;

/// The FIL header of a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, BinRead, Serialize)]
#[br(big)]
pub struct FilHeader {
    /// Offset 0: stored checksum (pre-full_crc32 layouts); MariaDB full_crc32: key version.
    pub checksum_or_key_version: u32,
    /// Offset 4: page number.
    pub page_no: u32,
    /// Offset 8: previous page at the same B-tree level, or `FIL_NULL`.
    pub prev: u32,
    /// Offset 12: next page at the same B-tree level, or `FIL_NULL`.
    pub next: u32,
    /// Offset 16: LSN of the newest change written to this page.
    pub lsn: u64,
    /// Offset 24: page type.
    #[br(map = PageType)]
    pub page_type: PageType,
    /// Offset 26: flush LSN (page 0 of the system tablespace) or overloaded use.
    pub flush_lsn: u64,
    /// Offset 34: tablespace id.
    pub space_id: u32,
}

impl FilHeader {
    /// Reads the header from the start of a page image.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        let bytes = crate::bytes::slice(page, 0, FIL_PAGE_DATA, "FIL_HEADER")?;
        // The slice is exactly 38 bytes, so reading cannot run short.
        FilHeader::read(&mut binrw::io::Cursor::new(bytes)).map_err(|e| FormatError::BadValue {
            field: "FIL_HEADER",
            offset: 0,
            reason: e.to_string(),
        })
    }

    /// Every field with its offset, for display.
    pub fn fields(&self, vendor: Vendor, full_crc32: bool) -> Vec<Field> {
        vec![
            Field::with_meaning(
                FIL_PAGE_SPACE_OR_CHKSUM,
                4,
                "FIL_PAGE_SPACE_OR_CHKSUM",
                self.checksum_or_key_version.into(),
                if full_crc32 {
                    "key version (full_crc32)".to_string()
                } else {
                    format!("checksum 0x{:08x}", self.checksum_or_key_version)
                },
            ),
            Field::new(FIL_PAGE_OFFSET, 4, "FIL_PAGE_OFFSET", self.page_no.into()),
            Field {
                meaning: page_no_meaning(self.prev),
                ..Field::new(FIL_PAGE_PREV, 4, "FIL_PAGE_PREV", self.prev.into())
            },
            Field {
                meaning: page_no_meaning(self.next),
                ..Field::new(FIL_PAGE_NEXT, 4, "FIL_PAGE_NEXT", self.next.into())
            },
            Field::new(FIL_PAGE_LSN, 8, "FIL_PAGE_LSN", self.lsn),
            Field::with_meaning(
                FIL_PAGE_TYPE,
                2,
                "FIL_PAGE_TYPE",
                self.page_type.0.into(),
                self.page_type.name(vendor),
            ),
            Field::new(
                FIL_PAGE_FILE_FLUSH_LSN,
                8,
                "FIL_PAGE_FILE_FLUSH_LSN",
                self.flush_lsn,
            ),
            Field::new(
                FIL_PAGE_SPACE_ID,
                4,
                "FIL_PAGE_SPACE_ID",
                self.space_id.into(),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_fields() {
        let mut p = [0u8; 64];
        p[0..4].copy_from_slice(&0x1122_3344u32.to_be_bytes());
        p[4..8].copy_from_slice(&7u32.to_be_bytes());
        p[8..12].copy_from_slice(&crate::FIL_NULL.to_be_bytes());
        p[12..16].copy_from_slice(&9u32.to_be_bytes());
        p[16..24].copy_from_slice(&0x0102_0304_0506_0708u64.to_be_bytes());
        p[24..26].copy_from_slice(&17855u16.to_be_bytes());
        p[34..38].copy_from_slice(&42u32.to_be_bytes());
        let h = FilHeader::parse(&p).unwrap();
        assert_eq!(h.checksum_or_key_version, 0x1122_3344);
        assert_eq!(h.page_no, 7);
        assert_eq!(h.prev, crate::FIL_NULL);
        assert_eq!(h.next, 9);
        assert_eq!(h.lsn, 0x0102_0304_0506_0708);
        assert_eq!(h.page_type, PageType::INDEX);
        assert_eq!(h.space_id, 42);
        let f = h.fields(Vendor::MySql, false);
        assert_eq!(f[2].meaning.as_deref(), Some("FIL_NULL"));
        assert_eq!(f[5].meaning.as_deref(), Some("INDEX"));
    }

    #[test]
    fn short_page_is_an_error() {
        assert!(matches!(
            FilHeader::parse(&[0u8; 20]),
            Err(FormatError::OutOfBounds {
                field: "FIL_HEADER",
                ..
            })
        ));
    }
}

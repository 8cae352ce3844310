//! FIL header: the first 38 bytes of every page (`FIL_PAGE_DATA` = 38).

use crate::context::PageContext;
use crate::fil::page_type::PageType;
use crate::layout::layout;
use crate::FormatError;

layout! {
    /// The FIL header of a page.
    pub struct FilHeader {
        /// Offset 0 (`FIL_PAGE_SPACE_OR_CHKSUM`, 4 bytes): the stored checksum
        /// (pre-full_crc32 layouts); MariaDB full_crc32: the key version.
        FIL_PAGE_SPACE_OR_CHKSUM @ 0 => checksum_or_key_version: u32, shows show_checksum;
        /// Offset 4 (`FIL_PAGE_OFFSET`, 4 bytes): the page number.
        FIL_PAGE_OFFSET @ 4 => page_no: u32;
        /// Offset 8 (`FIL_PAGE_PREV`, 4 bytes): the previous page at the same
        /// B-tree level, or `FIL_NULL` (MySQL 8.0 page 0: the server version).
        FIL_PAGE_PREV @ 8 => prev: u32, points page;
        /// Offset 12 (`FIL_PAGE_NEXT`, 4 bytes): the next page at the same
        /// B-tree level, or `FIL_NULL` (MySQL 8.0 page 0: the space version).
        FIL_PAGE_NEXT @ 12 => next: u32, points page;
        /// Offset 16 (`FIL_PAGE_LSN`, 8 bytes): LSN of the newest change written to this page.
        FIL_PAGE_LSN @ 16 => lsn: u64;
        /// Offset 24 (`FIL_PAGE_TYPE`, 2 bytes): the page type.
        FIL_PAGE_TYPE @ 24 => page_type: PageType, shows show_type;
        /// Offset 26 (`FIL_PAGE_FILE_FLUSH_LSN`, 8 bytes): the flush LSN
        /// (page 0 of the system tablespace), overloaded elsewhere.
        FIL_PAGE_FILE_FLUSH_LSN @ 26 => flush_lsn: u64;
        /// Offset 34 (`FIL_PAGE_SPACE_ID`, 4 bytes, `FIL_PAGE_ARCH_LOG_NO_OR_SPACE_ID`
        /// in old sources): the tablespace id.
        FIL_PAGE_SPACE_ID @ 34 => space_id: u32;
    }
}

/// Size of the FIL header; page data starts here (`FIL_PAGE_DATA`, 38).
pub const FIL_PAGE_DATA: usize = FilHeader::END;

fn show_checksum(v: &u32, ctx: &PageContext) -> Option<String> {
    Some(if ctx.full_crc32 {
        "key version (full_crc32)".to_string()
    } else {
        format!("checksum 0x{v:08x}")
    })
}

fn show_type(t: &PageType, ctx: &PageContext) -> Option<String> {
    Some(t.name(ctx.vendor).into_owned())
}

impl FilHeader {
    /// Reads the header from the start of a page image.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        Self::parse_at(page, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vendor::Vendor;

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
        assert_eq!(FIL_PAGE_DATA, 38);
        let ctx = PageContext {
            vendor: Vendor::MySql,
            ..PageContext::default()
        };
        let f = h.fields_at(0, &ctx);
        assert_eq!(f[0].meaning.as_deref(), Some("checksum 0x11223344"));
        assert_eq!(f[2].meaning.as_deref(), Some("FIL_NULL"));
        assert_eq!(f[5].meaning.as_deref(), Some("INDEX"));
        assert_eq!(
            (f[7].name, f[7].offset, f[7].size),
            ("FIL_PAGE_SPACE_ID", 34, 4)
        );
    }

    #[test]
    fn short_page_is_an_error_naming_the_field() {
        assert!(matches!(
            FilHeader::parse(&[0u8; 20]),
            Err(FormatError::OutOfBounds {
                field: "FIL_PAGE_LSN",
                offset: 16,
                ..
            })
        ));
    }
}

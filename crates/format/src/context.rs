//! What a page's body decoder and its display fields need to know beyond
//! the page's bytes: where the page sits, the tablespace's page sizes and
//! which server wrote it.

use crate::vendor::Vendor;

/// The facts about a page that its bytes alone do not give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageContext {
    /// The page's number (its position in the file).
    pub page_no: u32,
    /// The tablespace id (`FSP_SPACE_ID` of page 0).
    pub space_id: u32,
    /// True in the system tablespace (space id 0, `ibdata1` and its
    /// continuations), where pages 3, 5 and 7 have fixed roles.
    pub system: bool,
    /// Logical page size in bytes (`innodb_page_size`).
    pub logical_page_size: usize,
    /// Physical page size in bytes (the ROW_FORMAT=COMPRESSED size, else the logical one).
    pub physical_page_size: usize,
    /// Pages per extent (`FSP_EXTENT_SIZE`).
    pub extent_size: usize,
    /// Which server family wrote the file.
    pub vendor: Vendor,
    /// MariaDB's full_crc32 page layout.
    pub full_crc32: bool,
    /// The page lies in the doublewrite area of the system tablespace: it is
    /// a copy of a page of some tablespace, not the page of this position.
    pub doublewrite_copy: bool,
}

impl Default for PageContext {
    /// Page 0 of a 16 KiB tablespace of unknown vendor, space id 0.
    fn default() -> Self {
        PageContext {
            page_no: 0,
            space_id: 0,
            system: false,
            logical_page_size: 16384,
            physical_page_size: 16384,
            extent_size: 64,
            vendor: Vendor::Unknown,
            full_crc32: false,
            doublewrite_copy: false,
        }
    }
}

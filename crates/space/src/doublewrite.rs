//! The doublewrite buffer area of the system tablespace: two blocks of one
//! extent each, named by the TRX_SYS page, holding copies of pages of any
//! tablespace.

use innodb_format::fil::header::FilHeader;
use innodb_format::fil::page_type::PageType;
use innodb_format::sys::trx_sys::{Doublewrite, TRX_SYS_PAGE_NO};
use serde::Serialize;

/// Where the doublewrite blocks lie in the system tablespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DoublewriteArea {
    /// The header as read from TRX_SYS.
    pub header: Doublewrite,
    /// Pages per block (one extent).
    pub block_pages: u32,
}

impl DoublewriteArea {
    /// Finds the area from the TRX_SYS page of a system tablespace, if the
    /// page is there and holds the doublewrite magic numbers.
    pub fn find(trx_sys_page: &[u8], extent_size: usize) -> Option<Self> {
        let fil = FilHeader::parse(trx_sys_page).ok()?;
        if fil.page_no != TRX_SYS_PAGE_NO || fil.page_type != PageType::TYPE_TRX_SYS {
            return None;
        }
        let header = Doublewrite::parse(trx_sys_page).ok()??;
        Some(DoublewriteArea {
            header,
            block_pages: u32::try_from(extent_size).ok()?,
        })
    }

    /// True when `page` lies in one of the two blocks.
    pub fn contains(&self, page: u32) -> bool {
        let within = |start: u32| page >= start && page - start < self.block_pages;
        within(self.header.block1) || within(self.header.block2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_one_extent_each() {
        let area = DoublewriteArea {
            header: Doublewrite {
                block1: 64,
                block2: 128,
                space_id_stored: true,
            },
            block_pages: 64,
        };
        assert!(!area.contains(63));
        assert!(area.contains(64) && area.contains(127) && area.contains(191));
        assert!(!area.contains(192));
        assert!(!area.contains(0));
    }
}

//! File lists (`fut0lst.h`): addresses, list base nodes and list nodes.

use binrw::BinRead;
use serde::Serialize;

/// `fil_addr_t` (6 bytes): a page number and a byte offset within it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, BinRead, Serialize)]
#[br(big)]
pub struct FilAddr {
    /// Page number (`FIL_ADDR_PAGE`, offset 0), `FIL_NULL` for a null address.
    pub page: u32,
    /// Byte offset within the page (`FIL_ADDR_BYTE`, offset 4).
    pub byte: u16,
}

impl FilAddr {
    /// True for the null address.
    pub fn is_null(&self) -> bool {
        self.page == crate::FIL_NULL
    }
}

/// `FLST_BASE_NODE` (16 bytes): the head of a file list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, BinRead, Serialize)]
#[br(big)]
pub struct FlstBase {
    /// `FLST_LEN` (offset 0): number of nodes.
    pub len: u32,
    /// `FLST_FIRST` (offset 4): first node.
    pub first: FilAddr,
    /// `FLST_LAST` (offset 10): last node.
    pub last: FilAddr,
}

/// Size of `FLST_BASE_NODE`.
pub const FLST_BASE_NODE_SIZE: usize = 16;

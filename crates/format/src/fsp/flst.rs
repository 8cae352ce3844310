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

/// Size of `FLST_NODE`.
pub const FLST_NODE_SIZE: usize = 12;

impl FilAddr {
    /// The null address.
    pub const NULL: FilAddr = FilAddr {
        page: crate::FIL_NULL,
        byte: 0,
    };

    /// Reads an address from the first 6 bytes of `bytes`.
    pub fn parse(bytes: &[u8]) -> Result<Self, crate::FormatError> {
        Ok(FilAddr {
            page: crate::bytes::u32_at(bytes, 0, "FIL_ADDR_PAGE")?,
            byte: crate::bytes::u16_at(bytes, 4, "FIL_ADDR_BYTE")?,
        })
    }
}

impl std::fmt::Display for FilAddr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_null() {
            f.write_str("null")
        } else {
            write!(f, "{}:{}", self.page, self.byte)
        }
    }
}

impl FlstBase {
    /// The base shown as one field at absolute `offset`: its length, with
    /// first and last node.
    pub fn field(&self, offset: usize, name: &'static str) -> crate::field::Field {
        crate::field::Field::with_meaning(
            offset,
            FLST_BASE_NODE_SIZE,
            name,
            self.len.into(),
            format!("len {}, first {}, last {}", self.len, self.first, self.last),
        )
    }

    /// An empty list.
    pub const EMPTY: FlstBase = FlstBase {
        len: 0,
        first: FilAddr::NULL,
        last: FilAddr::NULL,
    };

    /// Reads a list base from the first 16 bytes of `bytes`.
    pub fn parse(bytes: &[u8]) -> Result<Self, crate::FormatError> {
        Ok(FlstBase {
            len: crate::bytes::u32_at(bytes, 0, "FLST_LEN")?,
            first: FilAddr::parse(crate::bytes::slice(bytes, 4, 6, "FLST_FIRST")?)?,
            last: FilAddr::parse(crate::bytes::slice(bytes, 10, 6, "FLST_LAST")?)?,
        })
    }
}

/// `FLST_NODE` (12 bytes): a list member's links.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FlstNode {
    /// `FLST_PREV` (offset 0).
    pub prev: FilAddr,
    /// `FLST_NEXT` (offset 6).
    pub next: FilAddr,
}

impl FlstNode {
    /// The node shown as one field at absolute `offset`.
    pub fn field(&self, offset: usize, name: &'static str) -> crate::field::Field {
        crate::field::Field::with_meaning(
            offset,
            FLST_NODE_SIZE,
            name,
            self.next.page.into(),
            format!("prev {}, next {}", self.prev, self.next),
        )
    }

    /// A node with both links null.
    pub const NULL: FlstNode = FlstNode {
        prev: FilAddr::NULL,
        next: FilAddr::NULL,
    };

    /// Reads a node from the first 12 bytes of `bytes`.
    pub fn parse(bytes: &[u8]) -> Result<Self, crate::FormatError> {
        Ok(FlstNode {
            prev: FilAddr::parse(crate::bytes::slice(bytes, 0, 6, "FLST_PREV")?)?,
            next: FilAddr::parse(crate::bytes::slice(bytes, 6, 6, "FLST_NEXT")?)?,
        })
    }
}

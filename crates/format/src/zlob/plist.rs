//! Page lists (`lob0impl.h`, `plist_base_node_t` and `plist_node_t`): lists
//! whose nodes all lie within one page, linked by 2-byte offsets (0 for
//! none). The fragment pages of compressed LOBs keep their free and used
//! fragments in such lists.

use crate::bytes::{slice, u16_at, u32_at};
use crate::FormatError;
use serde::Serialize;

/// Size of a page list base node (`plist_base_node_t::SIZE`).
pub const PLIST_BASE_NODE_SIZE: usize = 8;
/// Size of a page list node (`plist_node_t::SIZE`).
pub const PLIST_NODE_SIZE: usize = 4;

/// `plist_base_node_t` (8 bytes): the head of a page list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PlistBase {
    /// `OFFSET_LEN` (offset 0, 4 bytes): number of nodes.
    pub len: u32,
    /// `OFFSET_FIRST` (offset 4, 2 bytes): page offset of the first node, 0 for none.
    pub first: u16,
    /// `OFFSET_LAST` (offset 6, 2 bytes): page offset of the last node, 0 for none.
    pub last: u16,
}

impl PlistBase {
    /// Reads the base node at absolute `offset` of `page`.
    pub fn parse_at(page: &[u8], offset: usize) -> Result<Self, FormatError> {
        let b = slice(page, offset, PLIST_BASE_NODE_SIZE, "plist_base_node_t")?;
        Ok(PlistBase {
            len: u32_at(b, 0, "plist OFFSET_LEN")?,
            first: u16_at(b, 4, "plist OFFSET_FIRST")?,
            last: u16_at(b, 6, "plist OFFSET_LAST")?,
        })
    }
}

/// `plist_node_t` (4 bytes): a page list member's links.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PlistNode {
    /// `OFFSET_PREV` (offset 0, 2 bytes): page offset of the previous node, 0 for none.
    pub prev: u16,
    /// `OFFSET_NEXT` (offset 2, 2 bytes): page offset of the next node, 0 for none.
    pub next: u16,
}

impl PlistNode {
    /// Reads the node at absolute `offset` of `page`.
    pub fn parse_at(page: &[u8], offset: usize) -> Result<Self, FormatError> {
        let b = slice(page, offset, PLIST_NODE_SIZE, "plist_node_t")?;
        Ok(PlistNode {
            prev: u16_at(b, 0, "plist OFFSET_PREV")?,
            next: u16_at(b, 2, "plist OFFSET_NEXT")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lists() {
        let b = [0, 0, 0, 2, 0, 61, 0, 99, 0, 0, 0, 99];
        assert_eq!(
            PlistBase::parse_at(&b, 0).unwrap(),
            PlistBase {
                len: 2,
                first: 61,
                last: 99
            }
        );
        assert_eq!(
            PlistNode::parse_at(&b, 8).unwrap(),
            PlistNode { prev: 0, next: 99 }
        );
        assert!(PlistBase::parse_at(&b, 5).is_err());
        assert!(PlistNode::parse_at(&b, 9).is_err());
    }
}

//! Page lists (`lob0impl.h`, `plist_base_node_t` and `plist_node_t`): lists
//! whose nodes all lie within one page, linked by 2-byte offsets (0 for
//! none). The fragment pages of compressed LOBs keep their free and used
//! fragments in such lists.

use crate::field::Field;
use crate::layout::{layout, read_composite, OnDisk};
use crate::FormatError;

layout! {
    /// `plist_base_node_t` (8 bytes): the head of a page list.
    pub struct PlistBase {
        /// Offset 0 (`OFFSET_LEN`, 4 bytes): the number of nodes.
        PLIST_BASE_LEN "OFFSET_LEN" @ 0 => len: u32;
        /// Offset 4 (`OFFSET_FIRST`, 2 bytes): page offset of the first node, 0 for none.
        PLIST_BASE_FIRST "OFFSET_FIRST" @ 4 => first: u16;
        /// Offset 6 (`OFFSET_LAST`, 2 bytes): page offset of the last node, 0 for none.
        PLIST_BASE_LAST "OFFSET_LAST" @ 6 => last: u16;
    }
}

/// Size of a page list base node (`plist_base_node_t::SIZE`).
pub const PLIST_BASE_NODE_SIZE: usize = PlistBase::END;

layout! {
    /// `plist_node_t` (4 bytes): a page list member's links.
    pub struct PlistNode {
        /// Offset 0 (`OFFSET_PREV`, 2 bytes): page offset of the previous node, 0 for none.
        PLIST_NODE_PREV "OFFSET_PREV" @ 0 => prev: u16;
        /// Offset 2 (`OFFSET_NEXT`, 2 bytes): page offset of the next node, 0 for none.
        PLIST_NODE_NEXT "OFFSET_NEXT" @ 2 => next: u16;
    }
}

/// Size of a page list node (`plist_node_t::SIZE`).
pub const PLIST_NODE_SIZE: usize = PlistNode::END;

impl OnDisk for PlistBase {
    type Value = PlistBase;
    const SIZE: usize = PlistBase::END;
    fn read(buf: &[u8], offset: usize, name: &'static str) -> Result<Self, FormatError> {
        read_composite(buf, offset, Self::SIZE, name, Self::parse_at)
    }
    /// One field: the list length as the value, with its first and last node.
    fn field(v: &Self, offset: usize, name: &'static str) -> Field {
        Field::with_meaning(
            offset,
            Self::SIZE,
            name,
            v.len.into(),
            format!("len {}, first {}, last {}", v.len, v.first, v.last),
        )
    }
}

impl OnDisk for PlistNode {
    type Value = PlistNode;
    const SIZE: usize = PlistNode::END;
    fn read(buf: &[u8], offset: usize, name: &'static str) -> Result<Self, FormatError> {
        read_composite(buf, offset, Self::SIZE, name, Self::parse_at)
    }
    /// One field: the next node's offset as the value, with both links.
    fn field(v: &Self, offset: usize, name: &'static str) -> Field {
        Field::with_meaning(
            offset,
            Self::SIZE,
            name,
            v.next.into(),
            format!("prev {}, next {}", v.prev, v.next),
        )
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

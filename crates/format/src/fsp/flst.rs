//! File lists (`fut0lst.h`): addresses, list base nodes and list nodes.

use crate::field::{Field, PageAddr, Pointer};
use crate::layout::{layout, read_composite, OnDisk};
use crate::FormatError;

layout! {
    /// `fil_addr_t` (6 bytes): a page number and a byte offset within it.
    pub struct FilAddr {
        /// Offset 0 (`FIL_ADDR_PAGE`, 4 bytes): the page number, `FIL_NULL` for a null address.
        FIL_ADDR_PAGE @ 0 => page: u32, points page;
        /// Offset 4 (`FIL_ADDR_BYTE`, 2 bytes): the byte offset within the page.
        FIL_ADDR_BYTE @ 4 => byte: u16;
    }
}

/// Size of `fil_addr_t` (`FIL_ADDR_SIZE`).
pub const FIL_ADDR_SIZE: usize = FilAddr::END;

impl FilAddr {
    /// The null address.
    pub const NULL: FilAddr = FilAddr {
        page: crate::FIL_NULL,
        byte: 0,
    };

    /// True for the null address.
    pub fn is_null(&self) -> bool {
        self.page == crate::FIL_NULL
    }

    /// Reads an address from the first 6 bytes of `bytes`.
    pub fn parse(bytes: &[u8]) -> Result<Self, FormatError> {
        Self::parse_at(bytes, 0)
    }

    /// The address as a pointer target, `None` when null.
    pub fn addr(&self) -> Option<PageAddr> {
        PageAddr::of(self.page, self.byte)
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

impl OnDisk for FilAddr {
    type Value = FilAddr;
    const SIZE: usize = FilAddr::END;
    fn read(buf: &[u8], offset: usize, name: &'static str) -> Result<Self, FormatError> {
        read_composite(buf, offset, Self::SIZE, name, Self::parse_at)
    }
    /// One field: its page number as the value, pointing at the address;
    /// a null address points nowhere and says so.
    fn field(v: &Self, offset: usize, name: &'static str) -> Field {
        match v.addr() {
            Some(a) => Field::new(offset, Self::SIZE, name, v.page.into()).pointing(Some(
                Pointer::FileAddr {
                    page: a.page,
                    offset: a.offset,
                },
            )),
            None => Field::with_meaning(offset, Self::SIZE, name, v.page.into(), "null"),
        }
    }
}

layout! {
    /// `FLST_BASE_NODE` (16 bytes): the head of a file list.
    pub struct FlstBase {
        /// Offset 0 (`FLST_LEN`, 4 bytes): the number of nodes.
        FLST_LEN @ 0 => len: u32;
        /// Offset 4 (`FLST_FIRST`, 6 bytes): the first node.
        FLST_FIRST @ 4 => first: FilAddr;
        /// Offset 10 (`FLST_LAST`, 6 bytes): the last node.
        FLST_LAST @ 10 => last: FilAddr;
    }
}

/// Size of `FLST_BASE_NODE` (`FLST_BASE_NODE_SIZE`).
pub const FLST_BASE_NODE_SIZE: usize = FlstBase::END;

impl FlstBase {
    /// An empty list.
    pub const EMPTY: FlstBase = FlstBase {
        len: 0,
        first: FilAddr::NULL,
        last: FilAddr::NULL,
    };

    /// Reads a list base from the first 16 bytes of `bytes`.
    pub fn parse(bytes: &[u8]) -> Result<Self, FormatError> {
        Self::parse_at(bytes, 0)
    }
}

impl OnDisk for FlstBase {
    type Value = FlstBase;
    const SIZE: usize = FlstBase::END;
    fn read(buf: &[u8], offset: usize, name: &'static str) -> Result<Self, FormatError> {
        read_composite(buf, offset, Self::SIZE, name, Self::parse_at)
    }
    /// One field: the list length as the value, with its first and last
    /// node, pointing at the list unless it has neither.
    fn field(v: &Self, offset: usize, name: &'static str) -> Field {
        let (first, last) = (v.first.addr(), v.last.addr());
        Field::with_meaning(
            offset,
            Self::SIZE,
            name,
            v.len.into(),
            format!("len {}, first {}, last {}", v.len, v.first, v.last),
        )
        .pointing(
            (first.is_some() || last.is_some()).then_some(Pointer::ListBase {
                len: v.len,
                first,
                last,
            }),
        )
    }
}

layout! {
    /// `FLST_NODE` (12 bytes): a list member's links.
    pub struct FlstNode {
        /// Offset 0 (`FLST_PREV`, 6 bytes): the previous node.
        FLST_PREV @ 0 => prev: FilAddr;
        /// Offset 6 (`FLST_NEXT`, 6 bytes): the next node.
        FLST_NEXT @ 6 => next: FilAddr;
    }
}

/// Size of `FLST_NODE` (`FLST_NODE_SIZE`).
pub const FLST_NODE_SIZE: usize = FlstNode::END;

impl FlstNode {
    /// A node with both links null.
    pub const NULL: FlstNode = FlstNode {
        prev: FilAddr::NULL,
        next: FilAddr::NULL,
    };

    /// Reads a node from the first 12 bytes of `bytes`.
    pub fn parse(bytes: &[u8]) -> Result<Self, FormatError> {
        Self::parse_at(bytes, 0)
    }
}

impl OnDisk for FlstNode {
    type Value = FlstNode;
    const SIZE: usize = FlstNode::END;
    fn read(buf: &[u8], offset: usize, name: &'static str) -> Result<Self, FormatError> {
        read_composite(buf, offset, Self::SIZE, name, Self::parse_at)
    }
    /// One field: the next node's page as the value, with both links,
    /// pointing at them unless both are null.
    fn field(v: &Self, offset: usize, name: &'static str) -> Field {
        let (prev, next) = (v.prev.addr(), v.next.addr());
        Field::with_meaning(
            offset,
            Self::SIZE,
            name,
            v.next.page.into(),
            format!("prev {}, next {}", v.prev, v.next),
        )
        .pointing((prev.is_some() || next.is_some()).then_some(Pointer::ListNode { prev, next }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_reads() {
        assert_eq!(
            (FIL_ADDR_SIZE, FLST_BASE_NODE_SIZE, FLST_NODE_SIZE),
            (6, 16, 12)
        );
        assert_eq!((FLST_FIRST, FLST_LAST, FLST_NEXT), (4, 10, 6));
        let b = [0, 0, 0, 1, 0, 0, 0, 0, 0, 198, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0];
        let base = FlstBase::parse(&b).unwrap();
        assert_eq!((base.len, base.first.page, base.first.byte), (1, 0, 198));
        assert!(base.last.is_null());
        let f = <FlstBase as OnDisk>::field(&base, 100, "FSP_FREE");
        assert_eq!(f.meaning.as_deref(), Some("len 1, first 0:198, last null"));
        assert_eq!(f.pointer.and_then(|p| p.page_in(0)), Some(0));
        let empty = <FlstBase as OnDisk>::field(&FlstBase::EMPTY, 100, "FSP_FREE");
        assert_eq!(empty.pointer, None);
        // Too short: the outer field is named.
        assert!(matches!(
            <FlstBase as OnDisk>::read(&b, 1, "FSP_FREE"),
            Err(FormatError::OutOfBounds {
                field: "FSP_FREE",
                ..
            })
        ));
    }
}

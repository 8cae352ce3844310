//! A decoded field together with where it lives on the page and, when it
//! points somewhere, where to.
//!
//! Structures list their fields this way so that `innodb-inspect page` and
//! the terminal browser can show every value with its offset, and follow
//! its pointer, without knowing the layout themselves.

use serde::Serialize;

/// One decoded field of an on-disk structure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Field {
    /// Absolute byte offset within the page.
    pub offset: usize,
    /// Size in bytes.
    pub size: usize,
    /// Name as in the server source (`FIL_PAGE_LSN`, `PAGE_N_RECS`, …).
    pub name: &'static str,
    /// The raw value as an unsigned integer (fields of up to 8 bytes; for
    /// wider ones, what the structure's declaration says it shows).
    pub value: u64,
    /// What the value means, when there is more to say than the number
    /// (a page type name, a decoded flag set, "FIL_NULL", …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning: Option<String>,
    /// Where the value points, when it is a pointer that leads somewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<Pointer>,
}

impl Field {
    /// A field with no interpretation beyond its number.
    pub fn new(offset: usize, size: usize, name: &'static str, value: u64) -> Self {
        Field {
            offset,
            size,
            name,
            value,
            meaning: None,
            pointer: None,
        }
    }

    /// A field with an interpretation.
    pub fn with_meaning(
        offset: usize,
        size: usize,
        name: &'static str,
        value: u64,
        meaning: impl Into<String>,
    ) -> Self {
        Field {
            meaning: Some(meaning.into()),
            ..Field::new(offset, size, name, value)
        }
    }

    /// The field with `pointer` (or none).
    pub fn pointing(self, pointer: Option<Pointer>) -> Self {
        Field { pointer, ..self }
    }
}

/// Names a page-number field value: `FIL_NULL` or nothing.
pub fn page_no_meaning(value: u32) -> Option<String> {
    (value == crate::FIL_NULL).then(|| "FIL_NULL".to_string())
}

/// A byte within a page of the tablespace: a file address (`fil_addr_t`)
/// that is not null.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PageAddr {
    /// The page number.
    pub page: u32,
    /// The byte offset within the page.
    pub offset: u16,
}

impl PageAddr {
    /// The address of `page` and `offset`, `None` for `FIL_NULL`.
    pub fn of(page: u32, offset: u16) -> Option<PageAddr> {
        (page != crate::FIL_NULL).then_some(PageAddr { page, offset })
    }
}

impl std::fmt::Display for PageAddr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.page, self.offset)
    }
}

/// Where a field points: typed, so that a viewer follows it without
/// reading the field's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Pointer {
    /// A page of this tablespace.
    Page(u32),
    /// A page of the tablespace with id `space` (which may be this one).
    SpacePage {
        /// The tablespace id.
        space: u32,
        /// The page number.
        page: u32,
    },
    /// The extent of this tablespace that starts at this page.
    Extent(u32),
    /// A byte within a page of this tablespace (a file address, an INODE
    /// entry named by a segment header).
    FileAddr {
        /// The page number.
        page: u32,
        /// The byte offset within the page.
        offset: u16,
    },
    /// A file list node's links (`FLST_PREV`, `FLST_NEXT`), `None` for a null link.
    ListNode {
        /// The previous node.
        prev: Option<PageAddr>,
        /// The next node.
        next: Option<PageAddr>,
    },
    /// A file list base node: its length and its ends, `None` for a null address.
    ListBase {
        /// `FLST_LEN`.
        len: u32,
        /// `FLST_FIRST`.
        first: Option<PageAddr>,
        /// `FLST_LAST`.
        last: Option<PageAddr>,
    },
    /// A roll pointer (`DB_ROLL_PTR`): an undo log record.
    RollPtr {
        /// Bit 55: the record was inserted (no older version).
        insert: bool,
        /// Bits 48–54: the rollback segment id.
        rseg: u8,
        /// Bits 16–47: the undo log page.
        page: u32,
        /// Bits 0–15: the byte offset of the undo record.
        offset: u16,
    },
    /// An off-page column: where its first BLOB or LOB page is.
    BlobRef {
        /// `BTR_EXTERN_SPACE_ID`.
        space: u32,
        /// `BTR_EXTERN_PAGE_NO`.
        page: u32,
        /// `BTR_EXTERN_OFFSET` (`BTR_EXTERN_VERSION` for a MySQL 8.0+ LOB).
        offset: u32,
        /// The bytes stored off-page.
        len: u64,
    },
    /// A file segment of this tablespace, by id.
    Segment(u64),
}

impl Pointer {
    /// A roll pointer decoded from its 7 bytes read as an integer.
    pub fn roll_ptr(value: u64) -> Pointer {
        Pointer::RollPtr {
            insert: value >> 55 & 1 == 1,
            rseg: (value >> 48 & 0x7F) as u8,
            page: (value >> 16 & 0xFFFF_FFFF) as u32,
            offset: (value & 0xFFFF) as u16,
        }
    }

    /// The page of the tablespace `space_id` this pointer leads to, when it
    /// leads to one page of it: a page, the page of an address, a list
    /// node's next (else previous) node, a list's first node, an off-page
    /// column in this tablespace.
    pub fn page_in(&self, space_id: u32) -> Option<u32> {
        match *self {
            Pointer::Page(p) | Pointer::FileAddr { page: p, .. } => Some(p),
            Pointer::SpacePage { space, page } | Pointer::BlobRef { space, page, .. } => {
                (space == space_id).then_some(page)
            }
            Pointer::ListNode { prev, next } => next.or(prev).map(|a| a.page),
            Pointer::ListBase { first, .. } => first.map(|a| a.page),
            Pointer::Extent(_) | Pointer::RollPtr { .. } | Pointer::Segment(_) => None,
        }
    }
}

impl std::fmt::Display for Pointer {
    /// The pointer as `page` shows it: `→ page 7`, `→ next 7:156`, …
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Pointer::Page(p) => write!(f, "→ page {p}"),
            Pointer::SpacePage { space, page } => write!(f, "→ space {space} page {page}"),
            Pointer::Extent(first) => write!(f, "→ extent at page {first}"),
            Pointer::FileAddr { page, offset } => write!(f, "→ page {page} offset {offset}"),
            Pointer::ListNode { prev, next } => match (next, prev) {
                (Some(n), _) => write!(f, "→ next {n}"),
                (None, Some(p)) => write!(f, "→ prev {p}"),
                (None, None) => f.write_str("→ nowhere"),
            },
            Pointer::ListBase { first, .. } => match first {
                Some(a) => write!(f, "→ first {a}"),
                None => f.write_str("→ nowhere"),
            },
            Pointer::RollPtr {
                insert,
                rseg,
                page,
                offset,
            } => write!(
                f,
                "→ undo record: rollback segment {rseg} page {page} offset {offset}{}",
                if insert { " (insert)" } else { "" }
            ),
            Pointer::BlobRef {
                space, page, len, ..
            } => write!(f, "→ space {space} page {page} ({len} bytes off-page)"),
            Pointer::Segment(id) => write!(f, "→ segment {id}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roll_pointers_decode_and_pointers_lead_to_pages() {
        // Insert flag, rollback segment 3, page 7, offset 272.
        let v = (1u64 << 55) | (3 << 48) | (7 << 16) | 272;
        assert_eq!(
            Pointer::roll_ptr(v),
            Pointer::RollPtr {
                insert: true,
                rseg: 3,
                page: 7,
                offset: 272
            }
        );
        let node = Pointer::ListNode {
            prev: PageAddr::of(4, 38),
            next: PageAddr::of(crate::FIL_NULL, 0),
        };
        assert_eq!(node.page_in(0), Some(4));
        assert_eq!(node.to_string(), "→ prev 4:38");
        assert_eq!(Pointer::SpacePage { space: 2, page: 9 }.page_in(1), None);
        assert_eq!(Pointer::SpacePage { space: 2, page: 9 }.page_in(2), Some(9));
        assert_eq!(Pointer::Page(7).to_string(), "→ page 7");
        assert_eq!(Pointer::Extent(64).page_in(0), None);
    }
}

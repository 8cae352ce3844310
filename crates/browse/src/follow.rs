//! Where a decoded field leads: its typed pointer, as the page view
//! follows it. Nothing here reads the field's text.

use innodb_format::field::{Field, Pointer};

/// Where following a pointer leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A page of the open file.
    Page(u32),
    /// A byte of a page of the open file: a list node, an INODE entry.
    PageAt(u32, usize),
    /// An extent in the map, by its first page.
    Extent(u32),
    /// A file segment of the open file, by id.
    Segment(u64),
    /// Somewhere outside the open file (another tablespace, an undo
    /// record): the pointer, in words.
    Elsewhere(String),
    /// Nowhere.
    Nothing,
}

/// Where `field`, on a page of the tablespace `space_id`, leads.
pub fn target(field: &Field, space_id: u32) -> Target {
    match field.pointer {
        None => Target::Nothing,
        Some(Pointer::Extent(first)) => Target::Extent(first),
        Some(Pointer::Segment(id)) => Target::Segment(id),
        Some(p) => match (p.page_in(space_id), offset(&p)) {
            (Some(n), Some(o)) => Target::PageAt(n, usize::from(o)),
            (Some(n), None) => Target::Page(n),
            (None, _) => Target::Elsewhere(p.to_string()),
        },
    }
}

/// The byte a file address names within its page: a list's first node, a
/// node's next (else previous) node, a file address.
fn offset(p: &Pointer) -> Option<u16> {
    match *p {
        Pointer::FileAddr { offset, .. } => Some(offset),
        Pointer::ListNode { prev, next } => next.or(prev).map(|a| a.offset),
        Pointer::ListBase { first, .. } => first.map(|a| a.offset),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use innodb_format::field::PageAddr;

    fn field(pointer: Option<Pointer>) -> Field {
        Field::new(0, 4, "X", 0).pointing(pointer)
    }

    #[test]
    fn pointers_lead_where_they_say() {
        assert_eq!(target(&field(Some(Pointer::Page(7))), 3), Target::Page(7));
        assert_eq!(target(&field(None), 3), Target::Nothing);
        let base = Pointer::ListBase {
            len: 1,
            first: PageAddr::of(0, 198),
            last: PageAddr::of(0, 198),
        };
        assert_eq!(target(&field(Some(base)), 3), Target::PageAt(0, 198));
        assert_eq!(
            target(
                &field(Some(Pointer::FileAddr {
                    page: 2,
                    offset: 242
                })),
                3
            ),
            Target::PageAt(2, 242)
        );
        assert_eq!(
            target(&field(Some(Pointer::Extent(64))), 3),
            Target::Extent(64)
        );
        assert_eq!(
            target(&field(Some(Pointer::Segment(9))), 3),
            Target::Segment(9)
        );
        let other = Pointer::SpacePage { space: 2, page: 5 };
        assert_eq!(target(&field(Some(other)), 2), Target::Page(5));
        assert_eq!(
            target(&field(Some(other)), 0),
            Target::Elsewhere("→ space 2 page 5".into())
        );
        assert!(matches!(
            target(&field(Some(Pointer::roll_ptr(7 << 16))), 0),
            Target::Elsewhere(_)
        ));
    }
}

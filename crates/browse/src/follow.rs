//! Where a decoded field points: the page numbers, list addresses and
//! extent descriptors a page view can follow.

use crate::app::Target;
use innodb_format::field::Field;

/// FIL_NULL: no page.
const FIL_NULL: u64 = 0xFFFF_FFFF;

/// Fields whose value is a page number of the same tablespace.
const PAGE_NUMBER_FIELDS: &[&str] = &[
    "FIL_PAGE_PREV",
    "FIL_PAGE_NEXT",
    "BTR_BLOB_HDR_NEXT_PAGE_NO",
    "BTR_EXTERN_PAGE_NO",
    "TRX_SYS_RSEG_PAGE_NO",
    "OFFSET_PAGE_NO",
    "OFFSET_INDEX_PAGE_NO",
    "OFFSET_Z_PAGE_NO",
    "OFFSET_FRAG_NODES_PAGE_NO",
];

/// The number after `word ` in `text` (`"page 2"`, `"first 0:198"` → 0).
fn number_after(text: &str, word: &str) -> Option<u32> {
    let at = text.find(word)? + word.len();
    let digits: String = text
        .get(at..)?
        .chars()
        .skip_while(|c| *c == ' ')
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// Where the field `field` of section `section` leads.
pub fn target(section: &str, field: &Field) -> Target {
    if let Some(rest) = section.strip_prefix("XDES entry ") {
        if let Some(first) = number_after(rest, "pages ") {
            return Target::Extent(first);
        }
    }
    if PAGE_NUMBER_FIELDS.contains(&field.name) {
        return match u32::try_from(field.value) {
            Ok(n) if field.value != FIL_NULL => Target::Page(n),
            _ => Target::Nothing,
        };
    }
    let Some(meaning) = field.meaning.as_deref() else {
        return Target::Nothing;
    };
    // A list node: its next member; a list base: its first member; a
    // segment header: its INODE page; a fragment array: its first page.
    for word in ["next ", "first ", " page ", "pages "] {
        if let Some(n) = number_after(meaning, word) {
            return Target::Page(n);
        }
    }
    Target::Nothing
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &'static str, value: u64, meaning: Option<&str>) -> Field {
        Field {
            offset: 0,
            size: 4,
            name,
            value,
            meaning: meaning.map(str::to_string),
            pointer: None,
        }
    }

    #[test]
    fn pointers_found_in_fields_and_meanings() {
        assert_eq!(
            target("FIL header", &field("FIL_PAGE_NEXT", 7, None)),
            Target::Page(7)
        );
        assert_eq!(
            target(
                "FIL header",
                &field("FIL_PAGE_NEXT", FIL_NULL, Some("FIL_NULL"))
            ),
            Target::Nothing
        );
        assert_eq!(
            target(
                "INODE entry 1",
                &field("FSEG_NOT_FULL", 1, Some("len 1, first 0:198, last 0:198"))
            ),
            Target::Page(0)
        );
        assert_eq!(
            target(
                "x",
                &field("FSEG_INODE_PAGE_NODE", 0, Some("prev null, next null"))
            ),
            Target::Nothing
        );
        assert_eq!(
            target(
                "INDEX page header",
                &field("PAGE_BTR_SEG_LEAF", 2, Some("space 6 page 2 offset 242"))
            ),
            Target::Page(2)
        );
        assert_eq!(
            target(
                "INODE entry 1",
                &field("FSEG_FRAG_ARR", 32, Some("pages 4, 5, 6"))
            ),
            Target::Page(4)
        );
        assert_eq!(
            target(
                "XDES entry 1: pages 64..127",
                &field("XDES_STATE", 4, Some("FSEG"))
            ),
            Target::Extent(64)
        );
        assert_eq!(
            target("FIL header", &field("FIL_PAGE_LSN", 5, None)),
            Target::Nothing
        );
    }
}

//! The name lists after the column records: the column names, then one
//! list of labels for each ENUM or SET column (`fix_type_pointers` in
//! `sql/table.cc`). A list starts with its separator (0xFF unless a label
//! holds that byte), separates its items with it, and ends with the
//! separator and a NUL.

use crate::FormatError;

/// One name list: its items' bytes.
pub type NameList = Vec<Vec<u8>>;

/// The lists of `count` name lists in `b` (at file offset `base`), and the
/// bytes they took.
pub fn name_lists(
    b: &[u8],
    base: usize,
    count: usize,
    field: &'static str,
) -> Result<(Vec<NameList>, usize), FormatError> {
    let mut lists = Vec::with_capacity(count.min(4096));
    let mut pos = 0;
    for _ in 0..count {
        let (list, used) = name_list(b.get(pos..).unwrap_or(&[]), base + pos, field)?;
        lists.push(list);
        pos += used;
    }
    Ok((lists, pos))
}

/// One list at the start of `b` (file offset `base`): its items and the
/// bytes it took.
fn name_list(b: &[u8], base: usize, field: &'static str) -> Result<(NameList, usize), FormatError> {
    let Some(&sep) = b.first() else {
        return Err(FormatError::BadValue {
            field,
            offset: base,
            reason: "the name list ends before it starts".into(),
        });
    };
    let mut items = Vec::new();
    let mut pos = 1;
    loop {
        match b.get(pos) {
            // The separator followed by NUL ends the list.
            Some(0) => return Ok((items, pos + 1)),
            Some(_) => {}
            None => {
                return Err(FormatError::BadValue {
                    field,
                    offset: base + pos,
                    reason: "a name list runs past its segment (no closing separator and NUL)"
                        .into(),
                })
            }
        }
        let rest = b.get(pos..).unwrap_or(&[]);
        let end = rest
            .iter()
            .position(|&c| c == sep)
            .ok_or(FormatError::BadValue {
                field,
                offset: base + pos,
                reason: "a name has no separator after it".into(),
            })?;
        items.push(rest.get(..end).unwrap_or(&[]).to_vec());
        pos += end + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_with_their_separators() {
        let b = b"\xffid\xffa\xff\x00\xffred\xffgreen\xff\x00,x\xffy,z,\x00";
        let (lists, used) = name_lists(b, 0, 3, "names").unwrap();
        assert_eq!(used, b.len());
        assert_eq!(lists[0], vec![b"id".to_vec(), b"a".to_vec()]);
        assert_eq!(lists[1], vec![b"red".to_vec(), b"green".to_vec()]);
        assert_eq!(lists[2], vec![b"x\xffy".to_vec(), b"z".to_vec()]);
        assert!(name_lists(b"\xffid\xffa", 10, 1, "names").is_err());
    }
}

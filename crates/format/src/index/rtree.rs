//! R-tree (spatial index) records (`FIL_PAGE_RTREE` = 17854, `gis0rtree.h`):
//! every record starts with the minimum bounding rectangle of its
//! geometry, `SPDIMS` = 2 dimensions as 4 doubles (xmin, xmax, ymin, ymax,
//! `DATA_MBR_LEN` = 32 bytes) in the byte order `mach_double_read` uses
//! (little-endian). A non-leaf record (node pointer) follows it with the
//! 4-byte child page number; a leaf record with the primary key.

use crate::bytes::{slice, u32_at};
use crate::field::{Field, Pointer};
use crate::index::header::IndexHeader;
use crate::index::page::{IndexPage, RecordList};
use crate::index::record::REC_NODE_PTR_SIZE;
use crate::section::Body;
use crate::FormatError;

/// Bytes of a minimum bounding rectangle (`DATA_MBR_LEN`: 2 × 2 doubles).
pub const DATA_MBR_LEN: usize = 32;

/// A minimum bounding rectangle (`rtr_mbr_t`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mbr {
    /// Smallest x.
    pub xmin: f64,
    /// Largest x.
    pub xmax: f64,
    /// Smallest y.
    pub ymin: f64,
    /// Largest y.
    pub ymax: f64,
}

impl Mbr {
    /// Reads the rectangle at `offset` (`rtr_read_mbr`).
    pub fn parse_at(page: &[u8], offset: usize) -> Result<Mbr, FormatError> {
        let b = slice(page, offset, DATA_MBR_LEN, "MBR")?;
        let d = |i: usize| -> f64 {
            let mut a = [0u8; 8];
            if let Some(s) = b.get(8 * i..8 * i + 8) {
                a.copy_from_slice(s);
            }
            f64::from_le_bytes(a)
        };
        Ok(Mbr {
            xmin: d(0),
            xmax: d(1),
            ymin: d(2),
            ymax: d(3),
        })
    }
}

impl std::fmt::Display for Mbr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "x {}..{}, y {}..{}",
            self.xmin, self.xmax, self.ymin, self.ymax
        )
    }
}

/// One section with every record's MBR (a field of 32 bytes whose value
/// is 0: the doubles are in the meaning) and, on a non-leaf page, the
/// child page each node pointer leads to. The records are walked from the
/// infimum; the walk's problems are the index page's, reported with its records.
pub fn sections(page: &[u8], body: &mut Body) {
    let Ok(h) = IndexHeader::parse(page) else {
        return;
    };
    let index_page = IndexPage::new(page, h);
    let mut list = RecordList::default();
    index_page.walk(&mut list, &mut Vec::new());
    let mut fields = Vec::new();
    for rec in &list.records {
        let o = rec.origin;
        let Some(mbr) = body.keep(Mbr::parse_at(page, o)) else {
            break;
        };
        fields.push(Field::with_meaning(
            o,
            DATA_MBR_LEN,
            "MBR",
            0,
            mbr.to_string(),
        ));
        if h.level > 0 {
            let at = o + DATA_MBR_LEN;
            let Some(child) = body.keep(u32_at(page, at, "node pointer child page")) else {
                break;
            };
            fields.push(
                Field::new(
                    at,
                    REC_NODE_PTR_SIZE,
                    "node pointer child page",
                    child.into(),
                )
                .pointing(Some(Pointer::Page(child))),
            );
        }
    }
    body.push(
        format!(
            "R-tree records ({})",
            if h.level > 0 { "node pointers" } else { "leaf" }
        ),
        fields,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_doubles() {
        let mut b = vec![0u8; 40];
        for (i, v) in [1.5f64, 2.5, -3.0, 4.0].iter().enumerate() {
            b[4 + 8 * i..12 + 8 * i].copy_from_slice(&v.to_le_bytes());
        }
        let m = Mbr::parse_at(&b, 4).unwrap();
        assert_eq!((m.xmin, m.xmax, m.ymin, m.ymax), (1.5, 2.5, -3.0, 4.0));
        assert_eq!(m.to_string(), "x 1.5..2.5, y -3..4");
        assert!(Mbr::parse_at(&b, 9).is_err());
    }
}

//! The rollback-segment array page of a MySQL 8 undo tablespace
//! (`FIL_PAGE_TYPE_RSEG_ARRAY` = 21, `trx0rseg.h`), normally page 3
//! (`FSP_RSEG_ARRAY_PAGE_NO`): a version, the number of rollback segments,
//! the array's file segment, then the header page number of each rollback
//! segment of the tablespace. The last 200 bytes before the trailer are
//! reserved (`RSEG_ARRAY_RESERVED_BYTES`).

use crate::bytes::u32_at;
use crate::context::PageContext;
use crate::field::{Field, Pointer};
use crate::fsp::fseg_header::FsegHeader;
use crate::layout::layout;
use crate::section::Body;

/// Absolute offset of the array header (`RSEG_ARRAY_HEADER` = `FSEG_PAGE_DATA`).
pub const RSEG_ARRAY_HEADER: usize = 38;
/// The page of an undo tablespace holding the array (`FSP_RSEG_ARRAY_PAGE_NO`).
pub const FSP_RSEG_ARRAY_PAGE_NO: u32 = 3;
/// Rollback segments an array tracks at most (`FSP_MAX_ROLLBACK_SEGMENTS`,
/// = `TRX_SYS_N_RSEGS`): the server reads no slot past it.
pub const FSP_MAX_ROLLBACK_SEGMENTS: usize = crate::sys::trx_sys::TRX_SYS_N_RSEGS;

layout! {
    /// The header of an RSEG_ARRAY page (absolute offsets).
    pub struct RsegArrayHeader {
        /// Offset 38 (`RSEG_ARRAY_VERSION_OFFSET`, 4 bytes): [`RSEG_ARRAY_VERSION`].
        RSEG_ARRAY_VERSION_AT "RSEG_ARRAY_VERSION_OFFSET" @ RSEG_ARRAY_HEADER => version: u32, shows show_version;
        /// Offset 42 (`RSEG_ARRAY_SIZE_OFFSET`, 4 bytes): the rollback segments tracked.
        RSEG_ARRAY_SIZE_AT "RSEG_ARRAY_SIZE_OFFSET" @ RSEG_ARRAY_HEADER + 4 => size: u32;
        /// Offset 46 (`RSEG_ARRAY_FSEG_HEADER_OFFSET`, 10 bytes): the array's file segment.
        RSEG_ARRAY_FSEG_HEADER "RSEG_ARRAY_FSEG_HEADER_OFFSET" @ RSEG_ARRAY_HEADER + 8 => fseg: FsegHeader;
    }
}

/// Absolute offset of the page-number array (`RSEG_ARRAY_PAGES_OFFSET` 18 + 38).
pub const RSEG_ARRAY_PAGES: usize = RsegArrayHeader::END;
/// Bytes per slot of the array (`RSEG_ARRAY_SLOT_SIZE`).
pub const RSEG_ARRAY_SLOT_SIZE: usize = 4;
/// Bytes reserved at the end of the page, before the trailer (`RSEG_ARRAY_RESERVED_BYTES`).
pub const RSEG_ARRAY_RESERVED_BYTES: usize = 200;
/// `RSEG_ARRAY_VERSION`: `'RSEG'` (0x52534547) + 1.
pub const RSEG_ARRAY_VERSION: u32 = 0x5253_4547 + 1;

fn show_version(v: &u32, _: &PageContext) -> Option<String> {
    Some(if *v == RSEG_ARRAY_VERSION {
        "RSEG_ARRAY_VERSION".into()
    } else {
        format!("not RSEG_ARRAY_VERSION 0x{RSEG_ARRAY_VERSION:08x}")
    })
}

/// Slots the array has room for on a page of `page_size` bytes (the server
/// uses at most `TRX_SYS_N_RSEGS` = 128 of them).
pub fn slot_capacity(page_size: usize) -> usize {
    page_size.saturating_sub(
        RSEG_ARRAY_PAGES + RSEG_ARRAY_RESERVED_BYTES + crate::fil::trailer::FIL_PAGE_DATA_END,
    ) / RSEG_ARRAY_SLOT_SIZE
}

/// An RSEG_ARRAY page read: its header and the slots in use.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct RsegArray {
    /// The header.
    pub header: RsegArrayHeader,
    /// (slot, rollback segment header page) of each slot in use among the
    /// first [`FSP_MAX_ROLLBACK_SEGMENTS`] (a slot is the rollback segment's
    /// id within its undo tablespace).
    pub slots: Vec<(usize, u32)>,
    /// The first unused slot that a used one follows, if any: the server
    /// stops at the first unused slot (`trx_rsegs_init`, "there are no gaps
    /// in an RSEG_ARRAY page") and does not read the rollback segments after it.
    pub gap_at: Option<usize>,
}

impl RsegArray {
    /// Reads an RSEG_ARRAY page.
    pub fn parse(page: &[u8]) -> Result<Self, crate::FormatError> {
        let header = RsegArrayHeader::parse_at(page, 0)?;
        let n = slot_capacity(page.len()).min(FSP_MAX_ROLLBACK_SEGMENTS);
        let (mut slots, mut first_unused, mut gap_at) = (Vec::new(), None, None);
        for i in 0..n {
            let p = u32_at(
                page,
                RSEG_ARRAY_PAGES + RSEG_ARRAY_SLOT_SIZE * i,
                "RSEG_ARRAY_PAGES_OFFSET",
            )?;
            if p == crate::FIL_NULL {
                first_unused = first_unused.or(Some(i));
            } else {
                gap_at = gap_at.or(first_unused);
                slots.push((i, p));
            }
        }
        Ok(RsegArray {
            header,
            slots,
            gap_at,
        })
    }

    /// Absolute offset of slot `i`.
    pub fn slot_offset(i: usize) -> usize {
        RSEG_ARRAY_PAGES + RSEG_ARRAY_SLOT_SIZE * i
    }
}

/// The sections of an RSEG_ARRAY page: the header, then the rollback
/// segment header pages the array names (at most `TRX_SYS_N_RSEGS` = 128
/// slots are read), each pointing at its page.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    let Some(h) = body.keep(RsegArrayHeader::parse_at(page, 0)) else {
        return;
    };
    body.push("rollback segment array header", h.fields_at(0, ctx));
    let n = slot_capacity(page.len()).min(crate::sys::trx_sys::TRX_SYS_N_RSEGS);
    let mut used = Vec::new();
    for i in 0..n {
        let at = RSEG_ARRAY_PAGES + RSEG_ARRAY_SLOT_SIZE * i;
        let Some(p) = body.keep(u32_at(page, at, "RSEG_ARRAY_PAGES_OFFSET")) else {
            break;
        };
        if p != crate::FIL_NULL {
            used.push(
                Field::with_meaning(
                    at,
                    RSEG_ARRAY_SLOT_SIZE,
                    "RSEG_ARRAY_PAGES_OFFSET",
                    p.into(),
                    format!("slot {i}"),
                )
                .pointing(Some(Pointer::Page(p))),
            );
        }
    }
    let mut fields = vec![Field::with_meaning(
        RSEG_ARRAY_PAGES,
        n * RSEG_ARRAY_SLOT_SIZE,
        "RSEG_ARRAY_PAGES_OFFSET",
        used.len() as u64,
        format!("{} of the first {n} slots in use", used.len()),
    )];
    fields.extend(used);
    body.push("rollback segment header pages", fields);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_trx0rseg() {
        assert_eq!((RSEG_ARRAY_FSEG_HEADER, RSEG_ARRAY_PAGES), (46, 56));
        assert_eq!(RSEG_ARRAY_VERSION, 0x5253_4548);
        assert_eq!(slot_capacity(16384), (16384 - 56 - 200 - 8) / 4);
    }

    #[test]
    fn the_array_reads_its_slots_and_notes_a_gap() {
        let mut p = vec![0xffu8; 4096];
        p[38..42].copy_from_slice(&RSEG_ARRAY_VERSION.to_be_bytes());
        p[42..46].copy_from_slice(&3u32.to_be_bytes());
        for (i, page) in [(0usize, 4u32), (1, 5), (3, 9)] {
            let at = RsegArray::slot_offset(i);
            p[at..at + 4].copy_from_slice(&page.to_be_bytes());
        }
        let a = RsegArray::parse(&p).unwrap();
        assert_eq!((a.header.version, a.header.size), (RSEG_ARRAY_VERSION, 3));
        assert_eq!(a.slots, vec![(0, 4), (1, 5), (3, 9)]);
        assert_eq!(a.gap_at, Some(2));
        assert!(RsegArray::parse(&p[..50]).is_err());
    }
}

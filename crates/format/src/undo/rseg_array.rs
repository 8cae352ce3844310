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
}

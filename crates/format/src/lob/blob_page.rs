//! The part header of an old-style BLOB page (`FIL_PAGE_TYPE_BLOB` = 10, and
//! `FIL_PAGE_SDI_BLOB` = 18 in MySQL 8.0; `btr0cur.h`, `lob0lob.h`): every
//! MySQL 5.x and MariaDB off-page column, and MySQL 8.0 SDI objects too
//! large for their record, are stored as a chain of such pages. Each part
//! starts with this 8-byte header, at the reference's `BTR_EXTERN_OFFSET`
//! on the first page (38, `FIL_PAGE_DATA`) and at 38 on the following
//! pages; the part's bytes follow it.

use crate::bytes::slice;
use crate::context::PageContext;
use crate::fil::header::FIL_PAGE_DATA;
use crate::layout::layout;
use crate::section::Body;
use crate::FormatError;

layout! {
    /// The header of one BLOB part (offsets from the part's start).
    pub struct BlobPartHeader {
        /// Offset 0 (`BTR_BLOB_HDR_PART_LEN`, 4 bytes; `LOB_HDR_PART_LEN` in
        /// MySQL 8.0): the bytes of the column on this page.
        BTR_BLOB_HDR_PART_LEN @ 0 => part_len: u32;
        /// Offset 4 (`BTR_BLOB_HDR_NEXT_PAGE_NO`, 4 bytes; `LOB_HDR_NEXT_PAGE_NO`
        /// in MySQL 8.0): the next page of the chain, `FIL_NULL` on the last.
        BTR_BLOB_HDR_NEXT_PAGE_NO @ 4 => next_page_no: u32, points page;
    }
}

/// Size of the BLOB part header (`BTR_BLOB_HDR_SIZE`).
pub const BTR_BLOB_HDR_SIZE: usize = BlobPartHeader::END;

/// One part of an old-style BLOB chain on `page` at `offset`: its bytes and the next page.
pub fn blob_part(page: &[u8], offset: usize) -> Result<(&[u8], u32), FormatError> {
    let h = BlobPartHeader::parse_at(page, offset)?;
    Ok((
        slice(
            page,
            offset + BTR_BLOB_HDR_SIZE,
            h.part_len as usize,
            "BLOB part",
        )?,
        h.next_page_no,
    ))
}

/// The part header section of a BLOB page: the part of the column on this
/// page (the header at `FIL_PAGE_DATA`) and the next page of the chain.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    body.add(
        "BLOB page header",
        BlobPartHeader::parse_at(page, FIL_PAGE_DATA).map(|h| h.fields_at(FIL_PAGE_DATA, ctx)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_part() {
        let mut p = vec![0u8; 64];
        p[38..42].copy_from_slice(&5u32.to_be_bytes());
        p[42..46].copy_from_slice(&9u32.to_be_bytes());
        p[46..51].copy_from_slice(b"hello");
        assert_eq!(blob_part(&p, 38), Ok((&b"hello"[..], 9)));
        p[38..42].copy_from_slice(&50u32.to_be_bytes());
        assert!(blob_part(&p, 38).is_err());
        assert!(blob_part(&p, 60).is_err());
    }
}

//! Off-page columns of ROW_FORMAT=COMPRESSED tables in MySQL 5.x and
//! MariaDB: one zlib stream over a chain of compressed BLOB pages, the
//! first of type `ZBLOB` (11), the others `ZBLOB2` (12)
//! (`btr_copy_zblob_prefix`).
//!
//! The SDI of a compressed MySQL 8.0+ tablespace keeps its long records
//! the same way, every page of the chain of type `SDI_ZBLOB` (19)
//! (`zInserter`: `dict_index_is_sdi` picks the type).
//!
//! The column's reference names the first page and, as offset,
//! `FIL_PAGE_NEXT` (12): each page's next page number is there, and the
//! stream's bytes run from `FIL_PAGE_DATA` (38) to the end of the
//! physical page (these pages have no trailer). The stream is inflated
//! until it ends or gives the reference's length.
//! A chain whose first page is `SDI_ZBLOB` is read as one of `SDI_ZBLOB`
//! pages throughout.

use crate::logical_pages::LogicalPages;
use flate2::{Decompress, FlushDecompress, Status};
use innodb_format::fil::header::{FIL_PAGE_DATA, FIL_PAGE_NEXT};
use innodb_format::fil::page_type::PageType;
use innodb_format::FIL_NULL;
use std::collections::HashSet;

/// Reads `want` bytes of the compressed BLOB whose reference gives
/// `first_page` and `offset`: bounded by the file (a page met twice is a
/// cycle) and by `want`; errors name the page and what is wrong.
pub fn read_zblob(
    pages: &mut LogicalPages<'_>,
    first_page: u32,
    offset: u32,
    want: usize,
    buf: &mut Vec<u8>,
) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(want);
    let mut inflater = Decompress::new(true);
    let mut seen = HashSet::new();
    let (mut page, mut offset) = (first_page, offset as usize);
    let mut expected = PageType::TYPE_ZBLOB;
    loop {
        if page == FIL_NULL {
            return Err(format!(
                "the compressed BLOB chain ends after {} of {want} bytes",
                out.len()
            ));
        }
        if !seen.insert(page) {
            return Err(format!(
                "compressed BLOB chain: page {page} comes back (a cycle)"
            ));
        }
        let check = pages
            .read_into(page, buf)
            .ok_or_else(|| format!("compressed BLOB page {page} cannot be read"))?;
        if seen.len() == 1 && check.page_type == PageType::SDI_ZBLOB {
            expected = PageType::SDI_ZBLOB;
        }
        if check.page_type != expected {
            return Err(format!(
                "page {page} is a {} page where the compressed BLOB chain needs {}",
                check.page_type.name(pages.space().format().vendor),
                expected.name(pages.space().format().vendor)
            ));
        }
        let next = buf
            .get(offset..offset + 4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map(u32::from_be_bytes)
            .ok_or_else(|| format!("page {page}: BLOB offset {offset} is past the page"))?;
        // The stream follows the page header, or the 4-byte next pointer
        // when the reference points elsewhere.
        let start = if offset == FIL_PAGE_NEXT {
            FIL_PAGE_DATA
        } else {
            offset + 4
        };
        let input = buf.get(start..).ok_or_else(|| {
            format!("page {page}: compressed BLOB data at {start} is past the page")
        })?;
        let before = inflater.total_in();
        let status = inflater
            .decompress_vec(input, &mut out, FlushDecompress::None)
            .map_err(|e| {
                format!("page {page}: the compressed BLOB stream does not inflate: {e}")
            })?;
        if out.len() >= want || status == Status::StreamEnd {
            break;
        }
        if inflater.total_in() == before && out.len() < want && input.is_empty() {
            return Err(format!("page {page}: no compressed BLOB data"));
        }
        page = next;
        offset = FIL_PAGE_NEXT;
        if expected != PageType::SDI_ZBLOB {
            expected = PageType::TYPE_ZBLOB2;
        }
    }
    if out.len() < want {
        return Err(format!(
            "the compressed BLOB stream ends after {} of {want} bytes",
            out.len()
        ));
    }
    out.truncate(want);
    Ok(out)
}

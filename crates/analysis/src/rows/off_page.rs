//! The off-page part of a column: an old-style BLOB page chain, or a
//! MySQL 8 LOB or compressed LOB, read whole from the 20-byte reference a
//! record ends the field with.

use innodb_format::fil::page_type::PageType;
use innodb_format::index::sdi::{self, ExternRef};
use innodb_space::logical_pages::LogicalPages;
use innodb_space::{lob, zblob};

/// An off-page value read whole, and what is wrong past its end.
pub(crate) struct OffPageValue {
    /// The value's off-page bytes.
    pub bytes: Vec<u8>,
    /// An old-style BLOB chain whose last page does not end it: that page,
    /// the offset of its `BTR_BLOB_HDR_NEXT_PAGE_NO`, and what it links to.
    pub trailing_link: Option<(u32, usize, String)>,
}

/// The off-page part of a column: an old-style BLOB page chain, bounded by
/// its length and the file, a page met twice being a cycle, or a MySQL 8
/// LOB (uncompressed or compressed) as the reference's LOB version sees it.
pub(crate) fn blob(
    pages: &mut LogicalPages<'_>,
    r: ExternRef,
    buf: &mut Vec<u8>,
) -> Result<OffPageValue, String> {
    let whole = |bytes| OffPageValue {
        bytes,
        trailing_link: None,
    };
    let length = usize::try_from(r.length).unwrap_or(usize::MAX);
    let want = length.min(sdi::MAX_SDI_BYTES * 16);
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let (mut page, mut offset) = (r.page_no, r.offset as usize);
    // The page read last and where its BTR_BLOB_HDR_NEXT_PAGE_NO is.
    let mut from: Option<(u32, usize)> = None;
    while out.len() < want {
        if page == innodb_format::FIL_NULL {
            return Err(format!(
                "the chain ends after {} of {want} bytes",
                out.len()
            ));
        }
        if !seen.insert(page) {
            return Err(match from {
                Some((p, at)) => format!(
                    "cycle: page {page} comes back (BTR_BLOB_HDR_NEXT_PAGE_NO of page {p} at offset {at} links back to it after {} of {want} bytes)",
                    out.len()
                ),
                None => format!("cycle: page {page} comes back"),
            });
        }
        let check = pages
            .read_into(page, buf)
            .ok_or_else(|| format!("BLOB page {page} cannot be read"))?;
        let kind = check.page_type;
        if out.is_empty() && (kind == PageType::LOB_FIRST || kind == PageType::ZLOB_FIRST) {
            // MySQL 8.0+: the reference's offset field holds the LOB version.
            return lob::read_lob_version(pages, page, Some(r.offset), want, buf).map(whole);
        }
        if out.is_empty() && kind == PageType::TYPE_ZBLOB {
            return zblob::read_zblob(pages, page, r.offset, want, buf).map(whole);
        }
        // MySQL 5.0 did not stamp its BLOB pages: they carry type 0.
        let untyped_blob = kind == PageType::ALLOCATED && !check.all_zero;
        if kind != PageType::TYPE_BLOB && !untyped_blob {
            return Err(format!(
                "page {page} is a {} page, not the start or the next page of a BLOB chain",
                kind.name(pages.space().format().vendor)
            ));
        }
        let (part, next) = sdi::blob_part(buf, offset).map_err(|e| format!("page {page}: {e}"))?;
        out.extend_from_slice(part);
        from = Some((page, offset + sdi::BTR_BLOB_HDR_NEXT_PAGE_NO));
        page = next;
        offset = innodb_format::fil::header::FIL_PAGE_DATA;
    }
    // The server ends a chain with FIL_NULL on its last page (whose part
    // ends the value); a link past it is a damaged chain, even though the
    // value itself was read whole.
    let trailing_link = match from {
        Some((last, at)) if page != innodb_format::FIL_NULL && want == length => Some((
            last,
            at,
            if seen.contains(&page) {
                format!(
                        "cycle: the last page of the chain links back to page {page} after all {want} bytes were read (BTR_BLOB_HDR_NEXT_PAGE_NO should be FIL_NULL)"
                    )
            } else {
                format!(
                        "the chain goes on to page {page} after all {want} bytes were read (BTR_BLOB_HDR_NEXT_PAGE_NO should be FIL_NULL)"
                    )
            },
        )),
        _ => None,
    };
    out.truncate(want);
    Ok(OffPageValue {
        bytes: out,
        trailing_link,
    })
}

//! One dispatch from a page to the decoders of its body: the page type
//! and the page's place (its number, the system tablespace or not, a copy
//! in the doublewrite area) choose which structures are read. Each decoder
//! lives with its structure; `page`, the browser and the walkers read the
//! same structures through the same parsers.
//!
//! SYS pages (type 6) are told apart by place: in the system tablespace
//! page 3 holds the change buffer header and page 7 the dictionary header,
//! the others rollback segment headers; elsewhere (undo tablespaces) they
//! are rollback segment headers.

use crate::context::PageContext;
use crate::field::{Field, Pointer};
use crate::fil::header::{FilHeader, FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID};
use crate::fil::page_type::PageType;
use crate::section::Body;
use crate::vendor::Vendor;
use crate::{fsp, index, lob, sys, undo, zlob};

/// Decodes the body of a page of type `page_type` (the FIL header and
/// trailer are not part of it). `image` is the logical page: the inflated
/// image of a page-compressed page, the rebuilt image of a
/// ROW_FORMAT=COMPRESSED index page, else the page as stored.
pub fn decode(page_type: PageType, image: &[u8], ctx: &PageContext) -> Body {
    let mut body = Body::default();
    if ctx.doublewrite_copy {
        match FilHeader::parse(image) {
            Ok(fil) => {
                doublewrite_copy(&fil, &mut body);
                let copied = PageContext {
                    page_no: fil.page_no,
                    space_id: fil.space_id,
                    system: fil.space_id == 0,
                    doublewrite_copy: false,
                    ..*ctx
                };
                decode_into(page_type, image, &copied, &mut body);
            }
            Err(e) => body.problems.push(e),
        }
        return body;
    }
    decode_into(page_type, image, ctx, &mut body);
    body
}

/// The section naming the page a doublewrite copy is a copy of.
fn doublewrite_copy(fil: &FilHeader, body: &mut Body) {
    let copy_of = format!("a copy of space {} page {}", fil.space_id, fil.page_no);
    body.push(
        "doublewrite copy",
        vec![
            Field::with_meaning(
                FIL_PAGE_SPACE_ID,
                4,
                "FIL_PAGE_SPACE_ID",
                fil.space_id.into(),
                copy_of.clone(),
            )
            .pointing(Some(Pointer::SpacePage {
                space: fil.space_id,
                page: fil.page_no,
            })),
            Field::with_meaning(
                FIL_PAGE_OFFSET,
                4,
                "FIL_PAGE_OFFSET",
                fil.page_no.into(),
                copy_of,
            ),
        ],
    );
}

fn decode_into(t: PageType, image: &[u8], ctx: &PageContext, body: &mut Body) {
    if ctx.page_no == 0 {
        fsp::header::sections(image, ctx, body);
    }
    let descriptor_page =
        ctx.physical_page_size > 0 && (ctx.page_no as usize).is_multiple_of(ctx.physical_page_size);
    match t {
        PageType::TYPE_FSP_HDR | PageType::TYPE_XDES if descriptor_page => {
            fsp::xdes::sections(image, ctx, body)
        }
        PageType::INODE => fsp::inode::sections(image, ctx, body),
        PageType::IBUF_BITMAP => sys::ibuf_bitmap::sections(image, ctx, body),
        PageType::TYPE_TRX_SYS => sys::trx_sys::sections(image, ctx, body),
        PageType::TYPE_SYS => sys_page(image, ctx, body),
        PageType::RSEG_ARRAY => undo::rseg_array::sections(image, ctx, body),
        PageType::UNDO_LOG => undo::trx_undo::sections(image, ctx, body),
        PageType::TYPE_BLOB => lob::blob_page::sections(image, ctx, body),
        PageType::SDI_BLOB_OR_INSTANT if ctx.vendor == Vendor::MySql => {
            lob::blob_page::sections(image, ctx, body)
        }
        PageType::LOB_FIRST => lob::first_page::sections(image, ctx, body),
        PageType::LOB_INDEX => lob::index_page::sections(image, ctx, body),
        PageType::LOB_DATA => lob::data_page::sections(image, ctx, body),
        PageType::ZLOB_FIRST => zlob::first_page::sections(image, ctx, body),
        PageType::ZLOB_INDEX => zlob::index_page::sections(image, ctx, body),
        PageType::ZLOB_DATA => zlob::data_page::sections(image, ctx, body),
        PageType::ZLOB_FRAG => zlob::frag_page::sections(image, ctx, body),
        PageType::ZLOB_FRAG_ENTRY => zlob::frag_entry_page::sections(image, ctx, body),
        t if t.is_index_layout(ctx.vendor) => {
            index::header::sections(image, ctx, body);
            if t == PageType::SDI {
                index::sdi::sections(image, ctx, body);
            } else if t == PageType::RTREE {
                index::rtree::sections(image, body);
            }
        }
        _ => {}
    }
}

/// A SYS page, by its place.
fn sys_page(image: &[u8], ctx: &PageContext, body: &mut Body) {
    match (ctx.system, ctx.page_no) {
        (true, sys::ibuf_header::FSP_IBUF_HEADER_PAGE_NO) => {
            sys::ibuf_header::sections(image, ctx, body)
        }
        (true, sys::dict_hdr::DICT_HDR_PAGE_NO) => sys::dict_hdr::sections(image, ctx, body),
        _ => undo::trx_rseg::sections(image, ctx, body),
    }
}

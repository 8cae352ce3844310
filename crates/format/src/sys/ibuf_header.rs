//! The change buffer (insert buffer) header page of the system tablespace
//! (`ibuf0ibuf.h`): page 3, `FIL_PAGE_TYPE_SYS`. Its only field is the file
//! segment of the change buffer's B-tree, whose root is page 4
//! (`FSP_IBUF_TREE_ROOT_PAGE_NO`).

use crate::context::PageContext;
use crate::fsp::fseg_header::FsegHeader;
use crate::layout::layout;
use crate::section::Body;

/// Page number of the change buffer header (`FSP_IBUF_HEADER_PAGE_NO`).
pub const FSP_IBUF_HEADER_PAGE_NO: u32 = 3;
/// Page number of the change buffer tree's root (`FSP_IBUF_TREE_ROOT_PAGE_NO`).
pub const FSP_IBUF_TREE_ROOT_PAGE_NO: u32 = 4;
/// Absolute offset of the header (`IBUF_HEADER` = `PAGE_DATA` = 94).
pub const IBUF_HEADER: usize = 94;

layout! {
    /// The change buffer header (absolute offsets).
    pub struct IbufHeader {
        /// Offset 94 (`IBUF_HEADER` + `IBUF_TREE_SEG_HEADER` 0, 10 bytes):
        /// the file segment of the change buffer tree.
        IBUF_TREE_SEG_HEADER @ IBUF_HEADER => tree_seg: FsegHeader;
    }
}

/// The change buffer header section of page 3 of the system tablespace.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    body.add(
        "change buffer header",
        IbufHeader::parse_at(page, 0).map(|h| h.fields_at(0, ctx)),
    );
}

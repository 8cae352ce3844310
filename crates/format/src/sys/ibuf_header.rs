//! The change buffer (insert buffer) header page of the system tablespace
//! (`ibuf0ibuf.h`): page 3, `FIL_PAGE_TYPE_SYS`.

/// Page number of the change buffer header (`FSP_IBUF_HEADER_PAGE_NO`).
pub const FSP_IBUF_HEADER_PAGE_NO: u32 = 3;
/// Absolute offset of the change-buffer tree's FSEG header
/// (`IBUF_HEADER` = `PAGE_DATA` 94 + `IBUF_TREE_SEG_HEADER` 0).
pub const IBUF_TREE_SEG_HEADER: usize = 94;

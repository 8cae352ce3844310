//! File space management (`fsp0fsp.h`, `fsp0types.h`, `fut0lst.h`): page 0's FSP header and flags, extent descriptors, INODE pages, segment headers and file lists.

pub mod flags;
pub mod flst;
pub mod fseg_header;
pub mod header;
pub mod inode;
pub mod xdes;

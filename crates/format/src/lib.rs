//! InnoDB on-disk structures as bounds-checked views over `&[u8]`.
//!
//! This crate does no I/O and never prints. Every on-disk structure lives in a
//! module of its own, named after it; constants keep the names of the MySQL and
//! MariaDB sources (`FIL_PAGE_TYPE`, `FSP_SPACE_FLAGS`, …). Integers on disk are
//! big-endian. Values the format does not know (a page type, a flag bit) are kept
//! as values, never turned into parse failures.
//!
//! Every fixed-layout structure is declared once with [`layout::layout`]:
//! its offsets, its struct, its parser (reads bounds-checked through
//! [`bytes`]) and the display fields `page` shows all come from that one
//! declaration. Variable layouts (records, undo records, compressed pages)
//! are read by hand through [`bytes`].

#![deny(clippy::indexing_slicing)]

pub mod body;
pub mod bytes;
pub mod checksum;
pub mod compressed_int;
pub mod context;
pub mod dblwr;
pub mod error;
pub mod field;
pub mod fil;
pub mod frm;
pub mod fsp;
pub mod index;
pub mod layout;
pub mod lob;
pub mod section;
pub mod space_format;
pub mod sys;
pub mod undo;
pub mod value;
pub mod vendor;
pub mod xid;
pub mod zlob;

pub use error::FormatError;

/// `FIL_NULL`: the undefined page number.
pub const FIL_NULL: u32 = 0xFFFF_FFFF;
/// Smallest page size any InnoDB file uses (1 KiB, ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=1).
pub const MIN_PAGE_SIZE: usize = 1024;
/// Largest page size (`innodb_page_size=64k`).
pub const MAX_PAGE_SIZE: usize = 65536;

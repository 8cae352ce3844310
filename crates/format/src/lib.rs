//! InnoDB on-disk structures as bounds-checked views over `&[u8]`.
//!
//! This crate does no I/O and never prints. Every on-disk structure lives in a
//! module of its own, named after it; constants keep the names of the MySQL and
//! MariaDB sources (`FIL_PAGE_TYPE`, `FSP_SPACE_FLAGS`, …). Integers on disk are
//! big-endian. Values the format does not know (a page type, a flag bit) are kept
//! as values, never turned into parse failures.

#![deny(clippy::indexing_slicing)]

pub mod bytes;
pub mod checksum;
pub mod column_value;
pub mod compressed_int;
pub mod dict_hdr;
pub mod error;
pub mod field;
pub mod fil_header;
pub mod fil_trailer;
pub mod flst;
pub mod fseg_header;
pub mod fsp_flags;
pub mod fsp_header;
pub mod ibuf_header;
pub mod index_header;
pub mod index_page;
pub mod inode;
pub mod instant_field_map;
pub mod json_binary;
pub mod lob_data_page;
pub mod lob_first_page;
pub mod lob_index_entry;
pub mod lob_index_page;
pub mod lob_ref;
pub mod page_compressed;
pub mod page_type;
pub mod page_zip;
pub mod plist;
pub mod record;
pub mod rseg_array;
pub mod sdi;
pub mod space_format;
pub mod trx_rseg;
pub mod trx_sys;
pub mod trx_undo;
pub mod trx_undo_rec;
pub mod vendor;
pub mod xdes;
pub mod zlob_data_page;
pub mod zlob_first_page;
pub mod zlob_frag_entry;
pub mod zlob_frag_node;
pub mod zlob_frag_page;
pub mod zlob_index_entry;
pub mod zlob_index_page;

pub use error::FormatError;

/// `FIL_NULL`: the undefined page number.
pub const FIL_NULL: u32 = 0xFFFF_FFFF;
/// Smallest page size any InnoDB file uses (1 KiB, ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=1).
pub const MIN_PAGE_SIZE: usize = 1024;
/// Largest page size (`innodb_page_size=64k`).
pub const MAX_PAGE_SIZE: usize = 65536;

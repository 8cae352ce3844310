//! MySQL transparent page compression (`COMPRESSION='zlib'` or `'lz4'`,
//! MySQL 5.7+; `FIL_PAGE_COMPRESSED` = 14): the page minus its 38-byte FIL
//! header compressed as one block, the file's remainder of the page a
//! punched hole.
//!
//! `os_file_compress_page` (`os/os0file.cc`) keeps the FIL header as it is
//! but for `FIL_PAGE_TYPE`, which becomes 14, and the 8 bytes of
//! `FIL_PAGE_FILE_FLUSH_LSN`, which carry the control information
//! (`fil0types.h`): `FIL_PAGE_VERSION` (26, 1 byte: 1, or 2 since 8.0.x),
//! `FIL_PAGE_ALGORITHM_V1` (27, 1 byte: 1 zlib, 2 lz4),
//! `FIL_PAGE_ORIGINAL_TYPE_V1` (28, 2 bytes), `FIL_PAGE_ORIGINAL_SIZE_V1`
//! (30, 2 bytes: the page size less the header) and
//! `FIL_PAGE_COMPRESS_SIZE_V1` (32, 2 bytes). The compressed block (a zlib
//! stream of `compress2`, or an LZ4 block of `LZ4_compress_default`, no
//! frame) starts at `FIL_PAGE_DATA` (38); the server rounds it up to the
//! file system block, zeroes the rest of that block and punches a hole over
//! the rest of the page, so what follows the block reads as zeros.
//!
//! `Compression::deserialize` (`os/file.cc`) inflates the block back to 38
//! and writes the original type back; the control bytes stay where they are.
//! The page checksum was computed on the uncompressed page before
//! compression, and no checksum covers bytes 26..38: the inflated page
//! verifies as an uncompressed one. Page 0 and R-tree pages are never
//! compressed, nor a page that would not save a file system block.
//!
//! `FIL_PAGE_COMPRESSED_AND_ENCRYPTED` (16) has the same control bytes, its
//! block encrypted after compression: it cannot be read without the key.

use crate::bytes::slice;
use crate::context::PageContext;
use crate::fil::header::FIL_PAGE_DATA;
use crate::fil::page_type::PageType;
use crate::layout::layout;
use crate::FormatError;

layout! {
    /// The control information of a MySQL compressed page (absolute
    /// offsets), in the place of `FIL_PAGE_FILE_FLUSH_LSN`.
    pub struct MysqlCompressedHeader {
        /// Offset 26 (`FIL_PAGE_VERSION`, 1 byte): the format of the
        /// control information, 1 or 2 (2 since MySQL 8.0.x: the same
        /// layout, with encryption of only the compressed bytes).
        FIL_PAGE_VERSION @ 26 => version: u8;
        /// Offset 27 (`FIL_PAGE_ALGORITHM_V1`, 1 byte): 1 zlib, 2 lz4
        /// (`Compression::Type`).
        FIL_PAGE_ALGORITHM_V1 @ 27 => algorithm: u8, shows show_algorithm;
        /// Offset 28 (`FIL_PAGE_ORIGINAL_TYPE_V1`, 2 bytes): the page's own
        /// `FIL_PAGE_TYPE`, written back when it is inflated.
        FIL_PAGE_ORIGINAL_TYPE_V1 @ 28 => original_type: PageType, shows show_type;
        /// Offset 30 (`FIL_PAGE_ORIGINAL_SIZE_V1`, 2 bytes): bytes the block
        /// inflates to, the page size less the 38-byte header.
        FIL_PAGE_ORIGINAL_SIZE_V1 @ 30 => original_size: u16;
        /// Offset 32 (`FIL_PAGE_COMPRESS_SIZE_V1`, 2 bytes): bytes of the
        /// compressed block, from offset 38.
        FIL_PAGE_COMPRESS_SIZE_V1 @ 32 => compressed_size: u16;
    }
}

/// MySQL's `Compression::ZLIB`.
pub const MYSQL_ZLIB: u8 = 1;
/// MySQL's `Compression::LZ4`.
pub const MYSQL_LZ4: u8 = 2;

/// The name of a MySQL compression algorithm code (`Compression::Type`).
pub fn mysql_algorithm_name(code: u8) -> &'static str {
    match code {
        0 => "none",
        MYSQL_ZLIB => "zlib",
        MYSQL_LZ4 => "lz4",
        _ => "unknown",
    }
}

fn show_algorithm(code: &u8, _: &PageContext) -> Option<String> {
    Some(mysql_algorithm_name(*code).to_string())
}

fn show_type(t: &PageType, ctx: &PageContext) -> Option<String> {
    Some(t.name(ctx.vendor).into_owned())
}

impl MysqlCompressedHeader {
    /// Reads the control information and checks what inflating relies on:
    /// a version the server writes, an algorithm it has, an original size
    /// that is `page_size` less the header, and a block inside `page`.
    /// Errors name the field and its offset.
    pub fn parse_checked(page: &[u8], page_size: usize) -> Result<Self, FormatError> {
        let h = Self::parse_at(page, 0)?;
        if !matches!(h.version, 1 | 2) {
            return Err(FormatError::BadValue {
                field: "FIL_PAGE_VERSION",
                offset: FIL_PAGE_VERSION,
                reason: format!(
                    "version {} of the compression header; MySQL writes 1 or 2",
                    h.version
                ),
            });
        }
        if !matches!(h.algorithm, MYSQL_ZLIB | MYSQL_LZ4) {
            return Err(FormatError::BadValue {
                field: "FIL_PAGE_ALGORITHM_V1",
                offset: FIL_PAGE_ALGORITHM_V1,
                reason: format!(
                    "algorithm {} is not one MySQL compresses with (1 zlib, 2 lz4)",
                    h.algorithm
                ),
            });
        }
        if usize::from(h.original_size) + FIL_PAGE_DATA != page_size {
            return Err(FormatError::BadValue {
                field: "FIL_PAGE_ORIGINAL_SIZE_V1",
                offset: FIL_PAGE_ORIGINAL_SIZE_V1,
                reason: format!(
                    "original size {} is not the {page_size}-byte page less its {FIL_PAGE_DATA}-byte header",
                    h.original_size
                ),
            });
        }
        let room = page.len().saturating_sub(FIL_PAGE_DATA);
        if usize::from(h.compressed_size) > room || h.compressed_size == 0 {
            return Err(FormatError::BadValue {
                field: "FIL_PAGE_COMPRESS_SIZE_V1",
                offset: FIL_PAGE_COMPRESS_SIZE_V1,
                reason: format!(
                    "compressed size {} does not fit the {room} bytes after the header",
                    h.compressed_size
                ),
            });
        }
        Ok(h)
    }

    /// The compressed block (`compressed_size` bytes from offset 38).
    pub fn block<'a>(&self, page: &'a [u8]) -> Result<&'a [u8], FormatError> {
        slice(
            page,
            FIL_PAGE_DATA,
            usize::from(self.compressed_size),
            "compressed block",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(version: u8, algorithm: u8, original: u16, compressed: u16) -> Vec<u8> {
        let mut p = vec![0u8; 1024];
        p[24..26].copy_from_slice(&14u16.to_be_bytes());
        p[26] = version;
        p[27] = algorithm;
        p[28..30].copy_from_slice(&17855u16.to_be_bytes());
        p[30..32].copy_from_slice(&original.to_be_bytes());
        p[32..34].copy_from_slice(&compressed.to_be_bytes());
        p
    }

    #[test]
    fn reads_the_control_bytes_at_the_offsets_of_fil0types_h() {
        let p = header(2, 2, 16384 - 38, 700);
        let h = MysqlCompressedHeader::parse_checked(&p, 16384).unwrap();
        assert_eq!(
            (h.version, h.algorithm, h.original_type, h.original_size),
            (2, MYSQL_LZ4, PageType::INDEX, 16346)
        );
        assert_eq!(h.compressed_size, 700);
        assert_eq!(h.block(&p).unwrap().len(), 700);
        assert_eq!(MysqlCompressedHeader::END, 34);
    }

    #[test]
    fn names_the_field_that_is_wrong() {
        let cases = [
            (header(3, 1, 16346, 10), "FIL_PAGE_VERSION", 26),
            (header(1, 3, 16346, 10), "FIL_PAGE_ALGORITHM_V1", 27),
            (header(1, 1, 8000, 10), "FIL_PAGE_ORIGINAL_SIZE_V1", 30),
            (header(1, 1, 16346, 2000), "FIL_PAGE_COMPRESS_SIZE_V1", 32),
        ];
        for (page, field, offset) in cases {
            let e = MysqlCompressedHeader::parse_checked(&page, 16384).unwrap_err();
            assert_eq!((e.field(), e.offset()), (field, offset), "{e}");
        }
    }
}

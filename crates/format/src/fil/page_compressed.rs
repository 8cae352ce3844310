//! MariaDB `PAGE_COMPRESSED=1` pages: the whole page compressed in place.
//!
//! Classic layout (`FIL_PAGE_TYPE` 34354): algorithm as an 8-byte integer at
//! 26 (`FIL_PAGE_COMP_ALGO`), payload length at 38 (`FIL_PAGE_COMP_SIZE`),
//! payload from 40 (`FIL_PAGE_COMP_DATA`). full_crc32 layout (type `0x8000 |
//! n`): payload from 26 up to the frame end, algorithm from the tablespace
//! flags. Only zlib is decoded; the other algorithms are named.
//!
//! The same [`PageDecompressor`] inflates MySQL's transparent page
//! compression ([`crate::fil::mysql_compressed`]: zlib and lz4) into its
//! one reused page buffer.

use crate::bytes::slice;
use crate::fil::header::{FIL_PAGE_DATA, FIL_PAGE_TYPE};
use crate::fil::mysql_compressed::{MysqlCompressedHeader, MYSQL_LZ4};
use crate::fsp::flags::CompressionAlgorithm;
use crate::layout::layout;
use crate::FormatError;
use serde::Serialize;

layout! {
    /// The frame header of a classic page-compressed page (absolute offsets).
    pub struct ClassicCompressedHeader {
        /// Offset 26 (`FIL_PAGE_COMP_ALGO`, 8 bytes, in the place of
        /// `FIL_PAGE_FILE_FLUSH_LSN`): the compression algorithm; in
        /// full_crc32 frames the payload starts here instead.
        FIL_PAGE_COMP_ALGO @ 26 => algorithm: u64;
        /// Offset 38 (`FIL_PAGE_COMP_SIZE`, 2 bytes): bytes of compressed payload.
        FIL_PAGE_COMP_SIZE @ 38 => payload_len: u16;
    }
}

/// Offset of the payload in classic page-compressed pages (`FIL_PAGE_COMP_DATA`).
pub const FIL_PAGE_COMP_DATA: usize = ClassicCompressedHeader::END;

/// Which server's page compression a frame is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FrameLayout {
    /// MariaDB `PAGE_COMPRESSED`, classic layout (type 34354).
    MariadbClassic,
    /// MariaDB `PAGE_COMPRESSED` in a full_crc32 tablespace (type `0x8000 | n`).
    MariadbFullCrc32,
    /// MySQL transparent page compression (type 14).
    Mysql,
}

/// What a page-compressed frame held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CompressedFrame {
    /// Whose compression.
    pub layout: FrameLayout,
    /// The algorithm (MySQL's codes 1 zlib and 2 lz4 are MariaDB's too).
    pub algorithm: CompressionAlgorithm,
    /// Bytes of compressed payload.
    pub payload_len: usize,
}

impl CompressedFrame {
    /// Bytes of the page the frame takes before the hole that may follow
    /// it: the header and the payload (MySQL), the header, payload length
    /// and payload (MariaDB classic), the frame (MariaDB full_crc32).
    pub fn stored_bytes(&self) -> usize {
        match self.layout {
            FrameLayout::Mysql => FIL_PAGE_DATA + self.payload_len,
            FrameLayout::MariadbClassic => FIL_PAGE_COMP_DATA + self.payload_len,
            FrameLayout::MariadbFullCrc32 => FIL_PAGE_COMP_ALGO + self.payload_len + 4,
        }
    }
}

/// Inflates page-compressed frames into a reusable logical-page buffer.
///
/// Holds the zlib state and the output buffer so that a scan over many pages
/// allocates nothing per page.
pub struct PageDecompressor {
    inflater: flate2::Decompress,
    out: Vec<u8>,
}

impl std::fmt::Debug for PageDecompressor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageDecompressor")
            .field("page_size", &self.out.len())
            .finish()
    }
}

impl PageDecompressor {
    /// A decompressor producing pages of `logical_page_size` bytes.
    pub fn new(logical_page_size: usize) -> Self {
        PageDecompressor {
            inflater: flate2::Decompress::new(true),
            out: vec![0; logical_page_size],
        }
    }

    /// The last inflated page.
    pub fn page(&self) -> &[u8] {
        &self.out
    }

    /// Inflates a classic (type 34354) page-compressed page.
    pub fn decompress_classic(&mut self, page: &[u8]) -> Result<CompressedFrame, FormatError> {
        self.classic(page, None)
    }

    /// [`Self::decompress_classic`] of a page whose page size is not known
    /// (a carve's): the page is the first of `sizes` the payload inflates
    /// to, whole or less its header, and [`Self::page`] takes its size.
    pub fn decompress_classic_sized(
        &mut self,
        page: &[u8],
        sizes: &[usize],
    ) -> Result<CompressedFrame, FormatError> {
        self.classic(page, Some(sizes))
    }

    fn classic(
        &mut self,
        page: &[u8],
        sizes: Option<&[usize]>,
    ) -> Result<CompressedFrame, FormatError> {
        let header = ClassicCompressedHeader::parse_at(page, 0)?;
        let algo_raw = header.algorithm;
        if algo_raw > 0xFF {
            return Err(FormatError::BadValue {
                field: "FIL_PAGE_COMP_ALGO",
                offset: FIL_PAGE_COMP_ALGO,
                reason: format!("algorithm {algo_raw} is not a compression algorithm"),
            });
        }
        let algorithm = CompressionAlgorithm(algo_raw as u8);
        let len = usize::from(header.payload_len);
        let payload = slice(page, FIL_PAGE_COMP_DATA, len, "FIL_PAGE_COMP_DATA")?;
        self.inflate(algorithm, payload, (FIL_PAGE_COMP_DATA, page), sizes)?;
        Ok(CompressedFrame {
            layout: FrameLayout::MariadbClassic,
            algorithm,
            payload_len: len,
        })
    }

    /// Inflates a full_crc32 page-compressed frame of `frame_size` bytes
    /// (from the page type), compressed with `algorithm` (from the flags).
    pub fn decompress_full_crc32(
        &mut self,
        frame: &[u8],
        algorithm: CompressionAlgorithm,
    ) -> Result<CompressedFrame, FormatError> {
        self.full_crc32(frame, algorithm, None)
    }

    /// [`Self::decompress_full_crc32`] of a frame whose page size is not
    /// known (a carve's; the frame does not hold it): the page is the first
    /// of `sizes` the payload inflates to, whole or less the 26 bytes before
    /// it, and [`Self::page`] takes its size.
    pub fn decompress_full_crc32_sized(
        &mut self,
        frame: &[u8],
        algorithm: CompressionAlgorithm,
        sizes: &[usize],
    ) -> Result<CompressedFrame, FormatError> {
        self.full_crc32(frame, algorithm, Some(sizes))
    }

    fn full_crc32(
        &mut self,
        frame: &[u8],
        algorithm: CompressionAlgorithm,
        sizes: Option<&[usize]>,
    ) -> Result<CompressedFrame, FormatError> {
        let end = frame.len().saturating_sub(4).max(FIL_PAGE_COMP_ALGO);
        let payload = slice(
            frame,
            FIL_PAGE_COMP_ALGO,
            end - FIL_PAGE_COMP_ALGO,
            "FIL_PAGE_COMP_ALGO",
        )?;
        let used = self.inflate(algorithm, payload, (FIL_PAGE_COMP_ALGO, frame), sizes)?;
        Ok(CompressedFrame {
            layout: FrameLayout::MariadbFullCrc32,
            algorithm,
            payload_len: used,
        })
    }

    /// Inflates a MySQL compressed page (type 14) as `Compression::deserialize`
    /// does: the header copied, the block inflated after it (never past the
    /// page), the original type written back. What follows the block (the
    /// punched hole) is not read. Errors name the field and its offset.
    pub fn decompress_mysql(&mut self, page: &[u8]) -> Result<CompressedFrame, FormatError> {
        let size = self.out.len();
        let header = MysqlCompressedHeader::parse_checked(page, size)?;
        let block = header.block(page)?;
        crate::bytes::write_at(
            &mut self.out,
            0,
            slice(page, 0, FIL_PAGE_DATA, "FIL header")?,
            "FIL header",
        )?;
        crate::bytes::write_at(
            &mut self.out,
            FIL_PAGE_TYPE,
            &header.original_type.0.to_be_bytes(),
            "FIL_PAGE_TYPE",
        )?;
        let want = usize::from(header.original_size);
        let fail = |reason: String| FormatError::Decompress {
            field: "compressed block",
            offset: FIL_PAGE_DATA,
            reason,
        };
        let out = crate::bytes::slice_mut(&mut self.out, FIL_PAGE_DATA, want, "compressed block")?;
        let produced = if header.algorithm == MYSQL_LZ4 {
            lz4_flex::block::decompress_into(block, out)
                .map_err(|e| fail(format!("lz4 block: {e}")))?
        } else {
            self.inflater.reset(true);
            let status = self
                .inflater
                .decompress(block, out, flate2::FlushDecompress::Finish)
                .map_err(|e| fail(format!("zlib stream: {e}")))?;
            if status != flate2::Status::StreamEnd {
                return Err(fail(format!(
                    "the zlib stream does not end within its {} bytes ({} bytes inflated)",
                    block.len(),
                    self.inflater.total_out()
                )));
            }
            self.inflater.total_out() as usize
        };
        if produced != want {
            return Err(fail(format!(
                "inflated {produced} bytes where FIL_PAGE_ORIGINAL_SIZE_V1 says {want}"
            )));
        }
        Ok(CompressedFrame {
            layout: FrameLayout::Mysql,
            algorithm: CompressionAlgorithm(header.algorithm),
            payload_len: block.len(),
        })
    }

    /// Inflates `payload` into the output page; returns the compressed bytes
    /// used. With `sizes`, the page is the first of them the payload
    /// inflates to (the output page takes that size); without, it is the
    /// output page's size.
    fn inflate(
        &mut self,
        algorithm: CompressionAlgorithm,
        payload: &[u8],
        (offset, frame): (usize, &[u8]),
        sizes: Option<&[usize]>,
    ) -> Result<usize, FormatError> {
        let fail = |reason: String| FormatError::Decompress {
            field: "page_compressed payload",
            offset,
            reason,
        };
        if algorithm.0 != 1 {
            return Err(fail(format!(
                "algorithm {} ({}) is not supported; only zlib is decoded",
                algorithm.0,
                algorithm.name()
            )));
        }
        if let Some(largest) = sizes.and_then(|s| s.iter().copied().max()) {
            self.out.resize(largest, 0);
        }
        self.inflater.reset(true);
        let status = self
            .inflater
            .decompress(payload, &mut self.out, flate2::FlushDecompress::Finish)
            .map_err(|e| fail(e.to_string()))?;
        let produced = self.inflater.total_out() as usize;
        let used = self.inflater.total_in() as usize;
        if status != flate2::Status::StreamEnd {
            return Err(fail(format!(
                "zlib stream did not end within the frame ({produced} bytes inflated)"
            )));
        }
        if let Some(sizes) = sizes {
            let size = sizes
                .iter()
                .copied()
                .find(|&n| n == produced || n == produced + offset)
                .ok_or_else(|| fail(format!("inflated {produced} bytes, no page size")))?;
            self.out.truncate(size);
        }
        let size = self.out.len();
        if produced == size {
            return Ok(used);
        }
        // A stream holding the page minus the header bytes before the payload:
        // shift it into place and take the header from the frame.
        if produced + offset == size {
            self.out.copy_within(0..produced, offset);
            // The payload starts at `offset` within the frame.
            crate::bytes::write_at(
                &mut self.out,
                0,
                slice(frame, 0, offset, "FIL header")?,
                "FIL header",
            )?;
            return Ok(used);
        }
        Err(fail(format!(
            "inflated {produced} bytes, expected a {size}-byte page"
        )))
    }
}

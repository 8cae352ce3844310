//! Carving: InnoDB pages found at any 512-byte boundary of any byte stream
//! (a disk or file system image, a block device, the free space of a
//! system tablespace), read once, sequentially, in large chunks.
//!
//! A page counts when a checksum verifies (classic or MariaDB full_crc32
//! layout; where neither does, a ROW_FORMAT=COMPRESSED page of 1–16 KiB;
//! an all-zero block is never a page). Most offsets are rejected
//! before any CRC is computed: the page type must be one InnoDB writes and
//! the low 32 bits of the header's LSN (`FIL_PAGE_LSN + 4`, offset 20) must
//! not be 0 and must be repeated in the trailer (classic: the last 4 bytes; full_crc32: the 4
//! bytes before the checksum). What is kept per page is a [`CarvedPage`],
//! never the page itself.

use innodb_format::bytes::{u16_at, u32_at, u64_at};
use innodb_format::checksum::{self, ChecksumAlgorithm, ChecksumLayout, ChecksumVerdict};
use innodb_format::fil::header::{
    FIL_PAGE_DATA, FIL_PAGE_LSN, FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID, FIL_PAGE_TYPE,
};
use innodb_format::fil::mysql_compressed::MysqlCompressedHeader;
use innodb_format::fil::page_compressed::{
    ClassicCompressedHeader, PageDecompressor, FIL_PAGE_COMP_DATA,
};
use innodb_format::fil::page_type::PageType;
use innodb_format::fsp::flags::CompressionAlgorithm;
use innodb_format::fsp::header::FSP_SIZE;
use innodb_format::index::header::PAGE_INDEX_ID;
use innodb_format::vendor::Vendor;
use serde::Serialize;
use std::io::Read;

/// Pages are looked for at every multiple of this many bytes (a sector).
pub const CARVE_ALIGN: usize = 512;

/// The physical page sizes tried at each boundary, smallest first.
pub const CARVE_PAGE_SIZES: [usize; 5] = [4096, 8192, 16384, 32768, 65536];

/// The physical sizes of ROW_FORMAT=COMPRESSED pages tried where no
/// uncompressed page verifies (`KEY_BLOCK_SIZE` 1, 2, 4, 8, 16).
pub const CARVE_ZIP_SIZES: [usize; 5] = [1024, 2048, 4096, 8192, 16384];

/// The largest page size tried.
const MAX_PAGE: usize = 65536;

/// Bytes read at a time (the buffer also keeps one largest page of overlap,
/// so that a page straddling two reads is seen whole).
pub const CARVE_CHUNK: usize = 1 << 18;

/// The alignment of the read buffer and of each read into it.
const CARVE_READ_ALIGN: usize = 4096;

/// What is kept of one page found: where it is and what its header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CarvedPage {
    /// Which input (position in the list given) the page was found in.
    pub input: u32,
    /// Byte offset of the page in that input.
    pub offset: u64,
    /// Physical page size in bytes.
    pub page_size: u32,
    /// `FIL_PAGE_SPACE_ID` (offset 34).
    pub space_id: u32,
    /// `FIL_PAGE_OFFSET` (offset 4): the page number.
    pub page_no: u32,
    /// `FIL_PAGE_TYPE` (offset 24).
    pub page_type: PageType,
    /// `FIL_PAGE_LSN` (offset 16).
    pub lsn: u64,
    /// `PAGE_INDEX_ID` (offset 66) of index-layout pages (INDEX, RTREE, SDI).
    pub index_id: Option<u64>,
    /// `FSP_SIZE` (offset 46) of page 0 (`FSP_HDR`): the tablespace size in pages.
    pub fsp_size: Option<u32>,
    /// The checksum algorithm that verified.
    pub algorithm: ChecksumAlgorithm,
    /// A page-compressed page: the bytes it is stored in, its header and
    /// compressed block (MySQL's type 14: `FIL_PAGE_COMPRESS_SIZE_V1`,
    /// offset 32, says how long; MariaDB's classic type 34354:
    /// `FIL_PAGE_COMP_SIZE`, offset 38; a MariaDB full_crc32 frame: its
    /// type, `0x8000 | n`, says `n * 256` bytes); the fields above are those
    /// of the page inflated. `None` for any other page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored: Option<u32>,
}

impl CarvedPage {
    /// True when the page uses MariaDB's full_crc32 layout.
    pub fn full_crc32(&self) -> bool {
        self.algorithm == ChecksumAlgorithm::FullCrc32
    }

    /// The checksum layout of the page.
    pub fn layout(&self) -> ChecksumLayout {
        match self.algorithm {
            ChecksumAlgorithm::FullCrc32 => ChecksumLayout::FullCrc32,
            ChecksumAlgorithm::ZipCrc32
            | ChecksumAlgorithm::ZipInnodb
            | ChecksumAlgorithm::ZipNone => ChecksumLayout::Zip,
            _ => ChecksumLayout::Classic,
        }
    }

    /// The vendor whose type names apply (full_crc32 is MariaDB's).
    pub fn vendor(&self) -> Vendor {
        if self.full_crc32() {
            Vendor::MariaDb
        } else {
            Vendor::MySql
        }
    }

    /// True when `page`, read again from where the scan found this page, is
    /// still that page: its checksum verifies with the same algorithm and
    /// `FIL_PAGE_OFFSET` (offset 4) is the same page number.
    pub fn still_valid(&self, page: &[u8]) -> bool {
        let mut inflater = None;
        let Some(page) = self.image(page, &mut inflater) else {
            return false;
        };
        checksum::verify(page, self.layout()).algorithm() == Some(self.algorithm)
            && u32_at(page, FIL_PAGE_OFFSET, "FIL_PAGE_OFFSET").ok() == Some(self.page_no)
    }

    /// What the checksum of `page` (read from where the scan found this
    /// page) is checked on: the page itself; a full_crc32 frame's stored
    /// bytes (its own checksum covers them); any other compressed page
    /// inflated into `inflater`. `None` when it does not inflate.
    fn image<'a>(
        &self,
        page: &'a [u8],
        inflater: &'a mut Option<PageDecompressor>,
    ) -> Option<&'a [u8]> {
        let Some(n) = self.stored else {
            return Some(page);
        };
        let stored_type = PageType(u16_at(page, FIL_PAGE_TYPE, "FIL_PAGE_TYPE").ok()?);
        if stored_type.is_full_crc32_compressed() {
            return page.get(..n as usize);
        }
        let d = inflater.insert(PageDecompressor::new(self.page_size as usize));
        let inflated = if stored_type == PageType::PAGE_COMPRESSED {
            d.decompress_classic(page).is_ok()
        } else {
            d.decompress_mysql(page).is_ok()
        };
        inflated.then(|| d.page())
    }

    /// Bytes of the page there must be in its input: its size, or what a
    /// compressed page is stored in ([`Self::stored`]).
    pub fn stored_len(&self) -> usize {
        self.stored.unwrap_or(self.page_size) as usize
    }

    /// Zeroes what follows a compressed page's block in `page` (the page
    /// read from its input): bytes of whatever came next in the input,
    /// where the server's file holds a punched hole, which reads as zeros.
    pub fn clear_after_block(&self, page: &mut [u8]) {
        if let Some(rest) = self.stored.and_then(|n| page.get_mut(n as usize..)) {
            rest.fill(0);
        }
    }

    /// Bytes from this page's offset to where the search goes on after
    /// it: its size, or a compressed page's stored bytes rounded up to the
    /// next 512-byte boundary (a file system stores no block of its hole).
    fn footprint(&self) -> u64 {
        match self.stored {
            None => u64::from(self.page_size),
            Some(n) => u64::from(n).div_ceil(CARVE_ALIGN as u64) * CARVE_ALIGN as u64,
        }
    }
}

/// The inflaters of the compressed pages a scan meets: one per page size
/// for MySQL's (whose header says the size), one whose pages take the size
/// they inflate to for MariaDB's (whose frames do not say it).
struct Inflaters {
    by_size: Vec<PageDecompressor>,
    sized: PageDecompressor,
}

impl Default for Inflaters {
    fn default() -> Self {
        Inflaters {
            by_size: Vec::new(),
            sized: PageDecompressor::new(MAX_PAGE),
        }
    }
}

impl Inflaters {
    /// The inflater of `size`-byte pages, made on first use.
    fn of(&mut self, size: usize) -> Option<&mut PageDecompressor> {
        if !self.by_size.iter().any(|d| d.page().len() == size) {
            self.by_size.push(PageDecompressor::new(size));
        }
        self.by_size.iter_mut().find(|d| d.page().len() == size)
    }
}

/// What a whole scan of one input read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CarveStats {
    /// Bytes read.
    pub bytes: u64,
    /// Offsets whose header and trailer agreed, so that a checksum was computed.
    pub checksummed: u64,
    /// Pages whose checksum verified.
    pub pages: u64,
}

/// True when a page type is one InnoDB writes with its trailer at the end
/// of the page: every named type but MariaDB's full_crc32 page-compressed
/// frames (`0x8000 | n`, checksummed over their first `n * 256` bytes), which
/// are not carved; taking them would also take every run of `0xFF` bytes.
fn plausible_type(t: PageType) -> bool {
    t.is_known(Vendor::MySql)
}

/// The page that starts at `buf[0]`, if one does: the cheap header and
/// trailer test first, then the checksum. `buf` may be shorter than the
/// largest page (the end of the input).
fn page_at(
    buf: &[u8],
    input: u32,
    offset: u64,
    stats: &mut CarveStats,
    inflaters: &mut Inflaters,
) -> Option<CarvedPage> {
    let head = buf.get(..FIL_PAGE_DATA)?;
    if innodb_format::bytes::is_all_zero(head) {
        return None;
    }
    let page_type = PageType(u16_at(buf, FIL_PAGE_TYPE, "FIL_PAGE_TYPE").ok()?);
    let frame = page_type.is_full_crc32_compressed();
    if !frame && !plausible_type(page_type) {
        return None;
    }
    let lsn_low = u32_at(buf, FIL_PAGE_LSN + 4, "FIL_PAGE_LSN").ok()?;
    if lsn_low == 0 {
        // No page a server wrote has LSN 0, and one in 2^32 has a low word
        // of 0; blocks of zeros with a few bytes before do, and some verify
        // under the legacy `innodb` checksum.
        return None;
    }
    if frame {
        return full_crc32_frame_at(buf, page_type, input, offset, stats, inflaters);
    }
    for size in CARVE_PAGE_SIZES {
        let Some(page) = buf.get(..size) else { break };
        for (layout, at) in [(ChecksumLayout::Classic, 4), (ChecksumLayout::FullCrc32, 8)] {
            if u32_at(page, size - at, "trailer LSN").ok() != Some(lsn_low) {
                continue;
            }
            stats.checksummed += 1;
            if let ChecksumVerdict::Valid { algorithm } = checksum::verify(page, layout) {
                stats.pages += 1;
                return Some(summary(page, page_type, input, offset, algorithm));
            }
        }
    }
    if page_type == PageType::COMPRESSED {
        return mysql_compressed_at(buf, input, offset, stats, inflaters);
    }
    if page_type == PageType::PAGE_COMPRESSED {
        return classic_compressed_at(buf, input, offset, stats, inflaters);
    }
    if !may_be_zip(page_type) {
        return None;
    }
    zip_page_at(buf, page_type, input, offset, stats)
}

/// True for the page types a ROW_FORMAT=COMPRESSED page can have: those
/// `buf_flush_init_for_writing` (`buf/buf0flu.cc`, MySQL and MariaDB)
/// writes as compressed pages (the server stops on any other): pages kept
/// uncompressed in the compressed size (`ALLOCATED`, `INODE`,
/// `IBUF_BITMAP`, `FSP_HDR`, `XDES`, MySQL's `ZLOB_*`), compressed BLOB
/// pages (`ZBLOB`, `ZBLOB2`, `SDI_ZBLOB`) and index pages (`INDEX`, `SDI`,
/// `RTREE`). Any other header is not checksummed at the zip sizes.
fn may_be_zip(t: PageType) -> bool {
    matches!(
        t,
        PageType::ALLOCATED
            | PageType::INODE
            | PageType::IBUF_BITMAP
            | PageType::TYPE_FSP_HDR
            | PageType::TYPE_XDES
            | PageType::ZLOB_FIRST
            | PageType::ZLOB_DATA
            | PageType::ZLOB_INDEX
            | PageType::ZLOB_FRAG
            | PageType::ZLOB_FRAG_ENTRY
            | PageType::TYPE_ZBLOB
            | PageType::TYPE_ZBLOB2
            | PageType::SDI_ZBLOB
            | PageType::INDEX
            | PageType::SDI
            | PageType::RTREE
    )
}

/// The MariaDB full_crc32 page-compressed frame (type `0x8000 | n`: `n`
/// times 256 bytes, its CRC-32C in its last 4) that starts at `buf[0]`, if
/// one does: the frame's checksum verifies, and its payload is a zlib
/// stream (the one algorithm the page reader decodes) that inflates to a
/// page of a carved size, or that page less the 26 bytes before the
/// payload, and the page inflated is the summary's.
fn full_crc32_frame_at(
    buf: &[u8],
    page_type: PageType,
    input: u32,
    offset: u64,
    stats: &mut CarveStats,
    inflaters: &mut Inflaters,
) -> Option<CarvedPage> {
    let size = usize::from(page_type.0 & 0x7FFF) << 8;
    let frame = buf.get(..size).filter(|_| size <= MAX_PAGE)?;
    stats.checksummed += 1;
    if checksum::verify(frame, ChecksumLayout::FullCrc32).algorithm()
        != Some(ChecksumAlgorithm::FullCrc32)
    {
        return None;
    }
    let inflater = &mut inflaters.sized;
    inflater
        .decompress_full_crc32_sized(frame, CompressionAlgorithm(1), &CARVE_PAGE_SIZES)
        .ok()?;
    let verified = Some(ChecksumAlgorithm::FullCrc32);
    inflated_page(inflater.page(), verified, size, (input, offset), stats)
}

/// The summary of a page-compressed page found at `offset` of `input`:
/// `page`, the page inflated, whose own checksum must verify (classic
/// layout) unless the frame's checksum already did (`verified`, its
/// algorithm); `stored`, the bytes the page takes in its input.
fn inflated_page(
    page: &[u8],
    verified: Option<ChecksumAlgorithm>,
    stored: usize,
    (input, offset): (u32, u64),
    stats: &mut CarveStats,
) -> Option<CarvedPage> {
    let algorithm = match verified {
        Some(a) => a,
        None => checksum::verify(page, ChecksumLayout::Classic).algorithm()?,
    };
    let page_type = PageType(u16_at(page, FIL_PAGE_TYPE, "FIL_PAGE_TYPE").ok()?);
    stats.pages += 1;
    let mut p = summary(page, page_type, input, offset, algorithm);
    p.stored = Some(u32::try_from(stored).ok()?);
    Some(p)
}

/// The MariaDB page-compressed page of the classic layout (type 34354,
/// stored with no checksum of its own: `0xDEADBEEF` at offset 0) that
/// starts at `buf[0]`, if one does: its payload (`FIL_PAGE_COMP_SIZE`
/// bytes from offset 40) is a zlib stream that inflates to a page of a
/// carved size, or that page less its 40-byte header, and the page
/// inflated verifies (its checksum was computed before compression).
fn classic_compressed_at(
    buf: &[u8],
    input: u32,
    offset: u64,
    stats: &mut CarveStats,
    inflaters: &mut Inflaters,
) -> Option<CarvedPage> {
    let h = ClassicCompressedHeader::parse_at(buf, 0).ok()?;
    let stored = FIL_PAGE_COMP_DATA + usize::from(h.payload_len);
    let block = buf.get(..stored)?;
    stats.checksummed += 1;
    let inflater = &mut inflaters.sized;
    inflater
        .decompress_classic_sized(block, &CARVE_PAGE_SIZES)
        .ok()?;
    inflated_page(inflater.page(), None, stored, (input, offset), stats)
}

/// The MySQL transparently compressed page (type 14) that starts at
/// `buf[0]`, if one does: its control bytes name a page size carved and
/// an algorithm MySQL has, its block inflates to exactly that page less
/// its header, and the page inflated verifies (its checksum was computed
/// before compression). Only its header and block must be in `buf`.
fn mysql_compressed_at(
    buf: &[u8],
    input: u32,
    offset: u64,
    stats: &mut CarveStats,
    inflaters: &mut Inflaters,
) -> Option<CarvedPage> {
    let h = MysqlCompressedHeader::parse_at(buf, 0).ok()?;
    let size = usize::from(h.original_size) + FIL_PAGE_DATA;
    if !CARVE_PAGE_SIZES.contains(&size) {
        return None;
    }
    let stored = FIL_PAGE_DATA + usize::from(h.compressed_size);
    let block = buf.get(..stored)?;
    stats.checksummed += 1;
    let inflater = inflaters.of(size)?;
    inflater.decompress_mysql(block).ok()?;
    // Inflating wrote the original type back to its place.
    inflated_page(inflater.page(), None, stored, (input, offset), stats)
}

/// The ROW_FORMAT=COMPRESSED page that starts at `buf[0]`, if one does: its
/// only checksum is at offset 0 (no trailer), so each size is checksummed
/// (in one pass over the largest).
/// A page stored with checksums disabled (`0xDEADBEEF`) is not taken: any
/// block starting with those bytes would be one.
fn zip_page_at(
    buf: &[u8],
    page_type: PageType,
    input: u32,
    offset: u64,
    stats: &mut CarveStats,
) -> Option<CarvedPage> {
    let (found, tried) = checksum::zip_first_verifying_size(buf, &CARVE_ZIP_SIZES);
    stats.checksummed += tried;
    let (size, algorithm) = found?;
    stats.pages += 1;
    Some(summary(
        buf.get(..size)?,
        page_type,
        input,
        offset,
        algorithm,
    ))
}

/// The summary of a page whose checksum verified.
fn summary(
    page: &[u8],
    page_type: PageType,
    input: u32,
    offset: u64,
    algorithm: ChecksumAlgorithm,
) -> CarvedPage {
    let u32_or = |at, name| u32_at(page, at, name).unwrap_or(0);
    let page_no = u32_or(FIL_PAGE_OFFSET, "FIL_PAGE_OFFSET");
    let vendor = if algorithm == ChecksumAlgorithm::FullCrc32 {
        Vendor::MariaDb
    } else {
        Vendor::MySql
    };
    CarvedPage {
        input,
        offset,
        page_size: u32::try_from(page.len()).unwrap_or(u32::MAX),
        space_id: u32_or(FIL_PAGE_SPACE_ID, "FIL_PAGE_SPACE_ID"),
        page_no,
        page_type,
        lsn: u64_at(page, FIL_PAGE_LSN, "FIL_PAGE_LSN").unwrap_or(0),
        index_id: page_type
            .is_index_layout(vendor)
            .then(|| u64_at(page, PAGE_INDEX_ID, "PAGE_INDEX_ID").ok())
            .flatten(),
        fsp_size: (page_no == 0 && page_type == PageType::TYPE_FSP_HDR)
            .then(|| u32_at(page, FSP_SIZE, "FSP_SIZE").ok())
            .flatten(),
        algorithm,
        stored: None,
    }
}

/// Reads `reader` to its end once, in chunks of [`CARVE_CHUNK`], and calls
/// `found` for every page at a 512-byte boundary. After a page, the search
/// goes on after its end. `progress` is told the bytes read so far.
pub fn scan(
    reader: &mut dyn Read,
    input: u32,
    found: &mut dyn FnMut(CarvedPage),
    progress: &mut dyn FnMut(u64),
) -> std::io::Result<CarveStats> {
    let mut stats = CarveStats::default();
    let mut inflaters = Inflaters::default();
    // The buffer and every read into it start on a 4 KiB boundary (what is
    // kept for the next round is cut at one): the kernel's copy out of the
    // page cache is slower into a misaligned buffer.
    let mut backing = vec![0u8; CARVE_CHUNK + MAX_PAGE + CARVE_READ_ALIGN];
    let skip = backing
        .as_ptr()
        .align_offset(CARVE_READ_ALIGN)
        .min(CARVE_READ_ALIGN);
    let Some(buf) = backing.get_mut(skip..skip + CARVE_CHUNK + MAX_PAGE) else {
        return Ok(stats);
    };
    let (mut have, mut pos, mut base, mut eof) = (0usize, 0usize, 0u64, false);
    loop {
        have += fill(reader, buf.get_mut(have..).unwrap_or_default(), &mut eof)?;
        // Offsets before `limit` see a whole largest page, or the input's end.
        let limit = if eof {
            have
        } else {
            have.saturating_sub(MAX_PAGE)
        };
        while pos < limit {
            let rest = buf.get(pos..have).unwrap_or_default();
            let at = base + pos as u64;
            match page_at(rest, input, at, &mut stats, &mut inflaters) {
                Some(p) => {
                    pos += p.footprint() as usize;
                    found(p);
                }
                None => pos += CARVE_ALIGN,
            }
        }
        stats.bytes = base + have as u64;
        progress(stats.bytes);
        if eof {
            return Ok(stats);
        }
        let keep = pos.min(have) / CARVE_READ_ALIGN * CARVE_READ_ALIGN;
        buf.copy_within(keep..have, 0);
        base += keep as u64;
        have -= keep;
        pos -= keep;
    }
}

/// Reads until `buf` is full or the input ends; the bytes read.
fn fill(reader: &mut dyn Read, buf: &mut [u8], eof: &mut bool) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match reader.read(buf.get_mut(n..).unwrap_or_default()) {
            Ok(0) => {
                *eof = true;
                break;
            }
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeros_and_noise_hold_no_page() {
        let mut data = vec![0u8; 300_000];
        for (i, b) in data.iter_mut().enumerate().skip(100_000) {
            *b = (i * 31 % 253) as u8;
        }
        let mut n = 0;
        let stats = scan(&mut data.as_slice(), 0, &mut |_| n += 1, &mut |_| {}).unwrap();
        assert_eq!((n, stats.bytes), (0, 300_000));
    }
}

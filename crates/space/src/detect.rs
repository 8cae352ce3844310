//! Page size and layout detection: from page 0, or, when page 0 is damaged,
//! by probing which page size makes the following pages carry their own
//! page number and a valid checksum (the way the server's own
//! `Datafile::find_space_id` votes).

use innodb_format::checksum::{verify, ChecksumLayout, ChecksumVerdict};
use innodb_format::fil::header::FIL_PAGE_TYPE;
use innodb_format::fil::header::{FilHeader, FIL_PAGE_OFFSET};
use innodb_format::fil::page_compressed::FIL_PAGE_COMP_ALGO;
use innodb_format::fil::page_type::PageType;
use innodb_format::fsp::flags::CompressionAlgorithm;
use innodb_format::fsp::header::{FSP_SIZE, FSP_SPACE_FLAGS};
use innodb_format::space_format::SpaceFormat;
use innodb_format::FormatError;

/// Page sizes InnoDB uses, most common first (the probe order).
pub const PAGE_SIZES: [usize; 7] = [16384, 8192, 4096, 32768, 65536, 2048, 1024];

/// How many pages after page 0 the probe looks at.
pub const PROBE_PAGES: usize = 64;

/// Why page 0 cannot be used: the offending field and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page0Problem {
    /// Offset of the field on page 0.
    pub offset: usize,
    /// The field.
    pub field: &'static str,
    /// What is wrong.
    pub reason: String,
}

impl From<FormatError> for Page0Problem {
    fn from(e: FormatError) -> Self {
        let (field, offset) = match &e {
            FormatError::OutOfBounds { field, offset, .. }
            | FormatError::Decompress { field, offset, .. }
            | FormatError::BadValue { field, offset, .. } => (*field, *offset),
        };
        Page0Problem {
            offset,
            field,
            reason: e.to_string(),
        }
    }
}

/// What page 0 says about the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Page0 {
    /// Page 0 decodes and verifies under the checksum its own flags give.
    Valid(SpaceFormat),
    /// The flags decode but page 0 does not verify under them: they may be
    /// damaged, so the following pages are asked too.
    Suspect(SpaceFormat, Page0Problem),
    /// Page 0 cannot describe the file.
    Unusable(Page0Problem),
}

/// Reads the format from page 0 at the start of `file` and checks page 0
/// against it.
pub fn from_page0(file: &[u8]) -> Page0 {
    let format = match decode_page0(file) {
        Ok(f) => f,
        Err(p) => return Page0::Unusable(p),
    };
    // decode_page0 has checked that the file holds the whole page.
    let page0 = file.get(..format.physical_page_size()).unwrap_or(file);
    match verify(page0, format.checksum_layout) {
        ChecksumVerdict::Valid { .. } => Page0::Valid(format),
        ChecksumVerdict::AllZero => Page0::Unusable(Page0Problem {
            offset: 0,
            field: "FIL_PAGE_SPACE_OR_CHKSUM",
            reason: "page 0 is all zero".into(),
        }),
        _ => {
            // The stored checksum the flags' layout reads.
            let (offset, field) = match format.checksum_layout {
                ChecksumLayout::FullCrc32 => (
                    page0
                        .len()
                        .saturating_sub(innodb_format::fil::trailer::FIL_PAGE_FCRC32_CHECKSUM),
                    "FIL_PAGE_FCRC32_CHECKSUM",
                ),
                _ => (0, "FIL_PAGE_SPACE_OR_CHKSUM"),
            };
            Page0::Suspect(
                format,
                Page0Problem {
                    offset,
                    field,
                    reason: "page 0 does not verify under the checksum its flags give".into(),
                },
            )
        }
    }
}

fn decode_page0(file: &[u8]) -> Result<SpaceFormat, Page0Problem> {
    let fil = FilHeader::parse(file)?;
    if fil.page_no != 0 {
        return Err(Page0Problem {
            offset: FIL_PAGE_OFFSET,
            field: "FIL_PAGE_OFFSET",
            reason: format!("page 0 says it is page {}", fil.page_no),
        });
    }
    // Every tablespace has at least its page 0: FSP_SIZE 0 is a zeroed or
    // foreign header, whatever its checksum fields happen to hold.
    let size = innodb_format::bytes::u32_at(file, FSP_SIZE, "FSP_SIZE")?;
    if size == 0 {
        return Err(Page0Problem {
            offset: FSP_SIZE,
            field: "FSP_SIZE",
            reason: "page 0 gives a tablespace size of 0 pages".into(),
        });
    }
    // FSP_HDR, or 0 in files from MySQL 5.0 and before, which typed no bookkeeping pages.
    if fil.page_type != PageType::TYPE_FSP_HDR && fil.page_type != PageType::ALLOCATED {
        return Err(Page0Problem {
            offset: FIL_PAGE_TYPE,
            field: "FIL_PAGE_TYPE",
            reason: format!("page 0 has type {} instead of FSP_HDR (8)", fil.page_type.0),
        });
    }
    let format = SpaceFormat::from_page0(file)?;
    if format.physical_page_size() > file.len() {
        return Err(Page0Problem {
            offset: FSP_SPACE_FLAGS,
            field: "FSP_SPACE_FLAGS",
            reason: format!(
                "flags give a {}-byte page but the file has only {} bytes",
                format.physical_page_size(),
                file.len()
            ),
        });
    }
    Ok(format)
}

/// The layout under which a page verifies, if any (all-zero pages give none).
fn layout_of(page: &[u8]) -> Option<ChecksumLayout> {
    [
        ChecksumLayout::FullCrc32,
        ChecksumLayout::Classic,
        ChecksumLayout::Zip,
    ]
    .into_iter()
    .find(|&l| matches!(verify(page, l), ChecksumVerdict::Valid { .. }))
}

/// Why `--page-size given` cannot be right for the file whose first bytes
/// are `file`, or `None` when it may be used. Refused: a size under which
/// none of the first pages after page 0 verifies, when page 0 verifies
/// with another size, or when nothing says the file is InnoDB at all (page 0
/// is no FSP_HDR page: `FIL_PAGE_OFFSET` 0 and `FIL_PAGE_TYPE` 8, or type 0
/// with a size, as MySQL 5.0 wrote it).
pub fn refuses_given_size(file: &[u8], page0: &Page0, given: usize) -> Option<String> {
    if probe(file, Some(given)).is_some() {
        return None;
    }
    match page0 {
        Page0::Valid(f) if f.physical_page_size() != given => Some(format!(
            "page 0 verifies as a {}-byte page and none of the next {PROBE_PAGES} pages verifies with {given}-byte pages; leave --page-size out to read the file with its own page size",
            f.physical_page_size()
        )),
        Page0::Unusable(_) if !fsp_hdr_shaped(file) => Some(format!(
            "not an InnoDB tablespace: page 0 is no FSP_HDR page (FIL_PAGE_OFFSET 0, FIL_PAGE_TYPE 8) and none of the first {PROBE_PAGES} pages after it verifies with {given}-byte pages"
        )),
        _ => None,
    }
}

/// Page 0's FIL header has the shape of a tablespace's first page, whatever
/// its checksum: page number 0 and type FSP_HDR (or 0 with a non-zero
/// `FSP_SIZE`).
fn fsp_hdr_shaped(file: &[u8]) -> bool {
    let Ok(fil) = FilHeader::parse(file) else {
        return false;
    };
    let size = innodb_format::bytes::u32_at(file, FSP_SIZE, "FSP_SIZE").unwrap_or(0);
    fil.page_no == 0
        && (fil.page_type == PageType::TYPE_FSP_HDR
            || (fil.page_type == PageType::ALLOCATED && size != 0))
}

/// Probes page sizes (only `size` when given): the size under which most of
/// the first pages after page 0 carry their own number and a valid checksum.
pub fn probe(file: &[u8], size: Option<usize>) -> Option<SpaceFormat> {
    let candidates: &[usize] = match size {
        Some(ref s) => std::slice::from_ref(s),
        None => &PAGE_SIZES,
    };
    let mut best: Option<(usize, usize, ChecksumLayout)> = None;
    for &ps in candidates.iter().filter(|&&ps| ps > 0) {
        let mut votes = [0usize; 3];
        for (n, page) in file
            .chunks_exact(ps)
            .enumerate()
            .take(PROBE_PAGES + 1)
            .skip(1)
        {
            let Ok(fil) = FilHeader::parse(page) else {
                continue;
            };
            if fil.page_no as usize != n {
                continue;
            }
            match layout_of(page) {
                Some(ChecksumLayout::FullCrc32) => votes[0] += 1,
                Some(ChecksumLayout::Classic) => votes[1] += 1,
                Some(ChecksumLayout::Zip) => votes[2] += 1,
                None => {}
            }
        }
        let (layout, v) = [
            ChecksumLayout::FullCrc32,
            ChecksumLayout::Classic,
            ChecksumLayout::Zip,
        ]
        .into_iter()
        .zip(votes)
        .max_by_key(|&(_, v)| v)?;
        if v > 0 && best.is_none_or(|(_, bv, _)| v > bv) {
            best = Some((ps, v, layout));
        }
    }
    best.map(|(ps, _, layout)| {
        // A compressed page does not tell the server's page size; 16k is the default.
        let logical = if layout == ChecksumLayout::Zip {
            16384.max(ps)
        } else {
            ps
        };
        let mut format = SpaceFormat::assumed(ps, logical, layout);
        if layout == ChecksumLayout::FullCrc32 {
            format.flags.compression_algorithm = full_crc32_algorithm(file, ps);
        }
        format
    })
}

/// The compression algorithm of a full_crc32 tablespace whose flags are
/// lost or doubtful, told from its page-compressed frames (type
/// `0x8000 | size`), whose payload starts at byte 26 (`FIL_PAGE_COMP_ALGO`)
/// with no algorithm field: zlib when most frames among the first pages start
/// with a zlib stream header (RFC 1950: method 8, window at most 32 KiB, no
/// preset dictionary, the check bits; a stream of another algorithm passes
/// that by chance once in hundreds). `None` when there is no frame or most
/// are not zlib; the page-0 flags (`FSP_FLAGS_FCRC32_COMPRESSED_ALGO`) are
/// the only other record.
pub(crate) fn full_crc32_algorithm(file: &[u8], ps: usize) -> Option<CompressionAlgorithm> {
    let is_zlib = |cmf: u8, flg: u8| {
        cmf & 0x0f == 8
            && cmf >> 4 <= 7
            && flg & 0x20 == 0
            && (u16::from(cmf) << 8 | u16::from(flg)) % 31 == 0
    };
    let (mut frames, mut zlib) = (0usize, 0usize);
    for page in file.chunks_exact(ps).take(PROBE_PAGES + 1).skip(1) {
        let Ok(fil) = FilHeader::parse(page) else {
            continue;
        };
        if !fil.page_type.is_full_crc32_compressed() {
            continue;
        }
        frames += 1;
        if let Some(&[cmf, flg]) = page.get(FIL_PAGE_COMP_ALGO..FIL_PAGE_COMP_ALGO + 2) {
            zlib += usize::from(is_zlib(cmf, flg));
        }
    }
    (frames > 0 && zlib * 2 > frames).then_some(CompressionAlgorithm(1))
}

/// The page sizes a doublewrite file's slots can have (`innodb_page_size`).
pub const DOUBLEWRITE_PAGE_SIZES: [usize; 5] = [16384, 8192, 4096, 32768, 65536];

/// What the first pages of a file say when they are copies of pages of
/// other places: a doublewrite file's slots (or a copy of one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CopiesSeen {
    /// The page size they were read in.
    pub page_size: usize,
    /// Pages among the first [`PROBE_PAGES`] that verify but name another
    /// page number than their position.
    pub copies: usize,
    /// Pages among them that name their own position.
    pub own: usize,
}

impl std::fmt::Display for CopiesSeen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} of its first {PROBE_PAGES} {}-byte pages verify but name other page numbers than their place, {} name their own",
            self.copies, self.page_size, self.own
        )
    }
}

/// True when `page` verifies under CRC-32C (the classic layout's crc32, or
/// full_crc32): the checksums of the servers that write doublewrite files.
/// The weaker legacy checksums are left out: a run of zeros or half a page
/// read at the wrong size can pass them by chance.
fn strong_checksum(page: &[u8]) -> bool {
    use innodb_format::checksum::ChecksumAlgorithm;
    [ChecksumLayout::Classic, ChecksumLayout::FullCrc32]
        .into_iter()
        .any(|l| {
            matches!(
                verify(page, l),
                ChecksumVerdict::Valid {
                    algorithm: ChecksumAlgorithm::Crc32 | ChecksumAlgorithm::FullCrc32
                }
            )
        })
}

/// Whether the first pages of `file`, read in `sizes`, are copies rather
/// than a tablespace's own pages: at least 4 of the first [`PROBE_PAGES`]
/// pages verify under a full-page checksum yet carry another page number
/// than their place, and they outnumber twice over the pages that carry
/// their own. A tablespace's pages carry their own numbers, and a damaged
/// one's misplaced pages do not verify; the checksum is computed only for
/// pages that name another number, so a tablespace costs next to nothing.
pub fn copies_of_other_pages(file: &[u8], sizes: &[usize]) -> Option<CopiesSeen> {
    // A file whose pages carry their own numbers at some page size is a
    // tablespace (read at a wrong size, a page-compressed frame fills the
    // first part of a page and verifies there under another number).
    if probe(file, None).is_some() {
        return None;
    }
    sizes.iter().filter(|&&ps| ps > 0).find_map(|&ps| {
        let mut seen = CopiesSeen {
            page_size: ps,
            copies: 0,
            own: 0,
        };
        for (n, page) in file.chunks_exact(ps).enumerate().take(PROBE_PAGES) {
            if innodb_format::bytes::is_all_zero(page) {
                continue;
            }
            let Ok(fil) = FilHeader::parse(page) else {
                continue;
            };
            if fil.page_no as usize == n {
                seen.own += 1;
            } else if strong_checksum(page) {
                seen.copies += 1;
            }
        }
        (seen.copies >= 4 && seen.copies > 2 * seen.own).then_some(seen)
    })
}

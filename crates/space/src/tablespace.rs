//! An open tablespace file: its format, page count and pages.

use crate::carved_source::{CarvedSource, ChangedPage};
use crate::detect::{self, Page0, Page0Problem, PAGE_SIZES};
use crate::doublewrite::DoublewriteArea;
use crate::finding::{Finding, FindingKind};
use crate::page_check::PageChecker;
use crate::source::Source;
use crate::SpaceError;
use innodb_format::checksum::{full_crc32_frame_size, ChecksumLayout};
use innodb_format::fil::header::FilHeader;
use innodb_format::fil::page_compressed::PageDecompressor;
use innodb_format::fsp::header::{FspHeader, FSP_SPACE_FLAGS};
use innodb_format::space_format::SpaceFormat;
use innodb_format::sys::trx_sys::TRX_SYS_PAGE_NO;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Bytes read at a time by [`Tablespace::for_each_page`]: small enough to stay
/// in the CPU cache between the read and the checksum (4 MiB chunks made the
/// copy from the page cache cost 60% of a scan, and 256 KiB ones were 25%
/// slower than 128 KiB on the benchmark file), large enough to make the read
/// calls negligible (16 KiB reads were slower again).
const SCAN_CHUNK_BYTES: usize = 128 << 10;

/// Alignment of the scan buffer.
const READ_ALIGN: usize = 4096;

/// Bytes read from the start of the file when page 0 is in doubt: the pages
/// the page-size probe and the space-id vote look at (65 pages of 64 KiB).
const HEAD_BYTES: usize = 65 * innodb_format::MAX_PAGE_SIZE;

/// What a page scan ([`Tablespace::for_each_page`]) meets, in file order.
#[derive(Debug)]
pub enum ScanItem<'a> {
    /// Page `n`'s physical bytes.
    Page(u32, &'a [u8]),
    /// Page `n` could not be read (a bad sector); the pages after it still are.
    Unreadable(u32, std::io::Error),
    /// `count` pages from `first` lie wholly in a hole of a sparse file:
    /// never written, they read as zeros, and are not read.
    Hole {
        /// The first page of the hole.
        first: u32,
        /// How many pages.
        count: u32,
    },
    /// The file ended before page `page`: it was shortened while it was
    /// read, to `len` bytes. The pages from `page` on are not read.
    Shrunk {
        /// The first page that was not there any more.
        page: u32,
        /// The file's length now.
        len: u64,
    },
    /// After the last page was read, the file's length was found changed:
    /// `len` bytes now, `was` when it was opened.
    Resized {
        /// The file's length when it was opened.
        was: u64,
        /// Its length now.
        len: u64,
    },
}

/// Options for opening a tablespace.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    /// Physical page size to use instead of the one page 0 gives (for files
    /// whose page 0 is damaged).
    pub page_size: Option<usize>,
    /// The most a `.gz` file is inflated to (`--gz-limit`); `None`:
    /// [`crate::source::GZ_LIMIT_DEFAULT`].
    pub gz_limit: Option<u64>,
    /// Set when the file is found to have changed length while it was read
    /// (shared by every file opened with these options).
    pub changed: Option<Arc<AtomicBool>>,
}

/// How the page size was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PageSizeSource {
    /// From `FSP_SPACE_FLAGS` on page 0.
    Page0,
    /// From `--page-size`.
    User,
    /// Probed from the pages after page 0.
    Probed,
}

/// An open tablespace file.
#[derive(Debug)]
pub struct Tablespace {
    path: PathBuf,
    source: Source,
    format: SpaceFormat,
    page_size_source: PageSizeSource,
    page_count: u32,
    space_id: u32,
    fsp_header: Option<FspHeader>,
    doublewrite: Option<DoublewriteArea>,
    open_findings: Vec<Finding>,
    progress: Option<Arc<AtomicU64>>,
    changed: Option<Arc<AtomicBool>>,
}

impl Tablespace {
    /// Opens `path` read-only (a `.gz` file is inflated to a temporary file)
    /// and decides its page size and layout.
    pub fn open(path: impl AsRef<Path>, options: OpenOptions) -> Result<Self, SpaceError> {
        let path = path.as_ref().to_path_buf();
        let source = Source::open(&path, options.gz_limit)?;
        Self::from_source(path, source, options)
    }

    /// A carved space read in place, from where `carve` found its pages
    /// (nothing is written): page size and layout decided as for a file;
    /// `name` stands for its path in messages. Pages changed since the scan
    /// read as zeros and are listed by [`Self::changed_pages`].
    pub fn open_carved(
        name: PathBuf,
        carved: CarvedSource,
        options: OpenOptions,
    ) -> Result<Self, SpaceError> {
        Self::from_source(name, Source::carved(carved), options)
    }

    /// Of a carved space ([`Self::open_carved`]), the pages read so far that
    /// had changed since the scan; empty for a file.
    pub fn changed_pages(&self) -> Vec<ChangedPage> {
        self.source.changed_pages()
    }

    /// Decides the page size and layout of the bytes of `source`.
    fn from_source(
        path: PathBuf,
        source: Source,
        options: OpenOptions,
    ) -> Result<Self, SpaceError> {
        if source.is_empty() {
            return Err(SpaceError::Empty { path });
        }
        let io = |source| SpaceError::Io {
            path: path.clone(),
            source,
        };
        // Page 0 at the largest page size; the first pages after it only
        // when the page size must be probed or page 0 is in doubt.
        let mut bytes = source.head(innodb_format::MAX_PAGE_SIZE).map_err(io)?;
        if let Some(given) = options.page_size {
            if !PAGE_SIZES.contains(&given) {
                return Err(SpaceError::BadPageSize {
                    path,
                    given,
                    reason: "InnoDB pages are 1k, 2k, 4k, 8k, 16k, 32k or 64k".into(),
                });
            }
        }
        let mut open_findings = Vec::new();
        // A doublewrite file is never read as a tablespace: by its name.
        if let Some(reason) = crate::doublewrite_file::doublewrite_evidence(&path, &[], &[]) {
            return Err(SpaceError::Doublewrite { path, reason });
        }
        let page0 = detect::from_page0(&bytes);
        // Page 0's own fields are trusted when it verifies and the page size in
        // use is the one it gives.
        let page0_valid = match &page0 {
            Page0::Valid(f) => options
                .page_size
                .is_none_or(|g| g == f.physical_page_size()),
            _ => false,
        };
        if !page0_valid {
            bytes = source.head(HEAD_BYTES).map_err(io)?;
            // Or, renamed, by its first slots: copies of pages of other places.
            let sizes = match options.page_size {
                Some(given) => vec![given],
                None => detect::DOUBLEWRITE_PAGE_SIZES.to_vec(),
            };
            if let Some(reason) =
                crate::doublewrite_file::doublewrite_evidence(&path, &bytes, &sizes)
            {
                return Err(SpaceError::Doublewrite { path, reason });
            }
        }
        if let Some(given) = options.page_size {
            if let Some(reason) = detect::refuses_given_size(&bytes, &page0, given) {
                return Err(SpaceError::BadPageSize {
                    path,
                    given,
                    reason,
                });
            }
        }
        let (format, page_size_source) = match decide_format(&bytes, page0, options.page_size) {
            Ok((format, source, finding)) => {
                open_findings.extend(finding);
                (format, source)
            }
            Err(problem) => {
                return Err(SpaceError::NoValidPage0 {
                    path,
                    offset: problem.offset,
                    field: problem.field,
                    reason: problem.reason,
                })
            }
        };

        let ps = format.physical_page_size();
        let len = usize::try_from(source.len()).unwrap_or(usize::MAX);
        let Some(page0_bytes) = bytes.get(..ps) else {
            return Err(SpaceError::ShorterThanAPage {
                path,
                len: len as u64,
                page_size: ps,
            });
        };
        if len % ps != 0 {
            open_findings.push(Finding {
                kind: FindingKind::TrailingBytes,
                page: None,
                offset: Some(len - len % ps),
                field: "file size",
                message: format!(
                    "file size {len} is not a multiple of the {ps}-byte page size; the last {} bytes are not a page",
                    len % ps
                ),
            });
        }
        let page_count = u32::try_from(len / ps).unwrap_or(u32::MAX);
        let fsp_header = (page_size_source != PageSizeSource::Probed)
            .then(|| FspHeader::parse(page0_bytes).ok())
            .flatten();
        // A page 0 that does not verify may hold a damaged space id: ask the other pages.
        let space_id = match (&fsp_header, page0_valid) {
            (Some(h), true) => h.space_id,
            (h, false) => majority_space_id(&bytes, &format)
                .or(h.map(|h| h.space_id))
                .unwrap_or(0),
            (None, true) => majority_space_id(&bytes, &format).unwrap_or(0),
        };
        let doublewrite = if space_id == 0 && page_count > TRX_SYS_PAGE_NO {
            let mut page = vec![0u8; ps];
            let at = u64::from(TRX_SYS_PAGE_NO) * ps as u64;
            match source.read_at(at, &mut page) {
                Ok(got) if got == ps => DoublewriteArea::find(&page, format.extent_size()),
                _ => None,
            }
        } else {
            None
        };
        if let Some(fsp) = fsp_header.as_ref().filter(|_| page0_valid) {
            open_findings.extend(size_findings(fsp, page_count, format.extent_size() as u32));
        }
        if let Some(a) = format
            .flags
            .compression_algorithm
            .filter(|a| a.name() == "unknown")
        {
            open_findings.push(page0_finding(
                FSP_SPACE_FLAGS,
                "FSP_SPACE_FLAGS",
                format!(
                    "the flags name page compression algorithm {}, which no server defines (1 zlib .. 6 snappy): page-compressed pages cannot be inflated",
                    a.0
                ),
            ));
        }
        Ok(Tablespace {
            path,
            source,
            format,
            page_size_source,
            page_count,
            space_id,
            fsp_header,
            doublewrite,
            open_findings,
            progress: None,
            changed: options.changed,
        })
    }

    /// Counts into `bytes` every byte the page scans ([`Self::for_each_page`])
    /// read from now on, for a progress display.
    pub fn count_progress(&mut self, bytes: Arc<AtomicU64>) {
        self.progress = Some(bytes);
    }

    /// The file's path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The page layout.
    pub fn format(&self) -> &SpaceFormat {
        &self.format
    }

    /// How the page size was decided.
    pub fn page_size_source(&self) -> PageSizeSource {
        self.page_size_source
    }

    /// Whole pages in the file.
    pub fn page_count(&self) -> u32 {
        self.page_count
    }

    /// The tablespace id (page 0's `FSP_SPACE_ID`, or the most common
    /// `FIL_PAGE_SPACE_ID` when page 0 is unusable).
    pub fn space_id(&self) -> u32 {
        self.space_id
    }

    /// Page 0's FSP header, when page 0 is usable.
    pub fn fsp_header(&self) -> Option<&FspHeader> {
        self.fsp_header.as_ref()
    }

    /// The doublewrite area, for a system tablespace that has one.
    pub fn doublewrite(&self) -> Option<&DoublewriteArea> {
        self.doublewrite.as_ref()
    }

    /// Problems found while opening (page 0, trailing bytes).
    pub fn open_findings(&self) -> &[Finding] {
        &self.open_findings
    }

    /// True when the file was gzip-compressed.
    pub fn inflated_from_gzip(&self) -> bool {
        self.source.inflated_from_gzip
    }

    /// Bytes the file occupies on disk (`st_blocks` × 512): fewer than its
    /// length when it is sparse (MySQL punches a hole after each compressed
    /// page). `None` for a `.gz` copy, whose holes were not kept.
    pub fn allocated_bytes(&self) -> Option<u64> {
        self.source.allocated_bytes
    }

    /// Bytes of the file (of the inflated copy, for a `.gz`).
    pub fn file_bytes(&self) -> u64 {
        self.source.len()
    }

    /// The physical bytes of page `n`, read from the file now.
    pub fn page(&self, n: u32) -> Result<Vec<u8>, SpaceError> {
        let ps = self.format.physical_page_size();
        let mut page = vec![0u8; ps];
        let got = self.read_page_prefix(n, &mut page)?;
        if got < ps {
            self.mark_changed();
            return Err(SpaceError::Io {
                path: self.path.clone(),
                source: std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    format!(
                        "page {n} ends past the end of the file, which has shrunk to {} bytes since it was opened ({} bytes)",
                        self.source.current_len().unwrap_or(0),
                        self.source.len()
                    ),
                ),
            });
        }
        Ok(page)
    }

    /// Reads `buf.len()` bytes of page `n` from its start with a positioned
    /// read (no memory map: what a walk touches does not stay mapped).
    /// Returns the bytes read, fewer only at the end of the file.
    pub fn read_page_prefix(&self, n: u32, buf: &mut [u8]) -> Result<usize, SpaceError> {
        let ps = self.format.physical_page_size() as u64;
        if n >= self.page_count {
            return Err(SpaceError::NoSuchPage {
                path: self.path.clone(),
                page: n.into(),
                page_count: self.page_count,
            });
        }
        let len = buf.len().min(ps as usize);
        // `len` is at most `buf.len()`: the fallback is never taken.
        let want = buf.get_mut(..len).unwrap_or_default();
        self.source
            .read_at(u64::from(n) * ps, want)
            .map_err(|source| SpaceError::Io {
                path: self.path.clone(),
                source,
            })
    }

    /// Calls `f` with every page in `first..=last` (clamped to the file), in
    /// file order, with the page's physical bytes, or with the error that
    /// reading it gave (a bad sector stops nothing: the pages after it are
    /// still read). Pages wholly inside a hole of a sparse file are not read:
    /// they come as one [`ScanItem::Hole`] per run. Pages are read in large
    /// sequential chunks into one reused buffer, so memory stays flat however
    /// large the file is. A file that changes length while it is read says
    /// so ([`ScanItem::Shrunk`], [`ScanItem::Resized`]).
    pub fn for_each_page(&self, first: u32, last: u32, mut f: impl FnMut(ScanItem<'_>)) {
        let ps = self.format.physical_page_size();
        let last = last.min(self.page_count.saturating_sub(1));
        if self.page_count == 0 || first > last {
            return;
        }
        let per_chunk = (SCAN_CHUNK_BYTES / ps).max(1);
        // The buffer starts on a 4 KiB boundary, as innochecksum's does: the
        // kernel's copy out of the page cache into a misaligned buffer was
        // measurably slower (it is most of a scan's time).
        let mut backing = vec![0u8; per_chunk * ps + READ_ALIGN];
        let skip = backing.as_ptr().align_offset(READ_ALIGN).min(READ_ALIGN);
        // `skip` is at most READ_ALIGN, which the backing has to spare.
        let Some(buf) = backing.get_mut(skip..skip + per_chunk * ps) else {
            return;
        };
        let ps64 = ps as u64;
        let mut next = u64::from(first);
        let end = u64::from(last) + 1;
        // Bytes before `data_end` are known to be data (no hole there).
        let mut data_end = 0u64;
        while next < end {
            if next * ps64 >= data_end {
                // Skip the pages that lie wholly in the hole (if any) at `next`.
                let data = match self.source.next_data(next * ps64) {
                    Some(data) => data,
                    // No data after `next`: a hole up to the end of the file,
                    // or the file has ended before `next` (it was shortened).
                    None => match self.source.current_len() {
                        Ok(len) if len / ps64 <= next => {
                            self.mark_changed();
                            f(ScanItem::Shrunk {
                                page: next as u32,
                                len,
                            });
                            return;
                        }
                        Ok(len) => len / ps64 * ps64,
                        Err(_) => u64::MAX,
                    },
                };
                let hole_pages = (data / ps64).min(end) - next;
                if hole_pages > 0 {
                    f(ScanItem::Hole {
                        first: next as u32,
                        count: hole_pages as u32,
                    });
                    next += hole_pages;
                    continue;
                }
                data_end = self.source.next_hole(data).max(data + 1);
            }
            // Read up to the end of the data (rounded up to a whole page).
            let data_pages = data_end.div_ceil(ps64).max(next + 1);
            let n = (per_chunk as u64).min(end - next).min(data_pages - next) as usize;
            if !self.read_chunk(next, n, buf, &mut f) {
                return;
            }
            next += n as u64;
        }
        if end == u64::from(self.page_count) {
            if let Ok(len) = self.source.current_len() {
                if len != self.source.len() {
                    self.mark_changed();
                    f(ScanItem::Resized {
                        was: self.source.len(),
                        len,
                    });
                }
            }
        }
    }

    /// Reads pages `next..next + n` into `buf` and hands them to `f`; false
    /// when the file has ended early (shrunk), after saying so.
    fn read_chunk(
        &self,
        next: u64,
        n: usize,
        buf: &mut [u8],
        f: &mut impl FnMut(ScanItem<'_>),
    ) -> bool {
        let ps = self.format.physical_page_size();
        // `n` is at most the pages the buffer holds.
        let Some(want) = buf.get_mut(..n * ps) else {
            return false;
        };
        let shrunk = |page: u64| {
            self.mark_changed();
            ScanItem::Shrunk {
                page: page as u32,
                len: self.source.current_len().unwrap_or(0),
            }
        };
        match self.source.read_at(next * ps as u64, want) {
            Ok(got) => {
                if let Some(p) = &self.progress {
                    p.fetch_add(got as u64, Ordering::Relaxed);
                }
                for (i, page) in want.chunks_exact(ps).take(got / ps).enumerate() {
                    f(ScanItem::Page((next + i as u64) as u32, page));
                }
                if got < n * ps {
                    f(shrunk(next + (got / ps) as u64));
                    return false;
                }
            }
            Err(_) => {
                // Read the chunk page by page to keep every readable page.
                for (i, page) in want.chunks_exact_mut(ps).enumerate() {
                    let no = next + i as u64;
                    match self.source.read_at(no * ps as u64, page) {
                        Ok(got) if got == ps => f(ScanItem::Page(no as u32, page)),
                        Ok(_) => {
                            f(shrunk(no));
                            return false;
                        }
                        Err(e) => f(ScanItem::Unreadable(no as u32, e)),
                    }
                }
            }
        }
        true
    }

    /// Records that the file changed length while it was read.
    fn mark_changed(&self) {
        if let Some(c) = &self.changed {
            c.store(true, Ordering::Relaxed);
        }
    }

    /// A checker for this tablespace's pages.
    pub fn checker(&self) -> PageChecker {
        PageChecker::new(self.format.clone(), self.space_id, self.doublewrite)
    }
}

/// What page 0's sizes say that the file or each other contradict: a
/// `FSP_SIZE` other than the file's page count (pages past it are outside
/// the space; pages short of it are missing), an `FSP_FREE_LIMIT` of 0, not
/// on an extent boundary, or past the extent that holds the last page.
fn size_findings(fsp: &FspHeader, page_count: u32, extent_size: u32) -> Vec<Finding> {
    use innodb_format::fsp::header::{FSP_FREE_LIMIT, FSP_SIZE};
    let mut out = Vec::new();
    let size = fsp.size;
    if size < page_count {
        out.push(page0_finding(
            FSP_SIZE,
            "FSP_SIZE",
            format!(
                "page 0 gives a tablespace of {size} pages but the file holds {page_count}: pages {size}..{} lie past FSP_SIZE, outside the space (the server does not read them)",
                page_count - 1
            ),
        ));
    } else if size > page_count {
        out.push(page0_finding(
            FSP_SIZE,
            "FSP_SIZE",
            format!(
                "page 0 gives a tablespace of {size} pages but the file holds only {page_count}: pages {page_count}..{} are missing (a truncated copy, or a damaged FSP_SIZE)",
                u64::from(size) - 1
            ),
        ));
    }
    let extent = extent_size.max(1);
    let limit = fsp.free_limit;
    let ceiling = u64::from(size.max(page_count)).div_ceil(u64::from(extent)) * u64::from(extent);
    if limit == 0 || !limit.is_multiple_of(extent) || u64::from(limit) > ceiling {
        out.push(page0_finding(
            FSP_FREE_LIMIT,
            "FSP_FREE_LIMIT",
            format!(
                "FSP_FREE_LIMIT {limit} is not a page the server's free limit can be: it is a positive multiple of the {extent}-page extent, at most {ceiling} for a space of {} pages",
                size.max(page_count)
            ),
        ));
    }
    out
}

fn page0_finding(offset: usize, field: &'static str, message: String) -> Finding {
    Finding {
        kind: FindingKind::Page0,
        page: Some(0),
        offset: Some(offset),
        field,
        message,
    }
}

/// The most common non-zero `FIL_PAGE_SPACE_ID` among the first pages (after
/// page 0) whose `FIL_PAGE_OFFSET` matches their position. A full_crc32
/// page-compressed frame holds compressed data from byte 26 on (alike on
/// pages whose headers are alike): its space id is read from the inflated
/// page when `format` names an algorithm that inflates, and it is skipped
/// otherwise.
fn majority_space_id(bytes: &[u8], format: &SpaceFormat) -> Option<u32> {
    let ps = format.physical_page_size();
    let algorithm = format
        .flags
        .compression_algorithm
        .filter(|_| format.flags.full_crc32);
    let mut decompressor = None;
    let mut counts: Vec<(u32, usize)> = Vec::new();
    for (i, page) in bytes.chunks_exact(ps).enumerate().skip(1).take(256) {
        let Ok(fil) = FilHeader::parse(page) else {
            continue;
        };
        if fil.page_no as usize != i {
            continue;
        }
        let (space_id, lsn) = if fil.page_type.is_full_crc32_compressed() {
            let Some(algorithm) = algorithm else {
                continue;
            };
            let d = decompressor
                .get_or_insert_with(|| PageDecompressor::new(format.logical_page_size()));
            let frame = page.get(..full_crc32_frame_size(page)).unwrap_or(page);
            if d.decompress_full_crc32(frame, algorithm).is_err() {
                continue;
            }
            match FilHeader::parse(d.page()) {
                Ok(inner) => (inner.space_id, fil.lsn),
                Err(_) => continue,
            }
        } else {
            (fil.space_id, fil.lsn)
        };
        if space_id == 0 && lsn == 0 {
            continue;
        }
        match counts.iter_mut().find(|(id, _)| *id == space_id) {
            Some((_, c)) => *c += 1,
            None => counts.push((space_id, 1)),
        }
    }
    counts.into_iter().max_by_key(|&(_, c)| c).map(|(id, _)| id)
}

/// Decides page size and layout from what page 0 says, the user's
/// `--page-size` and probing; says in a finding whenever page 0 is not simply
/// trusted. An error when nothing gives a page size.
fn decide_format(
    bytes: &[u8],
    page0: Page0,
    given: Option<usize>,
) -> Result<(SpaceFormat, PageSizeSource, Option<Finding>), Page0Problem> {
    let user_or = |other| {
        if given.is_some() {
            PageSizeSource::User
        } else {
            other
        }
    };
    let reading = |f: &SpaceFormat| {
        format!(
            "reading with {}-byte pages ({})",
            f.physical_page_size(),
            if given.is_some() {
                "--page-size"
            } else {
                "probed from the following pages"
            }
        )
    };
    match page0 {
        Page0::Valid(f) => match given {
            None => Ok((f, PageSizeSource::Page0, None)),
            Some(g) if g == f.physical_page_size() => Ok((f, PageSizeSource::User, None)),
            Some(g) => {
                let finding = page0_finding(
                    FSP_SPACE_FLAGS,
                    "FSP_SPACE_FLAGS",
                    format!(
                        "page 0 gives a {}-byte page; using --page-size {g}",
                        f.physical_page_size()
                    ),
                );
                let probed = detect::probe(bytes, Some(g))
                    .unwrap_or_else(|| SpaceFormat::assumed(g, g.max(16384), f.checksum_layout));
                Ok((probed, PageSizeSource::User, Some(finding)))
            }
        },
        Page0::Suspect(f, problem) => {
            let found = |msg: String| Some(page0_finding(problem.offset, problem.field, msg));
            match detect::probe(bytes, given) {
                Some(p)
                    if p.physical_page_size() == f.physical_page_size()
                        && p.checksum_layout == f.checksum_layout =>
                {
                    let mut f = f;
                    let mut msg = format!(
                        "{}; the following pages agree with its flags",
                        problem.reason
                    );
                    // A page 0 that does not verify may hold a damaged
                    // algorithm; the compressed pages say which it is.
                    if f.flags.full_crc32 {
                        let seen = detect::full_crc32_algorithm(bytes, f.physical_page_size());
                        if let Some(a) = seen.filter(|&a| Some(a) != f.flags.compression_algorithm)
                        {
                            msg.push_str(&format!(
                                "; its flags give compression algorithm {} but the page-compressed pages are {}, which is used",
                                f.flags.compression_algorithm.map_or("none", |a| a.name()),
                                a.name()
                            ));
                            f.flags.compression_algorithm = Some(a);
                        }
                    }
                    Ok((f, user_or(PageSizeSource::Page0), found(msg)))
                }
                Some(p) => {
                    // The following pages disagree with the flags: the flags
                    // are what is wrong.
                    let layout = match f.checksum_layout {
                        ChecksumLayout::FullCrc32 => "full_crc32",
                        ChecksumLayout::Zip => "zip",
                        ChecksumLayout::Classic => "classic",
                    };
                    let msg = format!(
                        "{} ({}-byte pages, {layout} checksums), and the following pages disagree with those flags; {}",
                        problem.reason,
                        f.physical_page_size(),
                        reading(&p)
                    );
                    let finding = page0_finding(FSP_SPACE_FLAGS, "FSP_SPACE_FLAGS", msg);
                    Ok((p, user_or(PageSizeSource::Probed), Some(finding)))
                }
                None => match given {
                    Some(g) if g != f.physical_page_size() => {
                        let a = SpaceFormat::assumed(g, g, f.checksum_layout);
                        let msg = format!("{}; {}", problem.reason, reading(&a));
                        Ok((a, PageSizeSource::User, found(msg)))
                    }
                    _ => {
                        let msg = format!(
                            "{}; no other page verifies either, so its flags are used",
                            problem.reason
                        );
                        Ok((f, user_or(PageSizeSource::Page0), found(msg)))
                    }
                },
            }
        }
        Page0::Unusable(problem) => {
            let format = match (detect::probe(bytes, given), given) {
                (Some(p), _) => p,
                (None, Some(g)) => SpaceFormat::assumed(g, g, ChecksumLayout::Classic),
                (None, None) => return Err(problem),
            };
            let msg = format!("{}; {}", problem.reason, reading(&format));
            let finding = page0_finding(problem.offset, problem.field, msg);
            Ok((format, user_or(PageSizeSource::Probed), Some(finding)))
        }
    }
}

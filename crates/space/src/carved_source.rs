//! A carved tablespace read in place: its pages served from where `carve`
//! found them in its inputs (the newest copy of each page number), with no
//! file written. The map holds one [`CarvedPage`] per page found, never a
//! page's bytes; page numbers not found read as zeros and are holes (as in
//! the sparse file `carve --out` writes). Each page is checked again each
//! time it is read ([`CarvedPage::still_valid`]): one that changed since
//! the scan is served as zeros, never trusted, and is remembered as a
//! [`ChangedPage`] for the caller to report. Pages that lie one after
//! another in one input are read with one positioned read. An input is
//! opened again only when it is a regular file or a block device: a pipe
//! read once by the scan is not (its pages' reads fail, saying so).

use crate::carve::CarvedPage;
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// An input opened for reading again, or why it cannot be.
type Opened = Result<File, (std::io::ErrorKind, String)>;

/// The inputs of a carve, each opened once (when a page is first read from
/// it), read-only, and shared by every carved space read from them. Only a
/// regular file or a block device is read again: a pipe or FIFO was read
/// once by the scan (opening it again could wait for a writer forever).
#[derive(Debug)]
pub struct CarveInputs {
    files: Vec<(PathBuf, OnceLock<Opened>)>,
}

impl CarveInputs {
    /// The inputs, in the order the carve scanned them (the order
    /// [`CarvedPage::input`] counts in); none is opened yet.
    pub fn new(paths: &[PathBuf]) -> Self {
        CarveInputs {
            files: paths.iter().map(|p| (p.clone(), OnceLock::new())).collect(),
        }
    }

    /// The path of input `i` and the input opened (or why it cannot be).
    fn get(&self, i: u32) -> Option<(&Path, std::io::Result<&File>)> {
        let (path, once) = self.files.get(usize::try_from(i).ok()?)?;
        let opened = once
            .get_or_init(|| open_again(path))
            .as_ref()
            .map_err(|(kind, msg)| std::io::Error::new(*kind, msg.clone()));
        Some((path.as_path(), opened))
    }
}

/// Opens `path` read-only when it is a regular file or a block device.
fn open_again(path: &Path) -> Opened {
    let meta = std::fs::metadata(path).map_err(|e| (e.kind(), e.to_string()))?;
    if !can_be_read_again(&meta) {
        return Err((
            std::io::ErrorKind::InvalidInput,
            format!(
                "{}: not a regular file or block device, so its pages cannot be read again after the scan",
                path.display()
            ),
        ));
    }
    File::open(path).map_err(|e| (e.kind(), format!("{}: {e}", path.display())))
}

/// True for an input whose pages can be read again after the scan: a
/// regular file or a block device (not a pipe or FIFO, which the scan
/// read once).
pub fn can_be_read_again(meta: &std::fs::Metadata) -> bool {
    meta.is_file() || is_block_device(meta)
}

/// True for a block device.
#[cfg(unix)]
fn is_block_device(meta: &std::fs::Metadata) -> bool {
    std::os::unix::fs::FileTypeExt::is_block_device(&meta.file_type())
}

/// No block devices here.
#[cfg(not(unix))]
fn is_block_device(_: &std::fs::Metadata) -> bool {
    false
}

/// A page that was not the page the scan found when it was read again
/// (another checksum, another page number, or its input now too short).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedPage {
    /// The page number.
    pub page_no: u32,
    /// Where the scan found it in its input.
    pub offset: u64,
    /// The input.
    pub input: PathBuf,
}

/// The pages of one carved space, read from the inputs they were found in.
#[derive(Debug)]
pub struct CarvedSource {
    inputs: Arc<CarveInputs>,
    page_size: u64,
    len: u64,
    /// One per page number, in page number order.
    pages: Vec<CarvedPage>,
    /// The pages found changed so far, by page number.
    changed: Mutex<BTreeMap<u32, ChangedPage>>,
}

impl CarvedSource {
    /// A space of `len` bytes of `page_size`-byte pages, each of `pages`
    /// (the newest copy of each page number) read from `inputs` where it
    /// was found. A page number given twice keeps its first copy; pages
    /// past `len` are left out.
    pub fn new(
        inputs: Arc<CarveInputs>,
        page_size: u32,
        len: u64,
        pages: impl IntoIterator<Item = CarvedPage>,
    ) -> Self {
        let page_size = u64::from(page_size.max(1));
        let mut pages: Vec<CarvedPage> = pages
            .into_iter()
            .filter(|p| (u64::from(p.page_no) + 1) * page_size <= len)
            .collect();
        pages.sort_by_key(|p| p.page_no);
        pages.dedup_by_key(|p| p.page_no);
        CarvedSource {
            inputs,
            page_size,
            len,
            pages,
            changed: Mutex::new(BTreeMap::new()),
        }
    }

    /// The space's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when the space has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The pages read so far that had changed since the scan, by page number.
    pub fn changed(&self) -> Vec<ChangedPage> {
        self.changed
            .lock()
            .map(|c| c.values().cloned().collect())
            .unwrap_or_default()
    }

    /// The index in `pages` of the first page at or after byte `offset`.
    fn first_at(&self, offset: u64) -> usize {
        let page_no = offset / self.page_size;
        self.pages
            .partition_point(|p| u64::from(p.page_no) < page_no)
    }

    /// Where the next found page at or after `offset` begins (`offset`
    /// itself when it is inside one); `None` when no page follows.
    pub fn next_data(&self, offset: u64) -> Option<u64> {
        let p = self.pages.get(self.first_at(offset))?;
        Some((u64::from(p.page_no) * self.page_size).max(offset))
    }

    /// Where the run of found pages holding `offset` ends: the first page
    /// number after it that was not found.
    pub fn next_hole(&self, offset: u64) -> u64 {
        let mut i = self.first_at(offset);
        let mut next = offset / self.page_size;
        while let Some(p) = self.pages.get(i).filter(|p| u64::from(p.page_no) == next) {
            next = u64::from(p.page_no) + 1;
            i += 1;
        }
        (next * self.page_size).clamp(offset, self.len)
    }

    /// Fills `buf` with the bytes at `offset` (fewer only past the end of
    /// the space); returns how many. Pages not found, and pages changed
    /// since the scan, read as zeros.
    pub fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        let end = offset.saturating_add(buf.len() as u64).min(self.len);
        if offset >= end {
            return Ok(0);
        }
        let ps = self.page_size;
        let mut i = self.first_at(offset);
        let mut pos = offset;
        while pos < end {
            let start = pos / ps * ps;
            let at = usize::try_from(pos - offset).unwrap_or(usize::MAX);
            let found = self
                .pages
                .get(i)
                .filter(|p| u64::from(p.page_no) * ps == start);
            let next = match found {
                None => {
                    let to = self
                        .pages
                        .get(i)
                        .map_or(end, |p| (u64::from(p.page_no) * ps).min(end));
                    fill_zero(buf, at, to - pos);
                    to
                }
                Some(_) if pos == start && start + ps <= end => {
                    let run = self.run(i, end);
                    let n = run.len();
                    let bytes = usize::try_from(n as u64 * ps).unwrap_or(usize::MAX);
                    let dst = buf
                        .get_mut(at..at.saturating_add(bytes))
                        .ok_or_else(|| std::io::Error::other("carved read out of range"))?;
                    self.read_run(run, dst)?;
                    i += n;
                    pos + n as u64 * ps
                }
                Some(p) => {
                    let to = (start + ps).min(end);
                    self.read_part(p, pos - start, buf, at, to - pos)?;
                    if to == start + ps {
                        i += 1;
                    }
                    to
                }
            };
            pos = next;
        }
        Ok(usize::try_from(end - offset).unwrap_or(usize::MAX))
    }

    /// The pages from `pages[i]` on that follow each other both in page
    /// number and in one input, and end by `end`.
    fn run(&self, i: usize, end: u64) -> &[CarvedPage] {
        let ps = self.page_size;
        let rest = self.pages.get(i..).unwrap_or_default();
        let Some(first) = rest.first() else {
            return rest;
        };
        let n = rest
            .iter()
            .enumerate()
            .take_while(|(k, p)| {
                let k = *k as u64;
                u64::from(p.page_no) == u64::from(first.page_no) + k
                    && p.input == first.input
                    && p.offset == first.offset + k * ps
                    && (u64::from(p.page_no) + 1) * ps <= end
            })
            .count();
        rest.get(..n).unwrap_or_default()
    }

    /// Reads the pages of `run` (one after another in one input) into
    /// `dst` with one positioned read, each checked again: a changed page
    /// is zeroed and remembered.
    fn read_run(&self, run: &[CarvedPage], dst: &mut [u8]) -> std::io::Result<()> {
        let Some(first) = run.first() else {
            return Ok(());
        };
        let Some((path, file)) = self.inputs.get(first.input) else {
            dst.fill(0);
            return Ok(());
        };
        let got = read_full(file?, first.offset, dst)?;
        let ps = usize::try_from(self.page_size).unwrap_or(usize::MAX);
        for (k, (p, page)) in run.iter().zip(dst.chunks_mut(ps)).enumerate() {
            if k * ps + p.stored_len() > got || !p.still_valid(page) {
                page.fill(0);
                self.remember(p, path);
            } else {
                p.clear_after_block(page);
            }
        }
        Ok(())
    }

    /// Copies `n` bytes of page `p` from byte `from` of it into `buf` at `at`.
    fn read_part(
        &self,
        p: &CarvedPage,
        from: u64,
        buf: &mut [u8],
        at: usize,
        n: u64,
    ) -> std::io::Result<()> {
        let mut page = vec![0u8; usize::try_from(self.page_size).unwrap_or(usize::MAX)];
        self.read_run(std::slice::from_ref(p), &mut page)?;
        let from = usize::try_from(from).unwrap_or(usize::MAX);
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        let src = page.get(from..from.saturating_add(n));
        let dst = buf.get_mut(at..at.saturating_add(n));
        match (src, dst) {
            (Some(s), Some(d)) => d.copy_from_slice(s),
            _ => return Err(std::io::Error::other("carved read out of range")),
        }
        Ok(())
    }

    /// Remembers that `p`, in the input `path`, changed since the scan.
    fn remember(&self, p: &CarvedPage, path: &Path) {
        if let Ok(mut c) = self.changed.lock() {
            c.entry(p.page_no).or_insert_with(|| ChangedPage {
                page_no: p.page_no,
                offset: p.offset,
                input: path.to_path_buf(),
            });
        }
    }
}

/// Zeroes `n` bytes of `buf` from `at`.
fn fill_zero(buf: &mut [u8], at: usize, n: u64) {
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if let Some(d) = buf.get_mut(at..at.saturating_add(n)) {
        d.fill(0);
    }
}

/// Reads `buf.len()` bytes of `file` at `offset`, fewer only at its end;
/// returns how many.
pub fn read_full(file: &File, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut done = 0;
    while let Some(rest) = buf.get_mut(done..).filter(|r| !r.is_empty()) {
        match crate::source::positioned_read(file, rest, offset + done as u64) {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

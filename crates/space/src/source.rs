//! The bytes of a file, read with positioned reads into a caller's buffer
//! (so that a scan's memory stays flat however large the file). No memory
//! map: a file that another process truncates while it is read gives short
//! reads, which are reported, where a map would raise SIGBUS. Holes of a
//! sparse file are found with `SEEK_DATA` / `SEEK_HOLE`, so a scan skips
//! them instead of reading zeros. `.gz` files are
//! first inflated into an anonymous temporary file, up to a limit: the
//! user's (`OpenOptions::gz_limit`) when given, else the size their page 0
//! claims (twice `FSP_SIZE` pages, and some slack) and at most
//! [`GZ_LIMIT_DEFAULT`]; never more than the free space of the temporary
//! directory — a small crafted `.gz` cannot fill the disk. A carved
//! space ([`CarvedSource`]) is read in place, from the inputs `carve`
//! found its pages in.

use crate::carved_source::{CarvedSource, ChangedPage};
use crate::SpaceError;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// Where a [`Source`]'s bytes come from.
#[derive(Debug)]
enum Backing {
    /// A file (or the inflated copy of a `.gz`).
    File(File),
    /// The pages of a carved space, where `carve` found them.
    Carved(CarvedSource),
}

/// An open tablespace file (or its inflated copy, or a carved space).
#[derive(Debug)]
pub struct Source {
    backing: Backing,
    /// The file's length when it was opened.
    len: u64,
    /// True when the file was gzip-compressed and inflated to a temporary file.
    pub inflated_from_gzip: bool,
    /// Bytes the file occupies on disk (`st_blocks` × 512), less than its
    /// length when it is sparse; `None` for a `.gz` copy (its holes, if the
    /// original had any, were not kept) and where the system does not say.
    pub allocated_bytes: Option<u64>,
}

/// Bytes a file occupies on disk: its 512-byte blocks.
#[cfg(unix)]
fn allocated(meta: &std::fs::Metadata) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    Some(meta.blocks().saturating_mul(512))
}

/// Not known on this system.
#[cfg(not(unix))]
fn allocated(_: &std::fs::Metadata) -> Option<u64> {
    None
}

/// The most a `.gz` input is inflated to when no limit is given: 64 GiB.
pub const GZ_LIMIT_DEFAULT: u64 = 64 << 30;

/// Space left free in the temporary directory while inflating.
const TMP_RESERVE: u64 = 256 << 20;

impl Source {
    /// Opens `path` read-only. A gzip file (magic `1f 8b`) is
    /// inflated, streaming, into an unnamed temporary file that is read
    /// instead: at most `gz_limit` bytes when given, else no more than its
    /// page 0 claims nor [`GZ_LIMIT_DEFAULT`]; the original is never written.
    pub fn open(path: &Path, gz_limit: Option<u64>) -> Result<Self, SpaceError> {
        let io = |source| SpaceError::Io {
            path: path.to_path_buf(),
            source,
        };
        // Only regular files: opening a FIFO would wait for a writer forever,
        // and devices have no length to read pages by.
        let meta = std::fs::metadata(path).map_err(io)?;
        if !meta.is_file() {
            let what = if meta.is_dir() {
                "a directory"
            } else {
                "not a regular file (a FIFO, socket or device)"
            };
            return Err(SpaceError::Io {
                path: path.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::InvalidInput, what),
            });
        }
        let mut file = File::open(path).map_err(io)?;
        let mut magic = [0u8; 2];
        let n = read_up_to(&mut file, &mut magic).map_err(io)?;
        let inflated_from_gzip = n == 2 && magic == [0x1f, 0x8b];
        let allocated_bytes = if inflated_from_gzip {
            None
        } else {
            allocated(&meta)
        };
        if inflated_from_gzip {
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            file = inflate(path, file, gz_limit)?;
        }
        let len = file.metadata().map_err(io)?.len();
        Ok(Source {
            backing: Backing::File(file),
            len,
            inflated_from_gzip,
            allocated_bytes,
        })
    }

    /// The carved space `carved`, read in place.
    pub fn carved(carved: CarvedSource) -> Self {
        Source {
            len: carved.len(),
            backing: Backing::Carved(carved),
            inflated_from_gzip: false,
            allocated_bytes: None,
        }
    }

    /// Of a carved space, the pages read so far that had changed since the
    /// scan (served as zeros); empty for a file.
    pub fn changed_pages(&self) -> Vec<ChangedPage> {
        match &self.backing {
            Backing::File(_) => Vec::new(),
            Backing::Carved(c) => c.changed(),
        }
    }

    /// The file's length in bytes when it was opened.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when the file was empty when it was opened.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The file's length now (it may have changed since it was opened).
    pub fn current_len(&self) -> std::io::Result<u64> {
        match &self.backing {
            Backing::File(file) => Ok(file.metadata()?.len()),
            Backing::Carved(c) => Ok(c.len()),
        }
    }

    /// The first `max` bytes of the file (fewer when it is shorter).
    pub fn head(&self, max: usize) -> std::io::Result<Vec<u8>> {
        let want = usize::try_from(self.len).map_or(max, |l| l.min(max));
        let mut buf = vec![0u8; want];
        let got = self.read_at(0, &mut buf)?;
        buf.truncate(got);
        Ok(buf)
    }

    /// Where the next byte of data at or after `offset` is: `None` when
    /// only a hole follows up to the end of the file. Where the file system
    /// cannot tell, every byte is data (`Some(offset)`).
    pub fn next_data(&self, offset: u64) -> Option<u64> {
        match &self.backing {
            Backing::File(file) => seek_data_or_hole(file, offset, true).unwrap_or(Some(offset)),
            Backing::Carved(c) => c.next_data(offset),
        }
    }

    /// Where the hole that follows `offset` (a data byte) begins: the end of
    /// the file when no hole follows, or when the file system cannot tell.
    pub fn next_hole(&self, offset: u64) -> u64 {
        match &self.backing {
            Backing::File(file) => seek_data_or_hole(file, offset, false)
                .ok()
                .flatten()
                .unwrap_or(u64::MAX),
            Backing::Carved(c) => c.next_hole(offset),
        }
    }

    /// Fills `buf` with the bytes at `offset` (fewer only at the end of the
    /// file); returns how many were read.
    pub fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        let file = match &self.backing {
            Backing::File(file) => file,
            Backing::Carved(c) => return c.read_at(offset, buf),
        };
        let mut done = 0;
        while let Some(rest) = buf.get_mut(done..).filter(|rest| !rest.is_empty()) {
            match positioned_read(file, rest, offset + done as u64) {
                Ok(0) => break,
                Ok(n) => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(done)
    }
}

/// `SEEK_DATA` (`data`) or `SEEK_HOLE` from `offset`: `Ok(None)` when no
/// data follows (ENXIO), an error when the file system cannot tell.
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
fn seek_data_or_hole(file: &File, offset: u64, data: bool) -> std::io::Result<Option<u64>> {
    use rustix::fs::{seek, SeekFrom};
    let whence = if data {
        SeekFrom::Data(offset)
    } else {
        SeekFrom::Hole(offset)
    };
    match seek(file, whence) {
        Ok(at) => Ok(Some(at)),
        Err(rustix::io::Errno::NXIO) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// No hole information on this system: every byte is data.
#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
fn seek_data_or_hole(_: &File, _: u64, _: bool) -> std::io::Result<Option<u64>> {
    Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
}

/// Inflates the gzip stream of `file` (the file at `path`) into an unnamed
/// temporary file, refusing to write more than the limit (see the module
/// documentation).
fn inflate(path: &Path, file: File, gz_limit: Option<u64>) -> Result<File, SpaceError> {
    let io = |source| SpaceError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut tmp = tempfile::tempfile().map_err(io)?;
    let free = free_bytes(&tmp).map_or(u64::MAX, |f| f.saturating_sub(TMP_RESERVE));
    let mut gz = flate2::read::MultiGzDecoder::new(std::io::BufReader::new(file));
    // Page 0 first, at the largest page size: what the file claims to be.
    let mut head = Vec::new();
    (&mut gz)
        .take(innodb_format::MAX_PAGE_SIZE as u64)
        .read_to_end(&mut head)
        .map_err(io)?;
    let mut limits = match gz_limit {
        Some(given) => vec![(given, "the limit --gz-limit gives")],
        None => vec![
            (GZ_LIMIT_DEFAULT, "the default limit"),
            (
                claimed_size(&head).unwrap_or(u64::MAX),
                "twice the size its page 0 claims (FSP_SIZE)",
            ),
        ],
    };
    limits.push((free, "the free space of the temporary directory"));
    let (limit, why) = limits
        .into_iter()
        .min_by_key(|(l, _)| *l)
        .unwrap_or((GZ_LIMIT_DEFAULT, "the default limit"));
    std::io::Write::write_all(&mut tmp, &head).map_err(io)?;
    let copied = std::io::copy(
        &mut (&mut gz).take(limit.saturating_sub(head.len() as u64) + 1),
        &mut tmp,
    )
    .map_err(io)?;
    if head.len() as u64 + copied > limit {
        return Err(SpaceError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other(format!(
                "the gzip stream inflates to more than {limit} bytes, {why}: not read (give --gz-limit SIZE to allow more, or gunzip it elsewhere)"
            )),
        });
    }
    Ok(tmp)
}

/// What a file whose first bytes are `head` may inflate to: twice the
/// `FSP_SIZE` pages its page 0 gives, and 64 MiB of slack; `None` when page
/// 0 does not verify (then only the ceiling and the free space apply).
fn claimed_size(head: &[u8]) -> Option<u64> {
    let crate::detect::Page0::Valid(format) = crate::detect::from_page0(head) else {
        return None;
    };
    let fsp = innodb_format::fsp::header::FspHeader::parse(head).ok()?;
    let pages = u64::from(fsp.size).max(1);
    Some(
        pages
            .saturating_mul(format.physical_page_size() as u64)
            .saturating_mul(2)
            .saturating_add(64 << 20),
    )
}

/// Bytes free on the file system of `file`, when it can be known.
fn free_bytes(file: &File) -> Option<u64> {
    let stat = rustix::fs::fstatvfs(file).ok()?;
    Some(stat.f_bavail.saturating_mul(stat.f_frsize))
}

fn read_up_to(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while let Some(rest) = buf.get_mut(n..).filter(|rest| !rest.is_empty()) {
        match file.read(rest)? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// One positioned read of `file` at `offset` into `buf`.
#[cfg(unix)]
pub(crate) fn positioned_read(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

/// One positioned read of `file` at `offset` into `buf`.
#[cfg(windows)]
pub(crate) fn positioned_read(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

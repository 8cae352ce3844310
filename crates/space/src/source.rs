//! The bytes of a file: a read-only memory map for random access to single
//! pages, and positioned reads into a caller's buffer for whole-file scans (so
//! that a scan's memory stays flat however large the file). `.gz` files are
//! first inflated into an anonymous temporary file.

use crate::SpaceError;
use memmap2::Mmap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// The mapped bytes of a tablespace file.
#[derive(Debug)]
pub struct Source {
    file: File,
    map: Option<Mmap>,
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

impl Source {
    /// Opens `path` read-only and maps it. A gzip file (magic `1f 8b`) is
    /// inflated, streaming, into an unnamed temporary file that is mapped
    /// instead; the original is never written.
    pub fn open(path: &Path) -> Result<Self, SpaceError> {
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
            let mut tmp = tempfile::tempfile().map_err(io)?;
            let mut gz = flate2::read::MultiGzDecoder::new(std::io::BufReader::new(file));
            std::io::copy(&mut gz, &mut tmp).map_err(io)?;
            file = tmp;
        }
        let len = file.metadata().map_err(io)?.len();
        if len == 0 {
            return Ok(Source {
                file,
                map: None,
                inflated_from_gzip,
                allocated_bytes,
            });
        }
        // SAFETY: the map is read-only. Its contents may change if another
        // process writes the file while we read it (a live server); every
        // read through it is bounds-checked against the length fixed here, so
        // a concurrent write yields wrong bytes (reported as findings), never
        // undefined behaviour in our code. Truncation by another process is the
        // one hazard no reader can rule out; the docs say not to inspect a file
        // that is being truncated.
        #[allow(unsafe_code)]
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        Ok(Source {
            file,
            map: Some(map),
            inflated_from_gzip,
            allocated_bytes,
        })
    }

    /// Fills `buf` with the bytes at `offset` (fewer only at the end of the
    /// file); returns how many were read.
    pub fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut done = 0;
        while let Some(rest) = buf.get_mut(done..).filter(|rest| !rest.is_empty()) {
            match positioned_read(&self.file, rest, offset + done as u64) {
                Ok(0) => break,
                Ok(n) => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(done)
    }

    /// All bytes of the file.
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }
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

#[cfg(unix)]
fn positioned_read(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn positioned_read(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

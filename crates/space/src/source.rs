//! The bytes of a file: a read-only memory map, also for `.gz` files, which
//! are first inflated into an anonymous temporary file.

use crate::SpaceError;
use memmap2::Mmap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// The mapped bytes of a tablespace file.
#[derive(Debug)]
pub struct Source {
    map: Option<Mmap>,
    /// True when the file was gzip-compressed and inflated to a temporary file.
    pub inflated_from_gzip: bool,
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
        let mut file = File::open(path).map_err(io)?;
        let mut magic = [0u8; 2];
        let n = read_up_to(&mut file, &mut magic).map_err(io)?;
        let inflated_from_gzip = n == 2 && magic == [0x1f, 0x8b];
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
                map: None,
                inflated_from_gzip,
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
        #[cfg(unix)]
        {
            let _ = map.advise(memmap2::Advice::Sequential);
        }
        Ok(Source {
            map: Some(map),
            inflated_from_gzip,
        })
    }

    /// All bytes of the file.
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }
}

fn read_up_to(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

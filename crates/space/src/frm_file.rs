//! A table's `.frm` file (MariaDB, MySQL before 8.0) read from disk: found
//! beside a tablespace (`t.frm` or `t.frm.gz` for `t.ibd`), opened
//! read-only, inflated when gzipped, and parsed; errors name the file.

use innodb_format::frm::Frm;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The most bytes a `.frm` is read to (a real one is a few KiB to a few
/// hundred).
const MAX_FRM_BYTES: u64 = 64 << 20;

/// The `.frm` beside the tablespace `ibd` (`t.ibd` or `t.ibd.gz`: `t.frm`,
/// else `t.frm.gz`), when there is one.
pub fn beside(ibd: &Path) -> Option<PathBuf> {
    let name = ibd.file_name()?.to_str()?;
    let stem = name
        .strip_suffix(".ibd.gz")
        .or_else(|| name.strip_suffix(".ibd"))?;
    in_folder(ibd.parent()?, stem)
}

/// The `.frm` of table `stem` in the folder `dir` (`stem.frm`, else
/// `stem.frm.gz`), when there is one.
pub fn in_folder(dir: &Path, stem: &str) -> Option<PathBuf> {
    [format!("{stem}.frm"), format!("{stem}.frm.gz")]
        .into_iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
}

/// Reads and parses the `.frm` at `path`; the error names the file (and
/// the field and offset a damaged file fails at).
pub fn read(path: &Path) -> Result<Frm, String> {
    let bytes = read_bytes(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Frm::parse(&bytes).map_err(|e| format!("{}: damaged .frm: {e}", path.display()))
}

/// The file's bytes, inflated when its name ends in `.gz`.
fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let gz = path.extension().is_some_and(|e| e == "gz");
    let read = if gz {
        flate2::read::MultiGzDecoder::new(file)
            .take(MAX_FRM_BYTES)
            .read_to_end(&mut out)
    } else {
        file.take(MAX_FRM_BYTES).read_to_end(&mut out)
    };
    read.map_err(|e| e.to_string())?;
    Ok(out)
}

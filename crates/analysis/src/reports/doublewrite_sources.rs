//! Where doublewrite copies are: MySQL 8.0.20+'s doublewrite files and the
//! doublewrite area of a system tablespace (MariaDB, MySQL before 8.0.20);
//! the tablespaces of a data directory by space id, to compare a copy with
//! the page it copies; and, over all of them, the copy crash recovery would
//! write over a page that does not verify.

use crate::reports::datadir_report::over_files;
use innodb_format::checksum::ChecksumVerdict;
use innodb_format::fil::header::FilHeader;
use innodb_space::datadir::{DataDir, DataDirFile};
use innodb_space::doublewrite_file::{self, DoublewriteKind};
use innodb_space::{DoublewriteFile, OpenOptions, SpaceError, Tablespace};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A place that holds doublewrite copies.
#[derive(Debug)]
pub enum Source {
    /// A doublewrite file (`#ib_16384_0.dblwr`, `.bdblwr`).
    File(DoublewriteFile),
    /// The doublewrite area of a system tablespace.
    Area(Box<Tablespace>),
}

/// One slot of a source.
#[derive(Debug, Clone)]
pub struct Slot<'a> {
    /// The slot's number in its source (for an area: 0 … 2 × extent − 1).
    pub slot: u32,
    /// Byte offset in the file.
    pub offset: u64,
    /// For an area, the page of the system tablespace the slot is.
    pub page_in_file: Option<u32>,
    /// The slot's bytes (read from the system tablespace for an area).
    pub bytes: Cow<'a, [u8]>,
}

impl Source {
    /// Opens `path`: a doublewrite file by name or content, else a system
    /// tablespace with a doublewrite area.
    pub fn open(path: &Path, options: &OpenOptions) -> Result<Source, SpaceError> {
        match DoublewriteFile::open(path, options) {
            Ok(f) => Ok(Source::File(f)),
            Err(SpaceError::NotDoublewrite { .. }) => {
                let space = Tablespace::open(path, options.clone())?;
                if space.doublewrite().is_none() {
                    return Err(SpaceError::NotDoublewrite {
                        path: path.to_path_buf(),
                        reason: format!(
                            "a tablespace (space {}) without a doublewrite area: only a system tablespace has one, named by its TRX_SYS page",
                            space.space_id()
                        ),
                    });
                }
                Ok(Source::Area(Box::new(space)))
            }
            Err(e) => Err(e),
        }
    }

    /// The file as given.
    pub fn path(&self) -> &Path {
        match self {
            Source::File(f) => f.path(),
            Source::Area(s) => s.path(),
        }
    }

    /// True for a reduced batch file, which holds entries, not copies.
    pub fn is_reduced(&self) -> bool {
        matches!(self, Source::File(f) if f.kind() == DoublewriteKind::Reduced)
    }

    /// Slots in the source.
    pub fn slot_count(&self) -> u32 {
        match self {
            Source::File(f) => f.slot_count(),
            Source::Area(s) => s.doublewrite().map_or(0, |d| d.block_pages * 2),
        }
    }

    /// Slot `n`, if the source has it.
    pub fn slot(&self, n: u32) -> Option<Slot<'_>> {
        match self {
            Source::File(f) => Some(Slot {
                slot: n,
                offset: f.slot_offset(n),
                page_in_file: None,
                bytes: Cow::Borrowed(f.slot(n).ok()?),
            }),
            Source::Area(s) => {
                let d = s.doublewrite()?;
                (n < d.block_pages * 2).then_some(())?;
                let page = if n < d.block_pages {
                    d.header.block1.checked_add(n)?
                } else {
                    d.header.block2.checked_add(n - d.block_pages)?
                };
                let bytes = s.page(page).ok()?;
                Some(Slot {
                    slot: n,
                    offset: u64::from(page) * bytes.len() as u64,
                    page_in_file: Some(page),
                    bytes: Cow::Owned(bytes),
                })
            }
        }
    }

    /// Every slot in order (a slot past the end of a short system
    /// tablespace is left out).
    pub fn slots(&self) -> impl Iterator<Item = Slot<'_>> {
        (0..self.slot_count()).filter_map(|n| self.slot(n))
    }

    /// The copy in `slot`: its FIL header, or `None` for an empty slot and,
    /// in an area, for a page that is the area's own (carrying its own
    /// number in space 0: MySQL 8.0.20+ keeps the area but writes no copy
    /// there).
    pub fn copy_in(&self, slot: &Slot<'_>) -> Option<FilHeader> {
        if self.is_reduced() {
            return None;
        }
        let fil = doublewrite_file::copy_header(&slot.bytes)?;
        match slot.page_in_file {
            Some(p) if fil.page_no == p && fil.space_id == 0 => None,
            _ => Some(fil),
        }
    }
}

/// The tablespaces of a data directory, by space id.
#[derive(Debug, Default)]
pub struct Spaces {
    by_id: HashMap<u32, (String, Tablespace)>,
    /// Files whose space id another file of the directory has too (the
    /// first file in directory order is used).
    pub duplicates: Vec<String>,
}

impl Spaces {
    /// No tablespaces.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `space`, named `name` (relative to the directory).
    pub fn add(&mut self, name: String, space: Tablespace) {
        match self.by_id.entry(space.space_id()) {
            std::collections::hash_map::Entry::Occupied(_) => self.duplicates.push(name),
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert((name, space));
            }
        }
    }

    /// The tablespace with `space_id` and its name.
    pub fn get(&self, space_id: u32) -> Option<(&str, &Tablespace)> {
        self.by_id.get(&space_id).map(|(n, s)| (n.as_str(), s))
    }

    /// Why no tablespace has `space_id`, when it is a MySQL 8.0+ undo space
    /// id of an undo tablespace the directory has under another id:
    /// truncating an undo tablespace gives it a new space id
    /// (`num = ((0xFFFFFFEF − id) mod 127) + 1`).
    pub fn undo_hint(&self, space_id: u32) -> Option<String> {
        let num = mysql_undo_number(space_id)?;
        let (id, (name, _)) = self
            .by_id
            .iter()
            .filter(|(id, _)| **id != space_id && mysql_undo_number(**id) == Some(num))
            .min_by_key(|(id, _)| **id)?;
        Some(format!(
            "an earlier space id of undo tablespace {num}, now space {id} ({name}): truncating an undo tablespace gives it a new space id"
        ))
    }
}

impl Spaces {
    /// Opens every tablespace of `dir` (in parallel, `threads` at once) and
    /// indexes them by space id, named relative to the directory; the
    /// files that cannot be opened are returned with why.
    pub fn of_datadir(
        dir: &DataDir,
        options: &OpenOptions,
        threads: usize,
    ) -> (Spaces, Vec<(String, String)>) {
        let files: Vec<&DataDirFile> = dir.tablespaces().collect();
        let paths: Vec<PathBuf> = files.iter().map(|f| f.path.clone()).collect();
        let opened = over_files(&paths, threads, |p| {
            Tablespace::open(p, options.clone()).map_err(|e| e.to_string())
        });
        let mut spaces = Spaces::new();
        let mut errors = Vec::new();
        for (f, r) in files.iter().zip(opened) {
            match (r.report, r.error) {
                (Some(space), _) => spaces.add(f.relative.clone(), space),
                (None, e) => errors.push((f.relative.clone(), e.unwrap_or_default())),
            }
        }
        (spaces, errors)
    }
}

/// The undo tablespace number a MySQL 8.0+ undo space id belongs to.
fn mysql_undo_number(space_id: u32) -> Option<u32> {
    const MAX: u32 = 0xFFFF_FFEF;
    const MIN: u32 = MAX - 127 * 512 + 1;
    (MIN..=MAX)
        .contains(&space_id)
        .then(|| (MAX - space_id) % 127 + 1)
}

/// A good copy of a page: where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Rescue {
    /// The page of the tablespace.
    pub page: u32,
    /// The file holding the copy.
    pub file: String,
    /// Its slot.
    pub slot: u32,
    /// The copy's `FIL_PAGE_LSN`.
    pub copy_lsn: u64,
}

/// A copy in the index: where, and its LSN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CopyRef {
    source: usize,
    slot: u32,
    lsn: u64,
}

/// Every source, with its copies indexed by the page they copy.
#[derive(Debug, Default)]
pub struct Sources {
    /// The sources, in the order given.
    pub list: Vec<Source>,
    index: HashMap<(u32, u32), Vec<CopyRef>>,
}

impl Sources {
    /// Indexes the copies of `list`.
    pub fn new(list: Vec<Source>) -> Self {
        let mut index: HashMap<(u32, u32), Vec<CopyRef>> = HashMap::new();
        for (i, source) in list.iter().enumerate() {
            for slot in source.slots() {
                if let Some(fil) = source.copy_in(&slot) {
                    index
                        .entry((fil.space_id, fil.page_no))
                        .or_default()
                        .push(CopyRef {
                            source: i,
                            slot: slot.slot,
                            lsn: fil.lsn,
                        });
                }
            }
        }
        Sources { list, index }
    }

    /// How many slots copy page `page_no` of space `space_id`.
    pub fn copies_of(&self, space_id: u32, page_no: u32) -> usize {
        self.index.get(&(space_id, page_no)).map_or(0, Vec::len)
    }

    /// The copy crash recovery would write over page `page_no` of `space`
    /// when that page does not verify: of the copies that verify under the
    /// tablespace's own layout, the one with the highest LSN (as the
    /// server's `recv::Pages::find` chooses).
    pub fn best_copy(&self, space: &Tablespace, page_no: u32) -> Option<Rescue> {
        let mut refs = self.index.get(&(space.space_id(), page_no))?.clone();
        refs.sort_by_key(|r| std::cmp::Reverse(r.lsn));
        let size = space.format().physical_page_size();
        let mut checker = space.checker();
        refs.into_iter().find_map(|r| {
            let source = self.list.get(r.source)?;
            let slot = source.slot(r.slot)?;
            let copy = slot.bytes.get(..size)?;
            let mut findings = Vec::new();
            let check = checker.check(page_no, copy, &mut findings);
            let verified = matches!(check.checksum, ChecksumVerdict::Valid { .. });
            (verified && check.is_consistent()).then(|| Rescue {
                page: page_no,
                file: source.path().display().to_string(),
                slot: r.slot,
                copy_lsn: r.lsn,
            })
        })
    }
}

impl Sources {
    /// The sources of `dir`: its doublewrite files, then the doublewrite
    /// area of its system tablespace when it has one; the files that cannot
    /// be read are returned with why. The area is left out when the
    /// directory has doublewrite files and the area holds no copy (MySQL
    /// 8.0.20+ keeps the area of an older system tablespace but writes its
    /// copies to the files).
    pub fn of_datadir(dir: &DataDir, options: &OpenOptions) -> (Sources, Vec<(String, String)>) {
        let mut list = Vec::new();
        let mut errors = Vec::new();
        for f in dir.doublewrite_files() {
            match DoublewriteFile::open(&f.path, options) {
                Ok(d) => list.push(Source::File(d)),
                Err(e) => errors.push((f.relative.clone(), e.to_string())),
            }
        }
        if let Some(system) = dir.system() {
            if let Ok(space) = Tablespace::open(&system.path, options.clone()) {
                let area = Source::Area(Box::new(space));
                let copies = area.slots().any(|s| area.copy_in(&s).is_some());
                let has_area = area.slot_count() > 0;
                if has_area && (copies || (list.is_empty() && errors.is_empty())) {
                    list.push(area);
                }
            }
        }
        (Sources::new(list), errors)
    }

    /// True when no source holds a copy.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The files read, as given.
    pub fn files(&self) -> Vec<String> {
        self.list
            .iter()
            .map(|s| s.path().display().to_string())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_numbers_of_mysql_space_ids() {
        // The committed MySQL sets: undo_001 is 4294967279, u4.ibu after its
        // truncation 4294967149; 4294967276 was u4's id before.
        assert_eq!(mysql_undo_number(4_294_967_279), Some(1));
        assert_eq!(mysql_undo_number(4_294_967_276), Some(4));
        assert_eq!(mysql_undo_number(4_294_967_149), Some(4));
        assert_eq!(mysql_undo_number(0xFFFF_FFF0), None);
        assert_eq!(mysql_undo_number(23), None);
    }
}

//! The fuzz targets by name: one function per target that takes the
//! fuzzer's bytes, used alike by the fuzz targets, the property tests and
//! the replay of the kept corpus.

use crate::file::{self, Subject};
use crate::{bytes, undo_pages, Limits};
use innodb_space::dictionary::Dictionary;
use innodb_space::{OpenOptions, Tablespace};
use std::path::Path;

/// A fuzz target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Every whole-file report and its renderers, the input as a file.
    WholeFile,
    /// `page N` (every page type's decoder) over the input's pages.
    Pages,
    /// Records of every index, typed with a schema, page-local records and
    /// key searches.
    Records,
    /// `undo` with the input as the system tablespace.
    Undo,
    /// `undo` over a real system tablespace with the input laid over its
    /// undo pages.
    UndoPages,
    /// `sdi` and the schema made from it.
    Sdi,
    /// ROW_FORMAT=COMPRESSED inflation, the input as one zip page.
    ZipPage,
    /// Undo records at every offset, the input as one page.
    UndoRecords,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 8] = [
        Target::WholeFile,
        Target::Pages,
        Target::Records,
        Target::Undo,
        Target::UndoPages,
        Target::Sdi,
        Target::ZipPage,
        Target::UndoRecords,
    ];

    /// The target's name: its fuzz binary and corpus directory.
    pub fn name(self) -> &'static str {
        match self {
            Target::WholeFile => "whole_file",
            Target::Pages => "pages",
            Target::Records => "records",
            Target::Undo => "undo",
            Target::UndoPages => "undo_pages",
            Target::Sdi => "sdi",
            Target::ZipPage => "zip_page",
            Target::UndoRecords => "undo_records",
        }
    }

    /// The target named `name`.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Runs the target over `data`. File targets write it to `scratch` first
    /// (the library reads tablespaces from files) and open it as the command
    /// line does, and with `--page-size` 4k and 16k when that fails. `dict`
    /// types the records of `records`. Returns the bytes of output made.
    pub fn run(self, data: &[u8], scratch: &Path, dict: Option<&Dictionary>) -> usize {
        let limits = Limits::default();
        match self {
            Target::ZipPage => bytes::zip_page(data),
            Target::UndoRecords => bytes::undo_records(data),
            Target::WholeFile => each_opening(data, scratch, None, limits, file::whole_file),
            Target::Pages => each_opening(data, scratch, None, limits, file::every_page),
            Target::Records => each_opening(data, scratch, dict, limits, file::records),
            Target::Undo => each_opening(data, scratch, None, limits, file::undo),
            Target::UndoPages => undo_pages::undo_pages(data, scratch),
            Target::Sdi => each_opening(data, scratch, None, limits, file::sdi),
        }
    }
}

/// Writes `data` to `scratch`, opens it as the command line does (then with
/// each `--page-size` when that fails) and sums `f` over what opens, the
/// commands given the same `--page-size` and `dict` as their dictionary.
fn each_opening(
    data: &[u8],
    scratch: &Path,
    dict: Option<&Dictionary>,
    limits: Limits,
    f: impl Fn(&Subject) -> usize,
) -> usize {
    if std::fs::write(scratch, data).is_err() {
        return 0;
    }
    let subject = |space: &Tablespace, page_size| {
        f(&Subject {
            space,
            page_size,
            dict,
            limits,
        })
    };
    if let Ok(space) = Tablespace::open(scratch, OpenOptions::default()) {
        return subject(&space, None);
    }
    let mut out = 0;
    for page_size in [4096, 16384] {
        let options = OpenOptions {
            page_size: Some(page_size),
            ..OpenOptions::default()
        };
        if let Ok(space) = Tablespace::open(scratch, options) {
            out += subject(&space, Some(page_size));
        }
    }
    out
}

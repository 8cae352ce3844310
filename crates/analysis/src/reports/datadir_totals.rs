//! Totals of the data-directory forms of `pages` and `sdi`, and the files
//! whose report is missing for a reason that is not a failure.

use crate::reports::datadir_report::{sum, FileResult};
use crate::reports::sdi_report::SdiReport;
use serde::Serialize;

/// Totals of `pages` over a data directory, counted as the files are listed.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct PagesTotals {
    /// Files read.
    pub files: usize,
    /// Files that could not be read.
    pub errors: usize,
    /// Pages listed (those that pass `--type` and `--range`).
    pub pages: u64,
}

/// Totals of `sdi` over a data directory.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct SdiTotals {
    /// Files read.
    pub files: usize,
    /// Files that could not be read.
    pub errors: usize,
    /// Files with an SDI index.
    pub with_sdi: usize,
    /// Files without one (MariaDB, MySQL before 8.0): not an error.
    pub without_sdi: usize,
    /// SDI objects in all files.
    pub objects: u64,
}

impl SdiTotals {
    /// The totals of `files`.
    pub fn of(files: &[FileResult<SdiReport>]) -> Self {
        SdiTotals {
            files: files.len(),
            errors: files.iter().filter(|f| f.error.is_some()).count(),
            with_sdi: files.iter().filter(|f| f.report.is_some()).count(),
            without_sdi: files.iter().filter(|f| f.note.is_some()).count(),
            objects: sum(files, |r| r.records.len() as u64),
        }
    }
}

/// Each file's report, or, where the inner result is `Err`, no report and
/// that text as the file's note (a reason that is no failure).
pub fn with_notes<R>(files: Vec<FileResult<Result<R, String>>>) -> Vec<FileResult<R>> {
    files
        .into_iter()
        .map(|f| {
            let (report, note) = match f.report {
                Some(Ok(r)) => (Some(r), None),
                Some(Err(n)) => (None, Some(n)),
                None => (None, None),
            };
            FileResult {
                file: f.file,
                bytes: f.bytes,
                report,
                error: f.error,
                note: note.or(f.note),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(
        report: Option<Result<u32, String>>,
        error: Option<&str>,
    ) -> FileResult<Result<u32, String>> {
        FileResult {
            file: "f".into(),
            bytes: 1,
            report,
            error: error.map(String::from),
            note: None,
        }
    }

    #[test]
    fn notes_are_neither_reports_nor_errors() {
        let out = with_notes(vec![
            file(Some(Ok(7)), None),
            file(Some(Err("no SDI".into())), None),
            file(None, Some("unreadable")),
        ]);
        let got: Vec<_> = out
            .iter()
            .map(|f| (f.report, f.error.as_deref(), f.note.as_deref()))
            .collect();
        assert_eq!(
            got,
            vec![
                (Some(7), None, None),
                (None, None, Some("no SDI")),
                (None, Some("unreadable"), None)
            ]
        );
    }
}

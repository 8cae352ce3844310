//! `doublewrite`: the slots of MySQL 8.0.20+'s doublewrite files (or of the
//! doublewrite area of a system tablespace), each copy verified and, with
//! `--datadir`, compared with the page in its tablespace.

use crate::inputs::Inputs;
use crate::output::{Named, Output};
use crate::{CliError, EXIT_BAD_PAGES, EXIT_FATAL};
use innodb_analysis::reports::datadir_report::{DatadirReport, FileResult};
use innodb_analysis::reports::doublewrite_report::{self, DoublewriteReport, DoublewriteTotals};
use innodb_analysis::reports::doublewrite_sources::{Source, Sources, Spaces};
use innodb_render::doublewrite_text;
use innodb_space::datadir::{DataDir, FileKind};
use innodb_space::{DoublewriteFile, SpaceError};
use std::path::PathBuf;

/// `doublewrite [FILE…] [--all]`: the files given, compared with the
/// tablespaces of `--datadir` when it is given; with no file, every
/// doublewrite file of `--datadir`. Exit 0 when every copy verifies and no
/// page needs one, 1 otherwise, 2 when a file cannot be read.
pub fn run(
    inputs: &Inputs,
    files: &[PathBuf],
    all: bool,
    out: &mut Output,
) -> Result<u8, CliError> {
    let (sources, errors, datadir) = if files.is_empty() {
        let dir = inputs.datadir("doublewrite")?;
        let (sources, errors) = Sources::of_datadir(dir, &inputs.options);
        (sources, errors, Some(dir))
    } else {
        let mut list = Vec::new();
        let mut errors = Vec::new();
        for f in files {
            match Source::open(&inputs.locate(f), &inputs.options) {
                Ok(s) => list.push(s),
                Err(e) => errors.push((f.display().to_string(), e.to_string())),
            }
        }
        (Sources::new(list), errors, None)
    };
    let spaces = inputs.datadir.as_ref().map(|d| spaces(inputs, d));
    let reports = doublewrite_report::build(&sources, spaces.as_ref());
    let bad = !reports.iter().all(DoublewriteReport::all_good);
    let fatal = !errors.is_empty();
    match datadir {
        Some(dir) => {
            let r = datadir_report(dir, reports, errors);
            if r.files.is_empty() {
                return Err(CliError::file(
                    &dir.root,
                    "no doublewrite file (#ib_*.dblwr) and no doublewrite area in its system tablespace",
                ));
            }
            out.report(inputs.format, &r, |r| doublewrite_text::datadir(r, all));
        }
        None => {
            for (f, e) in &errors {
                out.say(&format!("error: {f}: {e}"));
            }
            report_files(inputs, &reports, out, |r| doublewrite_text::files(r, all));
        }
    }
    Ok(if fatal {
        EXIT_FATAL
    } else if bad {
        EXIT_BAD_PAGES
    } else {
        0
    })
}

/// The reports of the files given, as one JSON object naming them.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Reports<'r> {
    /// One per file, in the order given.
    pub reports: &'r [DoublewriteReport],
}

/// Writes `reports` (of the files given) as text (made by `text`) or as
/// JSON: `{"file" or "files", "reports": […]}`.
fn report_files(
    inputs: &Inputs,
    reports: &[DoublewriteReport],
    out: &mut Output,
    text: impl FnOnce(&[DoublewriteReport]) -> String,
) {
    let paths: Vec<&std::path::Path> = reports.iter().map(|r| r.file.as_ref()).collect();
    let listed = Reports { reports };
    let named = Named::new(&paths, &listed);
    out.report(inputs.format, &named, |n| text(n.report.reports));
}

/// The tablespaces of `dir` by space id, each opened once.
pub fn spaces(inputs: &Inputs, dir: &DataDir) -> Spaces {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    Spaces::of_datadir(dir, &inputs.options, threads).0
}

/// The report over a data directory: a source a file, the doublewrite
/// files named as read rather than skipped.
fn datadir_report(
    dir: &DataDir,
    reports: Vec<DoublewriteReport>,
    errors: Vec<(String, String)>,
) -> DatadirReport<DoublewriteReport, DoublewriteTotals> {
    let mut files: Vec<FileResult<DoublewriteReport>> = reports
        .into_iter()
        .map(|r| FileResult {
            bytes: std::fs::metadata(&r.file).map(|m| m.len()).unwrap_or(0),
            file: r.file.clone(),
            report: Some(r),
            error: None,
            note: None,
        })
        .collect();
    files.extend(errors.into_iter().map(|(f, e)| FileResult {
        file: dir.root.join(&f).display().to_string(),
        bytes: 0,
        report: None,
        error: Some(e),
        note: None,
    }));
    DatadirReport {
        totals: DoublewriteTotals::of(&files),
        datadir: dir.root.display().to_string(),
        server: dir.server.clone(),
        skipped: read_doublewrite(dir),
        files,
    }
}

/// The directory's skipped files without its doublewrite files, which
/// `doublewrite` and `checksum` read.
pub fn read_doublewrite(dir: &DataDir) -> Vec<innodb_space::datadir::SkippedFile> {
    dir.skipped
        .iter()
        .filter(|s| s.kind != FileKind::Doublewrite)
        .cloned()
        .collect()
}

/// What `summary`, `pages` and `page` do when the file they were given is
/// a doublewrite file (by its name, or, renamed, by its content): the
/// opening error [`SpaceError::Doublewrite`] becomes `then(file)`; any
/// other error is returned as it is.
pub fn instead(
    inputs: &Inputs,
    error: CliError,
    then: impl FnOnce(DoublewriteFile) -> Result<u8, CliError>,
) -> Result<u8, CliError> {
    match error {
        CliError::Space(SpaceError::Doublewrite { path, .. }) => {
            then(DoublewriteFile::open(&path, &inputs.options)?)
        }
        e => Err(e),
    }
}

/// `summary FILE` and `pages FILE` of a doublewrite file: the file's report,
/// its slots listed (`pages`) or only counted (`summary`).
pub fn of_file(
    inputs: &Inputs,
    file: DoublewriteFile,
    list: bool,
    out: &mut Output,
) -> Result<u8, CliError> {
    let sources = Sources::new(vec![Source::File(file)]);
    let spaces = inputs.datadir.as_ref().map(|d| spaces(inputs, d));
    let reports = doublewrite_report::build(&sources, spaces.as_ref());
    if list {
        report_files(inputs, &reports, out, |r| doublewrite_text::files(r, true));
    } else {
        report_files(inputs, &reports, out, doublewrite_text::summary);
    }
    Ok(0)
}

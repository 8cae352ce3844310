//! `checksum`: verify every page of the files given, or of every
//! tablespace of a data directory.

use crate::inputs::Inputs;
use crate::output::Output;
use crate::runner::over;
use crate::{CliError, EXIT_BAD_PAGES, EXIT_FATAL};
use innodb_analysis::reports::datadir_report::ChecksumTotals;
use innodb_analysis::reports::doublewrite_sources::Sources;
use innodb_analysis::ChecksumReport;
use innodb_render::{datadir_text, text};
use innodb_space::{DoublewriteFile, SpaceError};
use std::path::PathBuf;

/// `checksum [FILE…] --threads N`: exit 0 when every page verifies, 1 when
/// some page does not (or cannot be verified), 2 when a file cannot be read.
pub fn run(inputs: &Inputs, files: &[PathBuf], out: &mut Output) -> Result<u8, CliError> {
    let threads = inputs.threads;
    if files.is_empty() {
        return datadir(inputs, threads, out);
    }
    let sources = inputs
        .datadir
        .as_ref()
        .map(|d| Sources::of_datadir(d, &inputs.options).0);
    let mut reports = Vec::with_capacity(files.len());
    let mut fatal = false;
    for f in files {
        let report = inputs
            .open(f)
            .map(|space| {
                let mut r = ChecksumReport::build_threads(&space, threads);
                if let Some(s) = &sources {
                    r.find_doublewrite_copies(&space, s);
                }
                r
            })
            .or_else(|e| match e {
                CliError::Space(SpaceError::Doublewrite { path, .. }) => {
                    let file = DoublewriteFile::open(&path, &inputs.options)?;
                    Ok(ChecksumReport::of_doublewrite_file(&file))
                }
                e => Err(e),
            });
        match report {
            Ok(r) => reports.push(r),
            Err(e) => {
                out.say(&format!("error: {e}"));
                fatal = true;
            }
        }
    }
    // JSON: one object, as every command gives, each file's report in `files`.
    let all = Checksums { files: &reports };
    out.report(inputs.format, &all, |a| text::checksums(a.files));
    Ok(if fatal {
        EXIT_FATAL
    } else if reports.iter().all(ChecksumReport::all_valid) {
        0
    } else {
        EXIT_BAD_PAGES
    })
}

/// The reports of the files given, as JSON names them.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Checksums<'a> {
    /// One report per file, in the order given.
    pub files: &'a [ChecksumReport],
}

/// Every tablespace of the data directory, files in parallel; each file on
/// one thread unless asked.
fn datadir(inputs: &Inputs, threads: usize, out: &mut Output) -> Result<u8, CliError> {
    let threads = threads.max(1);
    let dir = inputs.datadir("checksum")?;
    let (sources, unread) = Sources::of_datadir(dir, &inputs.options);
    let files = over(inputs, "checksum", |space| {
        let mut r = ChecksumReport::build_threads(space, threads);
        r.find_doublewrite_copies(space, &sources);
        Ok(r)
    })?;
    let mut r = files.with_totals(ChecksumTotals::of);
    // The doublewrite files were read (for their copies): not skipped.
    if unread.is_empty() {
        r.skipped = super::doublewrite::read_doublewrite(dir);
    }
    r.totals.doublewrite_files = sources.files();
    let bad = r
        .files
        .iter()
        .any(|f| f.report.as_ref().is_some_and(|x| !x.all_valid()));
    let fatal = r.totals.errors > 0;
    out.report(inputs.format, &r, datadir_text::checksum);
    Ok(if fatal {
        EXIT_FATAL
    } else if bad {
        EXIT_BAD_PAGES
    } else {
        0
    })
}

//! Reports over every tablespace of `--datadir` at once, in parallel.

use crate::{Cli, CliError};
use innodb_analysis::reports::datadir_report::{
    over_files, tablespaces, DatadirReport, FileResult,
};
use innodb_analysis::reports::datadir_totals::{with_notes, SdiTotals};
use innodb_analysis::reports::sdi_report::{NoSdi, SdiReport};
use innodb_space::{OpenOptions, Tablespace};

/// Every tablespace of the `--datadir`, each made into a report by `work`
/// on a thread of its own (one per CPU at most).
pub fn over<R: Send>(
    cli: &Cli,
    options: OpenOptions,
    command: &str,
    work: impl Fn(&Tablespace) -> Result<R, String> + Sync,
) -> Result<(String, Vec<FileResult<R>>), CliError> {
    let Some(dir) = &cli.datadir else {
        return Err(CliError::Usage(format!(
            "{command} needs a FILE, or --datadir DIR for every tablespace of a data directory"
        )));
    };
    let files = tablespaces(dir);
    if files.is_empty() {
        return Err(CliError::Usage(format!(
            "{}: no tablespace files (ibdata*, undo*, */*.ibd)",
            dir.display()
        )));
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let results = over_files(&files, threads, |p| {
        let space = Tablespace::open(p, options).map_err(|e| e.to_string())?;
        work(&space)
    });
    Ok((dir.display().to_string(), results))
}

/// The report with its totals.
pub fn with_totals<R, T>(
    (datadir, files): (String, Vec<FileResult<R>>),
    totals: impl Fn(&[FileResult<R>]) -> T,
) -> DatadirReport<R, T> {
    let totals = totals(&files);
    DatadirReport {
        datadir,
        files,
        totals,
    }
}

/// The exit status of a report over a data directory: 1 when any file
/// gave no report because it could not be read.
pub fn status(errors: usize) -> u8 {
    u8::from(errors > 0)
}

/// `--datadir DIR sdi`: every tablespace's SDI, made in parallel; a file
/// without an SDI index (MariaDB, MySQL before 8.0) says so in its place
/// and is no failure.
pub fn sdi(
    cli: &Cli,
    options: OpenOptions,
) -> Result<DatadirReport<SdiReport, SdiTotals>, CliError> {
    let (dir, files) = over(cli, options, "sdi", |s| match SdiReport::build(s) {
        Ok(r) => Ok(Ok(r)),
        Err(NoSdi::NoSdiIndex) => Ok(Err(NO_SDI.to_string())),
        Err(NoSdi::NoSpaceMap(e)) => Err(crate::no_map_text(e)),
    })?;
    Ok(with_totals((dir, with_notes(files)), SdiTotals::of))
}

/// Why a file has no SDI.
pub const NO_SDI: &str =
    "no SDI index: only MySQL 8.0 and later keep the dictionary in the tablespace";

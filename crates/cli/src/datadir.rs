//! Reports over every tablespace of `--datadir` at once, in parallel.

use crate::{Cli, CliError};
use innodb_analysis::datadir_report::{over_files, tablespaces, DatadirReport, FileResult};
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

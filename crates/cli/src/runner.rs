//! One runner for the reports made of each tablespace on its own: of the
//! file given, or, with `--datadir` and no file, of every tablespace of the
//! data directory at once (in parallel), a line or a section per file and
//! the totals.

use crate::inputs::Inputs;
use crate::output::{Kind, Output};
use crate::CliError;
use innodb_analysis::reports::datadir_report::{over_files, DatadirReport, FileResult};
use innodb_format::vendor::Vendor;
use innodb_render::Serialize;
use innodb_space::datadir::{Server, SkippedFile};
use innodb_space::Tablespace;
use std::path::Path;

/// Every tablespace's result over a data directory, before the totals.
pub struct Files<R> {
    /// The directory, as given.
    pub datadir: String,
    /// Which server wrote it.
    pub server: Server,
    /// Its files that are not read, and why.
    pub skipped: Vec<SkippedFile>,
    /// Per tablespace, in the directory's order.
    pub files: Vec<FileResult<R>>,
}

impl<R> Files<R> {
    /// The report with the totals `totals` makes of the files.
    pub fn with_totals<T>(self, totals: impl Fn(&[FileResult<R>]) -> T) -> DatadirReport<R, T> {
        DatadirReport {
            totals: totals(&self.files),
            datadir: self.datadir,
            server: self.server,
            skipped: self.skipped,
            files: self.files,
        }
    }

    /// The same directory with its file results made over by `f`.
    pub fn convert<S>(self, f: impl FnOnce(Vec<FileResult<R>>) -> Vec<FileResult<S>>) -> Files<S> {
        Files {
            datadir: self.datadir,
            server: self.server,
            skipped: self.skipped,
            files: f(self.files),
        }
    }
}

/// Every tablespace of the `--datadir`, each made into a report by `work`
/// on a thread of its own (one per CPU at most).
pub fn over<R: Send>(
    inputs: &Inputs,
    command: &'static str,
    work: impl Fn(&Tablespace) -> Result<R, String> + Sync,
) -> Result<Files<R>, CliError> {
    let dir = inputs.datadir(command)?;
    let paths = dir.tablespace_paths();
    if paths.is_empty() {
        return Err(CliError::file(
            &dir.root,
            "no tablespace files (ibdata*, undo*, */*.ibd)",
        ));
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let vendors = std::sync::Mutex::new(Vec::new());
    let files = over_files(&paths, threads, |p| {
        let space = Tablespace::open(p, inputs.options.clone()).map_err(|e| e.to_string())?;
        if let Ok(mut v) = vendors.lock() {
            v.push((p.to_path_buf(), space.format().vendor));
        }
        work(&space)
    });
    // A table file of the other server's family (copied in) is said in
    // the server line, which every report over the directory prints.
    let mut server = dir.server.clone();
    let mut vendors: Vec<(String, Vendor)> = vendors
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(|(path, vendor)| {
            let relative = path.strip_prefix(&dir.root).unwrap_or(&path);
            (relative.display().to_string(), vendor)
        })
        .collect();
    vendors.sort_by(|a, b| a.0.cmp(&b.0));
    server.note_tablespaces(&vendors);
    Ok(Files {
        datadir: dir.root.display().to_string(),
        server,
        skipped: dir.skipped.clone(),
        files,
    })
}

/// The exit status of a report over a data directory: 1 when any file
/// gave no report because it could not be read.
pub fn status<R>(files: &[FileResult<R>]) -> u8 {
    u8::from(files.iter().any(|f| f.error.is_some()))
}

/// A report made of each tablespace on its own.
pub struct PerFile<'a, R, T> {
    /// The command, for messages.
    pub command: &'static str,
    /// The report of one file.
    pub build: &'a (dyn Fn(&Tablespace) -> Result<R, CliError> + Sync),
    /// One file's report as text.
    pub text: &'a dyn Fn(&R) -> String,
    /// The totals over a data directory.
    pub totals: fn(&[FileResult<R>]) -> T,
    /// A data directory's report as text.
    pub datadir_text: &'a dyn Fn(&DatadirReport<R, T>) -> String,
    /// What the text is: `Kind::Coloured` when it carries colour escapes.
    pub kind: Kind,
}

impl<R: Serialize + Send, T: Serialize> PerFile<'_, R, T> {
    /// The report of `file`, or with none, of every tablespace of the data
    /// directory; returns the exit status.
    pub fn run(
        &self,
        inputs: &Inputs,
        file: Option<&Path>,
        out: &mut Output,
    ) -> Result<u8, CliError> {
        if let Some(file) = file {
            let report = (self.build)(&inputs.open(file)?)?;
            out.report_as(inputs.format, &report, self.text, self.kind);
            return Ok(0);
        }
        let files = over(inputs, self.command, |s| {
            (self.build)(s).map_err(|e| e.in_datadir())
        })?;
        let report = files.with_totals(self.totals);
        out.report_as(inputs.format, &report, self.datadir_text, self.kind);
        Ok(status(&report.files))
    }
}

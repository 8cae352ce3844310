//! The command line's inputs, resolved once: how to open files, the data
//! directory read and classified, the system tablespace, and the data
//! dictionary (read when a command first asks for it).

use crate::args::{Cli, Command, Format};
use crate::progress::Progress;
use crate::CliError;
use innodb_space::datadir::{DataDir, DataDirOptions};
use innodb_space::dictionary::Dictionary;
use innodb_space::{OpenOptions, Tablespace};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// What every command works from.
pub struct Inputs {
    /// The output format.
    pub format: Format,
    /// How to open every file (`--page-size`).
    pub options: OpenOptions,
    /// `--system`: the system tablespace whose dictionary names tables.
    pub system: Option<PathBuf>,
    /// `--datadir`, read and classified.
    pub datadir: Option<DataDir>,
    /// The dictionary, once read (or why it cannot be).
    dictionary: OnceLock<Result<Option<Arc<Dictionary>>, String>>,
    /// The progress bar the opened files count into.
    progress: Progress,
}

impl Inputs {
    /// Resolves the global options of `cli`: the data directory is read
    /// here, once; nothing else is opened until a command asks.
    pub fn resolve(cli: &Cli) -> Result<Inputs, CliError> {
        let options = DataDirOptions {
            undo_directory: cli.undo_directory.clone(),
        };
        let datadir = match &cli.datadir {
            Some(dir) => Some(DataDir::open(dir, &options)?),
            None => None,
        };
        // A bar on stderr for scans over a second (not under the browser,
        // which owns the terminal).
        let quiet = cli.quiet || matches!(cli.command, Command::Browse { .. });
        Ok(Inputs {
            format: cli.format,
            options: OpenOptions {
                page_size: cli.page_size.map(|s| s.0),
                gz_limit: cli.gz_limit.map(|s| s.0),
                changed: Some(Arc::default()),
            },
            system: cli.system.clone(),
            datadir,
            dictionary: OnceLock::new(),
            progress: Progress::start(quiet),
        })
    }

    /// These inputs with `dict` as the dictionary, whatever `--system` or
    /// `--datadir` say (a caller that has read one already).
    pub fn with_dictionary(self, dict: Option<Arc<Dictionary>>) -> Inputs {
        Inputs {
            dictionary: OnceLock::from(Ok(dict)),
            ..self
        }
    }

    /// `file` as given, or, when it does not exist, inside `--datadir`
    /// (also with `.ibd` and `.gz` added).
    pub fn locate(&self, file: &Path) -> PathBuf {
        if file.exists() {
            return file.to_path_buf();
        }
        self.datadir
            .as_ref()
            .and_then(|d| d.locate(file))
            .unwrap_or_else(|| file.to_path_buf())
    }

    /// Opens `file` (located as [`Self::locate`] says), its scans counted
    /// into the progress bar.
    pub fn open(&self, file: &Path) -> Result<Tablespace, CliError> {
        let mut space = Tablespace::open(self.locate(file), self.options.clone())?;
        self.progress.attach(&mut space);
        Ok(space)
    }

    /// The data directory, for a command given no file.
    pub fn datadir(&self, command: &'static str) -> Result<&DataDir, CliError> {
        self.datadir
            .as_ref()
            .ok_or(CliError::NeedsFileOrDatadir(command))
    }

    /// The data dictionary of `--system`, else of the data directory's
    /// system tablespace; none without either (MySQL 8.0+ keeps its
    /// dictionary in `mysql.ibd` and each file's SDI, which the commands
    /// read by themselves). Read on the first call.
    pub fn dictionary(&self) -> Result<Option<&Dictionary>, CliError> {
        self.dictionary_arc().map(|d| d.map(|d| &**d))
    }

    /// [`Self::dictionary`], shared.
    pub fn dictionary_arc(&self) -> Result<Option<&Arc<Dictionary>>, CliError> {
        match self.dictionary.get_or_init(|| self.read_dictionary()) {
            Ok(d) => Ok(d.as_ref()),
            Err(e) => Err(CliError::Dictionary(e.clone())),
        }
    }

    fn read_dictionary(&self) -> Result<Option<Arc<Dictionary>>, String> {
        if let Some(path) = &self.system {
            let space = Tablespace::open(path, self.options.clone()).map_err(|e| e.to_string())?;
            return Dictionary::read(&space).map(|d| Some(Arc::new(d)));
        }
        let Some(system) = self.datadir.as_ref().and_then(|d| d.system()) else {
            return Ok(None);
        };
        let space =
            Tablespace::open(&system.path, self.options.clone()).map_err(|e| e.to_string())?;
        match Dictionary::read(&space) {
            Ok(d) => Ok(Some(Arc::new(d))),
            Err(_) if space.format().vendor == innodb_format::vendor::Vendor::MySql => Ok(None),
            Err(e) => Err(format!("{}: {e}", system.path.display())),
        }
    }

    /// The system tablespace and undo tablespaces named by `files` (the
    /// system tablespace first), or those of `--datadir`.
    pub fn undo_spaces(
        &self,
        files: &[PathBuf],
        command: &str,
    ) -> Result<(Tablespace, Vec<Tablespace>), CliError> {
        let mut paths: Vec<PathBuf> = files.iter().map(|f| self.locate(f)).collect();
        if let (true, Some(dir)) = (paths.is_empty(), &self.datadir) {
            paths = dir.undo_paths();
        }
        let Some((system, undo)) = paths.split_first() else {
            return Err(CliError::Usage(format!(
                "{command} needs the system tablespace (ibdata1), and any undo tablespaces, or --datadir"
            )));
        };
        Ok((self.open_plain(system)?, self.open_all(undo)?))
    }

    /// True when a file opened through these inputs changed length while
    /// it was read.
    pub fn changed_while_read(&self) -> bool {
        self.options
            .changed
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Refuses an output path (a PNG, or a directory of PNGs) inside the
    /// data directory being read: evidence is never written into, and a
    /// later `--datadir` run would read what was written there.
    pub fn check_output(&self, path: Option<&Path>) -> Result<(), CliError> {
        let (Some(path), Some(dir)) = (path, &self.datadir) else {
            return Ok(());
        };
        let (Some(out), Ok(root)) = (resolved(path), dir.root.canonicalize()) else {
            return Ok(());
        };
        if out.starts_with(&root) {
            return Err(CliError::file(
                path,
                format!(
                    "is inside the data directory {} being read: write the output elsewhere (innodb-inspect never writes into the files it reads)",
                    dir.root.display()
                ),
            ));
        }
        Ok(())
    }

    /// Opens `path` as it is, without the progress bar.
    pub fn open_plain(&self, path: &Path) -> Result<Tablespace, CliError> {
        Ok(Tablespace::open(path, self.options.clone())?)
    }

    /// Opens every one of `paths` as it is.
    pub fn open_all(&self, paths: &[PathBuf]) -> Result<Vec<Tablespace>, CliError> {
        paths.iter().map(|p| self.open_plain(p)).collect()
    }
}

/// `path` with every link and `..` resolved, as far as it exists: its
/// existing ancestor resolved, the rest appended.
fn resolved(path: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    let mut tail = Vec::new();
    let mut at = absolute.as_path();
    loop {
        if let Ok(real) = at.canonicalize() {
            return Some(tail.iter().rev().fold(real, |p, part| p.join(part)));
        }
        tail.push(at.file_name()?.to_os_string());
        at = at.parent()?;
    }
}

/// Largest file an argument names that is read whole (`--ddl`): a
/// `CREATE TABLE` statement is kilobytes.
pub const ARGUMENT_FILE_LIMIT: u64 = 1 << 20;

/// The text of a file an argument names (`what`: the option), read only
/// when it is a regular file of at most [`ARGUMENT_FILE_LIMIT`] bytes: a
/// FIFO would block, a device (`/dev/zero`) never end.
pub fn read_argument_file(path: &Path, what: &str) -> Result<String, CliError> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| CliError::file(path, e.to_string()))?;
    if !meta.is_file() {
        return Err(CliError::file(
            path,
            format!("{what} names no regular file (a directory, FIFO, socket or device)"),
        ));
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(ARGUMENT_FILE_LIMIT + 1).read_to_string(&mut text))
        .map_err(|e| CliError::file(path, e.to_string()))?;
    if text.len() as u64 > ARGUMENT_FILE_LIMIT {
        return Err(CliError::file(
            path,
            format!("{what} is longer than {ARGUMENT_FILE_LIMIT} bytes: not read"),
        ));
    }
    Ok(text)
}

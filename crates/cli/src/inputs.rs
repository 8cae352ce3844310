//! The command line's inputs, resolved once: how to open files, the data
//! directory read and classified, the system tablespace, and the data
//! dictionary (read when a command first asks for it).

use crate::args::{Cli, Command, Format};
use crate::progress::Progress;
use crate::CliError;
use innodb_analysis::dictionary::{mysql_ibd, MYSQL_DICTIONARY_SPACE_ID};
use innodb_analysis::reports::naming::IndexNames;
use innodb_space::datadir::{DataDir, DataDirOptions};
use innodb_space::dictionary::Dictionary;
use innodb_space::{OpenOptions, Tablespace};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Problems reading the dictionary said on stderr one by one, at most.
const MAX_DICTIONARY_FINDINGS: usize = 10;

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
    /// `--threads`: threads per file for the passes that split (0 given
    /// is one per CPU).
    pub threads: usize,
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
            threads: match cli.threads {
                0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
                n => n,
            },
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

    /// A counter of bytes read into the progress bar, for `total` bytes more.
    pub fn progress_bytes(&self, total: u64) -> std::sync::Arc<std::sync::atomic::AtomicU64> {
        self.progress.bytes(total)
    }

    /// Names the phase of work after the scans on the progress bar, at
    /// `done` of `total` things (`total` 0: not counted).
    pub fn progress_phase(&self, label: &str, done: u64, total: u64) {
        self.progress.phase(label, done, total);
    }

    /// The data directory, for a command given no file.
    pub fn datadir(&self, command: &'static str) -> Result<&DataDir, CliError> {
        self.datadir
            .as_ref()
            .ok_or(CliError::NeedsFileOrDatadir(command))
    }

    /// The data dictionary: of `--system` (`ibdata1`'s `SYS_*` tables, or
    /// MySQL 8.0+'s in a `mysql.ibd` given there), else of the data
    /// directory (`mysql.ibd`, else every file's SDI, else `ibdata1`); none
    /// without either. Read on the first call.
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

    /// The dictionary that describes the file `space`: [`Self::dictionary`]
    /// when it holds the file's tables, else the file's own SDI.
    pub fn dictionary_for<'a>(
        &'a self,
        space: &Tablespace,
    ) -> Result<Cow<'a, Dictionary>, CliError> {
        Ok(innodb_analysis::dictionary::for_file(
            space,
            self.dictionary()?,
            self.options.clone(),
        ))
    }

    /// The names of the indexes of `space` (`db/table.index`, `SDI`).
    pub fn index_names(&self, space: &Tablespace) -> Result<IndexNames, CliError> {
        let dict = self.dictionary_for(space)?;
        Ok(IndexNames::of(&dict, space.space_id()))
    }

    /// What reading the dictionary had to say (a source missing or
    /// damaged, the choice made in a directory of two servers), as lines
    /// for stderr; nothing when it was not read.
    pub fn dictionary_notes(&self) -> Vec<String> {
        let Some(Ok(Some(d))) = self.dictionary.get() else {
            return Vec::new();
        };
        let mut lines: Vec<String> = d.notes.iter().map(|n| format!("note: {n}")).collect();
        lines.extend(
            d.findings
                .iter()
                .take(MAX_DICTIONARY_FINDINGS)
                .map(|f| format!("warning: the dictionary: {f}")),
        );
        if d.findings.len() > MAX_DICTIONARY_FINDINGS {
            lines.push(format!(
                "warning: the dictionary: {} more problems",
                d.findings.len() - MAX_DICTIONARY_FINDINGS
            ));
        }
        lines
    }

    fn read_dictionary(&self) -> Result<Option<Arc<Dictionary>>, String> {
        if let Some(path) = &self.system {
            let space = Tablespace::open(path, self.options.clone()).map_err(|e| e.to_string())?;
            if space.space_id() == MYSQL_DICTIONARY_SPACE_ID {
                return mysql_ibd::read(&space).map(|d| Some(Arc::new(d)));
            }
            return Dictionary::read(&space).map(|d| mysql_8_empty(&space, d));
        }
        let Some(dir) = &self.datadir else {
            return Ok(None);
        };
        innodb_analysis::dictionary::of_datadir(dir, self.options.clone()).map(|d| d.map(Arc::new))
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
        if paths.is_empty() {
            return Err(CliError::Usage(format!(
                "{command} needs the system tablespace (ibdata1), and any undo tablespaces, or --datadir"
            )));
        }
        let mut spaces = self.open_all(&paths)?;
        // The system tablespace first, wherever it was given.
        let system = spaces
            .iter()
            .position(is_system_tablespace)
            .ok_or_else(|| not_a_system_tablespace(&spaces, command))?;
        let system = spaces.remove(system);
        Ok((system, spaces))
    }

    /// The system tablespace `path` opened, or why it is none.
    pub fn open_system(&self, path: &Path, command: &str) -> Result<Tablespace, CliError> {
        let space = self.open_plain(path)?;
        if is_system_tablespace(&space) {
            Ok(space)
        } else {
            Err(not_a_system_tablespace(
                std::slice::from_ref(&space),
                command,
            ))
        }
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

/// The dictionary read from `system`, or none when it holds no table and
/// `system` is MySQL 8.0+'s: that server keeps its dictionary in
/// `mysql.ibd` and each tablespace's SDI, which the commands read instead.
fn mysql_8_empty(system: &Tablespace, d: Dictionary) -> Option<Arc<Dictionary>> {
    let mysql_8 = innodb_space::undo_tablespaces::is_mysql_8(system);
    (!(mysql_8 && d.tables.is_empty())).then(|| Arc::new(d))
}

/// True for a system tablespace: space id 0, or (page 0 damaged) a TRX_SYS
/// page where the system tablespace has it.
fn is_system_tablespace(space: &Tablespace) -> bool {
    if space.space_id() == 0 {
        return true;
    }
    let mut buf = Vec::new();
    innodb_space::logical_pages::LogicalPages::new(space)
        .read_into(innodb_format::sys::trx_sys::TRX_SYS_PAGE_NO, &mut buf)
        .is_some_and(|c| c.page_type == innodb_format::fil::page_type::PageType::TYPE_TRX_SYS)
}

/// Why none of `spaces` (the first named) can be the system tablespace.
fn not_a_system_tablespace(spaces: &[Tablespace], command: &str) -> CliError {
    let Some(first) = spaces.first() else {
        return CliError::Usage(format!("{command} needs the system tablespace (ibdata1)"));
    };
    let id = first.space_id();
    let what = match innodb_format::undo::undo_space_id::undo_space_id(id) {
        Some(u) => format!(
            "it is undo tablespace number {} of a MySQL 8.0+ server (space id {id})",
            u.number
        ),
        None => format!("its space id is {id}, not 0, and page 5 is no TRX_SYS page"),
    };
    CliError::file(
        first.path(),
        format!(
            "not a system tablespace: {what}. {command} reads the rollback segments from the system tablespace's TRX_SYS page: give ibdata1 too (ibdata1 undo_001 undo_002 …), or --datadir"
        ),
    )
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

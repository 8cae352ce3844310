//! Why a command could not do its work (exit code 2).

use innodb_space::datadir::DataDirError;
use innodb_space::SpaceError;
use std::path::{Path, PathBuf};

/// Why a command could not do its work.
#[derive(Debug)]
pub enum CliError {
    /// A file could not be read as a tablespace.
    Space(SpaceError),
    /// The data directory could not be read.
    DataDir(DataDirError),
    /// A report that needs the space map, of a file whose page 0 is unusable.
    NoSpaceMap(PathBuf),
    /// A command that takes a file or, with `--datadir`, every tablespace
    /// of a data directory, given neither.
    NeedsFileOrDatadir(&'static str),
    /// A problem with one file: `file: message`.
    File {
        /// The file.
        file: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The data dictionary that names tables and types rows cannot be read.
    Dictionary(String),
    /// The arguments do not fit each other.
    Usage(String),
}

impl CliError {
    /// A problem with `file`.
    pub fn file(file: &Path, message: impl Into<String>) -> CliError {
        CliError::File {
            file: file.to_path_buf(),
            message: message.into(),
        }
    }

    /// What stands in a data directory's report for a file that gave no
    /// report: the message without the file name, which the report shows.
    pub fn in_datadir(&self) -> String {
        match self {
            CliError::NoSpaceMap(_) => "page 0 is unusable: no space map".into(),
            CliError::File { message, .. } => message.clone(),
            e => e.to_string(),
        }
    }
}

impl From<SpaceError> for CliError {
    fn from(e: SpaceError) -> Self {
        CliError::Space(e)
    }
}

impl From<DataDirError> for CliError {
    fn from(e: DataDirError) -> Self {
        CliError::DataDir(e)
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Space(e) => e.fmt(f),
            CliError::DataDir(e) => e.fmt(f),
            CliError::NoSpaceMap(file) => write!(
                f,
                "{}: page 0 is unusable, so there is no FSP header to read extents, segments and index roots from (summary, pages and checksum still work)",
                file.display()
            ),
            CliError::NeedsFileOrDatadir(command) => write!(
                f,
                "{command} needs a FILE, or --datadir DIR for every tablespace of a data directory"
            ),
            CliError::File { file, message } => write!(f, "{}: {message}", file.display()),
            CliError::Dictionary(m) | CliError::Usage(m) => f.write_str(m),
        }
    }
}

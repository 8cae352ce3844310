//! A data directory, read once: every file classified (system, undo and
//! file-per-table tablespaces, partitions, general tablespaces, `mysql.ibd`,
//! doublewrite files, redo logs, `.frm`, `.isl`, …), which server wrote it,
//! and where the names of tables come from. Every command that works on a
//! data directory asks this model, not the file names.

pub mod file_kind;
pub mod server;

pub use file_kind::FileKind;
pub use server::Server;

use serde::Serialize;
use std::path::{Path, PathBuf};

/// One file of a data directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DataDirFile {
    /// Where it is (a `.isl` link's target: where the link points).
    pub path: PathBuf,
    /// Its name relative to the data directory, as reports show it
    /// (`test/t1.ibd`; `test/t1.isl -> /data/t1.ibd` for a link's target).
    pub relative: String,
    /// What it is.
    pub kind: FileKind,
    /// True for a gzip copy (`t1.ibd.gz`), read through an inflated copy.
    pub gzipped: bool,
    /// The database folder it sits in (`test`), for files one level down.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
}

/// A file the reports do not read, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SkippedFile {
    /// Its name relative to the data directory.
    pub file: String,
    /// What it is.
    pub kind: FileKind,
    /// Why it is not read.
    pub reason: String,
}

/// Where the names of tables and indexes and the columns of tables come
/// from, in the order they are tried.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum DictionarySource {
    /// `SYS_TABLES`, `SYS_COLUMNS`, `SYS_INDEXES`, `SYS_FIELDS` in the
    /// system tablespace (MariaDB, MySQL 5.x).
    SysTables {
        /// The system tablespace.
        path: PathBuf,
    },
    /// MySQL 8.0+'s dictionary tables in `mysql.ibd`.
    MysqlIbd {
        /// `mysql.ibd`.
        path: PathBuf,
    },
    /// Each tablespace's own Serialized Dictionary Information (MySQL 8.0+).
    Sdi,
    /// The `.frm` file beside each table (MariaDB, MySQL before 8.0).
    Frm,
}

/// How to read a data directory.
#[derive(Debug, Clone, Default)]
pub struct DataDirOptions {
    /// `innodb_undo_directory`, when the undo tablespaces are kept outside
    /// the data directory.
    pub undo_directory: Option<PathBuf>,
}

/// Why a data directory cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum DataDirError {
    /// The directory (or the undo directory) cannot be listed.
    #[error("{path}: cannot read the directory: {source}")]
    Unreadable {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// A data directory: every file classified, once.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DataDir {
    /// The directory.
    pub root: PathBuf,
    /// Every file found, in the order the reports take the tablespaces:
    /// the top level sorted, then the undo directory's files, then the
    /// database folders' files sorted (a link's target in the link's place).
    pub files: Vec<DataDirFile>,
    /// What the reports do not read, and why.
    pub skipped: Vec<SkippedFile>,
    /// Which server wrote it.
    pub server: Server,
}

/// Files of one folder, sorted, with `.gz` copies beside the originals.
fn list(dir: &Path) -> Result<Vec<(PathBuf, String, bool)>, DataDirError> {
    let entries = std::fs::read_dir(dir).map_err(|source| DataDirError::Unreadable {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut out: Vec<(PathBuf, String, bool)> = entries
        .flatten()
        .map(|e| {
            let path = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            let is_dir = path.is_dir();
            (path, name, is_dir)
        })
        .collect();
    out.sort();
    Ok(out)
}

impl DataDir {
    /// Reads the directory `root` (and the undo directory of `options`):
    /// every file at the top and in each folder one level down is
    /// classified; folders deeper down are named as skipped.
    pub fn open(root: &Path, options: &DataDirOptions) -> Result<DataDir, DataDirError> {
        let mut files = Vec::new();
        let mut skipped = Vec::new();
        let mut folders = Vec::new();
        for (path, name, is_dir) in list(root)? {
            if is_dir {
                folders.push((path, name));
                continue;
            }
            let (stem, gzipped) = file_kind::strip_gz(&name);
            let kind = file_kind::top_level(stem);
            files.push(DataDirFile {
                path,
                relative: name.clone(),
                kind,
                gzipped,
                database: None,
            });
        }
        if let Some(undo_dir) = &options.undo_directory {
            for (path, name, is_dir) in list(undo_dir)? {
                let (stem, gzipped) = file_kind::strip_gz(&name);
                let kind = file_kind::top_level(stem);
                let undo = [FileKind::UndoTablespace, FileKind::UndoTruncationLog];
                if is_dir || !undo.contains(&kind) {
                    continue;
                }
                let relative = path.display().to_string();
                files.push(DataDirFile {
                    path,
                    relative,
                    kind,
                    gzipped,
                    database: None,
                });
            }
        }
        for (dir, dir_name) in folders {
            // A folder that cannot be listed is named, not fatal.
            let Ok(entries) = list(&dir) else {
                skipped.push(SkippedFile {
                    file: format!("{dir_name}/"),
                    kind: FileKind::Other,
                    reason: "the folder cannot be read".into(),
                });
                continue;
            };
            for (path, name, is_dir) in entries {
                let relative = format!("{dir_name}/{name}");
                if is_dir {
                    skipped.push(SkippedFile {
                        file: format!("{relative}/"),
                        kind: FileKind::Other,
                        reason: "folders below a database folder are not read".into(),
                    });
                    continue;
                }
                let (stem, gzipped) = file_kind::strip_gz(&name);
                let kind = file_kind::in_folder(&dir_name, stem);
                let file = DataDirFile {
                    path,
                    relative,
                    kind,
                    gzipped,
                    database: Some(dir_name.clone()),
                };
                if kind == FileKind::Link {
                    files.extend(link_target(&file, stem));
                }
                files.push(file);
            }
        }
        for f in &files {
            let reason = match (f.kind, f.kind.why_skipped()) {
                (FileKind::Link, _) => link_reason(f, &files),
                (_, Some(why)) => why.to_string(),
                (_, None) => continue,
            };
            skipped.push(SkippedFile {
                file: f.relative.clone(),
                kind: f.kind,
                reason,
            });
        }
        let server = Server::detect(root, &files);
        Ok(DataDir {
            root: root.to_path_buf(),
            files,
            skipped,
            server,
        })
    }

    /// The tablespaces the reports read, in order.
    pub fn tablespaces(&self) -> impl Iterator<Item = &DataDirFile> {
        self.files.iter().filter(|f| f.kind.is_tablespace())
    }

    /// The paths of [`Self::tablespaces`].
    pub fn tablespace_paths(&self) -> Vec<PathBuf> {
        self.tablespaces().map(|f| f.path.clone()).collect()
    }

    /// The system tablespace: `ibdata1` (else its gzip copy).
    pub fn system(&self) -> Option<&DataDirFile> {
        let first = |gz: bool| {
            self.files.iter().find(|f| {
                f.kind == FileKind::SystemTablespace
                    && f.gzipped == gz
                    && file_kind::strip_gz(&f.relative).0 == "ibdata1"
            })
        };
        first(false).or_else(|| first(true))
    }

    /// The undo tablespaces, in order.
    pub fn undo(&self) -> impl Iterator<Item = &DataDirFile> {
        self.files
            .iter()
            .filter(|f| f.kind == FileKind::UndoTablespace)
    }

    /// The doublewrite files (`#ib_*.dblwr`, `#ib_*.bdblwr`), in order.
    pub fn doublewrite_files(&self) -> impl Iterator<Item = &DataDirFile> {
        self.files
            .iter()
            .filter(|f| f.kind == FileKind::Doublewrite)
    }

    /// The system tablespace then the undo tablespaces: what the undo
    /// walks read (empty without a system tablespace).
    pub fn undo_paths(&self) -> Vec<PathBuf> {
        let Some(system) = self.system() else {
            return Vec::new();
        };
        std::iter::once(system)
            .chain(self.undo())
            .map(|f| f.path.clone())
            .collect()
    }

    /// The undo tablespace numbers of the truncation logs found
    /// (`undo_<number>_trunc.log`): MySQL 8.0+ was truncating those undo
    /// tablespaces when it stopped.
    pub fn undo_truncation_logs(&self) -> Vec<u32> {
        self.files
            .iter()
            .filter(|f| f.kind == FileKind::UndoTruncationLog)
            .filter_map(|f| {
                let name = f.path.file_name()?.to_string_lossy().into_owned();
                innodb_format::undo::undo_space_id::truncate_log_number(
                    file_kind::strip_gz(&name).0,
                )
            })
            .collect()
    }

    /// Where the names of tables come from, in the order to try them.
    pub fn dictionary_sources(&self) -> Vec<DictionarySource> {
        let mut out = Vec::new();
        let mysql = self
            .files
            .iter()
            .find(|f| f.kind == FileKind::MysqlDictionary);
        if let Some(m) = mysql {
            out.push(DictionarySource::MysqlIbd {
                path: m.path.clone(),
            });
        }
        if mysql.is_some() || self.server.is_mysql_8() {
            out.push(DictionarySource::Sdi);
        } else if let Some(s) = self.system() {
            out.push(DictionarySource::SysTables {
                path: s.path.clone(),
            });
        }
        if self
            .files
            .iter()
            .any(|f| f.kind == FileKind::TableDefinition)
        {
            out.push(DictionarySource::Frm);
        }
        out
    }

    /// `name` as a file of this directory: as given relative to it, or
    /// with `.gz`, `.ibd` or `.ibd.gz` added (`test/t1` → `test/t1.ibd`).
    pub fn locate(&self, name: &Path) -> Option<PathBuf> {
        let base = self.root.join(name);
        let with = |ext: &str| {
            let mut s = base.clone().into_os_string();
            s.push(ext);
            PathBuf::from(s)
        };
        [base.clone(), with(".gz"), with(".ibd"), with(".ibd.gz")]
            .into_iter()
            .find(|p| p.is_file())
    }
}

/// The tablespace a `.isl` link names, when it exists: read in the link's place.
fn link_target(link: &DataDirFile, stem: &str) -> Option<DataDirFile> {
    let target = read_link(&link.path)?;
    if !target.is_file() {
        return None;
    }
    let name = stem.strip_suffix(".isl").unwrap_or(stem);
    Some(DataDirFile {
        relative: format!("{} -> {}", link.relative, target.display()),
        kind: file_kind::in_folder("", &format!("{name}.ibd")),
        path: target,
        gzipped: false,
        database: link.database.clone(),
    })
}

/// Why a link is not read itself: its target is, or is missing.
fn link_reason(link: &DataDirFile, files: &[DataDirFile]) -> String {
    let target = read_link(&link.path);
    match target {
        Some(t) if files.iter().any(|f| f.path == t) => {
            format!(
                "the tablespace it names, {}, is read in its place",
                t.display()
            )
        }
        Some(t) => format!("it names {}, which does not exist", t.display()),
        None => "it names no path".to_string(),
    }
}

/// The path a `.isl` file holds (its first line; at most 4 KiB read).
fn read_link(path: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(4096)
        .read_to_string(&mut text)
        .ok()?;
    let line = text.lines().next()?.trim();
    (!line.is_empty()).then(|| PathBuf::from(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(root: &Path, rel: &str, content: &[u8]) {
        let p = root.join(rel);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(p, content).unwrap();
    }

    /// A MySQL 8 layout of empty files: every name classified, the order
    /// of the reports kept, the skipped files named with their reasons.
    #[test]
    fn a_mysql_8_layout_is_classified() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for f in [
            "ibdata1",
            "undo_001",
            "undo_002",
            "mysql.ibd",
            "gts.ibd",
            "ibtmp1",
            "#ib_16384_0.dblwr",
            "#innodb_redo/#ib_redo9",
            "#innodb_temp/temp_1.ibt",
            "auto.cnf",
            "test/t1.ibd",
            "test/t_part#p#p0.ibd",
            "test/fts_0000000000000451_config.ibd",
            "test/deeper/x.ibd",
        ] {
            touch(root, f, b"");
        }
        let outside = tempfile::tempdir().unwrap();
        let remote = outside.path().join("remote.ibd");
        std::fs::write(&remote, b"").unwrap();
        touch(
            root,
            "test/remote.isl",
            remote.display().to_string().as_bytes(),
        );
        let d = DataDir::open(root, &DataDirOptions::default()).unwrap();
        let read: Vec<(&str, FileKind)> = d
            .tablespaces()
            .map(|f| (f.relative.as_str(), f.kind))
            .collect();
        let link = format!("test/remote.isl -> {}", remote.display());
        assert_eq!(
            read,
            [
                ("gts.ibd", FileKind::GeneralTablespace),
                ("ibdata1", FileKind::SystemTablespace),
                ("mysql.ibd", FileKind::MysqlDictionary),
                ("undo_001", FileKind::UndoTablespace),
                ("undo_002", FileKind::UndoTablespace),
                (
                    "test/fts_0000000000000451_config.ibd",
                    FileKind::FtsAuxiliary
                ),
                (link.as_str(), FileKind::Table),
                ("test/t1.ibd", FileKind::Table),
                ("test/t_part#p#p0.ibd", FileKind::Partition),
            ]
        );
        let skipped: Vec<(&str, FileKind)> = d
            .skipped
            .iter()
            .map(|s| (s.file.as_str(), s.kind))
            .collect();
        assert_eq!(
            skipped,
            [
                ("test/deeper/", FileKind::Other),
                ("#ib_16384_0.dblwr", FileKind::Doublewrite),
                ("auto.cnf", FileKind::Other),
                ("ibtmp1", FileKind::Temporary),
                ("#innodb_redo/#ib_redo9", FileKind::RedoLog),
                ("#innodb_temp/temp_1.ibt", FileKind::Temporary),
                ("test/remote.isl", FileKind::Link),
            ]
        );
        assert!(d.skipped[6].reason.contains("is read in its place"));
        assert_eq!(d.server.family, innodb_format::vendor::Vendor::MySql);
        assert_eq!(d.server.version.as_deref(), Some("8.0 or later"));
        assert_eq!(
            d.dictionary_sources(),
            [
                DictionarySource::MysqlIbd {
                    path: root.join("mysql.ibd")
                },
                DictionarySource::Sdi
            ]
        );
        assert_eq!(
            d.system().map(|f| f.path.clone()),
            Some(root.join("ibdata1"))
        );
        assert_eq!(
            d.undo_paths(),
            [
                root.join("ibdata1"),
                root.join("undo_001"),
                root.join("undo_002")
            ]
        );
        assert_eq!(
            d.locate(Path::new("test/t1")),
            Some(root.join("test/t1.ibd"))
        );
        assert_eq!(d.locate(Path::new("test/none")), None);
    }

    /// A real MariaDB 10.11 data directory of the fixtures: the system
    /// tablespace, its three undo tablespaces and the tables, the server
    /// told from page 0 of `ibdata1.gz`, the dictionary from SYS_*.
    #[test]
    fn a_real_mariadb_directory() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/p16k-undo/files");
        let d = DataDir::open(&root, &DataDirOptions::default()).unwrap();
        let read: Vec<(&str, FileKind)> = d
            .tablespaces()
            .map(|f| (f.relative.as_str(), f.kind))
            .collect();
        assert_eq!(
            read,
            [
                ("ibdata1.gz", FileKind::SystemTablespace),
                ("undo001.gz", FileKind::UndoTablespace),
                ("undo002.gz", FileKind::UndoTablespace),
                ("undo003.gz", FileKind::UndoTablespace),
                ("test/t_ordered.ibd.gz", FileKind::Table),
                ("test/t_undo.ibd.gz", FileKind::Table),
            ]
        );
        assert!(d.skipped.is_empty());
        assert_eq!(d.server.family, innodb_format::vendor::Vendor::MariaDb);
        assert_eq!(d.server.version, None);
        assert_eq!(
            d.server.evidence,
            ["ibdata1.gz: page 0's flags are MariaDB's"]
        );
        assert_eq!(
            d.dictionary_sources(),
            // The set keeps each table's .frm beside its .ibd.
            [
                DictionarySource::SysTables {
                    path: root.join("ibdata1.gz")
                },
                DictionarySource::Frm
            ]
        );
        assert_eq!(d.undo_paths().len(), 4);
    }

    /// A directory without ibdata1 has no system tablespace and no undo
    /// walk, and is no error; `innodb_undo_directory` adds its undo files.
    #[test]
    fn no_system_tablespace_and_an_undo_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("data");
        let undo = tmp.path().join("undo");
        touch(&root, "test/t1.ibd.gz", b"");
        touch(&root, "aria_log_control", b"");
        touch(&undo, "undo001", b"");
        touch(&undo, "notes.txt", b"");
        let options = DataDirOptions {
            undo_directory: Some(undo.clone()),
        };
        let d = DataDir::open(&root, &options).unwrap();
        assert!(d.system().is_none());
        assert!(d.undo_paths().is_empty());
        let read: Vec<&Path> = d.tablespaces().map(|f| f.path.as_path()).collect();
        assert_eq!(read, [undo.join("undo001"), root.join("test/t1.ibd.gz")]);
        assert!(d.tablespaces().nth(1).unwrap().gzipped);
        assert_eq!(d.server.family, innodb_format::vendor::Vendor::MariaDb);
        assert!(d.dictionary_sources().is_empty());
        assert!(DataDir::open(&tmp.path().join("missing"), &options).is_err());
    }
}

//! What a file of a data directory is, told from its name and where it
//! sits: the naming rules of MySQL (5.x–9.x) and MariaDB (10.x–12.x).

use serde::Serialize;

/// The kind of one file of a data directory.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    /// A system tablespace file: `ibdata1`, `ibdata2`, … at the top.
    SystemTablespace,
    /// An undo tablespace: MariaDB and MySQL 5.6/5.7 `undo001`…, MySQL 8.0+
    /// `undo_001`… and `CREATE UNDO TABLESPACE` files (`*.ibu`), at the top
    /// or in `innodb_undo_directory`.
    UndoTablespace,
    /// The log MySQL 8.0+ keeps while it truncates an undo tablespace,
    /// `undo_<number>_trunc.log`, beside the undo tablespaces; gone once
    /// the truncation is done.
    UndoTruncationLog,
    /// MySQL 8.0+'s data dictionary tablespace, `mysql.ibd` at the top.
    MysqlDictionary,
    /// A general tablespace (`CREATE TABLESPACE … ADD DATAFILE 'g.ibd'`): an
    /// `.ibd` at the top other than `mysql.ibd`.
    GeneralTablespace,
    /// A file-per-table tablespace, `db/t.ibd`.
    Table,
    /// One partition of a partitioned table: `db/t#p#p0.ibd`, subpartitions
    /// `db/t#p#p0#sp#p0sp0.ibd` (MySQL 8 writes `#p#`, 5.7 and MariaDB `#P#`).
    Partition,
    /// A FULLTEXT index's auxiliary table: `db/fts_<table id>_….ibd`
    /// (`FTS_` on MariaDB).
    FtsAuxiliary,
    /// A temporary tablespace: `ibtmp1`, MySQL 8's `#innodb_temp/temp_N.ibt`.
    Temporary,
    /// A doublewrite file of MySQL 8.0.20+: `#ib_16384_0.dblwr`, and the
    /// reduced batch file `#ib_16384_0.bdblwr` of `innodb_doublewrite=DETECT_ONLY`.
    Doublewrite,
    /// A redo log: `ib_logfile0`…, MySQL 8.0.30+'s `#innodb_redo/#ib_redoN`.
    RedoLog,
    /// A table definition of MariaDB and MySQL before 8.0: `db/t.frm`.
    TableDefinition,
    /// A link to a tablespace outside the data directory (`DATA DIRECTORY`):
    /// `db/t.isl`, holding the path of the `.ibd`.
    Link,
    /// The metadata `FLUSH TABLES … FOR EXPORT` writes beside a table: `db/t.cfg`.
    ExportMetadata,
    /// Serialized dictionary information of a table of another engine
    /// (MySQL 8.0+ `db/t_123.sdi`).
    SdiFile,
    /// A file InnoDB did not write (binary logs, Aria and MyISAM files, keys,
    /// the error log, …).
    Other,
}

impl FileKind {
    /// True for the tablespaces the reports read.
    pub fn is_tablespace(self) -> bool {
        matches!(
            self,
            FileKind::SystemTablespace
                | FileKind::UndoTablespace
                | FileKind::MysqlDictionary
                | FileKind::GeneralTablespace
                | FileKind::Table
                | FileKind::Partition
                | FileKind::FtsAuxiliary
        )
    }

    /// What the kind is, in words (for lists of skipped files).
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::SystemTablespace => "system tablespace",
            FileKind::UndoTablespace => "undo tablespace",
            FileKind::UndoTruncationLog => "undo tablespace truncation log",
            FileKind::MysqlDictionary => "data dictionary tablespace, mysql.ibd",
            FileKind::GeneralTablespace => "general tablespace",
            FileKind::Table => "table",
            FileKind::Partition => "partition",
            FileKind::FtsAuxiliary => "FULLTEXT auxiliary table",
            FileKind::Temporary => "temporary tablespace",
            FileKind::Doublewrite => "doublewrite file",
            FileKind::RedoLog => "redo log",
            FileKind::TableDefinition => "table definition, .frm",
            FileKind::Link => "link to a tablespace elsewhere, .isl",
            FileKind::ExportMetadata => "export metadata, .cfg",
            FileKind::SdiFile => "serialized dictionary information, .sdi",
            FileKind::Other => "not InnoDB",
        }
    }

    /// Why the reports do not read a file of this kind (`None` for the
    /// tablespaces they read, and for `.frm` files, which `records` and
    /// `history` take a table's columns from; empty where the kind says
    /// it all).
    pub fn why_skipped(self) -> Option<&'static str> {
        Some(match self {
            k if k.is_tablespace() => return None,
            FileKind::TableDefinition => return None,
            FileKind::Temporary => "rebuilt empty at every server start",
            FileKind::UndoTruncationLog => {
                "an undo tablespace was being truncated: `undo` notes it, nothing reads it"
            }
            FileKind::Doublewrite => {
                "copies of pages, not a tablespace: `doublewrite` reads them, and `checksum` names the bad pages they hold a good copy of"
            }
            FileKind::RedoLog => "redo logs are named, not read",
            FileKind::Link => "the tablespace it names is read in its place",
            FileKind::ExportMetadata => "export metadata is not read",
            FileKind::SdiFile => "not an InnoDB table",
            _ => "",
        })
    }
}

/// A file name without a trailing `.gz`, and whether it had one.
pub fn strip_gz(name: &str) -> (&str, bool) {
    match name.strip_suffix(".gz") {
        Some(stem) => (stem, true),
        None => (name, false),
    }
}

/// The kind of a file called `name` (without `.gz`) at the top of a data directory.
pub fn top_level(name: &str) -> FileKind {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if name.starts_with("ibdata") {
        FileKind::SystemTablespace
    } else if innodb_format::undo::undo_space_id::truncate_log_number(name).is_some() {
        FileKind::UndoTruncationLog
    } else if name.starts_with("undo") || name.ends_with(".ibu") {
        FileKind::UndoTablespace
    } else if name == "mysql.ibd" {
        FileKind::MysqlDictionary
    } else if name.ends_with(".ibd") {
        FileKind::GeneralTablespace
    } else if name.starts_with("ibtmp") {
        FileKind::Temporary
    } else if name
        .strip_prefix("ib_logfile")
        .is_some_and(|n| digits(n) || n == "101")
    {
        FileKind::RedoLog
    } else if name.starts_with("#ib_") && (name.ends_with(".dblwr") || name.ends_with(".bdblwr")) {
        FileKind::Doublewrite
    } else {
        FileKind::Other
    }
}

/// The kind of a file called `name` (without `.gz`) in the folder `dir` of
/// a data directory (a database folder, or one of the server's own).
pub fn in_folder(dir: &str, name: &str) -> FileKind {
    if dir == "#innodb_redo" {
        return FileKind::RedoLog;
    }
    if dir == "#innodb_temp" {
        return if name.ends_with(".ibt") {
            FileKind::Temporary
        } else {
            FileKind::Other
        };
    }
    if let Some(stem) = name.strip_suffix(".ibd") {
        if is_fts_auxiliary(stem) {
            FileKind::FtsAuxiliary
        } else if stem.contains("#p#") || stem.contains("#P#") {
            FileKind::Partition
        } else {
            FileKind::Table
        }
    } else if name.ends_with(".ibu") {
        FileKind::UndoTablespace
    } else if name.ends_with(".frm") {
        FileKind::TableDefinition
    } else if name.ends_with(".isl") {
        FileKind::Link
    } else if name.ends_with(".cfg") {
        FileKind::ExportMetadata
    } else if name.ends_with(".sdi") {
        FileKind::SdiFile
    } else {
        FileKind::Other
    }
}

/// True for the name of a FULLTEXT auxiliary table: `fts_` (MySQL) or
/// `FTS_` (MariaDB), then the table id as 16 hex digits and `_`.
fn is_fts_auxiliary(stem: &str) -> bool {
    let Some(rest) = stem
        .strip_prefix("fts_")
        .or_else(|| stem.strip_prefix("FTS_"))
    else {
        return false;
    };
    rest.len() > 17
        && rest.as_bytes().get(16) == Some(&b'_')
        && rest
            .get(..16)
            .is_some_and(|id| id.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_level_files_by_every_naming() {
        for (name, kind) in [
            ("ibdata1", FileKind::SystemTablespace),
            ("ibdata2", FileKind::SystemTablespace),
            ("undo001", FileKind::UndoTablespace),
            ("undo_002", FileKind::UndoTablespace),
            ("extra_undo.ibu", FileKind::UndoTablespace),
            ("undo_4_trunc.log", FileKind::UndoTruncationLog),
            ("mysql.ibd", FileKind::MysqlDictionary),
            ("gts1.ibd", FileKind::GeneralTablespace),
            ("ibtmp1", FileKind::Temporary),
            ("ib_logfile0", FileKind::RedoLog),
            ("ib_logfile101", FileKind::RedoLog),
            ("#ib_16384_0.dblwr", FileKind::Doublewrite),
            ("#ib_16384_1.dblwr", FileKind::Doublewrite),
            ("#ib_16384_0.bdblwr", FileKind::Doublewrite),
            ("ib_buffer_pool", FileKind::Other),
            ("aria_log.00000001", FileKind::Other),
            ("binlog.000002", FileKind::Other),
            ("auto.cnf", FileKind::Other),
        ] {
            assert_eq!(top_level(name), kind, "{name}");
        }
    }

    #[test]
    fn files_in_folders_by_every_naming() {
        for (dir, name, kind) in [
            ("test", "t1.ibd", FileKind::Table),
            ("test", "t_part#p#p0.ibd", FileKind::Partition),
            ("test", "t_part#P#p0#SP#p0sp0.ibd", FileKind::Partition),
            (
                "sakila",
                "fts_0000000000000451_00000000000000f1_index_1.ibd",
                FileKind::FtsAuxiliary,
            ),
            (
                "test",
                "FTS_0000000000000026_CONFIG.ibd",
                FileKind::FtsAuxiliary,
            ),
            ("test", "fts_is_a_table_name.ibd", FileKind::Table),
            ("test", "t1.frm", FileKind::TableDefinition),
            ("test", "t1.isl", FileKind::Link),
            ("test", "t1.cfg", FileKind::ExportMetadata),
            ("mysql", "general_log_213.sdi", FileKind::SdiFile),
            ("mysql", "user.MAI", FileKind::Other),
            ("#innodb_redo", "#ib_redo10", FileKind::RedoLog),
            ("#innodb_temp", "temp_1.ibt", FileKind::Temporary),
        ] {
            assert_eq!(in_folder(dir, name), kind, "{dir}/{name}");
        }
    }

    #[test]
    fn gz_copies_keep_their_kind() {
        assert_eq!(strip_gz("ibdata1.gz"), ("ibdata1", true));
        assert_eq!(strip_gz("t1.ibd"), ("t1.ibd", false));
        assert_eq!(in_folder("test", strip_gz("t1.ibd.gz").0), FileKind::Table);
    }
}

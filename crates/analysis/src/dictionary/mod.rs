//! The data dictionary as MySQL 8.0+ keeps it, read into the
//! [`Dictionary`] every command names tables and indexes from and takes
//! columns from: the dictionary tables of `mysql.ibd` ([`mysql_ibd`]), or
//! the SDI each tablespace carries ([`sdi`]); and [`for_file`], the one
//! choice of the dictionary that describes a given file.

pub mod mysql_ibd;
pub mod sdi;
pub mod sdi_remnants;

use crate::reports::naming::{IndexNames, NoIndexNamed};
use innodb_format::vendor::Vendor;
use innodb_space::datadir::{DataDir, DictionarySource, FileKind};
use innodb_space::dictionary::{DictTable, Dictionary};
use innodb_space::{Finding, FindingKind, OpenOptions, Tablespace};
use std::borrow::Cow;
use std::path::Path;

/// The space id of `mysql.ibd`, MySQL 8.0+'s dictionary tablespace
/// (`dict_sys_t::s_dict_space_id`).
pub const MYSQL_DICTIONARY_SPACE_ID: u32 = 4_294_967_294;

/// True when `dict` holds the tables of the file `space`: it has a table
/// in the file's space, and that space is this file's. A dictionary of
/// `SYS_*` tables (MariaDB, MySQL 5.x) holds no MySQL 8.0+ file (one with
/// an SDI); MySQL's records each tablespace's file, whose name must be
/// this file's (`.gz` aside): a file of another server with the same
/// space id is not taken for it.
pub fn describes(dict: &Dictionary, space: &Tablespace) -> bool {
    let id = space.space_id();
    let Some(table) = dict.tables_in(id).next() else {
        return false;
    };
    if table.mysql.is_none() {
        return !space.format().flags.sdi;
    }
    match dict.tablespace(id) {
        Some(ts) if !ts.files.is_empty() => ts
            .files
            .iter()
            .any(|f| same_file_name(&f.filename, space.path())),
        _ => true,
    }
}

/// True when the dictionary's file name `recorded` (`./test/t1.ibd`,
/// `mysql.ibd`, `/data/t1.ibd`) and `path` name the same file: the same
/// last component, a `.gz` of `path` left aside, ASCII case aside.
fn same_file_name(recorded: &str, path: &Path) -> bool {
    let want = recorded.rsplit(['/', '\\']).next().unwrap_or(recorded);
    let have = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let have = have.strip_suffix(".gz").unwrap_or(&have);
    want.eq_ignore_ascii_case(have)
}

/// The dictionary that describes the file `space`: `dict` when it
/// [`describes`] it, else the file's own SDI (MySQL 8.0+; for a partition
/// file without its table's definition, that of the files beside it); an
/// empty dictionary when neither has its tables.
pub fn for_file<'a>(
    space: &Tablespace,
    dict: Option<&'a Dictionary>,
    options: OpenOptions,
) -> Cow<'a, Dictionary> {
    match dict {
        Some(d) if describes(d, space) => Cow::Borrowed(d),
        _ => Cow::Owned(sdi::dictionary_of(space, options)),
    }
}

/// The dictionary of the data directory `dir`: from the first of its
/// [`DataDir::dictionary_sources`] that can be read — `mysql.ibd`'s
/// dictionary tables, else the SDI of every tablespace, else `SYS_*` of
/// `ibdata1` — with notes saying what was read when a source was missing,
/// damaged, or the directory holds files of two servers; `None` when
/// there is no source (and no note is needed). An error only when
/// `ibdata1`'s `SYS_*` tables, the one source of a MariaDB or MySQL 5.x
/// directory, cannot be read.
pub fn of_datadir(dir: &DataDir, options: OpenOptions) -> Result<Option<Dictionary>, String> {
    let mut notes = Vec::new();
    let mut findings = Vec::new();
    let sources = dir.dictionary_sources();
    let name = |p: &Path| p.strip_prefix(&dir.root).unwrap_or(p).display().to_string();
    if dir.server.is_mixed() {
        notes.push(format!(
            "{} holds files of both MySQL and MariaDB (see the server line); {}",
            dir.root.display(),
            mixed_choice(&sources)
        ));
    }
    for source in sources {
        let read = match &source {
            DictionarySource::MysqlIbd { path } => Tablespace::open(path, options.clone())
                .map_err(|e| e.to_string())
                .and_then(|space| mysql_ibd::read(&space)),
            DictionarySource::Sdi => {
                let mut d = sdi::of_files(&dir.tablespace_paths(), options.clone());
                if !dir
                    .files
                    .iter()
                    .any(|f| f.kind == FileKind::MysqlDictionary)
                {
                    notes.push(format!(
                        "no mysql.ibd in {}: the names and columns come from each file's SDI ({} tables)",
                        dir.root.display(),
                        d.tables.len()
                    ));
                }
                d.notes.splice(0..0, notes);
                d.findings.splice(0..0, findings);
                return Ok(Some(d));
            }
            DictionarySource::SysTables { path } => {
                let space = Tablespace::open(path, options.clone()).map_err(|e| e.to_string())?;
                match Dictionary::read(&space) {
                    Ok(d) => Ok(d),
                    // MySQL 8.0+'s ibdata1 has no SYS_* tables.
                    Err(_) if space.format().vendor == Vendor::MySql => continue,
                    Err(e) => return Err(e),
                }
            }
            DictionarySource::Frm => continue,
        };
        match read {
            Ok(mut d) => {
                if let (DictionarySource::MysqlIbd { path }, Some(first)) =
                    (&source, d.findings.first())
                {
                    notes.push(format!(
                        "{}: {} problems reading MySQL's dictionary (the first: {first}); the tables read are used, the files they leave out are named from their own SDI",
                        name(path),
                        d.findings.len()
                    ));
                }
                d.notes.splice(0..0, notes);
                d.findings.splice(0..0, findings);
                return Ok(Some(d));
            }
            Err(e) => {
                let DictionarySource::MysqlIbd { path } = &source else {
                    return Err(e);
                };
                notes.push(format!(
                    "{}: not read as MySQL's dictionary ({e}): the names and columns come from each file's SDI",
                    name(path)
                ));
                findings.push(Finding {
                    kind: FindingKind::Unreadable,
                    page: None,
                    offset: None,
                    field: "mysql.ibd",
                    message: format!("{}: {e}", name(path)),
                });
            }
        }
    }
    Ok(None)
}

/// What the dictionary of a directory holding two servers' files is.
fn mixed_choice(sources: &[DictionarySource]) -> &'static str {
    match sources.first() {
        Some(DictionarySource::MysqlIbd { .. }) => {
            "the dictionary is MySQL's, in mysql.ibd: it names only the files it records under their own names; the others are named from their SDI when they have one (MySQL 8.0+); ibdata1's SYS_* tables are not read (give --system for them)"
        }
        Some(DictionarySource::Sdi) => {
            "there is no mysql.ibd: each file with an SDI (MySQL 8.0+) is named from it; ibdata1's SYS_* tables are not read (give --system for them)"
        }
        Some(DictionarySource::SysTables { .. }) => {
            "the dictionary is ibdata1's SYS_* tables: files with an SDI (MySQL 8.0+) are named from their SDI instead"
        }
        _ => "there is no dictionary: files with an SDI (MySQL 8.0+) are named from it",
    }
}

/// The table of a tablespace whose rows are read (`records --table`,
/// `--index`), and the index of it named.
#[derive(Debug)]
pub struct TableChoice<'a> {
    /// The table.
    pub table: &'a DictTable,
    /// `--index` as an id of this table's index (or as given when it
    /// names none of them: the records then say which it has).
    pub index: Option<String>,
    /// The other tables of the tablespace (a general tablespace, `mysql.ibd`),
    /// when neither `--table` nor `--index` chose among them.
    pub others: Vec<String>,
}

/// Why no table of the tablespace was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoTable {
    /// The dictionary has no table in the tablespace.
    NoneInSpace,
    /// `--table` names none of its tables: their names.
    NoSuchTable(Vec<String>),
    /// `--index` names no index of its tables: every index's full name.
    NoSuchIndex(Vec<String>),
    /// `--table` or `--index` names several: their names.
    Ambiguous(Vec<String>),
}

/// True when `which` (`test/t1`, `test.t1`, `t1`) names the table `name`
/// (`test/t1`, `test/t_part#p#p0#sp#p0sp0`).
fn names_table(name: &str, which: &str) -> bool {
    name == which
        || name == which.replacen('.', "/", 1)
        || name
            .strip_suffix(which)
            .is_some_and(|head| head.ends_with('/'))
}

/// The table of tablespace `space_id` whose rows are read: the one
/// `table` names, else the one whose index `index` names (`t.PRIMARY`,
/// `db/t.k`, an id), else the first (the others listed).
pub fn pick_table<'a>(
    dict: &'a Dictionary,
    space_id: u32,
    table: Option<&str>,
    index: Option<&str>,
) -> Result<TableChoice<'a>, NoTable> {
    let tables: Vec<&DictTable> = dict.tables_in(space_id).collect();
    let first = *tables.first().ok_or(NoTable::NoneInSpace)?;
    let all_names = || tables.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
    let (chosen, others) = if let Some(which) = table {
        let matching: Vec<&DictTable> = tables
            .iter()
            .copied()
            .filter(|t| names_table(&t.name, which))
            .collect();
        match matching.as_slice() {
            [] => return Err(NoTable::NoSuchTable(all_names())),
            [one] => (*one, Vec::new()),
            more => {
                return Err(NoTable::Ambiguous(
                    more.iter().map(|t| t.name.clone()).collect(),
                ))
            }
        }
    } else if let Some(which) = index.filter(|_| tables.len() > 1) {
        let names = IndexNames::of(dict, space_id);
        match names.find(which) {
            Ok(id) => match tables.iter().find(|t| t.indexes.iter().any(|i| i.id == id)) {
                Some(t) => (*t, Vec::new()),
                None => {
                    return Err(NoTable::NoSuchIndex(
                        names.all().values().cloned().collect(),
                    ))
                }
            },
            Err(NoIndexNamed::None) => {
                return Err(NoTable::NoSuchIndex(
                    names.all().values().cloned().collect(),
                ))
            }
            Err(NoIndexNamed::Ambiguous(n)) => return Err(NoTable::Ambiguous(n)),
        }
    } else {
        let others = tables.iter().skip(1).map(|t| t.name.clone()).collect();
        (first, others)
    };
    let index = index.map(|which| {
        IndexNames::of_table(chosen)
            .find(which)
            .map_or_else(|_| which.to_string(), |id| id.to_string())
    });
    Ok(TableChoice {
        table: chosen,
        index,
        others,
    })
}

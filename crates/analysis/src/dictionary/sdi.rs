//! The dictionary objects a MySQL 8.0+ file's SDI holds: its tables (of
//! SDI type 1) and its tablespace (type 2), typed, and for a partition file whose
//! SDI holds only its tablespace (every subpartition file but the first),
//! the table's definition from the files beside it.

use crate::reports::sdi_report::SdiReport;
use innodb_space::dictionary::dd::{DdTable, DdTablespace};
use innodb_space::dictionary::Dictionary;
use innodb_space::{OpenOptions, Tablespace};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The objects of one SDI.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct SdiObjects {
    /// Its tables (several in a general tablespace; none in a partition
    /// file but the first of its table).
    pub tables: Vec<DdTable>,
    /// Its tablespace (one).
    pub tablespaces: Vec<DdTablespace>,
    /// Objects that are not what the SDI format says they are: type, id
    /// and why.
    pub unreadable: Vec<String>,
}

/// The tables and tablespaces of `sdi`.
pub fn objects(sdi: &SdiReport) -> SdiObjects {
    let mut out = SdiObjects::default();
    for e in &sdi.records {
        let Some(object) = e.object.get("dd_object") else {
            out.unreadable.push(format!(
                "SDI object type {} id {}: no dd_object",
                e.sdi_type, e.id
            ));
            continue;
        };
        // Typed from the parsed object in place, not from a copy of it.
        let why = match e.sdi_type {
            1 => DdTable::deserialize(object)
                .map(|t| out.tables.push(t))
                .err(),
            2 => DdTablespace::deserialize(object)
                .map(|t| out.tablespaces.push(t))
                .err(),
            _ => None,
        };
        if let Some(why) = why {
            out.unreadable
                .push(format!("SDI object type {} id {}: {why}", e.sdi_type, e.id));
        }
    }
    out
}

/// The dictionary of the file `space` alone, from its SDI: its
/// tablespace, and the tables with an InnoDB table in its space; for a
/// partition file whose SDI holds no table (the table's SDI is in its
/// first partition's file only), the table's definition from the SDI of
/// the files of the same table beside it (`t#p#…` in the same folder).
/// Empty for a file without SDI.
pub fn dictionary_of(space: &Tablespace, options: OpenOptions) -> Dictionary {
    let Ok(sdi) = SdiReport::build(space) else {
        return Dictionary::default();
    };
    dictionary_from(space, &objects(&sdi), options)
}

/// [`dictionary_of`] with the objects of `space`'s SDI already read
/// (`own`), for a caller that reads them for more than the dictionary.
pub fn dictionary_from(space: &Tablespace, own: &SdiObjects, options: OpenOptions) -> Dictionary {
    let id = space.space_id();
    let here = |t: &DdTable| t.innodb_tables().iter().any(|l| l.space_id == Some(id));
    let mut tables: Vec<DdTable> = own.tables.iter().filter(|t| here(t)).cloned().collect();
    if tables.is_empty() && !own.tables.is_empty() {
        // A copy whose SDI names another space id: its tables are this
        // file's all the same.
        let mut d = Dictionary::from_mysql(own.tables.clone(), own.tablespaces.clone());
        for t in &mut d.tables {
            t.space = id;
            for i in &mut t.indexes {
                i.space = id;
            }
        }
        return d;
    }
    if tables.is_empty() {
        for sibling in partition_siblings(space.path()) {
            let Ok(other) = Tablespace::open(&sibling, options.clone()) else {
                continue;
            };
            let Ok(sdi) = SdiReport::build(&other) else {
                continue;
            };
            tables.extend(objects(&sdi).tables.into_iter().filter(|t| here(t)));
            if !tables.is_empty() {
                break;
            }
        }
    }
    Dictionary::from_mysql(tables, own.tablespaces.clone())
}

/// Most files a partitioned table's folder is searched for (1024
/// partitions of 8 subpartitions is the server's limit).
const MAX_SIBLINGS: usize = 8192;

/// The other files of the partitioned table `path` is a partition of
/// (`t#p#p1#sp#p1sp1.ibd` → `t#p#*.ibd` beside it, `.gz` copies too), in
/// name order; empty when `path` is no partition file.
fn partition_siblings(path: &Path) -> Vec<PathBuf> {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Vec::new();
    };
    let Some(cut) = name.find("#p#").or_else(|| name.find("#P#")) else {
        return Vec::new();
    };
    let prefix = name.get(..cut + 3).unwrap_or_default();
    let dir = path.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p != path
                && p.file_name().is_some_and(|n| {
                    let n = n.to_string_lossy();
                    n.starts_with(prefix) && (n.ends_with(".ibd") || n.ends_with(".ibd.gz"))
                })
        })
        .take(MAX_SIBLINGS)
        .collect();
    out.sort();
    out
}

/// The dictionary of the SDIs of `paths` (every tablespace of a data
/// directory): each table once (a partitioned table's definition is in
/// its first partition's file), each tablespace once. Files without SDI
/// (`ibdata1`, undo tablespaces, MariaDB's) add nothing; a file that
/// cannot be opened is a note.
pub fn of_files(paths: &[PathBuf], options: OpenOptions) -> Dictionary {
    let mut tables: Vec<DdTable> = Vec::new();
    let mut tablespaces: Vec<DdTablespace> = Vec::new();
    let mut notes = Vec::new();
    for path in paths {
        let space = match Tablespace::open(path, options.clone()) {
            Ok(s) => s,
            Err(e) => {
                notes.push(format!("{}: its SDI is not read: {e}", path.display()));
                continue;
            }
        };
        let Ok(sdi) = SdiReport::build(&space) else {
            continue;
        };
        let o = objects(&sdi);
        for t in o.tables {
            if !tables
                .iter()
                .any(|x| x.schema_ref == t.schema_ref && x.name == t.name)
            {
                tables.push(t);
            }
        }
        for ts in o.tablespaces {
            if !tablespaces.iter().any(|x| x.name == ts.name) {
                tablespaces.push(ts);
            }
        }
    }
    let mut d = Dictionary::from_mysql(tables, tablespaces);
    d.notes = notes;
    d
}

//! The dictionary objects a MySQL 8.0+ file's SDI holds: its tables (of
//! SDI type 1) and its tablespace (type 2), typed, and for a partition file whose
//! SDI holds only its tablespace (every subpartition file but the first),
//! the table's definition from the files beside it.

use crate::reports::sdi_report::{NoSdi, SdiDocuments, SdiReport};
use innodb_space::dictionary::dd::{DdTable, DdTablespace};
use innodb_space::dictionary::Dictionary;
use innodb_space::{Finding, OpenOptions, Tablespace};
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
        add_object(&mut out, e.sdi_type, e.id, &e.object);
    }
    out
}

/// The tables and tablespaces of `space`'s SDI, as [`objects`] gives them
/// from its [`SdiReport`], with the report's findings; each record's JSON
/// is parsed straight into its type, without building its values first.
pub fn objects_of(space: &Tablespace) -> Result<(SdiObjects, Vec<Finding>), NoSdi> {
    let docs = SdiDocuments::read(space, false)?;
    let mut out = SdiObjects::default();
    let mut findings = docs.findings;
    for d in &docs.documents {
        let json = match &d.json {
            Ok(j) => j,
            Err(f) => {
                findings.push(f.clone());
                continue;
            }
        };
        if add_typed(&mut out, d.sdi_type, json) {
            continue;
        }
        // Not a table or tablespace as expected: read as any JSON, as the
        // report does, for the same finding or note.
        match serde_json::from_slice::<serde_json::Value>(json) {
            Ok(v) => add_object(&mut out, d.sdi_type, d.id, &v),
            Err(e) => findings.push(d.unreadable(&e)),
        }
    }
    Ok((out, findings))
}

/// An SDI record's JSON with its `dd_object` of type `T`.
#[derive(Deserialize)]
struct Typed<T> {
    dd_object: T,
}

/// Adds the object of type `sdi_type` whose JSON is `json` to `out`; false
/// (nothing added) when it is not a table or tablespace as expected.
fn add_typed(out: &mut SdiObjects, sdi_type: u32, json: &[u8]) -> bool {
    match sdi_type {
        1 => serde_json::from_slice::<Typed<DdTable>>(json)
            .map(|t| out.tables.push(t.dd_object))
            .is_ok(),
        2 => serde_json::from_slice::<Typed<DdTablespace>>(json)
            .map(|t| out.tablespaces.push(t.dd_object))
            .is_ok(),
        _ => false,
    }
}

/// Adds the object `object` (an SDI record's JSON, of type `sdi_type`, id
/// `id`) to `out`, or why it cannot be read to its `unreadable`.
fn add_object(out: &mut SdiObjects, sdi_type: u32, id: u64, object: &serde_json::Value) {
    let Some(object) = object.get("dd_object") else {
        out.unreadable
            .push(format!("SDI object type {sdi_type} id {id}: no dd_object"));
        return;
    };
    // Typed from the parsed object in place, not from a copy of it.
    let why = match sdi_type {
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
            .push(format!("SDI object type {sdi_type} id {id}: {why}"));
    }
}

/// The dictionary of the file `space` alone, from its SDI: its
/// tablespace, and the tables with an InnoDB table in its space; for a
/// partition file whose SDI holds no table (the table's SDI is in its
/// first partition's file only), the table's definition from the SDI of
/// the files of the same table beside it (`t#p#…` in the same folder).
/// Empty for a file without SDI.
pub fn dictionary_of(space: &Tablespace, options: OpenOptions) -> Dictionary {
    let Ok((own, _)) = objects_of(space) else {
        return Dictionary::default();
    };
    dictionary_from(space, &own, options)
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
            let Ok((theirs, _)) = objects_of(&other) else {
                continue;
            };
            tables.extend(theirs.tables.into_iter().filter(|t| here(t)));
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
        let Ok((o, _)) = objects_of(&space) else {
            continue;
        };
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

//! The tables MySQL 8.0+'s dictionary no longer holds but still remembers:
//! a dropped table's rows of `mysql.tables`, `mysql.columns`,
//! `mysql.column_type_elements`, `mysql.indexes`,
//! `mysql.index_column_usage` (and of its partitions) stay on their leaf
//! pages of `mysql.ibd`, delete-marked until purge, then in each page's
//! garbage list (`PAGE_FREE`) until their bytes are reused. MySQL does not
//! erase them.
//!
//! They are read as the live rows are (each dictionary table typed by
//! `mysql.ibd`'s own SDI), with the records decoding's deleted rows
//! (delete-marked ones and those of the garbage lists), and put together
//! into [`DdTable`]s as the live ones are. A table whose `mysql.tables.id`
//! or InnoDB table id (`se_private_id`) the live dictionary still has is
//! not dropped (its deleted rows are older versions of its records, or of
//! a record the server wrote anew under another id) and is left out. Of several copies of
//! one record (an older version left in a garbage list when the record was
//! rewritten), the delete-marked one wins, then the one with the most
//! values that are not NULL (the dictionary fills `se_private_data` and
//! `se_private_id` in after it inserts a record); a table none of whose
//! copies has an InnoDB table id names no InnoDB table and is left out.

pub use super::own_sdi;
use super::{assembly, dictionary, read_tables, Read, Rows};
use crate::rows::records::{Row, RowState};
use innodb_format::value::column_value::Value;
use innodb_space::dictionary::dd::DdTable;
use innodb_space::dictionary::Dictionary;
use innodb_space::{Finding, Tablespace};
use std::collections::{BTreeMap, HashSet};

/// What the deleted records of `mysql.ibd`'s dictionary tables tell.
#[derive(Debug, Clone)]
pub struct MysqlRemnants {
    /// Where they were read: `mysql.ibd`, or `SDI` (the deleted SDI records
    /// of the tablespace the tables were in, see
    /// [`crate::dictionary::sdi_remnants`]).
    pub dictionary: &'static str,
    /// The live dictionary (the same records' live rows).
    pub live: Dictionary,
    /// The dropped tables, by `mysql.tables.id`, each with its columns,
    /// indexes and partitions as far as their records were found.
    pub tables: Vec<DdTable>,
    /// Delete-marked records read in the dictionary tables.
    pub delete_marked: u64,
    /// Records read from garbage lists in the dictionary tables.
    pub garbage: u64,
    /// Deleted records whose bytes are all zero (none in MySQL).
    pub erased: u64,
    /// Problems reading them.
    pub findings: Vec<Finding>,
}

/// The key of each dictionary table's records (its primary key): of two
/// copies of one key, one is kept.
const KEYS: [(&str, &[&str]); 10] = [
    ("schemata", &["id"]),
    ("tables", &["id"]),
    ("columns", &["id"]),
    ("column_type_elements", &["column_id", "element_index"]),
    ("indexes", &["id"]),
    ("index_column_usage", &["index_id", "ordinal_position"]),
    ("table_partitions", &["id"]),
    ("index_partitions", &["partition_id", "index_id"]),
    ("tablespaces", &["id"]),
    ("tablespace_files", &["tablespace_id", "ordinal_position"]),
];

/// Reads the live and the deleted records of the dictionary tables of
/// `space` (`mysql.ibd`): the live dictionary, and the tables only deleted
/// records describe. An error as [`super::read`] gives one.
pub fn read(space: &Tablespace) -> Result<MysqlRemnants, String> {
    let (own, findings) = own_sdi(space)?;
    read_with(space, &findings, &own.tables)
}

/// [`read`] with `space`'s own SDI already read (`defs`, the tables it
/// describes, and `sdi_findings`, the problems met reading it: see
/// [`own_sdi`]), for a caller that also names the tables of `space` from
/// it.
pub fn read_with(
    space: &Tablespace,
    sdi_findings: &[Finding],
    defs: &[DdTable],
) -> Result<MysqlRemnants, String> {
    let (mut deleted, findings) = read_tables(space, sdi_findings, defs, true)?;
    // A dropped table's schema is mostly still there: every row of
    // `schemata` is kept, live or not (a small table).
    let mut schemata = deleted.get("schemata").map(|r| r.select(|_| true));
    // The live rows moved out, not copied: what stays is deleted.
    let live_rows: Read = deleted
        .iter_mut()
        .map(|(name, r)| (*name, r.take(|row| !row.deleted)))
        .collect();
    let live = dictionary(space, &live_rows, findings.clone())?;
    // Live ids: of the dictionary (`id`) and of InnoDB (`se_private_id`;
    // a table the server wrote anew under another `id` keeps it).
    let live_ids: HashSet<(&str, u64)> = live_rows
        .get("tables")
        .map(|t| {
            t.each()
                .flat_map(|r| {
                    [
                        r.uint("id").map(|i| ("id", i)),
                        r.uint("se_private_id").map(|i| ("se_private_id", i)),
                    ]
                })
                .flatten()
                .collect()
        })
        .unwrap_or_default();
    let (mut delete_marked, mut garbage) = (0, 0);
    let mut erased = 0;
    let mut gone: Read = BTreeMap::new();
    for (name, key) in KEYS {
        let Some(r) = deleted.get_mut(name) else {
            continue;
        };
        delete_marked += r
            .rows
            .iter()
            .filter(|x| x.state == RowState::DeleteMarked)
            .count() as u64;
        garbage += r
            .rows
            .iter()
            .filter(|x| x.state == RowState::Garbage)
            .count() as u64;
        erased += r.erased as u64;
        let rows = match name {
            "schemata" => schemata.take().unwrap_or_else(|| r.take(|_| true)),
            "tables" => {
                let ids = ["id", "se_private_id"].map(|k| (k, r.at(k)));
                r.take(|row| {
                    !ids.iter().any(|&(k, at)| {
                        uint_at(row, at).is_some_and(|id| live_ids.contains(&(k, id)))
                    })
                })
            }
            _ => r.take(|_| true),
        };
        let mut rows = newest_per_key(rows, key);
        if name == "tables" {
            // Not even its most complete copy has an InnoDB table id: a
            // row the server wrote anew before filling it in, which names
            // no InnoDB table and no pages.
            let se_private_id = rows.at("se_private_id");
            rows.rows.retain(|row| {
                se_private_id
                    .and_then(|i| row.values.get(i))
                    .is_some_and(|v| !matches!(v, Value::Null))
            });
        }
        gone.insert(name, rows);
    }
    let tables = assembly(&gone)?.tables();
    Ok(MysqlRemnants {
        dictionary: "mysql.ibd",
        live,
        tables,
        delete_marked,
        garbage,
        erased,
        findings,
    })
}

/// The integer column at `at` of `row`.
fn uint_at(row: &Row, at: Option<usize>) -> Option<u64> {
    match at.and_then(|i| row.values.get(i))? {
        Value::UInt(n) => Some(*n),
        Value::Int(n) => u64::try_from(*n).ok(),
        _ => None,
    }
}

/// One row per `key`: the live one, else the delete-marked one, else the
/// one with the most values that are not NULL; the first of equals.
fn newest_per_key(rows: Rows, key: &[&str]) -> Rows {
    let at: Vec<Option<usize>> = key.iter().map(|k| rows.at(k)).collect();
    let rank = |r: &Row| {
        let state = match r.state {
            RowState::Live => 2,
            RowState::DeleteMarked => 1,
            RowState::Garbage => 0,
        };
        let filled = r
            .values
            .iter()
            .filter(|v| !matches!(v, Value::Null))
            .count();
        (state, filled)
    };
    let mut best: BTreeMap<Vec<Option<String>>, usize> = BTreeMap::new();
    let mut kept: Vec<Row> = Vec::new();
    for row in rows.rows {
        let k: Vec<Option<String>> = at
            .iter()
            .map(|i| i.and_then(|i| row.values.get(i)).map(|v| format!("{v:?}")))
            .collect();
        match best.get(&k).and_then(|&i| kept.get_mut(i)) {
            Some(old) if rank(old) >= rank(&row) => {}
            Some(old) => *old = row,
            None => {
                best.insert(k, kept.len());
                kept.push(row);
            }
        }
    }
    Rows {
        fields: rows.fields,
        rows: kept,
        erased: rows.erased,
    }
}

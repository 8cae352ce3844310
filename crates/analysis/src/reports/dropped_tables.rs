//! The dropped tables a system tablespace's `SYS_*` dictionary still
//! remembers in its deleted records (see
//! [`innodb_space::dictionary::remnants`]): each with its id, indexes and
//! how many of their pages the file still holds, and its definition as far
//! as the records tell (a `CREATE TABLE`). MySQL 8.0+ keeps its dictionary
//! in `mysql.ibd` instead: its deleted records (see
//! [`crate::dictionary::mysql_ibd::remnants`]) name the dropped tables,
//! whose pages are counted in the tablespace they were in.

use crate::dictionary::mysql_ibd::remnants::MysqlRemnants;
use crate::rows::definition_dd::{from_dd, HT_HIDDEN_USER, HT_VISIBLE};
use crate::rows::definition_sys::from_sys_tables;
use crate::rows::table_definition::TableDefinition;
use innodb_space::dictionary::remnants::{self, IndexPageCount, Remnants};
use innodb_space::dictionary::{DictColumn, DictIndex, DictTable, Dictionary};
use innodb_space::finding::Finding;
use innodb_space::Tablespace;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

/// An index of a dropped table (its `SYS_INDEXES` and `SYS_FIELDS` records).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DroppedIndex {
    /// `ID`: the `PAGE_INDEX_ID` of its pages.
    pub index_id: u64,
    /// `NAME` (empty when only the undo log knows the index).
    pub name: String,
    /// How many fields it had (`SYS_FIELDS` records found).
    pub n_fields: u32,
    /// `TYPE`: 1 clustered, 2 unique, 3 both.
    pub index_type: u32,
    /// `PAGE_NO`: where its root was.
    pub root_page: u32,
    /// Its columns (`SYS_FIELDS`), as far as found.
    pub fields: Vec<String>,
    /// INDEX pages with this index id still in the file.
    pub pages: u64,
    /// Of those, the leaf pages (`PAGE_LEVEL` 0): where its rows are.
    pub leaf_pages: u64,
}

/// A dropped table.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DroppedTable {
    /// `NAME` (`db/table`); empty when no `SYS_TABLES` record was left.
    pub name: String,
    /// `ID`.
    pub table_id: u64,
    /// `SPACE`: 0 when its pages were in the system tablespace.
    pub space_id: u32,
    /// What it is known from: `SYS_* records` (its deleted dictionary
    /// records), `undo log` (the delete-marks its `DROP TABLE` logged:
    /// name, index ids, how many columns and index fields; no column or
    /// index names, no types), `mysql.ibd records` (MySQL 8.0+: its
    /// deleted records of `mysql.tables`, `mysql.columns`, `mysql.indexes`
    /// …; `table_id` is `mysql.tables.se_private_id`), or `SDI records`
    /// (MySQL 8.0+: its deleted SDI record in the tablespace it was in).
    pub source: &'static str,
    /// How many columns it had (`SYS_COLUMNS` records found; MySQL 8.0+:
    /// its visible columns' `mysql.columns` records).
    pub n_columns: u32,
    /// Its columns (`SYS_COLUMNS`), by position (MySQL 8.0+: empty, they
    /// are in `definition`).
    pub columns: Vec<DictColumn>,
    /// Its indexes, by id.
    pub indexes: Vec<DroppedIndex>,
    /// Its definition as `CREATE TABLE` would give it (`None` without columns).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub definition: Option<TableDefinition>,
}

/// INDEX pages of an index id no index of the dictionary has: an index of
/// a dropped table whose dictionary records were erased.
#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
pub struct UnknownIndex {
    /// `PAGE_INDEX_ID` of the pages.
    pub index_id: u64,
    /// INDEX pages with this index id in the file.
    pub pages: u64,
    /// Of those, the leaf pages.
    pub leaf_pages: u64,
}

/// The dropped tables of one system tablespace (MySQL 8.0+: of `mysql.ibd`).
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct DroppedTables {
    /// The dictionary whose deleted records were read: `SYS_*` (the system
    /// tablespace's), `mysql.ibd` (MySQL 8.0+'s dictionary tables) or
    /// `SDI` (MySQL 8.0+: the system tablespace's own SDI).
    pub dictionary: &'static str,
    /// The tables, by id.
    pub tables: Vec<DroppedTable>,
    /// Delete-marked dictionary records read.
    pub delete_marked_records: u64,
    /// Dictionary records read from garbage lists.
    pub garbage_records: u64,
    /// Of the deleted records, those whose bytes are all zero (MariaDB
    /// erases what purge moves to a garbage list).
    pub erased_records: u64,
    /// Index ids of INDEX pages that no index of the live dictionary nor of
    /// a dropped table listed has: indexes of dropped tables whose records
    /// are erased (`records FILE --scan --index-id N --ddl F` reads them).
    pub unknown_indexes: Vec<UnknownIndex>,
    /// The live dictionary was read, so live and dropped were told apart
    /// (when false, every index id counts as unknown).
    pub live_dictionary: bool,
    /// `SYS_*` leaf pages read.
    pub sys_leaf_pages: u64,
    /// UNDO_LOG pages read for a `DROP TABLE`'s delete-marks.
    pub undo_pages: u64,
    /// Undo records read on them.
    pub undo_records: u64,
    /// Problems reading them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<Finding>,
    /// What could not be done (MySQL 8.0+: a tablespace the dropped
    /// tables' pages were in that was not read, so they are not counted).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl DroppedTables {
    /// The dropped tables of `space` (the system tablespace or a carved
    /// copy of it): the live dictionary, when it reads, says which table
    /// ids are not dropped.
    pub fn build(space: &Tablespace) -> DroppedTables {
        let live = Dictionary::read(space).ok();
        Self::of(&remnants::read(space, live.as_ref()))
    }

    /// The report of what [`remnants::read`] found.
    pub fn of(r: &Remnants) -> DroppedTables {
        DroppedTables {
            dictionary: "SYS_*",
            tables: r.tables.iter().map(|t| table(t, r)).collect(),
            delete_marked_records: r.delete_marked,
            garbage_records: r.garbage,
            erased_records: r.erased,
            unknown_indexes: r
                .unknown_indexes
                .iter()
                .map(|(id, c)| UnknownIndex {
                    index_id: *id,
                    pages: c.pages,
                    leaf_pages: c.leaf_pages,
                })
                .collect(),
            live_dictionary: r.live_dictionary,
            sys_leaf_pages: r.sys_pages,
            undo_pages: r.undo_pages,
            undo_records: r.undo_records,
            findings: r.findings.clone(),
            notes: Vec::new(),
        }
    }

    /// The dropped tables MySQL 8.0+'s `mysql.ibd` remembers (`m`), each
    /// index's pages counted in `pages` (what [`remnants::read`] found in
    /// each tablespace read, by space id, with `m.live` as the live
    /// dictionary): a space not there is named in `notes`.
    pub fn of_mysql(m: &MysqlRemnants, pages: &BTreeMap<u32, Remnants>) -> DroppedTables {
        let dropped = Dictionary::from_mysql(m.tables.clone(), Vec::new());
        let mut out = DroppedTables {
            dictionary: m.dictionary,
            delete_marked_records: m.delete_marked,
            garbage_records: m.garbage,
            erased_records: m.erased,
            live_dictionary: true,
            findings: m.findings.clone(),
            ..DroppedTables::default()
        };
        let mut missing = BTreeMap::<u32, Vec<String>>::new();
        for t in &dropped.tables {
            let counts = pages.get(&t.space);
            // (FIL_NULL: no index record of it was left to say where.)
            if counts.is_none() && t.space != innodb_format::FIL_NULL {
                missing.entry(t.space).or_default().push(t.name.clone());
            }
            let mut d = mysql_table(t, counts);
            if m.dictionary == "SDI" {
                d.source = "SDI records";
            }
            out.tables.push(d);
        }
        for (space, names) in missing {
            out.notes.push(format!(
                "tablespace {space}, where the pages of {} were, was not read: their pages are not counted (give its file too, e.g. ibdata1 for space 0)",
                names.join(", ")
            ));
        }
        let known: HashSet<u64> = dropped
            .tables
            .iter()
            .flat_map(|t| t.indexes.iter().map(|i| i.id))
            .collect();
        for r in pages.values() {
            out.sys_leaf_pages += r.sys_pages;
            out.undo_pages += r.undo_pages;
            out.undo_records += r.undo_records;
            out.findings.extend(r.findings.iter().cloned());
            out.unknown_indexes.extend(
                r.unknown_indexes
                    .iter()
                    .filter(|(id, _)| !known.contains(id))
                    .map(|(id, c)| UnknownIndex {
                        index_id: *id,
                        pages: c.pages,
                        leaf_pages: c.leaf_pages,
                    }),
            );
        }
        out
    }
}

/// The entry of index `i` of a dropped table, with `n_fields` fields and
/// the pages `counted` of it in the file.
fn dropped_index(i: &DictIndex, n_fields: u32, counted: IndexPageCount) -> DroppedIndex {
    DroppedIndex {
        index_id: i.id,
        name: i.name.clone(),
        n_fields,
        index_type: i.index_type,
        root_page: i.root_page,
        fields: i.fields.clone(),
        pages: counted.pages,
        leaf_pages: counted.leaf_pages,
    }
}

/// A dropped table of MySQL 8.0+ (a [`Dictionary::from_mysql`] table),
/// its pages counted in `pages` when its tablespace was read.
fn mysql_table(t: &DictTable, pages: Option<&Remnants>) -> DroppedTable {
    let visible = t.mysql.as_ref().map_or(0, |dd| {
        dd.columns
            .iter()
            .filter(|c| matches!(c.hidden, HT_VISIBLE | HT_HIDDEN_USER))
            .count()
    });
    DroppedTable {
        name: t.name.clone(),
        table_id: t.id,
        space_id: t.space,
        source: "mysql.ibd records",
        n_columns: u32::try_from(visible).unwrap_or(u32::MAX),
        columns: Vec::new(),
        indexes: t
            .indexes
            .iter()
            .map(|i| {
                let counted = pages.map(|r| r.pages_of(i.id)).unwrap_or_default();
                dropped_index(i, i.n_fields, counted)
            })
            .collect(),
        // A table whose columns' records are gone has no definition.
        definition: t.mysql.as_deref().filter(|_| visible > 0).map(from_dd),
    }
}

fn table(t: &DictTable, r: &Remnants) -> DroppedTable {
    DroppedTable {
        name: t.name.clone(),
        table_id: t.id,
        space_id: t.space,
        source: if r.from_undo.contains(&t.id) {
            "undo log"
        } else {
            "SYS_* records"
        },
        n_columns: if t.columns.is_empty() {
            // From the undo log: the count. (SYS_TABLES.N_COLS has the
            // COMPACT flag in bit 31 and, in MariaDB, more flags above 16
            // bits; it counts the virtual columns too.)
            t.n_cols
        } else {
            u32::try_from(t.columns.len()).unwrap_or(u32::MAX)
        },
        columns: t.columns.clone(),
        indexes: t
            .indexes
            .iter()
            .map(|i| {
                let n_fields = if i.fields.is_empty() {
                    i.n_fields
                } else {
                    u32::try_from(i.fields.len()).unwrap_or(u32::MAX)
                };
                dropped_index(i, n_fields, r.pages_of(i.id))
            })
            .collect(),
        definition: (!t.columns.is_empty() && !t.name.is_empty()).then(|| from_sys_tables(t)),
    }
}

/// The dropped table whose index `index_id` is, from the `SYS_*` remnants
/// of `space`: what `records --scan` types a dropped index's rows with.
/// (MySQL 8.0+: [`dropped_mysql_table_of_index`].)
pub fn dropped_table_of_index(space: &Tablespace, index_id: u64) -> Option<DictTable> {
    let live = Dictionary::read(space).ok();
    remnants::read(space, live.as_ref())
        .tables
        .into_iter()
        .find(|t| t.indexes.iter().any(|i| i.id == index_id))
}

/// The dropped table whose index `index_id` is, from the deleted records
/// of `mysql.ibd` (`dd`, MySQL 8.0+): what `records --scan` types a
/// dropped index's rows with (a table of [`Dictionary::from_mysql`]).
pub fn dropped_mysql_table_of_index(
    dd: &Tablespace,
    index_id: u64,
) -> Result<Option<DictTable>, String> {
    let m = crate::dictionary::mysql_ibd::remnants::read(dd)?;
    Ok(Dictionary::from_mysql(m.tables, Vec::new())
        .tables
        .into_iter()
        .find(|t| t.indexes.iter().any(|i| i.id == index_id)))
}

//! The dropped tables a system tablespace's `SYS_*` dictionary still
//! remembers in its deleted records (see
//! [`innodb_space::dictionary::remnants`]): each with its id, indexes and
//! how many of their pages the file still holds, and its definition as far
//! as the records tell (a `CREATE TABLE`).

use crate::rows::definition_sys::from_sys_tables;
use crate::rows::table_definition::TableDefinition;
use innodb_space::dictionary::remnants::{self, Remnants};
use innodb_space::dictionary::{DictColumn, DictTable, Dictionary};
use innodb_space::finding::Finding;
use innodb_space::Tablespace;
use serde::Serialize;

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
    /// records), or `undo log` (the delete-marks its `DROP TABLE` logged:
    /// name, index ids, how many columns and index fields; no column or
    /// index names, no types).
    pub source: &'static str,
    /// How many columns it had (`SYS_COLUMNS` records found).
    pub n_columns: u32,
    /// Its columns (`SYS_COLUMNS`), by position.
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

/// The dropped tables of one system tablespace.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct DroppedTables {
    /// The tables, by id.
    pub tables: Vec<DroppedTable>,
    /// Delete-marked `SYS_*` records read.
    pub delete_marked_records: u64,
    /// `SYS_*` records read from garbage lists.
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
        }
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
                let c = r.pages_of(i.id);
                DroppedIndex {
                    index_id: i.id,
                    name: i.name.clone(),
                    n_fields: if i.fields.is_empty() {
                        i.n_fields
                    } else {
                        u32::try_from(i.fields.len()).unwrap_or(u32::MAX)
                    },
                    index_type: i.index_type,
                    root_page: i.root_page,
                    fields: i.fields.clone(),
                    pages: c.pages,
                    leaf_pages: c.leaf_pages,
                }
            })
            .collect(),
        definition: (!t.columns.is_empty() && !t.name.is_empty()).then(|| from_sys_tables(t)),
    }
}

/// The dropped table whose index `index_id` is, from the `SYS_*` remnants
/// of `space`: what `records --scan` types a dropped index's rows with.
pub fn dropped_table_of_index(space: &Tablespace, index_id: u64) -> Option<DictTable> {
    let live = Dictionary::read(space).ok();
    remnants::read(space, live.as_ref())
        .tables
        .into_iter()
        .find(|t| t.indexes.iter().any(|i| i.id == index_id))
}

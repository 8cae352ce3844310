//! The data dictionary: the InnoDB tables with their indexes (ids, roots,
//! spaces) and columns, as `INFORMATION_SCHEMA.INNODB_TABLES` and
//! `INNODB_INDEXES` list them. Read to name tables and indexes, and to give
//! records their columns.
//!
//! MariaDB and MySQL ≤ 5.7 keep it in the system tablespace: `SYS_TABLES`,
//! `SYS_COLUMNS`, `SYS_INDEXES` and `SYS_FIELDS`, B-trees of REDUNDANT
//! records whose roots the dictionary header (page 7) names
//! ([`Dictionary::read`]). MySQL 8.0+ keeps its own dictionary (`mysql.ibd`,
//! and each tablespace's SDI), whose tables ([`dd`]) make the InnoDB
//! tables ([`Dictionary::from_mysql`]); reading them needs the record
//! decoding of `innodb-analysis`, which does it.

pub mod dd;
pub mod remnants;
pub mod remnants_undo;
pub mod sys_record;

use crate::btree;
use crate::finding::{Finding, FindingKind};
use crate::logical_pages::LogicalPages;
use crate::Tablespace;
use dd::{DdTable, DdTablespace};
use innodb_format::bytes::u32_at;
use innodb_format::index::record::FieldRef;
use innodb_format::sys::dict_hdr::{
    DICT_HDR_COLUMNS, DICT_HDR_FIELDS, DICT_HDR_INDEXES, DICT_HDR_PAGE_NO, DICT_HDR_TABLES,
};
use serde::Serialize;
use std::sync::Arc;
use sys_record::{SysRecord, DICT_COLUMNS_ID, DICT_FIELDS_ID, DICT_INDEXES_ID, DICT_TABLES_ID};

/// A column (`SYS_COLUMNS`).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DictColumn {
    /// `POS`.
    pub pos: u32,
    /// `NAME`.
    pub name: String,
    /// `MTYPE`: the InnoDB main type.
    pub mtype: u32,
    /// `PRTYPE`: MySQL type, flags (NOT NULL 256, UNSIGNED 512, BINARY 1024…) and collation id.
    pub prtype: u32,
    /// `LEN`: bytes (maximum, for variable-length types).
    pub len: u32,
    /// `PREC`.
    pub prec: u32,
}

/// An index (`SYS_INDEXES` with its `SYS_FIELDS`).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DictIndex {
    /// `ID`.
    pub id: u64,
    /// `NAME`.
    pub name: String,
    /// `N_FIELDS`.
    pub n_fields: u32,
    /// `TYPE`: 1 clustered, 2 unique, 32 FTS, 64 spatial…
    pub index_type: u32,
    /// `SPACE`.
    pub space: u32,
    /// `PAGE_NO`: the root.
    pub root_page: u32,
    /// Its columns by name, in order (`SYS_FIELDS`).
    pub fields: Vec<String>,
}

/// A table (`SYS_TABLES` with its columns and indexes).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DictTable {
    /// `ID`.
    pub id: u64,
    /// `NAME` (`db/table`).
    pub name: String,
    /// `N_COLS` as stored (bit 31: COMPACT or newer).
    pub n_cols: u32,
    /// `TYPE`: the table flags.
    pub flags: u32,
    /// `SPACE`.
    pub space: u32,
    /// Columns by position.
    pub columns: Vec<DictColumn>,
    /// Indexes by id.
    pub indexes: Vec<DictIndex>,
    /// MySQL 8.0+: the dictionary table this InnoDB table is, or is a leaf
    /// partition of, from which its columns come (`columns` is then empty).
    #[serde(skip)]
    pub mysql: Option<Arc<DdTable>>,
}

/// The dictionary of a server: of a system tablespace (`SYS_*`), or MySQL
/// 8.0+'s.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct Dictionary {
    /// Every table, by id.
    pub tables: Vec<DictTable>,
    /// MySQL 8.0+: the tablespaces with their files (`mysql.tablespaces`,
    /// `mysql.tablespace_files`, or each file's SDI).
    pub tablespaces: Vec<DdTablespace>,
    /// Where it was read from, and what was done when a source was missing
    /// or damaged: said to the user (`note: …`).
    pub notes: Vec<String>,
    /// Problems reading it.
    pub findings: Vec<Finding>,
}

impl Dictionary {
    /// The table and index with index id `id`.
    pub fn index(&self, id: u64) -> Option<(&DictTable, &DictIndex)> {
        self.tables
            .iter()
            .find_map(|t| t.indexes.iter().find(|i| i.id == id).map(|i| (t, i)))
    }

    /// The tables of tablespace `space`.
    pub fn tables_in(&self, space: u32) -> impl Iterator<Item = &DictTable> {
        self.tables.iter().filter(move |t| t.space == space)
    }

    /// The dictionary MySQL 8.0+'s `tables` and `tablespaces` make: an
    /// InnoDB table for each table (each leaf partition of a partitioned
    /// one) with its indexes, named as `INNODB_TABLES` names them (`db/t`,
    /// `db/t#p#p0#sp#p0sp0`); the columns stay in the table's definition.
    /// A table whose indexes give no space has space `FIL_NULL`.
    pub fn from_mysql(tables: Vec<DdTable>, tablespaces: Vec<DdTablespace>) -> Dictionary {
        let mut out = Dictionary {
            tablespaces,
            ..Dictionary::default()
        };
        for table in tables {
            let table = Arc::new(table);
            for leaf in table.innodb_tables() {
                let space = leaf.space_id.unwrap_or(innodb_format::FIL_NULL);
                let indexes = leaf
                    .indexes
                    .iter()
                    .filter_map(|li| {
                        let i = table.indexes.get(li.opx)?;
                        Some(DictIndex {
                            id: li.id,
                            name: li.name.clone(),
                            n_fields: u32::try_from(i.elements.len()).unwrap_or(u32::MAX),
                            index_type: dd::innodb_index_type(&table, i),
                            space: li.space_id,
                            root_page: li.root,
                            fields: i
                                .elements
                                .iter()
                                .filter_map(|e| table.columns.get(e.column_opx))
                                .map(|c| c.name.clone())
                                .collect(),
                        })
                    })
                    .collect();
                out.tables.push(DictTable {
                    id: leaf.table_id,
                    name: leaf.name,
                    n_cols: u32::try_from(table.columns.len()).unwrap_or(u32::MAX),
                    flags: 0,
                    space,
                    columns: Vec::new(),
                    indexes,
                    mysql: Some(table.clone()),
                });
            }
        }
        out
    }

    /// The tablespace of space id `space` (MySQL 8.0+).
    pub fn tablespace(&self, space: u32) -> Option<&DdTablespace> {
        self.tablespaces
            .iter()
            .find(|t| t.space_id() == Some(space))
    }

    /// Reads the dictionary of the system tablespace `space` (its id must be 0).
    pub fn read(space: &Tablespace) -> Result<Dictionary, String> {
        if space.space_id() != 0 {
            return Err(format!(
                "{} is tablespace {}, not the system tablespace (0) that holds the dictionary",
                space.path().display(),
                space.space_id()
            ));
        }
        let mut pages = LogicalPages::new(space);
        let hdr = pages
            .read(DICT_HDR_PAGE_NO)
            .ok_or_else(|| format!("{}: no dictionary header page", space.path().display()))?;
        let root = |at: usize| {
            u32_at(&hdr.bytes, at, "DICT_HDR root")
                .map_err(|e| format!("{}: page 7: {e}", space.path().display()))
        };
        let (tables_root, columns_root, indexes_root, fields_root) = (
            root(DICT_HDR_TABLES)?,
            root(DICT_HDR_COLUMNS)?,
            root(DICT_HDR_INDEXES)?,
            root(DICT_HDR_FIELDS)?,
        );
        if [tables_root, columns_root, indexes_root, fields_root] == [0; 4] {
            // MySQL 8.0+ keeps the header's counters but no SYS_* table.
            return Err(format!(
                "{}: page 7 names no SYS_* table (all four roots are 0): a MySQL 8.0+ system tablespace, whose dictionary is in mysql.ibd and each file's SDI",
                space.path().display()
            ));
        }
        let mut d = Dictionary::default();
        let mut records = Vec::new();
        for (root, table, id) in [
            (tables_root, "SYS_TABLES", DICT_TABLES_ID),
            (columns_root, "SYS_COLUMNS", DICT_COLUMNS_ID),
            (indexes_root, "SYS_INDEXES", DICT_INDEXES_ID),
            (fields_root, "SYS_FIELDS", DICT_FIELDS_ID),
        ] {
            rows(&mut pages, root, table, &mut d.findings, |b, f| {
                records.push(sys_record::decode(id, b, f, lossy_text)?);
                Some(())
            });
        }
        let (mut tables, mut columns, mut indexes, mut fields) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for r in records {
            match r {
                SysRecord::Table(t) => tables.push(t),
                SysRecord::Column(table_id, c) => columns.push((table_id, c)),
                SysRecord::Index(table_id, i) => indexes.push((table_id, i)),
                SysRecord::Field(index_id, pos, name) => fields.push((index_id, pos, name)),
            }
        }
        for (index_id, _, name) in fields {
            if let Some((_, i)) = indexes.iter_mut().find(|(_, i)| i.id == index_id) {
                i.fields.push(name);
            }
        }
        for (table_id, c) in columns {
            if let Some(t) = tables.iter_mut().find(|t| t.id == table_id) {
                t.columns.push(c);
            }
        }
        for (table_id, i) in indexes {
            if let Some(t) = tables.iter_mut().find(|t| t.id == table_id) {
                t.indexes.push(i);
            }
        }
        d.tables = tables;
        Ok(d)
    }
}

/// A name of the live dictionary, as its bytes are (never refused).
fn lossy_text(b: &[u8], f: &FieldRef) -> Option<String> {
    Some(
        b.get(f.start..f.start + f.len)
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .unwrap_or_default(),
    )
}

/// Calls `each(record bytes from its origin, its fields)` for every leaf
/// record of the tree at `root` that is not delete-marked; a record that
/// does not decode is a finding.
fn rows(
    pages: &mut LogicalPages<'_>,
    root: u32,
    table: &'static str,
    findings: &mut Vec<Finding>,
    mut each: impl FnMut(&[u8], &[FieldRef]) -> Option<()>,
) {
    let walk = btree::walk(pages, root, |v| {
        if v.page.header.level != 0 {
            return;
        }
        for r in v.records.records.iter().filter(|r| !r.is_deleted()) {
            let bytes = v.page.bytes();
            let ok = r
                .redundant_fields(bytes)
                .ok()
                .and_then(|f| each(bytes.get(r.origin..).unwrap_or(&[]), &f));
            if ok.is_none() {
                findings.push(Finding::on_page(
                    FindingKind::Unreadable,
                    v.page_no,
                    r.origin,
                    table,
                    format!("a {table} record does not have the fields its table has"),
                ));
            }
        }
    });
    findings.extend(walk.findings);
}

//! The records of the `SYS_*` dictionary tables (MariaDB, MySQL ≤ 5.7):
//! `SYS_TABLES`, `SYS_COLUMNS`, `SYS_INDEXES` and `SYS_FIELDS`, REDUNDANT
//! records whose fields are their table's columns in the order `dict_boot`
//! gives them, system columns included. Read by the live dictionary
//! ([`super::Dictionary::read`]) and by the reader of dropped tables'
//! records ([`super::remnants`]).

use super::{DictColumn, DictIndex, DictTable};
use innodb_format::bytes::{u32_at, u64_at};
use innodb_format::index::record::FieldRef;

/// `DICT_TABLES_ID`: the clustered index of `SYS_TABLES`.
pub const DICT_TABLES_ID: u64 = 1;
/// `DICT_COLUMNS_ID`: the clustered index of `SYS_COLUMNS`.
pub const DICT_COLUMNS_ID: u64 = 2;
/// `DICT_INDEXES_ID`: the clustered index of `SYS_INDEXES`.
pub const DICT_INDEXES_ID: u64 = 3;
/// `DICT_FIELDS_ID`: the clustered index of `SYS_FIELDS`.
pub const DICT_FIELDS_ID: u64 = 4;

/// One `SYS_*` record, decoded.
pub(crate) enum SysRecord {
    /// A `SYS_TABLES` record: the table, without columns and indexes.
    Table(DictTable),
    /// A `SYS_COLUMNS` record: its table's id and the column.
    Column(u64, DictColumn),
    /// A `SYS_INDEXES` record: its table's id and the index, without fields.
    Index(u64, DictIndex),
    /// A `SYS_FIELDS` record: its index's id, position and column name.
    Field(u64, u32, String),
}

/// The record of the `SYS_*` table whose clustered index is `id` at `b`
/// (bytes from its origin) with fields `f`; names read by `text` (lenient
/// for the live dictionary, strict for garbage bytes). `None` when a field
/// is missing, NULL or of another length, or `id` is none of the four.
pub(crate) fn decode(
    id: u64,
    b: &[u8],
    f: &[FieldRef],
    text: fn(&[u8], &FieldRef) -> Option<String>,
) -> Option<SysRecord> {
    Some(match id {
        // NAME, DB_TRX_ID, DB_ROLL_PTR, ID, N_COLS, TYPE, MIX_ID, MIX_LEN, CLUSTER_NAME, SPACE
        DICT_TABLES_ID => SysRecord::Table(DictTable {
            name: text(b, f.first()?)?,
            id: int8(b, f.get(3)?)?,
            n_cols: int4(b, f.get(4)?)?,
            flags: int4(b, f.get(5)?)?,
            space: int4(b, f.get(9)?)?,
            columns: Vec::new(),
            indexes: Vec::new(),
            mysql: None,
        }),
        // TABLE_ID, POS, DB_TRX_ID, DB_ROLL_PTR, NAME, MTYPE, PRTYPE, LEN, PREC
        DICT_COLUMNS_ID => SysRecord::Column(
            int8(b, f.first()?)?,
            DictColumn {
                pos: int4(b, f.get(1)?)?,
                name: text(b, f.get(4)?)?,
                mtype: int4(b, f.get(5)?)?,
                prtype: int4(b, f.get(6)?)?,
                len: int4(b, f.get(7)?)?,
                prec: int4(b, f.get(8)?)?,
            },
        ),
        // TABLE_ID, ID, DB_TRX_ID, DB_ROLL_PTR, NAME, N_FIELDS, TYPE, SPACE, PAGE_NO[, MERGE_THRESHOLD]
        DICT_INDEXES_ID => SysRecord::Index(
            int8(b, f.first()?)?,
            DictIndex {
                id: int8(b, f.get(1)?)?,
                name: text(b, f.get(4)?)?,
                n_fields: int4(b, f.get(5)?)?,
                index_type: int4(b, f.get(6)?)?,
                space: int4(b, f.get(7)?)?,
                root_page: int4(b, f.get(8)?)?,
                fields: Vec::new(),
            },
        ),
        // INDEX_ID, POS, DB_TRX_ID, DB_ROLL_PTR, COL_NAME
        DICT_FIELDS_ID => SysRecord::Field(
            int8(b, f.first()?)?,
            int4(b, f.get(1)?)?,
            text(b, f.get(4)?)?,
        ),
        _ => return None,
    })
}

/// An 8-byte integer field (`None` when NULL or of another length).
fn int8(b: &[u8], f: &FieldRef) -> Option<u64> {
    (f.len == 8 && !f.null)
        .then(|| u64_at(b, f.start, "dictionary field").ok())
        .flatten()
}

/// A 4-byte integer field (`None` when NULL or of another length).
fn int4(b: &[u8], f: &FieldRef) -> Option<u32> {
    (f.len == 4 && !f.null)
        .then(|| u32_at(b, f.start, "dictionary field").ok())
        .flatten()
}

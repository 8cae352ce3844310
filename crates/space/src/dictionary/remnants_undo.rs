//! What the undo log of a `DROP TABLE` still tells of the table: the
//! transaction delete-marked the table's `SYS_*` records, and each
//! delete-mark undo record keeps the record's primary key and the fields
//! any index orders by. Read from every UNDO_LOG page of the file (from
//! `TRX_UNDO_PAGE_START`, offset 40, to `TRX_UNDO_PAGE_FREE`, offset 42),
//! also when the log was purged, as long as the page was not reused:
//!
//! - `SYS_TABLES` (table id 1): `NAME`, and `ID` (its field 3, which the
//!   secondary index `ID_IND` orders by);
//! - `SYS_COLUMNS` (2): `TABLE_ID`, `POS`: how many columns;
//! - `SYS_INDEXES` (3): `TABLE_ID`, `ID`: the index ids;
//! - `SYS_FIELDS` (4): `INDEX_ID`, `POS`: how many fields each index has.
//!
//! Names of columns and indexes, and column types, are not in these
//! records.

use innodb_format::bytes::{u16_at, u64_at};
use innodb_format::compressed_int::read_compressed;
use innodb_format::undo::trx_undo::UndoPageHeader;
use innodb_format::undo::trx_undo_rec::{
    kind, UndoField, UndoRecordHeader, UNIV_EXTERN_STORAGE_FIELD,
};
use std::collections::{BTreeMap, BTreeSet};

/// `DICT_TABLES_ID`..`DICT_FIELDS_ID` as table ids (`SYS_TABLES` 1,
/// `SYS_COLUMNS` 2, `SYS_INDEXES` 3, `SYS_FIELDS` 4).
const SYS_TABLES: u64 = 1;
const SYS_COLUMNS: u64 = 2;
const SYS_INDEXES: u64 = 3;
const SYS_FIELDS: u64 = 4;

/// A dropped table as its `DROP TABLE`'s undo records describe it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UndoneTable {
    /// `NAME` (`db/table`), when its `SYS_TABLES` record was found.
    pub name: Option<String>,
    /// Column positions (`SYS_COLUMNS.POS`) delete-marked.
    pub columns: BTreeSet<u32>,
    /// Index ids, each with the field positions (`SYS_FIELDS.POS`) delete-marked.
    pub indexes: BTreeMap<u64, BTreeSet<u32>>,
}

/// The delete-marked `SYS_*` records of the undo page `page`, by table id,
/// into `out`; the undo records read.
pub fn read_page(page: &[u8], out: &mut BTreeMap<u64, UndoneTable>) -> usize {
    let Ok(h) = UndoPageHeader::parse(page) else {
        return 0;
    };
    let (mut at, to) = (usize::from(h.start), usize::from(h.free).min(page.len()));
    let mut fields_of: Vec<(u64, u32)> = Vec::new();
    let mut n = 0;
    while at < to && at > 0 {
        let Ok(r) = UndoRecordHeader::parse_at(page, at) else {
            break;
        };
        n += 1;
        if r.kind == kind::DELETE_MARK {
            record(page, &r, out, &mut fields_of);
        }
        let next = usize::from(r.next);
        if next <= at || next > to {
            break;
        }
        at = next;
    }
    for (index_id, pos) in fields_of {
        if let Some(t) = out.values_mut().find(|t| t.indexes.contains_key(&index_id)) {
            t.indexes.entry(index_id).or_default().insert(pos);
        }
    }
    n
}

/// One delete-mark record of a `SYS_*` table.
fn record(
    page: &[u8],
    r: &UndoRecordHeader,
    out: &mut BTreeMap<u64, UndoneTable>,
    fields_of: &mut Vec<(u64, u32)>,
) {
    let n_unique = match r.table_id {
        SYS_TABLES => 1,
        SYS_COLUMNS | SYS_INDEXES | SYS_FIELDS => 2,
        _ => return,
    };
    let Ok(body) = r.body(page, n_unique) else {
        return;
    };
    let int8 = |f: Option<&UndoField>| {
        f.filter(|f| !f.null)
            .and_then(|f| u64_at(&f.bytes, 0, "id").ok())
    };
    let int4 = |f: Option<&UndoField>| {
        f.filter(|f| !f.null && f.bytes.len() == 4)
            .and_then(|f| innodb_format::bytes::u32_at(&f.bytes, 0, "pos").ok())
    };
    match r.table_id {
        SYS_TABLES => {
            let name = body
                .key
                .first()
                .and_then(|f| std::str::from_utf8(&f.bytes).ok())
                .map(str::to_string);
            if let (Some(name), Some(id)) = (name, ordering_field(page, r, n_unique, 3)) {
                out.entry(id).or_default().name = Some(name);
            }
        }
        SYS_COLUMNS => {
            if let (Some(t), Some(pos)) = (int8(body.key.first()), int4(body.key.get(1))) {
                out.entry(t).or_default().columns.insert(pos);
            }
        }
        SYS_INDEXES => {
            if let (Some(t), Some(i)) = (int8(body.key.first()), int8(body.key.get(1))) {
                out.entry(t).or_default().indexes.entry(i).or_default();
            }
        }
        _ => {
            if let (Some(i), Some(pos)) = (int8(body.key.first()), int4(body.key.get(1))) {
                let pos = if pos > 0xFFFF { pos >> 16 } else { pos };
                fields_of.push((i, pos));
            }
        }
    }
}

/// The 8-byte value of clustered field `field_no` among the ordering
/// fields a delete-mark record keeps after its primary key (a 2-byte
/// length, then field number, length and bytes of each).
fn ordering_field(
    page: &[u8],
    r: &UndoRecordHeader,
    n_unique: usize,
    field_no: u32,
) -> Option<u64> {
    let mut at = r.body;
    for _ in 0..n_unique {
        let (len, n) = read_compressed(page, at, "undo field length").ok()?;
        if len >= UNIV_EXTERN_STORAGE_FIELD {
            return None;
        }
        at += n + len as usize;
    }
    let total = usize::from(u16_at(page, at, "ordering fields length").ok()?);
    let end = at.checked_add(total)?;
    at += 2;
    while at < end {
        let (no, n) = read_compressed(page, at, "ordering field_no").ok()?;
        at += n;
        let (len, n) = read_compressed(page, at, "ordering field length").ok()?;
        at += n;
        if no == field_no && len == 8 {
            return u64_at(page, at, "ordering field").ok();
        }
        at = at.checked_add(len as usize)?;
    }
    None
}

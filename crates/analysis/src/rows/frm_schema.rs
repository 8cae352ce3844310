//! A table's schema from its `.frm` (MariaDB, MySQL 5.x): each column's
//! InnoDB type as the server gives it to InnoDB
//! (`get_innobase_type_from_mysql_type`), with what only the `.frm` says
//! (DECIMAL precision and scale, ENUM/SET labels, fractional seconds
//! digits). Laid over the SYS_* dictionary when there is one (which keeps
//! the index ids, roots and column order), or alone over the file's index
//! roots when there is none.

use crate::rows::ddl::{add_fts_doc_id, clustered_fields, secondary_fields};
use crate::rows::schema::{IndexField, Schema, SchemaIndex};
use innodb_format::frm::column::{field_type as ft, ColumnRecord};
use innodb_format::frm::keys::{HA_FULLTEXT, HA_SPATIAL};
use innodb_format::frm::vcol::ExpressionKind;
use innodb_format::frm::{Frm, FrmColumn};
use innodb_format::value::charset;
use innodb_format::value::column_value::{
    ColumnType, DATA_BINARY, DATA_BLOB, DATA_CHAR, DATA_DOUBLE, DATA_FIXBINARY, DATA_FLOAT,
    DATA_GEOMETRY, DATA_INT, DATA_MYSQL, DATA_NOT_NULL, DATA_UNSIGNED, DATA_VARCHAR, DATA_VARMYSQL,
};

/// `DATA_BINARY_TYPE`: a BLOB of binary bytes.
const DATA_BINARY_TYPE: u32 = 1024;
/// The collation InnoDB keeps as `DATA_CHAR`/`DATA_VARCHAR`
/// (`latin1_swedish_ci`).
const LATIN1_SWEDISH_CI: u32 = 8;

/// The column `c` of the `.frm` as an index field; `Err` names a type this
/// cannot read.
pub fn field_of(c: &FrmColumn) -> Result<IndexField, String> {
    let r = &c.record;
    let column_type = innodb_type(r, c.labels.len()).ok_or_else(|| {
        format!(
            "column {}: MySQL type {} is not supported",
            c.name, r.field_type
        )
    })?;
    let labels =
        (!c.labels.is_empty()).then(|| c.labels.iter().map(|l| label_text(l, r.charset)).collect());
    Ok(IndexField {
        name: c.name.clone(),
        column_type,
        decimal: r.decimal().map(|(p, s)| (p as usize, s as usize)),
        labels,
        set: r.field_type == ft::SET,
        fsp: r.fsp().map(u32::from),
        instant: Default::default(),
    })
}

/// A label as text of its column's character set (else as the bytes
/// allow).
pub(crate) fn label_text(l: &[u8], collation: u32) -> String {
    charset::decode(l, collation).unwrap_or_else(|| String::from_utf8_lossy(l).into_owned())
}

/// The InnoDB type of a column record (`labels`: its ENUM/SET labels).
fn innodb_type(r: &ColumnRecord, labels: usize) -> Option<ColumnType> {
    let nn = if r.nullable() { 0 } else { DATA_NOT_NULL };
    let unsigned = if r.unsigned() { DATA_UNSIGNED } else { 0 };
    let coll = r.charset;
    let binary = coll == 63;
    let t = |mtype, mysql: u32, len: usize| ColumnType {
        mtype,
        prtype: nn | mysql,
        len: len as u32,
    };
    let num = |mtype, mysql: u32, len: u32| ColumnType {
        mtype,
        prtype: nn | unsigned | mysql,
        len,
    };
    let text = |mysql: u32, len: usize, mtype| ColumnType {
        mtype,
        prtype: nn | mysql | (coll << 16),
        len: len as u32,
    };
    let len = usize::from(r.length);
    let pack = r.pack_length(labels);
    Some(match r.field_type {
        ft::TINY => num(DATA_INT, 1, 1),
        ft::SHORT => num(DATA_INT, 2, 2),
        ft::INT24 => num(DATA_INT, 9, 3),
        ft::LONG => num(DATA_INT, 3, 4),
        ft::LONGLONG => num(DATA_INT, 8, 8),
        ft::FLOAT => num(DATA_FLOAT, 4, 4),
        ft::DOUBLE => num(DATA_DOUBLE, 5, 8),
        ft::NEWDECIMAL => t(DATA_FIXBINARY, 246, pack?),
        ft::NEWDATE => t(DATA_INT, 14, 3),
        ft::YEAR => t(DATA_INT, DATA_UNSIGNED | 13, 1),
        ft::TIME2 => t(DATA_FIXBINARY, 11, pack?),
        ft::DATETIME2 => t(DATA_FIXBINARY, 12, pack?),
        ft::TIMESTAMP2 => t(DATA_FIXBINARY, 7, pack?),
        // The formats before MySQL 5.6.4: integers.
        ft::TIME => t(DATA_INT, 11, 3),
        ft::DATETIME => t(DATA_INT, 12, 8),
        ft::TIMESTAMP => t(DATA_INT, DATA_UNSIGNED | 7, 4),
        ft::ENUM | ft::SET => t(DATA_INT, DATA_UNSIGNED | 254, pack?),
        ft::STRING if r.interval_nr > 0 => t(DATA_INT, DATA_UNSIGNED | 254, pack?),
        ft::VARCHAR | ft::VAR_STRING if binary => text(15, len, DATA_BINARY),
        ft::VARCHAR | ft::VAR_STRING if coll == LATIN1_SWEDISH_CI => text(15, len, DATA_VARCHAR),
        ft::VARCHAR | ft::VAR_STRING => text(15, len, DATA_VARMYSQL),
        ft::STRING if binary => text(254, len, DATA_FIXBINARY),
        ft::STRING if coll == LATIN1_SWEDISH_CI => text(254, len, DATA_CHAR),
        ft::STRING => text(254, len, DATA_MYSQL),
        ft::BIT => t(DATA_FIXBINARY, 16, len.div_ceil(8)),
        ft::TINY_BLOB | ft::BLOB | ft::MEDIUM_BLOB | ft::LONG_BLOB => ColumnType {
            mtype: DATA_BLOB,
            prtype: nn | 252 | if binary { DATA_BINARY_TYPE } else { 0 } | (coll << 16),
            len: 65535,
        },
        ft::JSON => t(DATA_BLOB, 245, 65535),
        ft::GEOMETRY => t(DATA_GEOMETRY, 255 | (63 << 16), 256),
        _ => return None,
    })
}

/// True when the column is stored in the records (not a VIRTUAL
/// generated column).
fn stored(c: &FrmColumn) -> bool {
    !matches!(&c.expression, Some(e) if e.kind == ExpressionKind::Virtual)
}

/// The schema of the table `table` from its `.frm` alone, over the index
/// roots of its file (`roots`: (index id, root page) sorted by id): the
/// clustered index is the primary key, else the first UNIQUE key whose
/// columns are all NOT NULL (the `.frm` keeps the keys in the server's
/// order, which is InnoDB's order of creation), else `GEN_CLUST_INDEX`;
/// FULLTEXT keys have no B-tree of the file.
pub fn schema_from_frm(frm: &Frm, table: &str, roots: &[(u64, u32)]) -> Result<Schema, String> {
    let mut columns = Vec::new();
    let mut all = Vec::new();
    for c in &frm.columns {
        let f = field_of(c)?;
        if stored(c) {
            columns.push(f.clone());
        }
        all.push(f);
    }
    let fulltext = frm.keys.iter().any(|k| k.flags & HA_FULLTEXT != 0);
    if fulltext {
        add_fts_doc_id(&mut columns);
    }
    let key_columns = |k: &innodb_format::frm::keys::FrmKey| -> Vec<String> {
        k.parts
            .iter()
            .filter_map(|p| frm.columns.get(usize::from(p.fieldnr).checked_sub(1)?))
            .map(|c| c.name.clone())
            .collect()
    };
    let btree_keys: Vec<_> = frm
        .keys
        .iter()
        .filter(|k| k.flags & HA_FULLTEXT == 0)
        .collect();
    let clustered_at = btree_keys.iter().position(|k| {
        k.name == "PRIMARY"
            || (k.unique()
                && k.flags & HA_SPATIAL == 0
                && key_columns(k).iter().all(|n| {
                    columns
                        .iter()
                        .any(|c| &c.name == n && !c.column_type.nullable())
                }))
    });
    let primary = clustered_at
        .and_then(|i| btree_keys.get(i))
        .map(|k| key_columns(k))
        .unwrap_or_default();
    for f in columns.iter_mut().filter(|f| primary.contains(&f.name)) {
        f.column_type.prtype |= DATA_NOT_NULL;
    }
    let mut roots = roots.iter().filter(|(id, _)| *id != u64::MAX);
    let &(id, root) = roots.next().ok_or("the file has no index root")?;
    let mut indexes = vec![SchemaIndex {
        id,
        name: clustered_at
            .and_then(|i| btree_keys.get(i))
            .map_or_else(|| "GEN_CLUST_INDEX".into(), |k| k.name.clone()),
        root_page: root,
        clustered: true,
        fields: clustered_fields(&columns, &primary)?,
    }];
    for (i, k) in btree_keys.iter().enumerate() {
        if Some(i) == clustered_at {
            continue;
        }
        let Some(&(id, root)) = roots.next() else {
            break;
        };
        indexes.push(SchemaIndex {
            id,
            name: k.name.clone(),
            root_page: root,
            clustered: false,
            fields: secondary_fields(&key_columns(k), &all, &primary)?,
        });
    }
    Ok(Schema {
        table: table.to_string(),
        indexes,
        columns,
        definition: None,
    })
}

/// Lays what the `.frm` says over a schema from the SYS_* dictionary: each
/// field named like a `.frm` column takes its DECIMAL precision and scale,
/// ENUM/SET labels and fractional seconds digits. The dictionary's column
/// order and types stay. Returns the differences between the two (column
/// count, names, types), each a sentence naming both.
pub fn lay_over(schema: &mut Schema, frm: &Frm) -> Vec<String> {
    let mut fields: Vec<IndexField> = Vec::new();
    for c in &frm.columns {
        match field_of(c) {
            Ok(f) => fields.push(f),
            Err(_) => continue,
        }
    }
    let find = |name: &str| fields.iter().find(|f| f.name.eq_ignore_ascii_case(name));
    let index_fields = schema.indexes.iter_mut().flat_map(|i| i.fields.iter_mut());
    for f in index_fields.chain(schema.columns.iter_mut()) {
        if let Some(src) = find(&f.name) {
            if src.column_type.mtype == f.column_type.mtype {
                f.decimal = src.decimal;
                f.labels = src.labels.clone();
                f.set = src.set;
                f.fsp = src.fsp;
            }
        }
    }
    differences(schema, frm, &fields)
}

/// The differences between the dictionary's stored columns and the
/// `.frm`'s.
fn differences(schema: &Schema, frm: &Frm, fields: &[IndexField]) -> Vec<String> {
    let mut out = Vec::new();
    let dict: Vec<&IndexField> = schema.columns.iter().collect();
    let stored: Vec<&IndexField> = frm
        .columns
        .iter()
        .zip(fields)
        .filter(|(c, _)| stored(c))
        .map(|(_, f)| f)
        .collect();
    if dict.is_empty() {
        return out;
    }
    if dict.len() != stored.len() {
        out.push(format!(
            "the dictionary has {} stored columns, the .frm {}",
            dict.len(),
            stored.len()
        ));
    }
    for d in &dict {
        match stored.iter().find(|f| f.name.eq_ignore_ascii_case(&d.name)) {
            None => out.push(format!(
                "column {} of the dictionary is not in the .frm",
                d.name
            )),
            Some(f) if f.column_type.mtype != d.column_type.mtype => out.push(format!(
                "column {}: InnoDB type {} in the dictionary, {} from the .frm",
                d.name, d.column_type.mtype, f.column_type.mtype
            )),
            Some(_) => {}
        }
    }
    for f in &stored {
        if !dict.iter().any(|d| d.name.eq_ignore_ascii_case(&f.name)) {
            out.push(format!(
                "column {} of the .frm is not in the dictionary",
                f.name
            ));
        }
    }
    out
}

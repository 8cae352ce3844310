//! A table's columns as the fields of its indexes' records: from the
//! data dictionary of the system tablespace (MariaDB, MySQL 5.x), from a
//! MySQL 8.0+ file's SDI, or (see `ddl`) from a `CREATE TABLE` statement.

use crate::rows::instant::InstantColumn;
use innodb_format::value::column_value::{self, ColumnType, Value, DATA_SYS};
use innodb_format::value::decimal::{decimal_bin_size, decode_decimal};
use innodb_space::dictionary::{DictIndex, DictTable, Dictionary};
use serde::Serialize;

/// One field of the index's records.
#[derive(Debug, Clone, Serialize)]
pub struct IndexField {
    /// Column name (`DB_ROW_ID`, `DB_TRX_ID`, `DB_ROLL_PTR` for the hidden ones).
    pub name: String,
    /// Its type.
    pub column_type: ColumnType,
    /// DECIMAL precision and scale, when the schema gives them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decimal: Option<(usize, usize)>,
    /// ENUM or SET labels, when the schema gives them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
    /// The labels are a SET's (a bit per label) rather than an ENUM's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub set: bool,
    /// The row versions that added or dropped the column (MySQL 8.0.29+
    /// INSTANT), and the value of records older than it.
    #[serde(flatten)]
    pub instant: InstantColumn,
}

impl IndexField {
    pub(crate) fn plain(name: &str, column_type: ColumnType) -> Self {
        IndexField {
            name: name.into(),
            column_type,
            decimal: None,
            labels: None,
            set: false,
            instant: InstantColumn::default(),
        }
    }

    /// The value of the field bytes `b`.
    pub(crate) fn value(&self, b: &[u8]) -> Value {
        if self.column_type.mtype == DATA_SYS {
            return Value::UInt(b.iter().fold(0u64, |a, &x| (a << 8) | u64::from(x)));
        }
        if let Some((p, sc)) = self.decimal {
            if let Some(d) = decode_decimal(b, p, sc) {
                return Value::Text(d);
            }
        }
        let v = column_value::decode(&self.column_type, b);
        match (&self.labels, &v) {
            (Some(l), Value::UInt(n)) if !self.set => match usize::try_from(*n)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| l.get(i))
            {
                Some(label) => Value::Text(label.clone()),
                None if *n == 0 => Value::Text(String::new()),
                None => v,
            },
            (Some(l), Value::UInt(n)) => Value::Text(
                l.iter()
                    .enumerate()
                    .filter(|(i, _)| n >> i & 1 == 1)
                    .map(|(_, s)| s.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            _ => v,
        }
    }
}

/// An index and the fields of its leaf records.
#[derive(Debug, Clone, Serialize)]
pub struct SchemaIndex {
    /// Index id.
    pub id: u64,
    /// Name.
    pub name: String,
    /// Root page.
    pub root_page: u32,
    /// The clustered index.
    pub clustered: bool,
    /// Fields of its leaf records, in order.
    pub fields: Vec<IndexField>,
}

/// A table's indexes with their fields, from wherever the schema came.
#[derive(Debug, Clone, Serialize)]
pub struct Schema {
    /// Table name.
    pub table: String,
    /// Its indexes.
    pub indexes: Vec<SchemaIndex>,
    /// The table's stored columns in the dictionary's order (`SYS_COLUMNS.POS`,
    /// or the statement's), which MariaDB's instant-ALTER column map refers
    /// to; empty when the schema came from an SDI.
    #[serde(skip)]
    pub columns: Vec<IndexField>,
}

impl Schema {
    /// The schema of the table the dictionary places in tablespace `space_id`.
    pub fn from_dictionary(dict: &Dictionary, space_id: u32) -> Option<Schema> {
        Self::from_dict_table(dict.tables_in(space_id).next()?)
    }

    /// The schema of the table with id `table_id` in the dictionary.
    pub fn from_dictionary_table(dict: &Dictionary, table_id: u64) -> Option<Schema> {
        Self::from_dict_table(dict.tables.iter().find(|t| t.id == table_id)?)
    }

    fn from_dict_table(table: &DictTable) -> Option<Schema> {
        let mut columns: Vec<_> = table.columns.iter().collect();
        columns.sort_by_key(|c| c.pos);
        Some(Schema {
            columns: columns.into_iter().map(dict_field).collect(),
            table: table.name.clone(),
            indexes: table
                .indexes
                .iter()
                .map(|i| SchemaIndex {
                    id: i.id,
                    name: i.name.clone(),
                    root_page: i.root_page,
                    clustered: i.index_type & 1 != 0,
                    fields: index_fields(table, i),
                })
                .collect(),
        })
    }

    /// The schema of the table in a MySQL 8.0+ tablespace's SDI.
    pub fn from_sdi(sdi: &crate::reports::sdi_report::SdiReport) -> Option<Schema> {
        let t = sdi
            .records
            .iter()
            .find(|e| e.sdi_type == 1)?
            .object
            .get("dd_object")?;
        let columns = t["columns"].as_array()?;
        let field = |c: &serde_json::Value| -> Option<IndexField> { sdi_field(c) };
        let mut indexes = Vec::new();
        for i in t["indexes"].as_array()? {
            let private = i["se_private_data"].as_str().unwrap_or("");
            let get = |k: &str| {
                private
                    .split(';')
                    .find_map(|kv| kv.strip_prefix(k)?.strip_prefix('='))
                    .and_then(|v| v.parse::<u64>().ok())
            };
            let (Some(id), Some(root)) = (get("id"), get("root")) else {
                continue;
            };
            let mut fields = Vec::new();
            let mut listed = Vec::new();
            for e in i["elements"].as_array()? {
                let opx = e["column_opx"].as_u64()? as usize;
                listed.push(opx);
                fields.push(field(columns.get(opx)?)?);
            }
            let clustered =
                i["type"].as_u64() == Some(1) || fields.iter().any(|f| f.name == "DB_TRX_ID");
            if clustered && !fields.iter().any(|f| f.name == "DB_TRX_ID") {
                // Tables InnoDB makes itself (FULLTEXT auxiliary tables) list
                // only their key; the system columns follow it.
                fields.push(sys("DB_TRX_ID", 6));
                fields.push(sys("DB_ROLL_PTR", 7));
            }
            if clustered {
                // The clustered records hold every stored column, also those
                // the SDI does not list as elements (the hidden FTS_DOC_ID of
                // a table with a FULLTEXT index), in column order.
                for (opx, c) in columns.iter().enumerate() {
                    if !listed.contains(&opx) && c["is_virtual"].as_bool() != Some(true) {
                        fields.push(field(c)?);
                    }
                }
            }
            if clustered && fields.iter().any(|f| f.instant.is_instant()) {
                // After an INSTANT ADD/DROP the records keep every column,
                // dropped ones too, in physical order.
                if let Some(physical) = physical_order(columns) {
                    fields = physical;
                }
            }
            indexes.push(SchemaIndex {
                id,
                name: i["name"].as_str()?.to_string(),
                root_page: u32::try_from(root).ok()?,
                clustered,
                fields,
            });
        }
        Some(Schema {
            table: t["name"].as_str()?.to_string(),
            indexes,
            columns: Vec::new(),
        })
    }
}

/// Every stored column of an SDI table in `physical_pos` order (dropped
/// columns included), or `None` when a column lacks its position.
fn physical_order(columns: &[serde_json::Value]) -> Option<Vec<IndexField>> {
    let mut placed = Vec::new();
    for c in columns {
        let private = c["se_private_data"].as_str().unwrap_or("");
        let Some(pos) = private
            .split(';')
            .find_map(|kv| kv.strip_prefix("physical_pos="))
            .and_then(|v| v.parse::<u32>().ok())
        else {
            // Virtual columns are not stored.
            if c["is_virtual"].as_bool() == Some(true) {
                continue;
            }
            return None;
        };
        placed.push((pos, sdi_field(c)?));
    }
    placed.sort_by_key(|(pos, _)| *pos);
    Some(placed.into_iter().map(|(_, f)| f).collect())
}

/// One SDI column as an index field (`dd::enum_column_types`).
fn sdi_field(c: &serde_json::Value) -> Option<IndexField> {
    let name = c["name"].as_str()?;
    if let Some(sys) = sdi_system_field(c, name) {
        return Some(sys);
    }
    let sdi_type = c["type"].as_u64()?;
    Some(IndexField {
        name: name.into(),
        column_type: sdi_column_type(c, sdi_type)?,
        decimal: (sdi_type == 21).then(|| {
            (
                c["numeric_precision"].as_u64().unwrap_or(0) as usize,
                c["numeric_scale"].as_u64().unwrap_or(0) as usize,
            )
        }),
        labels: sdi_labels(c),
        set: sdi_type == 23,
        instant: InstantColumn::from_se_private_data(c["se_private_data"].as_str().unwrap_or("")),
    })
}

/// `DB_TRX_ID`, `DB_ROLL_PTR` or `DB_ROW_ID` when the SDI column `c` is
/// that hidden system column.
fn sdi_system_field(c: &serde_json::Value, name: &str) -> Option<IndexField> {
    if !matches!(name, "DB_TRX_ID" | "DB_ROLL_PTR" | "DB_ROW_ID") || c["hidden"].as_u64() != Some(2)
    {
        return None;
    }
    let len = if name == "DB_ROLL_PTR" { 7 } else { 6 };
    Some(sys(name, len))
}

/// True when the SDI column `c` can be NULL. InnoDB's own tables
/// (FULLTEXT auxiliary ones) say in se_private_data how InnoDB stores the
/// column, which wins over the SQL-level flag.
fn sdi_nullable(c: &serde_json::Value) -> bool {
    let private = c["se_private_data"].as_str().unwrap_or("");
    if private.split(';').any(|kv| kv == "nullable=1") {
        true
    } else if private.split(';').any(|kv| kv == "nullable=0") {
        false
    } else {
        c["is_nullable"].as_bool() != Some(false)
    }
}

/// The InnoDB type of the SDI column `c` of `dd::enum_column_types` type
/// `sdi_type`: the MySQL type in `prtype`'s low byte, nullability,
/// signedness and collation in its flags, the length in bytes.
fn sdi_column_type(c: &serde_json::Value, sdi_type: u64) -> Option<ColumnType> {
    use column_value::*;
    let bytes = c["char_length"].as_u64().unwrap_or(0) as u32;
    let collation = c["collation_id"].as_u64().unwrap_or(63) as u32;
    let not_null = if sdi_nullable(c) { 0 } else { DATA_NOT_NULL };
    let unsigned = if c["is_unsigned"].as_bool() == Some(true) {
        DATA_UNSIGNED
    } else {
        0
    };
    let frac = (c["datetime_precision"].as_u64().unwrap_or(0) as u32).div_ceil(2);
    let ty = |mtype: u32, mysql: u32, len: u32| ColumnType {
        mtype,
        prtype: not_null | unsigned | mysql | (collation << 16),
        len,
    };
    // YEAR, ENUM and SET are unsigned whatever the SDI says, and carry no collation.
    let labelled = |mysql: u32, len: u32| ColumnType {
        mtype: DATA_INT,
        prtype: not_null | DATA_UNSIGNED | mysql,
        len,
    };
    let binary = collation == 63;
    let n_elements = c["elements"].as_array().map_or(0, |e| e.len());
    Some(match sdi_type {
        2 => ty(DATA_INT, 1, 1),
        3 => ty(DATA_INT, 2, 2),
        10 => ty(DATA_INT, 9, 3),
        4 => ty(DATA_INT, 3, 4),
        9 => ty(DATA_INT, 8, 8),
        5 => ty(DATA_FLOAT, 4, 4),
        6 => ty(DATA_DOUBLE, 5, 8),
        14 => labelled(13, 1),
        11 | 15 => ty(DATA_INT, 14, 3),
        18 => ty(DATA_FIXBINARY, 17, 4 + frac),
        19 => ty(DATA_FIXBINARY, 18, 5 + frac),
        20 => ty(DATA_FIXBINARY, 19, 3 + frac),
        8 => ty(DATA_INT, 7, 4),
        13 => ty(DATA_INT, 12, 8),
        12 => ty(DATA_INT, 11, 3),
        21 => {
            let precision = c["numeric_precision"].as_u64().unwrap_or(0) as usize;
            let scale = c["numeric_scale"].as_u64().unwrap_or(0) as usize;
            ty(
                DATA_FIXBINARY,
                246,
                decimal_bin_size(precision, scale) as u32,
            )
        }
        16 | 28 if binary => ty(DATA_BINARY, 15, bytes),
        16 | 28 => ty(DATA_VARMYSQL, 15, bytes),
        29 if binary => ty(DATA_FIXBINARY, 254, bytes),
        29 => ty(DATA_MYSQL, 254, bytes),
        24..=27 => ty(DATA_BLOB, 252, bytes.max(256)),
        // JSON (MySQL's binary JSON) and VECTOR (MySQL 9: 4-byte floats).
        31 => ty(DATA_BLOB, 245, bytes.max(256)),
        32 => ty(DATA_BLOB, 242, bytes.max(256)),
        30 => ty(DATA_GEOMETRY, 255, bytes.max(256)),
        22 => labelled(247, if n_elements > 255 { 2 } else { 1 }),
        23 => labelled(248, set_bytes(n_elements)),
        17 => ty(DATA_FIXBINARY, 16, bytes.div_ceil(8).max(1)),
        _ => return None,
    })
}

/// Bytes of a SET of `n` members: a bit each, in 1 to 4 bytes or 8.
fn set_bytes(n: usize) -> u32 {
    match n.div_ceil(8) {
        0 | 1 => 1,
        2 => 2,
        3 => 3,
        4 => 4,
        _ => 8,
    }
}

/// The ENUM or SET labels of the SDI column `c` (base64 in the SDI).
fn sdi_labels(c: &serde_json::Value) -> Option<Vec<String>> {
    c["elements"].as_array().filter(|e| !e.is_empty()).map(|e| {
        e.iter()
            .map(|x| {
                let b64 = x["name"].as_str().unwrap_or("");
                String::from_utf8_lossy(&base64_decode(b64)).into_owned()
            })
            .collect()
    })
}

/// Standard base64 (the SDI's ENUM/SET labels).
fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for v in s.bytes().filter_map(val) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

fn sys(name: &str, len: u32) -> IndexField {
    IndexField::plain(
        name,
        ColumnType {
            mtype: DATA_SYS,
            prtype: column_value::DATA_NOT_NULL,
            len,
        },
    )
}

/// A dictionary column as an index field.
fn dict_field(c: &innodb_space::dictionary::DictColumn) -> IndexField {
    IndexField::plain(
        &c.name,
        ColumnType {
            mtype: c.mtype,
            prtype: c.prtype,
            len: c.len,
        },
    )
}

/// The fields of `index`'s leaf records, in order.
fn index_fields(table: &DictTable, index: &DictIndex) -> Vec<IndexField> {
    let col = |name: &str| {
        table
            .columns
            .iter()
            .find(|c| c.name == name)
            .map(dict_field)
    };
    let clustered_index = table.indexes.iter().find(|i| i.index_type & 1 != 0);
    let mut out: Vec<IndexField> = Vec::new();
    if index.index_type & 1 != 0 {
        if index.name == "GEN_CLUST_INDEX" {
            out.push(sys("DB_ROW_ID", 6));
        } else {
            out.extend(index.fields.iter().filter_map(|f| col(f)));
        }
        out.push(sys("DB_TRX_ID", 6));
        out.push(sys("DB_ROLL_PTR", 7));
        let mut cols: Vec<_> = table.columns.iter().collect();
        cols.sort_by_key(|c| c.pos);
        for c in cols {
            if !index.fields.contains(&c.name) {
                out.extend(col(&c.name));
            }
        }
    } else {
        out.extend(index.fields.iter().filter_map(|f| col(f)));
        match clustered_index {
            Some(ci) if ci.name == "GEN_CLUST_INDEX" => out.push(sys("DB_ROW_ID", 6)),
            Some(ci) => {
                for f in &ci.fields {
                    if !index.fields.contains(f) {
                        out.extend(col(f));
                    }
                }
            }
            None => {}
        }
    }
    out
}

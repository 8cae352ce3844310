//! A table's columns as the fields of its indexes' records: from the
//! data dictionary of the system tablespace (MariaDB, MySQL 5.x), from a
//! MySQL 8.0+ file's SDI, or (see `ddl`) from a `CREATE TABLE` statement.

use crate::rows::instant::InstantColumn;
use innodb_format::value::column_value::{self, ColumnType, Value, DATA_SYS};
use innodb_format::value::decimal::{decimal_bin_size, decode_decimal};
use innodb_space::dictionary::dd::{private_value, DdColumn, DdTable, InnodbTable};
use innodb_space::dictionary::{DictIndex, DictTable, Dictionary};
use serde::Serialize;

/// One field of the index's records.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
    /// Fractional seconds digits of a TIME, DATETIME or TIMESTAMP, when
    /// the schema declares them (`DATETIME(3)`: 3); else two a stored byte.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fsp: Option<u32>,
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
            fsp: None,
            instant: InstantColumn::default(),
        }
    }

    /// The value of the field bytes `b`.
    pub(crate) fn value(&self, b: &[u8]) -> Value {
        let mut v = Value::Null;
        self.value_into(b, &mut v);
        v
    }

    /// The value of the field bytes `b`, written over `slot` (a text or
    /// hex value reuses the string `slot` held).
    pub(crate) fn value_into(&self, b: &[u8], slot: &mut Value) {
        if self.column_type.mtype == DATA_SYS {
            *slot = Value::UInt(b.iter().fold(0u64, |a, &x| (a << 8) | u64::from(x)));
            return;
        }
        if let Some((p, sc)) = self.decimal {
            if let Some(d) = decode_decimal(b, p, sc) {
                *slot = Value::Text(d);
                return;
            }
        }
        column_value::decode_into(&self.column_type, b, self.fsp, slot);
        if self.labels.is_some() {
            let v = std::mem::replace(slot, Value::Null);
            *slot = self.labelled(v);
        }
    }

    /// The ENUM or SET value `v` (its number) as its label(s).
    fn labelled(&self, v: Value) -> Value {
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
    /// The table as `CREATE TABLE` declares it, when the schema's source
    /// says (see [`super::table_definition`]).
    #[serde(skip)]
    pub definition: Option<super::table_definition::TableDefinition>,
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

    /// The schema of the dictionary's `table`: from its MySQL definition
    /// when it has one, else from its `SYS_COLUMNS` and `SYS_FIELDS`.
    pub fn from_dict_table(table: &DictTable) -> Option<Schema> {
        if let Some(dd) = &table.mysql {
            let leaf = dd
                .innodb_tables()
                .into_iter()
                .find(|l| l.name == table.name)?;
            return Schema::from_dd(dd, &leaf);
        }
        let mut columns: Vec<_> = table.columns.iter().collect();
        columns.sort_by_key(|c| c.pos);
        Some(Schema {
            columns: columns.into_iter().map(dict_field).collect(),
            definition: Some(super::definition_sys::from_sys_tables(table)),
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

    /// The schema of the first table a MySQL 8.0+ tablespace's SDI
    /// describes in that tablespace (see [`crate::dictionary::sdi`] for
    /// every table of a general tablespace).
    pub fn from_sdi(sdi: &crate::reports::sdi_report::SdiReport) -> Option<Schema> {
        let space_id = sdi.header.space_id;
        let objects = crate::dictionary::sdi::objects(sdi);
        let leaves: Vec<(&DdTable, InnodbTable)> = objects
            .tables
            .iter()
            .flat_map(|t| t.innodb_tables().into_iter().map(move |l| (t, l)))
            .collect();
        // The table in this space; else (a file whose SDI names another
        // space) the first.
        let (t, l) = leaves
            .iter()
            .find(|(_, l)| l.space_id == Some(space_id))
            .or_else(|| leaves.first())?;
        Schema::from_dd(t, l)
    }

    /// The schema of the InnoDB table `leaf` (the table, or one of its leaf
    /// partitions) of MySQL's dictionary table `table`: each index's
    /// fields from its elements, its id and root from `leaf`.
    pub fn from_dd(table: &DdTable, leaf: &InnodbTable) -> Option<Schema> {
        let columns = &table.columns;
        let mut indexes = Vec::new();
        for li in &leaf.indexes {
            let i = table.indexes.get(li.opx)?;
            let mut fields = Vec::new();
            let mut listed = Vec::new();
            for e in &i.elements {
                listed.push(e.column_opx);
                fields.push(dd_field(columns.get(e.column_opx)?)?);
            }
            let clustered = i.index_type == 1 || fields.iter().any(|f| f.name == "DB_TRX_ID");
            if clustered && !fields.iter().any(|f| f.name == "DB_TRX_ID") {
                // Tables InnoDB makes itself (FULLTEXT auxiliary tables) list
                // only their key; the system columns follow it.
                fields.push(sys("DB_TRX_ID", 6));
                fields.push(sys("DB_ROLL_PTR", 7));
            }
            if clustered {
                // The clustered records hold every stored column, also those
                // the dictionary does not list as elements (the hidden
                // FTS_DOC_ID of a table with a FULLTEXT index), in column order.
                for (opx, c) in columns.iter().enumerate() {
                    if !listed.contains(&opx) && !c.is_virtual {
                        fields.push(dd_field(c)?);
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
                id: li.id,
                name: li.name.clone(),
                root_page: li.root,
                clustered,
                fields,
            });
        }
        Some(Schema {
            table: leaf.name.clone(),
            indexes,
            columns: Vec::new(),
            definition: Some(super::definition_dd::from_dd(table)),
        })
    }
}

/// Every stored column of a dictionary table in `physical_pos` order
/// (dropped columns included), or `None` when a column lacks its position.
fn physical_order(columns: &[DdColumn]) -> Option<Vec<IndexField>> {
    let mut placed = Vec::new();
    for c in columns {
        let Some(pos) =
            private_value(&c.se_private_data, "physical_pos").and_then(|v| v.parse::<u32>().ok())
        else {
            // Virtual columns are not stored.
            if c.is_virtual {
                continue;
            }
            return None;
        };
        placed.push((pos, dd_field(c)?));
    }
    placed.sort_by_key(|(pos, _)| *pos);
    Some(placed.into_iter().map(|(_, f)| f).collect())
}

/// One dictionary column as an index field (`dd::enum_column_types`).
fn dd_field(c: &DdColumn) -> Option<IndexField> {
    if let Some(sys) = dd_system_field(c) {
        return Some(sys);
    }
    Some(IndexField {
        name: c.name.clone(),
        column_type: dd_column_type(c)?,
        decimal: (c.column_type == 21)
            .then_some((c.numeric_precision as usize, c.numeric_scale as usize)),
        labels: (!c.elements.is_empty()).then(|| c.elements.clone()),
        set: c.column_type == 23,
        fsp: matches!(c.column_type, 18..=20).then_some(c.datetime_precision as u32),
        instant: InstantColumn::from_se_private_data(&c.se_private_data),
    })
}

/// `DB_TRX_ID`, `DB_ROLL_PTR` or `DB_ROW_ID` when the column `c` is that
/// hidden system column.
fn dd_system_field(c: &DdColumn) -> Option<IndexField> {
    let name = c.name.as_str();
    if !matches!(name, "DB_TRX_ID" | "DB_ROLL_PTR" | "DB_ROW_ID") || c.hidden != 2 {
        return None;
    }
    let len = if name == "DB_ROLL_PTR" { 7 } else { 6 };
    Some(sys(name, len))
}

/// True when the column `c` can be NULL. InnoDB's own tables (FULLTEXT
/// auxiliary ones) say in se_private_data how InnoDB stores the column,
/// which wins over the SQL-level flag.
fn dd_nullable(c: &DdColumn) -> bool {
    match private_value(&c.se_private_data, "nullable") {
        Some("1") => true,
        Some("0") => false,
        _ => c.is_nullable,
    }
}

/// The InnoDB type of the dictionary column `c`: the MySQL type in
/// `prtype`'s low byte, nullability, signedness and collation in its
/// flags, the length in bytes.
fn dd_column_type(c: &DdColumn) -> Option<ColumnType> {
    use column_value::*;
    let bytes = c.char_length as u32;
    let collation = c.collation_id as u32;
    let not_null = if dd_nullable(c) { 0 } else { DATA_NOT_NULL };
    let unsigned = if c.is_unsigned { DATA_UNSIGNED } else { 0 };
    let frac = (c.datetime_precision as u32).div_ceil(2);
    let ty = |mtype: u32, mysql: u32, len: u32| ColumnType {
        mtype,
        prtype: not_null | unsigned | mysql | (collation << 16),
        len,
    };
    // YEAR, ENUM and SET are unsigned whatever the dictionary says, and
    // carry no collation.
    let labelled = |mysql: u32, len: u32| ColumnType {
        mtype: DATA_INT,
        prtype: not_null | DATA_UNSIGNED | mysql,
        len,
    };
    let binary = collation == 63;
    let n_elements = c.elements.len();
    Some(match c.column_type {
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
        21 => ty(
            DATA_FIXBINARY,
            246,
            decimal_bin_size(c.numeric_precision as usize, c.numeric_scale as usize) as u32,
        ),
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

//! `records`: the rows of an index in key order, decoded with the table's
//! columns from the data dictionary (`--system ibdata1`).

use crate::instant::{self, InstantColumn};
use crate::mariadb_instant;
use innodb_format::column_value::{self, ColumnType, RollPtr, Value, DATA_SYS};
use innodb_format::page_type::PageType;
use innodb_format::record::{RecordFormat, RecordHeader, RecordType};
use innodb_format::sdi::{self, ExternRef, BTR_EXTERN_FIELD_REF_SIZE};
use innodb_space::dictionary::{DictIndex, DictTable, Dictionary};
use innodb_space::logical_pages::LogicalPages;
use innodb_space::{btree, lob, zblob};
use innodb_space::{Finding, FindingKind, Tablespace};
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
            if let Some(d) = column_value::decode_decimal(b, p, sc) {
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
    pub fn from_sdi(sdi: &crate::sdi_report::SdiReport) -> Option<Schema> {
        let t = &sdi.records.iter().find(|e| e.sdi_type == 1)?.object["dd_object"];
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
    use column_value::*;
    let name = c["name"].as_str()?;
    let bytes = c["char_length"].as_u64().unwrap_or(0) as u32;
    let collation = c["collation_id"].as_u64().unwrap_or(63) as u32;
    // InnoDB's own tables (FULLTEXT auxiliary ones) say in se_private_data
    // how InnoDB stores the column, which wins over the SQL-level flag.
    let private = c["se_private_data"].as_str().unwrap_or("");
    let nullable = if private.split(';').any(|kv| kv == "nullable=1") {
        true
    } else if private.split(';').any(|kv| kv == "nullable=0") {
        false
    } else {
        c["is_nullable"].as_bool() != Some(false)
    };
    let not_null = if nullable { 0 } else { DATA_NOT_NULL };
    let unsigned = if c["is_unsigned"].as_bool() == Some(true) {
        DATA_UNSIGNED
    } else {
        0
    };
    let dp = c["datetime_precision"].as_u64().unwrap_or(0) as u32;
    let frac = dp.div_ceil(2);
    let ty = |mtype: u32, mysql: u32, len: u32| ColumnType {
        mtype,
        prtype: not_null | unsigned | mysql | (collation << 16),
        len,
    };
    if matches!(name, "DB_TRX_ID" | "DB_ROLL_PTR" | "DB_ROW_ID") && c["hidden"].as_u64() == Some(2)
    {
        let len = if name == "DB_ROLL_PTR" { 7 } else { 6 };
        return Some(IndexField::plain(
            name,
            ColumnType {
                mtype: DATA_SYS,
                prtype: DATA_NOT_NULL,
                len,
            },
        ));
    }
    let binary = collation == 63;
    let column_type = match c["type"].as_u64()? {
        2 => ty(DATA_INT, 1, 1),
        3 => ty(DATA_INT, 2, 2),
        10 => ty(DATA_INT, 9, 3),
        4 => ty(DATA_INT, 3, 4),
        9 => ty(DATA_INT, 8, 8),
        5 => ty(DATA_FLOAT, 4, 4),
        6 => ty(DATA_DOUBLE, 5, 8),
        14 => ColumnType {
            mtype: DATA_INT,
            prtype: not_null | DATA_UNSIGNED | 13,
            len: 1,
        },
        11 | 15 => ty(DATA_INT, 14, 3),
        18 => ty(DATA_FIXBINARY, 17, 4 + frac),
        19 => ty(DATA_FIXBINARY, 18, 5 + frac),
        20 => ty(DATA_FIXBINARY, 19, 3 + frac),
        8 => ty(DATA_INT, 7, 4),
        13 => ty(DATA_INT, 12, 8),
        12 => ty(DATA_INT, 11, 3),
        21 => {
            // decimal_bin_size: 4 bytes per 9 digits, leftovers in 1-4 bytes.
            const DIG2BYTES: [u32; 10] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];
            let p = c["numeric_precision"].as_u64().unwrap_or(0) as u32;
            let sc = c["numeric_scale"].as_u64().unwrap_or(0) as u32;
            let intg = p.saturating_sub(sc);
            let len = intg / 9 * 4
                + DIG2BYTES[(intg % 9) as usize]
                + sc / 9 * 4
                + DIG2BYTES[(sc % 9) as usize];
            ty(DATA_FIXBINARY, 246, len)
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
        22 => {
            let n = c["elements"].as_array().map_or(0, |e| e.len());
            ColumnType {
                mtype: DATA_INT,
                prtype: not_null | DATA_UNSIGNED | 247,
                len: if n > 255 { 2 } else { 1 },
            }
        }
        23 => {
            let n = c["elements"].as_array().map_or(0, |e| e.len()) as u32;
            let len = match n.div_ceil(8) {
                0 | 1 => 1,
                2 => 2,
                3 => 3,
                4 => 4,
                _ => 8,
            };
            ColumnType {
                mtype: DATA_INT,
                prtype: not_null | DATA_UNSIGNED | 248,
                len,
            }
        }
        17 => ty(DATA_FIXBINARY, 16, bytes.div_ceil(8).max(1)),
        _ => return None,
    };
    let labels = c["elements"].as_array().filter(|e| !e.is_empty()).map(|e| {
        e.iter()
            .map(|x| {
                let b64 = x["name"].as_str().unwrap_or("");
                String::from_utf8_lossy(&base64_decode(b64)).into_owned()
            })
            .collect()
    });
    let decimal = (c["type"].as_u64() == Some(21)).then(|| {
        (
            c["numeric_precision"].as_u64().unwrap_or(0) as usize,
            c["numeric_scale"].as_u64().unwrap_or(0) as usize,
        )
    });
    Some(IndexField {
        name: name.into(),
        column_type,
        decimal,
        labels,
        set: c["type"].as_u64() == Some(23),
        instant: InstantColumn::from_se_private_data(c["se_private_data"].as_str().unwrap_or("")),
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

/// Where a row was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RowState {
    /// A record of the index.
    Live,
    /// Delete-marked: still in the index, deleted by a transaction, not yet purged.
    DeleteMarked,
    /// In a page's garbage list: a purged record whose bytes are still there
    /// until its space is reused (MySQL leaves them; MariaDB zeroes them, and
    /// such records are only counted, as `erased_records`).
    Garbage,
}

struct RawField {
    bytes: Vec<u8>,
    null: bool,
    /// Not stored in this record's row version.
    absent: bool,
    external: Option<ExternRef>,
}

struct RawRow {
    page: u32,
    origin: usize,
    state: RowState,
    confidence: Option<Confidence>,
    fields: Vec<RawField>,
}

/// Where a COMPACT record begins and ends by the schema's reading of it:
/// bytes before the origin (header, null bitmap, lengths) and after it.
#[derive(Debug, Clone, Copy)]
struct Extent {
    origin: usize,
    before: usize,
    after: usize,
    /// In the page's garbage list.
    garbage: bool,
}

impl Extent {
    fn start(&self) -> usize {
        self.origin.saturating_sub(self.before)
    }
    fn end(&self) -> usize {
        self.origin + self.after
    }
}

/// How far a deleted record's values can be trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// Parts of its bytes have been reused by a live record, or an
    /// off-page part is gone: some values are not the deleted row's.
    Low,
    /// Read whole, but nothing around it confirms where it ends.
    Medium,
    /// Intact: delete-marked and still in the index, or a garbage-list
    /// record whose bytes no live record has taken and which ends where a
    /// neighbour (or the heap) begins.
    High,
}

/// The confidence of the garbage-list record at `origin` among the
/// page's record `extents` (`heap_top`: where the heap ends).
fn garbage_confidence(origin: usize, extents: &[Extent], heap_top: usize) -> Confidence {
    let Some(g) = extents.iter().find(|e| e.origin == origin) else {
        return Confidence::Medium;
    };
    let overwritten = extents
        .iter()
        .any(|e| !e.garbage && e.start() < g.end() && g.start() < e.end());
    if overwritten {
        return Confidence::Low;
    }
    let meets = g.end() == heap_top
        || extents
            .iter()
            .any(|e| e.origin != origin && (e.end() == g.start() || g.end() == e.start()));
    if meets {
        Confidence::High
    } else {
        Confidence::Medium
    }
}

/// Every field's bytes of the record `r`, or `None` when its layout does
/// not fit the index's fields or runs past the record heap.
fn raw_fields(
    bytes: &[u8],
    r: &RecordHeader,
    format: RecordFormat,
    fields: &[IndexField],
    heap_top: usize,
    mariadb_core: Option<usize>,
) -> Option<Vec<RawField>> {
    let places: Vec<Place> = match format {
        RecordFormat::Compact => compact_fields(bytes, r, fields, mariadb_core)?.0,
        RecordFormat::Redundant => {
            let stored = r.redundant_fields(bytes).ok()?;
            // After a MariaDB instant ADD a record may hold fewer fields than
            // the index: the others take the metadata record's defaults.
            let least = mariadb_core.unwrap_or(fields.len());
            if stored.len() > fields.len() || stored.len() < least {
                return None;
            }
            let mut places: Vec<Place> = stored
                .iter()
                .map(|f| Place {
                    start: f.start,
                    len: f.len,
                    null: f.null,
                    external: f.external,
                    absent: false,
                })
                .collect();
            let end = places.last().map_or(0, |p| p.start + p.len);
            places.resize(
                fields.len(),
                Place {
                    start: end,
                    absent: true,
                    ..Place::default()
                },
            );
            places
        }
    };
    let end = places.last().map_or(0, |p| p.start + p.len);
    if r.origin + end > heap_top {
        return None;
    }
    let raw = places
        .into_iter()
        .map(|p| {
            let b = bytes.get(r.origin + p.start..r.origin + p.start + p.len)?;
            let field = |bytes: &[u8], external| RawField {
                bytes: bytes.to_vec(),
                null: p.null,
                absent: p.absent,
                external,
            };
            Some(if p.external && p.len >= BTR_EXTERN_FIELD_REF_SIZE {
                let split = p.len - BTR_EXTERN_FIELD_REF_SIZE;
                field(&b[..split], ExternRef::parse(&b[split..]).ok())
            } else {
                field(b, None)
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(raw)
}

/// One row.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Leaf page.
    pub page: u32,
    /// Record origin on the page.
    pub origin: usize,
    /// Not a live row (only listed with `--deleted`).
    pub deleted: bool,
    /// Live, delete-marked, or read from the garbage list.
    pub state: RowState,
    /// For a deleted row: how far its values can be trusted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
    /// Values, in field order.
    pub values: Vec<Value>,
    /// `DB_ROLL_PTR` taken apart, for clustered records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll_ptr: Option<RollPtr>,
}

/// The `records` report.
#[derive(Debug, Clone, Serialize)]
pub struct RecordsReport {
    /// `db/table`.
    pub table: String,
    /// Index name.
    pub index: String,
    /// Index id.
    pub index_id: u64,
    /// Field names and types.
    pub fields: Vec<IndexField>,
    /// Rows in key order (garbage-list records after each page's list).
    pub rows: Vec<Row>,
    /// Garbage-list records whose bytes the server zeroed (with `--deleted`).
    pub erased_records: usize,
    /// How well the schema's reading of the COMPACT records fits the pages.
    pub layout: LayoutFit,
    /// Problems.
    pub findings: Vec<Finding>,
}

/// Records that do not fit the schema listed one by one, at most.
const MAX_RECORD_FINDINGS: usize = 20;

/// Whether a schema reads COMPACT records at their true size: records are
/// laid out one after another in the page heap, so with the right columns
/// a record's last byte is followed by the next record's header and null
/// bitmap and lengths. A wrong schema (other column types, a missing or
/// extra column) breaks this for most neighbours.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct LayoutFit {
    /// Neighbouring records (in heap address order) compared.
    pub pairs: usize,
    /// Those where the first ends exactly where the second begins.
    pub fitting_pairs: usize,
    /// Records (not in a garbage list) the schema could not read at all.
    pub unreadable: usize,
}

impl LayoutFit {
    /// Adds the neighbours among one page's records, and empties `extents`.
    fn add_page(&mut self, extents: &mut Vec<Extent>) {
        extents.sort_by_key(|e| e.origin);
        for w in extents.windows(2) {
            self.pairs += 1;
            if w[0].origin + w[0].after + w[1].before == w[1].origin {
                self.fitting_pairs += 1;
            }
        }
        extents.clear();
    }

    /// True unless most neighbours disagree with the schema (fewer than
    /// half meet, records it cannot read counting against it); nothing
    /// compared counts as fitting.
    pub fn fits(&self) -> bool {
        self.fitting_pairs * 2 >= self.pairs + self.unreadable
    }
}

/// Why there are no records to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoRecords {
    /// No index of that name or id; the ones there are.
    NoIndex(Vec<String>),
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

/// Where one field of a record is.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Place {
    /// Offset from the record origin.
    pub(crate) start: usize,
    /// Bytes in the record.
    pub(crate) len: usize,
    /// SQL NULL.
    pub(crate) null: bool,
    /// Ends with a 20-byte reference to off-page data.
    pub(crate) external: bool,
    /// Not stored in a record of this row version (INSTANT ADD/DROP).
    pub(crate) absent: bool,
}

/// Where each field of a COMPACT leaf record is. A record carrying a row
/// version stores only the fields of that version, its null bitmap
/// covering those alone.
///
/// `mariadb_core`: the clustered index's `n_core_fields` after a MariaDB
/// instant ALTER: an ordinary record holds that many fields, a
/// `REC_STATUS_INSTANT` one says how many more before its null bitmap.
pub(crate) fn compact_fields(
    page: &[u8],
    rec: &RecordHeader,
    fields: &[IndexField],
    mariadb_core: Option<usize>,
) -> Option<(Vec<Place>, usize)> {
    let (stored_n, version, version_bytes) = match mariadb_core {
        Some(n_core) if rec.record_type == RecordType::Instant => {
            let (n_add, bytes) = mariadb_instant::n_add_fields(page, rec.origin)?;
            (Some(n_core + 1 + n_add), 0, bytes)
        }
        Some(n_core) => (Some(n_core), 0, 0),
        None => {
            let (v, bytes) = instant::row_version(page, rec.origin, rec.info_bits)?;
            (None, v, bytes)
        }
    };
    let stored_at = |i: usize, f: &IndexField| match stored_n {
        Some(n) => i < n,
        None => f.instant.stored_in(version),
    };
    let n_nullable = fields
        .iter()
        .enumerate()
        .filter(|(i, f)| stored_at(*i, f) && f.column_type.nullable())
        .count();
    let extra = |i: usize| {
        rec.origin
            .checked_sub(6 + version_bytes + i)
            .and_then(|a| page.get(a).copied())
    };
    let mut null_i = 0usize;
    let mut len_at = n_nullable.div_ceil(8);
    let mut start = 0usize;
    let mut out = Vec::with_capacity(fields.len());
    for (i, f) in fields.iter().enumerate() {
        if !stored_at(i, f) {
            out.push(Place {
                start,
                absent: true,
                ..Place::default()
            });
            continue;
        }
        let t = &f.column_type;
        if t.nullable() {
            let is_null = extra(null_i / 8)? >> (null_i % 8) & 1 == 1;
            null_i += 1;
            if is_null {
                out.push(Place {
                    start,
                    null: true,
                    ..Place::default()
                });
                continue;
            }
        }
        let (len, external) = match t.fixed_size() {
            Some(n) => (n, false),
            None => {
                let b = usize::from(extra(len_at)?);
                len_at += 1;
                if t.big() && b & 0x80 != 0 {
                    let v = (b << 8) | usize::from(extra(len_at)?);
                    len_at += 1;
                    (v & 0x3fff, v & 0x4000 != 0)
                } else {
                    (b, false)
                }
            }
        };
        out.push(Place {
            start,
            len,
            external,
            ..Place::default()
        });
        start += len;
    }
    // The 5 header bytes, the version byte, the null bitmap and the lengths.
    Some((out, 5 + version_bytes + len_at))
}

impl RecordsReport {
    /// The rows of index `which` (name or id; the clustered index when `None`)
    /// of the table `schema` describes.
    pub fn build(
        space: &Tablespace,
        schema: &Schema,
        which: Option<&str>,
        deleted: bool,
        limit: Option<usize>,
    ) -> Result<RecordsReport, NoRecords> {
        let index = match which {
            None => schema.indexes.iter().find(|i| i.clustered),
            Some(w) => schema
                .indexes
                .iter()
                .find(|i| i.name == w || i.id.to_string() == w),
        }
        .ok_or_else(|| {
            NoRecords::NoIndex(
                schema
                    .indexes
                    .iter()
                    .map(|i| format!("{} ({})", i.name, i.id))
                    .collect(),
            )
        })?;
        let mut fields = index.fields.clone();
        let mut pages = LogicalPages::new(space);
        let mut rows = Vec::new();
        let mut findings = Vec::new();
        let mut mariadb_core = None;
        if index.clustered {
            match mariadb_instant::prepare(&mut pages, index.root_page, schema, &fields) {
                Ok(Some(m)) => {
                    fields = m.fields;
                    mariadb_core = Some(m.n_core);
                }
                Ok(None) => {}
                Err(e) => findings.push(Finding::on_page(
                    FindingKind::Unreadable,
                    index.root_page,
                    0,
                    "instant ALTER metadata",
                    format!("{e}: the records are read as if no column had been added or dropped"),
                )),
            }
        }
        let mut raw_rows: Vec<RawRow> = Vec::new();
        let mut erased = 0usize;
        let mut layout = LayoutFit::default();
        let mut extents = Vec::new();
        let walk = btree::walk(&mut pages, index.root_page, |v| {
            if v.page.header.level != 0 || limit.is_some_and(|l| raw_rows.len() >= l) {
                return;
            }
            let bytes = v.page.bytes();
            let heap_top = usize::from(v.page.header.heap_top);
            if v.page.format == RecordFormat::Compact {
                // Every record in the heap, shown or not, so that deleted
                // ones between live ones do not break the neighbourhood.
                let mut heap: Vec<(usize, bool)> = v
                    .records
                    .records
                    .iter()
                    .filter(|r| !r.is_min_rec())
                    .map(|r| (r.origin, false))
                    .collect();
                let (mut free, mut problems) = (Vec::new(), Vec::new());
                v.page.free_list(&mut free, &mut problems);
                heap.extend(free.into_iter().map(|o| (o, true)));
                for (o, garbage) in heap {
                    if let Ok(h) = RecordHeader::parse(bytes, o, v.page.format, true) {
                        if let Some((places, before)) =
                            compact_fields(bytes, &h, &fields, mariadb_core)
                        {
                            extents.push(Extent {
                                origin: o,
                                before,
                                after: places.last().map_or(0, |p| p.start + p.len),
                                garbage,
                            });
                        }
                    }
                }
            }
            let mut candidates: Vec<(RecordHeader, RowState)> = v
                .records
                .records
                .iter()
                .filter(|r| !r.is_min_rec())
                .filter(|r| deleted || !r.is_deleted())
                .map(|r| {
                    (
                        *r,
                        if r.is_deleted() {
                            RowState::DeleteMarked
                        } else {
                            RowState::Live
                        },
                    )
                })
                .collect();
            if deleted {
                // Records in the page's garbage list: purged or deleted, still readable.
                let mut free = Vec::new();
                let mut problems = Vec::new();
                v.page.free_list(&mut free, &mut problems);
                for o in free {
                    if let Ok(h) = RecordHeader::parse(bytes, o, v.page.format, true) {
                        candidates.push((h, RowState::Garbage));
                    }
                }
            }
            for (r, state) in candidates {
                if limit.is_some_and(|l| raw_rows.len() >= l) {
                    break;
                }
                if v.page.format == RecordFormat::Compact
                    && r.info_bits & instant::REC_INFO_INSTANT_FLAG != 0
                {
                    findings.push(Finding::on_page(
                        FindingKind::Unreadable,
                        v.page_no,
                        r.origin,
                        "info bits",
                        "the record stores its field count (INSTANT ADD COLUMN of MySQL 8.0.12–8.0.28), which is not decoded yet",
                    ));
                    continue;
                }
                match raw_fields(bytes, &r, v.page.format, &fields, heap_top, mariadb_core) {
                    // The server may have zeroed a purged record (MariaDB
                    // does): nothing of it is left to read.
                    Some(f)
                        if state == RowState::Garbage
                            && f.iter().all(|f| f.bytes.iter().all(|&b| b == 0)) =>
                    {
                        erased += 1;
                    }
                    Some(f) => raw_rows.push(RawRow {
                        page: v.page_no,
                        origin: r.origin,
                        state,
                        confidence: match state {
                            RowState::Live => None,
                            RowState::DeleteMarked => Some(Confidence::High),
                            RowState::Garbage => {
                                Some(garbage_confidence(r.origin, &extents, heap_top))
                            }
                        },
                        fields: f,
                    }),
                    None if state == RowState::Garbage => {}
                    None => {
                        layout.unreadable += 1;
                        // The first few by place; the schema finding counts them all.
                        if layout.unreadable > MAX_RECORD_FINDINGS {
                            continue;
                        }
                        findings.push(Finding::on_page(
                            FindingKind::Unreadable,
                            v.page_no,
                            r.origin,
                            "record",
                            format!(
                                "the record does not have the {} fields of index {}",
                                fields.len(),
                                index.name
                            ),
                        ))
                    }
                }
            }
            layout.add_page(&mut extents);
        });
        findings.extend(walk.findings);
        if !layout.fits() {
            findings.insert(
                0,
                Finding::on_page(
                    FindingKind::Unreadable,
                    index.root_page,
                    0,
                    "schema",
                    format!(
                        "the schema does not fit the records: read with its {} fields, {} records cannot be read at all and only {} of {} neighbouring records of the leaf pages meet where the next one begins; the values are not to be trusted",
                        fields.len(),
                        layout.unreadable,
                        layout.fitting_pairs,
                        layout.pairs
                    ),
                ),
            );
        }
        let mut buf = Vec::new();
        for raw in raw_rows {
            let mut values = Vec::with_capacity(raw.fields.len());
            let mut roll_ptr = None;
            for (rf, f) in raw.fields.into_iter().zip(&fields) {
                if rf.absent {
                    // Older than an INSTANT ADD (its default) or newer than a DROP.
                    values.push(match &f.instant.default {
                        Some(d) if f.instant.version_dropped == 0 => f.value(d),
                        _ => Value::Null,
                    });
                    continue;
                }
                if rf.null {
                    values.push(Value::Null);
                    continue;
                }
                let mut b = rf.bytes;
                if let Some(r) = rf.external {
                    match blob(&mut pages, r, &mut buf) {
                        Ok(rest) => b.extend_from_slice(&rest),
                        Err(m) => {
                            // A purged record's BLOB pages may have been freed and reused:
                            // no finding for those.
                            if raw.state != RowState::Garbage {
                                findings.push(Finding::on_page(
                                    FindingKind::BrokenList,
                                    r.page_no,
                                    r.offset as usize,
                                    "BLOB chain",
                                    m.clone(),
                                ));
                            }
                            values.push(Value::Undecoded {
                                undecoded: format!("off-page column: {m}"),
                            });
                            continue;
                        }
                    }
                }
                if f.name == "DB_ROLL_PTR" {
                    roll_ptr = RollPtr::parse(&b);
                }
                values.push(f.value(&b));
            }
            // A value that could not be read (an off-page part gone) lowers it.
            let confidence = match raw.confidence {
                Some(_) if values.iter().any(|v| matches!(v, Value::Undecoded { .. })) => {
                    Some(Confidence::Low)
                }
                c => c,
            };
            rows.push(Row {
                page: raw.page,
                origin: raw.origin,
                deleted: raw.state != RowState::Live,
                state: raw.state,
                confidence,
                values,
                roll_ptr,
            });
        }
        Ok(RecordsReport {
            table: schema.table.clone(),
            index: index.name.clone(),
            index_id: index.id,
            fields,
            rows,
            erased_records: erased,
            layout,
            findings,
        })
    }
}

/// The off-page part of a column: an old-style BLOB page chain, bounded by
/// its length and the file, a page met twice being a cycle, or a MySQL 8
/// LOB (uncompressed or compressed) as the reference's LOB version sees it.
pub(crate) fn blob(
    pages: &mut LogicalPages<'_>,
    r: ExternRef,
    buf: &mut Vec<u8>,
) -> Result<Vec<u8>, String> {
    let want = usize::try_from(r.length)
        .unwrap_or(usize::MAX)
        .min(sdi::MAX_SDI_BYTES * 16);
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let (mut page, mut offset) = (r.page_no, r.offset as usize);
    while out.len() < want {
        if page == innodb_format::FIL_NULL {
            return Err(format!(
                "the chain ends after {} of {want} bytes",
                out.len()
            ));
        }
        if !seen.insert(page) {
            return Err(format!("cycle: page {page} comes back"));
        }
        let check = pages
            .read_into(page, buf)
            .ok_or_else(|| format!("BLOB page {page} cannot be read"))?;
        let kind = check.page_type;
        if out.is_empty() && (kind == PageType::LOB_FIRST || kind == PageType::ZLOB_FIRST) {
            // MySQL 8.0+: the reference's offset field holds the LOB version.
            return lob::read_lob_version(pages, page, Some(r.offset), want, buf);
        }
        if out.is_empty() && kind == PageType::TYPE_ZBLOB {
            return zblob::read_zblob(pages, page, r.offset, want, buf);
        }
        // MySQL 5.0 did not stamp its BLOB pages: they carry type 0.
        let untyped_blob = kind == PageType::ALLOCATED && !check.all_zero;
        if kind != PageType::TYPE_BLOB && !untyped_blob {
            return Err(format!(
                "page {page} is a {} page, not the start or the next page of a BLOB chain",
                kind.name(pages.space().format().vendor)
            ));
        }
        let (part, next) = sdi::blob_part(buf, offset).map_err(|e| format!("page {page}: {e}"))?;
        out.extend_from_slice(part);
        page = next;
        offset = innodb_format::fil_header::FIL_PAGE_DATA;
    }
    out.truncate(want);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ext(origin: usize, before: usize, after: usize, garbage: bool) -> Extent {
        Extent {
            origin,
            before,
            after,
            garbage,
        }
    }

    #[test]
    fn garbage_confidence_by_neighbours_and_overlap() {
        // Live records at 125..150 and 150..180; garbage at 180..210 meets the second.
        let page = [
            ext(130, 5, 20, false),
            ext(155, 5, 25, false),
            ext(185, 5, 25, true),
        ];
        assert_eq!(garbage_confidence(185, &page, 400), Confidence::High);
        // Ending at the heap top also confirms it.
        let alone = [ext(130, 5, 20, false), ext(305, 5, 95, true)];
        assert_eq!(garbage_confidence(305, &alone, 400), Confidence::High);
        // Meeting nothing: read, but unconfirmed.
        let adrift = [ext(130, 5, 20, false), ext(205, 5, 20, true)];
        assert_eq!(garbage_confidence(205, &adrift, 400), Confidence::Medium);
        // A live record written over part of it.
        let reused = [
            ext(130, 5, 20, false),
            ext(145, 5, 30, true),
            ext(160, 5, 20, false),
        ];
        assert_eq!(garbage_confidence(145, &reused, 400), Confidence::Low);
        // A record whose layout could not be worked out.
        assert_eq!(garbage_confidence(999, &page, 400), Confidence::Medium);
    }
}

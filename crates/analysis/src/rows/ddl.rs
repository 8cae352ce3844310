//! A table's schema from a `CREATE TABLE` statement (`--ddl FILE`), parsed
//! with `sqlparser`, for files whose dictionary is gone or does not say
//! enough (MariaDB's dictionary has no DECIMAL scale and no ENUM labels).
//!
//! The statement gives columns and keys; the file gives the index ids and
//! roots: the clustered index is the one created first (the lowest index
//! id), the secondary indexes follow in the order the server creates them
//! (UNIQUE keys first, otherwise the statement's order).

use crate::rows::schema::{IndexField, Schema, SchemaIndex};
use innodb_format::value::charset;
use innodb_format::value::column_value::{
    ColumnType, DATA_BINARY, DATA_BLOB, DATA_DOUBLE, DATA_FIXBINARY, DATA_FLOAT, DATA_GEOMETRY,
    DATA_INT, DATA_MYSQL, DATA_NOT_NULL, DATA_SYS, DATA_UNSIGNED, DATA_VARMYSQL,
};
use innodb_format::value::decimal::decimal_bin_size;
use sqlparser::ast::{
    BinaryLength, CharacterLength, ColumnOption, CreateTable, DataType, EnumMember,
    ExactNumberInfo, GeneratedExpressionMode, IndexColumn, ObjectName, Statement, TableConstraint,
};
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;

/// The default collation id of a character set name (utf8mb4's for a
/// set this does not know).
fn collation_of(charset: &str) -> u32 {
    charset::default_collation(charset).unwrap_or(45)
}

fn mbmaxlen(collation: u32) -> u32 {
    charset::mbmaxlen(collation)
}

/// The table's default collation: its `COLLATE` option, else its
/// character set's default collation, else utf8mb4's.
fn table_collation(sql: &str) -> u32 {
    let options = sql
        .rfind(')')
        .and_then(|i| sql.get(i..))
        .map(unquoted)
        .unwrap_or_default();
    option_value(&options, "COLLATE")
        .and_then(|c| charset::collation_id(&c))
        .or_else(|| table_charset(sql).map(|cs| collation_of(&cs)))
        .unwrap_or(45)
}

/// The table's default character set, from the table options after the
/// columns: `[DEFAULT] CHARSET [=] x` or `[DEFAULT] CHARACTER SET [=] x`,
/// else the character set of `[DEFAULT] COLLATE [=] x`.
fn table_charset(sql: &str) -> Option<String> {
    let options = unquoted(sql.get(sql.rfind(')')?..)?);
    option_value(&options, "CHARSET")
        .or_else(|| option_value(&options, "CHARACTER SET"))
        .or_else(|| option_value(&options, "COLLATE").map(|c| charset_of_collation(&c)))
}

/// `s` with the text of its quoted strings left out (a COMMENT may say
/// anything).
pub(crate) fn unquoted(s: &str) -> String {
    let mut quote = None;
    s.chars()
        .filter(|&c| match quote {
            Some(q) => {
                if c == q {
                    quote = None;
                }
                false
            }
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                false
            }
            None => true,
        })
        .collect()
}

/// The word after the table option `name` (a whole word, any case),
/// past an optional `=`.
pub(crate) fn option_value(options: &str, name: &str) -> Option<String> {
    let upper = options.to_ascii_uppercase();
    let word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let at = upper.match_indices(name).find_map(|(i, _)| {
        let end = i + name.len();
        let before = upper.get(..i)?.chars().next_back();
        let after = upper.get(end..)?.chars().next();
        (!before.is_some_and(word_char) && !after.is_some_and(word_char)).then_some(end)
    })?;
    let rest = options
        .get(at..)?
        .trim_start_matches(|c: char| c.is_whitespace() || c == '=');
    let value = rest.split(|c: char| !word_char(c)).next()?;
    (!value.is_empty()).then(|| value.to_string())
}

/// The character set a collation belongs to: its name up to the first
/// `_` (`latin1_swedish_ci`: latin1; `binary`: binary).
fn charset_of_collation(collation: &str) -> String {
    collation.split('_').next().unwrap_or(collation).to_string()
}

/// The fractional seconds digits a TIME, DATETIME or TIMESTAMP declares
/// (0 when it declares none).
fn temporal_fsp(dt: &DataType) -> Option<u32> {
    match dt {
        DataType::Time(fsp, _) | DataType::Datetime(fsp) | DataType::Timestamp(fsp, _) => {
            Some(fsp.unwrap_or(0) as u32)
        }
        _ => None,
    }
}

fn frac_bytes(fsp: Option<u64>) -> u32 {
    (fsp.unwrap_or(0) as u32).div_ceil(2)
}

/// What a column's SQL type says of its field: the InnoDB type, and the
/// DECIMAL precision and scale or the ENUM or SET labels.
struct FieldType {
    column_type: ColumnType,
    decimal: Option<(usize, usize)>,
    labels: Option<Vec<String>>,
    set: bool,
}

impl FieldType {
    /// A type that needs nothing more to be decoded.
    fn plain(mtype: u32, prtype: u32, len: u32) -> Self {
        FieldType {
            column_type: ColumnType { mtype, prtype, len },
            decimal: None,
            labels: None,
            set: false,
        }
    }
}

/// One column as an index field; `None` for a type this does not know.
/// `not_null`: declared NOT NULL or in the primary key; `collation`: the
/// column's collation id, else the table's `table_coll`.
fn column_field(
    name: &str,
    dt: &DataType,
    not_null: bool,
    collation: Option<u32>,
    table_coll: u32,
) -> Option<IndexField> {
    let nn = if not_null { DATA_NOT_NULL } else { 0 };
    let coll = collation.unwrap_or(table_coll);
    let t = integer_type(dt, nn)
        .or_else(|| float_or_decimal_type(dt, nn))
        .or_else(|| temporal_type(dt, nn))
        .or_else(|| string_type(dt, nn, coll))
        .or_else(|| enum_or_set_type(dt, nn))
        .or_else(|| spatial_type(dt, nn))?;
    Some(IndexField {
        name: name.into(),
        column_type: t.column_type,
        decimal: t.decimal,
        labels: t.labels,
        set: t.set,
        fsp: temporal_fsp(dt),
        instant: Default::default(),
    })
}

/// An integer (`DATA_INT`, big-endian with the sign bit flipped) of `len`
/// bytes and MySQL type `mysql`; `nn`: the NOT NULL flag.
fn int(nn: u32, len: u32, unsigned: bool, mysql: u32) -> FieldType {
    let unsigned = if unsigned { DATA_UNSIGNED } else { 0 };
    FieldType::plain(DATA_INT, nn | unsigned | mysql, len)
}

/// TINYINT to BIGINT, signed or not (the display width changes
/// nothing); BOOL and BOOLEAN are TINYINT(1).
fn integer_type(dt: &DataType, nn: u32) -> Option<FieldType> {
    Some(match dt {
        DataType::TinyInt(_) | DataType::Bool | DataType::Boolean => int(nn, 1, false, 1),
        DataType::TinyIntUnsigned(_) => int(nn, 1, true, 1),
        DataType::SmallInt(_) => int(nn, 2, false, 2),
        DataType::SmallIntUnsigned(_) => int(nn, 2, true, 2),
        DataType::MediumInt(_) => int(nn, 3, false, 9),
        DataType::MediumIntUnsigned(_) => int(nn, 3, true, 9),
        DataType::Int(_) | DataType::Integer(_) => int(nn, 4, false, 3),
        DataType::IntUnsigned(_) | DataType::IntegerUnsigned(_) => int(nn, 4, true, 3),
        DataType::BigInt(_) => int(nn, 8, false, 8),
        DataType::BigIntUnsigned(_) => int(nn, 8, true, 8),
        _ => return None,
    })
}

/// FLOAT, DOUBLE (REAL, and FLOAT(p) of more than 24 bits) and DECIMAL
/// (`decimal2bin`'s size for its precision and scale, 10 and 0 unless
/// given).
fn float_or_decimal_type(dt: &DataType, nn: u32) -> Option<FieldType> {
    // FLOAT(p) is a DOUBLE from p = 25 bits of precision on.
    let double_width =
        |info: &ExactNumberInfo| matches!(info, ExactNumberInfo::Precision(p) if *p > 24);
    Some(match dt {
        DataType::Float(info) if double_width(info) => FieldType::plain(DATA_DOUBLE, nn | 5, 8),
        DataType::FloatUnsigned(info) if double_width(info) => {
            FieldType::plain(DATA_DOUBLE, nn | DATA_UNSIGNED | 5, 8)
        }
        DataType::Float(_) => FieldType::plain(DATA_FLOAT, nn | 4, 4),
        DataType::FloatUnsigned(_) => FieldType::plain(DATA_FLOAT, nn | DATA_UNSIGNED | 4, 4),
        DataType::Double(_) | DataType::DoublePrecision | DataType::Real => {
            FieldType::plain(DATA_DOUBLE, nn | 5, 8)
        }
        DataType::DoubleUnsigned(_)
        | DataType::DoublePrecisionUnsigned
        | DataType::RealUnsigned => FieldType::plain(DATA_DOUBLE, nn | DATA_UNSIGNED | 5, 8),
        // UNSIGNED does not change how a DECIMAL is stored.
        DataType::Decimal(info)
        | DataType::Numeric(info)
        | DataType::Dec(info)
        | DataType::DecimalUnsigned(info)
        | DataType::DecUnsigned(info) => {
            let (p, s) = match info {
                ExactNumberInfo::PrecisionAndScale(p, s) => (*p as u32, *s as u32),
                ExactNumberInfo::Precision(p) => (*p as u32, 0),
                ExactNumberInfo::None => (10, 0),
            };
            FieldType {
                decimal: Some((p as usize, s as usize)),
                ..FieldType::plain(
                    DATA_FIXBINARY,
                    nn | 246,
                    decimal_bin_size(p as usize, s as usize) as u32,
                )
            }
        }
        _ => return None,
    })
}

/// DATE and YEAR (integers), TIME, DATETIME and TIMESTAMP in the format of
/// MySQL 5.6.4+: the integer part, then (fsp + 1) / 2 bytes of fraction.
fn temporal_type(dt: &DataType, nn: u32) -> Option<FieldType> {
    Some(match dt {
        DataType::Date => int(nn, 3, false, 14),
        DataType::Time(fsp, _) => FieldType::plain(DATA_FIXBINARY, nn | 11, 3 + frac_bytes(*fsp)),
        DataType::Datetime(fsp) => FieldType::plain(DATA_FIXBINARY, nn | 12, 5 + frac_bytes(*fsp)),
        DataType::Timestamp(fsp, _) => {
            FieldType::plain(DATA_FIXBINARY, nn | 7, 4 + frac_bytes(*fsp))
        }
        DataType::Custom(n, _) if n.to_string().eq_ignore_ascii_case("year") => {
            int(nn, 1, true, 13)
        }
        _ => return None,
    })
}

/// CHAR and VARCHAR in the collation `coll` (lengths in bytes: characters
/// times the most bytes of one), BINARY and VARBINARY, TEXT in `coll`, and
/// BLOB and JSON as binary BLOBs; BIT(M), (M + 7) / 8 bytes.
fn string_type(dt: &DataType, nn: u32, coll: u32) -> Option<FieldType> {
    let char_len = |n: Option<u64>| n.unwrap_or(1) as u32 * mbmaxlen(coll);
    let len_of = |l: &Option<CharacterLength>| match l {
        Some(CharacterLength::IntegerLength { length, .. }) => Some(*length),
        _ => None,
    };
    Some(match dt {
        DataType::Char(l) | DataType::Character(l) => {
            FieldType::plain(DATA_MYSQL, nn | 254 | (coll << 16), char_len(len_of(l)))
        }
        DataType::Varchar(l) | DataType::CharVarying(l) | DataType::CharacterVarying(l) => {
            FieldType::plain(DATA_VARMYSQL, nn | 15 | (coll << 16), char_len(len_of(l)))
        }
        DataType::Binary(n) => {
            FieldType::plain(DATA_FIXBINARY, nn | 254 | (63 << 16), n.unwrap_or(1) as u32)
        }
        DataType::Varbinary(n) => {
            let len = match n {
                Some(BinaryLength::IntegerLength { length }) => *length as u32,
                _ => 65535,
            };
            FieldType::plain(DATA_BINARY, nn | 15 | (63 << 16), len)
        }
        DataType::Text | DataType::TinyText | DataType::MediumText | DataType::LongText => {
            FieldType::plain(DATA_BLOB, nn | 252 | (coll << 16), 65535)
        }
        DataType::Blob(_)
        | DataType::TinyBlob
        | DataType::MediumBlob
        | DataType::LongBlob
        | DataType::JSON => FieldType::plain(DATA_BLOB, nn | 252 | 1024 | (63 << 16), 65535),
        DataType::Bit(n) => {
            FieldType::plain(DATA_FIXBINARY, nn | 16, (n.unwrap_or(1) as u32).div_ceil(8))
        }
        _ => return None,
    })
}

/// ENUM (the label's number, 1 or 2 bytes) and SET (a bit per member, 1
/// to 4 or 8 bytes), with their labels.
fn enum_or_set_type(dt: &DataType, nn: u32) -> Option<FieldType> {
    match dt {
        DataType::Enum(members, _) => {
            let names: Vec<String> = members
                .iter()
                .map(|m| match m {
                    EnumMember::Name(s) | EnumMember::NamedValue(s, _) => s.clone(),
                })
                .collect();
            let len = if names.len() > 255 { 2 } else { 1 };
            Some(FieldType {
                labels: Some(names),
                ..int(nn, len, true, 247)
            })
        }
        DataType::Set(members) => {
            let len = match members.len().div_ceil(8) {
                0 | 1 => 1,
                2 => 2,
                3 => 3,
                4 => 4,
                _ => 8,
            };
            Some(FieldType {
                labels: Some(members.clone()),
                set: true,
                ..int(nn, len, true, 248)
            })
        }
        _ => None,
    }
}

/// Spatial types: the SRID and the WKB, a binary BLOB-like column.
fn spatial_type(dt: &DataType, nn: u32) -> Option<FieldType> {
    const SPATIAL: [&str; 9] = [
        "geometry",
        "point",
        "linestring",
        "polygon",
        "multipoint",
        "multilinestring",
        "multipolygon",
        "geometrycollection",
        "geomcollection",
    ];
    match dt {
        DataType::Custom(n, _)
            if SPATIAL.contains(&n.to_string().to_ascii_lowercase().as_str()) =>
        {
            Some(FieldType::plain(DATA_GEOMETRY, nn | 255 | (63 << 16), 256))
        }
        _ => None,
    }
}

/// The schema a `CREATE TABLE` statement gives, with the index ids and
/// roots of the file (`roots`: (index id, root page), sorted by id; the SDI
/// index left out).
pub fn schema_from_ddl(sql: &str, roots: &[(u64, u32)]) -> Result<Schema, String> {
    let sql = &without_binary_attribute(sql);
    let ct = parse_create_table(sql)?;
    let table_cs = table_collation(sql);
    let mut keys = TableKeys::of(&ct);
    let (mut columns, virtual_columns) = table_columns(&ct, &mut keys, table_cs)?;
    if keys.fulltext {
        add_fts_doc_id(&mut columns);
    }
    // Key columns are NOT NULL once the primary key is known.
    for f in columns
        .iter_mut()
        .filter(|f| keys.primary.contains(&f.name))
    {
        f.column_type.prtype |= DATA_NOT_NULL;
    }
    // Secondary indexes may hold virtual columns; the clustered one never.
    let all_columns: Vec<IndexField> = columns.iter().chain(&virtual_columns).cloned().collect();
    in_server_order(&mut keys.secondary, &all_columns);
    let (clustered_name, primary, secondary) = clustered_key(keys, &columns);
    let clustered = clustered_fields(&columns, &primary)?;
    let mut roots = roots.iter().filter(|(id, _)| *id != u64::MAX);
    let &(id, root) = roots.next().ok_or("the file has no index root")?;
    let mut indexes = vec![SchemaIndex {
        id,
        name: clustered_name,
        root_page: root,
        clustered: true,
        fields: clustered,
    }];
    for key in secondary {
        let Some(&(id, root)) = roots.next() else {
            break;
        };
        indexes.push(SchemaIndex {
            id,
            name: key.name,
            root_page: root,
            clustered: false,
            fields: secondary_fields(&key.columns, &all_columns, &primary)?,
        });
    }
    Ok(Schema {
        table: table_name(&ct.name),
        indexes,
        columns,
        definition: super::definition_ddl::from_ddl(sql).ok(),
    })
}

/// The table's name as the dictionary writes it: `db/table` when the
/// statement names the database, else the table alone.
fn table_name(name: &ObjectName) -> String {
    let parts: Vec<String> = name
        .0
        .iter()
        .map(|p| {
            p.as_ident()
                .map_or_else(|| p.to_string(), |i| i.value.clone())
        })
        .collect();
    parts.join("/")
}

/// The statement parsed; table options the parser does not know
/// (`PAGE_COMPRESSED=1`…) are left out when they stop it.
pub(crate) fn parse_create_table(sql: &str) -> Result<CreateTable, String> {
    let parsed = Parser::parse_sql(&MySqlDialect {}, sql).or_else(|first| {
        // Parse the statement up to the end of its column list.
        let end = sql.rfind(')').ok_or_else(|| first.to_string())?;
        Parser::parse_sql(&MySqlDialect {}, &sql[..=end])
            .map_err(|e| format!("{first}; without the table options: {e}"))
    })?;
    match parsed.into_iter().next() {
        Some(Statement::CreateTable(ct)) => Ok(ct),
        _ => Err("the statement is not a CREATE TABLE".into()),
    }
}

/// The keys a statement declares: after its columns, and (added by
/// `table_columns`) on a column itself.
struct TableKeys {
    /// The primary key's columns (empty: none).
    primary: Vec<String>,
    /// Each secondary index (B-tree or R-tree).
    secondary: Vec<Key>,
    /// There is a FULLTEXT key (no B-tree of the file; InnoDB adds a hidden
    /// FTS_DOC_ID column for it).
    fulltext: bool,
}

impl TableKeys {
    /// The keys declared after the columns.
    fn of(ct: &CreateTable) -> Self {
        let mut keys = TableKeys {
            primary: Vec::new(),
            secondary: Vec::new(),
            fulltext: false,
        };
        // An unnamed key is named after its first column.
        let mut secondary = |name: Option<&str>, columns: &[IndexColumn], unique: bool| {
            let columns = key_columns(columns);
            let name =
                name.map_or_else(|| columns.first().cloned().unwrap_or_default(), Into::into);
            keys.secondary.push(Key {
                name,
                columns,
                unique,
            });
        };
        let mut primary = None;
        let mut fulltext = false;
        for k in &ct.constraints {
            match k {
                TableConstraint::PrimaryKey { columns, .. } => primary = Some(key_columns(columns)),
                TableConstraint::FulltextOrSpatial { fulltext: true, .. } => fulltext = true,
                TableConstraint::FulltextOrSpatial {
                    fulltext: false,
                    opt_index_name,
                    columns,
                    ..
                } => secondary(
                    opt_index_name.as_ref().map(|n| n.value.as_str()),
                    columns,
                    false,
                ),
                // `[CONSTRAINT name] UNIQUE [KEY] [index_name] (…)`: the
                // index takes the index name, else the constraint's.
                TableConstraint::Unique {
                    name,
                    index_name,
                    columns,
                    ..
                } => secondary(
                    index_name
                        .as_ref()
                        .or(name.as_ref())
                        .map(|n| n.value.as_str()),
                    columns,
                    true,
                ),
                TableConstraint::Index { name, columns, .. } => {
                    secondary(name.as_ref().map(|n| n.value.as_str()), columns, false)
                }
                _ => {}
            }
        }
        if let Some(p) = primary {
            keys.primary = p;
        }
        keys.fulltext = fulltext;
        keys
    }
}

/// A secondary key as the statement declares it.
struct Key {
    name: String,
    columns: Vec<String>,
    /// UNIQUE.
    unique: bool,
}

impl Key {
    /// True for a UNIQUE key whose columns are all NOT NULL: one the
    /// server can take for the primary key.
    fn unique_not_null(&self, columns: &[IndexField]) -> bool {
        self.unique
            && self.columns.iter().all(|k| {
                columns
                    .iter()
                    .any(|c| c.name == *k && !c.column_type.nullable())
            })
    }
}

/// Sorts the secondary keys as the server does before it creates the
/// indexes (`sort_keys` in `sql_table.cc`), which gives them their ids:
/// UNIQUE keys whose columns are all NOT NULL, other UNIQUE keys, then
/// the rest, each group in the statement's order.
fn in_server_order(keys: &mut [Key], columns: &[IndexField]) {
    keys.sort_by_key(|k| {
        if k.unique_not_null(columns) {
            0
        } else if k.unique {
            1
        } else {
            2
        }
    });
}

/// The clustered index's name and key columns, and the secondary keys
/// left: the primary key; without one, the first UNIQUE key whose columns
/// are all NOT NULL, as the server takes it (`TABLE_SHARE::primary_key`);
/// else `GEN_CLUST_INDEX` on the hidden `DB_ROW_ID`.
fn clustered_key(keys: TableKeys, columns: &[IndexField]) -> (String, Vec<String>, Vec<Key>) {
    let mut secondary = keys.secondary;
    if !keys.primary.is_empty() {
        return ("PRIMARY".into(), keys.primary, secondary);
    }
    match secondary.iter().position(|k| k.unique_not_null(columns)) {
        Some(i) => {
            let key = secondary.remove(i);
            (key.name, key.columns, secondary)
        }
        None => ("GEN_CLUST_INDEX".into(), Vec::new(), secondary),
    }
}

/// The column names of a key's parts; a prefix part (`email(3)`) names
/// its column.
fn key_columns(cols: &[IndexColumn]) -> Vec<String> {
    cols.iter()
        .map(|c| {
            let part = c.column.expr.to_string();
            let name = match part.strip_suffix(')').and_then(|p| p.rsplit_once('(')) {
                Some((name, len)) if len.trim().chars().all(|d| d.is_ascii_digit()) => name,
                _ => part.as_str(),
            };
            name.trim().trim_matches('`').to_string()
        })
        .collect()
}

/// `sql` with the `BINARY` attribute of character columns (`VARCHAR(40)
/// BINARY`, `TEXT BINARY`: the binary collation of the column's character
/// set, which changes nothing stored) left out, which the parser does not
/// take; the BINARY type (`BINARY(8)`) stays.
fn without_binary_attribute(sql: &str) -> String {
    const TEXT_TYPES: [&str; 8] = [
        "char",
        "varchar",
        "character",
        "varying",
        "text",
        "tinytext",
        "mediumtext",
        "longtext",
    ];
    let mut out = sql.to_string();
    let upper = sql.to_ascii_uppercase();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for (at, _) in upper
        .match_indices("BINARY")
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        let before = sql.get(..at).unwrap_or("");
        let after = sql.get(at + 6..).unwrap_or("");
        if before.chars().next_back().is_some_and(word)
            || after.chars().next().is_some_and(word)
            || after.trim_start().starts_with('(')
        {
            continue;
        }
        // The type before: `CHAR(n)` (skip the length) or `TEXT`.
        let mut head = before.trim_end();
        if let Some(open) = head.strip_suffix(')').and_then(|h| h.rfind('(')) {
            head = head.get(..open).unwrap_or("").trim_end();
        }
        let type_word: String = head
            .chars()
            .rev()
            .take_while(|&c| word(c))
            .collect::<String>()
            .chars()
            .rev()
            .collect();
        if TEXT_TYPES.contains(&type_word.to_ascii_lowercase().as_str()) {
            out.replace_range(at..at + 6, "      ");
        }
    }
    out
}

/// The table's columns as fields, in the statement's order: those stored
/// in the records, and the virtual generated ones (which only secondary
/// indexes hold). A column declared PRIMARY KEY becomes the primary key
/// of `keys`, one declared UNIQUE a UNIQUE key named after it (before the
/// keys that follow the columns).
fn table_columns(
    ct: &CreateTable,
    keys: &mut TableKeys,
    table_cs: u32,
) -> Result<(Vec<IndexField>, Vec<IndexField>), String> {
    let primary = &mut keys.primary;
    let mut unique = Vec::new();
    let mut columns = Vec::new();
    let mut virtual_columns = Vec::new();
    for c in &ct.columns {
        let name = c.name.value.clone();
        let mut not_null = false;
        let mut charset = None;
        let mut collation = None;
        let mut is_virtual = false;
        for o in &c.options {
            match &o.option {
                ColumnOption::NotNull => not_null = true,
                ColumnOption::Unique {
                    is_primary: true, ..
                } => {
                    not_null = true;
                    *primary = vec![name.clone()];
                }
                ColumnOption::Unique {
                    is_primary: false, ..
                } => unique.push(Key {
                    name: name.clone(),
                    columns: vec![name.clone()],
                    unique: true,
                }),
                // `AS (expr)` is VIRTUAL unless STORED.
                ColumnOption::Generated {
                    generation_expr: Some(_),
                    generation_expr_mode,
                    ..
                } => is_virtual = *generation_expr_mode != Some(GeneratedExpressionMode::Stored),
                ColumnOption::CharacterSet(cs) => {
                    charset = Some(collation_of(cs.to_string().trim_matches('`')))
                }
                ColumnOption::Collation(c) => {
                    let name = c.to_string();
                    let name = name.trim_matches('`');
                    collation = charset::collation_id(name)
                        .or_else(|| Some(collation_of(&charset_of_collation(name))));
                }
                _ => {}
            }
        }
        if primary.contains(&name) {
            not_null = true;
        }
        // A collation names its character set too.
        let collation = collation.or(charset);
        let field = column_field(&name, &c.data_type, not_null, collation, table_cs)
            .ok_or_else(|| format!("column {name}: type {} is not supported", c.data_type))?;
        if is_virtual {
            virtual_columns.push(field);
        } else {
            columns.push(field);
        }
    }
    keys.secondary.splice(0..0, unique);
    Ok((columns, virtual_columns))
}

/// Adds the hidden column InnoDB gives a table with a FULLTEXT index
/// (BIGINT UNSIGNED NOT NULL, after the declared columns) unless the
/// statement declares it.
pub(crate) fn add_fts_doc_id(columns: &mut Vec<IndexField>) {
    if columns
        .iter()
        .any(|c| c.name.eq_ignore_ascii_case("FTS_DOC_ID"))
    {
        return;
    }
    columns.push(IndexField::plain(
        "FTS_DOC_ID",
        ColumnType {
            mtype: DATA_INT,
            prtype: DATA_NOT_NULL | DATA_UNSIGNED | 8,
            len: 8,
        },
    ));
}

/// A hidden system column: `DB_ROW_ID`, `DB_TRX_ID` or `DB_ROLL_PTR`.
fn sys_field(name: &str, len: u32) -> IndexField {
    IndexField::plain(
        name,
        ColumnType {
            mtype: DATA_SYS,
            prtype: DATA_NOT_NULL,
            len,
        },
    )
}

/// The column `name` as a key field.
fn key_field(columns: &[IndexField], name: &str) -> Result<IndexField, String> {
    columns
        .iter()
        .find(|c| c.name == name)
        .cloned()
        .ok_or_else(|| format!("key column {name} is not a column"))
}

/// The clustered index's fields (`dict_index_build_internal_clust`): the
/// primary key (or `DB_ROW_ID`), `DB_TRX_ID`, `DB_ROLL_PTR`, then the
/// other columns in order.
pub(crate) fn clustered_fields(
    columns: &[IndexField],
    primary: &[String],
) -> Result<Vec<IndexField>, String> {
    let mut fields = Vec::new();
    if primary.is_empty() {
        fields.push(sys_field("DB_ROW_ID", 6));
    } else {
        for p in primary {
            fields.push(key_field(columns, p)?);
        }
    }
    fields.push(sys_field("DB_TRX_ID", 6));
    fields.push(sys_field("DB_ROLL_PTR", 7));
    fields.extend(
        columns
            .iter()
            .filter(|c| !primary.contains(&c.name))
            .cloned(),
    );
    Ok(fields)
}

/// A secondary index's fields (`dict_index_build_internal_non_clust`): its
/// key columns `cols`, then the primary key's columns it does not have
/// (or `DB_ROW_ID`).
pub(crate) fn secondary_fields(
    cols: &[String],
    columns: &[IndexField],
    primary: &[String],
) -> Result<Vec<IndexField>, String> {
    let mut fields = Vec::new();
    for c in cols {
        fields.push(key_field(columns, c)?);
    }
    if primary.is_empty() {
        fields.push(sys_field("DB_ROW_ID", 6));
    } else {
        for p in primary.iter().filter(|p| !cols.contains(p)) {
            fields.push(key_field(columns, p)?);
        }
    }
    Ok(fields)
}

/// The same schema with TIME, DATETIME and TIMESTAMP columns without
/// fractional seconds in the storage format of MySQL before 5.6.4 (integers
/// of 3, 8 and 4 bytes) instead of the newer one, which a `CREATE TABLE`
/// statement cannot tell apart, in its indexes and its columns alike;
/// `None` when the schema has no such column.
pub fn with_old_temporal(schema: &Schema) -> Option<Schema> {
    let mut out = schema.clone();
    let mut changed = false;
    let index_fields = out.indexes.iter_mut().flat_map(|i| i.fields.iter_mut());
    for f in index_fields.chain(out.columns.iter_mut()) {
        let t = &mut f.column_type;
        let old_len = match (t.mtype, t.mysql_type(), t.len) {
            (DATA_FIXBINARY, 11, 3) => 3,
            (DATA_FIXBINARY, 12, 5) => 8,
            (DATA_FIXBINARY, 7, 4) => 4,
            _ => continue,
        };
        t.mtype = DATA_INT;
        t.len = old_len;
        if t.mysql_type() == 7 {
            t.prtype |= DATA_UNSIGNED;
        }
        changed = true;
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use innodb_format::value::column_value::Value;

    /// Index roots of a file: ids 40.. at pages 3.., and the SDI index
    /// (id `u64::MAX`), which a statement never describes.
    const ROOTS: [(u64, u32); 5] = [(40, 3), (41, 4), (42, 5), (43, 6), (u64::MAX, 1)];

    /// MySQL field types (`enum_field_types`) in `prtype`'s low byte.
    const TINY: u32 = 1;
    const SHORT: u32 = 2;
    const LONG: u32 = 3;
    const FLOAT: u32 = 4;
    const DOUBLE: u32 = 5;
    const TIMESTAMP: u32 = 7;
    const LONGLONG: u32 = 8;
    const INT24: u32 = 9;
    const TIME: u32 = 11;
    const DATETIME: u32 = 12;
    const YEAR: u32 = 13;
    const NEWDATE: u32 = 14;
    const VARCHAR: u32 = 15;
    const BIT: u32 = 16;
    const NEWDECIMAL: u32 = 246;
    const ENUM: u32 = 247;
    const SET: u32 = 248;
    const BLOB: u32 = 252;
    const STRING: u32 = 254;
    const GEOMETRY: u32 = 255;
    /// `DATA_BINARY_TYPE`.
    const BINARY_TYPE: u32 = 1024;
    /// Collation ids as `collation_of` gives them.
    const LATIN1: u32 = 8 << 16;
    const UTF8MB3: u32 = 33 << 16;
    const UTF8MB4: u32 = 45 << 16;
    const BINARY: u32 = 63 << 16;
    const NN: u32 = DATA_NOT_NULL;
    const UNS: u32 = DATA_UNSIGNED;

    fn parse(sql: &str) -> Schema {
        match schema_from_ddl(sql, &ROOTS) {
            Ok(s) => s,
            Err(e) => panic!("{e}\n{sql}"),
        }
    }

    fn error(sql: &str) -> String {
        match schema_from_ddl(sql, &ROOTS) {
            Ok(s) => panic!("parsed: {s:?}"),
            Err(e) => e,
        }
    }

    fn ty(mtype: u32, prtype: u32, len: u32) -> ColumnType {
        ColumnType { mtype, prtype, len }
    }

    fn column<'a>(s: &'a Schema, name: &str) -> &'a IndexField {
        match s.columns.iter().find(|c| c.name == name) {
            Some(c) => c,
            None => panic!("no column {name} in {:?}", names(&s.columns)),
        }
    }

    fn names(fields: &[IndexField]) -> Vec<&str> {
        fields.iter().map(|f| f.name.as_str()).collect()
    }

    /// Each index as (name, id, root page, clustered, field names).
    fn indexes(s: &Schema) -> Vec<(&str, u64, u32, bool, Vec<&str>)> {
        s.indexes
            .iter()
            .map(|i| {
                (
                    i.name.as_str(),
                    i.id,
                    i.root_page,
                    i.clustered,
                    names(&i.fields),
                )
            })
            .collect()
    }

    /// Each column's type, in the statement's order.
    fn types(s: &Schema) -> Vec<(&str, ColumnType)> {
        s.columns
            .iter()
            .map(|c| (c.name.as_str(), c.column_type))
            .collect()
    }

    fn sys(len: u32) -> ColumnType {
        ty(DATA_SYS, NN, len)
    }

    #[test]
    fn integer_types_with_display_widths_and_unsigned() {
        let s = parse(
            "CREATE TABLE t (a TINYINT, b TINYINT(3) UNSIGNED, c SMALLINT(6), \
             d SMALLINT UNSIGNED, e MEDIUMINT, f MEDIUMINT(8) UNSIGNED, g INT(11), \
             h INTEGER UNSIGNED, i BIGINT(20), j BIGINT UNSIGNED NOT NULL)",
        );
        assert_eq!(
            types(&s),
            [
                ("a", ty(DATA_INT, TINY, 1)),
                ("b", ty(DATA_INT, UNS | TINY, 1)),
                ("c", ty(DATA_INT, SHORT, 2)),
                ("d", ty(DATA_INT, UNS | SHORT, 2)),
                ("e", ty(DATA_INT, INT24, 3)),
                ("f", ty(DATA_INT, UNS | INT24, 3)),
                ("g", ty(DATA_INT, LONG, 4)),
                ("h", ty(DATA_INT, UNS | LONG, 4)),
                ("i", ty(DATA_INT, LONGLONG, 8)),
                ("j", ty(DATA_INT, NN | UNS | LONGLONG, 8)),
            ]
        );
        // BOOL and BOOLEAN are TINYINT(1).
        let b = parse("CREATE TABLE t (b BOOL, c BOOLEAN NOT NULL)");
        assert_eq!(
            types(&b),
            [
                ("b", ty(DATA_INT, TINY, 1)),
                ("c", ty(DATA_INT, NN | TINY, 1)),
            ]
        );
        // The display width is no length: every integer is fixed-size.
        assert!(s
            .columns
            .iter()
            .all(|c| c.column_type.fixed_size() == Some(c.column_type.len as usize)));
    }

    #[test]
    fn floating_point_and_decimal_with_precision_and_scale() {
        let s = parse(
            "CREATE TABLE t (f FLOAT, fu FLOAT UNSIGNED, d DOUBLE, dp DOUBLE PRECISION, \
             r REAL, du DOUBLE UNSIGNED, d1 DECIMAL(20,6), d2 DECIMAL(4,2) UNSIGNED, \
             d3 NUMERIC(10), d4 DECIMAL, d5 DEC(65,30), d6 DECIMAL(9,9))",
        );
        assert_eq!(
            types(&s),
            [
                ("f", ty(DATA_FLOAT, FLOAT, 4)),
                ("fu", ty(DATA_FLOAT, UNS | FLOAT, 4)),
                ("d", ty(DATA_DOUBLE, DOUBLE, 8)),
                ("dp", ty(DATA_DOUBLE, DOUBLE, 8)),
                ("r", ty(DATA_DOUBLE, DOUBLE, 8)),
                ("du", ty(DATA_DOUBLE, UNS | DOUBLE, 8)),
                // decimal_bin_size: 9 digits in 4 bytes, the rest in 1-4.
                ("d1", ty(DATA_FIXBINARY, NEWDECIMAL, 10)),
                ("d2", ty(DATA_FIXBINARY, NEWDECIMAL, 2)),
                ("d3", ty(DATA_FIXBINARY, NEWDECIMAL, 5)),
                ("d4", ty(DATA_FIXBINARY, NEWDECIMAL, 5)),
                ("d5", ty(DATA_FIXBINARY, NEWDECIMAL, 30)),
                ("d6", ty(DATA_FIXBINARY, NEWDECIMAL, 4)),
            ]
        );
        let decimals: Vec<_> = s.columns.iter().map(|c| c.decimal).collect();
        assert_eq!(
            decimals,
            [
                None,
                None,
                None,
                None,
                None,
                None,
                Some((20, 6)),
                Some((4, 2)),
                Some((10, 0)),
                Some((10, 0)),
                Some((65, 30)),
                Some((9, 9)),
            ]
        );
    }

    #[test]
    fn float_of_more_than_24_bits_is_a_double() {
        let s = parse(
            "CREATE TABLE t (f24 FLOAT(24), f25 FLOAT(25), f53 FLOAT(53) NOT NULL, \
             fu FLOAT(30) UNSIGNED, fmd FLOAT(7,4))",
        );
        assert_eq!(
            types(&s),
            [
                ("f24", ty(DATA_FLOAT, FLOAT, 4)),
                ("f25", ty(DATA_DOUBLE, DOUBLE, 8)),
                ("f53", ty(DATA_DOUBLE, NN | DOUBLE, 8)),
                ("fu", ty(DATA_DOUBLE, UNS | DOUBLE, 8)),
                // FLOAT(M,D) stays single precision.
                ("fmd", ty(DATA_FLOAT, FLOAT, 4)),
            ]
        );
    }

    #[test]
    fn character_types_take_the_column_or_table_character_set() {
        let s = parse(
            "CREATE TABLE t (c CHAR(10), v VARCHAR(100), c1 CHAR, \
             cu CHAR(10) CHARACTER SET utf8mb4, vu VARCHAR(100) CHARACTER SET utf8, \
             va VARCHAR(20) CHARACTER SET ascii, vb VARCHAR(20) CHARACTER SET binary, \
             b BINARY(8), b1 BINARY, vbin VARBINARY(64)) DEFAULT CHARSET=latin1",
        );
        assert_eq!(
            types(&s),
            [
                ("c", ty(DATA_MYSQL, STRING | LATIN1, 10)),
                ("v", ty(DATA_VARMYSQL, VARCHAR | LATIN1, 100)),
                ("c1", ty(DATA_MYSQL, STRING | LATIN1, 1)),
                // Lengths in bytes: characters times the most bytes of one.
                ("cu", ty(DATA_MYSQL, STRING | UTF8MB4, 40)),
                ("vu", ty(DATA_VARMYSQL, VARCHAR | UTF8MB3, 300)),
                ("va", ty(DATA_VARMYSQL, VARCHAR | (11 << 16), 20)),
                ("vb", ty(DATA_VARMYSQL, VARCHAR | BINARY, 20)),
                ("b", ty(DATA_FIXBINARY, STRING | BINARY, 8)),
                ("b1", ty(DATA_FIXBINARY, STRING | BINARY, 1)),
                ("vbin", ty(DATA_BINARY, VARCHAR | BINARY, 64)),
            ]
        );
        // A CHAR of a single-byte character set has a fixed size; one of a
        // multi-byte set has lengths in a COMPACT record.
        assert_eq!(column(&s, "c").column_type.fixed_size(), Some(10));
        assert_eq!(column(&s, "cu").column_type.fixed_size(), None);
        // Without a character set anywhere: utf8mb4, 4 bytes a character.
        let s = parse("CREATE TABLE t (c CHAR(10), v VARCHAR(64))");
        assert_eq!(
            types(&s),
            [
                ("c", ty(DATA_MYSQL, STRING | UTF8MB4, 40)),
                ("v", ty(DATA_VARMYSQL, VARCHAR | UTF8MB4, 256)),
            ]
        );
        // CHARACTER SET among the table options.
        let s = parse("CREATE TABLE t (c CHAR(10)) ENGINE=InnoDB CHARACTER SET = utf8");
        assert_eq!(
            column(&s, "c").column_type,
            ty(DATA_MYSQL, STRING | UTF8MB3, 30)
        );
    }

    #[test]
    fn character_sets_from_charset_without_equals_and_from_collations() {
        let latin1_char = ty(DATA_MYSQL, STRING | LATIN1, 10);
        for options in [
            "ENGINE=InnoDB DEFAULT CHARSET latin1",
            "CHARSET = latin1 ROW_FORMAT=DYNAMIC",
            "DEFAULT CHARACTER SET latin1",
            "DEFAULT COLLATE=latin1_swedish_ci",
            "COMMENT='a charset=utf8 of its own' DEFAULT CHARSET=latin1",
        ] {
            let s = parse(&format!("CREATE TABLE t (c CHAR(10)) {options}"));
            assert_eq!(column(&s, "c").column_type, latin1_char, "{options}");
        }
        // A column's collation gives its character set, and is kept
        // (latin1_bin 47, utf8mb4_bin 46); a column's character set gives
        // its default collation (gbk_chinese_ci 28).
        let s = parse(
            "CREATE TABLE t (c CHAR(10) COLLATE latin1_bin, u CHAR(10) COLLATE utf8mb4_bin, \
             g CHAR(10) CHARACTER SET gbk, b VARCHAR(40) BINARY) DEFAULT CHARSET=utf8",
        );
        assert_eq!(
            column(&s, "c").column_type,
            ty(DATA_MYSQL, STRING | (47 << 16), 10)
        );
        assert_eq!(
            column(&s, "u").column_type,
            ty(DATA_MYSQL, STRING | (46 << 16), 40)
        );
        assert_eq!(
            column(&s, "g").column_type,
            ty(DATA_MYSQL, STRING | (28 << 16), 20)
        );
        // `VARCHAR(40) BINARY`: utf8's binary collation, the same bytes.
        assert_eq!(column(&s, "b").column_type.len, 120);
    }

    #[test]
    fn not_null_and_null() {
        let s = parse("CREATE TABLE t (a INT NOT NULL, b INT NULL, c INT, d VARCHAR(5) NOT NULL)");
        let nullable: Vec<_> = s
            .columns
            .iter()
            .map(|c| (c.name.as_str(), c.column_type.nullable()))
            .collect();
        assert_eq!(
            nullable,
            [("a", false), ("b", true), ("c", true), ("d", false)]
        );
        assert_eq!(column(&s, "a").column_type.prtype, NN | LONG);
        assert_eq!(column(&s, "d").column_type.prtype, NN | VARCHAR | UTF8MB4);
    }

    #[test]
    fn inline_primary_key() {
        let s = parse("CREATE TABLE `t1` (a INT, id BIGINT UNSIGNED PRIMARY KEY, b VARCHAR(10))");
        assert_eq!(s.table, "t1");
        assert_eq!(
            indexes(&s),
            [(
                "PRIMARY",
                40,
                3,
                true,
                vec!["id", "DB_TRX_ID", "DB_ROLL_PTR", "a", "b"]
            )]
        );
        // The key column is NOT NULL without saying so.
        assert_eq!(
            column(&s, "id").column_type,
            ty(DATA_INT, NN | UNS | LONGLONG, 8)
        );
        let clustered = &s.indexes[0].fields;
        assert_eq!(clustered[1].column_type, sys(6));
        assert_eq!(clustered[2].column_type, sys(7));
        // The columns stay in the statement's order.
        assert_eq!(names(&s.columns), ["a", "id", "b"]);
    }

    #[test]
    fn table_names_with_or_without_their_database() {
        let name = |sql: &str| parse(sql).table;
        assert_eq!(name("CREATE TABLE t1 (a INT)"), "t1");
        assert_eq!(name("CREATE TABLE `t 2` (a INT)"), "t 2");
        assert_eq!(name("CREATE TABLE test.t3 (a INT)"), "test/t3");
        assert_eq!(name("CREATE TABLE `test`.`t4` (a INT)"), "test/t4");
    }

    #[test]
    fn composite_table_level_primary_key() {
        let s = parse("CREATE TABLE t (a INT, b VARCHAR(8), c INT, d DATE, PRIMARY KEY (c, a))");
        assert_eq!(
            indexes(&s),
            [(
                "PRIMARY",
                40,
                3,
                true,
                vec!["c", "a", "DB_TRX_ID", "DB_ROLL_PTR", "b", "d"]
            )]
        );
        assert!(!column(&s, "a").column_type.nullable());
        assert!(!column(&s, "c").column_type.nullable());
        assert!(column(&s, "b").column_type.nullable());
        // The clustered index's copy of a key column is NOT NULL too.
        assert!(!s.indexes[0].fields[0].column_type.nullable());
    }

    #[test]
    fn secondary_keys_in_order_with_the_primary_key_appended() {
        let s = parse(
            "CREATE TABLE t (id INT NOT NULL, a INT, b VARCHAR(10), c INT, \
             PRIMARY KEY (id), KEY k_a (a), INDEX (b, id), KEY k_ca (c, a))",
        );
        assert_eq!(
            indexes(&s),
            [
                (
                    "PRIMARY",
                    40,
                    3,
                    true,
                    vec!["id", "DB_TRX_ID", "DB_ROLL_PTR", "a", "b", "c"]
                ),
                ("k_a", 41, 4, false, vec!["a", "id"]),
                // Unnamed: named after its first column. The key column
                // that is also the primary key's is not repeated.
                ("b", 42, 5, false, vec!["b", "id"]),
                ("k_ca", 43, 6, false, vec!["c", "a", "id"]),
            ]
        );
        // A secondary index's fields keep their columns' types.
        assert_eq!(s.indexes[1].fields[0].column_type, ty(DATA_INT, LONG, 4));
        assert_eq!(
            s.indexes[1].fields[1].column_type,
            ty(DATA_INT, NN | LONG, 4)
        );
    }

    #[test]
    fn unique_keys_by_index_name_constraint_name_or_first_column() {
        let s = schema_from_ddl(
            "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, c INT, d INT, \
             UNIQUE KEY u_a (a), CONSTRAINT c_b UNIQUE (b), \
             CONSTRAINT c_c UNIQUE INDEX u_c (c), UNIQUE (d))",
            &[(1, 3), (2, 4), (3, 5), (4, 6), (5, 7)],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let names: Vec<&str> = s.indexes.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(names, ["PRIMARY", "u_a", "c_b", "u_c", "d"]);
    }

    #[test]
    fn unique_keys_come_first_as_the_server_sorts_them() {
        let s = parse(
            "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT NOT NULL, c INT, \
             KEY k_a (a), UNIQUE KEY u_c (c), UNIQUE KEY u_b (b))",
        );
        assert_eq!(
            indexes(&s),
            [
                (
                    "PRIMARY",
                    40,
                    3,
                    true,
                    vec!["id", "DB_TRX_ID", "DB_ROLL_PTR", "a", "b", "c"]
                ),
                // NOT NULL unique keys, then the others, then the rest.
                ("u_b", 41, 4, false, vec!["b", "id"]),
                ("u_c", 42, 5, false, vec!["c", "id"]),
                ("k_a", 43, 6, false, vec!["a", "id"]),
            ]
        );
    }

    #[test]
    fn a_column_declared_unique_is_a_unique_key() {
        let s = parse(
            "CREATE TABLE t (id INT PRIMARY KEY, a INT, e VARCHAR(20) UNIQUE, \
             c INT NOT NULL UNIQUE, KEY k_a (a))",
        );
        assert_eq!(
            indexes(&s),
            [
                (
                    "PRIMARY",
                    40,
                    3,
                    true,
                    vec!["id", "DB_TRX_ID", "DB_ROLL_PTR", "a", "e", "c"]
                ),
                ("c", 41, 4, false, vec!["c", "id"]),
                ("e", 42, 5, false, vec!["e", "id"]),
                ("k_a", 43, 6, false, vec!["a", "id"]),
            ]
        );
        // Without a primary key, a NOT NULL one is the clustered index.
        let s = parse("CREATE TABLE t (a INT, id INT NOT NULL UNIQUE)");
        assert_eq!(
            indexes(&s),
            [(
                "id",
                40,
                3,
                true,
                vec!["id", "DB_TRX_ID", "DB_ROLL_PTR", "a"]
            )]
        );
    }

    #[test]
    fn composite_primary_key_in_secondary_indexes() {
        let s = parse("CREATE TABLE t (a INT, b INT, c INT, PRIMARY KEY (a, b), KEY k_cb (c, b))");
        assert_eq!(indexes(&s)[1], ("k_cb", 41, 4, false, vec!["c", "b", "a"]));
    }

    #[test]
    fn keys_beyond_the_file_roots_are_left_out() {
        let s = schema_from_ddl(
            "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY (a), KEY (b))",
            &[(7, 3), (8, 4)],
        );
        let s = s.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            indexes(&s),
            [
                (
                    "PRIMARY",
                    7,
                    3,
                    true,
                    vec!["id", "DB_TRX_ID", "DB_ROLL_PTR", "a", "b"]
                ),
                ("a", 8, 4, false, vec!["a", "id"]),
            ]
        );
    }

    #[test]
    fn no_primary_key_gives_a_generated_clustered_index() {
        let s = parse("CREATE TABLE t (a INT, b VARCHAR(10), KEY k_b (b))");
        assert_eq!(
            indexes(&s),
            [
                (
                    "GEN_CLUST_INDEX",
                    40,
                    3,
                    true,
                    vec!["DB_ROW_ID", "DB_TRX_ID", "DB_ROLL_PTR", "a", "b"]
                ),
                ("k_b", 41, 4, false, vec!["b", "DB_ROW_ID"]),
            ]
        );
        assert_eq!(s.indexes[0].fields[0].column_type, sys(6));
        assert_eq!(s.indexes[1].fields[1].column_type, sys(6));
    }

    #[test]
    fn without_a_primary_key_the_first_unique_not_null_key_is_clustered() {
        let s = parse(
            "CREATE TABLE t (a INT, b INT NOT NULL, c VARCHAR(10) NOT NULL, \
             UNIQUE KEY u_a (a), UNIQUE KEY u_bc (b, c), KEY k_c (c), UNIQUE KEY u_c (c))",
        );
        // u_a has a nullable column: InnoDB clusters on u_bc, by its name.
        assert_eq!(
            indexes(&s),
            [
                (
                    "u_bc",
                    40,
                    3,
                    true,
                    vec!["b", "c", "DB_TRX_ID", "DB_ROLL_PTR", "a"]
                ),
                ("u_c", 41, 4, false, vec!["c", "b"]),
                ("u_a", 42, 5, false, vec!["a", "b", "c"]),
                ("k_c", 43, 6, false, vec!["c", "b"]),
            ]
        );
        // Only nullable unique keys: the generated clustered index.
        let s = parse("CREATE TABLE t (a INT, UNIQUE KEY u_a (a))");
        assert_eq!(
            indexes(&s),
            [
                (
                    "GEN_CLUST_INDEX",
                    40,
                    3,
                    true,
                    vec!["DB_ROW_ID", "DB_TRX_ID", "DB_ROLL_PTR", "a"]
                ),
                ("u_a", 41, 4, false, vec!["a", "DB_ROW_ID"]),
            ]
        );
    }

    #[test]
    fn virtual_columns_are_only_in_the_secondary_indexes_on_them() {
        let s = parse(
            "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, s INT AS (a + b) STORED, \
             v INT AS (a * b), w INT GENERATED ALWAYS AS (a - b) VIRTUAL, \
             g BIGINT GENERATED ALWAYS AS (a) STORED, KEY k_v (v), KEY k_s (s))",
        );
        assert_eq!(names(&s.columns), ["id", "a", "b", "s", "g"]);
        assert_eq!(
            indexes(&s),
            [
                (
                    "PRIMARY",
                    40,
                    3,
                    true,
                    vec!["id", "DB_TRX_ID", "DB_ROLL_PTR", "a", "b", "s", "g"]
                ),
                ("k_v", 41, 4, false, vec!["v", "id"]),
                ("k_s", 42, 5, false, vec!["s", "id"]),
            ]
        );
        assert_eq!(s.indexes[1].fields[0].column_type, ty(DATA_INT, LONG, 4));
    }

    #[test]
    fn default_clauses_and_other_column_options_change_nothing() {
        let plain = parse(
            "CREATE TABLE t (id INT NOT NULL, n INT, s VARCHAR(10), \
             ts TIMESTAMP NOT NULL, e ENUM('x','y'), PRIMARY KEY (id))",
        );
        let with_options = parse(
            "CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT COMMENT 'the key', \
             n INT DEFAULT '0', s VARCHAR(10) DEFAULT NULL, \
             ts TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, \
             e ENUM('x','y') DEFAULT 'y', PRIMARY KEY (id)) \
             ENGINE=InnoDB AUTO_INCREMENT=10958 ROW_FORMAT=DYNAMIC",
        );
        assert_eq!(
            format!("{:?}", plain.indexes),
            format!("{:?}", with_options.indexes)
        );
        assert_eq!(types(&plain), types(&with_options));
    }

    #[test]
    fn enum_and_set_labels_and_sizes() {
        let many: Vec<String> = (0..256).map(|i| format!("'v{i}'")).collect();
        let set33: Vec<String> = (0..33).map(|i| format!("'s{i}'")).collect();
        let s = parse(&format!(
            "CREATE TABLE t (e ENUM('red','green','blue') NOT NULL, \
             s SET('a','b','c','d'), s9 SET('1','2','3','4','5','6','7','8','9'), \
             big ENUM({}), s33 SET({}))",
            many.join(","),
            set33.join(",")
        ));
        assert_eq!(
            types(&s),
            [
                ("e", ty(DATA_INT, NN | UNS | ENUM, 1)),
                ("s", ty(DATA_INT, UNS | SET, 1)),
                ("s9", ty(DATA_INT, UNS | SET, 2)),
                // More than 255 labels take 2 bytes; more than 32 SET
                // members take 8.
                ("big", ty(DATA_INT, UNS | ENUM, 2)),
                ("s33", ty(DATA_INT, UNS | SET, 8)),
            ]
        );
        let e = column(&s, "e");
        assert_eq!(
            e.labels.as_deref(),
            Some(&["red".to_string(), "green".into(), "blue".into()][..])
        );
        assert!(!e.set);
        let set = column(&s, "s");
        assert_eq!(
            set.labels.as_deref(),
            Some(&["a".to_string(), "b".into(), "c".into(), "d".into()][..])
        );
        assert!(set.set);
        assert_eq!(column(&s, "big").labels.as_ref().map(Vec::len), Some(256));
        // A label is decoded by its number (from 1), a SET by its bits.
        assert_eq!(e.value(&[2]), Value::Text("green".into()));
        assert_eq!(set.value(&[0b0101]), Value::Text("a,c".into()));
    }

    #[test]
    fn text_blob_and_json() {
        let s = parse(
            "CREATE TABLE t (t1 TINYTEXT, t2 TEXT NOT NULL, t3 MEDIUMTEXT, t4 LONGTEXT, \
             tu TEXT CHARACTER SET utf8mb4, b1 TINYBLOB, b2 BLOB, b3 MEDIUMBLOB, \
             b4 LONGBLOB, j JSON) CHARSET=latin1",
        );
        let text = |extra: u32, cs: u32| ty(DATA_BLOB, extra | BLOB | cs, 65535);
        let blob = |extra: u32| ty(DATA_BLOB, extra | BLOB | BINARY_TYPE | BINARY, 65535);
        assert_eq!(
            types(&s),
            [
                ("t1", text(0, LATIN1)),
                ("t2", text(NN, LATIN1)),
                ("t3", text(0, LATIN1)),
                ("t4", text(0, LATIN1)),
                ("tu", text(0, UTF8MB4)),
                ("b1", blob(0)),
                ("b2", blob(0)),
                ("b3", blob(0)),
                ("b4", blob(0)),
                // JSON is kept as its bytes, like a BLOB.
                ("j", blob(0)),
            ]
        );
        // BLOB-like columns have 1- or 2-byte lengths, never a fixed size.
        assert!(s
            .columns
            .iter()
            .all(|c| c.column_type.big() && c.column_type.fixed_size().is_none()));
    }

    #[test]
    fn temporal_types_with_fractional_seconds() {
        let s = parse(
            "CREATE TABLE t (d DATE, y YEAR, y4 YEAR(4), t0 TIME, t3 TIME(3), t6 TIME(6), \
             dt0 DATETIME, dt1 DATETIME(1), dt6 DATETIME(6), ts0 TIMESTAMP NULL, \
             ts2 TIMESTAMP(2) NOT NULL, ts5 TIMESTAMP(5))",
        );
        assert_eq!(
            types(&s),
            [
                ("d", ty(DATA_INT, NEWDATE, 3)),
                ("y", ty(DATA_INT, UNS | YEAR, 1)),
                ("y4", ty(DATA_INT, UNS | YEAR, 1)),
                // The 5.6.4+ format: the integer part, then (fsp + 1) / 2
                // bytes of fraction.
                ("t0", ty(DATA_FIXBINARY, TIME, 3)),
                ("t3", ty(DATA_FIXBINARY, TIME, 5)),
                ("t6", ty(DATA_FIXBINARY, TIME, 6)),
                ("dt0", ty(DATA_FIXBINARY, DATETIME, 5)),
                ("dt1", ty(DATA_FIXBINARY, DATETIME, 6)),
                ("dt6", ty(DATA_FIXBINARY, DATETIME, 8)),
                ("ts0", ty(DATA_FIXBINARY, TIMESTAMP, 4)),
                ("ts2", ty(DATA_FIXBINARY, NN | TIMESTAMP, 5)),
                ("ts5", ty(DATA_FIXBINARY, TIMESTAMP, 7)),
            ]
        );
    }

    #[test]
    fn old_temporal_format_for_columns_without_fractions() {
        let s = parse(
            "CREATE TABLE t (id INT PRIMARY KEY, t0 TIME, t3 TIME(3), dt0 DATETIME NOT NULL, \
             dt6 DATETIME(6), ts0 TIMESTAMP, d DATE, KEY k (dt0))",
        );
        let old = with_old_temporal(&s).unwrap_or_else(|| panic!("no temporal column"));
        let clustered: Vec<_> = old.indexes[0]
            .fields
            .iter()
            .map(|f| (f.name.as_str(), f.column_type))
            .collect();
        assert_eq!(
            clustered,
            [
                ("id", ty(DATA_INT, NN | LONG, 4)),
                ("DB_TRX_ID", sys(6)),
                ("DB_ROLL_PTR", sys(7)),
                // Before 5.6.4: integers of 3, 8 and 4 bytes.
                ("t0", ty(DATA_INT, TIME, 3)),
                ("t3", ty(DATA_FIXBINARY, TIME, 5)),
                ("dt0", ty(DATA_INT, NN | DATETIME, 8)),
                ("dt6", ty(DATA_FIXBINARY, DATETIME, 8)),
                ("ts0", ty(DATA_INT, UNS | TIMESTAMP, 4)),
                ("d", ty(DATA_INT, NEWDATE, 3)),
            ]
        );
        // Secondary indexes too.
        assert_eq!(
            old.indexes[1].fields[0].column_type,
            ty(DATA_INT, NN | DATETIME, 8)
        );
        // And the table's columns, which say the same.
        assert_eq!(
            types(&old),
            [
                ("id", ty(DATA_INT, NN | LONG, 4)),
                ("t0", ty(DATA_INT, TIME, 3)),
                ("t3", ty(DATA_FIXBINARY, TIME, 5)),
                ("dt0", ty(DATA_INT, NN | DATETIME, 8)),
                ("dt6", ty(DATA_FIXBINARY, DATETIME, 8)),
                ("ts0", ty(DATA_INT, UNS | TIMESTAMP, 4)),
                ("d", ty(DATA_INT, NEWDATE, 3)),
            ]
        );
        // Nothing to change: no other reading.
        assert!(with_old_temporal(&parse("CREATE TABLE t (a INT, t TIME(2))")).is_none());
    }

    #[test]
    fn bit_and_spatial_columns() {
        let s = parse(
            "CREATE TABLE t (id INT PRIMARY KEY, b BIT, b13 BIT(13), b64 BIT(64), \
             g GEOMETRY NOT NULL, p POINT, SPATIAL KEY sp (g))",
        );
        let geometry = |extra: u32| ty(DATA_GEOMETRY, extra | GEOMETRY | BINARY, 256);
        assert_eq!(
            types(&s),
            [
                ("id", ty(DATA_INT, NN | LONG, 4)),
                ("b", ty(DATA_FIXBINARY, BIT, 1)),
                ("b13", ty(DATA_FIXBINARY, BIT, 2)),
                ("b64", ty(DATA_FIXBINARY, BIT, 8)),
                ("g", geometry(NN)),
                ("p", geometry(0)),
            ]
        );
        // A SPATIAL key is an index (an R-tree) like the others.
        assert_eq!(indexes(&s)[1], ("sp", 41, 4, false, vec!["g", "id"]));
    }

    #[test]
    fn a_fulltext_key_adds_the_hidden_fts_doc_id_and_no_index() {
        let s = parse("CREATE TABLE t (id INT PRIMARY KEY, body TEXT, FULLTEXT KEY ft (body))");
        assert_eq!(
            indexes(&s),
            [(
                "PRIMARY",
                40,
                3,
                true,
                vec!["id", "DB_TRX_ID", "DB_ROLL_PTR", "body", "FTS_DOC_ID"]
            )]
        );
        assert_eq!(
            column(&s, "FTS_DOC_ID").column_type,
            ty(DATA_INT, NN | UNS | LONGLONG, 8)
        );
        // Declared by the statement: not added twice.
        let s = parse(
            "CREATE TABLE t (FTS_DOC_ID BIGINT UNSIGNED NOT NULL, body TEXT, \
             FULLTEXT KEY ft (body))",
        );
        assert_eq!(names(&s.columns), ["FTS_DOC_ID", "body"]);
    }

    #[test]
    fn table_options_the_parser_does_not_know_are_left_out() {
        // MariaDB's SHOW CREATE TABLE of the t_pagecomp fixture.
        let s = parse(
            "CREATE TABLE `t_pagecomp` (\n  `id` int(11) NOT NULL,\n  `a` int(11) NOT NULL,\n  \
             `b` varchar(64) DEFAULT NULL,\n  `c` char(20) DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) \
             ENGINE=InnoDB DEFAULT CHARSET=latin1 COLLATE=latin1_swedish_ci `PAGE_COMPRESSED`='1'",
        );
        assert_eq!(
            types(&s),
            [
                ("id", ty(DATA_INT, NN | LONG, 4)),
                ("a", ty(DATA_INT, NN | LONG, 4)),
                ("b", ty(DATA_VARMYSQL, VARCHAR | LATIN1, 64)),
                ("c", ty(DATA_MYSQL, STRING | LATIN1, 20)),
            ]
        );
    }

    /// `SHOW CREATE TABLE` of the fixtures' `t_types` (MariaDB 10.11,
    /// fixtures/generate.sh), every type the fixtures hold.
    #[test]
    fn fixture_t_types() {
        let s = parse(
            "CREATE TABLE `t_types` (
  `id` int(11) NOT NULL,
  `ti` tinyint(4) DEFAULT NULL,
  `tiu` tinyint(3) unsigned DEFAULT NULL,
  `si` smallint(6) DEFAULT NULL,
  `siu` smallint(5) unsigned DEFAULT NULL,
  `mi` mediumint(9) DEFAULT NULL,
  `miu` mediumint(8) unsigned DEFAULT NULL,
  `i` int(11) DEFAULT NULL,
  `iu` int(10) unsigned DEFAULT NULL,
  `bi` bigint(20) DEFAULT NULL,
  `biu` bigint(20) unsigned DEFAULT NULL,
  `f` float DEFAULT NULL,
  `d` double DEFAULT NULL,
  `dec1` decimal(20,6) DEFAULT NULL,
  `dt` date DEFAULT NULL,
  `tm` time(3) DEFAULT NULL,
  `dtm` datetime(6) DEFAULT NULL,
  `ts` timestamp NULL DEFAULT NULL,
  `yr` year(4) DEFAULT NULL,
  `c_utf8` char(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL,
  `vc_utf8` varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL,
  `c_lat` char(10) DEFAULT NULL,
  `vc_lat` varchar(100) DEFAULT NULL,
  `bin` binary(8) DEFAULT NULL,
  `vbin` varbinary(64) DEFAULT NULL,
  `en` enum('red','green','blue') DEFAULT NULL,
  `st` set('a','b','c','d') DEFAULT NULL,
  `bt` bit(13) DEFAULT NULL,
  `tx` text DEFAULT NULL,
  `bl` blob DEFAULT NULL,
  `js` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL CHECK (json_valid(`js`)),
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1 COLLATE=latin1_swedish_ci",
        );
        assert_eq!(s.table, "t_types");
        assert_eq!(
            types(&s),
            [
                ("id", ty(DATA_INT, NN | LONG, 4)),
                ("ti", ty(DATA_INT, TINY, 1)),
                ("tiu", ty(DATA_INT, UNS | TINY, 1)),
                ("si", ty(DATA_INT, SHORT, 2)),
                ("siu", ty(DATA_INT, UNS | SHORT, 2)),
                ("mi", ty(DATA_INT, INT24, 3)),
                ("miu", ty(DATA_INT, UNS | INT24, 3)),
                ("i", ty(DATA_INT, LONG, 4)),
                ("iu", ty(DATA_INT, UNS | LONG, 4)),
                ("bi", ty(DATA_INT, LONGLONG, 8)),
                ("biu", ty(DATA_INT, UNS | LONGLONG, 8)),
                ("f", ty(DATA_FLOAT, FLOAT, 4)),
                ("d", ty(DATA_DOUBLE, DOUBLE, 8)),
                ("dec1", ty(DATA_FIXBINARY, NEWDECIMAL, 10)),
                ("dt", ty(DATA_INT, NEWDATE, 3)),
                ("tm", ty(DATA_FIXBINARY, TIME, 5)),
                ("dtm", ty(DATA_FIXBINARY, DATETIME, 8)),
                ("ts", ty(DATA_FIXBINARY, TIMESTAMP, 4)),
                ("yr", ty(DATA_INT, UNS | YEAR, 1)),
                ("c_utf8", ty(DATA_MYSQL, STRING | UTF8MB4, 40)),
                ("vc_utf8", ty(DATA_VARMYSQL, VARCHAR | UTF8MB4, 400)),
                ("c_lat", ty(DATA_MYSQL, STRING | LATIN1, 10)),
                ("vc_lat", ty(DATA_VARMYSQL, VARCHAR | LATIN1, 100)),
                ("bin", ty(DATA_FIXBINARY, STRING | BINARY, 8)),
                ("vbin", ty(DATA_BINARY, VARCHAR | BINARY, 64)),
                ("en", ty(DATA_INT, UNS | ENUM, 1)),
                ("st", ty(DATA_INT, UNS | SET, 1)),
                ("bt", ty(DATA_FIXBINARY, BIT, 2)),
                ("tx", ty(DATA_BLOB, BLOB | LATIN1, 65535)),
                ("bl", ty(DATA_BLOB, BLOB | BINARY_TYPE | BINARY, 65535)),
                // MariaDB's JSON is a LONGTEXT with a CHECK.
                // COLLATE utf8mb4_bin (46).
                ("js", ty(DATA_BLOB, BLOB | (46 << 16), 65535)),
            ]
        );
        assert_eq!(column(&s, "dec1").decimal, Some((20, 6)));
        // The first row's DECIMAL, as the server stored it.
        assert_eq!(
            column(&s, "dec1").value(&[0x7F, 0xFF, 0xFF, 0xFF, 0xE3, 0xEE, 0x6D, 0xFD, 0x9D, 0xA6]),
            Value::Text("-1839506.156249".into())
        );
        let mut clustered = vec!["id", "DB_TRX_ID", "DB_ROLL_PTR"];
        clustered.extend(names(&s.columns).into_iter().skip(1));
        assert_eq!(indexes(&s), [("PRIMARY", 40, 3, true, clustered)]);
    }

    /// `SHOW CREATE TABLE` of sakila's `film` as MySQL 8.0 prints it (the
    /// columns, types and keys of the 8.0.40 copy's SDI in
    /// ../shared/thirdparty), foreign keys included.
    #[test]
    fn sakila_film_of_mysql_8() {
        let s = parse(
            "CREATE TABLE `film` (
  `film_id` smallint unsigned NOT NULL AUTO_INCREMENT,
  `title` varchar(128) NOT NULL,
  `description` text,
  `release_year` year DEFAULT NULL,
  `language_id` tinyint unsigned NOT NULL,
  `original_language_id` tinyint unsigned DEFAULT NULL,
  `rental_duration` tinyint unsigned NOT NULL DEFAULT '3',
  `rental_rate` decimal(4,2) NOT NULL DEFAULT '4.99',
  `length` smallint unsigned DEFAULT NULL,
  `replacement_cost` decimal(5,2) NOT NULL DEFAULT '19.99',
  `rating` enum('G','PG','PG-13','R','NC-17') DEFAULT 'G',
  `special_features` set('Trailers','Commentaries','Deleted Scenes','Behind the Scenes') DEFAULT NULL,
  `last_update` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  PRIMARY KEY (`film_id`),
  KEY `idx_title` (`title`),
  KEY `idx_fk_language_id` (`language_id`),
  KEY `idx_fk_original_language_id` (`original_language_id`),
  CONSTRAINT `fk_film_language` FOREIGN KEY (`language_id`) REFERENCES `language` (`language_id`) ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT `fk_film_language_original` FOREIGN KEY (`original_language_id`) REFERENCES `language` (`language_id`) ON DELETE RESTRICT ON UPDATE CASCADE
) ENGINE=InnoDB AUTO_INCREMENT=1001 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci",
        );
        assert_eq!(
            types(&s),
            [
                ("film_id", ty(DATA_INT, NN | UNS | SHORT, 2)),
                // The table's COLLATE=utf8mb4_0900_ai_ci (255), as the SDI.
                ("title", ty(DATA_VARMYSQL, NN | VARCHAR | (255 << 16), 512)),
                ("description", ty(DATA_BLOB, BLOB | (255 << 16), 65535)),
                ("release_year", ty(DATA_INT, UNS | YEAR, 1)),
                ("language_id", ty(DATA_INT, NN | UNS | TINY, 1)),
                ("original_language_id", ty(DATA_INT, UNS | TINY, 1)),
                ("rental_duration", ty(DATA_INT, NN | UNS | TINY, 1)),
                ("rental_rate", ty(DATA_FIXBINARY, NN | NEWDECIMAL, 2)),
                ("length", ty(DATA_INT, UNS | SHORT, 2)),
                ("replacement_cost", ty(DATA_FIXBINARY, NN | NEWDECIMAL, 3)),
                ("rating", ty(DATA_INT, UNS | ENUM, 1)),
                ("special_features", ty(DATA_INT, UNS | SET, 1)),
                ("last_update", ty(DATA_FIXBINARY, NN | TIMESTAMP, 4)),
            ]
        );
        assert_eq!(column(&s, "rental_rate").decimal, Some((4, 2)));
        assert_eq!(column(&s, "replacement_cost").decimal, Some((5, 2)));
        assert_eq!(
            column(&s, "special_features").labels.as_deref(),
            Some(
                &[
                    "Trailers".to_string(),
                    "Commentaries".into(),
                    "Deleted Scenes".into(),
                    "Behind the Scenes".into()
                ][..]
            )
        );
        // The indexes as the SDI lists their elements.
        assert_eq!(
            indexes(&s),
            [
                (
                    "PRIMARY",
                    40,
                    3,
                    true,
                    vec![
                        "film_id",
                        "DB_TRX_ID",
                        "DB_ROLL_PTR",
                        "title",
                        "description",
                        "release_year",
                        "language_id",
                        "original_language_id",
                        "rental_duration",
                        "rental_rate",
                        "length",
                        "replacement_cost",
                        "rating",
                        "special_features",
                        "last_update"
                    ]
                ),
                ("idx_title", 41, 4, false, vec!["title", "film_id"]),
                (
                    "idx_fk_language_id",
                    42,
                    5,
                    false,
                    vec!["language_id", "film_id"]
                ),
                (
                    "idx_fk_original_language_id",
                    43,
                    6,
                    false,
                    vec!["original_language_id", "film_id"]
                ),
            ]
        );
    }

    /// sysbench's `sbtest1` as MySQL 8 printed it
    /// (../shared/thirdparty/baotiao__inno_space/tool/create_sbtest1.txt).
    #[test]
    fn sysbench_sbtest1() {
        let s = parse(
            "CREATE TABLE `sbtest1` (
  `id` int NOT NULL AUTO_INCREMENT,
  `k` int NOT NULL DEFAULT '0',
  `c` char(120) NOT NULL DEFAULT '',
  `pad` char(60) NOT NULL DEFAULT '',
  PRIMARY KEY (`id`),
  KEY `k_1` (`k`)
) ENGINE=InnoDB AUTO_INCREMENT=10958 DEFAULT CHARSET=latin1",
        );
        assert_eq!(
            types(&s),
            [
                ("id", ty(DATA_INT, NN | LONG, 4)),
                ("k", ty(DATA_INT, NN | LONG, 4)),
                ("c", ty(DATA_MYSQL, NN | STRING | LATIN1, 120)),
                ("pad", ty(DATA_MYSQL, NN | STRING | LATIN1, 60)),
            ]
        );
        assert_eq!(
            indexes(&s),
            [
                (
                    "PRIMARY",
                    40,
                    3,
                    true,
                    vec!["id", "DB_TRX_ID", "DB_ROLL_PTR", "k", "c", "pad"]
                ),
                ("k_1", 41, 4, false, vec!["k", "id"]),
            ]
        );
    }

    /// A prefix key (`KEY (email(3))`) is a key on its column; BOOLEAN is
    /// TINYINT(1).
    #[test]
    fn prefix_keys_and_booleans() {
        let s = parse(
            "CREATE TABLE t (id INT PRIMARY KEY, email VARCHAR(50), ok BOOLEAN NOT NULL, \
             KEY k_email (email(3)), KEY k_two (ok, email(10)))",
        );
        assert_eq!(
            indexes(&s),
            [
                (
                    "PRIMARY",
                    40,
                    3,
                    true,
                    vec!["id", "DB_TRX_ID", "DB_ROLL_PTR", "email", "ok"]
                ),
                ("k_email", 41, 4, false, vec!["email", "id"]),
                ("k_two", 42, 5, false, vec!["ok", "email", "id"]),
            ]
        );
        assert_eq!(column(&s, "ok").column_type, ty(DATA_INT, NN | 1, 1));
    }

    #[test]
    fn what_it_cannot_read_is_an_error_naming_it() {
        assert_eq!(error("SELECT 1"), "the statement is not a CREATE TABLE");
        let e = error("CREATE TABLE t (a INT");
        assert!(e.contains("sql parser error"), "{e}");
        let e = error("CREATE TABLE t (a INT, b FROB(3)) ENGINE=InnoDB");
        assert!(e.contains("column b: type FROB(3) is not supported"), "{e}");
        assert_eq!(
            error("CREATE TABLE t (a INT, PRIMARY KEY (nope))"),
            "key column nope is not a column"
        );
        assert_eq!(
            error("CREATE TABLE t (a INT PRIMARY KEY, KEY k (a, nope))"),
            "key column nope is not a column"
        );
        assert_eq!(
            schema_from_ddl("CREATE TABLE t (a INT)", &[(u64::MAX, 1)])
                .err()
                .as_deref(),
            Some("the file has no index root")
        );
    }
}

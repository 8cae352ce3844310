//! A table's schema from a `CREATE TABLE` statement (`--ddl FILE`), parsed
//! with `sqlparser`, for files whose dictionary is gone or does not say
//! enough (MariaDB's dictionary has no DECIMAL scale and no ENUM labels).
//!
//! The statement gives columns and keys; the file gives the index ids and
//! roots: the clustered index is the one created first (the lowest index
//! id), the secondary indexes follow in the statement's order.

use crate::rows::records::{IndexField, Schema, SchemaIndex};
use innodb_format::value::column_value::{
    ColumnType, DATA_BINARY, DATA_BLOB, DATA_DOUBLE, DATA_FIXBINARY, DATA_FLOAT, DATA_GEOMETRY,
    DATA_INT, DATA_MYSQL, DATA_NOT_NULL, DATA_SYS, DATA_UNSIGNED, DATA_VARMYSQL,
};
use sqlparser::ast::{ColumnOption, DataType, Statement, TableConstraint};
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;

/// Collation id (for its bytes per character) of a character set name.
fn collation_of(charset: &str) -> u32 {
    match charset.to_ascii_lowercase().as_str() {
        "latin1" => 8,
        "ascii" => 11,
        "binary" => 63,
        "utf8" | "utf8mb3" => 33,
        _ => 45, // utf8mb4 and the rest: up to 4 bytes per character
    }
}

fn mbmaxlen(collation: u32) -> u32 {
    match collation {
        8 | 11 | 63 => 1,
        33 => 3,
        _ => 4,
    }
}

/// The table's default character set: `DEFAULT CHARSET=x` or `CHARACTER SET x` after the columns.
fn table_charset(sql: &str) -> Option<String> {
    let tail = &sql[sql.rfind(')')?..];
    let upper = tail.to_ascii_uppercase();
    let at = upper
        .find("CHARSET=")
        .map(|i| i + 8)
        .or_else(|| upper.find("CHARACTER SET").map(|i| i + 13))?;
    let rest = tail[at..].trim_start_matches([' ', '=']);
    Some(
        rest.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .next()?
            .to_string(),
    )
}

/// `decimal_bin_size`.
fn decimal_bytes(p: u32, s: u32) -> u32 {
    const DIG2BYTES: [u32; 10] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];
    // Bytes of the leftover digits (fewer than 9: always in the table).
    let rest = |digits: u32| DIG2BYTES.get((digits % 9) as usize).copied().unwrap_or(4);
    let intg = p.saturating_sub(s);
    intg / 9 * 4 + rest(intg) + s / 9 * 4 + rest(s)
}

fn frac_bytes(fsp: Option<u64>) -> u32 {
    (fsp.unwrap_or(0) as u32).div_ceil(2)
}

/// One column as an index field; `None` for a type this does not know.
fn column_field(
    name: &str,
    dt: &DataType,
    not_null: bool,
    charset: Option<&str>,
    table_cs: &str,
) -> Option<IndexField> {
    let nn = if not_null { DATA_NOT_NULL } else { 0 };
    let coll = collation_of(charset.unwrap_or(table_cs));
    let int = |len: u32, unsigned: bool, mysql: u32| ColumnType {
        mtype: DATA_INT,
        prtype: nn | if unsigned { DATA_UNSIGNED } else { 0 } | mysql,
        len,
    };
    let mut decimal = None;
    let mut labels = None;
    let mut set = false;
    let char_len = |n: Option<u64>| n.unwrap_or(1) as u32 * mbmaxlen(coll);
    let len_of = |l: &Option<sqlparser::ast::CharacterLength>| match l {
        Some(sqlparser::ast::CharacterLength::IntegerLength { length, .. }) => Some(*length),
        _ => None,
    };
    let t = match dt {
        DataType::TinyInt(_) => int(1, false, 1),
        DataType::TinyIntUnsigned(_) => int(1, true, 1),
        DataType::SmallInt(_) => int(2, false, 2),
        DataType::SmallIntUnsigned(_) => int(2, true, 2),
        DataType::MediumInt(_) => int(3, false, 9),
        DataType::MediumIntUnsigned(_) => int(3, true, 9),
        DataType::Int(_) | DataType::Integer(_) => int(4, false, 3),
        DataType::IntUnsigned(_) | DataType::IntegerUnsigned(_) => int(4, true, 3),
        DataType::BigInt(_) => int(8, false, 8),
        DataType::BigIntUnsigned(_) => int(8, true, 8),
        DataType::Float(_) => ColumnType {
            mtype: DATA_FLOAT,
            prtype: nn | 4,
            len: 4,
        },
        DataType::FloatUnsigned(_) => ColumnType {
            mtype: DATA_FLOAT,
            prtype: nn | DATA_UNSIGNED | 4,
            len: 4,
        },
        DataType::Double(_) | DataType::DoublePrecision | DataType::Real => ColumnType {
            mtype: DATA_DOUBLE,
            prtype: nn | 5,
            len: 8,
        },
        DataType::DoubleUnsigned(_)
        | DataType::DoublePrecisionUnsigned
        | DataType::RealUnsigned => ColumnType {
            mtype: DATA_DOUBLE,
            prtype: nn | DATA_UNSIGNED | 5,
            len: 8,
        },
        // UNSIGNED does not change how a DECIMAL is stored.
        DataType::Decimal(info)
        | DataType::Numeric(info)
        | DataType::Dec(info)
        | DataType::DecimalUnsigned(info)
        | DataType::DecUnsigned(info) => {
            let (p, s) = match info {
                sqlparser::ast::ExactNumberInfo::PrecisionAndScale(p, s) => (*p as u32, *s as u32),
                sqlparser::ast::ExactNumberInfo::Precision(p) => (*p as u32, 0),
                sqlparser::ast::ExactNumberInfo::None => (10, 0),
            };
            decimal = Some((p as usize, s as usize));
            ColumnType {
                mtype: DATA_FIXBINARY,
                prtype: nn | 246,
                len: decimal_bytes(p, s),
            }
        }
        DataType::Date => int(3, false, 14),
        DataType::Time(fsp, _) => ColumnType {
            mtype: DATA_FIXBINARY,
            prtype: nn | 11,
            len: 3 + frac_bytes(*fsp),
        },
        DataType::Datetime(fsp) => ColumnType {
            mtype: DATA_FIXBINARY,
            prtype: nn | 12,
            len: 5 + frac_bytes(*fsp),
        },
        DataType::Timestamp(fsp, _) => ColumnType {
            mtype: DATA_FIXBINARY,
            prtype: nn | 7,
            len: 4 + frac_bytes(*fsp),
        },
        DataType::Custom(n, _) if n.to_string().eq_ignore_ascii_case("year") => int(1, true, 13),
        // Spatial types: the SRID and the WKB, a binary BLOB-like column.
        DataType::Custom(n, _)
            if [
                "geometry",
                "point",
                "linestring",
                "polygon",
                "multipoint",
                "multilinestring",
                "multipolygon",
                "geometrycollection",
                "geomcollection",
            ]
            .contains(&n.to_string().to_ascii_lowercase().as_str()) =>
        {
            ColumnType {
                mtype: DATA_GEOMETRY,
                prtype: nn | 255 | (63 << 16),
                len: 256,
            }
        }
        DataType::Char(l) | DataType::Character(l) => ColumnType {
            mtype: DATA_MYSQL,
            prtype: nn | 254 | (coll << 16),
            len: char_len(len_of(l)),
        },
        DataType::Varchar(l) | DataType::CharVarying(l) | DataType::CharacterVarying(l) => {
            ColumnType {
                mtype: DATA_VARMYSQL,
                prtype: nn | 15 | (coll << 16),
                len: char_len(len_of(l)),
            }
        }
        DataType::Binary(n) => ColumnType {
            mtype: DATA_FIXBINARY,
            prtype: nn | 254 | (63 << 16),
            len: n.unwrap_or(1) as u32,
        },
        DataType::Varbinary(n) => {
            let len = match n {
                Some(sqlparser::ast::BinaryLength::IntegerLength { length }) => *length as u32,
                _ => 65535,
            };
            ColumnType {
                mtype: DATA_BINARY,
                prtype: nn | 15 | (63 << 16),
                len,
            }
        }
        DataType::Text | DataType::TinyText | DataType::MediumText | DataType::LongText => {
            ColumnType {
                mtype: DATA_BLOB,
                prtype: nn | 252 | (coll << 16),
                len: 65535,
            }
        }
        DataType::Blob(_)
        | DataType::TinyBlob
        | DataType::MediumBlob
        | DataType::LongBlob
        | DataType::JSON => ColumnType {
            mtype: DATA_BLOB,
            prtype: nn | 252 | 1024 | (63 << 16),
            len: 65535,
        },
        DataType::Enum(members, _) => {
            let names: Vec<String> = members
                .iter()
                .map(|m| match m {
                    sqlparser::ast::EnumMember::Name(s)
                    | sqlparser::ast::EnumMember::NamedValue(s, _) => s.clone(),
                })
                .collect();
            let len = if names.len() > 255 { 2 } else { 1 };
            labels = Some(names);
            int(len, true, 247)
        }
        DataType::Set(members) => {
            let len = match members.len().div_ceil(8) {
                0 | 1 => 1,
                2 => 2,
                3 => 3,
                4 => 4,
                _ => 8,
            };
            labels = Some(members.clone());
            set = true;
            int(len, true, 248)
        }
        DataType::Bit(n) => ColumnType {
            mtype: DATA_FIXBINARY,
            prtype: nn | 16,
            len: (n.unwrap_or(1) as u32).div_ceil(8),
        },
        _ => return None,
    };
    Some(IndexField {
        name: name.into(),
        column_type: t,
        decimal,
        labels,
        set,
        instant: Default::default(),
    })
}

/// The schema a `CREATE TABLE` statement gives, with the index ids and
/// roots of the file (`roots`: (index id, root page), sorted by id; the SDI
/// index left out).
pub fn schema_from_ddl(sql: &str, roots: &[(u64, u32)]) -> Result<Schema, String> {
    let parsed = Parser::parse_sql(&MySqlDialect {}, sql).or_else(|first| {
        // Table options the parser does not know (PAGE_COMPRESSED=1…): parse
        // the statement up to the end of its column list.
        let end = sql.rfind(')').ok_or_else(|| first.to_string())?;
        Parser::parse_sql(&MySqlDialect {}, &sql[..=end])
            .map_err(|e| format!("{first}; without the table options: {e}"))
    })?;
    let Some(Statement::CreateTable(ct)) = parsed.into_iter().next() else {
        return Err("the statement is not a CREATE TABLE".into());
    };
    let table_cs = table_charset(sql).unwrap_or_else(|| "utf8mb4".into());
    let mut primary: Vec<String> = Vec::new();
    let mut secondary: Vec<(String, Vec<String>)> = Vec::new();
    let mut fulltext = false;
    let names = |cols: &[sqlparser::ast::IndexColumn]| -> Vec<String> {
        cols.iter()
            .map(|c| c.column.expr.to_string().trim_matches('`').to_string())
            .collect()
    };
    for k in &ct.constraints {
        match k {
            TableConstraint::PrimaryKey { columns, .. } => primary = names(columns),
            // A FULLTEXT index is no B-tree of the file; InnoDB adds a
            // hidden FTS_DOC_ID column for it (below).
            TableConstraint::FulltextOrSpatial { fulltext: true, .. } => fulltext = true,
            TableConstraint::FulltextOrSpatial {
                fulltext: false,
                opt_index_name,
                columns,
                ..
            } => {
                let cols = names(columns);
                secondary.push((
                    opt_index_name.as_ref().map_or_else(
                        || cols.first().cloned().unwrap_or_default(),
                        |n| n.value.clone(),
                    ),
                    cols,
                ));
            }
            TableConstraint::Unique { name, columns, .. }
            | TableConstraint::Index { name, columns, .. } => {
                let cols = names(columns);
                secondary.push((
                    name.as_ref().map_or_else(
                        || cols.first().cloned().unwrap_or_default(),
                        |n| n.value.clone(),
                    ),
                    cols,
                ));
            }
            _ => {}
        }
    }
    let mut columns = Vec::new();
    for c in &ct.columns {
        let name = c.name.value.clone();
        let mut not_null = false;
        let mut charset = None;
        for o in &c.options {
            match &o.option {
                ColumnOption::NotNull => not_null = true,
                ColumnOption::Unique {
                    is_primary: true, ..
                } => {
                    not_null = true;
                    primary = vec![name.clone()];
                }
                ColumnOption::CharacterSet(cs) => charset = Some(cs.to_string()),
                _ => {}
            }
        }
        if primary.contains(&name) {
            not_null = true;
        }
        let field = column_field(&name, &c.data_type, not_null, charset.as_deref(), &table_cs)
            .ok_or_else(|| format!("column {name}: type {} is not supported", c.data_type))?;
        columns.push(field);
    }
    if fulltext
        && !columns
            .iter()
            .any(|c| c.name.eq_ignore_ascii_case("FTS_DOC_ID"))
    {
        // The hidden column InnoDB adds to a table with a FULLTEXT index:
        // BIGINT UNSIGNED NOT NULL, after the declared columns.
        columns.push(IndexField {
            name: "FTS_DOC_ID".into(),
            column_type: ColumnType {
                mtype: DATA_INT,
                prtype: DATA_NOT_NULL | DATA_UNSIGNED | 8,
                len: 8,
            },
            decimal: None,
            labels: None,
            set: false,
            instant: Default::default(),
        });
    }
    // Key columns are NOT NULL once the primary key is known.
    for f in columns.iter_mut().filter(|f| primary.contains(&f.name)) {
        f.column_type.prtype |= DATA_NOT_NULL;
    }
    let col = |n: &str| {
        columns
            .iter()
            .find(|c| c.name == n)
            .cloned()
            .ok_or_else(|| format!("key column {n} is not a column"))
    };
    let sys = |n: &str, len: u32| IndexField {
        name: n.into(),
        column_type: ColumnType {
            mtype: DATA_SYS,
            prtype: DATA_NOT_NULL,
            len,
        },
        decimal: None,
        labels: None,
        instant: Default::default(),
        set: false,
    };
    let mut clustered = Vec::new();
    if primary.is_empty() {
        clustered.push(sys("DB_ROW_ID", 6));
    } else {
        for p in &primary {
            clustered.push(col(p)?);
        }
    }
    clustered.push(sys("DB_TRX_ID", 6));
    clustered.push(sys("DB_ROLL_PTR", 7));
    clustered.extend(
        columns
            .iter()
            .filter(|c| !primary.contains(&c.name))
            .cloned(),
    );
    let mut roots = roots.iter().filter(|(id, _)| *id != u64::MAX);
    let &(id, root) = roots.next().ok_or("the file has no index root")?;
    let mut indexes = vec![SchemaIndex {
        id,
        name: if primary.is_empty() {
            "GEN_CLUST_INDEX".into()
        } else {
            "PRIMARY".into()
        },
        root_page: root,
        clustered: true,
        fields: clustered,
    }];
    for (name, cols) in secondary {
        let Some(&(id, root)) = roots.next() else {
            break;
        };
        let mut fields = Vec::new();
        for c in &cols {
            fields.push(col(c)?);
        }
        if primary.is_empty() {
            fields.push(sys("DB_ROW_ID", 6));
        } else {
            for p in primary.iter().filter(|p| !cols.contains(p)) {
                fields.push(col(p)?);
            }
        }
        indexes.push(SchemaIndex {
            id,
            name,
            root_page: root,
            clustered: false,
            fields,
        });
    }
    let name = ct.name.to_string().trim_matches('`').to_string();
    Ok(Schema {
        table: name,
        indexes,
        columns,
    })
}

/// The same schema with TIME, DATETIME and TIMESTAMP columns without
/// fractional seconds in the storage format of MySQL before 5.6.4 (integers
/// of 3, 8 and 4 bytes) instead of the newer one, which a `CREATE TABLE`
/// statement cannot tell apart; `None` when the schema has no such column.
pub fn with_old_temporal(schema: &Schema) -> Option<Schema> {
    let mut out = schema.clone();
    let mut changed = false;
    for f in out.indexes.iter_mut().flat_map(|i| i.fields.iter_mut()) {
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

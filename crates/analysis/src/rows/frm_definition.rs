//! A table's definition from its `.frm`: columns with their SQL types as
//! `SHOW CREATE TABLE` prints them, character sets, nullability, defaults
//! and generated expressions; keys with their prefixes; table options.

use crate::rows::frm_schema::label_text;
use crate::rows::table_definition::{
    ColumnDefinition, DefinitionSource, KeyDefinition, KeyKind, KeyPart, TableDefinition,
};
use innodb_format::frm::column::{field_type as ft, pack_flag, unireg, ColumnRecord};
use innodb_format::frm::keys::{FrmKey, HA_FULLTEXT, HA_REVERSE_SORT, HA_SPATIAL};
use innodb_format::frm::record::RecordDefault;
use innodb_format::frm::vcol::ExpressionKind;
use innodb_format::frm::{Frm, FrmColumn};
use innodb_format::value::charset;
use innodb_format::value::column_value::{self, ColumnType, DATA_FIXBINARY};
use innodb_format::value::decimal::decode_decimal;

/// The definition of table `name` (of `database`, when known) that `frm`
/// holds.
pub fn definition(frm: &Frm, database: Option<&str>, name: &str) -> TableDefinition {
    let mariadb = frm.header.is_mariadb();
    TableDefinition {
        source: DefinitionSource::Frm,
        database: database.map(str::to_string),
        name: name.to_string(),
        columns: frm.columns.iter().map(|c| column(c, mariadb)).collect(),
        keys: frm.keys.iter().map(|k| key(frm, k)).collect(),
        options: options(frm),
    }
}

/// One column.
fn column(c: &FrmColumn, mariadb: bool) -> ColumnDefinition {
    let r = &c.record;
    let textual = is_textual(r);
    let generated = c.expression.as_ref().and_then(|e| match e.kind {
        ExpressionKind::Virtual => Some((e.text.clone(), false)),
        ExpressionKind::Stored => Some((e.text.clone(), true)),
        _ => None,
    });
    ColumnDefinition {
        name: c.name.clone(),
        sql_type: sql_type(c),
        nullable: r.nullable(),
        default: if generated.is_some() {
            None
        } else {
            default(c, mariadb)
        },
        charset: textual
            .then(|| charset::charset_name(r.charset).map(str::to_string))
            .flatten(),
        collation: textual
            .then(|| charset::collation_name(r.charset).map(str::to_string))
            .flatten(),
        generated,
        auto_increment: r.unireg_check == unireg::NEXT_NUMBER,
        comment: (!c.comment.is_empty()).then(|| String::from_utf8_lossy(&c.comment).into_owned()),
    }
}

/// A character column (CHAR, VARCHAR, TEXT, ENUM, SET) of a character set
/// other than binary.
fn is_textual(r: &ColumnRecord) -> bool {
    r.charset != 63
        && matches!(
            r.field_type,
            ft::STRING
                | ft::VARCHAR
                | ft::VAR_STRING
                | ft::ENUM
                | ft::SET
                | ft::TINY_BLOB
                | ft::BLOB
                | ft::MEDIUM_BLOB
                | ft::LONG_BLOB
        )
}

/// The SQL type as `SHOW CREATE TABLE` prints it: `int(10) unsigned`,
/// `decimal(20,6)`, `varchar(100)`, `enum('a','b')`, `datetime(6)`.
pub fn sql_type(c: &FrmColumn) -> String {
    let r = &c.record;
    let len = r.length;
    let binary = r.charset == 63;
    let chars = len / charset::mbmaxlen(r.charset).max(1) as u16;
    let int = |name: &str| {
        let mut s = format!("{name}({len})");
        if r.unsigned() {
            s.push_str(" unsigned");
        }
        if r.zerofill() {
            s.push_str(" zerofill");
        }
        s
    };
    let float = |name: &str| match r.decimals() {
        pack_flag::NOT_FIXED_DEC => int(name).replacen(&format!("({len})"), "", 1),
        d => int(name).replacen(&format!("({len})"), &format!("({len},{d})"), 1),
    };
    let fsp = |name: &str| match r.fsp() {
        Some(0) | None => name.to_string(),
        Some(n) => format!("{name}({n})"),
    };
    let labels = |name: &str| {
        let quoted: Vec<String> = c
            .labels
            .iter()
            .map(|l| quote(&label_text(l, r.charset)))
            .collect();
        format!("{name}({})", quoted.join(","))
    };
    match r.field_type {
        ft::TINY => int("tinyint"),
        ft::SHORT => int("smallint"),
        ft::INT24 => int("mediumint"),
        ft::LONG => int("int"),
        ft::LONGLONG => int("bigint"),
        ft::FLOAT => float("float"),
        ft::DOUBLE => float("double"),
        ft::NEWDECIMAL => {
            let (p, s) = r.decimal().unwrap_or((10, 0));
            let mut t = format!("decimal({p},{s})");
            if r.unsigned() {
                t.push_str(" unsigned");
            }
            if r.zerofill() {
                t.push_str(" zerofill");
            }
            t
        }
        ft::DATE | ft::NEWDATE => "date".into(),
        ft::TIME | ft::TIME2 => fsp("time"),
        ft::DATETIME | ft::DATETIME2 => fsp("datetime"),
        ft::TIMESTAMP | ft::TIMESTAMP2 => fsp("timestamp"),
        ft::YEAR => format!("year({len})"),
        ft::ENUM => labels("enum"),
        ft::SET => labels("set"),
        ft::STRING if r.interval_nr > 0 => labels("enum"),
        ft::VARCHAR | ft::VAR_STRING if binary => format!("varbinary({len})"),
        ft::VARCHAR | ft::VAR_STRING => format!("varchar({chars})"),
        ft::STRING if binary => format!("binary({len})"),
        ft::STRING => format!("char({chars})"),
        ft::BIT => format!("bit({len})"),
        ft::TINY_BLOB => if binary { "tinyblob" } else { "tinytext" }.into(),
        ft::BLOB => if binary { "blob" } else { "text" }.into(),
        ft::MEDIUM_BLOB => if binary { "mediumblob" } else { "mediumtext" }.into(),
        ft::LONG_BLOB => if binary { "longblob" } else { "longtext" }.into(),
        ft::JSON => "json".into(),
        ft::GEOMETRY => [
            "geometry",
            "point",
            "linestring",
            "polygon",
            "multipoint",
            "multilinestring",
            "multipolygon",
            "geometrycollection",
        ]
        .get(usize::from(r.geometry_type))
        .unwrap_or(&"geometry")
        .to_string(),
        other => format!("(MySQL type {other})"),
    }
}

/// `s` as an SQL string literal, as `SHOW CREATE TABLE` quotes it.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "''"))
}

/// The column's default as an SQL expression (`NULL`, `0`, `'abc'`,
/// `current_timestamp()`); MariaDB prints numbers bare, MySQL 5.x quotes
/// them.
fn default(c: &FrmColumn, mariadb: bool) -> Option<String> {
    if let Some(e) = &c.expression {
        return (e.kind == ExpressionKind::Default).then(|| e.text.clone());
    }
    let r = &c.record;
    // SHOW CREATE TABLE gives an AUTO_INCREMENT column no default.
    if r.unireg_check == unireg::NEXT_NUMBER {
        return None;
    }
    // MariaDB prints a BLOB's or TEXT's NULL default; MySQL 5.x none.
    if matches!(
        r.field_type,
        ft::TINY_BLOB | ft::BLOB | ft::MEDIUM_BLOB | ft::LONG_BLOB
    ) {
        return (mariadb && r.nullable()).then(|| "NULL".into());
    }
    if matches!(
        r.unireg_check,
        unireg::TIMESTAMP_DN_FIELD | unireg::TIMESTAMP_DNUN_FIELD
    ) {
        return Some(
            if mariadb {
                "current_timestamp()"
            } else {
                "CURRENT_TIMESTAMP"
            }
            .into(),
        );
    }
    match c.default.as_ref()? {
        RecordDefault::Null => Some("NULL".into()),
        RecordDefault::Bytes(b) => {
            let (text, number) = default_text(c, b)?;
            Some(if number && mariadb {
                text
            } else {
                quote(&text)
            })
        }
    }
}

/// The default's text, and whether it is a number, from the field's bytes
/// in the server's record format.
fn default_text(c: &FrmColumn, b: &[u8]) -> Option<(String, bool)> {
    let r = &c.record;
    let le = |b: &[u8]| b.iter().rev().fold(0u64, |a, &x| (a << 8) | u64::from(x));
    let signed = |v: u64, bytes: usize| {
        let shift = 64 - 8 * bytes as u32;
        (((v << shift) as i64) >> shift).to_string()
    };
    Some(match r.field_type {
        ft::TINY | ft::SHORT | ft::INT24 | ft::LONG | ft::LONGLONG => {
            let v = le(b);
            (
                if r.unsigned() {
                    v.to_string()
                } else {
                    signed(v, b.len())
                },
                true,
            )
        }
        ft::FLOAT => (f32::from_le_bytes(b.try_into().ok()?).to_string(), true),
        ft::DOUBLE => (f64::from_le_bytes(b.try_into().ok()?).to_string(), true),
        ft::NEWDECIMAL => {
            let (p, s) = r.decimal()?;
            (decode_decimal(b, p as usize, s as usize)?, true)
        }
        ft::NEWDATE => {
            let v = le(b);
            (
                format!("{:04}-{:02}-{:02}", v >> 9, (v >> 5) & 15, v & 31),
                false,
            )
        }
        ft::YEAR => (
            format!(
                "{:04}",
                if b.first() == Some(&0) {
                    0
                } else {
                    1900 + le(b)
                }
            ),
            true,
        ),
        ft::TIME2 | ft::DATETIME2 | ft::TIMESTAMP2 => {
            let mysql = match r.field_type {
                ft::TIME2 => 11,
                ft::DATETIME2 => 12,
                _ => 7,
            };
            let t = ColumnType {
                mtype: DATA_FIXBINARY,
                prtype: mysql,
                len: b.len() as u32,
            };
            match column_value::decode_with_digits(&t, b, r.fsp().map(u32::from)) {
                column_value::Value::Text(s) => (s, false),
                _ => return None,
            }
        }
        ft::STRING if r.interval_nr == 0 => {
            let s = charset::decode(b, r.charset)?;
            (s.trim_end_matches(' ').to_string(), false)
        }
        ft::VARCHAR | ft::VAR_STRING => {
            let n = if r.length < 256 { 1 } else { 2 };
            let len = le(b.get(..n)?) as usize;
            (charset::decode(b.get(n..n + len)?, r.charset)?, false)
        }
        ft::ENUM | ft::STRING => {
            let i = le(b) as usize;
            let label = match i.checked_sub(1) {
                Some(i) => label_text(c.labels.get(i)?, r.charset),
                None => String::new(),
            };
            (label, false)
        }
        ft::SET => {
            let bits = le(b);
            let on: Vec<String> = c
                .labels
                .iter()
                .enumerate()
                .filter(|(i, _)| *i < 64 && bits >> i & 1 == 1)
                .map(|(_, l)| label_text(l, r.charset))
                .collect();
            (on.join(","), false)
        }
        _ => return None,
    })
}

/// One key.
fn key(frm: &Frm, k: &FrmKey) -> KeyDefinition {
    let kind = if k.name == "PRIMARY" {
        KeyKind::Primary
    } else if k.flags & HA_FULLTEXT != 0 {
        KeyKind::Fulltext
    } else if k.flags & HA_SPATIAL != 0 {
        KeyKind::Spatial
    } else if k.unique() {
        KeyKind::Unique
    } else {
        KeyKind::Plain
    };
    let parts = k
        .parts
        .iter()
        .map(|p| {
            let c = frm.columns.get(usize::from(p.fieldnr).saturating_sub(1));
            KeyPart {
                column: c.map_or_else(|| format!("#{}", p.fieldnr), |c| c.name.clone()),
                prefix: c.and_then(|c| prefix_chars(&c.record, p.length)),
                descending: p.flags & HA_REVERSE_SORT != 0,
            }
        })
        .collect();
    KeyDefinition {
        kind,
        name: k.name.clone(),
        parts,
    }
}

/// The prefix a key part of `length` bytes takes of column `r`, in
/// characters, when it is one (BLOB and TEXT parts always are).
fn prefix_chars(r: &ColumnRecord, length: u16) -> Option<u32> {
    let full = match r.field_type {
        ft::STRING | ft::VARCHAR | ft::VAR_STRING if r.interval_nr == 0 => r.length,
        ft::TINY_BLOB | ft::BLOB | ft::MEDIUM_BLOB | ft::LONG_BLOB => 0,
        _ => return None,
    };
    (length != full).then(|| u32::from(length) / charset::mbmaxlen(r.charset).max(1))
}

/// The table options as `SHOW CREATE TABLE` prints them after the engine.
fn options(frm: &Frm) -> Vec<String> {
    let h = &frm.header;
    let mut out = Vec::new();
    if let Some(cs) = charset::charset_name(h.table_charset) {
        out.push(format!("DEFAULT CHARSET={cs}"));
        if let Some(coll) = charset::collation_name(h.table_charset) {
            if h.is_mariadb() || charset::default_collation(cs) != Some(h.table_charset) {
                out.push(format!("COLLATE={coll}"));
            }
        }
    }
    let row_format = match h.row_type {
        1 => Some("FIXED"),
        2 => Some("DYNAMIC"),
        3 => Some("COMPRESSED"),
        4 => Some("REDUNDANT"),
        5 => Some("COMPACT"),
        6 => Some("PAGE"),
        _ => None,
    };
    if let Some(f) = row_format {
        out.push(format!("ROW_FORMAT={f}"));
    }
    if h.key_block_size > 0 {
        out.push(format!("KEY_BLOCK_SIZE={}", h.key_block_size));
    }
    for (name, value) in &frm.engine_options {
        out.push(format!("`{name}`={}", quote(value)));
    }
    let comment = frm.comment();
    if !comment.is_empty() {
        out.push(format!(
            "COMMENT={}",
            quote(&String::from_utf8_lossy(comment))
        ));
    }
    out
}

//! A [`TableDefinition`] from the SYS_* dictionary of a system tablespace
//! (MariaDB, MySQL 5.x): the types as InnoDB keeps them, made into SQL
//! types a server loads the rows into.
//!
//! What SYS_COLUMNS does not say is not guessed, and said in the column's
//! comment: a DECIMAL has no precision or scale (it becomes `binary(N)` of
//! its stored bytes, which the rows are written as); an ENUM or SET has no
//! labels (it becomes the unsigned integer it is stored as); a TIME,
//! DATETIME or TIMESTAMP keeps its fractional digits rounded up to even
//! (two per stored byte); character lengths are the byte lengths divided
//! by the character set's bytes per character; key prefixes, defaults and
//! the table's default character set are not kept (each character column
//! names its own).

use crate::rows::collation_names::collation;
use crate::rows::table_definition::{
    ColumnDefinition, DefinitionSource, KeyDefinition, KeyKind, KeyPart, TableDefinition,
};
use innodb_format::value::column_value::{
    DATA_BINARY, DATA_BLOB, DATA_FIXBINARY, DATA_GEOMETRY, DATA_INT, DATA_NOT_NULL, DATA_SYS,
    DATA_UNSIGNED,
};
use innodb_space::dictionary::{DictColumn, DictTable};

/// `DATA_BINARY_TYPE`: a binary string (no collation).
const DATA_BINARY_TYPE: u32 = 1024;

/// The SQL type of a SYS_COLUMNS column, and a comment when the type says
/// less than the server's (the column's type is then what the stored
/// bytes load back into).
fn sql_type(c: &DictColumn) -> (String, Option<String>) {
    let mysql = c.prtype & 0xFF;
    let unsigned = if c.prtype & DATA_UNSIGNED != 0 {
        " unsigned"
    } else {
        ""
    };
    let binary = is_binary(c);
    let mb = char_bytes(c);
    let fsp = |base: u32| c.len.saturating_sub(base) * 2;
    let temporal = |name: &str, base: u32| match fsp(base) {
        0 => name.to_string(),
        n => format!("{name}({n})"),
    };
    let lost = |what: &str| Some(format!("{what} (not in SYS_COLUMNS)"));
    let t = match (c.mtype, mysql) {
        (DATA_INT, 254) => {
            let ty = unsigned_int(c.len);
            return (
                ty,
                lost(&format!(
                    "ENUM or SET stored as a {}-byte number: labels lost",
                    c.len
                )),
            );
        }
        (DATA_INT, 1) => format!("tinyint{unsigned}"),
        (DATA_INT, 2) => format!("smallint{unsigned}"),
        (DATA_INT, 9) => format!("mediumint{unsigned}"),
        (DATA_INT, 3) => format!("int{unsigned}"),
        (DATA_INT, 8) => format!("bigint{unsigned}"),
        (DATA_INT, 13) => "year".into(),
        (DATA_INT, 10 | 14) => "date".into(),
        (DATA_INT, 12) => "datetime".into(),
        (DATA_INT, 7) => "timestamp".into(),
        (DATA_INT, 11) => "time".into(),
        (_, 4) => "float".into(),
        (_, 5) => "double".into(),
        (_, 246) => {
            return (
                format!("binary({})", c.len),
                lost(&format!(
                    "DECIMAL of {} bytes: precision and scale lost, the stored bytes kept",
                    c.len
                )),
            )
        }
        (DATA_FIXBINARY, 12 | 18) => temporal("datetime", 5),
        (DATA_FIXBINARY, 7 | 17) => temporal("timestamp", 4),
        (DATA_FIXBINARY, 11 | 19) => temporal("time", 3),
        (DATA_FIXBINARY, 16) => format!("bit({})", (c.len * 8).clamp(1, 64)),
        (DATA_GEOMETRY, _) => "geometry".into(),
        (DATA_BLOB, 245) => "json".into(),
        (DATA_BLOB, _) => blob_type(c.len, binary),
        (_, 15) if binary => format!("varbinary({})", c.len),
        (_, 15) => format!("varchar({})", c.len / mb),
        (_, 254) if binary => format!("binary({})", c.len),
        (_, 254) => format!("char({})", c.len / mb),
        _ if binary => format!("varbinary({})", c.len.max(1)),
        _ => {
            return (
                format!("varbinary({})", c.len.max(1)),
                lost(&format!(
                    "InnoDB type mtype {} prtype {:#x}: not known, the stored bytes kept",
                    c.mtype, c.prtype
                )),
            )
        }
    };
    (t, None)
}

/// An unsigned integer type of `len` bytes.
fn unsigned_int(len: u32) -> String {
    match len {
        1 => "tinyint unsigned",
        2 => "smallint unsigned",
        3 => "mediumint unsigned",
        4 => "int unsigned",
        _ => "bigint unsigned",
    }
    .into()
}

/// TINY/-/MEDIUM/LONG BLOB or TEXT by the length InnoDB keeps for it (the
/// bytes of its length: 9 to 12).
fn blob_type(len: u32, binary: bool) -> String {
    let size = match len {
        9 => "tiny",
        10 => "",
        11 => "medium",
        _ => "long",
    };
    format!("{size}{}", if binary { "blob" } else { "text" })
}

/// True for a binary string column (no character set).
fn is_binary(c: &DictColumn) -> bool {
    c.prtype & DATA_BINARY_TYPE != 0
        || c.mtype == DATA_BINARY
        || c.mtype == DATA_FIXBINARY
        || (c.prtype >> 16) & 0xFF == 63
}

/// Bytes per character of a character column (1 when not known).
fn char_bytes(c: &DictColumn) -> u32 {
    collation((c.prtype >> 16) & 0xFF).map_or(1, |c| c.mbmaxlen.max(1))
}

/// True for a column whose type takes a character set.
fn is_character(c: &DictColumn) -> bool {
    let mysql = c.prtype & 0xFF;
    !is_binary(c)
        && matches!(mysql, 15 | 254 | 252)
        && c.mtype != DATA_INT
        && c.mtype != DATA_GEOMETRY
}

/// The column `c` as `CREATE TABLE` declares it, as far as SYS_COLUMNS
/// tells.
fn column(c: &DictColumn) -> ColumnDefinition {
    let (sql_type, comment) = sql_type(c);
    let coll = is_character(c)
        .then(|| collation((c.prtype >> 16) & 0xFF))
        .flatten();
    ColumnDefinition {
        name: c.name.clone(),
        sql_type,
        nullable: c.prtype & DATA_NOT_NULL == 0,
        default: None,
        charset: coll.map(|c| c.charset.to_string()),
        collation: coll.map(|c| c.name.to_string()),
        generated: None,
        auto_increment: false,
        comment,
    }
}

/// `SYS_INDEXES.TYPE` flags.
const DICT_CLUSTERED: u32 = 1;
const DICT_UNIQUE: u32 = 2;
const DICT_FTS: u32 = 32;
const DICT_SPATIAL: u32 = 64;

/// The table's keys: the clustered index (`PRIMARY`, or the UNIQUE key
/// the server chose, none for `GEN_CLUST_INDEX`), then the others by id.
fn keys(table: &DictTable, has_fulltext: bool) -> Vec<KeyDefinition> {
    let mut out = Vec::new();
    for i in &table.indexes {
        if i.name == "GEN_CLUST_INDEX" || (has_fulltext && i.name == "FTS_DOC_ID_INDEX") {
            continue;
        }
        let kind = if i.index_type & DICT_FTS != 0 {
            KeyKind::Fulltext
        } else if i.index_type & DICT_SPATIAL != 0 {
            KeyKind::Spatial
        } else if i.index_type & DICT_CLUSTERED != 0 && i.name == "PRIMARY" {
            KeyKind::Primary
        } else if i.index_type & (DICT_UNIQUE | DICT_CLUSTERED) != 0 {
            KeyKind::Unique
        } else {
            KeyKind::Plain
        };
        let key = KeyDefinition {
            kind,
            name: i.name.clone(),
            parts: i
                .fields
                .iter()
                .map(|f| KeyPart {
                    column: f.clone(),
                    prefix: None,
                    descending: false,
                })
                .collect(),
        };
        if i.index_type & DICT_CLUSTERED != 0 {
            out.insert(0, key);
        } else {
            out.push(key);
        }
    }
    out
}

/// `DICT_TF` bits: COMPACT, the compressed page size, DYNAMIC, MariaDB's
/// PAGE_COMPRESSED and its level.
fn options(flags: u32) -> Vec<String> {
    let zip_ssize = (flags >> 1) & 0xF;
    let mut out = vec![if flags & 1 == 0 {
        "ROW_FORMAT=REDUNDANT".to_string()
    } else if zip_ssize != 0 {
        "ROW_FORMAT=COMPRESSED".to_string()
    } else if flags & (1 << 5) != 0 {
        "ROW_FORMAT=DYNAMIC".to_string()
    } else {
        "ROW_FORMAT=COMPACT".to_string()
    }];
    if zip_ssize != 0 {
        out.push(format!("KEY_BLOCK_SIZE={}", (512u32 << zip_ssize) / 1024));
    }
    if flags & (1 << 7) != 0 {
        out.push("PAGE_COMPRESSED=1".into());
        let level = (flags >> 8) & 0xF;
        if level != 0 {
            out.push(format!("PAGE_COMPRESSION_LEVEL={level}"));
        }
    }
    out
}

/// The table `table` of the SYS_* dictionary as `CREATE TABLE` would
/// declare it, as far as InnoDB's dictionary tells (see the module's
/// comment for what is lost).
pub fn from_sys_tables(table: &DictTable) -> TableDefinition {
    let has_fulltext = table.indexes.iter().any(|i| i.index_type & DICT_FTS != 0);
    let mut columns: Vec<&DictColumn> = table
        .columns
        .iter()
        .filter(|c| c.mtype != DATA_SYS)
        .filter(|c| !(has_fulltext && c.name == "FTS_DOC_ID"))
        .collect();
    columns.sort_by_key(|c| c.pos);
    let (database, name) = match table.name.split_once('/') {
        Some((d, t)) => (Some(d.to_string()), t.to_string()),
        None => (None, table.name.clone()),
    };
    TableDefinition {
        source: DefinitionSource::SysTables,
        database,
        name,
        columns: columns.into_iter().map(column).collect(),
        keys: keys(table, has_fulltext),
        options: options(table.flags),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(name: &str, mtype: u32, prtype: u32, len: u32) -> DictColumn {
        DictColumn {
            pos: 0,
            name: name.into(),
            mtype,
            prtype,
            len,
            prec: 0,
        }
    }

    #[test]
    fn types_as_innodb_keeps_them() {
        // varchar(64) in latin1 (collation 8), nullable.
        let c = column(&col("b", 12, (8 << 16) | 15, 64));
        assert_eq!(
            (c.sql_type.as_str(), c.charset.as_deref(), c.nullable),
            ("varchar(64)", Some("latin1"), true)
        );
        // char(10) in utf8mb4: 40 bytes.
        assert_eq!(
            column(&col("c", 13, (45 << 16) | 254, 40)).sql_type,
            "char(10)"
        );
        // int unsigned NOT NULL.
        let c = column(&col("i", 6, DATA_NOT_NULL | DATA_UNSIGNED | 3, 4));
        assert_eq!((c.sql_type.as_str(), c.nullable), ("int unsigned", false));
        // DECIMAL without its scale: its bytes.
        let c = column(&col("d", 3, 246, 10));
        assert_eq!(c.sql_type, "binary(10)");
        assert!(c.comment.is_some_and(|m| m.contains("DECIMAL")));
        // datetime(6): 5 + 3 bytes.
        assert_eq!(column(&col("t", 3, 12, 8)).sql_type, "datetime(6)");
        // LONGBLOB (binary flag) and TEXT.
        assert_eq!(column(&col("b", 5, 1024 | 252, 12)).sql_type, "longblob");
        assert_eq!(column(&col("t", 5, (8 << 16) | 252, 10)).sql_type, "text");
    }

    #[test]
    fn table_flags_as_options() {
        assert_eq!(options(0), ["ROW_FORMAT=REDUNDANT"]);
        assert_eq!(options(0x21), ["ROW_FORMAT=DYNAMIC"]);
        // zip_ssize n is a page of 512 << n bytes (dict0mem.h): 3 is 4 KiB,
        // 4 is 8 KiB.
        assert_eq!(
            options(1 | (3 << 1) | 0x20),
            ["ROW_FORMAT=COMPRESSED", "KEY_BLOCK_SIZE=4"]
        );
        assert_eq!(
            options(1 | (4 << 1) | 0x20),
            ["ROW_FORMAT=COMPRESSED", "KEY_BLOCK_SIZE=8"]
        );
        assert_eq!(
            options(0x21 | 0x80),
            ["ROW_FORMAT=DYNAMIC", "PAGE_COMPRESSED=1"]
        );
    }
}

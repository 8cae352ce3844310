//! A [`TableDefinition`] from MySQL 8.0+'s dictionary objects (a file's SDI,
//! `mysql.ibd`): the types as the server prints them (`column_type_utf8`),
//! collations by id, defaults, generated columns, keys with their prefixes,
//! and the table's row format and options.

use crate::rows::collation_names::collation;
use crate::rows::table_definition::{
    ColumnDefinition, DefinitionSource, KeyDefinition, KeyKind, KeyPart, TableDefinition,
};
use innodb_space::dictionary::dd::{private_value, DdColumn, DdIndex, DdTable};

/// `dd::Column::enum_hidden_type`: visible, and hidden by the user
/// (`INVISIBLE`), which `CREATE TABLE` declares.
pub(crate) const HT_VISIBLE: u64 = 1;
pub(crate) const HT_HIDDEN_USER: u64 = 4;

/// True for a dictionary column type that takes a character set:
/// VARCHAR, CHAR, the BLOB/TEXT types, ENUM and SET
/// (`dd::enum_column_types`).
fn takes_charset(c: &DdColumn) -> bool {
    matches!(c.column_type, 16 | 22..=29) && c.collation_id != 63
}

/// The default as `CREATE TABLE` writes it.
fn default_of(c: &DdColumn) -> Option<String> {
    if !c.default_option.is_empty() {
        return Some(c.default_option.clone());
    }
    if c.has_no_default || !c.generation_expression_utf8.is_empty() {
        return None;
    }
    if c.default_value_null {
        return c.is_nullable.then(|| "NULL".into());
    }
    // BIT defaults are kept as their bytes; written as b'…' by the server.
    if c.column_type == 17 {
        return None;
    }
    Some(format!(
        "'{}'",
        c.default_value_utf8
            .replace('\\', "\\\\")
            .replace('\'', "''")
    ))
}

/// The column `c` as `CREATE TABLE` declares it.
fn column(c: &DdColumn) -> ColumnDefinition {
    let coll = takes_charset(c)
        .then(|| collation(c.collation_id as u32))
        .flatten();
    ColumnDefinition {
        name: c.name.clone(),
        sql_type: c.column_type_utf8.clone(),
        nullable: c.is_nullable,
        default: default_of(c),
        charset: coll.map(|c| c.charset.to_string()),
        collation: coll.map(|c| c.name.to_string()),
        generated: (!c.generation_expression_utf8.is_empty())
            .then(|| (c.generation_expression_utf8.clone(), !c.is_virtual)),
        auto_increment: c.is_auto_increment,
        comment: (!c.comment.is_empty()).then(|| c.comment.clone()),
    }
}

/// The index `i` as a key, or `None` for one the server made itself.
fn key(table: &DdTable, i: &DdIndex) -> Option<KeyDefinition> {
    if i.hidden {
        return None;
    }
    let kind = match i.index_type {
        1 => KeyKind::Primary,
        2 => KeyKind::Unique,
        4 => KeyKind::Fulltext,
        5 => KeyKind::Spatial,
        _ => KeyKind::Plain,
    };
    let parts = i
        .elements
        .iter()
        .filter(|e| !e.hidden)
        .filter_map(|e| {
            let c = table.columns.get(e.column_opx)?;
            let mb = collation(c.collation_id as u32).map_or(1, |c| u64::from(c.mbmaxlen.max(1)));
            // A prefix: fewer bytes than the whole string column (BLOB
            // and TEXT keys are always prefixes; other types never are).
            let whole = e.length == u64::from(u32::MAX)
                || !matches!(c.column_type, 16 | 24..=29)
                || (e.length >= c.char_length && !matches!(c.column_type, 24..=27));
            Some(KeyPart {
                column: c.name.clone(),
                prefix: (!whole && kind != KeyKind::Spatial && kind != KeyKind::Fulltext)
                    .then(|| u32::try_from(e.length / mb).unwrap_or(u32::MAX)),
                descending: e.order == 3,
            })
        })
        .collect();
    Some(KeyDefinition {
        kind,
        name: i.name.clone(),
        parts,
    })
}

/// The table's options: default character set and collation, row format,
/// KEY_BLOCK_SIZE, COMPRESSION, comment.
fn options(table: &DdTable) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(c) = collation(table.collation_id as u32) {
        out.push(format!("DEFAULT CHARSET={}", c.charset));
        out.push(format!("COLLATE={}", c.name));
    }
    let explicit_row_format = private_value(&table.options, "row_type").is_some();
    let row_format = match table.row_format {
        1 => Some("FIXED"),
        2 => Some("DYNAMIC"),
        3 => Some("COMPRESSED"),
        4 => Some("REDUNDANT"),
        5 => Some("COMPACT"),
        _ => None,
    };
    if let Some(f) = row_format.filter(|f| explicit_row_format || *f != "DYNAMIC") {
        out.push(format!("ROW_FORMAT={f}"));
    }
    if let Some(k) = private_value(&table.options, "key_block_size").filter(|k| *k != "0") {
        out.push(format!("KEY_BLOCK_SIZE={k}"));
    }
    if let Some(c) = private_value(&table.options, "compress").filter(|c| !c.is_empty()) {
        out.push(format!("COMPRESSION='{c}'"));
    }
    if !table.comment.is_empty() {
        out.push(format!("COMMENT='{}'", table.comment.replace('\'', "''")));
    }
    out
}

/// The dictionary table `table` as `CREATE TABLE` declares it.
pub fn from_dd(table: &DdTable) -> TableDefinition {
    TableDefinition {
        source: DefinitionSource::Sdi,
        database: (!table.schema_ref.is_empty()).then(|| table.schema_ref.clone()),
        name: table.name.clone(),
        columns: table
            .columns
            .iter()
            .filter(|c| matches!(c.hidden, HT_VISIBLE | HT_HIDDEN_USER))
            .map(column)
            .collect(),
        keys: table.indexes.iter().filter_map(|i| key(table, i)).collect(),
        options: options(table),
    }
}

//! A [`TableDefinition`] from a `CREATE TABLE` statement (`--ddl`): the
//! statement's own column types, character sets, defaults, generated
//! columns and keys, so that what is written back is what was given.

use crate::rows::collation_names::by_name;
use crate::rows::ddl::{option_value, parse_create_table, unquoted};
use crate::rows::table_definition::{
    ColumnDefinition, DefinitionSource, KeyDefinition, KeyKind, KeyPart, TableDefinition,
};
use sqlparser::ast::{
    ColumnDef, ColumnOption, CreateTable, GeneratedExpressionMode, IndexColumn, TableConstraint,
};
use sqlparser::tokenizer::Token;

/// The column `c` as the statement declares it; `primary` is set when it
/// is declared PRIMARY KEY, `unique` when UNIQUE.
fn column(c: &ColumnDef, keys: &mut Vec<KeyDefinition>) -> ColumnDefinition {
    let name = c.name.value.clone();
    let mut def = ColumnDefinition {
        name: name.clone(),
        sql_type: c.data_type.to_string(),
        nullable: true,
        default: None,
        charset: None,
        collation: None,
        generated: None,
        auto_increment: false,
        comment: None,
    };
    let part = || KeyPart {
        column: name.clone(),
        prefix: None,
        descending: false,
    };
    for o in &c.options {
        match &o.option {
            ColumnOption::NotNull => def.nullable = false,
            ColumnOption::Null => def.nullable = true,
            ColumnOption::Default(e) => def.default = Some(e.to_string()),
            ColumnOption::Unique { is_primary, .. } => {
                let (kind, key_name) = if *is_primary {
                    def.nullable = false;
                    (KeyKind::Primary, "PRIMARY".to_string())
                } else {
                    (KeyKind::Unique, name.clone())
                };
                keys.push(KeyDefinition {
                    kind,
                    name: key_name,
                    parts: vec![part()],
                });
            }
            ColumnOption::CharacterSet(cs) => def.charset = Some(unquote(&cs.to_string())),
            ColumnOption::Collation(co) => def.collation = Some(unquote(&co.to_string())),
            ColumnOption::Comment(s) => def.comment = Some(s.clone()),
            ColumnOption::Generated {
                generation_expr: Some(e),
                generation_expr_mode,
                ..
            } => {
                let stored = *generation_expr_mode == Some(GeneratedExpressionMode::Stored);
                def.generated = Some((e.to_string(), stored));
            }
            ColumnOption::DialectSpecific(tokens) => {
                def.auto_increment |= tokens.iter().any(|t| {
                    matches!(t, Token::Word(w) if w.value.eq_ignore_ascii_case("AUTO_INCREMENT"))
                });
            }
            _ => {}
        }
    }
    // A collation alone gives its character set.
    if def.charset.is_none() {
        def.charset = def
            .collation
            .as_deref()
            .and_then(by_name)
            .map(|c| c.charset.to_string());
    }
    def
}

/// `name` without the quotes around it.
fn unquote(name: &str) -> String {
    name.trim_matches(|c| c == '`' || c == '"' || c == '\'')
        .to_string()
}

/// A key's parts: `col`, `col(10)` (a prefix), `col DESC`.
fn parts(columns: &[IndexColumn]) -> Vec<KeyPart> {
    columns
        .iter()
        .map(|c| {
            let text = c.column.expr.to_string();
            let (column, prefix) = match text.strip_suffix(')').and_then(|t| t.split_once('(')) {
                Some((col, n)) => (col.to_string(), n.trim().parse().ok()),
                None => (text, None),
            };
            KeyPart {
                column: unquote(&column),
                prefix,
                descending: c.column.options.asc == Some(false),
            }
        })
        .collect()
}

/// The keys declared after the columns.
fn table_keys(ct: &CreateTable, keys: &mut Vec<KeyDefinition>) {
    let mut add = |kind, name: Option<String>, columns: &[IndexColumn]| {
        let parts = parts(columns);
        let name = match kind {
            KeyKind::Primary => "PRIMARY".to_string(),
            _ => {
                name.unwrap_or_else(|| parts.first().map(|p| p.column.clone()).unwrap_or_default())
            }
        };
        keys.push(KeyDefinition { kind, name, parts });
    };
    for k in &ct.constraints {
        match k {
            TableConstraint::PrimaryKey { columns, .. } => add(KeyKind::Primary, None, columns),
            TableConstraint::Unique {
                name,
                index_name,
                columns,
                ..
            } => add(
                KeyKind::Unique,
                index_name
                    .as_ref()
                    .or(name.as_ref())
                    .map(|n| n.value.clone()),
                columns,
            ),
            TableConstraint::Index { name, columns, .. } => add(
                KeyKind::Plain,
                name.as_ref().map(|n| n.value.clone()),
                columns,
            ),
            TableConstraint::FulltextOrSpatial {
                fulltext,
                opt_index_name,
                columns,
                ..
            } => add(
                if *fulltext {
                    KeyKind::Fulltext
                } else {
                    KeyKind::Spatial
                },
                opt_index_name.as_ref().map(|n| n.value.clone()),
                columns,
            ),
            _ => {}
        }
    }
}

/// The table options of the statement that shape the rows' storage or
/// their text: default character set and collation, row format, key block
/// size, MariaDB's page compression.
fn options(sql: &str) -> Vec<String> {
    let Some(tail) = sql.rfind(')').and_then(|i| sql.get(i..)) else {
        return Vec::new();
    };
    let tail = unquoted(tail).replace('`', "");
    let mut out = Vec::new();
    let charset = option_value(&tail, "CHARSET").or_else(|| option_value(&tail, "CHARACTER SET"));
    if let Some(cs) = charset {
        out.push(format!("DEFAULT CHARSET={cs}"));
    }
    if let Some(co) = option_value(&tail, "COLLATE") {
        out.push(format!("COLLATE={co}"));
    }
    for name in ["ROW_FORMAT", "KEY_BLOCK_SIZE"] {
        if let Some(v) = option_value(&tail, name) {
            out.push(format!("{name}={v}"));
        }
    }
    for name in ["PAGE_COMPRESSED", "PAGE_COMPRESSION_LEVEL"] {
        if let Some(v) = option_value(&tail, name) {
            out.push(format!("{name}={v}"));
        }
    }
    out
}

/// The statement `sql` as a definition: its columns and keys as given.
pub fn from_ddl(sql: &str) -> Result<TableDefinition, String> {
    let ct = parse_create_table(sql)?;
    let mut keys = Vec::new();
    let columns = ct.columns.iter().map(|c| column(c, &mut keys)).collect();
    table_keys(&ct, &mut keys);
    // The primary key first, as the server prints it.
    keys.sort_by_key(|k| k.kind != KeyKind::Primary);
    let mut names: Vec<String> = ct.name.0.iter().map(|p| unquote(&p.to_string())).collect();
    let name = names.pop().unwrap_or_default();
    let mut def = TableDefinition {
        source: DefinitionSource::Ddl,
        database: names.pop(),
        name,
        columns,
        keys,
        options: options(sql),
    };
    // Key columns of the primary key are NOT NULL.
    let primary: Vec<String> = def
        .keys
        .iter()
        .filter(|k| k.kind == KeyKind::Primary)
        .flat_map(|k| k.parts.iter().map(|p| p.column.clone()))
        .collect();
    for c in def.columns.iter_mut().filter(|c| primary.contains(&c.name)) {
        c.nullable = false;
    }
    Ok(def)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_statement_s_own_definitions() {
        let d = from_ddl(
            "CREATE TABLE db.t (id INT UNSIGNED NOT NULL AUTO_INCREMENT, \
             name VARCHAR(40) CHARACTER SET latin1 DEFAULT 'x', \
             e ENUM('a','b'), g INT AS (id + 1) STORED, \
             PRIMARY KEY (id), KEY k_name (name(3) DESC)) \
             ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((d.database.as_deref(), d.name.as_str()), (Some("db"), "t"));
        let id = &d.columns[0];
        assert!(id.auto_increment && !id.nullable);
        assert_eq!(id.sql_type, "INT UNSIGNED");
        assert_eq!(d.columns[1].charset.as_deref(), Some("latin1"));
        assert_eq!(d.columns[1].default.as_deref(), Some("'x'"));
        assert_eq!(d.columns[2].sql_type, "ENUM('a', 'b')");
        assert_eq!(d.columns[3].generated, Some(("id + 1".to_string(), true)));
        assert_eq!(d.keys[0].kind, KeyKind::Primary);
        assert_eq!(d.keys[1].parts[0].prefix, Some(3));
        assert!(d.keys[1].parts[0].descending);
        assert_eq!(
            d.options,
            [
                "DEFAULT CHARSET=utf8mb4",
                "ROW_FORMAT=COMPRESSED",
                "KEY_BLOCK_SIZE=8"
            ]
        );
    }
}

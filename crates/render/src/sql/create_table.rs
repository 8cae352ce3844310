//! `CREATE TABLE` from a [`TableDefinition`], in the shape `SHOW CREATE
//! TABLE` prints.

use super::{ident, push_string};
use innodb_analysis::rows::table_definition::{
    ColumnDefinition, DefinitionSource, KeyDefinition, KeyKind, TableDefinition,
};

/// Where a definition came from, in words.
pub fn source_words(source: DefinitionSource) -> &'static str {
    match source {
        DefinitionSource::Sdi => "the MySQL dictionary (SDI or mysql.ibd)",
        DefinitionSource::Frm => "the .frm file",
        DefinitionSource::SysTables => {
            "the InnoDB SYS_* dictionary (no DECIMAL precision or scale, no ENUM/SET labels, \
             no defaults or key prefixes: see the column comments)"
        }
        DefinitionSource::Ddl => "the --ddl statement",
    }
}

/// One column's line.
fn column(c: &ColumnDefinition) -> String {
    let mut s = format!("  {} {}", ident(&c.name), c.sql_type);
    if let Some(cs) = &c.charset {
        s.push_str(" CHARACTER SET ");
        s.push_str(cs);
    }
    if let Some(co) = &c.collation {
        s.push_str(" COLLATE ");
        s.push_str(co);
    }
    match &c.generated {
        // Generated columns take no NULL, NOT NULL or DEFAULT in MariaDB.
        Some((expr, stored)) => {
            s.push_str(" GENERATED ALWAYS AS (");
            s.push_str(expr);
            s.push_str(if *stored { ") STORED" } else { ") VIRTUAL" });
        }
        None => {
            s.push_str(if c.nullable { " NULL" } else { " NOT NULL" });
            if let Some(d) = &c.default {
                s.push_str(" DEFAULT ");
                s.push_str(d);
            }
            if c.auto_increment {
                s.push_str(" AUTO_INCREMENT");
            }
        }
    }
    if let Some(comment) = &c.comment {
        s.push_str(" COMMENT ");
        push_string(&mut s, comment);
    }
    s
}

/// One key's line.
fn key(k: &KeyDefinition) -> String {
    let parts: Vec<String> = k
        .parts
        .iter()
        .map(|p| {
            let mut s = ident(&p.column);
            if let Some(n) = p.prefix {
                s.push_str(&format!("({n})"));
            }
            if p.descending {
                s.push_str(" DESC");
            }
            s
        })
        .collect();
    let head = match k.kind {
        KeyKind::Primary => "PRIMARY KEY".to_string(),
        KeyKind::Unique => format!("UNIQUE KEY {}", ident(&k.name)),
        KeyKind::Plain => format!("KEY {}", ident(&k.name)),
        KeyKind::Fulltext => format!("FULLTEXT KEY {}", ident(&k.name)),
        KeyKind::Spatial => format!("SPATIAL KEY {}", ident(&k.name)),
    };
    format!("  {head} ({})", parts.join(","))
}

/// A table option; MariaDB's own (page compression) in a comment only
/// MariaDB executes, so that MySQL loads the statement too.
fn option(o: &str) -> String {
    if o.starts_with("PAGE_COMPRESS") {
        format!("/*M! {o} */")
    } else {
        o.to_string()
    }
}

/// `CREATE TABLE name (…) ENGINE=InnoDB …;` for `def`, named `name`
/// (the definition's own name when `None`), followed by a newline.
pub fn create_table(def: &TableDefinition, name: Option<&str>) -> String {
    let mut lines: Vec<String> = def.columns.iter().map(column).collect();
    lines.extend(def.keys.iter().filter(|k| !k.parts.is_empty()).map(key));
    let mut s = format!(
        "CREATE TABLE {} (\n{}\n) ENGINE=InnoDB",
        ident(name.unwrap_or(&def.name)),
        lines.join(",\n")
    );
    for o in &def.options {
        s.push(' ');
        s.push_str(&option(o));
    }
    s.push_str(";\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use innodb_analysis::rows::table_definition::KeyPart;

    fn col(name: &str, sql_type: &str, nullable: bool) -> ColumnDefinition {
        ColumnDefinition {
            name: name.into(),
            sql_type: sql_type.into(),
            nullable,
            default: None,
            charset: None,
            collation: None,
            generated: None,
            auto_increment: false,
            comment: None,
        }
    }

    #[test]
    fn a_statement_as_show_create_table_prints_it() {
        let mut b = col("b", "varchar(64)", true);
        b.charset = Some("latin1".into());
        b.collation = Some("latin1_swedish_ci".into());
        b.default = Some("NULL".into());
        let def = TableDefinition {
            source: DefinitionSource::SysTables,
            database: Some("test".into()),
            name: "t".into(),
            columns: vec![col("id", "int", false), b],
            keys: vec![
                KeyDefinition {
                    kind: KeyKind::Primary,
                    name: "PRIMARY".into(),
                    parts: vec![KeyPart {
                        column: "id".into(),
                        prefix: None,
                        descending: false,
                    }],
                },
                KeyDefinition {
                    kind: KeyKind::Plain,
                    name: "k_b".into(),
                    parts: vec![KeyPart {
                        column: "b".into(),
                        prefix: Some(3),
                        descending: true,
                    }],
                },
            ],
            options: vec!["ROW_FORMAT=DYNAMIC".into(), "PAGE_COMPRESSED=1".into()],
        };
        assert_eq!(
            create_table(&def, None),
            "CREATE TABLE `t` (\n  `id` int NOT NULL,\n  `b` varchar(64) CHARACTER SET latin1 \
             COLLATE latin1_swedish_ci NULL DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  KEY `k_b` \
             (`b`(3) DESC)\n) ENGINE=InnoDB ROW_FORMAT=DYNAMIC /*M! PAGE_COMPRESSED=1 */;\n"
        );
    }
}

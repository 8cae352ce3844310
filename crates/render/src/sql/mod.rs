//! SQL a server loads back: `CREATE TABLE` from a [`TableDefinition`]
//! (`create_table.rs`) and batched `INSERT`s of decoded rows
//! (`insert.rs`), with the session settings around them that make the
//! values mean what they meant (`dump.rs`). Accepted as they are by
//! MariaDB 10.11 and MySQL 8.0+.
//!
//! [`TableDefinition`]: innodb_analysis::rows::table_definition::TableDefinition

pub mod create_table;
pub mod dump;
pub mod insert;

/// `name` as an identifier: in backquotes, a backquote doubled.
pub fn ident(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

/// Appends `s` as a string literal: in single quotes, with `\`, `'`, NUL,
/// newline, carriage return and Ctrl-Z escaped as `mysqldump` does.
pub fn push_string(out: &mut String, s: &str) {
    out.push('\'');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\0' => out.push_str("\\0"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{1a}' => out.push_str("\\Z"),
            c => out.push(c),
        }
    }
    out.push('\'');
}

/// Appends the hex digits `hex` as a hex literal `X'…'`, after the
/// character set introducer `_charset` when one is given.
pub fn push_hex(out: &mut String, charset: Option<&str>, hex: &str) {
    if let Some(cs) = charset {
        out.push('_');
        out.push_str(cs);
        out.push(' ');
    }
    out.push_str("X'");
    out.push_str(hex);
    out.push('\'');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        let mut s = String::new();
        push_string(&mut s, "a'b\\c\0d\ne\rf\u{1a}g\"h");
        assert_eq!(s, r#"'a\'b\\c\0d\ne\rf\Zg"h'"#);
        assert_eq!(ident("a`b"), "`a``b`");
        let mut h = String::new();
        push_hex(&mut h, Some("latin1"), "E9");
        assert_eq!(h, "_latin1 X'E9'");
    }
}

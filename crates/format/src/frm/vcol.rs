//! MariaDB's expressions segment (`vcol_screen`, 10.2+): a 16-byte base,
//! then for each expression a 6-byte header (type, column number, bytes of
//! the expression, bytes of the name), the name and the expression text.
//! Generated columns, DEFAULT expressions and CHECK constraints.

use crate::bytes::{slice, u16_le_at, u8_at};
use crate::FormatError;
use serde::Serialize;

/// `FRM_VCOL_NEW_BASE_SIZE`.
const BASE_SIZE: usize = 16;
/// `FRM_VCOL_NEW_HEADER_SIZE`.
const HEADER_SIZE: usize = 6;

/// What an expression is (`enum_vcol_info_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExpressionKind {
    /// `VCOL_GENERATED_VIRTUAL`.
    Virtual,
    /// `VCOL_GENERATED_STORED`.
    Stored,
    /// `VCOL_DEFAULT`: a DEFAULT expression.
    Default,
    /// `VCOL_CHECK_FIELD`: a column's CHECK.
    CheckField,
    /// `VCOL_CHECK_TABLE`: a table's CHECK.
    CheckTable,
    /// Another type (its number).
    Other(u8),
}

/// One expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Expression {
    /// What it is.
    pub kind: ExpressionKind,
    /// The column it belongs to, counted from 0.
    pub field_nr: u16,
    /// Its name (a CHECK constraint's).
    pub name: String,
    /// The expression as the server wrote it.
    pub text: String,
}

/// The expressions of the `b` segment (at file offset `base`), for a file
/// of MariaDB 10.2 or later.
pub fn parse(b: &[u8], base: usize) -> Result<Vec<Expression>, FormatError> {
    let mut out = Vec::new();
    if b.is_empty() {
        return Ok(out);
    }
    let at = |e| super::forminfo::shift(e, base);
    let mut pos = BASE_SIZE;
    while pos + HEADER_SIZE <= b.len() {
        let kind = match u8_at(b, pos, "vcol type").map_err(at)? {
            0 => ExpressionKind::Virtual,
            1 => ExpressionKind::Stored,
            2 => ExpressionKind::Default,
            3 => ExpressionKind::CheckField,
            4 => ExpressionKind::CheckTable,
            n => ExpressionKind::Other(n),
        };
        let field_nr = u16_le_at(b, pos + 1, "vcol field number").map_err(at)?;
        let expr_len = usize::from(u16_le_at(b, pos + 3, "vcol expression length").map_err(at)?);
        let name_len = usize::from(u8_at(b, pos + 5, "vcol name length").map_err(at)?);
        pos += HEADER_SIZE;
        let name = slice(b, pos, name_len, "vcol name").map_err(at)?;
        let text = slice(b, pos + name_len, expr_len, "vcol expression").map_err(at)?;
        out.push(Expression {
            kind,
            field_nr,
            name: String::from_utf8_lossy(name).into_owned(),
            text: String::from_utf8_lossy(text).into_owned(),
        });
        pos += name_len + expr_len;
    }
    Ok(out)
}

//! The form (`forminfo`, 288 bytes at the offset the header names): how
//! many columns, and the lengths of the screens, column records, names,
//! ENUM/SET labels, comments and expressions that follow it.

use crate::bytes::{slice, u16_le_at, u8_at};
use crate::FormatError;
use serde::Serialize;

/// Bytes of the form (`FRM_FORMINFO_SIZE`).
pub const FRM_FORMINFO_SIZE: usize = 288;

/// The form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Forminfo {
    /// Its offset in the file.
    pub offset: usize,
    /// Byte 46: length of the table comment (255: the comment is in the
    /// extra segment).
    pub comment_length: u8,
    /// Bytes 47–106: the table comment, when short.
    pub comment: Vec<u8>,
    /// Bytes 258–259: columns.
    pub fields: u16,
    /// Bytes 260–261: bytes of the screens before the column records.
    pub screens_length: u16,
    /// Bytes 268–269: bytes of the column names.
    pub names_length: u16,
    /// Bytes 270–271: ENUM/SET label lists.
    pub interval_count: u16,
    /// Bytes 272–273: ENUM/SET labels in all.
    pub interval_parts: u16,
    /// Bytes 274–275: bytes of the label lists.
    pub intervals_length: u16,
    /// Bytes 282–283: columns that can be NULL.
    pub null_fields: u16,
    /// Bytes 284–285: bytes of the column comments.
    pub comments_length: u16,
    /// Bytes 286–287: bytes of the expressions (generated columns,
    /// DEFAULT expressions, CHECK constraints; MariaDB 10.2+).
    pub vcol_screen_length: u16,
}

impl Forminfo {
    /// Reads the form at `offset` of the file image `b`.
    pub fn parse(b: &[u8], offset: usize) -> Result<Self, FormatError> {
        let f =
            slice(b, offset, FRM_FORMINFO_SIZE, "forminfo").map_err(|_| FormatError::BadValue {
                field: "forminfo",
                offset,
                reason: format!(
                    "the form's {FRM_FORMINFO_SIZE} bytes lie beyond the {}-byte file",
                    b.len()
                ),
            })?;
        let at = |e: FormatError| shift(e, offset);
        let comment_length = u8_at(f, 46, "forminfo comment length").map_err(at)?;
        let short = usize::from(comment_length.min(60));
        Ok(Forminfo {
            offset,
            comment_length,
            comment: slice(f, 47, short, "forminfo comment")
                .map_err(at)?
                .to_vec(),
            fields: u16_le_at(f, 258, "forminfo fields").map_err(at)?,
            screens_length: u16_le_at(f, 260, "forminfo screens length").map_err(at)?,
            names_length: u16_le_at(f, 268, "forminfo names length").map_err(at)?,
            interval_count: u16_le_at(f, 270, "forminfo interval count").map_err(at)?,
            interval_parts: u16_le_at(f, 272, "forminfo interval parts").map_err(at)?,
            intervals_length: u16_le_at(f, 274, "forminfo intervals length").map_err(at)?,
            null_fields: u16_le_at(f, 282, "forminfo null fields").map_err(at)?,
            comments_length: u16_le_at(f, 284, "forminfo comments length").map_err(at)?,
            vcol_screen_length: u16_le_at(f, 286, "forminfo vcol screen length").map_err(at)?,
        })
    }

    /// Where the column records start: after the form and its screens.
    pub fn fields_offset(&self) -> usize {
        self.offset + FRM_FORMINFO_SIZE + usize::from(self.screens_length)
    }
}

/// The error `e` of a read within a part at `base`, with its offset made
/// one of the file.
pub(crate) fn shift(e: FormatError, base: usize) -> FormatError {
    match e {
        FormatError::OutOfBounds {
            field,
            offset,
            len,
            available,
        } => FormatError::OutOfBounds {
            field,
            offset: base + offset,
            len,
            available,
        },
        FormatError::BadValue {
            field,
            offset,
            reason,
        } => FormatError::BadValue {
            field,
            offset: base + offset,
            reason,
        },
        other => other,
    }
}

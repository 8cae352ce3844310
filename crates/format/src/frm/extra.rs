//! The extra segment after the default-values record (`extra_size` bytes,
//! `init_from_binary_frm_image`): the CONNECTION string, the storage
//! engine's name, the partitioning clause, and a table comment too long
//! for the form.

use crate::bytes::{slice, u16_le_at, u32_le_at};
use crate::FormatError;
use serde::Serialize;

/// What the extra segment holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ExtraSegment {
    /// `CONNECTION='…'`.
    pub connect_string: String,
    /// The storage engine (`InnoDB`).
    pub engine: String,
    /// The `PARTITION BY` clause.
    pub partition: String,
    /// The table comment, when longer than the form holds.
    pub long_comment: Option<Vec<u8>>,
}

/// Reads the segment `b` (at file offset `base`); `long_comment`: the
/// form says the comment is here; `mysql_version`: the writer's version.
pub fn parse(
    b: &[u8],
    base: usize,
    long_comment: bool,
    mysql_version: u32,
) -> Result<ExtraSegment, FormatError> {
    let at = |e| super::forminfo::shift(e, base);
    let mut out = ExtraSegment::default();
    let mut pos = 0;
    let text = |s: &[u8]| String::from_utf8_lossy(s).into_owned();
    if pos + 2 <= b.len() {
        let len = usize::from(u16_le_at(b, pos, "connect string length").map_err(at)?);
        out.connect_string = text(slice(b, pos + 2, len, "connect string").map_err(at)?);
        pos += 2 + len;
    }
    if pos + 2 < b.len() {
        let len = usize::from(u16_le_at(b, pos, "engine name length").map_err(at)?);
        out.engine = text(slice(b, pos + 2, len, "engine name").map_err(at)?);
        pos += 2 + len;
    }
    if pos + 5 < b.len() {
        let len = u32_le_at(b, pos, "partition info length").map_err(at)? as usize;
        out.partition = text(slice(b, pos + 4, len, "partition info").map_err(at)?);
        pos += 5 + len;
    }
    // MySQL 5.1.11 added a byte (auto-partitioned).
    if mysql_version >= 50110 && pos < b.len() {
        pos += 1;
    }
    if long_comment {
        let len = usize::from(u16_le_at(b, pos, "long table comment length").map_err(at)?);
        out.long_comment = Some(
            slice(b, pos + 2, len, "long table comment")
                .map_err(at)?
                .to_vec(),
        );
    }
    Ok(out)
}

//! The key information of a `.frm` (at the offset the header names;
//! `pack_keys` in `sql/unireg.cc`): a 6-byte header, 8 bytes for each key
//! and 9 for each of its parts, then the key names (a name list) and the
//! comments of keys that have one. The keys are in the server's order
//! (the primary key first, then UNIQUE keys), which is the order InnoDB
//! creates their indexes in.

use crate::bytes::{slice, u16_le_at, u8_at};
use crate::FormatError;
use serde::Serialize;

/// Key flag `HA_NOSAME` (UNIQUE; stored inverted).
pub const HA_NOSAME: u16 = 1;
/// Key flag `HA_FULLTEXT`.
pub const HA_FULLTEXT: u16 = 128;
/// Key flag `HA_SPATIAL`.
pub const HA_SPATIAL: u16 = 1024;
/// Key flag `HA_USES_COMMENT`.
pub const HA_USES_COMMENT: u16 = 4096;
/// Key part flag `HA_REVERSE_SORT` (DESC, MariaDB 10.8+).
pub const HA_REVERSE_SORT: u8 = 128;
/// `FIELD_NR_MASK`: the column number of a key part.
const FIELD_NR_MASK: u16 = 0x3FFF;

/// One key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FrmKey {
    /// Offset of its 8 bytes in the file.
    pub offset: usize,
    /// Its name (`PRIMARY` for the primary key).
    pub name: String,
    /// Its flags (`HA_NOSAME`, `HA_FULLTEXT`, `HA_SPATIAL`, …), as the
    /// server holds them (the file keeps `HA_NOSAME` inverted).
    pub flags: u16,
    /// Bytes of the key.
    pub key_length: u16,
    /// Its algorithm (`ha_key_alg`: 0 default, 1 BTREE, 2 RTREE, 3 HASH,
    /// 4 FULLTEXT).
    pub algorithm: u8,
    /// Its parts.
    pub parts: Vec<FrmKeyPart>,
    /// Its comment.
    pub comment: Option<Vec<u8>>,
}

impl FrmKey {
    /// UNIQUE (or the primary key).
    pub fn unique(&self) -> bool {
        self.flags & HA_NOSAME != 0
    }
}

/// One part of a key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FrmKeyPart {
    /// The column, counted from 1.
    pub fieldnr: u16,
    /// Where the column is in the record, counted from 0.
    pub offset: u16,
    /// Its flags (`HA_REVERSE_SORT`: DESC).
    pub flags: u8,
    /// Bytes of the column the key holds (less than the column's for a
    /// prefix key).
    pub length: u16,
}

/// Reads the `keys` of the key information at `offset` of the file image
/// `b` (`length` bytes).
pub fn parse(b: &[u8], offset: usize, length: usize) -> Result<Vec<FrmKey>, FormatError> {
    let info = slice(b, offset, length, "key info")?;
    let at = |e| super::forminfo::shift(e, offset);
    let first = u8_at(info, 0, "key count").map_err(at)?;
    let second = u8_at(info, 1, "key count (high bits)").map_err(at)?;
    let keys = if first & 0x80 != 0 {
        usize::from(second) << 7 | usize::from(first & 0x7F)
    } else {
        usize::from(first)
    };
    let mut pos = 6;
    let mut out: Vec<FrmKey> = Vec::with_capacity(keys.min(1024));
    for _ in 0..keys {
        let key_at = pos;
        let flags = u16_le_at(info, pos, "key flags").map_err(at)? ^ HA_NOSAME;
        let key_length = u16_le_at(info, pos + 2, "key length").map_err(at)?;
        let n_parts = u8_at(info, pos + 4, "key parts").map_err(at)?;
        let algorithm = u8_at(info, pos + 5, "key algorithm").map_err(at)?;
        pos += 8;
        let mut parts = Vec::with_capacity(usize::from(n_parts));
        for _ in 0..n_parts {
            parts.push(FrmKeyPart {
                fieldnr: u16_le_at(info, pos, "key part fieldnr").map_err(at)? & FIELD_NR_MASK,
                offset: u16_le_at(info, pos + 2, "key part offset")
                    .map_err(at)?
                    .saturating_sub(1),
                flags: u8_at(info, pos + 4, "key part flags").map_err(at)?,
                length: u16_le_at(info, pos + 7, "key part length").map_err(at)?,
            });
            pos += 9;
        }
        out.push(FrmKey {
            offset: offset + key_at,
            name: String::new(),
            flags,
            key_length,
            algorithm,
            parts,
            comment: None,
        });
    }
    if keys == 0 {
        return Ok(out);
    }
    let names_at = pos;
    let (lists, used) =
        super::names::name_lists(info.get(pos..).unwrap_or(&[]), offset + pos, 1, "key names")?;
    let names = lists.into_iter().next().unwrap_or_default();
    if names.len() != out.len() {
        return Err(FormatError::BadValue {
            field: "key names",
            offset: offset + names_at,
            reason: format!("{} names for {} keys", names.len(), out.len()),
        });
    }
    pos += used;
    for (k, n) in out.iter_mut().zip(names) {
        k.name = String::from_utf8_lossy(&n).into_owned();
        if k.flags & HA_USES_COMMENT != 0 {
            let len = usize::from(u16_le_at(info, pos, "key comment length").map_err(at)?);
            k.comment = Some(
                slice(info, pos + 2, len, "key comment")
                    .map_err(at)?
                    .to_vec(),
            );
            pos += 2 + len;
        }
    }
    Ok(out)
}

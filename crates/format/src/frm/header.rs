//! The `.frm` file header (`fileinfo`, 64 bytes at offset 0, written by
//! `create_frm` in `sql/unireg.cc`), MariaDB's `extra2` segment after it,
//! and the position of the form (`forminfo`). Integers are little-endian.

use crate::bytes::{slice, u16_le_at, u32_le_at, u8_at};
use crate::FormatError;
use serde::Serialize;

/// Bytes of the header (`FRM_HEADER_SIZE`).
pub const FRM_HEADER_SIZE: usize = 64;
/// `FRM_VER`: the version the header's byte 2 counts from.
pub const FRM_VER: u8 = 6;

/// The `.frm` file header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FileHeader {
    /// Byte 2: `FRM_VER` + 3 or more (10: true VARCHAR; 11: MariaDB with
    /// expressions).
    pub frm_version: u8,
    /// Byte 3: the storage engine (`legacy_db_type`, 12 = InnoDB).
    pub legacy_db_type: u8,
    /// Bytes 4–5: bytes of MariaDB's `extra2` segment at offset 64 (3 in
    /// a MySQL file: the `//` mark).
    pub extra2_length: u16,
    /// Bytes 6–7: offset of the key information.
    pub keyinfo_offset: u16,
    /// Bytes 10–13: the file's length as written.
    pub file_length: u32,
    /// Bytes 14–15 (or 47–50 when these are 0xFFFF): bytes of the key
    /// information.
    pub key_info_length: u32,
    /// Bytes 16–17: bytes of the default-values record.
    pub rec_length: u16,
    /// Bytes 30–31: the table options (`HA_OPTION_*`: 1 pack record,
    /// 8 long BLOB pointers).
    pub table_options: u16,
    /// Bytes 38 and 41: the table's default collation id.
    pub table_charset: u32,
    /// Byte 40: `ROW_FORMAT` (`row_type`: 0 default, 1 FIXED, 2 DYNAMIC,
    /// 3 COMPRESSED, 4 REDUNDANT, 5 COMPACT, 6 PAGE).
    pub row_type: u8,
    /// Bytes 51–54: the server version that wrote the file
    /// (`MYSQL_VERSION_ID`, 101119 = 10.11.19).
    pub mysql_version: u32,
    /// Bytes 55–58: bytes of the extra segment after the record.
    pub extra_size: u32,
    /// Bytes 62–63: `KEY_BLOCK_SIZE`.
    pub key_block_size: u16,
    /// MariaDB's `extra2` segment: its entries (type, bytes).
    pub extra2: Vec<Extra2Entry>,
    /// The form's offset (4 bytes after the `extra2` segment).
    pub forminfo_offset: u32,
}

/// One entry of MariaDB's `extra2` segment (`EXTRA2_*`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Extra2Entry {
    /// Its type: 0 table definition version, 1 default partition engine,
    /// 2 GIS, 128 engine table options, 129 field flags, 130 field data
    /// type info, 132 index flags, …
    pub kind: u8,
    /// Offset of its bytes in the file.
    pub offset: usize,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// `HA_OPTION_PACK_RECORD`: no null bit is kept for the record's
/// deleted mark.
pub const HA_OPTION_PACK_RECORD: u16 = 1;

impl FileHeader {
    /// Reads the header of the file image `b`.
    pub fn parse(b: &[u8]) -> Result<Self, FormatError> {
        let magic = slice(b, 0, 2, "frm magic")?;
        if magic != [0xFE, 0x01] {
            return Err(FormatError::BadValue {
                field: "frm magic",
                offset: 0,
                reason: format!(
                    "{:02X}{:02X}, not FE01: not a .frm file",
                    magic.first().copied().unwrap_or(0),
                    magic.get(1).copied().unwrap_or(0)
                ),
            });
        }
        let frm_version = u8_at(b, 2, "frm_version")?;
        if frm_version < FRM_VER + 3 {
            return Err(FormatError::BadValue {
                field: "frm_version",
                offset: 2,
                reason: format!("{frm_version}: a .frm older than MySQL 5.0 is not read"),
            });
        }
        let extra2_length = u16_le_at(b, 4, "extra2 length")?;
        let short_key_length = u16_le_at(b, 14, "key_info_length")?;
        let key_info_length = if short_key_length == 0xFFFF {
            u32_le_at(b, 47, "key_info_length (long)")?
        } else {
            u32::from(short_key_length)
        };
        let extra2 = extra2_entries(b, usize::from(extra2_length))?;
        let forminfo_at = FRM_HEADER_SIZE + usize::from(extra2_length);
        Ok(FileHeader {
            frm_version,
            legacy_db_type: u8_at(b, 3, "legacy_db_type")?,
            extra2_length,
            keyinfo_offset: u16_le_at(b, 6, "keyinfo offset")?,
            file_length: u32_le_at(b, 10, "file length")?,
            key_info_length,
            rec_length: u16_le_at(b, 16, "reclength")?,
            table_options: u16_le_at(b, 30, "table_options")?,
            table_charset: u32::from(u8_at(b, 38, "table charset")?)
                | u32::from(u8_at(b, 41, "table charset (high byte)")?) << 8,
            row_type: u8_at(b, 40, "row_type")?,
            mysql_version: u32_le_at(b, 51, "mysql_version")?,
            extra_size: u32_le_at(b, 55, "extra_size")?,
            key_block_size: u16_le_at(b, 62, "key_block_size")?,
            extra2,
            forminfo_offset: u32_le_at(b, forminfo_at, "forminfo position")?,
        })
    }

    /// Where the default-values record starts: after the key information.
    pub fn record_offset(&self) -> usize {
        usize::from(self.keyinfo_offset) + self.key_info_length as usize
    }

    /// Written by MariaDB (10.0 and later) rather than MySQL.
    pub fn is_mariadb(&self) -> bool {
        self.mysql_version >= 100_000
    }

    /// The bytes of the `extra2` entry of type `kind`, when present.
    pub fn extra2(&self, kind: u8) -> Option<&[u8]> {
        self.extra2
            .iter()
            .find(|e| e.kind == kind)
            .map(|e| e.bytes.as_slice())
    }
}

/// The entries of MariaDB's `extra2` segment of `len` bytes at offset 64:
/// a type byte, a length byte (0: a 2-byte length follows), the bytes. A
/// MySQL file has `//` there instead, and no entries.
fn extra2_entries(b: &[u8], len: usize) -> Result<Vec<Extra2Entry>, FormatError> {
    let seg = slice(b, FRM_HEADER_SIZE, len, "extra2 segment")?;
    if seg.first() == Some(&b'/') {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    let mut pos = 0;
    // Each entry takes at least 3 bytes; fewer left are padding.
    while pos + 3 <= len {
        let kind = u8_at(seg, pos, "extra2 type")?;
        let mut length = usize::from(u8_at(seg, pos + 1, "extra2 length")?);
        pos += 2;
        if length == 0 {
            length = usize::from(u16_le_at(seg, pos, "extra2 long length")?);
            pos += 2;
        }
        let bytes = slice(seg, pos, length, "extra2 entry").map_err(|_| FormatError::BadValue {
            field: "extra2 entry",
            offset: FRM_HEADER_SIZE + pos,
            reason: format!("type {kind}: {length} bytes do not fit the {len}-byte segment"),
        })?;
        out.push(Extra2Entry {
            kind,
            offset: FRM_HEADER_SIZE + pos,
            bytes: bytes.to_vec(),
        });
        pos += length;
    }
    Ok(out)
}

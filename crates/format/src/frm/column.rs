//! A column record of the `.frm` (17 bytes each, after the form's
//! screens; `pack_fields` in `sql/unireg.cc`, read by
//! `init_from_binary_frm_image` in `sql/table.cc`): the MySQL field type,
//! length, flags, character set and ENUM/SET label list of one column.

use crate::bytes::{slice, u16_le_at, u24_le_at, u8_at};
use crate::FormatError;
use serde::Serialize;

/// Bytes of one column record.
pub const FIELD_RECORD_SIZE: usize = 17;

/// MySQL field types (`enum_field_types`, `sql/field.h`'s type codes).
pub mod field_type {
    /// `MYSQL_TYPE_DECIMAL` (the old, text DECIMAL).
    pub const DECIMAL: u8 = 0;
    /// `MYSQL_TYPE_TINY`.
    pub const TINY: u8 = 1;
    /// `MYSQL_TYPE_SHORT`.
    pub const SHORT: u8 = 2;
    /// `MYSQL_TYPE_LONG`.
    pub const LONG: u8 = 3;
    /// `MYSQL_TYPE_FLOAT`.
    pub const FLOAT: u8 = 4;
    /// `MYSQL_TYPE_DOUBLE`.
    pub const DOUBLE: u8 = 5;
    /// `MYSQL_TYPE_NULL`.
    pub const NULL: u8 = 6;
    /// `MYSQL_TYPE_TIMESTAMP` (before MySQL 5.6.4's format).
    pub const TIMESTAMP: u8 = 7;
    /// `MYSQL_TYPE_LONGLONG`.
    pub const LONGLONG: u8 = 8;
    /// `MYSQL_TYPE_INT24`.
    pub const INT24: u8 = 9;
    /// `MYSQL_TYPE_DATE` (the old 4-byte DATE).
    pub const DATE: u8 = 10;
    /// `MYSQL_TYPE_TIME` (before 5.6.4).
    pub const TIME: u8 = 11;
    /// `MYSQL_TYPE_DATETIME` (before 5.6.4).
    pub const DATETIME: u8 = 12;
    /// `MYSQL_TYPE_YEAR`.
    pub const YEAR: u8 = 13;
    /// `MYSQL_TYPE_NEWDATE` (DATE, 3 bytes).
    pub const NEWDATE: u8 = 14;
    /// `MYSQL_TYPE_VARCHAR`.
    pub const VARCHAR: u8 = 15;
    /// `MYSQL_TYPE_BIT`.
    pub const BIT: u8 = 16;
    /// `MYSQL_TYPE_TIMESTAMP2`.
    pub const TIMESTAMP2: u8 = 17;
    /// `MYSQL_TYPE_DATETIME2`.
    pub const DATETIME2: u8 = 18;
    /// `MYSQL_TYPE_TIME2`.
    pub const TIME2: u8 = 19;
    /// `MYSQL_TYPE_JSON` (MySQL 5.7).
    pub const JSON: u8 = 245;
    /// `MYSQL_TYPE_NEWDECIMAL`.
    pub const NEWDECIMAL: u8 = 246;
    /// `MYSQL_TYPE_ENUM`.
    pub const ENUM: u8 = 247;
    /// `MYSQL_TYPE_SET`.
    pub const SET: u8 = 248;
    /// `MYSQL_TYPE_TINY_BLOB`.
    pub const TINY_BLOB: u8 = 249;
    /// `MYSQL_TYPE_MEDIUM_BLOB`.
    pub const MEDIUM_BLOB: u8 = 250;
    /// `MYSQL_TYPE_LONG_BLOB`.
    pub const LONG_BLOB: u8 = 251;
    /// `MYSQL_TYPE_BLOB`.
    pub const BLOB: u8 = 252;
    /// `MYSQL_TYPE_VAR_STRING` (VARCHAR before MySQL 5.0.3).
    pub const VAR_STRING: u8 = 253;
    /// `MYSQL_TYPE_STRING` (CHAR, BINARY).
    pub const STRING: u8 = 254;
    /// `MYSQL_TYPE_GEOMETRY`.
    pub const GEOMETRY: u8 = 255;
}

/// `pack_flag` bits (`FIELDFLAG_*`, `sql/field.h`).
pub mod pack_flag {
    /// `FIELDFLAG_DECIMAL`: a signed number (unset: UNSIGNED).
    pub const DECIMAL: u16 = 1;
    /// `FIELDFLAG_BINARY`: a binary string.
    pub const BINARY: u16 = 1;
    /// `FIELDFLAG_NUMBER`.
    pub const NUMBER: u16 = 2;
    /// `FIELDFLAG_ZEROFILL`.
    pub const ZEROFILL: u16 = 4;
    /// `FIELDFLAG_TREAT_BIT_AS_CHAR`.
    pub const TREAT_BIT_AS_CHAR: u16 = 4096;
    /// `FIELDFLAG_NO_DEFAULT`.
    pub const NO_DEFAULT: u16 = 16384;
    /// `FIELDFLAG_MAYBE_NULL`.
    pub const MAYBE_NULL: u16 = 32768;
    /// `FIELDFLAG_DEC_SHIFT`: the decimals sit in bits 8–12.
    pub const DEC_SHIFT: u16 = 8;
    /// `NOT_FIXED_DEC`: FLOAT/DOUBLE without declared decimals.
    pub const NOT_FIXED_DEC: u8 = 31;
}

/// `unireg_check` values (`Field::utype`) this reads.
pub mod unireg {
    /// `NEXT_NUMBER`: AUTO_INCREMENT.
    pub const NEXT_NUMBER: u8 = 15;
    /// `TIMESTAMP_DN_FIELD`: DEFAULT CURRENT_TIMESTAMP.
    pub const TIMESTAMP_DN_FIELD: u8 = 21;
    /// `TIMESTAMP_UN_FIELD`: ON UPDATE CURRENT_TIMESTAMP.
    pub const TIMESTAMP_UN_FIELD: u8 = 22;
    /// `TIMESTAMP_DNUN_FIELD`: both.
    pub const TIMESTAMP_DNUN_FIELD: u8 = 23;
}

/// One column record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ColumnRecord {
    /// Offset of the record in the file.
    pub offset: usize,
    /// Bytes 3–4: the field length (display width of a number, bytes of a
    /// string, digits and point and sign of a DECIMAL, 19 + 1 + fraction
    /// digits of a DATETIME).
    pub length: u16,
    /// Bytes 5–7: where the field starts in the default-values record,
    /// counted from 1.
    pub recpos: u32,
    /// Bytes 8–9: `pack_flag` (see [`pack_flag`]).
    pub pack_flag: u16,
    /// Byte 10: `unireg_check` (see [`unireg`]).
    pub unireg_check: u8,
    /// Byte 12: the ENUM/SET label list, counted from 1 (0: none).
    pub interval_nr: u8,
    /// Byte 13: the MySQL field type (see [`field_type`]).
    pub field_type: u8,
    /// Bytes 14 and 11: the collation id (byte 14 alone is the geometry
    /// type of a GEOMETRY column; 0 is binary).
    pub charset: u32,
    /// Bytes 15–16: bytes of the column comment.
    pub comment_length: u16,
    /// Byte 14 of a GEOMETRY column: its geometry type (0 GEOMETRY,
    /// 1 POINT, 2 LINESTRING, 3 POLYGON, 4 MULTIPOINT, 5 MULTILINESTRING,
    /// 6 MULTIPOLYGON, 7 GEOMETRYCOLLECTION).
    pub geometry_type: u8,
}

impl ColumnRecord {
    /// Reads the record at `offset` of the file image `b`.
    pub fn parse(b: &[u8], offset: usize) -> Result<Self, FormatError> {
        let r = slice(b, offset, FIELD_RECORD_SIZE, "column record")?;
        let at = |e| super::forminfo::shift(e, offset);
        let field_type = u8_at(r, 13, "column field type").map_err(at)?;
        let low = u32::from(u8_at(r, 14, "column charset").map_err(at)?);
        let high = u32::from(u8_at(r, 11, "column charset (high byte)").map_err(at)?);
        let charset = if field_type == field_type::GEOMETRY {
            63
        } else {
            match low | high << 8 {
                0 => 63,
                c => c,
            }
        };
        Ok(ColumnRecord {
            offset,
            length: u16_le_at(r, 3, "column length").map_err(at)?,
            recpos: u24_le_at(r, 5, "column recpos").map_err(at)?,
            pack_flag: u16_le_at(r, 8, "column pack_flag").map_err(at)?,
            unireg_check: u8_at(r, 10, "column unireg_check").map_err(at)?,
            interval_nr: u8_at(r, 12, "column interval_nr").map_err(at)?,
            field_type,
            charset,
            comment_length: u16_le_at(r, 15, "column comment length").map_err(at)?,
            geometry_type: if field_type == field_type::GEOMETRY {
                low as u8
            } else {
                0
            },
        })
    }

    /// True for a number column (`FIELDFLAG_NUMBER`).
    pub fn is_number(&self) -> bool {
        self.pack_flag & pack_flag::NUMBER != 0
    }

    /// UNSIGNED: a number without `FIELDFLAG_DECIMAL`.
    pub fn unsigned(&self) -> bool {
        self.is_number() && self.pack_flag & pack_flag::DECIMAL == 0
    }

    /// ZEROFILL.
    pub fn zerofill(&self) -> bool {
        self.is_number() && self.pack_flag & pack_flag::ZEROFILL != 0
    }

    /// `NULL` is allowed.
    pub fn nullable(&self) -> bool {
        self.pack_flag & pack_flag::MAYBE_NULL != 0
    }

    /// Declared without a default (`FIELDFLAG_NO_DEFAULT`).
    pub fn no_default(&self) -> bool {
        self.pack_flag & pack_flag::NO_DEFAULT != 0
    }

    /// The decimals of a number (`f_decimals`): DECIMAL's scale, FLOAT's
    /// and DOUBLE's declared digits (31: none).
    pub fn decimals(&self) -> u8 {
        ((self.pack_flag >> pack_flag::DEC_SHIFT) & 31) as u8
    }

    /// The fractional seconds digits of a TIME, DATETIME or TIMESTAMP
    /// (from its length: 10 or 19, then a point and the digits).
    pub fn fsp(&self) -> Option<u8> {
        use field_type::*;
        let base = match self.field_type {
            TIME | TIME2 => 10,
            DATETIME | DATETIME2 | TIMESTAMP | TIMESTAMP2 => 19,
            _ => return None,
        };
        Some(
            u8::try_from(self.length.saturating_sub(base + 1))
                .unwrap_or(0)
                .min(6),
        )
    }

    /// DECIMAL's precision and scale (`my_decimal_length_to_precision`:
    /// the length less the point and the sign).
    pub fn decimal(&self) -> Option<(u32, u32)> {
        if self.field_type != field_type::NEWDECIMAL {
            return None;
        }
        let scale = u32::from(self.decimals());
        let point = u32::from(scale > 0);
        let sign = u32::from(!self.unsigned());
        Some((u32::from(self.length).saturating_sub(point + sign), scale))
    }

    /// The bytes of the field in the record (`pack_length`), as far as its
    /// type says; `None` for a type of no fixed size this does not know.
    pub fn pack_length(&self, labels: usize) -> Option<usize> {
        use field_type::*;
        let len = usize::from(self.length);
        Some(match self.field_type {
            TINY | YEAR => 1,
            SHORT => 2,
            INT24 | NEWDATE | TIME => 3,
            LONG | FLOAT | TIMESTAMP | DATE => 4,
            LONGLONG | DOUBLE | DATETIME => 8,
            NEWDECIMAL => {
                let (p, s) = self.decimal()?;
                crate::value::decimal::decimal_bin_size(p as usize, s as usize)
            }
            TIME2 => 3 + usize::from(self.fsp()?).div_ceil(2),
            DATETIME2 => 5 + usize::from(self.fsp()?).div_ceil(2),
            TIMESTAMP2 => 4 + usize::from(self.fsp()?).div_ceil(2),
            STRING if self.interval_nr > 0 => self.label_bytes(labels),
            ENUM | SET => self.label_bytes(labels),
            STRING => len,
            VARCHAR | VAR_STRING => len + if len < 256 { 1 } else { 2 },
            BIT => len / 8,
            _ => return None,
        })
    }

    /// Bytes of an ENUM (1 or 2) or SET (1–4 or 8) of `labels` labels.
    fn label_bytes(&self, labels: usize) -> usize {
        if self.unireg_check == 17 || self.field_type == field_type::SET {
            match labels.div_ceil(8) {
                0 | 1 => 1,
                2 => 2,
                3 => 3,
                4 => 4,
                _ => 8,
            }
        } else if labels > 255 {
            2
        } else {
            1
        }
    }
}

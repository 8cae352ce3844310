//! MariaDB's instant-ALTER column map (10.4+ instant DROP COLUMN and column
//! reordering): the BLOB the clustered index's metadata record carries
//! (`dict_table_t::serialise_columns`, read back by `deserialise_columns`).
//!
//! Layout, big-endian: a 4-byte count of the clustered index's fields after
//! `DB_ROLL_PTR` (offset 0), then one 2-byte `field_map_element_t` per such
//! field, in physical order (offset 4): bit 15 `DROPPED`; for a dropped
//! column bit 14 `NOT_NULL` and, in the low 10 bits, 0 (variable length, at
//! most 255 bytes), 1 (variable length, longer) or 1 + its fixed length;
//! for a live column the low 10 bits are its position among the table's
//! columns (`dict_table_t::cols`, the order of `SYS_COLUMNS.POS`).

use crate::bytes::{u16_at, u32_at};
use crate::FormatError;

/// `field_map_element_t::DROPPED`.
pub const DROPPED: u16 = 1 << 15;
/// `field_map_element_t::NOT_NULL`.
pub const NOT_NULL: u16 = 1 << 14;
/// `field_map_element_t::IND`: the low 10 bits.
pub const IND: u16 = (1 << 10) - 1;

/// Largest count accepted (`REC_MAX_N_FIELDS - 3`).
pub const MAX_FIELDS: u32 = 1023 - 3;

/// One field of the clustered index after `DB_ROLL_PTR`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldMapEntry {
    /// A live column: its position among the table's columns.
    Column(u16),
    /// A column dropped instantly, still stored in older records.
    Dropped {
        /// Declared NOT NULL.
        not_null: bool,
        /// Its fixed length in bytes; `None` when variable-length.
        fixed_len: Option<u16>,
        /// Variable-length with a maximum over 255 bytes (two length bytes possible).
        big: bool,
    },
}

/// Parses the column map at the start of the metadata BLOB `b`.
pub fn parse(b: &[u8]) -> Result<Vec<FieldMapEntry>, FormatError> {
    let n = u32_at(b, 0, "instant column map count")?;
    if n > MAX_FIELDS {
        return Err(FormatError::BadValue {
            field: "instant column map count",
            offset: 0,
            reason: format!("{n} fields, more than a record can have ({MAX_FIELDS})"),
        });
    }
    (0..n as usize)
        .map(|i| {
            let e = u16_at(b, 4 + 2 * i, "instant column map entry")?;
            Ok(if e & DROPPED == 0 {
                FieldMapEntry::Column(e & IND)
            } else {
                let len = e & IND;
                FieldMapEntry::Dropped {
                    not_null: e & NOT_NULL != 0,
                    fixed_len: (len > 1).then(|| len - 1),
                    big: len == 1,
                }
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_and_dropped_fields() {
        let b = [0, 0, 0, 4, 0x00, 0x02, 0x80, 0x00, 0xC0, 0x05, 0x80, 0x01];
        assert_eq!(
            parse(&b).unwrap(),
            [
                FieldMapEntry::Column(2),
                FieldMapEntry::Dropped {
                    not_null: false,
                    fixed_len: None,
                    big: false
                },
                FieldMapEntry::Dropped {
                    not_null: true,
                    fixed_len: Some(4),
                    big: false
                },
                FieldMapEntry::Dropped {
                    not_null: false,
                    fixed_len: None,
                    big: true
                },
            ]
        );
        assert!(parse(&b[..9]).is_err());
        assert!(parse(&[0xFF, 0, 0, 0]).is_err());
    }
}

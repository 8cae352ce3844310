//! An undo record's header (`trx0rec.h`, `trx_undo_rec_get_pars`): the
//! 2-byte offset of the next record, the type and compiler info byte, the
//! undo number and table id (much-compressed), and for records of updates
//! and delete-marks the old record's info bits, `DB_TRX_ID` and
//! `DB_ROLL_PTR` (compressed). The primary key and the update vector follow.

use crate::bytes::{u16_at, u8_at};
use crate::compressed_int::{read_u64_compressed, read_u64_much_compressed};
use crate::field::{Field, Pointer};
use crate::FormatError;
use serde::Serialize;

/// Undo record types (the low 4 bits of the type byte).
pub mod kind {
    /// `TRX_UNDO_RENAME_TABLE` (MariaDB): a table rename.
    pub const RENAME_TABLE: u8 = 9;
    /// `TRX_UNDO_INSERT_METADATA` (MariaDB): an instant ALTER's metadata record.
    pub const INSERT_METADATA: u8 = 10;
    /// `TRX_UNDO_INSERT_REC`: a fresh insert.
    pub const INSERT: u8 = 11;
    /// `TRX_UNDO_UPD_EXIST_REC`: an update of a live record.
    pub const UPDATE_EXISTING: u8 = 12;
    /// `TRX_UNDO_UPD_DEL_REC`: an update of a delete-marked record (an insert over it).
    pub const UPDATE_DELETED: u8 = 13;
    /// `TRX_UNDO_DEL_MARK_REC`: a delete-mark.
    pub const DELETE_MARK: u8 = 14;
    /// `TRX_UNDO_EMPTY` (MariaDB 10.6+): the table was empty (bulk insert).
    pub const EMPTY: u8 = 15;

    /// The type's name.
    pub fn name(k: u8) -> &'static str {
        match k {
            RENAME_TABLE => "rename_table",
            INSERT_METADATA => "insert_metadata",
            INSERT => "insert",
            UPDATE_EXISTING => "update_existing",
            UPDATE_DELETED => "update_deleted",
            DELETE_MARK => "delete_mark",
            EMPTY => "empty",
            _ => "unknown",
        }
    }

    /// The type's constant name in the server source (`TRX_UNDO_INSERT_REC`, …).
    pub fn const_name(k: u8) -> &'static str {
        match k {
            RENAME_TABLE => "TRX_UNDO_RENAME_TABLE",
            INSERT_METADATA => "TRX_UNDO_INSERT_METADATA",
            INSERT => "TRX_UNDO_INSERT_REC",
            UPDATE_EXISTING => "TRX_UNDO_UPD_EXIST_REC",
            UPDATE_DELETED => "TRX_UNDO_UPD_DEL_REC",
            DELETE_MARK => "TRX_UNDO_DEL_MARK_REC",
            EMPTY => "TRX_UNDO_EMPTY",
            _ => "undo record",
        }
    }

    /// True for the types that carry the old record's system columns.
    pub fn is_update(k: u8) -> bool {
        matches!(k, UPDATE_EXISTING | UPDATE_DELETED | DELETE_MARK)
    }
}

/// `TRX_UNDO_UPD_EXTERN`: the update changed an externally stored column.
pub const TRX_UNDO_UPD_EXTERN: u8 = 128;
/// `TRX_UNDO_MODIFY_BLOB` (MySQL 8.0, bit 6 of the type byte, set on every
/// update and delete-mark record it writes): a 1-byte flags field follows
/// the type byte, before the undo number. MariaDB never sets the bit.
pub const TRX_UNDO_MODIFY_BLOB: u8 = 64;

/// Where the undo number starts in the record at `offset` whose type byte
/// is `type_cmpl`: after the next-record offset and the type byte, and
/// MySQL 8.0's flags byte when `TRX_UNDO_MODIFY_BLOB` is set.
fn undo_no_offset(offset: usize, type_cmpl: u8) -> usize {
    offset + 3 + usize::from(type_cmpl & TRX_UNDO_MODIFY_BLOB != 0)
}

/// The header of one undo record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct UndoRecordHeader {
    /// Where the record starts on its page.
    pub offset: usize,
    /// Offset of the next record on the page (the first 2 bytes).
    pub next: u16,
    /// Record type (byte +2, low 4 bits), see [`kind`].
    pub kind: u8,
    /// Compiler info (byte +2, bits 4–5): how the update changed the record.
    pub cmpl_info: u8,
    /// An externally stored column was updated (byte +2, bit 7).
    pub updated_extern: bool,
    /// The undo number: the record's place in its transaction.
    pub undo_no: u64,
    /// The table.
    pub table_id: u64,
    /// For updates and delete-marks: the old record's info bits.
    pub info_bits: Option<u8>,
    /// For updates and delete-marks: the old record's `DB_TRX_ID`.
    pub old_trx_id: Option<u64>,
    /// For updates and delete-marks: the old record's `DB_ROLL_PTR`.
    pub old_roll_ptr: Option<u64>,
    /// Where the primary key fields start.
    pub body: usize,
}

impl UndoRecordHeader {
    /// Reads the header of the undo record at `offset` of `page`.
    pub fn parse_at(page: &[u8], offset: usize) -> Result<Self, FormatError> {
        let next = u16_at(page, offset, "undo record next")?;
        let type_cmpl = u8_at(page, offset + 2, "undo record type")?;
        let kind = type_cmpl & 15;
        let mut at = undo_no_offset(offset, type_cmpl);
        let (undo_no, n) = read_u64_much_compressed(page, at, "undo_no")?;
        at += n;
        let (table_id, n) = read_u64_much_compressed(page, at, "table_id")?;
        at += n;
        let (mut info_bits, mut old_trx_id, mut old_roll_ptr) = (None, None, None);
        if kind::is_update(kind) {
            info_bits = Some(u8_at(page, at, "info_bits")?);
            at += 1;
            let (t, n) = read_u64_compressed(page, at, "DB_TRX_ID")?;
            at += n;
            let (r, n) = read_u64_compressed(page, at, "DB_ROLL_PTR")?;
            at += n;
            old_trx_id = Some(t);
            old_roll_ptr = Some(r);
        }
        Ok(UndoRecordHeader {
            offset,
            next,
            kind,
            cmpl_info: (type_cmpl >> 4) & 3,
            updated_extern: type_cmpl & TRX_UNDO_UPD_EXTERN != 0,
            undo_no,
            table_id,
            info_bits,
            old_trx_id,
            old_roll_ptr,
            body: at,
        })
    }
}

impl UndoRecordHeader {
    /// The header as one display field spanning the record (`next` − its
    /// start bytes): named by its type, the undo number as the value, and
    /// for updates and delete-marks a pointer to the older version.
    pub fn field(&self) -> Field {
        let mut meaning = format!(
            "{}, undo no {}, table {}, next {}",
            kind::name(self.kind),
            self.undo_no,
            self.table_id,
            self.next
        );
        if kind::is_update(self.kind) {
            meaning.push_str(&format!(", cmpl_info {}", self.cmpl_info));
        }
        if self.updated_extern {
            meaning.push_str(", an externally stored column changed");
        }
        if let Some(t) = self.old_trx_id {
            meaning.push_str(&format!(", old DB_TRX_ID {t}"));
        }
        Field::with_meaning(
            self.offset,
            usize::from(self.next).saturating_sub(self.offset),
            kind::const_name(self.kind),
            self.undo_no,
            meaning,
        )
        .pointing(self.old_roll_ptr.map(Pointer::roll_ptr))
    }
}

/// The undo records from `from` up to `to` on `page`, each as its header's
/// field, following each record's next offset. A record that cannot be
/// read, or whose next offset does not move forward within `to`, ends the
/// walk with its error.
pub fn record_fields(page: &[u8], from: usize, to: usize) -> (Vec<Field>, Option<FormatError>) {
    let mut out = Vec::new();
    let mut at = from;
    while at < to {
        let h = match UndoRecordHeader::parse_at(page, at) {
            Ok(h) => h,
            Err(e) => return (out, Some(e)),
        };
        let next = usize::from(h.next);
        if next <= at || next > to {
            return (
                out,
                Some(FormatError::BadValue {
                    field: "undo record next",
                    offset: at,
                    reason: format!(
                        "the record at {at} says the next starts at {next}, not after it and up to {to}"
                    ),
                }),
            );
        }
        out.push(h.field());
        at = next;
    }
    (out, None)
}

/// `UNIV_SQL_NULL`: the length of a NULL field in an undo record.
pub const UNIV_SQL_NULL: u32 = 0xFFFF_FFFF;
/// `UNIV_EXTERN_STORAGE_FIELD` (`UNIV_SQL_NULL` − 16384): lengths from here
/// on mark a field whose stored part is followed by an external reference.
pub const UNIV_EXTERN_STORAGE_FIELD: u32 = UNIV_SQL_NULL - 16384;
/// `REC_MAX_N_FIELDS`: field numbers from here on are virtual columns.
pub const REC_MAX_N_FIELDS: u32 = 1023;

/// One field value in an undo record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct UndoField {
    /// SQL NULL.
    pub null: bool,
    /// The stored bytes (for an external field: its local prefix and the
    /// 20-byte reference).
    pub bytes: Vec<u8>,
    /// Stored externally: the bytes end with a 20-byte reference.
    pub external: bool,
}

/// The primary key and the update vector of an undo record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct UndoRecordBody {
    /// The primary key fields (`n_unique` of them).
    pub key: Vec<UndoField>,
    /// For updates: (clustered index field number, old value) of each
    /// updated field; virtual columns left out.
    pub update: Vec<(u32, UndoField)>,
}

/// Reads one field value (`trx_undo_rec_get_col_val`) at `at`; returns it
/// and the offset after it.
fn field_at(page: &[u8], at: usize) -> Result<(UndoField, usize), FormatError> {
    use crate::compressed_int::read_compressed;
    let (len, n) = read_compressed(page, at, "undo field length")?;
    let mut at = at + n;
    if len == UNIV_SQL_NULL {
        return Ok((
            UndoField {
                null: true,
                bytes: Vec::new(),
                external: false,
            },
            at,
        ));
    }
    let (len, external) = if len == UNIV_EXTERN_STORAGE_FIELD {
        // MySQL 5.6+/MariaDB: the original length, then the stored length.
        let (_orig, n) = read_compressed(page, at, "undo field original length")?;
        at += n;
        let (stored, n) = read_compressed(page, at, "undo field stored length")?;
        at += n;
        (stored as usize, true)
    } else if len > UNIV_EXTERN_STORAGE_FIELD {
        ((len - UNIV_EXTERN_STORAGE_FIELD) as usize, true)
    } else {
        (len as usize, false)
    };
    let bytes = crate::bytes::slice(page, at, len, "undo field")?.to_vec();
    Ok((
        UndoField {
            null: false,
            bytes,
            external,
        },
        at + len,
    ))
}

impl UndoRecordHeader {
    /// For an update or delete-mark record of `page`: the offset of its old
    /// `DB_ROLL_PTR` (after the type byte, the undo number, the table id,
    /// the info bits and the old `DB_TRX_ID`).
    pub fn roll_ptr_offset(&self, page: &[u8]) -> Option<usize> {
        if !kind::is_update(self.kind) {
            return None;
        }
        let type_cmpl = u8_at(page, self.offset + 2, "undo record type").ok()?;
        let mut at = undo_no_offset(self.offset, type_cmpl);
        at += read_u64_much_compressed(page, at, "undo_no").ok()?.1;
        at += read_u64_much_compressed(page, at, "table_id").ok()?.1;
        at += 1;
        at += read_u64_compressed(page, at, "DB_TRX_ID").ok()?.1;
        Some(at)
    }

    /// Reads the record's primary key (`n_unique` fields) and, for an
    /// update, its update vector.
    pub fn body(&self, page: &[u8], n_unique: usize) -> Result<UndoRecordBody, FormatError> {
        use crate::compressed_int::read_compressed;
        let mut at = self.body;
        let mut key = Vec::with_capacity(n_unique);
        for _ in 0..n_unique {
            let (f, next) = field_at(page, at)?;
            key.push(f);
            at = next;
        }
        let mut update = Vec::new();
        if matches!(self.kind, kind::UPDATE_EXISTING | kind::UPDATE_DELETED) {
            let (n_fields, n) = read_compressed(page, at, "undo update n_fields")?;
            at += n;
            if n_fields as usize > page.len() {
                return Err(FormatError::BadValue {
                    field: "undo update n_fields",
                    offset: at,
                    reason: format!("{n_fields} updated fields"),
                });
            }
            for _ in 0..n_fields {
                let (field_no, n) = read_compressed(page, at, "undo update field_no")?;
                at += n;
                let (f, next) = field_at(page, at)?;
                at = next;
                if field_no < REC_MAX_N_FIELDS {
                    update.push((field_no, f));
                }
            }
        }
        Ok(UndoRecordBody { key, update })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An update record as MySQL 8.0 writes it (`trx_undo_page_report_modify`):
    /// next offset, type byte 12 | cmpl_info 1 << 4 | `TRX_UNDO_MODIFY_BLOB`,
    /// the flags byte 0, undo no 5, table 1234 (much-compressed), info bits,
    /// DB_TRX_ID 0x642 and DB_ROLL_PTR (compressed), then the key.
    #[test]
    fn mysql_8_update_records_skip_their_flags_byte() {
        let mut r = vec![0u8, 0, 12 | 16 | TRX_UNDO_MODIFY_BLOB, 0, 5, 0x84, 0xD2, 0];
        r.extend_from_slice(&[0x86, 0x42, 0, 0, 0, 0]); // DB_TRX_ID: high 0x642, low 0
        r.extend_from_slice(&[7, 0, 0, 0, 9]); // DB_ROLL_PTR: high 7, low 9
        let end = r.len() as u16;
        r[0..2].copy_from_slice(&(end + 2).to_be_bytes());
        let h = UndoRecordHeader::parse_at(&r, 0).unwrap();
        assert_eq!((h.kind, h.cmpl_info), (kind::UPDATE_EXISTING, 1));
        assert_eq!((h.undo_no, h.table_id, h.info_bits), (5, 1234, Some(0)));
        assert_eq!(h.old_trx_id, Some(0x642 << 32));
        assert_eq!(h.old_roll_ptr, Some((7 << 32) | 9));
        assert_eq!(h.roll_ptr_offset(&r), Some(14));
        assert_eq!(h.body, usize::from(end));
        // MariaDB's: no flags byte.
        let m = [0u8, 9, 11, 5, 0x84, 0xD2];
        let h = UndoRecordHeader::parse_at(&m, 0).unwrap();
        assert_eq!((h.kind, h.undo_no, h.table_id), (kind::INSERT, 5, 1234));
    }
}

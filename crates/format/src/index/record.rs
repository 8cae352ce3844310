//! Record headers of INDEX pages (`rem0rec.h`), COMPACT (new-style, also
//! DYNAMIC and the logical image of COMPRESSED pages) and REDUNDANT
//! (old-style). The header is read backwards from the record's origin (the
//! first byte of its first field).
//!
//! COMPACT: `REC_NEW_INFO_BITS`/`REC_NEW_N_OWNED` at origin−5, heap number and
//! status at origin−4 (2 bytes: heap_no << 3 | status), relative next link at
//! origin−2. REDUNDANT: info bits and n_owned at origin−6, heap number at
//! origin−5 (13 bits), n_fields and the 1-byte-offsets flag at origin−4..−3,
//! absolute next link at origin−2, then one end offset per field below.

use crate::bytes::{u16_at, u8_at};
use crate::FormatError;
use serde::Serialize;

/// Fixed header bytes of a COMPACT record (`REC_N_NEW_EXTRA_BYTES`).
pub const REC_N_NEW_EXTRA_BYTES: usize = 5;
/// Fixed header bytes of a REDUNDANT record (`REC_N_OLD_EXTRA_BYTES`).
pub const REC_N_OLD_EXTRA_BYTES: usize = 6;
/// Info bit: the record is delete-marked (`REC_INFO_DELETED_FLAG`).
pub const REC_INFO_DELETED_FLAG: u8 = 0x20;
/// Info bit: the smallest record of a non-leaf level (`REC_INFO_MIN_REC_FLAG`).
pub const REC_INFO_MIN_REC_FLAG: u8 = 0x10;
/// Info bit (MySQL 8.0.29+): the record stores its INSTANT row version
/// (`REC_INFO_VERSION_FLAG`), one byte just below the fixed header: at
/// `origin − 6` in COMPACT records, `origin − 7` in REDUNDANT ones, whose
/// field end offsets then start one byte lower (`rec_1_get_field_end_info_low`).
pub const REC_INFO_VERSION_FLAG: u8 = 0x40;
/// Origin of the infimum record on a COMPACT page (`PAGE_NEW_INFIMUM`).
pub const PAGE_NEW_INFIMUM: usize = 99;
/// Origin of the supremum record on a COMPACT page (`PAGE_NEW_SUPREMUM`).
pub const PAGE_NEW_SUPREMUM: usize = 112;
/// End of the supremum record on a COMPACT page (`PAGE_NEW_SUPREMUM_END`).
pub const PAGE_NEW_SUPREMUM_END: usize = 120;
/// Origin of the infimum record on a REDUNDANT page (`PAGE_OLD_INFIMUM`).
pub const PAGE_OLD_INFIMUM: usize = 101;
/// Origin of the supremum record on a REDUNDANT page (`PAGE_OLD_SUPREMUM`).
pub const PAGE_OLD_SUPREMUM: usize = 116;
/// End of the supremum record on a REDUNDANT page (`PAGE_OLD_SUPREMUM_END`).
pub const PAGE_OLD_SUPREMUM_END: usize = 125;
/// Size of a node pointer's child page number (`REC_NODE_PTR_SIZE`).
pub const REC_NODE_PTR_SIZE: usize = 4;

/// The record format of a page (`PAGE_N_HEAP` bit 15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecordFormat {
    /// COMPACT, DYNAMIC and (logical) COMPRESSED.
    Compact,
    /// REDUNDANT.
    Redundant,
}

impl RecordFormat {
    /// Origin of the infimum record.
    pub fn infimum(self) -> usize {
        match self {
            RecordFormat::Compact => PAGE_NEW_INFIMUM,
            RecordFormat::Redundant => PAGE_OLD_INFIMUM,
        }
    }

    /// Origin of the supremum record.
    pub fn supremum(self) -> usize {
        match self {
            RecordFormat::Compact => PAGE_NEW_SUPREMUM,
            RecordFormat::Redundant => PAGE_OLD_SUPREMUM,
        }
    }

    /// End of the system records: where the user record heap starts.
    pub fn supremum_end(self) -> usize {
        match self {
            RecordFormat::Compact => PAGE_NEW_SUPREMUM_END,
            RecordFormat::Redundant => PAGE_OLD_SUPREMUM_END,
        }
    }

    /// Bytes of the fixed record header.
    pub fn extra_bytes(self) -> usize {
        match self {
            RecordFormat::Compact => REC_N_NEW_EXTRA_BYTES,
            RecordFormat::Redundant => REC_N_OLD_EXTRA_BYTES,
        }
    }
}

/// What kind of record (the COMPACT status bits; derived for REDUNDANT).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecordType {
    /// A user record of a leaf page (`REC_STATUS_ORDINARY`).
    Ordinary,
    /// A node pointer of a non-leaf page (`REC_STATUS_NODE_PTR`).
    NodePointer,
    /// The infimum (`REC_STATUS_INFIMUM`).
    Infimum,
    /// The supremum (`REC_STATUS_SUPREMUM`).
    Supremum,
    /// `REC_STATUS_INSTANT` (status 4, MariaDB): a clustered leaf record
    /// holding more fields than the index had before an instant ADD
    /// COLUMN (their count stored before the null bitmap); the metadata
    /// record is one too, told apart by its min-rec flag.
    Instant,
    /// A status value no server writes (5–7).
    Unknown(u8),
}

impl RecordType {
    fn from_status(s: u8) -> Self {
        match s {
            0 => RecordType::Ordinary,
            1 => RecordType::NodePointer,
            2 => RecordType::Infimum,
            3 => RecordType::Supremum,
            4 => RecordType::Instant,
            other => RecordType::Unknown(other),
        }
    }

    /// The type's name, as in JSON.
    pub fn name(self) -> &'static str {
        match self {
            RecordType::Ordinary => "ordinary",
            RecordType::NodePointer => "node_pointer",
            RecordType::Infimum => "infimum",
            RecordType::Supremum => "supremum",
            RecordType::Instant => "instant",
            RecordType::Unknown(_) => "unknown",
        }
    }
}

/// The fixed header of one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RecordHeader {
    /// Origin: page offset of the record's first data byte.
    pub origin: usize,
    /// Info bits (high nibble of the info byte, as stored: 0x20 deleted, 0x10 min-rec).
    pub info_bits: u8,
    /// `n_owned`: records this one owns in the page directory (0 if it owns no slot).
    pub n_owned: u8,
    /// Heap number (0 infimum, 1 supremum, 2.. user records).
    pub heap_no: u16,
    /// Record type.
    #[serde(rename = "type", serialize_with = "ser_type")]
    #[schemars(with = "String")]
    pub record_type: RecordType,
    /// Page offset of the next record's origin, `None` for "no next" (supremum).
    pub next: Option<usize>,
    /// REDUNDANT only: number of fields.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_fields: Option<u16>,
    /// REDUNDANT only: field end offsets are 1 byte each.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub one_byte_offsets: Option<bool>,
}

fn ser_type<S: serde::Serializer>(t: &RecordType, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(t.name())
}

/// `at` within a page of `len` bytes, as InnoDB aligns a COMPACT record's
/// next pointer (`ut_align_offset`): a mask for the page sizes InnoDB has.
fn wrap(at: usize, len: usize) -> usize {
    if len.is_power_of_two() {
        at & (len - 1)
    } else {
        at % len.max(1)
    }
}

impl RecordHeader {
    /// Reads the header of the record at `origin` of a logical page image.
    /// `level_is_leaf` decides the type of REDUNDANT records, which carry no
    /// status bits.
    pub fn parse(
        page: &[u8],
        origin: usize,
        format: RecordFormat,
        level_is_leaf: bool,
    ) -> Result<Self, FormatError> {
        let at = |back: usize, field: &'static str| {
            origin.checked_sub(back).ok_or(FormatError::OutOfBounds {
                field,
                offset: 0,
                len: back,
                available: origin,
            })
        };
        if format == RecordFormat::Compact {
            if let Some(h) = Self::compact(page, origin) {
                return Ok(h);
            }
        }
        match format {
            RecordFormat::Compact => {
                let info = u8_at(page, at(5, "REC_NEW_INFO_BITS")?, "REC_NEW_INFO_BITS")?;
                let hs = u16_at(page, at(4, "REC_NEW_HEAP_NO")?, "REC_NEW_HEAP_NO")?;
                let rel = u16_at(page, at(2, "REC_NEXT")?, "REC_NEXT")?;
                let next = (rel != 0).then(|| wrap(origin + usize::from(rel), page.len()));
                Ok(RecordHeader {
                    origin,
                    info_bits: info & 0xF0,
                    n_owned: info & 0x0F,
                    heap_no: hs >> 3,
                    record_type: RecordType::from_status((hs & 7) as u8),
                    next,
                    n_fields: None,
                    one_byte_offsets: None,
                })
            }
            RecordFormat::Redundant => {
                let info = u8_at(page, at(6, "REC_OLD_INFO_BITS")?, "REC_OLD_INFO_BITS")?;
                let heap = u16_at(page, at(5, "REC_OLD_HEAP_NO")?, "REC_OLD_HEAP_NO")?;
                let nf = u16_at(page, at(4, "REC_OLD_N_FIELDS")?, "REC_OLD_N_FIELDS")?;
                let short = u8_at(page, at(3, "REC_OLD_SHORT")?, "REC_OLD_SHORT")?;
                let next = u16_at(page, at(2, "REC_NEXT")?, "REC_NEXT")?;
                let heap_no = heap >> 3;
                let record_type = match heap_no {
                    0 => RecordType::Infimum,
                    1 => RecordType::Supremum,
                    _ if level_is_leaf => RecordType::Ordinary,
                    _ => RecordType::NodePointer,
                };
                Ok(RecordHeader {
                    origin,
                    info_bits: info & 0xF0,
                    n_owned: info & 0x0F,
                    heap_no,
                    record_type,
                    next: (next != 0).then_some(usize::from(next)),
                    n_fields: Some((nf & 0x07FE) >> 1),
                    one_byte_offsets: Some(short & 1 == 1),
                })
            }
        }
    }

    /// The header of the COMPACT record at `origin`, read in one piece;
    /// `None` when it does not fit on the page (then [`RecordHeader::parse`]
    /// says which field).
    #[inline]
    pub(crate) fn compact(page: &[u8], origin: usize) -> Option<Self> {
        let &[info, h0, h1, n0, n1] = page.get(origin.checked_sub(5)?..origin)? else {
            return None;
        };
        let hs = u16::from_be_bytes([h0, h1]);
        let rel = u16::from_be_bytes([n0, n1]);
        Some(RecordHeader {
            origin,
            info_bits: info & 0xF0,
            n_owned: info & 0x0F,
            heap_no: hs >> 3,
            record_type: RecordType::from_status((hs & 7) as u8),
            next: (rel != 0).then(|| wrap(origin + usize::from(rel), page.len())),
            n_fields: None,
            one_byte_offsets: None,
        })
    }

    /// True when delete-marked.
    pub fn is_deleted(&self) -> bool {
        self.info_bits & REC_INFO_DELETED_FLAG != 0
    }

    /// True when the min-rec flag is set.
    pub fn is_min_rec(&self) -> bool {
        self.info_bits & REC_INFO_MIN_REC_FLAG != 0
    }

    /// True for a user record (not infimum or supremum).
    pub fn is_user(&self) -> bool {
        !matches!(self.record_type, RecordType::Infimum | RecordType::Supremum)
    }

    /// REDUNDANT only: the bytes below the fixed header before the field end
    /// offsets: 1 when the record stores a row version (MySQL 8.0.29+
    /// INSTANT ADD/DROP), else 0.
    pub fn redundant_version_bytes(&self) -> usize {
        usize::from(self.info_bits & REC_INFO_VERSION_FLAG != 0)
    }

    /// REDUNDANT only: the record's INSTANT row version (the byte at
    /// `origin − 7` when its info bits carry `REC_INFO_VERSION_FLAG`, else
    /// 0). The record stores the fields of that version alone, its
    /// `n_fields` counting them.
    pub fn redundant_row_version(&self, page: &[u8]) -> Result<u8, FormatError> {
        if self.redundant_version_bytes() == 0 {
            return Ok(0);
        }
        let at =
            self.origin
                .checked_sub(REC_N_OLD_EXTRA_BYTES + 1)
                .ok_or(FormatError::OutOfBounds {
                    field: "REC_OLD row version",
                    offset: 0,
                    len: 1,
                    available: self.origin,
                })?;
        u8_at(page, at, "REC_OLD row version")
    }

    /// REDUNDANT only: the end offset (relative to the origin) of the last
    /// field, i.e. the record's data size, and the size of its offset array
    /// (with the row version byte, when there is one).
    pub fn redundant_extent(&self, page: &[u8]) -> Result<Option<(usize, usize)>, FormatError> {
        let (Some(n), Some(short)) = (self.n_fields, self.one_byte_offsets) else {
            return Ok(None);
        };
        let n = usize::from(n);
        if n == 0 {
            return Ok(Some((0, 0)));
        }
        let width = if short { 1 } else { 2 };
        let version = self.redundant_version_bytes();
        // Field i's end offset sits at origin − 6 − version − width·(i + 1).
        let at = self
            .origin
            .checked_sub(REC_N_OLD_EXTRA_BYTES + version + width * n)
            .ok_or(FormatError::OutOfBounds {
                field: "REC_OLD field end offsets",
                offset: 0,
                len: width * n,
                available: self.origin,
            })?;
        let end = if short {
            usize::from(u8_at(page, at, "REC_OLD field end offset")? & 0x7F)
        } else {
            usize::from(u16_at(page, at, "REC_OLD field end offset")? & 0x3FFF)
        };
        Ok(Some((end, version + width * n)))
    }
}

/// Where one field of a record is (REDUNDANT records say it themselves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FieldRef {
    /// Offset of the field's first byte from the record origin.
    pub start: usize,
    /// Bytes the field takes in the record.
    pub len: usize,
    /// SQL NULL.
    pub null: bool,
    /// Stored off-page: the last 20 bytes are the reference.
    pub external: bool,
}

impl RecordHeader {
    /// REDUNDANT only: every stored field's place, from the field end
    /// offsets below the header and the row version byte, if any (1-byte
    /// form: 0x80 = NULL; 2-byte form: 0x8000 NULL, 0x4000 external).
    pub fn redundant_fields(&self, page: &[u8]) -> Result<Vec<FieldRef>, FormatError> {
        let (Some(n), Some(short)) = (self.n_fields, self.one_byte_offsets) else {
            return Ok(Vec::new());
        };
        let version = self.redundant_version_bytes();
        let mut out = Vec::with_capacity(usize::from(n));
        let mut start = 0usize;
        for i in 0..usize::from(n) {
            let width = if short { 1 } else { 2 };
            let at = self
                .origin
                .checked_sub(REC_N_OLD_EXTRA_BYTES + version + width * (i + 1))
                .ok_or(FormatError::OutOfBounds {
                    field: "REC_OLD field end offsets",
                    offset: 0,
                    len: width,
                    available: self.origin,
                })?;
            let (end, null, external) = if short {
                let v = u8_at(page, at, "REC_OLD field end offset")?;
                (usize::from(v & 0x7F), v & 0x80 != 0, false)
            } else {
                let v = u16_at(page, at, "REC_OLD field end offset")?;
                (usize::from(v & 0x3FFF), v & 0x8000 != 0, v & 0x4000 != 0)
            };
            out.push(FieldRef {
                start,
                len: end.saturating_sub(start),
                null,
                external,
            });
            start = end;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A REDUNDANT record of row version 3 as MySQL 9.7 wrote it
    /// (t_inst_redundant, page 5): 7 one-byte end offsets, the version byte,
    /// the 6 header bytes (info bits 0x40), then the fields.
    #[test]
    fn redundant_record_with_a_row_version() {
        let mut page = vec![0u8; 64];
        let before = [
            0x20, 0x1d, 0x19, 0x15, 0x11, 0x0a, 0x04, 0x03, 0x40, 0x0c, 0x28, 0x0f, 0x00, 0xb0,
        ];
        let origin = 20;
        page[origin - before.len()..origin].copy_from_slice(&before);
        let r = RecordHeader::parse(&page, origin, RecordFormat::Redundant, true).unwrap();
        assert_eq!(
            (r.info_bits, r.n_fields, r.one_byte_offsets),
            (0x40, Some(7), Some(true))
        );
        assert_eq!(r.redundant_row_version(&page).unwrap(), 3);
        let ends: Vec<usize> = r
            .redundant_fields(&page)
            .unwrap()
            .iter()
            .map(|f| f.start + f.len)
            .collect();
        assert_eq!(ends, [4, 10, 17, 21, 25, 29, 32]);
        assert_eq!(r.redundant_extent(&page).unwrap(), Some((32, 8)));
        // The same record without the flag: no version, offsets from − 7.
        page[origin - 6] = 0;
        let r = RecordHeader::parse(&page, origin, RecordFormat::Redundant, true).unwrap();
        assert_eq!(r.redundant_row_version(&page).unwrap(), 0);
        assert_eq!(r.redundant_fields(&page).unwrap()[0].len, 3);
    }
}

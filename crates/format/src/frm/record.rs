//! The default-values record of a `.frm` (`reclength` bytes after the key
//! information): the row the server starts every INSERT from, in the
//! server's own record format. It begins with the null flags (a bit for
//! each column that can be NULL, and for the odd bits of BIT columns);
//! each column's bytes start at its record position.

use super::column::{field_type, pack_flag, ColumnRecord};
use crate::bytes::{slice, u8_at};
use crate::FormatError;

/// Where column `c`'s null flag is: (byte, bit mask), for each column in
/// order, `None` for one that cannot be NULL. `pack_record`: the table
/// option `HA_OPTION_PACK_RECORD` (else bit 0 is the deleted mark).
pub fn null_bits(columns: &[ColumnRecord], pack_record: bool) -> Vec<Option<(usize, u8)>> {
    let mut pos = usize::from(!pack_record);
    columns
        .iter()
        .map(|c| {
            let bit = c.nullable().then(|| {
                let b = (pos / 8, 1u8 << (pos % 8));
                pos += 1;
                b
            });
            if c.field_type == field_type::BIT && c.pack_flag & pack_flag::TREAT_BIT_AS_CHAR == 0 {
                pos += usize::from(c.length) % 8;
            }
            bit
        })
        .collect()
}

/// The default of a column as the record holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordDefault {
    /// NULL.
    Null,
    /// The field's bytes.
    Bytes(Vec<u8>),
}

/// The default of column `c` in the record `rec` (at file offset `base`),
/// whose null flag is `null`; `len`: the field's bytes.
pub fn default_of(
    rec: &[u8],
    base: usize,
    c: &ColumnRecord,
    null: Option<(usize, u8)>,
    len: usize,
) -> Result<RecordDefault, FormatError> {
    let at = |e| super::forminfo::shift(e, base);
    if let Some((byte, mask)) = null {
        if u8_at(rec, byte, "record null flags").map_err(at)? & mask != 0 {
            return Ok(RecordDefault::Null);
        }
    }
    let start = (c.recpos as usize).saturating_sub(1);
    Ok(RecordDefault::Bytes(
        slice(rec, start, len, "record field").map_err(at)?.to_vec(),
    ))
}

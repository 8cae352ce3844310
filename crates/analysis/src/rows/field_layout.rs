//! Where each field of a leaf record is, by the index's fields: the
//! per-record layout that `records` reads rows with, and that the MariaDB
//! instant-ALTER metadata record and node pointers are read with too. It
//! depends on no other row-decoding file but the schema's field types and
//! the instant row versions, so `records` and `mariadb_instant` both use
//! it without depending on each other.

use crate::rows::instant;
use crate::rows::schema::IndexField;
use innodb_format::index::record::{RecordFormat, RecordHeader, RecordType};

/// Where one field of a record is.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Place {
    /// Offset from the record origin.
    pub(crate) start: usize,
    /// Bytes in the record.
    pub(crate) len: usize,
    /// SQL NULL.
    pub(crate) null: bool,
    /// Ends with a 20-byte reference to off-page data.
    pub(crate) external: bool,
    /// Not stored in a record of this row version (INSTANT ADD/DROP).
    pub(crate) absent: bool,
}

/// Where each field of a COMPACT leaf record is. A record carrying a row
/// version stores only the fields of that version, its null bitmap
/// covering those alone.
///
/// `mariadb_core`: the clustered index's `n_core_fields` after a MariaDB
/// instant ALTER: an ordinary record holds that many fields, a
/// `REC_STATUS_INSTANT` one says how many more before its null bitmap.
pub(crate) fn compact_fields(
    page: &[u8],
    rec: &RecordHeader,
    fields: &[IndexField],
    mariadb_core: Option<usize>,
) -> Option<(Vec<Place>, usize)> {
    let mut places = Vec::with_capacity(fields.len());
    let before = compact_fields_into(page, rec, fields, mariadb_core, &mut places)?;
    Some((places, before))
}

/// [`compact_fields`] into `out` (emptied first, its allocation reused
/// from record to record); returns the bytes before the origin.
pub(crate) fn compact_fields_into(
    page: &[u8],
    rec: &RecordHeader,
    fields: &[IndexField],
    mariadb_core: Option<usize>,
    out: &mut Vec<Place>,
) -> Option<usize> {
    out.clear();
    let (stored_n, version, version_bytes) = match mariadb_core {
        Some(n_core) if rec.record_type == RecordType::Instant => {
            let (n_add, bytes) = n_add_fields(page, rec.origin)?;
            (Some(n_core + 1 + n_add), 0, bytes)
        }
        Some(n_core) => (Some(n_core), 0, 0),
        None => {
            let (v, bytes) = instant::row_version(page, rec.origin, rec.info_bits)?;
            (None, v, bytes)
        }
    };
    let stored_at = |i: usize, f: &IndexField| match stored_n {
        Some(n) => i < n,
        None => f.instant.stored_in(version),
    };
    let n_nullable = fields
        .iter()
        .enumerate()
        .filter(|(i, f)| stored_at(*i, f) && f.column_type.nullable())
        .count();
    let extra = |i: usize| {
        rec.origin
            .checked_sub(6 + version_bytes + i)
            .and_then(|a| page.get(a).copied())
    };
    let mut null_i = 0usize;
    let mut len_at = n_nullable.div_ceil(8);
    let mut start = 0usize;
    for (i, f) in fields.iter().enumerate() {
        if !stored_at(i, f) {
            out.push(Place {
                start,
                absent: true,
                ..Place::default()
            });
            continue;
        }
        let t = &f.column_type;
        if t.nullable() {
            let is_null = extra(null_i / 8)? >> (null_i % 8) & 1 == 1;
            null_i += 1;
            if is_null {
                out.push(Place {
                    start,
                    null: true,
                    ..Place::default()
                });
                continue;
            }
        }
        let (len, external) = match t.fixed_size() {
            Some(n) => (n, false),
            None => {
                let b = usize::from(extra(len_at)?);
                len_at += 1;
                if t.big() && b & 0x80 != 0 {
                    let v = (b << 8) | usize::from(extra(len_at)?);
                    len_at += 1;
                    (v & 0x3fff, v & 0x4000 != 0)
                } else {
                    (b, false)
                }
            }
        };
        out.push(Place {
            start,
            len,
            external,
            ..Place::default()
        });
        start += len;
    }
    // The 5 header bytes, the version byte, the null bitmap and the lengths.
    Some(5 + version_bytes + len_at)
}

/// Where each field of the leaf record `r` is, in either record format,
/// into `out` (its allocation reused): `None` when its layout does not fit
/// the index's `fields`.
///
/// `mariadb_core`: as for [`compact_fields`]; a REDUNDANT record may then
/// hold fewer fields than the index (the others are marked absent).
pub(crate) fn leaf_places_into(
    bytes: &[u8],
    r: &RecordHeader,
    format: RecordFormat,
    fields: &[IndexField],
    mariadb_core: Option<usize>,
    out: &mut Vec<Place>,
) -> Option<()> {
    match format {
        RecordFormat::Compact => {
            compact_fields_into(bytes, r, fields, mariadb_core, out)?;
        }
        RecordFormat::Redundant => *out = redundant_fields(bytes, r, fields, mariadb_core)?,
    }
    Some(())
}

/// Where each field of a REDUNDANT leaf record is. A record carrying a
/// MySQL row version (8.0.29+ INSTANT ADD/DROP) stores the fields of that
/// version alone, its `n_fields` counting them, the others marked absent;
/// after a MariaDB instant ADD (`mariadb_core`) or a MySQL 8.0.12–8.0.28
/// one a record may hold fewer trailing fields than the index, the others
/// taking their defaults.
fn redundant_fields(
    bytes: &[u8],
    r: &RecordHeader,
    fields: &[IndexField],
    mariadb_core: Option<usize>,
) -> Option<Vec<Place>> {
    let stored = r.redundant_fields(bytes).ok()?;
    let version = match mariadb_core {
        Some(_) => None,
        None if r.redundant_version_bytes() == 1 => Some(r.redundant_row_version(bytes).ok()?),
        None => None,
    };
    let mut stored = stored.into_iter();
    let mut end = 0;
    let mut places = Vec::with_capacity(fields.len());
    match version {
        Some(v) => {
            let want = fields.iter().filter(|f| f.instant.stored_in(v)).count();
            if stored.len() != want {
                return None;
            }
            for f in fields {
                let place = if f.instant.stored_in(v) {
                    let s = stored.next()?;
                    end = s.start + s.len;
                    Place {
                        start: s.start,
                        len: s.len,
                        null: s.null,
                        external: s.external,
                        absent: false,
                    }
                } else {
                    Place {
                        start: end,
                        absent: true,
                        ..Place::default()
                    }
                };
                places.push(place);
            }
        }
        None => {
            // A record of no row version holds the fields there before the
            // first INSTANT ALTER (MySQL: those of version 0, dropped ones
            // included), or, after a MariaDB instant ADD, at least the core
            // ones; those it does not hold take their defaults.
            let least = match mariadb_core {
                Some(n) => n,
                None => fields.iter().filter(|f| f.instant.stored_in(0)).count(),
            };
            if stored.len() > fields.len() || stored.len() < least {
                return None;
            }
            // Columns added later are the last physical fields: the
            // record holds a prefix.
            for _ in fields {
                let place = match stored.next() {
                    Some(s) => {
                        end = s.start + s.len;
                        Place {
                            start: s.start,
                            len: s.len,
                            null: s.null,
                            external: s.external,
                            absent: false,
                        }
                    }
                    None => Place {
                        start: end,
                        absent: true,
                        ..Place::default()
                    },
                };
                places.push(place);
            }
        }
    }
    Some(places)
}

/// How many fields a `REC_STATUS_INSTANT` record has beyond
/// `n_core_fields + 1`, and the bytes that count takes before the null
/// bitmap (`rec_get_n_add_field`); `None` when off the page.
pub fn n_add_fields(page: &[u8], origin: usize) -> Option<(usize, usize)> {
    let b = usize::from(*page.get(origin.checked_sub(6)?)?);
    if b < 0x80 {
        return Some((b, 1));
    }
    let high = usize::from(*page.get(origin.checked_sub(7)?)?);
    Some(((b & 0x7F) | (high << 7), 2))
}

//! MariaDB's instant ALTER TABLE (10.3+ ADD COLUMN, 10.4+ DROP COLUMN and
//! column reordering) as it shows in a clustered index.
//!
//! The root page turns into `FIL_PAGE_TYPE_INSTANT` (18) and keeps in the
//! high 13 bits of `PAGE_DIRECTION` (`PAGE_INSTANT`) the index's field count
//! before the first instant ALTER, `n_core_fields`. The first record of the
//! leftmost leaf, flagged min-rec, is the *metadata record*: it holds every
//! field, its values being the defaults of the columns added since. Records
//! written before an ADD keep `n_core_fields` fields (status ordinary); those
//! written after have status `REC_STATUS_INSTANT` (4) and store, just before
//! the null bitmap, how many fields they have beyond `n_core_fields + 1`
//! (one byte, or two when its high bit is set). Fields a record lacks take
//! the metadata record's value.
//!
//! After an instant DROP or a reorder the metadata record is also
//! delete-marked and carries, right after `DB_ROLL_PTR`, an off-page BLOB
//! with the column map ([`instant_field_map`]): dropped columns stay in the
//! records, in place, and the table's columns are found by position.

use crate::rows::field_layout::{compact_fields, n_add_fields};
use crate::rows::off_page::blob;
use crate::rows::schema::{IndexField, Schema};
use innodb_format::fil::page_type::PageType;
use innodb_format::index::header::IndexHeader;
use innodb_format::index::instant_field_map::{self, FieldMapEntry};
use innodb_format::index::page::{IndexPage, RecordList};
use innodb_format::index::record::{RecordFormat, RecordHeader};
use innodb_format::index::sdi::{ExternRef, BTR_EXTERN_FIELD_REF_SIZE};
use innodb_format::value::column_value::{ColumnType, DATA_BINARY, DATA_FIXBINARY, DATA_NOT_NULL};
use innodb_space::btree;
use innodb_space::logical_pages::LogicalPages;

/// A clustered index after MariaDB instant ALTERs.
#[derive(Debug, Clone)]
pub struct MariaInstant {
    /// `n_core_fields`: fields of records written before the first ALTER.
    pub n_core: usize,
    /// The index's fields in physical order (dropped columns included,
    /// named `!dropped_<n>`), each with its instant default.
    pub fields: Vec<IndexField>,
    /// The metadata record carries a column map (instant DROP or reorder).
    pub column_map: bool,
}

/// Reads the instant-ALTER state of the clustered index rooted at `root`
/// whose fields the schema gives as `fields`: `Ok(None)` when its root is
/// an ordinary INDEX page (no instant ALTER, or not MariaDB).
pub fn prepare(
    pages: &mut LogicalPages<'_>,
    root: u32,
    schema: &Schema,
    fields: &[IndexField],
) -> Result<Option<MariaInstant>, String> {
    let mut buf = Vec::new();
    let check = pages
        .read_into(root, &mut buf)
        .ok_or_else(|| format!("root page {root} cannot be read"))?;
    if check.page_type != PageType::SDI_BLOB_OR_INSTANT
        || pages.space().format().vendor != innodb_format::vendor::Vendor::MariaDb
    {
        return Ok(None);
    }
    let header = IndexHeader::parse(&buf).map_err(|e| format!("root page {root}: {e}"))?;
    let n_core = usize::from(header.direction_raw >> 3);
    if n_core == 0 || n_core > fields.len() + 64 {
        return Err(format!(
            "root page {root}: PAGE_INSTANT gives {n_core} core fields for an index of {}",
            fields.len()
        ));
    }
    // The leftmost leaf: follow the first node pointer down, one page per level.
    let mut list = RecordList::default();
    let mut page_no = root;
    for _ in 0..=header.level {
        let header = IndexHeader::parse(&buf).map_err(|e| format!("page {page_no}: {e}"))?;
        let page = IndexPage::new(&buf, header);
        let mut problems = Vec::new();
        page.walk(&mut list, &mut problems);
        let first = *list
            .records
            .first()
            .ok_or_else(|| format!("page {page_no}: no record to find the metadata record by"))?;
        if page.header.level == 0 {
            return metadata(
                pages,
                page_no,
                &buf,
                page.format,
                &first,
                n_core,
                schema,
                fields,
            )
            .map(Some);
        }
        let mut heap: Vec<usize> = list.records.iter().map(|r| r.origin).collect();
        heap.sort_unstable();
        let child = btree::resolve_child(pages, &page, &first, &heap)
            .ok_or_else(|| format!("page {page_no}: the first node pointer leads nowhere"))?;
        page_no = child;
        pages
            .read_into(page_no, &mut buf)
            .ok_or_else(|| format!("page {page_no} cannot be read"))?;
    }
    Err(format!("no leaf below root page {root}"))
}

/// Reads the metadata record `rec` on leaf `page_no`.
#[allow(clippy::too_many_arguments)]
fn metadata(
    pages: &mut LogicalPages<'_>,
    page_no: u32,
    page: &[u8],
    format: RecordFormat,
    rec: &RecordHeader,
    n_core: usize,
    schema: &Schema,
    fields: &[IndexField],
) -> Result<MariaInstant, String> {
    let at = |what: &str| format!("page {page_no}, metadata record at {}: {what}", rec.origin);
    if !rec.is_min_rec() {
        return Err(at(
            "the leftmost leaf's first record is not flagged as metadata",
        ));
    }
    if format != RecordFormat::Compact {
        return Err(at("instant ALTER of a REDUNDANT table is not decoded yet"));
    }
    let column_map = rec.is_deleted();
    let mut fields = fields.to_vec();
    let n_first = fields
        .iter()
        .position(|f| f.name == "DB_ROLL_PTR")
        .map(|i| i + 1)
        .ok_or_else(|| at("the index has no DB_ROLL_PTR"))?;
    if column_map {
        fields = mapped_fields(pages, page, rec, n_core, schema, &fields, n_first)
            .map_err(|e| at(&e))?;
    }
    // The metadata record holds every field (and, with a map, the BLOB).
    let mut read_as = fields.clone();
    if column_map {
        read_as.insert(n_first, metadata_blob_field());
    }
    let (places, _) = compact_fields(page, rec, &read_as, Some(n_core))
        .ok_or_else(|| at("its fields do not fit the page"))?;
    let mut places = places;
    if column_map {
        places.remove(n_first);
    }
    for (i, (f, p)) in fields.iter_mut().zip(&places).enumerate() {
        if i < n_core {
            continue;
        }
        f.instant.default = if p.null || p.absent || p.external {
            None
        } else {
            let b = page
                .get(rec.origin + p.start..rec.origin + p.start + p.len)
                .ok_or_else(|| at("a default value runs off the page"))?;
            Some(b.to_vec())
        };
    }
    Ok(MariaInstant {
        n_core,
        fields,
        column_map,
    })
}

/// The metadata BLOB's place in the metadata record: its 20-byte
/// reference, stored without length bytes (`rec_init_offsets` reads it as
/// a fixed `FIELD_REF_SIZE`).
fn metadata_blob_field() -> IndexField {
    IndexField::plain(
        "(instant ALTER column map)",
        ColumnType {
            mtype: DATA_FIXBINARY,
            prtype: DATA_NOT_NULL | (63 << 16),
            len: BTR_EXTERN_FIELD_REF_SIZE as u32,
        },
    )
}

/// The index's fields from the metadata BLOB's column map: the first
/// `n_first` (key, DB_TRX_ID, DB_ROLL_PTR) as they are, then per map entry
/// the table column at that position or a dropped column.
fn mapped_fields(
    pages: &mut LogicalPages<'_>,
    page: &[u8],
    rec: &RecordHeader,
    n_core: usize,
    schema: &Schema,
    fields: &[IndexField],
    n_first: usize,
) -> Result<Vec<IndexField>, String> {
    if schema.columns.is_empty() {
        return Err("the schema does not give the table's columns in dictionary order".into());
    }
    // Where the BLOB reference is depends on the null bitmap's size, which
    // depends on the map: try each size and keep the one that agrees.
    let Some(first) = fields.get(..n_first) else {
        return Err(format!(
            "the index has {} fields, fewer than the {n_first} up to DB_ROLL_PTR",
            fields.len()
        ));
    };
    let mut buf = Vec::new();
    let mut last_error = String::from("no null bitmap size fits");
    for null_bytes in 0..=(fields.len() + 64).div_ceil(8) {
        let Some(reference) = blob_reference(page, rec, first, null_bytes) else {
            continue;
        };
        let want = usize::try_from(reference.length)
            .unwrap_or(usize::MAX)
            .min(1 << 16);
        let bytes = match blob(pages, reference, &mut buf) {
            Ok(b) => b.bytes,
            Err(e) => {
                last_error = format!("column map BLOB: {e}");
                continue;
            }
        };
        let map = match instant_field_map::parse(bytes.get(..want).unwrap_or(bytes.as_slice())) {
            Ok(m) => m,
            Err(e) => {
                last_error = format!("column map: {e}");
                continue;
            }
        };
        let mut out: Vec<IndexField> = first.to_vec();
        let mut dropped = 0;
        for e in &map {
            out.push(match *e {
                FieldMapEntry::Column(ind) => schema
                    .columns
                    .get(usize::from(ind))
                    .cloned()
                    .ok_or_else(|| {
                        format!("column map: column {ind} of {}", schema.columns.len())
                    })?,
                FieldMapEntry::Dropped {
                    not_null,
                    fixed_len,
                    big,
                } => {
                    dropped += 1;
                    IndexField::plain(
                        &format!("!dropped_{dropped}"),
                        ColumnType {
                            mtype: if fixed_len.is_some() {
                                DATA_FIXBINARY
                            } else {
                                DATA_BINARY
                            },
                            prtype: if not_null { DATA_NOT_NULL } else { 0 } | (63 << 16),
                            len: fixed_len.map_or(if big { 65535 } else { 255 }, u32::from),
                        },
                    )
                }
            });
        }
        // The size tried must be the one these fields give the metadata
        // record (which holds them all, plus the BLOB, which is NOT NULL).
        let (n_add, _) = n_add_fields(page, rec.origin)
            .ok_or_else(|| "the metadata record's field count is off the page".to_string())?;
        let stored = (n_core + 1 + n_add).min(out.len() + 1);
        let nullable = out
            .iter()
            .take(stored)
            .filter(|f| f.column_type.nullable())
            .count();
        if nullable.div_ceil(8) == null_bytes {
            return Ok(out);
        }
        last_error = format!(
            "the column map gives {nullable} nullable fields, not the {null_bytes} null-bitmap bytes read with"
        );
    }
    Err(last_error)
}

/// The 20-byte BLOB reference after the first `n_first` fields of the
/// metadata record, reading its lengths past a null bitmap of `null_bytes`.
fn blob_reference(
    page: &[u8],
    rec: &RecordHeader,
    first: &[IndexField],
    null_bytes: usize,
) -> Option<ExternRef> {
    let (_, count_bytes) = n_add_fields(page, rec.origin)?;
    let mut len_at = rec.origin.checked_sub(6 + count_bytes + null_bytes)?;
    let mut start = 0usize;
    for f in first {
        let len = match f.column_type.fixed_size() {
            Some(n) => n,
            None => {
                let b = usize::from(*page.get(len_at)?);
                len_at = len_at.checked_sub(1)?;
                if f.column_type.big() && b & 0x80 != 0 {
                    let v = (b << 8) | usize::from(*page.get(len_at)?);
                    len_at = len_at.checked_sub(1)?;
                    v & 0x3FFF
                } else {
                    b
                }
            }
        };
        start += len;
    }
    // The BLOB reference itself has no length bytes: it is always 20.
    ExternRef::parse(page.get(rec.origin + start..rec.origin + start + BTR_EXTERN_FIELD_REF_SIZE)?)
        .ok()
}

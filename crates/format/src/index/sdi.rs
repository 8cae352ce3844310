//! Serialized Dictionary Information (MySQL 8.0+, `dict0sdi.h`): the SDI
//! index's leaf records. Each is `type` (4, unsigned), `id` (8, unsigned),
//! `DB_TRX_ID` (6), `DB_ROLL_PTR` (7), the uncompressed length (4), the
//! compressed length (4) and `data`: zlib-compressed JSON, stored in the
//! record or, when long, in a chain of SDI BLOB pages whose 20-byte
//! reference ends the field.

use crate::bytes::{slice, u16_at, u64_at, u8_at};
use crate::context::PageContext;
use crate::field::{Field, Pointer};
use crate::index::header::IndexHeader;
use crate::index::page::{IndexPage, RecordList};
use crate::index::record::{RecordFormat, RecordHeader};
use crate::layout::{layout, U48, U56};
pub use crate::lob::blob_page::{
    blob_part, BTR_BLOB_HDR_NEXT_PAGE_NO, BTR_BLOB_HDR_PART_LEN, BTR_BLOB_HDR_SIZE,
};
use crate::lob::field_ref::{LobRef, BTR_EXTERN_LEN};
use crate::section::Body;
use crate::FormatError;
use serde::Serialize;

layout! {
    /// The fixed-length fields of an SDI record (`CLUST_IND_SDI` of
    /// `dict_sdi_create_idx_in_mem`), offsets from the record's origin;
    /// `data` follows them.
    pub struct SdiRecordFixed {
        /// Offset 0 (`type`, 4 bytes): the object type, 1 table, 2 tablespace.
        SDI_TYPE "type" @ 0 => sdi_type: u32;
        /// Offset 4 (`id`, 8 bytes): the object id.
        SDI_ID "id" @ 4 => id: u64;
        /// Offset 12 (`DB_TRX_ID`, 6 bytes): the transaction that wrote the record.
        SDI_DB_TRX_ID "DB_TRX_ID" @ 12 => trx_id: U48;
        /// Offset 18 (`DB_ROLL_PTR`, 7 bytes): where the undo log keeps the
        /// record's previous version.
        SDI_DB_ROLL_PTR "DB_ROLL_PTR" @ 18 => roll_ptr: U56, points roll_ptr;
        /// Offset 25 (4 bytes): the length of the JSON once inflated. The
        /// server's in-memory index names this column `compressed_len`, but
        /// `ib_sdi_set` writes the uncompressed length here.
        SDI_UNCOMPRESSED_LEN "uncompressed_len" @ 25 => uncompressed_len: u32;
        /// Offset 29 (4 bytes): the length of the zlib stream (the
        /// in-memory index's `uncompressed_len` column).
        SDI_COMPRESSED_LEN "compressed_len" @ 29 => compressed_len: u32;
    }
}

/// `PAGE_INDEX_ID` of the SDI index (`dict_sdi_get_index_id`: 2^64 − 1).
pub const SDI_INDEX_ID: u64 = u64::MAX;

/// An index id as reports show it: `SDI` for the SDI index, else the number.
pub fn index_id_text(id: u64) -> String {
    if id == SDI_INDEX_ID {
        "SDI".to_string()
    } else {
        id.to_string()
    }
}

/// Bytes of the fixed fields before `data`: type, id, trx id, roll ptr, two lengths.
pub const SDI_FIXED_BYTES: usize = SdiRecordFixed::END;
/// Size of an external field reference (`BTR_EXTERN_FIELD_REF_SIZE`).
pub const BTR_EXTERN_FIELD_REF_SIZE: usize = crate::lob::field_ref::LOB_REF_SIZE;

/// Where an off-page column continues (`BTR_EXTERN_*` of the 20-byte reference).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ExternRef {
    /// `BTR_EXTERN_SPACE_ID` (offset 0).
    pub space_id: u32,
    /// `BTR_EXTERN_PAGE_NO` (offset 4): first BLOB page.
    pub page_no: u32,
    /// `BTR_EXTERN_OFFSET` (offset 8): where the part header starts on that page.
    pub offset: u32,
    /// `BTR_EXTERN_LEN` (offset 12, low 4 of 8 bytes): bytes stored off-page.
    pub length: u64,
}

impl ExternRef {
    /// Reads a reference from 20 bytes (laid out as [`LobRef`]).
    pub fn parse(b: &[u8]) -> Result<Self, FormatError> {
        let r = LobRef::parse(b)?;
        Ok(ExternRef {
            space_id: r.space_id,
            page_no: r.page_no,
            offset: r.offset_or_version,
            // The top bits of the 8-byte length hold the owner and inherited flags.
            length: u64_at(b, BTR_EXTERN_LEN, "BTR_EXTERN_LEN")? & 0x0000_00FF_FFFF_FFFF,
        })
    }
}

/// One SDI record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SdiRecord {
    /// Object type: 1 table, 2 tablespace.
    pub sdi_type: u32,
    /// Object id.
    pub id: u64,
    /// Length of the JSON once inflated.
    pub uncompressed_len: u32,
    /// Length of the zlib stream.
    pub compressed_len: u32,
    /// The zlib bytes stored in the record (all of them, or the local prefix).
    pub local: Vec<u8>,
    /// Where the rest is, for a record whose data is stored off-page.
    pub external: Option<ExternRef>,
}

/// Reads the SDI record at `rec` of a leaf page of the SDI index.
pub fn parse_record(
    page: &[u8],
    rec: &RecordHeader,
    format: RecordFormat,
) -> Result<SdiRecord, FormatError> {
    let o = rec.origin;
    let (data_len, ext) = match format {
        RecordFormat::Compact => {
            // No nullable field: the only length is data's, 1 or 2 bytes below the header.
            let b1 = u8_at(
                page,
                o.checked_sub(6).unwrap_or(usize::MAX),
                "SDI data length",
            )?;
            if b1 & 0x80 != 0 {
                let b2 = u8_at(
                    page,
                    o.checked_sub(7).unwrap_or(usize::MAX),
                    "SDI data length",
                )?;
                let v = (usize::from(b1) << 8) | usize::from(b2);
                (v & 0x3fff, v & 0x4000 != 0)
            } else {
                (usize::from(b1), false)
            }
        }
        RecordFormat::Redundant => {
            // Field 6 (data) ends where the record ends; it starts where field 5 ends.
            let short = rec.one_byte_offsets.unwrap_or(false);
            let at = |i: usize| {
                o.checked_sub(6 + if short { i + 1 } else { 2 * (i + 1) })
                    .unwrap_or(usize::MAX)
            };
            let (end5, end6) = if short {
                (
                    usize::from(u8_at(page, at(5), "SDI field end")? & 0x7f),
                    usize::from(u8_at(page, at(6), "SDI field end")? & 0x7f),
                )
            } else {
                (
                    usize::from(u16_at(page, at(5), "SDI field end")?),
                    usize::from(u16_at(page, at(6), "SDI field end")?),
                )
            };
            let ext = !short && end6 & 0x4000 != 0;
            ((end6 & 0x3fff).saturating_sub(end5 & 0x3fff), ext)
        }
    };
    let fixed = SdiRecordFixed::parse_at(page, o)?;
    let data = slice(page, o + SDI_FIXED_BYTES, data_len, "SDI data")?;
    let (local, external) = if ext {
        let (local, reference) = data_len
            .checked_sub(BTR_EXTERN_FIELD_REF_SIZE)
            .and_then(|split| data.split_at_checked(split))
            .ok_or_else(|| FormatError::BadValue {
                field: "SDI data",
                offset: o + SDI_FIXED_BYTES,
                reason: "external field shorter than its reference".into(),
            })?;
        (local.to_vec(), Some(ExternRef::parse(reference)?))
    } else {
        (data.to_vec(), None)
    };
    Ok(SdiRecord {
        sdi_type: fixed.sdi_type,
        id: fixed.id,
        uncompressed_len: fixed.uncompressed_len,
        compressed_len: fixed.compressed_len,
        local,
        external,
    })
}

/// The largest SDI object accepted (the server's are a few KiB to a few
/// hundred KiB): a damaged length field cannot make us allocate more.
pub const MAX_SDI_BYTES: usize = 64 << 20;

/// Inflates an SDI record's zlib data into the JSON text, which must be
/// `uncompressed_len` bytes long.
pub fn inflate(data: &[u8], uncompressed_len: usize) -> Result<Vec<u8>, FormatError> {
    let fail = |reason: String| FormatError::Decompress {
        field: "SDI data",
        offset: 0,
        reason,
    };
    if uncompressed_len > MAX_SDI_BYTES {
        return Err(fail(format!(
            "the record claims {uncompressed_len} bytes of JSON, more than {MAX_SDI_BYTES}"
        )));
    }
    let mut out = vec![0u8; uncompressed_len];
    let mut z = flate2::Decompress::new(true);
    let status = z
        .decompress(data, &mut out, flate2::FlushDecompress::Finish)
        .map_err(|e| fail(e.to_string()))?;
    if status != flate2::Status::StreamEnd || z.total_out() as usize != uncompressed_len {
        return Err(fail(format!(
            "inflated {} bytes, the record says {uncompressed_len}",
            z.total_out()
        )));
    }
    Ok(out)
}

/// One section per record of an SDI leaf page: its fixed fields (`type`,
/// `id`, the system columns, the two lengths), the bytes of `data` kept in
/// the record and, for an object stored off-page, the reference to its
/// first SDI BLOB page. The records are walked from the infimum; the walk's
/// problems are the index page's, reported with its records.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    let Ok(h) = IndexHeader::parse(page) else {
        return;
    };
    if h.level != 0 {
        return;
    }
    let index_page = IndexPage::new(page, h);
    let mut list = RecordList::default();
    index_page.walk(&mut list, &mut Vec::new());
    for rec in &list.records {
        let o = rec.origin;
        let (Some(fixed), Some(r)) = (
            body.keep(SdiRecordFixed::parse_at(page, o)),
            body.keep(parse_record(page, rec, index_page.format)),
        ) else {
            continue;
        };
        let mut fields = fixed.fields_at(o, ctx);
        let data_at = o + SDI_FIXED_BYTES;
        fields.push(Field::with_meaning(
            data_at,
            r.local.len(),
            "data",
            r.local.len() as u64,
            match r.external {
                None => format!("{} bytes of zlib stream in the record", r.local.len()),
                Some(e) => format!(
                    "{} bytes of zlib stream in the record, {} off-page",
                    r.local.len(),
                    e.length
                ),
            },
        ));
        if let Some(e) = r.external {
            fields.push(
                Field::with_meaning(
                    data_at + r.local.len(),
                    BTR_EXTERN_FIELD_REF_SIZE,
                    "BTR_EXTERN_FIELD_REF",
                    e.length,
                    format!(
                        "space {} page {} offset {}",
                        e.space_id, e.page_no, e.offset
                    ),
                )
                .pointing(Some(Pointer::BlobRef {
                    space: e.space_id,
                    page: e.page_no,
                    offset: e.offset,
                    len: e.length,
                })),
            );
        }
        body.push(
            format!("SDI record at {o}: type {}, id {}", r.sdi_type, r.id),
            fields,
        );
    }
}

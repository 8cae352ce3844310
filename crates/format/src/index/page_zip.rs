//! ROW_FORMAT=COMPRESSED index pages (`page0zip.h`, `page0zip.cc`): the
//! physical zip page rebuilt into the logical page image the server itself
//! would rebuild in `page_zip_decompress`, so that every analysis reads a
//! compressed page as it reads an uncompressed one.
//!
//! A zip page keeps its FIL and index headers (bytes 0..94) as they are;
//! from `PAGE_DATA` (94) a zlib stream holds the index's field layout
//! (`page_zip_fields_encode`), then every record's null flags, lengths and
//! data in heap order, less what is stored uncompressed at the end of the
//! page; after the stream, the modification log; at the end of the page, the
//! dense directory (2 bytes per record: offset, `owned` and `deleted` flags;
//! records in list order first, then the garbage list), and before it the
//! uncompressed columns: 4-byte child page numbers on non-leaf pages,
//! `DB_TRX_ID`+`DB_ROLL_PTR` (13 bytes) per record and 20-byte BLOB pointers
//! on clustered leaves.

use crate::bytes::{slice, slice_mut, u16_at, u32_at, write_at};
use crate::index::header::{IndexHeader, PAGE_HEADER, PAGE_HEAP_TOP, PAGE_N_HEAP};
use crate::index::record::{
    PAGE_NEW_INFIMUM, PAGE_NEW_SUPREMUM, PAGE_NEW_SUPREMUM_END, REC_INFO_DELETED_FLAG,
    REC_INFO_MIN_REC_FLAG, REC_NODE_PTR_SIZE, REC_N_NEW_EXTRA_BYTES,
};
use crate::FormatError;
use serde::Serialize;

/// Start of the compressed stream (`PAGE_DATA`).
pub const PAGE_DATA: usize = 94;
/// Start of the area that is compressed (`PAGE_ZIP_START` = `PAGE_NEW_SUPREMUM_END`).
pub const PAGE_ZIP_START: usize = PAGE_NEW_SUPREMUM_END;
/// Size of a dense directory slot (`PAGE_ZIP_DIR_SLOT_SIZE`).
pub const PAGE_ZIP_DIR_SLOT_SIZE: usize = 2;
/// Record offset bits of a dense slot (`PAGE_ZIP_DIR_SLOT_MASK`).
pub const PAGE_ZIP_DIR_SLOT_MASK: u16 = 0x3fff;
/// Dense slot flag: the record owns a sparse directory slot (`PAGE_ZIP_DIR_SLOT_OWNED`).
pub const PAGE_ZIP_DIR_SLOT_OWNED: u16 = 0x4000;
/// Dense slot flag: the record is delete-marked (`PAGE_ZIP_DIR_SLOT_DEL`).
pub const PAGE_ZIP_DIR_SLOT_DEL: u16 = 0x8000;
/// `DATA_TRX_ID_LEN`.
pub const DATA_TRX_ID_LEN: usize = 6;
/// `DATA_ROLL_PTR_LEN`.
pub const DATA_ROLL_PTR_LEN: usize = 7;
/// `BTR_EXTERN_FIELD_REF_SIZE`.
pub const BTR_EXTERN_FIELD_REF_SIZE: usize = 20;

const TRX: usize = DATA_TRX_ID_LEN + DATA_ROLL_PTR_LEN;
/// Infimum header and data of a COMPACT page (`infimum_extra`, `infimum_data`).
const INFIMUM: [u8; 13] = [
    0x01, 0x00, 0x02, 0x00, 0x00, b'i', b'n', b'f', b'i', b'm', b'u', b'm', 0,
];
/// Supremum header after n_owned, and data (`supremum_extra_data`).
const SUPREMUM: [u8; 12] = [
    0x00, 0x0b, 0x00, 0x00, b's', b'u', b'p', b'r', b'e', b'm', b'u', b'm',
];

/// One dense directory slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DenseSlot {
    /// Record origin.
    pub offset: u16,
    /// The record owns a slot of the sparse directory.
    pub owned: bool,
    /// The record is delete-marked.
    pub deleted: bool,
}

/// How a zip page's bytes are used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ZipSpace {
    /// Bytes of the zlib stream.
    pub stream_bytes: usize,
    /// Bytes of the modification log (its end marker included).
    pub mlog_bytes: usize,
    /// Bytes stored uncompressed at the end: dense directory, child page
    /// numbers, DB_TRX_ID/DB_ROLL_PTR and BLOB pointers.
    pub trailer_bytes: usize,
    /// Bytes between the modification log and the trailer.
    pub free_bytes: usize,
    /// Records whose data the modification log carries.
    pub logged_records: usize,
}

/// One field of the index as the page encodes it (`page_zip_fields_decode`).
#[derive(Debug, Clone, Copy)]
struct ZipField {
    /// Fixed length, 0 for a variable-length field.
    fixed: usize,
    /// Variable length with a maximum over 255 bytes: 1- or 2-byte lengths.
    big: bool,
    nullable: bool,
}

/// The index layout decoded from the stream.
struct ZipIndex {
    fields: Vec<ZipField>,
    n_nullable: usize,
    /// Position of DB_TRX_ID on a clustered leaf page.
    trx_id_col: Option<usize>,
}

/// Where a record's bytes are.
#[derive(Debug, Default, Clone)]
struct Offsets {
    /// Bytes before the origin (null flags, lengths and the 5-byte header).
    extra: usize,
    /// Field end offsets from the origin, and whether each is stored externally.
    ends: Vec<(usize, bool)>,
}

impl Offsets {
    fn data(&self) -> usize {
        self.ends.last().map_or(0, |e| e.0)
    }
    fn field(&self, i: usize) -> Option<(usize, usize, bool)> {
        let (end, ext) = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends.get(i - 1)?.0 };
        Some((start, end - start, ext))
    }
    fn any_extern(&self) -> bool {
        self.ends.iter().any(|e| e.1)
    }
}

fn bad(field: &'static str, offset: usize, reason: impl Into<String>) -> FormatError {
    FormatError::BadValue {
        field,
        offset,
        reason: reason.into(),
    }
}

/// A ROW_FORMAT=COMPRESSED INDEX page.
#[derive(Debug, Clone, Copy)]
pub struct ZipPage<'a> {
    page: &'a [u8],
    logical: usize,
    header: IndexHeader,
}

impl<'a> ZipPage<'a> {
    /// A view of the physical zip page `page` of a tablespace whose logical
    /// page size is `logical_page_size`.
    pub fn parse(page: &'a [u8], logical_page_size: usize) -> Result<Self, FormatError> {
        let header = IndexHeader::parse(page)?;
        if !header.is_compact() {
            return Err(bad(
                "PAGE_N_HEAP",
                PAGE_N_HEAP,
                "a compressed page is always COMPACT",
            ));
        }
        let n_dense = usize::from(header.n_heap()).saturating_sub(2);
        if n_dense * PAGE_ZIP_DIR_SLOT_SIZE >= page.len() {
            return Err(bad(
                "PAGE_N_HEAP",
                PAGE_N_HEAP,
                format!("{n_dense} records cannot fit a {}-byte page", page.len()),
            ));
        }
        Ok(ZipPage {
            page,
            logical: logical_page_size,
            header,
        })
    }

    /// The page header (stored uncompressed).
    pub fn header(&self) -> &IndexHeader {
        &self.header
    }

    fn n_dense(&self) -> usize {
        usize::from(self.header.n_heap()).saturating_sub(2)
    }

    /// Dense directory slots as stored: records in list order, then the garbage list.
    pub fn dense_slots(&self) -> Vec<DenseSlot> {
        (0..self.n_dense())
            .filter_map(|i| {
                let at = self
                    .page
                    .len()
                    .checked_sub(PAGE_ZIP_DIR_SLOT_SIZE * (i + 1))?;
                let v = u16_at(self.page, at, "dense directory slot").ok()?;
                Some(DenseSlot {
                    offset: v & PAGE_ZIP_DIR_SLOT_MASK,
                    owned: v & PAGE_ZIP_DIR_SLOT_OWNED != 0,
                    deleted: v & PAGE_ZIP_DIR_SLOT_DEL != 0,
                })
            })
            .collect()
    }

    /// Bytes per record stored uncompressed after the dense directory slot.
    fn per_record_storage(&self, clustered_leaf: bool) -> usize {
        if self.header.level > 0 {
            REC_NODE_PTR_SIZE
        } else if clustered_leaf {
            TRX
        } else {
            0
        }
    }

    /// Rebuilds the logical page into `out` (resized to the logical page
    /// size), using `inflater` (reset here). Returns how the zip page's bytes
    /// are used.
    ///
    /// The steps of `page_zip_decompress`: the header as it is, the sparse
    /// directory from the dense one, infimum and supremum, the records'
    /// bytes from the zlib stream, the modification log applied over them,
    /// the columns stored uncompressed put back, and the record headers and
    /// the garbage list linked.
    pub fn decompress(
        &self,
        inflater: &mut ZipInflater,
        out: &mut Vec<u8>,
    ) -> Result<ZipSpace, FormatError> {
        let zip = self.page;
        self.start_logical_page(out)?;
        let slots = self.dense_slots();
        let (live, garbage) = self.live_and_garbage(&slots)?;
        self.write_sparse_directory(out, live)?;
        let recs = self.records_in_heap_order(&slots)?;
        write_infimum_and_supremum(out)?;

        // The stream: the field layout, then the records.
        let leaf = self.header.level == 0;
        let stream = zip.get(PAGE_DATA..).unwrap_or_default();
        let (index, stream_bytes) = inflater.inflate(stream, self.logical, leaf)?;
        let layout = RecordLayout {
            index: &index,
            leaf,
            clustered: leaf && index.trx_id_col.is_some(),
        };
        let trailer_start = self.trailer_start(layout.clustered)?;
        let mut offs = Offsets::default();
        let mut heap_status =
            self.copy_records_from_stream(inflater.output(), &recs, &layout, out, &mut offs)?;

        // The modification log.
        let mlog_start = PAGE_DATA + stream_bytes;
        let mlog_limit = trailer_start.min(zip.len() - 1);
        let log = ModificationLog {
            zip,
            start: mlog_start,
            limit: mlog_limit,
        };
        let (mlog_end, logged) = log.apply(&recs, &layout, &mut heap_status, out, &mut offs)?;

        let free: Vec<usize> = garbage.iter().map(|d| usize::from(d.offset)).collect();
        let externs =
            self.restore_uncompressed_columns(&recs, &free, mlog_end, &layout, out, &mut offs)?;
        let trailer_begin = if layout.clustered {
            externs.min(trailer_start)
        } else {
            trailer_start
        };
        self.link_records(out, live)?;
        link_garbage_list(out, &free)?;
        Ok(ZipSpace {
            stream_bytes,
            mlog_bytes: mlog_end - mlog_start,
            trailer_bytes: zip.len() - trailer_begin,
            free_bytes: trailer_begin.saturating_sub(mlog_end),
            logged_records: logged,
        })
    }

    /// Checks the page sizes, makes `out` a zeroed logical page and copies
    /// the FIL and index headers (stored uncompressed) into it.
    fn start_logical_page(&self, out: &mut Vec<u8>) -> Result<(), FormatError> {
        let zip = self.page;
        let size = self.logical;
        if size < PAGE_ZIP_START + 16 || zip.len() < PAGE_DATA + 8 {
            return Err(bad("page", 0, "page too small"));
        }
        out.clear();
        out.resize(size, 0);
        write_at(
            out,
            0,
            slice(zip, 0, PAGE_DATA, "page header")?,
            "page header",
        )
    }

    /// The dense directory `slots` split into the records in list order
    /// (`PAGE_N_RECS` of them) and the garbage list.
    fn live_and_garbage<'s>(
        &self,
        slots: &'s [DenseSlot],
    ) -> Result<(&'s [DenseSlot], &'s [DenseSlot]), FormatError> {
        let n_dense = self.n_dense();
        let n_recs = usize::from(self.header.n_recs);
        slots
            .split_at_checked(n_recs)
            .filter(|_| slots.len() == n_dense)
            .ok_or_else(|| {
                bad(
                    "PAGE_N_RECS",
                    PAGE_HEADER + 16,
                    format!("{n_recs} records but {n_dense} dense directory slots"),
                )
            })
    }

    /// Writes the sparse directory from the owned flags of the `live`
    /// records, as `page_zip_dir_decode` does: the infimum, each owning
    /// record, the supremum; they must fill `PAGE_N_DIR_SLOTS` exactly.
    fn write_sparse_directory(
        &self,
        out: &mut [u8],
        live: &[DenseSlot],
    ) -> Result<(), FormatError> {
        let zip = self.page;
        let size = self.logical;
        let n_slots = usize::from(self.header.n_dir_slots);
        let mut s = 0usize;
        let mut put_slot = |out: &mut [u8], v: usize| -> Result<(), FormatError> {
            if s >= n_slots {
                return Err(bad(
                    "PAGE_N_DIR_SLOTS",
                    PAGE_HEADER,
                    "more owned records than directory slots",
                ));
            }
            // Slot s ends 8 + 2 * s bytes before the end of the page.
            let at = (size - 8).checked_sub(2 * (s + 1)).ok_or_else(|| {
                bad(
                    "PAGE_N_DIR_SLOTS",
                    PAGE_HEADER,
                    format!("directory slot {s} lies before the page"),
                )
            })?;
            write_at(out, at, &(v as u16).to_be_bytes(), "PAGE_DIR_SLOT")?;
            s += 1;
            Ok(())
        };
        put_slot(out, PAGE_NEW_INFIMUM)?;
        for d in live {
            if usize::from(d.offset) < PAGE_ZIP_START + REC_N_NEW_EXTRA_BYTES
                || usize::from(d.offset) >= size
            {
                return Err(bad(
                    "dense directory slot",
                    zip.len() - 2,
                    format!("record offset {} is outside the page", d.offset),
                ));
            }
            if d.owned {
                put_slot(out, usize::from(d.offset))?;
            }
        }
        put_slot(out, PAGE_NEW_SUPREMUM)?;
        if s != n_slots {
            return Err(bad(
                "PAGE_N_DIR_SLOTS",
                PAGE_HEADER,
                format!("{s} owned records for {n_slots} directory slots"),
            ));
        }
        Ok(())
    }

    /// Every record's origin (live and garbage), in heap (address) order;
    /// an error when one repeats or lies outside the page.
    fn records_in_heap_order(&self, slots: &[DenseSlot]) -> Result<Vec<usize>, FormatError> {
        let mut recs: Vec<usize> = slots.iter().map(|d| usize::from(d.offset)).collect();
        recs.sort_unstable();
        if recs.iter().zip(recs.iter().skip(1)).any(|(a, b)| a == b)
            || recs
                .iter()
                .any(|&r| r < PAGE_ZIP_START + REC_N_NEW_EXTRA_BYTES || r >= self.logical)
        {
            return Err(bad(
                "dense directory slot",
                self.page.len() - 2,
                "record offsets repeat or leave the page",
            ));
        }
        Ok(recs)
    }

    /// Where the columns stored uncompressed begin: the dense directory and,
    /// per record, a child page number or `DB_TRX_ID`+`DB_ROLL_PTR`.
    fn trailer_start(&self, clustered: bool) -> Result<usize, FormatError> {
        let storage_per = self.per_record_storage(clustered);
        self.page
            .len()
            .checked_sub(self.n_dense() * (PAGE_ZIP_DIR_SLOT_SIZE + storage_per))
            .ok_or_else(|| {
                bad(
                    "PAGE_N_HEAP",
                    PAGE_N_HEAP,
                    "the uncompressed columns do not fit",
                )
            })
    }

    /// Copies each record's null flags, lengths and data from the inflated
    /// stream `data` into the page, in heap order, giving each its heap
    /// number, and the bytes after the last one up to the heap top. The
    /// stream may end early (the rest is in the modification log). Returns
    /// the heap number and status the next record written gets.
    fn copy_records_from_stream(
        &self,
        data: &[u8],
        recs: &[usize],
        layout: &RecordLayout<'_>,
        out: &mut [u8],
        offs: &mut Offsets,
    ) -> Result<usize, FormatError> {
        let zip = self.page;
        let size = self.logical;
        let mut heap_status: usize = (2 << 3) | if layout.leaf { 0 } else { 1 };
        let mut o = 0usize; // read position in the inflated output
        let mut next_out = PAGE_ZIP_START;
        for (slot, &rec) in recs.iter().enumerate() {
            // Everything up to this record's fixed header: its null flags and lengths.
            let hdr = rec - REC_N_NEW_EXTRA_BYTES;
            if hdr < next_out {
                return Err(bad(
                    "dense directory slot",
                    zip.len() - 2 * (slot + 1),
                    format!("record at {rec} overlaps the record before it"),
                ));
            }
            let want = hdr - next_out;
            let have = data.len() - o;
            if have <= want {
                take(out, data, &mut o, next_out, next_out + have)?;
                if have == want {
                    write_heap_status(out, rec, heap_status)?;
                    heap_status += 1 << 3;
                }
                return Ok(heap_status);
            }
            take(out, data, &mut o, next_out, hdr)?;
            write_heap_status(out, rec, heap_status)?;
            heap_status += 1 << 3;
            page_offsets(layout.index, !layout.leaf, out, rec, offs)?;
            let end = rec + offs.data();
            if end > size - 8 {
                return Err(bad("record", rec, "record runs past the page"));
            }
            copy_stream_record_data(out, data, &mut o, rec, end, layout, offs)?;
            next_out = end;
        }
        self.copy_trailing_garbage(out, data.get(o..).unwrap_or_default(), next_out)?;
        Ok(heap_status)
    }

    /// Copies `rest`, what the stream holds after its last record (bytes
    /// of purged records), to `next_out`, up to the heap top.
    fn copy_trailing_garbage(
        &self,
        out: &mut [u8],
        rest: &[u8],
        next_out: usize,
    ) -> Result<(), FormatError> {
        let heap_top = usize::from(self.header.heap_top);
        let n = rest.len();
        if heap_top < next_out || n > heap_top - next_out {
            return Err(bad(
                "PAGE_HEAP_TOP",
                PAGE_HEAP_TOP,
                format!(
                    "the stream holds {n} bytes beyond the records; the heap ends at {heap_top}"
                ),
            ));
        }
        // A damaged PAGE_HEAP_TOP may lie past the page itself.
        let page_len = out.len();
        let dst = out.get_mut(next_out..next_out + n).ok_or_else(|| {
            bad(
                "PAGE_HEAP_TOP",
                PAGE_HEAP_TOP,
                format!("the heap top {heap_top} lies past the {page_len}-byte page"),
            )
        })?;
        dst.copy_from_slice(rest);
        Ok(())
    }

    /// Puts back the columns stored uncompressed at the end of the zip
    /// page, record by record in heap order: child page numbers on a
    /// node-pointer page; `DB_TRX_ID`+`DB_ROLL_PTR` and BLOB pointers on a
    /// clustered leaf (zeros for the BLOB pointers of garbage records,
    /// `free`). BLOB pointers must not reach back into the modification log
    /// ending at `mlog_end`. Returns where the BLOB pointers begin.
    fn restore_uncompressed_columns(
        &self,
        recs: &[usize],
        free: &[usize],
        mlog_end: usize,
        layout: &RecordLayout<'_>,
        out: &mut [u8],
        offs: &mut Offsets,
    ) -> Result<usize, FormatError> {
        let zip = self.page;
        let n_dense = self.n_dense();
        let mut storage = zip.len() - n_dense * PAGE_ZIP_DIR_SLOT_SIZE;
        let mut externs = storage.saturating_sub(n_dense * TRX);
        for &rec in recs {
            page_offsets(layout.index, !layout.leaf, out, rec, offs)?;
            let end = rec + offs.data();
            if end > self.logical {
                return Err(bad("record", rec, "record runs past the page"));
            }
            if !layout.leaf {
                storage -= REC_NODE_PTR_SIZE;
                let child = slice(zip, storage, REC_NODE_PTR_SIZE, "node pointer")?;
                write_at(out, end - REC_NODE_PTR_SIZE, child, "node pointer")?;
            } else if let Some(t) = layout.trx_id_col() {
                let (start, _, _) = offs
                    .field(t)
                    .ok_or_else(|| bad("DB_TRX_ID", rec, "no DB_TRX_ID column"))?;
                storage -= TRX;
                // A record the modification log wrote may have a DB_TRX_ID
                // too short for these 13 bytes, at the end of the page.
                write_at(
                    out,
                    rec + start,
                    slice(zip, storage, TRX, "DB_TRX_ID")?,
                    "DB_TRX_ID",
                )?;
                if offs.any_extern() {
                    let exists = !free.contains(&rec);
                    externs =
                        self.restore_blob_pointers(out, rec, offs, exists, externs, mlog_end)?;
                }
            }
        }
        Ok(externs)
    }

    /// Puts back the BLOB pointers of the record at `rec` (field places in
    /// `offs`), taken from below `externs` when the record `exists` (is not
    /// in the garbage list), else zeros. Returns where the pointers taken
    /// begin.
    fn restore_blob_pointers(
        &self,
        out: &mut [u8],
        rec: usize,
        offs: &Offsets,
        exists: bool,
        mut externs: usize,
        mlog_end: usize,
    ) -> Result<usize, FormatError> {
        for i in 0..offs.ends.len() {
            let Some((start, len, true)) = offs.field(i) else {
                continue;
            };
            let dst = rec + start + len - BTR_EXTERN_FIELD_REF_SIZE;
            if exists {
                externs = externs
                    .checked_sub(BTR_EXTERN_FIELD_REF_SIZE)
                    .filter(|&e| e >= mlog_end)
                    .ok_or_else(|| {
                        bad(
                            "BLOB pointer",
                            externs,
                            "BLOB pointers run into the modification log",
                        )
                    })?;
                let pointer = slice(
                    self.page,
                    externs,
                    BTR_EXTERN_FIELD_REF_SIZE,
                    "BLOB pointer",
                )?;
                write_at(out, dst, pointer, "BLOB pointer")?;
            } else {
                slice_mut(out, dst, BTR_EXTERN_FIELD_REF_SIZE, "BLOB pointer")?.fill(0);
            }
        }
        Ok(externs)
    }

    /// Writes the record headers of the `live` records in list order
    /// (`page_zip_set_extra_bytes`): next-record links from the infimum to
    /// the supremum, the deleted and min-rec info bits, and `n_owned` of
    /// each record owning a directory slot.
    fn link_records(&self, out: &mut [u8], live: &[DenseSlot]) -> Result<(), FormatError> {
        let mut info = if self.header.level > 0 && self.header_prev_is_null() {
            REC_INFO_MIN_REC_FLAG
        } else {
            0
        };
        let mut n_owned = 1u8;
        let mut prev = PAGE_NEW_INFIMUM;
        for d in live {
            if d.deleted {
                info |= REC_INFO_DELETED_FLAG;
            }
            if d.owned {
                info |= n_owned;
                n_owned = 1;
            } else {
                // A damaged page may leave hundreds of records unowned.
                n_owned = n_owned.wrapping_add(1);
            }
            let rec = usize::from(d.offset);
            set_next(out, prev, rec)?;
            write_at(out, rec - REC_N_NEW_EXTRA_BYTES, &[info], "info bits")?;
            info = 0;
            prev = rec;
        }
        set_next(out, prev, PAGE_NEW_SUPREMUM)?;
        write_at(
            out,
            PAGE_NEW_SUPREMUM - REC_N_NEW_EXTRA_BYTES,
            &[n_owned],
            "n_owned",
        )?;
        if self.header.n_recs == 0 {
            set_next(out, PAGE_NEW_INFIMUM, PAGE_NEW_SUPREMUM)?;
        }
        Ok(())
    }

    fn header_prev_is_null(&self) -> bool {
        u32_at(
            self.page,
            crate::fil::header::FIL_PAGE_PREV,
            "FIL_PAGE_PREV",
        )
        .is_ok_and(|p| p == crate::FIL_NULL)
    }
}

/// The index layout of the page being rebuilt, and which of its columns
/// the zip page stores outside the stream.
struct RecordLayout<'i> {
    index: &'i ZipIndex,
    /// A leaf page (else node pointers, each ending in a child page number).
    leaf: bool,
    /// A clustered leaf: `DB_TRX_ID`+`DB_ROLL_PTR` and BLOB pointers are
    /// stored uncompressed.
    clustered: bool,
}

impl RecordLayout<'_> {
    /// The position of `DB_TRX_ID` on a clustered leaf.
    fn trx_id_col(&self) -> Option<usize> {
        self.index.trx_id_col.filter(|_| self.clustered)
    }
}

/// Writes the infimum and supremum records (always the same bytes).
fn write_infimum_and_supremum(out: &mut [u8]) -> Result<(), FormatError> {
    write_at(
        out,
        PAGE_NEW_INFIMUM - REC_N_NEW_EXTRA_BYTES,
        &INFIMUM,
        "infimum",
    )?;
    write_at(
        out,
        PAGE_NEW_SUPREMUM - REC_N_NEW_EXTRA_BYTES + 1,
        &SUPREMUM,
        "supremum",
    )
}

/// Copies the data of the record at `rec`, ending at `end`, from the
/// stream `data` (read position `o`), leaving zeros where the columns
/// stored uncompressed go: the child page number of a node pointer, and
/// `DB_TRX_ID`+`DB_ROLL_PTR` and BLOB pointers on a clustered leaf.
// Inlined: called for every record of the page.
#[inline(always)]
fn copy_stream_record_data(
    out: &mut [u8],
    data: &[u8],
    o: &mut usize,
    rec: usize,
    end: usize,
    layout: &RecordLayout<'_>,
    offs: &Offsets,
) -> Result<(), FormatError> {
    if !layout.leaf {
        return take(out, data, o, rec, end - REC_NODE_PTR_SIZE);
    }
    let Some(t) = layout.trx_id_col() else {
        return take(out, data, o, rec, end);
    };
    let mut next_out = rec;
    for i in 0..offs.ends.len() {
        let Some((start, len, ext)) = offs.field(i) else {
            break;
        };
        if i == t {
            if len < TRX || ext {
                return Err(bad(
                    "DB_TRX_ID",
                    rec + start,
                    "the DB_TRX_ID column is too short",
                ));
            }
            take(out, data, o, next_out, rec + start)?;
            next_out = rec + start + TRX;
        } else if ext {
            if len < BTR_EXTERN_FIELD_REF_SIZE {
                return Err(bad(
                    "BLOB pointer",
                    rec + start,
                    "an external column shorter than its pointer",
                ));
            }
            take(
                out,
                data,
                o,
                next_out,
                rec + start + len - BTR_EXTERN_FIELD_REF_SIZE,
            )?;
            next_out = rec + start + len;
        }
    }
    take(out, data, o, next_out, end)
}

/// Links the garbage list in dense directory order (`free`), clearing each
/// record's info bits and ending the list with a zero link.
fn link_garbage_list(out: &mut [u8], free: &[usize]) -> Result<(), FormatError> {
    let mut last = None;
    for &f in free {
        write_at(out, f - REC_N_NEW_EXTRA_BYTES, &[0], "info bits")?;
        if let Some(p) = last {
            set_next(out, p, f)?;
        }
        last = Some(f);
    }
    if let Some(p) = last {
        write_at(out, p - 2, &0u16.to_be_bytes(), "next record")?;
    }
    Ok(())
}

/// Copies inflated bytes from `data[*o..]` to `out[from..to]`.
// Inlined: called for every record of the page.
#[inline(always)]
fn take(
    out: &mut [u8],
    data: &[u8],
    o: &mut usize,
    from: usize,
    to: usize,
) -> Result<(), FormatError> {
    if to < from {
        return Err(bad("record", from, "fields overlap"));
    }
    let n = to - from;
    let src = data.get(*o..*o + n).ok_or_else(|| {
        bad(
            "compressed stream",
            PAGE_DATA,
            "the stream ends inside a record",
        )
    })?;
    let dst = out
        .get_mut(from..to)
        .ok_or_else(|| bad("record", from, "record runs past the page"))?;
    dst.copy_from_slice(src);
    *o += n;
    Ok(())
}

/// Writes the heap number and status of the record at `rec`.
// Inlined: called for every record of the page.
#[inline(always)]
fn write_heap_status(out: &mut [u8], rec: usize, hs: usize) -> Result<(), FormatError> {
    let at = rec
        .checked_sub(4)
        .ok_or_else(|| bad("record", rec, "record header before the page"))?;
    write_at(out, at, &(hs as u16).to_be_bytes(), "heap number")
}

/// Sets the relative next link of the record at `from` to `to`.
// Inlined: called for every record of the page.
#[inline(always)]
fn set_next(out: &mut [u8], from: usize, to: usize) -> Result<(), FormatError> {
    let size = out.len();
    let rel = ((to + size - from) % size) as u16;
    let at = from
        .checked_sub(2)
        .ok_or_else(|| bad("record", from, "record header before the page"))?;
    write_at(out, at, &rel.to_be_bytes(), "next record")
}

/// Field ends of a COMPACT record whose null flags and lengths are read
/// through `extra(i)`: byte i counting away from the fixed header (below it
/// on the page; forward in the modification log).
fn rec_offsets(
    index: &ZipIndex,
    node_ptr: bool,
    extra: impl Fn(usize) -> Option<u8>,
    out: &mut Offsets,
) -> Option<()> {
    out.ends.clear();
    let null_bytes = index.n_nullable.div_ceil(8);
    let mut null_i = 0usize; // index of the null bit
    let mut len_at = null_bytes; // next length byte
    let mut end = 0usize;
    for f in &index.fields {
        if f.nullable {
            let byte = extra(null_i / 8)?;
            let is_null = byte >> (null_i % 8) & 1 == 1;
            null_i += 1;
            if is_null {
                out.ends.push((end, false));
                continue;
            }
        }
        let (len, ext) = if f.fixed > 0 {
            (f.fixed, false)
        } else {
            let b = usize::from(extra(len_at)?);
            len_at += 1;
            if f.big && b & 0x80 != 0 {
                let b2 = usize::from(extra(len_at)?);
                len_at += 1;
                let v = (b << 8) | b2;
                (v & 0x3fff, v & 0x4000 != 0)
            } else {
                (b, false)
            }
        };
        end += len;
        out.ends.push((end, ext));
    }
    if node_ptr {
        end += REC_NODE_PTR_SIZE;
        out.ends.push((end, false));
    }
    out.extra = REC_N_NEW_EXTRA_BYTES + len_at;
    Some(())
}

/// Field ends of the record at `rec` of the page being rebuilt.
fn page_offsets(
    index: &ZipIndex,
    node_ptr: bool,
    out: &[u8],
    rec: usize,
    offs: &mut Offsets,
) -> Result<(), FormatError> {
    rec_offsets(
        index,
        node_ptr,
        |i| {
            rec.checked_sub(REC_N_NEW_EXTRA_BYTES + 1 + i)
                .and_then(|a| out.get(a).copied())
        },
        offs,
    )
    .ok_or_else(|| bad("record", rec, "null flags and lengths do not fit the page"))
}

/// The modification log of a zip page: from `start`, just after the zlib
/// stream, to its end marker, never reaching `limit` (where the columns
/// stored uncompressed begin). Each entry names a record by its heap number
/// and either clears it (deleted) or carries its null flags, lengths and
/// data (`page_zip_apply_log`).
struct ModificationLog<'z> {
    zip: &'z [u8],
    start: usize,
    limit: usize,
}

/// An error in the modification log at `at`.
fn log_error(at: usize, reason: impl Into<String>) -> FormatError {
    bad("modification log", at, reason)
}

impl ModificationLog<'_> {
    /// The log byte at `i`, when it lies before the limit.
    fn byte(&self, i: usize) -> Option<u8> {
        self.zip
            .get(i)
            .copied()
            .filter(|_| i < self.limit.max(self.start + 1))
    }

    /// Applies the log over the page rebuilt so far in `out` (records in
    /// heap order `recs`; `heap_status`: the heap number and status the
    /// next new record gets); returns where it ends (after its end marker)
    /// and how many records it wrote.
    fn apply(
        &self,
        recs: &[usize],
        layout: &RecordLayout<'_>,
        heap_status: &mut usize,
        out: &mut [u8],
        offs: &mut Offsets,
    ) -> Result<(usize, usize), FormatError> {
        let mut at = self.start;
        let mut logged = 0usize;
        while let Some(val) = self.entry_header(&mut at)? {
            let rec = self.entry_record(at, val, recs, heap_status, out)?;
            logged += 1;
            if val & 1 != 0 {
                // The record was deleted: clear its data.
                page_offsets(layout.index, !layout.leaf, out, rec, offs)?;
                let end = (rec + offs.data()).min(out.len());
                if let Some(data) = out.get_mut(rec..end) {
                    data.fill(0);
                }
                continue;
            }
            self.copy_record_header(&mut at, rec, layout, out, offs)?;
            self.copy_record_data(&mut at, rec, layout, out, offs)?;
        }
        Ok((at, logged))
    }

    /// Reads the entry header at `at` (one byte, or two when its high bit
    /// is set: the heap number less one, shifted left, and the deleted
    /// bit) and moves `at` past it; `None` at the end marker (a zero byte).
    fn entry_header(&self, at: &mut usize) -> Result<Option<usize>, FormatError> {
        let mut val = usize::from(
            self.byte(*at)
                .ok_or_else(|| log_error(*at, "the log runs into the uncompressed columns"))?,
        );
        *at += 1;
        if val == 0 {
            return Ok(None);
        }
        if val & 0x80 != 0 {
            val = (val & 0x7f) << 8
                | usize::from(
                    self.byte(*at)
                        .ok_or_else(|| log_error(*at, "truncated entry"))?,
                );
            *at += 1;
            if val == 0 {
                return Err(log_error(*at, "invalid entry"));
            }
        }
        Ok(Some(val))
    }

    /// The origin of the record the entry `val` read before `at` names,
    /// after giving it its heap number: a record not yet written must be
    /// the next one of the heap (`heap_status` then moves on).
    fn entry_record(
        &self,
        at: usize,
        val: usize,
        recs: &[usize],
        heap_status: &mut usize,
        out: &mut [u8],
    ) -> Result<usize, FormatError> {
        let rec = (val >> 1)
            .checked_sub(1)
            .and_then(|s| recs.get(s).copied())
            .ok_or_else(|| {
                log_error(
                    at,
                    format!(
                        "entry for heap number {} of {}",
                        (val >> 1) + 1,
                        recs.len() + 1
                    ),
                )
            })?;
        let hs = (((val >> 1) + 1) << 3) | (*heap_status & 7);
        if hs > *heap_status {
            return Err(log_error(at, "entry for a record beyond the heap"));
        } else if hs == *heap_status {
            if val & 1 != 0 {
                return Err(log_error(at, "clears a record that was never written"));
            }
            *heap_status += 1 << 3;
        }
        write_heap_status(out, rec, hs)?;
        Ok(rec)
    }

    /// Copies the null flags and lengths of the record at `rec`, stored
    /// forward in the log from `at`, backward from the record header on
    /// the page; reads the record's field places into `offs`.
    fn copy_record_header(
        &self,
        at: &mut usize,
        rec: usize,
        layout: &RecordLayout<'_>,
        out: &mut [u8],
        offs: &mut Offsets,
    ) -> Result<(), FormatError> {
        let base = *at;
        rec_offsets(layout.index, !layout.leaf, |i| self.byte(base + i), offs)
            .ok_or_else(|| log_error(*at, "truncated null flags or lengths"))?;
        let n_extra = offs.extra - REC_N_NEW_EXTRA_BYTES;
        if rec < offs.extra {
            return Err(log_error(*at, "record header before the page"));
        }
        let src = self
            .zip
            .get(base..base + n_extra)
            .ok_or_else(|| log_error(*at, "truncated entry"))?;
        // Forward in the log, backward from the record header on the page.
        let dst = slice_mut(out, rec - offs.extra, n_extra, "record header")?;
        for (d, &s) in dst.iter_mut().rev().zip(src) {
            *d = s;
        }
        *at += n_extra;
        Ok(())
    }

    /// Copies the data of the record at `rec` (field places in `offs`)
    /// from the log at `at`, leaving out the columns stored uncompressed.
    fn copy_record_data(
        &self,
        at: &mut usize,
        rec: usize,
        layout: &RecordLayout<'_>,
        out: &mut [u8],
        offs: &Offsets,
    ) -> Result<(), FormatError> {
        let end = rec + offs.data();
        if end > out.len() {
            return Err(log_error(*at, "record runs past the page"));
        }
        if !layout.leaf {
            return self.copy(out, rec, end - REC_NODE_PTR_SIZE, at, rec);
        }
        let Some(t) = layout.trx_id_col() else {
            return self.copy(out, rec, end, at, rec);
        };
        let mut next = rec;
        for i in 0..offs.ends.len() {
            let Some((s, len, ext)) = offs.field(i) else {
                break;
            };
            if i == t {
                self.copy(out, next, rec + s, at, rec)?;
                next = rec + s + TRX;
            } else if ext {
                self.copy(
                    out,
                    next,
                    rec + s + len - BTR_EXTERN_FIELD_REF_SIZE,
                    at,
                    rec,
                )?;
                next = rec + s + len;
            }
        }
        self.copy(out, next, end, at, rec)
    }

    /// Copies the next bytes of the log, at `at`, to `out[from..to]` (part
    /// of the record at `rec`).
    fn copy(
        &self,
        out: &mut [u8],
        from: usize,
        to: usize,
        at: &mut usize,
        rec: usize,
    ) -> Result<(), FormatError> {
        // A DB_TRX_ID shorter than its 13 bytes, or an external field
        // shorter than its pointer, ends before the gap it leaves.
        let len = to.checked_sub(from).ok_or_else(|| {
            log_error(
                *at,
                format!("fields overlap at {to} in the record at {rec}"),
            )
        })?;
        if *at + len >= self.limit.max(self.start + 1) {
            return Err(log_error(*at, "record data runs past the log"));
        }
        write_at(
            out,
            from,
            slice(self.zip, *at, len, "modification log")?,
            "record",
        )?;
        *at += len;
        Ok(())
    }
}

/// A reusable zlib inflater for zip pages, with its output buffer.
pub struct ZipInflater {
    inflater: flate2::Decompress,
    out: Vec<u8>,
    /// Where the records start in `out` (after the field layout).
    records_at: usize,
}

impl Default for ZipInflater {
    fn default() -> Self {
        Self::new()
    }
}

impl ZipInflater {
    /// A new inflater.
    pub fn new() -> Self {
        ZipInflater {
            inflater: flate2::Decompress::new(true),
            out: Vec::new(),
            records_at: 0,
        }
    }

    /// The inflated record bytes (after the field layout).
    fn output(&self) -> &[u8] {
        self.out.get(self.records_at..).unwrap_or(&[])
    }

    /// Inflates the whole stream at the start of `input`; decodes the field
    /// layout at its head. Returns the layout and the stream's length.
    fn inflate(
        &mut self,
        input: &[u8],
        logical: usize,
        leaf: bool,
    ) -> Result<(ZipIndex, usize), FormatError> {
        self.inflater.reset(true);
        self.out.clear();
        self.out.resize(logical, 0);
        // The field layout is flushed on its own (Z_FULL_FLUSH): the stream
        // holds an empty stored block, 00 00 FF FF, right after it.
        let marker = input
            .windows(4)
            .position(|w| w == [0, 0, 0xff, 0xff])
            .ok_or_else(|| {
                bad(
                    "compressed stream",
                    PAGE_DATA,
                    "no flush marker after the index layout",
                )
            })?;
        let fail = |e: &dyn std::fmt::Display| FormatError::Decompress {
            field: "compressed stream",
            offset: PAGE_DATA,
            reason: e.to_string(),
        };
        // `marker` is the position of a 4-byte window of `input`.
        let layout = input.get(..marker + 4).unwrap_or(input);
        self.inflater
            .decompress(layout, &mut self.out, flate2::FlushDecompress::Sync)
            .map_err(|e| fail(&e))?;
        let fields_len = self.inflater.total_out() as usize;
        let index = decode_fields(self.out.get(..fields_len).unwrap_or(&[]), leaf)?;
        self.records_at = fields_len;
        let consumed = self.inflater.total_in() as usize;
        // The inflater read at most `layout` and wrote at most `self.out`.
        let (Some(records_in), Some(records_out)) =
            (input.get(consumed..), self.out.get_mut(fields_len..))
        else {
            return Err(bad(
                "compressed stream",
                PAGE_DATA,
                "the index layout runs past the stream",
            ));
        };
        let status = self
            .inflater
            .decompress(records_in, records_out, flate2::FlushDecompress::Finish)
            .map_err(|e| fail(&e))?;
        if status != flate2::Status::StreamEnd {
            return Err(bad(
                "compressed stream",
                PAGE_DATA,
                "the stream does not end within the page",
            ));
        }
        let total_out = self.inflater.total_out() as usize;
        self.out.truncate(total_out);
        Ok((index, self.inflater.total_in() as usize))
    }
}

/// `page_zip_fields_decode`.
fn decode_fields(buf: &[u8], leaf: bool) -> Result<ZipIndex, FormatError> {
    let mut vals = Vec::new();
    let mut i = 0;
    while let Some(&b0) = buf.get(i) {
        let mut v = usize::from(b0);
        i += 1;
        let two = v & 0x80 != 0;
        if two {
            let b = *buf
                .get(i)
                .ok_or_else(|| bad("index layout", PAGE_DATA, "truncated"))?;
            v = (v & 0x7f) << 8 | usize::from(b);
            i += 1;
        }
        vals.push((v, two));
    }
    let Some((&(last, _), fields)) = vals.split_last() else {
        return Err(bad("index layout", PAGE_DATA, "empty"));
    };
    let fields: Vec<ZipField> = fields
        .iter()
        .map(|&(v, two)| {
            let nullable = v & 1 == 0;
            if two {
                ZipField {
                    fixed: v >> 1,
                    big: false,
                    nullable,
                }
            } else if v >= 126 {
                ZipField {
                    fixed: 0,
                    big: true,
                    nullable,
                }
            } else if v <= 1 {
                ZipField {
                    fixed: 0,
                    big: false,
                    nullable,
                }
            } else {
                ZipField {
                    fixed: v >> 1,
                    big: false,
                    nullable,
                }
            }
        })
        .collect();
    let counted = fields.iter().filter(|f| f.nullable).count();
    let (n_nullable, trx_id_col) = if leaf {
        let t = (last != 0).then_some(last);
        if t.is_some_and(|t| t >= fields.len()) {
            return Err(bad(
                "index layout",
                PAGE_DATA,
                format!("DB_TRX_ID at field {last} of {}", fields.len()),
            ));
        }
        (counted, t)
    } else {
        if last < counted {
            return Err(bad(
                "index layout",
                PAGE_DATA,
                format!("{last} nullable fields, fewer than {counted}"),
            ));
        }
        (last, None)
    };
    Ok(ZipIndex {
        fields,
        n_nullable,
        trx_id_col,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A zip INDEX page of `size` bytes: the compact header, a stream of the
    /// index layout `layout` and no record bytes, the modification log
    /// `mlog` after it and the dense directory `dense` at the end.
    fn crafted(
        size: usize,
        layout: &[u8],
        mlog: &[u8],
        n_dir_slots: u16,
        dense: &[u16],
    ) -> Vec<u8> {
        let mut page = vec![0u8; size];
        page[24..26].copy_from_slice(&17855u16.to_be_bytes());
        page[PAGE_HEADER..PAGE_HEADER + 2].copy_from_slice(&n_dir_slots.to_be_bytes());
        let n_heap = 0x8000 | (dense.len() as u16 + 2);
        page[PAGE_N_HEAP..PAGE_N_HEAP + 2].copy_from_slice(&n_heap.to_be_bytes());
        page[PAGE_HEADER + 16..PAGE_HEADER + 18]
            .copy_from_slice(&(dense.len() as u16).to_be_bytes());
        let mut z = flate2::Compress::new(flate2::Compression::default(), true);
        let mut stream = Vec::with_capacity(size);
        z.compress_vec(layout, &mut stream, flate2::FlushCompress::Full)
            .unwrap();
        z.compress_vec(&[], &mut stream, flate2::FlushCompress::Finish)
            .unwrap();
        let mlog_at = PAGE_DATA + stream.len();
        page[PAGE_DATA..mlog_at].copy_from_slice(&stream);
        page[mlog_at..mlog_at + mlog.len()].copy_from_slice(mlog);
        for (i, &slot) in dense.iter().enumerate() {
            let at = size - 2 * (i + 1);
            page[at..at + 2].copy_from_slice(&slot.to_be_bytes());
        }
        page
    }

    fn decompress(page: &[u8], logical: usize) -> Result<ZipSpace, FormatError> {
        let mut out = Vec::new();
        ZipPage::parse(page, logical)?.decompress(&mut ZipInflater::new(), &mut out)
    }

    /// Clustered leaf layout: a 4-byte key, then DB_TRX_ID+DB_ROLL_PTR
    /// declared 1 byte long (13 on a sound page); DB_TRX_ID is field 1.
    const SHORT_TRX: [u8; 3] = [(4 << 1) | 1, (1 << 1) | 1, 1];

    #[test]
    fn more_owned_records_than_the_directory_holds_is_an_error() {
        // 510 owned records of a 2 KiB zip page rebuilt as 1 KiB: the
        // sparse directory would grow past the start of the page.
        let dense: Vec<u16> = (0..510)
            .map(|i| (125 + i) | PAGE_ZIP_DIR_SLOT_OWNED)
            .collect();
        let page = crafted(2048, &[], &[0], 512, &dense);
        let err = decompress(&page, 1024).unwrap_err();
        assert!(err.to_string().contains("lies before the page"), "{err}");
    }

    #[test]
    fn a_logged_record_with_a_short_db_trx_id_is_an_error() {
        // Heap number 2, then the 4-byte key; the 13 bytes the page leaves
        // for DB_TRX_ID+DB_ROLL_PTR end past the record's 5 bytes.
        let page = crafted(1024, &SHORT_TRX, &[2, 1, 2, 3, 4, 0], 2, &[200]);
        let err = decompress(&page, 1024).unwrap_err();
        assert!(err.to_string().contains("fields overlap"), "{err}");
    }

    #[test]
    fn a_short_db_trx_id_at_the_end_of_the_page_is_an_error() {
        // A record the stream and the log leave empty, 13 bytes before the
        // end of the page: its DB_TRX_ID+DB_ROLL_PTR would end past it.
        let page = crafted(1024, &SHORT_TRX, &[0], 2, &[1024 - 13]);
        let err = decompress(&page, 1024).unwrap_err();
        assert!(
            matches!(
                err,
                FormatError::OutOfBounds {
                    field: "DB_TRX_ID",
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn hundreds_of_unowned_records_do_not_overflow_n_owned() {
        // A secondary leaf (one 4-byte field), 300 records none of which
        // owns a directory slot.
        let dense: Vec<u16> = (0..300).map(|i| 125 + 5 * i).collect();
        let page = crafted(4096, &[(4 << 1) | 1, 0], &[0], 2, &dense);
        assert!(decompress(&page, 4096).is_ok());
    }
}

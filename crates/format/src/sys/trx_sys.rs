//! TRX_SYS page (system tablespace page 5, `trx0sys.h`): the transaction
//! id store, the rollback segment slots, the binary log position (MySQL,
//! MariaDB before 10.3.5), MariaDB's WSREP checkpoint XID (Galera builds
//! before 10.3.5) and the doublewrite buffer description, which sits at the
//! same distance from the page end at every page size
//! (`TRX_SYS_DOUBLEWRITE` = size − 200).

use crate::bytes::slice;
use crate::context::PageContext;
use crate::field::{Field, Pointer};
use crate::fsp::fseg_header::FsegHeader;
use crate::layout::layout;
use crate::section::Body;
use crate::xid::xid_data_field;
use crate::FormatError;
use serde::Serialize;

/// Page number of TRX_SYS in the system tablespace (`TRX_SYS_PAGE_NO`).
pub const TRX_SYS_PAGE_NO: u32 = 5;
/// Absolute offset of the transaction system header on the TRX_SYS page
/// (`TRX_SYS` = `FSEG_PAGE_DATA` = 38). The server gives the fields below
/// relative to it.
pub const TRX_SYS: usize = 38;

/// `TRX_SYS_TRX_ID_WRITE_MARGIN`: the server writes `TRX_SYS_TRX_ID_STORE`
/// each time the counter passes a multiple of this, so the store lags the
/// counter by less than it (MySQL 8.0+ restarts from the store + 2 × this).
pub const TRX_SYS_TRX_ID_WRITE_MARGIN: u64 = 256;

layout! {
    /// The head of the transaction system header (absolute offsets); the
    /// rollback segment slots follow.
    pub struct TrxSysHeader {
        /// Offset 38 (`TRX_SYS_TRX_ID_STORE`, 8 bytes): the transaction id
        /// counter as last written (MariaDB 10.3+ keeps it in the rollback
        /// segment headers instead and may leave this stale).
        TRX_SYS_TRX_ID_STORE @ TRX_SYS => trx_id_store: u64;
        /// Offset 46 (`TRX_SYS_FSEG_HEADER`, 10 bytes): the transaction system's file segment.
        TRX_SYS_FSEG_HEADER @ TRX_SYS + 8 => fseg: FsegHeader;
    }
}

/// Absolute offset of the rollback segment slots (`TRX_SYS` 38 +
/// `TRX_SYS_RSEGS` 18).
pub const TRX_SYS_RSEGS: usize = TrxSysHeader::END;
/// Number of slots (`TRX_SYS_N_RSEGS`).
pub const TRX_SYS_N_RSEGS: usize = 128;

layout! {
    /// One rollback segment slot of the TRX_SYS page (offsets from the slot's start).
    pub struct TrxSysRsegSlot {
        /// +0 (`TRX_SYS_RSEG_SPACE`, 4 bytes): the tablespace holding the
        /// rollback segment's header (`FIL_NULL` in an unused slot since 5.1.7).
        TRX_SYS_RSEG_SPACE @ 0 => space_id: u32;
        /// +4 (`TRX_SYS_RSEG_PAGE_NO`, 4 bytes): the header page, `FIL_NULL` for an unused slot.
        TRX_SYS_RSEG_PAGE_NO @ 4 => page_no: u32;
    }
}

/// Bytes per slot (`TRX_SYS_RSEG_SLOT_SIZE`): space id, then page number.
pub const TRX_SYS_RSEG_SLOT_SIZE: usize = TrxSysRsegSlot::END;

layout! {
    /// The doublewrite buffer header of the TRX_SYS page, offsets from
    /// `TRX_SYS_DOUBLEWRITE` (page size − 200).
    pub struct DoublewriteHeader {
        /// +0 (`TRX_SYS_DOUBLEWRITE_FSEG`, 10 bytes): the doublewrite buffer's file segment.
        TRX_SYS_DOUBLEWRITE_FSEG @ 0 => fseg: FsegHeader;
        /// +10 (`TRX_SYS_DOUBLEWRITE_MAGIC`, 4 bytes): [`TRX_SYS_DOUBLEWRITE_MAGIC_N`]
        /// once the buffer was created.
        TRX_SYS_DOUBLEWRITE_MAGIC @ 10 => magic: u32, shows show_dblwr_magic;
        /// +14 (`TRX_SYS_DOUBLEWRITE_BLOCK1`, 4 bytes): the first page of the first block.
        TRX_SYS_DOUBLEWRITE_BLOCK1 @ 14 => block1: u32, points page;
        /// +18 (`TRX_SYS_DOUBLEWRITE_BLOCK2`, 4 bytes): the first page of the second block.
        TRX_SYS_DOUBLEWRITE_BLOCK2 @ 18 => block2: u32, points page;
        /// +22 (`TRX_SYS_DOUBLEWRITE_REPEAT`, 4 bytes): the magic number again.
        TRX_SYS_DOUBLEWRITE_REPEAT @ 22 => repeat_magic: u32, shows show_dblwr_magic;
        /// +26 (`TRX_SYS_DOUBLEWRITE_REPEAT` + 4): block 1 again.
        TRX_SYS_DOUBLEWRITE_REPEAT_BLOCK1 "TRX_SYS_DOUBLEWRITE_REPEAT+4" @ 26 => repeat_block1: u32;
        /// +30 (`TRX_SYS_DOUBLEWRITE_REPEAT` + 8): block 2 again.
        TRX_SYS_DOUBLEWRITE_REPEAT_BLOCK2 "TRX_SYS_DOUBLEWRITE_REPEAT+8" @ 30 => repeat_block2: u32;
        /// +34 (`TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED`, 4 bytes):
        /// [`TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED_N`] since 4.1.
        TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED @ 34 => space_id_stored: u32, shows show_space_id_stored;
    }
}

/// Distance of the doublewrite header from the page end (`TRX_SYS_DOUBLEWRITE`).
pub const TRX_SYS_DOUBLEWRITE_FROM_END: usize = 200;
/// Distance from the page end of the doublewrite segment's FSEG header
/// (`TRX_SYS_DOUBLEWRITE` + `TRX_SYS_DOUBLEWRITE_FSEG` 0).
pub const TRX_SYS_DOUBLEWRITE_FSEG_FROM_END: usize =
    TRX_SYS_DOUBLEWRITE_FROM_END - TRX_SYS_DOUBLEWRITE_FSEG;
/// `TRX_SYS_DOUBLEWRITE_MAGIC_N`.
pub const TRX_SYS_DOUBLEWRITE_MAGIC_N: u32 = 536_853_855;
/// `TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED_N`.
pub const TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED_N: u32 = 1_783_657_386;

fn show_dblwr_magic(v: &u32, _: &PageContext) -> Option<String> {
    Some(
        if *v == TRX_SYS_DOUBLEWRITE_MAGIC_N {
            "present"
        } else {
            "absent"
        }
        .into(),
    )
}

fn show_space_id_stored(v: &u32, _: &PageContext) -> Option<String> {
    Some(
        if *v == TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED_N {
            "present"
        } else {
            "absent"
        }
        .into(),
    )
}

/// Absolute offset of the doublewrite header on a page of `page_size`
/// bytes, `None` for a page too small to have it.
pub fn doublewrite_offset(page_size: usize) -> Option<usize> {
    page_size.checked_sub(TRX_SYS_DOUBLEWRITE_FROM_END)
}

/// The doublewrite buffer header of the TRX_SYS page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Doublewrite {
    /// First page of doublewrite block 1 (`TRX_SYS_DOUBLEWRITE_BLOCK1`).
    pub block1: u32,
    /// First page of doublewrite block 2 (`TRX_SYS_DOUBLEWRITE_BLOCK2`).
    pub block2: u32,
    /// True when `TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED_N` is present.
    pub space_id_stored: bool,
}

impl Doublewrite {
    /// Reads the doublewrite header from a TRX_SYS page; `None` when the
    /// magic numbers are absent (no doublewrite buffer was ever created).
    pub fn parse(page: &[u8]) -> Result<Option<Self>, FormatError> {
        let base = doublewrite_offset(page.len()).ok_or(FormatError::OutOfBounds {
            field: "TRX_SYS_DOUBLEWRITE",
            offset: 0,
            len: TRX_SYS_DOUBLEWRITE_FROM_END,
            available: page.len(),
        })?;
        let h = DoublewriteHeader::parse_at(page, base)?;
        if h.magic != TRX_SYS_DOUBLEWRITE_MAGIC_N || h.repeat_magic != TRX_SYS_DOUBLEWRITE_MAGIC_N {
            return Ok(None);
        }
        Ok(Some(Doublewrite {
            block1: h.block1,
            block2: h.block2,
            space_id_stored: h.space_id_stored == TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED_N,
        }))
    }
}

/// One used rollback segment slot of the TRX_SYS page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RsegSlot {
    /// Slot number (0–127): the rollback segment id.
    pub id: usize,
    /// `TRX_SYS_RSEG_SPACE` (slot + 0): the tablespace holding its header.
    pub space_id: u32,
    /// `TRX_SYS_RSEG_PAGE_NO` (slot + 4): the header page.
    pub page_no: u32,
}

/// Absolute offset of rollback segment slot `id`.
pub fn rseg_slot_offset(id: usize) -> usize {
    TRX_SYS_RSEGS + id * TRX_SYS_RSEG_SLOT_SIZE
}

/// The used rollback segment slots of a TRX_SYS page (a slot whose page
/// number is `FIL_NULL` is unused).
pub fn rseg_slots(page: &[u8]) -> Result<Vec<RsegSlot>, FormatError> {
    let mut out = Vec::new();
    for id in 0..TRX_SYS_N_RSEGS {
        let slot = TrxSysRsegSlot::parse_at(page, rseg_slot_offset(id))?;
        if slot.page_no != crate::FIL_NULL {
            out.push(RsegSlot {
                id,
                space_id: slot.space_id,
                page_no: slot.page_no,
            });
        }
    }
    Ok(out)
}

/// Distance of the binary log information from the page end, before adding
/// `TRX_SYS` (`TRX_SYS_MYSQL_LOG_INFO` = page size − 1000): its absolute
/// offset is `TRX_SYS` 38 + page size − 1000, 15422 at 16k, 3134 at 4k.
/// Written by MySQL and by MariaDB before 10.3.5 (which moved it to the
/// rollback segment headers, see
/// [`crate::undo::trx_rseg::TRX_RSEG_BINLOG_OFFSET_FROM_MAX_TRX_ID`]).
pub const TRX_SYS_MYSQL_LOG_INFO_FROM_END: usize = 1000;

layout! {
    /// The binary log position's fixed fields, offsets from
    /// `TRX_SYS_MYSQL_LOG_INFO`; the file name follows at
    /// `TRX_SYS_MYSQL_LOG_NAME`.
    pub struct TrxSysBinlogInfo {
        /// +0 (`TRX_SYS_MYSQL_LOG_MAGIC_N_FLD`, 4 bytes): [`TRX_SYS_MYSQL_LOG_MAGIC_N`]
        /// when the rest is valid.
        TRX_SYS_MYSQL_LOG_MAGIC_N_FLD @ 0 => magic: u32, shows show_log_magic;
        /// +4 (`TRX_SYS_MYSQL_LOG_OFFSET_HIGH`, 4 bytes): the high half of
        /// the position in the binary log (MariaDB reads +4..+12 as one
        /// 8-byte `TRX_SYS_MYSQL_LOG_OFFSET`).
        TRX_SYS_MYSQL_LOG_OFFSET_HIGH @ 4 => offset_high: u32;
        /// +8 (`TRX_SYS_MYSQL_LOG_OFFSET_LOW`, 4 bytes): the low half.
        TRX_SYS_MYSQL_LOG_OFFSET_LOW @ 8 => offset_low: u32;
    }
}

/// `TRX_SYS_MYSQL_LOG_NAME` (binlog information + 12): the binary log file
/// name, NUL-terminated, in [`TRX_SYS_MYSQL_LOG_NAME_LEN`] bytes.
pub const TRX_SYS_MYSQL_LOG_NAME: usize = TrxSysBinlogInfo::END;
/// `TRX_SYS_MYSQL_LOG_NAME_LEN`: bytes of the binary log file name field,
/// the terminating NUL included.
pub const TRX_SYS_MYSQL_LOG_NAME_LEN: usize = 512;
/// `TRX_SYS_MYSQL_LOG_MAGIC_N`.
pub const TRX_SYS_MYSQL_LOG_MAGIC_N: u32 = 873_422_344;

fn show_log_magic(v: &u32, _: &PageContext) -> Option<String> {
    Some(
        if *v == TRX_SYS_MYSQL_LOG_MAGIC_N {
            "present"
        } else {
            "absent"
        }
        .into(),
    )
}

layout! {
    /// MariaDB's WSREP checkpoint XID on the TRX_SYS page (Galera builds
    /// before 10.3.5, which moved it to the rollback segment headers),
    /// offsets from `TRX_SYS_WSREP_XID_INFO`; `TRX_SYS_WSREP_XID_DATA` follows.
    pub struct TrxSysWsrepXid {
        /// +0 (`TRX_SYS_WSREP_XID_MAGIC_N_FLD`, 4 bytes): [`TRX_SYS_WSREP_XID_MAGIC_N`] when present.
        TRX_SYS_WSREP_XID_MAGIC_N_FLD @ 0 => magic: u32;
        /// +4 (`TRX_SYS_WSREP_XID_FORMAT`, 4 bytes): the XID format.
        TRX_SYS_WSREP_XID_FORMAT @ 4 => format_id: u32;
        /// +8 (`TRX_SYS_WSREP_XID_GTRID_LEN`, 4 bytes): bytes of global transaction id.
        TRX_SYS_WSREP_XID_GTRID_LEN @ 8 => gtrid_length: u32;
        /// +12 (`TRX_SYS_WSREP_XID_BQUAL_LEN`, 4 bytes): bytes of branch qualifier.
        TRX_SYS_WSREP_XID_BQUAL_LEN @ 12 => bqual_length: u32;
    }
}

/// `TRX_SYS_WSREP_XID_DATA` (WSREP XID information + 16, 128 bytes).
pub const TRX_SYS_WSREP_XID_DATA: usize = TrxSysWsrepXid::END;
/// `TRX_SYS_WSREP_XID_MAGIC_N` (`"wsre"`).
pub const TRX_SYS_WSREP_XID_MAGIC_N: u32 = 0x7773_7265;

/// Absolute offset of the WSREP XID information on a TRX_SYS page of
/// `page_size` bytes: `TRX_SYS` + max(page size − 3500, 1596)
/// (`TRX_SYS_WSREP_XID_INFO`).
pub fn wsrep_xid_info_offset(page_size: usize) -> usize {
    TRX_SYS + page_size.saturating_sub(3500).max(1596)
}

/// A binary log position InnoDB recorded at a commit: the binary log file
/// and the offset in it just after the committed transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct BinlogPos {
    /// The file name as the server stored it (it may carry a directory).
    pub file: String,
    /// The offset in that file.
    pub offset: u64,
}

/// Absolute offset of the binary log information on a TRX_SYS page of
/// `page_size` bytes (`TRX_SYS` + `TRX_SYS_MYSQL_LOG_INFO`), `None` for a
/// page too small to have it.
pub fn mysql_log_info_offset(page_size: usize) -> Option<usize> {
    (TRX_SYS + page_size).checked_sub(TRX_SYS_MYSQL_LOG_INFO_FROM_END)
}

/// Reads a NUL-terminated string of at most `len` bytes (the NUL included)
/// at `offset`; an error when no NUL ends it within the field.
pub(crate) fn c_string(
    buf: &[u8],
    offset: usize,
    len: usize,
    field: &'static str,
) -> Result<String, FormatError> {
    let b = slice(buf, offset, len, field)?;
    let end = b
        .iter()
        .position(|&c| c == 0)
        .ok_or_else(|| FormatError::BadValue {
            field,
            offset,
            reason: format!("no terminating NUL within its {len} bytes"),
        })?;
    Ok(String::from_utf8_lossy(b.get(..end).unwrap_or(b)).into_owned())
}

/// The binary log position kept on the TRX_SYS page (MySQL, and MariaDB
/// before 10.3.5): `None` when `TRX_SYS_MYSQL_LOG_MAGIC_N` is absent (no
/// binary log information was ever written, as in MariaDB 10.3.5+ files).
pub fn mysql_log_info(page: &[u8]) -> Result<Option<BinlogPos>, FormatError> {
    let base = mysql_log_info_offset(page.len()).ok_or(FormatError::OutOfBounds {
        field: "TRX_SYS_MYSQL_LOG_INFO",
        offset: 0,
        len: TRX_SYS_MYSQL_LOG_INFO_FROM_END,
        available: page.len(),
    })?;
    let info = TrxSysBinlogInfo::parse_at(page, base)?;
    if info.magic != TRX_SYS_MYSQL_LOG_MAGIC_N {
        return Ok(None);
    }
    Ok(Some(BinlogPos {
        file: c_string(
            page,
            base + TRX_SYS_MYSQL_LOG_NAME,
            TRX_SYS_MYSQL_LOG_NAME_LEN,
            "TRX_SYS_MYSQL_LOG_NAME",
        )?,
        offset: (u64::from(info.offset_high) << 32) | u64::from(info.offset_low),
    }))
}

/// The sections of a TRX_SYS page: its header, the rollback segment
/// slots in use, the binary log position, MariaDB's WSREP checkpoint XID
/// (when its magic number is there) and the doublewrite buffer header
/// (when the buffer was created).
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    body.add(
        "TRX_SYS header",
        TrxSysHeader::parse_at(page, 0).map(|h| h.fields_at(0, ctx)),
    );
    body.add("TRX_SYS rollback segment slots", slot_fields(page, ctx));
    if let Some(base) = mysql_log_info_offset(page.len()) {
        body.add(
            "TRX_SYS binary log position",
            binlog_fields(page, base, ctx),
        );
    }
    let wsrep = wsrep_xid_info_offset(page.len());
    if let Some(h) = body.keep(TrxSysWsrepXid::parse_at(page, wsrep)) {
        if h.magic == TRX_SYS_WSREP_XID_MAGIC_N {
            let mut fields = h.fields_at(wsrep, ctx);
            let len = (h.gtrid_length as usize).saturating_add(h.bqual_length as usize);
            fields.extend(body.keep(xid_data_field(
                page,
                wsrep + TRX_SYS_WSREP_XID_DATA,
                len,
                "TRX_SYS_WSREP_XID_DATA",
            )));
            body.push("TRX_SYS WSREP checkpoint XID", fields);
        }
    }
    if let Some(base) = doublewrite_offset(page.len()) {
        if let Some(h) = body.keep(DoublewriteHeader::parse_at(page, base)) {
            if h.magic == TRX_SYS_DOUBLEWRITE_MAGIC_N {
                body.push("TRX_SYS doublewrite", h.fields_at(base, ctx));
            }
        }
    }
}

/// A summary of the `TRX_SYS_RSEGS` array, then one field per slot in use:
/// its header page, pointing at it in its tablespace.
fn slot_fields(page: &[u8], ctx: &PageContext) -> Result<Vec<Field>, FormatError> {
    let used = rseg_slots(page)?;
    let mut out = vec![Field::with_meaning(
        TRX_SYS_RSEGS,
        TRX_SYS_N_RSEGS * TRX_SYS_RSEG_SLOT_SIZE,
        "TRX_SYS_RSEGS",
        used.len() as u64,
        format!("{} of {TRX_SYS_N_RSEGS} slots in use", used.len()),
    )];
    out.extend(used.iter().map(|s| {
        let pointer = if s.space_id == ctx.space_id {
            Pointer::Page(s.page_no)
        } else {
            Pointer::SpacePage {
                space: s.space_id,
                page: s.page_no,
            }
        };
        Field::with_meaning(
            rseg_slot_offset(s.id) + TRX_SYS_RSEG_PAGE_NO,
            4,
            "TRX_SYS_RSEG_PAGE_NO",
            s.page_no.into(),
            format!("rollback segment {} in space {}", s.id, s.space_id),
        )
        .pointing(Some(pointer))
    }));
    Ok(out)
}

/// The binary log position's fields: the magic number, and when it is
/// there the offset and the file name.
fn binlog_fields(page: &[u8], base: usize, ctx: &PageContext) -> Result<Vec<Field>, FormatError> {
    let info = TrxSysBinlogInfo::parse_at(page, base)?;
    let mut fields = info.fields_at(base, ctx);
    if info.magic != TRX_SYS_MYSQL_LOG_MAGIC_N {
        fields.truncate(1);
        return Ok(fields);
    }
    let at = base + TRX_SYS_MYSQL_LOG_NAME;
    let name = c_string(
        page,
        at,
        TRX_SYS_MYSQL_LOG_NAME_LEN,
        "TRX_SYS_MYSQL_LOG_NAME",
    )?;
    fields.push(name_field(
        at,
        TRX_SYS_MYSQL_LOG_NAME_LEN,
        "TRX_SYS_MYSQL_LOG_NAME",
        &name,
    ));
    Ok(fields)
}

/// A NUL-terminated name field: its length as the value, the name as the meaning.
pub(crate) fn name_field(offset: usize, size: usize, name: &'static str, text: &str) -> Field {
    Field::with_meaning(
        offset,
        size,
        name,
        text.len() as u64,
        if text.is_empty() {
            "empty".to_string()
        } else {
            text.to_string()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binlog_info_is_read_at_page_size_minus_1000_past_trx_sys() {
        let mut page = vec![0u8; 16384];
        assert_eq!(mysql_log_info(&page), Ok(None), "no magic, no information");
        let base = 38 + 16384 - 1000;
        assert_eq!(mysql_log_info_offset(16384), Some(15422));
        page[base..base + 4].copy_from_slice(&TRX_SYS_MYSQL_LOG_MAGIC_N.to_be_bytes());
        page[base + 4..base + 8].copy_from_slice(&1u32.to_be_bytes());
        page[base + 8..base + 12].copy_from_slice(&7u32.to_be_bytes());
        page[base + 12..base + 12 + 9].copy_from_slice(b"bin.00003");
        assert_eq!(
            mysql_log_info(&page),
            Ok(Some(BinlogPos {
                file: "bin.00003".into(),
                offset: (1 << 32) | 7
            }))
        );
        // A name with no NUL in its 512 bytes is an error, not a panic.
        page[base + 12..base + 12 + 512].fill(b'x');
        assert!(matches!(
            mysql_log_info(&page),
            Err(FormatError::BadValue { .. })
        ));
        // A page too short for the field.
        assert!(mysql_log_info(&page[..500]).is_err());
    }
}

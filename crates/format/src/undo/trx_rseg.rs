//! Rollback segment header page (`FIL_PAGE_TYPE_SYS`, `trx0rseg.h`, base
//! `TRX_RSEG` = 38): the history list of committed undo logs that purge has
//! not removed yet, and the slots of the undo segments in use.

use crate::bytes::{slice, u32_at};
use crate::context::PageContext;
use crate::field::{Field, Pointer};
use crate::fsp::flst::FlstBase;
use crate::fsp::fseg_header::FsegHeader;
use crate::layout::layout;
use crate::section::Body;
use crate::sys::trx_sys::{c_string, name_field, BinlogPos};
use crate::vendor::Vendor;
use crate::xid::{xid_data_field, XIDDATASIZE};
use crate::FormatError;
use serde::Serialize;

/// Absolute offset of the rollback segment header on its page (`TRX_RSEG`
/// = `FSEG_PAGE_DATA` = 38); the server gives every field relative to it.
pub const TRX_RSEG: usize = 38;

layout! {
    /// The fixed part of a rollback segment header (absolute offsets); the
    /// undo slots follow it.
    pub struct RsegFixed {
        /// Offset 38 (`TRX_RSEG_FORMAT` in MariaDB 10.3+, 0 for the 10.3.5
        /// format; `TRX_RSEG_MAX_SIZE` in MySQL and older MariaDB), 4 bytes.
        TRX_RSEG_FORMAT @ TRX_RSEG => format_or_max_size: u32, shows show_format;
        /// Offset 42 (`TRX_RSEG_HISTORY_SIZE`, 4 bytes): pages used by the history list.
        TRX_RSEG_HISTORY_SIZE @ TRX_RSEG + 4 => history_size: u32;
        /// Offset 46 (`TRX_RSEG_HISTORY`, list base): the history list of
        /// committed undo logs that purge has not removed yet.
        TRX_RSEG_HISTORY @ TRX_RSEG + 8 => history: FlstBase;
        /// Offset 62 (`TRX_RSEG_FSEG_HEADER`, 10 bytes): the rollback segment's own file segment.
        TRX_RSEG_FSEG_HEADER @ TRX_RSEG + 24 => fseg: FsegHeader;
    }
}

/// Absolute offset of `TRX_RSEG_UNDO_SLOTS`: one 4-byte page number per slot.
pub const TRX_RSEG_UNDO_SLOTS: usize = RsegFixed::END;
/// Bytes per undo slot (`TRX_RSEG_SLOT_SIZE`).
pub const TRX_RSEG_SLOT_SIZE: usize = 4;
/// `TRX_RSEG_FORMAT` of a MariaDB 10.3.5+ header: only then do
/// `TRX_RSEG_MAX_TRX_ID`, the binary log position and the WSREP XID after
/// the slots hold anything (0xfffffffe marks the older format; MySQL keeps
/// `TRX_RSEG_MAX_SIZE` there).
pub const TRX_RSEG_FORMAT_10_3_5: u32 = 0;

layout! {
    /// The fields MariaDB 10.3.5+ keeps after the undo slots, offsets from
    /// `TRX_RSEG_MAX_TRX_ID` (absolute [`RsegHeader::max_trx_id_offset`] =
    /// `TRX_RSEG_UNDO_SLOTS` 72 + 4 × `page_size / 16`: 1096 at 4k, 2120 at
    /// 8k, 4168 at 16k, 8264 at 32k, 16456 at 64k). The binary log name
    /// follows at +16 ([`TRX_RSEG_BINLOG_NAME_LEN`] bytes, NUL-terminated,
    /// empty when no commit through this rollback segment was binary-logged).
    pub struct RsegMariadbTail {
        /// +0 (`TRX_RSEG_MAX_TRX_ID`, 8 bytes): the transaction id counter as
        /// it was when this header last took an undo log into its history
        /// (or freed a cached one).
        TRX_RSEG_MAX_TRX_ID_FROM_SLOTS_END "TRX_RSEG_MAX_TRX_ID" @ 0 => max_trx_id: u64;
        /// +8 (`TRX_RSEG_BINLOG_OFFSET`, 8 bytes): the binary log offset after
        /// the latest commit through this rollback segment.
        TRX_RSEG_BINLOG_OFFSET_FROM_MAX_TRX_ID "TRX_RSEG_BINLOG_OFFSET" @ 8 => binlog_offset: u64;
    }
}

layout! {
    /// MySQL 8.0's field after the undo slots, offset from the slots' end
    /// (absolute [`RsegHeader::max_trx_id_offset`], where MariaDB keeps
    /// `TRX_RSEG_MAX_TRX_ID`).
    pub struct RsegMysqlTail {
        /// +0 (`TRX_RSEG_MAX_TRX_NO`, 8 bytes): the transaction number
        /// (commit order, `TRX_UNDO_TRX_NO`) of the latest commit this
        /// rollback segment took into its history; 0 in a header never used.
        TRX_RSEG_MAX_TRX_NO_FROM_SLOTS_END "TRX_RSEG_MAX_TRX_NO" @ 0 => max_trx_no: u64;
    }
}

/// Bytes of `TRX_RSEG_MAX_TRX_ID`.
pub const TRX_RSEG_MAX_TRX_ID_LEN: usize = TRX_RSEG_BINLOG_OFFSET_FROM_MAX_TRX_ID;
/// `TRX_RSEG_BINLOG_NAME` = `TRX_RSEG_MAX_TRX_ID` + 16 (absolute 4184 at
/// 16k, 1112 at 4k): that binary log's file name, NUL-terminated in
/// [`TRX_RSEG_BINLOG_NAME_LEN`] bytes.
pub const TRX_RSEG_BINLOG_NAME_FROM_MAX_TRX_ID: usize = RsegMariadbTail::END;
/// `TRX_RSEG_BINLOG_NAME_LEN`: bytes of the name field, NUL included.
pub const TRX_RSEG_BINLOG_NAME_LEN: usize = 512;
/// `TRX_RSEG_WSREP_XID_INFO` = `TRX_RSEG_MAX_TRX_ID` + 16 + 512 (absolute
/// 4696 at 16k, 1624 at 4k): the Galera (WSREP) checkpoint XID of servers
/// built `WITH_WSREP` ([`RsegWsrepXid`], then
/// [`XIDDATASIZE`] bytes of data).
pub const TRX_RSEG_WSREP_XID_INFO_FROM_MAX_TRX_ID: usize =
    TRX_RSEG_BINLOG_NAME_FROM_MAX_TRX_ID + TRX_RSEG_BINLOG_NAME_LEN;

layout! {
    /// The WSREP checkpoint XID's fixed fields, offsets from
    /// `TRX_RSEG_WSREP_XID_INFO`; `TRX_RSEG_WSREP_XID_DATA` follows.
    pub struct RsegWsrepXid {
        /// +0 (`TRX_RSEG_WSREP_XID_FORMAT`, 4 bytes): the XID format, 0 = none written.
        TRX_RSEG_WSREP_XID_FORMAT @ 0 => format_id: u32;
        /// +4 (`TRX_RSEG_WSREP_XID_GTRID_LEN`, 4 bytes): bytes of global transaction id.
        TRX_RSEG_WSREP_XID_GTRID_LEN @ 4 => gtrid_length: u32;
        /// +8 (`TRX_RSEG_WSREP_XID_BQUAL_LEN`, 4 bytes): bytes of branch qualifier.
        TRX_RSEG_WSREP_XID_BQUAL_LEN @ 8 => bqual_length: u32;
    }
}

/// `TRX_RSEG_WSREP_XID_DATA` (WSREP XID information + 12).
pub const TRX_RSEG_WSREP_XID_DATA: usize = RsegWsrepXid::END;

fn show_format(v: &u32, ctx: &PageContext) -> Option<String> {
    Some(match (ctx.vendor, *v) {
        (Vendor::MariaDb, TRX_RSEG_FORMAT_10_3_5) => "TRX_RSEG_FORMAT: the 10.3.5 format".into(),
        (Vendor::MariaDb, 0xFFFF_FFFE) => "TRX_RSEG_FORMAT: before 10.3.5".into(),
        (Vendor::MariaDb, _) => "TRX_RSEG_FORMAT".into(),
        (_, v) => format!("TRX_RSEG_MAX_SIZE (MySQL): {v} pages at most"),
    })
}

/// The WSREP (Galera) checkpoint XID a rollback segment header keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct WsrepXid {
    /// `TRX_RSEG_WSREP_XID_FORMAT` (non-zero: present).
    pub format_id: i32,
    /// `TRX_RSEG_WSREP_XID_GTRID_LEN`.
    pub gtrid_length: u32,
    /// `TRX_RSEG_WSREP_XID_BQUAL_LEN`.
    pub bqual_length: u32,
    /// The global id and branch qualifier bytes of `TRX_RSEG_WSREP_XID_DATA`, in hex.
    pub data_hex: String,
}

/// A rollback segment header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RsegHeader {
    /// The fixed part, offsets 38 to 72.
    #[serde(flatten)]
    pub fixed: RsegFixed,
    /// `TRX_RSEG_UNDO_SLOTS` (offset 72): first page of each undo segment in
    /// use, by slot (`page_size / 16` slots; `FIL_NULL` for a free one).
    pub undo_slots: Vec<(usize, u32)>,
    /// `TRX_RSEG_MAX_TRX_ID` (MariaDB 10.3.5+, after the slots; meaningful
    /// only when [`RsegHeader::is_10_3_5_format`]): the transaction id counter
    /// as it was when this header last took an undo log into its history
    /// (or freed a cached one).
    pub max_trx_id: u64,
}

impl RsegHeader {
    /// Number of undo slots on a page of `page_size` bytes (`TRX_RSEG_N_SLOTS`).
    pub fn n_slots(page_size: usize) -> usize {
        page_size / 16
    }

    /// Absolute offset of `TRX_RSEG_MAX_TRX_ID` on a page of `page_size`
    /// bytes: `TRX_RSEG_UNDO_SLOTS` + `TRX_RSEG_SLOT_SIZE` × `TRX_RSEG_N_SLOTS`.
    pub fn max_trx_id_offset(page_size: usize) -> usize {
        TRX_RSEG_UNDO_SLOTS + TRX_RSEG_SLOT_SIZE * Self::n_slots(page_size)
    }

    /// True for a MariaDB 10.3.5+ header (`TRX_RSEG_FORMAT` 0), the only
    /// kind whose fields after the slots the server reads.
    pub fn is_10_3_5_format(&self) -> bool {
        self.fixed.format_or_max_size == TRX_RSEG_FORMAT_10_3_5
    }

    /// The binary log position of a MariaDB 10.3.5+ header page
    /// (`TRX_RSEG_BINLOG_OFFSET`, `TRX_RSEG_BINLOG_NAME`): `None` when the
    /// name is empty, or when the header is of another format.
    pub fn binlog(page: &[u8]) -> Result<Option<BinlogPos>, FormatError> {
        if u32_at(page, TRX_RSEG_FORMAT, "TRX_RSEG_FORMAT")? != TRX_RSEG_FORMAT_10_3_5 {
            return Ok(None);
        }
        let base = Self::max_trx_id_offset(page.len());
        let tail = RsegMariadbTail::parse_at(page, base)?;
        let file = c_string(
            page,
            base + TRX_RSEG_BINLOG_NAME_FROM_MAX_TRX_ID,
            TRX_RSEG_BINLOG_NAME_LEN,
            "TRX_RSEG_BINLOG_NAME",
        )?;
        if file.is_empty() {
            return Ok(None);
        }
        Ok(Some(BinlogPos {
            file,
            offset: tail.binlog_offset,
        }))
    }

    /// The WSREP checkpoint XID of a MariaDB 10.3.5+ header page
    /// (`TRX_RSEG_WSREP_XID_INFO`): `None` when its format is 0 (none
    /// written), or when the header is of another format.
    pub fn wsrep_xid(page: &[u8]) -> Result<Option<WsrepXid>, FormatError> {
        if u32_at(page, TRX_RSEG_FORMAT, "TRX_RSEG_FORMAT")? != TRX_RSEG_FORMAT_10_3_5 {
            return Ok(None);
        }
        let base = Self::max_trx_id_offset(page.len()) + TRX_RSEG_WSREP_XID_INFO_FROM_MAX_TRX_ID;
        let xid = RsegWsrepXid::parse_at(page, base)?;
        let format_id = xid.format_id as i32;
        if format_id == 0 {
            return Ok(None);
        }
        let (gtrid_length, bqual_length) = (xid.gtrid_length, xid.bqual_length);
        let len = (gtrid_length as usize).saturating_add(bqual_length as usize);
        if len > XIDDATASIZE {
            return Err(FormatError::BadValue {
                field: "TRX_RSEG_WSREP_XID_GTRID_LEN",
                offset: base + TRX_RSEG_WSREP_XID_GTRID_LEN,
                reason: format!(
                    "{gtrid_length} + {bqual_length} bytes of XID, more than {}",
                    XIDDATASIZE
                ),
            });
        }
        let data = slice(
            page,
            base + TRX_RSEG_WSREP_XID_DATA,
            len,
            "TRX_RSEG_WSREP_XID_DATA",
        )?;
        Ok(Some(WsrepXid {
            format_id,
            gtrid_length,
            bqual_length,
            data_hex: data.iter().map(|b| format!("{b:02x}")).collect(),
        }))
    }

    /// Reads the header of a rollback segment header page.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        let n = Self::n_slots(page.len());
        let mut undo_slots = Vec::new();
        for i in 0..n {
            let p = u32_at(page, TRX_RSEG_UNDO_SLOTS + 4 * i, "TRX_RSEG_UNDO_SLOTS")?;
            if p != crate::FIL_NULL {
                undo_slots.push((i, p));
            }
        }
        Ok(RsegHeader {
            fixed: RsegFixed::parse_at(page, 0)?,
            undo_slots,
            max_trx_id: RsegMariadbTail::parse_at(page, Self::max_trx_id_offset(page.len()))?
                .max_trx_id,
        })
    }
}

/// The sections of a rollback segment header page: the header, the undo
/// slots in use, and for a MariaDB 10.3.5+ header the fields after the
/// slots (`TRX_RSEG_MAX_TRX_ID`, the binary log position, the WSREP XID).
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    let Some(fixed) = body.keep(RsegFixed::parse_at(page, 0)) else {
        return;
    };
    body.push("rollback segment header", fixed.fields_at(0, ctx));
    body.add("TRX_RSEG_UNDO_SLOTS", slot_fields(page));
    if fixed.format_or_max_size == TRX_RSEG_FORMAT_10_3_5 && ctx.vendor != Vendor::MySql {
        body.add(
            "after the undo slots (MariaDB 10.3.5+)",
            tail_fields(page, ctx),
        );
    } else if ctx.vendor == Vendor::MySql {
        let at = RsegHeader::max_trx_id_offset(page.len());
        body.add(
            "after the undo slots (MySQL 8.0)",
            RsegMysqlTail::parse_at(page, at).map(|t| t.fields_at(at, ctx)),
        );
    }
}

/// A summary of the slots, then one field per slot in use pointing at the
/// undo segment's first page.
fn slot_fields(page: &[u8]) -> Result<Vec<Field>, FormatError> {
    let n = RsegHeader::n_slots(page.len());
    let mut used = Vec::new();
    for i in 0..n {
        let at = TRX_RSEG_UNDO_SLOTS + TRX_RSEG_SLOT_SIZE * i;
        let p = u32_at(page, at, "TRX_RSEG_UNDO_SLOTS")?;
        if p != crate::FIL_NULL {
            used.push(
                Field::with_meaning(
                    at,
                    TRX_RSEG_SLOT_SIZE,
                    "TRX_RSEG_UNDO_SLOTS",
                    p.into(),
                    format!("slot {i}"),
                )
                .pointing(Some(Pointer::Page(p))),
            );
        }
    }
    let mut out = vec![Field::with_meaning(
        TRX_RSEG_UNDO_SLOTS,
        n * TRX_RSEG_SLOT_SIZE,
        "TRX_RSEG_UNDO_SLOTS",
        used.len() as u64,
        format!("{} of {n} slots in use", used.len()),
    )];
    out.extend(used);
    Ok(out)
}

/// MariaDB 10.3.5+'s fields after the slots.
fn tail_fields(page: &[u8], ctx: &PageContext) -> Result<Vec<Field>, FormatError> {
    let base = RsegHeader::max_trx_id_offset(page.len());
    let mut out = RsegMariadbTail::parse_at(page, base)?.fields_at(base, ctx);
    let name_at = base + TRX_RSEG_BINLOG_NAME_FROM_MAX_TRX_ID;
    let name = c_string(
        page,
        name_at,
        TRX_RSEG_BINLOG_NAME_LEN,
        "TRX_RSEG_BINLOG_NAME",
    )?;
    out.push(name_field(
        name_at,
        TRX_RSEG_BINLOG_NAME_LEN,
        "TRX_RSEG_BINLOG_NAME",
        &name,
    ));
    let xid_at = base + TRX_RSEG_WSREP_XID_INFO_FROM_MAX_TRX_ID;
    let xid = RsegWsrepXid::parse_at(page, xid_at)?;
    out.extend(xid.fields_at(xid_at, ctx));
    if xid.format_id != 0 {
        let len = (xid.gtrid_length as usize).saturating_add(xid.bqual_length as usize);
        out.push(xid_data_field(
            page,
            xid_at + TRX_RSEG_WSREP_XID_DATA,
            len,
            "TRX_RSEG_WSREP_XID_DATA",
        )?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4k rollback segment header page in the 10.3.5 format, with no slot used.
    fn page_4k() -> Vec<u8> {
        let mut p = vec![0u8; 4096];
        p[TRX_RSEG_UNDO_SLOTS..TRX_RSEG_UNDO_SLOTS + 4 * 256].fill(0xff);
        p
    }

    #[test]
    fn fields_after_the_slots_are_where_the_server_puts_them() {
        assert_eq!(RsegHeader::max_trx_id_offset(4096), 1096);
        assert_eq!(RsegHeader::max_trx_id_offset(16384), 4168);
        assert_eq!(RsegHeader::max_trx_id_offset(65536), 16456);
        let mut p = page_4k();
        p[1096..1104].copy_from_slice(&45u64.to_be_bytes());
        assert_eq!(RsegHeader::binlog(&p), Ok(None), "empty name: no binlog");
        assert_eq!(RsegHeader::wsrep_xid(&p), Ok(None), "format 0: no XID");
        p[1104..1112].copy_from_slice(&1234u64.to_be_bytes());
        p[1112..1128].copy_from_slice(b"mysql-bin.000001");
        let h = RsegHeader::parse(&p);
        assert_eq!(h.as_ref().map(|h| h.max_trx_id), Ok(45));
        assert_eq!(h.map(|h| h.is_10_3_5_format()), Ok(true));
        assert_eq!(
            RsegHeader::binlog(&p),
            Ok(Some(BinlogPos {
                file: "mysql-bin.000001".into(),
                offset: 1234
            }))
        );
        // The WSREP XID after the name.
        p[1624..1628].copy_from_slice(&1u32.to_be_bytes());
        p[1628..1632].copy_from_slice(&2u32.to_be_bytes());
        p[1632..1636].copy_from_slice(&1u32.to_be_bytes());
        p[1636..1639].copy_from_slice(&[0xab, 0xcd, 0xef]);
        assert_eq!(
            RsegHeader::wsrep_xid(&p).map(|x| x.map(|x| x.data_hex)),
            Ok(Some("abcdef".to_string()))
        );
        p[1628..1632].copy_from_slice(&200u32.to_be_bytes());
        assert!(
            RsegHeader::wsrep_xid(&p).is_err(),
            "longer than XIDDATASIZE"
        );
        // Another format: the fields after the slots are not read.
        p[TRX_RSEG_FORMAT..TRX_RSEG_FORMAT + 4].copy_from_slice(&0xffff_fffeu32.to_be_bytes());
        assert_eq!(RsegHeader::binlog(&p), Ok(None));
        assert_eq!(RsegHeader::wsrep_xid(&p), Ok(None));
    }

    #[test]
    fn a_name_without_nul_or_a_short_page_is_an_error() {
        let mut p = page_4k();
        p[1112..1112 + 512].fill(b'a');
        assert!(RsegHeader::binlog(&p).is_err());
        assert!(RsegHeader::binlog(&p[..100]).is_err());
        assert!(RsegHeader::wsrep_xid(&p[..100]).is_err());
        assert!(RsegHeader::binlog(&[]).is_err());
    }
}

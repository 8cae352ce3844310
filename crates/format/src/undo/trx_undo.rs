//! Undo log pages (`FIL_PAGE_UNDO_LOG`, `trx0undo.h`): the page header
//! every undo page has, the segment header on an undo segment's first
//! page, and the undo log headers (one per transaction) on that page.

use crate::bytes::slice;
use crate::context::PageContext;
use crate::fsp::flst::{FilAddr, FlstBase, FlstNode};
use crate::fsp::fseg_header::FsegHeader;
use crate::layout::layout;
use crate::section::Body;
use crate::vendor::Vendor;
use crate::xid::XIDDATASIZE;
use crate::FormatError;
use serde::Serialize;

layout! {
    /// The undo page header every undo page has (`TRX_UNDO_PAGE_HDR` = 38, absolute offsets).
    pub struct UndoPageHeader {
        /// Offset 38 (`TRX_UNDO_PAGE_TYPE`, 2 bytes): 1 insert, 2 update (0
        /// in MariaDB 10.3+, which keeps both kinds in one log).
        TRX_UNDO_PAGE_TYPE @ 38 => page_type: u16, shows show_page_type;
        /// Offset 40 (`TRX_UNDO_PAGE_START`, 2 bytes): the first record of the latest log on the page.
        TRX_UNDO_PAGE_START @ 40 => start: u16;
        /// Offset 42 (`TRX_UNDO_PAGE_FREE`, 2 bytes): the first free byte.
        TRX_UNDO_PAGE_FREE @ 42 => free: u16;
        /// Offset 44 (`TRX_UNDO_PAGE_NODE`, 12 bytes): the page's links in its segment's page list.
        TRX_UNDO_PAGE_NODE @ 44 => node: FlstNode;
    }
}

/// Absolute offset of the undo page header (`TRX_UNDO_PAGE_HDR` = `FSEG_PAGE_DATA`).
pub const TRX_UNDO_PAGE_HDR: usize = TRX_UNDO_PAGE_TYPE;

fn show_page_type(t: &u16, _: &PageContext) -> Option<String> {
    Some(
        match t {
            0 => "0: insert and update records (MariaDB 10.3+)",
            1 => "TRX_UNDO_INSERT",
            2 => "TRX_UNDO_UPDATE",
            _ => "unknown",
        }
        .into(),
    )
}

impl UndoPageHeader {
    /// Reads the header of an undo page.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        Self::parse_at(page, 0)
    }
}

/// `TRX_UNDO_STATE` values.
pub mod state {
    /// `TRX_UNDO_ACTIVE`: in use by an active transaction.
    pub const ACTIVE: u16 = 1;
    /// `TRX_UNDO_CACHED`: kept for reuse.
    pub const CACHED: u16 = 2;
    /// `TRX_UNDO_TO_FREE`: an insert undo log to be freed.
    pub const TO_FREE: u16 = 3;
    /// `TRX_UNDO_TO_PURGE`: an update undo log waiting for purge.
    pub const TO_PURGE: u16 = 4;
    /// `TRX_UNDO_PREPARED`: of a prepared XA transaction (MySQL 8.0.29+
    /// calls 5 `TRX_UNDO_PREPARED_80028`: one prepared by an older server).
    pub const PREPARED: u16 = 5;
    /// `TRX_UNDO_PREPARED` of MySQL 8.0.29+.
    pub const PREPARED_80029: u16 = 6;
    /// `TRX_UNDO_PREPARED_IN_TC` (MySQL 8.0.29+): prepared, and processed
    /// by the transaction coordinator.
    pub const PREPARED_IN_TC: u16 = 7;

    /// The state's name (MySQL 8.0.29+'s two prepared states are
    /// `prepared` and `prepared_in_tc`).
    pub fn name(s: u16) -> &'static str {
        match s {
            ACTIVE => "active",
            CACHED => "cached",
            TO_FREE => "to_free",
            TO_PURGE => "to_purge",
            PREPARED | PREPARED_80029 => "prepared",
            PREPARED_IN_TC => "prepared_in_tc",
            _ => "unknown",
        }
    }

    /// True for a segment whose transaction is still in flight: active or
    /// prepared (in any of the prepared states).
    pub fn in_use(s: u16) -> bool {
        matches!(s, ACTIVE | PREPARED | PREPARED_80029 | PREPARED_IN_TC)
    }
}

layout! {
    /// The undo segment header on an undo segment's first page
    /// (`TRX_UNDO_SEG_HDR` = 56, absolute offsets).
    pub struct UndoSegHeader {
        /// Offset 56 (`TRX_UNDO_STATE`, 2 bytes), see [`state`].
        TRX_UNDO_STATE @ 56 => state: u16, shows show_state;
        /// Offset 58 (`TRX_UNDO_LAST_LOG`, 2 bytes): the page's last undo log header, 0 if none.
        TRX_UNDO_LAST_LOG @ 58 => last_log: u16;
        /// Offset 60 (`TRX_UNDO_FSEG_HEADER`, 10 bytes): the undo segment's file segment.
        TRX_UNDO_FSEG_HEADER @ 60 => fseg: FsegHeader;
        /// Offset 70 (`TRX_UNDO_PAGE_LIST`, list base): the segment's pages,
        /// linked by their `TRX_UNDO_PAGE_NODE`.
        TRX_UNDO_PAGE_LIST @ 70 => page_list: FlstBase;
    }
}

/// Absolute offset of the undo segment header on a segment's first page
/// (`TRX_UNDO_SEG_HDR` = 38 + `TRX_UNDO_PAGE_HDR_SIZE` 18).
pub const TRX_UNDO_SEG_HDR: usize = TRX_UNDO_STATE;
/// Absolute offset where the first undo log header of a segment starts
/// (`TRX_UNDO_SEG_HDR` + `TRX_UNDO_SEG_HDR_SIZE` 30).
pub const TRX_UNDO_FIRST_LOG: usize = UndoSegHeader::END;

fn show_state(s: &u16, ctx: &PageContext) -> Option<String> {
    Some(match (s, ctx.vendor) {
        (5, Vendor::MySql) => {
            "prepared (TRX_UNDO_PREPARED, TRX_UNDO_PREPARED_80028 in 8.0.29+)".into()
        }
        (6, Vendor::MySql) => "prepared (TRX_UNDO_PREPARED, MySQL 8.0.29+)".into(),
        (7, Vendor::MySql) => {
            "prepared in the coordinator (TRX_UNDO_PREPARED_IN_TC, MySQL 8.0.29+)".into()
        }
        (s, _) => state::name(*s).into(),
    })
}

impl UndoSegHeader {
    /// Reads the segment header of an undo segment's first page.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        Self::parse_at(page, 0)
    }
}

layout! {
    /// An undo log header: one transaction's undo log (offsets from the header's start).
    pub struct UndoLogHeader {
        /// +0 (`TRX_UNDO_TRX_ID`, 8 bytes): the transaction's id.
        TRX_UNDO_TRX_ID @ 0 => trx_id: u64;
        /// +8 (`TRX_UNDO_TRX_NO`, 8 bytes): its commit number (serialisation order).
        TRX_UNDO_TRX_NO @ 8 => trx_no: u64;
        /// +16 (`TRX_UNDO_DEL_MARKS`, 2 bytes; MariaDB `TRX_UNDO_NEEDS_PURGE`):
        /// the log has delete-marking records (MariaDB: purge has work to do).
        TRX_UNDO_DEL_MARKS @ 16 => del_marks: u16, shows show_del_marks;
        /// +18 (`TRX_UNDO_LOG_START`, 2 bytes): the offset of its first undo record.
        TRX_UNDO_LOG_START @ 18 => log_start: u16;
        /// +20 (`TRX_UNDO_XID_EXISTS`, 1 byte; MySQL 8.0 `TRX_UNDO_FLAGS`):
        /// 1 (bit 0) when an XA XID follows the header; MySQL 8.0 also sets
        /// bit 1 for a GTID and bit 2 for an XA-prepare GTID.
        TRX_UNDO_XID_EXISTS @ 20 => xid_exists: u8, shows show_flags;
        /// +21 (`TRX_UNDO_DICT_TRANS`, 1 byte): a data dictionary operation.
        TRX_UNDO_DICT_TRANS @ 21 => dict_trans: u8;
        /// +22 (`TRX_UNDO_TABLE_ID`, 8 bytes): the table of a dictionary operation.
        TRX_UNDO_TABLE_ID @ 22 => table_id: u64;
        /// +30 (`TRX_UNDO_NEXT_LOG`, 2 bytes): the next header on the page, 0 if none.
        TRX_UNDO_NEXT_LOG @ 30 => next_log: u16;
        /// +32 (`TRX_UNDO_PREV_LOG`, 2 bytes): the previous header on the page, 0 if none.
        TRX_UNDO_PREV_LOG @ 32 => prev_log: u16;
        /// +34 (`TRX_UNDO_HISTORY_NODE`, 12 bytes): links in the rollback
        /// segment's history list (which point here).
        TRX_UNDO_HISTORY_NODE @ 34 => history_node: FlstNode;
    }
}

/// Bytes of an undo log header without XID (`TRX_UNDO_LOG_OLD_HDR_SIZE`).
pub const TRX_UNDO_LOG_OLD_HDR_SIZE: usize = UndoLogHeader::END;

fn show_del_marks(v: &u16, ctx: &PageContext) -> Option<String> {
    (ctx.vendor == Vendor::MariaDb).then(|| format!("TRX_UNDO_NEEDS_PURGE {v}"))
}

fn show_flags(v: &u8, ctx: &PageContext) -> Option<String> {
    if ctx.vendor == Vendor::MariaDb {
        return Some(if v & 1 != 0 { "XID follows" } else { "no XID" }.into());
    }
    let mut out = Vec::new();
    if v & 1 != 0 {
        out.push("XID");
    }
    if v & 2 != 0 {
        out.push("GTID");
    }
    if v & 4 != 0 {
        out.push("XA-prepare GTID");
    }
    Some(if out.is_empty() {
        "no XID".into()
    } else {
        format!("TRX_UNDO_FLAGS: {}", out.join(", "))
    })
}

impl UndoLogHeader {
    /// True when an XA XID follows the header (`TRX_UNDO_XID_EXISTS`, or
    /// bit 0 of MySQL 8.0's `TRX_UNDO_FLAGS`).
    pub fn has_xid(&self) -> bool {
        self.xid_exists & 1 != 0
    }

    /// True when the log has delete-marking records (`TRX_UNDO_DEL_MARKS`).
    pub fn has_del_marks(&self) -> bool {
        self.del_marks != 0
    }
}

layout! {
    /// The X/Open XA transaction id's fixed fields after an undo log header
    /// (offsets from the header's start); `TRX_UNDO_XA_XID` follows.
    pub struct UndoXaXid {
        /// +46 (`TRX_UNDO_XA_FORMAT`, 4 bytes): `formatID`.
        TRX_UNDO_XA_FORMAT @ 46 => format_id: u32;
        /// +50 (`TRX_UNDO_XA_TRID_LEN`, 4 bytes): bytes of global transaction id.
        TRX_UNDO_XA_TRID_LEN @ 50 => trid_len: u32;
        /// +54 (`TRX_UNDO_XA_BQUAL_LEN`, 4 bytes): bytes of branch qualifier.
        TRX_UNDO_XA_BQUAL_LEN @ 54 => bqual_len: u32;
    }
}

/// Offset of `TRX_UNDO_XA_XID` from an undo log header's start: the XID's
/// [`XIDDATASIZE`] bytes of data.
pub const TRX_UNDO_XA_XID: usize = UndoXaXid::END;

/// The X/Open XA transaction id after an undo log header
/// (`TRX_UNDO_XA_FORMAT` +46, `TRX_UNDO_XA_TRID_LEN` +50,
/// `TRX_UNDO_XA_BQUAL_LEN` +54, `TRX_UNDO_XA_XID` +58, 128 bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Xid {
    /// `formatID`.
    pub format_id: i32,
    /// The global transaction id (`gtrid_length` bytes of the data).
    pub gtrid: String,
    /// The branch qualifier (the next `bqual_length` bytes).
    pub bqual: String,
}

impl Xid {
    /// Reads the XID following the undo log header at `offset` of `page`.
    pub fn parse_at(page: &[u8], offset: usize) -> Result<Self, FormatError> {
        let h = UndoXaXid::parse_at(page, offset)?;
        let (trid, bqual) = (h.trid_len as usize, h.bqual_len as usize);
        if trid.saturating_add(bqual) > XIDDATASIZE {
            return Err(FormatError::BadValue {
                field: "TRX_UNDO_XA_TRID_LEN",
                offset: offset + TRX_UNDO_XA_TRID_LEN,
                reason: format!("{trid} + {bqual} bytes of XID, more than {XIDDATASIZE}"),
            });
        }
        let data = slice(
            page,
            offset + TRX_UNDO_XA_XID,
            XIDDATASIZE,
            "TRX_UNDO_XA_XID",
        )?;
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        // trid + bqual <= XIDDATASIZE, the length of `data`, checked above.
        let (gtrid, rest) = data.split_at_checked(trid).unwrap_or((data, &[]));
        Ok(Xid {
            format_id: h.format_id as i32,
            gtrid: text(gtrid),
            bqual: text(rest.get(..bqual).unwrap_or(rest)),
        })
    }
}
/// The sections of an undo log page: its page header; on an undo
/// segment's first page (the first node of its own page list) the segment
/// header and every undo log header on the page, each with its records;
/// on the other pages the records from `TRX_UNDO_PAGE_START` to
/// `TRX_UNDO_PAGE_FREE`.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    let Some(ph) = body.keep(UndoPageHeader::parse(page)) else {
        return;
    };
    body.push("undo page header", ph.fields_at(0, ctx));
    let first_node = FilAddr {
        page: ctx.page_no,
        byte: TRX_UNDO_PAGE_NODE as u16,
    };
    let seg = UndoSegHeader::parse(page)
        .ok()
        .filter(|s| ph.node.prev.is_null() && s.page_list.first == first_node);
    let Some(seg) = seg else {
        records(page, ph.start, ph.free, "undo records", body);
        return;
    };
    body.push("undo segment header", seg.fields_at(0, ctx));
    // The logs on the page, found back from the last one.
    let mut logs: Vec<(usize, UndoLogHeader)> = Vec::new();
    let mut at = usize::from(seg.last_log);
    while at != 0 {
        if logs.iter().any(|&(o, _)| o == at) || logs.len() > page.len() / UndoLogHeader::END {
            body.problems.push(FormatError::BadValue {
                field: "TRX_UNDO_PREV_LOG",
                offset: at + TRX_UNDO_PREV_LOG,
                reason: format!("the undo log headers of the page come back to {at}"),
            });
            break;
        }
        let Some(h) = body.keep(UndoLogHeader::parse_at(page, at)) else {
            break;
        };
        logs.push((at, h));
        at = usize::from(h.prev_log);
    }
    logs.reverse();
    for (at, h) in logs {
        let mut fields = h.fields_at(at, ctx);
        if h.has_xid() {
            if let Some(x) = body.keep(UndoXaXid::parse_at(page, at)) {
                fields.extend(x.fields_at(at, ctx));
                let len = (x.trid_len as usize).saturating_add(x.bqual_len as usize);
                fields.extend(body.keep(crate::xid::xid_data_field(
                    page,
                    at + TRX_UNDO_XA_XID,
                    len,
                    "TRX_UNDO_XA_XID",
                )));
            }
        }
        body.push(format!("undo log header at {at}"), fields);
        let end = if h.next_log != 0 { h.next_log } else { ph.free };
        records(
            page,
            h.log_start,
            end,
            &format!("undo records of the log at {at}"),
            body,
        );
    }
}

/// A section of the undo records from `from` to `to`, when there are any.
fn records(page: &[u8], from: u16, to: u16, title: &str, body: &mut Body) {
    let (fields, problem) =
        crate::undo::trx_undo_rec::record_fields(page, usize::from(from), usize::from(to));
    if !fields.is_empty() {
        body.push(title, fields);
    }
    body.problems.extend(problem);
}

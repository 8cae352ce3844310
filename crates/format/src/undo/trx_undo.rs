//! Undo log pages (`FIL_PAGE_UNDO_LOG`, `trx0undo.h`): the page header
//! every undo page has, the segment header on an undo segment's first
//! page, and the undo log headers (one per transaction) on that page.

use crate::bytes::{slice, u16_at, u64_at, u8_at};
use crate::fsp::flst::{FlstBase, FlstNode, FLST_BASE_NODE_SIZE, FLST_NODE_SIZE};
use crate::FormatError;
use serde::Serialize;

/// Absolute offset of the undo page header (`TRX_UNDO_PAGE_HDR` = `FSEG_PAGE_DATA`).
pub const TRX_UNDO_PAGE_HDR: usize = 38;
/// Absolute offset of the undo segment header on a segment's first page
/// (`TRX_UNDO_SEG_HDR` = 38 + `TRX_UNDO_PAGE_HDR_SIZE` 18).
pub const TRX_UNDO_SEG_HDR: usize = 56;
/// Absolute offset of the undo segment's FSEG header
/// (`TRX_UNDO_SEG_HDR` + `TRX_UNDO_FSEG_HEADER` 4).
pub const TRX_UNDO_FSEG_HEADER: usize = 60;
/// Absolute offset of the segment's page list base (`TRX_UNDO_SEG_HDR` +
/// `TRX_UNDO_PAGE_LIST` 14): the pages linked by their `TRX_UNDO_PAGE_NODE`.
pub const TRX_UNDO_PAGE_LIST: usize = 70;
/// Absolute offset where the first undo log header of a segment starts
/// (`TRX_UNDO_SEG_HDR` + `TRX_UNDO_SEG_HDR_SIZE` 30).
pub const TRX_UNDO_FIRST_LOG: usize = 86;
/// Absolute offset of the page-list node (`TRX_UNDO_PAGE_HDR` + `TRX_UNDO_PAGE_NODE` 6).
pub const TRX_UNDO_PAGE_NODE: usize = 44;
/// Offset of `TRX_UNDO_HISTORY_NODE` within an undo log header: the
/// history list links point here.
pub const TRX_UNDO_HISTORY_NODE: usize = 34;

/// The undo page header (`TRX_UNDO_PAGE_HDR`, offset 38).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct UndoPageHeader {
    /// `TRX_UNDO_PAGE_TYPE` (offset 38): 1 insert, 2 update (0 in MariaDB
    /// 10.3+, which keeps both kinds in one log).
    pub page_type: u16,
    /// `TRX_UNDO_PAGE_START` (offset 40): first record of the latest log on the page.
    pub start: u16,
    /// `TRX_UNDO_PAGE_FREE` (offset 42): first free byte.
    pub free: u16,
    /// `TRX_UNDO_PAGE_NODE` (offset 44): links in the segment's page list.
    pub node: FlstNode,
}

impl UndoPageHeader {
    /// Reads the header of an undo page.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        Ok(UndoPageHeader {
            page_type: u16_at(page, 38, "TRX_UNDO_PAGE_TYPE")?,
            start: u16_at(page, 40, "TRX_UNDO_PAGE_START")?,
            free: u16_at(page, 42, "TRX_UNDO_PAGE_FREE")?,
            node: FlstNode::parse(slice(
                page,
                TRX_UNDO_PAGE_NODE,
                FLST_NODE_SIZE,
                "TRX_UNDO_PAGE_NODE",
            )?)?,
        })
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
    /// `TRX_UNDO_PREPARED`: of a prepared XA transaction.
    pub const PREPARED: u16 = 5;

    /// The state's name.
    pub fn name(s: u16) -> &'static str {
        match s {
            ACTIVE => "active",
            CACHED => "cached",
            TO_FREE => "to_free",
            TO_PURGE => "to_purge",
            PREPARED => "prepared",
            _ => "unknown",
        }
    }
}

/// The undo segment header (`TRX_UNDO_SEG_HDR`, offset 56 of a segment's first page).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct UndoSegHeader {
    /// `TRX_UNDO_STATE` (offset 56), see [`state`].
    pub state: u16,
    /// `TRX_UNDO_LAST_LOG` (offset 58): the page's last undo log header, 0 if none.
    pub last_log: u16,
    /// `TRX_UNDO_PAGE_LIST` (offset 70): the segment's pages.
    pub page_list: FlstBase,
}

impl UndoSegHeader {
    /// Reads the segment header of an undo segment's first page.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        Ok(UndoSegHeader {
            state: u16_at(page, 56, "TRX_UNDO_STATE")?,
            last_log: u16_at(page, 58, "TRX_UNDO_LAST_LOG")?,
            page_list: FlstBase::parse(slice(
                page,
                TRX_UNDO_PAGE_LIST,
                FLST_BASE_NODE_SIZE,
                "TRX_UNDO_PAGE_LIST",
            )?)?,
        })
    }
}

/// An undo log header: one transaction's undo log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct UndoLogHeader {
    /// Where the header starts on its page.
    pub offset: usize,
    /// `TRX_UNDO_TRX_ID` (+0): the transaction's id.
    pub trx_id: u64,
    /// `TRX_UNDO_TRX_NO` (+8): its commit number (serialisation order).
    pub trx_no: u64,
    /// `TRX_UNDO_DEL_MARKS` (+16): the log has delete-marking records.
    pub del_marks: bool,
    /// `TRX_UNDO_LOG_START` (+18): offset of its first undo record.
    pub log_start: u16,
    /// `TRX_UNDO_XID_EXISTS` (+20): an XA XID follows the header.
    pub xid_exists: bool,
    /// `TRX_UNDO_DICT_TRANS` (+21): a data dictionary operation.
    pub dict_trans: bool,
    /// `TRX_UNDO_TABLE_ID` (+22): the table of a dictionary operation.
    pub table_id: u64,
    /// `TRX_UNDO_NEXT_LOG` (+30): the next header on the page, 0 if none.
    pub next_log: u16,
    /// `TRX_UNDO_PREV_LOG` (+32): the previous header on the page, 0 if none.
    pub prev_log: u16,
    /// `TRX_UNDO_HISTORY_NODE` (+34): links in the rollback segment's history list.
    pub history_node: FlstNode,
}

/// The X/Open XA transaction id after an undo log header
/// (`TRX_UNDO_XA_FORMAT` +46, `TRX_UNDO_XA_TRID_LEN` +50,
/// `TRX_UNDO_XA_BQUAL_LEN` +54, `TRX_UNDO_XA_XID` +58, 128 bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Xid {
    /// `formatID`.
    pub format_id: i32,
    /// The global transaction id (`gtrid_length` bytes of the data).
    pub gtrid: String,
    /// The branch qualifier (the next `bqual_length` bytes).
    pub bqual: String,
}

/// Bytes of XID data (`XIDDATASIZE`).
pub const XIDDATASIZE: usize = 128;

impl Xid {
    /// Reads the XID following the undo log header at `offset` of `page`.
    pub fn parse_at(page: &[u8], offset: usize) -> Result<Self, FormatError> {
        let format_id = crate::bytes::u32_at(page, offset + 46, "TRX_UNDO_XA_FORMAT")? as i32;
        let trid = crate::bytes::u32_at(page, offset + 50, "TRX_UNDO_XA_TRID_LEN")? as usize;
        let bqual = crate::bytes::u32_at(page, offset + 54, "TRX_UNDO_XA_BQUAL_LEN")? as usize;
        if trid + bqual > XIDDATASIZE {
            return Err(FormatError::BadValue {
                field: "TRX_UNDO_XA_TRID_LEN",
                offset: offset + 50,
                reason: format!("{trid} + {bqual} bytes of XID, more than {XIDDATASIZE}"),
            });
        }
        let data = slice(page, offset + 58, XIDDATASIZE, "TRX_UNDO_XA_XID")?;
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        // trid + bqual <= XIDDATASIZE, the length of `data`, checked above.
        let (gtrid, rest) = data.split_at_checked(trid).unwrap_or((data, &[]));
        Ok(Xid {
            format_id,
            gtrid: text(gtrid),
            bqual: text(rest.get(..bqual).unwrap_or(rest)),
        })
    }
}

impl UndoLogHeader {
    /// Reads the undo log header at absolute `offset` of `page`.
    pub fn parse_at(page: &[u8], offset: usize) -> Result<Self, FormatError> {
        let b = slice(
            page,
            offset,
            TRX_UNDO_HISTORY_NODE + FLST_NODE_SIZE,
            "undo log header",
        )?;
        Ok(UndoLogHeader {
            offset,
            trx_id: u64_at(b, 0, "TRX_UNDO_TRX_ID")?,
            trx_no: u64_at(b, 8, "TRX_UNDO_TRX_NO")?,
            del_marks: u16_at(b, 16, "TRX_UNDO_DEL_MARKS")? != 0,
            log_start: u16_at(b, 18, "TRX_UNDO_LOG_START")?,
            xid_exists: u8_at(b, 20, "TRX_UNDO_XID_EXISTS")? != 0,
            dict_trans: u8_at(b, 21, "TRX_UNDO_DICT_TRANS")? != 0,
            table_id: u64_at(b, 22, "TRX_UNDO_TABLE_ID")?,
            next_log: u16_at(b, 30, "TRX_UNDO_NEXT_LOG")?,
            prev_log: u16_at(b, 32, "TRX_UNDO_PREV_LOG")?,
            history_node: FlstNode::parse(slice(
                b,
                TRX_UNDO_HISTORY_NODE,
                FLST_NODE_SIZE,
                "TRX_UNDO_HISTORY_NODE",
            )?)?,
        })
    }
}

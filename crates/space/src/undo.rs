//! The undo logs of a server: from the TRX_SYS page of the system
//! tablespace to each rollback segment (in the system tablespace or an
//! undo tablespace), its history list of committed undo logs waiting for
//! purge, the undo segments in its slots, and the undo records of each log.
//!
//! Every walk is bounded: a list has at most as many members as its base
//! node says (and no more than the file has pages), a page or header met
//! twice ends it with a finding, records must move forward on a page.

use crate::finding::{Finding, FindingKind};
use crate::logical_pages::LogicalPages;
use crate::page_check::PageCheck;
use crate::Tablespace;
use innodb_format::fil::header::FIL_PAGE_TYPE;
use innodb_format::fil::page_type::PageType;
use innodb_format::fsp::flst::FilAddr;
use innodb_format::sys::trx_sys::{self, BinlogPos, RsegSlot, TRX_SYS_PAGE_NO};
use innodb_format::undo::trx_rseg::{RsegHeader, WsrepXid};
use innodb_format::undo::trx_undo::{
    UndoLogHeader, UndoPageHeader, UndoSegHeader, TRX_UNDO_HISTORY_NODE, TRX_UNDO_PAGE_LIST,
    TRX_UNDO_PAGE_NODE,
};
use innodb_format::undo::trx_undo_rec::UndoRecordHeader;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

/// Undo records counted by type and table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RecordCounts {
    /// Records.
    pub records: u64,
    /// Their bytes on the pages.
    pub bytes: u64,
    /// Records by type name (`insert`, `update_existing`, …).
    pub by_kind: BTreeMap<&'static str, u64>,
    /// (records, bytes) by table id.
    pub by_table: BTreeMap<u64, (u64, u64)>,
}

impl RecordCounts {
    fn add(&mut self, r: &UndoRecordHeader, bytes: u64) {
        self.records += 1;
        self.bytes += bytes;
        *self
            .by_kind
            .entry(innodb_format::undo::trx_undo_rec::kind::name(r.kind))
            .or_default() += 1;
        let t = self.by_table.entry(r.table_id).or_default();
        t.0 += 1;
        t.1 += bytes;
    }

    /// Adds another count to this one.
    pub fn merge(&mut self, o: &RecordCounts) {
        self.records += o.records;
        self.bytes += o.bytes;
        for (k, v) in &o.by_kind {
            *self.by_kind.entry(k).or_default() += v;
        }
        for (k, v) in &o.by_table {
            let t = self.by_table.entry(*k).or_default();
            t.0 += v.0;
            t.1 += v.1;
        }
    }
}

/// One undo record as stored, kept for listing.
#[derive(Debug, Clone, Serialize)]
pub struct UndoRecordRaw {
    /// Tablespace.
    pub space_id: u32,
    /// Page.
    pub page: u32,
    /// Offset on the page.
    pub offset: usize,
    /// Rollback segment.
    pub rseg: usize,
    /// Its log's transaction id and commit number.
    pub trx_id: u64,
    /// Its log's commit number.
    pub trx_no: u64,
    /// Its header.
    pub header: UndoRecordHeader,
    /// Its bytes (from its start to the next record's).
    #[serde(skip)]
    pub bytes: Vec<u8>,
}

/// What to keep while reading.
#[derive(Debug, Clone, Copy, Default)]
pub struct Keep {
    /// Undo records to keep for listing, at most.
    pub records: usize,
}

/// One undo log (one transaction's undo records in one segment).
#[derive(Debug, Clone, Serialize)]
pub struct UndoLog {
    /// Space id of the tablespace holding it.
    pub space_id: u32,
    /// The page of its header.
    pub page: u32,
    /// Where its header starts on that page.
    pub offset: usize,
    /// Its header.
    pub header: UndoLogHeader,
    /// Pages its records take.
    pub pages: u32,
    /// Its records.
    pub counts: RecordCounts,
}

/// The transaction id and commit number of an undo log header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LogIds {
    /// `TRX_UNDO_TRX_ID`.
    pub trx_id: u64,
    /// `TRX_UNDO_TRX_NO`.
    pub trx_no: u64,
}

/// An undo segment in a rollback segment slot.
#[derive(Debug, Clone, Serialize)]
pub struct UndoSegment {
    /// Slot number.
    pub slot: usize,
    /// Its first page.
    pub page: u32,
    /// `TRX_UNDO_STATE` name.
    pub state: &'static str,
    /// Pages in its page list.
    pub pages: u32,
    /// For a segment in use (active or prepared): its last undo log's
    /// transaction id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trx_id: Option<u64>,
    /// That log's XA transaction id, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xid: Option<innodb_format::undo::trx_undo::Xid>,
    /// That log's records (segments in use only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<RecordCounts>,
    /// `TRX_UNDO_PAGE_TYPE` of its first page (0 when written by MariaDB
    /// 10.3+, 1 insert or 2 update by older servers).
    pub page_type: u16,
    /// The ids of its last undo log (`TRX_UNDO_LAST_LOG`), whatever its
    /// state, when that header can be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_log: Option<LogIds>,
}

/// A rollback segment.
#[derive(Debug, Clone, Serialize)]
pub struct RollbackSegment {
    /// Its TRX_SYS slot.
    pub slot: RsegSlot,
    /// Its header, when its tablespace was given and the page is readable.
    pub header: Option<RsegHeader>,
    /// `FIL_PAGE_LSN` of its header page (older MariaDB versions recovered
    /// the binary log position of the header page with the highest one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_lsn: Option<u64>,
    /// The binary log position its header keeps (MariaDB 10.3.5+,
    /// `TRX_RSEG_BINLOG_OFFSET`/`TRX_RSEG_BINLOG_NAME`), when one is recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binlog: Option<BinlogPos>,
    /// The WSREP checkpoint XID its header keeps, when one is recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wsrep_xid: Option<WsrepXid>,
    /// The ids of the oldest undo log of its history (the list's last node,
    /// the one purge takes next), when the history is not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oldest_history: Option<LogIds>,
    /// Undo logs of its history list, newest first (as linked).
    pub history: Vec<UndoLog>,
    /// Undo segments in its slots.
    pub segments: Vec<UndoSegment>,
}

/// The undo state of a server.
#[derive(Debug, Clone, Serialize)]
pub struct UndoState {
    /// `TRX_SYS_TRX_ID_STORE`.
    pub trx_id_store: u64,
    /// The binary log position on the TRX_SYS page (`TRX_SYS_MYSQL_LOG_INFO`:
    /// MySQL, MariaDB before 10.3.5), when its magic number is there.
    pub trx_sys_binlog: Option<BinlogPos>,
    /// Rollback segments in use.
    pub rollback_segments: Vec<RollbackSegment>,
    /// Undo records kept for listing (see [`Keep`]), in history order.
    pub records: Vec<UndoRecordRaw>,
    /// Problems met.
    pub findings: Vec<Finding>,
}

/// Reads the undo state from the system tablespace and the undo
/// tablespaces given (found by their space ids).
pub fn read(system: &Tablespace, undo: &[&Tablespace]) -> UndoState {
    read_keeping(system, undo, Keep::default())
}

/// [`read`], keeping up to `keep.records` undo records for listing.
pub fn read_keeping(system: &Tablespace, undo: &[&Tablespace], keep: Keep) -> UndoState {
    let mut findings = Vec::new();
    let mut sys_pages = LogicalPages::new(system);
    let mut buf = Vec::new();
    let mut state = UndoState {
        trx_id_store: 0,
        trx_sys_binlog: None,
        rollback_segments: Vec::new(),
        records: Vec::new(),
        findings: Vec::new(),
    };
    let Some(check) = sys_pages.read_into(TRX_SYS_PAGE_NO, &mut buf) else {
        findings.push(Finding::on_page(
            FindingKind::Unreadable,
            TRX_SYS_PAGE_NO,
            0,
            "TRX_SYS",
            "the TRX_SYS page cannot be read",
        ));
        state.findings = findings;
        return state;
    };
    if let Some(f) = not_a(&check, PageType::TYPE_TRX_SYS, system, |why| {
        format!("page {TRX_SYS_PAGE_NO} should be the TRX_SYS page but {why}; no rollback segment can be found")
    }) {
        findings.push(f);
        state.findings = findings;
        return state;
    }
    state.trx_id_store =
        innodb_format::bytes::u64_at(&buf, trx_sys::TRX_SYS_TRX_ID_STORE, "TRX_SYS_TRX_ID_STORE")
            .unwrap_or(0);
    match trx_sys::mysql_log_info(&buf) {
        Ok(b) => state.trx_sys_binlog = b,
        Err(e) => findings.push(Finding::on_page(
            FindingKind::Unreadable,
            TRX_SYS_PAGE_NO,
            trx_sys::mysql_log_info_offset(buf.len()).unwrap_or(0),
            "TRX_SYS_MYSQL_LOG_INFO",
            e.to_string(),
        )),
    }
    let slots = match trx_sys::rseg_slots(&buf) {
        Ok(s) => s,
        Err(e) => {
            findings.push(Finding::on_page(
                FindingKind::Unreadable,
                TRX_SYS_PAGE_NO,
                trx_sys::TRX_SYS_RSEGS,
                "TRX_SYS_RSEGS",
                e.to_string(),
            ));
            Vec::new()
        }
    };
    for slot in slots {
        let space = if slot.space_id == system.space_id() {
            Some(system)
        } else {
            undo.iter().copied().find(|s| s.space_id() == slot.space_id)
        };
        let Some(space) = space else {
            findings.push(Finding::on_page(
                FindingKind::Unreadable,
                TRX_SYS_PAGE_NO,
                trx_sys::TRX_SYS_RSEGS + slot.id * trx_sys::TRX_SYS_RSEG_SLOT_SIZE,
                "TRX_SYS_RSEG_SPACE",
                format!(
                    "rollback segment {} is in undo tablespace {}, which was not given",
                    slot.id, slot.space_id
                ),
            ));
            state.rollback_segments.push(RollbackSegment::unread(slot));
            continue;
        };
        let mut ctx = Ctx {
            findings: &mut findings,
            keep: keep.records,
            records: &mut state.records,
            rseg: slot.id,
        };
        state
            .rollback_segments
            .push(read_rseg(space, slot, &mut ctx));
    }
    state.findings = findings;
    state
}

/// Where findings and kept records go while reading one rollback segment.
struct Ctx<'a> {
    findings: &'a mut Vec<Finding>,
    keep: usize,
    records: &'a mut Vec<UndoRecordRaw>,
    rseg: usize,
}

impl RollbackSegment {
    /// A rollback segment whose header was not read.
    fn unread(slot: RsegSlot) -> Self {
        RollbackSegment {
            slot,
            header: None,
            page_lsn: None,
            binlog: None,
            wsrep_xid: None,
            oldest_history: None,
            history: Vec::new(),
            segments: Vec::new(),
        }
    }
}

/// Reads the binary log position, the WSREP XID and the page LSN of a
/// rollback segment header page into `out`; a field that cannot be read is
/// a finding.
fn read_rseg_trailer(page: &[u8], out: &mut RollbackSegment, ctx: &mut Ctx<'_>) {
    let slot = out.slot;
    let mut finding = |field: &'static str, offset: usize, e: innodb_format::FormatError| {
        ctx.findings.push(Finding::on_page(
            FindingKind::Unreadable,
            slot.page_no,
            offset,
            field,
            format!(
                "space {}: rollback segment {} header: {e}",
                slot.space_id, slot.id
            ),
        ))
    };
    let after_slots = RsegHeader::max_trx_id_offset(page.len());
    match RsegHeader::binlog(page) {
        Ok(b) => out.binlog = b,
        Err(e) => finding(
            "TRX_RSEG_BINLOG_NAME",
            after_slots + innodb_format::undo::trx_rseg::TRX_RSEG_BINLOG_NAME_FROM_MAX_TRX_ID,
            e,
        ),
    }
    match RsegHeader::wsrep_xid(page) {
        Ok(x) => out.wsrep_xid = x,
        Err(e) => finding(
            "TRX_RSEG_WSREP_XID_INFO",
            after_slots + innodb_format::undo::trx_rseg::TRX_RSEG_WSREP_XID_INFO_FROM_MAX_TRX_ID,
            e,
        ),
    }
    match innodb_format::fil::header::FilHeader::parse(page) {
        Ok(h) => out.page_lsn = Some(h.lsn),
        Err(e) => finding("FIL_PAGE_LSN", innodb_format::fil::header::FIL_PAGE_LSN, e),
    }
}

fn read_rseg(space: &Tablespace, slot: RsegSlot, ctx: &mut Ctx<'_>) -> RollbackSegment {
    let mut pages = LogicalPages::new(space);
    let mut buf = Vec::new();
    let mut out = RollbackSegment::unread(slot);
    let check = pages.read_into(slot.page_no, &mut buf);
    let wrong = check.as_ref().and_then(|c| {
        not_a(c, PageType::TYPE_SYS, space, |why| {
            format!(
                "space {}: rollback segment {} header page {} (TRX_SYS_RSEGS) should be a SYS page but {why}",
                slot.space_id, slot.id, slot.page_no
            )
        })
    });
    if let Some(f) = wrong {
        ctx.findings.push(f);
        return out;
    }
    let header = check
        .ok_or_else(|| "the page cannot be read".to_string())
        .and_then(|_| RsegHeader::parse(&buf).map_err(|e| e.to_string()));
    let header = match header {
        Ok(h) => h,
        Err(e) => {
            ctx.findings.push(Finding::on_page(
                FindingKind::Unreadable,
                slot.page_no,
                0,
                "TRX_RSEG",
                format!(
                    "space {}: rollback segment {} header: {e}",
                    slot.space_id, slot.id
                ),
            ));
            return out;
        }
    };
    read_rseg_trailer(&buf, &mut out, ctx);
    // The oldest log of the history (the list's last node), as the server
    // reads it at startup.
    let last = header.fixed.history.last;
    if !last.is_null() {
        out.oldest_history = usize::from(last.byte)
            .checked_sub(TRX_UNDO_HISTORY_NODE)
            .and_then(|offset| {
                pages.read_into(last.page, &mut buf)?;
                UndoLogHeader::parse_at(&buf, offset).ok()
            })
            .map(|h| LogIds {
                trx_id: h.trx_id,
                trx_no: h.trx_no,
            });
    }
    // The history list: undo log headers linked through TRX_UNDO_HISTORY_NODE.
    let limit = (header.fixed.history.len as usize).min(space.page_count() as usize * 64);
    let mut seen = HashSet::new();
    let mut at = header.fixed.history.first;
    while !at.is_null() && out.history.len() < limit {
        if !seen.insert((at.page, at.byte)) {
            ctx.findings.push(Finding::on_page(
                FindingKind::BrokenList,
                at.page,
                usize::from(at.byte),
                "TRX_UNDO_HISTORY_NODE",
                format!("space {}: the history list of rollback segment {} comes back to page {} offset {}", slot.space_id, slot.id, at.page, at.byte),
            ));
            break;
        }
        match read_log(&mut pages, space, at, ctx) {
            Some((log, next)) => {
                out.history.push(log);
                at = next;
            }
            None => break,
        }
    }
    if out.history.len() as u64 != u64::from(header.fixed.history.len) {
        ctx.findings.push(Finding::on_page(
            FindingKind::CountMismatch,
            slot.page_no,
            innodb_format::undo::trx_rseg::TRX_RSEG_HISTORY,
            "TRX_RSEG_HISTORY",
            format!(
                "space {}: rollback segment {} says its history list has {} undo logs; {} were walked",
                slot.space_id,
                slot.id,
                header.fixed.history.len,
                out.history.len()
            ),
        ));
    }
    for &(s, page) in &header.undo_slots {
        let check = pages.read_into(page, &mut buf);
        let wrong = check.as_ref().and_then(|c| {
            not_a(c, PageType::UNDO_LOG, space, |why| {
                format!(
                    "space {}: undo segment of rollback segment {} slot {s} (page {page}) should be an UNDO_LOG page but {why}",
                    slot.space_id, slot.id
                )
            })
        });
        if let Some(f) = wrong {
            ctx.findings.push(f);
            continue;
        }
        let seg = check.and_then(|_| UndoSegHeader::parse(&buf).ok());
        match seg {
            Some(h) => {
                use innodb_format::undo::trx_undo::{state, Xid};
                let in_use = matches!(h.state, state::ACTIVE | state::PREPARED);
                let page_type = UndoPageHeader::parse(&buf).map_or(0, |p| p.page_type);
                let last_log = (h.last_log != 0)
                    .then(|| UndoLogHeader::parse_at(&buf, usize::from(h.last_log)).ok())
                    .flatten();
                let last = last_log.filter(|_| in_use);
                let last_at = usize::from(h.last_log);
                let xid = last
                    .filter(|l| l.has_xid())
                    .and_then(|_| Xid::parse_at(&buf, last_at).ok());
                // The log of a transaction still in flight: its records, read
                // as a history log's (kept apart from the history's).
                let counts = last.and_then(|_| {
                    let node = FilAddr {
                        page,
                        byte: u16::try_from(last_at + TRX_UNDO_HISTORY_NODE).ok()?,
                    };
                    let mut kept = Vec::new();
                    let mut inner = Ctx {
                        findings: &mut *ctx.findings,
                        keep: 0,
                        records: &mut kept,
                        rseg: ctx.rseg,
                    };
                    read_log(&mut pages, space, node, &mut inner).map(|(log, _)| log.counts)
                });
                out.segments.push(UndoSegment {
                    slot: s,
                    page,
                    state: state::name(h.state),
                    pages: h.page_list.len,
                    trx_id: last.map(|l| l.trx_id),
                    xid,
                    counts,
                    page_type,
                    last_log: last_log.map(|l| LogIds {
                        trx_id: l.trx_id,
                        trx_no: l.trx_no,
                    }),
                })
            }
            None => ctx.findings.push(Finding::on_page(
                FindingKind::Unreadable,
                page,
                innodb_format::undo::trx_undo::TRX_UNDO_SEG_HDR,
                "TRX_UNDO_SEG_HDR",
                format!(
                    "space {}: undo segment of rollback segment {} slot {s} cannot be read",
                    slot.space_id, slot.id
                ),
            )),
        }
    }
    out.header = Some(header);
    out
}

/// Reads the undo log whose history node is at `at`, its records, and the
/// next node's address.
fn read_log(
    pages: &mut LogicalPages<'_>,
    space: &Tablespace,
    at: FilAddr,
    ctx: &mut Ctx<'_>,
) -> Option<(UndoLog, FilAddr)> {
    let mut buf = Vec::new();
    let fail = |findings: &mut Vec<Finding>, m: String| {
        findings.push(Finding::on_page(
            FindingKind::BrokenList,
            at.page,
            usize::from(at.byte),
            "TRX_RSEG_HISTORY",
            format!("space {}: {m}", space.space_id()),
        ));
    };
    let Some(check) = pages.read_into(at.page, &mut buf) else {
        fail(
            ctx.findings,
            format!("history list page {} cannot be read", at.page),
        );
        return None;
    };
    if let Some(why) = not_a_why(&check, PageType::UNDO_LOG, space) {
        fail(
            ctx.findings,
            format!(
                "the undo log header page {} should be an UNDO_LOG page but {why}",
                at.page
            ),
        );
        return None;
    }
    let Some(offset) = usize::from(at.byte).checked_sub(TRX_UNDO_HISTORY_NODE) else {
        fail(
            ctx.findings,
            format!("history node offset {} is inside the page header", at.byte),
        );
        return None;
    };
    let header = match UndoLogHeader::parse_at(&buf, offset) {
        Ok(h) => h,
        Err(e) => {
            fail(
                ctx.findings,
                format!("undo log header at page {} offset {offset}: {e}", at.page),
            );
            return None;
        }
    };
    let next = header.history_node.next;
    let mut log = UndoLog {
        space_id: space.space_id(),
        page: at.page,
        offset,
        header,
        pages: 1,
        counts: RecordCounts::default(),
    };
    // Records on the header page: from the log's start to the next log, or
    // to the page's free space for the last log of the page, which may go
    // on over the following pages of the segment.
    let page_header = UndoPageHeader::parse(&buf).ok()?;
    let end = if header.next_log != 0 {
        header.next_log
    } else {
        page_header.free
    };
    count_records(&buf, header.log_start, end, at.page, space, &mut log, ctx);
    if header.next_log == 0 {
        let mut seen = HashSet::from([at.page]);
        let mut page = page_header.node.next;
        let mut from = at.page;
        while !page.is_null() && log.pages < space.page_count() {
            if !seen.insert(page.page) {
                // Named as a list walk names a cycle: at the list's base (the
                // segment header on the log's header page), with the link.
                ctx.findings.push(Finding::on_page(
                    FindingKind::BrokenList,
                    at.page,
                    TRX_UNDO_PAGE_LIST,
                    "TRX_UNDO_PAGE_LIST",
                    format!(
                        "space {}: the undo page list of the undo log at page {} offset {offset} comes back to page {}: cycle: node {from}:{TRX_UNDO_PAGE_NODE} links back to {}:{}",
                        space.space_id(),
                        at.page,
                        page.page,
                        page.page,
                        page.byte
                    ),
                ));
                break;
            }
            let Some(check) = pages.read_into(page.page, &mut buf) else {
                fail(
                    ctx.findings,
                    format!("undo page {} cannot be read", page.page),
                );
                break;
            };
            if let Some(why) = not_a_why(&check, PageType::UNDO_LOG, space) {
                ctx.findings.push(Finding::on_page(
                    FindingKind::BrokenList,
                    from,
                    TRX_UNDO_PAGE_NODE,
                    "TRX_UNDO_PAGE_NODE",
                    format!(
                        "space {}: the undo page list of the undo log at page {} offset {offset} goes on to page {}, which should be an UNDO_LOG page but {why}",
                        space.space_id(),
                        at.page,
                        page.page
                    ),
                ));
                break;
            }
            let Ok(h) = UndoPageHeader::parse(&buf) else {
                break;
            };
            log.pages += 1;
            count_records(&buf, h.start, h.free, page.page, space, &mut log, ctx);
            from = page.page;
            page = h.node.next;
        }
    }
    Some((log, next))
}

/// Counts the records from `start` to `end` on one undo page.
fn count_records(
    page: &[u8],
    start: u16,
    end: u16,
    page_no: u32,
    space: &Tablespace,
    log: &mut UndoLog,
    ctx: &mut Ctx<'_>,
) {
    let (mut at, end) = (usize::from(start), usize::from(end).min(page.len()));
    while at != 0 && at < end {
        match UndoRecordHeader::parse_at(page, at) {
            Ok(r) if usize::from(r.next) > at && usize::from(r.next) <= end => {
                log.counts.add(&r, u64::from(r.next) - at as u64);
                if ctx.records.len() < ctx.keep {
                    ctx.records.push(UndoRecordRaw {
                        space_id: space.space_id(),
                        page: page_no,
                        offset: at,
                        rseg: ctx.rseg,
                        trx_id: log.header.trx_id,
                        trx_no: log.header.trx_no,
                        header: r,
                        // at < r.next <= end <= page.len(): always there.
                        bytes: page
                            .get(at..usize::from(r.next))
                            .unwrap_or_default()
                            .to_vec(),
                    });
                }
                at = usize::from(r.next);
            }
            Ok(r) => {
                ctx.findings.push(Finding::on_page(
                    FindingKind::BrokenList,
                    page_no,
                    at,
                    "undo record next",
                    format!(
                        "space {}: the undo record at {at} points {} {} (records end at {end})",
                        space.space_id(),
                        if r.next != 0 && usize::from(r.next) <= at {
                            "back to"
                        } else {
                            "to"
                        },
                        r.next
                    ),
                ));
                return;
            }
            Err(e) => {
                ctx.findings.push(Finding::on_page(
                    FindingKind::Unreadable,
                    page_no,
                    at,
                    "undo record",
                    format!("space {}: {e}", space.space_id()),
                ));
                return;
            }
        }
    }
}

/// Why a page read as a structure of `expected` type is not one: it is all
/// zero, or of another type (MySQL 5.0 left some pages untyped: type 0
/// with content is accepted); `None` when it may be one.
fn not_a_why(check: &PageCheck, expected: PageType, space: &Tablespace) -> Option<String> {
    if check.all_zero {
        Some("it is all zero".to_string())
    } else if check.page_type == expected || check.page_type == PageType::ALLOCATED {
        None
    } else {
        Some(format!(
            "its FIL_PAGE_TYPE is {}",
            check.page_type.name(space.format().vendor)
        ))
    }
}

/// [`not_a_why`] as an `unreadable` finding on the page's `FIL_PAGE_TYPE`
/// (offset 0 for an all-zero page), its message made by `message`.
fn not_a(
    check: &PageCheck,
    expected: PageType,
    space: &Tablespace,
    message: impl FnOnce(String) -> String,
) -> Option<Finding> {
    let why = not_a_why(check, expected, space)?;
    Some(Finding::on_page(
        FindingKind::Unreadable,
        check.page_no,
        if check.all_zero { 0 } else { FIL_PAGE_TYPE },
        "FIL_PAGE_TYPE",
        message(why),
    ))
}

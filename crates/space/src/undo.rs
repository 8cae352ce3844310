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
use crate::undo_tablespaces::{self, RsegDirectory, UndoTablespace};
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
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LogIds {
    /// `TRX_UNDO_TRX_ID`.
    pub trx_id: u64,
    /// `TRX_UNDO_TRX_NO`.
    pub trx_no: u64,
}

/// An undo segment: in a rollback segment slot, or, once a commit took it
/// out of its slot for purge (`to_purge`), found through the history.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct UndoSegment {
    /// Slot number; `None` for a segment found through the history only.
    pub slot: Option<usize>,
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RollbackSegment {
    /// Its slot: in the TRX_SYS page (the id is the slot), or in the
    /// RSEG_ARRAY page of its undo tablespace (the id is the slot there).
    pub slot: RsegSlot,
    /// Which page lists it.
    pub directory: RsegDirectory,
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct UndoState {
    /// `TRX_SYS_TRX_ID_STORE`.
    pub trx_id_store: u64,
    /// The binary log position on the TRX_SYS page (`TRX_SYS_MYSQL_LOG_INFO`:
    /// MySQL, MariaDB before 10.3.5), when its magic number is there.
    pub trx_sys_binlog: Option<BinlogPos>,
    /// Rollback segments in use.
    pub rollback_segments: Vec<RollbackSegment>,
    /// The undo tablespaces given, in order.
    pub undo_tablespaces: Vec<UndoTablespace>,
    /// True when the system tablespace is MySQL 8.0+'s: undo tablespaces
    /// list their rollback segments on their RSEG_ARRAY page.
    pub mysql_8: bool,
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

/// Page reads the whole walk may make: 16 per page of the tablespaces read,
/// and 10,000 more. A real history reads each undo page a few times at most;
/// a damaged one that leads every list to the same pages stops here.
fn page_budget(system: &Tablespace, undo: &[&Tablespace]) -> u64 {
    let pages: u64 = std::iter::once(system)
        .chain(undo.iter().copied())
        .map(|s| u64::from(s.page_count()))
        .sum();
    pages.saturating_mul(16).saturating_add(10_000)
}

/// [`read`], keeping up to `keep.records` undo records for listing.
pub fn read_keeping(system: &Tablespace, undo: &[&Tablespace], keep: Keep) -> UndoState {
    let mysql_8 = undo_tablespaces::is_mysql_8(system);
    let mut state = UndoState {
        trx_id_store: 0,
        trx_sys_binlog: None,
        rollback_segments: Vec::new(),
        undo_tablespaces: Vec::new(),
        mysql_8,
        records: Vec::new(),
        findings: Vec::new(),
    };
    let mut findings = Vec::new();
    let mut walk = Walk {
        pages_left: page_budget(system, undo),
        budget_spent: false,
        headers: HashSet::new(),
        segments: HashSet::new(),
        logs: HashSet::new(),
        repeats: 0,
    };
    // The rollback segments: the TRX_SYS slots, then (MySQL 8.0+) the
    // RSEG_ARRAY of each undo tablespace.
    let mut listed: Vec<(&Tablespace, RsegSlot, RsegDirectory)> = Vec::new();
    let mut unreached = Vec::new();
    for slot in trx_sys_slots(system, &mut state, &mut findings) {
        let space = if slot.space_id == system.space_id() {
            Some(system)
        } else {
            undo.iter().copied().find(|s| s.space_id() == slot.space_id)
        };
        match space {
            Some(space) => listed.push((space, slot, RsegDirectory::TrxSys)),
            None => {
                unreached.push(slot);
                state
                    .rollback_segments
                    .push(RollbackSegment::unread(slot, RsegDirectory::TrxSys));
            }
        }
    }
    findings.extend(undo_tablespaces::unreached(&unreached));
    for &space in undo {
        let mut info = undo_tablespaces::describe(space, mysql_8, &mut findings);
        if mysql_8 {
            let (summary, slots) = undo_tablespaces::read_rseg_array(space, &mut findings);
            info.rseg_array = summary;
            listed.extend(
                slots
                    .into_iter()
                    .map(|s| (space, s, RsegDirectory::RsegArray)),
            );
        }
        state.undo_tablespaces.push(info);
    }
    if mysql_8 {
        let version = system.format().mysql_server_version.unwrap_or(0);
        findings.extend(undo_tablespaces::missing(&state.undo_tablespaces, version));
    }
    for (space, slot, directory) in listed {
        if walk.budget_spent {
            break;
        }
        if !walk.headers.insert((slot.space_id, slot.page_no)) {
            findings.push(Finding::on_page(
                FindingKind::PageClaimedTwice,
                slot.page_no,
                0,
                "TRX_RSEG",
                format!(
                    "space {}: rollback segment {} names header page {}, which another rollback segment named already; it is not read twice",
                    slot.space_id, slot.id, slot.page_no
                ),
            ));
            continue;
        }
        let mut ctx = Ctx {
            findings: &mut findings,
            keep: keep.records,
            records: &mut state.records,
            rseg: slot.id,
            walk: &mut walk,
        };
        let r = read_rseg(space, slot, directory, &mut ctx);
        state.rollback_segments.push(r);
    }
    if walk.repeats > Walk::SAID {
        findings.push(Finding {
            kind: FindingKind::PageClaimedTwice,
            page: None,
            offset: None,
            field: "TRX_RSEG_UNDO_SLOTS",
            message: format!(
                "{} more undo slots or history lists name an undo segment or log already read (the first {} are listed above); each was counted once",
                walk.repeats - Walk::SAID,
                Walk::SAID
            ),
        });
    }
    state.findings = findings;
    state
}

/// Reads the TRX_SYS page: the transaction id store and binary log
/// position into `state`, and the used rollback segment slots (none, with a
/// finding, when the page cannot be read or is not a TRX_SYS page).
fn trx_sys_slots(
    system: &Tablespace,
    state: &mut UndoState,
    findings: &mut Vec<Finding>,
) -> Vec<RsegSlot> {
    let mut buf = Vec::new();
    let Some(check) = LogicalPages::new(system).read_into(TRX_SYS_PAGE_NO, &mut buf) else {
        findings.push(Finding::on_page(
            FindingKind::Unreadable,
            TRX_SYS_PAGE_NO,
            0,
            "TRX_SYS",
            "the TRX_SYS page cannot be read",
        ));
        return Vec::new();
    };
    if let Some(f) = not_a(&check, PageType::TYPE_TRX_SYS, system, |why| {
        format!("page {TRX_SYS_PAGE_NO} should be the TRX_SYS page but {why}; no rollback segment can be found")
    }) {
        findings.push(f);
        return Vec::new();
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
    match trx_sys::rseg_slots(&buf) {
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
    }
}

/// What the whole walk shares: the pages it may still read, and the
/// rollback segment header pages read.
struct Walk {
    pages_left: u64,
    budget_spent: bool,
    headers: HashSet<(u32, u32)>,
    /// Undo segments read (space id, first page): a segment two slots name
    /// is read once.
    segments: HashSet<(u32, u32)>,
    /// Undo logs reached through history lists (space id, page, history
    /// node offset): a log on two lists is walked once.
    logs: HashSet<(u32, u32, u16)>,
    /// Slots and history lists that named a segment or log already read:
    /// the first [`Walk::SAID`] are findings each, the rest one count.
    repeats: u64,
}

impl Walk {
    /// Repeats reported one by one; the others are summed in one finding.
    const SAID: u64 = 1000;

    /// Counts a repeat; true while it is still reported on its own.
    fn repeat(&mut self) -> bool {
        self.repeats += 1;
        self.repeats <= Self::SAID
    }
}

/// Where findings and kept records go while reading one rollback segment.
struct Ctx<'a> {
    findings: &'a mut Vec<Finding>,
    keep: usize,
    records: &'a mut Vec<UndoRecordRaw>,
    rseg: usize,
    walk: &'a mut Walk,
}

impl Ctx<'_> {
    /// Reads page `page` of `pages` into `buf`, counted against the walk's
    /// budget; `None` once the budget is spent (with one finding) or when
    /// the page cannot be read.
    fn read(
        &mut self,
        pages: &mut LogicalPages<'_>,
        page: u32,
        buf: &mut Vec<u8>,
    ) -> Option<PageCheck> {
        if self.walk.pages_left == 0 {
            if !self.walk.budget_spent {
                self.walk.budget_spent = true;
                self.findings.push(Finding::on_page(
                    FindingKind::BrokenList,
                    page,
                    0,
                    "TRX_RSEG_HISTORY",
                    "the undo walk stopped: it read more pages than 16 times the pages of the tablespaces read; the rollback segments, history lists or page lists lead to the same pages again and again",
                ));
            }
            return None;
        }
        self.walk.pages_left -= 1;
        pages.read_into(page, buf)
    }

    fn spent(&self) -> bool {
        self.walk.budget_spent
    }
}

impl RollbackSegment {
    /// A rollback segment whose header was not read.
    fn unread(slot: RsegSlot, directory: RsegDirectory) -> Self {
        RollbackSegment {
            slot,
            directory,
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

fn read_rseg(
    space: &Tablespace,
    slot: RsegSlot,
    directory: RsegDirectory,
    ctx: &mut Ctx<'_>,
) -> RollbackSegment {
    let mut pages = LogicalPages::new(space);
    let mut buf = Vec::new();
    let mut out = RollbackSegment::unread(slot, directory);
    let listed_in = match directory {
        RsegDirectory::TrxSys => "TRX_SYS_RSEGS",
        RsegDirectory::RsegArray => "RSEG_ARRAY",
    };
    let check = ctx.read(&mut pages, slot.page_no, &mut buf);
    if ctx.spent() {
        return out;
    }
    let wrong = check.as_ref().and_then(|c| {
        not_a(c, PageType::TYPE_SYS, space, |why| {
            format!(
                "space {}: rollback segment {} header page {} ({listed_in}) should be a SYS page but {why}",
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
                ctx.read(&mut pages, last.page, &mut buf)?;
                UndoLogHeader::parse_at(&buf, offset).ok()
            })
            .map(|h| LogIds {
                trx_id: h.trx_id,
                trx_no: h.trx_no,
            });
    }
    walk_history(space, &header, &mut pages, &mut out, ctx);
    read_slots(space, &header, &mut pages, &mut out, ctx);
    history_segments(space, &mut pages, &mut out, ctx);
    out.header = Some(header);
    out
}

/// The history list: undo log headers linked through `TRX_UNDO_HISTORY_NODE`,
/// at most as many as the base node says (and 64 per page of the file).
fn walk_history(
    space: &Tablespace,
    header: &RsegHeader,
    pages: &mut LogicalPages<'_>,
    out: &mut RollbackSegment,
    ctx: &mut Ctx<'_>,
) {
    let slot = out.slot;
    let limit = (header.fixed.history.len as usize).min(space.page_count() as usize * 64);
    let mut seen = HashSet::new();
    let mut at = header.fixed.history.first;
    while !at.is_null() && out.history.len() < limit && !ctx.spent() {
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
        if !ctx.walk.logs.insert((slot.space_id, at.page, at.byte)) {
            if !ctx.walk.repeat() {
                break;
            }
            ctx.findings.push(Finding::on_page(
                FindingKind::PageClaimedTwice,
                at.page,
                usize::from(at.byte),
                "TRX_UNDO_HISTORY_NODE",
                format!(
                    "space {}: the history list of rollback segment {} reaches the undo log at page {} offset {}, which another history list holds already: it is counted once, and this list is not followed further",
                    slot.space_id, slot.id, at.page, at.byte
                ),
            ));
            break;
        }
        match read_log(pages, space, at, ctx) {
            Some((log, next)) => {
                out.history.push(log);
                at = next;
            }
            None => break,
        }
    }
    if out.history.len() as u64 != u64::from(header.fixed.history.len) && !ctx.spent() {
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
}

/// The undo segments in the rollback segment's slots: each one's state,
/// pages and, for one still in use, its transaction and records.
fn read_slots(
    space: &Tablespace,
    header: &RsegHeader,
    pages: &mut LogicalPages<'_>,
    out: &mut RollbackSegment,
    ctx: &mut Ctx<'_>,
) {
    let slot = out.slot;
    let mut buf = Vec::new();
    for &(s, page) in &header.undo_slots {
        if !ctx.walk.segments.insert((slot.space_id, page)) {
            if !ctx.walk.repeat() {
                continue;
            }
            ctx.findings.push(Finding::on_page(
                FindingKind::PageClaimedTwice,
                slot.page_no,
                innodb_format::undo::trx_rseg::TRX_RSEG_UNDO_SLOTS + 4 * s,
                "TRX_RSEG_UNDO_SLOTS",
                format!(
                    "space {}: rollback segment {} slot {s} names undo segment page {page}, which another slot names already: it is counted once",
                    slot.space_id, slot.id
                ),
            ));
            continue;
        }
        let check = ctx.read(pages, page, &mut buf);
        if ctx.spent() {
            return;
        }
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
        match check.and_then(|_| UndoSegHeader::parse(&buf).ok()) {
            Some(h) => {
                let seg = undo_segment(&buf, page, Some(s), &h, space, pages, ctx);
                out.segments.push(seg);
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
}

/// The undo segments the history reaches that are in no slot: a commit
/// takes an update undo segment too big to be cached out of its slot and
/// leaves it to purge (`to_purge`). Each is counted once, from the page of
/// its first log in the history.
fn history_segments(
    space: &Tablespace,
    pages: &mut LogicalPages<'_>,
    out: &mut RollbackSegment,
    ctx: &mut Ctx<'_>,
) {
    let in_slots: HashSet<u32> = out.segments.iter().map(|s| s.page).collect();
    let mut seen = HashSet::new();
    let mut buf = Vec::new();
    let log_pages: Vec<u32> = out.history.iter().map(|l| l.page).collect();
    for page in log_pages {
        if in_slots.contains(&page) || !seen.insert(page) || ctx.spent() {
            continue;
        }
        if !ctx.walk.segments.insert((out.slot.space_id, page)) {
            // Another rollback segment's slot or history has it: counted there.
            continue;
        }
        if ctx.read(pages, page, &mut buf).is_none() {
            continue;
        }
        // Only a segment's first page has a segment header: the first node
        // of its own page list.
        let first = FilAddr {
            page,
            byte: TRX_UNDO_PAGE_NODE as u16,
        };
        let Some(h) = UndoSegHeader::parse(&buf)
            .ok()
            .filter(|h| h.page_list.first == first)
        else {
            continue;
        };
        let seg = undo_segment(&buf, page, None, &h, space, pages, ctx);
        out.segments.push(seg);
    }
}

/// An undo segment from its first page `buf` (page `page`, in slot `slot`
/// when it is in one): its state and pages, and for a segment in use its
/// last log's transaction, XID and records.
fn undo_segment(
    buf: &[u8],
    page: u32,
    slot: Option<usize>,
    h: &UndoSegHeader,
    space: &Tablespace,
    pages: &mut LogicalPages<'_>,
    ctx: &mut Ctx<'_>,
) -> UndoSegment {
    use innodb_format::undo::trx_undo::{state, Xid};
    let in_use = state::in_use(h.state);
    let page_type = UndoPageHeader::parse(buf).map_or(0, |p| p.page_type);
    let last_log = (h.last_log != 0)
        .then(|| UndoLogHeader::parse_at(buf, usize::from(h.last_log)).ok())
        .flatten();
    let last = last_log.filter(|_| in_use);
    let last_at = usize::from(h.last_log);
    let xid = last
        .filter(|l| l.has_xid())
        .and_then(|_| Xid::parse_at(buf, last_at).ok());
    // The log of a transaction still in flight: its records, read as a
    // history log's (kept apart from the history's).
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
            walk: &mut *ctx.walk,
        };
        read_log(pages, space, node, &mut inner).map(|(log, _)| log.counts)
    });
    UndoSegment {
        slot,
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
    }
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
    let Some(check) = ctx.read(pages, at.page, &mut buf) else {
        if ctx.spent() {
            return None;
        }
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
    let end = log_end(&header, offset, page_header.free, at.page, space, ctx);
    if log_start_fits(&header, offset, end, at.page, space, ctx) {
        count_records(&buf, header.log_start, end, at.page, space, &mut log, ctx);
    }
    // The segment's page list, when this log's page is the segment's first.
    let segment_list = UndoSegHeader::parse(&buf)
        .ok()
        .map(|h| h.page_list)
        .filter(|l| {
            l.first
                == FilAddr {
                    page: at.page,
                    byte: TRX_UNDO_PAGE_NODE as u16,
                }
        });
    // The page's last log (or one whose next-log pointer is wrong, read as
    // the last) goes on over the following pages of its segment.
    if end == page_header.free {
        let mut seen = HashSet::from([at.page]);
        let mut page = page_header.node.next;
        let mut from = at.page;
        // Whether the walk stopped at damage already reported.
        let mut stopped = false;
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
                stopped = true;
                break;
            }
            let Some(check) = ctx.read(pages, page.page, &mut buf) else {
                if ctx.spent() {
                    stopped = true;
                    break;
                }
                fail(
                    ctx.findings,
                    format!("undo page {} cannot be read", page.page),
                );
                stopped = true;
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
                stopped = true;
                break;
            }
            let Ok(h) = UndoPageHeader::parse(&buf) else {
                stopped = true;
                break;
            };
            log.pages += 1;
            count_records(&buf, h.start, h.free, page.page, space, &mut log, ctx);
            from = page.page;
            page = h.node.next;
        }
        if let Some(list) = segment_list.filter(|l| l.len != log.pages && !ctx.spent() && !stopped)
        {
            ctx.findings.push(Finding::on_page(
                FindingKind::CountMismatch,
                at.page,
                TRX_UNDO_PAGE_LIST,
                "TRX_UNDO_PAGE_LIST",
                format!(
                    "space {}: the undo page list of the segment at page {} says it has {} pages; {} were walked",
                    space.space_id(),
                    at.page,
                    list.len,
                    log.pages
                ),
            ));
        }
    }
    Some((log, next))
}

/// Where the records of the log whose header is at `offset` end on its
/// header page: at the next log's header, or at the page's free space when
/// it is the page's last log. A `TRX_UNDO_NEXT_LOG` that points at or before
/// this header, or past the free space, is a finding, and the free space is
/// used.
fn log_end(
    header: &UndoLogHeader,
    offset: usize,
    free: u16,
    page: u32,
    space: &Tablespace,
    ctx: &mut Ctx<'_>,
) -> u16 {
    let next = header.next_log;
    if next == 0 {
        return free;
    }
    if usize::from(next) <= offset || next > free {
        ctx.findings.push(Finding::on_page(
            FindingKind::BrokenList,
            page,
            offset + innodb_format::undo::trx_undo::TRX_UNDO_NEXT_LOG,
            "TRX_UNDO_NEXT_LOG",
            format!(
                "space {}: the undo log header at page {page} offset {offset} says the next log on the page is at {next}, {} (the page's records end at {free}); its records are read up to the free space",
                space.space_id(),
                if usize::from(next) <= offset {
                    "not after it"
                } else {
                    "past the page's free space"
                }
            ),
        ));
        return free;
    }
    next
}

/// Whether the log's `TRX_UNDO_LOG_START` lies after its header and no
/// further than `end`; a finding when it does not (its records cannot be
/// found).
fn log_start_fits(
    header: &UndoLogHeader,
    offset: usize,
    end: u16,
    page: u32,
    space: &Tablespace,
    ctx: &mut Ctx<'_>,
) -> bool {
    /// Bytes of the smallest undo log header (`TRX_UNDO_LOG_OLD_HDR_SIZE`).
    const OLD_HDR_SIZE: usize = 50;
    let start = usize::from(header.log_start);
    if start >= offset + OLD_HDR_SIZE && start <= usize::from(end) {
        return true;
    }
    ctx.findings.push(Finding::on_page(
        FindingKind::BrokenList,
        page,
        offset + innodb_format::undo::trx_undo::TRX_UNDO_LOG_START,
        "TRX_UNDO_LOG_START",
        format!(
            "space {}: the undo log header at page {page} offset {offset} says its records start at {start}, outside {}..={end} (after its header, within the page's records): its records on this page are not read",
            space.space_id(),
            offset + OLD_HDR_SIZE
        ),
    ));
    false
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

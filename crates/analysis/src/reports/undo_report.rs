//! `undo`: rollback segments, the history list of undo logs waiting for
//! purge, undo segments by state, and where the undo records come from (by
//! table and by transaction), with the history's growth by transaction
//! number.

use crate::reports::undo_tables::UndoTables;
use crate::rows::records::IndexField;
use innodb_format::value::column_value::Value;
use innodb_space::dictionary::Dictionary;
use innodb_space::undo::{self, RecordCounts};
use innodb_space::undo_tablespaces::{RsegDirectory, UndoTablespace};
use innodb_space::{Finding, Tablespace};
use serde::Serialize;
use std::collections::BTreeMap;

/// Totals over every rollback segment.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct UndoTotals {
    /// Undo logs in the history lists, as the rollback segment headers count them.
    pub history_list_length: u64,
    /// Rollback segments in use (TRX_SYS slots).
    pub rollback_segments: usize,
    /// Undo logs walked in the history lists.
    pub undo_logs: usize,
    /// Undo records in those logs.
    pub undo_records: u64,
    /// Pages those logs' records take.
    pub undo_pages: u64,
    /// Pages in the history lists, as the headers count them (`TRX_RSEG_HISTORY_SIZE`).
    pub history_size_pages: u64,
    /// Bytes of those undo records.
    pub undo_bytes: u64,
}

/// One rollback segment, summed up.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RsegRow {
    /// Rollback segment id: its TRX_SYS slot, or on MySQL 8.0+ for one of
    /// an undo tablespace its RSEG_ARRAY slot (unique within the tablespace).
    pub id: usize,
    /// Which page lists it: `trx_sys` or `rseg_array`.
    pub directory: RsegDirectory,
    /// Tablespace of its header.
    pub space_id: u32,
    /// Header page.
    pub page: u32,
    /// Undo logs in its history list.
    pub history_length: u64,
    /// `TRX_RSEG_HISTORY_SIZE`.
    pub history_size_pages: u64,
    /// Its undo segments by state: those in its slots, and `to_purge`
    /// ones a commit took out of their slot, found through its history.
    pub segments: BTreeMap<&'static str, u64>,
    /// Its undo slots in use (`TRX_RSEG_UNDO_SLOTS` not `FIL_NULL`, read).
    pub undo_slots_used: u64,
    /// `TRX_RSEG_MAX_TRX_ID` (MariaDB 10.3.5+ headers only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_trx_id: Option<u64>,
    /// `TRX_RSEG_MAX_TRX_NO` (MySQL 8.0+): the transaction number of the
    /// latest commit it took into its history.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_trx_no: Option<u64>,
    /// `FIL_PAGE_LSN` of the header page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_lsn: Option<u64>,
    /// The binary log position the header keeps (MariaDB 10.3.5+).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binlog: Option<innodb_format::sys::trx_sys::BinlogPos>,
    /// The WSREP checkpoint XID the header keeps (Galera).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wsrep_xid: Option<innodb_format::undo::trx_rseg::WsrepXid>,
}

/// The binary log position InnoDB recorded at commit, taken as the server
/// takes it at startup (MariaDB `trx_rseg_mem_restore`): of the MariaDB
/// 10.3.5+ rollback segment headers that keep one, the greatest file name
/// (compared byte by byte, as `strncmp`) and, in that file, the greatest
/// offset (the first rollback segment holding it); when none keeps one, the
/// TRX_SYS page's (MySQL, MariaDB before 10.3.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Binlog {
    /// The binary log file name as stored (MariaDB stores it with the
    /// directory the server was given, e.g. `./mysql-bin.000001`).
    pub file: String,
    /// The offset in that file just after the transaction.
    pub offset: u64,
    /// Where it was read: `rseg N` or `trx_sys`.
    pub source: String,
}

/// A table's share of the history.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TableRow {
    /// Table id.
    pub table_id: u64,
    /// `db/table`, when the dictionary knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Undo records.
    pub records: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// One transaction's undo log in the history, in transaction-number order,
/// with the history's running totals up to it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TrxRow {
    /// `TRX_UNDO_TRX_ID`.
    pub trx_id: u64,
    /// `TRX_UNDO_TRX_NO`: commit order.
    pub trx_no: u64,
    /// Rollback segment.
    pub rseg: usize,
    /// The tablespace of its rollback segment.
    pub space_id: u32,
    /// Undo records.
    pub records: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Pages.
    pub pages: u32,
    /// Records by type.
    pub by_kind: BTreeMap<&'static str, u64>,
    /// Running total of records, oldest first.
    pub cumulative_records: u64,
    /// Running total of bytes.
    pub cumulative_bytes: u64,
    /// Running total of pages.
    pub cumulative_pages: u64,
}

/// A transaction still in an undo segment (active, or an XA transaction
/// prepared and not yet committed or rolled back).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct InFlight {
    /// Rollback segment.
    pub rseg: usize,
    /// The tablespace of its rollback segment.
    pub space_id: u32,
    /// Slot and first page of its undo segment.
    pub slot: Option<usize>,
    /// First page.
    pub page: u32,
    /// `active` or `prepared`.
    pub state: &'static str,
    /// Its transaction id.
    pub trx_id: Option<u64>,
    /// Its XA transaction id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xid: Option<innodb_format::undo::trx_undo::Xid>,
    /// Its undo records.
    pub records: u64,
    /// By table: (table id, name, records).
    pub by_table: Vec<(u64, Option<String>, u64)>,
}

/// A transaction still in undo segments, over all its segments (a MySQL
/// transaction that inserts and updates has an insert and an update undo
/// segment).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct OpenTransaction {
    /// Its transaction id.
    pub trx_id: u64,
    /// `active` or `prepared` (the state of its first segment).
    pub state: &'static str,
    /// Its undo segments.
    pub segments: usize,
    /// Its undo records over all of them.
    pub records: u64,
    /// By type.
    pub by_kind: BTreeMap<&'static str, u64>,
    /// By table: (table id, name, records).
    pub by_table: Vec<(u64, Option<String>, u64)>,
}

/// What an undo tablespace holds, as its own pages tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UndoContents {
    /// Undo segments of transactions still in flight (active or prepared).
    InFlight,
    /// Undo logs in the history, waiting for purge.
    History,
    /// Only undo segments cached for reuse.
    CachedOnly,
    /// No undo segment and no history: nothing written since the
    /// tablespace was created or last truncated.
    Nothing,
}

/// One undo tablespace, summed up.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct UndoTablespaceRow {
    /// What was read of it.
    #[serde(flatten)]
    pub tablespace: UndoTablespace,
    /// Its rollback segments read.
    pub rollback_segments: usize,
    /// Undo logs in their history lists (as their headers count them).
    pub history_list_length: u64,
    /// Their undo segments by state.
    pub segments: BTreeMap<&'static str, u64>,
    /// What it holds.
    pub contents: UndoContents,
    /// True when the data directory holds this number's truncation log
    /// (`undo_<number>_trunc.log`): MySQL was truncating it when it stopped,
    /// and finishes the truncation at its next start.
    pub truncation_log: bool,
}

/// One undo record of the history, decoded.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct UndoRecordRow {
    /// Tablespace of the record.
    pub space_id: u32,
    /// Page.
    pub page: u32,
    /// Offset.
    pub offset: usize,
    /// Rollback segment.
    pub rseg: usize,
    /// Its transaction's id.
    pub trx_id: u64,
    /// Its transaction's commit number.
    pub trx_no: u64,
    /// Record type.
    pub kind: &'static str,
    /// Compiler info (how the update changed the record).
    pub cmpl_info: u8,
    /// An off-page column was updated.
    pub updated_extern: bool,
    /// Undo number.
    pub undo_no: u64,
    /// Table id.
    pub table_id: u64,
    /// `db/table`, when the dictionary knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// The previous version's info bits (updates and delete-marks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub info_bits: Option<u8>,
    /// Previous `DB_TRX_ID`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_trx_id: Option<u64>,
    /// Previous `DB_ROLL_PTR`, taken apart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_roll_ptr: Option<innodb_format::value::column_value::RollPtr>,
    /// Primary key: (column, value).
    pub key: Vec<(String, Value)>,
    /// Update vector: (field number, column, old value).
    pub update: Vec<(u32, String, Value)>,
    /// Why the key and update could not be decoded, if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undecoded: Option<String>,
}

/// Decodes a kept undo record with its table's clustered index fields.
fn decode_record(r: &undo::UndoRecordRaw, tables: &UndoTables) -> UndoRecordRow {
    use innodb_format::undo::trx_undo_rec::{kind, UndoField, UndoRecordHeader};
    let h = &r.header;
    let schema = tables.schema(h.table_id);
    let clustered = schema
        .as_ref()
        .and_then(|s| s.indexes.iter().find(|i| i.clustered))
        .map(|i| i.fields.clone());
    let mut row = UndoRecordRow {
        space_id: r.space_id,
        page: r.page,
        offset: r.offset,
        rseg: r.rseg,
        trx_id: r.trx_id,
        trx_no: r.trx_no,
        kind: kind::name(h.kind),
        cmpl_info: h.cmpl_info,
        updated_extern: h.updated_extern,
        undo_no: h.undo_no,
        table_id: h.table_id,
        table: schema.as_ref().map(|s| s.table.clone()),
        info_bits: h.info_bits,
        old_trx_id: h.old_trx_id,
        old_roll_ptr: h.old_roll_ptr.and_then(|p| {
            innodb_format::value::column_value::RollPtr::parse(&p.to_be_bytes()[1..])
        }),
        key: Vec::new(),
        update: Vec::new(),
        undecoded: None,
    };
    let Some(fields) = clustered else {
        row.undecoded = Some("the table's columns are not known (no dictionary entry)".into());
        return row;
    };
    let n_unique = fields
        .iter()
        .position(|f| f.name == "DB_TRX_ID")
        .unwrap_or(1);
    // The record's bytes alone: parse it again from their start.
    let body = UndoRecordHeader::parse_at(&r.bytes, 0).and_then(|h| h.body(&r.bytes, n_unique));
    let value = |f: &IndexField, x: &UndoField| {
        if x.null {
            Value::Null
        } else if x.external {
            Value::Undecoded {
                undecoded: "stored off-page".into(),
            }
        } else {
            f.value(&x.bytes)
        }
    };
    match body {
        Ok(b) => {
            row.key = b
                .key
                .iter()
                .zip(&fields)
                .map(|(x, f)| (f.name.clone(), value(f, x)))
                .collect();
            row.update = b
                .update
                .iter()
                .filter_map(|(no, x)| {
                    let f = fields.get(*no as usize)?;
                    Some((*no, f.name.clone(), value(f, x)))
                })
                .collect();
        }
        Err(e) => row.undecoded = Some(e.to_string()),
    }
    row
}

/// The `undo` report.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct UndoReport {
    /// `TRX_SYS_TRX_ID_STORE`.
    pub trx_id_store: u64,
    /// The largest transaction id the server stored: the larger of
    /// `TRX_SYS_TRX_ID_STORE` and every MariaDB 10.3.5+ rollback segment
    /// header's `TRX_RSEG_MAX_TRX_ID`.
    pub max_trx_id: u64,
    /// Where [`UndoReport::max_trx_id`] was read: `rseg N` (the first
    /// rollback segment holding it) or `trx_sys`.
    pub max_trx_id_source: String,
    /// The transaction id counter MariaDB 10.3.5+ starts from on these
    /// files (`trx_rseg_array_init`): 1 + the largest of
    /// `TRX_SYS_TRX_ID_STORE`, every header's `TRX_RSEG_MAX_TRX_ID`, each
    /// rollback segment's oldest history log's `TRX_UNDO_TRX_ID` and
    /// `TRX_UNDO_TRX_NO`, and for each undo segment in a slot its last log's
    /// `TRX_UNDO_TRX_ID` + 1 when the segment is `active` or `prepared`, or
    /// its `TRX_UNDO_TRX_ID` and `TRX_UNDO_TRX_NO` when it is `to_purge` (or
    /// `cached` with page type 0). What the server prints as "Trx id counter
    /// is N" when it recovers transactions. `None` when a rollback segment
    /// header could not be read or is of another format. On MySQL 8.0+
    /// (`trx_sys_init_at_db_start`): `TRX_SYS_TRX_ID_STORE` + 2 ×
    /// `TRX_SYS_TRX_ID_WRITE_MARGIN` (256), the "Trx id counter is N" that
    /// server prints when it recovers.
    pub next_trx_id_at_startup: Option<u64>,
    /// The binary log position InnoDB recorded at commit, as the server
    /// recovers it; `None` when none is recorded.
    pub binlog: Option<Binlog>,
    /// Totals.
    pub totals: UndoTotals,
    /// Undo segments of every rollback segment by state.
    pub segments_by_state: BTreeMap<&'static str, u64>,
    /// Records by type over the whole history.
    pub records_by_kind: BTreeMap<&'static str, u64>,
    /// Rollback segments.
    pub rollback_segments: Vec<RsegRow>,
    /// History by table, most records first.
    pub by_table: Vec<TableRow>,
    /// History by transaction, oldest (lowest transaction number) first.
    pub by_transaction: Vec<TrxRow>,
    /// Undo segments of transactions still in flight (active or prepared).
    pub in_flight: Vec<InFlight>,
    /// Those transactions, each over all its undo segments.
    pub open_transactions: Vec<OpenTransaction>,
    /// The undo tablespaces given.
    pub undo_tablespaces: Vec<UndoTablespaceRow>,
    /// True for a MySQL 8.0+ server: roll pointers name undo tablespaces by
    /// number, rollback segments of undo tablespaces are on their RSEG_ARRAY.
    pub mysql_8: bool,
    /// The history's undo records, decoded (only when asked for, up to a limit).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub records: Vec<UndoRecordRow>,
    /// Problems.
    pub findings: Vec<Finding>,
}

impl UndoReport {
    /// Builds the report from the system tablespace and the undo
    /// tablespaces; `dict` names the tables.
    pub fn build(
        system: &Tablespace,
        undo: &[&Tablespace],
        dict: Option<&Dictionary>,
    ) -> UndoReport {
        Self::build_listing(system, undo, &UndoTables::new(dict), 0)
    }

    /// [`UndoReport::build`], also listing up to `records` undo records of
    /// the history, decoded with their tables' columns.
    pub fn build_listing(
        system: &Tablespace,
        undo: &[&Tablespace],
        tables: &UndoTables,
        records: usize,
    ) -> UndoReport {
        let state = undo::read_keeping(system, undo, undo::Keep { records });
        let listed: Vec<UndoRecordRow> = state
            .records
            .iter()
            .map(|r| decode_record(r, tables))
            .collect();
        let mut totals = UndoTotals {
            rollback_segments: state.rollback_segments.len(),
            ..UndoTotals::default()
        };
        let mut all = RecordCounts::default();
        let mut segments_by_state: BTreeMap<&'static str, u64> = BTreeMap::new();
        let mut rsegs = Vec::new();
        let mut trx = Vec::new();
        let mut in_flight = Vec::new();
        let name = |id: u64| tables.name(id);
        for r in &state.rollback_segments {
            let mut segments: BTreeMap<&'static str, u64> = BTreeMap::new();
            for s in &r.segments {
                *segments.entry(s.state).or_default() += 1;
                *segments_by_state.entry(s.state).or_default() += 1;
                if let Some(c) = &s.counts {
                    in_flight.push(InFlight {
                        rseg: r.slot.id,
                        space_id: r.slot.space_id,
                        slot: s.slot,
                        page: s.page,
                        state: s.state,
                        trx_id: s.trx_id,
                        xid: s.xid.clone(),
                        records: c.records,
                        by_table: c
                            .by_table
                            .iter()
                            .map(|(&id, &(n, _))| (id, name(id), n))
                            .collect(),
                    });
                }
            }
            let (len, size) = r.header.as_ref().map_or((0, 0), |h| {
                (
                    u64::from(h.fixed.history.len),
                    u64::from(h.fixed.history_size),
                )
            });
            totals.history_list_length += len;
            totals.history_size_pages += size;
            rsegs.push(RsegRow {
                id: r.slot.id,
                directory: r.directory,
                space_id: r.slot.space_id,
                page: r.slot.page_no,
                history_length: len,
                history_size_pages: size,
                segments,
                undo_slots_used: r.segments.iter().filter(|s| s.slot.is_some()).count() as u64,
                max_trx_id: r
                    .header
                    .as_ref()
                    .filter(|h| h.is_10_3_5_format() && !state.mysql_8)
                    .map(|h| h.max_trx_id),
                max_trx_no: r
                    .header
                    .as_ref()
                    .filter(|_| state.mysql_8)
                    .map(|h| h.max_trx_id),
                page_lsn: r.page_lsn,
                binlog: r.binlog.clone(),
                wsrep_xid: r.wsrep_xid.clone(),
            });
            for log in &r.history {
                totals.undo_logs += 1;
                totals.undo_pages += u64::from(log.pages);
                all.merge(&log.counts);
                trx.push(TrxRow {
                    trx_id: log.header.trx_id,
                    trx_no: log.header.trx_no,
                    rseg: r.slot.id,
                    space_id: r.slot.space_id,
                    records: log.counts.records,
                    bytes: log.counts.bytes,
                    pages: log.pages,
                    by_kind: log.counts.by_kind.clone(),
                    cumulative_records: 0,
                    cumulative_bytes: 0,
                    cumulative_pages: 0,
                });
            }
        }
        totals.undo_records = all.records;
        totals.undo_bytes = all.bytes;
        trx.sort_by_key(|t| (t.trx_no, t.trx_id));
        let (mut r, mut b, mut p) = (0, 0, 0);
        for t in &mut trx {
            r += t.records;
            b += t.bytes;
            p += u64::from(t.pages);
            (t.cumulative_records, t.cumulative_bytes, t.cumulative_pages) = (r, b, p);
        }
        let mut by_table: Vec<TableRow> = all
            .by_table
            .iter()
            .map(|(&table_id, &(records, bytes))| TableRow {
                table_id,
                name: tables.name(table_id),
                records,
                bytes,
            })
            .collect();
        by_table.sort_by_key(|t| std::cmp::Reverse(t.records));
        let (max_trx_id, max_trx_id_source) = max_trx_id(&state);
        UndoReport {
            trx_id_store: state.trx_id_store,
            max_trx_id,
            max_trx_id_source,
            next_trx_id_at_startup: next_trx_id_at_startup(&state),
            binlog: recovered_binlog(&state),
            totals,
            segments_by_state,
            records_by_kind: all.by_kind,
            rollback_segments: rsegs,
            by_table,
            by_transaction: trx,
            in_flight,
            open_transactions: open_transactions(&state, &name),
            undo_tablespaces: undo_tablespace_rows(&state),
            mysql_8: state.mysql_8,
            records: listed,
            findings: state.findings,
        }
    }

    /// Notes which undo tablespaces have a truncation log in the data
    /// directory: `numbers` are those of the `undo_<number>_trunc.log`
    /// files found.
    pub fn note_truncation_logs(&mut self, numbers: &[u32]) {
        for u in &mut self.undo_tablespaces {
            u.truncation_log = u
                .tablespace
                .undo_space
                .is_some_and(|s| numbers.contains(&s.number));
        }
    }
}

/// The transactions still in undo segments, each over all its segments,
/// by transaction id.
fn open_transactions(
    state: &undo::UndoState,
    name: &dyn Fn(u64) -> Option<String>,
) -> Vec<OpenTransaction> {
    let mut by_trx: BTreeMap<u64, (OpenTransaction, RecordCounts)> = BTreeMap::new();
    let segments = state.rollback_segments.iter().flat_map(|r| &r.segments);
    for s in segments {
        let (Some(trx_id), Some(c)) = (s.trx_id, &s.counts) else {
            continue;
        };
        let e = by_trx.entry(trx_id).or_insert_with(|| {
            (
                OpenTransaction {
                    trx_id,
                    state: s.state,
                    segments: 0,
                    records: 0,
                    by_kind: BTreeMap::new(),
                    by_table: Vec::new(),
                },
                RecordCounts::default(),
            )
        });
        e.0.segments += 1;
        e.1.merge(c);
    }
    by_trx
        .into_values()
        .map(|(mut t, c)| {
            t.records = c.records;
            t.by_kind = c.by_kind;
            t.by_table = c
                .by_table
                .iter()
                .map(|(&id, &(n, _))| (id, name(id), n))
                .collect();
            t
        })
        .collect()
}

/// Each undo tablespace given, with its rollback segments' history and
/// undo segments summed up.
fn undo_tablespace_rows(state: &undo::UndoState) -> Vec<UndoTablespaceRow> {
    state
        .undo_tablespaces
        .iter()
        .map(|u| {
            let mut row = UndoTablespaceRow {
                tablespace: u.clone(),
                rollback_segments: 0,
                history_list_length: 0,
                segments: BTreeMap::new(),
                contents: UndoContents::Nothing,
                truncation_log: false,
            };
            for r in state
                .rollback_segments
                .iter()
                .filter(|r| r.slot.space_id == u.space_id)
            {
                row.rollback_segments += 1;
                row.history_list_length += r
                    .header
                    .as_ref()
                    .map_or(0, |h| u64::from(h.fixed.history.len));
                for s in &r.segments {
                    *row.segments.entry(s.state).or_default() += 1;
                }
            }
            let in_flight = row
                .segments
                .keys()
                .any(|k| matches!(*k, "active" | "prepared" | "prepared_in_tc"));
            row.contents = if in_flight {
                UndoContents::InFlight
            } else if row.history_list_length > 0 {
                UndoContents::History
            } else if !row.segments.is_empty() {
                UndoContents::CachedOnly
            } else {
                UndoContents::Nothing
            };
            row
        })
        .collect()
}

/// The larger of `TRX_SYS_TRX_ID_STORE` and the MariaDB 10.3.5+ headers'
/// `TRX_RSEG_MAX_TRX_ID`, with where it was read (the first rollback
/// segment holding it, or `trx_sys`).
fn max_trx_id(state: &undo::UndoState) -> (u64, String) {
    let mut best = (state.trx_id_store, None);
    // MySQL 8.0+ keeps TRX_RSEG_MAX_TRX_NO there, a transaction number.
    for r in state.rollback_segments.iter().filter(|_| !state.mysql_8) {
        if let Some(h) = r.header.as_ref().filter(|h| h.is_10_3_5_format()) {
            if h.max_trx_id > best.0 {
                best = (h.max_trx_id, Some(r.slot.id));
            }
        }
    }
    let source = best
        .1
        .map_or_else(|| "trx_sys".to_string(), |id| format!("rseg {id}"));
    (best.0, source)
}

/// The transaction id counter MariaDB 10.3.5+ starts from (see
/// [`UndoReport::next_trx_id_at_startup`]): `trx_rseg_array_init`,
/// `trx_rseg_mem_restore` and `trx_undo_mem_create_at_db_start`.
fn next_trx_id_at_startup(state: &undo::UndoState) -> Option<u64> {
    if state.mysql_8 {
        return state
            .trx_id_store
            .checked_add(2 * innodb_format::sys::trx_sys::TRX_SYS_TRX_ID_WRITE_MARGIN);
    }
    let mut max = state.trx_id_store;
    if state.rollback_segments.is_empty() {
        return None;
    }
    for r in &state.rollback_segments {
        let h = r.header.as_ref().filter(|h| h.is_10_3_5_format())?;
        max = max.max(h.max_trx_id);
        for s in &r.segments {
            let Some(l) = s.last_log else { continue };
            max = max.max(l.trx_id);
            match s.state {
                // A transaction still in flight: the ids up to its own are taken.
                "active" | "prepared" => max = max.max(l.trx_id.saturating_add(1)),
                "to_purge" => max = max.max(l.trx_no),
                // An older server's cached page may hold garbage there.
                "cached" if s.page_type == 0 => max = max.max(l.trx_no),
                _ => {}
            }
        }
        if let Some(o) = r.oldest_history {
            max = max.max(o.trx_id).max(o.trx_no);
        }
    }
    max.checked_add(1)
}

/// The binary log position the server recovers (see [`Binlog`]).
fn recovered_binlog(state: &undo::UndoState) -> Option<Binlog> {
    // In rollback segment order, as the server reads them: a greater name
    // replaces the position, the same name raises the offset.
    let mut best: Option<(&innodb_format::sys::trx_sys::BinlogPos, usize)> = None;
    for r in &state.rollback_segments {
        let Some(b) = &r.binlog else { continue };
        let better = best.is_none_or(|(cur, _)| {
            (b.file.as_bytes(), b.offset) > (cur.file.as_bytes(), cur.offset)
        });
        if better {
            best = Some((b, r.slot.id));
        }
    }
    if let Some((b, id)) = best {
        return Some(Binlog {
            file: b.file.clone(),
            offset: b.offset,
            source: format!("rseg {id}"),
        });
    }
    state.trx_sys_binlog.as_ref().map(|b| Binlog {
        file: b.file.clone(),
        offset: b.offset,
        source: "trx_sys".into(),
    })
}

/// One side of `undo --compare`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct UndoSide {
    /// The data directory (as given).
    pub dir: String,
    /// Its totals.
    pub totals: UndoTotals,
    /// The oldest transaction number still in the history (what purge waits on).
    pub oldest_trx_no: Option<u64>,
    /// The newest.
    pub newest_trx_no: Option<u64>,
    /// History records by table.
    pub by_table: Vec<TableRow>,
    /// Findings on this side.
    pub findings: usize,
}

/// `undo --compare A B`: how the history moved between two copies of one
/// data directory.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct UndoComparison {
    /// The first copy.
    pub a: UndoSide,
    /// The second copy.
    pub b: UndoSide,
    /// B − A for the history list length.
    pub history_list_length_change: i64,
    /// B − A for the undo records.
    pub undo_records_change: i64,
    /// B − A for the undo pages.
    pub undo_pages_change: i64,
    /// B − A for the undo bytes.
    pub undo_bytes_change: i64,
}

impl UndoSide {
    /// One side from its report.
    pub fn new(dir: &str, r: &UndoReport) -> UndoSide {
        UndoSide {
            dir: dir.to_string(),
            totals: r.totals.clone(),
            oldest_trx_no: r.by_transaction.first().map(|t| t.trx_no),
            newest_trx_no: r.by_transaction.last().map(|t| t.trx_no),
            by_table: r.by_table.clone(),
            findings: r.findings.len(),
        }
    }
}

impl UndoComparison {
    /// Compares two sides.
    pub fn new(a: UndoSide, b: UndoSide) -> UndoComparison {
        let d = |x: u64, y: u64| y as i64 - x as i64;
        UndoComparison {
            history_list_length_change: d(
                a.totals.history_list_length,
                b.totals.history_list_length,
            ),
            undo_records_change: d(a.totals.undo_records, b.totals.undo_records),
            undo_pages_change: d(a.totals.undo_pages, b.totals.undo_pages),
            undo_bytes_change: d(a.totals.undo_bytes, b.totals.undo_bytes),
            a,
            b,
        }
    }
}

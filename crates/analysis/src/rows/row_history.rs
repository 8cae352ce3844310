//! `history`: the version chain of one row, from the clustered record's
//! `DB_ROLL_PTR` through each undo record to the oldest version still
//! stored. Each update undo record gives the old values of the fields the
//! update changed and the previous version's `DB_TRX_ID` and
//! `DB_ROLL_PTR`; applying them one after another rebuilds every version.
//! The chain ends at a roll pointer with the insert flag (the row's first
//! version, or one whose history purge has already removed), at an undo
//! record that is not this row's (its page reused after purge), or at a
//! bound.

use crate::rows::records::{IndexField, RecordsReport, Schema};
use innodb_format::sys::trx_sys::{self, TRX_SYS_PAGE_NO};
use innodb_format::undo::trx_undo_rec::{kind, UndoRecordHeader};
use innodb_format::value::column_value::{RollPtr, Value};
use innodb_space::logical_pages::LogicalPages;
use innodb_space::{Finding, FindingKind, Tablespace};
use serde::Serialize;
use std::collections::HashSet;

/// Versions followed at most.
pub const MAX_VERSIONS: usize = 100_000;

/// Where a version's undo record is and what it was.
#[derive(Debug, Clone, Serialize)]
pub struct UndoStep {
    /// Tablespace of the undo record.
    pub space_id: u32,
    /// Its page.
    pub page: u32,
    /// Its offset.
    pub offset: u16,
    /// Record type (`update_existing`, `delete_mark`, …).
    pub kind: &'static str,
    /// Its undo number in its transaction.
    pub undo_no: u64,
    /// The fields whose old values it holds.
    pub changed: Vec<String>,
}

/// One version of the row.
#[derive(Debug, Clone, Serialize)]
pub struct Version {
    /// `DB_TRX_ID` of this version: the transaction that wrote it.
    pub trx_id: u64,
    /// Its `DB_ROLL_PTR`, taken apart.
    pub roll_ptr: Option<RollPtr>,
    /// The undo record this version was rebuilt from (none for the current one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo: Option<UndoStep>,
    /// Delete-marked in this version.
    pub deleted: bool,
    /// Values by field.
    pub values: Vec<Value>,
}

/// The `history` report.
#[derive(Debug, Clone, Serialize)]
pub struct RowHistory {
    /// Table.
    pub table: String,
    /// The key asked for.
    pub key: String,
    /// Field names and types of the clustered index.
    pub fields: Vec<IndexField>,
    /// Newest first.
    pub versions: Vec<Version>,
    /// Why the chain ends.
    pub end: String,
    /// Problems.
    pub findings: Vec<Finding>,
}

/// Why no history can be given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoHistory {
    /// The schema has no clustered index.
    NoClusteredIndex,
    /// No row has that key.
    NoSuchKey(String),
}

/// A value as a key column is written on the command line (`--key`).
pub fn value_text(v: &Value) -> String {
    text(v)
}

fn text(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Text(t) => t.clone(),
        Value::Hex { hex } => format!("0x{hex}"),
        Value::Undecoded { undecoded } => undecoded.clone(),
    }
}

impl RowHistory {
    /// The versions of the row whose primary key is `key` (its columns'
    /// values joined by commas) in `space`, its undo records read from the
    /// system tablespace and the undo tablespaces given.
    pub fn build(
        space: &Tablespace,
        schema: &Schema,
        key: &str,
        system: &Tablespace,
        undo: &[&Tablespace],
    ) -> Result<RowHistory, NoHistory> {
        let index = schema
            .indexes
            .iter()
            .find(|i| i.clustered)
            .ok_or(NoHistory::NoClusteredIndex)?;
        let records = RecordsReport::build(space, schema, Some(&index.id.to_string()), false, None)
            .map_err(|_| NoHistory::NoClusteredIndex)?;
        let fields = records.fields.clone();
        let n_unique = fields
            .iter()
            .position(|f| f.name == "DB_TRX_ID")
            .ok_or(NoHistory::NoClusteredIndex)?;
        let wanted: Vec<&str> = key.split(',').map(str::trim).collect();
        let row = records
            .rows
            .iter()
            .find(|r| {
                r.values
                    .get(..n_unique)
                    .is_some_and(|key| key.iter().map(text).collect::<Vec<_>>() == wanted)
            })
            .ok_or_else(|| NoHistory::NoSuchKey(key.to_string()))?;
        Ok(Self::chain(
            &records.table,
            key,
            &fields,
            n_unique,
            row,
            system,
            undo,
        ))
    }

    /// The version chain of `row`, one of the rows of a clustered index
    /// whose fields are `fields` (the first `n_unique` its key).
    pub fn chain(
        table: &str,
        key: &str,
        fields: &[IndexField],
        n_unique: usize,
        row: &crate::rows::records::Row,
        system: &Tablespace,
        undo: &[&Tablespace],
    ) -> RowHistory {
        let fields = fields.to_vec();
        let trx_at = n_unique;
        let roll_at = n_unique + 1;
        let mut findings = Vec::new();
        let mut versions = vec![Version {
            trx_id: match row.values.get(trx_at) {
                Some(Value::UInt(t)) => *t,
                _ => 0,
            },
            roll_ptr: row.roll_ptr,
            undo: None,
            deleted: row.deleted,
            values: row.values.clone(),
        }];
        // Rollback segment id → the tablespace holding it.
        let mut sys_pages = LogicalPages::new(system);
        let mut buf = Vec::new();
        let slots = sys_pages
            .read_into(TRX_SYS_PAGE_NO, &mut buf)
            .and_then(|_| trx_sys::rseg_slots(&buf).ok())
            .unwrap_or_default();
        let space_of = |rseg: u8| {
            let slot = slots.iter().find(|s| s.id == usize::from(rseg))?;
            if slot.space_id == system.space_id() {
                Some(system)
            } else {
                undo.iter().copied().find(|s| s.space_id() == slot.space_id)
            }
        };
        let mut seen = HashSet::new();
        let mut end = String::new();
        let mut roll = row.roll_ptr;
        // The undo record read last and where its DB_ROLL_PTR is: (space, page, offset).
        let mut pointer: Option<(u32, u32, usize)> = None;
        while end.is_empty() {
            let Some(rp) = roll else {
                end = "the record has no roll pointer".into();
                break;
            };
            if rp.insert {
                end = "the oldest version: its roll pointer has the insert flag (the row's first version, or older history already purged)".into();
                break;
            }
            if versions.len() > MAX_VERSIONS {
                end = format!("stopped after {MAX_VERSIONS} versions");
                break;
            }
            let Some(undo_space) = space_of(rp.rseg) else {
                end = format!(
                    "rollback segment {} is in a tablespace that was not given",
                    rp.rseg
                );
                break;
            };
            if !seen.insert((undo_space.space_id(), rp.page, rp.offset)) {
                // Named where the pointer that closes the loop is: the old
                // DB_ROLL_PTR of the undo record read last.
                let (space_id, page, offset) =
                    pointer.unwrap_or((undo_space.space_id(), rp.page, usize::from(rp.offset)));
                findings.push(Finding::on_page(
                    FindingKind::BrokenList,
                    page,
                    offset,
                    "DB_ROLL_PTR",
                    format!(
                        "space {space_id}: cycle: this undo record's DB_ROLL_PTR points back to the undo record at page {} offset {} of space {}, which the version chain already passed",
                        rp.page,
                        rp.offset,
                        undo_space.space_id()
                    ),
                ));
                end = "a cycle in the version chain".into();
                break;
            }
            let mut pages = LogicalPages::new(undo_space);
            if pages.read_into(rp.page, &mut buf).is_none() {
                end = format!(
                    "undo page {} of space {} cannot be read",
                    rp.page,
                    undo_space.space_id()
                );
                break;
            }
            let parsed = UndoRecordHeader::parse_at(&buf, usize::from(rp.offset))
                .and_then(|h| h.body(&buf, n_unique).map(|b| (h, b)));
            let (h, body) = match parsed {
                Ok(x) => x,
                Err(e) => {
                    end = format!("the undo record at page {} offset {} does not read: {e} (purged and reused?)", rp.page, rp.offset);
                    break;
                }
            };
            pointer = h
                .roll_ptr_offset(&buf)
                .map(|o| (undo_space.space_id(), rp.page, o));
            let same_row = body.key.len() == n_unique
                && body
                    .key
                    .iter()
                    .zip(&fields)
                    .zip(&row.values)
                    .all(|((k, f), v)| !k.null && f.value(&k.bytes) == *v);
            if !same_row {
                end = format!(
                    "the undo record at page {} offset {} is of another row: this row's older history was purged",
                    rp.page, rp.offset
                );
                break;
            }
            let prev = versions
                .last()
                .map(|v| v.values.clone())
                .unwrap_or_default();
            let mut values = prev;
            let mut changed = Vec::new();
            for (no, f) in &body.update {
                let i = *no as usize;
                let (Some(field), Some(value)) = (fields.get(i), values.get_mut(i)) else {
                    continue;
                };
                changed.push(field.name.clone());
                *value = if f.null {
                    Value::Null
                } else if f.external {
                    Value::Undecoded {
                        undecoded: "old value stored off-page".into(),
                    }
                } else {
                    field.value(&f.bytes)
                };
            }
            let old_trx = h.old_trx_id.unwrap_or(0);
            let old_roll = h
                .old_roll_ptr
                .and_then(|r| RollPtr::parse(&r.to_be_bytes()[1..]));
            if let Some(v) = values.get_mut(trx_at) {
                *v = Value::UInt(old_trx);
            }
            if let (Some(r), Some(v)) = (h.old_roll_ptr, values.get_mut(roll_at)) {
                *v = Value::UInt(r);
            }
            let step = UndoStep {
                space_id: undo_space.space_id(),
                page: rp.page,
                offset: rp.offset,
                kind: kind::name(h.kind),
                undo_no: h.undo_no,
                changed,
            };
            match h.kind {
                kind::UPDATE_EXISTING | kind::UPDATE_DELETED | kind::DELETE_MARK => {
                    versions.push(Version {
                        trx_id: old_trx,
                        roll_ptr: old_roll,
                        undo: Some(step),
                        deleted: h.kind == kind::UPDATE_DELETED,
                        values,
                    });
                    roll = old_roll;
                }
                _ => {
                    end = format!(
                        "the row was inserted (undo record of type {})",
                        kind::name(h.kind)
                    );
                }
            }
        }
        RowHistory {
            table: table.to_string(),
            key: key.to_string(),
            fields,
            versions,
            end,
            findings,
        }
    }
}

//! `history`: the version chain of one row, from the clustered record's
//! `DB_ROLL_PTR` through each undo record to the oldest version still
//! stored. Each update undo record gives the old values of the fields the
//! update changed and the previous version's `DB_TRX_ID` and
//! `DB_ROLL_PTR`; applying them one after another rebuilds every version.
//! The chain ends at a roll pointer with the insert flag (the row's first
//! version, or one whose history purge has already removed), at an undo
//! record that is not this row's (its page reused after purge), or at a
//! bound.

use crate::rows::key_search::{self, KeySearch};
use crate::rows::records::{IndexField, RecordsReport, Row, RowSink, RowState, Schema};
use innodb_format::undo::trx_undo_rec::{kind, UndoRecordBody, UndoRecordHeader};
use innodb_format::value::column_value::{RollPtr, Value};
use innodb_space::logical_pages::LogicalPages;
use innodb_space::undo_tablespaces::RollPtrSpaces;
use innodb_space::{Finding, FindingKind, Tablespace};
use serde::Serialize;
use std::collections::HashSet;

/// Versions followed at most.
pub const MAX_VERSIONS: usize = 100_000;

/// Where a version's undo record is and what it was.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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

pub use crate::rows::key_search::value_text;
use crate::rows::key_search::value_text as text;

/// Keeps the first row that `matches`, and stops there.
struct FirstMatch<'m> {
    matches: &'m dyn Fn(&Row) -> bool,
    row: Option<Row>,
}

impl RowSink for FirstMatch<'_> {
    fn start(&mut self, _: &RecordsReport) {}
    fn row(&mut self, row: &Row) -> bool {
        if (self.matches)(row) {
            self.row = Some(row.clone());
            return false;
        }
        true
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
        // Delete-marked rows too: a deleted row keeps its history until
        // purge removes it (garbage-list records are left out: no
        // transaction's view has them).
        let wanted: Vec<&str> = key.split(',').map(str::trim).collect();
        let n_key = index
            .fields
            .iter()
            .position(|f| f.name == "DB_TRX_ID")
            .ok_or(NoHistory::NoClusteredIndex)?;
        let matches = |r: &Row| {
            r.state != RowState::Garbage
                && r.values
                    .get(..n_key)
                    .is_some_and(|key| key.iter().map(text).collect::<Vec<_>>() == wanted)
        };
        let which = index.id.to_string();
        let mut first = FirstMatch {
            matches: &matches,
            row: None,
        };
        // Down the tree to the key's leaf page where the key can be compared
        // (integer keys); otherwise through the leaves until the row, one
        // row at a time.
        let records = match key_search::find(space, schema, key) {
            KeySearch::Found { page, .. } | KeySearch::NotFound { page, .. } => {
                RecordsReport::build_leaf(space, schema, Some(&which), page, true).inspect(|r| {
                    first.row = r.rows.iter().find(|r| matches(r)).cloned();
                })
            }
            KeySearch::Unsupported(_) => {
                RecordsReport::stream(space, schema, Some(&which), true, None, &mut first)
            }
        }
        .map_err(|_| NoHistory::NoClusteredIndex)?;
        let fields = records.fields.clone();
        let n_unique = fields
            .iter()
            .position(|f| f.name == "DB_TRX_ID")
            .ok_or(NoHistory::NoClusteredIndex)?;
        let row = first
            .row
            .ok_or_else(|| NoHistory::NoSuchKey(key.to_string()))?;
        let row = &row;
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
        let spaces = RollPtrSpaces::new(system, undo);
        let mut walk = ChainWalk::new(fields, n_unique, row, &spaces);
        let mut versions = vec![Version {
            trx_id: match row.values.get(n_unique) {
                Some(Value::UInt(t)) => *t,
                _ => 0,
            },
            roll_ptr: row.roll_ptr,
            undo: None,
            deleted: row.deleted,
            values: row.values.clone(),
        }];
        let mut roll = row.roll_ptr;
        let end = loop {
            match walk.older_version(roll, &versions) {
                Ok(v) => {
                    roll = v.roll_ptr;
                    versions.push(v);
                }
                Err(end) => break end,
            }
        };
        RowHistory {
            table: table.to_string(),
            key: key.to_string(),
            fields: fields.to_vec(),
            versions,
            end,
            findings: walk.findings,
        }
    }
}

/// What following one row's version chain keeps between undo records
/// (also what `records --committed` and `--as-of-trx` walk rows with).
pub(crate) struct ChainWalk<'a> {
    fields: &'a [IndexField],
    n_unique: usize,
    row: &'a crate::rows::records::Row,
    /// Which tablespace a roll pointer's id names.
    spaces: &'a RollPtrSpaces<'a>,
    /// The undo records passed: (space, page, offset).
    seen: HashSet<(u32, u32, u16)>,
    /// The undo record read last and where its DB_ROLL_PTR is: (space, page, offset).
    pointer: Option<(u32, u32, usize)>,
    buf: Vec<u8>,
    findings: Vec<Finding>,
}

impl<'a> ChainWalk<'a> {
    /// A walk back from `row`, one of the rows of a clustered index whose
    /// fields are `fields` (the first `n_unique` its key).
    pub(crate) fn new(
        fields: &'a [IndexField],
        n_unique: usize,
        row: &'a crate::rows::records::Row,
        spaces: &'a RollPtrSpaces<'a>,
    ) -> Self {
        ChainWalk {
            fields,
            n_unique,
            row,
            spaces,
            seen: HashSet::new(),
            pointer: None,
            buf: Vec::new(),
            findings: Vec::new(),
        }
    }

    /// The problems met on the way (cycles).
    pub(crate) fn into_findings(self) -> Vec<Finding> {
        self.findings
    }

    /// The version before the last of `versions`, rebuilt from the undo
    /// record its roll pointer `roll` points to; or why the chain ends.
    pub(crate) fn older_version(
        &mut self,
        roll: Option<RollPtr>,
        versions: &[Version],
    ) -> Result<Version, String> {
        let rp = roll.ok_or("the record has no roll pointer")?;
        if rp.insert {
            return Err("the oldest version: its roll pointer has the insert flag (the row's first version, or older history already purged)".into());
        }
        if versions.len() > MAX_VERSIONS {
            return Err(format!("stopped after {MAX_VERSIONS} versions"));
        }
        let undo_space = self.spaces.space(rp.rseg)?;
        self.pass(undo_space, rp)?;
        let (h, body) = self.read_undo_record(undo_space, rp)?;
        if !self.same_row(&body) {
            return Err(format!(
                "the undo record at page {} offset {} is of another row: this row's older history was purged",
                rp.page, rp.offset
            ));
        }
        let prev = versions
            .last()
            .map(|v| v.values.clone())
            .unwrap_or_default();
        let (values, changed) = self.older_values(prev, &h, &body);
        let old_roll = h
            .old_roll_ptr
            .and_then(|r| RollPtr::parse(&r.to_be_bytes()[1..]));
        match h.kind {
            kind::UPDATE_EXISTING | kind::UPDATE_DELETED | kind::DELETE_MARK => Ok(Version {
                trx_id: h.old_trx_id.unwrap_or(0),
                roll_ptr: old_roll,
                undo: Some(UndoStep {
                    space_id: undo_space.space_id(),
                    page: rp.page,
                    offset: rp.offset,
                    kind: kind::name(h.kind),
                    undo_no: h.undo_no,
                    changed,
                }),
                deleted: h.kind == kind::UPDATE_DELETED,
                values,
            }),
            _ => Err(format!(
                "the row was inserted (undo record of type {})",
                kind::name(h.kind)
            )),
        }
    }

    /// Notes the undo record `rp` points to as passed; one passed before
    /// is a cycle, a finding named where the pointer that closes it is
    /// (the old DB_ROLL_PTR of the undo record read last).
    fn pass(&mut self, undo_space: &Tablespace, rp: RollPtr) -> Result<(), String> {
        if self
            .seen
            .insert((undo_space.space_id(), rp.page, rp.offset))
        {
            return Ok(());
        }
        let (space_id, page, offset) =
            self.pointer
                .unwrap_or((undo_space.space_id(), rp.page, usize::from(rp.offset)));
        self.findings.push(Finding::on_page(
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
        Err("a cycle in the version chain".into())
    }

    /// Reads the undo record `rp` points to, header and body, and notes
    /// where its own DB_ROLL_PTR is.
    fn read_undo_record(
        &mut self,
        undo_space: &Tablespace,
        rp: RollPtr,
    ) -> Result<(UndoRecordHeader, UndoRecordBody), String> {
        let mut pages = LogicalPages::new(undo_space);
        if pages.read_into(rp.page, &mut self.buf).is_none() {
            return Err(format!(
                "undo page {} of space {} cannot be read",
                rp.page,
                undo_space.space_id()
            ));
        }
        let buf = &self.buf;
        let parsed = UndoRecordHeader::parse_at(buf, usize::from(rp.offset))
            .and_then(|h| h.body(buf, self.n_unique).map(|b| (h, b)));
        let (h, body) = parsed.map_err(|e| {
            format!(
                "the undo record at page {} offset {} does not read: {e} (purged and reused?)",
                rp.page, rp.offset
            )
        })?;
        self.pointer = h
            .roll_ptr_offset(buf)
            .map(|o| (undo_space.space_id(), rp.page, o));
        Ok((h, body))
    }

    /// True when the undo record's key is the row's.
    fn same_row(&self, body: &UndoRecordBody) -> bool {
        body.key.len() == self.n_unique
            && body
                .key
                .iter()
                .zip(self.fields)
                .zip(&self.row.values)
                .all(|((k, f), v)| !k.null && f.value(&k.bytes) == *v)
    }

    /// The values of the version before the one whose values are `prev`:
    /// the undo record's old values of the fields it changed (and their
    /// names), its old DB_TRX_ID and DB_ROLL_PTR.
    fn older_values(
        &self,
        mut values: Vec<Value>,
        h: &UndoRecordHeader,
        body: &UndoRecordBody,
    ) -> (Vec<Value>, Vec<String>) {
        let mut changed = Vec::new();
        for (no, f) in &body.update {
            let i = *no as usize;
            let (Some(field), Some(value)) = (self.fields.get(i), values.get_mut(i)) else {
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
        if let Some(v) = values.get_mut(self.n_unique) {
            *v = Value::UInt(h.old_trx_id.unwrap_or(0));
        }
        if let (Some(r), Some(v)) = (h.old_roll_ptr, values.get_mut(self.n_unique + 1)) {
            *v = Value::UInt(r);
        }
        (values, changed)
    }
}

//! Rows as a transaction's view would see them: `records --committed`
//! (the rows crash recovery leaves: every transaction still in flight
//! rolled back through its undo records) and `records --as-of-trx N` (what
//! a read view opened before transaction N began sees). Each clustered
//! record whose `DB_TRX_ID` the view does not see is followed back through
//! `DB_ROLL_PTR` (see [`crate::rows::row_history`]) to the newest version
//! it does see: updates are reverted, rows whose first version it does not
//! see (inserted later) are left out, rows delete-marked later are
//! restored. A row whose needed undo record is missing, damaged or purged
//! is named in a finding (key, page, roll pointer), never guessed.
//!
//! Rows are resolved one at a time as they stream by: what is kept is the
//! counts and a bounded list of findings.

use crate::rows::key_search::value_text;
use crate::rows::records::{IndexField, Row, RowState};
use crate::rows::row_history::{ChainWalk, Version};
use crate::rows::row_state::{OpenTransactions, Rebuild, RowTrx, TrxState};
use innodb_format::value::column_value::{RollPtr, Value};
use innodb_space::undo_tablespaces::RollPtrSpaces;
use innodb_space::{Finding, FindingKind};
use serde::Serialize;
use std::collections::BTreeMap;

/// Rows that cannot be rebuilt named one by one, at most (the counts
/// hold them all).
pub const MAX_ROW_FINDINGS: usize = 50;

/// Which view of the rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum View {
    /// The rows as stored, each marked with its writer's state.
    Stored,
    /// Every transaction in flight rolled back (`--committed`).
    Committed,
    /// A read view opened before transaction N began (`--as-of-trx N`).
    AsOfTrx(u64),
}

/// What became of the rows read, by view.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct RecoveryCounts {
    /// Clustered records read (delete-marked ones included).
    pub records: u64,
    /// Rows shown as stored.
    pub stored: u64,
    /// Rows shown as an older version rebuilt from the undo log.
    pub reverted: u64,
    /// Delete-marked records restored (their delete undone).
    pub restored: u64,
    /// Rows left out: their first version is not seen (inserted by a
    /// transaction undone, or after the view).
    pub removed: u64,
    /// Rows left out: deleted in the version seen (a committed delete,
    /// not yet purged).
    pub deleted: u64,
    /// Rows that cannot be rebuilt: an undo record needed is missing,
    /// damaged or purged (named in the findings).
    pub unrecoverable: u64,
    /// Rows whose stored version is an open transaction's, by transaction
    /// id: (state, rows).
    pub by_open_trx: BTreeMap<u64, (TrxState, u64)>,
}

/// The outcome of one row.
#[derive(Debug)]
pub enum Resolved {
    /// The row as the view sees it.
    Row(Row),
    /// Not in the view: deleted in the version seen.
    Deleted(Row),
    /// Not in the view: its first version is not seen.
    Removed,
    /// Cannot be rebuilt (a finding was added).
    Unrecoverable,
}

/// Resolves each row of a clustered index against a view.
pub struct RowResolver<'a> {
    fields: Vec<IndexField>,
    /// Fields of the key; `DB_TRX_ID` is the next one.
    n_unique: usize,
    spaces: &'a RollPtrSpaces<'a>,
    open: &'a OpenTransactions,
    view: View,
    /// What became of the rows.
    pub counts: RecoveryCounts,
    /// The rows that cannot be rebuilt (the first [`MAX_ROW_FINDINGS`]).
    pub findings: Vec<Finding>,
}

impl<'a> RowResolver<'a> {
    /// A resolver for the rows of a clustered index whose fields are
    /// `fields`; `None` when they have no `DB_TRX_ID` (not a clustered
    /// index).
    pub fn new(
        fields: Vec<IndexField>,
        spaces: &'a RollPtrSpaces<'a>,
        open: &'a OpenTransactions,
        view: View,
    ) -> Option<Self> {
        let n_unique = fields.iter().position(|f| f.name == "DB_TRX_ID")?;
        Some(RowResolver {
            fields,
            n_unique,
            spaces,
            open,
            view,
            counts: RecoveryCounts::default(),
            findings: Vec::new(),
        })
    }

    /// The view this resolver shows.
    pub fn view(&self) -> View {
        self.view
    }

    /// True when the view sees the changes of transaction `trx`.
    fn sees(&self, trx: u64) -> bool {
        self.open.state_of(trx).is_none()
            && match self.view {
                View::Stored | View::Committed => true,
                View::AsOfTrx(n) => trx < n,
            }
    }

    /// The row as the view sees it (a garbage-list record is not one of
    /// the index's: it is handed back as deleted).
    pub fn resolve(&mut self, mut row: Row) -> Resolved {
        if row.state == RowState::Garbage {
            return Resolved::Deleted(row);
        }
        self.counts.records += 1;
        let trx = trx_id(&row, self.n_unique);
        let state = self.open.state_of(trx);
        if let Some(s) = state {
            self.counts.by_open_trx.entry(trx).or_insert((s, 0)).1 += 1;
        }
        if self.view == View::Stored || self.sees(trx) {
            if state.is_some() {
                row.trx = Some(RowTrx::stored(state));
            }
            return if row.state == RowState::DeleteMarked {
                self.counts.deleted += 1;
                Resolved::Deleted(row)
            } else {
                self.counts.stored += 1;
                Resolved::Row(row)
            };
        }
        self.walk_back(row, trx)
    }

    /// Follows `row` (stored by transaction `trx`, which the view does not
    /// see) back to the newest version the view sees.
    fn walk_back(&mut self, row: Row, trx: u64) -> Resolved {
        let spaces = self.spaces;
        let mut walk = ChainWalk::new(&self.fields, self.n_unique, &row, spaces);
        let mut versions = vec![Version {
            trx_id: trx,
            roll_ptr: row.roll_ptr,
            undo: None,
            deleted: row.deleted,
            values: row.values.clone(),
        }];
        let mut roll = row.roll_ptr;
        let outcome = loop {
            let Some(rp) = roll else {
                break Err((None, "the record has no DB_ROLL_PTR".to_string()));
            };
            if rp.insert {
                break Ok(None);
            }
            let v = match walk.older_version(roll, &versions) {
                Ok(v) => v,
                Err(why) => break Err((Some(rp), why)),
            };
            if let Some(col) = off_page_old_value(&v, &self.fields) {
                break Err((Some(rp), format!("the undo record keeps column {col}'s old value off-page, which is not read: the version before cannot be rebuilt")));
            }
            if self.sees(v.trx_id) {
                break Ok(Some(v));
            }
            roll = v.roll_ptr;
            versions.push(v);
        };
        let undone = u32::try_from(versions.len()).unwrap_or(u32::MAX);
        let cycles = walk.into_findings();
        match outcome {
            Ok(None) => {
                self.counts.removed += 1;
                Resolved::Removed
            }
            Ok(Some(v)) if v.deleted => {
                self.counts.deleted += 1;
                Resolved::Deleted(self.rebuilt(&row, v, trx, undone))
            }
            Ok(Some(v)) => Resolved::Row(self.rebuilt(&row, v, trx, undone)),
            Err((rp, why)) => {
                self.unrecoverable(&row, rp, &why);
                self.findings.extend(cycles);
                Resolved::Unrecoverable
            }
        }
    }

    /// The row `row` (stored by `trx`) as its version `v`, `undone`
    /// versions back.
    fn rebuilt(&mut self, row: &Row, v: Version, trx: u64, undone: u32) -> Row {
        let restored = row.state == RowState::DeleteMarked && !v.deleted;
        if !v.deleted {
            if restored {
                self.counts.restored += 1;
            } else {
                self.counts.reverted += 1;
            }
        }
        Row {
            page: row.page,
            origin: row.origin,
            deleted: v.deleted,
            state: if v.deleted {
                RowState::DeleteMarked
            } else {
                RowState::Live
            },
            confidence: v.deleted.then_some(crate::rows::records::Confidence::High),
            values: v.values,
            roll_ptr: v.roll_ptr,
            external: Vec::new(),
            trx: Some(RowTrx {
                state: None,
                rebuild: if restored {
                    Rebuild::Restored
                } else {
                    Rebuild::Reverted
                },
                stored_trx_id: Some(trx),
                undone,
            }),
        }
    }

    /// Counts a row that cannot be rebuilt, and names the first few.
    fn unrecoverable(&mut self, row: &Row, rp: Option<RollPtr>, why: &str) {
        self.counts.unrecoverable += 1;
        if self.findings.len() >= MAX_ROW_FINDINGS {
            return;
        }
        let key: Vec<String> = row
            .values
            .iter()
            .take(self.n_unique)
            .map(value_text)
            .collect();
        let pointer = rp.map_or_else(
            || "no roll pointer".to_string(),
            |rp| {
                format!(
                    "DB_ROLL_PTR rseg {} page {} offset {}",
                    rp.rseg, rp.page, rp.offset
                )
            },
        );
        let view = match self.view {
            View::AsOfTrx(n) => format!("as of transaction {n}"),
            _ => "committed".to_string(),
        };
        self.findings.push(Finding::on_page(
            FindingKind::Unreadable,
            row.page,
            row.origin,
            "DB_ROLL_PTR",
            format!(
                "row with key ({}): its {view} version cannot be rebuilt, left out ({pointer}): {why}",
                key.join(",")
            ),
        ));
    }
}

/// The row's `DB_TRX_ID` (the field after the key; 0 when unreadable).
fn trx_id(row: &Row, n_unique: usize) -> u64 {
    match row.values.get(n_unique) {
        Some(Value::UInt(t)) => *t,
        _ => 0,
    }
}

/// The name of a column whose old value the undo record kept off-page
/// (which the version walk does not read), if any.
fn off_page_old_value<'f>(v: &Version, fields: &'f [IndexField]) -> Option<&'f str> {
    v.values
        .iter()
        .zip(fields)
        .find_map(|(value, f)| match value {
            Value::Undecoded { undecoded } if undecoded == "old value stored off-page" => {
                Some(f.name.as_str())
            }
            _ => None,
        })
}

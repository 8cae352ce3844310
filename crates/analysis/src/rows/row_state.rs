//! The transaction state of rows: which transactions the undo logs show
//! still in flight (active, or XA prepared), the bounds of the history
//! purge kept, and what is said of a row read with them (its mark, and
//! how it was rebuilt from the undo log for `--committed` and
//! `--as-of-trx`).
//!
//! The set of open transactions is read once from the rollback segments'
//! undo slots (`TRX_UNDO_STATE` of each undo segment in use,
//! `TRX_UNDO_TRX_ID` of its last log): it is small whatever the table's
//! size, so rows can be streamed against it.

use crate::reports::undo_report::UndoReport;
use serde::Serialize;
use std::collections::BTreeMap;

/// The state of a transaction the undo logs show still in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TrxState {
    /// `TRX_UNDO_ACTIVE`: running when the server stopped; crash recovery
    /// rolls it back.
    Active,
    /// `TRX_UNDO_PREPARED` (and MySQL's `PREPARED_IN_TC`): an XA
    /// transaction prepared and neither committed nor rolled back; a
    /// server keeps it pending until `XA COMMIT` or `XA ROLLBACK`.
    Prepared,
}

impl TrxState {
    /// `active` or `prepared`.
    pub fn name(self) -> &'static str {
        match self {
            TrxState::Active => "active",
            TrxState::Prepared => "prepared",
        }
    }
}

/// One transaction in flight.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct OpenTrx {
    /// Its `TRX_UNDO_TRX_ID`.
    pub trx_id: u64,
    /// Active or prepared.
    pub state: TrxState,
    /// Its undo records over all its undo segments.
    pub undo_records: u64,
    /// Those of them on the table being read (named as the undo report
    /// names tables; 0 when the table is not named there).
    pub undo_records_here: u64,
}

/// What the undo logs say of transactions, read once before the rows.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct OpenTransactions {
    /// The transactions in flight, by id.
    pub open: BTreeMap<u64, OpenTrx>,
    /// The newest transaction id or number these files record: the
    /// largest of the stored maximum (`TRX_SYS_TRX_ID_STORE`, MariaDB's
    /// `TRX_RSEG_MAX_TRX_ID`), every history log's id and number, every
    /// open transaction's id.
    pub newest_trx: u64,
    /// The commit number of the oldest undo log left in the history:
    /// purge has removed every log committed before it. `None` when the
    /// history is empty (every committed log purged).
    pub oldest_history_trx_no: Option<u64>,
    /// The first transaction id the server would give out on restart
    /// (see [`UndoReport::next_trx_id_at_startup`]): no transaction of
    /// these files has an id from it on.
    pub next_trx_id: Option<u64>,
}

impl OpenTransactions {
    /// The transactions of an undo report; `table` (`db/table`) is the
    /// table whose rows are read, for the count of its undo records.
    pub fn from_report(r: &UndoReport, table: &str) -> OpenTransactions {
        let mut open = BTreeMap::new();
        for t in &r.open_transactions {
            let state = if t.state.starts_with("prepared") {
                TrxState::Prepared
            } else {
                TrxState::Active
            };
            let here = t
                .by_table
                .iter()
                .filter(|(_, name, _)| name.as_deref() == Some(table))
                .map(|(_, _, n)| n)
                .sum();
            open.insert(
                t.trx_id,
                OpenTrx {
                    trx_id: t.trx_id,
                    state,
                    undo_records: t.records,
                    undo_records_here: here,
                },
            );
        }
        let history_max = r
            .by_transaction
            .iter()
            .map(|t| t.trx_no.max(t.trx_id))
            .max()
            .unwrap_or(0);
        let open_max = open.keys().next_back().copied().unwrap_or(0);
        OpenTransactions {
            open,
            newest_trx: r.max_trx_id.max(history_max).max(open_max),
            oldest_history_trx_no: r.by_transaction.iter().map(|t| t.trx_no).min(),
            next_trx_id: r.next_trx_id_at_startup,
        }
    }

    /// The state of transaction `trx_id` when it is in flight.
    pub fn state_of(&self, trx_id: u64) -> Option<TrxState> {
        self.open.get(&trx_id).map(|t| t.state)
    }

    /// True when transaction `n` lies beyond every id these files can have
    /// given out: above the counter the server restarts from, or, when that
    /// is not known, above the newest id recorded plus one.
    pub fn beyond_newest(&self, n: u64) -> bool {
        n > self
            .next_trx_id
            .unwrap_or_else(|| self.newest_trx.saturating_add(1))
    }

    /// Whether a read view opened before transaction `n` began can be
    /// rebuilt from what purge left: every transaction that view does not
    /// see (ids from `n` on) must still have its undo log. Purge removes
    /// logs in commit order, so those purged committed (number) before the
    /// oldest log left, and their ids are below that number less one.
    pub fn view_complete(&self, n: u64) -> bool {
        match self.oldest_history_trx_no {
            Some(oldest) => n.saturating_add(1) >= oldest,
            None => n > self.newest_trx,
        }
    }
}

/// How the version of a row shown was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rebuild {
    /// The clustered record as stored.
    Stored,
    /// An older version, rebuilt from the undo log: the changes of newer
    /// transactions undone.
    Reverted,
    /// A record delete-marked by a transaction undone: restored.
    Restored,
}

/// What the undo logs tell of the version of a row shown (`records` on a
/// clustered index with the system tablespace at hand).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RowTrx {
    /// The state of the transaction that wrote the version shown, when it
    /// is still in flight (uncommitted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<TrxState>,
    /// How the version shown was reached.
    pub rebuild: Rebuild,
    /// The `DB_TRX_ID` of the stored record, when the version shown is an
    /// older one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored_trx_id: Option<u64>,
    /// Versions undone to reach it.
    pub undone: u32,
}

impl RowTrx {
    /// The mark of a stored record written by a transaction in `state`.
    pub fn stored(state: Option<TrxState>) -> RowTrx {
        RowTrx {
            state,
            rebuild: Rebuild::Stored,
            stored_trx_id: None,
            undone: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(oldest: Option<u64>, newest: u64) -> OpenTransactions {
        OpenTransactions {
            open: BTreeMap::new(),
            newest_trx: newest,
            oldest_history_trx_no: oldest,
            next_trx_id: None,
        }
    }

    #[test]
    fn a_view_is_complete_from_the_oldest_history_log_on() {
        // The oldest log left committed as number 42 (its id 41): a view
        // before 41 may miss a purged transaction 40.
        let t = with(Some(42), 56);
        assert!(t.view_complete(41));
        assert!(t.view_complete(56));
        assert!(!t.view_complete(40));
        // Nothing left in the history: only a view after every
        // transaction is complete.
        let purged = with(None, 60);
        assert!(!purged.view_complete(60));
        assert!(purged.view_complete(61));
        assert!(!purged.beyond_newest(61));
        assert!(purged.beyond_newest(62));
    }
}

//! What `records` says of transactions when it reads rows with the undo
//! logs: the mark of each row, the open transactions before the rows, and
//! what became of the rows after them (text and a JSON summary line).

use innodb_analysis::rows::row_recovery::{RecoveryCounts, View};
use innodb_analysis::rows::row_state::{OpenTransactions, Rebuild, RowTrx, TrxState};
use std::fmt::Write;

/// The mark of a row in text: `uncommitted: active`, `reverted: 1
/// version of trx 2041 undone`, …
pub fn trx_mark(t: &RowTrx) -> String {
    let trx = t
        .stored_trx_id
        .map_or_else(String::new, |id| format!(" of trx {id}"));
    match (t.rebuild, t.state) {
        (Rebuild::Stored, Some(s)) => format!("uncommitted: {}", s.name()),
        (Rebuild::Stored, None) => "committed".into(),
        (Rebuild::Reverted, _) => format!(
            "reverted: {} version{}{trx} undone",
            t.undone,
            if t.undone == 1 { "" } else { "s" }
        ),
        (Rebuild::Restored, _) => format!("restored: the delete{trx} undone"),
    }
}

/// The mark of a row in one word (the CSV `trx` column).
pub fn trx_word(t: &RowTrx) -> &'static str {
    match (t.rebuild, t.state) {
        (Rebuild::Stored, Some(s)) => s.name(),
        (Rebuild::Stored, None) => "",
        (Rebuild::Reverted, _) => "reverted",
        (Rebuild::Restored, _) => "restored",
    }
}

/// What a view shows, in words.
fn view_words(view: View) -> String {
    match view {
        View::Stored => "the rows as stored; those written by a transaction still in flight are marked uncommitted".into(),
        View::Committed => "the committed rows, as crash recovery leaves them: each transaction in flight rolled back through its undo records".into(),
        View::AsOfTrx(n) => format!("what a read view opened before transaction {n} began sees: each row followed back through DB_ROLL_PTR to its newest version committed before {n}"),
    }
}

/// The lines `records` writes before the rows (text): the view and the
/// transactions the undo logs show in flight.
pub fn trx_head(open: &OpenTransactions, view: View) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "# view: {}", view_words(view));
    if open.open.is_empty() {
        let _ = writeln!(
            o,
            "# no transaction is in flight in the undo logs: every stored row is committed"
        );
    }
    for t in open.open.values() {
        let _ = writeln!(
            o,
            "# uncommitted: trx {} {} ({} undo records, {} of them on this table){}",
            t.trx_id,
            t.state.name(),
            t.undo_records,
            t.undo_records_here,
            prepared_note(t.state, view)
        );
    }
    o
}

/// What is said of a prepared transaction in a view that rolls it back.
fn prepared_note(state: TrxState, view: View) -> &'static str {
    match (state, view) {
        (TrxState::Prepared, View::Committed) => ": an XA transaction prepared and not committed; rolled back here, while a server keeps it pending until XA COMMIT or XA ROLLBACK",
        (TrxState::Prepared, _) => ": an XA transaction prepared and not committed (a server keeps it pending until XA COMMIT or XA ROLLBACK)",
        (TrxState::Active, View::Committed) => ": rolled back here, as crash recovery does",
        _ => "",
    }
}

/// The lines `records` writes after the rows (text): rows of open
/// transactions, and what the view changed.
pub fn trx_tail(counts: &RecoveryCounts, view: View) -> String {
    let mut o = String::new();
    for (trx, (state, n)) in &counts.by_open_trx {
        let _ = writeln!(
            o,
            "# {n} stored rows written by trx {trx} ({}, uncommitted)",
            state.name()
        );
    }
    if view != View::Stored {
        let _ = writeln!(
            o,
            "# of {} records: {} as stored, {} reverted, {} restored, {} left out as never seen (inserted later), {} deleted in the version seen, {} cannot be rebuilt",
            counts.records,
            counts.stored,
            counts.reverted,
            counts.restored,
            counts.removed,
            counts.deleted,
            counts.unrecoverable
        );
    }
    o
}

/// The JSON summary line `records` writes after the rows.
pub fn trx_summary_json(open: &OpenTransactions, counts: &RecoveryCounts, view: View) -> String {
    let by_trx: Vec<serde_json::Value> = counts
        .by_open_trx
        .iter()
        .map(|(trx, (state, n))| serde_json::json!({"trx_id": trx, "state": state, "rows": n}))
        .collect();
    let line = serde_json::json!({
        "transactions": {
            "view": view,
            "open": open.open.values().collect::<Vec<_>>(),
            "uncommitted_rows": by_trx,
            "counts": counts,
        }
    });
    crate::json::line(&line)
}

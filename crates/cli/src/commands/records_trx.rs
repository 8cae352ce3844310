//! `records` with the undo logs: each row of the clustered index marked
//! with its writer's state when that transaction is still in flight,
//! `--committed` (the rows crash recovery leaves), `--as-of-trx N` (what a
//! read view opened before transaction N began sees), and `--deleted`
//! (the deleted rows after the live ones, as a set of their own).

use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::reports::undo_report::UndoReport;
use innodb_analysis::rows::records::{NoRecords, RecordsReport, Row, RowSink, RowState, Schema};
use innodb_analysis::rows::row_recovery::{RecoveryCounts, Resolved, RowResolver, View};
use innodb_analysis::rows::row_state::OpenTransactions;
use innodb_space::undo_tablespaces::RollPtrSpaces;
use innodb_space::{Finding, Tablespace};
use std::path::PathBuf;

/// What `records` was asked of transactions.
pub struct TrxArgs<'a> {
    /// `--committed`.
    pub committed: bool,
    /// `--as-of-trx N`.
    pub as_of_trx: Option<u64>,
    /// `--undo`: undo tablespaces (with `--system`; `--datadir` finds them).
    pub undo: &'a [PathBuf],
}

impl TrxArgs<'_> {
    /// The view asked for.
    pub fn view(&self) -> View {
        match (self.committed, self.as_of_trx) {
            (_, Some(n)) => View::AsOfTrx(n),
            (true, None) => View::Committed,
            (false, None) => View::Stored,
        }
    }
}

/// The undo logs of the server, read once before the rows (once for all
/// the tables of an `export`).
pub struct Undo {
    system: Tablespace,
    undo: Vec<Tablespace>,
    report: UndoReport,
    /// The transactions in flight and the bounds of the history, with
    /// what they did to the table read.
    pub open: OpenTransactions,
}

impl Undo {
    /// Problems met reading the undo logs.
    pub fn findings(&self) -> &[Finding] {
        &self.report.findings
    }

    /// Makes `table` (`db/table`) the table read: the counts of what the
    /// open transactions did are then that table's.
    pub fn set_table(&mut self, table: &str) {
        self.open = OpenTransactions::from_report(&self.report, table);
    }
}

/// The system tablespace of `--system` or `--datadir`, if any.
fn system_path(inputs: &Inputs) -> Option<PathBuf> {
    match (&inputs.system, &inputs.datadir) {
        (Some(p), _) => Some(p.clone()),
        (None, Some(dir)) => dir.system().map(|f| f.path.clone()),
        (None, None) => None,
    }
}

/// Reads the undo logs when the system tablespace is at hand (`None`
/// otherwise; an error when `--committed` or `--as-of-trx` needs them).
/// `table` names the table read (`db/table`).
pub fn read_undo(inputs: &Inputs, args: &TrxArgs, table: &str) -> Result<Option<Undo>, CliError> {
    let Some(system_path) = system_path(inputs) else {
        if args.view() != View::Stored {
            return Err(CliError::Usage(
                "records --committed and --as-of-trx need the undo logs: --datadir DIR, or --system ibdata1 with --undo for undo tablespaces".into(),
            ));
        }
        return Ok(None);
    };
    let mut undo_paths: Vec<PathBuf> = args.undo.iter().map(|f| inputs.locate(f)).collect();
    if let (true, Some(dir)) = (undo_paths.is_empty(), &inputs.datadir) {
        undo_paths = dir.undo().map(|f| f.path.clone()).collect();
    }
    let system = inputs.open_system(&system_path, "records")?;
    let undo = inputs.open_all(&undo_paths)?;
    let refs: Vec<&Tablespace> = undo.iter().collect();
    let report = UndoReport::build(&system, &refs, inputs.dictionary()?);
    let open = OpenTransactions::from_report(&report, table);
    Ok(Some(Undo {
        system,
        undo,
        report,
        open,
    }))
}

/// Says what is doubtful about the view asked for: a transaction beyond
/// the newest one these files record, or a view older than what purge
/// kept.
pub fn check_view(undo: &Undo, view: View, out: &mut Output) {
    if !undo.findings().is_empty() {
        out.say(&format!(
            "warning: {} problems reading the undo logs (`undo` lists them; with --system, give each undo tablespace with --undo): a transaction in flight whose undo segment was not read is not known, its rows are not marked nor rolled back, and rows whose undo records are not reached are named as such",
            undo.findings().len()
        ));
    }
    let View::AsOfTrx(n) = view else { return };
    if undo.open.beyond_newest(n) {
        let limit = undo.open.next_trx_id.map_or_else(
            || format!("the newest id they record is {}", undo.open.newest_trx),
            |next| format!("the server would give out {next} next"),
        );
        out.say(&format!(
            "warning: --as-of-trx {n} is beyond the newest transaction of these files ({limit}): no transaction {n} had begun; the view shown is that of every committed row"
        ));
    } else if !undo.open.view_complete(n) {
        let oldest = undo.open.oldest_history_trx_no.map_or_else(
            || "every committed undo log".to_string(),
            |o| format!("the undo logs of transactions committed before number {o}"),
        );
        out.say(&format!(
            "warning: --as-of-trx {n} is below what purge kept: it has removed {oldest}, so a read view opened before transaction {n} cannot be rebuilt wholly; rows whose older versions are gone are named as such, and a row changed since only by purged transactions shows its newer version"
        ));
    }
}

/// Which pass of the rows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// The rows the view shows.
    Shown,
    /// The deleted rows, after them (`--deleted`).
    Deleted,
}

/// Resolves each row against the view before handing it on.
struct Resolving<'r, 's> {
    inner: &'s mut dyn RowSink,
    pass: Pass,
    view: View,
    undo: Option<(&'r RollPtrSpaces<'r>, &'r OpenTransactions)>,
    resolver: Option<RowResolver<'r>>,
    /// `--limit`: rows handed on at most (records read and not shown do
    /// not count).
    limit: Option<usize>,
    /// Rows handed on.
    shown: usize,
}

impl RowSink for Resolving<'_, '_> {
    fn start(&mut self, head: &RecordsReport) {
        if let Some((spaces, open)) = self.undo {
            self.resolver = RowResolver::new(head.fields.clone(), spaces, open, self.view);
        }
        match self.pass {
            Pass::Shown => self.inner.start(head),
            Pass::Deleted => self.inner.section("deleted rows: delete-marked and not yet purged (and, where the bytes are still there, purged records of the garbage list)"),
        }
    }

    fn row(&mut self, row: &Row) -> bool {
        let resolved = match &mut self.resolver {
            Some(r) => r.resolve(row.clone()),
            None if row.state == RowState::Live => return self.hand_on(Pass::Shown, row),
            None => return self.hand_on(Pass::Deleted, row),
        };
        match resolved {
            Resolved::Row(r) => self.hand_on(Pass::Shown, &r),
            Resolved::Deleted(r) => self.hand_on(Pass::Deleted, &r),
            _ => true,
        }
    }
}

impl Resolving<'_, '_> {
    /// Hands `row`, which belongs to the set `set`, on when this pass
    /// shows that set.
    fn hand_on(&mut self, set: Pass, row: &Row) -> bool {
        if set != self.pass {
            return true;
        }
        if self.limit.is_some_and(|l| self.shown >= l) {
            return false;
        }
        self.shown += 1;
        self.inner.row(row) && self.limit.is_none_or(|l| self.shown < l)
    }
}

/// What the rows came to.
pub struct Streamed {
    /// The report of the rows shown (findings, layout).
    pub report: RecordsReport,
    /// What became of them (when the undo logs were read and the index is
    /// the clustered one).
    pub counts: Option<RecoveryCounts>,
    /// Rows that cannot be rebuilt.
    pub findings: Vec<Finding>,
}

/// The options of one stream of the rows.
pub struct StreamArgs<'a> {
    /// `--index`.
    pub index: Option<&'a str>,
    /// `--deleted`.
    pub deleted: bool,
    /// `--limit`.
    pub limit: Option<usize>,
    /// The view.
    pub view: View,
}

/// Streams the rows of `space` to `sink` as the view shows them, then,
/// with `--deleted`, the deleted rows as a second set.
pub fn stream(
    space: &Tablespace,
    schema: &Schema,
    args: &StreamArgs,
    undo: Option<&Undo>,
    sink: &mut dyn RowSink,
) -> Result<Streamed, NoRecords> {
    let refs: Vec<&Tablespace> = undo.map(|u| u.undo.iter().collect()).unwrap_or_default();
    let spaces = undo.map(|u| RollPtrSpaces::new(&u.system, &refs));
    let with = spaces.as_ref().zip(undo.map(|u| &u.open));
    let mut shown = Resolving {
        inner: sink,
        pass: Pass::Shown,
        view: args.view,
        undo: with,
        resolver: None,
        limit: args.limit,
        shown: 0,
    };
    // Delete-marked records are read when the undo logs are: a view may
    // restore them, and an open transaction's deletes are counted.
    let read_deleted = undo.is_some();
    let mut report =
        RecordsReport::stream(space, schema, args.index, read_deleted, None, &mut shown)?;
    let (counts, findings) = match shown.resolver {
        Some(r) => (Some(r.counts), r.findings),
        None => (None, Vec::new()),
    };
    let sink = shown.inner;
    if args.deleted {
        let mut deleted = Resolving {
            inner: sink,
            pass: Pass::Deleted,
            view: args.view,
            undo: with,
            resolver: None,
            limit: args.limit,
            shown: 0,
        };
        let d = RecordsReport::stream(space, schema, args.index, true, None, &mut deleted)?;
        report.erased_records = d.erased_records;
    }
    Ok(Streamed {
        report,
        counts,
        findings,
    })
}

/// An error when `--committed` or `--as-of-trx` is asked of an index that
/// is not the clustered one (only its records hold `DB_TRX_ID`).
pub fn check_index(schema: &Schema, index: Option<&str>, view: View) -> Result<(), CliError> {
    let clustered = match index {
        None => true,
        Some(w) => schema
            .indexes
            .iter()
            .any(|i| i.clustered && (i.name == w || i.id.to_string() == w)),
    };
    if view == View::Stored || clustered {
        return Ok(());
    }
    Err(CliError::Usage(
        "--committed and --as-of-trx read the clustered index (only its records hold DB_TRX_ID and DB_ROLL_PTR); leave out --index".into(),
    ))
}

/// True when the listing says anything of transactions: always for
/// `--committed` and `--as-of-trx`; as stored, when a transaction is in
/// flight (otherwise the listing is the plain one).
pub fn says_anything(undo: &Undo, view: View) -> bool {
    view != View::Stored || !undo.open.open.is_empty()
}

/// What is said after the rows of transactions: text lines, or a JSON
/// summary line (as stored, only when rows of open transactions were
/// met); CSV has its `trx` column.
pub fn tail(
    buf: &mut String,
    format: crate::args::Format,
    undo: &Undo,
    counts: &RecoveryCounts,
    view: View,
) {
    use crate::args::Format;
    use innodb_render::recovery_text;
    if view == View::Stored && counts.by_open_trx.is_empty() {
        return;
    }
    match format {
        Format::Text => buf.push_str(&recovery_text::trx_tail(counts, view)),
        Format::Json => buf.push_str(&recovery_text::trx_summary_json(&undo.open, counts, view)),
        Format::Csv | Format::Sql => {}
    }
}

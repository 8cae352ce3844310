//! `records`: the rows of an index in key order, typed with the table's
//! columns.

use crate::args::Format;
use crate::commands::columns::{schema_of, Which};
use crate::commands::records_trx::{self, StreamArgs, TrxArgs};
use crate::inputs::Inputs;
use crate::output::{Kind, Output};
use crate::CliError;
use innodb_analysis::rows::ddl::with_old_temporal;
use innodb_analysis::rows::records::{
    IndexField, LayoutFit, NoRecords, RecordsReport, Row, RowSink, Schema,
};
use innodb_render::{json, text};
use innodb_space::Tablespace;
use std::path::Path;

/// The options of `records`.
pub struct Args<'a> {
    /// `--table`: the table of a tablespace of several.
    pub table: Option<&'a str>,
    /// `--index`: by name or id (default: the clustered index).
    pub index: Option<&'a str>,
    /// `--deleted`: delete-marked and garbage records too.
    pub deleted: bool,
    /// `--limit`: at most this many rows.
    pub limit: Option<usize>,
    /// `--ddl`: a CREATE TABLE statement giving the columns.
    pub ddl: Option<&'a Path>,
    /// `--committed`, `--as-of-trx`, `--undo`.
    pub trx: TrxArgs<'a>,
}

/// Leaf pages read to see whether a schema fits before the rows are
/// streamed (the look-ahead; the whole index's fit is told at the end).
const SAMPLE_LEAF_PAGES: usize = 64;

/// `NoRecords` as the command's error.
pub(super) fn no_index(space: &Tablespace, e: NoRecords) -> CliError {
    match e {
        NoRecords::NoIndex(names) => CliError::file(
            space.path(),
            format!("no such index; the table has {}", names.join(", ")),
        ),
    }
}

/// Writes each row as it is decoded, in pieces of about 64 KiB.
pub(super) struct Streamed<'o, 'a> {
    out: &'o mut Output<'a>,
    format: Format,
    buf: String,
    fields: Vec<IndexField>,
    /// The JSON keys of the fields, quoted (`None`: two share a name).
    keys: Option<Vec<String>>,
    rows: usize,
    /// What is said of transactions before the rows (text), when the
    /// undo logs were read.
    trx_head: Option<String>,
    /// The rows carry what the undo logs tell (a clustered index read
    /// with them): CSV has a `trx` column.
    trx_rows: bool,
}

impl<'o, 'a> Streamed<'o, 'a> {
    /// A sink writing rows to `out` in `format` (no undo logs read).
    pub(super) fn new(out: &'o mut Output<'a>, format: Format) -> Self {
        Streamed {
            out,
            format,
            buf: String::with_capacity(1 << 17),
            fields: Vec::new(),
            keys: None,
            rows: 0,
            trx_head: None,
            trx_rows: false,
        }
    }

    /// The rows written so far.
    pub(super) fn rows(&self) -> usize {
        self.rows
    }

    /// Appends `s` to what is written next (JSON: in its final form, as
    /// the rows are written).
    pub(super) fn push(&mut self, s: &str) {
        match self.format {
            Format::Json => json::push_exact(&mut self.buf, s),
            _ => self.buf.push_str(s),
        }
    }

    fn kind(&self) -> Kind {
        match self.format {
            Format::Text => Kind::Text,
            Format::Json => Kind::JsonReady,
            Format::Csv | Format::Sql => Kind::Exact,
        }
    }

    /// Writes what is buffered.
    pub(super) fn flush(&mut self) {
        if !self.buf.is_empty() {
            self.out.emit_as(self.kind(), &self.buf);
            self.buf.clear();
        }
    }
}

impl RowSink for Streamed<'_, '_> {
    fn start(&mut self, head: &RecordsReport) {
        self.fields = head.fields.clone();
        self.keys = json::records_keys(&head.fields);
        self.trx_rows =
            self.trx_head.is_some() && head.fields.iter().any(|f| f.name == "DB_TRX_ID");
        match self.format {
            Format::Text => {
                self.buf.push_str(&text::records_head(head));
                if let (true, Some(h)) = (self.trx_rows, &self.trx_head) {
                    self.buf.push_str(h);
                }
            }
            Format::Json => {}
            Format::Csv if self.trx_rows => self.buf.push_str(&text::records_csv_head_trx(head)),
            Format::Csv | Format::Sql => self.buf.push_str(&text::records_csv_head(head)),
        }
    }

    fn section(&mut self, title: &str) {
        if self.format == Format::Text {
            self.buf.push_str(&format!("# {title}\n"));
        }
    }

    fn row(&mut self, row: &Row) -> bool {
        self.rows += 1;
        match self.format {
            Format::Text => text::records_row(&mut self.buf, row),
            Format::Json => match &self.keys {
                Some(keys) => json::records_line_keyed(&mut self.buf, keys, row),
                None => {
                    let mut line = String::new();
                    json::records_line(&mut line, &self.fields, row);
                    json::push_exact(&mut self.buf, &line);
                }
            },
            Format::Csv if self.trx_rows => text::records_csv_row_trx(&mut self.buf, row),
            Format::Csv | Format::Sql => text::records_csv_row(&mut self.buf, row),
        }
        if self.buf.len() >= 1 << 16 {
            self.flush();
        }
        !self.out.is_done()
    }
}

/// The schema the rows are read with: `schema`, or, when a CREATE TABLE
/// statement gave it and the records of the first leaf pages fit only
/// the older storage format of TIME/DATETIME/TIMESTAMP, that one.
fn fitting_schema(
    space: &Tablespace,
    schema: Schema,
    index: Option<&str>,
    args: &Args,
    out: &mut Output,
) -> Result<Schema, CliError> {
    let fit = |s: &Schema| {
        RecordsReport::sample_fit(space, s, index, SAMPLE_LEAF_PAGES)
            .map_err(|e| no_index(space, e))
    };
    if args.ddl.is_none() || fit(&schema)?.fits() {
        return Ok(schema);
    }
    match with_old_temporal(&schema) {
        Some(old) if fit(&old)?.fits() => {
            out.say(&format!("note: {}: TIME/DATETIME/TIMESTAMP read in the storage format of MySQL before 5.6.4: the records fit only that one", space.path().display()));
            Ok(old)
        }
        _ => Ok(schema),
    }
}

/// `records FILE [--index I] [--deleted] [--limit N] [--ddl F]`: the rows
/// are written as they are decoded, the count and findings after them.
/// Exit 1 when the schema does not fit the records (the rows are still
/// written, but their values are not to be trusted).
pub fn run(inputs: &Inputs, file: &Path, args: &Args, out: &mut Output) -> Result<u8, CliError> {
    let space = inputs.open(file)?;
    let which = Which {
        table: args.table,
        index: args.index,
    };
    let (schema, index) = schema_of(inputs, &space, args.ddl, &which, out)?;
    let index = index.as_deref();
    let schema = fitting_schema(&space, schema, index, args, out)?;
    let view = args.trx.view();
    records_trx::check_index(&schema, index, view)?;
    let undo = records_trx::read_undo(inputs, &args.trx, &schema.table)?;
    if let Some(u) = &undo {
        records_trx::check_view(u, view, out);
    }
    if inputs.format == Format::Sql {
        return super::records_sql::run(&space, &schema, index, args, undo.as_ref(), out);
    }
    let mut sink = Streamed {
        out,
        format: inputs.format,
        buf: String::with_capacity(1 << 17),
        fields: Vec::new(),
        keys: None,
        rows: 0,
        trx_head: undo
            .as_ref()
            .filter(|u| records_trx::says_anything(u, view))
            .map(|u| innodb_render::recovery_text::trx_head(&u.open, view)),
        trx_rows: false,
    };
    let stream_args = StreamArgs {
        index,
        deleted: args.deleted,
        limit: args.limit,
        view,
    };
    let streamed = records_trx::stream(&space, &schema, &stream_args, undo.as_ref(), &mut sink)
        .map_err(|e| no_index(&space, e))?;
    let mut r = streamed.report;
    r.findings.extend(streamed.findings);
    match inputs.format {
        Format::Text => sink.push(&text::records_tail(&r, sink.rows)),
        Format::Json => sink.push(&json::records_findings(&r)),
        Format::Csv | Format::Sql => {}
    }
    if let (Some(u), Some(c)) = (&undo, &streamed.counts) {
        let mut tail = String::new();
        records_trx::tail(&mut tail, inputs.format, u, c, view);
        sink.push(&tail);
    }
    sink.flush();
    Ok(misfit_exit(out, &space, &r.index, &r.layout))
}

/// The exit code of a dump of the records of index `index` read with a
/// schema that fits them as `layout` says: 1, with a warning, when it
/// does not fit them, else 0.
pub(super) fn misfit_exit(
    out: &mut Output,
    space: &Tablespace,
    index: &dyn std::fmt::Display,
    layout: &LayoutFit,
) -> u8 {
    if !layout.fits() {
        out.say(&format!(
            "warning: {}: the schema does not fit the records of index {index} ({} of {} neighbouring records meet, {} unreadable): the values shown are not to be trusted",
            space.path().display(),
            layout.fitting_pairs,
            layout.pairs,
            layout.unreadable
        ));
    }
    u8::from(!layout.fits())
}

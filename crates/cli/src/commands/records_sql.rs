//! `records --format sql`: a table's `CREATE TABLE` and its rows as
//! batched `INSERT`s a server loads back, streamed as they are decoded.
//! With `--deleted`, the delete-marked and garbage records go to a table
//! of their own (`<table>__deleted`: the same columns, all NULL-able, no
//! keys, and the record's state, page and place first), so that they
//! never mix with the live rows. With the undo logs (`--datadir`, or
//! `--system` and `--undo`) the rows are those of a view: as stored, as
//! crash recovery leaves them (`--committed`), or as a read view opened
//! before a transaction saw them (`--as-of-trx N`).

use super::records_trx::{self, StreamArgs, Undo};
use crate::output::{Kind, Output};
use crate::CliError;
use innodb_analysis::rows::index_scan;
use innodb_analysis::rows::records::{IndexField, RecordsReport, Row, RowSink, Schema};
use innodb_analysis::rows::row_recovery::View;
use innodb_analysis::rows::table_definition::{ColumnDefinition, TableDefinition};
use innodb_format::value::column_value::Value;
use innodb_render::sql::{create_table, dump, insert::InsertWriter};
use innodb_space::Tablespace;

/// What was written of one table.
#[derive(Debug, Clone, Copy, Default)]
pub struct Written {
    /// Live rows.
    pub rows: usize,
    /// Delete-marked and garbage rows (with `--deleted`).
    pub deleted: usize,
    /// Values that could not be read (written as NULL).
    pub undecoded: usize,
    /// Findings on the index's pages.
    pub findings: usize,
    /// The schema fits the records (see `LayoutFit`).
    pub fits: bool,
    /// Live rows written as stored by a transaction still in flight
    /// (as stored only: a view rolls them back).
    pub uncommitted: u64,
    /// Rows a view could not rebuild (named in the findings).
    pub unrecoverable: u64,
}

/// How the table is written.
#[derive(Debug, Clone, Copy)]
pub struct SqlOptions {
    /// Delete-marked and garbage records too, into `<table>__deleted`.
    pub deleted: bool,
    /// At most this many rows.
    pub limit: Option<usize>,
    /// `CREATE TABLE IF NOT EXISTS` (each partition of a table, exported
    /// one by one, into one table).
    pub if_not_exists: bool,
    /// The view of the rows (as stored without the undo logs).
    pub view: View,
}

/// The columns the deleted rows' table has first.
const MARKS: [&str; 3] = ["_innodb_state", "_innodb_page", "_innodb_origin"];

/// The table the delete-marked and garbage rows of `def` go to: its
/// columns, all NULL-able, without defaults or keys, after the marks.
fn deleted_definition(def: &TableDefinition, name: &str) -> TableDefinition {
    let mut d = def.clone();
    d.name = name.to_string();
    d.keys.clear();
    d.columns.retain(|c| c.generated.is_none());
    for c in &mut d.columns {
        c.nullable = true;
        c.default = None;
        c.auto_increment = false;
    }
    let marks = vec![
        mark_column(MARKS[0], "varchar(16)"),
        mark_column(MARKS[1], "int unsigned"),
        mark_column(MARKS[2], "int unsigned"),
    ];
    d.columns.splice(0..0, marks);
    d
}

/// A mark column of the deleted rows' table: NOT NULL, of `sql_type`.
fn mark_column(name: &str, sql_type: &str) -> ColumnDefinition {
    ColumnDefinition {
        name: name.into(),
        sql_type: sql_type.into(),
        nullable: false,
        default: None,
        charset: None,
        collation: None,
        generated: None,
        auto_increment: false,
        comment: None,
    }
}

/// The name a table is written under: the definition's, else the schema's
/// without its database.
fn table_name(schema: &Schema) -> String {
    match &schema.definition {
        Some(d) => d.name.clone(),
        None => schema
            .table
            .rsplit('/')
            .next()
            .unwrap_or(&schema.table)
            .to_string(),
    }
}

/// Writes the rows as they come, in pieces of about 64 KiB.
struct SqlSink<'o, 'a> {
    out: &'o mut Output<'a>,
    buf: String,
    name: String,
    definition: Option<TableDefinition>,
    options: SqlOptions,
    live: Option<InsertWriter>,
    deleted: Option<InsertWriter>,
}

impl SqlSink<'_, '_> {
    fn flush(&mut self) {
        if !self.buf.is_empty() {
            self.out.emit_as(Kind::Exact, &self.buf);
            self.buf.clear();
        }
    }

    /// The `CREATE TABLE` statements and the writers, once the fields are
    /// known.
    fn begin(&mut self, fields: &[IndexField]) {
        let def = self.definition.as_ref();
        match def {
            Some(d) => {
                let sql = create_table::create_table(d, Some(&self.name));
                if self.options.if_not_exists {
                    self.buf.push_str(&sql.replacen(
                        "CREATE TABLE ",
                        "CREATE TABLE IF NOT EXISTS ",
                        1,
                    ));
                } else {
                    self.buf.push_str(&sql);
                }
            }
            None => self
                .buf
                .push_str("-- no table definition is known: no CREATE TABLE\n"),
        }
        self.live = Some(InsertWriter::new(&self.name, fields, def));
        if self.options.deleted {
            let name = format!("{}__deleted", self.name);
            if let Some(d) = def {
                let dd = deleted_definition(d, &name);
                self.buf.push_str(&create_table::create_table(&dd, None));
            }
            self.deleted = Some(InsertWriter::new(&name, fields, def).with_marks(&MARKS));
        }
    }
}

impl RowSink for SqlSink<'_, '_> {
    fn start(&mut self, head: &RecordsReport) {
        self.begin(&head.fields);
    }

    fn row(&mut self, row: &Row) -> bool {
        // A statement of one table ends before one of the other begins.
        let other = if row.deleted {
            self.live.as_mut()
        } else {
            self.deleted.as_mut()
        };
        if let Some(w) = other {
            w.finish(&mut self.buf);
        }
        let writer = if row.deleted {
            self.deleted.as_mut()
        } else {
            self.live.as_mut()
        };
        if let Some(w) = writer {
            if row.deleted {
                let state = match row.state {
                    innodb_analysis::rows::records::RowState::Garbage => "garbage",
                    _ => "delete-marked",
                };
                let marks = [
                    Value::Text(state.into()),
                    Value::UInt(u64::from(row.page)),
                    Value::UInt(row.origin as u64),
                ];
                w.row_marked(&mut self.buf, &marks, &row.values);
            } else {
                w.row(&mut self.buf, &row.values);
            }
        }
        if self.buf.len() >= 1 << 16 {
            self.flush();
        }
        !self.out.is_done()
    }
}

/// Writes the table `schema` describes, read from `space`'s clustered
/// index, as SQL to `out`: the session settings, `CREATE TABLE`, the
/// `INSERT`s, the settings put back and a count.
pub fn write(
    space: &Tablespace,
    schema: &Schema,
    options: SqlOptions,
    undo: Option<&Undo>,
    out: &mut Output,
) -> Result<Written, CliError> {
    let name = table_name(schema);
    let source = schema
        .definition
        .as_ref()
        .map_or("none", |d| create_table::source_words(d.source));
    let mut comments = vec![
        format!(
            "innodb-inspect: rows of {} read from {}",
            schema.table,
            space.path().display()
        ),
        format!("table definition from {source}"),
    ];
    if let Some(u) = undo {
        let head = innodb_render::recovery_text::trx_head(&u.open, options.view);
        comments.extend(head.lines().map(|l| l.trim_start_matches("# ").to_string()));
    }
    out.emit_as(Kind::Exact, &dump::head(&comments));
    let mut sink = SqlSink {
        out,
        buf: String::with_capacity(1 << 17),
        name,
        definition: schema.definition.clone(),
        options,
        live: None,
        deleted: None,
    };
    let args = StreamArgs {
        index: None,
        deleted: options.deleted,
        limit: options.limit,
        view: options.view,
    };
    let streamed =
        records_trx::stream(space, schema, &args, undo, &mut sink).map_err(|e| match e {
            innodb_analysis::rows::records::NoRecords::NoIndex(names) => CliError::file(
                space.path(),
                format!("no clustered index; the table has {}", names.join(", ")),
            ),
        })?;
    let r = streamed.report;
    let mut written = Written {
        findings: r.findings.len() + streamed.findings.len(),
        fits: r.layout.fits(),
        ..Written::default()
    };
    if let Some(c) = &streamed.counts {
        if options.view == View::Stored {
            written.uncommitted = c.by_open_trx.values().map(|(_, n)| n).sum();
        }
        written.unrecoverable = c.unrecoverable;
    }
    for (w, count) in [
        (sink.live.as_mut(), &mut written.rows),
        (sink.deleted.as_mut(), &mut written.deleted),
    ] {
        if let Some(w) = w {
            w.finish(&mut sink.buf);
            *count = w.rows;
            written.undecoded += w.undecoded;
        }
    }
    let mut notes = vec![format!(
        "{} rows written{}",
        written.rows,
        if options.deleted {
            format!(", {} delete-marked or garbage rows", written.deleted)
        } else {
            String::new()
        }
    )];
    if written.undecoded > 0 {
        notes.push(format!(
            "{} values could not be read and are written as NULL",
            written.undecoded
        ));
    }
    if let Some(c) = &streamed.counts {
        let tail = innodb_render::recovery_text::trx_tail(c, options.view);
        notes.extend(tail.lines().map(|l| l.trim_start_matches("# ").to_string()));
    }
    if written.findings > 0 {
        notes.push(format!(
            "{} problems found on the index's pages or in the undo logs (see `records` for them)",
            written.findings
        ));
    }
    sink.buf.push_str(&dump::tail(&notes));
    sink.flush();
    Ok(written)
}

/// `records FILE --format sql`: the table of `space` as SQL, its clustered
/// index read (a secondary index holds only some columns: `--index` is
/// refused); a note on stderr when the schema does not fit the records or
/// values could not be read. Exit 1 when the schema does not fit.
pub fn run(
    space: &Tablespace,
    schema: &Schema,
    index: Option<&str>,
    args: &super::records::Args,
    undo: Option<&Undo>,
    out: &mut Output,
) -> Result<u8, CliError> {
    if let Some(i) = index {
        let clustered = schema
            .indexes
            .iter()
            .any(|x| x.clustered && (x.name == i || x.id.to_string() == i));
        if !clustered {
            return Err(CliError::Usage(format!(
                "--format sql writes the table's rows from its clustered index; --index {i} is another index"
            )));
        }
    }
    let options = SqlOptions {
        deleted: args.deleted,
        limit: args.limit,
        if_not_exists: false,
        view: args.trx.view(),
    };
    let w = write(space, schema, options, undo, out)?;
    say_problems(space, &w, out);
    Ok(u8::from(!w.fits))
}

/// Warnings on stderr about what was written of `space`'s table.
pub fn say_problems(space: &Tablespace, w: &Written, out: &mut Output) {
    let path = space.path().display();
    if !w.fits {
        out.say(&format!("warning: {path}: the schema does not fit the records of the clustered index: the values written are not to be trusted"));
    }
    if w.undecoded > 0 {
        out.say(&format!(
            "warning: {path}: {} values could not be read and are written as NULL (each with a comment saying why)",
            w.undecoded
        ));
    }
    if w.uncommitted > 0 {
        out.say(&format!(
            "warning: {path}: {} rows written are as a transaction still in flight left them, uncommitted (the dump's last comments name it); --committed writes them as crash recovery leaves them",
            w.uncommitted
        ));
    }
    if w.unrecoverable > 0 {
        out.say(&format!(
            "warning: {path}: {} rows could not be rebuilt from the undo logs and are left out (`records --format json` with the same view names each)",
            w.unrecoverable
        ));
    }
}

/// `records FILE --scan --index-id N --format sql`: the rows a scan finds
/// (see [`innodb_analysis::rows::index_scan`]) as the same dump `records
/// --format sql` writes of a table, streamed in key order. Only a clustered
/// index; exit 1 when the schema does not fit the records.
pub fn run_scanned(
    space: &Tablespace,
    schema: &Schema,
    a: &super::records_scan::ScanArgs,
    out: &mut Output,
) -> Result<u8, CliError> {
    if !index_scan::scanned_index(schema, a.which, a.index_id).is_some_and(|i| i.clustered) {
        return Err(CliError::Usage(format!(
            "--format sql writes a table's rows from its clustered index; index {} is read as another index (give --index with the clustered index's name)",
            a.index_id
        )));
    }
    let comments = vec![
        format!(
            "innodb-inspect: rows of {} read from {} by --scan of index {}",
            schema.table,
            space.path().display(),
            a.index_id
        ),
        format!(
            "table definition from {}",
            schema
                .definition
                .as_ref()
                .map_or("none", |d| create_table::source_words(d.source))
        ),
    ];
    out.emit_as(Kind::Exact, &dump::head(&comments));
    let options = SqlOptions {
        deleted: false,
        limit: a.limit,
        if_not_exists: false,
        view: View::Stored,
    };
    let mut sink = SqlSink {
        out,
        buf: String::with_capacity(1 << 17),
        name: table_name(schema),
        definition: schema.definition.clone(),
        options,
        live: None,
        deleted: None,
    };
    let found = index_scan::scan(space, schema, a.which, a.index_id, a.limit, &mut sink).map_err(
        |innodb_analysis::rows::records::NoRecords::NoIndex(names)| {
            CliError::file(
                space.path(),
                format!("no such index; the table has {}", names.join(", ")),
            )
        },
    )?;
    let r = &found.report;
    let mut written = Written {
        findings: r.findings.len(),
        fits: r.layout.fits(),
        ..Written::default()
    };
    if let Some(w) = sink.live.as_mut() {
        w.finish(&mut sink.buf);
        written.rows = w.rows;
        written.undecoded = w.undecoded;
    }
    let mut notes = vec![
        format!("{} rows written", written.rows),
        super::records_scan::scan_note(&found),
    ];
    if written.undecoded > 0 {
        notes.push(format!(
            "{} values could not be read and are written as NULL",
            written.undecoded
        ));
    }
    sink.buf.push_str(&dump::tail(&notes));
    sink.flush();
    say_problems(space, &written, out);
    Ok(u8::from(!written.fits))
}

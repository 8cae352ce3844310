//! `records FILE --scan --index-id N`: the rows of every leaf page of index
//! N found in the file, reachable or not (see
//! [`innodb_analysis::rows::index_scan`]), typed by `--ddl`, the
//! dictionary, or the dropped table the `SYS_*` records still describe.

use super::records::{misfit_exit, no_index, Args, Streamed};
use crate::args::Format;
use crate::commands::columns::{schema_of, Which};
use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::dictionary::{sdi_remnants, MYSQL_DICTIONARY_SPACE_ID};
use innodb_analysis::reports::dropped_tables::{
    dropped_mysql_table_of_index, dropped_table_of_index,
};
use innodb_analysis::rows::ddl::schema_from_ddl;
use innodb_analysis::rows::index_scan::{scan, IndexScan};
use innodb_analysis::rows::records::Schema;
use innodb_render::{json, text};
use innodb_space::datadir::FileKind;
use innodb_space::dictionary::Dictionary;
use innodb_space::Tablespace;
use std::path::Path;

/// Index ids handed to a `--ddl` schema's indexes: N for the first, N + 1…
/// for the others, as a server numbers a new table's indexes.
const DDL_INDEXES: u64 = 64;

/// Exit 0, or 1 when the schema does not fit the records.
pub fn run(
    inputs: &Inputs,
    file: &Path,
    args: &Args,
    index_id: u64,
    out: &mut Output,
) -> Result<u8, CliError> {
    let space = inputs.open(file)?;
    let schema = scan_schema(inputs, &space, args, index_id, out)?;
    let which = args.ddl.and(args.index);
    let scan_args = ScanArgs {
        which,
        index_id,
        limit: args.limit,
    };
    if inputs.format == Format::Sql {
        return super::records_sql::run_scanned(&space, &schema, &scan_args, out);
    }
    write(&space, &schema, &scan_args, inputs.format, out)
}

/// What `records --scan` reads.
pub struct ScanArgs<'a> {
    /// The index of the schema read (`--index` with `--ddl`).
    pub which: Option<&'a str>,
    /// `--index-id`.
    pub index_id: u64,
    /// `--limit`.
    pub limit: Option<usize>,
}

/// The line that says what the scan read.
pub fn scan_note(found: &IndexScan) -> String {
    format!(
        "--scan: index {} has {} pages in the file ({} older copies not read), {} leaf pages read; {} keys, {} rows whose key a newer page holds left out",
        found.report.index_id,
        found.pages,
        found.older_copies,
        found.leaf_pages,
        found.keys,
        found.duplicates
    )
}

/// The schema the index is read with: `--ddl`, the dictionary (of
/// `--system` or `--datadir`, the SDI, or the file's own `SYS_*` tables),
/// or the `SYS_*` records of the dropped table the index was part of.
fn scan_schema(
    inputs: &Inputs,
    space: &Tablespace,
    args: &Args,
    index_id: u64,
    out: &mut Output,
) -> Result<Schema, CliError> {
    if let Some(path) = args.ddl {
        let sql = crate::inputs::read_argument_file(path, "--ddl")?;
        let roots: Vec<(u64, u32)> = (0..DDL_INDEXES).map(|i| (index_id + i, 0)).collect();
        return schema_from_ddl(&sql, &roots).map_err(|e| CliError::file(path, e));
    }
    let id = index_id.to_string();
    let which = Which {
        table: args.table,
        index: Some(&id),
    };
    if let Ok((schema, _)) = schema_of(inputs, space, None, &which, out) {
        return Ok(schema);
    }
    // A system tablespace read on its own: its own SYS_* dictionary.
    let own = Dictionary::read(space).ok();
    if let Some(schema) = own
        .as_ref()
        .and_then(|d| d.index(index_id))
        .and_then(|(t, _)| Schema::from_dict_table(t))
    {
        return Ok(schema);
    }
    if let Some(schema) = mysql_dropped(inputs, space, index_id, out)? {
        return Ok(schema);
    }
    if space.format().flags.sdi {
        if let Some(schema) = own_sdi_dropped(space, index_id, out) {
            return Ok(schema);
        }
        return Err(CliError::file(
            space.path(),
            format!("index {index_id} is in no dictionary given, live or dropped (nor in this file's deleted SDI records): a MySQL 8.0+ file, whose dropped tables mysql.ibd remembers: give it with --system mysql.ibd (or --datadir), or the table's CREATE TABLE with --ddl"),
        ));
    }
    let dropped = dropped_table_of_index(space, index_id).ok_or_else(|| {
        CliError::file(
            space.path(),
            format!("index {index_id} is in no dictionary, and no deleted SYS_* record names it (MariaDB erases the records purge frees): give the table's CREATE TABLE with --ddl"),
        )
    })?;
    if dropped.columns.is_empty() {
        return Err(CliError::file(
            space.path(),
            format!(
                "index {index_id} is of the dropped table {} (table id {}, {} columns), whose column names and types are not left in the file (its SYS_* records are erased; the undo log of its DROP TABLE names it): give its CREATE TABLE with --ddl",
                if dropped.name.is_empty() { "(name not found)" } else { &dropped.name },
                dropped.id,
                dropped.n_cols
            ),
        ));
    }
    out.say(&format!(
        "note: {}: index {index_id} is of the dropped table {} (id {}), typed by its deleted SYS_* records",
        space.path().display(),
        dropped.name,
        dropped.id
    ));
    Schema::from_dict_table(&dropped).ok_or_else(|| {
        CliError::file(
            space.path(),
            format!(
                "the SYS_* records of dropped table {} give a column of no known type",
                dropped.name
            ),
        )
    })
}

/// MySQL 8.0+: the schema of the dropped table index `index_id` was of,
/// from the deleted records of `mysql.ibd` (`--system mysql.ibd`, or the
/// `--datadir`'s); `None` when there is no `mysql.ibd` or none of its
/// dropped tables had that index.
fn mysql_dropped(
    inputs: &Inputs,
    space: &Tablespace,
    index_id: u64,
    out: &mut Output,
) -> Result<Option<Schema>, CliError> {
    let Some(path) = mysql_ibd_path(inputs) else {
        return Ok(None);
    };
    let dd = inputs.open(&path)?;
    if dd.space_id() != MYSQL_DICTIONARY_SPACE_ID {
        return Ok(None);
    }
    let Some(table) =
        dropped_mysql_table_of_index(&dd, index_id).map_err(|e| CliError::file(&path, e))?
    else {
        return Ok(None);
    };
    out.say(&format!(
        "note: {}: index {index_id} is of the dropped table {} (table id {}), typed by its deleted records in {}",
        space.path().display(),
        table.name,
        table.id,
        path.display()
    ));
    Schema::from_dict_table(&table).map(Some).ok_or_else(|| {
        CliError::file(
            &path,
            format!(
                "the deleted records of dropped table {} give no columns, or a column of no known type: give its CREATE TABLE with --ddl",
                table.name
            ),
        )
    })
}

/// MySQL 8.0+: the schema of the dropped table index `index_id` was of,
/// from the deleted SDI records of `space` itself (a table dropped from
/// the system or a general tablespace).
fn own_sdi_dropped(space: &Tablespace, index_id: u64, out: &mut Output) -> Option<Schema> {
    let m = sdi_remnants::read(space).ok()?;
    let table = Dictionary::from_mysql(m.tables, Vec::new())
        .tables
        .into_iter()
        .find(|t| t.indexes.iter().any(|i| i.id == index_id))?;
    let schema = Schema::from_dict_table(&table)?;
    out.say(&format!(
        "note: {}: index {index_id} is of the dropped table {} (table id {}), typed by its deleted SDI record in this file",
        space.path().display(),
        table.name,
        table.id
    ));
    Some(schema)
}

/// `mysql.ibd`: `--system` when that is what it names, else the
/// `--datadir`'s.
fn mysql_ibd_path(inputs: &Inputs) -> Option<std::path::PathBuf> {
    if let Some(s) = &inputs.system {
        return Some(s.clone());
    }
    inputs
        .datadir
        .as_ref()?
        .files
        .iter()
        .find(|f| f.kind == FileKind::MysqlDictionary)
        .map(|f| f.path.clone())
}

/// The rows as text, JSON or CSV, at most `limit`, with the scan's counts.
fn write(
    space: &Tablespace,
    schema: &Schema,
    a: &ScanArgs,
    format: Format,
    out: &mut Output,
) -> Result<u8, CliError> {
    let mut sink = Streamed::new(out, format);
    let found = scan(space, schema, a.which, a.index_id, a.limit, &mut sink)
        .map_err(|e| no_index(space, e))?;
    let r = &found.report;
    let note = scan_note(&found);
    let n = sink.rows();
    match format {
        Format::Text => {
            sink.push(&format!("# {note}\n"));
            sink.push(&text::records_tail(r, n));
        }
        Format::Json => sink.push(&json::records_findings(r)),
        Format::Csv | Format::Sql => {}
    }
    sink.flush();
    if format != Format::Text {
        out.say(&format!("note: {}: {note}", space.path().display()));
    }
    Ok(misfit_exit(out, space, &r.index_id, &r.layout))
}

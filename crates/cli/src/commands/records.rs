//! `records`: the rows of an index in key order, typed with the table's
//! columns.

use crate::args::Format;
use crate::commands::columns::schema_for;
use crate::inputs::Inputs;
use crate::output::{Kind, Output};
use crate::CliError;
use innodb_analysis::rows::ddl::with_old_temporal;
use innodb_analysis::rows::records::{NoRecords, RecordsReport, Schema};
use innodb_render::{json, text};
use innodb_space::Tablespace;
use std::path::Path;

/// The options of `records`.
pub struct Args<'a> {
    /// `--index`: by name or id (default: the clustered index).
    pub index: Option<&'a str>,
    /// `--deleted`: delete-marked and garbage records too.
    pub deleted: bool,
    /// `--limit`: at most this many rows.
    pub limit: Option<usize>,
    /// `--ddl`: a CREATE TABLE statement giving the columns.
    pub ddl: Option<&'a Path>,
}

/// The rows of `space` under `schema`.
fn build(space: &Tablespace, schema: &Schema, args: &Args) -> Result<RecordsReport, CliError> {
    RecordsReport::build(space, schema, args.index, args.deleted, args.limit).map_err(|e| match e {
        NoRecords::NoIndex(names) => CliError::file(
            space.path(),
            format!("no such index; the table has {}", names.join(", ")),
        ),
    })
}

/// `records FILE [--index I] [--deleted] [--limit N] [--ddl F]`.
pub fn run(inputs: &Inputs, file: &Path, args: &Args, out: &mut Output) -> Result<u8, CliError> {
    let space = inputs.open(file)?;
    let schema = schema_for(inputs, &space, args.ddl, out)?;
    let mut r = build(&space, &schema, args)?;
    // A CREATE TABLE statement does not say which storage format its
    // temporal columns have: when the newer one does not fit, try the older.
    if let (false, Some(_), Some(old)) = (r.layout.fits(), args.ddl, with_old_temporal(&schema)) {
        let r_old = build(&space, &old, args)?;
        if r_old.layout.fits() {
            out.say(&format!("note: {}: TIME/DATETIME/TIMESTAMP read in the storage format of MySQL before 5.6.4: the records fit only that one", space.path().display()));
            r = r_old;
        }
    }
    if !r.layout.fits() {
        out.say(&format!(
            "warning: {}: the schema does not fit the records of index {} ({} of {} neighbouring records meet, {} unreadable): the values shown are not to be trusted",
            space.path().display(),
            r.index,
            r.layout.fitting_pairs,
            r.layout.pairs,
            r.layout.unreadable
        ));
    }
    match inputs.format {
        Format::Text => out.emit(&text::records(&r)),
        Format::Json => out.emit_as(Kind::Json, &json::records_lines(&r)),
        Format::Csv => out.emit_as(Kind::Exact, &text::records_csv(&r)),
    }
    Ok(0)
}

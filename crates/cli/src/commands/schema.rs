//! `schema`: a table's `CREATE TABLE`, from whichever source the table has,
//! found as `records` finds it (`--ddl`, the dictionary of `--system` or
//! `--datadir`, the file's SDI).

use crate::args::Format;
use crate::commands::columns::{schema_of, Which};
use crate::inputs::Inputs;
use crate::output::{Kind, Output};
use crate::CliError;
use innodb_render::sql::create_table::{create_table, source_words};
use std::path::Path;

/// `schema FILE [--table T] [--ddl F]`: the CREATE TABLE (JSON: the
/// definition's fields).
pub fn run(
    inputs: &Inputs,
    file: &Path,
    table: Option<&str>,
    ddl: Option<&Path>,
    out: &mut Output,
) -> Result<u8, CliError> {
    let space = inputs.open(file)?;
    let which = Which { table, index: None };
    let (schema, _) = schema_of(inputs, &space, ddl, &which, out)?;
    let Some(def) = &schema.definition else {
        return Err(CliError::file(
            space.path(),
            format!(
                "the source of {}'s columns does not give its definition",
                schema.table
            ),
        ));
    };
    if inputs.format == Format::Json {
        out.report(inputs.format, def, |_| String::new());
        return Ok(0);
    }
    let text = format!(
        "-- {}: definition from {}\n{}",
        schema.table,
        source_words(def.source),
        create_table(def, None)
    );
    out.emit_as(Kind::Exact, &text);
    Ok(0)
}

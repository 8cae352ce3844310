//! A table's columns for `records` and `history`: from a `CREATE TABLE`
//! statement (`--ddl`), else the dictionary (`--system`, `--datadir`),
//! else the file's own SDI (MySQL 8.0+); a table's `.frm` beside the file
//! or in `--datadir` adds what the SYS_* dictionary lacks (DECIMAL scale,
//! ENUM/SET labels, fractional seconds digits), or stands in for a
//! dictionary that is missing.

use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::dictionary::{pick_table, NoTable};
use innodb_analysis::rows::ddl::schema_from_ddl;
use innodb_analysis::rows::frm_definition::definition;
use innodb_analysis::rows::frm_schema::{lay_over, schema_from_frm};
use innodb_analysis::rows::records::Schema;
use innodb_format::frm::Frm;
use innodb_space::Tablespace;
use std::path::{Path, PathBuf};

/// The table's columns of `space` (its first table, in a tablespace of
/// several).
pub fn schema_for(
    inputs: &Inputs,
    space: &Tablespace,
    ddl: Option<&Path>,
    out: &mut Output,
) -> Result<Schema, CliError> {
    schema_of(inputs, space, ddl, &Which::default(), out).map(|(s, _)| s)
}

/// The table and index `records` reads (`--table`, `--index`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Which<'a> {
    /// `--table`: `db/table`, `db.table` or `table`.
    pub table: Option<&'a str>,
    /// `--index`: a name (`PRIMARY`, `t.PRIMARY`, `db/t.PRIMARY`) or an id.
    pub index: Option<&'a str>,
}

/// The columns of the table of `space` that `which` chooses, and the index
/// to read as the schema names it: from `--ddl`, else the dictionary that
/// describes the file (`--system`, `--datadir`: `mysql.ibd`, `SYS_*`),
/// else the file's own SDI (a partition file's table from the files
/// beside it).
pub fn schema_of(
    inputs: &Inputs,
    space: &Tablespace,
    ddl: Option<&Path>,
    which: &Which,
    out: &mut Output,
) -> Result<(Schema, Option<String>), CliError> {
    if let Some(path) = ddl {
        let sql = crate::inputs::read_argument_file(path, "--ddl")?;
        let roots = ddl_roots(space, out)?;
        let schema = schema_from_ddl(&sql, &roots).map_err(|e| CliError::file(path, e))?;
        return Ok((schema, which.index.map(str::to_string)));
    }
    let dict = inputs.dictionary_for(space)?;
    let list = |names: Vec<String>| names.join(", ");
    let picked = pick_table(&dict, space.space_id(), which.table, which.index);
    if let (Err(NoTable::NoneInSpace), Some(frm)) = (&picked, frm_of(inputs, space, None, out)) {
        return frm_alone(space, frm, which, out);
    }
    let choice = picked.map_err(|e| {
        let message = match e {
            NoTable::NoneInSpace => return no_columns(inputs, space),
            NoTable::NoSuchTable(t) => {
                format!("--table: no such table; the tablespace holds {}", list(t))
            }
            NoTable::NoSuchIndex(i) => {
                format!("--index: no such index; the tablespace has {}", list(i))
            }
            NoTable::Ambiguous(n) => format!(
                "{} names several: {}; give the full name",
                if which.table.is_some() {
                    "--table"
                } else {
                    "--index"
                },
                list(n)
            ),
        };
        CliError::file(space.path(), message)
    })?;
    if !choice.others.is_empty() {
        const SHOWN: usize = 8;
        let more = choice.others.len().saturating_sub(SHOWN);
        let mut names: Vec<String> = choice.others.iter().take(SHOWN).cloned().collect();
        if more > 0 {
            names.push(format!("{more} more"));
        }
        out.say(&format!(
            "note: {}: the tablespace holds {} tables; the rows of {} (others: {}; give --table)",
            space.path().display(),
            choice.others.len() + 1,
            choice.table.name,
            names.join(", ")
        ));
    }
    let mut schema = Schema::from_dict_table(choice.table).ok_or_else(|| {
        CliError::file(
            space.path(),
            format!(
                "the dictionary's definition of {} has a column of no known type",
                choice.table.name
            ),
        )
    })?;
    if choice.table.mysql.is_none() {
        if let Some(frm) = frm_of(inputs, space, Some(&choice.table.name), out) {
            with_frm(&mut schema, frm, out);
        }
    }
    Ok((schema, choice.index))
}

/// The table's `.frm` (beside `space`'s file, else in `--datadir` under
/// the dictionary's name `table`), read; a damaged one is a warning and
/// left out.
fn frm_of(
    inputs: &Inputs,
    space: &Tablespace,
    table: Option<&str>,
    out: &mut Output,
) -> Option<(PathBuf, Frm)> {
    let in_datadir = || {
        let (db, name) = table?.split_once('/')?;
        innodb_space::frm_file::in_folder(&inputs.datadir.as_ref()?.root.join(db), name)
    };
    let path = innodb_space::frm_file::beside(space.path()).or_else(in_datadir)?;
    match innodb_space::frm_file::read(&path) {
        Ok(frm) => Some((path, frm)),
        Err(e) => {
            out.say(&format!("warning: {e}; its columns are not used"));
            None
        }
    }
}

/// The dictionary's `schema` with what the `.frm` adds; where the two
/// differ, a warning naming both (the dictionary's columns and order are
/// kept).
fn with_frm(schema: &mut Schema, (path, frm): (PathBuf, Frm), out: &mut Output) {
    let differences = lay_over(schema, &frm);
    if !differences.is_empty() {
        out.say(&format!(
            "warning: {} does not match the dictionary's {}: {}; the dictionary's columns and their order are used",
            path.display(),
            schema.table,
            differences.join("; ")
        ));
    }
    let (db, name) = split_name(&schema.table);
    schema.definition = Some(definition(&frm, db, name));
}

/// The columns of `space` from its `.frm` alone (no dictionary has the
/// table), over the index roots of the file.
fn frm_alone(
    space: &Tablespace,
    (path, frm): (PathBuf, Frm),
    which: &Which,
    out: &mut Output,
) -> Result<(Schema, Option<String>), CliError> {
    let stem = path
        .file_name()
        .and_then(|n| n.to_str())
        .map(|n| n.trim_end_matches(".gz").trim_end_matches(".frm"))
        .unwrap_or("?");
    let db = path
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str());
    let table = db.map_or_else(|| stem.to_string(), |d| format!("{d}/{stem}"));
    let roots = ddl_roots(space, out)?;
    let mut schema = schema_from_frm(&frm, &table, &roots).map_err(|e| CliError::file(&path, e))?;
    schema.definition = Some(definition(&frm, db, stem));
    out.say(&format!(
        "note: {}: no dictionary names this tablespace; the columns come from {}",
        space.path().display(),
        path.display()
    ));
    Ok((schema, which.index.map(str::to_string)))
}

/// `db/table` as (database, table).
fn split_name(name: &str) -> (Option<&str>, &str) {
    match name.split_once('/') {
        Some((db, t)) => (Some(db), t),
        None => (None, name),
    }
}

/// Why `space`'s columns cannot be known: no SDI, and no dictionary given
/// (or none in the data directory, which has no `ibdata1`).
fn no_columns(inputs: &Inputs, space: &Tablespace) -> CliError {
    let message = match (&inputs.datadir, inputs.dictionary()) {
        (_, Ok(Some(_))) => format!(
            "the dictionary (of {}) has no table in tablespace {}, and the file has no SDI of its own; give --ddl",
            if inputs.system.is_some() { "--system" } else { "the data directory" },
            space.space_id()
        ),
        (Some(d), _) if d.system().is_none() => format!(
            "the table's columns are needed: this file has no SDI (MySQL 8.0+), and there is no ibdata1 in the data directory {} (MariaDB and MySQL 5.x keep their dictionary there); give --system ibdata1 of the same server, or --ddl",
            d.root.display()
        ),
        _ => "the table's columns are needed: this file has no SDI (MySQL 8.0+); give --system ibdata1 or --datadir of the same server (MariaDB, MySQL 5.x), or --ddl".to_string(),
    };
    CliError::file(space.path(), message)
}

/// The index roots a `CREATE TABLE` statement is laid over: those the FSP
/// header and INODE pages name, else (page 0 lost, say) those the index
/// pages tell when read one by one, with a note saying so.
fn ddl_roots(space: &Tablespace, out: &mut Output) -> Result<Vec<(u64, u32)>, CliError> {
    let from_map = innodb_space::space_map::SpaceMap::read(space).map(|m| m.index_roots());
    if let Ok(roots) = &from_map {
        if !roots.is_empty() {
            return Ok(roots.clone());
        }
    }
    let scanned = innodb_space::index_roots::index_roots_by_scan(space);
    if scanned.is_empty() {
        return Err(match from_map {
            Err(_) => CliError::NoSpaceMap(space.path().into()),
            Ok(_) => CliError::file(
                space.path(),
                "no index page in the file: there is no index to read",
            ),
        });
    }
    let why = match from_map {
        Err(_) => "page 0 is unusable",
        Ok(_) => "the FSP header and INODE pages name no index root",
    };
    let list: Vec<String> = scanned
        .iter()
        .map(|(id, root)| format!("index {id} at page {root}"))
        .collect();
    out.say(&format!(
        "note: {}: {why}; roots found by reading the index pages: {}",
        space.path().display(),
        list.join(", ")
    ));
    Ok(scanned)
}

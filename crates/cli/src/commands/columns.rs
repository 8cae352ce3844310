//! A table's columns for `records` and `history`: from a `CREATE TABLE`
//! statement (`--ddl`), else the dictionary (`--system`, `--datadir`),
//! else the file's own SDI (MySQL 8.0+).

use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::rows::ddl::schema_from_ddl;
use innodb_analysis::rows::records::Schema;
use innodb_space::Tablespace;
use std::path::Path;

/// The table's columns of `space`.
pub fn schema_for(
    inputs: &Inputs,
    space: &Tablespace,
    ddl: Option<&Path>,
    out: &mut Output,
) -> Result<Schema, CliError> {
    if let Some(path) = ddl {
        let sql = crate::inputs::read_argument_file(path, "--ddl")?;
        let roots = ddl_roots(space, out)?;
        return schema_from_ddl(&sql, &roots).map_err(|e| CliError::file(path, e));
    }
    match inputs.dictionary()? {
        Some(d) => Schema::from_dictionary(d, space.space_id()).ok_or_else(|| {
            CliError::file(
                space.path(),
                format!(
                    "the dictionary of --system has no table in tablespace {}",
                    space.space_id()
                ),
            )
        }),
        None => SdiReport::build(space)
            .ok()
            .and_then(|s| Schema::from_sdi(&s))
            .ok_or_else(|| no_columns(inputs, space)),
    }
}

/// Why `space`'s columns cannot be known: no SDI, and no dictionary given
/// (or none in the data directory, which has no `ibdata1`).
fn no_columns(inputs: &Inputs, space: &Tablespace) -> CliError {
    let message = match &inputs.datadir {
        Some(d) if d.system().is_none() => format!(
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

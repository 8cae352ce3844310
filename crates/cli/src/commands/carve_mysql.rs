//! `carve`'s MySQL 8.0+ dropped tables: when the inputs hold `mysql.ibd`
//! (`carve ibdata1 mysql.ibd`, or an image holding both), the tables its
//! dictionary's deleted records remember, listed under it, each index's
//! pages counted in the tablespace they were in (space 0, `ibdata1`, for
//! a table made with `innodb_file_per_table=OFF`). Without `mysql.ibd`, a
//! MySQL 8.0+ system tablespace's dropped tables come from the deleted
//! records of its own SDI.

use super::carve::space_path;
use crate::inputs::Inputs;
use crate::CliError;
use innodb_analysis::dictionary::mysql_ibd::remnants::{self as dd_remnants, MysqlRemnants};
use innodb_analysis::dictionary::sdi_remnants;
use innodb_analysis::dictionary::MYSQL_DICTIONARY_SPACE_ID;
use innodb_analysis::reports::carve_report::{CarveReport, CarvedSpace};
use innodb_analysis::reports::dropped_tables::DroppedTables;
use innodb_space::dictionary::{remnants, Dictionary};
use innodb_space::Tablespace;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Lists the dropped tables of the `mysql.ibd` found among `report`'s
/// spaces (read in place when an input is that file, from the file
/// `--out` wrote, else rebuilt in a temporary directory). Without one, a
/// MySQL 8.0+ system tablespace gets a note saying to give it.
pub fn dropped(
    inputs: &Inputs,
    files: &[PathBuf],
    report: &mut CarveReport,
) -> Result<(), CliError> {
    let Some(di) = report
        .spaces
        .iter()
        .position(|s| s.space_id == MYSQL_DICTIONARY_SPACE_ID && s.has_sdi())
    else {
        return from_own_sdi(inputs, files, report);
    };
    let tmp = tempfile::tempdir()
        .map_err(|e| CliError::Usage(format!("cannot make a temporary directory: {e}")))?;
    let Some(dd) = report.spaces.get_mut(di) else {
        return Ok(());
    };
    let m = match open(inputs, files, dd, tmp.path()).and_then(|s| dd_remnants::read(&s)) {
        Ok(m) => m,
        Err(e) => {
            dd.notes.push(format!("dropped tables not read: {e}"));
            return Ok(());
        }
    };
    let wanted: BTreeSet<u32> = Dictionary::from_mysql(m.tables.clone(), Vec::new())
        .tables
        .iter()
        .map(|t| t.space)
        .collect();
    let pages = count_pages(inputs, files, report, &m, &wanted, tmp.path());
    if let Some(dd) = report.spaces.get_mut(di) {
        dd.dropped_tables = Some(DroppedTables::of_mysql(&m, &pages));
    }
    Ok(())
}

/// Without `mysql.ibd`: the dropped tables of each MySQL 8.0+ system
/// tablespace from its own SDI's deleted records, with a note that
/// `mysql.ibd` may remember more.
fn from_own_sdi(
    inputs: &Inputs,
    files: &[PathBuf],
    report: &mut CarveReport,
) -> Result<(), CliError> {
    if !report.spaces.iter().any(mysql_system) {
        return Ok(());
    }
    let tmp = tempfile::tempdir()
        .map_err(|e| CliError::Usage(format!("cannot make a temporary directory: {e}")))?;
    for s in report.spaces.iter_mut().filter(|s| mysql_system(s)) {
        s.notes.push("a MySQL 8.0+ system tablespace: its dropped tables are read from the deleted records of its own SDI; mysql.ibd's dictionary may remember more: give mysql.ibd too (carve ibdata1 mysql.ibd)".to_string());
        let read = open(inputs, files, s, tmp.path()).and_then(|space| {
            let m = sdi_remnants::read(&space)?;
            let pages = BTreeMap::from([(s.space_id, remnants::read(&space, Some(&m.live)))]);
            Ok(DroppedTables::of_mysql(&m, &pages))
        });
        match read {
            Ok(d) => s.dropped_tables = Some(d),
            Err(e) => s.notes.push(format!("dropped tables not read: {e}")),
        }
    }
    Ok(())
}

/// A MySQL 8.0+ system tablespace: space 0 with an SDI page, no `SYS_*`.
fn mysql_system(s: &CarvedSpace) -> bool {
    s.space_id == 0 && !s.has_sys_tables() && s.has_sdi()
}

/// What [`remnants::read`] finds in each space of `wanted` that was
/// carved (the pages of each index id), `m.live` telling the live
/// indexes; a space that cannot be read gets a note and is left out.
fn count_pages(
    inputs: &Inputs,
    files: &[PathBuf],
    report: &mut CarveReport,
    m: &MysqlRemnants,
    wanted: &BTreeSet<u32>,
    tmp: &Path,
) -> BTreeMap<u32, remnants::Remnants> {
    let mut pages = BTreeMap::new();
    for s in report.spaces.iter_mut() {
        if !wanted.contains(&s.space_id) || pages.contains_key(&s.space_id) {
            continue;
        }
        match open(inputs, files, s, tmp) {
            Ok(space) => {
                pages.insert(s.space_id, remnants::read(&space, Some(&m.live)));
            }
            Err(e) => s
                .notes
                .push(format!("pages of dropped tables not counted: {e}")),
        }
    }
    pages
}

/// The carved space `s` as a tablespace ([`space_path`]: the file `--out`
/// wrote, else an input that is that tablespace, else the space rebuilt in
/// `tmp`).
fn open(
    inputs: &Inputs,
    files: &[PathBuf],
    s: &mut CarvedSpace,
    tmp: &Path,
) -> Result<Tablespace, String> {
    let path = space_path(inputs, files, files, s, tmp).map_err(|e| e.to_string())?;
    Tablespace::open(&path, inputs.options.clone()).map_err(|e| e.to_string())
}

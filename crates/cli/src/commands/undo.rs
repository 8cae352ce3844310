//! `undo`: the undo logs of a system tablespace and its undo tablespaces,
//! or two copies of a data directory side by side.

use crate::inputs::Inputs;
use crate::output::{Named, Output};
use crate::CliError;
use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::reports::undo_report::{UndoComparison, UndoReport, UndoSide};
use innodb_analysis::reports::undo_tables::UndoTables;
use innodb_space::datadir::{DataDir, DataDirOptions, FileKind};
use innodb_space::dictionary::Dictionary;
use innodb_space::undo_tablespaces::is_mysql_8;
use innodb_space::Tablespace;
use std::path::{Path, PathBuf};

/// `undo [FILE…] [--records N]`, or `undo --compare A B`.
pub fn run(
    inputs: &Inputs,
    files: &[PathBuf],
    compare: Option<&[PathBuf]>,
    records: Option<usize>,
    out: &mut Output,
) -> Result<u8, CliError> {
    if let Some(dirs) = compare {
        return run_compare(inputs, files, dirs, out);
    }
    let (system, undo) = inputs.undo_spaces(files, "undo")?;
    let refs: Vec<&Tablespace> = undo.iter().collect();
    let own = own_dictionary(inputs, &system)?;
    let dict = inputs.dictionary()?.or(own.as_ref());
    let datadir = inputs.datadir.as_ref().filter(|_| files.is_empty());
    let tables = undo_tables(inputs, dict, &system, datadir);
    let mut r = UndoReport::build_listing(&system, &refs, &tables, records.unwrap_or(0));
    if let Some(dir) = datadir {
        r.note_truncation_logs(&dir.undo_truncation_logs());
    }
    let mut of = vec![system.path()];
    of.extend(undo.iter().map(Tablespace::path));
    out.report(inputs.format, &Named::new(&of, &r), |n| {
        innodb_render::undo_text::undo(n.report)
    });
    Ok(0)
}

/// The dictionary of `system` itself, when the inputs name none.
pub fn own_dictionary(
    inputs: &Inputs,
    system: &Tablespace,
) -> Result<Option<Dictionary>, CliError> {
    Ok(match inputs.dictionary()? {
        Some(_) => None,
        None => Dictionary::read(system).ok(),
    })
}

/// The tables the report names and decodes: those of `dict`, and, for a
/// MySQL 8.0+ data directory, the table in each tablespace's SDI (a
/// tablespace whose SDI cannot be read names nothing).
pub fn undo_tables<'a>(
    inputs: &Inputs,
    dict: Option<&'a Dictionary>,
    system: &Tablespace,
    datadir: Option<&DataDir>,
) -> UndoTables<'a> {
    let mut tables = UndoTables::new(dict);
    let Some(dir) = datadir.filter(|_| is_mysql_8(system)) else {
        return tables;
    };
    let with_sdi = [
        FileKind::Table,
        FileKind::Partition,
        FileKind::GeneralTablespace,
    ];
    for f in dir.tablespaces().filter(|f| with_sdi.contains(&f.kind)) {
        if let Some(sdi) = inputs
            .open_plain(&f.path)
            .ok()
            .and_then(|s| SdiReport::build(&s).ok())
        {
            tables.add_sdi(&sdi);
        }
    }
    tables
}

/// `undo --compare A B`: two copies of one data directory.
fn run_compare(
    inputs: &Inputs,
    files: &[PathBuf],
    dirs: &[PathBuf],
    out: &mut Output,
) -> Result<u8, CliError> {
    if !files.is_empty() {
        return Err(CliError::Usage(
            "undo --compare A B takes two data directories, no other files".into(),
        ));
    }
    let (Some(a), Some(b)) = (dirs.first(), dirs.get(1)) else {
        return Err(CliError::Usage(
            "undo --compare needs two data directories".into(),
        ));
    };
    let c = UndoComparison::new(side(inputs, a)?, side(inputs, b)?);
    out.report(inputs.format, &c, innodb_render::undo_text::undo_comparison);
    Ok(0)
}

/// One side of `undo --compare`: the undo logs of the data directory `dir`.
fn side(inputs: &Inputs, dir: &Path) -> Result<UndoSide, CliError> {
    let datadir = DataDir::open(dir, &DataDirOptions::default())?;
    let paths = datadir.undo_paths();
    let Some((system_path, undo_paths)) = paths.split_first() else {
        return Err(CliError::file(dir, "no ibdata1 in the data directory"));
    };
    let system = inputs.open_system(system_path, "undo --compare")?;
    let undo = inputs.open_all(undo_paths)?;
    let refs: Vec<&Tablespace> = undo.iter().collect();
    let dict = Dictionary::read(&system).ok();
    let tables = undo_tables(inputs, dict.as_ref(), &system, Some(&datadir));
    let r = UndoReport::build_listing(&system, &refs, &tables, 0);
    Ok(UndoSide::new(&dir.display().to_string(), &r))
}

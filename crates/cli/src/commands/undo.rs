//! `undo`: the undo logs of a system tablespace and its undo tablespaces,
//! or two copies of a data directory side by side.

use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::reports::undo_report::{UndoComparison, UndoReport, UndoSide};
use innodb_space::datadir::{DataDir, DataDirOptions};
use innodb_space::dictionary::Dictionary;
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
    let r = UndoReport::build_listing(&system, &refs, dict, records.unwrap_or(0));
    out.report(inputs.format, &r, innodb_render::undo_text::undo);
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
    let system = inputs.open_plain(system_path)?;
    let undo = inputs.open_all(undo_paths)?;
    let refs: Vec<&Tablespace> = undo.iter().collect();
    let dict = Dictionary::read(&system).ok();
    let r = UndoReport::build(&system, &refs, dict.as_ref());
    Ok(UndoSide::new(&dir.display().to_string(), &r))
}

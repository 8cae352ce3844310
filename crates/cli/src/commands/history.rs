//! `history`: the version chain of one row through the undo log.

use crate::commands::columns::schema_for;
use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::rows::row_history::{NoHistory, RowHistory};
use innodb_space::Tablespace;
use std::path::{Path, PathBuf};

/// `history FILE --key K [--undo U…] [--ddl F]`, with `--system` or `--datadir`.
pub fn run(
    inputs: &Inputs,
    file: &Path,
    key: &str,
    undo: &[PathBuf],
    ddl: Option<&Path>,
    out: &mut Output,
) -> Result<u8, CliError> {
    let space = inputs.open(file)?;
    let schema = schema_for(inputs, &space, ddl, out)?;
    let system_path = match (&inputs.system, &inputs.datadir) {
        (Some(p), _) => p.clone(),
        (None, Some(dir)) => dir
            .system()
            .map(|f| f.path.clone())
            .ok_or_else(|| CliError::file(&dir.root, "no ibdata1 in the data directory"))?,
        (None, None) => {
            return Err(CliError::Usage(
                "history needs the system tablespace: --system ibdata1 or --datadir DIR".into(),
            ))
        }
    };
    let mut undo_paths: Vec<PathBuf> = undo.iter().map(|f| inputs.locate(f)).collect();
    if let (true, Some(dir)) = (undo_paths.is_empty(), &inputs.datadir) {
        undo_paths = dir.undo().map(|f| f.path.clone()).collect();
    }
    let system = inputs.open_system(&system_path, "history")?;
    let undo_spaces = inputs.open_all(&undo_paths)?;
    let refs: Vec<&Tablespace> = undo_spaces.iter().collect();
    let h = RowHistory::build(&space, &schema, key, &system, &refs).map_err(|e| match e {
        NoHistory::NoClusteredIndex => {
            CliError::file(space.path(), "the schema has no clustered index")
        }
        NoHistory::NoSuchKey(k) => CliError::file(space.path(), format!("no row has the key {k}")),
    })?;
    out.report(inputs.format, &h, innodb_render::undo_text::history);
    Ok(0)
}

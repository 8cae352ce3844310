//! `browse`: the interactive terminal browser over a file or a data directory.

use crate::inputs::Inputs;
use crate::CliError;
use innodb_space::datadir::{DataDir, DataDirOptions};
use innodb_space::dictionary::Dictionary;
use innodb_space::Tablespace;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;

/// `browse FILE|DIR`: a data directory given as the path is also the
/// `--datadir` (its system and undo tablespaces serve roll pointers, its
/// dictionary names and types). Needs a terminal.
pub fn run(inputs: &Inputs, path: &Path) -> Result<u8, CliError> {
    let path = inputs.locate(path);
    let given = if path.is_dir() {
        Some(DataDir::open(&path, &DataDirOptions::default())?)
    } else {
        None
    };
    let datadir = given.as_ref().or(inputs.datadir.as_ref());
    let system = inputs
        .system
        .clone()
        .or_else(|| datadir.and_then(|d| d.system()).map(|f| f.path.clone()));
    let undo = datadir
        .map(|d| d.undo().map(|f| f.path.clone()).collect())
        .unwrap_or_default();
    let dict = match inputs.dictionary_arc()? {
        Some(d) => Some(d.clone()),
        None => system.as_ref().and_then(|sys| {
            let space = Tablespace::open(sys, inputs.options.clone()).ok()?;
            Dictionary::read(&space).ok().map(Arc::new)
        }),
    };
    let ctx = innodb_browse::Context {
        options: inputs.options.clone(),
        system,
        undo,
        dict,
    };
    if !std::io::stdout().is_terminal() {
        return Err(CliError::Usage(
            "browse needs a terminal: its output is an interactive screen".into(),
        ));
    }
    let mut app = innodb_browse::App::open(&path, ctx).map_err(CliError::Usage)?;
    // NO_COLOR (https://no-color.org), as `heatmap` reads it: the map and
    // its legend in the symbols `heatmap` prints without colour.
    app.plain = std::env::var_os("NO_COLOR").is_some();
    innodb_browse::term::run(app).map_err(|e| CliError::Usage(format!("terminal: {e}")))?;
    Ok(0)
}

//! `tree`: one index's pages in key order, level by level.

use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::reports::tree_report::{NoTree, TreeReport};
use innodb_render::space_text;
use std::path::Path;

/// `tree FILE --index ID [--level L]`.
pub fn run(
    inputs: &Inputs,
    file: &Path,
    index: u64,
    level: Option<u16>,
    out: &mut Output,
) -> Result<u8, CliError> {
    let space = inputs.open(file)?;
    let r = TreeReport::build(&space, index, level).map_err(|e| match e {
        NoTree::NoSpaceMap(_) => CliError::NoSpaceMap(space.path().into()),
        NoTree::NoSuchIndex(ids) => {
            let ids: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
            CliError::file(
                space.path(),
                format!(
                    "--index {index}: no index root of that id; the file's indexes are {}",
                    ids.join(", ")
                ),
            )
        }
    })?;
    out.report(inputs.format, &r, space_text::tree);
    Ok(0)
}

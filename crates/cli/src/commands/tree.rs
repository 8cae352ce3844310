//! `tree`: one index's pages in key order, level by level.

use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::reports::naming::{name_indexes, IndexNames, NoIndexNamed};
use innodb_analysis::reports::tree_report::{NoTree, TreeReport};
use innodb_render::space_text;
use std::path::Path;

/// The names of `names`, with their ids.
fn listed(names: &IndexNames) -> String {
    let all: Vec<String> = names
        .all()
        .iter()
        .map(|(id, n)| format!("{n} ({})", innodb_format::index::sdi::index_id_text(*id)))
        .collect();
    all.join(", ")
}

/// `tree FILE --index ID|NAME [--level L]`.
pub fn run(
    inputs: &Inputs,
    file: &Path,
    which: &str,
    level: Option<u16>,
    out: &mut Output,
) -> Result<u8, CliError> {
    let space = inputs.open(file)?;
    let names = inputs.index_names(&space)?;
    let index = names.find(which).map_err(|e| {
        let message = match e {
            NoIndexNamed::None => format!(
                "--index {which}: no index of that name; the file's indexes are {}",
                listed(&names)
            ),
            NoIndexNamed::Ambiguous(n) => format!(
                "--index {which} names several: {}; give the full name or the id",
                n.join(", ")
            ),
        };
        CliError::file(space.path(), message)
    })?;
    let report = TreeReport::build(&space, index, level).map(|mut r| {
        name_indexes(&mut r, &names);
        r
    });
    let r = report.map_err(|e| match e {
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

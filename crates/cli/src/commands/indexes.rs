//! `indexes`: every B+tree walked from its root.

use crate::commands::named;
use crate::inputs::Inputs;
use crate::output::{Kind, Output};
use crate::runner::PerFile;
use crate::CliError;
use innodb_analysis::reports::datadir_report::IndexesTotals;
use innodb_analysis::reports::indexes::{IndexAnalysis, IndexesReport};
use innodb_render::{datadir_text, space_text};
use innodb_space::Tablespace;
use std::path::Path;

/// The indexes report of `space` (also what `fill` and the index charts
/// show), its indexes named from the dictionary.
pub fn report(inputs: &Inputs, space: &Tablespace) -> Result<IndexesReport, CliError> {
    named(
        inputs,
        space,
        IndexAnalysis::build_threads(space, inputs.threads).map(|a| IndexesReport::new(space, &a)),
    )
}

/// `indexes [FILE]`.
pub fn run(inputs: &Inputs, file: Option<&Path>, out: &mut Output) -> Result<u8, CliError> {
    PerFile {
        command: "indexes",
        build: &|space| report(inputs, space),
        text: &space_text::indexes,
        totals: IndexesTotals::of,
        datadir_text: &datadir_text::indexes,
        kind: Kind::Text,
    }
    .run(inputs, file, out)
}

//! `fill`: page-fill histograms per index and level.

use crate::commands::indexes;
use crate::inputs::Inputs;
use crate::output::{Kind, Output};
use crate::runner::PerFile;
use crate::CliError;
use innodb_analysis::reports::datadir_report::FileTotals;
use innodb_render::{datadir_text, space_text};
use std::path::Path;

/// `fill [FILE]`.
pub fn run(inputs: &Inputs, file: Option<&Path>, out: &mut Output) -> Result<u8, CliError> {
    PerFile {
        command: "fill",
        build: &|space| indexes::report(inputs, space),
        text: &space_text::fill,
        totals: FileTotals::of,
        datadir_text: &|r| datadir_text::each(r, space_text::fill),
        kind: Kind::Text,
    }
    .run(inputs, file, out)
}

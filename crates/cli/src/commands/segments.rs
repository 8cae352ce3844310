//! `segments`: every file segment and every index of a tablespace.

use crate::commands::named;
use crate::inputs::Inputs;
use crate::output::{Kind, Output};
use crate::runner::PerFile;
use crate::CliError;
use innodb_analysis::reports::datadir_report::FileTotals;
use innodb_analysis::reports::ownership::SpaceAccount;
use innodb_analysis::reports::space_reports::SegmentsReport;
use innodb_render::{datadir_text, space_text};
use innodb_space::Tablespace;
use std::path::Path;

/// The segments report of `space`, its indexes named from the dictionary.
pub fn report(inputs: &Inputs, space: &Tablespace) -> Result<SegmentsReport, CliError> {
    named(
        inputs,
        space,
        SpaceAccount::build(space).map(|a| SegmentsReport::new(space, &a)),
    )
}

/// `segments [FILE]`.
pub fn run(inputs: &Inputs, file: Option<&Path>, out: &mut Output) -> Result<u8, CliError> {
    PerFile {
        command: "segments",
        build: &|space| report(inputs, space),
        text: &space_text::segments,
        totals: FileTotals::of,
        datadir_text: &|r| datadir_text::each(r, space_text::segments),
        kind: Kind::Text,
    }
    .run(inputs, file, out)
}

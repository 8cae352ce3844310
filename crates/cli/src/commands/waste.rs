//! `waste`: where a tablespace's pages go, per index and in total.

use crate::commands::named;
use crate::inputs::Inputs;
use crate::output::{Kind, Output};
use crate::runner::PerFile;
use crate::CliError;
use innodb_analysis::reports::datadir_report::WasteTotals;
use innodb_analysis::reports::ownership::SpaceAccount;
use innodb_analysis::reports::space_reports::WasteReport;
use innodb_render::{datadir_text, space_text};
use innodb_space::Tablespace;
use std::path::Path;

/// The waste report of `space`, its indexes named from the dictionary.
pub fn report(inputs: &Inputs, space: &Tablespace) -> Result<WasteReport, CliError> {
    named(
        inputs,
        space,
        SpaceAccount::build(space).map(|a| WasteReport::new(space, &a)),
    )
}

/// `waste [FILE]`.
pub fn run(inputs: &Inputs, file: Option<&Path>, out: &mut Output) -> Result<u8, CliError> {
    PerFile {
        command: "waste",
        build: &|space| report(inputs, space),
        text: &space_text::waste,
        totals: WasteTotals::of,
        datadir_text: &datadir_text::waste,
        kind: Kind::Text,
    }
    .run(inputs, file, out)
}

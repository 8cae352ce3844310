//! `extents`: every extent's state, owner and used pages, with a map; the
//! legend names the indexes from the dictionary that describes the file.

use crate::args::ColorChoice;
use crate::commands::named;
use crate::inputs::Inputs;
use crate::output::{colour_on, Kind, Output};
use crate::runner::PerFile;
use crate::CliError;
use innodb_analysis::reports::datadir_report::FileTotals;
use innodb_analysis::reports::ownership::SpaceAccount;
use innodb_analysis::reports::space_reports::ExtentsReport;
use innodb_render::{datadir_text, space_text};
use std::path::Path;

/// `extents [FILE] --color C`.
pub fn run(
    inputs: &Inputs,
    file: Option<&Path>,
    color: ColorChoice,
    out: &mut Output,
) -> Result<u8, CliError> {
    let colour = colour_on(color);
    PerFile {
        command: "extents",
        build: &|space| {
            named(
                inputs,
                space,
                SpaceAccount::build(space).map(|a| ExtentsReport::new(space, &a)),
            )
        },
        text: &|r| space_text::extents(r, colour),
        totals: FileTotals::of,
        datadir_text: &|r| datadir_text::each(r, |e| space_text::extents(e, colour)),
        kind: if colour { Kind::Coloured } else { Kind::Text },
    }
    .run(inputs, file, out)
}

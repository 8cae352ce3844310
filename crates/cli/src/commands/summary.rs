//! `summary`: what a file is (vendor, flags, page sizes, page types, LSN
//! range, checksums), or a line per tablespace of a data directory.

use crate::inputs::Inputs;
use crate::output::{Kind, Output};
use crate::runner::PerFile;
use crate::CliError;
use innodb_analysis::reports::datadir_report::SummaryTotals;
use innodb_analysis::Summary;
use innodb_render::{datadir_text, text};
use std::path::Path;

/// `summary [FILE]`.
pub fn run(inputs: &Inputs, file: Option<&Path>, out: &mut Output) -> Result<u8, CliError> {
    PerFile {
        command: "summary",
        build: &|space| Ok(Summary::build(space)),
        text: &text::summary,
        totals: SummaryTotals::of,
        datadir_text: &datadir_text::summary,
        kind: Kind::Text,
    }
    .run(inputs, file, out)
    .or_else(|e| {
        super::doublewrite::instead(inputs, e, |f| {
            super::doublewrite::of_file(inputs, f, false, out)
        })
    })
}

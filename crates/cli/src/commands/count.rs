//! `count`: per index, the exact row count beside sampled estimates.

use crate::commands::named;
use crate::inputs::Inputs;
use crate::output::{Kind, Output};
use crate::runner::PerFile;
use crate::CliError;
use innodb_analysis::reports::count_report::CountReport;
use innodb_analysis::reports::datadir_report::FileTotals;
use innodb_analysis::reports::indexes::IndexAnalysis;
use innodb_render::{datadir_text, space_text};
use std::path::Path;

/// `count [FILE] --sample-pages N --seed S`.
pub fn run(
    inputs: &Inputs,
    file: Option<&Path>,
    sample_pages: usize,
    seed: u64,
    out: &mut Output,
) -> Result<u8, CliError> {
    let build = |space: &innodb_space::Tablespace| {
        named(
            inputs,
            space,
            IndexAnalysis::build_threads(space, inputs.threads)
                .map(|a| CountReport::of(space, a, sample_pages, seed)),
        )
    };
    PerFile {
        command: "count",
        build: &build,
        text: &space_text::count,
        totals: FileTotals::of,
        datadir_text: &|r| datadir_text::each(r, space_text::count),
        kind: Kind::Text,
    }
    .run(inputs, file, out)
}

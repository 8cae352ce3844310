//! `count`: per index, the exact row count beside sampled estimates.

use crate::commands::name_indexes;
use crate::inputs::Inputs;
use crate::output::Output;
use crate::runner::PerFile;
use crate::CliError;
use innodb_analysis::reports::count_report::CountReport;
use innodb_analysis::reports::datadir_report::FileTotals;
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
        let dict = inputs.dictionary()?;
        let mut r = CountReport::build(space, sample_pages, seed)
            .map_err(|_| CliError::NoSpaceMap(space.path().into()))?;
        let rows = r.indexes.iter_mut().map(|i| (i.index_id, &mut i.name));
        name_indexes(dict, space.space_id(), rows);
        Ok(r)
    };
    PerFile {
        command: "count",
        build: &build,
        text: &space_text::count,
        totals: FileTotals::of,
        datadir_text: &|r| datadir_text::each(r, space_text::count),
    }
    .run(inputs, file, out)
}

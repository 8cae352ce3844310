//! `plot`: page-fill histograms per index, pages per tree level, or the
//! undo history's growth.

use crate::args::{Command, PlotChoice};
use crate::commands::{indexes, undo};
use crate::inputs::Inputs;
use crate::output::Output;
use crate::pictures::datadir::Picture;
use crate::pictures::CHART;
use crate::CliError;
use innodb_analysis::pictures::{chart_builders, Chart};
use innodb_analysis::reports::undo_report::UndoReport;
use innodb_space::Tablespace;
use std::path::{Path, PathBuf};

/// What `plot` was asked for.
pub struct Choice<'a> {
    /// Which chart.
    pub what: PlotChoice,
    /// `--png`.
    pub png: Option<&'a Path>,
    /// `--color`.
    pub color: crate::args::ColorChoice,
}

impl<'a> Choice<'a> {
    /// The chart a `plot` command asks for: `--what` or one of the flags.
    pub fn of(command: &'a Command) -> Result<Choice<'a>, CliError> {
        let Command::Plot {
            what,
            fill_histogram,
            undo_growth,
            levels,
            png,
            color,
            ..
        } = command
        else {
            return Err(CliError::Usage("not a plot command".into()));
        };
        let what = match (what, fill_histogram, undo_growth, levels) {
            (Some(w), false, false, false) => *w,
            (None, true, false, false) => PlotChoice::FillHistogram,
            (None, false, true, false) => PlotChoice::UndoGrowth,
            (None, false, false, true) => PlotChoice::Levels,
            _ => {
                return Err(CliError::Usage(
                    "plot needs one of --fill-histogram, --undo-growth, --levels (or --what)"
                        .into(),
                ))
            }
        };
        Ok(Choice {
            what,
            png: png.as_deref(),
            color: *color,
        })
    }
}

/// The chart `what` (fill histograms or levels) of `space`'s indexes,
/// named from the dictionary.
pub fn index_chart(
    inputs: &Inputs,
    space: &Tablespace,
    what: PlotChoice,
) -> Result<Chart, CliError> {
    let r = indexes::report(inputs, space)?;
    Ok(match what {
        PlotChoice::Levels => chart_builders::levels(&r),
        _ => chart_builders::fill_histogram(&r),
    })
}

/// `plot FILE… --fill-histogram|--undo-growth|--levels [--png OUT]`.
pub fn run(
    inputs: &Inputs,
    files: &[PathBuf],
    choice: &Choice,
    out: &mut Output,
) -> Result<u8, CliError> {
    inputs.check_output(choice.png)?;
    if choice.what == PlotChoice::UndoGrowth {
        let chart = undo_growth(inputs, files)?;
        let of: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
        return CHART.draw(&chart, &of, inputs.format, choice.png, choice.color, out);
    }
    if files.is_empty() && inputs.datadir.is_some() {
        let picture = Picture {
            command: "plot",
            model: &|s| index_chart(inputs, s, choice.what).map(|c| (c, Vec::new())),
            drawing: &CHART,
        };
        return picture.over(inputs, choice.png, choice.color, out);
    }
    let [file] = files else {
        return Err(CliError::Usage(
            "plot --fill-histogram and --levels take one tablespace file (or none, with --datadir DIR: every tablespace of the directory)".into(),
        ));
    };
    let chart = index_chart(inputs, &inputs.open(file)?, choice.what)?;
    CHART.draw(
        &chart,
        &[file.as_path()],
        inputs.format,
        choice.png,
        choice.color,
        out,
    )
}

/// The undo history's growth chart of the system tablespace and undo
/// tablespaces `files` (or of the data directory).
fn undo_growth(inputs: &Inputs, files: &[PathBuf]) -> Result<Chart, CliError> {
    let (system, undo) = inputs.undo_spaces(files, "plot --undo-growth")?;
    let refs: Vec<&Tablespace> = undo.iter().collect();
    let own = undo::own_dictionary(inputs, &system)?;
    let r = UndoReport::build(&system, &refs, inputs.dictionary()?.or(own.as_ref()));
    let source = match &inputs.datadir {
        Some(dir) if files.is_empty() => dir.root.display().to_string(),
        _ => system
            .path()
            .file_name()
            .map_or_else(String::new, |f| f.to_string_lossy().into_owned()),
    };
    Ok(chart_builders::undo_growth(&r, &source))
}

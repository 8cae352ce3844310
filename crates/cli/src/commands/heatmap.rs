//! `heatmap`: a map of every page, coloured by LSN age, page type, fill or
//! owning index.

use crate::args::{ColorChoice, HeatmapChoice, LsnScaleChoice};
use crate::inputs::Inputs;
use crate::output::Output;
use crate::pictures::datadir::Picture;
use crate::pictures::RASTER;
use crate::CliError;
use innodb_analysis::pictures::heatmap::{self, HeatmapBy, HeatmapOptions};
use innodb_analysis::pictures::lsn_age::LsnScale;
use innodb_analysis::pictures::Raster;
use innodb_analysis::reports::naming::IndexNames;
use innodb_space::space_map::SpaceMap;
use innodb_space::Tablespace;
use std::path::Path;

/// The colouring asked for.
pub fn heatmap_by(by: HeatmapChoice) -> HeatmapBy {
    match by {
        HeatmapChoice::LsnAge => HeatmapBy::LsnAge,
        HeatmapChoice::PageType => HeatmapBy::PageType,
        HeatmapChoice::Fill => HeatmapBy::Fill,
        HeatmapChoice::Index => HeatmapBy::Index,
    }
}

/// What a heatmap's colours show, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colouring {
    /// What the colours show.
    pub by: HeatmapBy,
    /// The layout and the LSN-age scale.
    pub options: HeatmapOptions,
}

impl Colouring {
    /// The colouring of `--by` and `--lsn-scale`.
    pub fn of(by: HeatmapChoice, scale: LsnScaleChoice) -> Colouring {
        let scale = match scale {
            LsnScaleChoice::Linear => LsnScale::Linear,
            LsnScaleChoice::Rank => LsnScale::Rank,
        };
        Colouring {
            by: heatmap_by(by),
            options: HeatmapOptions {
                scale,
                ..HeatmapOptions::default()
            },
        }
    }
}

/// The heatmap of `space`, and the findings its scan met as lines for
/// stderr (the first 20, then how many more); `--by index` needs the space map.
pub fn model(
    space: &Tablespace,
    names: &IndexNames,
    colouring: Colouring,
) -> Result<(Raster, Vec<String>), CliError> {
    let by = colouring.by;
    let map = match SpaceMap::read(space) {
        Ok(m) => Some(m),
        Err(_) if by == HeatmapBy::Index => return Err(CliError::NoSpaceMap(space.path().into())),
        Err(_) => None,
    };
    let name = |id: u64| names.get(id).map(str::to_string);
    let (raster, findings) =
        heatmap::build_with(space, map.as_ref(), by, &colouring.options, &name);
    let file = space.path().display();
    let mut lines: Vec<String> = findings
        .iter()
        .take(20)
        .map(|f| format!("innodb-inspect: {file}: {f}"))
        .collect();
    if findings.len() > 20 {
        lines.push(format!(
            "innodb-inspect: {file}: {} more findings (see `summary` and `checksum`)",
            findings.len() - 20
        ));
    }
    Ok((raster, lines))
}

/// `heatmap [FILE] --by B --lsn-scale S [--png OUT] --color C`.
pub fn run(
    inputs: &Inputs,
    file: Option<&Path>,
    colouring: Colouring,
    png: Option<&Path>,
    color: ColorChoice,
    out: &mut Output,
) -> Result<u8, CliError> {
    inputs.check_output(png)?;
    let Some(file) = file else {
        let picture = Picture {
            command: "heatmap",
            model: &|s| model(s, &inputs.index_names(s)?, colouring),
            drawing: &RASTER,
        };
        return picture.over(inputs, png, color, out);
    };
    let space = inputs.open(file)?;
    let (raster, lines) = model(&space, &inputs.index_names(&space)?, colouring)?;
    for l in &lines {
        out.say_raw(l);
    }
    RASTER.draw(&raster, &[file], inputs.format, png, color, out)
}

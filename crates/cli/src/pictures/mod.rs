//! `heatmap` and `plot`: build a picture model, then draw it in the
//! terminal, as JSON, or as a PNG file.

use crate::args::{ColorChoice, HeatmapChoice, PlotChoice};
use crate::{colour_on, emit_report, no_map, undo_spaces, Cli, CliError};
use innodb_analysis::pictures::heatmap::{self, HeatmapBy};
use innodb_analysis::pictures::{chart_builders, Chart, Raster};
use innodb_analysis::reports::indexes::{IndexAnalysis, IndexesReport};
use innodb_analysis::reports::naming::index_name;
use innodb_analysis::reports::ownership::NoSpaceMap;
use innodb_analysis::reports::undo_report::UndoReport;
use innodb_render::{ansi, png};
use innodb_space::dictionary::Dictionary;
use innodb_space::space_map::SpaceMap;
use innodb_space::{OpenOptions, Tablespace};
use std::path::{Path, PathBuf};

/// Writes `img` to `path` as PNG; returns the line that says so.
pub fn save_png(path: &Path, img: &png::image::RgbImage, what: &str) -> Result<String, String> {
    refuse_to_overwrite_data(path)?;
    let bytes = png::encode(img)?;
    std::fs::write(path, &bytes)
        .map_err(|e| format!("{}: cannot write the PNG: {e}", path.display()))?;
    Ok(format!(
        "{}: {what}, {}x{} pixels, {} bytes\n",
        path.display(),
        img.width(),
        img.height(),
        bytes.len()
    ))
}

/// An error when `path` holds something other than a PNG (a tablespace
/// given by mistake as the output, say): data files are never written.
fn refuse_to_overwrite_data(path: &Path) -> Result<(), String> {
    use std::io::Read;
    const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
    let Ok(mut f) = std::fs::File::open(path) else {
        return Ok(());
    };
    let mut head = [0u8; 8];
    let n = f.read(&mut head).unwrap_or(0);
    if n == 0 || head == PNG_SIGNATURE {
        return Ok(());
    }
    Err(format!(
        "{}: exists and is not a PNG; refusing to write over it (innodb-inspect never writes to a data file)",
        path.display()
    ))
}

/// Writes `img` to `path` as PNG and says so on stdout.
fn write_png(path: &Path, img: &png::image::RgbImage, what: &str) -> Result<(), CliError> {
    crate::emit(&save_png(path, img, what).map_err(CliError::Usage)?);
    Ok(())
}

/// The colouring asked for.
pub fn heatmap_by(by: HeatmapChoice) -> HeatmapBy {
    match by {
        HeatmapChoice::LsnAge => HeatmapBy::LsnAge,
        HeatmapChoice::PageType => HeatmapBy::PageType,
        HeatmapChoice::Fill => HeatmapBy::Fill,
        HeatmapChoice::Index => HeatmapBy::Index,
    }
}

/// The heatmap of `space`, and the findings its scan met as lines for
/// stderr (the first 20, then how many more); `--by index` needs the space map.
pub fn heatmap_model(
    space: &Tablespace,
    dict: Option<&Dictionary>,
    by: HeatmapBy,
) -> Result<(Raster, Vec<String>), NoSpaceMap> {
    let map = match SpaceMap::read(space) {
        Ok(m) => Some(m),
        Err(e) if by == HeatmapBy::Index => return Err(e),
        Err(_) => None,
    };
    let space_id = space.space_id();
    let name = |id: u64| dict.and_then(|d| index_name(d, space_id, id));
    let (raster, findings) = heatmap::build(space, map.as_ref(), by, &name);
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

/// The chart `what` (fill histograms or levels) of `space`'s indexes,
/// named from the dictionary.
pub fn index_chart(
    space: &Tablespace,
    dict: Option<&Dictionary>,
    what: PlotChoice,
) -> Result<Chart, NoSpaceMap> {
    let a = IndexAnalysis::build(space)?;
    let mut r = IndexesReport::new(space, &a);
    if let Some(d) = dict {
        for i in &mut r.indexes {
            i.name = index_name(d, space.space_id(), i.index_id);
        }
    }
    Ok(match what {
        PlotChoice::Levels => chart_builders::levels(&r),
        _ => chart_builders::fill_histogram(&r),
    })
}

/// `innodb-inspect heatmap FILE --by … [--png OUT.png]`.
pub fn heatmap(
    cli: &Cli,
    space: &Tablespace,
    dict: Option<&Dictionary>,
    by: HeatmapChoice,
    png_out: Option<&Path>,
    color: ColorChoice,
) -> Result<u8, CliError> {
    let (raster, lines) =
        heatmap_model(space, dict, heatmap_by(by)).map_err(|e| no_map(space, e))?;
    for l in &lines {
        eprintln!("{l}");
    }
    draw_raster(cli, &raster, png_out, color)
}

/// Writes `model` as a PNG (drawn by `image`) when `png_out` is given,
/// else prints it as terminal text (drawn by `text`) or JSON.
fn draw<M: innodb_render::Serialize>(
    cli: &Cli,
    model: &M,
    title: &str,
    png_out: Option<&Path>,
    color: ColorChoice,
    image: impl Fn(&M) -> png::image::RgbImage,
    text: impl Fn(&M, bool) -> String,
) -> Result<u8, CliError> {
    if let Some(path) = png_out {
        return write_png(path, &image(model), title).map(|()| 0);
    }
    let colour = colour_on(color);
    emit_report(cli.format, model, |m| text(m, colour));
    Ok(0)
}

/// Draws a heatmap: PNG, terminal or JSON.
fn draw_raster(
    cli: &Cli,
    raster: &Raster,
    png_out: Option<&Path>,
    color: ColorChoice,
) -> Result<u8, CliError> {
    draw(
        cli,
        raster,
        &raster.title,
        png_out,
        color,
        png::raster_image,
        ansi::raster,
    )
}

fn draw_chart(
    cli: &Cli,
    chart: &Chart,
    png_out: Option<&Path>,
    color: ColorChoice,
) -> Result<u8, CliError> {
    draw(
        cli,
        chart,
        &chart.title,
        png_out,
        color,
        png::chart_image,
        ansi::chart,
    )
}

/// What to plot, from `--what` or one of the flags.
pub fn plot_choice(
    what: Option<PlotChoice>,
    fill_histogram: bool,
    undo_growth: bool,
    levels: bool,
) -> Result<PlotChoice, CliError> {
    match (what, fill_histogram, undo_growth, levels) {
        (Some(w), false, false, false) => Ok(w),
        (None, true, false, false) => Ok(PlotChoice::FillHistogram),
        (None, false, true, false) => Ok(PlotChoice::UndoGrowth),
        (None, false, false, true) => Ok(PlotChoice::Levels),
        _ => Err(CliError::Usage(
            "plot needs one of --fill-histogram, --undo-growth, --levels (or --what)".into(),
        )),
    }
}

/// `innodb-inspect plot FILE… --fill-histogram|--undo-growth|--levels [--png OUT.png]`.
pub fn plot(
    cli: &Cli,
    files: &[PathBuf],
    options: OpenOptions,
    dict: Option<&Dictionary>,
    what: PlotChoice,
    png_out: Option<&Path>,
    color: ColorChoice,
) -> Result<u8, CliError> {
    if what == PlotChoice::UndoGrowth {
        let (system, undo) = undo_spaces(cli, files, options, "plot --undo-growth")?;
        let refs: Vec<&Tablespace> = undo.iter().collect();
        let own_dict = match dict {
            Some(_) => None,
            None => Dictionary::read(&system).ok(),
        };
        let r = UndoReport::build(&system, &refs, dict.or(own_dict.as_ref()));
        let source = match &cli.datadir {
            Some(dir) if files.is_empty() => dir.display().to_string(),
            _ => system
                .path()
                .file_name()
                .map_or_else(String::new, |f| f.to_string_lossy().into_owned()),
        };
        let chart = chart_builders::undo_growth(&r, &source);
        return draw_chart(cli, &chart, png_out, color);
    }
    if files.is_empty() && cli.datadir.is_some() {
        return crate::datadir_pictures::plot(cli, options, dict, what, png_out, color);
    }
    let [file] = files else {
        return Err(CliError::Usage(
            "plot --fill-histogram and --levels take one tablespace file (or none, with --datadir DIR: every tablespace of the directory)".into(),
        ));
    };
    let space = Tablespace::open(crate::locate(cli, file), options)?;
    let chart = index_chart(&space, dict, what).map_err(|e| no_map(&space, e))?;
    draw_chart(cli, &chart, png_out, color)
}

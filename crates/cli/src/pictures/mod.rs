//! Pictures (heatmaps and charts): a model drawn in the terminal, printed
//! as JSON, or written as a PNG file (an SVG document when the path ends in
//! `.svg`); [`datadir`] does so for every tablespace of a data directory.

pub mod datadir;

use crate::args::{ColorChoice, Format};
use crate::output::{colour_on, Kind, Named, Output};
use crate::CliError;
use innodb_render::png;
use std::path::Path;

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

/// True when `path` names an SVG document (it ends in `.svg`).
pub fn is_svg(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"))
}

/// Writes `svg` to `path`; returns the line that says so.
pub fn save_svg(path: &Path, svg: &str, what: &str) -> Result<String, String> {
    refuse_to_overwrite_data(path)?;
    std::fs::write(path, svg)
        .map_err(|e| format!("{}: cannot write the SVG: {e}", path.display()))?;
    Ok(format!(
        "{}: {what}, SVG, {} bytes\n",
        path.display(),
        svg.len()
    ))
}

/// An error when `path` holds something other than a PNG or an SVG
/// document (a tablespace given by mistake as the output, say): data files
/// are never written.
fn refuse_to_overwrite_data(path: &Path) -> Result<(), String> {
    use std::io::Read;
    const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(format!(
            "{}: exists and is not a regular file (a directory, FIFO or device); refusing to write there",
            path.display()
        ));
    }
    let Ok(mut f) = std::fs::File::open(path) else {
        return Ok(());
    };
    let mut head = [0u8; 8];
    let n = f.read(&mut head).unwrap_or(0);
    let svg = head.starts_with(b"<?xml") || head.starts_with(b"<svg");
    if n == 0 || head == PNG_SIGNATURE || svg {
        return Ok(());
    }
    Err(format!(
        "{}: exists and is neither a PNG nor an SVG document; refusing to write over it (innodb-inspect never writes to a data file)",
        path.display()
    ))
}

/// How one kind of picture model is drawn.
pub struct Drawing<M> {
    /// The model as an image.
    pub image: fn(&M) -> png::image::RgbImage,
    /// The model as an SVG document.
    pub svg: fn(&M) -> String,
    /// The model for the terminal (with colour or not).
    pub text: fn(&M, bool) -> String,
    /// The model's title.
    pub title: fn(&M) -> &str,
}

impl<M: innodb_render::Serialize> Drawing<M> {
    /// Writes `model` as a PNG when `png_out` is given (an SVG document when
    /// it ends in `.svg`) and says so, else prints it as terminal text or
    /// JSON (naming `files`, what it is of).
    pub fn draw(
        &self,
        model: &M,
        files: &[&Path],
        format: Format,
        png_out: Option<&Path>,
        color: ColorChoice,
        out: &mut Output,
    ) -> Result<u8, CliError> {
        if let Some(path) = png_out {
            let what = (self.title)(model);
            let said = if is_svg(path) {
                save_svg(path, &(self.svg)(model), what)
            } else {
                save_png(path, &(self.image)(model), what)
            }
            .map_err(CliError::Usage)?;
            out.emit(&said);
            return Ok(0);
        }
        let colour = colour_on(color);
        let kind = if colour { Kind::Coloured } else { Kind::Text };
        let named = Named::new(files, model);
        out.report_as(format, &named, |n| (self.text)(n.report, colour), kind);
        Ok(0)
    }
}

/// How heatmaps are drawn.
pub const RASTER: Drawing<innodb_analysis::pictures::Raster> = Drawing {
    image: png::raster_image,
    svg: innodb_render::svg::raster_svg,
    text: innodb_render::ansi::raster,
    title: |r| &r.title,
};

/// How charts are drawn.
pub const CHART: Drawing<innodb_analysis::pictures::Chart> = Drawing {
    image: png::chart_image,
    svg: innodb_render::svg::chart_svg,
    text: innodb_render::ansi::chart,
    title: |c| &c.title,
};

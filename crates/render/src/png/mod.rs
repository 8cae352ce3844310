//! Pictures as images: a [`Raster`](innodb_analysis::pictures::Raster) (a
//! map of a tablespace) or a [`Chart`](innodb_analysis::pictures::Chart)
//! laid out and drawn onto a [`Canvas`]: an RGB image encoded as PNG here,
//! or the SVG document of [`crate::svg`], from the same layout and the same
//! drawing code, so that both show the same cells, labels and legend.
//!
//! Text is drawn with an embedded 8×8 bitmap font (no system font), dark
//! grey on white, and every label is measured with it: titles wrap to the
//! picture's width, and labels that would touch are thinned out
//! ([`labels`]). Every picture has a title (font at twice its size), a
//! subtitle, axis labels and a legend. All drawing clips at the picture's
//! edges, so no input makes it panic.

mod chart;
mod labels;
mod raster;
pub(crate) mod text;

/// The `image` crate, so that callers need no dependency of their own.
pub use image;

pub use chart::{chart_image, chart_labels};
pub(crate) use chart::{chart_layout, draw_chart};
pub use labels::{first_clash, Placed, GAP};
pub(crate) use raster::draw_raster;
pub use raster::{cell_rect, raster_image, raster_labels, raster_layout, RasterLayout};

use image::{ImageEncoder, RgbImage};
use innodb_analysis::pictures::Rgb;

/// `img` as PNG bytes.
pub fn encode(img: &RgbImage) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgb8,
        )
        .map_err(|e| format!("cannot encode PNG: {e}"))?;
    Ok(out)
}

/// Where a picture is drawn: rectangles and text, in pixels from the top
/// left corner. An RGB image (PNG) and an SVG document are canvases.
pub trait Canvas {
    /// Fills the rectangle at (`x`, `y`) of `w` × `h` with `colour`, clipped
    /// to the canvas: any part outside it, or a negative size, draws nothing.
    fn rect(&mut self, x: i64, y: i64, w: i64, h: i64, colour: Rgb);
    /// Draws `s` with its top-left corner at (`x`, `y`), each glyph 8 × 8
    /// pixels times `scale`, clipped to the canvas.
    fn text(&mut self, x: i64, y: i64, s: &str, scale: u32, colour: Rgb);
    /// Starts a group of what follows (an SVG `<g>`; nothing in an image).
    fn begin(&mut self, _id: &str) {}
    /// Ends the group begun last.
    fn end(&mut self) {}
}

impl Canvas for RgbImage {
    fn rect(&mut self, x: i64, y: i64, w: i64, h: i64, colour: Rgb) {
        fill_rect(self, x, y, w, h, colour);
    }

    fn text(&mut self, x: i64, y: i64, s: &str, scale: u32, colour: Rgb) {
        text::draw(self, x, y, s, scale, colour);
    }
}

/// Background of every picture.
pub(crate) const BACKGROUND: Rgb = Rgb(0xff, 0xff, 0xff);
/// Text.
pub(crate) const INK: Rgb = Rgb(0x33, 0x33, 0x33);
/// Axis lines and tick marks.
pub(crate) const AXIS: Rgb = Rgb(0x66, 0x66, 0x66);
/// Grid lines of charts.
pub(crate) const GRID: Rgb = Rgb(0xe4, 0xe4, 0xe4);
/// Space around the picture.
pub(crate) const MARGIN: u32 = 8;
/// Height of a line of text (8 px glyphs and their spacing); legend lines.
pub(crate) const LINE: u32 = 12;
/// Height of a line of the title (16 px glyphs and their spacing).
pub(crate) const TITLE_LINE: u32 = 2 * text::GLYPH + 4;
/// Side of a legend swatch.
pub(crate) const SWATCH: u32 = 10;
/// Narrowest picture.
pub(crate) const MIN_WIDTH: u32 = 480;
/// Widest picture that text alone may ask for (a map or a plot of many
/// cells or groups may be wider); longer legend lines are cut.
pub(crate) const MAX_WIDTH: u32 = 2200;
/// Widest a title may make a picture before it wraps.
pub(crate) const MAX_TITLE_WIDTH: u32 = 1024;

/// The image pixel of a colour.
pub(crate) fn px(c: Rgb) -> image::Rgb<u8> {
    image::Rgb([c.0, c.1, c.2])
}

/// A white picture of `width` × `height` (at least 1 × 1).
pub(crate) fn canvas(width: u32, height: u32) -> RgbImage {
    RgbImage::from_pixel(width.max(1), height.max(1), px(BACKGROUND))
}

/// Fills the rectangle at (`x`, `y`) of `w` × `h` with `colour`, clipped to
/// the image: any part outside it, or a negative size, draws nothing.
pub(crate) fn fill_rect(img: &mut RgbImage, x: i64, y: i64, w: i64, h: i64, colour: Rgb) {
    let x0 = x.max(0);
    let y0 = y.max(0);
    let x1 = x.saturating_add(w).min(i64::from(img.width()));
    let y1 = y.saturating_add(h).min(i64::from(img.height()));
    let p = px(colour);
    for yy in y0..y1 {
        for xx in x0..x1 {
            // Both are within 0..width and 0..height here.
            if let (Ok(xu), Ok(yu)) = (u32::try_from(xx), u32::try_from(yy)) {
                img.put_pixel(xu, yu, p);
            }
        }
    }
}

/// The title and subtitle, wrapped on words to a picture's width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header {
    title: Vec<String>,
    subtitle: Vec<String>,
}

impl Header {
    /// The width a title and subtitle ask for: all of it up to
    /// [`MAX_TITLE_WIDTH`] (they wrap beyond).
    pub(crate) fn wants(title: &str, subtitle: &str) -> u32 {
        (text::width(title, 2).max(text::width(subtitle, 1)) + 2 * MARGIN).min(MAX_TITLE_WIDTH)
    }

    /// `title` (font doubled) and `subtitle` wrapped to a picture `width` wide.
    pub(crate) fn new(title: &str, subtitle: &str, width: u32) -> Header {
        let room = width.saturating_sub(2 * MARGIN);
        let chars = |scale: u32| (room / (text::GLYPH * scale)).max(1) as usize;
        Header {
            title: text::wrap(title, chars(2)),
            subtitle: text::wrap(subtitle, chars(1)),
        }
    }

    /// Height from the top edge to the first thing under the header.
    pub(crate) fn height(&self) -> u32 {
        let n = |v: &Vec<String>| u32::try_from(v.len()).unwrap_or(u32::MAX);
        MARGIN
            .saturating_add(n(&self.title).max(1).saturating_mul(TITLE_LINE))
            .saturating_add(n(&self.subtitle).max(1).saturating_mul(LINE))
            .saturating_add(4)
    }

    /// Draws the title and subtitle at the top left.
    pub(crate) fn draw(&self, c: &mut dyn Canvas) {
        let x = i64::from(MARGIN);
        let mut y = i64::from(MARGIN);
        c.begin("title");
        for line in &self.title {
            c.text(x, y, line, 2, INK);
            y += i64::from(TITLE_LINE);
        }
        if self.title.is_empty() {
            y += i64::from(TITLE_LINE);
        }
        for line in &self.subtitle {
            c.text(x, y, line, 1, INK);
            y += i64::from(LINE);
        }
        c.end();
    }
}

/// Draws a legend line: a swatch of `colour`, then `label`, at `y`, the
/// label cut to end before `right`.
pub(crate) fn draw_legend_line(c: &mut dyn Canvas, y: u32, colour: Rgb, label: &str, right: u32) {
    c.rect(
        i64::from(MARGIN),
        i64::from(y),
        i64::from(SWATCH),
        i64::from(SWATCH),
        colour,
    );
    let room = right.saturating_sub(legend_text_x()) / text::GLYPH;
    let label = text::fit(label, room as usize);
    c.text(i64::from(legend_text_x()), i64::from(y) + 1, &label, 1, INK);
}

/// Where the text of a legend line starts.
pub(crate) fn legend_text_x() -> u32 {
    MARGIN + SWATCH + 6
}

/// Width a legend line asks for.
pub(crate) fn legend_line_width(label: &str) -> u32 {
    legend_text_x() + text::width(label, 1) + MARGIN
}

/// A number for a label: an integer when it is one, else two decimals
/// (exponent form when very large).
pub(crate) fn format_number(v: f64) -> String {
    if !v.is_finite() {
        return "?".to_string();
    }
    if v.abs() >= 1e15 {
        format!("{v:.3e}")
    } else if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Pixels of `img` equal to `c`.
    pub(crate) fn count(img: &RgbImage, c: Rgb) -> usize {
        img.pixels().filter(|p| **p == px(c)).count()
    }

    #[test]
    fn fill_rect_clips() {
        let mut img = canvas(4, 3);
        fill_rect(&mut img, -2, -2, 100, 100, Rgb(1, 2, 3));
        assert_eq!(count(&img, Rgb(1, 2, 3)), 12);
        let mut img = canvas(4, 3);
        fill_rect(&mut img, 3, 2, 5, 5, Rgb(1, 2, 3));
        fill_rect(&mut img, 10, 10, 5, 5, Rgb(1, 2, 3));
        fill_rect(&mut img, 1, 1, -5, 2, Rgb(1, 2, 3));
        fill_rect(
            &mut img,
            i64::MAX,
            i64::MIN,
            i64::MAX,
            i64::MAX,
            Rgb(1, 2, 3),
        );
        assert_eq!(count(&img, Rgb(1, 2, 3)), 1);
        assert_eq!(img.get_pixel(3, 2), &px(Rgb(1, 2, 3)));
    }

    #[test]
    fn encode_is_png_and_decodes() {
        let mut img = canvas(37, 21);
        fill_rect(&mut img, 3, 4, 5, 6, Rgb(10, 200, 30));
        let bytes = encode(&img).unwrap_or_default();
        assert!(bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a]));
        let back = image::load_from_memory(&bytes).map(|i| i.to_rgb8());
        assert!(back.is_ok());
        if let Ok(back) = back {
            assert_eq!(back.dimensions(), (37, 21));
            assert_eq!(back, img);
        }
    }

    #[test]
    fn headers_wrap_to_the_width() {
        let h = Header::new("a title of several words", "sub", 8 * 16 + 2 * MARGIN);
        assert_eq!(h.title, ["a title", "of", "several", "words"]);
        assert_eq!(h.height(), MARGIN + 4 * TITLE_LINE + LINE + 4);
        let one = Header::new("t", "s", 600);
        assert_eq!(one.height(), MARGIN + 2 * text::GLYPH + 4 + text::GLYPH + 8);
        assert_eq!(Header::wants("t", "s"), 2 * text::GLYPH + 2 * MARGIN);
        assert_eq!(Header::wants(&"x".repeat(500), ""), MAX_TITLE_WIDTH);
    }

    #[test]
    fn numbers() {
        assert_eq!(format_number(12.0), "12");
        assert_eq!(format_number(-3.0), "-3");
        assert_eq!(format_number(1.5), "1.50");
        assert_eq!(format_number(f64::NAN), "?");
        assert_eq!(format_number(2e20), "2.000e20");
    }
}

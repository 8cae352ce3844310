//! Pictures as PNG: a [`Raster`](innodb_analysis::pictures::Raster) (a map of
//! a tablespace) or a [`Chart`](innodb_analysis::pictures::Chart) drawn into an
//! RGB image, and the image encoded as PNG bytes.
//!
//! Text is drawn with an embedded 8×8 bitmap font (no system font), dark
//! grey on white. Every picture has a title (font at twice its size), a
//! subtitle, axis labels and a legend. All drawing clips at the image's
//! edges, so no input makes it panic.

mod chart;
mod raster;
mod text;

/// The `image` crate, so that callers need no dependency of their own.
pub use image;

pub use chart::chart_image;
pub use raster::{cell_rect, raster_image, raster_layout, RasterLayout};

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
/// Side of a legend swatch.
pub(crate) const SWATCH: u32 = 10;
/// Narrowest picture.
pub(crate) const MIN_WIDTH: u32 = 480;
/// Widest picture that text alone may ask for (a map or a plot of many
/// cells or groups may be wider).
pub(crate) const MAX_WIDTH: u32 = 2200;
/// Height of the title and subtitle block, from the top edge.
pub(crate) const HEADER_H: u32 = MARGIN + 2 * text::GLYPH + 4 + text::GLYPH + 8;

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

/// Draws the title (font doubled) and the subtitle at the top left.
pub(crate) fn draw_header(img: &mut RgbImage, title: &str, subtitle: &str) {
    let x = i64::from(MARGIN);
    text::draw(img, x, i64::from(MARGIN), title, 2, INK);
    text::draw(
        img,
        x,
        i64::from(MARGIN + 2 * text::GLYPH + 4),
        subtitle,
        1,
        INK,
    );
}

/// Width the header asks for.
pub(crate) fn header_width(title: &str, subtitle: &str) -> u32 {
    text::width(title, 2).max(text::width(subtitle, 1))
}

/// Draws a legend line: a swatch of `colour`, then `label`, at `y`.
pub(crate) fn draw_legend_line(img: &mut RgbImage, y: u32, colour: Rgb, label: &str) {
    fill_rect(
        img,
        i64::from(MARGIN),
        i64::from(y),
        i64::from(SWATCH),
        i64::from(SWATCH),
        colour,
    );
    text::draw(
        img,
        i64::from(legend_text_x()),
        i64::from(y) + 1,
        label,
        1,
        INK,
    );
}

/// Where the text of a legend line starts.
pub(crate) fn legend_text_x() -> u32 {
    MARGIN + SWATCH + 6
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
    fn numbers() {
        assert_eq!(format_number(12.0), "12");
        assert_eq!(format_number(-3.0), "-3");
        assert_eq!(format_number(1.5), "1.50");
        assert_eq!(format_number(f64::NAN), "?");
        assert_eq!(format_number(2e20), "2.000e20");
    }
}

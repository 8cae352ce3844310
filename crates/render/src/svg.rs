//! Pictures as SVG documents: the same layout and the same drawing code as
//! the PNGs of [`crate::png`] (a [`Canvas`] that writes elements instead of
//! pixels), so a map or chart pasted into a report or a slide scales
//! without blur and shows the same cells, labels and legend.
//!
//! Rectangles are `<rect>` elements, text is `<text>` in a monospace font
//! stretched (`textLength`) to the width the bitmap font gives it, so every
//! label keeps the place the layout measured for it; each part of the
//! picture (title, labels, map, legend …) is a `<g>` with an `id`.

use crate::png::text::{width, GLYPH};
use crate::png::{Canvas, BACKGROUND};
use innodb_analysis::pictures::{Chart, Raster, Rgb};
use std::fmt::Write;

/// A [`Canvas`] that collects SVG elements.
struct SvgCanvas {
    body: String,
    width: u32,
    height: u32,
}

impl SvgCanvas {
    fn new(width: u32, height: u32) -> SvgCanvas {
        SvgCanvas {
            body: String::new(),
            width: width.max(1),
            height: height.max(1),
        }
    }

    /// The whole document: the header, a white background, the elements.
    fn finish(self) -> String {
        let mut s = String::with_capacity(self.body.len() + 400);
        let _ = writeln!(
            s,
            r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xml:space="preserve" width="{w}" height="{h}" viewBox="0 0 {w} {h}" shape-rendering="crispEdges">
<rect x="0" y="0" width="{w}" height="{h}" fill="{bg}"/>"#,
            w = self.width,
            h = self.height,
            bg = hex(BACKGROUND)
        );
        s.push_str(&self.body);
        s.push_str("</svg>\n");
        s
    }

    /// `(x, y, w, h)` clipped to the picture, or `None` when nothing of it
    /// is inside (the PNG clips the same way).
    fn clip(&self, x: i64, y: i64, w: i64, h: i64) -> Option<(i64, i64, i64, i64)> {
        let x0 = x.max(0);
        let y0 = y.max(0);
        let x1 = x.saturating_add(w).min(i64::from(self.width));
        let y1 = y.saturating_add(h).min(i64::from(self.height));
        (x1 > x0 && y1 > y0).then_some((x0, y0, x1 - x0, y1 - y0))
    }
}

impl Canvas for SvgCanvas {
    fn rect(&mut self, x: i64, y: i64, w: i64, h: i64, colour: Rgb) {
        if let Some((x, y, w, h)) = self.clip(x, y, w, h) {
            let _ = writeln!(
                self.body,
                r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{}"/>"#,
                hex(colour)
            );
        }
    }

    fn text(&mut self, x: i64, y: i64, s: &str, scale: u32, colour: Rgb) {
        if s.is_empty() || y >= i64::from(self.height) || x >= i64::from(self.width) {
            return;
        }
        let scale = scale.max(1);
        // The bitmap font's 8 × 8 cell: the baseline one pixel above its
        // bottom, the font size its height.
        let size = GLYPH * scale;
        let baseline = y + i64::from(size) - i64::from(scale);
        let _ = writeln!(
            self.body,
            r#"<text x="{x}" y="{baseline}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="{size}" textLength="{}" lengthAdjust="spacingAndGlyphs" fill="{}">{}</text>"#,
            width(s, scale),
            hex(colour),
            escape(s)
        );
    }

    fn begin(&mut self, id: &str) {
        let _ = writeln!(self.body, r#"<g id="{}">"#, escape(id));
    }

    fn end(&mut self) {
        self.body.push_str("</g>\n");
    }
}

/// `#rrggbb`.
fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// `s` as XML character data: markup characters escaped, and characters
/// XML 1.0 does not allow (controls) drawn as `?`, as the bitmap font
/// draws what it has no glyph for.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// `r` as an SVG document, laid out as [`crate::png::raster_image`] lays it.
pub fn raster_svg(r: &Raster) -> String {
    let l = crate::png::raster_layout(r);
    let mut c = SvgCanvas::new(l.width, l.height);
    crate::png::draw_raster(&mut c, r, &l);
    c.finish()
}

/// `c` as an SVG document, laid out as [`crate::png::chart_image`] lays it.
pub fn chart_svg(c: &Chart) -> String {
    let l = crate::png::chart_layout(c);
    let mut canvas = SvgCanvas::new(l.width, l.height);
    crate::png::draw_chart(&mut canvas, c, &l);
    canvas.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_controls_are_escaped() {
        assert_eq!(
            escape("a<b & \"c\"\x1b]0;x\x07"),
            "a&lt;b &amp; &quot;c&quot;?]0;x?"
        );
    }

    #[test]
    fn rects_clip_to_the_picture() {
        let mut c = SvgCanvas::new(10, 5);
        c.rect(-3, -3, 5, 5, Rgb(1, 2, 3));
        c.rect(20, 0, 5, 5, Rgb(1, 2, 3));
        c.rect(8, 4, 5, 5, Rgb(0xff, 0, 0x10));
        assert_eq!(
            c.body,
            "<rect x=\"0\" y=\"0\" width=\"2\" height=\"2\" fill=\"#010203\"/>\n\
             <rect x=\"8\" y=\"4\" width=\"2\" height=\"1\" fill=\"#ff0010\"/>\n"
        );
    }
}

//! Pictures in the terminal: rasters as rows of coloured blocks (ANSI
//! 256 colours) and charts as horizontal bars. Without colour, cells are
//! drawn as their legend symbols, so the output stays readable in a pipe.

use innodb_analysis::pictures::{palette, Chart, ChartKind, LevelMeaning, Raster, Rgb, NO_CLASS};
use std::fmt::Write;

/// The xterm 256-colour index nearest to `c`: the 6×6×6 cube or the grey ramp.
pub fn xterm256(c: Rgb) -> u8 {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let nearest = |v: u8| -> usize {
        LEVELS
            .iter()
            .enumerate()
            .min_by_key(|(_, &l)| (i32::from(l) - i32::from(v)).abs())
            .map_or(0, |(i, _)| i)
    };
    let (r, g, b) = (nearest(c.0), nearest(c.1), nearest(c.2));
    let cube = |i: usize| LEVELS.get(i).copied().unwrap_or(0);
    let dist = |a: (u8, u8, u8)| -> i32 {
        let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).pow(2);
        d(a.0, c.0) + d(a.1, c.1) + d(a.2, c.2)
    };
    let cube_idx = (16 + 36 * r + 6 * g + b) as u8;
    let cube_dist = dist((cube(r), cube(g), cube(b)));
    let mean = (u32::from(c.0) + u32::from(c.1) + u32::from(c.2)) / 3;
    let grey_i = (mean.saturating_sub(8) / 10).min(23) as u8;
    let grey_v = 8 + 10 * grey_i;
    if dist((grey_v, grey_v, grey_v)) < cube_dist {
        232 + grey_i
    } else {
        cube_idx
    }
}

/// `text` in the foreground colour `c`.
fn paint(out: &mut String, c: Rgb, text: &str) {
    let _ = write!(out, "\x1b[38;5;{}m{text}\x1b[0m", xterm256(c));
}

/// The colour of the dots drawn for empty pages.
const DIM: Rgb = Rgb(0x8a, 0x8a, 0x8a);

/// Eighth blocks, from one eighth to full: bar heights and bar ends.
const UPPER_HEIGHTS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const LEFT_WIDTHS: [char; 8] = ['▏', '▎', '▍', '▌', '▋', '▊', '▉', '█'];

/// The block of height `level` (0 to 1), at least one eighth.
fn height_block(level: f32) -> char {
    let i = ((level.clamp(0.0, 1.0) * 8.0).ceil() as usize).clamp(1, 8) - 1;
    UPPER_HEIGHTS.get(i).copied().unwrap_or('█')
}

/// A horizontal bar `value / max` of `width` cells, in eighths.
fn bar(value: f64, max: f64, width: usize) -> String {
    if max <= 0.0 || value <= 0.0 {
        return String::new();
    }
    let eighths = ((value / max).min(1.0) * (width * 8) as f64).round() as usize;
    let eighths = eighths.max(1);
    let mut s = "█".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        if let Some(c) = LEFT_WIDTHS.get(eighths % 8 - 1) {
            s.push(*c);
        }
    }
    s
}

/// Text from the data (titles, index names, labels) with its control
/// characters escaped, here where it is placed: the colour escapes this
/// module writes are then the only escapes in the output.
fn safe(s: &str) -> std::borrow::Cow<'_, str> {
    crate::safe::escape_all_controls(s)
}

/// A raster: title, legend with counts and shares, then one line per row
/// with its first page number on the left; the histogram under it.
pub fn raster(r: &Raster, colour: bool) -> String {
    let mut out = format!("{}\n{}\n\n", safe(&r.title), safe(&r.subtitle));
    let last = r.row_first_page(r.rows().saturating_sub(1));
    let width = last.to_string().len();
    for row in 0..r.rows() {
        let _ = write!(out, "{:>width$} ", r.row_first_page(row));
        // One escape per run of equal glyphs keeps the output small.
        let mut run: Option<(Rgb, String)> = None;
        for cell in r.row(row) {
            let item = (cell.class != NO_CLASS).then(|| r.item(cell)).flatten();
            let (c, glyph) = match (item, colour) {
                (None, _) => (None, ' '),
                (Some(i), false) => (None, i.symbol),
                // Empty pages as faint dots: a full block would glare on a
                // dark terminal and vanish on a light one.
                (Some(i), true) if i.colour == palette::EMPTY => (Some(DIM), '·'),
                (Some(i), true) if r.level_meaning == LevelMeaning::Fill => {
                    (Some(i.colour), height_block(cell.level))
                }
                (Some(i), true) => (Some(i.colour), '█'),
            };
            match (&mut run, c) {
                (Some((rc, text)), Some(c)) if *rc == c => text.push(glyph),
                (_, c) => {
                    if let Some((rc, text)) = run.take() {
                        paint(&mut out, rc, &text);
                    }
                    match c {
                        Some(c) => run = Some((c, glyph.to_string())),
                        None => out.push(glyph),
                    }
                }
            }
        }
        if let Some((rc, text)) = run.take() {
            paint(&mut out, rc, &text);
        }
        out.push('\n');
    }
    if let Some(h) = &r.histogram {
        let _ = writeln!(out, "\n{}", safe(&h.title));
        let max = h.counts.iter().copied().max().unwrap_or(0);
        out.push_str("  ");
        for (i, &n) in h.counts.iter().enumerate() {
            let glyph = if n == 0 || max == 0 {
                ' '
            } else {
                height_block(n as f32 / max as f32)
            };
            match (colour, h.colours.get(i)) {
                (true, Some(&c)) if n > 0 => paint(&mut out, c, &glyph.to_string()),
                _ => out.push(glyph),
            }
        }
        let _ = writeln!(
            out,
            "\n  LSN {} .. {} (tallest bar: {})",
            safe(&h.low_label),
            safe(&h.high_label),
            innodb_analysis::pictures::count(max, "page", "pages")
        );
    }
    out.push('\n');
    let count_w = r
        .legend
        .iter()
        .map(|i| i.pages.to_string().len())
        .max()
        .unwrap_or(1);
    for item in &r.legend {
        out.push_str("  ");
        if colour && item.colour == palette::EMPTY {
            paint(&mut out, DIM, "··");
        } else if colour {
            paint(&mut out, item.colour, "██");
        } else {
            let _ = write!(out, "{} ", item.symbol);
        }
        let unit = if item.pages == 1 { "page " } else { "pages" };
        let _ = writeln!(
            out,
            " {:>count_w$} {unit} {:>6.2}%  {}",
            item.pages,
            innodb_analysis::percent(item.share),
            safe(&item.label)
        );
    }
    out
}

/// Width of the longest bar of a chart, in cells.
const BAR_WIDTH: usize = 50;

/// A chart as horizontal bars: bar charts one line per category and
/// series, step charts one line per point.
pub fn chart(c: &Chart, colour: bool) -> String {
    let mut out = format!(
        "{}\n{}\n{} by {}\n\n",
        safe(&c.title),
        safe(&c.subtitle),
        safe(&c.y_label),
        safe(&c.x_label)
    );
    let max = c.y_max();
    let value = |v: f64| -> String {
        if v.fract() == 0.0 {
            format!("{v:.0}")
        } else {
            format!("{v:.2}")
        }
    };
    let draw = |out: &mut String, colour_of: Rgb, v: f64| {
        let b = bar(v, max, BAR_WIDTH);
        if colour && !b.is_empty() {
            paint(out, colour_of, &b);
        } else {
            out.push_str(&b);
        }
        let _ = writeln!(out, " {}", value(v));
    };
    match c.kind {
        ChartKind::Bars => {
            let name_w = c
                .series
                .iter()
                .map(|s| safe(&s.name).chars().count())
                .max()
                .unwrap_or(0);
            for (i, cat) in c.categories.iter().enumerate() {
                let _ = writeln!(out, "{}", safe(cat));
                for s in &c.series {
                    let v = s
                        .points
                        .iter()
                        .find(|p| p.0 as usize == i)
                        .map_or(0.0, |p| p.1);
                    let _ = write!(out, "  {:<name_w$} ", safe(&s.name));
                    draw(&mut out, s.colour, v);
                }
            }
        }
        ChartKind::Steps => {
            for s in &c.series {
                let _ = writeln!(out, "{}", safe(&s.name));
                let x_w = s.points.iter().map(|p| value(p.0).len()).max().unwrap_or(1);
                for &(x, y) in &s.points {
                    let _ = write!(out, "  {:>x_w$} ", value(x));
                    draw(&mut out, s.colour, y);
                }
            }
        }
    }
    out.push('\n');
    for s in &c.series {
        out.push_str("  ");
        if colour {
            paint(&mut out, s.colour, "██");
            out.push(' ');
        }
        let _ = writeln!(out, "{}", s.legend);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xterm_colours_of_pure_and_grey_colours() {
        assert_eq!(xterm256(Rgb(255, 0, 0)), 196);
        assert_eq!(xterm256(Rgb(0, 0, 255)), 21);
        assert_eq!(xterm256(Rgb(0, 0, 0)), 16);
        // #808080 is on the grey ramp (244); #d9d9d9 nearer the cube's #d7d7d7.
        assert_eq!(xterm256(Rgb(0x80, 0x80, 0x80)), 244);
        assert_eq!(xterm256(Rgb(0xd9, 0xd9, 0xd9)), 188);
    }

    #[test]
    fn bars_scale_in_eighths() {
        assert_eq!(bar(1.0, 1.0, 2), "██");
        assert_eq!(bar(1.0, 2.0, 2), "█");
        assert_eq!(bar(1.0, 16.0, 2), "▏");
        assert_eq!(bar(0.0, 16.0, 2), "");
        assert_eq!(height_block(0.0), '▁');
        assert_eq!(height_block(1.0), '█');
        assert_eq!(height_block(0.5), '▄');
    }
}

//! A [`Raster`] laid out and drawn: the header, a line of column offsets,
//! the map (one row of cells per raster row, every k-th row's first page on
//! the left), the histogram or the fill scale when there is one, then the
//! legend.

use super::labels::{self, Placed};
use super::{
    canvas, draw_legend_line, legend_line_width, text, Canvas, Header, AXIS, INK, LINE, MARGIN,
    MAX_WIDTH, MIN_WIDTH, SWATCH,
};
use image::RgbImage;
use innodb_analysis::pictures::{shade, Histogram, LevelMeaning, Raster, FILL_SCALE};

/// Width of the map that cell widths aim at.
const MAP_WIDTH: u32 = 1024;
/// Widest (and tallest) cell.
const MAX_CELL: u32 = 16;
/// Tallest map: 512 rows (the most a raster has) of 4 px.
pub(crate) const MAX_MAP_HEIGHT: u32 = 2048;
/// Height of the histogram's bars at their highest.
const HIST_HEIGHT: u32 = 64;
/// Narrowest histogram.
const HIST_MIN_WIDTH: u32 = 256;
/// Space between the row labels and the map.
const LABEL_GAP: u32 = 6;
/// Space under the map (more than the overflow of a row label past the
/// last row when rows are thinner than a label).
const MAP_GAP: u32 = 10;
/// A step of the fill scale: width and space after it.
const SCALE_STEP_W: u32 = 20;
const SCALE_STEP_GAP: u32 = 2;
/// Rows of the fill scale at most (one per index).
const MAX_SCALE_ROWS: usize = 16;

/// Where the parts of a raster's picture are, in pixels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RasterLayout {
    /// Width of a cell, grid line included: 1024 / columns, from 1 to 16.
    pub cell_w: u32,
    /// Height of a cell, grid line included: the cell width (at least 10),
    /// less when the rows would make the map taller than 2,048 px (at least 1).
    pub cell_h: u32,
    /// Left edge of the map (right of the row labels).
    pub map_x: u32,
    /// Top edge of the map.
    pub map_y: u32,
    /// Every `row_step`-th row is labelled with its first page (a power of
    /// two: rows thinner than a label are not each labelled).
    pub row_step: u32,
    /// Width of the picture.
    pub width: u32,
    /// Height of the picture.
    pub height: u32,
    /// Top of the legend: item `i`'s 10 × 10 swatch is at x = 8,
    /// y = `legend_y` + 12 · `i`.
    pub legend_y: u32,
    header: Header,
}

impl RasterLayout {
    fn map_width(&self, r: &Raster) -> u32 {
        r.columns.saturating_mul(self.cell_w)
    }

    fn map_height(&self, r: &Raster) -> u32 {
        rows(r).saturating_mul(self.cell_h)
    }

    /// Top of the block under the map (the histogram, the fill scale, or
    /// the legend).
    fn below_map(&self, r: &Raster) -> u32 {
        self.map_y
            .saturating_add(self.map_height(r))
            .saturating_add(MAP_GAP)
    }
}

fn rows(r: &Raster) -> u32 {
    u32::try_from(r.rows()).unwrap_or(u32::MAX)
}

/// Legend lines, aligned: symbol, label, pages, percent.
fn legend_lines(r: &Raster) -> Vec<String> {
    let lw = r
        .legend
        .iter()
        .map(|i| i.label.chars().count())
        .max()
        .unwrap_or(0);
    let pw = r
        .legend
        .iter()
        .map(|i| i.pages.to_string().len())
        .max()
        .unwrap_or(0);
    r.legend
        .iter()
        .map(|i| {
            let unit = if i.pages == 1 { "page " } else { "pages" };
            format!(
                "{} {:<lw$}  {:>pw$} {unit}  {:>6.2}%",
                i.symbol,
                i.label,
                i.pages,
                innodb_analysis::percent(i.share)
            )
        })
        .collect()
}

/// Width of a histogram's bars and of the whole histogram.
fn histogram_geometry(h: &Histogram, map_x: u32, map_w: u32) -> (u32, u32) {
    let n = u32::try_from(h.counts.len()).unwrap_or(u32::MAX);
    if n == 0 {
        return (0, map_w.clamp(HIST_MIN_WIDTH, MAP_WIDTH));
    }
    let target = map_w.clamp(HIST_MIN_WIDTH, MAP_WIDTH);
    let bar = (target / n).clamp(1, 32);
    let room = MAX_WIDTH.saturating_sub(map_x + MARGIN).max(HIST_MIN_WIDTH);
    (bar, n.saturating_mul(bar).min(room))
}

/// Height of the histogram block: title, bars, baseline, end labels.
fn histogram_height() -> u32 {
    LINE + HIST_HEIGHT + 2 + LINE + 4
}

/// The legend items of a fill map drawn on its fill scale: the shaded ones.
fn scale_rows(r: &Raster) -> Vec<usize> {
    if r.level_meaning != LevelMeaning::Fill {
        return Vec::new();
    }
    r.legend
        .iter()
        .enumerate()
        .filter(|(_, i)| i.shaded)
        .map(|(n, _)| n)
        .take(MAX_SCALE_ROWS)
        .collect()
}

/// The title of the fill scale.
const SCALE_TITLE: &str = "page fill (record bytes / usable bytes), each index in its colour";

/// Left edge of the fill scale's first step.
fn scale_x() -> u32 {
    MARGIN + 2 * text::GLYPH
}

/// Height of the fill scale block: title, a row per index, tick labels.
fn scale_height(n: usize) -> u32 {
    if n == 0 {
        return 0;
    }
    let n = u32::try_from(n).unwrap_or(u32::MAX);
    LINE + n.saturating_mul(LINE) + LINE + 4
}

/// The fill scale's tick labels, under its steps, thinned not to touch.
fn scale_labels(y: i64) -> Vec<Placed> {
    let pitch = i64::from(SCALE_STEP_W + SCALE_STEP_GAP);
    let at = |i: usize| {
        let level = FILL_SCALE.get(i).copied().unwrap_or(1.0);
        let cx = i64::from(scale_x()) + i as i64 * pitch + i64::from(SCALE_STEP_W) / 2;
        Placed::centred(cx, y, format!("{}%", (level * 100.0).round()))
    };
    let k = labels::step(FILL_SCALE.len(), false, |i, j| {
        at(i).clashes(&at(j), labels::GAP)
    });
    (0..FILL_SCALE.len()).step_by(k).map(at).collect()
}

/// The layout of `r`'s picture.
pub fn raster_layout(r: &Raster) -> RasterLayout {
    let cell_w = MAP_WIDTH
        .checked_div(r.columns)
        .unwrap_or(MAX_CELL)
        .clamp(1, MAX_CELL);
    let n_rows = rows(r);
    // Square cells, but rows at least MIN_ROW_H tall while the map stays
    // within MAX_MAP_HEIGHT (so that narrow cells still give rows that
    // each carry their page-number label).
    let fit = (MAX_MAP_HEIGHT / n_rows.max(1)).max(1);
    let cell_h = cell_w.max(MIN_ROW_H).min(fit);
    let row_step = row_step(r.rows(), cell_h);
    let label_w = (0..r.rows())
        .step_by(row_step as usize)
        .map(|row| text::width(&r.row_first_page(row).to_string(), 1))
        .chain([text::width("page", 1)])
        .max()
        .unwrap_or(0);
    let map_x = MARGIN + label_w + LABEL_GAP;
    let mut l = RasterLayout {
        cell_w,
        cell_h,
        map_x,
        map_y: 0,
        row_step,
        width: 0,
        height: 0,
        legend_y: 0,
        header: Header::new("", "", 0),
    };
    let map_w = l.map_width(r);
    let mut right = map_x.saturating_add(map_w).saturating_add(MARGIN);
    let mut text_w = Header::wants(&r.title, &r.subtitle);
    let mut below = 0;
    if let Some(h) = &r.histogram {
        let (_, hist_w) = histogram_geometry(h, map_x, map_w);
        right = right.max(map_x.saturating_add(hist_w).saturating_add(MARGIN));
        text_w = text_w.max(map_x + text::width(&h.title, 1) + MARGIN);
        below += histogram_height();
    }
    let scale_n = scale_rows(r).len();
    if scale_n > 0 {
        text_w = text_w.max(MARGIN + text::width(SCALE_TITLE, 1) + MARGIN);
        below += scale_height(scale_n);
    }
    for line in legend_lines(r) {
        text_w = text_w.max(legend_line_width(&line));
    }
    l.width = right.max(text_w.min(MAX_WIDTH)).max(MIN_WIDTH);
    l.header = Header::new(&r.title, &r.subtitle, l.width);
    l.map_y = l.header.height() + LINE + 2;
    l.legend_y = l.below_map(r).saturating_add(below);
    let legend_h = u32::try_from(r.legend.len())
        .unwrap_or(u32::MAX)
        .saturating_mul(LINE);
    l.height = l.legend_y.saturating_add(legend_h).saturating_add(MARGIN);
    l
}

/// Rows are at least this tall when the map height allows.
const MIN_ROW_H: u32 = 10;

/// Every how many rows of `cell_h` px a row is labelled: the smallest power
/// of two at which labels do not touch.
fn row_step(rows: usize, cell_h: u32) -> u32 {
    let at = |i: usize| Placed::new(0, i as i64 * i64::from(cell_h), "0");
    let k = labels::step(rows, true, |i, j| at(i).clashes(&at(j), labels::GAP));
    u32::try_from(k.max(1)).unwrap_or(u32::MAX)
}

/// The labels left of the map: every `row_step`-th row's first page,
/// right-aligned, centred on its row.
pub(crate) fn row_labels(l: &RasterLayout, r: &Raster) -> Vec<Placed> {
    let right = i64::from(l.map_x) - i64::from(LABEL_GAP);
    let centre = (i64::from(l.cell_h) - i64::from(text::GLYPH)) / 2;
    (0..r.rows())
        .step_by(l.row_step.max(1) as usize)
        .map(|row| {
            let y = i64::from(l.map_y) + row as i64 * i64::from(l.cell_h) + centre;
            Placed::right_aligned(right, y, r.row_first_page(row).to_string())
        })
        .collect()
}

/// The labels above the map: "page" over the row labels, the page offset
/// of the first and of the last column over the map's ends.
pub(crate) fn column_labels(l: &RasterLayout, r: &Raster) -> Vec<Placed> {
    let y = i64::from(l.map_y) - i64::from(LINE) - 2;
    let map_x = i64::from(l.map_x);
    let mut out = vec![Placed::right_aligned(
        map_x - i64::from(LABEL_GAP),
        y,
        "page",
    )];
    if r.columns == 0 {
        return out;
    }
    let first = Placed::new(map_x, y, "+0");
    if r.columns > 1 {
        let last = u64::from(r.columns - 1) * u64::from(r.pages_per_cell);
        let right = map_x + i64::from(l.map_width(r));
        let label = Placed::right_aligned(right, y, format!("+{last}"));
        if !label.clashes(&first, labels::GAP) {
            out.push(label);
        }
    }
    out.insert(1, first);
    out
}

/// Every label around `r`'s map in the layout `l`: those above the map
/// and every drawn row label (no two closer than [`labels::GAP`]).
pub fn raster_labels(l: &RasterLayout, r: &Raster) -> Vec<Placed> {
    let mut all = column_labels(l, r);
    all.extend(row_labels(l, r));
    all
}

/// The rectangle (x, y, width, height) painted for cell `index` of
/// `r.cells`: the cell less its 1-px grid line on the right (bottom) when
/// cells are at least 4 px wide (high). Its centre is always painted.
pub fn cell_rect(l: &RasterLayout, r: &Raster, index: usize) -> (u32, u32, u32, u32) {
    let columns = u64::from(r.columns.max(1));
    let i = u64::try_from(index).unwrap_or(u64::MAX);
    let (row, col) = (i / columns, i % columns);
    let x = u64::from(l.map_x) + col * u64::from(l.cell_w);
    let y = u64::from(l.map_y).saturating_add(row.saturating_mul(u64::from(l.cell_h)));
    let w = l.cell_w - u32::from(l.cell_w >= 4);
    let h = l.cell_h - u32::from(l.cell_h >= 4);
    (
        u32::try_from(x).unwrap_or(u32::MAX),
        u32::try_from(y).unwrap_or(u32::MAX),
        w,
        h,
    )
}

/// `r` as an image.
pub fn raster_image(r: &Raster) -> RgbImage {
    let l = raster_layout(r);
    let mut img = canvas(l.width, l.height);
    draw_raster(&mut img, r, &l);
    img
}

/// `r` drawn on `c`: title, subtitle, the map with its row and column
/// labels, the histogram or the fill scale, the legend.
pub(crate) fn draw_raster(c: &mut dyn Canvas, r: &Raster, l: &RasterLayout) {
    l.header.draw(c);
    c.begin("labels");
    for p in column_labels(l, r).iter().chain(&row_labels(l, r)) {
        c.text(p.x, p.y, &p.text, 1, INK);
    }
    if l.row_step > 1 {
        // A tick beside each labelled row says which row it is.
        for p in row_labels(l, r) {
            let y = p.y + p.h / 2;
            c.rect(i64::from(l.map_x) - 4, y, 3, 1, AXIS);
        }
    }
    c.end();
    c.begin("cells");
    let drawn = r.rows().saturating_mul(r.columns as usize);
    for (i, cell) in r.cells.iter().take(drawn).enumerate() {
        if let Some(colour) = r.cell_colour(cell) {
            let (x, y, w, h) = cell_rect(l, r, i);
            if y >= l.height {
                break;
            }
            c.rect(
                i64::from(x),
                i64::from(y),
                i64::from(w),
                i64::from(h),
                colour,
            );
        }
    }
    c.end();
    let mut y = l.below_map(r);
    if let Some(h) = &r.histogram {
        draw_histogram(c, l, r, h);
        y += histogram_height();
    }
    draw_fill_scale(c, r, y);
    c.begin("legend");
    for (i, line) in (0u32..).zip(legend_lines(r)) {
        let colour = r.legend.get(i as usize).map_or(INK, |item| item.colour);
        draw_legend_line(c, l.legend_y + i * LINE, colour, &line, l.width);
    }
    c.end();
}

/// Under the map of a fill map: the scale's title, for each index its
/// colour at 0 %, 10 %, …, 100 % fill beside its symbol, the percentages
/// under the last row.
fn draw_fill_scale(c: &mut dyn Canvas, r: &Raster, top: u32) {
    let items = scale_rows(r);
    if items.is_empty() {
        return;
    }
    c.begin("fill-scale");
    c.text(i64::from(MARGIN), i64::from(top), SCALE_TITLE, 1, INK);
    let mut y = i64::from(top + LINE);
    for &i in &items {
        let Some(item) = r.legend.get(i) else {
            continue;
        };
        c.text(i64::from(MARGIN), y + 1, &item.symbol.to_string(), 1, INK);
        for (k, &level) in (0i64..).zip(FILL_SCALE.iter()) {
            let x = i64::from(scale_x()) + k * i64::from(SCALE_STEP_W + SCALE_STEP_GAP);
            let colour = shade(item.colour, level);
            c.rect(x, y, i64::from(SCALE_STEP_W), i64::from(SWATCH), colour);
        }
        y += i64::from(LINE);
    }
    for p in scale_labels(y) {
        c.text(p.x, p.y, &p.text, 1, INK);
    }
    c.end();
}

/// Under the map: the histogram's title, its largest count at the top left,
/// a bar per bucket on a baseline, the low and high labels under its ends.
fn draw_histogram(c: &mut dyn Canvas, l: &RasterLayout, r: &Raster, h: &Histogram) {
    let (bar, hist_w) = histogram_geometry(h, l.map_x, l.map_width(r));
    let x0 = i64::from(l.map_x);
    let top = i64::from(l.below_map(r));
    c.begin("histogram");
    c.text(x0, top, &h.title, 1, INK);
    let bars_top = top + i64::from(LINE);
    let base = bars_top + i64::from(HIST_HEIGHT);
    let max = h.counts.iter().copied().max().unwrap_or(0);
    text::draw_right(
        c,
        x0 - i64::from(LABEL_GAP),
        bars_top,
        &max.to_string(),
        INK,
    );
    let gap = i64::from(bar >= 4);
    for (i, &count) in (0i64..).zip(&h.counts) {
        let x = x0 + i * i64::from(bar);
        if x >= x0 + i64::from(hist_w) {
            break;
        }
        if count == 0 || max == 0 {
            continue;
        }
        let height = ((count as f64 / max as f64) * f64::from(HIST_HEIGHT))
            .round()
            .max(1.0) as i64;
        let colour = h.colours.get(i as usize).copied().unwrap_or(INK);
        c.rect(x, base - height, i64::from(bar) - gap, height, colour);
    }
    c.rect(x0, base, i64::from(hist_w), 1, AXIS);
    let label_y = base + 4;
    let low = Placed::new(x0, label_y, h.low_label.as_str());
    let high = Placed::right_aligned(x0 + i64::from(hist_w), label_y, h.high_label.as_str());
    c.text(low.x, low.y, &low.text, 1, INK);
    if !high.clashes(&low, labels::GAP) {
        c.text(high.x, high.y, &high.text, 1, INK);
    }
    c.end();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::png::{encode, px, tests::count, BACKGROUND};
    use innodb_analysis::pictures::{Cell, LegendItem, Rgb, NO_CLASS};

    fn item(label: &str, colour: Rgb, pages: u64) -> LegendItem {
        LegendItem {
            label: label.to_string(),
            colour,
            symbol: 'x',
            pages,
            share: pages as f64 / 7.0,
            shaded: true,
        }
    }

    const RED: Rgb = Rgb(200, 30, 40);
    const GREEN: Rgb = Rgb(20, 160, 60);
    const BLUE: Rgb = Rgb(30, 60, 210);

    fn cell(class: u16, level: f32) -> Cell {
        Cell { class, level }
    }

    /// 2 rows × 4 columns, 3 classes, the last cell past the end of the file.
    fn tiny(meaning: LevelMeaning) -> Raster {
        Raster {
            title: "Page types".to_string(),
            subtitle: "t.ibd, 16 KiB pages, 7 pages".to_string(),
            columns: 4,
            pages_per_cell: 1,
            pages: 7,
            cells: vec![
                cell(0, 1.0),
                cell(1, 1.0),
                cell(2, 1.0),
                cell(0, 0.5),
                cell(1, 1.0),
                cell(2, 0.0),
                cell(0, 1.0),
                cell(NO_CLASS, 1.0),
            ],
            legend: vec![
                item("INDEX leaf", RED, 3),
                item("INDEX internal", GREEN, 2),
                item("free", BLUE, 1),
            ],
            level_meaning: meaning,
            histogram: None,
        }
    }

    fn at(img: &RgbImage, x: u32, y: u32) -> Rgb {
        let p = img.get_pixel(x, y);
        Rgb(p[0], p[1], p[2])
    }

    fn centre(l: &RasterLayout, r: &Raster, i: usize) -> (u32, u32) {
        let (x, y, w, h) = cell_rect(l, r, i);
        (x + w / 2, y + h / 2)
    }

    #[test]
    fn tiny_raster_layout_and_cells() {
        let r = tiny(LevelMeaning::Fill);
        let l = raster_layout(&r);
        assert_eq!((l.cell_w, l.cell_h), (16, 16));
        let img = raster_image(&r);
        assert_eq!(img.dimensions(), (l.width, l.height));
        assert!(l.width >= MIN_WIDTH);
        assert!(l.map_x + 4 * 16 <= l.width);
        // The map, then the fill scale (title, 3 rows, ticks), then the legend.
        assert_eq!(l.legend_y, l.map_y + 2 * 16 + MAP_GAP + scale_height(3));
        assert_eq!(l.height, l.legend_y + 3 * LINE + MARGIN);
        let want = [
            Some(RED),
            Some(GREEN),
            Some(BLUE),
            Some(shade(RED, 0.5)),
            Some(GREEN),
            Some(shade(BLUE, 0.0)),
            Some(RED),
            None,
        ];
        for (i, w) in want.iter().enumerate() {
            let (x, y) = centre(&l, &r, i);
            assert_eq!(at(&img, x, y), w.unwrap_or(BACKGROUND), "cell {i}");
        }
        // The grid line right of and under a cell stays background.
        let (x, y, w, h) = cell_rect(&l, &r, 0);
        assert_eq!((w, h), (15, 15));
        assert_eq!(at(&img, x + w, y), BACKGROUND);
        assert_eq!(at(&img, x, y + h), BACKGROUND);
        assert_eq!(cell_rect(&l, &r, 5).0, x + 16);
        assert_eq!(cell_rect(&l, &r, 5).1, y + 16);
    }

    #[test]
    fn fill_scale_shows_each_shaded_index_from_empty_to_full() {
        let mut r = tiny(LevelMeaning::Fill);
        r.legend[2].shaded = false;
        let l = raster_layout(&r);
        let img = raster_image(&r);
        let top = l.map_y + 2 * 16 + MAP_GAP;
        assert_eq!(l.legend_y, top + scale_height(2));
        for (row, colour) in (0u32..).zip([RED, GREEN]) {
            let y = top + LINE + row * LINE + SWATCH / 2;
            for (k, &level) in (0u32..).zip(FILL_SCALE.iter()) {
                let x = scale_x() + k * (SCALE_STEP_W + SCALE_STEP_GAP) + SCALE_STEP_W / 2;
                assert_eq!(at(&img, x, y), shade(colour, level), "row {row} step {k}");
            }
        }
        // The percentages under the scale do not touch, and end at 100 %.
        let ticks = scale_labels(0);
        assert_eq!(labels::first_clash(&ticks, labels::GAP), None);
        assert_eq!(ticks.first().map(|p| p.text.as_str()), Some("0%"));
        assert_eq!(ticks.last().map(|p| p.text.as_str()), Some("100%"));
        // No scale without fill levels.
        assert_eq!(raster_layout(&tiny(LevelMeaning::None)).legend_y, top);
    }

    #[test]
    fn no_meaning_draws_pure_colours() {
        let r = tiny(LevelMeaning::None);
        let l = raster_layout(&r);
        let img = raster_image(&r);
        for (i, w) in [RED, GREEN, BLUE, RED, GREEN, BLUE, RED].iter().enumerate() {
            let (x, y) = centre(&l, &r, i);
            assert_eq!(at(&img, x, y), *w, "cell {i}");
        }
    }

    #[test]
    fn legend_swatches_and_text() {
        let r = tiny(LevelMeaning::None);
        let l = raster_layout(&r);
        let img = raster_image(&r);
        for (i, c) in (0u32..).zip([RED, GREEN, BLUE]) {
            let y = l.legend_y + i * LINE;
            for (dx, dy) in [(0, 0), (SWATCH - 1, SWATCH - 1), (SWATCH / 2, SWATCH / 2)] {
                assert_eq!(at(&img, MARGIN + dx, y + dy), c);
            }
            let ink = (crate::png::legend_text_x()..l.width)
                .flat_map(|x| (y..y + LINE).map(move |y| (x, y)))
                .filter(|&(x, y)| at(&img, x, y) == INK)
                .count();
            assert!(ink > 50, "legend line {i} has text");
        }
        let lines = legend_lines(&r);
        assert!(lines[0].starts_with("x INDEX leaf      3 pages   42.86%"));
        assert!(lines[2].starts_with("x free            1 page    14.29%"));
        // Title and row labels are drawn.
        let title_ink = (MARGIN..MARGIN + 16)
            .flat_map(|y| (MARGIN..200).map(move |x| (x, y)))
            .filter(|&(x, y)| at(&img, x, y) == INK)
            .count();
        assert!(title_ink > 100);
        let label_ink = (0..l.map_x)
            .flat_map(|x| (l.map_y..l.map_y + 32).map(move |y| (x, y)))
            .filter(|&(x, y)| at(&img, x, y) == INK)
            .count();
        assert!(label_ink > 10);
    }

    #[test]
    fn histogram_is_drawn() {
        let mut r = tiny(LevelMeaning::None);
        let bars = [Rgb(1, 100, 2), Rgb(3, 4, 150), Rgb(170, 5, 6)];
        r.histogram = Some(Histogram {
            title: "fill of the leaf pages".to_string(),
            low_label: "0%".to_string(),
            high_label: "100%".to_string(),
            counts: vec![3, 0, 10],
            colours: bars.to_vec(),
        });
        let without = raster_layout(&tiny(LevelMeaning::None));
        let l = raster_layout(&r);
        assert!(l.legend_y > without.legend_y);
        let img = raster_image(&r);
        assert_eq!(img.dimensions(), (l.width, l.height));
        assert!(count(&img, bars[0]) > 0);
        assert_eq!(count(&img, bars[1]), 0);
        assert!(count(&img, bars[2]) > count(&img, bars[0]));
        assert!(count(&img, AXIS) > 0);
    }

    /// A raster of `rows` rows of `columns` cells, `per_cell` pages each.
    fn many(rows: usize, columns: u32, per_cell: u32) -> Raster {
        let mut r = tiny(LevelMeaning::None);
        r.columns = columns;
        r.pages_per_cell = per_cell;
        r.cells = vec![cell(0, 1.0); rows * columns as usize];
        r.pages = (rows * columns as usize) as u64 * u64::from(per_cell);
        r
    }

    #[test]
    fn cell_sizes_and_the_map_height_are_bounded() {
        // 512 rows (the most a raster has) of 64 cells: rows of 4 px.
        let r = many(512, 64, 16);
        let l = raster_layout(&r);
        assert_eq!((l.cell_w, l.cell_h), (16, 4));
        assert_eq!(l.row_step, 4);
        assert!(l.width <= MAX_WIDTH && l.height <= MAX_MAP_HEIGHT + 200);
        let img = raster_image(&r);
        assert_eq!(img.dimensions(), (l.width, l.height));
        let (x, y) = centre(&l, &r, 512 * 64 - 1);
        assert_eq!(at(&img, x, y), RED);
        // 256 cells a row: 4 px wide, 10 px tall.
        let r = many(3, 256, 1);
        let l = raster_layout(&r);
        assert_eq!((l.cell_w, l.cell_h, l.row_step), (4, 10, 2));
        let img = raster_image(&r);
        let (x, y) = centre(&l, &r, 256 * 3 - 1);
        assert_eq!(at(&img, x, y), RED);
        // Four times the rows a raster has still fit: rows of 1 px.
        let r = many(2048, 1024, 1);
        let l = raster_layout(&r);
        assert_eq!((l.cell_w, l.cell_h), (1, 1));
        assert!(l.height <= MAX_MAP_HEIGHT + 200);
        let img = raster_image(&r);
        let (x, y) = centre(&l, &r, 1024 * 2048 - 1);
        assert_eq!(at(&img, x, y), RED);
    }

    /// Every label of a map's picture: above the map, left of it.
    fn map_labels(r: &Raster) -> (RasterLayout, Vec<Placed>) {
        let l = raster_layout(r);
        let mut all = column_labels(&l, r);
        all.extend(row_labels(&l, r));
        (l, all)
    }

    #[test]
    fn row_labels_never_touch_at_any_size() {
        for rows in (1..=40).chain([63, 64, 100, 127, 128, 129, 200, 255, 256, 400, 511, 512]) {
            for (columns, per_cell) in [(64, 1), (64, 16), (256, 1), (16, 2), (1024, 1), (3, 1)] {
                let r = many(rows, columns, per_cell);
                let (l, all) = map_labels(&r);
                let what = format!("{rows} rows of {columns}");
                assert_eq!(labels::first_clash(&all, labels::GAP), None, "{what}");
                for p in &all {
                    assert!(p.x >= 0 && p.x + p.w <= i64::from(l.width), "{what}: {p:?}");
                    assert!(p.y + p.h <= i64::from(l.below_map(&r)), "{what}: {p:?}");
                    assert!(p.y >= i64::from(l.header.height()), "{what}: {p:?}");
                }
                // Row 0 and at least one label per 16 rows... while rows stay 4 px or more.
                let row_labels = row_labels(&l, &r);
                assert_eq!(row_labels.first().map(|p| p.text.as_str()), Some("0"));
                if l.cell_h >= 4 {
                    assert!(l.row_step <= 4, "{what}: every {}", l.row_step);
                }
            }
        }
    }

    #[test]
    fn a_large_file_is_labelled_every_nth_row() {
        // The 8 GiB file of the issue: 524,288 pages of 16k, 16 pages a
        // cell, 512 rows: a label every 4th row (16 px), 128 of them.
        let r = many(512, 64, 16);
        let (l, all) = map_labels(&r);
        let rows = row_labels(&l, &r);
        assert_eq!(rows.len(), 128);
        assert_eq!(rows.get(1).map(|p| p.text.as_str()), Some("4096"));
        assert_eq!(rows.last().map(|p| p.text.as_str()), Some("520192"));
        assert_eq!(labels::first_clash(&all, labels::GAP), None);
        assert!(l.height < 2400, "{}", l.height);
        // Each labelled row has its tick; the other rows none.
        let img = raster_image(&r);
        let tick_x = l.map_x - 3;
        for (row, p) in rows.iter().enumerate().take(8) {
            let y = u32::try_from(p.y + p.h / 2).unwrap_or(0);
            assert_eq!(at(&img, tick_x, y), AXIS, "tick of label {row}");
            assert_eq!(at(&img, tick_x, y + 4), BACKGROUND, "no tick under {row}");
        }
    }

    #[test]
    fn long_titles_wrap_within_the_picture() {
        let mut r = tiny(LevelMeaning::None);
        r.title = "a very long title ".repeat(12);
        r.subtitle = "and a subtitle that goes on ".repeat(10);
        let l = raster_layout(&r);
        assert!(l.width <= crate::png::MAX_TITLE_WIDTH);
        assert!(l.header.height() > 3 * crate::png::TITLE_LINE);
        let img = raster_image(&r);
        // Nothing is drawn in the right margin.
        let right_ink = (l.width - MARGIN + 1..l.width)
            .flat_map(|x| (0..l.map_y).map(move |y| (x, y)))
            .filter(|&(x, y)| at(&img, x, y) == INK)
            .count();
        assert_eq!(right_ink, 0);
    }

    #[test]
    fn degenerate_rasters_do_not_panic() {
        let mut r = tiny(LevelMeaning::Fill);
        r.columns = 0;
        let img = raster_image(&r);
        assert_eq!(img.dimensions(), {
            let l = raster_layout(&r);
            (l.width, l.height)
        });
        let _ = cell_rect(&raster_layout(&r), &r, usize::MAX);

        let mut r = tiny(LevelMeaning::Fill);
        r.cells.clear();
        r.legend.clear();
        r.title.clear();
        r.subtitle = "ünïcödé".to_string();
        r.histogram = Some(Histogram {
            title: String::new(),
            low_label: String::new(),
            high_label: String::new(),
            counts: vec![],
            colours: vec![],
        });
        let img = raster_image(&r);
        assert!(encode(&img).is_ok());

        let mut r = tiny(LevelMeaning::Fill);
        r.cells = vec![
            cell(7, f32::NAN),
            cell(0, f32::NAN),
            cell(1, -3.0),
            cell(2, 9.0),
        ];
        r.pages_per_cell = 0;
        r.histogram = Some(Histogram {
            title: "t".to_string(),
            low_label: "a very long low label".to_string(),
            high_label: "a very long high label".to_string(),
            counts: vec![0; 5000],
            colours: vec![],
        });
        let l = raster_layout(&r);
        let img = raster_image(&r);
        assert_eq!(
            at(&img, centre(&l, &r, 0).0, centre(&l, &r, 0).1),
            BACKGROUND
        );
        assert_eq!(at(&img, centre(&l, &r, 3).0, centre(&l, &r, 3).1), BLUE);
        let p = img.get_pixel(centre(&l, &r, 1).0, centre(&l, &r, 1).1);
        assert_eq!(*p, px(shade(RED, 0.0)));
        assert!(l.width <= MAX_WIDTH);
    }
}

//! A [`Raster`] as an image: the header, a line of column offsets, the map
//! (one row of cells per raster row, its first page on the left), the
//! histogram when there is one, then the legend.

use super::{
    canvas, draw_header, draw_legend_line, fill_rect, header_width, legend_text_x, text, AXIS,
    HEADER_H, INK, LINE, MARGIN, MAX_WIDTH, MIN_WIDTH,
};
use image::RgbImage;
use innodb_analysis::pictures::{Cell, Histogram, LevelMeaning, Raster, Rgb};

/// Width of the map that cell widths aim at.
const MAP_WIDTH: u32 = 1024;
/// Widest (and tallest) cell.
const MAX_CELL: u32 = 16;
/// Tallest map.
const MAX_MAP_HEIGHT: u32 = 4096;
/// Height of the histogram's bars at their highest.
const HIST_HEIGHT: u32 = 64;
/// Narrowest histogram.
const HIST_MIN_WIDTH: u32 = 256;
/// Space between the row labels and the map.
const LABEL_GAP: u32 = 6;
/// Space under the map (more than the overflow of a row label, 8 px, past
/// the last row when rows are thinner than a label).
const MAP_GAP: u32 = 10;

/// Where the parts of a raster's image are, in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RasterLayout {
    /// Width of a cell, grid line included: 1024 / columns, from 1 to 16.
    pub cell_w: u32,
    /// Height of a cell, grid line included: the cell width, less when the
    /// rows would make the map taller than 4096 px (at least 1).
    pub cell_h: u32,
    /// Left edge of the map (right of the row labels).
    pub map_x: u32,
    /// Top edge of the map.
    pub map_y: u32,
    /// Width of the image.
    pub width: u32,
    /// Height of the image.
    pub height: u32,
    /// Top of the legend: item `i`'s 10 × 10 swatch is at x = 8,
    /// y = `legend_y` + 12 · `i`.
    pub legend_y: u32,
}

impl RasterLayout {
    fn map_width(&self, r: &Raster) -> u32 {
        r.columns.saturating_mul(self.cell_w)
    }

    fn map_height(&self, r: &Raster) -> u32 {
        rows(r).saturating_mul(self.cell_h)
    }

    /// Top of the block under the map (the histogram, or the legend).
    fn below_map(&self, r: &Raster) -> u32 {
        self.map_y
            .saturating_add(self.map_height(r))
            .saturating_add(MAP_GAP)
    }
}

fn rows(r: &Raster) -> u32 {
    u32::try_from(r.rows()).unwrap_or(u32::MAX)
}

/// Width of the row labels' column: the largest first page, or "page".
fn label_width(r: &Raster) -> u32 {
    let last = r.row_first_page(r.rows().saturating_sub(1));
    text::width(&last.to_string(), 1).max(text::width("page", 1))
}

/// Legend lines, aligned: label, pages, percent.
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
            format!(
                "{:<lw$}  {:>pw$} pages  {:>6.2}%",
                i.label, i.pages, i.percent
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

/// Rows are at least this tall when the map height allows.
const MIN_ROW_H: u32 = 10;

/// The layout of `r`'s image.
pub fn raster_layout(r: &Raster) -> RasterLayout {
    let cell_w = MAP_WIDTH
        .checked_div(r.columns)
        .unwrap_or(MAX_CELL)
        .clamp(1, MAX_CELL);
    let n_rows = rows(r);
    // Square cells, but rows at least MIN_ROW_H tall while the map stays
    // within MAX_MAP_HEIGHT (so that narrow cells of 4k files still give
    // rows that each carry their page-number label).
    let fit = (MAX_MAP_HEIGHT / n_rows.max(1)).max(1);
    let cell_h = cell_w.max(MIN_ROW_H).min(fit);
    let map_x = MARGIN + label_width(r) + LABEL_GAP;
    let map_y = HEADER_H + LINE;
    let mut l = RasterLayout {
        cell_w,
        cell_h,
        map_x,
        map_y,
        width: 0,
        height: 0,
        legend_y: 0,
    };
    let map_w = l.map_width(r);
    let mut right = map_x.saturating_add(map_w);
    let mut text_w = header_width(&r.title, &r.subtitle);
    let mut y = l.below_map(r);
    if let Some(h) = &r.histogram {
        let (_, hist_w) = histogram_geometry(h, map_x, map_w);
        right = right.max(map_x.saturating_add(hist_w));
        text_w = text_w.max(map_x.saturating_sub(MARGIN) + text::width(&h.title, 1));
        y = y.saturating_add(histogram_height());
    }
    for line in legend_lines(r) {
        text_w = text_w.max(legend_text_x() - MARGIN + text::width(&line, 1));
    }
    l.legend_y = y;
    let legend_h = u32::try_from(r.legend.len())
        .unwrap_or(u32::MAX)
        .saturating_mul(LINE);
    l.height = y.saturating_add(legend_h).saturating_add(MARGIN);
    l.width = right
        .saturating_add(MARGIN)
        .max((text_w + 2 * MARGIN).min(MAX_WIDTH))
        .max(MIN_WIDTH);
    l
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

/// `c` blended toward white: all of it at level 1, a quarter at level 0.
fn shade(c: Rgb, level: f32) -> Rgb {
    let level = if level.is_nan() {
        0.0
    } else {
        level.clamp(0.0, 1.0)
    };
    let f = 0.25 + 0.75 * level;
    let ch = |v: u8| {
        (255.0 + (f32::from(v) - 255.0) * f)
            .round()
            .clamp(0.0, 255.0) as u8
    };
    Rgb(ch(c.0), ch(c.1), ch(c.2))
}

/// The colour of a cell, `None` for no page (or a class not in the legend).
fn cell_colour(r: &Raster, cell: &Cell) -> Option<Rgb> {
    let item = r.item(cell)?;
    Some(match r.level_meaning {
        LevelMeaning::None => item.colour,
        LevelMeaning::Fill => shade(item.colour, cell.level),
    })
}

/// `r` drawn: title, subtitle, the map with its row and column labels, the
/// histogram, the legend.
pub fn raster_image(r: &Raster) -> RgbImage {
    let l = raster_layout(r);
    let mut img = canvas(l.width, l.height);
    draw_header(&mut img, &r.title, &r.subtitle);
    draw_column_labels(&mut img, &l, r);
    draw_row_labels(&mut img, &l, r);
    let drawn = r.rows().saturating_mul(r.columns as usize);
    for (i, cell) in r.cells.iter().take(drawn).enumerate() {
        if let Some(colour) = cell_colour(r, cell) {
            let (x, y, w, h) = cell_rect(&l, r, i);
            if y >= l.height {
                break;
            }
            fill_rect(
                &mut img,
                i64::from(x),
                i64::from(y),
                i64::from(w),
                i64::from(h),
                colour,
            );
        }
    }
    if let Some(h) = &r.histogram {
        draw_histogram(&mut img, &l, r, h);
    }
    for (i, line) in (0u32..).zip(legend_lines(r)) {
        let colour = r.legend.get(i as usize).map_or(INK, |item| item.colour);
        draw_legend_line(&mut img, l.legend_y + i * LINE, colour, &line);
    }
    img
}

/// Above the map: "page" over the row labels, the page offset of the first
/// and of the last column over the map's ends.
fn draw_column_labels(img: &mut RgbImage, l: &RasterLayout, r: &Raster) {
    let y = i64::from(l.map_y - LINE);
    let map_x = i64::from(l.map_x);
    text::draw_right(img, map_x - i64::from(LABEL_GAP), y, "page", INK);
    if r.columns == 0 {
        return;
    }
    text::draw(img, map_x, y, "+0", 1, INK);
    if r.columns > 1 {
        let last = u64::from(r.columns - 1) * u64::from(r.pages_per_cell);
        let label = format!("+{last}");
        let right = map_x + i64::from(l.map_width(r));
        if right - i64::from(text::width(&label, 1)) > map_x + i64::from(text::width("+0 ", 1)) {
            text::draw_right(img, right, y, &label, INK);
        }
    }
}

/// Left of the map: each labelled row's first page, right-aligned; every
/// k-th row when rows are thinner than a label (8 px), row 0 always.
fn draw_row_labels(img: &mut RgbImage, l: &RasterLayout, r: &Raster) {
    let k = text::GLYPH.div_ceil(l.cell_h.max(1)) as usize;
    let offset = l.cell_h.saturating_sub(text::GLYPH) / 2;
    let right = i64::from(l.map_x) - i64::from(LABEL_GAP);
    for row in (0..r.rows()).step_by(k.max(1)) {
        let y = u64::from(l.map_y) + row as u64 * u64::from(l.cell_h) + u64::from(offset);
        if y >= u64::from(l.height) {
            break;
        }
        let label = r.row_first_page(row).to_string();
        text::draw_right(
            img,
            right,
            i64::try_from(y).unwrap_or(i64::MAX),
            &label,
            INK,
        );
    }
}

/// Under the map: the histogram's title, its largest count at the top left,
/// a bar per bucket on a baseline, the low and high labels under its ends.
fn draw_histogram(img: &mut RgbImage, l: &RasterLayout, r: &Raster, h: &Histogram) {
    let (bar, hist_w) = histogram_geometry(h, l.map_x, l.map_width(r));
    let x0 = i64::from(l.map_x);
    let top = i64::from(l.below_map(r));
    text::draw(img, x0, top, &h.title, 1, INK);
    let bars_top = top + i64::from(LINE);
    let base = bars_top + i64::from(HIST_HEIGHT);
    let max = h.counts.iter().copied().max().unwrap_or(0);
    text::draw_right(
        img,
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
        fill_rect(img, x, base - height, i64::from(bar) - gap, height, colour);
    }
    fill_rect(img, x0, base, i64::from(hist_w), 1, AXIS);
    let label_y = base + 4;
    text::draw(img, x0, label_y, &h.low_label, 1, INK);
    let low_end = x0 + i64::from(text::width(&h.low_label, 1)) + i64::from(text::GLYPH);
    let high_w = i64::from(text::width(&h.high_label, 1));
    let high_x = (x0 + i64::from(hist_w) - high_w).max(low_end);
    text::draw(img, high_x, label_y, &h.high_label, 1, INK);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::png::{encode, px, tests::count, BACKGROUND, SWATCH};
    use innodb_analysis::pictures::{LegendItem, NO_CLASS};

    fn item(label: &str, colour: Rgb, pages: u64) -> LegendItem {
        LegendItem {
            label: label.to_string(),
            colour,
            symbol: 'x',
            pages,
            percent: pages as f64 * 100.0 / 7.0,
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
                item("free", BLUE, 2),
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
        assert!(l.legend_y >= l.map_y + 2 * 16);
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
        // Level 0.5: white + (c - white) * 0.625.
        assert_eq!(shade(RED, 0.5), Rgb(221, 114, 121));
        assert_eq!(shade(RED, 0.0), Rgb(241, 199, 201));
        assert_eq!(shade(RED, 1.0), RED);
        // The grid line right of and under a cell stays background.
        let (x, y, w, h) = cell_rect(&l, &r, 0);
        assert_eq!((w, h), (15, 15));
        assert_eq!(at(&img, x + w, y), BACKGROUND);
        assert_eq!(at(&img, x, y + h), BACKGROUND);
        assert_eq!(cell_rect(&l, &r, 5).0, x + 16);
        assert_eq!(cell_rect(&l, &r, 5).1, y + 16);
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
            let ink = (legend_text_x()..l.width)
                .flat_map(|x| (y..y + LINE).map(move |y| (x, y)))
                .filter(|&(x, y)| at(&img, x, y) == INK)
                .count();
            assert!(ink > 50, "legend line {i} has text");
        }
        assert!(legend_lines(&r)[0].starts_with("INDEX leaf      3 pages   42.86%"));
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
        let mut r = tiny(LevelMeaning::Fill);
        let bars = [Rgb(1, 100, 2), Rgb(3, 4, 150), Rgb(170, 5, 6)];
        r.histogram = Some(Histogram {
            title: "fill of the leaf pages".to_string(),
            low_label: "0%".to_string(),
            high_label: "100%".to_string(),
            counts: vec![3, 0, 10],
            colours: bars.to_vec(),
        });
        let without = raster_layout(&tiny(LevelMeaning::Fill));
        let l = raster_layout(&r);
        assert!(l.legend_y > without.legend_y);
        let img = raster_image(&r);
        assert_eq!(img.dimensions(), (l.width, l.height));
        assert!(count(&img, bars[0]) > 0);
        assert_eq!(count(&img, bars[1]), 0);
        assert!(count(&img, bars[2]) > count(&img, bars[0]));
        assert!(count(&img, AXIS) > 0);
    }

    #[test]
    fn cell_sizes_are_bounded() {
        let mut r = tiny(LevelMeaning::None);
        r.columns = 64;
        r.cells = vec![cell(0, 1.0); 64 * 1024];
        let l = raster_layout(&r);
        assert_eq!((l.cell_w, l.cell_h), (16, 4));
        assert!(l.width <= MAX_WIDTH && l.height <= 4096 + 200);
        let img = raster_image(&r);
        assert_eq!(img.dimensions(), (l.width, l.height));
        let (x, y) = centre(&l, &r, 64 * 1024 - 1);
        assert_eq!(at(&img, x, y), RED);

        r.columns = 256;
        r.cells = vec![cell(1, 1.0); 256 * 3];
        let l = raster_layout(&r);
        assert_eq!((l.cell_w, l.cell_h), (4, 10));
        let img = raster_image(&r);
        let (x, y) = centre(&l, &r, 256 * 3 - 1);
        assert_eq!(at(&img, x, y), GREEN);

        r.columns = 2048;
        r.cells = vec![cell(2, 1.0); 2048 * 1024];
        let l = raster_layout(&r);
        assert_eq!((l.cell_w, l.cell_h), (1, 4));
        let img = raster_image(&r);
        let (x, y) = centre(&l, &r, 2048 * 1024 - 1);
        assert_eq!(at(&img, x, y), BLUE);
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

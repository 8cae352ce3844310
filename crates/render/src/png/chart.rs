//! A [`Chart`] as an image: the header, the y label above the y axis, the
//! plot (grouped bars or step lines) with its ticks, the x label under it,
//! then the legend of the series.

use super::{
    canvas, draw_header, draw_legend_line, fill_rect, format_number, header_width, legend_text_x,
    text, AXIS, GRID, HEADER_H, INK, LINE, MARGIN, MAX_WIDTH, MIN_WIDTH,
};
use image::RgbImage;
use innodb_analysis::pictures::{Chart, ChartKind};

/// Height of the plot area.
const PLOT_H: u32 = 240;
/// Width of a step chart's plot, and what a bar chart's groups aim at.
const PLOT_W: u32 = 640;
/// Narrowest bar chart plot.
const BARS_MIN_W: u32 = 240;
/// Widest bar, in pixels.
const MAX_BAR: u32 = 32;
/// Most categories drawn (points beyond are ignored).
const MAX_GROUPS: usize = 4096;
/// Space between tick labels and the axis.
const TICK_GAP: u32 = 6;

/// The y axis: from 0 to `step` · `n`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct YAxis {
    step: f64,
    n: u32,
    integral: bool,
    decimals: usize,
}

impl YAxis {
    fn top(&self) -> f64 {
        self.step * f64::from(self.n)
    }

    fn label(&self, i: u32) -> String {
        let v = self.step * f64::from(i);
        if v.abs() >= 1e15 || !v.is_finite() {
            format_number(v)
        } else if self.integral {
            format!("{}", v.round() as i64)
        } else {
            format!("{v:.*}", self.decimals)
        }
    }
}

/// Decimals that show `step`'s multiples exactly (0 to 12).
fn decimals(step: f64) -> usize {
    (0..12)
        .find(|&d| {
            let v = step * 10f64.powi(d as i32);
            (v - v.round()).abs() < 1e-6 * v.abs().max(1.0)
        })
        .unwrap_or(12)
}

/// A y axis with 4 or 5 ticks reaching at least the chart's largest value:
/// the smallest step of 1, 2, 2.5 or 5 times a power of ten (an integer
/// when all values are) that reaches it in at most 4 steps, and at least 3
/// steps.
fn y_axis(c: &Chart) -> YAxis {
    let ys = || {
        c.series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .filter(|y| y.is_finite())
    };
    let integral = ys().all(|y| y.fract() == 0.0);
    let max = ys().fold(0.0, f64::max);
    let axis = |step: f64, n: u32| YAxis {
        step,
        n,
        integral,
        decimals: if integral { 0 } else { decimals(step) },
    };
    if max <= 0.0 {
        return axis(1.0, 4);
    }
    let k = (max / 4.0).log10().floor() as i32;
    let steps =
        (k - 1..=(k + 1).max(0)).flat_map(|k| [1.0, 2.0, 2.5, 5.0].map(|m| m * 10f64.powi(k)));
    for step in steps {
        if !step.is_finite() || step <= 0.0 || (integral && (step < 1.0 || step.fract() != 0.0)) {
            continue;
        }
        let n = ((max / step) * (1.0 - 1e-9)).ceil();
        if n <= 4.0 {
            return axis(step, n.max(3.0) as u32);
        }
    }
    axis(max / 4.0, 4)
}

/// Where a bar chart's groups and bars are: group `g` starts at
/// `g` · plot width / `groups`, its bars centred in it.
#[derive(Debug, Clone, Copy)]
struct Bars {
    groups: usize,
    /// Width of a bar.
    unit: u32,
    /// Width a group asks for (its bars and space); the plot may be
    /// narrower, groups then overlap.
    group_w: u32,
}

fn bars(c: &Chart) -> Bars {
    let from_points = c
        .series
        .iter()
        .flat_map(|s| s.points.iter())
        .filter(|p| p.0.is_finite() && p.0 >= 0.0 && p.0 < MAX_GROUPS as f64)
        .map(|p| p.0.round() as usize + 1)
        .max()
        .unwrap_or(0);
    let groups = c.categories.len().min(MAX_GROUPS).max(from_points);
    let per_group = u32::try_from(c.series.len().max(1))
        .unwrap_or(u32::MAX)
        .saturating_add(1);
    let g = u32::try_from(groups.max(1)).unwrap_or(u32::MAX);
    let unit = (PLOT_W / g.saturating_mul(per_group)).clamp(1, MAX_BAR);
    let group_w = unit.saturating_mul(per_group).max(BARS_MIN_W / g);
    Bars {
        groups,
        unit,
        group_w,
    }
}

/// Where the parts of a chart's image are.
struct Layout {
    axis: YAxis,
    plot_x: u32,
    plot_y: u32,
    plot_w: u32,
    legend_y: u32,
    width: u32,
    height: u32,
}

fn layout(c: &Chart) -> Layout {
    let axis = y_axis(c);
    let tick_w = (0..=axis.n)
        .map(|i| text::width(&axis.label(i), 1))
        .max()
        .unwrap_or(0);
    let plot_x = MARGIN + tick_w + TICK_GAP;
    let plot_y = HEADER_H + LINE + 4;
    let plot_w = match c.kind {
        ChartKind::Steps => PLOT_W,
        ChartKind::Bars => {
            let b = bars(c);
            let g = u32::try_from(b.groups).unwrap_or(u32::MAX);
            let room = MAX_WIDTH
                .saturating_sub(plot_x + MARGIN + 2)
                .max(BARS_MIN_W);
            g.saturating_mul(b.group_w).clamp(BARS_MIN_W, room)
        }
    };
    let legend_y = plot_y + PLOT_H + 5 + LINE + 2 + LINE + 8;
    let series = u32::try_from(c.series.len()).unwrap_or(u32::MAX);
    let height = legend_y
        .saturating_add(series.saturating_mul(LINE))
        .saturating_add(MARGIN);
    let text_w = c
        .series
        .iter()
        .map(|s| legend_text_x() - MARGIN + text::width(&s.legend, 1))
        .chain([
            header_width(&c.title, &c.subtitle),
            text::width(&c.y_label, 1),
            plot_x - MARGIN + text::width(&c.x_label, 1),
        ])
        .max()
        .unwrap_or(0);
    let width = plot_x
        .saturating_add(plot_w)
        .saturating_add(MARGIN + 2)
        .max((text_w + 2 * MARGIN).min(MAX_WIDTH))
        .max(MIN_WIDTH);
    Layout {
        axis,
        plot_x,
        plot_y,
        plot_w,
        legend_y,
        width,
        height,
    }
}

/// `c` drawn: title, subtitle, axes with tick labels and axis labels, the
/// bars or steps of each series in its colour, the legend.
pub fn chart_image(c: &Chart) -> RgbImage {
    let l = layout(c);
    let mut img = canvas(l.width, l.height);
    draw_header(&mut img, &c.title, &c.subtitle);
    let (px0, py0) = (i64::from(l.plot_x), i64::from(l.plot_y));
    let (pw, ph) = (i64::from(l.plot_w), i64::from(PLOT_H));
    let base = py0 + ph;
    // Y label, grid, ticks.
    text::draw(
        &mut img,
        i64::from(MARGIN),
        i64::from(HEADER_H),
        &c.y_label,
        1,
        INK,
    );
    let n = i64::from(l.axis.n.max(1));
    for i in 0..=l.axis.n {
        let y = base - i64::from(i) * ph / n;
        if i > 0 {
            fill_rect(&mut img, px0, y, pw, 1, GRID);
        }
        fill_rect(&mut img, px0 - 4, y, 3, 1, AXIS);
        let label = l.axis.label(i);
        text::draw_right(&mut img, px0 - i64::from(TICK_GAP), y - 4, &label, INK);
    }
    match c.kind {
        ChartKind::Bars => draw_bars(&mut img, c, &l),
        ChartKind::Steps => draw_steps(&mut img, c, &l),
    }
    // Axes over the data.
    fill_rect(&mut img, px0 - 1, py0, 1, ph + 1, AXIS);
    fill_rect(&mut img, px0 - 1, base, pw + 1, 1, AXIS);
    // X label, centred under the plot.
    let xl_w = i64::from(text::width(&c.x_label, 1));
    let xl_x = (px0 + pw / 2 - xl_w / 2).max(i64::from(MARGIN));
    text::draw(
        &mut img,
        xl_x,
        base + 5 + i64::from(LINE) + 2,
        &c.x_label,
        1,
        INK,
    );
    for (i, s) in (0u32..).zip(&c.series) {
        draw_legend_line(&mut img, l.legend_y + i * LINE, s.colour, &s.legend);
    }
    img
}

/// One group per category, one bar per series in its colour, the category
/// names under the groups (every k-th when groups are narrow, cut to fit).
fn draw_bars(img: &mut RgbImage, c: &Chart, l: &Layout) {
    let b = bars(c);
    if b.groups == 0 {
        return;
    }
    let groups = i64::try_from(b.groups).unwrap_or(i64::MAX);
    let unit = i64::from(b.unit);
    let (px0, pw) = (i64::from(l.plot_x), i64::from(l.plot_w));
    let group_x = |g: i64| px0 + g * pw / groups;
    let base = i64::from(l.plot_y + PLOT_H);
    let top = l.axis.top();
    let n_series = i64::try_from(c.series.len()).unwrap_or(i64::MAX);
    for (s, series) in (0i64..).zip(&c.series) {
        for &(x, y) in &series.points {
            if !x.is_finite() || x < 0.0 || x >= MAX_GROUPS as f64 || !y.is_finite() || y <= 0.0 {
                continue;
            }
            let g = x.round() as i64;
            let (gx, gw) = (group_x(g), group_x(g + 1) - group_x(g));
            let bx = gx + (gw - n_series.saturating_mul(unit)).max(0) / 2 + s * unit;
            let h = ((y / top).min(1.0) * f64::from(PLOT_H)).round().max(1.0) as i64;
            fill_rect(img, bx, base - h, unit, h, series.colour);
        }
    }
    let avg = (pw / groups).max(1);
    let k = ((24 + avg - 1) / avg).max(1);
    let chars = usize::try_from((k * avg - 4) / i64::from(text::GLYPH)).unwrap_or(0);
    let mut g = 0i64;
    while g < groups {
        let name = usize::try_from(g)
            .ok()
            .and_then(|i| c.categories.get(i))
            .cloned()
            .unwrap_or_else(|| g.to_string());
        let label = text::fit(&name, chars);
        let w = i64::from(text::width(&label, 1));
        let centre = (group_x(g) + group_x(g + 1)) / 2;
        text::draw(img, centre - w / 2, base + 5, &label, 1, INK);
        g += k;
    }
}

/// Each series as a 2-px step line: from each point horizontally to the
/// next point's x, then vertically to its y; x from the chart's x range,
/// with tick labels at both ends.
fn draw_steps(img: &mut RgbImage, c: &Chart, l: &Layout) {
    let (mut lo, mut hi) = c.x_range();
    if !lo.is_finite() || !hi.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if hi <= lo {
        hi = lo + 1.0;
    }
    let px0 = i64::from(l.plot_x);
    let pw = f64::from(l.plot_w.saturating_sub(1));
    let base = i64::from(l.plot_y + PLOT_H);
    let top = l.axis.top();
    let sx = |x: f64| px0 + (((x - lo) / (hi - lo)).clamp(0.0, 1.0) * pw).round() as i64;
    let sy = |y: f64| base - 1 - ((y / top).clamp(0.0, 1.0) * f64::from(PLOT_H - 1)).round() as i64;
    for series in &c.series {
        let pts: Vec<(i64, i64)> = series
            .points
            .iter()
            .filter(|p| p.0.is_finite() && p.1.is_finite())
            .map(|&(x, y)| (sx(x), sy(y)))
            .collect();
        if let [(x, y)] = pts.as_slice() {
            fill_rect(img, x - 1, y - 2, 4, 4, series.colour);
        }
        for w in pts.windows(2) {
            if let [(x0, y0), (x1, y1)] = w {
                fill_rect(img, *x0, y0 - 1, x1 - x0 + 2, 2, series.colour);
                let (a, b) = (*y0.min(y1), *y0.max(y1));
                fill_rect(img, *x1, a - 1, 2, b - a + 2, series.colour);
            }
        }
    }
    let label_y = base + 5;
    let lo_label = format_number(lo);
    let hi_label = format_number(hi);
    let right = px0 + i64::from(l.plot_w);
    fill_rect(img, px0, base + 1, 1, 3, AXIS);
    fill_rect(img, right - 1, base + 1, 1, 3, AXIS);
    text::draw(img, px0, label_y, &lo_label, 1, INK);
    let lo_end = px0 + i64::from(text::width(&lo_label, 1)) + i64::from(text::GLYPH);
    let hi_x = (right - i64::from(text::width(&hi_label, 1))).max(lo_end);
    text::draw(img, hi_x, label_y, &hi_label, 1, INK);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::png::{encode, tests::count, BACKGROUND};
    use innodb_analysis::pictures::{Rgb, Series};

    const A: Rgb = Rgb(220, 40, 30);
    const B: Rgb = Rgb(30, 90, 200);

    fn chart(kind: ChartKind, series: Vec<Series>, categories: &[&str]) -> Chart {
        Chart {
            title: "Records per index".to_string(),
            subtitle: "t.ibd".to_string(),
            kind,
            x_label: "index".to_string(),
            y_label: "records".to_string(),
            categories: categories.iter().map(|s| s.to_string()).collect(),
            series,
        }
    }

    fn series(name: &str, colour: Rgb, points: &[(f64, f64)]) -> Series {
        Series {
            name: name.to_string(),
            legend: name.to_string(),
            colour,
            points: points.to_vec(),
        }
    }

    #[test]
    fn bars_in_series_colours() {
        let c = chart(
            ChartKind::Bars,
            vec![
                series("leaf", A, &[(0.0, 10.0), (1.0, 3.0), (2.0, 0.0)]),
                series("internal", B, &[(0.0, 1.0), (1.0, 7.0), (2.0, 2.0)]),
            ],
            &["PRIMARY", "k_a_very_long_index_name_that_is_cut", "k2"],
        );
        let img = chart_image(&c);
        let l = layout(&c);
        assert_eq!(img.dimensions(), (l.width, l.height));
        assert!(count(&img, A) > 200);
        assert!(count(&img, B) > 200);
        assert!(count(&img, INK) > 300);
        // The tallest bar, 10, on an axis 0, 5, 10, 15.
        assert_eq!(l.axis.top(), 15.0);
        assert!(encode(&img).is_ok());
        // Legend swatches.
        let p = img.get_pixel(MARGIN + 2, l.legend_y + 2);
        assert_eq!(*p, crate::png::px(A));
        let p = img.get_pixel(MARGIN + 2, l.legend_y + LINE + 2);
        assert_eq!(*p, crate::png::px(B));
    }

    #[test]
    fn steps_in_series_colours() {
        let c = chart(
            ChartKind::Steps,
            vec![
                series(
                    "trx 1",
                    A,
                    &[(0.0, 0.0), (10.0, 5.0), (20.0, 2.5), (30.0, 9.0)],
                ),
                series("trx 2", B, &[(5.0, 1.0), (25.0, 4.0)]),
            ],
            &[],
        );
        let img = chart_image(&c);
        let l = layout(&c);
        assert_eq!(img.dimensions(), (l.width, l.height));
        assert!(count(&img, A) > 600);
        assert!(count(&img, B) > 300);
        assert!(!l.axis.integral);
        assert_eq!(l.axis.label(1), "2.5");
        assert_eq!(l.axis.top(), 10.0);
    }

    #[test]
    fn y_axis_ticks() {
        let one = |y: f64| chart(ChartKind::Bars, vec![series("s", A, &[(0.0, y)])], &["x"]);
        for (y, top, n) in [
            (10.0, 15.0, 3),
            (100.0, 100.0, 4),
            (7.0, 8.0, 4),
            (1.0, 3.0, 3),
            (1234.0, 1500.0, 3),
            (0.3, 0.3, 3),
            (0.7, 0.8, 4),
            (1e300, 1e300, 4),
        ] {
            let a = y_axis(&one(y));
            assert!((a.top() - top).abs() <= 1e-9 * top, "{y}: {a:?}");
            assert_eq!(a.n, n, "{y}");
            assert!(a.top() >= y);
        }
        assert_eq!(y_axis(&one(1234.0)).label(3), "1500");
        assert_eq!(y_axis(&one(0.3)).label(1), "0.1");
    }

    #[test]
    fn degenerate_charts_do_not_panic() {
        let empty = |kind| chart(kind, vec![], &[]);
        let cases = [
            empty(ChartKind::Bars),
            empty(ChartKind::Steps),
            chart(ChartKind::Bars, vec![series("s", A, &[])], &["a", "b"]),
            chart(ChartKind::Steps, vec![series("s", A, &[])], &[]),
            chart(
                ChartKind::Bars,
                vec![series("s", A, &[(0.0, 0.0), (1.0, 0.0)])],
                &[],
            ),
            chart(
                ChartKind::Steps,
                vec![series("s", A, &[(3.0, 0.0), (3.0, 0.0)])],
                &[],
            ),
            chart(ChartKind::Steps, vec![series("s", A, &[(3.0, 5.0)])], &[]),
            chart(
                ChartKind::Steps,
                vec![series(
                    "s",
                    A,
                    &[(f64::NAN, 1.0), (f64::INFINITY, f64::NAN), (1.0, -4.0)],
                )],
                &[],
            ),
            chart(
                ChartKind::Bars,
                vec![series(
                    "s",
                    A,
                    &[(-1.0, 5.0), (1e300, 5.0), (f64::NAN, 1.0), (0.0, 1e300)],
                )],
                &[],
            ),
            chart(
                ChartKind::Bars,
                vec![series("s", A, &[(0.0, 1.0)])],
                &vec!["category"; 5000],
            ),
        ];
        for c in &cases {
            let img = chart_image(c);
            let l = layout(c);
            assert_eq!(img.dimensions(), (l.width, l.height));
            assert!(l.width <= MAX_WIDTH);
            assert!(encode(&img).is_ok());
        }
        // A single point is still visible; a zero-width range draws its point.
        assert!(count(&chart_image(&cases[6]), A) > 0);
        assert!(count(&chart_image(&cases[5]), A) > 0);
        assert!(count(&chart_image(&cases[0]), BACKGROUND) > 0);
    }
}

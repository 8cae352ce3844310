//! A [`Chart`] laid out and drawn: the header, the y label above the y
//! axis, the plot (grouped bars or step lines) with its ticks, the x label
//! under it, then the legend of the series. The plot takes the picture's
//! whole width; category and tick labels are measured and thinned so that
//! none touches another.

use super::labels::{self, Placed};
use super::{
    canvas, draw_legend_line, format_number, legend_line_width, text, Canvas, Header, AXIS, GRID,
    INK, LINE, MARGIN, MAX_WIDTH, MIN_WIDTH,
};
use image::RgbImage;
use innodb_analysis::pictures::{Chart, ChartKind, Series};

/// Height of the plot area.
const PLOT_H: u32 = 240;
/// Width of a step chart's plot, and the least a bar chart's asks for.
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
    /// Bars and one space per group.
    per_group: u32,
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
    Bars { groups, per_group }
}

impl Bars {
    /// Width of a bar in a plot `plot_w` wide.
    fn unit(&self, plot_w: u32) -> u32 {
        let g = u32::try_from(self.groups.max(1)).unwrap_or(u32::MAX);
        (plot_w / g.saturating_mul(self.per_group)).clamp(1, MAX_BAR)
    }
}

/// The name of category `g`.
fn category(c: &Chart, g: usize) -> String {
    c.categories
        .get(g)
        .cloned()
        .unwrap_or_else(|| g.to_string())
}

/// The width a plot asks for: the steps' fixed width, or room for every
/// bar and for every category label with space around it.
fn wanted_plot_width(c: &Chart, plot_x: u32) -> u32 {
    match c.kind {
        ChartKind::Steps => PLOT_W,
        ChartKind::Bars => {
            let b = bars(c);
            let g = u32::try_from(b.groups).unwrap_or(u32::MAX);
            let label = (0..b.groups)
                .map(|i| text::width(&category(c, i), 1))
                .max()
                .unwrap_or(0);
            let group = b
                .per_group
                .saturating_mul(8)
                .max(label + 2 * labels::GAP as u32);
            let room = MAX_WIDTH
                .saturating_sub(plot_x + MARGIN + 2)
                .max(BARS_MIN_W);
            g.saturating_mul(group).max(PLOT_W).clamp(BARS_MIN_W, room)
        }
    }
}

/// A series' legend line: its symbol (an index's letter) and its legend.
fn legend_line(s: &Series) -> String {
    if s.symbol == ' ' {
        s.legend.clone()
    } else {
        format!("{} {}", s.symbol, s.legend)
    }
}

/// Where the parts of a chart's picture are.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ChartLayout {
    axis: YAxis,
    header: Header,
    plot_x: u32,
    plot_y: u32,
    plot_w: u32,
    legend_y: u32,
    /// Width of the picture.
    pub(crate) width: u32,
    /// Height of the picture.
    pub(crate) height: u32,
}

impl ChartLayout {
    /// The plot's baseline.
    fn base(&self) -> i64 {
        i64::from(self.plot_y + PLOT_H)
    }

    /// Top of the x tick labels.
    fn tick_label_y(&self) -> i64 {
        self.base() + 5
    }
}

/// The layout of `c`'s picture: as wide as its plot, legend and title ask
/// (the title wraps past 1,024 px), the plot taking all the width there is.
pub(crate) fn chart_layout(c: &Chart) -> ChartLayout {
    let axis = y_axis(c);
    let tick_w = (0..=axis.n)
        .map(|i| text::width(&axis.label(i), 1))
        .max()
        .unwrap_or(0);
    let plot_x = MARGIN + tick_w + TICK_GAP;
    let text_w = c
        .series
        .iter()
        .map(|s| legend_line_width(&legend_line(s)))
        .chain([
            text::width(&c.y_label, 1) + 2 * MARGIN,
            plot_x + text::width(&c.x_label, 1) + MARGIN,
        ])
        .max()
        .unwrap_or(0);
    let width = plot_x
        .saturating_add(wanted_plot_width(c, plot_x))
        .saturating_add(MARGIN + 2)
        .max(text_w.min(MAX_WIDTH))
        .max(Header::wants(&c.title, &c.subtitle))
        .max(MIN_WIDTH);
    let header = Header::new(&c.title, &c.subtitle, width);
    let plot_y = header.height() + LINE + 4;
    let legend_y = plot_y + PLOT_H + 5 + LINE + 2 + LINE + 8;
    let series = u32::try_from(c.series.len()).unwrap_or(u32::MAX);
    let height = legend_y
        .saturating_add(series.saturating_mul(LINE))
        .saturating_add(MARGIN);
    ChartLayout {
        axis,
        header,
        plot_x,
        plot_y,
        plot_w: width.saturating_sub(plot_x + MARGIN + 2).max(1),
        legend_y,
        width,
        height,
    }
}

/// `c` as an image.
pub fn chart_image(c: &Chart) -> RgbImage {
    let l = chart_layout(c);
    let mut img = canvas(l.width, l.height);
    draw_chart(&mut img, c, &l);
    img
}

/// `c` drawn on `canvas`: title, subtitle, axes with tick labels and axis
/// labels, the bars or steps of each series in its colour, the legend.
pub(crate) fn draw_chart(canvas: &mut dyn Canvas, c: &Chart, l: &ChartLayout) {
    l.header.draw(canvas);
    let (px0, py0) = (i64::from(l.plot_x), i64::from(l.plot_y));
    let (pw, ph) = (i64::from(l.plot_w), i64::from(PLOT_H));
    let base = l.base();
    canvas.begin("axes");
    canvas.text(
        i64::from(MARGIN),
        i64::from(l.header.height()),
        &c.y_label,
        1,
        INK,
    );
    let n = i64::from(l.axis.n.max(1));
    for i in 0..=l.axis.n {
        let y = base - i64::from(i) * ph / n;
        if i > 0 {
            canvas.rect(px0, y, pw, 1, GRID);
        }
        canvas.rect(px0 - 4, y, 3, 1, AXIS);
        let label = l.axis.label(i);
        text::draw_right(canvas, px0 - i64::from(TICK_GAP), y - 4, &label, INK);
    }
    canvas.end();
    canvas.begin("data");
    match c.kind {
        ChartKind::Bars => draw_bars(canvas, c, l),
        ChartKind::Steps => draw_steps(canvas, c, l),
    }
    canvas.end();
    canvas.begin("x-axis");
    // Axes over the data.
    canvas.rect(px0 - 1, py0, 1, ph + 1, AXIS);
    canvas.rect(px0 - 1, base, pw + 1, 1, AXIS);
    for p in x_labels(c, l) {
        canvas.rect(p.x + p.w / 2, base + 1, 1, 3, AXIS);
        canvas.text(p.x, p.y, &p.text, 1, INK);
    }
    // X label, centred under the plot.
    let xl = Placed::centred(
        px0 + pw / 2,
        l.tick_label_y() + i64::from(LINE) + 2,
        c.x_label.as_str(),
    );
    canvas.text(xl.x.max(i64::from(MARGIN)), xl.y, &xl.text, 1, INK);
    canvas.end();
    canvas.begin("legend");
    for (i, s) in (0u32..).zip(&c.series) {
        draw_legend_line(
            canvas,
            l.legend_y + i * LINE,
            s.colour,
            &legend_line(s),
            l.width,
        );
    }
    canvas.end();
}

/// The labels under the x axis: the category names of a bar chart under
/// their groups, or the ticks of a step chart's x range; every k-th when
/// they would touch, kept within the picture.
pub(crate) fn x_labels(c: &Chart, l: &ChartLayout) -> Vec<Placed> {
    let y = l.tick_label_y();
    let candidates: Vec<Placed> = match c.kind {
        ChartKind::Bars => {
            let groups = bars(c).groups;
            (0..groups)
                .map(|g| {
                    let (gx, gw) = group_span(l, groups, g);
                    Placed::centred(gx + gw / 2, y, category(c, g))
                })
                .collect()
        }
        ChartKind::Steps => {
            let (lo, hi) = x_range(c);
            let sx = step_x(l, lo, hi);
            x_ticks(c, lo, hi)
                .into_iter()
                .map(|t| Placed::centred(sx(t), y, format_number(t)))
                .collect()
        }
    };
    let k = labels::step(candidates.len(), false, |i, j| {
        match (candidates.get(i), candidates.get(j)) {
            (Some(a), Some(b)) => a.clashes(b, labels::GAP),
            _ => false,
        }
    });
    let (left, right) = (i64::from(MARGIN), i64::from(l.width - MARGIN));
    let mut out: Vec<Placed> = Vec::new();
    for mut p in candidates.into_iter().step_by(k) {
        if p.w > right - left {
            let chars = usize::try_from((right - left) / i64::from(text::GLYPH)).unwrap_or(0);
            p = Placed::new(left, p.y, text::fit(&p.text, chars));
        }
        p.x = p.x.clamp(left, (right - p.w).max(left));
        if out.last().is_none_or(|q| !q.clashes(&p, labels::GAP)) {
            out.push(p);
        }
    }
    out
}

/// The labels under `c`'s x axis as drawn (see [`x_labels`]), and the
/// picture's width.
pub fn chart_labels(c: &Chart) -> (Vec<Placed>, u32) {
    let l = chart_layout(c);
    (x_labels(c, &l), l.width)
}

/// Left edge and width of group `g` of `groups`.
fn group_span(l: &ChartLayout, groups: usize, g: usize) -> (i64, i64) {
    let groups = i64::try_from(groups.max(1)).unwrap_or(i64::MAX);
    let g = i64::try_from(g).unwrap_or(i64::MAX);
    let (px0, pw) = (i64::from(l.plot_x), i64::from(l.plot_w));
    let x = |g: i64| px0 + g.saturating_mul(pw) / groups;
    (x(g), x(g.saturating_add(1)) - x(g))
}

/// One group per category, one bar per series in its colour.
fn draw_bars(canvas: &mut dyn Canvas, c: &Chart, l: &ChartLayout) {
    let b = bars(c);
    if b.groups == 0 {
        return;
    }
    let unit = i64::from(b.unit(l.plot_w));
    let base = l.base();
    let top = l.axis.top();
    let n_series = i64::try_from(c.series.len()).unwrap_or(i64::MAX);
    for (s, series) in (0i64..).zip(&c.series) {
        for &(x, y) in &series.points {
            if !x.is_finite() || x < 0.0 || x >= MAX_GROUPS as f64 || !y.is_finite() || y <= 0.0 {
                continue;
            }
            let (gx, gw) = group_span(l, b.groups, x.round() as usize);
            let bx = gx + (gw - n_series.saturating_mul(unit)).max(0) / 2 + s * unit;
            let h = ((y / top).min(1.0) * f64::from(PLOT_H)).round().max(1.0) as i64;
            canvas.rect(bx, base - h, unit, h, series.colour);
        }
    }
}

/// The x range of a step chart, never empty, with a fortieth of it to
/// spare on the right so that a last step is not drawn on the edge.
fn x_range(c: &Chart) -> (f64, f64) {
    let (mut lo, mut hi) = c.x_range();
    if !lo.is_finite() || !hi.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if hi <= lo {
        hi = lo + 1.0;
    }
    let spare = (hi - lo) / 40.0;
    if (hi + spare).is_finite() {
        hi += spare;
    }
    (lo, hi)
}

/// The x pixel of `x` in a step chart over `lo..hi`.
fn step_x(l: &ChartLayout, lo: f64, hi: f64) -> impl Fn(f64) -> i64 {
    let px0 = i64::from(l.plot_x);
    let pw = f64::from(l.plot_w.saturating_sub(1));
    move |x: f64| px0 + (((x - lo) / (hi - lo)).clamp(0.0, 1.0) * pw).round() as i64
}

/// Ticks of a step chart's x axis: multiples of a step of 1, 2, 2.5 or 5
/// times a power of ten (an integer when the x values are) within
/// `lo..=hi`, at most 8 of them; the ends when no step fits.
fn x_ticks(c: &Chart, lo: f64, hi: f64) -> Vec<f64> {
    let integral = c
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .filter(|x| x.is_finite())
        .all(|x| x.fract() == 0.0);
    let span = hi - lo;
    let k = (span / 8.0).log10().floor() as i32;
    for step in (k..=k + 1).flat_map(|k| [1.0, 2.0, 2.5, 5.0].map(|m| m * 10f64.powi(k))) {
        if !step.is_finite() || step <= 0.0 || (integral && step.fract() != 0.0) {
            continue;
        }
        let first = (lo / step).ceil();
        let last = (hi / step).floor();
        if last - first + 1.0 <= 8.0 && last >= first {
            let n = (last - first) as usize;
            return (0..=n).map(|i| (first + i as f64) * step).collect();
        }
    }
    vec![lo, hi]
}

/// Each series as a 2-px step line: from each point horizontally to the
/// next point's x, then vertically to its y.
fn draw_steps(canvas: &mut dyn Canvas, c: &Chart, l: &ChartLayout) {
    let (lo, hi) = x_range(c);
    let sx = step_x(l, lo, hi);
    let base = l.base();
    let top = l.axis.top();
    let sy = |y: f64| base - 1 - ((y / top).clamp(0.0, 1.0) * f64::from(PLOT_H - 1)).round() as i64;
    for series in &c.series {
        let pts: Vec<(i64, i64)> = series
            .points
            .iter()
            .filter(|p| p.0.is_finite() && p.1.is_finite())
            .map(|&(x, y)| (sx(x), sy(y)))
            .collect();
        if let [(x, y)] = pts.as_slice() {
            canvas.rect(x - 1, y - 2, 4, 4, series.colour);
        }
        for w in pts.windows(2) {
            if let [(x0, y0), (x1, y1)] = w {
                canvas.rect(*x0, y0 - 1, x1 - x0 + 2, 2, series.colour);
                let (a, b) = (*y0.min(y1), *y0.max(y1));
                canvas.rect(*x1, a - 1, 2, b - a + 2, series.colour);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::png::{encode, tests::count, BACKGROUND};
    use innodb_analysis::pictures::Rgb;

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
            symbol: 'A',
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
        let l = chart_layout(&c);
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
        let l = chart_layout(&c);
        assert_eq!(img.dimensions(), (l.width, l.height));
        assert!(count(&img, A) > 600);
        assert!(count(&img, B) > 300);
        assert!(!l.axis.integral);
        assert_eq!(l.axis.label(1), "2.5");
        assert_eq!(l.axis.top(), 10.0);
    }

    /// Every label under the x axis, for charts of many shapes.
    #[test]
    fn x_labels_never_touch_and_stay_in_the_picture() {
        let fill = [
            "0-10%", "10-20%", "20-30%", "30-40%", "40-50%", "50-60%", "60-70%", "70-80%",
            "80-90%", "90-100%", ">100%",
        ];
        let long = "an index name that goes on and on and on";
        let mut cases = vec![
            chart(ChartKind::Bars, vec![series("s", A, &[(0.0, 1.0)])], &fill),
            chart(
                ChartKind::Bars,
                (0..9).map(|_| series("s", A, &[(0.0, 1.0)])).collect(),
                &fill,
            ),
            chart(
                ChartKind::Bars,
                vec![series("s", A, &[])],
                &[long, long, long],
            ),
            chart(
                ChartKind::Bars,
                vec![series("s", A, &[])],
                &[&long.repeat(9)],
            ),
        ];
        for n in [1, 2, 7, 30, 100, 300, 1000, 4096] {
            let names: Vec<String> = (0..n).map(|i| format!("category {i}")).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            cases.push(chart(ChartKind::Bars, vec![series("s", A, &[])], &names));
        }
        for (lo, hi) in [
            (0.0, 1.0),
            (1650.0, 1681.0),
            (1e9, 1e9 + 7.0),
            (3.0, 3.0),
            (0.5, 99.5),
        ] {
            cases.push(chart(
                ChartKind::Steps,
                vec![series("s", A, &[(lo, 0.0), (hi, 5.0)])],
                &[],
            ));
        }
        for c in &cases {
            let l = chart_layout(c);
            let xs = x_labels(c, &l);
            assert!(!xs.is_empty());
            assert_eq!(
                labels::first_clash(&xs, labels::GAP),
                None,
                "{:?}",
                c.categories.len()
            );
            for p in &xs {
                assert!(p.x >= i64::from(MARGIN), "{p:?}");
                assert!(p.x + p.w <= i64::from(l.width - MARGIN), "{p:?}");
            }
        }
        // The fill histogram's categories are all drawn, none cut.
        let l = chart_layout(&cases[1]);
        let texts: Vec<String> = x_labels(&cases[1], &l)
            .into_iter()
            .map(|p| p.text)
            .collect();
        assert_eq!(texts, fill);
        // A step chart over transaction numbers gets round ticks.
        let l = chart_layout(&cases[cases.len() - 4]);
        let texts: Vec<String> = x_labels(&cases[cases.len() - 4], &l)
            .into_iter()
            .map(|p| p.text)
            .collect();
        assert_eq!(
            texts,
            ["1650", "1655", "1660", "1665", "1670", "1675", "1680"]
        );
    }

    #[test]
    fn the_plot_takes_the_width_of_the_picture() {
        // Two levels, a long legend: the plot spans the width the legend asks.
        let mut s = series("leaf", A, &[(0.0, 10.0), (1.0, 1.0)]);
        s.legend = "index 25 (test/t_sec_after.PRIMARY): 70 pages in 2 levels".repeat(2);
        let c = chart(ChartKind::Bars, vec![s], &["0 (leaves)", "1"]);
        let l = chart_layout(&c);
        assert_eq!(l.plot_x + l.plot_w + MARGIN + 2, l.width);
        assert!(l.plot_w * 10 >= l.width * 8, "{} of {}", l.plot_w, l.width);
        // A long title wraps rather than run off the edge.
        let mut c = c;
        c.title = "/var/lib/mysql/a/very/long/data/directory: undo history growth".into();
        c.subtitle = "history list length 7, 7 undo logs, 15007 records, 45 pages".repeat(3);
        let l = chart_layout(&c);
        assert!(l.header.height() > MARGIN + crate::png::TITLE_LINE + LINE + 4);
        let img = chart_image(&c);
        let right_ink = (l.width - MARGIN + 1..l.width)
            .flat_map(|x| (0..l.plot_y).map(move |y| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x, y) == &crate::png::px(INK))
            .count();
        assert_eq!(right_ink, 0);
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
            let l = chart_layout(c);
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

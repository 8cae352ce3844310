//! Pictures: one model per picture, built here from the analyses and
//! drawn by the renderers twice, as PNG and as terminal blocks.
//!
//! A [`Raster`] is a map of a tablespace: one row per extent (or per group
//! of extents when the file is large), one cell per page (or per run of
//! pages), each cell a legend class and a level. A [`Chart`] is a bar or
//! line plot. Neither holds anything per page beyond its cells, whose count
//! is bounded ([`MAX_ROWS`] rows).

pub mod chart_builders;
pub mod heatmap;
pub mod lsn_age;
pub mod palette;

use serde::Serialize;

/// Rows of a raster at most: larger files are drawn with several pages per
/// cell, so that any file gives an image of bounded size (512 rows of at
/// least 4 px: a map at most 2,048 px tall).
pub const MAX_ROWS: u32 = 512;

/// The fill levels a fill scale shows: 0 %, 10 %, …, 100 %.
pub const FILL_SCALE: [f32; 11] = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

/// `n` and its noun, singular for one: `count(1, "page", "pages")` is
/// "1 page", `count(3, "page", "pages")` "3 pages".
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `c` as drawn at fill `level` (0 to 1): `c` itself when full, blended
/// toward white as the page empties, a quarter of it when empty (NaN is
/// empty, levels are clamped).
pub fn shade(c: Rgb, level: f32) -> Rgb {
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

/// A colour, red, green, blue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
pub struct Rgb(pub u8, pub u8, pub u8);

/// One entry of a picture's legend: a class of cells.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LegendItem {
    /// What the colour stands for.
    pub label: String,
    /// Its colour.
    pub colour: Rgb,
    /// A one-character symbol for output without colour.
    pub symbol: char,
    /// Pages of this class.
    pub pages: u64,
    /// Share of the pages drawn, a fraction from 0 to 1 (to four
    /// decimals; text shows it in percent).
    pub share: f64,
    /// Its cells are shaded by their level (the indexes of a fill map):
    /// see [`shade`].
    pub shaded: bool,
}

/// Marks a cell that holds no page (past the end of the file).
pub const NO_CLASS: u16 = u16::MAX;

/// One cell of a raster.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Cell {
    /// Index into the legend, or [`NO_CLASS`].
    pub class: u16,
    /// 0.0 to 1.0: the page's fill (fill maps; drawn as shade or height),
    /// otherwise 1.0.
    pub level: f32,
}

/// What the level of the cells means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LevelMeaning {
    /// Every cell is drawn full.
    None,
    /// The level is the page fill: a shade in PNG, a bar height in the terminal.
    Fill,
}

/// A histogram drawn under a map.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Histogram {
    /// What it counts.
    pub title: String,
    /// Label of the first bucket's lower edge.
    pub low_label: String,
    /// Label of the last bucket's upper edge.
    pub high_label: String,
    /// Count per bucket, low to high.
    pub counts: Vec<u64>,
    /// Colour per bucket.
    pub colours: Vec<Rgb>,
}

/// A map of a tablespace, one cell per page or per run of pages.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Raster {
    /// What is shown.
    pub title: String,
    /// The file, its page size and pages, and the aggregation when there is one.
    pub subtitle: String,
    /// Cells per row.
    pub columns: u32,
    /// Pages per cell: 1, or a power of two for large files.
    pub pages_per_cell: u32,
    /// Pages in the file (cells past it are [`NO_CLASS`]).
    pub pages: u64,
    /// Cells, row by row; its length is a multiple of `columns`.
    pub cells: Vec<Cell>,
    /// The classes.
    pub legend: Vec<LegendItem>,
    /// What the cell levels mean.
    pub level_meaning: LevelMeaning,
    /// A histogram to draw under the map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub histogram: Option<Histogram>,
}

impl Raster {
    /// Number of rows.
    pub fn rows(&self) -> usize {
        if self.columns == 0 {
            0
        } else {
            self.cells.len() / self.columns as usize
        }
    }

    /// The first page of row `r`: its label on the left.
    pub fn row_first_page(&self, r: usize) -> u64 {
        r as u64 * u64::from(self.columns) * u64::from(self.pages_per_cell)
    }

    /// The cells of row `r`.
    pub fn row(&self, r: usize) -> &[Cell] {
        let c = self.columns as usize;
        self.cells.get(r * c..(r + 1) * c).unwrap_or(&[])
    }

    /// The cell holding page `n`.
    pub fn cell_of_page(&self, n: u64) -> Option<&Cell> {
        let i = n / u64::from(self.pages_per_cell.max(1));
        self.cells.get(usize::try_from(i).ok()?)
    }

    /// The legend item of a cell.
    pub fn item(&self, cell: &Cell) -> Option<&LegendItem> {
        self.legend.get(usize::from(cell.class))
    }

    /// The colour a cell is drawn in, `None` for no page (or a class not in
    /// the legend): its class's colour, shaded by its level when the class
    /// is (the indexes of a fill map).
    pub fn cell_colour(&self, cell: &Cell) -> Option<Rgb> {
        let item = self.item(cell)?;
        Some(if item.shaded && self.level_meaning == LevelMeaning::Fill {
            shade(item.colour, cell.level)
        } else {
            item.colour
        })
    }

    /// The model as text, for snapshots: a header, the legend (symbol,
    /// colour, pages, share, label), then one line per row with each
    /// cell's legend symbol (fill levels are not shown).
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = format!("{}\n{}\n", self.title, self.subtitle);
        for item in &self.legend {
            let Rgb(r, g, b) = item.colour;
            let _ = writeln!(
                s,
                "  {} #{r:02x}{g:02x}{b:02x} {:>8} {:>6.2}%  {}",
                item.symbol,
                item.pages,
                crate::percent(item.share),
                item.label
            );
        }
        let width = self
            .row_first_page(self.rows().saturating_sub(1))
            .to_string()
            .len();
        for r in 0..self.rows() {
            let _ = write!(s, "{:>width$} ", self.row_first_page(r));
            for c in self.row(r) {
                s.push(self.item(c).map_or(' ', |i| i.symbol));
            }
            s.push('\n');
        }
        if let Some(h) = &self.histogram {
            let _ = writeln!(s, "{} ({} .. {})", h.title, h.low_label, h.high_label);
            let counts: Vec<String> = h.counts.iter().map(|c| c.to_string()).collect();
            let _ = writeln!(s, "  {}", counts.join(" "));
        }
        s
    }
}

/// A series of a chart.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Series {
    /// Its name, beside its bars.
    pub name: String,
    /// Its symbol: an index's letter, the same as in the heatmaps of its file.
    pub symbol: char,
    /// Its legend line: the name and what it totals.
    pub legend: String,
    /// Its colour.
    pub colour: Rgb,
    /// Bars: one value per category. Lines: (x, y) points, x ascending.
    pub points: Vec<(f64, f64)>,
}

/// How a chart is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChartKind {
    /// Grouped bars: one group per category, one bar per series; a point's
    /// x is the category index.
    Bars,
    /// Lines through each series' points, as steps.
    Steps,
}

/// A bar or line chart.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Chart {
    /// What is shown.
    pub title: String,
    /// The file and what was counted.
    pub subtitle: String,
    /// Bars or steps.
    pub kind: ChartKind,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// Bar charts: the category names, in order.
    pub categories: Vec<String>,
    /// The series.
    pub series: Vec<Series>,
}

impl Chart {
    /// The largest y of any series (0 for an empty chart).
    pub fn y_max(&self) -> f64 {
        self.series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .fold(0.0, f64::max)
    }

    /// The x range of a step chart.
    pub fn x_range(&self) -> (f64, f64) {
        let mut xs = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0));
        let Some(first) = xs.next() else {
            return (0.0, 0.0);
        };
        xs.fold((first, first), |(lo, hi), x| (lo.min(x), hi.max(x)))
    }

    /// The model as text, for snapshots.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = format!(
            "{}\n{}\nx: {}  y: {}\n",
            self.title, self.subtitle, self.x_label, self.y_label
        );
        if !self.categories.is_empty() {
            let _ = writeln!(s, "categories: {}", self.categories.join(" | "));
        }
        for series in &self.series {
            let Rgb(r, g, b) = series.colour;
            let pts: Vec<String> = series
                .points
                .iter()
                .map(|(x, y)| format!("{x}:{y}"))
                .collect();
            let _ = writeln!(
                s,
                "  {} {} #{r:02x}{g:02x}{b:02x}: {}",
                series.symbol,
                series.name,
                pts.join(" ")
            );
        }
        s
    }
}

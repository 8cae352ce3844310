//! `heatmap`: a map of every page of a tablespace, coloured by LSN age, page
//! type, fill or owning index, built in one scan with bounded memory.

use super::lsn_age::{self, Bands, LsnScale};
use super::palette::{self, IndexKeys};
use super::{count, Cell, Histogram, LegendItem, LevelMeaning, Raster, Rgb, MAX_ROWS, NO_CLASS};
use crate::reports::ownership::{classify, PageUse};
use crate::reports::scan::{scan, NoObserver, PageConsumer};
use innodb_format::index::page::PageSpace;
use innodb_format::vendor::Vendor;
use innodb_space::segment::SegmentOwner;
use innodb_space::space_map::SpaceMap;
use innodb_space::{Finding, PageCheck, Tablespace};
use serde::Serialize;

/// What the cells of a heatmap show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HeatmapBy {
    /// The page's LSN, ranked between the oldest and the newest page.
    LsnAge,
    /// The page type (INDEX split into leaves and non-leaf pages).
    PageType,
    /// The index a page holds records of, shaded by the page's fill.
    Fill,
    /// The owner the space map gives the page: an index, another segment,
    /// bookkeeping, or free.
    Index,
}

impl HeatmapBy {
    /// Name as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            HeatmapBy::LsnAge => "lsn-age",
            HeatmapBy::PageType => "page-type",
            HeatmapBy::Fill => "fill",
            HeatmapBy::Index => "index",
        }
    }
}

/// Buckets of the LSN histogram under an LSN-age map.
pub const LSN_HISTOGRAM_BUCKETS: usize = lsn_age::HISTOGRAM_BUCKETS;

/// Cells per row unless asked otherwise: 64, as Jeremy Cole's pictures,
/// whatever the page size (an extent of 4k pages then spans four rows).
pub const DEFAULT_ROW_CELLS: u32 = 64;

/// Most cells per row.
pub const MAX_ROW_CELLS: u32 = 1024;

/// How a heatmap is laid out and, for LSN age, scaled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeatmapOptions {
    /// The LSN-age scale.
    pub scale: LsnScale,
    /// Cells per row (1 to [`MAX_ROW_CELLS`]).
    pub row_cells: u32,
}

impl Default for HeatmapOptions {
    fn default() -> Self {
        HeatmapOptions {
            scale: LsnScale::Linear,
            row_cells: DEFAULT_ROW_CELLS,
        }
    }
}

/// The cell layout of a file with the default options: cells per row and
/// pages per cell.
pub fn layout(space: &Tablespace) -> (u32, u32) {
    cell_layout(u64::from(space.page_count()), DEFAULT_ROW_CELLS)
}

/// Cells per row (`row_cells`, 1 to [`MAX_ROW_CELLS`]) and pages per cell
/// (the smallest power of two that keeps the rows at most [`MAX_ROWS`]) for
/// a file of `pages` pages.
pub fn cell_layout(pages: u64, row_cells: u32) -> (u32, u32) {
    let columns = row_cells.clamp(1, MAX_ROW_CELLS);
    let mut per_cell: u32 = 1;
    while pages.div_ceil(u64::from(columns) * u64::from(per_cell)) > u64::from(MAX_ROWS)
        && per_cell < 1 << 30
    {
        per_cell *= 2;
    }
    (columns, per_cell)
}

/// What a row of `pages_per_row` pages is to extents of `extent` pages,
/// for the subtitle.
pub fn rows_and_extents(pages_per_row: u64, extent: u64) -> String {
    if extent == 0 || pages_per_row == 0 {
        return String::new();
    }
    if pages_per_row == extent {
        "a row is an extent".into()
    } else if extent > pages_per_row && extent.is_multiple_of(pages_per_row) {
        format!(
            "an extent ({extent} pages) spans {} rows",
            extent / pages_per_row
        )
    } else if pages_per_row > extent && pages_per_row.is_multiple_of(extent) {
        format!(
            "a row is {} extents of {extent} pages",
            pages_per_row / extent
        )
    } else {
        format!("an extent is {extent} pages")
    }
}

/// What kind of class a page falls in (the key of a legend item).
#[derive(Debug, Clone, PartialEq, Eq)]
enum ClassKey {
    Type(String, Option<bool>),
    Index(u64),
    /// A segment that is not an index: its place in [`palette::SEGMENTS`].
    Segment(usize),
    Bookkeeping,
    ReservedUnused,
    Free,
    Empty,
    Unaccounted,
    Other,
    LsnBand(usize),
}

impl ClassKey {
    /// Where the class goes in the legend of a map of `by`: LSN bands
    /// first, oldest to newest; indexes by rank, then the other segments
    /// in their fixed order, then bookkeeping, reserved, free, empty and
    /// the rest; page types as they came.
    fn order(&self, keys: &IndexKeys) -> (u8, usize) {
        match self {
            ClassKey::LsnBand(b) => (0, *b),
            ClassKey::Type(..) => (1, 0),
            ClassKey::Index(id) => (2, keys.rank(*id)),
            ClassKey::Segment(k) => (3, *k),
            ClassKey::Bookkeeping => (4, 0),
            ClassKey::ReservedUnused => (5, 0),
            ClassKey::Free => (6, 0),
            ClassKey::Empty => (7, 0),
            ClassKey::Unaccounted => (8, 0),
            ClassKey::Other => (9, 0),
        }
    }
}

/// The legend being built: classes in order of first appearance.
#[derive(Default)]
struct Classes {
    keys: Vec<ClassKey>,
    items: Vec<LegendItem>,
}

impl Classes {
    /// The class of `key`, made on first use with `make` giving its label
    /// and colour (an index's colour and every symbol are set after the scan).
    fn get(&mut self, key: ClassKey, make: impl FnOnce() -> (String, Rgb)) -> u16 {
        if let Some(i) = self.keys.iter().position(|k| *k == key) {
            return i as u16;
        }
        let (label, colour) = make();
        self.keys.push(key);
        self.items.push(LegendItem {
            label,
            colour,
            symbol: '?',
            pages: 0,
            share: 0.0,
            shaded: false,
        });
        (self.keys.len() - 1) as u16
    }

    /// Symbols and index colours: indexes by their keys, page types `A`,
    /// `B`, … in legend order, the rest fixed.
    fn set_keys(&mut self, keys: &IndexKeys, shaded_indexes: bool) {
        let mut types = 0;
        for (key, item) in self.keys.iter().zip(self.items.iter_mut()) {
            item.symbol = match key {
                ClassKey::Index(id) => {
                    let (symbol, colour) = keys.key(*id);
                    item.colour = colour;
                    item.shaded = shaded_indexes;
                    symbol
                }
                ClassKey::Type(..) => {
                    types += 1;
                    palette::index_key(types - 1).0
                }
                ClassKey::Segment(k) => palette::SEGMENTS.get(*k).map_or('?', |s| s.1),
                ClassKey::Free => '.',
                ClassKey::Empty => ' ',
                ClassKey::ReservedUnused => '-',
                ClassKey::Bookkeeping => '#',
                ClassKey::Unaccounted => '!',
                ClassKey::Other => '?',
                ClassKey::LsnBand(b) => char::from_digit(*b as u32, 10).unwrap_or('?'),
            };
        }
    }

    /// Puts the legend in [`ClassKey::order`] (page types and equal keys
    /// as they came) and renumbers the cells to match.
    fn sort(&mut self, keys: &IndexKeys, cells: &mut [Cell]) {
        // An "empty" class whose pages all went to LSN bands holds no cell.
        let mut order: Vec<usize> = (0..self.keys.len())
            .filter(|&i| {
                let gone = self.keys.get(i) == Some(&ClassKey::Empty)
                    && self.items.get(i).is_some_and(|it| it.pages == 0);
                !gone
            })
            .collect();
        order.sort_by_key(|&i| (self.keys.get(i).map(|k| k.order(keys)), i));
        let mut new_index = vec![NO_CLASS; self.keys.len()];
        for (new, &old) in order.iter().enumerate() {
            if let Some(slot) = new_index.get_mut(old) {
                *slot = new as u16;
            }
        }
        let mut keys_out = Vec::with_capacity(order.len());
        let mut items = Vec::with_capacity(order.len());
        for &old in &order {
            if let (Some(k), Some(item)) = (self.keys.get(old), self.items.get(old)) {
                keys_out.push(k.clone());
                items.push(item.clone());
            }
        }
        self.keys = keys_out;
        self.items = items;
        for cell in cells {
            if let Some(&n) = new_index.get(usize::from(cell.class)) {
                cell.class = n;
            }
        }
    }
}

/// Builds the heatmap of `space` in one scan, with the default options.
/// `map` is the space map (needed for [`HeatmapBy::Index`], used by
/// [`HeatmapBy::Fill`] to show free pages and by both to give each index
/// its letter and colour); `name` names an index id when a dictionary
/// knows it.
pub fn build(
    space: &Tablespace,
    map: Option<&SpaceMap>,
    by: HeatmapBy,
    name: &dyn Fn(u64) -> Option<String>,
) -> (Raster, Vec<Finding>) {
    build_with(space, map, by, &HeatmapOptions::default(), name)
}

/// [`build`] with `options`.
pub fn build_with(
    space: &Tablespace,
    map: Option<&SpaceMap>,
    by: HeatmapBy,
    options: &HeatmapOptions,
    name: &dyn Fn(u64) -> Option<String>,
) -> (Raster, Vec<Finding>) {
    let (mut rasters, findings) =
        build_many_with(space, map, &[by], options, name, &mut NoObserver);
    let raster = rasters.pop().unwrap_or_else(|| empty_raster(space));
    (raster, findings)
}

/// The heatmaps of several colourings from one scan of the file, in the
/// order of `bys`, with the default options and `observer` seeing every
/// page of that scan.
pub fn build_many(
    space: &Tablespace,
    map: Option<&SpaceMap>,
    bys: &[HeatmapBy],
    name: &dyn Fn(u64) -> Option<String>,
    observer: &mut dyn PageConsumer,
) -> (Vec<Raster>, Vec<Finding>) {
    build_many_with(space, map, bys, &HeatmapOptions::default(), name, observer)
}

/// [`build_many`] with `options`.
pub fn build_many_with(
    space: &Tablespace,
    map: Option<&SpaceMap>,
    bys: &[HeatmapBy],
    options: &HeatmapOptions,
    name: &dyn Fn(u64) -> Option<String>,
    observer: &mut dyn PageConsumer,
) -> (Vec<Raster>, Vec<Finding>) {
    let (columns, per_cell) = cell_layout(u64::from(space.page_count()), options.row_cells);
    let pages = u64::from(space.page_count());
    let n_cells = pages.div_ceil(u64::from(per_cell));
    let n_cells = n_cells.div_ceil(u64::from(columns)) * u64::from(columns);
    let n_cells = usize::try_from(n_cells).unwrap_or(0);
    let mut accs: Vec<Accumulator> = bys
        .iter()
        .map(|&by| {
            let lsn_cells = if by == HeatmapBy::LsnAge { n_cells } else { 0 };
            Accumulator {
                by,
                map,
                name,
                vendor: space.format().vendor,
                logical: space.format().logical_page_size(),
                per_cell,
                classes: Classes::default(),
                cells: vec![
                    Cell {
                        class: NO_CLASS,
                        level: 1.0,
                    };
                    n_cells
                ],
                lsn: vec![0; lsn_cells],
                written: vec![0; lsn_cells],
                current: Current::default(),
                ignored: Vec::new(),
            }
        })
        .collect();
    let findings = {
        let mut consumers: Vec<&mut dyn PageConsumer> = Vec::with_capacity(accs.len() + 1);
        for a in accs.iter_mut() {
            consumers.push(a);
        }
        consumers.push(observer);
        // The first findings of each kind: bounded on a file damaged everywhere.
        scan(space, None, &mut consumers).into_kept()
    };
    let known = IndexKeys::new(
        map.map(|m| {
            m.index_roots()
                .into_iter()
                .map(|(id, _)| id)
                .collect::<Vec<_>>()
        })
        .unwrap_or_default(),
    );
    let rasters = accs
        .into_iter()
        .map(|acc| {
            let layout = Layout {
                columns,
                per_cell,
                n_cells,
            };
            finish(space, acc, layout, options.scale, known.clone())
        })
        .collect();
    (rasters, findings)
}

/// A raster with no cells, for a file that gave none.
fn empty_raster(space: &Tablespace) -> Raster {
    Raster {
        title: space.path().display().to_string(),
        subtitle: String::new(),
        columns: DEFAULT_ROW_CELLS,
        pages_per_cell: 1,
        pages: 0,
        cells: Vec::new(),
        legend: Vec::new(),
        level_meaning: LevelMeaning::None,
        histogram: None,
    }
}

/// The cells of a raster: per row, pages per cell, in all.
#[derive(Debug, Clone, Copy)]
struct Layout {
    columns: u32,
    per_cell: u32,
    n_cells: usize,
}

/// The raster of an accumulator after the scan: LSN bands, index keys,
/// the legend in order with its shares, the title.
fn finish(
    space: &Tablespace,
    mut acc: Accumulator<'_>,
    layout: Layout,
    scale: LsnScale,
    mut keys: IndexKeys,
) -> Raster {
    acc.flush();
    let by = acc.by;
    let Accumulator {
        mut classes,
        mut cells,
        lsn,
        written,
        ..
    } = acc;
    let histogram = if by == HeatmapBy::LsnAge {
        Bands::new(scale, lsn.iter().copied())
            .map(|b| assign_bands(&b, &mut classes, &mut cells, &lsn, &written))
    } else {
        None
    };
    keys.add_others(classes.keys.iter().filter_map(|k| match k {
        ClassKey::Index(id) => Some(*id),
        _ => None,
    }));
    classes.set_keys(&keys, by == HeatmapBy::Fill);
    classes.sort(&keys, &mut cells);
    let mut legend = classes.items;
    let total: u64 = legend.iter().map(|i| i.pages).sum();
    for item in &mut legend {
        item.share = if total == 0 {
            0.0
        } else {
            (item.pages as f64 * 10000.0 / total as f64).round() / 10000.0
        };
    }
    Raster {
        title: title(space, by, scale),
        subtitle: subtitle(space, by, layout),
        columns: layout.columns,
        pages_per_cell: layout.per_cell,
        pages: u64::from(space.page_count()),
        cells,
        legend,
        level_meaning: if by == HeatmapBy::Fill {
            LevelMeaning::Fill
        } else {
            LevelMeaning::None
        },
        histogram,
    }
}

/// The title: the file and what the colours show.
fn title(space: &Tablespace, by: HeatmapBy, scale: LsnScale) -> String {
    let file = space.path().file_name().map_or_else(
        || space.path().display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    );
    let file = file.strip_suffix(".gz").unwrap_or(&file);
    let what = match (by, scale) {
        (HeatmapBy::LsnAge, LsnScale::Linear) => {
            "LSN age, linear scale (oldest yellow, newest purple)"
        }
        (HeatmapBy::LsnAge, LsnScale::Rank) => "LSN age, rank scale (oldest yellow, newest purple)",
        (HeatmapBy::PageType, _) => "page types",
        (HeatmapBy::Fill, _) => "index pages by index, shaded by fill",
        (HeatmapBy::Index, _) => "page owners from the space map",
    };
    format!("{file}: {what}")
}

/// The subtitle: page size, pages, rows, what a cell is, what a row is to
/// an extent.
fn subtitle(space: &Tablespace, by: HeatmapBy, layout: Layout) -> String {
    let Layout {
        columns,
        per_cell,
        n_cells,
    } = layout;
    let size = space.format().logical_page_size();
    let phys = space.format().physical_page_size();
    let sizes = if size == phys {
        format!("{}k pages", size / 1024)
    } else {
        format!("{}k pages stored in {}k", size / 1024, phys / 1024)
    };
    let rows = n_cells / columns.max(1) as usize;
    let per_row = u64::from(columns) * u64::from(per_cell);
    let cells = if per_cell == 1 {
        "one page per cell".to_string()
    } else {
        format!(
            "each cell is {per_cell} pages (drawn as the most common class{})",
            if by == HeatmapBy::LsnAge {
                ", newest LSN"
            } else {
                ""
            }
        )
    };
    let extents = rows_and_extents(per_row, space.format().extent_size() as u64);
    format!(
        "{sizes}; {} in {} of {}; {cells}; {extents}",
        count(u64::from(space.page_count()), "page", "pages"),
        count(rows as u64, "row", "rows"),
        count(per_row, "page", "pages"),
    )
}

/// Puts each written cell in its LSN band: the band's class (every band
/// of the scale in the legend, the bands of a rank scale only when they
/// hold pages), its written pages counted there instead of as empty.
/// Returns the histogram of pages by LSN.
fn assign_bands(
    bands: &Bands,
    classes: &mut Classes,
    cells: &mut [Cell],
    lsn: &[u64],
    written: &[u32],
) -> Histogram {
    let mut used = [false; lsn_age::BANDS];
    for &l in lsn.iter().filter(|&&l| l != 0) {
        if let Some(u) = used.get_mut(bands.band(l)) {
            *u = true;
        }
    }
    let mut band_class = [NO_CLASS; lsn_age::BANDS];
    let ranges = bands.ranges();
    for (b, ((range, class), &colour)) in ranges
        .iter()
        .zip(band_class.iter_mut())
        .zip(&palette::LSN_BANDS)
        .enumerate()
    {
        let shown = bands.scale() == LsnScale::Linear || used.get(b) == Some(&true);
        if let (Some(range), true) = (range, shown) {
            *class = classes.get(ClassKey::LsnBand(b), || (bands.label(b, *range), colour));
        }
    }
    for ((cell, &l), &w) in cells.iter_mut().zip(lsn).zip(written) {
        if l == 0 {
            continue;
        }
        let class = band_class.get(bands.band(l)).copied().unwrap_or(NO_CLASS);
        if cell.class != NO_CLASS {
            // The cell's written pages move from "empty" to their band.
            if let Some(item) = classes.items.get_mut(usize::from(cell.class)) {
                item.pages = item.pages.saturating_sub(u64::from(w));
            }
        }
        if let Some(item) = classes.items.get_mut(usize::from(class)) {
            item.pages += u64::from(w);
        }
        cell.class = class;
    }
    bands.histogram(lsn, written)
}

/// The cell being filled.
#[derive(Default)]
struct Current {
    cell: usize,
    counts: Vec<u32>,
    level_sum: f64,
    level_n: u32,
    lsn: u64,
    written: u32,
    any: bool,
}

struct Accumulator<'a> {
    by: HeatmapBy,
    map: Option<&'a SpaceMap>,
    name: &'a dyn Fn(u64) -> Option<String>,
    vendor: Vendor,
    logical: usize,
    per_cell: u32,
    classes: Classes,
    cells: Vec<Cell>,
    lsn: Vec<u64>,
    written: Vec<u32>,
    current: Current,
    ignored: Vec<Finding>,
}

impl PageConsumer for Accumulator<'_> {
    fn page(&mut self, check: &PageCheck, _bytes: &[u8]) {
        let cell = (check.page_no / self.per_cell) as usize;
        if cell != self.current.cell && self.current.any {
            self.flush();
        }
        self.current.cell = cell;
        self.current.any = true;
        let (class, level) = self.class_of(check);
        if let Some(item) = self.classes.items.get_mut(usize::from(class)) {
            item.pages += 1;
        }
        let c = &mut self.current;
        let i = usize::from(class);
        if c.counts.len() <= i {
            c.counts.resize(i + 1, 0);
        }
        if let Some(n) = c.counts.get_mut(i) {
            *n += 1;
        }
        if let Some(l) = level {
            c.level_sum += f64::from(l);
            c.level_n += 1;
        }
        if self.by == HeatmapBy::LsnAge && !check.all_zero && check.fil.lsn != 0 {
            c.lsn = c.lsn.max(check.fil.lsn);
            c.written += 1;
        }
    }

    /// The pages of a hole inside the space map one by one (their owners
    /// differ); past the map, where every all-zero page has the same class,
    /// a cell's worth at a time: a hole of terabytes costs one step per cell.
    fn hole(&mut self, first: u32, count: u32, zero: &mut PageCheck, bytes: &[u8]) {
        let end = first.saturating_add(count);
        let mapped = self.map.map_or(0, SpaceMap::mapped_pages);
        let uniform_from = mapped.clamp(first, end);
        for n in first..uniform_from {
            zero.page_no = n;
            self.page(zero, bytes);
        }
        if uniform_from >= end {
            return;
        }
        zero.page_no = uniform_from;
        let (class, level) = self.class_of(zero);
        let per_cell = u64::from(self.per_cell.max(1));
        let mut n = u64::from(uniform_from);
        while n < u64::from(end) {
            let cell = n / per_cell;
            let cell_end = ((cell + 1) * per_cell).min(u64::from(end));
            let k = (cell_end - n) as u32;
            if cell as usize != self.current.cell && self.current.any {
                self.flush();
            }
            self.current.cell = cell as usize;
            self.current.any = true;
            if let Some(item) = self.classes.items.get_mut(usize::from(class)) {
                item.pages += u64::from(k);
            }
            let c = &mut self.current;
            let i = usize::from(class);
            if c.counts.len() <= i {
                c.counts.resize(i + 1, 0);
            }
            if let Some(m) = c.counts.get_mut(i) {
                *m += k;
            }
            if let Some(l) = level {
                c.level_sum += f64::from(l) * f64::from(k);
                c.level_n += k;
            }
            n = cell_end;
        }
    }
}

impl Accumulator<'_> {
    /// Writes the current cell and starts afresh.
    fn flush(&mut self) {
        let c = &mut self.current;
        if !c.any {
            return;
        }
        let mode = c
            .counts
            .iter()
            .enumerate()
            .max_by_key(|&(i, &n)| (n, std::cmp::Reverse(i)))
            .filter(|&(_, &n)| n > 0)
            .map_or(NO_CLASS, |(i, _)| i as u16);
        let level = if c.level_n == 0 {
            1.0
        } else {
            (c.level_sum / f64::from(c.level_n)) as f32
        };
        if let Some(cell) = self.cells.get_mut(c.cell) {
            *cell = Cell { class: mode, level };
        }
        if let Some(l) = self.lsn.get_mut(c.cell) {
            *l = c.lsn;
        }
        if let Some(w) = self.written.get_mut(c.cell) {
            *w = c.written;
        }
        c.counts.iter_mut().for_each(|n| *n = 0);
        c.level_sum = 0.0;
        c.level_n = 0;
        c.lsn = 0;
        c.written = 0;
        c.any = false;
    }

    /// The class of a page and, for fill maps, its level.
    fn class_of(&mut self, check: &PageCheck) -> (u16, Option<f32>) {
        match self.by {
            HeatmapBy::LsnAge => {
                // Written pages are ranked after the scan; until then they
                // count as empty.
                (self.classes.get(ClassKey::Empty, empty), None)
            }
            HeatmapBy::PageType => (self.type_class(check), None),
            HeatmapBy::Index => (self.owner_class(check.page_no), None),
            HeatmapBy::Fill => self.fill_class(check),
        }
    }

    fn type_class(&mut self, check: &PageCheck) -> u16 {
        if check.all_zero {
            return self.classes.get(ClassKey::Empty, empty);
        }
        let name = check.page_type.name(self.vendor).into_owned();
        let leaf = check
            .index
            .filter(|_| check.page_type.is_index_layout(self.vendor))
            .map(|h| h.level == 0);
        let label = match leaf {
            Some(true) => format!("{name} leaf"),
            Some(false) => format!("{name} non-leaf"),
            None => name.clone(),
        };
        let colour = palette::page_type(&name, leaf);
        self.classes
            .get(ClassKey::Type(name, leaf), || (label, colour))
    }

    fn owner_class(&mut self, n: u32) -> u16 {
        let Some(map) = self.map else {
            return self.classes.get(ClassKey::Other, || {
                ("unknown (no space map)".into(), palette::OTHER)
            });
        };
        let name = self.name;
        match classify(map, n, &mut self.ignored) {
            PageUse::Segment { segment, .. } => match map.segments.get(segment).map(|s| s.owner) {
                Some(
                    SegmentOwner::IndexLeaf { index_id, .. }
                    | SegmentOwner::IndexNonLeaf { index_id, .. },
                ) => self.classes.get(ClassKey::Index(index_id), || {
                    (index_label(index_id, name), palette::OTHER)
                }),
                Some(owner) => {
                    let k = palette::segment_kind(owner);
                    self.classes.get(ClassKey::Segment(k), || {
                        palette::SEGMENTS
                            .get(k)
                            .map_or(("segment".into(), palette::OTHER), |s| (s.0.into(), s.2))
                    })
                }
                None => self.classes.get(ClassKey::Unaccounted, unaccounted),
            },
            PageUse::Bookkeeping => self.classes.get(ClassKey::Bookkeeping, || {
                (
                    "bookkeeping (FSP_HDR, XDES, IBUF_BITMAP, INODE)".into(),
                    palette::BOOKKEEPING,
                )
            }),
            PageUse::ReservedUnused { .. } => self.classes.get(ClassKey::ReservedUnused, || {
                (
                    "reserved unused: free, in an extent a segment reserved".into(),
                    palette::RESERVED_UNUSED,
                )
            }),
            PageUse::FragmentUnused | PageUse::FreeExtent => self.classes.get(ClassKey::Free, free),
            PageUse::BeyondFreeLimit => self.classes.get(ClassKey::Empty, || {
                (
                    "beyond the free limit (FSP_FREE_LIMIT)".into(),
                    palette::EMPTY,
                )
            }),
            PageUse::Undescribed | PageUse::Unaccounted => {
                self.classes.get(ClassKey::Unaccounted, unaccounted)
            }
        }
    }

    fn fill_class(&mut self, check: &PageCheck) -> (u16, Option<f32>) {
        if let Some(map) = self.map {
            match classify(map, check.page_no, &mut self.ignored) {
                PageUse::Segment { .. } | PageUse::Bookkeeping => {}
                PageUse::BeyondFreeLimit => {
                    return (
                        self.classes.get(ClassKey::Empty, || {
                            (
                                "beyond the free limit (FSP_FREE_LIMIT)".into(),
                                palette::EMPTY,
                            )
                        }),
                        None,
                    )
                }
                _ => return (self.classes.get(ClassKey::Free, free), None),
            }
        }
        if check.all_zero {
            return (self.classes.get(ClassKey::Empty, empty), None);
        }
        let index = check
            .index
            .filter(|_| check.page_type.is_index_layout(self.vendor));
        let Some(h) = index else {
            return (
                self.classes
                    .get(ClassKey::Other, || ("other pages".into(), palette::OTHER)),
                None,
            );
        };
        let name = self.name;
        let class = self.classes.get(ClassKey::Index(h.index_id), || {
            (index_label(h.index_id, name), palette::OTHER)
        });
        let fill = PageSpace::of_header(&h, self.logical)
            .fill()
            .clamp(0.0, 1.0) as f32;
        (class, Some(fill))
    }
}

fn index_label(index_id: u64, name: &dyn Fn(u64) -> Option<String>) -> String {
    match name(index_id) {
        // MySQL 8's Serialized Dictionary Information index (id 2^64 - 1).
        _ if index_id == innodb_format::index::sdi::SDI_INDEX_ID => "SDI".to_string(),
        Some(n) => format!("index {index_id} ({n})"),
        None => format!("index {index_id}"),
    }
}

fn empty() -> (String, Rgb) {
    ("never written (all zero)".into(), palette::EMPTY)
}

fn free() -> (String, Rgb) {
    ("free".into(), palette::FREE)
}

fn unaccounted() -> (String, Rgb) {
    (
        "used but unaccounted, or undescribed".into(),
        palette::UNACCOUNTED,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_files_get_several_pages_per_cell_and_bounded_rows() {
        // A 16k file of 1,000 pages: one cell per page, 64 per row.
        assert_eq!(cell_layout(1000, 64), (64, 1));
        // The 1.2 GB benchmark file: 73,728 pages of 16k would need 1,152 rows.
        assert_eq!(cell_layout(73_728, 64), (64, 4));
        // 8 GiB of 16k pages: 524,288 pages, 8,192 rows of one page per cell.
        assert_eq!(cell_layout(524_288, 64), (64, 16));
        // 100 GB of 16k pages: 6,553,600 pages.
        let (c, p) = cell_layout(6_553_600, 64);
        assert_eq!((c, p), (64, 256));
        assert!(6_553_600u64.div_ceil(u64::from(c * p)) <= u64::from(MAX_ROWS));
        // Any row width asked for, up to 1,024 cells.
        assert_eq!(cell_layout(10_000, 256), (256, 1));
        assert_eq!(cell_layout(10, 5000).0, MAX_ROW_CELLS);
        assert_eq!(cell_layout(10, 0).0, 1);
        assert_eq!(cell_layout(0, 64), (64, 1));
        assert_eq!(cell_layout(u64::MAX, 1).1, 1 << 30);
    }

    #[test]
    fn rows_of_64_cells_at_every_page_size() {
        // Pages per extent at 4k, 8k, 16k, 32k and 64k: 256, 128, 64, 64, 64.
        for (extent, said) in [
            (256, "an extent (256 pages) spans 4 rows"),
            (128, "an extent (128 pages) spans 2 rows"),
            (64, "a row is an extent"),
        ] {
            // A file of 100 extents: one page per cell, 64 cells per row.
            let (columns, per_cell) = cell_layout(100 * extent, DEFAULT_ROW_CELLS);
            assert_eq!((columns, per_cell), (64, 1), "extent {extent}");
            assert_eq!(rows_and_extents(64, extent), said);
        }
        assert_eq!(rows_and_extents(256, 64), "a row is 4 extents of 64 pages");
        assert_eq!(rows_and_extents(100, 64), "an extent is 64 pages");
        assert_eq!(rows_and_extents(0, 64), "");
    }
}

//! `heatmap`: a map of every page of a tablespace, coloured by LSN age, page
//! type, fill or owning index, built in one scan with bounded memory.

use super::{palette, Cell, Histogram, LegendItem, LevelMeaning, Raster, Rgb, MAX_ROWS, NO_CLASS};
use crate::reports::ownership::{classify, PageUse};
use crate::reports::scan::{scan, NoObserver, PageConsumer};
use innodb_format::index::page::PageSpace;
use innodb_format::vendor::Vendor;
use innodb_space::segment::SegmentOwner;
use innodb_space::space_map::SpaceMap;
use innodb_space::{Finding, PageCheck, Tablespace};
use serde::Serialize;

/// What the cells of a heatmap show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
pub const LSN_HISTOGRAM_BUCKETS: usize = 64;

/// The cell layout of a file: cells per row and pages per cell.
pub fn layout(space: &Tablespace) -> (u32, u32) {
    cell_layout(u64::from(space.page_count()), space.format().extent_size())
}

/// Cells per row (pages per extent, 64 to 256) and pages per cell (the
/// smallest power of two that keeps the rows at most [`MAX_ROWS`]) for a
/// file of `pages` pages.
pub fn cell_layout(pages: u64, extent_size: usize) -> (u32, u32) {
    let columns = u32::try_from(extent_size).unwrap_or(256).clamp(1, 256);
    let mut per_cell: u32 = 1;
    while pages.div_ceil(u64::from(columns) * u64::from(per_cell)) > u64::from(MAX_ROWS)
        && per_cell < 1 << 30
    {
        per_cell *= 2;
    }
    (columns, per_cell)
}

/// What kind of class a page falls in (the key of a legend item).
#[derive(Debug, Clone, PartialEq, Eq)]
enum ClassKey {
    Type(String, Option<bool>),
    Index(u64),
    Segment(String),
    Bookkeeping,
    ReservedUnused,
    Free,
    Empty,
    Unaccounted,
    Other,
    LsnBand(usize),
}

/// The legend being built: classes in order of first appearance.
#[derive(Default)]
struct Classes {
    keys: Vec<ClassKey>,
    items: Vec<LegendItem>,
    distinct_used: usize,
}

const SYMBOLS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

impl Classes {
    /// The class of `key`, made on first use with `make` giving its label and colour.
    fn get(&mut self, key: ClassKey, make: impl FnOnce(&mut usize) -> (String, Rgb)) -> u16 {
        if let Some(i) = self.keys.iter().position(|k| *k == key) {
            return i as u16;
        }
        let (label, colour) = make(&mut self.distinct_used);
        let symbol = symbol_of(&key, self.keys.len());
        self.keys.push(key);
        self.items.push(LegendItem {
            label,
            colour,
            symbol,
            pages: 0,
            percent: 0.0,
        });
        (self.keys.len() - 1) as u16
    }
}

fn symbol_of(key: &ClassKey, i: usize) -> char {
    match key {
        ClassKey::Free => '.',
        ClassKey::Empty => ' ',
        ClassKey::ReservedUnused => '-',
        ClassKey::Bookkeeping => '#',
        ClassKey::Unaccounted => '!',
        ClassKey::Other => '?',
        ClassKey::LsnBand(b) => char::from_digit(*b as u32, 10).unwrap_or('?'),
        _ => SYMBOLS.chars().nth(i % SYMBOLS.len()).unwrap_or('?'),
    }
}

/// Builds the heatmap of `space` in one scan. `map` is the space map (needed
/// for [`HeatmapBy::Index`], used by [`HeatmapBy::Fill`] to show free pages);
/// `name` names an index id when a dictionary knows it.
pub fn build(
    space: &Tablespace,
    map: Option<&SpaceMap>,
    by: HeatmapBy,
    name: &dyn Fn(u64) -> Option<String>,
) -> (Raster, Vec<Finding>) {
    build_observed(space, map, by, name, &mut NoObserver)
}

/// [`build`], with `observer` seeing every page of the same scan (to count
/// progress, or to gather something else in the same pass).
pub fn build_observed(
    space: &Tablespace,
    map: Option<&SpaceMap>,
    by: HeatmapBy,
    name: &dyn Fn(u64) -> Option<String>,
    observer: &mut dyn PageConsumer,
) -> (Raster, Vec<Finding>) {
    let (mut rasters, findings) = build_many(space, map, &[by], name, observer);
    let raster = rasters.pop().unwrap_or_else(|| empty_raster(space));
    (raster, findings)
}

/// The heatmaps of several colourings from one scan of the file, in the
/// order of `bys`, with `observer` seeing every page of that scan.
pub fn build_many(
    space: &Tablespace,
    map: Option<&SpaceMap>,
    bys: &[HeatmapBy],
    name: &dyn Fn(u64) -> Option<String>,
    observer: &mut dyn PageConsumer,
) -> (Vec<Raster>, Vec<Finding>) {
    let (columns, per_cell) = layout(space);
    let pages = u64::from(space.page_count());
    let n_cells = pages.div_ceil(u64::from(per_cell));
    let n_cells = n_cells.div_ceil(u64::from(columns)) * u64::from(columns);
    let n_cells = usize::try_from(n_cells).unwrap_or(0);
    let mut accs: Vec<Accumulator> = bys
        .iter()
        .map(|&by| Accumulator {
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
            lsn: if by == HeatmapBy::LsnAge {
                vec![0; n_cells]
            } else {
                Vec::new()
            },
            written: if by == HeatmapBy::LsnAge {
                vec![0; n_cells]
            } else {
                Vec::new()
            },
            current: Current::default(),
            ignored: Vec::new(),
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
    let rasters = accs
        .into_iter()
        .map(|acc| finish(space, acc, columns, per_cell, n_cells))
        .collect();
    (rasters, findings)
}

/// A raster with no cells, for a file that gave none.
fn empty_raster(space: &Tablespace) -> Raster {
    Raster {
        title: space.path().display().to_string(),
        subtitle: String::new(),
        columns: 64,
        pages_per_cell: 1,
        pages: 0,
        cells: Vec::new(),
        legend: Vec::new(),
        level_meaning: LevelMeaning::None,
        histogram: None,
    }
}

/// The raster of an accumulator after the scan: LSN ranks, the legend's
/// shares, the title.
fn finish(
    space: &Tablespace,
    mut acc: Accumulator<'_>,
    columns: u32,
    per_cell: u32,
    n_cells: usize,
) -> Raster {
    acc.flush();
    let by = acc.by;
    let pages = u64::from(space.page_count());
    let Accumulator {
        mut classes,
        mut cells,
        lsn,
        written,
        ..
    } = acc;
    let histogram = if by == HeatmapBy::LsnAge {
        Some(rank_lsn(&mut classes, &mut cells, &lsn, &written))
    } else {
        None
    };
    if by == HeatmapBy::LsnAge {
        bands_first(&mut classes, &mut cells);
    }
    let mut legend = classes.items;
    let total: u64 = legend.iter().map(|i| i.pages).sum();
    for item in &mut legend {
        item.percent = if total == 0 {
            0.0
        } else {
            (item.pages as f64 * 10000.0 / total as f64).round() / 100.0
        };
    }
    let file = space.path().file_name().map_or_else(
        || space.path().display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    );
    let file = file.strip_suffix(".gz").unwrap_or(&file);
    let size = space.format().logical_page_size();
    let phys = space.format().physical_page_size();
    let sizes = if size == phys {
        format!("{}k pages", size / 1024)
    } else {
        format!("{}k pages stored in {}k", size / 1024, phys / 1024)
    };
    let rows = n_cells / columns as usize;
    let aggregation =
        if per_cell == 1 {
            format!("one cell per page, {columns} pages per row")
        } else {
            format!(
            "each cell is {per_cell} pages (drawn as the most common class{}), {} pages per row",
            if by == HeatmapBy::LsnAge { ", newest LSN" } else { "" },
            u64::from(columns) * u64::from(per_cell)
        )
        };
    let what = match by {
        HeatmapBy::LsnAge => "LSN age (page LSN rank, newest hottest)",
        HeatmapBy::PageType => "page types",
        HeatmapBy::Fill => "index pages by index, shaded by fill",
        HeatmapBy::Index => "page owners from the space map",
    };
    Raster {
        title: format!("{file}: {what}"),
        subtitle: format!("{sizes}, {pages} pages, {rows} rows; {aggregation}"),
        columns,
        pages_per_cell: per_cell,
        pages,
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

/// Ranks the cells' LSNs: each written cell gets the band of the share of
/// cells whose LSN is at most its own (so the newest is band 9, the
/// hottest); returns the LSN histogram.
fn rank_lsn(classes: &mut Classes, cells: &mut [Cell], lsn: &[u64], written: &[u32]) -> Histogram {
    let mut sorted: Vec<u64> = lsn.iter().copied().filter(|&l| l != 0).collect();
    sorted.sort_unstable();
    let bands = palette::LSN_BANDS.len();
    let band_of = |l: u64| -> usize {
        let at_most = sorted.partition_point(|&x| x <= l);
        let share = at_most as f64 / sorted.len().max(1) as f64;
        ((share * bands as f64).ceil() as usize).clamp(1, bands) - 1
    };
    // Band ranges for the legend labels.
    let mut range: Vec<Option<(u64, u64)>> = vec![None; bands];
    for &l in &sorted {
        let b = band_of(l);
        if let Some(r) = range.get_mut(b) {
            *r = Some(r.map_or((l, l), |(lo, hi)| (lo.min(l), hi.max(l))));
        }
    }
    let mut band_class = vec![NO_CLASS; bands];
    for (b, ((r, class), &colour)) in range
        .iter()
        .zip(band_class.iter_mut())
        .zip(&palette::LSN_BANDS)
        .enumerate()
    {
        if let Some((lo, hi)) = r {
            let pct_lo = b * 100 / bands;
            let pct_hi = (b + 1) * 100 / bands;
            *class = classes.get(ClassKey::LsnBand(b), |_| {
                (
                    format!("LSN rank {pct_lo}-{pct_hi}%: LSN {lo}..{hi}"),
                    colour,
                )
            });
        }
    }
    for ((cell, &l), &w) in cells.iter_mut().zip(lsn).zip(written) {
        if l == 0 {
            continue;
        }
        let b = band_of(l);
        let class = band_class.get(b).copied().unwrap_or(NO_CLASS);
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
    // The legend keeps band order: oldest first, then the rest.
    let (lo, hi) = (
        sorted.first().copied().unwrap_or(0),
        sorted.last().copied().unwrap_or(0),
    );
    let mut counts = vec![0u64; LSN_HISTOGRAM_BUCKETS];
    let span = hi.saturating_sub(lo);
    for (&l, &w) in lsn.iter().zip(written) {
        if l == 0 {
            continue;
        }
        let i = if span == 0 {
            LSN_HISTOGRAM_BUCKETS - 1
        } else {
            ((u128::from(l - lo) * LSN_HISTOGRAM_BUCKETS as u128) / (u128::from(span) + 1)) as usize
        };
        if let Some(c) = counts.get_mut(i) {
            *c += u64::from(w);
        }
    }
    let colours = (0..LSN_HISTOGRAM_BUCKETS)
        .map(|i| {
            let upper =
                lo + (u128::from(span) * (i as u128 + 1) / LSN_HISTOGRAM_BUCKETS as u128) as u64;
            palette::LSN_BANDS
                .get(band_of(upper))
                .copied()
                .unwrap_or(palette::HOTTEST)
        })
        .collect();
    Histogram {
        title: "pages by LSN (oldest left, newest right)".into(),
        low_label: lo.to_string(),
        high_label: hi.to_string(),
        counts,
        colours,
    }
}

/// Puts the LSN bands first in the legend, oldest to newest, the other
/// classes after them, and renumbers the cells to match.
fn bands_first(classes: &mut Classes, cells: &mut [Cell]) {
    let mut order: Vec<usize> = (0..classes.keys.len()).collect();
    order.sort_by_key(|&i| match classes.keys.get(i) {
        Some(ClassKey::LsnBand(b)) => (0, *b, i),
        _ => (1, 0, i),
    });
    let mut new_index = vec![NO_CLASS; order.len()];
    for (new, &old) in order.iter().enumerate() {
        if let Some(slot) = new_index.get_mut(old) {
            *slot = new as u16;
        }
    }
    let mut keys = Vec::with_capacity(order.len());
    let mut items = Vec::with_capacity(order.len());
    for &old in &order {
        if let (Some(k), Some(item)) = (classes.keys.get(old), classes.items.get(old)) {
            keys.push(k.clone());
            items.push(item.clone());
        }
    }
    classes.keys = keys;
    classes.items = items;
    for cell in cells {
        if let Some(&n) = new_index.get(usize::from(cell.class)) {
            cell.class = n;
        }
    }
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
            .get(ClassKey::Type(name, leaf), |_| (label, colour))
    }

    fn owner_class(&mut self, n: u32) -> u16 {
        let Some(map) = self.map else {
            return self.classes.get(ClassKey::Other, |_| {
                ("unknown (no space map)".into(), palette::OTHER)
            });
        };
        let name = self.name;
        match classify(map, n, &mut self.ignored) {
            PageUse::Segment { segment, .. } => match map.segments.get(segment).map(|s| s.owner) {
                Some(
                    SegmentOwner::IndexLeaf { index_id, .. }
                    | SegmentOwner::IndexNonLeaf { index_id, .. },
                ) => self.classes.get(ClassKey::Index(index_id), |d| {
                    let c = palette::distinct(*d);
                    *d += 1;
                    (index_label(index_id, name), c)
                }),
                Some(owner) => {
                    let kind = segment_kind(owner);
                    self.classes.get(ClassKey::Segment(kind.into()), |d| {
                        let c = palette::distinct(*d);
                        *d += 1;
                        (kind.into(), c)
                    })
                }
                None => self.classes.get(ClassKey::Unaccounted, unaccounted),
            },
            PageUse::Bookkeeping => self.classes.get(ClassKey::Bookkeeping, |_| {
                (
                    "bookkeeping (FSP_HDR, XDES, IBUF_BITMAP, INODE)".into(),
                    palette::BOOKKEEPING,
                )
            }),
            PageUse::ReservedUnused { .. } => self.classes.get(ClassKey::ReservedUnused, |_| {
                (
                    "free, in an extent a segment reserved".into(),
                    palette::RESERVED_UNUSED,
                )
            }),
            PageUse::FragmentUnused | PageUse::FreeExtent => self.classes.get(ClassKey::Free, free),
            PageUse::BeyondFreeLimit => self.classes.get(ClassKey::Empty, |_| {
                (
                    "not initialised (at or past the free limit)".into(),
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
                        self.classes.get(ClassKey::Empty, |_| {
                            (
                                "not initialised (at or past the free limit)".into(),
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
                    .get(ClassKey::Other, |_| ("other pages".into(), palette::OTHER)),
                None,
            );
        };
        let name = self.name;
        let class = self.classes.get(ClassKey::Index(h.index_id), |d| {
            let c = palette::distinct(*d);
            *d += 1;
            (index_label(h.index_id, name), c)
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

fn segment_kind(owner: SegmentOwner) -> &'static str {
    match owner {
        SegmentOwner::ChangeBuffer => "change buffer",
        SegmentOwner::TransactionSystem => "transaction system",
        SegmentOwner::Doublewrite => "doublewrite buffer",
        SegmentOwner::DictionaryHeader => "dictionary header",
        SegmentOwner::RollbackSegment { .. } => "rollback segment headers",
        SegmentOwner::UndoLog { .. } => "undo log segments",
        SegmentOwner::RollbackSegmentArray { .. } => "rollback segment array",
        SegmentOwner::IndexLeaf { .. } | SegmentOwner::IndexNonLeaf { .. } => "index",
        SegmentOwner::Unknown => "segment no header points at",
    }
}

fn empty(_: &mut usize) -> (String, Rgb) {
    ("never written (all zero)".into(), palette::EMPTY)
}

fn free(_: &mut usize) -> (String, Rgb) {
    ("free".into(), palette::FREE)
}

fn unaccounted(_: &mut usize) -> (String, Rgb) {
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
        assert_eq!(cell_layout(73_728, 64), (64, 2));
        // 100 GB of 16k pages: 6,553,600 pages.
        let (c, p) = cell_layout(6_553_600, 64);
        assert_eq!((c, p), (64, 128));
        assert!(6_553_600u64.div_ceil(u64::from(c * p)) <= u64::from(MAX_ROWS));
        // 4k pages: 256 per extent, 256 per row.
        assert_eq!(cell_layout(10_000, 256), (256, 1));
        // Extents wider than 256 pages are wrapped at 256.
        assert_eq!(cell_layout(10, 1024).0, 256);
        assert_eq!(cell_layout(0, 64), (64, 1));
    }
}

//! Entry points over a whole file: every command's library path and its
//! renderers, as the command line runs them.

use innodb_analysis::pictures::chart_builders;
use innodb_analysis::pictures::heatmap::{self, HeatmapBy};
use innodb_analysis::reports::count_report::CountReport;
use innodb_analysis::reports::indexes::{IndexAnalysis, IndexesReport};
use innodb_analysis::reports::scan::NoObserver;
use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::reports::space_reports::{ExtentsReport, SegmentsReport, WasteReport};
use innodb_analysis::reports::tree_report::TreeReport;
use innodb_analysis::reports::undo_report::UndoReport;
use innodb_analysis::rows::key_search;
use innodb_analysis::rows::records::{RecordsReport, Schema};
use innodb_analysis::{ChecksumReport, PageDetail, PageFilter, PageList, Summary};
use innodb_render::{json, png, space_text, text, undo_text};
use innodb_space::dictionary::Dictionary;
use innodb_space::space_map::SpaceMap;
use innodb_space::Tablespace;

/// How much of a file the per-page entry points look at.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Pages decoded one by one (`page N`, page-local records).
    pub pages: u32,
    /// Rows listed per index (`records`), undo records per log (`undo`).
    pub rows: usize,
    /// Indexes walked with `tree`.
    pub trees: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            pages: 64,
            rows: 200,
            trees: 4,
        }
    }
}

/// Every whole-file report of `space` and its text and JSON renderings:
/// `summary`, `checksum` (one thread and two), `pages`, the space reports
/// (`segments`, `extents`, `waste`, `indexes`, `fill`, `count`), `tree` of
/// the first indexes, every heatmap and chart (terminal and PNG).
pub fn whole_file(space: &Tablespace, limits: Limits) -> usize {
    let mut out = 0;
    let s = Summary::build(space);
    out += text::summary(&s).len() + json::render(&s).len();
    let c = ChecksumReport::build(space);
    out += text::checksums(std::slice::from_ref(&c)).len() + json::render(&c).len();
    let c2 = ChecksumReport::build_threads(space, 2);
    out += json::render(&c2).len();
    let list = PageList::build(space, &PageFilter::default());
    out += text::pages(&list).len() + json::render(&list).len();

    let map = SpaceMap::read(space).ok();
    if let Ok(a) = IndexAnalysis::build(space) {
        let segments = SegmentsReport::new(space, &a.account);
        let extents = ExtentsReport::new(space, &a.account);
        let waste = WasteReport::new(space, &a.account);
        let indexes = IndexesReport::new(space, &a);
        out += space_text::segments(&segments).len() + json::render(&segments).len();
        out += space_text::extents(&extents, true).len() + json::render(&extents).len();
        out += space_text::waste(&waste).len() + json::render(&waste).len();
        out += space_text::indexes(&indexes).len() + json::render(&indexes).len();
        out += space_text::fill(&indexes).len();
        for chart in [
            chart_builders::levels(&indexes),
            chart_builders::fill_histogram(&indexes),
        ] {
            out += innodb_render::ansi::chart(&chart, true).len();
            out += png::chart_image(&chart).len();
        }
        for stats in indexes.indexes.iter().take(limits.trees) {
            if let Ok(t) = TreeReport::build(space, stats.index_id, None) {
                out += space_text::tree(&t).len() + json::render(&t).len();
            }
        }
    }
    if let Ok(count) = CountReport::build(space, 8, 1) {
        out += space_text::count(&count).len() + json::render(&count).len();
    }
    let bys = [
        HeatmapBy::LsnAge,
        HeatmapBy::PageType,
        HeatmapBy::Fill,
        HeatmapBy::Index,
    ];
    let (rasters, _) = heatmap::build_many(space, map.as_ref(), &bys, &|_| None, &mut NoObserver);
    for r in &rasters {
        out += innodb_render::ansi::raster(r, true).len();
        out += png::raster_image(r).len();
    }
    out
}

/// `page N` for the first [`Limits::pages`] pages, in text and JSON.
pub fn every_page(space: &Tablespace, limits: Limits) -> usize {
    let mut out = 0;
    for n in 0..space.page_count().min(limits.pages) {
        if let Ok(d) = PageDetail::build(space, n) {
            out += text::page(&d).len() + json::render(&d).len();
        }
    }
    out
}

/// `records` of every index of `space` under `schema` (or the schema of
/// the file's own SDI, or of `dict`), page-local records of the first pages,
/// and primary-key searches.
pub fn records(space: &Tablespace, schema: Option<&Schema>, dict: Option<&Dictionary>) -> usize {
    let own = SdiReport::build(space)
        .ok()
        .and_then(|s| Schema::from_sdi(&s))
        .or_else(|| dict.and_then(|d| Schema::from_dictionary(d, space.space_id())));
    let Some(schema) = schema.or(own.as_ref()) else {
        return 0;
    };
    let limits = Limits::default();
    let mut out = 0;
    for deleted in [false, true] {
        if let Ok(r) = RecordsReport::build(space, schema, None, deleted, Some(limits.rows)) {
            out += innodb_render::json::records_lines(&r).len();
        }
    }
    for n in 0..space.page_count().min(limits.pages) {
        if let Ok(r) = RecordsReport::build_page(space, schema, None, n) {
            out += innodb_render::json::records_lines(&r).len();
        }
    }
    for key in ["1", "5", "500", "99999", "-1", "x", "1,2"] {
        let found = key_search::find(space, schema, key);
        out += format!("{found:?}").len();
    }
    out
}

/// `undo` with `system` as the system tablespace and `undo_spaces` as undo
/// tablespaces, with undo records listed, in text and JSON.
pub fn undo(system: &Tablespace, undo_spaces: &[&Tablespace], dict: Option<&Dictionary>) -> usize {
    let r = UndoReport::build_listing(system, undo_spaces, dict, Limits::default().rows);
    let growth = chart_builders::undo_growth(&r, "undo");
    undo_text::undo(&r).len() + json::render(&r).len() + png::chart_image(&growth).len()
}

/// `sdi`: the file's Serialized Dictionary Information and the schema made
/// from it.
pub fn sdi(space: &Tablespace) -> usize {
    match SdiReport::build(space) {
        Ok(r) => {
            let schema = Schema::from_sdi(&r);
            space_text::sdi(&r).len() + json::render(&r).len() + usize::from(schema.is_some())
        }
        Err(_) => 0,
    }
}

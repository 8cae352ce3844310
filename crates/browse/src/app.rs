//! The browser's state and how actions change it. Nothing here draws; the
//! views in [`crate::ui`] draw from `&App`.

use crate::action::Action;
use crate::jobs::{BadPages, Job, JobDone, JobKind};
use innodb_analysis::pictures::heatmap::HeatmapBy;
use innodb_analysis::pictures::Raster;
use innodb_analysis::reports::indexes::IndexesReport;
use innodb_analysis::reports::naming::IndexNames;
use innodb_analysis::reports::page_detail::PageDetail;
use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::reports::space_reports::{header, SpaceHeader};
use innodb_analysis::reports::tree_report::TreePage;
use innodb_analysis::rows::key_search::KeySearch;
use innodb_analysis::rows::records::{RecordsReport, Row, Schema};
use innodb_analysis::rows::row_history::RowHistory;
use innodb_space::dictionary::Dictionary;
use innodb_space::space_map::SpaceMap;
use innodb_space::{Finding, OpenOptions, Tablespace};
use std::cell::Cell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What the browser was given beside the file: how to open files, the
/// system tablespace and undo tablespaces (for roll pointers) and the
/// data dictionary (for names and typed records).
#[derive(Clone, Default)]
pub struct Context {
    /// Options for opening every file.
    pub options: OpenOptions,
    /// The system tablespace (`ibdata1`).
    pub system: Option<PathBuf>,
    /// Undo tablespaces.
    pub undo: Vec<PathBuf>,
    /// The data dictionary of the system tablespace.
    pub dict: Option<Arc<Dictionary>>,
}

/// The file being browsed.
pub struct OpenFile {
    /// Its path.
    pub path: PathBuf,
    /// The tablespace, for reading single pages.
    pub space: Tablespace,
    /// Page 0 and the space map, when readable.
    pub header: Option<SpaceHeader>,
    /// The space map, when page 0 is readable.
    pub map: Option<Arc<SpaceMap>>,
    /// Findings of opening the file and reading its space map.
    pub open_findings: Vec<Finding>,
    /// The table's columns (dictionary or SDI), for typed records.
    pub schema: Option<Arc<Schema>>,
    /// The names of its indexes (`db/table.index`, `SDI`): of every table
    /// of a general tablespace, from the dictionary that describes the
    /// file or its own SDI.
    pub names: IndexNames,
}

/// One line of the page view: a section title, a field, or a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// Section `i`'s title.
    Section(usize),
    /// Field `f` of section `s`.
    Field(usize, usize),
    /// Record `i` of the page's record list.
    Record(usize),
}

/// The page view's state.
pub struct PageView {
    /// The decoded page.
    pub detail: PageDetail,
    /// The typed rows of a leaf page, when the schema knows its index.
    pub rows: Option<RecordsReport>,
    /// Its lines.
    pub items: Vec<Item>,
    /// The selected line.
    pub selected: usize,
    /// The file the page is of, when not the file browsed (an undo page of
    /// the system or an undo tablespace, opened from a row's history).
    pub source: Option<PathBuf>,
}

impl PageView {
    fn new(detail: PageDetail, rows: Option<RecordsReport>) -> PageView {
        let mut items = Vec::new();
        for (s, section) in detail.sections.iter().enumerate() {
            items.push(Item::Section(s));
            items.extend((0..section.fields.len()).map(|f| Item::Field(s, f)));
        }
        if let Some(r) = &detail.records {
            items.extend((0..r.records.len()).map(Item::Record));
        }
        // Start on the first field, not a title.
        let selected = usize::from(items.len() > 1);
        PageView {
            detail,
            rows,
            items,
            selected,
            source: None,
        }
    }

    /// Selects the line that holds byte `offset` of the page: the record
    /// whose bytes hold it, else the narrowest field that does (a section
    /// title when the offset starts its first field). False when none does.
    pub fn select_offset(&mut self, offset: usize) -> bool {
        let mut best: Option<(usize, usize)> = None;
        for (at, it) in self.items.iter().enumerate() {
            let range = match *it {
                Item::Field(s, f) => self
                    .detail
                    .sections
                    .get(s)
                    .and_then(|sec| sec.fields.get(f))
                    .map(|f| f.offset..f.offset + f.size.max(1)),
                Item::Record(i) => self
                    .detail
                    .records
                    .as_ref()
                    .and_then(|r| r.records.get(i))
                    .map(|r| r.origin..r.origin + r.bytes_len.max(1)),
                Item::Section(_) => None,
            };
            let Some(range) = range.filter(|r| r.contains(&offset)) else {
                continue;
            };
            let width = range.len();
            if best.is_none_or(|(_, w)| width < w) {
                best = Some((at, width));
            }
        }
        match best {
            Some((at, _)) => {
                self.selected = at;
                true
            }
            None => false,
        }
    }

    /// The selected line.
    pub fn item(&self) -> Option<Item> {
        self.items.get(self.selected).copied()
    }

    /// The byte range of the selected line on the page, for the hex pane.
    pub fn selected_range(&self) -> Option<std::ops::Range<usize>> {
        match self.item()? {
            Item::Section(s) => {
                let fields = &self.detail.sections.get(s)?.fields;
                let start = fields.iter().map(|f| f.offset).min()?;
                let end = fields.iter().map(|f| f.offset + f.size).max()?;
                Some(start..end)
            }
            Item::Field(s, f) => {
                let field = self.detail.sections.get(s)?.fields.get(f)?;
                Some(field.offset..field.offset + field.size)
            }
            Item::Record(i) => {
                let r = self.detail.records.as_ref()?.records.get(i)?;
                let header = match self.detail.records.as_ref()?.format {
                    innodb_format::index::record::RecordFormat::Compact => 5,
                    innodb_format::index::record::RecordFormat::Redundant => 6,
                };
                Some(r.origin.saturating_sub(header)..r.origin + r.bytes_len.max(1))
            }
        }
    }

    pub(crate) fn select_record_at(&mut self, origin: usize) -> bool {
        let Some(recs) = &self.detail.records else {
            return false;
        };
        let Some(i) = recs.records.iter().position(|r| r.origin == origin) else {
            return false;
        };
        match self.items.iter().position(|it| *it == Item::Record(i)) {
            Some(at) => {
                self.selected = at;
                true
            }
            None => false,
        }
    }
}

/// The record view: every field of one record, name and whole value.
pub struct RecordView {
    /// The page and the record's origin, in words.
    pub title: String,
    /// Field names and values, one line each.
    pub lines: Vec<(String, String)>,
    /// The selected line.
    pub selected: usize,
}

/// A view of the browser.
pub enum View {
    /// The files of a data directory.
    Datadir {
        /// Selected file.
        selected: usize,
    },
    /// The map of the file.
    Space {
        /// The page under the cursor.
        cursor: u64,
        /// The colouring.
        by: HeatmapBy,
    },
    /// Every index.
    Indexes {
        /// Selected index.
        selected: usize,
    },
    /// The levels of one index.
    Levels {
        /// Position in the index report.
        index: usize,
        /// Selected level.
        selected: usize,
    },
    /// The pages of one level, in key order.
    LevelPages {
        /// The index.
        index_id: u64,
        /// The level.
        level: u16,
        /// Its pages.
        pages: Vec<TreePage>,
        /// Selected page.
        selected: usize,
    },
    /// One page.
    Page(Box<PageView>),
    /// The pages of one file segment.
    SegmentPages {
        /// The segment id.
        segment_id: u64,
        /// Its owner, in words.
        owner: String,
        /// Its pages: fragment pages, then the pages of its extents, each
        /// with whether the extent descriptor marks it used.
        pages: Vec<(u32, bool)>,
        /// Selected page.
        selected: usize,
    },
    /// The findings of the scan.
    Findings {
        /// Selected finding.
        selected: usize,
    },
    /// One record of a page, every field.
    Record(Box<RecordView>),
    /// A row's versions from the undo log.
    History {
        /// The chain.
        history: Box<RowHistory>,
        /// Selected version.
        selected: usize,
    },
}

impl View {
    /// A short name for the title bar.
    pub fn name(&self) -> String {
        match self {
            View::Datadir { .. } => "data directory".into(),
            View::Space { by, .. } => format!("map: {}", by.name()),
            View::Indexes { .. } => "indexes".into(),
            View::Levels { .. } => "levels".into(),
            View::LevelPages {
                index_id, level, ..
            } => format!(
                "index {} level {level}",
                innodb_format::index::sdi::index_id_text(*index_id)
            ),
            View::Page(p) => match &p.source {
                Some(path) => format!(
                    "{} page {}",
                    path.file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
                    p.detail.page
                ),
                None => format!("page {}", p.detail.page),
            },
            View::Record(r) => r.title.clone(),
            View::SegmentPages { segment_id, .. } => format!("segment {segment_id}"),
            View::Findings { .. } => "findings".into(),
            View::History { history, .. } => format!("history of {}", history.key),
        }
    }
}

/// What the prompt asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    /// A page number.
    Goto,
    /// A primary key.
    Search,
}

/// The input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// What it is for.
    pub kind: PromptKind,
    /// What was typed.
    pub text: String,
}

/// The browser.
pub struct App {
    /// What the browser was given.
    pub ctx: Context,
    /// The path given: a tablespace or a data directory.
    pub root: PathBuf,
    /// The data directory's tablespaces, when one was opened.
    pub datadir: Vec<PathBuf>,
    /// The file being browsed.
    pub file: Option<OpenFile>,
    /// The views, the current one last (the back stack).
    pub views: Vec<View>,
    /// Background work under way.
    pub jobs: Vec<Job>,
    /// Maps made so far, by colouring.
    pub maps: HashMap<&'static str, Arc<Raster>>,
    /// Findings of the first full scan.
    pub scan_findings: Option<Vec<Finding>>,
    /// The index report, once made (or why it could not be).
    pub indexes: Option<Result<IndexesReport, String>>,
    /// Typed rows per index id, once read.
    pub rows: HashMap<u64, Result<Arc<RecordsReport>, String>>,
    /// A search waiting for the rows.
    pub pending_search: Option<String>,
    /// The input line, when open.
    pub prompt: Option<Prompt>,
    /// Whether the help is shown.
    pub help: bool,
    /// The help's first line shown (it scrolls on a short screen).
    pub help_scroll: usize,
    /// The message of the last key, cleared by the next one.
    pub status: String,
    /// Draw without colour (`NO_COLOR`): each class of the map and its
    /// legend as its symbol, the symbols `heatmap` prints without colour.
    pub plain: bool,
    /// The page view's hex pane: shown, hidden, or (`None`) shown on a
    /// screen wide enough for it.
    pub hex: Option<bool>,
    /// Columns the lines of the current view are scrolled to the left.
    pub hscroll: usize,
    /// The pages the first scan found bad, marked on the map.
    pub bad: Option<BadPages>,
    /// Other files opened for a page of theirs (undo pages), by path.
    pub foreign: Vec<Tablespace>,
    /// Where the last frame drew things, for the mouse.
    pub drawn: Cell<Drawn>,
    /// Set when the user quits.
    pub quit: bool,
}

/// Where the last frame drew what the mouse can point at.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Drawn {
    /// The map's first cell on screen (column, row), when a map is shown.
    pub map_origin: Option<(u16, u16)>,
    /// Cells and rows of the map shown.
    pub map_size: (u16, u16),
    /// The map's first cell shown: (column, row) in the raster.
    pub map_first: (u64, u64),
    /// The map's cells per row and pages per cell.
    pub map_layout: (u64, u64),
    /// The lines of the current list or page view on screen, and the
    /// first line shown.
    pub list: Option<(ratatui::layout::Rect, usize)>,
    /// The screen's width, for the hex pane's automatic choice.
    pub width: u16,
    /// How far the lines shown can scroll sideways: the longest line less
    /// the width it is shown in.
    pub hmax: usize,
    /// The help's last first line: its lines less the rows it has.
    pub help_max: usize,
}

/// The screen width from which the page view shows its hex pane unless
/// told otherwise (`x`).
pub const HEX_PANE_WIDTH: u16 = 110;

/// Views kept at most: the oldest after the first are dropped past it.
pub const MAX_VIEWS: usize = 64;

impl App {
    /// A browser on `path`: a tablespace file, or a data directory.
    pub fn open(path: &Path, ctx: Context) -> Result<App, String> {
        let mut app = App {
            ctx,
            root: path.to_path_buf(),
            datadir: Vec::new(),
            file: None,
            views: Vec::new(),
            jobs: Vec::new(),
            maps: HashMap::new(),
            scan_findings: None,
            indexes: None,
            rows: HashMap::new(),
            pending_search: None,
            prompt: None,
            help: false,
            help_scroll: 0,
            status: String::new(),
            plain: false,
            hex: None,
            hscroll: 0,
            bad: None,
            foreign: Vec::new(),
            drawn: Cell::new(Drawn::default()),
            quit: false,
        };
        if path.is_dir() {
            let options = innodb_space::datadir::DataDirOptions::default();
            app.datadir = innodb_space::DataDir::open(path, &options)
                .map_err(|e| e.to_string())?
                .tablespace_paths();
            if app.datadir.is_empty() {
                return Err(format!("{}: no tablespace files in it", path.display()));
            }
            app.views.push(View::Datadir { selected: 0 });
        } else {
            app.open_file(path)?;
        }
        Ok(app)
    }

    /// Opens `path` and shows its map (the map is made in the background).
    pub fn open_file(&mut self, path: &Path) -> Result<(), String> {
        let space = Tablespace::open(path, self.ctx.options.clone()).map_err(|e| e.to_string())?;
        let (map, header_, mut findings) = match SpaceMap::read(&space) {
            Ok(m) => {
                let h = header(&space, &m);
                let f = m.findings.clone();
                (Some(Arc::new(m)), Some(h), f)
            }
            Err(_) => (
                None,
                None,
                vec![Finding::on_page(
                    innodb_space::FindingKind::Unreadable,
                    0,
                    0,
                    "FSP header",
                    "page 0 is unusable: no space map (owner colouring, indexes and extents are not available)",
                )],
            ),
        };
        findings.splice(0..0, space.open_findings().iter().cloned());
        // The dictionary that describes the file: the one given, else the
        // file's own SDI (a partition file's table from the files beside it).
        let dict = innodb_analysis::dictionary::for_file(
            &space,
            self.ctx.dict.as_deref(),
            self.ctx.options.clone(),
        );
        let names = IndexNames::of(&dict, space.space_id());
        let schema = Schema::from_dictionary(&dict, space.space_id())
            .or_else(|| {
                SdiReport::build(&space)
                    .ok()
                    .and_then(|s| Schema::from_sdi(&s))
            })
            .map(Arc::new);
        self.file = Some(OpenFile {
            path: path.to_path_buf(),
            space,
            header: header_,
            map,
            open_findings: findings,
            schema,
            names,
        });
        self.maps.clear();
        self.bad = None;
        self.scan_findings = None;
        self.indexes = None;
        self.rows.clear();
        self.jobs.clear();
        self.views.push(View::Space {
            cursor: 0,
            by: HeatmapBy::PageType,
        });
        // The owner map gives the side panel its waste totals: both maps
        // come from one scan.
        self.ensure_maps(HeatmapBy::PageType, Some(HeatmapBy::Index));
        Ok(())
    }

    /// The current view.
    pub fn view(&self) -> Option<&View> {
        self.views.last()
    }

    pub(crate) fn page_count(&self) -> u64 {
        self.file
            .as_ref()
            .map_or(0, |f| u64::from(f.space.page_count()))
    }

    /// The map of this colouring, when made.
    pub fn map(&self, by: HeatmapBy) -> Option<&Raster> {
        self.maps.get(by.name()).map(|m| m.as_ref())
    }

    /// Starts making the map of `by` unless it is made or being made.
    pub(crate) fn ensure_map(&mut self, by: HeatmapBy) {
        self.ensure_maps(by, None);
    }

    /// Starts making, in one scan, those of the maps of `by` and `also`
    /// that are neither made nor being made.
    fn ensure_maps(&mut self, by: HeatmapBy, also: Option<HeatmapBy>) {
        let wanted = |b: HeatmapBy| {
            !self.maps.contains_key(b.name()) && !self.jobs.iter().any(|j| j.makes_map(b))
        };
        let mut todo = std::iter::once(by).chain(also).filter(|&b| wanted(b));
        let Some(first) = todo.next() else {
            return;
        };
        let second = todo.next();
        if let Some(f) = &self.file {
            let names = self.index_names();
            self.jobs.push(Job::heatmap(
                f.path.clone(),
                self.ctx.options.clone(),
                f.map.clone(),
                (first, second),
                names,
                u64::from(f.space.page_count()),
            ));
        }
    }

    /// Index names (dictionary or SDI), for legends and lists.
    fn index_names(&self) -> HashMap<u64, String> {
        self.file.as_ref().map_or_else(HashMap::new, |f| {
            f.names
                .all()
                .iter()
                .map(|(id, n)| (*id, n.clone()))
                .collect()
        })
    }

    fn ensure_indexes(&mut self) {
        if self.indexes.is_some() || self.jobs.iter().any(|j| j.kind == JobKind::Indexes) {
            return;
        }
        if let Some(f) = &self.file {
            let names = self.index_names();
            self.jobs.push(Job::indexes(
                f.path.clone(),
                self.ctx.options.clone(),
                names,
                u64::from(f.space.page_count()),
            ));
        }
    }

    /// Starts reading the typed rows of the clustered index; false when
    /// there is no schema.
    fn ensure_rows(&mut self) -> bool {
        let Some(f) = &self.file else { return false };
        let Some(schema) = f.schema.clone() else {
            return false;
        };
        let Some(id) = schema.indexes.iter().find(|i| i.clustered).map(|i| i.id) else {
            return false;
        };
        if self.rows.contains_key(&id) || self.jobs.iter().any(|j| j.kind == JobKind::Rows(id)) {
            return true;
        }
        self.jobs.push(Job::rows(
            f.path.clone(),
            self.ctx.options.clone(),
            schema,
            id,
            u64::from(f.space.page_count()),
        ));
        true
    }

    /// The clustered index's rows, when read.
    pub fn clustered_rows(&self) -> Option<&RecordsReport> {
        let f = self.file.as_ref()?;
        let id = f.schema.as_ref()?.indexes.iter().find(|i| i.clustered)?.id;
        self.rows.get(&id)?.as_ref().ok().map(|r| r.as_ref())
    }

    /// Takes in finished background work; never waits.
    pub fn poll_jobs(&mut self) {
        let mut done = Vec::new();
        self.jobs.retain(|j| match j.try_take() {
            Some(d) => {
                done.push(d);
                false
            }
            None => !j.is_lost(),
        });
        for d in done {
            self.ingest(d);
        }
    }

    /// Waits for all background work (tests, and scripted runs).
    pub fn wait_jobs(&mut self) {
        while !self.jobs.is_empty() {
            let jobs = std::mem::take(&mut self.jobs);
            for j in jobs {
                if let Some(d) = j.wait() {
                    self.ingest(d);
                }
            }
        }
    }

    fn ingest(&mut self, d: JobDone) {
        match d {
            JobDone::Heatmaps(maps, findings, bad) => {
                for (by, raster) in maps {
                    self.maps.insert(by.name(), Arc::new(raster));
                }
                if self.bad.is_none() {
                    self.bad = Some(bad);
                }
                if self.scan_findings.is_none() {
                    self.scan_findings = Some(findings);
                }
            }
            JobDone::Indexes(r) => self.indexes = Some(r),
            JobDone::Rows(id, r) => {
                self.rows.insert(id, r.map(Arc::new));
                if let Some(key) = self.pending_search.take() {
                    self.search(&key);
                }
            }
        }
    }

    /// All findings known: opening, the space map, and the scan's.
    pub fn findings(&self) -> Vec<&Finding> {
        let mut out: Vec<&Finding> = Vec::new();
        if let Some(f) = &self.file {
            out.extend(f.open_findings.iter());
        }
        if let Some(s) = &self.scan_findings {
            out.extend(s.iter());
        }
        out
    }

    /// Does what `action` asks.
    pub fn apply(&mut self, action: Action) {
        if self.prompt.is_some() {
            self.apply_prompt(action);
            return;
        }
        if self.help {
            self.apply_help(action);
            return;
        }
        // A message tells what the last key did: the next key clears it.
        self.status.clear();
        match action {
            Action::Quit => self.quit = true,
            Action::ToggleHelp => {
                self.help = true;
                self.help_scroll = 0;
            }
            Action::Back => {
                if self.views.len() > 1 {
                    self.views.pop();
                    self.hscroll = 0;
                }
            }
            Action::ToggleHex => self.hex = Some(!self.hex_shown()),
            Action::Click(x, y) => self.click(x, y),
            Action::WheelUp | Action::WheelDown => self.wheel(action),
            Action::StartGoto if self.file.is_some() => {
                self.prompt = Some(Prompt {
                    kind: PromptKind::Goto,
                    text: String::new(),
                })
            }
            Action::StartSearch if self.file.is_some() => {
                self.prompt = Some(Prompt {
                    kind: PromptKind::Search,
                    text: String::new(),
                })
            }
            Action::SpaceView if self.file.is_some() => {
                self.ensure_map(HeatmapBy::PageType);
                self.jump(
                    |v| matches!(v, View::Space { .. }),
                    View::Space {
                        cursor: 0,
                        by: HeatmapBy::PageType,
                    },
                );
            }
            Action::IndexView if self.file.is_some() => {
                self.ensure_indexes();
                self.jump(
                    |v| matches!(v, View::Indexes { .. }),
                    View::Indexes { selected: 0 },
                );
            }
            Action::FindingsView if self.file.is_some() => {
                self.ensure_map(HeatmapBy::PageType);
                self.jump(
                    |v| matches!(v, View::Findings { .. }),
                    View::Findings { selected: 0 },
                );
            }
            other => self.apply_in_view(other),
        }
    }

    /// Keys while the help is open: it scrolls, and closes on `?`, Esc.
    fn apply_help(&mut self, action: Action) {
        let last = self.drawn.get().help_max;
        match action {
            Action::ToggleHelp | Action::Cancel | Action::Back => self.help = false,
            Action::Quit => self.quit = true,
            Action::Up | Action::WheelUp => self.help_scroll = self.help_scroll.saturating_sub(1),
            Action::Down | Action::WheelDown => self.help_scroll = (self.help_scroll + 1).min(last),
            Action::PageUp | Action::Home => self.help_scroll = 0,
            Action::PageDown | Action::End => self.help_scroll = last,
            _ => {}
        }
    }

    /// Whether the page view shows its hex pane.
    pub fn hex_shown(&self) -> bool {
        self.hex.unwrap_or(self.drawn.get().width >= HEX_PANE_WIDTH)
    }

    /// Back to the view `is` picks when one is on the stack (the views
    /// above it closed), else `view` on top: the keys that open the map,
    /// the indexes and the findings do not pile up views.
    fn jump(&mut self, is: fn(&View) -> bool, view: View) {
        match self.views.iter().position(is) {
            Some(at) => {
                self.views.truncate(at + 1);
                self.hscroll = 0;
            }
            None => self.push_view(view),
        }
    }

    /// Puts `view` on top; past [`MAX_VIEWS`] the oldest after the first
    /// is dropped.
    pub fn push_view(&mut self, view: View) {
        self.views.push(view);
        if self.views.len() > MAX_VIEWS {
            self.views.remove(1);
        }
        self.hscroll = 0;
    }

    fn apply_prompt(&mut self, action: Action) {
        let Some(p) = self.prompt.as_mut() else {
            return;
        };
        match action {
            Action::Input(c) => p.text.push(c),
            Action::InputBackspace => {
                p.text.pop();
            }
            Action::Cancel => self.prompt = None,
            Action::Submit => {
                let Some(p) = self.prompt.take() else { return };
                self.status.clear();
                match p.kind {
                    PromptKind::Goto => match p.text.trim().parse::<u32>() {
                        Ok(n) => self.push_page(n),
                        Err(_) => self.status = format!("not a page number: {}", p.text),
                    },
                    PromptKind::Search => self.search(p.text.trim()),
                }
            }
            Action::Quit => self.quit = true,
            _ => {}
        }
    }

    /// Opens page `n` in a new page view.
    pub fn push_page(&mut self, n: u32) {
        self.push_page_in(None, n, None);
    }

    /// Opens page `n` of `source` (the file browsed when `None`) in a new
    /// page view, with the line holding byte `offset` selected.
    pub fn push_page_in(&mut self, source: Option<PathBuf>, n: u32, offset: Option<usize>) {
        match self.page_view(source.as_deref(), n) {
            Ok(mut view) => {
                view.source = source;
                if let Some(o) = offset {
                    if !view.select_offset(o) {
                        self.status = format!("page {n}: no field or record holds byte {o}");
                    }
                }
                self.push_view(View::Page(Box::new(view)));
            }
            Err(e) => self.status = e,
        }
    }

    /// The tablespace a page view of `source` reads.
    pub fn space_of(&self, source: Option<&Path>) -> Option<&Tablespace> {
        match source {
            None => self.file.as_ref().map(|f| &f.space),
            Some(p) => self.foreign.iter().find(|s| s.path() == p),
        }
    }

    /// Page `n` of `source`, decoded; on a leaf of an index the schema of
    /// the file browsed knows, its records typed, read from this page alone
    /// (and its BLOB pages).
    fn page_view(&self, source: Option<&Path>, n: u32) -> Result<PageView, String> {
        let space = self
            .space_of(source)
            .ok_or_else(|| "no file open".to_string())?;
        let d = PageDetail::build(space, n).map_err(|e| e.to_string())?;
        let field = |name: &str| {
            d.sections
                .iter()
                .flat_map(|s| s.fields.iter())
                .find(|f| f.name == name)
                .map(|f| f.value)
        };
        let schema = self
            .file
            .as_ref()
            .filter(|_| source.is_none())
            .and_then(|f| f.schema.as_ref());
        let rows = match (field("PAGE_INDEX_ID"), field("PAGE_LEVEL"), schema) {
            (Some(id), Some(0), Some(schema)) if schema.indexes.iter().any(|i| i.id == id) => {
                RecordsReport::build_page(space, schema, Some(&id.to_string()), n).ok()
            }
            _ => None,
        };
        Ok(PageView::new(d, rows))
    }

    /// Replaces the current page view with page `n` of the same file.
    pub(crate) fn replace_page(&mut self, n: u32) {
        let source = match self.views.last() {
            Some(View::Page(p)) => {
                let s = p.source.clone();
                self.views.pop();
                s
            }
            _ => None,
        };
        self.push_page_in(source, n, None);
    }

    /// Finds the row with primary key `key` (values joined by commas) and
    /// opens its leaf page with the record selected.
    pub fn search(&mut self, key: &str) {
        let descent = match &self.file {
            Some(f) => f
                .schema
                .as_ref()
                .map(|s| innodb_analysis::rows::key_search::find(&f.space, s, key)),
            None => return,
        };
        match descent {
            Some(KeySearch::Found { page, origin, path }) => {
                self.push_page(page);
                if let Some(View::Page(p)) = self.views.last_mut() {
                    p.select_record_at(origin);
                }
                self.status =
                    format!("key {key}: page {page}, record at {origin} (down pages {path:?})");
                return;
            }
            Some(KeySearch::NotFound { page, .. }) => {
                self.status = format!("no row with key {key} (it would be on leaf page {page})");
                return;
            }
            // Not searchable by descent: scan the rows instead.
            Some(KeySearch::Unsupported(_)) | None => {}
        }
        if self.clustered_rows().is_none() {
            if !self.ensure_rows() {
                self.status = "no schema for this file: search needs --system/--datadir (MariaDB, MySQL 5.x) or a MySQL 8 SDI".into();
                return;
            }
            if let Some(Some(Err(e))) = self.clustered_id().map(|id| self.rows.get(&id)) {
                self.status = format!("rows cannot be read: {e}");
                return;
            }
            self.pending_search = Some(key.to_string());
            self.status = format!("reading the clustered index to find {key} …");
            return;
        }
        let Some(rows) = self.clustered_rows() else {
            return;
        };
        let wanted: Vec<&str> = key.split(',').map(str::trim).collect();
        let n_key = rows
            .fields
            .iter()
            .position(|f| f.name == "DB_TRX_ID")
            .unwrap_or(wanted.len());
        let found = rows.rows.iter().find(|r| {
            r.values.get(..n_key).is_some_and(|key| {
                key.iter()
                    .map(innodb_analysis::rows::row_history::value_text)
                    .collect::<Vec<_>>()
                    == wanted
            })
        });
        match found.map(|r| (r.page, r.origin)) {
            Some((page, origin)) => {
                self.push_page(page);
                if let Some(View::Page(p)) = self.views.last_mut() {
                    p.select_record_at(origin);
                }
                self.status = format!("key {key}: page {page}, record at {origin}");
            }
            None => self.status = format!("no row with key {key}"),
        }
    }

    fn clustered_id(&self) -> Option<u64> {
        let f = self.file.as_ref()?;
        f.schema
            .as_ref()?
            .indexes
            .iter()
            .find(|i| i.clustered)
            .map(|i| i.id)
    }

    /// The typed row of the selected record of the current page view.
    pub fn selected_row(&self) -> Option<&Row> {
        let p = self.record_page()?;
        let Item::Record(i) = p.item()? else {
            return None;
        };
        let origin = p.detail.records.as_ref()?.records.get(i)?.origin;
        p.rows.as_ref()?.rows.iter().find(|r| r.origin == origin)
    }

    /// The typed rows of the current page view.
    fn page_rows(&self) -> Option<&RecordsReport> {
        self.record_page()?.rows.as_ref()
    }

    /// The page view whose selected record the keys `r` and `b` act on:
    /// the current view, or the page under the record view on top.
    pub fn record_page(&self) -> Option<&PageView> {
        let mut views = self.views.iter().rev();
        match views.next()? {
            View::Page(p) => Some(p),
            View::Record(_) => match views.next()? {
                View::Page(p) => Some(p),
                _ => None,
            },
            _ => None,
        }
    }

    pub(crate) fn follow_blob(&mut self) {
        if self.page_rows().is_none() {
            self.status = "no typed records here: BLOB references need a leaf page and the schema (--system/--datadir or an SDI)".into();
            return;
        }
        let Some(row) = self.selected_row() else {
            self.status = "select a leaf record of the clustered index".into();
            return;
        };
        match row.external.first().copied() {
            Some((_, page)) => {
                let more = row.external.len() - 1;
                self.push_page(page);
                if more > 0 {
                    self.status =
                        format!("page {page}; the record has {more} more off-page columns");
                }
            }
            None => self.status = "the record has no off-page column".into(),
        }
    }

    pub(crate) fn follow_roll_pointer(&mut self) {
        let Some(system) = self.ctx.system.clone() else {
            self.status =
                "roll pointers need the system tablespace: --system ibdata1 or --datadir DIR"
                    .into();
            return;
        };
        let clustered = self.clustered_id();
        if self
            .page_rows()
            .filter(|r| Some(r.index_id) == clustered)
            .is_none()
        {
            self.status = "roll pointers are followed from a leaf page of the clustered index, with the schema (--system/--datadir or an SDI)".into();
            return;
        }
        let Some(row) = self.selected_row().cloned() else {
            self.status = "select a leaf record of the clustered index".into();
            return;
        };
        let Some(rows) = self.page_rows() else {
            return;
        };
        let Some(n_unique) = rows.fields.iter().position(|f| f.name == "DB_TRX_ID") else {
            return;
        };
        let key = row
            .values
            .get(..n_unique)
            .unwrap_or(&row.values)
            .iter()
            .map(innodb_analysis::rows::row_history::value_text)
            .collect::<Vec<_>>()
            .join(",");
        let (table, fields) = (rows.table.clone(), rows.fields.clone());
        let options = self.ctx.options.clone();
        let opened = Tablespace::open(&system, options.clone()).and_then(|s| {
            let undo = self
                .ctx
                .undo
                .iter()
                .map(|p| Tablespace::open(p, options.clone()))
                .collect::<Result<Vec<_>, _>>()?;
            Ok((s, undo))
        });
        match opened {
            Ok((sys, undo)) => {
                let refs: Vec<&Tablespace> = undo.iter().collect();
                let h = RowHistory::chain(&table, &key, &fields, n_unique, &row, &sys, &refs);
                self.status = format!(
                    "{} versions of {key} (Enter on one opens its undo record)",
                    h.versions.len()
                );
                // Kept: the undo pages of the versions open from them.
                for s in std::iter::once(sys).chain(undo) {
                    if !self.foreign.iter().any(|f| f.path() == s.path()) {
                        self.foreign.push(s);
                    }
                }
                self.push_view(View::History {
                    history: Box::new(h),
                    selected: 0,
                });
            }
            Err(e) => self.status = e.to_string(),
        }
    }
}

/// Moves a list selection.
pub(crate) fn move_selection(selected: &mut usize, n: usize, action: Action) {
    let last = n.saturating_sub(1);
    *selected = match action {
        Action::Up => selected.saturating_sub(1),
        Action::Down => (*selected + 1).min(last),
        Action::PageUp => selected.saturating_sub(20),
        Action::PageDown => (*selected + 20).min(last),
        Action::Home => 0,
        Action::End => last,
        _ => *selected,
    };
}

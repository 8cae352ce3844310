//! The browser's state and how actions change it. Nothing here draws; the
//! views in [`crate::ui`] draw from `&App`.

use crate::action::Action;
use crate::follow::Target;
use crate::jobs::{Job, JobDone, JobKind};
use innodb_analysis::pictures::heatmap::{self, HeatmapBy};
use innodb_analysis::pictures::Raster;
use innodb_analysis::reports::indexes::IndexesReport;
use innodb_analysis::reports::naming::IndexNames;
use innodb_analysis::reports::page_detail::PageDetail;
use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::reports::space_reports::{header, SpaceHeader};
use innodb_analysis::reports::tree_report::{TreePage, TreeReport};
use innodb_analysis::rows::key_search::KeySearch;
use innodb_analysis::rows::records::{RecordsReport, Row, Schema};
use innodb_analysis::rows::row_history::RowHistory;
use innodb_space::dictionary::Dictionary;
use innodb_space::space_map::SpaceMap;
use innodb_space::{Finding, OpenOptions, Tablespace};
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

    fn select_record_at(&mut self, origin: usize) -> bool {
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
            } => format!("index {index_id} level {level}"),
            View::Page(p) => format!("page {}", p.detail.page),
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
    /// The last message.
    pub status: String,
    /// Set when the user quits.
    pub quit: bool,
}

/// Largest number of rows the map moves on PageUp/PageDown.
const PAGE_ROWS: u64 = 16;

impl App {
    /// A browser on `path`: a tablespace file, or a data directory.
    pub fn open(path: &Path, ctx: Context) -> Result<App, String> {
        let mut app = App {
            ctx,
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
            status: "? for help".into(),
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

    fn page_count(&self) -> u64 {
        self.file
            .as_ref()
            .map_or(0, |f| u64::from(f.space.page_count()))
    }

    /// The map of this colouring, when made.
    pub fn map(&self, by: HeatmapBy) -> Option<&Raster> {
        self.maps.get(by.name()).map(|m| m.as_ref())
    }

    /// Starts making the map of `by` unless it is made or being made.
    fn ensure_map(&mut self, by: HeatmapBy) {
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
            JobDone::Heatmaps(maps, findings) => {
                for (by, raster) in maps {
                    self.maps.insert(by.name(), Arc::new(raster));
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
            if matches!(action, Action::ToggleHelp | Action::Cancel | Action::Back) {
                self.help = false;
            } else if action == Action::Quit {
                self.quit = true;
            }
            return;
        }
        match action {
            Action::Quit => self.quit = true,
            Action::ToggleHelp => self.help = true,
            Action::Back => {
                if self.views.len() > 1 {
                    self.views.pop();
                }
            }
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
                let by = HeatmapBy::PageType;
                self.ensure_map(by);
                self.views.push(View::Space { cursor: 0, by });
            }
            Action::IndexView if self.file.is_some() => {
                self.ensure_indexes();
                self.views.push(View::Indexes { selected: 0 });
            }
            Action::FindingsView if self.file.is_some() => {
                self.ensure_map(HeatmapBy::PageType);
                self.views.push(View::Findings { selected: 0 });
            }
            other => self.apply_in_view(other),
        }
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
        let Some(f) = &self.file else { return };
        match PageDetail::build(&f.space, n) {
            Ok(d) => {
                self.status = format!("page {n}");
                // A leaf of an index the schema knows: its records typed,
                // read from this page alone (and its BLOB pages).
                let field = |name: &str| {
                    d.sections
                        .iter()
                        .flat_map(|s| s.fields.iter())
                        .find(|f| f.name == name)
                        .map(|f| f.value)
                };
                let rows = match (field("PAGE_INDEX_ID"), field("PAGE_LEVEL"), &f.schema) {
                    (Some(id), Some(0), Some(schema))
                        if schema.indexes.iter().any(|i| i.id == id) =>
                    {
                        RecordsReport::build_page(&f.space, schema, Some(&id.to_string()), n).ok()
                    }
                    _ => None,
                };
                self.views
                    .push(View::Page(Box::new(PageView::new(d, rows))));
            }
            Err(e) => self.status = e.to_string(),
        }
    }

    /// Replaces the current page view with page `n`.
    fn replace_page(&mut self, n: u32) {
        if matches!(self.views.last(), Some(View::Page(_))) {
            self.views.pop();
        }
        self.push_page(n);
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
        let View::Page(p) = self.views.last()? else {
            return None;
        };
        let Item::Record(i) = p.item()? else {
            return None;
        };
        let origin = p.detail.records.as_ref()?.records.get(i)?.origin;
        p.rows.as_ref()?.rows.iter().find(|r| r.origin == origin)
    }

    /// The typed rows of the current page view.
    fn page_rows(&self) -> Option<&RecordsReport> {
        match self.views.last()? {
            View::Page(p) => p.rows.as_ref(),
            _ => None,
        }
    }

    fn follow_blob(&mut self) {
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

    fn follow_roll_pointer(&mut self) {
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
                self.status = format!("{} versions of {key}", h.versions.len());
                self.views.push(View::History {
                    history: Box::new(h),
                    selected: 0,
                });
            }
            Err(e) => self.status = e.to_string(),
        }
    }

    fn apply_in_view(&mut self, action: Action) {
        let pages = self.page_count();
        let n_indexes = match &self.indexes {
            Some(Ok(r)) => r.indexes.len(),
            _ => 0,
        };
        let n_findings = self.findings().len();
        let columns = self
            .file
            .as_ref()
            .map_or(64, |f| heatmap::layout(&f.space).0 as u64);
        let Some(view) = self.views.last_mut() else {
            return;
        };
        match view {
            View::Datadir { selected } => {
                let n = self.datadir.len();
                match action {
                    Action::Open => {
                        if let Some(p) = self.datadir.get(*selected).cloned() {
                            if let Err(e) = self.open_file(&p) {
                                self.status = e;
                            }
                        }
                    }
                    a => move_selection(selected, n, a),
                }
            }
            View::Space { cursor, by } => {
                let last = pages.saturating_sub(1);
                match action {
                    Action::Left | Action::PrevPage => *cursor = cursor.saturating_sub(1),
                    Action::Right | Action::NextPage => *cursor = (*cursor + 1).min(last),
                    Action::Up => *cursor = cursor.saturating_sub(columns),
                    Action::Down => *cursor = (*cursor + columns).min(last),
                    Action::PageUp => *cursor = cursor.saturating_sub(columns * PAGE_ROWS),
                    Action::PageDown => *cursor = (*cursor + columns * PAGE_ROWS).min(last),
                    Action::Home => *cursor = 0,
                    Action::End => *cursor = last,
                    Action::CycleColour => {
                        *by = match by {
                            HeatmapBy::PageType => HeatmapBy::LsnAge,
                            HeatmapBy::LsnAge => HeatmapBy::Fill,
                            HeatmapBy::Fill => HeatmapBy::Index,
                            HeatmapBy::Index => HeatmapBy::PageType,
                        };
                        let b = *by;
                        self.ensure_map(b);
                    }
                    Action::Colour(b) => {
                        *by = b;
                        self.ensure_map(b);
                    }
                    Action::Open => {
                        let n = u32::try_from(*cursor).unwrap_or(u32::MAX);
                        self.push_page(n);
                    }
                    _ => {}
                }
            }
            View::Indexes { selected } => match action {
                Action::Open if n_indexes > 0 => {
                    let index = *selected;
                    self.views.push(View::Levels { index, selected: 0 });
                }
                a => move_selection(selected, n_indexes, a),
            },
            View::Levels { index, selected } => {
                let levels = match &self.indexes {
                    Some(Ok(r)) => r
                        .indexes
                        .get(*index)
                        .map(|i| (i.index_id, i.pages_per_level.len())),
                    _ => None,
                };
                let Some((index_id, n_levels)) = levels else {
                    return;
                };
                match action {
                    Action::Open => {
                        let level = u16::try_from(*selected).unwrap_or(0);
                        let Some(f) = &self.file else { return };
                        match TreeReport::build(&f.space, index_id, Some(level)) {
                            Ok(t) => self.views.push(View::LevelPages {
                                index_id,
                                level,
                                pages: t.pages,
                                selected: 0,
                            }),
                            Err(e) => self.status = format!("{e:?}"),
                        }
                    }
                    a => move_selection(selected, n_levels, a),
                }
            }
            View::LevelPages {
                pages: list,
                selected,
                ..
            } => match action {
                Action::Open => {
                    if let Some(p) = list.get(*selected).map(|p| p.page) {
                        self.push_page(p);
                    }
                }
                a => {
                    let n = list.len();
                    move_selection(selected, n, a)
                }
            },
            View::Findings { selected } => match action {
                Action::Open => {
                    let sel = *selected;
                    let page = self.findings().get(sel).and_then(|f| f.page);
                    if let Some(p) = page {
                        self.push_page(p);
                    }
                }
                a => move_selection(selected, n_findings, a),
            },
            View::History { history, selected } => {
                let n = history.versions.len();
                move_selection(selected, n, action)
            }
            View::SegmentPages {
                pages: list,
                selected,
                ..
            } => match action {
                Action::Open => {
                    if let Some(&(p, _)) = list.get(*selected) {
                        self.push_page(p);
                    }
                }
                a => {
                    let n = list.len();
                    move_selection(selected, n, a)
                }
            },
            View::Page(p) => {
                let fil = (
                    p.detail.sections.first().and_then(|s| {
                        s.fields
                            .iter()
                            .find(|f| f.name == "FIL_PAGE_PREV")
                            .map(|f| f.value)
                    }),
                    p.detail.sections.first().and_then(|s| {
                        s.fields
                            .iter()
                            .find(|f| f.name == "FIL_PAGE_NEXT")
                            .map(|f| f.value)
                    }),
                );
                match action {
                    Action::PrevPage | Action::NextPage => {
                        let v = if action == Action::PrevPage {
                            fil.0
                        } else {
                            fil.1
                        };
                        match v
                            .and_then(|v| u32::try_from(v).ok())
                            .filter(|&v| v != u32::MAX)
                        {
                            Some(n) => self.replace_page(n),
                            None => self.status = "no such page: the pointer is FIL_NULL".into(),
                        }
                    }
                    Action::NextRecord => {
                        let next = match p.item() {
                            Some(Item::Record(i)) => p
                                .detail
                                .records
                                .as_ref()
                                .and_then(|r| r.records.get(i))
                                .and_then(|r| r.next),
                            _ => None,
                        };
                        match next {
                            Some(o) if p.select_record_at(o) => {}
                            Some(o) => {
                                self.status = format!("the next record is at {o}: the supremum")
                            }
                            None => self.status = "select a record first".into(),
                        }
                    }
                    Action::RollPointer => self.follow_roll_pointer(),
                    Action::Blob => self.follow_blob(),
                    Action::Open => self.follow(),
                    a => {
                        let n = p.items.len();
                        move_selection(&mut p.selected, n, a)
                    }
                }
            }
        }
    }

    /// Lists the pages of segment `id`: its fragment pages, then the pages
    /// of its extents (full, not full, free lists), used or not.
    fn open_segment(&mut self, id: u64) {
        let Some(map) = self.file.as_ref().and_then(|f| f.map.clone()) else {
            self.status = "no space map: page 0 is unusable".into();
            return;
        };
        let Some(seg) = map.segments.iter().find(|s| s.id == id) else {
            self.status = format!("segment {id} is not in the space map");
            return;
        };
        let es = map.extent_size;
        let mut pages: Vec<(u32, bool)> = seg.frag_pages.iter().map(|&p| (p, true)).collect();
        for &e in seg
            .full_extents
            .iter()
            .chain(&seg.not_full_extents)
            .chain(&seg.free_extents)
        {
            let first = e.saturating_mul(es);
            pages.extend((first..first.saturating_add(es)).map(|p| (p, !map.is_page_free(p))));
        }
        self.status = format!(
            "segment {id}: {} fragment pages, {} extents",
            seg.frag_pages.len(),
            seg.full_extents.len() + seg.not_full_extents.len() + seg.free_extents.len()
        );
        self.views.push(View::SegmentPages {
            segment_id: id,
            owner: seg.owner.describe(),
            pages,
            selected: 0,
        });
    }

    /// Follows the selected line of the page view: a record's child page,
    /// or the typed pointer of a field (a page, a list address, an extent
    /// descriptor, a file segment).
    fn follow(&mut self) {
        let Some(View::Page(p)) = self.views.last() else {
            return;
        };
        let target = match p.item() {
            Some(Item::Record(i)) => {
                let child = p
                    .detail
                    .records
                    .as_ref()
                    .and_then(|r| r.records.get(i))
                    .and_then(|r| r.child_page);
                match child {
                    Some(c) => Target::Page(c),
                    None => {
                        self.follow_roll_pointer();
                        return;
                    }
                }
            }
            Some(Item::Field(s, f)) => {
                let space_id = self.file.as_ref().map_or(0, |f| f.space.space_id());
                p.detail
                    .sections
                    .get(s)
                    .and_then(|sec| sec.fields.get(f))
                    .map_or(Target::Nothing, |field| {
                        crate::follow::target(field, space_id)
                    })
            }
            _ => Target::Nothing,
        };
        match target {
            Target::Page(n) => self.push_page(n),
            Target::Extent(first) => {
                self.ensure_map(HeatmapBy::Index);
                self.views.push(View::Space {
                    cursor: u64::from(first),
                    by: HeatmapBy::Index,
                });
            }
            Target::Segment(id) => self.open_segment(id),
            Target::Elsewhere(what) => {
                self.status = format!("{what}: not in this file")
            }
            Target::Nothing => {
                self.status = "nothing to follow here: select a page pointer, a list address, an extent descriptor or a node pointer".into()
            }
        }
    }
}

/// Moves a list selection.
fn move_selection(selected: &mut usize, n: usize, action: Action) {
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

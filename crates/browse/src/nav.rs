//! How the keys and the mouse move within each view: the cursor of the
//! map, the selections of the lists, the page view's lines and pointers,
//! the record view, the history's undo records.

use crate::action::Action;
use crate::app::{move_selection, App, Item, View};
use crate::follow::Target;
use innodb_analysis::pictures::heatmap::{self, HeatmapBy};
use innodb_analysis::reports::tree_report::TreeReport;

/// Largest number of rows the map moves on PageUp/PageDown.
const PAGE_ROWS: u64 = 16;

/// Columns a horizontal scroll moves.
const HSCROLL_STEP: usize = 8;

/// Lines the mouse wheel moves a list.
const WHEEL_LINES: usize = 3;

impl App {
    /// An action of the current view.
    pub(crate) fn apply_in_view(&mut self, action: Action) {
        let is_map = matches!(self.view(), Some(View::Space { .. }));
        if !is_map && matches!(action, Action::Left | Action::Right) {
            self.scroll_sideways(action == Action::Right);
            return;
        }
        match self.views.last() {
            Some(View::Space { .. }) => self.in_map(action),
            Some(View::Page(_)) => self.in_page(action),
            Some(View::Record(_)) => self.in_record(action),
            Some(View::History { .. }) => self.in_history(action),
            Some(View::Levels { .. }) => self.in_levels(action),
            Some(_) => self.in_list(action),
            None => {}
        }
    }

    /// Left and right scroll the lines of a list or page, up to where the
    /// longest line shown ends.
    fn scroll_sideways(&mut self, right: bool) {
        let max = self.drawn.get().hmax;
        self.hscroll = if right {
            (self.hscroll + HSCROLL_STEP).min(max)
        } else {
            self.hscroll.saturating_sub(HSCROLL_STEP)
        };
    }

    /// The map: the cursor moves by page and by row; colourings; Enter
    /// opens the page under the cursor.
    fn in_map(&mut self, action: Action) {
        let last = self.page_count().saturating_sub(1);
        let columns = self
            .file
            .as_ref()
            .map_or(64, |f| heatmap::layout(&f.space).0 as u64);
        let Some(View::Space { cursor, by }) = self.views.last_mut() else {
            return;
        };
        match action {
            Action::Left | Action::PrevPage => *cursor = cursor.saturating_sub(1),
            Action::Right | Action::NextPage => *cursor = (*cursor + 1).min(last),
            Action::Up | Action::WheelUp => *cursor = cursor.saturating_sub(columns),
            Action::Down | Action::WheelDown => *cursor = (*cursor + columns).min(last),
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

    /// The simple lists: files, indexes, pages of a level or a segment,
    /// findings. Enter opens the selected one.
    fn in_list(&mut self, action: Action) {
        let n_indexes = match &self.indexes {
            Some(Ok(r)) => r.indexes.len(),
            _ => 0,
        };
        let n_findings = self.findings().len();
        let Some(view) = self.views.last_mut() else {
            return;
        };
        let (selected, n) = match view {
            View::Datadir { selected } => (selected, self.datadir.len()),
            View::Indexes { selected } => (selected, n_indexes),
            View::LevelPages {
                pages, selected, ..
            } => (selected, pages.len()),
            View::SegmentPages {
                pages, selected, ..
            } => (selected, pages.len()),
            View::Findings { selected } => (selected, n_findings),
            _ => return,
        };
        if action != Action::Open {
            return move_selection(selected, n, wheel_as_lines(action));
        }
        let sel = *selected;
        match view {
            View::Datadir { .. } => {
                if let Some(p) = self.datadir.get(sel).cloned() {
                    if let Err(e) = self.open_file(&p) {
                        self.status = e;
                    }
                }
            }
            View::Indexes { .. } if n_indexes > 0 => self.push_view(View::Levels {
                index: sel,
                selected: 0,
            }),
            View::LevelPages { pages, .. } => {
                if let Some(p) = pages.get(sel).map(|p| p.page) {
                    self.push_page(p);
                }
            }
            View::SegmentPages { pages, .. } => {
                if let Some(&(p, _)) = pages.get(sel) {
                    self.push_page(p);
                }
            }
            View::Findings { .. } => {
                let f = self.findings().get(sel).map(|f| (f.page, f.offset));
                if let Some((Some(p), offset)) = f {
                    self.push_page_in(None, p, offset.filter(|&o| o > 0));
                }
            }
            _ => {}
        }
    }

    /// The levels of an index: Enter lists a level's pages in key order.
    fn in_levels(&mut self, action: Action) {
        let Some(View::Levels { index, selected }) = self.views.last_mut() else {
            return;
        };
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
        if action != Action::Open {
            return move_selection(selected, n_levels, wheel_as_lines(action));
        }
        let level = u16::try_from(*selected).unwrap_or(0);
        let Some(f) = &self.file else { return };
        match TreeReport::build(&f.space, index_id, Some(level)) {
            Ok(t) => self.push_view(View::LevelPages {
                index_id,
                level,
                pages: t.pages,
                selected: 0,
            }),
            Err(e) => self.status = format!("{e:?}"),
        }
    }

    /// A row's versions: Enter opens the undo record a version was
    /// rebuilt from, on its page of the system or undo tablespace.
    fn in_history(&mut self, action: Action) {
        let Some(View::History { history, selected }) = self.views.last_mut() else {
            return;
        };
        if action != Action::Open {
            let n = history.versions.len();
            return move_selection(selected, n, wheel_as_lines(action));
        }
        let Some(step) = history
            .versions
            .get(*selected)
            .and_then(|v| v.undo.as_ref())
        else {
            self.status = "this version is the record on its page: no undo record".into();
            return;
        };
        let (space_id, page, offset) = (step.space_id, step.page, usize::from(step.offset));
        let path = self
            .foreign
            .iter()
            .find(|s| s.space_id() == space_id)
            .map(|s| s.path().to_path_buf());
        match path {
            Some(p) => {
                self.push_page_in(Some(p), page, Some(offset));
                if self.status.is_empty() {
                    self.status = format!("undo record at page {page} offset {offset}");
                }
            }
            None => self.status = format!("space {space_id}: no undo tablespace given has it"),
        }
    }

    /// The record view: its lines move; `r` and `b` act on its record.
    fn in_record(&mut self, action: Action) {
        match action {
            Action::RollPointer => self.follow_roll_pointer(),
            Action::Blob => self.follow_blob(),
            a => {
                if let Some(View::Record(r)) = self.views.last_mut() {
                    let n = r.lines.len();
                    move_selection(&mut r.selected, n, wheel_as_lines(a));
                }
            }
        }
    }

    /// The page view: lines, `[` `]` along FIL_PAGE_PREV/NEXT, the record
    /// keys, Enter to follow or open.
    fn in_page(&mut self, action: Action) {
        let Some(View::Page(p)) = self.views.last_mut() else {
            return;
        };
        match action {
            Action::PrevPage | Action::NextPage => {
                let name = if action == Action::PrevPage {
                    "FIL_PAGE_PREV"
                } else {
                    "FIL_PAGE_NEXT"
                };
                let v = p
                    .detail
                    .sections
                    .first()
                    .and_then(|s| s.fields.iter().find(|f| f.name == name).map(|f| f.value));
                match v
                    .and_then(|v| u32::try_from(v).ok())
                    .filter(|&v| v != u32::MAX)
                {
                    Some(n) => self.replace_page(n),
                    None => self.status = format!("no such page: {name} is FIL_NULL"),
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
                    Some(o) => self.status = format!("the next record is at {o}: the supremum"),
                    None => self.status = "select a record first".into(),
                }
            }
            Action::RollPointer => self.follow_roll_pointer(),
            Action::Blob => self.follow_blob(),
            Action::Open => self.follow(),
            a => {
                let n = p.items.len();
                move_selection(&mut p.selected, n, wheel_as_lines(a))
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
        self.push_view(View::SegmentPages {
            segment_id: id,
            owner: seg.owner.describe(),
            pages,
            selected: 0,
        });
    }

    /// Follows the selected line of the page view: a node pointer's child
    /// page, a leaf record's every field (the record view), or the typed
    /// pointer of a field (a page, a list address at its node, an extent
    /// descriptor, a file segment).
    fn follow(&mut self) {
        let Some(View::Page(p)) = self.views.last() else {
            return;
        };
        let source = p.source.clone();
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
                        let view = crate::record::record_view(p, i);
                        self.push_view(View::Record(Box::new(view)));
                        return;
                    }
                }
            }
            Some(Item::Field(s, f)) => {
                let space_id = self.space_of(source.as_deref()).map_or(0, |s| s.space_id());
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
        self.go(target, source);
    }

    /// Goes where `target`, met on a page of `source`, leads.
    fn go(&mut self, target: Target, source: Option<std::path::PathBuf>) {
        match target {
            Target::Page(n) => self.push_page_in(source, n, None),
            Target::PageAt(n, offset) => self.push_page_in(source, n, Some(offset)),
            Target::Extent(_) | Target::Segment(_) if source.is_some() => {
                self.status = "extents and segments are followed in the file browsed".into()
            }
            Target::Extent(first) => {
                self.ensure_map(HeatmapBy::Index);
                self.push_view(View::Space {
                    cursor: u64::from(first),
                    by: HeatmapBy::Index,
                });
            }
            Target::Segment(id) => self.open_segment(id),
            Target::Elsewhere(what) => self.status = format!("{what}: not in this file"),
            Target::Nothing => {
                self.status =
                    "nothing to follow: select a pointer, a list address, an XDES entry or a child"
                        .into()
            }
        }
    }

    /// A click: on a cell of the map, its page opens; on a line of a list
    /// or page, it is selected (a second click on it opens it).
    pub(crate) fn click(&mut self, x: u16, y: u16) {
        let drawn = self.drawn.get();
        let pages = self.page_count();
        if let (Some((x0, y0)), Some(View::Space { cursor, .. })) =
            (drawn.map_origin, self.views.last_mut())
        {
            let (w, h) = drawn.map_size;
            if x < x0 || y < y0 || x >= x0 + w || y >= y0 + h {
                return;
            }
            let (first_col, first_row) = drawn.map_first;
            let (columns, per_cell) = drawn.map_layout;
            let cell = (first_row + u64::from(y - y0)) * columns + first_col + u64::from(x - x0);
            let page = cell * per_cell.max(1);
            if page >= pages {
                return;
            }
            *cursor = page;
            self.push_page(u32::try_from(page).unwrap_or(u32::MAX));
            return;
        }
        let Some((area, first)) = drawn.list else {
            return;
        };
        if !area.contains(ratatui::layout::Position { x, y }) {
            return;
        }
        let mut line = first + usize::from(y - area.y);
        if matches!(self.view(), Some(View::Indexes { .. })) {
            // The index list's first line is its header.
            match line.checked_sub(1) {
                Some(l) => line = l,
                None => return,
            }
        }
        let Some((selected, n)) = self.selection_mut() else {
            return;
        };
        if line >= n {
            return;
        }
        if *selected == line {
            self.apply_in_view(Action::Open);
        } else {
            *selected = line;
        }
    }

    /// The selected line of the current list-like view, to set by mouse,
    /// and how many lines it has.
    fn selection_mut(&mut self) -> Option<(&mut usize, usize)> {
        let n_findings = self.findings().len();
        let n_indexes = match &self.indexes {
            Some(Ok(r)) => r.indexes.len(),
            _ => 0,
        };
        let n_levels = |index: usize| match &self.indexes {
            Some(Ok(r)) => r.indexes.get(index).map_or(0, |i| i.pages_per_level.len()),
            _ => 0,
        };
        let n_files = self.datadir.len();
        let levels = match self.views.last()? {
            View::Levels { index, .. } => n_levels(*index),
            _ => 0,
        };
        Some(match self.views.last_mut()? {
            View::Datadir { selected } => (selected, n_files),
            View::Indexes { selected } => (selected, n_indexes),
            View::Levels { selected, .. } => (selected, levels),
            View::LevelPages {
                selected, pages, ..
            } => (selected, pages.len()),
            View::SegmentPages {
                selected, pages, ..
            } => (selected, pages.len()),
            View::Findings { selected } => (selected, n_findings),
            View::History {
                selected, history, ..
            } => (selected, history.versions.len()),
            View::Page(p) => (&mut p.selected, p.items.len()),
            View::Record(r) => (&mut r.selected, r.lines.len()),
            View::Space { .. } => return None,
        })
    }

    /// The wheel: the map's cursor a row, a list a few lines.
    pub(crate) fn wheel(&mut self, action: Action) {
        let times = match self.view() {
            Some(View::Space { .. }) => 1,
            _ => WHEEL_LINES,
        };
        for _ in 0..times {
            self.apply_in_view(action);
        }
    }
}

/// The wheel in a list moves a few lines; other actions are themselves.
fn wheel_as_lines(action: Action) -> Action {
    match action {
        Action::WheelUp => Action::Up,
        Action::WheelDown => Action::Down,
        a => a,
    }
}

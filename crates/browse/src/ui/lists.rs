//! The list views: the data directory's files, the indexes, the levels of
//! an index, the pages of a level, the findings and a row's versions.

use super::text;
use crate::app::App;
use innodb_analysis::reports::tree_report::TreePage;
use innodb_analysis::rows::row_history::{value_text, RowHistory};
use innodb_format::index::sdi::index_id_text;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, List, ListItem, ListState, Paragraph};
use ratatui::Frame;

/// A list of lines in a box, scrolled sideways by the app's `hscroll`,
/// the selected one highlighted; where it went is noted for the mouse.
fn list(
    frame: &mut Frame,
    app: &App,
    area: Rect,
    title: String,
    rows: Vec<String>,
    selected: usize,
) {
    let lines: Vec<Line> = rows.into_iter().map(Line::from).collect();
    lines_box(frame, app, area, title, lines, selected);
}

/// [`list`] of styled lines.
pub(super) fn lines_box(
    frame: &mut Frame,
    app: &App,
    area: Rect,
    title: String,
    lines: Vec<Line<'_>>,
    selected: usize,
) {
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(area);
    let longest = lines.iter().map(text::width).max().unwrap_or(0);
    let items: Vec<ListItem> = lines
        .into_iter()
        .map(|l| ListItem::new(text::shift(l, app.hscroll)))
        .collect();
    let mut state = ListState::default().with_selected(Some(selected));
    frame.render_stateful_widget(
        List::new(items)
            .block(block)
            .highlight_style(Style::default().add_modifier(Modifier::REVERSED)),
        area,
        &mut state,
    );
    let first = state.offset();
    super::note(app, |d| {
        d.list = Some((inner, first));
        d.hmax = longest.saturating_sub(usize::from(inner.width));
    });
}

fn waiting(frame: &mut Frame, area: Rect, title: &str, what: &str) {
    frame.render_widget(
        Paragraph::new(what.to_string()).block(
            Block::default()
                .borders(Borders::ALL)
                .title(title.to_string()),
        ),
        area,
    );
}

/// The files of a data directory.
pub fn datadir(frame: &mut Frame, app: &App, area: Rect, selected: usize) {
    let rows = app
        .datadir
        .iter()
        .map(|p| {
            let size = std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
            format!("{:>14} bytes  {}", size, p.display())
        })
        .collect();
    list(
        frame,
        app,
        area,
        " tablespaces (Enter opens) ".into(),
        rows,
        selected,
    );
}

/// Every index of the file.
pub fn indexes(frame: &mut Frame, app: &App, area: Rect, selected: usize) {
    match &app.indexes {
        None => waiting(frame, area, " indexes ", "walking the indexes…"),
        Some(Err(e)) => waiting(frame, area, " indexes ", e),
        Some(Ok(r)) => {
            let mut rows = vec![format!(
                "{:>10} {:>8} {:>6} {:>8} {:>12} {:>6}  name",
                "index_id", "root", "levels", "pages", "records", "fill"
            )];
            rows.extend(r.indexes.iter().map(|i| {
                format!(
                    "{:>10} {:>8} {:>6} {:>8} {:>12} {:>5.1}%  {}",
                    index_id_text(i.index_id),
                    i.root_page,
                    i.levels,
                    i.pages_per_level.iter().sum::<u64>(),
                    i.records,
                    i.fill * 100.0,
                    i.name.as_deref().unwrap_or("")
                )
            }));
            list(
                frame,
                app,
                area,
                " indexes (Enter: its levels) ".into(),
                rows,
                selected + 1,
            );
        }
    }
}

/// The levels of one index.
pub fn levels(frame: &mut Frame, app: &App, area: Rect, index: usize, selected: usize) {
    let Some(Ok(r)) = &app.indexes else {
        return waiting(frame, area, " levels ", "walking the indexes…");
    };
    let Some(ix) = r.indexes.get(index) else {
        return;
    };
    let rows = ix
        .level_stats
        .iter()
        .map(|l| {
            format!(
                "level {:>2}: {:>8} pages {:>12} records {:>5.1}% fill",
                l.level,
                l.pages,
                l.records,
                l.fill * 100.0
            )
        })
        .collect();
    list(
        frame,
        app,
        area,
        format!(
            " index {} levels (Enter: its pages in key order) ",
            index_id_text(ix.index_id)
        ),
        rows,
        selected,
    );
}

/// The pages of one level.
pub fn level_pages(
    frame: &mut Frame,
    app: &App,
    area: Rect,
    (index_id, level): (u64, u16),
    pages: &[TreePage],
    selected: usize,
) {
    let rows = pages
        .iter()
        .map(|p| {
            format!(
                "page {:>8}  {:>6} records  {:>5.1}% fill  prev {:>8}  next {:>8}",
                p.page,
                p.records,
                p.fill * 100.0,
                p.prev.map_or("-".into(), |n| n.to_string()),
                p.next.map_or("-".into(), |n| n.to_string())
            )
        })
        .collect();
    list(
        frame,
        app,
        area,
        format!(
            " index {} level {level}: {} pages (Enter opens) ",
            index_id_text(index_id),
            pages.len()
        ),
        rows,
        selected,
    );
}

/// Every finding known so far.
pub fn findings(frame: &mut Frame, app: &App, area: Rect, selected: usize) {
    let all = app.findings();
    if all.is_empty() {
        let what = if app.scan_findings.is_none() {
            "scanning…"
        } else {
            "no findings: every page checked is consistent"
        };
        return waiting(frame, area, " findings ", what);
    }
    let rows = all
        .iter()
        .map(|f| {
            format!(
                "page {:>8}  offset {:>6}  {:<22} {}",
                f.page.map_or("-".into(), |p| p.to_string()),
                f.offset.map_or("-".into(), |o| o.to_string()),
                f.field,
                f.message
            )
        })
        .collect();
    list(
        frame,
        app,
        area,
        format!(" findings: {} (Enter opens the page) ", all.len()),
        rows,
        selected,
    );
}

/// A row's versions, newest first.
pub fn history(frame: &mut Frame, app: &App, area: Rect, h: &RowHistory, selected: usize) {
    let names: Vec<&str> = h.fields.iter().map(|f| f.name.as_str()).collect();
    let mut rows = Vec::new();
    for (i, v) in h.versions.iter().enumerate() {
        // The table's columns first, the transaction and roll pointer after
        // them, then the undo record the version was rebuilt from.
        let mut values: Vec<(bool, String)> = names
            .iter()
            .zip(&v.values)
            .map(|(n, val)| {
                let system = super::page::SYSTEM_COLUMNS.contains(n);
                (system, format!("{n}={}", value_text(val)))
            })
            .collect();
        values.sort_by_key(|(system, _)| *system);
        let values: Vec<String> = values.into_iter().map(|(_, t)| t).collect();
        let via = v
            .undo
            .as_ref()
            .map(|u| {
                format!(
                    "  ← undo {} page {} @{} ({})",
                    u.kind,
                    u.page,
                    u.offset,
                    u.changed.join(",")
                )
            })
            .unwrap_or_default();
        rows.push(format!(
            "v{i} trx {}{}: {}{via}",
            v.trx_id,
            if v.deleted { " deleted" } else { "" },
            values.join(" ")
        ));
    }
    rows.push(format!("end: {}", h.end));
    list(
        frame,
        app,
        area,
        format!(
            " {} key {}: {} versions (Enter: a version's undo record) ",
            h.table,
            h.key,
            h.versions.len()
        ),
        rows,
        selected,
    );
}

/// The pages of one file segment.
pub fn segment_pages(
    frame: &mut Frame,
    app: &App,
    area: Rect,
    (segment_id, owner): (u64, &str),
    pages: &[(u32, bool)],
    selected: usize,
) {
    let used = pages.iter().filter(|p| p.1).count();
    let rows = pages
        .iter()
        .map(|(p, u)| {
            format!(
                "page {p:>8}  {}",
                if *u { "used" } else { "reserved unused" }
            )
        })
        .collect();
    list(
        frame,
        app,
        area,
        format!(
            " segment {segment_id} ({owner}): {} pages, {used} used (Enter opens) ",
            pages.len()
        ),
        rows,
        selected,
    );
}

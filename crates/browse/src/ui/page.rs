//! The page view: every decoded field with its offset, the records, and a
//! hex pane with the bytes of the selected line highlighted (shown on a
//! wide screen, or with `x`); the record view: one record, every field.

use super::lists::lines_box;
use crate::app::{App, Item, PageView, RecordView};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

/// Draws the page view.
pub fn page(frame: &mut Frame, app: &App, area: Rect, p: &PageView) {
    // 16 bytes per hex line on a wide screen, 8 on a narrow one.
    let per_line: usize = if area.width >= 140 { 16 } else { 8 };
    let hex_w = if app.hex_shown() {
        (10 + per_line * 3 + 2) as u16
    } else {
        0
    };
    let [left, right] =
        Layout::horizontal([Constraint::Min(30), Constraint::Length(hex_w)]).areas(area);
    let d = &p.detail;
    let title = format!(
        " page {} · {} · checksum {} · {} ",
        d.page,
        d.page_type,
        d.checksum,
        if d.findings.is_empty() {
            "no findings".to_string()
        } else {
            format!("{} findings", d.findings.len())
        }
    );
    let typed = p.rows.as_ref();
    let lines: Vec<Line> = p.items.iter().map(|it| item_line(p, it, typed)).collect();
    lines_box(frame, app, left, title, lines, p.selected);
    if hex_w > 0 {
        hex(frame, right, p, per_line);
    }
}

/// Draws the record view: name and whole value of every field.
pub fn record(frame: &mut Frame, app: &App, area: Rect, r: &RecordView) {
    let name_w = r
        .lines
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(0);
    let lines: Vec<Line> = r
        .lines
        .iter()
        .map(|(n, v)| {
            Line::from(vec![
                Span::styled(
                    format!(" {n:<name_w$}  "),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Span::raw(v.as_str()),
            ])
        })
        .collect();
    let title = format!(" {} · {} fields (← → scroll) ", r.title, r.lines.len());
    lines_box(frame, app, area, title, lines, r.selected);
}

/// Columns the server adds to a clustered index record, shown after the
/// table's own in a record's line.
pub(super) const SYSTEM_COLUMNS: [&str; 2] = ["DB_TRX_ID", "DB_ROLL_PTR"];

fn item_line<'a>(
    p: &'a PageView,
    it: &Item,
    typed: Option<&'a innodb_analysis::rows::records::RecordsReport>,
) -> Line<'a> {
    let d = &p.detail;
    match *it {
        Item::Section(s) => Line::styled(
            d.sections
                .get(s)
                .map_or("", |s| s.title.as_str())
                .to_string(),
            Style::default()
                .add_modifier(Modifier::BOLD)
                .fg(Color::Cyan),
        ),
        Item::Field(s, f) => {
            let Some(field) = d.sections.get(s).and_then(|s| s.fields.get(f)) else {
                return Line::raw("");
            };
            let meaning = field
                .meaning
                .as_deref()
                .map(|m| format!("  ({m})"))
                .unwrap_or_default();
            let pointer = field.pointer.map(|p| format!("  {p}")).unwrap_or_default();
            Line::raw(format!(
                " {:>5} {:>3}  {:<26} {}{meaning}{pointer}",
                field.offset, field.size, field.name, field.value
            ))
        }
        Item::Record(i) => {
            let Some(r) = d.records.as_ref().and_then(|rs| rs.records.get(i)) else {
                return Line::raw("");
            };
            let flags = format!(
                "{}{}",
                if r.deleted { "del " } else { "" },
                if r.min_rec { "min " } else { "" }
            );
            let child = r
                .child_page
                .map(|c| format!(" → page {c}"))
                .unwrap_or_default();
            let values = typed
                .and_then(|t| {
                    t.rows
                        .iter()
                        .find(|row| row.page == d.page && row.origin == r.origin)
                        .map(|row| {
                            let mut shown: Vec<(bool, String)> = t
                                .fields
                                .iter()
                                .zip(&row.values)
                                .enumerate()
                                .map(|(i, (f, v))| {
                                    let mut text =
                                        innodb_analysis::rows::row_history::value_text(v);
                                    if text.chars().count() > 40 {
                                        text = text.chars().take(40).collect::<String>() + "…";
                                    }
                                    let system = SYSTEM_COLUMNS.contains(&f.name.as_str());
                                    match row.external.iter().find(|e| e.0 == i) {
                                        Some((_, p)) => (
                                            system,
                                            format!("{}=[off-page, page {p}] {text}", f.name),
                                        ),
                                        None => (system, format!("{}={text}", f.name)),
                                    }
                                })
                                .collect();
                            // The table's columns first, the transaction
                            // and roll pointer after them.
                            shown.sort_by_key(|(system, _)| *system);
                            let shown: Vec<String> = shown.into_iter().map(|(_, s)| s).collect();
                            shown.join(" ")
                        })
                })
                .unwrap_or_else(|| r.bytes.clone());
            Line::from(vec![
                Span::styled(
                    format!(
                        " @{:<5} h{:<4} {:<8} {flags}",
                        r.origin, r.heap_no, r.record_type
                    ),
                    Style::default().fg(Color::Green),
                ),
                Span::raw(format!("{child} {values}")),
            ])
        }
    }
}

fn hex(frame: &mut Frame, area: Rect, p: &PageView, per_line: usize) {
    let bytes = &p.detail.image;
    let range = p.selected_range().unwrap_or(0..0);
    let lines_avail = area.height.saturating_sub(2) as usize;
    let total_lines = bytes.len().div_ceil(per_line);
    let first = (range.start / per_line)
        .saturating_sub(lines_avail / 3)
        .min(total_lines.saturating_sub(lines_avail));
    let mut lines = Vec::with_capacity(lines_avail);
    for l in (first..total_lines).take(lines_avail) {
        let mut spans = vec![Span::styled(
            format!("{:>6}  ", l * per_line),
            Style::default().fg(Color::DarkGray),
        )];
        for i in l * per_line..((l + 1) * per_line).min(bytes.len()) {
            let b = bytes.get(i).copied().unwrap_or(0);
            let style = if range.contains(&i) {
                Style::default().add_modifier(Modifier::REVERSED)
            } else if b == 0 {
                Style::default().fg(Color::DarkGray)
            } else {
                Style::default()
            };
            spans.push(Span::styled(format!("{b:02x}"), style));
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    let title = if range.is_empty() {
        " bytes ".to_string()
    } else {
        format!(" bytes {}..{} ", range.start, range.end)
    };
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        area,
    );
}

//! Drawing: every frame is drawn from `&App` alone.

mod lists;
mod map;
mod page;
mod text;

use crate::action::KEYS;
use crate::app::{App, Drawn, PromptKind, View};
use innodb_analysis::pictures::Rgb;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

/// A picture colour as a terminal colour (xterm 256, which terminals over
/// ssh show).
pub(crate) fn colour(c: Rgb) -> Color {
    Color::Indexed(innodb_render::ansi::xterm256(c))
}

/// Draws the whole screen: the title with the trail of views, the view,
/// the keys of the view, the status line; the help over them.
pub fn draw(frame: &mut Frame, app: &App) {
    app.drawn.set(Drawn {
        width: frame.area().width,
        ..Drawn::default()
    });
    let [title, body, hints, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    draw_title(frame, app, title);
    match app.view() {
        Some(View::Datadir { selected }) => lists::datadir(frame, app, body, *selected),
        Some(View::Space { cursor, by }) => map::space(frame, app, body, *cursor, *by),
        Some(View::Indexes { selected }) => lists::indexes(frame, app, body, *selected),
        Some(View::Levels { index, selected }) => {
            lists::levels(frame, app, body, *index, *selected)
        }
        Some(View::LevelPages {
            index_id,
            level,
            pages,
            selected,
        }) => lists::level_pages(frame, app, body, (*index_id, *level), pages, *selected),
        Some(View::Page(p)) => page::page(frame, app, body, p),
        Some(View::Record(r)) => page::record(frame, app, body, r),
        Some(View::SegmentPages {
            segment_id,
            owner,
            pages,
            selected,
        }) => lists::segment_pages(frame, app, body, (*segment_id, owner), pages, *selected),
        Some(View::Findings { selected }) => lists::findings(frame, app, body, *selected),
        Some(View::History { history, selected }) => {
            lists::history(frame, app, body, history, *selected)
        }
        None => {}
    }
    draw_hints(frame, app, hints);
    draw_status(frame, app, status);
    if app.help {
        draw_help(frame, app, frame.area());
    }
}

/// Records something the last frame drew, for the mouse.
pub(crate) fn note(app: &App, change: impl FnOnce(&mut Drawn)) {
    let mut d = app.drawn.get();
    change(&mut d);
    app.drawn.set(d);
}

/// The title: the program, the file and the trail of views that `Esc`
/// goes back along. On a narrow screen the program's name goes first,
/// then the file's folders, then the oldest views (cut from the left,
/// after an ellipsis): the current view is always shown.
fn draw_title(frame: &mut Frame, app: &App, area: Rect) {
    let path = app
        .file
        .as_ref()
        .map_or(&app.root, |f| &f.path)
        .display()
        .to_string();
    let base = app
        .file
        .as_ref()
        .and_then(|f| f.path.file_name())
        .map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned());
    let names: Vec<String> = app.views.iter().map(|v| v.name()).collect();
    let trail = names.join(" › ");
    let width = usize::from(area.width);
    let prog = " innodb-inspect browse ";
    let fits = |parts: &[&str]| parts.iter().map(|p| p.chars().count()).sum::<usize>() <= width;
    let (prog, file) = if fits(&[prog, " ", &path, "  ", &trail]) {
        (prog, path)
    } else if fits(&[" ", &path, "  ", &trail]) {
        ("", path)
    } else {
        ("", base)
    };
    let room = width.saturating_sub(prog.chars().count() + file.chars().count() + 3);
    let line = Line::from(vec![
        Span::styled(prog, Style::default().add_modifier(Modifier::REVERSED)),
        Span::raw(format!(" {file}  ")),
        Span::styled(
            text::trail(&names, room),
            Style::default().add_modifier(Modifier::BOLD),
        ),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

/// The keys of the current view, the most useful first.
fn hints(app: &App) -> &'static [(&'static str, &'static str)] {
    match app.view() {
        Some(View::Space { .. }) => &[
            ("↵", "open"),
            ("c", "colours"),
            ("g", "go to"),
            ("/", "key"),
            ("i", "indexes"),
            ("f", "findings"),
            ("?", "help"),
            ("q", "quit"),
        ],
        Some(View::Page(_)) => &[
            ("↵", "follow"),
            ("Esc", "back"),
            ("[ ]", "prev/next"),
            ("x", "hex"),
            ("← →", "scroll"),
            ("r", "undo"),
            ("b", "blob"),
            ("?", "help"),
        ],
        Some(View::Record(_)) => &[
            ("↑ ↓", "fields"),
            ("← →", "scroll"),
            ("r", "undo"),
            ("b", "blob"),
            ("Esc", "back"),
            ("?", "help"),
            ("q", "quit"),
        ],
        Some(View::History { .. }) => &[
            ("↵", "undo record"),
            ("← →", "scroll"),
            ("Esc", "back"),
            ("s", "map"),
            ("?", "help"),
            ("q", "quit"),
        ],
        _ => &[
            ("↵", "open"),
            ("Esc", "back"),
            ("← →", "scroll"),
            ("s", "map"),
            ("?", "help"),
            ("q", "quit"),
        ],
    }
}

fn draw_hints(frame: &mut Frame, app: &App, area: Rect) {
    let key = Style::default().add_modifier(Modifier::REVERSED);
    let mut spans = Vec::new();
    for (k, what) in hints(app) {
        spans.push(Span::styled(*k, key));
        spans.push(Span::raw(format!(" {what}  ")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The prompt; else the work under way and the message of the last key;
/// else where the cursor or selection is, from the state as drawn.
fn draw_status(frame: &mut Frame, app: &App, area: Rect) {
    let line = if let Some(p) = &app.prompt {
        let what = match p.kind {
            PromptKind::Goto => "go to page: ",
            PromptKind::Search => "primary key (values joined by commas): ",
        };
        Line::from(vec![
            Span::styled(what, Style::default().add_modifier(Modifier::BOLD)),
            Span::raw(format!("{}▏", p.text)),
        ])
    } else {
        let mut spans = Vec::new();
        for j in &app.jobs {
            let pct = j.percent().map(|p| format!(" {p}%")).unwrap_or_default();
            spans.push(Span::styled(
                format!("[{}{pct}] ", j.kind.describe()),
                Style::default().fg(Color::Yellow),
            ));
        }
        if app.status.is_empty() {
            spans.push(Span::styled(
                text::position(app),
                Style::default().add_modifier(Modifier::DIM),
            ));
        } else {
            spans.push(Span::raw(app.status.clone()));
        }
        Line::from(spans)
    };
    frame.render_widget(Paragraph::new(line), area);
}

/// The help: every key, one line each (a description too long for the
/// screen goes on under itself); it scrolls when the screen is short.
fn draw_help(frame: &mut Frame, app: &App, area: Rect) {
    let w = area.width.min(90);
    let key_w = KEYS
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let text_w = usize::from(w.saturating_sub(2))
        .saturating_sub(key_w + 2)
        .max(10);
    let mut lines: Vec<Line> = Vec::new();
    for (k, what) in KEYS {
        for (n, part) in text::wrap(what, text_w).into_iter().enumerate() {
            let key = if n == 0 { *k } else { "" };
            lines.push(Line::from(vec![
                Span::styled(
                    format!("{key:>key_w$}  "),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Span::raw(part),
            ]));
        }
    }
    let h = (lines.len() as u16 + 2).min(area.height);
    let inner = usize::from(h.saturating_sub(2));
    let max = lines.len().saturating_sub(inner);
    let top = app.help_scroll.min(max);
    note(app, |d| d.help_max = max);
    let more = if lines.len() > inner {
        format!(
            " lines {}-{} of {}, ↑ ↓ scroll ",
            top + 1,
            (top + inner).min(lines.len()),
            lines.len()
        )
    } else {
        String::new()
    };
    let popup = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .scroll((u16::try_from(top).unwrap_or(0), 0))
            .block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" keys (? or Esc closes) ")
                    .title_bottom(more),
            ),
        popup,
    );
}

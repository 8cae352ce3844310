//! Drawing: every frame is drawn from `&App` alone.

mod lists;
mod map;
mod page;

use crate::action::KEYS;
use crate::app::{App, PromptKind, View};
use innodb_analysis::pictures::Rgb;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

/// A picture colour as a terminal colour (xterm 256, which terminals over
/// ssh show).
pub(crate) fn colour(c: Rgb) -> Color {
    Color::Indexed(innodb_render::ansi::xterm256(c))
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let [title, body, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
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
        }) => lists::level_pages(frame, body, *index_id, *level, pages, *selected),
        Some(View::Page(p)) => page::page(frame, body, p),
        Some(View::SegmentPages {
            segment_id,
            owner,
            pages,
            selected,
        }) => lists::segment_pages(frame, body, *segment_id, owner, pages, *selected),
        Some(View::Findings { selected }) => lists::findings(frame, app, body, *selected),
        Some(View::History { history, selected }) => {
            lists::history(frame, body, history, *selected)
        }
        None => {}
    }
    draw_status(frame, app, status);
    if app.help {
        draw_help(frame, frame.area());
    }
}

fn draw_title(frame: &mut Frame, app: &App, area: Rect) {
    let file = app
        .file
        .as_ref()
        .map(|f| f.path.display().to_string())
        .unwrap_or_else(|| "data directory".into());
    let trail: Vec<String> = app.views.iter().map(|v| v.name()).collect();
    let line = Line::from(vec![
        Span::styled(
            " innodb-inspect browse ",
            Style::default().add_modifier(Modifier::REVERSED),
        ),
        Span::raw(format!(" {file}  ")),
        Span::styled(
            trail.join(" › "),
            Style::default().add_modifier(Modifier::BOLD),
        ),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

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
        spans.push(Span::raw(app.status.clone()));
        Line::from(spans)
    };
    frame.render_widget(Paragraph::new(line), area);
}

fn draw_help(frame: &mut Frame, area: Rect) {
    let w = area.width.min(96);
    let h = (KEYS.len() as u16 + 4).min(area.height);
    let popup = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    let lines: Vec<Line> = KEYS
        .iter()
        .map(|(k, what)| {
            Line::from(vec![
                Span::styled(
                    format!("{k:>22}  "),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Span::raw(*what),
            ])
        })
        .collect();
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" keys (? or Esc closes) "),
        ),
        popup,
    );
}

//! The space view: the map of every page with a cursor, and a side panel
//! with the file's summary, the legend and the page under the cursor.

use super::colour;
use crate::app::App;
use innodb_analysis::pictures::heatmap::HeatmapBy;
use innodb_analysis::pictures::{count, palette, LevelMeaning, Raster, NO_CLASS};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

const HEIGHTS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// Draws the space view.
pub fn space(frame: &mut Frame, app: &App, area: Rect, cursor: u64, by: HeatmapBy) {
    let side = (area.width / 3).clamp(24, 46);
    let [left, right] =
        Layout::horizontal([Constraint::Min(20), Constraint::Length(side)]).areas(area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" map: {} (c: next colouring) ", by.name()));
    let inner = block.inner(left);
    frame.render_widget(block, left);
    match app.map(by) {
        Some(r) => draw_map(frame.buffer_mut(), inner, r, cursor),
        None => {
            let pct = app
                .jobs
                .iter()
                .find_map(|j| j.percent())
                .map(|p| format!(" {p}%"))
                .unwrap_or_default();
            frame.render_widget(
                Paragraph::new(format!("scanning the file for the {} map…{pct}", by.name())),
                inner,
            );
        }
    }
    side_panel(frame, app, right, cursor, by);
}

fn draw_map(buf: &mut Buffer, area: Rect, r: &Raster, cursor: u64) {
    if area.height < 2 || area.width < 8 {
        return;
    }
    let rows = r.rows();
    let label_w = r
        .row_first_page(rows.saturating_sub(1))
        .to_string()
        .len()
        .max(4) as u16;
    let avail_w = area.width.saturating_sub(label_w + 1) as usize;
    let avail_h = area.height.saturating_sub(1) as usize;
    let per_cell = u64::from(r.pages_per_cell.max(1));
    let cell = (cursor / per_cell) as usize;
    let columns = r.columns.max(1) as usize;
    let (crow, ccol) = (cell / columns, cell % columns);
    let x0 = if columns <= avail_w {
        0
    } else {
        ccol.saturating_sub(avail_w / 2).min(columns - avail_w)
    };
    let y0 = if rows <= avail_h {
        0
    } else {
        crow.saturating_sub(avail_h / 2).min(rows - avail_h)
    };
    // Column header: the page offset of the first and last cell shown.
    let head = format!(
        "{:>w$} +{}{}",
        "page",
        x0 as u64 * per_cell,
        if columns > avail_w { " …" } else { "" },
        w = label_w as usize
    );
    buf.set_string(area.x, area.y, head, Style::default().fg(Color::DarkGray));
    for (i, row) in (y0..rows).take(avail_h).enumerate() {
        let y = area.y + 1 + i as u16;
        buf.set_string(
            area.x,
            y,
            format!("{:>w$}", r.row_first_page(row), w = label_w as usize),
            Style::default().fg(Color::DarkGray),
        );
        for (j, c) in r.row(row).iter().enumerate().skip(x0).take(avail_w) {
            let x = area.x + label_w + 1 + (j - x0) as u16;
            let item = (c.class != NO_CLASS).then(|| r.item(c)).flatten();
            let (symbol, style) = match item {
                None => (' ', Style::default()),
                Some(it) if it.colour == palette::EMPTY => {
                    ('·', Style::default().fg(Color::DarkGray))
                }
                Some(it) if r.level_meaning == LevelMeaning::Fill => {
                    let h = ((c.level.clamp(0.0, 1.0) * 8.0).ceil() as usize).clamp(1, 8) - 1;
                    (
                        HEIGHTS.get(h).copied().unwrap_or('█'),
                        Style::default().fg(colour(it.colour)),
                    )
                }
                Some(it) => ('█', Style::default().fg(colour(it.colour))),
            };
            let (symbol, style) = if row * columns + j == cell {
                ('◆', Style::default().fg(Color::Black).bg(Color::White))
            } else {
                (symbol, style)
            };
            if let Some(bc) = buf.cell_mut((x, y)) {
                bc.set_char(symbol).set_style(style);
            }
        }
    }
}

fn side_panel(frame: &mut Frame, app: &App, area: Rect, cursor: u64, by: HeatmapBy) {
    let mut lines: Vec<Line> = Vec::new();
    let bold = Style::default().add_modifier(Modifier::BOLD);
    if let Some(f) = &app.file {
        let fmt = f.space.format();
        lines.push(Line::styled("file", bold));
        lines.push(Line::raw(format!(
            " {} space {}",
            fmt.vendor.name(),
            f.space.space_id()
        )));
        lines.push(Line::raw(format!(
            " page size {} (stored {}), {} pages",
            fmt.logical_page_size(),
            fmt.physical_page_size(),
            f.space.page_count()
        )));
        if let Some(h) = &f.header {
            lines.push(Line::raw(format!(
                " FSP_SIZE {}, free limit {}, extent {} pages",
                h.fsp_size, h.free_limit, h.extent_size
            )));
        }
        if let Some(s) = &f.schema {
            lines.push(Line::raw(format!(" table {}", s.table)));
        }
        if let Some(m) = &f.map {
            let indexes = m
                .segments
                .iter()
                .filter(|s| {
                    matches!(
                        s.owner,
                        innodb_space::segment::SegmentOwner::IndexLeaf { .. }
                    )
                })
                .count();
            lines.push(Line::raw(format!(
                " {}, {}",
                count(m.segments.len() as u64, "segment", "segments"),
                count(indexes as u64, "index", "indexes")
            )));
        }
        // Where the pages go (from the owner map, once made).
        if let Some(owners) = app.map(HeatmapBy::Index) {
            let pages = |prefix: &str| -> (u64, f64) {
                owners
                    .legend
                    .iter()
                    .filter(|i| i.label.starts_with(prefix))
                    .fold((0, 0.0), |(n, p), i| (n + i.pages, p + i.percent))
            };
            let (used, used_pct) = pages("index ");
            let (reserved, reserved_pct) = pages("free, in an extent");
            let (free, free_pct) = pages("free");
            lines.push(Line::raw(format!(" index pages {used} ({used_pct:.1}%)")));
            lines.push(Line::raw(format!(
                " reserved unused {reserved} ({reserved_pct:.1}%)"
            )));
            lines.push(Line::raw(format!(
                " free {} ({:.1}%)",
                free - reserved,
                free_pct - reserved_pct
            )));
        }
        lines.push(Line::raw(format!(
            " findings so far: {}",
            app.findings().len()
        )));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(format!("page {cursor}"), bold));
    if let Some(r) = app.map(by) {
        if let Some(it) = r.cell_of_page(cursor).and_then(|c| r.item(c)) {
            lines.push(Line::raw(format!(" {}", it.label)));
        }
        if let Some(c) = r.cell_of_page(cursor) {
            if r.level_meaning == LevelMeaning::Fill && c.class != NO_CLASS {
                lines.push(Line::raw(format!(" fill {:.0}%", c.level * 100.0)));
            }
        }
        if r.pages_per_cell > 1 {
            lines.push(Line::raw(format!(" ({} pages per cell)", r.pages_per_cell)));
        }
        lines.push(Line::raw(""));
        lines.push(Line::styled("legend", bold));
        for it in &r.legend {
            let swatch = if it.colour == palette::EMPTY {
                Span::styled("··", Style::default().fg(Color::DarkGray))
            } else {
                Span::styled("██", Style::default().fg(colour(it.colour)))
            };
            lines.push(Line::from(vec![
                Span::raw(" "),
                swatch,
                Span::raw(format!(
                    " {:>7} {:>5.1}% {}",
                    it.pages, it.percent, it.label
                )),
            ]));
        }
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::default().borders(Borders::ALL).title(" summary ")),
        area,
    );
}

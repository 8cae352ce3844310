//! The space view: the map of every page with a cursor, the legend, the
//! page under the cursor and the file's summary. On a wide screen the
//! summary and legend are a panel beside the map; on a narrow one (80
//! columns) they go under it, so that a whole row of the map (64 cells,
//! an extent of 16k pages) stays on screen.
//!
//! Without colour (`NO_COLOR`) each cell is its class's symbol, the one
//! `heatmap` prints without colour, and the legend shows the symbols; the
//! cursor is the cell in reverse video. Bad pages are `✗` either way.

use super::{colour, text};
use crate::app::App;
use innodb_analysis::pictures::heatmap::{self, HeatmapBy};
use innodb_analysis::pictures::{count, palette, LegendItem, LevelMeaning, Raster, NO_CLASS};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

const HEIGHTS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The mark of a cell holding a bad page.
pub const BAD: char = '✗';

/// The width of the side panel beside the map, at least.
const SIDE_MIN: u16 = 30;

/// Rows under the map for the legend and the page, at least, on a narrow
/// screen.
const UNDER_MIN: u16 = 7;

/// The cell layout of the open file: cells per row, pages per cell, rows.
fn layout(app: &App) -> (u64, u64, u64) {
    app.file.as_ref().map_or((64, 1, 0), |f| {
        let (columns, per_cell) = heatmap::layout(&f.space);
        let (columns, per_cell) = (u64::from(columns), u64::from(per_cell));
        let pages = u64::from(f.space.page_count());
        (columns, per_cell, pages.div_ceil(columns * per_cell))
    })
}

/// Draws the space view.
pub fn space(frame: &mut Frame, app: &App, area: Rect, cursor: u64, by: HeatmapBy) {
    let (columns, per_cell, rows) = layout(app);
    let label_w = (rows.saturating_sub(1) * columns * per_cell)
        .to_string()
        .len()
        .max(3) as u16;
    let map_w = label_w + 1 + u16::try_from(columns).unwrap_or(u16::MAX) + 2;
    let per = if per_cell == 1 {
        "1 page a cell".to_string()
    } else {
        format!("{per_cell} pages a cell")
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {} map · {per} ", by.name()));
    if area.width >= map_w + SIDE_MIN {
        let [left, right] =
            Layout::horizontal([Constraint::Length(map_w), Constraint::Min(SIDE_MIN)]).areas(area);
        let inner = block.inner(left);
        frame.render_widget(block, left);
        draw_map_or_progress(frame, app, inner, cursor, by);
        let mut lines = cursor_lines(app, cursor, by);
        lines.push(Line::raw(""));
        lines.extend(file_lines(app, true));
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            "legend",
            Style::default().add_modifier(Modifier::BOLD),
        ));
        lines.extend(legend_lines(app, by, usize::MAX));
        frame.render_widget(
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .block(Block::default().borders(Borders::ALL).title(" summary ")),
            right,
        );
        return;
    }
    // Narrow: the map on top (its rows scroll to keep the cursor in view),
    // the legend and the page under it.
    // The legend gets its lines (up to half the screen) when the map's
    // rows would not fit anyway: they say what the symbols mean.
    let legend_len = app.map(by).map_or(0, |r| r.legend.len())
        + usize::from(app.bad.as_ref().is_some_and(|b| b.pages > 0));
    let under = u16::try_from(legend_len + 2)
        .unwrap_or(u16::MAX)
        .clamp(UNDER_MIN, (area.height / 2).max(UNDER_MIN));
    let want = u16::try_from(rows).unwrap_or(u16::MAX).saturating_add(2);
    let map_h = want.min(area.height.saturating_sub(under)).max(3);
    let [top, bottom] =
        Layout::vertical([Constraint::Length(map_h), Constraint::Min(0)]).areas(area);
    let inner = block.inner(top);
    frame.render_widget(block, top);
    draw_map_or_progress(frame, app, inner, cursor, by);
    let info_w = (bottom.width * 2 / 5).clamp(26, 44);
    let [legend, info] =
        Layout::horizontal([Constraint::Min(20), Constraint::Length(info_w)]).areas(bottom);
    let legend_rows = usize::from(legend.height.saturating_sub(2));
    let legend_w = usize::from(legend.width.saturating_sub(2));
    let legend_text = text::fit(legend_lines(app, by, legend_rows), legend_w, legend_rows);
    frame.render_widget(
        Paragraph::new(legend_text).block(Block::default().borders(Borders::ALL).title(" legend ")),
        legend,
    );
    // The box's title names the page: its lines start with its class.
    let mut lines: Vec<Line> = cursor_lines(app, cursor, by).into_iter().skip(1).collect();
    lines.extend(file_lines(app, false));
    let lines = text::fit(
        lines,
        usize::from(info.width.saturating_sub(2)),
        usize::from(info.height.saturating_sub(2)),
    );
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" page {cursor} ")),
        ),
        info,
    );
}

fn draw_map_or_progress(frame: &mut Frame, app: &App, inner: Rect, cursor: u64, by: HeatmapBy) {
    match app.map(by) {
        Some(r) => draw_map(frame.buffer_mut(), app, inner, r, cursor),
        None => {
            let pct = app
                .jobs
                .iter()
                .find_map(|j| j.percent())
                .map(|p| format!(" {p}%"))
                .unwrap_or_default();
            frame.render_widget(
                Paragraph::new(format!("scanning the file for the {} map…{pct}", by.name()))
                    .wrap(Wrap { trim: false }),
                inner,
            );
        }
    }
}

/// The glyph and style of a cell: the class's symbol without colour, else
/// a block in the class's colour (a bar as high as the fill on a fill map;
/// faint dots for pages never written).
fn glyph(r: &Raster, c: &innodb_analysis::pictures::Cell, plain: bool) -> (char, Style) {
    let item = (c.class != NO_CLASS).then(|| r.item(c)).flatten();
    match item {
        None => (' ', Style::default()),
        Some(it) if plain => (it.symbol, Style::default()),
        Some(it) if it.colour == palette::EMPTY => ('·', Style::default().fg(Color::DarkGray)),
        Some(it) if r.level_meaning == LevelMeaning::Fill => {
            let h = ((c.level.clamp(0.0, 1.0) * 8.0).ceil() as usize).clamp(1, 8) - 1;
            (
                HEIGHTS.get(h).copied().unwrap_or('█'),
                Style::default().fg(colour(it.colour)),
            )
        }
        Some(it) => ('█', Style::default().fg(colour(it.colour))),
    }
}

fn draw_map(buf: &mut Buffer, app: &App, area: Rect, r: &Raster, cursor: u64) {
    if area.height < 1 || area.width < 8 {
        return;
    }
    let rows = r.rows();
    let label_w = r
        .row_first_page(rows.saturating_sub(1))
        .to_string()
        .len()
        .max(3) as u16;
    let per_cell = u64::from(r.pages_per_cell.max(1));
    let cell = (cursor / per_cell) as usize;
    let columns = r.columns.max(1) as usize;
    let (crow, ccol) = (cell / columns, cell % columns);
    let avail_w = area.width.saturating_sub(label_w + 1) as usize;
    // A header line only when the rows are cut: it says where they start.
    let cut = columns > avail_w;
    let avail_h = area.height.saturating_sub(u16::from(cut)) as usize;
    let x0 = if cut {
        ccol.saturating_sub(avail_w / 2).min(columns - avail_w)
    } else {
        0
    };
    let y0 = if rows <= avail_h {
        0
    } else {
        crow.saturating_sub(avail_h / 2).min(rows - avail_h)
    };
    let dim = Style::default().fg(Color::DarkGray);
    if cut {
        let head = format!(
            "{:>w$} cells +{}..+{} of {columns}",
            "",
            x0,
            (x0 + avail_w).min(columns) - 1,
            w = label_w as usize
        );
        buf.set_string(area.x, area.y, head, dim);
    }
    let top = area.y + u16::from(cut);
    let bad = app.bad.as_ref();
    for (i, row) in (y0..rows).take(avail_h).enumerate() {
        let y = top + i as u16;
        let label = format!("{:>w$}", r.row_first_page(row), w = label_w as usize);
        buf.set_string(area.x, y, label, dim);
        for (j, c) in r.row(row).iter().enumerate().skip(x0).take(avail_w) {
            let x = area.x + label_w + 1 + (j - x0) as u16;
            let first_page = (row * columns + j) as u64 * per_cell;
            let (symbol, style) = if bad.is_some_and(|b| b.marks(first_page)) {
                let s = Style::default().add_modifier(Modifier::BOLD);
                (BAD, if app.plain { s } else { s.fg(Color::Red) })
            } else {
                glyph(r, c, app.plain)
            };
            let (symbol, style) = match (row * columns + j == cell, app.plain) {
                (false, _) => (symbol, style),
                (true, true) => (symbol, style.add_modifier(Modifier::REVERSED)),
                (true, false) => ('◆', Style::default().fg(Color::Black).bg(Color::White)),
            };
            if let Some(bc) = buf.cell_mut((x, y)) {
                bc.set_char(symbol).set_style(style);
            }
        }
    }
    super::note(app, |d| {
        d.map_origin = Some((area.x + label_w + 1, top));
        d.map_size = (
            avail_w.min(columns) as u16,
            avail_h.min(rows.saturating_sub(y0)) as u16,
        );
        d.map_first = (x0 as u64, y0 as u64);
        d.map_layout = (columns as u64, per_cell);
    });
}

/// The page under the cursor: its class, fill, whether it is bad.
fn cursor_lines(app: &App, cursor: u64, by: HeatmapBy) -> Vec<Line<'static>> {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut lines = vec![Line::styled(format!("page {cursor}"), bold)];
    if let Some(r) = app.map(by) {
        if let Some(c) = r.cell_of_page(cursor) {
            if let Some(it) = r.item(c) {
                lines.push(Line::from(vec![
                    Span::raw(" "),
                    Span::raw(it.label.clone()),
                ]));
            }
            if r.level_meaning == LevelMeaning::Fill && c.class != NO_CLASS {
                lines.push(Line::raw(format!(" fill {:.0}%", c.level * 100.0)));
            }
        }
        if r.pages_per_cell > 1 {
            let first = cursor / u64::from(r.pages_per_cell) * u64::from(r.pages_per_cell);
            lines.push(Line::raw(format!(
                " cell of pages {first}..{}",
                first + u64::from(r.pages_per_cell) - 1
            )));
        }
    }
    if app.bad.as_ref().is_some_and(|b| b.marks(cursor)) {
        lines.push(Line::styled(
            format!(" {BAD} bad: checksum or LSN (f lists the findings)"),
            bold,
        ));
    }
    lines
}

/// The file's summary: vendor, sizes, segments, where the pages go; under
/// a heading when `heading`.
fn file_lines(app: &App, heading: bool) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let Some(f) = &app.file else {
        return lines;
    };
    let fmt = f.space.format();
    if heading {
        lines.push(Line::styled(
            "file",
            Style::default().add_modifier(Modifier::BOLD),
        ));
    }
    let bad = app.bad.as_ref().map_or(0, |b| b.pages);
    lines.push(Line::raw(format!(
        " findings: {}, bad pages: {bad}",
        app.findings().len()
    )));
    lines.push(Line::raw(format!(
        " {} space {}: {} × {}k",
        fmt.vendor.name(),
        f.space.space_id(),
        f.space.page_count(),
        fmt.logical_page_size() / 1024
    )));
    if let Some(h) = &f.header {
        lines.push(Line::raw(format!(
            " FSP_SIZE {}, free limit {}",
            h.fsp_size, h.free_limit
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
        let pages = |prefix: &str| -> u64 {
            owners
                .legend
                .iter()
                .filter(|i| i.label.starts_with(prefix))
                .map(|i| i.pages)
                .sum()
        };
        let (used, reserved, free) = (pages("index "), pages("reserved unused"), pages("free"));
        lines.push(Line::raw(format!(" index pages {used}, free {free}")));
        lines.push(Line::raw(format!(" reserved unused {reserved}")));
    }
    lines
}

/// One legend line: the swatch (the symbol, without colour), pages (in
/// `count_w` columns), share and label.
fn legend_line(it: &LegendItem, plain: bool, count_w: usize) -> Line<'static> {
    let swatch = if plain {
        Span::raw(format!("{} ", it.symbol))
    } else if it.colour == palette::EMPTY {
        Span::styled("··", Style::default().fg(Color::DarkGray))
    } else {
        Span::styled("██", Style::default().fg(colour(it.colour)))
    };
    Line::from(vec![
        Span::raw(" "),
        swatch,
        Span::raw(format!(
            " {:>count_w$} {:>5.1}% ",
            it.pages,
            innodb_analysis::percent(it.share)
        )),
        Span::raw(it.label.clone()),
    ])
}

/// The legend of the map of `by`, in at most `rows` lines: classes with no
/// page give way first, then the last lines (said on the last one kept).
fn legend_lines(app: &App, by: HeatmapBy, rows: usize) -> Vec<Line<'static>> {
    let Some(r) = app.map(by) else {
        return vec![Line::raw(" (scanning…)")];
    };
    let mut items: Vec<&LegendItem> = r.legend.iter().collect();
    let bad = app.bad.as_ref().map_or(0, |b| b.pages);
    let wanted = items.len() + usize::from(bad > 0);
    if wanted > rows {
        items.retain(|i| i.pages > 0);
    }
    let count_w = items
        .iter()
        .map(|i| i.pages)
        .chain([bad])
        .max()
        .unwrap_or(0)
        .to_string()
        .len();
    let mut lines: Vec<Line> = items
        .iter()
        .map(|it| legend_line(it, app.plain, count_w))
        .collect();
    if bad > 0 {
        lines.push(Line::from(vec![
            Span::styled(
                format!(" {BAD} "),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!(" {bad:>count_w$}        ")),
            Span::raw("bad (checksum or LSN)"),
        ]));
    }
    if lines.len() > rows && rows > 0 {
        let hidden = lines.len() - (rows - 1);
        lines.truncate(rows - 1);
        lines.push(Line::raw(format!(" … {hidden} more")));
    }
    lines
}

//! Text fitted to the screen: the trail of views cut from the left, the
//! help wrapped on words, lines scrolled sideways, and the position the
//! status line shows when there is no message.

use crate::app::{App, View};
use ratatui::text::{Line, Span};

/// The trail of views joined by `›`, at most `room` characters: the oldest
/// views give way first, after an ellipsis; the current one always stays
/// (its own start cut when even it alone is too long).
pub fn trail(names: &[String], room: usize) -> String {
    let joined = names.join(" › ");
    if joined.chars().count() <= room {
        return joined;
    }
    let mut kept: Vec<&str> = Vec::new();
    let mut used = 1; // the ellipsis
    for name in names.iter().rev() {
        let add = name.chars().count() + 3;
        if used + add > room && !kept.is_empty() {
            break;
        }
        kept.push(name);
        used += add;
    }
    kept.reverse();
    let text = format!("… › {}", kept.join(" › "));
    let n = text.chars().count();
    if n <= room {
        text
    } else {
        let cut: String = text.chars().skip(n - room.saturating_sub(1)).collect();
        format!("…{cut}")
    }
}

/// `text` in lines of at most `width` characters, broken between words
/// (a word longer than a line is broken inside).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let mut word = word.to_string();
        while word.chars().count() > width {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            let head: String = word.chars().take(width).collect();
            word = word.chars().skip(width).collect();
            lines.push(head);
        }
        let need = line.chars().count() + usize::from(!line.is_empty()) + word.chars().count();
        if need > width && !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// `lines` fitted to a box of `width` × `rows`: a line too wide has its
/// last span wrapped on words under itself (a hanging indent past the
/// spans before it) while the lines after it still fit; otherwise it is
/// left to be cut at the box's edge.
pub fn fit(lines: Vec<Line<'static>>, width: usize, rows: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let n = lines.len();
    for (i, line) in lines.into_iter().enumerate() {
        let after = n - i - 1;
        let (last, before) = match line.spans.split_last() {
            Some((last, before)) => (Some(last.clone()), before.to_vec()),
            None => (None, Vec::new()),
        };
        let prefix_w = width_of(&before);
        let wrapped = match &last {
            Some(l) if self::width(&line) > width && prefix_w + 8 < width => {
                wrap(&l.content, width - prefix_w)
            }
            _ => Vec::new(),
        };
        if wrapped.len() < 2 || out.len() + wrapped.len() + after > rows {
            out.push(line);
            continue;
        }
        let style = last.map(|l| l.style).unwrap_or_default();
        let mut head = before;
        for (k, part) in wrapped.into_iter().enumerate() {
            if k == 0 {
                head.push(Span::styled(part, style));
                out.push(Line::from(std::mem::take(&mut head)));
            } else {
                out.push(Line::from(vec![
                    Span::raw(" ".repeat(prefix_w)),
                    Span::styled(part, style),
                ]));
            }
        }
    }
    out
}

fn width_of(spans: &[Span<'_>]) -> usize {
    spans.iter().map(|s| s.content.chars().count()).sum()
}

/// `line` without its first `n` characters (scrolled sideways).
pub fn shift(line: Line<'_>, n: usize) -> Line<'_> {
    if n == 0 {
        return line;
    }
    let mut skip = n;
    let mut spans = Vec::new();
    for span in line.spans {
        let len = span.content.chars().count();
        if skip >= len {
            skip -= len;
            continue;
        }
        let rest: String = span.content.chars().skip(skip).collect();
        skip = 0;
        spans.push(Span::styled(rest, span.style));
    }
    Line::from(spans).style(line.style)
}

/// The width of `line` in characters.
pub fn width(line: &Line<'_>) -> usize {
    line.spans.iter().map(|s| s.content.chars().count()).sum()
}

/// Where the cursor or the selection is, said from the state: the status
/// line's text when no key left a message (so it never goes stale).
pub fn position(app: &App) -> String {
    let of = |i: usize, n: usize| format!("{} of {n}", (i + 1).min(n));
    match app.view() {
        Some(View::Space { cursor, by }) => {
            let class = app
                .map(*by)
                .and_then(|r| r.cell_of_page(*cursor).and_then(|c| r.item(c)))
                .map(|it| format!(": {}", it.label))
                .unwrap_or_default();
            let bad = app
                .bad
                .as_ref()
                .filter(|b| b.marks(*cursor))
                .map_or("", |_| " (bad)");
            format!("page {cursor}{class}{bad}")
        }
        Some(View::Page(p)) => format!(
            "page {}, line {}",
            p.detail.page,
            of(p.selected, p.items.len())
        ),
        Some(View::Record(r)) => format!("{}, field {}", r.title, of(r.selected, r.lines.len())),
        Some(View::History { history, selected }) => {
            format!("version {}", of(*selected, history.versions.len()))
        }
        Some(View::LevelPages {
            pages, selected, ..
        }) => format!("page {}", of(*selected, pages.len())),
        Some(View::SegmentPages {
            pages, selected, ..
        }) => {
            format!("page {}", of(*selected, pages.len()))
        }
        Some(View::Findings { selected }) => {
            format!("finding {}", of(*selected, app.findings().len()))
        }
        Some(View::Datadir { selected }) => format!("file {}", of(*selected, app.datadir.len())),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trail_is_cut_from_the_left() {
        let names: Vec<String> = ["map: index", "page 3", "page 72", "page 73"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(trail(&names, 80), "map: index › page 3 › page 72 › page 73");
        assert_eq!(trail(&names, 24), "… › page 72 › page 73");
        assert_eq!(trail(&names, 12), "… › page 73");
        assert_eq!(trail(&names, 5).chars().count(), 5);
    }

    #[test]
    fn help_lines_wrap_on_words() {
        assert_eq!(wrap("one two three", 7), ["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), [""]);
    }

    #[test]
    fn long_lines_wrap_while_the_rest_fits() {
        let line = |t: &str| Line::from(vec![Span::raw(" A "), Span::raw(t.to_string())]);
        let lines = vec![line("one two three four"), line("five")];
        let fitted = fit(lines.clone(), 12, 3);
        let text: Vec<String> = fitted.iter().map(|l| l.to_string()).collect();
        assert_eq!(text, [" A one two three four", " A five"]);
        let fitted = fit(lines, 12, 4);
        let text: Vec<String> = fitted.iter().map(|l| l.to_string()).collect();
        assert_eq!(text, [" A one two", "   three", "   four", " A five"]);
    }

    #[test]
    fn lines_shift_across_spans() {
        let l = Line::from(vec![Span::raw("abc"), Span::raw("def")]);
        assert_eq!(width(&l), 6);
        let s = shift(l, 4);
        assert_eq!(s.spans.len(), 1);
        assert_eq!(s.spans[0].content, "ef");
    }
}

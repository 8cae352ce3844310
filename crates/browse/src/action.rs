//! What a key press asks for: every key becomes a named action, and the
//! app changes only through [`crate::App::apply`].

use innodb_analysis::pictures::heatmap::HeatmapBy;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};

/// Something the user asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Cursor or selection up.
    Up,
    /// Cursor or selection down.
    Down,
    /// Cursor left (the page before, in the map).
    Left,
    /// Cursor right (the page after, in the map).
    Right,
    /// A screen up.
    PageUp,
    /// A screen down.
    PageDown,
    /// To the first item.
    Home,
    /// To the last item.
    End,
    /// Open or follow the selected thing: a page, an index, a pointer.
    Open,
    /// Back to the view before (the parent, after following a pointer).
    Back,
    /// The page `FIL_PAGE_PREV` names (in the map: the page before).
    PrevPage,
    /// The page `FIL_PAGE_NEXT` names (in the map: the page after).
    NextPage,
    /// Select the record the selected record's next pointer names.
    NextRecord,
    /// Follow the selected record's `DB_ROLL_PTR` into the undo log.
    RollPointer,
    /// Follow the selected record's off-page column to its first BLOB page.
    Blob,
    /// The map's next colouring.
    CycleColour,
    /// The map coloured by this.
    Colour(HeatmapBy),
    /// The map of the file.
    SpaceView,
    /// The list of indexes.
    IndexView,
    /// The list of findings.
    FindingsView,
    /// Ask for a page number to go to.
    StartGoto,
    /// Ask for a primary key to search.
    StartSearch,
    /// A character typed into the prompt.
    Input(char),
    /// Delete the prompt's last character.
    InputBackspace,
    /// Run the prompt.
    Submit,
    /// Close the prompt or the help.
    Cancel,
    /// Show or hide the key help.
    ToggleHelp,
    /// Show or hide the page view's hex pane.
    ToggleHex,
    /// A mouse click at this column and row of the screen.
    Click(u16, u16),
    /// The mouse wheel, up.
    WheelUp,
    /// The mouse wheel, down.
    WheelDown,
    /// Leave.
    Quit,
}

/// The action of a key, given whether a prompt is taking input.
pub fn action_for(key: KeyEvent, prompting: bool) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        return Some(Action::Quit);
    }
    if prompting {
        return match key.code {
            KeyCode::Enter => Some(Action::Submit),
            KeyCode::Esc => Some(Action::Cancel),
            KeyCode::Backspace => Some(Action::InputBackspace),
            KeyCode::Char(c) => Some(Action::Input(c)),
            _ => None,
        };
    }
    Some(match key.code {
        KeyCode::Up | KeyCode::Char('k') => Action::Up,
        KeyCode::Down | KeyCode::Char('j') => Action::Down,
        KeyCode::Left | KeyCode::Char('h') => Action::Left,
        KeyCode::Right | KeyCode::Char('l') => Action::Right,
        KeyCode::PageUp => Action::PageUp,
        KeyCode::PageDown | KeyCode::Char(' ') => Action::PageDown,
        KeyCode::Home => Action::Home,
        KeyCode::End | KeyCode::Char('G') => Action::End,
        KeyCode::Enter => Action::Open,
        KeyCode::Esc | KeyCode::Backspace => Action::Back,
        KeyCode::Char('[') => Action::PrevPage,
        KeyCode::Char(']') => Action::NextPage,
        KeyCode::Char('n') => Action::NextRecord,
        KeyCode::Char('r') => Action::RollPointer,
        KeyCode::Char('b') => Action::Blob,
        KeyCode::Char('c') => Action::CycleColour,
        KeyCode::Char('1') => Action::Colour(HeatmapBy::PageType),
        KeyCode::Char('2') => Action::Colour(HeatmapBy::LsnAge),
        KeyCode::Char('3') => Action::Colour(HeatmapBy::Fill),
        KeyCode::Char('4') => Action::Colour(HeatmapBy::Index),
        KeyCode::Char('s') => Action::SpaceView,
        KeyCode::Char('i') => Action::IndexView,
        KeyCode::Char('f') => Action::FindingsView,
        KeyCode::Char('g') => Action::StartGoto,
        KeyCode::Char('/') => Action::StartSearch,
        KeyCode::Char('?') => Action::ToggleHelp,
        KeyCode::Char('x') => Action::ToggleHex,
        KeyCode::Char('q') => Action::Quit,
        _ => return None,
    })
}

/// The action of a mouse event: a click of the left button, the wheel.
pub fn action_for_mouse(m: MouseEvent) -> Option<Action> {
    match m.kind {
        MouseEventKind::Down(ratatui::crossterm::event::MouseButton::Left) => {
            Some(Action::Click(m.column, m.row))
        }
        MouseEventKind::ScrollUp => Some(Action::WheelUp),
        MouseEventKind::ScrollDown => Some(Action::WheelDown),
        _ => None,
    }
}

/// The keys, as the help shows them.
pub const KEYS: &[(&str, &str)] = &[
    (
        "arrows, h j k l",
        "move; in lists and pages ← → scroll sideways",
    ),
    ("PgUp PgDn, Home End", "a screen, the first, the last"),
    (
        "Enter",
        "open: page, index, level, record; follow a pointer",
    ),
    (
        "Esc, Backspace",
        "back (to the parent, after following a pointer)",
    ),
    (
        "[  ]",
        "FIL_PAGE_PREV / FIL_PAGE_NEXT (map: page before/after)",
    ),
    ("n", "the selected record's next record"),
    (
        "r",
        "the record's DB_ROLL_PTR: its versions in the undo log",
    ),
    ("b", "the record's off-page column: its first BLOB page"),
    ("x", "page view: show or hide the hex pane"),
    (
        "c, 1 2 3 4",
        "map colouring: next; type, LSN age, fill, owner",
    ),
    ("s  i  f", "the map, the indexes, the findings"),
    ("g", "go to a page number"),
    ("/", "search a primary key (values joined by commas)"),
    (
        "mouse",
        "click a map cell: its page; a line: select, again: open",
    ),
    ("wheel", "move the map cursor a row, a list three lines"),
    ("?", "this help (↑ ↓ scroll it)"),
    ("q, Ctrl-C", "quit"),
];

//! What a key press asks for: every key becomes a named action, and the
//! app changes only through [`crate::App::apply`].

use innodb_analysis::pictures::heatmap::HeatmapBy;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

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
        KeyCode::Char('q') => Action::Quit,
        _ => return None,
    })
}

/// The keys, as the help shows them.
pub const KEYS: &[(&str, &str)] = &[
    ("arrows, h j k l", "move the cursor or the selection"),
    ("PgUp PgDn, Home End", "a screen, the first, the last"),
    (
        "Enter",
        "open: page, index, level; follow the selected pointer or child page",
    ),
    (
        "Esc, Backspace",
        "back (to the parent, after following a pointer)",
    ),
    (
        "[  ]",
        "FIL_PAGE_PREV / FIL_PAGE_NEXT (in the map: page before / after)",
    ),
    ("n", "the selected record's next record"),
    (
        "r",
        "the selected record's DB_ROLL_PTR: its older versions from the undo log",
    ),
    (
        "b",
        "the selected record's off-page column: the first page of its BLOB chain",
    ),
    (
        "c, 1 2 3 4",
        "map colouring: cycle; page type, LSN age, fill, owner",
    ),
    ("s  i  f", "the map, the indexes, the findings"),
    ("g", "go to a page number"),
    (
        "/",
        "search a primary key (values joined by commas), down the clustered index",
    ),
    ("?", "this help"),
    ("q, Ctrl-C", "quit"),
];

//! The terminal: raw mode, the alternate screen and mouse events while the browser runs,
//! restored on every exit: a quit, an error, a panic (ratatui's init
//! installs a panic hook that restores the terminal first) and SIGTERM,
//! SIGHUP, SIGINT or SIGQUIT (they end the loop, which restores it). The
//! screen drawn is at most [`MAX_COLUMNS`] × [`MAX_ROWS`], whatever size the
//! terminal claims: a 65535×65535 terminal would otherwise make ratatui
//! allocate screen buffers of hundreds of GB (an abort no hook can catch).

use crate::action::{action_for, action_for_mouse};
use crate::app::App;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyEventKind,
};
use ratatui::layout::Rect;
use ratatui::{TerminalOptions, Viewport};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The widest screen drawn: wider terminals leave the rest blank.
pub const MAX_COLUMNS: u16 = 1000;
/// The tallest screen drawn.
pub const MAX_ROWS: u16 = 500;

/// The area drawn in a terminal of `width` × `height`.
pub fn screen_area(width: u16, height: u16) -> Rect {
    Rect::new(0, 0, width.min(MAX_COLUMNS), height.min(MAX_ROWS))
}

/// A flag raised by SIGTERM, SIGHUP, SIGINT and SIGQUIT.
fn stop_on_signals() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGQUIT,
    ] {
        // A signal that cannot be watched keeps its default action.
        let _ = signal_hook::flag::register(sig, stop.clone());
    }
    stop
}

/// Runs the browser until the user quits.
pub fn run(mut app: App) -> std::io::Result<()> {
    let stop = stop_on_signals();
    let (width, height) = ratatui::crossterm::terminal::size()?;
    let mut terminal = match ratatui::try_init_with_options(TerminalOptions {
        viewport: Viewport::Fixed(screen_area(width, height)),
    }) {
        Ok(t) => t,
        Err(e) => {
            ratatui::restore();
            return Err(e);
        }
    };
    mouse_on();
    // For the smoke test that proves the terminal is restored after a panic.
    let test_panic = std::env::var_os("INNODB_INSPECT_BROWSE_TEST_PANIC").is_some();
    let result = (|| -> std::io::Result<()> {
        while !app.quit && !stop.load(Ordering::Relaxed) {
            terminal.draw(|f| crate::ui::draw(f, &app))?;
            if test_panic {
                #[allow(clippy::panic)]
                {
                    panic!("INNODB_INSPECT_BROWSE_TEST_PANIC is set: panicking on purpose after the first screen");
                }
            }
            // Wake up often enough to show the scans' progress.
            if event::poll(Duration::from_millis(100))? {
                match event::read()? {
                    Event::Key(k) if k.kind != KeyEventKind::Release => {
                        if let Some(a) = action_for(k, app.prompt.is_some()) {
                            app.apply(a);
                        }
                    }
                    Event::Mouse(m) => {
                        if let Some(a) = action_for_mouse(m) {
                            app.apply(a);
                        }
                    }
                    Event::Resize(w, h) => terminal.resize(screen_area(w, h))?,
                    _ => {}
                }
            }
            app.poll_jobs();
        }
        Ok(())
    })();
    mouse_off();
    ratatui::restore();
    result
}

/// Asks the terminal for mouse events (clicks and the wheel), and to stop
/// sending them on every way out: a panic too (before ratatui's hook
/// restores the rest).
fn mouse_on() {
    let _ = ratatui::crossterm::execute!(std::io::stdout(), EnableMouseCapture);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        mouse_off();
        previous(info);
    }));
}

/// Stops the terminal's mouse events.
fn mouse_off() {
    let _ = ratatui::crossterm::execute!(std::io::stdout(), DisableMouseCapture);
}

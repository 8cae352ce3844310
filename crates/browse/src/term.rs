//! The terminal: raw mode and the alternate screen while the browser runs,
//! restored on every exit, a panic included (ratatui's init installs a
//! panic hook that restores the terminal first).

use crate::action::action_for;
use crate::app::App;
use ratatui::crossterm::event::{self, Event, KeyEventKind};
use std::time::Duration;

/// Runs the browser until the user quits.
pub fn run(mut app: App) -> std::io::Result<()> {
    let mut terminal = ratatui::init();
    // For the smoke test that proves the terminal is restored after a panic.
    let test_panic = std::env::var_os("INNODB_INSPECT_BROWSE_TEST_PANIC").is_some();
    let result = (|| -> std::io::Result<()> {
        while !app.quit {
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
                    // A resize is drawn at the next turn.
                    _ => {}
                }
            }
            app.poll_jobs();
        }
        Ok(())
    })();
    ratatui::restore();
    result
}

//! The terminal: raw mode, the alternate screen and mouse events while the browser runs,
//! restored on every exit: a quit, an error, a panic (ratatui's init
//! installs a panic hook that restores the terminal first) and SIGTERM,
//! SIGHUP, SIGINT or SIGQUIT (they end the loop, which restores it). A
//! terminal that goes away (its window closed, the ssh session dropped)
//! ends the browser too: the loop polls the terminal itself and quits on a
//! hang-up, since the terminal library would read its end of file forever;
//! and a stop signal the loop does not answer within [`STOP_GRACE`] ends
//! the process from a watchdog thread. The
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
use std::io::IsTerminal;
use std::os::fd::{AsFd, BorrowedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How long the loop has, after a stop signal, to end by itself before the
/// watchdog ends the process.
pub const STOP_GRACE: Duration = Duration::from_secs(2);

/// The exit status when the watchdog ends the process: 128 + SIGTERM, as a
/// shell reports a process ended by it.
const WATCHDOG_EXIT: i32 = 143;

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

/// Ends the process when `stop` is raised and `done` is not within
/// [`STOP_GRACE`] (the loop stuck in a read that never returns), after
/// trying to put the terminal back.
fn watchdog(stop: Arc<AtomicBool>, done: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(100));
        }
        std::thread::sleep(STOP_GRACE);
        if !done.load(Ordering::Relaxed) {
            mouse_off();
            ratatui::restore();
            std::process::exit(WATCHDOG_EXIT);
        }
    });
}

/// The terminal the events come from, as the terminal library picks it:
/// standard input when it is a terminal, else `/dev/tty`.
enum Tty {
    Stdin(std::io::Stdin),
    File(std::fs::File),
}

impl Tty {
    fn open() -> std::io::Result<Tty> {
        let stdin = std::io::stdin();
        if stdin.is_terminal() {
            Ok(Tty::Stdin(stdin))
        } else {
            Ok(Tty::File(std::fs::File::open("/dev/tty")?))
        }
    }

    fn fd(&self) -> BorrowedFd<'_> {
        match self {
            Tty::Stdin(s) => s.as_fd(),
            Tty::File(f) => f.as_fd(),
        }
    }
}

/// What the terminal has after waiting up to `timeout`.
#[derive(PartialEq, Eq)]
enum Ready {
    /// Nothing yet.
    Nothing,
    /// Input to read.
    Input,
    /// The terminal hung up or is gone: nothing will come any more.
    Gone,
}

/// Waits up to `timeout` for input on `tty`.
fn wait_for_input(tty: &Tty, timeout: Duration) -> Ready {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let fd = tty.fd();
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    let ts = Timespec {
        tv_sec: 0,
        tv_nsec: i64::from(timeout.subsec_nanos()),
    };
    match poll(&mut fds, Some(&ts)) {
        Ok(0) => Ready::Nothing,
        Ok(_) => {
            let r = fds[0].revents();
            if r.intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL) {
                Ready::Gone
            } else {
                Ready::Input
            }
        }
        Err(rustix::io::Errno::INTR) => Ready::Nothing,
        Err(_) => Ready::Gone,
    }
}

/// Runs the browser until the user quits, a stop signal comes or the
/// terminal goes away.
pub fn run(mut app: App) -> std::io::Result<()> {
    let stop = stop_on_signals();
    let done = Arc::new(AtomicBool::new(false));
    watchdog(stop.clone(), done.clone());
    let tty = Tty::open()?;
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
            let ready = wait_for_input(&tty, Duration::from_millis(100));
            if ready == Ready::Gone {
                break;
            }
            // A resize comes as a signal, not as input: asked every time.
            while event::poll(Duration::ZERO)? {
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
    done.store(true, Ordering::Relaxed);
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

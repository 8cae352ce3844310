//! A progress bar on stderr for scans that take more than a second: shown
//! only when stderr is a terminal and `--quiet` is not given, cleared when
//! the work is done. It counts the bytes the page scans read; a report that
//! scans a file more than once shows which pass it is in. The first report
//! output to a terminal clears it for good, and messages on stderr are
//! written with it hidden, so no frame is left between lines of output.

use indicatif::{HumanBytes, ProgressBar, ProgressStyle};
use innodb_space::Tablespace;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long work runs before the bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// The bar on screen, if one is: the drawer updates it under this lock,
/// and [`clear`] takes it away for good.
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Report output has gone to the terminal: no bar is drawn after it.
static OUTPUT_BEGUN: AtomicBool = AtomicBool::new(false);

/// Clears the bar from the screen and stops it, before report output goes
/// to the terminal it is drawn on.
pub fn clear() {
    OUTPUT_BEGUN.store(true, Ordering::Relaxed);
    if let Ok(mut shown) = SHOWN.lock() {
        if let Some(bar) = shown.take() {
            bar.finish_and_clear();
        }
    }
}

/// Runs `write` with the bar hidden (a message on stderr), then redraws it.
pub fn suspend<R>(write: impl FnOnce() -> R) -> R {
    match SHOWN.lock() {
        Ok(shown) => match shown.as_ref() {
            Some(bar) => bar.suspend(write),
            None => write(),
        },
        Err(_) => write(),
    }
}

/// The progress of one command.
pub struct Progress {
    read: Arc<AtomicU64>,
    total: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    drawer: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts watching; draws nothing when `quiet` or stderr is not a terminal.
    pub fn start(quiet: bool) -> Progress {
        let read = Arc::new(AtomicU64::new(0));
        let total = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let drawer = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let (read, total, done) = (read.clone(), total.clone(), done.clone());
            std::thread::spawn(move || draw(&read, &total, &done))
        });
        Progress {
            read,
            total,
            done,
            drawer,
        }
    }

    /// A counter of bytes read into the bar, for `total` bytes more.
    pub fn bytes(&self, total: u64) -> Arc<AtomicU64> {
        self.total.fetch_add(total, Ordering::Relaxed);
        self.read.clone()
    }

    /// Counts the page scans of `space` into the bar.
    pub fn attach(&self, space: &mut Tablespace) {
        let bytes = u64::from(space.page_count()) * space.format().physical_page_size() as u64;
        self.total.fetch_add(bytes, Ordering::Relaxed);
        space.count_progress(self.read.clone());
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(h) = self.drawer.take() {
            let _ = h.join();
        }
    }
}

fn draw(read: &AtomicU64, total: &AtomicU64, done: &AtomicBool) {
    let start = Instant::now();
    while start.elapsed() < DELAY {
        if done.load(Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let bar = ProgressBar::new(total.load(Ordering::Relaxed).max(1)).with_elapsed(start.elapsed());
    if let Ok(style) =
        ProgressStyle::with_template("{msg} [{bar:40}] {bytes}/{total_bytes} {elapsed}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    if let Ok(mut shown) = SHOWN.lock() {
        // Under the lock that `clear` takes: output that began before the
        // bar appeared keeps it away.
        if OUTPUT_BEGUN.load(Ordering::Relaxed) {
            return;
        }
        *shown = Some(bar);
    }
    while !done.load(Ordering::Relaxed) {
        let t = total.load(Ordering::Relaxed).max(1);
        let r = read.load(Ordering::Relaxed);
        // The rate over the whole run so far: the bytes read before the bar
        // appeared were read in that time too.
        let rate = (r as f64 / start.elapsed().as_secs_f64().max(0.001)) as u64;
        match SHOWN.lock() {
            Ok(shown) => match shown.as_ref() {
                Some(bar) => {
                    // A pass that has read all its bytes stays full (pass
                    // 1 of a file read once ends at 100%, not as "pass 2,
                    // 0 B" while the work after the scan runs).
                    let (pass, at) = pass_and_position(r, t);
                    bar.set_length(t);
                    bar.set_position(at);
                    bar.set_message(format!("scanning, pass {pass}, {}/s", HumanBytes(rate)));
                }
                // Output has begun: the bar is gone for good.
                None => return,
            },
            Err(_) => return,
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    clear();
}

/// The pass (from 1) and the position in it of `read` bytes of passes of
/// `total` bytes each: a pass that has read all its bytes is shown full,
/// the next begins with its first byte.
fn pass_and_position(read: u64, total: u64) -> (u64, u64) {
    let total = total.max(1);
    let pass = read.saturating_sub(1) / total;
    (pass + 1, read - pass * total)
}

#[cfg(test)]
mod tests {
    use super::pass_and_position;

    #[test]
    fn a_finished_pass_stays_full() {
        assert_eq!(pass_and_position(0, 100), (1, 0));
        assert_eq!(pass_and_position(40, 100), (1, 40));
        assert_eq!(pass_and_position(100, 100), (1, 100));
        assert_eq!(pass_and_position(101, 100), (2, 1));
        assert_eq!(pass_and_position(200, 100), (2, 100));
        assert_eq!(pass_and_position(5, 0), (5, 1));
    }
}

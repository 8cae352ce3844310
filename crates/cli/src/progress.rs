//! A progress bar on stderr for scans that take more than a second: shown
//! only when stderr is a terminal and `--quiet` is not given, cleared when
//! the work is done. It counts the bytes the page scans read; a report that
//! scans a file more than once shows which pass it is in; work after the
//! scans can name its phase (`naming spaces 3/40`), shown instead. The first report
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

/// A phase of work after the scans: what it does, and how many of how
/// many things it has done (`total` 0: not counted).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Phase {
    label: String,
    done: u64,
    total: u64,
}

/// What the bar shows at one moment.
#[derive(Debug, PartialEq, Eq)]
struct Frame {
    /// The text before the bar.
    message: String,
    /// The bar's position and length.
    position: u64,
    length: u64,
    /// True when the bar counts things (a phase), not bytes.
    counts: bool,
}

/// The progress of one command.
pub struct Progress {
    read: Arc<AtomicU64>,
    total: Arc<AtomicU64>,
    phase: Arc<Mutex<Option<Phase>>>,
    done: Arc<AtomicBool>,
    drawer: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts watching; draws nothing when `quiet` or stderr is not a terminal.
    pub fn start(quiet: bool) -> Progress {
        let read = Arc::new(AtomicU64::new(0));
        let total = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let phase = Arc::new(Mutex::new(None));
        let drawer = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let (read, total, done) = (read.clone(), total.clone(), done.clone());
            let phase = phase.clone();
            std::thread::spawn(move || draw(&read, &total, &phase, &done))
        });
        Progress {
            read,
            total,
            phase,
            done,
            drawer,
        }
    }

    /// A counter of bytes read into the bar, for `total` bytes more.
    pub fn bytes(&self, total: u64) -> Arc<AtomicU64> {
        self.total.fetch_add(total, Ordering::Relaxed);
        self.read.clone()
    }

    /// The work after the scans is at `done` of `total` things of `label`
    /// (`total` 0: not counted): shown instead of the bytes scanned.
    pub fn phase(&self, label: &str, done: u64, total: u64) {
        if let Ok(mut p) = self.phase.lock() {
            *p = Some(Phase {
                label: label.to_string(),
                done,
                total,
            });
        }
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

/// The bar's template for bytes scanned, and for a phase's count.
const BYTES_TEMPLATE: &str = "{msg} [{bar:40}] {bytes}/{total_bytes} {elapsed}";
const COUNT_TEMPLATE: &str = "{msg} [{bar:40}] {elapsed}";
const LABEL_TEMPLATE: &str = "{msg} {elapsed}";

/// What the bar shows after `read` of `total` bytes were scanned at `rate`
/// bytes a second, in `phase` when one was named.
fn frame(read: u64, total: u64, rate: u64, phase: Option<&Phase>) -> Frame {
    match phase {
        // The count is in the message: a frame drawn between the changes
        // of the bar's template, position and message shows no number
        // that belongs to another phase.
        Some(p) => Frame {
            message: if p.total > 0 {
                format!("{} {}/{}", p.label, p.done.min(p.total), p.total)
            } else {
                p.label.clone()
            },
            position: p.done.min(p.total),
            length: p.total,
            counts: true,
        },
        None => {
            // A pass that has read all its bytes stays full (pass 1 of a
            // file read once ends at 100%, not as "pass 2, 0 B" while the
            // work after the scan runs).
            let (pass, at) = pass_and_position(read, total);
            Frame {
                message: format!("scanning, pass {pass}, {}/s", HumanBytes(rate)),
                position: at,
                length: total.max(1),
                counts: false,
            }
        }
    }
}

/// Shows `f` on `bar`, changing its template when what it counts changed.
fn show(bar: &ProgressBar, f: Frame, template: &mut &'static str) {
    let want = match (f.counts, f.length) {
        (false, _) => BYTES_TEMPLATE,
        (true, 0) => LABEL_TEMPLATE,
        (true, _) => COUNT_TEMPLATE,
    };
    if want != *template {
        if let Ok(style) = ProgressStyle::with_template(want) {
            bar.set_style(style.progress_chars("=> "));
        }
        *template = want;
    }
    bar.update(|s| {
        s.set_len(f.length.max(1));
        s.set_pos(f.position);
    });
    bar.set_message(f.message);
}

fn draw(read: &AtomicU64, total: &AtomicU64, phase: &Mutex<Option<Phase>>, done: &AtomicBool) {
    let start = Instant::now();
    while start.elapsed() < DELAY {
        if done.load(Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let bar = ProgressBar::new(total.load(Ordering::Relaxed).max(1)).with_elapsed(start.elapsed());
    let mut template = BYTES_TEMPLATE;
    if let Ok(style) = ProgressStyle::with_template(template) {
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
        let now = phase.lock().ok().and_then(|p| p.clone());
        let f = frame(r, t, rate, now.as_ref());
        match SHOWN.lock() {
            Ok(shown) => match shown.as_ref() {
                Some(bar) => show(bar, f, &mut template),
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
    use super::{frame, pass_and_position, Phase};

    #[test]
    fn a_finished_pass_stays_full() {
        assert_eq!(pass_and_position(0, 100), (1, 0));
        assert_eq!(pass_and_position(40, 100), (1, 40));
        assert_eq!(pass_and_position(100, 100), (1, 100));
        assert_eq!(pass_and_position(101, 100), (2, 1));
        assert_eq!(pass_and_position(200, 100), (2, 100));
        assert_eq!(pass_and_position(5, 0), (5, 1));
    }

    #[test]
    fn a_phase_is_shown_instead_of_the_bytes() {
        let scan = frame(40, 100, 1000, None);
        assert!(!scan.counts);
        assert_eq!((scan.position, scan.length), (40, 100));
        assert!(
            scan.message.starts_with("scanning, pass 1"),
            "{}",
            scan.message
        );
        let p = Phase {
            label: "naming spaces".into(),
            done: 3,
            total: 40,
        };
        let f = frame(100, 100, 1000, Some(&p));
        assert!(f.counts);
        assert_eq!(
            (f.message.as_str(), f.position, f.length),
            ("naming spaces 3/40", 3, 40)
        );
        // A count past its total stays full.
        let over = Phase {
            done: 41,
            ..p.clone()
        };
        assert_eq!(frame(0, 1, 0, Some(&over)).position, 40);
        // Not counted: the label alone.
        let label = Phase { total: 0, ..p };
        assert_eq!(frame(0, 1, 0, Some(&label)).message, "naming spaces");
    }
}

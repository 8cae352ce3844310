//! Background work: the scans behind the map, the index report and the
//! typed rows run in threads of their own, each opening the file again, so
//! that input is never blocked; the app takes their results in when done.

use innodb_analysis::pictures::heatmap::{self, HeatmapBy};
use innodb_analysis::pictures::Raster;
use innodb_analysis::reports::indexes::{IndexAnalysis, IndexesReport};
use innodb_analysis::reports::scan::PageConsumer;
use innodb_analysis::rows::records::{RecordsReport, Schema};
use innodb_space::space_map::SpaceMap;
use innodb_space::{Finding, OpenOptions, PageCheck, Tablespace};
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::sync::Arc;

/// What a job makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
    /// The maps of one colouring, or two, from one scan.
    Heatmap(HeatmapBy, Option<HeatmapBy>),
    /// The index report.
    Indexes,
    /// The typed rows of one index.
    Rows(u64),
}

impl JobKind {
    /// What it does, for the status line.
    pub fn describe(&self) -> String {
        match self {
            JobKind::Heatmap(by, None) => format!("scanning pages for the {} map", by.name()),
            JobKind::Heatmap(a, Some(b)) => {
                format!("scanning pages for the {} and {} maps", a.name(), b.name())
            }
            JobKind::Indexes => "walking the indexes".into(),
            JobKind::Rows(id) => format!("reading the rows of index {id}"),
        }
    }
}

/// The pages a scan found bad (checksum mismatch, LSN of header and
/// trailer apart), by map cell: bounded by the map's cells, not the
/// file's pages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BadPages {
    /// Pages per map cell (as [`heatmap::layout`] gives it).
    pub per_cell: u32,
    /// The cells holding at least one bad page.
    pub cells: BTreeSet<u64>,
    /// Bad pages in all.
    pub pages: u64,
}

impl BadPages {
    /// True when the cell holding page `n` holds a bad page.
    pub fn marks(&self, n: u64) -> bool {
        self.cells.contains(&(n / u64::from(self.per_cell.max(1))))
    }
}

/// A finished job's result.
pub enum JobDone {
    /// Maps, with their colourings, the scan's findings and its bad pages.
    Heatmaps(Vec<(HeatmapBy, Raster)>, Vec<Finding>, BadPages),
    /// The index report.
    Indexes(Result<IndexesReport, String>),
    /// Typed rows.
    Rows(u64, Result<RecordsReport, String>),
}

/// Work under way.
pub struct Job {
    /// What it makes.
    pub kind: JobKind,
    /// Pages done so far (scans only).
    pub progress: Arc<AtomicU64>,
    /// Pages in all.
    pub total: u64,
    rx: Receiver<JobDone>,
    lost: std::cell::Cell<bool>,
}

/// Counts pages into the job's progress and notes the bad ones.
struct Progress(Arc<AtomicU64>, BadPages);

impl PageConsumer for Progress {
    fn page(&mut self, check: &PageCheck, _: &[u8]) {
        self.0.fetch_add(1, Ordering::Relaxed);
        if !check.all_zero && !check.is_consistent() {
            let bad = &mut self.1;
            bad.pages += 1;
            bad.cells
                .insert(u64::from(check.page_no) / u64::from(bad.per_cell.max(1)));
        }
    }

    fn hole(&mut self, _: u32, count: u32, _: &mut PageCheck, _: &[u8]) {
        self.0.fetch_add(u64::from(count), Ordering::Relaxed);
    }
}

fn spawn(
    kind: JobKind,
    total: u64,
    work: impl FnOnce(Arc<AtomicU64>) -> JobDone + Send + 'static,
) -> Job {
    let (tx, rx) = channel();
    let progress = Arc::new(AtomicU64::new(0));
    let p = progress.clone();
    std::thread::spawn(move || {
        let _ = tx.send(work(p));
    });
    Job {
        kind,
        progress,
        total,
        rx,
        lost: std::cell::Cell::new(false),
    }
}

impl Job {
    /// The map of `by`, and of `also` from the same scan.
    pub fn heatmap(
        path: PathBuf,
        options: OpenOptions,
        map: Option<Arc<SpaceMap>>,
        (by, also): (HeatmapBy, Option<HeatmapBy>),
        names: HashMap<u64, String>,
        total: u64,
    ) -> Job {
        spawn(JobKind::Heatmap(by, also), total, move |progress| {
            let bys: Vec<HeatmapBy> = std::iter::once(by).chain(also).collect();
            let space = match Tablespace::open(&path, options) {
                Ok(s) => s,
                Err(e) => {
                    let raster = Raster {
                        title: format!("{}: {e}", path.display()),
                        subtitle: String::new(),
                        columns: 64,
                        pages_per_cell: 1,
                        pages: 0,
                        cells: Vec::new(),
                        legend: Vec::new(),
                        level_meaning: innodb_analysis::pictures::LevelMeaning::None,
                        histogram: None,
                    };
                    let maps = bys.into_iter().map(|b| (b, raster.clone())).collect();
                    return JobDone::Heatmaps(maps, Vec::new(), BadPages::default());
                }
            };
            let name = |id: u64| names.get(&id).cloned();
            let bad = BadPages {
                per_cell: heatmap::layout(&space).1,
                ..BadPages::default()
            };
            let mut seen = Progress(progress, bad);
            let (rasters, findings) =
                heatmap::build_many(&space, map.as_deref(), &bys, &name, &mut seen);
            JobDone::Heatmaps(bys.into_iter().zip(rasters).collect(), findings, seen.1)
        })
    }

    /// True when the job makes the map of `by`.
    pub fn makes_map(&self, by: HeatmapBy) -> bool {
        matches!(self.kind, JobKind::Heatmap(a, b) if a == by || b == Some(by))
    }

    /// The index report.
    pub fn indexes(
        path: PathBuf,
        options: OpenOptions,
        names: HashMap<u64, String>,
        total: u64,
    ) -> Job {
        spawn(JobKind::Indexes, total, move |_| {
            let r = Tablespace::open(&path, options)
                .map_err(|e| e.to_string())
                .and_then(|space| {
                    let a = IndexAnalysis::build(&space).map_err(|e| format!("{e:?}"))?;
                    let mut r = IndexesReport::new(&space, &a);
                    for i in &mut r.indexes {
                        i.name = names.get(&i.index_id).cloned();
                    }
                    Ok(r)
                });
            JobDone::Indexes(r)
        })
    }

    /// The typed rows of index `index_id`.
    pub fn rows(
        path: PathBuf,
        options: OpenOptions,
        schema: Arc<Schema>,
        index_id: u64,
        total: u64,
    ) -> Job {
        spawn(JobKind::Rows(index_id), total, move |_| {
            let r = Tablespace::open(&path, options)
                .map_err(|e| e.to_string())
                .and_then(|space| {
                    RecordsReport::build(&space, &schema, Some(&index_id.to_string()), false, None)
                        .map_err(|e| format!("{e:?}"))
                });
            JobDone::Rows(index_id, r)
        })
    }

    /// The result, when ready.
    pub fn try_take(&self) -> Option<JobDone> {
        match self.rx.try_recv() {
            Ok(d) => Some(d),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.lost.set(true);
                None
            }
        }
    }

    /// True when the job's thread ended without a result (it panicked).
    pub fn is_lost(&self) -> bool {
        self.lost.get()
    }

    /// Waits for the result.
    pub fn wait(self) -> Option<JobDone> {
        self.rx.recv().ok()
    }

    /// Share done, 0 to 100, for scans.
    pub fn percent(&self) -> Option<u64> {
        match self.kind {
            JobKind::Heatmap(..) if self.total > 0 => {
                Some(self.progress.load(Ordering::Relaxed) * 100 / self.total)
            }
            _ => None,
        }
    }
}

//! Reports over every tablespace of a data directory: each file's report
//! made in parallel (a thread per CPU, each taking the next file), then one
//! row per file and the totals.

use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One file's report, or why it could not be made.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct FileResult<R> {
    /// The file.
    pub file: String,
    /// Bytes in the file.
    pub bytes: u64,
    /// The report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<R>,
    /// Why there is no report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Why there is no report although nothing failed (a file without SDI).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Runs `work` on every file with up to `threads` threads; results in the
/// order of `files`.
pub fn over_files<R: Send>(
    files: &[PathBuf],
    threads: usize,
    work: impl Fn(&Path) -> Result<R, String> + Sync,
) -> Vec<FileResult<R>> {
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<FileResult<R>>>> = files.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, files.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = files.get(i) else { break };
                let result = work(path);
                let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
                let (report, error) = match result {
                    Ok(r) => (Some(r), None),
                    Err(e) => (None, Some(e)),
                };
                if let Some(slot) = slots.get(i) {
                    if let Ok(mut g) = slot.lock() {
                        *g = Some(FileResult {
                            file: path.display().to_string(),
                            bytes,
                            report,
                            error,
                            note: None,
                        });
                    }
                }
            });
        }
    });
    slots
        .into_iter()
        .filter_map(|m| m.into_inner().ok().flatten())
        .collect()
}

/// A report over a data directory: every file's, and the totals.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DatadirReport<R, T> {
    /// The directory.
    pub datadir: String,
    /// Which server wrote it, as far as its files tell.
    pub server: innodb_space::datadir::Server,
    /// The files of the directory that were not read, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<innodb_space::datadir::SkippedFile>,
    /// Per file, in file order.
    pub files: Vec<FileResult<R>>,
    /// The sums over the files.
    pub totals: T,
}

/// Sums a count over the files that have a report.
pub fn sum<R>(files: &[FileResult<R>], f: impl Fn(&R) -> u64) -> u64 {
    files.iter().filter_map(|r| r.report.as_ref()).map(f).sum()
}

/// Totals of `summary` over a data directory.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct SummaryTotals {
    /// Files read.
    pub files: usize,
    /// Files that could not be read.
    pub errors: usize,
    /// Bytes in all files.
    pub bytes: u64,
    /// Pages in all files.
    pub pages: u64,
    /// Pages whose checksum does not verify.
    pub bad_checksums: u64,
    /// Pages whose header and trailer LSN disagree.
    pub lsn_mismatches: u64,
    /// All-zero pages.
    pub all_zero_pages: u64,
    /// Pages by type, over all files.
    pub page_types: std::collections::BTreeMap<String, u64>,
}

impl SummaryTotals {
    /// The totals of `files`.
    pub fn of(files: &[FileResult<crate::Summary>]) -> Self {
        let mut page_types = std::collections::BTreeMap::new();
        for s in files.iter().filter_map(|f| f.report.as_ref()) {
            for (k, v) in &s.page_types {
                *page_types.entry(k.clone()).or_insert(0) += v;
            }
        }
        SummaryTotals {
            files: files.len(),
            errors: files.iter().filter(|f| f.error.is_some()).count(),
            bytes: files.iter().map(|f| f.bytes).sum(),
            pages: sum(files, |s| u64::from(s.page_count)),
            bad_checksums: sum(files, |s| s.bad_checksums),
            lsn_mismatches: sum(files, |s| s.lsn_mismatches),
            all_zero_pages: sum(files, |s| s.all_zero_pages),
            page_types,
        }
    }
}

/// Totals of `checksum` over a data directory.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct ChecksumTotals {
    /// Files read.
    pub files: usize,
    /// Files that could not be read.
    pub errors: usize,
    /// Pages checked.
    pub pages: u64,
    /// Pages that do not verify.
    pub bad_pages: u64,
    /// Pages whose header and trailer LSN disagree.
    pub lsn_mismatches: u64,
    /// Pages that cannot be verified.
    pub unverifiable: u64,
    /// Pages that do not verify but have a good doublewrite copy.
    pub doublewrite_copies: u64,
    /// The doublewrite files (and system tablespace areas) whose copies
    /// were looked up for the pages that do not verify.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub doublewrite_files: Vec<String>,
}

impl ChecksumTotals {
    /// The totals of `files`.
    pub fn of(files: &[FileResult<crate::ChecksumReport>]) -> Self {
        ChecksumTotals {
            files: files.len(),
            errors: files.iter().filter(|f| f.error.is_some()).count(),
            pages: sum(files, |r| r.pages),
            bad_pages: sum(files, |r| r.bad_page_ranges.len() as u64),
            lsn_mismatches: sum(files, |r| r.lsn_mismatches.len() as u64),
            unverifiable: sum(files, |r| r.unverifiable.len() as u64),
            doublewrite_copies: sum(files, |r| r.doublewrite_copies.len() as u64),
            doublewrite_files: Vec::new(),
        }
    }
}

/// Totals of `waste` over a data directory.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct WasteTotals {
    /// Files read.
    pub files: usize,
    /// Files whose space map could not be read.
    pub errors: usize,
    /// Pages in all files.
    pub pages: u64,
    /// Pages in use.
    pub used_pages: u64,
    /// Free pages in extents segments reserved.
    pub reserved_unused_pages: u64,
    /// Free pages in fragment extents.
    pub fragment_unused_pages: u64,
    /// Free extents and pages beyond the free limit.
    pub free_pages: u64,
    /// Unused pages a rebuild could give back (each file's
    /// `reclaimable_pages`).
    pub reclaimable_pages: u64,
    /// The same in MiB (each file's at its physical page size).
    pub reclaimable_mib: f64,
    /// Free pages at the ends of the files, pre-allocated (each file's
    /// `preallocated_pages`).
    pub preallocated_pages: u64,
    /// The same in MiB.
    pub preallocated_mib: f64,
    /// (pages − used) / pages, a fraction from 0 to 1.
    pub waste_share: f64,
}

/// The sum of a MiB figure over the files with a report, to two decimals.
fn sum_mib<R>(files: &[FileResult<R>], f: impl Fn(&R) -> f64) -> f64 {
    let total: f64 = files.iter().filter_map(|x| x.report.as_ref()).map(f).sum();
    (total * 100.0).round() / 100.0
}

impl WasteTotals {
    /// The totals of `files`.
    pub fn of(files: &[FileResult<crate::reports::space_reports::WasteReport>]) -> Self {
        let pages = sum(files, |r| r.header.file_pages);
        let used = sum(files, |r| r.used_pages);
        WasteTotals {
            files: files.len(),
            errors: files.iter().filter(|f| f.error.is_some()).count(),
            pages,
            used_pages: used,
            reserved_unused_pages: sum(files, |r| r.reserved_unused_pages),
            fragment_unused_pages: sum(files, |r| r.fragment_unused_pages),
            free_pages: sum(files, |r| r.free_pages),
            reclaimable_pages: sum(files, |r| r.reclaimable_pages),
            reclaimable_mib: sum_mib(files, |r| r.reclaimable_mib),
            preallocated_pages: sum(files, |r| r.preallocated_pages),
            preallocated_mib: sum_mib(files, |r| r.preallocated_mib),
            waste_share: if pages == 0 {
                0.0
            } else {
                ((pages - used.min(pages)) as f64 * 10000.0 / pages as f64).round() / 10000.0
            },
        }
    }
}

/// Totals of `indexes` over a data directory.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct IndexesTotals {
    /// Files read.
    pub files: usize,
    /// Files whose space map could not be read.
    pub errors: usize,
    /// Indexes walked.
    pub indexes: usize,
    /// Pages of all trees.
    pub pages: u64,
    /// Leaf records of all indexes (rows, counted once per index).
    pub records: u64,
    /// Findings of the walks.
    pub findings: usize,
}

impl IndexesTotals {
    /// The totals of `files`.
    pub fn of(files: &[FileResult<crate::reports::indexes::IndexesReport>]) -> Self {
        let reports = || files.iter().filter_map(|f| f.report.as_ref());
        IndexesTotals {
            files: files.len(),
            errors: files.iter().filter(|f| f.error.is_some()).count(),
            indexes: reports().map(|r| r.indexes.len()).sum(),
            pages: sum(files, |r| {
                r.indexes
                    .iter()
                    .map(|i| i.pages_per_level.iter().sum::<u64>())
                    .sum()
            }),
            records: sum(files, |r| r.indexes.iter().map(|i| i.records).sum()),
            findings: reports()
                .map(|r| r.findings.findings_by_kind.values().sum::<u64>() as usize)
                .sum(),
        }
    }
}

/// Totals of a report that has no sums of its own: how many files.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct FileTotals {
    /// Files read.
    pub files: usize,
    /// Files that gave no report.
    pub errors: usize,
}

impl FileTotals {
    /// The totals of `files`.
    pub fn of<R>(files: &[FileResult<R>]) -> Self {
        FileTotals {
            files: files.len(),
            errors: files.iter().filter(|f| f.error.is_some()).count(),
        }
    }
}

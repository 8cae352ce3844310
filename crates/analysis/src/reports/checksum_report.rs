//! `checksum`: verify every page; list the bad ones with stored and computed values.

use crate::reports::doublewrite_sources::{Rescue, Sources};
use crate::reports::page_ranges::PageRanges;
use crate::reports::scan::{scan, scan_pages, PageConsumer};
use crate::reports::summary::verdict_name;
use innodb_format::checksum::{ChecksumValue, ChecksumVerdict};
use innodb_space::doublewrite_file::{self, DoublewriteKind};
use innodb_space::DoublewriteFile;
use innodb_space::{Finding, FindingKind, FindingLog, PageCheck, Tablespace};
use serde::Serialize;
use std::collections::BTreeMap;

/// A page that failed verification.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct BadPage {
    /// Page number.
    pub page: u32,
    /// The values stored on the page.
    pub stored: Vec<ChecksumValue>,
    /// What each algorithm computes.
    pub computed: Vec<ChecksumValue>,
}

/// The verification result for one file.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ChecksumReport {
    /// The file as given.
    pub file: String,
    /// Pages checked.
    pub pages: u64,
    /// Pages that verify, by algorithm (plus `all_zero`, `bad`, `unverifiable`).
    pub by_algorithm: BTreeMap<String, u64>,
    /// Pages that do not verify, with their values: the first
    /// [`ChecksumReport::DETAILED`] of them.
    pub bad_pages: Vec<BadPage>,
    /// Every page that does not verify.
    pub bad_page_ranges: PageRanges,
    /// Pages whose header and trailer LSN disagree.
    pub lsn_mismatches: PageRanges,
    /// Pages that cannot be verified (encrypted, unsupported compression).
    pub unverifiable: PageRanges,
    /// Other findings (page number or space id mismatches, file size): the
    /// first [`FindingLog::PER_KIND`] of each kind.
    pub other_findings: Vec<Finding>,
    /// Other findings in all, by kind.
    pub other_findings_by_kind: BTreeMap<String, u64>,
    /// For pages that do not verify (checksum or LSN), the good doublewrite
    /// copy crash recovery would write over each, where there is one
    /// (filled by [`ChecksumReport::find_doublewrite_copies`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub doublewrite_copies: Vec<Rescue>,
}

impl ChecksumReport {
    /// True when every page verifies and every LSN agrees. A page that cannot
    /// be verified (encrypted, unsupported compression) or read (a bad
    /// sector) is not proven valid, nor is a file that changed length while
    /// it was read.
    pub fn all_valid(&self) -> bool {
        self.bad_page_ranges.is_empty()
            && self.lsn_mismatches.is_empty()
            && self.unverifiable.is_empty()
            && !["unreadable", "file_changed"]
                .iter()
                .any(|k| self.other_findings_by_kind.contains_key(*k))
    }

    /// Bad pages listed with their stored and computed values; the rest are
    /// only in [`ChecksumReport::bad_page_ranges`] (memory stays bounded on a
    /// file damaged on every page).
    pub const DETAILED: usize = 1000;

    /// Verifies every page of `space`.
    pub fn build(space: &Tablespace) -> ChecksumReport {
        Self::build_threads(space, 1)
    }

    /// Verifies every page of `space` with `threads` threads, each over a
    /// contiguous run of pages; the result is the same as with one.
    pub fn build_threads(space: &Tablespace, threads: usize) -> ChecksumReport {
        let pages = space.page_count();
        let threads = u32::try_from(threads.max(1)).unwrap_or(1).min(pages.max(1));
        let (acc, findings) = if threads <= 1 {
            let mut acc = Acc::default();
            let findings = scan(space, None, &mut [&mut acc]);
            (acc, findings)
        } else {
            let per = pages.div_ceil(threads);
            let parts: Vec<(Acc, FindingLog)> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        let first = t * per;
                        let last = (first + per).min(pages).saturating_sub(1);
                        s.spawn(move || {
                            let mut acc = Acc::default();
                            let f = scan_pages(space, first, last, &mut [&mut acc]);
                            (acc, f)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join()
                            .unwrap_or_else(|_| (Acc::default(), FindingLog::new()))
                    })
                    .collect()
            });
            let mut acc = Acc::default();
            let mut findings: FindingLog = space.open_findings().iter().cloned().collect();
            for (a, f) in parts {
                acc.merge(a);
                findings.append(f);
            }
            (acc, findings)
        };
        let is_other = |k: FindingKind| {
            !matches!(
                k,
                FindingKind::BadChecksum | FindingKind::LsnMismatch | FindingKind::Unverifiable
            )
        };
        let other_findings_by_kind = findings
            .counts()
            .iter()
            .filter(|(k, _)| is_other(**k))
            .map(|(k, n)| (k.name().to_string(), *n))
            .collect();
        let other_findings = findings
            .into_kept()
            .into_iter()
            .filter(|f| is_other(f.kind))
            .collect();
        acc.into_report(
            space.path().display().to_string(),
            other_findings,
            other_findings_by_kind,
        )
    }

    /// Looks up, for every page of `space` that does not verify (its
    /// checksum, or header and trailer LSN), the good copy `sources` hold:
    /// the copy crash recovery would write over it.
    pub fn find_doublewrite_copies(&mut self, space: &Tablespace, sources: &Sources) {
        let mut bad: Vec<u32> = self
            .bad_page_ranges
            .pages()
            .chain(self.lsn_mismatches.pages())
            .collect();
        bad.sort_unstable();
        bad.dedup();
        self.doublewrite_copies = bad
            .into_iter()
            .filter(|&p| sources.copies_of(space.space_id(), p) > 0)
            .filter_map(|p| sources.best_copy(space, p))
            .collect();
    }
}

impl ChecksumReport {
    /// Verifies every slot of a doublewrite file, a slot for a page: each
    /// copy on its own (a full page, or a ROW_FORMAT=COMPRESSED page at the
    /// slot's start), each batch page of a reduced file by its CRC-32C.
    pub fn of_doublewrite_file(file: &DoublewriteFile) -> ChecksumReport {
        let mut acc = Acc::default();
        let reduced = file.kind() == DoublewriteKind::Reduced;
        for (n, slot) in file.slots() {
            let verdict = if reduced {
                doublewrite_file::verify_batch_page(slot)
            } else {
                doublewrite_file::verify_copy(slot).verdict
            };
            acc.count(n, &verdict);
        }
        let other_findings: Vec<Finding> = file.findings().to_vec();
        let mut other_findings_by_kind = BTreeMap::new();
        for f in &other_findings {
            *other_findings_by_kind
                .entry(f.kind.name().to_string())
                .or_insert(0) += 1;
        }
        acc.into_report(
            file.path().display().to_string(),
            other_findings,
            other_findings_by_kind,
        )
    }
}

#[derive(Default)]
struct Acc {
    pages: u64,
    by_algorithm: BTreeMap<&'static str, u64>,
    bad: Vec<BadPage>,
    bad_ranges: PageRanges,
    lsn: PageRanges,
    unverifiable: PageRanges,
}

impl Acc {
    /// The report of file `file` with these counts and the findings other
    /// than the page verdicts.
    fn into_report(
        self,
        file: String,
        other_findings: Vec<Finding>,
        other_findings_by_kind: BTreeMap<String, u64>,
    ) -> ChecksumReport {
        ChecksumReport {
            file,
            pages: self.pages,
            by_algorithm: self
                .by_algorithm
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            bad_pages: self.bad,
            bad_page_ranges: self.bad_ranges,
            lsn_mismatches: self.lsn,
            unverifiable: self.unverifiable,
            other_findings,
            other_findings_by_kind,
            doublewrite_copies: Vec::new(),
        }
    }

    /// Adds the counts of a later run of pages.
    fn merge(&mut self, other: Acc) {
        self.pages += other.pages;
        for (k, v) in other.by_algorithm {
            *self.by_algorithm.entry(k).or_insert(0) += v;
        }
        let room = ChecksumReport::DETAILED.saturating_sub(self.bad.len());
        self.bad.extend(other.bad.into_iter().take(room));
        self.bad_ranges.append(other.bad_ranges);
        self.lsn.append(other.lsn);
        self.unverifiable.append(other.unverifiable);
    }
}

impl Acc {
    /// Counts page `page_no` with its verdict.
    fn count(&mut self, page_no: u32, verdict: &ChecksumVerdict) {
        self.pages += 1;
        *self.by_algorithm.entry(verdict_name(verdict)).or_insert(0) += 1;
        match verdict {
            ChecksumVerdict::Invalid { stored, computed } => {
                self.bad_ranges.push(page_no);
                if self.bad.len() < ChecksumReport::DETAILED {
                    self.bad.push(BadPage {
                        page: page_no,
                        stored: stored.clone(),
                        computed: computed.clone(),
                    });
                }
            }
            ChecksumVerdict::Unverifiable { .. } => self.unverifiable.push(page_no),
            _ => {}
        }
    }
}

impl PageConsumer for Acc {
    fn page(&mut self, c: &PageCheck, _bytes: &[u8]) {
        self.count(c.page_no, &c.checksum);
        if c.lsn_consistent == Some(false) {
            self.lsn.push(c.page_no);
        }
    }

    fn hole(&mut self, _first: u32, count: u32, zero: &mut PageCheck, _bytes: &[u8]) {
        // Every page of a hole reads as zeros: all_zero, nothing to list.
        self.pages += u64::from(count);
        *self
            .by_algorithm
            .entry(verdict_name(&zero.checksum))
            .or_insert(0) += u64::from(count);
    }
}

//! The findings of a scan, held in bounded memory: every finding is counted,
//! the first few of each kind are kept.
//!
//! A file damaged on every page would otherwise keep one finding per page (a
//! few hundred bytes each): tens of megabytes per million pages. The log keeps
//! at most [`FindingLog::PER_KIND`] findings of each kind, in the order they
//! came, and counts the rest, so memory is bounded by the number of kinds.

use crate::finding::{Finding, FindingKind};
use serde::Serialize;
use std::collections::BTreeMap;

/// Findings counted by kind, the first [`FindingLog::PER_KIND`] of each kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FindingLog {
    /// The kept findings, in the order they were made.
    kept: Vec<Finding>,
    /// Every finding made, by kind (kept or not).
    counts: BTreeMap<FindingKind, u64>,
}

impl FindingLog {
    /// At most this many findings of one kind are kept.
    pub const PER_KIND: u64 = 1000;

    /// An empty log.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts `finding`, and keeps it if fewer than [`Self::PER_KIND`] of
    /// its kind are kept.
    pub fn push(&mut self, finding: Finding) {
        let n = self.counts.entry(finding.kind).or_insert(0);
        *n += 1;
        if *n <= Self::PER_KIND {
            self.kept.push(finding);
        }
    }

    /// Moves every finding out of `findings` into the log, leaving it empty
    /// (its allocation is kept for reuse).
    pub fn drain_from(&mut self, findings: &mut Vec<Finding>) {
        for f in findings.drain(..) {
            self.push(f);
        }
    }

    /// Adds another log's findings after this one's: its counts in full, its
    /// kept findings while there is room. The result is the log that pushing
    /// both logs' findings in order would have made.
    pub fn append(&mut self, other: FindingLog) {
        let mut unkept = other.counts;
        for f in &other.kept {
            if let Some(n) = unkept.get_mut(&f.kind) {
                *n = n.saturating_sub(1);
            }
        }
        // The other log's kept findings are the first of their kinds there,
        // so they come before its unkept ones.
        for f in other.kept {
            self.push(f);
        }
        for (kind, n) in unkept {
            *self.counts.entry(kind).or_insert(0) += n;
        }
    }

    /// The kept findings, in the order they were made.
    pub fn kept(&self) -> &[Finding] {
        &self.kept
    }

    /// Every finding made, by kind.
    pub fn counts(&self) -> &BTreeMap<FindingKind, u64> {
        &self.counts
    }

    /// How many findings were made in all.
    pub fn total(&self) -> u64 {
        self.counts.values().sum()
    }

    /// How many findings were counted but not kept.
    pub fn omitted(&self) -> u64 {
        self.total().saturating_sub(self.kept.len() as u64)
    }

    /// True when no finding was made.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The kept findings.
    pub fn into_kept(self) -> Vec<Finding> {
        self.kept
    }
}

impl Extend<Finding> for FindingLog {
    fn extend<I: IntoIterator<Item = Finding>>(&mut self, iter: I) {
        for f in iter {
            self.push(f);
        }
    }
}

impl FromIterator<Finding> for FindingLog {
    fn from_iter<I: IntoIterator<Item = Finding>>(iter: I) -> Self {
        let mut log = FindingLog::new();
        log.extend(iter);
        log
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(page: u32) -> Finding {
        Finding::on_page(
            FindingKind::BadChecksum,
            page,
            0,
            "FIL_PAGE_SPACE_OR_CHKSUM",
            "bad",
        )
    }

    #[test]
    fn keeps_the_first_of_each_kind_and_counts_all() {
        let mut log = FindingLog::new();
        for p in 0..3000 {
            log.push(bad(p));
        }
        log.push(Finding::on_page(
            FindingKind::BrokenList,
            7,
            38,
            "FLST_NEXT",
            "cycle",
        ));
        assert_eq!(log.total(), 3001);
        assert_eq!(log.kept().len(), 1001);
        assert_eq!(log.omitted(), 2000);
        assert_eq!(log.counts()[&FindingKind::BadChecksum], 3000);
        assert_eq!(log.kept()[999].page, Some(999));
        // The rare kind that came after the flood is kept.
        assert_eq!(log.kept()[1000].kind, FindingKind::BrokenList);
    }

    #[test]
    fn append_equals_pushing_in_order() {
        let mut one = FindingLog::new();
        let (mut a, mut b) = (FindingLog::new(), FindingLog::new());
        for p in 0..1500 {
            one.push(bad(p));
            if p < 700 {
                a.push(bad(p));
            } else {
                b.push(bad(p));
            }
        }
        a.append(b);
        assert_eq!(a, one);
    }
}

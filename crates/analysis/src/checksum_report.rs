//! `checksum`: verify every page; list the bad ones with stored and computed values.

use crate::scan::{scan, PageConsumer};
use crate::summary::verdict_name;
use innodb_format::checksum::{ChecksumValue, ChecksumVerdict};
use innodb_space::{Finding, FindingKind, PageCheck, Tablespace};
use serde::Serialize;
use std::collections::BTreeMap;

/// A page that failed verification.
#[derive(Debug, Clone, Serialize)]
pub struct BadPage {
    /// Page number.
    pub page: u32,
    /// The values stored on the page.
    pub stored: Vec<ChecksumValue>,
    /// What each algorithm computes.
    pub computed: Vec<ChecksumValue>,
}

/// The verification result for one file.
#[derive(Debug, Clone, Serialize)]
pub struct ChecksumReport {
    /// The file as given.
    pub file: String,
    /// Pages checked.
    pub pages: u64,
    /// Pages that verify, by algorithm (plus `all_zero`, `bad`, `unverifiable`).
    pub by_algorithm: BTreeMap<String, u64>,
    /// Pages that do not verify.
    pub bad_pages: Vec<BadPage>,
    /// Pages whose header and trailer LSN disagree.
    pub lsn_mismatches: Vec<u32>,
    /// Pages that cannot be verified (encrypted, unsupported compression).
    pub unverifiable: Vec<u32>,
    /// Other findings (page number or space id mismatches, file size).
    pub other_findings: Vec<Finding>,
}

impl ChecksumReport {
    /// True when every page verifies and every LSN agrees. A page that cannot
    /// be verified (encrypted, unsupported compression) is not proven valid.
    pub fn all_valid(&self) -> bool {
        self.bad_pages.is_empty() && self.lsn_mismatches.is_empty() && self.unverifiable.is_empty()
    }

    /// Verifies every page of `space`.
    pub fn build(space: &Tablespace) -> ChecksumReport {
        let mut acc = Acc::default();
        let findings = scan(space, None, &mut [&mut acc]);
        let other_findings = findings
            .into_iter()
            .filter(|f| {
                !matches!(
                    f.kind,
                    FindingKind::BadChecksum | FindingKind::LsnMismatch | FindingKind::Unverifiable
                )
            })
            .collect();
        ChecksumReport {
            file: space.path().display().to_string(),
            pages: acc.pages,
            by_algorithm: acc
                .by_algorithm
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            bad_pages: acc.bad,
            lsn_mismatches: acc.lsn,
            unverifiable: acc.unverifiable,
            other_findings,
        }
    }
}

#[derive(Default)]
struct Acc {
    pages: u64,
    by_algorithm: BTreeMap<&'static str, u64>,
    bad: Vec<BadPage>,
    lsn: Vec<u32>,
    unverifiable: Vec<u32>,
}

impl PageConsumer for Acc {
    fn page(&mut self, c: &PageCheck, _bytes: &[u8]) {
        self.pages += 1;
        *self
            .by_algorithm
            .entry(verdict_name(&c.checksum))
            .or_insert(0) += 1;
        match &c.checksum {
            ChecksumVerdict::Invalid { stored, computed } => self.bad.push(BadPage {
                page: c.page_no,
                stored: stored.clone(),
                computed: computed.clone(),
            }),
            ChecksumVerdict::Unverifiable { .. } => self.unverifiable.push(c.page_no),
            _ => {}
        }
        if c.lsn_consistent == Some(false) {
            self.lsn.push(c.page_no);
        }
    }
}

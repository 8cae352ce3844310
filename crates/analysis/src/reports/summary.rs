//! `summary`: what a tablespace is and what its pages hold.

use crate::reports::scan::{scan, PageConsumer};
use innodb_format::checksum::ChecksumVerdict;
use innodb_format::fil::page_compressed::FrameLayout;
use innodb_format::fsp::flags::DecodedFlags;
use innodb_format::vendor::Vendor;
use innodb_space::doublewrite::DoublewriteArea;
use innodb_space::tablespace::PageSizeSource;
use innodb_space::{Finding, FindingKind, FindingLog, PageCheck, Tablespace};
use serde::Serialize;
use std::collections::BTreeMap;

/// The summary of one tablespace file.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Summary {
    /// The file as given.
    pub file: String,
    /// Server family.
    pub vendor: Vendor,
    /// Vendor, version where known, and checksum layout in words.
    pub format: String,
    /// Tablespace id.
    pub space_id: u32,
    /// Decoded `FSP_SPACE_FLAGS`.
    pub flags: DecodedFlags,
    /// Logical page size in bytes.
    pub page_size: usize,
    /// Physical (on-disk) page size in bytes.
    pub physical_page_size: usize,
    /// How the page size was decided.
    pub page_size_source: PageSizeSource,
    /// Pages per extent.
    pub extent_size: usize,
    /// Whole pages in the file.
    pub page_count: u32,
    /// `FSP_SIZE` from page 0.
    pub fsp_size: Option<u32>,
    /// `FSP_FREE_LIMIT` from page 0.
    pub free_limit: Option<u32>,
    /// The checksum algorithm most pages use.
    pub checksum_algorithm: String,
    /// Pages per checksum algorithm (plus `all_zero`, `bad` and `unverifiable`).
    pub checksum_algorithms: BTreeMap<String, u64>,
    /// Pages per type (`FIL_PAGE_` names without the prefix; page-compressed
    /// pages under their real type; doublewrite copies under the type they copy).
    pub page_types: BTreeMap<String, u64>,
    /// Pages whose checksum does not verify.
    pub bad_checksums: u64,
    /// Pages whose trailer LSN disagrees with the header.
    pub lsn_mismatches: u64,
    /// Never-initialised (all-zero) pages.
    pub all_zero_pages: u64,
    /// Of those, the pages in holes of a sparse file (not read: the file
    /// system says they were never written).
    pub hole_pages: u64,
    /// Pages stored page-compressed (MariaDB PAGE_COMPRESSED, MySQL
    /// `COMPRESSION='zlib'`/`'lz4'`).
    pub page_compressed_pages: u64,
    /// What the page-compressed pages are, when there are any.
    pub page_compression: Option<PageCompression>,
    /// Bytes of the file (of the inflated copy, for a `.gz`).
    pub file_bytes: u64,
    /// Bytes the file occupies on disk (`st_blocks` × 512): fewer than
    /// `file_bytes` when it is sparse; `null` for a `.gz` copy, which keeps
    /// no holes.
    pub allocated_bytes: Option<u64>,
    /// Smallest `FIL_PAGE_LSN` of a non-zero page.
    pub lsn_min: Option<u64>,
    /// Largest `FIL_PAGE_LSN`.
    pub lsn_max: Option<u64>,
    /// The doublewrite area of a system tablespace.
    pub doublewrite: Option<DoublewriteSummary>,
    /// Findings by kind.
    pub findings_by_kind: BTreeMap<String, u64>,
    /// The findings: the first [`FindingLog::PER_KIND`] of each kind
    /// (`findings_by_kind` counts them all).
    pub findings: Vec<Finding>,
}

/// The page-compressed pages of a file.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PageCompression {
    /// Whose page compression (the first compressed page's).
    pub layout: FrameLayout,
    /// Pages per algorithm (`zlib`, `lz4`, …).
    pub by_algorithm: BTreeMap<String, u64>,
    /// Bytes the compressed pages' frames take before the hole after each
    /// (header and compressed data).
    pub stored_bytes: u64,
    /// Bytes the same pages take inflated.
    pub logical_bytes: u64,
}

/// The doublewrite area and its copies.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DoublewriteSummary {
    /// First page of block 1.
    pub block1: u32,
    /// First page of block 2.
    pub block2: u32,
    /// Pages per block.
    pub block_pages: u32,
    /// Slots holding a page copy that verifies.
    pub valid_copies: u64,
    /// Slots never written (all zero).
    pub empty_slots: u64,
    /// Slots whose copy does not verify.
    pub bad_copies: u64,
}

impl Summary {
    /// Scans the whole tablespace and summarises it.
    pub fn build(space: &Tablespace) -> Summary {
        let mut acc = SummaryAccumulator::new(space);
        let findings = scan(space, None, &mut [&mut acc]);
        acc.finish(space, findings)
    }
}

/// Collects the per-page facts of a summary during a scan.
#[derive(Debug)]
pub struct SummaryAccumulator {
    vendor: Vendor,
    logical_page_size: u64,
    page_types: BTreeMap<u16, u64>,
    checksums: BTreeMap<&'static str, u64>,
    bad: u64,
    lsn_mismatches: u64,
    all_zero: u64,
    holes: u64,
    compressed: u64,
    compression: Option<PageCompression>,
    lsn_min: Option<u64>,
    lsn_max: Option<u64>,
    doublewrite: Option<(DoublewriteArea, [u64; 3])>,
}

impl SummaryAccumulator {
    /// An empty accumulator for this tablespace.
    pub fn new(space: &Tablespace) -> Self {
        SummaryAccumulator {
            vendor: space.format().vendor,
            logical_page_size: space.format().logical_page_size() as u64,
            page_types: BTreeMap::new(),
            checksums: BTreeMap::new(),
            bad: 0,
            lsn_mismatches: 0,
            all_zero: 0,
            holes: 0,
            compressed: 0,
            compression: None,
            lsn_min: None,
            lsn_max: None,
            doublewrite: space.doublewrite().map(|d| (*d, [0; 3])),
        }
    }

    /// The finished summary.
    pub fn finish(self, space: &Tablespace, findings: FindingLog) -> Summary {
        let format = space.format();
        let checksum_algorithm = self
            .checksums
            .iter()
            .filter(|(k, _)| !matches!(**k, "all_zero" | "bad" | "unverifiable"))
            .max_by_key(|(_, &v)| v)
            .map_or_else(|| "unknown".to_string(), |(k, _)| k.to_string());
        let findings_by_kind = findings
            .counts()
            .iter()
            .map(|(k, n)| (kind_name(*k), *n))
            .collect();
        let findings = findings.into_kept();
        Summary {
            file: space.path().display().to_string(),
            vendor: format.vendor,
            format: format.describe(),
            space_id: space.space_id(),
            flags: format.flags.clone(),
            page_size: format.logical_page_size(),
            physical_page_size: format.physical_page_size(),
            page_size_source: space.page_size_source(),
            extent_size: format.extent_size(),
            page_count: space.page_count(),
            fsp_size: space.fsp_header().map(|h| h.size),
            free_limit: space.fsp_header().map(|h| h.free_limit),
            checksum_algorithm,
            checksum_algorithms: self
                .checksums
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            page_types: self
                .page_types
                .into_iter()
                .map(|(t, n)| {
                    (
                        innodb_format::fil::page_type::PageType(t)
                            .name(self.vendor)
                            .into_owned(),
                        n,
                    )
                })
                .collect(),
            bad_checksums: self.bad,
            lsn_mismatches: self.lsn_mismatches,
            all_zero_pages: self.all_zero,
            hole_pages: self.holes,
            page_compressed_pages: self.compressed,
            page_compression: self.compression,
            file_bytes: space.file_bytes(),
            allocated_bytes: space.allocated_bytes(),
            lsn_min: self.lsn_min,
            lsn_max: self.lsn_max,
            doublewrite: self
                .doublewrite
                .map(|(d, [valid, empty, bad])| DoublewriteSummary {
                    block1: d.header.block1,
                    block2: d.header.block2,
                    block_pages: d.block_pages,
                    valid_copies: valid,
                    empty_slots: empty,
                    bad_copies: bad,
                }),
            findings_by_kind,
            findings,
        }
    }
}

/// Name of a finding kind as serialised.
pub fn kind_name(kind: FindingKind) -> String {
    kind.name().to_string()
}

/// The report name of a checksum verdict.
pub fn verdict_name(v: &ChecksumVerdict) -> &'static str {
    match v {
        ChecksumVerdict::Valid { algorithm } => algorithm.name(),
        ChecksumVerdict::AllZero => "all_zero",
        ChecksumVerdict::Unverifiable { .. } => "unverifiable",
        ChecksumVerdict::Invalid { .. } => "bad",
    }
}

impl PageConsumer for SummaryAccumulator {
    fn page(&mut self, check: &PageCheck, _bytes: &[u8]) {
        *self
            .checksums
            .entry(verdict_name(&check.checksum))
            .or_insert(0) += 1;
        *self.page_types.entry(check.page_type.0).or_insert(0) += 1;
        if let Some((_, counts)) = self.doublewrite.as_mut().filter(|_| check.doublewrite_copy) {
            let slot = match (&check.checksum, check.all_zero) {
                (_, true) => 1,
                (v, _) if v.is_ok() => 0,
                _ => 2,
            };
            if let Some(c) = counts.get_mut(slot) {
                *c += 1;
            }
        }
        if check.all_zero {
            self.all_zero += 1;
            return;
        }
        if !check.checksum.is_ok() {
            self.bad += 1;
        }
        if check.lsn_consistent == Some(false) {
            self.lsn_mismatches += 1;
        }
        if let Some(frame) = &check.compressed {
            self.compressed += 1;
            let c = self.compression.get_or_insert_with(|| PageCompression {
                layout: frame.layout,
                by_algorithm: BTreeMap::new(),
                stored_bytes: 0,
                logical_bytes: 0,
            });
            *c.by_algorithm
                .entry(frame.algorithm.name().to_string())
                .or_insert(0) += 1;
            c.stored_bytes += frame.stored_bytes() as u64;
            c.logical_bytes += self.logical_page_size;
        }
        let lsn = check.fil.lsn;
        self.lsn_min = Some(self.lsn_min.map_or(lsn, |m| m.min(lsn)));
        self.lsn_max = Some(self.lsn_max.map_or(lsn, |m| m.max(lsn)));
    }

    fn hole(&mut self, first: u32, count: u32, zero: &mut PageCheck, bytes: &[u8]) {
        self.holes += u64::from(count);
        if self.doublewrite.is_some() {
            // Pages of a hole may be doublewrite slots: count them one by one.
            for n in first..first.saturating_add(count) {
                zero.page_no = n;
                zero.doublewrite_copy = self.doublewrite.is_some_and(|(d, _)| d.contains(n));
                self.page(zero, bytes);
            }
            return;
        }
        let count = u64::from(count);
        *self
            .checksums
            .entry(verdict_name(&zero.checksum))
            .or_insert(0) += count;
        *self.page_types.entry(zero.page_type.0).or_insert(0) += count;
        self.all_zero += count;
    }
}

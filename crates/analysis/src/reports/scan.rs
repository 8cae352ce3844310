//! One pass over every page of a tablespace, feeding any number of consumers.

use innodb_space::{Finding, FindingKind, FindingLog, PageCheck, ScanItem, Tablespace};

/// Something that wants to see every checked page.
pub trait PageConsumer {
    /// Called once per page, in file order, with the check result and the
    /// physical bytes.
    fn page(&mut self, check: &PageCheck, bytes: &[u8]);

    /// Called for `count` pages from `first` that lie wholly in a hole of a
    /// sparse file (never written; they read as zeros and are not read):
    /// `zero` is the check of an all-zero page, `bytes` its zeros. The
    /// default hands each page to [`Self::page`]; consumers that can count
    /// a run at once do, so a hole of terabytes costs nothing.
    fn hole(&mut self, first: u32, count: u32, zero: &mut PageCheck, bytes: &[u8]) {
        for n in first..first.saturating_add(count) {
            zero.page_no = n;
            self.page(zero, bytes);
        }
    }
}

/// A consumer that looks at nothing (for a scan that needs no observer).
pub struct NoObserver;

impl PageConsumer for NoObserver {
    fn page(&mut self, _: &PageCheck, _: &[u8]) {}
    fn hole(&mut self, _: u32, _: u32, _: &mut PageCheck, _: &[u8]) {}
}

/// Checks every page (or those in `range`) once and hands each result to every
/// consumer. Returns the findings: those from opening the file, then those of
/// each page in order; a page that cannot be read is an `unreadable` finding.
/// All are counted; the first of each kind are kept (memory stays bounded on
/// a file damaged on every page).
pub fn scan(
    space: &Tablespace,
    range: Option<(u32, u32)>,
    consumers: &mut [&mut dyn PageConsumer],
) -> FindingLog {
    let mut findings: FindingLog = space.open_findings().iter().cloned().collect();
    let (first, last) = range.unwrap_or((0, u32::MAX));
    findings.append(scan_pages(space, first, last, consumers));
    findings
}

/// Checks pages `first..=last` once and hands each result to every
/// consumer, like [`scan`] but without the findings of opening the file
/// (for one of several runs that together cover the file).
pub fn scan_pages(
    space: &Tablespace,
    first: u32,
    last: u32,
    consumers: &mut [&mut dyn PageConsumer],
) -> FindingLog {
    let mut findings = FindingLog::new();
    // One page's findings, moved into the log after each page (no
    // allocation per page once it has grown).
    let mut on_page = Vec::new();
    let mut checker = space.checker();
    let mut zeros = Vec::new();
    space.for_each_page(first, last, |item| match item {
        ScanItem::Page(n, bytes) => {
            let check = checker.check(n, bytes, &mut on_page);
            findings.drain_from(&mut on_page);
            for c in consumers.iter_mut() {
                c.page(&check, bytes);
            }
        }
        ScanItem::Hole { first, count } => {
            zeros.resize(space.format().physical_page_size(), 0u8);
            let mut zero = checker.check(first, &zeros, &mut on_page);
            findings.drain_from(&mut on_page);
            for c in consumers.iter_mut() {
                c.hole(first, count, &mut zero, &zeros);
                zero.page_no = first;
            }
        }
        ScanItem::Unreadable(n, e) => findings.push(Finding::on_page(
            FindingKind::Unreadable,
            n,
            0,
            "page",
            format!("the page cannot be read: {e}"),
        )),
        ScanItem::Shrunk { page, len } => findings.push(Finding {
            kind: FindingKind::FileChanged,
            page: Some(page),
            offset: None,
            field: "file size",
            message: format!(
                "the file was shortened to {len} bytes while it was read: pages {page}..{} were not read (another process truncated it; what was read may mix two states of the file)",
                space.page_count().saturating_sub(1)
            ),
        }),
        ScanItem::Resized { was, len } => findings.push(Finding {
            kind: FindingKind::FileChanged,
            page: None,
            offset: None,
            field: "file size",
            message: format!(
                "the file's length changed from {was} to {len} bytes while it was read (another process is writing it; what was read may mix two states of the file)"
            ),
        }),
    });
    findings
}

//! `pages`: one row per page.

use crate::reports::scan::{scan, PageConsumer};
use crate::reports::summary::verdict_name;
use innodb_format::fil::page_type::PageType;
use innodb_format::vendor::Vendor;
use innodb_space::{Finding, FindingLog, PageCheck, Tablespace};
use serde::Serialize;
use std::collections::BTreeMap;

/// Which pages to list.
#[derive(Debug, Clone, Default)]
pub struct PageFilter {
    /// Only pages of this type: a name [`PageType::from_name`] knows, or a
    /// number.
    pub page_type: Option<String>,
    /// Only pages in this inclusive range.
    pub range: Option<(u32, u32)>,
}

/// One page of the listing.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PageRow {
    /// Page number (position in the file).
    pub page: u32,
    /// Page type name (the real type of page-compressed pages).
    #[serde(rename = "type")]
    pub page_type: String,
    /// `FIL_PAGE_LSN`.
    pub lsn: u64,
    /// Checksum algorithm that verifies, or `all_zero`, `bad`, `unverifiable`.
    pub checksum: &'static str,
    /// Whether header and trailer LSN agree (absent where there is no trailer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lsn_consistent: Option<bool>,
    /// Set on doublewrite copies: the page number the copy says it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy_of_page: Option<u32>,
    /// Set on doublewrite copies: the space id the copy says it belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy_of_space: Option<u32>,
    /// Set on page-compressed pages: compressed payload bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compressed_bytes: Option<usize>,
    /// Index id, for index pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_id: Option<u64>,
    /// B-tree level, for index pages (0 = leaf).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u16>,
    /// `PAGE_N_RECS`, for index pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub records: Option<u16>,
    /// The index's name (`db/table.index`, `SDI`), when a dictionary
    /// names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_name: Option<String>,
    /// Set when the row stands for this many all-zero pages from `page` on,
    /// in a hole of a sparse file (never written; not read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hole_pages: Option<u32>,
}

/// The page listing of one file.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PageList {
    /// The file as given.
    pub file: String,
    /// The rows.
    pub pages: Vec<PageRow>,
    /// Findings on the listed pages: the first
    /// [`FindingLog::PER_KIND`] of each kind.
    pub findings: Vec<Finding>,
    /// Every finding on the listed pages, by kind.
    pub findings_by_kind: BTreeMap<String, u64>,
}

/// The findings of a `pages` listing as its reports carry them: the kept
/// ones, and the count of every one by kind.
pub fn findings_parts(log: FindingLog) -> (Vec<Finding>, BTreeMap<String, u64>) {
    let by_kind = log
        .counts()
        .iter()
        .map(|(k, n)| (k.name().to_string(), *n))
        .collect();
    (log.into_kept(), by_kind)
}

struct Collector<'a, 'f> {
    vendor: Vendor,
    type_filter: Option<TypeFilter<'a>>,
    on_row: &'f mut dyn FnMut(&PageRow),
}

enum TypeFilter<'a> {
    Code(u16),
    Name(&'a str),
}

impl Collector<'_, '_> {
    fn keeps(&self, c: &PageCheck, name: &str) -> bool {
        match &self.type_filter {
            None => true,
            Some(TypeFilter::Code(t)) => c.page_type.0 == *t,
            Some(TypeFilter::Name(n)) => {
                PageType::from_name(n).is_some_and(|t| t.name(self.vendor) == name)
            }
        }
    }
}

impl PageConsumer for Collector<'_, '_> {
    fn page(&mut self, c: &PageCheck, _bytes: &[u8]) {
        let name = c.page_type.name(self.vendor);
        if self.keeps(c, &name) {
            (self.on_row)(&PageRow::from_check(c, name.into_owned()));
        }
    }

    /// A hole is one row, however many pages it spans.
    fn hole(&mut self, first: u32, count: u32, zero: &mut PageCheck, _bytes: &[u8]) {
        let name = zero.page_type.name(self.vendor);
        if self.keeps(zero, &name) {
            zero.page_no = first;
            let mut row = PageRow::from_check(zero, name.into_owned());
            row.hole_pages = Some(count);
            (self.on_row)(&row);
        }
    }
}

impl PageRow {
    /// The row for one checked page.
    pub fn from_check(c: &PageCheck, page_type: String) -> Self {
        PageRow {
            page: c.page_no,
            page_type,
            lsn: c.fil.lsn,
            checksum: verdict_name(&c.checksum),
            lsn_consistent: c.lsn_consistent,
            copy_of_page: (c.doublewrite_copy && !c.all_zero).then_some(c.fil.page_no),
            copy_of_space: (c.doublewrite_copy && !c.all_zero).then_some(c.fil.space_id),
            compressed_bytes: c.compressed.map(|f| f.payload_len),
            index_id: c.index.map(|i| i.index_id),
            level: c.index.map(|i| i.level),
            records: c.index.map(|i| i.n_recs),
            index_name: None,
            hole_pages: None,
        }
    }
}

impl PageList {
    /// Lists the pages of `space` that pass `filter`.
    pub fn build(space: &Tablespace, filter: &PageFilter) -> PageList {
        let mut pages = Vec::new();
        let log = Self::stream(space, filter, &mut |r| pages.push(r.clone()));
        let (findings, findings_by_kind) = findings_parts(log);
        PageList {
            file: space.path().display().to_string(),
            pages,
            findings,
            findings_by_kind,
        }
    }

    /// Hands each row of the listing to `on_row` as the scan reaches it,
    /// keeping none (memory flat in the file's size); returns the findings.
    pub fn stream(
        space: &Tablespace,
        filter: &PageFilter,
        on_row: &mut dyn FnMut(&PageRow),
    ) -> FindingLog {
        let type_filter = filter.page_type.as_deref().map(|t| match t.parse::<u16>() {
            Ok(n) => TypeFilter::Code(n),
            Err(_) => TypeFilter::Name(t),
        });
        let mut collector = Collector {
            vendor: space.format().vendor,
            type_filter,
            on_row,
        };
        scan(space, filter.range, &mut [&mut collector])
    }
}

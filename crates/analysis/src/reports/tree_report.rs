//! `tree`: one index's pages level by level, in key order, with the space
//! each page uses.

use crate::reports::space_reports::{header, SpaceHeader};
use innodb_space::btree;
use innodb_space::logical_pages::LogicalPages;
use innodb_space::space_map::{NoSpaceMap, SpaceMap};
use innodb_space::{Finding, Tablespace};
use serde::Serialize;

/// Bytes of the smallest record shown as its key bytes.
pub const MIN_KEY_BYTES: usize = 16;

/// One page of a level.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TreePage {
    /// Page number.
    pub page: u32,
    /// `PAGE_LEVEL`.
    pub level: u16,
    /// User records in the list (delete-marked included).
    pub records: u64,
    /// Delete-marked records.
    pub delete_marked: u64,
    /// Record bytes (`page_get_data_size`).
    pub data_bytes: usize,
    /// Contiguous free bytes.
    pub free_bytes: usize,
    /// `PAGE_GARBAGE`.
    pub garbage_bytes: usize,
    /// data / usable bytes of an empty page.
    pub fill: f64,
    /// The first bytes (up to 16) of the page's smallest user record, in hex:
    /// its key, for fixed-length leading columns.
    pub min_key_bytes: String,
    /// `FIL_PAGE_PREV`, `FIL_PAGE_NEXT` (`null` for none).
    pub prev: Option<u32>,
    /// See `prev`.
    pub next: Option<u32>,
    /// For a ROW_FORMAT=COMPRESSED page: stream, log, free and trailer bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zip: Option<innodb_format::index::page_zip::ZipSpace>,
}

/// The `tree` report.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TreeReport {
    /// The file.
    #[serde(flatten)]
    pub header: SpaceHeader,
    /// The index.
    pub index_id: u64,
    /// Its name (`db/table.index`, `SDI`), when a dictionary names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its root page.
    pub root_page: u32,
    /// Pages in key order, root level first (only `--level` when given).
    pub pages: Vec<TreePage>,
    /// Problems the walk found.
    pub findings: Vec<Finding>,
}

/// Why there is no tree report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoTree {
    /// No space map (page 0 unusable).
    NoSpaceMap(NoSpaceMap),
    /// No root of this index id names its segments; the ids that do.
    NoSuchIndex(Vec<u64>),
}

impl TreeReport {
    /// Walks index `index_id` (its pages of `level` only, when given).
    pub fn build(
        space: &Tablespace,
        index_id: u64,
        level: Option<u16>,
    ) -> Result<TreeReport, NoTree> {
        let mut r = Self::prepare(space, index_id)?;
        let mut pages = Vec::new();
        r.walk(space, level, |p| pages.push(p));
        r.pages = pages;
        Ok(r)
    }

    /// The report of index `index_id` before its walk: the file, the
    /// index and its root, no page and no finding yet (an error when no
    /// root of that id names its segments).
    pub fn prepare(space: &Tablespace, index_id: u64) -> Result<TreeReport, NoTree> {
        let map = SpaceMap::read(space).map_err(NoTree::NoSpaceMap)?;
        let ids = map.index_roots();
        let Some(&(_, root)) = ids.iter().find(|(id, _)| *id == index_id) else {
            return Err(NoTree::NoSuchIndex(
                ids.into_iter().map(|(id, _)| id).collect(),
            ));
        };
        Ok(TreeReport {
            header: header(space, &map),
            index_id,
            name: None,
            root_page: root,
            pages: Vec::new(),
            findings: Vec::new(),
        })
    }

    /// Walks the index from its root in key order, handing each page (of
    /// `level` only, when given) to `on_page` as it is read, and keeps the
    /// walk's findings: a caller that writes each page at once holds none
    /// of them.
    pub fn walk(
        &mut self,
        space: &Tablespace,
        level: Option<u16>,
        mut on_page: impl FnMut(TreePage),
    ) {
        let mut pages = LogicalPages::new(space);
        let walk = btree::walk(&mut pages, self.root_page, |v| {
            let h = &v.page.header;
            if level.is_some_and(|l| l != h.level) {
                return;
            }
            on_page(tree_page(v));
        });
        self.findings = walk.findings;
    }
}

/// The row of one page the walk reached.
fn tree_page(v: &btree::PageVisit<'_>) -> TreePage {
    let h = &v.page.header;
    let s = v.page.space();
    let bytes = v.page.bytes();
    let first = v
        .records
        .records
        .iter()
        .find(|r| !(h.level == 0 && r.is_min_rec()))
        .or(v.records.records.first());
    let min_key_bytes = first
        .map(|r| {
            let end = (r.origin + MIN_KEY_BYTES)
                .min(usize::from(h.heap_top))
                .min(bytes.len());
            bytes
                .get(r.origin..end)
                .unwrap_or(&[])
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        })
        .unwrap_or_default();
    let link = |p: u32| (p != innodb_format::FIL_NULL).then_some(p);
    TreePage {
        page: v.page_no,
        level: h.level,
        records: v.records.records.len() as u64,
        delete_marked: v.records.records.iter().filter(|r| r.is_deleted()).count() as u64,
        data_bytes: s.data_bytes,
        free_bytes: s.free_bytes,
        garbage_bytes: s.garbage_bytes,
        fill: (s.fill() * 10000.0).round() / 10000.0,
        min_key_bytes,
        prev: link(v.check.fil.prev),
        next: link(v.check.fil.next),
        zip: v.zip,
    }
}

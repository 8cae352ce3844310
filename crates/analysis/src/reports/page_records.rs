//! The records of one INDEX page, for `page`: each record's header, where
//! its bytes are, the garbage list, the page directory and the page's own
//! consistency problems. Without the table's columns a record's fields
//! cannot be told apart, so its bytes are shown raw.

use innodb_format::index::page::{IndexPage, PageProblem, PageSpace, RecordList};
use innodb_format::index::record::{RecordFormat, RecordType};
use innodb_space::btree;
use innodb_space::logical_pages::LogicalPages;
use serde::Serialize;

/// Record bytes shown per record at most.
pub const SHOWN_BYTES: usize = 64;

/// One record of the list.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RecordRow {
    /// Origin (page offset of the first data byte).
    pub origin: usize,
    /// Heap number.
    pub heap_no: u16,
    /// Record type.
    #[serde(rename = "type")]
    pub record_type: &'static str,
    /// Delete-marked.
    pub deleted: bool,
    /// Min-rec flag.
    pub min_rec: bool,
    /// `n_owned`.
    pub n_owned: u8,
    /// Origin of the next record (`null` after the last).
    pub next: Option<usize>,
    /// For node pointers: the child page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub child_page: Option<u32>,
    /// Bytes from the origin to the next record's header in heap order (or
    /// the heap top): the record's data, plus, in COMPACT, the next record's
    /// null flags and lengths. REDUNDANT: exactly the data.
    pub bytes_len: usize,
    /// The first [`SHOWN_BYTES`] of them, in hex.
    pub bytes: String,
}

/// Everything about a page's records.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PageRecords {
    /// Record format.
    pub format: RecordFormat,
    /// Space use.
    pub space: PageSpace,
    /// Fill (data / usable).
    pub fill: f64,
    /// User records in list order.
    pub records: Vec<RecordRow>,
    /// Origins of the records in the garbage list.
    pub garbage: Vec<usize>,
    /// Page directory slots (record origins), first to last.
    pub directory: Vec<usize>,
    /// Problems with the page's structure.
    pub problems: Vec<PageProblem>,
}

impl PageRecords {
    /// Decodes the records of `page`; `pages` resolves node pointers.
    pub fn new(pages: &mut LogicalPages<'_>, page: &IndexPage<'_>) -> PageRecords {
        let mut list = RecordList::default();
        let mut problems = Vec::new();
        let mut garbage = Vec::new();
        page.walk(&mut list, &mut problems);
        page.free_list(&mut garbage, &mut problems);
        page.check(&list, &garbage, &mut problems);
        let mut heap_order: Vec<usize> = list
            .records
            .iter()
            .map(|r| r.origin)
            .chain(garbage.iter().copied())
            .collect();
        heap_order.sort_unstable();
        let bytes = page.bytes();
        let heap_top = usize::from(page.header.heap_top);
        let records = list
            .records
            .iter()
            .map(|r| {
                let end = match (page.format, r.redundant_extent(bytes)) {
                    (RecordFormat::Redundant, Ok(Some((len, _)))) => r.origin + len,
                    _ => heap_order
                        .iter()
                        .find(|&&o| o > r.origin)
                        .map_or(heap_top, |&o| o.saturating_sub(page.format.extra_bytes())),
                };
                let end = end.max(r.origin).min(bytes.len());
                let shown = bytes
                    .get(r.origin..end.min(r.origin + SHOWN_BYTES))
                    .unwrap_or_default();
                RecordRow {
                    origin: r.origin,
                    heap_no: r.heap_no,
                    record_type: r.record_type.name(),
                    deleted: r.is_deleted(),
                    min_rec: r.is_min_rec(),
                    n_owned: r.n_owned,
                    next: r.next,
                    child_page: (r.record_type == RecordType::NodePointer)
                        .then(|| btree::resolve_child(pages, page, r, &heap_order))
                        .flatten(),
                    bytes_len: end - r.origin,
                    bytes: shown.iter().map(|b| format!("{b:02x}")).collect(),
                }
            })
            .collect();
        let space = page.space();
        PageRecords {
            format: page.format,
            space,
            fill: (space.fill() * 10000.0).round() / 10000.0,
            records,
            garbage,
            directory: page.directory(),
            problems,
        }
    }
}

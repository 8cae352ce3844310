//! `records --scan`: the rows of every leaf page of one index id found in
//! a file, whether a tree reaches it or not (a dropped table's pages in the
//! free space of a system tablespace, a tree whose root or internal pages
//! are gone, a carved file).
//!
//! The file is read once, page header by page header, for the INDEX pages
//! of the index (their page numbers, levels and LSNs only); then each leaf
//! page is decoded on its own. Of the copies of one page number (a page
//! and its copy in the doublewrite buffer of a system tablespace, each at
//! its own place in the file) the one with the newest `FIL_PAGE_LSN` is
//! read. A row is kept once per key: where two pages hold the same key (a
//! page freed after a split), the row of the page with the newer LSN wins.
//! The rows come out in key order, each with the page number its page's
//! header gives.
//!
//! Memory: the page list (24 bytes a page of the index), the key of every
//! distinct row (its key values decoded, with 16 bytes for where it is),
//! and the rows of one page at a time: the leaf pages are read twice,
//! once for the keys and their newest places, then in key order for the
//! rows.

use crate::rows::records::{
    LayoutFit, NoRecords, RecordsReport, Row, RowSink, Schema, SchemaIndex,
};
use innodb_format::bytes::{u16_at, u32_at, u64_at};
use innodb_format::fil::header::{FIL_PAGE_LSN, FIL_PAGE_OFFSET, FIL_PAGE_TYPE};
use innodb_format::fil::page_type::PageType;
use innodb_format::index::header::{PAGE_INDEX_ID, PAGE_LEVEL};
use innodb_format::value::column_value::Value;
use innodb_space::finding::Finding;
use innodb_space::logical_pages::LogicalPages;
use innodb_space::Tablespace;
use std::cmp::Ordering;
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, HashMap};

/// An INDEX page of the index scanned for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScannedPage {
    /// Where it is in the file (its page number there).
    pub position: u32,
    /// `FIL_PAGE_OFFSET` (offset 4): its own page number.
    pub page_no: u32,
    /// `PAGE_LEVEL` (offset 64).
    pub level: u16,
    /// `FIL_PAGE_LSN` (offset 16).
    pub lsn: u64,
}

/// The INDEX pages of `index_id` in `space`, by place in the file: every
/// page's first bytes read once.
pub fn pages_of_index(space: &Tablespace, index_id: u64) -> Vec<ScannedPage> {
    let pages = LogicalPages::new(space);
    let mut buf = Vec::new();
    let mut out = Vec::new();
    for n in 0..space.page_count() {
        if pages.read_prefix(n, PAGE_INDEX_ID + 8, &mut buf).is_none() {
            continue;
        }
        let is_index = u16_at(&buf, FIL_PAGE_TYPE, "FIL_PAGE_TYPE")
            .is_ok_and(|t| PageType(t) == PageType::INDEX);
        if !is_index || u64_at(&buf, PAGE_INDEX_ID, "PAGE_INDEX_ID").ok() != Some(index_id) {
            continue;
        }
        out.push(ScannedPage {
            position: n,
            page_no: u32_at(&buf, FIL_PAGE_OFFSET, "FIL_PAGE_OFFSET").unwrap_or(n),
            level: u16_at(&buf, PAGE_LEVEL, "PAGE_LEVEL").unwrap_or(0),
            lsn: u64_at(&buf, FIL_PAGE_LSN, "FIL_PAGE_LSN").unwrap_or(0),
        });
    }
    out
}

/// What a scan found.
#[derive(Debug, Clone)]
pub struct IndexScan {
    /// The report's head (table, index, fields), its layout fit summed over
    /// the pages, and the findings of every page (each message once); no rows.
    pub report: RecordsReport,
    /// Rows handed to the sink.
    pub rows: usize,
    /// Distinct keys found.
    pub keys: usize,
    /// INDEX pages of the index found (every level; one per page number).
    pub pages: usize,
    /// Older copies of those pages elsewhere in the file, not read.
    pub older_copies: usize,
    /// Of those, leaf pages read.
    pub leaf_pages: usize,
    /// Rows left out because a page with a newer LSN holds their key.
    pub duplicates: usize,
}

/// Where the row kept for a key is.
#[derive(Debug, Clone, Copy)]
struct Place {
    position: u32,
    page_no: u32,
    origin: usize,
}

/// The index of `schema` a scan for `index_id` reads: `which` (a name or
/// id), else the one with that id, else the clustered one.
pub fn scanned_index<'s>(
    schema: &'s Schema,
    which: Option<&str>,
    index_id: u64,
) -> Option<&'s SchemaIndex> {
    let pos = index_position(schema, which, index_id)?;
    schema.indexes.get(pos)
}

/// The rows of every leaf page of index `index_id` of `space`, read with
/// `schema`'s index `which` (see [`scanned_index`]), whose id becomes
/// `index_id` and whose root the highest page found; handed to `sink` in
/// key order, at most `limit`. Two passes over the leaf pages: the first
/// keeps each key's place (its newest page), the second decodes the rows
/// in key order, one page at a time.
pub fn scan(
    space: &Tablespace,
    schema: &Schema,
    which: Option<&str>,
    index_id: u64,
    limit: Option<usize>,
    sink: &mut dyn RowSink,
) -> Result<IndexScan, NoRecords> {
    let pages = pages_of_index(space, index_id);
    let schema = with_index_id(schema, which, index_id, &pages)?;
    let id = index_id.to_string();
    let mut leaves = newest_copies(pages.iter().filter(|p| p.level == 0).copied().collect());
    // Newest first, so that the first place of a key kept is the newest.
    leaves.sort_by(|a, b| b.lsn.cmp(&a.lsn).then(a.page_no.cmp(&b.page_no)));
    let mut kept: BTreeMap<Key, Place> = BTreeMap::new();
    let mut head: Option<RecordsReport> = None;
    let mut duplicates = 0;
    for p in &leaves {
        let r = RecordsReport::build_leaf(space, &schema, Some(&id), p.position, false)?;
        let n_key = key_fields(&r);
        for row in &r.rows {
            match kept.entry(Key(row.values.iter().take(n_key).cloned().collect())) {
                Entry::Vacant(e) => {
                    e.insert(Place {
                        position: p.position,
                        page_no: p.page_no,
                        origin: row.origin,
                    });
                }
                Entry::Occupied(_) => duplicates += 1,
            }
        }
        merge(&mut head, r);
    }
    let report = head.unwrap_or_else(|| empty_report(&schema, index_id));
    sink.start(&report);
    let keys = kept.len();
    let rows = emit(space, &schema, &id, kept, limit, sink)?;
    Ok(IndexScan {
        report,
        rows,
        keys,
        older_copies: pages.len() - newest_copies(pages.clone()).len(),
        pages: newest_copies(pages).len(),
        leaf_pages: leaves.len(),
        duplicates,
    })
}

/// The rows at the places `kept` gives, in key order, into `sink`: each
/// page decoded again when its first row is due (the last page's rows
/// kept until another page is due). Returns the rows handed over.
fn emit(
    space: &Tablespace,
    schema: &Schema,
    id: &str,
    kept: BTreeMap<Key, Place>,
    limit: Option<usize>,
    sink: &mut dyn RowSink,
) -> Result<usize, NoRecords> {
    let mut page: Option<(u32, HashMap<usize, Row>)> = None;
    let mut n = 0;
    for place in kept.into_values() {
        if n >= limit.unwrap_or(usize::MAX) {
            break;
        }
        if page.as_ref().map(|(p, _)| *p) != Some(place.position) {
            let r = RecordsReport::build_leaf(space, schema, Some(id), place.position, false)?;
            let rows = r.rows.into_iter().map(|row| (row.origin, row)).collect();
            page = Some((place.position, rows));
        }
        let Some(mut row) = page
            .as_mut()
            .and_then(|(_, rows)| rows.remove(&place.origin))
        else {
            continue;
        };
        row.page = place.page_no;
        n += 1;
        if !sink.row(&row) {
            break;
        }
    }
    Ok(n)
}

/// Of the copies of each page number, the newest (the first in the file
/// on a tie), by page number.
fn newest_copies(mut pages: Vec<ScannedPage>) -> Vec<ScannedPage> {
    pages.sort_by(|a, b| (a.page_no, b.lsn, a.position).cmp(&(b.page_no, a.lsn, b.position)));
    pages.dedup_by_key(|p| p.page_no);
    pages
}

/// The head of a scan that found no leaf page.
fn empty_report(schema: &Schema, index_id: u64) -> RecordsReport {
    let index = schema.indexes.iter().find(|i| i.id == index_id);
    RecordsReport {
        table: schema.table.clone(),
        index: index.map(|i| i.name.clone()).unwrap_or_default(),
        index_id,
        fields: index.map(|i| i.fields.clone()).unwrap_or_default(),
        rows: Vec::new(),
        erased_records: 0,
        layout: LayoutFit::default(),
        findings: Vec::new(),
    }
}

/// `schema` with its index `which` given id `index_id` and, as root, the
/// page of the highest level found (where the tree's root was or is).
fn with_index_id(
    schema: &Schema,
    which: Option<&str>,
    index_id: u64,
    pages: &[ScannedPage],
) -> Result<Schema, NoRecords> {
    let mut s = schema.clone();
    let by_id = index_id.to_string();
    let Some(pos) = index_position(&s, which, index_id) else {
        return Err(NoRecords::NoIndex(
            s.indexes
                .iter()
                .map(|i| format!("{} ({})", i.name, i.id))
                .collect(),
        ));
    };
    // No other index of the schema keeps the id.
    for i in s.indexes.iter_mut().filter(|i| i.id.to_string() == by_id) {
        i.id = u64::MAX - 1;
    }
    if let Some(i) = s.indexes.get_mut(pos) {
        i.id = index_id;
        if let Some(top) = pages.iter().max_by_key(|p| (p.level, p.lsn)) {
            i.root_page = top.position;
        }
    }
    Ok(s)
}

/// Where in `schema.indexes` the index a scan reads is (see [`scanned_index`]).
fn index_position(schema: &Schema, which: Option<&str>, index_id: u64) -> Option<usize> {
    schema
        .indexes
        .iter()
        .position(|i| match which {
            Some(w) => i.name == w || i.id.to_string() == w,
            None => i.id == index_id,
        })
        .or_else(|| {
            which
                .is_none()
                .then(|| schema.indexes.iter().position(|i| i.clustered))
                .flatten()
        })
}

/// The number of leading fields that make a row's key: the clustered
/// index's fields before `DB_TRX_ID`; every field of a secondary index.
fn key_fields(r: &RecordsReport) -> usize {
    r.fields
        .iter()
        .position(|f| f.name == "DB_TRX_ID")
        .unwrap_or(r.fields.len())
}

/// Adds page report `r` (rows dropped) to the scan's head: the layout fit
/// summed, findings each once.
fn merge(head: &mut Option<RecordsReport>, mut r: RecordsReport) {
    r.rows = Vec::new();
    match head {
        None => *head = Some(r),
        Some(h) => {
            h.layout.pairs += r.layout.pairs;
            h.layout.fitting_pairs += r.layout.fitting_pairs;
            h.layout.unreadable += r.layout.unreadable;
            h.erased_records += r.erased_records;
            for f in r.findings {
                if !h.findings.iter().any(|g| same_finding(g, &f)) {
                    h.findings.push(f);
                }
            }
        }
    }
}

fn same_finding(a: &Finding, b: &Finding) -> bool {
    a.page == b.page && a.offset == b.offset && a.message == b.message
}

/// A row's key values, ordered as the index orders them for the types whose
/// order is their value's (integers, dates and times as text, binary
/// strings); text by its bytes (a case-insensitive collation orders
/// otherwise).
#[derive(Debug, Clone)]
struct Key(Vec<Value>);

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        for (a, b) in self.0.iter().zip(&other.0) {
            let o = cmp_value(a, b);
            if o != Ordering::Equal {
                return o;
            }
        }
        self.0.len().cmp(&other.0.len())
    }
}

/// NULL first, numbers by value, the rest by their text.
fn cmp_value(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Less,
        (_, Value::Null) => Ordering::Greater,
        (Value::Int(x), Value::Int(y)) => x.cmp(y),
        (Value::UInt(x), Value::UInt(y)) => x.cmp(y),
        (Value::Int(x), Value::UInt(y)) => i128::from(*x).cmp(&i128::from(*y)),
        (Value::UInt(x), Value::Int(y)) => i128::from(*x).cmp(&i128::from(*y)),
        (Value::Float(x), Value::Float(y)) => x.total_cmp(y),
        (Value::Text(x), Value::Text(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Hex { hex: x }, Value::Hex { hex: y }) => x.cmp(y),
        _ => format!("{a:?}").cmp(&format!("{b:?}")),
    }
}

//! The tables the `SYS_*` dictionary (MariaDB, MySQL ≤ 5.7) no longer
//! holds but still remembers: a dropped table's `SYS_TABLES`,
//! `SYS_COLUMNS`, `SYS_INDEXES` and `SYS_FIELDS` records stay on their
//! leaf pages, delete-marked until purge, then in each page's garbage list
//! (`PAGE_FREE`, offset 44) until their bytes are reused.
//!
//! Every leaf page of the four clustered indexes (index ids 1, 2, 3, 4, on
//! any page of the file, reachable or not) is read: its delete-marked
//! records and those of its garbage list. A table whose id the live
//! dictionary still has is not dropped and is left out.
//!
//! MariaDB (10.6 and later at least) zeroes a record's bytes when purge
//! moves it to the garbage list: its header stays, its fields are gone.
//! Such records are counted as erased. What is left of a table dropped
//! there is its pages: the index ids of INDEX pages that no index of the
//! live dictionary has ([`Remnants::unknown_indexes`]).

use super::remnants_undo::{self, UndoneTable};
use super::sys_record::{
    self, SysRecord, DICT_COLUMNS_ID, DICT_FIELDS_ID, DICT_INDEXES_ID, DICT_TABLES_ID,
};
use super::{DictColumn, DictIndex, DictTable, Dictionary};
use crate::btree;
use crate::finding::{Finding, FindingKind};
use crate::logical_pages::LogicalPages;
use crate::Tablespace;
use innodb_format::bytes::{u16_at, u32_at, u64_at};
use innodb_format::fil::header::{FIL_PAGE_LSN, FIL_PAGE_OFFSET, FIL_PAGE_TYPE};
use innodb_format::fil::page_type::PageType;
use innodb_format::index::header::{PAGE_INDEX_ID, PAGE_LEVEL};
use innodb_format::index::page::IndexPage;
use innodb_format::index::record::{FieldRef, RecordFormat, RecordHeader};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

// (5, `DICT_TABLE_IDS_ID`, is SYS_TABLES' secondary index on ID.)

/// Bytes of a page read to tell an index page's index id and level
/// (`PAGE_INDEX_ID` is at offset 66, 8 bytes).
const PREFIX: usize = PAGE_INDEX_ID + 8;

/// How many pages of one index id the file holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct IndexPageCount {
    /// INDEX pages with that `PAGE_INDEX_ID`, each page number once
    /// (copies elsewhere in the file, as in the doublewrite buffer, not
    /// counted again).
    pub pages: u64,
    /// Those at `PAGE_LEVEL` 0.
    pub leaf_pages: u64,
}

/// What the dictionary's deleted records tell.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct Remnants {
    /// The dropped tables, by id, with their columns and indexes as far as
    /// their records were found (a `DictTable` whose `name` is empty had no
    /// `SYS_TABLES` record left).
    pub tables: Vec<DictTable>,
    /// Deleted records read: delete-marked ones.
    pub delete_marked: u64,
    /// Deleted records read: in a garbage list.
    pub garbage: u64,
    /// Deleted records whose fields are all zero bytes (MariaDB erases a
    /// record it moves to the garbage list): nothing can be read of them.
    pub erased: u64,
    /// Index ids of INDEX pages in the file that no index of the live
    /// dictionary and no dropped table found has (user index ids only:
    /// above `DICT_HDR_FIRST_ID` 10, below the change buffer's
    /// `DICT_IBUF_ID_MIN` 0xFFFFFFFF00000000), with their page counts.
    pub unknown_indexes: Vec<(u64, IndexPageCount)>,
    /// The live dictionary was read (so the tables and indexes it has were
    /// told apart from dropped ones).
    pub live_dictionary: bool,
    /// UNDO_LOG pages read for the delete-marks of a `DROP TABLE`.
    pub undo_pages: u64,
    /// Undo records read on them.
    pub undo_records: u64,
    /// The ids of the tables in `tables` known only from the undo log (no
    /// `SYS_*` record of theirs was readable): their name, index ids and
    /// how many columns and index fields they had; no names of columns
    /// or indexes, no types.
    pub from_undo: Vec<u64>,
    /// `SYS_*` leaf pages read.
    pub sys_pages: u64,
    /// INDEX pages of the file by index id (every id, for the dropped
    /// tables' counts).
    #[serde(skip)]
    pub pages_by_index: BTreeMap<u64, IndexPageCount>,
    /// Problems reading the pages.
    pub findings: Vec<Finding>,
}

impl Remnants {
    /// The pages of index `id` found in the file.
    pub fn pages_of(&self, id: u64) -> IndexPageCount {
        self.pages_by_index.get(&id).copied().unwrap_or_default()
    }
}

/// Reads the deleted `SYS_*` records of every page of `space` (the system
/// tablespace, or a rebuilt copy of it) and makes tables of them, leaving
/// out the ids `live` has. Reads each page's first bytes once, then the
/// `SYS_*` leaf pages whole.
pub fn read(space: &Tablespace, live: Option<&Dictionary>) -> Remnants {
    let mut out = Remnants::default();
    let mut sys_pages = Vec::new();
    let mut undo_pages = Vec::new();
    let mut counted = HashSet::new();
    let pages = LogicalPages::new(space);
    let mut buf = Vec::new();
    for n in 0..space.page_count() {
        if pages.read_prefix(n, PREFIX, &mut buf).is_none() {
            continue;
        }
        if u16_at(&buf, FIL_PAGE_TYPE, "FIL_PAGE_TYPE").ok() == Some(PageType::UNDO_LOG.0) {
            undo_pages.push(n);
            continue;
        }
        let Some((id, level, lsn)) = index_page(&buf) else {
            continue;
        };
        // A page counts once, whatever its copies (the doublewrite buffer).
        let page_no = u32_at(&buf, FIL_PAGE_OFFSET, "FIL_PAGE_OFFSET").unwrap_or(n);
        let fresh = counted.insert((id, page_no));
        let c = out.pages_by_index.entry(id).or_default();
        c.pages += u64::from(fresh);
        if level == 0 {
            c.leaf_pages += u64::from(fresh);
            if matches!(
                id,
                DICT_TABLES_ID | DICT_COLUMNS_ID | DICT_INDEXES_ID | DICT_FIELDS_ID
            ) {
                sys_pages.push((page_no, lsn, n));
            }
        }
    }
    // The newest copy of each page number, then newest first: of two
    // copies of one record (a page split, or purge moved it), the newer
    // page's wins.
    sys_pages.sort_by(|a, b| (a.0, b.1, a.2).cmp(&(b.0, a.1, b.2)));
    sys_pages.dedup_by_key(|p| p.0);
    let mut sys_pages: Vec<(u64, u32)> =
        sys_pages.into_iter().map(|(_, lsn, n)| (lsn, n)).collect();
    sys_pages.sort_by(|a, b| b.cmp(a));
    out.sys_pages = sys_pages.len() as u64;
    let mut records = Vec::new();
    let mut pages = LogicalPages::new(space);
    for &(_, n) in &sys_pages {
        read_page(&mut pages, n, &mut records, &mut out);
    }
    let live_ids: HashSet<u64> = live
        .map(|d| d.tables.iter().map(|t| t.id).collect())
        .unwrap_or_default();
    out.live_dictionary = live.is_some();
    out.tables = assemble(records, &live_ids);
    let mut undone = BTreeMap::new();
    for &n in &undo_pages {
        if let Some(p) = pages.read(n) {
            out.undo_records += remnants_undo::read_page(&p.bytes, &mut undone) as u64;
        }
    }
    out.undo_pages = undo_pages.len() as u64;
    add_undone(&mut out, undone, &live_ids);
    let known: HashSet<u64> = live
        .iter()
        .flat_map(|d| d.tables.iter())
        .chain(out.tables.iter())
        .flat_map(|t| t.indexes.iter().map(|i| i.id))
        .collect();
    out.unknown_indexes = out
        .pages_by_index
        .iter()
        .filter(|(id, _)| **id > DICT_HDR_FIRST_ID && **id < DICT_IBUF_ID_MIN)
        .filter(|(id, _)| !known.contains(id))
        .map(|(id, c)| (*id, *c))
        .collect();
    out
}

/// The tables only the undo log knows (not live, no `SYS_*` record read)
/// added to `out.tables`, in id order.
fn add_undone(out: &mut Remnants, undone: BTreeMap<u64, UndoneTable>, live: &HashSet<u64>) {
    for (id, u) in undone {
        if live.contains(&id) || id <= DICT_HDR_FIRST_ID || out.tables.iter().any(|t| t.id == id) {
            continue;
        }
        out.from_undo.push(id);
        out.tables.push(DictTable {
            name: u.name.unwrap_or_default(),
            id,
            n_cols: u32::try_from(u.columns.len()).unwrap_or(u32::MAX),
            flags: 0,
            space: 0,
            columns: Vec::new(),
            indexes: u
                .indexes
                .into_iter()
                .map(|(i, fields)| DictIndex {
                    id: i,
                    name: String::new(),
                    n_fields: u32::try_from(fields.len()).unwrap_or(u32::MAX),
                    index_type: 0,
                    space: 0,
                    root_page: innodb_format::FIL_NULL,
                    fields: Vec::new(),
                })
                .collect(),
            mysql: None,
        });
    }
    out.tables.sort_by_key(|t| t.id);
}

/// `DICT_HDR_FIRST_ID`: ids up to this one are the server's own.
const DICT_HDR_FIRST_ID: u64 = 10;

/// `DICT_IBUF_ID_MIN`: the change buffer's index ids start here.
const DICT_IBUF_ID_MIN: u64 = 0xFFFF_FFFF_0000_0000;

/// `PAGE_INDEX_ID`, `PAGE_LEVEL` and `FIL_PAGE_LSN` of an INDEX page's
/// first bytes; `None` for any other page.
fn index_page(b: &[u8]) -> Option<(u64, u16, u64)> {
    let t = u16_at(b, FIL_PAGE_TYPE, "FIL_PAGE_TYPE").ok()?;
    if PageType(t) != PageType::INDEX {
        return None;
    }
    Some((
        u64_at(b, PAGE_INDEX_ID, "PAGE_INDEX_ID").ok()?,
        u16_at(b, PAGE_LEVEL, "PAGE_LEVEL").ok()?,
        u64_at(b, FIL_PAGE_LSN, "FIL_PAGE_LSN").ok()?,
    ))
}

/// The deleted records of leaf page `n`: delete-marked ones of its record
/// list, then those of its garbage list (walked with bounds).
fn read_page(
    pages: &mut LogicalPages<'_>,
    n: u32,
    records: &mut Vec<SysRecord>,
    out: &mut Remnants,
) {
    let mut page_findings = Vec::new();
    let walk = btree::visit_one(pages, n, |v| {
        if v.page.format != RecordFormat::Redundant || v.page.header.level != 0 {
            return;
        }
        let id = v.page.header.index_id;
        for r in v.records.records.iter().filter(|r| r.is_deleted()) {
            out.delete_marked += 1;
            out.erased += u64::from(!push(v.page, n, id, r.origin, records, &mut page_findings));
        }
        let mut free = Vec::new();
        let mut problems = Vec::new();
        v.page.free_list(&mut free, &mut problems);
        for p in problems {
            page_findings.push(Finding::on_page(
                FindingKind::BadIndexPage,
                n,
                p.offset,
                p.field,
                p.message,
            ));
        }
        for origin in free {
            out.garbage += 1;
            out.erased += u64::from(!push(v.page, n, id, origin, records, &mut page_findings));
        }
    });
    out.findings.extend(walk);
    out.findings.extend(page_findings);
}

/// Decodes the record at `origin` of a page of `SYS_*` index `id` into
/// `records`; false when its fields are all zero bytes (erased); one that
/// does not decode otherwise is a finding.
fn push(
    page: &IndexPage<'_>,
    n: u32,
    id: u64,
    origin: usize,
    records: &mut Vec<SysRecord>,
    findings: &mut Vec<Finding>,
) -> bool {
    let bytes = page.bytes();
    let fields = RecordHeader::parse(bytes, origin, RecordFormat::Redundant, true)
        .ok()
        .and_then(|h| h.redundant_fields(bytes).ok());
    let data = bytes.get(origin..).unwrap_or(&[]);
    if let Some(f) = &fields {
        let end = f.iter().map(|x| x.start + x.len).max().unwrap_or(0);
        if data
            .get(..end)
            .is_some_and(innodb_format::bytes::is_all_zero)
        {
            return false;
        }
    }
    match fields.and_then(|f| sys_record::decode(id, data, &f, text)) {
        Some(r) => records.push(r),
        None => findings.push(Finding::on_page(
            FindingKind::Unreadable,
            n,
            origin,
            "deleted SYS_* record",
            format!("a deleted record of index {id} does not have the fields its table has"),
        )),
    }
    true
}

/// A name: UTF-8, not empty, no control characters (garbage bytes that
/// happen to parse are not taken for a name).
fn text(b: &[u8], f: &FieldRef) -> Option<String> {
    let s = std::str::from_utf8(b.get(f.start..f.start + f.len)?).ok()?;
    (!s.is_empty() && !s.chars().any(char::is_control)).then(|| s.to_string())
}

/// The tables the records make, the first record of each key winning
/// (the records come newest page first); ids in `live` left out.
fn assemble(records: Vec<SysRecord>, live: &HashSet<u64>) -> Vec<DictTable> {
    let mut tables: BTreeMap<u64, DictTable> = BTreeMap::new();
    let mut columns: BTreeMap<(u64, u32), DictColumn> = BTreeMap::new();
    let mut indexes: BTreeMap<(u64, u64), DictIndex> = BTreeMap::new();
    let mut fields: BTreeMap<(u64, u32), String> = BTreeMap::new();
    for r in records {
        match r {
            SysRecord::Table(t) => {
                tables.entry(t.id).or_insert(t);
            }
            SysRecord::Column(t, c) => {
                columns.entry((t, c.pos)).or_insert(c);
            }
            SysRecord::Index(t, i) => {
                indexes.entry((t, i.id)).or_insert(i);
            }
            SysRecord::Field(i, pos, name) => {
                // With a column prefix, POS holds the position in its high 16 bits.
                let pos = if pos > 0xFFFF { pos >> 16 } else { pos };
                fields.entry((i, pos)).or_insert(name);
            }
        }
    }
    for ((index_id, _), name) in fields {
        if let Some(i) = indexes.values_mut().find(|i| i.id == index_id) {
            i.fields.push(name);
        }
    }
    let orphan = |id| DictTable {
        name: String::new(),
        id,
        n_cols: 0,
        flags: 0,
        space: 0,
        columns: Vec::new(),
        indexes: Vec::new(),
        mysql: None,
    };
    for ((table_id, _), c) in columns {
        if !live.contains(&table_id) {
            tables
                .entry(table_id)
                .or_insert_with(|| orphan(table_id))
                .columns
                .push(c);
        }
    }
    for ((table_id, _), i) in indexes {
        if !live.contains(&table_id) {
            tables
                .entry(table_id)
                .or_insert_with(|| orphan(table_id))
                .indexes
                .push(i);
        }
    }
    tables.retain(|id, _| !live.contains(id));
    tables.into_values().collect()
}

//! `records`: the rows of an index in key order, decoded with the table's
//! columns (see `schema`): where each field of a record is (row versions
//! and instant ALTERs included), off-page parts followed, whether the
//! schema fits the records, and deleted rows with their confidence.

use crate::rows::field_layout::{compact_fields_into, leaf_places_into, Place};
use crate::rows::instant;
use crate::rows::mariadb_instant;
use crate::rows::off_page::blob;
pub use crate::rows::schema::{IndexField, Schema, SchemaIndex};
use innodb_format::index::record::{RecordFormat, RecordHeader};
use innodb_format::index::sdi::{ExternRef, BTR_EXTERN_FIELD_REF_SIZE};
use innodb_format::value::column_value::{RollPtr, Value};
use innodb_space::btree;
use innodb_space::logical_pages::LogicalPages;
use innodb_space::{Finding, FindingKind, Tablespace};
use serde::Serialize;

/// Where a row was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RowState {
    /// A record of the index.
    Live,
    /// Delete-marked: still in the index, deleted by a transaction, not yet purged.
    DeleteMarked,
    /// In a page's garbage list: a purged record whose bytes are still there
    /// until its space is reused (MySQL leaves them; MariaDB zeroes them, and
    /// such records are only counted, as `erased_records`).
    Garbage,
}

/// A record whose fields' places fit the page, with where it is.
struct RawRow<'p> {
    page: u32,
    origin: usize,
    state: RowState,
    confidence: Option<Confidence>,
    /// The page's bytes.
    bytes: &'p [u8],
    /// Where each field is ([`record_places`] found them on the page).
    places: &'p [Place],
}

/// Where a COMPACT record begins and ends by the schema's reading of it:
/// bytes before the origin (header, null bitmap, lengths) and after it.
#[derive(Debug, Clone, Copy)]
struct Extent {
    origin: usize,
    before: usize,
    after: usize,
    /// In the page's garbage list.
    garbage: bool,
    /// Where its fields' places begin in the page's places (see
    /// [`record_extents`]).
    first_place: usize,
}

impl Extent {
    fn start(&self) -> usize {
        self.origin.saturating_sub(self.before)
    }
    fn end(&self) -> usize {
        self.origin + self.after
    }
}

/// How far a deleted record's values can be trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// Parts of its bytes have been reused by a live record, or an
    /// off-page part is gone: some values are not the deleted row's.
    Low,
    /// Read whole, but nothing around it confirms where it ends.
    Medium,
    /// Intact: delete-marked and still in the index, or a garbage-list
    /// record whose bytes no live record has taken and which ends where a
    /// neighbour (or the heap) begins.
    High,
}

/// The confidence of the garbage-list record at `origin` among the
/// page's record `extents` (`heap_top`: where the heap ends).
fn garbage_confidence(origin: usize, extents: &[Extent], heap_top: usize) -> Confidence {
    let Some(g) = extents.iter().find(|e| e.origin == origin) else {
        return Confidence::Medium;
    };
    let overwritten = extents
        .iter()
        .any(|e| !e.garbage && e.start() < g.end() && g.start() < e.end());
    if overwritten {
        return Confidence::Low;
    }
    let meets = g.end() == heap_top
        || extents
            .iter()
            .any(|e| e.origin != origin && (e.end() == g.start() || g.end() == e.start()));
    if meets {
        Confidence::High
    } else {
        Confidence::Medium
    }
}

/// The bytes of the field at `p` of the record at `origin` (the local part
/// of an off-page column), and the reference to the rest; `None` when
/// they are not on the page.
fn field_bytes<'p>(
    bytes: &'p [u8],
    origin: usize,
    p: &Place,
) -> Option<(&'p [u8], Option<ExternRef>)> {
    let b = bytes.get(origin + p.start..origin + p.start + p.len)?;
    Some(if p.external && p.len >= BTR_EXTERN_FIELD_REF_SIZE {
        let (local, reference) = b.split_at_checked(p.len - BTR_EXTERN_FIELD_REF_SIZE)?;
        (local, ExternRef::parse(reference).ok())
    } else {
        (b, None)
    })
}

/// Where every field of the record `r` is: as [`record_extents`] already
/// found them (`known`), else laid out into `places`; `None` when its
/// layout does not fit the index's fields or runs past the record heap.
fn record_places<'a>(
    bytes: &[u8],
    r: &RecordHeader,
    format: RecordFormat,
    fields: &[IndexField],
    (heap_top, mariadb_core, known): (usize, Option<usize>, Option<&'a [Place]>),
    places: &'a mut Vec<Place>,
) -> Option<&'a [Place]> {
    let places: &[Place] = match known {
        Some(k) => k,
        None => {
            leaf_places_into(bytes, r, format, fields, mariadb_core, places)?;
            places
        }
    };
    let end = places.last().map_or(0, |p| p.start + p.len);
    // Every field on the page: what `field_bytes` needs to read it.
    let on_page = |p: &Place| r.origin + p.start + p.len <= bytes.len();
    (r.origin + end <= heap_top && places.iter().all(on_page)).then_some(places)
}

/// One row.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Row {
    /// Leaf page.
    pub page: u32,
    /// Record origin on the page.
    pub origin: usize,
    /// Not a live row (only listed with `--deleted`).
    pub deleted: bool,
    /// Live, delete-marked, or read from the garbage list.
    pub state: RowState,
    /// For a deleted row: how far its values can be trusted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
    /// Values, in field order.
    pub values: Vec<Value>,
    /// `DB_ROLL_PTR` taken apart, for clustered records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll_ptr: Option<RollPtr>,
    /// Off-page columns: the field's position and the first page of its
    /// BLOB chain or LOB (its 20-byte reference's `BTR_EXTERN_PAGE_NO`).
    #[serde(skip)]
    pub external: Vec<(usize, u32)>,
    /// What the undo logs tell of this version (uncommitted, or rebuilt
    /// from the undo log), when they were read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trx: Option<crate::rows::row_state::RowTrx>,
}

impl Row {
    /// A row of no values, to be filled by the reader.
    fn empty() -> Row {
        Row {
            page: 0,
            origin: 0,
            deleted: false,
            state: RowState::Live,
            confidence: None,
            values: Vec::new(),
            roll_ptr: None,
            external: Vec::new(),
            trx: None,
        }
    }
}

/// The `records` report.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RecordsReport {
    /// `db/table`.
    pub table: String,
    /// Index name.
    pub index: String,
    /// Index id.
    pub index_id: u64,
    /// Field names and types.
    pub fields: Vec<IndexField>,
    /// Rows in key order (garbage-list records after each page's list).
    pub rows: Vec<Row>,
    /// Garbage-list records whose bytes the server zeroed (with `--deleted`).
    pub erased_records: usize,
    /// How well the schema's reading of the COMPACT records fits the pages.
    pub layout: LayoutFit,
    /// Problems.
    pub findings: Vec<Finding>,
}

/// Records that do not fit the schema listed one by one, at most.
const MAX_RECORD_FINDINGS: usize = 20;

/// Whether a schema reads COMPACT records at their true size: records are
/// laid out one after another in the page heap, so with the right columns
/// a record's last byte is followed by the next record's header and null
/// bitmap and lengths. A wrong schema (other column types, a missing or
/// extra column) breaks this for most neighbours.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LayoutFit {
    /// Neighbouring records (in heap address order) compared.
    pub pairs: usize,
    /// Those where the first ends exactly where the second begins.
    pub fitting_pairs: usize,
    /// Records (not in a garbage list) the schema could not read at all.
    pub unreadable: usize,
}

impl LayoutFit {
    /// Adds the neighbours among one page's records, and empties `extents`.
    fn add_page(&mut self, extents: &mut Vec<Extent>) {
        // Records inserted in key order are already in address order.
        // Otherwise by address, two at one address (a damaged page) in
        // the order they were found, as a stable sort would.
        if extents.is_sorted_by_key(|e| e.origin) {
            self.add_pairs(extents.iter());
        } else {
            // Their places in address order, sorted as small keys.
            let mut order: Vec<u64> = (0..extents.len() as u64)
                .zip(extents.iter())
                .map(|(i, e)| (e.origin as u64) << 32 | i)
                .collect();
            order.sort_unstable();
            let place = |k: &u64| (k & u64::from(u32::MAX)) as usize;
            self.add_pairs(order.iter().filter_map(|k| extents.get(place(k))));
        }
        extents.clear();
    }

    /// Adds the neighbours among `extents` in address order.
    fn add_pairs<'e>(&mut self, extents: impl Iterator<Item = &'e Extent> + Clone) {
        for (a, b) in extents.clone().zip(extents.skip(1)) {
            self.pairs += 1;
            if a.origin + a.after + b.before == b.origin {
                self.fitting_pairs += 1;
            }
        }
    }

    /// True unless most neighbours disagree with the schema (fewer than
    /// half meet, records it cannot read counting against it); nothing
    /// compared counts as fitting.
    pub fn fits(&self) -> bool {
        self.fitting_pairs * 2 >= self.pairs + self.unreadable
    }
}

/// Why there are no records to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoRecords {
    /// No index of that name or id; the ones there are.
    NoIndex(Vec<String>),
}

impl RecordsReport {
    /// The rows of index `which` (name or id; the clustered index when `None`)
    /// of the table `schema` describes.
    pub fn build(
        space: &Tablespace,
        schema: &Schema,
        which: Option<&str>,
        deleted: bool,
        limit: Option<usize>,
    ) -> Result<RecordsReport, NoRecords> {
        Self::collect(space, schema, which, deleted, limit, None)
    }

    /// The rows of one leaf page `page` of index `which`, read from that
    /// page alone (and its BLOB pages): what a page view shows.
    pub fn build_page(
        space: &Tablespace,
        schema: &Schema,
        which: Option<&str>,
        page: u32,
    ) -> Result<RecordsReport, NoRecords> {
        Self::build_leaf(space, schema, which, page, false)
    }

    /// [`Self::build_page`], with delete-marked and garbage-list records
    /// when `deleted`.
    pub fn build_leaf(
        space: &Tablespace,
        schema: &Schema,
        which: Option<&str>,
        page: u32,
        deleted: bool,
    ) -> Result<RecordsReport, NoRecords> {
        Self::collect(space, schema, which, deleted, None, Some(page))
    }

    /// The rows of index `which`, each handed to `sink` as soon as it is
    /// decoded, in key order: nothing is kept, whatever the index's size.
    /// The report returned has no `rows`; its findings, `layout` and
    /// `erased_records` are those of the whole index (or of what was read
    /// before the sink said to stop).
    pub fn stream(
        space: &Tablespace,
        schema: &Schema,
        which: Option<&str>,
        deleted: bool,
        limit: Option<usize>,
        sink: &mut dyn RowSink,
    ) -> Result<RecordsReport, NoRecords> {
        Self::build_from(space, schema, which, deleted, limit, None, sink)
    }

    /// How well `schema` fits the records of the first `leaf_pages` leaf
    /// pages of index `which` (the look-ahead a streamed listing can
    /// afford): nothing is decoded.
    pub fn sample_fit(
        space: &Tablespace,
        schema: &Schema,
        which: Option<&str>,
        leaf_pages: usize,
    ) -> Result<LayoutFit, NoRecords> {
        let index = find_index(schema, which)?;
        let mut pages = LogicalPages::new(space);
        let mut findings = Vec::new();
        let (fields, mariadb_core) =
            fields_after_instant_alter(&mut pages, schema, index, &mut findings);
        let mut layout = LayoutFit::default();
        let mut seen = 0usize;
        let (mut places, mut page_places) = (Vec::new(), Vec::new());
        btree::walk_leaves_while(&mut pages, index.root_page, |v| {
            if v.page.header.level != 0 || v.page.header.index_id != index.id {
                return true;
            }
            let garbage = garbage_list(v);
            if v.page.format == RecordFormat::Compact {
                let mut extents = record_extents(
                    v,
                    &garbage,
                    (&fields, mariadb_core),
                    &mut places,
                    &mut page_places,
                );
                let heap_top = usize::from(v.page.header.heap_top);
                let unreadable = v
                    .records
                    .records
                    .iter()
                    .filter(|r| !r.is_min_rec() && !r.is_deleted())
                    .filter(|r| r.info_bits & instant::REC_INFO_INSTANT_FLAG == 0)
                    .filter(|r| {
                        let bytes = v.page.bytes();
                        let at = (heap_top, mariadb_core, None);
                        record_places(bytes, r, v.page.format, &fields, at, &mut places).is_none()
                    })
                    .count();
                layout.unreadable += unreadable;
                layout.add_page(&mut extents);
            }
            seen += 1;
            seen < leaf_pages
        });
        Ok(layout)
    }

    /// Reads the records of the index's leaf pages (or of `only_page`),
    /// decodes their values and hands each row to `on_row`; checks the
    /// schema against them as it goes.
    fn build_from(
        space: &Tablespace,
        schema: &Schema,
        which: Option<&str>,
        deleted: bool,
        limit: Option<usize>,
        only_page: Option<u32>,
        sink: &mut dyn RowSink,
    ) -> Result<RecordsReport, NoRecords> {
        let index = find_index(schema, which)?;
        let mut pages = LogicalPages::new(space);
        let mut findings = Vec::new();
        let (fields, mariadb_core) =
            fields_after_instant_alter(&mut pages, schema, index, &mut findings);
        let head = |fields: Vec<IndexField>, erased_records, layout, findings| RecordsReport {
            table: schema.table.clone(),
            index: index.name.clone(),
            index_id: index.id,
            fields,
            rows: Vec::new(),
            erased_records,
            layout,
            findings,
        };
        sink.start(&head(fields.clone(), 0, LayoutFit::default(), Vec::new()));
        let mut reader = LeafReader {
            index,
            fields: &fields,
            mariadb_core,
            deleted,
            limit,
            rows: 0,
            stopped: false,
            sink,
            blobs: LogicalPages::new(space),
            buf: Vec::new(),
            places: Vec::new(),
            page_places: Vec::new(),
            row: Row::empty(),
            decode_findings: Vec::new(),
            erased: 0,
            layout: LayoutFit::default(),
            findings: Vec::new(),
        };
        let walk_findings = match only_page {
            None => {
                btree::walk_leaves_while(&mut pages, index.root_page, |v| {
                    reader.read_page(v);
                    !reader.stopped
                })
                .findings
            }
            Some(n) => btree::visit_one(&mut pages, n, |v| reader.read_page(v)),
        };
        let LeafReader {
            erased,
            layout,
            findings: record_findings,
            decode_findings,
            ..
        } = reader;
        findings.extend(record_findings);
        findings.extend(walk_findings);
        if !layout.fits() {
            findings.insert(0, schema_misfit(&layout, fields.len(), index));
        }
        findings.extend(decode_findings);
        Ok(head(fields, erased, layout, findings))
    }

    /// [`Self::build_from`] with the rows kept in the report.
    fn collect(
        space: &Tablespace,
        schema: &Schema,
        which: Option<&str>,
        deleted: bool,
        limit: Option<usize>,
        only_page: Option<u32>,
    ) -> Result<RecordsReport, NoRecords> {
        let mut rows = Kept(Vec::new());
        let mut report =
            Self::build_from(space, schema, which, deleted, limit, only_page, &mut rows)?;
        report.rows = rows.0;
        Ok(report)
    }
}

/// Where a streamed listing's rows go.
pub trait RowSink {
    /// Before the first row: the report's table, index and fields (no
    /// rows, no findings yet).
    fn start(&mut self, head: &RecordsReport);
    /// One row; false to stop reading (the reader of the output is gone).
    /// The row is the reader's, reused for the next one (its values keep
    /// their allocations): a sink that keeps it clones it.
    fn row(&mut self, row: &Row) -> bool;
    /// A new set of rows begins (`records --deleted`: the deleted rows
    /// after the live ones), titled `title`.
    fn section(&mut self, _title: &str) {}
}

/// Rows kept in memory, for the reports that show them all.
struct Kept(Vec<Row>);

impl RowSink for Kept {
    fn start(&mut self, _: &RecordsReport) {}
    fn row(&mut self, row: &Row) -> bool {
        self.0.push(row.clone());
        true
    }
}

/// The index `which` names (by name or id), the clustered one when `None`;
/// when there is none, the indexes there are.
fn find_index<'s>(schema: &'s Schema, which: Option<&str>) -> Result<&'s SchemaIndex, NoRecords> {
    match which {
        None => schema.indexes.iter().find(|i| i.clustered),
        Some(w) => schema
            .indexes
            .iter()
            .find(|i| i.name == w || i.id.to_string() == w),
    }
    .ok_or_else(|| {
        NoRecords::NoIndex(
            schema
                .indexes
                .iter()
                .map(|i| format!("{} ({})", i.name, i.id))
                .collect(),
        )
    })
}

/// The fields the index's records are read with, and MariaDB's
/// `n_core_fields` when a MariaDB instant ALTER changed the clustered index
/// (its metadata record then gives the fields). Metadata that cannot be
/// read is a finding, and the schema's fields are used as they are.
fn fields_after_instant_alter(
    pages: &mut LogicalPages<'_>,
    schema: &Schema,
    index: &SchemaIndex,
    findings: &mut Vec<Finding>,
) -> (Vec<IndexField>, Option<usize>) {
    let fields = index.fields.clone();
    if !index.clustered {
        return (fields, None);
    }
    match mariadb_instant::prepare(pages, index.root_page, schema, &fields) {
        Ok(Some(m)) => (m.fields, Some(m.n_core)),
        Ok(None) => (fields, None),
        Err(e) => {
            findings.push(Finding::on_page(
                FindingKind::Unreadable,
                index.root_page,
                0,
                "instant ALTER metadata",
                format!("{e}: the records are read as if no column had been added or dropped"),
            ));
            (fields, None)
        }
    }
}

/// What is gathered while the index's leaf pages are read one after
/// another: each record's field bytes, not yet decoded.
struct LeafReader<'a, 's> {
    index: &'a SchemaIndex,
    fields: &'a [IndexField],
    mariadb_core: Option<usize>,
    /// Delete-marked and garbage-list records are read too.
    deleted: bool,
    limit: Option<usize>,
    /// Rows handed on so far.
    rows: usize,
    /// The sink said to stop.
    stopped: bool,
    /// Where each row goes once decoded.
    sink: &'a mut dyn RowSink,
    /// Off-page parts are read through these (the walk holds its own).
    blobs: LogicalPages<'s>,
    buf: Vec<u8>,
    /// Where the fields of the record being read are (reused).
    places: Vec<Place>,
    /// Where the fields of every record of the page are, as
    /// [`record_extents`] found them.
    page_places: Vec<Place>,
    /// The row handed to the sink, reused from record to record (its
    /// values keep their strings' allocations).
    row: Row,
    /// Problems found while values were decoded (broken BLOB chains),
    /// listed after those of the walk.
    decode_findings: Vec<Finding>,
    /// Garbage-list records the server zeroed.
    erased: usize,
    layout: LayoutFit,
    findings: Vec<Finding>,
}

impl LeafReader<'_, '_> {
    /// True when `limit` rows have been read.
    fn full(&self) -> bool {
        self.stopped || self.limit.is_some_and(|l| self.rows >= l)
    }

    /// Reads the records of one page of the walk when it is a leaf of the
    /// index, and adds how well the schema fits them.
    fn read_page(&mut self, v: &btree::PageVisit<'_>) {
        if v.page.header.level != 0 || v.page.header.index_id != self.index.id || self.full() {
            return;
        }
        let garbage = garbage_list(v);
        let mut extents = match v.page.format {
            RecordFormat::Compact => record_extents(
                v,
                &garbage,
                (self.fields, self.mariadb_core),
                &mut self.places,
                &mut self.page_places,
            ),
            RecordFormat::Redundant => Vec::new(),
        };
        // The records are read in the order their extents were made.
        let mut next_extent = 0;
        for (r, state) in candidate_records(v, &garbage, self.deleted) {
            if self.full() {
                break;
            }
            self.read_record(v, &r, state, (&extents, &mut next_extent));
        }
        self.layout.add_page(&mut extents);
    }

    /// Reads the fields of record `r` in state `state`; `extents` are the
    /// page's records as the schema lays them out, those before
    /// `next_extent` passed.
    fn read_record(
        &mut self,
        v: &btree::PageVisit<'_>,
        r: &RecordHeader,
        state: RowState,
        (extents, next_extent): (&[Extent], &mut usize),
    ) {
        if v.page.format == RecordFormat::Compact
            && r.info_bits & instant::REC_INFO_INSTANT_FLAG != 0
        {
            self.findings.push(Finding::on_page(
                FindingKind::Unreadable,
                v.page_no,
                r.origin,
                "info bits",
                "the record stores its field count (INSTANT ADD COLUMN of MySQL 8.0.12–8.0.28), which is not decoded yet",
            ));
            return;
        }
        let bytes = v.page.bytes();
        let heap_top = usize::from(v.page.header.heap_top);
        let known = known_places(extents, &self.page_places, r.origin, next_extent);
        let at = (heap_top, self.mariadb_core, known);
        let Some(places) =
            record_places(bytes, r, v.page.format, self.fields, at, &mut self.places)
        else {
            if state != RowState::Garbage {
                self.unreadable_record(v.page_no, r.origin);
            }
            return;
        };
        // The server may have zeroed a purged record (MariaDB does):
        // nothing of it is left to read.
        if state == RowState::Garbage && all_zero(bytes, r.origin, places) {
            self.erased += 1;
            return;
        }
        let raw = RawRow {
            page: v.page_no,
            origin: r.origin,
            state,
            confidence: match state {
                RowState::Live => None,
                RowState::DeleteMarked => Some(Confidence::High),
                RowState::Garbage => Some(garbage_confidence(r.origin, extents, heap_top)),
            },
            bytes,
            places,
        };
        decode_row(
            &raw,
            self.fields,
            &mut self.blobs,
            &mut self.buf,
            &mut self.decode_findings,
            &mut self.row,
        );
        self.rows += 1;
        self.stopped = !self.sink.row(&self.row);
    }

    /// Counts a record the schema cannot read, and names the first few.
    fn unreadable_record(&mut self, page_no: u32, origin: usize) {
        self.layout.unreadable += 1;
        // The first few by place; the schema finding counts them all.
        if self.layout.unreadable > MAX_RECORD_FINDINGS {
            return;
        }
        self.findings.push(Finding::on_page(
            FindingKind::Unreadable,
            page_no,
            origin,
            "record",
            format!(
                "the record does not have the {} fields of index {}",
                self.fields.len(),
                self.index.name
            ),
        ))
    }
}

/// The origins of the records in the page's garbage list.
fn garbage_list(v: &btree::PageVisit<'_>) -> Vec<usize> {
    let (mut free, mut problems) = (Vec::new(), Vec::new());
    v.page.free_list(&mut free, &mut problems);
    free
}

/// Where every record in a COMPACT page's heap begins and ends by the
/// schema, shown or not (`garbage`: the garbage list), so that deleted
/// ones between live ones do not break the neighbourhood.
///
/// The places of each record's fields go to `page_places` (`places` is
/// room to work in), so that reading the records does not lay them out
/// again.
fn record_extents(
    v: &btree::PageVisit<'_>,
    garbage: &[usize],
    (fields, mariadb_core): (&[IndexField], Option<usize>),
    places: &mut Vec<Place>,
    page_places: &mut Vec<Place>,
) -> Vec<Extent> {
    page_places.clear();
    let bytes = v.page.bytes();
    let live = v
        .records
        .records
        .iter()
        .filter(|r| !r.is_min_rec())
        .map(|r| (r.origin, false));
    let heap = live.chain(garbage.iter().map(|&o| (o, true)));
    let mut extents = Vec::new();
    for (o, garbage) in heap {
        if let Ok(h) = RecordHeader::parse(bytes, o, v.page.format, true) {
            if let Some(before) = compact_fields_into(bytes, &h, fields, mariadb_core, places) {
                extents.push(Extent {
                    origin: o,
                    before,
                    after: places.last().map_or(0, |p| p.start + p.len),
                    garbage,
                    first_place: page_places.len(),
                });
                page_places.extend_from_slice(places);
            }
        }
    }
    extents
}

/// The places [`record_extents`] found for the record at `origin`, looked
/// for from extent `*next` on, and `*next` moved past it.
fn known_places<'p>(
    extents: &[Extent],
    page_places: &'p [Place],
    origin: usize,
    next: &mut usize,
) -> Option<&'p [Place]> {
    let ahead = extents.get(*next..)?;
    let k = *next + ahead.iter().position(|e| e.origin == origin)?;
    *next = k + 1;
    let first = extents.get(k)?.first_place;
    let end = extents
        .get(k + 1)
        .map_or(page_places.len(), |e| e.first_place);
    page_places.get(first..end)
}

/// The page's records to show, in key order, then (with `deleted`) those
/// of its `garbage` list: purged or deleted, still readable.
fn candidate_records<'v>(
    v: &'v btree::PageVisit<'_>,
    garbage: &'v [usize],
    deleted: bool,
) -> impl Iterator<Item = (RecordHeader, RowState)> + 'v {
    let listed = v
        .records
        .records
        .iter()
        .filter(|r| !r.is_min_rec())
        .filter(move |r| deleted || !r.is_deleted())
        .map(|r| {
            let state = if r.is_deleted() {
                RowState::DeleteMarked
            } else {
                RowState::Live
            };
            (*r, state)
        });
    let purged = garbage
        .iter()
        .filter(move |_| deleted)
        .filter_map(|&o| RecordHeader::parse(v.page.bytes(), o, v.page.format, true).ok())
        .map(|h| (h, RowState::Garbage));
    listed.chain(purged)
}

/// True when every byte of every field (at `places`) of the record at
/// `origin` is zero (of an off-page column: of its local part).
fn all_zero(bytes: &[u8], origin: usize, places: &[Place]) -> bool {
    places
        .iter()
        .all(|p| field_bytes(bytes, origin, p).is_some_and(|(b, _)| b.iter().all(|&x| x == 0)))
}

/// The finding that the schema does not fit the records (`n_fields`
/// fields read), first among the report's findings.
fn schema_misfit(layout: &LayoutFit, n_fields: usize, index: &SchemaIndex) -> Finding {
    Finding::on_page(
        FindingKind::Unreadable,
        index.root_page,
        0,
        "schema",
        format!(
            "the schema does not fit the records: read with its {} fields, {} records cannot be read at all and only {} of {} neighbouring records of the leaf pages meet where the next one begins; the values are not to be trusted",
            n_fields,
            layout.unreadable,
            layout.fitting_pairs,
            layout.pairs
        ),
    )
}

/// The values of a record read by [`LeafReader`], off-page parts followed,
/// into `row` (the last record's, whose values' allocations are reused).
fn decode_row(
    raw: &RawRow,
    fields: &[IndexField],
    pages: &mut LogicalPages<'_>,
    buf: &mut Vec<u8>,
    findings: &mut Vec<Finding>,
    row: &mut Row,
) {
    row.values.resize(raw.places.len(), Value::Null);
    row.roll_ptr = None;
    row.external.clear();
    for (i, ((p, f), slot)) in raw
        .places
        .iter()
        .zip(fields)
        .zip(row.values.iter_mut())
        .enumerate()
    {
        if p.absent {
            // Older than an INSTANT ADD (its default) or newer than a DROP.
            *slot = match &f.instant.default {
                Some(d) if f.instant.version_dropped == 0 => f.value(d),
                _ => Value::Null,
            };
            continue;
        }
        // Never `None`: `record_places` checked every field.
        let Some((mut b, external)) = field_bytes(raw.bytes, raw.origin, p).filter(|_| !p.null)
        else {
            *slot = Value::Null;
            continue;
        };
        let mut whole;
        if let Some(r) = external {
            row.external.push((i, r.page_no));
            whole = b.to_vec();
            let followed = append_off_page(pages, r, &mut whole, buf, raw.state, findings);
            b = &whole;
            if let Err(m) = followed {
                *slot = Value::Undecoded {
                    undecoded: format!("off-page column: {m}"),
                };
                continue;
            }
        }
        if f.name == "DB_ROLL_PTR" {
            row.roll_ptr = RollPtr::parse(b);
        }
        f.value_into(b, slot);
    }
    row.page = raw.page;
    row.origin = raw.origin;
    row.deleted = raw.state != RowState::Live;
    row.state = raw.state;
    // A value that could not be read (an off-page part gone) lowers it.
    row.confidence = match raw.confidence {
        Some(_)
            if row
                .values
                .iter()
                .any(|v| matches!(v, Value::Undecoded { .. })) =>
        {
            Some(Confidence::Low)
        }
        c => c,
    };
    row.trx = None;
}

/// Appends to `local` the off-page part its reference `r` points to. A
/// chain that cannot be followed, or goes on past the value, is a finding
/// unless the record is a purged one (whose pages may have been freed and
/// reused); the error is why the value cannot be read.
fn append_off_page(
    pages: &mut LogicalPages<'_>,
    r: ExternRef,
    local: &mut Vec<u8>,
    buf: &mut Vec<u8>,
    state: RowState,
    findings: &mut Vec<Finding>,
) -> Result<(), String> {
    let report = state != RowState::Garbage;
    match blob(pages, r, buf) {
        Ok(rest) => {
            local.extend_from_slice(&rest.bytes);
            if let Some((page, offset, m)) = rest.trailing_link {
                if report {
                    findings.push(Finding::on_page(
                        FindingKind::BrokenList,
                        page,
                        offset,
                        "BTR_BLOB_HDR_NEXT_PAGE_NO",
                        m,
                    ));
                }
            }
            Ok(())
        }
        Err(m) => {
            if report {
                findings.push(Finding::on_page(
                    FindingKind::BrokenList,
                    r.page_no,
                    r.offset as usize,
                    "BLOB chain",
                    m.clone(),
                ));
            }
            Err(m)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ext(origin: usize, before: usize, after: usize, garbage: bool) -> Extent {
        Extent {
            origin,
            before,
            after,
            garbage,
            first_place: 0,
        }
    }

    #[test]
    fn garbage_confidence_by_neighbours_and_overlap() {
        // Live records at 125..150 and 150..180; garbage at 180..210 meets the second.
        let page = [
            ext(130, 5, 20, false),
            ext(155, 5, 25, false),
            ext(185, 5, 25, true),
        ];
        assert_eq!(garbage_confidence(185, &page, 400), Confidence::High);
        // Ending at the heap top also confirms it.
        let alone = [ext(130, 5, 20, false), ext(305, 5, 95, true)];
        assert_eq!(garbage_confidence(305, &alone, 400), Confidence::High);
        // Meeting nothing: read, but unconfirmed.
        let adrift = [ext(130, 5, 20, false), ext(205, 5, 20, true)];
        assert_eq!(garbage_confidence(205, &adrift, 400), Confidence::Medium);
        // A live record written over part of it.
        let reused = [
            ext(130, 5, 20, false),
            ext(145, 5, 30, true),
            ext(160, 5, 20, false),
        ];
        assert_eq!(garbage_confidence(145, &reused, 400), Confidence::Low);
        // A record whose layout could not be worked out.
        assert_eq!(garbage_confidence(999, &page, 400), Confidence::Medium);
    }
}

//! `records`: the rows of an index in key order, decoded with the table's
//! columns from the data dictionary (`--system ibdata1`).

use innodb_format::column_value::{self, ColumnType, RollPtr, Value, DATA_SYS};
use innodb_format::record::{RecordFormat, RecordHeader, RecordType};
use innodb_format::sdi::{self, ExternRef, BTR_EXTERN_FIELD_REF_SIZE};
use innodb_space::btree;
use innodb_space::dictionary::{DictIndex, DictTable, Dictionary};
use innodb_space::logical_pages::LogicalPages;
use innodb_space::{Finding, FindingKind, Tablespace};
use serde::Serialize;

/// One field of the index's records.
#[derive(Debug, Clone, Serialize)]
pub struct IndexField {
    /// Column name (`DB_ROW_ID`, `DB_TRX_ID`, `DB_ROLL_PTR` for the hidden ones).
    pub name: String,
    /// Its type.
    pub column_type: ColumnType,
}

/// Where a row was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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

struct RawField {
    bytes: Vec<u8>,
    null: bool,
    external: Option<ExternRef>,
}

struct RawRow {
    page: u32,
    origin: usize,
    state: RowState,
    fields: Vec<RawField>,
}

/// Every field's bytes of the record `r`, or `None` when its layout does
/// not fit the index's fields or runs past the record heap.
fn raw_fields(
    bytes: &[u8],
    r: &RecordHeader,
    format: RecordFormat,
    fields: &[IndexField],
    heap_top: usize,
) -> Option<Vec<RawField>> {
    let places: Vec<(usize, usize, bool, bool)> = match format {
        RecordFormat::Compact => compact_fields(bytes, r, fields)?,
        RecordFormat::Redundant => r
            .redundant_fields(bytes)
            .ok()
            .filter(|f| f.len() == fields.len())?
            .iter()
            .map(|f| (f.start, f.len, f.null, f.external))
            .collect(),
    };
    let end = places.last().map_or(0, |p| p.0 + p.1);
    if r.origin + end > heap_top {
        return None;
    }
    places
        .into_iter()
        .map(|(start, len, null, ext)| {
            let b = bytes.get(r.origin + start..r.origin + start + len)?;
            Some(if null {
                RawField {
                    bytes: Vec::new(),
                    null: true,
                    external: None,
                }
            } else if ext && len >= BTR_EXTERN_FIELD_REF_SIZE {
                let split = len - BTR_EXTERN_FIELD_REF_SIZE;
                RawField {
                    bytes: b[..split].to_vec(),
                    null: false,
                    external: ExternRef::parse(&b[split..]).ok(),
                }
            } else {
                RawField {
                    bytes: b.to_vec(),
                    null: false,
                    external: None,
                }
            })
        })
        .collect()
}

/// One row.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Leaf page.
    pub page: u32,
    /// Record origin on the page.
    pub origin: usize,
    /// Not a live row (only listed with `--deleted`).
    pub deleted: bool,
    /// Live, delete-marked, or read from the garbage list.
    pub state: RowState,
    /// Values, in field order.
    pub values: Vec<Value>,
    /// `DB_ROLL_PTR` taken apart, for clustered records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll_ptr: Option<RollPtr>,
}

/// The `records` report.
#[derive(Debug, Clone, Serialize)]
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
    /// Problems.
    pub findings: Vec<Finding>,
}

/// Why there are no records to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoRecords {
    /// The dictionary has no table in this tablespace.
    NoTable(u32),
    /// No index of that name or id; the ones there are.
    NoIndex(Vec<String>),
}

fn sys(name: &str, len: u32) -> IndexField {
    IndexField {
        name: name.into(),
        column_type: ColumnType {
            mtype: DATA_SYS,
            prtype: column_value::DATA_NOT_NULL,
            len,
        },
    }
}

/// The fields of `index`'s leaf records, in order.
fn index_fields(table: &DictTable, index: &DictIndex) -> Vec<IndexField> {
    let col = |name: &str| {
        table
            .columns
            .iter()
            .find(|c| c.name == name)
            .map(|c| IndexField {
                name: c.name.clone(),
                column_type: ColumnType {
                    mtype: c.mtype,
                    prtype: c.prtype,
                    len: c.len,
                },
            })
    };
    let clustered_index = table.indexes.iter().find(|i| i.index_type & 1 != 0);
    let mut out: Vec<IndexField> = Vec::new();
    if index.index_type & 1 != 0 {
        if index.name == "GEN_CLUST_INDEX" {
            out.push(sys("DB_ROW_ID", 6));
        } else {
            out.extend(index.fields.iter().filter_map(|f| col(f)));
        }
        out.push(sys("DB_TRX_ID", 6));
        out.push(sys("DB_ROLL_PTR", 7));
        let mut cols: Vec<_> = table.columns.iter().collect();
        cols.sort_by_key(|c| c.pos);
        for c in cols {
            if !index.fields.contains(&c.name) {
                out.extend(col(&c.name));
            }
        }
    } else {
        out.extend(index.fields.iter().filter_map(|f| col(f)));
        match clustered_index {
            Some(ci) if ci.name == "GEN_CLUST_INDEX" => out.push(sys("DB_ROW_ID", 6)),
            Some(ci) => {
                for f in &ci.fields {
                    if !index.fields.contains(f) {
                        out.extend(col(f));
                    }
                }
            }
            None => {}
        }
    }
    out
}

/// Where each field of a COMPACT leaf record is: (start, len, null, external).
fn compact_fields(
    page: &[u8],
    rec: &RecordHeader,
    fields: &[IndexField],
) -> Option<Vec<(usize, usize, bool, bool)>> {
    let n_nullable = fields.iter().filter(|f| f.column_type.nullable()).count();
    let extra = |i: usize| {
        rec.origin
            .checked_sub(6 + i)
            .and_then(|a| page.get(a).copied())
    };
    let mut null_i = 0usize;
    let mut len_at = n_nullable.div_ceil(8);
    let mut start = 0usize;
    let mut out = Vec::with_capacity(fields.len());
    for f in fields {
        let t = &f.column_type;
        if t.nullable() {
            let is_null = extra(null_i / 8)? >> (null_i % 8) & 1 == 1;
            null_i += 1;
            if is_null {
                out.push((start, 0, true, false));
                continue;
            }
        }
        let (len, ext) = match t.fixed_size() {
            Some(n) => (n, false),
            None => {
                let b = usize::from(extra(len_at)?);
                len_at += 1;
                if t.big() && b & 0x80 != 0 {
                    let v = (b << 8) | usize::from(extra(len_at)?);
                    len_at += 1;
                    (v & 0x3fff, v & 0x4000 != 0)
                } else {
                    (b, false)
                }
            }
        };
        out.push((start, len, false, ext));
        start += len;
    }
    Some(out)
}

impl RecordsReport {
    /// The rows of index `which` (name or id; the clustered index when `None`)
    /// of the table `dict` places in `space`.
    pub fn build(
        space: &Tablespace,
        dict: &Dictionary,
        which: Option<&str>,
        deleted: bool,
        limit: Option<usize>,
    ) -> Result<RecordsReport, NoRecords> {
        let sid = space.space_id();
        let table = dict.tables_in(sid).next().ok_or(NoRecords::NoTable(sid))?;
        let index = match which {
            None => table.indexes.iter().find(|i| i.index_type & 1 != 0),
            Some(w) => table
                .indexes
                .iter()
                .find(|i| i.name == w || i.id.to_string() == w),
        }
        .ok_or_else(|| {
            NoRecords::NoIndex(
                table
                    .indexes
                    .iter()
                    .map(|i| format!("{} ({})", i.name, i.id))
                    .collect(),
            )
        })?;
        let fields = index_fields(table, index);
        let mut pages = LogicalPages::new(space);
        let mut rows = Vec::new();
        let mut findings = Vec::new();
        let mut raw_rows: Vec<RawRow> = Vec::new();
        let mut erased = 0usize;
        let walk = btree::walk(&mut pages, index.root_page, |v| {
            if v.page.header.level != 0 || limit.is_some_and(|l| raw_rows.len() >= l) {
                return;
            }
            let bytes = v.page.bytes();
            let heap_top = usize::from(v.page.header.heap_top);
            let mut candidates: Vec<(RecordHeader, RowState)> = v
                .records
                .records
                .iter()
                .filter(|r| r.record_type != RecordType::Instant && !r.is_min_rec())
                .filter(|r| deleted || !r.is_deleted())
                .map(|r| {
                    (
                        *r,
                        if r.is_deleted() {
                            RowState::DeleteMarked
                        } else {
                            RowState::Live
                        },
                    )
                })
                .collect();
            if deleted {
                // Records in the page's garbage list: purged or deleted, still readable.
                let mut free = Vec::new();
                let mut problems = Vec::new();
                v.page.free_list(&mut free, &mut problems);
                for o in free {
                    if let Ok(h) = RecordHeader::parse(bytes, o, v.page.format, true) {
                        candidates.push((h, RowState::Garbage));
                    }
                }
            }
            for (r, state) in candidates {
                if limit.is_some_and(|l| raw_rows.len() >= l) {
                    break;
                }
                match raw_fields(bytes, &r, v.page.format, &fields, heap_top) {
                    // The server may have zeroed a purged record (MariaDB
                    // does): nothing of it is left to read.
                    Some(f)
                        if state == RowState::Garbage
                            && f.iter().all(|f| f.bytes.iter().all(|&b| b == 0)) =>
                    {
                        erased += 1;
                    }
                    Some(f) => raw_rows.push(RawRow {
                        page: v.page_no,
                        origin: r.origin,
                        state,
                        fields: f,
                    }),
                    None if state == RowState::Garbage => {}
                    None => findings.push(Finding::on_page(
                        FindingKind::Unreadable,
                        v.page_no,
                        r.origin,
                        "record",
                        format!(
                            "the record does not have the {} fields of index {}",
                            fields.len(),
                            index.name
                        ),
                    )),
                }
            }
        });
        findings.extend(walk.findings);
        let mut buf = Vec::new();
        for raw in raw_rows {
            let mut values = Vec::with_capacity(raw.fields.len());
            let mut roll_ptr = None;
            for (rf, f) in raw.fields.into_iter().zip(&fields) {
                if rf.null {
                    values.push(Value::Null);
                    continue;
                }
                let mut b = rf.bytes;
                if let Some(r) = rf.external {
                    match blob(&mut pages, r, &mut buf) {
                        Ok(rest) => b.extend_from_slice(&rest),
                        Err(m) if raw.state == RowState::Garbage => {
                            // A purged record's BLOB pages may be freed and reused.
                            let _ = m;
                        }
                        Err(m) => findings.push(Finding::on_page(
                            FindingKind::BrokenList,
                            r.page_no,
                            r.offset as usize,
                            "BLOB chain",
                            m,
                        )),
                    }
                }
                if f.name == "DB_ROLL_PTR" {
                    roll_ptr = RollPtr::parse(&b);
                }
                values.push(if f.column_type.mtype == DATA_SYS {
                    Value::UInt(b.iter().fold(0u64, |a, &x| (a << 8) | u64::from(x)))
                } else {
                    column_value::decode(&f.column_type, &b)
                });
            }
            rows.push(Row {
                page: raw.page,
                origin: raw.origin,
                deleted: raw.state != RowState::Live,
                state: raw.state,
                values,
                roll_ptr,
            });
        }
        Ok(RecordsReport {
            table: table.name.clone(),
            index: index.name.clone(),
            index_id: index.id,
            fields,
            rows,
            erased_records: erased,
            findings,
        })
    }
}

/// The off-page part of a column: an old-style BLOB page chain, bounded by
/// its length and the file, a page met twice being a cycle.
fn blob(pages: &mut LogicalPages<'_>, r: ExternRef, buf: &mut Vec<u8>) -> Result<Vec<u8>, String> {
    let want = usize::try_from(r.length)
        .unwrap_or(usize::MAX)
        .min(sdi::MAX_SDI_BYTES * 16);
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let (mut page, mut offset) = (r.page_no, r.offset as usize);
    while out.len() < want {
        if page == innodb_format::FIL_NULL {
            return Err(format!(
                "the chain ends after {} of {want} bytes",
                out.len()
            ));
        }
        if !seen.insert(page) {
            return Err(format!("cycle: page {page} comes back"));
        }
        pages
            .read_into(page, buf)
            .ok_or_else(|| format!("BLOB page {page} cannot be read"))?;
        let (part, next) = sdi::blob_part(buf, offset).map_err(|e| format!("page {page}: {e}"))?;
        out.extend_from_slice(part);
        page = next;
        offset = innodb_format::fil_header::FIL_PAGE_DATA;
    }
    out.truncate(want);
    Ok(out)
}

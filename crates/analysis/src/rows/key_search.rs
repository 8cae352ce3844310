//! Finding a row by its primary key the way the server does: down the
//! clustered index from the root, at each level into the child of the last
//! node pointer whose key is not above the key sought, then through the
//! leaf page's records. Reads one page per level.

use crate::rows::field_layout::compact_fields;
use crate::rows::records::{IndexField, RecordsReport, Schema};
use innodb_format::index::header::IndexHeader;
use innodb_format::index::page::{IndexPage, RecordList};
use innodb_format::index::record::{RecordFormat, RecordHeader, RecordType};
use innodb_format::value::column_value::Value;
use innodb_space::logical_pages::LogicalPages;
use innodb_space::Tablespace;
use std::cmp::Ordering;

/// Levels a descent goes through at most (a B+tree of 64 levels does not
/// exist; a longer path is a cycle).
const MAX_DEPTH: usize = 64;

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySearch {
    /// The row's leaf page and record origin, with the pages read on the way.
    Found {
        /// Leaf page.
        page: u32,
        /// Record origin.
        origin: usize,
        /// The pages descended through, root first.
        path: Vec<u32>,
    },
    /// No row has the key; the leaf page where it would be.
    NotFound {
        /// The leaf page searched.
        page: u32,
        /// The pages descended through, root first.
        path: Vec<u32>,
    },
    /// The key cannot be compared by descent (a non-integer key column, a
    /// key of the wrong number of values) or the tree cannot be read.
    Unsupported(String),
}

/// A value as a key column is written on the command line (`--key`).
pub fn value_text(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Text(t) => t.clone(),
        Value::Hex { hex } => format!("0x{hex}"),
        Value::Undecoded { undecoded } => undecoded.clone(),
    }
}

/// A key value sought, parsed for its column.
enum Wanted {
    Int(i128),
}

fn compare(stored: &Value, wanted: &Wanted) -> Option<Ordering> {
    let Wanted::Int(w) = wanted;
    match stored {
        Value::Int(i) => Some(i128::from(*i).cmp(w)),
        Value::UInt(u) => Some(i128::from(*u).cmp(w)),
        _ => None,
    }
}

/// Finds the row whose primary key is `key` (its columns' values joined by
/// commas) in the clustered index `schema` describes.
pub fn find(space: &Tablespace, schema: &Schema, key: &str) -> KeySearch {
    match descend(space, schema, key) {
        Ok(found) => found,
        Err(why) => KeySearch::Unsupported(why),
    }
}

/// [`find`], with why the search cannot be made as the error.
fn descend(space: &Tablespace, schema: &Schema, key: &str) -> Result<KeySearch, String> {
    let index = schema
        .indexes
        .iter()
        .find(|i| i.clustered)
        .ok_or("the schema has no clustered index")?;
    let key_fields = index
        .fields
        .iter()
        .position(|f| f.name == "DB_TRX_ID")
        .and_then(|n| index.fields.get(..n))
        .ok_or("the clustered index has no DB_TRX_ID")?;
    let parts: Vec<&str> = key.split(',').map(str::trim).collect();
    let wanted = wanted_key(&parts, key_fields.len())?;
    let mut pages = LogicalPages::new(space);
    let mut buf = Vec::new();
    let mut list = RecordList::default();
    let mut path = Vec::new();
    let mut n = index.root_page;
    for _ in 0..MAX_DEPTH {
        if path.contains(&n) {
            return Err(format!("page {n} reached twice: a cycle"));
        }
        path.push(n);
        if pages.read_into(n, &mut buf).is_none() {
            return Err(format!("page {n} cannot be read"));
        }
        let Ok(header) = IndexHeader::parse(&buf) else {
            return Err(format!("page {n} is not an index page"));
        };
        if header.index_id != index.id {
            return Err(format!(
                "page {n} belongs to index {}, not {}",
                header.index_id, index.id
            ));
        }
        if header.level == 0 {
            return Ok(leaf(space, schema, n, &parts, path));
        }
        let page = IndexPage::new(&buf, header);
        page.walk(&mut list, &mut Vec::new());
        n = child_to_follow(n, &page, &list, key_fields, &wanted)?;
    }
    Err(format!("more than {MAX_DEPTH} levels: a cycle"))
}

/// The key values sought, one per key column (`n_key` of them).
fn wanted_key(parts: &[&str], n_key: usize) -> Result<Vec<Wanted>, String> {
    if parts.len() != n_key {
        return Err(format!(
            "the primary key has {n_key} columns, the key given {}",
            parts.len()
        ));
    }
    parts
        .iter()
        .map(|p| {
            p.parse::<i128>()
                .map(Wanted::Int)
                .map_err(|_| format!("{p}: only integer keys are searched by descent"))
        })
        .collect()
}

/// The child page of the last node pointer of page `page_no` (its
/// records `list`) whose key is not above `wanted`.
fn child_to_follow(
    page_no: u32,
    page: &IndexPage<'_>,
    list: &RecordList,
    key_fields: &[IndexField],
    wanted: &[Wanted],
) -> Result<u32, String> {
    let mut child = None;
    for r in list
        .records
        .iter()
        .filter(|r| r.record_type == RecordType::NodePointer)
    {
        let (values, child_page) = node_pointer(page.bytes(), r, page.format, key_fields)
            .ok_or_else(|| {
                format!(
                    "page {page_no}: the node pointer at {} cannot be read",
                    r.origin
                )
            })?;
        // The leftmost pointer of a level (min-rec) stands for -infinity.
        let not_above = r.is_min_rec() || compare_key(&values, wanted)? != Ordering::Greater;
        if !not_above {
            break;
        }
        child = Some(child_page);
    }
    child.ok_or_else(|| format!("page {page_no}: no node pointer to follow"))
}

/// How the stored key `values` compares with the key sought, column by column.
fn compare_key(values: &[Value], wanted: &[Wanted]) -> Result<Ordering, String> {
    for (v, w) in values.iter().zip(wanted) {
        match compare(v, w) {
            Some(Ordering::Equal) => continue,
            Some(o) => return Ok(o),
            None => {
                return Err(format!(
                    "key column value {} is not an integer",
                    value_text(v)
                ))
            }
        }
    }
    Ok(Ordering::Equal)
}

/// The key values and child page of node pointer `r`.
fn node_pointer(
    bytes: &[u8],
    r: &RecordHeader,
    format: RecordFormat,
    key_fields: &[IndexField],
) -> Option<(Vec<Value>, u32)> {
    let places: Vec<(usize, usize)> = match format {
        RecordFormat::Compact => compact_fields(bytes, r, key_fields, None)?
            .0
            .iter()
            .map(|p| (p.start, p.len))
            .collect(),
        RecordFormat::Redundant => r
            .redundant_fields(bytes)
            .ok()?
            .iter()
            .take(key_fields.len())
            .map(|f| (f.start, f.len))
            .collect(),
    };
    if places.len() != key_fields.len() {
        return None;
    }
    let end = places.last().map_or(0, |p| p.0 + p.1);
    let values = places
        .iter()
        .zip(key_fields)
        .map(|(&(start, len), f)| {
            bytes
                .get(r.origin + start..r.origin + start + len)
                .map(|b| f.value(b))
        })
        .collect::<Option<Vec<_>>>()?;
    let child = innodb_format::bytes::u32_at(bytes, r.origin + end, "child page").ok()?;
    Some((values, child))
}

fn leaf(
    space: &Tablespace,
    schema: &Schema,
    page: u32,
    parts: &[&str],
    path: Vec<u32>,
) -> KeySearch {
    let rows = match RecordsReport::build_page(space, schema, None, page) {
        Ok(r) => r,
        Err(e) => return KeySearch::Unsupported(format!("leaf page {page}: {e:?}")),
    };
    let found = rows.rows.iter().find(|r| {
        r.values
            .get(..parts.len())
            .is_some_and(|key| key.iter().map(value_text).zip(parts).all(|(a, b)| a == *b))
    });
    match found {
        Some(r) => KeySearch::Found {
            page,
            origin: r.origin,
            path,
        },
        None => KeySearch::NotFound { page, path },
    }
}

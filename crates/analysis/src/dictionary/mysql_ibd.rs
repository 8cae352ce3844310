//! MySQL 8.0+'s data dictionary, read from `mysql.ibd`: a general
//! tablespace (space id 4294967294) whose own SDI describes the dictionary
//! tables, so that their rows are read with the records decoding of every
//! other table. From `mysql.schemata`, `mysql.tables`, `mysql.columns`,
//! `mysql.column_type_elements`, `mysql.indexes`,
//! `mysql.index_column_usage`, `mysql.table_partitions`,
//! `mysql.index_partitions`, `mysql.tablespaces` and
//! `mysql.tablespace_files` (their columns: `sql/dd/impl/tables/*.cc`) come
//! the [`DdTable`]s and [`DdTablespace`]s an SDI would hold, for every
//! InnoDB table of the server.

pub mod remnants;

use crate::dictionary::sdi::{self, SdiObjects};
use crate::rows::index_scan::ScannedPage;
use crate::rows::records::{IndexField, RecordsReport, Row, RowState, Schema};
use innodb_format::bytes::{u16_at, u32_at, u64_at};
use innodb_format::fil::header::{FIL_PAGE_LSN, FIL_PAGE_OFFSET, FIL_PAGE_TYPE};
use innodb_format::fil::page_type::PageType;
use innodb_format::index::header::{PAGE_INDEX_ID, PAGE_LEVEL};
use innodb_format::value::column_value::Value;
use innodb_space::dictionary::dd::{
    DdColumn, DdIndex, DdIndexElement, DdPartition, DdPartitionIndex, DdTable, DdTablespace,
    DdTablespaceFile,
};
use innodb_space::dictionary::Dictionary;
use innodb_space::{Finding, ScanItem, Tablespace};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The rows of one dictionary table, its fields by name.
struct Rows {
    fields: Vec<IndexField>,
    rows: Vec<Row>,
    /// Deleted records whose bytes were all zero (not in `rows`).
    erased: usize,
}

impl Rows {
    /// The rows `keep` keeps, with the same fields.
    fn select(&self, keep: impl Fn(&Row) -> bool) -> Rows {
        Rows {
            fields: self.fields.clone(),
            rows: self.rows.iter().filter(|r| keep(r)).cloned().collect(),
            erased: self.erased,
        }
    }

    /// Moves the rows `keep` keeps out into new rows with the same fields
    /// (and `erased`), in their order; the others stay, in theirs.
    fn take(&mut self, keep: impl Fn(&Row) -> bool) -> Rows {
        let (kept, rest) = std::mem::take(&mut self.rows)
            .into_iter()
            .partition(|r| keep(r));
        self.rows = rest;
        Rows {
            fields: self.fields.clone(),
            rows: kept,
            erased: self.erased,
        }
    }

    fn at(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }

    /// Each row as a [`Get`].
    fn each(&self) -> impl Iterator<Item = Get<'_>> {
        self.rows.iter().map(move |row| Get { rows: self, row })
    }
}

/// One row's values by column name.
struct Get<'a> {
    rows: &'a Rows,
    row: &'a Row,
}

impl Get<'_> {
    fn value(&self, name: &str) -> Option<&Value> {
        self.row.values.get(self.rows.at(name)?)
    }

    /// An integer column (`BIGINT UNSIGNED`, `INT`, `BOOL`); `None` when NULL.
    fn uint(&self, name: &str) -> Option<u64> {
        match self.value(name)? {
            Value::UInt(n) => Some(*n),
            Value::Int(n) => u64::try_from(*n).ok(),
            _ => None,
        }
    }

    fn flag(&self, name: &str) -> bool {
        self.uint(name).is_some_and(|n| n != 0)
    }

    /// A text column; empty when NULL.
    fn text(&self, name: &str) -> String {
        match self.value(name) {
            Some(Value::Text(s)) => s.clone(),
            Some(Value::Hex { hex }) => String::from_utf8_lossy(&unhex(hex)).into_owned(),
            _ => String::new(),
        }
    }

    /// An ENUM column as its number (1 for the first label), as the SDI
    /// stores it; 0 when NULL or not a label.
    fn enum_number(&self, name: &str) -> u64 {
        let Some(i) = self.rows.at(name) else {
            return 0;
        };
        let labels = self.rows.fields.get(i).and_then(|f| f.labels.as_ref());
        match (self.row.values.get(i), labels) {
            (Some(Value::Text(s)), Some(l)) => {
                l.iter().position(|x| x == s).map_or(0, |p| p as u64 + 1)
            }
            (Some(Value::UInt(n)), _) => *n,
            _ => 0,
        }
    }
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .filter_map(|i| u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

/// The dictionary tables read, by name.
const TABLES: [&str; 10] = [
    "schemata",
    "tables",
    "columns",
    "column_type_elements",
    "indexes",
    "index_column_usage",
    "table_partitions",
    "index_partitions",
    "tablespaces",
    "tablespace_files",
];

/// Reads MySQL's dictionary from `mysql.ibd`: every InnoDB table of the
/// server with its columns, indexes and partitions, and every tablespace
/// with its files. An error when the file has no SDI describing the
/// dictionary tables, or one of them cannot be read at all; records that
/// cannot be read are findings, and the tables read are kept.
pub fn read(space: &Tablespace) -> Result<Dictionary, String> {
    let (own, sdi_findings) = own_sdi(space)?;
    let (read, findings) = read_tables(space, &sdi_findings, &own.tables, false)?;
    dictionary(space, &read, findings)
}

/// The rows of each dictionary table read, by name.
type Read = BTreeMap<&'static str, Rows>;

/// The objects of the SDI of `space` (`mysql.ibd`), which describe its
/// dictionary tables, and the problems met reading it; an error naming
/// the file when it has no SDI that can be read.
pub fn own_sdi(space: &Tablespace) -> Result<(SdiObjects, Vec<Finding>), String> {
    sdi::objects_of(space).map_err(|e| {
        format!(
            "{}: no SDI to describe the dictionary tables ({e:?})",
            space.path().display()
        )
    })
}

/// The rows of the dictionary tables of `space` (with `deleted`, the
/// delete-marked and garbage-list ones too), typed by `defs` (the tables
/// its SDI describes, see [`own_sdi`]), and the problems met: those of
/// reading the SDI (`sdi_findings`), then those of the rows.
fn read_tables(
    space: &Tablespace,
    sdi_findings: &[Finding],
    defs: &[DdTable],
    deleted: bool,
) -> Result<(Read, Vec<Finding>), String> {
    let file = space.path().display().to_string();
    let mut findings: Vec<Finding> = sdi_findings.to_vec();
    let mut read = BTreeMap::new();
    // The garbage rows are looked for on every INDEX page: the pages of
    // every index found in one pass, not one pass per table.
    let pages = if deleted {
        index_pages(space)
    } else {
        HashMap::new()
    };
    for name in TABLES {
        let def = defs
            .iter()
            .find(|t| t.schema_ref == "mysql" && t.name == name)
            .ok_or_else(|| format!("{file}: its SDI does not describe mysql.{name}"))?;
        let rows = rows_of(space, def, name, deleted.then_some(&pages), &mut findings)
            .map_err(|e| format!("{file}: mysql.{name}: {e}"))?;
        read.insert(name, rows);
    }
    Ok((read, findings))
}

/// The dictionary the rows `read` of `space`'s dictionary tables make.
fn dictionary(
    space: &Tablespace,
    read: &Read,
    findings: Vec<Finding>,
) -> Result<Dictionary, String> {
    let file = space.path().display().to_string();
    let get = |name: &str| {
        read.get(name)
            .ok_or_else(|| format!("{file}: mysql.{name} not read"))
    };
    let tablespaces = tablespaces(get("tablespaces")?, get("tablespace_files")?);
    let tables = assembly(read).map_err(|e| format!("{file}: {e}"))?.tables();
    let mut d = Dictionary::from_mysql(tables, tablespaces);
    d.findings = findings;
    Ok(d)
}

/// The tables' rows of `read`, to be put together.
fn assembly(read: &Read) -> Result<Assembly<'_>, String> {
    let get = |name: &str| {
        read.get(name)
            .ok_or_else(|| format!("mysql.{name} not read"))
    };
    Ok(Assembly {
        schemata: get("schemata")?,
        tables: get("tables")?,
        columns: get("columns")?,
        elements: get("column_type_elements")?,
        indexes: get("indexes")?,
        usage: get("index_column_usage")?,
        partitions: get("table_partitions")?,
        index_partitions: get("index_partitions")?,
    })
}

/// The INDEX pages of `space` by index id, each page's first bytes read
/// once, in one pass over the file (what `pages_of_index` finds for one
/// index, for every index).
fn index_pages(space: &Tablespace) -> HashMap<u64, Vec<ScannedPage>> {
    let mut out: HashMap<u64, Vec<ScannedPage>> = HashMap::new();
    space.for_each_page(0, u32::MAX, |item| {
        let ScanItem::Page(n, buf) = item else {
            return;
        };
        let is_index = u16_at(buf, FIL_PAGE_TYPE, "FIL_PAGE_TYPE")
            .is_ok_and(|t| PageType(t) == PageType::INDEX);
        let Some(id) = u64_at(buf, PAGE_INDEX_ID, "PAGE_INDEX_ID")
            .ok()
            .filter(|_| is_index)
        else {
            return;
        };
        out.entry(id).or_default().push(ScannedPage {
            position: n,
            page_no: u32_at(buf, FIL_PAGE_OFFSET, "FIL_PAGE_OFFSET").unwrap_or(n),
            level: u16_at(buf, PAGE_LEVEL, "PAGE_LEVEL").unwrap_or(0),
            lsn: u64_at(buf, FIL_PAGE_LSN, "FIL_PAGE_LSN").unwrap_or(0),
        });
    });
    out
}

/// The live rows of the dictionary table `def` of `space` (with the
/// INDEX pages of `deleted`, then its delete-marked and garbage-list rows).
fn rows_of(
    space: &Tablespace,
    def: &DdTable,
    name: &'static str,
    deleted: Option<&HashMap<u64, Vec<ScannedPage>>>,
    findings: &mut Vec<Finding>,
) -> Result<Rows, String> {
    let leaf = def
        .innodb_tables()
        .into_iter()
        .find(|l| l.space_id == Some(space.space_id()))
        .ok_or("its SDI gives it no index in this tablespace")?;
    let schema = Schema::from_dd(def, &leaf).ok_or("its SDI has a column of no known type")?;
    let r = RecordsReport::build(space, &schema, None, deleted.is_some(), None)
        .map_err(|_| "its SDI has no clustered index".to_string())?;
    if !r.layout.fits() {
        return Err(format!(
            "its records do not fit the columns its SDI gives ({} of {} neighbouring records meet)",
            r.layout.fitting_pairs, r.layout.pairs
        ));
    }
    let mut rows = r.rows;
    let mut erased = r.erased_records;
    let mut all_findings = r.findings;
    if let Some(pages) = deleted {
        off_tree_rows(
            space,
            &schema,
            pages,
            &mut rows,
            &mut erased,
            &mut all_findings,
        );
    }
    findings.extend(all_findings.into_iter().map(|mut f| {
        f.message = format!("mysql.{name}: {}", f.message);
        f
    }));
    Ok(Rows {
        fields: r.fields,
        rows,
        erased,
    })
}

/// Adds to `rows` (the rows of the tree of `schema`'s clustered index)
/// those of its leaf pages the tree no longer reaches (pages freed by a
/// merge after purge, whose records stay until the page is reused): each
/// as a garbage row, whatever its header says, since none is in the index.
fn off_tree_rows(
    space: &Tablespace,
    schema: &Schema,
    pages: &HashMap<u64, Vec<ScannedPage>>,
    rows: &mut Vec<Row>,
    erased: &mut usize,
    findings: &mut Vec<Finding>,
) {
    let Some(index) = schema.indexes.iter().find(|i| i.clustered) else {
        return;
    };
    let in_tree: HashSet<u32> = rows.iter().map(|r| r.page).collect();
    let mut leaves: Vec<ScannedPage> = pages
        .get(&index.id)
        .into_iter()
        .flatten()
        .filter(|p| p.level == 0 && !in_tree.contains(&p.page_no))
        .copied()
        .collect();
    // The newest copy of each page number.
    leaves.sort_by(|a, b| (a.page_no, b.lsn).cmp(&(b.page_no, a.lsn)));
    leaves.dedup_by_key(|p| p.page_no);
    let id = index.id.to_string();
    for p in leaves {
        let Ok(r) = RecordsReport::build_leaf(space, schema, Some(&id), p.position, true) else {
            continue;
        };
        *erased += r.erased_records;
        findings.extend(r.findings);
        rows.extend(r.rows.into_iter().map(|mut row| {
            row.deleted = true;
            row.state = RowState::Garbage;
            row
        }));
    }
}

/// Every tablespace with its files, by `mysql.tablespaces.id`.
fn tablespaces(spaces: &Rows, files: &Rows) -> Vec<DdTablespace> {
    let mut by_id: BTreeMap<u64, Vec<(u64, String)>> = BTreeMap::new();
    for f in files.each() {
        if let Some(id) = f.uint("tablespace_id") {
            by_id
                .entry(id)
                .or_default()
                .push((f.uint("ordinal_position").unwrap_or(0), f.text("file_name")));
        }
    }
    spaces
        .each()
        .map(|s| {
            let mut files = s
                .uint("id")
                .and_then(|id| by_id.remove(&id))
                .unwrap_or_default();
            files.sort();
            DdTablespace {
                name: s.text("name"),
                se_private_data: s.text("se_private_data"),
                files: files
                    .into_iter()
                    .map(|(_, filename)| DdTablespaceFile { filename })
                    .collect(),
            }
        })
        .collect()
}

/// The dictionary tables' rows, put together into tables.
struct Assembly<'a> {
    schemata: &'a Rows,
    tables: &'a Rows,
    columns: &'a Rows,
    elements: &'a Rows,
    indexes: &'a Rows,
    usage: &'a Rows,
    partitions: &'a Rows,
    index_partitions: &'a Rows,
}

/// Rows grouped by a parent id, each with its own id and sort key.
type Children<T> = BTreeMap<u64, Vec<(u64, u64, T)>>;

fn group<T>(items: impl Iterator<Item = (u64, u64, u64, T)>) -> Children<T> {
    let mut out: Children<T> = BTreeMap::new();
    for (parent, id, key, item) in items {
        out.entry(parent).or_default().push((key, id, item));
    }
    for v in out.values_mut() {
        v.sort_by_key(|(key, id, _)| (*key, *id));
    }
    out
}

impl Assembly<'_> {
    /// Every InnoDB base table, with its columns, indexes and partitions.
    fn tables(&self) -> Vec<DdTable> {
        let schemata: BTreeMap<u64, String> = self
            .schemata
            .each()
            .filter_map(|s| Some((s.uint("id")?, s.text("name"))))
            .collect();
        let mut columns = self.columns();
        let mut indexes = self.indexes();
        let mut partitions = self.partitions();
        let mut out = Vec::new();
        for t in self.tables.each() {
            // Views and the tables of other engines have no InnoDB pages.
            if t.enum_number("type") != 1 || !t.text("engine").eq_ignore_ascii_case("InnoDB") {
                continue;
            }
            let Some(id) = t.uint("id") else { continue };
            let cols = columns.remove(&id).unwrap_or_default();
            let column_ids: Vec<u64> = cols.iter().map(|(_, cid, _)| *cid).collect();
            let idx = indexes.remove(&id).unwrap_or_default();
            let index_ids: Vec<u64> = idx.iter().map(|(_, iid, _)| *iid).collect();
            let table_indexes = idx
                .into_iter()
                .map(|(_, _, (mut index, elements))| {
                    index.elements = elements
                        .into_iter()
                        .filter_map(|(column_id, mut e)| {
                            e.column_opx = column_ids.iter().position(|c| *c == column_id)?;
                            Some(e)
                        })
                        .collect();
                    index
                })
                .collect();
            let parts = partitions.remove(&id).unwrap_or_default();
            out.push(DdTable {
                name: t.text("name"),
                schema_ref: t
                    .uint("schema_id")
                    .and_then(|s| schemata.get(&s).cloned())
                    .unwrap_or_default(),
                se_private_id: t.uint("se_private_id").unwrap_or(u64::MAX),
                se_private_data: t.text("se_private_data"),
                columns: cols.into_iter().map(|(_, _, c)| c).collect(),
                indexes: table_indexes,
                partitions: self.partition_tree(&parts, None, &index_ids),
                collation_id: t.uint("collation_id").unwrap_or(0),
                row_format: t.enum_number("row_format"),
                options: t.text("options"),
                comment: t.text("comment"),
            });
        }
        out
    }

    /// Columns by table id, in ordinal order, with their ENUM/SET labels.
    fn columns(&self) -> Children<DdColumn> {
        let mut labels: BTreeMap<u64, Vec<(u64, String)>> = BTreeMap::new();
        for e in self.elements.each() {
            if let Some(c) = e.uint("column_id") {
                labels
                    .entry(c)
                    .or_default()
                    .push((e.uint("element_index").unwrap_or(0), e.text("name")));
            }
        }
        group(self.columns.each().filter_map(|c| {
            let id = c.uint("id")?;
            let mut elements = labels.remove(&id).unwrap_or_default();
            elements.sort();
            let column = DdColumn {
                name: c.text("name"),
                column_type: c.enum_number("type"),
                is_nullable: c.flag("is_nullable"),
                is_unsigned: c.flag("is_unsigned"),
                is_virtual: c.flag("is_virtual"),
                hidden: c.enum_number("hidden"),
                ordinal_position: u32::try_from(c.uint("ordinal_position")?).ok()?,
                char_length: c.uint("char_length").unwrap_or(0),
                numeric_precision: c.uint("numeric_precision").unwrap_or(0),
                numeric_scale: c.uint("numeric_scale").unwrap_or(0),
                datetime_precision: c.uint("datetime_precision").unwrap_or(0),
                collation_id: c.uint("collation_id").unwrap_or(63),
                se_private_data: c.text("se_private_data"),
                elements: elements.into_iter().map(|(_, l)| l).collect(),
                column_type_utf8: c.text("column_type_utf8"),
                default_value_utf8: c.text("default_value_utf8"),
                // mysql.columns has no default_value_null: its
                // default_value_utf8 is NULL.
                default_value_null: matches!(
                    c.value("default_value_utf8"),
                    None | Some(Value::Null)
                ),
                has_no_default: c.flag("has_no_default"),
                default_option: c.text("default_option"),
                update_option: c.text("update_option"),
                is_auto_increment: c.flag("is_auto_increment"),
                generation_expression_utf8: c.text("generation_expression_utf8"),
                comment: c.text("comment"),
            };
            Some((
                c.uint("table_id")?,
                id,
                u64::from(column.ordinal_position),
                column,
            ))
        }))
    }

    /// Indexes by table id, in ordinal order, each with its elements (by
    /// column id, placed by the caller).
    #[allow(clippy::type_complexity)]
    fn indexes(&self) -> Children<(DdIndex, Vec<(u64, DdIndexElement)>)> {
        let mut elements = group(self.usage.each().filter_map(|u| {
            let e = DdIndexElement {
                ordinal_position: u32::try_from(u.uint("ordinal_position")?).ok()?,
                length: u.uint("length").unwrap_or(u64::from(u32::MAX)),
                order: u.enum_number("order"),
                hidden: u.flag("hidden"),
                column_opx: 0,
            };
            Some((
                u.uint("index_id")?,
                u.uint("column_id")?,
                u64::from(e.ordinal_position),
                e,
            ))
        }));
        group(self.indexes.each().filter_map(|i| {
            let id = i.uint("id")?;
            let index = DdIndex {
                name: i.text("name"),
                index_type: i.enum_number("type"),
                hidden: i.flag("hidden"),
                ordinal_position: u32::try_from(i.uint("ordinal_position")?).ok()?,
                se_private_data: i.text("se_private_data"),
                elements: Vec::new(),
            };
            let mine = elements
                .remove(&id)
                .unwrap_or_default()
                .into_iter()
                .map(|(_, column_id, e)| (column_id, e))
                .collect();
            Some((
                i.uint("table_id")?,
                id,
                u64::from(index.ordinal_position),
                (index, mine),
            ))
        }))
    }

    /// Partitions by table id, by number: each with its parent partition
    /// id and its index copies (by index id, placed by the caller).
    #[allow(clippy::type_complexity)]
    fn partitions(&self) -> Children<(Option<u64>, DdPartition, Vec<(u64, String)>)> {
        let mut copies: BTreeMap<u64, Vec<(u64, String)>> = BTreeMap::new();
        for ip in self.index_partitions.each() {
            if let (Some(p), Some(i)) = (ip.uint("partition_id"), ip.uint("index_id")) {
                copies
                    .entry(p)
                    .or_default()
                    .push((i, ip.text("se_private_data")));
            }
        }
        group(self.partitions.each().filter_map(|p| {
            let id = p.uint("id")?;
            let part = DdPartition {
                name: p.text("name"),
                number: u32::try_from(p.uint("number")?).ok()?,
                se_private_id: p.uint("se_private_id").unwrap_or(u64::MAX),
                indexes: Vec::new(),
                subpartitions: Vec::new(),
            };
            Some((
                p.uint("table_id")?,
                id,
                u64::from(part.number),
                (
                    p.uint("parent_partition_id"),
                    part,
                    copies.remove(&id).unwrap_or_default(),
                ),
            ))
        }))
    }

    /// The partitions under `parent` (the top ones for `None`), each with
    /// its subpartitions and its index copies placed among the table's
    /// indexes (`index_ids`, in the table's order).
    #[allow(clippy::type_complexity)]
    fn partition_tree(
        &self,
        all: &[(u64, u64, (Option<u64>, DdPartition, Vec<(u64, String)>))],
        parent: Option<u64>,
        index_ids: &[u64],
    ) -> Vec<DdPartition> {
        all.iter()
            .filter(|(_, _, (p, _, _))| *p == parent)
            .map(|(_, id, (_, part, copies))| {
                let mut part = part.clone();
                part.indexes = copies
                    .iter()
                    .filter_map(|(index_id, se_private_data)| {
                        Some(DdPartitionIndex {
                            se_private_data: se_private_data.clone(),
                            index_opx: index_ids.iter().position(|i| i == index_id)?,
                        })
                    })
                    .collect();
                part.indexes.sort_by_key(|pi| pi.index_opx);
                // Subpartitions are one level down, never deeper.
                if parent.is_none() {
                    part.subpartitions = self.partition_tree(all, Some(*id), index_ids);
                }
                part
            })
            .collect()
    }
}

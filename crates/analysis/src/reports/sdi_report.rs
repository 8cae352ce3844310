//! `sdi`: the Serialized Dictionary Information of a MySQL 8.0+ tablespace
//! (what `ibd2sdi` prints): every record of the SDI index, its zlib data
//! followed off-page when it is long, inflated and parsed as JSON.

use crate::reports::space_reports::{header, SpaceHeader};
use innodb_format::index::page::IndexPage;
use innodb_format::index::record::RecordHeader;
use innodb_format::index::sdi::{self, SdiRecord};
use innodb_space::btree;
use innodb_space::logical_pages::LogicalPages;
use innodb_space::space_map::{NoSpaceMap, SpaceMap};
use innodb_space::{Finding, FindingKind, Tablespace};
use serde::Serialize;

pub use innodb_format::index::sdi::SDI_INDEX_ID;

/// One SDI object.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SdiEntry {
    /// Object type: 1 table, 2 tablespace.
    #[serde(rename = "type")]
    pub sdi_type: u32,
    /// Object id.
    pub id: u64,
    /// The JSON document.
    pub object: serde_json::Value,
}

/// The `sdi` report.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SdiReport {
    /// The file.
    #[serde(flatten)]
    pub header: SpaceHeader,
    /// Root page of the SDI index.
    pub sdi_root: Option<u32>,
    /// Every SDI object, in key order (type, id).
    pub records: Vec<SdiEntry>,
    /// Problems found.
    pub findings: Vec<Finding>,
}

/// Why there is no SDI report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoSdi {
    /// No space map (page 0 unusable).
    NoSpaceMap(NoSpaceMap),
    /// No SDI index root in the file (MariaDB, MySQL before 8.0).
    NoSdiIndex,
}

impl SdiReport {
    /// Reads every SDI record of `space`.
    pub fn build(space: &Tablespace) -> Result<SdiReport, NoSdi> {
        Self::read(space, false)
    }

    /// The deleted SDI records of `space` only: the delete-marked ones and
    /// those of the SDI leaf pages' garbage lists (`PAGE_FREE`), as a
    /// report of their own. A table dropped from a system tablespace
    /// leaves its SDI there until the space is reused.
    pub fn build_deleted(space: &Tablespace) -> Result<SdiReport, NoSdi> {
        Self::read(space, true)
    }

    /// Every SDI record of `space`, or (`deleted`) its deleted ones.
    fn read(space: &Tablespace, deleted: bool) -> Result<SdiReport, NoSdi> {
        let docs = SdiDocuments::read(space, deleted)?;
        let mut findings = docs.findings;
        let mut records = Vec::with_capacity(docs.documents.len());
        for d in docs.documents {
            let json = match &d.json {
                Ok(j) => {
                    serde_json::from_slice::<serde_json::Value>(j).map_err(|e| d.unreadable(&e))
                }
                Err(f) => Err(f.clone()),
            };
            match json {
                Ok(object) => records.push(SdiEntry {
                    sdi_type: d.sdi_type,
                    id: d.id,
                    object,
                }),
                Err(f) => findings.push(f),
            }
        }
        Ok(SdiReport {
            header: docs.header,
            sdi_root: Some(docs.root),
            records,
            findings,
        })
    }
}

/// The SDI records of a tablespace as JSON text, not parsed: what
/// [`SdiReport`] parses into values and a dictionary reader may parse
/// straight into its types.
pub struct SdiDocuments {
    /// The file.
    pub header: SpaceHeader,
    /// Root page of the SDI index.
    pub root: u32,
    /// Every record read, in key order (type, id).
    pub documents: Vec<SdiDocument>,
    /// Problems found walking the index and following BLOB chains.
    pub findings: Vec<Finding>,
}

/// One SDI record's JSON text.
pub struct SdiDocument {
    /// The leaf page of its record.
    pub page_no: u32,
    /// Object type: 1 table, 2 tablespace.
    pub sdi_type: u32,
    /// Object id.
    pub id: u64,
    /// The inflated JSON text, or why it could not be inflated.
    pub json: Result<Vec<u8>, Finding>,
}

impl SdiDocument {
    /// The finding for this record when its text is not what it must be
    /// (`why`: the JSON parser's error, say).
    pub fn unreadable(&self, why: &dyn std::fmt::Display) -> Finding {
        Finding::on_page(
            FindingKind::Decompression,
            self.page_no,
            0,
            "SDI data",
            format!("SDI object type {} id {}: {why}", self.sdi_type, self.id),
        )
    }
}

impl SdiDocuments {
    /// Every SDI record of `space` (or, `deleted`, its deleted ones), its
    /// data followed off-page and inflated.
    pub fn read(space: &Tablespace, deleted: bool) -> Result<SdiDocuments, NoSdi> {
        let map = SpaceMap::read(space).map_err(NoSdi::NoSpaceMap)?;
        let root = map
            .index_roots()
            .into_iter()
            .find(|(id, _)| *id == SDI_INDEX_ID)
            .map(|(_, root)| root)
            .ok_or(NoSdi::NoSdiIndex)?;
        let mut pages = LogicalPages::new(space);
        let mut raw: Vec<(u32, SdiRecord)> = Vec::new();
        let mut findings = Vec::new();
        let walk = btree::walk(&mut pages, root, |v| {
            if v.page.header.level != 0 {
                return;
            }
            let mut heads: Vec<RecordHeader> = v
                .records
                .records
                .iter()
                .filter(|r| !deleted || r.is_deleted())
                .copied()
                .collect();
            if deleted {
                heads.extend(garbage(v.page, v.page_no, &mut findings));
            }
            for r in &heads {
                match sdi::parse_record(v.page.bytes(), r, v.page.format) {
                    Ok(rec) => raw.push((v.page_no, rec)),
                    Err(e) => findings.push(Finding::on_page(
                        FindingKind::Unreadable,
                        v.page_no,
                        r.origin,
                        "SDI record",
                        e.to_string(),
                    )),
                }
            }
        });
        findings.extend(walk.findings);
        let mut documents = Vec::with_capacity(raw.len());
        let mut buf = Vec::new();
        for (page_no, rec) in raw {
            let data = match rec.external {
                None => rec.local.clone(),
                Some(r) => {
                    let chain = if space.format().is_zip() {
                        zblob_chain(&mut pages, &rec, r.page_no, r.offset, &mut buf)
                    } else {
                        blob_chain(&mut pages, &rec, r.page_no, r.offset as usize, &mut buf)
                    };
                    match chain {
                        Ok(d) => d,
                        Err(message) => {
                            // Where the chain broke, in record order.
                            findings.push(Finding::on_page(
                                FindingKind::BrokenList,
                                r.page_no,
                                r.offset as usize,
                                "SDI BLOB chain",
                                message,
                            ));
                            continue;
                        }
                    }
                }
            };
            let mut d = SdiDocument {
                page_no,
                sdi_type: rec.sdi_type,
                id: rec.id,
                json: Ok(Vec::new()),
            };
            d.json =
                sdi::inflate(&data, rec.uncompressed_len as usize).map_err(|e| d.unreadable(&e));
            documents.push(d);
        }
        Ok(SdiDocuments {
            header: header(space, &map),
            root,
            documents,
            findings,
        })
    }
}

/// The records of `page`'s garbage list (walked with bounds); a link that
/// leaves the heap is a finding.
fn garbage(page: &IndexPage<'_>, page_no: u32, findings: &mut Vec<Finding>) -> Vec<RecordHeader> {
    let (mut free, mut problems) = (Vec::new(), Vec::new());
    page.free_list(&mut free, &mut problems);
    findings.extend(problems.into_iter().map(|p| {
        Finding::on_page(
            FindingKind::BadIndexPage,
            page_no,
            p.offset,
            p.field,
            p.message,
        )
    }));
    free.into_iter()
        .filter_map(|o| RecordHeader::parse(page.bytes(), o, page.format, true).ok())
        .collect()
}

/// The local bytes of `rec` followed by its compressed BLOB chain (a
/// ROW_FORMAT=COMPRESSED tablespace: `SDI_ZBLOB` pages holding one zlib
/// stream) from `page`/`offset`, up to the compressed length.
fn zblob_chain(
    pages: &mut LogicalPages<'_>,
    rec: &SdiRecord,
    page: u32,
    offset: u32,
    buf: &mut Vec<u8>,
) -> Result<Vec<u8>, String> {
    let want = rec.compressed_len as usize;
    if want > sdi::MAX_SDI_BYTES {
        return Err(format!(
            "the record claims {want} compressed bytes, more than {}",
            sdi::MAX_SDI_BYTES
        ));
    }
    let mut out = rec.local.clone();
    let rest = want.saturating_sub(out.len());
    out.extend(innodb_space::zblob::read_zblob(
        pages, page, offset, rest, buf,
    )?);
    Ok(out)
}

/// The local bytes of `rec` followed by its old-style BLOB chain from
/// `page`/`offset`, up to the compressed length; bounded by the file's page
/// count, a page visited twice is a cycle.
fn blob_chain(
    pages: &mut LogicalPages<'_>,
    rec: &SdiRecord,
    mut page: u32,
    mut offset: usize,
    buf: &mut Vec<u8>,
) -> Result<Vec<u8>, String> {
    let want = rec.compressed_len as usize;
    if want > sdi::MAX_SDI_BYTES {
        return Err(format!(
            "the record claims {want} compressed bytes, more than {}",
            sdi::MAX_SDI_BYTES
        ));
    }
    let mut out = rec.local.clone();
    let mut seen = std::collections::HashSet::new();
    while out.len() < want {
        if page == innodb_format::FIL_NULL {
            return Err(format!(
                "the chain ends after {} of {want} bytes",
                out.len()
            ));
        }
        if !seen.insert(page) {
            return Err(format!(
                "cycle: page {page} comes back after {} pages",
                seen.len()
            ));
        }
        pages
            .read_into(page, buf)
            .ok_or_else(|| format!("BLOB page {page} cannot be read"))?;
        let (part, next) = sdi::blob_part(buf, offset).map_err(|e| format!("page {page}: {e}"))?;
        out.extend_from_slice(part);
        page = next;
        offset = innodb_format::fil::header::FIL_PAGE_DATA;
    }
    out.truncate(want);
    Ok(out)
}

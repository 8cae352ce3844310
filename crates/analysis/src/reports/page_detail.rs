//! `page`: every decoded structure of one page, with offsets: the FIL header and trailer, a page-compressed frame, a ROW_FORMAT=COMPRESSED page's parts, and the body the format crate's dispatch (`innodb_format::body`) decodes.

use crate::reports::page_records::PageRecords;
use crate::reports::summary::verdict_name;
use innodb_format::checksum::ChecksumLayout;
use innodb_format::checksum::ChecksumVerdict;
use innodb_format::context::PageContext;
use innodb_format::field::Field;
use innodb_format::fil::header::FilHeader;
use innodb_format::fil::mysql_compressed::MysqlCompressedHeader;
use innodb_format::fil::page_compressed::{CompressedFrame, FrameLayout, FIL_PAGE_COMP_ALGO};
use innodb_format::fil::trailer::FilTrailer;
use innodb_format::index::header::IndexHeader;
use innodb_format::index::page::IndexPage;
use innodb_format::space_format::SpaceFormat;
use innodb_format::vendor::Vendor;
use innodb_space::doublewrite_file::{self, DoublewriteKind, SlotArea};
use innodb_space::logical_pages::LogicalPages;
use innodb_space::{DoublewriteFile, Finding, FindingKind, SpaceError, Tablespace};
use serde::Serialize;

/// A titled group of fields (one on-disk structure), as the format
/// crate's body decoders give them.
pub use innodb_format::section::Section;

/// Everything decoded about one page.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PageDetail {
    /// The file as given.
    pub file: String,
    /// Page number.
    pub page: u32,
    /// Byte offset of the page in the file.
    pub file_offset: u64,
    /// Physical page size.
    pub physical_page_size: usize,
    /// The page's real type name.
    #[serde(rename = "type")]
    pub page_type: String,
    /// Checksum algorithm that verifies, or `all_zero`, `bad`, `unverifiable`.
    pub checksum: &'static str,
    /// The full checksum verdict with stored and computed values.
    pub checksum_verdict: ChecksumVerdict,
    /// Whether header and trailer LSN agree.
    pub lsn_consistent: Option<bool>,
    /// True for a copy in the doublewrite area.
    pub doublewrite_copy: bool,
    /// The decoded structures.
    pub sections: Vec<Section>,
    /// For index pages: the records, garbage list and directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub records: Option<PageRecords>,
    /// Problems found on this page.
    pub findings: Vec<Finding>,
    /// The page as stored, for views that show its bytes (not serialized).
    #[serde(skip)]
    pub image: Vec<u8>,
}

impl PageDetail {
    /// Decodes page `n` of `space`.
    pub fn build(space: &Tablespace, n: u32) -> Result<PageDetail, SpaceError> {
        let bytes = &space.page(n)?;
        let format = space.format();
        let vendor = format.vendor;
        let full_crc32 = format.flags.full_crc32;
        let mut findings = Vec::new();
        let mut checker = space.checker();
        let check = checker.check(n, bytes, &mut findings);
        let page_err = |source| SpaceError::Page {
            path: space.path().to_path_buf(),
            page: n,
            source,
        };
        let mut records = None;
        let ctx = PageContext {
            doublewrite_copy: check.doublewrite_copy,
            ..format.page_context(space.space_id(), n)
        };
        let mut sections = vec![Section {
            title: "FIL header".into(),
            fields: check.fil.fields_at(0, &ctx),
        }];
        // The image whose body is decoded: the inflated page for page-compressed pages.
        let image: &[u8] = match (check.compressed, checker.inflated_page()) {
            (Some(frame), Some(inflated)) => {
                sections.push(frame_section(&frame, bytes, &ctx, full_crc32));
                let inner = FilHeader::parse(inflated).map_err(page_err)?;
                sections.push(Section {
                    title: "FIL header (inflated page)".into(),
                    fields: inner.fields_at(
                        0,
                        &PageContext {
                            full_crc32: false,
                            ..ctx
                        },
                    ),
                });
                inflated
            }
            _ => bytes,
        };
        // A ROW_FORMAT=COMPRESSED index page: decoded from its rebuilt logical image.
        let mut zip_image = Vec::new();
        let mut zip_pages = LogicalPages::new(space);
        let image: &[u8] =
            if format.is_zip() && check.page_type.is_index_layout(vendor) && !check.all_zero {
                zip_pages.read_into(n, &mut zip_image);
                match zip_pages.last_zip() {
                    Some(Ok(z)) => {
                        let base = innodb_format::index::page_zip::PAGE_DATA;
                        sections.push(Section {
                            title: "ROW_FORMAT=COMPRESSED page".into(),
                            fields: vec![
                                Field::new(
                                    base,
                                    z.stream_bytes,
                                    "compressed stream bytes",
                                    z.stream_bytes as u64,
                                ),
                                Field::new(
                                    base + z.stream_bytes,
                                    z.mlog_bytes,
                                    "modification log bytes",
                                    z.mlog_bytes as u64,
                                ),
                                Field::new(
                                    bytes.len() - z.trailer_bytes - z.free_bytes,
                                    z.free_bytes,
                                    "free bytes",
                                    z.free_bytes as u64,
                                ),
                                Field::new(
                                    bytes.len() - z.trailer_bytes,
                                    z.trailer_bytes,
                                    "uncompressed trailer bytes",
                                    z.trailer_bytes as u64,
                                ),
                                Field::new(
                                    0,
                                    0,
                                    "records rebuilt from the log",
                                    z.logged_records as u64,
                                ),
                            ],
                        });
                        &zip_image
                    }
                    Some(Err(e)) => {
                        findings.push(Finding::on_page(
                            FindingKind::Decompression,
                            n,
                            innodb_format::index::page_zip::PAGE_DATA,
                            "ROW_FORMAT=COMPRESSED page",
                            format!("the compressed page cannot be rebuilt: {e}"),
                        ));
                        image
                    }
                    None => image,
                }
            } else {
                image
            };
        if !check.all_zero {
            let body = innodb_format::body::decode(check.page_type, image, &ctx);
            sections.extend(body.sections);
            findings.extend(body.problems.iter().map(|e| {
                Finding::on_page(
                    FindingKind::Unreadable,
                    n,
                    e.offset(),
                    e.field(),
                    e.to_string(),
                )
            }));
            if check.page_type.is_index_layout(vendor) {
                let h = IndexHeader::parse(image).map_err(page_err)?;
                let r = PageRecords::new(&mut zip_pages, &IndexPage::new(image, h));
                findings.extend(r.problems.iter().map(|p| {
                    Finding::on_page(
                        FindingKind::BadIndexPage,
                        n,
                        p.offset,
                        p.field,
                        p.message.clone(),
                    )
                }));
                records = Some(r);
            }
            if !format.is_zip() {
                sections.push(Section {
                    title: "FIL trailer".into(),
                    fields: FilTrailer::fields(
                        image,
                        full_crc32 && check.compressed.is_none(),
                        &ctx,
                    )
                    .map_err(page_err)?,
                });
            }
        }
        Ok(PageDetail {
            file: space.path().display().to_string(),
            page: n,
            file_offset: u64::from(n) * bytes.len() as u64,
            physical_page_size: bytes.len(),
            page_type: check.page_type.name(vendor).into_owned(),
            checksum: verdict_name(&check.checksum),
            checksum_verdict: check.checksum.clone(),
            lsn_consistent: check.lsn_consistent,
            doublewrite_copy: check.doublewrite_copy,
            sections,
            records,
            findings,
            image: bytes.to_vec(),
        })
    }
}

impl PageDetail {
    /// Decodes slot `n` of a doublewrite file: the slot's place, then the
    /// copy it holds as the page it copies (its FIL header, body and
    /// trailer; a ROW_FORMAT=COMPRESSED copy only by its FIL header), or a
    /// reduced batch page's header and entries.
    pub fn of_slot(file: &DoublewriteFile, n: u32) -> Result<PageDetail, SpaceError> {
        let bytes = file.slot(n)?;
        let size = bytes.len();
        let format = SpaceFormat::assumed(size, size, ChecksumLayout::Classic);
        let ctx = PageContext {
            vendor: Vendor::MySql,
            doublewrite_copy: true,
            ..format.page_context(0, n)
        };
        let mut place = vec![
            Field::new(0, 0, "slot", n.into()),
            Field::new(0, 0, "file offset", file.slot_offset(n)),
        ];
        let reduced = file.kind() == DoublewriteKind::Reduced;
        if !reduced {
            let area = match file.area(n) {
                SlotArea::Batch => "a batch segment's",
                SlotArea::SinglePage => "a single-page flush's",
            };
            place.push(Field::with_meaning(0, 0, "area", 0, area));
        }
        let mut sections = vec![Section {
            title: "doublewrite slot".into(),
            fields: place,
        }];
        let mut findings = Vec::new();
        let problem = |e: &innodb_format::FormatError| {
            Finding::on_page(
                FindingKind::Unreadable,
                n,
                e.offset(),
                e.field(),
                e.to_string(),
            )
        };
        let (page_type, verdict) = if reduced {
            let mut body = innodb_format::section::Body::default();
            if !innodb_format::bytes::is_all_zero(bytes) {
                innodb_format::dblwr::reduced::sections(bytes, &ctx, &mut body);
            }
            sections.extend(body.sections);
            findings.extend(body.problems.iter().map(problem));
            let verdict = doublewrite_file::verify_batch_page(bytes);
            ("REDUCED_BATCH".to_string(), verdict)
        } else {
            let check = doublewrite_file::verify_copy(bytes);
            let copy = bytes.get(..check.size).unwrap_or(bytes);
            match FilHeader::parse(copy) {
                Ok(fil) if !check.verdict.eq(&ChecksumVerdict::AllZero) => {
                    sections.push(Section {
                        title: "FIL header".into(),
                        fields: fil.fields_at(0, &ctx),
                    });
                    if check.size < size {
                        sections.push(Section {
                            title: "ROW_FORMAT=COMPRESSED copy".into(),
                            fields: vec![Field::with_meaning(
                                0,
                                check.size,
                                "compressed page bytes",
                                check.size as u64,
                                "the rest of the slot is what it held before; `page` on its tablespace decodes the page",
                            )],
                        });
                    } else {
                        let body = innodb_format::body::decode(fil.page_type, copy, &ctx);
                        sections.extend(body.sections);
                        findings.extend(body.problems.iter().map(problem));
                        if let Ok(t) = FilTrailer::fields(copy, false, &ctx) {
                            sections.push(Section {
                                title: "FIL trailer".into(),
                                fields: t,
                            });
                        }
                    }
                    (
                        fil.page_type.name(Vendor::MySql).into_owned(),
                        check.verdict,
                    )
                }
                _ => ("ALLOCATED".to_string(), check.verdict),
            }
        };
        if let ChecksumVerdict::Invalid { .. } = verdict {
            findings.push(Finding::on_page(
                FindingKind::BadChecksum,
                n,
                0,
                "FIL_PAGE_SPACE_OR_CHKSUM",
                "the copy does not verify: crash recovery ignores it",
            ));
        }
        Ok(PageDetail {
            file: file.path().display().to_string(),
            page: n,
            file_offset: file.slot_offset(n),
            physical_page_size: size,
            page_type,
            checksum: verdict_name(&verdict),
            checksum_verdict: verdict,
            lsn_consistent: None,
            doublewrite_copy: !reduced,
            sections,
            records: None,
            findings,
            image: bytes.to_vec(),
        })
    }
}

/// The section of a page-compressed page's frame: MariaDB's algorithm and
/// payload length, or MySQL's control bytes, its compressed block and what
/// follows the block (the punched hole, read as zeros).
fn frame_section(
    frame: &CompressedFrame,
    bytes: &[u8],
    ctx: &PageContext,
    full_crc32: bool,
) -> Section {
    if frame.layout != FrameLayout::Mysql {
        return Section {
            title: "page-compressed frame".into(),
            fields: vec![
                Field::with_meaning(
                    FIL_PAGE_COMP_ALGO,
                    if full_crc32 { 0 } else { 8 },
                    "FIL_PAGE_COMP_ALGO",
                    frame.algorithm.0.into(),
                    frame.algorithm.name(),
                ),
                Field::new(
                    FIL_PAGE_COMP_ALGO,
                    0,
                    "compressed payload bytes",
                    frame.payload_len as u64,
                ),
            ],
        };
    }
    let mut fields = MysqlCompressedHeader::parse_at(bytes, 0)
        .map(|h| h.fields_at(0, ctx))
        .unwrap_or_default();
    let data = innodb_format::fil::header::FIL_PAGE_DATA;
    fields.push(Field::with_meaning(
        data,
        frame.payload_len,
        "compressed block",
        frame.payload_len as u64,
        format!("{} bytes of {}", frame.payload_len, frame.algorithm.name()),
    ));
    let end = frame.stored_bytes().min(bytes.len());
    let rest = bytes.get(end..).unwrap_or_default();
    let nonzero = rest.iter().filter(|&&b| b != 0).count();
    fields.push(Field::with_meaning(
        end,
        rest.len(),
        "after the block",
        nonzero as u64,
        if nonzero == 0 {
            format!(
                "{} bytes, all zero: the hole the server punches (not read)",
                rest.len()
            )
        } else {
            format!(
                "{} bytes, {nonzero} not zero: left from an earlier write (not read)",
                rest.len()
            )
        },
    ));
    Section {
        title: format!(
            "MySQL compressed page (COMPRESSION='{}')",
            frame.algorithm.name()
        ),
        fields,
    }
}

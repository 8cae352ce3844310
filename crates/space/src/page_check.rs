//! Per-page checks: checksum, LSN agreement, page number and space id, the
//! real type of page-compressed pages, and the index header of index pages.

use crate::doublewrite::DoublewriteArea;
use crate::finding::{Finding, FindingKind};
use innodb_format::checksum::{self, ChecksumLayout, ChecksumVerdict};
use innodb_format::fil::header::{FilHeader, FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID, FIL_PAGE_TYPE};
use innodb_format::fil::page_compressed::{CompressedFrame, PageDecompressor};
use innodb_format::fil::page_type::PageType;
use innodb_format::fil::trailer::FilTrailer;
use innodb_format::index::header::IndexHeader;
use innodb_format::space_format::SpaceFormat;
use serde::Serialize;

/// What checking one page found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PageCheck {
    /// Position of the page in the file.
    pub page_no: u32,
    /// The FIL header as stored (of the frame, for page-compressed pages).
    pub fil: FilHeader,
    /// The page's real type: the stored type, or for a page-compressed page the
    /// type inside the compressed payload.
    pub page_type: PageType,
    /// The checksum verdict.
    pub checksum: ChecksumVerdict,
    /// True when every byte is zero (never initialised).
    pub all_zero: bool,
    /// Whether the trailer's LSN low word matches the header's LSN (`None`
    /// where the layout has no trailer: zip pages, undecodable frames).
    pub lsn_consistent: Option<bool>,
    /// True when the page sits in the doublewrite area of the system
    /// tablespace: a copy of another page, checked as the page it copies.
    pub doublewrite_copy: bool,
    /// For page-compressed pages: the algorithm and payload size.
    pub compressed: Option<CompressedFrame>,
    /// The index header, for index-layout pages.
    pub index: Option<IndexHeader>,
}

impl PageCheck {
    /// True when nothing is wrong with the page's checksum, LSN, number and type.
    pub fn is_consistent(&self) -> bool {
        self.checksum.is_ok() && self.lsn_consistent != Some(false)
    }
}

/// Checks pages of one tablespace; holds the reusable buffers so that a scan
/// over millions of pages allocates nothing per page.
#[derive(Debug)]
pub struct PageChecker {
    format: SpaceFormat,
    space_id: u32,
    doublewrite: Option<DoublewriteArea>,
    decompressor: Option<PageDecompressor>,
    /// False for readers that follow structures and leave checksums to the
    /// scan that reports them ([`PageChecker::without_checksums`]).
    verify_checksums: bool,
}

/// The reason of the `Unverifiable` verdict a checker
/// [`PageChecker::without_checksums`] gives every page that is not all zero:
/// empty, so that no page read allocates.
pub const NOT_VERIFIED: &str = "";

impl PageChecker {
    /// A checker for a tablespace of this format and id.
    pub fn new(format: SpaceFormat, space_id: u32, doublewrite: Option<DoublewriteArea>) -> Self {
        PageChecker {
            format,
            space_id,
            doublewrite,
            decompressor: None,
            verify_checksums: true,
        }
    }

    /// The same checker without checksum verification, for walkers that read
    /// a page for its structure (the same page may be read many times; a
    /// damaged page would cost every checksum algorithm each time). A page's
    /// verdict is then `AllZero`, or `Unverifiable` with the empty reason
    /// [`NOT_VERIFIED`].
    pub fn without_checksums(mut self) -> Self {
        self.verify_checksums = false;
        self
    }

    fn decompressor(&mut self) -> &mut PageDecompressor {
        let size = self.format.logical_page_size();
        self.decompressor
            .get_or_insert_with(|| PageDecompressor::new(size))
    }

    /// The page image inside the last page-compressed page checked.
    pub fn inflated_page(&self) -> Option<&[u8]> {
        self.decompressor.as_ref().map(|d| d.page())
    }

    /// Checks one physical page image at position `page_no`; problems are
    /// appended to `findings`.
    pub fn check(&mut self, page_no: u32, page: &[u8], findings: &mut Vec<Finding>) -> PageCheck {
        let fil = match FilHeader::parse(page) {
            Ok(f) => f,
            Err(e) => {
                // Only a page shorter than 38 bytes gets here: the space layer never serves one.
                findings.push(Finding::on_page(
                    FindingKind::Unreadable,
                    page_no,
                    0,
                    "FIL_HEADER",
                    e.to_string(),
                ));
                return PageCheck {
                    page_no,
                    fil: FilHeader {
                        checksum_or_key_version: 0,
                        page_no,
                        prev: 0,
                        next: 0,
                        lsn: 0,
                        page_type: PageType::ALLOCATED,
                        flush_lsn: 0,
                        space_id: 0,
                    },
                    page_type: PageType::ALLOCATED,
                    checksum: ChecksumVerdict::Invalid {
                        stored: Vec::new(),
                        computed: Vec::new(),
                    },
                    all_zero: false,
                    lsn_consistent: None,
                    doublewrite_copy: false,
                    compressed: None,
                    index: None,
                };
            }
        };
        let doublewrite_copy = self.doublewrite.is_some_and(|d| d.contains(page_no));
        let mut check = PageCheck {
            page_no,
            fil,
            page_type: fil.page_type,
            checksum: ChecksumVerdict::AllZero,
            all_zero: false,
            lsn_consistent: None,
            doublewrite_copy,
            compressed: None,
            index: None,
        };
        check.checksum = if self.verify_checksums {
            checksum::verify(page, self.format.checksum_layout)
        } else if innodb_format::bytes::is_all_zero(page) {
            ChecksumVerdict::AllZero
        } else {
            ChecksumVerdict::Unverifiable {
                reason: String::new(),
            }
        };
        if check.checksum == ChecksumVerdict::AllZero {
            check.all_zero = true;
            return check;
        }
        if doublewrite_copy && !check.checksum.is_ok() {
            // A copy of a page of another tablespace may use another layout.
            if let Some(v) = [
                ChecksumLayout::Classic,
                ChecksumLayout::FullCrc32,
                ChecksumLayout::Zip,
            ]
            .into_iter()
            .map(|l| checksum::verify(page, l))
            .find(ChecksumVerdict::is_ok)
            {
                check.checksum = v;
            }
        }

        let vendor = self.format.vendor;
        let full_crc32 = self.format.flags.full_crc32;
        let is_zip = self.format.is_zip();
        let logical: Option<&[u8]> = if fil.page_type == PageType::PAGE_COMPRESSED && !full_crc32 {
            self.inflate(page_no, page, false, &mut check, findings)
        } else if full_crc32 && fil.page_type.is_full_crc32_compressed() {
            self.inflate(page_no, page, true, &mut check, findings)
        } else if matches!(
            fil.page_type,
            PageType::PAGE_COMPRESSED_ENCRYPTED
                | PageType::ENCRYPTED
                | PageType::COMPRESSED_AND_ENCRYPTED
                | PageType::ENCRYPTED_RTREE
        ) {
            check.checksum = ChecksumVerdict::Unverifiable {
                reason: "encrypted page: the key is not available".into(),
            };
            None
        } else if fil.page_type == PageType::COMPRESSED {
            self.inflate_mysql(page_no, page, &mut check, findings)
        } else {
            Some(page)
        };

        // In a full_crc32 page-compressed frame the payload starts at byte 26:
        // the space id is only in the inflated page.
        let mut stored_space_id = fil.space_id;
        if let Some(image) = logical {
            if check.compressed.is_some() {
                if let Ok(inner) = FilHeader::parse(image) {
                    stored_space_id = inner.space_id;
                }
            }
            if !is_zip {
                // The inflated page keeps the tablespace's trailer layout.
                if let Ok(t) = FilTrailer::parse(image, full_crc32) {
                    check.lsn_consistent = Some(t.lsn_low32 == fil.lsn as u32);
                }
            }
            if check.page_type.is_index_layout(vendor) {
                check.index = IndexHeader::parse(image).ok();
            }
        }

        if let ChecksumVerdict::Unverifiable { reason } = &check.checksum {
            findings.push(Finding::on_page(
                FindingKind::Unverifiable,
                page_no,
                FIL_PAGE_TYPE,
                "FIL_PAGE_TYPE",
                format!("checksum not verified: {reason}"),
            ));
        }
        if let ChecksumVerdict::Invalid { stored, .. } = &check.checksum {
            // Name the stored checksum the layout uses: at 0 (classic, zip) or
            // in the last 4 bytes of the frame (full_crc32).
            let (offset, field) = stored.first().map_or((0, "FIL_PAGE_SPACE_OR_CHKSUM"), |v| {
                (v.offset.unwrap_or(0), v.name)
            });
            findings.push(Finding::on_page(
                FindingKind::BadChecksum,
                page_no,
                offset,
                field,
                bad_checksum_message(&check.checksum),
            ));
        }
        if check.lsn_consistent == Some(false) {
            findings.push(Finding::on_page(
                FindingKind::LsnMismatch,
                page_no,
                FilTrailer::lsn_offset(page.len(), full_crc32),
                "FIL_PAGE_END_LSN",
                format!("trailer LSN low word differs from FIL_PAGE_LSN {}", fil.lsn),
            ));
        }
        if !doublewrite_copy {
            if fil.page_no != page_no {
                findings.push(Finding::on_page(
                    FindingKind::PageNumberMismatch,
                    page_no,
                    FIL_PAGE_OFFSET,
                    "FIL_PAGE_OFFSET",
                    format!("page at position {page_no} says it is page {}", fil.page_no),
                ));
            }
            if stored_space_id != self.space_id {
                findings.push(Finding::on_page(
                    FindingKind::SpaceIdMismatch,
                    page_no,
                    FIL_PAGE_SPACE_ID,
                    "FIL_PAGE_SPACE_ID",
                    format!(
                        "space id {} differs from the tablespace's {}",
                        stored_space_id, self.space_id
                    ),
                ));
            }
        }
        if !check.page_type.is_known(vendor) {
            findings.push(Finding::on_page(
                FindingKind::UnknownPageType,
                page_no,
                FIL_PAGE_TYPE,
                "FIL_PAGE_TYPE",
                format!(
                    "type {} is not a page type any server defines",
                    check.page_type.0
                ),
            ));
        }
        check
    }

    /// Inflates a MySQL compressed page (type 14); returns the inflated image,
    /// whose checksum is the page's (computed before compression, over no
    /// byte the compression header takes). A page that does not inflate
    /// keeps the verdict of its bytes as stored and gets a finding naming
    /// the field at fault.
    fn inflate_mysql(
        &mut self,
        page_no: u32,
        page: &[u8],
        check: &mut PageCheck,
        findings: &mut Vec<Finding>,
    ) -> Option<&[u8]> {
        let verify = self.verify_checksums;
        let layout = self.format.checksum_layout;
        match self.decompressor().decompress_mysql(page) {
            Ok(frame) => {
                check.compressed = Some(frame);
                let image = self.decompressor().page();
                if let Ok(inner) = FilHeader::parse(image) {
                    check.page_type = inner.page_type;
                }
                if verify {
                    check.checksum = checksum::verify(image, layout);
                }
                self.decompressor.as_ref().map(|d| d.page())
            }
            Err(e) => {
                findings.push(Finding::on_page(
                    FindingKind::Decompression,
                    page_no,
                    e.offset(),
                    e.field(),
                    format!("MySQL compressed page: {e}"),
                ));
                None
            }
        }
    }

    /// Inflates a page-compressed page; returns the inflated image.
    fn inflate(
        &mut self,
        page_no: u32,
        page: &[u8],
        full_crc32: bool,
        check: &mut PageCheck,
        findings: &mut Vec<Finding>,
    ) -> Option<&[u8]> {
        let algorithm = self.format.flags.compression_algorithm;
        let result = if full_crc32 {
            // The frame size never exceeds the page.
            let size = checksum::full_crc32_frame_size(page);
            self.decompressor().decompress_full_crc32(
                page.get(..size).unwrap_or(page),
                algorithm.unwrap_or(innodb_format::fsp::flags::CompressionAlgorithm(0)),
            )
        } else {
            self.decompressor().decompress_classic(page)
        };
        match result {
            Ok(frame) => {
                check.compressed = Some(frame);
                let image = self.decompressor().page();
                if let Ok(inner) = FilHeader::parse(image) {
                    check.page_type = inner.page_type;
                }
                if !full_crc32 {
                    // The classic frame has no checksum of its own (0xDEADBEEF
                    // at 0); the inflated page carries the original one.
                    check.checksum = checksum::verify(image, ChecksumLayout::Classic);
                }
                self.decompressor.as_ref().map(|d| d.page())
            }
            Err(e) => {
                let unsupported = matches!(&e, innodb_format::FormatError::Decompress { reason, .. } if reason.contains("not supported"));
                if unsupported {
                    check.checksum = ChecksumVerdict::Unverifiable {
                        reason: e.to_string(),
                    };
                    return None;
                }
                findings.push(Finding::on_page(
                    FindingKind::Decompression,
                    page_no,
                    innodb_format::fil::page_compressed::FIL_PAGE_COMP_ALGO,
                    "FIL_PAGE_COMP_ALGO",
                    e.to_string(),
                ));
                None
            }
        }
    }
}

fn bad_checksum_message(v: &ChecksumVerdict) -> String {
    match v {
        ChecksumVerdict::Invalid { stored, computed } => format!(
            "no checksum algorithm matches: stored {}; computed {}",
            checksum::list_values(stored),
            checksum::list_values(computed)
        ),
        ChecksumVerdict::Unverifiable { reason } => format!("cannot verify: {reason}"),
        _ => String::new(),
    }
}

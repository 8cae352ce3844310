//! File segments: the INODE entries in use, their extent lists and
//! fragment pages, and who owns each segment.
//!
//! A segment's owner is found by following the `FSEG_HEADER`s the format
//! keeps in the owner's own pages: an index root points at its leaf and
//! non-leaf segments, TRX_SYS at its own segment and the doublewrite
//! buffer's, the change-buffer and dictionary headers, rollback segment
//! headers and undo segment headers at theirs. Only a header that points
//! back at an INODE entry in use names a segment.

use crate::finding::{Finding, FindingKind};
use crate::logical_pages::LogicalPages;
use innodb_format::fil::page_type::PageType;
use innodb_format::fsp::flst::FlstBase;
use innodb_format::fsp::fseg_header::FsegHeader;
use innodb_format::fsp::inode::{self, Inode, FSEG_MAGIC_N, FSEG_MAGIC_N_VALUE};
use innodb_format::index::header::{IndexHeader, PAGE_BTR_SEG_LEAF, PAGE_BTR_SEG_TOP};
use innodb_format::index::sdi::SDI_INDEX_ID;
use innodb_format::FIL_NULL;
use serde::Serialize;
use std::collections::HashMap;

/// Who a segment belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SegmentOwner {
    /// The leaf pages of an index (`PAGE_BTR_SEG_LEAF` of its root).
    IndexLeaf {
        /// `PAGE_INDEX_ID` of the root.
        index_id: u64,
        /// The root page.
        root_page: u32,
    },
    /// The non-leaf pages of an index (`PAGE_BTR_SEG_TOP` of its root).
    IndexNonLeaf {
        /// `PAGE_INDEX_ID` of the root.
        index_id: u64,
        /// The root page.
        root_page: u32,
    },
    /// The change buffer tree (system tablespace page 3).
    ChangeBuffer,
    /// The transaction system segment (TRX_SYS, system tablespace page 5).
    TransactionSystem,
    /// The doublewrite buffer (header on the TRX_SYS page).
    Doublewrite,
    /// The data dictionary header segment (system tablespace page 7).
    DictionaryHeader,
    /// A rollback segment (its header page).
    RollbackSegment {
        /// The rollback segment header page.
        header_page: u32,
    },
    /// An undo log segment (its header page).
    UndoLog {
        /// The undo segment header page.
        header_page: u32,
    },
    /// The rollback-segment array of a MySQL 8 undo tablespace.
    RollbackSegmentArray {
        /// The array page.
        header_page: u32,
    },
    /// No header in the file points at this segment.
    Unknown,
}

/// `index 154`, or `SDI` for the SDI index.
fn index_words(index_id: u64) -> String {
    if index_id == SDI_INDEX_ID {
        "SDI".into()
    } else {
        format!("index {index_id}")
    }
}

impl SegmentOwner {
    /// The owner in words, for text reports.
    pub fn describe(&self) -> String {
        match self {
            SegmentOwner::IndexLeaf { index_id, .. } => format!("{} leaf", index_words(*index_id)),
            SegmentOwner::IndexNonLeaf { index_id, .. } => {
                format!("{} non-leaf", index_words(*index_id))
            }
            SegmentOwner::ChangeBuffer => "change buffer".into(),
            SegmentOwner::TransactionSystem => "transaction system".into(),
            SegmentOwner::Doublewrite => "doublewrite buffer".into(),
            SegmentOwner::DictionaryHeader => "dictionary header".into(),
            SegmentOwner::RollbackSegment { header_page } => {
                format!("rollback segment (page {header_page})")
            }
            SegmentOwner::UndoLog { header_page } => format!("undo log (page {header_page})"),
            SegmentOwner::RollbackSegmentArray { header_page } => {
                format!("rollback segment array (page {header_page})")
            }
            SegmentOwner::Unknown => "unknown".into(),
        }
    }

    /// The index id, for index segments.
    pub fn index_id(&self) -> Option<u64> {
        match self {
            SegmentOwner::IndexLeaf { index_id, .. }
            | SegmentOwner::IndexNonLeaf { index_id, .. } => Some(*index_id),
            _ => None,
        }
    }
}

/// One file segment (an INODE entry in use).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Segment {
    /// `FSEG_ID`.
    pub id: u64,
    /// The INODE page holding the entry.
    pub inode_page: u32,
    /// Absolute offset of the entry on that page.
    pub inode_offset: usize,
    /// `FSEG_NOT_FULL_N_USED`.
    pub not_full_n_used: u32,
    /// `FSEG_FREE` as stored.
    #[serde(skip)]
    pub free_base: FlstBase,
    /// `FSEG_NOT_FULL` as stored.
    #[serde(skip)]
    pub not_full_base: FlstBase,
    /// `FSEG_FULL` as stored.
    #[serde(skip)]
    pub full_base: FlstBase,
    /// Fragment pages in use (`FSEG_FRAG_ARR`, slot order).
    pub frag_pages: Vec<u32>,
    /// Extents (numbers) on `FSEG_FREE`, as walked.
    pub free_extents: Vec<u32>,
    /// Extents on `FSEG_NOT_FULL`, as walked.
    pub not_full_extents: Vec<u32>,
    /// Extents on `FSEG_FULL`, as walked.
    pub full_extents: Vec<u32>,
    /// Who owns the segment.
    pub owner: SegmentOwner,
}

impl Segment {
    /// Pages reserved, as the server counts them (`fseg_n_reserved_pages`):
    /// fragment pages plus every page of every extent on the three lists.
    pub fn reserved_pages(&self, extent_size: u32) -> u64 {
        self.frag_pages.len() as u64
            + u64::from(extent_size)
                * (self.free_extents.len() + self.not_full_extents.len() + self.full_extents.len())
                    as u64
    }

    /// Pages used, as the server counts them: fragment pages, full extents
    /// and `FSEG_NOT_FULL_N_USED`.
    pub fn used_pages(&self, extent_size: u32) -> u64 {
        self.frag_pages.len() as u64
            + u64::from(extent_size) * self.full_extents.len() as u64
            + u64::from(self.not_full_n_used)
    }
}

/// Reads every INODE entry in use on `inode_pages`.
pub fn read_segments(
    pages: &mut LogicalPages<'_>,
    inode_pages: &[u32],
    findings: &mut Vec<Finding>,
) -> Vec<Segment> {
    let format = pages.space().format().clone();
    let ps = format.physical_page_size();
    let es = format.extent_size();
    let mut out: Vec<Segment> = Vec::new();
    for &n in inode_pages {
        let Some(page) = pages.read(n) else { continue };
        for i in 0..inode::inodes_per_page(ps, es) {
            let Ok(entry) = Inode::at(&page.bytes, i, es) else {
                break;
            };
            if entry.segment_id() == 0 {
                continue;
            }
            if entry.magic() != FSEG_MAGIC_N_VALUE {
                findings.push(Finding::on_page(
                    FindingKind::BadInode,
                    n,
                    entry.offset() + FSEG_MAGIC_N,
                    "FSEG_MAGIC_N",
                    format!(
                        "INODE entry {i} (segment {}) has magic {} instead of {FSEG_MAGIC_N_VALUE}; the entry is skipped",
                        entry.segment_id(),
                        entry.magic()
                    ),
                ));
                continue;
            }
            if let Some(other) = out.iter().find(|s| s.id == entry.segment_id()) {
                findings.push(Finding::on_page(
                    FindingKind::BadInode,
                    n,
                    entry.offset(),
                    "FSEG_ID",
                    format!(
                        "segment id {} is used by the INODE entries at {}:{} and {n}:{}",
                        entry.segment_id(),
                        other.inode_page,
                        other.inode_offset,
                        entry.offset()
                    ),
                ));
                continue;
            }
            out.push(Segment {
                id: entry.segment_id(),
                inode_page: n,
                inode_offset: entry.offset(),
                not_full_n_used: entry.not_full_n_used(),
                free_base: entry.free(),
                not_full_base: entry.not_full(),
                full_base: entry.full(),
                frag_pages: entry.frag_pages().collect(),
                free_extents: Vec::new(),
                not_full_extents: Vec::new(),
                full_extents: Vec::new(),
                owner: SegmentOwner::Unknown,
            });
        }
    }
    out
}

/// Names each segment by following the segment headers on its fragment pages.
pub fn name_segments(pages: &mut LogicalPages<'_>, segments: &mut [Segment]) {
    let space = pages.space();
    let space_id = space.space_id();
    let vendor = space.format().vendor;
    let ps = space.format().physical_page_size();
    let by_inode: HashMap<(u32, usize), usize> = segments
        .iter()
        .enumerate()
        .map(|(i, s)| ((s.inode_page, s.inode_offset), i))
        .collect();
    let mut candidates: Vec<u32> = segments
        .iter()
        .flat_map(|s| s.frag_pages.iter().copied())
        .collect();
    candidates.sort_unstable();
    candidates.dedup();
    for n in candidates {
        let Some(page) = pages.read(n) else { continue };
        if page.check.all_zero {
            continue;
        }
        let t = page.check.page_type;
        let mut sites: Vec<(usize, SegmentOwner)> = Vec::new();
        if t.is_index_layout(vendor) {
            if let Ok(h) = IndexHeader::parse(&page.bytes) {
                if page.check.fil.prev == FIL_NULL && page.check.fil.next == FIL_NULL {
                    let root_page = n;
                    sites.push((
                        PAGE_BTR_SEG_LEAF,
                        SegmentOwner::IndexLeaf {
                            index_id: h.index_id,
                            root_page,
                        },
                    ));
                    sites.push((
                        PAGE_BTR_SEG_TOP,
                        SegmentOwner::IndexNonLeaf {
                            index_id: h.index_id,
                            root_page,
                        },
                    ));
                }
            }
        } else if t == PageType::TYPE_TRX_SYS {
            sites.push((
                innodb_format::sys::trx_sys::TRX_SYS_FSEG_HEADER,
                SegmentOwner::TransactionSystem,
            ));
            sites.push((
                ps - innodb_format::sys::trx_sys::TRX_SYS_DOUBLEWRITE_FSEG_FROM_END,
                SegmentOwner::Doublewrite,
            ));
        } else if t == PageType::TYPE_SYS {
            if space_id == 0 && n == innodb_format::sys::ibuf_header::FSP_IBUF_HEADER_PAGE_NO {
                sites.push((
                    innodb_format::sys::ibuf_header::IBUF_TREE_SEG_HEADER,
                    SegmentOwner::ChangeBuffer,
                ));
            } else if space_id == 0 && n == innodb_format::sys::dict_hdr::DICT_HDR_PAGE_NO {
                sites.push((
                    innodb_format::sys::dict_hdr::DICT_HDR_FSEG_HEADER,
                    SegmentOwner::DictionaryHeader,
                ));
            } else {
                sites.push((
                    innodb_format::undo::trx_rseg::TRX_RSEG_FSEG_HEADER,
                    SegmentOwner::RollbackSegment { header_page: n },
                ));
            }
        } else if t == PageType::UNDO_LOG {
            sites.push((
                innodb_format::undo::trx_undo::TRX_UNDO_FSEG_HEADER,
                SegmentOwner::UndoLog { header_page: n },
            ));
        } else if t == PageType::RSEG_ARRAY {
            sites.push((
                innodb_format::undo::rseg_array::RSEG_ARRAY_FSEG_HEADER,
                SegmentOwner::RollbackSegmentArray { header_page: n },
            ));
        }
        for (offset, owner) in sites {
            let Ok(h) = FsegHeader::parse_at_named(&page.bytes, offset, "FSEG_HEADER") else {
                continue;
            };
            if h.space != space_id {
                continue;
            }
            if let Some(seg) = by_inode
                .get(&(h.page_no, usize::from(h.offset)))
                .and_then(|&i| segments.get_mut(i))
            {
                if seg.owner == SegmentOwner::Unknown {
                    seg.owner = owner;
                }
            }
        }
    }
}

/// A segment in use that no header in the file names has lost the page that
/// owned it (an index root, a system page): a finding at its INODE entry
/// (`FSEG_ID`), saying what its first fragment page, where an owner's
/// header usually is, now holds. Every segment of the real files the tests
/// read is named.
pub fn report_unnamed_segments(
    pages: &mut LogicalPages<'_>,
    segments: &[Segment],
    findings: &mut Vec<Finding>,
) {
    let vendor = pages.space().format().vendor;
    let mut buf = Vec::new();
    for s in segments.iter().filter(|s| s.owner == SegmentOwner::Unknown) {
        let first = s.frag_pages.first().copied();
        let holds = match first.and_then(|n| Some((n, pages.read_into(n, &mut buf)?))) {
            Some((n, c)) if c.all_zero => {
                format!("; its first fragment page, {n}, where an owner's header usually is, is all zero")
            }
            Some((n, c)) => match c.index.filter(|_| c.page_type.is_index_layout(vendor)) {
                Some(h) => format!(
                    "; its first fragment page, {n} (a page of index {} at level {}), names no segment",
                    h.index_id, h.level
                ),
                None => format!(
                    "; its first fragment page, {n} ({}), names no segment",
                    c.page_type.name(vendor)
                ),
            },
            None => String::new(),
        };
        findings.push(Finding::on_page(
            FindingKind::OwnershipMismatch,
            s.inode_page,
            s.inode_offset + inode::FSEG_ID,
            "FSEG_ID",
            format!(
                "segment {} is in use but no segment header in the file names it: the index root or system page that owned it is lost or overwritten{holds}",
                s.id
            ),
        ));
    }
}

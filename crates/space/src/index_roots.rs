//! Index roots found by reading the index pages themselves, for a tablespace
//! whose FSP header or INODE lists no longer name them (page 0 lost, say).

use crate::logical_pages::LogicalPages;
use crate::Tablespace;
use innodb_format::fil::header::FilHeader;
use innodb_format::fil::page_type::PageType;
use innodb_format::fsp::fseg_header::FsegHeader;
use innodb_format::fsp::inode::{FSEG_ID, FSEG_MAGIC_N, FSEG_MAGIC_N_VALUE};
use innodb_format::index::header::IndexHeader;
use innodb_format::FIL_NULL;
use std::collections::BTreeMap;

/// What the file segment headers of an index page (`PAGE_BTR_SEG_LEAF` at
/// 74 and `PAGE_BTR_SEG_TOP` at 84, which only a root holds) lead to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Segments {
    /// They name no place in the file: not a root.
    None,
    /// Both name an INODE entry that has been freed (`FSEG_ID` 0, or
    /// `FSEG_MAGIC_N` not `FSEG_MAGIC_N_VALUE`): the root of a dropped index
    /// whose pages were freed but not yet overwritten.
    Freed,
    /// They name places that hold no readable INODE page.
    Unknown,
    /// Both name a live INODE entry.
    Live,
}

/// How well a page fits as the root of its index; the greatest wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct RootFit {
    /// Where its file segment headers lead.
    segments: Segments,
    /// No siblings (`FIL_PAGE_PREV` and `FIL_PAGE_NEXT` both `FIL_NULL`).
    alone: bool,
    /// `PAGE_LEVEL`.
    level: u16,
    /// The lower page number first (stored reversed).
    earlier: std::cmp::Reverse<u32>,
}

/// Every index's root as its pages tell it: (index id, root page), sorted by
/// index id. For each `PAGE_INDEX_ID` found on an index page, the root is
/// the page whose file segment headers name live INODE entries, that has no
/// siblings and that lies at the highest level, in that order of weight,
/// then the lowest numbered. An index whose root names freed INODE entries
/// was dropped and is left out. Reads every page once, inflating compressed
/// ones, and the INODE pages the roots name.
pub fn index_roots_by_scan(space: &Tablespace) -> Vec<(u64, u32)> {
    let vendor = space.format().vendor;
    let page_count = space.page_count();
    let mut pages = LogicalPages::new(space);
    let mut inodes = InodeReader::new(space);
    let mut buf = Vec::new();
    let mut best: BTreeMap<u64, (RootFit, u32)> = BTreeMap::new();
    for n in 0..page_count {
        let Some(check) = pages.read_into(n, &mut buf) else {
            continue;
        };
        if check.all_zero || !check.page_type.is_index_layout(vendor) {
            continue;
        }
        let (Ok(fil), Ok(header)) = (FilHeader::parse(&buf), IndexHeader::parse(&buf)) else {
            continue;
        };
        let fit = RootFit {
            segments: inodes.segments(&header.seg_leaf, &header.seg_top),
            alone: fil.prev == FIL_NULL && fil.next == FIL_NULL,
            level: header.level,
            earlier: std::cmp::Reverse(n),
        };
        let entry = best.entry(header.index_id).or_insert((fit, n));
        if fit > entry.0 {
            *entry = (fit, n);
        }
    }
    best.into_iter()
        .filter(|(_, (fit, _))| fit.segments != Segments::Freed)
        .map(|(id, (_, n))| (id, n))
        .collect()
}

/// Reads INODE entries, keeping the last INODE page read (a file has few).
struct InodeReader<'a> {
    pages: LogicalPages<'a>,
    page_no: Option<u32>,
    page: Vec<u8>,
}

impl<'a> InodeReader<'a> {
    fn new(space: &'a Tablespace) -> Self {
        InodeReader {
            pages: LogicalPages::new(space),
            page_no: None,
            page: Vec::new(),
        }
    }

    /// Where a root's two file segment headers lead.
    fn segments(&mut self, leaf: &FsegHeader, top: &FsegHeader) -> Segments {
        match (self.entry(leaf), self.entry(top)) {
            (Some(a), Some(b)) => a.min(b),
            (None, _) | (_, None) => Segments::None,
        }
    }

    /// The state of the INODE entry `at` names; `None` when it names no
    /// place in the file.
    fn entry(&mut self, at: &FsegHeader) -> Option<Segments> {
        let page_count = self.pages.space().page_count();
        let offset = usize::from(at.offset);
        if at.page_no >= page_count || offset == 0 {
            return None;
        }
        if self.page_no != Some(at.page_no) {
            // Only an INODE page that is there says an entry was freed; a
            // zeroed or overwritten one says nothing.
            self.page_no = self
                .pages
                .read_into(at.page_no, &mut self.page)
                .filter(|c| c.page_type == PageType::INODE && !c.all_zero)
                .map(|_| at.page_no);
        }
        if self.page_no.is_none() {
            return Some(Segments::Unknown);
        }
        let u64_at = |o: usize| {
            let b = self.page.get(o..o + 8)?;
            Some(u64::from_be_bytes(b.try_into().ok()?))
        };
        let u32_at = |o: usize| {
            let b = self.page.get(o..o + 4)?;
            Some(u32::from_be_bytes(b.try_into().ok()?))
        };
        Some(
            match (u64_at(offset + FSEG_ID), u32_at(offset + FSEG_MAGIC_N)) {
                (Some(id), Some(magic)) if id != 0 && magic == FSEG_MAGIC_N_VALUE => Segments::Live,
                (Some(_), Some(_)) => Segments::Freed,
                _ => Segments::Unknown,
            },
        )
    }
}

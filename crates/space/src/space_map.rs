//! The space-management model of a tablespace: every extent descriptor
//! (page 0 and each XDES page), the space's extent and INODE lists, every
//! file segment, and who owns each page.
//!
//! Built from the structural pages only (page 0, XDES pages, INODE pages and
//! the pages holding segment headers), so it is cheap next to a scan; the
//! per-page questions ("who owns page N?") are then answered from memory.
//! Every list walk is bounded and cycle-safe; every inconsistency is a
//! [`Finding`].

use crate::finding::{Finding, FindingKind};
use crate::list_walk::{self, ListName, ListWalk};
use crate::logical_pages::LogicalPages;
use crate::segment::{self, Segment};
use crate::Tablespace;
use innodb_format::fil::page_type::PageType;
use innodb_format::fsp::flst::{FilAddr, FlstBase};
use innodb_format::fsp::header::{
    FSP_FREE, FSP_FREE_FRAG, FSP_FULL_FRAG, FSP_SEG_INODES_FREE, FSP_SEG_INODES_FULL,
};
use innodb_format::fsp::xdes::{self, XdesEntry, XdesState, XDES_ARR_OFFSET, XDES_FLST_NODE};
use serde::Serialize;
use std::collections::HashMap;

/// The list an extent was found on by walking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "list", content = "segment")]
pub enum ExtentList {
    /// `FSP_FREE`.
    SpaceFree,
    /// `FSP_FREE_FRAG`.
    SpaceFreeFrag,
    /// `FSP_FULL_FRAG`.
    SpaceFullFrag,
    /// A segment's `FSEG_FREE` (index into [`SpaceMap::segments`]).
    SegmentFree(usize),
    /// A segment's `FSEG_NOT_FULL`.
    SegmentNotFull(usize),
    /// A segment's `FSEG_FULL`.
    SegmentFull(usize),
}

/// One extent as its descriptor gives it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Extent {
    /// First page of the extent.
    pub first_page: u32,
    /// `XDES_STATE` (`NOT_INITED` when there is no descriptor to read).
    pub state: XdesState,
    /// `XDES_ID`: the owning segment, for segment extents.
    pub segment_id: u64,
    /// Pages whose `XDES_FREE_BIT` is clear.
    pub used_pages: u32,
    /// True when a descriptor was read for the extent (its XDES page lies
    /// below the free limit and is readable).
    pub described: bool,
    /// The list a walk found the extent on.
    pub list: Option<ExtentList>,
}

/// A space-level list: its base and what walking it found.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SpaceList {
    /// Name (`FSP_FREE`, …).
    pub name: &'static str,
    /// `FLST_LEN` as stored.
    pub stored_len: u32,
    /// Nodes reached by the walk.
    pub walked_len: u32,
}

/// The space-management model of one tablespace.
#[derive(Debug, Clone)]
pub struct SpaceMap {
    /// Physical page size in bytes.
    pub physical_page_size: u32,
    /// Pages per extent.
    pub extent_size: u32,
    /// Pages in the file.
    pub page_count: u32,
    /// `FSP_SIZE`.
    pub fsp_size: u32,
    /// `FSP_FREE_LIMIT`: pages at and after it were never initialised.
    pub free_limit: u32,
    /// `FSP_FRAG_N_USED`: used pages in `FREE_FRAG` extents.
    pub frag_n_used: u32,
    /// `FSP_SEG_ID`: the next segment id to be handed out.
    pub next_segment_id: u64,
    /// Every extent that starts inside the file.
    pub extents: Vec<Extent>,
    /// The space lists, in header order.
    pub space_lists: Vec<SpaceList>,
    /// INODE pages found on `FSP_SEG_INODES_FULL` and `FSP_SEG_INODES_FREE`.
    pub inode_pages: Vec<u32>,
    /// Every file segment in use.
    pub segments: Vec<Segment>,
    /// Problems found while reading the structures.
    pub findings: Vec<Finding>,
    /// One bit per page of the described extents: set when the page is free.
    free_bits: Vec<u64>,
    /// Fragment pages: page → segment index.
    fragment_owner: HashMap<u32, usize>,
    /// `inode_pages`, sorted, for lookups.
    inode_pages_sorted: Vec<u32>,
}

/// Why the space map could not be built at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoSpaceMap {
    /// Page 0 is not usable, so there is no FSP header to start from.
    NoFspHeader,
}

impl SpaceMap {
    /// Reads the space-management structures of `space`.
    pub fn read(space: &Tablespace) -> Result<SpaceMap, NoSpaceMap> {
        let header = *space.fsp_header().ok_or(NoSpaceMap::NoFspHeader)?;
        let format = space.format();
        let ps = format.physical_page_size() as u32;
        let extent_size = format.extent_size() as u32;
        let page_count = space.page_count();
        let mut pages = LogicalPages::new(space);
        let mut findings = Vec::new();
        let mut map = SpaceMap {
            physical_page_size: ps,
            extent_size,
            page_count,
            fsp_size: header.size,
            free_limit: header.free_limit,
            frag_n_used: header.frag_n_used,
            next_segment_id: header.seg_id,
            extents: Vec::new(),
            space_lists: Vec::new(),
            inode_pages: Vec::new(),
            segments: Vec::new(),
            findings: Vec::new(),
            free_bits: Vec::new(),
            fragment_owner: HashMap::new(),
            inode_pages_sorted: Vec::new(),
        };
        map.read_descriptors(&mut pages, &mut findings);
        let n_extents = map.extents.len();
        for (name, offset, base, list) in [
            ("FSP_FREE", FSP_FREE, header.free, ExtentList::SpaceFree),
            (
                "FSP_FREE_FRAG",
                FSP_FREE_FRAG,
                header.free_frag,
                ExtentList::SpaceFreeFrag,
            ),
            (
                "FSP_FULL_FRAG",
                FSP_FULL_FRAG,
                header.full_frag,
                ExtentList::SpaceFullFrag,
            ),
        ] {
            let name = ListName {
                name,
                base_page: 0,
                base_offset: offset,
                owner: "the tablespace",
            };
            let walk = map.walk_extent_list(&mut pages, name, &base, n_extents, &mut findings);
            map.space_lists.push(SpaceList {
                name: name.name,
                stored_len: base.len,
                walked_len: walk.len() as u32,
            });
            map.claim_extents(&walk, list, name.name, &mut findings);
        }
        for (name, offset, base) in [
            (
                "FSP_SEG_INODES_FULL",
                FSP_SEG_INODES_FULL,
                header.seg_inodes_full,
            ),
            (
                "FSP_SEG_INODES_FREE",
                FSP_SEG_INODES_FREE,
                header.seg_inodes_free,
            ),
        ] {
            let list = ListName {
                name,
                base_page: 0,
                base_offset: offset,
                owner: "the tablespace",
            };
            let walk = walk_inode_list(&mut pages, list, &base, page_count, &mut findings);
            map.space_lists.push(SpaceList {
                name,
                stored_len: base.len,
                walked_len: walk.nodes.len() as u32,
            });
            for a in walk.nodes {
                if map.inode_pages.contains(&a.page) {
                    // (a list of INODE pages is short: one page holds 7 to 341 segments)
                    findings.push(Finding::on_page(
                        FindingKind::BrokenList,
                        a.page,
                        usize::from(a.byte),
                        name,
                        format!("INODE page {} is on both INODE lists", a.page),
                    ));
                } else {
                    map.inode_pages.push(a.page);
                }
            }
        }
        map.inode_pages_sorted = map.inode_pages.clone();
        map.inode_pages_sorted.sort_unstable();
        map.segments = segment::read_segments(&mut pages, &map.inode_pages, &mut findings);
        for i in 0..map.segments.len() {
            map.walk_segment_lists(&mut pages, i, &mut findings);
        }
        map.claim_fragments(&mut findings);
        segment::name_segments(&mut pages, &mut map.segments);
        segment::report_unnamed_segments(&mut pages, &map.segments, &mut findings);
        map.check_counts(&mut findings);
        map.findings = findings;
        Ok(map)
    }

    /// Reads every extent descriptor of the space: the extents of the file
    /// up to `FSP_SIZE` or the free limit, whichever is further. Pages past
    /// both (a file longer than its page 0 says, a sparse file extended by
    /// hand) have no extent: they are beyond the free limit, and the map's
    /// memory does not grow with them.
    fn read_descriptors(&mut self, pages: &mut LogicalPages<'_>, findings: &mut Vec<Finding>) {
        let (ps, es) = (self.physical_page_size, self.extent_size);
        let mapped = self
            .page_count
            .min(self.fsp_size.max(self.free_limit))
            .max(1);
        let n_extents = mapped.div_ceil(es);
        self.free_bits = vec![0; (n_extents as usize * es as usize).div_ceil(64)];
        let mut descriptor_page: Option<(u32, Option<Vec<u8>>)> = None;
        for e in 0..n_extents {
            let first_page = e * es;
            let xdes_page = first_page - first_page % ps;
            if descriptor_page
                .as_ref()
                .is_none_or(|(n, _)| *n != xdes_page)
            {
                let bytes = self.descriptor_page(pages, xdes_page, findings);
                descriptor_page = Some((xdes_page, bytes));
            }
            let entry = descriptor_page.as_ref().and_then(|(_, b)| {
                let index = ((first_page - xdes_page) / es) as usize;
                b.as_deref()
                    .and_then(|b| XdesEntry::at(b, index, es as usize).ok())
            });
            let mut extent = Extent {
                first_page,
                state: XdesState::NOT_INITED,
                segment_id: 0,
                used_pages: 0,
                described: false,
                list: None,
            };
            match entry {
                Some(x) => {
                    extent.state = x.state();
                    extent.segment_id = x.segment_id();
                    extent.described = true;
                    // A never-used entry is all zero: its bitmap means nothing.
                    let never_used = extent.state == XdesState::NOT_INITED;
                    for i in 0..es as usize {
                        if never_used || x.is_page_free(i) {
                            self.set_free(first_page + i as u32);
                        } else {
                            extent.used_pages += 1;
                        }
                    }
                    if extent.state.name() == "UNKNOWN" {
                        findings.push(Finding::on_page(
                            FindingKind::ExtentState,
                            xdes_page,
                            XdesEntry::offset_of(
                                ((first_page - xdes_page) / es) as usize,
                                es as usize,
                            ) + xdes::XDES_STATE,
                            "XDES_STATE",
                            format!(
                                "extent at page {first_page} has state {}, which no server writes",
                                extent.state.0
                            ),
                        ));
                    }
                }
                None => {
                    // No descriptor: every page counts as free (never initialised).
                    for i in 0..es {
                        self.set_free(first_page + i);
                    }
                }
            }
            self.extents.push(extent);
        }
    }

    /// The descriptor page `n` (page 0 or an XDES page), or `None` when it
    /// lies beyond the free limit or cannot be used (a finding says why).
    fn descriptor_page(
        &self,
        pages: &mut LogicalPages<'_>,
        n: u32,
        findings: &mut Vec<Finding>,
    ) -> Option<Vec<u8>> {
        if n != 0 && n >= self.free_limit {
            return None;
        }
        let page = pages.read(n)?;
        let expected = if n == 0 {
            PageType::TYPE_FSP_HDR
        } else {
            PageType::TYPE_XDES
        };
        // MySQL 5.0 wrote no FIL_PAGE_TYPE on these pages: 0 with content is accepted.
        let typed_ok =
            page.check.page_type == expected || page.check.page_type == PageType::ALLOCATED;
        if page.check.all_zero || !typed_ok {
            let vendor = pages.space().format().vendor;
            findings.push(Finding::on_page(
                FindingKind::ExtentState,
                n,
                if page.check.all_zero { 0 } else { innodb_format::fil::header::FIL_PAGE_TYPE },
                "FIL_PAGE_TYPE",
                format!(
                    "page {n} should be the {} page describing pages {n}..{} but {}; those extents are reported as undescribed",
                    expected.name(vendor),
                    n + self.physical_page_size - 1,
                    if page.check.all_zero {
                        "it is all zero".to_string()
                    } else {
                        format!("it is a {} page", page.check.page_type.name(vendor))
                    }
                ),
            ));
            return None;
        }
        Some(page.bytes)
    }

    fn set_free(&mut self, page: u32) {
        if let Some(w) = self.free_bits.get_mut(page as usize / 64) {
            *w |= 1 << (page % 64);
        }
    }

    /// True when page `n`'s `XDES_FREE_BIT` is set (or it has no descriptor).
    pub fn is_page_free(&self, n: u32) -> bool {
        self.free_bits
            .get(n as usize / 64)
            .is_none_or(|w| w >> (n % 64) & 1 == 1)
    }

    /// Pages the map's extents cover: every page from here on has no
    /// extent (it lies past `FSP_SIZE` and the free limit).
    pub fn mapped_pages(&self) -> u32 {
        (self.extents.len() as u64 * u64::from(self.extent_size)).min(u64::from(u32::MAX)) as u32
    }

    /// The extent holding page `n`.
    pub fn extent_of(&self, n: u32) -> Option<&Extent> {
        self.extents.get((n / self.extent_size) as usize)
    }

    /// The segment (index into [`SpaceMap::segments`]) whose fragment slots list page `n`.
    pub fn fragment_owner(&self, n: u32) -> Option<usize> {
        self.fragment_owner.get(&n).copied()
    }

    /// Every index root that names its segments: (index id, root page),
    /// sorted.
    pub fn index_roots(&self) -> Vec<(u64, u32)> {
        let mut out: Vec<(u64, u32)> = self
            .segments
            .iter()
            .filter_map(|s| match s.owner {
                crate::segment::SegmentOwner::IndexNonLeaf {
                    index_id,
                    root_page,
                }
                | crate::segment::SegmentOwner::IndexLeaf {
                    index_id,
                    root_page,
                } => Some((index_id, root_page)),
                _ => None,
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The segment with id `id`.
    pub fn segment_by_id(&self, id: u64) -> Option<usize> {
        self.segments.iter().position(|s| s.id == id)
    }

    /// True when page `n` is a page-management page by position (FSP_HDR,
    /// XDES, IBUF_BITMAP) or an INODE page on the space's lists.
    pub fn is_bookkeeping(&self, n: u32) -> bool {
        let ps = self.physical_page_size;
        let r = n % ps;
        ((r == 0 || r == 1) && (n < self.free_limit || n < 2))
            || self.inode_pages_sorted.binary_search(&n).is_ok()
    }

    /// The extent an XDES list node address designates, if it is one.
    fn extent_at(&self, addr: FilAddr) -> Option<usize> {
        let ps = self.physical_page_size;
        let es = self.extent_size as usize;
        if !addr.page.is_multiple_of(ps) || addr.page >= self.page_count {
            return None;
        }
        let rel = usize::from(addr.byte).checked_sub(XDES_ARR_OFFSET + XDES_FLST_NODE)?;
        let size = xdes::xdes_size(es);
        let index = rel / size;
        if rel % size != 0 || index >= xdes::entries_per_page(ps as usize, es) {
            return None;
        }
        let e = (addr.page as usize + index * es) / es;
        (e < self.extents.len()).then_some(e)
    }

    /// Walks a list of XDES entries; returns the extents reached, in order.
    fn walk_extent_list(
        &self,
        pages: &mut LogicalPages<'_>,
        list: ListName<'_>,
        base: &FlstBase,
        max: usize,
        findings: &mut Vec<Finding>,
    ) -> Vec<usize> {
        let mut cache: Option<(u32, Vec<u8>)> = None;
        let walk = list_walk::walk(
            list,
            base,
            max,
            |a| {
                if cache.as_ref().is_none_or(|(n, _)| *n != a.page) {
                    let page = pages.read(a.page).ok_or("the page is beyond the file")?;
                    cache = Some((a.page, page.bytes));
                }
                let (_, bytes) = cache.as_ref().ok_or("no page")?;
                list_walk::node_on_page(bytes, a)
            },
            |a| self.extent_at(a).is_some(),
            findings,
        );
        walk.nodes
            .iter()
            .filter_map(|&a| self.extent_at(a))
            .collect()
    }

    /// Records that the extents `walk` reached are on `list`.
    fn claim_extents(
        &mut self,
        walk: &[usize],
        list: ExtentList,
        name: &str,
        findings: &mut Vec<Finding>,
    ) {
        for &e in walk {
            let Some(extent) = self.extents.get_mut(e) else {
                continue;
            };
            if let Some(other) = extent.list {
                findings.push(Finding::on_page(
                    FindingKind::BrokenList,
                    extent.first_page,
                    0,
                    "XDES_FLST_NODE",
                    format!(
                        "extent at page {} is on {name} and also on {other:?}",
                        extent.first_page
                    ),
                ));
                continue;
            }
            extent.list = Some(list);
        }
    }

    /// Walks one segment's three extent lists.
    fn walk_segment_lists(
        &mut self,
        pages: &mut LogicalPages<'_>,
        i: usize,
        findings: &mut Vec<Finding>,
    ) {
        let Some(seg) = self.segments.get(i).cloned() else {
            return;
        };
        let owner = format!("segment {}", seg.id);
        let n_extents = self.extents.len();
        for (name, rel, base, list) in [
            (
                "FSEG_FREE",
                innodb_format::fsp::inode::FSEG_FREE,
                seg.free_base,
                ExtentList::SegmentFree(i),
            ),
            (
                "FSEG_NOT_FULL",
                innodb_format::fsp::inode::FSEG_NOT_FULL,
                seg.not_full_base,
                ExtentList::SegmentNotFull(i),
            ),
            (
                "FSEG_FULL",
                innodb_format::fsp::inode::FSEG_FULL,
                seg.full_base,
                ExtentList::SegmentFull(i),
            ),
        ] {
            let ln = ListName {
                name,
                base_page: seg.inode_page,
                base_offset: seg.inode_offset + rel,
                owner: &owner,
            };
            let walk = self.walk_extent_list(pages, ln, &base, n_extents, findings);
            let extents: Vec<u32> = walk.iter().map(|&e| e as u32).collect();
            if let Some(seg) = self.segments.get_mut(i) {
                match list {
                    ExtentList::SegmentFree(_) => seg.free_extents = extents,
                    ExtentList::SegmentNotFull(_) => seg.not_full_extents = extents,
                    _ => seg.full_extents = extents,
                }
            }
            self.claim_extents(&walk, list, name, findings);
        }
    }

    /// Records fragment pages and reports pages claimed twice.
    fn claim_fragments(&mut self, findings: &mut Vec<Finding>) {
        for (i, seg) in self.segments.iter().enumerate() {
            for &p in &seg.frag_pages {
                if p >= self.page_count {
                    findings.push(Finding::on_page(
                        FindingKind::BadInode,
                        seg.inode_page,
                        seg.inode_offset + innodb_format::fsp::inode::FSEG_FRAG_ARR,
                        "FSEG_FRAG_ARR",
                        format!(
                            "segment {} lists fragment page {p}, beyond the file's {} pages",
                            seg.id, self.page_count
                        ),
                    ));
                    continue;
                }
                if let Some(other) = self
                    .fragment_owner
                    .get(&p)
                    .and_then(|&o| self.segments.get(o))
                {
                    findings.push(Finding::on_page(
                        FindingKind::PageClaimedTwice,
                        p,
                        0,
                        "FSEG_FRAG_ARR",
                        format!(
                            "page {p} is a fragment page of segment {} and of segment {}",
                            other.id, seg.id
                        ),
                    ));
                    continue;
                }
                self.fragment_owner.insert(p, i);
            }
        }
    }

    /// Checks descriptor states against lists, and the stored counts.
    fn check_counts(&self, findings: &mut Vec<Finding>) {
        let mut frag_used = 0u32;
        for x in self.extents.iter().filter(|x| x.described) {
            let expect = match x.list {
                Some(ExtentList::SpaceFree) => Some(XdesState::FREE),
                Some(ExtentList::SpaceFreeFrag) => Some(XdesState::FREE_FRAG),
                Some(ExtentList::SpaceFullFrag) => Some(XdesState::FULL_FRAG),
                Some(_) => None,
                None => None,
            };
            // The finding names the descriptor entry's field that disagrees.
            let xdes_page = x.first_page - x.first_page % self.physical_page_size;
            let entry = XdesEntry::offset_of(
                ((x.first_page - xdes_page) / self.extent_size) as usize,
                self.extent_size as usize,
            );
            let mut problem = |field: &'static str, rel: usize, message: String| {
                findings.push(Finding::on_page(
                    FindingKind::ExtentState,
                    xdes_page,
                    entry + rel,
                    field,
                    message,
                ))
            };
            match (expect, x.list) {
                (Some(state), Some(list)) if state != x.state => problem(
                    "XDES_STATE",
                    xdes::XDES_STATE,
                    format!(
                        "extent at page {} is on {list:?} but its state is {}",
                        x.first_page, x.state
                    ),
                ),
                (
                    None,
                    Some(
                        list @ (ExtentList::SegmentFree(i)
                        | ExtentList::SegmentNotFull(i)
                        | ExtentList::SegmentFull(i)),
                    ),
                ) => {
                    // Only walk_segment_lists tags an extent with a segment,
                    // by its index in self.segments.
                    let Some(seg) = self.segments.get(i) else {
                        continue;
                    };
                    if !x.state.is_segment() || x.segment_id != seg.id {
                        let (field, rel) = if x.state.is_segment() {
                            ("XDES_ID", xdes::XDES_ID)
                        } else {
                            ("XDES_STATE", xdes::XDES_STATE)
                        };
                        problem(field, rel, format!(
                            "extent at page {} is on a list of segment {} but its descriptor says {} of segment {}",
                            x.first_page, seg.id, x.state, x.segment_id
                        ));
                    }
                    if matches!(list, ExtentList::SegmentFull(_))
                        && x.used_pages != self.extent_size
                    {
                        problem("XDES_BITMAP", xdes::XDES_BITMAP, format!(
                            "extent at page {} is on FSEG_FULL of segment {} but {} of its pages are free",
                            x.first_page, seg.id, self.extent_size - x.used_pages
                        ));
                    }
                    if matches!(list, ExtentList::SegmentFree(_)) && x.used_pages != 0 {
                        problem("XDES_BITMAP", xdes::XDES_BITMAP, format!(
                            "extent at page {} is on FSEG_FREE of segment {} but {} of its pages are used",
                            x.first_page, seg.id, x.used_pages
                        ));
                    }
                }
                (_, None) if x.state != XdesState::NOT_INITED && x.first_page < self.free_limit => {
                    problem(
                        "XDES_STATE",
                        xdes::XDES_STATE,
                        format!(
                            "extent at page {} has state {} but is on no list",
                            x.first_page, x.state
                        ),
                    );
                }
                _ => {}
            }
            if x.state == XdesState::FREE_FRAG {
                frag_used += x.used_pages;
            }
        }
        if frag_used != self.frag_n_used {
            findings.push(Finding::on_page(
                FindingKind::CountMismatch,
                0,
                innodb_format::fsp::header::FSP_FRAG_N_USED,
                "FSP_FRAG_N_USED",
                format!(
                    "FSP_FRAG_N_USED says {} used pages in FREE_FRAG extents; their descriptors mark {frag_used} used",
                    self.frag_n_used
                ),
            ));
        }
        for seg in &self.segments {
            let used: u32 = seg
                .not_full_extents
                .iter()
                .filter_map(|&e| self.extents.get(e as usize))
                .map(|x| x.used_pages)
                .sum();
            if used != seg.not_full_n_used {
                findings.push(Finding::on_page(
                    FindingKind::CountMismatch,
                    seg.inode_page,
                    seg.inode_offset + innodb_format::fsp::inode::FSEG_NOT_FULL_N_USED,
                    "FSEG_NOT_FULL_N_USED",
                    format!(
                        "segment {} says {} used pages in its NOT_FULL extents; their descriptors mark {used} used",
                        seg.id, seg.not_full_n_used
                    ),
                ));
            }
        }
    }
}

/// Walks an INODE-page list (nodes at byte 38 of INODE pages).
fn walk_inode_list(
    pages: &mut LogicalPages<'_>,
    list: ListName<'_>,
    base: &FlstBase,
    page_count: u32,
    findings: &mut Vec<Finding>,
) -> ListWalk {
    let node_offset = innodb_format::fsp::inode::FSEG_INODE_PAGE_NODE as u16;
    list_walk::walk(
        list,
        base,
        page_count as usize,
        |a| {
            let page = pages.read(a.page).ok_or("the page is beyond the file")?;
            if page.check.page_type != PageType::INODE {
                return Err(format!("page {} is not an INODE page", a.page));
            }
            list_walk::node_on_page(&page.bytes, a)
        },
        |a| a.page < page_count && a.byte == node_offset,
        findings,
    )
}

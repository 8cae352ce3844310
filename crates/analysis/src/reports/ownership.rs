//! Page ownership: who each page of a tablespace belongs to, decided from
//! the space map (extent descriptors, segments, bookkeeping positions), and
//! checked against what the page holds during one scan.

use crate::reports::scan::{scan, PageConsumer};
use innodb_format::fil::page_type::PageType;
use innodb_format::fsp::xdes::XdesState;
use innodb_format::vendor::Vendor;
use innodb_space::segment::SegmentOwner;
use innodb_space::space_map::SpaceMap;
use innodb_space::{Finding, FindingKind, FindingLog, PageCheck, Tablespace};
use serde::Serialize;

/// What a page is used for, according to the space-management structures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PageUse {
    /// Page 0, an XDES page, an IBUF_BITMAP page or an INODE page.
    Bookkeeping,
    /// A page a segment uses (index `segment` into the map's segments).
    Segment {
        /// Index into [`SpaceMap::segments`].
        segment: usize,
        /// True for a page in one of the segment's extents, false for a fragment page.
        in_extent: bool,
    },
    /// A free page inside an extent a segment reserved.
    ReservedUnused {
        /// Index into [`SpaceMap::segments`], when the extent's segment is known.
        segment: Option<usize>,
    },
    /// A free page inside a fragment extent (`FREE_FRAG`).
    FragmentUnused,
    /// A page of a free extent (`FREE`).
    FreeExtent,
    /// A page at or beyond `FSP_FREE_LIMIT`: never initialised.
    BeyondFreeLimit,
    /// A page whose descriptor could not be read (damaged XDES page).
    Undescribed,
    /// A page marked used in a fragment extent that no segment lists and
    /// that is not a bookkeeping page.
    Unaccounted,
}

impl PageUse {
    /// Short name, as in JSON.
    pub fn name(self) -> &'static str {
        match self {
            PageUse::Bookkeeping => "bookkeeping",
            PageUse::Segment { .. } => "segment",
            PageUse::ReservedUnused { .. } => "reserved_unused",
            PageUse::FragmentUnused => "fragment_unused",
            PageUse::FreeExtent => "free_extent",
            PageUse::BeyondFreeLimit => "beyond_free_limit",
            PageUse::Undescribed => "undescribed",
            PageUse::Unaccounted => "unaccounted",
        }
    }
}

/// Decides the use of page `n` from the map alone; a contradiction between
/// the structures (a fragment page inside another segment's extent, a
/// fragment page marked free) is pushed to `findings`.
pub fn classify(map: &SpaceMap, n: u32, findings: &mut Vec<Finding>) -> PageUse {
    let frag = map.fragment_owner(n);
    let Some(extent) = map.extent_of(n) else {
        return PageUse::BeyondFreeLimit;
    };
    let free = map.is_page_free(n);
    let seg_id = |i: usize| map.segments.get(i).map_or(0, |s| s.id);
    let mut claim = |message: String| {
        findings.push(Finding::on_page(
            FindingKind::PageClaimedTwice,
            n,
            0,
            "XDES_BITMAP",
            message,
        ));
    };
    if map.is_bookkeeping(n) {
        if let Some(i) = frag {
            claim(format!(
                "page {n} is a bookkeeping page but segment {} lists it as a fragment page",
                seg_id(i)
            ));
        }
        if free && extent.described {
            findings.push(Finding::on_page(
                FindingKind::OwnershipMismatch,
                n,
                0,
                "XDES_FREE_BIT",
                format!("page {n} is a bookkeeping page but its descriptor marks it free"),
            ));
        }
        return PageUse::Bookkeeping;
    }
    if !extent.described {
        return if n >= map.free_limit || extent.first_page >= map.free_limit {
            PageUse::BeyondFreeLimit
        } else {
            PageUse::Undescribed
        };
    }
    if n >= map.free_limit && extent.state == XdesState::NOT_INITED {
        return PageUse::BeyondFreeLimit;
    }
    let state = extent.state;
    if state.is_segment() {
        let owner = map.segment_by_id(extent.segment_id);
        if let Some(i) = frag {
            if Some(i) != owner {
                claim(format!(
                    "page {n} is a fragment page of segment {} but lies in an extent of segment {}",
                    seg_id(i),
                    extent.segment_id
                ));
            }
        }
        return match (free, owner) {
            (true, seg) => PageUse::ReservedUnused { segment: seg },
            (false, Some(i)) => PageUse::Segment {
                segment: i,
                in_extent: frag.is_none(),
            },
            (false, None) => PageUse::Unaccounted,
        };
    }
    if state.is_fragment() {
        return match (free, frag) {
            (false, Some(i)) => PageUse::Segment {
                segment: i,
                in_extent: false,
            },
            (false, None) => PageUse::Unaccounted,
            (true, Some(i)) => {
                findings.push(Finding::on_page(
                    FindingKind::OwnershipMismatch,
                    n,
                    0,
                    "XDES_FREE_BIT",
                    format!(
                        "page {n} is a fragment page of segment {} but its descriptor marks it free",
                        seg_id(i)
                    ),
                ));
                PageUse::FragmentUnused
            }
            (true, None) => PageUse::FragmentUnused,
        };
    }
    if let Some(i) = frag {
        claim(format!(
            "page {n} is a fragment page of segment {} but lies in a {} extent",
            seg_id(i),
            state
        ));
    }
    if state == XdesState::FREE {
        PageUse::FreeExtent
    } else {
        PageUse::BeyondFreeLimit
    }
}

/// Pages of one segment as the scan saw them.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct SegmentPages {
    /// Pages the segment uses.
    pub used: u64,
    /// Index pages at level 0 of the segment's own index.
    pub leaf: u64,
    /// Index pages above level 0 of the segment's own index.
    pub non_leaf: u64,
    /// BLOB and LOB pages.
    pub blob: u64,
    /// All-zero pages (allocated, never written).
    pub zero: u64,
    /// Pages of any other type.
    pub other: u64,
    /// Reserved pages that are free.
    pub reserved_unused: u64,
}

/// Pages by use, over the whole file.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct PageUseCounts {
    /// FSP_HDR, XDES, IBUF_BITMAP and INODE pages.
    pub bookkeeping: u64,
    /// Pages segments use.
    pub segment: u64,
    /// Free pages inside segment extents.
    pub reserved_unused: u64,
    /// Free pages inside fragment extents.
    pub fragment_unused: u64,
    /// Pages of free extents.
    pub free_extent: u64,
    /// Pages at or beyond the free limit.
    pub beyond_free_limit: u64,
    /// Pages whose descriptor is unreadable.
    pub undescribed: u64,
    /// Used pages no one claims.
    pub unaccounted: u64,
    /// Pages marked free (any free use above) that still hold a written page:
    /// old content the server does not erase when it frees a page.
    pub free_with_old_content: u64,
}

impl PageUseCounts {
    fn add(&mut self, u: PageUse) {
        match u {
            PageUse::Bookkeeping => self.bookkeeping += 1,
            PageUse::Segment { .. } => self.segment += 1,
            PageUse::ReservedUnused { .. } => self.reserved_unused += 1,
            PageUse::FragmentUnused => self.fragment_unused += 1,
            PageUse::FreeExtent => self.free_extent += 1,
            PageUse::BeyondFreeLimit => self.beyond_free_limit += 1,
            PageUse::Undescribed => self.undescribed += 1,
            PageUse::Unaccounted => self.unaccounted += 1,
        }
    }

    /// The sum over every use: the file's page count when every page was seen once.
    pub fn total(&self) -> u64 {
        self.bookkeeping
            + self.segment
            + self.reserved_unused
            + self.fragment_unused
            + self.free_extent
            + self.beyond_free_limit
            + self.undescribed
            + self.unaccounted
    }
}

/// The space map with every page accounted for.
#[derive(Debug, Clone)]
pub struct SpaceAccount {
    /// The map the accounting is based on.
    pub map: SpaceMap,
    /// Pages per use.
    pub counts: PageUseCounts,
    /// Per segment (same order as the map's segments).
    pub segment_pages: Vec<SegmentPages>,
    /// Level-0 index pages per index id seen anywhere in the file (used or
    /// not), as innochecksum counts them.
    pub leaf_pages_anywhere: std::collections::BTreeMap<u64, u64>,
    /// Findings: opening, the page checks, the map, then ownership (all
    /// counted, the first of each kind kept).
    pub findings: FindingLog,
}

/// Why there is no account.
pub use innodb_space::space_map::NoSpaceMap;

impl SpaceAccount {
    /// Reads the space map and accounts for every page in one scan.
    pub fn build(space: &Tablespace) -> Result<SpaceAccount, NoSpaceMap> {
        Ok(Self::from_map(space, SpaceMap::read(space)?, &mut []))
    }

    /// Accounts for every page of `space` under `map` in one scan that also
    /// feeds `others`.
    pub fn from_map(
        space: &Tablespace,
        map: SpaceMap,
        others: &mut [&mut dyn PageConsumer],
    ) -> SpaceAccount {
        let mut acc = OwnershipAccumulator {
            map: &map,
            vendor: space.format().vendor,
            counts: PageUseCounts::default(),
            segment_pages: vec![SegmentPages::default(); map.segments.len()],
            leaf_pages_anywhere: Default::default(),
            findings: FindingLog::new(),
            scratch: Vec::new(),
        };
        let mut consumers: Vec<&mut dyn PageConsumer> = Vec::with_capacity(others.len() + 1);
        consumers.push(&mut acc);
        for c in others.iter_mut() {
            consumers.push(&mut **c);
        }
        let mut findings = scan(space, None, &mut consumers);
        drop(consumers);
        let OwnershipAccumulator {
            counts,
            segment_pages,
            leaf_pages_anywhere,
            findings: own,
            ..
        } = acc;
        findings.extend(map.findings.iter().cloned());
        findings.append(own);
        SpaceAccount {
            map,
            counts,
            segment_pages,
            leaf_pages_anywhere,
            findings,
        }
    }

    /// Whether page `n` is used by a segment (and so is no stale free page).
    pub fn is_used_by_segment(&self, n: u32) -> bool {
        matches!(
            classify(&self.map, n, &mut Vec::new()),
            PageUse::Segment { .. }
        )
    }
}

struct OwnershipAccumulator<'a> {
    map: &'a SpaceMap,
    vendor: Vendor,
    counts: PageUseCounts,
    segment_pages: Vec<SegmentPages>,
    leaf_pages_anywhere: std::collections::BTreeMap<u64, u64>,
    findings: FindingLog,
    /// One page's classification findings, moved into `findings` at once.
    scratch: Vec<Finding>,
}

impl PageConsumer for OwnershipAccumulator<'_> {
    fn hole(&mut self, first: u32, count: u32, zero: &mut PageCheck, bytes: &[u8]) {
        let end = first.saturating_add(count);
        let unmapped = self.unmapped_from(first).min(end);
        for n in first..unmapped {
            zero.page_no = n;
            self.page(zero, bytes);
        }
        // All-zero pages past the map: counted at once, nothing else to do.
        self.counts.beyond_free_limit += u64::from(end - unmapped);
    }

    fn page(&mut self, check: &PageCheck, _bytes: &[u8]) {
        let n = check.page_no;
        let u = classify(self.map, n, &mut self.scratch);
        self.findings.drain_from(&mut self.scratch);
        self.counts.add(u);
        let is_index = check.page_type.is_index_layout(self.vendor) && !check.all_zero;
        if let (true, Some(h)) = (is_index, &check.index) {
            if h.level == 0 && !check.doublewrite_copy {
                *self.leaf_pages_anywhere.entry(h.index_id).or_insert(0) += 1;
            }
        }
        match u {
            PageUse::Bookkeeping => self.bookkeeping_page(check),
            PageUse::Segment { segment, .. } => self.segment_page(segment, check, is_index),
            PageUse::ReservedUnused { segment } => {
                if let Some(s) = segment.and_then(|i| self.segment_pages.get_mut(i)) {
                    s.reserved_unused += 1;
                }
                self.free_page(check);
            }
            PageUse::FragmentUnused | PageUse::FreeExtent | PageUse::BeyondFreeLimit => {
                self.free_page(check)
            }
            PageUse::Unaccounted if is_index => self.findings.push(Finding::on_page(
                FindingKind::OwnershipMismatch,
                n,
                0,
                "PAGE_INDEX_ID",
                format!(
                    "INDEX page of index {} is marked used but no segment owns it",
                    check.index.map_or(0, |h| h.index_id)
                ),
            )),
            PageUse::Unaccounted if !check.all_zero => self.findings.push(Finding::on_page(
                FindingKind::OwnershipMismatch,
                n,
                0,
                "XDES_BITMAP",
                format!(
                    "{} page is marked used in a fragment extent but no segment lists it",
                    check.page_type.name(self.vendor)
                ),
            )),
            _ => {}
        }
    }
}

impl OwnershipAccumulator<'_> {
    /// An IBUF_BITMAP page's place (the page after page 0 or an XDES page,
    /// below the free limit) holding nothing, or another page: the server
    /// writes the bitmap page when it initialises the extent (MySQL 5.0
    /// without a page type). FSP_HDR and XDES pages are checked by the space
    /// map, INODE pages by the segment walk.
    fn bookkeeping_page(&mut self, check: &PageCheck) {
        let n = check.page_no;
        let t = check.page_type;
        let typed_ok = t == PageType::IBUF_BITMAP || t == PageType::ALLOCATED;
        if n % self.map.physical_page_size != 1 || (typed_ok && !check.all_zero) {
            return;
        }
        let first = n - 1;
        self.findings.push(Finding::on_page(
            FindingKind::OwnershipMismatch,
            n,
            if check.all_zero {
                0
            } else {
                innodb_format::fil::header::FIL_PAGE_TYPE
            },
            "FIL_PAGE_TYPE",
            format!(
                "page {n} should be the IBUF_BITMAP page of pages {first}..{} but {}",
                first + self.map.physical_page_size - 1,
                if check.all_zero {
                    "it is all zero".to_string()
                } else {
                    format!("its FIL_PAGE_TYPE is {}", t.name(self.vendor))
                }
            ),
        ));
    }

    /// Pages from `first` on that lie past the map's last extent: all are
    /// beyond the free limit ([`classify`] says so without looking further).
    fn unmapped_from(&self, first: u32) -> u32 {
        self.map.mapped_pages().max(first)
    }

    fn free_page(&mut self, check: &PageCheck) {
        if !check.all_zero {
            self.counts.free_with_old_content += 1;
        }
    }

    fn segment_page(&mut self, i: usize, check: &PageCheck, is_index: bool) {
        let Some(seg) = self.map.segments.get(i) else {
            return;
        };
        let Some(s) = self.segment_pages.get_mut(i) else {
            return;
        };
        s.used += 1;
        let t = check.page_type;
        if check.all_zero {
            s.zero += 1;
            // The server writes a page when it allocates it; only the
            // doublewrite buffer's pages stay empty until they hold copies.
            if seg.owner != SegmentOwner::Doublewrite {
                self.findings.push(Finding::on_page(
                    FindingKind::OwnershipMismatch,
                    check.page_no,
                    0,
                    "FIL_PAGE_TYPE",
                    format!(
                        "page {} is used by segment {} ({}) but it is all zero (never written, or zeroed)",
                        check.page_no,
                        seg.id,
                        seg.owner.describe()
                    ),
                ));
            }
            return;
        }
        let blob = matches!(
            t,
            PageType::TYPE_BLOB
                | PageType::TYPE_ZBLOB
                | PageType::TYPE_ZBLOB2
                | PageType::LOB_INDEX
                | PageType::LOB_DATA
                | PageType::LOB_FIRST
                | PageType::ZLOB_FIRST
                | PageType::ZLOB_DATA
                | PageType::ZLOB_INDEX
                | PageType::ZLOB_FRAG
                | PageType::ZLOB_FRAG_ENTRY
                | PageType::SDI_ZBLOB
        ) || (t == PageType::SDI_BLOB_OR_INSTANT && self.vendor != Vendor::MariaDb);
        let (Some(h), true) = (check.index, is_index) else {
            if blob {
                s.blob += 1;
            } else {
                s.other += 1;
            }
            return;
        };
        let n = check.page_no;
        let mut mismatch = |message: String| {
            self.findings.push(Finding::on_page(
                FindingKind::OwnershipMismatch,
                n,
                innodb_format::index::header::PAGE_INDEX_ID,
                "PAGE_INDEX_ID",
                message,
            ))
        };
        match seg.owner {
            SegmentOwner::IndexLeaf { index_id, .. }
            | SegmentOwner::IndexNonLeaf { index_id, .. }
                if index_id != h.index_id =>
            {
                mismatch(format!(
                    "page of index {} lies in segment {} of index {index_id}",
                    h.index_id, seg.id
                ));
                s.other += 1;
                return;
            }
            SegmentOwner::IndexLeaf { .. } if h.level != 0 => mismatch(format!(
                "level-{} page lies in the leaf segment {} of index {}",
                h.level, seg.id, h.index_id
            )),
            SegmentOwner::IndexNonLeaf { root_page, .. } if h.level == 0 && n != root_page => {
                mismatch(format!(
                    "leaf page lies in the non-leaf segment {} of index {}",
                    seg.id, h.index_id
                ))
            }
            _ => {}
        }
        if h.level == 0 {
            s.leaf += 1;
        } else {
            s.non_leaf += 1;
        }
    }
}

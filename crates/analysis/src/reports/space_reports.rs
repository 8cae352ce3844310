//! The three space-structure reports (`segments`, `extents`, `waste`), all
//! built from one [`SpaceAccount`].

use crate::pictures::palette::{self, IndexKeys};
use crate::pictures::Rgb;
use crate::reports::ownership::{classify, PageUse, PageUseCounts, SegmentPages, SpaceAccount};
use innodb_format::fsp::xdes::XdesState;
use innodb_space::segment::{Segment, SegmentOwner};
use innodb_space::space_map::SpaceMap;
use innodb_space::{Finding, FindingLog, Tablespace};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// What every space report says about the file first.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SpaceHeader {
    /// The file as given.
    pub file: String,
    /// Tablespace id.
    pub space_id: u32,
    /// Logical page size in bytes.
    pub page_size: usize,
    /// Physical page size in bytes.
    pub physical_page_size: usize,
    /// Pages per extent.
    pub extent_size: u32,
    /// Pages in the file (`file_pages` in every space report's JSON).
    pub file_pages: u64,
    /// `FSP_SIZE`.
    pub fsp_size: u32,
    /// `FSP_FREE_LIMIT`.
    pub free_limit: u32,
    /// `FSP_SEG_ID`: the next segment id.
    pub next_segment_id: u64,
}

/// Findings of a space report.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SpaceFindings {
    /// Findings by kind.
    pub findings_by_kind: BTreeMap<String, u64>,
    /// The findings: the first [`FindingLog::PER_KIND`] of each kind
    /// (`findings_by_kind` counts them all).
    pub findings: Vec<Finding>,
}

impl SpaceFindings {
    /// Every finding of `log` counted by kind, and those it kept.
    pub fn new(log: &FindingLog) -> Self {
        SpaceFindings {
            findings_by_kind: log
                .counts()
                .iter()
                .map(|(k, n)| (k.name().to_string(), *n))
                .collect(),
            findings: log.kept().to_vec(),
        }
    }
}

/// The header every space report starts with.
pub fn header(space: &Tablespace, map: &SpaceMap) -> SpaceHeader {
    let f = space.format();
    SpaceHeader {
        file: space.path().display().to_string(),
        space_id: space.space_id(),
        page_size: f.logical_page_size(),
        physical_page_size: f.physical_page_size(),
        extent_size: map.extent_size,
        file_pages: u64::from(map.page_count),
        fsp_size: map.fsp_size,
        free_limit: map.free_limit,
        next_segment_id: map.next_segment_id,
    }
}

/// One segment in the `segments` report.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SegmentRow {
    /// `FSEG_ID`.
    pub id: u64,
    /// Who owns it.
    pub owner: SegmentOwner,
    /// The owner in words.
    pub owner_text: String,
    /// The owning index's name (`db/table.index`, `SDI`), when a
    /// dictionary names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_name: Option<String>,
    /// INODE page and byte offset of the entry.
    pub inode_page: u32,
    /// Absolute offset of the entry on its page.
    pub inode_offset: usize,
    /// Fragment pages in use.
    pub fragment_pages: u64,
    /// Extents on `FSEG_FREE`.
    pub free_extents: u64,
    /// Extents on `FSEG_NOT_FULL`.
    pub not_full_extents: u64,
    /// Extents on `FSEG_FULL`.
    pub full_extents: u64,
    /// `FSEG_NOT_FULL_N_USED`.
    pub not_full_used: u32,
    /// Reserved pages (fragment pages + extent size × extents on all three lists).
    pub reserved_pages: u64,
    /// Used pages (fragment pages + extent size × full extents + `FSEG_NOT_FULL_N_USED`).
    pub used_pages: u64,
    /// used / reserved.
    pub fill_factor: f64,
    /// The segment's pages as the scan saw them.
    pub pages: SegmentPages,
}

/// One index in the `segments` and `waste` reports.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct IndexRow {
    /// `PAGE_INDEX_ID` of the root.
    pub index_id: u64,
    /// The root page.
    pub root_page: u32,
    /// `table.index` from the dictionary (`--system`), when one was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The leaf segment's id.
    pub leaf_segment: Option<u64>,
    /// The non-leaf segment's id.
    pub non_leaf_segment: Option<u64>,
    /// Pages reserved by both segments: what the server stores as `size` in
    /// `mysql.innodb_index_stats`.
    pub size_pages: u64,
    /// Pages used by the leaf segment, as the server counts them (BLOB pages included).
    pub leaf_segment_used_pages: u64,
    /// Pages used by both segments.
    pub used_pages: u64,
    /// The index's level-0 INDEX pages (in its segments).
    pub leaf_pages: u64,
    /// The index's INDEX pages above level 0.
    pub non_leaf_pages: u64,
    /// Off-page column (BLOB/LOB) pages in its segments.
    pub blob_pages: u64,
    /// Reserved pages that are free.
    pub reserved_unused_pages: u64,
    /// Share of the file the index reserves, a fraction from 0 to 1.
    pub file_share: f64,
}

/// `pages` of `page_size` bytes in MiB, to two decimals.
fn mebibytes(pages: u64, page_size: u32) -> f64 {
    (pages as f64 * f64::from(page_size) / f64::from(1u32 << 20) * 100.0).round() / 100.0
}

/// Free pages after the last page a segment holds (uses or reserves),
/// walked back from the end of the file: pages of free extents, free
/// pages of fragment extents and pages at or beyond the free limit; the
/// bookkeeping pages among them (an XDES page the file's size brought)
/// are passed over, not counted.
fn free_at_end(map: &SpaceMap) -> u64 {
    let mut ignored = Vec::new();
    let mut free = 0;
    for n in (0..map.page_count).rev() {
        match classify(map, n, &mut ignored) {
            PageUse::FreeExtent | PageUse::BeyondFreeLimit | PageUse::FragmentUnused => free += 1,
            PageUse::Bookkeeping => {}
            PageUse::Segment { .. }
            | PageUse::ReservedUnused { .. }
            | PageUse::Undescribed
            | PageUse::Unaccounted => break,
        }
    }
    free
}

/// `part` of `whole`, a fraction from 0 to 1 to four decimals (0 of nothing).
fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (part as f64 * 10000.0 / whole as f64).round() / 10000.0
    }
}

fn segment_row(seg: &Segment, pages: &SegmentPages, es: u32) -> SegmentRow {
    let reserved = seg.reserved_pages(es);
    let used = seg.used_pages(es);
    SegmentRow {
        id: seg.id,
        owner: seg.owner,
        owner_text: seg.owner.describe(),
        index_name: None,
        inode_page: seg.inode_page,
        inode_offset: seg.inode_offset,
        fragment_pages: seg.frag_pages.len() as u64,
        free_extents: seg.free_extents.len() as u64,
        not_full_extents: seg.not_full_extents.len() as u64,
        full_extents: seg.full_extents.len() as u64,
        not_full_used: seg.not_full_n_used,
        reserved_pages: reserved,
        used_pages: used,
        fill_factor: if reserved == 0 {
            0.0
        } else {
            (used as f64 / reserved as f64 * 10000.0).round() / 10000.0
        },
        pages: pages.clone(),
    }
}

/// The rows of the segments `keep` selects, in INODE order.
fn segment_rows(account: &SpaceAccount, keep: impl Fn(&Segment) -> bool) -> Vec<SegmentRow> {
    let map = &account.map;
    map.segments
        .iter()
        .zip(&account.segment_pages)
        .filter(|(s, _)| keep(s))
        .map(|(s, p)| segment_row(s, p, map.extent_size))
        .collect()
}

/// Every index that has a root naming its segments, in index id order.
pub fn index_rows(account: &SpaceAccount) -> Vec<IndexRow> {
    let map = &account.map;
    let es = map.extent_size;
    let mut rows: BTreeMap<(u64, u32), IndexRow> = BTreeMap::new();
    for (seg, pages) in map.segments.iter().zip(&account.segment_pages) {
        let (index_id, root_page, leaf) = match seg.owner {
            SegmentOwner::IndexLeaf {
                index_id,
                root_page,
            } => (index_id, root_page, true),
            SegmentOwner::IndexNonLeaf {
                index_id,
                root_page,
            } => (index_id, root_page, false),
            _ => continue,
        };
        let row = rows.entry((index_id, root_page)).or_insert(IndexRow {
            index_id,
            root_page,
            name: None,
            leaf_segment: None,
            non_leaf_segment: None,
            size_pages: 0,
            leaf_segment_used_pages: 0,
            used_pages: 0,
            leaf_pages: 0,
            non_leaf_pages: 0,
            blob_pages: 0,
            reserved_unused_pages: 0,
            file_share: 0.0,
        });
        let reserved = seg.reserved_pages(es);
        let used = seg.used_pages(es);
        if leaf {
            row.leaf_segment = Some(seg.id);
            row.leaf_segment_used_pages = used;
        } else {
            row.non_leaf_segment = Some(seg.id);
        }
        row.size_pages += reserved;
        row.used_pages += used;
        row.leaf_pages += pages.leaf;
        row.non_leaf_pages += pages.non_leaf;
        row.blob_pages += pages.blob;
        row.reserved_unused_pages += pages.reserved_unused;
    }
    let file_pages = u64::from(map.page_count);
    rows.into_values()
        .map(|mut r| {
            r.file_share = share(r.size_pages, file_pages);
            r
        })
        .collect()
}

/// `innodb-inspect segments`: every file segment and every index.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SegmentsReport {
    /// The file.
    #[serde(flatten)]
    pub header: SpaceHeader,
    /// Every segment, in INODE order.
    pub segments: Vec<SegmentRow>,
    /// Every index whose root names its segments.
    pub indexes: Vec<IndexRow>,
    /// Problems found.
    #[serde(flatten)]
    pub findings: SpaceFindings,
}

impl SegmentsReport {
    /// The report for an accounted tablespace.
    pub fn new(space: &Tablespace, account: &SpaceAccount) -> Self {
        let map = &account.map;
        SegmentsReport {
            header: header(space, map),
            segments: segment_rows(account, |_| true),
            indexes: index_rows(account),
            findings: SpaceFindings::new(&account.findings),
        }
    }
}

/// A symbol of the extent illustration and what it stands for.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct LegendEntry {
    /// The character used in `cells`.
    pub symbol: char,
    /// What it stands for.
    pub meaning: String,
    /// Segment id, for segment entries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segment_id: Option<u64>,
    /// The index whose segment it is (`PAGE_INDEX_ID`), for index
    /// segments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_id: Option<u64>,
    /// That index's name (`db/table.index`, `SDI`), when a dictionary
    /// names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_name: Option<String>,
    /// Pages drawn with it.
    pub pages: u64,
    /// The colour of the symbol: an index's colour in every picture of the
    /// file ([`IndexKeys`]), the heatmaps' colour of the kind for other
    /// segments ([`palette::SEGMENTS`]) and the fixed classes; none for
    /// pages beyond the free limit.
    #[serde(skip)]
    pub colour: Option<Rgb>,
}

/// One extent in the `extents` report.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ExtentRow {
    /// First page.
    pub first_page: u32,
    /// `XDES_STATE`.
    pub state: XdesState,
    /// Owning segment (FSEG extents).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segment_id: Option<u64>,
    /// The owner in words.
    pub owner: String,
    /// Pages marked used.
    pub used_pages: u32,
    /// One legend symbol per page.
    pub cells: String,
}

/// `innodb-inspect extents`: one row per extent, with a page map.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ExtentsReport {
    /// The file.
    #[serde(flatten)]
    pub header: SpaceHeader,
    /// What each symbol in `cells` means.
    pub legend: Vec<LegendEntry>,
    /// Every extent that starts inside the file.
    pub extents: Vec<ExtentRow>,
    /// Problems found.
    #[serde(flatten)]
    pub findings: SpaceFindings,
}

/// The legend entry of a segment: its class (the key that merges the
/// many rollback and undo segments of a system tablespace into one entry
/// each) and the entry. An index's segments (leaf and non-leaf) take the
/// index's letter and colour, the same as in its heatmaps and charts; other
/// segments the symbol and colour of their kind there.
fn legend_class(seg: &Segment, keys: &IndexKeys) -> (String, LegendEntry) {
    let index_id = match seg.owner {
        SegmentOwner::IndexLeaf { index_id, .. } | SegmentOwner::IndexNonLeaf { index_id, .. } => {
            Some(index_id)
        }
        _ => None,
    };
    let (symbol, colour) = match index_id {
        Some(id) => keys.key(id),
        None => palette::SEGMENTS
            .get(palette::segment_kind(seg.owner))
            .map_or(('$', palette::OTHER), |s| (s.1, s.2)),
    };
    let entry = |meaning: String, segment_id| LegendEntry {
        symbol,
        meaning,
        segment_id,
        index_id,
        index_name: None,
        pages: 0,
        colour: Some(colour),
    };
    match seg.owner {
        SegmentOwner::RollbackSegment { .. } => (
            "rseg".into(),
            entry("rollback segment headers".into(), None),
        ),
        SegmentOwner::UndoLog { .. } => ("undo".into(), entry("undo log segments".into(), None)),
        _ => (
            format!("segment {}", seg.id),
            entry(
                format!("segment {}: {}", seg.id, seg.owner.describe()),
                Some(seg.id),
            ),
        ),
    }
}

/// The letters and colours of the indexes of the space map `map`, as the
/// heatmaps give them: the indexes with a root first, then those only a
/// segment names.
fn index_keys(map: &SpaceMap) -> IndexKeys {
    let mut keys = IndexKeys::new(map.index_roots().into_iter().map(|(id, _)| id));
    keys.add_others(map.segments.iter().filter_map(|s| match s.owner {
        SegmentOwner::IndexLeaf { index_id, .. } | SegmentOwner::IndexNonLeaf { index_id, .. } => {
            Some(index_id)
        }
        _ => None,
    }));
    keys
}

impl ExtentsReport {
    /// The report for an accounted tablespace.
    pub fn new(space: &Tablespace, account: &SpaceAccount) -> Self {
        let map = &account.map;
        // The fixed entries, in the heatmaps' colours of the same classes.
        let mut legend: Vec<LegendEntry> = [
            (
                '#',
                "bookkeeping (FSP_HDR, XDES, IBUF_BITMAP, INODE)",
                Some(palette::BOOKKEEPING),
            ),
            (
                '-',
                "reserved unused: free, in an extent a segment reserved",
                Some(palette::RESERVED_UNUSED),
            ),
            (',', "free page of a fragment extent", Some(palette::FREE)),
            ('.', "free extent", Some(palette::FREE)),
            (
                ' ',
                "beyond the free limit (FSP_FREE_LIMIT): not yet initialised",
                None,
            ),
            (
                '!',
                "undescribed (XDES page unusable)",
                Some(palette::UNACCOUNTED),
            ),
            (
                '?',
                "used, but no segment lists it",
                Some(palette::UNACCOUNTED),
            ),
        ]
        .into_iter()
        .map(|(symbol, meaning, colour)| LegendEntry {
            symbol,
            meaning: meaning.into(),
            segment_id: None,
            index_id: None,
            index_name: None,
            pages: 0,
            colour,
        })
        .collect();
        let fixed = legend.len();
        let mut other = LegendEntry {
            symbol: '^',
            meaning: "other segments".into(),
            segment_id: None,
            index_id: None,
            index_name: None,
            pages: 0,
            colour: Some(palette::OTHER),
        };
        let keys = index_keys(map);
        // Legend entry per owner class: each index segment on its own, the many
        // rollback and undo segments of a system tablespace one entry each.
        let mut by_class: HashMap<String, usize> = HashMap::new();
        let mut seg_entry: Vec<Option<Option<usize>>> = vec![None; map.segments.len()];
        let mut ignored = Vec::new();
        let mut extents = Vec::with_capacity(map.extents.len());
        for x in &map.extents {
            let mut cells = String::with_capacity(map.extent_size as usize);
            for n in x.first_page
                ..x.first_page
                    .saturating_add(map.extent_size)
                    .min(map.page_count)
            {
                let entry = match classify(map, n, &mut ignored) {
                    PageUse::Bookkeeping => Some(0),
                    PageUse::ReservedUnused { .. } => Some(1),
                    PageUse::FragmentUnused => Some(2),
                    PageUse::FreeExtent => Some(3),
                    PageUse::BeyondFreeLimit => Some(4),
                    PageUse::Undescribed => Some(5),
                    PageUse::Unaccounted => Some(6),
                    // classify gives an index of map.segments, which
                    // seg_entry parallels: never the fallback.
                    PageUse::Segment { segment, .. } => {
                        match (seg_entry.get_mut(segment), map.segments.get(segment)) {
                            (Some(entry), Some(seg)) => *entry.get_or_insert_with(|| {
                                let (class, new) = legend_class(seg, &keys);
                                if let Some(&e) = by_class.get(&class) {
                                    return Some(e);
                                }
                                legend.push(new);
                                by_class.insert(class, legend.len() - 1);
                                Some(legend.len() - 1)
                            }),
                            _ => None,
                        }
                    }
                };
                let e = match entry.and_then(|e| legend.get_mut(e)) {
                    Some(e) => e,
                    None => &mut other,
                };
                e.pages += 1;
                cells.push(e.symbol);
            }
            let segment = x.state.is_segment().then_some(x.segment_id);
            let owner = match (
                x.state,
                segment
                    .and_then(|id| map.segment_by_id(id))
                    .and_then(|i| map.segments.get(i)),
            ) {
                (_, Some(seg)) => format!("segment {}: {}", seg.id, seg.owner.describe()),
                (s, None) if s.is_segment() => format!("segment {} (no INODE entry)", x.segment_id),
                (s, None) if s.is_fragment() => "fragment pages".into(),
                _ => String::new(),
            };
            extents.push(ExtentRow {
                first_page: x.first_page,
                state: if x.described {
                    x.state
                } else {
                    XdesState::NOT_INITED
                },
                segment_id: segment,
                owner,
                used_pages: x.used_pages,
                cells,
            });
        }
        // Keep the fixed entries that were used, every segment entry, and
        // "other segments" when a segment could not be told.
        let mut legend: Vec<LegendEntry> = legend
            .into_iter()
            .enumerate()
            .filter(|(i, e)| *i >= fixed || e.pages > 0)
            .map(|(_, e)| e)
            .collect();
        if other.pages > 0 {
            legend.push(other);
        }
        ExtentsReport {
            header: header(space, map),
            legend,
            extents,
            findings: SpaceFindings::new(&account.findings),
        }
    }
}

/// The bookkeeping extents of the file (those holding an XDES page after page 0)
/// and the pages left unused in them: the waste of MySQL Bug #67963.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct XdesExtentWaste {
    /// Extents holding an XDES page (page 0's extent not counted).
    pub extents: u64,
    /// Unused pages in them.
    pub unused_pages: u64,
    /// Unused pages per XDES page, that is per `physical_page_size` pages of file.
    pub unused_per_xdes_page: f64,
}

/// `innodb-inspect waste`: where the file's pages go.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct WasteReport {
    /// The file.
    #[serde(flatten)]
    pub header: SpaceHeader,
    /// Pages in use: by segments, plus bookkeeping pages.
    pub used_pages: u64,
    /// Of the used pages, the bookkeeping ones.
    pub bookkeeping_pages: u64,
    /// Free pages inside extents segments reserved.
    pub reserved_unused_pages: u64,
    /// Free pages inside fragment extents.
    pub fragment_unused_pages: u64,
    /// Pages of free extents and pages beyond the free limit.
    pub free_pages: u64,
    /// Of the free pages, those beyond the free limit.
    pub beyond_free_limit_pages: u64,
    /// Free pages after the last page a segment holds (free extents, free
    /// pages of fragment extents, pages beyond the free limit, at the end
    /// of the file): space the server extended the file with ahead of
    /// need, used before the file grows again; not waste a rebuild gives
    /// back.
    pub preallocated_pages: u64,
    /// [`preallocated_pages`](Self::preallocated_pages) in MiB (of the
    /// physical page size), to two decimals.
    pub preallocated_mib: f64,
    /// Pages before the last page a segment holds that hold nothing:
    /// reserved unused, fragment unused and free (the unused pages less
    /// the pre-allocated ones). What a rebuild (`OPTIMIZE TABLE`) could
    /// give back.
    pub reclaimable_pages: u64,
    /// [`reclaimable_pages`](Self::reclaimable_pages) in MiB, to two decimals.
    pub reclaimable_mib: f64,
    /// Reclaimable pages' share of the file, a fraction from 0 to 1.
    pub reclaimable_share: f64,
    /// The file's size in MiB (its pages at the physical page size), to
    /// two decimals.
    pub file_mib: f64,
    /// Pages whose descriptor could not be read.
    pub undescribed_pages: u64,
    /// Used pages that no segment lists.
    pub unaccounted_pages: u64,
    /// Share of the file not in use: (file − used) / file, a fraction
    /// from 0 to 1.
    pub waste_share: f64,
    /// Each use's share of the file, a fraction from 0 to 1.
    pub share: BTreeMap<&'static str, f64>,
    /// Waste in the bookkeeping extents.
    pub xdes_extents: XdesExtentWaste,
    /// Free pages still holding old content (counted in the free uses above).
    pub free_with_old_content_pages: u64,
    /// Per index.
    pub indexes: Vec<IndexRow>,
    /// Segments that belong to no index, by owner.
    pub other_segments: Vec<SegmentRow>,
    /// Problems found.
    #[serde(flatten)]
    pub findings: SpaceFindings,
}

impl WasteReport {
    /// The report for an accounted tablespace.
    pub fn new(space: &Tablespace, account: &SpaceAccount) -> Self {
        let map = &account.map;
        let c: &PageUseCounts = &account.counts;
        let file_pages = u64::from(map.page_count);
        let used = c.bookkeeping + c.segment;
        let free = c.free_extent + c.beyond_free_limit;
        let mut share_map = BTreeMap::new();
        for (k, v) in [
            ("used", used),
            ("reserved_unused", c.reserved_unused),
            ("fragment_unused", c.fragment_unused),
            ("free", free),
            ("undescribed", c.undescribed),
            ("unaccounted", c.unaccounted),
        ] {
            share_map.insert(k, share(v, file_pages));
        }
        let ps = map.physical_page_size;
        let mut xdes = XdesExtentWaste {
            extents: 0,
            unused_pages: 0,
            unused_per_xdes_page: 0.0,
        };
        let mut ignored = Vec::new();
        let mut xdes_page = ps;
        while xdes_page < map.page_count.min(map.free_limit) {
            if let Some(x) = map.extent_of(xdes_page) {
                xdes.extents += 1;
                let end = x
                    .first_page
                    .saturating_add(map.extent_size)
                    .min(map.page_count);
                xdes.unused_pages += (x.first_page..end)
                    .filter(|&n| classify(map, n, &mut ignored) == PageUse::FragmentUnused)
                    .count() as u64;
            }
            xdes_page = xdes_page.saturating_add(ps);
        }
        if xdes.extents > 0 {
            xdes.unused_per_xdes_page =
                (xdes.unused_pages as f64 / xdes.extents as f64 * 100.0).round() / 100.0;
        }
        let unused = c.reserved_unused + c.fragment_unused + free;
        let preallocated = free_at_end(map).min(unused);
        let reclaimable = unused - preallocated;
        let mib = |pages: u64| mebibytes(pages, ps);
        WasteReport {
            header: header(space, map),
            used_pages: used,
            bookkeeping_pages: c.bookkeeping,
            reserved_unused_pages: c.reserved_unused,
            fragment_unused_pages: c.fragment_unused,
            free_pages: free,
            beyond_free_limit_pages: c.beyond_free_limit,
            preallocated_pages: preallocated,
            preallocated_mib: mib(preallocated),
            reclaimable_pages: reclaimable,
            reclaimable_mib: mib(reclaimable),
            reclaimable_share: share(reclaimable, file_pages),
            file_mib: mib(file_pages),
            undescribed_pages: c.undescribed,
            unaccounted_pages: c.unaccounted,
            waste_share: share(file_pages - used.min(file_pages), file_pages),
            share: share_map,
            xdes_extents: xdes,
            free_with_old_content_pages: c.free_with_old_content,
            indexes: index_rows(account),
            other_segments: segment_rows(account, |s| s.owner.index_id().is_none()),
            findings: SpaceFindings::new(&account.findings),
        }
    }
}

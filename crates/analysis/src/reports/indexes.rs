//! Index analysis: every B+tree walked from its root, with record counts,
//! levels, page fill and leaf-chain locality, every page accounted for and
//! the index pages no walk reached found. One scan over the file in page
//! order keeps a summary of every index page; the trees are walked over the
//! summaries (`IndexAnalysis::build`). The page-by-page walk in key order it
//! replaced (`IndexAnalysis::build_with`) stays for what needs the records.

use crate::reports::ownership::{classify, PageUse, SpaceAccount};
use crate::reports::scan::{scan_pages, PageConsumer};
use crate::reports::space_reports::{header, IndexRow, SpaceFindings, SpaceHeader};
use innodb_format::index::page_zip::ZipSpace;
use innodb_space::btree::{self, PageVisit, TreeWalk};
use innodb_space::btree_summary::{PageSummary, TreePages};
use innodb_space::logical_pages::LogicalPages;
use innodb_space::space_map::{NoSpaceMap, SpaceMap};
use innodb_space::{Finding, FindingKind, PageCheck, Tablespace};
use serde::Serialize;

/// Buckets of a fill histogram: 0–10 %, …, 90–100 %, over 100 %.
pub const FILL_BUCKETS: usize = 11;

/// One level of one index.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct LevelStats {
    /// `PAGE_LEVEL` (0 = leaves).
    pub level: u16,
    /// Pages of the level.
    pub pages: u64,
    /// User records (node pointers above the leaves), delete-marked included.
    pub records: u64,
    /// Delete-marked records.
    pub delete_marked: u64,
    /// Records in the pages' garbage lists.
    pub garbage_records: u64,
    /// Bytes of records (`page_get_data_size`) summed over the level.
    pub data_bytes: u64,
    /// Free bytes summed over the level (contiguous free space, garbage not included).
    pub free_bytes: u64,
    /// `PAGE_GARBAGE` summed over the level.
    pub garbage_bytes: u64,
    /// Mean fill: data bytes / usable bytes of an empty page.
    pub fill: f64,
    /// Pages per fill bucket: 0–10 %, 10–20 %, …, 90–100 %, over 100 %.
    pub fill_histogram: [u64; FILL_BUCKETS],
    #[serde(skip)]
    usable_bytes: u64,
}

/// How the leaves lie on disk, in key order.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct LeafLocality {
    /// Leaf pages in the chain.
    pub leaves: u64,
    /// Share of `next` links to the physically next page (0 to 1).
    pub sequential_share: f64,
    /// Mean distance in pages between a leaf and the next one.
    pub mean_jump: f64,
    /// Median distance.
    pub median_jump: u64,
    /// Distinct extents the leaves lie in.
    pub distinct_extents: u64,
    /// Times a full leaf scan enters a different extent, per 1000 leaves
    /// (what extent read-ahead sees: 1000 / pages per extent at best).
    pub extent_switches_per_1000_leaves: f64,
}

/// How the pages of a ROW_FORMAT=COMPRESSED index use their bytes.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct CompressionStats {
    /// Physical (zip) page size.
    pub physical_page_size: usize,
    /// Pages read.
    pub pages: u64,
    /// Bytes of zlib streams, summed.
    pub stream_bytes: u64,
    /// Bytes of modification logs, summed.
    pub mlog_bytes: u64,
    /// Free bytes between log and trailer, summed.
    pub free_bytes: u64,
    /// Bytes stored uncompressed at page ends, summed.
    pub trailer_bytes: u64,
    /// Records whose data only the modification log holds.
    pub logged_records: u64,
    /// Record bytes of the logical pages per byte of stream and log:
    /// how well the records compress.
    pub compression_ratio: f64,
}

/// One index.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct IndexStats {
    /// `PAGE_INDEX_ID`.
    pub index_id: u64,
    /// The root page.
    pub root_page: u32,
    /// `table.index` from the dictionary (`--system`), when one was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Levels of the tree.
    pub levels: u64,
    /// Pages per level, leaves first.
    pub pages_per_level: Vec<u64>,
    /// Level-0 pages reached.
    pub leaf_pages: u64,
    /// Pages reserved by its two segments (`innodb_index_stats` `size`).
    pub size_pages: u64,
    /// User records on the leaf level that are not delete-marked: `COUNT(*)`
    /// for a clustered index, one per row for a secondary one.
    pub records: u64,
    /// Delete-marked records on the leaf level.
    pub delete_marked: u64,
    /// MariaDB instant-ALTER metadata records (hidden, not rows).
    pub metadata_records: u64,
    /// Mean fill of the leaf pages.
    pub leaf_fill: f64,
    /// Mean fill of all its pages.
    pub fill: f64,
    /// Per level, leaves first.
    pub level_stats: Vec<LevelStats>,
    /// Leaf-chain locality.
    pub locality: LeafLocality,
    /// For a ROW_FORMAT=COMPRESSED index: how its pages use their bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compressed: Option<CompressionStats>,
    /// Problems the walk found.
    pub findings: usize,
}

/// The `indexes` report.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct IndexesReport {
    /// The file.
    #[serde(flatten)]
    pub header: SpaceHeader,
    /// Every index whose root names its segments, in index id order.
    pub indexes: Vec<IndexStats>,
    /// Problems found.
    #[serde(flatten)]
    pub findings: SpaceFindings,
}

/// Everything walked: the account, the trees, and per-index statistics.
pub struct IndexAnalysis {
    /// The space account (every page, one scan).
    pub account: SpaceAccount,
    /// Per index, with its walk.
    pub indexes: Vec<(IndexStats, TreeWalk)>,
}

/// One index's statistics as its pages are visited.
struct IndexAccumulator {
    levels: Vec<LevelStats>,
    metadata: u64,
    zip: Option<CompressionStats>,
    physical: usize,
}

impl IndexAccumulator {
    fn new(physical: usize) -> Self {
        IndexAccumulator {
            levels: Vec::new(),
            metadata: 0,
            zip: None,
            physical,
        }
    }

    /// Adds one page of the tree.
    fn add(&mut self, p: &PageSummary, zip: Option<ZipSpace>) {
        if let Some(z) = zip {
            let c = self.zip.get_or_insert_with(|| CompressionStats {
                physical_page_size: self.physical,
                ..CompressionStats::default()
            });
            c.pages += 1;
            c.stream_bytes += z.stream_bytes as u64;
            c.mlog_bytes += z.mlog_bytes as u64;
            c.free_bytes += z.free_bytes as u64;
            c.trailer_bytes += z.trailer_bytes as u64;
            c.logged_records += z.logged_records as u64;
        }
        let i = match self.levels.iter().position(|l| l.level == p.level) {
            Some(i) => i,
            None => {
                self.levels.push(LevelStats {
                    level: p.level,
                    ..LevelStats::default()
                });
                self.levels.len() - 1
            }
        };
        self.metadata += u64::from(p.metadata);
        let Some(l) = self.levels.get_mut(i) else {
            return;
        };
        l.pages += 1;
        l.records += u64::from(p.records);
        l.delete_marked += u64::from(p.delete_marked);
        l.garbage_records += u64::from(p.garbage_records);
        l.data_bytes += u64::from(p.data_bytes);
        l.free_bytes += u64::from(p.free_bytes);
        l.garbage_bytes += u64::from(p.garbage_bytes);
        l.usable_bytes += u64::from(p.usable_bytes);
        let bucket = ((p.fill() * 10.0).floor() as usize).min(FILL_BUCKETS - 1);
        if let Some(b) = l.fill_histogram.get_mut(bucket) {
            *b += 1;
        }
    }

    /// The statistics of the index whose walk from `root` is `walk`
    /// (`size_pages` is filled in later, from the space account).
    fn finish(self, root: u32, walk: &TreeWalk, extent: u32) -> IndexStats {
        let IndexAccumulator {
            mut levels,
            metadata,
            mut zip,
            ..
        } = self;
        levels.sort_by_key(|l| l.level);
        for l in &mut levels {
            l.fill = ratio(l.data_bytes, l.usable_bytes);
        }
        let leaf = levels
            .first()
            .filter(|l| l.level == 0)
            .cloned()
            .unwrap_or_default();
        let (data, usable) = levels
            .iter()
            .fold((0, 0), |(d, u), l| (d + l.data_bytes, u + l.usable_bytes));
        if let Some(c) = zip.as_mut() {
            c.compression_ratio = ratio(data, c.stream_bytes + c.mlog_bytes);
        }
        IndexStats {
            index_id: walk.index_id,
            root_page: root,
            name: None,
            levels: levels.len() as u64,
            pages_per_level: levels.iter().map(|l| l.pages).collect(),
            leaf_pages: leaf.pages,
            size_pages: 0,
            records: leaf.records.saturating_sub(leaf.delete_marked),
            delete_marked: leaf.delete_marked,
            metadata_records: metadata,
            leaf_fill: leaf.fill,
            fill: ratio(data, usable),
            level_stats: levels,
            locality: locality(walk.leaves(), extent),
            compressed: zip,
            findings: walk.findings.len(),
        }
    }
}

/// What the one scan keeps for the trees: every index page's summary, and
/// the index pages the orphan check looks at.
struct TreeCollector<'a> {
    pages: LogicalPages<'a>,
    trees: TreePages,
    vendor: innodb_format::vendor::Vendor,
    /// The orphan check looks at every index page not in the doublewrite
    /// area, as the scan's header of it says: for most pages what
    /// `trees` keeps of them; here the pages where the two differ (page,
    /// what the orphan check looks at, if anything). A second list of
    /// every index page would cost 16 bytes a page.
    orphan_exceptions: Vec<(u32, Option<(u64, u16)>)>,
    /// The pages this collector summarizes (another thread has the rest).
    run: std::ops::Range<u32>,
}

impl<'a> TreeCollector<'a> {
    /// A collector of the index pages of `space` numbered in `run`.
    fn new(space: &'a Tablespace, run: std::ops::Range<u32>) -> Self {
        TreeCollector {
            pages: LogicalPages::new(space),
            trees: TreePages::new(space.page_count()),
            vendor: space.format().vendor,
            orphan_exceptions: Vec::new(),
            run,
        }
    }
}

impl PageConsumer for TreeCollector<'_> {
    /// All-zero pages hold no index page: nothing to keep of a hole.
    fn hole(&mut self, _: u32, _: u32, _: &mut PageCheck, _: &[u8]) {}

    fn page(&mut self, check: &PageCheck, bytes: &[u8]) {
        if !self.run.contains(&check.page_no) {
            return;
        }
        let kept = self.trees.add(&mut self.pages, check, bytes);
        let judged = match (
            check.index,
            check.page_type.is_index_layout(self.vendor) && !check.all_zero,
        ) {
            (Some(h), true) if !check.doublewrite_copy => Some((h.index_id, h.level)),
            _ => None,
        };
        if judged != kept {
            self.orphan_exceptions.push((check.page_no, judged));
        }
    }
}

/// The index pages the orphan check looks at, in page order: the pages
/// `trees` summarized, with the `exceptions` (page, what the check looks at
/// instead, if anything) merged in.
fn orphan_checked<'t>(
    trees: &'t TreePages,
    exceptions: &'t [(u32, Option<(u64, u16)>)],
) -> impl Iterator<Item = (u32, u64, u16)> + 't {
    let mut summaries = trees.summaries().iter().peekable();
    let mut exceptions = exceptions.iter().peekable();
    std::iter::from_fn(move || loop {
        let s = summaries.peek().map(|s| s.page_no);
        let e = exceptions.peek().map(|e| e.0);
        let (n, seen) = match (s, e) {
            (None, None) => return None,
            (Some(s), Some(e)) if e <= s => {
                if e == s {
                    summaries.next();
                }
                let &(n, seen) = exceptions.next()?;
                (n, seen)
            }
            (Some(_), _) => {
                let s = summaries.next()?;
                (s.page_no, Some((s.index_id, s.level)))
            }
            (None, Some(_)) => {
                let &(n, seen) = exceptions.next()?;
                (n, seen)
            }
        };
        if let Some((index_id, level)) = seen {
            return Some((n, index_id, level));
        }
    })
}

/// Where run `r` of `runs` starts (`r == runs`: the file's end) when
/// `pages` pages are split for [`IndexAnalysis::build_threads`]. The first
/// run's thread also reads every page for the space's accounting, about
/// as long as summarizing them all: it takes one share, every other run
/// two, so that the threads end together.
fn run_bounds(pages: u32, runs: u32) -> impl Fn(u32) -> u32 {
    let shares = u64::from(runs).saturating_mul(2).saturating_sub(1).max(1);
    move |r: u32| {
        let before = u64::from(r).saturating_mul(2).saturating_sub(1).min(shares);
        let at = u64::from(pages).saturating_mul(before) / shares;
        u32::try_from(at).unwrap_or(pages).min(pages)
    }
}

impl IndexAnalysis {
    /// Walks every index of `space` and accounts for every page, reading
    /// the file once in page order: the trees are walked over the index
    /// pages' summaries ([`TreePages`]). The same analysis as
    /// [`IndexAnalysis::build_walked`].
    pub fn build(space: &Tablespace) -> Result<IndexAnalysis, NoSpaceMap> {
        Self::build_threads(space, 1)
    }

    /// [`IndexAnalysis::build`] with the index pages summarized on
    /// `threads` threads: the file's pages split into as many runs, the
    /// first summarized by the pass that accounts for every page, each
    /// other run read again and summarized on a thread of its own (from
    /// the page cache, as a rule), the summaries joined in page order. The
    /// same analysis whatever `threads`; faster where cores are free.
    pub fn build_threads(space: &Tablespace, threads: usize) -> Result<IndexAnalysis, NoSpaceMap> {
        let map = SpaceMap::read(space)?;
        let roots = map.index_roots();
        let extent = map.extent_size;
        let physical = space.format().physical_page_size();
        let pages_in_file = space.page_count();
        let runs = u32::try_from(threads.max(1))
            .unwrap_or(1)
            .min(pages_in_file.max(1));
        let bounds = run_bounds(pages_in_file, runs);
        let (account, mut collector, others) = std::thread::scope(|s| {
            let others: Vec<_> = (1..runs)
                .map(|r| {
                    let first = bounds(r);
                    let last = bounds(r + 1);
                    s.spawn(move || {
                        let mut c = TreeCollector::new(space, first..last);
                        if first < last {
                            scan_pages(space, first, last - 1, &mut [&mut c]);
                        }
                        (c.trees, c.orphan_exceptions)
                    })
                })
                .collect();
            let own = if runs > 1 { bounds(1) } else { u32::MAX };
            let mut collector = TreeCollector::new(space, 0..own);
            let account = SpaceAccount::from_map(space, map, &mut [&mut collector]);
            let others: Vec<_> = others.into_iter().map(|h| h.join()).collect();
            (account, collector, others)
        });
        // A run whose thread failed would leave its pages out: the pass is
        // then made again on one thread.
        if others.iter().any(Result::is_err) {
            return Self::build_threads(space, 1);
        }
        for (trees, orphan_exceptions) in others.into_iter().flatten() {
            collector.trees.append(trees);
            collector.orphan_exceptions.extend(orphan_exceptions);
        }
        let TreeCollector {
            mut pages,
            trees,
            orphan_exceptions,
            ..
        } = collector;
        let mut walked = Vec::with_capacity(roots.len());
        for (_, root) in roots {
            let mut acc = IndexAccumulator::new(physical);
            let walk = trees.walk(&mut pages, root, |p, zip| acc.add(p, zip));
            walked.push((acc.finish(root, &walk, extent), walk));
        }
        let mut orphans = OrphanFinder {
            map: &account.map,
            walks: walked.iter().map(|(_, w)| w).collect(),
            findings: Vec::new(),
        };
        for (n, index_id, level) in orphan_checked(&trees, &orphan_exceptions) {
            orphans.judge(n, index_id, level);
        }
        let orphan_findings = orphans.findings;
        Ok(Self::complete(account, walked, orphan_findings))
    }

    /// [`IndexAnalysis::build`] as the trees were walked before the one
    /// pass: page by page from each root in key order, then a scan of the
    /// file (kept to check the one pass against).
    pub fn build_walked(space: &Tablespace) -> Result<IndexAnalysis, NoSpaceMap> {
        Self::build_with(space, |_, _| {})
    }

    /// As [`IndexAnalysis::build_walked`], also handing every page of every
    /// walk to `each` with its index id (for what needs the records).
    pub fn build_with(
        space: &Tablespace,
        mut each: impl FnMut(u64, &PageVisit<'_>),
    ) -> Result<IndexAnalysis, NoSpaceMap> {
        let map = SpaceMap::read(space)?;
        let roots = map.index_roots();
        let mut pages = LogicalPages::new(space);
        let extent = map.extent_size;
        let physical = space.format().physical_page_size();
        let mut walked = Vec::with_capacity(roots.len());
        for (index_id, root) in roots {
            let mut acc = IndexAccumulator::new(physical);
            let walk = btree::walk(&mut pages, root, |v| {
                each(index_id, v);
                let p = PageSummary::of_page(v.check, v.page, v.records, v.garbage_records);
                acc.add(&p, v.zip);
            });
            walked.push((acc.finish(root, &walk, extent), walk));
        }
        let map_for_scan = map.clone();
        let mut orphans = OrphanScan {
            finder: OrphanFinder {
                map: &map_for_scan,
                walks: walked.iter().map(|(_, w)| w).collect(),
                findings: Vec::new(),
            },
            vendor: space.format().vendor,
        };
        let account = SpaceAccount::from_map(space, map, &mut [&mut orphans]);
        let orphan_findings = std::mem::take(&mut orphans.finder.findings);
        drop(orphans);
        Ok(Self::complete(account, walked, orphan_findings))
    }

    /// The analysis: each index's reserved pages from the account, and the
    /// findings of the account, then of each walk, then of the orphan check.
    fn complete(
        mut account: SpaceAccount,
        mut walked: Vec<(IndexStats, TreeWalk)>,
        orphan_findings: Vec<Finding>,
    ) -> IndexAnalysis {
        let rows = crate::reports::space_reports::index_rows(&account);
        for (stats, walk) in &mut walked {
            stats.size_pages = rows
                .iter()
                .find(|r: &&IndexRow| r.root_page == stats.root_page)
                .map_or(0, |r| r.size_pages);
            account.findings.extend(walk.findings.iter().cloned());
        }
        account.findings.extend(orphan_findings);
        IndexAnalysis {
            account,
            indexes: walked,
        }
    }
}

impl IndexesReport {
    /// The report of an analysis.
    pub fn new(space: &Tablespace, a: &IndexAnalysis) -> Self {
        IndexesReport {
            header: header(space, &a.account.map),
            indexes: a.indexes.iter().map(|(s, _)| s.clone()).collect(),
            findings: SpaceFindings::new(&a.account.findings),
        }
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        (a as f64 / b as f64 * 10000.0).round() / 10000.0
    }
}

/// Leaf-chain locality of leaves in key order.
pub fn locality(leaves: &[u32], extent_size: u32) -> LeafLocality {
    let n = leaves.len();
    if n == 0 {
        return LeafLocality::default();
    }
    // Each leaf with the next one.
    let pairs = || leaves.iter().zip(leaves.iter().skip(1));
    let mut jumps: Vec<u64> = pairs().map(|(a, b)| u64::from(a.abs_diff(*b))).collect();
    let sequential = pairs().filter(|&(a, b)| *b == a.wrapping_add(1)).count();
    let es = extent_size.max(1);
    let switches = 1 + pairs().filter(|&(a, b)| a / es != b / es).count();
    let mut extents: Vec<u32> = leaves.iter().map(|p| p / es).collect();
    extents.sort_unstable();
    extents.dedup();
    let mean = if jumps.is_empty() {
        0.0
    } else {
        jumps.iter().sum::<u64>() as f64 / jumps.len() as f64
    };
    jumps.sort_unstable();
    LeafLocality {
        leaves: n as u64,
        sequential_share: if n > 1 {
            ratio(sequential as u64, (n - 1) as u64)
        } else {
            1.0
        },
        mean_jump: (mean * 100.0).round() / 100.0,
        median_jump: jumps.get(jumps.len() / 2).copied().unwrap_or(0),
        distinct_extents: extents.len() as u64,
        extent_switches_per_1000_leaves: ((switches as f64 * 1000.0 / n as f64) * 100.0).round()
            / 100.0,
    }
}

/// Index pages in use by a segment that no walk of their index reached,
/// and pages a walk reached that their extent descriptor marks free.
struct OrphanFinder<'a> {
    map: &'a SpaceMap,
    walks: Vec<&'a TreeWalk>,
    findings: Vec<Finding>,
}

/// [`OrphanFinder`] as a consumer of a scan.
struct OrphanScan<'a> {
    finder: OrphanFinder<'a>,
    vendor: innodb_format::vendor::Vendor,
}

impl PageConsumer for OrphanScan<'_> {
    /// All-zero pages hold no index page: nothing to find in a hole.
    fn hole(&mut self, _: u32, _: u32, _: &mut PageCheck, _: &[u8]) {}

    fn page(&mut self, check: &PageCheck, _bytes: &[u8]) {
        let (Some(h), true) = (
            check.index,
            check.page_type.is_index_layout(self.vendor) && !check.all_zero,
        ) else {
            return;
        };
        if check.doublewrite_copy {
            return;
        }
        self.finder.judge(check.page_no, h.index_id, h.level);
    }
}

impl OrphanFinder<'_> {
    /// Judges index page `n` (of `index_id`, at `level`, as its header says).
    fn judge(&mut self, n: u32, index_id: u64, level: u16) {
        let Some(walk) = self.walks.iter().find(|w| w.index_id == index_id) else {
            return;
        };
        let mut own = Vec::new();
        let page_use = classify(self.map, n, &mut own);
        if walk.reached(n) {
            // A page the tree uses that its descriptor marks free (unless
            // the space account already says so for this page).
            let free = matches!(
                page_use,
                PageUse::ReservedUnused { .. }
                    | PageUse::FragmentUnused
                    | PageUse::FreeExtent
                    | PageUse::BeyondFreeLimit
            );
            if free && own.is_empty() {
                self.findings.push(Finding::on_page(
                    FindingKind::OwnershipMismatch,
                    n,
                    0,
                    "XDES_FREE_BIT",
                    format!(
                        "level-{level} page of index {index_id} is reached from root {} but its extent descriptor marks it free ({})",
                        walk.root_page,
                        page_use.name()
                    ),
                ));
            }
            return;
        }
        if matches!(page_use, PageUse::Segment { .. }) {
            self.findings.push(Finding::on_page(
                FindingKind::OwnershipMismatch,
                n,
                innodb_format::index::header::PAGE_INDEX_ID,
                "PAGE_INDEX_ID",
                format!(
                    "orphan: level-{level} page of index {index_id} is in use but the walk from root {} never reached it",
                    walk.root_page
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::run_bounds;

    /// The runs cover the file once, in order; the first (the thread that
    /// also accounts for every page) has one share, every other two.
    #[test]
    fn runs_cover_the_file_and_the_first_is_half_as_long() {
        for pages in [0u32, 1, 2, 5, 78_592, u32::MAX] {
            for runs in 1u32..=4 {
                let bounds = run_bounds(pages, runs);
                let cuts: Vec<u32> = (0..=runs).map(&bounds).collect();
                assert_eq!((cuts[0], cuts[runs as usize]), (0, pages));
                assert!(cuts.windows(2).all(|w| w[0] <= w[1]), "{cuts:?}");
                let shares = u64::from(2 * runs - 1);
                assert_eq!(u64::from(cuts[1]), u64::from(pages) / shares);
            }
        }
        let bounds = run_bounds(78_592, 2);
        assert_eq!((bounds(1), bounds(2)), (26_197, 78_592));
    }
}

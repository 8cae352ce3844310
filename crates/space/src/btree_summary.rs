//! B+tree walks over page summaries: a sequential pass over the file keeps,
//! for every index page, the little the tree checks and the fill and count
//! reports need (index, level, siblings, record counts, space use, and on
//! non-leaf pages the child page numbers its node pointers may hold); the
//! trees are then walked in memory, with no page read in key order.
//!
//! [`TreePages::walk`] gives what [`crate::btree::walk`] gives for the same
//! file: the same levels, pages reached and findings, in the same order.
//! A page the pass kept nothing of (not an index page, unreadable) is read
//! when a walk reaches it, as the page-by-page walk reads it; so is the
//! parent page of a node pointer that points at no page, for its finding.

use crate::btree::{
    cycle_finding, end_level, finding, index_page_of, inspect_records, is_marked, mark, mismatch,
    no_child_finding, read_index_page, sibling_findings, TreeWalk,
};
use crate::finding::{Finding, FindingKind};
use crate::logical_pages::LogicalPages;
use crate::page_check::PageCheck;
use innodb_format::fil::header::FilHeader;
use innodb_format::fil::page_type::PageType;
use innodb_format::index::header::{IndexHeader, PAGE_HEADER, PAGE_HEADER_SIZE};
use innodb_format::index::page::{IndexPage, PageProblem, RecordList};
use innodb_format::index::page_zip::ZipSpace;
use innodb_format::index::record::RecordType;
use std::cell::OnceCell;

/// What the tree analyses keep of one index page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PageSummary {
    /// Page number.
    pub page_no: u32,
    /// `PAGE_INDEX_ID` (page header + 28).
    pub index_id: u64,
    /// `PAGE_LEVEL` (page header + 26).
    pub level: u16,
    /// True for an R-tree page (`FIL_PAGE_RTREE`).
    pub rtree: bool,
    /// `FIL_PAGE_PREV` (byte 8).
    pub prev: u32,
    /// `FIL_PAGE_NEXT` (byte 12).
    pub next: u32,
    /// User records in the record list (node pointers above the leaves),
    /// delete-marked included, MariaDB's instant-ALTER metadata record not.
    pub records: u16,
    /// Delete-marked records among `records`.
    pub delete_marked: u16,
    /// Instant-ALTER metadata records (the min-rec flag on a leaf).
    pub metadata: u16,
    /// Records in the garbage list.
    pub garbage_records: u16,
    /// Bytes of records (`PAGE_HEAP_TOP` − end of supremum − `PAGE_GARBAGE`).
    pub data_bytes: u16,
    /// Contiguous free bytes between the heap top and the page directory.
    pub free_bytes: u16,
    /// `PAGE_GARBAGE` (page header + 8).
    pub garbage_bytes: u16,
    /// Space for records on an empty page.
    pub usable_bytes: u16,
    /// The node pointers of a non-leaf page: a range of `TreePages::pointers`.
    pointers: (u32, u32),
}

impl PageSummary {
    /// The summary of index page `check.page_no` (`page`), whose record
    /// list is `records` and whose garbage list holds `garbage_records`;
    /// no node pointers.
    pub fn of_page(
        check: &PageCheck,
        page: &IndexPage<'_>,
        records: &RecordList,
        garbage_records: usize,
    ) -> PageSummary {
        let header = &page.header;
        let space = page.space();
        let mut summary = PageSummary {
            page_no: check.page_no,
            index_id: header.index_id,
            level: header.level,
            rtree: check.page_type == PageType::RTREE,
            prev: check.fil.prev,
            next: check.fil.next,
            garbage_records: small(garbage_records),
            data_bytes: small(space.data_bytes),
            free_bytes: small(space.free_bytes),
            garbage_bytes: small(space.garbage_bytes),
            usable_bytes: small(space.usable_bytes),
            ..PageSummary::default()
        };
        for r in &records.records {
            // MariaDB's instant-ALTER metadata record: the min-rec flag on
            // a leaf. (Status 4 alone marks a row written after an instant
            // ADD COLUMN: a row like any other.)
            if header.level == 0 && r.is_min_rec() {
                summary.metadata = summary.metadata.saturating_add(1);
                continue;
            }
            summary.records = summary.records.saturating_add(1);
            summary.delete_marked = summary
                .delete_marked
                .saturating_add(u16::from(r.is_deleted()));
        }
        summary
    }

    /// data / usable, 0.0 to about 1.0 (as [`innodb_format::index::page::PageSpace::fill`]).
    pub fn fill(&self) -> f64 {
        if self.usable_bytes == 0 {
            0.0
        } else {
            f64::from(self.data_bytes) / f64::from(self.usable_bytes)
        }
    }
}

/// One node pointer: its record origin and its child page candidates (a
/// range of `TreePages::candidates`).
#[derive(Debug, Clone, Copy)]
struct Pointer {
    origin: u32,
    candidates: (u32, u32),
}

/// Reusable buffers of the pass.
#[derive(Default)]
struct Scratch {
    buf: Vec<u8>,
    list: RecordList,
    free: Vec<usize>,
    heap: Vec<usize>,
    candidates: Vec<u32>,
    problems: Vec<PageProblem>,
}

/// The summaries of every index page of a file, in page order.
#[derive(Default)]
pub struct TreePages {
    page_count: u32,
    pages: Vec<PageSummary>,
    pointers: Vec<Pointer>,
    /// (place among the pointer's candidates, page number), for the
    /// candidates inside the file.
    candidates: Vec<(u16, u32)>,
    /// The pages' own problems, in page order.
    problems: Vec<Finding>,
    /// ROW_FORMAT=COMPRESSED pages: how their bytes are used.
    zips: Vec<(u32, ZipSpace)>,
    /// Pages whose header a node pointer's check of its child sees
    /// otherwise than their summary (or that have none): that header.
    fits: Vec<(u32, Option<(u64, u16)>)>,
    /// Page number → place in `pages` (`u32::MAX`: none), made at the
    /// first look-up after the pages were added: 4 bytes per page of the
    /// file, where a binary search per look-up cost 5 % of a walk.
    places: OnceCell<Vec<u32>>,
    scratch: Scratch,
}

impl TreePages {
    /// Empty summaries of a file of `page_count` pages.
    pub fn new(page_count: u32) -> Self {
        TreePages {
            page_count,
            ..TreePages::default()
        }
    }

    /// Adds the summaries of `other`, made of pages after every page of
    /// these (a later run of the same file, summarized on another thread).
    pub fn append(&mut self, other: TreePages) {
        self.places = OnceCell::new();
        let pointers = count(self.pointers.len());
        let candidates = count(self.candidates.len());
        self.pages.extend(other.pages.into_iter().map(|mut p| {
            p.pointers = (
                p.pointers.0.saturating_add(pointers),
                p.pointers.1.saturating_add(pointers),
            );
            p
        }));
        self.pointers
            .extend(other.pointers.into_iter().map(|mut p| {
                p.candidates = (
                    p.candidates.0.saturating_add(candidates),
                    p.candidates.1.saturating_add(candidates),
                );
                p
            }));
        self.candidates.extend(other.candidates);
        self.problems.extend(other.problems);
        self.zips.extend(other.zips);
        self.fits.extend(other.fits);
    }

    /// Index pages summarized.
    pub fn len(&self) -> usize {
        self.pages.len()
    }

    /// True when no page is summarized.
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// Adds page `n`, whose physical bytes a scan read (`raw`; `check`: the
    /// scan's check of them). Pages must come in increasing order; a page
    /// that is no index page is left out. Returns the index id and level
    /// of the summary kept, `None` when none was.
    pub fn add(
        &mut self,
        pages: &mut LogicalPages<'_>,
        check: &PageCheck,
        raw: &[u8],
    ) -> Option<(u64, u16)> {
        let vendor = pages.space().format().vendor;
        if !check.page_type.is_index_layout(vendor) || check.all_zero {
            return None;
        }
        let n = check.page_no;
        let mut buf = std::mem::take(&mut self.scratch.buf);
        // A page stored as it is read (not ROW_FORMAT=COMPRESSED, not
        // page-compressed) is its own logical image, and the scan's check
        // of its bytes is the one reading it again would make.
        let as_stored = !pages.space().format().is_zip() && check.compressed.is_none();
        let (logical, image) = if as_stored {
            (check.clone(), raw)
        } else {
            (pages.read_from(n, raw, &mut buf), buf.as_slice())
        };
        let seen = fits_header(raw, &logical, image, vendor);
        let kept = match index_page_of(pages, n, logical, image, "") {
            Ok((check, header, zip)) => {
                self.summarize(&check, header, zip, image);
                Some((header.index_id, header.level))
            }
            Err(_) => None,
        };
        if seen != kept {
            self.fits.push((n, seen));
        }
        self.scratch.buf = buf;
        kept
    }

    /// Every page summary, in page order.
    pub fn summaries(&self) -> &[PageSummary] {
        &self.pages
    }

    /// Summarizes index page `check.page_no` (logical image `image`).
    fn summarize(
        &mut self,
        check: &PageCheck,
        header: IndexHeader,
        zip: Option<ZipSpace>,
        image: &[u8],
    ) {
        let n = check.page_no;
        let s = &mut self.scratch;
        let page = IndexPage::new(image, header);
        inspect_records(&page, &mut s.list, &mut s.free, &mut s.problems);
        self.problems.extend(
            s.problems
                .drain(..)
                .map(|p| finding(FindingKind::BadIndexPage, n, p)),
        );
        let mut summary = PageSummary::of_page(check, &page, &s.list, s.free.len());
        let first = self.pointers.len();
        if header.level > 0 {
            s.list.heap_order(&s.free, &mut s.heap);
            for r in s
                .list
                .records
                .iter()
                .filter(|r| r.record_type == RecordType::NodePointer)
            {
                page.child_candidates(r, &s.heap, &mut s.candidates);
                let start = self.candidates.len();
                self.candidates.extend(
                    s.candidates
                        .iter()
                        .enumerate()
                        .filter(|&(_, &c)| c < self.page_count)
                        .map(|(d, &c)| (u16::try_from(d).unwrap_or(u16::MAX), c)),
                );
                self.pointers.push(Pointer {
                    origin: count(r.origin),
                    candidates: (count(start), count(self.candidates.len())),
                });
            }
        }
        summary.pointers = (count(first), count(self.pointers.len()));
        if let Some(z) = zip {
            self.zips.push((n, z));
        }
        self.pages.push(summary);
        self.places = OnceCell::new();
    }

    /// The summary of page `n`.
    pub fn get(&self, n: u32) -> Option<&PageSummary> {
        let places = self.places.get_or_init(|| {
            let len = self.pages.last().map_or(0, |s| s.page_no as usize + 1);
            let mut places = vec![u32::MAX; len];
            for (i, s) in self.pages.iter().enumerate() {
                if let Some(p) = places.get_mut(s.page_no as usize) {
                    *p = count(i);
                }
            }
            places
        });
        let i = *places.get(n as usize)?;
        self.pages.get(i as usize)
    }

    /// How ROW_FORMAT=COMPRESSED page `n` uses its bytes.
    pub fn zip(&self, n: u32) -> Option<ZipSpace> {
        let i = self.zips.binary_search_by_key(&n, |z| z.0).ok()?;
        self.zips.get(i).map(|z| z.1)
    }

    /// Page `n`'s own problems, as findings.
    fn problems_of(&self, n: u32) -> &[Finding] {
        let from = self.problems.partition_point(|f| f.page < Some(n));
        let to = self.problems.partition_point(|f| f.page <= Some(n));
        self.problems.get(from..to).unwrap_or_default()
    }

    fn pointers_of(&self, s: &PageSummary) -> &[Pointer] {
        self.pointers
            .get(s.pointers.0 as usize..s.pointers.1 as usize)
            .unwrap_or_default()
    }

    fn candidates_of(&self, p: &Pointer) -> &[(u16, u32)] {
        self.candidates
            .get(p.candidates.0 as usize..p.candidates.1 as usize)
            .unwrap_or_default()
    }

    /// True when page `n` is an index page of `index_id` at `level`, as a
    /// node pointer's check of its child sees it.
    fn fits(&self, n: u32, index_id: u64, level: u16) -> bool {
        let seen = match self.fits.binary_search_by_key(&n, |f| f.0) {
            Ok(i) => self.fits.get(i).and_then(|f| f.1),
            Err(_) => self.get(n).map(|s| (s.index_id, s.level)),
        };
        seen == Some((index_id, level))
    }

    /// Walks the index rooted at `root` over the summaries, calling `visit`
    /// once per page reached (with its compression use, for a
    /// ROW_FORMAT=COMPRESSED page). `pages` reads what the summaries lack.
    pub fn walk(
        &self,
        pages: &mut LogicalPages<'_>,
        root: u32,
        mut visit: impl FnMut(&PageSummary, Option<ZipSpace>),
    ) -> TreeWalk {
        let page_count = self.page_count;
        let mut out = TreeWalk {
            root_page: root,
            reached: vec![0; (page_count as usize).div_ceil(64)],
            ..TreeWalk::default()
        };
        let mut buf = Vec::new();
        let mut current = vec![root];
        let mut expected: Option<(u64, u16)> = None;
        let mut reached_total = 0usize;
        let mut rtree_links: Vec<(u32, u32, u32)> = Vec::new();
        mark(&mut out.reached, root);
        while !current.is_empty() {
            let mut next_level: Vec<u32> = Vec::new();
            let mut level_no = None;
            for (i, &n) in current.iter().enumerate() {
                let one;
                let src = if self.get(n).is_some() {
                    self
                } else {
                    match read_index_page(pages, n, &mut buf, "of the tree ") {
                        Ok((check, header, zip)) => {
                            let mut t = TreePages::new(page_count);
                            t.summarize(&check, header, zip, &buf);
                            one = t;
                            &one
                        }
                        Err(f) => {
                            out.findings.push(f);
                            continue;
                        }
                    }
                };
                let Some(s) = src.get(n) else { continue };
                match expected {
                    None => {
                        expected = Some((s.index_id, s.level));
                        out.index_id = s.index_id;
                    }
                    Some(want) => {
                        if let Some(f) = mismatch(n, s.index_id, s.level, want) {
                            out.findings.push(f);
                            continue;
                        }
                    }
                }
                level_no = Some(s.level);
                reached_total += 1;
                if s.rtree {
                    rtree_links.push((n, s.prev, s.next));
                } else {
                    sibling_findings(n, s.level, (s.prev, s.next), &current, i, &mut out.findings);
                }
                out.findings.extend(src.problems_of(n).iter().cloned());
                visit(s, src.zip(n));
                if s.level == 0 {
                    continue;
                }
                self.children(pages, src, s, &mut out, &mut next_level);
                if reached_total + next_level.len() > page_count as usize {
                    break;
                }
            }
            if !end_level(&mut out, &mut rtree_links, level_no, &current) {
                break;
            }
            current = next_level;
            if let Some((_, l)) = expected.as_mut() {
                *l = l.saturating_sub(1);
            }
        }
        out
    }

    /// Resolves the node pointers of non-leaf page `s` (summarized in
    /// `src`) to child pages, pushed to `next_level`, as the page-by-page
    /// walk does: the candidate at the place that served the pointer
    /// before first, then the others, the first index page of the index
    /// one level down that the walk has not reached yet.
    fn children(
        &self,
        pages: &mut LogicalPages<'_>,
        src: &TreePages,
        s: &PageSummary,
        out: &mut TreeWalk,
        next_level: &mut Vec<u32>,
    ) {
        let n = s.page_no;
        let below = s.level - 1;
        let mut last_depth = 0usize;
        for p in src.pointers_of(s) {
            let cands = src.candidates_of(p);
            let child = cands
                .iter()
                .filter(|c| usize::from(c.0) == last_depth)
                .chain(cands.iter().filter(|c| usize::from(c.0) != last_depth))
                .find(|&&(_, c)| !is_marked(&out.reached, c) && self.fits(c, s.index_id, below))
                .copied();
            let origin = p.origin as usize;
            match child {
                Some((d, c)) => {
                    last_depth = usize::from(d);
                    mark(&mut out.reached, c);
                    next_level.push(c);
                }
                None => out.findings.push(
                    match cands.iter().find(|&&(_, c)| is_marked(&out.reached, c)) {
                        Some(&(_, c)) => cycle_finding(n, origin, c),
                        None => {
                            let all = candidates_at(pages, n, origin);
                            let mut buf = Vec::new();
                            no_child_finding(
                                pages,
                                (n, origin),
                                (s.index_id, s.level),
                                all.get(last_depth).or(all.first()).copied(),
                                &mut buf,
                            )
                        }
                    },
                ),
            }
        }
    }
}

/// A count of records or bytes of one page as `u16`: a page holds at
/// most 8191 records (13-bit heap numbers) and 65535 bytes of records.
fn small(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// A size or offset within a page as `u32` (pages are at most 64 KiB).
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The header of an index page as a node pointer's check of its child
/// reads it (`btree`'s `child_fits`): from the page as stored when that is
/// an index page, else from its logical image.
fn fits_header(
    raw: &[u8],
    check: &PageCheck,
    image: &[u8],
    vendor: innodb_format::vendor::Vendor,
) -> Option<(u64, u16)> {
    let prefix = raw.get(..PAGE_HEADER + PAGE_HEADER_SIZE);
    let stored = prefix.and_then(|head| {
        let fil = FilHeader::parse(head).ok()?;
        fil.page_type
            .is_index_layout(vendor)
            .then(|| IndexHeader::parse(head).ok())
            .flatten()
    });
    let header = match stored {
        Some(h) => Some(h),
        None => (check.page_type.is_index_layout(vendor) && !check.all_zero)
            .then(|| IndexHeader::parse(image).ok())
            .flatten(),
    };
    header.map(|h| (h.index_id, h.level))
}

/// Every child page candidate of the node pointer at `origin` on page
/// `n`, read from the page (for the finding of a pointer that fits no page).
fn candidates_at(pages: &mut LogicalPages<'_>, n: u32, origin: usize) -> Vec<u32> {
    let mut buf = Vec::new();
    let Ok((_, header, _)) = read_index_page(pages, n, &mut buf, "") else {
        return Vec::new();
    };
    let page = IndexPage::new(&buf, header);
    let (mut list, mut free, mut problems) = (RecordList::default(), Vec::new(), Vec::new());
    inspect_records(&page, &mut list, &mut free, &mut problems);
    let mut heap = Vec::new();
    list.heap_order(&free, &mut heap);
    let mut out = Vec::new();
    if let Some(r) = list.records.iter().find(|r| r.origin == origin) {
        page.child_candidates(r, &heap, &mut out);
    }
    out
}

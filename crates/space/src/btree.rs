//! B+tree walks: from an index root down every level, following node
//! pointers to children in key order, and checking each level's sibling
//! chain (`FIL_PAGE_PREV`/`FIL_PAGE_NEXT`) against that order.
//!
//! Each page of the tree is read once and handed to the caller's visitor
//! with its decoded record list, so reports aggregate as the walk goes and
//! nothing per page is kept but the page numbers of the level below. Every
//! page may be reached once: a child reached twice (a cycle, or two parents)
//! is a finding, and the walk is bounded by the file's page count.

use crate::finding::{Finding, FindingKind};
use crate::logical_pages::LogicalPages;
use crate::page_check::PageCheck;
use innodb_format::index::header::{IndexHeader, PAGE_INDEX_ID, PAGE_LEVEL};
use innodb_format::index::page::{IndexPage, PageProblem, RecordList};
use innodb_format::index::record::RecordType;
use innodb_format::FIL_NULL;

/// One page of the tree, as the walk hands it to the visitor.
pub struct PageVisit<'p> {
    /// Page number.
    pub page_no: u32,
    /// The page's check (type, LSN, prev/next).
    pub check: &'p PageCheck,
    /// The logical page.
    pub page: &'p IndexPage<'p>,
    /// Its user records in key order.
    pub records: &'p RecordList,
    /// Records in its garbage list.
    pub garbage_records: usize,
    /// Problems the page's own checks found (already findings).
    pub problems: usize,
    /// For a ROW_FORMAT=COMPRESSED page: how its physical bytes are used.
    pub zip: Option<innodb_format::index::page_zip::ZipSpace>,
}

/// The pages of one level in key order.
#[derive(Debug, Clone, Default)]
pub struct Level {
    /// `PAGE_LEVEL`.
    pub level: u16,
    /// Page numbers, leftmost first.
    pub pages: Vec<u32>,
}

/// What walking one index found.
#[derive(Debug, Clone, Default)]
pub struct TreeWalk {
    /// The root page.
    pub root_page: u32,
    /// `PAGE_INDEX_ID`.
    pub index_id: u64,
    /// Levels, root level first. The last holds the leaves unless the walk
    /// stopped early.
    pub levels: Vec<Level>,
    /// Every page reached (a bit per page of the file).
    pub reached: Vec<u64>,
    /// Problems: damaged pages, broken sibling chains, pages reached twice.
    pub findings: Vec<Finding>,
}

impl TreeWalk {
    /// True when page `n` was reached.
    pub fn reached(&self, n: u32) -> bool {
        self.reached
            .get(n as usize / 64)
            .is_some_and(|w| w >> (n % 64) & 1 == 1)
    }

    /// The leaf level's pages in key order (empty if the walk never got there).
    pub fn leaves(&self) -> &[u32] {
        match self.levels.last() {
            Some(l) if l.level == 0 => &l.pages,
            _ => &[],
        }
    }
}

pub(crate) fn finding(kind: FindingKind, page: u32, p: PageProblem) -> Finding {
    Finding::on_page(kind, page, p.offset, p.field, p.message)
}

/// Walks the index rooted at `root`, calling `visit` once per page reached.
pub fn walk(
    pages: &mut LogicalPages<'_>,
    root: u32,
    mut visit: impl FnMut(&PageVisit<'_>),
) -> TreeWalk {
    walk_while(pages, root, |v| {
        visit(v);
        true
    })
}

/// [`walk`], stopped as soon as `visit` returns false (a look at the first
/// pages of an index): the levels and findings are those of the pages read.
pub fn walk_while(
    pages: &mut LogicalPages<'_>,
    root: u32,
    visit: impl FnMut(&PageVisit<'_>) -> bool,
) -> TreeWalk {
    walk_tree(pages, root, false, visit)
}

/// [`walk_while`], each leaf page read once, for the walks that read the
/// leaves' records (`records`): the check that a node pointer of a page of
/// level 1 points at a leaf of the index reads that leaf whole, and the
/// leaf is visited as soon as the next one is known (its sibling check
/// needs both), where [`walk_while`] reads the leaf's header for the check
/// and the whole page again when it walks the leaf level. The leaves come
/// in the same key order, with the same findings in the same order; but
/// each is visited after the page of level 1 that points at it (or the
/// next one), not after every page of level 1, and a walk stopped at a
/// leaf has read level 1 only up to there. A ROW_FORMAT=COMPRESSED
/// tablespace is walked as [`walk_while`] walks it.
pub fn walk_leaves_while(
    pages: &mut LogicalPages<'_>,
    root: u32,
    visit: impl FnMut(&PageVisit<'_>) -> bool,
) -> TreeWalk {
    let once = !pages.space().format().is_zip();
    walk_tree(pages, root, once, visit)
}

/// What reading one page's records needs, reused from page to page.
#[derive(Default)]
struct Scratch {
    list: RecordList,
    free: Vec<usize>,
    problems: Vec<PageProblem>,
}

/// Checks page `n` (read as `read`, its image `buf`) at place `i` of its
/// level's pages `level_pages` in key order, and hands it to `visit`: its
/// sibling chain (an R-tree page's kept in `rtree_links` for
/// [`end_level`]) and its records, the problems added to `findings`.
/// Returns what `visit` returns.
fn visit_page(
    (n, read, buf): (u32, &IndexRead, &[u8]),
    (level_pages, i): (&[u32], usize),
    s: &mut Scratch,
    (rtree_links, findings): (&mut Vec<(u32, u32, u32)>, &mut Vec<Finding>),
    visit: &mut impl FnMut(&PageVisit<'_>) -> bool,
) -> bool {
    let (check, header, zip) = read;
    // Sibling chain against key order. An R-tree's node pointers are
    // not in sibling order: its chain is checked as a whole by `end_level`.
    if check.page_type == innodb_format::fil::page_type::PageType::RTREE {
        rtree_links.push((n, check.fil.prev, check.fil.next));
    } else {
        let got = (check.fil.prev, check.fil.next);
        sibling_findings(n, header.level, got, level_pages, i, findings);
    }
    let page = IndexPage::new(buf, *header);
    let n_problems = inspect_records(&page, &mut s.list, &mut s.free, &mut s.problems);
    findings.extend(
        s.problems
            .drain(..)
            .map(|p| finding(FindingKind::BadIndexPage, n, p)),
    );
    visit(&PageVisit {
        page_no: n,
        check,
        page: &page,
        records: &s.list,
        garbage_records: s.free.len(),
        problems: n_problems,
        zip: *zip,
    })
}

/// The leaves of a walk that reads each once ([`walk_leaves_while`]): the
/// leaf found last, read whole by the check of the node pointer that
/// points at it, waits for the next one.
#[derive(Default)]
struct LeafPipe {
    /// The leaf found last and its check; its image is in `buf`.
    pending: Option<(u32, PageCheck)>,
    buf: Vec<u8>,
    /// Where a candidate child is read.
    spare: Vec<u8>,
    /// The leaf visited last.
    prev: Option<u32>,
    scratch: Scratch,
    /// The leaves' findings: they follow those of level 1, as in [`walk_while`].
    findings: Vec<Finding>,
    rtree_links: Vec<(u32, u32, u32)>,
    /// A leaf was visited.
    visited: bool,
}

impl LeafPipe {
    /// The check of page `c`, its image in `self.spare`, when it is a leaf
    /// of index `index_id`: what [`child_fits`] decides of a page of a
    /// tablespace that is not ROW_FORMAT=COMPRESSED (its header in place
    /// is that of its image, or it is page-compressed and its image is
    /// what counts).
    fn read_child(
        &mut self,
        pages: &mut LogicalPages<'_>,
        c: u32,
        index_id: u64,
    ) -> Option<PageCheck> {
        let vendor = pages.space().format().vendor;
        let check = pages.read_into(c, &mut self.spare)?;
        let fits = check.page_type.is_index_layout(vendor)
            && !check.all_zero
            && IndexHeader::parse(&self.spare)
                .is_ok_and(|h| h.index_id == index_id && h.level == 0);
        fits.then_some(check)
    }

    /// Takes page `c`, just read by [`Self::read_child`] (`check`), as the
    /// next leaf, and visits the one before it. False when `visit` says to stop.
    fn push(
        &mut self,
        pages: &LogicalPages<'_>,
        (c, check): (u32, PageCheck),
        visit: &mut impl FnMut(&PageVisit<'_>) -> bool,
    ) -> bool {
        let go_on = self.flush(pages, Some(c), visit);
        std::mem::swap(&mut self.buf, &mut self.spare);
        self.pending = Some((c, check));
        go_on
    }

    /// Visits the waiting leaf, `next` the leaf after it in key order
    /// (`None`: it is the last). False when `visit` says to stop.
    fn flush(
        &mut self,
        pages: &LogicalPages<'_>,
        next: Option<u32>,
        visit: &mut impl FnMut(&PageVisit<'_>) -> bool,
    ) -> bool {
        let Some((n, check)) = self.pending.take() else {
            return true;
        };
        // Never an error for a page `read_child` took.
        let read = match index_page_of(pages, n, check, &self.buf, "of the tree ") {
            Ok(read) => read,
            Err(f) => {
                self.findings.push(f);
                return true;
            }
        };
        // The leaf's neighbours in key order, and its place among them.
        let (around, i, len) = match (self.prev, next) {
            (Some(p), Some(q)) => ([p, n, q], 1, 3),
            (Some(p), None) => ([p, n, 0], 1, 2),
            (None, Some(q)) => ([n, q, 0], 0, 2),
            (None, None) => ([n, 0, 0], 0, 1),
        };
        self.prev = Some(n);
        self.visited = true;
        visit_page(
            (n, &read, &self.buf),
            (around.get(..len).unwrap_or_default(), i),
            &mut self.scratch,
            (&mut self.rtree_links, &mut self.findings),
            visit,
        )
    }
}

/// The walk of [`walk_while`] (`leaves_once`: of [`walk_leaves_while`]).
fn walk_tree(
    pages: &mut LogicalPages<'_>,
    root: u32,
    leaves_once: bool,
    mut visit: impl FnMut(&PageVisit<'_>) -> bool,
) -> TreeWalk {
    let space = pages.space();
    let page_count = space.page_count();
    let mut out = TreeWalk {
        root_page: root,
        reached: vec![0; (page_count as usize).div_ceil(64)],
        ..TreeWalk::default()
    };
    let mut buf = Vec::new();
    let mut child_buf = Vec::new();
    let mut s = Scratch::default();
    let mut pipe = LeafPipe::default();
    let mut heap_order = Vec::new();
    let mut candidates = Vec::new();
    let mut current = vec![root];
    let mut expected: Option<(u64, u16)> = None; // index id, level
    let mut reached_total = 0usize;
    let mut rtree_links: Vec<(u32, u32, u32)> = Vec::new();
    mark(&mut out.reached, root);
    while !current.is_empty() {
        let mut next_level: Vec<u32> = Vec::new();
        let mut level_no = None;
        for (i, &n) in current.iter().enumerate() {
            let read = match read_index_page(pages, n, &mut buf, "of the tree ") {
                Ok(read) => read,
                Err(f) => {
                    out.findings.push(f);
                    continue;
                }
            };
            let header = read.1;
            match expected {
                None => {
                    expected = Some((header.index_id, header.level));
                    out.index_id = header.index_id;
                }
                Some(want) => {
                    if let Some(f) = mismatch(n, header.index_id, header.level, want) {
                        out.findings.push(f);
                        continue;
                    }
                }
            }
            level_no = Some(header.level);
            reached_total += 1;
            let at = (n, &read, buf.as_slice());
            let found = (&mut rtree_links, &mut out.findings);
            if !visit_page(at, (&current, i), &mut s, found, &mut visit) {
                return out;
            }
            if header.level == 0 {
                continue;
            }
            let page = IndexPage::new(&buf, header);
            s.list.heap_order(&s.free, &mut heap_order);
            // The children of this page are leaves, read once here.
            let piped = leaves_once && header.level == 1;
            let mut last_depth = 0usize;
            for r in s
                .list
                .records
                .iter()
                .filter(|r| r.record_type == RecordType::NodePointer)
            {
                page.child_candidates(r, &heap_order, &mut candidates);
                // The same number of null-flag/length bytes as the record before first.
                let n_candidates = candidates.len();
                let mut order = std::iter::once(last_depth)
                    .chain((0..n_candidates).filter(|&d| d != last_depth))
                    .filter(|&d| d < n_candidates);
                let child = order.find_map(|d| {
                    let c = *candidates.get(d)?;
                    if c >= page_count || is_marked(&out.reached, c) {
                        return None;
                    }
                    if piped {
                        let check = pipe.read_child(pages, c, header.index_id)?;
                        return Some((d, c, Some(check)));
                    }
                    child_fits(pages, c, header.index_id, header.level - 1, &mut child_buf)
                        .then_some((d, c, None))
                });
                match child {
                    Some((d, c, leaf)) => {
                        last_depth = d;
                        mark(&mut out.reached, c);
                        next_level.push(c);
                        if let Some(check) = leaf {
                            if !pipe.push(pages, (c, check), &mut visit) {
                                out.findings.append(&mut pipe.findings);
                                return out;
                            }
                        }
                    }
                    None => out.findings.push(
                        match candidates
                            .iter()
                            .find(|&&c| c < page_count && is_marked(&out.reached, c))
                        {
                            Some(&c) => cycle_finding(n, r.origin, c),
                            _ => no_child_finding(
                                pages,
                                (n, r.origin),
                                (header.index_id, header.level),
                                candidates.get(last_depth).or(candidates.first()).copied(),
                                &mut child_buf,
                            ),
                        },
                    ),
                }
            }
            if reached_total + next_level.len() > page_count as usize {
                break;
            }
        }
        // The leaves were visited as level 1 was read: the last one now.
        let leaves_read = leaves_once && level_no == Some(1);
        if leaves_read {
            let go_on = pipe.flush(pages, None, &mut visit);
            out.findings.append(&mut pipe.findings);
            if !go_on {
                return out;
            }
        }
        if !end_level(&mut out, &mut rtree_links, level_no, &current) {
            break;
        }
        if leaves_read {
            let leaf_level = pipe.visited.then_some(0);
            end_level(&mut out, &mut pipe.rtree_links, leaf_level, &next_level);
            break;
        }
        current = next_level;
        if let Some((_, l)) = expected.as_mut() {
            *l = l.saturating_sub(1);
        }
    }
    out
}

/// The finding when page `n`, reached from a tree whose pages so far are
/// of index and level `want`, is of another index or level.
pub(crate) fn mismatch(n: u32, index_id: u64, level: u16, want: (u64, u16)) -> Option<Finding> {
    let (id, want_level) = want;
    if index_id != id {
        return Some(Finding::on_page(
            FindingKind::OwnershipMismatch,
            n,
            PAGE_INDEX_ID,
            "PAGE_INDEX_ID",
            format!("page {n} belongs to index {index_id}, reached from index {id}"),
        ));
    }
    (level != want_level).then(|| {
        Finding::on_page(
            FindingKind::OwnershipMismatch,
            n,
            PAGE_LEVEL,
            "PAGE_LEVEL",
            format!("page {n} is at level {level}, reached as a page of level {want_level}"),
        )
    })
}

/// Checks page `n`'s `FIL_PAGE_PREV`/`FIL_PAGE_NEXT` (`got`) against its
/// neighbours in key order: the pages before and after place `i` of `level_pages`.
pub(crate) fn sibling_findings(
    n: u32,
    level: u16,
    got: (u32, u32),
    level_pages: &[u32],
    i: usize,
    findings: &mut Vec<Finding>,
) {
    let want_prev = i
        .checked_sub(1)
        .and_then(|p| level_pages.get(p))
        .copied()
        .unwrap_or(FIL_NULL);
    let want_next = level_pages.get(i + 1).copied().unwrap_or(FIL_NULL);
    for (got, want, field, offset) in [
        (
            got.0,
            want_prev,
            "FIL_PAGE_PREV",
            innodb_format::fil::header::FIL_PAGE_PREV,
        ),
        (
            got.1,
            want_next,
            "FIL_PAGE_NEXT",
            innodb_format::fil::header::FIL_PAGE_NEXT,
        ),
    ] {
        if got != want {
            let show = |p: u32| {
                if p == FIL_NULL {
                    "none".to_string()
                } else {
                    p.to_string()
                }
            };
            findings.push(Finding::on_page(
                FindingKind::BrokenList,
                n,
                offset,
                field,
                format!(
                    "sibling chain of level {level}: {field} is {} but key order says {}",
                    show(got),
                    show(want)
                ),
            ));
        }
    }
}

/// The finding for the node pointer at `origin` on page `n` whose child
/// page `c` the walk already reached.
pub(crate) fn cycle_finding(n: u32, origin: usize, c: u32) -> Finding {
    Finding::on_page(
        FindingKind::BrokenList,
        n,
        origin,
        "node pointer",
        format!(
            "node pointer at {origin} points at page {c}, which the walk already reached (a cycle or a shared child)"
        ),
    )
}

/// The finding for the node pointer at `at` (page, origin) on a page of
/// `tree` (index id, level) that points at no page of its index one level
/// down; `shown`: the child page number it most likely holds.
pub(crate) fn no_child_finding(
    pages: &mut LogicalPages<'_>,
    at: (u32, usize),
    tree: (u64, u16),
    shown: Option<u32>,
    buf: &mut Vec<u8>,
) -> Finding {
    let (n, origin) = at;
    let (index_id, level) = tree;
    Finding::on_page(
        FindingKind::BrokenList,
        n,
        origin,
        "node pointer",
        format!(
            "node pointer at {origin} points at no page of index {index_id} at level {}{}",
            level - 1,
            shown
                .map(|c| format!(
                    ": its child page number reads {c}, {}",
                    what_is_at(pages, c, buf)
                ))
                .unwrap_or_default()
        ),
    )
}

/// Closes the level of `current` (its pages in key order) at `level_no`:
/// its R-tree sibling chain checked (and `rtree_links` emptied), the level
/// added to `out`. False when the walk ends here (the leaf level, or a
/// level no page of which was read).
pub(crate) fn end_level(
    out: &mut TreeWalk,
    rtree_links: &mut Vec<(u32, u32, u32)>,
    level_no: Option<u16>,
    current: &[u32],
) -> bool {
    let Some(level) = level_no else {
        return false;
    };
    if !rtree_links.is_empty() {
        check_chain(rtree_links, level, &mut out.findings);
        rtree_links.clear();
    }
    out.levels.push(Level {
        level,
        pages: current.to_vec(),
    });
    level != 0
}

/// Checks that the pages of one R-tree level form one sibling chain: from
/// the page with no `FIL_PAGE_PREV`, `FIL_PAGE_NEXT` visits every page once.
fn check_chain(links: &[(u32, u32, u32)], level: u16, findings: &mut Vec<Finding>) {
    let heads: Vec<u32> = links
        .iter()
        .filter(|l| l.1 == FIL_NULL)
        .map(|l| l.0)
        .collect();
    let Some(&head) = heads.first() else {
        if let Some(&(n, ..)) = links.first() {
            findings.push(Finding::on_page(
                FindingKind::BrokenList,
                n,
                innodb_format::fil::header::FIL_PAGE_PREV,
                "FIL_PAGE_PREV",
                format!("sibling chain of R-tree level {level}: no page starts it"),
            ));
        }
        return;
    };
    let mut seen = 0usize;
    let mut at = head;
    while at != FIL_NULL && seen <= links.len() {
        let Some(&(_, _, next)) = links.iter().find(|l| l.0 == at) else {
            findings.push(Finding::on_page(
                FindingKind::BrokenList,
                at,
                0,
                "FIL_PAGE_NEXT",
                format!("sibling chain of R-tree level {level} leads to page {at}, which is not on the level"),
            ));
            return;
        };
        seen += 1;
        at = next;
    }
    if seen != links.len() || heads.len() != 1 {
        findings.push(Finding::on_page(
            FindingKind::BrokenList,
            head,
            innodb_format::fil::header::FIL_PAGE_NEXT,
            "FIL_PAGE_NEXT",
            format!(
                "sibling chain of R-tree level {level} from page {head} passes {seen} of its {} pages ({} pages start a chain)",
                links.len(),
                heads.len()
            ),
        ));
    }
}

pub(crate) fn mark(bits: &mut [u64], n: u32) {
    if let Some(w) = bits.get_mut(n as usize / 64) {
        *w |= 1 << (n % 64);
    }
}

pub(crate) fn is_marked(bits: &[u64], n: u32) -> bool {
    bits.get(n as usize / 64)
        .is_some_and(|w| w >> (n % 64) & 1 == 1)
}

/// The child page of node pointer `rec` on `page`: the first place
/// [`IndexPage::child_candidates`] gives that holds an index page of the
/// same index one level down. `heap_order`: every record origin of the page, sorted.
pub fn resolve_child(
    pages: &mut LogicalPages<'_>,
    page: &IndexPage<'_>,
    rec: &innodb_format::index::record::RecordHeader,
    heap_order: &[usize],
) -> Option<u32> {
    let mut candidates = Vec::new();
    page.child_candidates(rec, heap_order, &mut candidates);
    let level = page.header.level.checked_sub(1)?;
    let page_count = pages.space().page_count();
    let mut buf = Vec::new();
    candidates
        .into_iter()
        .find(|&c| c < page_count && child_fits(pages, c, page.header.index_id, level, &mut buf))
}

/// True when page `n` is an index page of `index_id` at `level`.
fn child_fits(
    pages: &mut LogicalPages<'_>,
    n: u32,
    index_id: u64,
    level: u16,
    buf: &mut Vec<u8>,
) -> bool {
    let vendor = pages.space().format().vendor;
    // The header of an uncompressed or ROW_FORMAT=COMPRESSED page is readable
    // in place; a page-compressed one must be inflated first.
    let head =
        innodb_format::index::header::PAGE_HEADER + innodb_format::index::header::PAGE_HEADER_SIZE;
    let raw_ok = pages.read_prefix(n, head, buf).and_then(|()| {
        let fil = innodb_format::fil::header::FilHeader::parse(buf).ok()?;
        fil.page_type
            .is_index_layout(vendor)
            .then(|| IndexHeader::parse(buf).ok())
            .flatten()
    });
    let header = match raw_ok {
        Some(h) => Some(h),
        None => pages
            .read_into(n, buf)
            .filter(|c| c.page_type.is_index_layout(vendor) && !c.all_zero)
            .and_then(|_| IndexHeader::parse(buf).ok()),
    };
    header.is_some_and(|h| h.index_id == index_id && h.level == level)
}

/// What page `n` is, for a finding about a pointer to it that does not fit:
/// beyond the file, all zero, an index page of which index and level, or a
/// page of another type.
pub(crate) fn what_is_at(pages: &mut LogicalPages<'_>, n: u32, buf: &mut Vec<u8>) -> String {
    let page_count = pages.space().page_count();
    if n >= page_count {
        return format!("beyond the file's {page_count} pages");
    }
    let vendor = pages.space().format().vendor;
    match pages.read_into(n, buf) {
        None => "a page that cannot be read".into(),
        Some(c) if c.all_zero => "a page that is all zero (never written, or zeroed)".into(),
        Some(c) if c.page_type.is_index_layout(vendor) => match IndexHeader::parse(buf) {
            Ok(h) => format!("an index page of index {} at level {}", h.index_id, h.level),
            Err(_) => "an index page whose header cannot be read".into(),
        },
        Some(c) => format!("a page of type {}", c.page_type.name(vendor)),
    }
}

/// Reads page `n` alone and hands it to `visit` as [`walk`] would, when it
/// is a readable index page; returns the page's problems as findings (or
/// why it is not an index page).
pub fn visit_one(
    pages: &mut LogicalPages<'_>,
    n: u32,
    mut visit: impl FnMut(&PageVisit<'_>),
) -> Vec<Finding> {
    let mut buf = Vec::new();
    let (check, header, zip) = match read_index_page(pages, n, &mut buf, "") {
        Ok(read) => read,
        Err(f) => return vec![f],
    };
    let page = IndexPage::new(&buf, header);
    let (mut list, mut free, mut problems) = (RecordList::default(), Vec::new(), Vec::new());
    let n_problems = inspect_records(&page, &mut list, &mut free, &mut problems);
    visit(&PageVisit {
        page_no: n,
        check: &check,
        page: &page,
        records: &list,
        garbage_records: free.len(),
        problems: n_problems,
        zip,
    });
    problems
        .into_iter()
        .map(|p| finding(FindingKind::BadIndexPage, n, p))
        .collect()
}

/// Reads page `n` into `buf` as an index page: its check, its header and,
/// for a ROW_FORMAT=COMPRESSED page, how its bytes are used; or the finding
/// saying why it is not a readable index page (`where_` placed after the
/// page number in its message, e.g. "of the tree ").
pub(crate) fn read_index_page(
    pages: &mut LogicalPages<'_>,
    n: u32,
    buf: &mut Vec<u8>,
    where_: &str,
) -> Result<IndexRead, Finding> {
    let Some(check) = pages.read_into(n, buf) else {
        return Err(Finding::on_page(
            FindingKind::Unreadable,
            n,
            0,
            "page",
            "the page cannot be read",
        ));
    };
    index_page_of(pages, n, check, buf, where_)
}

/// A page read as an index page: its check, its header and, for a
/// ROW_FORMAT=COMPRESSED page, how its bytes are used.
pub(crate) type IndexRead = (
    PageCheck,
    IndexHeader,
    Option<innodb_format::index::page_zip::ZipSpace>,
);

/// [`read_index_page`] of page `n` just read by `pages` into `buf` (its check `check`).
pub(crate) fn index_page_of(
    pages: &LogicalPages<'_>,
    n: u32,
    check: PageCheck,
    buf: &[u8],
    where_: &str,
) -> Result<IndexRead, Finding> {
    let vendor = pages.space().format().vendor;
    if let Some(Err(e)) = pages.last_zip() {
        return Err(Finding::on_page(
            FindingKind::Decompression,
            n,
            innodb_format::index::page_zip::PAGE_DATA,
            "ROW_FORMAT=COMPRESSED page",
            format!("the compressed page cannot be rebuilt: {e}"),
        ));
    }
    let zip = pages.last_zip().and_then(|z| z.as_ref().ok()).copied();
    match (check.page_type.is_index_layout(vendor) && !check.all_zero)
        .then(|| IndexHeader::parse(buf))
    {
        Some(Ok(h)) => Ok((check, h, zip)),
        _ => Err(Finding::on_page(
            FindingKind::OwnershipMismatch,
            n,
            innodb_format::fil::header::FIL_PAGE_TYPE,
            "FIL_PAGE_TYPE",
            format!(
                "page {n} {where_}is a {} page, not an index page",
                check.page_type.name(vendor)
            ),
        )),
    }
}

/// Walks a page's record list and garbage list and makes the server's
/// page checks; returns how many problems they found (left in `problems`).
pub(crate) fn inspect_records(
    page: &IndexPage<'_>,
    list: &mut RecordList,
    free: &mut Vec<usize>,
    problems: &mut Vec<PageProblem>,
) -> usize {
    problems.clear();
    page.walk(list, problems);
    page.free_list(free, problems);
    page.check(list, free, problems);
    problems.len()
}

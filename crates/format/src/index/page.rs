//! An INDEX page as a whole (`page0page.h`): its record list from infimum
//! to supremum, the garbage (free) list, the page directory, the space the
//! records take, and the consistency checks the server's `page_validate`
//! makes. Works on a logical page image (an uncompressed page, the inflated
//! image of a page-compressed page, or a decompressed ROW_FORMAT=COMPRESSED
//! page).
//!
//! Every walk is bounded by the page's heap size and detects revisited
//! records; problems are returned as [`PageProblem`]s, never as panics.

use crate::bytes::u16_at;
use crate::index::header::{
    IndexHeader, PAGE_FREE, PAGE_HEAP_TOP, PAGE_N_DIR_SLOTS, PAGE_N_HEAP, PAGE_N_RECS,
};
use crate::index::record::{RecordFormat, RecordHeader, RecordType, REC_NODE_PTR_SIZE};
use serde::Serialize;

/// Bytes of the page directory's fixed part at the page end (`PAGE_DIR`: the FIL trailer).
pub const PAGE_DIR: usize = 8;
/// Size of one directory slot (`PAGE_DIR_SLOT_SIZE`).
pub const PAGE_DIR_SLOT_SIZE: usize = 2;

/// A problem on one page: where and what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PageProblem {
    /// Byte offset on the page.
    pub offset: usize,
    /// The field or structure concerned.
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
}

/// Space use of one INDEX page (the server's `page_get_data_size` and friends).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PageSpace {
    /// Bytes of user records, headers included: `PAGE_HEAP_TOP` − end of supremum − `PAGE_GARBAGE`.
    pub data_bytes: usize,
    /// Contiguous free bytes between the heap top and the page directory.
    pub free_bytes: usize,
    /// `PAGE_GARBAGE`: bytes of deleted records in the free list.
    pub garbage_bytes: usize,
    /// Space for records on an empty page (`page_get_free_space_of_empty`).
    pub usable_bytes: usize,
}

impl PageSpace {
    /// Space use of an INDEX page of logical size `page_len`, from its
    /// header alone (`PAGE_HEAP_TOP`, `PAGE_GARBAGE`, `PAGE_N_DIR_SLOTS`
    /// describe the logical page, also on a ROW_FORMAT=COMPRESSED page).
    pub fn of_header(header: &IndexHeader, page_len: usize) -> PageSpace {
        let format = if header.is_compact() {
            RecordFormat::Compact
        } else {
            RecordFormat::Redundant
        };
        let end = format.supremum_end();
        let heap_top = usize::from(header.heap_top);
        let garbage = usize::from(header.garbage);
        let dir = PAGE_DIR + PAGE_DIR_SLOT_SIZE * usize::from(header.n_dir_slots);
        PageSpace {
            data_bytes: heap_top.saturating_sub(end).saturating_sub(garbage),
            free_bytes: page_len.saturating_sub(dir).saturating_sub(heap_top),
            garbage_bytes: garbage,
            usable_bytes: page_len.saturating_sub(end + PAGE_DIR + 2 * PAGE_DIR_SLOT_SIZE),
        }
    }

    /// data / usable, 0.0 to about 1.0.
    pub fn fill(&self) -> f64 {
        if self.usable_bytes == 0 {
            0.0
        } else {
            self.data_bytes as f64 / self.usable_bytes as f64
        }
    }
}

/// One INDEX page image with its header.
#[derive(Debug, Clone, Copy)]
pub struct IndexPage<'a> {
    page: &'a [u8],
    /// The page header.
    pub header: IndexHeader,
    /// Record format.
    pub format: RecordFormat,
}

/// What walking a page's records found.
#[derive(Debug, Clone, Default)]
pub struct RecordList {
    /// User records in list order (infimum and supremum left out).
    pub records: Vec<RecordHeader>,
    /// True when the walk went from infimum to supremum without a problem.
    pub complete: bool,
}

impl RecordList {
    /// The origins of these records and of the garbage list's `free`, in
    /// offset order, into `out` (cleared first): the page's heap as the
    /// node pointers' child search reads it (the overlap check walks the
    /// same order in a bitset).
    pub fn heap_order(&self, free: &[usize], out: &mut Vec<usize>) {
        out.clear();
        out.extend(
            self.records
                .iter()
                .map(|r| r.origin)
                .chain(free.iter().copied()),
        );
        out.sort_unstable();
    }
}

/// Bitset over page offsets, on the stack: 64 KiB pages need 1024 words.
struct Seen([u64; 1024]);

impl Seen {
    fn new() -> Self {
        Seen([0; 1024])
    }
    /// Marks `at`; false if it was marked before (or is beyond 64 KiB).
    fn insert(&mut self, at: usize) -> bool {
        let Some(w) = self.0.get_mut(at / 64) else {
            return false;
        };
        let bit = 1u64 << (at % 64);
        let fresh = *w & bit == 0;
        *w |= bit;
        fresh
    }

    /// True when `at` is marked.
    fn contains(&self, at: usize) -> bool {
        self.0
            .get(at / 64)
            .is_some_and(|w| w & (1u64 << (at % 64)) != 0)
    }

    /// The marked places below `end`, in increasing order.
    fn iter_below(&self, end: usize) -> impl Iterator<Item = usize> + '_ {
        let words = self.0.get(..end.div_ceil(64)).unwrap_or(&self.0);
        words.iter().enumerate().flat_map(|(i, &w)| {
            let mut rest = w;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    i * 64 + bit
                })
            })
        })
    }
}

impl<'a> IndexPage<'a> {
    /// A view of a logical INDEX page image.
    pub fn new(page: &'a [u8], header: IndexHeader) -> Self {
        let format = if header.is_compact() {
            RecordFormat::Compact
        } else {
            RecordFormat::Redundant
        };
        IndexPage {
            page,
            header,
            format,
        }
    }

    /// The page bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.page
    }

    /// True for a leaf page (`PAGE_LEVEL` 0).
    pub fn is_leaf(&self) -> bool {
        self.header.level == 0
    }

    /// Space use, from the header alone.
    pub fn space(&self) -> PageSpace {
        PageSpace::of_header(&self.header, self.page.len())
    }

    fn record(&self, origin: usize) -> Result<RecordHeader, String> {
        RecordHeader::parse(self.page, origin, self.format, self.is_leaf())
            .map_err(|e| e.to_string())
    }

    /// True when `origin` can be a user record's origin on this page.
    fn in_heap(&self, origin: usize) -> bool {
        origin >= self.format.supremum_end() + self.format.extra_bytes()
            && origin < usize::from(self.header.heap_top)
    }

    /// Walks the record list from infimum to supremum into `out` (cleared
    /// first). Bounded by `PAGE_N_HEAP`; a link out of the heap, a revisited
    /// record or a missing supremum is a problem and ends the walk.
    pub fn walk(&self, out: &mut RecordList, problems: &mut Vec<PageProblem>) {
        out.records.clear();
        out.complete = false;
        let mut seen = Seen::new();
        let infimum = self.format.infimum();
        let supremum = self.format.supremum();
        let mut at = match self.record(infimum) {
            Ok(h) => h.next,
            Err(e) => {
                problems.push(PageProblem {
                    offset: infimum,
                    field: "infimum",
                    message: e,
                });
                return;
            }
        };
        let limit = usize::from(self.header.n_heap()).max(2) + 1;
        let mut from = infimum;
        loop {
            let Some(origin) = at else {
                problems.push(PageProblem {
                    offset: from,
                    field: "REC_NEXT",
                    message: format!("record at {from} ends the list before the supremum"),
                });
                return;
            };
            if origin == supremum {
                out.complete = true;
                return;
            }
            if !self.in_heap(origin) {
                problems.push(PageProblem {
                    offset: from,
                    field: "REC_NEXT",
                    message: format!(
                        "record at {from} links to {origin}, outside the record heap {}..{}",
                        self.format.supremum_end(),
                        self.header.heap_top
                    ),
                });
                return;
            }
            if !seen.insert(origin) {
                problems.push(PageProblem {
                    offset: from,
                    field: "REC_NEXT",
                    message: format!(
                        "cycle: record at {from} links back to record {origin} after {} records",
                        out.records.len()
                    ),
                });
                return;
            }
            if out.records.len() >= limit {
                problems.push(PageProblem {
                    offset: from,
                    field: "PAGE_N_HEAP",
                    message: format!(
                        "more than the {limit} records the heap holds; the walk stops"
                    ),
                });
                return;
            }
            let h = match self.record(origin) {
                Ok(h) => h,
                Err(e) => {
                    problems.push(PageProblem {
                        offset: origin,
                        field: "record header",
                        message: e,
                    });
                    return;
                }
            };
            out.records.push(h);
            from = origin;
            at = h.next;
        }
    }

    /// Walks the garbage list from `PAGE_FREE`: origins of deleted records.
    pub fn free_list(&self, out: &mut Vec<usize>, problems: &mut Vec<PageProblem>) {
        out.clear();
        let mut seen = Seen::new();
        let mut at = usize::from(self.header.free);
        let limit = usize::from(self.header.n_heap());
        let mut from = None;
        while at != 0 {
            let field = if from.is_none() {
                "PAGE_FREE"
            } else {
                "REC_NEXT"
            };
            let offset = from.unwrap_or(PAGE_FREE);
            if !self.in_heap(at) {
                problems.push(PageProblem {
                    offset,
                    field,
                    message: format!("garbage list links to {at}, outside the record heap"),
                });
                return;
            }
            if !seen.insert(at) || out.len() >= limit {
                problems.push(PageProblem {
                    offset,
                    field,
                    message: format!(
                        "garbage list loops back to {at} after {} records",
                        out.len()
                    ),
                });
                return;
            }
            out.push(at);
            match self.record(at) {
                Ok(h) => {
                    from = Some(at);
                    at = h.next.unwrap_or(0);
                }
                Err(e) => {
                    problems.push(PageProblem {
                        offset: at,
                        field: "record header",
                        message: e,
                    });
                    return;
                }
            }
        }
    }

    /// The page directory's slots, first (infimum) to last (supremum).
    pub fn directory(&self) -> Vec<usize> {
        let n = usize::from(self.header.n_dir_slots);
        let len = self.page.len();
        (0..n)
            .map_while(|i| {
                let at = len.checked_sub(PAGE_DIR + PAGE_DIR_SLOT_SIZE * (i + 1))?;
                u16_at(self.page, at, "PAGE_DIR_SLOT").ok().map(usize::from)
            })
            .collect()
    }

    /// The consistency checks of `page_validate`, given the walked list and
    /// the garbage list: record count, heap numbers, directory slots and
    /// n_owned, heap size, overlapping records.
    pub fn check(&self, list: &RecordList, free: &[usize], problems: &mut Vec<PageProblem>) {
        let h = &self.header;
        if list.complete && list.records.len() != usize::from(h.n_recs) {
            problems.push(PageProblem {
                offset: PAGE_N_RECS,
                field: "PAGE_N_RECS",
                message: format!(
                    "PAGE_N_RECS is {} but the record list has {}",
                    h.n_recs,
                    list.records.len()
                ),
            });
        }
        // Heap numbers: distinct, below PAGE_N_HEAP; the list and the garbage
        // list together hold every heap record.
        let n_heap = usize::from(h.n_heap());
        let mut heap_seen = Seen::new();
        for r in &list.records {
            let hn = usize::from(r.heap_no);
            if hn < 2 || hn >= n_heap || !heap_seen.insert(hn) {
                problems.push(PageProblem {
                    offset: r.origin,
                    field: "heap_no",
                    message: format!(
                        "record at {} has heap number {hn} (heap holds 2..{n_heap}, each once)",
                        r.origin
                    ),
                });
            }
        }
        if list.complete
            && free.len() + list.records.len() + 2 != n_heap
            && self.format == RecordFormat::Compact
        {
            problems.push(PageProblem {
                offset: PAGE_N_HEAP,
                field: "PAGE_N_HEAP",
                message: format!(
                    "PAGE_N_HEAP is {n_heap} but the page holds {} records in its list, {} in its garbage list and 2 system records",
                    list.records.len(),
                    free.len()
                ),
            });
        }
        // The directory must not run into the heap.
        let dir_start = self
            .page
            .len()
            .saturating_sub(PAGE_DIR + PAGE_DIR_SLOT_SIZE * usize::from(h.n_dir_slots));
        if usize::from(h.heap_top) > dir_start {
            problems.push(PageProblem {
                offset: PAGE_HEAP_TOP,
                field: "PAGE_HEAP_TOP",
                message: format!(
                    "heap top {} runs into the page directory at {dir_start}",
                    h.heap_top
                ),
            });
        }
        if list.complete {
            self.check_directory(list, problems);
        }
        self.check_overlaps(list, free, problems);
    }

    /// No record may overlap another: origins in heap order (as
    /// [`RecordList::heap_order`] sorts them) leave room for headers. The
    /// origins are marked in a bitset and read back in order, with no sort;
    /// an origin in both lists is a pair of its own.
    fn check_overlaps(&self, list: &RecordList, free: &[usize], problems: &mut Vec<PageProblem>) {
        let (mut origins, mut twice) = (Seen::new(), Seen::new());
        for &o in list.records.iter().map(|r| &r.origin).chain(free) {
            if !origins.insert(o) {
                twice.insert(o);
            }
        }
        let room = self.format.extra_bytes() + 1;
        let mut previous = None;
        // Both lists hold origins below PAGE_HEAP_TOP only (`in_heap`).
        for b in origins.iter_below(usize::from(self.header.heap_top)) {
            let overlap = |a: usize| PageProblem {
                offset: b,
                field: "record",
                message: format!("records at {a} and {b} overlap"),
            };
            if let Some(a) = previous.filter(|&a| b < a + room) {
                problems.push(overlap(a));
            }
            if twice.contains(b) {
                problems.push(overlap(b));
            }
            previous = Some(b);
        }
    }

    fn check_directory(&self, list: &RecordList, problems: &mut Vec<PageProblem>) {
        let slots = self.directory();
        let slot_offset = |i: usize| {
            self.page
                .len()
                .saturating_sub(PAGE_DIR + PAGE_DIR_SLOT_SIZE * (i + 1))
        };
        if slots.len() < 2 {
            problems.push(PageProblem {
                offset: PAGE_N_DIR_SLOTS,
                field: "PAGE_N_DIR_SLOTS",
                message: format!("{} directory slots; a page has at least 2", slots.len()),
            });
            return;
        }
        // Chain positions: infimum 0, user records 1..=n, supremum n+1.
        let mut chain: Vec<(usize, u8)> = Vec::with_capacity(list.records.len() + 2);
        let inf = RecordHeader::parse(
            self.page,
            self.format.infimum(),
            self.format,
            self.is_leaf(),
        );
        let sup = RecordHeader::parse(
            self.page,
            self.format.supremum(),
            self.format,
            self.is_leaf(),
        );
        let (Ok(inf), Ok(sup)) = (inf, sup) else {
            return;
        };
        chain.push((inf.origin, inf.n_owned));
        chain.extend(list.records.iter().map(|r| (r.origin, r.n_owned)));
        chain.push((sup.origin, sup.n_owned));
        let mut pos = 0usize; // chain position of the previous slot's owner
        let mut owned_total = 0usize;
        for (i, &slot) in slots.iter().enumerate() {
            // The origins of the chain are distinct (the list walk stops at
            // a record seen before): the slot's record is looked for after
            // the previous slot's first, where it is in a sound page.
            let at = |from: usize, to: usize| {
                chain
                    .get(from..to)
                    .and_then(|c| c.iter().position(|&(o, _)| o == slot))
                    .map(|j| from + j)
            };
            let Some(p) = at(pos, chain.len()).or_else(|| at(0, pos)) else {
                let why = if slot >= self.page.len() {
                    format!("past the end of the {}-byte page", self.page.len())
                } else if slot >= usize::from(self.header.heap_top) {
                    format!("at or past PAGE_HEAP_TOP {}", self.header.heap_top)
                } else {
                    "which is not a record of the list".to_string()
                };
                problems.push(PageProblem {
                    offset: slot_offset(i),
                    field: "PAGE_DIR_SLOT",
                    message: format!("directory slot {i} points at {slot}, {why}"),
                });
                return;
            };
            let expected_owned = if i == 0 { 1 } else { p.saturating_sub(pos) };
            if (i == 0 && p != 0) || (i > 0 && p <= pos) {
                problems.push(PageProblem {
                    offset: slot_offset(i),
                    field: "PAGE_DIR_SLOT",
                    message: format!(
                        "directory slot {i} points at record {slot}, out of key order"
                    ),
                });
                return;
            }
            // `p` is a position found in `chain`.
            let owned = chain.get(p).map_or(0, |&(_, n)| usize::from(n));
            if owned != expected_owned {
                problems.push(PageProblem {
                    offset: slot,
                    field: "n_owned",
                    message: format!("record {slot} (slot {i}) owns {owned} records; its group has {expected_owned}"),
                });
            }
            owned_total += owned;
            pos = p;
        }
        if pos != chain.len() - 1 {
            problems.push(PageProblem {
                offset: slot_offset(slots.len() - 1),
                field: "PAGE_DIR_SLOT",
                message: "the last directory slot does not point at the supremum".into(),
            });
        }
        if owned_total != chain.len() {
            problems.push(PageProblem {
                offset: PAGE_N_DIR_SLOTS,
                field: "n_owned",
                message: format!(
                    "n_owned adds up to {owned_total}; the list has {} records",
                    chain.len()
                ),
            });
        }
    }

    /// Places where the child page number of the node pointer `rec` may be
    /// read, best first. REDUNDANT records say where their data ends, so
    /// there is one; COMPACT records do not (that needs the index's columns),
    /// so the candidates are the 4 bytes before the next record's header in
    /// heap order, less 0, 1, 2 … bytes of that record's null flags and
    /// field lengths. `heap_order` holds every record origin of the page
    /// sorted (list and garbage list).
    pub fn child_candidates(&self, rec: &RecordHeader, heap_order: &[usize], out: &mut Vec<u32>) {
        out.clear();
        if rec.record_type != RecordType::NodePointer {
            return;
        }
        let read = |end: usize| -> Option<u32> {
            let at = end.checked_sub(REC_NODE_PTR_SIZE)?;
            (at >= rec.origin).then_some(())?;
            crate::bytes::u32_at(self.page, at, "node pointer child page").ok()
        };
        if self.format == RecordFormat::Redundant {
            if let Ok(Some((end, _))) = rec.redundant_extent(self.page) {
                out.extend(read(rec.origin + end));
            }
            return;
        }
        let next = heap_order
            .get(heap_order.partition_point(|&o| o <= rec.origin))
            .copied();
        match next {
            None => out.extend(read(usize::from(self.header.heap_top))),
            Some(n) => {
                let top = n.saturating_sub(self.format.extra_bytes());
                let most = top.saturating_sub(rec.origin + REC_NODE_PTR_SIZE).min(256);
                out.extend((0..=most).filter_map(|v| read(top - v)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seen_marks_once() {
        let mut s = Seen::new();
        assert!(s.insert(99));
        assert!(!s.insert(99));
        assert!(s.insert(65535));
        assert!(!s.insert(65536));
    }
}

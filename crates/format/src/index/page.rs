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
    /// The origins of `records`, marked over page offsets (kept between
    /// walks, so that a scan of many pages does not clear 8 KiB per page).
    origins: Bits,
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

/// Bitset on the stack of `W` 64-bit words: heap numbers (13 bits) need
/// 128, page offsets of a 64 KiB page 1024.
struct Seen<const W: usize>([u64; W]);

/// Words for a bitset over heap numbers (`PAGE_N_HEAP` holds 13 bits).
const HEAP_WORDS: usize = 128;
/// Words for a bitset over the offsets of a 64 KiB page.
const PAGE_WORDS: usize = 1024;

impl<const W: usize> Seen<W> {
    fn new() -> Self {
        Seen([0; W])
    }
    /// Marks `at`; false if it was marked before (or is beyond the set).
    fn insert(&mut self, at: usize) -> bool {
        insert_bit(&mut self.0, at)
    }
}

/// Marks bit `at` of `words`; false if it was marked before or is beyond them.
fn insert_bit(words: &mut [u64], at: usize) -> bool {
    let Some(w) = words.get_mut(at / 64) else {
        return false;
    };
    let bit = 1u64 << (at % 64);
    let fresh = *w & bit == 0;
    *w |= bit;
    fresh
}

/// Bitset over page offsets on the heap, cleared only as far as a page
/// needs: reused from walk to walk.
#[derive(Debug, Clone, Default)]
struct Bits(Vec<u64>);

impl Bits {
    /// Empties the set and makes room for offsets below `end`.
    fn reset(&mut self, end: usize) {
        let words = end.div_ceil(64).min(PAGE_WORDS);
        self.0.clear();
        self.0.resize(words, 0);
    }

    /// Marks `at`; false if it was marked before (or is beyond the set).
    fn insert(&mut self, at: usize) -> bool {
        insert_bit(&mut self.0, at)
    }

    /// True when `at` is marked.
    fn contains(&self, at: usize) -> bool {
        self.0
            .get(at / 64)
            .is_some_and(|w| w & (1u64 << (at % 64)) != 0)
    }
}

/// Origins sorted: on the stack when there are few, as on most garbage
/// lists.
struct SortedOrigins {
    /// Up to 64, in the first `n` places.
    few: [usize; 64],
    /// How many of `few` are used.
    n: usize,
    /// More than 64, sorted; empty otherwise.
    many: Vec<usize>,
}

impl SortedOrigins {
    fn of(origins: &[usize]) -> Self {
        let mut sorted = SortedOrigins {
            few: [0; 64],
            n: 0,
            many: Vec::new(),
        };
        if origins.len() <= sorted.few.len() {
            sorted
                .few
                .iter_mut()
                .zip(origins)
                .for_each(|(d, &o)| *d = o);
            sorted.n = origins.len();
            sorted
                .few
                .get_mut(..sorted.n)
                .unwrap_or_default()
                .sort_unstable();
        } else {
            sorted.many = origins.to_vec();
            sorted.many.sort_unstable();
        }
        sorted
    }

    fn as_slice(&self) -> &[usize] {
        if self.many.is_empty() {
            self.few.get(..self.n).unwrap_or_default()
        } else {
            &self.many
        }
    }
}

/// Word `i` of the union of the list's origins (`words`) and the garbage
/// list's (`garbage`, sorted, those below word `i` already taken), and
/// of their intersection.
fn word_of(
    words: &[u64],
    garbage: &mut std::iter::Peekable<impl Iterator<Item = usize>>,
    i: usize,
) -> (u64, u64) {
    let mut in_garbage = 0u64;
    while let Some(o) = garbage.next_if(|&o| o / 64 <= i) {
        in_garbage |= 1 << (o % 64);
    }
    let listed = words.get(i).copied().unwrap_or(0);
    (listed | in_garbage, listed & in_garbage)
}

/// True when two origins of the union are fewer than `room` bytes apart,
/// or one is in both lists: a word at a time, with shifts, so that a
/// sound page costs no loop per record.
fn any_close(words: &[u64], garbage: &[usize], n_words: usize, room: usize) -> bool {
    let mut garbage = garbage.iter().copied().peekable();
    let mut highest: Option<usize> = None;
    for i in 0..n_words {
        let (all, twice) = word_of(words, &mut garbage, i);
        if all == 0 {
            continue;
        }
        let lowest = i * 64 + all.trailing_zeros() as usize;
        let spread = (1..room).fold(0u64, |acc, d| acc | all.checked_shr(d as u32).unwrap_or(0));
        if twice != 0 || all & spread != 0 || highest.is_some_and(|h| lowest < h + room) {
            return true;
        }
        highest = Some(i * 64 + 63 - all.leading_zeros() as usize);
    }
    false
}

/// True the first time a garbage-list walk reaches `at`: a short list is
/// searched, a long one gets a bitset.
fn first_visit(walked: &[usize], seen: &mut Option<Box<Seen<PAGE_WORDS>>>, at: usize) -> bool {
    const SHORT: usize = 32;
    if walked.len() < SHORT {
        return !walked.contains(&at);
    }
    let set = seen.get_or_insert_with(|| {
        let mut set = Box::new(Seen::new());
        walked.iter().for_each(|&o| {
            set.insert(o);
        });
        set
    });
    set.insert(at)
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

    #[inline]
    fn record(&self, origin: usize) -> Result<RecordHeader, String> {
        if self.format == RecordFormat::Compact {
            if let Some(h) = RecordHeader::compact(self.page, origin) {
                return Ok(h);
            }
        }
        self.record_in_full(origin)
    }

    /// A REDUNDANT record's header, or the error of a COMPACT one: out of
    /// the walk's loop.
    #[inline(never)]
    fn record_in_full(&self, origin: usize) -> Result<RecordHeader, String> {
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
        out.origins.reset(usize::from(self.header.heap_top));
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
            if out.origins.contains(origin) {
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
            // `in_heap`: below PAGE_HEAP_TOP, inside the set.
            out.origins.insert(origin);
            out.records.push(h);
            from = origin;
            at = h.next;
        }
    }

    /// Walks the garbage list from `PAGE_FREE`: origins of deleted records.
    pub fn free_list(&self, out: &mut Vec<usize>, problems: &mut Vec<PageProblem>) {
        out.clear();
        let mut seen: Option<Box<Seen<PAGE_WORDS>>> = None;
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
            if !first_visit(out, &mut seen, at) || out.len() >= limit {
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
        self.slots().collect()
    }

    /// The page directory's slots as they are read, first to last; the
    /// slots that do not fit on the page are left out.
    fn slots(&self) -> impl Iterator<Item = usize> + '_ {
        let n = usize::from(self.header.n_dir_slots);
        let len = self.page.len();
        (0..n).map_while(move |i| {
            let at = len.checked_sub(PAGE_DIR + PAGE_DIR_SLOT_SIZE * (i + 1))?;
            u16_at(self.page, at, "PAGE_DIR_SLOT").ok().map(usize::from)
        })
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
        let mut heap_seen = Seen::<HEAP_WORDS>::new();
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
    /// list's origins, marked by the walk, are read back word by word with
    /// the sorted garbage list's merged in, with no sort of the whole; an
    /// origin in both lists is a pair of its own.
    fn check_overlaps(&self, list: &RecordList, free: &[usize], problems: &mut Vec<PageProblem>) {
        let sorted = SortedOrigins::of(free);
        let words = &list.origins.0;
        let n_words = words
            .len()
            .max(sorted.as_slice().last().map_or(0, |&o| o / 64 + 1));
        let room = self.format.extra_bytes() + 1;
        if !any_close(words, sorted.as_slice(), n_words, room) {
            return;
        }
        let mut garbage = sorted.as_slice().iter().copied().peekable();
        let mut previous: Option<usize> = None;
        for i in 0..n_words {
            let (mut all, twice) = word_of(words, &mut garbage, i);
            while all != 0 {
                let bit = all.trailing_zeros();
                all &= all - 1;
                let b = i * 64 + bit as usize;
                let overlap = |a: usize| PageProblem {
                    offset: b,
                    field: "record",
                    message: format!("records at {a} and {b} overlap"),
                };
                if let Some(a) = previous.filter(|&a| b < a + room) {
                    problems.push(overlap(a));
                }
                if twice & (1 << bit) != 0 {
                    problems.push(overlap(b));
                }
                previous = Some(b);
            }
        }
    }

    fn check_directory(&self, list: &RecordList, problems: &mut Vec<PageProblem>) {
        let n_slots = self.slots().count();
        let slot_offset = |i: usize| {
            self.page
                .len()
                .saturating_sub(PAGE_DIR + PAGE_DIR_SLOT_SIZE * (i + 1))
        };
        if n_slots < 2 {
            problems.push(PageProblem {
                offset: PAGE_N_DIR_SLOTS,
                field: "PAGE_N_DIR_SLOTS",
                message: format!("{n_slots} directory slots; a page has at least 2"),
            });
            return;
        }
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
        // Chain positions: infimum 0, user records 1..=n, supremum n+1.
        let chain_len = list.records.len() + 2;
        let chain = |p: usize| match p {
            0 => Some((inf.origin, inf.n_owned)),
            p if p == chain_len - 1 => Some((sup.origin, sup.n_owned)),
            p => list.records.get(p - 1).map(|r| (r.origin, r.n_owned)),
        };
        let mut pos = 0usize; // chain position of the previous slot's owner
        let mut owned_total = 0usize;
        for (i, slot) in self.slots().enumerate() {
            // The origins of the chain are distinct (the list walk stops at
            // a record seen before): the slot's record is looked for after
            // the previous slot's first, where it is in a sound page.
            // Positions `from..to`: the infimum, then the records' slice,
            // then the supremum.
            let at = |from: usize, to: usize| {
                let n = list.records.len();
                let records = list.records.get(from.max(1) - 1..to.clamp(1, n + 1) - 1);
                if from == 0 && to > 0 && inf.origin == slot {
                    Some(0)
                } else if let Some(j) =
                    records.and_then(|rs| rs.iter().position(|r| r.origin == slot))
                {
                    Some(from.max(1) + j)
                } else {
                    (to == n + 2 && from <= n + 1 && sup.origin == slot).then_some(n + 1)
                }
            };
            let Some(p) = at(pos, chain_len).or_else(|| at(0, pos)) else {
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
            let owned = chain(p).map_or(0, |(_, n)| usize::from(n));
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
        if pos != chain_len - 1 {
            problems.push(PageProblem {
                offset: slot_offset(n_slots - 1),
                field: "PAGE_DIR_SLOT",
                message: "the last directory slot does not point at the supremum".into(),
            });
        }
        if owned_total != chain_len {
            problems.push(PageProblem {
                offset: PAGE_N_DIR_SLOTS,
                field: "n_owned",
                message: format!(
                    "n_owned adds up to {owned_total}; the list has {chain_len} records"
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
    fn garbage_origins_sort_on_the_stack_and_beyond() {
        let few: Vec<usize> = (0..64).rev().map(|i| 200 + 7 * i).collect();
        let many: Vec<usize> = (0..65).rev().map(|i| 200 + 7 * i).collect();
        for origins in [&few, &many] {
            let mut expected = origins.clone();
            expected.sort_unstable();
            assert_eq!(SortedOrigins::of(origins).as_slice(), expected.as_slice());
        }
        assert!(
            SortedOrigins::of(&few).many.is_empty(),
            "64 stay on the stack"
        );
        assert_eq!(SortedOrigins::of(&many).many.len(), 65);
        assert!(SortedOrigins::of(&[]).as_slice().is_empty());
    }

    #[test]
    fn a_garbage_walk_finds_a_revisit_short_or_long() {
        let walked: Vec<usize> = (0..40).map(|i| 130 + 10 * i).collect();
        for n in [0, 1, 31, 32, 33, 40] {
            let mut seen = None;
            let head = &walked[..n];
            assert!(first_visit(head, &mut seen, 9000), "{n}: new origin");
            let mut seen = None;
            if let Some(&back) = head.first() {
                assert!(
                    !first_visit(head, &mut seen, back),
                    "{n}: first origin again"
                );
            }
            if let Some(&back) = head.last() {
                let mut seen = None;
                assert!(
                    !first_visit(head, &mut seen, back),
                    "{n}: last origin again"
                );
            }
        }
    }

    #[test]
    fn bits_reset_forgets_and_sizes_to_the_heap() {
        let mut b = Bits::default();
        b.reset(16384);
        assert!(b.insert(16383));
        assert!(!b.insert(16383));
        b.reset(200);
        assert!(!b.contains(16383), "reset forgets");
        assert_eq!(b.0.len(), 4);
        assert!(!b.insert(256), "beyond the set");
        b.reset(1 << 20);
        assert_eq!(b.0.len(), PAGE_WORDS);
    }

    #[test]
    fn close_origins_are_found_within_and_across_words() {
        let set = |origins: &[usize]| {
            let mut b = Bits::default();
            b.reset(1024);
            origins.iter().for_each(|&o| {
                b.insert(o);
            });
            b.0
        };
        let room = 6;
        for (listed, garbage, close) in [
            (vec![130, 136, 300], vec![], false),
            (vec![130, 135, 300], vec![], true),
            (vec![125, 131], vec![], false),
            (vec![125, 130], vec![], true),
            (vec![125, 600], vec![130], true),
            (vec![125, 600], vec![131], false),
            (vec![125, 600], vec![600], true),
            (vec![125], vec![700, 705], true),
        ] {
            let words = set(&listed);
            let n_words = words.len().max(garbage.last().map_or(0, |&o| o / 64 + 1));
            assert_eq!(
                any_close(&words, &garbage, n_words, room),
                close,
                "{listed:?} {garbage:?}"
            );
        }
    }

    #[test]
    fn seen_marks_once() {
        let mut s = Seen::<PAGE_WORDS>::new();
        assert!(s.insert(99));
        assert!(!s.insert(99));
        assert!(s.insert(65535));
        assert!(!s.insert(65536));
    }
}

//! `count`: each index's exact row count (every leaf walked) beside two
//! estimates a DBA meets: InnoDB's kind of sampling (random dives from the
//! root to leaf pages, extrapolated over the leaf level, as the persistent
//! statistics do) and `DATA_LENGTH / AVG_ROW_LENGTH` (the index's reserved
//! bytes over the mean record length).

use crate::reports::indexes::IndexAnalysis;
use crate::reports::space_reports::{header, SpaceFindings, SpaceHeader};
use innodb_format::index::header::IndexHeader;
use innodb_format::index::page::{IndexPage, RecordList};
use innodb_format::index::record::RecordType;
use innodb_space::btree;
use innodb_space::logical_pages::LogicalPages;
use innodb_space::space_map::NoSpaceMap;
use innodb_space::Tablespace;
use serde::Serialize;

/// Leaf pages sampled per index by default (`innodb_stats_persistent_sample_pages`).
pub const DEFAULT_SAMPLE_PAGES: usize = 20;

/// One index's counts.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct IndexCount {
    /// `PAGE_INDEX_ID`.
    pub index_id: u64,
    /// Root page.
    pub root_page: u32,
    /// `table.index` from the dictionary (`--system`), when one was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Leaf records that are not delete-marked: the exact count.
    pub exact_rows: u64,
    /// Delete-marked leaf records (not counted in `exact_rows`).
    pub delete_marked: u64,
    /// Leaf pages.
    pub leaf_pages: u64,
    /// Leaf pages sampled by random dives.
    pub sampled_pages: usize,
    /// Mean records per sampled leaf × leaf pages.
    pub estimated_rows: u64,
    /// (estimated − exact) / exact: the relative error, a fraction (to
    /// four decimals; negative when the estimate is low).
    pub estimate_error: f64,
    /// The index's reserved pages × page size (`DATA_LENGTH` for a clustered index).
    pub data_length: u64,
    /// Mean bytes per record on the sampled leaves, headers included (`AVG_ROW_LENGTH`).
    pub avg_row_length: f64,
    /// `data_length / avg_row_length`.
    pub length_estimate_rows: u64,
    /// (length estimate − exact) / exact: the relative error, a fraction.
    pub length_estimate_error: f64,
}

/// The `count` report.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CountReport {
    /// The file.
    #[serde(flatten)]
    pub header: SpaceHeader,
    /// Leaf pages sampled per index.
    pub sample_pages: usize,
    /// Seed of the random dives (the same seed gives the same samples).
    pub seed: u64,
    /// Per index, in index id order.
    pub indexes: Vec<IndexCount>,
    /// Problems found.
    #[serde(flatten)]
    pub findings: SpaceFindings,
}

/// A small deterministic generator for the dives (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let v = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        if n == 0 {
            0
        } else {
            (v % n as u64) as usize
        }
    }
}

fn relative_error(estimate: u64, exact: u64) -> f64 {
    if exact == 0 {
        0.0
    } else {
        ((estimate as f64 - exact as f64) / exact as f64 * 10000.0).round() / 10000.0
    }
}

impl CountReport {
    /// Counts every index of `space` exactly and by `sample_pages` random
    /// dives per index, seeded with `seed`; an index with no more leaf
    /// pages than that is read whole.
    pub fn build(
        space: &Tablespace,
        sample_pages: usize,
        seed: u64,
    ) -> Result<CountReport, NoSpaceMap> {
        Ok(Self::of(
            space,
            IndexAnalysis::build(space)?,
            sample_pages,
            seed,
        ))
    }

    /// [`CountReport::build`] from the analysis `a` of `space`'s indexes.
    pub fn of(space: &Tablespace, a: IndexAnalysis, sample_pages: usize, seed: u64) -> CountReport {
        // DATA_LENGTH counts pages as stored: a ROW_FORMAT=COMPRESSED page
        // is KEY_BLOCK_SIZE bytes on disk.
        let page_size = space.format().physical_page_size() as u64;
        let mut pages = LogicalPages::new(space);
        let mut rng = Rng(seed.max(1));
        let mut indexes = Vec::new();
        for (stats, walk) in &a.indexes {
            let exact = stats.records;
            let leaf_pages = walk.leaves().len() as u64;
            // An index with no more leaves than the sample is read whole,
            // as InnoDB does (its `sample_size` is then the leaf count):
            // `--sample-pages 4294967295` reads every leaf once.
            let samples: Vec<(u64, u64)> = if walk.leaves().len() <= sample_pages {
                walk.leaves()
                    .iter()
                    .filter_map(|&n| leaf_counts(&mut pages, n))
                    .collect()
            } else {
                (0..sample_pages)
                    .filter_map(|_| dive(&mut pages, stats.root_page, &mut rng))
                    .collect()
            };
            let n = samples.len() as u64;
            let (recs, bytes) = samples.iter().fold((0, 0), |(r, b), s| (r + s.0, b + s.1));
            let estimated = if n == 0 {
                0
            } else {
                (recs as f64 / n as f64 * leaf_pages as f64).round() as u64
            };
            let avg = if recs == 0 {
                0.0
            } else {
                bytes as f64 / recs as f64
            };
            let data_length = stats.size_pages * page_size;
            let length_estimate = if avg > 0.0 {
                (data_length as f64 / avg).round() as u64
            } else {
                0
            };
            indexes.push(IndexCount {
                index_id: stats.index_id,
                root_page: stats.root_page,
                name: stats.name.clone(),
                exact_rows: exact,
                delete_marked: stats.delete_marked,
                leaf_pages,
                sampled_pages: samples.len(),
                estimated_rows: estimated,
                estimate_error: relative_error(estimated, exact),
                data_length,
                avg_row_length: (avg * 100.0).round() / 100.0,
                length_estimate_rows: length_estimate,
                length_estimate_error: relative_error(length_estimate, exact),
            });
        }
        CountReport {
            header: header(space, &a.account.map),
            sample_pages,
            seed,
            indexes,
            findings: SpaceFindings::new(&a.account.findings),
        }
    }
}

/// A leaf page's user records that are not delete-marked and their bytes
/// (`list`: its record list).
fn leaf_sample(page: &IndexPage<'_>, list: &RecordList) -> (u64, u64) {
    let user = list
        .records
        .iter()
        .filter(|r| {
            // Status 4: a row written after a MariaDB instant ADD COLUMN.
            matches!(r.record_type, RecordType::Ordinary | RecordType::Instant)
                && !r.is_min_rec()
                && !r.is_deleted()
        })
        .count() as u64;
    let bytes = page.space().data_bytes as u64;
    let all = list.records.len().max(1) as u64;
    // Bytes of the counted records, in proportion.
    (user, bytes * user / all)
}

/// [`leaf_sample`] of leaf page `n`.
fn leaf_counts(pages: &mut LogicalPages<'_>, n: u32) -> Option<(u64, u64)> {
    let mut buf = Vec::new();
    let mut list = RecordList::default();
    let mut problems = Vec::new();
    pages.read_into(n, &mut buf)?;
    let header = IndexHeader::parse(&buf).ok()?;
    let page = IndexPage::new(&buf, header);
    page.walk(&mut list, &mut problems);
    Some(leaf_sample(&page, &list))
}

/// One random dive from `root` to a leaf: at each level a node pointer
/// chosen at random. Returns the leaf's user records that are not
/// delete-marked and their bytes.
fn dive(pages: &mut LogicalPages<'_>, root: u32, rng: &mut Rng) -> Option<(u64, u64)> {
    let mut buf = Vec::new();
    let mut list = RecordList::default();
    let mut problems = Vec::new();
    let mut free = Vec::new();
    let mut page_no = root;
    for _ in 0..64 {
        pages.read_into(page_no, &mut buf)?;
        let header = IndexHeader::parse(&buf).ok()?;
        let page = IndexPage::new(&buf, header);
        page.walk(&mut list, &mut problems);
        if header.level == 0 {
            return Some(leaf_sample(&page, &list));
        }
        let pointers: Vec<_> = list
            .records
            .iter()
            .filter(|r| r.record_type == RecordType::NodePointer)
            .copied()
            .collect();
        let pick = pointers.get(rng.below(pointers.len()))?;
        page.free_list(&mut free, &mut problems);
        let mut heap = Vec::new();
        list.heap_order(&free, &mut heap);
        page_no = btree::resolve_child(pages, &page, pick, &heap)?;
    }
    None
}

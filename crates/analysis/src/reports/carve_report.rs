//! What `carve` found: the pages of each tablespace (space id and page
//! size), their types, index ids, LSN range, which page numbers were not
//! found, and the tables the space's SDI names.

use crate::reports::dropped_tables::DroppedTables;
use crate::reports::page_ranges::PageRanges;
use innodb_space::carve::{CarveStats, CarvedPage};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// One input that was scanned.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CarvedInput {
    /// The path as given.
    pub path: String,
    /// What the scan read and found.
    #[serde(flatten)]
    pub stats: CarveStats,
}

/// The pages of one tablespace found in the inputs.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CarvedSpace {
    /// `FIL_PAGE_SPACE_ID` of its pages.
    pub space_id: u32,
    /// Their physical page size in bytes.
    pub page_size: u32,
    /// The checksum algorithms that verified them.
    pub checksums: Vec<&'static str>,
    /// Distinct page numbers found.
    pub pages: u64,
    /// Copies found (a page found twice, in two places, counts twice).
    pub copies: u64,
    /// The page numbers found.
    pub found: PageRanges,
    /// `FSP_SIZE` of the newest page 0 found: the size of the space in pages.
    pub size_pages: Option<u32>,
    /// Page numbers below the size (or the last page found) that were not
    /// found: never written (all zero), or gone.
    pub missing: PageRanges,
    /// Pages by type name (newest copy of each page).
    pub page_types: BTreeMap<String, u64>,
    /// The index ids of its index pages (the SDI index is 2^64 − 1).
    pub index_ids: Vec<u64>,
    /// The oldest and newest page LSN.
    pub lsn_min: u64,
    /// The newest page LSN.
    pub lsn_max: u64,
    /// The tables its SDI names (`schema/table`), once the space is rebuilt.
    pub tables: Vec<String>,
    /// Where it was written (`--out`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// A system tablespace (space 0 with `SYS_*` pages): the dropped tables
    /// its dictionary's deleted records remember.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped_tables: Option<DroppedTables>,
    /// What was said while naming or writing it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The newest copy of each page, by page number (what `--out` writes).
    #[serde(skip)]
    pub newest: Vec<CarvedPage>,
}

impl CarvedSpace {
    /// The length of the rebuilt file in bytes: the space size, or up to
    /// the last page found.
    pub fn file_len(&self) -> u64 {
        let last = self.newest.last().map_or(0, |p| u64::from(p.page_no) + 1);
        let size = self.size_pages.map_or(0, u64::from);
        last.max(size) * u64::from(self.page_size)
    }

    /// True when pages of `SYS_TABLES` (index id 1) of space 0 were found:
    /// a MariaDB or MySQL 5.x system tablespace, whose dictionary can name
    /// dropped tables.
    pub fn has_sys_tables(&self) -> bool {
        self.space_id == 0 && self.index_ids.contains(&1)
    }

    /// True when an SDI page (type 17853) was found.
    pub fn has_sdi(&self) -> bool {
        self.page_types.contains_key("SDI")
    }
}

/// Everything `carve` found.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CarveReport {
    /// The inputs, in the order given.
    pub inputs: Vec<CarvedInput>,
    /// The tablespaces found, by space id and page size.
    pub spaces: Vec<CarvedSpace>,
}

impl CarveReport {
    /// Groups `pages` by space id and page size.
    pub fn build(inputs: Vec<CarvedInput>, pages: Vec<CarvedPage>) -> Self {
        let mut groups: HashMap<(u32, u32), Vec<CarvedPage>> = HashMap::new();
        for p in pages {
            groups.entry((p.space_id, p.page_size)).or_default().push(p);
        }
        let mut spaces: Vec<CarvedSpace> = groups.into_values().map(space).collect();
        spaces.sort_by_key(|s| (s.space_id, s.page_size));
        CarveReport { inputs, spaces }
    }
}

/// One group's report: the newest copy of each page wins (ties: the first found).
fn space(mut copies: Vec<CarvedPage>) -> CarvedSpace {
    let n = copies.len() as u64;
    copies.sort_by(|a, b| {
        (a.page_no, b.lsn, a.input, a.offset).cmp(&(b.page_no, a.lsn, b.input, b.offset))
    });
    copies.dedup_by_key(|p| p.page_no);
    let first = copies.first().copied();
    let mut found = PageRanges::new();
    let mut page_types = BTreeMap::new();
    let mut index_ids = BTreeSet::new();
    let mut checksums = BTreeSet::new();
    for p in &copies {
        found.push(p.page_no);
        *page_types
            .entry(p.page_type.name(p.vendor()).into_owned())
            .or_insert(0) += 1;
        index_ids.extend(p.index_id);
        checksums.insert(p.algorithm.name());
    }
    let size_pages = copies.first().and_then(|p| p.fsp_size);
    let mut s = CarvedSpace {
        space_id: first.map_or(0, |p| p.space_id),
        page_size: first.map_or(0, |p| p.page_size),
        checksums: checksums.into_iter().collect(),
        pages: copies.len() as u64,
        copies: n,
        found,
        size_pages,
        missing: PageRanges::new(),
        page_types,
        index_ids: index_ids.into_iter().collect(),
        lsn_min: copies.iter().map(|p| p.lsn).min().unwrap_or(0),
        lsn_max: copies.iter().map(|p| p.lsn).max().unwrap_or(0),
        tables: Vec::new(),
        file: None,
        dropped_tables: None,
        notes: Vec::new(),
        newest: copies,
    };
    s.missing = missing(&s);
    s
}

/// The page numbers below the file's end that no copy was found of.
fn missing(s: &CarvedSpace) -> PageRanges {
    let end = s.file_len() / u64::from(s.page_size.max(1));
    let mut out = PageRanges::new();
    let mut next = 0u64;
    for &(a, b) in s.found.runs() {
        if u64::from(a) > next {
            out.push_run(next as u32, a - 1);
        }
        next = u64::from(b) + 1;
    }
    if end > next {
        out.push_run(next as u32, (end - 1) as u32);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use innodb_format::checksum::ChecksumAlgorithm;
    use innodb_format::fil::page_type::PageType;

    fn page(page_no: u32, lsn: u64, offset: u64) -> CarvedPage {
        CarvedPage {
            input: 0,
            offset,
            page_size: 16384,
            space_id: 7,
            page_no,
            page_type: PageType::INDEX,
            lsn,
            index_id: Some(150),
            fsp_size: None,
            algorithm: ChecksumAlgorithm::Crc32,
            stored: None,
        }
    }

    #[test]
    fn newest_copy_wins_and_gaps_are_missing() {
        let pages = vec![page(1, 10, 0), page(4, 5, 16384), page(1, 30, 65536)];
        let r = CarveReport::build(Vec::new(), pages);
        let s = &r.spaces[0];
        assert_eq!((s.pages, s.copies), (2, 3));
        assert_eq!(s.newest[0].offset, 65536);
        assert_eq!(s.missing.to_string(), "0, 2-3");
        assert_eq!((s.lsn_min, s.lsn_max), (5, 30));
        assert_eq!(s.index_ids, [150]);
    }
}

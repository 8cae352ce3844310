//! A set of page numbers held as runs of consecutive pages: the pages a scan
//! found something on, in memory that grows with the number of runs, not of
//! pages (a zeroed megabyte is one run).

use serde::{Serialize, Serializer};
use std::fmt;

/// Page numbers as ascending runs `[first, last]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageRanges {
    runs: Vec<(u32, u32)>,
    count: u64,
}

impl PageRanges {
    /// No pages.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `page`, which must not be below the last page added (a scan adds
    /// pages in file order); a page below it is added as a run of its own.
    pub fn push(&mut self, page: u32) {
        match self.runs.last_mut() {
            Some((first, last)) if page >= *first && page <= *last => return,
            Some((_, last)) if last.checked_add(1) == Some(page) => *last = page,
            _ => self.runs.push((page, page)),
        }
        self.count += 1;
    }

    /// Adds the run `[first, last]`, which must not start below the last
    /// page added.
    pub fn push_run(&mut self, first: u32, last: u32) {
        if last < first {
            return;
        }
        match self.runs.last_mut() {
            Some((_, l)) if l.checked_add(1) == Some(first) => *l = last,
            _ => self.runs.push((first, last)),
        }
        self.count += u64::from(last - first) + 1;
    }

    /// Adds the pages of `later`, whose pages all follow this set's.
    pub fn append(&mut self, later: PageRanges) {
        for (first, last) in later.runs {
            match self.runs.last_mut() {
                Some((_, l)) if l.checked_add(1) == Some(first) => *l = last,
                _ => self.runs.push((first, last)),
            }
        }
        self.count += later.count;
    }

    /// How many pages.
    pub fn len(&self) -> usize {
        usize::try_from(self.count).unwrap_or(usize::MAX)
    }

    /// True when there are no pages.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The runs, ascending.
    pub fn runs(&self) -> &[(u32, u32)] {
        &self.runs
    }

    /// Every page, ascending.
    pub fn pages(&self) -> impl Iterator<Item = u32> + '_ {
        self.runs.iter().flat_map(|&(a, b)| a..=b)
    }
}

/// `3-7, 9, 12-40`.
impl fmt::Display for PageRanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (a, b)) in self.runs.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if a == b {
                write!(f, "{a}")?;
            } else {
                write!(f, "{a}-{b}")?;
            }
        }
        Ok(())
    }
}

/// A [`PageRanges`] as JSON: one shape however many pages.
#[derive(Serialize, schemars::JsonSchema)]
struct Runs<'a> {
    /// How many pages.
    count: u64,
    /// The runs `[first, last]`, ascending; a single page is `[n, n]`.
    runs: &'a [(u32, u32)],
}

/// Serialised as `{"count": N, "runs": [[first, last], …]}`, whatever the
/// number of pages (one JSON type for a field, always).
impl Serialize for PageRanges {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Runs {
            count: self.count,
            runs: &self.runs,
        }
        .serialize(s)
    }
}

/// The schema of what [`Serialize`] writes.
impl schemars::JsonSchema for PageRanges {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PageRanges".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        Runs::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_count() {
        let mut r = PageRanges::new();
        for p in [3, 4, 5, 6, 7, 9, 12, 13] {
            r.push(p);
        }
        r.push(13);
        assert_eq!(r.len(), 8);
        assert_eq!(r.to_string(), "3-7, 9, 12-13");
        let mut later = PageRanges::new();
        later.push(14);
        later.push(20);
        r.append(later);
        assert_eq!(r.to_string(), "3-7, 9, 12-14, 20");
        assert_eq!(r.len(), 10);
        assert_eq!(
            r.pages().collect::<Vec<_>>(),
            [3, 4, 5, 6, 7, 9, 12, 13, 14, 20]
        );
        assert_eq!(
            serde_json::to_string(&r).ok().as_deref(),
            Some(r#"{"count":10,"runs":[[3,7],[9,9],[12,14],[20,20]]}"#)
        );
    }

    #[test]
    fn long_sets_serialise_as_short_ones() {
        let mut r = PageRanges::new();
        for p in 0..5000 {
            r.push(p * 2);
        }
        let v = serde_json::to_value(&r).unwrap_or_default();
        assert_eq!(v["count"], 5000);
        assert_eq!(v["runs"][1], serde_json::json!([2, 2]));
    }
}

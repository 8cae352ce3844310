//! LSN age: which of ten bands a written page's LSN falls in, on a linear
//! scale (equal slices of the LSN range between the oldest and the newest
//! written page, as in Jeremy Cole's pictures) or a rank scale (equal
//! shares of the written pages), the bands' legend labels, and the
//! histogram of pages by LSN drawn under the map.

use super::{palette, Histogram};
use serde::Serialize;

/// How LSNs are mapped to bands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LsnScale {
    /// Band `b` is the `b`-th tenth of the LSN range from the oldest to the
    /// newest written page: a table whose pages were all written lately is
    /// the newest colour all over.
    #[default]
    Linear,
    /// Band `b` holds the pages whose LSN rank (the share of written pages
    /// with an LSN at most theirs) is in the `b`-th tenth: every band gets
    /// about a tenth of the pages, whatever the LSNs.
    Rank,
}

impl LsnScale {
    /// Name as on the command line and in legends.
    pub fn name(self) -> &'static str {
        match self {
            LsnScale::Linear => "linear",
            LsnScale::Rank => "rank",
        }
    }
}

/// Number of bands.
pub const BANDS: usize = palette::LSN_BANDS.len();

/// Buckets of the LSN histogram under an LSN-age map.
pub const HISTOGRAM_BUCKETS: usize = 64;

/// The band of `lsn` on the linear scale from `lo` to `hi`: the tenth of
/// the range it is in, the newest (`hi`) in the last band. An LSN outside
/// the range is put in the nearest band; a range of one LSN is all newest.
pub fn linear_band(lsn: u64, lo: u64, hi: u64) -> usize {
    let span = hi.saturating_sub(lo);
    if span == 0 {
        return BANDS - 1;
    }
    let off = u128::from(lsn.clamp(lo, hi) - lo);
    let b = off * BANDS as u128 / u128::from(span);
    usize::try_from(b).unwrap_or(BANDS).min(BANDS - 1)
}

/// The first and last LSN of band `b` on the linear scale from `lo` to
/// `hi`; `None` when no LSN falls in it (a range narrower than ten).
pub fn linear_band_range(b: usize, lo: u64, hi: u64) -> Option<(u64, u64)> {
    let span = u128::from(hi.saturating_sub(lo));
    if span == 0 {
        return (b == BANDS - 1).then_some((lo, hi));
    }
    let b128 = b as u128;
    let n = BANDS as u128;
    // The smallest offset o with o * n / span >= b.
    let first = (b128 * span).div_ceil(n);
    let last = if b + 1 >= BANDS {
        span
    } else {
        ((b128 + 1) * span).div_ceil(n).checked_sub(1)?
    };
    (first <= last && b < BANDS).then(|| {
        let at = |o: u128| lo.saturating_add(u64::try_from(o).unwrap_or(u64::MAX));
        (at(first), at(last))
    })
}

/// The bands of a file's written cells.
#[derive(Debug, Clone)]
pub struct Bands {
    scale: LsnScale,
    /// The oldest and newest LSN written.
    pub lo: u64,
    /// The newest LSN written.
    pub hi: u64,
    /// Rank scale: every written LSN, sorted.
    sorted: Vec<u64>,
}

impl Bands {
    /// The bands of the written LSNs `lsns` (zeros are pages never
    /// written and are left out); `None` when none was written.
    pub fn new(scale: LsnScale, lsns: impl Iterator<Item = u64>) -> Option<Bands> {
        let mut sorted: Vec<u64> = lsns.filter(|&l| l != 0).collect();
        sorted.sort_unstable();
        let (&lo, &hi) = (sorted.first()?, sorted.last()?);
        if scale == LsnScale::Linear {
            sorted = Vec::new();
        }
        Some(Bands {
            scale,
            lo,
            hi,
            sorted,
        })
    }

    /// The scale.
    pub fn scale(&self) -> LsnScale {
        self.scale
    }

    /// The band of a written LSN, 0 (oldest) to 9 (newest).
    pub fn band(&self, lsn: u64) -> usize {
        match self.scale {
            LsnScale::Linear => linear_band(lsn, self.lo, self.hi),
            LsnScale::Rank => {
                let at_most = self.sorted.partition_point(|&x| x <= lsn);
                let share = at_most as f64 / self.sorted.len().max(1) as f64;
                ((share * BANDS as f64).ceil() as usize).clamp(1, BANDS) - 1
            }
        }
    }

    /// Each band's LSN range: on the linear scale the slice of the range
    /// (whether pages fall in it or not), on the rank scale the oldest and
    /// newest LSN of its pages (`None` for a band without pages).
    pub fn ranges(&self) -> Vec<Option<(u64, u64)>> {
        match self.scale {
            LsnScale::Linear => (0..BANDS)
                .map(|b| linear_band_range(b, self.lo, self.hi))
                .collect(),
            LsnScale::Rank => {
                let mut r: Vec<Option<(u64, u64)>> = vec![None; BANDS];
                for &l in &self.sorted {
                    if let Some(slot) = r.get_mut(self.band(l)) {
                        *slot = Some(slot.map_or((l, l), |(a, b)| (a.min(l), b.max(l))));
                    }
                }
                r
            }
        }
    }

    /// The legend label of band `b` whose LSNs are `first..last`: the scale,
    /// the band's tenth, its LSN range.
    pub fn label(&self, b: usize, (first, last): (u64, u64)) -> String {
        let (p0, p1) = (b * 100 / BANDS, (b + 1) * 100 / BANDS);
        match self.scale {
            LsnScale::Linear => format!("linear {p0}-{p1}% of the range: LSN {first}..{last}"),
            LsnScale::Rank => format!("rank {p0}-{p1}% of the pages: LSN {first}..{last}"),
        }
    }

    /// The histogram of the written cells (`lsn` the newest LSN of each
    /// cell, `written` its written pages), 64 buckets linear in LSN from the
    /// oldest to the newest; each bar in the colour of the band of the
    /// newest LSN in its bucket (an empty bucket: of its middle LSN), so
    /// that the newest bar has the newest colour on either scale.
    pub fn histogram(&self, lsn: &[u64], written: &[u32]) -> Histogram {
        let (lo, hi) = (self.lo, self.hi);
        let span = u128::from(hi - lo);
        let n = HISTOGRAM_BUCKETS as u128;
        let mut counts = vec![0u64; HISTOGRAM_BUCKETS];
        let mut newest: Vec<Option<u64>> = vec![None; HISTOGRAM_BUCKETS];
        for (&l, &w) in lsn.iter().zip(written) {
            if l == 0 {
                continue;
            }
            let i = if span == 0 {
                HISTOGRAM_BUCKETS - 1
            } else {
                usize::try_from(u128::from(l.clamp(lo, hi) - lo) * n / (span + 1)).unwrap_or(0)
            };
            if let (Some(c), Some(m)) = (counts.get_mut(i), newest.get_mut(i)) {
                *c += u64::from(w);
                *m = Some(m.map_or(l, |m| m.max(l)));
            }
        }
        let colours = (0..n)
            .zip(&newest)
            .map(|(i, m)| {
                let mid = lo + u64::try_from(span * (2 * i + 1) / (2 * n)).unwrap_or(0);
                palette::LSN_BANDS
                    .get(self.band(m.unwrap_or(mid)))
                    .copied()
                    .unwrap_or(palette::NEWEST)
            })
            .collect();
        Histogram {
            title: "pages by LSN, linear from the oldest (left) to the newest (right)".into(),
            low_label: lo.to_string(),
            high_label: hi.to_string(),
            counts,
            colours,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_bands_are_tenths_of_the_lsn_range() {
        // 1000..2000: band b is [1000 + 100 b, 1100 + 100 b), the newest in band 9.
        assert_eq!(linear_band(1000, 1000, 2000), 0);
        assert_eq!(linear_band(1099, 1000, 2000), 0);
        assert_eq!(linear_band(1100, 1000, 2000), 1);
        assert_eq!(linear_band(1550, 1000, 2000), 5);
        assert_eq!(linear_band(1899, 1000, 2000), 8);
        assert_eq!(linear_band(1900, 1000, 2000), 9);
        assert_eq!(linear_band(2000, 1000, 2000), 9);
        // Outside the range, and a range of one LSN.
        assert_eq!(linear_band(5, 1000, 2000), 0);
        assert_eq!(linear_band(u64::MAX, 1000, 2000), 9);
        assert_eq!(linear_band(7, 7, 7), 9);
        // No overflow at the ends of u64.
        assert_eq!(linear_band(u64::MAX, 0, u64::MAX), 9);
        assert_eq!(linear_band(u64::MAX / 2, 0, u64::MAX), 4);
    }

    #[test]
    fn linear_band_ranges_tile_the_range() {
        for (lo, hi) in [(1000, 2000), (0, 9), (5, 5), (3, 1_000_003), (1, 25)] {
            let ranges: Vec<_> = (0..BANDS).map(|b| linear_band_range(b, lo, hi)).collect();
            let mut next = lo;
            for (b, r) in ranges.iter().enumerate() {
                let Some((first, last)) = *r else { continue };
                assert_eq!(first, next, "{lo}..{hi} band {b}");
                assert_eq!(linear_band(first, lo, hi), b, "{lo}..{hi} first of {b}");
                assert_eq!(linear_band(last, lo, hi), b, "{lo}..{hi} last of {b}");
                next = last + 1;
            }
            assert_eq!(next, hi + 1, "{lo}..{hi}: the bands end at the newest");
        }
        assert_eq!(linear_band_range(0, 1000, 2000), Some((1000, 1099)));
        assert_eq!(linear_band_range(9, 1000, 2000), Some((1900, 2000)));
        assert_eq!(linear_band_range(10, 1000, 2000), None);
    }

    #[test]
    fn a_page_band_from_its_lsn_on_each_scale() {
        // Nine old pages and one new one far away in LSN: the linear scale
        // puts the old ones in the oldest band, the rank scale spreads them.
        let lsns = [100, 101, 102, 103, 104, 105, 106, 107, 108, 10_000];
        let linear = Bands::new(LsnScale::Linear, lsns.iter().copied()).unwrap_or_else(|| {
            unreachable!("pages were written");
        });
        let bands: Vec<usize> = lsns.iter().map(|&l| linear.band(l)).collect();
        assert_eq!(bands, [0, 0, 0, 0, 0, 0, 0, 0, 0, 9]);
        let rank = Bands::new(LsnScale::Rank, lsns.iter().copied())
            .unwrap_or_else(|| unreachable!("pages were written"));
        let bands: Vec<usize> = lsns.iter().map(|&l| rank.band(l)).collect();
        assert_eq!(bands, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert!(Bands::new(LsnScale::Linear, [0, 0].into_iter()).is_none());
        let label = linear.label(0, (100, 1089));
        assert_eq!(label, "linear 0-10% of the range: LSN 100..1089");
        assert!(rank.label(9, (10_000, 10_000)).starts_with("rank 90-100%"));
        let h = linear.histogram(&lsns, &[1; 10]);
        assert_eq!(h.counts.iter().sum::<u64>(), 10);
        assert_eq!(h.counts[0], 9);
        assert_eq!(h.counts[63], 1);
        assert_eq!(h.colours[0], palette::OLDEST);
        assert_eq!(h.colours[63], palette::NEWEST);
        // On the rank scale the newest bar holds pages of every band: it
        // is drawn in the newest one's colour.
        let h = rank.histogram(&lsns, &[1; 10]);
        assert_eq!(h.counts[0], 9);
        assert_eq!(h.colours[0], palette::LSN_BANDS[8]);
        assert_eq!(h.colours[63], palette::NEWEST);
    }
}

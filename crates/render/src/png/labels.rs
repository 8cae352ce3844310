//! Labels that never touch: each label is a measured box of bitmap-font
//! text, and a run of labels (the rows of a map, the categories of a bar
//! chart, the ticks of an axis) is thinned to every k-th, k the smallest
//! step at which no two drawn labels come closer than a gap.

use super::text;

/// Space kept between two labels, in pixels.
pub const GAP: i64 = 4;

/// A label placed: the top-left corner of its text and the box it takes
/// (what the tests check for overlaps).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// Left edge.
    pub x: i64,
    /// Top edge.
    pub y: i64,
    /// Width: the text's, in the 8-px font.
    pub w: i64,
    /// Height: a glyph's.
    pub h: i64,
    /// The text.
    pub text: String,
}

impl Placed {
    /// `text` at scale 1 with its top-left corner at (`x`, `y`).
    pub(crate) fn new(x: i64, y: i64, text: impl Into<String>) -> Placed {
        let text = text.into();
        Placed {
            x,
            y,
            w: i64::from(text::width(&text, 1)),
            h: i64::from(text::GLYPH),
            text,
        }
    }

    /// `text` centred on `cx`, top at `y`.
    pub(crate) fn centred(cx: i64, y: i64, text: impl Into<String>) -> Placed {
        let mut p = Placed::new(cx, y, text);
        p.x -= p.w / 2;
        p
    }

    /// `text` ending at `right` (exclusive), top at `y`.
    pub(crate) fn right_aligned(right: i64, y: i64, text: impl Into<String>) -> Placed {
        let mut p = Placed::new(right, y, text);
        p.x -= p.w;
        p
    }

    /// True when the boxes of `self` and `other` are less than `gap` apart
    /// (or overlap). Empty labels clash with nothing.
    pub(crate) fn clashes(&self, other: &Placed, gap: i64) -> bool {
        if self.text.is_empty() || other.text.is_empty() {
            return false;
        }
        self.x < other.x + other.w + gap
            && other.x < self.x + self.w + gap
            && self.y < other.y + other.h + gap
            && other.y < self.y + self.h + gap
    }
}

/// The first two labels of `labels` that clash, if any (every pair is
/// looked at).
pub fn first_clash(labels: &[Placed], gap: i64) -> Option<(usize, usize)> {
    labels.iter().enumerate().find_map(|(i, a)| {
        labels
            .iter()
            .enumerate()
            .skip(i + 1)
            .find(|(_, b)| a.clashes(b, gap))
            .map(|(j, _)| (i, j))
    })
}

/// The step at which to draw `n` labels laid out along one line in order:
/// the smallest k (a power of two when `pow2`) such that no label `i`
/// clashes with label `i + k` for the labels drawn (0, k, 2k, …); `n` when
/// none does (only the first is drawn).
pub(crate) fn step(n: usize, pow2: bool, clash: impl Fn(usize, usize) -> bool) -> usize {
    let fits = |k: usize| (0..n).step_by(k).all(|i| i + k >= n || !clash(i, i + k));
    let mut k = 1;
    while k < n {
        if fits(k) {
            return k;
        }
        k = if pow2 { k * 2 } else { k + 1 };
    }
    n.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_clash_when_closer_than_the_gap() {
        let a = Placed::new(0, 0, "abc"); // 0..24 × 0..8
        assert!(a.clashes(&Placed::new(27, 0, "x"), GAP));
        assert!(!a.clashes(&Placed::new(28, 0, "x"), GAP));
        assert!(!a.clashes(&Placed::new(0, 12, "x"), GAP));
        assert!(a.clashes(&Placed::new(0, 11, "x"), GAP));
        assert!(!a.clashes(&Placed::new(0, 0, ""), GAP));
        assert_eq!(Placed::centred(50, 0, "abcd").x, 34);
        assert_eq!(Placed::right_aligned(50, 0, "ab").x, 34);
        let row = [a.clone(), Placed::new(40, 0, "d"), Placed::new(20, 0, "e")];
        assert_eq!(first_clash(&row, GAP), Some((0, 2)));
        assert_eq!(first_clash(&row[..2], GAP), None);
    }

    #[test]
    fn steps_thin_labels_until_none_clash() {
        // Labels 24 px wide every 20 px: every other one clashes no more.
        let at = |i: usize| Placed::new(i as i64 * 20, 0, "abc");
        let k = step(10, false, |i, j| at(i).clashes(&at(j), GAP));
        assert_eq!(k, 2);
        // Rows 4 px apart, 8-px labels: every 4th row (16 px) as a power of two.
        let row = |i: usize| Placed::new(0, i as i64 * 4, "12");
        assert_eq!(step(100, true, |i, j| row(i).clashes(&row(j), GAP)), 4);
        assert_eq!(step(100, false, |i, j| row(i).clashes(&row(j), GAP)), 3);
        assert_eq!(step(0, false, |_, _| true), 1);
        assert_eq!(step(3, false, |_, _| true), 3);
    }
}

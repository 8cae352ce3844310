//! Text in the embedded 8×8 bitmap font (font8x8's basic Latin table):
//! every character is a cell of 8 × 8 pixels times the scale; characters
//! outside ASCII are drawn as `?`.

use super::{fill_rect, Canvas};
use font8x8::legacy::BASIC_LEGACY;
use image::RgbImage;
use innodb_analysis::pictures::Rgb;

/// Side of a glyph at scale 1, in pixels.
pub(crate) const GLYPH: u32 = 8;

/// The rows of `c`'s glyph, bit 0 of each being its leftmost pixel.
pub(crate) fn glyph(c: char) -> [u8; 8] {
    let c = if c.is_ascii() { c } else { '?' };
    BASIC_LEGACY.get(c as usize).copied().unwrap_or([0; 8])
}

/// Width of `s` drawn at `scale`, in pixels.
pub(crate) fn width(s: &str, scale: u32) -> u32 {
    let n = u32::try_from(s.chars().count()).unwrap_or(u32::MAX);
    n.saturating_mul(GLYPH).saturating_mul(scale)
}

/// Draws `s` with its top-left corner at (`x`, `y`), `scale` pixels per font
/// pixel, clipped to the image.
pub(crate) fn draw(img: &mut RgbImage, x: i64, y: i64, s: &str, scale: u32, colour: Rgb) {
    let scale = i64::from(scale.max(1));
    let step = i64::from(GLYPH) * scale;
    let right = i64::from(img.width());
    let mut gx = x;
    for c in s.chars() {
        if gx >= right {
            break;
        }
        if gx + step > 0 {
            for (row, bits) in (0i64..).zip(glyph(c)) {
                for col in 0..8i64 {
                    if (bits >> col) & 1 == 1 {
                        fill_rect(img, gx + col * scale, y + row * scale, scale, scale, colour);
                    }
                }
            }
        }
        gx = gx.saturating_add(step);
    }
}

/// Draws `s` at scale 1 so that it ends at `right` (exclusive).
pub(crate) fn draw_right(c: &mut dyn Canvas, right: i64, y: i64, s: &str, colour: Rgb) {
    c.text(right - i64::from(width(s, 1)), y, s, 1, colour);
}

/// `s` in lines of at most `chars` characters, broken between words (a
/// word longer than a line is cut across lines); no line is empty unless
/// `s` is.
pub(crate) fn wrap(s: &str, chars: usize) -> Vec<String> {
    let chars = chars.max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        let len = line.chars().count();
        if len > 0 && len + 1 + word.len() <= chars {
            line.push(' ');
            line.extend(word.iter());
            continue;
        }
        if len > 0 {
            lines.push(std::mem::take(&mut line));
        }
        while word.len() > chars {
            let rest = word.split_off(chars);
            lines.push(word.iter().collect());
            word = rest;
        }
        line.extend(word.iter());
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// `s` cut to at most `chars` characters, a cut one ending in `~`.
pub(crate) fn fit(s: &str, chars: usize) -> String {
    if s.chars().count() <= chars {
        return s.to_string();
    }
    if chars == 0 {
        return String::new();
    }
    let mut out: String = s.chars().take(chars - 1).collect();
    out.push('~');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::png::{canvas, px, tests::count, BACKGROUND, INK};

    /// Checks that the pixels of glyph `g` drawn at (`x`, `y`) at `scale`
    /// are ink exactly where its bits are set.
    fn assert_glyph(img: &RgbImage, x: u32, y: u32, g: [u8; 8], scale: u32) {
        for (row, bits) in (0u32..).zip(g) {
            for col in 0..8u32 {
                let want = if (bits >> col) & 1 == 1 {
                    INK
                } else {
                    BACKGROUND
                };
                for dy in 0..scale {
                    for dx in 0..scale {
                        let p = img.get_pixel(x + col * scale + dx, y + row * scale + dy);
                        assert_eq!(*p, px(want), "glyph pixel {col},{row}");
                    }
                }
            }
        }
    }

    #[test]
    fn glyphs_are_drawn_where_their_bits_are() {
        let mut img = canvas(40, 20);
        draw(&mut img, 2, 3, "Ab", 1, INK);
        assert_glyph(&img, 2, 3, glyph('A'), 1);
        assert_glyph(&img, 10, 3, glyph('b'), 1);
        let set: u32 = glyph('A')
            .iter()
            .chain(glyph('b').iter())
            .map(|b| b.count_ones())
            .sum();
        assert!(set > 10);
        assert_eq!(count(&img, INK), set as usize);
    }

    #[test]
    fn scaled_and_non_ascii() {
        let mut img = canvas(40, 20);
        draw(&mut img, 0, 0, "é", 2, INK);
        assert_eq!(glyph('é'), glyph('?'));
        assert_glyph(&img, 0, 0, glyph('?'), 2);
        assert_eq!(width("é1", 2), 32);
        assert_eq!(width("abc", 1), 24);
    }

    #[test]
    fn clipped_text_does_not_panic() {
        let mut img = canvas(10, 10);
        draw(&mut img, -20, -3, "hello world", 3, INK);
        draw(&mut img, 5, 5, "hello world", 1, INK);
        draw_right(&mut img, 0, 0, "left of the image", INK);
        draw(&mut img, i64::MAX - 3, 0, "x", 1, INK);
        assert!(count(&img, INK) > 0);
    }

    #[test]
    fn wrap_breaks_between_words() {
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrap("abcdefghij k", 4), ["abcd", "efgh", "ij k"]);
        assert_eq!(wrap("", 4), [""]);
        assert_eq!(wrap("  two   spaces ", 20), ["two spaces"]);
        assert_eq!(wrap("x", 0), ["x"]);
        for line in wrap(&"word ".repeat(100), 17) {
            assert!(line.chars().count() <= 17 && !line.is_empty());
        }
    }

    #[test]
    fn fit_cuts_with_a_tilde() {
        assert_eq!(fit("abcdef", 10), "abcdef");
        assert_eq!(fit("abcdef", 4), "abc~");
        assert_eq!(fit("abcdef", 1), "~");
        assert_eq!(fit("abcdef", 0), "");
    }
}

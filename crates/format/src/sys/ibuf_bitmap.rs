//! Change buffer bitmap pages (`FIL_PAGE_IBUF_BITMAP` = 5, `ibuf0ibuf.cc`):
//! page 1 of every tablespace and every page at a multiple of the physical
//! page size plus 1. From `IBUF_BITMAP` (= `PAGE_DATA`, 94) on, 4 bits per
//! page of the `physical page size` pages starting at the bitmap page's
//! multiple, least significant first: `IBUF_BITMAP_FREE` (2 bits, a free
//! space class, the first bit the high one), `IBUF_BITMAP_BUFFERED` (changes
//! for the page wait in the change buffer), `IBUF_BITMAP_IBUF` (the page
//! belongs to the change buffer). The server keeps the free-space bits
//! lazily: class 0 does not mean the page is full.

use crate::bytes::u8_at;
use crate::context::PageContext;
use crate::field::{Field, Pointer};
use crate::section::Body;
use crate::FormatError;

/// Absolute offset of the bitmap (`IBUF_BITMAP` = `PAGE_DATA`).
pub const IBUF_BITMAP: usize = 94;
/// Bit of the free space class, within a page's bits (`IBUF_BITMAP_FREE`, 2 bits).
pub const IBUF_BITMAP_FREE: usize = 0;
/// Bit set when changes for the page are buffered (`IBUF_BITMAP_BUFFERED`).
pub const IBUF_BITMAP_BUFFERED: usize = 2;
/// Bit set when the page belongs to the change buffer (`IBUF_BITMAP_IBUF`).
pub const IBUF_BITMAP_IBUF: usize = 3;
/// Bits per page (`IBUF_BITS_PER_PAGE`).
pub const IBUF_BITS_PER_PAGE: usize = 4;

/// The bits the bitmap keeps for one page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IbufBits {
    /// `IBUF_BITMAP_FREE`: 0 to 3; at least `class × page size / 32`
    /// bytes free, class 3 at least `page size / 8`.
    pub free: u8,
    /// `IBUF_BITMAP_BUFFERED`.
    pub buffered: bool,
    /// `IBUF_BITMAP_IBUF`.
    pub ibuf: bool,
}

impl IbufBits {
    /// The 4 bits as the byte holds them (free's high bit first).
    pub fn raw(&self) -> u8 {
        ((self.free >> 1) & 1)
            | ((self.free & 1) << 1)
            | (u8::from(self.buffered) << IBUF_BITMAP_BUFFERED)
            | (u8::from(self.ibuf) << IBUF_BITMAP_IBUF)
    }

    /// True when no bit is set.
    pub fn is_zero(&self) -> bool {
        self.free == 0 && !self.buffered && !self.ibuf
    }

    /// The bits in words, for a page size of `page_size` bytes.
    pub fn describe(&self, page_size: usize) -> String {
        let mut out = Vec::new();
        if self.free != 0 {
            let bytes = if self.free == 3 {
                4
            } else {
                usize::from(self.free)
            } * page_size
                / 32;
            out.push(format!("free class {} (≥ {bytes} bytes free)", self.free));
        }
        if self.buffered {
            out.push("buffered changes".to_string());
        }
        if self.ibuf {
            out.push("change buffer page".to_string());
        }
        if out.is_empty() {
            "no bits set".to_string()
        } else {
            out.join(", ")
        }
    }
}

/// Where page `i` (its position in the bitmap's range) has its bits: the
/// byte and the bit within it.
fn bit_position(i: usize) -> (usize, usize) {
    let bit = i * IBUF_BITS_PER_PAGE;
    (IBUF_BITMAP + bit / 8, bit % 8)
}

/// The bits of page `i` of the bitmap's range (the page `i` pages after the
/// multiple of the physical page size the bitmap page follows).
pub fn bits(page: &[u8], i: usize) -> Result<IbufBits, FormatError> {
    let (byte, shift) = bit_position(i);
    let b = u8_at(page, byte, "IBUF_BITMAP")? >> shift;
    Ok(IbufBits {
        free: ((b >> IBUF_BITMAP_FREE) & 1) << 1 | (b >> (IBUF_BITMAP_FREE + 1)) & 1,
        buffered: (b >> IBUF_BITMAP_BUFFERED) & 1 == 1,
        ibuf: (b >> IBUF_BITMAP_IBUF) & 1 == 1,
    })
}

/// The bitmap, summarised: one field for the whole bitmap (pages with any
/// bit set, by kind), then one field per run of consecutive pages whose
/// bits are set and equal, pointing at the run's first page.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    let n = ctx.physical_page_size;
    let first_page = ctx.page_no.saturating_sub(1);
    let mut all = Vec::with_capacity(n);
    for i in 0..n {
        match bits(page, i) {
            Ok(b) => all.push(b),
            Err(e) => {
                body.problems.push(e);
                break;
            }
        }
    }
    let set = all.iter().filter(|b| !b.is_zero()).count();
    let count = |f: &dyn Fn(&IbufBits) -> bool| all.iter().filter(|b| f(b)).count();
    let mut fields = vec![Field::with_meaning(
        IBUF_BITMAP,
        n * IBUF_BITS_PER_PAGE / 8,
        "IBUF_BITMAP",
        set as u64,
        format!(
            "{set} of the {n} pages {first_page}..{} have bits set: free class 1 {}, 2 {}, 3 {}; buffered {}; change buffer {}",
            u64::from(first_page) + n as u64 - 1,
            count(&|b| b.free == 1),
            count(&|b| b.free == 2),
            count(&|b| b.free == 3),
            count(&|b| b.buffered),
            count(&|b| b.ibuf),
        ),
    )];
    let mut i = 0;
    while let Some(b) = all.get(i) {
        let start = i;
        while all.get(i + 1) == Some(b) {
            i += 1;
        }
        if !b.is_zero() {
            let (from, _) = bit_position(start);
            let (to, _) = bit_position(i);
            let p = first_page.saturating_add(start as u32);
            let q = first_page.saturating_add(i as u32);
            let pages = if p == q {
                format!("page {p}")
            } else {
                format!("pages {p}..{q}")
            };
            fields.push(
                Field::with_meaning(
                    from,
                    to - from + 1,
                    "IBUF_BITMAP",
                    b.raw().into(),
                    format!("{pages}: {}", b.describe(ctx.logical_page_size)),
                )
                .pointing(Some(Pointer::Page(p))),
            );
        }
        i += 1;
    }
    body.push(
        format!(
            "change buffer bitmap: pages {first_page}..{}",
            u64::from(first_page) + n as u64 - 1
        ),
        fields,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_read_least_significant_first() {
        let mut p = vec![0u8; 1024];
        // Page 0: free bits 1,0 (class 2); page 1: buffered and ibuf.
        p[IBUF_BITMAP] = 0b1100_0001;
        let b0 = bits(&p, 0).unwrap();
        assert_eq!((b0.free, b0.buffered, b0.ibuf), (2, false, false));
        assert_eq!(b0.raw(), 0b0001);
        let b1 = bits(&p, 1).unwrap();
        assert_eq!((b1.free, b1.buffered, b1.ibuf), (0, true, true));
        assert_eq!(b1.raw(), 0b1100);
        assert!(bits(&p, 2).unwrap().is_zero());
        let ctx = PageContext {
            page_no: 1,
            physical_page_size: 1024,
            logical_page_size: 1024,
            ..PageContext::default()
        };
        let mut body = Body::default();
        sections(&p, &ctx, &mut body);
        let f = &body.sections[0].fields;
        assert_eq!(f.len(), 3);
        assert_eq!(f[0].value, 2);
        assert_eq!(
            f[1].meaning.as_deref(),
            Some("page 0: free class 2 (≥ 64 bytes free)")
        );
        assert_eq!(f[2].pointer, Some(Pointer::Page(1)));
        assert!(bits(&p, 2000).is_err());
    }
}

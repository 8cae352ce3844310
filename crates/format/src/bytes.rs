//! Bounds-checked big-endian reads over a byte slice.
//!
//! Every read names the field it reads so that an out-of-bounds access becomes
//! a [`FormatError::OutOfBounds`] saying what was being read and where.

use crate::FormatError;

/// Returns `len` bytes at `offset`, or an error naming `field`.
#[inline]
pub fn slice<'a>(
    buf: &'a [u8],
    offset: usize,
    len: usize,
    field: &'static str,
) -> Result<&'a [u8], FormatError> {
    offset
        .checked_add(len)
        .and_then(|end| buf.get(offset..end))
        .ok_or(FormatError::OutOfBounds {
            field,
            offset,
            len,
            available: buf.len(),
        })
}

/// Returns `len` writable bytes at `offset`, or an error naming `field`.
#[inline]
pub fn slice_mut<'a>(
    buf: &'a mut [u8],
    offset: usize,
    len: usize,
    field: &'static str,
) -> Result<&'a mut [u8], FormatError> {
    let available = buf.len();
    offset
        .checked_add(len)
        .and_then(|end| buf.get_mut(offset..end))
        .ok_or(FormatError::OutOfBounds {
            field,
            offset,
            len,
            available,
        })
}

/// Copies `src` into `buf` at `offset`, or fails naming `field` (writing nothing).
#[inline]
pub fn write_at(
    buf: &mut [u8],
    offset: usize,
    src: &[u8],
    field: &'static str,
) -> Result<(), FormatError> {
    slice_mut(buf, offset, src.len(), field)?.copy_from_slice(src);
    Ok(())
}

#[inline]
fn array<const N: usize>(
    buf: &[u8],
    offset: usize,
    field: &'static str,
) -> Result<[u8; N], FormatError> {
    let s = slice(buf, offset, N, field)?;
    let mut out = [0u8; N];
    out.copy_from_slice(s);
    Ok(out)
}

/// Reads one byte.
#[inline]
pub fn u8_at(buf: &[u8], offset: usize, field: &'static str) -> Result<u8, FormatError> {
    let [b] = array::<1>(buf, offset, field)?;
    Ok(b)
}

/// Reads a big-endian `u16`.
#[inline]
pub fn u16_at(buf: &[u8], offset: usize, field: &'static str) -> Result<u16, FormatError> {
    Ok(u16::from_be_bytes(array(buf, offset, field)?))
}

/// Reads a big-endian `u32`.
#[inline]
pub fn u32_at(buf: &[u8], offset: usize, field: &'static str) -> Result<u32, FormatError> {
    Ok(u32::from_be_bytes(array(buf, offset, field)?))
}

/// Reads a big-endian 48-bit integer (transaction ids, row ids).
#[inline]
pub fn u48_at(buf: &[u8], offset: usize, field: &'static str) -> Result<u64, FormatError> {
    let b: [u8; 6] = array(buf, offset, field)?;
    Ok(b.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x)))
}

/// Reads a big-endian 56-bit integer (roll pointers).
#[inline]
pub fn u56_at(buf: &[u8], offset: usize, field: &'static str) -> Result<u64, FormatError> {
    let b: [u8; 7] = array(buf, offset, field)?;
    Ok(b.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x)))
}

/// Reads a big-endian `u64`.
#[inline]
pub fn u64_at(buf: &[u8], offset: usize, field: &'static str) -> Result<u64, FormatError> {
    Ok(u64::from_be_bytes(array(buf, offset, field)?))
}

/// Reads a little-endian `u16` (the `.frm` file's byte order, `uint2korr`).
#[inline]
pub fn u16_le_at(buf: &[u8], offset: usize, field: &'static str) -> Result<u16, FormatError> {
    Ok(u16::from_le_bytes(array(buf, offset, field)?))
}

/// Reads a little-endian 24-bit integer (`uint3korr`).
#[inline]
pub fn u24_le_at(buf: &[u8], offset: usize, field: &'static str) -> Result<u32, FormatError> {
    let [a, b, c]: [u8; 3] = array(buf, offset, field)?;
    Ok(u32::from_le_bytes([a, b, c, 0]))
}

/// Reads a little-endian `u32` (`uint4korr`).
#[inline]
pub fn u32_le_at(buf: &[u8], offset: usize, field: &'static str) -> Result<u32, FormatError> {
    Ok(u32::from_le_bytes(array(buf, offset, field)?))
}

/// True when every byte of `buf` is zero.
#[inline]
pub fn is_all_zero(buf: &[u8]) -> bool {
    // Compare in 8-byte words: this runs on every page of a scan.
    let (words, rest) = buf.as_chunks::<8>();
    words.iter().all(|w| u64::from_ne_bytes(*w) == 0) && rest.iter().all(|&b| b == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_big_endian() {
        let b = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08];
        assert_eq!(u16_at(&b, 0, "x"), Ok(0x0102));
        assert_eq!(u32_at(&b, 4, "x"), Ok(0x0506_0708));
        assert_eq!(u48_at(&b, 2, "x"), Ok(0x0304_0506_0708));
        assert_eq!(u56_at(&b, 1, "x"), Ok(0x02_0304_0506_0708));
        assert_eq!(u64_at(&b, 0, "x"), Ok(0x0102_0304_0506_0708));
    }

    #[test]
    fn out_of_bounds_names_field() {
        let b = [0u8; 4];
        let err = u32_at(&b, 2, "FIL_PAGE_OFFSET").unwrap_err();
        assert_eq!(
            err,
            FormatError::OutOfBounds {
                field: "FIL_PAGE_OFFSET",
                offset: 2,
                len: 4,
                available: 4
            }
        );
        assert!(slice(&b, usize::MAX, 2, "x").is_err());
    }

    #[test]
    fn zero_detection() {
        assert!(is_all_zero(&[0u8; 19]));
        let mut b = [0u8; 19];
        b[18] = 1;
        assert!(!is_all_zero(&b));
        b[18] = 0;
        b[3] = 1;
        assert!(!is_all_zero(&b));
    }
}

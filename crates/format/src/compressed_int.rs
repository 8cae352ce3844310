//! InnoDB's variable-length integers (`mach0data.h`), as undo records and
//! redo use them: `mach_read_compressed` (1–5 bytes for 32 bits),
//! `mach_u64_read_compressed` (a compressed high word, then 4 bytes) and
//! `mach_u64_read_much_compressed` (0xFF, then two compressed words; or one).

use crate::FormatError;

fn short(b: &[u8], field: &'static str, offset: usize) -> FormatError {
    FormatError::OutOfBounds {
        field,
        offset,
        len: 1,
        available: b.len().saturating_sub(offset),
    }
}

/// A `mach_read_compressed` integer at `at`: its value and its length.
///
/// First byte `< 0x80`: 1 byte; `< 0xC0`: 2 bytes, 14 bits; `< 0xE0`: 3
/// bytes, 21 bits; `< 0xF0`: 4 bytes, 28 bits; else a marker byte and 4 bytes.
pub fn read_compressed(
    b: &[u8],
    at: usize,
    field: &'static str,
) -> Result<(u32, usize), FormatError> {
    let first = *b.get(at).ok_or_else(|| short(b, field, at))?;
    let n = match first {
        0x00..=0x7F => 1,
        0x80..=0xBF => 2,
        0xC0..=0xDF => 3,
        0xE0..=0xEF => 4,
        _ => 5,
    };
    let bytes = b.get(at..at + n).ok_or_else(|| short(b, field, at))?;
    let be = |s: &[u8]| s.iter().fold(0u32, |a, &x| (a << 8) | u32::from(x));
    let v = match n {
        1 => u32::from(first),
        2 => be(bytes) & 0x3FFF,
        3 => be(bytes) & 0x1F_FFFF,
        4 => be(bytes) & 0x0FFF_FFFF,
        _ => be(bytes.get(1..).unwrap_or_default()),
    };
    Ok((v, n))
}

/// A `mach_u64_read_compressed` integer: a compressed high 32 bits, then
/// the low 32 bits in 4 bytes.
pub fn read_u64_compressed(
    b: &[u8],
    at: usize,
    field: &'static str,
) -> Result<(u64, usize), FormatError> {
    let (high, n) = read_compressed(b, at, field)?;
    let low = crate::bytes::u32_at(b, at + n, field)?;
    Ok(((u64::from(high) << 32) | u64::from(low), n + 4))
}

/// A `mach_u64_read_much_compressed` integer: one compressed word, or
/// 0xFF followed by the compressed high and low words.
pub fn read_u64_much_compressed(
    b: &[u8],
    at: usize,
    field: &'static str,
) -> Result<(u64, usize), FormatError> {
    if *b.get(at).ok_or_else(|| short(b, field, at))? != 0xFF {
        let (v, n) = read_compressed(b, at, field)?;
        return Ok((u64::from(v), n));
    }
    let (high, n1) = read_compressed(b, at + 1, field)?;
    let (low, n2) = read_compressed(b, at + 1 + n1, field)?;
    Ok(((u64::from(high) << 32) | u64::from(low), 1 + n1 + n2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_length() {
        assert_eq!(read_compressed(&[0x7F], 0, "x").unwrap(), (0x7F, 1));
        assert_eq!(read_compressed(&[0x81, 0x02], 0, "x").unwrap(), (0x102, 2));
        assert_eq!(
            read_compressed(&[0xC1, 0x02, 0x03], 0, "x").unwrap(),
            (0x10203, 3)
        );
        assert_eq!(
            read_compressed(&[0xE1, 2, 3, 4], 0, "x").unwrap(),
            (0x1020304, 4)
        );
        assert_eq!(
            read_compressed(&[0xF0, 1, 2, 3, 4], 0, "x").unwrap(),
            (0x01020304, 5)
        );
        assert!(read_compressed(&[0xC1, 0x02], 0, "x").is_err());
        assert_eq!(
            read_u64_compressed(&[0x01, 0, 0, 0, 5], 0, "x").unwrap(),
            ((1 << 32) | 5, 5)
        );
        assert_eq!(read_u64_much_compressed(&[0x05], 0, "x").unwrap(), (5, 1));
        assert_eq!(
            read_u64_much_compressed(&[0xFF, 0x01, 0x05], 0, "x").unwrap(),
            ((1 << 32) | 5, 3)
        );
    }
}

//! DECIMAL in MySQL's binary form (`decimal2bin` in `strings/decimal.cc`),
//! the stored form of a `DECIMAL` column and of a DECIMAL inside binary
//! JSON. Its own file so that column values and binary JSON both use it
//! without depending on each other.

/// Bytes of a group of `digits` (at most 9) leftover digits (`dig2bytes`).
fn dig2bytes(digits: usize) -> usize {
    match digits {
        0 => 0,
        1 | 2 => 1,
        3 | 4 => 2,
        5 | 6 => 3,
        _ => 4,
    }
}

/// Bytes of a DECIMAL(`precision`, `scale`) in binary form
/// (`decimal_bin_size`): 4 for each group of 9 digits and 1–4 for the
/// leftover ones, of the integer part and of the fraction. A scale above
/// the precision counts no integer digits.
pub fn decimal_bin_size(precision: usize, scale: usize) -> usize {
    let intg = precision.saturating_sub(scale);
    intg / 9 * 4 + dig2bytes(intg % 9) + scale / 9 * 4 + dig2bytes(scale % 9)
}

/// A DECIMAL(`precision`, `scale`) in MySQL's binary form (`decimal2bin`):
/// groups of 9 digits in 4 bytes, leftover digits in 1–4 bytes, the sign
/// in the first bit, negative numbers stored inverted.
pub fn decode_decimal(b: &[u8], precision: usize, scale: usize) -> Option<String> {
    let intg = precision.checked_sub(scale)?;
    let (intg0, intg0x) = (intg / 9, intg % 9);
    let (frac0, frac0x) = (scale / 9, scale % 9);
    let size = decimal_bin_size(precision, scale);
    if b.len() != size {
        return None;
    }
    let mut buf = b.to_vec();
    let first = buf.first_mut()?;
    let negative = *first & 0x80 == 0;
    *first ^= 0x80;
    if negative {
        for x in &mut buf {
            *x = !*x;
        }
    }
    // The groups add up to `size`, the length of `buf`.
    let mut rest: &[u8] = &buf;
    let mut take = |n: usize| -> u64 {
        let (group, after) = rest.split_at_checked(n).unwrap_or((rest, &[]));
        rest = after;
        be(group)
    };
    let mut int = String::new();
    if intg0x > 0 {
        int.push_str(&take(dig2bytes(intg0x)).to_string());
    }
    for _ in 0..intg0 {
        let v = take(4);
        if int.is_empty() {
            int.push_str(&v.to_string());
        } else {
            int.push_str(&format!("{v:09}"));
        }
    }
    let int = int.trim_start_matches('0');
    let mut frac = String::new();
    for _ in 0..frac0 {
        frac.push_str(&format!("{:09}", take(4)));
    }
    if frac0x > 0 {
        frac.push_str(&format!("{:0w$}", take(dig2bytes(frac0x)), w = frac0x));
    }
    let int = if int.is_empty() { "0" } else { int };
    let sign = if negative { "-" } else { "" };
    Some(if scale > 0 {
        format!("{sign}{int}.{frac}")
    } else {
        format!("{sign}{int}")
    })
}

/// The big-endian unsigned integer in `b` (at most 8 bytes are meaningful).
fn be(b: &[u8]) -> u64 {
    b.iter().fold(0u64, |a, &x| (a << 8) | u64::from(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        // DECIMAL(20,6): 14 integer digits in 4 + 3 bytes, 6 fraction
        // digits in 3; DECIMAL(65,30): 35 in 3*4 + 4, 30 in 3*4 + 2.
        assert_eq!(decimal_bin_size(20, 6), 10);
        assert_eq!(decimal_bin_size(65, 30), 30);
        assert_eq!(decimal_bin_size(4, 2), 2);
        assert_eq!(decimal_bin_size(10, 0), 5);
        assert_eq!(decimal_bin_size(9, 9), 4);
        assert_eq!(decimal_bin_size(0, 0), 0);
        assert_eq!(decimal_bin_size(2, 5), 3);
    }

    #[test]
    fn decimals() {
        // DECIMAL(4,2) 2.99 and -1.50, as MySQL stores them.
        assert_eq!(decode_decimal(&[0x82, 0x63], 4, 2).as_deref(), Some("2.99"));
        assert_eq!(
            decode_decimal(&[0x7e, 0xcd], 4, 2).as_deref(),
            Some("-1.50")
        );
        // DECIMAL(20,6) -1839506.156249 from the t_types fixture's first row.
        assert_eq!(
            decode_decimal(
                &[0x7F, 0xFF, 0xFF, 0xFF, 0xE3, 0xEE, 0x6D, 0xFD, 0x9D, 0xA6],
                20,
                6
            )
            .as_deref(),
            Some("-1839506.156249")
        );
    }
}

//! The legacy `innodb` checksum's fold function (`ut_fold_binary`).

const UT_HASH_RANDOM_MASK: u32 = 1_463_735_687;
const UT_HASH_RANDOM_MASK2: u32 = 1_653_893_711;

/// `ut_fold_ulint_pair`, on the low 32 bits (the server masks its 64-bit
/// result to 32 bits, and no operation carries information downwards).
#[inline]
fn fold_pair(n1: u32, n2: u32) -> u32 {
    ((((n1 ^ n2 ^ UT_HASH_RANDOM_MASK2) << 8).wrapping_add(n1)) ^ UT_HASH_RANDOM_MASK)
        .wrapping_add(n2)
}

/// `ut_fold_binary`: folds every byte of `bytes` into a 32-bit value.
pub fn fold_binary(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(0u32, |acc, &b| fold_pair(acc, u32::from(b)))
}

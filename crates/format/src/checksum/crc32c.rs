//! CRC-32C (Castagnoli, the iSCSI polynomial): the CRC every InnoDB checksum
//! since MySQL 5.6 is built on.
//!
//! Computed with `crc-fast`, which folds with carry-less multiplication
//! (PCLMULQDQ, and VPCLMULQDQ on AVX-512 machines) as the server's own
//! `crc32c_x86.cc` does; it falls back to a table when the CPU has neither.

use crc_fast::{CrcAlgorithm, Digest};

/// CRC-32C of `bytes`.
#[inline]
pub fn crc32c(bytes: &[u8]) -> u32 {
    crc_fast::crc32_iscsi(bytes)
}

/// A CRC-32C fed piece by piece: equal to [`crc32c`] of the pieces joined.
pub struct Crc32cStream(Digest);

impl Crc32cStream {
    /// An empty stream.
    pub fn new() -> Self {
        Crc32cStream(Digest::new(CrcAlgorithm::Crc32Iscsi))
    }

    /// Appends `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The CRC-32C of everything appended so far.
    pub fn value(&self) -> u32 {
        // CRC-32C is 32 bits wide; the digest returns it in a u64.
        (self.0.finalize() & 0xFFFF_FFFF) as u32
    }
}

impl Default for Crc32cStream {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_value_of_the_catalogue() {
        // The CRC catalogue's check value for CRC-32/ISCSI.
        assert_eq!(crc32c(b"123456789"), 0xE306_9283);
    }

    #[test]
    fn stream_equals_one_call() {
        let data: Vec<u8> = (0..20_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut s = Crc32cStream::new();
        for piece in data.chunks(13) {
            s.update(piece);
        }
        assert_eq!(s.value(), crc32c(&data));
        assert_eq!(Crc32cStream::new().value(), crc32c(&[]));
    }
}

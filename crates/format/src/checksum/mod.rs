//! Page checksums: every algorithm InnoDB has written, and detection of which
//! one a page uses.
//!
//! | layout | algorithms tried |
//! |---|---|
//! | MariaDB full_crc32 | CRC-32C of `[0, S-4)` stored at `S-4` |
//! | ROW_FORMAT=COMPRESSED (zip) | zip CRC-32C, zip adler32 (`innodb`), `none` |
//! | classic (everything else) | CRC-32C, its legacy big-endian variant, `innodb`, `none` |

mod classic;
pub mod crc32c;
pub mod full_crc32;
mod innodb_fold;
mod zip;

pub use classic::{crc32c_classic, crc32c_classic_legacy_big_endian, innodb_new, innodb_old};
pub use full_crc32::{frame_size as full_crc32_frame_size, full_crc32};
pub use innodb_fold::fold_binary;
pub use zip::{first_verifying_size as zip_first_verifying_size, zip_adler32, zip_crc32c};

use serde::Serialize;

/// `BUF_NO_CHECKSUM_MAGIC`: the value stored when checksums are disabled.
pub const BUF_NO_CHECKSUM_MAGIC: u32 = 0xDEAD_BEEF;

/// Pages shorter than this cannot hold a FIL header and trailer; they never verify.
pub const MIN_CHECKSUM_PAGE: usize = crate::fil::header::FIL_PAGE_DATA + 8;

/// A checksum algorithm.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ChecksumAlgorithm {
    /// CRC-32C over bytes `[4,26)` and `[38,size-8)`, stored at 0 and size-8.
    Crc32,
    /// The same, computed the way old big-endian servers did.
    Crc32LegacyBigEndian,
    /// The legacy `innodb` fold checksums.
    Innodb,
    /// Checksums disabled (`0xDEADBEEF`).
    None,
    /// MariaDB full_crc32: CRC-32C of the page minus its last 4 bytes.
    FullCrc32,
    /// ROW_FORMAT=COMPRESSED page, CRC-32C.
    ZipCrc32,
    /// ROW_FORMAT=COMPRESSED page, adler32 (`innodb`).
    ZipInnodb,
    /// ROW_FORMAT=COMPRESSED page, checksums disabled.
    ZipNone,
}

impl ChecksumAlgorithm {
    /// Name as used in reports and JSON (`crc32`, `full_crc32`, `zip_crc32`, …).
    pub fn name(self) -> &'static str {
        match self {
            ChecksumAlgorithm::Crc32 => "crc32",
            ChecksumAlgorithm::Crc32LegacyBigEndian => "crc32_legacy_big_endian",
            ChecksumAlgorithm::Innodb => "innodb",
            ChecksumAlgorithm::None => "none",
            ChecksumAlgorithm::FullCrc32 => "full_crc32",
            ChecksumAlgorithm::ZipCrc32 => "zip_crc32",
            ChecksumAlgorithm::ZipInnodb => "zip_innodb",
            ChecksumAlgorithm::ZipNone => "zip_none",
        }
    }
}

/// Which checksum layout the pages of a tablespace use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChecksumLayout {
    /// MySQL and MariaDB before full_crc32: checksum at 0 and at size-8.
    Classic,
    /// MariaDB full_crc32: CRC-32C at size-4.
    FullCrc32,
    /// ROW_FORMAT=COMPRESSED: one checksum at 0 over the zip page.
    Zip,
}

/// A value found on the page or computed from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ChecksumValue {
    /// Which algorithm (or which stored field) this is.
    pub name: &'static str,
    /// Byte offset where it is stored (for stored values).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<usize>,
    /// The value.
    pub value: u32,
}

impl std::fmt::Display for ChecksumValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} 0x{:08x}", self.name, self.value)
    }
}

/// `name 0x…` for each value, comma-separated.
pub fn list_values(values: &[ChecksumValue]) -> String {
    values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The outcome of checking one page image.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ChecksumVerdict {
    /// The page verifies under this algorithm.
    Valid {
        /// The algorithm that matched.
        algorithm: ChecksumAlgorithm,
    },
    /// Every byte is zero: a page that was never written.
    AllZero,
    /// The page cannot be checked without something this tool does not have
    /// (an encryption key, a compression algorithm it does not decode).
    Unverifiable {
        /// Why.
        reason: String,
    },
    /// No algorithm matches.
    Invalid {
        /// The values stored on the page.
        stored: Vec<ChecksumValue>,
        /// The values each candidate algorithm computes.
        computed: Vec<ChecksumValue>,
    },
}

impl ChecksumVerdict {
    /// True unless the verdict is [`ChecksumVerdict::Invalid`].
    pub fn is_ok(&self) -> bool {
        !matches!(self, ChecksumVerdict::Invalid { .. })
    }

    /// The algorithm that matched, if any.
    pub fn algorithm(&self) -> Option<ChecksumAlgorithm> {
        match self {
            ChecksumVerdict::Valid { algorithm } => Some(*algorithm),
            _ => None,
        }
    }
}

/// Checks a physical page image (exactly one physical page) laid out as `layout`.
///
/// For MariaDB full_crc32 page-compressed frames (type `0x8000 | n`) the
/// checksum covers only the frame of `n * 256` bytes, as the server writes it.
pub fn verify(page: &[u8], layout: ChecksumLayout) -> ChecksumVerdict {
    if page.len() < MIN_CHECKSUM_PAGE {
        return ChecksumVerdict::Invalid {
            stored: Vec::new(),
            computed: Vec::new(),
        };
    }
    if crate::bytes::is_all_zero(page) {
        return ChecksumVerdict::AllZero;
    }
    match layout {
        ChecksumLayout::FullCrc32 => full_crc32::verify(page),
        ChecksumLayout::Zip => zip::verify(page),
        ChecksumLayout::Classic => classic::verify(page),
    }
}

fn read_u32(page: &[u8], offset: usize) -> u32 {
    crate::bytes::u32_at(page, offset, "checksum").unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 16k page with some content in its body and header.
    fn page() -> Vec<u8> {
        let mut p = vec![0u8; 16384];
        for (i, b) in p.iter_mut().enumerate().skip(38).take(5000) {
            *b = (i * 7 % 251) as u8;
        }
        p[4..8].copy_from_slice(&3u32.to_be_bytes());
        p[16..24].copy_from_slice(&0x1234_5678_9abc_def0u64.to_be_bytes());
        p[24..26].copy_from_slice(&17855u16.to_be_bytes());
        p
    }

    fn store_classic(p: &mut [u8], at0: u32, at_end: u32) {
        let n = p.len();
        p[0..4].copy_from_slice(&at0.to_be_bytes());
        p[n - 8..n - 4].copy_from_slice(&at_end.to_be_bytes());
        p.copy_within(20..24, n - 4);
    }

    #[test]
    fn crc32c_is_castagnoli() {
        // The standard check value of CRC-32C.
        assert_eq!(crc32c::crc32c(b"123456789"), 0xE306_9283);
    }

    #[test]
    fn classic_algorithms_are_told_apart() {
        let mut p = page();
        let c = crc32c_classic(&p);
        store_classic(&mut p, c, c);
        assert_eq!(
            verify(&p, ChecksumLayout::Classic).algorithm(),
            Some(ChecksumAlgorithm::Crc32)
        );

        let mut p = page();
        let be = crc32c_classic_legacy_big_endian(&p);
        assert_ne!(
            be,
            crc32c_classic(&p),
            "the legacy variant differs on this page"
        );
        store_classic(&mut p, be, be);
        assert_eq!(
            verify(&p, ChecksumLayout::Classic).algorithm(),
            Some(ChecksumAlgorithm::Crc32LegacyBigEndian)
        );

        // The server stores the new checksum first: the old one covers it.
        let mut p = page();
        let new = innodb_new(&p);
        p[0..4].copy_from_slice(&new.to_be_bytes());
        let old = innodb_old(&p);
        store_classic(&mut p, new, old);
        assert_eq!(
            verify(&p, ChecksumLayout::Classic).algorithm(),
            Some(ChecksumAlgorithm::Innodb)
        );

        let mut p = page();
        store_classic(&mut p, BUF_NO_CHECKSUM_MAGIC, BUF_NO_CHECKSUM_MAGIC);
        assert_eq!(
            verify(&p, ChecksumLayout::Classic).algorithm(),
            Some(ChecksumAlgorithm::None)
        );
    }

    #[test]
    fn a_flipped_bit_is_caught_with_values() {
        let mut p = page();
        let c = crc32c_classic(&p);
        store_classic(&mut p, c, c);
        p[9000] ^= 0x10;
        match verify(&p, ChecksumLayout::Classic) {
            ChecksumVerdict::Invalid { stored, computed } => {
                assert_eq!(stored[0].value, c);
                assert_eq!(stored[0].offset, Some(0));
                assert_eq!(computed[0].value, crc32c_classic(&p));
            }
            v => panic!("expected invalid, got {v:?}"),
        }
    }

    /// The costly `innodb` new checksum is computed (and reported) only when
    /// the old one at size-8 agrees, as the server checks them.
    #[test]
    fn innodb_new_is_computed_only_when_the_old_checksum_agrees() {
        let names = |v: ChecksumVerdict| match v {
            ChecksumVerdict::Invalid { computed, .. } => {
                computed.iter().map(|c| c.name).collect::<Vec<_>>()
            }
            v => panic!("expected invalid, got {v:?}"),
        };
        // Neither field agrees with anything: no fold of the whole page.
        let mut p = page();
        store_classic(&mut p, 1, 2);
        assert_eq!(
            names(verify(&p, ChecksumLayout::Classic)),
            ["crc32", "innodb_old"]
        );
        // The old checksum agrees, the new one does not: both reported.
        let mut p = page();
        p[0..4].copy_from_slice(&7u32.to_be_bytes());
        let old = innodb_old(&p);
        store_classic(&mut p, 7, old);
        assert_eq!(
            names(verify(&p, ChecksumLayout::Classic)),
            ["crc32", "innodb_new", "innodb_old"]
        );
    }

    #[test]
    fn full_crc32_covers_the_frame() {
        let mut p = page();
        let n = p.len();
        let c = full_crc32(&p);
        p[n - 4..].copy_from_slice(&c.to_be_bytes());
        assert_eq!(
            verify(&p, ChecksumLayout::FullCrc32).algorithm(),
            Some(ChecksumAlgorithm::FullCrc32)
        );
        // A compressed frame of 3 * 256 bytes: only the frame counts.
        let mut f = page();
        f[24..26].copy_from_slice(&(0x8000u16 | 3).to_be_bytes());
        let c = full_crc32(&f[..768]);
        f[764..768].copy_from_slice(&c.to_be_bytes());
        assert_eq!(full_crc32_frame_size(&f), 768);
        assert!(verify(&f, ChecksumLayout::FullCrc32).is_ok());
    }

    #[test]
    fn zero_and_short_pages() {
        assert_eq!(
            verify(&[0u8; 4096], ChecksumLayout::Classic),
            ChecksumVerdict::AllZero
        );
        assert!(!verify(&[1u8; 20], ChecksumLayout::Zip).is_ok());
    }
}

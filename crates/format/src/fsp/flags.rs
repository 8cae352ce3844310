//! `FSP_SPACE_FLAGS` (page 0, offset 54): page sizes, row format family,
//! compression and vendor markers.
//!
//! Two layouts exist. MySQL and MariaDB's classic layout: bit 0
//! POST_ANTELOPE, bits 1-4 ZIP_SSIZE, bit 5 ATOMIC_BLOBS, bits 6-9 PAGE_SSIZE,
//! bit 10 DATA_DIR, bit 11 SHARED, bit 12 TEMPORARY, bit 13 ENCRYPTION, bit 14
//! SDI (MySQL 8.0), bit 16 PAGE_COMPRESSION (MariaDB). MariaDB's full_crc32
//! layout (bit 4 set): bits 0-3 PAGE_SSIZE, bit 4 the marker, bits 5-7 the
//! page-compression algorithm.

use serde::Serialize;

/// Bit 4: MariaDB full_crc32 marker (`FSP_FLAGS_FCRC32_MASK_MARKER`).
pub const FSP_FLAGS_FCRC32_MASK_MARKER: u32 = 1 << 4;
/// Bit 16: MariaDB page compression in the classic layout (`FSP_FLAGS_MASK_PAGE_COMPRESSION`).
pub const FSP_FLAGS_MASK_PAGE_COMPRESSION: u32 = 1 << 16;

/// The raw flags word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct FspFlags(pub u32);

/// MariaDB page-compression algorithm codes (full_crc32 flags bits 5-7 and
/// classic page_compressed pages at offset 26). Serialised by name; codes no
/// server defines keep their number (`unknown_9`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompressionAlgorithm(pub u8);

impl Serialize for CompressionAlgorithm {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.name() {
            "unknown" => s.serialize_str(&format!("unknown_{}", self.0)),
            name => s.serialize_str(name),
        }
    }
}

/// As serialised: a name, or `unknown_N`.
impl schemars::JsonSchema for CompressionAlgorithm {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CompressionAlgorithm".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "MariaDB's page-compression algorithm, by name; a code no server defines as unknown_N",
            "type": "string",
            "pattern": "^(none|zlib|lz4|lzo|lzma|bzip2|snappy|unknown_[0-9]+)$"
        })
    }
}

impl CompressionAlgorithm {
    /// Name of the algorithm (`none`, `zlib`, `lz4`, `lzo`, `lzma`, `bzip2`, `snappy`).
    pub fn name(self) -> &'static str {
        match self.0 {
            0 => "none",
            1 => "zlib",
            2 => "lz4",
            3 => "lzo",
            4 => "lzma",
            5 => "bzip2",
            6 => "snappy",
            _ => "unknown",
        }
    }
}

/// What the flags say, decoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DecodedFlags {
    /// The raw value.
    pub raw: u32,
    /// MariaDB full_crc32 layout (bit 4).
    pub full_crc32: bool,
    /// Logical page size in bytes (`innodb_page_size` at creation).
    pub logical_page_size: usize,
    /// Physical (on-disk) page size: the ROW_FORMAT=COMPRESSED page size when
    /// ZIP_SSIZE is set, else the logical size.
    pub physical_page_size: usize,
    /// ZIP_SSIZE (bits 1-4, classic only): 0 = not ROW_FORMAT=COMPRESSED.
    pub zip_ssize: u32,
    /// POST_ANTELOPE (bit 0, classic only).
    pub post_antelope: bool,
    /// ATOMIC_BLOBS (bit 5, classic only).
    pub atomic_blobs: bool,
    /// DATA_DIR (bit 10, MySQL).
    pub data_dir: bool,
    /// SHARED, a general tablespace (bit 11, MySQL 5.7+).
    pub shared: bool,
    /// TEMPORARY (bit 12, MySQL 5.7+).
    pub temporary: bool,
    /// ENCRYPTION (bit 13, MySQL 5.7+).
    pub encryption: bool,
    /// SDI present (bit 14, MySQL 8.0+).
    pub sdi: bool,
    /// MariaDB PAGE_COMPRESSED (classic bit 16, or a non-zero full_crc32 algorithm).
    pub page_compressed: bool,
    /// MariaDB full_crc32 page-compression algorithm (bits 5-7), when full_crc32.
    pub compression_algorithm: Option<CompressionAlgorithm>,
}

impl crate::layout::OnDisk for FspFlags {
    type Value = FspFlags;
    const SIZE: usize = 4;
    fn read(buf: &[u8], offset: usize, name: &'static str) -> Result<FspFlags, crate::FormatError> {
        crate::bytes::u32_at(buf, offset, name).map(FspFlags)
    }
    fn field(value: &FspFlags, offset: usize, name: &'static str) -> crate::field::Field {
        crate::field::Field::new(offset, 4, name, value.0.into())
    }
}

impl FspFlags {
    /// True when the MariaDB full_crc32 marker is set.
    pub fn is_full_crc32(self) -> bool {
        self.0 & FSP_FLAGS_FCRC32_MASK_MARKER != 0
    }

    /// Decodes the flags, or says why they cannot describe a tablespace.
    pub fn decode(self) -> Result<DecodedFlags, String> {
        let f = self.0;
        if self.is_full_crc32() {
            let ssize = f & 0xF;
            if !(3..=7).contains(&ssize) {
                return Err(format!(
                    "full_crc32 PAGE_SSIZE {ssize} is not 3..7 (4k..64k)"
                ));
            }
            let size = 512usize << ssize;
            let algo = CompressionAlgorithm(((f >> 5) & 7) as u8);
            if f >> 8 != 0 {
                return Err(format!("full_crc32 flags 0x{f:x} have bits above 7 set"));
            }
            return Ok(DecodedFlags {
                full_crc32: true,
                page_compressed: algo.0 != 0,
                compression_algorithm: Some(algo),
                ..DecodedFlags::bare(f, size, size)
            });
        }
        let zip_ssize = (f >> 1) & 0xF;
        let page_ssize = (f >> 6) & 0xF;
        let logical = match page_ssize {
            0 => 16384,
            3..=7 => 512usize << page_ssize,
            n => return Err(format!("PAGE_SSIZE {n} is not 0 or 3..7 (4k..64k)")),
        };
        let physical = match zip_ssize {
            0 => logical,
            1..=5 => 512usize << zip_ssize,
            n => return Err(format!("ZIP_SSIZE {n} is not 0..5")),
        };
        if physical > logical {
            return Err(format!(
                "compressed page size {physical} is larger than the page size {logical}"
            ));
        }
        if f >> 17 != 0 || f & (1 << 15) != 0 {
            return Err(format!(
                "flags 0x{f:x} have bits set that no server defines"
            ));
        }
        Ok(DecodedFlags {
            raw: f,
            full_crc32: false,
            logical_page_size: logical,
            physical_page_size: physical,
            zip_ssize,
            post_antelope: f & 1 != 0,
            atomic_blobs: f & (1 << 5) != 0,
            data_dir: f & (1 << 10) != 0,
            shared: f & (1 << 11) != 0,
            temporary: f & (1 << 12) != 0,
            encryption: f & (1 << 13) != 0,
            sdi: f & (1 << 14) != 0,
            page_compressed: f & FSP_FLAGS_MASK_PAGE_COMPRESSION != 0,
            compression_algorithm: None,
        })
    }
}

impl DecodedFlags {
    /// Flags with the given raw value and page sizes and no property set.
    pub fn bare(raw: u32, logical_page_size: usize, physical_page_size: usize) -> Self {
        DecodedFlags {
            raw,
            full_crc32: false,
            logical_page_size,
            physical_page_size,
            zip_ssize: 0,
            post_antelope: false,
            atomic_blobs: false,
            data_dir: false,
            shared: false,
            temporary: false,
            encryption: false,
            sdi: false,
            page_compressed: false,
            compression_algorithm: None,
        }
    }

    /// Human-readable list of the set properties, e.g. `full_crc32, page_size=16k`.
    pub fn describe(&self) -> String {
        let k = |n: usize| format!("{}k", n / 1024);
        let mut parts = Vec::new();
        if self.full_crc32 {
            parts.push("full_crc32".to_string());
        }
        parts.push(format!("page_size={}", k(self.logical_page_size)));
        if self.zip_ssize != 0 {
            parts.push(format!("zip_size={}", k(self.physical_page_size)));
        }
        for (on, name) in [
            (self.post_antelope, "post_antelope"),
            (self.atomic_blobs, "atomic_blobs"),
            (self.data_dir, "data_dir"),
            (self.shared, "shared"),
            (self.temporary, "temporary"),
            (self.encryption, "encryption"),
            (self.sdi, "sdi"),
            (self.page_compressed, "page_compressed"),
        ] {
            if on {
                parts.push(name.to_string());
            }
        }
        if let Some(a) = self.compression_algorithm.filter(|a| a.0 != 0) {
            parts.push(format!("algorithm={}", a.name()));
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mysql8_dynamic_16k() {
        let d = FspFlags(0x4021).decode().unwrap();
        assert!(!d.full_crc32 && d.sdi && d.atomic_blobs && d.post_antelope);
        assert_eq!((d.logical_page_size, d.physical_page_size), (16384, 16384));
    }

    #[test]
    fn mysql_compressed_8k() {
        let d = FspFlags(0x4029).decode().unwrap();
        assert_eq!(
            (d.logical_page_size, d.physical_page_size, d.zip_ssize),
            (16384, 8192, 4)
        );
    }

    #[test]
    fn mariadb_full_crc32() {
        let d = FspFlags(0x15).decode().unwrap();
        assert!(d.full_crc32 && !d.page_compressed);
        assert_eq!(d.logical_page_size, 16384);
        let d = FspFlags(0x13 | (1 << 5)).decode().unwrap();
        assert_eq!(d.logical_page_size, 4096);
        assert!(d.page_compressed);
        assert_eq!(d.compression_algorithm.unwrap().name(), "zlib");
    }

    #[test]
    fn mariadb_classic_page_compressed() {
        let d = FspFlags(0x10021).decode().unwrap();
        assert!(d.page_compressed && !d.full_crc32);
    }

    #[test]
    fn legacy_zero_and_small_pages() {
        assert_eq!(FspFlags(0).decode().unwrap().logical_page_size, 16384);
        // 4k server, 1k zip: PAGE_SSIZE 3, ZIP_SSIZE 1.
        let d = FspFlags((3 << 6) | (1 << 1) | 1 | (1 << 5))
            .decode()
            .unwrap();
        assert_eq!((d.logical_page_size, d.physical_page_size), (4096, 1024));
    }

    #[test]
    fn rejects_nonsense() {
        assert!(FspFlags(1 << 6).decode().is_err());
        assert!(FspFlags(0xFFFF_FFFF).decode().is_err());
        assert!(FspFlags(0x10 | 1).decode().is_err());
    }
}

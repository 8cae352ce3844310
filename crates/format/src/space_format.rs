//! How the pages of one tablespace are laid out: page sizes, checksum layout,
//! compression and vendor, decided from page 0.

use crate::checksum::ChecksumLayout;
use crate::context::PageContext;
use crate::fil::header::FilHeader;
use crate::fsp::flags::{DecodedFlags, FspFlags};
use crate::fsp::header::FspHeader;
use crate::vendor::Vendor;
use crate::FormatError;
use serde::Serialize;

/// The layout facts every page of a tablespace shares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SpaceFormat {
    /// Decoded `FSP_SPACE_FLAGS`.
    pub flags: DecodedFlags,
    /// Which server family wrote the file.
    pub vendor: Vendor,
    /// How checksums are stored.
    pub checksum_layout: ChecksumLayout,
    /// For MySQL 8.0+: the server version id from page 0 (`FIL_PAGE_SRV_VERSION`, offset 8).
    pub mysql_server_version: Option<u32>,
}

impl SpaceFormat {
    /// Decides the format from a page 0 image (at least the FIL and FSP headers).
    pub fn from_page0(page0: &[u8]) -> Result<Self, FormatError> {
        let fil = FilHeader::parse(page0)?;
        let fsp = FspHeader::parse(page0)?;
        Self::from_parts(&fil, fsp.flags)
    }

    /// Decides the format from page 0's FIL header and flags.
    pub fn from_parts(fil: &FilHeader, flags: FspFlags) -> Result<Self, FormatError> {
        let decoded = flags.decode().map_err(|reason| FormatError::BadValue {
            field: "FSP_SPACE_FLAGS",
            offset: crate::fsp::header::FSP_SPACE_FLAGS,
            reason,
        })?;
        let (vendor, mysql_server_version) = detect_vendor(fil, &decoded);
        let checksum_layout = if decoded.full_crc32 {
            ChecksumLayout::FullCrc32
        } else if decoded.zip_ssize != 0 {
            ChecksumLayout::Zip
        } else {
            ChecksumLayout::Classic
        };
        Ok(SpaceFormat {
            flags: decoded,
            vendor,
            checksum_layout,
            mysql_server_version,
        })
    }

    /// The context of page `page_no` of the tablespace `space_id` laid out
    /// in this format (not a doublewrite copy).
    pub fn page_context(&self, space_id: u32, page_no: u32) -> PageContext {
        PageContext {
            page_no,
            space_id,
            system: space_id == 0,
            logical_page_size: self.logical_page_size(),
            physical_page_size: self.physical_page_size(),
            extent_size: self.extent_size(),
            vendor: self.vendor,
            full_crc32: self.flags.full_crc32,
            doublewrite_copy: false,
        }
    }

    /// A format for a file whose page 0 is unusable, from a page size given
    /// by the user or found by probing: classic layout, vendor unknown.
    pub fn assumed(
        physical_page_size: usize,
        logical_page_size: usize,
        layout: ChecksumLayout,
    ) -> Self {
        SpaceFormat {
            flags: DecodedFlags {
                full_crc32: layout == ChecksumLayout::FullCrc32,
                zip_ssize: if layout == ChecksumLayout::Zip {
                    (physical_page_size / 512).trailing_zeros()
                } else {
                    0
                },
                ..DecodedFlags::bare(0, logical_page_size, physical_page_size)
            },
            vendor: if layout == ChecksumLayout::FullCrc32 {
                Vendor::MariaDb
            } else {
                Vendor::Unknown
            },
            checksum_layout: layout,
            mysql_server_version: None,
        }
    }

    /// Logical page size in bytes.
    pub fn logical_page_size(&self) -> usize {
        self.flags.logical_page_size
    }

    /// Physical (on-disk) page size in bytes.
    pub fn physical_page_size(&self) -> usize {
        self.flags.physical_page_size
    }

    /// True for ROW_FORMAT=COMPRESSED tablespaces.
    pub fn is_zip(&self) -> bool {
        self.checksum_layout == ChecksumLayout::Zip
    }

    /// Pages per extent (`FSP_EXTENT_SIZE`), from the logical page size:
    /// 1 MiB of pages up to 16k, 64 pages at 32k and 64k.
    pub fn extent_size(&self) -> usize {
        match self.logical_page_size() {
            n if n <= 16384 => (1 << 20) / n,
            _ => 64,
        }
    }

    /// A short description: vendor, checksum layout, sizes.
    pub fn describe(&self) -> String {
        let layout = match self.checksum_layout {
            ChecksumLayout::Classic => "classic",
            ChecksumLayout::FullCrc32 => "full_crc32",
            ChecksumLayout::Zip => "ROW_FORMAT=COMPRESSED",
        };
        let version = self
            .mysql_server_version
            .map(|v| format!(" {}.{}.{}", v / 10000, v / 100 % 100, v % 100))
            .unwrap_or_default();
        format!("{}{} ({layout})", self.vendor.name(), version)
    }
}

/// Vendor from page 0: the full_crc32 marker or the page-compression bit mean
/// MariaDB; the SDI flag or a server version id in `FIL_PAGE_PREV` with
/// `FIL_PAGE_NEXT` = 1 mean MySQL 8.0+; MariaDB 10.4+ writes `FIL_NULL` to both.
fn detect_vendor(fil: &FilHeader, flags: &DecodedFlags) -> (Vendor, Option<u32>) {
    let mysql_version =
        (fil.next == 1 && (80000..=999_999).contains(&fil.prev)).then_some(fil.prev);
    if flags.full_crc32 || flags.page_compressed {
        (Vendor::MariaDb, None)
    } else if flags.sdi
        || mysql_version.is_some()
        || flags.shared
        || flags.temporary
        || flags.encryption
    {
        (Vendor::MySql, mysql_version)
    } else if fil.prev == crate::FIL_NULL && fil.next == crate::FIL_NULL {
        (Vendor::MariaDb, None)
    } else {
        (Vendor::Unknown, None)
    }
}

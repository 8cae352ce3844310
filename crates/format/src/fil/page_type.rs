//! `FIL_PAGE_TYPE` (offset 24, 2 bytes): what a page holds.

use crate::vendor::Vendor;
use serde::Serialize;

/// A page type code. Unknown codes are kept as they are.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema,
)]
#[serde(transparent)]
pub struct PageType(pub u16);

impl PageType {
    /// Freshly allocated, never written (0).
    pub const ALLOCATED: PageType = PageType(0);
    /// MySQL 8.0: unused (1).
    pub const TYPE_UNUSED: PageType = PageType(1);
    /// Undo log page (2).
    pub const UNDO_LOG: PageType = PageType(2);
    /// File segment inode page (3).
    pub const INODE: PageType = PageType(3);
    /// Insert buffer free list page (4).
    pub const IBUF_FREE_LIST: PageType = PageType(4);
    /// Insert buffer bitmap page (5).
    pub const IBUF_BITMAP: PageType = PageType(5);
    /// System page: ibuf header, rollback segment header, dictionary header (6).
    pub const TYPE_SYS: PageType = PageType(6);
    /// Transaction system header (7).
    pub const TYPE_TRX_SYS: PageType = PageType(7);
    /// File space header, page 0 (8).
    pub const TYPE_FSP_HDR: PageType = PageType(8);
    /// Extent descriptor page (9).
    pub const TYPE_XDES: PageType = PageType(9);
    /// Uncompressed BLOB page (10).
    pub const TYPE_BLOB: PageType = PageType(10);
    /// First compressed BLOB page (11).
    pub const TYPE_ZBLOB: PageType = PageType(11);
    /// Subsequent compressed BLOB page (12).
    pub const TYPE_ZBLOB2: PageType = PageType(12);
    /// Unknown type left by old servers (13).
    pub const TYPE_UNKNOWN: PageType = PageType(13);
    /// MySQL transparent page compression (14).
    pub const COMPRESSED: PageType = PageType(14);
    /// MySQL encrypted page (15).
    pub const ENCRYPTED: PageType = PageType(15);
    /// MySQL compressed and encrypted page (16).
    pub const COMPRESSED_AND_ENCRYPTED: PageType = PageType(16);
    /// MySQL encrypted R-tree page (17).
    pub const ENCRYPTED_RTREE: PageType = PageType(17);
    /// 18: MySQL SDI BLOB page, or MariaDB instant-ALTER clustered root.
    pub const SDI_BLOB_OR_INSTANT: PageType = PageType(18);
    /// MySQL SDI compressed BLOB page (19).
    pub const SDI_ZBLOB: PageType = PageType(19);
    /// MySQL legacy doublewrite page (20).
    pub const LEGACY_DBLWR: PageType = PageType(20);
    /// MySQL 8.0 rollback segment array page (21).
    pub const RSEG_ARRAY: PageType = PageType(21);
    /// MySQL 8.0 LOB index page (22).
    pub const LOB_INDEX: PageType = PageType(22);
    /// MySQL 8.0 LOB data page (23).
    pub const LOB_DATA: PageType = PageType(23);
    /// MySQL 8.0 LOB first page (24).
    pub const LOB_FIRST: PageType = PageType(24);
    /// MySQL 8.0 compressed LOB first page (25).
    pub const ZLOB_FIRST: PageType = PageType(25);
    /// MySQL 8.0 compressed LOB data page (26).
    pub const ZLOB_DATA: PageType = PageType(26);
    /// MySQL 8.0 compressed LOB index page (27).
    pub const ZLOB_INDEX: PageType = PageType(27);
    /// MySQL 8.0 compressed LOB fragment page (28).
    pub const ZLOB_FRAG: PageType = PageType(28);
    /// MySQL 8.0 compressed LOB fragment entry page (29).
    pub const ZLOB_FRAG_ENTRY: PageType = PageType(29);
    /// MySQL 8.0 SDI index page (17853).
    pub const SDI: PageType = PageType(17853);
    /// R-tree (spatial) index page (17854).
    pub const RTREE: PageType = PageType(17854);
    /// B-tree index page (17855).
    pub const INDEX: PageType = PageType(17855);
    /// MariaDB PAGE_COMPRESSED page, classic layout (34354).
    pub const PAGE_COMPRESSED: PageType = PageType(34354);
    /// MariaDB PAGE_COMPRESSED and encrypted page, classic layout (37401).
    pub const PAGE_COMPRESSED_ENCRYPTED: PageType = PageType(37401);

    /// True for MariaDB full_crc32 page-compressed frames (`0x8000 | size/256`).
    ///
    /// Only meaningful in a full_crc32 tablespace; elsewhere such codes are unknown.
    pub fn is_full_crc32_compressed(self) -> bool {
        self.0 & 0x8000 != 0
            && self.0 != Self::PAGE_COMPRESSED.0
            && self.0 != Self::PAGE_COMPRESSED_ENCRYPTED.0
    }

    /// True for page types laid out as an index page (B-tree, R-tree, SDI,
    /// and the MariaDB instant-ALTER root).
    pub fn is_index_layout(self, vendor: Vendor) -> bool {
        matches!(self, Self::INDEX | Self::RTREE | Self::SDI)
            || (self == Self::SDI_BLOB_OR_INSTANT && vendor == Vendor::MariaDb)
    }

    /// The name of the `FIL_PAGE_` constant without its prefix (`INDEX`,
    /// `UNDO_LOG`, `FSP_HDR`, …). Type 18 is named by vendor: `INSTANT` for
    /// MariaDB, `SDI_BLOB` otherwise. Unknown codes are `UNKNOWN_<n>`; MariaDB
    /// full_crc32 compressed frames are `PAGE_COMPRESSED` (their real type is
    /// inside the compressed payload).
    pub fn name(self, vendor: Vendor) -> std::borrow::Cow<'static, str> {
        match self.known_name(vendor) {
            Some(name) => std::borrow::Cow::Borrowed(name),
            None => std::borrow::Cow::Owned(format!("UNKNOWN_{}", self.0)),
        }
    }

    /// [`Self::name`] of a known code; `None` for an unknown one.
    fn known_name(self, vendor: Vendor) -> Option<&'static str> {
        Some(match self.0 {
            0 => "ALLOCATED",
            1 => "UNUSED",
            2 => "UNDO_LOG",
            3 => "INODE",
            4 => "IBUF_FREE_LIST",
            5 => "IBUF_BITMAP",
            6 => "SYS",
            7 => "TRX_SYS",
            8 => "FSP_HDR",
            9 => "XDES",
            10 => "BLOB",
            11 => "ZBLOB",
            12 => "ZBLOB2",
            13 => "UNKNOWN",
            14 => "COMPRESSED",
            15 => "ENCRYPTED",
            16 => "COMPRESSED_AND_ENCRYPTED",
            17 => "ENCRYPTED_RTREE",
            18 if vendor == Vendor::MariaDb => "INSTANT",
            18 => "SDI_BLOB",
            19 => "SDI_ZBLOB",
            20 => "LEGACY_DBLWR",
            21 => "RSEG_ARRAY",
            22 => "LOB_INDEX",
            23 => "LOB_DATA",
            24 => "LOB_FIRST",
            25 => "ZLOB_FIRST",
            26 => "ZLOB_DATA",
            27 => "ZLOB_INDEX",
            28 => "ZLOB_FRAG",
            29 => "ZLOB_FRAG_ENTRY",
            17853 => "SDI",
            17854 => "RTREE",
            17855 => "INDEX",
            34354 => "PAGE_COMPRESSED",
            37401 => "PAGE_COMPRESSED_ENCRYPTED",
            n if n & 0x8000 != 0 && vendor == Vendor::MariaDb => "PAGE_COMPRESSED",
            _ => return None,
        })
    }

    /// The type a name stands for (`INDEX`, `fil_page_index`, `instant`, …; any
    /// case, with or without the `FIL_PAGE_` prefix), or `None` when no type
    /// has that name. Names that exist for one vendor only resolve too.
    pub fn from_name(name: &str) -> Option<PageType> {
        let upper = name.trim().to_ascii_uppercase();
        let bare = upper
            .strip_prefix("FIL_PAGE_TYPE_")
            .or_else(|| upper.strip_prefix("FIL_PAGE_"))
            .unwrap_or(&upper);
        (0..=29u16)
            .chain([17853, 17854, 17855, 34354, 37401])
            .map(PageType)
            .find(|t| t.name(Vendor::MariaDb) == bare || t.name(Vendor::MySql) == bare)
    }

    /// True when the code is one this crate can name (not `UNKNOWN_<n>`).
    pub fn is_known(self, vendor: Vendor) -> bool {
        // No name built: a carve asks at every 512-byte offset.
        self.known_name(vendor).is_some()
    }
}

impl crate::layout::OnDisk for PageType {
    type Value = PageType;
    const SIZE: usize = 2;
    fn read(buf: &[u8], offset: usize, name: &'static str) -> Result<PageType, crate::FormatError> {
        crate::bytes::u16_at(buf, offset, name).map(PageType)
    }
    fn field(value: &PageType, offset: usize, name: &'static str) -> crate::field::Field {
        crate::field::Field::new(offset, 2, name, value.0.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_18_depends_on_vendor() {
        assert_eq!(PageType(18).name(Vendor::MariaDb), "INSTANT");
        assert_eq!(PageType(18).name(Vendor::MySql), "SDI_BLOB");
        assert!(PageType(18).is_index_layout(Vendor::MariaDb));
        assert!(!PageType(18).is_index_layout(Vendor::MySql));
    }

    #[test]
    fn names_resolve() {
        assert_eq!(PageType::from_name("index"), Some(PageType::INDEX));
        assert_eq!(
            PageType::from_name("FIL_PAGE_UNDO_LOG"),
            Some(PageType::UNDO_LOG)
        );
        assert_eq!(
            PageType::from_name("FIL_PAGE_TYPE_TRX_SYS"),
            Some(PageType::TYPE_TRX_SYS)
        );
        assert_eq!(PageType::from_name("instant"), Some(PageType(18)));
        assert_eq!(PageType::from_name("SDI_BLOB"), Some(PageType(18)));
        assert_eq!(PageType::from_name("FOO"), None);
    }

    #[test]
    fn unknown_kept_as_value() {
        assert_eq!(PageType(4242).name(Vendor::MySql), "UNKNOWN_4242");
        assert!(!PageType(4242).is_known(Vendor::MySql));
        assert_eq!(
            PageType(0x8000 | 40).name(Vendor::MariaDb),
            "PAGE_COMPRESSED"
        );
        assert_eq!(PageType::INDEX.name(Vendor::Unknown), "INDEX");
    }

    #[test]
    fn known_means_a_name_other_than_unknown_n() {
        for vendor in [Vendor::MySql, Vendor::MariaDb, Vendor::Unknown] {
            for code in 0..=u16::MAX {
                let t = PageType(code);
                assert_eq!(
                    t.is_known(vendor),
                    !t.name(vendor).starts_with("UNKNOWN_"),
                    "{code} {vendor:?}"
                );
            }
        }
        assert!(
            PageType(13).is_known(Vendor::MySql),
            "the type named UNKNOWN"
        );
    }
}

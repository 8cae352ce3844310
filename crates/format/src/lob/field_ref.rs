//! The external field reference (`lob0lob.h`, `ref_t`, 20 bytes) that ends a
//! column stored off-page, as MySQL 8.0+ writes it.
//!
//! The reference names the LOB's first page. For an old-style BLOB chain
//! (`FIL_PAGE_TYPE_BLOB`, MySQL 5.x and MariaDB) the word at offset 8 is the
//! byte offset of the first part on that page; for the MySQL 8.0+ LOB
//! format (`FIL_PAGE_TYPE_LOB_FIRST`, `FIL_PAGE_TYPE_ZLOB_FIRST`) the same
//! word is the LOB version the record sees (`BTR_EXTERN_VERSION`). The
//! length is 8 bytes: the first byte carries three flags, the last four the
//! length of the part stored off-page.

use crate::bytes::{slice, u32_at, u8_at};
use crate::field::{page_no_meaning, Field};
use crate::FormatError;
use serde::Serialize;

/// Size of the reference (`BTR_EXTERN_FIELD_REF_SIZE`).
pub const LOB_REF_SIZE: usize = 20;
/// Offset of `BTR_EXTERN_SPACE_ID` (4 bytes) within the reference.
pub const BTR_EXTERN_SPACE_ID: usize = 0;
/// Offset of `BTR_EXTERN_PAGE_NO` (4 bytes): the LOB's first page.
pub const BTR_EXTERN_PAGE_NO: usize = 4;
/// Offset of `BTR_EXTERN_OFFSET` (4 bytes): for an old-style BLOB chain,
/// where the first part starts on the first page.
pub const BTR_EXTERN_OFFSET: usize = 8;
/// Offset of `BTR_EXTERN_VERSION` (4 bytes, the same word as
/// `BTR_EXTERN_OFFSET`): for a MySQL 8.0+ LOB, the LOB version the record sees.
pub const BTR_EXTERN_VERSION: usize = 8;
/// Offset of `BTR_EXTERN_LEN` (8 bytes): flags in the first byte, the
/// off-page length in the last four.
pub const BTR_EXTERN_LEN: usize = 12;
/// Offset of the 4-byte off-page length (`BTR_EXTERN_LEN` + 4).
pub const BTR_EXTERN_LEN_LOW: usize = 16;
/// `BTR_EXTERN_OWNER_FLAG` (bit 7 of the byte at offset 12): set when the
/// record does *not* own the LOB (only the owner frees it in purge).
pub const BTR_EXTERN_OWNER_FLAG: u8 = 0x80;
/// `BTR_EXTERN_INHERITED_FLAG` (bit 6 of the byte at offset 12): the LOB was
/// inherited from an earlier version of the row (rollback must not free it).
pub const BTR_EXTERN_INHERITED_FLAG: u8 = 0x40;
/// `BTR_EXTERN_BEING_MODIFIED_FLAG` (bit 5 of the byte at offset 12): the LOB
/// is being written (READ UNCOMMITTED readers skip it).
pub const BTR_EXTERN_BEING_MODIFIED_FLAG: u8 = 0x20;

/// An external field reference (`ref_t`, 20 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LobRef {
    /// `BTR_EXTERN_SPACE_ID` (offset 0): the tablespace holding the LOB.
    pub space_id: u32,
    /// `BTR_EXTERN_PAGE_NO` (offset 4): the LOB's first page.
    pub page_no: u32,
    /// `BTR_EXTERN_OFFSET` / `BTR_EXTERN_VERSION` (offset 8): the part
    /// offset of an old-style chain, or the LOB version of a MySQL 8.0+ LOB.
    pub offset_or_version: u32,
    /// The flag byte (offset 12, first byte of `BTR_EXTERN_LEN`).
    pub flags: u8,
    /// Bytes stored off-page (offset 16, last four bytes of `BTR_EXTERN_LEN`).
    pub length: u32,
}

impl LobRef {
    /// Reads a reference from the first 20 bytes of `b`.
    pub fn parse(b: &[u8]) -> Result<Self, FormatError> {
        let b = slice(b, 0, LOB_REF_SIZE, "BTR_EXTERN_FIELD_REF")?;
        Ok(LobRef {
            space_id: u32_at(b, BTR_EXTERN_SPACE_ID, "BTR_EXTERN_SPACE_ID")?,
            page_no: u32_at(b, BTR_EXTERN_PAGE_NO, "BTR_EXTERN_PAGE_NO")?,
            offset_or_version: u32_at(b, BTR_EXTERN_OFFSET, "BTR_EXTERN_OFFSET")?,
            flags: u8_at(b, BTR_EXTERN_LEN, "BTR_EXTERN_LEN")?,
            length: u32_at(b, BTR_EXTERN_LEN_LOW, "BTR_EXTERN_LEN")?,
        })
    }

    /// Reads the reference at absolute `offset` of `page`.
    pub fn parse_at(page: &[u8], offset: usize) -> Result<Self, FormatError> {
        LobRef::parse(slice(page, offset, LOB_REF_SIZE, "BTR_EXTERN_FIELD_REF")?)
    }

    /// The LOB version (`BTR_EXTERN_VERSION`, offset 8) of a MySQL 8.0+ LOB.
    pub fn version(&self) -> u32 {
        self.offset_or_version
    }

    /// True when the record owns the LOB (`BTR_EXTERN_OWNER_FLAG` clear).
    pub fn is_owner(&self) -> bool {
        self.flags & BTR_EXTERN_OWNER_FLAG == 0
    }

    /// True when `BTR_EXTERN_INHERITED_FLAG` is set.
    pub fn is_inherited(&self) -> bool {
        self.flags & BTR_EXTERN_INHERITED_FLAG != 0
    }

    /// True when `BTR_EXTERN_BEING_MODIFIED_FLAG` is set.
    pub fn is_being_modified(&self) -> bool {
        self.flags & BTR_EXTERN_BEING_MODIFIED_FLAG != 0
    }

    /// True for an all-zero reference: the LOB was never written (a record
    /// caught between insert and the LOB write), nothing to follow.
    pub fn is_null(&self) -> bool {
        self.space_id == 0
            && self.page_no == 0
            && self.offset_or_version == 0
            && self.flags == 0
            && self.length == 0
    }

    /// The reference's fields at absolute offsets, the reference starting at `at`.
    pub fn fields(&self, at: usize) -> Vec<Field> {
        let mut flags = Vec::new();
        if !self.is_owner() {
            flags.push("not owner");
        }
        if self.is_inherited() {
            flags.push("inherited");
        }
        if self.is_being_modified() {
            flags.push("being modified");
        }
        let page = match page_no_meaning(self.page_no) {
            Some(m) => Field::with_meaning(
                at + BTR_EXTERN_PAGE_NO,
                4,
                "BTR_EXTERN_PAGE_NO",
                self.page_no.into(),
                m,
            ),
            None => Field::new(
                at + BTR_EXTERN_PAGE_NO,
                4,
                "BTR_EXTERN_PAGE_NO",
                self.page_no.into(),
            ),
        };
        vec![
            Field::new(
                at + BTR_EXTERN_SPACE_ID,
                4,
                "BTR_EXTERN_SPACE_ID",
                self.space_id.into(),
            ),
            page,
            Field::with_meaning(
                at + BTR_EXTERN_OFFSET,
                4,
                "BTR_EXTERN_OFFSET",
                self.offset_or_version.into(),
                "part offset (BLOB chain) or LOB version (MySQL 8.0+ LOB)",
            ),
            Field::with_meaning(
                at + BTR_EXTERN_LEN,
                1,
                "BTR_EXTERN_LEN flags",
                self.flags.into(),
                if flags.is_empty() {
                    "owner".to_string()
                } else {
                    flags.join(", ")
                },
            ),
            Field::new(
                at + BTR_EXTERN_LEN_LOW,
                4,
                "BTR_EXTERN_LEN",
                self.length.into(),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_mysql8_reference() {
        // From ibdNinja's blob_external.ibd, row 2: space 22, page 18, version 1, 16000 bytes.
        let b = [
            0, 0, 0, 0x16, 0, 0, 0, 0x12, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x3e, 0x80,
        ];
        let r = LobRef::parse(&b).unwrap();
        assert_eq!(
            (r.space_id, r.page_no, r.version(), r.length),
            (22, 18, 1, 16000)
        );
        assert!(r.is_owner() && !r.is_inherited() && !r.is_being_modified());
        let mut flagged = b;
        flagged[12] = 0xE0;
        let r = LobRef::parse(&flagged).unwrap();
        assert!(!r.is_owner() && r.is_inherited() && r.is_being_modified());
        assert_eq!(r.length, 16000);
        assert!(LobRef::parse(&[0u8; 20]).unwrap().is_null());
    }

    #[test]
    fn short_input_is_an_error() {
        assert!(LobRef::parse(&[0u8; 19]).is_err());
        assert!(LobRef::parse_at(&[0u8; 30], 11).is_err());
        assert_eq!(
            LobRef::parse_at(&[0u8; 30], 10).unwrap().fields(10).len(),
            5
        );
    }
}

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

use crate::bytes::slice;
use crate::context::PageContext;
use crate::layout::layout;
use crate::FormatError;

layout! {
    /// An external field reference (`ref_t`, 20 bytes, offsets from its start).
    pub struct LobRef {
        /// Offset 0 (`BTR_EXTERN_SPACE_ID`, 4 bytes): the tablespace holding the LOB.
        BTR_EXTERN_SPACE_ID @ 0 => space_id: u32;
        /// Offset 4 (`BTR_EXTERN_PAGE_NO`, 4 bytes): the LOB's first page.
        BTR_EXTERN_PAGE_NO @ 4 => page_no: u32, points page;
        /// Offset 8 (`BTR_EXTERN_OFFSET`, 4 bytes; `BTR_EXTERN_VERSION` for a
        /// MySQL 8.0+ LOB): the offset of the first part on the first page
        /// of an old-style BLOB chain, or the LOB version the record sees.
        BTR_EXTERN_OFFSET @ 8 => offset_or_version: u32, shows show_offset;
        /// Offset 12 (the first byte of the 8-byte `BTR_EXTERN_LEN`): the
        /// owner, inherited and being-modified flags.
        BTR_EXTERN_LEN "BTR_EXTERN_LEN flags" @ 12 => flags: u8, shows show_flags;
        /// Offset 16 (the last 4 bytes of `BTR_EXTERN_LEN`): the bytes stored off-page.
        BTR_EXTERN_LEN_LOW "BTR_EXTERN_LEN" @ 16 => length: u32;
    }
}

/// Size of the reference (`BTR_EXTERN_FIELD_REF_SIZE`).
pub const LOB_REF_SIZE: usize = LobRef::END;
/// Offset of `BTR_EXTERN_VERSION` (4 bytes, the same word as
/// `BTR_EXTERN_OFFSET`): for a MySQL 8.0+ LOB, the LOB version the record sees.
pub const BTR_EXTERN_VERSION: usize = BTR_EXTERN_OFFSET;

fn show_offset(_: &u32, _: &PageContext) -> Option<String> {
    Some("part offset (BLOB chain) or LOB version (MySQL 8.0+ LOB)".into())
}

fn show_flags(flags: &u8, _: &PageContext) -> Option<String> {
    let mut out = Vec::new();
    if flags & BTR_EXTERN_OWNER_FLAG != 0 {
        out.push("not owner");
    }
    if flags & BTR_EXTERN_INHERITED_FLAG != 0 {
        out.push("inherited");
    }
    if flags & BTR_EXTERN_BEING_MODIFIED_FLAG != 0 {
        out.push("being modified");
    }
    Some(if out.is_empty() {
        "owner".to_string()
    } else {
        out.join(", ")
    })
}

/// `BTR_EXTERN_OWNER_FLAG` (bit 7 of the byte at offset 12): set when the
/// record does *not* own the LOB (only the owner frees it in purge).
pub const BTR_EXTERN_OWNER_FLAG: u8 = 0x80;
/// `BTR_EXTERN_INHERITED_FLAG` (bit 6 of the byte at offset 12): the LOB was
/// inherited from an earlier version of the row (rollback must not free it).
pub const BTR_EXTERN_INHERITED_FLAG: u8 = 0x40;
/// `BTR_EXTERN_BEING_MODIFIED_FLAG` (bit 5 of the byte at offset 12): the LOB
/// is being written (READ UNCOMMITTED readers skip it).
pub const BTR_EXTERN_BEING_MODIFIED_FLAG: u8 = 0x20;

impl LobRef {
    /// Reads a reference from the first 20 bytes of `b`.
    pub fn parse(b: &[u8]) -> Result<Self, FormatError> {
        slice(b, 0, LOB_REF_SIZE, "BTR_EXTERN_FIELD_REF")?;
        LobRef::parse_at(b, 0)
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
        let f = LobRef::parse_at(&[0u8; 30], 10)
            .unwrap()
            .fields_at(10, &PageContext::default());
        assert_eq!(f.len(), 5);
        assert_eq!((f[3].name, f[3].offset), ("BTR_EXTERN_LEN flags", 22));
        assert_eq!(f[3].meaning.as_deref(), Some("owner"));
    }
}

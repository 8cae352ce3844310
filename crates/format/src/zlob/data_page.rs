//! A data page of a compressed MySQL 8.0+ LOB (`FIL_PAGE_TYPE_ZLOB_DATA` =
//! 26, `lob0impl.h`, `z_data_page_t`): a version byte, the length of the
//! zlib bytes on the page and the transaction that wrote it, then the bytes
//! from offset 49. A zlib stream continues on the page named by
//! `FIL_PAGE_NEXT`.

use crate::bytes::{slice, u32_at, u48_at, u8_at};
use crate::field::Field;
use crate::fil::header::FIL_PAGE_DATA;
use crate::fil::trailer::FIL_PAGE_DATA_END;
use crate::FormatError;
use serde::Serialize;

/// Offset 38: `OFFSET_VERSION` (1 byte), 0.
pub const ZLOB_DATA_VERSION: usize = FIL_PAGE_DATA;
/// Offset 39: `OFFSET_DATA_LEN` (4 bytes), zlib bytes on the page.
pub const ZLOB_DATA_DATA_LEN: usize = ZLOB_DATA_VERSION + 1;
/// Offset 43: `OFFSET_TRX_ID` (6 bytes), the transaction that wrote the page.
pub const ZLOB_DATA_TRX_ID: usize = ZLOB_DATA_DATA_LEN + 4;
/// Offset 49: `OFFSET_DATA_BEGIN`, where the zlib bytes begin.
pub const ZLOB_DATA_DATA: usize = ZLOB_DATA_TRX_ID + 6;

/// The header of a `FIL_PAGE_TYPE_ZLOB_DATA` page (offsets 38 to 49).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ZlobDataPage {
    /// `OFFSET_VERSION` (offset 38): 0.
    pub version: u8,
    /// `OFFSET_DATA_LEN` (offset 39): zlib bytes on the page.
    pub data_len: u32,
    /// `OFFSET_TRX_ID` (offset 43, 6 bytes): the transaction that wrote the page.
    pub trx_id: u64,
}

impl ZlobDataPage {
    /// Reads the header of a ZLOB data page image.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        Ok(ZlobDataPage {
            version: u8_at(page, ZLOB_DATA_VERSION, "OFFSET_VERSION")?,
            data_len: u32_at(page, ZLOB_DATA_DATA_LEN, "OFFSET_DATA_LEN")?,
            trx_id: u48_at(page, ZLOB_DATA_TRX_ID, "OFFSET_TRX_ID")?,
        })
    }

    /// Bytes a data page of `physical_size` bytes can hold (`payload()`).
    pub fn payload(physical_size: usize) -> usize {
        physical_size.saturating_sub(ZLOB_DATA_DATA + FIL_PAGE_DATA_END)
    }

    /// The zlib bytes: `data_len` bytes from offset 49, which must end before the FIL trailer.
    pub fn data<'a>(&self, page: &'a [u8]) -> Result<&'a [u8], FormatError> {
        let len = self.data_len as usize;
        if len > ZlobDataPage::payload(page.len()) {
            return Err(FormatError::BadValue {
                field: "OFFSET_DATA_LEN",
                offset: ZLOB_DATA_DATA_LEN,
                reason: format!(
                    "{len} bytes do not fit in the {} bytes a {}-byte ZLOB data page holds",
                    ZlobDataPage::payload(page.len()),
                    page.len()
                ),
            });
        }
        slice(page, ZLOB_DATA_DATA, len, "ZLOB data page data")
    }

    /// The header's fields at their absolute offsets.
    pub fn fields(&self) -> Vec<Field> {
        vec![
            Field::new(ZLOB_DATA_VERSION, 1, "OFFSET_VERSION", self.version.into()),
            Field::new(
                ZLOB_DATA_DATA_LEN,
                4,
                "OFFSET_DATA_LEN",
                self.data_len.into(),
            ),
            Field::new(ZLOB_DATA_TRX_ID, 6, "OFFSET_TRX_ID", self.trx_id),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_is_bounded_by_the_trailer() {
        let mut page = vec![0u8; 8192];
        page[ZLOB_DATA_DATA_LEN..ZLOB_DATA_DATA_LEN + 4].copy_from_slice(&8135u32.to_be_bytes());
        let h = ZlobDataPage::parse(&page).unwrap();
        assert_eq!(h.data(&page).unwrap().len(), 8135);
        page[ZLOB_DATA_DATA_LEN..ZLOB_DATA_DATA_LEN + 4].copy_from_slice(&8136u32.to_be_bytes());
        assert!(ZlobDataPage::parse(&page).unwrap().data(&page).is_err());
        assert!(ZlobDataPage::parse(&page[..40]).is_err());
        assert_eq!(h.fields().len(), 3);
    }
}

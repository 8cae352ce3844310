//! A data page of an uncompressed MySQL 8.0+ LOB
//! (`FIL_PAGE_TYPE_LOB_DATA` = 23, `lob0pages.h`, `data_page_t`): a
//! version byte, the length of the data on the page and the transaction
//! that wrote it, then the data from offset 49 up to the FIL trailer.

use crate::bytes::slice;
use crate::context::PageContext;
use crate::fil::header::FIL_PAGE_DATA;
use crate::fil::trailer::FIL_PAGE_DATA_END;
use crate::layout::{layout, U48};
use crate::section::Body;
use crate::FormatError;

layout! {
    /// The header of a `FIL_PAGE_TYPE_LOB_DATA` page (absolute offsets 38 to
    /// 49); a ZLOB data page (`z_data_page_t`) has the same.
    pub struct LobDataPage {
        /// Offset 38 (`OFFSET_VERSION`, 1 byte): 0.
        LOB_DATA_VERSION "OFFSET_VERSION" @ FIL_PAGE_DATA => version: u8;
        /// Offset 39 (`OFFSET_DATA_LEN`, 4 bytes): bytes of LOB data on the page.
        LOB_DATA_DATA_LEN "OFFSET_DATA_LEN" @ FIL_PAGE_DATA + 1 => data_len: u32;
        /// Offset 43 (`OFFSET_TRX_ID`, 6 bytes): the transaction that wrote the page.
        LOB_DATA_TRX_ID "OFFSET_TRX_ID" @ FIL_PAGE_DATA + 5 => trx_id: U48;
    }
}

/// Offset 49: `LOB_PAGE_DATA`, where the data begins.
pub const LOB_DATA_DATA: usize = LobDataPage::END;

impl LobDataPage {
    /// Reads the header of a LOB data page image.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        Self::parse_at(page, 0)
    }

    /// Bytes of data a data page of `page_size` bytes can hold (`payload()`).
    pub fn payload(page_size: usize) -> usize {
        page_size.saturating_sub(LOB_DATA_DATA + FIL_PAGE_DATA_END)
    }

    /// The data: `data_len` bytes from offset 49, which must end before the FIL trailer.
    pub fn data<'a>(&self, page: &'a [u8]) -> Result<&'a [u8], FormatError> {
        let len = self.data_len as usize;
        if len > LobDataPage::payload(page.len()) {
            return Err(FormatError::BadValue {
                field: "OFFSET_DATA_LEN",
                offset: LOB_DATA_DATA_LEN,
                reason: format!(
                    "{len} bytes of data do not fit in the {} bytes a {}-byte data page holds",
                    LobDataPage::payload(page.len()),
                    page.len()
                ),
            });
        }
        slice(page, LOB_DATA_DATA, len, "LOB data page data")
    }
}

/// The header section of a LOB data page (ZLOB data pages have the same).
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    body.add(
        "LOB data page header",
        LobDataPage::parse(page).map(|h| h.fields_at(0, ctx)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_is_bounded_by_the_trailer() {
        let mut page = vec![0u8; 16384];
        page[LOB_DATA_DATA_LEN..LOB_DATA_DATA_LEN + 4].copy_from_slice(&16327u32.to_be_bytes());
        let h = LobDataPage::parse(&page).unwrap();
        assert_eq!(h.data(&page).unwrap().len(), 16327);
        assert_eq!(LobDataPage::payload(16384), 16327);
        page[LOB_DATA_DATA_LEN..LOB_DATA_DATA_LEN + 4].copy_from_slice(&16328u32.to_be_bytes());
        let h = LobDataPage::parse(&page).unwrap();
        assert!(h.data(&page).is_err());
        assert!(LobDataPage::parse(&page[..45]).is_err());
        assert_eq!(LOB_DATA_DATA, 49);
        let f = h.fields_at(0, &crate::context::PageContext::default());
        assert_eq!(
            (f[1].name, f[1].offset, f[1].value),
            ("OFFSET_DATA_LEN", 39, 16328)
        );
    }
}

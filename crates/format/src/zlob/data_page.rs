//! A data page of a compressed MySQL 8.0+ LOB (`FIL_PAGE_TYPE_ZLOB_DATA` =
//! 26, `lob0impl.h`, `z_data_page_t`): a version byte, the length of the
//! zlib bytes on the page and the transaction that wrote it, then the bytes
//! from offset 49. A zlib stream continues on the page named by
//! `FIL_PAGE_NEXT`. The header is that of an uncompressed LOB's data page
//! ([`LobDataPage`], declared once there).

use crate::bytes::slice;
use crate::context::PageContext;
use crate::fil::trailer::FIL_PAGE_DATA_END;
pub use crate::lob::data_page::{
    LobDataPage, LOB_DATA_DATA as ZLOB_DATA_DATA, LOB_DATA_DATA_LEN as ZLOB_DATA_DATA_LEN,
    LOB_DATA_TRX_ID as ZLOB_DATA_TRX_ID, LOB_DATA_VERSION as ZLOB_DATA_VERSION,
};
use crate::section::Body;
use crate::FormatError;

/// The header of a `FIL_PAGE_TYPE_ZLOB_DATA` page (offsets 38 to 49).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZlobDataPage {
    /// The header, laid out as a LOB data page's.
    pub header: LobDataPage,
}

impl ZlobDataPage {
    /// Reads the header of a ZLOB data page image.
    pub fn parse(page: &[u8]) -> Result<Self, FormatError> {
        Ok(ZlobDataPage {
            header: LobDataPage::parse_at(page, 0)?,
        })
    }

    /// Bytes a data page of `physical_size` bytes can hold (`payload()`).
    pub fn payload(physical_size: usize) -> usize {
        physical_size.saturating_sub(ZLOB_DATA_DATA + FIL_PAGE_DATA_END)
    }

    /// The zlib bytes: `data_len` bytes from offset 49, which must end before the FIL trailer.
    pub fn data<'a>(&self, page: &'a [u8]) -> Result<&'a [u8], FormatError> {
        let len = self.header.data_len as usize;
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
}

/// The header section of a ZLOB data page.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    body.add(
        "ZLOB data page header",
        LobDataPage::parse_at(page, 0).map(|h| h.fields_at(0, ctx)),
    );
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
    }
}

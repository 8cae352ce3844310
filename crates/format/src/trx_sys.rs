//! TRX_SYS page (system tablespace page 5): for now the doublewrite buffer
//! description, which sits at the same distance from the page end at every
//! page size (`TRX_SYS_DOUBLEWRITE` = size − 200).

use crate::bytes::u32_at;
use crate::field::Field;
use crate::FormatError;
use serde::Serialize;

/// Page number of TRX_SYS in the system tablespace (`TRX_SYS_PAGE_NO`).
pub const TRX_SYS_PAGE_NO: u32 = 5;
/// Absolute offset of the FSEG header of the transaction-system segment
/// (`TRX_SYS` 38 + `TRX_SYS_FSEG_HEADER` 8).
pub const TRX_SYS_FSEG_HEADER: usize = 46;
/// Distance of the doublewrite header from the page end (`TRX_SYS_DOUBLEWRITE`).
pub const TRX_SYS_DOUBLEWRITE_FROM_END: usize = 200;
/// Distance from the page end of the doublewrite segment's FSEG header
/// (`TRX_SYS_DOUBLEWRITE` + `TRX_SYS_DOUBLEWRITE_FSEG` 0).
pub const TRX_SYS_DOUBLEWRITE_FSEG_FROM_END: usize = TRX_SYS_DOUBLEWRITE_FROM_END;
/// `TRX_SYS_DOUBLEWRITE_MAGIC_N`.
pub const TRX_SYS_DOUBLEWRITE_MAGIC_N: u32 = 536_853_855;
/// `TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED_N`.
pub const TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED_N: u32 = 1_783_657_386;

/// The doublewrite buffer header of the TRX_SYS page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Doublewrite {
    /// First page of doublewrite block 1 (`TRX_SYS_DOUBLEWRITE_BLOCK1`).
    pub block1: u32,
    /// First page of doublewrite block 2 (`TRX_SYS_DOUBLEWRITE_BLOCK2`).
    pub block2: u32,
    /// True when `TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED_N` is present.
    pub space_id_stored: bool,
}

impl Doublewrite {
    /// Reads the doublewrite header from a TRX_SYS page; `None` when the
    /// magic numbers are absent (no doublewrite buffer was ever created).
    pub fn parse(page: &[u8]) -> Result<Option<Self>, FormatError> {
        let base = page.len().checked_sub(TRX_SYS_DOUBLEWRITE_FROM_END).ok_or(
            FormatError::OutOfBounds {
                field: "TRX_SYS_DOUBLEWRITE",
                offset: 0,
                len: TRX_SYS_DOUBLEWRITE_FROM_END,
                available: page.len(),
            },
        )?;
        let magic = u32_at(page, base + 10, "TRX_SYS_DOUBLEWRITE_MAGIC")?;
        let magic2 = u32_at(page, base + 22, "TRX_SYS_DOUBLEWRITE_REPEAT")?;
        if magic != TRX_SYS_DOUBLEWRITE_MAGIC_N || magic2 != TRX_SYS_DOUBLEWRITE_MAGIC_N {
            return Ok(None);
        }
        Ok(Some(Doublewrite {
            block1: u32_at(page, base + 14, "TRX_SYS_DOUBLEWRITE_BLOCK1")?,
            block2: u32_at(page, base + 18, "TRX_SYS_DOUBLEWRITE_BLOCK2")?,
            space_id_stored: u32_at(page, base + 34, "TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED")?
                == TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED_N,
        }))
    }

    /// The fields with their offsets on a page of `page_size` bytes.
    pub fn fields(&self, page_size: usize) -> Vec<Field> {
        let base = page_size - TRX_SYS_DOUBLEWRITE_FROM_END;
        vec![
            Field::with_meaning(
                base + 10,
                4,
                "TRX_SYS_DOUBLEWRITE_MAGIC",
                TRX_SYS_DOUBLEWRITE_MAGIC_N.into(),
                "present",
            ),
            Field::new(
                base + 14,
                4,
                "TRX_SYS_DOUBLEWRITE_BLOCK1",
                self.block1.into(),
            ),
            Field::new(
                base + 18,
                4,
                "TRX_SYS_DOUBLEWRITE_BLOCK2",
                self.block2.into(),
            ),
            Field::with_meaning(
                base + 34,
                4,
                "TRX_SYS_DOUBLEWRITE_SPACE_ID_STORED",
                u64::from(self.space_id_stored),
                if self.space_id_stored {
                    "present"
                } else {
                    "absent"
                },
            ),
        ]
    }
}

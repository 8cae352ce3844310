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

/// Absolute offset of `TRX_SYS_TRX_ID_STORE` (`TRX_SYS` 38 + 0): the
/// transaction id counter as last written (8 bytes; MariaDB 10.3+ keeps it
/// in the rollback segment headers instead and may leave this stale).
pub const TRX_SYS_TRX_ID_STORE: usize = 38;
/// Absolute offset of the rollback segment slots (`TRX_SYS` 38 +
/// `TRX_SYS_RSEGS` 18).
pub const TRX_SYS_RSEGS: usize = 56;
/// Number of slots (`TRX_SYS_N_RSEGS`).
pub const TRX_SYS_N_RSEGS: usize = 128;
/// Bytes per slot (`TRX_SYS_RSEG_SLOT_SIZE`): space id, then page number.
pub const TRX_SYS_RSEG_SLOT_SIZE: usize = 8;

/// One used rollback segment slot of the TRX_SYS page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RsegSlot {
    /// Slot number (0–127): the rollback segment id.
    pub id: usize,
    /// `TRX_SYS_RSEG_SPACE` (slot + 0): the tablespace holding its header.
    pub space_id: u32,
    /// `TRX_SYS_RSEG_PAGE_NO` (slot + 4): the header page.
    pub page_no: u32,
}

/// The used rollback segment slots of a TRX_SYS page (a slot whose page
/// number is `FIL_NULL` is unused).
pub fn rseg_slots(page: &[u8]) -> Result<Vec<RsegSlot>, FormatError> {
    let mut out = Vec::new();
    for id in 0..TRX_SYS_N_RSEGS {
        let at = TRX_SYS_RSEGS + id * TRX_SYS_RSEG_SLOT_SIZE;
        let space_id = u32_at(page, at, "TRX_SYS_RSEG_SPACE")?;
        let page_no = u32_at(page, at + 4, "TRX_SYS_RSEG_PAGE_NO")?;
        if page_no != crate::FIL_NULL {
            out.push(RsegSlot {
                id,
                space_id,
                page_no,
            });
        }
    }
    Ok(out)
}

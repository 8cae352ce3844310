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

/// Absolute offset of the transaction system header on the TRX_SYS page
/// (`TRX_SYS` = `FSEG_PAGE_DATA` = 38). The binary log fields below are
/// given relative to it in the server source.
pub const TRX_SYS: usize = 38;
/// Distance of the binary log information from the page end, before adding
/// `TRX_SYS` (`TRX_SYS_MYSQL_LOG_INFO` = page size − 1000): its absolute
/// offset is `TRX_SYS` 38 + page size − 1000, 15422 at 16k, 3134 at 4k.
/// Written by MySQL and by MariaDB before 10.3.5 (which moved it to the
/// rollback segment headers, see
/// [`crate::undo::trx_rseg::TRX_RSEG_BINLOG_OFFSET_FROM_MAX_TRX_ID`]).
pub const TRX_SYS_MYSQL_LOG_INFO_FROM_END: usize = 1000;
/// `TRX_SYS_MYSQL_LOG_MAGIC_N_FLD` (binlog information + 0, 4 bytes): holds
/// [`TRX_SYS_MYSQL_LOG_MAGIC_N`] when the rest is valid.
pub const TRX_SYS_MYSQL_LOG_MAGIC_N_FLD: usize = 0;
/// `TRX_SYS_MYSQL_LOG_OFFSET_HIGH` (binlog information + 4, 4 bytes): high
/// half of the position in the binary log (MariaDB reads offsets +4..+12 as
/// one 8-byte `TRX_SYS_MYSQL_LOG_OFFSET`).
pub const TRX_SYS_MYSQL_LOG_OFFSET_HIGH: usize = 4;
/// `TRX_SYS_MYSQL_LOG_OFFSET_LOW` (binlog information + 8, 4 bytes): low half.
pub const TRX_SYS_MYSQL_LOG_OFFSET_LOW: usize = 8;
/// `TRX_SYS_MYSQL_LOG_NAME` (binlog information + 12): the binary log file
/// name, NUL-terminated, in [`TRX_SYS_MYSQL_LOG_NAME_LEN`] bytes.
pub const TRX_SYS_MYSQL_LOG_NAME: usize = 12;
/// `TRX_SYS_MYSQL_LOG_NAME_LEN`: bytes of the binary log file name field,
/// the terminating NUL included.
pub const TRX_SYS_MYSQL_LOG_NAME_LEN: usize = 512;
/// `TRX_SYS_MYSQL_LOG_MAGIC_N`.
pub const TRX_SYS_MYSQL_LOG_MAGIC_N: u32 = 873_422_344;

/// A binary log position InnoDB recorded at a commit: the binary log file
/// and the offset in it just after the committed transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BinlogPos {
    /// The file name as the server stored it (it may carry a directory).
    pub file: String,
    /// The offset in that file.
    pub offset: u64,
}

/// Absolute offset of the binary log information on a TRX_SYS page of
/// `page_size` bytes (`TRX_SYS` + `TRX_SYS_MYSQL_LOG_INFO`), `None` for a
/// page too small to have it.
pub fn mysql_log_info_offset(page_size: usize) -> Option<usize> {
    (TRX_SYS + page_size).checked_sub(TRX_SYS_MYSQL_LOG_INFO_FROM_END)
}

/// Reads a NUL-terminated string of at most `len` bytes (the NUL included)
/// at `offset`; an error when no NUL ends it within the field.
pub(crate) fn c_string(
    buf: &[u8],
    offset: usize,
    len: usize,
    field: &'static str,
) -> Result<String, FormatError> {
    let b = crate::bytes::slice(buf, offset, len, field)?;
    let end = b
        .iter()
        .position(|&c| c == 0)
        .ok_or_else(|| FormatError::BadValue {
            field,
            offset,
            reason: format!("no terminating NUL within its {len} bytes"),
        })?;
    Ok(String::from_utf8_lossy(b.get(..end).unwrap_or(b)).into_owned())
}

/// The binary log position kept on the TRX_SYS page (MySQL, and MariaDB
/// before 10.3.5): `None` when `TRX_SYS_MYSQL_LOG_MAGIC_N` is absent (no
/// binary log information was ever written, as in MariaDB 10.3.5+ files).
pub fn mysql_log_info(page: &[u8]) -> Result<Option<BinlogPos>, FormatError> {
    let base = mysql_log_info_offset(page.len()).ok_or(FormatError::OutOfBounds {
        field: "TRX_SYS_MYSQL_LOG_INFO",
        offset: 0,
        len: TRX_SYS_MYSQL_LOG_INFO_FROM_END,
        available: page.len(),
    })?;
    let at = |rel: usize| base.saturating_add(rel);
    if u32_at(
        page,
        at(TRX_SYS_MYSQL_LOG_MAGIC_N_FLD),
        "TRX_SYS_MYSQL_LOG_MAGIC_N_FLD",
    )? != TRX_SYS_MYSQL_LOG_MAGIC_N
    {
        return Ok(None);
    }
    let high = u32_at(
        page,
        at(TRX_SYS_MYSQL_LOG_OFFSET_HIGH),
        "TRX_SYS_MYSQL_LOG_OFFSET_HIGH",
    )?;
    let low = u32_at(
        page,
        at(TRX_SYS_MYSQL_LOG_OFFSET_LOW),
        "TRX_SYS_MYSQL_LOG_OFFSET_LOW",
    )?;
    Ok(Some(BinlogPos {
        file: c_string(
            page,
            at(TRX_SYS_MYSQL_LOG_NAME),
            TRX_SYS_MYSQL_LOG_NAME_LEN,
            "TRX_SYS_MYSQL_LOG_NAME",
        )?,
        offset: (u64::from(high) << 32) | u64::from(low),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binlog_info_is_read_at_page_size_minus_1000_past_trx_sys() {
        let mut page = vec![0u8; 16384];
        assert_eq!(mysql_log_info(&page), Ok(None), "no magic, no information");
        let base = 38 + 16384 - 1000;
        assert_eq!(mysql_log_info_offset(16384), Some(15422));
        page[base..base + 4].copy_from_slice(&TRX_SYS_MYSQL_LOG_MAGIC_N.to_be_bytes());
        page[base + 4..base + 8].copy_from_slice(&1u32.to_be_bytes());
        page[base + 8..base + 12].copy_from_slice(&7u32.to_be_bytes());
        page[base + 12..base + 12 + 9].copy_from_slice(b"bin.00003");
        assert_eq!(
            mysql_log_info(&page),
            Ok(Some(BinlogPos {
                file: "bin.00003".into(),
                offset: (1 << 32) | 7
            }))
        );
        // A name with no NUL in its 512 bytes is an error, not a panic.
        page[base + 12..base + 12 + 512].fill(b'x');
        assert!(matches!(
            mysql_log_info(&page),
            Err(FormatError::BadValue { .. })
        ));
        // A page too short for the field.
        assert!(mysql_log_info(&page[..500]).is_err());
    }
}

//! The reduced doublewrite file of `innodb_doublewrite=DETECT_ONLY`
//! (MySQL 8.0.30+, `#ib_<innodb_page_size>_0.bdblwr`): 8 KiB batch pages,
//! whatever the page size, one per doublewrite instance. Each batch page
//! is a 20-byte header and, after it, one 16-byte entry per page of the
//! batch: which page was written, at which LSN. No page image is kept, so
//! a torn page can be detected at recovery but not repaired.

use crate::context::PageContext;
use crate::field::Pointer;
use crate::layout::layout;
use crate::section::Body;
use crate::FormatError;

/// Bytes of one batch page (`REDUCED_BATCH_PAGE_SIZE`), at every page size.
pub const REDUCED_BATCH_PAGE_SIZE: usize = 8192;
/// Bytes of the batch page header (`REDUCED_HEADER_SIZE`).
pub const REDUCED_HEADER_SIZE: usize = 20;
/// Bytes of one entry (`REDUCED_ENTRY_SIZE`: space id, page number, LSN).
pub const REDUCED_ENTRY_SIZE: usize = 16;
/// Bytes after the header (`REDUCED_DATA_SIZE`).
pub const REDUCED_DATA_SIZE: usize = REDUCED_BATCH_PAGE_SIZE - REDUCED_HEADER_SIZE;
/// Entries a batch page holds at most (`REDUCED_MAX_ENTRIES`).
pub const REDUCED_MAX_ENTRIES: usize = REDUCED_DATA_SIZE / REDUCED_ENTRY_SIZE;
/// Offset 11 (`RB_OFF_UNUSED`, 9 bytes): zero.
pub const RB_OFF_UNUSED: usize = 11;

layout! {
    /// The header of a batch page (absolute offsets).
    pub struct ReducedHeader {
        /// Offset 0 (`RB_OFF_BATCH_ID`, 4 bytes): the batch segment's id.
        RB_OFF_BATCH_ID @ 0 => batch_id: u32;
        /// Offset 4 (`RB_OFF_CHECKSUM`, 4 bytes): CRC-32C of the `data_len`
        /// bytes after the header.
        RB_OFF_CHECKSUM @ 4 => checksum: u32;
        /// Offset 8 (`RB_OFF_DATA_LEN`, 2 bytes): bytes of entries, a
        /// multiple of 16.
        RB_OFF_DATA_LEN @ 8 => data_len: u16;
        /// Offset 10 (`RB_OFF_BATCH_TYPE`, 1 byte): the flush type
        /// (`buf_flush_t`: 0 LRU, 1 flush list, 2 single page).
        RB_OFF_BATCH_TYPE @ 10 => batch_type: u8, shows show_flush_type;
    }
}

layout! {
    /// One entry (`Reduced_entry`), relative to its start: a page written
    /// to its tablespace by the batch.
    pub struct ReducedEntry {
        /// Offset 0 (`m_space_id`, 4 bytes): the tablespace.
        REDUCED_ENTRY_SPACE_ID "m_space_id" @ 0 => space_id: u32;
        /// Offset 4 (`m_page_no`, 4 bytes): the page.
        REDUCED_ENTRY_PAGE_NO "m_page_no" @ 4 => page_no: u32;
        /// Offset 8 (`m_lsn`, 8 bytes): the page's `FIL_PAGE_LSN` as written.
        REDUCED_ENTRY_LSN "m_lsn" @ 8 => lsn: u64;
    }
}

fn show_flush_type(v: &u8, _: &PageContext) -> Option<String> {
    Some(
        match v {
            0 => "LRU",
            1 => "flush list",
            2 => "single page",
            _ => "not a flush type",
        }
        .to_string(),
    )
}

/// A batch page as read: its header, its entries, and whether the checksum
/// over the entries matches.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct ReducedPage {
    /// The header.
    pub header: ReducedHeader,
    /// CRC-32C of the entries as computed.
    pub computed_checksum: u32,
    /// The entries, in the order written.
    pub entries: Vec<ReducedEntry>,
}

impl ReducedPage {
    /// Reads a batch page that is not all zero. Errors name the header field
    /// whose value no batch page can have (`RB_OFF_DATA_LEN` 0, not a multiple
    /// of 16 or past the page, as the server's `parse_header` refuses it).
    pub fn parse(page: &[u8]) -> Result<ReducedPage, FormatError> {
        let header = ReducedHeader::parse_at(page, 0)?;
        let len = usize::from(header.data_len);
        let bad = |reason: String| FormatError::BadValue {
            field: "RB_OFF_DATA_LEN",
            offset: RB_OFF_DATA_LEN,
            reason,
        };
        if len == 0 || len % REDUCED_ENTRY_SIZE != 0 {
            return Err(bad(format!(
                "{len} bytes of entries: not a positive multiple of {REDUCED_ENTRY_SIZE}"
            )));
        }
        if len > REDUCED_DATA_SIZE {
            return Err(bad(format!(
                "{len} bytes of entries: more than the {REDUCED_DATA_SIZE} a batch page holds"
            )));
        }
        let data = crate::bytes::slice(page, REDUCED_HEADER_SIZE, len, "RB_OFF_DATA_LEN")?;
        let entries = (0..len / REDUCED_ENTRY_SIZE)
            .map(|i| ReducedEntry::parse_at(page, REDUCED_HEADER_SIZE + i * REDUCED_ENTRY_SIZE))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ReducedPage {
            header,
            computed_checksum: crate::checksum::crc32c::crc32c(data),
            entries,
        })
    }

    /// True when the stored checksum is the one computed: the server's
    /// recovery refuses a batch page whose checksum does not match.
    pub fn checksum_ok(&self) -> bool {
        self.header.checksum == self.computed_checksum
    }
}

/// The sections of a batch page: its header, then each entry.
pub fn sections(page: &[u8], ctx: &PageContext, body: &mut Body) {
    let Some(header) = body.keep(ReducedHeader::parse_at(page, 0)) else {
        return;
    };
    let mut fields = header.fields_at(0, ctx);
    let len = usize::from(header.data_len).min(REDUCED_DATA_SIZE);
    if let Ok(data) = crate::bytes::slice(page, REDUCED_HEADER_SIZE, len, "RB_OFF_DATA_LEN") {
        let computed = crate::checksum::crc32c::crc32c(data);
        if let Some(f) = fields.iter_mut().find(|f| f.name == "RB_OFF_CHECKSUM") {
            f.meaning = Some(if computed == header.checksum {
                "matches the entries".to_string()
            } else {
                format!("the entries give 0x{computed:08x}")
            });
        }
    }
    body.push("reduced doublewrite batch page header", fields);
    for i in 0..len / REDUCED_ENTRY_SIZE {
        let at = REDUCED_HEADER_SIZE + i * REDUCED_ENTRY_SIZE;
        let Some(e) = body.keep(ReducedEntry::parse_at(page, at)) else {
            break;
        };
        let mut fields = e.fields_at(at, ctx);
        // The page number leads to the page the entry names.
        if let Some(f) = fields.iter_mut().find(|f| f.name == "m_page_no") {
            f.pointer = Some(Pointer::SpacePage {
                space: e.space_id,
                page: e.page_no,
            });
        }
        body.push(format!("entry {i} at {at}"), fields);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch page built by hand (crafted: no server run here used
    /// DETECT_ONLY) the way `Reduced_double_write::write_dblwr_pages` lays it.
    fn crafted(entries: &[(u32, u32, u64)]) -> Vec<u8> {
        let mut p = vec![0u8; REDUCED_BATCH_PAGE_SIZE];
        let mut at = REDUCED_HEADER_SIZE;
        for (s, n, l) in entries {
            p[at..at + 4].copy_from_slice(&s.to_be_bytes());
            p[at + 4..at + 8].copy_from_slice(&n.to_be_bytes());
            p[at + 8..at + 16].copy_from_slice(&l.to_be_bytes());
            at += 16;
        }
        let len = at - REDUCED_HEADER_SIZE;
        let crc = crate::checksum::crc32c::crc32c(&p[REDUCED_HEADER_SIZE..at]);
        p[0..4].copy_from_slice(&7u32.to_be_bytes());
        p[4..8].copy_from_slice(&crc.to_be_bytes());
        p[8..10].copy_from_slice(&(len as u16).to_be_bytes());
        p[10] = 1;
        p
    }

    #[test]
    fn offsets_are_buf0dblwr_h() {
        assert_eq!(
            (
                RB_OFF_BATCH_ID,
                RB_OFF_CHECKSUM,
                RB_OFF_DATA_LEN,
                RB_OFF_BATCH_TYPE
            ),
            (0, 4, 8, 10)
        );
        assert_eq!(ReducedHeader::END, RB_OFF_UNUSED);
        assert_eq!(RB_OFF_UNUSED + 9, REDUCED_HEADER_SIZE);
        assert_eq!(ReducedEntry::END, REDUCED_ENTRY_SIZE);
        assert_eq!(REDUCED_MAX_ENTRIES, 510);
    }

    #[test]
    fn a_batch_page_reads_and_verifies() {
        let mut p = crafted(&[(5, 3, 1000), (0, 7, 1200)]);
        let r = ReducedPage::parse(&p).unwrap();
        assert!(r.checksum_ok());
        assert_eq!(r.header.batch_id, 7);
        assert_eq!(
            r.entries
                .iter()
                .map(|e| (e.space_id, e.page_no, e.lsn))
                .collect::<Vec<_>>(),
            [(5, 3, 1000), (0, 7, 1200)]
        );
        let mut body = Body::default();
        sections(&p, &PageContext::default(), &mut body);
        assert_eq!(body.sections.len(), 3);
        assert_eq!(
            body.sections[0].fields[1].meaning.as_deref(),
            Some("matches the entries")
        );
        assert_eq!(
            body.sections[1].fields[1].pointer,
            Some(Pointer::SpacePage { space: 5, page: 3 })
        );
        // A changed entry: the checksum no longer matches.
        p[REDUCED_HEADER_SIZE + 15] ^= 1;
        assert!(!ReducedPage::parse(&p).unwrap().checksum_ok());
        // A length no batch page has.
        p[8..10].copy_from_slice(&17u16.to_be_bytes());
        assert!(matches!(
            ReducedPage::parse(&p),
            Err(FormatError::BadValue {
                field: "RB_OFF_DATA_LEN",
                offset: 8,
                ..
            })
        ));
        p[8..10].copy_from_slice(&9000u16.to_be_bytes());
        assert!(ReducedPage::parse(&p).is_err());
        assert!(ReducedPage::parse(&p[..10]).is_err());
    }
}

//! A fragment of a compressed MySQL 8.0+ LOB's fragment page (`lob0impl.h`,
//! `frag_node_t`): a page list node, the fragment's total length (header
//! included) and its fragment id, then the payload from offset 8 within the
//! fragment. A zlib stream too short for a data page of its own ends in a
//! fragment.

use crate::bytes::slice;
use crate::layout::layout;
use crate::zlob::plist::PlistNode;
use crate::FormatError;

layout! {
    /// The header of one fragment (`frag_node_t`, 8 bytes before the
    /// payload, offsets from the fragment's start).
    pub struct ZlobFragNode {
        /// Offset 0 (`plist_node_t`, 4 bytes): the previous and next fragment of the same list.
        FRAG_NODE_PLIST "plist_node_t" @ 0 => node: PlistNode;
        /// Offset 4 (`OFFSET_LEN`, 2 bytes): the fragment's length including this 8-byte header.
        FRAG_NODE_LEN "OFFSET_LEN" @ 4 => total_len: u16;
        /// Offset 6 (`OFFSET_FRAG_ID`, 2 bytes): the fragment id (`FRAG_ID_NULL` when free).
        FRAG_NODE_FRAG_ID "OFFSET_FRAG_ID" @ 6 => frag_id: u16;
    }
}

/// Offset 8: `OFFSET_DATA`, where the payload begins.
pub const FRAG_NODE_DATA: usize = ZlobFragNode::END;

impl ZlobFragNode {
    /// Bytes of payload (`payload()`: the total length less the 8-byte header).
    pub fn payload_len(&self, offset: usize) -> Result<usize, FormatError> {
        usize::from(self.total_len)
            .checked_sub(FRAG_NODE_DATA)
            .ok_or_else(|| FormatError::BadValue {
                field: "OFFSET_LEN",
                offset: offset + FRAG_NODE_LEN,
                reason: format!(
                    "a fragment of {} bytes is shorter than its 8-byte header",
                    self.total_len
                ),
            })
    }

    /// The payload of the fragment starting at absolute `offset` of `page`.
    pub fn payload<'a>(&self, page: &'a [u8], offset: usize) -> Result<&'a [u8], FormatError> {
        let len = self.payload_len(offset)?;
        slice(page, offset + FRAG_NODE_DATA, len, "frag_node_t data")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_fragment() {
        let mut page = vec![0u8; 64];
        page[10..18].copy_from_slice(&[0, 0, 0, 0, 0, 20, 0, 3]);
        let f = ZlobFragNode::parse_at(&page, 10).unwrap();
        assert_eq!((f.total_len, f.frag_id), (20, 3));
        assert_eq!(f.payload(&page, 10).unwrap().len(), 12);
        page[15] = 60; // runs past the page
        let f = ZlobFragNode::parse_at(&page, 10).unwrap();
        assert!(f.payload(&page, 10).is_err());
        page[15] = 4; // shorter than the header
        let f = ZlobFragNode::parse_at(&page, 10).unwrap();
        assert!(f.payload_len(10).is_err());
        assert!(ZlobFragNode::parse_at(&page, 60).is_err());
    }
}

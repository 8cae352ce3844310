//! Findings: problems on a page that are reported while the scan goes on.

use serde::Serialize;

/// What kind of problem a finding is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// No checksum algorithm matches the page.
    BadChecksum,
    /// The LSN low word in the trailer differs from the header's LSN.
    LsnMismatch,
    /// `FIL_PAGE_OFFSET` differs from the page's position in the file.
    PageNumberMismatch,
    /// `FIL_PAGE_SPACE_ID` differs from the tablespace id.
    SpaceIdMismatch,
    /// A page type no server defines.
    UnknownPageType,
    /// The checksum cannot be verified (encrypted page, unsupported compression).
    Unverifiable,
    /// A page-compressed frame could not be inflated.
    Decompression,
    /// The file length is not a multiple of the page size.
    TrailingBytes,
    /// Page 0 is damaged or disagrees with the file.
    Page0,
    /// A header field could not be read.
    Unreadable,
    /// A file list is broken: a cycle, a pointer to where no node can be, or
    /// a length or last node that disagrees with its base.
    BrokenList,
    /// An extent descriptor disagrees with the list it is on or with its segment.
    ExtentState,
    /// A stored count (`FSEG_NOT_FULL_N_USED`, `FSP_FRAG_N_USED`) disagrees
    /// with the pages it counts.
    CountMismatch,
    /// A file-segment INODE entry or page is damaged.
    BadInode,
    /// Two owners claim the same page.
    PageClaimedTwice,
    /// A page's content disagrees with who owns it (an INDEX page no segment
    /// owns, a page of one index inside another's segment, a used structure
    /// on a page marked free).
    OwnershipMismatch,
    /// An index page's own structure is inconsistent (the server's
    /// `page_validate` checks): a record list that loops or leaves the
    /// record heap, a directory slot out of place, an `n_owned`,
    /// `PAGE_N_RECS`, `PAGE_N_HEAP` or `PAGE_HEAP_TOP` that disagrees with
    /// the records, records that overlap.
    BadIndexPage,
    /// The file changed length while it was read (another process truncated
    /// or extended it): what was read may mix two states of the file.
    FileChanged,
}

impl FindingKind {
    /// The kind's name as serialised (`bad_checksum`, `broken_list`, …).
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::BadChecksum => "bad_checksum",
            FindingKind::LsnMismatch => "lsn_mismatch",
            FindingKind::PageNumberMismatch => "page_number_mismatch",
            FindingKind::SpaceIdMismatch => "space_id_mismatch",
            FindingKind::UnknownPageType => "unknown_page_type",
            FindingKind::Unverifiable => "unverifiable",
            FindingKind::Decompression => "decompression",
            FindingKind::TrailingBytes => "trailing_bytes",
            FindingKind::Page0 => "page0",
            FindingKind::Unreadable => "unreadable",
            FindingKind::BrokenList => "broken_list",
            FindingKind::ExtentState => "extent_state",
            FindingKind::CountMismatch => "count_mismatch",
            FindingKind::BadInode => "bad_inode",
            FindingKind::PageClaimedTwice => "page_claimed_twice",
            FindingKind::OwnershipMismatch => "ownership_mismatch",
            FindingKind::BadIndexPage => "bad_index_page",
            FindingKind::FileChanged => "file_changed",
        }
    }
}

/// One problem, located as precisely as the format allows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Finding {
    /// What kind of problem.
    pub kind: FindingKind,
    /// Page number (position in the file), if the problem is on a page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
    /// Byte offset within the page (or the file, for file-level findings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<usize>,
    /// The field concerned, as named in the server source.
    pub field: &'static str,
    /// What is wrong, in words.
    pub message: String,
}

impl Finding {
    /// A finding on a page.
    pub fn on_page(
        kind: FindingKind,
        page: u32,
        offset: usize,
        field: &'static str,
        message: impl Into<String>,
    ) -> Self {
        Finding {
            kind,
            page: Some(page),
            offset: Some(offset),
            field,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(p) = self.page {
            write!(f, "page {p}")?;
            if let Some(o) = self.offset {
                write!(f, ", offset {o}")?;
            }
            write!(f, ", ")?;
        } else if let Some(o) = self.offset {
            write!(f, "offset {o}, ")?;
        }
        write!(f, "{}: {}", self.field, self.message)
    }
}

//! Page size and layout detection: from page 0, or, when page 0 is damaged,
//! by probing which page size makes the following pages carry their own
//! page number and a valid checksum (the way the server's own
//! `Datafile::find_space_id` votes).

use innodb_format::checksum::{verify, ChecksumLayout, ChecksumVerdict};
use innodb_format::fil_header::{FilHeader, FIL_PAGE_OFFSET};
use innodb_format::fsp_header::FSP_SPACE_FLAGS;
use innodb_format::space_format::SpaceFormat;
use innodb_format::FormatError;

/// Page sizes InnoDB uses, most common first (the probe order).
pub const PAGE_SIZES: [usize; 7] = [16384, 8192, 4096, 32768, 65536, 2048, 1024];

/// How many pages after page 0 the probe looks at.
const PROBE_PAGES: usize = 64;

/// Why page 0 cannot be used: the offending field and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page0Problem {
    /// Offset of the field on page 0.
    pub offset: usize,
    /// The field.
    pub field: &'static str,
    /// What is wrong.
    pub reason: String,
}

impl From<FormatError> for Page0Problem {
    fn from(e: FormatError) -> Self {
        let (field, offset) = match &e {
            FormatError::OutOfBounds { field, offset, .. }
            | FormatError::Decompress { field, offset, .. }
            | FormatError::BadValue { field, offset, .. } => (*field, *offset),
        };
        Page0Problem {
            offset,
            field,
            reason: e.to_string(),
        }
    }
}

/// Reads the format from page 0 at the start of `file`.
pub fn from_page0(file: &[u8]) -> Result<SpaceFormat, Page0Problem> {
    let fil = FilHeader::parse(file)?;
    if fil.page_no != 0 {
        return Err(Page0Problem {
            offset: FIL_PAGE_OFFSET,
            field: "FIL_PAGE_OFFSET",
            reason: format!("page 0 says it is page {}", fil.page_no),
        });
    }
    let format = SpaceFormat::from_page0(file)?;
    if format.physical_page_size() > file.len() {
        return Err(Page0Problem {
            offset: FSP_SPACE_FLAGS,
            field: "FSP_SPACE_FLAGS",
            reason: format!(
                "flags give a {}-byte page but the file has only {} bytes",
                format.physical_page_size(),
                file.len()
            ),
        });
    }
    Ok(format)
}

/// The layout under which a page verifies, if any (all-zero pages give none).
fn layout_of(page: &[u8]) -> Option<ChecksumLayout> {
    [
        ChecksumLayout::FullCrc32,
        ChecksumLayout::Classic,
        ChecksumLayout::Zip,
    ]
    .into_iter()
    .find(|&l| matches!(verify(page, l), ChecksumVerdict::Valid { .. }))
}

/// Probes page sizes (only `size` when given): the size under which most of
/// the first pages after page 0 carry their own number and a valid checksum.
pub fn probe(file: &[u8], size: Option<usize>) -> Option<SpaceFormat> {
    let candidates: &[usize] = match size {
        Some(ref s) => std::slice::from_ref(s),
        None => &PAGE_SIZES,
    };
    let mut best: Option<(usize, usize, ChecksumLayout)> = None;
    for &ps in candidates {
        let mut votes = [0usize; 3];
        let pages = (file.len() / ps).min(PROBE_PAGES + 1);
        for n in 1..pages {
            let page = &file[n * ps..(n + 1) * ps];
            let Ok(fil) = FilHeader::parse(page) else {
                continue;
            };
            if fil.page_no as usize != n {
                continue;
            }
            match layout_of(page) {
                Some(ChecksumLayout::FullCrc32) => votes[0] += 1,
                Some(ChecksumLayout::Classic) => votes[1] += 1,
                Some(ChecksumLayout::Zip) => votes[2] += 1,
                None => {}
            }
        }
        let (i, &v) = votes.iter().enumerate().max_by_key(|(_, &v)| v)?;
        let layout = [
            ChecksumLayout::FullCrc32,
            ChecksumLayout::Classic,
            ChecksumLayout::Zip,
        ][i];
        if v > 0 && best.is_none_or(|(_, bv, _)| v > bv) {
            best = Some((ps, v, layout));
        }
    }
    best.map(|(ps, _, layout)| {
        // A compressed page does not tell the server's page size; 16k is the default.
        let logical = if layout == ChecksumLayout::Zip {
            16384.max(ps)
        } else {
            ps
        };
        SpaceFormat::assumed(ps, logical, layout)
    })
}

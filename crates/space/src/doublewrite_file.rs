//! MySQL 8.0.20+'s doublewrite files, opened read-only: `#ib_16384_0.dblwr`
//! (slots of page copies, see [`innodb_format::dblwr`]) and the reduced
//! batch file `#ib_16384_0.bdblwr` of `innodb_doublewrite=DETECT_ONLY`
//! (8 KiB batch pages of entries). A doublewrite file is recognised from
//! its name, or, renamed, from its content ([`detect::copies_of_other_pages`]);
//! it is never read as a tablespace.

use crate::detect::{self, CopiesSeen, DOUBLEWRITE_PAGE_SIZES};
use crate::finding::{Finding, FindingKind};
use crate::source::{Source, GZ_LIMIT_DEFAULT};
use crate::OpenOptions;
use crate::SpaceError;
use innodb_format::checksum::{
    self, ChecksumAlgorithm, ChecksumLayout, ChecksumValue, ChecksumVerdict,
};
use innodb_format::dblwr::reduced::REDUCED_BATCH_PAGE_SIZE;
use innodb_format::dblwr::reduced::{ReducedPage, RB_OFF_CHECKSUM};
use innodb_format::dblwr::SYNC_PAGE_FLUSH_SLOTS;
use innodb_format::fil::header::FilHeader;
use innodb_format::fil::page_type::PageType;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The most of a doublewrite file that is read: 1 GiB (the server's are tens
/// of MiB: 2 × `innodb_doublewrite_pages` + 512 slots per file by default).
pub const MAX_READ: usize = 1 << 30;

/// What a doublewrite file's name says: `#ib_<page size>_<number>.dblwr`
/// (or `.bdblwr`), with `.gz` for a gzip copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DoublewriteName {
    /// `innodb_page_size` of the server that wrote it.
    pub page_size: usize,
    /// The file's number (`m_id`: 0, 1, …).
    pub number: u32,
    /// True for the reduced batch file (`.bdblwr`).
    pub reduced: bool,
}

/// Reads a doublewrite file's name (its last component, `.gz` allowed), as
/// the server's recovery matches it (`#ib_([0-9]+)_([0-9]+)\.dblwr`).
pub fn parse_name(file_name: &str) -> Option<DoublewriteName> {
    let name = file_name.strip_suffix(".gz").unwrap_or(file_name);
    let (stem, reduced) = match name.strip_suffix(".bdblwr") {
        Some(s) => (s, true),
        None => (name.strip_suffix(".dblwr")?, false),
    };
    let (size, number) = stem.strip_prefix("#ib_")?.split_once('_')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(size) || !digits(number) {
        return None;
    }
    Some(DoublewriteName {
        page_size: size.parse().ok()?,
        number: number.parse().ok()?,
        reduced,
    })
}

/// Which kind of doublewrite file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DoublewriteKind {
    /// `.dblwr`: slots of page copies.
    Pages,
    /// `.bdblwr`: batch pages of entries (`innodb_doublewrite=DETECT_ONLY`).
    Reduced,
}

/// How the slot size was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SlotSizeSource {
    /// The file's name.
    Name,
    /// The copies in it: they verify in slots of this size.
    Content,
    /// `--page-size`.
    User,
}

/// Which part of a `.dblwr` file a slot is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SlotArea {
    /// A batch segment: the page cleaners' batches.
    Batch,
    /// The slots of single-page flushes, after the batch segments.
    SinglePage,
}

/// An open doublewrite file.
#[derive(Debug)]
pub struct DoublewriteFile {
    path: PathBuf,
    /// The file's bytes, read at open (at most [`MAX_READ`]).
    data: Vec<u8>,
    inflated_from_gzip: bool,
    name: Option<DoublewriteName>,
    kind: DoublewriteKind,
    slot_size: usize,
    slot_size_source: SlotSizeSource,
    slot_count: u32,
    single_page_slots: u32,
    findings: Vec<Finding>,
}

/// How a copy in a slot verifies when read on its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CopyCheck {
    /// The verdict.
    pub verdict: ChecksumVerdict,
    /// Bytes of the copy: the slot, or the KEY_BLOCK_SIZE of a
    /// ROW_FORMAT=COMPRESSED page at the slot's start.
    pub size: usize,
}

impl DoublewriteFile {
    /// Opens `path`, a doublewrite file by its name or by its content;
    /// `options.page_size` (`--page-size`) overrides the slot size of a
    /// `.dblwr`. A `.gz` copy is inflated up to `options.gz_limit`, else
    /// [`GZ_LIMIT_DEFAULT`] (a doublewrite file has no FSP_SIZE to bound it).
    pub fn open(path: impl AsRef<Path>, options: &OpenOptions) -> Result<Self, SpaceError> {
        let page_size = options.page_size;
        let path = path.as_ref().to_path_buf();
        let name = path
            .file_name()
            .and_then(|n| parse_name(&n.to_string_lossy()));
        let source = Source::open(&path, Some(options.gz_limit.unwrap_or(GZ_LIMIT_DEFAULT)))?;
        let data = source.head(MAX_READ).map_err(|e| SpaceError::Io {
            path: path.clone(),
            source: e,
        })?;
        let bytes = data.as_slice();
        let mut findings = Vec::new();
        if source.len() > data.len() as u64 {
            findings.push(Finding {
                kind: FindingKind::TrailingBytes,
                page: None,
                offset: Some(data.len()),
                field: "file size",
                message: format!(
                    "the file has {} bytes; only the first {} are read (no doublewrite file of the server is that large)",
                    source.len(),
                    data.len()
                ),
            });
        }
        let seen = (name.is_none())
            .then(|| detect::copies_of_other_pages(bytes, &DOUBLEWRITE_PAGE_SIZES))
            .flatten();
        if name.is_none() && seen.is_none() {
            return Err(SpaceError::NotDoublewrite {
                path,
                reason: "its name is not #ib_<page size>_<n>.dblwr and its first pages are not copies of pages of other places".into(),
            });
        }
        let kind = if name.is_some_and(|n| n.reduced) {
            DoublewriteKind::Reduced
        } else {
            DoublewriteKind::Pages
        };
        let (slot_size, slot_size_source) = match (kind, page_size, name, seen) {
            (DoublewriteKind::Reduced, ..) => (REDUCED_BATCH_PAGE_SIZE, SlotSizeSource::Name),
            (_, Some(given), ..) => (given, SlotSizeSource::User),
            (_, None, Some(n), _) => name_or_content(bytes, n, &mut findings),
            (_, None, None, Some(s)) => (s.page_size, SlotSizeSource::Content),
            (_, None, None, None) => (16384, SlotSizeSource::Content),
        };
        let len = bytes.len();
        if len % slot_size != 0 {
            findings.push(Finding {
                kind: FindingKind::TrailingBytes,
                page: None,
                offset: Some(len - len % slot_size),
                field: "file size",
                message: format!(
                    "file size {len} is not a multiple of the {slot_size}-byte slot; the last {} bytes are not a slot (the server ignores them too)",
                    len % slot_size
                ),
            });
        }
        if len == 0 {
            findings.push(Finding {
                kind: FindingKind::TrailingBytes,
                page: None,
                offset: Some(0),
                field: "file size",
                message: "empty file: no slot (the server fills it with zeros when it starts)"
                    .into(),
            });
        }
        let slot_count = u32::try_from(len / slot_size).unwrap_or(u32::MAX);
        let single_page_slots = match (kind, name) {
            (DoublewriteKind::Pages, Some(n)) => single_page_slots(&path, n).min(slot_count),
            _ => 0,
        };
        Ok(DoublewriteFile {
            inflated_from_gzip: source.inflated_from_gzip,
            data,
            path,
            name,
            kind,
            slot_size,
            slot_size_source,
            slot_count,
            single_page_slots,
            findings,
        })
    }

    /// The file's path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What its name says, when it has a doublewrite file's name.
    pub fn name(&self) -> Option<DoublewriteName> {
        self.name
    }

    /// `.dblwr` or `.bdblwr`.
    pub fn kind(&self) -> DoublewriteKind {
        self.kind
    }

    /// Bytes of a slot: `innodb_page_size`, or 8 KiB for a `.bdblwr`.
    pub fn slot_size(&self) -> usize {
        self.slot_size
    }

    /// How the slot size was decided.
    pub fn slot_size_source(&self) -> SlotSizeSource {
        self.slot_size_source
    }

    /// Whole slots in the file.
    pub fn slot_count(&self) -> u32 {
        self.slot_count
    }

    /// Slots of single-page flushes at the end of the file (0 for the
    /// even-numbered files when there are several, and for `.bdblwr`).
    pub fn single_page_slots(&self) -> u32 {
        self.single_page_slots
    }

    /// Which part of the file slot `n` is in.
    pub fn area(&self, n: u32) -> SlotArea {
        if n >= self.slot_count.saturating_sub(self.single_page_slots) {
            SlotArea::SinglePage
        } else {
            SlotArea::Batch
        }
    }

    /// Problems found while opening (size, a name that disagrees with the content).
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// True when the file was gzip-compressed.
    pub fn inflated_from_gzip(&self) -> bool {
        self.inflated_from_gzip
    }

    /// Byte offset of slot `n` in the file.
    pub fn slot_offset(&self, n: u32) -> u64 {
        u64::from(n) * self.slot_size as u64
    }

    /// The bytes of slot `n`.
    pub fn slot(&self, n: u32) -> Result<&[u8], SpaceError> {
        let start = n as usize * self.slot_size;
        match self.data.get(start..start + self.slot_size) {
            Some(s) if n < self.slot_count => Ok(s),
            _ => Err(SpaceError::NoSuchPage {
                path: self.path.clone(),
                page: n.into(),
                page_count: self.slot_count,
            }),
        }
    }

    /// Every whole slot with its number, in file order.
    pub fn slots(&self) -> impl Iterator<Item = (u32, &[u8])> {
        self.data
            .chunks_exact(self.slot_size)
            .take(self.slot_count as usize)
            .enumerate()
            .map(|(i, s)| (i as u32, s))
    }
}

/// The slot size of a named `.dblwr`: its name's page size, unless the
/// copies verify only in slots of another size (a renamed file, or a name
/// that lies), which is then used and said.
fn name_or_content(
    bytes: &[u8],
    name: DoublewriteName,
    findings: &mut Vec<Finding>,
) -> (usize, SlotSizeSource) {
    let named = name.page_size;
    let verifying = |ps: usize| {
        bytes
            .chunks_exact(ps)
            .take(detect::PROBE_PAGES)
            .filter(|s| !innodb_format::bytes::is_all_zero(s))
            .filter(|s| verify_copy(s).verdict.is_ok())
            .count()
    };
    let named_ok = DOUBLEWRITE_PAGE_SIZES.contains(&named) && verifying(named) > 0;
    if named_ok {
        return (named, SlotSizeSource::Name);
    }
    let best = DOUBLEWRITE_PAGE_SIZES
        .iter()
        .map(|&ps| (ps, verifying(ps)))
        .filter(|&(_, n)| n > 0)
        .max_by_key(|&(_, n)| n);
    match best {
        Some((ps, n)) => {
            findings.push(Finding {
                kind: FindingKind::Page0,
                page: None,
                offset: Some(0),
                field: "file name",
                message: format!(
                    "the name gives {named}-byte pages but no copy verifies in slots of that size; {n} of the first {} slots verify as {ps}-byte pages, which are used",
                    detect::PROBE_PAGES
                ),
            });
            (ps, SlotSizeSource::Content)
        }
        None if DOUBLEWRITE_PAGE_SIZES.contains(&named) => (named, SlotSizeSource::Name),
        None => {
            findings.push(Finding {
                kind: FindingKind::Page0,
                page: None,
                offset: Some(0),
                field: "file name",
                message: format!(
                    "the name gives {named}-byte pages, not an innodb_page_size, and no slot verifies at any page size; read in 16384-byte slots"
                ),
            });
            (16384, SlotSizeSource::Content)
        }
    }
}

/// Slots of single-page flushes in the named `.dblwr` at `path`: with one
/// `.dblwr` of its page size beside it all [`SYNC_PAGE_FLUSH_SLOTS`], with
/// several the odd-numbered ones share them (`dblwr::open`).
fn single_page_slots(path: &Path, name: DoublewriteName) -> u32 {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let files = std::fs::read_dir(dir.unwrap_or(Path::new(".")))
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| parse_name(&e.file_name().to_string_lossy()))
                .filter(|n| !n.reduced && n.page_size == name.page_size)
                .map(|n| n.number)
                .collect::<std::collections::BTreeSet<u32>>()
                .len() as u32
        })
        .unwrap_or(1)
        .max(1);
    if files == 1 {
        SYNC_PAGE_FLUSH_SLOTS
    } else if name.number % 2 == 1 {
        SYNC_PAGE_FLUSH_SLOTS / (files / 2)
    } else {
        0
    }
}

/// The FIL header of the copy in `slot`, `None` for an empty (all-zero) slot.
pub fn copy_header(slot: &[u8]) -> Option<FilHeader> {
    if innodb_format::bytes::is_all_zero(slot) {
        return None;
    }
    FilHeader::parse(slot).ok()
}

/// Verifies the copy in `slot` on its own, without its tablespace: a full
/// page under the classic or full_crc32 layout, else a ROW_FORMAT=COMPRESSED
/// page of 1, 2, 4, 8 or 16 KiB at the slot's start. Encrypted copies (and
/// MySQL page-compressed ones, which are written so only when encrypted)
/// cannot be verified without their key.
pub fn verify_copy(slot: &[u8]) -> CopyCheck {
    let full = |verdict| CopyCheck {
        verdict,
        size: slot.len(),
    };
    if innodb_format::bytes::is_all_zero(slot) {
        return full(ChecksumVerdict::AllZero);
    }
    let classic = checksum::verify(slot, ChecksumLayout::Classic);
    if classic.is_ok() {
        return full(classic);
    }
    let fcrc = checksum::verify(slot, ChecksumLayout::FullCrc32);
    if fcrc.is_ok() {
        return full(fcrc);
    }
    let zip = (10..=16)
        .map(|shift| 1usize << shift)
        .filter(|&z| z <= slot.len())
        .find_map(|z| {
            let v = checksum::verify(slot.get(..z)?, ChecksumLayout::Zip);
            v.is_ok().then_some(CopyCheck {
                verdict: v,
                size: z,
            })
        });
    if let Some(z) = zip {
        return z;
    }
    let page_type = FilHeader::parse(slot).map(|f| f.page_type).ok();
    match page_type {
        Some(
            PageType::ENCRYPTED
            | PageType::COMPRESSED_AND_ENCRYPTED
            | PageType::ENCRYPTED_RTREE
            | PageType::PAGE_COMPRESSED_ENCRYPTED,
        ) => full(ChecksumVerdict::Unverifiable {
            reason: "an encrypted page: the key is not available".into(),
        }),
        Some(PageType::COMPRESSED) => full(ChecksumVerdict::Unverifiable {
            reason: "MySQL transparent page compression is not decoded".into(),
        }),
        _ => full(classic),
    }
}

/// A reduced batch page's verdict: all zero, its CRC-32C over the entries,
/// or bad (a header no batch page has, or a checksum that does not match).
pub fn verify_batch_page(slot: &[u8]) -> ChecksumVerdict {
    if innodb_format::bytes::is_all_zero(slot) {
        return ChecksumVerdict::AllZero;
    }
    let stored = |value| ChecksumValue {
        name: "RB_OFF_CHECKSUM",
        offset: Some(RB_OFF_CHECKSUM),
        value,
    };
    match ReducedPage::parse(slot) {
        Ok(p) if p.checksum_ok() => ChecksumVerdict::Valid {
            algorithm: ChecksumAlgorithm::Crc32,
        },
        Ok(p) => ChecksumVerdict::Invalid {
            stored: vec![stored(p.header.checksum)],
            computed: vec![ChecksumValue {
                name: "crc32c of the entries",
                offset: None,
                value: p.computed_checksum,
            }],
        },
        Err(_) => ChecksumVerdict::Invalid {
            stored: vec![stored(
                innodb_format::bytes::u32_at(slot, RB_OFF_CHECKSUM, "RB_OFF_CHECKSUM").unwrap_or(0),
            )],
            computed: Vec::new(),
        },
    }
}

/// Why a file given as a tablespace is a doublewrite file, if it is one:
/// its name, or its first pages (read in the sizes `sizes`).
pub fn doublewrite_evidence(path: &Path, bytes: &[u8], sizes: &[usize]) -> Option<String> {
    if let Some(n) = path
        .file_name()
        .and_then(|n| parse_name(&n.to_string_lossy()))
    {
        let what = if n.reduced {
            "the reduced doublewrite file of innodb_doublewrite=DETECT_ONLY"
        } else {
            "a doublewrite file"
        };
        return Some(format!(
            "{what} of MySQL 8.0.20+ (its name: {}-byte pages, file {})",
            n.page_size, n.number
        ));
    }
    detect::copies_of_other_pages(bytes, sizes).map(|seen: CopiesSeen| {
        format!("its pages are copies of pages of other places, as in a doublewrite file: {seen}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_the_server_matches_them() {
        assert_eq!(
            parse_name("#ib_16384_0.dblwr"),
            Some(DoublewriteName {
                page_size: 16384,
                number: 0,
                reduced: false
            })
        );
        assert_eq!(
            parse_name("#ib_8192_1.dblwr.gz").map(|n| (n.page_size, n.number)),
            Some((8192, 1))
        );
        assert!(parse_name("#ib_16384_0.bdblwr").is_some_and(|n| n.reduced));
        for bad in [
            "ib_16384_0.dblwr",
            "#ib_16384.dblwr",
            "#ib__0.dblwr",
            "#ib_16k_0.dblwr",
            "#ib_16384_0.ibd",
            "#ib_redo10",
            "#ib_99999999999999999999_0.dblwr",
        ] {
            assert_eq!(parse_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn an_empty_slot_and_a_slot_of_garbage() {
        assert_eq!(copy_header(&[0u8; 4096]), None);
        assert_eq!(verify_copy(&[0u8; 4096]).verdict, ChecksumVerdict::AllZero);
        let garbage: Vec<u8> = (0..4096u32).map(|i| (i * 7 + 3) as u8).collect();
        assert!(copy_header(&garbage).is_some());
        let c = verify_copy(&garbage);
        assert!(!c.verdict.is_ok());
        assert_eq!(c.size, 4096);
    }
}

//! `doublewrite`: every slot of a doublewrite file (MySQL 8.0.20+) or of the
//! doublewrite area of a system tablespace: the page it copies, whether the
//! copy verifies, and, given the tablespaces, how it stands to the page in
//! its tablespace (the same, older, newer, or the copy crash recovery would
//! write over a page that does not verify). The reduced batch file of
//! `innodb_doublewrite=DETECT_ONLY` gives its entries instead.

use crate::reports::doublewrite_sources::{Slot, Source, Sources, Spaces};
use crate::reports::summary::verdict_name;
use innodb_format::checksum::ChecksumVerdict;
use innodb_format::dblwr::reduced::{ReducedPage, RB_OFF_CHECKSUM};
use innodb_format::fil::header::FilHeader;
use innodb_format::vendor::Vendor;
use innodb_space::doublewrite_file::{self, SlotArea, SlotSizeSource};
use innodb_space::{DoublewriteFile, Finding, FindingKind, Tablespace};
use serde::Serialize;
use std::collections::BTreeMap;

/// How a copy stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SlotState {
    /// Not compared: no tablespaces were given.
    NotCompared,
    /// The copy does not verify (a write into the doublewrite file that was
    /// cut short, or the leftover of one): recovery ignores it.
    CopyBad,
    /// The copy cannot be verified (encrypted).
    CopyUnverifiable,
    /// The page in its tablespace is the same, byte for byte.
    Same,
    /// The copy is older than the page in its tablespace, which was written
    /// again since.
    Older,
    /// The copy is newer than the page in its tablespace, which verifies:
    /// the write to the tablespace did not land; recovery keeps the page and
    /// the redo log brings it forward.
    Newer,
    /// Same LSN as the page in its tablespace, other bytes.
    Differs,
    /// The page in its tablespace does not verify (torn) or is all zero:
    /// this is the copy crash recovery writes over it.
    Restores,
    /// The page in its tablespace does not verify, but recovery uses a
    /// newer copy of it.
    Superseded,
    /// No tablespace of the directory has the copy's space id (dropped, or
    /// an undo tablespace truncated since): recovery skips it.
    NoTablespace,
    /// The copy's page is past the end of its tablespace (truncated since):
    /// recovery skips it.
    BeyondEnd,
}

impl SlotState {
    /// The state's name as serialised.
    pub fn name(self) -> &'static str {
        match self {
            SlotState::NotCompared => "not_compared",
            SlotState::CopyBad => "copy_bad",
            SlotState::CopyUnverifiable => "copy_unverifiable",
            SlotState::Same => "same",
            SlotState::Older => "older",
            SlotState::Newer => "newer",
            SlotState::Differs => "differs",
            SlotState::Restores => "restores",
            SlotState::Superseded => "superseded",
            SlotState::NoTablespace => "no_tablespace",
            SlotState::BeyondEnd => "beyond_end",
        }
    }

    /// True for the states a DBA looks at: everything but a copy that is
    /// the same as its page, older than it, or not compared.
    pub fn of_note(self) -> bool {
        !matches!(
            self,
            SlotState::Same | SlotState::Older | SlotState::NotCompared
        )
    }
}

/// One slot holding a copy.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CopySlot {
    /// The slot's number.
    pub slot: u32,
    /// Its byte offset in the file.
    pub offset: u64,
    /// For the area of a system tablespace: the page the slot is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_in_file: Option<u32>,
    /// Batch segment or single-page slot (`.dblwr` files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area: Option<SlotArea>,
    /// The copy's `FIL_PAGE_SPACE_ID`.
    pub space_id: u32,
    /// The copy's `FIL_PAGE_OFFSET`.
    pub page_no: u32,
    /// The copy's page type.
    #[serde(rename = "type")]
    pub page_type: String,
    /// The copy's `FIL_PAGE_LSN`.
    pub lsn: u64,
    /// Bytes of the copy (the tablespace's physical page size; a
    /// ROW_FORMAT=COMPRESSED copy fills only the slot's start).
    pub size: usize,
    /// How the copy verifies: the algorithm, `bad` or `unverifiable`,
    /// under the layout of its tablespace when it is known.
    pub checksum: &'static str,
    /// How it stands to the page in its tablespace.
    pub state: SlotState,
    /// The tablespace it copies a page of, relative to the directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablespace: Option<String>,
    /// The `FIL_PAGE_LSN` of the page in its tablespace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_lsn: Option<u64>,
    /// How the page in its tablespace verifies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_checksum: Option<&'static str>,
    /// The first byte where copy and page differ, when they do.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_difference: Option<usize>,
    /// More in words (which copy recovery uses instead, where an unknown
    /// space id comes from).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// How an entry of a reduced batch file stands to the page it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EntryState {
    /// Not compared: no tablespaces were given.
    NotCompared,
    /// The page in its tablespace has the entry's LSN or a later one.
    Written,
    /// The page verifies but is older than the entry: that write did not
    /// land; recovery keeps the page and the redo log brings it forward.
    NotWritten,
    /// The page does not verify or is all zero: recovery stops, as the
    /// reduced file holds no copy to repair it with.
    PageBad,
    /// No tablespace has the entry's space id.
    NoTablespace,
    /// The page is past the end of its tablespace.
    BeyondEnd,
}

impl EntryState {
    /// The state's name as serialised.
    pub fn name(self) -> &'static str {
        match self {
            EntryState::NotCompared => "not_compared",
            EntryState::Written => "written",
            EntryState::NotWritten => "not_written",
            EntryState::PageBad => "page_bad",
            EntryState::NoTablespace => "no_tablespace",
            EntryState::BeyondEnd => "beyond_end",
        }
    }
}

/// One entry of a reduced batch file.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct EntryReport {
    /// The batch page (slot) holding it.
    pub batch_page: u32,
    /// Its number in the batch page.
    pub entry: u32,
    /// `m_space_id`.
    pub space_id: u32,
    /// `m_page_no`.
    pub page_no: u32,
    /// `m_lsn`.
    pub lsn: u64,
    /// How it stands to the page it names.
    pub state: EntryState,
    /// The tablespace, relative to the directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablespace: Option<String>,
    /// The page's `FIL_PAGE_LSN`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_lsn: Option<u64>,
}

/// What kind of place holds the copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// A `.dblwr` file (MySQL 8.0.20+).
    DoublewriteFile,
    /// A `.bdblwr` file (`innodb_doublewrite=DETECT_ONLY`).
    ReducedFile,
    /// The doublewrite area of a system tablespace (its two blocks).
    SystemTablespaceArea,
}

/// One source's slots.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DoublewriteReport {
    /// The file as given.
    pub file: String,
    /// What it is.
    pub kind: SourceKind,
    /// Bytes of a slot.
    pub slot_size: usize,
    /// How the slot size was decided (doublewrite files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slot_size_source: Option<SlotSizeSource>,
    /// Slots in the file (batch pages of a `.bdblwr`).
    pub slot_count: u32,
    /// Slots of single-page flushes, at the end (`.dblwr`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub single_page_slots: Option<u32>,
    /// Slots never written (all zero).
    pub empty_slots: u32,
    /// Pages of a system tablespace's area that are its own, not copies
    /// (MySQL 8.0.20+ keeps the area but writes its copies elsewhere).
    pub own_pages: u32,
    /// Slots holding a copy.
    pub copies: u32,
    /// Copies by how they verify (`crc32`, `bad`, …).
    pub by_checksum: BTreeMap<&'static str, u32>,
    /// Copies by state (`same`, `older`, `restores`, …).
    pub by_state: BTreeMap<&'static str, u32>,
    /// The lowest and highest LSN of the copies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lsn_range: Option<[u64; 2]>,
    /// True when the copies were compared with the tablespaces.
    pub compared: bool,
    /// Every slot holding a copy, in slot order.
    pub slots: Vec<CopySlot>,
    /// The entries of a `.bdblwr`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<EntryReport>,
    /// Problems: the file's size, its name, batch pages that cannot be read.
    pub findings: Vec<Finding>,
}

impl DoublewriteReport {
    /// Copies that do not verify.
    pub fn bad_copies(&self) -> u32 {
        self.by_checksum.get("bad").copied().unwrap_or(0)
    }

    /// Copies in `state`.
    pub fn count(&self, state: SlotState) -> u32 {
        self.by_state.get(state.name()).copied().unwrap_or(0)
    }

    /// True when every copy verifies, no page is torn and every batch page
    /// of a reduced file reads: nothing for crash recovery to mend.
    pub fn all_good(&self) -> bool {
        self.bad_copies() == 0
            && self.count(SlotState::Restores) == 0
            && self.count(SlotState::Superseded) == 0
            && !self.entries.iter().any(|e| e.state == EntryState::PageBad)
            && !self
                .findings
                .iter()
                .any(|f| matches!(f.kind, FindingKind::BadChecksum | FindingKind::Unreadable))
    }
}

/// The reports of every source of `sources`, compared with `spaces` when given.
pub fn build(sources: &Sources, spaces: Option<&Spaces>) -> Vec<DoublewriteReport> {
    sources
        .list
        .iter()
        .map(|s| build_one(s, sources, spaces))
        .collect()
}

fn build_one(source: &Source, sources: &Sources, spaces: Option<&Spaces>) -> DoublewriteReport {
    let (kind, slot_size_source, single, mut findings) = match source {
        Source::File(f) => (
            if source.is_reduced() {
                SourceKind::ReducedFile
            } else {
                SourceKind::DoublewriteFile
            },
            Some(f.slot_size_source()),
            (!source.is_reduced()).then(|| f.single_page_slots()),
            f.findings().to_vec(),
        ),
        Source::Area(_) => (SourceKind::SystemTablespaceArea, None, None, Vec::new()),
    };
    let mut r = DoublewriteReport {
        file: source.path().display().to_string(),
        kind,
        slot_size: 0,
        slot_size_source,
        slot_count: source.slot_count(),
        single_page_slots: single,
        empty_slots: 0,
        own_pages: 0,
        copies: 0,
        by_checksum: BTreeMap::new(),
        by_state: BTreeMap::new(),
        lsn_range: None,
        compared: spaces.is_some(),
        slots: Vec::new(),
        entries: Vec::new(),
        findings: Vec::new(),
    };
    for slot in source.slots() {
        r.slot_size = slot.bytes.len();
        if innodb_format::bytes::is_all_zero(&slot.bytes) {
            r.empty_slots += 1;
            continue;
        }
        if let Source::File(f) = source {
            if source.is_reduced() {
                reduced_entries(f, &slot, spaces, &mut r.entries, &mut findings);
                continue;
            }
        }
        let Some(fil) = source.copy_in(&slot) else {
            r.own_pages += 1;
            continue;
        };
        let c = copy_slot(source, &slot, &fil, sources, spaces);
        r.copies += 1;
        *r.by_checksum.entry(c.checksum).or_insert(0) += 1;
        *r.by_state.entry(c.state.name()).or_insert(0) += 1;
        r.lsn_range = Some(match r.lsn_range {
            Some([lo, hi]) => [lo.min(c.lsn), hi.max(c.lsn)],
            None => [c.lsn, c.lsn],
        });
        r.slots.push(c);
    }
    if let Source::File(f) = source {
        r.slot_size = f.slot_size();
    }
    r.findings = findings;
    r
}

fn copy_slot(
    source: &Source,
    slot: &Slot<'_>,
    fil: &FilHeader,
    sources: &Sources,
    spaces: Option<&Spaces>,
) -> CopySlot {
    let vendor = match source {
        Source::Area(s) => s.format().vendor,
        Source::File(_) => Vendor::MySql,
    };
    let mut c = CopySlot {
        slot: slot.slot,
        offset: slot.offset,
        page_in_file: slot.page_in_file,
        area: match source {
            Source::File(f) => Some(f.area(slot.slot)),
            Source::Area(_) => None,
        },
        space_id: fil.space_id,
        page_no: fil.page_no,
        page_type: fil.page_type.name(vendor).into_owned(),
        lsn: fil.lsn,
        size: slot.bytes.len(),
        checksum: "bad",
        state: SlotState::NotCompared,
        tablespace: None,
        page_lsn: None,
        page_checksum: None,
        first_difference: None,
        note: None,
    };
    let found = spaces.and_then(|s| s.get(fil.space_id));
    let Some((name, space)) = found else {
        let check = doublewrite_file::verify_copy(&slot.bytes);
        c.size = check.size;
        c.checksum = verdict_name(&check.verdict);
        c.state = match (&check.verdict, spaces) {
            (ChecksumVerdict::Invalid { .. }, _) => SlotState::CopyBad,
            (_, None) => SlotState::NotCompared,
            (_, Some(s)) => {
                c.note = s.undo_hint(fil.space_id);
                SlotState::NoTablespace
            }
        };
        return c;
    };
    c.tablespace = Some(name.to_string());
    compare(&mut c, &slot.bytes, source, space, sources);
    c
}

/// Fills in how the copy `slot` stands to its page in `space`.
fn compare(c: &mut CopySlot, slot: &[u8], source: &Source, space: &Tablespace, sources: &Sources) {
    let size = space.format().physical_page_size();
    c.size = size;
    let Some(copy) = slot.get(..size) else {
        c.state = SlotState::CopyBad;
        c.note = Some(format!(
            "the slot has {} bytes, fewer than a {size}-byte page of its tablespace",
            slot.len()
        ));
        return;
    };
    let mut checker = space.checker();
    let mut findings = Vec::new();
    let copy_check = checker.check(c.page_no, copy, &mut findings);
    c.checksum = verdict_name(&copy_check.checksum);
    if !copy_check.is_consistent() || copy_check.all_zero {
        c.state = SlotState::CopyBad;
        return;
    }
    let Ok(page) = space.page(c.page_no) else {
        c.state = SlotState::BeyondEnd;
        c.note = Some(format!("its tablespace has {} pages", space.page_count()));
        return;
    };
    let page_check = checker.check(c.page_no, &page, &mut findings);
    c.page_lsn = Some(page_check.fil.lsn);
    c.page_checksum = Some(verdict_name(&page_check.checksum));
    let page_bad = page_check.all_zero || !page_check.is_consistent();
    c.first_difference = copy.iter().zip(&page).position(|(a, b)| a != b);
    let unverifiable = matches!(copy_check.checksum, ChecksumVerdict::Unverifiable { .. });
    c.state = if page_bad && unverifiable {
        SlotState::CopyUnverifiable
    } else if page_bad {
        let mine = |r: &crate::reports::doublewrite_sources::Rescue| {
            r.slot == c.slot && r.file == source.path().display().to_string()
        };
        match sources.best_copy(space, c.page_no) {
            Some(r) if mine(&r) => SlotState::Restores,
            Some(r) => {
                c.note = Some(format!(
                    "crash recovery uses the copy in {} slot {} (LSN {})",
                    r.file, r.slot, r.copy_lsn
                ));
                SlotState::Superseded
            }
            None => SlotState::CopyBad,
        }
    } else if c.first_difference.is_none() {
        SlotState::Same
    } else if c.lsn < page_check.fil.lsn {
        SlotState::Older
    } else if c.lsn > page_check.fil.lsn {
        SlotState::Newer
    } else {
        SlotState::Differs
    };
}

/// The entries of batch page `slot` of a reduced file.
fn reduced_entries(
    f: &DoublewriteFile,
    slot: &Slot<'_>,
    spaces: Option<&Spaces>,
    out: &mut Vec<EntryReport>,
    findings: &mut Vec<Finding>,
) {
    let page = match ReducedPage::parse(&slot.bytes) {
        Ok(p) => p,
        Err(e) => {
            findings.push(Finding::on_page(
                FindingKind::Unreadable,
                slot.slot,
                e.offset(),
                e.field(),
                format!(
                    "{e}; the server's recovery refuses the file ({})",
                    f.path().display()
                ),
            ));
            return;
        }
    };
    if !page.checksum_ok() {
        findings.push(Finding::on_page(
            FindingKind::BadChecksum,
            slot.slot,
            RB_OFF_CHECKSUM,
            "RB_OFF_CHECKSUM",
            format!(
                "stored 0x{:08x}, the entries give 0x{:08x}: the server's recovery refuses the file",
                page.header.checksum, page.computed_checksum
            ),
        ));
    }
    for (i, e) in page.entries.iter().enumerate() {
        let mut entry = EntryReport {
            batch_page: slot.slot,
            entry: i as u32,
            space_id: e.space_id,
            page_no: e.page_no,
            lsn: e.lsn,
            state: EntryState::NotCompared,
            tablespace: None,
            page_lsn: None,
        };
        if let Some(spaces) = spaces {
            entry.state = match spaces.get(e.space_id) {
                None => EntryState::NoTablespace,
                Some((name, space)) => {
                    entry.tablespace = Some(name.to_string());
                    entry_against(space, e.page_no, e.lsn, &mut entry.page_lsn)
                }
            };
        }
        out.push(entry);
    }
}

fn entry_against(
    space: &Tablespace,
    page_no: u32,
    lsn: u64,
    page_lsn: &mut Option<u64>,
) -> EntryState {
    let Ok(page) = space.page(page_no) else {
        return EntryState::BeyondEnd;
    };
    let check = space.checker().check(page_no, &page, &mut Vec::new());
    *page_lsn = Some(check.fil.lsn);
    if check.all_zero || !check.is_consistent() {
        EntryState::PageBad
    } else if check.fil.lsn >= lsn {
        EntryState::Written
    } else {
        EntryState::NotWritten
    }
}

/// The copies crash recovery would write, over every source.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Restore {
    /// The tablespace, relative to the directory.
    pub tablespace: String,
    /// Its space id.
    pub space_id: u32,
    /// The page.
    pub page_no: u32,
    /// The file holding the copy.
    pub file: String,
    /// The slot.
    pub slot: u32,
    /// The copy's LSN.
    pub copy_lsn: u64,
}

/// Totals of `doublewrite` over a data directory.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct DoublewriteTotals {
    /// Sources read.
    pub files: usize,
    /// Sources that could not be read.
    pub errors: usize,
    /// Slots in all.
    pub slots: u64,
    /// Slots holding a copy.
    pub copies: u64,
    /// Copies that do not verify.
    pub bad_copies: u64,
    /// Copies by state.
    pub by_state: BTreeMap<&'static str, u64>,
    /// What crash recovery would write over pages that do not verify.
    pub restores: Vec<Restore>,
}

impl DoublewriteTotals {
    /// The totals of `files`.
    pub fn of(files: &[crate::reports::datadir_report::FileResult<DoublewriteReport>]) -> Self {
        let mut t = DoublewriteTotals {
            files: files.len(),
            errors: files.iter().filter(|f| f.error.is_some()).count(),
            ..Default::default()
        };
        for r in files.iter().filter_map(|f| f.report.as_ref()) {
            t.slots += u64::from(r.slot_count);
            t.copies += u64::from(r.copies);
            t.bad_copies += u64::from(r.bad_copies());
            for (k, v) in &r.by_state {
                *t.by_state.entry(k).or_insert(0) += u64::from(*v);
            }
            t.restores.extend(
                r.slots
                    .iter()
                    .filter(|s| s.state == SlotState::Restores)
                    .map(|s| Restore {
                        tablespace: s.tablespace.clone().unwrap_or_default(),
                        space_id: s.space_id,
                        page_no: s.page_no,
                        file: r.file.clone(),
                        slot: s.slot,
                        copy_lsn: s.lsn,
                    }),
            );
        }
        t
    }
}

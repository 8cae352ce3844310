//! The undo tablespaces of a server as the undo walk and roll pointers see
//! them. On MySQL 8.0+ an undo tablespace lists its own rollback segments
//! on its RSEG_ARRAY page (page 3), the TRX_SYS page only those of the
//! system tablespace; its space id is one of the ids MySQL reserves for its
//! number (1–127), and a roll pointer names it by that number. On MariaDB
//! and MySQL 5.x every rollback segment is a TRX_SYS slot, and a roll
//! pointer names the slot.

use crate::finding::{Finding, FindingKind};
use crate::logical_pages::LogicalPages;
use crate::Tablespace;
use innodb_format::fil::page_type::PageType;
use innodb_format::sys::trx_sys::{self, RsegSlot, TRX_SYS_PAGE_NO};
use innodb_format::undo::rseg_array::{
    RsegArray, FSP_RSEG_ARRAY_PAGE_NO, RSEG_ARRAY_VERSION, RSEG_ARRAY_VERSION_AT,
};
use innodb_format::undo::undo_space_id::{self, UndoSpaceId};
use serde::Serialize;
use std::collections::BTreeMap;

/// `FIL_PAGE_SRV_VERSION` of MySQL 8.0.14, the first release that always
/// has the two implicit undo tablespaces `undo_001` and `undo_002`.
pub const MYSQL_8_0_14: u32 = 80014;

/// Where a rollback segment's header page is listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RsegDirectory {
    /// A slot of the system tablespace's TRX_SYS page (every rollback
    /// segment on MariaDB and MySQL 5.x; on MySQL 8.0+ those of the system
    /// tablespace).
    TrxSys,
    /// A slot of a MySQL 8.0+ undo tablespace's RSEG_ARRAY page.
    RsegArray,
}

/// What an undo tablespace's RSEG_ARRAY page holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RsegArraySummary {
    /// `RSEG_ARRAY_VERSION_OFFSET` is `RSEG_ARRAY_VERSION`.
    pub version_ok: bool,
    /// `RSEG_ARRAY_SIZE_OFFSET`: the rollback segments the header counts
    /// (MySQL 9.7 leaves it 0).
    pub size: u32,
    /// Slots in use (rollback segment header pages).
    pub slots_used: usize,
    /// The first unused slot a used one follows (the server reads no slot past it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap_at: Option<usize>,
}

/// One undo tablespace given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct UndoTablespace {
    /// Its file's name.
    pub file: String,
    /// Its space id.
    pub space_id: u32,
    /// Its number and generation, when its space id is one of MySQL 8.0+'s
    /// undo ids.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo_space: Option<UndoSpaceId>,
    /// Its RSEG_ARRAY page, when it has one (MySQL 8.0+).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rseg_array: Option<RsegArraySummary>,
}

/// True when `system` was written by MySQL 8.0+ (page 0 carries the
/// server version, `FIL_PAGE_SRV_VERSION`).
pub fn is_mysql_8(system: &Tablespace) -> bool {
    system
        .format()
        .mysql_server_version
        .is_some_and(|v| v >= 80_000)
}

/// A tablespace's file name, for messages.
pub fn file_name(space: &Tablespace) -> String {
    space.path().file_name().map_or_else(
        || space.path().display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    )
}

/// An undo tablespace as given: its number from its space id, and, on
/// MySQL 8.0+, a finding when its space id is not an undo space id.
pub fn describe(space: &Tablespace, mysql_8: bool, findings: &mut Vec<Finding>) -> UndoTablespace {
    let id = space.space_id();
    let undo_space = undo_space_id::undo_space_id(id);
    if mysql_8 && undo_space.is_none() {
        findings.push(Finding::on_page(
            FindingKind::Page0,
            0,
            innodb_format::fil::header::FIL_PAGE_SPACE_ID,
            "FIL_PAGE_SPACE_ID",
            format!(
                "{}: space id {id} is outside the ids MySQL 8.0+ gives undo tablespaces ({} to {}): not an undo tablespace of this server, or its page 0 is damaged; its roll pointers cannot be resolved",
                file_name(space),
                undo_space_id::S_MIN_UNDO_SPACE_ID,
                undo_space_id::S_MAX_UNDO_SPACE_ID
            ),
        ));
    }
    UndoTablespace {
        file: file_name(space),
        space_id: id,
        undo_space,
        rseg_array: None,
    }
}

/// Reads the RSEG_ARRAY page of a MySQL 8.0+ undo tablespace: its summary
/// and the rollback segments it lists (the slot is the rollback segment's
/// id within the tablespace). A page 3 that is no RSEG_ARRAY page, or an
/// array with a wrong version, is a finding.
pub fn read_rseg_array(
    space: &Tablespace,
    findings: &mut Vec<Finding>,
) -> (Option<RsegArraySummary>, Vec<RsegSlot>) {
    let name = file_name(space);
    let mut buf = Vec::new();
    let page = FSP_RSEG_ARRAY_PAGE_NO;
    let check = LogicalPages::new(space).read_into(page, &mut buf);
    let Some(check) = check else {
        findings.push(Finding::on_page(
            FindingKind::Unreadable,
            page,
            0,
            "RSEG_ARRAY",
            format!("{name}: the RSEG_ARRAY page cannot be read; no rollback segment of this undo tablespace is read"),
        ));
        return (None, Vec::new());
    };
    if check.page_type != PageType::RSEG_ARRAY {
        let why = if check.all_zero {
            "it is all zero".to_string()
        } else {
            format!(
                "its FIL_PAGE_TYPE is {}",
                check.page_type.name(space.format().vendor)
            )
        };
        findings.push(Finding::on_page(
            FindingKind::Unreadable,
            page,
            if check.all_zero { 0 } else { innodb_format::fil::header::FIL_PAGE_TYPE },
            "FIL_PAGE_TYPE",
            format!("{name}: page {page} of a MySQL 8.0+ undo tablespace should be its RSEG_ARRAY page but {why}; no rollback segment of this undo tablespace is read"),
        ));
        return (None, Vec::new());
    }
    let array = match RsegArray::parse(&buf) {
        Ok(a) => a,
        Err(e) => {
            findings.push(Finding::on_page(
                FindingKind::Unreadable,
                page,
                0,
                "RSEG_ARRAY",
                format!("{name}: {e}"),
            ));
            return (None, Vec::new());
        }
    };
    let version_ok = array.header.version == RSEG_ARRAY_VERSION;
    if !version_ok {
        findings.push(Finding::on_page(
            FindingKind::Unreadable,
            page,
            RSEG_ARRAY_VERSION_AT,
            "RSEG_ARRAY_VERSION_OFFSET",
            format!(
                "{name}: the RSEG_ARRAY version is 0x{:08x}, not 0x{RSEG_ARRAY_VERSION:08x}; its slots are read anyway",
                array.header.version
            ),
        ));
    }
    if let Some(gap) = array.gap_at {
        findings.push(Finding::on_page(
            FindingKind::BrokenList,
            page,
            RsegArray::slot_offset(gap),
            "RSEG_ARRAY_PAGES_OFFSET",
            format!("{name}: slot {gap} of the RSEG_ARRAY is unused but later slots are not; the server stops at the first unused slot and does not use the rollback segments after it (they are read here)"),
        ));
    }
    let slots = array
        .slots
        .iter()
        .map(|&(id, page_no)| RsegSlot {
            id,
            space_id: space.space_id(),
            page_no,
        })
        .collect();
    let summary = RsegArraySummary {
        version_ok,
        size: array.header.size,
        slots_used: array.slots.len(),
        gap_at: array.gap_at,
    };
    (Some(summary), slots)
}

/// What to do about undo tablespaces that were not given (the end of
/// the findings that name them).
const GIVE_THEM: &str = "give them after the system tablespace, or give the data directory (`--datadir DIR`; `--undo-directory DIR` when the server keeps them elsewhere)";

/// `ids` as a short list: runs of four or more as `a–b`.
fn id_list(ids: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some(&first) = ids.get(i) {
        let mut j = i;
        while ids
            .get(j + 1)
            .is_some_and(|&n| Some(n) == ids.get(j).map(|&m| m + 1))
        {
            j += 1;
        }
        let last = ids.get(j).copied().unwrap_or(first);
        if j - i >= 3 {
            parts.push(format!("{first}–{last}"));
        } else {
            parts.extend(
                ids.get(i..=j)
                    .unwrap_or_default()
                    .iter()
                    .map(u32::to_string),
            );
        }
        i = j + 1;
    }
    parts.join(", ")
}

/// One finding for the TRX_SYS slots (MariaDB, MySQL 5.x) whose rollback
/// segments lie in tablespaces that were not given: it names the
/// rollback segments and the tablespaces' space ids (and files, as the
/// server names them: `undo001` for space id 1), at the first slot's
/// `TRX_SYS_RSEG_SPACE`. `None` when every one was given.
pub fn unreached(slots: &[RsegSlot]) -> Option<Finding> {
    let first = slots.first()?;
    let rsegs: Vec<u32> = slots
        .iter()
        .filter_map(|s| u32::try_from(s.id).ok())
        .collect();
    let mut spaces: Vec<u32> = slots.iter().map(|s| s.space_id).collect();
    spaces.sort_unstable();
    spaces.dedup();
    let files: Vec<String> = spaces.iter().map(|n| format!("undo{n:03}")).collect();
    let (s, them) = if spaces.len() == 1 {
        ("", "it")
    } else {
        ("s", "them")
    };
    Some(Finding::on_page(
        FindingKind::Unreadable,
        TRX_SYS_PAGE_NO,
        trx_sys::TRX_SYS_RSEGS + first.id * trx_sys::TRX_SYS_RSEG_SLOT_SIZE,
        "TRX_SYS_RSEG_SPACE",
        format!(
            "undo tablespace{s} not given: space id{s} {} ({}), which hold{} {} rollback segment{} ({}); their history, undo logs and transactions are not read (the history list length counts only what was given), and roll pointers into {them} cannot be followed: {GIVE_THEM}",
            id_list(&spaces),
            files.join(", "),
            if spaces.len() == 1 { "s" } else { "" },
            rsegs.len(),
            if rsegs.len() == 1 { "" } else { "s" },
            id_list(&rsegs),
        ),
    ))
}

/// Findings for the undo tablespaces a MySQL 8.0+ server has that were not
/// given — `undo_001` and `undo_002`, which 8.0.14+ always has, and every
/// number below the highest given (numbers are taken lowest first, so a
/// gap is a tablespace missing, or one dropped) — all in one finding
/// naming each by number, file and space id; and one for two given with
/// one number.
pub fn missing(given: &[UndoTablespace], server_version: u32) -> Vec<Finding> {
    let mut by_number: BTreeMap<u32, Vec<&UndoTablespace>> = BTreeMap::new();
    for u in given {
        if let Some(n) = u.undo_space {
            by_number.entry(n.number).or_default().push(u);
        }
    }
    let finding = |message: String| Finding {
        kind: FindingKind::Unreadable,
        page: None,
        offset: None,
        field: "undo tablespace number",
        message,
    };
    let mut out = Vec::new();
    let highest = by_number.keys().next_back().copied().unwrap_or(0);
    let implicit = if server_version >= MYSQL_8_0_14 { 2 } else { 0 };
    let absent: Vec<u32> = (1..=highest.max(implicit))
        .filter(|n| !by_number.contains_key(n))
        .collect();
    if !absent.is_empty() {
        out.push(finding(absent_message(&absent, implicit, highest)));
    }
    for (n, spaces) in by_number.iter().filter(|(_, s)| s.len() > 1) {
        let files: Vec<String> = spaces
            .iter()
            .map(|u| format!("{} (space {})", u.file, u.space_id))
            .collect();
        out.push(finding(format!(
            "{} are all undo tablespace number {n}: only one can be the server's (an older copy from before a truncation?); roll pointers are resolved to the first",
            files.join(", ")
        )));
    }
    out
}

/// The message of [`missing`]'s one finding: the `absent` numbers (those
/// up to `implicit` always exist, the others lie below `highest`, given).
fn absent_message(absent: &[u32], implicit: u32, highest: u32) -> String {
    let named: Vec<String> = absent
        .iter()
        .map(|&n| {
            let file = if n <= implicit {
                undo_space_id::implicit_file_name(n)
            } else {
                format!("{} or a `*.ibu`", undo_space_id::implicit_file_name(n))
            };
            match undo_space_id::undo_space_id_of(n, 0) {
                Some(id) => format!("number {n} ({file}, space id {id} until first truncated)"),
                None => format!("number {n} ({file})"),
            }
        })
        .collect();
    let mut why = Vec::new();
    if absent.iter().any(|&n| n <= implicit) {
        why.push("MySQL 8.0.14+ always has undo_001 and undo_002".to_string());
    }
    let gaps: Vec<u32> = absent.iter().copied().filter(|&n| n > implicit).collect();
    if !gaps.is_empty() {
        why.push(format!(
            "numbers are taken lowest first and number {highest} was given, so {} {} missing or dropped",
            id_list(&gaps),
            if gaps.len() == 1 { "is" } else { "are" }
        ));
    }
    let (s, them) = if absent.len() == 1 {
        ("", "it")
    } else {
        ("s", "them")
    };
    format!(
        "undo tablespace{s} not given: {} ({}); {} rollback segments, history and transactions are not read (the history list length counts only what was given), and roll pointers into {them} cannot be followed: {GIVE_THEM}",
        named.join(", "),
        why.join("; "),
        if absent.len() == 1 { "its" } else { "their" },
    )
}

/// Which tablespace a roll pointer's 7-bit id names: on MySQL 8.0+ the
/// undo tablespace number (0 the system tablespace;
/// `trx_undo_build_roll_ptr` stores `undo::id2num(space_id)`), else the
/// TRX_SYS slot of the rollback segment.
pub struct RollPtrSpaces<'a> {
    system: &'a Tablespace,
    undo: &'a [&'a Tablespace],
    /// MySQL 8.0+: ids are undo tablespace numbers.
    mysql_8: bool,
    /// The TRX_SYS slots (MariaDB, MySQL 5.x).
    slots: Vec<RsegSlot>,
}

impl<'a> RollPtrSpaces<'a> {
    /// The resolver for the roll pointers of a server whose system and undo
    /// tablespaces these are.
    pub fn new(system: &'a Tablespace, undo: &'a [&'a Tablespace]) -> Self {
        let mysql_8 = is_mysql_8(system);
        let slots = if mysql_8 {
            Vec::new()
        } else {
            let mut buf = Vec::new();
            LogicalPages::new(system)
                .read_into(TRX_SYS_PAGE_NO, &mut buf)
                .and_then(|_| trx_sys::rseg_slots(&buf).ok())
                .unwrap_or_default()
        };
        RollPtrSpaces {
            system,
            undo,
            mysql_8,
            slots,
        }
    }

    /// The tablespace holding the undo record of a roll pointer whose 7-bit
    /// id is `id`, or why it is not at hand.
    pub fn space(&self, id: u8) -> Result<&'a Tablespace, String> {
        if self.mysql_8 {
            if id == 0 {
                return Ok(self.system);
            }
            return self
                .undo
                .iter()
                .copied()
                .find(|s| {
                    undo_space_id::undo_space_id(s.space_id())
                        .is_some_and(|u| u.number == u32::from(id))
                })
                .ok_or_else(|| {
                    format!("undo tablespace number {id} (the roll pointer's id on MySQL 8.0+) was not given")
                });
        }
        let slot = self
            .slots
            .iter()
            .find(|s| s.id == usize::from(id))
            .ok_or_else(|| format!("rollback segment {id} has no TRX_SYS slot"))?;
        if slot.space_id == self.system.space_id() {
            return Ok(self.system);
        }
        self.undo
            .iter()
            .copied()
            .find(|s| s.space_id() == slot.space_id)
            .ok_or_else(|| {
                format!(
                    "rollback segment {id} is in tablespace {}, which was not given",
                    slot.space_id
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn given(file: &str, space_id: u32) -> UndoTablespace {
        UndoTablespace {
            file: file.into(),
            space_id,
            undo_space: undo_space_id::undo_space_id(space_id),
            rseg_array: None,
        }
    }

    #[test]
    fn id_lists_are_short() {
        assert_eq!(id_list(&[]), "");
        assert_eq!(id_list(&[1]), "1");
        assert_eq!(id_list(&[1, 2]), "1, 2");
        assert_eq!(id_list(&[1, 2, 3, 5, 7, 8, 9, 10]), "1, 2, 3, 5, 7–10");
    }

    #[test]
    fn missing_undo_tablespaces_are_named() {
        let all = [
            given("undo_001", 4_294_967_279),
            given("undo_002", 4_294_967_278),
            given("u3.ibu", 4_294_967_277),
            given("u4.ibu", 4_294_967_149),
        ];
        assert!(missing(&all, 90_704).is_empty());
        let without_2: Vec<_> = all
            .iter()
            .filter(|u| u.file != "undo_002")
            .cloned()
            .collect();
        let f = missing(&without_2, 90_704);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .contains("not given: number 2 (undo_002, space id 4294967278 "),
            "{f:?}"
        );
        let without_3: Vec<_> = all.iter().filter(|u| u.file != "u3.ibu").cloned().collect();
        let f = missing(&without_3, 90_704);
        assert!(
            f[0].message
                .contains("number 3 (undo_003 or a `*.ibu`, space id 4294967277 ")
                && f[0].message.contains("number 4 was given, so 3 is missing"),
            "{f:?}"
        );
        // ibdata1 alone: the two implicit ones (8.0.14+ only), one finding.
        let f = missing(&[], 90_704);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message.starts_with("undo tablespaces not given: number 1 (undo_001, space id 4294967279 until first truncated), number 2 (undo_002, space id 4294967278 until first truncated) (MySQL 8.0.14+ always has undo_001 and undo_002)"),
            "{f:?}"
        );
        assert!(missing(&[], 80_013).is_empty());
        // Two with one number.
        let mut twice = all.to_vec();
        twice.push(given("u4-old.ibu", 4_294_967_276));
        let f = missing(&twice, 90_704);
        assert!(
            f[0].message.contains("are all undo tablespace number 4"),
            "{f:?}"
        );
    }
}

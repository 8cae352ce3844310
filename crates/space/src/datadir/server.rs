//! Which server wrote a data directory: the family and, where it shows, the
//! version, from page 0 of a tablespace and from the files present.

use super::file_kind::FileKind;
use super::DataDirFile;
use innodb_format::vendor::Vendor;
use serde::Serialize;
use std::io::Read;
use std::path::Path;

/// The server that wrote a data directory, as far as its files tell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Server {
    /// The family: MySQL, MariaDB, or unknown when nothing tells them apart
    /// (MySQL 5.x and MariaDB before 10.4 write the same page 0) or the
    /// files disagree (two servers' files in one directory).
    pub family: Vendor,
    /// The version, when a file records it (`8.0.40`, `10.11.6-MariaDB`),
    /// or the oldest version that writes what was found (`8.0.30 or later`).
    pub version: Option<String>,
    /// What each conclusion was drawn from, one line each.
    pub evidence: Vec<String>,
}

/// The evidence line of a directory holding files of both families.
const MIXED: &str = "files of both MySQL and MariaDB: the family is not decided";

/// What one clue says about the family, and why.
struct Clue {
    family: Vendor,
    version: Option<String>,
    why: String,
}

impl Server {
    /// The server of the data directory at `root` whose files are `files`.
    pub(super) fn detect(root: &Path, files: &[DataDirFile]) -> Server {
        let mut clues = Vec::new();
        if let Some(c) = page0_clue(files) {
            clues.push(c);
        }
        clues.extend(file_clues(root, files));
        let mysql = clues.iter().any(|c| c.family == Vendor::MySql);
        let mariadb = clues.iter().any(|c| c.family == Vendor::MariaDb);
        let family = match (mysql, mariadb) {
            (true, false) => Vendor::MySql,
            (false, true) => Vendor::MariaDb,
            _ => Vendor::Unknown,
        };
        let mut evidence: Vec<String> = clues.iter().map(|c| c.why.clone()).collect();
        if mysql && mariadb {
            evidence.push(MIXED.into());
        }
        // A version only of the family decided: none when the files disagree.
        let version = clues
            .iter()
            .filter(|c| c.family == family && family != Vendor::Unknown)
            .find_map(|c| c.version.clone());
        Server {
            family,
            version,
            evidence,
        }
    }

    /// Adds what page 0 of the tablespaces `files` (relative name and the
    /// family its page 0 names) says when some name the other family than
    /// the one decided (table files copied in from another server): a line
    /// of evidence naming the first and counting the others, and the family
    /// no longer decided. Nothing when the family is not decided.
    pub fn note_tablespaces(&mut self, files: &[(String, Vendor)]) {
        let family = self.family;
        if !matches!(family, Vendor::MySql | Vendor::MariaDb) {
            return;
        }
        let mut foreign = files
            .iter()
            .filter(|(_, v)| matches!(v, Vendor::MySql | Vendor::MariaDb) && *v != family);
        let Some((first, vendor)) = foreign.next() else {
            return;
        };
        let more = match foreign.count() {
            0 => String::new(),
            1 => " (and 1 more file)".to_string(),
            n => format!(" (and {n} more files)"),
        };
        self.evidence.push(format!(
            "{first}: page 0's flags are {}'s, in a directory of {}'s: a file of another server{more}",
            vendor.name(),
            family.name()
        ));
        if !self.is_mixed() {
            self.evidence.push(MIXED.into());
        }
        self.family = Vendor::Unknown;
        self.version = None;
    }

    /// True when the files disagree: some are MySQL's, some MariaDB's.
    pub fn is_mixed(&self) -> bool {
        self.evidence.iter().any(|e| e == MIXED)
    }

    /// True for MySQL 8.0 and later (its dictionary lives in `mysql.ibd`
    /// and each tablespace's SDI).
    pub fn is_mysql_8(&self) -> bool {
        self.family == Vendor::MySql
            && self.version.as_deref().is_some_and(|v| {
                v.split('.')
                    .next()
                    .and_then(|m| m.parse::<u32>().ok())
                    .is_some_and(|m| m >= 8)
            })
    }
}

/// The clue of page 0 of the system tablespace (else `mysql.ibd`, else the
/// first tablespace): its flags and, on MySQL 8.0+, the server version.
fn page0_clue(files: &[DataDirFile]) -> Option<Clue> {
    let order = [
        FileKind::SystemTablespace,
        FileKind::MysqlDictionary,
        FileKind::Table,
        FileKind::GeneralTablespace,
        FileKind::UndoTablespace,
    ];
    let file = order
        .iter()
        .find_map(|k| files.iter().find(|f| f.kind == *k))?;
    let head = read_head(&file.path)?;
    let format = match crate::detect::from_page0(&head) {
        crate::detect::Page0::Valid(f) | crate::detect::Page0::Suspect(f, _) => f,
        crate::detect::Page0::Unusable(_) => return None,
    };
    let version = format
        .mysql_server_version
        .map(|v| format!("{}.{}.{}", v / 10000, v / 100 % 100, v % 100));
    let why = match (&format.vendor, &version) {
        (Vendor::Unknown, _) => format!(
            "{}: page 0 is of a format MySQL 5.x and MariaDB before 10.4 share",
            file.relative
        ),
        (v, Some(ver)) => format!(
            "{}: page 0 was written by {} {ver}",
            file.relative,
            v.name()
        ),
        (v, None) => format!("{}: page 0's flags are {}'s", file.relative, v.name()),
    };
    Some(Clue {
        family: format.vendor,
        version,
        why,
    })
}

/// The first 64 KiB of `path` (inflated when it is gzipped): page 0 at any
/// page size.
fn read_head(path: &Path) -> Option<Vec<u8>> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut head = Vec::new();
    let gz = path.extension().is_some_and(|e| e == "gz");
    let limit = innodb_format::MAX_PAGE_SIZE as u64;
    if gz {
        flate2::read::MultiGzDecoder::new(std::io::BufReader::new(file))
            .take(limit)
            .read_to_end(&mut head)
            .ok()?;
    } else {
        (&mut file).take(limit).read_to_end(&mut head).ok()?;
    }
    Some(head)
}

/// The clues of the files present.
fn file_clues(root: &Path, files: &[DataDirFile]) -> Vec<Clue> {
    let mut clues = Vec::new();
    let mut clue = |family, version: Option<&str>, why: &str| {
        clues.push(Clue {
            family,
            version: version.map(str::to_string),
            why: why.to_string(),
        })
    };
    let has = |kind: FileKind| files.iter().any(|f| f.kind == kind);
    let named = |pred: &dyn Fn(&str) -> bool| files.iter().any(|f| pred(&f.relative));
    if has(FileKind::MysqlDictionary) {
        clue(
            Vendor::MySql,
            Some("8.0 or later"),
            "mysql.ibd: MySQL 8.0+ keeps its data dictionary there",
        );
    }
    if has(FileKind::Doublewrite) {
        clue(
            Vendor::MySql,
            Some("8.0.20 or later"),
            "#ib_*.dblwr: doublewrite files of MySQL 8.0.20+",
        );
    }
    if named(&|r| r.starts_with("#innodb_redo/")) {
        clue(
            Vendor::MySql,
            Some("8.0.30 or later"),
            "#innodb_redo/: the redo log folder of MySQL 8.0.30+",
        );
    }
    if named(&|r| r.starts_with("undo_")) {
        clue(
            Vendor::MySql,
            Some("8.0 or later"),
            "undo_NNN: MySQL 8.0+ names its undo tablespaces so",
        );
    }
    if named(&|r| r.starts_with("aria_log")) {
        clue(
            Vendor::MariaDb,
            None,
            "aria_log*: the Aria engine's logs (MariaDB)",
        );
    }
    for name in ["mariadb_upgrade_info", "mysql_upgrade_info"] {
        if let Some(v) = upgrade_info(&root.join(name)) {
            let family = if v.contains("MariaDB") {
                Vendor::MariaDb
            } else {
                Vendor::MySql
            };
            clue(family, Some(&v), &format!("{name}: the server wrote {v}"));
        }
    }
    clues
}

/// The version `mysql_upgrade_info` (or MariaDB's `mariadb_upgrade_info`)
/// holds: one line such as `10.11.6-MariaDB`.
fn upgrade_info(path: &Path) -> Option<String> {
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(256)
        .read_to_string(&mut text)
        .ok()?;
    let v = text.trim_matches(|c: char| c.is_whitespace() || c == '\0');
    (!v.is_empty() && v.len() < 100 && v.starts_with(|c: char| c.is_ascii_digit()))
        .then(|| v.to_string())
}

//! The MySQL 9.7 fixture sets (`fixtures/mysql-p*`, made by
//! `fixtures/generate-mysql.sh`): each a crash copy (`files/`, with its
//! `truth.json`) and a clean copy after recovery and purge (`purged/`),
//! and the rows the server returned (`rows/*.tsv.gz`). See
//! fixtures/README.md, "MySQL sets".

use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};

/// One copy of a MySQL data directory with the server's truth.
pub struct MysqlCopy {
    /// `mysql-p16k`, `mysql-p16k/purged`, …
    pub name: String,
    /// The folder holding `truth.json`, `files/`, `rows/`, `sdi/`.
    pub root: PathBuf,
    /// The data directory (`root/files`), read in place.
    pub files: PathBuf,
    /// `truth.json`.
    pub truth: Value,
}

/// A MySQL set: its crash copy and its purged copy.
pub struct MysqlSet {
    /// The crash copy: killed with a read view held and a transaction open.
    pub crash: MysqlCopy,
    /// The copy after recovery, purge and a slow shutdown.
    pub purged: MysqlCopy,
}

impl MysqlCopy {
    fn open(name: String, root: PathBuf) -> MysqlCopy {
        let truth: Value =
            serde_json::from_slice(&std::fs::read(root.join("truth.json")).unwrap()).unwrap();
        MysqlCopy {
            name,
            files: root.join("files"),
            root,
            truth,
        }
    }

    /// The path of `rel` (`test/t_plain.ibd`, `undo_001`) in the data
    /// directory: its `.gz`.
    pub fn file(&self, rel: &str) -> PathBuf {
        self.files.join(format!("{rel}.gz"))
    }

    /// The page size.
    pub fn page_size(&self) -> u64 {
        self.truth["page_size"].as_u64().unwrap()
    }

    /// Every table of `truth.tables` (`test/t_plain`, …).
    pub fn tables(&self) -> &Vec<Value> {
        self.truth["tables"].as_array().unwrap()
    }

    /// The table `name` (`test/t_plain`) of `truth.tables`.
    pub fn table(&self, name: &str) -> &Value {
        self.tables()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("{}: no table {name} in truth.json", self.name))
    }

    /// The lines of a rows file (`rows/t_plain.tsv.gz`, as `truth.tables[].rows.file`
    /// names it), each split at tabs as `mysql -B -N -r` printed them.
    pub fn rows(&self, file: &str) -> Vec<Vec<String>> {
        let gz = std::fs::read(self.root.join(file)).unwrap();
        let mut text = String::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_string(&mut text)
            .unwrap();
        text.lines()
            .map(|l| l.split('\t').map(str::to_string).collect())
            .collect()
    }

    /// The files of `truth.files` with their facts, by path relative to
    /// the data directory.
    pub fn file_facts(&self) -> &serde_json::Map<String, Value> {
        self.truth["files"].as_object().unwrap()
    }
}

/// The committed MySQL sets, in name order (`mysql-p16k`, `mysql-p64k`,
/// `mysql-p8k`): at least three, or the test fails. With
/// `$INNODB_INSPECT_FIXTURES` (CI's live check: a set made anew by
/// `FIXTURES_OUT=DIR fixtures/generate-mysql.sh mysql-p16k`) the sets of
/// that directory: at least one.
pub fn sets() -> Vec<MysqlSet> {
    let (dir, live) = crate::support::truth_fixtures_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("mysql-") && dir.join(n).join("truth.json").is_file())
        // mysql-p16k-dropped, the carving scenario (its own procedure and
        // truth): tests/carve_dropped_mysql.rs reads it.
        .filter(|n| !n.ends_with("-dropped"))
        .collect();
    names.sort();
    let least = if live { 1 } else { 3 };
    assert!(
        names.len() >= least,
        "MySQL fixture sets in {}: {names:?}",
        dir.display()
    );
    names
        .into_iter()
        .map(|n| MysqlSet {
            crash: MysqlCopy::open(n.clone(), dir.join(&n)),
            purged: MysqlCopy::open(format!("{n}/purged"), dir.join(&n).join("purged")),
        })
        .collect()
}

/// The path of a data directory's file, for messages: relative to `dir`.
pub fn short(dir: &Path, file: &Path) -> String {
    file.strip_prefix(dir)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| file.display().to_string())
}

#[test]
fn the_mysql_sets_are_there_with_their_truth() {
    for set in sets() {
        for copy in [&set.crash, &set.purged] {
            assert!(
                copy.truth["server_version"]
                    .as_str()
                    .is_some_and(|v| v.starts_with("9.")),
                "{}",
                copy.name
            );
            for rel in copy.file_facts().keys() {
                assert!(copy.file(rel).is_file(), "{}: {rel} is missing", copy.name);
            }
        }
        assert_eq!(
            set.crash.truth["undo_scenario"]["history_list_length_at_kill"],
            set.crash.truth["history_list_length"],
            "{}",
            set.crash.name
        );
    }
}

//! What the fuzz targets share: this process's scratch file and the real
//! dictionary the `records` target types rows with.

use innodb_robust::Target;
use innodb_space::dictionary::Dictionary;
use innodb_space::{OpenOptions, Tablespace};
use std::path::PathBuf;
use std::sync::OnceLock;

/// A file in memory-backed `/dev/shm` (or the temporary directory) for this
/// process's inputs, rewritten for each one.
fn scratch() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = if std::path::Path::new("/dev/shm").is_dir() {
            PathBuf::from("/dev/shm")
        } else {
            std::env::temp_dir()
        };
        dir.join(format!("innodb-fuzz-{}.ibd", std::process::id()))
    })
}

/// The data dictionary of a real MariaDB system tablespace of the fixtures
/// (4 KiB pages, the page size of the record seeds), read once.
fn dictionary() -> Option<&'static Dictionary> {
    static DICT: OnceLock<Option<Dictionary>> = OnceLock::new();
    DICT.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/p4k/files/ibdata1.gz");
        let space = Tablespace::open(path, OpenOptions::default()).ok()?;
        Dictionary::read(&space).ok()
    })
    .as_ref()
}

/// Runs the target named `name` over `data`.
pub fn run(name: &str, data: &[u8]) {
    if let Some(t) = Target::from_name(name) {
        let dict = if t == Target::Records { dictionary() } else { None };
        t.run(data, scratch(), dict);
    }
}

//! Where the third-party tablespaces are (`../shared/thirdparty` beside the
//! repository, or `$INNODB_INSPECT_THIRDPARTY`), and what a test that reads
//! them does when they are not there: on a fresh clone it is skipped, with a
//! line saying so; with `$INNODB_INSPECT_REQUIRE_THIRDPARTY` set (CI sets it)
//! it fails.
//!
//! One file for every test crate: `tests/support` declares it as a module,
//! and the crates' own tests (`crates/format/tests`, `crates/space/tests`)
//! include it with `#[path]`. Each uses what it needs of it.

// A panic here is the test's failure, with its message.
#![allow(dead_code, clippy::panic)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// Set to a non-empty value, makes the absence of the third-party files a
/// failure instead of a skip.
pub const REQUIRE: &str = "INNODB_INSPECT_REQUIRE_THIRDPARTY";

/// Set, names the third-party directory in place of `../shared/thirdparty`.
pub const DIR: &str = "INNODB_INSPECT_THIRDPARTY";

/// The third-party directory: `$INNODB_INSPECT_THIRDPARTY`, else
/// `../shared/thirdparty` beside the repository (every crate's manifest is
/// two levels below the repository root).
pub fn dir() -> PathBuf {
    match std::env::var_os(DIR) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/thirdparty"),
    }
}

/// The third-party directory when it is there. When it is not: a failure if
/// `$INNODB_INSPECT_REQUIRE_THIRDPARTY` is set, else `None` after a line on
/// standard error saying that the running test is skipped.
pub fn present() -> Option<PathBuf> {
    present_or_skip("")
}

/// As [`present`], for a part of a test: the line says that `part` of the
/// running test is skipped.
pub fn present_or_skip_part(part: &str) -> Option<PathBuf> {
    present_or_skip(&format!(" {part}"))
}

fn present_or_skip(part: &str) -> Option<PathBuf> {
    let dir = dir();
    if dir.is_dir() {
        return Some(dir);
    }
    let (shown, looked) = match std::env::var_os(DIR) {
        Some(d) if !d.is_empty() => (format!("{} (${DIR})", dir.display()), String::new()),
        _ => (
            "../shared/thirdparty".to_string(),
            format!(" (looked for {})", dir.display()),
        ),
    };
    if std::env::var_os(REQUIRE).is_some_and(|v| !v.is_empty()) {
        panic!(
            "{shown} is absent{looked} and ${REQUIRE} is set: the tests of the third-party \
             files must not be skipped"
        );
    }
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    // Straight to the process's standard error: the test harness captures
    // `eprintln!` and shows it for failing tests only, and a skip must be
    // seen in every run.
    let _ = writeln!(
        std::io::stderr(),
        "{test}:{part} skipped: {shown} is absent (set {REQUIRE}=1 to make this a failure)"
    );
    None
}

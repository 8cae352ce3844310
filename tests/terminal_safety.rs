//! Output that is safe on a terminal and honest about failing: control
//! characters from data (a row value, a column name, a file name) never
//! reach stdout or stderr raw; a report that cannot be written (a full
//! disk) is a failure, a closed pipe is not.
//!
//! The row values are crafted: bytes of a real MariaDB table's VARCHAR
//! value overwritten with control characters, the page's checksum
//! resealed (labelled as crafted damage of a real file).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The controls a crafted name carries: a window-title OSC with BEL, a
/// carriage return, backspace, DEL, a clear-screen CSI and the C1 CSI
/// (U+009B). (No NUL: a file name cannot hold one.)
const NASTY: &str = "\x1b]0;owned\x07\r\x08\x7f\x1b[2J\u{9b}";

/// Raw control bytes in `out` other than newline and tab: ESC, BEL, CR,
/// BS, NUL, DEL and the C1 characters (UTF-8 `C2 80`..`C2 9F`).
fn raw_controls(out: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(out);
    text.char_indices()
        .filter(|(_, c)| {
            let n = u32::from(*c);
            (n < 0x20 && *c != '\n' && *c != '\t') || n == 0x7f || (0x80..=0x9f).contains(&n)
        })
        .map(|(i, c)| {
            let from = text.floor_char_boundary(i.saturating_sub(30));
            format!(
                "U+{:04X} after {:?}",
                u32::from(c),
                text.get(from..i).unwrap_or("")
            )
        })
        .collect()
}

/// `out` without the colour sequences (`ESC [ digits/; m`) the tool writes
/// itself in coloured pictures.
fn without_sgr(out: &[u8]) -> Vec<u8> {
    let mut kept = Vec::with_capacity(out.len());
    let mut i = 0;
    while i < out.len() {
        if out[i] == 0x1b && out.get(i + 1) == Some(&b'[') {
            let params = out[i + 2..]
                .iter()
                .take_while(|b| b.is_ascii_digit() || **b == b';')
                .count();
            if out.get(i + 2 + params) == Some(&b'm') {
                i += 3 + params;
                continue;
            }
        }
        kept.push(out[i]);
        i += 1;
    }
    kept
}

/// Like [`assert_safe`], for coloured output: its own colour sequences
/// aside, no raw control.
fn assert_safe_coloured(what: &str, out: &std::process::Output) {
    assert!(
        out.stdout.contains(&0x1b),
        "{what}: --color always gave no colour"
    );
    assert!(
        !out.stdout.windows(4).any(|w| w == b"\x1b[5m"),
        "{what}: the data's own SGR sequence reached stdout raw"
    );
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let raw = raw_controls(&without_sgr(bytes));
        assert!(raw.is_empty(), "{what}: raw controls on {stream}: {raw:?}");
    }
}

fn assert_safe(what: &str, out: &std::process::Output) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let raw = raw_controls(bytes);
        assert!(raw.is_empty(), "{what}: raw controls on {stream}: {raw:?}");
    }
}

/// The p16k fixture's `t_ordered` with the first 8 bytes of row 2's `b`
/// (`c81e728d-bb`, the hex of MD5(2)) and of row 3's (`eccbc87e-bbb`)
/// overwritten with controls (crafted damage, checksums resealed).
fn crafted_table(dir: &Path) -> PathBuf {
    let (path, mut bytes) = support::unpack(dir, "p16k/files/test/t_ordered.ibd.gz");
    let ps = 16384;
    for (was, now) in [
        (&b"c81e728d-bb"[..], &b"\x1b]0;X\x07\rY-bb"[..]),
        // The table is latin1, which MySQL reads as cp1252: 0x9D is one of
        // the five bytes cp1252 leaves undefined, which it maps to the C1
        // control U+009D (OSC).
        (&b"eccbc87e-bbb"[..], &b"\x9d2J\x08\0\x7fAA-bbb"[..]),
    ] {
        let at = bytes
            .windows(was.len())
            .position(|w| w == was)
            .expect("the value is in the file");
        bytes[at..at + now.len()].copy_from_slice(now);
        support::reseal(&mut bytes, ps, at / ps);
    }
    std::fs::write(&path, &bytes).unwrap();
    path
}

#[test]
fn row_values_with_controls_are_escaped_in_text_and_json_and_exact_in_csv() {
    let tmp = tempfile::tempdir().unwrap();
    let table = crafted_table(tmp.path());
    let system = support::fixtures_dir().join("p16k/files/ibdata1.gz");
    let base = |format: &str| {
        support::run([
            "--format".as_ref(),
            format.as_ref(),
            "--system".as_ref(),
            system.as_os_str(),
            "records".as_ref(),
            table.as_os_str(),
            "--limit".as_ref(),
            "5".as_ref(),
        ])
    };
    let text = base("text");
    assert_eq!(text.status.code(), Some(0));
    assert_safe("records (text)", &text);
    let shown = String::from_utf8_lossy(&text.stdout);
    assert!(shown.contains("\\e]0;X\\x07\\rY-bb"), "{shown}");
    assert!(shown.contains("\\u{9d}2J\\x08\\0\\x7fAA-bbb"), "{shown}");
    let json = base("json");
    assert_safe("records (json)", &json);
    let lines = String::from_utf8_lossy(&json.stdout);
    // U+009D (C1 OSC), which JSON carries escaped.
    assert!(lines.contains(r#""b":"\u001b]0;X\u0007\rY-bb""#), "{lines}");
    assert!(
        lines.contains(r#""b":"\u009d2J\b\u0000\u007fAA-bbb""#),
        "{lines}"
    );
    for l in lines.lines() {
        serde_json::from_str::<serde_json::Value>(l).unwrap();
    }
    // CSV keeps the data exact when it is not written to a terminal.
    let csv = base("csv");
    assert!(String::from_utf8_lossy(&csv.stdout).contains("\x1b]0;X\x07\rY-bb"));
}

#[test]
fn names_with_controls_are_escaped_in_every_command() {
    let tmp = tempfile::tempdir().unwrap();
    // A blink sequence too: an SGR sequence, like the tool's own colours,
    // that only escaping at the source tells apart from them.
    let name = format!("t{NASTY}\x1b[5m.ibd.gz");
    let file = tmp.path().join(&name);
    std::fs::copy(
        support::fixtures_dir().join("p16k/files/test/t_sec_after.ibd.gz"),
        &file,
    )
    .unwrap();
    // Column and index names from a CREATE TABLE statement.
    let ddl = tmp.path().join("t.sql");
    std::fs::write(
        &ddl,
        format!(
            "CREATE TABLE t (`id{NASTY}` INT PRIMARY KEY, `a{NASTY}` INT NOT NULL, b VARCHAR(64), c CHAR(20), KEY `k{NASTY}` (`a{NASTY}`))"
        ),
    )
    .unwrap();
    let png = tmp.path().join("out.png");
    let f = file.as_os_str().to_str().unwrap();
    let commands: Vec<Vec<&str>> = vec![
        vec!["summary", f],
        vec!["pages", f],
        vec!["page", f, "3"],
        vec!["checksum", f],
        vec!["extents", f],
        vec!["segments", f],
        vec!["waste", f],
        vec!["indexes", f],
        vec!["fill", f],
        vec!["count", f],
        vec!["tree", f, "--index", "999"],
        vec!["heatmap", f],
        vec!["heatmap", f, "--png", png.to_str().unwrap()],
        vec!["plot", f, "--levels"],
        vec!["sdi", f],
        vec!["undo", f],
        vec!["records", f],
        vec!["records", f, "--ddl", ddl.to_str().unwrap(), "--limit", "3"],
        vec![
            "records",
            f,
            "--ddl",
            ddl.to_str().unwrap(),
            "--index",
            "nope",
        ],
        vec!["page", &name, "1"],
    ];
    for args in &commands {
        for format in ["text", "json"] {
            let mut all = vec!["--format", format];
            all.extend(args.iter().copied());
            let out = support::run(&all);
            assert_safe(&format!("{} ({format})", args[0]), &out);
        }
    }
    // Coloured pictures: the file name in the title, between the tool's
    // own colour sequences.
    for args in [
        vec!["heatmap", f, "--color", "always", "--by", "index"],
        vec!["heatmap", f, "--color", "always", "--by", "fill"],
        vec!["plot", f, "--levels", "--color", "always"],
    ] {
        let out = support::run(&args);
        assert_safe_coloured(&args.join(" "), &out);
    }
}

#[test]
fn a_full_disk_is_a_failure_and_a_closed_pipe_is_not() {
    let file = support::fixtures_dir().join("p16k/files/test/t_ordered.ibd.gz");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_innodb-inspect"))
        .args(["summary".as_ref(), file.as_os_str()])
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write the output"), "{err}");

    // `pages | head -c 100`: the reader goes away after 100 bytes.
    let mut child = Command::new(env!("CARGO_BIN_EXE_innodb-inspect"))
        .args(["pages".as_ref(), file.as_os_str()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut head = [0u8; 100];
    std::io::Read::read_exact(&mut stdout, &mut head).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{:?}", out);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

//! The JSON Schemas of `docs/schema/`: each equals what the report types
//! generate now (they cannot drift from the code), and every command's JSON
//! on the real fixtures validates against its command's schema, in every
//! form (one file, `--datadir`, a doublewrite file, `undo --compare`,
//! each kind of `records` line). The validator is the `jsonschema` crate
//! (draft 2020-12), not the generator: a schema that says what the output
//! does not do fails here.

// In tests a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;
use innodb_inspect::json_schema::{schema, schema_text, COMMANDS};
use serde_json::Value;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// `docs/schema/`.
fn schema_dir() -> PathBuf {
    support::repo_root().join("docs/schema")
}

/// The committed schema of `command`, compiled.
fn validator(command: &str) -> jsonschema::Validator {
    let path = schema_dir().join(format!("{command}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft202012::new(&v).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Each file of `docs/schema/` is exactly what `json-schema --write` makes
/// now, and there is one per command with JSON, and no other.
#[test]
fn committed_schemas_are_what_the_types_generate() {
    let mut stale = Vec::new();
    for command in COMMANDS {
        let path = schema_dir().join(format!("{command}.json"));
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if Some(committed) != schema_text(command) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale or missing schemas (run `innodb-inspect json-schema --write docs/schema`): {stale:?}"
    );
    let mut files: Vec<String> = std::fs::read_dir(schema_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut want: Vec<String> = COMMANDS.iter().map(|c| format!("{c}.json")).collect();
    want.sort();
    assert_eq!(files, want);
    assert!(schema("browse").is_none());
}

/// `innodb-inspect json-schema summary` prints the committed schema, and
/// an unknown command is an error (exit 2) naming those that have one.
#[test]
fn the_command_prints_the_committed_schema() {
    let out = support::run(["json-schema", "summary"]);
    assert_eq!(out.status.code(), Some(0));
    let committed = std::fs::read(schema_dir().join("summary.json")).unwrap();
    assert_eq!(out.stdout, committed);
    let out = support::run(["json-schema", "browse"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("summary, checksum"), "{err}");
}

/// The JSON documents of `innodb-inspect --format json ARGS` (one, or a
/// line each for `records`), with its exit status.
fn documents(args: &[OsString]) -> (Vec<Value>, Option<i32>) {
    let mut all: Vec<OsString> = vec!["--format".into(), "json".into()];
    all.extend(args.iter().cloned());
    let out = support::run(&all);
    let text = String::from_utf8(out.stdout).unwrap();
    let docs = if args.iter().any(|a| a == "records") {
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    } else {
        vec![serde_json::from_str(&text).unwrap_or_else(|e| {
            panic!(
                "{args:?}: not JSON ({e}); stderr {}",
                String::from_utf8_lossy(&out.stderr)
            )
        })]
    };
    (docs, out.status.code())
}

/// Every error of `doc` against `command`'s schema, as text.
fn errors(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc)
        .take(5)
        .map(|e| format!("at {}: {e}", e.instance_path()))
        .collect()
}

/// `carve ibdata1 mysql.ibd` of mysql-p16k-dropped, inflated into `tmp`.
fn mysql_dropped(fx: &Path, tmp: &Path) -> Vec<OsString> {
    let dir = tmp.join("mysql-p16k-dropped");
    std::fs::create_dir_all(&dir).unwrap();
    let files = fx.join("mysql-p16k-dropped/files");
    vec![
        "carve".into(),
        support::gunzip_into(&files.join("ibdata1.gz"), &dir).into(),
        support::gunzip_into(&files.join("mysql.ibd.gz"), &dir).into(),
    ]
}

/// The argument lists run, each with the command whose schema applies.
/// `tmp` holds `misfit.sql` (a CREATE TABLE that does not fit t_random)
/// and the tablespaces `carve` reads, inflated (it reads bytes as they are).
fn runs(fx: &Path, tmp: &Path) -> Vec<(&'static str, Vec<OsString>)> {
    let misfit = tmp.join("misfit.sql");
    let p = fx.join("p16k/files");
    let m = fx.join("mysql-p16k/files");
    let u = fx.join("p16k-undo/files");
    let t = |d: &Path, f: &str| d.join(f).into_os_string();
    let dd = |d: &Path| vec![OsString::from("--datadir"), d.as_os_str().to_owned()];
    let with = |mut a: Vec<OsString>, more: &[&str]| {
        a.extend(more.iter().map(OsString::from));
        a
    };
    let dblwr = t(&m, "#ib_16384_0.dblwr.gz");
    let random = t(&p, "test/t_random.ibd.gz");
    let dropped = t(&fx.join("p16k-dropped/unpurged/files"), "ibdata1.gz");
    vec![
        ("summary", vec!["summary".into(), random.clone()]),
        ("summary", with(dd(&p), &["summary"])),
        ("summary", vec!["summary".into(), dblwr.clone()]),
        (
            "checksum",
            vec!["checksum".into(), random.clone(), t(&p, "ibdata1.gz")],
        ),
        ("checksum", with(dd(&m), &["checksum"])),
        ("pages", vec!["pages".into(), t(&m, "test/t_blob.ibd.gz")]),
        ("pages", with(dd(&p), &["pages", "--range", "0..8"])),
        ("pages", vec!["pages".into(), dblwr.clone()]),
        ("page", vec!["page".into(), random.clone(), "0".into()]),
        ("page", vec!["page".into(), random.clone(), "4".into()]),
        ("page", vec!["page".into(), t(&u, "ibdata1.gz"), "5".into()]),
        (
            "indexes",
            vec!["indexes".into(), t(&p, "test/t_sec_before.ibd.gz")],
        ),
        ("indexes", with(dd(&m), &["indexes"])),
        ("fill", vec!["fill".into(), random.clone()]),
        ("fill", with(dd(&p), &["fill"])),
        ("count", vec!["count".into(), random.clone()]),
        ("count", with(dd(&m), &["count"])),
        (
            "tree",
            with(dd(&p), &["tree", "test/t_random", "--index", "PRIMARY"]),
        ),
        ("segments", vec!["segments".into(), random.clone()]),
        ("segments", with(dd(&p), &["segments"])),
        ("extents", vec!["extents".into(), random.clone()]),
        ("extents", with(dd(&m), &["extents"])),
        ("waste", vec!["waste".into(), random.clone()]),
        ("waste", with(dd(&p), &["waste"])),
        ("heatmap", vec!["heatmap".into(), random.clone()]),
        (
            "heatmap",
            vec![
                "heatmap".into(),
                "--by".into(),
                "fill".into(),
                random.clone(),
            ],
        ),
        ("heatmap", with(dd(&p), &["heatmap", "--by", "page-type"])),
        (
            "plot",
            vec!["plot".into(), "--levels".into(), random.clone()],
        ),
        ("plot", with(dd(&u), &["plot", "--undo-growth"])),
        ("undo", with(dd(&u), &["undo"])),
        ("undo", with(dd(&m), &["undo", "--records", "20"])),
        (
            "undo",
            vec![
                "undo".into(),
                "--compare".into(),
                u.clone().into_os_string(),
                fx.join("p16k-undo/purged/files").into_os_string(),
            ],
        ),
        (
            "history",
            with(dd(&u), &["history", "test/t_undo", "--key", "7"]),
        ),
        ("records", vec!["records".into(), random.clone()]),
        (
            "records",
            with(dd(&m), &["records", "test/t_blob", "--limit", "5"]),
        ),
        (
            "records",
            with(dd(&u), &["records", "test/t_undo", "--committed"]),
        ),
        (
            "records",
            with(dd(&u), &["records", "test/t_undo", "--deleted"]),
        ),
        (
            "records",
            vec![
                "records".into(),
                random.clone(),
                "--ddl".into(),
                misfit.as_os_str().to_owned(),
                "--limit".into(),
                "3".into(),
            ],
        ),
        (
            "schema",
            vec!["schema".into(), t(&p, "test/t_types.ibd.gz")],
        ),
        ("schema", with(dd(&m), &["schema", "test/t_blob"])),
        ("sdi", vec!["sdi".into(), t(&m, "test/t_blob.ibd.gz")]),
        ("sdi", with(dd(&m), &["sdi"])),
        ("doublewrite", vec!["doublewrite".into(), dblwr.clone()]),
        ("doublewrite", with(dd(&m), &["doublewrite", "--all"])),
        (
            "carve",
            vec![
                "carve".into(),
                support::gunzip_into(&p.join("test/t_random.ibd.gz"), tmp).into(),
                support::gunzip_into(&m.join("test/t_blob.ibd.gz"), tmp).into(),
            ],
        ),
        // A system tablespace with a dropped table: its dictionary's
        // remnants, and the rows of its index found by --scan.
        ("carve", vec!["carve".into(), dropped.clone()]),
        // MySQL 8.0+: the dropped table mysql.ibd's deleted records remember.
        ("carve", mysql_dropped(fx, tmp)),
        (
            "records",
            vec![
                "records".into(),
                dropped.clone(),
                "--scan".into(),
                "--index-id".into(),
                "24".into(),
                "--limit".into(),
                "50".into(),
            ],
        ),
    ]
}

/// Every command's JSON on the fixtures validates against its schema: all
/// 20 commands with JSON, every form of each (a `records` finding line
/// from a CREATE TABLE that does not fit, exit 1); and the same validator rejects
/// a document with a key its type does not have, a number as text, and a
/// wrong version, so that a pass says something.
#[test]
fn every_commands_json_on_the_fixtures_fits_its_schema() {
    let fx = support::fixtures_dir();
    let mut failures = Vec::new();
    let mut commands = std::collections::BTreeSet::new();
    let mut checked = 0;
    // A CREATE TABLE that does not fit t_random: rows, then a finding line.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("misfit.sql"),
        "CREATE TABLE t (id INT PRIMARY KEY, x BIGINT UNSIGNED)",
    )
    .unwrap();
    let mut findings = 0;
    let mut carved = 0;
    for (command, args) in runs(&fx, tmp.path()) {
        let v = validator(command);
        let (docs, code) = documents(&args);
        assert!(matches!(code, Some(0 | 1)), "{args:?}: exit {code:?}");
        assert!(!docs.is_empty(), "{args:?}: no JSON");
        for doc in &docs {
            let e = errors(&v, doc);
            if !e.is_empty() {
                failures.push(format!("{args:?}: {e:#?}"));
                break;
            }
            assert_eq!(doc["format_version"], 1, "{args:?}");
            findings += usize::from(doc.get("finding").is_some());
            carved += doc["spaces"].as_array().map_or(0, Vec::len);
            checked += 1;
        }
        commands.insert(command);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        commands.len(),
        COMMANDS.len(),
        "every command with JSON run"
    );
    assert!(
        checked > 10_000,
        "{checked} documents (records lines count each)"
    );
    assert!(findings > 0, "a records finding line was checked");
    // t_random.ibd and t_blob.ibd; ibdata1 and mysql.ibd of
    // mysql-p16k-dropped (the gzipped p16k-dropped ibdata1 holds no page
    // as its bytes are).
    assert_eq!(carved, 4, "carve found both tablespaces of each pair");
    let mysql = documents(&mysql_dropped(&fx, tmp.path())).0;
    assert!(
        mysql[0]["spaces"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["dropped_tables"]["tables"]
                .as_array()
                .is_some_and(|t| !t.is_empty())),
        "the MySQL carve's dropped tables were checked"
    );

    let v = validator("summary");
    let (docs, _) = documents(&[
        "summary".into(),
        fx.join("p16k/files/test/t_random.ibd.gz").into(),
    ]);
    let good = &docs[0];
    assert!(errors(&v, good).is_empty());
    for (key, bad) in [
        ("unknown_key", serde_json::json!(1)),
        ("page_count", serde_json::json!("576")),
        ("format_version", serde_json::json!(2)),
        ("file", serde_json::json!(7)),
    ] {
        let mut d = good.clone();
        d[key] = bad.clone();
        assert!(!errors(&v, &d).is_empty(), "{key}: {bad} accepted");
    }
}

/// A 64-bit integer may be a string of digits where the output writes it
/// so (past 2^53 − 1), and not any string: the index id of MySQL's SDI
/// index in `pages` (18446744069414584320 on a MariaDB system tablespace,
/// written `"18446744069414584320"`) validates, and letters in its place do not.
#[test]
fn integers_past_2_53_are_strings_in_the_schema_too() {
    let fx = support::fixtures_dir();
    let (docs, _) = documents(&[
        "pages".into(),
        fx.join("p4k-undo/files/ibdata1.gz").into(),
        "--range".into(),
        "0..5".into(),
    ]);
    let doc = &docs[0];
    assert_eq!(doc["pages"][4]["index_id"], "18446744069414584320");
    let v = validator("pages");
    assert!(errors(&v, doc).is_empty(), "{:?}", errors(&v, doc));
    let mut d = doc.clone();
    d["pages"][4]["index_id"] = serde_json::json!("eighteen");
    assert!(!errors(&v, &d).is_empty());
}

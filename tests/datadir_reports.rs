//! `pages`, `heatmap`, `plot --fill-histogram|--levels` and `sdi` over every
//! tablespace of a data directory (`--datadir DIR` and no FILE): each file's
//! section is exactly what the command prints for that file alone, in text
//! and in JSON; PNG output is one picture per tablespace, the same picture
//! as the file's own; a damaged file costs only its own section (exit 1).
//! Every data directory here is a real server's (the fixtures), or copies
//! of real files (damaged copies in a temporary directory).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use innodb_analysis::reports::datadir_report::{DatadirReport, FileResult};
use innodb_analysis::reports::datadir_totals::PagesTotals;
use innodb_analysis::{PageFilter, PageList};
use innodb_render::png::image;
use innodb_space::datadir::{DataDir, DataDirOptions};
use innodb_space::{OpenOptions, Tablespace};
use serde_json::Value;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Output;

/// `--datadir DIR ARGS… [FILE]`.
fn args(dir: &Path, cmd: &[&str], file: Option<&Path>) -> Vec<OsString> {
    let mut a: Vec<OsString> = vec!["--datadir".into(), dir.into()];
    a.extend(cmd.iter().map(OsString::from));
    a.extend(file.map(OsString::from));
    a
}

fn run(dir: &Path, cmd: &[&str], file: Option<&Path>) -> Output {
    support::run(args(dir, cmd, file))
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// `file` relative to `dir`, as the headings name it.
fn short(dir: &Path, file: &Path) -> String {
    file.strip_prefix(dir).unwrap().display().to_string()
}

/// `text` after the title's server line, which names the fixtures'
/// server: MariaDB, from page 0 of the system tablespace.
fn server_line(text: &str) -> Option<&str> {
    let (line, rest) = text.split_once('\n')?;
    assert_eq!(
        line, "Server MariaDB — ibdata1.gz: page 0's flags are MariaDB's",
        "the title's server line"
    );
    Some(rest)
}

/// The data directory's tablespaces, in the order the reports list them.
fn files_of(dir: &Path) -> Vec<PathBuf> {
    let files = DataDir::open(dir, &DataDirOptions::default())
        .unwrap()
        .tablespace_paths();
    assert!(!files.is_empty(), "{}", dir.display());
    files
}

/// What one file alone gives: its output, or `None` when the command fails
/// on it (exit 2).
fn alone(dir: &Path, cmd: &[&str], file: &Path, json: bool) -> Option<String> {
    let mut full: Vec<&str> = Vec::new();
    if json {
        full.extend(["--format", "json"]);
    }
    full.extend(cmd);
    let out = run(dir, &full, Some(file));
    match out.status.code() {
        Some(0) => Some(stdout(&out)),
        Some(2) => None,
        c => panic!("{cmd:?} {}: exit {c:?}", file.display()),
    }
}

/// Runs `cmd` over `dir` in text and JSON and checks every file's section
/// against the same command on that file alone: equal where the file alone
/// works, a `no report` section (text) and an `error` (JSON) where it fails.
/// The footer of the text must be `footer(files, failed)`. Returns the files
/// that failed.
fn check_each(dir: &Path, cmd: &[&str], footer: impl Fn(usize, usize) -> String) -> Vec<PathBuf> {
    let files = files_of(dir);
    let singles: Vec<Option<String>> = files.iter().map(|f| alone(dir, cmd, f, false)).collect();
    let failed: Vec<PathBuf> = files
        .iter()
        .zip(&singles)
        .filter(|(_, s)| s.is_none())
        .map(|(f, _)| f.clone())
        .collect();
    let want_code = if failed.is_empty() { 0 } else { 1 };

    // Text: the title, then each file's heading and its own output.
    let out = run(dir, cmd, None);
    assert_eq!(
        out.status.code(),
        Some(want_code),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let mut rest = text
        .strip_prefix(&format!("Data directory {}\n", dir.display()))
        .and_then(server_line)
        .unwrap_or_else(|| panic!("{cmd:?}: no title in {text}"));
    for (f, single) in files.iter().zip(&singles) {
        let heading = format!("\n=== {} ===\n", short(dir, f));
        rest = rest
            .strip_prefix(&heading)
            .unwrap_or_else(|| panic!("{cmd:?}: no heading {heading:?} before {rest:.200}"));
        match single {
            Some(s) => {
                assert!(
                    rest.starts_with(s.as_str()),
                    "{cmd:?} {}: the section is not the file's own output",
                    f.display()
                );
                rest = &rest[s.len()..];
            }
            None => {
                assert!(
                    rest.starts_with("no report: "),
                    "{cmd:?} {}: {rest:.200}",
                    f.display()
                );
                rest = &rest[rest.find('\n').unwrap() + 1..];
            }
        }
    }
    assert_eq!(rest, footer(files.len(), failed.len()), "{cmd:?}");

    // JSON: every file's report is the file's own JSON.
    let mut json_cmd = vec!["--format", "json"];
    json_cmd.extend(cmd);
    let out = run(dir, &json_cmd, None);
    assert_eq!(out.status.code(), Some(want_code), "{cmd:?} json");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let entries = v["files"].as_array().unwrap();
    assert_eq!(entries.len(), files.len(), "{cmd:?} json");
    for (e, f) in entries.iter().zip(&files) {
        assert_eq!(e["file"], f.display().to_string());
        match alone(dir, cmd, f, true) {
            Some(single) => {
                let mut single = support::unversioned(serde_json::from_str(&single).unwrap());
                // Alone, a command's JSON names its file (checksum's lists the
                // file's report under `files`); the entry names it beside.
                if cmd[0] == "checksum" {
                    single = single["files"][0].clone();
                } else if e["report"].get("file").is_none() {
                    single.as_object_mut().unwrap().remove("file");
                }
                assert_eq!(e["report"], single, "{cmd:?} json {}", f.display());
                assert!(e.get("error").is_none());
            }
            None => {
                assert!(e.get("report").is_none(), "{cmd:?} json {}", f.display());
                assert!(e["error"].as_str().is_some_and(|s| !s.is_empty()));
            }
        }
    }
    assert_eq!(v["totals"]["files"], files.len());
    assert_eq!(v["totals"]["errors"], failed.len());
    failed
}

/// The footer of the reports that only count files.
fn files_footer(files: usize, failed: usize) -> String {
    format!("\n{files} files, {failed} without a report\n")
}

/// The fixtures' data directories used here, with the server's own list of
/// files to check the data directory's tablespaces against.
fn fixture_dirs() -> Vec<PathBuf> {
    ["p4k-undo", "p16k"]
        .iter()
        .map(|config| {
            let root = support::fixtures_dir().join(config);
            let truth: Value =
                serde_json::from_slice(&std::fs::read(root.join("truth.json")).unwrap()).unwrap();
            let dir = root.join("files");
            let ours: Vec<String> = files_of(&dir)
                .iter()
                .map(|f| short(&dir, f).trim_end_matches(".gz").to_string())
                .collect();
            let mut server: Vec<String> = truth["files"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect();
            server.sort();
            let mut sorted = ours.clone();
            sorted.sort();
            assert_eq!(sorted, server, "{config}");
            dir
        })
        .collect()
}

/// The whole `--datadir DIR pages` listing, built in memory.
fn pages_report(dir: &Path, filter: &PageFilter) -> DatadirReport<PageList, PagesTotals> {
    let mut totals = PagesTotals::default();
    // `pages` names each index page's index from the directory's dictionary.
    let datadir = DataDir::open(dir, &DataDirOptions::default()).unwrap();
    let dict = innodb_analysis::dictionary::of_datadir(&datadir, OpenOptions::default()).unwrap();
    let files: Vec<FileResult<PageList>> = files_of(dir)
        .iter()
        .map(|f| {
            totals.files += 1;
            let (report, error) = match Tablespace::open(f, OpenOptions::default()) {
                Ok(space) => {
                    let mut list = PageList::build(&space, filter);
                    let names = innodb_analysis::reports::naming::IndexNames::for_file(
                        &space,
                        dict.as_ref(),
                        OpenOptions::default(),
                    );
                    for p in &mut list.pages {
                        p.index_name = p.index_id.and_then(|i| names.get(i)).map(str::to_string);
                    }
                    totals.pages += list.pages.len() as u64;
                    (Some(list), None)
                }
                Err(e) => {
                    totals.errors += 1;
                    (None, Some(e.to_string()))
                }
            };
            FileResult {
                file: f.display().to_string(),
                bytes: std::fs::metadata(f).unwrap().len(),
                report,
                error,
                note: None,
            }
        })
        .collect();
    DatadirReport {
        datadir: dir.display().to_string(),
        server: DataDir::open(dir, &DataDirOptions::default())
            .unwrap()
            .server,
        skipped: Vec::new(),
        files,
        totals,
    }
}

/// `pages` over a data directory: each file's listing (streamed one file
/// after the other) equals the file's own, and the JSON is byte for byte
/// what the whole report renders to.
#[test]
fn pages_over_a_datadir_are_each_files_own() {
    for dir in fixture_dirs() {
        for (cmd, filter) in [
            (vec!["pages"], PageFilter::default()),
            (
                vec!["pages", "--type", "INDEX", "--range", "0..40"],
                PageFilter {
                    page_type: Some("INDEX".into()),
                    range: Some((0, 40)),
                },
            ),
        ] {
            let whole = pages_report(&dir, &filter);
            let t = whole.totals.clone();
            assert!(t.pages > 0);
            check_each(&dir, &cmd, |files, failed| {
                assert_eq!((files, failed), (t.files, t.errors));
                format!(
                    "\n{files} files, {failed} without a report, {} pages listed\n",
                    t.pages
                )
            });
            let mut json_cmd = vec!["--format", "json"];
            json_cmd.extend(&cmd);
            let out = run(&dir, &json_cmd, None);
            assert_eq!(stdout(&out), innodb_render::json::render(&whole), "{cmd:?}");
        }
    }
}

/// `heatmap` and `plot --fill-histogram|--levels` over a data directory,
/// drawn in the terminal and as JSON models.
#[test]
fn pictures_over_a_datadir_are_each_files_own() {
    for dir in fixture_dirs() {
        for cmd in [
            &["heatmap", "--by", "page-type", "--color", "never"][..],
            &["heatmap", "--by", "index", "--color", "never"],
            &["heatmap", "--by", "lsn-age", "--color", "always"],
            &["plot", "--levels", "--color", "never"],
            &["plot", "--fill-histogram", "--color", "never"],
        ] {
            let failed = check_each(&dir, cmd, files_footer);
            assert!(failed.is_empty(), "{cmd:?}: {failed:?}");
        }
    }
}

/// The PNG name of a tablespace of `dir`: its relative path without `.gz`
/// and `.ibd`, with `.png`.
fn png_name(dir: &Path, f: &Path) -> PathBuf {
    let rel = short(dir, f);
    let rel = rel.trim_end_matches(".gz");
    let rel = rel.strip_suffix(".ibd").unwrap_or(rel);
    PathBuf::from(format!("{rel}.png"))
}

/// Checks the PNG files `--png out` wrote over `dir`: one per tablespace
/// except `failed`, each the same picture as the file's own PNG.
fn check_pngs(dir: &Path, cmd: &[&str], out: &Path, failed: &[&Path]) {
    let mut full: Vec<OsString> = cmd.iter().map(OsString::from).collect();
    full.extend(["--png".into(), out.as_os_str().to_owned()]);
    let full: Vec<&str> = full.iter().map(|s| s.to_str().unwrap()).collect();
    let o = run(dir, &full, None);
    assert_eq!(
        o.status.code(),
        Some(if failed.is_empty() { 0 } else { 1 }),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let files = files_of(dir);
    let expected: Vec<PathBuf> = files
        .iter()
        .filter(|f| !failed.contains(&f.as_path()))
        .map(|f| out.join(png_name(dir, f)))
        .collect();
    let mut written = support::files_below(out, "");
    written.sort();
    let mut want = expected.clone();
    want.sort();
    assert_eq!(written, want, "{cmd:?}");
    // One line per picture on stdout, in file order.
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), expected.len());
    for (line, png) in lines.iter().zip(&expected) {
        assert!(line.starts_with(&format!("{}: ", png.display())), "{line}");
    }
    let single_png = out.parent().unwrap().join("single.png");
    for f in files.iter().filter(|f| !failed.contains(&f.as_path())) {
        let png = out.join(png_name(dir, f));
        let img = image::load_from_memory_with_format(
            &std::fs::read(&png).unwrap(),
            image::ImageFormat::Png,
        )
        .unwrap()
        .to_rgb8();
        let mut one: Vec<OsString> = cmd.iter().map(OsString::from).collect();
        one.extend(["--png".into(), single_png.as_os_str().to_owned()]);
        let one: Vec<&str> = one.iter().map(|s| s.to_str().unwrap()).collect();
        let o = run(dir, &one, Some(f));
        assert!(o.status.success(), "{cmd:?} {}", f.display());
        let own = image::open(&single_png).unwrap().to_rgb8();
        assert_eq!(
            img.dimensions(),
            own.dimensions(),
            "{cmd:?} {}",
            f.display()
        );
        assert!(img == own, "{cmd:?} {}: not the same picture", f.display());
    }
}

/// `--png DIR` over a data directory: one PNG per tablespace, named after
/// the file, the same picture as the file's own PNG.
#[test]
fn png_over_a_datadir_is_one_picture_per_tablespace() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = support::fixtures_dir().join("p16k/files");
    for (i, cmd) in [
        &["heatmap", "--by", "lsn-age"][..],
        &["heatmap", "--by", "index"],
        &["plot", "--fill-histogram"],
        &["plot", "--levels"],
    ]
    .iter()
    .enumerate()
    {
        // Made if missing, parents too.
        let out = tmp.path().join(format!("run{i}/pictures"));
        check_pngs(&dir, cmd, &out, &[]);
    }
    // A file is not a directory to write into.
    let file = tmp.path().join("a-file.png");
    std::fs::write(&file, b"").unwrap();
    let o = run(&dir, &["heatmap", "--png", file.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("directory"));
}

/// Copies the fixture data directory `config` (its gzipped files as they
/// are) into `to`.
fn copy_datadir(config: &str, to: &Path) -> PathBuf {
    let src = support::fixtures_dir().join(config).join("files");
    for f in support::tablespaces_below(&src, ".gz") {
        let dest = to.join(f.strip_prefix(&src).unwrap());
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&f, &dest).unwrap();
    }
    to.to_path_buf()
}

/// Two damaged copies in a data directory: `test/t_random.ibd` cut to less
/// than a page (no command can read it) and `test/t_types.ibd` with page 0
/// zeroed (the reports that need its space map fail on it; `pages` and the
/// heatmaps by LSN and type still read it). Every other file's section is
/// still its own report; the exit status is 1.
#[test]
fn a_damaged_file_costs_only_its_own_section() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = copy_datadir("p16k", &tmp.path().join("datadir"));
    let test = dir.join("test");
    let cut = support::gunzip_into(&test.join("t_random.ibd.gz"), &test);
    std::fs::remove_file(test.join("t_random.ibd.gz")).unwrap();
    let bytes = std::fs::read(&cut).unwrap();
    std::fs::write(&cut, &bytes[..1000]).unwrap();
    let zeroed = support::gunzip_into(&test.join("t_types.ibd.gz"), &test);
    std::fs::remove_file(test.join("t_types.ibd.gz")).unwrap();
    let mut bytes = std::fs::read(&zeroed).unwrap();
    bytes[..16384].fill(0);
    std::fs::write(&zeroed, &bytes).unwrap();

    let whole = pages_report(&dir, &PageFilter::default());
    assert_eq!(whole.totals.errors, 1);
    let pages_footer = |files: usize, failed: usize| {
        format!(
            "\n{files} files, {failed} without a report, {} pages listed\n",
            whole.totals.pages
        )
    };
    assert_eq!(
        check_each(&dir, &["pages"], pages_footer),
        vec![cut.clone()]
    );
    let out = run(&dir, &["--format", "json", "pages"], None);
    assert_eq!(stdout(&out), innodb_render::json::render(&whole));
    for cmd in [
        &["heatmap", "--by", "page-type", "--color", "never"][..],
        &["heatmap", "--by", "lsn-age", "--color", "never"],
    ] {
        assert_eq!(
            check_each(&dir, cmd, files_footer),
            vec![cut.clone()],
            "{cmd:?}"
        );
    }
    for cmd in [
        &["heatmap", "--by", "index", "--color", "never"][..],
        &["plot", "--levels", "--color", "never"],
    ] {
        let mut failed = check_each(&dir, cmd, files_footer);
        failed.sort();
        assert_eq!(failed, [cut.clone(), zeroed.clone()], "{cmd:?}");
    }
    check_pngs(
        &dir,
        &["plot", "--fill-histogram"],
        &tmp.path().join("fill"),
        &[&cut, &zeroed],
    );
    check_pngs(
        &dir,
        &["heatmap", "--by", "page-type"],
        &tmp.path().join("types"),
        &[&cut],
    );
    // `sdi`: none of these MariaDB files has one; only the two damaged ones fail.
    let (v, out) = support::run_json(args(&dir, &["sdi"], None));
    assert_eq!(out.status.code(), Some(1));
    let errors: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f.get("error").is_some())
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(v["totals"]["without_sdi"], files_of(&dir).len() - 2);
}

/// `sdi` over a data directory holding MySQL 8.0 files (from the
/// third-party set) beside a MariaDB server's: each MySQL file's SDI is its
/// own `sdi` output; each MariaDB file says it has none, which is no
/// failure (exit 0), while `sdi` on that file alone is an error saying the same.
#[test]
fn sdi_over_a_datadir_is_each_files_own() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("datadir");
    let src = support::fixtures_dir().join("p16k/files");
    std::fs::create_dir_all(dir.join("test")).unwrap();
    std::fs::create_dir_all(dir.join("mysql80")).unwrap();
    std::fs::copy(src.join("ibdata1.gz"), dir.join("ibdata1.gz")).unwrap();
    std::fs::copy(
        src.join("test/t_types.ibd.gz"),
        dir.join("test/t_types.ibd.gz"),
    )
    .unwrap();
    let mysql = support::thirdparty_dir().join("KernelMaker__ibdNinja/tests/8.0/fixtures");
    let names = ["blob_external.ibd", "multi_index.ibd", "simple_table.ibd"];
    for n in names {
        std::fs::copy(mysql.join(n), dir.join("mysql80").join(n)).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (listed in ../shared/thirdparty/MANIFEST.md)",
                mysql.join(n).display()
            )
        });
    }
    check_sdi(&dir);
    let (v, _) = support::run_json(args(&dir, &["sdi"], None));
    assert_eq!(v["totals"]["with_sdi"], names.len());
    assert_eq!(v["totals"]["without_sdi"], 2);
    assert!(v["totals"]["objects"].as_u64().unwrap() >= names.len() as u64);
}

/// `check_each` for `sdi`, where a file without SDI has a note in place of
/// its report (and the file alone fails with the same words).
fn check_sdi(dir: &Path) {
    const NO_SDI: &str =
        "no SDI index: only MySQL 8.0 and later keep the dictionary in the tablespace";
    let files = files_of(dir);
    let out = run(dir, &["sdi"], None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    // A directory of MariaDB's files and three MySQL 8.0 table files: the
    // server line names the first of those and counts the others.
    let mut rest = text
        .strip_prefix(&format!("Data directory {}\n", dir.display()))
        .and_then(|t| t.split_once('\n'))
        .map(|(line, rest)| {
            assert_eq!(
                line,
                "Server MySQL or MariaDB — ibdata1.gz: page 0's flags are MariaDB's; \
                 mysql80/blob_external.ibd: page 0's flags are MySQL's, in a directory of \
                 MariaDB's: a file of another server (and 2 more files); files of both MySQL \
                 and MariaDB: the family is not decided"
            );
            rest
        })
        .unwrap();
    let (v, _) = support::run_json(args(dir, &["sdi"], None));
    let entries = v["files"].as_array().unwrap();
    assert_eq!(entries.len(), files.len());
    let (mut with, mut objects) = (0, 0);
    for (f, e) in files.iter().zip(entries) {
        rest = rest
            .strip_prefix(&format!("\n=== {} ===\n", short(dir, f)))
            .unwrap_or_else(|| panic!("{}: {rest:.200}", f.display()));
        let single = run(dir, &["sdi"], Some(f));
        if single.status.success() {
            let own = stdout(&single);
            assert!(rest.starts_with(&own), "{}", f.display());
            rest = &rest[own.len()..];
            let (own_json, _) = support::run_json(args(dir, &["sdi"], Some(f)));
            let own_json = support::unversioned(own_json);
            assert_eq!(e["report"], own_json, "{}", f.display());
            with += 1;
            objects += own_json["records"].as_array().unwrap().len();
        } else {
            assert_eq!(single.status.code(), Some(2));
            let err = String::from_utf8_lossy(&single.stderr);
            assert!(err.contains(NO_SDI), "{}: {err}", f.display());
            rest = rest.strip_prefix(&format!("{NO_SDI}\n")).unwrap();
            assert_eq!(e["note"], NO_SDI);
            assert!(e.get("report").is_none() && e.get("error").is_none());
        }
    }
    let without = files.len() - with;
    assert_eq!(
        rest,
        format!(
            "\n{} files: {with} with SDI ({objects} objects), {without} without SDI, 0 without a report\n",
            files.len()
        )
    );
}

/// The commands that read one object (`page`, `tree`, `records`,
/// `history`) do not run over a data directory: without a FILE they stop
/// with a usage error naming the FILE they need.
#[test]
fn one_object_commands_need_a_file() {
    let dir = support::fixtures_dir().join("p4k-undo/files");
    for cmd in [
        &["page"][..],
        &["tree", "--index", "1"],
        &["records"],
        &["history", "--key", "1"],
    ] {
        let out = run(&dir, cmd, None);
        assert_eq!(out.status.code(), Some(2), "{cmd:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("<FILE>") && err.contains("required"),
            "{cmd:?}: {err}"
        );
    }
    // And the whole-file reports still need one of FILE and --datadir.
    for cmd in [
        &["pages"][..],
        &["sdi"],
        &["heatmap"],
        &["plot", "--levels"],
    ] {
        let out = support::run(cmd);
        assert_eq!(out.status.code(), Some(2), "{cmd:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--datadir"), "{cmd:?}: {err}");
    }
}

/// Files of a data directory that are not tablespaces (a redo log, a
/// doublewrite file, an Aria log) are named under the title with why they
/// are not read, in text and JSON, and leave every tablespace's line as it
/// is; a table definition (`.frm`, which `records` reads) is not among
/// them.
#[test]
fn files_not_read_are_named_with_why() {
    let fixture = support::fixtures_dir().join("p16k/files");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("test")).unwrap();
    for f in files_of(&fixture) {
        std::fs::copy(&f, dir.join(short(&fixture, &f))).unwrap();
    }
    for extra in [
        "ib_logfile0",
        "#ib_16384_0.dblwr",
        "test/t1.frm",
        "aria_log_control",
    ] {
        std::fs::write(dir.join(extra), b"").unwrap();
    }
    let plain = stdout(&run(&fixture, &["summary"], None));
    let out = run(dir, &["summary"], None);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[2..5],
        [
            "Not read (doublewrite file): #ib_16384_0.dblwr — copies of pages, not a tablespace: `doublewrite` reads them, and `checksum` names the bad pages they hold a good copy of",
            "Not read (not InnoDB): aria_log_control",
            "Not read (redo log): ib_logfile0 — redo logs are named, not read",
        ]
    );
    // A MySQL 8.0.20+ doublewrite file beside MariaDB's files: the family
    // is not decided, and the line says why. The rest is the fixture's own
    // report, line for line.
    assert_eq!(
        lines[1],
        "Server MySQL or MariaDB — ibdata1.gz: page 0's flags are MariaDB's; \
         #ib_*.dblwr: doublewrite files of MySQL 8.0.20+; aria_log*: the Aria engine's logs \
         (MariaDB); files of both MySQL and MariaDB: the family is not decided"
    );
    let plain_lines: Vec<&str> = plain.lines().collect();
    assert_eq!(lines[5..], plain_lines[2..]);
    let (v, _) = support::run_json(args(dir, &["summary"], None));
    let skipped: Vec<(&str, &str)> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["file"].as_str().unwrap(), s["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(
        skipped,
        [
            ("#ib_16384_0.dblwr", "doublewrite"),
            ("aria_log_control", "other"),
            ("ib_logfile0", "redo_log"),
        ]
    );
    assert_eq!(v["server"]["family"], "unknown");
    assert_eq!(v["server"]["version"], Value::Null);
}

//! The terminal browser: scripted action sequences on the real-server
//! fixtures, drawn into a test backend and pinned as text; the numbers
//! checked against the server's; a smoke test of the real binary in a pseudo-terminal.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use innodb_browse::app::{Item, View};
use innodb_browse::{Action, App, Context};
use innodb_space::dictionary::Dictionary;
use innodb_space::{OpenOptions, Tablespace};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A fixture by a path relative to the test's working directory (the cli
/// crate), so that screens show the same path on every checkout.
fn fixture(config: &str, name: &str) -> PathBuf {
    Path::new("../../fixtures")
        .join(config)
        .join("files")
        .join(format!("{name}.gz"))
}

/// The screen of `app` at `w` × `h`, as drawn.
fn buffer(app: &App, w: u16, h: u16) -> ratatui::buffer::Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| innodb_browse::ui::draw(f, app)).unwrap();
    t.backend().buffer().clone()
}

/// The screen of `app` at `w` × `h`, as text.
fn screen(app: &App, w: u16, h: u16) -> String {
    let buf = &buffer(app, w, h);
    let mut out = String::new();
    for y in 0..h {
        let line: String = (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn run(app: &mut App, actions: &[Action]) {
    for a in actions {
        app.apply(*a);
        app.wait_jobs();
    }
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        app.apply(Action::Input(c));
    }
    app.apply(Action::Submit);
    app.wait_jobs();
}

fn current_page(app: &App) -> u32 {
    match app.view() {
        Some(View::Page(p)) => p.detail.page,
        _ => panic!("not a page view"),
    }
}

/// Moves the page view's selection to the first line matching `pred`.
fn select(app: &mut App, pred: impl Fn(&innodb_browse::app::PageView, Item) -> bool) {
    let (target, now) = match app.view() {
        Some(View::Page(p)) => (
            p.items
                .iter()
                .position(|&it| pred(p, it))
                .expect("a matching line"),
            p.selected,
        ),
        _ => panic!("not a page view"),
    };
    let step = if target > now {
        Action::Down
    } else {
        Action::Up
    };
    for _ in 0..target.abs_diff(now) {
        app.apply(step);
    }
}

fn datadir_context(dir: &Path) -> Context {
    let system = dir.join("ibdata1.gz");
    let mut undo: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("undo"))
        .collect();
    undo.sort();
    let dict = Dictionary::read(&Tablespace::open(&system, OpenOptions::default()).unwrap())
        .ok()
        .map(Arc::new);
    Context {
        options: OpenOptions::default(),
        system: Some(system),
        undo,
        dict,
    }
}

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

/// Open a file: the map in page-type colours; move to the root, open it,
/// follow a node pointer to a leaf, go back to the parent.
#[test]
fn open_move_and_follow_a_child_pointer() {
    settings().bind(|| {
        let file = fixture("p16k", "test/t_sec_before.ibd");
        let mut app = App::open(&file, Context::default()).unwrap();
        app.wait_jobs();
        insta::assert_snapshot!("browse_open@p16k__t_sec_before", screen(&app, 120, 24));
        run(
            &mut app,
            &[Action::Right, Action::Right, Action::Right, Action::Open],
        );
        assert_eq!(current_page(&app), 3);
        // The root's second node pointer (the first is the min-rec one).
        select(&mut app, |p, it| match it {
            Item::Record(i) => {
                i == 1
                    && p.detail.records.as_ref().unwrap().records[i]
                        .child_page
                        .is_some()
            }
            _ => false,
        });
        let child = match app.view() {
            Some(View::Page(p)) => match p.item() {
                Some(Item::Record(i)) => p.detail.records.as_ref().unwrap().records[i]
                    .child_page
                    .unwrap(),
                _ => panic!("no record selected"),
            },
            _ => panic!(),
        };
        run(&mut app, &[Action::Open]);
        assert_eq!(current_page(&app), child);
        // The child is a leaf of the same index, as the tree report says.
        let space = Tablespace::open(&file, OpenOptions::default()).unwrap();
        let tree =
            innodb_analysis::reports::tree_report::TreeReport::build(&space, 25, Some(0)).unwrap();
        assert!(tree.pages.iter().any(|p| p.page == child));
        insta::assert_snapshot!("browse_child@p16k__t_sec_before", screen(&app, 120, 30));
        run(&mut app, &[Action::Back]);
        assert_eq!(current_page(&app), 3, "back to the parent");
        // Resize: the same state at two other sizes.
        insta::assert_snapshot!("browse_root_80x24@p16k__t_sec_before", screen(&app, 80, 24));
        insta::assert_snapshot!(
            "browse_root_200x40@p16k__t_sec_before",
            screen(&app, 200, 40)
        );
    });
}

/// Search a key in a data directory, then follow the row's DB_ROLL_PTR: the
/// versions are every value the undo scenario's five UPDATEs left, in order.
#[test]
fn search_a_key_and_follow_the_roll_pointer() {
    settings().bind(|| {
        let dir = Path::new("../../fixtures/p16k-undo/files");
        let mut app = App::open(dir, datadir_context(dir)).unwrap();
        let at = app
            .datadir
            .iter()
            .position(|p| p.ends_with("test/t_undo.ibd.gz"))
            .unwrap();
        for _ in 0..at {
            app.apply(Action::Down);
        }
        run(&mut app, &[Action::Open, Action::StartSearch]);
        typed(&mut app, "5");
        let page = current_page(&app);
        let row = app.selected_row().expect("the searched row is selected");
        assert_eq!(
            innodb_analysis::rows::row_history::value_text(&row.values[0]),
            "5"
        );
        assert_eq!(row.page, page);
        run(&mut app, &[Action::RollPointer]);
        let Some(View::History { history, .. }) = app.view() else {
            panic!("no history view: {}", app.status);
        };
        let v: Vec<String> = history
            .versions
            .iter()
            .map(|v| innodb_analysis::rows::row_history::value_text(&v.values[3]))
            .collect();
        // t_undo starts with v = id; each of the 5 rounds adds 1000.
        assert_eq!(v, ["5005", "4005", "3005", "2005", "1005", "5"]);
        insta::assert_snapshot!("browse_history@p16k-undo__t_undo", screen(&app, 150, 14));
        // Enter on a version: the undo record it was rebuilt from, on its
        // undo log page of the system tablespace, the record selected.
        let step = history.versions[1].undo.clone().unwrap();
        run(&mut app, &[Action::Down, Action::Open]);
        let Some(View::Page(p)) = app.view() else {
            panic!("no undo page: {}", app.status);
        };
        assert_eq!(p.detail.page, step.page);
        assert_eq!(p.detail.page_type, "UNDO_LOG");
        let source = p.source.clone().expect("a page of another file");
        let undo_space = Tablespace::open(&source, OpenOptions::default()).unwrap();
        assert_eq!(undo_space.space_id(), step.space_id);
        let range = p.selected_range().unwrap();
        assert!(
            range.contains(&usize::from(step.offset)),
            "{range:?} {}",
            step.offset
        );
        insta::assert_snapshot!(
            "browse_undo_record@p16k-undo__t_undo",
            screen(&app, 100, 16)
        );
        run(&mut app, &[Action::Back]);
        // A key that is not there.
        run(&mut app, &[Action::Back, Action::StartSearch]);
        typed(&mut app, "999999");
        // Past the largest key: the descent ends on the rightmost leaf.
        let space =
            Tablespace::open(dir.join("test/t_undo.ibd.gz"), OpenOptions::default()).unwrap();
        let a = innodb_analysis::reports::indexes::IndexAnalysis::build(&space).unwrap();
        let r = innodb_analysis::reports::indexes::IndexesReport::new(&space, &a);
        let id = r.indexes[0].index_id;
        let leaves =
            innodb_analysis::reports::tree_report::TreeReport::build(&space, id, Some(0)).unwrap();
        let last = leaves.pages.last().unwrap().page;
        assert_eq!(
            app.status,
            format!("no row with key 999999 (it would be on leaf page {last})")
        );
    });
}

/// Indexes → levels → pages of the leaf level: the server's n_leaf_pages.
#[test]
fn index_levels_and_pages() {
    let file = fixture("p16k", "test/t_sec_before.ibd");
    let mut app = App::open(&file, Context::default()).unwrap();
    run(&mut app, &[Action::IndexView, Action::Open, Action::Open]);
    let Some(View::LevelPages {
        index_id,
        level,
        pages,
        ..
    }) = app.view()
    else {
        panic!("not the level pages view");
    };
    // innodb_index_stats n_leaf_pages of test/t_sec_before.PRIMARY.
    assert_eq!((*index_id, *level, pages.len()), (25, 0, 68));
    let first = pages[0].page;
    run(&mut app, &[Action::Open]);
    assert_eq!(current_page(&app), first);
    // ] follows FIL_PAGE_NEXT: the second leaf in key order.
    let second = match app.views.iter().rev().nth(1) {
        Some(View::LevelPages { pages, .. }) => pages[1].page,
        _ => panic!(),
    };
    run(&mut app, &[Action::NextPage]);
    assert_eq!(current_page(&app), second);
    run(&mut app, &[Action::PrevPage]);
    assert_eq!(current_page(&app), first);
}

/// A MySQL 8.0+ file's SDI index in the browser's index list and the
/// titles below it: named `SDI` in the id column, whose width its number
/// (2^64 − 1) overflowed, so that every row keeps the header's columns.
#[test]
fn the_sdi_index_is_listed_as_sdi() {
    let file = fixture("mysql-p16k", "test/t_hist.ibd");
    let mut app = App::open(&file, Context::default()).unwrap();
    run(&mut app, &[Action::IndexView]);
    let s = screen(&app, 100, 10);
    assert!(!s.contains(&u64::MAX.to_string()), "{s}");
    let rows: Vec<&str> = s
        .lines()
        .skip_while(|l| !l.contains("index_id"))
        .take_while(|l| l.contains('%') || l.contains("index_id"))
        .collect();
    assert_eq!(rows.len(), 4, "a header and three indexes: {s}");
    // Where the fill column ends: before "  name" in the header, after the
    // "%" of each row.
    let fill_end = |l: &str| {
        l.find("  name")
            .unwrap_or_else(|| l.find("%  ").map_or(0, |at| at + 1))
    };
    assert!(rows.iter().all(|l| fill_end(l) == fill_end(rows[0])), "{s}");
    let sdi = rows.iter().find(|l| l.contains("%  SDI")).unwrap();
    assert_eq!(sdi.split_whitespace().nth(1), Some("SDI"), "{s}");
    // The SDI is the last index: its levels and its leaf level.
    run(&mut app, &[Action::Down, Action::Down, Action::Open]);
    assert!(screen(&app, 100, 10).contains(" index SDI levels "));
    run(&mut app, &[Action::Open]);
    let s = screen(&app, 100, 10);
    assert!(s.contains(" index SDI level 0: 1 pages "), "{s}");
    assert!(s.contains("› index SDI level 0"), "{s}");
}

/// Goto, colourings, the XDES entry → its extent in the map.
#[test]
fn goto_colours_and_extents() {
    let file = fixture("p16k", "test/t_random.ibd");
    let mut app = App::open(&file, Context::default()).unwrap();
    run(&mut app, &[Action::StartGoto]);
    typed(&mut app, "10");
    assert_eq!(current_page(&app), 10);
    run(&mut app, &[Action::Back, Action::CycleColour]);
    let lsn = app
        .map(innodb_analysis::pictures::heatmap::HeatmapBy::LsnAge)
        .unwrap();
    assert_eq!(lsn.pages, 576);
    run(&mut app, &[Action::StartGoto]);
    typed(&mut app, "0");
    select(&mut app, |p, it| match it {
        Item::Field(s, _) => p.detail.sections[s].title.starts_with("XDES entry 1:"),
        _ => false,
    });
    run(&mut app, &[Action::Open]);
    match app.view() {
        Some(View::Space { cursor, .. }) => assert_eq!(*cursor, 64),
        _ => panic!("not the map"),
    }
}

/// A damaged page is a finding; Enter on it opens the page.
#[test]
fn findings_are_listed_and_jumpable() {
    let tmp = tempfile::tempdir().unwrap();
    let copy = support::gunzip_into(&fixture("p16k", "test/t_random.ibd"), tmp.path());
    let mut bytes = std::fs::read(&copy).unwrap();
    bytes[7 * 16384 + 1000] ^= 0xff;
    std::fs::write(&copy, &bytes).unwrap();
    let mut app = App::open(&copy, Context::default()).unwrap();
    app.plain = true;
    app.wait_jobs();
    // The bad page is marked on the map (and only it), and counted.
    let buf = buffer(&app, 80, 24);
    for n in 0..64 {
        let (x, y) = cell_on_screen(&app, n);
        assert_eq!(buf[(x, y)].symbol() == "✗", n == 7, "page {n}");
    }
    assert_eq!(app.bad.as_ref().unwrap().pages, 1);
    let text = screen(&app, 80, 24);
    assert!(text.contains("1        bad (checksum or LSN)"), "{text}");
    run(&mut app, &[Action::FindingsView]);
    let pages: Vec<Option<u32>> = app.findings().iter().map(|f| f.page).collect();
    assert_eq!(pages, [Some(7)], "{:?}", app.findings());
    run(&mut app, &[Action::Open]);
    assert_eq!(current_page(&app), 7);
}

/// The real binary in a pseudo-terminal (util-linux `script`, in every
/// Debian system): it draws, quits on q with exit 0, and leaves the terminal
/// settings (`stty -g`) as it found them, after a panic too.
#[test]
fn smoke_test_in_a_pseudo_terminal() {
    let bin = env!("CARGO_BIN_EXE_innodb-inspect");
    let file = std::fs::canonicalize(fixture("p16k", "test/t_types.ibd")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    for (name, panic, keys, code) in [("quit", false, "q", 0), ("panic", true, "", 101)] {
        let before = tmp.path().join(format!("{name}.before"));
        let after = tmp.path().join(format!("{name}.after"));
        let rc = tmp.path().join(format!("{name}.rc"));
        let inner = format!(
            "stty rows 30 cols 120; stty -g > {b}; {bin} browse {f}; echo $? > {rc}; stty -g > {a}",
            b = before.display(),
            a = after.display(),
            rc = rc.display(),
            f = file.display()
        );
        // Bounded: a browser that did not quit would be killed after 30 s
        // (and the test fail on its exit code).
        let mut cmd = std::process::Command::new("timeout");
        cmd.args([
            "30",
            "script",
            "-qfec",
            &format!("sh -c '{inner}'"),
            "/dev/null",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
        if panic {
            cmd.env("INNODB_INSPECT_BROWSE_TEST_PANIC", "1");
        }
        let mut child = cmd.spawn().expect("timeout and script (util-linux) run");
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            // Keys after the first screen is drawn.
            std::thread::sleep(std::time::Duration::from_millis(800));
            let _ = stdin.write_all(keys.as_bytes());
            std::thread::sleep(std::time::Duration::from_millis(400));
        }
        let out = child.wait_with_output().unwrap();
        let screen = String::from_utf8_lossy(&out.stdout);
        assert!(
            screen.contains("page-type"),
            "{name}: nothing drawn: {screen}"
        );
        if panic {
            assert!(screen.contains("panicking on purpose"), "{name}: {screen}");
        }
        let exit = std::fs::read_to_string(&rc).unwrap_or_default();
        assert_eq!(exit.trim(), code.to_string(), "{name}: exit code");
        let (b, a) = (
            std::fs::read_to_string(&before).unwrap(),
            std::fs::read_to_string(&after).unwrap(),
        );
        assert!(!b.trim().is_empty());
        assert_eq!(b, a, "{name}: terminal settings not restored");
    }
}

/// The browser whose terminal goes away (the window closed: `script`,
/// which holds the pseudo-terminal's other end, killed) ends within a few
/// seconds instead of reading the terminal's end of file forever; so does
/// one sent SIGTERM.
#[test]
fn the_browser_ends_when_its_terminal_goes_away() {
    let bin = env!("CARGO_BIN_EXE_innodb-inspect");
    let file = std::fs::canonicalize(fixture("p16k", "test/t_types.ibd")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    for how in ["hang-up", "SIGTERM"] {
        let pid_file = tmp.path().join(format!("{how}.pid"));
        let inner = format!(
            "stty rows 30 cols 120; echo $$ > {p}; exec {bin} browse {f}",
            p = pid_file.display(),
            f = file.display()
        );
        let mut script = std::process::Command::new("script")
            .args(["-qfec", &format!("sh -c '{inner}'"), "/dev/null"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("script (util-linux) runs");
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let pid = pid.trim();
        let alive = || std::path::Path::new(&format!("/proc/{pid}")).exists();
        assert!(alive(), "{how}: the browser did not start");
        if how == "hang-up" {
            script.kill().unwrap();
        } else {
            std::process::Command::new("kill")
                .args(["-TERM", pid])
                .status()
                .unwrap();
        }
        let _ = script.wait();
        let started = std::time::Instant::now();
        while alive() && started.elapsed() < std::time::Duration::from_secs(10) {
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let still = alive();
        if still {
            // Not left behind to eat a CPU after the test.
            let _ = std::process::Command::new("kill")
                .args(["-9", pid])
                .status();
        }
        assert!(!still, "{how}: the browser still runs 10 s after");
    }
}

/// A record's off-page column (`b`) leads to its BLOB chain; following
/// `BTR_BLOB_HDR_NEXT_PAGE_NO` page by page, the 768-byte local prefix plus
/// every page's `BTR_BLOB_HDR_PART_LEN` is the length the server reported.
#[test]
fn blob_references_lead_to_the_blob_chain() {
    let dir = Path::new("../../fixtures/p16k-offpage/files");
    let truth: serde_json::Value =
        serde_json::from_slice(&std::fs::read("../../fixtures/p16k-offpage/truth.json").unwrap())
            .unwrap();
    let mut app = App::open(
        &dir.join("test/t_compact_blob.ibd.gz"),
        datadir_context(dir),
    )
    .unwrap();
    // Rows with off-page columns, read by the records report.
    let schema = app.file.as_ref().unwrap().schema.clone().unwrap();
    let space = &app.file.as_ref().unwrap().space;
    let rows =
        innodb_analysis::rows::records::RecordsReport::build(space, &schema, None, false, None)
            .unwrap();
    let server_len = |id: u64, column: &str| -> u64 {
        truth["rows"]["test/t_compact_blob"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap()[format!("{column}_len")]
        .as_u64()
        .unwrap()
    };
    let mut samples: Vec<(u32, usize, String, usize, u64)> = rows
        .rows
        .iter()
        .filter(|r| !r.external.is_empty())
        .map(|r| {
            let (field, _) = r.external[0];
            let id: u64 = innodb_analysis::rows::row_history::value_text(&r.values[0])
                .parse()
                .unwrap();
            (r.page, r.origin, rows.fields[field].name.clone(), field, id)
        })
        .collect();
    // The longest columns (the longest chains) and the two shortest.
    samples.sort_by_key(|s| std::cmp::Reverse(server_len(s.4, &s.2)));
    let shortest: Vec<_> = samples.iter().rev().take(2).cloned().collect();
    samples.truncate(3);
    samples.extend(shortest);
    assert_eq!(samples.len(), 5);
    let mut longest = 0;
    for (page, origin, column, _, id) in samples {
        run(&mut app, &[Action::StartGoto]);
        typed(&mut app, &page.to_string());
        select(&mut app, |p, it| match it {
            Item::Record(i) => p.detail.records.as_ref().unwrap().records[i].origin == origin,
            _ => false,
        });
        run(&mut app, &[Action::Blob]);
        let mut total = 768u64;
        let mut seen = 0;
        loop {
            let Some(View::Page(p)) = app.view() else {
                panic!("{}", app.status)
            };
            assert_eq!(p.detail.page_type, "BLOB");
            let field = |name: &str| {
                p.detail
                    .sections
                    .iter()
                    .flat_map(|s| &s.fields)
                    .find(|f| f.name == name)
                    .unwrap()
                    .value
            };
            total += field("BTR_BLOB_HDR_PART_LEN");
            seen += 1;
            if field("BTR_BLOB_HDR_NEXT_PAGE_NO") == 0xFFFF_FFFF || seen > 100 {
                break;
            }
            select(&mut app, |p, it| match it {
                Item::Field(s, f) => {
                    p.detail.sections[s].fields[f].name == "BTR_BLOB_HDR_NEXT_PAGE_NO"
                }
                _ => false,
            });
            run(&mut app, &[Action::Open]);
        }
        let server = server_len(id, &column);
        assert_eq!(total, server, "id {id} column {column}: {seen} BLOB pages");
        longest = longest.max(seen);
        // Back to the record's page.
        for _ in 0..seen {
            app.apply(Action::Back);
        }
    }
    assert!(longest >= 2, "no multi-page chain among the samples");
}

/// `/` descends the clustered index: for every row of a three-level tree
/// the descent ends on the row's own leaf page and record, and keys that
/// are not there end on the leaf where they would be.
#[test]
fn search_by_descent_finds_every_row() {
    use innodb_analysis::rows::key_search::{find, KeySearch};
    let dir = Path::new("../../fixtures/p4k/files");
    let ctx = datadir_context(dir);
    let space =
        Tablespace::open(dir.join("test/t_sec_after.ibd.gz"), OpenOptions::default()).unwrap();
    let schema = innodb_analysis::rows::records::Schema::from_dictionary(
        ctx.dict.as_deref().unwrap(),
        space.space_id(),
    )
    .unwrap();
    let rows =
        innodb_analysis::rows::records::RecordsReport::build(&space, &schema, None, false, None)
            .unwrap();
    assert!(rows.rows.len() > 5000);
    let mut depth = 0;
    for r in &rows.rows {
        let key = innodb_analysis::rows::row_history::value_text(&r.values[0]);
        match find(&space, &schema, &key) {
            KeySearch::Found { page, origin, path } => {
                assert_eq!((page, origin), (r.page, r.origin), "key {key}");
                depth = depth.max(path.len());
            }
            other => panic!("key {key}: {other:?}"),
        }
    }
    assert_eq!(depth, 3, "a three-level tree");
    let first_leaf = rows.rows.first().unwrap().page;
    match find(&space, &schema, "0") {
        KeySearch::NotFound { page, .. } => assert_eq!(page, first_leaf),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        find(&space, &schema, "x"),
        KeySearch::Unsupported(_)
    ));
}

/// From an INODE entry to its segment's pages: the leaf segment of
/// t_random's clustered index uses the server's `n_leaf_pages`, and with
/// the root (the non-leaf segment's one page) reserves its `size`.
#[test]
fn inode_entry_leads_to_the_segment_pages() {
    let file = fixture("p16k", "test/t_random.ibd");
    let truth: serde_json::Value =
        serde_json::from_slice(&std::fs::read("../../fixtures/p16k/truth.json").unwrap()).unwrap();
    let stat = |name: &str| {
        truth["index_stats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| {
                s["table"] == "test/t_random" && s["index"] == "PRIMARY" && s["stat_name"] == name
            })
            .unwrap()["stat_value"]
            .as_u64()
            .unwrap() as usize
    };
    let mut app = App::open(&file, Context::default()).unwrap();
    run(&mut app, &[Action::StartGoto]);
    typed(&mut app, "2");
    select(&mut app, |p, it| match it {
        Item::Field(s, f) => {
            p.detail.sections[s].title == "INODE entry 1: segment 2"
                && p.detail.sections[s].fields[f].name == "FSEG_ID"
        }
        _ => false,
    });
    run(&mut app, &[Action::Open]);
    let Some(View::SegmentPages { owner, pages, .. }) = app.view() else {
        panic!("no segment view: {}", app.status);
    };
    assert!(
        owner.ends_with("leaf") && !owner.contains("non-leaf"),
        "{owner}"
    );
    let used = pages.iter().filter(|p| p.1).count();
    assert_eq!(used, stat("n_leaf_pages"));
    assert_eq!(pages.len() + 1, stat("size"));
    let first = pages[0].0;
    run(&mut app, &[Action::Open]);
    assert_eq!(current_page(&app), first);
}

/// On a MySQL 9.7 data directory: the undo tablespaces (`undo_*`, `*.ibu`)
/// serve roll pointers by their number, the row typed by the table's SDI;
/// the versions of `t_hist` row 5 run from the open transaction's through
/// the committed row to the read view's snapshot (`rows/*.tsv.gz`).
#[test]
fn the_roll_pointer_of_a_mysql_row_leads_through_its_undo_tablespaces() {
    for set in crate::support::mysql::sets() {
        let copy = &set.crash;
        let dir = copy.files.as_path();
        let mut undo: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let n = p.file_name().unwrap().to_string_lossy().into_owned();
                n.starts_with("undo_") || n.ends_with(".ibu.gz")
            })
            .collect();
        undo.sort();
        let context = Context {
            options: OpenOptions::default(),
            system: Some(dir.join("ibdata1.gz")),
            undo,
            dict: None,
        };
        let mut app = App::open(dir, context).unwrap();
        let at = app
            .datadir
            .iter()
            .position(|p| p.ends_with("test/t_hist.ibd.gz"))
            .unwrap();
        for _ in 0..at {
            app.apply(Action::Down);
        }
        run(&mut app, &[Action::Open, Action::StartSearch]);
        typed(&mut app, "5");
        run(&mut app, &[Action::RollPointer]);
        let Some(View::History { history, .. }) = app.view() else {
            panic!("{}: no history view: {}", copy.name, app.status);
        };
        let v: Vec<String> = history
            .versions
            .iter()
            .map(|v| innodb_analysis::rows::row_history::value_text(&v.values[3]))
            .collect();
        let row5 = |file: &str| {
            copy.rows(file)
                .into_iter()
                .find(|r| r[0] == "5")
                .map(|r| r[1].clone())
                .unwrap()
        };
        assert_eq!(v.first(), Some(&row5("rows/t_hist.uncommitted.tsv.gz")));
        assert_eq!(v.get(1), Some(&row5("rows/t_hist.tsv.gz")));
        assert_eq!(v.last(), Some(&row5("rows/t_hist.snapshot.tsv.gz")));
        // The five committed UPDATEs of the history, one version each.
        let rounds = copy.truth["undo_scenario"]["history_rounds"]
            .as_u64()
            .unwrap();
        assert_eq!(v.len() as u64, 2 + rounds, "{}: {v:?}", copy.name);
    }
}

/// The server's `innodb_index_stats` value `name` of `table`'s `index`.
fn index_stat(set: &str, table: &str, index: &str, name: &str) -> u64 {
    let truth: serde_json::Value =
        serde_json::from_slice(&std::fs::read(format!("../../fixtures/{set}/truth.json")).unwrap())
            .unwrap();
    truth["index_stats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["table"] == table && s["index"] == index && s["stat_name"] == name)
        .unwrap()["stat_value"]
        .as_u64()
        .unwrap()
}

/// The screen position of page `n`'s cell on the map (the last frame drawn).
fn cell_on_screen(app: &App, n: u64) -> (u16, u16) {
    let d = app.drawn.get();
    let (x0, y0) = d.map_origin.expect("a map drawn");
    let (columns, per_cell) = d.map_layout;
    let cell = n / per_cell;
    let (row, col) = (
        cell / columns - d.map_first.1,
        cell % columns - d.map_first.0,
    );
    (x0 + col as u16, y0 + row as u16)
}

/// At 80 × 24 with NO_COLOR: a whole extent row of 64 cells, each page
/// its class's symbol (the heatmap's), FSP_HDR, IBUF_BITMAP, INODE, INDEX
/// and free pages told apart; the legend's INDEX leaf count is the
/// server's `n_leaf_pages`; the cursor is its cell in reverse video.
#[test]
fn the_map_at_80x24_without_colour() {
    use innodb_analysis::pictures::heatmap::HeatmapBy;
    settings().bind(|| {
        let file = fixture("p16k", "test/t_random.ibd");
        let mut app = App::open(&file, Context::default()).unwrap();
        app.plain = true;
        app.wait_jobs();
        let text = screen(&app, 80, 24);
        insta::assert_snapshot!("browse_map_80x24_no_color@p16k__t_random", text);
        let buf = buffer(&app, 80, 24);
        let raster = app.map(HeatmapBy::PageType).unwrap();
        let symbol_of = |n: u64| raster.item(raster.cell_of_page(n).unwrap()).unwrap();
        // Every cell of the first row, page 0 to 63, is on screen as its symbol.
        for n in 0..64 {
            let (x, y) = cell_on_screen(&app, n);
            assert_eq!(
                buf[(x, y)].symbol(),
                symbol_of(n).symbol.to_string(),
                "page {n}"
            );
        }
        // Which pages are what, from the space map and the page headers.
        let space = &app.file.as_ref().unwrap().space;
        let map = app.file.as_ref().unwrap().map.clone().unwrap();
        let type_of = |n: u32| {
            innodb_analysis::reports::page_detail::PageDetail::build(space, n)
                .unwrap()
                .page_type
        };
        let free = (0..map.free_limit)
            .find(|&p| map.is_page_free(p))
            .expect("a free page below the free limit");
        let mut seen = Vec::new();
        for (n, want) in [
            (0, "FSP_HDR"),
            (1, "IBUF_BITMAP"),
            (2, "INODE"),
            (3, "INDEX"),
        ] {
            assert_eq!(type_of(n), want);
            seen.push((want, symbol_of(u64::from(n)).symbol));
        }
        seen.push(("free", symbol_of(u64::from(free)).symbol));
        for (i, a) in seen.iter().enumerate() {
            for b in &seen[i + 1..] {
                assert_ne!(a.1, b.1, "{} and {} look alike", a.0, b.0);
            }
        }
        // The legend says what each symbol is, with the server's leaf pages.
        let leaves = index_stat("p16k", "test/t_random", "PRIMARY", "n_leaf_pages");
        let leaf = raster
            .legend
            .iter()
            .find(|i| i.label == "INDEX leaf")
            .unwrap();
        assert_eq!(leaf.pages, leaves);
        let words = |l: &str| -> Vec<String> {
            l.split(|c: char| c == '│' || c.is_whitespace())
                .filter(|w| !w.is_empty())
                .map(String::from)
                .collect()
        };
        let want = [
            leaf.symbol.to_string(),
            leaves.to_string(),
            format!("{:.1}%", innodb_analysis::percent(leaf.share)),
            "INDEX".into(),
            "leaf".into(),
        ];
        assert!(
            text.lines().any(|l| words(l).starts_with(&want)),
            "{want:?}: {text}"
        );
        // The cursor (page 0) in reverse video; no other cell.
        let (x, y) = cell_on_screen(&app, 0);
        assert!(buf[(x, y)]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED));
        let (x, y) = cell_on_screen(&app, 1);
        assert!(!buf[(x, y)]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED));
        // The owner map: bookkeeping, the index, reserved and free.
        run(&mut app, &[Action::Colour(HeatmapBy::Index)]);
        insta::assert_snapshot!(
            "browse_owner_map_80x24_no_color@p16k__t_random",
            screen(&app, 80, 24)
        );
    });
}

/// The rows of t_types as the server reported them (truth.json), by id.
fn t_types_truth(id: u64) -> serde_json::Value {
    let truth: serde_json::Value =
        serde_json::from_slice(&std::fs::read("../../fixtures/p16k/truth.json").unwrap()).unwrap();
    truth["rows"]["test/t_types"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap()
        .clone()
}

/// A leaf page at 80 × 24: the hex pane hidden, the records' values shown
/// (the table's columns first); `x` brings the hex pane back; `Enter` on
/// a record shows every field, with the server's values; `←` `→` scroll.
#[test]
fn records_at_80x24_show_values_and_open_whole() {
    settings().bind(|| {
        let dir = Path::new("../../fixtures/p16k/files");
        let mut app = App::open(&dir.join("test/t_types.ibd.gz"), datadir_context(dir)).unwrap();
        app.plain = true;
        run(&mut app, &[Action::StartSearch]);
        typed(&mut app, "1");
        let page = current_page(&app);
        let text = screen(&app, 80, 24);
        insta::assert_snapshot!("browse_records_80x24@p16k__t_types", text);
        // The selected record's line starts with the row's own columns.
        let server = t_types_truth(1);
        let line = text
            .lines()
            .find(|l| l.contains(" id=1 "))
            .unwrap_or_else(|| panic!("no line of id 1 on page {page}: {text}"));
        assert!(line.contains(&format!("tiu={}", server["tiu"])), "{line}");
        assert!(
            !text.contains("bytes "),
            "the hex pane is hidden at 80 columns"
        );
        run(&mut app, &[Action::ToggleHex]);
        assert!(screen(&app, 80, 24).contains(" bytes "));
        run(&mut app, &[Action::ToggleHex]);
        // Sideways: the lines move 8 columns left.
        let before = screen(&app, 80, 24);
        run(&mut app, &[Action::Right]);
        let after = screen(&app, 80, 24);
        assert_eq!(app.hscroll, 8);
        for (b, a) in before.lines().zip(after.lines()).skip(2).take(19) {
            let b: Vec<char> = b.chars().collect();
            let a: Vec<char> = a.chars().collect();
            if b.len() > 20 {
                assert_eq!(a[1..40], b[9..48], "{after}");
            }
        }
        run(&mut app, &[Action::Left]);
        assert_eq!(app.hscroll, 0);
        // The record view: every field, whole, as the server has it.
        run(&mut app, &[Action::Open]);
        let Some(View::Record(r)) = app.view() else {
            panic!("no record view: {}", app.status);
        };
        let value = |name: &str| {
            r.lines
                .iter()
                .find(|(n, _)| n == name)
                .unwrap_or_else(|| panic!("no field {name}"))
                .1
                .clone()
        };
        for name in ["id", "tiu", "si", "iu", "bi", "biu", "yr"] {
            assert_eq!(value(name), server[name].to_string(), "{name}");
        }
        for name in ["dt", "dtm", "c_lat", "vc_lat", "vc_utf8", "tx"] {
            assert_eq!(value(name), server[name].as_str().unwrap(), "{name}");
        }
        // The roll pointer taken apart: bits 48-54, 16-47, 0-15.
        let roll = value("DB_ROLL_PTR");
        let rp: u64 = roll.split(' ').next().unwrap().parse().unwrap();
        assert!(
            roll.contains(&format!(
                "rollback segment {}, undo page {} offset {}",
                rp >> 48 & 0x7f,
                rp >> 16 & 0xffff_ffff,
                rp & 0xffff
            )),
            "{roll}"
        );
        insta::assert_snapshot!("browse_record_80x24@p16k__t_types", screen(&app, 80, 24));
        run(&mut app, &[Action::End]);
        insta::assert_snapshot!(
            "browse_record_end_80x24@p16k__t_types",
            screen(&app, 80, 24)
        );
    });
}

/// The help at 80 × 24 shows every key, `q` last; on a short screen it
/// scrolls to it.
#[test]
fn the_help_shows_every_key() {
    settings().bind(|| {
        let file = fixture("p16k", "test/t_random.ibd");
        let mut app = App::open(&file, Context::default()).unwrap();
        app.plain = true;
        run(&mut app, &[Action::ToggleHelp]);
        let text = screen(&app, 80, 24);
        insta::assert_snapshot!("browse_help_80x24@p16k__t_random", text);
        for (key, what) in innodb_browse::action::KEYS {
            let line = text
                .lines()
                .find(|l| {
                    l.trim_start_matches('│')
                        .trim_start()
                        .starts_with(&format!("{key}  "))
                })
                .unwrap_or_else(|| panic!("{key} not shown: {text}"));
            assert!(line.contains(&what[..what.len().min(20)]), "{line}");
        }
        let short = screen(&app, 80, 12);
        assert!(!short.contains("q, Ctrl-C"));
        run(&mut app, &[Action::End]);
        let short = screen(&app, 80, 12);
        assert!(short.contains("q, Ctrl-C  quit"), "{short}");
        run(&mut app, &[Action::Cancel]);
        assert!(!app.help);
    });
}

/// Along the leaf chain by FIL_PAGE_NEXT, one view each: the server's
/// `n_leaf_pages` pages; the trail stays within the screen, cut from the
/// left with the current page last, the views bounded; the status line
/// tells the last key's message, then where the selection is.
#[test]
fn the_trail_and_the_status_line_stay_true() {
    let file = fixture("p16k", "test/t_random.ibd");
    let mut app = App::open(&file, Context::default()).unwrap();
    let space = Tablespace::open(&file, OpenOptions::default()).unwrap();
    let leaves = innodb_analysis::reports::tree_report::TreeReport::build(&space, 24, Some(0))
        .unwrap()
        .pages;
    run(&mut app, &[Action::StartGoto]);
    typed(&mut app, &leaves[0].page.to_string());
    let mut visited = vec![current_page(&app)];
    loop {
        select(&mut app, |p, it| match it {
            Item::Field(s, f) => p.detail.sections[s].fields[f].name == "FIL_PAGE_NEXT",
            _ => false,
        });
        run(&mut app, &[Action::Open]);
        let now = current_page(&app);
        if now == *visited.last().unwrap() {
            break;
        }
        visited.push(now);
        let text = screen(&app, 80, 24);
        let title = text.lines().next().unwrap();
        assert!(title.chars().count() <= 80);
        assert!(title.ends_with(&format!("page {now}")), "{title}");
        assert!(app.views.len() <= innodb_browse::app::MAX_VIEWS);
    }
    let expected = index_stat("p16k", "test/t_random", "PRIMARY", "n_leaf_pages");
    assert_eq!(visited.len() as u64, expected);
    let order: Vec<u32> = leaves.iter().map(|p| p.page).collect();
    assert_eq!(visited, order, "the chain is the key order");
    let text = screen(&app, 80, 24);
    assert!(text.lines().next().unwrap().contains("… › "), "{text}");
    // FIL_NULL: a message, gone at the next key.
    assert!(!app.status.is_empty());
    let last_line = |t: &str| t.lines().last().unwrap().to_string();
    assert!(app.status.starts_with(&last_line(&text)), "{text}");
    run(&mut app, &[Action::Down]);
    assert!(app.status.is_empty());
    let Some(View::Page(p)) = app.view() else {
        panic!()
    };
    let want = format!(
        "page {}, line {} of {}",
        p.detail.page,
        p.selected + 1,
        p.items.len()
    );
    assert_eq!(last_line(&screen(&app, 80, 24)), want);
    // `s` goes back to the map, not onto a new one.
    run(&mut app, &[Action::SpaceView]);
    assert_eq!(app.views.len(), 1);
}

/// A list base or node leads to its page with the node's line selected:
/// FSP_FREE_FRAG to the XDES entry's node, FSP_SEG_INODES_FREE to the
/// INODE page's node.
#[test]
fn list_addresses_open_at_the_node() {
    use innodb_format::field::Pointer;
    let file = fixture("p16k", "test/t_random.ibd");
    let mut app = App::open(&file, Context::default()).unwrap();
    for base in ["FSP_FREE_FRAG", "FSP_SEG_INODES_FREE"] {
        run(&mut app, &[Action::StartGoto]);
        typed(&mut app, "0");
        select(&mut app, |p, it| match it {
            Item::Field(s, f) => p.detail.sections[s].fields[f].name == base,
            _ => false,
        });
        let first = match app.view() {
            Some(View::Page(p)) => match p.item() {
                Some(Item::Field(s, f)) => match p.detail.sections[s].fields[f].pointer {
                    Some(Pointer::ListBase {
                        first: Some(a),
                        len,
                        ..
                    }) if len > 0 => a,
                    other => panic!("{base}: {other:?}"),
                },
                _ => panic!(),
            },
            _ => panic!(),
        };
        run(&mut app, &[Action::Open]);
        assert_eq!(current_page(&app), first.page, "{base}");
        let Some(View::Page(p)) = app.view() else {
            panic!()
        };
        let range = p.selected_range().unwrap();
        assert_eq!(range.start, usize::from(first.offset), "{base}");
        let Some(Item::Field(s, f)) = p.item() else {
            panic!("{base}: no field selected")
        };
        let name = p.detail.sections[s].fields[f].name;
        assert!(
            name.ends_with("FLST_NODE") || name.ends_with("PAGE_NODE"),
            "{base}: {name}"
        );
    }
}

/// The mouse: a click on a map cell opens its page; the wheel moves the
/// cursor a row; a click on a line selects it, a second opens it.
#[test]
fn the_mouse_opens_cells_and_scrolls() {
    let file = fixture("p16k", "test/t_random.ibd");
    let mut app = App::open(&file, Context::default()).unwrap();
    app.wait_jobs();
    buffer(&app, 80, 24);
    let (x, y) = cell_on_screen(&app, 70);
    run(&mut app, &[Action::Click(x, y)]);
    assert_eq!(current_page(&app), 70);
    run(
        &mut app,
        &[Action::Back, Action::WheelDown, Action::WheelDown],
    );
    match app.view() {
        Some(View::Space { cursor, .. }) => assert_eq!(*cursor, 70 + 2 * 64),
        _ => panic!("not the map"),
    }
    run(&mut app, &[Action::WheelUp, Action::StartGoto]);
    typed(&mut app, "3");
    buffer(&app, 80, 24);
    let (area, first) = app.drawn.get().list.unwrap();
    run(&mut app, &[Action::Click(area.x + 2, area.y + 4)]);
    let Some(View::Page(p)) = app.view() else {
        panic!()
    };
    assert_eq!(p.selected, first + 4);
    // The wheel moves a list three lines.
    run(&mut app, &[Action::WheelDown]);
    let Some(View::Page(p)) = app.view() else {
        panic!()
    };
    assert_eq!(p.selected, first + 7);
    // The index list: its header is no index; a click on the index, which
    // is selected already, opens its levels.
    run(&mut app, &[Action::IndexView]);
    buffer(&app, 80, 24);
    let (area, _) = app.drawn.get().list.unwrap();
    run(&mut app, &[Action::Click(area.x + 2, area.y)]);
    assert!(matches!(app.view(), Some(View::Indexes { selected: 0 })));
    run(&mut app, &[Action::Click(area.x + 2, area.y + 1)]);
    let Some(View::Levels { index: 0, .. }) = app.view() else {
        panic!("no levels view");
    };
    buffer(&app, 80, 24);
    // Below the last level: nothing.
    let (area, _) = app.drawn.get().list.unwrap();
    run(&mut app, &[Action::Click(area.x + 2, area.y + 5)]);
    let Some(View::Levels { selected, .. }) = app.view() else {
        panic!()
    };
    assert_eq!(*selected, 0);
}

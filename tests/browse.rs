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

/// The screen of `app` at `w` × `h`, as text.
fn screen(app: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| innodb_browse::ui::draw(f, app)).unwrap();
    let buf = t.backend().buffer();
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

//! Damaged copies of real fixture files through the newer paths: every
//! heatmap and chart, key search, page-local typed records, and the browser
//! driven through its views and drawn. Nothing may panic or run away; each
//! mutant must be done within a time bound.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use innodb_analysis::pictures::chart_builders;
use innodb_analysis::pictures::heatmap::{self, HeatmapBy};
use innodb_analysis::reports::indexes::{IndexAnalysis, IndexesReport};
use innodb_analysis::rows::key_search;
use innodb_analysis::rows::records::{RecordsReport, Schema};
use innodb_browse::{Action, App, Context};
use innodb_space::dictionary::Dictionary;
use innodb_space::space_map::SpaceMap;
use innodb_space::{OpenOptions, Tablespace};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::path::Path;
use std::time::{Duration, Instant};

/// A small deterministic generator (xorshift), so that a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Damages `bytes` (pages of `ps` bytes) `n` times: byte flips in headers
/// and bodies, zeroed ranges, a page copied over another, a truncation.
fn mutate(bytes: &mut Vec<u8>, ps: usize, rng: &mut Rng, n: usize) {
    let pages = bytes.len() / ps;
    for _ in 0..n {
        // Mostly the written pages at the front, where the structures are.
        let p = rng.below(pages.min(128));
        let base = p * ps;
        match rng.below(6) {
            0 | 1 => {
                let at = base + rng.below(200);
                bytes[at] ^= 1 << rng.below(8);
            }
            2 => {
                let at = base + rng.below(ps);
                bytes[at] = rng.next() as u8;
            }
            3 => {
                let start = base + rng.below(ps);
                let len = rng.below(512).min(bytes.len() - start);
                bytes[start..start + len].fill(0);
            }
            4 => {
                let q = rng.below(pages.min(128));
                let copy = bytes[q * ps..(q + 1) * ps].to_vec();
                bytes[base..base + ps].copy_from_slice(&copy);
            }
            _ => {
                if rng.below(4) == 0 {
                    let keep = (rng.below(pages).max(1)) * ps + rng.below(ps);
                    bytes.truncate(keep.min(bytes.len()));
                    return;
                }
            }
        }
    }
}

fn exercise_library(space: &Tablespace, schema: Option<&Schema>) {
    let map = SpaceMap::read(space).ok();
    let name = |_: u64| None;
    for by in [
        HeatmapBy::LsnAge,
        HeatmapBy::PageType,
        HeatmapBy::Fill,
        HeatmapBy::Index,
    ] {
        let (r, _) = heatmap::build(space, map.as_ref(), by, &name);
        let _ = innodb_render::png::raster_image(&r);
        let _ = innodb_render::ansi::raster(&r, true);
    }
    if let Ok(a) = IndexAnalysis::build(space) {
        let r = IndexesReport::new(space, &a);
        for c in [
            chart_builders::levels(&r),
            chart_builders::fill_histogram(&r),
        ] {
            let _ = innodb_render::png::chart_image(&c);
            let _ = innodb_render::ansi::chart(&c, false);
        }
    }
    if let Some(schema) = schema {
        for key in ["1", "500", "99999", "x", "1,2"] {
            let _ = key_search::find(space, schema, key);
        }
        for p in 0..space.page_count().min(40) {
            let _ = RecordsReport::build_page(space, schema, None, p);
        }
    }
}

fn exercise_browser(path: &Path, ctx: &Context) {
    let Ok(mut app) = App::open(path, ctx.clone()) else {
        return;
    };
    let mut term = Terminal::new(TestBackend::new(100, 30)).unwrap();
    let script = [
        Action::Right,
        Action::Right,
        Action::Right,
        Action::Open,
        Action::Down,
        Action::Down,
        Action::End,
        Action::Open,
        Action::NextRecord,
        Action::Blob,
        Action::RollPointer,
        Action::NextPage,
        Action::PrevPage,
        Action::Back,
        Action::Back,
        Action::CycleColour,
        Action::CycleColour,
        Action::FindingsView,
        Action::Open,
        Action::Back,
        Action::IndexView,
        Action::Open,
        Action::Open,
        Action::Open,
        Action::Home,
        Action::Open,
        Action::StartSearch,
        Action::Input('7'),
        Action::Submit,
        Action::StartGoto,
        Action::Input('2'),
        Action::Submit,
        Action::End,
        Action::Open,
        Action::ToggleHelp,
        Action::Cancel,
    ];
    for a in script {
        app.apply(a);
        app.wait_jobs();
        term.draw(|f| innodb_browse::ui::draw(f, &app)).unwrap();
    }
}

#[test]
fn mutated_fixtures_through_pictures_search_records_and_the_browser() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = support::fixtures_dir().join("p16k/files");
    let dict = Dictionary::read(
        &Tablespace::open(dir.join("ibdata1.gz"), OpenOptions::default()).unwrap(),
    )
    .ok()
    .map(std::sync::Arc::new);
    let ctx = Context {
        options: OpenOptions::default(),
        system: Some(dir.join("ibdata1.gz")),
        undo: Vec::new(),
        dict: dict.clone(),
    };
    // Count panics in this test's thread and in the threads it starts, the
    // browser's background jobs included (a panic there would otherwise only
    // lose the job's result). The hook is the whole process's, and the other
    // tests of the binary run beside this one, each in a thread the test
    // harness names after the test: a panic in another test's thread is that
    // test's failure and is not counted here. Threads without a name (the
    // browser's jobs, scoped report threads) are counted whichever test
    // started them; none of them panics in a passing run.
    static PANICS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let this_test = std::thread::current().name().map(str::to_string);
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let thread = std::thread::current();
        if thread.name().is_none() || thread.name() == this_test.as_deref() {
            PANICS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        default_hook(info);
    }));
    let mut failures = Vec::new();
    let opened = std::sync::atomic::AtomicUsize::new(0);
    for (fi, name) in [
        "t_random",
        "t_sec_before",
        "t_blob",
        "t_zip8",
        "t_redundant",
    ]
    .iter()
    .enumerate()
    {
        let original = {
            let p = support::gunzip_into(&dir.join(format!("test/{name}.ibd.gz")), tmp.path());
            std::fs::read(p).unwrap()
        };
        let ps = if *name == "t_zip8" { 8192 } else { 16384 };
        for m in 0..30u64 {
            let seed = 0x9E37_79B9_7F4A_7C15 ^ (fi as u64 * 1000 + m);
            let mut rng = Rng(seed);
            let mut bytes = original.clone();
            let n = 1 + rng.below(8);
            mutate(&mut bytes, ps, &mut rng, n);
            let path = tmp.path().join(format!("{name}_{m}.ibd"));
            std::fs::write(&path, &bytes).unwrap();
            let started = Instant::now();
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                if let Ok(space) = Tablespace::open(&path, OpenOptions::default()) {
                    opened.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let schema = dict
                        .as_deref()
                        .and_then(|d| Schema::from_dictionary(d, space.space_id()));
                    exercise_library(&space, schema.as_ref());
                }
                exercise_browser(&path, &ctx);
            }));
            let panics = PANICS.swap(0, std::sync::atomic::Ordering::SeqCst);
            if r.is_err() || panics > 0 {
                failures.push(format!(
                    "{name} mutant {m} (seed {seed:#x}): {panics} panic(s)"
                ));
            }
            if started.elapsed() > Duration::from_secs(60) {
                failures.push(format!(
                    "{name} mutant {m} (seed {seed:#x}): took {:?}",
                    started.elapsed()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Most mutants still open (the damage is mostly past page 0's header).
    let opened = opened.into_inner();
    assert!(opened >= 100, "only {opened} of 150 mutants opened");
}

//! Pictures (`heatmap`, `plot`) on the real-server fixtures: the models
//! checked against the server's numbers, the PNG files decoded back, and
//! the terminal output pinned.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use innodb_analysis::pictures::heatmap::{self, HeatmapBy};
use innodb_analysis::pictures::{chart_builders, palette, Raster, Rgb};
use innodb_analysis::reports::indexes::{IndexAnalysis, IndexesReport};
use innodb_analysis::reports::undo_report::UndoReport;
use innodb_analysis::{PageFilter, PageList};
use innodb_render::png::{self, image};
use innodb_space::space_map::SpaceMap;
use innodb_space::{OpenOptions, Tablespace};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn fixture(config: &str, name: &str) -> PathBuf {
    support::fixtures_dir()
        .join(config)
        .join("files")
        .join(format!("{name}.gz"))
}

fn open(path: &Path) -> Tablespace {
    Tablespace::open(path, OpenOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn truth(config: &str) -> Value {
    let p = support::fixtures_dir().join(config).join("truth.json");
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn no_names(_: u64) -> Option<String> {
    None
}

fn build(space: &Tablespace, by: HeatmapBy) -> Raster {
    let map = SpaceMap::read(space).ok();
    heatmap::build(space, map.as_ref(), by, &no_names).0
}

fn colour_of_page(r: &Raster, n: u64) -> Rgb {
    let cell = r.cell_of_page(n).unwrap();
    r.item(cell).unwrap().colour
}

/// Decodes a PNG written by the binary.
fn decode(path: &Path) -> image::RgbImage {
    image::open(path).unwrap().to_rgb8()
}

fn pixel_of_page(img: &image::RgbImage, r: &Raster, n: u64) -> Rgb {
    let layout = png::raster_layout(r);
    let i = (n / u64::from(r.pages_per_cell)) as usize;
    let (x, y, w, h) = png::cell_rect(&layout, r, i);
    let p = img.get_pixel(x + w / 2, y + h / 2);
    Rgb(p[0], p[1], p[2])
}

/// The band of `lsn` on the linear scale from `lo` to `hi`, from its
/// definition: the tenth of the LSN range it falls in, the newest in the last.
fn linear_band(lsn: u64, lo: u64, hi: u64) -> usize {
    if hi == lo {
        return 9;
    }
    ((u128::from(lsn - lo) * 10 / u128::from(hi - lo)) as usize).min(9)
}

/// Pages of each LSN band in a raster's legend (the bands' symbols are
/// their digits).
fn band_pages(r: &Raster) -> [u64; 10] {
    let mut out = [0; 10];
    for item in &r.legend {
        if let Some(b) = item.symbol.to_digit(10) {
            out[b as usize] += item.pages;
        }
    }
    out
}

/// The default LSN-age scale is linear in LSN: every written page is drawn
/// in the colour of the tenth of the range (oldest to newest written page)
/// its LSN is in, the newest in the top colour, a page midway in the
/// middle; never-written pages are the pale colour no band has. In the
/// model and in the PNG the binary writes.
#[test]
fn lsn_age_colours_follow_the_lsn_linearly() {
    let tmp = tempfile::tempdir().unwrap();
    for (config, name) in [
        ("p16k", "test/t_random.ibd"),
        ("p16k", "test/t_ordered.ibd"),
        ("p4k", "test/t_random.ibd"),
        ("p16k", "ibdata1"),
        ("p64k", "test/t_sec_after.ibd"),
        ("p16k", "test/t_zip8.ibd"),
    ] {
        let what = format!("{config}/{name}");
        let path = fixture(config, name);
        let space = open(&path);
        let list = PageList::build(&space, &PageFilter::default());
        let written: Vec<_> = list.pages.iter().filter(|p| p.lsn != 0).collect();
        let newest = written.iter().max_by_key(|p| p.lsn).unwrap();
        let oldest = written.iter().min_by_key(|p| p.lsn).unwrap();
        let (lo, hi) = (oldest.lsn, newest.lsn);
        let r = build(&space, HeatmapBy::LsnAge);
        assert_eq!(r.pages_per_cell, 1);
        assert_eq!(r.pages, list.pages.len() as u64);
        // Every page's colour, from its LSN.
        let mut expected = [0u64; 10];
        for p in &list.pages {
            let colour = colour_of_page(&r, u64::from(p.page));
            if p.lsn == 0 {
                assert_eq!(
                    colour,
                    palette::EMPTY,
                    "{what}: page {} never written",
                    p.page
                );
                continue;
            }
            let b = linear_band(p.lsn, lo, hi);
            expected[b] += 1;
            assert_eq!(
                colour,
                palette::LSN_BANDS[b],
                "{what}: page {} LSN {}",
                p.page,
                p.lsn
            );
        }
        assert_eq!(band_pages(&r), expected, "{what}");
        assert_eq!(colour_of_page(&r, u64::from(newest.page)), palette::NEWEST);
        assert_eq!(colour_of_page(&r, u64::from(oldest.page)), palette::OLDEST);
        // A page written midway in LSN is in the middle band.
        let mid = lo + (hi - lo).div_ceil(2);
        assert_eq!(linear_band(mid, lo, hi), 5);
        let near_mid = written.iter().min_by_key(|p| p.lsn.abs_diff(mid)).unwrap();
        if near_mid.lsn.abs_diff(mid) < (hi - lo) / 20 {
            let b = linear_band(near_mid.lsn, lo, hi);
            assert!(
                b == 4 || b == 5,
                "{what}: page {} LSN {}",
                near_mid.page,
                near_mid.lsn
            );
        }
        // The histogram counts every written page between the two LSNs.
        let h = r.histogram.as_ref().unwrap();
        assert_eq!(h.counts.iter().sum::<u64>(), written.len() as u64);
        assert_eq!(h.low_label, lo.to_string());
        assert_eq!(h.high_label, hi.to_string());

        let out = tmp.path().join("lsn.png");
        let run = support::run([
            "heatmap".as_ref(),
            path.as_os_str(),
            "--by".as_ref(),
            "lsn-age".as_ref(),
            "--png".as_ref(),
            out.as_os_str(),
        ]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let img = decode(&out);
        let layout = png::raster_layout(&r);
        assert_eq!((img.width(), img.height()), (layout.width, layout.height));
        for p in &list.pages {
            let want = if p.lsn == 0 {
                palette::EMPTY
            } else {
                palette::LSN_BANDS[linear_band(p.lsn, lo, hi)]
            };
            assert_eq!(
                pixel_of_page(&img, &r, u64::from(p.page)),
                want,
                "{what}: PNG page {}",
                p.page
            );
        }
        assert_legend_drawn(&img, &r, layout.legend_y);
    }
}

/// Random inserts touch every leaf until the end of the load: on the
/// linear scale nearly the whole of t_random is the newest colour, as in
/// Jeremy Cole's picture, where the rank scale spreads the same pages over
/// all ten colours.
#[test]
fn random_inserts_are_the_newest_colour_all_over() {
    let path = fixture("p16k", "test/t_random.ibd");
    let space = open(&path);
    let list = PageList::build(&space, &PageFilter::default());
    let mut lsns: Vec<u64> = list
        .pages
        .iter()
        .map(|p| p.lsn)
        .filter(|&l| l != 0)
        .collect();
    lsns.sort_unstable();
    let (lo, hi) = (lsns[0], *lsns.last().unwrap());
    let newest_tenth = lsns
        .iter()
        .filter(|&&l| linear_band(l, lo, hi) == 9)
        .count();
    assert!(
        newest_tenth * 10 >= lsns.len() * 9,
        "{newest_tenth} of {}",
        lsns.len()
    );
    let r = build(&space, HeatmapBy::LsnAge);
    assert_eq!(band_pages(&r)[9], newest_tenth as u64);

    // --lsn-scale rank: band b holds the pages whose share of pages with an
    // LSN at most theirs is in the b-th tenth.
    let (json, out) = support::run_json([
        "heatmap".as_ref(),
        path.as_os_str(),
        "--lsn-scale".as_ref(),
        "rank".as_ref(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let n = lsns.len();
    let mut expected = [0u64; 10];
    for &l in &lsns {
        let at_most = lsns.partition_point(|&x| x <= l);
        expected[((at_most * 10).div_ceil(n)).clamp(1, 10) - 1] += 1;
    }
    let mut got = [0u64; 10];
    for item in json["legend"].as_array().unwrap() {
        let symbol = item["symbol"].as_str().unwrap();
        if let Some(b) = symbol.chars().next().and_then(|c| c.to_digit(10)) {
            got[b as usize] += item["pages"].as_u64().unwrap();
        }
    }
    assert_eq!(got, expected);
    assert!(
        expected.iter().filter(|&&c| c > 0).count() >= 8,
        "{expected:?}"
    );
}

/// Rows are 64 cells whatever the page size: an extent of 4k pages spans
/// four rows, and cells stay 16 px wide.
#[test]
fn rows_are_64_cells_at_every_page_size() {
    for (config, extent) in [("p4k", 256u64), ("p8k", 128), ("p16k", 64), ("p64k", 64)] {
        let space = open(&fixture(config, "test/t_random.ibd"));
        let r = build(&space, HeatmapBy::PageType);
        assert_eq!(r.columns, 64, "{config}");
        assert_eq!(r.pages_per_cell, 1, "{config}");
        assert_eq!(r.rows() as u64, r.pages.div_ceil(64), "{config}");
        assert_eq!(r.row_first_page(1), 64);
        if extent > 64 {
            let said = format!("an extent ({extent} pages) spans {} rows", extent / 64);
            assert!(r.subtitle.contains(&said), "{config}: {}", r.subtitle);
        }
        let l = png::raster_layout(&r);
        assert_eq!(l.cell_w, 16, "{config}");
    }
}

/// A large, mostly never-written file (t_random of 4k pages, its file
/// extended to 65,536 pages as a server pre-extends it): 2 pages a cell,
/// 512 rows, every 4th labelled, no label touching another, and a picture
/// of bounded size.
#[test]
fn a_large_file_gives_a_bounded_picture_with_labels_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let path = support::gunzip_into(&fixture("p4k", "test/t_random.ibd"), tmp.path());
    let pages: u64 = 65_536;
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(pages * 4096)
        .unwrap();
    let space = open(&path);
    let r = build(&space, HeatmapBy::LsnAge);
    assert_eq!((r.columns, r.pages_per_cell, r.rows()), (64, 2, 512));
    let l = png::raster_layout(&r);
    let labels = png::raster_labels(&l, &r);
    assert_eq!(png::first_clash(&labels, png::GAP), None);
    assert_eq!(l.row_step, 4);
    let rows: Vec<&str> = labels.iter().skip(3).map(|p| p.text.as_str()).collect();
    assert_eq!(rows.len(), 128);
    assert_eq!(rows[..3], ["0", "512", "1024"]);
    for p in &labels {
        assert!(p.x >= 0 && p.x + p.w <= i64::from(l.width), "{p:?}");
    }
    assert!(
        l.width <= 1200 && l.height <= 2600,
        "{}x{}",
        l.width,
        l.height
    );
    let out = tmp.path().join("large.png");
    let run = support::run([
        "heatmap".as_ref(),
        path.as_os_str(),
        "--png".as_ref(),
        out.as_os_str(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let img = decode(&out);
    assert_eq!((img.width(), img.height()), (l.width, l.height));
    // The pages past the old end were never written.
    assert_eq!(pixel_of_page(&img, &r, pages - 1), palette::EMPTY);
}

/// Every legend colour appears below the map, in the legend.
fn assert_legend_drawn(img: &image::RgbImage, r: &Raster, legend_y: u32) {
    for item in &r.legend {
        let Rgb(a, b, c) = item.colour;
        let found = (legend_y..img.height())
            .any(|y| (0..img.width()).any(|x| img.get_pixel(x, y).0 == [a, b, c]));
        assert!(found, "legend swatch of {} not drawn", item.label);
    }
}

/// innochecksum's page-type summary, folded as ours: INDEX leaves and
/// non-leaf pages are INDEX, never-written pages are ALLOCATED.
#[test]
fn page_type_map_counts_match_innochecksum() {
    let mut compared = 0;
    for config in ["p4k", "p8k", "p16k", "p32k", "p64k", "p16k-crc32"] {
        let t = truth(config);
        for (name, f) in t["files"].as_object().unwrap() {
            let ic = &f["innochecksum"]["page_types"];
            let theirs: BTreeMap<String, u64> = ic
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
                .filter(|(_, v)| *v > 0)
                .collect();
            if theirs.contains_key("PAGE_COMPRESSED") || theirs.contains_key("OTHER") {
                continue; // innochecksum counts the frames, we the pages inside.
            }
            let space = open(&fixture(config, name));
            let r = build(&space, HeatmapBy::PageType);
            let mut ours: BTreeMap<String, u64> = BTreeMap::new();
            for item in &r.legend {
                let key = match item.label.as_str() {
                    "never written (all zero)" => "ALLOCATED",
                    l => l
                        .trim_end_matches(" leaf")
                        .trim_end_matches(" non-leaf")
                        .trim_start_matches("R"),
                };
                let key = if key == "TREE" { "INDEX" } else { key };
                *ours.entry(key.to_string()).or_default() += item.pages;
            }
            assert_eq!(ours, theirs, "{config}/{name}");
            compared += 1;
        }
    }
    assert!(compared >= 60, "only {compared} files compared");
}

/// The index map: pages of each table's indexes plus the free pages their
/// segments reserved equal the server's `size` statistic summed over the
/// table's indexes; a free page is drawn in the free colour.
#[test]
fn index_map_matches_the_server_index_sizes() {
    let tmp = tempfile::tempdir().unwrap();
    let mut compared = 0;
    for config in ["p4k", "p16k", "p64k"] {
        let t = truth(config);
        let mut size: BTreeMap<String, u64> = BTreeMap::new();
        for s in t["index_stats"].as_array().unwrap() {
            if s["stat_name"] == "size" {
                *size
                    .entry(s["table"].as_str().unwrap().to_string())
                    .or_default() += s["stat_value"].as_u64().unwrap();
            }
        }
        for (name, _) in t["files"].as_object().unwrap() {
            let Some(table) = name.strip_suffix(".ibd") else {
                continue;
            };
            let Some(&expected) = size.get(table) else {
                continue;
            };
            let space = open(&fixture(config, name));
            let r = build(&space, HeatmapBy::Index);
            let pages = |f: &dyn Fn(&str) -> bool| -> u64 {
                r.legend
                    .iter()
                    .filter(|i| f(&i.label))
                    .map(|i| i.pages)
                    .sum()
            };
            let index_pages = pages(&|l| l.starts_with("index "));
            let reserved = pages(&|l| l.starts_with("reserved unused"));
            assert_eq!(
                index_pages + reserved,
                expected,
                "{config}/{name}: index pages {index_pages} + reserved unused {reserved}"
            );
            assert_eq!(r.legend.iter().map(|i| i.pages).sum::<u64>(), r.pages);
            compared += 1;
            if config == "p16k" && name == "test/t_random.ibd" {
                let free_page = (0..r.pages)
                    .find(|&n| r.item(r.cell_of_page(n).unwrap()).unwrap().label == "free")
                    .expect("t_random has a free page");
                let out = tmp.path().join("index.png");
                let run = support::run([
                    "heatmap".as_ref(),
                    fixture(config, name).as_os_str(),
                    "--by".as_ref(),
                    "index".as_ref(),
                    "--png".as_ref(),
                    out.as_os_str(),
                ]);
                assert!(run.status.success());
                let img = decode(&out);
                assert_eq!(pixel_of_page(&img, &r, free_page), palette::FREE);
                assert_eq!(pixel_of_page(&img, &r, 0), palette::BOOKKEEPING);
                assert_legend_drawn(&img, &r, png::raster_layout(&r).legend_y);
            }
        }
    }
    assert!(compared >= 30, "only {compared} files compared");
}

/// The fill map: each index's pages and mean fill are those of the index
/// report (walked from the roots), which the fixture tests tie to the server.
#[test]
fn fill_map_levels_are_the_page_fill() {
    for (config, name) in [
        ("p16k", "test/t_random.ibd"),
        ("p16k", "test/t_sec_before.ibd"),
        ("p4k", "test/t_ordered.ibd"),
        ("p16k", "test/t_zip4.ibd"),
    ] {
        let space = open(&fixture(config, name));
        let r = build(&space, HeatmapBy::Fill);
        let a = IndexAnalysis::build(&space).unwrap();
        let report = IndexesReport::new(&space, &a);
        for ix in &report.indexes {
            let label = format!("index {}", ix.index_id);
            let class = r.legend.iter().position(|i| i.label == label).unwrap() as u16;
            let levels: Vec<f64> = r
                .cells
                .iter()
                .filter(|c| c.class == class)
                .map(|c| f64::from(c.level))
                .collect();
            let pages: u64 = ix.pages_per_level.iter().sum();
            assert_eq!(levels.len() as u64, pages, "{config}/{name} {label}");
            let mean = levels.iter().sum::<f64>() / levels.len() as f64;
            assert!(
                (mean - ix.fill.min(1.0)).abs() < 0.001,
                "{config}/{name} {label}: mean cell fill {mean} != index fill {}",
                ix.fill
            );
        }
    }
}

fn stat(t: &Value, table: &str, index: &str, name: &str) -> u64 {
    t["index_stats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["table"] == table && s["index"] == index && s["stat_name"] == name)
        .unwrap()["stat_value"]
        .as_u64()
        .unwrap()
}

/// `plot --levels`: the leaf bars are the server's `n_leaf_pages`;
/// `plot --fill-histogram`: every page of each index in one bucket.
#[test]
fn level_and_fill_charts_count_the_server_pages() {
    for config in ["p4k", "p16k"] {
        let t = truth(config);
        let space = open(&fixture(config, "test/t_sec_after.ibd"));
        let a = IndexAnalysis::build(&space).unwrap();
        let r = IndexesReport::new(&space, &a);
        let levels = chart_builders::levels(&r);
        let leaves: Vec<u64> = levels
            .series
            .iter()
            .map(|s| s.points.first().unwrap().1 as u64)
            .collect();
        // The server's statistics for the clustered index, innochecksum's
        // leaf-page count for every index.
        assert_eq!(
            leaves[0],
            stat(&t, "test/t_sec_after", "PRIMARY", "n_leaf_pages"),
            "{config}"
        );
        let raw = t["files"]["test/t_sec_after.ibd"]["innochecksum"]["raw"]
            .as_str()
            .unwrap();
        for (ix, &ours) in r.indexes.iter().zip(&leaves) {
            let row = raw
                .lines()
                .map(|l| l.split_whitespace().collect::<Vec<_>>())
                .find(|w| w.len() == 5 && w[0] == ix.index_id.to_string())
                .unwrap_or_else(|| panic!("{config}: no innochecksum row for {}", ix.index_id));
            assert_eq!(ours.to_string(), row[2], "{config}: index {}", ix.index_id);
        }
        let fill = chart_builders::fill_histogram(&r);
        for (s, ix) in fill.series.iter().zip(&r.indexes) {
            let total: f64 = s.points.iter().map(|p| p.1).sum();
            assert_eq!(total as u64, ix.pages_per_level.iter().sum::<u64>());
        }
        assert_eq!(fill.categories.len(), 11);
        // Every fill bucket's label is drawn whole, none touching another.
        let (labels, width) = png::chart_labels(&fill);
        assert_eq!(png::first_clash(&labels, png::GAP), None, "{config}");
        let texts: Vec<&str> = labels.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts, fill.categories, "{config}");
        assert!(labels
            .iter()
            .all(|p| p.x >= 0 && p.x + p.w <= i64::from(width)));
    }
}

/// `plot --undo-growth` on the undo scenario: one step per transaction in
/// the history (the server's history list length), ending at the pages walked.
#[test]
fn undo_growth_steps_through_the_history() {
    for config in ["p16k-undo", "p4k-undo"] {
        let t = truth(config);
        let files = support::fixtures_dir().join(config).join("files");
        let mut undo: Vec<PathBuf> = std::fs::read_dir(&files)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("undo"))
            .collect();
        undo.sort();
        let system = open(&files.join("ibdata1.gz"));
        let undo: Vec<Tablespace> = undo.iter().map(|p| open(p)).collect();
        let refs: Vec<&Tablespace> = undo.iter().collect();
        let r = UndoReport::build(&system, &refs, None);
        let chart = chart_builders::undo_growth(&r, config);
        let s = &chart.series[0];
        let hll = t["history_list_length"].as_u64().unwrap();
        assert_eq!(s.points.len() as u64, hll + 1, "{config}");
        assert!(s
            .points
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1));
        assert_eq!(s.points.last().unwrap().1 as u64, r.totals.undo_pages);
        // The binary draws it from --datadir too.
        let out = support::run([
            "--datadir".as_ref(),
            files.as_os_str(),
            "plot".as_ref(),
            "--undo-growth".as_ref(),
            "--color".as_ref(),
            "never".as_ref(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains(&format!("history list length {hll}")),
            "{text}"
        );
    }
}

/// Terminal output, pinned with its colour escapes, and the raster model as text.
#[test]
fn terminal_pictures_snapshots() {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        let types = fixture("p16k", "test/t_types.ibd");
        let random = fixture("p16k", "test/t_random.ibd");
        let sec = fixture("p4k", "test/t_sec_after.ibd");
        let cases: Vec<(&str, Vec<&std::ffi::OsStr>)> = vec![
            (
                "heatmap_lsn_age_colour@p16k__t_types",
                vec![
                    "heatmap".as_ref(),
                    types.as_os_str(),
                    "--color".as_ref(),
                    "always".as_ref(),
                ],
            ),
            (
                "heatmap_page_type_plain@p16k__t_random",
                vec![
                    "heatmap".as_ref(),
                    random.as_os_str(),
                    "--by".as_ref(),
                    "page-type".as_ref(),
                    "--color".as_ref(),
                    "never".as_ref(),
                ],
            ),
            (
                "heatmap_fill_colour@p4k__t_sec_after",
                vec![
                    "heatmap".as_ref(),
                    sec.as_os_str(),
                    "--by".as_ref(),
                    "fill".as_ref(),
                    "--color".as_ref(),
                    "always".as_ref(),
                ],
            ),
            (
                "plot_levels_colour@p4k__t_sec_after",
                vec![
                    "plot".as_ref(),
                    sec.as_os_str(),
                    "--levels".as_ref(),
                    "--color".as_ref(),
                    "always".as_ref(),
                ],
            ),
            (
                "plot_fill_plain@p16k__t_random",
                vec![
                    "plot".as_ref(),
                    random.as_os_str(),
                    "--fill-histogram".as_ref(),
                    "--color".as_ref(),
                    "never".as_ref(),
                ],
            ),
        ];
        for (name, args) in cases {
            let out = support::run(args);
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            insta::assert_snapshot!(name, String::from_utf8(out.stdout).unwrap());
        }
        let space = open(&random);
        insta::assert_snapshot!(
            "heatmap_index_model@p16k__t_random",
            build(&space, HeatmapBy::Index).to_text()
        );
    });
}

/// NO_COLOR and a pipe give plain symbols.
#[test]
fn no_colour_when_piped_or_no_color() {
    let file = fixture("p16k", "test/t_types.ibd");
    let out = support::run(["heatmap".as_ref(), file.as_os_str()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\x1b'), "piped output has escapes");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_innodb-inspect"))
        .env("NO_COLOR", "1")
        .args([
            "heatmap".as_ref(),
            file.as_os_str(),
            "--color".as_ref(),
            "auto".as_ref(),
        ])
        .output()
        .unwrap();
    assert!(!String::from_utf8(out.stdout).unwrap().contains('\x1b'));
}

/// Several colourings from one scan are the maps each makes on its own.
#[test]
fn one_scan_makes_the_same_maps_as_one_scan_each() {
    let all = [
        HeatmapBy::LsnAge,
        HeatmapBy::PageType,
        HeatmapBy::Fill,
        HeatmapBy::Index,
    ];
    for (config, name) in [("p16k", "test/t_sec_before.ibd"), ("p4k", "ibdata1")] {
        let space = open(&fixture(config, name));
        let map = SpaceMap::read(&space).ok();
        let (together, _) = heatmap::build_many(
            &space,
            map.as_ref(),
            &all,
            &no_names,
            &mut innodb_analysis::reports::scan::NoObserver,
        );
        assert_eq!(together.len(), all.len());
        for (by, raster) in all.iter().zip(&together) {
            assert_eq!(*raster, build(&space, *by), "{config}/{name} {by:?}");
        }
    }
}

/// The `<rect>` elements of an SVG document: `(x, y, w, h)` → fill.
fn svg_rects(svg: &str) -> BTreeMap<(u32, u32, u32, u32), Rgb> {
    let attr = |el: &str, name: &str| -> String {
        let key = format!(" {name}=\"");
        let start = el.find(&key).unwrap() + key.len();
        el[start..].split('"').next().unwrap().to_string()
    };
    svg.lines()
        .filter(|l| l.starts_with("<rect "))
        .map(|l| {
            let n = |k: &str| attr(l, k).parse::<u32>().unwrap();
            let fill = attr(l, "fill");
            let c = |i: usize| u8::from_str_radix(&fill[i..i + 2], 16).unwrap();
            (
                (n("x"), n("y"), n("width"), n("height")),
                Rgb(c(1), c(3), c(5)),
            )
        })
        .collect()
}

/// `--png OUT.svg` writes the picture as SVG, laid out as the PNG: the
/// same size, a rectangle for every cell where the PNG has it, in the
/// colour the PNG shows there, and every label as text; likewise for a
/// chart.
#[test]
fn svg_pictures_are_the_png_pictures() {
    let tmp = tempfile::tempdir().unwrap();
    let path = fixture("p16k", "test/t_random.ibd");
    let write = |args: &[&str], out: &Path| {
        let mut argv: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
        argv.insert(1, path.clone().into());
        argv.extend(["--png".into(), out.into()]);
        let o = support::run(argv);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(
            String::from_utf8_lossy(&o.stdout).contains(", SVG, ")
                == (out.extension().unwrap() == "svg")
        );
    };
    let space = open(&path);
    for by in ["page-type", "lsn-age", "fill", "index"] {
        let (png_out, svg_out) = (tmp.path().join("m.png"), tmp.path().join("m.svg"));
        write(&["heatmap", "--by", by], &png_out);
        write(&["heatmap", "--by", by], &svg_out);
        let img = decode(&png_out);
        let svg = std::fs::read_to_string(&svg_out).unwrap();
        assert!(svg.contains(&format!(
            "width=\"{}\" height=\"{}\"",
            img.width(),
            img.height()
        )));
        let rects = svg_rects(&svg);
        let r = build(
            &space,
            match by {
                "page-type" => HeatmapBy::PageType,
                "lsn-age" => HeatmapBy::LsnAge,
                "fill" => HeatmapBy::Fill,
                _ => HeatmapBy::Index,
            },
        );
        let layout = png::raster_layout(&r);
        let cells = r.rows() * r.columns as usize;
        let mut checked = 0;
        for i in 0..cells {
            let (x, y, w, h) = png::cell_rect(&layout, &r, i);
            let Some(fill) = rects.get(&(x, y, w, h)) else {
                continue;
            };
            let p = img.get_pixel(x + w / 2, y + h / 2);
            assert_eq!(*fill, Rgb(p[0], p[1], p[2]), "{by}: cell {i}");
            checked += 1;
        }
        assert_eq!(checked, cells, "{by}: every cell is a rectangle");
        for label in png::raster_labels(&layout, &r) {
            assert!(
                svg.contains(&format!(">{}</text>", label.text)),
                "{by}: {}",
                label.text
            );
        }
    }
    let (png_out, svg_out) = (tmp.path().join("c.png"), tmp.path().join("c.svg"));
    write(&["plot", "--fill-histogram"], &png_out);
    write(&["plot", "--fill-histogram"], &svg_out);
    let img = decode(&png_out);
    let svg = std::fs::read_to_string(&svg_out).unwrap();
    assert!(svg.contains(&format!(
        "width=\"{}\" height=\"{}\"",
        img.width(),
        img.height()
    )));
    for label in ["0-10%", "90-100%", "page fill"] {
        assert!(svg.contains(&format!(">{label}</text>")), "{label}");
    }
}

/// The legend key of a line (after its two spaces of indent): the colour
/// escape it starts with, or else its symbol; with the index id the rest
/// of the line names: `segment K: index N …` (extents) or ending in
/// `index N` (heatmap).
fn legend_key(line: &str) -> Option<(u64, String)> {
    let rest = line.strip_prefix("  ").filter(|r| !r.starts_with(' '))?;
    let key = match rest.strip_prefix("\x1b[38;5;") {
        Some(c) => c.split('m').next()?.to_string(),
        None => rest.chars().next()?.to_string(),
    };
    let id = match rest.split_once(": index ") {
        Some((head, tail)) if head.contains(" segment ") => tail.split(' ').next()?,
        _ => rest.rsplit_once("%  index ")?.1,
    };
    Some((id.parse().ok()?, key))
}

/// The letter and terminal colour of each index in the legend `args`
/// prints for `file` (plain, then with `--color always`).
fn legend_keys(args: &[&str], file: &Path) -> BTreeMap<u64, (String, String)> {
    let text = |colour: &str| {
        let mut a: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
        a.insert(1, "--color".into());
        a.insert(2, colour.into());
        a.push(file.into());
        let out = support::run(a);
        assert!(out.status.success(), "{args:?} {}", file.display());
        String::from_utf8(out.stdout).unwrap()
    };
    let read = |t: &str| -> BTreeMap<u64, String> {
        let mut m = BTreeMap::new();
        for (id, key) in t.lines().filter_map(legend_key) {
            // Every segment of an index has the index's one key.
            let prev = m.insert(id, key.clone());
            assert!(
                prev.is_none_or(|p| p == key),
                "{}: index {id}",
                file.display()
            );
        }
        m
    };
    let plain = read(&text("never"));
    let coloured = read(&text("always"));
    assert_eq!(
        plain.keys().collect::<Vec<_>>(),
        coloured.keys().collect::<Vec<_>>()
    );
    plain
        .into_iter()
        .zip(coloured.into_values())
        .map(|((id, symbol), colour)| (id, (symbol, colour)))
        .collect()
}

/// An index has one letter and one colour in `extents` (both its segments)
/// and in `heatmap --by index`, on every MariaDB fixture tablespace of five
/// page sizes (system tablespaces included).
#[test]
fn an_index_has_one_letter_and_colour_in_extents_and_heatmaps() {
    let mut compared = 0;
    for config in ["p4k", "p8k", "p16k", "p32k", "p64k"] {
        let dir = support::fixtures_dir().join(config).join("files");
        for file in support::tablespaces_below(&dir, ".gz") {
            let extents = legend_keys(&["extents"], &file);
            let heatmap = legend_keys(&["heatmap", "--by", "index"], &file);
            assert_eq!(extents, heatmap, "{}", file.display());
            compared += extents.len();
        }
    }
    assert!(compared >= 100, "{compared} indexes compared");
}

/// `extents` names each index in its legend as `indexes` does, from the
/// same dictionary: p16k's tables through `--system ibdata1`, mysql-p16k's
/// through each file's SDI; with no dictionary the legend names none.
#[test]
fn extents_names_its_indexes_as_indexes_does() {
    let p16k = support::fixtures_dir().join("p16k").join("files");
    let mysql = support::fixtures_dir().join("mysql-p16k").join("files");
    let system = p16k.join("ibdata1.gz");
    let mut named = 0;
    let mut check = |args: &[&std::ffi::OsStr]| {
        let names = |cmd: &str| {
            let mut a = args.to_vec();
            a.insert(a.len() - 1, cmd.as_ref());
            support::run_json(a).0
        };
        let indexes = names("indexes");
        let by_id: BTreeMap<u64, Option<&str>> = indexes["indexes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["index_id"].as_u64().unwrap_or(u64::MAX),
                    i["name"].as_str(),
                )
            })
            .collect();
        let extents = names("extents");
        for e in extents["legend"].as_array().unwrap() {
            let Some(id) = e["index_id"].as_u64() else {
                continue;
            };
            let want = by_id.get(&id).copied().flatten();
            assert_eq!(e["index_name"].as_str(), want, "{args:?}: index {id}");
            named += usize::from(want.is_some());
        }
    };
    for table in ["t_random", "t_sec_before", "t_types"] {
        let file = p16k.join("test").join(format!("{table}.ibd.gz"));
        check(&["--system".as_ref(), system.as_os_str(), file.as_os_str()]);
        let (bare, _) = support::run_json(["extents".as_ref(), file.as_os_str()]);
        assert!(
            bare["legend"]
                .as_array()
                .unwrap()
                .iter()
                .all(|e| e.get("index_name").is_none()),
            "{table}: no dictionary, no names"
        );
    }
    for file in support::tablespaces_below(&mysql.join("test"), ".ibd.gz") {
        check(&[file.as_os_str()]);
    }
    assert!(named >= 20, "{named} index segments named");
}

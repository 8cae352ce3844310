//! Text rendering of the space-structure reports: `segments`, `extents`
//! (with its page map) and `waste`.

use innodb_analysis::reports::space_reports::{
    ExtentRow, ExtentsReport, IndexRow, LegendEntry, SegmentRow, SegmentsReport, SpaceFindings,
    SpaceHeader, WasteReport,
};
use innodb_format::index::sdi::index_id_text;
use std::fmt::Write;

/// `  name` when the dictionary named the index.
fn named(name: &Option<String>) -> String {
    name.as_ref().map_or_else(String::new, |n| format!("  {n}"))
}

/// Cells per line of the page map: an extent of more pages wraps.
const CELLS_PER_LINE: usize = 64;

fn header_block(o: &mut String, h: &SpaceHeader) {
    let _ = writeln!(o, "File              {}", h.file);
    let _ = writeln!(
        o,
        "Space id          {} ({} logical, {} physical page size, {} pages per extent)",
        h.space_id, h.page_size, h.physical_page_size, h.extent_size
    );
    let _ = writeln!(
        o,
        "Pages             {} in the file, FSP_SIZE {}, FSP_FREE_LIMIT {}, next segment id {}",
        h.file_pages, h.fsp_size, h.free_limit, h.next_segment_id
    );
}

fn findings_block(o: &mut String, f: &SpaceFindings) {
    let total: u64 = f.findings_by_kind.values().sum();
    crate::text::findings_block(o, &f.findings, Some(total as usize));
}

/// `pages` of `page_size` bytes in MiB.
fn mib(pages: u64, page_size: usize) -> f64 {
    pages as f64 * page_size as f64 / f64::from(1u32 << 20)
}

/// `one` for 1, else `many`.
pub(crate) fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

fn index_table(o: &mut String, rows: &[IndexRow]) {
    if rows.is_empty() {
        let _ = writeln!(o, "Indexes: none found");
        return;
    }
    let _ = writeln!(
        o,
        "{:>10} {:>6} {:>10} {:>10} {:>10} {:>8} {:>8} {:>6} {:>9} {:>7}",
        "index_id",
        "root",
        "size",
        "used",
        "leaf_used",
        "leaf",
        "nonleaf",
        "blob",
        "unused",
        "file%"
    );
    for r in rows {
        let _ = writeln!(
            o,
            "{:>10} {:>6} {:>10} {:>10} {:>10} {:>8} {:>8} {:>6} {:>9} {:>6.2}%{}",
            index_id_text(r.index_id),
            r.root_page,
            r.size_pages,
            r.used_pages,
            r.leaf_segment_used_pages,
            r.leaf_pages,
            r.non_leaf_pages,
            r.blob_pages,
            r.reserved_unused_pages,
            innodb_analysis::percent(r.file_share),
            named(&r.name)
        );
    }
}

fn segment_table(o: &mut String, rows: &[SegmentRow]) {
    let _ = writeln!(
        o,
        "{:>8} {:<34} {:>6} {:>5} {:>8} {:>5} {:>9} {:>9} {:>6}",
        "segment", "owner", "frag", "free", "not_full", "full", "reserved", "used", "fill"
    );
    for s in rows {
        let _ = writeln!(
            o,
            "{:>8} {:<34} {:>6} {:>5} {:>8} {:>5} {:>9} {:>9} {:>5.1}%{}",
            s.id,
            s.owner_text,
            s.fragment_pages,
            s.free_extents,
            s.not_full_extents,
            s.full_extents,
            s.reserved_pages,
            s.used_pages,
            s.fill_factor * 100.0,
            match &s.index_name {
                // The SDI index's owner text already says SDI.
                Some(n) if n != "SDI" => format!("  {n}"),
                _ => String::new(),
            }
        );
    }
}

/// The `segments` report.
pub fn segments(r: &SegmentsReport) -> String {
    let mut o = String::new();
    header_block(&mut o, &r.header);
    let _ = writeln!(
        o,
        "\nSegments: {} (extents counted by list; pages as the server counts them)",
        r.segments.len()
    );
    segment_table(&mut o, &r.segments);
    let _ = writeln!(
        o,
        "\nIndexes: size = pages both segments reserve (innodb_index_stats 'size'); leaf_used = pages the leaf segment uses; leaf/nonleaf/blob = pages seen by type"
    );
    index_table(&mut o, &r.indexes);
    o.push('\n');
    findings_block(&mut o, &r.findings);
    o
}

/// The `waste` report.
pub fn waste(r: &WasteReport) -> String {
    let mut o = String::new();
    header_block(&mut o, &r.header);
    let f = r.header.file_pages;
    let _ = writeln!(o, "\nWhere the pages go");
    let rows: [(&str, u64, &str); 7] = [
        ("used", r.used_pages, "holding data or bookkeeping"),
        (
            "  bookkeeping",
            r.bookkeeping_pages,
            "FSP_HDR, XDES, IBUF_BITMAP, INODE",
        ),
        (
            "reserved unused",
            r.reserved_unused_pages,
            "free pages in extents a segment reserved",
        ),
        (
            "fragment unused",
            r.fragment_unused_pages,
            "free pages in fragment extents",
        ),
        (
            "free",
            r.free_pages,
            "free extents and pages beyond the free limit",
        ),
        (
            "  beyond limit",
            r.beyond_free_limit_pages,
            "at or after FSP_FREE_LIMIT",
        ),
        (
            "unaccounted",
            r.unaccounted_pages + r.undescribed_pages,
            "used by no one / undescribed",
        ),
    ];
    let ps = r.header.physical_page_size;
    let _ = writeln!(
        o,
        "  {:<17}{:>12} {:>10} {:>8}",
        "", "pages", "MiB", "share"
    );
    for (name, n, what) in rows {
        let _ = writeln!(
            o,
            "  {name:<17}{n:>12} {:>10.2} {:>7.2}%  {what}",
            mib(n, ps),
            pct(n, f)
        );
    }
    let _ = writeln!(
        o,
        "  {:<17}{f:>12} {:>10.2} {:>7.2}%",
        "file", r.file_mib, 100.0
    );
    let _ = writeln!(
        o,
        "Reclaimable       {} {}, {:.2} MiB ({:.2}%): unused inside the used part",
        r.reclaimable_pages,
        plural(r.reclaimable_pages, "page", "pages"),
        r.reclaimable_mib,
        innodb_analysis::percent(r.reclaimable_share)
    );
    let _ = writeln!(
        o,
        "Pre-allocated     {} {}, {:.2} MiB ({:.2}%): free at the end, not waste",
        r.preallocated_pages,
        plural(r.preallocated_pages, "page", "pages"),
        r.preallocated_mib,
        pct(r.preallocated_pages, f)
    );
    let _ = writeln!(
        o,
        "Not in use        {:.2}% of the file",
        innodb_analysis::percent(r.waste_share)
    );
    let x = &r.xdes_extents;
    if x.extents > 0 {
        let _ = writeln!(
            o,
            "XDES extents      {} {} an XDES page after page 0; {} of their pages are unused ({} per {} pages)",
            x.extents,
            if x.extents == 1 { "extent holds" } else { "extents hold" },
            x.unused_pages,
            x.unused_per_xdes_page,
            r.header.physical_page_size
        );
    } else {
        let _ = writeln!(
            o,
            "XDES extents      none: the file is not past its first {} pages",
            r.header.physical_page_size
        );
    }
    let _ = writeln!(
        o,
        "Old content       {} free pages still hold a page the server wrote before freeing it",
        r.free_with_old_content_pages
    );
    let _ = writeln!(o, "\nPer index");
    index_table(&mut o, &r.indexes);
    if !r.other_segments.is_empty() {
        let _ = writeln!(o, "\nOther segments");
        segment_table(&mut o, &r.other_segments);
    }
    o.push('\n');
    findings_block(&mut o, &r.findings);
    o
}

/// ANSI 256-colour index for a legend entry: the colour the heatmaps give
/// its class (an index's own colour for its segments).
fn colour(e: &LegendEntry) -> Option<u8> {
    e.colour.map(crate::ansi::xterm256)
}

/// The `extents` report: one line per extent (wrapped every 64 pages) and
/// one cell per page. With `colour`, segment pages are drawn as blocks in
/// their segment's colour; without it, as the legend's letters.
pub fn extents(r: &ExtentsReport, colour_on: bool) -> String {
    let mut o = String::new();
    header_block(&mut o, &r.header);
    let _ = writeln!(o, "\nLegend");
    let mut paint: std::collections::HashMap<char, (Option<u8>, char)> = Default::default();
    for e in &r.legend {
        let c = colour(e);
        let glyph = if colour_on && e.segment_id.is_some() {
            '█'
        } else {
            e.symbol
        };
        paint.insert(e.symbol, (c, glyph));
        let shown = cell(colour_on, c, &glyph.to_string());
        let unit = if e.pages == 1 { "page" } else { "pages" };
        let meaning = match &e.index_name {
            // The SDI index's meaning already says SDI.
            Some(n) if n != "SDI" => format!("{} ({n})", e.meaning),
            _ => e.meaning.clone(),
        };
        let _ = writeln!(o, "  {shown} {meaning:<60} {:>10} {unit}", e.pages);
    }
    let _ = writeln!(o, "\n{:>9} {:<10} {:>9}  pages", "first", "state", "used");
    let never_initialised = |x: &ExtentRow| x.cells.chars().all(|c| c == ' ');
    let mut i = 0;
    while let Some(x) = r.extents.get(i) {
        i += 1;
        if never_initialised(x) {
            // A run of never-initialised extents is one line.
            let run = r
                .extents
                .get(i..)
                .unwrap_or_default()
                .iter()
                .take_while(|y| never_initialised(y))
                .count();
            let last = r.extents.get(i + run - 1).filter(|_| run > 0).unwrap_or(x);
            let _ = writeln!(
                o,
                "{:>9} {:<10} {:>4}/{:<4}  pages {}..{} ({} extents) beyond the free limit (FSP_FREE_LIMIT)",
                x.first_page,
                x.state.to_string(),
                x.used_pages,
                r.header.extent_size,
                x.first_page,
                u64::from(last.first_page) + last.cells.chars().count() as u64 - 1,
                run + 1
            );
            i += run;
            continue;
        }
        let cells: Vec<char> = x.cells.chars().collect();
        for (k, chunk) in cells.chunks(CELLS_PER_LINE).enumerate() {
            let mut line = String::new();
            // One colour escape per run of equal cells keeps the output small.
            let mut run: Option<(Option<u8>, String)> = None;
            for ch in chunk {
                let (c, glyph) = paint.get(ch).copied().unwrap_or((None, *ch));
                match &mut run {
                    Some((rc, text)) if *rc == c => text.push(glyph),
                    _ => {
                        if let Some((rc, text)) = run.take() {
                            line.push_str(&cell(colour_on, rc, &text));
                        }
                        run = Some((c, glyph.to_string()));
                    }
                }
            }
            if let Some((rc, text)) = run {
                line.push_str(&cell(colour_on, rc, &text));
            }
            let text = if k == 0 {
                format!(
                    "{:>9} {:<10} {:>4}/{:<4}  {line}  {}",
                    x.first_page,
                    x.state.to_string(),
                    x.used_pages,
                    r.header.extent_size,
                    x.owner
                )
            } else {
                format!(
                    "{:>9} {:<10} {:>9}  {line}",
                    x.first_page as usize + k * CELLS_PER_LINE,
                    "",
                    ""
                )
            };
            let _ = writeln!(o, "{}", text.trim_end());
        }
    }
    o.push('\n');
    findings_block(&mut o, &r.findings);
    o
}

/// `text` in colour `c` (ANSI 256), or plain.
fn cell(colour_on: bool, c: Option<u8>, text: &str) -> String {
    match (colour_on, c) {
        (true, Some(c)) => format!("\x1b[38;5;{c}m{text}\x1b[0m"),
        _ => text.to_string(),
    }
}

/// The `indexes` report.
pub fn indexes(r: &innodb_analysis::reports::indexes::IndexesReport) -> String {
    let mut o = String::new();
    header_block(&mut o, &r.header);
    let _ = writeln!(o, "\nIndexes: {}", r.indexes.len());
    let _ = writeln!(
        o,
        "{:>10} {:>6} {:>6} {:>10} {:>10} {:>12} {:>8} {:>9} {:>6}  pages per level (leaves first)",
        "index_id",
        "root",
        "levels",
        "leaf_pages",
        "size",
        "records",
        "deleted",
        "leaf_fill",
        "fill"
    );
    for i in &r.indexes {
        let per_level: Vec<String> = i.pages_per_level.iter().map(|p| p.to_string()).collect();
        let _ = writeln!(
            o,
            "{:>10} {:>6} {:>6} {:>10} {:>10} {:>12} {:>8} {:>8.1}% {:>5.1}%  {}{}",
            index_id_text(i.index_id),
            i.root_page,
            i.levels,
            i.leaf_pages,
            i.size_pages,
            i.records,
            i.delete_marked,
            i.leaf_fill * 100.0,
            i.fill * 100.0,
            per_level.join(" / "),
            named(&i.name)
        );
    }
    if r.indexes.iter().any(|i| i.compressed.is_some()) {
        let _ = writeln!(
            o,
            "\nROW_FORMAT=COMPRESSED pages (bytes summed over the index's pages)"
        );
        let _ = writeln!(
            o,
            "{:>10} {:>6} {:>8} {:>10} {:>10} {:>10} {:>10} {:>7} {:>7}",
            "index_id", "zip", "pages", "stream", "mlog", "free", "trailer", "logged", "ratio"
        );
        for i in &r.indexes {
            let Some(c) = &i.compressed else { continue };
            let _ = writeln!(
                o,
                "{:>10} {:>6} {:>8} {:>10} {:>10} {:>10} {:>10} {:>7} {:>6.2}x",
                index_id_text(i.index_id),
                c.physical_page_size,
                c.pages,
                c.stream_bytes,
                c.mlog_bytes,
                c.free_bytes,
                c.trailer_bytes,
                c.logged_records,
                c.compression_ratio
            );
        }
    }
    let _ = writeln!(o, "\nLeaf chain (key order on disk)");
    let _ = writeln!(
        o,
        "{:>10} {:>10} {:>11} {:>10} {:>8} {:>9} {:>16}",
        "index_id", "leaves", "sequential", "mean_jump", "median", "extents", "switches/1000"
    );
    for i in &r.indexes {
        let l = &i.locality;
        let _ = writeln!(
            o,
            "{:>10} {:>10} {:>10.1}% {:>10.1} {:>8} {:>9} {:>16.1}",
            index_id_text(i.index_id),
            l.leaves,
            l.sequential_share * 100.0,
            l.mean_jump,
            l.median_jump,
            l.distinct_extents,
            l.extent_switches_per_1000_leaves
        );
    }
    o.push('\n');
    findings_block(&mut o, &r.findings);
    o
}

/// The `tree` report: [`tree_head`], a [`tree_row`] per page, [`tree_tail`].
pub fn tree(r: &innodb_analysis::reports::tree_report::TreeReport) -> String {
    let mut o = tree_head(r);
    for p in &r.pages {
        o.push_str(&tree_row(p));
    }
    o.push_str(&tree_tail(r, r.pages.len() as u64));
    o
}

/// What `tree` writes before the first page: the file, the index and its
/// root, the column heads.
pub fn tree_head(r: &innodb_analysis::reports::tree_report::TreeReport) -> String {
    let mut o = String::new();
    header_block(&mut o, &r.header);
    let _ = writeln!(
        o,
        "\nIndex {}{} (root page {})",
        index_id_text(r.index_id),
        match &r.name {
            Some(n) if n != "SDI" => format!(" {n}"),
            _ => String::new(),
        },
        r.root_page,
    );
    let _ = writeln!(
        o,
        "{:>5} {:>9} {:>8} {:>8} {:>7} {:>7} {:>8} {:>6}  min key bytes",
        "level", "page", "records", "deleted", "data", "free", "garbage", "fill"
    );
    o
}

/// One page's line of `tree`.
pub fn tree_row(p: &innodb_analysis::reports::tree_report::TreePage) -> String {
    let zip = p
        .zip
        .map(|z| {
            format!(
                "  zip: stream {} mlog {} free {}",
                z.stream_bytes, z.mlog_bytes, z.free_bytes
            )
        })
        .unwrap_or_default();
    format!(
        "{:>5} {:>9} {:>8} {:>8} {:>7} {:>7} {:>8} {:>5.1}%  {}{zip}\n",
        p.level,
        p.page,
        p.records,
        p.delete_marked,
        p.data_bytes,
        p.free_bytes,
        p.garbage_bytes,
        p.fill * 100.0,
        p.min_key_bytes
    )
}

/// What `tree` writes after the last page: how many pages it listed (the
/// count comes last, so that the pages are written as they are read), and
/// the walk's findings.
pub fn tree_tail(r: &innodb_analysis::reports::tree_report::TreeReport, pages: u64) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{pages} {}", plural(pages, "page", "pages"));
    o.push('\n');
    let total = r.findings.len();
    crate::text::findings_block(&mut o, &r.findings, Some(total));
    o
}

/// The `fill` report: a fill histogram per index and level.
pub fn fill(r: &innodb_analysis::reports::indexes::IndexesReport) -> String {
    let mut o = String::new();
    header_block(&mut o, &r.header);
    let _ = writeln!(
        o,
        "\nFill = record bytes / space for records on an empty page; pages per 10% bucket"
    );
    for i in &r.indexes {
        for l in &i.level_stats {
            let _ = writeln!(
                o,
                "\nindex {}{} level {}: {} {}, mean fill {:.1}%",
                index_id_text(i.index_id),
                named(&i.name),
                l.level,
                l.pages,
                if l.pages == 1 { "page" } else { "pages" },
                l.fill * 100.0
            );
            let most = l.fill_histogram.iter().copied().max().unwrap_or(0).max(1);
            for (b, &n) in l.fill_histogram.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let label = if b == 10 {
                    format!("{:>8}", ">100%")
                } else {
                    format!("{:>8}", format!("{}-{}%", b * 10, b * 10 + 10))
                };
                let bar = "█".repeat(((n * 40).div_ceil(most)) as usize);
                let _ = writeln!(o, "  {label} {n:>8}  {bar}");
            }
        }
    }
    o.push('\n');
    findings_block(&mut o, &r.findings);
    o
}

/// The `sdi` report as text: the SDI objects as a JSON array (the shape of
/// `ibd2sdi`'s output), then the findings.
pub fn sdi(r: &innodb_analysis::reports::sdi_report::SdiReport) -> String {
    let mut o = crate::json::render(&r.records);
    if !o.ends_with('\n') {
        o.push('\n');
    }
    if !r.findings.is_empty() {
        crate::text::findings_block(&mut o, &r.findings, None);
    }
    o
}

/// The `count` report.
pub fn count(r: &innodb_analysis::reports::count_report::CountReport) -> String {
    let mut o = String::new();
    header_block(&mut o, &r.header);
    let _ = writeln!(
        o,
        "\nExact: every leaf walked (delete-marked records apart). Sampled: {} random dives per index (seed {}), mean records per leaf × leaf pages. Length: reserved bytes / mean record length.",
        r.sample_pages, r.seed
    );
    let _ = writeln!(
        o,
        "{:>10} {:>12} {:>8} {:>9} {:>12} {:>8} {:>12} {:>8} {:>12} {:>8}",
        "index_id",
        "exact",
        "deleted",
        "leaves",
        "sampled",
        "error",
        "data_length",
        "avg_row",
        "by_length",
        "error"
    );
    for i in &r.indexes {
        let _ = writeln!(
            o,
            "{:>10} {:>12} {:>8} {:>9} {:>12} {:>7.2}% {:>12} {:>8.1} {:>12} {:>7.2}%{}",
            index_id_text(i.index_id),
            i.exact_rows,
            i.delete_marked,
            i.leaf_pages,
            i.estimated_rows,
            innodb_analysis::percent(i.estimate_error),
            i.data_length,
            i.avg_row_length,
            i.length_estimate_rows,
            innodb_analysis::percent(i.length_estimate_error),
            named(&i.name)
        );
    }
    o.push('\n');
    findings_block(&mut o, &r.findings);
    o
}

//! The charts of `plot`: fill histograms per index, pages per tree level,
//! and the undo history's growth.

use super::palette::{self, IndexKeys};
use super::{count, Chart, ChartKind, Series};
use crate::reports::indexes::{IndexesReport, FILL_BUCKETS};
use crate::reports::undo_report::UndoReport;

/// The name of an index in a chart's legend.
fn index_series_name(index_id: u64, name: Option<&str>) -> String {
    match name {
        _ if index_id == innodb_format::index::sdi::SDI_INDEX_ID => "SDI".to_string(),
        Some(n) => format!("index {index_id} ({n})"),
        None => format!("index {index_id}"),
    }
}

/// Bar chart points: one per category, x the category's position.
fn bar_points(counts: &[u64]) -> Vec<(f64, f64)> {
    counts
        .iter()
        .enumerate()
        .map(|(i, &n)| (i as f64, n as f64))
        .collect()
}

/// The file name shown in titles (a `.gz` fixture as the file it holds).
fn file_name(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".gz").unwrap_or(name)
}

/// The letters and colours of a file's indexes: those of its heatmaps.
fn index_keys(r: &IndexesReport) -> IndexKeys {
    IndexKeys::new(r.indexes.iter().map(|ix| ix.index_id))
}

/// Pages of each index per fill bucket (0–10 %, …, 90–100 %, over 100 %),
/// every level of the index counted.
pub fn fill_histogram(r: &IndexesReport) -> Chart {
    let categories = (0..FILL_BUCKETS)
        .map(|b| {
            if b + 1 == FILL_BUCKETS {
                ">100%".to_string()
            } else {
                format!("{}-{}%", b * 10, b * 10 + 10)
            }
        })
        .collect();
    let keys = index_keys(r);
    let series = r
        .indexes
        .iter()
        .map(|ix| {
            let mut counts = [0u64; FILL_BUCKETS];
            for l in &ix.level_stats {
                for (c, n) in counts.iter_mut().zip(l.fill_histogram) {
                    *c += n;
                }
            }
            let name = index_series_name(ix.index_id, ix.name.as_deref());
            let (symbol, colour) = keys.key(ix.index_id);
            Series {
                legend: format!(
                    "{name}: {}",
                    count(counts.iter().sum::<u64>(), "page", "pages")
                ),
                name,
                symbol,
                colour,
                points: bar_points(&counts),
            }
        })
        .collect();
    Chart {
        title: format!("{}: page fill per index", file_name(&r.header.file)),
        subtitle: "pages of every level of each B+tree by fill (record bytes / usable bytes)"
            .into(),
        kind: ChartKind::Bars,
        x_label: "page fill".into(),
        y_label: "pages".into(),
        categories,
        series,
    }
}

/// Pages per B+tree level of each index, leaves first.
pub fn levels(r: &IndexesReport) -> Chart {
    let depth = r
        .indexes
        .iter()
        .map(|ix| ix.pages_per_level.len())
        .max()
        .unwrap_or(0);
    let categories = (0..depth)
        .map(|l| {
            if l == 0 {
                "0 (leaves)".to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    let keys = index_keys(r);
    let series = r
        .indexes
        .iter()
        .map(|ix| {
            let name = index_series_name(ix.index_id, ix.name.as_deref());
            let (symbol, colour) = keys.key(ix.index_id);
            Series {
                legend: format!(
                    "{name}: {} in {}",
                    count(ix.pages_per_level.iter().sum::<u64>(), "page", "pages"),
                    count(ix.pages_per_level.len() as u64, "level", "levels")
                ),
                name,
                symbol,
                colour,
                points: bar_points(&ix.pages_per_level),
            }
        })
        .collect();
    Chart {
        title: format!("{}: pages per tree level", file_name(&r.header.file)),
        subtitle: "pages of each B+tree level reached from the index root".into(),
        kind: ChartKind::Bars,
        x_label: "level".into(),
        y_label: "pages".into(),
        categories,
        series,
    }
}

/// The undo history by transaction number, oldest first: cumulative undo
/// pages after each transaction's log. `source` names the files read.
pub fn undo_growth(r: &UndoReport, source: &str) -> Chart {
    let mut points = Vec::with_capacity(r.by_transaction.len() + 1);
    if let Some(first) = r.by_transaction.first() {
        points.push((first.trx_no.saturating_sub(1) as f64, 0.0));
    }
    points.extend(
        r.by_transaction
            .iter()
            .map(|t| (t.trx_no as f64, t.cumulative_pages as f64)),
    );
    let records = r.by_transaction.last().map_or(0, |t| t.cumulative_records);
    Chart {
        title: format!("{source}: undo history growth"),
        subtitle: format!(
            "history list length {}, {}, {}, {}, by transaction number",
            r.totals.history_list_length,
            count(r.totals.undo_logs as u64, "undo log", "undo logs"),
            count(records, "record", "records"),
            count(r.totals.undo_pages, "page", "pages")
        ),
        kind: ChartKind::Steps,
        x_label: "transaction number (trx_no)".into(),
        y_label: "undo pages, cumulative".into(),
        categories: Vec::new(),
        series: vec![Series {
            name: "undo pages in the history".into(),
            symbol: palette::SEGMENTS[6].1,
            legend: format!(
                "undo pages in the history: {} in {}",
                count(r.totals.undo_pages, "page", "pages"),
                count(r.totals.undo_logs as u64, "log", "logs")
            ),
            colour: palette::SEGMENTS[6].2,
            points,
        }],
    }
}

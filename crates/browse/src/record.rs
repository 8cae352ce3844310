//! The record view's lines: one record of a page view, every field with
//! its whole value (typed when the schema knows the index), or its bytes.

use crate::app::{PageView, RecordView};
use innodb_analysis::rows::row_history::value_text;

/// Bytes per line when a record is shown as bytes.
const BYTES_PER_LINE: usize = 16;

/// The record view of record `i` of page view `p`.
pub fn record_view(p: &PageView, i: usize) -> RecordView {
    let d = &p.detail;
    let Some(r) = d.records.as_ref().and_then(|rs| rs.records.get(i)) else {
        return RecordView {
            title: format!("page {} record {i}", d.page),
            lines: Vec::new(),
            selected: 0,
        };
    };
    let mut lines = vec![
        ("heap number".to_string(), r.heap_no.to_string()),
        (
            "type".to_string(),
            format!(
                "{}{}{}",
                r.record_type,
                if r.deleted { ", delete-marked" } else { "" },
                if r.min_rec { ", min-rec" } else { "" }
            ),
        ),
        (
            "next record".to_string(),
            r.next.map_or("none".into(), |n| format!("at {n}")),
        ),
    ];
    let typed = p.rows.as_ref().and_then(|t| {
        t.rows
            .iter()
            .find(|row| row.origin == r.origin)
            .map(|row| (t, row))
    });
    match typed {
        Some((t, row)) => {
            for (k, (f, v)) in t.fields.iter().zip(&row.values).enumerate() {
                let text = value_text(v);
                let value = match (row.external.iter().find(|e| e.0 == k), &row.roll_ptr) {
                    (Some((_, page)), _) => {
                        format!("[off-page from page {page}, b follows] {text}")
                    }
                    (None, Some(rp)) if f.name == "DB_ROLL_PTR" => format!(
                        "{text} ({}, rollback segment {}, undo page {} offset {}; r follows)",
                        if rp.insert { "insert" } else { "update" },
                        rp.rseg,
                        rp.page,
                        rp.offset
                    ),
                    (None, _) => text,
                };
                lines.push((f.name.clone(), value));
            }
        }
        None => {
            let end = (r.origin + r.bytes_len).min(d.image.len());
            let bytes = d.image.get(r.origin..end).unwrap_or(&[]);
            for (n, chunk) in bytes.chunks(BYTES_PER_LINE).enumerate() {
                let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
                lines.push((format!("bytes +{}", n * BYTES_PER_LINE), hex.join(" ")));
            }
        }
    }
    RecordView {
        title: format!("record @{} of page {}", r.origin, d.page),
        lines,
        selected: 0,
    }
}

//! The dropped tables `carve` lists for a system tablespace, as text: each
//! table's name and id, its indexes with the pages still in the file, and
//! its `CREATE TABLE` as far as the dictionary's records tell.

use crate::sql::create_table::create_table;
use innodb_analysis::reports::dropped_tables::{DroppedTable, DroppedTables};
use std::fmt::Write;

/// The dropped tables, indented under a carved space.
pub fn dropped(o: &mut String, d: &DroppedTables) {
    if d.dictionary != "SYS_*" {
        let of = if d.dictionary == "SDI" {
            "SDI records of this tablespace"
        } else {
            "records of mysql.ibd's dictionary tables"
        };
        let _ = writeln!(
            o,
            "  dropped tables: {} (from {} delete-marked and {} garbage {of})",
            d.tables.len(),
            d.delete_marked_records,
            d.garbage_records
        );
    } else {
        sys_line(o, d);
    }
    for t in &d.tables {
        table(o, t);
    }
    rest(o, d);
}

/// The summary line of a `SYS_*` dictionary's dropped tables.
fn sys_line(o: &mut String, d: &DroppedTables) {
    let _ = writeln!(
        o,
        "  dropped tables: {} (from {} delete-marked and {} garbage SYS_* records on {} leaf pages, {} erased; {} undo records on {} UNDO_LOG pages)",
        d.tables.len(),
        d.delete_marked_records,
        d.garbage_records,
        d.sys_leaf_pages,
        d.erased_records,
        d.undo_records,
        d.undo_pages
    );
}

/// What follows the tables: unknown index ids, findings, notes.
fn rest(o: &mut String, d: &DroppedTables) {
    if !d.live_dictionary {
        let _ = writeln!(
            o,
            "    (the live dictionary did not read: every index id is listed as unknown)"
        );
    }
    for i in &d.unknown_indexes {
        let _ = writeln!(
            o,
            "    index {} of no table in the dictionary: {} pages in the file, {} leaf pages",
            i.index_id, i.pages, i.leaf_pages
        );
    }
    for f in &d.findings {
        let _ = writeln!(o, "    finding: {f}");
    }
    for n in &d.notes {
        let _ = writeln!(o, "    note: {n}");
    }
}

fn table(o: &mut String, t: &DroppedTable) {
    let name = if t.name.is_empty() {
        "(name not found)"
    } else {
        &t.name
    };
    let _ = writeln!(
        o,
        "    {name}: table id {}, space {}, {} columns (from the {})",
        t.table_id, t.space_id, t.n_columns, t.source
    );
    for i in &t.indexes {
        let what = if i.fields.is_empty() {
            format!("{} fields", i.n_fields)
        } else {
            format!("{} ({})", i.name, i.fields.join(", "))
        };
        let root = if i.root_page == u32::MAX {
            String::new()
        } else {
            format!("root page was {}; ", i.root_page)
        };
        let _ = writeln!(
            o,
            "      index {} {what}: {root}{} pages in the file, {} leaf pages",
            i.index_id, i.pages, i.leaf_pages
        );
    }
    if let Some(def) = &t.definition {
        for line in create_table(def, None).lines() {
            let _ = writeln!(o, "      {line}");
        }
    }
}

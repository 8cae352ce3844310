//! `AIchemist87__mantisbt-docker`: a MariaDB data directory, with the
//! facts the MANIFEST gives about its files.

use super::{index_stats, open, page_fields, page_rows, root, row_at, summary, Checks};
use crate::support;
use std::collections::BTreeMap;

/// MariaDB facts: mantis_plugin_table.ibd's clustered root page 3 has
/// FIL_PAGE_TYPE 18 = FIL_PAGE_TYPE_INSTANT with 3 records;
/// innodb_index_stats (12.0.2) is a 2-level B-tree of 1 root + 5 leaves.
#[test]
fn mariadb_owner_facts() {
    let Some(_) = support::thirdparty::present() else {
        return;
    };
    let mut c = Checks::default();
    let dir = root().join("AIchemist87__mantisbt-docker/mysql");
    let label = "mantisbt mysql/bugtracker/mantis_plugin_table.ibd";
    let space = open(&dir.join("bugtracker/mantis_plugin_table.ibd"));
    let rows = page_rows(&space);
    let p3 = row_at(&rows, 3);
    c.eq(
        label,
        "page 3 FIL_PAGE_TYPE",
        page_fields(&space, 3).get("FIL_PAGE_TYPE").copied(),
        Some(18),
    );
    c.eq(
        label,
        "page 3 type",
        p3.map(|r| r.page_type.as_str()),
        Some("INSTANT"),
    );
    c.eq(label, "page 3 records", p3.and_then(|r| r.records), Some(3));
    c.eq(
        label,
        "vendor",
        summary(&space)["vendor"].as_str(),
        Some("mariadb"),
    );
    let label = "mantisbt mysql/mysql/innodb_index_stats.ibd";
    let rows = page_rows(&open(&dir.join("mysql/innodb_index_stats.ibd")));
    let s = index_stats(&rows, &["INDEX"])
        .remove(&17)
        .unwrap_or_default();
    c.eq(
        label,
        "index 17 pages per level",
        s.pages_at_level,
        BTreeMap::from([(0, 5), (1, 1)]),
    );
    c.eq(label, "index 17 leaf records", s.leaf_records, 249);
    c.finish("mariadb_owner_facts");
}

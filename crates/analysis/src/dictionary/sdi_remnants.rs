//! The tables a MySQL 8.0+ tablespace's SDI no longer holds but still
//! remembers: `DROP TABLE` of a table in the system tablespace
//! (`innodb_file_per_table=OFF`) or a general tablespace deletes its SDI
//! record there (type 1, the table's `mysql.tables.id`), which stays on
//! the SDI leaf page, delete-marked until purge, then in the page's
//! garbage list until its bytes are reused. Its JSON is the whole table
//! definition, with each index's `se_private_data` (`id=…;root=…`): what
//! `mysql.ibd` would tell, from the tablespace alone.

use super::mysql_ibd::remnants::MysqlRemnants;
use super::sdi::objects;
use crate::reports::sdi_report::{SdiEntry, SdiReport};
use innodb_space::dictionary::Dictionary;
use innodb_space::Tablespace;
use std::collections::{BTreeMap, HashSet};

/// The dropped tables the deleted SDI records of `space` describe (a
/// table whose InnoDB table id a live SDI table has is left out), with
/// the live tables of its SDI as the live dictionary. An error when the
/// file has no SDI.
pub fn read(space: &Tablespace) -> Result<MysqlRemnants, String> {
    let file = space.path().display().to_string();
    let all = SdiReport::build(space).map_err(|e| format!("{file}: no SDI ({e:?})"))?;
    let gone = SdiReport::build_deleted(space).map_err(|e| format!("{file}: no SDI ({e:?})"))?;
    // The SDI report lists the delete-marked records with the live ones.
    let marked: HashSet<(u32, u64)> = gone
        .records
        .iter()
        .map(|e| (e.sdi_type, e.id))
        .filter(|k| all.records.iter().any(|e| (e.sdi_type, e.id) == *k))
        .collect();
    let delete_marked = all
        .records
        .iter()
        .filter(|e| marked.contains(&(e.sdi_type, e.id)))
        .count() as u64;
    let garbage = (gone.records.len() as u64).saturating_sub(delete_marked);
    let mut live = all.clone();
    live.records
        .retain(|e| !marked.contains(&(e.sdi_type, e.id)));
    let live_tables = objects(&live).tables;
    let live_ids: HashSet<u64> = live_tables.iter().map(|t| t.se_private_id).collect();
    let mut dropped = gone.clone();
    dropped.records = newest_per_id(gone.records);
    let tables = objects(&dropped)
        .tables
        .into_iter()
        .filter(|t| !live_ids.contains(&t.se_private_id))
        .collect();
    let mut findings = all.findings;
    findings.extend(gone.findings);
    Ok(MysqlRemnants {
        dictionary: "SDI",
        live: Dictionary::from_mysql(live_tables, Vec::new()),
        tables,
        delete_marked,
        garbage,
        erased: 0,
        findings,
    })
}

/// One record per object (type, id): of several copies (older versions
/// the server rewrote), the one whose `dd_object.last_altered` is the
/// latest, the first of equals.
fn newest_per_id(records: Vec<SdiEntry>) -> Vec<SdiEntry> {
    let altered = |e: &SdiEntry| {
        e.object
            .pointer("/dd_object/last_altered")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0)
    };
    let mut best: BTreeMap<(u32, u64), SdiEntry> = BTreeMap::new();
    for e in records {
        match best.get(&(e.sdi_type, e.id)) {
            Some(old) if altered(old) >= altered(&e) => {}
            _ => {
                best.insert((e.sdi_type, e.id), e);
            }
        }
    }
    best.into_values().collect()
}

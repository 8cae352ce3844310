//! `carve`'s MySQL 8.0+ dropped tables: when the inputs hold `mysql.ibd`
//! (`carve ibdata1 mysql.ibd`, or an image holding both), the tables its
//! dictionary's deleted records remember, listed under it, each index's
//! pages counted in the tablespace they were in (space 0, `ibdata1`, for
//! a table made with `innodb_file_per_table=OFF`). Without `mysql.ibd`, a
//! MySQL 8.0+ system tablespace's dropped tables come from the deleted
//! records of its own SDI.

use super::carve::{note_changed, open_space, Carved};
use crate::inputs::Inputs;
use innodb_analysis::dictionary::mysql_ibd::remnants::{self as dd_remnants, MysqlRemnants};
use innodb_analysis::dictionary::MYSQL_DICTIONARY_SPACE_ID;
use innodb_analysis::dictionary::{sdi, sdi_remnants};
use innodb_analysis::reports::carve_report::{CarveReport, CarvedSpace};
use innodb_analysis::reports::dropped_tables::DroppedTables;
use innodb_space::dictionary::{remnants, Dictionary};
use innodb_space::Tablespace;
use std::collections::{BTreeMap, BTreeSet};

/// Lists the dropped tables of the `mysql.ibd` found among `report`'s
/// spaces (read from the input when an input is that file, from the file
/// `--out` wrote, else in place from where its pages were found). Without
/// one, a MySQL 8.0+ system tablespace gets a note saying to give it.
pub(super) fn dropped(inputs: &Inputs, carved: &Carved<'_>, report: &mut CarveReport) {
    let Some(di) = dictionary_space(report) else {
        return from_own_sdi(inputs, carved, report);
    };
    let Some(dd) = report.spaces.get_mut(di) else {
        return;
    };
    inputs.progress_phase("reading the dictionary of mysql.ibd", 0, 0);
    let opened = open(inputs, carved, dd).inspect_err(|e| dd.notes.push(format!("not named: {e}")));
    let m = match opened.and_then(|s| {
        let m = read_and_name(inputs, &s, dd);
        note_changed(dd, &s);
        m
    }) {
        Ok(m) => m,
        Err(e) => {
            dd.notes.push(format!("dropped tables not read: {e}"));
            return;
        }
    };
    let wanted: BTreeSet<u32> = Dictionary::from_mysql(m.tables.clone(), Vec::new())
        .tables
        .iter()
        .map(|t| t.space)
        .collect();
    let pages = count_pages(inputs, carved, report, &m, &wanted);
    if let Some(dd) = report.spaces.get_mut(di) {
        dd.dropped_tables = Some(DroppedTables::of_mysql(&m, &pages));
    }
}

/// Which of `report`'s spaces is the `mysql.ibd` whose dictionary
/// [`dropped`] reads (the first with its space id and SDI pages): it names
/// that space's tables too, from the SDI it reads, so that the SDI, the
/// largest of all, is read once.
pub(super) fn dictionary_space(report: &CarveReport) -> Option<usize> {
    report
        .spaces
        .iter()
        .position(|s| s.space_id == MYSQL_DICTIONARY_SPACE_ID && s.has_sdi())
}

/// The dropped tables `space` (`mysql.ibd`)'s dictionary remembers, its
/// own tables named in `dd` from its SDI on the way (as the other spaces
/// are named: none when it has no SDI that can be read).
fn read_and_name(
    inputs: &Inputs,
    space: &Tablespace,
    dd: &mut CarvedSpace,
) -> Result<MysqlRemnants, String> {
    let sdi = dd_remnants::own_sdi(space);
    if let Ok((own, _)) = &sdi {
        let names = sdi::dictionary_from(space, own, inputs.options.clone());
        dd.tables = names.tables.iter().map(|t| t.name.clone()).collect();
    }
    let (own, findings) = sdi?;
    dd_remnants::read_with(space, &findings, &own.tables)
}

/// Without `mysql.ibd`: the dropped tables of each MySQL 8.0+ system
/// tablespace from its own SDI's deleted records, with a note that
/// `mysql.ibd` may remember more.
fn from_own_sdi(inputs: &Inputs, carved: &Carved<'_>, report: &mut CarveReport) {
    for s in report.spaces.iter_mut().filter(|s| mysql_system(s)) {
        s.notes.push("a MySQL 8.0+ system tablespace: its dropped tables are read from the deleted records of its own SDI; mysql.ibd's dictionary may remember more: give mysql.ibd too (carve ibdata1 mysql.ibd)".to_string());
        inputs.progress_phase("reading the SDI of the system tablespace", 0, 0);
        let read = open(inputs, carved, s).and_then(|space| {
            let m = sdi_remnants::read(&space);
            note_changed(s, &space);
            let m = m?;
            let pages = BTreeMap::from([(s.space_id, remnants::read(&space, Some(&m.live)))]);
            note_changed(s, &space);
            Ok(DroppedTables::of_mysql(&m, &pages))
        });
        match read {
            Ok(d) => s.dropped_tables = Some(d),
            Err(e) => s.notes.push(format!("dropped tables not read: {e}")),
        }
    }
}

/// A MySQL 8.0+ system tablespace: space 0 with an SDI page, no `SYS_*`.
fn mysql_system(s: &CarvedSpace) -> bool {
    s.space_id == 0 && !s.has_sys_tables() && s.has_sdi()
}

/// What [`remnants::read`] finds in each space of `wanted` that was
/// carved (the pages of each index id), `m.live` telling the live
/// indexes; a space that cannot be read gets a note and is left out.
fn count_pages(
    inputs: &Inputs,
    carved: &Carved<'_>,
    report: &mut CarveReport,
    m: &MysqlRemnants,
    wanted: &BTreeSet<u32>,
) -> BTreeMap<u32, remnants::Remnants> {
    let mut pages = BTreeMap::new();
    let n = report
        .spaces
        .iter()
        .filter(|s| wanted.contains(&s.space_id))
        .count() as u64;
    let mut done = 0;
    for s in report.spaces.iter_mut() {
        if !wanted.contains(&s.space_id) || pages.contains_key(&s.space_id) {
            continue;
        }
        inputs.progress_phase("counting the pages of dropped tables", done, n);
        done += 1;
        match open(inputs, carved, s) {
            Ok(space) => {
                pages.insert(s.space_id, remnants::read(&space, Some(&m.live)));
                note_changed(s, &space);
            }
            Err(e) => s
                .notes
                .push(format!("pages of dropped tables not counted: {e}")),
        }
    }
    pages
}

/// The carved space `s` as a tablespace ([`open_space`]: the file `--out`
/// wrote, else an input that is that tablespace, else read in place).
fn open(inputs: &Inputs, carved: &Carved<'_>, s: &CarvedSpace) -> Result<Tablespace, String> {
    open_space(inputs, carved, carved.files, s).map_err(|e| e.to_string())
}

//! Names for indexes, one source for every report: `db/table.index` from
//! the dictionary that describes the file (`SYS_*`, MySQL's dictionary, or
//! the file's own SDI: see [`crate::dictionary::for_file`]), and `SDI` for
//! the SDI index (`PAGE_INDEX_ID` 2^64 − 1) of every MySQL 8.0+ file.

use crate::reports::sdi_report::SDI_INDEX_ID;
use innodb_space::dictionary::{DictTable, Dictionary};
use innodb_space::{OpenOptions, Tablespace};
use std::collections::BTreeMap;

/// What the SDI index is called.
pub const SDI_INDEX_NAME: &str = "SDI";

/// `db/table.index` of index `index_id` of tablespace `space_id`, when the
/// dictionary has it; `SDI` for the SDI index.
pub fn index_name(dict: &Dictionary, space_id: u32, index_id: u64) -> Option<String> {
    if index_id == SDI_INDEX_ID {
        return Some(SDI_INDEX_NAME.to_string());
    }
    dict.index(index_id)
        .filter(|(t, i)| i.space == space_id || t.space == space_id)
        .map(|(t, i)| format!("{}.{}", t.name, i.name))
}

/// The names of one tablespace's indexes, by index id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IndexNames {
    names: BTreeMap<u64, String>,
}

/// Why `--index` names no index of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoIndexNamed {
    /// No index has that name or id.
    None,
    /// Several indexes have that name (of different tables): their full names.
    Ambiguous(Vec<String>),
}

impl IndexNames {
    /// The names of the indexes of tablespace `space_id` in `dict`, and `SDI`.
    pub fn of(dict: &Dictionary, space_id: u32) -> IndexNames {
        let mut names = BTreeMap::new();
        for t in dict.tables_in(space_id) {
            for i in &t.indexes {
                names.insert(i.id, format!("{}.{}", t.name, i.name));
            }
        }
        names.insert(SDI_INDEX_ID, SDI_INDEX_NAME.to_string());
        IndexNames { names }
    }

    /// The names of the indexes of one table (`db/table.index`).
    pub fn of_table(table: &DictTable) -> IndexNames {
        IndexNames {
            names: table
                .indexes
                .iter()
                .map(|i| (i.id, format!("{}.{}", table.name, i.name)))
                .collect(),
        }
    }

    /// The names of the indexes of the file `space`: from `dict` when it
    /// describes the file, else from the file's own SDI.
    pub fn for_file(space: &Tablespace, dict: Option<&Dictionary>, options: OpenOptions) -> Self {
        let d = crate::dictionary::for_file(space, dict, options);
        Self::of(&d, space.space_id())
    }

    /// The name of index `id`.
    pub fn get(&self, id: u64) -> Option<&str> {
        self.names.get(&id).map(String::as_str)
    }

    /// Every name, by index id.
    pub fn all(&self) -> &BTreeMap<u64, String> {
        &self.names
    }

    /// The index `which` names: an id, a full name (`db/table.index`), or
    /// the end of one after a `/` or `.` (`table.index`, `index`).
    pub fn find(&self, which: &str) -> Result<u64, NoIndexNamed> {
        if let Ok(id) = which.parse::<u64>() {
            return Ok(id);
        }
        let matching: Vec<(u64, &String)> = self
            .names
            .iter()
            .filter(|(_, n)| {
                n.as_str() == which
                    || n.strip_suffix(which)
                        .is_some_and(|head| head.ends_with('/') || head.ends_with('.'))
            })
            .map(|(id, n)| (*id, n))
            .collect();
        match matching.as_slice() {
            [] => Err(NoIndexNamed::None),
            [(id, _)] => Ok(*id),
            more => Err(NoIndexNamed::Ambiguous(
                more.iter().map(|(_, n)| (*n).clone()).collect(),
            )),
        }
    }
}

/// A report with a row per index, which a dictionary can name.
pub trait IndexRows {
    /// Each index row's id and its name to fill in.
    fn index_rows(&mut self) -> Vec<(u64, &mut Option<String>)>;
}

/// Names every index row of `report` (`db/table.index`, `SDI`).
pub fn name_indexes(report: &mut impl IndexRows, names: &IndexNames) {
    for (id, name) in report.index_rows() {
        *name = names.get(id).map(str::to_string);
    }
}

impl IndexRows for crate::reports::indexes::IndexesReport {
    fn index_rows(&mut self) -> Vec<(u64, &mut Option<String>)> {
        self.indexes
            .iter_mut()
            .map(|i| (i.index_id, &mut i.name))
            .collect()
    }
}

impl IndexRows for crate::reports::space_reports::SegmentsReport {
    fn index_rows(&mut self) -> Vec<(u64, &mut Option<String>)> {
        use innodb_space::segment::SegmentOwner;
        let segments = self.segments.iter_mut().filter_map(|s| match s.owner {
            SegmentOwner::IndexLeaf { index_id, .. }
            | SegmentOwner::IndexNonLeaf { index_id, .. } => Some((index_id, &mut s.index_name)),
            _ => None,
        });
        self.indexes
            .iter_mut()
            .map(|i| (i.index_id, &mut i.name))
            .chain(segments)
            .collect()
    }
}

impl IndexRows for crate::reports::space_reports::ExtentsReport {
    fn index_rows(&mut self) -> Vec<(u64, &mut Option<String>)> {
        self.legend
            .iter_mut()
            .filter_map(|e| Some((e.index_id?, &mut e.index_name)))
            .collect()
    }
}

impl IndexRows for crate::reports::space_reports::WasteReport {
    fn index_rows(&mut self) -> Vec<(u64, &mut Option<String>)> {
        self.indexes
            .iter_mut()
            .map(|i| (i.index_id, &mut i.name))
            .collect()
    }
}

impl IndexRows for crate::reports::tree_report::TreeReport {
    fn index_rows(&mut self) -> Vec<(u64, &mut Option<String>)> {
        vec![(self.index_id, &mut self.name)]
    }
}

impl IndexRows for crate::reports::count_report::CountReport {
    fn index_rows(&mut self) -> Vec<(u64, &mut Option<String>)> {
        self.indexes
            .iter_mut()
            .map(|i| (i.index_id, &mut i.name))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> IndexNames {
        let mut names = BTreeMap::new();
        names.insert(190, "test/t_gts_a.PRIMARY".to_string());
        names.insert(191, "test/t_gts_a.k_a".to_string());
        names.insert(192, "test/t_gts_b.PRIMARY".to_string());
        names.insert(SDI_INDEX_ID, SDI_INDEX_NAME.to_string());
        IndexNames { names }
    }

    #[test]
    fn an_index_is_found_by_id_full_name_or_its_end() {
        let n = names();
        assert_eq!(n.find("191"), Ok(191));
        assert_eq!(n.find("test/t_gts_b.PRIMARY"), Ok(192));
        assert_eq!(n.find("t_gts_b.PRIMARY"), Ok(192));
        assert_eq!(n.find("k_a"), Ok(191));
        assert_eq!(n.find("SDI"), Ok(SDI_INDEX_ID));
        assert_eq!(
            n.find("PRIMARY"),
            Err(NoIndexNamed::Ambiguous(vec![
                "test/t_gts_a.PRIMARY".into(),
                "test/t_gts_b.PRIMARY".into()
            ]))
        );
        assert_eq!(n.find("a.k_a"), Err(NoIndexNamed::None));
        assert_eq!(n.find("nope"), Err(NoIndexNamed::None));
    }
}

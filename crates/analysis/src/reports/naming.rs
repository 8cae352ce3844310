//! Names for indexes from a data dictionary (`--system ibdata1`).

use innodb_space::dictionary::Dictionary;

/// `db/table.index` of index `index_id` of tablespace `space_id`, when the
/// dictionary has it.
pub fn index_name(dict: &Dictionary, space_id: u32, index_id: u64) -> Option<String> {
    dict.index(index_id)
        .filter(|(t, i)| i.space == space_id || t.space == space_id)
        .map(|(t, i)| format!("{}.{}", t.name, i.name))
}

/// A report with a row per index, which a dictionary can name.
pub trait IndexRows {
    /// Each index row's id and its name to fill in.
    fn index_rows(&mut self) -> Vec<(u64, &mut Option<String>)>;
}

/// Names every index row of `report` from `dict` (`db/table.index`).
pub fn name_indexes(report: &mut impl IndexRows, dict: &Dictionary, space_id: u32) {
    for (id, name) in report.index_rows() {
        *name = index_name(dict, space_id, id);
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
        self.indexes
            .iter_mut()
            .map(|i| (i.index_id, &mut i.name))
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

impl IndexRows for crate::reports::count_report::CountReport {
    fn index_rows(&mut self) -> Vec<(u64, &mut Option<String>)> {
        self.indexes
            .iter_mut()
            .map(|i| (i.index_id, &mut i.name))
            .collect()
    }
}

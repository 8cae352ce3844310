//! Names for indexes from a data dictionary (`--system ibdata1`).

use innodb_space::dictionary::Dictionary;

/// `db/table.index` of index `index_id` of tablespace `space_id`, when the
/// dictionary has it.
pub fn index_name(dict: &Dictionary, space_id: u32, index_id: u64) -> Option<String> {
    dict.index(index_id)
        .filter(|(t, i)| i.space == space_id || t.space == space_id)
        .map(|(t, i)| format!("{}.{}", t.name, i.name))
}

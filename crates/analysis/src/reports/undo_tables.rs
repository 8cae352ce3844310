//! The tables an undo report names and decodes its records with, by table
//! id: from the dictionary of the system tablespace (MariaDB, MySQL 5.x),
//! and on MySQL 8.0+ from each tablespace's SDI (its table's
//! `se_private_id` is the table id undo records carry).

use crate::reports::sdi_report::SdiReport;
use crate::rows::schema::Schema;
use innodb_space::dictionary::Dictionary;
use std::collections::BTreeMap;

/// Tables by id.
#[derive(Debug, Clone, Default)]
pub struct UndoTables<'a> {
    dict: Option<&'a Dictionary>,
    sdi: BTreeMap<u64, Schema>,
}

impl<'a> UndoTables<'a> {
    /// The tables of `dict`, if any.
    pub fn new(dict: Option<&'a Dictionary>) -> Self {
        UndoTables {
            dict,
            sdi: BTreeMap::new(),
        }
    }

    /// Adds the table of one tablespace's SDI (its clustered index's
    /// columns, named `db/table`); a tablespace without a table in its SDI
    /// adds nothing.
    pub fn add_sdi(&mut self, sdi: &SdiReport) {
        let Some(table) = sdi
            .records
            .iter()
            .find(|e| e.sdi_type == 1)
            .and_then(|e| e.object.get("dd_object"))
        else {
            return;
        };
        let (Some(id), Some(mut schema)) = (table["se_private_id"].as_u64(), Schema::from_sdi(sdi))
        else {
            return;
        };
        // Schema::from_sdi names the table `db/table` when the SDI has its
        // schema; only a bare name gets it here.
        if let Some(db) = table["schema_ref"]
            .as_str()
            .filter(|_| !schema.table.contains('/'))
        {
            schema.table = format!("{db}/{}", schema.table);
        }
        self.sdi.insert(id, schema);
    }

    /// The tables known.
    pub fn len(&self) -> usize {
        self.sdi.len() + self.dict.map_or(0, |d| d.tables.len())
    }

    /// True when no table is known.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The name (`db/table`) of table `id`.
    pub fn name(&self, id: u64) -> Option<String> {
        if let Some(s) = self.sdi.get(&id) {
            return Some(s.table.clone());
        }
        self.dict?
            .tables
            .iter()
            .find(|t| t.id == id)
            .map(|t| t.name.clone())
    }

    /// The columns of table `id`.
    pub fn schema(&self, id: u64) -> Option<Schema> {
        if let Some(s) = self.sdi.get(&id) {
            return Some(s.clone());
        }
        Schema::from_dictionary_table(self.dict?, id)
    }
}

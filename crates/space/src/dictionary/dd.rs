//! MySQL 8.0+'s data dictionary objects, typed: a table with its columns,
//! indexes and partitions as the server's dictionary defines it, and a
//! tablespace with its files. They are read from a file's SDI (which
//! serializes them with these keys: `dd::Table_impl::serialize`,
//! `dd::Column_impl::serialize`, …) or from the dictionary tables of
//! `mysql.ibd` (see [`super::mysql_ibd`]).
//!
//! A table makes one InnoDB table, or one per leaf partition (a
//! subpartition, or a partition without subpartitions), each with its
//! indexes' ids, roots and space in `se_private_data`: what
//! `INFORMATION_SCHEMA.INNODB_TABLES` and `INNODB_INDEXES` list
//! ([`DdTable::innodb_tables`]).

use serde::{Deserialize, Deserializer, Serialize};

/// A column (`mysql.columns`, an SDI table's `columns`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct DdColumn {
    /// `name`.
    pub name: String,
    /// `type`: `dd::enum_column_types` (1 DECIMAL, 2 TINY, … 4 LONG, …, 16
    /// VARCHAR, …, 31 JSON, 32 VECTOR).
    #[serde(rename = "type")]
    pub column_type: u64,
    /// `is_nullable`.
    pub is_nullable: bool,
    /// `is_unsigned`.
    pub is_unsigned: bool,
    /// `is_virtual`: a generated column that is not stored.
    pub is_virtual: bool,
    /// `hidden`: 1 visible, 2 hidden by the storage engine (`DB_TRX_ID`,
    /// `DB_ROLL_PTR`, `DB_ROW_ID`, `FTS_DOC_ID`), 3 by SQL, 4 by the user.
    pub hidden: u64,
    /// `ordinal_position`, from 1.
    pub ordinal_position: u32,
    /// `char_length`: bytes.
    pub char_length: u64,
    /// `numeric_precision`.
    pub numeric_precision: u64,
    /// `numeric_scale`.
    pub numeric_scale: u64,
    /// `datetime_precision`.
    pub datetime_precision: u64,
    /// `collation_id` (63: binary).
    pub collation_id: u64,
    /// `se_private_data`: `table_id=…;`, and after an INSTANT ALTER
    /// `physical_pos=`, `version_added=`, `version_dropped=`, `default=`.
    pub se_private_data: String,
    /// ENUM or SET labels, in order (`mysql.column_type_elements`; base64
    /// in the SDI).
    #[serde(deserialize_with = "labels")]
    pub elements: Vec<String>,
    /// `column_type_utf8`: the SQL type as `SHOW CREATE TABLE` prints it
    /// (`int unsigned`, `varchar(40)`, `enum('a','b')`).
    pub column_type_utf8: String,
    /// `default_value_utf8`: the default as text (when it is a value).
    pub default_value_utf8: String,
    /// `default_value_null`: the default is NULL.
    pub default_value_null: bool,
    /// `has_no_default`: no default is declared.
    pub has_no_default: bool,
    /// `default_option`: a default that is an expression
    /// (`CURRENT_TIMESTAMP`).
    pub default_option: String,
    /// `update_option`: `ON UPDATE` (`CURRENT_TIMESTAMP`).
    pub update_option: String,
    /// `is_auto_increment`.
    pub is_auto_increment: bool,
    /// `generation_expression_utf8`: a generated column's expression.
    pub generation_expression_utf8: String,
    /// `comment`.
    pub comment: String,
}

impl Default for DdColumn {
    fn default() -> Self {
        DdColumn {
            name: String::new(),
            column_type: 0,
            is_nullable: true,
            is_unsigned: false,
            is_virtual: false,
            hidden: 1,
            ordinal_position: 0,
            char_length: 0,
            numeric_precision: 0,
            numeric_scale: 0,
            datetime_precision: 0,
            collation_id: 63,
            se_private_data: String::new(),
            elements: Vec::new(),
            column_type_utf8: String::new(),
            default_value_utf8: String::new(),
            default_value_null: false,
            has_no_default: false,
            default_option: String::new(),
            update_option: String::new(),
            is_auto_increment: false,
            generation_expression_utf8: String::new(),
            comment: String::new(),
        }
    }
}

/// One column of an index (`mysql.index_column_usage`, an SDI index's
/// `elements`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct DdIndexElement {
    /// `ordinal_position` in the index, from 1.
    pub ordinal_position: u32,
    /// `length`: the key prefix in bytes (4294967295: the whole column).
    pub length: u64,
    /// `order`: 1 undefined, 2 ascending, 3 descending.
    pub order: u64,
    /// `hidden`: added by the storage engine (the primary key columns a
    /// secondary index carries, the system columns of the clustered index).
    pub hidden: bool,
    /// The column: its place in the table's columns (by ordinal position).
    pub column_opx: usize,
}

/// An index (`mysql.indexes`, an SDI table's `indexes`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct DdIndex {
    /// `name`.
    pub name: String,
    /// `type`: 1 PRIMARY, 2 UNIQUE, 3 MULTIPLE, 4 FULLTEXT, 5 SPATIAL.
    #[serde(rename = "type")]
    pub index_type: u64,
    /// `hidden` (`FTS_DOC_ID_INDEX`, a primary key InnoDB made).
    pub hidden: bool,
    /// `ordinal_position` among the table's indexes, from 1.
    pub ordinal_position: u32,
    /// `se_private_data`: `id=…;root=…;space_id=…;table_id=…;trx_id=…;`
    /// (empty for a partitioned table: each partition's index has its own).
    pub se_private_data: String,
    /// Its columns, in order.
    pub elements: Vec<DdIndexElement>,
}

/// A partition's copy of an index (`mysql.index_partitions`, an SDI
/// partition's `indexes`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct DdPartitionIndex {
    /// `se_private_data`: the id, root and space of this partition's index.
    pub se_private_data: String,
    /// The table's index it is a copy of: its place in the table's indexes.
    pub index_opx: usize,
}

/// A partition or subpartition (`mysql.table_partitions`, an SDI table's
/// `partitions`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct DdPartition {
    /// `name` (`p0`, `p0sp0`).
    pub name: String,
    /// `number`: its place among its siblings, from 0.
    pub number: u32,
    /// `se_private_id`: the InnoDB table id of a leaf partition.
    pub se_private_id: u64,
    /// Its indexes (a leaf partition's).
    pub indexes: Vec<DdPartitionIndex>,
    /// Its subpartitions.
    pub subpartitions: Vec<DdPartition>,
}

/// A table (`mysql.tables`, an SDI object of type 1).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct DdTable {
    /// `name`.
    pub name: String,
    /// The schema (database): the SDI's `schema_ref`, `mysql.schemata.name`.
    pub schema_ref: String,
    /// `se_private_id`: the InnoDB table id (of a table that is not
    /// partitioned).
    pub se_private_id: u64,
    /// `se_private_data`.
    pub se_private_data: String,
    /// Its columns, by ordinal position.
    pub columns: Vec<DdColumn>,
    /// Its indexes, by ordinal position.
    pub indexes: Vec<DdIndex>,
    /// Its partitions, by number (none when it is not partitioned).
    pub partitions: Vec<DdPartition>,
    /// `collation_id`: the table's default collation (0: not known).
    pub collation_id: u64,
    /// `row_format`: 1 FIXED, 2 DYNAMIC, 3 COMPRESSED, 4 REDUNDANT,
    /// 5 COMPACT, 6 PAGED (0: not known).
    pub row_format: u64,
    /// `options`: `key_block_size=4;compress=zlib;…`.
    pub options: String,
    /// `comment`.
    pub comment: String,
}

/// A tablespace's file (`mysql.tablespace_files`, an SDI tablespace's
/// `files`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct DdTablespaceFile {
    /// `file_name` (`./test/t1.ibd`, `mysql.ibd`).
    #[serde(alias = "file_name")]
    pub filename: String,
}

/// A tablespace (`mysql.tablespaces`, an SDI object of type 2).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct DdTablespace {
    /// `name` (`test/t1`, `gts`, `mysql`, `innodb_system`).
    pub name: String,
    /// `se_private_data`: `flags=…;id=<space id>;server_version=…;…`.
    pub se_private_data: String,
    /// Its files.
    pub files: Vec<DdTablespaceFile>,
}

impl DdTablespace {
    /// The InnoDB space id (`se_private_data` `id=`).
    pub fn space_id(&self) -> Option<u32> {
        private_u64(&self.se_private_data, "id").and_then(|v| u32::try_from(v).ok())
    }
}

/// One InnoDB table a dictionary table makes: the table itself, or one
/// leaf partition, as `INNODB_TABLES` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct InnodbTable {
    /// `db/table`, or for a leaf partition `db/table#p#p0` and
    /// `db/table#p#p0#sp#p0sp0` (`INNODB_TABLES.NAME`).
    pub name: String,
    /// `INNODB_TABLES.TABLE_ID`.
    pub table_id: u64,
    /// The space its indexes are in.
    pub space_id: Option<u32>,
    /// The leaf partition: its place in the table's partitions, and in
    /// that partition's subpartitions.
    pub partition: Option<(usize, Option<usize>)>,
    /// Its indexes, in the table's order.
    pub indexes: Vec<InnodbIndex>,
}

/// One index of an [`InnodbTable`] (`INNODB_INDEXES`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct InnodbIndex {
    /// Its place in the table's indexes.
    pub opx: usize,
    /// Its name.
    pub name: String,
    /// `INDEX_ID`.
    pub id: u64,
    /// `PAGE_NO`: the root (`FIL_NULL` for a FULLTEXT index, which is no
    /// B-tree of the file).
    pub root: u32,
    /// `SPACE`.
    pub space_id: u32,
}

impl InnodbIndex {
    /// The index of `opx` whose `se_private_data` is `data`, when that
    /// gives its id, root and space.
    fn of(opx: usize, name: &str, data: &str) -> Option<InnodbIndex> {
        Some(InnodbIndex {
            opx,
            name: name.to_string(),
            id: private_u64(data, "id")?,
            root: u32::try_from(private_u64(data, "root")?).ok()?,
            space_id: u32::try_from(private_u64(data, "space_id")?).ok()?,
        })
    }
}

impl DdTable {
    /// `db/table`.
    pub fn qualified_name(&self) -> String {
        format!("{}/{}", self.schema_ref, self.name)
    }

    /// The InnoDB tables this table makes: itself, or each leaf partition
    /// (`#p#` and `#sp#` joining the names, as the server names them).
    pub fn innodb_tables(&self) -> Vec<InnodbTable> {
        let name = self.qualified_name();
        if self.partitions.is_empty() {
            let indexes: Vec<InnodbIndex> = self
                .indexes
                .iter()
                .enumerate()
                .filter_map(|(opx, i)| InnodbIndex::of(opx, &i.name, &i.se_private_data))
                .collect();
            return vec![InnodbTable {
                name,
                table_id: self.se_private_id,
                space_id: indexes.first().map(|i| i.space_id),
                partition: None,
                indexes,
            }];
        }
        let mut out = Vec::new();
        for (p, part) in self.partitions.iter().enumerate() {
            let leaves: Vec<(Option<usize>, &DdPartition, String)> =
                if part.subpartitions.is_empty() {
                    vec![(None, part, format!("{name}#p#{}", part.name))]
                } else {
                    part.subpartitions
                        .iter()
                        .enumerate()
                        .map(|(s, sub)| {
                            (
                                Some(s),
                                sub,
                                format!("{name}#p#{}#sp#{}", part.name, sub.name),
                            )
                        })
                        .collect()
                };
            for (s, leaf, leaf_name) in leaves {
                let indexes: Vec<InnodbIndex> = leaf
                    .indexes
                    .iter()
                    .filter_map(|pi| {
                        let index = self.indexes.get(pi.index_opx)?;
                        InnodbIndex::of(pi.index_opx, &index.name, &pi.se_private_data)
                    })
                    .collect();
                out.push(InnodbTable {
                    name: leaf_name,
                    table_id: leaf.se_private_id,
                    space_id: indexes.first().map(|i| i.space_id),
                    partition: Some((p, s)),
                    indexes,
                });
            }
        }
        out
    }
}

/// `INNODB_INDEXES.TYPE` of `index` of `table`: 1 clustered (with 2,
/// unique: a primary key), 2 unique, 32 FULLTEXT, 64 SPATIAL, 0 other
/// (`DICT_CLUSTERED`, `DICT_UNIQUE`, `DICT_FTS`, `DICT_SPATIAL`).
pub fn innodb_index_type(table: &DdTable, index: &DdIndex) -> u32 {
    let has_trx_id = index.elements.iter().any(|e| {
        table
            .columns
            .get(e.column_opx)
            .is_some_and(|c| c.name == "DB_TRX_ID" && c.hidden == 2)
    });
    match index.index_type {
        1 => 3,
        _ if has_trx_id => 3,
        2 => 2,
        4 => 32,
        5 => 64,
        _ => 0,
    }
}

/// The value of `key` in a `key=value;…` string (`se_private_data`).
pub fn private_value<'a>(data: &'a str, key: &str) -> Option<&'a str> {
    data.split(';')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
}

/// [`private_value`] as a number.
pub fn private_u64(data: &str, key: &str) -> Option<u64> {
    private_value(data, key)?.parse().ok()
}

/// The SDI's ENUM/SET labels: `[{"name": <base64>, "index": n}, …]`.
fn labels<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    struct Element {
        #[serde(default)]
        name: String,
    }
    let elements = Vec::<Element>::deserialize(d)?;
    Ok(elements
        .iter()
        .map(|e| String::from_utf8_lossy(&base64_decode(&e.name)).into_owned())
        .collect())
}

/// Standard base64 (the SDI's ENUM/SET labels); other characters are
/// skipped.
pub fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for v in s.bytes().filter_map(val) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A partitioned table's SDI (as `t_part`'s, cut down): one InnoDB
    /// table per subpartition, its indexes from the partition's
    /// `se_private_data`, named as INNODB_TABLES names them.
    #[test]
    fn a_partitioned_table_makes_one_innodb_table_per_leaf() {
        let sdi = serde_json::json!({
            "name": "t_part", "schema_ref": "test", "se_private_id": u64::MAX,
            "columns": [{"name": "id", "type": 4, "is_nullable": false,
                         "elements": [{"name": "YQ==", "index": 1}]}],
            "indexes": [{"name": "PRIMARY", "type": 1, "se_private_data": ""},
                        {"name": "k_a", "type": 3, "se_private_data": ""}],
            "partitions": [{"name": "p0", "subpartitions": [
                {"name": "p0sp0", "se_private_id": 1094, "indexes": [
                    {"se_private_data": "id=194;root=4;space_id=31;table_id=1094;", "index_opx": 0},
                    {"se_private_data": "id=195;root=5;space_id=31;table_id=1094;", "index_opx": 1}]},
                {"name": "p0sp1", "se_private_id": 1095, "indexes": [
                    {"se_private_data": "id=196;root=4;space_id=32;", "index_opx": 0}]}]}]
        });
        let t: DdTable = serde_json::from_value(sdi).unwrap();
        assert_eq!(t.columns[0].elements, ["a"]);
        assert_eq!(t.columns[0].collation_id, 63);
        let leaves = t.innodb_tables();
        assert_eq!(leaves.len(), 2);
        assert_eq!(leaves[0].name, "test/t_part#p#p0#sp#p0sp0");
        assert_eq!(leaves[0].table_id, 1094);
        assert_eq!(leaves[0].space_id, Some(31));
        assert_eq!(leaves[0].partition, Some((0, Some(0))));
        assert_eq!(
            leaves[0].indexes[1],
            InnodbIndex {
                opx: 1,
                name: "k_a".into(),
                id: 195,
                root: 5,
                space_id: 31
            }
        );
        assert_eq!(leaves[1].name, "test/t_part#p#p0#sp#p0sp1");
        assert_eq!(leaves[1].indexes.len(), 1);
    }

    #[test]
    fn private_data_values() {
        let d = "id=154;root=4;space_id=2;table_id=1064;trx_id=1556;";
        assert_eq!(private_u64(d, "id"), Some(154));
        assert_eq!(private_u64(d, "table_id"), Some(1064));
        assert_eq!(private_value(d, "root"), Some("4"));
        assert_eq!(private_value(d, "space"), None);
        assert_eq!(base64_decode("ZGZsdA=="), b"dflt");
    }
}

//! A table as `CREATE TABLE` declares it: its columns with their SQL types,
//! character sets, nullability and defaults, and its keys. Made from
//! whichever source a table has (a MySQL 8.0+ SDI or `mysql.ibd`, a `.frm`,
//! the SYS_* dictionary, a `--ddl` statement) and rendered as SQL by
//! `render`'s SQL writer. It describes; it decodes nothing (that is
//! [`super::schema::Schema`]'s).

use serde::Serialize;

/// Where a table definition came from, as reports name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DefinitionSource {
    /// A MySQL 8.0+ file's SDI or `mysql.ibd`'s dictionary tables.
    Sdi,
    /// A `.frm` file (MariaDB, MySQL 5.x).
    Frm,
    /// The SYS_* dictionary of a system tablespace (types as InnoDB keeps
    /// them: lengths in bytes, no DECIMAL scale, no ENUM labels).
    SysTables,
    /// A `CREATE TABLE` statement given with `--ddl`.
    Ddl,
}

/// A column as `CREATE TABLE` declares it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ColumnDefinition {
    /// Column name.
    pub name: String,
    /// The SQL type as the server prints it in `SHOW CREATE TABLE`, without
    /// character set or attributes: `int(11) unsigned`, `decimal(10,2)`,
    /// `varchar(40)`, `enum('a','b')`, `datetime(3)`.
    pub sql_type: String,
    /// `NULL` is allowed.
    pub nullable: bool,
    /// The default as an SQL expression (`'abc'`, `0`, `NULL`,
    /// `current_timestamp()`), when one is declared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// Character set of a character column (`latin1`, `utf8mb4`, `gbk`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charset: Option<String>,
    /// Collation of a character column (`latin1_swedish_ci`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collation: Option<String>,
    /// The expression of a generated column, and whether it is stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generated: Option<(String, bool)>,
    /// `AUTO_INCREMENT`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub auto_increment: bool,
    /// Column comment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// What kind of key a [`KeyDefinition`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum KeyKind {
    /// `PRIMARY KEY`.
    Primary,
    /// `UNIQUE KEY`.
    Unique,
    /// `KEY`.
    Plain,
    /// `FULLTEXT KEY`.
    Fulltext,
    /// `SPATIAL KEY`.
    Spatial,
}

/// One column of a key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct KeyPart {
    /// Column name.
    pub column: String,
    /// Prefix length in characters (`KEY (email(3))`), when the key holds a
    /// prefix only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<u32>,
    /// Descending (`DESC`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub descending: bool,
}

/// A key as `CREATE TABLE` declares it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct KeyDefinition {
    /// Kind.
    pub kind: KeyKind,
    /// Name (`PRIMARY` for the primary key).
    pub name: String,
    /// Its columns, in order.
    pub parts: Vec<KeyPart>,
}

/// A table as `CREATE TABLE` declares it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct TableDefinition {
    /// Where it came from.
    pub source: DefinitionSource,
    /// Database (schema) name, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
    /// Table name, without the database.
    pub name: String,
    /// Columns in declared order (virtual ones included).
    pub columns: Vec<ColumnDefinition>,
    /// Keys, the primary key first.
    pub keys: Vec<KeyDefinition>,
    /// Table options as `SHOW CREATE TABLE` prints them after `ENGINE=InnoDB`
    /// (`DEFAULT CHARSET=latin1`, `ROW_FORMAT=COMPRESSED`,
    /// `KEY_BLOCK_SIZE=4`, `PAGE_COMPRESSED=1`), in order.
    pub options: Vec<String>,
}

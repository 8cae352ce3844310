//! Which server family wrote a tablespace.

use serde::Serialize;

/// The server family that wrote a file. Decides the meaning of codes that the
/// vendors use differently (page type 18, flag bits, the roll-pointer id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Vendor {
    /// Oracle MySQL (or Percona Server).
    MySql,
    /// MariaDB Server.
    MariaDb,
    /// Not decidable from the file (e.g. MySQL ≤5.7 and MariaDB ≤10.3 with
    /// identical flags); treated like MySQL where codes conflict.
    Unknown,
}

impl Vendor {
    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Vendor::MySql => "MySQL",
            Vendor::MariaDb => "MariaDB",
            Vendor::Unknown => "MySQL or MariaDB",
        }
    }
}

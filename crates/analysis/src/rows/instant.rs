//! MySQL 8.0.29+ INSTANT ADD/DROP COLUMN: which columns a record of a given
//! row version holds, and the value of those it does not.
//!
//! A clustered-index leaf record whose info bits carry `REC_INFO_VERSION_FLAG`
//! (0x40) has a one-byte row version just before its null bitmap; a record
//! without it is version 0. A column added by the `ALTER` that made version
//! `a` (`version_added=a` in its SDI `se_private_data`) is stored only in
//! records of version ≥ a, older ones taking its instant default
//! (`default=<hex>` or `default_null=1`); a column dropped by version `d`
//! (`version_dropped=d`, renamed `!hidden!_dropped_v<d>_p<pos>_<name>`) is
//! stored only in records of version < d. Fields keep their physical order
//! (`physical_pos`), dropped ones included.

use serde::Serialize;

/// `REC_INFO_VERSION_FLAG`: the record stores its row version (8.0.29+).
pub const REC_INFO_VERSION_FLAG: u8 = 0x40;
/// `REC_INFO_INSTANT_FLAG`: the record stores its field count (8.0.12–8.0.28).
pub const REC_INFO_INSTANT_FLAG: u8 = 0x80;

/// A column's INSTANT history, from its SDI `se_private_data`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct InstantColumn {
    /// Row version that added the column (0: there from the start).
    #[serde(skip_serializing_if = "is_zero")]
    pub version_added: u8,
    /// Row version that dropped the column (0: not dropped).
    #[serde(skip_serializing_if = "is_zero")]
    pub version_dropped: u8,
    /// The stored bytes older records stand for (`default=`); `None` is NULL.
    #[serde(skip)]
    pub default: Option<Vec<u8>>,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

impl InstantColumn {
    /// Reads `version_added`, `version_dropped` and `default` from a
    /// column's `se_private_data` (`key=value;…`).
    pub fn from_se_private_data(private: &str) -> Self {
        let get = |k: &str| {
            private
                .split(';')
                .find_map(|kv| kv.strip_prefix(k)?.strip_prefix('='))
        };
        let version = |k: &str| get(k).and_then(|v| v.parse::<u8>().ok()).unwrap_or(0);
        InstantColumn {
            version_added: version("version_added"),
            version_dropped: version("version_dropped"),
            default: get("default").and_then(unhex),
        }
    }

    /// True when records of row version `v` store the column.
    pub fn stored_in(&self, v: u8) -> bool {
        self.version_added <= v && (self.version_dropped == 0 || v < self.version_dropped)
    }

    /// True when the column has an INSTANT history at all.
    pub fn is_instant(&self) -> bool {
        self.version_added != 0 || self.version_dropped != 0
    }
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

/// The row version of a COMPACT/DYNAMIC record from its info bits and the
/// byte before its null bitmap (`origin - 6`), with the number of bytes it
/// takes (0 or 1); `None` when the byte is off the page.
pub fn row_version(page: &[u8], origin: usize, info_bits: u8) -> Option<(u8, usize)> {
    if info_bits & REC_INFO_VERSION_FLAG == 0 {
        return Some((0, 0));
    }
    let v = *page.get(origin.checked_sub(6)?)?;
    Some((v, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn se_private_data_of_added_and_dropped_columns() {
        let c = InstantColumn::from_se_private_data(
            "default=64656661756c745f76616c7565;physical_pos=6;table_id=1070;version_added=2;",
        );
        assert_eq!(c.version_added, 2);
        assert_eq!(c.default.as_deref(), Some(&b"default_value"[..]));
        assert!(!c.stored_in(1) && c.stored_in(2) && c.stored_in(9));
        let d = InstantColumn::from_se_private_data(
            "physical_pos=6;version_added=2;version_dropped=4;",
        );
        assert!(!d.stored_in(1) && d.stored_in(2) && d.stored_in(3) && !d.stored_in(4));
        assert_eq!(d.default, None);
        assert!(!InstantColumn::from_se_private_data("physical_pos=0;").is_instant());
    }

    #[test]
    fn row_version_byte() {
        let page = [0u8, 0, 3, 0x40, 0, 0, 0, 0];
        assert_eq!(row_version(&page, 8, 0x40), Some((3, 1)));
        assert_eq!(row_version(&page, 8, 0), Some((0, 0)));
        assert_eq!(row_version(&page, 3, 0x40), None);
    }
}

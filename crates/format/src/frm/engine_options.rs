//! MariaDB's engine-defined table options (`extra2` entry 128,
//! `engine_option_value::frm_read`): for each option a name length byte,
//! the name, a 2-byte value length (bit 15: the value was quoted) and the
//! value; a 0 name length ends the table's options (the columns' and
//! keys' follow, not read here).

use crate::bytes::{slice, u16_le_at, u8_at};
use crate::FormatError;

/// `EXTRA2_ENGINE_TABLEOPTS`.
pub const EXTRA2_ENGINE_TABLEOPTS: u8 = 128;

/// The table's options (`PAGE_COMPRESSED` = `1`) in the entry `b` (at
/// file offset `base`).
pub fn table_options(b: &[u8], base: usize) -> Result<Vec<(String, String)>, FormatError> {
    let at = |e| super::forminfo::shift(e, base);
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < b.len() {
        let name_len = usize::from(u8_at(b, pos, "engine option name length").map_err(at)?);
        if name_len == 0 {
            break;
        }
        let name = slice(b, pos + 1, name_len, "engine option name").map_err(at)?;
        let raw = u16_le_at(b, pos + 1 + name_len, "engine option value length").map_err(at)?;
        let value_len = usize::from(raw & 0x7FFF);
        let value = slice(b, pos + 3 + name_len, value_len, "engine option value").map_err(at)?;
        out.push((
            String::from_utf8_lossy(name).into_owned(),
            String::from_utf8_lossy(value).into_owned(),
        ));
        pos += 3 + name_len + value_len;
    }
    Ok(out)
}

//! The data of an X/Open XA transaction id (`XIDDATASIZE` bytes), as
//! three structures keep one: the undo log header (`TRX_UNDO_XA_XID`), and
//! MariaDB's WSREP checkpoint in the rollback segment header and TRX_SYS.

use crate::bytes::slice;
use crate::field::Field;
use crate::FormatError;

/// Bytes of XID data (`XIDDATASIZE`).
pub const XIDDATASIZE: usize = 128;

/// An XID's data field (`XIDDATASIZE` = 128 bytes at `offset`): the bytes
/// the lengths cover as the value, shown in hex.
pub(crate) fn xid_data_field(
    page: &[u8],
    offset: usize,
    len: usize,
    name: &'static str,
) -> Result<Field, FormatError> {
    if len > XIDDATASIZE {
        return Err(FormatError::BadValue {
            field: name,
            offset,
            reason: format!("{len} bytes of XID, more than {XIDDATASIZE}"),
        });
    }
    let data = slice(page, offset, len, name)?;
    Ok(Field::with_meaning(
        offset,
        XIDDATASIZE,
        name,
        len as u64,
        data.iter().map(|b| format!("{b:02x}")).collect::<String>(),
    ))
}

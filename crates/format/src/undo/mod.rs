//! Undo logs (`trx0rseg.h`, `trx0undo.h`, `trx0rec.h`): rollback segment headers, MySQL 8's rollback segment array, undo pages and undo records.

pub mod rseg_array;
pub mod trx_rseg;
pub mod trx_undo;
pub mod trx_undo_rec;
pub mod undo_space_id;

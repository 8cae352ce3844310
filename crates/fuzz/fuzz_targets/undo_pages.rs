//! `undo` over the undo scenario's real system tablespace with the input
//! laid over its TRX_SYS, rollback segment and undo log pages: nearly
//! every mutation lands on a page the undo walk reads.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    innodb_fuzz::run("undo_pages", data);
});

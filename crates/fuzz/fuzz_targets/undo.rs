//! `undo` with the input as the system tablespace: rollback segments, undo
//! logs and their records, the history list.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    innodb_fuzz::run("undo", data);
});

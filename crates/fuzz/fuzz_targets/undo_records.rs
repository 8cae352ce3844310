//! Undo record headers and bodies at every offset of the input as one page.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    innodb_fuzz::run("undo_records", data);
});

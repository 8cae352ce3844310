//! Records of every index, typed with a real dictionary's schema (or the
//! file's own SDI), page-local records and key searches.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    innodb_fuzz::run("records", data);
});

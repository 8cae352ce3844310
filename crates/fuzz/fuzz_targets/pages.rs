//! `page N` (every decoder of every page type) over the input's pages.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    innodb_fuzz::run("pages", data);
});

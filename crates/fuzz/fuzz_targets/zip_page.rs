//! ROW_FORMAT=COMPRESSED page inflation over the input as one zip page.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    innodb_fuzz::run("zip_page", data);
});

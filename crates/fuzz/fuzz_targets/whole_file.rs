//! Every whole-file report and its renderers over the input as a file.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    innodb_fuzz::run("whole_file", data);
});

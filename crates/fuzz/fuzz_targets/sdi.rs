//! `sdi`: the Serialized Dictionary Information of a MySQL 8.0+ file and
//! the schema made from it, then the records that schema types.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    innodb_fuzz::run("sdi", data);
});

//! The integration tests of `innodb-inspect`, as one test binary: each file
//! beside this one is a module, with the helpers of `support` shared by all.
//! One binary links once, where one binary per file linked every crate of
//! the workspace again for each.
//!
//! Run one module's tests with a filter on its path, e.g.
//! `cargo test -p innodb-inspect --test main -- fixtures::`.

// Test functions walk a whole scenario; the length limits are for crates/.
#![allow(clippy::too_many_lines)]

mod support;

mod bad_input;
mod browse;
mod carve;
mod carve_dropped;
mod carve_dropped_mysql;
mod carve_in_place;
mod changing_files;
mod count_stats;
mod crafted_corruption;
mod datadir_reports;
mod deep_tree;
mod fixtures;
mod frm;
mod fuzz_corpus;
mod hostile_arguments;
mod json_schema;
mod mutations;
mod mysql_dblwr;
mod mysql_dict;
mod mysql_pages;
mod mysql_undo;
mod page_bodies;
mod page_sweep;
mod pictures;
mod properties;
mod read_only;
mod records_cli;
mod recovery;
mod scale;
mod setup;
mod space_corruption;
mod sql_out;
mod terminal_safety;
mod thirdparty;
mod tree_pass;
mod undo_bounds;
mod waste_split;

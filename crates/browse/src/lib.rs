//! `innodb-inspect browse`: an interactive terminal browser over a
//! tablespace or a data directory.
//!
//! The [`App`] holds the state and changes only through [`App::apply`]
//! with a named [`Action`]; [`ui::draw`] draws a frame from `&App`; the
//! scans run in background threads ([`jobs`]) so input never waits.

#![deny(clippy::indexing_slicing)]

pub mod action;
pub mod app;
mod follow;
pub mod jobs;
mod nav;
mod record;
pub mod term;
pub mod ui;

pub use action::{action_for, Action};
pub use app::{App, Context};

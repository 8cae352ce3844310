//! Filled in by a following commit.
mod support;

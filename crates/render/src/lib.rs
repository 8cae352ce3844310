//! Renderers: turn report structs into text for people or JSON for machines.
//! Nothing here reads a file or a page.

#![deny(clippy::indexing_slicing)]

pub mod ansi;
pub mod carve_text;
pub mod datadir_text;
pub mod doublewrite_text;
pub mod dropped_text;
pub mod json;
pub mod png;
pub mod recovery_text;
pub mod safe;

/// What a report must be to be rendered as JSON.
pub use serde::Serialize;
pub mod space_text;
pub mod sql;
pub mod svg;
pub mod text;
pub mod undo_text;

/// Output format chosen by the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Aligned text for a terminal.
    Text,
    /// Pretty-printed JSON.
    Json,
}

/// `report` as text (made by `text`) or as JSON.
pub fn render<R: serde::Serialize + ?Sized>(
    format: OutputFormat,
    report: &R,
    text: impl FnOnce(&R) -> String,
) -> String {
    match format {
        OutputFormat::Text => text(report),
        OutputFormat::Json => json::render(report),
    }
}

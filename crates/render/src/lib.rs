//! Renderers: turn report structs into text for people or JSON for machines.
//! Nothing here reads a file or a page.

pub mod json;
pub mod space_text;
pub mod text;

/// Output format chosen by the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Aligned text for a terminal.
    Text,
    /// Pretty-printed JSON.
    Json,
}

//! Fatal errors of the space layer: each names the file, and the page, byte
//! offset and field where there is one.

use innodb_format::FormatError;
use std::path::PathBuf;
use thiserror::Error;

/// An error that stops work on a file.
#[derive(Debug, Error)]
pub enum SpaceError {
    /// The file could not be opened or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The file has no bytes.
    #[error("{}: empty file: no page 0 to read", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// Page 0 is unusable and no page size could be found.
    #[error("{}: page 0, offset {offset}, field {field}: {reason}; not an InnoDB tablespace, or page 0 is damaged (give --page-size to read it anyway)", path.display())]
    NoValidPage0 {
        /// The file.
        path: PathBuf,
        /// Offset of the offending field on page 0.
        offset: usize,
        /// The offending field.
        field: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A doublewrite file given where a tablespace is expected.
    #[error("{}: {reason}; not a tablespace: `innodb-inspect doublewrite FILE` lists its copies, `innodb-inspect page FILE N` decodes the copy in slot N", path.display())]
    Doublewrite {
        /// The file.
        path: PathBuf,
        /// How it was recognised.
        reason: String,
    },
    /// A file given as a doublewrite file that is not one.
    #[error("{}: not a doublewrite file: {reason}", path.display())]
    NotDoublewrite {
        /// The file.
        path: PathBuf,
        /// Why not.
        reason: String,
    },
    /// The page size given by the user is not one InnoDB uses.
    #[error("{}: --page-size {given}: {reason}", path.display())]
    BadPageSize {
        /// The file.
        path: PathBuf,
        /// The size given.
        given: usize,
        /// Why it is refused.
        reason: String,
    },
    /// The file is smaller than one page.
    #[error("{}: {len} bytes is less than one {page_size}-byte page", path.display())]
    ShorterThanAPage {
        /// The file.
        path: PathBuf,
        /// File length.
        len: u64,
        /// The page size in use.
        page_size: usize,
    },
    /// A structure on a page could not be read.
    #[error("{}: page {page}: {source}", path.display())]
    Page {
        /// The file.
        path: PathBuf,
        /// The page number.
        page: u32,
        /// What could not be read, with its offset and field.
        source: FormatError,
    },
    /// A page number beyond the end of the file.
    #[error("{}: page {page} does not exist (the file has {page_count} pages)", path.display())]
    NoSuchPage {
        /// The file.
        path: PathBuf,
        /// The page asked for.
        page: u64,
        /// Pages in the file.
        page_count: u32,
    },
}

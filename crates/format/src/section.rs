//! What a page body decoder returns: titled sections of fields, one per
//! on-disk structure, and the problems met on the way (decoding goes on
//! past a structure that cannot be read).

use crate::field::Field;
use crate::FormatError;
use serde::Serialize;

/// A titled group of fields (one on-disk structure).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Section {
    /// The structure's name.
    pub title: String,
    /// Its fields.
    pub fields: Vec<Field>,
}

/// A page body as decoded: its sections, and the structures that could not
/// be read (each error names the field and its offset).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Body {
    /// The sections, in page order as far as the structures allow.
    pub sections: Vec<Section>,
    /// What could not be read.
    pub problems: Vec<FormatError>,
}

impl Body {
    /// Adds a section.
    pub fn push(&mut self, title: impl Into<String>, fields: Vec<Field>) {
        self.sections.push(Section {
            title: title.into(),
            fields,
        });
    }

    /// Adds the section a decode gives, or keeps its error as a problem.
    pub fn add(&mut self, title: impl Into<String>, fields: Result<Vec<Field>, FormatError>) {
        match fields {
            Ok(fields) => self.push(title, fields),
            Err(e) => self.problems.push(e),
        }
    }

    /// Keeps the error of a decode that failed, returning its value if any.
    pub fn keep<T>(&mut self, r: Result<T, FormatError>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.problems.push(e);
                None
            }
        }
    }
}

/// One section per entry in use among `slots` (slot number, absolute
/// offset) of an array of `T` on `page`, titled `"{what} {slot} at
/// {offset}"`: an entry whose bytes are all zero was never used and is
/// left out; the walk stops at an entry that cannot be read (a problem).
pub fn entry_sections<T: crate::layout::Declared>(
    page: &[u8],
    slots: impl Iterator<Item = (usize, usize)>,
    what: &'static str,
    ctx: &crate::context::PageContext,
    body: &mut Body,
) {
    for (i, at) in slots {
        let bytes = crate::bytes::slice(page, at, T::END, what);
        if bytes.is_ok_and(crate::bytes::is_all_zero) {
            continue;
        }
        let Some(e) = body.keep(T::parse_at(page, at)) else {
            break;
        };
        body.push(format!("{what} {i} at {at}"), e.fields_at(at, ctx));
    }
}

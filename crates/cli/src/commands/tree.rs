//! `tree`: one index's pages in key order, level by level.

use crate::args::Format;
use crate::inputs::Inputs;
use crate::output::{Kind, Output};
use crate::CliError;
use innodb_analysis::reports::naming::{name_indexes, IndexNames, NoIndexNamed};
use innodb_analysis::reports::tree_report::{NoTree, TreeReport};
use innodb_render::json::tree_stream;
use innodb_render::space_text;
use innodb_space::Tablespace;
use std::path::Path;

/// The names of `names`, with their ids.
fn listed(names: &IndexNames) -> String {
    let all: Vec<String> = names
        .all()
        .iter()
        .map(|(id, n)| format!("{n} ({})", innodb_format::index::sdi::index_id_text(*id)))
        .collect();
    all.join(", ")
}

/// `tree FILE --index ID|NAME [--level L]`.
pub fn run(
    inputs: &Inputs,
    file: &Path,
    which: &str,
    level: Option<u16>,
    out: &mut Output,
) -> Result<u8, CliError> {
    let space = inputs.open(file)?;
    let names = inputs.index_names(&space)?;
    let index = names.find(which).map_err(|e| {
        let message = match e {
            NoIndexNamed::None => format!(
                "--index {which}: no index of that name; the file's indexes are {}",
                listed(&names)
            ),
            NoIndexNamed::Ambiguous(n) => format!(
                "--index {which} names several: {}; give the full name or the id",
                n.join(", ")
            ),
        };
        CliError::file(space.path(), message)
    })?;
    let mut r = TreeReport::prepare(&space, index).map_err(|e| match e {
        NoTree::NoSpaceMap(_) => CliError::NoSpaceMap(space.path().into()),
        NoTree::NoSuchIndex(ids) => {
            let ids: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
            CliError::file(
                space.path(),
                format!(
                    "--index {index}: no index root of that id; the file's indexes are {}",
                    ids.join(", ")
                ),
            )
        }
    })?;
    name_indexes(&mut r, &names);
    stream(&space, &mut r, level, inputs.format == Format::Json, out);
    Ok(0)
}

/// Writes the report `r` of `space` as its walk reads each page (text, or
/// JSON with `json`): the pages are never held, whatever the index's size.
fn stream(
    space: &Tablespace,
    r: &mut TreeReport,
    level: Option<u16>,
    json: bool,
    out: &mut Output,
) {
    /// Bytes of page lines gathered before they are written.
    const CHUNK: usize = 64 * 1024;
    let kind = if json { Kind::Json } else { Kind::Text };
    let head = if json {
        tree_stream::head(r)
    } else {
        space_text::tree_head(r)
    };
    out.emit_as(kind, &head);
    let mut pages = 0u64;
    let mut chunk = String::new();
    r.walk(space, level, |p| {
        if json {
            chunk.push_str(&tree_stream::row(&p, pages == 0));
        } else {
            chunk.push_str(&space_text::tree_row(&p));
        }
        pages += 1;
        if chunk.len() >= CHUNK {
            out.emit_as(kind, &chunk);
            chunk.clear();
        }
    });
    out.emit_as(kind, &chunk);
    let tail = if json {
        tree_stream::tail(r, pages > 0)
    } else {
        space_text::tree_tail(r, pages)
    };
    out.emit_as(kind, &tail);
}

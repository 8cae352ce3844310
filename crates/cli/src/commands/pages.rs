//! `pages`: the page listing, streamed row by row so that memory does not
//! grow with the file; over a data directory, file after file in directory
//! order, each streamed the same way.

use crate::args::{Format, PageRange};
use crate::inputs::Inputs;
use crate::output::{Kind, Output};
use crate::CliError;
use innodb_analysis::reports::datadir_report::FileResult;
use innodb_analysis::reports::datadir_totals::PagesTotals;
use innodb_analysis::reports::naming::IndexNames;
use innodb_analysis::{PageFilter, PageList, PageRow};
use innodb_format::fil::page_type::PageType;
use innodb_render::json::{datadir_pages_stream as dd, pages_stream};
use innodb_render::{datadir_text, text};
use innodb_space::Tablespace;
use std::io::Write;
use std::path::Path;

/// `pages [FILE] [--type T] [--range A..B]`.
pub fn run(
    inputs: &Inputs,
    file: Option<&Path>,
    page_type: Option<&str>,
    range: Option<PageRange>,
    out: &mut Output,
) -> Result<u8, CliError> {
    if let Some(t) = page_type {
        if t.parse::<u16>().is_err() && PageType::from_name(t).is_none() {
            return Err(CliError::Usage(format!(
                "--type {t}: no page type has that name (INDEX, UNDO_LOG, INODE, FSP_HDR, XDES, BLOB, SYS, TRX_SYS, ALLOCATED, … or a number)"
            )));
        }
    }
    let filter = PageFilter {
        page_type: page_type.map(str::to_string),
        range: range.map(|r| (r.0, r.1)),
    };
    let Some(file) = file else {
        return datadir(inputs, &filter, out);
    };
    let space = match inputs.open(file) {
        Ok(space) => space,
        Err(e) => {
            return super::doublewrite::instead(inputs, e, |f| {
                super::doublewrite::of_file(inputs, f, true, out)
            })
        }
    };
    if let Some(r) = range {
        if r.0 >= space.page_count() {
            return Err(CliError::file(
                file,
                format!(
                    "--range starts at page {} but the file has {} pages",
                    r.0,
                    space.page_count()
                ),
            ));
        }
    }
    // Streamed: one row written per page as the scan reaches it, so that
    // memory stays flat however large the file.
    single(inputs, &space, &filter, out);
    Ok(0)
}

/// Writes `space`'s listing to `out`, each piece passed through `wrap`
/// (the data-directory form nests it: `nested`, and the version is its
/// own head's); returns the rows written.
fn stream(
    out: &mut dyn Write,
    space: &Tablespace,
    filter: &PageFilter,
    json: bool,
    names: &IndexNames,
    wrap: &dyn Fn(&str) -> String,
    nested: bool,
) -> u64 {
    let mut rows = 0u64;
    // A closed pipe (`| head`) is not an error worth reporting.
    let mut put = |s: &str| {
        let _ = out.write_all(wrap(s).as_bytes());
    };
    put(&if json {
        // The data-directory form's own head carries the version.
        pages_stream::head(&space.path().display().to_string(), !nested)
    } else {
        text::pages_header()
    });
    let log = PageList::stream(space, filter, &mut |r| {
        let named;
        let r = match r.index_id.and_then(|id| names.get(id)) {
            Some(n) => {
                named = PageRow {
                    index_name: Some(n.to_string()),
                    ..r.clone()
                };
                &named
            }
            None => r,
        };
        put(&if json {
            pages_stream::row(r, rows == 0)
        } else {
            text::page_row(r)
        });
        rows += 1;
    });
    let total = log.total();
    let (findings, by_kind) = innodb_analysis::reports::page_list::findings_parts(log);
    put(&if json {
        pages_stream::tail(&findings, &by_kind, rows > 0)
    } else {
        text::pages_footer(&findings, total)
    });
    rows
}

/// `pages FILE`: the listing of one file.
fn single(inputs: &Inputs, space: &Tablespace, filter: &PageFilter, out: &mut Output) {
    let names = inputs.index_names(space).unwrap_or_default();
    let json = inputs.format == Format::Json;
    let mut out = out.writer(if json { Kind::Json } else { Kind::Text });
    stream(
        &mut out,
        space,
        filter,
        json,
        &names,
        &|s| s.to_string(),
        false,
    );
}

/// `--datadir DIR pages`: every tablespace's listing, one file after the
/// other in directory order (one file's pages in flight at a time), under
/// a heading (text) or as the `files` of one JSON object. A file that
/// cannot be opened gets its error in its place; a `--range` past a file's
/// end lists none of its pages. Exit 1 when a file could not be read.
fn datadir(inputs: &Inputs, filter: &PageFilter, out: &mut Output) -> Result<u8, CliError> {
    let dir = inputs.datadir("pages")?;
    let files = dir.tablespace_paths();
    if files.is_empty() {
        return Err(CliError::file(
            &dir.root,
            "no tablespace files (ibdata*, undo*, */*.ibd)",
        ));
    }
    let datadir = dir.root.display().to_string();
    let json = inputs.format == Format::Json;
    let mut out = out.writer(if json { Kind::Json } else { Kind::Text });
    let put = |out: &mut dyn Write, s: &str| {
        // A closed pipe (`| head`) is not an error worth reporting.
        let _ = out.write_all(s.as_bytes());
    };
    put(
        &mut out,
        &if json {
            dd::head(&datadir, &dir.server, &dir.skipped)
        } else {
            datadir_text::title(&datadir, &dir.server, &dir.skipped)
        },
    );
    let mut totals = PagesTotals::default();
    for (i, path) in files.iter().enumerate() {
        let file = path.display().to_string();
        let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let first = i == 0;
        totals.files += 1;
        if !json {
            put(&mut out, &datadir_text::heading(&datadir, &file));
        }
        match Tablespace::open(path, inputs.options.clone()) {
            Ok(space) => {
                let names = inputs.index_names(&space).unwrap_or_default();
                if json {
                    put(&mut out, &dd::file_open(first, &file, bytes));
                    totals.pages +=
                        stream(&mut out, &space, filter, true, &names, &dd::nested, true);
                    put(&mut out, dd::file_close());
                } else {
                    totals.pages += stream(
                        &mut out,
                        &space,
                        filter,
                        false,
                        &names,
                        &|s| s.to_string(),
                        true,
                    );
                }
            }
            Err(e) => {
                totals.errors += 1;
                let error = e.to_string();
                if json {
                    let entry: FileResult<()> = FileResult {
                        file,
                        bytes,
                        report: None,
                        error: Some(error),
                        note: None,
                    };
                    put(&mut out, &dd::entry(first, &entry));
                } else {
                    put(&mut out, &datadir_text::no_report(&error));
                }
            }
        }
    }
    put(
        &mut out,
        &if json {
            dd::tail(&totals, !files.is_empty())
        } else {
            datadir_text::pages_footer(&totals)
        },
    );
    Ok(u8::from(totals.errors > 0))
}

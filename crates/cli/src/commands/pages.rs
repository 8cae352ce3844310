//! `pages`: the page listing, streamed row by row so that memory does not
//! grow with the file; over a data directory, file after file in directory
//! order, each streamed the same way.

use crate::{Cli, CliError, Format};
use innodb_analysis::reports::datadir_report::{tablespaces, FileResult};
use innodb_analysis::reports::datadir_totals::PagesTotals;
use innodb_analysis::{PageFilter, PageList};
use innodb_render::json::{datadir_pages_stream as dd, pages_stream};
use innodb_render::{datadir_text, text};
use innodb_space::{OpenOptions, Tablespace};
use std::io::Write;

/// Writes `space`'s listing to `out`, each piece passed through `wrap`
/// (the data-directory form nests it); returns the rows written.
fn stream(
    out: &mut dyn Write,
    space: &Tablespace,
    filter: &PageFilter,
    json: bool,
    wrap: &dyn Fn(&str) -> String,
) -> u64 {
    let mut rows = 0u64;
    // A closed pipe (`| head`) is not an error worth reporting.
    let mut put = |s: &str| {
        let _ = out.write_all(wrap(s).as_bytes());
    };
    put(&if json {
        pages_stream::head(&space.path().display().to_string())
    } else {
        text::pages_header()
    });
    let log = PageList::stream(space, filter, &mut |r| {
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

/// Writes `s` (a closed pipe, `| head`, is not an error worth reporting).
fn put(out: &mut dyn Write, s: &str) {
    let _ = out.write_all(s.as_bytes());
}

/// `pages FILE`: the listing of one file.
pub fn single(cli: &Cli, space: &Tablespace, filter: &PageFilter) {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    stream(&mut out, space, filter, cli.format == Format::Json, &|s| {
        s.to_string()
    });
    let _ = out.flush();
}

/// `--datadir DIR pages`: every tablespace's listing, one file after the
/// other in directory order (one file's pages in flight at a time), under
/// a heading (text) or as the `files` of one JSON object. A file that
/// cannot be opened gets its error in its place; a `--range` past a file's
/// end lists none of its pages. Exit 1 when a file could not be read.
pub fn datadir(cli: &Cli, options: OpenOptions, filter: &PageFilter) -> Result<u8, CliError> {
    let Some(dir) = &cli.datadir else {
        return Err(CliError::Usage(
            "pages needs a FILE, or --datadir DIR for every tablespace of a data directory".into(),
        ));
    };
    let files = tablespaces(dir);
    if files.is_empty() {
        return Err(CliError::Usage(format!(
            "{}: no tablespace files (ibdata*, undo*, */*.ibd)",
            dir.display()
        )));
    }
    let datadir = dir.display().to_string();
    let json = cli.format == Format::Json;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    put(
        &mut out,
        &if json {
            dd::head(&datadir)
        } else {
            datadir_text::title(&datadir)
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
        match Tablespace::open(path, options) {
            Ok(space) => {
                if json {
                    put(&mut out, &dd::file_open(first, &file, bytes));
                    totals.pages += stream(&mut out, &space, filter, true, &dd::nested);
                    put(&mut out, dd::file_close());
                } else {
                    totals.pages += stream(&mut out, &space, filter, false, &|s| s.to_string());
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
    let _ = out.flush();
    Ok(crate::datadir::status(totals.errors))
}

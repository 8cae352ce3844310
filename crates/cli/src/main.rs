//! `innodb-inspect`: the command line.

mod args;

use args::{Cli, Command, Format};
use clap::Parser;
use innodb_analysis::{ChecksumReport, PageDetail, PageFilter, PageList, Summary};
use innodb_render::{json, text};
use innodb_space::{OpenOptions, SpaceError, Tablespace};
use std::io::Write;
use std::process::ExitCode;

/// Exit code when a command could not do its work at all.
const EXIT_FATAL: u8 = 2;
/// Exit code of `checksum` when some page does not verify.
const EXIT_BAD_PAGES: u8 = 1;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("innodb-inspect: error: {e}");
            ExitCode::from(EXIT_FATAL)
        }
    }
}

fn emit(s: &str) {
    // A closed pipe (`| head`) is not an error worth reporting.
    let _ = std::io::stdout().lock().write_all(s.as_bytes());
}

fn run(cli: &Cli) -> Result<u8, SpaceError> {
    let options = OpenOptions {
        page_size: cli.page_size.map(|s| s.0),
    };
    let open = |path: &std::path::Path| Tablespace::open(path, options);
    match &cli.command {
        Command::Summary { file } => {
            let s = Summary::build(&open(file)?);
            emit(&match cli.format {
                Format::Text => text::summary(&s),
                Format::Json => json::render(&s),
            });
            Ok(0)
        }
        Command::Pages {
            file,
            page_type,
            range,
        } => {
            let filter = PageFilter {
                page_type: page_type.clone(),
                range: range.map(|r| (r.0, r.1)),
            };
            let list = PageList::build(&open(file)?, &filter);
            emit(&match cli.format {
                Format::Text => text::pages(&list),
                Format::Json => json::render(&list),
            });
            Ok(0)
        }
        Command::Page { file, page } => {
            let d = PageDetail::build(&open(file)?, *page)?;
            emit(&match cli.format {
                Format::Text => text::page(&d),
                Format::Json => json::render(&d),
            });
            Ok(0)
        }
        Command::Checksum { files } => {
            let mut reports = Vec::with_capacity(files.len());
            let mut fatal = false;
            for f in files {
                match open(f) {
                    Ok(space) => reports.push(ChecksumReport::build(&space)),
                    Err(e) => {
                        eprintln!("innodb-inspect: error: {e}");
                        fatal = true;
                    }
                }
            }
            emit(&match cli.format {
                Format::Text => text::checksums(&reports),
                Format::Json => json::render(&reports),
            });
            Ok(if fatal {
                EXIT_FATAL
            } else if reports.iter().all(ChecksumReport::all_valid) {
                0
            } else {
                EXIT_BAD_PAGES
            })
        }
    }
}

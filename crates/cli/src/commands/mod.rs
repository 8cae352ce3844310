//! The commands, one module each: a function over the resolved [`Inputs`]
//! and the command's own arguments that writes its report to an
//! [`Output`] and returns the exit status.

pub mod browse;
pub mod carve;
pub mod carve_mysql;
pub mod checksum;
pub mod columns;
pub mod count;
pub mod doublewrite;
pub mod export;
pub mod extents;
pub mod fill;
pub mod heatmap;
pub mod history;
pub mod indexes;
pub mod page;
pub mod pages;
pub mod plot;
pub mod records;
pub mod records_scan;
pub mod records_sql;
pub mod records_trx;
pub mod schema;
pub mod sdi;
pub mod segments;
pub mod setup;
pub mod summary;
pub mod tree;
pub mod undo;
pub mod waste;

use crate::args::{Command, Format};
use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::reports::naming::{name_indexes, IndexRows};
use innodb_analysis::reports::ownership::NoSpaceMap;
use innodb_space::Tablespace;

/// Runs `command`; returns the exit status. What reading the dictionary
/// had to say follows on stderr.
pub fn run(inputs: &Inputs, command: &Command, out: &mut Output) -> Result<u8, CliError> {
    let result = dispatch(inputs, command, out);
    for line in inputs.dictionary_notes() {
        out.say(&line);
    }
    result
}

/// Runs `command`.
/// What `records` and `export` are asked of transactions.
fn trx_args(
    committed: bool,
    as_of_trx: Option<u64>,
    undo: &[std::path::PathBuf],
) -> records_trx::TrxArgs<'_> {
    records_trx::TrxArgs {
        committed,
        as_of_trx,
        undo,
    }
}

/// An error when `--format` names a format `command` does not write.
fn check_format(inputs: &Inputs, command: &Command) -> Result<(), CliError> {
    if inputs.format == Format::Csv && !matches!(command, Command::Records { .. }) {
        return Err(CliError::Usage(
            "--format csv is for records; the other reports are text or json".into(),
        ));
    }
    if inputs.format == Format::Sql
        && !matches!(command, Command::Records { .. } | Command::Schema { .. })
    {
        return Err(CliError::Usage(
            "--format sql is for records and schema (export always writes SQL); the other reports are text or json".into(),
        ));
    }
    Ok(())
}

fn dispatch(inputs: &Inputs, command: &Command, out: &mut Output) -> Result<u8, CliError> {
    check_format(inputs, command)?;
    match command {
        Command::Summary { file } => summary::run(inputs, file.as_deref(), out),
        Command::Pages {
            file,
            page_type,
            range,
        } => pages::run(inputs, file.as_deref(), page_type.as_deref(), *range, out),
        Command::Page { file, page } => page::run(inputs, file, *page, out),
        Command::Extents { file, color } => extents::run(inputs, file.as_deref(), *color, out),
        Command::Segments { file } => segments::run(inputs, file.as_deref(), out),
        Command::Waste { file } => waste::run(inputs, file.as_deref(), out),
        Command::Heatmap {
            file,
            by,
            lsn_scale,
            png,
            color,
        } => heatmap::run(
            inputs,
            file.as_deref(),
            heatmap::Colouring::of(*by, *lsn_scale),
            png.as_deref(),
            *color,
            out,
        ),
        Command::Browse { path } => browse::run(inputs, path),
        Command::Plot { files, undo, .. } => plot::run(
            inputs,
            &with_undo(inputs, files, undo),
            &plot::Choice::of(command)?,
            out,
        ),
        Command::Indexes { file } => indexes::run(inputs, file.as_deref(), out),
        Command::Tree { file, index, level } => tree::run(inputs, file, index, *level, out),
        Command::Fill { file } => fill::run(inputs, file.as_deref(), out),
        Command::Undo {
            files,
            compare,
            records,
            undo,
        } => undo::run(
            inputs,
            &with_undo(inputs, files, undo),
            compare.as_deref(),
            *records,
            out,
        ),
        Command::History {
            file,
            key,
            undo,
            ddl,
        } => history::run(inputs, file, key, undo, ddl.as_deref(), out),
        Command::Sdi { file } => sdi::run(inputs, file.as_deref(), out),
        Command::Count {
            file,
            sample_pages,
            seed,
        } => count::run(inputs, file.as_deref(), *sample_pages, *seed, out),
        Command::Records { .. } => records_command(inputs, command, out),
        Command::Schema { file, table, ddl } => {
            schema::run(inputs, file, table.as_deref(), ddl.as_deref(), out)
        }
        Command::Export {
            out: dir,
            deleted,
            committed,
            as_of_trx,
        } => {
            let trx = trx_args(*committed, *as_of_trx, &[]);
            let args = export::ExportArgs {
                dir,
                deleted: *deleted,
                trx,
            };
            export::run(inputs, &args, out)
        }
        Command::Checksum { files } => checksum::run(inputs, files, out),
        Command::Doublewrite { files, all } => doublewrite::run(inputs, files, *all, out),
        Command::Carve {
            inputs: files,
            out: dir,
        } => carve::run(inputs, files, dir.as_deref(), out),
        Command::Completions { shell } => setup::completions(*shell, out),
        Command::Man { command } => setup::man(command.as_deref(), out),
        Command::JsonSchema { command, write } => {
            setup::json_schema(command.as_deref(), write.as_deref(), out)
        }
    }
}

/// `records`, its arguments gathered.
fn records_command(inputs: &Inputs, command: &Command, out: &mut Output) -> Result<u8, CliError> {
    let Command::Records {
        file,
        table,
        index,
        deleted,
        limit,
        ddl,
        committed,
        as_of_trx,
        undo,
        scan,
        index_id,
    } = command
    else {
        return Err(CliError::Usage("not the records command".into()));
    };
    let args = records::Args {
        table: table.as_deref(),
        index: index.as_deref(),
        deleted: *deleted,
        limit: *limit,
        ddl: ddl.as_deref(),
        trx: trx_args(*committed, *as_of_trx, undo),
    };
    match index_id.filter(|_| *scan) {
        Some(id) => records_scan::run(inputs, file, &args, id, out),
        None => records::run(inputs, file, &args, out),
    }
}

/// The files of `undo` and `plot --undo-growth`: those given, then the
/// undo tablespaces of `--undo`, after `--system` when no file is given
/// (`undo --system ibdata1 --undo undo_001`, the way `history` and
/// `records` take them).
fn with_undo(
    inputs: &Inputs,
    files: &[std::path::PathBuf],
    undo: &[std::path::PathBuf],
) -> Vec<std::path::PathBuf> {
    let mut all = files.to_vec();
    if !undo.is_empty() {
        if all.is_empty() {
            all.extend(inputs.system.clone());
        }
        all.extend(undo.iter().cloned());
    }
    all
}

/// `report` of `space`, or why there is none (page 0 unusable), its
/// indexes named from the dictionary that describes the file (see
/// [`Inputs::index_names`]).
pub fn named<R: IndexRows>(
    inputs: &Inputs,
    space: &Tablespace,
    report: Result<R, NoSpaceMap>,
) -> Result<R, CliError> {
    let names = inputs.index_names(space)?;
    let mut r = report.map_err(|_| CliError::NoSpaceMap(space.path().into()))?;
    name_indexes(&mut r, &names);
    Ok(r)
}

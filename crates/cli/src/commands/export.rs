//! `--datadir DIR export OUT`: every table of the data directory as SQL a
//! server loads back, one file per table (`OUT/db/table.sql`), written
//! as `records --format sql` writes one. A table that cannot be read is
//! listed with why, and the others are still written; a summary follows.
//! The undo logs are read once: rows of transactions in flight are
//! counted, or rolled back (`--committed`), or a read view is rebuilt
//! (`--as-of-trx N`), for every table.

use crate::commands::columns::{schema_of, Which};
use crate::commands::records_sql::{write, SqlOptions, Written};
use crate::commands::records_trx::{self, TrxArgs, Undo};
use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::rows::row_recovery::View;
use innodb_space::datadir::{DataDirFile, FileKind};
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Databases of the server's own tables, not exported.
const SERVER_DATABASES: [&str; 3] = ["mysql", "sys", "performance_schema"];

/// One table's outcome.
struct Outcome {
    table: String,
    result: Result<(PathBuf, Written), String>,
}

/// The tables of the tablespace `f`: `(db/table, file name)`, by the
/// dictionary that describes it.
fn tables_of(inputs: &Inputs, f: &DataDirFile) -> Result<Vec<String>, String> {
    let space = inputs.open(&f.path).map_err(|e| e.to_string())?;
    let dict = inputs.dictionary_for(&space).map_err(|e| e.to_string())?;
    let names: Vec<String> = dict
        .tables_in(space.space_id())
        .map(|t| t.name.clone())
        .collect();
    if names.is_empty() {
        // Without a dictionary entry, `records` finds the columns (or says
        // why it cannot) from the file alone.
        return Ok(vec![String::new()]);
    }
    Ok(names)
}

/// Writes the table `table` (empty: the file's only one) of the tablespace
/// at `path` into `dir/<db>/<table>.sql`.
fn export_table(
    inputs: &Inputs,
    path: &Path,
    table: &str,
    dir: &Path,
    options: SqlOptions,
    undo: Option<&mut Undo>,
    notes: &mut Vec<u8>,
) -> Result<(PathBuf, Written), String> {
    let partition = options.if_not_exists;
    let space = inputs.open(path).map_err(|e| e.to_string())?;
    let mut sink = std::io::sink();
    let mut err = Vec::new();
    let mut quiet = Output::new(&mut sink, &mut err, false);
    let which = Which {
        table: (!table.is_empty()).then_some(table),
        index: None,
    };
    let (schema, _) =
        schema_of(inputs, &space, None, &which, &mut quiet).map_err(|e| e.to_string())?;
    let (db, name) = match schema.table.split_once('/') {
        Some((d, t)) => (d.to_string(), t.to_string()),
        None => ("unknown".to_string(), schema.table.clone()),
    };
    let name = name.split("#p#").next().unwrap_or(&name).to_string();
    let name = name.split("#P#").next().unwrap_or(&name).to_string();
    let file_name = path_name(path, partition, &name);
    let target = dir.join(&db).join(format!("{file_name}.sql"));
    std::fs::create_dir_all(dir.join(&db)).map_err(|e| format!("{}: {e}", dir.display()))?;
    let file = File::create(&target).map_err(|e| format!("{}: {e}", target.display()))?;
    let mut w = BufWriter::new(file);
    let mut out = Output::new(&mut w, notes, false);
    let undo = undo.map(|u| {
        u.set_table(&schema.table);
        &*u
    });
    let written = write(&space, &schema, options, undo, &mut out).map_err(|e| e.to_string())?;
    out.finish()
        .map_err(|e| format!("{}: {e}", target.display()))?;
    drop(out);
    w.flush()
        .map_err(|e| format!("{}: {e}", target.display()))?;
    Ok((target, written))
}

/// The file name a table is written under: the table's, a partition's
/// own file name (each partition a file, loading into one table).
fn path_name(path: &Path, partition: bool, table: &str) -> String {
    if !partition {
        return table.to_string();
    }
    let stem = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    stem.trim_end_matches(".gz")
        .trim_end_matches(".ibd")
        .replace('#', "_")
}

/// What `export` was asked.
pub struct ExportArgs<'a> {
    /// The directory written into.
    pub dir: &'a Path,
    /// `--deleted`.
    pub deleted: bool,
    /// `--committed`, `--as-of-trx`.
    pub trx: TrxArgs<'a>,
}

/// The undo logs of the data directory: an error when the view asked for
/// needs them; as stored, a warning when they cannot be read (rows of
/// transactions in flight are then not counted).
fn undo_logs(inputs: &Inputs, trx: &TrxArgs, out: &mut Output) -> Result<Option<Undo>, CliError> {
    let view = trx.view();
    match records_trx::read_undo(inputs, trx, "") {
        Ok(u) => {
            if let Some(u) = &u {
                records_trx::check_view(u, view, out);
            }
            Ok(u)
        }
        Err(e) if view == View::Stored => {
            out.say(&format!("warning: the undo logs cannot be read ({e}): the rows are written as stored, and rows of a transaction in flight are not told apart"));
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// `export OUT`: with `--datadir`, every table's SQL into `OUT`. Exit 1
/// when a table could not be exported or its schema does not fit.
pub fn run(inputs: &Inputs, args: &ExportArgs, out: &mut Output) -> Result<u8, CliError> {
    let dir = args.dir;
    let datadir = inputs.datadir("export")?;
    inputs.check_output(Some(dir))?;
    let mut undo = undo_logs(inputs, &args.trx, out)?;
    std::fs::create_dir_all(dir).map_err(|e| CliError::file(dir, e.to_string()))?;
    let files: Vec<&DataDirFile> = datadir
        .tablespaces()
        .filter(|f| {
            matches!(
                f.kind,
                FileKind::Table | FileKind::GeneralTablespace | FileKind::Partition
            )
        })
        .collect();
    let started = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let mut outcomes = Vec::new();
    let mut skipped = Vec::new();
    for (n, f) in files.iter().enumerate() {
        if f.database
            .as_deref()
            .is_some_and(|d| SERVER_DATABASES.contains(&d))
        {
            skipped.push(f.relative.clone());
            continue;
        }
        if tty {
            eprint!("\rexport: {}/{} {}\x1b[K", n + 1, files.len(), f.relative);
        }
        let options = SqlOptions {
            deleted: args.deleted,
            limit: None,
            if_not_exists: f.kind == FileKind::Partition,
            view: args.trx.view(),
        };
        outcomes.extend(export_file(inputs, f, dir, options, undo.as_mut(), out));
    }
    if tty {
        eprint!("\r\x1b[K");
    }
    let text = summary(&outcomes, &skipped, started.elapsed().as_secs_f64());
    out.emit_as(crate::output::Kind::Text, &text);
    // A table whose schema does not fit its records is written, but its
    // values are not to be trusted: that is no success either.
    let failed = |o: &Outcome| o.result.as_ref().map_or(true, |(_, w)| !w.fits);
    Ok(u8::from(outcomes.iter().any(failed)))
}

/// Every table of the file `f` exported; what each came to.
fn export_file(
    inputs: &Inputs,
    f: &DataDirFile,
    dir: &Path,
    options: SqlOptions,
    mut undo: Option<&mut Undo>,
    out: &mut Output,
) -> Vec<Outcome> {
    let tables = match tables_of(inputs, f) {
        Ok(t) => t,
        Err(e) => {
            return vec![Outcome {
                table: f.relative.clone(),
                result: Err(e),
            }]
        }
    };
    tables
        .into_iter()
        .map(|t| {
            let mut notes = Vec::new();
            let result = export_table(
                inputs,
                &f.path,
                &t,
                dir,
                options,
                undo.as_deref_mut(),
                &mut notes,
            );
            for line in String::from_utf8_lossy(&notes).lines() {
                out.say(line);
            }
            Outcome {
                table: if t.is_empty() { f.relative.clone() } else { t },
                result,
            }
        })
        .collect()
}

/// The summary: a line per table, then the totals.
fn summary(outcomes: &[Outcome], skipped: &[String], seconds: f64) -> String {
    let mut s = String::new();
    let (mut tables, mut rows, mut bytes) = (0usize, 0usize, 0u64);
    for o in outcomes {
        match &o.result {
            Ok((path, w)) => {
                tables += 1;
                rows += w.rows;
                let size = std::fs::metadata(path).map_or(0, |m| m.len());
                bytes += size;
                let mut line = format!("{}: {} rows -> {}", o.table, w.rows, path.display());
                if w.undecoded > 0 {
                    line.push_str(&format!(
                        " ({} values unreadable, written as NULL)",
                        w.undecoded
                    ));
                }
                if !w.fits {
                    line.push_str(
                        " (the schema does not fit the records: values not to be trusted)",
                    );
                }
                if w.uncommitted > 0 {
                    line.push_str(&format!(
                        " ({} rows as a transaction in flight left them, uncommitted)",
                        w.uncommitted
                    ));
                }
                if w.unrecoverable > 0 {
                    line.push_str(&format!(
                        " ({} rows cannot be rebuilt from the undo logs: left out)",
                        w.unrecoverable
                    ));
                }
                s.push_str(&line);
                s.push('\n');
            }
            Err(e) => s.push_str(&format!("{}: not exported: {e}\n", o.table)),
        }
    }
    for f in skipped {
        s.push_str(&format!("{f}: not exported: a table of the server's own\n"));
    }
    let failed = outcomes.len() - tables;
    s.push_str(&format!(
        "{tables} tables exported ({rows} rows, {:.1} MiB of SQL) in {seconds:.1} s; {failed} could not be read; {} of the server's own skipped\n",
        bytes as f64 / 1_048_576.0,
        skipped.len()
    ));
    s
}

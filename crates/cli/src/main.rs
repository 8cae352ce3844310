//! `innodb-inspect`: the command line.

mod args;
mod datadir;
mod datadir_pictures;
mod pages;
mod pictures;
mod progress;

use args::{Cli, ColorChoice, Command, Format};
use clap::Parser;
use innodb_analysis::reports::count_report::CountReport;
use innodb_analysis::reports::datadir_report::{
    ChecksumTotals, FileTotals, IndexesTotals, SummaryTotals, WasteTotals,
};
use innodb_analysis::reports::indexes::{IndexAnalysis, IndexesReport};
use innodb_analysis::reports::naming::index_name;
use innodb_analysis::reports::ownership::{NoSpaceMap, SpaceAccount};
use innodb_analysis::reports::sdi_report::{NoSdi, SdiReport};
use innodb_analysis::reports::space_reports::{ExtentsReport, SegmentsReport, WasteReport};
use innodb_analysis::reports::tree_report::{NoTree, TreeReport};
use innodb_analysis::reports::undo_report::{UndoComparison, UndoReport, UndoSide};
use innodb_analysis::rows::ddl::{schema_from_ddl, with_old_temporal};
use innodb_analysis::rows::records::{NoRecords, RecordsReport, Schema};
use innodb_analysis::rows::row_history::{NoHistory, RowHistory};
use innodb_analysis::{ChecksumReport, PageDetail, PageFilter, Summary};
use innodb_format::fil::page_type::PageType;
use innodb_render::{datadir_text, json, space_text, text, OutputFormat};
use innodb_space::dictionary::Dictionary;
use innodb_space::{OpenOptions, SpaceError, Tablespace};
use std::io::IsTerminal;
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

/// Prints `report` as text (made by `text`) or as JSON.
fn emit_report<R: innodb_render::Serialize + ?Sized>(
    format: Format,
    report: &R,
    text: impl FnOnce(&R) -> String,
) {
    let format = match format {
        Format::Text | Format::Csv => OutputFormat::Text,
        Format::Json => OutputFormat::Json,
    };
    emit(&innodb_render::render(format, report, text));
}

fn emit(s: &str) {
    // A closed pipe (`| head`) is not an error worth reporting.
    let _ = std::io::stdout().lock().write_all(s.as_bytes());
}

/// Whether to colour terminal output.
fn colour_on(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    }
}

/// Why a command could not do its work.
#[derive(Debug)]
enum CliError {
    /// The file could not be read as a tablespace.
    Space(SpaceError),
    /// The arguments do not fit the file.
    Usage(String),
}

impl From<SpaceError> for CliError {
    fn from(e: SpaceError) -> Self {
        CliError::Space(e)
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Space(e) => e.fmt(f),
            CliError::Usage(m) => f.write_str(m),
        }
    }
}

/// The dictionary of `--system`, or of the `--datadir`'s system tablespace.
fn dictionary(cli: &Cli, options: OpenOptions) -> Result<Option<Dictionary>, CliError> {
    if let Some(path) = &cli.system {
        let space = Tablespace::open(path, options)?;
        return Dictionary::read(&space).map(Some).map_err(CliError::Usage);
    }
    let Some(dir) = &cli.datadir else {
        return Ok(None);
    };
    let Some(path) = ["ibdata1", "ibdata1.gz"]
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.exists())
    else {
        return Err(CliError::Usage(format!(
            "{}: no ibdata1 in the data directory",
            dir.display()
        )));
    };
    let space = Tablespace::open(&path, options)?;
    match Dictionary::read(&space) {
        Ok(d) => Ok(Some(d)),
        // MySQL 8.0+ keeps its dictionary in mysql.ibd and each file's SDI,
        // which the commands read by themselves.
        Err(_) if space.format().vendor == innodb_format::vendor::Vendor::MySql => Ok(None),
        Err(e) => Err(CliError::Usage(format!("{}: {e}", path.display()))),
    }
}

/// The index roots a `CREATE TABLE` statement is laid over: those the FSP
/// header and INODE pages name, else (page 0 lost, say) those the index
/// pages tell when read one by one, with a note saying so.
fn ddl_roots(space: &Tablespace) -> Result<Vec<(u64, u32)>, CliError> {
    let from_map = innodb_space::space_map::SpaceMap::read(space).map(|m| m.index_roots());
    if let Ok(roots) = &from_map {
        if !roots.is_empty() {
            return Ok(roots.clone());
        }
    }
    let scanned = innodb_space::index_roots::index_roots_by_scan(space);
    if scanned.is_empty() {
        return Err(match from_map {
            Err(e) => no_map(space, e),
            Ok(_) => CliError::Usage(format!(
                "{}: no index page in the file: there is no index to read",
                space.path().display()
            )),
        });
    }
    let why = match from_map {
        Err(_) => "page 0 is unusable",
        Ok(_) => "the FSP header and INODE pages name no index root",
    };
    let list: Vec<String> = scanned
        .iter()
        .map(|(id, root)| format!("index {id} at page {root}"))
        .collect();
    eprintln!(
        "innodb-inspect: note: {}: {why}; roots found by reading the index pages: {}",
        space.path().display(),
        list.join(", ")
    );
    Ok(scanned)
}

/// The table's columns: from `--ddl`, else the dictionary of `--system`,
/// else the file's own SDI.
fn schema_for(
    space: &Tablespace,
    ddl: Option<&std::path::Path>,
    dict: Option<&Dictionary>,
) -> Result<Schema, CliError> {
    if let Some(path) = ddl {
        let sql = std::fs::read_to_string(path)
            .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
        let roots = ddl_roots(space)?;
        return schema_from_ddl(&sql, &roots)
            .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())));
    }
    match dict {
        Some(d) => Schema::from_dictionary(d, space.space_id()).ok_or_else(|| {
            CliError::Usage(format!(
                "{}: the dictionary of --system has no table in tablespace {}",
                space.path().display(),
                space.space_id()
            ))
        }),
        None => SdiReport::build(space)
            .ok()
            .and_then(|s| Schema::from_sdi(&s))
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "{}: the table's columns are needed: this file has no SDI (MySQL 8.0+); give --system ibdata1 or --datadir of the same server (MariaDB, MySQL 5.x), or --ddl",
                    space.path().display()
                ))
            }),
    }
}

/// A data directory's system tablespace and undo tablespaces (MariaDB
/// `undo001`…, MySQL `undo_001`…, also gzipped), in that order.
fn datadir_undo_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out: Vec<std::path::PathBuf> = ["ibdata1", "ibdata1.gz"]
        .iter()
        .map(|n| dir.join(n))
        .filter(|p| p.exists())
        .take(1)
        .collect();
    let mut undo: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("undo"))
                })
                .collect()
        })
        .unwrap_or_default();
    undo.sort();
    out.extend(undo);
    out
}

/// `file` as given, or, when it does not exist, inside `--datadir` (also
/// with `.ibd` and `.gz` added).
fn locate(cli: &Cli, file: &std::path::Path) -> std::path::PathBuf {
    if file.exists() {
        return file.to_path_buf();
    }
    let Some(dir) = &cli.datadir else {
        return file.to_path_buf();
    };
    let base = dir.join(file);
    let with = |ext: &str| {
        let mut s = base.clone().into_os_string();
        s.push(ext);
        std::path::PathBuf::from(s)
    };
    [base.clone(), with(".gz"), with(".ibd"), with(".ibd.gz")]
        .into_iter()
        .find(|p| p.exists())
        .unwrap_or_else(|| file.to_path_buf())
}

/// `db/table.index` for every index row, from the dictionary.
fn name_indexes<'a>(
    dict: &Option<Dictionary>,
    space_id: u32,
    rows: impl Iterator<Item = (u64, &'a mut Option<String>)>,
) {
    if let Some(d) = dict {
        for (id, name) in rows {
            *name = index_name(d, space_id, id);
        }
    }
}

/// The system tablespace and undo tablespaces named by `files` (the
/// system tablespace first), or those of `--datadir`.
fn undo_spaces(
    cli: &Cli,
    files: &[std::path::PathBuf],
    options: OpenOptions,
    command: &str,
) -> Result<(Tablespace, Vec<Tablespace>), CliError> {
    let mut paths: Vec<std::path::PathBuf> = files.iter().map(|f| locate(cli, f)).collect();
    if let Some(dir) = &cli.datadir {
        if paths.is_empty() {
            paths = datadir_undo_files(dir);
        }
    }
    let Some((system_path, undo_paths)) = paths.split_first() else {
        return Err(CliError::Usage(format!(
            "{command} needs the system tablespace (ibdata1), and any undo tablespaces, or --datadir"
        )));
    };
    let system = Tablespace::open(system_path, options)?;
    let undo: Vec<Tablespace> = undo_paths
        .iter()
        .map(|p| Tablespace::open(p, options))
        .collect::<Result<_, _>>()?;
    Ok((system, undo))
}

/// Why a report needs page 0, in a data directory's per-file line.
fn no_map_text(_: NoSpaceMap) -> String {
    "page 0 is unusable: no space map".into()
}

/// `segments` of one file, its indexes named from the dictionary.
fn segments_report(
    space: &Tablespace,
    dict: &Option<Dictionary>,
) -> Result<SegmentsReport, NoSpaceMap> {
    let mut r = SegmentsReport::new(space, &SpaceAccount::build(space)?);
    let rows = r.indexes.iter_mut().map(|i| (i.index_id, &mut i.name));
    name_indexes(dict, space.space_id(), rows);
    Ok(r)
}

/// `waste` of one file, its indexes named from the dictionary.
fn waste_report(space: &Tablespace, dict: &Option<Dictionary>) -> Result<WasteReport, NoSpaceMap> {
    let mut r = WasteReport::new(space, &SpaceAccount::build(space)?);
    let rows = r.indexes.iter_mut().map(|i| (i.index_id, &mut i.name));
    name_indexes(dict, space.space_id(), rows);
    Ok(r)
}

/// `indexes` (and `fill`) of one file, its indexes named from the dictionary.
fn indexes_report(
    space: &Tablespace,
    dict: &Option<Dictionary>,
) -> Result<IndexesReport, NoSpaceMap> {
    let mut r = IndexesReport::new(space, &IndexAnalysis::build(space)?);
    let rows = r.indexes.iter_mut().map(|i| (i.index_id, &mut i.name));
    name_indexes(dict, space.space_id(), rows);
    Ok(r)
}

/// `count` of one file, its indexes named from the dictionary.
fn count_report(
    space: &Tablespace,
    dict: &Option<Dictionary>,
    sample_pages: usize,
    seed: u64,
) -> Result<CountReport, NoSpaceMap> {
    let mut r = CountReport::build(space, sample_pages, seed)?;
    let rows = r.indexes.iter_mut().map(|i| (i.index_id, &mut i.name));
    name_indexes(dict, space.space_id(), rows);
    Ok(r)
}

/// The space map with every page accounted for, or why there is none.
fn account(space: &Tablespace) -> Result<SpaceAccount, CliError> {
    SpaceAccount::build(space).map_err(|e| no_map(space, e))
}

/// Why a report that needs the space map cannot be made.
fn no_map(space: &Tablespace, e: NoSpaceMap) -> CliError {
    match e {
        NoSpaceMap::NoFspHeader => CliError::Usage(format!(
            "{}: page 0 is unusable, so there is no FSP header to read extents, segments and index roots from (summary, pages and checksum still work)",
            space.path().display()
        )),
    }
}

fn run(cli: &Cli) -> Result<u8, CliError> {
    let options = OpenOptions {
        page_size: cli.page_size.map(|s| s.0),
    };
    // A bar on stderr for scans over a second (not under the browser, which
    // owns the terminal).
    let progress =
        progress::Progress::start(cli.quiet || matches!(cli.command, Command::Browse { .. }));
    let open = |path: &std::path::Path| {
        Tablespace::open(locate(cli, path), options).map(|mut s| {
            progress.attach(&mut s);
            s
        })
    };
    let dict = dictionary(cli, options)?;
    if cli.format == Format::Csv && !matches!(cli.command, Command::Records { .. }) {
        return Err(CliError::Usage(
            "--format csv is for records; the other reports are text or json".into(),
        ));
    }
    match &cli.command {
        Command::Summary { file: None } => {
            let r = datadir::over(cli, options, "summary", |space| Ok(Summary::build(space)))?;
            let r = datadir::with_totals(r, SummaryTotals::of);
            emit_report(cli.format, &r, datadir_text::summary);
            Ok(datadir::status(r.totals.errors))
        }
        Command::Summary { file: Some(file) } => {
            let s = Summary::build(&open(file)?);
            emit_report(cli.format, &s, text::summary);
            Ok(0)
        }
        Command::Pages {
            file,
            page_type,
            range,
        } => {
            if let Some(t) = page_type {
                if t.parse::<u16>().is_err() && PageType::from_name(t).is_none() {
                    return Err(CliError::Usage(format!(
                        "--type {t}: no page type has that name (INDEX, UNDO_LOG, INODE, FSP_HDR, XDES, BLOB, SYS, TRX_SYS, ALLOCATED, … or a number)"
                    )));
                }
            }
            let filter = PageFilter {
                page_type: page_type.clone(),
                range: range.map(|r| (r.0, r.1)),
            };
            let Some(file) = file else {
                return pages::datadir(cli, options, &filter);
            };
            let space = open(file)?;
            if let Some(r) = range {
                if r.0 >= space.page_count() {
                    return Err(CliError::Usage(format!(
                        "{}: --range starts at page {} but the file has {} pages",
                        file.display(),
                        r.0,
                        space.page_count()
                    )));
                }
            }
            // Streamed: one row written per page as the scan reaches it, so
            // that memory stays flat however large the file.
            pages::single(cli, &space, &filter);
            Ok(0)
        }
        Command::Page { file, page } => {
            let d = PageDetail::build(&open(file)?, *page)?;
            emit_report(cli.format, &d, text::page);
            Ok(0)
        }
        Command::Extents { file: None, color } => {
            let r = datadir::over(cli, options, "extents", |s| {
                SpaceAccount::build(s)
                    .map(|a| ExtentsReport::new(s, &a))
                    .map_err(no_map_text)
            })?;
            let r = datadir::with_totals(r, FileTotals::of);
            let colour = colour_on(*color);
            emit_report(cli.format, &r, |r| {
                datadir_text::each(r, |e| space_text::extents(e, colour))
            });
            Ok(datadir::status(r.totals.errors))
        }
        Command::Extents {
            file: Some(file),
            color,
        } => {
            let space = open(file)?;
            let account = account(&space)?;
            let r = ExtentsReport::new(&space, &account);
            let colour = colour_on(*color);
            emit_report(cli.format, &r, |r| space_text::extents(r, colour));
            Ok(0)
        }
        Command::Heatmap {
            file: None,
            by,
            png,
            color,
        } => datadir_pictures::heatmap(cli, options, dict.as_ref(), *by, png.as_deref(), *color),
        Command::Heatmap {
            file: Some(file),
            by,
            png,
            color,
        } => {
            let space = open(file)?;
            pictures::heatmap(cli, &space, dict.as_ref(), *by, png.as_deref(), *color)
        }
        Command::Browse { path } => {
            let path = locate(cli, path);
            // A data directory given as the path is also the --datadir.
            let dir = if path.is_dir() {
                Some(path.clone())
            } else {
                cli.datadir.clone()
            };
            let mut ctx = innodb_browse::Context {
                options,
                system: cli.system.clone(),
                undo: Vec::new(),
                dict: dict.map(std::sync::Arc::new),
            };
            if let Some(dir) = &dir {
                let files = datadir_undo_files(dir);
                if let Some((sys, undo)) = files.split_first() {
                    if ctx.system.is_none() {
                        ctx.system = Some(sys.clone());
                    }
                    ctx.undo = undo.to_vec();
                }
                if ctx.dict.is_none() {
                    if let Some(sys) = &ctx.system {
                        ctx.dict = Tablespace::open(sys, options)
                            .ok()
                            .and_then(|s| Dictionary::read(&s).ok())
                            .map(std::sync::Arc::new);
                    }
                }
            }
            if !std::io::stdout().is_terminal() {
                return Err(CliError::Usage(
                    "browse needs a terminal: its output is an interactive screen".into(),
                ));
            }
            let app = innodb_browse::App::open(&path, ctx).map_err(CliError::Usage)?;
            innodb_browse::term::run(app).map_err(|e| CliError::Usage(format!("terminal: {e}")))?;
            Ok(0)
        }
        Command::Plot {
            files,
            what,
            fill_histogram,
            undo_growth,
            levels,
            png,
            color,
        } => {
            let what = pictures::plot_choice(*what, *fill_histogram, *undo_growth, *levels)?;
            pictures::plot(
                cli,
                files,
                options,
                dict.as_ref(),
                what,
                png.as_deref(),
                *color,
            )
        }
        Command::Segments { file: None } => {
            let r = datadir::over(cli, options, "segments", |s| {
                segments_report(s, &dict).map_err(no_map_text)
            })?;
            let r = datadir::with_totals(r, FileTotals::of);
            emit_report(cli.format, &r, |r| {
                datadir_text::each(r, space_text::segments)
            });
            Ok(datadir::status(r.totals.errors))
        }
        Command::Segments { file: Some(file) } => {
            let space = open(file)?;
            let r = segments_report(&space, &dict).map_err(|e| no_map(&space, e))?;
            emit_report(cli.format, &r, space_text::segments);
            Ok(0)
        }
        Command::Waste { file: None } => {
            let r = datadir::over(cli, options, "waste", |s| {
                waste_report(s, &dict).map_err(no_map_text)
            })?;
            let r = datadir::with_totals(r, WasteTotals::of);
            emit_report(cli.format, &r, datadir_text::waste);
            Ok(datadir::status(r.totals.errors))
        }
        Command::Waste { file: Some(file) } => {
            let space = open(file)?;
            let r = waste_report(&space, &dict).map_err(|e| no_map(&space, e))?;
            emit_report(cli.format, &r, space_text::waste);
            Ok(0)
        }
        Command::Indexes { file: None } => {
            let r = datadir::over(cli, options, "indexes", |s| {
                indexes_report(s, &dict).map_err(no_map_text)
            })?;
            let r = datadir::with_totals(r, IndexesTotals::of);
            emit_report(cli.format, &r, datadir_text::indexes);
            Ok(datadir::status(r.totals.errors))
        }
        Command::Indexes { file: Some(file) } => {
            let space = open(file)?;
            let r = indexes_report(&space, &dict).map_err(|e| no_map(&space, e))?;
            emit_report(cli.format, &r, space_text::indexes);
            Ok(0)
        }
        Command::Fill { file: None } => {
            let r = datadir::over(cli, options, "fill", |s| {
                indexes_report(s, &dict).map_err(no_map_text)
            })?;
            let r = datadir::with_totals(r, FileTotals::of);
            emit_report(cli.format, &r, |r| datadir_text::each(r, space_text::fill));
            Ok(datadir::status(r.totals.errors))
        }
        Command::Fill { file: Some(file) } => {
            let space = open(file)?;
            let r = indexes_report(&space, &dict).map_err(|e| no_map(&space, e))?;
            emit_report(cli.format, &r, space_text::fill);
            Ok(0)
        }
        Command::Tree { file, index, level } => {
            let space = open(file)?;
            let r = TreeReport::build(&space, *index, *level).map_err(|e| match e {
                NoTree::NoSpaceMap(e) => no_map(&space, e),
                NoTree::NoSuchIndex(ids) => CliError::Usage(format!(
                    "{}: --index {index}: no index root of that id; the file's indexes are {}",
                    space.path().display(),
                    ids.iter()
                        .map(|i| i.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            })?;
            emit_report(cli.format, &r, space_text::tree);
            Ok(0)
        }
        Command::Undo {
            files,
            compare: Some(dirs),
            ..
        } => {
            let side = |dir: &std::path::PathBuf| -> Result<UndoSide, CliError> {
                let paths = datadir_undo_files(dir);
                let Some((system_path, undo_paths)) = paths.split_first() else {
                    return Err(CliError::Usage(format!(
                        "{}: no ibdata1 in the data directory",
                        dir.display()
                    )));
                };
                let system = Tablespace::open(system_path, options)?;
                let undo: Vec<Tablespace> = undo_paths
                    .iter()
                    .map(|p| Tablespace::open(p, options))
                    .collect::<Result<_, _>>()?;
                let refs: Vec<&Tablespace> = undo.iter().collect();
                let dict = Dictionary::read(&system).ok();
                let r = UndoReport::build(&system, &refs, dict.as_ref());
                Ok(UndoSide::new(&dir.display().to_string(), &r))
            };
            if !files.is_empty() {
                return Err(CliError::Usage(
                    "undo --compare A B takes two data directories, no other files".into(),
                ));
            }
            let (Some(a), Some(b)) = (dirs.first(), dirs.get(1)) else {
                return Err(CliError::Usage(
                    "undo --compare needs two data directories".into(),
                ));
            };
            let c = UndoComparison::new(side(a)?, side(b)?);
            emit_report(cli.format, &c, innodb_render::undo_text::undo_comparison);
            Ok(0)
        }
        Command::Undo {
            files,
            compare: None,
            records,
        } => {
            let (system, undo) = undo_spaces(cli, files, options, "undo")?;
            let undo_refs: Vec<&Tablespace> = undo.iter().collect();
            let dict = dict.or_else(|| Dictionary::read(&system).ok());
            let r =
                UndoReport::build_listing(&system, &undo_refs, dict.as_ref(), records.unwrap_or(0));
            emit_report(cli.format, &r, innodb_render::undo_text::undo);
            Ok(0)
        }
        Command::History {
            file,
            key,
            undo,
            ddl,
        } => {
            let space = open(file)?;
            let schema = schema_for(&space, ddl.as_deref(), dict.as_ref())?;
            let system_path =
                match (&cli.system, &cli.datadir) {
                    (Some(p), _) => p.clone(),
                    (None, Some(dir)) => {
                        datadir_undo_files(dir).into_iter().next().ok_or_else(|| {
                            CliError::Usage(format!(
                                "{}: no ibdata1 in the data directory",
                                dir.display()
                            ))
                        })?
                    }
                    (None, None) => return Err(CliError::Usage(
                        "history needs the system tablespace: --system ibdata1 or --datadir DIR"
                            .into(),
                    )),
                };
            let mut undo_paths: Vec<std::path::PathBuf> =
                undo.iter().map(|f| locate(cli, f)).collect();
            if undo_paths.is_empty() {
                if let Some(dir) = &cli.datadir {
                    undo_paths = datadir_undo_files(dir).into_iter().skip(1).collect();
                }
            }
            let system = Tablespace::open(&system_path, options)?;
            let undo_spaces: Vec<Tablespace> = undo_paths
                .iter()
                .map(|p| Tablespace::open(p, options))
                .collect::<Result<_, _>>()?;
            let refs: Vec<&Tablespace> = undo_spaces.iter().collect();
            let h =
                RowHistory::build(&space, &schema, key, &system, &refs).map_err(|e| match e {
                    NoHistory::NoClusteredIndex => CliError::Usage(format!(
                        "{}: the schema has no clustered index",
                        space.path().display()
                    )),
                    NoHistory::NoSuchKey(k) => CliError::Usage(format!(
                        "{}: no row has the key {k}",
                        space.path().display()
                    )),
                })?;
            emit_report(cli.format, &h, innodb_render::undo_text::history);
            Ok(0)
        }
        Command::Sdi { file: None } => {
            let r = datadir::sdi(cli, options)?;
            emit_report(cli.format, &r, datadir_text::sdi);
            Ok(datadir::status(r.totals.errors))
        }
        Command::Sdi { file: Some(file) } => {
            let space = open(file)?;
            let r = SdiReport::build(&space).map_err(|e| match e {
                NoSdi::NoSpaceMap(e) => no_map(&space, e),
                NoSdi::NoSdiIndex => {
                    CliError::Usage(format!("{}: {}", space.path().display(), datadir::NO_SDI))
                }
            })?;
            emit_report(cli.format, &r, space_text::sdi);
            Ok(0)
        }
        Command::Count {
            file: None,
            sample_pages,
            seed,
        } => {
            let r = datadir::over(cli, options, "count", |s| {
                count_report(s, &dict, *sample_pages, *seed).map_err(no_map_text)
            })?;
            let r = datadir::with_totals(r, FileTotals::of);
            emit_report(cli.format, &r, |r| datadir_text::each(r, space_text::count));
            Ok(datadir::status(r.totals.errors))
        }
        Command::Count {
            file: Some(file),
            sample_pages,
            seed,
        } => {
            let space = open(file)?;
            let r =
                count_report(&space, &dict, *sample_pages, *seed).map_err(|e| no_map(&space, e))?;
            emit_report(cli.format, &r, space_text::count);
            Ok(0)
        }
        Command::Records {
            file,
            index,
            deleted,
            limit,
            ddl,
        } => {
            let space = open(file)?;
            let schema = schema_for(&space, ddl.as_deref(), dict.as_ref())?;
            let build = |schema: &Schema| {
                RecordsReport::build(&space, schema, index.as_deref(), *deleted, *limit).map_err(
                    |e| match e {
                        NoRecords::NoIndex(names) => CliError::Usage(format!(
                            "{}: no such index; the table has {}",
                            space.path().display(),
                            names.join(", ")
                        )),
                    },
                )
            };
            let mut r = build(&schema)?;
            // A CREATE TABLE statement does not say which storage format its
            // temporal columns have: when the newer one does not fit, try the older.
            if let (false, Some(_), Some(old)) = (r.layout.fits(), ddl, with_old_temporal(&schema))
            {
                let r_old = build(&old)?;
                if r_old.layout.fits() {
                    eprintln!("innodb-inspect: note: {}: TIME/DATETIME/TIMESTAMP read in the storage format of MySQL before 5.6.4: the records fit only that one", space.path().display());
                    r = r_old;
                }
            }
            if !r.layout.fits() {
                eprintln!(
                    "innodb-inspect: warning: {}: the schema does not fit the records of index {} ({} of {} neighbouring records meet, {} unreadable): the values shown are not to be trusted",
                    space.path().display(),
                    r.index,
                    r.layout.fitting_pairs,
                    r.layout.pairs,
                    r.layout.unreadable
                );
            }
            emit(&match cli.format {
                Format::Text => text::records(&r),
                Format::Json => json::records_lines(&r),
                Format::Csv => text::records_csv(&r),
            });
            Ok(0)
        }
        Command::Checksum { files, threads } if files.is_empty() => {
            // Files in parallel; each file on one thread unless asked.
            let threads = (*threads).max(1);
            let r = datadir::over(cli, options, "checksum", |space| {
                Ok(ChecksumReport::build_threads(space, threads))
            })?;
            let r = datadir::with_totals(r, ChecksumTotals::of);
            let bad = r.totals.bad_pages + r.totals.lsn_mismatches + r.totals.unverifiable > 0;
            let fatal = r.totals.errors > 0;
            emit_report(cli.format, &r, datadir_text::checksum);
            Ok(if fatal {
                EXIT_FATAL
            } else if bad {
                EXIT_BAD_PAGES
            } else {
                0
            })
        }
        Command::Checksum { files, threads } => {
            let threads = match threads {
                0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
                n => *n,
            };
            let mut reports = Vec::with_capacity(files.len());
            let mut fatal = false;
            for f in files {
                match open(f) {
                    Ok(space) => reports.push(ChecksumReport::build_threads(&space, threads)),
                    Err(e) => {
                        eprintln!("innodb-inspect: error: {e}");
                        fatal = true;
                    }
                }
            }
            emit_report(cli.format, reports.as_slice(), text::checksums);
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

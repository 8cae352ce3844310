//! `carve INPUT… [--out DIR]`: InnoDB pages found anywhere in the inputs,
//! grouped by tablespace; with `--out`, each tablespace rebuilt as a file.

use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::dictionary::sdi::dictionary_of;
use innodb_analysis::reports::carve_report::{CarveReport, CarvedInput, CarvedSpace};
use innodb_analysis::reports::dropped_tables::DroppedTables;
use innodb_format::checksum;
use innodb_format::fil::page_type::PageType;
use innodb_render::carve_text;
use innodb_space::carve::{scan, CarvedPage};
use innodb_space::Tablespace;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// `carve INPUT… [--out DIR]`: exit 0 once every input was read, 2 when
/// one cannot be read or `DIR` cannot be used.
pub fn run(
    inputs: &Inputs,
    files: &[PathBuf],
    dir: Option<&Path>,
    out: &mut Output,
) -> Result<u8, CliError> {
    if let Some(d) = dir {
        check_out_dir(d, files)?;
    }
    let (scanned, pages) = scan_all(inputs, files)?;
    let mut report = CarveReport::build(scanned, pages);
    match dir {
        Some(d) => {
            // Refused before anything is written, not half way.
            if let Some(s) = report.spaces.iter().find(|s| d.join(file_name(s)).exists()) {
                let path = d.join(file_name(s));
                return Err(CliError::file(
                    &path,
                    "exists: carve never overwrites a file",
                ));
            }
            for s in &mut report.spaces {
                let path = d.join(file_name(s));
                write_space(files, s, &path, &|_| true)?;
                name_tables(inputs, s, &path);
                s.file = Some(path.display().to_string());
            }
        }
        None => name_in_temp(inputs, files, &mut report)?,
    }
    dropped_sys_tables(inputs, files, &mut report)?;
    super::carve_mysql::dropped(inputs, files, &mut report)?;
    out.report(inputs.format, &report, carve_text::report);
    Ok(0)
}

/// Every input read once, in order: what each held, and every page found.
fn scan_all(
    inputs: &Inputs,
    files: &[PathBuf],
) -> Result<(Vec<CarvedInput>, Vec<CarvedPage>), CliError> {
    let total = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    let counter = inputs.progress_bytes(total);
    let mut scanned = Vec::with_capacity(files.len());
    let mut pages = Vec::new();
    let mut before = 0u64;
    for (i, f) in files.iter().enumerate() {
        let mut file = File::open(f).map_err(|e| CliError::file(f, format!("cannot open: {e}")))?;
        let input = u32::try_from(i).unwrap_or(u32::MAX);
        let stats = scan(&mut file, input, &mut |p| pages.push(p), &mut |n| {
            counter.store(before + n, Ordering::Relaxed);
        })
        .map_err(|e| CliError::file(f, format!("cannot read: {e}")))?;
        before += stats.bytes;
        scanned.push(CarvedInput {
            path: f.display().to_string(),
            stats,
        });
    }
    Ok((scanned, pages))
}

/// `space-<id>.ibd`; `space-<id>-<size>.ibd` for a page size other than 16k
/// (two tablespaces of one id with different page sizes stay apart).
fn file_name(s: &CarvedSpace) -> String {
    if s.page_size == 16384 {
        format!("space-{}.ibd", s.space_id)
    } else {
        format!("space-{}-{}.ibd", s.space_id, s.page_size)
    }
}

/// Refuses `dir` when an input is inside it; creates it when missing (then
/// no input can be inside it), so that a refused `dir` is left as it was.
fn check_out_dir(dir: &Path, files: &[PathBuf]) -> Result<(), CliError> {
    if !dir.exists() {
        return std::fs::create_dir_all(dir)
            .map_err(|e| CliError::file(dir, format!("cannot create: {e}")));
    }
    let real = dir
        .canonicalize()
        .map_err(|e| CliError::file(dir, format!("cannot resolve: {e}")))?;
    for f in files {
        let input = f
            .canonicalize()
            .map_err(|e| CliError::file(f, format!("cannot resolve: {e}")))?;
        if input.starts_with(&real) {
            return Err(CliError::Usage(format!(
                "--out {}: refused, it holds the input {}",
                dir.display(),
                f.display()
            )));
        }
    }
    Ok(())
}

/// Writes `s` to `path` (which must not exist): each page's newest copy,
/// read again from its input and checked again, at its page number; pages
/// not found (or not `kept`) are holes. The file is as long as the space's size.
fn write_space(
    files: &[PathBuf],
    s: &mut CarvedSpace,
    path: &Path,
    kept: &dyn Fn(&CarvedPage) -> bool,
) -> Result<(), CliError> {
    let mut dest = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| CliError::file(path, format!("cannot create (it must not exist): {e}")))?;
    let mut sources: Vec<Option<File>> = files.iter().map(|_| None).collect();
    let mut page = vec![0u8; s.page_size as usize];
    let mut notes = Vec::new();
    for p in s.newest.iter().filter(|p| kept(p)) {
        let Some(input) = files.get(p.input as usize) else {
            continue;
        };
        let slot = sources.get_mut(p.input as usize);
        let src = match slot {
            Some(Some(f)) => f,
            Some(slot) => {
                slot.insert(File::open(input).map_err(|e| CliError::file(input, e.to_string()))?)
            }
            None => continue,
        };
        src.seek(SeekFrom::Start(p.offset))
            .and_then(|_| src.read_exact(&mut page))
            .map_err(|e| CliError::file(input, format!("offset {}: {e}", p.offset)))?;
        if !still_valid(&page, p) {
            notes.push(format!(
                "page {} at offset {} of {} changed since the scan: not written",
                p.page_no,
                p.offset,
                input.display()
            ));
            continue;
        }
        let at = u64::from(p.page_no) * u64::from(s.page_size);
        dest.seek(SeekFrom::Start(at))
            .and_then(|_| dest.write_all(&page))
            .map_err(|e| CliError::file(path, format!("offset {at}: {e}")))?;
    }
    dest.set_len(s.file_len())
        .map_err(|e| CliError::file(path, e.to_string()))?;
    s.notes.extend(notes);
    Ok(())
}

/// True when the page read again is still the page the scan found.
fn still_valid(page: &[u8], p: &CarvedPage) -> bool {
    checksum::verify(page, p.layout()).algorithm() == Some(p.algorithm)
        && innodb_format::bytes::u32_at(page, 4, "FIL_PAGE_OFFSET").ok() == Some(p.page_no)
}

/// The tables the SDI of the rebuilt file `path` names.
fn name_tables(inputs: &Inputs, s: &mut CarvedSpace, path: &Path) {
    if !s.has_sdi() {
        return;
    }
    match Tablespace::open(path, inputs.options.clone()) {
        Ok(space) => {
            let d = dictionary_of(&space, inputs.options.clone());
            s.tables = d.tables.iter().map(|t| t.name.clone()).collect();
        }
        Err(e) => s.notes.push(format!("not named: {e}")),
    }
}

/// The dropped tables each system tablespace found remembers in its
/// `SYS_*` records, read from the file `--out` wrote, else from the input
/// when it is that tablespace and the only input (`carve ibdata1`), else
/// from the space rebuilt in a temporary directory (every page found; the
/// rest holes).
fn dropped_sys_tables(
    inputs: &Inputs,
    files: &[PathBuf],
    report: &mut CarveReport,
) -> Result<(), CliError> {
    if !report.spaces.iter().any(CarvedSpace::has_sys_tables) {
        return Ok(());
    }
    // An image holding more than the tablespace is rebuilt, as is a
    // system tablespace given beside other inputs.
    let whole = if files.len() == 1 { files } else { &[] };
    let tmp = tempfile::tempdir()
        .map_err(|e| CliError::Usage(format!("cannot make a temporary directory: {e}")))?;
    for s in report.spaces.iter_mut().filter(|s| s.has_sys_tables()) {
        let path = space_path(inputs, files, whole, s, tmp.path())?;
        match Tablespace::open(&path, inputs.options.clone()) {
            Ok(space) => s.dropped_tables = Some(DroppedTables::build(&space)),
            Err(e) => s.notes.push(format!("dropped tables not read: {e}")),
        }
    }
    Ok(())
}

/// Where the carved space `s` is read as a tablespace: the file `--out`
/// wrote, else one of `whole` that is that tablespace as the server left
/// it (its space id, page size and `FSP_SIZE`), else the space rebuilt
/// from `files` in `tmp` (once: a later call finds it there).
pub(super) fn space_path(
    inputs: &Inputs,
    files: &[PathBuf],
    whole: &[PathBuf],
    s: &mut CarvedSpace,
    tmp: &Path,
) -> Result<PathBuf, CliError> {
    if let Some(f) = &s.file {
        return Ok(PathBuf::from(f));
    }
    if let Some(f) = whole.iter().find(|f| is_the_space(inputs, f, s)) {
        return Ok(f.clone());
    }
    let path = tmp.join(file_name(s));
    if !path.exists() {
        write_space(files, s, &path, &|_| true)?;
    }
    Ok(path)
}

/// True when the input `f` is the tablespace `s` as a whole.
fn is_the_space(inputs: &Inputs, f: &Path, s: &CarvedSpace) -> bool {
    Tablespace::open(f, inputs.options.clone()).is_ok_and(|space| {
        space.space_id() == s.space_id
            && space.format().physical_page_size() == s.page_size as usize
            && s.size_pages == Some(space.page_count())
    })
}

/// Without `--out`: of each space with SDI pages, what its SDI is read
/// through (page 0, the extent descriptor and INODE pages that lead to the
/// SDI root, the SDI index and its BLOB pages) written in a temporary
/// directory, only to read the names its SDI holds.
fn name_in_temp(
    inputs: &Inputs,
    files: &[PathBuf],
    report: &mut CarveReport,
) -> Result<(), CliError> {
    if !report.spaces.iter().any(CarvedSpace::has_sdi) {
        return Ok(());
    }
    let tmp = tempfile::tempdir()
        .map_err(|e| CliError::Usage(format!("cannot make a temporary directory: {e}")))?;
    for s in report.spaces.iter_mut().filter(|s| s.has_sdi()) {
        let path = tmp.path().join(file_name(s));
        write_space(files, s, &path, &|p| {
            p.page_no == 0
                || matches!(
                    p.page_type,
                    PageType::TYPE_FSP_HDR
                        | PageType::TYPE_XDES
                        | PageType::INODE
                        | PageType::SDI
                        | PageType::SDI_BLOB_OR_INSTANT
                        | PageType::SDI_ZBLOB
                )
        })?;
        name_tables(inputs, s, &path);
        let _ = std::fs::remove_file(&path);
    }
    Ok(())
}

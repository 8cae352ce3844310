//! `carve INPUT… [--out DIR]`: InnoDB pages found anywhere in the inputs,
//! grouped by tablespace; with `--out`, each tablespace rebuilt as a file.
//! Without `--out` nothing is written anywhere: a space whose SDI or
//! dictionary is read is read in place, from where its pages were found.

use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::dictionary::sdi::dictionary_of;
use innodb_analysis::reports::carve_report::{CarveReport, CarvedInput, CarvedSpace};
use innodb_analysis::reports::dropped_tables::DroppedTables;
use innodb_format::fil::page_type::PageType;
use innodb_render::carve_text;
use innodb_space::carve::{scan, CarvedPage};
use innodb_space::carved_source::{read_full, CarveInputs, CarvedSource};
use innodb_space::{SpaceError, Tablespace};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;

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
    let carved = Carved {
        inputs: Arc::new(CarveInputs::new(files)),
        files,
    };
    match dir {
        Some(d) => write_all(inputs, files, d, &mut report)?,
        None => name_in_place(inputs, &carved, &mut report),
    }
    dropped_sys_tables(inputs, &carved, &mut report);
    super::carve_mysql::dropped(inputs, &carved, &mut report);
    out.report(inputs.format, &report, carve_text::report);
    Ok(0)
}

/// The inputs of a carve, open for reading carved spaces in place.
pub(super) struct Carved<'a> {
    /// Each input, opened once, when a page is first read from it.
    pub inputs: Arc<CarveInputs>,
    /// Their paths, in the order given.
    pub files: &'a [PathBuf],
}

/// `--out DIR`: every space written to `DIR` (refused before anything is
/// written when one of the files exists), its SDI's tables named.
fn write_all(
    inputs: &Inputs,
    files: &[PathBuf],
    d: &Path,
    report: &mut CarveReport,
) -> Result<(), CliError> {
    // Refused before anything is written, not half way.
    if let Some(s) = report.spaces.iter().find(|s| d.join(file_name(s)).exists()) {
        let path = d.join(file_name(s));
        return Err(CliError::file(
            &path,
            "exists: carve never overwrites a file",
        ));
    }
    let used: std::collections::BTreeSet<u32> = report
        .spaces
        .iter()
        .flat_map(|s| s.newest.iter().map(|p| p.input))
        .collect();
    for f in used.iter().filter_map(|&i| files.get(i as usize)) {
        can_read_again(f)?;
    }
    let n = report.spaces.len() as u64;
    let dd = super::carve_mysql::dictionary_space(report);
    for (i, s) in report.spaces.iter_mut().enumerate() {
        inputs.progress_phase("writing spaces", i as u64, n);
        let path = d.join(file_name(s));
        write_space(files, s, &path)?;
        if Some(i) != dd {
            name_tables(inputs, s, &path);
        }
        s.file = Some(path.display().to_string());
    }
    Ok(())
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
/// not found are holes. The file is as long as the space's size.
fn write_space(files: &[PathBuf], s: &mut CarvedSpace, path: &Path) -> Result<(), CliError> {
    let mut dest = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| CliError::file(path, format!("cannot create (it must not exist): {e}")))?;
    let mut sources: Vec<Option<File>> = files.iter().map(|_| None).collect();
    let mut page = vec![0u8; s.page_size as usize];
    let mut notes = Vec::new();
    for p in &s.newest {
        let Some(input) = files.get(p.input as usize) else {
            continue;
        };
        let slot = sources.get_mut(p.input as usize);
        let src = match slot {
            Some(Some(f)) => f,
            Some(slot) => slot.insert(open_again(input)?),
            None => continue,
        };
        page.fill(0);
        let got = read_full(src, p.offset, &mut page)
            .map_err(|e| CliError::file(input, format!("offset {}: {e}", p.offset)))?;
        // A compressed page near the input's end may be shorter than a page.
        if got < p.stored_len() || !p.still_valid(&page) {
            notes.push(format!(
                "page {} at offset {} of {} changed since the scan: not written",
                p.page_no,
                p.offset,
                input.display()
            ));
            continue;
        }
        p.clear_after_block(&mut page);
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
/// in place from the inputs (every page found; the rest holes).
fn dropped_sys_tables(inputs: &Inputs, carved: &Carved<'_>, report: &mut CarveReport) {
    // An image holding more than the tablespace is read through its map,
    // as is a system tablespace given beside other inputs.
    let whole = if carved.files.len() == 1 {
        carved.files
    } else {
        &[]
    };
    for s in report.spaces.iter_mut().filter(|s| s.has_sys_tables()) {
        inputs.progress_phase("reading the dictionary of the system tablespace", 0, 0);
        match open_space(inputs, carved, whole, s) {
            Ok(space) => {
                s.dropped_tables = Some(DroppedTables::build(&space));
                note_changed(s, &space);
            }
            Err(e) => s.notes.push(format!("dropped tables not read: {e}")),
        }
    }
}

/// The carved space `s` as a tablespace: the file `--out` wrote, else one
/// of `whole` that is that tablespace as the server left it (its space id,
/// page size and `FSP_SIZE`), else read in place from where its pages were
/// found (nothing written).
pub(super) fn open_space(
    inputs: &Inputs,
    carved: &Carved<'_>,
    whole: &[PathBuf],
    s: &CarvedSpace,
) -> Result<Tablespace, SpaceError> {
    if let Some(f) = &s.file {
        return Tablespace::open(f, inputs.options.clone());
    }
    if let Some(f) = whole.iter().find(|f| is_the_space(inputs, f, s)) {
        return Tablespace::open(f, inputs.options.clone());
    }
    in_place(inputs, carved, s, |_| true)
}

/// The pages of `s` that `keep` keeps, read in place from where they were
/// found; the others read as holes.
fn in_place(
    inputs: &Inputs,
    carved: &Carved<'_>,
    s: &CarvedSpace,
    keep: impl Fn(&CarvedPage) -> bool,
) -> Result<Tablespace, SpaceError> {
    let pages = s.newest.iter().filter(|p| keep(p)).copied();
    let source = CarvedSource::new(carved.inputs.clone(), s.page_size, s.file_len(), pages);
    let name = PathBuf::from(format!("carved:{}", file_name(s)));
    Tablespace::open_carved(name, source, inputs.options.clone())
}

/// Notes on `s` each page of it that `space` (read in place) found changed
/// since the scan, once.
pub(super) fn note_changed(s: &mut CarvedSpace, space: &Tablespace) {
    for c in space.changed_pages() {
        let note = format!(
            "page {} at offset {} of {} changed since the scan: not used",
            c.page_no,
            c.offset,
            c.input.display()
        );
        if !s.notes.contains(&note) {
            s.notes.push(note);
        }
    }
}

/// Opens the input `f` again to read pages from it: only a regular file
/// or a block device (a pipe or FIFO, read once by the scan, would wait
/// for a writer forever).
fn open_again(f: &Path) -> Result<File, CliError> {
    can_read_again(f)?;
    File::open(f).map_err(|e| CliError::file(f, e.to_string()))
}

/// An error unless the input `f` is a regular file or a block device.
fn can_read_again(f: &Path) -> Result<(), CliError> {
    let meta = std::fs::metadata(f).map_err(|e| CliError::file(f, e.to_string()))?;
    if innodb_space::carved_source::can_be_read_again(&meta) {
        return Ok(());
    }
    Err(CliError::file(
        f,
        "not a regular file or block device, so its pages cannot be read again to write them (carve a copy of it)",
    ))
}

/// True when the input `f` is the tablespace `s` as a whole (its length
/// first: an input of another length is not, unless it is a `.gz`).
fn is_the_space(inputs: &Inputs, f: &Path, s: &CarvedSpace) -> bool {
    let pages = std::fs::metadata(f).map(|m| m.len() / u64::from(s.page_size.max(1)));
    if pages.is_ok_and(|n| s.size_pages.map(u64::from) != Some(n)) && !is_gzip(f) {
        return false;
    }
    Tablespace::open(f, inputs.options.clone()).is_ok_and(|space| {
        space.space_id() == s.space_id
            && space.format().physical_page_size() == s.page_size as usize
            && s.size_pages == Some(space.page_count())
    })
}

/// True when `f` begins with the gzip magic (`1f 8b`): a `.gz` input,
/// which a tablespace open inflates.
fn is_gzip(f: &Path) -> bool {
    let mut magic = [0u8; 2];
    File::open(f).is_ok_and(|mut file| file.read_exact(&mut magic).is_ok() && magic == [0x1f, 0x8b])
}

/// Without `--out`: of each space with SDI pages, what its SDI is read
/// through (page 0, the extent descriptor and INODE pages that lead to the
/// SDI root, the SDI index and its BLOB pages), read in place, only to read
/// the names its SDI holds.
fn name_in_place(inputs: &Inputs, carved: &Carved<'_>, report: &mut CarveReport) {
    let dd = super::carve_mysql::dictionary_space(report);
    let named = |(i, s): &(usize, &mut CarvedSpace)| s.has_sdi() && Some(*i) != dd;
    let n = report.spaces.iter_mut().enumerate().filter(named).count() as u64;
    for (i, (_, s)) in report
        .spaces
        .iter_mut()
        .enumerate()
        .filter(named)
        .enumerate()
    {
        inputs.progress_phase("naming spaces (reading their SDI)", i as u64, n);
        match in_place(inputs, carved, s, leads_to_sdi) {
            Ok(space) => {
                let d = dictionary_of(&space, inputs.options.clone());
                s.tables = d.tables.iter().map(|t| t.name.clone()).collect();
                note_changed(s, &space);
            }
            Err(e) => s.notes.push(format!("not named: {e}")),
        }
    }
}

/// True for the pages the SDI is read through.
fn leads_to_sdi(p: &CarvedPage) -> bool {
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
}

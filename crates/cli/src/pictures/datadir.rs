//! Pictures over every tablespace of `--datadir`: each file's model made
//! in parallel, then drawn in the terminal under a heading, printed as
//! JSON, or written as one PNG per tablespace into the directory `--png`
//! names.

use super::{save_png, Drawing};
use crate::args::ColorChoice;
use crate::inputs::Inputs;
use crate::output::{colour_on, Kind, Output};
use crate::runner::{over, status, Files};
use crate::CliError;
use innodb_analysis::reports::datadir_report::{FileResult, FileTotals};
use innodb_render::{datadir_text, Serialize};
use innodb_space::Tablespace;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The picture model of one tablespace, and lines for stderr.
pub type ModelOf<'a, M> = dyn Fn(&Tablespace) -> Result<(M, Vec<String>), CliError> + Sync + 'a;

/// A kind of picture made of each tablespace of a data directory.
pub struct Picture<'a, M> {
    /// The command, for messages.
    pub command: &'static str,
    /// The model of one file, and lines for stderr.
    pub model: &'a ModelOf<'a, M>,
    /// How the model is drawn.
    pub drawing: &'a Drawing<M>,
}

impl<M: Serialize + Send> Picture<'_, M> {
    /// Every tablespace's picture: PNG files into `png_dir`, else text or JSON.
    pub fn over(
        &self,
        inputs: &Inputs,
        png_dir: Option<&Path>,
        color: ColorChoice,
        out: &mut Output,
    ) -> Result<u8, CliError> {
        if let Some(dir) = png_dir {
            return self.to_png(inputs, dir, out);
        }
        let files = over(inputs, self.command, |s| {
            (self.model)(s).map_err(|e| e.in_datadir())
        })?;
        let r = say_findings(files, out).with_totals(FileTotals::of);
        let colour = colour_on(color);
        let text = self.drawing.text;
        out.report_as(
            inputs.format,
            &r,
            |r| datadir_text::each(r, |m| text(m, colour)),
            if colour { Kind::Coloured } else { Kind::Text },
        );
        Ok(status(&r.files))
    }

    /// One PNG per tablespace, written in parallel; a line each on stdout.
    fn to_png(&self, inputs: &Inputs, png_dir: &Path, out: &mut Output) -> Result<u8, CliError> {
        let datadir = inputs.datadir(self.command)?;
        if png_dir.exists() && !png_dir.is_dir() {
            return Err(CliError::Usage(format!(
                "--png {}: over a data directory --png names a directory (one PNG per tablespace), and this is a file",
                png_dir.display()
            )));
        }
        std::fs::create_dir_all(png_dir)
            .map_err(|e| CliError::Usage(format!("--png {}: {e}", png_dir.display())))?;
        let root = &datadir.root;
        let names = png_names(root, &datadir.tablespace_paths());
        let drawing = self.drawing;
        let files = over(inputs, self.command, |s| {
            let (model, lines) = (self.model)(s).map_err(|e| e.in_datadir())?;
            let rel = names
                .get(s.path())
                .cloned()
                .unwrap_or_else(|| png_name(root, s.path(), false));
            let path = png_dir.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            let said = save_png(&path, &(drawing.image)(&model), (drawing.title)(&model))?;
            Ok((said, lines))
        })?;
        let files = say_findings(files, out);
        let mut errors = 0;
        for f in &files.files {
            match (&f.report, &f.error) {
                (Some(said), _) => out.emit(said),
                (None, Some(e)) => {
                    errors += 1;
                    // Errors of opening the file already name it.
                    let e = if e.starts_with(&f.file) {
                        e.clone()
                    } else {
                        format!("{}: {e}", f.file)
                    };
                    out.say(&format!("error: no picture: {e}"));
                }
                (None, None) => {}
            }
        }
        Ok(u8::from(errors > 0))
    }
}

/// Prints each file's stderr lines, in file order; keeps the models.
fn say_findings<M>(files: Files<(M, Vec<String>)>, out: &mut Output) -> Files<M> {
    files.convert(|files| {
        files
            .into_iter()
            .map(|f| {
                let report = f.report.map(|(m, lines)| {
                    for l in &lines {
                        out.say_raw(l);
                    }
                    m
                });
                FileResult {
                    file: f.file,
                    bytes: f.bytes,
                    report,
                    error: f.error,
                    note: f.note,
                }
            })
            .collect()
    })
}

/// The PNG's path below the `--png` directory for `file` of the data
/// directory `dir`: its path relative to `dir` with `.gz`, then `.ibd`,
/// dropped and `.png` added (`test/t1.ibd` → `test/t1.png`); `whole` keeps
/// the whole name (`test/t1.ibd.gz.png`).
fn png_name(dir: &Path, file: &Path, whole: bool) -> PathBuf {
    let rel = file
        .strip_prefix(dir)
        .ok()
        .filter(|r| !r.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .or_else(|| file.file_name().map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("tablespace"));
    let mut name = rel.to_string_lossy().into_owned();
    if !whole {
        for ext in [".gz", ".ibd"] {
            if let Some(stem) = name.strip_suffix(ext) {
                name = stem.to_string();
            }
        }
    }
    name.push_str(".png");
    PathBuf::from(name)
}

/// Every file's PNG path (see [`png_name`]); files that would share one
/// (`t1.ibd` beside `t1.ibd.gz`) each keep their whole name.
fn png_names(dir: &Path, files: &[PathBuf]) -> HashMap<PathBuf, PathBuf> {
    let short: Vec<PathBuf> = files.iter().map(|f| png_name(dir, f, false)).collect();
    let mut seen = HashSet::new();
    let shared: HashSet<&PathBuf> = short.iter().filter(|n| !seen.insert(*n)).collect();
    files
        .iter()
        .zip(&short)
        .map(|(f, n)| {
            let name = if shared.contains(n) {
                png_name(dir, f, true)
            } else {
                n.clone()
            };
            (f.clone(), name)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_names_follow_the_files() {
        let dir = Path::new("/var/lib/mysql");
        let files: Vec<PathBuf> = [
            "ibdata1",
            "undo001",
            "ibdata1.gz.x",
            "test/t1.ibd",
            "test/t2.ibd.gz",
            "test/t3.ibd",
            "test/t3.ibd.gz",
        ]
        .iter()
        .map(|f| dir.join(f))
        .collect();
        let names = png_names(dir, &files);
        let got: Vec<String> = files
            .iter()
            .map(|f| names[f].to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            got,
            [
                "ibdata1.png",
                "undo001.png",
                "ibdata1.gz.x.png",
                "test/t1.png",
                "test/t2.png",
                "test/t3.ibd.png",
                "test/t3.ibd.gz.png"
            ]
        );
    }
}

//! `heatmap` and `plot --fill-histogram|--levels` over every tablespace of
//! `--datadir`: each file's picture made in parallel, then drawn in the
//! terminal under a heading, printed as JSON, or written as one PNG per
//! tablespace into the directory `--png` names.

use crate::args::{ColorChoice, HeatmapChoice, PlotChoice};
use crate::pictures::{heatmap_by, heatmap_model, index_chart, save_png};
use crate::{colour_on, datadir, emit, emit_report, no_map_text, Cli, CliError};
use innodb_analysis::reports::datadir_report::{tablespaces, FileResult, FileTotals};
use innodb_render::png::image::RgbImage;
use innodb_render::{ansi, datadir_text, png, Serialize};
use innodb_space::dictionary::Dictionary;
use innodb_space::{OpenOptions, Tablespace};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// `--datadir DIR heatmap --by … [--png DIR]`.
pub fn heatmap(
    cli: &Cli,
    options: OpenOptions,
    dict: Option<&Dictionary>,
    by: HeatmapChoice,
    png_dir: Option<&Path>,
    color: ColorChoice,
) -> Result<u8, CliError> {
    let by = heatmap_by(by);
    let picture = Picture {
        command: "heatmap",
        model: |s: &Tablespace| heatmap_model(s, dict, by).map_err(no_map_text),
        image: png::raster_image,
        text: ansi::raster,
        title: |r: &innodb_analysis::pictures::Raster| r.title.clone(),
    };
    picture.over(cli, options, png_dir, color)
}

/// `--datadir DIR plot --fill-histogram|--levels [--png DIR]`.
pub fn plot(
    cli: &Cli,
    options: OpenOptions,
    dict: Option<&Dictionary>,
    what: PlotChoice,
    png_dir: Option<&Path>,
    color: ColorChoice,
) -> Result<u8, CliError> {
    let picture = Picture {
        command: "plot",
        model: |s: &Tablespace| {
            index_chart(s, dict, what)
                .map(|c| (c, Vec::new()))
                .map_err(no_map_text)
        },
        image: png::chart_image,
        text: ansi::chart,
        title: |c: &innodb_analysis::pictures::Chart| c.title.clone(),
    };
    picture.over(cli, options, png_dir, color)
}

/// How one kind of picture is made and drawn.
struct Picture<B, I, T, N> {
    /// The command, for messages.
    command: &'static str,
    /// The model of one file, and lines for stderr.
    model: B,
    /// The model drawn as an image.
    image: I,
    /// The model drawn for the terminal (with colour or not).
    text: T,
    /// The model's title.
    title: N,
}

impl<M, B, I, T, N> Picture<B, I, T, N>
where
    M: Serialize + Send,
    B: Fn(&Tablespace) -> Result<(M, Vec<String>), String> + Sync,
    I: Fn(&M) -> RgbImage + Sync,
    T: Fn(&M, bool) -> String,
    N: Fn(&M) -> String + Sync,
{
    /// Every tablespace's picture: PNG files into `png_dir`, else text or JSON.
    fn over(
        &self,
        cli: &Cli,
        options: OpenOptions,
        png_dir: Option<&Path>,
        color: ColorChoice,
    ) -> Result<u8, CliError> {
        if let Some(out) = png_dir {
            return self.to_png(cli, options, out);
        }
        let (dir, files) = datadir::over(cli, options, self.command, &self.model)?;
        let files = say_findings(files);
        let r = datadir::with_totals((dir, files), FileTotals::of);
        let colour = colour_on(color);
        emit_report(cli.format, &r, |r| {
            datadir_text::each(r, |m| (self.text)(m, colour))
        });
        Ok(datadir::status(r.totals.errors))
    }

    /// One PNG per tablespace, written in parallel; a line each on stdout.
    fn to_png(&self, cli: &Cli, options: OpenOptions, out: &Path) -> Result<u8, CliError> {
        let Some(dir) = &cli.datadir else {
            return Err(CliError::Usage(format!(
                "{} needs a FILE, or --datadir DIR for every tablespace of a data directory",
                self.command
            )));
        };
        if out.exists() && !out.is_dir() {
            return Err(CliError::Usage(format!(
                "--png {}: over a data directory --png names a directory (one PNG per tablespace), and this is a file",
                out.display()
            )));
        }
        std::fs::create_dir_all(out)
            .map_err(|e| CliError::Usage(format!("--png {}: {e}", out.display())))?;
        let names = png_names(dir, &tablespaces(dir));
        let (build, image, title) = (&self.model, &self.image, &self.title);
        let (_, files) = datadir::over(cli, options, self.command, |s| {
            let (model, lines) = build(s)?;
            let rel = names
                .get(s.path())
                .cloned()
                .unwrap_or_else(|| png_name(dir, s.path(), false));
            let path = out.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            let said = save_png(&path, &image(&model), &title(&model))?;
            Ok((said, lines))
        })?;
        let files = say_findings(files);
        let mut errors = 0;
        for f in &files {
            match (&f.report, &f.error) {
                (Some(said), _) => emit(said),
                (None, Some(e)) => {
                    errors += 1;
                    // Errors of opening the file already name it.
                    let e = if e.starts_with(&f.file) {
                        e.clone()
                    } else {
                        format!("{}: {e}", f.file)
                    };
                    eprintln!("innodb-inspect: error: no picture: {e}");
                }
                (None, None) => {}
            }
        }
        Ok(datadir::status(errors))
    }
}

/// Prints each file's stderr lines, in file order; keeps the models.
fn say_findings<M>(files: Vec<FileResult<(M, Vec<String>)>>) -> Vec<FileResult<M>> {
    files
        .into_iter()
        .map(|f| {
            let report = f.report.map(|(m, lines)| {
                for l in &lines {
                    eprintln!("{l}");
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

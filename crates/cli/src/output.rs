//! Where a command writes: its report to `out`, notes and warnings to
//! `err`. Control characters from data never reach either raw (see
//! `innodb_render::safe`), and a write that fails is remembered: a closed
//! pipe (`| head`) ends the output quietly, any other failure (a full disk)
//! makes the command fail.

use crate::args::{ColorChoice, Format};
use innodb_render::safe::{escape_controls, escape_controls_keep_sgr, escape_json_controls};
use innodb_render::OutputFormat;
use std::io::{ErrorKind, IsTerminal, Write};

/// What a piece of output is, for how it is made safe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Text for people: control characters escaped.
    Text,
    /// Text carrying the program's own colour escapes (SGR sequences):
    /// every other control character escaped.
    Coloured,
    /// JSON: DEL and C1 characters escaped as `\u…` (serde escapes C0),
    /// integers past 2^53 − 1 written as strings (see
    /// `innodb_render::json::exact_integers`; the streamed pieces of
    /// `records` and `pages` are made so here, whole reports already are).
    Json,
    /// JSON already in the form [`Kind::Json`] gives it (the streamed
    /// rows of `records`, written so by `innodb_render::json`): written
    /// as it is.
    JsonReady,
    /// Data that must stay exact (CSV): escaped only when `out` is a
    /// terminal, with a note saying so.
    Exact,
}

/// The two streams a command writes to.
pub struct Output<'a> {
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
    /// True when `out` is a terminal.
    out_is_terminal: bool,
    /// The first failed write to `out` other than a closed pipe.
    failure: Option<std::io::Error>,
    /// A write to `out` found the pipe closed: nothing more is written.
    closed: bool,
    /// The note that exact data was escaped for the terminal was given.
    said_escaped: bool,
}

impl<'a> Output<'a> {
    /// An output writing the report to `out` and messages to `err`;
    /// `out_is_terminal` when `out` is a terminal.
    pub fn new(out: &'a mut dyn Write, err: &'a mut dyn Write, out_is_terminal: bool) -> Self {
        Output {
            out,
            err,
            out_is_terminal,
            failure: None,
            closed: false,
            said_escaped: false,
        }
    }

    /// Writes report text `s` to `out`, made safe for a terminal.
    pub fn emit(&mut self, s: &str) {
        self.emit_as(Kind::Text, s);
    }

    /// Writes `s` to `out`, made safe as `kind` says.
    pub fn emit_as(&mut self, kind: Kind, s: &str) {
        if self.out_is_terminal {
            crate::progress::clear();
        }
        let safe = match kind {
            Kind::Text => escape_controls(s),
            Kind::Coloured => escape_controls_keep_sgr(s),
            Kind::Json => match innodb_render::json::exact_integers(s) {
                std::borrow::Cow::Borrowed(s) => escape_json_controls(s),
                std::borrow::Cow::Owned(s) => escape_json_controls(&s).into_owned().into(),
            },
            Kind::Exact if self.out_is_terminal => {
                let safe = escape_controls(s);
                if matches!(safe, std::borrow::Cow::Owned(_)) && !self.said_escaped {
                    self.said_escaped = true;
                    self.say("note: control characters in the data are shown escaped because stdout is a terminal; redirect to a file for the exact bytes");
                }
                safe
            }
            Kind::Exact | Kind::JsonReady => s.into(),
        };
        self.write_out(safe.as_bytes());
    }

    fn write_out(&mut self, bytes: &[u8]) {
        if self.closed || self.failure.is_some() {
            return;
        }
        if let Err(e) = self.out.write_all(bytes) {
            self.note_failure(e);
        }
    }

    fn note_failure(&mut self, e: std::io::Error) {
        if e.kind() == ErrorKind::BrokenPipe {
            self.closed = true;
        } else {
            self.failure = Some(e);
        }
    }

    /// True once nothing more can be written to `out` (its reader is
    /// gone, or a write failed): long listings may stop early.
    pub fn is_done(&self) -> bool {
        self.closed || self.failure.is_some()
    }

    /// Flushes `out`; the first write failure other than a closed pipe.
    pub fn finish(&mut self) -> Result<(), std::io::Error> {
        if !self.closed && self.failure.is_none() {
            if let Err(e) = self.out.flush() {
                self.note_failure(e);
            }
        }
        self.failure.take().map_or(Ok(()), Err)
    }

    /// Writes the line `innodb-inspect: {s}` to `err`, made safe.
    pub fn say(&mut self, s: &str) {
        let err = &mut self.err;
        crate::progress::suspend(|| writeln!(err, "innodb-inspect: {}", escape_controls(s)))
            .unwrap_or(());
    }

    /// Writes `line` as it is given (already prefixed) to `err`, made safe.
    pub fn say_raw(&mut self, line: &str) {
        let err = &mut self.err;
        crate::progress::suspend(|| writeln!(err, "{}", escape_controls(line))).unwrap_or(());
    }

    /// Writes `report` as text (made by `text`) or as JSON.
    pub fn report<R: innodb_render::Serialize + ?Sized>(
        &mut self,
        format: Format,
        report: &R,
        text: impl FnOnce(&R) -> String,
    ) {
        self.report_as(format, report, text, Kind::Text);
    }

    /// Writes `report` as JSON, or as the text `text` makes, which is of
    /// `kind` (`Kind::Coloured` when it carries colour escapes).
    pub fn report_as<R: innodb_render::Serialize + ?Sized>(
        &mut self,
        format: Format,
        report: &R,
        text: impl FnOnce(&R) -> String,
        kind: Kind,
    ) {
        let (format, kind) = match format {
            Format::Text | Format::Csv | Format::Sql => (OutputFormat::Text, kind),
            Format::Json => (OutputFormat::Json, Kind::Json),
        };
        let s = innodb_render::render(format, report, text);
        self.emit_as(kind, &s);
    }

    /// A writer into `out` for output streamed piece by piece, each piece
    /// made safe as `kind` says.
    pub fn writer(&mut self, kind: Kind) -> OutWriter<'_, 'a> {
        OutWriter { output: self, kind }
    }
}

/// Streams into an [`Output`], each write made safe; a write never fails
/// (the output remembers a failure, see [`Output::finish`]).
pub struct OutWriter<'o, 'a> {
    output: &'o mut Output<'a>,
    kind: Kind,
}

impl Write for OutWriter<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.output
            .emit_as(self.kind, &String::from_utf8_lossy(buf));
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether to colour terminal output.
pub fn colour_on(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    }
}

/// A report with the file (or files) it is of put first in its JSON object:
/// `{"file": …, …}` for one, `{"files": […], …}` for several. For reports
/// whose own model does not name its input (pictures, the undo logs).
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Named<'r, R: ?Sized> {
    /// The one file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The files, when there are several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<String>>,
    /// The report.
    #[serde(flatten)]
    pub report: &'r R,
}

impl<'r, R: ?Sized> Named<'r, R> {
    /// `report`, of `paths`.
    pub fn new(paths: &[&std::path::Path], report: &'r R) -> Self {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        match names.as_slice() {
            [one] => Named {
                file: Some(one.clone()),
                files: None,
                report,
            },
            _ => Named {
                file: None,
                files: Some(names),
                report,
            },
        }
    }
}

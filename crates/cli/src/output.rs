//! Where a command writes: its report to `out`, notes and warnings to `err`.

use crate::args::{ColorChoice, Format};
use innodb_render::OutputFormat;
use std::io::{IsTerminal, Write};

/// The two streams a command writes to.
pub struct Output<'a> {
    /// The report (stdout on the command line).
    pub out: &'a mut dyn Write,
    /// Notes, warnings and per-file errors (stderr on the command line).
    pub err: &'a mut dyn Write,
}

impl Output<'_> {
    /// Writes `s` to `out`. A closed pipe (`| head`) is not an error worth
    /// reporting, so write errors are dropped.
    pub fn emit(&mut self, s: &str) {
        let _ = self.out.write_all(s.as_bytes());
    }

    /// Writes the line `innodb-inspect: {s}` to `err`.
    pub fn say(&mut self, s: &str) {
        let _ = writeln!(self.err, "innodb-inspect: {s}");
    }

    /// Writes `line` as it is to `err`.
    pub fn say_raw(&mut self, line: &str) {
        let _ = writeln!(self.err, "{line}");
    }

    /// Writes `report` as text (made by `text`) or as JSON.
    pub fn report<R: innodb_render::Serialize + ?Sized>(
        &mut self,
        format: Format,
        report: &R,
        text: impl FnOnce(&R) -> String,
    ) {
        let format = match format {
            Format::Text | Format::Csv => OutputFormat::Text,
            Format::Json => OutputFormat::Json,
        };
        self.emit(&innodb_render::render(format, report, text));
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

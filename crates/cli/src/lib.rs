//! `innodb-inspect` as a library: the command line's arguments ([`args`]),
//! resolved once into [`inputs::Inputs`], and one module per command
//! ([`commands`]) writing its report to an [`output::Output`]. The binary
//! parses and dispatches; the robustness harness (`crates/robust`) and the
//! fuzz targets call the same functions.

pub mod args;
pub mod commands;
mod error;
pub mod inputs;
pub mod json_schema;
pub mod output;
pub mod pictures;
mod progress;
pub mod runner;

pub use args::Cli;
pub use error::CliError;
pub use output::Output;

/// Exit code when a command could not do its work at all.
pub const EXIT_FATAL: u8 = 2;
/// Exit code of `checksum` when some page does not verify.
pub const EXIT_BAD_PAGES: u8 = 1;

/// Runs the command line `cli`: its report goes to the output's `out`,
/// notes and errors to its `err`; returns the exit code. A report that
/// could not be written (a full disk; not a closed pipe) is a failure.
pub fn run(cli: &Cli, out: &mut Output) -> u8 {
    let mut changed = false;
    let result = inputs::Inputs::resolve(cli).and_then(|inputs| {
        let code = commands::run(&inputs, &cli.command, out);
        changed = inputs.changed_while_read();
        code
    });
    let code = match result {
        Ok(code) => code,
        Err(e) => {
            out.say(&format!("error: {e}"));
            EXIT_FATAL
        }
    };
    // A file that changed length while it was read gives a report that may
    // mix two states of it (its findings say which file and where).
    let code = if changed && code == 0 {
        out.say("error: a file changed length while it was read (another process is writing it): the report may mix two states of the file; copy it first");
        EXIT_FATAL
    } else {
        code
    };
    match out.finish() {
        Ok(()) => code,
        Err(e) => {
            out.say(&format!("error: cannot write the output: {e}"));
            EXIT_FATAL
        }
    }
}

//! `innodb-inspect` as a library: the command line's arguments ([`args`]),
//! resolved once into [`inputs::Inputs`], and one module per command
//! ([`commands`]) writing its report to an [`output::Output`]. The binary
//! parses and dispatches; the robustness harness (`crates/robust`) and the
//! fuzz targets call the same functions.

pub mod args;
pub mod commands;
mod error;
pub mod inputs;
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
    let result =
        inputs::Inputs::resolve(cli).and_then(|inputs| commands::run(&inputs, &cli.command, out));
    let code = match result {
        Ok(code) => code,
        Err(e) => {
            out.say(&format!("error: {e}"));
            EXIT_FATAL
        }
    };
    match out.finish() {
        Ok(()) => code,
        Err(e) => {
            out.say(&format!("error: cannot write the output: {e}"));
            EXIT_FATAL
        }
    }
}

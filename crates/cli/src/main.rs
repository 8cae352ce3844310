//! `innodb-inspect`: the command line. Parses the arguments and runs the
//! command the library names ([`innodb_inspect::run`]).

use clap::Parser;
use innodb_inspect::{Cli, Output};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr();
    let code = innodb_inspect::run(
        &cli,
        &mut Output {
            out: &mut stdout,
            err: &mut stderr,
        },
    );
    ExitCode::from(code)
}

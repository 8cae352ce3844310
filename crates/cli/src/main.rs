//! `innodb-inspect`: the command line. Parses the arguments and runs the
//! command the library names ([`innodb_inspect::run`]).

use clap::Parser;
use innodb_inspect::{Cli, Output};
use std::io::IsTerminal;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let terminal = std::io::stdout().is_terminal();
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut stderr = std::io::stderr();
    let code = innodb_inspect::run(&cli, &mut Output::new(&mut stdout, &mut stderr, terminal));
    ExitCode::from(code)
}

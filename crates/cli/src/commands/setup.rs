//! `completions` and `man`: what a shell and `man` need, made from the
//! argument definitions themselves so they never fall behind them; and
//! `json-schema`, made from the report types the JSON is written from.

use crate::args::Cli;
use crate::output::{Kind, Output};
use crate::CliError;
use clap::CommandFactory;

/// Writes the completion script for `shell`.
pub fn completions(shell: clap_complete::Shell, out: &mut Output) -> Result<u8, CliError> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "innodb-inspect", &mut script);
    out.emit_as(Kind::Exact, &String::from_utf8_lossy(&script));
    Ok(0)
}

/// Writes the JSON Schema of `name`'s JSON, or with `write`, every
/// command's into that directory (`COMMAND.json`, a line each on stdout).
pub fn json_schema(
    name: Option<&str>,
    write: Option<&std::path::Path>,
    out: &mut Output,
) -> Result<u8, CliError> {
    use crate::json_schema::{schema_text, COMMANDS};
    if let Some(dir) = write {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Usage(format!("--write {}: {e}", dir.display())))?;
        for command in COMMANDS {
            let path = dir.join(format!("{command}.json"));
            std::fs::write(&path, schema_text(command).unwrap_or_default())
                .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
            out.emit(&format!("{}\n", path.display()));
        }
        return Ok(0);
    }
    let name = name.unwrap_or_default();
    let Some(text) = schema_text(name) else {
        return Err(CliError::Usage(format!(
            "json-schema {name}: no JSON schema; the commands with JSON are {}",
            COMMANDS.join(", ")
        )));
    };
    out.emit_as(Kind::Exact, &text);
    Ok(0)
}

/// Writes the manual page of the program, or of one of its commands
/// (`innodb-inspect-records(1)`, as git names its commands' pages).
pub fn man(name: Option<&str>, out: &mut Output) -> Result<u8, CliError> {
    let program = Cli::command();
    let command = match name {
        None => program,
        Some(name) => {
            let Some(sub) = program.find_subcommand(name) else {
                let names: Vec<&str> = program.get_subcommands().map(|s| s.get_name()).collect();
                return Err(CliError::Usage(format!(
                    "man {name}: no such command; the commands are {}",
                    names.join(", ")
                )));
            };
            // Global options belong to the program's page; each command's
            // page lists its own.
            let page_name = format!("innodb-inspect-{}", sub.get_name());
            sub.clone()
                .name(page_name)
                .version(program.get_version().unwrap_or_default().to_string())
        }
    };
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut page)
        .map_err(|e| CliError::Usage(format!("cannot make the manual page: {e}")))?;
    out.emit_as(Kind::Exact, &String::from_utf8_lossy(&page));
    Ok(0)
}

//! What a shell and `man` get: `completions SHELL` and `man [COMMAND]`,
//! made from the argument definitions; checked against those definitions
//! (every command and every long option is in them) and, for bash, by bash
//! itself.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;
use clap::CommandFactory;
use innodb_inspect::Cli;

fn stdout_of(args: &[&str]) -> String {
    let out = support::run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Every shell's script names every command; bash's parses (`bash -n`) and,
/// sourced, completes `innodb-inspect rec` to `records`.
#[test]
fn completions_name_every_command_and_bash_completes() {
    let program = Cli::command();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout_of(&["completions", shell]);
        for sub in program.get_subcommands() {
            assert!(
                script.contains(sub.get_name()),
                "{shell}: {}",
                sub.get_name()
            );
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("innodb-inspect.bash");
    std::fs::write(&file, stdout_of(&["completions", "bash"])).unwrap();
    let check = std::process::Command::new("bash")
        .arg("-n")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let probe = format!(
        "source {}; COMP_WORDS=(innodb-inspect rec); COMP_CWORD=1; _innodb__inspect innodb-inspect rec innodb-inspect; echo \"${{COMPREPLY[@]}}\"",
        file.display()
    );
    let run = std::process::Command::new("bash")
        .arg("-c")
        .arg(&probe)
        .output()
        .unwrap();
    let got = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        got.trim(),
        "records",
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// `man` is a roff page listing every command; `man COMMAND` is that
/// command's page with each of its long options; an unknown command is
/// refused (exit 2) with the list of commands.
#[test]
fn man_pages_list_every_command_and_option() {
    let program = Cli::command();
    let page = stdout_of(&["man"]);
    assert!(page.contains(".TH innodb-inspect 1"), "{page}");
    for sub in program.get_subcommands() {
        let name = sub.get_name();
        assert!(
            page.contains(&name.replace('-', "\\-")),
            "program page lacks {name}"
        );
        let sub_page = stdout_of(&["man", name]);
        assert!(
            sub_page.contains(&format!(".TH innodb-inspect-{name} 1")),
            "{name}"
        );
        for arg in sub.get_arguments() {
            if let Some(long) = arg.get_long() {
                let roff = format!("\\-\\-{}", long.replace('-', "\\-"));
                assert!(sub_page.contains(&roff), "man {name} lacks --{long}");
            }
        }
    }
    let bad = support::run(["man", "recordz"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("records"));
}

/// `--help` at 80 columns: no line wider than the screen (words wrapped,
/// not cut), the options every command takes apart under their own
/// heading after the command's own, and the program's help ends with
/// examples.
#[test]
fn help_fits_80_columns_and_keeps_global_options_apart() {
    let help = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_innodb-inspect"))
            .args(args)
            .env("COLUMNS", "80")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let program = Cli::command();
    for sub in program.get_subcommands() {
        let text = help(&[sub.get_name(), "--help"]);
        for line in text.lines() {
            assert!(
                line.chars().count() <= 80,
                "{} --help: {line:?}",
                sub.get_name()
            );
        }
        let global = text.find("Global options (any command):").unwrap();
        assert!(text[global..].contains("--format"), "{}", sub.get_name());
        if let Some(own) = text.find("Options:") {
            assert!(own < global, "{}", sub.get_name());
        }
    }
    let top = help(&["--help"]);
    assert!(top.contains("Examples:\n  innodb-inspect summary"), "{top}");
}

//! `weft`: the layout inspector. One file per subcommand; `convert` and `bank-conflicts` plug in the same way.
//!
//! Every failure prints one line, `weft: <what is wrong>`, on stderr and exits with status 2.

mod algebra;
mod bank_conflicts;
mod convert;
mod layout;
mod render;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The weft layout inspector: linear layouts of Triton / Gluon encodings, and layout algebra on JSON.
#[derive(Parser, Debug)]
#[command(name = "weft", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The linear layout of a layout attribute (TTGIR or Gluon text), or of every alias in a TTGIR file.
    Layout(layout::Args),
    /// Layout algebra on JSON layouts (inline, or @file).
    Algebra(algebra::Args),
    /// The plan (and cost) of converting a tensor from one distributed layout to another.
    Convert(convert::Args),
    /// Bank conflicts of storing a register layout to a shared layout (Gluon's `gl.bank_conflicts`).
    BankConflicts(bank_conflicts::Args),
}

/// A failure to report: one line, exit status 2.
pub(crate) struct Failure(pub(crate) String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure(e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                print!("{e}");
                return ExitCode::SUCCESS;
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                eprint!("{e}");
                return ExitCode::from(2);
            }
            let text = e.to_string();
            let line = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("bad arguments")
                .trim_start_matches("error: ");
            eprintln!("weft: {line}");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Layout(a) => layout::run(a),
        Command::Algebra(a) => algebra::run(a),
        Command::Convert(a) => convert::run(a),
        Command::BankConflicts(a) => bank_conflicts::run(a),
    };
    match result {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(Failure(msg)) => {
            eprintln!("weft: {}", msg.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

/// Reads `@file` arguments; other text is returned as is.
pub(crate) fn read_arg(text: &str) -> Result<String, Failure> {
    match text.strip_prefix('@') {
        Some(path) => {
            std::fs::read_to_string(path).map_err(|e| Failure(format!("cannot read `{path}`: {e}")))
        }
        None => Ok(text.to_string()),
    }
}

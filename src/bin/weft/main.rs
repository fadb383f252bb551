//! `weft`: the layout inspector. One file per subcommand; `convert`, `bank-conflicts` and `report` plug in the same way.
//!
//! Every failure prints one line, `weft: <what is wrong>`, on stderr and exits with status 2.

#![forbid(unsafe_code)]

mod algebra;
mod bank_conflicts;
mod convert;
mod layout;
mod report;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use weft::layout::text::{excerpt, excerpt_with, EXCERPT_CHARS};

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
    /// What the builder predicts for a ready-made kernel: vector widths, shared accesses and bank
    /// conflicts, conversion plans, shuffles, scratch, barriers (feature `llvm`).
    Report(report::Args),
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
                eprintln!("weft: give a subcommand (layout, algebra, convert, bank-conflicts, report); see `weft --help`");
                return ExitCode::from(2);
            }
            eprintln!("weft: {}", one_line(&clap_message(&e.to_string())));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Layout(a) => {
            // Streamed: a long listing is written as it is made, never held whole.
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            layout::run(a, &mut out)
                .and_then(|()| {
                    out.flush()
                        .map_err(|e| Failure(format!("cannot write the output: {e}")))
                })
                .map(|()| String::new())
        }
        Command::Algebra(a) => algebra::run(a),
        Command::Convert(a) => convert::run(a),
        Command::BankConflicts(a) => bank_conflicts::run(a),
        Command::Report(a) => report::run(a),
    };
    match result {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(Failure(msg)) => {
            eprintln!("weft: {}", one_line(&msg));
            ExitCode::from(2)
        }
    }
}

/// The message of a clap error without its usage and help lines: clap writes the arguments a rule names
/// on their own lines (`the following required arguments were not provided:` then `  <DST>`), so every
/// line before `Usage:` is kept.
fn clap_message(text: &str) -> String {
    text.lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches("error: ")
        .to_string()
}

/// An error message as one line: line breaks become spaces, control characters are escaped, and a word
/// longer than twice [`EXCERPT_CHARS`] is cut (the library already cuts the tokens it quotes to
/// `EXCERPT_CHARS`), so no input makes the line long or puts control characters on the terminal.
fn one_line(msg: &str) -> String {
    msg.split([' ', '\n', '\r'])
        .filter(|w| !w.is_empty())
        .map(|w| excerpt_with(w, 2 * EXCERPT_CHARS))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The largest `@file` (and `--from-ttgir` file) read: 16 MiB.
pub(crate) const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a file of at most [`MAX_FILE_BYTES`], through `take` so that a larger one (or `/dev/zero`) is
/// never read whole.
pub(crate) fn read_file(path: &str) -> Result<String, Failure> {
    use std::io::Read;
    let shown = excerpt(path);
    let f =
        std::fs::File::open(path).map_err(|e| Failure(format!("cannot read `{shown}`: {e}")))?;
    let mut bytes = Vec::new();
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure(format!("cannot read `{shown}`: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Failure(format!(
            "`{shown}` is larger than {} MiB, the most weft reads",
            MAX_FILE_BYTES >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|_| Failure(format!("`{shown}` is not UTF-8 text")))
}

/// Reads `@file` arguments; other text is returned as is.
pub(crate) fn read_arg(text: &str) -> Result<String, Failure> {
    match text.strip_prefix('@') {
        Some(path) => read_file(path),
        None => Ok(text.to_string()),
    }
}

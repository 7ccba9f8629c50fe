//! The commands of `spot-the-ships`: the judge (default), `generate`, and the tools built
//! around it. Each command reads its flags and streams, calls the library, and returns
//! a typed error that `main` prints as one `error: ` line with exit status 2.

mod advise;
pub mod args;
mod generate;
mod judge;
mod play;
mod simulate;
mod trace;

use crate::input::InputError;
use crate::placement::PlacementError;
use crate::scan::ScanError;
use std::fmt;
use std::io::{self, BufRead, Read, Write};

/// Largest input read from stdin, in bytes.
pub const MAX_INPUT: u64 = 1 << 30;

/// Everything a command can fail with.
#[derive(Debug)]
pub enum CliError {
    /// Bad command-line arguments.
    Usage(String),
    /// Bad judge input.
    Input(InputError),
    /// A fleet that cannot be placed.
    Placement(PlacementError),
    /// A scan that could not finish.
    Scan(ScanError),
    /// Any other bad input text (advise states, play answers), already worded.
    Invalid(String),
    /// Reading or writing failed.
    Io(io::Error),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Invalid(m) => write!(f, "{m}"),
            CliError::Input(e) => write!(f, "{e}"),
            CliError::Placement(e) => write!(f, "{e}"),
            CliError::Scan(e) => write!(f, "{e}"),
            CliError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CliError {}

impl From<InputError> for CliError {
    fn from(e: InputError) -> CliError {
        CliError::Input(e)
    }
}
impl From<PlacementError> for CliError {
    fn from(e: PlacementError) -> CliError {
        CliError::Placement(e)
    }
}
impl From<ScanError> for CliError {
    fn from(e: ScanError) -> CliError {
        CliError::Scan(e)
    }
}
impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Io(e)
    }
}

/// The process's streams, and whether each is a terminal.
pub struct Streams<'a> {
    /// Standard input.
    pub stdin: &'a mut dyn BufRead,
    /// Standard output (buffered by the caller).
    pub stdout: &'a mut dyn Write,
    /// Standard error.
    pub stderr: &'a mut dyn Write,
    /// True when stdin is a terminal.
    pub stdin_tty: bool,
    /// True when stdout is a terminal.
    pub stdout_tty: bool,
    /// True when stderr is a terminal.
    pub stderr_tty: bool,
}

/// Reads all of stdin, up to [`MAX_INPUT`] bytes.
/// Pre: none. Post: `Err` when reading fails or the input is larger than the limit.
pub fn read_all(stdin: &mut dyn BufRead) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    io::Read::take(stdin, MAX_INPUT + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(CliError::Invalid(format!("the input is larger than the limit of {MAX_INPUT} bytes")));
    }
    Ok(bytes)
}

const HELP: &str = "\
spot-the-ships: spot every ship cell of a bay with as few scans as possible

USAGE
  spot-the-ships [--seed S] < input.txt     solve a judge input (the default command)
  spot-the-ships generate ...               print a random valid judge input
  spot-the-ships simulate ...               compare strategies on many random boards
  spot-the-ships trace ... < input.txt      show a strategy thinking, step by step
  spot-the-ships advise ... < state.txt     likelihood and next cell for a real game
  spot-the-ships play --rows R --cols C ... play interactively (? r c / hit or miss)
  spot-the-ships --help | --version

The judge input is three lines: a strategy name; `rows cols n`; then n ships, each
`row col size E|S` (first cell, 1 to 5 cells, running East or South). Output: the
number of scans, then the final grid: + spotted ship, X water scanned or eliminated,
O ship never scanned, . water never scanned.

STRATEGIES
  linear   row by row, left to right
  smart    linear, but a hit eliminates its diagonals and scans its E and S next
  prob     the statement's likelihood matrix, plus a queue of a hit's neighbours
  random   a random order fixed by --seed (default 2021)
  parity   diagonal lattice for the longest ship afloat, then sink what was hit
  bayes    the cell most likely to be a ship given every answer and the fleet

Errors go to stderr as one line starting with `error: `, with exit status 2.
Run `spot-the-ships COMMAND --help` for a command's flags.
";

/// Runs the command named by `args` (without the program name).
/// Pre: none. Post: on `Ok`, the command's whole output was written to `io.stdout`; on
/// `Err`, nothing the judge computed was written.
pub fn run(args: &[String], io: &mut Streams<'_>) -> Result<(), CliError> {
    match args.first().map(String::as_str) {
        Some("generate") => generate::run(args.get(1..).unwrap_or_default(), io),
        Some("simulate") => simulate::run(args.get(1..).unwrap_or_default(), io),
        Some("trace") => trace::run(args.get(1..).unwrap_or_default(), io),
        Some("advise") => advise::run(args.get(1..).unwrap_or_default(), io),
        Some("play") => play::run(args.get(1..).unwrap_or_default(), io),
        Some("--help" | "-h" | "help") => {
            io.stdout.write_all(HELP.as_bytes())?;
            Ok(())
        }
        Some("--version" | "-V") => {
            writeln!(io.stdout, "spot-the-ships {}", env!("CARGO_PKG_VERSION"))?;
            Ok(())
        }
        _ => judge::run(args, io),
    }
}

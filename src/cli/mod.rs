//! The commands of `spot-the-ships`: the judge (default), `generate`, and the tools built
//! around it. Each command reads its flags and streams, calls the library, and returns
//! a typed error that `main` prints as one `error: ` line with exit status 2.

mod advise;
pub(crate) mod args;
mod check;
pub(crate) mod files;
mod game;
mod generate;
mod judge;
mod play;
mod referee;
mod simulate;
mod testset;
mod trace;

use crate::input::InputError;
use crate::placement::PlacementError;
use crate::scan::ScanError;
use std::fmt;
use std::fmt::Write as _;
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
    /// An error of the named command (its name is written once, before the error).
    In(&'static str, Box<CliError>),
    /// Not an error: the command has written its output and asks for this exit status
    /// (`check` exits with 1 when a case was not accepted). Nothing goes to stderr.
    Exit(u8),
}

impl CliError {
    /// True when the error is a write to a reader that went away (`| head`).
    /// Pre: none. Post: no change.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            CliError::Io(e) => e.kind() == io::ErrorKind::BrokenPipe,
            CliError::In(_, e) => e.is_broken_pipe(),
            _ => false,
        }
    }

    /// The error as an error of `command` (nothing is added for the judge, whose name
    /// is empty, or when the error already names a command).
    /// Pre: none. Post: displays as `command: error`.
    pub fn of(self, command: &'static str) -> CliError {
        match self {
            CliError::In(..) | CliError::Exit(_) => self,
            e if command.is_empty() => e,
            e => CliError::In(command, Box::new(e)),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Invalid(m) => write!(f, "{m}"),
            CliError::Input(e) => write!(f, "{e}"),
            CliError::Placement(e) => write!(f, "{e}"),
            CliError::Scan(e) => write!(f, "{e}"),
            CliError::Io(e) => write!(f, "{e}"),
            CliError::In(command, e) => write!(f, "{command}: {e}"),
            CliError::Exit(_) => Ok(()),
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
    read_limited(stdin, "the input", MAX_INPUT)
}

/// Reads all of `from` (named `what` in errors), up to `limit` bytes.
fn read_limited(from: &mut dyn Read, what: &str, limit: u64) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    io::Read::take(from, limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::Invalid(format!("reading {what}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(CliError::Invalid(format!("{what} is larger than the limit of {limit} bytes")));
    }
    Ok(bytes)
}

/// Reads the command's input: the file named by its operand, or standard input when
/// there is none or it is `-`. At a terminal with nothing piped in, says on stderr that
/// it is waiting (`hint`: how to get help).
/// Pre: none. Post: `Err` naming the file when it cannot be read.
pub(crate) fn read_input(p: &args::Parsed, io: &mut Streams<'_>, hint: &str) -> Result<Vec<u8>, CliError> {
    match p.operands().first().map(String::as_str) {
        Some(path) if path != "-" => {
            let mut file =
                std::fs::File::open(path).map_err(|e| CliError::Invalid(format!("cannot open `{path}`: {e}")))?;
            read_limited(&mut file, &format!("`{path}`"), MAX_INPUT)
        }
        _ => {
            if io.stdin_tty {
                writeln!(io.stderr, "reading the input from the terminal (end it with Ctrl-D; {hint})")?;
                io.stderr.flush()?;
            }
            read_all(io.stdin)
        }
    }
}

/// Opens the command's input as a stream: the file named by its operand, or standard
/// input when there is none or it is `-`. At a terminal with nothing piped in, says on
/// stderr that it is waiting (`hint`: how to get help).
/// Pre: none. Post: `Err` naming the file when it cannot be opened.
pub(crate) fn open_input<'a>(
    p: &args::Parsed,
    stdin: &'a mut dyn BufRead,
    stderr: &mut dyn Write,
    stdin_tty: bool,
    hint: &str,
) -> Result<Box<dyn BufRead + 'a>, CliError> {
    match p.operands().first().map(String::as_str) {
        Some(path) if path != "-" => {
            let file =
                std::fs::File::open(path).map_err(|e| CliError::Invalid(format!("cannot open `{path}`: {e}")))?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(CliError::Invalid(format!("cannot read `{path}`: it is a directory")));
            }
            Ok(Box::new(io::BufReader::with_capacity(1 << 16, file)))
        }
        _ => {
            if stdin_tty {
                writeln!(stderr, "reading the input from the terminal (end it with Ctrl-D; {hint})")?;
                stderr.flush()?;
            }
            Ok(Box::new(stdin))
        }
    }
}

/// `part` of `whole` in percent with one decimal, never shown as 100.0 or 0.0 unless
/// it is exactly that (99.96% shows 99.9, 0.04% shows 0.1).
/// Pre: none. Post: `0.0` for an empty whole.
pub(crate) fn percent(part: u64, whole: u64) -> String {
    if whole == 0 || part == 0 {
        return "0.0".into();
    }
    if part >= whole {
        return "100.0".into();
    }
    let tenths = (1000.0 * part as f64 / whole as f64).round().clamp(1.0, 999.0);
    format!("{:.1}", tenths / 10.0)
}

/// A command and the function that runs it once its arguments are read.
struct Entry {
    spec: &'static args::Command,
    run: fn(&args::Parsed, &mut Streams<'_>) -> Result<(), CliError>,
}

/// Every command but the judge, in the order the help lists them.
const COMMANDS: [Entry; 8] = [
    Entry { spec: &generate::COMMAND, run: generate::run },
    Entry { spec: &simulate::COMMAND, run: simulate::run },
    Entry { spec: &trace::COMMAND, run: trace::run },
    Entry { spec: &advise::COMMAND, run: advise::run },
    Entry { spec: &play::COMMAND, run: play::run },
    Entry { spec: &referee::COMMAND, run: referee::run },
    Entry { spec: &check::COMMAND, run: check::run },
    Entry { spec: &testset::COMMAND, run: testset::run },
];

/// The names of the commands.
fn command_names() -> Vec<&'static str> {
    COMMANDS.iter().map(|c| c.spec.name).collect()
}

/// The top-level help: the judge's own help, then the commands.
fn top_help() -> String {
    let mut out = judge::COMMAND.help();
    out.push_str("\nCOMMANDS\n");
    let width = COMMANDS.iter().map(|c| c.spec.name.len()).max().unwrap_or(0);
    for c in &COMMANDS {
        let _ = writeln!(out, "  {:<width$}  {}", c.spec.name, c.spec.summary);
    }
    out.push_str(
        "  help CMD  print a command's help (also: spot-the-ships CMD --help)\n\n\
         Errors go to stderr as one line starting with `error: `, with exit status 2\n\
         (check exits with 1 when a case was not accepted).\n",
    );
    out
}

/// Runs the command named by `args` (without the program name).
/// Pre: none. Post: on `Ok`, the command's whole output was written to `io.stdout`; on
/// `Err`, nothing the judge computed was written, and the error names the command.
pub fn run(args: &[String], io: &mut Streams<'_>) -> Result<(), CliError> {
    let rest = args.get(1..).unwrap_or_default();
    match args.first().map(String::as_str) {
        Some("--version" | "-V") => {
            writeln!(io.stdout, "spot-the-ships {}", env!("CARGO_PKG_VERSION"))?;
            Ok(())
        }
        Some("help") => help(rest, io),
        Some("simulate") if rest.first().is_some_and(|a| a == "merge") => {
            dispatch(&simulate::MERGE_COMMAND, simulate::run_merge, rest.get(1..).unwrap_or_default(), io)
        }
        Some(name) => match COMMANDS.iter().find(|c| c.spec.name == name) {
            Some(entry) => dispatch(entry.spec, entry.run, rest, io),
            None => {
                // Not a command: a flag or the judge's input file, unless it looks like a
                // mistyped command and no such file exists.
                let is_file = std::path::Path::new(name).exists() || name == "-";
                if !name.starts_with('-') && !is_file {
                    if let Some(n) = args::nearest(name, &command_names()) {
                        return Err(CliError::Usage(format!(
                            "unknown command `{name}`; did you mean `{n}`? commands: {} (or a judge input file)",
                            command_names().join(", ")
                        )));
                    }
                }
                if name == "--help" || name == "-h" {
                    io.stdout.write_all(top_help().as_bytes())?;
                    return Ok(());
                }
                dispatch(&judge::COMMAND, judge::run, args, io)
            }
        },
        None => dispatch(&judge::COMMAND, judge::run, args, io),
    }
}

/// `help` and `help COMMAND`.
fn help(rest: &[String], io: &mut Streams<'_>) -> Result<(), CliError> {
    let text = match rest {
        [] => top_help(),
        [simulate, merge] if simulate == "simulate" && merge == "merge" => simulate::MERGE_COMMAND.help(),
        [name] => match COMMANDS.iter().find(|c| c.spec.name == name.as_str()) {
            Some(entry) => entry.spec.help(),
            None if name == "judge" => top_help(),
            None => {
                let hint =
                    args::nearest(name, &command_names()).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                return Err(CliError::Usage(format!(
                    "help: unknown command `{name}`; {hint}commands: {}",
                    command_names().join(", ")
                )));
            }
        },
        _ => return Err(CliError::Usage("help: give one command name, e.g. `help simulate`".into())),
    };
    io.stdout.write_all(text.as_bytes())?;
    Ok(())
}

/// Parses `args` for `spec` and runs it (or prints its help).
fn dispatch(
    spec: &'static args::Command,
    run: fn(&args::Parsed, &mut Streams<'_>) -> Result<(), CliError>,
    args: &[String],
    io: &mut Streams<'_>,
) -> Result<(), CliError> {
    let result = spec.parse(args).and_then(|parsed| {
        if parsed.wants_help() {
            let text = if spec.name.is_empty() { top_help() } else { spec.help() };
            io.stdout.write_all(text.as_bytes())?;
            return Ok(());
        }
        run(&parsed, io)
    });
    result.map_err(|e| e.of(spec.name))
}

/// Where each ship of a named or drawn fleet is, once every ship cell is found: one line
/// per ship, `NAME at (r,c)` (the top-left corner of its drawing's box) when the answers
/// leave one place, `NAME: N possible places` when ships that touch leave several.
/// Empty for a fleet given as straight sizes (Problem G's output does not change).
/// Pre: `record` is a finished scan under `rules`. Post: lines ending in `\n`.
pub(crate) fn ship_lines(record: &crate::record::ScanRecord, rules: &crate::rules::Rules) -> String {
    use crate::posterior::{grid_of, locate, Evidence};
    let fleet = rules.fleet();
    if !fleet.is_named() && fleet.is_straight() {
        return String::new();
    }
    let grid = grid_of(record);
    let ev =
        Evidence { rows: record.rows(), cols: record.cols(), grid: &grid, log: record.answers(), wrecks: &[], rules };
    let places = locate(&ev, 2_000_000);
    let mut out = String::new();
    for (k, kind) in fleet.kinds().iter().enumerate() {
        let list = match &places {
            Ok(Some(all)) => all.get(k).cloned().unwrap_or_default(),
            _ => {
                let _ = writeln!(out, "{}: too many possible places to list", kind.name);
                continue;
            }
        };
        if list.len() == kind.count {
            for ship in &list {
                let _ = writeln!(out, "{} at {}", kind.name, ship.start);
            }
        } else {
            let _ = writeln!(out, "{}: {} possible places", kind.name, list.len());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::percent;

    #[test]
    fn percentages_are_exact_at_the_ends_only() {
        assert_eq!(percent(0, 10), "0.0");
        assert_eq!(percent(10, 10), "100.0");
        assert_eq!(percent(9996, 10_000), "99.9");
        assert_eq!(percent(4, 10_000), "0.1");
        assert_eq!(percent(1, 3), "33.3");
        assert_eq!(percent(1, 0), "0.0");
    }
}

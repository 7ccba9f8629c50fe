//! The commands of `spot-the-ships`: the judge (default), `generate`, and the tools built
//! around it. Each command reads its arguments once into a typed config (`JudgeConfig`,
//! `SimulateConfig`, ...: fields, not flag names) by one function, then its streams,
//! calls the library, and returns a typed error that `main` prints as one `error: ` line
//! with exit status 2. The flags several commands share are defined once, with their
//! defaults: `--seed`, `--strategy`, `--format`, `--coords` and `--color` in `shared`,
//! the bay and the rules in `game`.

pub(crate) mod advise;
mod check;
pub(crate) mod game;
mod generate;
mod judge;
mod play;
pub(crate) mod referee;
mod serve;
pub(crate) mod shared;
mod simulate;
mod testset;
mod topics;
mod trace;

use crate::args::{self, ArgsError};
use crate::game::board::BoardError;
use crate::game::input::InputError;
use crate::game::placement::PlacementError;
use crate::render::words;
use crate::scan::state::StateError;
use crate::scan::ScanError;
use crate::strategy::StrategyError;
use crate::tools::advise::AdviceError;
use crate::tools::files::FileError;
use crate::tools::grading::error::GradingError;
use crate::tools::grading::session::CheckError;
use crate::tools::play::referee::RefereeRunError;
use crate::tools::play::session::PlayError;
use crate::tools::settings::SettingError;
use crate::tools::simulate::setup::SimulateError;
pub(crate) use crate::tools::streams::open_input;
pub use crate::tools::streams::stream_error;
use crate::tools::trace::TraceError;
use std::fmt;
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};

/// Declares [`CliError`]: the variants that wrap a typed error (each displays as its
/// error, has it as its `source()`, and is made from it by `?`), then the others.
macro_rules! cli_error {
    ($($(#[$doc:meta])* $variant:ident($ty:ty),)*) => {
        /// Everything a command can fail with: each command's typed error, or a
        /// shared one, wrapped; turned into the one `error: ` line by [`error_line`].
        #[derive(Debug)]
        pub enum CliError {
            $($(#[$doc])* $variant($ty),)*
            /// Bad command-line arguments, already worded.
            Usage(String),
            /// Any other failure, already worded.
            Invalid(String),
            /// `--version` followed by another word.
            VersionExtra(String),
            /// A word that is no command and no file, close to a command's name.
            UnknownCommand(String),
            /// `help` of a name that is no command or topic.
            UnknownTopic(String),
            /// `help` with more than one name.
            HelpWords,
            /// The value of the named flag led to the error (the flag is written before it).
            Flag(&'static str, Box<CliError>),
            /// An error of the named command (its name is written once, before the error).
            In(&'static str, Box<CliError>),
        }

        impl CliError {
            /// The typed error this one wraps; `None` for the others.
            fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
                match self {
                    $(CliError::$variant(e) => Some(e),)*
                    _ => None,
                }
            }
        }

        $(impl From<$ty> for CliError {
            fn from(e: $ty) -> CliError {
                CliError::$variant(e)
            }
        })*
    };
}

cli_error! {
    /// Arguments that do not fit the command's flags, or a flag's bad value.
    Args(ArgsError),
    /// Bad judge input.
    Input(InputError),
    /// A fleet that cannot be placed.
    Placement(PlacementError),
    /// A scan that could not finish.
    Scan(ScanError),
    /// A strategy that cannot play these rules.
    Strategy(StrategyError),
    /// A bay a board cannot have.
    Board(BoardError),
    /// Reading or writing failed.
    Io(io::Error),
    /// `play`'s game could not be played.
    Play(PlayError),
    /// `referee` could not hide its bay or answer to the end.
    Referee(RefereeRunError),
    /// `simulate`'s settings, run or merge failed.
    Simulate(SimulateError),
    /// `trace` could not write its trace.
    Trace(TraceError),
    /// `advise` gave no advice.
    Advise(AdviceError),
    /// A game's state (`advise`'s grid) that does not read.
    State(StateError),
    /// `check` could not run.
    Check(CheckError),
    /// The grading kit's file and case work failed.
    Grading(GradingError),
    /// A file besides the output (`simulate --svg`) that cannot be written.
    File(FileError),
}

/// How a command that ran to its end came out: its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Done (exit status 0).
    Success,
    /// Done, and the answer is no: `check` found a case its program failed (exit 1).
    Rejected,
    /// The work was done by a worker process (`check`'s, which cleans up even after
    /// SIGKILL): its exit status, already reported on the streams they share.
    Worker(u8),
}

impl Status {
    /// The process exit status: 0 or 1 (2 is an error's), or the worker's.
    /// Pre: none. Post: no change.
    pub fn code(self) -> u8 {
        match self {
            Status::Success => 0,
            Status::Rejected => 1,
            Status::Worker(code) => code,
        }
    }
}

impl CliError {
    /// True when the error is a write to a reader that went away (`| head`), however
    /// deep it is wrapped: `main` stops quietly with status 0 on it, for every command.
    /// Pre: none. Post: no change.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            CliError::Io(e) => e.kind() == io::ErrorKind::BrokenPipe,
            CliError::Flag(_, e) | CliError::In(_, e) => e.is_broken_pipe(),
            CliError::Play(e) => e.is_broken_pipe(),
            CliError::Referee(e) => e.is_broken_pipe(),
            CliError::Trace(e) => e.is_broken_pipe(),
            CliError::Scan(ScanError::Probe(crate::scan::sonar::ProbeError::ReaderGone(_))) => true,
            _ => false,
        }
    }

    /// The error as an error of `command` (nothing is added for the judge, whose name
    /// is empty, or when the error already names a command).
    /// Pre: none. Post: displays as `command: error`.
    pub fn of(self, command: &'static str) -> CliError {
        match self {
            CliError::In(..) => self,
            e if command.is_empty() => e,
            e => CliError::In(command, Box::new(e)),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Invalid(m) => write!(f, "{m}"),
            CliError::Flag(name, e) | CliError::In(name, e) => write!(f, "{name}: {e}"),
            CliError::VersionExtra(word) => {
                write!(f, "--version takes nothing after it, got `{}`", words::shown(word.as_bytes()))
            }
            CliError::UnknownCommand(name) => {
                let (hint, commands) = (words::did_you_mean(name, &command_names()), command_names().join(", "));
                write!(f, "unknown command `{name}`; {hint}commands: {commands} (or a judge input file)")
            }
            CliError::UnknownTopic(name) => {
                let (hint, commands) = (words::did_you_mean(name, &help_names()), command_names().join(", "));
                let topics = topics::TOPICS.iter().map(|t| t.name).collect::<Vec<_>>().join(", ");
                write!(f, "help: unknown command or topic `{name}`; {hint}commands: {commands}; topics: {topics}")
            }
            CliError::HelpWords => write!(f, "help: give one command name, e.g. `help simulate`"),
            e => match e.wrapped() {
                Some(inner) => write!(f, "{inner}"),
                None => Ok(()),
            },
        }
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CliError::Flag(_, e) | CliError::In(_, e) => Some(e.as_ref()),
            e => e.wrapped(),
        }
    }
}

/// The line `main` prints for `e`: `error: ` and the message, its control characters
/// escaped ([`crate::render::words::escaped`]), so that user text quoted in it (an argument, a
/// file or ship name) can neither split the line nor drive the terminal.
/// Pre: none. Post: one line, without its `\n`.
pub fn error_line(e: &CliError) -> String {
    format!("error: {}", crate::render::words::escaped(&e.to_string()))
}

impl From<SettingError> for CliError {
    fn from(e: SettingError) -> CliError {
        CliError::Args(ArgsError::Setting(e))
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

/// A command's run: its arguments read, its streams; its status or its error.
type Run = fn(&args::Parsed, &mut Streams<'_>) -> Result<Status, CliError>;

/// A command and the function that runs it once its arguments are read.
struct Entry {
    spec: &'static args::Command,
    run: Run,
}

/// Every command but the judge, in the order the help lists them.
const COMMANDS: [Entry; 9] = [
    Entry { spec: &generate::COMMAND, run: |p, io| generate::run(p, io).map(|()| Status::Success) },
    Entry { spec: &simulate::COMMAND, run: |p, io| simulate::run(p, io).map(|()| Status::Success) },
    Entry { spec: &trace::COMMAND, run: |p, io| trace::run(p, io).map(|()| Status::Success) },
    Entry { spec: &advise::COMMAND, run: |p, io| advise::run(p, io).map(|()| Status::Success) },
    Entry { spec: &play::COMMAND, run: |p, io| play::run(p, io).map(|()| Status::Success) },
    Entry { spec: &referee::COMMAND, run: |p, io| referee::run(p, io).map(|()| Status::Success) },
    Entry { spec: &serve::COMMAND, run: |p, io| serve::run(p, io).map(|()| Status::Success) },
    Entry { spec: &check::COMMAND, run: check::run },
    Entry { spec: &testset::COMMAND, run: |p, io| testset::run(p, io).map(|()| Status::Success) },
];

/// The judge's run.
const JUDGE: Run = |p, io| judge::run(p, io).map(|()| Status::Success);

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
    out.push_str("  help CMD  print a command's help (also: spot-the-ships CMD --help)\n\n");
    let topics: Vec<String> = topics::TOPICS.iter().map(|t| format!("`help {}`", t.name)).collect();
    let _ = writeln!(out, "TOPICS: {}", topics.join(", "));
    out.push_str(
        "\n--version (or -V) prints the version. Errors: one `error: ` line, exit status 2\n\
         (check: 1 if a case failed). More: report/spec.md, README in the repository.\n",
    );
    out
}

/// The names `help` takes: the commands, then the topics.
fn help_names() -> Vec<&'static str> {
    let mut names = command_names();
    names.extend(topics::TOPICS.iter().map(|t| t.name));
    names
}

/// Runs the command named by `args` (without the program name).
/// Pre: none. Post: on `Ok`, the command's whole output was written to `io.stdout`; on
/// `Err`, nothing the judge computed was written, and the error names the command.
pub fn run(args: &[String], io: &mut Streams<'_>) -> Result<Status, CliError> {
    use crate::tools::streams::{NamedReader, NamedWriter};
    let mut stdin = NamedReader { inner: Box::new(&mut *io.stdin), what: "reading standard input".into() };
    let mut stdout = NamedWriter { inner: &mut *io.stdout, what: "writing standard output" };
    let mut stderr = NamedWriter { inner: &mut *io.stderr, what: "writing standard error" };
    let mut named = Streams {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
        stdin_tty: io.stdin_tty,
        stdout_tty: io.stdout_tty,
        stderr_tty: io.stderr_tty,
    };
    run_named(args, &mut named)
}

/// [`run`] with streams whose errors name them.
fn run_named(args: &[String], io: &mut Streams<'_>) -> Result<Status, CliError> {
    let rest = args.get(1..).unwrap_or_default();
    match args.first().map(String::as_str) {
        Some("--version" | "-V") => {
            if let Some(extra) = rest.first() {
                return Err(CliError::VersionExtra(extra.clone()));
            }
            writeln!(io.stdout, "spot-the-ships {}", env!("CARGO_PKG_VERSION"))?;
            Ok(Status::Success)
        }
        Some("help") => help(rest, io).map(|()| Status::Success),
        Some("simulate") if rest.first().is_some_and(|a| a == "merge") => dispatch(
            &simulate::MERGE_COMMAND,
            |p, io| simulate::run_merge(p, io).map(|()| Status::Success),
            rest.get(1..).unwrap_or_default(),
            io,
        ),
        Some(name) => match COMMANDS.iter().find(|c| c.spec.name == name) {
            Some(entry) => dispatch(entry.spec, entry.run, rest, io),
            None => {
                // Not a command: a flag or the judge's input file, unless it looks like a
                // mistyped command and no such file exists.
                let is_file = std::path::Path::new(name).exists() || name == "-";
                if !name.starts_with('-') && !is_file && !words::did_you_mean(name, &command_names()).is_empty() {
                    return Err(CliError::UnknownCommand(name.to_string()));
                }
                if name == "--help" || name == "-h" {
                    io.stdout.write_all(top_help().as_bytes())?;
                    return Ok(Status::Success);
                }
                dispatch(&judge::COMMAND, JUDGE, args, io)
            }
        },
        None => dispatch(&judge::COMMAND, JUDGE, args, io),
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
            None => match topics::TOPICS.iter().find(|t| t.name == name.as_str()) {
                Some(topic) => {
                    let mut text = (topic.text)();
                    let _ = writeln!(text, "\nMore: {} in the project's repository.", topic.document);
                    text
                }
                None => return Err(CliError::UnknownTopic(name.to_string())),
            },
        },
        _ => return Err(CliError::HelpWords),
    };
    io.stdout.write_all(text.as_bytes())?;
    Ok(())
}

/// Parses `args` for `spec` and runs it (or prints its help).
fn dispatch(spec: &'static args::Command, run: Run, args: &[String], io: &mut Streams<'_>) -> Result<Status, CliError> {
    let result = spec.parse(args).map_err(CliError::from).and_then(|parsed| {
        if parsed.wants_help() {
            let text = if spec.name.is_empty() { top_help() } else { spec.help() };
            io.stdout.write_all(text.as_bytes())?;
            return Ok(Status::Success);
        }
        run(&parsed, io)
    });
    result.map_err(|e| e.of(spec.name))
}

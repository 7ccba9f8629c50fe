//! The commands of `spot-the-ships`: the judge (default), `generate`, and the tools built
//! around it. Each command reads its arguments once into a typed config (`JudgeConfig`,
//! `SimulateConfig`, ...: fields, not flag names) by one function, then its streams,
//! calls the library, and returns a typed error that `main` prints as one `error: ` line
//! with exit status 2. The flags several commands share are defined once, with their
//! defaults: `--seed`, `--strategy`, `--format`, `--coords` and `--color` in `shared`,
//! the bay and the rules in `game`.

pub(crate) mod advise;
pub(crate) mod args;
mod check;
pub(crate) mod files;
pub(crate) mod game;
mod generate;
mod judge;
mod play;
mod play_url;
pub(crate) mod referee;
mod serve;
pub(crate) mod shared;
mod simulate;
mod testset;
mod topics;
mod trace;

use crate::game::input::InputError;
use crate::game::placement::PlacementError;
use crate::scan::ScanError;
use crate::tools::grading::error::GradingError;
use std::fmt;
use std::fmt::Write as _;
use std::io::{self, BufRead, Read, Write};

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
    /// The grading kit's file and case work failed.
    Grading(GradingError),
    /// The value of the named flag led to the error (the flag is written before it).
    Flag(&'static str, Box<CliError>),
    /// An error of the named command (its name is written once, before the error).
    In(&'static str, Box<CliError>),
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
            CliError::Input(e) => write!(f, "{e}"),
            CliError::Placement(e) => write!(f, "{e}"),
            CliError::Scan(e) => write!(f, "{e}"),
            CliError::Io(e) => write!(f, "{e}"),
            CliError::Grading(e) => write!(f, "{e}"),
            CliError::Flag(name, e) | CliError::In(name, e) => write!(f, "{name}: {e}"),
        }
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CliError::Usage(_) | CliError::Invalid(_) => None,
            CliError::Input(e) => Some(e),
            CliError::Placement(e) => Some(e),
            CliError::Scan(e) => Some(e),
            CliError::Io(e) => Some(e),
            CliError::Grading(e) => Some(e),
            CliError::Flag(_, e) | CliError::In(_, e) => Some(e.as_ref()),
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
impl From<crate::tools::settings::SettingError> for CliError {
    fn from(e: crate::tools::settings::SettingError) -> CliError {
        CliError::Usage(e.0)
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

/// `e` as an error of the stream `what` (`reading standard input`, `writing standard
/// output`, ``reading `FILE` ``): its kind kept, its message prefixed, without the
/// `(os error N)` tail. Pre: none. Post: displays as `what: message`.
pub fn stream_error(what: &str, e: io::Error) -> io::Error {
    let text = e.to_string();
    let text = match text.rfind(" (os error ") {
        Some(k) if text.ends_with(')') => text.get(..k).unwrap_or(&text).to_string(),
        _ => text,
    };
    io::Error::new(e.kind(), format!("{what}: {text}"))
}

/// A writer whose errors name it ([`stream_error`]).
struct NamedWriter<'a> {
    inner: &'a mut dyn Write,
    what: &'static str,
}

impl Write for NamedWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(|e| stream_error(self.what, e))
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf).map_err(|e| stream_error(self.what, e))
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|e| stream_error(self.what, e))
    }
}

/// A reader whose errors name it ([`stream_error`]).
struct NamedReader<'a> {
    inner: Box<dyn BufRead + 'a>,
    what: String,
}

impl Read for NamedReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                e
            } else {
                stream_error(&self.what, e)
            }
        })
    }
}

impl BufRead for NamedReader<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let what = &self.what;
        self.inner
            .fill_buf()
            .map_err(|e| if e.kind() == io::ErrorKind::Interrupted { e } else { stream_error(what, e) })
    }
    fn consume(&mut self, n: usize) {
        self.inner.consume(n)
    }
}

/// Opens the command's input as a stream: the file `path` (its operand), or standard
/// input when there is none or it is `-`. At a terminal with nothing piped in, says on
/// stderr that it is waiting (`hint`: how to get help).
/// Pre: none. Post: `Err` naming the file when it cannot be opened.
pub(crate) fn open_input<'a>(
    path: Option<&str>,
    stdin: &'a mut dyn BufRead,
    stderr: &mut dyn Write,
    stdin_tty: bool,
    hint: &str,
) -> Result<Box<dyn BufRead + 'a>, CliError> {
    match path {
        Some(path) if path != "-" => {
            let file = std::fs::File::open(path)
                .map_err(|e| CliError::Io(stream_error(&format!("cannot open `{path}`"), e)))?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(CliError::Invalid(format!("cannot read `{path}`: it is a directory")));
            }
            let inner = Box::new(io::BufReader::with_capacity(1 << 16, file));
            Ok(Box::new(NamedReader { inner, what: format!("reading `{path}`") }))
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

/// Reads all of `from` (named `what` in errors, e.g. ``reading `FILE` ``), up to `limit`
/// bytes (memory grows with what is read, never past the limit).
/// Pre: none. Post: `Err` when reading fails or there is more than `limit` bytes.
pub(crate) fn read_limited(from: &mut dyn Read, what: &str, limit: u64) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    io::Read::take(from, limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::Io(stream_error(&format!("reading {what}"), e)))?;
    if bytes.len() as u64 > limit {
        return Err(CliError::Invalid(format!("{what} is larger than the limit of {limit} bytes")));
    }
    Ok(bytes)
}

/// Runs `work` on a helper thread while this one redraws, every tenth of a second and
/// only when stderr is a terminal, the line `line(elapsed)` gives (`None`: nothing yet);
/// the line is wiped at the end. `what` names the work if its thread dies.
/// Pre: none. Post: `work`'s result, or `Err` when its thread panicked.
pub(crate) fn with_progress<T: Send>(
    io: &mut Streams<'_>,
    what: &str,
    work: impl FnOnce() -> T + Send,
    line: impl Fn(std::time::Duration) -> Option<String>,
) -> Result<T, CliError> {
    let start = std::time::Instant::now();
    let mut shown = false;
    let result = std::thread::scope(|scope| {
        // The worker drops `done` when it ends, which wakes this thread at once.
        let (done, ended) = std::sync::mpsc::channel::<()>();
        let worker = scope.spawn(move || {
            let result = work();
            drop(done);
            result
        });
        let tick = std::time::Duration::from_millis(100);
        while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = ended.recv_timeout(tick) {
            if let (true, Some(text)) = (io.stderr_tty, line(start.elapsed())) {
                let _ = write!(io.stderr, "\r{text:<60}");
                let _ = io.stderr.flush();
                shown = true;
            }
        }
        worker.join()
    });
    if shown {
        let _ = write!(io.stderr, "\r{}\r", " ".repeat(60));
        let _ = io.stderr.flush();
    }
    result.map_err(|_| CliError::Invalid(format!("{what} stopped unexpectedly")))
}

/// The colour rule: `always` and `never` win; `auto` colours a terminal unless
/// `NO_COLOR` is set (to anything but the empty string) or `TERM` is `dumb`.
pub(crate) fn color_wanted(when: &str, tty: bool, no_color: bool, dumb: bool) -> bool {
    match when {
        "always" => true,
        "never" => false,
        _ => tty && !no_color && !dumb,
    }
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
                return Err(CliError::Usage(format!(
                    "--version takes nothing after it, got `{}`",
                    crate::render::words::shown(extra.as_bytes())
                )));
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
                if !name.starts_with('-') && !is_file {
                    let hint = crate::render::words::did_you_mean(name, &command_names());
                    if !hint.is_empty() {
                        return Err(CliError::Usage(format!(
                            "unknown command `{name}`; {hint}commands: {} (or a judge input file)",
                            command_names().join(", ")
                        )));
                    }
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
                    if let Some(doc) = args::document(topic.name) {
                        let _ = writeln!(text, "\nMore: {doc} in the project's repository.");
                    }
                    text
                }
                None => {
                    let hint = crate::render::words::did_you_mean(name, &help_names());
                    return Err(CliError::Usage(format!(
                        "help: unknown command or topic `{name}`; {hint}commands: {}; topics: {}",
                        command_names().join(", "),
                        topics::TOPICS.iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
                    )));
                }
            },
        },
        _ => return Err(CliError::Usage("help: give one command name, e.g. `help simulate`".into())),
    };
    io.stdout.write_all(text.as_bytes())?;
    Ok(())
}

/// Parses `args` for `spec` and runs it (or prints its help).
fn dispatch(spec: &'static args::Command, run: Run, args: &[String], io: &mut Streams<'_>) -> Result<Status, CliError> {
    let result = spec.parse(args).and_then(|parsed| {
        if parsed.wants_help() {
            let text = if spec.name.is_empty() { top_help() } else { spec.help() };
            io.stdout.write_all(text.as_bytes())?;
            return Ok(Status::Success);
        }
        run(&parsed, io)
    });
    result.map_err(|e| e.of(spec.name))
}

#[cfg(test)]
mod tests {
    use super::color_wanted;

    #[test]
    fn colour_follows_the_flag_then_the_terminal_and_environment() {
        assert!(color_wanted("always", false, true, true));
        assert!(!color_wanted("never", true, false, false));
        assert!(color_wanted("auto", true, false, false));
        assert!(!color_wanted("auto", false, false, false));
        assert!(!color_wanted("auto", true, true, false), "NO_COLOR");
        assert!(!color_wanted("auto", true, false, true), "TERM=dumb");
    }
}

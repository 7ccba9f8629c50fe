//! `play`: a strategy hunts ships it cannot see; someone else (a person at a terminal,
//! or a referee program over pipes) answers each probe.

use super::args::{Command, Flag, Operands, Parsed};
use super::game::{BayFlags, RuleFlags, COLS, ROWS, RULE_FLAGS};
use super::shared::{self, ColorWhen, COLOR, COORDS, SEED, STRATEGY};
use super::{CliError, Streams};
use crate::game::board::Board;
use crate::game::rules::Sunk;
use crate::scan::observer::ScanObserver;
use crate::scan::record::{CellState, ScanRecord};
use crate::scan::sonar::ProbeError;
use crate::scan::ScanError;
use crate::strategy;
use crate::tools::play::interactive::{Interactive, Lines, Replay, Ships};
use crate::tools::play::protocol::{read_line, Header};
use crate::tools::trace::{COLOR_ELIMINATED, COLOR_HIT, COLOR_MISS, COLOR_RESET};
use std::cell::{Cell, RefCell};
use std::io::Write;
use std::rc::Rc;

/// What a cell may cost play's sonar at most, in quarter bytes: what is known of it (2
/// bits: 1) and its place in the log of probes (4 bytes: 16). An undo moves both into
/// the replay, copying nothing.
const ANSWER_QUARTER_BYTES_PER_CELL: usize = 17;

/// The largest bay drawn after each answer at a terminal.
const DRAWN_CELLS: usize = 10_000;

/// A writer shared by the sonar's notes and the board drawing (both stderr).
struct Shared<'s, 'w>(&'s RefCell<&'w mut dyn Write>);

impl Write for Shared<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

/// Draws the board after each answer (not while answers are replayed after an undo).
struct BoardView<'s, 'w> {
    out: Shared<'s, 'w>,
    draw: bool,
    letters: bool,
    color: bool,
    replay_left: Rc<Cell<usize>>,
}

impl ScanObserver for BoardView<'_, '_> {
    fn step_done(&mut self, record: &ScanRecord) {
        if self.draw && self.replay_left.get() == 0 {
            let text = board_text(record, self.letters, self.color);
            let _ = self.out.write_all(text.as_bytes());
            let _ = self.out.flush();
        }
    }
}

/// The board so far with its row and column names: `+` hit, `X` water (probed or
/// deduced), `.` unknown.
fn board_text(record: &ScanRecord, letters: bool, color: bool) -> String {
    let (rows, cols) = (record.rows(), record.cols());
    let col_name = |c: usize| if letters { (c + 1).to_string() } else { c.to_string() };
    let row_name = |r: usize| if letters { crate::render::coords::row_letters(r) } else { r.to_string() };
    let width = (0..cols).map(|c| col_name(c).len()).max().unwrap_or(1);
    let lead = (0..rows).map(|r| row_name(r).len()).max().unwrap_or(1);
    let mut out = format!("{:lead$}", "");
    for c in 0..cols {
        out.push_str(&format!(" {:>width$}", col_name(c)));
    }
    out.push('\n');
    for r in 0..rows {
        out.push_str(&format!("{:>lead$}", row_name(r)));
        for c in 0..cols {
            let (ch, code) = match record.state_at(r * cols + c) {
                CellState::Hit => ('+', COLOR_HIT),
                CellState::Miss => ('X', COLOR_MISS),
                CellState::Eliminated => ('X', COLOR_ELIMINATED),
                CellState::Unknown => ('.', ""),
            };
            out.push_str(&format!(" {:>width$}", ""));
            out.pop();
            if color && !code.is_empty() {
                out.push_str(code);
                out.push(ch);
                out.push_str(COLOR_RESET);
            } else {
                out.push(ch);
            }
        }
        out.push('\n');
    }
    out
}

const FLAGS: &[Flag] = &[
    ROWS.with_help("rows of the bay (with --cols; without both, the bay\nand the rules come from a referee's header on stdin)"),
    COLS.with_help("columns of the bay"),
    Flag::value(
        "--cells",
        "N",
        "instead of a fleet: only the number of ship cells (bayes\nthen plays its fallback, parity, which needs no fleet)",
    ),
    STRATEGY.with_help("the strategy that probes (default: prob; when the rules\nrule prob out, the strongest they allow: bayes)"),
    Flag::value(
        "--referee",
        "CMD",
        "start the program CMD as the other side: play reads its\nheader and answers, and sends it the probes; play's result\nstays on stdout (CMD split into words as --bot's, no shell)",
    ),
    SEED,
    COORDS,
    COLOR,
    Flag::value("--url", "URL", "play serve's /exec (the seed's API): http://HOST:PORT/exec\n[?token=T]; starwars and density unless --rules, --strategy"),
    Flag::value("--timeout", "SECONDS", "with --url: seconds an answer may take in all (default 30)"),
];

/// `play`'s command line.
pub const COMMAND: Command = Command {
    name: "play",
    summary: "a strategy probes a hidden bay; you or a program answer",
    usage: &["play --rows R --cols C [--rules NAME] [--cells N] [OPTIONS]", "play [OPTIONS] < header-and-answers"],
    groups: &[("OPTIONS", FLAGS), ("RULES", RULE_FLAGS)],
    operands: Operands::None,
    after: "\
PROTOCOL (all of it: `help protocol`)
  Without --rows and --cols, play first reads a referee's header (bay, fleet,
  names and rules lines, as `referee` writes it) from stdin, or from the
  --referee program. For each probe it writes `? r c` (row and column from 0)
  and reads one answer line (any case):
    hit, h or 1        a ship cell
    miss, m or 0       water
    sunk, sunk NAME    the last cell of a ship (rules with sunk=yes or named)
    undo               take back the last answer (the strategy starts again
                       and replays the answers before it)
  No cell is asked twice; when ships may not touch, cells may be marked water
  without asking. At a terminal the board so far is drawn on stderr after each
  answer (bays of up to 10,000 cells), and an impossible answer is asked again.
  At the end stdout gets what the judge prints: the number of probes and the
  grid (placement lines first for named or drawn fleets); after a header, the
  referee's `done N` is read and checked.

ERRORS (one `error: ` line, exit status 2): a bad or impossible answer over
  pipes, input ending too soon, --cells too large, lines over 1,000 bytes, a
  --referee program that fails (its last stderr line is shown).
",
    extra: None,
};

/// Runs `play`.
/// Pre: none. Post: on `Ok`, stdout holds the questions (none with `--referee`: they
/// go to the referee), then the count and the final grid; on `Err` (bad flags, bad or
/// missing answers, contradictions) nothing more is written after the last question.
/// A referee started by `--referee` has ended (waited for, or killed) when it returns.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let config = PlayConfig::read(flags)?;
    match &config.mode {
        Mode::Url(url) => {
            let flags = (&config.rules, config.strategy.as_deref(), config.seed);
            super::play_url::run(flags, url, config.timeout, io)
        }
        Mode::Referee(argv) => against_referee(&config, io, argv),
        Mode::Local => play(&config, io, None),
    }
}

/// Who answers `play`'s probes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `--url URL`: the remote-service seed's API.
    Url(String),
    /// `--referee CMD`: a program, CMD split into words.
    Referee(Vec<String>),
    /// Standard input: a person, or a referee's header and answers.
    Local,
}

/// `play`'s flags, read.
#[derive(Debug)]
pub(crate) struct PlayConfig {
    /// Who answers.
    pub mode: Mode,
    /// `--seed`.
    pub seed: u64,
    /// `--coords letters`.
    pub letters: bool,
    /// `--color` (of the board drawn on stderr).
    pub color: ColorWhen,
    /// The rule flags.
    pub rules: RuleFlags,
    /// `--rows` and `--cols`, both given and a size a board takes; `None` when neither
    /// is given (the bay then comes from a referee's header).
    pub bay: Option<(usize, usize)>,
    /// `--cells`: only the number of ship cells, instead of a fleet.
    pub cells: Option<usize>,
    /// `--strategy`.
    pub strategy: Option<String>,
    /// `--timeout` (with `--url`): the time a whole response may take.
    pub timeout: std::time::Duration,
}

impl PlayConfig {
    /// Reads `play`'s arguments (with `--url`, only the flags it uses).
    /// Pre: `p` was parsed by [`COMMAND`]. Post: `Err(Usage)` for a bad value, a bay
    /// with `--url` or `--referee`, `--cells` with `--url` or a fleet, `--timeout`
    /// without `--url` or not seconds in (0, 86400], or an empty `--referee` command.
    pub(crate) fn read(p: &Parsed) -> Result<PlayConfig, CliError> {
        let strategy = shared::strategy(p);
        let timeout = match p.has("--timeout") {
            true if !p.has("--url") => return Err(CliError::Usage("--timeout: only with --url".into())),
            true => std::time::Duration::from_secs_f64(super::check::seconds(p, "--timeout")?),
            false => crate::tools::serve::client::RESPONSE_TIME,
        };
        if let Some(url) = p.text("--url") {
            if p.has(ROWS.name) || p.has(COLS.name) || p.has("--cells") {
                return Err(CliError::Usage(
                    "--url: the service tells the sea's size; no --rows, --cols or --cells".into(),
                ));
            }
            let rules = RuleFlags::read(p)?;
            let seed = shared::seed(p)?;
            let (letters, color, bay, cells) = (false, ColorWhen::Auto, None, None);
            let mode = Mode::Url(url.to_string());
            return Ok(PlayConfig { mode, seed, letters, color, rules, bay, cells, strategy, timeout });
        }
        let mode = match p.text("--referee") {
            Some(command) => {
                if p.has(ROWS.name) || p.has(COLS.name) {
                    return Err(CliError::Usage(
                        "--referee: the referee's header gives the bay; leave out --rows and --cols".into(),
                    ));
                }
                let argv = crate::tools::simulate::arena::split_command(command)
                    .map_err(|e| CliError::Usage(format!("--referee: {e}")))?;
                Mode::Referee(argv)
            }
            None => Mode::Local,
        };
        let seed = shared::seed(p)?;
        let letters = shared::letters(p)?;
        let color = ColorWhen::read(p)?;
        let rules = RuleFlags::read(p)?;
        let flags = BayFlags::read(p)?;
        let bay = match flags.given() {
            false => None,
            true => {
                let required = |flag: &str| CliError::Usage(format!("{flag} is required (see --help)"));
                let rows = flags.rows.ok_or_else(|| required(ROWS.name))?;
                let cols = flags.cols.ok_or_else(|| required(COLS.name))?;
                Board::check_size(rows, cols).map_err(|e| CliError::Usage(e.to_string()))?;
                Some((rows, cols))
            }
        };
        let cells = match p.has("--cells") {
            true if rules.fleet_given() => return Err(CliError::Usage("give a fleet or --cells, not both".into())),
            true => Some(p.require("--cells")?),
            false => None,
        };
        Ok(PlayConfig { mode, seed, letters, color, rules, bay, cells, strategy, timeout })
    }
}

/// Plays through `io` (answers from its stdin, questions to its stdout); the result
/// goes to `result_to`, or to `io.stdout` when `None`.
fn play(config: &PlayConfig, io: &mut Streams<'_>, result_to: Option<&mut dyn Write>) -> Result<(), CliError> {
    let (seed, letters) = (config.seed, config.letters);
    let color = config.color.wanted(io.stderr_tty);
    let flag_rules = config.rules.rules.clone();
    let from_header = config.bay.is_none();
    if from_header && io.stdin_tty {
        let (rows, cols) = flag_rules.bay();
        writeln!(
            io.stderr,
            "reading a referee's header from the terminal (`bay ROWS COLS`, the fleet, the rules: see `spot-the-ships \
             help play`); to answer the probes yourself give the bay, e.g. `--rows {rows} --cols {cols}` (the rules' bay); \
             to play a referee program: `--referee CMD`"
        )?;
        io.stderr.flush()?;
    }
    let game = match config.bay {
        None => match Header::read(&mut *io.stdin, &flag_rules).map_err(|e| CliError::Invalid(e.to_string()))? {
            Some(h) => h,
            None => return Err(CliError::Invalid("the input ended before the referee's header".into())),
        },
        Some((rows, cols)) => Header { rows, cols, rules: flag_rules },
    };
    let (rows, cols) = (game.rows, game.cols);
    Board::check_size(rows, cols).map_err(|e| CliError::Usage(e.to_string()))?;
    let ships = if let Some(n) = config.cells {
        if n > rows * cols {
            return Err(CliError::Usage(format!(
                "--cells: {} do not fit on a {rows}x{cols} board ({})",
                crate::render::words::count(n, "ship cell"),
                crate::render::words::count(rows * cols, "cell")
            )));
        }
        // Straight ships that never touch hold at most 2 cells of any 2x2 square.
        let most = rows.div_ceil(2) * cols.div_ceil(2) * 2;
        if !game.rules.touch() && n > most.min(rows * cols) {
            return Err(CliError::Usage(format!(
                "--cells: {} cannot fit on a {rows}x{cols} board when ships never touch (at most {})",
                crate::render::words::count(n, "ship cell"),
                crate::render::words::count(most, "ship cell")
            )));
        }
        Ships::Cells(n)
    } else {
        // Before the first probe: a fleet that cannot fit is not the answers' fault.
        crate::posterior::fleet_fits(rows, cols, &game.rules)?;
        Ships::Fleet
    };
    let name = config.strategy.as_deref().unwrap_or_else(|| strategy::usual_or_strongest("prob", &game.rules));
    strategy::for_rules(name, seed, &game.rules).map_err(|e| CliError::Usage(e.to_string()))?;
    if io.stdin_tty {
        let ask = if letters { "`? B7`" } else { "`? row col`" };
        // The answers these rules allow, and no other (a sunk answer only where they
        // announce sunk ships).
        let sunk = match game.rules.sunk() {
            Sunk::None => "",
            Sunk::Yes => ", or sunk when it completes a ship",
            Sunk::Named => ", or sunk NAME when it completes the ship NAME",
        };
        writeln!(
            io.stderr,
            "{name} is probing a {rows}x{cols} bay: answer each {ask} with hit or miss{sunk} (or undo)"
        )?;
    }
    let retry = io.stdin_tty;
    let draw = io.stdin_tty && rows.saturating_mul(cols) <= DRAWN_CELLS;
    let (rules, fleet_known) = (game.rules.clone(), ships == Ships::Fleet);
    let notes: RefCell<&mut dyn Write> = RefCell::new(&mut *io.stderr);
    let replay_left = Rc::new(Cell::new(0));
    let mut kept = Replay::default();
    let result = loop {
        let mut strategy = strategy::for_rules(name, seed, &game.rules).map_err(|e| CliError::Usage(e.to_string()))?;
        let mut note_writer = Shared(&notes);
        let lines = Lines { input: &mut *io.stdin, output: &mut *io.stdout, notes: &mut note_writer };
        let mut sonar =
            Interactive::replaying(game.clone(), ships.clone(), lines, retry, kept, Rc::clone(&replay_left))
                .with_letters(letters);
        let mut view = BoardView { out: Shared(&notes), draw, letters, color, replay_left: Rc::clone(&replay_left) };
        let result = strategy::solve_observed(strategy.as_mut(), &mut sonar, &mut view);
        if let Err(ScanError::Probe(ProbeError::Undo)) = result {
            let last = sonar.last_cell();
            kept = sonar.into_replay();
            if let Some(cell) = last.filter(|_| retry) {
                let cell = if letters { crate::render::coords::letters(cell) } else { cell.to_string() };
                writeln!(Shared(&notes), "took back the answer for {cell}")?;
                if kept.is_empty() && draw {
                    let empty = board_text(&ScanRecord::new(rows, cols), letters, color);
                    Shared(&notes).write_all(empty.as_bytes())?;
                }
            }
            continue;
        }
        break result;
    };
    let record = match result {
        Ok(record) => record,
        // The whole run's need: the strategy's, and the answers play keeps (2 bits a
        // cell, and 4 bytes a probe for the log that undo replays).
        Err(ScanError::OutOfMemory(s)) => {
            let answers = rows.saturating_mul(cols).saturating_mul(ANSWER_QUARTER_BYTES_PER_CELL) / 4;
            let need = strategy::need(name, rows, cols).saturating_add(answers);
            return Err(CliError::Scan(ScanError::OutOfMemory(s.at_least(need))));
        }
        Err(e) => return Err(CliError::Scan(e)),
    };
    if from_header {
        check_done(&mut *io.stdin, record.scans())?;
    }
    let out: &mut dyn Write = match result_to {
        Some(out) => out,
        None => &mut *io.stdout,
    };
    if fleet_known {
        out.write_all(crate::render::places::lines(&crate::posterior::ship_places(&record, &rules)).as_bytes())?;
    }
    record.write_output(None, out)?;
    out.flush()?;
    Ok(())
}

/// How long a referee may take to exit once the game is over and its input closed.
const REFEREE_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// How long a referee that stopped the game (play failed) has to exit and say why.
const REFEREE_FAILING: std::time::Duration = std::time::Duration::from_millis(300);

/// `play --referee CMD`: starts CMD, plays against it, and waits for it to end.
/// Pre: none. Post: the referee has ended (one still running [`REFEREE_GRACE`] after
/// the game is killed), and every process it started with it; a failure of the
/// referee (an exit status other than 0) is the error, with the last line it wrote on
/// stderr.
fn against_referee(config: &PlayConfig, io: &mut Streams<'_>, argv: &[String]) -> Result<(), CliError> {
    use crate::tools::play::referee_process::{RefereeError, RefereeProcess};
    // Its orphans are reparented to play, to be killed; Ctrl-C kills them too.
    crate::tools::reaper::guard_signals("play")
        .map_err(|e| CliError::Invalid(format!("cannot watch for signals: {e}")))?;
    let (mut referee, mut to, from) = RefereeProcess::start(argv).map_err(|e| match e {
        RefereeError::Empty => CliError::Usage(e.to_string()),
        RefereeError::Start { program, error } => {
            CliError::Io(super::stream_error(&format!("--referee: cannot start `{program}`"), error))
        }
        other => CliError::Invalid(other.to_string()),
    })?;
    let mut from = std::io::BufReader::new(from);
    let outcome = {
        let Streams { stdout, stderr, stderr_tty, .. } = &mut *io;
        let mut link = Streams {
            stdin: &mut from,
            stdout: &mut to,
            stderr: &mut **stderr,
            stdin_tty: false,
            stdout_tty: false,
            stderr_tty: *stderr_tty,
        };
        play(config, &mut link, Some(&mut **stdout))
    };
    // A referee that stopped first (bad flags, a probe it refused) is the cause of
    // whatever play saw: give it a moment to exit and say so, before its pipes close.
    // One that stops only once they close (it saw play end) is not: play's own error
    // stands.
    let stopped_first = if outcome.is_err() { referee.wait_for(REFEREE_FAILING) } else { None };
    drop(to);
    drop(from);
    let ended = referee.end(if outcome.is_ok() { REFEREE_GRACE } else { std::time::Duration::ZERO });
    let status = if outcome.is_ok() { ended } else { stopped_first };
    match (outcome, status) {
        (_, Some(status)) if !status.success() => Err(CliError::Invalid(referee.failure(status).to_string())),
        (outcome, _) => outcome,
    }
}

/// Reads the referee's `done N` after the last answer.
/// Pre: every ship cell was found in `scans` probes. Post: `Err` when the line is not
/// `done N`, N is not `scans`, or the input ends first (the referee vanished).
fn check_done(input: &mut dyn std::io::BufRead, scans: usize) -> Result<(), CliError> {
    let Some((line, _)) = read_line(input)? else {
        return Err(CliError::Invalid(format!(
            "the input ended where the referee's `done {scans}` was due: the referee stopped before the end of the game"
        )));
    };
    let text = String::from_utf8_lossy(&line);
    match text.trim().strip_prefix("done ").map(|n| n.trim().parse::<usize>()) {
        Some(Ok(n)) if n == scans => Ok(()),
        Some(Ok(n)) => Err(CliError::Invalid(format!("the referee counted {n} probes, but {scans} were made"))),
        _ => Err(CliError::Invalid(format!(
            "expected the referee's `done {scans}` after the last answer, got `{}`",
            crate::render::words::shown(text.trim().as_bytes())
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_defaults_flags_and_bad_values() {
        let c = PlayConfig::read(&COMMAND.parse_words(&[])).unwrap();
        assert_eq!((c.mode, c.seed, c.letters, c.color, c.cells), (Mode::Local, 2021, false, ColorWhen::Auto, None));
        assert!(c.bay.is_none() && c.strategy.is_none());
        let words = ["--rows", "3", "--cols", "4", "--cells", "2", "--coords", "letters", "--strategy", "hunt"];
        let c = PlayConfig::read(&COMMAND.parse_words(&words)).unwrap();
        assert_eq!((c.bay, c.cells, c.letters), (Some((3, 4)), Some(2), true));
        let c = PlayConfig::read(&COMMAND.parse_words(&["--referee", "spot-the-ships referee"])).unwrap();
        assert_eq!(c.mode, Mode::Referee(vec!["spot-the-ships".into(), "referee".into()]));
        let c = PlayConfig::read(&COMMAND.parse_words(&["--url", "http://h/exec", "--coords", "x"])).unwrap();
        assert_eq!(c.mode, Mode::Url("http://h/exec".into()), "--url reads only the flags it uses");
        let e = |w: &[&str]| PlayConfig::read(&COMMAND.parse_words(w)).unwrap_err().to_string();
        assert_eq!(e(&["--cells", "2", "--fleet", "2"]), "give a fleet or --cells, not both");
        assert_eq!(
            e(&["--url", "u", "--rows", "3"]),
            "--url: the service tells the sea's size; no --rows, --cols or --cells"
        );
        assert_eq!(e(&["--rows", "x"]), "--rows: expected a whole number, got `x`");
        assert_eq!(e(&["--rows", "3"]), "--cols is required (see --help)");
        assert_eq!(e(&["--rows", "0", "--cols", "3"]), "the board is 0x3: rows and columns must be at least 1");
    }
}

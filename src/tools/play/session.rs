//! One game of `play`: a strategy hunts ships it cannot see while the other side (a
//! person at a terminal, a referee's lines on a stream, a referee program started here,
//! or a remote service) answers each probe. Typed in ([`PlayRequest`]), streams passed
//! in, typed errors out ([`PlayError`]).

use crate::game::board::{Board, BoardError};
use crate::game::placement::PlacementError;
use crate::game::rules::{Rules, Sunk};
use crate::scan::observer::ScanObserver;
use crate::scan::record::{CellState, ScanRecord};
use crate::scan::sonar::ProbeError;
use crate::scan::ScanError;
use crate::strategy::{self, StrategyError};
use crate::tools::play::interactive::{Interactive, Lines, Replay, Ships};
use crate::tools::play::protocol::{read_line, Header, ProtocolError};
use crate::tools::play::referee_process::{RefereeError, RefereeProcess};
use crate::tools::serve::client::{token_of, ExecSonar, ServiceError, Url};
use crate::tools::settings::{RuleSettings, SettingError};
use crate::tools::trace::{COLOR_ELIMINATED, COLOR_HIT, COLOR_MISS, COLOR_RESET};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::io::{self, BufRead, Write};
use std::rc::Rc;
use std::time::Duration;

/// A game to play, read from `play`'s flags.
#[derive(Debug, Clone)]
pub(crate) struct PlayRequest {
    /// The seed of the strategy's random choices.
    pub seed: u64,
    /// Cells named `B7` (rows in letters, columns from 1) instead of `r c`.
    pub letters: bool,
    /// Colour the board drawn at a terminal.
    pub color: bool,
    /// The rules the flags give (a referee's header may override them).
    pub rules: Rules,
    /// The bay's rows and columns; `None`: a referee's header gives them.
    pub bay: Option<(usize, usize)>,
    /// Only the number of ship cells, instead of a fleet.
    pub cells: Option<usize>,
    /// The strategy; `None`: prob, or the strongest the rules allow.
    pub strategy: Option<String>,
}

/// The streams of a game: the answers come from `input`, the questions go to
/// `output`, notes and the board drawn go to `notes`.
pub(crate) struct PlayStreams<'a> {
    /// The answers (and a referee's header and `done N`).
    pub input: &'a mut dyn BufRead,
    /// The questions (`? r c`).
    pub output: &'a mut dyn Write,
    /// What a person at a terminal is told (standard error).
    pub notes: &'a mut dyn Write,
    /// True when `input` is a terminal: the board is drawn, bad answers asked again.
    pub input_tty: bool,
}

/// Why a game of `play` could not be played to its end.
#[derive(Debug)]
pub enum PlayError {
    /// Reading or writing a stream failed.
    Io(io::Error),
    /// The referee's header does not parse.
    Header(ProtocolError),
    /// The input ended before the referee's header.
    NoHeader,
    /// A bay a board cannot have.
    Board(BoardError),
    /// More ship cells (`--cells`) than the bay has cells.
    CellsOverBay {
        /// The ship cells asked for.
        cells: usize,
        /// The bay's rows.
        rows: usize,
        /// The bay's columns.
        cols: usize,
    },
    /// More ship cells (`--cells`) than fit when ships never touch.
    CellsApart {
        /// The ship cells asked for.
        cells: usize,
        /// The bay's rows.
        rows: usize,
        /// The bay's columns.
        cols: usize,
        /// The most that fit.
        most: usize,
    },
    /// A fleet that cannot be placed on the bay.
    Placement(PlacementError),
    /// A strategy that cannot play these rules.
    Strategy(StrategyError),
    /// The scan could not finish (a bad answer, a contradiction, no memory).
    Scan(ScanError),
    /// The input ended where the referee's `done N` was due.
    DoneMissing {
        /// The probes made.
        scans: usize,
    },
    /// The referee's `done N` counts other probes than were made.
    DoneCount {
        /// The referee's count.
        counted: usize,
        /// The probes made.
        scans: usize,
    },
    /// Another line where the referee's `done N` was due.
    DoneExpected {
        /// The probes made.
        scans: usize,
        /// The line read, trimmed.
        got: String,
    },
    /// Ctrl-C and SIGTERM could not be watched for.
    Signals(io::Error),
    /// The `--referee` program could not be played, or failed.
    Referee(RefereeError),
    /// The address of `--url` does not parse.
    Url(String),
    /// The remote service failed, or gave a bad token.
    Service(ServiceError),
    /// The rules of `--url`'s game.
    Setting(SettingError),
}

impl PlayError {
    /// True when the error is a write to a reader that went away (`| head`).
    /// Pre: none. Post: no change.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            PlayError::Io(e) => e.kind() == io::ErrorKind::BrokenPipe,
            PlayError::Scan(ScanError::Probe(ProbeError::ReaderGone(_))) => true,
            _ => false,
        }
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::render::words::count;
        match self {
            PlayError::Signals(e) => write!(f, "cannot watch for signals: {e}"),
            PlayError::Io(e) => write!(f, "{e}"),
            PlayError::Header(e) => write!(f, "{e}"),
            PlayError::NoHeader => write!(f, "the input ended before the referee's header"),
            PlayError::Board(e) => write!(f, "{e}"),
            PlayError::CellsOverBay { cells, rows, cols } => write!(
                f,
                "--cells: {} do not fit on a {rows}x{cols} board ({})",
                count(*cells, "ship cell"),
                count(rows * cols, "cell")
            ),
            PlayError::CellsApart { cells, rows, cols, most } => write!(
                f,
                "--cells: {} cannot fit on a {rows}x{cols} board when ships never touch (at most {})",
                count(*cells, "ship cell"),
                count(*most, "ship cell")
            ),
            PlayError::Placement(e) => write!(f, "{e}"),
            PlayError::Strategy(e) => write!(f, "{e}"),
            PlayError::Scan(e) => write!(f, "{e}"),
            PlayError::DoneMissing { scans } => write!(
                f,
                "the input ended where the referee's `done {scans}` was due: the referee stopped before the end of the game"
            ),
            PlayError::DoneCount { counted, scans } => {
                write!(f, "the referee counted {counted} probes, but {scans} were made")
            }
            PlayError::DoneExpected { scans, got } => write!(
                f,
                "expected the referee's `done {scans}` after the last answer, got `{}`",
                crate::render::words::shown(got.as_bytes())
            ),
            PlayError::Referee(e) => write!(f, "{e}"),
            PlayError::Url(e) => write!(f, "--url: {e}"),
            PlayError::Service(e) => write!(f, "{e}"),
            PlayError::Setting(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlayError::Io(e) | PlayError::Signals(e) => Some(e),
            PlayError::Header(e) => Some(e),
            PlayError::Board(e) => Some(e),
            PlayError::Placement(e) => Some(e),
            PlayError::Strategy(e) => Some(e),
            PlayError::Scan(e) => Some(e),
            PlayError::Referee(e) => Some(e),
            PlayError::Service(e) => Some(e),
            PlayError::Setting(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for PlayError {
    fn from(e: io::Error) -> PlayError {
        PlayError::Io(e)
    }
}
impl From<ScanError> for PlayError {
    fn from(e: ScanError) -> PlayError {
        PlayError::Scan(e)
    }
}
impl From<StrategyError> for PlayError {
    fn from(e: StrategyError) -> PlayError {
        PlayError::Strategy(e)
    }
}
impl From<PlacementError> for PlayError {
    fn from(e: PlacementError) -> PlayError {
        PlayError::Placement(e)
    }
}
impl From<BoardError> for PlayError {
    fn from(e: BoardError) -> PlayError {
        PlayError::Board(e)
    }
}

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
pub(crate) fn board_text(record: &ScanRecord, letters: bool, color: bool) -> String {
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

/// Plays one game through `io` (answers from its input, questions to its output); the
/// result (what the judge prints: placement lines for a known fleet, the count and the
/// grid) goes to `result_to`, or to `io.output` when `None`.
/// Pre: none. Post: on `Err` (a bad bay or strategy, bad or missing answers,
/// contradictions) nothing more is written after the last question.
pub(crate) fn play(
    request: &PlayRequest,
    io: &mut PlayStreams<'_>,
    result_to: Option<&mut dyn Write>,
) -> Result<(), PlayError> {
    let (seed, letters, color) = (request.seed, request.letters, request.color);
    let flag_rules = request.rules.clone();
    let from_header = request.bay.is_none();
    if from_header && io.input_tty {
        let (rows, cols) = flag_rules.bay();
        writeln!(
            io.notes,
            "reading a referee's header from the terminal (`bay ROWS COLS`, the fleet, the rules: see `spot-the-ships \
             help play`); to answer the probes yourself give the bay, e.g. `--rows {rows} --cols {cols}` (the rules' bay); \
             to play a referee program: `--referee CMD`"
        )?;
        io.notes.flush()?;
    }
    let game = match request.bay {
        None => match Header::read(&mut *io.input, &flag_rules).map_err(PlayError::Header)? {
            Some(h) => h,
            None => return Err(PlayError::NoHeader),
        },
        Some((rows, cols)) => Header { rows, cols, rules: flag_rules },
    };
    let (rows, cols) = (game.rows, game.cols);
    Board::check_size(rows, cols)?;
    let ships = if let Some(n) = request.cells {
        if n > rows * cols {
            return Err(PlayError::CellsOverBay { cells: n, rows, cols });
        }
        // Straight ships that never touch hold at most 2 cells of any 2x2 square.
        let most = rows.div_ceil(2) * cols.div_ceil(2) * 2;
        if !game.rules.touch() && n > most.min(rows * cols) {
            return Err(PlayError::CellsApart { cells: n, rows, cols, most });
        }
        Ships::Cells(n)
    } else {
        // Before the first probe: a fleet that cannot fit is not the answers' fault.
        crate::posterior::fleet_fits(rows, cols, &game.rules)?;
        Ships::Fleet
    };
    let name =
        request.strategy.as_deref().unwrap_or_else(|| strategy::usual_or_strongest("prob", &game.rules, rows, cols));
    // One strategy for the whole game: after an undo it is reseeded and plays again from
    // the start (lookahead takes its earlier choices from its memo, not thinking again).
    let mut strategy = strategy::for_rules(name, seed, &game.rules)?;
    if io.input_tty {
        let ask = if letters { "`? B7`" } else { "`? row col`" };
        // The answers these rules allow, and no other (a sunk answer only where they
        // announce sunk ships).
        let sunk = match game.rules.sunk() {
            Sunk::None => "",
            Sunk::Yes => ", or sunk when it completes a ship",
            Sunk::Named => ", or sunk NAME when it completes the ship NAME",
        };
        writeln!(
            io.notes,
            "{name} is probing a {rows}x{cols} bay: answer each {ask} with hit or miss{sunk} (or undo)"
        )?;
    }
    let retry = io.input_tty;
    let draw = io.input_tty && rows.saturating_mul(cols) <= DRAWN_CELLS;
    let (rules, fleet_known) = (game.rules.clone(), ships == Ships::Fleet);
    let notes: RefCell<&mut dyn Write> = RefCell::new(&mut *io.notes);
    let replay_left = Rc::new(Cell::new(0));
    let mut kept = Replay::default();
    let result = loop {
        strategy.reseed(seed);
        let mut note_writer = Shared(&notes);
        let lines = Lines { input: &mut *io.input, output: &mut *io.output, notes: &mut note_writer };
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
            return Err(PlayError::Scan(ScanError::OutOfMemory(s.at_least(need))));
        }
        Err(e) => return Err(PlayError::Scan(e)),
    };
    if from_header {
        check_done(&mut *io.input, record.scans())?;
    }
    let out: &mut dyn Write = match result_to {
        Some(out) => out,
        None => &mut *io.output,
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

/// `play --referee CMD`: starts CMD (`argv`: its words), plays against it (its notes
/// and board to `notes`, at a terminal when `notes_tty`), the result to `result_to`,
/// and waits for it to end.
/// Pre: none. Post: the referee has ended (one still running [`REFEREE_GRACE`] after
/// the game is killed), and every process it started with it; a failure of the
/// referee (an exit status other than 0) is the error, with the last line it wrote on
/// stderr.
pub(crate) fn against_referee(
    request: &PlayRequest,
    argv: &[String],
    notes: &mut dyn Write,
    result_to: &mut dyn Write,
) -> Result<(), PlayError> {
    // Its orphans are reparented to play, to be killed; Ctrl-C kills them too.
    crate::tools::reaper::guard_signals("play").map_err(PlayError::Signals)?;
    let (mut referee, mut to, from) = RefereeProcess::start(argv).map_err(|e| match e {
        RefereeError::Start { program, error } => {
            PlayError::Io(crate::tools::streams::stream_error(&format!("--referee: cannot start `{program}`"), error))
        }
        other => PlayError::Referee(other),
    })?;
    let mut from = std::io::BufReader::new(from);
    let outcome = {
        let mut link = PlayStreams { input: &mut from, output: &mut to, notes, input_tty: false };
        play(request, &mut link, Some(result_to))
    };
    // A referee that stopped first (bad flags, a probe it refused) is the cause of
    // whatever play saw: give it a moment to exit and say so, before its pipes close.
    // One that stops only once they close (it saw play end) is not: play's own error
    // stands.
    let stopped_first = if outcome.is_err() { referee.wait_for(REFEREE_FAILING) } else { None };
    drop(to);
    drop(from);
    let ended = referee.end(if outcome.is_ok() { REFEREE_GRACE } else { Duration::ZERO });
    let status = if outcome.is_ok() { ended } else { stopped_first };
    match (outcome, status) {
        (_, Some(status)) if !status.success() => Err(PlayError::Referee(referee.failure(status))),
        (outcome, _) => outcome,
    }
}

/// Reads the referee's `done N` after the last answer.
/// Pre: every ship cell was found in `scans` probes. Post: `Err` when the line is not
/// `done N`, N is not `scans`, or the input ends first (the referee vanished).
fn check_done(input: &mut dyn BufRead, scans: usize) -> Result<(), PlayError> {
    let Some((line, _)) = read_line(input)? else {
        return Err(PlayError::DoneMissing { scans });
    };
    let text = String::from_utf8_lossy(&line);
    match text.trim().strip_prefix("done ").map(|n| n.trim().parse::<usize>()) {
        Some(Ok(n)) if n == scans => Ok(()),
        Some(Ok(counted)) => Err(PlayError::DoneCount { counted, scans }),
        _ => Err(PlayError::DoneExpected { scans, got: text.trim().to_string() }),
    }
}

/// A game of the remote-service seed's API at `url` (`serve`'s `/exec`, or any service
/// that answers `GetRowCount`, `GetColumnCount` and `GetCellAt` with numbers):
/// `http://HOST:PORT/PATH[?token=T]`; without a token, one is asked for with
/// `method=GetToken` and written first as `token: T`. Each response is due within
/// `timeout` (connecting, sending, the whole answer read). `rules` are the rule flags
/// (the preset starwars unless one is given); `strategy` is density unless given.
/// Pre: none. Post: on `Ok`, `out` holds the token line (when asked), one line per
/// ship (`NAME at (r,c)`), the number of probes and the grid; `Err` for a bad address, a
/// service that fails, answers other than 0 and 1 or too late, a token not of serve's
/// form (32 characters 0-9 a-f), or a fleet that does not fit.
pub(crate) fn play_url(
    (rules, strategy, seed): (&RuleSettings, Option<&str>, u64),
    url: &str,
    timeout: Duration,
    out: &mut dyn Write,
) -> Result<(), PlayError> {
    let rules = rules.rules_or_preset("starwars").map_err(PlayError::Setting)?;
    let name = strategy.unwrap_or("density");
    let parsed = Url::parse(url).map_err(PlayError::Url)?;
    // A token goes into every request line as it is: only one of serve's form, checked
    // before any connection.
    let had_token = token_of(&parsed.query).map_err(PlayError::Service)?.is_some();
    let mut sonar = ExecSonar::connect(&parsed, &rules, timeout).map_err(PlayError::Service)?;
    let rules = crate::scan::sonar::Sonar::rules(&sonar).clone();
    let (rows, cols) = (crate::scan::sonar::Sonar::rows(&sonar), crate::scan::sonar::Sonar::cols(&sonar));
    crate::posterior::fleet_fits(rows, cols, &rules)?;
    let mut strategy = strategy::for_rules(name, seed, &rules)?;
    if !had_token {
        // The service's token, checked to be of serve's form (never raw escapes).
        writeln!(out, "token: {}", sonar.token())?;
    }
    let record = strategy::solve(strategy.as_mut(), &mut sonar)?;
    out.write_all(crate::render::places::lines(&crate::posterior::ship_places(&record, &rules)).as_bytes())?;
    out.write_all(record.render_output(None).as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn done(text: &str, scans: usize) -> Result<(), PlayError> {
        check_done(&mut text.as_bytes(), scans)
    }

    #[test]
    fn the_referees_done_line_is_checked() {
        assert!(done("done 7\n", 7).is_ok());
        assert_eq!(done("done 6\n", 7).unwrap_err().to_string(), "the referee counted 6 probes, but 7 were made");
        assert!(matches!(done("", 7), Err(PlayError::DoneMissing { scans: 7 })));
        let e = done("hit\n", 7).unwrap_err().to_string();
        assert_eq!(e, "expected the referee's `done 7` after the last answer, got `hit`");
    }

    fn request(bay: Option<(usize, usize)>, cells: Option<usize>) -> PlayRequest {
        let rules = Rules::preset("problem-g").unwrap();
        PlayRequest { seed: 1, letters: false, color: false, rules, bay, cells, strategy: Some("linear".into()) }
    }

    fn played(request: &PlayRequest, answers: &str) -> (Result<(), PlayError>, String) {
        let (mut output, mut notes) = (Vec::new(), Vec::new());
        let mut io =
            PlayStreams { input: &mut answers.as_bytes(), output: &mut output, notes: &mut notes, input_tty: false };
        let result = play(request, &mut io, None);
        (result, String::from_utf8(output).unwrap())
    }

    #[test]
    fn a_game_over_pipes_asks_and_ends_with_the_judges_output() {
        let (result, out) = played(&request(Some((1, 3)), Some(1)), "miss\nhit\n");
        result.unwrap();
        assert_eq!(out, "? 0 0\n? 0 1\n2\nX+.\n");
    }

    #[test]
    fn a_bay_or_cells_that_cannot_be_are_refused_before_any_question() {
        let (e, out) = played(&request(Some((1, 3)), Some(4)), "");
        assert_eq!(e.unwrap_err().to_string(), "--cells: 4 ship cells do not fit on a 1x3 board (3 cells)");
        assert!(out.is_empty());
        let (e, _) = played(&request(Some((2, 2)), Some(3)), "");
        assert!(matches!(e, Err(PlayError::CellsApart { most: 2, .. })), "{e:?}");
        let (e, _) = played(&request(None, None), "");
        assert!(matches!(e, Err(PlayError::NoHeader)));
    }

    #[test]
    fn the_board_drawn_names_rows_and_columns() {
        let record = ScanRecord::new(2, 3);
        assert_eq!(board_text(&record, false, false), "  0 1 2\n0 . . .\n1 . . .\n");
        assert_eq!(board_text(&record, true, false), "  1 2 3\nA . . .\nB . . .\n");
    }
}

//! `play`: a strategy hunts ships it cannot see; someone else (a person at a terminal,
//! or a referee program over pipes) answers each probe.

use super::args::{Command, Flag, Operands, Parsed};
use super::game::{self, RULE_FLAGS};
use super::{CliError, Streams};
use crate::game::board::Board;
use crate::game::placement::Placer;
use crate::scan::observer::ScanObserver;
use crate::scan::record::{CellState, ScanRecord};
use crate::scan::ScanError;
use crate::strategy::{self, DEFAULT_SEED};
use crate::tools::play::interactive::{Interactive, Lines, Ships};
use crate::tools::play::protocol::{read_line, Header};
use crate::tools::trace::{COLOR_ELIMINATED, COLOR_HIT, COLOR_MISS, COLOR_RESET};
use std::cell::{Cell, RefCell};
use std::io::Write;
use std::rc::Rc;

/// The bytes a cell may cost play's sonar at most: its answer (1) and its place in the
/// log of probes (4).
const ANSWER_BYTES_PER_CELL: usize = 5;

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
    Flag::value("--rows", "R", "rows of the bay (with --cols; without both, the bay\nand the rules come from a referee's header on stdin)"),
    Flag::value("--cols", "C", "columns of the bay"),
    Flag::value(
        "--cells",
        "N",
        "instead of a fleet: only the number of ship cells (bayes\nthen plays its fallback, parity, which needs no fleet)",
    ),
    Flag::value("--strategy", "NAME", "the strategy that probes").default("prob"),
    Flag::value("--seed", "S", "seed of the random choices of random and bayes").default("2021"),
    Flag::value("--coords", "HOW", "numbers: ask `? r c` (from 0); letters: ask `? B7` (rows\nA, B, ..., Z, AA, ...; columns from 1)")
        .default("numbers"),
    super::COLOR_FLAG,
    Flag::value("--url", "URL", "play the remote-service seed's API instead (serve's\n/exec): http://HOST:PORT/exec[?token=T]; rules: starwars\nunless --rules says otherwise; strategy: density unless\n--strategy says otherwise"),
];

/// `play`'s command line.
pub const COMMAND: Command = Command {
    name: "play",
    summary: "a strategy probes a hidden bay; you or a program answer",
    usage: &["play --rows R --cols C [--rules NAME] [--cells N] [OPTIONS]", "play [OPTIONS] < header-and-answers"],
    groups: &[("OPTIONS", FLAGS), ("RULES", RULE_FLAGS)],
    operands: Operands::None,
    after: "\
PROTOCOL
  Without --rows and --cols, play first reads a referee's header (as `referee`
  writes it):
    bay ROWS COLS
    fleet SIZES                 comma-separated, largest first
    names NAMES                 when the ships have names, in the same order
    rules touch=yes|no sunk=none|yes|named
  (a fleet of drawn ships: `fleet-file`, the file's lines, `end`, and the rules
  line adds rotate=yes|no). Then for each probe, one line on stdout:   ? r c
  (row r and column c, counted from 0 at the top left). Answer with one line:
    hit, h or 1        a ship cell
    miss, m or 0       water
    sunk, sunk NAME    the last cell of a ship (rules with sunk=yes or named;
                       NAME is the ship's name, or its size)
    undo               take back the last answer (the strategy starts again
                       and replays the answers before it)
  (any case; surrounding spaces ignored). stdout is flushed after every line, so
  a referee program can play over pipes: `referee` and `play` connect through
  two pipes. No cell is asked twice. When ships may not touch, the strategy may
  mark cells as water without asking.

  At a terminal, the board so far is drawn on stderr after each answer (bays of
  up to 10,000 cells; colour as --color says), and an impossible answer is
  explained and asked again.

  When every ship cell is found, stdout ends with what the judge prints: the
  number of probes, then the grid (+ ship found, X water probed or deduced, .
  never probed). After a header, the referee's `done N` is read and checked.

ERRORS (one `error: ` line on stderr, exit status 2)
  a bad answer      at a terminal: explained on stderr and asked again; over
                    pipes: error
  end of input      before every ship cell is found, or after a header where
                    the referee's `done N` is due
  too large         --cells more than the bay can hold (about half its cells
                    when ships may not touch); answer lines over 1,000 bytes
  contradiction     an answer the rules make impossible: more hits than ship
                    cells, a ship sunk twice, and when straight ships may not
                    touch a hit diagonal to another hit or a line of hits longer
                    than the longest ship; or no cell left with ship cells
                    still missing
",
    extra: Some(game::presets_help),
};

/// Runs `play`.
/// Pre: none. Post: on `Ok`, stdout holds the questions, then the count and the final
/// grid; on `Err` (bad flags, bad or missing answers, contradictions) nothing more is
/// written after the last question.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    if let Some(url) = flags.text("--url") {
        return super::play_url::run(flags, url, io);
    }
    let name = flags.text("--strategy").unwrap_or("prob");
    let seed = flags.get_or("--seed", DEFAULT_SEED)?;
    let letters = flags.choice("--coords", &["numbers", "letters"])? == Some("letters");
    let color = super::use_color(flags, io.stderr_tty)?;
    let flag_rules = game::rules(flags)?;
    let from_header = !flags.has("--rows") && !flags.has("--cols");
    let game = if from_header {
        match Header::read(&mut *io.stdin, &flag_rules).map_err(|e| CliError::Invalid(e.to_string()))? {
            Some(h) => h,
            None => return Err(CliError::Invalid("the input ended before the referee's header".into())),
        }
    } else {
        let rows: usize = flags.require("--rows")?;
        let cols: usize = flags.require("--cols")?;
        Header { rows, cols, rules: flag_rules }
    };
    let (rows, cols) = (game.rows, game.cols);
    Board::check_size(rows, cols).map_err(|e| CliError::Usage(e.to_string()))?;
    let ships = if flags.has("--cells") {
        if flags.has("--fleet") || flags.has("--fleet-file") {
            return Err(CliError::Usage("give a fleet or --cells, not both".into()));
        }
        let n: usize = flags.get_or("--cells", 0)?;
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
        Placer::with_rules(rows, cols, &game.rules).check(game.rules.fleet())?;
        Ships::Fleet
    };
    strategy::for_rules(name, seed, &game.rules).map_err(|e| CliError::Usage(e.to_string()))?;
    if io.stdin_tty {
        let ask = if letters { "`? B7`" } else { "`? row col`" };
        writeln!(io.stderr, "{name} is probing a {rows}x{cols} bay: answer each {ask} with hit or miss (or undo)")?;
    }
    let retry = io.stdin_tty;
    let draw = io.stdin_tty && rows.saturating_mul(cols) <= DRAWN_CELLS;
    let (rules, fleet_known) = (game.rules.clone(), ships == Ships::Fleet);
    let notes: RefCell<&mut dyn Write> = RefCell::new(&mut *io.stderr);
    let replay_left = Rc::new(Cell::new(0));
    let mut kept = Vec::new();
    let (result, contradiction) = loop {
        let mut strategy = strategy::for_rules(name, seed, &game.rules).map_err(|e| CliError::Usage(e.to_string()))?;
        let mut note_writer = Shared(&notes);
        let lines = Lines { input: &mut *io.stdin, output: &mut *io.stdout, notes: &mut note_writer };
        let mut sonar =
            Interactive::replaying(game.clone(), ships.clone(), lines, retry, kept, Rc::clone(&replay_left))
                .with_letters(letters);
        let mut view = BoardView { out: Shared(&notes), draw, letters, color, replay_left: Rc::clone(&replay_left) };
        let result = strategy::solve_observed(strategy.as_mut(), &mut sonar, &mut view);
        if sonar.undo_requested() {
            kept = sonar.kept_answers();
            if let Some(cell) = sonar.last_cell().filter(|_| retry) {
                let cell = if letters { crate::render::coords::letters(cell) } else { cell.to_string() };
                writeln!(Shared(&notes), "took back the answer for {cell}")?;
                if kept.is_empty() && draw {
                    let empty = board_text(&ScanRecord::new(rows, cols), letters, color);
                    Shared(&notes).write_all(empty.as_bytes())?;
                }
            }
            continue;
        }
        break (result, sonar.contradiction().map(str::to_owned));
    };
    let record = match (result, contradiction) {
        (Ok(record), _) => record,
        (Err(_), Some(why)) => return Err(CliError::Scan(ScanError::Contradiction(why))),
        // The whole run's need: the strategy's, and the answers play keeps (a byte a
        // cell, and 4 bytes a probe for the log that undo replays).
        (Err(ScanError::OutOfMemory(s)), None) => {
            let answers = rows.saturating_mul(cols).saturating_mul(ANSWER_BYTES_PER_CELL);
            let need = strategy::need(name, rows, cols).saturating_add(answers);
            return Err(CliError::Scan(ScanError::OutOfMemory(s.at_least(need))));
        }
        (Err(e), None) => return Err(CliError::Scan(e)),
    };
    if from_header {
        check_done(&mut *io.stdin, record.scans())?;
    }
    if fleet_known {
        io.stdout.write_all(super::ship_lines(&record, &rules).as_bytes())?;
    }
    record.write_output(None, io.stdout)?;
    io.stdout.flush()?;
    Ok(())
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

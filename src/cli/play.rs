//! `play`: a strategy hunts ships it cannot see; someone else (a person at a terminal,
//! or a referee program over pipes) answers each probe.

use super::args::{Command, Flag, Operands, Parsed};
use super::game::{self, RULE_FLAGS};
use super::{CliError, Streams};
use crate::board::Board;
use crate::interactive::{Interactive, Lines, Ships};
use crate::placement::Placer;
use crate::protocol::{read_line, Header};
use crate::scan::ScanError;
use crate::strategy::{self, DEFAULT_SEED};

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
  (any case; surrounding spaces ignored). stdout is flushed after every line, so
  a referee program can play over pipes: `referee` and `play` connect through
  two pipes. No cell is asked twice. When ships may not touch, the strategy may
  mark cells as water without asking.

  When every ship cell is found, stdout ends with what the judge prints: the
  number of probes, then the grid (+ ship found, X water probed or deduced, .
  never probed). After a header, the referee's `done N` is read and checked.

ERRORS (one `error: ` line on stderr, exit status 2)
  a bad answer      at a terminal: explained on stderr and asked again; over
                    pipes: error
  end of input      before every ship cell is found
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
    let name = flags.text("--strategy").unwrap_or("prob");
    let seed = flags.get_or("--seed", DEFAULT_SEED)?;
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
                crate::words::count(n, "ship cell"),
                crate::words::count(rows * cols, "cell")
            )));
        }
        Ships::Cells(n)
    } else {
        Placer::with_rules(rows, cols, &game.rules).check(game.rules.fleet())?;
        Ships::Fleet
    };
    let mut strategy = strategy::for_rules(name, seed, &game.rules).map_err(|e| CliError::Usage(e.to_string()))?;
    if io.stdin_tty {
        writeln!(io.stderr, "{name} is probing a {rows}x{cols} bay: answer each `? row col` with hit or miss")?;
    }
    let retry = io.stdin_tty;
    let lines = Lines { input: &mut *io.stdin, output: &mut *io.stdout, notes: &mut *io.stderr };
    let (rules, fleet_known) = (game.rules.clone(), ships == Ships::Fleet);
    let mut sonar = Interactive::new(game, ships, lines, retry);
    let result = strategy::solve(strategy.as_mut(), &mut sonar);
    let contradiction = sonar.contradiction().map(str::to_owned);
    drop(sonar);
    let record = match (result, contradiction) {
        (Ok(record), _) => record,
        (Err(_), Some(why)) => return Err(CliError::Scan(ScanError::Contradiction(why))),
        (Err(e), None) => return Err(CliError::Scan(e)),
    };
    if from_header {
        check_done(&mut *io.stdin, record.scans())?;
    }
    if fleet_known {
        io.stdout.write_all(super::ship_lines(&record, &rules).as_bytes())?;
    }
    io.stdout.write_all(record.render_output(None).as_bytes())?;
    io.stdout.flush()?;
    Ok(())
}

/// Reads the referee's `done N` after the last answer, if it sent one.
/// Pre: every ship cell was found in `scans` probes. Post: `Err` when the line is not
/// `done N` or N is not `scans`; the end of input is accepted.
fn check_done(input: &mut dyn std::io::BufRead, scans: usize) -> Result<(), CliError> {
    let Some((line, _)) = read_line(input)? else { return Ok(()) };
    let text = String::from_utf8_lossy(&line);
    match text.trim().strip_prefix("done ").map(|n| n.trim().parse::<usize>()) {
        Some(Ok(n)) if n == scans => Ok(()),
        Some(Ok(n)) => Err(CliError::Invalid(format!("the referee counted {n} probes, but {scans} were made"))),
        _ => Err(CliError::Invalid(format!(
            "expected the referee's `done {scans}` after the last answer, got `{}`",
            crate::input::shown(text.trim().as_bytes())
        ))),
    }
}

//! `play`: a strategy hunts ships it cannot see; someone else (a person at a terminal,
//! or a referee program over pipes) answers each probe.

use super::args::{Command, Flag, Operands, Parsed};
use super::{CliError, Streams};
use crate::board::Board;
use crate::interactive::{Interactive, Ships};
use crate::placement::{parse_fleet, Placer, STANDARD_FLEET};
use crate::scan::ScanError;
use crate::strategy::{self, DEFAULT_SEED};

const FLAGS: &[Flag] = &[
    Flag::value("--rows", "R", "rows of the bay"),
    Flag::value("--cols", "C", "columns of the bay"),
    Flag::value("--fleet", "LIST", "ship sizes, e.g. 5,4,3,3,2,2,1,1 (the default); the strategy\nis told the sizes, and the ship cells are their sum"),
    Flag::value("--cells", "N", "instead of a fleet: only the number of ship cells (bayes then\nplays its fallback, parity, which needs no fleet)"),
    Flag::value("--strategy", "NAME", "the strategy that probes").default("prob"),
    Flag::value("--seed", "S", "seed of the random choices of random and bayes").default("2021"),
];

/// `play`'s command line.
pub const COMMAND: Command = Command {
    name: "play",
    summary: "a strategy probes a hidden bay; you or a program answer",
    usage: &["play --rows R --cols C [--fleet LIST | --cells N] [OPTIONS]"],
    groups: &[("OPTIONS", FLAGS)],
    operands: Operands::None,
    after: "\
PROTOCOL
  For each probe, one line on stdout:   ? r c
  (row r and column c, counted from 0 at the top left). Answer with one line on
  stdin:
    hit, h or 1    a ship cell
    miss, m or 0   water
  (any case; surrounding spaces ignored). stdout is flushed after every line, so
  a referee program can play over pipes. No cell is asked twice. Ships are
  straight, 1 to 5 cells long, and never touch, not even diagonally: the
  strategy may mark cells as water without asking.

  When every ship cell is found, stdout ends with what the judge prints: the
  number of probes, then the grid (+ ship found, X water probed or deduced, .
  never probed).

ERRORS (one `error: ` line on stderr, exit status 2)
  a bad answer      at a terminal: explained on stderr and asked again; over
                    pipes: error
  end of input      before every ship cell is found
  contradiction     an answer the rules make impossible: a hit diagonal to
                    another hit, more hits than ship cells, a line of hits
                    longer than the longest ship, or no cell left with ship
                    cells still missing
",
};

/// Runs `play`.
/// Pre: none. Post: on `Ok`, stdout holds the questions, then the count and the final
/// grid; on `Err` (bad flags, bad or missing answers, contradictions) nothing more is
/// written after the last question.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let name = flags.text("--strategy").unwrap_or("prob");
    let seed = flags.get_or("--seed", DEFAULT_SEED)?;
    let Some(mut strategy) = strategy::by_name(name, seed) else {
        return Err(CliError::Usage(format!(
            "--strategy: unknown strategy `{name}`; valid names: {}",
            strategy::NAMES.join(", ")
        )));
    };
    let rows: usize = flags.require("--rows")?;
    let cols: usize = flags.require("--cols")?;
    Board::check_size(rows, cols).map_err(|e| CliError::Usage(e.to_string()))?;
    let ships = match (flags.text("--fleet"), flags.has("--cells")) {
        (Some(_), true) => return Err(CliError::Usage("give --fleet or --cells, not both".into())),
        (None, true) => {
            let n: usize = flags.get_or("--cells", 0)?;
            if n > rows * cols {
                return Err(CliError::Usage(format!(
                    "--cells: {n} ship cells do not fit on a {rows}x{cols} board ({} cells)",
                    rows * cols
                )));
            }
            Ships::Cells(n)
        }
        (fleet, false) => {
            let sizes = match fleet {
                Some(text) => parse_fleet(text).map_err(|e| CliError::Usage(format!("--fleet: {e}")))?,
                None => STANDARD_FLEET.to_vec(),
            };
            Placer::new(rows, cols).check_fleet(&sizes)?;
            Ships::Fleet(sizes)
        }
    };
    if io.stdin_tty {
        writeln!(io.stderr, "{name} is probing a {rows}x{cols} bay: answer each `? row col` with hit or miss")?;
    }
    let mut sonar = Interactive::new(rows, cols, ships, &mut *io.stdin, &mut *io.stdout, &mut *io.stderr, io.stdin_tty);
    let result = strategy::solve(strategy.as_mut(), &mut sonar);
    let contradiction = sonar.contradiction().map(str::to_owned);
    drop(sonar);
    let record = match (result, contradiction) {
        (Ok(record), _) => record,
        (Err(_), Some(why)) => return Err(CliError::Scan(ScanError::Contradiction(why))),
        (Err(e), None) => return Err(CliError::Scan(e)),
    };
    io.stdout.write_all(record.render_output(None).as_bytes())?;
    io.stdout.flush()?;
    Ok(())
}

//! The judge command: a judge input (a file, or stdin), the scan count and the final
//! grid on stdout.

use super::args::{Command, Flag, Operands, Parsed};
use super::{read_input, CliError, Streams};
use crate::input;
use crate::strategy::{self, DEFAULT_SEED};

const FLAGS: &[Flag] = &[
    Flag::value("--strategy", "NAME", "play NAME instead of the strategy on the input's first line"),
    Flag::value("--seed", "S", "seed of the random choices of random and bayes").default("2021"),
];

/// The judge's command line.
pub const COMMAND: Command = Command {
    name: "",
    summary: "spot every ship cell of a bay with as few scans as possible",
    usage: &[
        "[OPTIONS] [FILE]     solve a judge input (FILE, or stdin)",
        "COMMAND [OPTIONS]    run one of the commands below",
    ],
    groups: &[("OPTIONS", FLAGS)],
    operands: Operands::File,
    after: "\
INPUT
  Three lines: a strategy name; `rows cols n`; then n ships, each
  `row col size E|S` (first cell from 0, 1 to 5 cells, running East or South).
  Any whitespace separates the numbers; the ship list may span lines.

OUTPUT
  The number of scans, then the final grid, one line per row:
    +  ship cell spotted          X  water scanned, or a cell known to be water
    O  ship cell never scanned    .  water never scanned

STRATEGIES
  linear   row by row, left to right
  smart    linear, but a hit eliminates its diagonals and scans its E and S next
  prob     the statement's likelihood matrix, plus a queue of a hit's neighbours
  random   a random order fixed by --seed
  parity   diagonal lattice for the longest ship afloat, then sink what was hit
  bayes    the cell most likely to be a ship given every answer and the fleet
",
};

/// Solves the judge input.
/// Pre: none. Post: on `Ok`, stdout holds the count line and the grid; on `Err`, nothing.
pub fn run(p: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let seed = p.get_or("--seed", DEFAULT_SEED)?;
    let bytes = read_input(p, io, "`spot-the-ships --help` for the format")?;
    let input = input::parse(&bytes, &strategy::NAMES)?;
    let name = p.text("--strategy").unwrap_or(&input.strategy);
    let mut board = input.board;
    let Some(mut strategy) = strategy::by_name(name, seed) else {
        return Err(CliError::Usage(format!(
            "--strategy: unknown strategy `{name}`; valid names: {}",
            strategy::NAMES.join(", ")
        )));
    };
    let record = strategy::solve(strategy.as_mut(), &mut board)?;
    io.stdout.write_all(record.render_output(Some(&board)).as_bytes())?;
    Ok(())
}

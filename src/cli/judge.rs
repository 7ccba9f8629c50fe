//! The judge command: a judge input (a file, or stdin), the scan count and the final
//! grid on stdout.

use super::args::{Command, Flag, Operands, Parsed};
use super::game::{self, RULE_FLAGS};
use super::{open_input, CliError, Streams};
use crate::input;
use crate::strategy::{self, DEFAULT_SEED};

const FLAGS: &[Flag] = &[
    Flag::value("--strategy", "NAME", "play NAME, not the strategy on the input's first line"),
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
    groups: &[("OPTIONS", FLAGS), ("RULES", RULE_FLAGS)],
    operands: Operands::File,
    after: "\
INPUT
  Three lines: a strategy name; `rows cols n`; then n ships, each
  `row col size E|S` (first cell from 0, 1 to 5 cells, running East or South).
  Any whitespace separates the numbers; the ship list may span lines. With a
  fleet of drawn ships (--fleet-file, --rules starwars) a ship is `row col K T`:
  the top-left corner of its box, its number K in the fleet file, its turn T (N
  as drawn, E, S or W a quarter, half or three-quarter turn clockwise). Ships
  may touch when the rules (--rules, --touch) allow it.

OUTPUT
  The number of scans, then the final grid, one line per row:
    +  ship cell spotted          X  water scanned, or a cell known to be water
    O  ship cell never scanned    .  water never scanned
",
    extra: Some(extra_help),
};

/// The strategies and the rule presets.
fn extra_help() -> String {
    format!("STRATEGIES\n{}\n{}", strategy::help_list(), game::presets_help())
}

/// Solves the judge input.
/// Pre: none. Post: on `Ok`, stdout holds the count line and the grid; on `Err`, nothing.
pub fn run(p: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let seed = p.get_or("--seed", DEFAULT_SEED)?;
    let rules = game::rules(p)?;
    let input = {
        let hint = "`spot-the-ships --help` for the format";
        let mut reader = open_input(p, io.stdin, io.stderr, io.stdin_tty, hint)?;
        input::read_under(&mut *reader, &strategy::NAMES, &rules)?
    };
    let mut board = input.board;
    game::check_fleet(p, &rules, board.rules().fleet())?;
    let name = p.text("--strategy").unwrap_or(&input.strategy);
    let mut strategy = strategy::for_rules(name, seed, board.rules()).map_err(|e| CliError::Usage(e.to_string()))?;
    let record = strategy::solve(strategy.as_mut(), &mut board)?;
    io.stdout.write_all(super::ship_lines(&record, board.rules()).as_bytes())?;
    record.write_output(Some(&board), io.stdout)?;
    Ok(())
}

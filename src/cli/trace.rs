//! `trace`: runs the strategy named in a judge input and shows every scan step by step,
//! then the judge's own output.

use super::args::{Command, Flag, Operands, Parsed};
use super::game::{self, RULE_FLAGS};
use super::{open_input, CliError, Streams};
use crate::input;
use crate::strategy::{self, DEFAULT_SEED};
use crate::trace::{TraceOptions, Tracer};

const FLAGS: &[Flag] = &[
    Flag::value("--strategy", "NAME", "trace NAME, not the strategy on the input's first line"),
    super::COLOR_FLAG,
    Flag::value("--limit", "N", "show only the first N scans, then how many more there\nwere, then the judge's output (needed over 10,000 cells)"),
    Flag::value("--format", "F", "text, or json: JSON Lines, one object per scan").default("text"),
    Flag::value("--seed", "S", "seed of the random choices of random and bayes").default("2021"),
];

/// The largest board traced without `--limit`.
pub(crate) const MAX_UNLIMITED_CELLS: usize = 10_000;

/// `trace`'s command line.
pub const COMMAND: Command = Command {
    name: "trace",
    summary: "show, scan by scan, how a strategy solves a judge input",
    usage: &["trace [OPTIONS] [FILE]"],
    groups: &[("OPTIONS", FLAGS), ("RULES", RULE_FLAGS)],
    operands: Operands::File,
    after: "\
The input is a judge input (see `spot-the-ships --help`), from FILE or stdin.

OUTPUT
  A first line names the strategy and the board. Then one block per scan:
    scan K: (r,c) from SOURCE, hit|miss
                          K from 1; (r,c) row and column from 0; SOURCE: where
                          the strategy took the cell (row-major order, list
                          front, matrix, random order)
      likelihood matrix read to choose it:
                          prob, when its list was empty: the matrix before the
                          probe, -1 for blocked (probed or eliminated) cells
      eliminated: CELLS   cells marked water without a scan in this step, or
                          none
      LIST: CELLS         the strategy's list after the step: smart's boardList
                          (first 12 cells), prob's highProbabilityList
      board:              the board as the judge draws it: + spotted ship, X
                          water, O ship not spotted yet, . water never scanned
  It ends with `judge output:` and exactly what the judge prints.

  With --limit N, the blocks stop after scan N; a line `... K more scans not
  shown (--limit N)` comes before the judge's output. Boards over 10,000 cells
  need --limit; their likelihood matrices are not shown.

  --format json (JSON Lines): a first object {\"strategy\", \"rows\", \"cols\",
  \"ships\", \"ship_cells\"}; one object per scan {\"scan\", \"probe\": [r, c],
  \"source\", \"answer\", \"eliminated\": [[r, c], ...], \"list\": {\"name\", \"cells\",
  \"length\"} (when the strategy has one), \"matrix\": [[...], ...] (when read;
  null when not shown), \"grid\": [ROW, ...]}; {\"scans_not_shown\": K} after a
  --limit; last, the judge's output {\"scans\": N, \"grid\": [ROW, ...]}.

  With colour: spotted ships red, scanned water blue, eliminated cells yellow
  (bold when eliminated in this step), the cell probed in this step black on
  green.
",
    extra: None,
};

/// Runs `trace`: the judge input on stdin, the trace on stdout.
/// Pre: none. Post: on `Ok`, stdout holds the whole trace ending with the judge's
/// output (or the usage text for `--help`); bad flags or input give `Err` with nothing
/// on stdout.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let json = super::wants_json(flags)?;
    let color = super::use_color(flags, io.stdout_tty)? && !json;
    let limit: Option<usize> = flags.get("--limit")?;
    let seed = flags.get_or("--seed", DEFAULT_SEED)?;
    let rules = game::rules(flags)?;
    let input = {
        let hint = "`spot-the-ships trace --help` for the format";
        let mut reader = open_input(flags, io.stdin, io.stderr, io.stdin_tty, hint)?;
        input::read_under(&mut *reader, &strategy::NAMES, &rules)?
    };
    let board = input.board;
    game::check_fleet(flags, &rules, board.rules().fleet())?;
    let cells = board.rows().saturating_mul(board.cols());
    if limit.is_none() && cells > MAX_UNLIMITED_CELLS {
        return Err(CliError::Usage(format!(
            "the board has {cells} cells, and a trace draws the whole board after every scan: give --limit N to show \
             only the first N scans (boards of up to {MAX_UNLIMITED_CELLS} cells need no limit)"
        )));
    }
    let name = flags.text("--strategy").unwrap_or(&input.strategy);
    if name == "all" {
        return Err(CliError::Usage(
            "--strategy all: a trace follows one strategy; try `spot-the-ships --strategy all FILE` to compare them"
                .into(),
        ));
    }
    let mut strategy = strategy::for_rules(name, seed, board.rules()).map_err(|e| CliError::Usage(e.to_string()))?;
    let mut sonar = board.clone();
    let options = TraceOptions { json, limit, ..TraceOptions::for_strategy(name, color) };
    let mut tracer = Tracer::new(&board, options, &mut *io.stdout);
    tracer.begin(name);
    let record = strategy::solve_observed(strategy.as_mut(), &mut sonar, &mut tracer)?;
    tracer.finish(&record)?;
    Ok(())
}

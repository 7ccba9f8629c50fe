//! `trace`: runs the strategy named in a judge input and shows every scan step by step,
//! then the judge's own output.

use super::args::{switch, value, Flags};
use super::{read_all, CliError, Streams};
use crate::input;
use crate::strategy::{self, DEFAULT_SEED};
use crate::trace::{TraceOptions, Tracer, BOARD_LIST_SHOWN};

const COMMAND: &str = "spot-the-ships trace";

/// The `--help` text.
fn help() -> String {
    format!(
        "\
spot-the-ships trace: show, scan by scan, how a strategy solves a judge input

USAGE
  spot-the-ships trace [--color auto|always|never] [--seed S] < input.txt

The input is a judge input (strategy name; `rows cols n`; n ships `row col size E|S`).

FLAGS
  --color WHEN   colour the drawn boards: auto (default: only when stdout is a
                 terminal), always or never
  --seed S       seed of the random strategy (default {DEFAULT_SEED})
  --help         print this text

OUTPUT
  A first line names the strategy and the board. Then one block per scan:
    scan K: (r,c) from SOURCE, hit|miss
                          K counts scans from 1; (r,c) is the probed cell (row, column,
                          from 0); SOURCE is where the strategy took it: row-major order
                          (linear), list front (smart, prob), matrix (prob), random order
      likelihood matrix read to choose it:
                          prob only, when its list was empty: the matrix just before
                          this probe, -1 for blocked (probed or eliminated) cells
      eliminated: CELLS   cells marked water without a scan in this step, or none
      LIST: CELLS         the strategy's list after the step, front first: smart's
                          boardList (first {BOARD_LIST_SHOWN} cells, then how many more),
                          prob's whole highProbabilityList; linear and random have none
      board:              the board after the step, drawn as the judge draws it:
                          + spotted ship, X water scanned or eliminated,
                          O ship not spotted yet, . water never scanned
  It ends with `judge output:` and exactly what the judge prints: the number of
  scans, then the final grid.

  With colour: spotted ships red, scanned water blue, eliminated cells yellow (bold
  when eliminated in this step), the cell probed in this step black on green.
"
    )
}

/// Runs `trace`: the judge input on stdin, the trace on stdout.
/// Pre: none. Post: on `Ok`, stdout holds the whole trace ending with the judge's
/// output (or the usage text for `--help`); bad flags or input give `Err` with nothing
/// on stdout.
pub fn run(args: &[String], io: &mut Streams<'_>) -> Result<(), CliError> {
    let flags = Flags::parse(args, &[value("--color"), value("--seed"), switch("--help"), switch("-h")], COMMAND)?;
    if flags.has("--help") || flags.has("-h") {
        io.stdout.write_all(help().as_bytes())?;
        return Ok(());
    }
    let color = match flags.text("--color").unwrap_or("auto") {
        "auto" => io.stdout_tty,
        "always" => true,
        "never" => false,
        other => {
            return Err(CliError::Usage(format!("{COMMAND}: --color must be auto, always or never, not `{other}`")))
        }
    };
    let seed = flags.get("--seed", DEFAULT_SEED)?;
    let bytes = read_all(io.stdin)?;
    let input = input::parse(&bytes, &strategy::NAMES)?;
    let board = input.board;
    let Some(mut strategy) = strategy::by_name(&input.strategy, seed) else {
        return Err(CliError::Usage(format!("unknown strategy `{}`", input.strategy)));
    };
    let mut sonar = board.clone();
    let mut tracer = Tracer::new(&board, TraceOptions::for_strategy(&input.strategy, color), &mut *io.stdout);
    tracer.begin(&input.strategy);
    let record = strategy::solve_observed(strategy.as_mut(), &mut sonar, &mut tracer)?;
    tracer.finish(&record)?;
    Ok(())
}

//! `trace`: runs the strategy named in a judge input and shows every scan step by step,
//! then the judge's own output.

use super::game::{RuleFlags, RULE_FLAGS};
use super::shared::{self, ColorWhen, Format, COLOR, FORMAT, SEED, STRATEGY};
use super::{open_input, CliError, Streams};
use crate::args::{Command, Flag, Operands, Parsed};
use crate::game::input;
use crate::strategy;
use crate::tools::trace::TraceRequest;

const FLAGS: &[Flag] = &[
    STRATEGY.with_help("trace NAME, not the strategy on the input's first line"),
    COLOR,
    Flag::value("--limit", "N", "show only the first N scans, then how many more there\nwere, then the judge's output (needed over 10,000 cells;\na trace that could write over 1 GiB is refused)"),
    FORMAT.with_help("text, or json: JSON Lines, one object per scan"),
    SEED,
];

/// `trace`'s flags, read.
#[derive(Debug)]
pub(crate) struct TraceConfig {
    /// `--format json`.
    pub json: bool,
    /// `--color`.
    pub color: ColorWhen,
    /// `--limit`: the scans shown at most.
    pub limit: Option<usize>,
    /// `--seed`.
    pub seed: u64,
    /// The rule flags.
    pub rules: RuleFlags,
    /// `--strategy`: instead of the input's.
    pub strategy: Option<String>,
    /// The input file; `None` (or `-`) for standard input.
    pub input: Option<String>,
}

impl TraceConfig {
    /// Reads `trace`'s arguments.
    /// Pre: `p` was parsed by [`COMMAND`]. Post: `Err(Usage)` for a bad value.
    pub(crate) fn read(p: &Parsed) -> Result<TraceConfig, CliError> {
        let json = Format::read(p, &["text", "json"])? == Format::Json;
        let color = ColorWhen::read(p)?;
        let limit = p.get("--limit")?;
        let seed = shared::seed(p)?;
        let rules = RuleFlags::read(p)?;
        let (strategy, input) = (shared::strategy(p), p.operands().first().cloned());
        Ok(TraceConfig { json, color, limit, seed, rules, strategy, input })
    }
}

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
      eliminated: CELLS   cells marked water without a scan in this step (none)
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
",
    extra: None,
    document: Some("report/playing.md"),
};

/// Runs `trace`: the judge input on stdin, the trace on stdout.
/// Pre: none. Post: on `Ok`, stdout holds the whole trace ending with the judge's
/// output (or the usage text for `--help`); bad flags or input give `Err` with nothing
/// on stdout.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let config = TraceConfig::read(flags)?;
    let (json, limit, seed) = (config.json, config.limit, config.seed);
    let color = config.color.wanted(io.stdout_tty) && !json;
    let input = {
        let hint = "`spot-the-ships trace --help` for the format";
        let mut reader = open_input(config.input.as_deref(), io.stdin, io.stderr, io.stdin_tty, hint)?;
        input::read_under(&mut *reader, &strategy::NAMES, &config.rules.rules)?
    };
    let board = input.board;
    config.rules.check_fleet(board.rules().fleet())?;
    let name = config.strategy.as_deref().unwrap_or(&input.strategy);
    let request = TraceRequest { strategy: name, seed, json, limit, color };
    Ok(crate::tools::trace::trace(&board, &request, io.stdout)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_defaults_flags_and_bad_values() {
        let c = TraceConfig::read(&COMMAND.parse_words(&[])).unwrap();
        assert_eq!((c.json, c.color, c.limit, c.seed, c.strategy), (false, ColorWhen::Auto, None, 2021, None));
        let words = ["--format", "json", "--color", "never", "--limit", "5", "--seed", "1", "--strategy", "smart"];
        let c = TraceConfig::read(&COMMAND.parse_words(&words)).unwrap();
        assert_eq!((c.json, c.color, c.limit, c.seed), (true, ColorWhen::Never, Some(5), 1));
        assert_eq!(c.strategy.as_deref(), Some("smart"));
        let e = TraceConfig::read(&COMMAND.parse_words(&["--limit", "x"])).unwrap_err().to_string();
        assert_eq!(e, "--limit: expected a whole number, got `x`");
    }
}

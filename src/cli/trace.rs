//! `trace`: runs the strategy named in a judge input and shows every scan step by step,
//! then the judge's own output.

use super::args::{Command, Flag, Operands, Parsed};
use super::game::{RuleFlags, RULE_FLAGS};
use super::shared::{self, ColorWhen, Format, COLOR, FORMAT, SEED, STRATEGY};
use super::{open_input, CliError, Streams};
use crate::game::input;
use crate::limits::TRACE_OUTPUT_BYTES;
use crate::limits::TRACE_UNLIMITED_CELLS;
use crate::scan::referee::Referee;
use crate::strategy;
use crate::tools::trace::{TraceOptions, Tracer};

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

/// About how many bytes a trace of a `rows` x `cols` board writes without colour:
/// `(per scan, once)`. Each scan draws the board (four spaces before each row), plus
/// its lines of text and, for prob on small boards, the likelihood matrix; once, the
/// judge's output. Pre: none. Post: saturates instead of overflowing.
fn output_estimate(rows: usize, cols: usize, matrix: bool) -> (u64, u64) {
    let (rows, cols) = (rows as u64, cols as u64);
    let board = rows.saturating_mul(cols.saturating_add(5));
    // A score has at most 5 digits on a board of 10,000 cells, one space between.
    let matrix = if matrix { rows.saturating_mul(cols.saturating_mul(6).saturating_add(4)) } else { 0 };
    (board.saturating_add(matrix).saturating_add(200), rows.saturating_mul(cols.saturating_add(1)).saturating_add(200))
}

/// A writer that refuses to write past [`TRACE_OUTPUT_BYTES`] bytes.
struct Capped<'a> {
    inner: &'a mut dyn std::io::Write,
    written: u64,
}

impl std::io::Write for Capped<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.written.saturating_add(buf.len() as u64) > TRACE_OUTPUT_BYTES {
            return Err(std::io::Error::other(format!(
                "the trace reached the output cap of {TRACE_OUTPUT_BYTES} bytes: give a smaller --limit"
            )));
        }
        let n = self.inner.write(buf)?;
        self.written = self.written.saturating_add(n as u64);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
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
    let cells = board.rows().saturating_mul(board.cols());
    if limit.is_none() && cells > TRACE_UNLIMITED_CELLS {
        return Err(CliError::Usage(format!(
            "the board has {cells} cells, and a trace draws the whole board after every scan: give --limit N to show \
             only the first N scans (boards of up to {TRACE_UNLIMITED_CELLS} cells need no limit)"
        )));
    }
    let name = config.strategy.as_deref().unwrap_or(&input.strategy);
    if name == "all" {
        return Err(CliError::Usage(
            "--strategy all: a trace follows one strategy; try `spot-the-ships --strategy all FILE` to compare them"
                .into(),
        ));
    }
    let mut strategy = strategy::for_rules(name, seed, board.rules()).map_err(|e| CliError::Usage(e.to_string()))?;
    // Bounded before it starts: at most `shown` scans are drawn.
    let shown = limit.unwrap_or(cells).min(cells);
    let matrix = name == "prob" && cells <= crate::tools::trace::MATRIX_SHOWN_CELLS;
    let (rows, cols) = (board.rows(), board.cols());
    let (per_scan, once) = output_estimate(rows, cols, matrix);
    let estimate = (shown as u64).saturating_mul(per_scan).saturating_add(once);
    if estimate > TRACE_OUTPUT_BYTES {
        let fits = TRACE_OUTPUT_BYTES.saturating_sub(once) / per_scan.max(1);
        return Err(CliError::Usage(format!(
            "{shown} scans of a {rows}x{cols} board would write about {estimate} bytes, more than the output cap of \
             {TRACE_OUTPUT_BYTES} bytes (1 GiB): give --limit {fits} or less"
        )));
    }
    // A board too large for the strategy is refused before the trace's first line.
    strategy::check_size(name, rows, cols, board.rules())?;
    let mut sonar = Referee::new(&board);
    let options = TraceOptions { json, limit, ..TraceOptions::for_strategy(name, color) };
    let mut capped = Capped { inner: &mut *io.stdout, written: 0 };
    let mut tracer = Tracer::new(&board, options, &mut capped);
    tracer.begin(name);
    let record = strategy::solve_observed(strategy.as_mut(), &mut sonar, &mut tracer)?;
    tracer.finish(&record)?;
    Ok(())
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

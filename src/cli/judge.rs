//! The judge command: a judge input (a file, or stdin), the scan count and the final
//! grid on stdout.

use super::game::{RuleFlags, RULE_FLAGS};
use super::shared::{self, Format, FORMAT, SEED, STRATEGY};
use super::{open_input, CliError, Streams};
use crate::args::{Command, Flag, Operands, Parsed};
use crate::game::board::Board;
use crate::game::input;
use crate::scan::referee::Referee;
use crate::strategy;

const FLAGS: &[Flag] = &[
    STRATEGY.with_help(
        "play NAME, not the strategy on the input's first line;\nall: every strategy the rules allow, one line each",
    ),
    SEED,
    FORMAT.with_help("text (the judge's output), or json: one line\n{\"scans\": N, \"grid\": [ROW, ...]}"),
];

/// The judge's flags, read.
#[derive(Debug)]
pub(crate) struct JudgeConfig {
    /// `--strategy`: instead of the input's; `all` for every one.
    pub strategy: Option<String>,
    /// `--seed`.
    pub seed: u64,
    /// `--format json`.
    pub json: bool,
    /// The rule flags.
    pub rules: RuleFlags,
    /// The input file; `None` (or `-`) for standard input.
    pub input: Option<String>,
}

impl JudgeConfig {
    /// Reads the judge's arguments.
    /// Pre: `p` was parsed by [`COMMAND`]. Post: `Err(Usage)` for a bad value.
    pub(crate) fn read(p: &Parsed) -> Result<JudgeConfig, CliError> {
        let seed = shared::seed(p)?;
        let json = Format::read(p, &["text", "json"])? == Format::Json;
        let rules = RuleFlags::read(p)?;
        Ok(JudgeConfig { strategy: shared::strategy(p), seed, json, rules, input: p.operands().first().cloned() })
    }
}

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
  `row col size E|S` (first cell from 0, 1 to 5 cells, running East or South),
  separated by any whitespace (drawn ships: `help fleet-file`). Ships may touch
  only when the rules allow it (`help rules`).

OUTPUT
  The number of scans, then the final grid, one line per row:
    +  ship cell spotted          X  water scanned, or a cell known to be water
    O  ship cell never scanned    .  water never scanned
  With a fleet of named or drawn ships, one line per ship comes first: NAME at
  (r,c), or NAME: N possible places when ships that touch leave several.
  --strategy all: one line `NAME SCANS` per strategy the rules and the board's
  size allow. json: {\"scans\": N, \"grid\": [\"++.\", ...]} (\"ships\" before
  \"grid\" for such fleets; all: {\"strategies\": [{\"name\", \"scans\"}, ...]}).
",
    extra: Some(extra_help),
    document: None,
};

/// The strategies.
fn extra_help() -> String {
    let names = strategy::NAMES.join(", ");
    let mut out = String::from("STRATEGIES (what each does and the rules it plays: `help strategies`)\n");
    let mut line = String::from(" ");
    for word in names.split(' ') {
        if line.len() + 1 + word.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line = String::from(" ");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Solves the judge input.
/// Pre: none. Post: on `Ok`, stdout holds the count line and the grid; on `Err`, nothing.
pub fn run(p: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let config = JudgeConfig::read(p)?;
    let (seed, json) = (config.seed, config.json);
    let input = {
        let hint = "`spot-the-ships --help` for the format";
        let mut reader = open_input(config.input.as_deref(), io.stdin, io.stderr, io.stdin_tty, hint)?;
        input::read_under(&mut *reader, &strategy::NAMES, &config.rules.rules)?
    };
    let board = input.board;
    config.rules.check_fleet(board.rules().fleet())?;
    let name = config.strategy.as_deref().unwrap_or(&input.strategy);
    if name == "all" {
        return every_strategy(&board, seed, json, io);
    }
    let mut strategy = strategy::for_rules(name, seed, board.rules())?;
    let record = strategy::solve(strategy.as_mut(), &mut Referee::new(&board))?;
    let places = crate::posterior::ship_places(&record, board.rules());
    if json {
        let ships = crate::render::places::json(&places);
        record.write_json(Some(&board), ships.as_deref(), io.stdout)?;
        return Ok(());
    }
    io.stdout.write_all(crate::render::places::lines(&places).as_bytes())?;
    record.write_output(Some(&board), io.stdout)?;
    Ok(())
}

/// Plays every strategy the board's rules and size allow on copies of `board`: one line
/// `NAME SCANS` each (or one JSON object).
/// Pre: none. Post: on `Err`, nothing written.
fn every_strategy(board: &Board, seed: u64, json: bool, io: &mut Streams<'_>) -> Result<(), CliError> {
    let results = strategy::scans_of_every(board, seed)?;
    let text = if json {
        use crate::render::json::{Array, Object};
        let items = Array::of(results.iter().map(|(n, s)| Object::new().field("name", *n).field("scans", *s)));
        Object::new().field("strategies", items).line()
    } else {
        let width = results.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
        results.iter().map(|(n, s)| format!("{n:<width$} {s}\n")).collect()
    };
    io.stdout.write_all(text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_defaults_flags_and_bad_values() {
        let c = JudgeConfig::read(&COMMAND.parse_words(&[])).unwrap();
        assert_eq!((c.strategy, c.seed, c.json, c.input), (None, crate::strategy::DEFAULT_SEED, false, None));
        assert_eq!(c.rules.rules, crate::game::rules::Rules::preset("problem-g").unwrap());
        let c =
            JudgeConfig::read(&COMMAND.parse_words(&["--strategy", "all", "--seed=3", "--format", "json", "in.txt"]))
                .unwrap();
        assert_eq!((c.strategy.as_deref(), c.seed, c.json, c.input.as_deref()), (Some("all"), 3, true, Some("in.txt")));
        let e = JudgeConfig::read(&COMMAND.parse_words(&["--format", "csv"])).unwrap_err().to_string();
        assert_eq!(e, "--format: expected text or json, got `csv`");
    }
}

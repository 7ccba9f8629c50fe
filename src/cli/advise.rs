//! `advise`: reads a game in progress (a grid of `.`, `X`, `+`, `#`) and tells how likely
//! each cell is to hold a ship, which cell to probe next, and which cells are settled.
//! The work is [`crate::tools::advise`]'s; this reads the flags and the grid, and writes
//! the advice as text (or as its JSON object).

use super::game::{RuleFlags, RULE_FLAGS};
use super::shared::{self, Format, COORDS, FORMAT, SEED, STRATEGY};
use super::{open_input, CliError, Streams};
use crate::args::{Command, Flag, Operands, Parsed};
use crate::scan::state;
use crate::tools::advise::{self, AdviceRequest, AdviceSettings, AdviceStrategy};

const FLAGS: &[Flag] = &[
    STRATEGY.with_help(
        "prob: the statement's likelihood scores (the default under\nProblem G's rules, no --fleet or --fleet-file); bayes: the\nprobability of a ship on each cell (the default otherwise)",
    ),
    Flag::value("--afloat", "LIST", "the ships still afloat, by name or size (battleship,3);\ndefault: the fleet less the sunk ships the # cells draw"),
    Flag::value("--prior", "NAME", "bayes's prior: uniform (every layout equally likely) or\ngenerator (the law of this program's generator)")
        .default("uniform"),
    FORMAT.with_help("text, or json: one object with the probabilities"),
    COORDS.with_help("numbers: cells as (r,c) from 0; letters: as B7 (rows A,\nB, ..., AA, ...; columns from 1), the matrix labelled"),
    SEED.with_help("seed of bayes's sampling when the layouts are too many\nto list"),
];

/// `advise`'s command line.
pub const COMMAND: Command = Command {
    name: "advise",
    summary: "where to probe next in a game in progress",
    usage: &["advise [OPTIONS] [FILE]     (or standard input: < state.txt)"],
    groups: &[("OPTIONS", FLAGS), ("RULES", RULE_FLAGS)],
    operands: Operands::File,
    after: "\
INPUT
  The game so far (FILE or standard input), one line per row, one character per
  cell:
    .  unknown    X  water (a miss, or known water)    +  a hit
    #  a cell of a ship already sunk (it leaves the fleet: see --afloat)
  All rows equally long, at most 1,000,000 cells, read as a stream (reading
  stops at the first error); CRLF line ends and empty lines after it are fine.

OUTPUT
  prob:  the statement's likelihood matrix: row score + column score over the
         cells not blocked; -1 for blocked cells (X, +, a hit's diagonals, cells
         the rules prove water). suggest: a certain ship cell, else the hit's
         N/E/S/W neighbour of highest score, else the highest score (ties: the
         first cell in row-major order).
  bayes: the chance of a ship on each cell, in percent: the weight of the
         layouts of the ships afloat that agree with the grid and put a ship
         there (exact when they are few, sampled otherwise). suggest: the
         unknown cell most likely to be a ship.
  Then `suggest: (r,c)` (or none), `certain water: CELLS` and `certain ship:
  CELLS` (unknown cells the grid settles; none when empty).
  --format json: {\"rows\", \"cols\", \"method\": \"exact\"|\"sampled\"|\"likelihood\",
  \"layouts\" (null and \"layouts_overflow\": true past 1.8e308), \"probability\":
  [[0..1, null for known cells]], \"suggest\": [r, c] or null}; prob: \"score\".

ERRORS (one `error: ` line, exit status 2): a ragged grid or another character,
  hits or sunk ships the rules forbid, an --afloat the fleet lacks, no layout.
",
    extra: None,
    document: Some("report/playing.md"),
};

/// Runs `advise`.
/// Pre: none. Post: on `Ok`, stdout holds the matrix, the suggestion and the certain
/// cells (or the JSON object); on `Err`, nothing was written.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let AdviseConfig { settings, style, input } = AdviseConfig::read(flags)?;
    let (known, wrecks) = {
        let hint = "`spot-the-ships advise --help` for the format";
        let mut reader = open_input(input.as_deref(), io.stdin, io.stderr, io.stdin_tty, hint)?;
        state::read(&mut *reader)?
    };
    let advice = advise::advise(AdviceRequest { settings, known, wrecks })?;
    let report = if style.json { advice.json() } else { advice.text(style.letters) };
    io.stdout.write_all(report.as_bytes())?;
    Ok(())
}

/// How the advice is written.
#[derive(Debug, Clone, Copy)]
struct Style {
    /// One JSON object.
    json: bool,
    /// Cells named `B7`, the matrix labelled with row letters and column numbers.
    letters: bool,
}

/// `advise`'s arguments, read (before the grid: bad flags fail first).
#[derive(Debug)]
struct AdviseConfig {
    /// What the advice is asked under.
    settings: AdviceSettings,
    /// How it is written.
    style: Style,
    /// The input file; `None` (or `-`) for standard input.
    input: Option<String>,
}

impl AdviseConfig {
    /// Reads `advise`'s arguments: rules, strategy, prior, format, coordinates, seed.
    /// Pre: `p` was parsed by [`COMMAND`]. Post: `Err(Usage)` for a bad flag, or prob
    /// under rules it cannot play.
    fn read(p: &Parsed) -> Result<AdviseConfig, CliError> {
        let rule_flags = RuleFlags::read(p)?;
        let strategy = AdviceStrategy::choose(p.text(STRATEGY.name), &rule_flags)?;
        let prior = advise::prior(p.text("--prior"))?;
        let json = Format::read(p, &["text", "json"])? == Format::Json;
        let style = Style { json, letters: shared::letters(p)? };
        let seed = shared::seed(p)?;
        let afloat = p.text("--afloat").map(str::to_string);
        let fleet_given = rule_flags.fleet_given();
        let settings = AdviceSettings { rules: rule_flags.rules, fleet_given, afloat, strategy, prior, seed };
        Ok(AdviseConfig { settings, style, input: p.operands().first().cloned() })
    }
}

#[cfg(test)]
mod config_tests {
    use super::*;
    use crate::posterior::Prior;

    #[test]
    fn reads_defaults_flags_and_bad_values() {
        let c = AdviseConfig::read(&COMMAND.parse_words(&[])).unwrap();
        assert_eq!(
            (c.settings.strategy, c.settings.prior, c.settings.seed, c.input),
            (AdviceStrategy::Prob, Prior::Uniform, 2021, None)
        );
        assert!(!c.style.json && !c.style.letters && c.settings.afloat.is_none());
        let words = [
            "--rules",
            "classic",
            "--format",
            "json",
            "--coords",
            "letters",
            "--prior",
            "generator",
            "--afloat",
            "3",
            "s.txt",
        ];
        let c = AdviseConfig::read(&COMMAND.parse_words(&words)).unwrap();
        assert_eq!(
            (c.settings.strategy, c.settings.prior, c.input.as_deref()),
            (AdviceStrategy::Bayes, Prior::Generator, Some("s.txt"))
        );
        assert!(c.style.json && c.style.letters);
        assert_eq!(c.settings.afloat.as_deref(), Some("3"));
        // Problem G's rules with a fleet given: bayes.
        assert_eq!(
            AdviseConfig::read(&COMMAND.parse_words(&["--fleet", "3"])).unwrap().settings.strategy,
            AdviceStrategy::Bayes
        );
        let e = |w: &[&str]| AdviseConfig::read(&COMMAND.parse_words(w)).unwrap_err().to_string();
        assert_eq!(e(&["--prior", "x"]), "--prior: expected uniform or generator, got `x`");
    }
}

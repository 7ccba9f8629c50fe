//! `advise`: reads a game in progress (a grid of `.`, `X`, `+`, `#`) and tells how likely
//! each cell is to hold a ship, which cell to probe next, and which cells are settled.
//! The work is [`crate::tools::advise`]'s; this reads the flags and the grid, and writes
//! the advice as text (or as its JSON object).

use super::args::{Command, Flag, Operands, Parsed};
use super::game::{RuleFlags, RULE_FLAGS};
use super::shared::{self, Format, COORDS, FORMAT, SEED, STRATEGY};
use super::{open_input, CliError, Streams};
use crate::game::position::Position;
use crate::posterior::{Method, Prior};
use crate::scan::state;
use crate::tools::advise::{self, Advice, AdviceError, AdviceRequest, AdviceSettings, AdviceStrategy, Values};
use std::fmt::Write as _;

/// The longest fleet description the bayes header shows (longer ones are summed up).
const FLEET_SHOWN: usize = 80;

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
};

/// Runs `advise`.
/// Pre: none. Post: on `Ok`, stdout holds the matrix, the suggestion and the certain
/// cells (or the JSON object); on `Err`, nothing was written.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let AdviseConfig { settings, style, input } = AdviseConfig::read(flags)?;
    let (known, wrecks) = {
        let hint = "`spot-the-ships advise --help` for the format";
        let mut reader = open_input(input.as_deref(), io.stdin, io.stderr, io.stdin_tty, hint)?;
        state::read(&mut *reader).map_err(|e| CliError::Invalid(e.to_string()))?
    };
    let advice = advise::advise(AdviceRequest { settings, known, wrecks }).map_err(cli_error)?;
    let report = if style.json { advice.json() } else { text(&advice, style) };
    io.stdout.write_all(report.as_bytes())?;
    Ok(())
}

/// An advice's error as the command's.
fn cli_error(e: AdviceError) -> CliError {
    match e {
        AdviceError::Setting(e) => e.into(),
        AdviceError::Grid(m) => CliError::Invalid(m),
        AdviceError::Placement(e) => CliError::Placement(e),
        AdviceError::Scan(e) => CliError::Scan(e),
    }
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

/// How the advice is written.
#[derive(Debug, Clone, Copy)]
struct Style {
    /// One JSON object.
    json: bool,
    /// Cells named `B7`, the matrix labelled with row letters and column numbers.
    letters: bool,
}

impl Style {
    /// `p` as this style names it.
    fn name(self, p: Position) -> String {
        if self.letters {
            crate::render::coords::letters(p)
        } else {
            p.to_string()
        }
    }
}

/// The advice as text: a header, the matrix, the suggestion and the certain cells.
fn text(advice: &Advice, style: Style) -> String {
    let mut out = String::new();
    let cols = advice.known.cols();
    match &advice.values {
        Values::Probabilities { values: v, estimate: e } => {
            let how = match e.method {
                Method::Exact => format!("exact over {} layout{}", e.layouts, if e.layouts == 1.0 { "" } else { "s" }),
                Method::Sampled => format!(
                    "estimated from {} sampled layouts, effective sample size {:.0}",
                    e.samples, e.effective_samples
                ),
            };
            let prior_name = if advice.prior == Prior::Uniform { "uniform" } else { "generator" };
            // A fleet too long to read on one line is summed up (800 one-cell ships:
            // `800 ships, 800 cells`).
            let fleet = &advice.fleet;
            let described = fleet.describe();
            let described = if described.len() > FLEET_SHOWN {
                format!(
                    "of {} and {}",
                    crate::render::words::count(fleet.len(), "ship"),
                    crate::render::words::count(fleet.ship_cells(), "cell")
                )
            } else {
                described
            };
            let _ = writeln!(out, "ship probability (percent; bayes, fleet {described}, {prior_name} prior, {how}):");
            let percent = |p: Position| -> u32 {
                let q = v.get(p.index(cols)).copied().unwrap_or(0.0);
                if q >= 1.0 || q <= 0.0 {
                    return (q * 100.0) as u32;
                }
                ((q * 100.0).round() as u32).clamp(1, 99)
            };
            write_matrix(&mut out, advice, &|p| percent(p).to_string(), style);
        }
        Values::Scores(m) => {
            out.push_str("likelihood (prob: row score + column score; -1 = blocked or water):\n");
            write_matrix(&mut out, advice, &|p| m.score(p).to_string(), style);
        }
    }
    match advice.suggest {
        Some(s) => {
            let _ = writeln!(out, "suggest: {}  ({})", style.name(s.cell), s.reason);
        }
        None => out.push_str("suggest: none (no unknown cell can hold a ship)\n"),
    }
    let list = |ship: bool| {
        let cells: Vec<String> = advice.certain(ship).map(|p| style.name(p)).collect();
        if cells.is_empty() {
            "none".to_string()
        } else {
            cells.join(" ")
        }
    };
    let _ = writeln!(out, "certain water: {}", list(false));
    let _ = writeln!(out, "certain ship: {}", list(true));
    out
}

/// Writes the values of the advice's cells (`value` of each, made when it is written:
/// a grid may have a million cells) as a right-aligned matrix (with letters, a line of
/// column numbers first and each row's letters before it).
fn write_matrix(out: &mut String, advice: &Advice, value: &dyn Fn(Position) -> String, style: Style) {
    let (rows, cols) = (advice.known.rows(), advice.known.cols());
    let mut width = advice.positions().map(|p| value(p).len()).max().unwrap_or(1);
    let lead = if style.letters {
        width = width.max(cols.to_string().len());
        let lead = crate::render::coords::row_letters(rows.saturating_sub(1)).len();
        let header: Vec<String> = (1..=cols).map(|c| format!("{c:>width$}")).collect();
        let _ = writeln!(out, "{:lead$} {}", "", header.join(" "));
        lead
    } else {
        0
    };
    for r in 0..rows {
        if style.letters {
            let _ = write!(out, "{:>lead$} ", crate::render::coords::row_letters(r));
        }
        for c in 0..cols {
            let sep = if c == 0 { "" } else { " " };
            let _ = write!(out, "{sep}{:>width$}", value(Position::new(r, c)));
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod config_tests {
    use super::*;

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

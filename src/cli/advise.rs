//! `advise`: reads a game in progress (a grid of `.`, `X`, `+`, `#`) and tells how likely
//! each cell is to hold a ship, which cell to probe next, and which cells are settled.

use super::args::{Command, Flag, Operands, Parsed};
use super::game::{RuleFlags, RULE_FLAGS};
use super::layout_search::{some_layout, Found};
use super::shared::{self, Format, COORDS, FORMAT, SEED, STRATEGY};
use super::{open_input, CliError, Streams};
use crate::game::cellset::CellSet;
use crate::game::fleet::Fleet;
use crate::game::placement::Placer;
use crate::game::position::Position;
use crate::game::rules::Rules;
use crate::limits::memory::Shortage;
use crate::posterior::{Estimator, Evidence, Method, Posterior, PosteriorError, Prior, Settings};
use crate::render::json;
use crate::scan::check::{self, Announced};
use crate::scan::deduce::Deduction;
use crate::scan::record::{CellState, ScanRecord};
use crate::scan::runs;
use crate::scan::sonar::{Answer, Impossible};
use crate::scan::state;
use crate::scan::ScanError;

/// The longest fleet description the bayes header shows (longer ones are summed up).
const FLEET_SHOWN: usize = 80;
use crate::strategy::likelihood::Likelihood;
use std::fmt::Write as _;

/// Layouts drawn when bayes must sample (one advice, not a game: it can afford many).
const SAMPLES: usize = 20_000;

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

/// The most placements the search for one layout tries before `advise` gives up
/// (about a second on the largest grid bayes takes, 4,096 cells).
const SEARCH_BUDGET: u64 = 200_000;

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

/// The two ways of advising.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Prob,
    Bayes,
}

/// Runs `advise`.
/// Pre: none. Post: on `Ok`, stdout holds the matrix, the suggestion and the certain
/// cells (or the JSON object); on `Err`, nothing was written.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let AdviseConfig { request, input } = AdviseConfig::read(flags)?;
    let (known, wrecks) = {
        let hint = "`spot-the-ships advise --help` for the format";
        let mut reader = open_input(input.as_deref(), io.stdin, io.stderr, io.stdin_tty, hint)?;
        state::read(&mut *reader).map_err(|e| CliError::Invalid(e.to_string()))?
    };
    let report = request.report(&known, &wrecks)?;
    io.stdout.write_all(report.as_bytes())?;
    Ok(())
}

/// `advise`'s arguments, read.
#[derive(Debug)]
pub(crate) struct AdviseConfig {
    /// What the flags ask for.
    pub request: Request,
    /// The input file; `None` (or `-`) for standard input.
    pub input: Option<String>,
}

impl AdviseConfig {
    /// Reads `advise`'s arguments.
    /// Pre: `p` was parsed by [`COMMAND`]. Post: as [`Request::from_flags`].
    pub(crate) fn read(p: &Parsed) -> Result<AdviseConfig, CliError> {
        Ok(AdviseConfig { request: Request::from_flags(p)?, input: p.operands().first().cloned() })
    }
}

/// What `advise`'s flags ask for (its typed config), read before the grid (bad flags
/// fail first). `serve`'s `/api/advise` builds the same flags, so that its numbers are
/// the command's.
#[derive(Debug)]
pub(crate) struct Request {
    rules: Rules,
    afloat: Option<String>,
    fleet_given: bool,
    mode: Mode,
    prior: Prior,
    style: Style,
    seed: u64,
}

impl Request {
    /// Reads the flags (rules, strategy, prior, format, coordinates, seed).
    /// Pre: none. Post: `Err(Usage)` for a bad flag, or prob under rules it cannot play.
    pub(crate) fn from_flags(flags: &Parsed) -> Result<Request, CliError> {
        let rule_flags = RuleFlags::read(flags)?;
        let rules = rule_flags.rules.clone();
        let apart = rules.is_problem_g();
        let fleet_given = rule_flags.fleet_given();
        let preset = rule_flags.preset_given.as_deref().unwrap_or(super::game::DEFAULT_PRESET);
        let mode = match flags.choice(STRATEGY.name, &["prob", "bayes"])? {
            None if apart && !fleet_given && preset == "problem-g" => Mode::Prob,
            Some("prob") => Mode::Prob,
            _ => Mode::Bayes,
        };
        if mode == Mode::Prob && !apart {
            return Err(CliError::Usage(
                "--strategy prob: the likelihood scores assume straight ships that never touch and answers of hit or miss"
                    .into(),
            ));
        }
        let prior = match flags.choice("--prior", &["uniform", "generator"])? {
            Some("generator") => Prior::Generator,
            _ => Prior::Uniform,
        };
        let json = Format::read(flags, &["text", "json"])? == Format::Json;
        let style = Style { json, letters: shared::letters(flags)? };
        let seed = shared::seed(flags)?;
        let afloat = flags.text("--afloat").map(str::to_string);
        Ok(Request { rules, afloat, fleet_given, mode, prior, style, seed })
    }

    /// The advice for the grid read as `known` with `wrecks` ([`state::read`]): the text
    /// or JSON object `advise` prints.
    /// Pre: `known` and `wrecks` as `state::read` gives them. Post: `Err` for a grid the
    /// rules and fleet make impossible, or one too large for bayes.
    pub(crate) fn report(&self, known: &ScanRecord, wrecks: &CellSet) -> Result<String, CliError> {
        let afloat = afloat(self.afloat.as_deref(), &self.rules, known, wrecks)?;
        let fleet_known = self.fleet_given || self.mode == Mode::Bayes;
        // Every deduction below takes the grid as this check leaves it: consistent.
        check_answers(known, &self.rules, fleet_known.then_some(&afloat))?;
        // A fleet given (or bayes's) must fit the bay at all: no advice on a bay no
        // layout of the ships afloat fits.
        if fleet_known {
            crate::posterior::fleet_fits(known.rows(), known.cols(), &self.rules.clone().with_fleet(afloat.clone()))?;
        }
        let grid = Grid { known, wrecks };
        match self.mode {
            Mode::Prob => prob_report(grid, self.fleet_given.then_some(&afloat), self.style),
            Mode::Bayes => {
                Placer::with_rules(known.rows(), known.cols(), &self.rules).check(&afloat)?;
                let rules = self.rules.clone().with_fleet(afloat);
                bayes_report(grid, &rules, self.prior, self.seed, self.style)
            }
        }
    }
}

/// The ships still afloat: `--afloat`, else the fleet less the sunk ships the `#` cells
/// draw (readable only when straight ships never touch).
fn afloat(list: Option<&str>, rules: &Rules, known: &ScanRecord, wrecks: &CellSet) -> Result<Fleet, CliError> {
    let fleet = rules.fleet();
    if let Some(list) = list {
        return Ok(fleet.subset(&afloat_counts(list, fleet)?));
    }
    if wrecks.count() == 0 {
        return Ok(fleet.clone());
    }
    let sunk = (!rules.touch() && fleet.is_straight()).then(|| wreck_sizes(known, wrecks)).flatten();
    let Some(sunk) = sunk else {
        // A grid the rules cannot read (not a bad flag: `/api/advise` answers 422).
        return Err(CliError::Invalid(unreadable_wrecks(rules, wrecks)));
    };
    let mut left = fleet.sizes();
    for s in sunk {
        match left.iter().position(|&x| x == s) {
            Some(k) => {
                left.remove(k);
            }
            None => {
                return Err(CliError::Invalid(format!(
                    "the grid has a sunk ship of {s} cells that the fleet does not have"
                )))
            }
        }
    }
    Ok(fleet.naming(&left))
}

/// The sizes of the sunk ships the wrecks draw, when ships are straight and never touch
/// (each group of `#` is then one straight ship).
/// Pre: `wrecks` has `known`'s cells. Post: `None` when a group of wrecks is not a
/// straight line of 1 to 5 cells.
fn wreck_sizes(known: &ScanRecord, wrecks: &CellSet) -> Option<Vec<usize>> {
    let found = runs::find_where(known.rows(), known.cols(), |i| wrecks.contains(i)).ok()?;
    Some(found.iter().map(|r| r.len).collect())
}

/// How many ships of each kind of `fleet` the `--afloat` list names: each item a ship's
/// name (`battleship`, any case) or a size (`4`: the first kind of 4 cells with a ship
/// left).
/// Pre: none. Post: `Err(Usage)` for an unknown name or size, or more ships of a kind
/// than the fleet has, naming the fleet.
fn afloat_counts(list: &str, fleet: &Fleet) -> Result<Vec<usize>, CliError> {
    let kinds = fleet.kinds();
    let mut counts = vec![0usize; kinds.len()];
    let the_fleet = format!("the fleet is {}", if fleet.is_empty() { "empty".into() } else { fleet.describe() });
    for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let by_name = fleet.kind_named(item);
        let by_size = || {
            let size: usize = item.parse().ok()?;
            let fits =
                |k: &usize| kinds.get(*k).is_some_and(|kind| kind.shape.straight_line().map(|l| l.0) == Some(size));
            let mut sized = (0..kinds.len()).filter(fits);
            let first = sized.clone().next();
            sized.find(|&k| counts.get(k) < kinds.get(k).map(|kind| &kind.count)).or(first)
        };
        let Some(k) = by_name.or_else(by_size) else {
            let names: Vec<&str> = kinds.iter().map(|k| k.name.as_str()).collect();
            let hint = crate::render::words::nearest(item, &names)
                .map(|n| format!("did you mean `{n}`? "))
                .unwrap_or_default();
            return Err(CliError::Usage(format!(
                "--afloat: no ship called `{}` in the fleet; {hint}{the_fleet}",
                crate::render::words::shown(item.as_bytes())
            )));
        };
        let (Some(count), Some(kind)) = (counts.get_mut(k), kinds.get(k)) else { continue };
        *count += 1;
        if *count > kind.count {
            let what = if fleet.is_named() {
                format!("`{}`", kind.name)
            } else {
                format!("ships of {} cells", kind.shape.size())
            };
            return Err(CliError::Usage(format!(
                "--afloat: {what} given {} times, but the fleet has {}: {the_fleet}",
                count,
                crate::render::words::count(kind.count, "such ship")
            )));
        }
    }
    Ok(counts)
}

/// Why the `#` cells cannot be read as ships, and the `--afloat` to write: the lists
/// of ships afloat that leave sunk ships with as many cells as the grid has `#`.
fn unreadable_wrecks(rules: &Rules, wrecks: &CellSet) -> String {
    let fleet = rules.fleet();
    let wrecks = wrecks.count();
    let why = if !fleet.is_straight() {
        "drawn ships' `#` cells are not read as shapes".to_string()
    } else if rules.touch() {
        "ships may touch under these rules (touch=yes), so a block of `#` can be one ship or several".to_string()
    } else {
        "a group of `#` cells is not one straight ship of 1 to 5 cells".to_string()
    };
    let kinds = fleet.kinds();
    // Every way of choosing the sunk ships (per kind, 0 to its count) with `wrecks` cells.
    let mut options: Vec<Vec<usize>> = Vec::new();
    let mut sunk = vec![0usize; kinds.len()];
    let mut tried = 0usize;
    loop {
        let cells: usize = sunk.iter().zip(kinds).map(|(&n, k)| n * k.shape.size()).sum();
        if cells == wrecks {
            options.push(sunk.clone());
        }
        tried += 1;
        // The next choice, like counting with digit k running from 0 to kinds[k].count.
        let mut k = 0;
        while let (Some(n), Some(kind)) = (sunk.get_mut(k), kinds.get(k)) {
            if *n < kind.count {
                *n += 1;
                break;
            }
            *n = 0;
            k += 1;
        }
        if k >= kinds.len() || tried >= 100_000 {
            break;
        }
    }
    let name = |k: usize| kinds.get(k).map_or(String::new(), |kind| kind.name.clone());
    let afloat_of = |sunk: &[usize]| -> String {
        let mut items = Vec::new();
        for (k, kind) in kinds.iter().enumerate() {
            for _ in 0..kind.count.saturating_sub(sunk.get(k).copied().unwrap_or(0)) {
                items.push(name(k));
            }
        }
        items.join(",")
    };
    let cells = crate::render::words::count(wrecks, "`#` cell");
    match options.as_slice() {
        [] => format!("the grid's {cells} cannot be split into ships: {why}; and no ships of the fleet ({}) have exactly that many cells", fleet.describe()),
        [one] => format!(
            "the grid's {cells} cannot be split into ships: {why}; give the ships still afloat: --afloat '{}'",
            afloat_of(one)
        ),
        [first, second, ..] => format!(
            "the grid's {cells} cannot be split into ships: {why}; give the ships still afloat, e.g. --afloat '{}' or --afloat '{}' ({} ways of sinking {} cells)",
            afloat_of(first),
            afloat_of(second),
            options.len(),
            wrecks
        ),
    }
}

/// Asks the consistency check ([`check`]) about every answer of the grid, in reading
/// order (a grid keeps no order of its own: the first impossible cell read is named),
/// against the ships afloat when the fleet is known (`#` cells are left out of both).
/// Pre: none. Post: `Err` names the first impossible cell and why; `Ok` when every
/// answer can be true, the preconditions of [`crate::scan::deduce::deduce`].
fn check_answers(grid: &ScanRecord, rules: &Rules, afloat: Option<&Fleet>) -> Result<(), CliError> {
    let (rows, cols) = (grid.rows(), grid.cols());
    // The answers checked so far.
    let mut known = ScanRecord::default();
    known.try_reserve(rows, cols).map_err(|e| CliError::Scan(ScanError::OutOfMemory(Shortage::of(rows, cols, e))))?;
    known.reset(rows, cols);
    // Unknown fleet: the grid's own hits are all the ship cells there are to check.
    let announced =
        Announced { rules, fleet: afloat, ship_cells: afloat.map_or(grid.hits(), Fleet::ship_cells), search: false };
    for i in 0..rows * cols {
        let answer = match grid.state_at(i) {
            CellState::Hit => Answer::Hit,
            CellState::Miss => Answer::Miss,
            CellState::Unknown | CellState::Eliminated => continue,
        };
        check::answer(&known, announced, Position::from_index(i, cols), answer).map_err(|c| {
            CliError::Invalid(match c.why {
                // A grid has no order: say it as a count, not as "already found".
                Impossible::AllFound { cells } => format!(
                    "the grid has more hits than the fleet's {} ({} is one too many, in reading order)",
                    crate::render::words::count(cells, "ship cell"),
                    c.cell
                ),
                _ => format!("the grid is impossible: {c}"),
            })
        })?;
        known.answered(i, answer);
    }
    Ok(())
}

/// The grid `advise` reads, borrowed (no copy): what is known, and the wrecks.
#[derive(Clone, Copy)]
struct Grid<'a> {
    known: &'a ScanRecord,
    wrecks: &'a CellSet,
}

impl Grid<'_> {
    /// The rules' deductions, or the grid's inconsistency as a `CliError`.
    /// Pre: the grid passed [`check_answers`] for `fleet` (or for its hits when `None`).
    fn deduce(self, fleet: Option<&[usize]>) -> Result<Deduction, CliError> {
        crate::scan::deduce::deduce(self.known, self.wrecks, fleet).map_err(|e| CliError::Invalid(e.to_string()))
    }

    /// Number of cells.
    fn cells(self) -> usize {
        self.known.rows() * self.known.cols()
    }

    /// Every cell of the grid, row-major.
    fn positions(self) -> impl Iterator<Item = Position> {
        let cols = self.known.cols();
        (0..self.cells()).map(move |i| Position::from_index(i, cols))
    }

    /// What is known of `p`.
    fn state(self, p: Position) -> CellState {
        self.known.state(p)
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

/// Writes the values of `grid`'s cells (`value` of each, made when it is written: a
/// grid may have a million cells) as a right-aligned matrix (with letters, a line of
/// column numbers first and each row's letters before it).
fn write_matrix(out: &mut String, grid: Grid<'_>, value: &dyn Fn(Position) -> String, style: Style) {
    let (rows, cols) = (grid.known.rows(), grid.known.cols());
    let mut width = grid.positions().map(|p| value(p).len()).max().unwrap_or(1);
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

/// The suggestion and certain-cell lines.
fn write_conclusions(
    out: &mut String,
    grid: Grid<'_>,
    suggest: Option<(Position, String)>,
    d: &Deduction,
    style: Style,
) {
    match suggest {
        Some((p, why)) => {
            let _ = writeln!(out, "suggest: {}  ({why})", style.name(p));
        }
        None => out.push_str("suggest: none (no unknown cell can hold a ship)\n"),
    }
    let unknown = |p: &Position| grid.state(*p) == CellState::Unknown;
    let list = |flags: &[bool]| {
        let cells: Vec<String> = grid
            .positions()
            .filter(|p| unknown(p) && flags.get(p.index(grid.known.cols())).copied().unwrap_or(false))
            .map(|p| style.name(p))
            .collect();
        if cells.is_empty() {
            "none".to_string()
        } else {
            cells.join(" ")
        }
    };
    let _ = writeln!(out, "certain water: {}", list(&d.water));
    let _ = writeln!(out, "certain ship: {}", list(&d.ship));
}

/// The JSON object of an advice: the value of every unknown cell (`value`, JSON text
/// made when it is written), null for known cells, under `key`.
fn json_report(
    grid: Grid<'_>,
    method: &str,
    layouts: Option<f64>,
    (key, value): (&str, &dyn Fn(Position) -> String),
    suggest: Option<Position>,
) -> String {
    use json::{Array, Object, Raw};
    let cell = |p: Position| (grid.state(p) == CellState::Unknown).then(|| value(p));
    let row = |r: usize| {
        (0..grid.known.cols()).fold(Array::new(), |a, c| a.item(cell(Position::new(r, c)).as_deref().map(Raw)))
    };
    let rows = (0..grid.known.rows()).map(row);
    // The count of layouts as Rust prints a float (no exponent, no fixed decimals); null
    // when it overflowed, with `layouts_overflow` true (absent otherwise).
    let overflow = layouts.is_some_and(|l| !l.is_finite());
    let object = Object::new()
        .field("rows", grid.known.rows())
        .field("cols", grid.known.cols())
        .field("method", method)
        .field("layouts", layouts.map(json::Count));
    let object = if overflow { object.field("layouts_overflow", true) } else { object };
    object.field(key, Array::of(rows)).field("suggest", suggest.map(|p| (p.row, p.col))).line()
}

/// prob's advice: the statement's matrix over the cells prob would have blocked and
/// the cells the rules prove to be water.
fn prob_report(grid: Grid<'_>, fleet: Option<&Fleet>, style: Style) -> Result<String, CliError> {
    let as_json = style.json;
    let sizes = fleet.map(Fleet::sizes);
    let d = grid.deduce(sizes.as_deref())?;
    let (rows, cols) = (grid.known.rows(), grid.known.cols());
    let mut matrix = Likelihood::new(rows, cols);
    // What prob would have blocked (probed cells, a hit's diagonals) is water or a hit.
    for (i, &w) in d.water.iter().enumerate() {
        if w || grid.known.state_at(i) == CellState::Hit {
            matrix.block(Position::from_index(i, cols));
        }
    }
    let flag = |v: &[bool], p: Position| v.get(p.index(cols)).copied().unwrap_or(false);
    let open = |p: Position| grid.state(p) == CellState::Unknown && !flag(&d.water, p);
    // First the best certain ship cell, then the best neighbour of a hit, then the best.
    let best_of = |cells: &mut dyn Iterator<Item = Position>| {
        cells.filter(|&p| open(p)).fold(None, |best: Option<Position>, p| match best {
            Some(b) if matrix.score(b) >= matrix.score(p) => Some(b),
            _ => Some(p),
        })
    };
    let neighbours = grid.positions().filter(|&p| {
        p.orthogonals(rows, cols).any(|n| grid.state(n) == CellState::Hit) && grid.state(p) == CellState::Unknown
    });
    let suggest = if let Some(p) = best_of(&mut grid.positions().filter(|&p| flag(&d.ship, p))) {
        Some((p, format!("certainly a ship cell, score {}", matrix.score(p))))
    } else if let Some(p) = best_of(&mut neighbours.into_iter()) {
        Some((p, format!("next to a hit, score {}", matrix.score(p))))
    } else {
        best_of(&mut grid.positions()).map(|p| (p, format!("highest score, {}", matrix.score(p))))
    };
    if as_json {
        let value = |p: Position| matrix.score(p).to_string();
        return Ok(json_report(grid, "likelihood", None, ("score", &value), suggest.map(|(p, _)| p)));
    }
    let mut out = String::new();
    out.push_str("likelihood (prob: row score + column score; -1 = blocked or water):\n");
    write_matrix(&mut out, grid, &|p| matrix.score(p).to_string(), style);
    write_conclusions(&mut out, grid, suggest, &d, style);
    Ok(out)
}

/// bayes's advice: the posterior probability of a ship on every cell, for the fleet of
/// `rules` (the ships afloat).
fn bayes_report(grid: Grid<'_>, rules: &Rules, prior: Prior, seed: u64, style: Style) -> Result<String, CliError> {
    let as_json = style.json;
    let fleet = rules.fleet();
    // The deductions of straight ships that never touch hold whatever a probe answers.
    let apart = !rules.touch() && fleet.is_straight();
    let mut d = if apart { grid.deduce(Some(&fleet.sizes()))? } else { Deduction::known(grid.known) };
    let cols = grid.known.cols();
    let settings = Settings { samples: SAMPLES, prior, ..Settings::default() };
    let ev = Evidence { known: grid.known, wrecks: Some(grid.wrecks), rules };
    let post: Posterior = Estimator::with_settings(seed, settings).estimate_under(&ev).map_err(|e| {
        CliError::Invalid(match e {
            PosteriorError::Contradiction(why) => {
                format!("the grid contradicts the fleet {}: {why}", fleet.describe())
            }
            // Sampling drew no layout: before saying none fits, search for one exactly.
            PosteriorError::Intractable => match some_layout(grid.known, grid.wrecks, rules, SEARCH_BUDGET) {
                Found::Layout => format!(
                    "layouts of the fleet {} agree with the grid (a search found one), but too few could be \
                     sampled to estimate the probabilities (the fleet nearly fills the bay); --strategy prob \
                     gives its scores",
                    fleet.describe()
                ),
                Found::None => format!(
                    "the grid contradicts the fleet {}: no layout of it agrees with the grid (an exhaustive \
                     search found none)",
                    fleet.describe()
                ),
                Found::GaveUp => format!(
                    "no layout of the fleet {} that agrees with the grid was found (sampling, then a search of \
                     {SEARCH_BUDGET} placements, neither found one nor proved that none exists)",
                    fleet.describe()
                ),
            },
            PosteriorError::TooLarge(_) => format!("bayes: {e}; --strategy prob has no such limit"),
            other => other.to_string(),
        })
    })?;
    // Both sources are sound: keep what either settles.
    for p in grid.positions() {
        let i = p.index(cols);
        if let Some(w) = d.water.get_mut(i) {
            *w |= post.is_certain_water(p);
        }
        if let Some(s) = d.ship.get_mut(i) {
            *s |= post.is_certain_ship(p);
        }
    }
    let flag = |v: &[bool], p: Position| v.get(p.index(cols)).copied().unwrap_or(false);
    let prob = |p: Position| -> f64 {
        if flag(&d.ship, p) {
            1.0
        } else if flag(&d.water, p) {
            0.0
        } else {
            post.prob(p)
        }
    };
    let suggest = grid.positions().filter(|&p| grid.state(p) == CellState::Unknown && !flag(&d.water, p)).fold(
        None,
        |best: Option<(Position, f64)>, p| {
            let q = prob(p);
            match best {
                Some((_, b)) if b >= q => best,
                _ => Some((p, q)),
            }
        },
    );
    if as_json {
        let method = if post.method == Method::Exact { "exact" } else { "sampled" };
        let value = |p: Position| json::fixed(prob(p), 6);
        return Ok(json_report(
            grid,
            method,
            Some(post.layouts.round()),
            ("probability", &value),
            suggest.map(|(p, _)| p),
        ));
    }
    let percent = |p: Position| -> u32 {
        let q = prob(p);
        if q >= 1.0 || q <= 0.0 {
            return (q * 100.0) as u32;
        }
        ((q * 100.0).round() as u32).clamp(1, 99)
    };
    let how = match post.method {
        Method::Exact => format!("exact over {} layout{}", post.layouts, if post.layouts == 1.0 { "" } else { "s" }),
        Method::Sampled => format!(
            "estimated from {} sampled layouts, effective sample size {:.0}",
            post.samples, post.effective_samples
        ),
    };
    let mut out = String::new();
    let prior_name = if prior == Prior::Uniform { "uniform" } else { "generator" };
    // A fleet too long to read on one line is summed up (800 one-cell ships: `800 ships,
    // 800 cells`).
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
    write_matrix(&mut out, grid, &|p| percent(p).to_string(), style);
    let suggest = suggest.map(|(p, q)| (p, format!("ship probability {:.1}%", q * 100.0)));
    write_conclusions(&mut out, grid, suggest, &d, style);
    Ok(out)
}

#[cfg(test)]
mod config_tests {
    use super::*;

    #[test]
    fn reads_defaults_flags_and_bad_values() {
        let c = AdviseConfig::read(&COMMAND.parse_words(&[])).unwrap();
        assert_eq!(
            (c.request.mode, c.request.prior, c.request.seed, c.input),
            (Mode::Prob, Prior::Uniform, 2021, None)
        );
        assert!(!c.request.style.json && !c.request.style.letters && c.request.afloat.is_none());
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
            (c.request.mode, c.request.prior, c.input.as_deref()),
            (Mode::Bayes, Prior::Generator, Some("s.txt"))
        );
        assert!(c.request.style.json && c.request.style.letters);
        assert_eq!(c.request.afloat.as_deref(), Some("3"));
        // Problem G's rules with a fleet given: bayes.
        assert_eq!(AdviseConfig::read(&COMMAND.parse_words(&["--fleet", "3"])).unwrap().request.mode, Mode::Bayes);
        let e = |w: &[&str]| AdviseConfig::read(&COMMAND.parse_words(w)).unwrap_err().to_string();
        assert_eq!(e(&["--prior", "x"]), "--prior: expected uniform or generator, got `x`");
    }
}

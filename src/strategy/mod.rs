//! Scanning strategies (the Strategy pattern): each decides which cell to probe next,
//! seeing only the [`Scan`] (answers so far, board size, ship-cell count, fleet sizes).

pub mod afloat;
mod bayes;
mod density;
mod hunt;
pub mod likelihood;
mod linear;
pub mod lookahead;
mod parity;
mod prob;
mod random;
pub mod ranking;
mod smart;

pub use bayes::Bayes;
pub use density::Density;
pub use hunt::Hunt;
pub use linear::Linear;
pub use lookahead::Lookahead;
pub use parity::Parity;
pub use prob::Probabilistic;
pub use random::Random;
pub use smart::Smart;

use crate::game::rules::Rules;
use crate::limits::memory::Shortage;
use crate::scan::observer::{ScanObserver, Silent};
use crate::scan::record::ScanRecord;
use crate::scan::sonar::Sonar;
use crate::scan::{Scan, ScanError};

/// A way of choosing cells to probe until every ship cell is spotted.
pub trait ScanStrategy {
    /// The name used on the input's first line.
    /// Pre: none. Post: one of [`NAMES`].
    fn name(&self) -> &'static str;

    /// Probes through `scan` until every ship cell is spotted. A strategy may be run
    /// again on another scan; it starts afresh each time.
    /// Pre: `scan` has not been probed yet. Post: `Ok` means `scan.is_done()`; at most
    /// `rows * cols` probes in any case.
    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError>;

    /// Restarts the strategy's random stream from `seed` (simulate gives every game its
    /// own); strategies that draw nothing at random ignore it.
    /// Pre: none. Post: the next run is as reproducible as a fresh strategy's.
    fn reseed(&mut self, _seed: u64) {}
}

/// One strategy: its name, what it does, which rules it can honour, and how to make
/// one. [`STRATEGIES`] is the only list of strategies: names, help and errors come
/// from it.
#[derive(Clone, Copy)]
pub struct Entry {
    /// The name used on the input's first line and on the command line.
    pub name: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    /// `Err(why)` when the strategy cannot honour the rules (the why names the rule).
    pub supports: fn(&Rules) -> Result<(), String>,
    /// About how many bytes a judge run needs per board cell, board and record
    /// included (measured on 4000x4000 boards by `tests/bench/resources.sh`; the
    /// figure `not enough memory` quotes).
    pub bytes_per_cell: usize,
    /// The largest board it plays, in cells ([`crate::limits::BOARD_CELLS`], every board,
    /// for all but density, whose totals and their tree take 16 bytes a cell): a larger
    /// one is refused ([`too_large`]), never handed to another strategy.
    pub max_cells: usize,
    /// A fresh strategy whose random choices follow the seed.
    pub make: fn(u64) -> Box<dyn ScanStrategy + Send>,
    /// True when `all` plays it ([`every`]); false for lookahead, which takes seconds a
    /// game and is played only when named.
    pub in_all: bool,
}

/// Any rules.
fn any_rules(_: &Rules) -> Result<(), String> {
    Ok(())
}

/// Straight ships that never touch: what smart and prob assume when they take a hit's
/// diagonal neighbours for water.
fn straight_apart(rules: &Rules) -> Result<(), String> {
    if rules.touch() {
        return Err(
            "it marks the diagonal neighbours of a hit as water, which is wrong when ships may touch (touch=yes)"
                .into(),
        );
    }
    straight(rules)
}

/// Straight ships.
fn straight(rules: &Rules) -> Result<(), String> {
    if !rules.fleet().is_straight() {
        return Err("it assumes straight ships, and this fleet has drawn ones".into());
    }
    Ok(())
}

/// Every strategy, in the order help and errors list them.
pub const STRATEGIES: [Entry; 11] = [
    Entry {
        max_cells: crate::limits::BOARD_CELLS,
        name: "linear",
        summary: "row by row, left to right",
        supports: any_rules,
        bytes_per_cell: 1,
        make: |_| Box::new(Linear),
        in_all: true,
    },
    Entry {
        max_cells: crate::limits::BOARD_CELLS,
        name: "smart",
        summary: "linear; a hit eliminates its diagonals, scans E and S next",
        supports: straight_apart,
        bytes_per_cell: 2,
        make: |_| Box::new(Smart::default()),
        in_all: true,
    },
    Entry {
        max_cells: crate::limits::BOARD_CELLS,
        name: "prob",
        summary: "the statement's likelihood matrix, a queue of hit neighbours",
        supports: straight_apart,
        bytes_per_cell: 8,
        make: |_| Box::new(Probabilistic::default()),
        in_all: true,
    },
    Entry {
        max_cells: crate::limits::BOARD_CELLS,
        name: "random",
        summary: "a random order fixed by --seed",
        supports: any_rules,
        bytes_per_cell: 1,
        make: |seed| Box::new(Random::new(seed)),
        in_all: true,
    },
    Entry {
        max_cells: crate::limits::BOARD_CELLS,
        name: "parity",
        summary: "a lattice for the longest ship afloat, then sink what was hit",
        supports: straight,
        bytes_per_cell: 3,
        make: |_| Box::new(Parity::default()),
        in_all: true,
    },
    Entry {
        max_cells: crate::limits::BOARD_CELLS,
        name: "bayes",
        summary: "the cell most likely a ship, given every answer and the fleet",
        supports: any_rules,
        bytes_per_cell: 3,
        make: |seed| Box::new(Bayes::new(seed)),
        in_all: true,
    },
    Entry {
        max_cells: crate::limits::BOARD_CELLS,
        name: "hunt",
        summary: "DataGenetics' hunt/target: random cells, then a hit's 4 sides",
        supports: any_rules,
        bytes_per_cell: 5,
        make: |seed| Box::new(Hunt::new(seed)),
        in_all: true,
    },
    Entry {
        max_cells: crate::limits::BOARD_CELLS,
        name: "hunt-parity",
        summary: "hunt, hunting on the checkerboard of the smallest ship afloat",
        supports: straight,
        bytes_per_cell: 9,
        make: |seed| Box::new(Hunt::with_parity(seed)),
        in_all: true,
    },
    Entry {
        max_cells: crate::limits::DENSITY_CELLS,
        name: "density",
        summary: "DataGenetics' probability density: slide every ship afloat",
        supports: any_rules,
        bytes_per_cell: 5,
        make: |_| Box::new(Density::default()),
        in_all: true,
    },
    Entry {
        max_cells: crate::limits::DENSITY_CELLS,
        name: "density-random",
        summary: "density, ties drawn at random (the remote-service solver)",
        supports: any_rules,
        bytes_per_cell: 5,
        make: |seed| Box::new(Density::with_random_ties(seed)),
        in_all: true,
    },
    Entry {
        max_cells: crate::limits::LOOKAHEAD_CELLS,
        name: "lookahead",
        summary: "density's top 5 on 8,192 layouts: 4 CPU-s a game, 1 s a move",
        supports: any_rules,
        bytes_per_cell: 5,
        make: |seed| Box::new(Lookahead::new(seed)),
        in_all: false,
    },
];

/// The names of `entries`, in order.
const fn names_of<const N: usize>(entries: &[Entry; N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = entries[i].name;
        i += 1;
    }
    out
}

/// Names of every strategy, in the order of [`STRATEGIES`].
pub const NAMES: [&str; STRATEGIES.len()] = names_of(&STRATEGIES);

/// Bytes a judge run needs whatever the board (program, buffers, stack).
const BASE_BYTES: usize = 8 << 20;

/// About how many bytes a judge run of strategy `name` needs on a `rows` x `cols`
/// board: the table's bytes per cell times the cells, plus what any run needs (the
/// figure `not enough memory` quotes).
/// Pre: none. Post: the base alone for an unknown name; saturates.
pub fn need(name: &str, rows: usize, cols: usize) -> usize {
    let per_cell = STRATEGIES.iter().find(|e| e.name == name).map_or(0, |e| e.bytes_per_cell);
    rows.saturating_mul(cols).saturating_mul(per_cell).saturating_add(BASE_BYTES)
}

/// The seed used by seeded strategies when none is given.
pub const DEFAULT_SEED: u64 = 2021;

/// Why no strategy could be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StrategyError {
    /// No strategy has that name.
    Unknown(String),
    /// The strategy cannot honour the rules.
    Unsupported {
        /// The strategy.
        name: &'static str,
        /// Why, naming the rule.
        why: String,
    },
}

impl std::fmt::Display for StrategyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StrategyError::Unknown(name) => {
                let hint = crate::render::words::did_you_mean(name, &NAMES);
                write!(f, "unknown strategy `{name}`; {hint}valid names: {}", NAMES.join(", "))
            }
            StrategyError::Unsupported { name, why } => write!(f, "strategy {name} cannot play these rules: {why}"),
        }
    }
}

impl std::error::Error for StrategyError {}

/// The strategy called `name`, or `None` for an unknown name.
/// Pre: none. Post: `Some(s)` has `s.name() == name`; `seed` drives random choices.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn ScanStrategy + Send>> {
    STRATEGIES.iter().find(|e| e.name == name).map(|e| (e.make)(seed))
}

/// The strategy called `name`, checked against `rules`.
/// Pre: none. Post: `Err(Unknown)` for an unknown name, `Err(Unsupported)` naming the
/// rule it cannot honour.
pub fn for_rules(name: &str, seed: u64, rules: &Rules) -> Result<Box<dyn ScanStrategy + Send>, StrategyError> {
    let entry = STRATEGIES.iter().find(|e| e.name == name).ok_or_else(|| StrategyError::Unknown(name.to_string()))?;
    (entry.supports)(rules).map_err(|why| StrategyError::Unsupported { name: entry.name, why })?;
    Ok((entry.make)(seed))
}

/// The error of strategy `name` asked to play a `rows` x `cols` board larger than its
/// [`Entry::max_cells`]: the limit, and the strategies that can play this board under
/// `rules`. Pre: none. Post: one line.
pub fn too_large(name: &str, rows: usize, cols: usize, rules: &Rules) -> ScanError {
    let cells = rows.saturating_mul(cols);
    let max = STRATEGIES.iter().find(|e| e.name == name).map_or(0, |e| e.max_cells);
    let can: Vec<&str> =
        STRATEGIES.iter().filter(|e| e.max_cells >= cells && (e.supports)(rules).is_ok()).map(|e| e.name).collect();
    ScanError::TooLarge(format!(
        "strategy {name} plays boards of at most {max} cells, and this {rows}x{cols} board has {cells}; \
         strategies that can play it: {}",
        can.join(", ")
    ))
}

/// Checks, before anything is written, that strategy `name` can play a `rows` x `cols`
/// board (at most its [`Entry::max_cells`]): what the strategy itself would refuse at
/// its first scan, asked early so that a command can fail with nothing on stdout.
/// Pre: none. Post: `Err` is [`too_large`]'s error; `Ok` for an unknown name.
pub fn check_size(name: &str, rows: usize, cols: usize, rules: &Rules) -> Result<(), ScanError> {
    match STRATEGIES.iter().find(|e| e.name == name) {
        Some(e) if rows.saturating_mul(cols) > e.max_cells => Err(too_large(name, rows, cols, rules)),
        _ => Ok(()),
    }
}

/// The strategies that can play `rules`, in the order of [`STRATEGIES`].
/// Pre: none. Post: never empty (linear, random, hunt, density and bayes play any rules).
pub fn supporting(rules: &Rules) -> impl Iterator<Item = &'static Entry> + '_ {
    STRATEGIES.iter().filter(move |e| (e.supports)(rules).is_ok())
}

/// What `all` stands for whatever the rules (check's `--strategies all`, serve's list):
/// every strategy but lookahead ([`Entry::in_all`]), in the order of [`STRATEGIES`].
pub fn all() -> impl Iterator<Item = &'static Entry> {
    STRATEGIES.iter().filter(|e| e.in_all)
}

/// What `all` stands for under `rules` (`--strategy all`, `--strategies all`, and
/// simulate's default under rules the statement's four cannot all play): [`all`] that
/// can play them.
/// Pre: none. Post: never empty, as [`supporting`].
pub fn every(rules: &Rules) -> impl Iterator<Item = &'static Entry> + '_ {
    all().filter(move |e| (e.supports)(rules).is_ok())
}

/// The scans each strategy that can play `board` (its rules, and its size) takes on
/// it, in the order of [`every`], each from `seed`: the judge's `--strategy all`.
/// Pre: none. Post: `Err` when a scan fails.
pub fn scans_of_every(board: &crate::game::board::Board, seed: u64) -> Result<Vec<(&'static str, usize)>, ScanError> {
    let cells = board.rows().saturating_mul(board.cols());
    let mut results = Vec::new();
    for entry in every(board.rules()).filter(|e| e.max_cells >= cells) {
        let record = solve((entry.make)(seed).as_mut(), &mut crate::scan::referee::Referee::new(board))?;
        results.push((entry.name, record.scans()));
    }
    Ok(results)
}

/// Every strategy, strongest first: fewest scans on average under the presets' rules
/// (report/results.md: bayes is the best or within 1% of the best under every preset),
/// but lookahead last: it beats density by about half a scan on the classic board, at
/// seconds a game, so it is played only when named. Defaults that must pick one
/// strategy for rules take the first that can play them.
pub const STRONGEST_FIRST: [&str; STRATEGIES.len()] = [
    "bayes",
    "density",
    "parity",
    "prob",
    "density-random",
    "hunt-parity",
    "smart",
    "hunt",
    "random",
    "linear",
    "lookahead",
];

/// The strongest strategy that can play `rules` ([`STRONGEST_FIRST`]).
/// Pre: none. Post: a name of [`NAMES`] whose entry supports `rules`.
pub fn strongest(rules: &Rules) -> &'static str {
    STRONGEST_FIRST.iter().copied().find(|name| supporting(rules).any(|e| e.name == *name)).unwrap_or("linear")
}

/// Per preset, the strategy of fewest mean scans on its rules and bay among those that
/// think at most about a second a move (simulate's 2,000 games a strategy, seed 2021,
/// in the page's levels table, whose unit test checks this one): under classic
/// lookahead, measured on the same boards by `tests/bench/lookahead-study.sh`
/// (report/results.md); under the others its gain and time a move were not measured,
/// and they keep the strongest of the rest.
pub const STRONGEST_BY_PRESET: [(&str, &str); 4] =
    [("problem-g", "bayes"), ("classic", "lookahead"), ("russian", "density"), ("starwars", "bayes")];

/// The strongest strategy for a `rows` x `cols` bay under `rules`: the preset's
/// ([`STRONGEST_BY_PRESET`]) when they are a preset's rules on its own bay, else
/// [`strongest`].
/// Pre: none. Post: a strategy that supports `rules` and plays a bay of that size.
pub fn strongest_for(rules: &Rules, rows: usize, cols: usize) -> &'static str {
    let of_preset = STRONGEST_BY_PRESET
        .iter()
        .find(|(name, _)| Rules::preset(name).is_ok_and(|preset| &preset == rules && preset.bay() == (rows, cols)));
    of_preset.map_or_else(|| strongest(rules), |&(_, strategy)| strategy)
}

/// `usual` when it can play `rules`, else the strongest strategy for a `rows` x `cols`
/// bay under them ([`strongest_for`]): the default of a command whose usual strategy
/// is not made for every game (play's prob).
/// Pre: none. Post: a strategy that supports `rules` (when `usual` is a known name or not).
pub fn usual_or_strongest(usual: &'static str, rules: &Rules, rows: usize, cols: usize) -> &'static str {
    if supporting(rules).any(|e| e.name == usual) {
        usual
    } else {
        strongest_for(rules, rows, cols)
    }
}

/// The strategies, one per line (`  name   summary`), for help texts.
/// Pre: none. Post: one line per strategy.
pub fn help_list() -> String {
    let width = NAMES.iter().map(|n| n.len()).max().unwrap_or(0);
    STRATEGIES.iter().map(|e| format!("  {:<width$}  {}\n", e.name, e.summary)).collect()
}

/// Runs `strategy` on `sonar` with `observer` watching, and returns the record.
/// Pre: none. Post: on `Ok`, every ship cell is `Hit` in the record.
pub fn solve_observed(
    strategy: &mut dyn ScanStrategy,
    sonar: &mut dyn Sonar,
    observer: &mut dyn ScanObserver,
) -> Result<ScanRecord, ScanError> {
    solve_in(strategy, sonar, observer, ScanRecord::new(0, 0))
}

/// The one place a scan is started for a strategy: the record is sized fallibly first.
fn solve_in(
    strategy: &mut dyn ScanStrategy,
    sonar: &mut dyn Sonar,
    observer: &mut dyn ScanObserver,
    mut record: ScanRecord,
) -> Result<ScanRecord, ScanError> {
    let (rows, cols) = (sonar.rows(), sonar.cols());
    // What a shortage quotes: the whole run's need when the table knows it (looked up
    // only then: simulate comes through here millions of times a second).
    let name = strategy.name();
    let short = |e: ScanError| match e {
        ScanError::OutOfMemory(s) | ScanError::Probe(crate::scan::sonar::ProbeError::OutOfMemory(s)) => {
            ScanError::OutOfMemory(s.at_least(need(name, rows, cols)))
        }
        e => e,
    };
    record.try_reserve(rows, cols).map_err(|e| short(ScanError::OutOfMemory(Shortage::of(rows, cols, e))))?;
    let mut scan = Scan::with_record(sonar, observer, record);
    strategy.run(&mut scan).map_err(short)?;
    Ok(scan.into_record())
}

/// Runs `strategy` on `sonar` with nobody watching.
/// Pre: none. Post: as [`solve_observed`].
pub fn solve(strategy: &mut dyn ScanStrategy, sonar: &mut dyn Sonar) -> Result<ScanRecord, ScanError> {
    solve_observed(strategy, sonar, &mut Silent)
}

/// As [`solve`], building the returned record in `record`'s memory (see
/// [`Scan::with_record`]).
/// Pre: none. Post: as [`solve`].
pub fn solve_reusing(
    strategy: &mut dyn ScanStrategy,
    sonar: &mut dyn Sonar,
    record: ScanRecord,
) -> Result<ScanRecord, ScanError> {
    solve_in(strategy, sonar, &mut Silent, record)
}

#[cfg(test)]
mod table_tests {
    use super::*;

    #[test]
    fn the_strength_order_lists_every_strategy_once() {
        let mut sorted = STRONGEST_FIRST.to_vec();
        sorted.sort_unstable();
        let mut names = NAMES.to_vec();
        names.sort_unstable();
        assert_eq!(sorted, names);
    }

    #[test]
    fn defaults_follow_the_rules() {
        let g = Rules::problem_g();
        let classic = Rules::preset("classic").unwrap();
        assert_eq!(supporting(&g).count(), STRATEGIES.len());
        let touching: Vec<&str> = supporting(&classic).map(|e| e.name).collect();
        assert!(!touching.contains(&"prob") && !touching.contains(&"smart") && touching.contains(&"bayes"));
        assert_eq!(usual_or_strongest("prob", &g, 10, 10), "prob");
        assert_eq!(usual_or_strongest("prob", &classic, 10, 10), "lookahead");
        // On a bay other than the preset's, lookahead's measured strength does not hold.
        assert_eq!(usual_or_strongest("prob", &classic, 12, 12), "bayes");
        assert_eq!(strongest(&classic), "bayes");
        assert_eq!(strongest_for(&Rules::preset("russian").unwrap(), 10, 10), "density");
        for (preset, name) in STRONGEST_BY_PRESET {
            let rules = Rules::preset(preset).unwrap();
            let (rows, cols) = rules.bay();
            let entry = STRATEGIES.iter().find(|e| e.name == name).unwrap();
            assert!((entry.supports)(&rules).is_ok() && entry.max_cells >= rows * cols, "{preset}: {name}");
            assert_eq!(strongest_for(&rules, rows, cols), name);
        }
        for e in supporting(&classic) {
            assert!(for_rules(e.name, 0, &classic).is_ok(), "{}", e.name);
        }
    }
}

/// Checks shared by the strategies' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use crate::game::board::Board;
    use crate::game::placement::Placer;
    use crate::game::position::Position;
    use crate::game::rng::Rng;
    use crate::game::rules::Rules;
    use crate::scan::observer::Source;
    use crate::scan::record::{CellState, ScanRecord};
    use crate::scan::referee::Referee;
    use crate::scan::sonar::Answer;

    /// The boards of games `0..games` under `rules`, each placed from its own stream of
    /// `seed` as simulate places them.
    pub(crate) fn game_boards(rules: &Rules, rows: usize, cols: usize, seed: u64, games: u64) -> Vec<Board> {
        let mut placer = Placer::with_rules(rows, cols, rules);
        (0..games)
            .map(|g| {
                let mut ships = Vec::new();
                placer.place(rules.fleet(), &mut Rng::for_stream(seed, g), &mut ships).unwrap();
                Board::with_rules(rows, cols, ships, rules).unwrap()
            })
            .collect()
    }

    /// The cells `strategy` probes on `board`, in order, each with its answer; the game
    /// checked finished.
    pub(crate) fn probes_of(strategy: &mut dyn super::ScanStrategy, board: &Board) -> Vec<(Position, Answer)> {
        /// The cells a scan probed, in order, and each answer.
        struct Probes(Vec<(Position, Answer)>);
        impl crate::scan::observer::ScanObserver for Probes {
            fn probed(&mut self, pos: Position, _: Source, answer: Answer) {
                self.0.push((pos, answer));
            }
        }
        let mut probes = Probes(Vec::new());
        let record = super::solve_observed(strategy, &mut Referee::new(board), &mut probes).unwrap();
        assert_finished(board, &record);
        probes.0
    }

    /// Asserts that `record` is a finished scan of `board`: every ship cell hit, every
    /// probed-water or eliminated cell water, at most one probe per cell.
    pub(crate) fn assert_finished(board: &Board, record: &ScanRecord) {
        assert!(record.scans() <= board.bay().cells());
        for p in board.bay().positions() {
            match record.state(p) {
                CellState::Hit => assert!(board.is_ship(p)),
                CellState::Miss | CellState::Eliminated => assert!(!board.is_ship(p), "{p} eliminated on a ship"),
                CellState::Unknown => assert!(!board.is_ship(p), "ship cell {p} never spotted"),
            }
        }
    }
}

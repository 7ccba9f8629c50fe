//! Scanning strategies (the Strategy pattern): each decides which cell to probe next,
//! seeing only the [`Scan`] (answers so far, board size, ship-cell count, fleet sizes).

mod bayes;
mod density;
mod density_small;
mod hunt;
mod linear;
mod parity;
mod prob;
mod random;
mod smart;

pub use bayes::Bayes;
pub use density::Density;
pub use hunt::Hunt;
pub use linear::Linear;
pub use parity::Parity;
pub use prob::Probabilistic;
pub use random::Random;
pub use smart::Smart;

use crate::memory::Shortage;
use crate::observer::{ScanObserver, Silent};
use crate::record::ScanRecord;
use crate::rules::Rules;
use crate::scan::{Scan, ScanError, Scanner};
use crate::sonar::Sonar;

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

/// A strategy written once for both lanes of a scan: the watched [`Scan`] and its
/// quiet lane ([`crate::quiet::QuietScan`]), each compiled on its own.
trait Plays {
    /// Probes through `scan` until every ship cell is spotted (as [`ScanStrategy::run`]).
    fn play(&mut self, scan: &mut impl Scanner) -> Result<(), ScanError>;
}

/// Plays `strategy` on the scan's quiet lane when it has one, else on the scan itself.
fn play_on_best_lane(strategy: &mut impl Plays, scan: &mut Scan<'_>) -> Result<(), ScanError> {
    if let Some(mut quiet) = scan.quiet() {
        return strategy.play(&mut quiet);
    }
    strategy.play(scan)
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
    /// figure `not enough memory` quotes). Density plays hunt above its cell limit.
    pub bytes_per_cell: usize,
    /// A fresh strategy whose random choices follow the seed.
    pub make: fn(u64) -> Box<dyn ScanStrategy + Send>,
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
pub const STRATEGIES: [Entry; 10] = [
    Entry {
        name: "linear",
        summary: "row by row, left to right",
        supports: any_rules,
        bytes_per_cell: 1,
        make: |_| Box::new(Linear),
    },
    Entry {
        name: "smart",
        summary: "linear; a hit eliminates its diagonals, scans E and S next",
        supports: straight_apart,
        bytes_per_cell: 2,
        make: |_| Box::new(Smart::default()),
    },
    Entry {
        name: "prob",
        summary: "the statement's likelihood matrix, a queue of hit neighbours",
        supports: straight_apart,
        bytes_per_cell: 8,
        make: |_| Box::new(Probabilistic::default()),
    },
    Entry {
        name: "random",
        summary: "a random order fixed by --seed",
        supports: any_rules,
        bytes_per_cell: 1,
        make: |seed| Box::new(Random::new(seed)),
    },
    Entry {
        name: "parity",
        summary: "a lattice for the longest ship afloat, then sink what was hit",
        supports: straight,
        bytes_per_cell: 3,
        make: |_| Box::new(Parity::default()),
    },
    Entry {
        name: "bayes",
        summary: "the cell most likely a ship, given every answer and the fleet",
        supports: any_rules,
        bytes_per_cell: 3,
        make: |seed| Box::new(Bayes::new(seed)),
    },
    Entry {
        name: "hunt",
        summary: "DataGenetics' hunt/target: random cells, then a hit's 4 sides",
        supports: any_rules,
        bytes_per_cell: 5,
        make: |seed| Box::new(Hunt::new(seed)),
    },
    Entry {
        name: "hunt-parity",
        summary: "hunt, hunting on the checkerboard of the smallest ship afloat",
        supports: straight,
        bytes_per_cell: 9,
        make: |seed| Box::new(Hunt::with_parity(seed)),
    },
    Entry {
        name: "density",
        summary: "DataGenetics' probability density: slide every ship afloat",
        supports: any_rules,
        bytes_per_cell: 5,
        make: |_| Box::new(Density::default()),
    },
    Entry {
        name: "density-random",
        summary: "density, ties drawn at random (the remote-service solver)",
        supports: any_rules,
        bytes_per_cell: 5,
        make: |seed| Box::new(Density::with_random_ties(seed)),
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
                write!(f, "unknown strategy `{name}`; valid names: {}", NAMES.join(", "))
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
        ScanError::OutOfMemory(s) => {
            let per_cell = STRATEGIES.iter().find(|e| e.name == name).map_or(0, |e| e.bytes_per_cell);
            let need = rows.saturating_mul(cols).saturating_mul(per_cell).saturating_add(BASE_BYTES);
            ScanError::OutOfMemory(s.at_least(need))
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

/// Checks shared by the strategies' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use crate::board::Board;
    use crate::placement::Placer;
    use crate::position::Position;
    use crate::record::{CellState, ScanRecord};
    use crate::rng::Rng;
    use crate::rules::Rules;

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

    /// Asserts that `record` is a finished scan of `board`: every ship cell hit, every
    /// probed-water or eliminated cell water, at most one probe per cell.
    pub(crate) fn assert_finished(board: &Board, record: &ScanRecord) {
        let (rows, cols) = (board.rows(), board.cols());
        assert!(record.scans() <= rows * cols);
        for i in 0..rows * cols {
            let p = Position::from_index(i, cols);
            match record.state(p) {
                CellState::Hit => assert!(board.is_ship(p)),
                CellState::Miss | CellState::Eliminated => assert!(!board.is_ship(p), "{p} eliminated on a ship"),
                CellState::Unknown => assert!(!board.is_ship(p), "ship cell {p} never spotted"),
            }
        }
    }
}

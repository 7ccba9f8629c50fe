//! Scanning strategies (the Strategy pattern): each decides which cell to probe next,
//! seeing only the [`Scan`] (answers so far, board size, ship-cell count, fleet sizes).

mod bayes;
mod linear;
mod parity;
mod prob;
mod random;
mod smart;

pub use bayes::Bayes;
pub use linear::Linear;
pub use parity::Parity;
pub use prob::Probabilistic;
pub use random::Random;
pub use smart::Smart;

use crate::observer::{ScanObserver, Silent};
use crate::record::ScanRecord;
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

/// Names of every strategy, in the order `--help` and errors list them.
pub const NAMES: [&str; 6] = ["linear", "smart", "prob", "random", "parity", "bayes"];

/// The seed used by seeded strategies when none is given.
pub const DEFAULT_SEED: u64 = 2021;

/// The strategy called `name`, or `None` for an unknown name.
/// Pre: none. Post: `Some(s)` has `s.name() == name`; `seed` drives random choices.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn ScanStrategy + Send>> {
    Some(match name {
        "linear" => Box::new(Linear),
        "smart" => Box::new(Smart::default()),
        "prob" => Box::new(Probabilistic::default()),
        "random" => Box::new(Random::new(seed)),
        "parity" => Box::new(Parity::default()),
        "bayes" => Box::new(Bayes::new(seed)),
        _ => return None,
    })
}

/// Runs `strategy` on `sonar` with `observer` watching, and returns the record.
/// Pre: none. Post: on `Ok`, every ship cell is `Hit` in the record.
pub fn solve_observed(
    strategy: &mut dyn ScanStrategy,
    sonar: &mut dyn Sonar,
    observer: &mut dyn ScanObserver,
) -> Result<ScanRecord, ScanError> {
    let mut scan = Scan::new(sonar, observer);
    strategy.run(&mut scan)?;
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
    let mut silent = Silent;
    let mut scan = Scan::with_record(sonar, &mut silent, record);
    strategy.run(&mut scan)?;
    Ok(scan.into_record())
}

/// Checks shared by the strategies' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use crate::board::Board;
    use crate::position::Position;
    use crate::record::{CellState, ScanRecord};

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

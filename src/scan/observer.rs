//! The observer of a scan: strategies report each step (probe, answer, eliminations,
//! list and likelihood changes) so a tracer can show it. The default does nothing.

use crate::game::position::Position;
use crate::scan::record::ScanRecord;
use crate::scan::sonar::Answer;
use std::fmt;

/// Where a strategy took the probed cell from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The next cell in row-major order (linear).
    Sweep,
    /// The front of the strategy's list (smart's boardList, prob's highProbabilityList).
    ListFront,
    /// The highest cell of the likelihood matrix (prob).
    Matrix,
    /// The next cell of a shuffled order (random).
    Shuffle,
    /// A hunting pattern cell (parity).
    Hunt,
    /// A cell next to unfinished hits.
    Target,
    /// The most probable cell given every answer so far (bayes).
    Posterior,
    /// The cell crossed by the most positions of the ships afloat (density).
    Density,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::Sweep => "row-major order",
            Source::ListFront => "list front",
            Source::Matrix => "matrix",
            Source::Shuffle => "random order",
            Source::Hunt => "hunt pattern",
            Source::Target => "target",
            Source::Posterior => "posterior",
            Source::Density => "density",
        })
    }
}

/// A strategy's score of every cell (prob's likelihood matrix), as an observer sees it.
pub trait ScoreView {
    /// Number of rows.
    fn rows(&self) -> usize;
    /// Number of columns.
    fn cols(&self) -> usize;
    /// The score of `pos` (-1: blocked).
    /// Pre: `pos` inside. Post: no change.
    fn score(&self, pos: Position) -> i32;
}

/// A strategy's working list, shown to observers without copying it unless asked.
pub trait ListView {
    /// The list's name as the statement writes it (`boardList`, `highProbabilityList`).
    /// Pre: none. Post: no change.
    fn name(&self) -> &'static str;
    /// Number of cells in the list.
    /// Pre: none. Post: no change.
    fn len(&self) -> usize;
    /// True when the list is empty.
    /// Pre: none. Post: `len() == 0`.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The first `limit` cells, front first.
    /// Pre: none. Post: `min(limit, len())` cells.
    fn front(&self, limit: usize) -> Vec<Position>;
}

/// Receives every step of a scan. Every method defaults to doing nothing.
pub trait ScanObserver {
    /// The likelihood matrix was read to choose the next probe (prob).
    /// Pre: called before the probe it leads to. Post: none required.
    fn likelihood_read(&mut self, _matrix: &dyn ScoreView) {}
    /// What the strategy weighs on every cell (row-major) to choose its next probe:
    /// density's counts of fitting positions, bayes's ship probabilities.
    /// Pre: called before the probe it leads to, only when someone watches. Post: none
    /// required.
    fn weights_read(&mut self, _what: &'static str, _weights: &[f64]) {}
    /// True for an observer that shows what a strategy weighs ([`ScanObserver::weights_read`]):
    /// a strategy with a fast path that keeps no per-cell weights (density's) then takes
    /// its general path, which makes the same probes.
    /// Pre: none. Post: no change.
    fn wants_weights(&self) -> bool {
        false
    }
    /// A cell was probed.
    /// Pre: `pos` was unknown. Post: none required.
    fn probed(&mut self, _pos: Position, _source: Source, _answer: Answer) {}
    /// A cell was eliminated without a probe.
    /// Pre: `pos` was unknown. Post: none required.
    fn eliminated(&mut self, _pos: Position) {}
    /// The strategy's list after the step.
    /// Pre: none. Post: none required.
    fn list_changed(&mut self, _list: &dyn ListView) {}
    /// The step is complete; `record` is the state after it.
    /// Pre: one call per probe, after it. Post: none required.
    fn step_done(&mut self, _record: &ScanRecord) {}
    /// True for an observer that ignores everything: a scan then skips the calls.
    /// Pre: none. Post: only [`Silent`] answers true.
    fn is_silent(&self) -> bool {
        false
    }
}

/// The observer that ignores everything (the judge's default).
#[derive(Debug, Default, Clone, Copy)]
pub struct Silent;

impl ScanObserver for Silent {
    fn is_silent(&self) -> bool {
        true
    }
}

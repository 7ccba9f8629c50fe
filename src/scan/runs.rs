//! Runs of hits: the maximal straight lines of hit cells of a grid. When straight ships
//! never touch, every group of hits is such a line, part of one ship, and a line
//! closed at both ends by water or the edge is a whole ship. Written once, for the
//! posterior, parity, bayes and `advise`.

use crate::game::bay::Bay;
use crate::game::position::{Direction, Position};
use crate::game::ship::MAX_SHIP;
use crate::scan::record::{CellState, ScanRecord};

/// A maximal straight line of hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// The top or left cell.
    pub start: Position,
    /// Number of hits.
    pub len: usize,
    /// True when it lies along a row (a single hit counts as horizontal).
    pub horizontal: bool,
}

/// Why the hits cannot be lines of straight ships that never touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunError {
    /// Two hits touch diagonally (also how a bent line shows).
    Diagonal {
        /// The first hit in row-major order with a hit diagonally below it.
        first: Position,
        /// That hit.
        second: Position,
    },
    /// A line longer than [`MAX_SHIP`] cells.
    TooLong {
        /// Its first cell.
        start: Position,
        /// Its length.
        len: usize,
    },
}

impl Run {
    /// The cells of the run, first to last.
    /// Pre: none. Post: `len` cells.
    pub fn cells(&self) -> impl Iterator<Item = Position> + '_ {
        let (r, c, h) = (self.start.row, self.start.col, self.horizontal);
        (0..self.len).map(move |k| if h { Position::new(r, c + k) } else { Position::new(r + k, c) })
    }

    /// The cells where the ship holding the run could continue: beyond both ends, or the
    /// four orthogonal neighbours of a single hit; only those inside the board.
    /// Pre: the run lies on a `rows` x `cols` board. Post: at most four cells.
    pub fn ends(&self, rows: usize, cols: usize) -> Vec<Position> {
        if self.len == 1 {
            return self.start.orthogonals(rows, cols).collect();
        }
        let last = self.cells().last().unwrap_or(self.start);
        let (back, forth) = if self.horizontal { (Direction::W, Direction::E) } else { (Direction::N, Direction::S) };
        self.start.step(back, rows, cols).into_iter().chain(last.step(forth, rows, cols)).collect()
    }

    /// True when every end is known water (`Miss` or `Eliminated`) or the edge: with
    /// ships that never touch, the run is then a whole ship.
    /// Pre: the run lies on `grid`, `rows` x `cols`. Post: no change.
    pub fn closed(&self, rows: usize, cols: usize, grid: &[CellState]) -> bool {
        self.ends(rows, cols)
            .iter()
            .all(|e| grid.get(e.index(cols)).copied().unwrap_or(CellState::Eliminated).is_water())
    }
}

/// The runs of hits of a `rows` x `cols` grid, in row-major order of their first cell.
/// Pre: `grid` has `rows * cols` states (missing ones read as unknown). Post: as
/// [`find_where`].
pub fn find(rows: usize, cols: usize, grid: &[CellState]) -> Result<Vec<Run>, RunError> {
    find_where(rows, cols, |i| grid.get(i) == Some(&CellState::Hit))
}

/// The runs of hits of what a scan knows ([`find`] on its record).
/// Pre: none. Post: as [`find_where`].
pub fn in_record(known: &ScanRecord) -> Result<Vec<Run>, RunError> {
    find_where(known.rows(), known.cols(), |i| known.state_at(i) == CellState::Hit)
}

/// The runs of the cells of a `rows` x `cols` grid for which `hit` (given a row-major
/// index) holds, in row-major order of their first cell.
/// Pre: none. Post: `Err` for the first diagonal contact (row-major), then the first
/// line longer than [`MAX_SHIP`].
pub fn find_where(rows: usize, cols: usize, hit: impl Fn(usize) -> bool) -> Result<Vec<Run>, RunError> {
    let bay = Bay::new(rows, cols);
    let hit = |p: Position| bay.contains(p) && hit(bay.index(p));
    for p in bay.positions() {
        if !hit(p) {
            continue;
        }
        // Diagonals above were checked from the cells above.
        for dir in [Direction::SW, Direction::SE] {
            if let Some(d) = p.step(dir, rows, cols).filter(|&d| hit(d)) {
                return Err(RunError::Diagonal { first: p, second: d });
            }
        }
    }
    // No diagonal contact: every group of hits is a straight line.
    let mut runs = Vec::new();
    for p in bay.positions() {
        let starts = hit(p)
            && !p.step(Direction::W, rows, cols).is_some_and(hit)
            && !p.step(Direction::N, rows, cols).is_some_and(hit);
        if !starts {
            continue;
        }
        let south = p.step(Direction::S, rows, cols).is_some_and(hit);
        let dir = if south { Direction::S } else { Direction::E };
        let mut len = 1;
        let mut q = p;
        while let Some(next) = q.step(dir, rows, cols).filter(|&n| hit(n)) {
            len += 1;
            q = next;
        }
        if len > MAX_SHIP {
            return Err(RunError::TooLong { start: p, len });
        }
        runs.push(Run { start: p, len, horizontal: !south });
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use CellState::{Hit as H, Miss as M, Unknown as U};

    #[test]
    fn finds_runs_and_closed_ones() {
        // 3x4: a closed horizontal pair at the top left, an open lone hit at the bottom right.
        let grid = [H, H, M, U, M, M, U, U, U, U, U, H];
        let runs = find(3, 4, &grid).unwrap();
        assert_eq!(runs.len(), 2);
        assert!(runs[0].closed(3, 4, &grid) && runs[0].horizontal && runs[0].len == 2);
        assert!(!runs[1].closed(3, 4, &grid));
        assert_eq!(runs[1].ends(3, 4), vec![Position::new(1, 3), Position::new(2, 2)]);
        assert_eq!(runs[0].cells().collect::<Vec<_>>(), vec![Position::new(0, 0), Position::new(0, 1)]);
    }

    #[test]
    fn refuses_contacts_and_long_lines() {
        assert_eq!(
            find(2, 2, &[H, U, U, H]),
            Err(RunError::Diagonal { first: Position::new(0, 0), second: Position::new(1, 1) })
        );
        assert_eq!(find(1, 6, &[H; 6]), Err(RunError::TooLong { start: Position::new(0, 0), len: 6 }));
        let vertical = find(3, 1, &[H, H, U]).unwrap();
        assert_eq!(vertical, vec![Run { start: Position::new(0, 0), len: 2, horizontal: false }]);
    }

    #[test]
    fn a_record_has_the_runs_of_its_states() {
        let mut known = ScanRecord::new(3, 4);
        for (i, hit) in [(0, true), (1, true), (2, false), (11, true), (7, true)] {
            known.set_probed(i, hit);
        }
        assert!(known.mark_eliminated(Position::new(1, 0)));
        assert_eq!(in_record(&known), find(3, 4, &known.states()));
        assert_eq!(in_record(&known).map(|r| r.len()), Ok(2));
        known.set_probed(6, true);
        assert_eq!(in_record(&known), find(3, 4, &known.states()));
        assert!(in_record(&known).is_err());
    }
}

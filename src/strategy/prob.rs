//! prob: probe the front of `highProbabilityList` if it has one, else the cell of
//! highest likelihood (first in row-major order among equals). A hit blocks its diagonal
//! neighbours and appends its N, E, S, W neighbours to the list.
//!
//! The list is a FIFO of cells. A cell is appended only when it is free and not already
//! in it; the statement removes a cell from the list only when it gets blocked, so the
//! list skips blocked entries when read instead of searching for them (O(1) per step).

use super::ScanStrategy;
use crate::game::bay::Bay;
use crate::game::cellset::CellSet;
use crate::game::position::Position;
use crate::limits::memory::{self, OutOfMemory};
use crate::scan::observer::{ListView, Source};
use crate::scan::{Scan, ScanError};
use crate::strategy::likelihood::Likelihood;

/// The probabilistic scanner: likelihood matrix plus `highProbabilityList`.
#[derive(Debug, Default, Clone)]
pub struct Probabilistic {
    matrix: Likelihood,
    list: HighProbabilityList,
}

/// `highProbabilityList`: a FIFO whose blocked entries count as removed. A cell is
/// appended at most once per run, so the FIFO is a plain vector read from `head` on,
/// its taken entries dropped now and then.
#[derive(Debug, Default, Clone)]
struct HighProbabilityList {
    queue: Vec<Position>,
    /// Entries before `head` have been taken out.
    head: usize,
    /// Cells ever appended (a blocked cell is never appended again).
    member: CellSet,
    bay: Bay,
}

impl HighProbabilityList {
    fn reset(&mut self, bay: Bay) -> Result<(), OutOfMemory> {
        self.queue.clear();
        self.head = 0;
        self.member.try_reset(bay.cells())?;
        self.bay = bay;
        Ok(())
    }

    #[inline]
    fn pop_live(&mut self, matrix: &Likelihood) -> Option<Position> {
        // Drop the taken entries once they are most of the vector, so that a large board
        // keeps only the live part (amortised O(1) per entry).
        if self.head >= 64 && self.head * 2 >= self.queue.len() {
            self.queue.drain(..self.head);
            self.head = 0;
        }
        while let Some(&p) = self.queue.get(self.head) {
            self.head += 1;
            if !matrix.is_blocked(p) {
                return Some(p);
            }
        }
        None
    }

    /// The entries not taken out yet, first to last.
    fn live(&self) -> std::slice::Iter<'_, Position> {
        self.queue.get(self.head..).unwrap_or(&[]).iter()
    }

    fn push(&mut self, p: Position, matrix: &Likelihood) {
        let i = self.bay.index(p);
        if !matrix.is_blocked(p) && !self.member.contains(i) {
            self.member.insert(i);
            self.queue.push(p);
        }
    }
}

/// The list as an observer sees it: live entries only.
struct ListSnapshot<'a> {
    list: &'a HighProbabilityList,
    matrix: &'a Likelihood,
}

impl ListView for ListSnapshot<'_> {
    fn name(&self) -> &'static str {
        "highProbabilityList"
    }

    fn len(&self) -> usize {
        self.list.live().filter(|&&p| !self.matrix.is_blocked(p)).count()
    }

    fn front(&self, limit: usize) -> Vec<Position> {
        self.list.live().copied().filter(|&p| !self.matrix.is_blocked(p)).take(limit).collect()
    }
}

impl ScanStrategy for Probabilistic {
    fn name(&self) -> &'static str {
        "prob"
    }

    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        let bay = scan.bay();
        self.matrix.try_reset(bay.rows, bay.cols).map_err(|e| scan.out_of_memory(e))?;
        self.list.reset(bay).map_err(|e| scan.out_of_memory(e))?;
        while !scan.is_done() {
            let (pos, source) = match self.list.pop_live(&self.matrix) {
                Some(p) => (p, Source::ListFront),
                None => {
                    scan.show_likelihood(&self.matrix);
                    let Some(p) = self.matrix.best() else {
                        return Err(scan.exhausted());
                    };
                    (p, Source::Matrix)
                }
            };
            let hit = scan.probe(pos, source)?.is_hit();
            self.matrix.block(pos);
            if hit {
                bay.for_each_diagonal(pos, |d| {
                    if self.matrix.block(d) {
                        scan.eliminate(d);
                    }
                });
                memory::reserve(&mut self.list.queue, 4).map_err(|e| scan.out_of_memory(e))?;
                bay.for_each_orthogonal(pos, |n| self.list.push(n, &self.matrix));
            }
            scan.show_list(&ListSnapshot { list: &self.list, matrix: &self.matrix });
            scan.end_step();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::Rng;
    use std::collections::VecDeque;

    #[test]
    fn the_list_is_a_fifo_of_unblocked_cells_even_after_dropping_taken_entries() {
        // Against a plain FIFO, on a board large enough for many drops.
        let (rows, cols) = (40, 40);
        let mut rng = Rng::new(12);
        let mut matrix = Likelihood::new(rows, cols);
        let mut list = HighProbabilityList::default();
        list.reset(Bay::new(rows, cols)).unwrap();
        let mut plain: VecDeque<Position> = VecDeque::new();
        let mut seen = vec![false; rows * cols];
        for _ in 0..20_000 {
            let p = Position::new(rng.below(rows as u64) as usize, rng.below(cols as u64) as usize);
            match rng.below(3) {
                0 => {
                    list.push(p, &matrix);
                    if !matrix.is_blocked(p) && !seen[p.index(cols)] {
                        seen[p.index(cols)] = true;
                        plain.push_back(p);
                    }
                }
                1 => {
                    matrix.block(p);
                }
                _ => {
                    let expected = loop {
                        match plain.pop_front() {
                            Some(q) if matrix.is_blocked(q) => continue,
                            other => break other,
                        }
                    };
                    assert_eq!(list.pop_live(&matrix), expected);
                }
            }
        }
        // Taken entries do not pile up: 1,600 cells in, 1,500 taken out.
        let matrix = Likelihood::new(rows, cols);
        list.reset(Bay::new(rows, cols)).unwrap();
        for p in crate::game::bay::Bay::new(rows, cols).positions() {
            list.push(p, &matrix);
        }
        for i in 0..1500 {
            assert_eq!(list.pop_live(&matrix), Some(Position::from_index(i, cols)));
        }
        assert!(list.queue.len() < 400, "{} entries kept for 100 live ones", list.queue.len());
    }
}

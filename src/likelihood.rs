//! The statement's likelihood matrix, kept up to date incrementally.
//!
//! The likelihood of a free cell is its row score plus its column score. In a row, the
//! free cells form maximal runs between blocked cells and the edges; for each ship size
//! s = 1..=5, every placement of s consecutive cells inside a run adds 1 to each of its
//! cells. A cell `dl` cells from its run's left end and `dr` from its right end is
//! covered by `max(0, min(dl, s-1) + min(dr, s-1) - s + 2)` placements of size s, so its
//! score depends only on `min(dl, 4)` and `min(dr, 4)`: the 5x5 table [`PART`].
//!
//! Blocking a cell therefore changes only the cells within 4 of it along its row and its
//! column (at most 16 cells), and scores only ever go down. Cells are kept in one
//! [`LayeredSet`] per score (2..=30), so the highest score with the row-major tie-break
//! is the first member of the highest non-empty bucket: no scan of the board.

use crate::cellset::LayeredSet;
use crate::position::Position;

/// Highest score a cell can have: 15 along its row plus 15 along its column.
pub const MAX_SCORE: usize = 30;

/// Longest ship the matrix counts placements for (always all sizes 1..=5).
const LONGEST: usize = 5;

/// `PART[dl][dr]`: placements of sizes 1..=5 covering a cell `dl` cells from the left end
/// and `dr` from the right end of its run (both capped at 4).
pub const PART: [[u8; LONGEST]; LONGEST] = part_table();

const fn part_table() -> [[u8; LONGEST]; LONGEST] {
    let mut t = [[0u8; LONGEST]; LONGEST];
    let mut dl = 0;
    while dl < LONGEST {
        let mut dr = 0;
        while dr < LONGEST {
            let mut s = 1;
            let mut sum = 0i32;
            while s <= LONGEST {
                let a = if dl < s - 1 { dl } else { s - 1 };
                let b = if dr < s - 1 { dr } else { s - 1 };
                let count = a as i32 + b as i32 - s as i32 + 2;
                if count > 0 {
                    sum += count;
                }
                s += 1;
            }
            t[dl][dr] = sum as u8;
            dr += 1;
        }
        dl += 1;
    }
    t
}

/// Score of a run cell with `dl` free cells to its left and `dr` to its right.
fn part(dl: usize, dr: usize) -> u8 {
    PART[dl.min(LONGEST - 1)][dr.min(LONGEST - 1)]
}

/// The likelihood matrix of a board: a score per free cell, -1 for blocked cells.
#[derive(Debug, Clone, Default)]
pub struct Likelihood {
    rows: usize,
    cols: usize,
    /// Score per cell, row-major; 0 marks a blocked cell.
    score: Vec<u8>,
    /// `buckets[s]` holds the free cells whose score is `s`.
    buckets: Vec<LayeredSet>,
    /// No bucket above `top` has members (scores only decrease, so it only moves down).
    top: usize,
}

impl Likelihood {
    /// The matrix of an empty `rows` x `cols` board (nothing blocked).
    /// Pre: `rows, cols >= 1`. Post: equals a full recomputation with no blocked cell.
    pub fn new(rows: usize, cols: usize) -> Likelihood {
        let mut m = Likelihood::default();
        m.reset(rows, cols);
        m
    }

    /// Makes this the matrix of an empty `rows` x `cols` board, reusing memory.
    /// Pre: `rows, cols >= 1`. Post: as `new(rows, cols)`.
    pub fn reset(&mut self, rows: usize, cols: usize) {
        let n = rows * cols;
        self.rows = rows;
        self.cols = cols;
        self.score.clear();
        self.score.reserve(n);
        self.buckets.resize_with(MAX_SCORE + 1, LayeredSet::default);
        for b in &mut self.buckets {
            b.reset(n);
        }
        for r in 0..rows {
            let col_part = part(r, rows - 1 - r);
            for c in 0..cols {
                let s = col_part + part(c, cols - 1 - c);
                self.score.push(s);
                if let Some(b) = self.buckets.get_mut(usize::from(s)) {
                    b.insert(r * cols + c);
                }
            }
        }
        self.top = MAX_SCORE;
    }

    /// Number of rows.
    /// Pre: none. Post: no change.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    /// Pre: none. Post: no change.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The likelihood of `pos`: 2..=30 for a free cell, -1 for a blocked one or outside.
    /// Pre: none. Post: no change.
    pub fn score(&self, pos: Position) -> i32 {
        if pos.row >= self.rows || pos.col >= self.cols {
            return -1;
        }
        match self.score.get(pos.index(self.cols)) {
            Some(&s) if s > 0 => i32::from(s),
            _ => -1,
        }
    }

    /// True when `pos` is blocked (probed or eliminated) or outside the board.
    /// Pre: none. Post: no change.
    pub fn is_blocked(&self, pos: Position) -> bool {
        self.score(pos) < 0
    }

    /// Blocks `pos` and updates the at most 16 cells whose score it changes.
    /// Pre: none. Post: returns false (and changes nothing) if `pos` was already blocked
    /// or is outside; otherwise the matrix equals a full recomputation.
    pub fn block(&mut self, pos: Position) -> bool {
        if self.is_blocked(pos) {
            return false;
        }
        let i = pos.index(self.cols);
        self.set_score(i, 0);
        // Along the row: unit step 1, pos.col cells before, cols-1-pos.col after.
        self.split_run(i, 1, pos.col, self.cols - 1 - pos.col);
        // Along the column: unit step cols.
        self.split_run(i, self.cols, pos.row, self.rows - 1 - pos.row);
        true
    }

    /// Updates the scores of the cells near `i` along one line after `i` was blocked.
    /// `step` is the index distance between neighbours on the line; `before`/`after` are
    /// how many cells of the line lie before and after `i`.
    fn split_run(&mut self, i: usize, step: usize, before: usize, after: usize) {
        const REACH: usize = 2 * (LONGEST - 1); // enough to cap both distances at 4
        let free = |m: &Likelihood, k: usize, back: bool| {
            let j = if back { i - k * step } else { i + k * step };
            m.score.get(j).is_some_and(|&s| s > 0)
        };
        let left = (1..=before.min(REACH)).take_while(|&k| free(self, k, true)).count();
        let right = (1..=after.min(REACH)).take_while(|&k| free(self, k, false)).count();
        // A cell k to the left of i: its left reach is left-k; its right reach was
        // k+right (through i) and is now k-1.
        for k in 1..=left.min(LONGEST - 1) {
            let dl = left - k;
            let delta = part(dl, k + right) - part(dl, k - 1);
            self.lower(i - k * step, delta);
        }
        for k in 1..=right.min(LONGEST - 1) {
            let dr = right - k;
            let delta = part(k + left, dr) - part(k - 1, dr);
            self.lower(i + k * step, delta);
        }
    }

    /// Lowers the score of free cell `j` by `delta`.
    fn lower(&mut self, j: usize, delta: u8) {
        if delta == 0 {
            return;
        }
        let old = self.score.get(j).copied().unwrap_or(0);
        // A free cell keeps at least 1 along each line, so the score stays >= 2.
        self.set_score(j, old.saturating_sub(delta).max(2));
    }

    /// Moves cell `j` from its score's bucket to `new`'s (0 = blocked: no bucket).
    fn set_score(&mut self, j: usize, new: u8) {
        let Some(slot) = self.score.get_mut(j) else {
            return;
        };
        let old = std::mem::replace(slot, new);
        if old > 0 {
            if let Some(b) = self.buckets.get_mut(usize::from(old)) {
                b.remove(j);
            }
        }
        if new > 0 {
            if let Some(b) = self.buckets.get_mut(usize::from(new)) {
                b.insert(j);
            }
        }
    }

    /// The free cell with the highest score, the first in row-major order among equals.
    /// Pre: none. Post: `None` only when every cell is blocked.
    pub fn best(&mut self) -> Option<Position> {
        while self.top >= 2 {
            if let Some(i) = self.buckets.get(self.top).and_then(LayeredSet::first) {
                return Some(Position::from_index(i, self.cols));
            }
            self.top -= 1;
        }
        None
    }
}

/// The likelihood recomputed from scratch, by counting every placement in every run: the
/// slow reference the incremental matrix is tested against.
/// Pre: `blocked.len() == rows * cols`. Post: -1 on blocked cells.
pub fn recompute(rows: usize, cols: usize, blocked: &[bool]) -> Vec<i32> {
    let mut out = vec![0i32; rows * cols];
    let mut add_line = |cells: Vec<usize>| {
        let mut start = 0;
        while start < cells.len() {
            if blocked[cells[start]] {
                start += 1;
                continue;
            }
            let mut end = start;
            while end < cells.len() && !blocked[cells[end]] {
                end += 1;
            }
            for s in 1..=LONGEST {
                for first in start..end {
                    if first + s > end {
                        break;
                    }
                    for &cell in &cells[first..first + s] {
                        out[cell] += 1;
                    }
                }
            }
            start = end;
        }
    };
    for r in 0..rows {
        add_line((0..cols).map(|c| r * cols + c).collect());
    }
    for c in 0..cols {
        add_line((0..rows).map(|r| r * cols + c).collect());
    }
    for (o, &b) in out.iter_mut().zip(blocked) {
        if b {
            *o = -1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn matrix(m: &Likelihood) -> Vec<i32> {
        (0..m.rows()).flat_map(|r| (0..m.cols()).map(move |c| Position::new(r, c))).map(|p| m.score(p)).collect()
    }

    #[test]
    fn part_table_matches_statement() {
        // Row of 6 cells: 5 9 11 11 9 5 (statement).
        let row: Vec<u8> = (0..6).map(|c| part(c, 5 - c)).collect();
        assert_eq!(row, vec![5, 9, 11, 11, 9, 5]);
        assert_eq!(PART[4][4], 15);
    }

    #[test]
    fn new_gives_the_statement_matrix() {
        let m = Likelihood::new(5, 6);
        assert_eq!((m.rows(), m.cols()), (5, 6));
        let expected = vec![
            10, 14, 16, 16, 14, 10, 13, 17, 19, 19, 17, 13, 14, 18, 20, 20, 18, 14, 13, 17, 19, 19, 17, 13, 10, 14, 16,
            16, 14, 10,
        ];
        assert_eq!(matrix(&m), expected);
        assert_eq!(expected, recompute(5, 6, &[false; 30]));
    }

    #[test]
    fn block_and_best_follow_the_appendix() {
        let mut m = Likelihood::new(5, 6);
        assert_eq!(m.best(), Some(Position::new(2, 2)));
        assert!(m.block(Position::new(2, 2)));
        assert!(!m.block(Position::new(2, 2)));
        assert!(!m.block(Position::new(9, 9)));
        assert!(m.is_blocked(Position::new(2, 2)));
        assert_eq!(m.score(Position::new(2, 2)), -1);
        // The statement: middle row becomes 11 11 -1 12 13 12 after blocking (2,2).
        let row: Vec<i32> = (0..6).map(|c| m.score(Position::new(2, c))).collect();
        assert_eq!(row, vec![11, 11, -1, 12, 13, 12]);
        assert_eq!(m.best(), Some(Position::new(1, 3)));
    }

    #[test]
    fn best_is_none_when_all_blocked() {
        let mut m = Likelihood::new(1, 2);
        m.block(Position::new(0, 0));
        m.block(Position::new(0, 1));
        assert_eq!(m.best(), None);
    }

    #[test]
    fn incremental_equals_recomputation_on_random_boards() {
        let mut rng = Rng::new(11);
        for _ in 0..300 {
            let rows = 1 + rng.below(14) as usize;
            let cols = 1 + rng.below(14) as usize;
            let mut m = Likelihood::new(rows, cols);
            let mut blocked = vec![false; rows * cols];
            for _ in 0..rows * cols {
                let p = Position::new(rng.below(rows as u64) as usize, rng.below(cols as u64) as usize);
                blocked[p.index(cols)] = true;
                m.block(p);
                assert_eq!(matrix(&m), recompute(rows, cols, &blocked));
                let expected_best = recompute(rows, cols, &blocked)
                    .iter()
                    .enumerate()
                    .filter(|(_, &s)| s >= 0)
                    .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))
                    .map(|(i, _)| Position::from_index(i, cols));
                assert_eq!(m.best(), expected_best);
            }
        }
    }

    #[test]
    fn reset_reuses() {
        let mut m = Likelihood::new(3, 3);
        m.block(Position::new(1, 1));
        m.reset(5, 6);
        assert_eq!(matrix(&m), recompute(5, 6, &[false; 30]));
    }
}

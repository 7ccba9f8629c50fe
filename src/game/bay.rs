//! The bay: its rows and columns, the cells in it in row-major order, a cell's
//! neighbours, and the halo of a ship (the cells it forbids to the other ships when
//! ships may not touch). Every layer that walks the bay or marks a halo asks here.

use crate::game::cellset::CellSet;
use crate::game::position::{Direction, Position};

/// A bay of `rows` x `cols` cells, numbered in row-major order (`row * cols + col`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Bay {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
}

impl Bay {
    /// The bay of `rows` x `cols` cells.
    /// Pre: none (an empty bay, with 0 rows or columns, has no cells).
    /// Post: the fields hold the arguments.
    pub const fn new(rows: usize, cols: usize) -> Bay {
        Bay { rows, cols }
    }

    /// Number of cells, saturating at `usize::MAX`.
    /// Pre: none. Post: `rows * cols` when it fits.
    pub fn cells(self) -> usize {
        self.rows.saturating_mul(self.cols)
    }

    /// True when `p` lies inside the bay.
    /// Pre: none. Post: `p.row < rows && p.col < cols`.
    #[inline]
    pub fn contains(self, p: Position) -> bool {
        p.row < self.rows && p.col < self.cols
    }

    /// The row-major index of `p`.
    /// Pre: `self.contains(p)` for the index to mean a cell of the bay.
    /// Post: `self.position(result) == p`.
    #[inline]
    pub fn index(self, p: Position) -> usize {
        p.index(self.cols)
    }

    /// The cell of row-major index `i`.
    /// Pre: `cols > 0`; `i < self.cells()` for the result to lie inside.
    /// Post: `self.index(result) == i`.
    #[inline]
    pub fn position(self, i: usize) -> Position {
        Position::from_index(i, self.cols)
    }

    /// Every cell of the bay, in row-major order.
    /// Pre: none. Post: `cells()` positions (none for an empty bay), the `i`-th of index `i`.
    pub fn positions(self) -> impl Iterator<Item = Position> {
        let cols = self.cols;
        (0..self.rows).flat_map(move |row| (0..cols).map(move |col| Position::new(row, col)))
    }

    /// Every cell of the bay with its index, in row-major order.
    /// Pre: none. Post: as [`Bay::positions`], each paired with its index.
    #[cfg(test)]
    pub fn indexed(self) -> impl Iterator<Item = (usize, Position)> {
        self.positions().enumerate()
    }

    /// The orthogonal neighbours of `p` inside the bay, in the order N, E, S, W.
    /// Pre: none. Post: at most four cells.
    pub fn neighbours4(self, p: Position) -> impl Iterator<Item = Position> {
        p.orthogonals(self.rows, self.cols)
    }

    /// The diagonal neighbours of `p` inside the bay, in the order NE, SE, SW, NW.
    /// Pre: none. Post: at most four cells.
    pub fn diagonals(self, p: Position) -> impl Iterator<Item = Position> {
        p.diagonals(self.rows, self.cols)
    }

    /// Calls `f` with each diagonal neighbour of `p` inside the bay, in the order of
    /// [`Bay::diagonals`] (the form for hot loops: no iterator state).
    /// Pre: none. Post: `f` called at most four times, only with cells inside.
    #[inline]
    pub fn for_each_diagonal(self, p: Position, f: impl FnMut(Position)) {
        p.for_each_diagonal(self.rows, self.cols, f)
    }

    /// Calls `f` with each orthogonal neighbour of `p` inside the bay, in the order of
    /// [`Bay::neighbours4`].
    /// Pre: none. Post: `f` called at most four times, only with cells inside.
    #[inline]
    pub fn for_each_orthogonal(self, p: Position, f: impl FnMut(Position)) {
        p.for_each_orthogonal(self.rows, self.cols, f)
    }

    /// The neighbour of `p` in direction `dir`, when it lies inside the bay.
    /// Pre: none. Post: `Some(q)` only if `self.contains(q)`.
    #[inline]
    pub fn step(self, p: Position, dir: Direction) -> Option<Position> {
        p.step(dir, self.rows, self.cols)
    }

    /// The eight neighbours of `p` inside the bay: N, E, S, W, then NE, SE, SW, NW.
    /// Pre: none. Post: at most eight cells, never `p`.
    pub fn neighbours8(self, p: Position) -> impl Iterator<Item = Position> {
        p.orthogonals(self.rows, self.cols).chain(p.diagonals(self.rows, self.cols))
    }

    /// The halo of the single cell `p`: `p` itself (when inside) and then its eight
    /// neighbours, in the order of [`Bay::neighbours8`].
    /// Pre: none. Post: at most nine cells, all inside the bay.
    pub fn around(self, p: Position) -> impl Iterator<Item = Position> {
        Some(p).filter(|&p| self.contains(p)).into_iter().chain(self.neighbours8(p))
    }

    /// The halo of a ship made of `cells`: the cells it forbids to the other ships when
    /// ships may not touch (itself and its 8-neighbourhood, clipped to the bay), sorted
    /// in row-major order without repeats.
    /// Pre: none. Post: every cell inside the bay; the cells inside among them.
    #[cfg(test)]
    pub fn halo(self, cells: impl IntoIterator<Item = Position>) -> Vec<Position> {
        let mut halo: Vec<Position> = cells.into_iter().flat_map(|c| self.around(c)).collect();
        halo.sort_unstable();
        halo.dedup();
        halo
    }

    /// As [`Bay::halo`], the row-major indices.
    /// Pre: none. Post: sorted, no repeats, each below `cells()`.
    #[cfg(test)]
    pub fn halo_indices(self, cells: impl IntoIterator<Item = Position>) -> Vec<usize> {
        self.halo(cells).into_iter().map(|p| self.index(p)).collect()
    }

    /// Calls `f` with the index of each cell a ship of `cells` forbids to the others:
    /// its halo when `reach` is 1 or more (ships may not touch: the rules'
    /// [`crate::game::rules::Rules::reach`]), its cells inside the bay when 0. A cell
    /// may come more than once (shared by two cells' halos).
    /// Pre: none. Post: `f` called only with indices of cells inside the bay.
    #[inline]
    pub fn for_each_forbidden(self, cells: impl IntoIterator<Item = Position>, reach: usize, mut f: impl FnMut(usize)) {
        for c in cells {
            if reach == 0 {
                if self.contains(c) {
                    f(self.index(c));
                }
            } else {
                for q in self.around(c) {
                    f(self.index(q));
                }
            }
        }
    }

    /// Adds to `set` what a ship of `cells` forbids (see [`Bay::for_each_forbidden`]).
    /// Pre: `set` holds indices of this bay. Post: only those cells added.
    pub fn forbid(self, set: &mut CellSet, cells: impl IntoIterator<Item = Position>, reach: usize) {
        self.for_each_forbidden(cells, reach, |i| set.insert(i));
    }

    /// The cells of the box `first..=last` (a straight ship, or any rectangle) grown by
    /// `reach` cells each way and clipped to the bay, as one range of row-major indices
    /// per row. The fast form of `Bay::halo` (the tests' plain reference) for a straight
    /// ship: the same cells when `reach` is 1 (its cells when 0), a row at a time.
    /// Pre: `first.row <= last.row`, `first.col <= last.col`, `last` inside the bay.
    /// Post: ranges of indices of the bay, in increasing order.
    #[inline]
    pub fn box_spans(
        self,
        first: Position,
        last: Position,
        reach: usize,
    ) -> impl Iterator<Item = std::ops::Range<usize>> {
        let cols = self.cols;
        let c0 = first.col.saturating_sub(reach);
        let c1 = last.col.saturating_add(reach).min(cols.saturating_sub(1)) + 1;
        let r1 = last.row.saturating_add(reach).min(self.rows.saturating_sub(1));
        (first.row.saturating_sub(reach)..=r1).map(move |r| r * cols + c0..r * cols + c1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::position::Orientation;
    use crate::game::rng::Rng;
    use crate::game::ship::Ship;

    /// The plain reference: every cell within one row and one column of a cell of
    /// `cells`, by scanning the whole bay.
    fn plain_halo(rows: usize, cols: usize, cells: &[Position]) -> Vec<Position> {
        let mut out = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if cells.iter().any(|p| p.row.abs_diff(r) <= 1 && p.col.abs_diff(c) <= 1) {
                    out.push(Position::new(r, c));
                }
            }
        }
        out
    }

    const SIZES: [(usize, usize); 9] = [(0, 0), (0, 3), (1, 1), (1, 7), (7, 1), (2, 2), (3, 5), (6, 4), (10, 10)];

    #[test]
    fn positions_run_row_major_and_round_trip() {
        for (rows, cols) in SIZES {
            let bay = Bay::new(rows, cols);
            let all: Vec<_> = bay.positions().collect();
            let mut plain = Vec::new();
            for r in 0..rows {
                for c in 0..cols {
                    plain.push(Position::new(r, c));
                }
            }
            assert_eq!(all, plain, "{rows}x{cols}");
            assert_eq!(bay.cells(), rows * cols);
            for (i, p) in bay.indexed() {
                assert_eq!(bay.index(p), i);
                assert_eq!(bay.position(i), p);
                assert!(bay.contains(p));
            }
            assert!(!bay.contains(Position::new(rows, 0)));
            assert!(!bay.contains(Position::new(0, cols)));
        }
        assert_eq!(Bay::new(usize::MAX, 2).cells(), usize::MAX);
    }

    #[test]
    fn neighbours_are_the_cells_at_distance_one() {
        for (rows, cols) in SIZES {
            let bay = Bay::new(rows, cols);
            for p in bay.positions() {
                let four: Vec<_> = bay.neighbours4(p).collect();
                let diagonal: Vec<_> = bay.diagonals(p).collect();
                assert_eq!(diagonal, Direction::DIAGONAL.iter().filter_map(|&d| bay.step(p, d)).collect::<Vec<_>>());
                assert_eq!(four, Direction::ORTHOGONAL.iter().filter_map(|&d| bay.step(p, d)).collect::<Vec<_>>());
                let eight: Vec<_> = bay.neighbours8(p).collect();
                let mut plain4: Vec<_> =
                    bay.positions().filter(|q| p.row.abs_diff(q.row) + p.col.abs_diff(q.col) == 1).collect();
                let mut plain8: Vec<_> = bay.positions().filter(|&q| p.touches(q)).collect();
                // The order is N, E, S, W (then NE, SE, SW, NW): compare as sets, then
                // check the first four of the eight are the four.
                assert_eq!(eight[..four.len()], four[..]);
                let (mut f, mut e) = (four.clone(), eight.clone());
                f.sort();
                e.sort();
                plain4.sort();
                plain8.sort();
                assert_eq!((f, e), (plain4, plain8), "{p} in {rows}x{cols}");
                let around: Vec<_> = bay.around(p).collect();
                assert_eq!(around.first(), Some(&p));
                assert_eq!(around[1..], eight[..]);
            }
        }
        // Outside the bay a cell still has the neighbours that are inside.
        let bay = Bay::new(2, 2);
        assert_eq!(bay.around(Position::new(2, 2)).collect::<Vec<_>>(), vec![Position::new(1, 1)]);
    }

    #[test]
    fn halo_matches_the_plain_scan() {
        let mut rng = Rng::new(11);
        for (rows, cols) in SIZES {
            let bay = Bay::new(rows, cols);
            for _ in 0..50 {
                let n = rng.below(6) as usize;
                let cells: Vec<Position> = (0..n)
                    .map(|_| Position::new(rng.below(rows as u64 + 1) as usize, rng.below(cols as u64 + 1) as usize))
                    .collect();
                let plain = plain_halo(rows, cols, &cells);
                assert_eq!(bay.halo(cells.iter().copied()), plain, "{cells:?} in {rows}x{cols}");
                let indices: Vec<usize> = plain.iter().map(|p| p.index(cols)).collect();
                assert_eq!(bay.halo_indices(cells.iter().copied()), indices);
                let mut set = CellSet::new(rows * cols);
                bay.forbid(&mut set, cells.iter().copied(), 1);
                assert_eq!((0..rows * cols).filter(|&i| set.contains(i)).collect::<Vec<_>>(), indices);
                let mut set = CellSet::new(rows * cols);
                bay.forbid(&mut set, cells.iter().copied(), 0);
                let inside: Vec<usize> = (0..rows * cols).filter(|&i| cells.contains(&bay.position(i))).collect();
                assert_eq!((0..rows * cols).filter(|&i| set.contains(i)).collect::<Vec<_>>(), inside);
            }
        }
        assert_eq!(Bay::new(3, 3).halo([Position::new(1, 1)]).len(), 9);
        assert_eq!(Bay::new(3, 3).halo([Position::new(0, 0)]).len(), 4);
    }

    #[test]
    fn box_spans_are_the_halo_of_a_straight_ship() {
        for (rows, cols) in SIZES {
            let bay = Bay::new(rows, cols);
            for p in bay.positions() {
                for size in 1..=5 {
                    for o in [Orientation::East, Orientation::South] {
                        let ship = Ship::new(p, size, o);
                        if !ship.fits(rows, cols) {
                            continue;
                        }
                        let last = ship.end().unwrap();
                        for reach in [0, 1] {
                            let got: Vec<Position> =
                                bay.box_spans(p, last, reach).flatten().map(|i| bay.position(i)).collect();
                            let want = if reach == 1 {
                                plain_halo(rows, cols, &ship.cells().collect::<Vec<_>>())
                            } else {
                                ship.cells().collect()
                            };
                            assert_eq!(got, want, "{ship} reach {reach} in {rows}x{cols}");
                        }
                    }
                }
            }
        }
    }
}

//! A cell of the bay, named by its row and column, and its eight neighbours.

use std::fmt;

/// A cell of the board: 0-based row and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Position {
    /// Row, counted from 0 at the top.
    pub row: usize,
    /// Column, counted from 0 at the left.
    pub col: usize,
}

/// The eight compass directions around a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// One row up.
    N,
    /// One row up, one column right.
    NE,
    /// One column right.
    E,
    /// One row down, one column right.
    SE,
    /// One row down.
    S,
    /// One row down, one column left.
    SW,
    /// One column left.
    W,
    /// One row up, one column left.
    NW,
}

impl Direction {
    /// The four orthogonal directions in the order the statement lists them: N, E, S, W.
    pub const ORTHOGONAL: [Direction; 4] = [Direction::N, Direction::E, Direction::S, Direction::W];
    /// The four diagonal directions: NE, SE, SW, NW.
    pub const DIAGONAL: [Direction; 4] = [Direction::NE, Direction::SE, Direction::SW, Direction::NW];

    /// Row and column steps of this direction.
    /// Pre: none. Post: each step is -1, 0 or 1, and not both 0.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Direction::N => (-1, 0),
            Direction::NE => (-1, 1),
            Direction::E => (0, 1),
            Direction::SE => (1, 1),
            Direction::S => (1, 0),
            Direction::SW => (1, -1),
            Direction::W => (0, -1),
            Direction::NW => (-1, -1),
        }
    }
}

impl Position {
    /// The cell at `row`, `col`.
    /// Pre: none. Post: the fields hold the arguments.
    pub const fn new(row: usize, col: usize) -> Position {
        Position { row, col }
    }

    /// The cell of row-major index `index` on a board `cols` wide.
    /// Pre: `cols > 0`. Post: `result.index(cols) == index`.
    pub fn from_index(index: usize, cols: usize) -> Position {
        Position::new(index / cols, index % cols)
    }

    /// Row-major index of this cell on a board `cols` wide.
    /// Pre: `self.col < cols`. Post: `Position::from_index(result, cols) == self`.
    pub fn index(self, cols: usize) -> usize {
        self.row * cols + self.col
    }

    /// The neighbour in direction `dir` on a `rows` x `cols` board, if it exists.
    /// Pre: none. Post: `Some(p)` only if `p` is inside the board.
    pub fn step(self, dir: Direction, rows: usize, cols: usize) -> Option<Position> {
        let (dr, dc) = dir.delta();
        let row = self.row.checked_add_signed(dr)?;
        let col = self.col.checked_add_signed(dc)?;
        (row < rows && col < cols).then_some(Position { row, col })
    }

    /// The diagonal neighbours (NE, SE, SW, NW) that lie inside a `rows` x `cols` board.
    /// Pre: none. Post: at most four cells, in that order.
    pub fn diagonals(self, rows: usize, cols: usize) -> impl Iterator<Item = Position> {
        Direction::DIAGONAL.into_iter().filter_map(move |d| self.step(d, rows, cols))
    }

    /// The orthogonal neighbours (N, E, S, W) that lie inside a `rows` x `cols` board.
    /// Pre: none. Post: at most four cells, in that order.
    pub fn orthogonals(self, rows: usize, cols: usize) -> impl Iterator<Item = Position> {
        Direction::ORTHOGONAL.into_iter().filter_map(move |d| self.step(d, rows, cols))
    }

    /// Calls `f` on each diagonal neighbour inside a `rows` x `cols` board, in the order
    /// of [`Position::diagonals`]: the same cells, as straight-line code for the hot
    /// loops of the simulated strategies (no direction table to walk).
    /// Pre: none. Post: `f` called at most four times.
    #[inline]
    pub fn for_each_diagonal(self, rows: usize, cols: usize, mut f: impl FnMut(Position)) {
        let [up, down, left, right] = self.around(rows, cols);
        for (row, col) in [(up, right), (down, right), (down, left), (up, left)] {
            if let (Some(row), Some(col)) = (row, col) {
                f(Position { row, col });
            }
        }
    }

    /// Calls `f` on each orthogonal neighbour inside a `rows` x `cols` board, in the
    /// order of [`Position::orthogonals`] (see [`Position::for_each_diagonal`]).
    /// Pre: none. Post: `f` called at most four times.
    #[inline]
    pub fn for_each_orthogonal(self, rows: usize, cols: usize, mut f: impl FnMut(Position)) {
        let [up, down, left, right] = self.around(rows, cols);
        let (row, col) = (Some(self.row).filter(|&r| r < rows), Some(self.col).filter(|&c| c < cols));
        for (row, col) in [(up, col), (row, right), (down, col), (row, left)] {
            if let (Some(row), Some(col)) = (row, col) {
                f(Position { row, col });
            }
        }
    }

    /// The row above, row below, column left and column right of this cell, each when it
    /// exists and lies inside a `rows` x `cols` board.
    #[inline]
    fn around(self, rows: usize, cols: usize) -> [Option<usize>; 4] {
        [
            self.row.checked_sub(1).filter(|&r| r < rows),
            self.row.checked_add(1).filter(|&r| r < rows),
            self.col.checked_sub(1).filter(|&c| c < cols),
            self.col.checked_add(1).filter(|&c| c < cols),
        ]
    }

    /// True when the two cells are distinct and touch, orthogonally or diagonally.
    /// Pre: none. Post: symmetric; false for the same cell.
    pub fn touches(self, other: Position) -> bool {
        self != other && self.row.abs_diff(other.row) <= 1 && self.col.abs_diff(other.col) <= 1
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// Which way a ship's cells run from its first cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// Along the row, to the right (`E`).
    East,
    /// Down the column (`S`).
    South,
}

impl Orientation {
    /// The input letter of this orientation.
    /// Pre: none. Post: `'E'` or `'S'`.
    pub fn letter(self) -> char {
        match self {
            Orientation::East => 'E',
            Orientation::South => 'S',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips() {
        let p = Position::new(3, 4);
        assert_eq!(p.index(6), 22);
        assert_eq!(Position::from_index(22, 6), p);
    }

    #[test]
    fn step_stays_inside() {
        let corner = Position::new(0, 0);
        assert_eq!(corner.step(Direction::N, 3, 3), None);
        assert_eq!(corner.step(Direction::W, 3, 3), None);
        assert_eq!(corner.step(Direction::SE, 3, 3), Some(Position::new(1, 1)));
        let far = Position::new(2, 2);
        assert_eq!(far.step(Direction::E, 3, 3), None);
        assert_eq!(far.step(Direction::S, 3, 3), None);
        assert_eq!(far.step(Direction::NW, 3, 3), Some(Position::new(1, 1)));
    }

    #[test]
    fn neighbours_in_statement_order() {
        let p = Position::new(1, 1);
        let d: Vec<_> = p.diagonals(3, 3).collect();
        assert_eq!(d, vec![Position::new(0, 2), Position::new(2, 2), Position::new(2, 0), Position::new(0, 0)]);
        let o: Vec<_> = p.orthogonals(3, 3).collect();
        assert_eq!(o, vec![Position::new(0, 1), Position::new(1, 2), Position::new(2, 1), Position::new(1, 0)]);
        assert_eq!(Position::new(0, 0).orthogonals(1, 1).count(), 0);
    }

    #[test]
    fn neighbours_agree_with_step() {
        for rows in 1..4 {
            for cols in 1..4 {
                for r in 0..rows {
                    for c in 0..cols {
                        let p = Position::new(r, c);
                        let d: Vec<_> = Direction::DIAGONAL.iter().filter_map(|&x| p.step(x, rows, cols)).collect();
                        let o: Vec<_> = Direction::ORTHOGONAL.iter().filter_map(|&x| p.step(x, rows, cols)).collect();
                        assert_eq!(p.diagonals(rows, cols).collect::<Vec<_>>(), d);
                        assert_eq!(p.orthogonals(rows, cols).collect::<Vec<_>>(), o);
                    }
                }
            }
        }
    }

    #[test]
    fn for_each_agrees_with_the_iterators() {
        let edge = [0, 1, 2, 3, 4, 5, usize::MAX - 1, usize::MAX];
        for rows in [1, 2, 3, 5, usize::MAX] {
            for cols in [1, 2, 4, usize::MAX] {
                for &r in &edge {
                    for &c in &edge {
                        let p = Position::new(r, c);
                        let (mut d, mut o) = (Vec::new(), Vec::new());
                        p.for_each_diagonal(rows, cols, |x| d.push(x));
                        p.for_each_orthogonal(rows, cols, |x| o.push(x));
                        assert_eq!(d, p.diagonals(rows, cols).collect::<Vec<_>>(), "{p} {rows}x{cols}");
                        assert_eq!(o, p.orthogonals(rows, cols).collect::<Vec<_>>(), "{p} {rows}x{cols}");
                    }
                }
            }
        }
    }

    #[test]
    fn touching() {
        let p = Position::new(1, 1);
        assert!(p.touches(Position::new(0, 0)));
        assert!(p.touches(Position::new(2, 1)));
        assert!(!p.touches(p));
        assert!(!p.touches(Position::new(3, 1)));
    }

    #[test]
    fn displays_as_pair() {
        assert_eq!(Position::new(2, 5).to_string(), "(2,5)");
    }
}

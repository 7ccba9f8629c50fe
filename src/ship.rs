//! A ship: a straight run of 1 to 5 cells running east or south from its first cell.

use crate::position::Position;
use std::fmt;

/// Smallest ship size the rules allow.
pub const MIN_SHIP: usize = 1;
/// Largest ship size the rules allow.
pub const MAX_SHIP: usize = 5;

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

/// A ship as the input declares it: first cell, size and orientation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ship {
    /// The first (top or left) cell.
    pub start: Position,
    /// Number of cells.
    pub size: usize,
    /// Direction the cells run in.
    pub orientation: Orientation,
}

impl Ship {
    /// A ship of `size` cells from `start` towards `orientation`.
    /// Pre: none (the board checks sizes and bounds). Post: fields hold the arguments.
    pub fn new(start: Position, size: usize, orientation: Orientation) -> Ship {
        Ship { start, size, orientation }
    }

    /// The cell `k` steps from the first, or `None` if that overflows `usize`.
    /// Pre: none. Post: `cell(0) == Some(start)`.
    pub fn cell(&self, k: usize) -> Option<Position> {
        match self.orientation {
            Orientation::East => self.start.col.checked_add(k).map(|col| Position::new(self.start.row, col)),
            Orientation::South => self.start.row.checked_add(k).map(|row| Position::new(row, self.start.col)),
        }
    }

    /// The last cell, or `None` if it overflows `usize`.
    /// Pre: `size >= 1`. Post: equals `cell(size - 1)`.
    pub fn end(&self) -> Option<Position> {
        self.cell(self.size.saturating_sub(1))
    }

    /// Every cell of the ship, first to last (cells that would overflow are left out).
    /// Pre: none. Post: at most `size` cells.
    pub fn cells(&self) -> impl Iterator<Item = Position> + '_ {
        (0..self.size).filter_map(move |k| self.cell(k))
    }

    /// True when the ship lies inside a `rows` x `cols` board.
    /// Pre: none. Post: true implies every cell is inside.
    pub fn fits(&self, rows: usize, cols: usize) -> bool {
        self.size >= 1 && matches!(self.end(), Some(e) if e.row < rows && e.col < cols)
    }
}

impl fmt::Display for Ship {
    /// The ship as the input writes it: `row col size orientation`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {} {}", self.start.row, self.start.col, self.size, self.orientation.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_run_east_and_south() {
        let e = Ship::new(Position::new(1, 1), 3, Orientation::East);
        assert_eq!(e.cells().collect::<Vec<_>>(), vec![Position::new(1, 1), Position::new(1, 2), Position::new(1, 3)]);
        let s = Ship::new(Position::new(0, 2), 2, Orientation::South);
        assert_eq!(s.cells().collect::<Vec<_>>(), vec![Position::new(0, 2), Position::new(1, 2)]);
        assert_eq!(s.end(), Some(Position::new(1, 2)));
    }

    #[test]
    fn fits_checks_the_last_cell() {
        let e = Ship::new(Position::new(0, 3), 3, Orientation::East);
        assert!(e.fits(1, 6));
        assert!(!e.fits(1, 5));
        let huge = Ship::new(Position::new(0, usize::MAX), 2, Orientation::East);
        assert!(!huge.fits(10, 10));
        assert_eq!(huge.end(), None);
    }

    #[test]
    fn displays_as_input() {
        let s = Ship::new(Position::new(3, 3), 2, Orientation::South);
        assert_eq!(s.to_string(), "3 3 2 S");
    }
}

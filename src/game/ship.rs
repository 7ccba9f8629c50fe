//! A ship on the bay: a straight run of 1 to 5 cells running east or south from its
//! first cell (Problem G's), or any drawn shape (see [`crate::game::shape`]).

use crate::game::position::{Orientation, Position};
use crate::game::shape::Shape;
use std::fmt;

/// Smallest ship size the rules allow.
pub const MIN_SHIP: usize = 1;
/// Largest ship size the rules allow.
pub const MAX_SHIP: usize = 5;

/// A ship on the bay: the top-left corner of its box and its shape. A straight ship
/// (`row col size E|S` in a judge input) is a 1 x size or size x 1 box; a drawn one
/// (from a fleet file) any [`Shape`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ship {
    /// The top-left corner of the shape's box (the first cell of a straight ship).
    pub start: Position,
    /// Its cells, relative to `start`.
    pub shape: Shape,
}

impl Ship {
    /// A straight ship of `size` cells from `start` towards `orientation`.
    /// Pre: `1 <= size <= MAX_BOX` (callers check sizes against the rules first).
    /// Post: `size()` is `size`, the first cell is `start`.
    pub fn new(start: Position, size: usize, orientation: Orientation) -> Ship {
        Ship { start, shape: Shape::straight(size, orientation) }
    }

    /// A ship of any shape whose box starts at `start`.
    /// Pre: none. Post: the fields hold the arguments.
    pub fn drawn(start: Position, shape: Shape) -> Ship {
        Ship { start, shape }
    }

    /// Number of cells.
    /// Pre: none. Post: at least 1.
    pub fn size(&self) -> usize {
        self.shape.size()
    }

    /// The direction of a straight ship of 2 cells or more (`East` for a single cell);
    /// `None` for other shapes.
    /// Pre: none. Post: `Some` exactly when the shape is a straight line.
    pub fn orientation(&self) -> Option<Orientation> {
        self.shape.straight_line().map(|(_, o)| o)
    }

    /// The bottom-right corner of the ship's box, or `None` if it overflows `usize`.
    /// Pre: none. Post: for a straight ship, its last cell.
    pub fn end(&self) -> Option<Position> {
        let row = self.start.row.checked_add(self.shape.rows() - 1)?;
        let col = self.start.col.checked_add(self.shape.cols() - 1)?;
        Some(Position::new(row, col))
    }

    /// Every cell of the ship in row-major order (cells that would overflow are left out).
    /// Pre: none. Post: at most `size()` cells.
    pub fn cells(&self) -> impl Iterator<Item = Position> + '_ {
        let start = self.start;
        self.shape
            .cells()
            .filter_map(move |(r, c)| Some(Position::new(start.row.checked_add(r)?, start.col.checked_add(c)?)))
    }

    /// True when the ship lies inside a `rows` x `cols` board.
    /// Pre: none. Post: true implies every cell is inside.
    pub fn fits(&self, rows: usize, cols: usize) -> bool {
        matches!(self.end(), Some(e) if e.row < rows && e.col < cols)
    }
}

impl fmt::Display for Ship {
    /// A straight ship as the input writes it (`row col size orientation`); another
    /// shape as its corner and box (`row col RxC`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shape.straight_line() {
            Some((size, o)) => write!(f, "{} {} {size} {}", self.start.row, self.start.col, o.letter()),
            None => write!(f, "{} {} {}x{}", self.start.row, self.start.col, self.shape.rows(), self.shape.cols()),
        }
    }
}

/// Where a ship of a named or drawn fleet is, from the answers alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Placed {
    /// One place: the top-left corner of its drawing's box.
    At(Position),
    /// Ships that touch leave this many places for the ships of this kind.
    Places(usize),
    /// Too many places to list.
    TooMany,
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
        assert_eq!(huge.cells().count(), 1);
    }

    #[test]
    fn displays_as_input() {
        let s = Ship::new(Position::new(3, 3), 2, Orientation::South);
        assert_eq!(s.to_string(), "3 3 2 S");
        let y = Ship::drawn(Position::new(1, 2), Shape::from_drawing(&["X.X", "X.X", ".X."]).unwrap());
        assert_eq!(y.to_string(), "1 2 3x3");
        assert_eq!((y.size(), y.orientation()), (5, None));
        assert_eq!(y.cells().next(), Some(Position::new(1, 2)));
        assert_eq!(y.end(), Some(Position::new(3, 4)));
    }
}

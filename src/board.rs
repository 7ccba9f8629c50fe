//! The bay: its size and its ships. The board is the only holder of ship positions;
//! strategies reach it only through [`Sonar`].

use crate::cellset::CellSet;
use crate::position::Position;
use crate::ship::{Ship, MAX_SHIP, MIN_SHIP};
use crate::sonar::{ProbeError, Sonar};
use std::fmt;

/// The largest board accepted, in cells.
pub const MAX_CELLS: usize = 100_000_000;

/// Why a set of ships does not make a valid board. Ships are numbered from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// A dimension is 0.
    EmptyBoard {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// More cells than [`MAX_CELLS`].
    TooLarge {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// A ship's size is outside 1..=5.
    BadSize {
        /// Ship number, from 1.
        ship: usize,
        /// The size given.
        size: usize,
    },
    /// A ship has a cell outside the board.
    OffBoard {
        /// Ship number, from 1.
        ship: usize,
        /// The ship as declared.
        declared: Ship,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// Two ships share a cell.
    Overlap {
        /// The later ship's number.
        ship: usize,
        /// The earlier ship's number.
        other: usize,
        /// The shared cell.
        cell: Position,
    },
    /// Two ships touch, side by side or diagonally.
    Touch {
        /// The later ship's number.
        ship: usize,
        /// Its cell that touches.
        cell: Position,
        /// The earlier ship's number.
        other: usize,
        /// The earlier ship's cell that is touched.
        other_cell: Position,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::EmptyBoard { rows, cols } => {
                write!(f, "the board is {rows}x{cols}: rows and columns must be at least 1")
            }
            BoardError::TooLarge { rows, cols } => {
                write!(f, "the board is {rows}x{cols}, more than the limit of {MAX_CELLS} cells")
            }
            BoardError::BadSize { ship, size } => {
                write!(f, "ship {ship}: size {size} is outside {MIN_SHIP}..={MAX_SHIP}")
            }
            BoardError::OffBoard { ship, declared, rows, cols } => write!(
                f,
                "ship {ship} ({declared}) leaves the {rows}x{cols} board (rows 0..{}, columns 0..{})",
                rows - 1,
                cols - 1
            ),
            BoardError::Overlap { ship, other, cell } => {
                write!(f, "ship {ship} overlaps ship {other} at {cell}")
            }
            BoardError::Touch { ship, cell, other, other_cell } => {
                let how = if cell.row == other_cell.row || cell.col == other_cell.col {
                    "beside"
                } else {
                    "diagonally next to"
                };
                write!(
                    f,
                    "ship {ship} touches ship {other}: its cell {cell} is {how} {other_cell} (ships may not touch, not even diagonally)"
                )
            }
        }
    }
}

impl std::error::Error for BoardError {}

/// A valid bay: dimensions and non-touching ships of 1 to 5 cells.
#[derive(Debug, Clone)]
pub struct Board {
    rows: usize,
    cols: usize,
    ships: Vec<Ship>,
    /// One bit per cell, set on ship cells (row-major).
    occupied: CellSet,
    /// Ship sizes, largest first.
    fleet: Vec<usize>,
    ship_cells: usize,
}

impl Board {
    /// Checks the rules and builds the board.
    /// Pre: none. Post: `Ok` only if every ship has 1..=5 cells, lies inside, and no two
    /// ships overlap or touch; otherwise the first broken rule, naming ships from 1.
    pub fn new(rows: usize, cols: usize, ships: Vec<Ship>) -> Result<Board, BoardError> {
        Board::check_size(rows, cols)?;
        let occupied = CellSet::new(rows * cols);
        let mut board = Board { rows, cols, ships, occupied, fleet: Vec::new(), ship_cells: 0 };
        board.fill()?;
        Ok(board)
    }

    /// Replaces the ships by `ships`, keeping the size and reusing the board's memory
    /// (simulate builds a million boards this way).
    /// Pre: none. Post: `Ok` exactly when `Board::new(rows, cols, ships.to_vec())` would
    /// be, and then equal to it; on `Err` (the same error) the board has no ships.
    pub fn refill(&mut self, ships: &[Ship]) -> Result<(), BoardError> {
        self.ships.clear();
        self.ships.extend_from_slice(ships);
        let result = self.fill();
        if result.is_err() {
            self.ships.clear();
            let _ = self.fill(); // no ships: cannot fail
        }
        result
    }

    /// As [`Board::refill`] for ships valid by construction (the [`crate::placement::Placer`]'s,
    /// which `simulate` places a million times): the rules are not checked again (that
    /// check took about 0.5 us of a game's 9). Debug builds still check them.
    /// Pre: `ships` form a valid board of this size. Post: as `refill(ships)` gives.
    pub(crate) fn refill_valid(&mut self, ships: &[Ship]) {
        debug_assert!(Board::new(self.rows, self.cols, ships.to_vec()).is_ok(), "refill_valid given invalid ships");
        self.ships.clear();
        self.ships.extend_from_slice(ships);
        let cols = self.cols;
        self.occupied.reset(self.rows * cols);
        for ship in ships {
            for cell in ship.cells() {
                self.occupied.insert(cell.index(cols));
            }
        }
        self.count_fleet();
    }

    /// Sets the fleet (sizes, largest first) and the number of ship cells from the ships.
    fn count_fleet(&mut self) {
        self.fleet.clear();
        self.fleet.extend(self.ships.iter().map(|s| s.size));
        self.fleet.sort_unstable_by(|a, b| b.cmp(a));
        self.ship_cells = self.fleet.iter().sum();
    }

    /// Checks the rules on `self.ships` and fills in the ship cells, fleet and count.
    /// On `Err`, `occupied` holds part of the ships: the caller must not keep the board.
    fn fill(&mut self) -> Result<(), BoardError> {
        let (rows, cols) = (self.rows, self.cols);
        let (ships, occupied) = (&self.ships, &mut self.occupied);
        occupied.reset(rows * cols);
        for (k, ship) in ships.iter().enumerate() {
            let number = k + 1;
            if !(MIN_SHIP..=MAX_SHIP).contains(&ship.size) {
                return Err(BoardError::BadSize { ship: number, size: ship.size });
            }
            if !ship.fits(rows, cols) {
                return Err(BoardError::OffBoard { ship: number, declared: *ship, rows, cols });
            }
            // Fast path: test the rectangle one cell around the ship (its own cells
            // included), a row segment at a time; only a failure looks for the exact
            // cells to name.
            let (first, last) = (ship.start, ship.end().unwrap_or(ship.start));
            let (r0, r1) = (first.row.saturating_sub(1), (last.row + 1).min(rows - 1));
            let (c0, c1) = (first.col.saturating_sub(1), (last.col + 1).min(cols - 1));
            if (r0..=r1).any(|r| occupied.any_in(r * cols + c0, r * cols + c1 + 1)) {
                return Err(Board::conflict(number, ship, ships, occupied, rows, cols));
            }
            for r in first.row..=last.row {
                occupied.insert_range(r * cols + first.col, r * cols + last.col + 1);
            }
        }
        self.count_fleet();
        Ok(())
    }

    /// The overlap or contact that stops ship `number` from being placed.
    fn conflict(
        number: usize,
        ship: &Ship,
        ships: &[Ship],
        occupied: &CellSet,
        rows: usize,
        cols: usize,
    ) -> BoardError {
        let owner = |cell: Position| ships.iter().position(|s| s.cells().any(|c| c == cell)).map_or(0, |i| i + 1);
        if let Some(cell) = ship.cells().find(|c| occupied.contains(c.index(cols))) {
            return BoardError::Overlap { ship: number, other: owner(cell), cell };
        }
        for cell in ship.cells() {
            let around = cell.orthogonals(rows, cols).chain(cell.diagonals(rows, cols));
            if let Some(near) = around.into_iter().find(|n| occupied.contains(n.index(cols))) {
                return BoardError::Touch { ship: number, cell, other: owner(near), other_cell: near };
            }
        }
        BoardError::Overlap { ship: number, other: 0, cell: ship.start }
    }

    /// Checks that a `rows` x `cols` board is allowed.
    /// Pre: none. Post: `Ok` when both are at least 1 and the product is at most [`MAX_CELLS`].
    pub fn check_size(rows: usize, cols: usize) -> Result<(), BoardError> {
        if rows == 0 || cols == 0 {
            return Err(BoardError::EmptyBoard { rows, cols });
        }
        match rows.checked_mul(cols) {
            Some(n) if n <= MAX_CELLS => Ok(()),
            _ => Err(BoardError::TooLarge { rows, cols }),
        }
    }

    /// Number of rows.
    /// Pre: none. Post: at least 1.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    /// Pre: none. Post: at least 1.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of cells, `rows * cols`.
    /// Pre: none. Post: at most [`MAX_CELLS`].
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// The ships, in input order.
    /// Pre: none. Post: no change.
    pub fn ships(&self) -> &[Ship] {
        &self.ships
    }

    /// Ship sizes, largest first.
    /// Pre: none. Post: sums to `ship_cells()`.
    pub fn fleet(&self) -> &[usize] {
        &self.fleet
    }

    /// Total number of ship cells.
    /// Pre: none. Post: sum of the ships' sizes.
    pub fn ship_cells(&self) -> usize {
        self.ship_cells
    }

    /// True when `pos` is a ship cell; false for water and for cells outside the board.
    /// Pre: none. Post: no change.
    pub fn is_ship(&self, pos: Position) -> bool {
        pos.row < self.rows && pos.col < self.cols && self.occupied.contains(pos.index(self.cols))
    }

    /// The first ship cell, in row-major order, at or after index `i`.
    /// Pre: none. Post: `None` when no ship cell lies at or after `i`.
    pub fn next_ship_at_or_after(&self, i: usize) -> Option<usize> {
        self.occupied.next_member(i)
    }

    /// True when the cell of row-major index `i` is a ship cell (false beyond the board).
    /// Pre: none. Post: equals `is_ship(Position::from_index(i, cols()))` inside.
    #[inline]
    pub fn is_ship_at(&self, i: usize) -> bool {
        self.occupied.contains(i)
    }
}

impl Sonar for Board {
    fn rows(&self) -> usize {
        self.rows
    }
    fn cols(&self) -> usize {
        self.cols
    }
    fn ship_cells(&self) -> usize {
        self.ship_cells
    }
    fn fleet(&self) -> Option<&[usize]> {
        Some(&self.fleet)
    }
    fn probe(&mut self, pos: Position) -> Result<bool, ProbeError> {
        Ok(self.is_ship(pos))
    }
    fn as_board(&self) -> Option<&Board> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ship::Orientation::{East, South};

    fn ship(r: usize, c: usize, size: usize, east: bool) -> Ship {
        Ship::new(Position::new(r, c), size, if east { East } else { South })
    }

    fn statement_board() -> Board {
        Board::new(5, 6, vec![ship(1, 1, 4, true), ship(3, 3, 2, false)]).unwrap()
    }

    #[test]
    fn new_accepts_the_statement_board() {
        let b = statement_board();
        assert_eq!((b.rows(), b.cols(), b.cells()), (5, 6, 30));
        assert_eq!(b.ships().len(), 2);
        assert_eq!(b.fleet(), &[4, 2]);
        assert_eq!(b.ship_cells(), 6);
    }

    #[test]
    fn is_ship_answers_every_cell() {
        let b = statement_board();
        let ships: Vec<_> =
            (0..5).flat_map(|r| (0..6).map(move |c| Position::new(r, c))).filter(|&p| b.is_ship(p)).collect();
        assert_eq!(
            ships,
            vec![
                Position::new(1, 1),
                Position::new(1, 2),
                Position::new(1, 3),
                Position::new(1, 4),
                Position::new(3, 3),
                Position::new(4, 3)
            ]
        );
        assert!(!b.is_ship(Position::new(5, 0)));
        assert!(!b.is_ship(Position::new(0, 6)));
    }

    #[test]
    fn probe_agrees_with_is_ship() {
        let mut b = statement_board();
        assert_eq!(b.probe(Position::new(1, 1)), Ok(true));
        assert_eq!(b.probe(Position::new(0, 0)), Ok(false));
        assert_eq!(Sonar::fleet(&b), Some(&[4usize, 2][..]));
        assert_eq!((Sonar::rows(&b), Sonar::cols(&b), Sonar::ship_cells(&b)), (5, 6, 6));
    }

    #[test]
    fn check_size_limits() {
        assert!(Board::check_size(1, 1).is_ok());
        assert!(Board::check_size(10_000, 10_000).is_ok());
        assert_eq!(Board::check_size(0, 3), Err(BoardError::EmptyBoard { rows: 0, cols: 3 }));
        assert_eq!(Board::check_size(10_001, 10_000), Err(BoardError::TooLarge { rows: 10_001, cols: 10_000 }));
        assert!(Board::check_size(usize::MAX, 2).is_err());
    }

    #[test]
    fn rejects_bad_sizes_and_off_board() {
        assert_eq!(Board::new(5, 5, vec![ship(0, 0, 6, true)]).unwrap_err(), BoardError::BadSize { ship: 1, size: 6 });
        assert_eq!(Board::new(5, 5, vec![ship(0, 0, 0, true)]).unwrap_err(), BoardError::BadSize { ship: 1, size: 0 });
        assert!(matches!(
            Board::new(5, 5, vec![ship(0, 3, 3, true)]).unwrap_err(),
            BoardError::OffBoard { ship: 1, .. }
        ));
        assert!(matches!(
            Board::new(5, 5, vec![ship(4, 0, 2, false)]).unwrap_err(),
            BoardError::OffBoard { ship: 1, .. }
        ));
        assert!(matches!(
            Board::new(5, 5, vec![ship(5, 0, 1, false)]).unwrap_err(),
            BoardError::OffBoard { ship: 1, .. }
        ));
    }

    #[test]
    fn rejects_overlap_and_touch() {
        let e = Board::new(5, 5, vec![ship(0, 0, 3, true), ship(0, 2, 2, false)]).unwrap_err();
        assert_eq!(e, BoardError::Overlap { ship: 2, other: 1, cell: Position::new(0, 2) });
        let e = Board::new(5, 5, vec![ship(0, 0, 2, true), ship(1, 2, 1, true)]).unwrap_err();
        assert_eq!(
            e,
            BoardError::Touch { ship: 2, cell: Position::new(1, 2), other: 1, other_cell: Position::new(0, 1) }
        );
        let e = Board::new(5, 5, vec![ship(0, 0, 2, true), ship(0, 2, 1, true)]).unwrap_err();
        assert!(matches!(e, BoardError::Touch { ship: 2, other: 1, .. }));
        assert!(Board::new(5, 5, vec![ship(0, 0, 2, true), ship(0, 3, 1, true), ship(2, 0, 5, true)]).is_ok());
    }

    #[test]
    fn refill_equals_new() {
        let mut b = statement_board();
        let ships = vec![ship(0, 0, 2, true), ship(2, 0, 5, true), ship(4, 5, 1, true)];
        b.refill(&ships).unwrap();
        let fresh = Board::new(5, 6, ships).unwrap();
        assert_eq!((b.ships(), b.fleet(), b.ship_cells()), (fresh.ships(), fresh.fleet(), fresh.ship_cells()));
        for i in 0..30 {
            assert_eq!(b.is_ship_at(i), fresh.is_ship_at(i));
        }
        let bad = [ship(0, 0, 2, true), ship(1, 2, 1, true)];
        assert_eq!(b.refill(&bad), Err(Board::new(5, 6, bad.to_vec()).unwrap_err()));
        assert!(b.ships().is_empty() && b.fleet().is_empty() && b.ship_cells() == 0);
        assert!((0..30).all(|i| !b.is_ship_at(i)));
    }

    #[test]
    fn refill_valid_equals_refill_on_placed_fleets() {
        // Fleets from the placer on boards of many shapes: the board's rules accept them,
        // and skipping the check builds the same board.
        let mut rng = crate::rng::Rng::new(21);
        for _ in 0..300 {
            let (rows, cols) = (1 + rng.below(15) as usize, 1 + rng.below(15) as usize);
            let board = crate::placement::random_board(rows, cols, &mut rng).unwrap();
            let mut checked = Board::new(rows, cols, vec![]).unwrap();
            let mut trusted = Board::new(rows, cols, vec![ship(0, 0, 1, true)]).unwrap();
            checked.refill(board.ships()).unwrap();
            trusted.refill_valid(board.ships());
            assert_eq!((trusted.ships(), trusted.fleet()), (checked.ships(), checked.fleet()));
            assert_eq!(trusted.ship_cells(), checked.ship_cells());
            assert!((0..rows * cols).all(|i| trusted.is_ship_at(i) == checked.is_ship_at(i)));
        }
    }

    #[test]
    fn empty_fleet_is_valid() {
        let b = Board::new(1, 1, vec![]).unwrap();
        assert_eq!(b.ship_cells(), 0);
        assert!(b.fleet().is_empty());
    }
}

//! The bay: its size, its ships and the rules they follow. The board is the only holder
//! of ship positions; strategies reach it only through [`Sonar`].

use crate::cellset::CellSet;
use crate::fleet::Fleet;
use crate::position::Position;
use crate::record::{CellState, ScanRecord};
use crate::rules::{Rules, Sunk};
use crate::ship::{Ship, MAX_SHIP, MIN_SHIP};
use crate::sonar::{Answer, ProbeError, Sonar};
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
    /// A drawn ship whose shape is not a ship of the fleet (or one too many of it).
    NotInFleet {
        /// Ship number, from 1.
        ship: usize,
        /// The fleet, described.
        fleet: String,
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
            BoardError::NotInFleet { ship, fleet } => {
                write!(f, "ship {ship} has a shape that no ship of the fleet left has (fleet: {fleet})")
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

/// A valid bay: dimensions and ships that follow the rules (by default Problem G's:
/// straight ships of 1 to 5 cells that never touch).
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
    /// The rules; their fleet is this board's ships.
    rules: Rules,
    /// The kind of each ship (an index into the fleet's kinds).
    kinds: Vec<usize>,
    /// What was answered through [`Sonar::probe`] itself, when rules announce sunk
    /// ships (a scan keeps its own record and never uses this).
    direct: Option<Box<ScanRecord>>,
}

impl Board {
    /// Checks Problem G's rules and builds the board.
    /// Pre: none. Post: `Ok` only if every ship has 1..=5 cells, lies inside, and no two
    /// ships overlap or touch; otherwise the first broken rule, naming ships from 1.
    pub fn new(rows: usize, cols: usize, ships: Vec<Ship>) -> Result<Board, BoardError> {
        Board::with_rules(rows, cols, ships, &Rules::problem_g())
    }

    /// Checks `rules` and builds the board. Straight ships take the names of the rules'
    /// fleet when their sizes are exactly its sizes, else they are named by size; drawn
    /// ships must each be a ship of the rules' fleet.
    /// Pre: none. Post: `Ok` only if every straight ship has 1..=5 cells, every drawn
    /// ship is in the fleet, every ship lies inside, and no two overlap (nor touch,
    /// when the rules forbid it); otherwise the first broken rule, naming ships from 1.
    pub fn with_rules(rows: usize, cols: usize, ships: Vec<Ship>, rules: &Rules) -> Result<Board, BoardError> {
        Board::check_size(rows, cols)?;
        let occupied = CellSet::new(rows * cols);
        let mut board = Board {
            rows,
            cols,
            ships,
            occupied,
            fleet: Vec::new(),
            ship_cells: 0,
            rules: rules.clone(),
            kinds: Vec::new(),
            direct: None,
        };
        board.fill()?;
        board.name_ships(rules)?;
        Ok(board)
    }

    /// A board with no ship yet whose rules (and fleet) are `rules`: the start of boards
    /// that [`Board::refill_valid`] fills with the placer's fleets of `rules`.
    /// Pre: none. Post: `Err` only for a size [`Board::check_size`] refuses.
    pub(crate) fn blank(rows: usize, cols: usize, rules: &Rules) -> Result<Board, BoardError> {
        let mut board = Board::with_rules(rows, cols, Vec::new(), rules)?;
        board.rules = rules.clone();
        Ok(board)
    }

    /// Replaces the ships by `ships`, keeping the size and the rules and reusing the
    /// board's memory.
    /// Pre: none. Post: `Ok` exactly when `Board::with_rules(rows, cols, ships, rules)`
    /// would be, and then equal to it; on `Err` (the same error) the board has no ships.
    pub fn refill(&mut self, ships: &[Ship]) -> Result<(), BoardError> {
        self.ships.clear();
        self.ships.extend_from_slice(ships);
        let rules = self.rules.clone();
        let result = self.fill().and_then(|()| self.name_ships(&rules));
        if result.is_err() {
            self.ships.clear();
            let _ = self.fill(); // no ships: cannot fail
            let _ = self.name_ships(&rules);
        }
        self.direct = None;
        result
    }

    /// As [`Board::refill`] for ships valid by construction and given in the fleet's
    /// placement order (the [`crate::placement::Placer`]'s, which `simulate` places a
    /// million times): the rules are not checked again (that check took about 0.5 us
    /// of a game's 9). Debug builds still check them.
    /// Pre: `ships` form a valid board of this size under this board's rules, one per
    /// ship of its fleet, in placement order. Post: as `refill(ships)` gives.
    pub(crate) fn refill_valid(&mut self, ships: &[Ship]) {
        debug_assert!(
            Board::with_rules(self.rows, self.cols, ships.to_vec(), &self.rules).is_ok(),
            "refill_valid given invalid ships"
        );
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
        self.kinds.clear();
        self.kinds.extend(self.rules.fleet().ship_kinds());
        self.direct = None;
    }

    /// Sets the fleet (sizes, largest first) and the number of ship cells from the ships.
    fn count_fleet(&mut self) {
        self.fleet.clear();
        self.fleet.extend(self.ships.iter().map(Ship::size));
        self.fleet.sort_unstable_by(|a, b| b.cmp(a));
        self.ship_cells = self.fleet.iter().sum();
    }

    /// Gives each ship its kind in the fleet of `rules` (see [`Board::with_rules`]),
    /// and sets this board's rules to those with the ships' own fleet.
    fn name_ships(&mut self, rules: &Rules) -> Result<(), BoardError> {
        let straight = self.ships.iter().all(|s| s.orientation().is_some());
        let fleet = if straight { rules.fleet().naming(&self.fleet) } else { rules.fleet().clone() };
        let mut left: Vec<usize> = fleet.kinds().iter().map(|k| k.count).collect();
        self.kinds.clear();
        for (k, ship) in self.ships.iter().enumerate() {
            let found = fleet.kinds().iter().enumerate().position(|(j, kind)| {
                left.get(j).is_some_and(|&n| n > 0) && rules.variants(kind.shape).contains(&ship.shape)
            });
            let Some(j) = found else {
                return Err(BoardError::NotInFleet { ship: k + 1, fleet: fleet.describe() });
            };
            if let Some(n) = left.get_mut(j) {
                *n = n.saturating_sub(1);
            }
            self.kinds.push(j);
        }
        if !straight && left.iter().any(|&n| n > 0) {
            return Err(BoardError::NotInFleet { ship: self.ships.len(), fleet: fleet.describe() });
        }
        self.rules = rules.clone().with_fleet(fleet);
        Ok(())
    }

    /// Checks the rules on `self.ships` and fills in the ship cells, fleet and count.
    /// On `Err`, `occupied` holds part of the ships: the caller must not keep the board.
    fn fill(&mut self) -> Result<(), BoardError> {
        let (rows, cols) = (self.rows, self.cols);
        let reach = self.rules.reach();
        let (ships, occupied) = (&self.ships, &mut self.occupied);
        occupied.reset(rows * cols);
        for (k, ship) in ships.iter().enumerate() {
            let number = k + 1;
            let straight = ship.orientation().is_some();
            if straight && !(MIN_SHIP..=MAX_SHIP).contains(&ship.size()) {
                return Err(BoardError::BadSize { ship: number, size: ship.size() });
            }
            if !ship.fits(rows, cols) {
                return Err(BoardError::OffBoard { ship: number, declared: *ship, rows, cols });
            }
            // Fast path: test the box around the ship (`reach` cells wider on every side),
            // a row segment at a time; that is exact for a straight ship. Only a failure
            // looks at the cells themselves (to name them, or to find that a drawn ship's
            // gaps were the only contact).
            let (first, last) = (ship.start, ship.end().unwrap_or(ship.start));
            let (r0, r1) = (first.row.saturating_sub(reach), (last.row + reach).min(rows - 1));
            let (c0, c1) = (first.col.saturating_sub(reach), (last.col + reach).min(cols - 1));
            if (r0..=r1).any(|r| occupied.any_in(r * cols + c0, r * cols + c1 + 1)) {
                if let Some(e) = Board::conflict(number, ship, ships, occupied, rows, cols, reach) {
                    return Err(e);
                }
            }
            if straight {
                for r in first.row..=last.row {
                    occupied.insert_range(r * cols + first.col, r * cols + last.col + 1);
                }
            } else {
                for cell in ship.cells() {
                    occupied.insert(cell.index(cols));
                }
            }
        }
        self.count_fleet();
        Ok(())
    }

    /// The overlap or contact that stops ship `number` from being placed, if any.
    fn conflict(
        number: usize,
        ship: &Ship,
        ships: &[Ship],
        occupied: &CellSet,
        rows: usize,
        cols: usize,
        reach: usize,
    ) -> Option<BoardError> {
        let owner = |cell: Position| ships.iter().position(|s| s.cells().any(|c| c == cell)).map_or(0, |i| i + 1);
        if let Some(cell) = ship.cells().find(|c| occupied.contains(c.index(cols))) {
            return Some(BoardError::Overlap { ship: number, other: owner(cell), cell });
        }
        if reach == 0 {
            return None;
        }
        for cell in ship.cells() {
            let around = cell.orthogonals(rows, cols).chain(cell.diagonals(rows, cols));
            if let Some(near) = around.into_iter().find(|n| occupied.contains(n.index(cols))) {
                return Some(BoardError::Touch { ship: number, cell, other: owner(near), other_cell: near });
            }
        }
        None
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

    /// The rules the board follows; their fleet is the board's ships.
    /// Pre: none. Post: no change.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The kind of ship `k` (from 0, in the order of `ships()`) in the fleet.
    /// Pre: none. Post: `None` when there is no such ship.
    pub fn kind_of(&self, k: usize) -> Option<usize> {
        self.kinds.get(k).copied()
    }

    /// The ship (its index in `ships()`) that holds `pos`.
    /// Pre: none. Post: `None` for water and cells outside.
    pub fn ship_at(&self, pos: Position) -> Option<usize> {
        if !self.is_ship(pos) {
            return None;
        }
        self.ships.iter().position(|s| {
            let (r, c) = (pos.row.wrapping_sub(s.start.row), pos.col.wrapping_sub(s.start.col));
            s.shape.has(r, c)
        })
    }

    /// What probing the cell of index `i` answers, given what `record` has recorded so
    /// far: `Sunk` when the rules announce it and every other cell of its ship is hit.
    /// Pre: `i` inside, not probed in `record`; `record` is of this board. Post: no
    /// change.
    pub fn answer_at(&self, i: usize, record: &ScanRecord) -> Answer {
        if !self.is_ship_at(i) {
            return Answer::Miss;
        }
        let sunk = self.rules.sunk();
        if sunk == Sunk::None {
            return Answer::Hit;
        }
        let pos = Position::from_index(i, self.cols);
        let Some(k) = self.ship_at(pos) else { return Answer::Hit };
        let Some(ship) = self.ships.get(k) else { return Answer::Hit };
        if ship.cells().any(|c| c != pos && record.state(c) != CellState::Hit) {
            return Answer::Hit;
        }
        Answer::Sunk(if sunk == Sunk::Named { self.kinds.get(k).copied() } else { None })
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
    fn rules(&self) -> &Rules {
        &self.rules
    }
    fn fleet(&self) -> Option<&Fleet> {
        Some(self.rules.fleet())
    }
    fn probe(&mut self, pos: Position) -> Result<Answer, ProbeError> {
        if pos.row >= self.rows || pos.col >= self.cols {
            return Err(ProbeError::Io(format!("internal: {pos} is outside the board")));
        }
        if self.rules.sunk() == Sunk::None {
            return Ok(Answer::from_hit(self.is_ship(pos)));
        }
        // A sunk answer depends on what was asked before: keep a record of it.
        let mut direct = self.direct.take().unwrap_or_else(|| Box::new(ScanRecord::new(self.rows, self.cols)));
        let i = pos.index(self.cols);
        let answer = match direct.open_index(pos) {
            Some(_) => {
                let a = self.answer_at(i, &direct);
                direct.set_probed(i, a.is_hit());
                a
            }
            // Asked again: the same answer, without the completion it made.
            None => Answer::from_hit(self.is_ship_at(i)),
        };
        self.direct = Some(direct);
        Ok(answer)
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
        assert_eq!(b.probe(Position::new(1, 1)), Ok(Answer::Hit));
        assert_eq!(b.probe(Position::new(0, 0)), Ok(Answer::Miss));
        assert_eq!(Sonar::fleet(&b).map(Fleet::sizes), Some(vec![4, 2]));
        assert_eq!((Sonar::rows(&b), Sonar::cols(&b), Sonar::ship_cells(&b)), (5, 6, 6));
        assert!(b.probe(Position::new(5, 0)).is_err());
    }

    #[test]
    fn touching_ships_follow_the_rules() {
        let side_by_side = vec![ship(0, 0, 2, true), ship(1, 0, 3, true), ship(0, 2, 1, true)];
        assert!(matches!(Board::new(3, 4, side_by_side.clone()), Err(BoardError::Touch { ship: 2, .. })));
        let classic = Rules::preset("classic").unwrap();
        let b = Board::with_rules(3, 4, side_by_side, &classic).unwrap();
        assert_eq!(b.ship_cells(), 6);
        let overlap = vec![ship(0, 0, 2, true), ship(0, 1, 2, false)];
        assert!(matches!(Board::with_rules(3, 4, overlap, &classic), Err(BoardError::Overlap { ship: 2, .. })));
    }

    #[test]
    fn ships_are_named_from_the_fleet() {
        let classic = Rules::preset("classic").unwrap();
        let ships = vec![
            ship(0, 0, 3, true),
            ship(2, 0, 5, true),
            ship(4, 0, 3, true),
            ship(6, 0, 4, true),
            ship(8, 0, 2, true),
        ];
        let b = Board::with_rules(10, 10, ships.clone(), &classic).unwrap();
        let names: Vec<&str> = (0..5)
            .map(|k| b.kind_of(k).and_then(|j| b.rules().fleet().kinds().get(j)).map_or("?", |k| k.name.as_str()))
            .collect();
        assert_eq!(names, vec!["cruiser", "carrier", "submarine", "battleship", "destroyer"]);
        let b = Board::with_rules(10, 10, ships[..2].to_vec(), &classic).unwrap();
        assert_eq!(b.rules().fleet().kinds().iter().map(|k| k.name.as_str()).collect::<Vec<_>>(), vec!["5", "3"]);
        assert_eq!(b.rules().sunk(), Sunk::Named);
    }

    #[test]
    fn sunk_is_answered_on_the_last_cell() {
        let classic = Rules::preset("classic").unwrap();
        let ships = vec![ship(0, 0, 2, true), ship(1, 0, 3, true)];
        let mut b = Board::with_rules(3, 4, ships, &classic).unwrap();
        let kind = b.kind_of(1);
        assert_eq!(b.probe(Position::new(1, 1)), Ok(Answer::Hit));
        assert_eq!(b.probe(Position::new(0, 1)), Ok(Answer::Hit));
        assert_eq!(b.probe(Position::new(1, 0)), Ok(Answer::Hit));
        assert_eq!(b.probe(Position::new(1, 2)), Ok(Answer::Sunk(kind)));
        assert_eq!(b.probe(Position::new(0, 0)), Ok(Answer::Sunk(b.kind_of(0))));
        assert_eq!(b.probe(Position::new(2, 2)), Ok(Answer::Miss));
        let russian = Rules::preset("russian").unwrap();
        let mut b = Board::with_rules(3, 4, vec![ship(0, 0, 1, true)], &russian).unwrap();
        assert_eq!(b.probe(Position::new(0, 0)), Ok(Answer::Sunk(None)));
    }

    #[test]
    fn drawn_ships_must_be_in_the_fleet() {
        use crate::shape::Shape;
        let rules = Rules::preset("starwars").unwrap();
        let y = Shape::from_drawing(&["X.X", "X.X", ".X."]).unwrap();
        let ships = |s: Shape| {
            vec![
                Ship::drawn(Position::new(0, 0), Shape::from_drawing(&["X", "X", "X", "X"]).unwrap()),
                Ship::drawn(Position::new(0, 1), Shape::from_drawing(&["X.X", "XXX", "X.X"]).unwrap()),
                Ship::drawn(Position::new(4, 0), Shape::from_drawing(&["X.X", ".X.", "X.X"]).unwrap()),
                Ship::drawn(Position::new(0, 4), s),
            ]
        };
        // The TIE fighter touches the bar and the Y wing: allowed here.
        let b = Board::with_rules(8, 8, ships(y), &rules).unwrap();
        assert_eq!(b.ship_cells(), 21);
        assert_eq!(b.ship_at(Position::new(1, 2)), Some(1));
        assert_eq!(b.ship_at(Position::new(1, 4)), Some(3));
        assert_eq!(b.ship_at(Position::new(1, 5)), None);
        let turned = y.rotated();
        assert!(matches!(Board::with_rules(8, 8, ships(turned), &rules), Err(BoardError::NotInFleet { ship: 4, .. })));
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

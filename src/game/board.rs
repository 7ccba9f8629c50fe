//! The bay: its size, its ships and the rules they follow. The board is the only holder
//! of ship positions; strategies reach it only through a scan (`crate::scan::referee`).

use crate::game::bay::Bay;
use crate::game::cellset::CellSet;
use crate::game::position::{Orientation, Position};
use crate::game::rules::{Rules, Sunk};
use crate::game::shape::Shape;
use crate::game::ship::{Ship, MAX_SHIP, MIN_SHIP};
use crate::limits::memory::{self, OutOfMemory, Shortage};
use crate::limits::BOARD_CELLS;
use std::fmt;

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
    /// More cells than [`BOARD_CELLS`].
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
    /// Fewer ships than a fleet with drawn ships has (its ships are all on the board).
    MissingShips {
        /// Ships given.
        found: usize,
        /// Ships of the fleet.
        expected: usize,
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
    /// The memory for the board could not be had.
    OutOfMemory(Shortage),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::EmptyBoard { rows, cols } => {
                write!(f, "the board is {rows}x{cols}: rows and columns must be at least 1")
            }
            BoardError::TooLarge { rows, cols } => {
                write!(f, "the board is {rows}x{cols}, more than the limit of {BOARD_CELLS} cells")
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
            BoardError::MissingShips { found, expected, fleet } => {
                write!(f, "{found} ship(s) given, but the fleet has {expected}: {fleet}")
            }
            BoardError::OutOfMemory(e) => write!(f, "{e}"),
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

/// A ship as the board keeps it, in 8 bytes (a bay may hold 25 million ships): the
/// row-major index of its box's top-left cell, its shape (an index into the board's
/// shapes) and its kind in the fleet (set once every ship is known).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Placed {
    start: u32,
    shape: u16,
    kind: u16,
}

/// A valid bay: dimensions and ships that follow the rules (by default Problem G's:
/// straight ships of 1 to 5 cells that never touch).
#[derive(Debug, Clone)]
pub struct Board {
    rows: usize,
    cols: usize,
    /// The ships, in input order.
    ships: Vec<Placed>,
    /// The distinct shapes of the ships, in order of first appearance.
    shapes: Vec<Shape>,
    /// The ships (indices into `ships`) by start cell, when the rules announce sunk
    /// ships ([`Board::ship_at`] then runs at every hit); empty otherwise.
    by_start: Vec<u32>,
    /// One bit per cell, set on ship cells (row-major).
    occupied: CellSet,
    ship_cells: usize,
    /// The rules; their fleet is this board's ships.
    rules: Rules,
}

/// A board built one ship at a time, checking each as it comes (a judge input is read
/// this way, so a bad ship stops the reading, and no list of ships is kept twice).
#[derive(Debug)]
pub struct BoardBuilder {
    board: Board,
    /// The rules asked for (the board's own take the ships' fleet at the end).
    rules: Rules,
    /// How far around a ship another may not be: 1 when ships may not touch.
    reach: usize,
}

impl BoardBuilder {
    /// Starts a `rows` x `cols` board under `rules`, with no ship yet.
    /// Pre: none. Post: `Err` for a size [`Board::check_size`] refuses, or when the
    /// memory for the board's cells cannot be had.
    pub fn new(rows: usize, cols: usize, rules: &Rules) -> Result<BoardBuilder, BoardError> {
        Board::check_size(rows, cols)?;
        let occupied = CellSet::try_new(rows * cols).map_err(|e| Board::shortage(rows, cols, e))?;
        let board = Board {
            rows,
            cols,
            ships: Vec::new(),
            shapes: Vec::new(),
            by_start: Vec::new(),
            occupied,
            ship_cells: 0,
            rules: rules.clone(),
        };
        Ok(BoardBuilder { board, rules: rules.clone(), reach: rules.reach() })
    }

    /// Makes room for `ships` more ships, when their number is known.
    /// Pre: none. Post: `Err` only when the memory cannot be had.
    pub fn reserve(&mut self, ships: usize) -> Result<(), BoardError> {
        let b = &mut self.board;
        memory::reserve(&mut b.ships, ships).map_err(|e| Board::shortage(b.rows, b.cols, e))
    }

    /// Ships added so far.
    /// Pre: none. Post: no change.
    pub fn len(&self) -> usize {
        self.board.ships.len()
    }

    /// True before the first ship.
    /// Pre: none. Post: `len() == 0`.
    pub fn is_empty(&self) -> bool {
        self.board.ships.is_empty()
    }

    /// Adds the next ship, checking it against the rules and the ships before it.
    /// Pre: none. Post: `Err` is the first broken rule (the ship is numbered
    /// `len() + 1`); the builder must then be dropped.
    pub fn add(&mut self, ship: Ship) -> Result<(), BoardError> {
        self.board.add(ship, self.reach)
    }

    /// The board, once every ship is given: each ship gets its kind in the fleet.
    /// Pre: none. Post: as [`Board::with_rules`] of the same ships.
    pub fn finish(mut self) -> Result<Board, BoardError> {
        self.board.name_ships(&self.rules)?;
        self.board.index_starts()?;
        Ok(self.board)
    }
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
        let mut builder = BoardBuilder::new(rows, cols, rules)?;
        builder.reserve(ships.len())?;
        for ship in ships {
            builder.add(ship)?;
        }
        builder.finish()
    }

    /// A board with no ship yet whose rules (and fleet) are `rules`: the start of boards
    /// that [`Board::refill_valid`] fills with the placer's fleets of `rules`.
    /// Pre: none. Post: `Err` only for a size [`Board::check_size`] refuses, or memory.
    pub(crate) fn blank(rows: usize, cols: usize, rules: &Rules) -> Result<Board, BoardError> {
        let mut board = Board::with_rules(rows, cols, Vec::new(), rules)?;
        board.rules = rules.clone();
        Ok(board)
    }

    /// The error for a failed allocation on this size of board.
    fn shortage(rows: usize, cols: usize, e: OutOfMemory) -> BoardError {
        BoardError::OutOfMemory(Shortage::of(rows, cols, e))
    }

    /// Replaces the ships by `ships`, keeping the size and the rules and reusing the
    /// board's memory.
    /// Pre: none. Post: `Ok` exactly when `Board::with_rules(rows, cols, ships, rules)`
    /// would be, and then equal to it; on `Err` (the same error) the board has no ships.
    pub fn refill(&mut self, ships: &[Ship]) -> Result<(), BoardError> {
        let rules = self.rules.clone();
        let reach = rules.reach();
        self.clear();
        let result = ships
            .iter()
            .try_for_each(|&ship| self.add(ship, reach))
            .and_then(|()| self.name_ships(&rules))
            .and_then(|()| self.index_starts());
        if result.is_err() {
            self.clear();
            let _ = self.name_ships(&rules); // no ships: cannot fail
        }
        result
    }

    /// As [`Board::refill`] for ships valid by construction and given in the fleet's
    /// placement order (the [`crate::game::placement::Placer`]'s, which `simulate` places a
    /// million times): the rules are not checked again (that check took about 0.5 us
    /// of a game's 9). Debug builds still check them.
    /// Pre: `ships` form a valid board of this size under this board's rules, one per
    /// ship of its fleet, in placement order. Post: as `refill(ships)` gives.
    pub(crate) fn refill_valid(&mut self, ships: &[Ship]) {
        debug_assert!(
            Board::with_rules(self.rows, self.cols, ships.to_vec(), &self.rules).is_ok(),
            "refill_valid given invalid ships"
        );
        self.clear();
        let bay = self.bay();
        for ship in ships {
            self.occupied.insert_all(ship.cells().map(|cell| bay.index(cell)));
            self.ship_cells += ship.size();
            let shape = self.shape_index(ship.shape);
            self.ships.push(Placed { start: bay.index(ship.start) as u32, shape, kind: 0 });
        }
        for (p, kind) in self.ships.iter_mut().zip(self.rules.fleet().ship_kinds()) {
            p.kind = kind as u16;
        }
        let _ = self.index_starts(); // a placed fleet is small: its index fits
    }

    /// Forgets every ship (keeping the memory).
    fn clear(&mut self) {
        self.ships.clear();
        self.shapes.clear();
        self.by_start.clear();
        self.occupied.reset(self.rows * self.cols);
        self.ship_cells = 0;
    }

    /// The index of `shape` among the board's shapes, added when new.
    fn shape_index(&mut self, shape: Shape) -> u16 {
        if self.shapes.first() == Some(&shape) {
            return 0;
        }
        match self.shapes.iter().position(|&s| s == shape) {
            Some(k) => k as u16,
            None => {
                self.shapes.push(shape);
                (self.shapes.len() - 1) as u16
            }
        }
    }

    /// Ship `k` (from 0) as a [`Ship`].
    fn unpack(&self, p: Placed) -> Ship {
        let shape =
            self.shapes.get(usize::from(p.shape)).copied().unwrap_or_else(|| Shape::straight(1, Orientation::East));
        Ship::drawn(self.bay().position(p.start as usize), shape)
    }

    /// Gives each ship its kind in the fleet of `rules` (see [`Board::with_rules`]),
    /// and sets this board's rules to those with the ships' own fleet. Each kind is
    /// the first of the fleet, in order, of the ship's shape with a ship left.
    fn name_ships(&mut self, rules: &Rules) -> Result<(), BoardError> {
        // Ships given by size (or none at all) are named by size when the fleet is not
        // theirs; a fleet with drawn ships (a line over 5 cells counts) names its own.
        let straight = self.shapes.iter().all(|s| s.straight_line().is_some())
            && (rules.fleet().is_straight() || self.ships.is_empty());
        let fleet = if straight {
            let mut counts = [0usize; MAX_SHIP + 1];
            for p in &self.ships {
                let size = self.shapes.get(usize::from(p.shape)).map_or(0, |s| s.size());
                if let Some(n) = counts.get_mut(size) {
                    *n += 1;
                }
            }
            rules.fleet().naming_counts(&counts)
        } else {
            rules.fleet().clone()
        };
        let kinds = fleet.kinds();
        let mut left: Vec<usize> = kinds.iter().map(|k| k.count).collect();
        // For each shape, the kinds it can be, in fleet order, and the first of them
        // that may still have a ship left (`left` only decreases: the cursor only moves on).
        let mut can_be: Vec<(Vec<u16>, usize)> = vec![(Vec::new(), 0); self.shapes.len()];
        if kinds.len() <= usize::from(u16::MAX) {
            for (j, kind) in kinds.iter().enumerate() {
                for v in rules.variants(kind.shape) {
                    if let Some(k) = self.shapes.iter().position(|&s| s == v) {
                        if let Some((list, _)) = can_be.get_mut(k) {
                            list.push(j as u16);
                        }
                    }
                }
            }
        }
        for (number, p) in self.ships.iter_mut().enumerate() {
            let Some((list, cursor)) = can_be.get_mut(usize::from(p.shape)) else {
                return Err(BoardError::NotInFleet { ship: number + 1, fleet: fleet.describe() });
            };
            while list.get(*cursor).is_some_and(|&j| left.get(usize::from(j)).is_none_or(|&n| n == 0)) {
                *cursor += 1;
            }
            let Some(&j) = list.get(*cursor) else {
                return Err(BoardError::NotInFleet { ship: number + 1, fleet: fleet.describe() });
            };
            if let Some(n) = left.get_mut(usize::from(j)) {
                *n -= 1;
            }
            p.kind = j;
        }
        if !straight && left.iter().any(|&n| n > 0) {
            return Err(BoardError::MissingShips {
                found: self.ships.len(),
                expected: fleet.len(),
                fleet: fleet.describe(),
            });
        }
        self.rules = rules.clone().with_fleet(fleet);
        Ok(())
    }

    /// Sorts the ships by start cell into `by_start`, when the rules announce sunk ships.
    fn index_starts(&mut self) -> Result<(), BoardError> {
        self.by_start.clear();
        if self.rules.sunk() == Sunk::None {
            return Ok(());
        }
        memory::reserve(&mut self.by_start, self.ships.len()).map_err(|e| Board::shortage(self.rows, self.cols, e))?;
        self.by_start.extend(0..self.ships.len() as u32);
        let ships = &self.ships;
        self.by_start.sort_unstable_by_key(|&k| ships.get(k as usize).map_or(0, |p| p.start));
        Ok(())
    }

    /// Checks `ship` against the rules and the ships so far, and adds it.
    /// On `Err`, the board holds part of the ships: the caller must not keep it.
    fn add(&mut self, ship: Ship, reach: usize) -> Result<(), BoardError> {
        let bay = self.bay();
        let Bay { rows, cols } = bay;
        let number = self.ships.len() + 1;
        // Ships given by size have 1 to 5 cells; a fleet with drawn ships may have
        // longer lines (its ships are checked against its kinds).
        let straight = ship.orientation().is_some() && self.rules.fleet().is_straight();
        if straight && !(MIN_SHIP..=MAX_SHIP).contains(&ship.size()) {
            return Err(BoardError::BadSize { ship: number, size: ship.size() });
        }
        if !ship.fits(rows, cols) {
            return Err(BoardError::OffBoard { ship: number, declared: ship, rows, cols });
        }
        // Fast path: test the box around the ship (`reach` cells wider on every side),
        // a row segment at a time; that is exact for a straight ship. Only a failure
        // looks at the cells themselves (to name them, or to find that a drawn ship's
        // gaps were the only contact).
        let (first, last) = (ship.start, ship.end().unwrap_or(ship.start));
        if bay.box_spans(first, last, reach).any(|s| self.occupied.any_in(s.start, s.end)) {
            if let Some(e) = self.conflict(number, &ship, reach) {
                return Err(e);
            }
        }
        let shape = if self.shapes.len() >= usize::from(u16::MAX) && !self.shapes.contains(&ship.shape) {
            return Err(BoardError::NotInFleet { ship: number, fleet: self.rules.fleet().describe() });
        } else {
            self.shape_index(ship.shape)
        };
        memory::push(&mut self.ships, Placed { start: bay.index(first) as u32, shape, kind: 0 })
            .map_err(|e| Board::shortage(rows, cols, e))?;
        let occupied = &mut self.occupied;
        if straight {
            bay.box_spans(first, last, 0).for_each(|s| occupied.insert_range(s.start, s.end));
        } else {
            for cell in ship.cells() {
                occupied.insert(bay.index(cell));
            }
        }
        self.ship_cells += ship.size();
        Ok(())
    }

    /// The overlap or contact that stops ship `number` from being placed, if any.
    fn conflict(&self, number: usize, ship: &Ship, reach: usize) -> Option<BoardError> {
        let (bay, cols, occupied) = (self.bay(), self.cols, &self.occupied);
        let owner = |cell: Position| {
            self.ships.iter().position(|&p| self.unpack(p).cells().any(|c| c == cell)).map_or(0, |i| i + 1)
        };
        if let Some(cell) = ship.cells().find(|c| occupied.contains(c.index(cols))) {
            return Some(BoardError::Overlap { ship: number, other: owner(cell), cell });
        }
        if reach == 0 {
            return None;
        }
        for cell in ship.cells() {
            // The cell itself is free (no overlap above): the rest of its halo is its
            // eight neighbours.
            if let Some(near) = bay.neighbours8(cell).find(|n| occupied.contains(n.index(cols))) {
                return Some(BoardError::Touch { ship: number, cell, other: owner(near), other_cell: near });
            }
        }
        None
    }

    /// Checks that a `rows` x `cols` board is allowed.
    /// Pre: none. Post: `Ok` when both are at least 1 and the product is at most [`BOARD_CELLS`].
    pub fn check_size(rows: usize, cols: usize) -> Result<(), BoardError> {
        if rows == 0 || cols == 0 {
            return Err(BoardError::EmptyBoard { rows, cols });
        }
        match rows.checked_mul(cols) {
            Some(n) if n <= BOARD_CELLS => Ok(()),
            _ => Err(BoardError::TooLarge { rows, cols }),
        }
    }

    /// Number of rows.
    /// Pre: none. Post: at least 1.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The bay the board covers.
    /// Pre: none. Post: `rows()` x `cols()`.
    pub(crate) fn bay(&self) -> Bay {
        Bay::new(self.rows, self.cols)
    }

    /// Number of columns.
    /// Pre: none. Post: at least 1.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of cells, `rows * cols`.
    /// Pre: none. Post: at most [`BOARD_CELLS`].
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// The ships, in input order.
    /// Pre: none. Post: `ship_count()` ships.
    pub fn ships(&self) -> impl ExactSizeIterator<Item = Ship> + '_ {
        self.ships.iter().map(|&p| self.unpack(p))
    }

    /// Ship `k` (from 0, in input order).
    /// Pre: none. Post: `None` when there is no such ship.
    pub fn ship(&self, k: usize) -> Option<Ship> {
        self.ships.get(k).map(|&p| self.unpack(p))
    }

    /// The number of ships.
    /// Pre: none. Post: no change.
    pub fn ship_count(&self) -> usize {
        self.ships.len()
    }

    /// Ship sizes, largest first.
    /// Pre: none. Post: sums to `ship_cells()`.
    pub fn fleet(&self) -> Vec<usize> {
        self.rules.fleet().sizes()
    }

    /// The rules the board follows; their fleet is the board's ships.
    /// Pre: none. Post: no change.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The kind of ship `k` (from 0, in the order of `ships()`) in the fleet.
    /// Pre: none. Post: `None` when there is no such ship.
    pub fn kind_of(&self, k: usize) -> Option<usize> {
        self.ships.get(k).map(|p| usize::from(p.kind))
    }

    /// The ship (its index in `ships()`) that holds `pos`. Under rules that announce
    /// sunk ships the ships are indexed by start cell and only ships starting within a
    /// box's size before `pos` are looked at; otherwise every ship is.
    /// Pre: none. Post: `None` for water and cells outside.
    pub fn ship_at(&self, pos: Position) -> Option<usize> {
        if !self.is_ship(pos) {
            return None;
        }
        let holds = |k: usize| {
            self.ships.get(k).is_some_and(|&p| {
                let s = self.unpack(p);
                s.shape.has(pos.row.wrapping_sub(s.start.row), pos.col.wrapping_sub(s.start.col))
            })
        };
        if self.by_start.is_empty() {
            return (0..self.ships.len()).find(|&k| holds(k));
        }
        let box_rows = self.shapes.iter().map(|s| s.rows()).max().unwrap_or(1);
        let box_cols = self.shapes.iter().map(|s| s.cols()).max().unwrap_or(1);
        let start_of = |k: &u32| self.ships.get(*k as usize).map_or(0, |p| p.start as usize);
        for row in (pos.row + 1).saturating_sub(box_rows)..=pos.row {
            let lo = row * self.cols + (pos.col + 1).saturating_sub(box_cols);
            let hi = row * self.cols + pos.col;
            let from = self.by_start.partition_point(|k| start_of(k) < lo);
            let found = self.by_start.get(from..).unwrap_or(&[]).iter().take_while(|k| start_of(k) <= hi);
            if let Some(&k) = found.into_iter().find(|&&k| holds(k as usize)) {
                return Some(k as usize);
            }
        }
        None
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::position::Orientation::{East, South};

    fn ship(r: usize, c: usize, size: usize, east: bool) -> Ship {
        Ship::new(Position::new(r, c), size, if east { East } else { South })
    }

    fn list(b: &Board) -> Vec<Ship> {
        b.ships().collect()
    }

    fn statement_board() -> Board {
        Board::new(5, 6, vec![ship(1, 1, 4, true), ship(3, 3, 2, false)]).unwrap()
    }

    #[test]
    fn new_accepts_the_statement_board() {
        let b = statement_board();
        assert_eq!((b.rows(), b.cols(), b.cells()), (5, 6, 30));
        assert_eq!((b.ships().len(), b.ship_count()), (2, 2));
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
    fn drawn_ships_must_be_in_the_fleet() {
        use crate::game::shape::Shape;
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
        // A drawn fleet is on the board whole (only the bar: refused), or not at all
        // (simulate's blank boards, a judge input of no ship).
        let bar = ships(y)[..1].to_vec();
        let err = Board::with_rules(8, 8, bar, &rules).unwrap_err();
        assert!(matches!(err, BoardError::MissingShips { found: 1, expected: 4, .. }), "{err}");
        assert!(err.to_string().starts_with("1 ship(s) given, but the fleet has 4: Petar Kresimir 4"), "{err}");
        assert_eq!(Board::with_rules(8, 8, Vec::new(), &rules).unwrap().ship_cells(), 0);
        assert_eq!(Board::blank(8, 8, &rules).unwrap().rules(), &rules);
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
        assert_eq!((list(&b), b.fleet(), b.ship_cells()), (list(&fresh), fresh.fleet(), fresh.ship_cells()));
        for i in 0..30 {
            assert_eq!(b.is_ship_at(i), fresh.is_ship_at(i));
        }
        let bad = [ship(0, 0, 2, true), ship(1, 2, 1, true)];
        assert_eq!(b.refill(&bad), Err(Board::new(5, 6, bad.to_vec()).unwrap_err()));
        assert!(b.ship_count() == 0 && b.fleet().is_empty() && b.ship_cells() == 0);
        assert!((0..30).all(|i| !b.is_ship_at(i)));
    }

    #[test]
    fn refill_valid_equals_refill_on_placed_fleets() {
        // Fleets from the placer on boards of many shapes: the board's rules accept them,
        // and skipping the check builds the same board.
        let mut rng = crate::game::rng::Rng::new(21);
        for _ in 0..300 {
            let (rows, cols) = (1 + rng.below(15) as usize, 1 + rng.below(15) as usize);
            let board = crate::game::placement::random_board(rows, cols, &mut rng).unwrap();
            let mut checked = Board::new(rows, cols, vec![]).unwrap();
            let mut trusted = Board::blank(rows, cols, board.rules()).unwrap();
            checked.refill(&list(&board)).unwrap();
            trusted.refill_valid(&list(&board));
            assert_eq!((list(&trusted), trusted.fleet()), (list(&checked), checked.fleet()));
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

//! Random fleets: ships placed at random within the rules.
//!
//! The model (also in report/rules.md): ships are placed largest first, each uniformly at
//! random among the placements that are valid given the ships already placed (inside
//! the board, not on or next to another ship). A size-1 ship has one placement per cell;
//! a longer ship one per cell and orientation that fits. A fleet that gets stuck (a ship
//! with no valid placement left) starts again from an empty board.
//!
//! A placement is drawn by rejection (uniform over all placements inside the board,
//! kept if valid), which is uniform over the valid ones; after `TRIES` rejections the
//! valid placements are listed and one is drawn from the list, so crowded boards stay
//! exact and a ship with no valid placement is detected.

use crate::game::bay::Bay;
use crate::game::board::Board;
use crate::game::cellset::CellSet;
use crate::game::fleet::Fleet;
use crate::game::position::{Orientation, Position};
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::shape::Shape;
use crate::game::ship::{Ship, MAX_SHIP, MIN_SHIP};
use crate::limits::memory::{self, Shortage};
use crate::limits::PLACEMENT_RESTARTS;
use std::fmt;

/// The statement's benchmark fleet.
pub const STANDARD_FLEET: [usize; 8] = [5, 4, 3, 3, 2, 2, 1, 1];

/// Rejection draws before listing the valid placements.
const TRIES: usize = 48;

/// The work (draws, and positions looked at when listing) a fleet may cost before it is
/// given up, per cell of the board plus [`WORK_PER_SHIP`] per ship: placing the
/// statement's fleet takes a few dozen units, so only fleets that cannot fit reach it.
const WORK_PER_CELL: usize = 32;

/// See [`WORK_PER_CELL`].
const WORK_PER_SHIP: usize = 64;

/// Why a fleet could not be placed.
#[derive(Debug, Clone, PartialEq)]
pub enum PlacementError {
    /// The fleet can never fit: more ships than room even when packed perfectly.
    CannotFit {
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
        /// Why, in words.
        why: String,
    },
    /// Every attempt got stuck.
    Stuck {
        /// Attempts made.
        attempts: usize,
        /// True when ships may touch (the message then does not speak of touching).
        touch: bool,
    },
    /// An exhaustive search proved that no layout of the fleet fits the board.
    NoLayout {
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
        /// True when ships may touch (the message then does not speak of touching).
        touch: bool,
    },
    /// The density asked for could not be reached.
    Density {
        /// Density asked for.
        wanted: f64,
        /// Density reached.
        reached: f64,
    },
    /// The memory for the board or its ships could not be had.
    OutOfMemory(Shortage),
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlacementError::CannotFit { rows, cols, why } => {
                write!(f, "the fleet cannot fit on a {rows}x{cols} board: {why}")
            }
            PlacementError::Stuck { attempts, touch } => write!(
                f,
                "could not place the fleet{} in {attempts} attempts; it is too crowded for this board",
                if *touch { "" } else { " without touching ships" }
            ),
            PlacementError::NoLayout { rows, cols, touch } => write!(
                f,
                "no layout of the fleet fits a {rows}x{cols} board{} (an exhaustive search found none); it is too \
                 crowded for this board",
                if *touch { "" } else { " without touching ships" }
            ),
            PlacementError::Density { wanted, reached } => write!(
                f,
                "could not reach a ship density of {wanted}: random placement jammed at {reached:.3}; ask for less"
            ),
            PlacementError::OutOfMemory(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlacementError {}

/// Places ships on one board size, reusing its memory from fleet to fleet.
#[derive(Debug, Clone)]
pub struct Placer {
    rows: usize,
    cols: usize,
    /// How far a ship forbids the others: 1 (its cells and their neighbours) when ships
    /// may not touch, 0 (its cells) when they may.
    reach: usize,
    /// May drawn ships turn?
    rotate: bool,
    /// Cells other ships may not use.
    forbidden: CellSet,
    /// Scratch list of valid placements for the exhaustive fallback.
    valid: Vec<Ship>,
    /// Scratch: the shape of each ship to place, in placement order.
    order: Vec<Shape>,
    /// The shapes each ship may take, by its drawn shape (a few entries: one per kind).
    turns: Vec<(Shape, Vec<Shape>)>,
    /// Scratch: for each ship to place, its entry in `turns`.
    pieces: Vec<usize>,
}

impl Placer {
    /// A placer for `rows` x `cols` boards under Problem G's rules.
    /// Pre: `rows, cols >= 1`. Post: empty board.
    pub fn new(rows: usize, cols: usize) -> Placer {
        Placer::with_rules(rows, cols, &Rules::problem_g())
    }

    /// A placer for `rows` x `cols` boards under `rules` (whether ships may touch, and
    /// turn).
    /// Pre: `rows, cols >= 1`. Post: empty board.
    pub fn with_rules(rows: usize, cols: usize, rules: &Rules) -> Placer {
        Placer {
            rows,
            cols,
            reach: rules.reach(),
            rotate: rules.rotate(),
            // Sized (fallibly) by the first placement.
            forbidden: CellSet::default(),
            valid: Vec::new(),
            order: Vec::new(),
            turns: Vec::new(),
            pieces: Vec::new(),
        }
    }

    /// Checks a necessary condition for `fleet` (sizes of straight ships) to fit.
    /// Pre: none. Post: as [`Placer::check`] for that fleet.
    pub fn check_fleet(&self, fleet: &[usize]) -> Result<(), PlacementError> {
        if let Some(&s) = fleet.iter().find(|&&s| !(MIN_SHIP..=MAX_SHIP).contains(&s)) {
            return Err(PlacementError::CannotFit {
                rows: self.rows,
                cols: self.cols,
                why: format!("ship size {s} is outside {MIN_SHIP}..={MAX_SHIP}"),
            });
        }
        self.check_shapes(fleet.iter().map(|&s| Shape::straight(s, Orientation::East)))
    }

    /// Checks necessary conditions for `fleet` to fit: every ship fits inside the board
    /// in some position, and the ships have room. When ships may not touch, a ship with
    /// the row below its box and the column after it covers (h+1)(w+1) cells of a
    /// (rows+1) x (cols+1) grid (2(s+1) for a straight ship of s cells), and those
    /// areas never overlap; when they may, the ships' cells must not outnumber the
    /// board's.
    /// Pre: none. Post: `Err(CannotFit)` when the fleet certainly cannot fit.
    /// A ship too large for the board is named, with the line of its fleet file when
    /// it was read from one.
    pub fn check(&self, fleet: &Fleet) -> Result<(), PlacementError> {
        if fleet.is_named() || !fleet.is_straight() {
            for (k, kind) in fleet.kinds().iter().enumerate() {
                let (h, w) = (kind.shape.rows(), kind.shape.cols());
                if !self.fits(kind.shape) {
                    let at = fleet.line_of(k).map(|l| format!(" (line {l} of the fleet file)")).unwrap_or_default();
                    let turns = if self.rotate && h != w { ", even turned" } else { "" };
                    return Err(PlacementError::CannotFit {
                        rows: self.rows,
                        cols: self.cols,
                        why: format!(
                            "ship `{}`{at} is {h}x{w} (rows x columns){turns}: larger than the board",
                            kind.name
                        ),
                    });
                }
            }
        }
        self.check_shapes(fleet.ship_kinds().filter_map(|k| fleet.kinds().get(k)).map(|k| k.shape))
    }

    /// True when `shape` fits inside the board in some position (a quarter turn, when
    /// allowed, swaps the box's sides).
    fn fits(&self, shape: Shape) -> bool {
        let (h, w) = (shape.rows(), shape.cols());
        (h <= self.rows && w <= self.cols) || (self.rotate && w <= self.rows && h <= self.cols)
    }

    fn check_shapes(&self, shapes: impl Iterator<Item = Shape>) -> Result<(), PlacementError> {
        let (rows, cols) = (self.rows, self.cols);
        let fail = |why: String| Err(PlacementError::CannotFit { rows, cols, why });
        let (mut need, mut cells, mut ships) = (0usize, 0usize, 0usize);
        for shape in shapes {
            let (h, w) = (shape.rows(), shape.cols());
            if !self.fits(shape) {
                return match shape.straight_line() {
                    Some((s, _)) => fail(format!("a ship of {s} cells is longer than the board")),
                    None => fail(format!("a {h}x{w} ship is larger than the board")),
                };
            }
            // The box with the row below it and the column after it.
            let area = (h + 1) * (w + 1);
            need = need.saturating_add(area);
            cells = cells.saturating_add(shape.size());
            ships += 1;
        }
        let too_many = if self.reach == 0 {
            cells > rows.saturating_mul(cols)
        } else {
            need > (rows + 1).saturating_mul(cols + 1)
        };
        if too_many {
            return fail(format!(
                "{ships} ships of {cells} cells need more room than the board has, even packed perfectly"
            ));
        }
        Ok(())
    }

    /// Places `fleet` (any order; placed largest first), restarting when stuck.
    /// Pre: none. Post: `Ok(ships)` forms a valid board; `ships` is largest first.
    pub fn place_fleet(&mut self, fleet: &[usize], rng: &mut Rng) -> Result<Vec<Ship>, PlacementError> {
        let mut ships = Vec::with_capacity(fleet.len());
        self.place_fleet_into(fleet, rng, &mut ships)?;
        Ok(ships)
    }

    /// As [`Placer::place_fleet`], writing the ships into `ships` (its memory reused).
    /// Pre: none. Post: on `Ok`, `ships` holds what `place_fleet` returns with the same
    /// generator state; on `Err`, `ships` holds no valid fleet.
    pub fn place_fleet_into(
        &mut self,
        fleet: &[usize],
        rng: &mut Rng,
        ships: &mut Vec<Ship>,
    ) -> Result<(), PlacementError> {
        self.check_fleet(fleet)?;
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend(fleet.iter().map(|&s| Shape::straight(s, Orientation::East)));
        order.sort_by_key(|s| std::cmp::Reverse(s.size()));
        let result = self.place_in_order(&order, rng, ships);
        self.order = order;
        result
    }

    /// Places every ship of `fleet` in its placement order (kinds in order, largest
    /// first), each uniformly among the positions still valid, restarting when stuck.
    /// Pre: none. Post: on `Ok`, `ships` holds one ship per ship of the fleet, in
    /// placement order (the order [`crate::game::board::Board::refill_valid`] expects).
    pub fn place(&mut self, fleet: &Fleet, rng: &mut Rng, ships: &mut Vec<Ship>) -> Result<(), PlacementError> {
        self.check(fleet)?;
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend(fleet.ship_kinds().filter_map(|k| fleet.kinds().get(k)).map(|k| k.shape));
        let result = self.place_in_order(&order, rng, ships);
        self.order = order;
        result
    }

    /// Places ships of the shapes `order`, in that order, restarting when stuck, within
    /// a budget of work proportional to the board and the fleet.
    fn place_in_order(&mut self, order: &[Shape], rng: &mut Rng, ships: &mut Vec<Ship>) -> Result<(), PlacementError> {
        let mut turns = std::mem::take(&mut self.turns);
        let mut pieces = std::mem::take(&mut self.pieces);
        pieces.clear();
        for &shape in order {
            let k = match turns.iter().position(|(s, _)| *s == shape) {
                Some(k) => k,
                None => {
                    turns.push((shape, shape.variants(self.rotate)));
                    turns.len() - 1
                }
            };
            pieces.push(k);
        }
        let budget = WORK_PER_CELL.saturating_mul(self.rows * self.cols + WORK_PER_SHIP * order.len());
        let mut work = 0usize;
        let mut result = Err(PlacementError::Stuck { attempts: PLACEMENT_RESTARTS, touch: self.reach == 0 });
        for attempt in 0..PLACEMENT_RESTARTS {
            if let Err(e) = self.clear() {
                result = Err(e);
                break;
            }
            ships.clear();
            for &k in &pieces {
                // The budget holds within an attempt too: a crowded fleet can cost a
                // scan of the whole board per ship.
                if work > budget {
                    break;
                }
                let variants = turns.get(k).map_or(&[][..], |(_, v)| v.as_slice());
                match self.place_one(variants, rng, &mut work) {
                    Some(ship) => ships.push(ship),
                    None => break,
                }
            }
            if ships.len() == pieces.len() {
                result = Ok(());
                break;
            }
            if work > budget {
                result = Err(PlacementError::Stuck { attempts: attempt + 1, touch: self.reach == 0 });
                break;
            }
        }
        self.turns = turns;
        self.pieces = pieces;
        result
    }

    /// Places ships of random sizes until about `density` of the cells hold ships.
    /// Sizes cycle through the standard fleet's mix; each ship is drawn by rejection,
    /// and a size that finds no room in many draws gives way to the next smaller one.
    /// When draws find no more room, a sweep over the cells in random order places the
    /// largest ship that fits at each free cell.
    /// Pre: `0 <= density <= 1`. Post: ships form a valid board; `Err(Density)` if random
    /// placement jams more than 2% short of the target.
    pub fn fill_density(&mut self, density: f64, rng: &mut Rng) -> Result<Vec<Ship>, PlacementError> {
        self.clear()?;
        let cells = self.rows * self.cols;
        let (rows, cols) = (self.rows, self.cols);
        let short = move |e| PlacementError::OutOfMemory(Shortage::of(rows, cols, e));
        let target = (density * cells as f64).round() as usize;
        let mut ships = Vec::new();
        let mut placed = 0usize;
        let mut mix = STANDARD_FLEET.iter().cycle();
        let mut smallest_failed = MAX_SHIP + 1; // sizes >= this found no room
        while placed < target && smallest_failed > MIN_SHIP {
            let wanted = mix.next().copied().unwrap_or(1).min(target - placed);
            let mut size = wanted.min(smallest_failed - 1);
            loop {
                let mut work = 0;
                let line = Shape::straight(size, Orientation::East);
                if let Some(ship) = self.draw(&line.variants(true), rng, 4 * TRIES, &mut work) {
                    placed += size;
                    self.mark(&ship);
                    memory::push(&mut ships, ship).map_err(short)?;
                    break;
                }
                smallest_failed = smallest_failed.min(size);
                if size == MIN_SHIP {
                    break;
                }
                size -= 1;
            }
        }
        if placed < target {
            // Random draws found no more room: sweep the free cells in a random order
            // and put the largest ship that fits at each, until the target is met.
            let mut order: Vec<u32> = Vec::new();
            memory::reserve(&mut order, cells).map_err(short)?;
            order.extend(0..cells as u32);
            for k in (1..order.len()).rev() {
                order.swap(k, rng.below(k as u64 + 1) as usize);
            }
            for &i in &order {
                if placed >= target {
                    break;
                }
                let start = self.bay().position(i as usize);
                let east_first = rng.below(2) == 0;
                let fit = (MIN_SHIP..=MAX_SHIP.min(target - placed)).rev().find_map(|size| {
                    let e = Ship::new(start, size, Orientation::East);
                    let s = Ship::new(start, size, Orientation::South);
                    let (a, b) = if east_first { (e, s) } else { (s, e) };
                    [a, b].into_iter().find(|ship| ship.fits(self.rows, self.cols) && self.is_free(ship))
                });
                if let Some(ship) = fit {
                    placed += ship.size();
                    self.mark(&ship);
                    memory::push(&mut ships, ship).map_err(short)?;
                }
            }
        }
        if (placed as f64) < 0.98 * target as f64 {
            return Err(PlacementError::Density { wanted: density, reached: placed as f64 / cells.max(1) as f64 });
        }
        Ok(ships)
    }

    /// The bay the placer fills.
    fn bay(&self) -> Bay {
        Bay::new(self.rows, self.cols)
    }

    /// Forgets every placed ship (the first call sizes the forbidden cells, fallibly).
    fn clear(&mut self) -> Result<(), PlacementError> {
        let bay = self.bay();
        self.forbidden
            .try_reset(bay.cells())
            .map_err(|e| PlacementError::OutOfMemory(Shortage::of(bay.rows, bay.cols, e)))
    }

    /// Number of positions of `shape` inside the board.
    fn positions(&self, shape: Shape) -> usize {
        let (h, w) = (shape.rows(), shape.cols());
        if h > self.rows || w > self.cols {
            return 0;
        }
        (self.rows - h + 1) * (self.cols - w + 1)
    }

    /// The `k`-th position inside the board among every variant's (the first variant's
    /// positions first, each row-major by its box's corner); `None` beyond the last.
    fn candidate(&self, variants: &[Shape], mut k: usize) -> Option<Ship> {
        for &v in variants {
            let n = self.positions(v);
            if k < n {
                let width = self.cols - v.cols() + 1;
                return Some(Ship::drawn(Position::new(k / width, k % width), v));
            }
            k -= n;
        }
        None
    }

    /// True when no cell of `ship` is forbidden (a straight one a row segment at a time).
    fn is_free(&self, ship: &Ship) -> bool {
        let bay = self.bay();
        let start = bay.index(ship.start);
        match ship.shape.straight_line() {
            Some((size, Orientation::East)) => !self.forbidden.any_in(start, start + size),
            Some((size, Orientation::South)) => (0..size).all(|k| !self.forbidden.contains(start + k * bay.cols)),
            None => ship.cells().all(|c| !self.forbidden.contains(bay.index(c))),
        }
    }

    /// Draws up to `tries` positions of a ship of `variants`; returns the first valid
    /// one. Each draw costs one unit of `work`.
    fn draw(&self, variants: &[Shape], rng: &mut Rng, tries: usize, work: &mut usize) -> Option<Ship> {
        let total: usize = variants.iter().map(|&v| self.positions(v)).sum();
        if total == 0 {
            return None;
        }
        for _ in 0..tries {
            *work += 1;
            let ship = self.candidate(variants, rng.below(total as u64) as usize)?;
            if self.is_free(&ship) {
                return Some(ship);
            }
        }
        None
    }

    /// One ship of `variants`, uniform among the valid positions; marks it on the board.
    /// Listing the valid positions costs one unit of `work` per position looked at.
    fn place_one(&mut self, variants: &[Shape], rng: &mut Rng, work: &mut usize) -> Option<Ship> {
        let ship = match self.draw(variants, rng, TRIES, work) {
            Some(ship) => ship,
            None => {
                let total: usize = variants.iter().map(|&v| self.positions(v)).sum();
                *work = work.saturating_add(total);
                let mut valid = std::mem::take(&mut self.valid);
                valid.clear();
                valid.extend((0..total).filter_map(|k| self.candidate(variants, k)).filter(|s| self.is_free(s)));
                let pick = valid.get(rng.below(valid.len() as u64) as usize).copied();
                self.valid = valid;
                pick?
            }
        };
        self.mark(&ship);
        Some(ship)
    }

    /// Forbids what the ship forbids to the others: its cells, and when ships may not
    /// touch their neighbours too (for a straight ship, the rectangle one cell around).
    fn mark(&mut self, ship: &Ship) {
        let bay = self.bay();
        if ship.shape.straight_line().is_some() {
            let (first, last) = (ship.start, ship.end().unwrap_or(ship.start));
            for span in bay.box_spans(first, last, self.reach) {
                self.forbidden.insert_range(span.start, span.end);
            }
            return;
        }
        bay.forbid(&mut self.forbidden, ship.cells(), self.reach);
    }
}

/// A random valid board of `rows` x `cols` with a random fleet of up to a quarter of the
/// cells (tests and fuzzing).
/// Pre: none. Post: `Ok` for any allowed size (possibly without ships); `Err` only when
/// the size itself is refused.
pub fn random_board(rows: usize, cols: usize, rng: &mut Rng) -> Result<Board, crate::game::board::BoardError> {
    Board::check_size(rows, cols)?;
    let mut placer = Placer::new(rows, cols);
    let density = rng.unit() * 0.25;
    let ships = placer.fill_density(density, rng).unwrap_or_default();
    Board::new(rows, cols, ships)
}

/// Parses a fleet written as sizes separated by commas, like `5,4,3,3,2,2,1,1`.
/// Pre: none. Post: `Ok` sizes are each in 1..=5; `Err` names the bad item.
pub fn parse_fleet(text: &str) -> Result<Vec<usize>, String> {
    if text.trim().is_empty() {
        return Err("the fleet is empty; give sizes like 5,4,3,3,2,2,1,1".into());
    }
    text.split(',')
        .map(|item| {
            let item = item.trim();
            match item.parse::<usize>() {
                Ok(s) if (MIN_SHIP..=MAX_SHIP).contains(&s) => Ok(s),
                _ => Err(format!("fleet item `{item}` is not a ship size {MIN_SHIP}..={MAX_SHIP}")),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_fleet_places_validly_and_reproducibly() {
        let mut placer = Placer::new(10, 10);
        for seed in 0..500 {
            let ships = placer.place_fleet(&STANDARD_FLEET, &mut Rng::new(seed)).unwrap();
            let again = placer.place_fleet(&STANDARD_FLEET, &mut Rng::new(seed)).unwrap();
            assert_eq!(ships, again);
            let board = Board::new(10, 10, ships).unwrap();
            assert_eq!(board.fleet(), &STANDARD_FLEET);
        }
    }

    #[test]
    fn place_fleet_into_equals_place_fleet() {
        let (mut a, mut b) = (Placer::new(10, 10), Placer::new(10, 10));
        let mut ships = vec![Ship::new(Position::new(0, 0), 1, Orientation::East)];
        for seed in 0..50 {
            let fleet = [1, 3, 2, 5, 1];
            a.place_fleet_into(&fleet, &mut Rng::new(seed), &mut ships).unwrap();
            assert_eq!(ships, b.place_fleet(&fleet, &mut Rng::new(seed)).unwrap());
        }
        assert!(a.place_fleet_into(&[6], &mut Rng::new(0), &mut ships).is_err());
    }

    #[test]
    fn impossible_fleets_are_refused() {
        let p = Placer::new(3, 3);
        assert!(matches!(p.check_fleet(&[4]), Err(PlacementError::CannotFit { .. })));
        assert!(matches!(p.check_fleet(&[1, 1, 1, 1, 1]), Err(PlacementError::CannotFit { .. })));
        assert!(p.check_fleet(&[1, 1, 1, 1]).is_ok());
        let mut p = Placer::new(3, 3);
        // Four 1-cell ships fit only in the corners: the exhaustive fallback finds them.
        let ships = p.place_fleet(&[1, 1, 1, 1], &mut Rng::new(1)).unwrap();
        assert!(Board::new(3, 3, ships).is_ok());
        let mut p = Placer::new(2, 5);
        assert!(matches!(p.place_fleet(&[3, 3], &mut Rng::new(1)), Err(PlacementError::Stuck { .. })));
    }

    #[test]
    fn a_ship_larger_than_the_board_is_named_with_its_line() {
        let fleet = Fleet::parse_file("small\nX\n\n# wide\nwide\nXXX.X\n").unwrap();
        let why = |rows, cols, rotate| match Placer::with_rules(rows, cols, &Rules::problem_g().with_rotate(rotate))
            .check(&fleet)
        {
            Err(PlacementError::CannotFit { why, .. }) => why,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            why(4, 4, true),
            "ship `wide` (line 5 of the fleet file) is 1x5 (rows x columns), even turned: larger than the board"
        );
        assert_eq!(
            why(5, 4, false),
            "ship `wide` (line 5 of the fleet file) is 1x5 (rows x columns): larger than the board"
        );
        assert!(Placer::with_rules(5, 4, &Rules::problem_g()).check(&fleet).is_ok());
        let starwars = Rules::preset("starwars").unwrap();
        let Err(PlacementError::CannotFit { why, .. }) = Placer::with_rules(3, 30, &starwars).check(starwars.fleet())
        else {
            panic!("a 4x1 bar fits no 3-row bay")
        };
        assert_eq!(why, "ship `Petar Kresimir` is 4x1 (rows x columns): larger than the board");
    }

    #[test]
    fn placement_is_uniform_for_a_single_ship() {
        // A 2-cell ship on a 2x3 board has 4 + 3 = 7 placements.
        let mut p = Placer::new(2, 3);
        let mut counts = std::collections::HashMap::new();
        let mut rng = Rng::new(3);
        for _ in 0..70_000 {
            let ships = p.place_fleet(&[2], &mut rng).unwrap();
            *counts.entry(ships[0]).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 7);
        for c in counts.values() {
            assert!((9_300..10_700).contains(c), "{counts:?}");
        }
    }

    #[test]
    fn density_fill_reaches_its_target() {
        let mut p = Placer::new(100, 100);
        let ships = p.fill_density(0.25, &mut Rng::new(4)).unwrap();
        let cells: usize = ships.iter().map(Ship::size).sum();
        assert!(cells >= 2450, "{cells}");
        assert!(Board::new(100, 100, ships).is_ok());
        assert!(matches!(p.fill_density(0.45, &mut Rng::new(4)), Err(PlacementError::Density { .. })));
    }

    #[test]
    fn parses_fleets() {
        assert_eq!(parse_fleet("5,4,3").unwrap(), vec![5, 4, 3]);
        assert_eq!(parse_fleet(" 1 , 2 ").unwrap(), vec![1, 2]);
        assert!(parse_fleet("").is_err());
        assert!(parse_fleet("6").is_err());
        assert!(parse_fleet("2,,3").is_err());
        assert!(parse_fleet("x").is_err());
    }
}

//! Random fleets: ships placed at random within the rules.
//!
//! The model (also in the README): ships are placed largest first, each uniformly at
//! random among the placements that are valid given the ships already placed (inside
//! the board, not on or next to another ship). A size-1 ship has one placement per cell;
//! a longer ship one per cell and orientation that fits. A fleet that gets stuck (a ship
//! with no valid placement left) starts again from an empty board.
//!
//! A placement is drawn by rejection (uniform over all placements inside the board,
//! kept if valid), which is uniform over the valid ones; after `TRIES` rejections the
//! valid placements are listed and one is drawn from the list, so crowded boards stay
//! exact and a ship with no valid placement is detected.

use crate::board::Board;
use crate::cellset::CellSet;
use crate::position::Position;
use crate::rng::Rng;
use crate::ship::{Orientation, Ship, MAX_SHIP, MIN_SHIP};
use std::fmt;

/// The statement's benchmark fleet.
pub const STANDARD_FLEET: [usize; 8] = [5, 4, 3, 3, 2, 2, 1, 1];

/// Rejection draws before listing the valid placements.
const TRIES: usize = 48;

/// How many times a stuck fleet is started again before giving up.
pub const MAX_RESTARTS: usize = 1000;

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
    },
    /// The density asked for could not be reached.
    Density {
        /// Density asked for.
        wanted: f64,
        /// Density reached.
        reached: f64,
    },
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlacementError::CannotFit { rows, cols, why } => {
                write!(f, "the fleet cannot fit on a {rows}x{cols} board: {why}")
            }
            PlacementError::Stuck { attempts } => write!(
                f,
                "could not place the fleet without touching ships in {attempts} attempts; it is too crowded for this board"
            ),
            PlacementError::Density { wanted, reached } => write!(
                f,
                "could not reach a ship density of {wanted}: random placement jammed at {reached:.3}; ask for less"
            ),
        }
    }
}

impl std::error::Error for PlacementError {}

/// Places ships on one board size, reusing its memory from fleet to fleet.
#[derive(Debug, Clone)]
pub struct Placer {
    rows: usize,
    cols: usize,
    /// Cells holding a ship or next to one.
    forbidden: CellSet,
    /// Scratch list of valid placements for the exhaustive fallback.
    valid: Vec<Ship>,
    /// Scratch copy of the fleet, largest first.
    sizes: Vec<usize>,
}

impl Placer {
    /// A placer for `rows` x `cols` boards.
    /// Pre: `rows, cols >= 1`. Post: empty board.
    pub fn new(rows: usize, cols: usize) -> Placer {
        Placer { rows, cols, forbidden: CellSet::new(rows * cols), valid: Vec::new(), sizes: Vec::new() }
    }

    /// Checks a necessary condition for `fleet` to fit: each ship of size s with the row
    /// below it and the column after it covers 2(s+1) cells of a (rows+1) x (cols+1)
    /// grid, and those areas never overlap for ships that do not touch.
    /// Pre: none. Post: `Err(CannotFit)` when the fleet certainly cannot fit.
    pub fn check_fleet(&self, fleet: &[usize]) -> Result<(), PlacementError> {
        let (rows, cols) = (self.rows, self.cols);
        let fail = |why: String| Err(PlacementError::CannotFit { rows, cols, why });
        if let Some(&s) = fleet.iter().find(|&&s| !(MIN_SHIP..=MAX_SHIP).contains(&s)) {
            return fail(format!("ship size {s} is outside {MIN_SHIP}..={MAX_SHIP}"));
        }
        if let Some(&s) = fleet.iter().find(|&&s| s > rows.max(cols)) {
            return fail(format!("a ship of {s} cells is longer than the board"));
        }
        let need: usize = fleet.iter().map(|s| 2 * (s + 1)).sum();
        let room = (rows + 1) * (cols + 1);
        if need > room {
            return fail(format!(
                "{} ships of {} cells need more room than the board has, even packed perfectly",
                fleet.len(),
                fleet.iter().sum::<usize>()
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
        let mut sizes = std::mem::take(&mut self.sizes);
        sizes.clear();
        sizes.extend_from_slice(fleet);
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        let mut result = Err(PlacementError::Stuck { attempts: MAX_RESTARTS });
        for _ in 0..MAX_RESTARTS {
            self.clear();
            ships.clear();
            for &size in &sizes {
                match self.place_one(size, rng) {
                    Some(ship) => ships.push(ship),
                    None => break,
                }
            }
            if ships.len() == sizes.len() {
                result = Ok(());
                break;
            }
        }
        self.sizes = sizes;
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
        self.clear();
        let cells = self.rows * self.cols;
        let target = (density * cells as f64).round() as usize;
        let mut ships = Vec::new();
        let mut placed = 0usize;
        let mut mix = STANDARD_FLEET.iter().cycle();
        let mut smallest_failed = MAX_SHIP + 1; // sizes >= this found no room
        while placed < target && smallest_failed > MIN_SHIP {
            let wanted = mix.next().copied().unwrap_or(1).min(target - placed);
            let mut size = wanted.min(smallest_failed - 1);
            loop {
                if let Some(ship) = self.draw(size, rng, 4 * TRIES) {
                    placed += size;
                    self.mark(&ship);
                    ships.push(ship);
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
            let mut order: Vec<u32> = (0..cells as u32).collect();
            for k in (1..order.len()).rev() {
                order.swap(k, rng.below(k as u64 + 1) as usize);
            }
            for &i in &order {
                if placed >= target {
                    break;
                }
                let start = Position::from_index(i as usize, self.cols);
                let east_first = rng.below(2) == 0;
                let fit = (MIN_SHIP..=MAX_SHIP.min(target - placed)).rev().find_map(|size| {
                    let e = Ship::new(start, size, Orientation::East);
                    let s = Ship::new(start, size, Orientation::South);
                    let (a, b) = if east_first { (e, s) } else { (s, e) };
                    [a, b].into_iter().find(|ship| ship.fits(self.rows, self.cols) && self.is_free(ship))
                });
                if let Some(ship) = fit {
                    placed += ship.size;
                    self.mark(&ship);
                    ships.push(ship);
                }
            }
        }
        if (placed as f64) < 0.98 * target as f64 {
            return Err(PlacementError::Density { wanted: density, reached: placed as f64 / cells.max(1) as f64 });
        }
        Ok(ships)
    }

    fn clear(&mut self) {
        self.forbidden.reset(self.rows * self.cols);
    }

    /// Number of placements of a `size` ship inside the board, by orientation.
    fn candidates(&self, size: usize) -> (usize, usize) {
        let (r, c) = (self.rows, self.cols);
        if size == 1 {
            return (r * c, 0);
        }
        let east = if c >= size { r * (c - size + 1) } else { 0 };
        let south = if r >= size { (r - size + 1) * c } else { 0 };
        (east, south)
    }

    /// The `k`-th placement inside the board (the `east` east ones first, then south ones).
    fn candidate(&self, size: usize, east: usize, k: usize) -> Ship {
        if k < east {
            let width = if size == 1 { self.cols } else { self.cols - size + 1 };
            Ship::new(Position::new(k / width, k % width), size, Orientation::East)
        } else {
            let k = k - east;
            Ship::new(Position::new(k / self.cols, k % self.cols), size, Orientation::South)
        }
    }

    /// True when no cell of `ship` is forbidden (checked a row segment at a time).
    fn is_free(&self, ship: &Ship) -> bool {
        let start = ship.start.index(self.cols);
        match ship.orientation {
            Orientation::East => !self.forbidden.any_in(start, start + ship.size),
            Orientation::South => (0..ship.size).all(|k| !self.forbidden.contains(start + k * self.cols)),
        }
    }

    /// Draws up to `tries` placements inside the board; returns the first valid one.
    fn draw(&self, size: usize, rng: &mut Rng, tries: usize) -> Option<Ship> {
        let (east, south) = self.candidates(size);
        let total = east + south;
        if total == 0 {
            return None;
        }
        (0..tries).map(|_| self.candidate(size, east, rng.below(total as u64) as usize)).find(|s| self.is_free(s))
    }

    /// One ship of `size`, uniform among the valid placements; marks it on the board.
    fn place_one(&mut self, size: usize, rng: &mut Rng) -> Option<Ship> {
        let ship = match self.draw(size, rng, TRIES) {
            Some(ship) => ship,
            None => {
                let (east, south) = self.candidates(size);
                let mut valid = std::mem::take(&mut self.valid);
                valid.clear();
                valid.extend((0..east + south).map(|k| self.candidate(size, east, k)).filter(|s| self.is_free(s)));
                let pick = valid.get(rng.below(valid.len() as u64) as usize).copied();
                self.valid = valid;
                pick?
            }
        };
        self.mark(&ship);
        Some(ship)
    }

    /// Forbids the ship's cells and their neighbours: the rectangle one cell around it.
    fn mark(&mut self, ship: &Ship) {
        let (first, last) = (ship.start, ship.end().unwrap_or(ship.start));
        let cols = self.cols;
        let (c0, c1) = (first.col.saturating_sub(1), (last.col + 1).min(cols - 1));
        for r in first.row.saturating_sub(1)..=(last.row + 1).min(self.rows - 1) {
            self.forbidden.insert_range(r * cols + c0, r * cols + c1 + 1);
        }
    }
}

/// A random valid board of `rows` x `cols` with a random fleet of up to a quarter of the
/// cells (tests and fuzzing).
/// Pre: none. Post: `Ok` for any allowed size (possibly without ships); `Err` only when
/// the size itself is refused.
pub fn random_board(rows: usize, cols: usize, rng: &mut Rng) -> Result<Board, crate::board::BoardError> {
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
        let cells: usize = ships.iter().map(|s| s.size).sum();
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

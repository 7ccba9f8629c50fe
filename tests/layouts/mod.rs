//! Layouts and their probability under the generator, written straight from the rules
//! (plain vectors, no shortcuts) for the measurements in `floor.rs` and `optimum.rs`.
//!
//! Under the generator (largest first, each ship uniform among the placements valid
//! given those before it, a fleet that gets stuck starts again) a layout has probability
//! `Σ_orders Π 1/n_k / Z`: the sum runs over the orders of equal ships, `n_k` is the
//! number of valid placements for the `k`-th ship, `Z` the probability of not getting
//! stuck.

#![allow(dead_code)] // each test crate uses its own part

use spot_the_ships::game::position::{Orientation, Position};
use spot_the_ships::game::ship::Ship;

/// Every placement of a `size` ship on the board that avoids `blocked` cells.
pub fn valid(rows: usize, cols: usize, size: usize, blocked: &[bool]) -> Vec<Ship> {
    let orientations: &[Orientation] =
        if size == 1 { &[Orientation::East] } else { &[Orientation::East, Orientation::South] };
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            for &o in orientations {
                let ship = Ship::new(Position::new(r, c), size, o);
                if ship.fits(rows, cols) && ship.cells().all(|p| !blocked[p.index(cols)]) {
                    out.push(ship);
                }
            }
        }
    }
    out
}

/// Marks `ship` and its 8 neighbours as blocked.
pub fn block(rows: usize, cols: usize, ship: &Ship, blocked: &mut [bool]) {
    for p in ship.cells() {
        for dr in -1i64..=1 {
            for dc in -1i64..=1 {
                let (r, c) = (p.row as i64 + dr, p.col as i64 + dc);
                if r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols {
                    blocked[r as usize * cols + c as usize] = true;
                }
            }
        }
    }
}

/// Marks what `ship` forbids to the ships placed after it: its cells and, unless ships
/// may touch, their 8 neighbours.
pub fn forbid(rows: usize, cols: usize, ship: &Ship, touch: bool, blocked: &mut [bool]) {
    if touch {
        ship.cells().for_each(|p| blocked[p.index(cols)] = true);
    } else {
        block(rows, cols, ship, blocked);
    }
}

/// `Σ_orders Π 1/n_k` for `ships` (any order), placed largest first.
pub fn path_sum(rows: usize, cols: usize, ships: &[Ship], used: &mut [bool], blocked: &[bool]) -> f64 {
    path_sum_under(rows, cols, false, ships, used, blocked)
}

/// [`path_sum`] when ships may touch (`touch`) or not.
fn path_sum_under(rows: usize, cols: usize, touch: bool, ships: &[Ship], used: &mut [bool], blocked: &[bool]) -> f64 {
    let next = ships.iter().zip(used.iter()).filter(|(_, &u)| !u).map(|(s, _)| s.size()).max();
    let Some(size) = next else { return 1.0 };
    let n = valid(rows, cols, size, blocked).len() as f64;
    let mut total = 0.0;
    for k in 0..ships.len() {
        if used[k] || ships[k].size() != size {
            continue;
        }
        let mut child = blocked.to_vec();
        forbid(rows, cols, &ships[k], touch, &mut child);
        used[k] = true;
        total += path_sum_under(rows, cols, touch, ships, used, &child) / n;
        used[k] = false;
    }
    total
}

/// The layout as a sorted list of ship cells.
pub fn key(ships: &[Ship], cols: usize) -> Vec<usize> {
    let mut cells: Vec<usize> = ships.iter().flat_map(|s| s.cells().map(move |p| p.index(cols))).collect();
    cells.sort_unstable();
    cells
}

/// One layout: its ships, and its probability under the generator.
pub struct Layout {
    /// The ships, largest first.
    pub ships: Vec<Ship>,
    /// The probability that the generator draws this layout.
    pub prob: f64,
}

/// Every layout of `fleet` on a `rows x cols` board, each once (equal ships are not
/// told apart), with its exact probability under the generator (`Z` is the sum of the
/// unnormalised weights, as every layout is listed).
pub fn all(rows: usize, cols: usize, fleet: &[usize]) -> Vec<Layout> {
    all_under(rows, cols, fleet, false)
}

/// [`all`] when ships may touch (`touch`: they only never overlap) or not.
pub fn all_under(rows: usize, cols: usize, fleet: &[usize], touch: bool) -> Vec<Layout> {
    let mut sizes = fleet.to_vec();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let mut out = Vec::new();
    let mut ships = Vec::new();
    extend(rows, cols, touch, &sizes, &mut ships, &vec![false; rows * cols], &mut out);
    let z: f64 = out.iter().map(|l| l.prob).sum();
    for layout in &mut out {
        layout.prob /= z;
    }
    out
}

/// Places `sizes[ships.len()..]` in every way after `ships`; equal ships in increasing
/// placement order, so each layout comes once.
fn extend(
    rows: usize,
    cols: usize,
    touch: bool,
    sizes: &[usize],
    ships: &mut Vec<Ship>,
    blocked: &[bool],
    out: &mut Vec<Layout>,
) {
    let Some(&size) = sizes.get(ships.len()) else {
        let prob = path_sum_under(rows, cols, touch, ships, &mut vec![false; ships.len()], &vec![false; rows * cols]);
        out.push(Layout { ships: ships.clone(), prob });
        return;
    };
    let options = valid(rows, cols, size, blocked);
    // The previous ship of the same size, if any: later equal ships come after it.
    let after = ships.last().filter(|s| s.size() == size).map(|s| order(s, cols));
    for ship in options {
        if after.is_some_and(|a| order(&ship, cols) <= a) {
            continue;
        }
        let mut child = blocked.to_vec();
        forbid(rows, cols, &ship, touch, &mut child);
        ships.push(ship);
        extend(rows, cols, touch, sizes, ships, &child, out);
        ships.pop();
    }
}

/// A total order of the placements of one size: start cell, then East before South.
fn order(ship: &Ship, cols: usize) -> usize {
    ship.start.index(cols) * 2 + usize::from(ship.orientation() == Some(Orientation::South))
}

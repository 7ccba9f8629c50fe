//! One layout of a fleet that agrees with an advise grid, found by a depth-first search
//! with a bound on its work: what `advise` runs before it may say that no layout fits
//! (sampling can miss layouts that exist when the fleet nearly fills the bay).
//!
//! The search first covers the hits, the first uncovered one in row-major order at a
//! time, with every placement of every ship kind left that covers it; then it places
//! the remaining ships, largest first, the ships of one kind at increasing anchors (they
//! are interchangeable). A placement covers only unknown cells and uncovered hits, never
//! a wreck (`#`) nor a placed ship, and when ships may not touch, no cell next to
//! either. A branch is cut when the ship cells left outnumber the cells still free.

use crate::game::cellset::CellSet;
use crate::game::position::Position;
use crate::game::rules::Rules;
use crate::game::shape::Shape;
use crate::scan::record::{CellState, ScanRecord};

/// What the search concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    /// A layout agrees with the grid.
    Layout,
    /// The search was exhaustive: no layout agrees with the grid.
    None,
    /// The work bound was reached first: nothing is known.
    GaveUp,
}

/// The search's state.
struct Search<'a> {
    rows: usize,
    cols: usize,
    /// What is known of each cell.
    known: &'a ScanRecord,
    wrecks: &'a CellSet,
    /// Ships may not touch (8 neighbours).
    apart: bool,
    /// The shapes of each kind (its turns), largest kind first.
    shapes: Vec<Vec<Shape>>,
    /// Ships of each kind still to place.
    left: Vec<usize>,
    /// The size of each kind.
    sizes: Vec<usize>,
    /// Cells covered by a placed ship.
    taken: Vec<bool>,
    /// How many placed ships (or wrecks) forbid each cell to a new ship.
    blocked: Vec<u32>,
    /// Placements tried so far, and the most allowed.
    work: u64,
    budget: u64,
}

impl Search<'_> {
    fn hit(&self, i: usize) -> bool {
        self.known.state_at(i) == CellState::Hit && !self.wrecks.contains(i)
    }

    /// The cells of `shape` anchored at `at`, when it fits the bay.
    fn cells_of(&self, shape: Shape, at: Position) -> Option<Vec<usize>> {
        if at.row + shape.rows() > self.rows || at.col + shape.cols() > self.cols {
            return None;
        }
        Some(shape.cells().map(|(dr, dc)| (at.row + dr) * self.cols + at.col + dc).collect())
    }

    fn fits(&self, cells: &[usize]) -> bool {
        cells.iter().all(|&i| {
            let open = self.known.state_at(i) == CellState::Unknown || self.hit(i);
            open && !self.taken.get(i).copied().unwrap_or(true) && self.blocked.get(i).copied().unwrap_or(1) == 0
        })
    }

    /// The cells a ship (or wreck) on `cells` forbids to the others.
    fn around(&self, cells: &[usize]) -> Vec<usize> {
        let mut out = Vec::new();
        for &i in cells {
            let (r, c) = (i / self.cols, i % self.cols);
            let reach = usize::from(self.apart);
            for rr in r.saturating_sub(reach)..=(r + reach).min(self.rows - 1) {
                for cc in c.saturating_sub(reach)..=(c + reach).min(self.cols - 1) {
                    out.push(rr * self.cols + cc);
                }
            }
        }
        out
    }

    fn place(&mut self, cells: &[usize], on: bool) {
        for &i in cells {
            if let Some(t) = self.taken.get_mut(i) {
                *t = on;
            }
        }
        for i in self.around(cells) {
            if let Some(b) = self.blocked.get_mut(i) {
                *b = if on { *b + 1 } else { b.saturating_sub(1) };
            }
        }
    }

    /// Tries `shape` of kind `k` at `at`; `Some(found)` when the branch settles it.
    fn try_at(&mut self, k: usize, shape: Shape, at: Position, then: &mut dyn FnMut(&mut Self) -> Found) -> Found {
        self.work += 1;
        if self.work > self.budget {
            return Found::GaveUp;
        }
        let Some(cells) = self.cells_of(shape, at) else { return Found::None };
        if !self.fits(&cells) {
            return Found::None;
        }
        self.place(&cells, true);
        if let Some(n) = self.left.get_mut(k) {
            *n -= 1;
        }
        let found = then(self);
        if let Some(n) = self.left.get_mut(k) {
            *n += 1;
        }
        self.place(&cells, false);
        found
    }

    /// Covers the hits, then places the rest (`from[k]`: the least anchor for kind k).
    fn solve(&mut self, from: &mut Vec<usize>) -> Found {
        let n = self.rows * self.cols;
        if let Some(h) = (0..n).find(|&i| self.hit(i) && !self.taken.get(i).copied().unwrap_or(true)) {
            let (hr, hc) = (h / self.cols, h % self.cols);
            let mut gave_up = false;
            for k in 0..self.shapes.len() {
                if self.left.get(k).copied().unwrap_or(0) == 0 {
                    continue;
                }
                for shape in self.shapes.get(k).cloned().unwrap_or_default() {
                    for (dr, dc) in shape.cells() {
                        let (Some(r), Some(c)) = (hr.checked_sub(dr), hc.checked_sub(dc)) else { continue };
                        match self.try_at(k, shape, Position::new(r, c), &mut |s| s.solve(from)) {
                            Found::Layout => return Found::Layout,
                            Found::GaveUp => gave_up = true,
                            Found::None => {}
                        }
                        if self.work > self.budget {
                            return Found::GaveUp;
                        }
                    }
                }
            }
            return if gave_up { Found::GaveUp } else { Found::None };
        }
        let Some(k) = (0..self.shapes.len()).find(|&k| self.left.get(k).copied().unwrap_or(0) > 0) else {
            return Found::Layout;
        };
        // Cut: more ship cells to place than cells free.
        let need: usize = self.left.iter().zip(&self.sizes).map(|(&l, &s)| l * s).sum();
        let free = (0..n)
            .filter(|&i| {
                self.known.state_at(i) == CellState::Unknown
                    && !self.taken.get(i).copied().unwrap_or(true)
                    && self.blocked.get(i).copied().unwrap_or(1) == 0
            })
            .count();
        if need > free {
            return Found::None;
        }
        let start = from.get(k).copied().unwrap_or(0);
        let mut gave_up = false;
        for a in start..n {
            let at = Position::new(a / self.cols, a % self.cols);
            for shape in self.shapes.get(k).cloned().unwrap_or_default() {
                let saved = from.get(k).copied().unwrap_or(0);
                if let Some(f) = from.get_mut(k) {
                    *f = a;
                }
                let found = self.try_at(k, shape, at, &mut |s| s.solve(from));
                if let Some(f) = from.get_mut(k) {
                    *f = saved;
                }
                match found {
                    Found::Layout => return Found::Layout,
                    Found::GaveUp => gave_up = true,
                    Found::None => {}
                }
                if self.work > self.budget {
                    return Found::GaveUp;
                }
            }
        }
        if gave_up {
            Found::GaveUp
        } else {
            Found::None
        }
    }
}

/// Searches for one layout of the fleet of `rules` that agrees with what is known
/// (`#` cells, the `wrecks`, eliminated in it: [`crate::scan::state::read`]), trying at
/// most `budget` placements.
/// Pre: none. Post: `Layout` only when one exists, `None` only when none does.
pub(crate) fn some_layout(known: &ScanRecord, wrecks: &CellSet, rules: &Rules, budget: u64) -> Found {
    let (rows, cols) = (known.rows(), known.cols());
    let n = rows.saturating_mul(cols);
    let mut kinds: Vec<(usize, Vec<Shape>, usize)> =
        rules.fleet().kinds().iter().map(|k| (k.shape.size(), rules.variants(k.shape), k.count)).collect();
    kinds.sort_by_key(|k| std::cmp::Reverse(k.0));
    let mut s = Search {
        rows,
        cols,
        known,
        wrecks,
        apart: !rules.touch(),
        sizes: kinds.iter().map(|k| k.0).collect(),
        shapes: kinds.iter().map(|k| k.1.clone()).collect(),
        left: kinds.iter().map(|k| k.2).collect(),
        taken: vec![false; n],
        blocked: vec![0; n],
        work: 0,
        budget,
    };
    if rows == 0 || cols == 0 {
        return if s.left.iter().all(|&l| l == 0) { Found::Layout } else { Found::None };
    }
    // Wrecks are ships already sunk: the others keep their distance from them.
    let wrecked: Vec<usize> = (0..n).filter(|&i| wrecks.contains(i)).collect();
    for i in s.around(&wrecked) {
        if let Some(b) = s.blocked.get_mut(i) {
            *b += 1;
        }
    }
    let mut from = vec![0; s.shapes.len()];
    s.solve(&mut from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::fleet::Fleet;

    fn grid(text: &str) -> (ScanRecord, CellSet) {
        crate::scan::state::parse(text.as_bytes()).unwrap()
    }

    fn some_layout(grid: &(ScanRecord, CellSet), rules: &Rules, budget: u64) -> Found {
        super::some_layout(&grid.0, &grid.1, rules, budget)
    }

    fn ones(n: usize) -> Rules {
        Rules::problem_g().with_fleet(Fleet::of_sizes(&vec![1; n]))
    }

    #[test]
    fn packed_fleets_are_found_and_impossible_ones_proved() {
        let empty = |k: usize| grid(&format!("{}\n", ".".repeat(k)).repeat(k));
        // 49 one-cell ships that never touch: 13x13 holds exactly one layout, 14x14 many.
        assert_eq!(some_layout(&empty(13), &ones(49), 100_000), Found::Layout);
        assert_eq!(some_layout(&empty(14), &ones(49), 100_000), Found::Layout);
        assert_eq!(some_layout(&empty(64), &ones(1000), 100_000), Found::Layout);
        // 5x5 holds 9 of them at most.
        assert_eq!(some_layout(&empty(5), &ones(9), 100_000), Found::Layout);
        assert_eq!(some_layout(&empty(5), &ones(10), 100_000), Found::None);
        // A hit must be covered: a lone hit in a corner, and the fleet's only ship of 2.
        let rules = Rules::problem_g().with_fleet(Fleet::of_sizes(&[2]));
        assert_eq!(some_layout(&grid("+X\nX.\n"), &rules, 1000), Found::None);
        assert_eq!(some_layout(&grid("+.\nX.\n"), &rules, 1000), Found::Layout);
        // Too little work allowed: nothing is known.
        assert_eq!(some_layout(&empty(14), &ones(50), 10), Found::GaveUp);
    }
}

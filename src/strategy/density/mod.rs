//! density: DataGenetics' probability density strategy, under any rules and shapes.
//!
//! Every kind of ship still afloat is slid over every position of the bay (each of its
//! shapes: both directions of a straight ship, the turns of a drawn one when the rules
//! allow them). A position fits when none of its cells is known water or a cell of a
//! sunk ship (and, when ships may not touch, none is next to a sunk ship), and it has
//! an unknown cell. Each fitting position adds its weight to each of its unknown cells:
//! 1, times [`HIT_WEIGHT`] for each hit not yet given to a sunk ship that it covers, so
//! cells next to hits win, as in the published strategy's target mode. The unknown
//! cell of the highest total is probed (ties: the first in row-major order; for
//! density-random, one drawn uniformly at random among them at every probe, as the
//! remote-service solver of the seed does). Sunk
//! answers take the sunk ship off the list ([`Afloat`]); a kind counts once however
//! many ships of it are afloat. When ships may touch, a sunk answer can be given to the
//! wrong hits; if then no position fits anywhere, the unknown cells next to hits are
//! probed first (row-major), as the ship taken for sunk lies there.
//!
//! The totals are kept up to date instead of recomputed: a probe changes only the
//! positions through its cell (and a sunk answer those through the ship's cells and,
//! when a kind sinks, that kind's), and a max-tree over the cells finds the best one
//! in O(log n); with random ties each node also counts the leaves under it that hold
//! its maximum, so a uniform draw among the tied cells is O(log n) too. `weigh_all`
//! is the plain recomputation the tests compare it with.
//!
//! Bays of at most 128 cells are played by the fast path of `small.rs` (every
//! position a 128-bit mask), which makes the same probes; this general path plays the
//! others, and the tests play both on the same boards.

mod small;
/// The features a lookahead's leaf estimate weighs ([`crate::strategy::lookahead::Leaf`]).
pub(crate) use small::FEATURES as LEAF_FEATURES;
pub(crate) use small::TREE_CANDIDATES;

use super::ScanStrategy;
use crate::game::bay::Bay;
use crate::game::fleet::Fleet;
use crate::game::position::Position;
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::shape::Shape;
use crate::limits::memory::{self, OutOfMemory};
use crate::limits::DENSITY_CELLS;
use crate::scan::observer::Source;
use crate::scan::record::CellState;
use crate::scan::sonar::Answer;
use crate::scan::{Scan, ScanError};
use crate::strategy::afloat::Afloat;
use small::Small;
use std::collections::HashSet;

/// How much more a position counts for each unresolved hit it covers.
pub const HIT_WEIGHT: u64 = 100;

/// A position: the kind, the shape (an index into that kind's shapes) and the anchor
/// (the top-left corner of the shape's box).
type Spot = (usize, usize, Position);

/// The density scanner.
#[derive(Debug, Clone, Default)]
pub struct Density {
    bay: Bay,
    /// The shapes of each kind of the fleet, under the rules.
    shapes: Vec<Vec<Shape>>,
    /// What `shapes` were made from: each kind's shape as drawn, and whether ships may
    /// turn (a rollout of lookahead's starts a game of the same fleet thousands of times
    /// a probe).
    shaped_from: (Vec<Shape>, bool),
    /// A max-tree over the cells: leaf `leaves + i` holds cell `i`'s total plus one
    /// while it is unknown, 0 once known; each inner node the max of its children.
    tree: Vec<u64>,
    leaves: usize,
    /// `Some(seed)` for density-random: ties broken at random, the draws fixed by the
    /// seed; `None`: ties go to the first cell in row-major order.
    random_ties: Option<u64>,
    /// With random ties, the draws of the game being played.
    rng: Option<Rng>,
    /// With random ties: for each node of the tree, how many leaves under it hold its
    /// value (empty otherwise).
    ties: Vec<u32>,
    /// The fast path's table of positions, kept from game to game.
    small: Small,
    /// True: the general path plays every bay (the tests' reference).
    plain: bool,
}

impl Density {
    /// density-random: the same totals, ties between the cells of the highest total
    /// broken uniformly at random, afresh at every probe.
    /// Pre: none. Post: two scanners with the same seed play the same games.
    pub fn with_random_ties(seed: u64) -> Density {
        Density { random_ties: Some(seed), ..Density::default() }
    }

    /// The weight of position `spot` given the scan and the ships afloat.
    fn weight(&self, scan: &Scan<'_>, afloat: &Afloat, rules: &Rules, spot: Spot) -> u64 {
        let (k, s, at) = spot;
        let Some(&shape) = self.shapes.get(k).and_then(|v| v.get(s)) else { return 0 };
        let bay = self.bay;
        if afloat.left(k) == 0 || at.row + shape.rows() > bay.rows || at.col + shape.cols() > bay.cols {
            return 0;
        }
        let mut weight = 1u64;
        let mut open = false;
        for (dr, dc) in shape.cells() {
            let p = Position::new(at.row + dr, at.col + dc);
            match scan.state(p) {
                CellState::Unknown => open = true,
                CellState::Hit if !afloat.is_sunk(p) => weight = weight.saturating_mul(HIT_WEIGHT),
                _ => return 0,
            }
            if !rules.touch() && bay.neighbours8(p).any(|q| afloat.is_sunk(q)) {
                return 0;
            }
        }
        if open {
            weight
        } else {
            0
        }
    }

    /// Every position (of any kind and shape) that covers `cell`.
    fn covering(&self, cell: Position, out: &mut Vec<Spot>) {
        for (k, shapes) in self.shapes.iter().enumerate() {
            for (s, shape) in shapes.iter().enumerate() {
                for (dr, dc) in shape.cells() {
                    if let (Some(r), Some(c)) = (cell.row.checked_sub(dr), cell.col.checked_sub(dc)) {
                        out.push((k, s, Position::new(r, c)));
                    }
                }
            }
        }
    }

    /// The unknown cells of `spot`.
    fn open_cells(&self, scan: &Scan<'_>, spot: Spot) -> Vec<usize> {
        let (k, s, at) = spot;
        let shape = self.shapes.get(k).and_then(|v| v.get(s)).copied();
        shape
            .into_iter()
            .flat_map(|sh| sh.cells())
            .filter_map(|(dr, dc)| {
                let p = Position::new(at.row + dr, at.col + dc);
                (scan.state(p) == CellState::Unknown).then(|| self.bay.index(p))
            })
            .collect()
    }

    /// Adds `delta` to cell `i`'s total, and fixes the tree above it.
    fn add(&mut self, i: usize, delta: i128) {
        let node = self.leaves + i;
        if let Some(v) = self.tree.get_mut(node) {
            *v = (i128::from(*v) + delta).clamp(0, i128::from(u64::MAX)) as u64;
        }
        self.fix_up(node);
    }

    /// Sets cell `i`'s leaf to `value`, and fixes the tree above it.
    fn set(&mut self, i: usize, value: u64) {
        let node = self.leaves + i;
        if let Some(v) = self.tree.get_mut(node) {
            *v = value;
        }
        self.fix_up(node);
    }

    fn fix_up(&mut self, mut node: usize) {
        while node > 1 {
            node /= 2;
            self.pull(node);
        }
    }

    /// Sets inner node `node` from its children: their maximum, and with random ties
    /// how many leaves under it hold that maximum.
    fn pull(&mut self, node: usize) {
        let (l, r) = (self.tree.get(2 * node).copied().unwrap_or(0), self.tree.get(2 * node + 1).copied().unwrap_or(0));
        let m = l.max(r);
        if let Some(v) = self.tree.get_mut(node) {
            *v = m;
        }
        if !self.ties.is_empty() {
            let count = |c: usize, value: u64| if value == m { self.ties.get(c).copied().unwrap_or(0) } else { 0 };
            let n = count(2 * node, l) + count(2 * node + 1, r);
            if let Some(t) = self.ties.get_mut(node) {
                *t = n;
            }
        }
    }

    /// The totals of every unknown cell, computed from scratch (the reference the
    /// incremental ones are tested against).
    fn weigh_all(&self, scan: &Scan<'_>, afloat: &Afloat, rules: &Rules) -> Result<Vec<u64>, OutOfMemory> {
        let mut totals = memory::filled(self.bay.cells(), 0u64)?;
        for (k, shapes) in self.shapes.iter().enumerate() {
            for (s, shape) in shapes.iter().enumerate() {
                for r in 0..=self.bay.rows.saturating_sub(shape.rows()) {
                    for c in 0..=self.bay.cols.saturating_sub(shape.cols()) {
                        let spot = (k, s, Position::new(r, c));
                        let w = self.weight(scan, afloat, rules, spot);
                        if w > 0 {
                            for i in self.open_cells(scan, spot) {
                                if let Some(t) = totals.get_mut(i) {
                                    *t = t.saturating_add(w);
                                }
                            }
                        }
                    }
                }
            }
        }
        Ok(totals)
    }

    /// Builds the tree from scratch.
    fn rebuild(&mut self, scan: &Scan<'_>, afloat: &Afloat, rules: &Rules) -> Result<(), OutOfMemory> {
        let cells = self.bay.cells();
        self.leaves = cells.next_power_of_two().max(1);
        self.tree.clear();
        memory::resize(&mut self.tree, 2 * self.leaves, 0)?;
        self.ties.clear();
        if self.random_ties.is_some() {
            // Every leaf holds its own value once.
            memory::resize(&mut self.ties, 2 * self.leaves, 1)?;
        }
        let totals = self.weigh_all(scan, afloat, rules)?;
        for (i, &t) in totals.iter().enumerate() {
            if scan.state(self.bay.position(i)) == CellState::Unknown {
                if let Some(v) = self.tree.get_mut(self.leaves + i) {
                    *v = t.saturating_add(1);
                }
            }
        }
        for node in (1..self.leaves).rev() {
            self.pull(node);
        }
        Ok(())
    }

    /// The unknown cell of the highest total: the first in row-major order among
    /// equals, or with random ties one of them drawn uniformly.
    fn best(&mut self) -> Option<Position> {
        let top = self.tree.get(1).copied().unwrap_or(0);
        if top == 0 {
            return None;
        }
        // With random ties: the rank of the chosen leaf among the tied ones.
        let mut pick = match self.rng.as_mut() {
            Some(rng) if !self.ties.is_empty() => Some(rng.below(u64::from(self.ties.get(1).copied().unwrap_or(1)))),
            _ => None,
        };
        let mut node = 1;
        while node < self.leaves {
            let (l, r) = (2 * node, 2 * node + 1);
            let left_holds_top = self.tree.get(l).copied().unwrap_or(0) == top;
            node = match pick.as_mut() {
                None => {
                    if left_holds_top {
                        l
                    } else {
                        r
                    }
                }
                Some(k) => {
                    let on_left = if left_holds_top { u64::from(self.ties.get(l).copied().unwrap_or(0)) } else { 0 };
                    if *k < on_left {
                        l
                    } else {
                        *k -= on_left;
                        r
                    }
                }
            };
        }
        Some(self.bay.position(node - self.leaves))
    }

    /// Sets the scanner up for `scan`'s bay: its size and the shapes of each kind.
    /// Returns the rules, the fleet (without one, as under `play --cells`, every straight
    /// size from 1 to 5, one each) and the ships the record leaves afloat.
    fn prepare(&mut self, scan: &Scan<'_>) -> Result<(Rules, Fleet, Afloat), ScanError> {
        let rules = scan.rules().clone();
        let fleet = scan.fleet().cloned().unwrap_or_else(|| Fleet::of_sizes(&[5, 4, 3, 2, 1]));
        let afloat = Afloat::from_record(scan.record(), &rules, Some(&fleet)).map_err(|e| scan.out_of_memory(e))?;
        self.bay = scan.bay();
        let (drawn, rotate) = &self.shaped_from;
        if !drawn.iter().copied().eq(fleet.kinds().iter().map(|k| k.shape)) || *rotate != rules.rotate() {
            self.shapes = fleet.kinds().iter().map(|k| rules.variants(k.shape)).collect();
            self.shaped_from = (fleet.kinds().iter().map(|k| k.shape).collect(), rules.rotate());
        }
        Ok((rules, fleet, afloat))
    }

    /// Density's games played out from `scan`'s state on layouts (lookahead's
    /// rollouts, [`small::Rollouts`]): `None` when the fast path cannot play this bay
    /// and fleet (the caller plays each rollout through a scan).
    /// Pre: none. Post: `Err` when memory runs out.
    pub(crate) fn rollouts(&mut self, scan: &Scan<'_>) -> Result<Option<small::Rollouts<'_>>, ScanError> {
        let bay = scan.bay();
        if self.random_ties.is_some() || bay.cells() > small::MAX_CELLS {
            return Ok(None);
        }
        let (rules, fleet, afloat) = self.prepare(scan)?;
        if !self.small.prepare(bay, &self.shapes).map_err(|e| scan.out_of_memory(e))? {
            return Ok(None);
        }
        small::Rollouts::new(&mut self.small, scan, rules, fleet, afloat).map(Some).map_err(|e| scan.out_of_memory(e))
    }

    /// The `k` unknown cells of the highest totals, highest first and in row-major order
    /// among equals: the first is the cell density probes next (when no position fits
    /// anywhere, that cell alone). Used by lookahead to pick its candidates.
    /// Pre: the scan's bay has at most [`DENSITY_CELLS`] cells. Post: at most `k` cells,
    /// all unknown; empty only when none is unknown.
    pub fn ranked(&mut self, scan: &Scan<'_>, k: usize) -> Result<Vec<Position>, ScanError> {
        let bay = scan.bay();
        let (rules, _, afloat) = self.prepare(scan)?;
        let totals = self.weigh_all(scan, &afloat, &rules).map_err(|e| scan.out_of_memory(e))?;
        let mut open: Vec<(u64, usize)> = totals
            .iter()
            .enumerate()
            .filter(|&(i, _)| scan.state(bay.position(i)) == CellState::Unknown)
            .map(|(i, &t)| (t, i))
            .collect();
        open.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        if open.first().is_some_and(|&(t, _)| t == 0) {
            let first = open.first().map(|&(_, i)| bay.position(i));
            return Ok(next_to_a_hit(scan).or(first).into_iter().collect());
        }
        Ok(open.iter().take(k).map(|&(_, i)| bay.position(i)).collect())
    }
}

impl ScanStrategy for Density {
    fn name(&self) -> &'static str {
        if self.random_ties.is_some() {
            "density-random"
        } else {
            "density"
        }
    }

    fn reseed(&mut self, seed: u64) {
        if self.random_ties.is_some() {
            self.random_ties = Some(seed);
        }
    }

    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        let bay = scan.bay();
        if bay.cells() > DENSITY_CELLS {
            return Err(super::too_large(self.name(), bay.rows, bay.cols, scan.rules()));
        }
        self.rng = self.random_ties.map(Rng::new);
        let (rules, fleet, mut afloat) = self.prepare(scan)?;
        // The fast path makes the same probes but keeps no per-cell totals to show: a
        // scan whose observer shows weights takes the general path.
        if !self.plain && !scan.wants_weights() && bay.cells() <= small::MAX_CELLS {
            let fits = self.small.prepare(bay, &self.shapes).map_err(|e| scan.out_of_memory(e))?;
            if fits {
                let mut game =
                    small::Game { small: &mut self.small, afloat, fleet: &fleet, rules: &rules, rng: &mut self.rng };
                return game.play(scan);
            }
        }
        self.rebuild(scan, &afloat, &rules).map_err(|e| scan.out_of_memory(e))?;
        let mut spots: Vec<Spot> = Vec::new();
        let mut before: Vec<u64> = Vec::new();
        while !scan.is_done() {
            let Some(mut pos) = self.best() else { return Err(scan.exhausted()) };
            if self.tree.get(1) == Some(&1) {
                // No position fits anywhere, yet ships are afloat: a sunk answer was given
                // to the wrong hits (ships that touch can leave it ambiguous), and hits
                // still hide the ship taken for sunk. Its cells lie next to hits.
                if let Some(p) = next_to_a_hit(scan) {
                    pos = p;
                }
            }
            spots.clear();
            self.covering(pos, &mut spots);
            before.clear();
            before.extend(spots.iter().map(|&s| self.weight(scan, &afloat, &rules, s)));
            let (leaves, tree) = (self.leaves, &self.tree);
            scan.show_weights("positions", || {
                // A leaf holds a cell's total plus one while it is unknown, 0 once known.
                (0..bay.cells()).map(|i| tree.get(leaves + i).map_or(0.0, |&v| v.saturating_sub(1) as f64)).collect()
            });
            let answer = scan.probe(pos, Source::Density)?;
            self.set(bay.index(pos), 0);
            if let Answer::Sunk(kind) = answer {
                let mut next = afloat.clone();
                let record = scan.record();
                if let Some((k, ship)) =
                    next.sink(pos, kind, &rules, Some(&fleet), |p| record.state(p) == CellState::Hit)
                {
                    // Positions through the ship (and its neighbours, when ships may not
                    // touch), and every position of its kind if none of it is afloat now.
                    let mut more: HashSet<Spot> = HashSet::new();
                    let mut found = Vec::new();
                    bay.for_each_forbidden(ship.cells(), rules.reach(), |c| self.covering(bay.position(c), &mut found));
                    if next.left(k) == 0 {
                        for (s, shape) in self.shapes.get(k).cloned().unwrap_or_default().iter().enumerate() {
                            for r in 0..=bay.rows.saturating_sub(shape.rows()) {
                                for c in 0..=bay.cols.saturating_sub(shape.cols()) {
                                    found.push((k, s, Position::new(r, c)));
                                }
                            }
                        }
                    }
                    let known: HashSet<Spot> = spots.iter().copied().collect();
                    more.extend(found.into_iter().filter(|s| !known.contains(s)));
                    for s in more {
                        before.push(self.weight(scan, &afloat, &rules, s));
                        spots.push(s);
                    }
                    afloat = next;
                }
            }
            for (&spot, &w0) in spots.iter().zip(&before) {
                let w1 = self.weight(scan, &afloat, &rules, spot);
                if w1 != w0 {
                    let delta = i128::from(w1) - i128::from(w0);
                    let open = self.open_cells(scan, spot);
                    for i in open {
                        self.add(i, delta);
                    }
                }
            }
            scan.end_step();
        }
        Ok(())
    }
}

/// The first unknown cell, in row-major order, with a hit beside it (up, down, left or
/// right).
pub(super) fn next_to_a_hit(scan: &Scan<'_>) -> Option<Position> {
    let bay = scan.bay();
    bay.positions()
        .find(|&p| scan.state(p) == CellState::Unknown && bay.neighbours4(p).any(|q| scan.state(q) == CellState::Hit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::Board;
    use crate::game::placement::random_board;
    use crate::game::rng::Rng;
    use crate::scan::referee::Referee;
    use crate::strategy::solve;
    use crate::strategy::testing::{assert_finished, game_boards};

    #[test]
    fn finds_every_ship_under_every_preset() {
        for name in ["problem-g", "classic", "russian", "starwars"] {
            let rules = Rules::preset(name).unwrap();
            let (rows, cols) = if name == "starwars" { (12, 10) } else { (10, 10) };
            for board in game_boards(&rules, rows, cols, 8, 30) {
                assert_finished(&board, &solve(&mut Density::default(), &mut Referee::new(&board)).unwrap());
            }
        }
        let mut rng = Rng::new(6);
        for _ in 0..100 {
            let board = random_board(1 + rng.below(9) as usize, 1 + rng.below(9) as usize, &mut rng).unwrap();
            assert_finished(&board, &solve(&mut Density::default(), &mut Referee::new(&board)).unwrap());
        }
    }

    #[test]
    fn kept_totals_equal_a_recomputation() {
        for name in ["problem-g", "classic", "russian", "starwars"] {
            let rules = Rules::preset(name).unwrap();
            let (rows, cols) = if name == "starwars" { (12, 10) } else { (10, 10) };
            for (g, board) in game_boards(&rules, rows, cols, 9, 8).into_iter().enumerate() {
                // Play by hand, comparing the tree's leaves with weigh_all at each step.
                let mut sonar = Referee::new(&board);
                let mut silent = crate::scan::observer::Silent;
                let mut scan = Scan::new(&mut sonar, &mut silent);
                let fleet = board.rules().fleet().clone();
                let mut d = Density::default();
                let mut afloat = Afloat::new(rows, cols, Some(&fleet)).unwrap();
                d.bay = Bay::new(rows, cols);
                d.shapes = fleet.kinds().iter().map(|k| rules.variants(k.shape)).collect();
                d.rebuild(&scan, &afloat, &rules).unwrap();
                while !scan.is_done() {
                    let want = d.weigh_all(&scan, &afloat, &rules).unwrap();
                    for (i, &w) in want.iter().enumerate() {
                        let p = Position::from_index(i, cols);
                        let leaf = d.tree[d.leaves + i];
                        let expect = if scan.state(p) == CellState::Unknown { w + 1 } else { 0 };
                        assert_eq!(leaf, expect, "{name} game {g} cell {p}");
                    }
                    // One step of the real loop.
                    let pos = d.best().unwrap();
                    let mut spots = Vec::new();
                    d.covering(pos, &mut spots);
                    let before: Vec<u64> = spots.iter().map(|&s| d.weight(&scan, &afloat, &rules, s)).collect();
                    let answer = scan.probe(pos, Source::Density).unwrap();
                    d.set(pos.index(cols), 0);
                    if let Answer::Sunk(kind) = answer {
                        // The sunk path is checked by the next test; here the tree is rebuilt.
                        let record = scan.record();
                        afloat.sink(pos, kind, &rules, Some(&fleet), |p| record.state(p) == CellState::Hit);
                        d.rebuild(&scan, &afloat, &rules).unwrap();
                        continue;
                    }
                    for (&spot, &w0) in spots.iter().zip(&before) {
                        let w1 = d.weight(&scan, &afloat, &rules, spot);
                        let open = d.open_cells(&scan, spot);
                        for i in open {
                            d.add(i, i128::from(w1) - i128::from(w0));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn sunk_updates_equal_a_recomputation() {
        // The whole strategy (incremental sunk updates included) against a copy that
        // rebuilds after every probe: the same probes, game after game.
        for name in ["classic", "russian"] {
            let rules = Rules::preset(name).unwrap();
            for (g, board) in game_boards(&rules, 10, 10, 10, 20).into_iter().enumerate() {
                let fast = solve(&mut Density::default(), &mut Referee::new(&board)).unwrap();
                // Plain: best cell of weigh_all each step.
                let mut sonar = Referee::new(&board);
                let mut silent = crate::scan::observer::Silent;
                let mut scan = Scan::new(&mut sonar, &mut silent);
                let fleet = board.rules().fleet().clone();
                let mut d = Density { bay: Bay::new(10, 10), ..Density::default() };
                d.shapes = fleet.kinds().iter().map(|k| rules.variants(k.shape)).collect();
                let mut afloat = Afloat::new(10, 10, Some(&fleet)).unwrap();
                while !scan.is_done() {
                    d.rebuild(&scan, &afloat, &rules).unwrap();
                    let pos = d.best().unwrap();
                    if let Answer::Sunk(kind) = scan.probe(pos, Source::Density).unwrap() {
                        let record = scan.record();
                        afloat.sink(pos, kind, &rules, Some(&fleet), |p| record.state(p) == CellState::Hit);
                    }
                }
                assert_eq!(scan.into_record().render_output(None), fast.render_output(None), "{name} game {g}");
            }
        }
    }

    #[test]
    fn random_ties_are_uniform_among_the_best_cells_and_counted_right() {
        // A 3x3 bay with one 1-cell ship: every cell has total 1, so the first probe is
        // any of the 9, each about as often; density always takes (0,0).
        let board = Board::new(
            3,
            3,
            vec![crate::game::ship::Ship::new(Position::new(2, 2), 1, crate::game::position::Orientation::East)],
        )
        .unwrap();
        let first = |d: &mut Density| crate::strategy::testing::probes_of(d, &board)[0].0;
        let mut firsts = [0u32; 9];
        for seed in 0..9000 {
            firsts[first(&mut Density::with_random_ties(seed)).index(3)] += 1;
        }
        assert!(firsts.iter().all(|&n| (850..1150).contains(&n)), "{firsts:?}");
        assert_eq!(first(&mut Density::default()), Position::new(0, 0));
        // The counts kept in the tree equal a count of the leaves, game after game.
        let rules = Rules::preset("starwars").unwrap();
        for (g, board) in (0..).zip(game_boards(&rules, 12, 10, 11, 10)) {
            let mut sonar = Referee::new(&board);
            let mut silent = crate::scan::observer::Silent;
            let mut scan = Scan::new(&mut sonar, &mut silent);
            let fleet = board.rules().fleet().clone();
            let mut d = Density::with_random_ties(g);
            d.rng = Some(Rng::new(g));
            d.bay = Bay::new(12, 10);
            d.shapes = fleet.kinds().iter().map(|k| rules.variants(k.shape)).collect();
            let afloat = Afloat::new(12, 10, Some(&fleet)).unwrap();
            d.rebuild(&scan, &afloat, &rules).unwrap();
            while !scan.is_done() {
                for node in 1..d.leaves {
                    let (mut lo, mut hi) = (node, node + 1);
                    while lo < d.leaves {
                        (lo, hi) = (2 * lo, 2 * hi);
                    }
                    let n = (lo..hi).filter(|&leaf| d.tree[leaf] == d.tree[node]).count();
                    assert_eq!(d.ties[node] as usize, n, "game {g} node {node}");
                }
                let pos = d.best().unwrap();
                assert_eq!(d.tree[d.leaves + pos.index(10)], d.tree[1], "a best cell");
                let mut spots = Vec::new();
                d.covering(pos, &mut spots);
                let before: Vec<u64> = spots.iter().map(|&s| d.weight(&scan, &afloat, &rules, s)).collect();
                scan.probe(pos, Source::Density).unwrap();
                d.set(pos.index(10), 0);
                for (&spot, &w0) in spots.iter().zip(&before) {
                    let w1 = d.weight(&scan, &afloat, &rules, spot);
                    for i in d.open_cells(&scan, spot) {
                        d.add(i, i128::from(w1) - i128::from(w0));
                    }
                }
            }
        }
    }

    #[test]
    fn the_first_probe_is_the_densest_cell() {
        // A 1x5 bay with one 3-cell ship: the middle cell is in all three positions.
        let board = Board::new(
            1,
            5,
            vec![crate::game::ship::Ship::new(Position::new(0, 0), 3, crate::game::position::Orientation::East)],
        )
        .unwrap();
        let mut sonar = Referee::new(&board);
        let mut silent = crate::scan::observer::Silent;
        let mut scan = Scan::new(&mut sonar, &mut silent);
        let mut d = Density {
            bay: Bay::new(1, 5),
            shapes: vec![vec![Shape::straight(3, crate::game::position::Orientation::East)]],
            ..Density::default()
        };
        let afloat = Afloat::new(1, 5, scan.fleet()).unwrap();
        assert_eq!(d.weigh_all(&scan, &afloat, &Rules::problem_g()).unwrap(), vec![1, 2, 3, 2, 1]);
        d.rebuild(&scan, &afloat, &Rules::problem_g()).unwrap();
        assert_eq!(d.best(), Some(Position::new(0, 2)));
        scan.probe(Position::new(0, 1), Source::Density).unwrap();
        // (0,1) is a hit: the positions through it weigh HIT_WEIGHT each.
        let w = d.weigh_all(&scan, &afloat, &Rules::problem_g()).unwrap();
        assert_eq!(w, vec![HIT_WEIGHT, 0, 2 * HIT_WEIGHT + 1, HIT_WEIGHT + 1, 1]);
    }

    /// The cells a scan probed, in order, and each answer.
    struct Probes(Vec<(Position, Answer)>);
    impl crate::scan::observer::ScanObserver for Probes {
        fn probed(&mut self, pos: Position, _: Source, answer: Answer) {
            self.0.push((pos, answer));
        }
    }

    /// Plays `d` on `board` after the probes of `opening` (a strategy taking over
    /// mid-game, as bayes hands drawn fleets over), watched: every probe and answer.
    fn watched(d: &mut Density, board: &Board, opening: &[Position]) -> Vec<(Position, Answer)> {
        let mut sonar = Referee::new(board);
        let mut probes = Probes(Vec::new());
        let mut scan = Scan::new(&mut sonar, &mut probes);
        for &p in opening {
            if !scan.is_done() && scan.state(p) == CellState::Unknown {
                scan.probe(p, Source::Density).unwrap();
            }
        }
        d.run(&mut scan).unwrap();
        assert_finished(board, &scan.into_record());
        probes.0
    }

    #[test]
    fn the_fast_path_makes_the_general_paths_probes() {
        // Every preset and a few variants, on bays of up to 128 cells of several shapes:
        // the fast path (watched, and on simulate's quiet lane) against the general path,
        // probe by probe, with first-cell and random ties, from the start and mid-game.
        let mut rulesets: Vec<Rules> =
            ["problem-g", "classic", "russian", "starwars"].iter().map(|n| Rules::preset(n).unwrap()).collect();
        let classic = Rules::preset("classic").unwrap();
        rulesets.push(classic.clone().with_sunk(crate::game::rules::Sunk::None));
        rulesets.push(classic.clone().with_touch(false));
        rulesets.push(Rules::preset("starwars").unwrap().with_rotate(true).with_sunk(crate::game::rules::Sunk::Yes));
        let bays = [(10, 10), (12, 10), (11, 11), (8, 16), (16, 8), (7, 9), (1, 128), (128, 1), (3, 40)];
        let mut rng = Rng::new(12);
        let mut games = 0;
        for rules in &rulesets {
            for &(rows, cols) in &bays {
                if crate::game::placement::Placer::with_rules(rows, cols, rules).check(rules.fleet()).is_err() {
                    continue;
                }
                for (g, board) in (0..).zip(game_boards(rules, rows, cols, 13, 12)) {
                    let opening: Vec<Position> = if g % 3 == 2 {
                        (0..rng.below(30))
                            .map(|_| Position::from_index(rng.below(100) as usize % (rows * cols), cols))
                            .collect()
                    } else {
                        Vec::new()
                    };
                    for random in [false, true] {
                        let make = || if random { Density::with_random_ties(g) } else { Density::default() };
                        let mut fast = make();
                        let mut plain = Density { plain: true, ..make() };
                        let want = watched(&mut plain, &board, &opening);
                        assert_eq!(
                            watched(&mut fast, &board, &opening),
                            want,
                            "{} {rows}x{cols} game {g}",
                            rules.preset_name()
                        );
                        assert!(fast.small.ready, "the fast path played {rows}x{cols}");
                        if opening.is_empty() {
                            let quiet = solve(&mut make(), &mut Referee::new(&board)).unwrap();
                            let reference =
                                solve(&mut Density { plain: true, ..make() }, &mut Referee::new(&board)).unwrap();
                            assert_eq!(quiet.render_output(None), reference.render_output(None));
                        }
                        games += 1;
                    }
                }
            }
        }
        assert!(games > 1000, "{games} games");
        // Small random bays and fleets (Problem G's rules).
        for g in 0..300 {
            let board = random_board(1 + rng.below(11) as usize, 1 + rng.below(11) as usize, &mut rng).unwrap();
            let want = watched(&mut Density { plain: true, ..Density::default() }, &board, &[]);
            assert_eq!(watched(&mut Density::default(), &board, &[]), want, "random board {g}");
        }
    }

    #[test]
    fn the_ranking_starts_with_the_cell_density_probes() {
        // At every step of density's games, its ranking's first cell is the probe it
        // made, every ranked cell is unknown, and the totals fall along the ranking.
        for name in ["problem-g", "classic", "russian", "starwars"] {
            let rules = Rules::preset(name).unwrap();
            let (rows, cols) = if name == "starwars" { (12, 10) } else { (10, 10) };
            for board in game_boards(&rules, rows, cols, 21, 10) {
                let probes = watched(&mut Density::default(), &board, &[]);
                let mut sonar = Referee::new(&board);
                let mut silent = crate::scan::observer::Silent;
                let mut scan = Scan::new(&mut sonar, &mut silent);
                let mut ranker = Density::default();
                for &(p, _) in &probes {
                    let ranked = ranker.ranked(&scan, 4).unwrap();
                    assert_eq!(ranked.first(), Some(&p), "{name}");
                    assert!(ranked.iter().all(|&q| scan.state(q) == CellState::Unknown));
                    let afloat = Afloat::from_record(scan.record(), &rules, scan.fleet()).unwrap();
                    let totals = ranker.weigh_all(&scan, &afloat, &rules).unwrap();
                    let t: Vec<u64> = ranked.iter().map(|q| totals[q.index(cols)]).collect();
                    assert!(t.windows(2).all(|w| w[0] >= w[1]), "{name}: {t:?}");
                    scan.probe(p, Source::Density).unwrap();
                }
            }
        }
    }

    #[test]
    fn density_resumed_on_a_copy_of_a_record_plays_as_it_would_have() {
        // A scan resumed from a mid-game record (Scan::resume) on the same board: density
        // finishes it with the probes it makes in the whole game.
        let rules = Rules::preset("classic").unwrap();
        for board in game_boards(&rules, 10, 10, 22, 10) {
            let whole = watched(&mut Density::default(), &board, &[]);
            let mut sonar = Referee::new(&board);
            let mut silent = crate::scan::observer::Silent;
            let mut scan = Scan::new(&mut sonar, &mut silent);
            let half = whole.len() / 2;
            for &(p, _) in &whole[..half] {
                scan.probe(p, Source::Density).unwrap();
            }
            let mut again = Referee::new(&board);
            let mut probes = Probes(Vec::new());
            let mut resumed = Scan::resume(&mut again, &mut probes, scan.record().clone());
            assert_eq!(resumed.record().scans(), half);
            Density::default().run(&mut resumed).unwrap();
            assert_eq!(resumed.record().scans(), whole.len());
            assert_finished(&board, resumed.record());
            drop(resumed);
            assert_eq!(probes.0, whole[half..]);
        }
    }

    #[test]
    fn the_fast_path_leaves_totals_that_could_saturate_to_the_general_path() {
        // A 10-cell ship: 100^10 overflows a u64, so the general path (whose totals
        // saturate) plays; the classic fleet fits.
        let long = Fleet::parse_file("long\nXXXXXXXXXX\n").unwrap();
        let shape = long.kinds()[0].shape;
        let rules = Rules::problem_g().with_fleet(long);
        let board =
            Board::with_rules(1, 100, vec![crate::game::ship::Ship::drawn(Position::new(0, 37), shape)], &rules)
                .unwrap();
        let mut d = Density::default();
        assert_finished(&board, &solve(&mut d, &mut Referee::new(&board)).unwrap());
        assert!(!d.small.ready);
        let rules = Rules::preset("classic").unwrap();
        let board = game_boards(&rules, 10, 10, 1, 1).remove(0);
        assert_finished(&board, &solve(&mut d, &mut Referee::new(&board)).unwrap());
        assert!(d.small.ready);
    }

    #[test]
    fn a_sunk_answer_given_to_the_wrong_hits_does_not_leave_a_blind_sweep() {
        // Classic boards (ships touch) on which a sunk ship was once inferred on the wrong
        // hits, after which no position fit and the scan swept the bay: density-random
        // took 100 scans on the first, density 97 on the second.
        let rules = crate::game::rules::Rules::preset("classic").unwrap();
        let mut placer = crate::game::placement::Placer::with_rules(10, 10, &rules);
        for (game, mut strategy) in [(93242, Density::with_random_ties(93242)), (179225, Density::default())] {
            let mut ships = Vec::new();
            placer.place(rules.fleet(), &mut Rng::for_stream(7, game), &mut ships).unwrap();
            let board = Board::with_rules(10, 10, ships, &rules).unwrap();
            let record = solve(&mut strategy, &mut Referee::new(&board)).unwrap();
            assert_finished(&board, &record);
            assert!(record.scans() <= 70, "game {game}: {} scans", record.scans());
        }
    }
}

//! density: DataGenetics' probability density strategy, under any rules and shapes.
//!
//! Before each probe, every ship still afloat is slid over every position of the bay
//! (each of its shapes: both directions of a straight ship, the turns of a drawn one
//! when the rules allow them). A position fits when none of its cells is known water
//! or a cell of a sunk ship (and, when ships may not touch, none is next to a sunk
//! ship). Each fitting position adds its weight to each of its unknown cells: 1, times
//! [`HIT_WEIGHT`] for each hit not yet given to a sunk ship that it covers, so cells
//! next to hits win, as in the published strategy's target mode. The unknown cell of
//! the highest total is probed (ties: the first in row-major order). Sunk answers take
//! the sunk ship off the list ([`Afloat`]).

use super::ScanStrategy;
use crate::afloat::Afloat;
use crate::observer::Source;
use crate::position::Position;
use crate::record::CellState;
use crate::rules::Rules;
use crate::scan::{Scan, ScanError};
use crate::shape::Shape;
use crate::sonar::Answer;

/// How much more a position counts for each unresolved hit it covers.
pub const HIT_WEIGHT: u64 = 100;

/// The density scanner.
#[derive(Debug, Clone, Default)]
pub struct Density {
    /// The weight of each cell, recomputed before each probe.
    weights: Vec<u64>,
    /// The shapes of each kind of the fleet, under the rules.
    shapes: Vec<Vec<Shape>>,
}

impl Density {
    /// Adds every fitting position's weight to the unknown cells it covers.
    fn weigh(&mut self, scan: &Scan<'_>, afloat: &Afloat, rules: &Rules) {
        let (rows, cols) = (scan.rows(), scan.cols());
        self.weights.clear();
        self.weights.resize(rows * cols, 0);
        let near_sunk = |p: Position| {
            !rules.touch() && p.orthogonals(rows, cols).chain(p.diagonals(rows, cols)).any(|q| afloat.is_sunk(q))
        };
        for (k, shapes) in self.shapes.iter().enumerate() {
            let left = afloat.left(k) as u64;
            if left == 0 {
                continue;
            }
            for &shape in shapes {
                if shape.rows() > rows || shape.cols() > cols {
                    continue;
                }
                for r in 0..=rows - shape.rows() {
                    for c in 0..=cols - shape.cols() {
                        let mut weight = left;
                        let mut open = false;
                        let mut fits = true;
                        for (dr, dc) in shape.cells() {
                            let p = Position::new(r + dr, c + dc);
                            match scan.state(p) {
                                CellState::Unknown => open = true,
                                CellState::Hit if !afloat.is_sunk(p) => weight = weight.saturating_mul(HIT_WEIGHT),
                                _ => fits = false,
                            }
                            if !fits || near_sunk(p) {
                                fits = false;
                                break;
                            }
                        }
                        if !fits || !open {
                            continue;
                        }
                        for (dr, dc) in shape.cells() {
                            let p = Position::new(r + dr, c + dc);
                            if scan.state(p) == CellState::Unknown {
                                if let Some(w) = self.weights.get_mut(p.index(cols)) {
                                    *w = w.saturating_add(weight);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The unknown cell of the highest weight (first in row-major order among equals).
    fn best(&self, scan: &Scan<'_>) -> Option<Position> {
        let cols = scan.cols();
        let mut best: Option<(u64, usize)> = None;
        for (i, &w) in self.weights.iter().enumerate() {
            if scan.state(Position::from_index(i, cols)) == CellState::Unknown && best.is_none_or(|(b, _)| w > b) {
                best = Some((w, i));
            }
        }
        best.map(|(_, i)| Position::from_index(i, cols))
    }
}

impl ScanStrategy for Density {
    fn name(&self) -> &'static str {
        "density"
    }

    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        let rules = scan.rules().clone();
        let fleet = scan.fleet().cloned();
        let mut afloat = Afloat::from_record(scan.record(), &rules, fleet.as_ref());
        // Without a fleet (play --cells): every straight size from 1 to 5, one each.
        let fleet = fleet.unwrap_or_else(|| crate::fleet::Fleet::of_sizes(&[5, 4, 3, 2, 1]));
        if scan.fleet().is_none() {
            afloat = Afloat::new(scan.rows(), scan.cols(), Some(&fleet));
        }
        self.shapes = fleet.kinds().iter().map(|k| rules.variants(k.shape)).collect();
        while !scan.is_done() {
            self.weigh(scan, &afloat, &rules);
            let Some(pos) = self.best(scan) else { return Err(scan.exhausted()) };
            let answer = scan.probe(pos, Source::Density)?;
            if let Answer::Sunk(kind) = answer {
                let record = scan.record();
                afloat.sink(pos, kind, &rules, Some(&fleet), |p| record.state(p) == CellState::Hit);
            }
            scan.end_step();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::placement::{random_board, Placer};
    use crate::rng::Rng;
    use crate::strategy::{solve, testing::assert_finished};

    #[test]
    fn finds_every_ship_under_every_preset() {
        for name in ["problem-g", "classic", "russian", "starwars"] {
            let rules = Rules::preset(name).unwrap();
            let (rows, cols) = if name == "starwars" { (12, 10) } else { (10, 10) };
            let mut placer = Placer::with_rules(rows, cols, &rules);
            for g in 0..30 {
                let mut ships = Vec::new();
                placer.place(rules.fleet(), &mut Rng::for_stream(8, g), &mut ships).unwrap();
                let board = Board::with_rules(rows, cols, ships, &rules).unwrap();
                assert_finished(&board, &solve(&mut Density::default(), &mut board.clone()).unwrap());
            }
        }
        let mut rng = Rng::new(6);
        for _ in 0..100 {
            let board = random_board(1 + rng.below(9) as usize, 1 + rng.below(9) as usize, &mut rng).unwrap();
            assert_finished(&board, &solve(&mut Density::default(), &mut board.clone()).unwrap());
        }
    }

    #[test]
    fn the_first_probe_is_the_densest_cell() {
        // A 1x5 bay with one 3-cell ship: the middle cell is in all three positions.
        let board =
            Board::new(1, 5, vec![crate::ship::Ship::new(Position::new(0, 0), 3, crate::ship::Orientation::East)])
                .unwrap();
        let mut sonar = board.clone();
        let mut silent = crate::observer::Silent;
        let mut scan = Scan::new(&mut sonar, &mut silent);
        let mut d =
            Density { shapes: vec![vec![Shape::straight(3, crate::ship::Orientation::East)]], ..Density::default() };
        let afloat = Afloat::new(1, 5, scan.fleet());
        d.weigh(&scan, &afloat, &Rules::problem_g());
        assert_eq!(d.weights, vec![1, 2, 3, 2, 1]);
        assert_eq!(d.best(&scan), Some(Position::new(0, 2)));
        scan.probe(Position::new(0, 1), Source::Density).unwrap();
        d.weigh(&scan, &afloat, &Rules::problem_g());
        // (0,1) is a hit: the positions through it weigh HIT_WEIGHT each.
        assert_eq!(d.weights, vec![HIT_WEIGHT, 0, 2 * HIT_WEIGHT + 1, HIT_WEIGHT + 1, 1]);
    }
}

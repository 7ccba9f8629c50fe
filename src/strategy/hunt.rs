//! hunt and hunt-parity: DataGenetics' hunt/target strategy, under any rules.
//!
//! *Hunt*: probe a cell drawn at random (seeded) among the unknown ones; hunt-parity
//! draws only among the cells of the checkerboard of the smallest ship afloat, the
//! lattice `(r + c) % s == 0` that every straight ship of `s` cells or more must cross
//! (when the lattice runs dry, any unknown cell). *Target*: after a hit, its unknown
//! N, E, S and W neighbours go on a stack; while the stack holds an unknown cell, the
//! last one pushed is probed (its own neighbours pushed on a hit), then hunting
//! resumes. Sunk answers tell hunt-parity which ships are afloat ([`Afloat`]); plain
//! hunt ignores them, as the published strategy does.

use super::ScanStrategy;
use crate::game::position::Position;
use crate::game::rng::Rng;
use crate::limits::memory;
use crate::scan::observer::Source;
use crate::scan::record::CellState;
use crate::scan::sonar::Answer;
use crate::scan::{Scan, ScanError};
use crate::strategy::afloat::Afloat;

/// The hunt/target scanner.
#[derive(Debug, Clone)]
pub struct Hunt {
    seed: u64,
    /// Hunt only on the smallest afloat ship's checkerboard.
    parity: bool,
    /// Cells not drawn yet (row-major indices), drawn uniformly at random.
    pool: Vec<u32>,
    /// Cells drawn off the lattice, kept for when the lattice changes or runs dry.
    deferred: Vec<u32>,
    /// Cells to target, the last pushed first.
    stack: Vec<u32>,
}

impl Hunt {
    /// Plain hunt/target, its random draws fixed by `seed`.
    /// Pre: none. Post: two scanners with the same seed play the same games.
    pub fn new(seed: u64) -> Hunt {
        Hunt { seed, parity: false, pool: Vec::new(), deferred: Vec::new(), stack: Vec::new() }
    }

    /// Hunt/target hunting on the checkerboard of the smallest ship afloat.
    /// Pre: none. Post: as [`Hunt::new`].
    pub fn with_parity(seed: u64) -> Hunt {
        Hunt { parity: true, ..Hunt::new(seed) }
    }

    /// The next cell to hunt: uniform among the unknown cells on the lattice of
    /// spacing `spacing` (`None` spacing: any unknown cell).
    fn hunt(&mut self, scan: &Scan<'_>, rng: &mut Rng, spacing: &mut Option<usize>) -> Option<Position> {
        let bay = scan.bay();
        loop {
            if self.pool.is_empty() {
                if self.deferred.is_empty() {
                    return None;
                }
                // The lattice ran dry: hunt anywhere from now on.
                std::mem::swap(&mut self.pool, &mut self.deferred);
                *spacing = None;
            }
            let j = rng.below(self.pool.len() as u64) as usize;
            let i = self.pool.swap_remove(j) as usize;
            let pos = bay.position(i);
            if scan.state(pos) != CellState::Unknown {
                continue;
            }
            match *spacing {
                // Deferred cells come out of the pool, whose memory was had: room for
                // all of them is asked once, fallibly, by `run`.
                Some(s) if !(pos.row + pos.col).is_multiple_of(s) => self.deferred.push(i as u32),
                _ => return Some(pos),
            }
        }
    }
}

impl ScanStrategy for Hunt {
    fn name(&self) -> &'static str {
        if self.parity {
            "hunt-parity"
        } else {
            "hunt"
        }
    }

    fn reseed(&mut self, seed: u64) {
        self.seed = seed;
    }

    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        let bay = scan.bay();
        let mut rng = Rng::new(self.seed);
        self.pool.clear();
        memory::reserve(&mut self.pool, bay.cells()).map_err(|e| scan.out_of_memory(e))?;
        self.pool.extend(0..bay.cells() as u32);
        self.deferred.clear();
        if self.parity {
            memory::reserve(&mut self.deferred, bay.cells()).map_err(|e| scan.out_of_memory(e))?;
        }
        self.stack.clear();
        let rules = scan.rules().clone();
        let fleet = scan.fleet().cloned();
        let mut afloat =
            Afloat::from_record(scan.record(), &rules, fleet.as_ref()).map_err(|e| scan.out_of_memory(e))?;
        let smallest = |a: &Afloat| a.sizes().min().filter(|&s| s > 1);
        let mut spacing = if self.parity { smallest(&afloat) } else { None };
        while !scan.is_done() {
            let mut target = None;
            while let Some(i) = self.stack.pop() {
                let pos = bay.position(i as usize);
                if scan.state(pos) == CellState::Unknown {
                    target = Some(pos);
                    break;
                }
            }
            let (pos, source) = match target {
                Some(p) => (p, Source::Target),
                None => match self.hunt(scan, &mut rng, &mut spacing) {
                    Some(p) => (p, Source::Hunt),
                    None => return Err(scan.exhausted()),
                },
            };
            let answer = scan.probe(pos, source)?;
            if answer.is_hit() {
                memory::reserve(&mut self.stack, 4).map_err(|e| scan.out_of_memory(e))?;
                for n in bay.neighbours4(pos) {
                    if scan.state(n) == CellState::Unknown {
                        self.stack.push(bay.index(n) as u32);
                    }
                }
            }
            if let (Answer::Sunk(kind), true) = (answer, self.parity) {
                let record = scan.record();
                afloat.sink(pos, kind, &rules, fleet.as_ref(), |p| record.state(p) == CellState::Hit);
                let next = smallest(&afloat);
                if spacing.is_some() && next != spacing {
                    // A new lattice: the cells drawn off the old one are candidates again.
                    spacing = next;
                    self.pool.append(&mut self.deferred);
                }
            }
            scan.end_step();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::Board;
    use crate::game::placement::random_board;
    use crate::game::rules::Rules;
    use crate::scan::referee::Referee;
    use crate::strategy::solve;
    use crate::strategy::testing::{assert_finished, game_boards};

    #[test]
    fn finds_every_ship_under_every_preset() {
        let mut rng = Rng::new(5);
        for name in ["problem-g", "classic", "russian"] {
            let rules = Rules::preset(name).unwrap();
            for (g, board) in (0..).zip(game_boards(&rules, 10, 10, 3, 60)) {
                for mut s in [Hunt::new(g), Hunt::with_parity(g)] {
                    let record = solve(&mut s, &mut Referee::new(&board)).unwrap();
                    assert_finished(&board, &record);
                }
            }
        }
        for _ in 0..100 {
            let board = random_board(1 + rng.below(9) as usize, 1 + rng.below(9) as usize, &mut rng).unwrap();
            for mut s in [Hunt::new(1), Hunt::with_parity(1)] {
                assert_finished(&board, &solve(&mut s, &mut Referee::new(&board)).unwrap());
            }
        }
    }

    #[test]
    fn parity_hunts_on_the_checkerboard_first() {
        // One 2-cell ship far away: every hunting probe before the first hit is on the
        // lattice (r + c) % 2 == 0.
        let ship = crate::game::ship::Ship::new(Position::new(7, 6), 2, crate::game::position::Orientation::East);
        let board = Board::new(8, 8, vec![ship]).unwrap();
        let mut sonar = Referee::new(&board);
        let mut first_hit = None;
        struct Watch<'a>(&'a mut Option<Vec<Position>>, Vec<Position>);
        impl crate::scan::observer::ScanObserver for Watch<'_> {
            fn probed(&mut self, pos: Position, _: Source, answer: Answer) {
                self.1.push(pos);
                if answer.is_hit() && self.0.is_none() {
                    *self.0 = Some(self.1.clone());
                }
            }
        }
        let mut watch = Watch(&mut first_hit, Vec::new());
        crate::strategy::solve_observed(&mut Hunt::with_parity(9), &mut sonar, &mut watch).unwrap();
        let before = first_hit.unwrap();
        assert!(before.iter().all(|p| (p.row + p.col) % 2 == 0), "{before:?}");
    }

    #[test]
    fn same_seed_same_game() {
        let board = random_board(9, 9, &mut Rng::new(2)).unwrap();
        let a = solve(&mut Hunt::new(4), &mut Referee::new(&board)).unwrap().render_output(None);
        let mut reused = Hunt::new(1);
        solve(&mut reused, &mut Referee::new(&board)).unwrap();
        reused.reseed(4);
        assert_eq!(solve(&mut reused, &mut Referee::new(&board)).unwrap().render_output(None), a);
    }
}

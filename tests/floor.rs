//! How few scans any strategy could need on average, and how close the strategies come.
//!
//! A finished scan has spotted every ship cell, so its answers determine the layout (the
//! ship cells; ships never touch, so the runs of cells are the ships). A strategy is
//! therefore a sequence of yes/no questions that identifies the layout, and no such
//! sequence asks fewer than `H` questions on average, `H` the entropy in bits of the
//! layouts' distribution (Shannon's bound for adaptive yes/no questions). Under the
//! generator (largest first, each ship uniform among the placements valid given those
//! before it, a fleet that gets stuck starts again) a layout has probability
//! `P = Σ_orders Π 1/n_k / Z`: the sum runs over the orders of equal ships, `n_k` is the
//! number of valid placements for the `k`-th ship, `Z` the probability of not getting
//! stuck. `H = E[-log2 P]` is estimated by its mean over generated layouts.
//!
//! The measurement is run on demand (it prints, and checks nothing that could vary):
//! `cargo test --release --test all floor:: -- --ignored --nocapture`.

use crate::layouts;

use layouts::{block, key, path_sum, valid};
use spot_the_ships::game::board::Board;
use spot_the_ships::game::placement::{Placer, STANDARD_FLEET};
use spot_the_ships::game::position::Position;
use spot_the_ships::game::rng::Rng;
use spot_the_ships::game::ship::Ship;
use spot_the_ships::posterior::{Estimator, Settings};
use spot_the_ships::scan::observer::{ScanObserver, Source};
use spot_the_ships::scan::record::CellState;
use spot_the_ships::scan::referee::Referee;
use spot_the_ships::scan::sonar::Answer;
use spot_the_ships::strategy::{by_name, solve_observed};
use std::collections::HashMap;

/// The probability of not getting stuck, estimated over `trials` sequential placements.
fn not_stuck(rows: usize, cols: usize, fleet: &[usize], trials: u64) -> f64 {
    let mut sizes = fleet.to_vec();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let mut rng = Rng::new(99);
    let mut ok = 0;
    'trial: for _ in 0..trials {
        let mut blocked = vec![false; rows * cols];
        for &size in &sizes {
            let options = valid(rows, cols, size, &blocked);
            if options.is_empty() {
                continue 'trial;
            }
            let pick = &options[rng.below(options.len() as u64) as usize];
            block(rows, cols, pick, &mut blocked);
        }
        ok += 1;
    }
    ok as f64 / trials as f64
}

#[test]
fn the_formula_is_the_generators_law() {
    // 3 x 4, ships 2, 1 and 1 (it gets stuck at times): few layouts, so their
    // frequencies can be compared with P.
    let (rows, cols, fleet) = (3, 4, [2, 1, 1]);
    let mut placer = Placer::new(rows, cols);
    let mut seen: HashMap<Vec<usize>, (usize, Vec<Ship>)> = HashMap::new();
    let draws = 40_000;
    for i in 0..draws {
        let ships = placer.place_fleet(&fleet, &mut Rng::for_stream(3, i)).expect("fits");
        seen.entry(key(&ships, cols)).or_insert((0, ships)).0 += 1;
    }
    let z = not_stuck(rows, cols, &fleet, 20_000);
    let mut total = 0.0;
    for (count, ships) in seen.values() {
        let p = path_sum(rows, cols, ships, &mut vec![false; ships.len()], &vec![false; rows * cols]) / z;
        let freq = *count as f64 / draws as f64;
        total += p;
        // Four standard errors of the frequency, plus rounding.
        let tolerance = 4.0 * (p * (1.0 - p) / draws as f64).sqrt() + 1e-3;
        assert!((freq - p).abs() < tolerance, "frequency {freq} vs formula {p}");
    }
    assert!(z < 0.999, "this fleet should get stuck at times (z = {z})");
    assert!((total - 1.0).abs() < 0.02, "probabilities sum to {total}");
}

/// Records the bits each probe's answer carries under the posterior.
struct Bits {
    grid: Vec<CellState>,
    cols: usize,
    estimator: Estimator,
    bits: f64,
    probes: usize,
}

impl ScanObserver for Bits {
    fn probed(&mut self, pos: Position, _source: Source, answer: Answer) {
        let rows = self.grid.len() / self.cols;
        let post = self.estimator.estimate(rows, self.cols, &self.grid, &STANDARD_FLEET).expect("posterior");
        let p = post.prob(pos);
        if p > 0.0 && p < 1.0 {
            self.bits -= p * p.log2() + (1.0 - p) * (1.0 - p).log2();
        }
        self.probes += 1;
        self.grid[pos.index(self.cols)] = if answer.is_hit() { CellState::Hit } else { CellState::Miss };
    }

    fn eliminated(&mut self, pos: Position) {
        self.grid[pos.index(self.cols)] = CellState::Eliminated;
    }
}

#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn information_floor_of_the_benchmark() {
    let (rows, cols) = (10, 10);
    let layouts = 3000;
    let mut placer = Placer::new(rows, cols);
    let (mut sum, mut sum2) = (0.0, 0.0);
    for i in 0..layouts {
        let ships = placer.place_fleet(&STANDARD_FLEET, &mut Rng::for_stream(2021, i)).expect("fits");
        let p = path_sum(rows, cols, &ships, &mut vec![false; ships.len()], &vec![false; rows * cols]);
        let bits = -p.log2();
        sum += bits;
        sum2 += bits * bits;
    }
    let z = not_stuck(rows, cols, &STANDARD_FLEET, 20_000);
    let n = layouts as f64;
    let mean = sum / n + z.log2();
    let se = ((sum2 / n - (sum / n).powi(2)) / n).sqrt();
    println!("benchmark (10x10, fleet 5,4,3,3,2,2,1,1), {layouts} generated layouts:");
    println!("  not stuck: {:.4} of 20,000 placements", z);
    println!("  entropy H = {mean:.2} bits (standard error {se:.2}): no strategy averages fewer scans");

    // Bits per answer of each strategy, the posterior from exact counts or 1,000 samples.
    let games = 100;
    println!("  {games} games each: scans, bits gathered, bits per scan");
    for name in ["prob", "parity", "bayes"] {
        let settings = Settings { samples: 1000, exact_layouts: 20_000.0, exact_nodes: 400_000, ..Settings::default() };
        let mut obs =
            Bits { grid: Vec::new(), cols, estimator: Estimator::with_settings(5, settings), bits: 0.0, probes: 0 };
        let mut strategy = by_name(name, 1).expect("strategy");
        for g in 0..games {
            let ships = placer.place_fleet(&STANDARD_FLEET, &mut Rng::for_stream(2021, g)).expect("fits");
            let board = Board::new(rows, cols, ships).expect("valid");
            obs.grid = vec![CellState::Unknown; rows * cols];
            strategy.reseed(g);
            solve_observed(strategy.as_mut(), &mut Referee::new(&board), &mut obs).expect("solved");
        }
        let g = games as f64;
        println!(
            "  {name:<7} {:>6.2} scans {:>6.2} bits {:>6.3} bits/scan",
            obs.probes as f64 / g,
            obs.bits / g,
            obs.bits / obs.probes as f64
        );
    }
}

//! How many scans the best possible strategy needs, computed exactly on small boards, and
//! how close the strategies come.
//!
//! Every ship cell costs one scan whatever the strategy, so a strategy is as good as the
//! expected number of its *misses*. Let `S` be the set of layouts that agree with every
//! answer so far. A probe is worth making only on an *informative* cell (a ship cell in
//! some layouts of `S` and water in others): a cell every layout agrees on either costs a
//! sure miss and tells nothing, or is a sure hit that must be scanned some time anyway
//! and tells nothing either. So the fewest expected misses from `S` are
//!
//! ```text
//! M(S) = 0                          if |S| = 1 (the layout is known)
//! M(S) = min over informative c of  P(c water | S) (1 + M(S_water)) + P(c ship | S) M(S_ship)
//! ```
//!
//! with `S_water`, `S_ship` the layouts left by each answer. `M` of the set of all layouts,
//! weighted by the generator's law (see `layouts`), plus the fleet's cells, is the fewest
//! scans any strategy can average on that board and fleet. The same recursion with the
//! minimum taken over the `k` most likely cells only is a strategy too: for `k = 1`,
//! greedy play on the exact posterior (what `bayes` does once it counts exactly); for
//! `k = 3`, one close to the best that runs on larger boards. The strategies themselves
//! are played on every layout and their scans averaged with the same weights, and so is
//! a lookahead over density (`Lookahead`: each of density's best cells tried by playing
//! density to the end after it, on every layout that agrees, or on the 10x10 board on
//! layouts sampled from the posterior), and on 10x10 what such a lookahead gains, its
//! choices' gains measured on layouts other than those that chose (`one_step_advantage_*`).
//!
//! The measurements run on demand: `cargo test --release --test all optimum:: -- --ignored
//! --nocapture` (each `#[ignore]`d test says what it measures and its variables). The
//! plain tests check the layout list against the generator, and the recursion on boards
//! small enough to reason about by hand.

use crate::layouts;

use spot_the_ships::game::board::Board;
use spot_the_ships::game::fleet::Fleet;
use spot_the_ships::game::placement::Placer;
use spot_the_ships::game::position::Position;
use spot_the_ships::game::rng::Rng;
use spot_the_ships::game::rules::Rules;
use spot_the_ships::game::ship::Ship;
use spot_the_ships::scan::observer::{Silent, Source};
use spot_the_ships::scan::record::{CellState, ScanRecord};
use spot_the_ships::scan::referee::Referee;
use spot_the_ships::scan::sonar::Answer;
use spot_the_ships::scan::{Scan, ScanError};
use spot_the_ships::strategy::lookahead::{best_gain, mean_gain, played_out, CANDIDATES};
use spot_the_ships::strategy::{for_rules, solve, Density, ScanStrategy};
use std::collections::HashMap;

/// A board and fleet with every layout listed: the exact game.
struct Game {
    rows: usize,
    cols: usize,
    fleet: Vec<usize>,
    /// Classic rules (ships may touch, a probe that completes a ship answers "sunk" with
    /// its name, here its size) instead of Problem G's.
    classic: bool,
    /// The ship cells of each layout, one bit per cell (row-major).
    masks: Vec<u64>,
    /// Each layout's ships: cells (one bit per cell) and size.
    ships: Vec<Vec<(u64, usize)>>,
    /// The probability of each layout under the generator (copied out of `layouts` for
    /// the search's inner loop).
    probs: Vec<f64>,
    layouts: Vec<layouts::Layout>,
    /// The size of each kind of the rules' fleet (what a sunk answer's kind stands for).
    kind_sizes: Vec<usize>,
}

impl Game {
    /// Lists the layouts of `fleet` on a board of at most 64 cells.
    fn new(rows: usize, cols: usize, fleet: &[usize]) -> Game {
        Game::under(rows, cols, fleet, false)
    }

    /// The game under classic rules (`classic`) or Problem G's.
    fn under(rows: usize, cols: usize, fleet: &[usize], classic: bool) -> Game {
        assert!(rows * cols <= 64, "one bit per cell");
        let layouts = layouts::all_under(rows, cols, fleet, classic);
        let bits = |s: &Ship| s.cells().fold(0u64, |m, p| m | 1 << p.index(cols));
        let ships: Vec<Vec<(u64, usize)>> =
            layouts.iter().map(|l| l.ships.iter().map(|s| (bits(s), s.size())).collect()).collect();
        let masks = ships.iter().map(|l| l.iter().fold(0, |m, &(b, _)| m | b)).collect();
        let probs = layouts.iter().map(|l| l.prob).collect();
        let mut game =
            Game { rows, cols, fleet: fleet.to_vec(), classic, masks, ships, probs, layouts, kind_sizes: Vec::new() };
        game.kind_sizes = game.rules().fleet().kinds().iter().map(|kind| kind.shape.size()).collect();
        game
    }

    /// The rules the strategies play under.
    fn rules(&self) -> Rules {
        let rules = if self.classic { Rules::preset("classic").expect("a preset") } else { Rules::problem_g() };
        let mut sizes = self.fleet.clone();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        rules.with_fleet(Fleet::of_sizes(&sizes))
    }

    /// The answer to a probe of `cell` in layout `k` when the ship cells `hits` are
    /// already hit: 0 water, 1 hit, `2 + size` sunk (classic rules only).
    fn answer(&self, k: usize, cell: usize, hits: u64) -> usize {
        let bit = 1u64 << cell;
        match self.ships[k].iter().find(|&&(b, _)| b & bit != 0) {
            None => 0,
            Some(&(b, size)) if self.classic && b & !(hits | bit) == 0 => 2 + size,
            Some(_) => 1,
        }
    }

    /// True when layout `k` gives every answer `record` holds: its ship cells are the
    /// hits among the probed cells, and (classic rules) its ships are sunk exactly where
    /// and as the log says, the hits taken in their order.
    fn agrees(&self, k: usize, record: &ScanRecord) -> bool {
        let mask = self.masks[k];
        for i in 0..self.rows * self.cols {
            let ship = mask & 1 << i != 0;
            match record.state_at(i) {
                CellState::Hit if !ship => return false,
                CellState::Miss | CellState::Eliminated if ship => return false,
                _ => {}
            }
        }
        let Some(log) = record.answers() else { return true };
        let mut hits = 0u64;
        for (rank, &cell) in log.hits.iter().enumerate() {
            let said = self.answer(k, cell as usize, hits);
            let sunk = log.sunk.iter().find(|e| e.rank as usize == rank);
            let told =
                sunk.map(|e| e.kind.and_then(|kind| self.kind_sizes.get(kind).copied()).map_or(usize::MAX, |s| 2 + s));
            if told.unwrap_or(1) != said {
                return false;
            }
            hits |= 1 << cell;
        }
        true
    }

    fn ship_cells(&self) -> usize {
        self.fleet.iter().sum()
    }
}

/// Which probe the recursion makes in each set of layouts.
#[derive(Clone, Copy, PartialEq)]
enum Policy {
    /// The probe with the fewest expected misses (the optimum).
    Best,
    /// The probe with the fewest expected misses among the `k` most likely ship cells
    /// (the first in row-major order among equals): `Likeliest(1)` is greedy play.
    Likeliest(usize),
}

/// Greedy play: the most likely ship cell.
const GREEDY: Policy = Policy::Likeliest(1);

/// The recursion `M(S)` over sets of layouts, remembered by set.
struct Misses<'g> {
    game: &'g Game,
    policy: Policy,
    /// `M(S)` by a 128-bit fingerprint of `S` (two differently mixed 64-bit hashes of its
    /// sorted indices; were fingerprints random, the chance that two of 10^9 sets share
    /// one would be about 10^-21), and under classic rules the cells hit so far (the
    /// sunk answers to come depend on them).
    memo: HashMap<(u128, u64), f64>,
}

impl<'g> Misses<'g> {
    fn new(game: &'g Game, policy: Policy) -> Misses<'g> {
        Misses { game, policy, memo: HashMap::new() }
    }

    /// Expected misses from the start of a game.
    fn at_start(&mut self) -> f64 {
        let all: Vec<u32> = (0..self.game.masks.len() as u32).collect();
        self.of(&all, 0)
    }

    /// `M(set)` once the ship cells `hits` are hit; `set` is sorted. Under classic rules
    /// an answer may be "sunk" and tell layouts of the same cells apart, so a probe is
    /// informative when the layouts' *answers* differ, a sure hit may be worth making
    /// (for the sunk answers it prepares), and the game ends when every layout left has
    /// the same cells; under Problem G's rules the answers are the cells.
    fn of(&mut self, set: &[u32], hits: u64) -> f64 {
        let game = self.game;
        if game.classic {
            let first = set.first().map_or(0, |&k| game.masks[k as usize]);
            if set.iter().all(|&k| game.masks[k as usize] == first) {
                return 0.0;
            }
        } else {
            if set.len() <= 1 {
                return 0.0;
            }
            if set.len() == 2 {
                // One informative probe tells the two apart. Each layout has cells the
                // other lacks; a cell of the likelier one is the best probe, and greedy's.
                let (a, b) = (game.probs[set[0] as usize], game.probs[set[1] as usize]);
                return a.min(b) / (a + b);
            }
        }
        // Without sunk answers what is hit does not matter.
        let hits = if game.classic { hits } else { 0 };
        let print = (fingerprint(set), hits);
        if let Some(&m) = self.memo.get(&print) {
            return m;
        }
        let cells = game.rows * game.cols;
        let mut total = 0.0;
        let mut on = vec![0.0f64; cells];
        let mut count = vec![0usize; cells];
        for &k in set {
            let (mask, p) = (game.masks[k as usize], game.probs[k as usize]);
            total += p;
            let mut bits = mask;
            while bits != 0 {
                let c = bits.trailing_zeros() as usize;
                on[c] += p;
                count[c] += 1;
                bits &= bits - 1;
            }
        }
        // The probes worth making, most likely ship first (the first in row-major order
        // among equals): classic, any cell not hit yet that holds a ship in some layout;
        // Problem G, the cells some layouts have and others lack.
        let worth = |c: usize| match game.classic {
            true => count[c] > 0 && hits & (1 << c) == 0,
            false => count[c] > 0 && count[c] < set.len(),
        };
        let mut candidates: Vec<usize> = (0..cells).filter(|&c| worth(c)).collect();
        candidates.sort_by(|&a, &b| on[b].total_cmp(&on[a]).then(a.cmp(&b)));
        if let Policy::Likeliest(k) = self.policy {
            candidates.truncate(k);
        }
        let mut best = f64::INFINITY;
        for c in candidates {
            let water = 1.0 - on[c] / total;
            if water >= best {
                // Even with no miss after it, this probe cannot beat `best`; nor can any
                // later candidate, as they come by rising chance of water.
                break;
            }
            // The layouts by answer (0 water, 1 hit, 2 + size sunk).
            let mut parts: Vec<(usize, Vec<u32>)> = Vec::new();
            for &k in set {
                let a = game.answer(k as usize, c, hits);
                match parts.iter_mut().find(|(x, _)| *x == a) {
                    Some((_, part)) => part.push(k),
                    None => parts.push((a, vec![k])),
                }
            }
            let mut value = water;
            for (a, part) in &parts {
                let p: f64 = part.iter().map(|&k| game.probs[k as usize]).sum::<f64>() / total;
                let after = if *a == 0 { hits } else { hits | 1 << c };
                value += p * self.of(part, after);
            }
            best = best.min(value);
        }
        self.memo.insert(print, best);
        best
    }
}

/// Two differently mixed 64-bit hashes of `set`, side by side.
fn fingerprint(set: &[u32]) -> u128 {
    let (mut a, mut b) = (0x243f_6a88_85a3_08d3u64, 0x1319_8a2e_0370_7344u64);
    for &k in set {
        a = (a ^ u64::from(k)).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
        b = (b.rotate_left(17) ^ u64::from(k).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)).wrapping_mul(0x1656_67b1_9e37_79f9);
    }
    (u128::from(a) << 64) | u128::from(b ^ set.len() as u64)
}

/// The expected misses of the strategy `name`, played on every layout of `game`.
fn played(game: &Game, name: &str) -> f64 {
    let mut strategy = for_rules(name, 2021, &game.rules()).expect("a strategy for the rules");
    played_by(game, strategy.as_mut())
}

/// The expected misses of `strategy`, played on every layout of `game`.
fn played_by(game: &Game, strategy: &mut dyn ScanStrategy) -> f64 {
    let rules = game.rules();
    let mut sum = 0.0;
    for layout in &game.layouts {
        let board = Board::with_rules(game.rows, game.cols, layout.ships.clone(), &rules).expect("a valid layout");
        strategy.reseed(0);
        let record = solve(strategy, &mut Referee::new(&board)).expect("solved");
        sum += layout.prob * (record.scans() - game.ship_cells()) as f64;
    }
    sum
}

/// Where a lookahead finds the layouts that agree with the answers so far.
enum Layouts<'g> {
    /// Every layout of the game, with its probability: the lookahead is exact.
    Exact(&'g Game),
    /// `n` layouts drawn from the posterior (uniform prior) at every probe; a cell other
    /// than density's is taken only when its paired gain over density's cell is more
    /// than `z` standard errors. When a gain is between 1 and `z` standard errors,
    /// `more` layouts are drawn and the choice made again on all of them.
    Sampled { drawer: Box<spot_the_ships::strategy::Lookahead>, n: usize, z: f64, more: usize },
}

/// One step of lookahead over density (a rollout policy improvement): at each probe,
/// each of density's `k` best cells is tried by probing it and playing density to the
/// end, on every layout that agrees with the answers (or on sampled ones), and the cell
/// of the fewest expected scans is probed (density's own cell among equals). Density is
/// deterministic, so every candidate is played on the same layouts and the noise they
/// share cancels out.
struct Lookahead<'g> {
    layouts: Layouts<'g>,
    k: usize,
    rules: Rules,
    ranker: Density,
    player: Density,
    /// The exact lookahead's choice in each state it has met (the state as a key).
    memo: HashMap<Vec<u32>, Position>,
    /// Sampled lookahead: the probes chosen with layouts, those where it left density's
    /// cell, and the sum over them of the largest estimated gain of any candidate (taken
    /// or not; an estimate biased upwards by the noise it picks).
    decisions: usize,
    switches: usize,
    claimed: f64,
    /// The sum over those probes of the standard error of the runner-up's gain.
    errors: f64,
    /// Exact lookahead: play density's cell anyway (the lookahead only weighs the
    /// others), adding up in `advantage` what the best candidate would gain at each state
    /// met, times the state's probability: the first-order gain of the improvement,
    /// weighed on density's own states.
    advise_only: bool,
    advantage: f64,
}

impl<'g> Lookahead<'g> {
    fn new(layouts: Layouts<'g>, k: usize, rules: Rules) -> Lookahead<'g> {
        Lookahead {
            layouts,
            k,
            rules,
            ranker: Density::default(),
            player: Density::default(),
            memo: HashMap::new(),
            decisions: 0,
            switches: 0,
            claimed: 0.0,
            errors: 0.0,
            advise_only: false,
            advantage: 0.0,
        }
    }

    /// The sampled lookahead of game `g` (its estimator's seed) on the classic board:
    /// `n` layouts a probe, threshold `z`, `more` layouts where close, `k` candidates.
    fn sampled(g: usize, n: usize, z: f64, more: usize, k: usize, rules: &Rules) -> Lookahead<'static> {
        let drawer = Box::new(spot_the_ships::strategy::Lookahead::with_layouts(g as u64, n));
        Lookahead::new(Layouts::Sampled { drawer, n, z, more }, k, rules.clone())
    }

    /// The exact lookahead that plays density's cells and adds up what its own would
    /// gain (`advantage`).
    fn advising(game: &'g Game, k: usize) -> Lookahead<'g> {
        Lookahead { advise_only: true, ..Lookahead::new(Layouts::Exact(game), k, game.rules()) }
    }

    /// The cell to probe in `scan`'s state.
    fn choose(&mut self, scan: &Scan<'_>) -> Result<Position, ScanError> {
        let cands = self.ranker.ranked(scan, self.k)?;
        let Some(&first) = cands.first() else { return Err(scan.exhausted()) };
        if cands.len() == 1 {
            return Ok(first);
        }
        let record = scan.record();
        match &mut self.layouts {
            Layouts::Exact(game) => {
                let game: &Game = game;
                let key = state_key(record);
                if let Some(&p) = self.memo.get(&key) {
                    return Ok(p);
                }
                let mut totals = vec![0.0; cands.len()];
                for (k, layout) in game.layouts.iter().enumerate() {
                    if !game.agrees(k, record) {
                        continue;
                    }
                    let board = Board::with_rules(game.rows, game.cols, layout.ships.clone(), &self.rules)
                        .expect("a valid layout");
                    for (j, &c) in cands.iter().enumerate() {
                        let scans = played_out(&mut self.player, &board, record, c).expect("the layout agrees");
                        totals[j] += layout.prob * scans as f64;
                    }
                }
                let mut best = (totals[0], first);
                for (&t, &c) in totals.iter().zip(&cands).skip(1) {
                    // Strictly fewer, beyond rounding.
                    if t < best.0 - 1e-12 {
                        best = (t, c);
                    }
                }
                self.advantage += totals[0] - best.0;
                let cell = if self.advise_only { first } else { best.1 };
                self.memo.insert(key, cell);
                Ok(cell)
            }
            Layouts::Sampled { n, z, more, .. } => {
                let (n, z, more) = (*n, *z, *more);
                // Each layout's weight (a batch's weights sum to its size) and scans for
                // each candidate; a second batch where the first leaves a candidate within
                // reach (its gain more than one standard error, not more than z).
                let mut rows: Vec<(f64, Vec<f64>)> = Vec::new();
                if !self.play_batch(scan, &cands, n, &mut rows) {
                    return Ok(first);
                }
                let (mut best, mut most, mut error, ratio) = gains(&rows, &cands, z);
                if more > 0 && best == first && ratio > 1.0 && self.play_batch(scan, &cands, more, &mut rows) {
                    (best, most, error, _) = gains(&rows, &cands, z);
                }
                self.decisions += 1;
                self.switches += usize::from(best != first);
                self.claimed += most;
                self.errors += error;
                Ok(best)
            }
        }
    }

    /// Draws `n` layouts agreeing with `scan`'s record and adds to `rows` each one's
    /// weight (summing to `n` over the batch) and scans for each candidate; false when
    /// none could be drawn.
    fn play_batch(&mut self, scan: &Scan<'_>, cands: &[Position], n: usize, rows: &mut Vec<(f64, Vec<f64>)>) -> bool {
        let Layouts::Sampled { drawer, .. } = &mut self.layouts else { return false };
        drawer.roll_out(scan, &self.rules, cands, n, rows)
    }
}

/// The candidate to probe given each layout's weight and scans for each candidate
/// (density's cell first): the one of the largest paired gain over density's cell among
/// those whose gain is more than `z` standard errors, else density's cell. Also: the
/// largest estimated gain of any candidate, the runner-up's standard error, and the
/// largest ratio of a gain to its standard error.
fn gains(rows: &[(f64, Vec<f64>)], cands: &[Position], z: f64) -> (Position, f64, f64, f64) {
    let total: f64 = rows.iter().map(|(w, _)| w).sum();
    let ess = total * total / rows.iter().map(|(w, _)| w * w).sum::<f64>();
    let (mut best, mut most, mut error, mut ratio) = ((0.0, cands[0]), 0.0f64, 0.0, 0.0f64);
    for (j, &c) in cands.iter().enumerate().skip(1) {
        let gain = |r: &Vec<f64>| r[0] - r[j];
        let mean = mean_gain(rows, j);
        let var: f64 = rows.iter().map(|(w, r)| w * (gain(r) - mean).powi(2)).sum::<f64>() / total;
        let se = (var / ess).sqrt();
        most = most.max(mean);
        if se > 0.0 {
            ratio = ratio.max(mean / se);
        }
        if j == 1 {
            error = se;
        }
        if mean > z * se && mean > best.0 {
            best = (mean, c);
        }
    }
    (best.1, most, error, ratio)
}

/// What a record knows, as a key: every cell's state, the order of the hits and the
/// sunk answers.
fn state_key(record: &ScanRecord) -> Vec<u32> {
    let cells = record.rows() * record.cols();
    let mut key: Vec<u32> = (0..cells).map(|i| record.state_at(i) as u32).collect();
    if let Some(log) = record.answers() {
        key.push(u32::MAX);
        key.extend(&log.hits);
        for e in &log.sunk {
            key.extend([u32::MAX - 1, e.rank, e.kind.map_or(u32::MAX, |k| k as u32)]);
        }
    }
    key
}

impl ScanStrategy for Lookahead<'_> {
    fn name(&self) -> &'static str {
        "density"
    }

    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        while !scan.is_done() {
            let cell = self.choose(scan)?;
            scan.probe(cell, Source::Density)?;
            scan.end_step();
        }
        Ok(())
    }
}

#[test]
fn every_layout_is_listed_once_with_the_generators_probability() {
    // 3 x 4, ships 2, 1 and 1: 64 layouts, each drawn often enough in 40,000 placements.
    listed_as_drawn(3, 4, &[2, 1, 1], false);
}

#[test]
fn every_layout_of_ships_that_touch_is_listed_once_with_the_generators_probability() {
    listed_as_drawn(3, 3, &[2, 1], true);
}

/// The layouts listed for `fleet` (ships that may touch or not) are the generator's, each
/// drawn as often as its probability says (within four standard errors in 40,000 draws).
fn listed_as_drawn(rows: usize, cols: usize, fleet: &[usize], touch: bool) {
    let listed = layouts::all_under(rows, cols, fleet, touch);
    let key = |ships: &[Ship]| {
        let mut k: Vec<(usize, usize)> =
            ships.iter().flat_map(|s| s.cells().map(move |p| (p.index(cols), s.size()))).collect();
        k.sort_unstable();
        k
    };
    let probs: HashMap<Vec<(usize, usize)>, f64> = listed.iter().map(|l| (key(&l.ships), l.prob)).collect();
    assert_eq!(probs.len(), listed.len(), "a layout is listed twice");
    assert!((probs.values().sum::<f64>() - 1.0).abs() < 1e-9);
    let game = Game::under(rows, cols, fleet, touch);
    let rules = game.rules().with_touch(touch);
    let mut placer = Placer::with_rules(rows, cols, &rules);
    let draws = 40_000;
    let mut seen: HashMap<Vec<(usize, usize)>, usize> = HashMap::new();
    for i in 0..draws {
        let mut ships = Vec::new();
        placer.place(rules.fleet(), &mut Rng::for_stream(5, i), &mut ships).expect("fits");
        *seen.entry(key(&ships)).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), listed.len(), "the generator draws layouts the list lacks, or the reverse");
    for (layout, count) in seen {
        let p = probs.get(&layout).copied().expect("a drawn layout is listed");
        let freq = count as f64 / draws as f64;
        assert!((freq - p).abs() < 4.0 * (p * (1.0 - p) / draws as f64).sqrt(), "{layout:?}: {freq} vs {p}");
    }
}

#[test]
fn one_ship_in_a_row_of_three_needs_a_third_of_a_miss() {
    // 1 x 3, one 1-cell ship, a third of a chance on each cell. Probing in turn misses
    // 0, 1 or 2 times (after two misses the last cell is a sure hit), 1 on average; no
    // order does better, and greedy play is one of them.
    let game = Game::new(1, 3, &[1]);
    assert_eq!(game.masks.len(), 3);
    let best = Misses::new(&game, Policy::Best).at_start();
    let greedy = Misses::new(&game, GREEDY).at_start();
    assert!((best - 1.0).abs() < 1e-12, "best {best}");
    assert!((greedy - 1.0).abs() < 1e-12, "greedy {greedy}");
}

#[test]
fn a_two_cell_ship_in_a_row_of_three_is_found_by_its_middle() {
    // 1 x 3, one 2-cell ship: (0,0)-(0,1) or (0,1)-(0,2), even odds. The middle cell is
    // always a ship cell; the best probe is an end cell: half the time a miss, which
    // settles it. Nothing does better than 1/2.
    let game = Game::new(1, 3, &[2]);
    assert_eq!(game.masks.len(), 2);
    let best = Misses::new(&game, Policy::Best).at_start();
    assert!((best - 0.5).abs() < 1e-12, "best {best}");
}

#[test]
fn a_three_cell_ship_in_a_row_of_four_or_five() {
    // 1 x 4, one 3-cell ship placed at (0,0) or (0,1), even odds: every informative cell
    // is a coin toss, 1/2 a miss.
    let game = Game::new(1, 4, &[3]);
    assert!((Misses::new(&game, Policy::Best).at_start() - 0.5).abs() < 1e-12);
    // 1 x 5, one 3-cell ship at (0,0), (0,1) or (0,2): cells 1..=3 are likelier, but only
    // the ends (a third each) and (0,1)/(0,3) (two thirds) are informative; probing
    // (0,1) misses 1/3 and leaves two layouts told apart by an end cell (1/2 of 2/3
    // more): 1/3 + 2/3 * 1/2 = 2/3. Probing an end cell (0,0) misses 2/3 of the time,
    // then (0,4) tells the other two apart: 2/3 + 2/3 * 1/2 = 1. Best 2/3.
    let game = Game::new(1, 5, &[3]);
    let best = Misses::new(&game, Policy::Best).at_start();
    assert!((best - 2.0 / 3.0).abs() < 1e-12, "best {best}");
}

#[test]
fn the_optimum_is_at_most_every_strategy_and_greedy() {
    let game = Game::new(4, 4, &[2, 1]);
    let best = Misses::new(&game, Policy::Best).at_start();
    let top3 = Misses::new(&game, Policy::Likeliest(3)).at_start();
    let greedy = Misses::new(&game, GREEDY).at_start();
    // Each searches a subset of the probes the one before it searches.
    assert!(best <= top3 + 1e-9 && top3 <= greedy + 1e-9, "best {best} top3 {top3} greedy {greedy}");
    assert!(best < greedy - 0.05, "on this board greedy play is not the best");
    for name in ["linear", "smart", "prob", "random", "parity", "bayes"] {
        let m = played(&game, name);
        assert!(best <= m + 1e-9, "{name}: {m} misses, below the optimum {best}");
    }
    // bayes counts exactly on a board this small and plays the most likely cell: it is
    // greedy play, up to ties.
    let bayes = played(&game, "bayes");
    assert!((bayes - greedy).abs() < 0.05, "bayes {bayes} greedy {greedy}");
}

#[test]
fn under_classic_rules_a_sunk_answer_saves_a_probe() {
    // 1 x 4, a 2-cell and a 1-cell ship that may touch: the 2-cell ship at 0-1, 1-2 or
    // 2-3 (a third each), the 1-cell ship on either cell left: one cell of four is water.
    // Probing cell 1 misses 1/6 of the time; otherwise "sunk" there means the 1-cell ship
    // (done), "hit" leaves {0,1,2} twice, {0,1,3} and {1,2,3}; probing cell 0 then misses
    // on {1,2,3} (1/4), answers "sunk 1" on one {0,1,2} (done) and "sunk 2" on the other
    // {0,1,2} and {0,1,3}, told apart by one more even-odds probe: 1/6 + 4/6 (1/4 + 2/4 *
    // 1/2) = 1/2 miss, the best possible, and greedy play finds it. Without the sunk
    // answers the best is 2/3.
    let game = Game::under(1, 4, &[2, 1], true);
    assert_eq!(game.masks.len(), 6);
    let best = Misses::new(&game, Policy::Best).at_start();
    let greedy = Misses::new(&game, GREEDY).at_start();
    assert!((best - 0.5).abs() < 1e-12, "best {best}");
    assert!((greedy - 0.5).abs() < 1e-12, "greedy {greedy}");
}

#[test]
fn under_classic_rules_the_optimum_is_at_most_every_strategy_and_greedy() {
    let game = Game::under(4, 4, &[3, 2], true);
    let best = Misses::new(&game, Policy::Best).at_start();
    let top3 = Misses::new(&game, Policy::Likeliest(3)).at_start();
    let greedy = Misses::new(&game, GREEDY).at_start();
    assert!(best <= top3 + 1e-9 && top3 <= greedy + 1e-9, "best {best} top3 {top3} greedy {greedy}");
    assert!(best < greedy - 0.1, "on this board greedy play is not the best");
    for name in ["random", "linear", "hunt", "hunt-parity", "density", "density-random", "parity", "bayes"] {
        let m = played(&game, name);
        assert!(best <= m + 1e-9, "{name}: {m} misses, below the optimum {best}");
    }
    // bayes counts exactly here and plays the most likely cell (under a uniform prior
    // over layouts, where greedy uses the generator's law): close to greedy play.
    let bayes = played(&game, "bayes");
    assert!((bayes - greedy).abs() < 0.05, "bayes {bayes} greedy {greedy}");
}

/// The boards and fleets measured by default: those whose optimum takes under a minute
/// (`OPTIMUM_CASES="5x5 3,2,1 no-optimum;6x6 3,1 no-optimum"` measures others;
/// `no-optimum` skips the optimum, which takes over 10 minutes and 2 GB from 5x5 boards
/// on).
const CASES: &str = "3x4 2,1,1;3x5 3,1;4x4 1,1,1;4x4 2,1;4x4 2,2;4x4 3,1;3x6 3,2,1;4x5 2,1;4x5 3,1;4x5 2,1,1";

#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn optimum_on_small_boards() {
    let spec = std::env::var("OPTIMUM_CASES").unwrap_or_else(|_| CASES.to_string());
    measure(&spec, false, &["bayes", "parity", "prob"]);
}

/// The boards and fleets measured under classic rules by default (`OPTIMUM_CLASSIC_CASES`
/// measures others, as `OPTIMUM_CASES` does).
const CLASSIC_CASES: &str = "3x4 2,1;4x4 2,1;4x4 3,2;3x5 3,2;4x4 3,2,1;4x5 3,2";

#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn optimum_on_small_boards_under_classic_rules() {
    let spec = std::env::var("OPTIMUM_CLASSIC_CASES").unwrap_or_else(|_| CLASSIC_CASES.to_string());
    measure(&spec, true, &["bayes", "density", "hunt-parity"]);
}

/// The cases of `spec` (`ROWSxCOLS SIZES [no-optimum]`, separated by `;`) under classic
/// rules or Problem G's: each one's words, its game, and whether its optimum is wanted.
fn cases_of(spec: &str, classic: bool) -> Vec<(Vec<&str>, Game, bool)> {
    let mut out = Vec::new();
    for case in spec.split(';').filter(|c| !c.trim().is_empty()) {
        let words: Vec<&str> = case.split_whitespace().collect();
        let dims: Vec<usize> = words[0].split('x').map(|n| n.parse().expect("ROWSxCOLS")).collect();
        let fleet: Vec<usize> = words[1].split(',').map(|n| n.parse().expect("a fleet like 3,2,1")).collect();
        let game = Game::under(dims[0], dims[1], &fleet, classic);
        let optimum = words.get(2) != Some(&"no-optimum");
        out.push((words, game, optimum));
    }
    out
}

/// Prints the table of the cases of `spec` (`ROWSxCOLS SIZES [no-optimum]`, separated by
/// `;`) under classic rules or Problem G's, with the strategies `names` played.
fn measure(spec: &str, classic: bool, names: &[&str; 3]) {
    println!("Expected scans; the last two columns: greedy's and bayes' scans above the best possible.");
    println!(
        "| board | fleet | layouts | best possible | best of the 3 likeliest | greedy, exact | {} | {} | {} | greedy | bayes |",
        names[0], names[1], names[2]
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for (words, game, optimum) in cases_of(spec, classic) {
        let cells = game.ship_cells() as f64;
        let scans = |policy| cells + Misses::new(&game, policy).at_start();
        let best = optimum.then(|| scans(Policy::Best));
        let [top3, greedy] = [Policy::Likeliest(3), GREEDY].map(scans);
        let [a, b, c] = names.map(|name| cells + played(&game, name));
        // Rounding can put a strategy a hair below the best: shown as 0.0%, not -0.0%.
        let above = |v: f64| best.map_or("-".to_string(), |b| format!("{:.1}%", (100.0 * (v - b) / b).max(0.0)));
        println!(
            "| {} | {} | {} | {} | {top3:.3} | {greedy:.3} | {a:.3} | {b:.3} | {c:.3} | {} | {} |",
            words[0],
            words[1],
            game.masks.len(),
            best.map_or("-".to_string(), |b| format!("{b:.3}")),
            above(greedy),
            above(a),
        );
    }
}

#[test]
fn looking_ahead_over_density_plays_no_worse_than_density_nor_better_than_the_best() {
    // The exact lookahead is a policy improvement over density: trying density's own cell
    // among the others, it cannot expect more scans than density, and no strategy beats
    // the best possible. On this board it gains, with its 3 best cells and with all.
    let game = Game::under(4, 4, &[3, 2], true);
    let best = Misses::new(&game, Policy::Best).at_start();
    let density = played(&game, "density");
    for k in [3, 16] {
        let look = played_by(&game, &mut Lookahead::new(Layouts::Exact(&game), k, game.rules()));
        assert!(best <= look + 1e-9 && look <= density + 1e-9, "k {k}: best {best} lookahead {look} density {density}");
        assert!(look < density - 0.01, "k {k}: lookahead {look} gains nothing over density {density}");
    }
}

/// The boards of the lookahead's measurement under classic rules (`LOOKAHEAD_CASES`
/// measures others, as `OPTIMUM_CASES` does).
const LOOKAHEAD_CASES: &str =
    "4x4 3,2;3x5 3,2;4x4 3,2,1;4x5 3,2;5x5 3,2 no-optimum;5x5 3,2,1 no-optimum;6x6 3,2 no-optimum";

#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn lookahead_on_small_boards_under_classic_rules() {
    let spec = std::env::var("LOOKAHEAD_CASES").unwrap_or_else(|_| LOOKAHEAD_CASES.to_string());
    println!("Expected scans under classic rules; the lookahead plays density to the end after each of density's k best cells, on every layout that agrees.");
    println!("| board | fleet | layouts | best possible | best of the 3 likeliest | density | lookahead, 3 cells | lookahead, every cell | density above the best | the better lookahead above the best | gain of the 3 cells' lookahead | its first-order estimate on density's states |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (words, game, optimum) in cases_of(&spec, true) {
        let cells = game.ship_cells() as f64;
        let best = optimum.then(|| cells + Misses::new(&game, Policy::Best).at_start());
        let top3 = cells + Misses::new(&game, Policy::Likeliest(3)).at_start();
        let density = cells + played(&game, "density");
        let look = |k| cells + played_by(&game, &mut Lookahead::new(Layouts::Exact(&game), k, game.rules()));
        let (look3, look_all) = (look(3), look(game.rows * game.cols));
        let mut advising = Lookahead::advising(&game, 3);
        let along = cells + played_by(&game, &mut advising);
        assert!((along - density).abs() < 1e-9, "advising, it plays density's cells");
        // The reference for the last two columns: the best possible, or else the best of
        // the 3 likeliest (an upper bound of it).
        let reference = best.unwrap_or(top3);
        let above = |v: f64| format!("{:.1}%", (100.0 * (v - reference) / reference).max(0.0));
        println!(
            "| {} | {} | {} | {} | {top3:.3} | {density:.3} | {look3:.3} | {look_all:.3} | {} | {} | {:.3} | {:.3} |",
            words[0],
            words[1],
            game.masks.len(),
            best.map_or("-".to_string(), |b| format!("{b:.3}")),
            above(density),
            above(look_all.min(look3)),
            density - look3,
            advising.advantage,
        );
    }
}

/// The lookahead on the classic 10x10 game, on layouts sampled from the posterior
/// (`LOOKAHEAD_SAMPLES` a probe, default 64; a cell other than density's only when it
/// gains more than `LOOKAHEAD_Z` standard errors, default 2; density's `LOOKAHEAD_K` best
/// cells, default 3; `LOOKAHEAD_MORE` more layouts where a gain is between 1 and z
/// standard errors, default none), paired with density on `LOOKAHEAD_GAMES` boards (default 400) of
/// simulate's seed `LOOKAHEAD_SEED` (default 7), on two threads.
#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn lookahead_on_the_classic_board() {
    let var = env_or;
    let (games, seed) = (var("LOOKAHEAD_GAMES", 400.0) as u64, var("LOOKAHEAD_SEED", 7.0) as u64);
    let (n, z, k) =
        (var("LOOKAHEAD_SAMPLES", 64.0) as usize, var("LOOKAHEAD_Z", 2.0), var("LOOKAHEAD_K", 3.0) as usize);
    let extra = var("LOOKAHEAD_MORE", 0.0) as usize;
    let rules = Rules::preset("classic").expect("a preset");
    let boards = classic_boards(&rules, seed, games);
    let pairs = on_two_threads(
        &boards,
        || (),
        |_, g, board| {
            let mut look = Lookahead::sampled(g, n, z, extra, k, &rules);
            let density = solve(&mut Density::default(), &mut Referee::new(board)).expect("solved").scans();
            let ahead = solve(&mut look, &mut Referee::new(board)).expect("solved").scans();
            (density, ahead, look.decisions, look.switches, look.claimed, look.errors)
        },
    );
    let count = pairs.len() as f64;
    let gain: Vec<f64> = pairs.iter().map(|&(d, a, ..)| d as f64 - a as f64).collect();
    let (mean, se) = mean_and_error(&gain);
    let density = pairs.iter().map(|&(d, ..)| d as f64).sum::<f64>() / count;
    let decisions = pairs.iter().map(|p| p.2).sum::<usize>() as f64 / count;
    let switches = pairs.iter().map(|p| p.3).sum::<usize>() as f64 / count;
    let claimed = pairs.iter().map(|p| p.4).sum::<f64>() / count;
    let error = pairs.iter().map(|p| p.5).sum::<f64>() / pairs.iter().map(|p| p.2).sum::<usize>().max(1) as f64;
    let (fewer, more) = (gain.iter().filter(|&&g| g > 0.0).count(), gain.iter().filter(|&&g| g < 0.0).count());
    println!(
        "{games} classic boards of seed {seed}, {n} layouts a probe ({extra} more where close), z {z}, k {k}: density {density:.3}, lookahead {:.3}, gain {mean:+.3} (standard error {se:.3}); lookahead fewer scans on {fewer}, more on {more}; a game: {decisions:.1} probes chosen with layouts, {switches:.2} away from density's cell, estimated gains of the best candidates {claimed:.2} scans; standard error of the runner-up's gain {error:.3} a probe on average",
        density - mean
    );
}

/// How much one step of lookahead over density gains on the classic 10x10 game, with
/// the noise kept from choosing for itself. At every probe of `ADVANTAGE_GAMES` games
/// (default 8) of simulate's seed `ADVANTAGE_SEED` (default 11), `ADVANTAGE_SAMPLES`
/// layouts (default 4,096) are drawn from the posterior and each of density's
/// `ADVANTAGE_K` best cells (default 5) is played out by density on every one; the cell
/// of the largest gain over density's cell on half of the layouts is chosen, and its gain
/// is measured on the other half (unbiased for the cell chosen). With
/// `ADVANTAGE_PLAY=lookahead` the game goes on from the chosen cell: the sum of the
/// held-out gains over a game's probes then estimates what this lookahead (choosing on
/// half the layouts) gains over density, by the performance difference identity (the
/// lookahead's scans less density's are the sum, over the lookahead's states, of what its
/// cell gains over density's when density plays on), without the noise of two games
/// that go their own ways. Otherwise the game goes on from density's cell, and the sum is
/// the first-order estimate weighed on density's states (on small boards it ranges from
/// 0.9 to 2 times the true gain: `lookahead_on_small_boards_under_classic_rules`). Also
/// printed: both games' scans on the boards, paired.
#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn one_step_advantage_on_the_classic_board() {
    let var = env_or;
    let (games, seed) = (var("ADVANTAGE_GAMES", 8.0) as u64, var("ADVANTAGE_SEED", 11.0) as u64);
    let (n, k) = (var("ADVANTAGE_SAMPLES", 4096.0) as usize, var("ADVANTAGE_K", 5.0) as usize);
    let follow = std::env::var("ADVANTAGE_PLAY").is_ok_and(|v| v == "lookahead");
    let rules = Rules::preset("classic").expect("a preset");
    let boards = classic_boards(&rules, seed, games);
    let started = std::time::Instant::now();
    // Per game: the held-out gain summed over its probes, the same on the half that chose
    // (biased upwards), the scans of the game played, the probes weighed, and density's
    // scans on the board.
    let per_game = on_two_threads(
        &boards,
        || (),
        |_, g, board| {
            let mut look = Lookahead::sampled(g, n, 0.0, 0, k, &rules);
            let mut referee = Referee::new(board);
            let mut silent = Silent;
            let mut scan = Scan::new(&mut referee, &mut silent);
            let (mut held, mut chose, mut weighed) = (0.0, 0.0, 0);
            while !scan.is_done() {
                let cands = look.ranker.ranked(&scan, k).expect("ranked");
                let Some(&first) = cands.first() else { break };
                let mut chosen = first;
                let mut rows = Vec::new();
                if cands.len() > 1 && look.play_batch(&scan, &cands, n, &mut rows) {
                    let (a, b): (Vec<_>, Vec<_>) =
                        rows.chunks(2).filter(|c| c.len() == 2).map(|c| (c[0].clone(), c[1].clone())).unzip();
                    let (j, on_a) = best_gain(&a, cands.len());
                    chosen = cands[j];
                    chose += on_a;
                    held += mean_gain(&b, j);
                    weighed += 1;
                }
                scan.probe(if follow { chosen } else { first }, Source::Density).expect("a probe");
                scan.end_step();
            }
            let density = solve(&mut Density::default(), &mut Referee::new(board)).expect("solved");
            (held, chose, scan.record().scans(), weighed, density.scans())
        },
    );
    let count = per_game.len() as f64;
    let held: Vec<f64> = per_game.iter().map(|p| p.0).collect();
    let (mean, se) = mean_and_error(&held);
    let chose = per_game.iter().map(|p| p.1).sum::<f64>() / count;
    let played = per_game.iter().map(|p| p.2 as f64).sum::<f64>() / count;
    let density = per_game.iter().map(|p| p.4 as f64).sum::<f64>() / count;
    let paired: Vec<f64> = per_game.iter().map(|p| p.4 as f64 - p.2 as f64).collect();
    let (_, paired_se) = mean_and_error(&paired);
    let weighed = per_game.iter().map(|p| p.3).sum::<usize>() as f64 / count;
    let whose = if follow { "the lookahead's (choosing on half the layouts)" } else { "density's" };
    println!(
        "{games} classic boards of seed {seed}, {n} layouts a probe, density's {k} best cells, on {whose} states: density {density:.3} scans, played {played:.3} (paired standard error {paired_se:.3}), {weighed:.1} probes weighed a game; summed gain of the cells chosen {mean:.3} a game (standard error {se:.3}), held out; {chose:.3} on the half that chose; {:.0} s",
        started.elapsed().as_secs_f64()
    );
}

/// What the lookahead strategy itself gains over density on the classic 10x10 game,
/// held out: on `HELD_GAMES` boards (default 64) of simulate's seed `HELD_SEED` (default
/// 2021), the strategy (`Lookahead::with_search`: up to `HELD_LAYOUTS` layouts a probe,
/// default 8,192, `HELD_BATCH` at a time, default 1,024 as `Lookahead::new` does (8,192:
/// every candidate on every layout, the plain lookahead), dropping a candidate `HELD_Z`
/// standard errors behind, default 3 as `Lookahead::new` does; looking ahead only while a ship is hit and afloat with
/// `HELD_HUNTING=0`; rollouts cut after `HELD_LEAF_DEPTH` probes, see `held_leaf`) plays
/// its game, and wherever its cell is not density's, that
/// cell's gain over density's (density playing on after each) is measured on
/// `HELD_SAMPLES` other layouts (default 8,192), drawn by another estimator. Summed over
/// a game's probes this estimates the strategy's gain by the performance difference
/// identity (see `one_step_advantage_on_the_classic_board`); where it plays density's
/// cell the gain is 0 exactly. Also printed: the rollouts and the time its choices
/// took a game, and the CPU time of a probe's choice on its thread (mean, 99th
/// percentile, most; `MEASURE_THREADS=1` keeps the measurement to one thread), and the
/// cells taken away from density's by their rank among its candidates.
#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn the_lookahead_strategy_held_out_on_the_classic_board() {
    let var = env_or;
    let (games, seed) = (var("HELD_GAMES", 64.0) as u64, var("HELD_SEED", 2021.0) as u64);
    let (cap, batch, z) =
        (var("HELD_LAYOUTS", 8192.0) as usize, var("HELD_BATCH", 1024.0) as usize, var("HELD_Z", 3.0));
    let held_n = var("HELD_SAMPLES", 8192.0) as usize;
    let hunting = var("HELD_HUNTING", 1.0) > 0.0;
    let leaf = held_leaf();
    let rules = Rules::preset("classic").expect("a preset");
    let boards = classic_boards(&rules, seed, games);
    let started = std::time::Instant::now();
    let per_game = on_two_threads(
        &boards,
        || (),
        |_, g, board| {
            let mut look = spot_the_ships::strategy::Lookahead::with_search(g as u64, cap, batch, z)
                .hunting(hunting)
                .with_leaf(leaf);
            let mut judge = spot_the_ships::strategy::Lookahead::with_layouts(g as u64 + (1 << 40), held_n);
            let mut referee = Referee::new(board);
            let mut silent = Silent;
            let mut scan = Scan::new(&mut referee, &mut silent);
            let (mut held, mut switched, mut thinking, mut probes) = (0.0, 0, 0.0, Vec::new());
            // Per rank among density's candidates: the choices taken there, and their gain.
            let (mut ranker, mut by_rank) = (Density::default(), [(0usize, 0.0f64); CANDIDATES]);
            while !scan.is_done() {
                let (clock, cpu) = (std::time::Instant::now(), thread_cpu_seconds());
                let (chosen, first) = look.decide(&scan).expect("a choice");
                thinking += clock.elapsed().as_secs_f64();
                probes.push(thread_cpu_seconds() - cpu);
                if chosen != first {
                    let mut rows = Vec::new();
                    let rank = ranker.ranked(&scan, CANDIDATES).expect("ranked").iter().position(|&c| c == chosen);
                    let gain = if judge.roll_out(&scan, &rules, &[first, chosen], held_n, &mut rows) {
                        mean_gain(&rows, 1)
                    } else {
                        0.0
                    };
                    held += gain;
                    if let Some(r) = rank.and_then(|r| by_rank.get_mut(r)) {
                        *r = (r.0 + 1, r.1 + gain);
                    }
                    switched += 1;
                }
                scan.probe(chosen, Source::Density).expect("a probe");
                scan.end_step();
            }
            let density = solve(&mut Density::default(), &mut Referee::new(board)).expect("solved");
            (held, scan.record().scans(), density.scans(), switched, look.played(), thinking, probes, by_rank)
        },
    );
    let count = per_game.len() as f64;
    let held: Vec<f64> = per_game.iter().map(|p| p.0).collect();
    let (mean, se) = mean_and_error(&held);
    let played = per_game.iter().map(|p| p.1 as f64).sum::<f64>() / count;
    let density = per_game.iter().map(|p| p.2 as f64).sum::<f64>() / count;
    let switched = per_game.iter().map(|p| p.3).sum::<usize>() as f64 / count;
    let rollouts = per_game.iter().map(|p| p.4).sum::<u64>() as f64 / count;
    let thinking = per_game.iter().map(|p| p.5).sum::<f64>() / count;
    let mut probes: Vec<f64> = per_game.iter().flat_map(|p| p.6.iter().copied()).collect();
    probes.sort_by(f64::total_cmp);
    let cpu = probes.iter().sum::<f64>();
    let p99 = probes.get((probes.len() * 99).div_ceil(100).saturating_sub(1)).copied().unwrap_or(0.0);
    println!(
        "{games} classic boards of seed {seed}, up to {cap} layouts a probe, {batch} at a time, z {z}, hunting {hunting}: density {density:.3}, the strategy played {played:.3}; {switched:.2} probes a game away from density's cell; held-out gain {mean:.3} a game (standard error {se:.3}, on {held_n} layouts); {rollouts:.0} rollouts and {thinking:.2} s of choosing a game; {:.0} s",
        started.elapsed().as_secs_f64()
    );
    println!(
        "CPU time of choosing: {:.2} s a game; a probe (of {}): mean {:.3} s, 99th percentile {p99:.3} s, most {:.3} s",
        cpu / count,
        probes.len(),
        cpu / probes.len().max(1) as f64,
        probes.last().copied().unwrap_or(0.0)
    );
    let ranks: Vec<String> = (1..CANDIDATES)
        .map(|r| {
            let (n, g) = per_game.iter().fold((0, 0.0), |(n, g), p| (n + p.7[r].0, g + p.7[r].1));
            format!("rank {}: {:.2} a game, gain {:.3} a game", r + 1, n as f64 / count, g / count)
        })
        .collect();
    println!("cells taken away from density's, by their rank among its candidates: {}", ranks.join("; "));
}

/// The leaf of the held-out measurement: cut after `HELD_LEAF_DEPTH` probes (default 0:
/// not cut), the weights `HELD_LEAF_COEF` (comma-separated, default lookahead's `LEAF`).
fn held_leaf() -> Option<spot_the_ships::strategy::lookahead::Leaf> {
    use spot_the_ships::strategy::lookahead::{Leaf, LEAF};
    let depth = env_or("HELD_LEAF_DEPTH", 0.0) as usize;
    let mut coef = LEAF;
    if let Ok(text) = std::env::var("HELD_LEAF_COEF") {
        for (c, v) in coef.iter_mut().zip(text.split(',')) {
            *c = v.trim().parse().expect("a number");
        }
    }
    (depth > 0).then_some(Leaf { depth, coef })
}

/// The CPU time the calling thread has run, in seconds (Linux's
/// `/proc/thread-self/schedstat`, nanoseconds on the CPU); 0 where it cannot be read.
fn thread_cpu_seconds() -> f64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    text.split_whitespace().next().and_then(|ns| ns.parse::<f64>().ok()).map_or(0.0, |ns| ns / 1e9)
}

#[test]
fn the_thread_cpu_time_counts_work_not_sleep() {
    let start = thread_cpu_seconds();
    std::thread::sleep(std::time::Duration::from_millis(200));
    let slept = thread_cpu_seconds() - start;
    assert!(slept < 0.05, "asleep {slept} s");
    // Busy until a tenth of a CPU-second has run: never sooner by the wall clock.
    let (busy, mut x) = (std::time::Instant::now(), 0u64);
    while thread_cpu_seconds() - start - slept < 0.1 && busy.elapsed().as_secs() < 60 {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    let worked = thread_cpu_seconds() - start - slept;
    assert!(worked >= 0.1, "busy {worked} s in a minute");
    assert!(busy.elapsed().as_secs_f64() >= 0.1, "{worked} CPU-s in {:?}", busy.elapsed());
}

/// The classic boards `0..games` of simulate's seed `seed`.
fn classic_boards(rules: &Rules, seed: u64, games: u64) -> Vec<Board> {
    (0..games)
        .map(|g| {
            let mut ships = Vec::new();
            Placer::with_rules(10, 10, rules)
                .place(rules.fleet(), &mut Rng::for_stream(seed, g), &mut ships)
                .expect("fits");
            Board::with_rules(10, 10, ships, rules).expect("valid")
        })
        .collect()
}

/// The one-step improvement over density, exactly where density's games go most often:
/// the states of the classic 10x10 game that density reaches with probability at least
/// `TREE_REACH` (default 0.01), each weighed on the boards that reach it among
/// `TREE_BOARDS` boards (default 1,000,000) of simulate's seed `TREE_SEED` (default 99),
/// at most `TREE_EVAL` of them (default 100,000); the generator's law, not the posterior's
/// estimate. At each state, each of density's `TREE_K` best cells (default 6) is played
/// out by density on those boards, paired; a cell other than density's is taken when
/// its gain is more than `TREE_Z` standard errors (default 3), and the states after it
/// follow from that cell. Prints each state (its answers so far: m water, h hit, sN sunk
/// of kind N) and the first-order gain, each state's gain times its reach.
#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn one_step_advantage_on_the_likeliest_states() {
    let var = env_or;
    let (count, seed) = (var("TREE_BOARDS", 1e6) as u64, var("TREE_SEED", 99.0) as u64);
    let (eval, k) = (var("TREE_EVAL", 1e5) as usize, var("TREE_K", 6.0) as usize);
    let (least, z) = (var("TREE_REACH", 0.01), var("TREE_Z", 3.0));
    let rules = Rules::preset("classic").expect("a preset");
    let boards = classic_boards(&rules, seed, count);
    let started = std::time::Instant::now();
    let empty = Scan::new(&mut Referee::new(&boards[0]), &mut Silent).into_record();
    // A state: its record, the boards that reach it, its reach, its answers so far.
    let mut queue =
        std::collections::VecDeque::from([(empty, (0..boards.len()).collect::<Vec<_>>(), 1.0, String::new())]);
    let (mut gained, mut states, mut switched) = (0.0, 0, 0);
    while let Some((record, reaching, reach, answers)) = queue.pop_front() {
        let cands = {
            let (mut referee, mut silent) = (Referee::new(&boards[reaching[0]]), Silent);
            let scan = Scan::resume(&mut referee, &mut silent, record.clone());
            if scan.is_done() {
                continue;
            }
            Density::default().ranked(&scan, k).expect("ranked")
        };
        let Some(&first) = cands.first() else { continue };
        states += 1;
        let sample: Vec<&Board> = reaching.iter().take(eval).map(|&i| &boards[i]).collect();
        let rows = played_on(&sample, &record, &cands);
        let (mut chosen, mut gain, mut line) = (first, 0.0, String::new());
        for (j, &c) in cands.iter().enumerate().skip(1) {
            let g: Vec<f64> = rows.iter().map(|r| r[0] - r[j]).collect();
            let (mean, se) = mean_and_error(&g);
            line += &format!(" ({},{}) {mean:+.3}±{se:.3}", c.row, c.col);
            if mean > z * se && mean > gain {
                (chosen, gain) = (c, mean);
            }
        }
        switched += usize::from(chosen != first);
        gained += reach * gain;
        println!(
            "[{answers}] reach {reach:.4}, {} boards: density ({},{}), taken ({},{}), gain {gain:.3};{line}",
            sample.len(),
            first.row,
            first.col,
            chosen.row,
            chosen.col
        );
        // The states after the cell taken, by answer.
        let mut after: Vec<(String, ScanRecord, Vec<usize>)> = Vec::new();
        for &i in &reaching {
            let (mut referee, mut silent) = (Referee::new(&boards[i]), Silent);
            let mut scan = Scan::resume(&mut referee, &mut silent, record.clone());
            let tag = match scan.probe(chosen, Source::Density).expect("a probe") {
                Answer::Miss => "m".to_string(),
                Answer::Hit => "h".to_string(),
                Answer::Sunk(kind) => format!("s{}", kind.unwrap_or(9)),
            };
            match after.iter_mut().find(|a| a.0 == tag) {
                Some(a) => a.2.push(i),
                None => after.push((tag, scan.into_record(), vec![i])),
            }
        }
        for (tag, next, ids) in after {
            let r = reach * ids.len() as f64 / reaching.len() as f64;
            if r >= least {
                queue.push_back((next, ids, r, format!("{answers}{tag}")));
            }
        }
    }
    println!(
        "{states} states reached with probability at least {least}: another cell than density's taken at {switched}; first-order gain {gained:.3} scans a game; {:.0} s",
        started.elapsed().as_secs_f64()
    );
}

/// Density's scans on each of `boards` after `record` and each of `cands` (two threads).
fn played_on(boards: &[&Board], record: &ScanRecord, cands: &[Position]) -> Vec<Vec<f64>> {
    on_two_threads(boards, Density::default, |player, _, board| {
        let scans = cands.iter().map(|&c| played_out(player, board, record, c).expect("agrees"));
        scans.map(|n| n as f64).collect()
    })
}

/// `f(state, i, item)` for every item of `items` (`i` its index), on two threads (or
/// `MEASURE_THREADS`), each with its own `state()`; the results in no particular order.
fn on_two_threads<I: Sync, S, T: Send>(
    items: &[I],
    state: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, usize, &I) -> T + Sync,
) -> Vec<T> {
    let threads = (env_or("MEASURE_THREADS", 2.0) as usize).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (state, f) = (&state, &f);
                s.spawn(move || {
                    let mut own = state();
                    items
                        .iter()
                        .enumerate()
                        .skip(t)
                        .step_by(threads)
                        .map(|(i, item)| f(&mut own, i, item))
                        .collect::<Vec<T>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a measuring thread")).collect()
    })
}

/// The number in the environment variable `name`, or `default`.
fn env_or(name: &str, default: f64) -> f64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The mean of `xs` and its standard error.
fn mean_and_error(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (mean, (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) / n).sqrt())
}

/// Where density's misses are on the classic 10x10 game: probes made while no ship is
/// hit and afloat (hunting) and while one is (finishing it), over `PHASE_GAMES` boards
/// (default 2,000) of simulate's seed 5.
#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn density_misses_by_phase() {
    let games = std::env::var("PHASE_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let rules = Rules::preset("classic").expect("a preset");
    // [hunting, finishing] x [probes, misses]
    let mut tally = [[0usize; 2]; 2];
    for board in classic_boards(&rules, 5, games) {
        let (mut referee, mut silent) = (Referee::new(&board), Silent);
        let mut scan = Scan::new(&mut referee, &mut silent);
        let mut density = Density::default();
        while !scan.is_done() {
            let finishing = board.ships().any(|ship| {
                let hit = ship.cells().filter(|&p| scan.state(p) == CellState::Hit).count();
                hit > 0 && hit < ship.size()
            });
            let cell = density.ranked(&scan, 1).expect("ranked")[0];
            let answer = scan.probe(cell, Source::Density).expect("a probe");
            scan.end_step();
            let phase = &mut tally[usize::from(finishing)];
            phase[0] += 1;
            phase[1] += usize::from(!answer.is_hit());
        }
    }
    let n = games as f64;
    println!(
        "density on {games} classic boards, a game: hunting {:.2} probes, {:.2} misses; finishing a ship {:.2} probes, {:.2} misses",
        tally[0][0] as f64 / n,
        tally[0][1] as f64 / n,
        tally[1][0] as f64 / n,
        tally[1][1] as f64 / n
    );
}

#[test]
fn the_lookahead_strategy_gains_over_density_on_a_small_board() {
    // The strategy draws its layouts: with 1,024 a probe it comes between the best
    // possible and density on this board (the exact one-step lookahead, the plain
    // reference, is at 8.397; the strategy at 8.434; density at 8.463).
    let game = Game::under(3, 5, &[3, 2], true);
    let best = Misses::new(&game, Policy::Best).at_start();
    let density = played(&game, "density");
    let exact = played_by(&game, &mut Lookahead::new(Layouts::Exact(&game), 5, game.rules()));
    let strategy = played_by(&game, &mut spot_the_ships::strategy::Lookahead::with_layouts(1, 1024));
    assert!(best <= exact && best <= strategy && strategy < density - 0.02, "{best} {exact} {strategy} {density}");
}

/// The lookahead strategy (`spot-the-ships --strategy lookahead`, its layouts drawn from
/// the posterior) against the exact one-step lookahead over the same 5 cells, its plain
/// reference, and density, on small boards under classic rules, with
/// `STRATEGY_LAYOUTS` layouts a probe (default "256,1024,4096").
#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn the_lookahead_strategy_against_the_exact_lookahead() {
    let spec = std::env::var("STRATEGY_LAYOUTS").unwrap_or_else(|_| "256,1024,4096".to_string());
    let counts: Vec<usize> = spec.split(',').filter_map(|n| n.trim().parse().ok()).collect();
    let heads: Vec<String> = counts.iter().map(|n| format!("lookahead, {n} layouts")).collect();
    println!("| board | fleet | density | lookahead, exact | {} |", heads.join(" | "));
    println!("|---|---|---|---|{}", "---|".repeat(counts.len()));
    for (words, game, _) in cases_of("4x4 3,2;3x5 3,2;4x5 3,2", true) {
        let cells = game.ship_cells() as f64;
        let density = cells + played(&game, "density");
        let exact = cells + played_by(&game, &mut Lookahead::new(Layouts::Exact(&game), 5, game.rules()));
        let sampled: Vec<String> = counts
            .iter()
            .map(|&n| played_by(&game, &mut spot_the_ships::strategy::Lookahead::with_layouts(1, n)))
            .map(|misses| format!("{:.3}", cells + misses))
            .collect();
        println!("| {} | {} | {density:.3} | {exact:.3} | {} |", words[0], words[1], sampled.join(" | "));
    }
}

/// Where lookahead's choosing noise comes from, on the classic 10x10 game: at every state
/// of density's games on `DIAG_GAMES` boards (default 16) of seed `DIAG_SEED` (default
/// 2021), density's 5 best cells are played out on `DIAG_LAYOUTS` layouts (default
/// 2,048), and for each candidate j the paired difference D_j = S_j - S_1 (its scans less
/// density's cell's) is regressed on the candidates' first answers (h_k = 1 when
/// candidate k is a ship cell on the layout). Summed over states, by phase (hunting: no
/// ship hit and afloat), prints the share of Var(D_j) each explains (R²): all five
/// answers linearly, density's and j's with their product, the full answer pattern
/// (within-pattern means); and the CPU time of the rollouts by phase.
#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn the_first_answers_explain_the_choosing_noise() {
    use spot_the_ships::strategy::lookahead::{hit_afloat, least_squares, Lookahead};
    let games = env_or("DIAG_GAMES", 16.0) as u64;
    let seed = env_or("DIAG_SEED", 2021.0) as u64;
    let n = env_or("DIAG_LAYOUTS", 2048.0) as usize;
    let rules = Rules::preset("classic").expect("a preset");
    let boards = classic_boards(&rules, seed, games);
    // Per phase (0 hunting, 1 a ship hit): states, ΣVar, Σresidual (5 linear, pair, pattern), CPU-s.
    let per_game = on_two_threads(
        &boards,
        || (),
        |_, g, board| {
            let mut look = Lookahead::with_layouts(g as u64 + 77, n);
            let mut ranker = Density::default();
            let mut sums = [[0.0f64; 6]; 2];
            let mut referee = Referee::new(board);
            let mut silent = Silent;
            let mut scan = Scan::new(&mut referee, &mut silent);
            while !scan.is_done() {
                let cands = ranker.ranked(&scan, CANDIDATES).expect("ranked");
                let phase = usize::from(hit_afloat(&scan, &rules));
                if cands.len() == CANDIDATES {
                    let (mut rows, mut answers) = (Vec::new(), Vec::new());
                    let cpu = thread_cpu_seconds();
                    look.roll_out_answers(&scan, &rules, &cands, n, &mut rows, &mut answers);
                    let s = &mut sums[phase];
                    s[5] += thread_cpu_seconds() - cpu;
                    s[0] += 1.0;
                    let w: Vec<f64> = rows.iter().map(|r| r.0).collect();
                    let bit = |a: u32, k: usize| f64::from((a >> k) & 1);
                    let all: Vec<Vec<f64>> = answers.iter().map(|&a| (0..5).map(|k| bit(a, k)).collect()).collect();
                    let patterns: Vec<Vec<f64>> =
                        answers.iter().map(|&a| (1..32).map(|p| f64::from(u8::from(a == p))).collect()).collect();
                    for j in 1..CANDIDATES {
                        let d: Vec<f64> = rows.iter().map(|r| r.1[j] - r.1[0]).collect();
                        let pair: Vec<Vec<f64>> =
                            answers.iter().map(|&a| vec![bit(a, 0), bit(a, j), bit(a, 0) * bit(a, j)]).collect();
                        s[1] += least_squares(&w, &vec![vec![]; d.len()], &d).residual;
                        s[2] += least_squares(&w, &all, &d).residual;
                        s[3] += least_squares(&w, &pair, &d).residual;
                        s[4] += least_squares(&w, &patterns, &d).residual;
                    }
                }
                let cell = ranker.ranked(&scan, 1).expect("ranked")[0];
                scan.probe(cell, Source::Density).expect("a probe");
                scan.end_step();
            }
            sums
        },
    );
    for (phase, name) in ["hunting", "a ship hit and afloat"].iter().enumerate() {
        let mut s = [0.0; 6];
        for g in &per_game {
            for (t, v) in s.iter_mut().zip(g[phase]) {
                *t += v;
            }
        }
        println!(
            "{name}: {:.1} states a game, {:.2} CPU-s of rollouts a game ({n} layouts); mean Var(D_j) {:.2}; R² of the five first answers {:.3}, of density's and j's with their product {:.3}, of the answer pattern {:.3}",
            s[0] / games as f64,
            s[5] / games as f64,
            s[1] / (s[0] * 4.0),
            1.0 - s[2] / s[1],
            1.0 - s[3] / s[1],
            1.0 - s[4] / s[1]
        );
    }
}

/// Fits lookahead's leaf estimate ([`spot_the_ships::strategy::lookahead::Leaf`]) on the
/// classic 10x10 game: at every state of density's games on `LEAF_GAMES` boards (default
/// 32) of seed `LEAF_SEED` (default 5), density's 5 best cells are played out to the end
/// on `LEAF_LAYOUTS` layouts (default 128), and for each game still apart from the others
/// after `LEAF_DEPTH` probes (default 8) its features then and the scans it made from
/// there are kept. Prints the least-squares weights (the leaf, for `LEAF` in
/// lookahead.rs) with its R², the share of the rollouts' probes made past the depth, and,
/// on the other half of the boards, how the cut rollouts' paired differences D_j compare
/// with the full ones: their variance, and their mean difference (the leaf's bias) by phase.
#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn fit_the_leaf() {
    use spot_the_ships::strategy::lookahead::{hit_afloat, least_squares, Leaf, Lookahead, Traced, LEAF_FEATURES};
    // A state: its board, whether a ship is hit and afloat, its rows and their traces.
    type TracedState = (usize, bool, Vec<(f64, Vec<f64>)>, Vec<Vec<Traced>>);
    let games = env_or("LEAF_GAMES", 32.0) as u64;
    let seed = env_or("LEAF_SEED", 5.0) as u64;
    let n = env_or("LEAF_LAYOUTS", 128.0) as usize;
    let depth = env_or("LEAF_DEPTH", 8.0) as usize;
    let rules = Rules::preset("classic").expect("a preset");
    let boards = classic_boards(&rules, seed, games * 2);
    // Per board: per state, its phase, rows and traces.
    let states = on_two_threads(
        &boards,
        || (),
        |_, g, board| {
            let mut look = Lookahead::with_layouts(g as u64 + 991, n);
            let mut ranker = Density::default();
            let mut referee = Referee::new(board);
            let mut silent = Silent;
            let mut scan = Scan::new(&mut referee, &mut silent);
            let mut out: Vec<TracedState> = Vec::new();
            while !scan.is_done() {
                let cands = ranker.ranked(&scan, CANDIDATES).expect("ranked");
                if cands.len() == CANDIDATES {
                    let (mut rows, mut traced) = (Vec::new(), Vec::new());
                    look.roll_out_traced(&scan, &rules, &cands, n, depth, &mut rows, &mut traced);
                    out.push((g, hit_afloat(&scan, &rules), rows, traced));
                }
                scan.probe(cands[0], Source::Density).expect("a probe");
                scan.end_step();
            }
            out
        },
    );
    let states: Vec<_> = states.into_iter().flatten().collect();
    let (fit_on, test_on): (Vec<_>, Vec<_>) = states.iter().partition(|s| (s.0 as u64) < games);
    let (mut w, mut x, mut y, mut past, mut all) = (Vec::new(), Vec::new(), Vec::new(), 0.0, 0.0);
    for (_, _, rows, traced) in &fit_on {
        for ((weight, _), lanes) in rows.iter().zip(traced) {
            for (f, rest) in lanes.iter().flatten() {
                w.push(*weight);
                x.push(f.to_vec());
                y.push(*rest);
                past += weight * rest;
                all += weight * (rest + depth as f64);
            }
        }
    }
    let fit = least_squares(&w, &x, &y);
    let total: f64 = w.iter().sum();
    let mean = w.iter().zip(&y).map(|(a, b)| a * b).sum::<f64>() / total;
    let var = w.iter().zip(&y).map(|(a, b)| a * (b - mean).powi(2)).sum::<f64>() / total;
    println!(
        "leaf after {depth} probes, fitted on {} games still apart ({games} boards of seed {seed}, {n} layouts a state): coef {:?}; R² {:.3}, residual sd {:.2} scans; {:.1}% of those games' probes are past the depth",
        y.len(),
        fit.coef,
        1.0 - fit.residual / var,
        fit.residual.sqrt(),
        100.0 * past / all
    );
    let mut coef = [0.0; LEAF_FEATURES + 1];
    for (c, v) in coef.iter_mut().zip(&fit.coef) {
        *c = *v;
    }
    let leaf = Leaf { depth, coef };
    // On the other boards: Var(D_j) full and cut, and the mean of (cut - full), by phase:
    // its root mean square over states, and that less the layouts' own noise (the
    // variance of cut - full over the layouts, each state's over its effective number).
    for hunting in [true, false] {
        let (mut vf, mut vc, mut bias, mut bias2, mut noise, mut count) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        for (_, _, rows, traced) in test_on.iter().filter(|s| s.1 != hunting) {
            let cut: Vec<Vec<f64>> = rows
                .iter()
                .zip(traced)
                .map(|((_, scans), lanes)| {
                    scans.iter().zip(lanes).map(|(s, t)| t.map_or(*s, |(f, rest)| s - rest + leaf.value(&f))).collect()
                })
                .collect();
            let ws: Vec<f64> = rows.iter().map(|r| r.0).collect();
            let tw: f64 = ws.iter().sum();
            let effective = tw * tw / ws.iter().map(|w| w * w).sum::<f64>();
            let m = |v: &[f64]| ws.iter().zip(v).map(|(a, b)| a * b).sum::<f64>() / tw;
            let v = |v: &[f64]| {
                let mu = m(v);
                ws.iter().zip(v).map(|(a, b)| a * (b - mu).powi(2)).sum::<f64>() / tw
            };
            for j in 1..CANDIDATES {
                let df: Vec<f64> = rows.iter().map(|r| r.1[j] - r.1[0]).collect();
                let dc: Vec<f64> = cut.iter().map(|r| r[j] - r[0]).collect();
                let gap: Vec<f64> = dc.iter().zip(&df).map(|(c, f)| c - f).collect();
                vf += v(&df);
                vc += v(&dc);
                noise += v(&gap) / effective;
                let b = m(&gap);
                bias += b;
                bias2 += b * b;
                count += 1.0;
            }
        }
        println!(
            "{}: {} state-candidates; mean Var(D_j) full {:.2}, cut {:.2}; mean of the cut's mean D_j less the full's {:.4}, its root mean square {:.4}, of which the layouts' noise {:.4}: the leaf's own {:.4}",
            if hunting { "hunting" } else { "a ship hit and afloat" },
            count,
            vf / count,
            vc / count,
            bias / count,
            (bias2 / count).sqrt(),
            (noise / count).sqrt(),
            ((bias2 - noise) / count).max(0.0).sqrt()
        );
    }
}

/// Writes lookahead's opening book (src/strategy/lookahead/book.txt): the choices of
/// `Lookahead::new` under the default seed in every classic state a game reaches with a
/// chance of at least `BOOK_REACH` (default 0.001), the chances estimated on
/// `BOOK_SAMPLES` layouts (default 4,096). `BOOK_OUT` writes elsewhere. About 8 minutes.
#[test]
#[ignore = "makes lookahead's opening book (minutes)"]
fn make_the_lookahead_book() {
    use spot_the_ships::strategy::lookahead::book;
    let reach = env_or("BOOK_REACH", 0.001);
    let samples = env_or("BOOK_SAMPLES", 4096.0) as usize;
    let out = std::env::var("BOOK_OUT").unwrap_or_else(|_| "src/strategy/lookahead/book.txt".to_string());
    let rules = Rules::preset(book::GAME.0).expect("a preset");
    let mut look = spot_the_ships::strategy::Lookahead::new(spot_the_ships::strategy::DEFAULT_SEED).without_book();
    let (cpu, started) = (thread_cpu_seconds(), std::time::Instant::now());
    let (text, made) = book::make(&mut look, &rules, reach, samples).expect("a book");
    std::fs::write(&out, text).expect("written");
    println!(
        "{out}: {} states at a chance of at least {reach} ({samples} layouts a state); a game takes {:.2} probes from it on average; {:.0} CPU-s, {:.0} s",
        made.states,
        made.probes,
        thread_cpu_seconds() - cpu,
        started.elapsed().as_secs_f64()
    );
}

/// The kept book is what `book::make` writes with the settings its first line names:
/// every choice in it the search's own, and the same book made again.
#[test]
#[ignore = "makes lookahead's opening book again (minutes)"]
fn the_kept_lookahead_book_is_what_make_writes() {
    use spot_the_ships::strategy::lookahead::book;
    let (reach, samples) = book::made_with().expect("the book's first line");
    let rules = Rules::preset(book::GAME.0).expect("a preset");
    let mut look = spot_the_ships::strategy::Lookahead::new(spot_the_ships::strategy::DEFAULT_SEED).without_book();
    let (text, made) = book::make(&mut look, &rules, reach, samples).expect("a book");
    let kept = std::fs::read_to_string("src/strategy/lookahead/book.txt").expect("the kept book");
    assert!(text == kept, "the book made again differs from the kept one ({} states)", made.states);
}

/// Where `Lookahead::new`'s CPU time goes in a classic game: the share of its choosing
/// by the probe's number, and the share spent in states that more than one of the
/// games met (all games under one seed, so that a state's choice is the same in each):
/// what an opening book can save. `COST_GAMES` boards of seed 2021 (default 16).
#[test]
#[ignore = "measurement (about a minute on two threads)"]
fn lookahead_cost_by_probe() {
    let games = env_or("COST_GAMES", 16.0) as u64;
    let rules = Rules::preset("classic").expect("a preset");
    let boards = classic_boards(&rules, 2021, games);
    let per_game = on_two_threads(
        &boards,
        || (),
        |_, _, board| {
            let mut look = spot_the_ships::strategy::Lookahead::new(7);
            let mut referee = Referee::new(board);
            let mut silent = Silent;
            let mut scan = Scan::new(&mut referee, &mut silent);
            let mut choices = Vec::new();
            while !scan.is_done() {
                let record = scan.record();
                let known: Vec<Option<Answer>> =
                    (0..record.rows() * record.cols()).map(|i| record.answer_at(i)).collect();
                let known = format!("{known:?}");
                let cpu = thread_cpu_seconds();
                let (chosen, _) = look.decide(&scan).expect("a choice");
                choices.push((known, thread_cpu_seconds() - cpu));
                scan.probe(chosen, Source::Density).expect("a probe");
                scan.end_step();
            }
            choices
        },
    );
    let total: f64 = per_game.iter().flatten().map(|c| c.1).sum();
    let mut by_probe = vec![0.0; 101];
    for game in &per_game {
        for (k, c) in game.iter().enumerate() {
            by_probe[k.min(100)] += c.1;
        }
    }
    let mut so_far = 0.0;
    for (k, cpu) in by_probe.iter().enumerate().take(30) {
        so_far += cpu;
        println!("probe {}: {:.3} of the CPU time, {:.3} up to here", k + 1, cpu / total, so_far / total);
    }
    let mut met: HashMap<&str, (usize, f64)> = HashMap::new();
    for c in per_game.iter().flatten() {
        let e = met.entry(c.0.as_str()).or_default();
        *e = (e.0 + 1, e.1 + c.1);
    }
    for least in [2, 4, 8] {
        let (n, cpu) = met.values().filter(|e| e.0 >= least).fold((0, 0.0), |(n, c), e| (n + 1, c + e.1));
        println!("states met in at least {least} of the {games} games: {n}, {:.3} of the CPU time", cpu / total);
    }
    println!("{games} games, {:.2} CPU-s of choosing a game", total / games as f64);
}

/// How much of lookahead's rollout work the layouts could share. Density's choice is a
/// function of the answers so far, so a probe's rollouts on many layouts form a tree:
/// the five candidates' games played in step (a game joins an earlier one in the same
/// state, and a layout is settled once all have met or ended, as lookahead plays them),
/// a node for every sequence of the games' answers that some layout gives. A rollout
/// engine that played the tree would choose and update once a node instead of once a
/// layout. For every state of density's games on `SHARE_GAMES` classic boards of seed
/// 2021 (default 4), on `SHARE_LAYOUTS` layouts drawn there (default 1,024, lookahead's
/// batch): the games' probes as played now, as the tree would play them, and the ratio
/// (the most such sharing could save, before copying a state at each branch).
#[test]
#[ignore = "measurement (a few minutes)"]
fn lookahead_rollouts_shared_prefixes() {
    use spot_the_ships::posterior::{Estimator, Evidence, Prior, Settings};
    let games = env_or("SHARE_GAMES", 4.0) as u64;
    let n = env_or("SHARE_LAYOUTS", 1024.0) as usize;
    let rules = Rules::preset("classic").expect("a preset");
    let boards = classic_boards(&rules, 2021, games);
    let code = |a: Answer| match a {
        Answer::Miss => 0u8,
        Answer::Hit => 1,
        Answer::Sunk(None) => 2,
        Answer::Sunk(Some(k)) => u8::try_from(k).map_or(u8::MAX, |k| k.saturating_add(3)),
    };
    // Per phase (hunting, a ship hit and afloat): probes as played, probes of the tree.
    let per_game = on_two_threads(
        &boards,
        || (),
        |_, g, board| {
            let settings = Settings { prior: Prior::Uniform, samples: n, ..Settings::default() };
            let mut odds = Estimator::with_settings(g as u64, settings);
            let (mut drawn, mut totals) = (Vec::new(), [(0usize, 0usize); 2]);
            let mut player = Density::default();
            let mut referee = Referee::new(board);
            let mut silent = Silent;
            let mut scan = Scan::new(&mut referee, &mut silent);
            while !scan.is_done() {
                let cands = player.ranked(&scan, CANDIDATES).expect("ranked");
                let rules = scan.rules().clone();
                let afloat = spot_the_ships::strategy::lookahead::hit_afloat(&scan, &rules);
                let ev = Evidence { known: scan.record(), wrecks: None, rules: &rules };
                if cands.len() > 1 && odds.sample_layouts(&ev, n, &mut drawn).is_ok() {
                    // Each node (a prefix of the answers) and the probes made there.
                    let mut nodes: HashMap<Vec<u8>, usize> = HashMap::new();
                    let mut played = 0;
                    for l in &drawn {
                        let Ok(layout) = Board::with_rules(10, 10, l.ships.clone(), &rules) else { continue };
                        // Each game's record and next cell (None: ended or joined).
                        let mut lanes: Vec<(ScanRecord, Option<Position>)> =
                            cands.iter().map(|&c| (scan.record().clone(), Some(c))).collect();
                        let mut path = Vec::new();
                        loop {
                            let mut probes = 0;
                            for (record, next) in lanes.iter_mut() {
                                let Some(cell) = *next else { continue };
                                let mut referee = Referee::new(&layout);
                                let mut silent = Silent;
                                let mut sub = Scan::resume(&mut referee, &mut silent, record.clone());
                                let answer = sub.probe(cell, Source::Density).expect("a probe");
                                path.push(code(answer));
                                probes += 1;
                                *next =
                                    if sub.is_done() { None } else { Some(player.ranked(&sub, 1).expect("ranked")[0]) };
                                *record = sub.record().clone();
                            }
                            played += probes;
                            nodes.entry(path.clone()).or_insert(probes);
                            // A game in the state of an earlier one still playing joins it.
                            let mut done = false;
                            for j in 0..lanes.len() {
                                if lanes[j].1.is_none() {
                                    done |= lanes[j].0.hits() == layout_cells(&layout);
                                    continue;
                                }
                                let joins =
                                    (0..j).any(|k| lanes[k].1.is_some() && same_state(&lanes[k].0, &lanes[j].0));
                                if joins {
                                    lanes[j].1 = None;
                                }
                            }
                            let playing = lanes.iter().filter(|l| l.1.is_some()).count();
                            if playing == 0 || (playing == 1 && !done) {
                                break;
                            }
                        }
                    }
                    let t = &mut totals[usize::from(afloat)];
                    *t = (t.0 + played, t.1 + nodes.values().sum::<usize>());
                }
                let cell = cands[0];
                scan.probe(cell, Source::Density).expect("a probe");
                scan.end_step();
            }
            totals
        },
    );
    for (phase, name) in ["hunting", "a ship hit and afloat"].iter().enumerate() {
        let (now, tree) = per_game.iter().fold((0, 0), |(p, q), t| (p + t[phase].0, q + t[phase].1));
        println!(
            "{name}: {now} probes as played, {tree} as a tree would: {:.2} times",
            now as f64 / tree.max(1) as f64
        );
    }
    let (now, tree) = per_game.iter().fold((0, 0), |(p, q), t| (p + t[0].0 + t[1].0, q + t[0].1 + t[1].1));
    println!("{games} boards, {n} layouts a state: {:.2} times fewer probes in all", now as f64 / tree.max(1) as f64);
}

/// The ship cells of `board`.
fn layout_cells(board: &Board) -> usize {
    board.ships().map(|s| s.cells().count()).sum()
}

/// True when two records know the same of every cell (the state density sees).
fn same_state(a: &ScanRecord, b: &ScanRecord) -> bool {
    (0..a.rows() * a.cols()).all(|i| a.answer_at(i) == b.answer_at(i))
}

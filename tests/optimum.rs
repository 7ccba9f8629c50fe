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
//! are played on every layout and their scans averaged with the same weights.
//!
//! The measurement runs on demand: `cargo test --release --test all optimum:: -- --ignored
//! --nocapture`. The plain tests check the layout list against the generator, and the
//! recursion on boards small enough to reason about by hand.

use crate::layouts;

use spot_the_ships::game::board::Board;
use spot_the_ships::game::fleet::Fleet;
use spot_the_ships::game::placement::Placer;
use spot_the_ships::game::rng::Rng;
use spot_the_ships::game::rules::Rules;
use spot_the_ships::game::ship::Ship;
use spot_the_ships::scan::referee::Referee;
use spot_the_ships::strategy::{for_rules, solve};
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
        Game { rows, cols, fleet: fleet.to_vec(), classic, masks, ships, probs, layouts }
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
    let rules = game.rules();
    let mut strategy = for_rules(name, 2021, &rules).expect("a strategy for the rules");
    let mut sum = 0.0;
    for layout in &game.layouts {
        let board = Board::with_rules(game.rows, game.cols, layout.ships.clone(), &rules).expect("a valid layout");
        strategy.reseed(0);
        let record = solve(strategy.as_mut(), &mut Referee::new(&board)).expect("solved");
        sum += layout.prob * (record.scans() - game.ship_cells()) as f64;
    }
    sum
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

/// Prints the table of the cases of `spec` (`ROWSxCOLS SIZES [no-optimum]`, separated by
/// `;`) under classic rules or Problem G's, with the strategies `names` played.
fn measure(spec: &str, classic: bool, names: &[&str; 3]) {
    println!("Expected scans; the last two columns: greedy's and bayes' scans above the best possible.");
    println!(
        "| board | fleet | layouts | best possible | best of the 3 likeliest | greedy, exact | {} | {} | {} | greedy | bayes |",
        names[0], names[1], names[2]
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for case in spec.split(';').filter(|c| !c.trim().is_empty()) {
        let words: Vec<&str> = case.split_whitespace().collect();
        let dims: Vec<usize> = words[0].split('x').map(|n| n.parse().expect("ROWSxCOLS")).collect();
        let fleet: Vec<usize> = words[1].split(',').map(|n| n.parse().expect("a fleet like 3,2,1")).collect();
        let game = Game::under(dims[0], dims[1], &fleet, classic);
        let cells = game.ship_cells() as f64;
        let scans = |policy| cells + Misses::new(&game, policy).at_start();
        let best = (words.get(2) != Some(&"no-optimum")).then(|| scans(Policy::Best));
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

//! Simulation: many random boards, every chosen strategy on each of them (a paired
//! comparison), and the distribution of scans per strategy.
//!
//! Game `i` draws its board from `Rng::for_stream(seed, i)` and each seeded strategy
//! gets its own stream from the seed, `i` and its name, so results do not depend on
//! how many threads play or in which order: threads take blocks of games from a shared
//! counter and their integer tallies are added up at the end.

use crate::board::{Board, BoardError};
use crate::placement::{PlacementError, Placer};
use crate::record::ScanRecord;
use crate::rng::Rng;
use crate::rules::Rules;
use crate::scan::ScanError;
use crate::ship::Ship;
use crate::strategy::{self, ScanStrategy, StrategyError};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What to simulate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimConfig {
    /// Number of boards.
    pub games: u64,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The rules, and the fleet every board holds.
    pub rules: Rules,
    /// Strategy names; the first is the reference of the paired comparison.
    pub strategies: Vec<String>,
    /// Master seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
}

/// The tally of one strategy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrategyStats {
    /// Strategy name.
    pub name: String,
    /// `histogram[s]` = number of games that took `s` scans.
    pub histogram: Vec<u64>,
    /// Boards where this strategy needed fewer, as many, and more scans than the first
    /// strategy (`None` for the first).
    pub vs_first: Option<[u64; 3]>,
    /// For each earlier strategy `j` of the configuration, in order: boards where this
    /// strategy needed fewer, as many, and more scans than strategy `j` (empty for the
    /// first; entry 0 is `vs_first`).
    pub vs_earlier: Vec<[u64; 3]>,
    /// Time spent in this strategy, summed over threads.
    pub busy: Duration,
}

/// Everything a simulation measured.
#[derive(Debug, Clone)]
pub struct SimResult {
    /// The configuration run.
    pub config: SimConfig,
    /// One tally per strategy, in the configuration's order.
    pub stats: Vec<StrategyStats>,
    /// Time spent placing fleets, summed over threads.
    pub placing: Duration,
    /// Wall time of the whole run.
    pub wall: Duration,
}

/// Why a simulation could not run.
#[derive(Debug, Clone, PartialEq)]
pub enum SimError {
    /// A strategy name is unknown, or the strategy cannot play the rules.
    Strategy(StrategyError),
    /// The fleet cannot be placed on the board.
    Placement(PlacementError),
    /// A strategy failed on a board (a bug: boards are valid).
    Scan {
        /// Strategy name.
        strategy: String,
        /// Game number.
        game: u64,
        /// The failure.
        error: ScanError,
    },
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Strategy(e) => write!(f, "{e}"),
            SimError::Placement(e) => write!(f, "{e}"),
            SimError::Scan { strategy, game, error } => write!(f, "strategy {strategy} failed on game {game}: {error}"),
        }
    }
}

impl std::error::Error for SimError {}

impl StrategyStats {
    /// Number of games tallied.
    /// Pre: none. Post: sum of the histogram.
    pub fn games(&self) -> u64 {
        self.histogram.iter().sum()
    }

    /// Mean number of scans.
    /// Pre: at least one game. Post: between `min()` and `max()`.
    pub fn mean(&self) -> f64 {
        let total: u128 = self.histogram.iter().enumerate().map(|(s, &g)| s as u128 * u128::from(g)).sum();
        total as f64 / self.games().max(1) as f64
    }

    /// Standard deviation of the scans (population).
    /// Pre: at least one game. Post: non-negative.
    pub fn stdev(&self) -> f64 {
        let mean = self.mean();
        let var: f64 =
            self.histogram.iter().enumerate().map(|(s, &g)| g as f64 * (s as f64 - mean).powi(2)).sum::<f64>()
                / self.games().max(1) as f64;
        var.sqrt()
    }

    /// The smallest scan count `v` such that at least `p` percent of games took at most
    /// `v` scans (nearest rank).
    /// Pre: `0 < p <= 100`. Post: a count with at least one game, or 0 without games.
    pub fn percentile(&self, p: f64) -> usize {
        let games = self.games();
        let rank = ((p / 100.0) * games as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (s, &g) in self.histogram.iter().enumerate() {
            seen += g;
            if seen >= rank {
                return s;
            }
        }
        0
    }

    /// Fewest scans in any game.
    /// Pre: none. Post: 0 without games.
    pub fn min(&self) -> usize {
        self.histogram.iter().position(|&g| g > 0).unwrap_or(0)
    }

    /// Most scans in any game.
    /// Pre: none. Post: 0 without games.
    pub fn max(&self) -> usize {
        self.histogram.iter().rposition(|&g| g > 0).unwrap_or(0)
    }

    /// Games per second of this strategy's own time (one thread).
    /// Pre: none. Post: 0 when no time was measured.
    pub fn games_per_second(&self) -> f64 {
        let secs = self.busy.as_secs_f64();
        if secs > 0.0 {
            self.games() as f64 / secs
        } else {
            0.0
        }
    }
}

/// A stable 64-bit hash of a strategy name (FNV-1a), to give each strategy its own
/// random stream.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The stream of strategy `name`'s seeds: on game `game` it is reseeded with
/// `Rng::for_stream(stream, game).next_u64()` (the name is hashed once per worker).
fn strategy_stream(seed: u64, name: &str) -> u64 {
    seed ^ name_hash(name)
}

/// The board of game `game` (the fleet placed with game `game`'s stream), built in
/// `ships` and `board` (of the configuration's size), reusing their memory.
fn refill_board(
    placer: &mut Placer,
    config: &SimConfig,
    game: u64,
    ships: &mut Vec<Ship>,
    board: &mut Board,
) -> Result<(), SimError> {
    let mut rng = Rng::for_stream(config.seed, game);
    placer.place(config.rules.fleet(), &mut rng, ships).map_err(SimError::Placement)?;
    // The placer's fleets obey the rules by construction (tested against the board's
    // own check, which debug builds also run here).
    board.refill_valid(ships);
    Ok(())
}

/// A board the placer produced was refused (a bug in the placer).
fn board_error(config: &SimConfig, e: &BoardError) -> SimError {
    SimError::Placement(PlacementError::CannotFit { rows: config.rows, cols: config.cols, why: e.to_string() })
}

/// Games a thread takes from the shared counter at a time.
const BLOCK: u64 = 1024;

/// Games whose boards a thread places before each strategy plays them all in turn: one
/// strategy's code and branch history stay warm for a batch, and the clock is read once
/// per strategy and batch instead of once per game. Large boards take fewer
/// ([`batch_for`]), so that a thread holds a few boards' worth of memory at most.
const BATCH: usize = 64;

/// Board cells a thread's batch may hold in all (about 2 MB of ship bits).
const BATCH_CELLS: usize = 1 << 24;

/// The batch of a board of `cells` cells: [`BATCH`], or fewer on large boards.
fn batch_for(cells: usize) -> usize {
    (BATCH_CELLS / cells.max(1)).clamp(1, BATCH)
}

/// One thread's tally.
struct Tally {
    histograms: Vec<Vec<u64>>,
    /// `vs[k][j]`: strategy k against each earlier strategy j (fewer, equal, more).
    vs: Vec<Vec<[u64; 3]>>,
    busy: Vec<Duration>,
    placing: Duration,
}

/// Runs the simulation; `done` counts the games each strategy finishes, one by one (for
/// progress: the run is over at `games * strategies`).
/// Pre: none. Post: `Ok` with one tally per strategy, each summing to `config.games`;
/// identical for any thread count.
pub fn simulate(config: &SimConfig, done: &AtomicU64) -> Result<SimResult, SimError> {
    for name in &config.strategies {
        strategy::for_rules(name, 0, &config.rules).map_err(SimError::Strategy)?;
    }
    Placer::with_rules(config.rows, config.cols, &config.rules)
        .check(config.rules.fleet())
        .map_err(SimError::Placement)?;
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let failure: Mutex<Option<SimError>> = Mutex::new(None);
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let workers: Vec<_> =
            (0..config.threads.max(1)).map(|_| scope.spawn(|| worker(config, &next, done, &failure))).collect();
        workers.into_iter().filter_map(|w| w.join().ok()).collect()
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let cells = config.rows * config.cols;
    let mut stats: Vec<StrategyStats> = config
        .strategies
        .iter()
        .enumerate()
        .map(|(k, name)| StrategyStats {
            name: name.clone(),
            histogram: vec![0; cells + 1],
            vs_first: None,
            vs_earlier: vec![[0; 3]; k],
            busy: Duration::ZERO,
        })
        .collect();
    let mut placing = Duration::ZERO;
    for t in &tallies {
        placing += t.placing;
        for (k, s) in stats.iter_mut().enumerate() {
            if let Some(h) = t.histograms.get(k) {
                s.histogram.iter_mut().zip(h).for_each(|(a, b)| *a += b);
            }
            s.busy += t.busy.get(k).copied().unwrap_or_default();
            if let Some(w) = t.vs.get(k) {
                for (v, w) in s.vs_earlier.iter_mut().zip(w) {
                    v.iter_mut().zip(w).for_each(|(a, b)| *a += b);
                }
            }
        }
    }
    for s in &mut stats {
        s.vs_first = s.vs_earlier.first().copied();
    }
    Ok(SimResult { config: config.clone(), stats, placing, wall: start.elapsed() })
}

/// Plays blocks of games until none are left or a failure is recorded.
fn worker(config: &SimConfig, next: &AtomicU64, done: &AtomicU64, failure: &Mutex<Option<SimError>>) -> Tally {
    let cells = config.rows * config.cols;
    let n = config.strategies.len();
    let mut strategies: Vec<Box<dyn ScanStrategy + Send>> =
        config.strategies.iter().filter_map(|name| strategy::for_rules(name, 0, &config.rules).ok()).collect();
    let mut tally = Tally {
        histograms: vec![vec![0; cells + 1]; n],
        vs: (0..n).map(|k| vec![[0; 3]; k]).collect(),
        busy: vec![Duration::ZERO; n],
        placing: Duration::ZERO,
    };
    let mut placer = Placer::with_rules(config.rows, config.cols, &config.rules);
    // Reused from batch to batch: the fleet, the batch's boards and the scan record.
    let mut ships = Vec::with_capacity(config.rules.fleet().len());
    let batch_size = batch_for(cells);
    let mut boards = Vec::with_capacity(batch_size);
    for _ in 0..batch_size {
        match Board::blank(config.rows, config.cols, &config.rules) {
            Ok(b) => boards.push(b),
            Err(e) => {
                if let Ok(mut f) = failure.lock() {
                    f.get_or_insert(board_error(config, &e));
                }
                return tally;
            }
        }
    }
    // scans[k * BATCH + g]: strategy k's scans on the batch's game g.
    let mut scans = vec![0usize; n * batch_size];
    let mut record = ScanRecord::new(config.rows, config.cols);
    let streams: Vec<u64> = strategies.iter().map(|s| strategy_stream(config.seed, s.name())).collect();
    loop {
        let first = next.fetch_add(BLOCK, Ordering::Relaxed);
        if first >= config.games || failure.lock().map(|f| f.is_some()).unwrap_or(true) {
            return tally;
        }
        let last = (first + BLOCK).min(config.games);
        for batch in (first..last).step_by(batch_size) {
            let games = batch..(batch + batch_size as u64).min(last);
            // Place the batch's boards, then let each strategy play all of them in turn.
            let t0 = Instant::now();
            for (game, board) in games.clone().zip(boards.iter_mut()) {
                if let Err(e) = refill_board(&mut placer, config, game, &mut ships, board) {
                    if let Ok(mut f) = failure.lock() {
                        f.get_or_insert(e);
                    }
                    return tally;
                }
            }
            let mut t = Instant::now();
            tally.placing += t - t0;
            for (k, s) in strategies.iter_mut().enumerate() {
                let stream = streams.get(k).copied().unwrap_or(0);
                let row = scans.get_mut(k * batch_size..(k + 1) * batch_size).unwrap_or_default();
                for ((game, board), slot) in games.clone().zip(boards.iter_mut()).zip(row.iter_mut()) {
                    s.reseed(Rng::for_stream(stream, game).next_u64());
                    match strategy::solve_reusing(s.as_mut(), board, std::mem::take(&mut record)) {
                        Ok(r) => {
                            *slot = r.scans();
                            record = r;
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(error) => {
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(SimError::Scan { strategy: s.name().to_string(), game, error });
                            }
                            return tally;
                        }
                    }
                }
                let now = Instant::now();
                tally.busy[k] += now - t;
                t = now;
            }
            for g in 0..(games.end - games.start) as usize {
                let of = |k: usize| scans.get(k * batch_size + g).copied().unwrap_or(0);
                for k in 0..n {
                    let s = of(k);
                    if let Some(h) = tally.histograms[k].get_mut(s) {
                        *h += 1;
                    }
                    for (j, v) in tally.vs[k].iter_mut().enumerate() {
                        let side = match s.cmp(&of(j)) {
                            std::cmp::Ordering::Less => 0,
                            std::cmp::Ordering::Equal => 1,
                            std::cmp::Ordering::Greater => 2,
                        };
                        v[side] += 1;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board of game `game`, built afresh: the plain reference for `refill_board`.
    fn game_board(placer: &mut Placer, config: &SimConfig, game: u64) -> Result<Board, SimError> {
        let mut rng = Rng::for_stream(config.seed, game);
        let mut ships = Vec::new();
        placer.place(config.rules.fleet(), &mut rng, &mut ships).map_err(SimError::Placement)?;
        Board::with_rules(config.rows, config.cols, ships, &config.rules).map_err(|e| board_error(config, &e))
    }

    fn config(games: u64, threads: usize) -> SimConfig {
        SimConfig {
            games,
            rows: 10,
            cols: 10,
            rules: Rules::problem_g(),
            strategies: ["random", "linear", "smart", "prob"].iter().map(|s| s.to_string()).collect(),
            seed: 1,
            threads,
        }
    }

    #[test]
    fn stats_from_a_histogram() {
        let s = StrategyStats {
            name: "x".into(),
            histogram: vec![0, 2, 0, 1, 1],
            vs_first: None,
            vs_earlier: Vec::new(),
            busy: Duration::ZERO,
        };
        assert_eq!(s.games(), 4);
        assert!((s.mean() - 2.25).abs() < 1e-12);
        assert!((s.stdev() - 1.6875f64.sqrt()).abs() < 1e-12);
        assert_eq!((s.min(), s.max()), (1, 4));
        assert_eq!((s.percentile(10.0), s.percentile(50.0), s.percentile(75.0), s.percentile(90.0)), (1, 1, 3, 4));
        assert_eq!(s.games_per_second(), 0.0);
    }

    #[test]
    fn same_results_for_one_and_two_threads() {
        let one = simulate(&config(3000, 1), &AtomicU64::new(0)).unwrap();
        let two = simulate(&config(3000, 2), &AtomicU64::new(0)).unwrap();
        for (a, b) in one.stats.iter().zip(&two.stats) {
            assert_eq!(a.histogram, b.histogram);
            assert_eq!(a.vs_earlier, b.vs_earlier);
            assert_eq!(a.games(), 3000);
        }
    }

    #[test]
    fn batches_give_the_results_of_playing_game_by_game() {
        // A game count that fills neither a block nor a batch, on three threads, against
        // the plain loop: each game's board, then each strategy reseeded and solved on it.
        let c = config(BLOCK + BATCH as u64 + 13, 3);
        let got = simulate(&c, &AtomicU64::new(0)).unwrap();
        let cells = c.rows * c.cols;
        let mut histograms = vec![vec![0u64; cells + 1]; c.strategies.len()];
        let mut vs = vec![vec![[0u64; 3]; c.strategies.len()]; c.strategies.len()];
        let mut placer = Placer::new(c.rows, c.cols);
        for game in 0..c.games {
            let board = game_board(&mut placer, &c, game).unwrap();
            let scans: Vec<usize> = c
                .strategies
                .iter()
                .map(|name| {
                    let mut s = strategy::by_name(name, 0).unwrap();
                    s.reseed(Rng::for_stream(strategy_stream(c.seed, name), game).next_u64());
                    strategy::solve(s.as_mut(), &mut board.clone()).unwrap().scans()
                })
                .collect();
            for (k, &n) in scans.iter().enumerate() {
                histograms[k][n] += 1;
                for (j, &m) in scans.iter().enumerate() {
                    vs[k][j][(n.cmp(&m) as i8 + 1) as usize] += 1;
                }
            }
        }
        for (k, stats) in got.stats.iter().enumerate() {
            assert_eq!(stats.histogram, histograms[k], "{}", stats.name);
            assert_eq!(stats.vs_first, (k > 0).then_some(vs[k][0]), "{}", stats.name);
            assert_eq!(stats.vs_earlier, vs[k][..k], "{}", stats.name);
        }
    }

    #[test]
    fn unknown_strategy_and_impossible_fleet_are_errors() {
        let mut c = config(10, 1);
        c.strategies.push("nope".into());
        assert!(matches!(simulate(&c, &AtomicU64::new(0)), Err(SimError::Strategy(StrategyError::Unknown(_)))));
        let mut c = config(10, 1);
        c.rules = Rules::preset("classic").unwrap();
        c.strategies = vec!["smart".into()];
        assert!(matches!(simulate(&c, &AtomicU64::new(0)), Err(SimError::Strategy(StrategyError::Unsupported { .. }))));
        let mut c = config(10, 1);
        c.rules = c.rules.with_fleet(crate::fleet::Fleet::of_sizes(&[5; 40]));
        assert!(matches!(simulate(&c, &AtomicU64::new(0)), Err(SimError::Placement(_))));
    }

    #[test]
    fn every_strategy_sees_the_same_boards() {
        let c = config(50, 1);
        let mut p1 = Placer::new(10, 10);
        let mut p2 = Placer::new(10, 10);
        for g in 0..50 {
            let a = game_board(&mut p1, &c, g).unwrap();
            let b = game_board(&mut p2, &c, g).unwrap();
            assert!(a.ships().eq(b.ships()));
        }
        // The worker's reusing version builds the same boards.
        let (mut ships, mut board) = (Vec::new(), Board::blank(10, 10, &c.rules).unwrap());
        for g in 0..50 {
            refill_board(&mut p1, &c, g, &mut ships, &mut board).unwrap();
            assert!(board.ships().eq(game_board(&mut p2, &c, g).unwrap().ships()));
        }
    }
}

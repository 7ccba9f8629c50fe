//! Simulation: many random boards, every chosen strategy on each of them (a paired
//! comparison), and the distribution of scans per strategy.
//!
//! Game `i` draws its board from `Rng::for_stream(seed, i)` and each seeded strategy
//! gets its own stream from the seed, `i` and its name, so results do not depend on
//! how many threads play or in which order: threads take blocks of games from a shared
//! counter and their integer tallies are added up at the end. For the same reason a
//! run can be split into shards (`SimConfig::shard`: the games `i` with `i mod N == K`)
//! whose tallies add up to the whole run's.
//!
//! A strategy may also be an outside program, a bot ([`crate::tools::simulate::arena`]): it plays the
//! same boards through the play protocol, one process per worker thread.

pub mod arena;
pub mod chart;
pub mod merge;
pub mod report;
pub mod setup;

use crate::game::board::{Board, BoardError};
use crate::game::placement::{PlacementError, Placer};
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::ship::Ship;
use crate::scan::record::ScanRecord;
use crate::scan::referee::Referee;
use crate::scan::ScanError;
use crate::strategy::{self, ScanStrategy, StrategyError};
use crate::tools::opponent;
use crate::tools::play::protocol::Header;
use crate::tools::simulate::arena::BotPlayer;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
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
    /// Strategy names; the first is the reference of the paired comparison. A name of
    /// `bots` is played by that program.
    pub strategies: Vec<String>,
    /// Master seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// `Some((k, n))`: play only the games `i < games` with `i mod n == k` (a shard of
    /// the run; `k < n`); `None`: every game.
    pub shard: Option<(u64, u64)>,
    /// Outside programs played as strategies: each one's name (also in `strategies`,
    /// and not a built-in strategy's) and its program and arguments.
    pub bots: Vec<(String, Vec<String>)>,
    /// The time a bot may take per probe (its process's first probe gets at least
    /// [`crate::tools::simulate::arena::STARTUP_TIME`]).
    pub move_time: Duration,
    /// When a bot forfeits a game: `true` counts the game `rows * cols` scans and the
    /// run goes on; `false` stops the run with [`SimError::Forfeit`].
    pub forfeit_as_max: bool,
    /// True: each game's fleet is placed as an opponent would
    /// ([`crate::tools::opponent`]); false: uniformly.
    pub opponent: bool,
}

impl SimConfig {
    /// The number of games this configuration plays: `games`, or its shard's share.
    /// Pre: a shard has `k < n`. Post: the shards `0/n` to `n-1/n` add up to `games`.
    pub fn played(&self) -> u64 {
        match self.shard {
            Some((k, n)) if n > 0 => {
                if k < self.games {
                    (self.games - 1 - k) / n + 1
                } else {
                    0
                }
            }
            _ => self.games,
        }
    }

    /// The game number of the `j`-th game played (`j < played()`).
    /// Pre: `j < played()`. Post: `j` without a shard, `k + j * n` with one.
    pub fn game_at(&self, j: u64) -> u64 {
        match self.shard {
            Some((k, n)) => k + j * n,
            None => j,
        }
    }

    /// The program and arguments of the bot called `name`.
    /// Pre: none. Post: `None` for a built-in strategy.
    pub fn bot(&self, name: &str) -> Option<&[String]> {
        self.bots.iter().find(|(n, _)| n == name).map(|(_, argv)| argv.as_slice())
    }
}

/// The tally of one strategy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrategyStats {
    /// Strategy name.
    pub name: String,
    /// Scan count -> number of games that took that many scans (no zero entries: a
    /// map, so that its memory follows the games played, not the board's cells).
    pub histogram: BTreeMap<usize, u64>,
    /// Boards where this strategy needed fewer, as many, and more scans than the first
    /// strategy (`None` for the first).
    pub vs_first: Option<[u64; 3]>,
    /// For each earlier strategy `j` of the configuration, in order: boards where this
    /// strategy needed fewer, as many, and more scans than strategy `j` (empty for the
    /// first; entry 0 is `vs_first`).
    pub vs_earlier: Vec<[u64; 3]>,
    /// Time spent in this strategy, summed over threads.
    pub busy: Duration,
    /// Games a bot forfeited, each counted as `rows * cols` scans (with
    /// `SimConfig::forfeit_as_max`; 0 for a built-in strategy).
    pub forfeits: u64,
    /// The forfeited game with the smallest number, and what the bot did.
    pub first_forfeit: Option<(u64, String)>,
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
    /// CPU time (user and system) the process used during the run, every thread's
    /// ([`process_cpu_time`]); `None` where the system does not tell. Bots' processes
    /// are not counted.
    pub cpu: Option<Duration>,
    /// Each strategy's CPU time: its threads' while they played it, in the
    /// configuration's order; empty where the system does not tell. A bot's is the
    /// referee's own work for it, not the bot's.
    pub strategy_cpu: Vec<Duration>,
}

/// The CPU time (user and system) this process has used so far, all its threads
/// together: `utime` and `stime` of `/proc/self/stat`, in clock ticks of 1/100 s
/// (Linux's `USER_HZ`).
/// Pre: none. Post: `None` where `/proc` is missing or unreadable; else a time that
/// never decreases from call to call.
pub fn process_cpu_time() -> Option<Duration> {
    stat_cpu_time(&std::fs::read_to_string("/proc/self/stat").ok()?)
}

/// `utime + stime` of a `/proc/PID/stat` line, fields 14 and 15 (the second field, the
/// command's name in parentheses, may hold spaces and parentheses: fields are counted
/// after its last `)`).
fn stat_cpu_time(stat: &str) -> Option<Duration> {
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_millis(utime.checked_add(stime)?.checked_mul(10)?))
}

/// Why a simulation could not run.
#[derive(Debug, Clone, PartialEq)]
pub enum SimError {
    /// A strategy name is unknown, or the strategy cannot play the rules.
    Strategy(StrategyError),
    /// The fleet cannot be placed on the board.
    Placement(PlacementError),
    /// A bot forfeited a game (without `forfeit_as_max`).
    Forfeit {
        /// The bot's name.
        bot: String,
        /// The game's number.
        game: u64,
        /// The run's master seed (with the number, it gives the board).
        seed: u64,
        /// What the bot did.
        why: String,
    },
    /// A bot's program could not be started.
    BotStart {
        /// The bot's name.
        bot: String,
        /// Why.
        why: String,
    },
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
            // Memory is short for the board whatever the strategy and the game.
            SimError::Scan { error: error @ ScanError::OutOfMemory(_), .. } => write!(f, "{error}"),
            SimError::Scan { strategy, game, error } => write!(f, "strategy {strategy} failed on game {game}: {error}"),
            SimError::Forfeit { bot, game, seed, why } => {
                // Game 0 is the first of a run of one game; game g the last of shard g/(g+1).
                let shard = if *game == 0 { String::new() } else { format!(" --shard {game}/{}", game + 1) };
                write!(
                    f,
                    "bot {bot} forfeited game {game} of seed {seed} (to replay that game alone: the same command with \
                     --games {}{shard}): {why}",
                    game + 1
                )
            }
            SimError::BotStart { bot, why } => write!(f, "bot {bot}: {why}"),
        }
    }
}

impl std::error::Error for SimError {}

impl StrategyStats {
    /// Number of games tallied.
    /// Pre: none. Post: sum of the histogram.
    pub fn games(&self) -> u64 {
        self.histogram.values().sum()
    }

    /// Number of games that took `scans` scans.
    /// Pre: none. Post: 0 when none did.
    pub fn games_at(&self, scans: usize) -> u64 {
        self.histogram.get(&scans).copied().unwrap_or(0)
    }

    /// Mean number of scans.
    /// Pre: at least one game. Post: between `min()` and `max()`.
    pub fn mean(&self) -> f64 {
        let total: u128 = self.histogram.iter().map(|(&s, &g)| s as u128 * u128::from(g)).sum();
        total as f64 / self.games().max(1) as f64
    }

    /// Standard deviation of the scans (population).
    /// Pre: at least one game. Post: non-negative.
    pub fn stdev(&self) -> f64 {
        let mean = self.mean();
        let var: f64 = self.histogram.iter().map(|(&s, &g)| g as f64 * (s as f64 - mean).powi(2)).sum::<f64>()
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
        for (&s, &g) in &self.histogram {
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
        self.histogram.keys().next().copied().unwrap_or(0)
    }

    /// Most scans in any game.
    /// Pre: none. Post: 0 without games.
    pub fn max(&self) -> usize {
        self.histogram.keys().next_back().copied().unwrap_or(0)
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
    opponent::place(config.opponent, placer, &config.rules, config.rows, config.cols, &mut rng, ships)
        .map_err(SimError::Placement)?;
    // The placer's fleets obey the rules by construction (tested against the board's
    // own check, which debug builds also run here).
    board.refill_valid(ships);
    Ok(())
}

/// A board the placer produced was refused (a bug in the placer).
fn board_error(config: &SimConfig, e: &BoardError) -> SimError {
    match e {
        BoardError::OutOfMemory(s) => SimError::Placement(PlacementError::OutOfMemory(*s)),
        e => {
            SimError::Placement(PlacementError::CannotFit { rows: config.rows, cols: config.cols, why: e.to_string() })
        }
    }
}

/// Games a thread takes from the shared counter at a time, at most.
const BLOCK: u64 = 1024;

/// Games a thread takes at a time when `played` games are shared by `threads`: about
/// an eighth of a thread's share, so that the threads end close together (a 1024-game
/// block taken last by one thread could leave the other idle for as long), but at least
/// a batch and at most [`BLOCK`].
fn block_for(played: u64, threads: usize, batch: usize) -> u64 {
    eighth_of_a_share(played, threads).clamp(batch.max(1) as u64, BLOCK)
}

/// An eighth of each thread's share of `played` games, at least 1: small enough that the
/// threads end close together.
fn eighth_of_a_share(played: u64, threads: usize) -> u64 {
    played.div_ceil(threads.max(1) as u64 * 8).max(1)
}

/// Games whose boards a thread places before each strategy plays them all in turn: one
/// strategy's code and branch history stay warm for a batch, and the clock is read once
/// per strategy and batch instead of once per game. Large boards take fewer
/// ([`batch_for`]), so that a thread holds a few boards' worth of memory at most.
const BATCH: usize = 64;

/// Board cells a thread's batch may hold in all (about 2 MB of ship bits).
const BATCH_CELLS: usize = 1 << 24;

/// The batch of a board of `cells` cells when `played` games are shared by `threads`:
/// [`BATCH`], or fewer on large boards, and fewer when the games are few (an eighth of a
/// thread's share at most, so that every thread gets games to play: a slow strategy, such
/// as lookahead's 16 seconds a game, would otherwise leave threads idle).
fn batch_for(cells: usize, played: u64, threads: usize) -> usize {
    let share = usize::try_from(eighth_of_a_share(played, threads)).unwrap_or(BATCH);
    (BATCH_CELLS / cells.max(1)).clamp(1, BATCH).min(share)
}

/// Scan counts below this are tallied in a plain array (the hot path of small boards);
/// the rest in a map, so that a thread's memory does not grow with the board.
const DENSE_SCANS: usize = 1 << 12;

/// One strategy's games by scan count, as one thread tallies them.
#[derive(Default)]
struct Counts {
    dense: Vec<u64>,
    sparse: BTreeMap<usize, u64>,
}

impl Counts {
    fn add(&mut self, scans: usize) {
        if scans < DENSE_SCANS {
            if self.dense.len() <= scans {
                self.dense.resize(DENSE_SCANS, 0);
            }
            if let Some(c) = self.dense.get_mut(scans) {
                *c += 1;
            }
        } else {
            *self.sparse.entry(scans).or_insert(0) += 1;
        }
    }

    /// Adds these counts into `histogram`.
    fn add_into(&self, histogram: &mut BTreeMap<usize, u64>) {
        let dense = self.dense.iter().enumerate().filter(|&(_, &g)| g > 0);
        for (s, &g) in dense.chain(self.sparse.iter().map(|(s, g)| (*s, g))) {
            *histogram.entry(s).or_insert(0) += g;
        }
    }
}

/// One thread's tally.
struct Tally {
    histograms: Vec<Counts>,
    /// `vs[k][j]`: strategy k against each earlier strategy j (fewer, equal, more).
    vs: Vec<Vec<[u64; 3]>>,
    busy: Vec<Duration>,
    placing: Duration,
    forfeits: Vec<u64>,
    first_forfeit: Vec<Option<(u64, String)>>,
    /// The thread's CPU time while it played each strategy (`None` where the system
    /// does not tell).
    cpu: Option<Vec<Duration>>,
}

/// A strategy as a worker plays it: built in, or an outside program.
enum Player {
    Builtin(Box<dyn ScanStrategy + Send>),
    Bot(BotPlayer),
}

/// Runs the simulation; `done` counts the games each strategy finishes, one by one (for
/// progress: the run is over at `played() * strategies`).
/// Pre: none. Post: `Ok` with one tally per strategy, each summing to
/// `config.played()`; identical for any thread count, and the tallies of the shards
/// `0/n` to `n-1/n` add up to the whole run's.
pub fn simulate(config: &SimConfig, done: &AtomicU64) -> Result<SimResult, SimError> {
    for name in config.strategies.iter().filter(|name| config.bot(name).is_none()) {
        strategy::for_rules(name, 0, &config.rules).map_err(SimError::Strategy)?;
    }
    Placer::with_rules(config.rows, config.cols, &config.rules)
        .check(config.rules.fleet())
        .map_err(SimError::Placement)?;
    let start = Instant::now();
    let cpu_start = process_cpu_time();
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
    let mut stats: Vec<StrategyStats> = config
        .strategies
        .iter()
        .enumerate()
        .map(|(k, name)| StrategyStats {
            name: name.clone(),
            histogram: BTreeMap::new(),
            vs_first: None,
            vs_earlier: vec![[0; 3]; k],
            busy: Duration::ZERO,
            forfeits: 0,
            first_forfeit: None,
        })
        .collect();
    let mut placing = Duration::ZERO;
    let mut strategy_cpu = vec![Duration::ZERO; stats.len()];
    let mut cpu_known = true;
    for t in &tallies {
        placing += t.placing;
        match &t.cpu {
            Some(cpu) => strategy_cpu.iter_mut().zip(cpu).for_each(|(total, c)| *total += *c),
            None => cpu_known = false,
        }
        for (k, s) in stats.iter_mut().enumerate() {
            if let Some(h) = t.histograms.get(k) {
                h.add_into(&mut s.histogram);
            }
            s.busy += t.busy.get(k).copied().unwrap_or_default();
            if let Some(w) = t.vs.get(k) {
                for (v, w) in s.vs_earlier.iter_mut().zip(w) {
                    v.iter_mut().zip(w).for_each(|(a, b)| *a += b);
                }
            }
            s.forfeits += t.forfeits.get(k).copied().unwrap_or(0);
            if let Some(Some((game, why))) = t.first_forfeit.get(k) {
                if s.first_forfeit.as_ref().is_none_or(|(g, _)| game < g) {
                    s.first_forfeit = Some((*game, why.clone()));
                }
            }
        }
    }
    for s in &mut stats {
        s.vs_first = s.vs_earlier.first().copied();
    }
    let wall = start.elapsed();
    let cpu = process_cpu_time().zip(cpu_start).map(|(end, start)| end.saturating_sub(start));
    if !cpu_known {
        strategy_cpu.clear();
    }
    Ok(SimResult { config: config.clone(), stats, placing, wall, cpu, strategy_cpu })
}

/// Plays blocks of games until none are left or a failure is recorded.
fn worker(config: &SimConfig, next: &AtomicU64, done: &AtomicU64, failure: &Mutex<Option<SimError>>) -> Tally {
    let n = config.strategies.len();
    let header = Header { rows: config.rows, cols: config.cols, rules: config.rules.clone() }.lines();
    let mut players: Vec<Player> = config
        .strategies
        .iter()
        .filter_map(|name| match config.bot(name) {
            Some(argv) => Some(Player::Bot(BotPlayer::new(argv.to_vec(), config.move_time, header.clone()))),
            None => strategy::for_rules(name, 0, &config.rules).ok().map(Player::Builtin),
        })
        .collect();
    let tally = Tally {
        histograms: (0..n).map(|_| Counts::default()).collect(),
        vs: (0..n).map(|k| vec![[0; 3]; k]).collect(),
        busy: vec![Duration::ZERO; n],
        placing: Duration::ZERO,
        forfeits: vec![0; n],
        first_forfeit: vec![None; n],
        cpu: Some(vec![Duration::ZERO; n]),
    };
    play_blocks(config, next, done, failure, &mut players, tally)
}

/// The worker's loop: plays blocks of games with `players` until none are left or a
/// failure is recorded, counting into `tally`.
fn play_blocks(
    config: &SimConfig,
    next: &AtomicU64,
    done: &AtomicU64,
    failure: &Mutex<Option<SimError>>,
    players: &mut [Player],
    mut tally: Tally,
) -> Tally {
    let cells = config.rows * config.cols;
    let n = config.strategies.len();
    let mut placer = Placer::with_rules(config.rows, config.cols, &config.rules);
    // Reused from batch to batch: the fleet, the batch's boards and the scan record.
    let mut ships = Vec::with_capacity(config.rules.fleet().len());
    let batch_size = batch_for(cells, config.played(), config.threads);
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
    // Shared with the bots' I/O threads while they play a batch (a board is copied only
    // when a thread stuck on a bot that lost still holds them).
    let mut boards = Arc::new(boards);
    // scans[k * BATCH + g]: strategy k's scans on the batch's game g.
    let mut scans = vec![0usize; n * batch_size];
    // Sized (fallibly) by the first scan.
    let mut record = ScanRecord::new(0, 0);
    let streams: Vec<u64> = config.strategies.iter().map(|name| strategy_stream(config.seed, name)).collect();
    let failed = || failure.lock().map(|f| f.is_some()).unwrap_or(true);
    // The counter and the blocks count the games played (`j`); game `config.game_at(j)`
    // is played, so a shard skips the other shards' games without changing a result.
    let played = config.played();
    let block = block_for(played, config.threads, batch_size);
    loop {
        let first = next.fetch_add(block, Ordering::Relaxed);
        if first >= played || failed() {
            return tally;
        }
        let last = (first + block).min(played);
        for batch in (first..last).step_by(batch_size) {
            if batch > first && failed() {
                return tally;
            }
            let local = batch..(batch + batch_size as u64).min(last);
            let games = local.clone().map(|j| config.game_at(j));
            // Place the batch's boards, then let each strategy play all of them in turn.
            let t0 = Instant::now();
            for (game, board) in games.clone().zip(Arc::make_mut(&mut boards).iter_mut()) {
                if let Err(e) = refill_board(&mut placer, config, game, &mut ships, board) {
                    if let Ok(mut f) = failure.lock() {
                        f.get_or_insert(e);
                    }
                    return tally;
                }
            }
            let mut t = Instant::now();
            tally.placing += t - t0;
            let mut cpu = crate::sys::thread_cpu_time().ok();
            for (k, player) in players.iter_mut().enumerate() {
                let stream = streams.get(k).copied().unwrap_or(0);
                let row = scans.get_mut(k * batch_size..(k + 1) * batch_size).unwrap_or_default();
                match player {
                    Player::Builtin(s) => {
                        let batch_boards = boards.iter();
                        for ((game, board), slot) in games.clone().zip(batch_boards).zip(row.iter_mut()) {
                            s.reseed(Rng::for_stream(stream, game).next_u64());
                            match strategy::solve_reusing(
                                s.as_mut(),
                                &mut Referee::new(board),
                                std::mem::take(&mut record),
                            ) {
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
                    }
                    Player::Bot(bot) => {
                        let name = config.strategies.get(k).cloned().unwrap_or_default();
                        let count = (local.end - local.start) as usize;
                        // Each game's number and the seed of the bot's random choices in
                        // it, from the same stream a built-in strategy of that name gets.
                        let starts: Arc<Vec<String>> = Arc::new(
                            games
                                .clone()
                                .map(|game| format!("game {game} {}\n", Rng::for_stream(stream, game).next_u64()))
                                .collect(),
                        );
                        let outcomes = match bot.play(&boards, &starts, count, config.forfeit_as_max) {
                            Ok(o) => o,
                            Err(why) => {
                                if let Ok(mut f) = failure.lock() {
                                    f.get_or_insert(SimError::BotStart { bot: name, why });
                                }
                                return tally;
                            }
                        };
                        for ((game, slot), outcome) in games.clone().zip(row.iter_mut()).zip(outcomes) {
                            match outcome {
                                Ok(n) => *slot = n,
                                Err(lost) if config.forfeit_as_max => {
                                    *slot = cells;
                                    tally.forfeits[k] += 1;
                                    if tally.first_forfeit[k].is_none() {
                                        tally.first_forfeit[k] = Some((game, lost.to_string()));
                                    }
                                }
                                Err(lost) => {
                                    if let Ok(mut f) = failure.lock() {
                                        let why = lost.to_string();
                                        f.get_or_insert(SimError::Forfeit { bot: name, game, seed: config.seed, why });
                                    }
                                    return tally;
                                }
                            }
                        }
                        done.fetch_add(count as u64, Ordering::Relaxed);
                    }
                }
                let now = Instant::now();
                tally.busy[k] += now - t;
                t = now;
                // This strategy's CPU time, or none at all once the clock fails.
                let cpu_now = crate::sys::thread_cpu_time().ok();
                match (cpu, cpu_now, tally.cpu.as_mut().and_then(|c| c.get_mut(k))) {
                    (Some(before), Some(after), Some(total)) => *total += after.saturating_sub(before),
                    _ => tally.cpu = None,
                }
                cpu = cpu_now;
            }
            for g in 0..(local.end - local.start) as usize {
                let of = |k: usize| scans.get(k * batch_size + g).copied().unwrap_or(0);
                for k in 0..n {
                    let s = of(k);
                    if let Some(h) = tally.histograms.get_mut(k) {
                        h.add(s);
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

/// The histogram whose count of `s` scans is `dense[s]` (tests write them as arrays).
#[cfg(test)]
pub(crate) fn dense_histogram(dense: &[u64]) -> BTreeMap<usize, u64> {
    dense.iter().enumerate().filter(|&(_, &g)| g > 0).map(|(s, &g)| (s, g)).collect()
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
            shard: None,
            bots: Vec::new(),
            move_time: Duration::from_secs(1),
            forfeit_as_max: false,
            opponent: false,
        }
    }

    #[test]
    fn stats_from_a_histogram() {
        let s = StrategyStats {
            name: "x".into(),
            histogram: dense_histogram(&[0, 2, 0, 1, 1]),
            vs_first: None,
            vs_earlier: Vec::new(),
            busy: Duration::ZERO,
            forfeits: 0,
            first_forfeit: None,
        };
        assert_eq!(s.games(), 4);
        assert!((s.mean() - 2.25).abs() < 1e-12);
        assert!((s.stdev() - 1.6875f64.sqrt()).abs() < 1e-12);
        assert_eq!((s.min(), s.max()), (1, 4));
        assert_eq!((s.percentile(10.0), s.percentile(50.0), s.percentile(75.0), s.percentile(90.0)), (1, 1, 3, 4));
        assert_eq!(s.games_per_second(), 0.0);
    }

    #[test]
    fn cpu_time_is_read_from_proc() {
        // Fields 14 and 15 after a command name holding spaces and parentheses.
        let line = "4242 (a (b) c) R 1 4242 4242 0 -1 4194304 96 0 0 0 250 31 0 0 20 0 3 0 1234 5000 300";
        assert_eq!(stat_cpu_time(line), Some(Duration::from_millis(2810)));
        assert_eq!(stat_cpu_time("4242 (x) R 1"), None);
        assert_eq!(stat_cpu_time("no parenthesis"), None);
        // This process and thread: readable on Linux, and growing with work done.
        if std::path::Path::new("/proc/self/stat").exists() {
            let p0 = process_cpu_time().unwrap();
            let spin = Instant::now();
            let mut x = 0u64;
            while spin.elapsed() < Duration::from_millis(60) {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
            let p1 = process_cpu_time().unwrap();
            assert!(p1 > p0, "{p0:?} {p1:?}");
            // A run reports its CPU time, and one share per strategy.
            let r = simulate(&config(3000, 2), &AtomicU64::new(0)).unwrap();
            assert!(r.cpu.is_some());
            assert_eq!(r.strategy_cpu.len(), 4);
            let shares: Duration = r.strategy_cpu.iter().sum();
            assert!(shares > Duration::ZERO && shares <= r.cpu.unwrap() + Duration::from_millis(50), "{r:?}");
        }
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
    fn few_games_are_shared_by_every_thread() {
        // An eighth of a thread's share at most: 4 games on 2 threads one at a time.
        assert_eq!(batch_for(100, 4, 2), 1);
        assert_eq!(batch_for(100, 200, 2), 13);
        assert_eq!(batch_for(100, 20_000, 2), BATCH);
        assert_eq!(batch_for(1 << 22, 20_000, 2), (BATCH_CELLS >> 22));
        assert_eq!(block_for(4, 2, batch_for(100, 4, 2)), 1);
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
                    strategy::solve(s.as_mut(), &mut Referee::new(&board)).unwrap().scans()
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
            assert_eq!(stats.histogram, dense_histogram(&histograms[k]), "{}", stats.name);
            assert_eq!(stats.vs_first, (k > 0).then_some(vs[k][0]), "{}", stats.name);
            assert_eq!(stats.vs_earlier, vs[k][..k], "{}", stats.name);
        }
    }

    #[test]
    fn shards_add_up_to_the_whole_run() {
        let whole = simulate(&config(BLOCK + 100, 2), &AtomicU64::new(0)).unwrap();
        let n = 3;
        type Sum = (BTreeMap<usize, u64>, Option<[u64; 3]>, Vec<[u64; 3]>);
        let mut sum: Vec<Sum> = whole
            .stats
            .iter()
            .map(|s| (BTreeMap::new(), s.vs_first.map(|_| [0; 3]), vec![[0; 3]; s.vs_earlier.len()]))
            .collect();
        let mut played = 0;
        for k in 0..n {
            let c = SimConfig { shard: Some((k, n)), ..config(BLOCK + 100, 2) };
            assert_eq!(c.played(), (BLOCK + 100 - k).div_ceil(n));
            let part = simulate(&c, &AtomicU64::new(0)).unwrap();
            played += c.played();
            for (s, (h, v, e)) in part.stats.iter().zip(sum.iter_mut()) {
                e.iter_mut().zip(&s.vs_earlier).for_each(|(a, b)| a.iter_mut().zip(b).for_each(|(x, y)| *x += y));
                assert_eq!(s.games(), c.played());
                s.histogram.iter().for_each(|(&scans, &g)| *h.entry(scans).or_insert(0) += g);
                if let (Some(v), Some(w)) = (v.as_mut(), s.vs_first) {
                    v.iter_mut().zip(w).for_each(|(a, b)| *a += b);
                }
            }
        }
        assert_eq!(played, BLOCK + 100);
        for (s, (h, v, e)) in whole.stats.iter().zip(&sum) {
            assert_eq!(&s.histogram, h, "{}", s.name);
            assert_eq!(&s.vs_first, v, "{}", s.name);
            assert_eq!(&s.vs_earlier, e, "{}", s.name);
        }
        // Shard k of n plays the games k, k + n, ...: one game alone is shard i of i + 1.
        let one = SimConfig { games: 8, shard: Some((7, 8)), ..config(0, 1) };
        assert_eq!((one.played(), one.game_at(0)), (1, 7));
        assert_eq!(SimConfig { games: 2, shard: Some((5, 8)), ..config(0, 1) }.played(), 0);
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
        c.rules = c.rules.with_fleet(crate::game::fleet::Fleet::of_sizes(&[5; 40]));
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

//! density's fast path for bays of at most 128 cells (the classic 10x10 game, Problem
//! G's, starwars's 12x10): the same totals and the same probes as the general path
//! (`density.rs`), with every position a 128-bit mask of its cells.
//!
//! What is known is four masks (unknown cells, hits, cells of sunk ships, cells a
//! position may not cover); a position's weight is 0 when its kind has no ship afloat,
//! when it covers a cell it may not cover or when it has no unknown cell, else
//! [`HIT_WEIGHT`] to the power of the hits not given to a sunk ship that it covers. Each
//! position's weight is kept, and the cell totals with it: a probe recomputes the
//! positions through its cell, a sunk answer those through the ship (and its
//! surroundings when ships may not touch) and its kind's, and a position whose weight
//! changed moves the difference onto its unknown cells. The best cell is found by a pass
//! over the unknown cells (first in row-major order among equals, or a uniform draw
//! among them for density-random, as the general path's tree does).
//!
//! The totals are exact sums, as the general path's are, only when they cannot
//! saturate a `u64`: [`Small::prepare`] refuses a fleet whose largest weight times the
//! positions through a cell could (a ship of 10 cells or more), and the general path
//! plays it.

use super::HIT_WEIGHT;
use crate::game::bay::Bay;
use crate::game::board::Board;
use crate::game::fleet::Fleet;
use crate::game::position::Position;
use crate::game::rng::Rng;
use crate::game::rules::{Rules, Sunk};
use crate::game::shape::Shape;
use crate::game::ship::Ship;
use crate::limits::memory::{self, OutOfMemory};
use crate::scan::observer::Source;
use crate::scan::record::CellState;
use crate::scan::sonar::Answer;
use crate::scan::{Scan, ScanError};
use crate::strategy::afloat::Afloat;
use crate::strategy::lookahead::{Leaf, Traced};

/// The most cells a bay may have for the fast path (one bit each in a `u128`).
pub(super) const MAX_CELLS: usize = 128;

/// The positions of a bay and fleet, kept from game to game, and one game's weights.
#[derive(Debug, Clone, Default)]
pub(super) struct Small {
    /// The bay and the shapes of each kind the table was built for.
    bay: Bay,
    shapes: Vec<Vec<Shape>>,
    /// Whether the table was built for them, and whether it fits ([`Small::prepare`]'s
    /// answer).
    built: bool,
    pub(super) ready: bool,
    /// Per cell, its halo as a mask (itself and its 8 neighbours: [`Bay::around`]),
    /// built once per bay.
    halos: Vec<u128>,
    /// Every position: its cells, and its kind.
    masks: Vec<u128>,
    kinds: Vec<usize>,
    /// The positions of kind `k`: `kind_starts[k]..kind_starts[k + 1]` (each kind's
    /// positions are listed together).
    kind_starts: Vec<usize>,
    /// The positions through cell `i`: `through[starts[i]..starts[i + 1]]`.
    starts: Vec<usize>,
    through: Vec<u32>,
    /// `HIT_WEIGHT` to the power of `h`, for `h` up to the largest ship's size.
    powers: Vec<u64>,
    /// This game's weight of each position.
    weights: Vec<u64>,
    /// This game's total of each unknown cell (0 for every other cell: `Game::best`
    /// relies on it).
    totals: Vec<u64>,
    /// The weights and totals of the last [`KEPT`] starts met (a new game's, and the
    /// states a lookahead's rollouts start from, a few a probe), the oldest replaced
    /// first: a game that starts from one of them copies them instead of weighing every
    /// position.
    kept: Vec<Kept>,
    /// The slot the next start replaces once [`KEPT`] are kept.
    next_kept: usize,
}

/// How many starts [`Small`] keeps the weights of: a lookahead's probe starts its
/// rollouts from its 5 candidates, each after a miss, a hit or a sunk answer.
const KEPT: usize = 32;

/// What a game starts from, as the weights see it: a position's weight depends on
/// these alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Start {
    unknown: u128,
    /// Hits not given to a sunk ship.
    live: u128,
    barred: u128,
    /// The kinds with no ship afloat, one bit each.
    gone: u64,
}

/// The weights and totals a start gives.
#[derive(Debug, Clone)]
struct Kept {
    start: Start,
    weights: Vec<u64>,
    totals: Vec<u64>,
}

/// The mask of cell `i` (0 beyond the 128 bits).
fn bit(i: usize) -> u128 {
    1u128.checked_shl(i as u32).unwrap_or(0)
}

/// The mask of `cells` of `bay` (the fast path's one way from cells to a mask).
/// Pre: the cells lie inside `bay`. Post: one bit per cell (none beyond the 128th).
fn mask_of(bay: Bay, cells: impl IntoIterator<Item = Position>) -> u128 {
    cells.into_iter().fold(0, |m, p| m | bit(bay.index(p)))
}

/// The cells of `mask`, lowest first.
fn bits(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(i)
    })
}

impl Small {
    /// The halo of a ship of cells `ship`: the union of its cells' halos (the mask form
    /// of `Bay::halo`).
    /// Pre: `prepare` built the table for the bay of `ship`. Post: cells of the bay.
    fn halo(&self, ship: u128) -> u128 {
        bits(ship).fold(0, |m, i| m | self.halos.get(i).copied().unwrap_or(0))
    }

    /// Builds (or keeps) the table of positions for `bay` and these shapes of each kind.
    /// Pre: none. Post: `Ok(true)` when the fast path can play this bay and fleet with
    /// exact totals (at most [`MAX_CELLS`] cells, no total can pass `u64::MAX`);
    /// `Ok(false)` when the general path must.
    pub(super) fn prepare(&mut self, bay: Bay, shapes: &[Vec<Shape>]) -> Result<bool, OutOfMemory> {
        if self.bay == bay && self.shapes == shapes && self.built {
            return Ok(self.ready);
        }
        (self.built, self.ready) = (true, false);
        self.bay = bay;
        let Bay { rows, cols } = bay; // the positions are enumerated by row and column
        self.shapes.clear();
        self.shapes.extend_from_slice(shapes);
        self.masks.clear();
        self.kinds.clear();
        self.kept.clear();
        let cells = bay.cells();
        if cells == 0 || cells > MAX_CELLS {
            return Ok(false);
        }
        self.halos.clear();
        for p in bay.positions() {
            memory::push(&mut self.halos, mask_of(bay, bay.around(p)))?;
        }
        let mut count = vec![0usize; cells];
        self.kind_starts.clear();
        for (k, kind) in shapes.iter().enumerate() {
            self.kind_starts.push(self.masks.len());
            for shape in kind {
                if shape.rows() > rows || shape.cols() > cols {
                    continue;
                }
                for r in 0..=rows - shape.rows() {
                    for c in 0..=cols - shape.cols() {
                        let mask = shape.cells().fold(0u128, |m, (dr, dc)| m | bit((r + dr) * cols + c + dc));
                        memory::push(&mut self.masks, mask)?;
                        memory::push(&mut self.kinds, k)?;
                        for i in bits(mask) {
                            if let Some(n) = count.get_mut(i) {
                                *n += 1;
                            }
                        }
                    }
                }
            }
        }
        self.kind_starts.push(self.masks.len());
        self.starts.clear();
        let mut at = 0;
        for &n in &count {
            self.starts.push(at);
            at += n;
        }
        self.starts.push(at);
        self.through.clear();
        memory::resize(&mut self.through, at, 0)?;
        let mut next = self.starts.clone();
        for (p, &mask) in self.masks.iter().enumerate() {
            for i in bits(mask) {
                if let (Some(slot), Some(n)) = (next.get_mut(i), u32::try_from(p).ok()) {
                    if let Some(t) = self.through.get_mut(*slot) {
                        *t = n;
                    }
                    *slot += 1;
                }
            }
        }
        let largest = shapes.iter().flatten().map(|s| s.size()).max().unwrap_or(0);
        self.powers = (0..=largest as u32).map_while(|h| HIT_WEIGHT.checked_pow(h)).collect();
        let most = count.iter().copied().max().unwrap_or(0) as u64;
        let top = self.powers.last().copied().and_then(|w| w.checked_mul(most)).and_then(|t| t.checked_add(1));
        self.ready = self.powers.len() == largest + 1 && top.is_some();
        Ok(self.ready)
    }
}

/// One game of the fast path: the table, what is known as masks, and the ships afloat.
pub(super) struct Game<'a> {
    pub(super) small: &'a mut Small,
    pub(super) afloat: Afloat,
    pub(super) fleet: &'a Fleet,
    pub(super) rules: &'a Rules,
    /// density-random's draws (`None`: ties go to the first cell).
    pub(super) rng: &'a mut Option<Rng>,
}

/// What is known, as masks.
#[derive(Debug, Clone, Copy)]
struct Known {
    unknown: u128,
    hits: u128,
    sunk: u128,
    /// Cells a position may not cover: known water, cells of sunk ships, and (when
    /// ships may not touch) the cells around sunk ships.
    barred: u128,
    /// The halos of sunk ships: their cells and the cells around (when ships may not
    /// touch; the cells themselves are in `sunk` too).
    halo: u128,
    /// Every cell of the bay.
    all: u128,
}

impl Known {
    fn bar(&mut self) {
        let live = self.hits & !self.sunk;
        self.barred = (self.all & !(self.unknown | live)) | self.sunk | self.halo;
    }
}

impl Game<'_> {
    /// The weight of position `p`.
    #[inline]
    fn weight(&self, p: usize, known: &Known) -> u64 {
        let (Some(&mask), Some(&k)) = (self.small.masks.get(p), self.small.kinds.get(p)) else { return 0 };
        if mask & known.barred != 0 || mask & known.unknown == 0 || self.afloat.left(k) == 0 {
            return 0;
        }
        // The hits a position covers are few: a loop beats a popcount without the
        // instruction (the default target has none).
        let mut live = mask & known.hits & !known.sunk;
        let mut h = 0;
        while live != 0 {
            live &= live - 1;
            h += 1;
        }
        self.small.powers.get(h).copied().unwrap_or(u64::MAX)
    }

    /// Recomputes position `p`'s weight and moves the difference onto its unknown cells.
    #[inline]
    fn refresh(&mut self, p: usize, known: &Known) {
        let new = self.weight(p, known);
        let (Some(&old), Some(&mask)) = (self.small.weights.get(p), self.small.masks.get(p)) else { return };
        if new == old {
            return;
        }
        for i in bits(mask & known.unknown) {
            if let Some(t) = self.small.totals.get_mut(i) {
                *t = t.wrapping_sub(old).wrapping_add(new);
            }
        }
        if let Some(w) = self.small.weights.get_mut(p) {
            *w = new;
        }
    }

    /// Marks the cells around the sunk ship `ship` (when ships may not touch).
    fn surround(&self, ship: u128, known: &mut Known) {
        if self.rules.touch() {
            return;
        }
        known.halo |= self.small.halo(ship);
    }

    /// The unknown cell of the highest total: the first among equals, or with random
    /// ties one of them drawn uniformly; and that total.
    fn best(&mut self, unknown: u128) -> Option<(usize, u64)> {
        let totals = &self.small.totals;
        if self.rng.is_none() {
            // Every known cell's total is 0 (weighing leaves them 0 and `apply` clears a
            // probed one's), so a highest total above 0 is an unknown cell's, the first
            // among equals in row-major order: a plain pass over the totals finds it
            // without walking the unknown cells' bits.
            let (mut first, mut value) = (0, 0);
            for (i, &t) in totals.iter().enumerate() {
                if t > value {
                    (first, value) = (i, t);
                }
            }
            if value > 0 {
                return Some((first, value));
            }
        }
        let mut top: Option<(usize, u64)> = None;
        for i in bits(unknown) {
            let t = totals.get(i).copied().unwrap_or(0);
            if top.is_none_or(|(_, b)| t > b) {
                top = Some((i, t));
            }
        }
        let (first, value) = top?;
        let Some(rng) = self.rng.as_mut() else { return Some((first, value)) };
        let tied = || bits(unknown).filter(|&i| totals.get(i) == Some(&value));
        let pick = rng.below(tied().count() as u64) as usize;
        tied().nth(pick).map(|i| (i, value))
    }

    /// What the weights depend on in state `known` (`None` for a fleet of more than 64
    /// kinds, whose starts are not kept).
    fn start(&self, known: &Known) -> Option<Start> {
        let kinds = self.fleet.kinds().len();
        if kinds > 64 {
            return None;
        }
        let gone = (0..kinds).filter(|&k| self.afloat.left(k) == 0).fold(0u64, |g, k| g | 1 << k);
        Some(Start { unknown: known.unknown, live: known.hits & !known.sunk, barred: known.barred, gone })
    }

    /// Keeps this game's weights and totals as those of `start`, in place of the oldest
    /// once [`KEPT`] are kept.
    fn keep(&mut self, start: Start) -> Result<(), OutOfMemory> {
        let small = &mut *self.small;
        let kept = Kept { start, weights: small.weights.clone(), totals: small.totals.clone() };
        if small.kept.len() < KEPT {
            return memory::push(&mut small.kept, kept);
        }
        if let Some(slot) = small.kept.get_mut(small.next_kept) {
            *slot = kept;
        }
        small.next_kept = (small.next_kept + 1) % KEPT;
        Ok(())
    }
}

impl Game<'_> {
    /// What `scan` knows, as masks (the ships afloat are this game's `afloat`).
    fn known_of(&self, scan: &Scan<'_>) -> Known {
        let mut known = Known { unknown: 0, hits: 0, sunk: 0, barred: 0, halo: 0, all: 0 };
        let bay = scan.bay();
        for i in 0..bay.cells() {
            let p = bay.position(i); // an index loop: cheaper here than `bay.positions()`
            known.all |= bit(i);
            match scan.state(p) {
                CellState::Unknown => known.unknown |= bit(i),
                CellState::Hit => known.hits |= bit(i),
                _ => {}
            }
            if self.afloat.is_sunk(p) {
                known.sunk |= bit(i);
            }
        }
        self.surround(known.sunk, &mut known);
        known.bar();
        known
    }

    /// Sets the table's weights and totals to those of state `known`: copied from a
    /// start kept, or weighed afresh (and kept).
    fn weigh(&mut self, known: &Known) -> Result<(), OutOfMemory> {
        let positions = self.small.masks.len();
        let cells = self.small.bay.cells();
        let start = self.start(known);
        let small = &mut *self.small;
        if let Some(kept) = small.kept.iter().find(|k| Some(k.start) == start) {
            // A start met before: its weights and totals.
            small.weights.clone_from(&kept.weights);
            small.totals.clone_from(&kept.totals);
            return Ok(());
        }
        self.small.weights.clear();
        memory::resize(&mut self.small.weights, positions, 0)?;
        self.small.totals.clear();
        memory::resize(&mut self.small.totals, cells, 0)?;
        for p in 0..positions {
            self.refresh(p, known);
        }
        match start {
            Some(start) => self.keep(start),
            None => Ok(()),
        }
    }

    /// The cell density probes in state `known` (its weights and totals in the table):
    /// the best cell, or when no position fits anywhere the first unknown cell next to
    /// a hit (see density.rs). `None` when no cell is unknown.
    fn choose(&mut self, known: &Known) -> Option<usize> {
        let (i, total) = self.best(known.unknown)?;
        if total > 0 {
            return Some(i);
        }
        let bay = self.small.bay;
        let beside = bits(known.unknown)
            .find(|&j| bay.neighbours4(bay.position(j)).any(|q| known.hits & bit(bay.index(q)) != 0));
        Some(beside.unwrap_or(i))
    }

    /// Takes in `answer` to the probe of cell `i`: the masks, the ships afloat, and the
    /// weights of the positions it changes with the totals.
    fn apply(&mut self, known: &mut Known, i: usize, answer: Answer) {
        let (bay, positions) = (self.small.bay, self.small.masks.len());
        known.unknown &= !bit(i);
        if let Some(t) = self.small.totals.get_mut(i) {
            *t = 0; // a known cell's total stays 0 (see `best`)
        }
        if answer.is_hit() {
            known.hits |= bit(i);
        }
        // A sunk ship: the cells whose positions change, and its kind if none of it is
        // afloat now.
        let mut sank: Option<(u128, usize)> = None;
        if let Answer::Sunk(kind) = answer {
            let hits = known.hits;
            let state = |p: Position| hits & bit(bay.index(p)) != 0;
            if let Some((k, ship)) = self.afloat.sink(bay.position(i), kind, self.rules, Some(self.fleet), state) {
                let mask = mask_of(bay, ship.cells());
                let halo = known.halo;
                known.sunk |= mask;
                self.surround(mask, known);
                let gone = if self.afloat.left(k) == 0 { k } else { usize::MAX };
                sank = Some((mask | bit(i) | (known.halo & !halo), gone));
            }
        }
        known.bar();
        // The positions through each changed cell, and every one of a kind gone: a
        // position met twice is refreshed twice, the second time with no change.
        let (changed, gone) = sank.unwrap_or((bit(i), usize::MAX));
        for c in bits(changed) {
            let (from, to) = (self.small.starts.get(c).copied(), self.small.starts.get(c + 1).copied());
            if let (Some(from), Some(to)) = (from, to) {
                for j in from..to {
                    let p = self.small.through.get(j).map_or(usize::MAX, |&p| p as usize);
                    self.refresh(p, known);
                }
            }
        }
        let (from, to) = (self.small.kind_starts.get(gone).copied(), self.small.kind_starts.get(gone + 1).copied());
        if let (Some(from), Some(to)) = (from, to) {
            for p in from..to.min(positions) {
                self.refresh(p, known);
            }
        }
    }

    /// Plays the game through `scan` until every ship cell is spotted.
    /// Pre: `scan` is of the size `prepare` was given. Post: as
    /// [`ScanStrategy::run`](crate::strategy::ScanStrategy::run).
    pub(super) fn play(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        let bay = scan.bay();
        let mut known = self.known_of(scan);
        self.weigh(&known).map_err(|e| scan.out_of_memory(e))?;
        while !scan.is_done() {
            let Some(i) = self.choose(&known) else { return Err(scan.exhausted()) };
            let answer = scan.probe(bay.position(i), Source::Density)?;
            self.apply(&mut known, i, answer);
            scan.end_step();
        }
        Ok(())
    }
}

/// A rollout's state as density's play sees it (what is known and which kinds are
/// afloat): two rollouts of one layout that reach the same key after as many probes
/// play on alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    unknown: u128,
    hits: u128,
    sunk: u128,
    /// Ships of each kind afloat, 4 bits a kind.
    left: u64,
}

/// One layout as rollouts see it: each ship's cells and the kind a sunk answer names
/// under named sunk rules, and every ship cell.
#[derive(Debug, Default, Clone)]
struct Layout {
    ships: Vec<(u128, Option<usize>)>,
    all: u128,
}

impl Layout {
    /// Reads `board`'s ships into this layout (its memory reused).
    fn read(&mut self, bay: Bay, board: &Board) {
        self.fill(bay, board.ships().enumerate().map(|(k, ship)| (ship, board.kind_of(k))));
    }

    /// Makes this layout of `ships`, each with its kind (its memory reused).
    fn fill(&mut self, bay: Bay, ships: impl Iterator<Item = (Ship, Option<usize>)>) {
        self.ships.clear();
        self.all = 0;
        for (ship, kind) in ships {
            let mask = mask_of(bay, ship.cells());
            self.ships.push((mask, kind));
            self.all |= mask;
        }
    }

    /// The answer to a probe of cell `i` when `hits` are the hits before it, as the
    /// referee gives it (`scan::referee::answer`) under sunk rules `sunk`.
    fn answer(&self, i: usize, hits: u128, sunk: Sunk) -> Answer {
        let Some(&(mask, kind)) = self.ships.iter().find(|s| s.0 & bit(i) != 0) else { return Answer::Miss };
        if sunk == Sunk::None || mask & !(hits | bit(i)) != 0 {
            return Answer::Hit;
        }
        Answer::Sunk(if sunk == Sunk::Named { kind } else { None })
    }
}

/// Where one candidate's rollout stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Still playing: the cell it probes next.
    Playing(usize),
    /// Every ship cell hit after this many probes.
    Done(usize),
    /// In the same state as the rollout of this (earlier) candidate after as many
    /// probes: it ends as that one does.
    Joined(usize),
}

/// One candidate's rollout: its state, weights, totals and ships afloat.
#[derive(Debug, Clone)]
struct Lane {
    known: Known,
    weights: Vec<u64>,
    totals: Vec<u64>,
    afloat: Afloat,
    stage: Stage,
    key: Option<Key>,
    /// When traced: the lane whose game this one followed at the traced depth.
    apart_at_trace: Option<usize>,
}

/// Density's games played out from one state on many layouts, each after one of a few
/// first cells: lookahead's rollouts, without a scan, a referee or a record. The state's
/// weights and totals are weighed once, and each rollout starts from a copy of them.
///
/// The candidates' rollouts of a layout are played in step, one probe each at a time.
/// Two that reach the same state after as many probes play on alike (density is a
/// function of the state), so the later one is joined to the earlier and stops; once
/// every rollout is joined to one, all end alike and the layout is settled: their
/// differences, all lookahead weighs, are 0. Candidates often meet within a few probes
/// (each probes the others' cells soon after its own when they miss), so most layouts
/// cost a few probes instead of a game per candidate. Many layouts kept together
/// ([`Rollouts::keep_ships`], [`Rollouts::play_kept`]) are played as a tree: layouts
/// that have answered alike share their games until their answers part, which takes
/// lookahead's batches about half the probes, for the same counts.
pub(crate) struct Rollouts<'a> {
    small: &'a mut Small,
    rules: Rules,
    fleet: Fleet,
    /// The state the rollouts start from, with its weights, totals and ships afloat.
    start: Lane,
    /// The scans made before the state.
    scans: usize,
    /// Density's own draws: none (ties go to the first cell).
    rng: Option<Rng>,
    /// One rollout per candidate (kept for their memory).
    lanes: Vec<Lane>,
    layout: Layout,
    /// Layouts kept to be played together as a tree ([`Rollouts::play_kept`]).
    kept: Vec<Layout>,
    /// The tree's copies of the games no longer in use (kept for their memory).
    spare: Vec<Vec<Lane>>,
}

impl<'a> Rollouts<'a> {
    /// Rollouts from `scan`'s state, `afloat` the ships it leaves afloat, under `rules`
    /// whose fleet is `fleet`.
    /// Pre: the table fits the bay ([`Small::prepare`] answered true). Post: `Err` when
    /// memory runs out.
    pub(super) fn new(
        small: &'a mut Small,
        scan: &Scan<'_>,
        rules: Rules,
        fleet: Fleet,
        afloat: Afloat,
    ) -> Result<Rollouts<'a>, OutOfMemory> {
        let mut rng = None;
        let mut game = Game { small: &mut *small, afloat, fleet: &fleet, rules: &rules, rng: &mut rng };
        let known = game.known_of(scan);
        game.weigh(&known)?;
        let afloat = game.afloat;
        let start = Lane {
            known,
            weights: small.weights.clone(),
            totals: small.totals.clone(),
            afloat,
            stage: Stage::Done(0),
            key: None,
            apart_at_trace: None,
        };
        Ok(Rollouts {
            small,
            rules,
            fleet,
            start,
            scans: scan.record().scans(),
            rng,
            lanes: Vec::new(),
            layout: Layout::default(),
            kept: Vec::new(),
            spare: Vec::new(),
        })
    }

    /// Plays density out on `board` after each of `cands` first, and appends to `out`
    /// one count per candidate whose differences are those of the scans density needs
    /// after each: the scans themselves, but where every candidate's game meets one
    /// (the same state after as many probes), the same count for all.
    /// Pre: `board` agrees with the state and is of its bay. Post: false, and `out` as
    /// it was, when a candidate is not an unknown cell or a game cannot be finished.
    pub(crate) fn play(&mut self, board: &Board, cands: &[Position], out: &mut Vec<usize>) -> bool {
        let Some((probes, _)) = self.step(board, cands, usize::MAX, None) else { return false };
        let Some(counts) = self.counts(&self.lanes, probes) else { return false };
        out.extend(counts);
        true
    }

    /// As [`Rollouts::play`], but the games still apart after `leaf.depth` probes stop
    /// there, each valued at those probes plus `leaf`'s estimate of the scans left
    /// ([`Leaf::value`]): `out` gets one value per candidate, whose differences estimate
    /// those of the scans. With `features`, the games are played to the end instead
    /// (exact counts, as [`Rollouts::play`]'s), and `features` gets, per candidate, the
    /// [`FEATURES`] of its game after `leaf.depth` probes and the scans it made from
    /// there to the end, when it was still playing apart then (to fit a leaf on).
    /// Pre: as [`Rollouts::play`]. Post: as [`Rollouts::play`].
    pub(crate) fn play_leaf(
        &mut self,
        board: &Board,
        cands: &[Position],
        leaf: &Leaf,
        out: &mut Vec<f64>,
        features: Option<&mut Vec<Traced>>,
    ) -> bool {
        let tracing = features.is_some();
        let mut seen = Vec::new();
        let stop = if tracing { usize::MAX } else { leaf.depth.max(1) };
        let trace = if tracing { Some((leaf.depth.max(1), &mut seen)) } else { None };
        let Some((probes, cut)) = self.step(board, cands, stop, trace) else { return false };
        let before = out.len();
        for j in 0..cands.len() {
            let value = match self.ending(j) {
                Some(Stage::Done(n)) if n != usize::MAX => n as f64,
                Some(Stage::Playing(_)) if !cut => probes as f64,
                Some(Stage::Playing(_)) => {
                    let lane = self.representative(j).and_then(|r| self.lanes.get(r));
                    probes as f64 + lane.map_or(0.0, |l| leaf.value(&self.features_of(l)))
                }
                _ => {
                    out.truncate(before);
                    return false;
                }
            };
            out.push(self.scans as f64 + value);
        }
        if let Some(features) = features {
            for j in 0..cands.len() {
                let at = seen.iter().find(|(l, _)| Some(*l) == self.representative_at(j)).map(|(_, f)| *f);
                let total = out.get(before + j).copied().unwrap_or(0.0) - self.scans as f64;
                features.push(at.map(|f| (f, total - leaf.depth.max(1) as f64)));
            }
        }
        true
    }

    /// Keeps the layout of `ships`, every ship of the fleet ordered by its kind in the
    /// fleet (as [`crate::posterior::Estimator::sample_layouts`] draws them): the layout
    /// of the board they make ([`Rollouts::play`] reads the same), without making it.
    /// Pre: `ships` make a board that agrees with the state, in that order. Post: one
    /// more layout kept.
    pub(crate) fn keep_ships(&mut self, ships: &[Ship]) {
        let mut kinds = self.fleet.kinds().iter().enumerate().flat_map(|(j, k)| std::iter::repeat_n(j, k.count));
        let mut layout = Layout::default();
        layout.fill(self.small.bay, ships.iter().map(|&ship| (ship, kinds.next())));
        self.kept.push(layout);
    }

    /// True when [`Rollouts::keep_ships`] keeps of `ships` what [`Rollouts::play`]
    /// reads of `board`, the board they make (tests).
    #[cfg(test)]
    pub(crate) fn keeps_alike(&mut self, board: &Board, ships: &[Ship]) -> bool {
        self.keep_ships(ships);
        let kept = self.kept.pop();
        let mut made = Layout::default();
        made.read(self.small.bay, board);
        kept.is_some_and(|k| k.ships == made.ships && k.all == made.all)
    }

    /// Plays density out after each of `cands` on every layout kept, as
    /// [`Rollouts::play`] on each in turn would, and forgets them: `out` gets, per layout
    /// in the order kept, the counts `play` gives, or `None` where it gives none. The
    /// layouts' games are played as a tree: density's choice depends only on the answers
    /// so far, so layouts that have given the same answers share one game, which chooses
    /// and takes in each answer once for all of them and parts where their answers part.
    /// Pre: as [`Rollouts::play`] for each layout; at most [`TREE_CANDIDATES`]
    /// candidates. Post: `kept` empty; `out` holds one entry per layout kept (it is
    /// cleared first), all `None` when there are more candidates.
    pub(crate) fn play_kept(&mut self, cands: &[Position], out: &mut Vec<Option<Vec<usize>>>) {
        out.clear();
        out.resize(self.kept.len(), None);
        // Every candidate's game from the state, when all are unknown cells.
        let bay = self.small.bay;
        let first =
            |c: &Position| Some(bay.index(*c)).filter(|&i| c.col < bay.cols && self.start.known.unknown & bit(i) != 0);
        let lanes: Option<Vec<Lane>> =
            cands.iter().map(|c| first(c).map(|i| Lane { stage: Stage::Playing(i), ..self.start.clone() })).collect();
        if let Some(lanes) = lanes.filter(|_| cands.len() <= TREE_CANDIDATES) {
            let kept = std::mem::take(&mut self.kept);
            let mut set: Vec<usize> = (0..kept.len()).collect();
            self.grow(&kept, &mut set, lanes, 0, out);
            self.kept = kept;
        }
        self.kept.clear();
    }

    /// One node of [`Rollouts::play_kept`]'s tree: the layouts `set`, which have given
    /// the same answers, and the candidates' games after `probes` probes each (`lanes`,
    /// still to play). Plays one probe of every game still playing, splits `set` by the
    /// answers, and goes on with each part until its games end as in [`Rollouts::step`].
    fn grow(
        &mut self,
        kept: &[Layout],
        set: &mut [usize],
        lanes: Vec<Lane>,
        probes: usize,
        out: &mut [Option<Vec<usize>>],
    ) {
        if let [k] = *set {
            // One layout: its games play on alone to the end, in place.
            let Some(layout) = kept.get(k) else { return };
            let (mut lanes, mut probes) = (lanes, probes);
            loop {
                probes += 1;
                match self.probe_all(layout, &mut lanes, probes) {
                    Some(true) => {
                        if let Some(slot) = out.get_mut(k) {
                            *slot = self.counts(&lanes, probes);
                        }
                        break;
                    }
                    Some(false) => {}
                    None => break,
                }
            }
            self.spare.push(lanes);
            return;
        }
        let sunk = self.rules.sunk();
        // Each layout's answers to the games' next probes, a byte a game (a bay of at
        // most MAX_CELLS cells holds at most 128 ships, so a sunk kind's code stays
        // below the byte of a game not playing).
        let answer_code = |a: Answer| match a {
            Answer::Miss => 0u8,
            Answer::Hit => 1,
            Answer::Sunk(None) => 2,
            Answer::Sunk(Some(k)) => u8::try_from(k).map_or(u8::MAX, |k| k.saturating_add(3)),
        };
        let codes = |l: &Layout| -> u64 {
            lanes.iter().fold(0u64, |key, lane| {
                let code = match lane.stage {
                    Stage::Playing(cell) => answer_code(l.answer(cell, lane.known.hits, sunk)),
                    _ => u8::MAX,
                };
                (key << 8) | u64::from(code)
            })
        };
        // The parts: layouts of the same answers together, each part in the order kept.
        let mut keyed: Vec<(u64, usize)> = set.iter().filter_map(|&k| kept.get(k).map(|l| (codes(l), k))).collect();
        keyed.sort();
        let mut parts: Vec<std::ops::Range<usize>> = Vec::new();
        for (i, (key, k)) in keyed.iter().enumerate() {
            if let Some(slot) = set.get_mut(i) {
                *slot = *k;
            }
            match parts.last_mut() {
                Some(r) if keyed.get(r.start).is_some_and(|(first, _)| first == key) => r.end = i + 1,
                _ => parts.push(i..i + 1),
            }
        }
        let count = parts.len();
        let mut lanes = Some(lanes);
        for (n, part) in parts.into_iter().enumerate() {
            // The last part takes the games themselves; the others a copy.
            let mut mine = match lanes.as_deref() {
                Some(from) if n + 1 < count => self.copy_of(from),
                _ => lanes.take().unwrap_or_default(),
            };
            let Some(layout) = set.get(part.start).and_then(|&k| kept.get(k)) else { continue };
            let ended = self.probe_all(layout, &mut mine, probes + 1);
            let Some(part_set) = set.get_mut(part) else { continue };
            match ended {
                Some(true) => {
                    for &k in part_set.iter() {
                        if let Some(slot) = out.get_mut(k) {
                            *slot = self.counts(&mine, probes + 1);
                        }
                    }
                }
                Some(false) => {
                    self.grow(kept, part_set, mine, probes + 1, out);
                    continue;
                }
                None => {}
            }
            self.spare.push(mine);
        }
    }

    /// A copy of the games `from`, in memory kept from earlier copies where there is.
    fn copy_of(&mut self, from: &[Lane]) -> Vec<Lane> {
        let mut lanes = self.spare.pop().unwrap_or_default();
        lanes.truncate(from.len());
        for (lane, f) in lanes.iter_mut().zip(from) {
            lane.known = f.known;
            lane.weights.clone_from(&f.weights);
            lane.totals.clone_from(&f.totals);
            lane.afloat.copy_from(&f.afloat);
            lane.stage = f.stage;
            lane.key = f.key;
            lane.apart_at_trace = f.apart_at_trace;
        }
        let have = lanes.len();
        lanes.extend(from.iter().skip(have).cloned());
        lanes
    }

    /// One probe of every game in `lanes` still playing, answered by `layout`, then the
    /// joins, as in [`Rollouts::step`]'s loop, `probes` the probes made after it.
    /// Pre: none. Post: `Some(true)` when the games end there (every one over, or all in
    /// one state), `Some(false)` when they play on, `None` past the bay's cells.
    fn probe_all(&mut self, layout: &Layout, lanes: &mut [Lane], probes: usize) -> Option<bool> {
        for lane in lanes.iter_mut() {
            let Stage::Playing(cell) = lane.stage else { continue };
            std::mem::swap(&mut lane.weights, &mut self.small.weights);
            std::mem::swap(&mut lane.totals, &mut self.small.totals);
            let mut game = Game {
                small: &mut *self.small,
                afloat: std::mem::take(&mut lane.afloat),
                fleet: &self.fleet,
                rules: &self.rules,
                rng: &mut self.rng,
            };
            let answer = layout.answer(cell, lane.known.hits, self.rules.sunk());
            game.apply(&mut lane.known, cell, answer);
            lane.stage = if layout.all & !lane.known.hits == 0 {
                Stage::Done(probes)
            } else {
                match game.choose(&lane.known) {
                    Some(next) => Stage::Playing(next),
                    None => Stage::Done(usize::MAX),
                }
            };
            lane.key = game.key(&lane.known);
            lane.afloat = game.afloat;
            std::mem::swap(&mut lane.weights, &mut self.small.weights);
            std::mem::swap(&mut lane.totals, &mut self.small.totals);
        }
        join(lanes);
        let playing = lanes.iter().filter(|l| matches!(l.stage, Stage::Playing(_))).count();
        let done = lanes.iter().any(|l| matches!(l.stage, Stage::Done(_)));
        if playing == 0 || (playing == 1 && !done) {
            return Some(true);
        }
        (probes <= MAX_CELLS).then_some(false)
    }

    /// The counts [`Rollouts::play`] gives for games ended as `lanes` after `probes`.
    fn counts(&self, lanes: &[Lane], probes: usize) -> Option<Vec<usize>> {
        (0..lanes.len())
            .map(|j| match ending_of(lanes, j) {
                Some(Stage::Done(n)) if n != usize::MAX => Some(self.scans + n),
                Some(Stage::Playing(_)) => Some(self.scans + probes),
                _ => None,
            })
            .collect()
    }

    /// The rollout candidate `j`'s game follows: its own, or through the joins the
    /// earlier one it met.
    fn representative(&self, j: usize) -> Option<usize> {
        representative_of(&self.lanes, j)
    }

    /// Where candidate `j`'s game ended (through its joins).
    fn ending(&self, j: usize) -> Option<Stage> {
        ending_of(&self.lanes, j)
    }

    /// The lane whose features a traced candidate `j` took: its representative at the
    /// traced depth (joins made later point to an earlier lane that was apart then, so
    /// the lane itself when it was not joined by then).
    fn representative_at(&self, j: usize) -> Option<usize> {
        self.lanes.get(j).map(|l| l.apart_at_trace.unwrap_or(j))
    }

    /// A lane's [`FEATURES`]: ship cells hit, hits on ships afloat, ships afloat,
    /// unknown cells, the sum over the kinds afloat of ln(1 + the positions of the kind
    /// that still fit), and the smallest size afloat.
    fn features_of(&self, lane: &Lane) -> [f64; FEATURES] {
        let known = &lane.known;
        let small = &*self.small;
        let mut fitting = vec![0usize; small.kind_starts.len().saturating_sub(1)];
        for (k, n) in fitting.iter_mut().enumerate() {
            let (Some(&from), Some(&to)) = (small.kind_starts.get(k), small.kind_starts.get(k + 1)) else { continue };
            if lane.afloat.left(k) > 0 {
                *n = lane.weights.get(from..to).unwrap_or_default().iter().filter(|&&w| w > 0).count();
            }
        }
        let spread: f64 = fitting.iter().map(|&n| (1.0 + n as f64).ln()).sum();
        let afloat: usize = (0..fitting.len()).map(|k| lane.afloat.left(k)).sum();
        let smallest = (0..fitting.len())
            .filter(|&k| lane.afloat.left(k) > 0)
            .filter_map(|k| small.shapes.get(k).and_then(|s| s.first()).map(|s| s.size()))
            .min()
            .unwrap_or(0);
        [
            f64::from(known.hits.count_ones()),
            f64::from((known.hits & !known.sunk).count_ones()),
            afloat as f64,
            f64::from(known.unknown.count_ones()),
            spread,
            smallest as f64,
        ]
    }

    /// Plays the candidates' games in step on `board` until every one has ended or
    /// joined another, or `stop` probes are made; with `trace`, records after `trace.0`
    /// probes the features of each lane still playing apart (its index and features).
    /// Pre: as [`Rollouts::play`]. Post: the probes made, and whether `stop` cut games
    /// still apart; `None` when a candidate is not an unknown cell or the games run past
    /// the bay.
    fn step(
        &mut self,
        board: &Board,
        cands: &[Position],
        stop: usize,
        mut trace: Option<(usize, &mut Seen)>,
    ) -> Option<(usize, bool)> {
        let bay = self.small.bay;
        self.layout.read(bay, board);
        while self.lanes.len() < cands.len() {
            self.lanes.push(self.start.clone());
        }
        self.lanes.truncate(cands.len());
        for (lane, c) in self.lanes.iter_mut().zip(cands) {
            let first = bay.index(*c);
            if c.col >= bay.cols || self.start.known.unknown & bit(first) == 0 {
                return None;
            }
            lane.known = self.start.known;
            lane.weights.copy_from_slice(&self.start.weights);
            lane.totals.copy_from_slice(&self.start.totals);
            lane.afloat.copy_from(&self.start.afloat);
            lane.stage = Stage::Playing(first);
            lane.apart_at_trace = None;
        }
        let mut probes = 0;
        loop {
            probes += 1;
            // One probe for every rollout still playing, then the joins.
            let (layout, mut lanes) = (std::mem::take(&mut self.layout), std::mem::take(&mut self.lanes));
            let ended = self.probe_all(&layout, &mut lanes, probes);
            (self.layout, self.lanes) = (layout, lanes);
            let within = match ended {
                // Every game over, or all in one state: they end alike from here.
                Some(true) => return Some((probes, false)),
                Some(false) => true,
                None => false,
            };
            // Games still apart: traced at the depth where a cut would value them.
            if let Some((depth, seen)) = trace.as_mut() {
                if probes == *depth {
                    for j in 0..self.lanes.len() {
                        let Some(r) = self.representative(j) else { continue };
                        if let Some(lane) = self.lanes.get(r).filter(|l| matches!(l.stage, Stage::Playing(_))) {
                            if r == j {
                                seen.push((j, self.features_of(lane)));
                            }
                        }
                    }
                    for j in 0..self.lanes.len() {
                        let r = self.representative(j);
                        if let Some(lane) = self.lanes.get_mut(j) {
                            lane.apart_at_trace = r;
                        }
                    }
                }
            }
            if probes >= stop {
                return Some((probes, true));
            }
            if !within {
                return None;
            }
        }
    }
}

/// Joins each game still playing to the first earlier one still playing in the same
/// state (they play on alike).
fn join(lanes: &mut [Lane]) {
    for j in 1..lanes.len() {
        let Some(lane) = lanes.get(j) else { break };
        if !matches!(lane.stage, Stage::Playing(_)) || lane.key.is_none() {
            continue;
        }
        let key = lane.key;
        let met = lanes.iter().take(j).position(|l| matches!(l.stage, Stage::Playing(_)) && l.key == key);
        if let (Some(l), Some(lane)) = (met, lanes.get_mut(j)) {
            lane.stage = Stage::Joined(l);
        }
    }
}

/// The game `j` of `lanes` follows: its own, or through the joins the earlier one it met.
fn representative_of(lanes: &[Lane], j: usize) -> Option<usize> {
    let mut at = j;
    loop {
        match lanes.get(at).map(|l| l.stage) {
            Some(Stage::Joined(l)) if l < at => at = l,
            Some(_) => return Some(at),
            None => return None,
        }
    }
}

/// Where game `j` of `lanes` ended, through its joins.
fn ending_of(lanes: &[Lane], j: usize) -> Option<Stage> {
    representative_of(lanes, j).and_then(|r| lanes.get(r)).map(|l| l.stage)
}

/// The most candidates [`Rollouts::play_kept`] plays (a layout's answers to their
/// probes are a byte each of one 64-bit word).
pub(crate) const TREE_CANDIDATES: usize = 8;

/// The lanes traced at a depth: each one's index and features.
type Seen = Vec<(usize, [f64; FEATURES])>;

/// How many features a leaf estimate weighs (see `Rollouts::features_of`).
pub(crate) const FEATURES: usize = 6;

impl Game<'_> {
    /// What state `known` is for joining rollouts (`None` for a fleet of more than 16
    /// kinds or 15 ships of a kind, whose rollouts are not joined).
    fn key(&self, known: &Known) -> Option<Key> {
        let kinds = self.fleet.kinds().len();
        if kinds > 16 {
            return None;
        }
        let mut left = 0u64;
        for k in 0..kinds {
            let n = self.afloat.left(k);
            if n > 15 {
                return None;
            }
            left |= (n as u64) << (4 * k);
        }
        Some(Key { unknown: known.unknown, hits: known.hits, sunk: known.sunk, left })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::position::Orientation;

    #[test]
    fn halo_masks_are_the_bays_halos() {
        let mut rng = Rng::new(9);
        let shapes = vec![vec![Shape::straight(1, Orientation::East)]];
        for (rows, cols) in [(1, 1), (1, 9), (9, 1), (3, 4), (8, 8), (10, 10), (11, 11), (1, 128), (128, 1)] {
            let mut small = Small::default();
            assert!(small.prepare(Bay::new(rows, cols), &shapes).unwrap());
            let bay = Bay::new(rows, cols);
            for _ in 0..100 {
                let ship: u128 = (0..rows * cols).filter(|_| rng.below(10) == 0).fold(0, |m, i| m | bit(i));
                let plain =
                    bay.halo_indices(bits(ship).map(|i| bay.position(i))).into_iter().fold(0, |m, i| m | bit(i));
                assert_eq!(small.halo(ship), plain, "{rows}x{cols} {ship:#x}");
            }
        }
    }
}

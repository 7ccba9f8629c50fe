//! lookahead: one step of lookahead over density (a rollout policy improvement).
//!
//! At every probe it takes density's [`CANDIDATES`] best cells, draws layouts that agree
//! with every answer so far (the posterior under the uniform prior,
//! [`Estimator::sample_layouts`]), and on each layout probes each candidate and lets
//! density play the game to the end. It probes the candidate of the fewest scans on
//! average over the layouts, density's own cell among equals. Density draws nothing at
//! random, so all the candidates meet the same layouts and the noise they share cancels
//! out; what is left is why the layouts must be many: with too few, the noise picks worse
//! cells than density's (report/results.md, "Classic Battleship").
//!
//! The rollouts are density's fast path without a scan (`density::small::Rollouts`),
//! the candidates' games of a layout played in step and joined where they meet, and the
//! layouts of a batch played together as a tree of their answers (density's choice
//! depends only on the answers so far, so layouts that answered alike share one game
//! until their answers part): the same choices as playing each rollout through a scan,
//! at a fraction of the cost. The
//! strategy draws up to [`LAYOUTS`] layouts a probe, [`BATCH`] at a time, and after each
//! batch drops a candidate whose scans exceed the leader's by more than [`ELIMINATE`]
//! standard errors of their paired difference; a probe is settled once one is left.
//! Measured held out, this gains as much as weighing every candidate on all the layouts
//! ([`Lookahead::with_layouts`], the plain lookahead) for two thirds of its CPU time;
//! dropping at 2 standard errors costs half but lost 0.07 scans a game on one of two
//! sets of boards. Looking ahead only while a ship is hit and afloat ([`Lookahead::hunting`]) keeps a
//! sixth of the gain, and rollouts cut after a few probes and valued by a fitted
//! estimate ([`Leaf`]) are too rough for the small differences a choice weighs: both
//! are there to experiment with.
//!
//! Under the default seed on the classic 10x10 bay (the judge, `play`), a state a game
//! reaches often takes its choice from the opening [`book`]: the choice this search makes
//! there, worked out once, with where the random stream stood after it, so the game is
//! the same and costs half (about 11 of a game's probes, and the dearest).
//!
//! Each probe plays thousands of games of density, so it plays boards of at most
//! [`LOOKAHEAD_CELLS`] cells (density's fast path) and costs seconds a game: `all` leaves
//! it out ([`super::Entry::in_all`]). Without a fleet to draw layouts of, or when the
//! posterior cannot be sampled, it probes density's cell.

pub mod book;

use super::afloat::Afloat;
use super::bayes::posterior_rules;
use super::density::TREE_CANDIDATES;
use super::{Density, ScanStrategy};
use crate::game::board::Board;
use crate::game::position::Position;
use crate::game::rules::Rules;
use crate::limits::{BAYES_GAME_WORK, LOOKAHEAD_CELLS};
use crate::posterior::{Checkpoint, Estimator, Evidence, Prior, SampledLayout, Settings};
use crate::scan::observer::{Silent, Source};
use crate::scan::record::ScanRecord;
use crate::scan::referee::Referee;
use crate::scan::sonar::Answer;
use crate::scan::{Scan, ScanError};

/// How many of density's best cells are weighed at each probe.
pub const CANDIDATES: usize = 5;

/// The most layouts a probe draws. Choosing on 8,192 gains about half a scan a classic
/// game over density; on 2,048 it loses a fifth of one (report/results.md).
pub const LAYOUTS: usize = 8192;

/// The layouts drawn at a time: after each batch, the candidates clearly worse than the
/// leader are dropped ([`ELIMINATE`]), and the probe is settled once one is left.
pub const BATCH: usize = 1024;

/// How many standard errors a candidate's paired loss to the leader must exceed for it
/// to be dropped. At 2 the held-out gain fell by 0.07 scans a game on one of two sets
/// of boards; at 3 it is the plain lookahead's on both (report/results.md).
pub const ELIMINATE: f64 = 3.0;

/// How many features a [`Leaf`] weighs: of a rollout's state, the ship cells hit, the
/// hits on ships afloat, the ships afloat, the unknown cells, the sum over the kinds
/// afloat of ln(1 + the positions of the kind that still fit), and the smallest size
/// afloat.
pub const LEAF_FEATURES: usize = super::density::LEAF_FEATURES;

/// The weights of a leaf estimate on the classic 10x10 game after 8 probes (see
/// [`Leaf`]), fitted by `LEAF_GAMES=8 LEAF_LAYOUTS=1024 LEAF_DEPTH=8 cargo test --release
/// --test all optimum::fit_the_leaf -- --exact --ignored --nocapture`. No lookahead uses
/// it unless asked ([`Lookahead::with_leaf`]): its values are off by about a tenth of a
/// scan or more in the differences between candidates, more than what one step gains,
/// so cut rollouts choose worse (measured; see the fitting test's output).
pub const LEAF: [f64; LEAF_FEATURES + 1] = [
    2.074271532051938,
    -0.48192159361261044,
    -0.9536221418530824,
    0.737416918390128,
    0.39933365991263314,
    0.3479211625635896,
    -4.927488365678151,
];

/// One candidate's game on one layout as traced to fit a [`Leaf`]: its features after the
/// leaf's depth and the scans it made from there to the end, or `None` when it had
/// ended or met the others' games by then.
pub type Traced = Option<([f64; LEAF_FEATURES], f64)>;

/// A leaf estimate for truncated rollouts: a rollout whose candidates' games are still
/// apart after `depth` probes stops there, each game valued at its probes plus
/// [`Leaf::value`] of its state's features.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leaf {
    /// The probes after which a rollout is cut and valued.
    pub depth: usize,
    /// The intercept, then one weight per feature (see [`LEAF_FEATURES`]).
    pub coef: [f64; LEAF_FEATURES + 1],
}

impl Leaf {
    /// The estimated scans density still needs from a state of these features.
    /// Pre: none. Post: finite when the coefficients are.
    pub fn value(&self, features: &[f64; LEAF_FEATURES]) -> f64 {
        let [intercept, slopes @ ..] = self.coef;
        intercept + slopes.iter().zip(features).map(|(a, b)| a * b).sum::<f64>()
    }
}

/// The lookahead scanner.
#[derive(Debug, Clone)]
pub struct Lookahead {
    seed: u64,
    /// The most layouts drawn at each probe.
    layouts: usize,
    /// Layouts drawn at a time, and the standard errors that drop a candidate.
    batch: usize,
    eliminate: f64,
    /// Draws the layouts (uniform prior: every layout that agrees equally likely).
    estimator: Estimator,
    /// Ranks the candidates and plays the rollouts (and the game, when the posterior
    /// cannot be used).
    density: Density,
    /// The layouts of the probe being weighed (kept to reuse their memory).
    drawn: Vec<SampledLayout>,
    /// Rollouts played since the scanner was made (one candidate on one layout each).
    played: u64,
    /// Whether it looks ahead while no ship is hit and afloat (hunting), or plays
    /// density's cell then.
    hunting: bool,
    /// The cells chosen so far under this seed, by what was known ([`Memo`]).
    memo: Memo,
    /// Where rollouts are cut and how the rest is estimated (`None`: played to the end).
    leaf: Option<Leaf>,
    /// Whether it takes its choices from the opening book ([`book`]) where the book
    /// holds them: only [`Lookahead::new`]'s settings, whose choices the book holds.
    book: bool,
}

/// The cells a lookahead chose, by what was known when it chose, so that a game
/// played again from the start (`play` replays the answers before an `undo`) probes
/// them again at once instead of thinking a second each. Under one seed, bay and
/// rules, what a run knows when it chooses (each cell's answer, sunk ships included,
/// which settle the answers before them and their order) settles its choice and where
/// its random stream then stands; with the stream put back there after a choice taken
/// from here, a run plays exactly as a fresh one.
#[derive(Debug, Clone, Default)]
struct Memo {
    /// The bay and rules the choices were made for.
    game: Option<(usize, usize, Rules)>,
    /// Each choice, and where the layouts' random stream stood after it.
    chosen: std::collections::HashMap<Vec<u8>, (Position, Checkpoint)>,
}

/// The most choices a [`Memo`] keeps (a few games' worth; past it, it starts again).
const MEMO_CHOICES: usize = 4096;

impl Memo {
    /// What `scan` knows, one byte a cell: not probed, miss, hit, or the sunk ship.
    fn key(scan: &Scan<'_>) -> Vec<u8> {
        let record = scan.record();
        (0..record.rows() * record.cols())
            .map(|i| match record.answer_at(i) {
                None => 0,
                Some(Answer::Miss) => 1,
                Some(Answer::Hit) => 2,
                Some(Answer::Sunk(None)) => 3,
                Some(Answer::Sunk(Some(k))) => u8::try_from(k).map_or(u8::MAX, |k| k.saturating_add(4)),
            })
            .collect()
    }

    /// Starts a game on `scan`: the choices kept stay only for the same bay and rules.
    fn start(&mut self, scan: &Scan<'_>) {
        let game = (scan.rows(), scan.cols(), scan.rules().clone());
        if self.game.as_ref() != Some(&game) || self.chosen.len() >= MEMO_CHOICES {
            self.chosen.clear();
            self.game = Some(game);
        }
    }
}

impl Lookahead {
    /// A lookahead drawing up to [`LAYOUTS`] layouts a probe, [`BATCH`] at a time, a
    /// candidate dropped once it is [`ELIMINATE`] standard errors behind the leader
    /// ([`Lookahead::with_search`]), looking ahead at every probe, its draws fixed by
    /// `seed`. Held out on the classic board it gains as much over density as the plain
    /// lookahead ([`Lookahead::with_layouts`] with [`LAYOUTS`]: every candidate on every
    /// layout), for three quarters of its rollouts and two thirds of its CPU time.
    /// Pre: none. Post: two scanners with the same seed play the same games.
    pub fn new(seed: u64) -> Lookahead {
        Lookahead { book: true, ..Lookahead::with_search(seed, LAYOUTS, BATCH, ELIMINATE).hunting(true) }
    }

    /// The same lookahead, thinking every choice instead of taking the opening book's
    /// (to make the book, and to check it).
    /// Pre: none. Post: the same choices as with the book, each thought.
    pub fn without_book(self) -> Lookahead {
        Lookahead { book: false, ..self }
    }

    /// A lookahead weighing every candidate on all of `layouts` layouts a probe, in one
    /// batch (the plain one-step lookahead; experiments, tests).
    /// Pre: none. Post: as [`Lookahead::new`]; with `layouts` 0 it plays density's cells.
    pub fn with_layouts(seed: u64, layouts: usize) -> Lookahead {
        Lookahead::with_search(seed, layouts, layouts, ELIMINATE).hunting(true)
    }

    /// A lookahead drawing up to `layouts` layouts a probe, `batch` at a time, dropping
    /// a candidate whose paired loss to the leader exceeds `eliminate` standard errors
    /// (experiments; `batch` at least `layouts`: one batch, every candidate weighed on
    /// every layout).
    /// Pre: none. Post: as [`Lookahead::new`].
    pub fn with_search(seed: u64, layouts: usize, batch: usize, eliminate: f64) -> Lookahead {
        let settings = Settings { prior: Prior::Uniform, samples: layouts.max(1), ..Settings::default() };
        Lookahead {
            seed,
            layouts,
            batch: batch.max(1),
            eliminate,
            estimator: Estimator::with_settings(seed, settings),
            density: Density::default(),
            drawn: Vec::new(),
            played: 0,
            hunting: false,
            memo: Memo::default(),
            leaf: None,
            book: false,
        }
    }

    /// The same lookahead, looking ahead while hunting too (`true`: at every probe) or
    /// only while a ship is hit and afloat (`false`, the default: most of what one step
    /// gains is there, and hunting's rollouts are the longest).
    /// Pre: none. Post: as [`Lookahead::new`].
    pub fn hunting(self, hunting: bool) -> Lookahead {
        Lookahead { hunting, book: self.book && hunting, ..self }
    }

    /// The same lookahead, its rollouts cut by `leaf` (`None`: played to the end).
    /// Pre: none. Post: as [`Lookahead::new`].
    pub fn with_leaf(self, leaf: Option<Leaf>) -> Lookahead {
        Lookahead { book: self.book && leaf.is_none(), leaf, ..self }
    }

    /// Draws `n` layouts as [`Lookahead::roll_out`] and plays each candidate to the end
    /// on them (density's fast path only), appending the rows to `rows` and to `traced`,
    /// per row and candidate, the features of its game after `depth` probes and the
    /// scans it made from there, when it was still apart from the others then: what a
    /// [`Leaf`] is fitted on.
    /// Pre: as [`Lookahead::roll_out`]. Post: false when nothing was played.
    #[allow(clippy::too_many_arguments)]
    pub fn roll_out_traced(
        &mut self,
        scan: &Scan<'_>,
        rules: &Rules,
        cands: &[Position],
        n: usize,
        depth: usize,
        rows: &mut Vec<(f64, Vec<f64>)>,
        traced: &mut Vec<Vec<Traced>>,
    ) -> bool {
        if !self.draw(scan, rules, n) {
            return false;
        }
        let drawn = std::mem::take(&mut self.drawn);
        let leaf = Leaf { depth, coef: [0.0; LEAF_FEATURES + 1] };
        let before = rows.len();
        if let Ok(Some(mut fast)) = self.density.rollouts(scan) {
            for l in &drawn {
                let Ok(board) = Board::with_rules(scan.rows(), scan.cols(), l.ships.clone(), rules) else { continue };
                let (mut scans, mut features) = (Vec::new(), Vec::new());
                self.played += cands.len() as u64;
                if fast.play_leaf(&board, cands, &leaf, &mut scans, Some(&mut features)) {
                    rows.push((l.weight * n as f64, scans));
                    traced.push(features);
                }
            }
        }
        self.drawn = drawn;
        rows.len() > before
    }

    /// Rollouts played so far (one candidate played out on one layout each): the cost.
    /// Pre: none. Post: never decreases.
    pub fn played(&self) -> u64 {
        self.played
    }

    /// Draws `n` layouts that agree with `scan`'s record under `rules` (whose fleet is
    /// the scan's) and appends to `rows`, for each, its weight (the batch's weights sum
    /// to `n`) and the scans density needs after each of `cands` is probed on it (on
    /// density's fast path, where the candidates' games all meet, one count for all:
    /// their differences, all a choice weighs, are those of the scans).
    /// Pre: `cands` are unknown cells of `scan`. Post: false, and `rows` as it was, when
    /// no layout could be drawn.
    pub fn roll_out(
        &mut self,
        scan: &Scan<'_>,
        rules: &Rules,
        cands: &[Position],
        n: usize,
        rows: &mut Vec<(f64, Vec<f64>)>,
    ) -> bool {
        self.roll_out_answers(scan, rules, cands, n, rows, &mut Vec::new())
    }

    /// [`Lookahead::roll_out`], also appending to `answers`, for each row, the first
    /// answers of the candidates on its layout: bit `j` set when candidate `j` is a ship
    /// cell there ([`first_answers`]).
    /// Pre: as [`Lookahead::roll_out`], at most 32 candidates. Post: as
    /// [`Lookahead::roll_out`]; `answers` grows as `rows` does.
    pub fn roll_out_answers(
        &mut self,
        scan: &Scan<'_>,
        rules: &Rules,
        cands: &[Position],
        n: usize,
        rows: &mut Vec<(f64, Vec<f64>)>,
        answers: &mut Vec<u32>,
    ) -> bool {
        if !self.draw(scan, rules, n) {
            return false;
        }
        let all = 0..self.drawn.len();
        self.play_drawn(scan, rules, cands, all, n as f64, rows, answers)
    }

    /// Draws `n` layouts that agree with `scan`'s record under `rules` into the
    /// scanner's store of drawn layouts (their weights sum to 1).
    /// Pre: none. Post: false when none could be drawn.
    fn draw(&mut self, scan: &Scan<'_>, rules: &Rules, n: usize) -> bool {
        let ev = Evidence { known: scan.record(), wrecks: None, rules };
        self.estimator.sample_layouts(&ev, n, &mut self.drawn).is_ok() && !self.drawn.is_empty()
    }

    /// Plays every candidate out on the drawn layouts `which`, appending a row per
    /// layout (its weight times `scale`, the scans after each candidate) to `rows` and
    /// its first answers to `answers`.
    /// Pre: as [`Lookahead::roll_out`]. Post: true when a row was added.
    #[allow(clippy::too_many_arguments)]
    fn play_drawn(
        &mut self,
        scan: &Scan<'_>,
        rules: &Rules,
        cands: &[Position],
        which: std::ops::Range<usize>,
        scale: f64,
        rows: &mut Vec<(f64, Vec<f64>)>,
        answers: &mut Vec<u32>,
    ) -> bool {
        let record = scan.record();
        let drawn = std::mem::take(&mut self.drawn);
        let before = rows.len();
        // One board refilled with each layout (the same board `Board::with_rules` makes).
        let Ok(mut board) = Board::blank(scan.rows(), scan.cols(), rules) else {
            self.drawn = drawn;
            return false;
        };
        let layouts = drawn.get(which).unwrap_or_default();
        if let Ok(Some(mut fast)) = self.density.rollouts(scan) {
            if self.leaf.is_none() && cands.len() <= TREE_CANDIDATES {
                // Density's fast path, the layouts' games played together as a tree.
                for l in layouts {
                    fast.keep_ships(&l.ships);
                }
                let mut counts = Vec::new();
                fast.play_kept(cands, &mut counts);
                for (l, scans) in layouts.iter().zip(counts) {
                    self.played += cands.len() as u64;
                    if let Some(scans) = scans {
                        rows.push((l.weight * scale, scans.iter().map(|&s| s as f64).collect()));
                        answers.push(first_answers(&l.ships, cands));
                    }
                }
                self.drawn = drawn;
                return rows.len() > before;
            }
            // Density's fast path: every candidate on a layout from one copy of the state.
            let mut scans = Vec::with_capacity(cands.len());
            for l in layouts {
                if board.refill(&l.ships).is_err() {
                    continue;
                }
                scans.clear();
                self.played += cands.len() as u64;
                if let Some(leaf) = &self.leaf {
                    let mut values = Vec::with_capacity(cands.len());
                    if fast.play_leaf(&board, cands, leaf, &mut values, None) {
                        rows.push((l.weight * scale, values));
                        answers.push(first_answers(&l.ships, cands));
                    }
                } else if fast.play(&board, cands, &mut scans) {
                    rows.push((l.weight * scale, scans.iter().map(|&s| s as f64).collect()));
                    answers.push(first_answers(&l.ships, cands));
                }
            }
        } else {
            for l in layouts {
                if board.refill(&l.ships).is_err() {
                    continue;
                }
                self.played += cands.len() as u64;
                let scans: Option<Vec<f64>> =
                    cands.iter().map(|&c| played_out(&mut self.density, &board, record, c).map(|s| s as f64)).collect();
                if let Some(scans) = scans {
                    rows.push((l.weight * scale, scans));
                    answers.push(first_answers(&l.ships, cands));
                }
            }
        }
        self.drawn = drawn;
        rows.len() > before
    }

    /// Starts a game on `scan`: the random stream from the seed, and the choices of the
    /// memo kept when the game is the same.
    /// Pre: none. Post: [`Lookahead::step`] plays the game's first probe.
    pub fn start(&mut self, scan: &Scan<'_>) {
        self.estimator.reset(self.seed);
        self.memo.start(scan);
    }

    /// The cell to probe next in `scan`'s state, a game begun with [`Lookahead::start`]
    /// and played by these steps: the memo's choice or the book's when either holds the
    /// state (the stream put back where it stood after that choice), else thought and
    /// remembered.
    /// Pre: the scan is not done. Post: an unknown cell; the same cell and stream as a
    /// run that thought every probe of the game.
    pub fn step(&mut self, scan: &Scan<'_>) -> Result<Position, ScanError> {
        let known = Memo::key(scan);
        let kept = self.memo.chosen.get(&known).or_else(|| {
            let booked = self.book && self.seed == super::DEFAULT_SEED && book::covers(scan);
            booked.then(|| book::classic().get(&known)).flatten()
        });
        if let Some((cell, after)) = kept {
            self.estimator.restore(after);
            return Ok(*cell);
        }
        let cands = self.density.ranked(scan, CANDIDATES)?;
        let Some(&first) = cands.first() else { return Err(scan.exhausted()) };
        let cell = match posterior_rules(scan) {
            Some(rules) => self.choose(scan, &rules, &cands),
            None => first,
        };
        self.memo.chosen.insert(known, (cell, self.estimator.checkpoint()));
        Ok(cell)
    }

    /// The cell lookahead probes in `scan`'s state, and density's (the first of its
    /// candidates): what `run` probes, for measurements that weigh each choice.
    /// Pre: the scan is not done. Post: unknown cells.
    pub fn decide(&mut self, scan: &Scan<'_>) -> Result<(Position, Position), ScanError> {
        let cands = self.density.ranked(scan, CANDIDATES)?;
        let Some(&first) = cands.first() else { return Err(scan.exhausted()) };
        let Some(rules) = posterior_rules(scan) else { return Ok((first, first)) };
        Ok((self.choose(scan, &rules, &cands), first))
    }

    /// The cell to probe in `scan`'s state under `rules` (whose fleet is the scan's)
    /// among `cands`, density's ranking. Layouts are drawn a batch at a time, every
    /// candidate still in play played out on each; after each batch a candidate whose
    /// scans exceed the leader's (the fewest on average) by more than `eliminate`
    /// standard errors of their paired difference is dropped, and drawing stops when
    /// one candidate is left or `layouts` are drawn. With one batch this is the plain
    /// rule: the fewest scans on average over the layouts.
    /// Pre: `cands` are unknown cells. Post: one of `cands`; the first when no other
    /// needs fewer scans on average over the layouts drawn.
    fn choose(&mut self, scan: &Scan<'_>, rules: &Rules, cands: &[Position]) -> Position {
        let Some(&first) = cands.first() else { return scan_first(scan) };
        if cands.len() == 1 || self.layouts == 0 || self.estimator.work() > BAYES_GAME_WORK {
            return first;
        }
        if !self.hunting && !hit_afloat(scan, rules) {
            return first;
        }
        // Each layout's weight and scans for each candidate (NaN once it is dropped).
        let mut rows: Vec<(f64, Vec<f64>)> = Vec::new();
        let mut batch = Vec::new();
        let mut active: Vec<usize> = (0..cands.len()).collect();
        let mut drawn = 0;
        while drawn < self.layouts && active.len() > 1 {
            let n = self.batch.min(self.layouts - drawn);
            let playing: Vec<Position> = active.iter().filter_map(|&j| cands.get(j).copied()).collect();
            batch.clear();
            if !self.roll_out(scan, rules, &playing, n, &mut batch) {
                break;
            }
            drawn += n;
            for (w, scans) in batch.drain(..) {
                let mut row = vec![f64::NAN; cands.len()];
                for (&j, v) in active.iter().zip(scans) {
                    if let Some(slot) = row.get_mut(j) {
                        *slot = v;
                    }
                }
                rows.push((w, row));
            }
            active = still_in_play(&rows, &active, self.eliminate);
        }
        cands.get(leader(&rows, &active)).copied().unwrap_or(first)
    }
}

/// True when a hit of `scan` is not a cell of a ship known sunk (under `rules`, whose
/// fleet is the scan's): a ship is hit and afloat (else the scan is hunting).
/// Pre: none. Post: false when the scan has no hit.
pub fn hit_afloat(scan: &Scan<'_>, rules: &Rules) -> bool {
    let record = scan.record();
    let hits = record.hits();
    if hits == 0 {
        return false;
    }
    let Ok(afloat) = Afloat::from_record(record, rules, Some(rules.fleet())) else { return true };
    let cols = scan.cols();
    (0..scan.rows() * cols)
        .map(|i| Position::from_index(i, cols))
        .any(|p| scan.state(p) == crate::scan::record::CellState::Hit && !afloat.is_sunk(p))
}

/// The first answers of `cands` on a layout of `ships`: bit `j` set when candidate `j`
/// is a cell of a ship (a hit or sunk answer).
/// Pre: at most 32 candidates. Post: no bit at or past `cands.len()`.
pub fn first_answers(ships: &[crate::game::ship::Ship], cands: &[Position]) -> u32 {
    let mut bits = 0;
    for ship in ships {
        for cell in ship.cells() {
            if let Some(j) = cands.iter().take(32).position(|&c| c == cell) {
                bits |= 1 << j;
            }
        }
    }
    bits
}

/// A cell to probe when there is nothing to choose from: the first unknown one.
fn scan_first(scan: &Scan<'_>) -> Position {
    let cols = scan.cols();
    (0..scan.rows() * cols)
        .map(|i| Position::from_index(i, cols))
        .find(|&p| scan.state(p) == crate::scan::record::CellState::Unknown)
        .unwrap_or(Position::new(0, 0))
}

/// The weighted mean over `rows` of candidate `j`'s scans less candidate `l`'s, and its
/// standard error (the rows' weights make an effective sample size).
/// Pre: both candidates were played on every row. Post: (0, 0) without rows.
pub fn paired(rows: &[(f64, Vec<f64>)], j: usize, l: usize) -> (f64, f64) {
    let diff = |r: &Vec<f64>| r.get(j).copied().unwrap_or(0.0) - r.get(l).copied().unwrap_or(0.0);
    let (total, squares): (f64, f64) = rows.iter().fold((0.0, 0.0), |(t, q), (w, _)| (t + w, q + w * w));
    if total <= 0.0 {
        return (0.0, 0.0);
    }
    let mean = rows.iter().map(|(w, r)| w * diff(r)).sum::<f64>() / total;
    let var = rows.iter().map(|(w, r)| w * (diff(r) - mean).powi(2)).sum::<f64>() / total;
    (mean, (var * squares / (total * total)).sqrt())
}

/// The leader of the candidates `active` (played on every row): the fewest scans on
/// average, the first among equals.
/// Pre: `active` is in increasing order. Post: one of `active`; 0 when it is empty.
pub fn leader(rows: &[(f64, Vec<f64>)], active: &[usize]) -> usize {
    let mut best = active.first().copied().unwrap_or(0);
    for &j in active.iter().skip(1) {
        if paired(rows, j, best).0 < 0.0 {
            best = j;
        }
    }
    best
}

/// The candidates of `active` that stay in play: the leader, and every one whose scans
/// exceed the leader's by at most `z` standard errors.
/// Pre: as [`leader`]. Post: a subsequence of `active`, never empty when it is not.
pub fn still_in_play(rows: &[(f64, Vec<f64>)], active: &[usize], z: f64) -> Vec<usize> {
    let top = leader(rows, active);
    active
        .iter()
        .copied()
        .filter(|&j| {
            let (loss, se) = paired(rows, j, top);
            j == top || loss <= z * se
        })
        .collect()
}

/// A weighted least-squares fit: `coef[0]` the intercept, `coef[k + 1]` the slope on
/// regressor `k`; `residual` the weighted mean of the squared residuals.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// The intercept, then one slope per regressor.
    pub coef: Vec<f64>,
    /// The weighted mean of the squared residuals.
    pub residual: f64,
}

/// Fits `y[i] ≈ coef[0] + Σ_k coef[k + 1] x[i][k]` by least squares weighted by `w[i]`
/// (the normal equations, solved by elimination; a regressor that is constant or a
/// combination of others gets slope 0).
/// Pre: `w`, `x`, `y` of one length, every `x[i]` of the same length. Post: a fit with
/// every slope 0 and the intercept `y`'s weighted mean when there are no regressors; an
/// all-zero fit without positive weight.
pub fn least_squares(w: &[f64], x: &[Vec<f64>], y: &[f64]) -> Fit {
    let m = x.first().map_or(0, Vec::len) + 1;
    let row =
        |i: usize, k: usize| if k == 0 { 1.0 } else { x.get(i).and_then(|r| r.get(k - 1)).copied().unwrap_or(0.0) };
    // The normal equations [A | b], A = Σ w z zᵀ, b = Σ w z y, z = (1, x).
    let mut a = vec![vec![0.0; m + 1]; m];
    let mut total = 0.0;
    for (i, (&wi, &yi)) in w.iter().zip(y).enumerate() {
        total += wi;
        for (r, line) in a.iter_mut().enumerate() {
            let zr = wi * row(i, r);
            for (c, cell) in line.iter_mut().enumerate().take(m) {
                *cell += zr * row(i, c);
            }
            if let Some(last) = line.last_mut() {
                *last += zr * yi;
            }
        }
    }
    if total <= 0.0 {
        return Fit { coef: vec![0.0; m], residual: 0.0 };
    }
    // Gauss-Jordan with partial pivoting; a pivot below `tiny` marks a dependent column.
    let tiny = 1e-9 * total;
    let mut pivots = vec![usize::MAX; m];
    let mut next = 0;
    for c in 0..m {
        let best = (next..m).max_by(|&p, &q| a[p][c].abs().total_cmp(&a[q][c].abs()));
        let Some(p) = best.filter(|&p| a[p][c].abs() > tiny) else { continue };
        a.swap(p, next);
        let lead = a[next][c];
        for v in a[next].iter_mut() {
            *v /= lead;
        }
        let pivot_row = a[next].clone();
        for (r, line) in a.iter_mut().enumerate() {
            if r != next {
                let f = line[c];
                for (v, pv) in line.iter_mut().zip(&pivot_row) {
                    *v -= f * pv;
                }
            }
        }
        pivots[c] = next;
        next += 1;
    }
    let coef: Vec<f64> = pivots.iter().map(|&r| a.get(r).and_then(|l| l.last()).copied().unwrap_or(0.0)).collect();
    let residual = w
        .iter()
        .zip(y)
        .enumerate()
        .map(|(i, (&wi, &yi))| {
            let fitted: f64 = coef.iter().enumerate().map(|(k, b)| b * row(i, k)).sum();
            wi * (yi - fitted).powi(2)
        })
        .sum::<f64>()
        / total;
    Fit { coef, residual }
}

/// The weighted mean over `rows` of what candidate `j` saves over the first (density's
/// cell): its scans less density's, negated.
/// Pre: none. Post: 0 when `rows` is empty or `j` out of range.
pub fn mean_gain(rows: &[(f64, Vec<f64>)], j: usize) -> f64 {
    let (mut total, mut sum) = (0.0, 0.0);
    for (w, r) in rows {
        if let (Some(d), Some(c)) = (r.first(), r.get(j)) {
            total += w;
            sum += w * (d - c);
        }
    }
    if total > 0.0 {
        sum / total
    } else {
        0.0
    }
}

/// The candidate (of `cands` in `rows`) of the largest weighted mean gain over the first,
/// and that gain: the first, gain 0, when none gains.
/// Pre: none. Post: an index below `cands.max(1)`.
pub fn best_gain(rows: &[(f64, Vec<f64>)], cands: usize) -> (usize, f64) {
    (1..cands).map(|j| (j, mean_gain(rows, j))).fold((0, 0.0), |best, c| if c.1 > best.1 { c } else { best })
}

/// The scans `player` (density) needs to finish `board` once `record` is known and `cell`
/// probed: one rollout.
/// Pre: `record` agrees with `board`. Post: `None` when it does not, or `cell` cannot be
/// probed.
pub fn played_out(player: &mut Density, board: &Board, record: &ScanRecord, cell: Position) -> Option<usize> {
    let mut referee = Referee::new(board);
    let mut silent = Silent;
    let mut sub = Scan::resume(&mut referee, &mut silent, record.clone());
    sub.probe(cell, Source::Density).ok()?;
    if !sub.is_done() {
        player.run(&mut sub).ok()?;
    }
    Some(sub.record().scans())
}

impl Default for Lookahead {
    fn default() -> Lookahead {
        Lookahead::new(super::DEFAULT_SEED)
    }
}

impl ScanStrategy for Lookahead {
    fn name(&self) -> &'static str {
        "lookahead"
    }

    fn reseed(&mut self, seed: u64) {
        if seed != self.seed {
            self.memo = Memo::default();
        }
        self.seed = seed;
    }

    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        let (rows, cols) = (scan.rows(), scan.cols());
        if rows.saturating_mul(cols) > LOOKAHEAD_CELLS {
            return Err(super::too_large(self.name(), rows, cols, scan.rules()));
        }
        if posterior_rules(scan).is_none() {
            return self.density.run(scan);
        }
        self.start(scan);
        while !scan.is_done() {
            let cell = self.step(scan)?;
            scan.probe(cell, Source::Density)?;
            scan.end_step();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;
    use crate::strategy::solve;
    use crate::strategy::testing::{assert_finished, game_boards, probes_of};

    #[test]
    fn it_finishes_every_board_and_plays_the_same_game_twice() {
        let rules = Rules::preset("classic").unwrap();
        for board in game_boards(&rules, 10, 10, 3, 2) {
            let first = probes_of(&mut Lookahead::with_layouts(5, 64), &board);
            assert_eq!(first, probes_of(&mut Lookahead::with_layouts(5, 64), &board));
            // Drawn in batches with elimination, as `new` does, on fewer layouts.
            let search = || Lookahead::with_search(5, 256, 64, ELIMINATE).hunting(true);
            let batched = probes_of(&mut search(), &board);
            assert_eq!(batched, probes_of(&mut search(), &board));
            assert_finished(&board, &solve(&mut search(), &mut Referee::new(&board)).unwrap());
        }
    }

    #[test]
    fn a_game_played_again_under_the_same_seed_takes_its_choices_from_the_memo() {
        let rules = Rules::preset("classic").unwrap();
        let boards = game_boards(&rules, 10, 10, 7, 2);
        let mut look = Lookahead::with_layouts(5, 64);
        let first = probes_of(&mut look, &boards[0]);
        let played = look.played();
        assert!(played > 0);
        // Again, as play does after an undo: the same probes, and no rollout played.
        look.reseed(5);
        assert_eq!(probes_of(&mut look, &boards[0]), first);
        assert_eq!(look.played(), played);
        // Another board shares only its first states; a fresh scanner plays it the same.
        let other = probes_of(&mut look, &boards[1]);
        assert_eq!(other, probes_of(&mut Lookahead::with_layouts(5, 64), &boards[1]));
        assert!(look.played() > played);
        // Another seed forgets the choices.
        let before = look.played();
        look.reseed(6);
        assert_eq!(probes_of(&mut look, &boards[0]), probes_of(&mut Lookahead::with_layouts(6, 64), &boards[0]));
        assert!(look.played() > before);
    }

    #[test]
    fn without_layouts_it_plays_density() {
        let rules = Rules::preset("classic").unwrap();
        for board in game_boards(&rules, 10, 10, 4, 3) {
            assert_eq!(
                probes_of(&mut Lookahead::with_layouts(1, 0), &board),
                probes_of(&mut Density::default(), &board)
            );
        }
    }

    #[test]
    fn it_plays_problem_g_and_refuses_boards_past_its_limit() {
        let rules = Rules::problem_g();
        for board in game_boards(&rules, 8, 8, 6, 2) {
            let record = solve(&mut Lookahead::with_layouts(2, 32), &mut Referee::new(&board)).unwrap();
            assert_finished(&board, &record);
        }
        let big = game_boards(&rules, 12, 11, 6, 1).pop().unwrap();
        let err = solve(&mut Lookahead::with_layouts(2, 32), &mut Referee::new(&big)).unwrap_err();
        assert!(err.to_string().contains("lookahead"), "{err}");
    }

    #[test]
    fn least_squares_matches_the_plain_formulas() {
        // A line through points with weights: the plain weighted simple regression.
        let (w, xs, y) = (vec![1.0, 2.0, 1.0, 3.0], vec![0.0, 1.0, 2.0, 3.0], vec![1.0, 2.5, 4.5, 7.0]);
        let total: f64 = w.iter().sum();
        let mean = |v: &[f64]| w.iter().zip(v).map(|(a, b)| a * b).sum::<f64>() / total;
        let (mx, my) = (mean(&xs), mean(&y));
        let cov = w.iter().zip(xs.iter().zip(&y)).map(|(a, (x, v))| a * (x - mx) * (v - my)).sum::<f64>();
        let var = w.iter().zip(&xs).map(|(a, x)| a * (x - mx).powi(2)).sum::<f64>();
        let slope = cov / var;
        let intercept = my - slope * mx;
        let residual =
            w.iter().zip(xs.iter().zip(&y)).map(|(a, (x, v))| a * (v - intercept - slope * x).powi(2)).sum::<f64>()
                / total;
        let x: Vec<Vec<f64>> = xs.iter().map(|&v| vec![v]).collect();
        let fit = least_squares(&w, &x, &y);
        assert!((fit.coef[0] - intercept).abs() < 1e-9 && (fit.coef[1] - slope).abs() < 1e-9, "{fit:?}");
        assert!((fit.residual - residual).abs() < 1e-9, "{fit:?} {residual}");
        // An exact plane: no residual. A constant and a repeated regressor: slope 0.
        let x: Vec<Vec<f64>> =
            (0..6).map(|i| vec![f64::from(i % 2), f64::from(i / 3), 1.0, f64::from(i % 2)]).collect();
        let y: Vec<f64> = x.iter().map(|r| 2.0 + 3.0 * r[0] - r[1]).collect();
        let fit = least_squares(&[1.0; 6], &x, &y);
        assert!(fit.residual < 1e-12, "{fit:?}");
        let predicted: Vec<f64> =
            x.iter().map(|r| fit.coef[0] + (0..4).map(|k| fit.coef[k + 1] * r[k]).sum::<f64>()).collect();
        assert!(predicted.iter().zip(&y).all(|(p, v)| (p - v).abs() < 1e-9), "{fit:?}");
        assert_eq!(fit.coef.iter().filter(|c| **c == 0.0).count(), 2, "{fit:?}");
        // No regressors: the weighted mean and variance. No weight: all zero.
        let fit = least_squares(&[1.0, 3.0], &[vec![], vec![]], &[2.0, 6.0]);
        assert_eq!(fit, Fit { coef: vec![5.0], residual: 3.0 });
        assert_eq!(least_squares(&[], &[], &[]), Fit { coef: vec![0.0], residual: 0.0 });
    }

    #[test]
    fn first_answers_mark_the_candidates_on_a_ship() {
        use crate::game::position::Orientation;
        let ships = vec![
            crate::game::ship::Ship::new(Position::new(0, 0), 3, Orientation::East),
            crate::game::ship::Ship::new(Position::new(2, 2), 2, Orientation::South),
        ];
        let cands = [Position::new(1, 1), Position::new(0, 2), Position::new(3, 2), Position::new(0, 3)];
        assert_eq!(first_answers(&ships, &cands), 0b0110);
        assert_eq!(first_answers(&[], &cands), 0);
    }

    #[test]
    fn paired_differences_and_elimination_follow_the_plain_formulas() {
        // Candidate 1 beats 0 by 1 on every row but one; candidate 2 loses by 5 to 10.
        let rows: Vec<(f64, Vec<f64>)> = (0..40)
            .map(|i| {
                let d = if i == 0 { 3.0 } else { -1.0 };
                (1.0, vec![40.0, 40.0 + d, 45.0 + f64::from(i % 6)])
            })
            .collect();
        let diffs: Vec<f64> = rows.iter().map(|r| r.1[1] - r.1[0]).collect();
        let n = diffs.len() as f64;
        let mean = diffs.iter().sum::<f64>() / n;
        let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / n;
        let (m, se) = paired(&rows, 1, 0);
        assert!((m - mean).abs() < 1e-12 && (se - (var / n).sqrt()).abs() < 1e-12, "{m} {se}");
        assert_eq!(leader(&rows, &[0, 1, 2]), 1);
        // Density's cell is 0.9 scans behind, about 9 standard errors: dropped at z 2, kept at z 10.
        assert_eq!(still_in_play(&rows, &[0, 1, 2], 2.0), vec![1]);
        assert_eq!(still_in_play(&rows, &[0, 1, 2], 10.0), vec![0, 1]);
        assert_eq!(still_in_play(&[], &[0, 1], 2.0), vec![0, 1]);
    }

    #[test]
    fn the_best_gain_is_the_largest_weighted_mean_and_density_keeps_ties() {
        // Two layouts, weights 3 and 1; candidate 1 saves 1 and -1, candidate 2 saves 0.
        let rows = vec![(3.0, vec![10.0, 9.0, 10.0]), (1.0, vec![10.0, 11.0, 10.0])];
        assert_eq!(mean_gain(&rows, 1), 0.5);
        assert_eq!(best_gain(&rows, 3), (1, 0.5));
        let tied = vec![(1.0, vec![10.0, 10.0])];
        assert_eq!(best_gain(&tied, 2), (0, 0.0));
        assert_eq!(mean_gain(&[], 1), 0.0);
        assert_eq!(mean_gain(&rows, 7), 0.0);
    }
}

#[cfg(test)]
mod rollout_tests {
    use super::*;
    use crate::game::rng::Rng;
    use crate::strategy::testing::game_boards;

    #[test]
    fn the_fast_rollouts_differ_as_the_plain_ones_do() {
        // From states along density's games (after a random number of its probes), on
        // layouts drawn from the posterior: density's fast-path rollouts, in step and
        // joined where they meet, give every candidate the plain rollout's scans (a scan
        // resumed and played by density) less a count common to all candidates.
        let mut rng = Rng::new(3);
        let mut checked = 0;
        // One density for every state, as the strategy keeps one.
        let mut fast_density = Density::default();
        for name in ["classic", "russian", "starwars", "problem-g"] {
            let rules = Rules::preset(name).unwrap();
            let (rows, cols) = if name == "starwars" { (12, 10) } else { (10, 10) };
            for board in game_boards(&rules, rows, cols, 31, 12) {
                let probes = crate::strategy::testing::probes_of(&mut Density::default(), &board);
                let upto = rng.below(probes.len() as u64) as usize;
                let mut referee = Referee::new(&board);
                let mut silent = Silent;
                let mut scan = Scan::new(&mut referee, &mut silent);
                for &(p, _) in &probes[..upto] {
                    scan.probe(p, Source::Density).unwrap();
                }
                let Some(prules) = posterior_rules(&scan) else { continue };
                let mut ranker = Density::default();
                let cands = ranker.ranked(&scan, CANDIDATES).unwrap();
                let mut estimator =
                    Estimator::with_settings(7, Settings { prior: Prior::Uniform, samples: 64, ..Settings::default() });
                let mut drawn = Vec::new();
                let ev = Evidence { known: scan.record(), wrecks: None, rules: &prules };
                estimator.sample_layouts(&ev, 40, &mut drawn).unwrap();
                let mut fast = fast_density.rollouts(&scan).unwrap().expect("the fast path");
                let mut plain = Density::default();
                // Every layout's counts one at a time, to compare with the tree's.
                let (mut wanted, mut boards) = (Vec::new(), Vec::new());
                for layout in &drawn {
                    let layout_board = Board::with_rules(rows, cols, layout.ships.clone(), &prules).unwrap();
                    let want: Vec<usize> = cands
                        .iter()
                        .map(|&c| played_out(&mut plain, &layout_board, scan.record(), c).unwrap())
                        .collect();
                    let mut got = Vec::new();
                    assert!(fast.play(&layout_board, &cands, &mut got));
                    wanted.push(Some(got.clone()));
                    assert!(fast.keeps_alike(&layout_board, &layout.ships), "{name}");
                    boards.push(layout.ships.clone());
                    // Cut after a few probes: traced, the same counts, each game apart
                    // then with its features and the scans it made from there; cut, the
                    // count less those scans plus the leaf's value.
                    let leaf = Leaf { depth: 1 + checked % 9, coef: [1.5, -0.5, 0.25, 2.0, 0.125, 0.75, -1.0] };
                    let (mut traced, mut features, mut cut) = (Vec::new(), Vec::new(), Vec::new());
                    assert!(fast.play_leaf(&layout_board, &cands, &leaf, &mut traced, Some(&mut features)));
                    assert!(fast.play_leaf(&layout_board, &cands, &leaf, &mut cut, None));
                    let exact: Vec<f64> = got.iter().map(|&g| g as f64).collect();
                    assert_eq!(traced, exact, "{name} after {upto} probes");
                    for ((c, t), f) in cut.iter().zip(&traced).zip(&features) {
                        match f {
                            Some((f, rest)) => {
                                assert!(*rest >= 0.0 && t - rest == (scan.record().scans() + leaf.depth) as f64);
                                assert!((c - (t - rest + leaf.value(f))).abs() < 1e-9, "{c} {t} {rest}");
                            }
                            None => assert_eq!(c, t),
                        }
                    }
                    let never = Leaf { depth: usize::MAX, coef: [0.0; LEAF_FEATURES + 1] };
                    let mut full = Vec::new();
                    assert!(fast.play_leaf(&layout_board, &cands, &never, &mut full, None));
                    assert_eq!(full, exact);
                    let shift = |v: &[usize]| v.iter().map(|&x| x as i64 - v[0] as i64).collect::<Vec<_>>();
                    assert_eq!(shift(&got), shift(&want), "{name} after {upto} probes");
                    assert!(got.iter().zip(&want).all(|(g, w)| g <= w), "{name}: {got:?} {want:?}");
                    checked += 1;
                }
                // The same layouts played together as a tree: the same counts, in order.
                for ships in &boards {
                    fast.keep_ships(ships);
                }
                let mut tree = Vec::new();
                fast.play_kept(&cands, &mut tree);
                assert_eq!(tree, wanted, "{name} after {upto} probes");
                assert!(!tree.is_empty());
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}

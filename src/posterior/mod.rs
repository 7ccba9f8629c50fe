//! The probability that each cell holds a ship, given what is known (a grid of
//! [`CellState`]s, and under rules that announce sunk ships the order of the hits and
//! the sunk answers), the rules and the fleet.
//!
//! # The model
//! A *layout* places every ship of the fleet: inside the board, in one of the shapes the
//! rules allow it (a straight ship east or south, a drawn one as drawn or turned), not
//! overlapping, and not touching when the rules forbid it. It is consistent with the
//! evidence when every `Hit` is a ship cell, no ship cell is `Miss`, `Eliminated` or a
//! wreck, and, when the rules announce sunk ships, the answers are the ones it would
//! give: each sunk answer is the last cell hit of a ship whose every cell is hit (of
//! the named kind under `sunk named`), and every ship whose cells are all hit was
//! announced. The prior over layouts is [`Prior::Generator`] by default: the law of
//! the crate's own generator ([`prior`]); [`Prior::Uniform`] makes every valid layout
//! equally likely instead. The posterior of a cell is the prior mass of the consistent
//! layouts with a ship on it, over the mass of all consistent layouts.
//!
//! Ships the answers cannot tell apart form one group ([`groups`]); the [`table`]
//! holds every placement of every group; the [`model`] is what the evidence leaves
//! open (a run of hits closed by water is settled at once when straight ships never
//! touch, and so is a sunk answer only one placement fits).
//!
//! # Exact or sampled
//! * **Exact** ([`Method::Exact`], [`exact`]): when the number of consistent layouts is
//!   small (an upper bound, or the previous estimate, at most
//!   [`Settings::exact_layouts`]), they are enumerated, each unlabeled layout once, each
//!   weighted by its prior summed over the orders of its interchangeable ships.
//!   Probabilities are exact ratios. Abandoned after [`Settings::exact_nodes`]
//!   placements tried.
//! * **Sampled** ([`Method::Sampled`], [`sampling`]): otherwise by sequential
//!   importance sampling, each layout reached by one path of probability `q`. The
//!   weight is `w = prior(layout) / (R · q)`, `R = Π rem_g!` the labelings of the
//!   remaining interchangeable ships; for the generator prior the sum over the orders
//!   of interchangeable ships is replaced by `L ·` the prior of one uniformly random
//!   order (`L` the number of orders), an unbiased estimate (leading groups whose ships
//!   are all settled are summed exactly). So `E[w·f] = Σ prior·f` over consistent
//!   layouts: the ratio `Σ w·[ship on cell] / Σ w` is a consistent estimate of the
//!   posterior with O(1/N) bias. The mean of `1/(R q)` estimates the number of layouts
//!   (to switch to exact).
//!
//! Fresh layouts are drawn at every call by default. Keeping the still-consistent
//! layouts of the previous call ([`Settings::reuse`]) is valid for a fixed sequence of
//! grids, but a player probes the cell *these very layouts* rate highest, so the
//! survivors are a selected set and their estimates are biased (measured: cells rated
//! 85% held a ship 63% of the time; with fresh draws, 82%).

mod estimator;
mod exact;
pub(crate) mod groups;
mod model;
mod prior;
mod sampling;
mod table;

pub use estimator::{Checkpoint, Estimator, SampledLayout};

use crate::game::bay::Bay;
use crate::game::cellset::CellSet;
use crate::game::position::Position;
use crate::game::rules::Rules;
use crate::game::ship::{Placed, MAX_SHIP};
use crate::limits::POSTERIOR_CELLS;
use crate::scan::record::{AnswerLog, CellState, ScanRecord};
use model::Model;
use std::fmt;
use table::Table;

/// Why no posterior could be computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PosteriorError {
    /// The grid does not have `rows * cols` cells.
    Grid {
        /// Cells expected.
        expected: usize,
        /// Cells given.
        found: usize,
    },
    /// A fleet size is outside 1..=5.
    Fleet(usize),
    /// The board is larger than [`POSTERIOR_CELLS`].
    TooLarge(usize),
    /// No layout of the fleet agrees with the grid.
    Contradiction(String),
    /// Layouts probably exist but neither sampling nor a bounded enumeration found one.
    Intractable,
}

impl fmt::Display for PosteriorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PosteriorError::Grid { expected, found } => write!(f, "the grid has {found} cells, not {expected}"),
            PosteriorError::Fleet(s) => write!(f, "ship size {s} is outside 1..={MAX_SHIP}"),
            PosteriorError::TooLarge(n) => {
                write!(f, "{n} cells is too large for the posterior (at most {POSTERIOR_CELLS})")
            }
            PosteriorError::Contradiction(why) => write!(f, "contradiction: {why}"),
            PosteriorError::Intractable => write!(f, "no layout consistent with the grid was found"),
        }
    }
}

impl std::error::Error for PosteriorError {}

/// What is known of a bay, as the posterior is asked about it: what a scan knows (or
/// `advise`'s grid, read into the same record), the ships already sunk and left out of
/// the fleet, and the rules.
#[derive(Debug, Clone, Copy)]
pub struct Evidence<'a> {
    /// What is known of every cell, and the order of the hits and sunk answers when the
    /// rules announce sunk ships.
    pub known: &'a ScanRecord,
    /// Cells of ships already sunk and left out of the fleet (`advise`'s `#`, which
    /// `known` holds as eliminated), when there are any.
    pub wrecks: Option<&'a CellSet>,
    /// The rules.
    pub rules: &'a Rules,
}

impl<'a> Evidence<'a> {
    /// The facts the posterior works on, its states copied into `grid` (one byte a
    /// cell: the posterior indexes them in its inner loops).
    fn facts(&self, grid: &'a mut Vec<CellState>) -> Facts<'a> {
        *grid = self.known.states();
        Facts {
            rows: self.known.rows(),
            cols: self.known.cols(),
            grid,
            log: self.known.answers(),
            wrecks: self.wrecks,
            rules: self.rules,
        }
    }
}

/// What the posterior works on: [`Evidence`] with its states one byte a cell.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Facts<'a> {
    /// Rows of the bay.
    pub rows: usize,
    /// Columns of the bay.
    pub cols: usize,
    /// The state of every cell, row-major.
    pub grid: &'a [CellState],
    /// The order of the hits and the sunk answers, under rules that announce sunk ships.
    pub log: Option<&'a AnswerLog>,
    /// Cells of ships already sunk and left out of the fleet (`advise`'s `#`), if any.
    pub wrecks: Option<&'a CellSet>,
    /// The rules.
    pub rules: &'a Rules,
}

/// How a [`Posterior`] was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Every consistent layout was enumerated: probabilities are exact.
    Exact,
    /// Layouts were drawn by sequential importance sampling: probabilities are estimates.
    Sampled,
}

/// Per-cell ship probabilities and what is certain.
#[derive(Debug, Clone)]
pub struct Posterior {
    bay: Bay,
    grid: Vec<CellState>,
    prob: Vec<f64>,
    water: CellSet,
    ship: CellSet,
    /// How the probabilities were obtained.
    pub method: Method,
    /// Number of consistent layouts of the ships not yet settled (exact count, or the
    /// importance-sampling estimate; interchangeable ships count once).
    pub layouts: f64,
    /// Weighted layouts behind a sampled estimate (0 when exact).
    pub samples: usize,
    /// Kish's effective sample size `(Σw)² / Σw²` (0 when exact).
    pub effective_samples: f64,
}

impl Posterior {
    /// Number of rows.
    /// Pre: none. Post: no change.
    pub fn rows(&self) -> usize {
        self.bay.rows
    }

    /// Number of columns.
    /// Pre: none. Post: no change.
    pub fn cols(&self) -> usize {
        self.bay.cols
    }

    fn index(&self, pos: Position) -> Option<usize> {
        self.bay.contains(pos).then(|| self.bay.index(pos))
    }

    /// The probability that `pos` is a ship cell (1 for hits, 0 for water and outside).
    /// Pre: none. Post: in `0.0..=1.0`.
    pub fn prob(&self, pos: Position) -> f64 {
        self.index(pos).and_then(|i| self.prob.get(i)).copied().unwrap_or(0.0)
    }

    /// All probabilities in row-major order.
    /// Pre: none. Post: `rows * cols` values in `0.0..=1.0`.
    pub fn probabilities(&self) -> &[f64] {
        &self.prob
    }

    /// True when `pos` is water in every consistent layout. Sound whatever the method:
    /// known water, or (sampled) no placement of a remaining ship that fits the grid
    /// covers it, or (exact) probability 0.
    /// Pre: none. Post: true outside the board.
    pub fn is_certain_water(&self, pos: Position) -> bool {
        self.index(pos).is_none_or(|i| self.water.contains(i))
    }

    /// True when `pos` is a ship cell in every consistent layout: a hit, or (exact)
    /// probability 1, or (sampled) a cell covered by every placement able to cover some
    /// uncovered hit.
    /// Pre: none. Post: false outside the board.
    pub fn is_certain_ship(&self, pos: Position) -> bool {
        self.index(pos).is_some_and(|i| self.ship.contains(i))
    }

    /// The cells (row-major indices) certainly water: those of
    /// [`Posterior::is_certain_water`] inside the board.
    /// Pre: none. Post: capacity `rows * cols`.
    pub fn certain_water(&self) -> &CellSet {
        &self.water
    }

    /// The cells certainly ship cells: those of [`Posterior::is_certain_ship`].
    /// Pre: none. Post: capacity `rows * cols`.
    pub fn certain_ship(&self) -> &CellSet {
        &self.ship
    }

    /// The unknown cell most likely to be a ship (ties: first in row-major order), among
    /// cells not certainly water.
    /// Pre: none. Post: `None` when no unknown cell may hold a ship.
    pub fn best(&self) -> Option<Position> {
        self.best_given(&CellSet::default(), &CellSet::default()).map(|(p, _)| p)
    }

    /// [`Posterior::best`] when more is known than the posterior settled: the cells
    /// flagged in `water` are water too, those flagged in `ship` ship cells (probability
    /// 1); also the best cell's probability so counted. What `advise` suggests, with the
    /// rules' own deductions.
    /// Pre: none (an index past either set's capacity is not in it). Post: as `best`.
    pub fn best_given(&self, water: &CellSet, ship: &CellSet) -> Option<(Position, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for (i, (&p, &s)) in self.prob.iter().zip(&self.grid).enumerate() {
            let open = s == CellState::Unknown && !self.water.contains(i) && !water.contains(i);
            let p = if ship.contains(i) { 1.0 } else { p };
            if open && best.is_none_or(|(_, b)| p > b) {
                best = Some((i, p));
            }
        }
        best.map(|(i, p)| (self.bay.position(i), p))
    }
}

/// Tuning of an [`Estimator`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Weighted layouts kept in the pool (fresh draws top it up to this size).
    pub samples: usize,
    /// Enumerate exactly when the (estimated) number of layouts is at most this.
    pub exact_layouts: f64,
    /// Give up an enumeration after this many placements tried.
    pub exact_nodes: usize,
    /// The prior over layouts.
    pub prior: Prior,
    /// Keep the layouts still consistent from one call to the next (cheaper, but when the
    /// caller probes where these very layouts put ships, the survivors are a selected,
    /// biased set: see the module notes). Off by default.
    pub reuse: bool,
    /// Rao-Blackwellize the sampled estimate (uniform prior only): each sampled ship
    /// that covers no hit counts as the uniform spread over every placement it could
    /// take given the sample's other ships, instead of its one placement. Far smoother
    /// estimates from few samples on large boards. Off by default.
    pub rao_blackwell: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            samples: 64,
            exact_layouts: 3000.0,
            exact_nodes: 60_000,
            prior: Prior::Generator,
            reuse: false,
            rao_blackwell: false,
        }
    }
}

/// The prior of a layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prior {
    /// The crate's generator ([`crate::game::placement::Placer::place`]): ships placed in the
    /// fleet's order, largest first, each uniformly among the placements valid given
    /// the ships before it.
    Generator,
    /// Every valid layout equally likely.
    Uniform,
}

/// Sound certainties without enumeration: a cell is certainly water when no placement
/// that fits the evidence (a free one, or one for an open constraint) covers it;
/// certainly a ship when it is a hit or lies in every placement able to cover some
/// hit.
fn certainties(t: &Table, m: &Model, grid: &[CellState]) -> (CellSet, CellSet) {
    let n = grid.len();
    let mut may = CellSet::new(n);
    let mut ship = CellSet::from_fn(n, |i| grid.get(i) == Some(&CellState::Hit));
    // The placements' masks ORed in a word at a time (each lies inside the board).
    for free in &m.free {
        for p in free.iter().filter_map(|&pid| t.get(pid)) {
            t.or_into(may.words_mut(), p.cells);
        }
    }
    // How many of one list's placements hold each cell (back to 0 after each list).
    let mut all = vec![0u32; n];
    for opts in m.sunk_opts.iter().chain(&m.hit_opts) {
        for &pid in opts {
            for c in t.cells(pid) {
                may.insert(c);
                if let Some(x) = all.get_mut(c) {
                    *x += 1;
                }
            }
        }
        for &pid in opts {
            for c in t.cells(pid) {
                if let Some(k) = all.get_mut(c) {
                    if *k as usize == opts.len() {
                        ship.insert(c);
                    }
                    *k = 0;
                }
            }
        }
    }
    let water = CellSet::from_fn(n, |i| {
        grid.get(i).is_some_and(|&s| s.is_water() || (s == CellState::Unknown && !may.contains(i)))
    });
    (water, ship)
}

/// The posterior of an exact count.
fn finish_exact(t: &Table, m: &Model, grid: &[CellState], c: exact::Counted) -> Result<Posterior, PosteriorError> {
    if c.layouts <= 0.0 || c.weight <= 0.0 {
        return Err(PosteriorError::Contradiction("no layout of the fleet agrees with the answers".into()));
    }
    let prob: Vec<f64> = c.cells.iter().map(|&x| x / c.weight).collect();
    let (mut water, mut ship) = certainties(t, m, grid);
    for (i, &x) in c.cells.iter().enumerate() {
        if grid.get(i) == Some(&CellState::Unknown) {
            water.set(i, x == 0.0);
            // Every layout puts a ship here (the weights are sums of the same terms).
            ship.set(i, x >= c.weight * (1.0 - 1e-12));
        }
    }
    let mut post = Posterior {
        bay: Bay::new(t.rows, t.cols),
        grid: grid.to_vec(),
        prob,
        water,
        ship,
        method: Method::Exact,
        layouts: c.layouts,
        samples: 0,
        effective_samples: 0.0,
    };
    clamp(&mut post);
    Ok(post)
}

/// Makes hits exactly 1 and water exactly 0 (settled ships are fixed, not counted).
fn clamp(p: &mut Posterior) {
    for (x, &s) in p.prob.iter_mut().zip(&p.grid) {
        match s {
            CellState::Hit => *x = 1.0,
            CellState::Miss | CellState::Eliminated => *x = 0.0,
            CellState::Unknown => *x = x.clamp(0.0, 1.0),
        }
    }
}

/// Checks the evidence's shape: at most [`POSTERIOR_CELLS`] cells, one state per cell, and
/// wrecks (when given) one per cell.
fn check(ev: &Facts<'_>) -> Result<(), PosteriorError> {
    let cells = ev.rows.saturating_mul(ev.cols);
    if cells > POSTERIOR_CELLS {
        return Err(PosteriorError::TooLarge(cells));
    }
    if ev.grid.len() != cells {
        return Err(PosteriorError::Grid { expected: cells, found: ev.grid.len() });
    }
    if let Some(w) = ev.wrecks.filter(|w| w.capacity() != cells) {
        return Err(PosteriorError::Grid { expected: cells, found: w.capacity() });
    }
    Ok(())
}

/// The fleet of straight ships of `sizes` under Problem G's rules, checked.
fn sized(sizes: &[usize]) -> Result<Rules, PosteriorError> {
    if let Some(&s) = sizes.iter().find(|&&s| !(1..=MAX_SHIP).contains(&s)) {
        return Err(PosteriorError::Fleet(s));
    }
    Ok(Rules::problem_g().with_fleet(crate::game::fleet::Fleet::of_sizes(sizes)))
}

/// The posterior of `grid` for the straight ships `fleet` under Problem G's rules, with
/// a fresh [`Estimator`] (see [`Estimator::estimate`]).
/// Pre: none. Post: deterministic in `seed`.
pub fn posterior(
    rows: usize,
    cols: usize,
    grid: &[CellState],
    fleet: &[usize],
    seed: u64,
) -> Result<Posterior, PosteriorError> {
    Estimator::new(seed).estimate(rows, cols, grid, fleet)
}

/// The exact posterior of `ev` for `rules`' fleet by enumeration, or `Ok(None)` when
/// more than `node_limit` placements would have to be tried (or, with the generator
/// prior, the interchangeable ships not yet settled have more than 120 orders).
/// Pre: none. Post: `Ok(Some(p))` has `p.method == Method::Exact`.
pub fn exact_posterior_under(
    ev: &Evidence<'_>,
    prior: Prior,
    node_limit: usize,
) -> Result<Option<Posterior>, PosteriorError> {
    let mut grid = Vec::new();
    exact_of(&ev.facts(&mut grid), prior, node_limit)
}

/// [`exact_posterior_under`] on the facts.
fn exact_of(ev: &Facts<'_>, prior: Prior, node_limit: usize) -> Result<Option<Posterior>, PosteriorError> {
    check(ev)?;
    let groups = groups::groups(ev.rules.fleet(), ev.rules);
    let t = Table::new(ev.rows, ev.cols, &groups, ev.rules.reach());
    let mut counts = prior::Counts::default();
    let m = Model::build(&t, ev, &groups, prior, &mut counts)?;
    match exact::enumerate(&t, &m, prior, node_limit, &mut counts) {
        Some(c) => finish_exact(&t, &m, ev.grid, c).map(Some),
        None => Ok(None),
    }
}

/// Where each ship of a named or drawn fleet is, once every ship cell is found, by
/// name; empty for a fleet given as straight sizes (Problem G's output does not change).
/// Pre: `record` is a finished scan under `rules`. Post: one entry per ship placed,
/// one per kind otherwise.
pub(crate) fn ship_places(record: &ScanRecord, rules: &Rules) -> Vec<(String, Placed)> {
    let fleet = rules.fleet();
    if !fleet.is_named() && fleet.is_straight() {
        return Vec::new();
    }
    let ev = Evidence { known: record, wrecks: None, rules };
    let places = locate(&ev, 2_000_000);
    let mut out = Vec::new();
    for (k, kind) in fleet.kinds().iter().enumerate() {
        let list = match &places {
            Ok(Some(all)) => all.get(k).cloned().unwrap_or_default(),
            _ => {
                out.push((kind.name.clone(), Placed::TooMany));
                continue;
            }
        };
        if list.len() == kind.count {
            out.extend(list.iter().map(|ship| (kind.name.clone(), Placed::At(ship.start))));
        } else {
            out.push((kind.name.clone(), Placed::Places(list.len())));
        }
    }
    out
}

/// Where each ship may be once every ship cell is found: for each kind of the rules'
/// fleet (in its order), every position (the top-left corner of the box and the shape)
/// a layout agreeing with `ev` gives it. `ev`'s unknown cells are water (every ship cell
/// is a hit). `Ok(None)` when more than `node_limit` placements would have to be tried.
/// Pre: every ship cell of the bay is a hit in `ev`. Post: one list per kind, sorted.
pub fn locate(
    ev: &Evidence<'_>,
    node_limit: usize,
) -> Result<Option<Vec<Vec<crate::game::ship::Ship>>>, PosteriorError> {
    let mut known = Vec::new();
    let ev = ev.facts(&mut known);
    let ev = &ev;
    check(ev)?;
    let grid: Vec<CellState> =
        ev.grid.iter().map(|&s| if s == CellState::Unknown { CellState::Eliminated } else { s }).collect();
    let ev = Facts { grid: &grid, ..*ev };
    let groups = groups::groups(ev.rules.fleet(), ev.rules);
    let t = Table::new(ev.rows, ev.cols, &groups, ev.rules.reach());
    let mut counts = prior::Counts::default();
    let m = Model::build(&t, &ev, &groups, Prior::Uniform, &mut counts)?;
    let Some(c) = exact::enumerate_noting(&t, &m, Prior::Uniform, node_limit, &mut counts, true) else {
        return Ok(None);
    };
    if c.layouts <= 0.0 {
        return Err(PosteriorError::Contradiction("no layout of the fleet agrees with the answers".into()));
    }
    let kinds = ev.rules.fleet().kinds().len();
    let mut out = vec![Vec::new(); kinds];
    for pid in c.used.iter().chain(&m.finished) {
        let Some(p) = t.get(*pid) else { continue };
        let Some(g) = groups.get(p.group as usize) else { continue };
        let anchor = Position::from_index(p.anchor as usize, ev.cols);
        let shape = t.shape(p.slot as usize);
        for &k in &g.kinds {
            if let Some(list) = out.get_mut(k) {
                list.push(crate::game::ship::Ship::drawn(anchor, shape));
            }
        }
    }
    for list in &mut out {
        list.sort_by_key(|s| (s.start, s.shape.rows(), s.shape.cols()));
        list.dedup();
    }
    Ok(Some(out))
}

/// Whether some layout of the rules' fleet agrees with the evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    /// A layout agrees with the evidence.
    Layout,
    /// The search was exhaustive: no layout agrees with the evidence.
    None,
    /// The bound on the work was reached first (or the bay is larger than
    /// [`POSTERIOR_CELLS`]): nothing is known.
    GaveUp,
}

/// The one consistency check of a whole game: does some layout of `ev.rules`' fleet
/// agree with every answer of `ev` (hits, water, and under rules that announce sunk
/// ships, the order of the hits and the sunk answers)? A depth-first search of the
/// exact enumeration that stops at the first layout, trying at most `budget`
/// placements.
/// Pre: none. Post: `Found::None` only when no layout exists; `GaveUp` for a bay over
/// [`POSTERIOR_CELLS`] or when the budget ran out.
pub(crate) fn exists(ev: &Evidence<'_>, budget: usize) -> Found {
    let mut grid = Vec::new();
    let facts = ev.facts(&mut grid);
    if check(&facts).is_err() {
        return Found::GaveUp;
    }
    let groups = groups::groups(facts.rules.fleet(), facts.rules);
    let t = Table::new(facts.rows, facts.cols, &groups, facts.rules.reach());
    let mut counts = prior::Counts::default();
    let m = match Model::build(&t, &facts, &groups, Prior::Uniform, &mut counts) {
        Ok(m) => m,
        Err(PosteriorError::Contradiction(_)) => return Found::None,
        Err(_) => return Found::GaveUp,
    };
    match exact::any(&t, &m, budget, &mut counts) {
        Some(true) => Found::Layout,
        Some(false) => Found::None,
        None => Found::GaveUp,
    }
}

/// Placements [`fleet_fits`] and the consistency check may try.
pub const FIT_BUDGET: usize = 200_000;

/// The consistency check's layout search ([`crate::scan::sonar::LayoutSearch`]): does
/// some layout of the rules' fleet agree with every answer of `known`? At most
/// [`FIT_BUDGET`] placements are tried.
/// Pre: none. Post: `false` only when no layout exists (a search that gave up says
/// `true`).
pub fn agrees(known: &ScanRecord, rules: &Rules) -> bool {
    !matches!(exists(&Evidence { known, wrecks: None, rules }, FIT_BUDGET), Found::None)
}

/// Checks that the rules' fleet fits an empty `rows` x `cols` bay: the placer's cheap
/// checks, then [`exists`] on a bay with nothing known yet (at most [`FIT_BUDGET`]
/// placements tried). What `play` and `advise` ask before their first probe or advice.
/// Pre: none. Post: `Err(NoLayout)` only when no layout exists; `Ok` when one was found
/// or the search gave up (the bay may still hold the fleet).
pub fn fleet_fits(rows: usize, cols: usize, rules: &Rules) -> Result<(), crate::game::placement::PlacementError> {
    crate::game::placement::Placer::with_rules(rows, cols, rules).check(rules.fleet())?;
    if rows.saturating_mul(cols) > POSTERIOR_CELLS {
        return Ok(());
    }
    let mut known = ScanRecord::default();
    known.reset(rows, cols);
    match exists(&Evidence { known: &known, wrecks: None, rules }, FIT_BUDGET) {
        Found::None => Err(crate::game::placement::PlacementError::NoLayout { rows, cols, touch: rules.touch() }),
        Found::Layout | Found::GaveUp => Ok(()),
    }
}

/// [`exact_posterior_under`] for the straight ships `fleet` under Problem G's rules.
/// Pre: none. Post: as `exact_posterior_under`.
pub fn exact_posterior(
    rows: usize,
    cols: usize,
    grid: &[CellState],
    fleet: &[usize],
    prior: Prior,
    node_limit: usize,
) -> Result<Option<Posterior>, PosteriorError> {
    let rules = sized(fleet)?;
    let ev = Facts { rows, cols, grid, log: None, wrecks: None, rules: &rules };
    exact_of(&ev, prior, node_limit)
}

#[cfg(test)]
mod tests;

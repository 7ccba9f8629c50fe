//! The probability that each cell holds a ship, given what is known (a grid of
//! [`CellState`]s: Unknown, Hit, Miss, Eliminated) and the fleet's sizes.
//!
//! # The model
//! A *layout* places every ship of the fleet: inside the board, straight, not
//! overlapping, not touching even diagonally. It is consistent with the grid when every
//! `Hit` is a ship cell and no ship cell is `Miss` or `Eliminated`. The prior over
//! layouts is [`Prior::Generator`] by default: the law of the crate's own generator
//! (`Placer::place_fleet`: largest first, each ship uniform among the placements valid
//! given the ships before it), under which a labeled layout has probability `Π 1/n_k`
//! (`n_k`: placements valid for ship `k` given ships `1..k`), summed over the orders of
//! equal ships. [`Prior::Uniform`] makes every valid layout equally likely instead (it
//! favours the edges: a ship there leaves more room to the others). The posterior of a
//! cell is the prior mass of the consistent layouts with a ship on it, over the mass of
//! all consistent layouts.
//!
//! Runs of hits closed at both ends by water or the edge are finished ships: they are
//! fixed, their size leaves the ships to place and their surroundings are water.
//!
//! # Exact or sampled
//! * **Exact** ([`Method::Exact`]): when the number of consistent layouts is small
//!   (an upper bound, or the previous estimate, at most [`Settings::exact_layouts`]),
//!   they are enumerated by backtracking, each unlabeled layout once (first the ship
//!   covering the first uncovered hit, then the free ships largest first, equal ones in
//!   increasing placement order), each weighted by its prior summed over the orders of
//!   its equal ships. Probabilities are exact ratios. Abandoned after
//!   [`Settings::exact_nodes`] placements tried.
//! * **Sampled** ([`Method::Sampled`]): otherwise by sequential importance sampling.
//!   While some hit is uncovered, the first one (row-major) gets a (ship slot,
//!   placement) pair drawn uniformly among those that cover it and fit; then each
//!   remaining ship slot, largest first, gets a placement uniform among those that fit.
//!   Every consistent labeled layout is reached by exactly one path, of probability
//!   `q = Π 1/options`; draws that get stuck have weight 0. The weight is
//!   `w = prior(layout) / (R · q)`, `R = Π rem_s!` the labelings of the remaining equal
//!   ships; for the generator prior the sum over the orders of equal ships is replaced
//!   by `L ·` the prior of one uniformly random order (`L` the number of orders), an
//!   unbiased estimate (largest sizes whose ships are all finished are summed exactly).
//!   So `E[w·f] = Σ prior·f` over consistent layouts: the ratio `Σ w·[ship on cell] / Σ
//!   w` is a consistent estimate of the posterior with O(1/N) bias (a ratio of unbiased
//!   sums). The mean of `1/(R q)` estimates the number of layouts (to switch to exact).
//!
//! Fresh layouts are drawn at every call by default. Keeping the still-consistent
//! layouts of the previous call ([`Settings::reuse`]) is valid for a fixed sequence of
//! grids, but a player probes the cell *these very layouts* rate highest, so the
//! survivors are a selected set and their estimates are biased (measured: cells rated
//! 85% held a ship 63% of the time; with fresh draws, 82%).

use crate::position::Position;
use crate::record::{CellState, ScanRecord};
use crate::rng::Rng;
use crate::ship::{MAX_SHIP, MIN_SHIP};
use std::fmt;

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
    /// The board is larger than [`MAX_CELLS`].
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
            PosteriorError::Fleet(s) => write!(f, "ship size {s} is outside {MIN_SHIP}..={MAX_SHIP}"),
            PosteriorError::TooLarge(n) => write!(f, "{n} cells is too large for the posterior (at most {MAX_CELLS})"),
            PosteriorError::Contradiction(why) => write!(f, "contradiction: {why}"),
            PosteriorError::Intractable => write!(f, "no layout consistent with the grid was found"),
        }
    }
}

impl std::error::Error for PosteriorError {}

/// The largest board (in cells) the posterior accepts.
pub const MAX_CELLS: usize = 4096;

/// The state of `(r, c)` in `grid`; cells outside read as `Eliminated` (water).
fn state_in(grid: &[CellState], rows: usize, cols: usize, r: isize, c: isize) -> CellState {
    if r < 0 || c < 0 || r as usize >= rows || c as usize >= cols {
        return CellState::Eliminated;
    }
    grid.get(r as usize * cols + c as usize).copied().unwrap_or(CellState::Eliminated)
}

/// True when the cell is known water (probed water, eliminated, or outside).
fn is_water(s: CellState) -> bool {
    matches!(s, CellState::Miss | CellState::Eliminated)
}

/// A maximal straight run of `Hit` cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HitRun {
    /// The cells, in row-major order (first is the top or left end).
    pub cells: Vec<Position>,
    /// True when the run lies along a row (always true for a single cell).
    pub horizontal: bool,
    /// True when both ends (all four sides for one cell) are water or the edge: the run is
    /// a whole ship.
    pub closed: bool,
}

impl HitRun {
    /// The run's length.
    /// Pre: none. Post: at least 1.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Always false (a run has at least one cell); present for clippy's `len` rule.
    /// Pre: none. Post: `len() == 0`.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The cells just beyond both ends along the run's axis (for one cell: its four
    /// orthogonal neighbours), inside the board.
    /// Pre: the run came from [`hit_runs`] on a `rows` x `cols` grid. Post: at most four.
    pub fn ends(&self, rows: usize, cols: usize) -> Vec<Position> {
        let (Some(&first), Some(&last)) = (self.cells.first(), self.cells.last()) else {
            return Vec::new();
        };
        if self.cells.len() == 1 {
            return first.orthogonals(rows, cols).collect();
        }
        let (before, after) = if self.horizontal {
            (
                first.step(crate::position::Direction::W, rows, cols),
                last.step(crate::position::Direction::E, rows, cols),
            )
        } else {
            (
                first.step(crate::position::Direction::N, rows, cols),
                last.step(crate::position::Direction::S, rows, cols),
            )
        };
        before.into_iter().chain(after).collect()
    }
}

/// The maximal runs of hits of `grid`, in row-major order of their first cell.
/// Pre: none. Post: `Err(Grid)` when `grid.len() != rows * cols`; `Err(Contradiction)` when
/// hits form a bent shape, touch diagonally or a run exceeds 5 cells.
pub fn hit_runs(rows: usize, cols: usize, grid: &[CellState]) -> Result<Vec<HitRun>, PosteriorError> {
    let cells = rows.saturating_mul(cols);
    if grid.len() != cells {
        return Err(PosteriorError::Grid { expected: cells, found: grid.len() });
    }
    let hit = |r: isize, c: isize| state_in(grid, rows, cols, r, c) == CellState::Hit;
    let mut runs = Vec::new();
    for i in 0..cells {
        let (r, c) = ((i / cols) as isize, (i % cols) as isize);
        // Only the first cell of a run starts it: no hit to its W or N.
        if !hit(r, c) || hit(r, c - 1) || hit(r - 1, c) {
            continue;
        }
        // Hits touching diagonally would also catch every bent shape (an L holds a
        // diagonal pair), so runs are straight once this passes.
        let south = hit(r + 1, c);
        let (dr, dc) = if south { (1, 0) } else { (0, 1) };
        let mut run = Vec::new();
        let (mut rr, mut cc) = (r, c);
        while hit(rr, cc) {
            let diagonal = hit(rr - 1, cc - 1) || hit(rr - 1, cc + 1) || hit(rr + 1, cc - 1) || hit(rr + 1, cc + 1);
            if diagonal {
                return Err(PosteriorError::Contradiction(format!(
                    "hits touch diagonally or bend at {}",
                    Position::new(rr as usize, cc as usize)
                )));
            }
            run.push(Position::new(rr as usize, cc as usize));
            rr += dr;
            cc += dc;
        }
        if run.len() > MAX_SHIP {
            return Err(PosteriorError::Contradiction(format!(
                "{} hits in a row from {}, longer than any ship",
                run.len(),
                Position::new(r as usize, c as usize)
            )));
        }
        let closed = if run.len() == 1 {
            [(-1, 0), (0, 1), (1, 0), (0, -1)].iter().all(|&(a, b)| is_water(state_in(grid, rows, cols, r + a, c + b)))
        } else {
            is_water(state_in(grid, rows, cols, r - dr, c - dc)) && is_water(state_in(grid, rows, cols, rr, cc))
        };
        runs.push(HitRun { cells: run, horizontal: dr == 0, closed });
    }
    Ok(runs)
}

/// The knowledge grid of a scan record, one state per cell in row-major order.
/// Pre: none. Post: `rows * cols` states.
pub fn grid_of(record: &ScanRecord) -> Vec<CellState> {
    (0..record.rows() * record.cols()).map(|i| record.state_at(i)).collect()
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
    rows: usize,
    cols: usize,
    grid: Vec<CellState>,
    prob: Vec<f64>,
    water: Vec<bool>,
    ship: Vec<bool>,
    /// How the probabilities were obtained.
    pub method: Method,
    /// Number of consistent layouts of the ships not yet finished (exact count, or the
    /// importance-sampling estimate; ships of equal size are interchangeable).
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
        self.rows
    }

    /// Number of columns.
    /// Pre: none. Post: no change.
    pub fn cols(&self) -> usize {
        self.cols
    }

    fn index(&self, pos: Position) -> Option<usize> {
        (pos.row < self.rows && pos.col < self.cols).then(|| pos.index(self.cols))
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
        self.index(pos).and_then(|i| self.water.get(i)).copied().unwrap_or(true)
    }

    /// True when `pos` is a ship cell in every consistent layout: a hit, or (exact)
    /// probability 1, or (sampled) a cell covered by every placement able to cover some
    /// uncovered hit.
    /// Pre: none. Post: false outside the board.
    pub fn is_certain_ship(&self, pos: Position) -> bool {
        self.index(pos).and_then(|i| self.ship.get(i)).copied().unwrap_or(false)
    }

    /// The unknown cell most likely to be a ship (ties: first in row-major order), among
    /// cells not certainly water.
    /// Pre: none. Post: `None` when no unknown cell may hold a ship.
    pub fn best(&self) -> Option<Position> {
        let mut best: Option<(usize, f64)> = None;
        for (i, (&p, &s)) in self.prob.iter().zip(&self.grid).enumerate() {
            let open = s == CellState::Unknown && !self.water.get(i).copied().unwrap_or(true);
            if open && best.is_none_or(|(_, b)| p > b) {
                best = Some((i, p));
            }
        }
        best.map(|(i, _)| Position::from_index(i, self.cols))
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
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { samples: 64, exact_layouts: 3000.0, exact_nodes: 60_000, prior: Prior::Generator, reuse: false }
    }
}

/// One placement of a ship: its cells, and its halo (cells and their 8 neighbours), as
/// bit masks over a window of words of the board.
#[derive(Debug, Clone, Copy)]
struct Placement {
    size: u8,
    /// First cell (row-major index) and the index step between cells (1 or `cols`).
    start: u32,
    step: u32,
    /// Masks: words `[first, first + len)` of the board, stored at `arena[off..off + len]`.
    cells: Span,
    halo: Span,
    /// Halo minus cells.
    ring: Span,
}

#[derive(Debug, Clone, Copy)]
struct Span {
    first: u32,
    off: u32,
    len: u32,
}

/// Every placement of every size on one board size.
#[derive(Debug, Clone)]
struct Table {
    rows: usize,
    cols: usize,
    words: usize,
    arena: Vec<u64>,
    all: Vec<Placement>,
    /// Placement ids by size, ascending.
    by_size: [Vec<u32>; MAX_SHIP + 1],
    /// Placement id by (size, south, start), `u32::MAX` for none.
    lookup: Vec<u32>,
    /// The board's cells as a mask (bits beyond the last cell clear).
    board: Vec<u64>,
    /// Start cells of the placements, as masks, by (size, south).
    starts: Vec<Vec<u64>>,
}

impl Table {
    fn new(rows: usize, cols: usize) -> Table {
        let mut t = Table {
            rows,
            cols,
            words: (rows * cols).div_ceil(64),
            arena: Vec::new(),
            all: Vec::new(),
            by_size: Default::default(),
            lookup: vec![u32::MAX; (MAX_SHIP + 1) * 2 * rows * cols],
            board: vec![0; (rows * cols).div_ceil(64)],
            starts: vec![vec![0; (rows * cols).div_ceil(64)]; (MAX_SHIP + 1) * 2],
        };
        for i in 0..rows * cols {
            set_bit(&mut t.board, i);
        }
        for size in MIN_SHIP..=MAX_SHIP {
            for i in 0..rows * cols {
                let (r, c) = (i / cols, i % cols);
                // Size 1 has one orientation only.
                let orients: &[bool] = if size == 1 { &[false] } else { &[false, true] };
                for &south in orients {
                    let fits = if south { r + size <= rows } else { c + size <= cols };
                    if !fits {
                        continue;
                    }
                    let step = if south { cols } else { 1 };
                    let cells: Vec<usize> = (0..size).map(|k| i + k * step).collect();
                    let mut halo = Vec::new();
                    for &cell in &cells {
                        let (cr, cc) = ((cell / cols) as isize, (cell % cols) as isize);
                        for dr in -1..=1 {
                            for dc in -1..=1 {
                                let (nr, nc) = (cr + dr, cc + dc);
                                if nr >= 0 && nc >= 0 && (nr as usize) < rows && (nc as usize) < cols {
                                    halo.push(nr as usize * cols + nc as usize);
                                }
                            }
                        }
                    }
                    let ring: Vec<usize> = halo.iter().copied().filter(|h| !cells.contains(h)).collect();
                    let p = Placement {
                        size: size as u8,
                        start: i as u32,
                        step: step as u32,
                        cells: t.span(&cells),
                        halo: t.span(&halo),
                        ring: t.span(&ring),
                    };
                    let pid = t.all.len() as u32;
                    if let Some(list) = t.by_size.get_mut(size) {
                        list.push(pid);
                    }
                    if let Some(x) = t.lookup.get_mut((size * 2 + usize::from(south)) * rows * cols + i) {
                        *x = pid;
                    }
                    if let Some(m) = t.starts.get_mut(size * 2 + usize::from(south)) {
                        set_bit(m, i);
                    }
                    t.all.push(p);
                }
            }
        }
        t
    }

    /// Stores the mask of `cells` (non-empty) and returns its span.
    fn span(&mut self, cells: &[usize]) -> Span {
        let lo = cells.iter().min().copied().unwrap_or(0) / 64;
        let hi = cells.iter().max().copied().unwrap_or(0) / 64;
        let off = self.arena.len();
        self.arena.resize(off + hi - lo + 1, 0);
        for &c in cells {
            if let Some(w) = self.arena.get_mut(off + c / 64 - lo) {
                *w |= 1 << (c % 64);
            }
        }
        Span { first: lo as u32, off: off as u32, len: (hi - lo + 1) as u32 }
    }

    fn mask(&self, s: Span) -> (&[u64], usize) {
        let off = s.off as usize;
        (self.arena.get(off..off + s.len as usize).unwrap_or(&[]), s.first as usize)
    }

    /// True when the span's mask shares no bit with `board`.
    fn disjoint(&self, board: &[u64], s: Span) -> bool {
        let (m, first) = self.mask(s);
        let b = board.get(first..first + m.len()).unwrap_or(&[]);
        b.iter().zip(m).all(|(x, y)| x & y == 0)
    }

    /// ORs the span's mask into `board`.
    fn or_into(&self, board: &mut [u64], s: Span) {
        let (m, first) = self.mask(s);
        if let Some(b) = board.get_mut(first..first + m.len()) {
            b.iter_mut().zip(m).for_each(|(x, y)| *x |= y);
        }
    }

    fn get(&self, pid: u32) -> Option<&Placement> {
        self.all.get(pid as usize)
    }

    /// The placement id of a ship of `size` starting at `start` (row-major index),
    /// running south or east (size 1: east only).
    fn find(&self, size: usize, start: usize, south: bool) -> Option<u32> {
        let slot = (size * 2 + usize::from(south && size > 1)) * self.rows * self.cols + start;
        self.lookup.get(slot).copied().filter(|&pid| pid != u32::MAX)
    }

    /// Writes into `fit.east` and `fit.south` the starts of the `size` ships whose cells
    /// all avoid `blocked`; returns how many placements fit in all.
    fn fitting(&self, blocked: &[u64], size: usize, fit: &mut Fit) -> u64 {
        fit.free.clear();
        fit.free.extend(blocked.iter().zip(&self.board).map(|(b, m)| !b & m));
        let mut total = 0;
        for south in [false, true] {
            let acc = if south { &mut fit.south } else { &mut fit.east };
            acc.clear();
            if south && size == 1 {
                continue;
            }
            acc.extend_from_slice(self.starts.get(size * 2 + usize::from(south)).map_or(&[][..], |v| v));
            let step = if south { self.cols } else { 1 };
            // A start fits when the cells `start + j * step`, j < size, are all free.
            for j in 0..size {
                shr_and(acc, &fit.free, j * step);
            }
            total += acc.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        }
        total
    }

    /// The `r`-th (from 0; east ones first, then south ones, by start) placement found
    /// by the last [`Table::fitting`] call for a `size` ship.
    fn nth_fit(&self, fit: &Fit, size: usize, mut r: u64) -> Option<u32> {
        for (south, acc) in [(false, &fit.east), (true, &fit.south)] {
            for (k, &w) in acc.iter().enumerate() {
                let c = u64::from(w.count_ones());
                if r >= c {
                    r -= c;
                    continue;
                }
                let mut w = w;
                for _ in 0..r {
                    w &= w - 1;
                }
                return self.find(size, k * 64 + w.trailing_zeros() as usize, south);
            }
        }
        None
    }

    fn cells(&self, pid: u32) -> impl Iterator<Item = usize> + '_ {
        let p = self.get(pid).copied();
        (0..p.map_or(0, |p| p.size as usize)).filter_map(move |k| p.map(|p| p.start as usize + k * p.step as usize))
    }
}

/// Scratch masks for [`Table::fitting`].
#[derive(Debug, Clone, Default)]
struct Fit {
    free: Vec<u64>,
    east: Vec<u64>,
    south: Vec<u64>,
}

/// A product of many counts kept as `ln`, with few logarithms.
#[derive(Debug, Clone, Copy)]
struct LnProduct {
    ln: f64,
    product: f64,
}

impl LnProduct {
    fn new() -> LnProduct {
        LnProduct { ln: 0.0, product: 1.0 }
    }

    fn mul(&mut self, x: f64) {
        self.product *= x;
        if self.product > 1e200 || self.product < 1e-200 {
            self.ln += self.product.ln();
            self.product = 1.0;
        }
    }

    fn ln(self) -> f64 {
        self.ln + self.product.ln()
    }
}

/// `acc &= src >> k` on multi-word bit sets (bit `i` of the shifted set is bit `i + k`).
fn shr_and(acc: &mut [u64], src: &[u64], k: usize) {
    let (q, b) = (k / 64, k % 64);
    for (i, a) in acc.iter_mut().enumerate() {
        let lo = src.get(i + q).copied().unwrap_or(0);
        let v = if b == 0 { lo } else { (lo >> b) | (src.get(i + q + 1).copied().unwrap_or(0) << (64 - b)) };
        *a &= v;
    }
}

fn bit(board: &[u64], i: usize) -> bool {
    board.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
}

fn set_bit(board: &mut [u64], i: usize) {
    if let Some(w) = board.get_mut(i / 64) {
        *w |= 1 << (i % 64);
    }
}

/// What one grid and fleet leave open: the ships still to place and where they may go.
#[derive(Debug, Clone, Default)]
struct Model {
    /// Water cells (probed or eliminated).
    water: Vec<u64>,
    /// Hit cells not part of a finished ship, and all hit cells.
    hits: Vec<u64>,
    all_hits: Vec<u64>,
    /// Cells no remaining ship may use: water, finished ships and their halos.
    base: Vec<u64>,
    /// The whole fleet and the ships still to place, by size.
    fleet: [usize; MAX_SHIP + 1],
    rem: [usize; MAX_SHIP + 1],
    /// Placements of the finished ships.
    finished: Vec<u32>,
    /// Uncovered hits (row-major) and, for each, the placements that may cover it.
    hit_cells: Vec<usize>,
    hit_opts: Vec<Vec<u32>>,
    /// Placements of each size that avoid `base` and do not touch any hit.
    free: [Vec<u32>; MAX_SHIP + 1],
    /// `ln Π rem[s]!`: orders of the interchangeable remaining ships.
    ln_rem_labels: f64,
    /// The generator prior, split at the largest sizes whose ships are all finished (the
    /// prefix, a constant here): `ln` of its sum over labelings, and its halos.
    ln_prefix: f64,
    prefix_blocked: Vec<u64>,
    /// Sizes after the prefix, largest first, and `ln Π fleet[s]!` over them.
    suffix_sizes: Vec<usize>,
    ln_suffix_labels: f64,
}

fn ln_factorial(n: usize) -> f64 {
    (2..=n).map(|k| (k as f64).ln()).sum()
}

/// Orders of interchangeable ships beyond which the generator prior is not summed
/// exactly (the prefix stops growing; exact enumeration is not used).
const MAX_LABELINGS: f64 = 120.0;

impl Model {
    fn build(t: &Table, grid: &[CellState], fleet: &[usize], prior: Prior) -> Result<Model, PosteriorError> {
        let (rows, cols, words) = (t.rows, t.cols, t.words);
        let zero = vec![0; words];
        let mut m = Model {
            water: zero.clone(),
            hits: zero.clone(),
            all_hits: zero.clone(),
            base: zero.clone(),
            prefix_blocked: zero,
            ..Model::default()
        };
        for &s in fleet {
            match m.fleet.get_mut(s) {
                Some(n) if s >= MIN_SHIP => *n += 1,
                _ => return Err(PosteriorError::Fleet(s)),
            }
        }
        m.rem = m.fleet;
        for (i, &s) in grid.iter().enumerate() {
            if is_water(s) {
                set_bit(&mut m.water, i);
                set_bit(&mut m.base, i);
            } else if s == CellState::Hit {
                set_bit(&mut m.all_hits, i);
            }
        }
        for run in hit_runs(rows, cols, grid)? {
            if run.closed {
                let size = run.len();
                let start = run.cells.first().map_or(0, |p| p.index(cols));
                let pid = t.find(size, start, !run.horizontal);
                match (m.rem.get_mut(size), pid) {
                    (Some(n), Some(pid)) if *n > 0 => {
                        *n -= 1;
                        m.finished.push(pid);
                    }
                    _ => {
                        return Err(PosteriorError::Contradiction(format!(
                            "a finished ship of {size} cells at {} is not in the fleet (or one too many)",
                            Position::from_index(start, cols)
                        )))
                    }
                }
                if let Some(p) = pid.and_then(|pid| t.get(pid)) {
                    t.or_into(&mut m.base, p.halo);
                }
            } else {
                for p in &run.cells {
                    set_bit(&mut m.hits, p.index(cols));
                    m.hit_cells.push(p.index(cols));
                }
            }
        }
        m.hit_cells.sort_unstable();
        let ships: usize = m.rem.iter().sum();
        if ships == 0 && !m.hit_cells.is_empty() {
            return Err(PosteriorError::Contradiction("hits remain but every ship is finished".into()));
        }
        m.ln_rem_labels = m.rem.iter().map(|&n| ln_factorial(n)).sum();
        for size in MIN_SHIP..=MAX_SHIP {
            if m.rem.get(size).copied().unwrap_or(0) == 0 {
                continue;
            }
            let free: Vec<u32> = t
                .by_size
                .get(size)
                .map_or(&[][..], |v| v)
                .iter()
                .copied()
                .filter(|&pid| t.get(pid).is_some_and(|p| t.disjoint(&m.base, p.cells) && t.disjoint(&m.hits, p.halo)))
                .collect();
            if let Some(f) = m.free.get_mut(size) {
                *f = free;
            }
        }
        for &h in &m.hit_cells {
            let (r, c) = (h / cols, h % cols);
            let mut opts = Vec::new();
            for size in MIN_SHIP..=MAX_SHIP {
                if m.rem.get(size).copied().unwrap_or(0) == 0 {
                    continue;
                }
                for south in [false, true] {
                    if size == 1 && south {
                        continue;
                    }
                    let pos = if south { r } else { c };
                    for k in 0..size {
                        let Some(first) = pos.checked_sub(k) else { break };
                        let start = if south { first * cols + c } else { r * cols + first };
                        let Some(pid) = t.find(size, start, south) else { continue };
                        let ok =
                            t.get(pid).is_some_and(|p| t.disjoint(&m.base, p.cells) && t.disjoint(&m.hits, p.ring));
                        if ok {
                            opts.push(pid);
                        }
                    }
                }
            }
            if opts.is_empty() {
                return Err(PosteriorError::Contradiction(format!(
                    "no remaining ship can cover the hit at {}",
                    Position::from_index(h, cols)
                )));
            }
            m.hit_opts.push(opts);
        }
        // Split the generator's order: the leading sizes whose ships are all finished
        // form a constant prefix, summed over its labelings once here.
        let mut labelings = 1.0;
        let mut prefix: Vec<u32> = Vec::new();
        let mut sizes = (MIN_SHIP..=MAX_SHIP).rev().filter(|&s| m.fleet.get(s).copied().unwrap_or(0) > 0).peekable();
        while let Some(&s) = sizes.peek() {
            let n = m.fleet.get(s).copied().unwrap_or(0);
            let all_done = m.rem.get(s).copied().unwrap_or(0) == 0;
            let more = labelings * ln_factorial(n).exp();
            if prior == Prior::Uniform || !all_done || more > MAX_LABELINGS {
                break;
            }
            labelings = more;
            prefix.extend(m.finished.iter().copied().filter(|&pid| t.get(pid).is_some_and(|p| p.size as usize == s)));
            sizes.next();
        }
        m.suffix_sizes = sizes.collect();
        m.ln_suffix_labels = m.suffix_sizes.iter().map(|&s| ln_factorial(m.fleet.get(s).copied().unwrap_or(0))).sum();
        if prior == Prior::Generator {
            let mut g = GenPrior::new(t);
            let mut blocked = vec![0; words];
            m.ln_prefix = g.sum_over_labelings(&prefix, &mut blocked).ln();
            for &pid in &prefix {
                if let Some(p) = t.get(pid) {
                    t.or_into(&mut m.prefix_blocked, p.halo);
                }
            }
        }
        Ok(m)
    }

    /// Ships of `size` in the suffix of the generator's order: finished ones and `placed`.
    fn suffix_ships(&self, t: &Table, placed: &[u32], out: &mut Vec<u32>) {
        out.clear();
        for &size in &self.suffix_sizes {
            for &pid in self.finished.iter().chain(placed) {
                if t.get(pid).is_some_and(|p| p.size as usize == size) {
                    out.push(pid);
                }
            }
        }
    }

    /// An upper bound on the number of unlabeled layouts.
    fn layout_bound(&self) -> f64 {
        let mut b = 1.0f64;
        for o in &self.hit_opts {
            b *= o.len() as f64;
        }
        for size in MIN_SHIP..=MAX_SHIP {
            let n = self.free.get(size).map_or(0, Vec::len) as f64;
            let m = self.rem.get(size).copied().unwrap_or(0);
            // Σ_{k<=m} C(n, k): the free ships of this size are a subset of at most m.
            let (mut term, mut sum) = (1.0f64, 1.0f64);
            for k in 1..=m {
                term *= (n - k as f64 + 1.0).max(0.0) / k as f64;
                sum += term;
            }
            b *= sum;
        }
        b
    }

    /// The first uncovered hit (its index in `hit_cells`), given the blocked mask.
    fn first_uncovered(&self, blocked: &[u64]) -> Option<usize> {
        self.hit_cells.iter().position(|&h| !bit(blocked, h))
    }
}

/// The prior of a layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prior {
    /// The crate's generator ([`crate::placement::Placer::place_fleet`]): ships placed
    /// largest first, each uniformly among the placements valid given the ships before
    /// it. A labeled layout (ships in that order) has probability `Π 1/n_k`, `n_k` the
    /// valid placements of ship `k` given ships `1..k`; an unlabeled one sums its
    /// labelings (orders of equal ships).
    Generator,
    /// Every valid layout equally likely.
    Uniform,
}

/// Evaluates the generator prior.
struct GenPrior<'a> {
    t: &'a Table,
    fit: Fit,
}

impl<'a> GenPrior<'a> {
    fn new(t: &'a Table) -> GenPrior<'a> {
        GenPrior { t, fit: Fit::default() }
    }

    /// `ln Π 1/n_k` for `ships` placed in this order after `blocked` (halos so far),
    /// which it updates.
    fn ln_in_order(&mut self, ships: &[u32], blocked: &mut [u64]) -> f64 {
        let mut prod = LnProduct::new();
        for &pid in ships {
            let Some(p) = self.t.get(pid) else { continue };
            let n = self.t.fitting(blocked, p.size as usize, &mut self.fit);
            prod.mul(n.max(1) as f64);
            self.t.or_into(blocked, p.halo);
        }
        -prod.ln()
    }

    /// `Σ Π 1/n_k` over every order of `ships` that keeps sizes non-increasing (`ships`
    /// grouped by size, largest first), placed after `blocked`.
    fn sum_over_labelings(&mut self, ships: &[u32], blocked: &mut [u64]) -> f64 {
        let mut used = vec![false; ships.len()];
        self.sum_rec(ships, &mut used, blocked)
    }

    fn sum_rec(&mut self, ships: &[u32], used: &mut [bool], blocked: &[u64]) -> f64 {
        // The next slot takes the largest size left; any unused ship of that size.
        let next = ships
            .iter()
            .zip(used.iter())
            .filter(|(_, &u)| !u)
            .filter_map(|(&pid, _)| self.t.get(pid))
            .map(|p| p.size)
            .max();
        let Some(size) = next else { return 1.0 };
        let n = self.t.fitting(blocked, size as usize, &mut self.fit).max(1) as f64;
        let mut total = 0.0;
        let mut child = blocked.to_vec();
        for k in 0..ships.len() {
            let (Some(&pid), Some(&u)) = (ships.get(k), used.get(k)) else { continue };
            let Some(p) = self.t.get(pid).copied() else { continue };
            if u || p.size != size {
                continue;
            }
            child.copy_from_slice(blocked);
            self.t.or_into(&mut child, p.halo);
            if let Some(x) = used.get_mut(k) {
                *x = true;
            }
            total += self.sum_rec(ships, used, &child) / n;
            if let Some(x) = used.get_mut(k) {
                *x = false;
            }
        }
        total
    }
}

/// Exact enumeration of the unlabeled layouts of a model.
struct Enumeration<'a> {
    t: &'a Table,
    m: &'a Model,
    prior: Prior,
    gen: GenPrior<'a>,
    rem: [usize; MAX_SHIP + 1],
    /// Prior weight of the layouts through each cell.
    weights: Vec<f64>,
    /// Placements on the current path, and scratch.
    placed: Vec<u32>,
    ships: Vec<u32>,
    /// One blocked mask per depth, `words` each.
    stack: Vec<u64>,
    nodes: usize,
    limit: usize,
}

impl Enumeration<'_> {
    /// Copies depth `d`'s mask to depth `d + 1` and adds the halo of `pid`.
    fn push(&mut self, d: usize, pid: u32) {
        let w = self.t.words;
        if self.stack.len() < (d + 2) * w {
            self.stack.resize((d + 2) * w, 0);
        }
        self.stack.copy_within(d * w..(d + 1) * w, (d + 1) * w);
        if let (Some(p), Some(next)) = (self.t.get(pid), self.stack.get_mut((d + 1) * w..(d + 2) * w)) {
            self.t.or_into(next, p.halo);
        }
    }

    fn level(&self, d: usize) -> &[u64] {
        let w = self.t.words;
        self.stack.get(d * w..(d + 1) * w).unwrap_or(&[])
    }

    /// A complete layout: its count (1) and prior weight.
    fn leaf(&mut self) -> (f64, f64) {
        if self.prior == Prior::Uniform {
            return (1.0, 1.0);
        }
        let mut ships = std::mem::take(&mut self.ships);
        self.m.suffix_ships(self.t, &self.placed, &mut ships);
        let mut blocked = self.m.prefix_blocked.clone();
        let w = self.gen.sum_over_labelings(&ships, &mut blocked);
        self.ships = ships;
        (1.0, w)
    }

    /// Tries `pid` at depth `d`: recurses, returns (layouts, weight) of the completions
    /// (None: over budget).
    fn place(&mut self, d: usize, pid: u32, next: impl FnOnce(&mut Self) -> Option<(f64, f64)>) -> Option<(f64, f64)> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return None;
        }
        self.push(d, pid);
        self.placed.push(pid);
        let r = next(self);
        self.placed.pop();
        let (c, w) = r?;
        if w > 0.0 {
            for cell in self.t.cells(pid) {
                if let Some(x) = self.weights.get_mut(cell) {
                    *x += w;
                }
            }
        }
        Some((c, w))
    }

    /// Layouts completing depth `d`: cover the first uncovered hit, then the free ships.
    fn hits(&mut self, d: usize) -> Option<(f64, f64)> {
        let Some(k) = self.m.first_uncovered(self.level(d)) else {
            return self.free(d, MAX_SHIP, 0);
        };
        let mut total = (0.0, 0.0);
        let opts = self.m.hit_opts.get(k).map_or(&[][..], |v| v);
        for &pid in opts {
            let Some(p) = self.t.get(pid).copied() else { continue };
            let s = p.size as usize;
            if self.rem.get(s).copied().unwrap_or(0) == 0 || !self.t.disjoint(self.level(d), p.cells) {
                continue;
            }
            self.rem[s] -= 1;
            let r = self.place(d, pid, |e| e.hits(d + 1));
            self.rem[s] += 1;
            let (c, w) = r?;
            total = (total.0 + c, total.1 + w);
        }
        Some(total)
    }

    /// Layouts placing the free ships of size at most `max`; ships of the size being
    /// placed take candidates from index `from` on (equal ships in increasing order).
    fn free(&mut self, d: usize, max: usize, from: usize) -> Option<(f64, f64)> {
        let Some(s) = (MIN_SHIP..=max).rev().find(|&s| self.rem.get(s).copied().unwrap_or(0) > 0) else {
            return Some(self.leaf());
        };
        let from = if s == max { from } else { 0 };
        let mut total = (0.0, 0.0);
        let list = self.m.free.get(s).map_or(&[][..], |v| v);
        for (j, &pid) in list.iter().enumerate().skip(from) {
            let Some(p) = self.t.get(pid).copied() else { continue };
            if !self.t.disjoint(self.level(d), p.cells) {
                continue;
            }
            self.rem[s] -= 1;
            let r = self.place(d, pid, |e| e.free(d + 1, s, j + 1));
            self.rem[s] += 1;
            let (c, w) = r?;
            total = (total.0 + c, total.1 + w);
        }
        Some(total)
    }
}

/// The outcome of an enumeration: unlabeled layouts, their total prior weight, and the
/// weight through each cell.
struct Counted {
    layouts: f64,
    weight: f64,
    cells: Vec<f64>,
}

/// Enumerates every unlabeled consistent layout, or `None` when more than `limit`
/// placements had to be tried (or the generator prior has too many labelings).
fn enumerate(t: &Table, m: &Model, prior: Prior, limit: usize) -> Option<Counted> {
    if prior == Prior::Generator && m.ln_suffix_labels > MAX_LABELINGS.ln() {
        return None;
    }
    let mut e = Enumeration {
        t,
        m,
        prior,
        gen: GenPrior::new(t),
        rem: m.rem,
        weights: vec![0.0; t.rows * t.cols],
        placed: Vec::new(),
        ships: Vec::new(),
        stack: m.base.clone(),
        nodes: 0,
        limit,
    };
    let (layouts, weight) = e.hits(0)?;
    Some(Counted { layouts, weight, cells: e.weights })
}

/// A weighted layout: its placements (finished ships excluded) and `ln` of its
/// importance weight (prior over proposal, per unlabeled layout).
#[derive(Debug, Clone)]
struct Sample {
    pids: Vec<u32>,
    ln_w: f64,
}

/// Scratch space for drawing.
#[derive(Debug, Clone, Default)]
struct Scratch {
    blocked: Vec<u64>,
    opts: Vec<u32>,
    pids: Vec<u32>,
    fit: Fit,
    ships: Vec<u32>,
}

/// Draws one layout by sequential importance sampling into `s.pids`; returns `ln Π
/// options` (the inverse of its probability as a labeled path), or `None` when the draw
/// got stuck (weight 0).
fn draw(t: &Table, m: &Model, rng: &mut Rng, s: &mut Scratch) -> Option<f64> {
    s.blocked.clear();
    s.blocked.extend_from_slice(&m.base);
    s.pids.clear();
    let mut rem = m.rem;
    let mut options = LnProduct::new();
    // Hit phase: each option is a (ship slot, placement) pair, so a placement of size s
    // counts rem[s] times (one per interchangeable ship of that size).
    while let Some(k) = m.first_uncovered(&s.blocked) {
        let mut total = 0u64;
        s.opts.clear();
        for &pid in m.hit_opts.get(k).map_or(&[][..], |v| v) {
            let Some(p) = t.get(pid) else { continue };
            let n = rem.get(p.size as usize).copied().unwrap_or(0) as u64;
            if n > 0 && t.disjoint(&s.blocked, p.cells) {
                total += n;
                s.opts.push(pid);
            }
        }
        let mut r = rng.below(total);
        let pick = s.opts.iter().copied().find(|&pid| {
            let n = t.get(pid).map_or(0, |p| rem.get(p.size as usize).copied().unwrap_or(0)) as u64;
            if r < n {
                true
            } else {
                r -= n;
                false
            }
        })?;
        options.mul(total as f64);
        let p = t.get(pick)?;
        *rem.get_mut(p.size as usize)? -= 1;
        t.or_into(&mut s.blocked, p.halo);
        s.pids.push(pick);
    }
    // Free phase: largest first, each slot uniform among the placements that fit (all
    // hits are covered and their halos blocked, so fitting means avoiding `blocked`).
    for size in (MIN_SHIP..=MAX_SHIP).rev() {
        for _ in 0..rem.get(size).copied().unwrap_or(0) {
            let n = t.fitting(&s.blocked, size, &mut s.fit);
            if n == 0 {
                return None;
            }
            let pick = t.nth_fit(&s.fit, size, rng.below(n))?;
            options.mul(n as f64);
            if let Some(p) = t.get(pick) {
                t.or_into(&mut s.blocked, p.halo);
            }
            s.pids.push(pick);
        }
    }
    Some(options.ln())
}

/// `ln` of an unbiased estimate of the generator prior of the unlabeled layout (finished
/// ships and `s.pids`): the constant prefix times `L · Π 1/n_k` for one uniformly random
/// order of the equal ships of the suffix (`L` the number of such orders).
fn ln_generator_prior(t: &Table, m: &Model, rng: &mut Rng, s: &mut Scratch) -> f64 {
    let mut ships = std::mem::take(&mut s.ships);
    m.suffix_ships(t, &s.pids, &mut ships);
    // Shuffle within each run of equal sizes (Fisher-Yates).
    let mut start = 0;
    while start < ships.len() {
        let size = t.get(ships.get(start).copied().unwrap_or(0)).map_or(0, |p| p.size);
        let mut end = start;
        while end < ships.len() && t.get(ships.get(end).copied().unwrap_or(0)).map_or(0, |p| p.size) == size {
            end += 1;
        }
        for k in (start + 1..end).rev() {
            let j = start + rng.below((k - start + 1) as u64) as usize;
            ships.swap(k, j);
        }
        start = end.max(start + 1);
    }
    s.blocked.clear();
    s.blocked.extend_from_slice(&m.prefix_blocked);
    let mut g = GenPrior { t, fit: std::mem::take(&mut s.fit) };
    let ln = g.ln_in_order(&ships, &mut s.blocked);
    s.fit = g.fit;
    s.ships = ships;
    m.ln_prefix + m.ln_suffix_labels + ln
}

/// True when the layout `pids` agrees with the model's grid: no ship cell on water and
/// every hit covered.
fn consistent(t: &Table, m: &Model, pids: &[u32], union: &mut Vec<u64>) -> bool {
    union.clear();
    union.resize(t.words, 0);
    for &pid in pids.iter().chain(&m.finished) {
        let Some(p) = t.get(pid) else { return false };
        if !t.disjoint(&m.water, p.cells) {
            return false;
        }
        t.or_into(union, p.cells);
    }
    m.all_hits.iter().zip(union.iter()).all(|(h, u)| h & !u == 0)
}

/// Computes posteriors, keeping its weighted layouts from call to call while the grid
/// only gains information. Deterministic for a given seed and sequence of calls.
#[derive(Debug, Clone)]
pub struct Estimator {
    settings: Settings,
    rng: Rng,
    table: Option<Table>,
    pool: Vec<Sample>,
    /// The grid and fleet the pool was drawn for.
    last_grid: Vec<CellState>,
    last_fleet: Vec<usize>,
    /// The latest estimate of the number of layouts (never increases while the grid
    /// only gains information).
    last_layouts: f64,
    scratch: Scratch,
    union: Vec<u64>,
}

impl Estimator {
    /// An estimator with default [`Settings`] drawing from `seed`.
    /// Pre: none. Post: empty pool.
    pub fn new(seed: u64) -> Estimator {
        Estimator::with_settings(seed, Settings::default())
    }

    /// An estimator with the given settings.
    /// Pre: none (`samples` 0 counts as 1). Post: empty pool.
    pub fn with_settings(seed: u64, settings: Settings) -> Estimator {
        Estimator {
            settings,
            rng: Rng::new(seed),
            table: None,
            pool: Vec::new(),
            last_grid: Vec::new(),
            last_fleet: Vec::new(),
            last_layouts: f64::INFINITY,
            scratch: Scratch::default(),
            union: Vec::new(),
        }
    }

    /// Forgets every kept layout and restarts the random stream from `seed`.
    /// Pre: none. Post: the next call behaves as on a fresh estimator with the same
    /// settings and seed.
    pub fn reset(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
        self.pool.clear();
        self.last_grid.clear();
        self.last_fleet.clear();
        self.last_layouts = f64::INFINITY;
    }

    /// The posterior of `grid` (row-major, `rows * cols` states) for `fleet` (every ship of
    /// the bay, finished or not, any order).
    /// Pre: none. Post: `Ok` probabilities are 1 on hits and 0 on water; `Err` when the
    /// grid is malformed, the board too large, or no layout agrees with the grid.
    pub fn estimate(
        &mut self,
        rows: usize,
        cols: usize,
        grid: &[CellState],
        fleet: &[usize],
    ) -> Result<Posterior, PosteriorError> {
        let cells = rows.saturating_mul(cols);
        if cells > MAX_CELLS {
            return Err(PosteriorError::TooLarge(cells));
        }
        if grid.len() != cells {
            return Err(PosteriorError::Grid { expected: cells, found: grid.len() });
        }
        if self.table.as_ref().is_none_or(|t| t.rows != rows || t.cols != cols) {
            self.table = Some(Table::new(rows, cols));
        }
        let Some(t) = self.table.take() else { return Err(PosteriorError::Intractable) };
        let result = self.estimate_with(&t, grid, fleet);
        self.table = Some(t);
        result
    }

    fn estimate_with(&mut self, t: &Table, grid: &[CellState], fleet: &[usize]) -> Result<Posterior, PosteriorError> {
        let prior = self.settings.prior;
        let m = Model::build(t, grid, fleet, prior)?;
        // The pool stays valid only while the grid refines the one it was drawn for.
        let refines = self.last_fleet == fleet
            && self.last_grid.len() == grid.len()
            && self.last_grid.iter().zip(grid).all(|(&a, &b)| a == CellState::Unknown || a == b);
        if !refines || !self.settings.reuse {
            self.pool.clear();
            self.last_layouts = f64::INFINITY;
        }
        self.last_grid.clear();
        self.last_grid.extend_from_slice(grid);
        self.last_fleet.clear();
        self.last_fleet.extend_from_slice(fleet);

        if self.last_layouts.min(m.layout_bound()) <= self.settings.exact_layouts {
            if let Some(c) = enumerate(t, &m, prior, self.settings.exact_nodes) {
                self.last_layouts = c.layouts;
                return finish_exact(t, &m, grid, c);
            }
        }
        // Keep the layouts that still agree, then top the pool up with fresh draws.
        let mut union = std::mem::take(&mut self.union);
        self.pool.retain(|s| consistent(t, &m, &s.pids, &mut union));
        self.union = union;
        let attempts = self.settings.samples.max(1).saturating_sub(self.pool.len());
        let (mut count_ln, mut failed) = (Vec::with_capacity(attempts), 0usize);
        for _ in 0..attempts {
            let Some(ln_options) = draw(t, &m, &mut self.rng, &mut self.scratch) else {
                failed += 1;
                continue;
            };
            // 1 / (R q): R = Π rem[s]! labeled paths give the same unlabeled layout.
            let ln_count = ln_options - m.ln_rem_labels;
            count_ln.push(ln_count);
            let ln_w = match prior {
                Prior::Uniform => ln_count,
                Prior::Generator => ln_count + ln_generator_prior(t, &m, &mut self.rng, &mut self.scratch),
            };
            self.pool.push(Sample { pids: self.scratch.pids.clone(), ln_w });
        }
        if attempts > 0 {
            // The mean of 1/(R q) over all attempts (stuck ones count 0) estimates the
            // number of unlabeled layouts.
            let max = count_ln.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if max.is_finite() {
                let sum: f64 = count_ln.iter().map(|&l| (l - max).exp()).sum();
                let ln_mean = max + (sum / (count_ln.len() + failed) as f64).ln();
                self.last_layouts = self.last_layouts.min(ln_mean.exp());
            }
        }
        if self.pool.is_empty() {
            // Sampling found nothing: enumerate with a larger budget to tell a
            // contradiction from bad luck.
            return match enumerate(t, &m, prior, self.settings.exact_nodes.saturating_mul(20)) {
                Some(c) => finish_exact(t, &m, grid, c),
                None => Err(PosteriorError::Intractable),
            };
        }
        Ok(self.finish_sampled(t, &m, grid))
    }

    fn finish_sampled(&self, t: &Table, m: &Model, grid: &[CellState]) -> Posterior {
        let max = self.pool.iter().map(|s| s.ln_w).fold(f64::NEG_INFINITY, f64::max);
        let mut prob = vec![0.0; grid.len()];
        let (mut sum, mut sum2) = (0.0, 0.0);
        for s in &self.pool {
            let w = (s.ln_w - max).exp();
            sum += w;
            sum2 += w * w;
            for &pid in &s.pids {
                for cell in t.cells(pid) {
                    if let Some(x) = prob.get_mut(cell) {
                        *x += w;
                    }
                }
            }
        }
        if sum > 0.0 {
            prob.iter_mut().for_each(|x| *x /= sum);
        }
        let (water, ship) = certainties(t, m, grid);
        let mut post = Posterior {
            rows: t.rows,
            cols: t.cols,
            grid: grid.to_vec(),
            prob,
            water,
            ship,
            method: Method::Sampled,
            layouts: self.last_layouts,
            samples: self.pool.len(),
            effective_samples: if sum2 > 0.0 { sum * sum / sum2 } else { 0.0 },
        };
        clamp(&mut post);
        post
    }
}

/// Sound certainties without enumeration: a cell is certainly water when no placement
/// that fits the grid (a free one, or one covering an uncovered hit) covers it; certainly
/// a ship when it is a hit or lies in every placement able to cover some hit.
fn certainties(t: &Table, m: &Model, grid: &[CellState]) -> (Vec<bool>, Vec<bool>) {
    let n = grid.len();
    let mut may = vec![false; n];
    let mut ship: Vec<bool> = grid.iter().map(|&s| s == CellState::Hit).collect();
    for size in MIN_SHIP..=MAX_SHIP {
        for &pid in m.free.get(size).map_or(&[][..], |v| v) {
            t.cells(pid).for_each(|c| {
                if let Some(x) = may.get_mut(c) {
                    *x = true
                }
            });
        }
    }
    for opts in &m.hit_opts {
        let mut all = vec![0u32; n];
        for &pid in opts {
            for c in t.cells(pid) {
                if let Some(x) = may.get_mut(c) {
                    *x = true;
                }
                if let Some(x) = all.get_mut(c) {
                    *x += 1;
                }
            }
        }
        for (c, &k) in all.iter().enumerate() {
            if k as usize == opts.len() && !opts.is_empty() {
                if let Some(x) = ship.get_mut(c) {
                    *x = true;
                }
            }
        }
    }
    let water = grid.iter().zip(&may).map(|(&s, &m)| is_water(s) || (s == CellState::Unknown && !m)).collect();
    (water, ship)
}

fn finish_exact(t: &Table, m: &Model, grid: &[CellState], c: Counted) -> Result<Posterior, PosteriorError> {
    if c.layouts <= 0.0 || c.weight <= 0.0 {
        return Err(PosteriorError::Contradiction("no layout of the fleet agrees with the answers".into()));
    }
    let prob: Vec<f64> = c.cells.iter().map(|&x| x / c.weight).collect();
    let (mut water, mut ship) = certainties(t, m, grid);
    for (i, &x) in c.cells.iter().enumerate() {
        if let (Some(w), Some(s), Some(&g)) = (water.get_mut(i), ship.get_mut(i), grid.get(i)) {
            if g == CellState::Unknown {
                *w = x == 0.0;
                // Every layout puts a ship here (the weights are sums of the same terms).
                *s = x >= c.weight * (1.0 - 1e-12);
            }
        }
    }
    let mut post = Posterior {
        rows: t.rows,
        cols: t.cols,
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

/// Makes hits exactly 1 and water exactly 0 (finished ships are fixed, not counted).
fn clamp(p: &mut Posterior) {
    for (x, &s) in p.prob.iter_mut().zip(&p.grid) {
        match s {
            CellState::Hit => *x = 1.0,
            CellState::Miss | CellState::Eliminated => *x = 0.0,
            CellState::Unknown => *x = x.clamp(0.0, 1.0),
        }
    }
}

/// The posterior of `grid` for `fleet` with a fresh [`Estimator`] (see its `estimate`).
/// Pre: none. Post: as [`Estimator::estimate`]; deterministic in `seed`.
pub fn posterior(
    rows: usize,
    cols: usize,
    grid: &[CellState],
    fleet: &[usize],
    seed: u64,
) -> Result<Posterior, PosteriorError> {
    Estimator::new(seed).estimate(rows, cols, grid, fleet)
}

/// The exact posterior by enumeration, or `Ok(None)` when more than `node_limit`
/// placements would have to be tried (or, with the generator prior, the equal ships not
/// yet finished have more than 120 orders).
/// Pre: none. Post: `Ok(Some(p))` has `p.method == Method::Exact`.
pub fn exact_posterior(
    rows: usize,
    cols: usize,
    grid: &[CellState],
    fleet: &[usize],
    prior: Prior,
    node_limit: usize,
) -> Result<Option<Posterior>, PosteriorError> {
    let cells = rows.saturating_mul(cols);
    if cells > MAX_CELLS {
        return Err(PosteriorError::TooLarge(cells));
    }
    if grid.len() != cells {
        return Err(PosteriorError::Grid { expected: cells, found: grid.len() });
    }
    let t = Table::new(rows, cols);
    let m = Model::build(&t, grid, fleet, prior)?;
    match enumerate(&t, &m, prior, node_limit) {
        Some(c) => finish_exact(&t, &m, grid, c).map(Some),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Every placement (cells) of a `size` ship on a `rows` x `cols` board.
    fn placements(rows: usize, cols: usize, size: usize) -> Vec<Vec<usize>> {
        let mut v = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if c + size <= cols {
                    v.push((0..size).map(|k| r * cols + c + k).collect());
                }
                if size > 1 && r + size <= rows {
                    v.push((0..size).map(|k| (r + k) * cols + c).collect());
                }
            }
        }
        v
    }

    fn touches(a: &[usize], b: &[usize], cols: usize) -> bool {
        a.iter().any(|&x| b.iter().any(|&y| (x / cols).abs_diff(y / cols) <= 1 && (x % cols).abs_diff(y % cols) <= 1))
    }

    /// Brute force: every labeled sequence of placements (fleet largest first) valid in
    /// order, weighted by the prior; the posterior of `grid`.
    fn brute(rows: usize, cols: usize, grid: &[CellState], fleet: &[usize], prior: Prior) -> Vec<f64> {
        let mut sizes = fleet.to_vec();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        let mut acc = vec![0.0; rows * cols];
        let mut total = 0.0;
        #[allow(clippy::too_many_arguments)]
        fn rec(
            rows: usize,
            cols: usize,
            sizes: &[usize],
            placed: &mut Vec<Vec<usize>>,
            w: f64,
            prior: Prior,
            grid: &[CellState],
            acc: &mut [f64],
            total: &mut f64,
        ) {
            let Some((&s, rest)) = sizes.split_first() else {
                let ship: Vec<usize> = placed.iter().flatten().copied().collect();
                let ok = grid.iter().enumerate().all(|(i, &g)| match g {
                    CellState::Hit => ship.contains(&i),
                    CellState::Miss | CellState::Eliminated => !ship.contains(&i),
                    CellState::Unknown => true,
                });
                if ok {
                    *total += w;
                    for i in ship {
                        acc[i] += w;
                    }
                }
                return;
            };
            let valid: Vec<Vec<usize>> =
                placements(rows, cols, s).into_iter().filter(|p| placed.iter().all(|q| !touches(p, q, cols))).collect();
            let n = valid.len() as f64;
            for p in valid {
                placed.push(p);
                let w2 = if prior == Prior::Generator { w / n } else { w };
                rec(rows, cols, rest, placed, w2, prior, grid, acc, total);
                placed.pop();
            }
        }
        rec(rows, cols, &sizes, &mut Vec::new(), 1.0, prior, grid, &mut acc, &mut total);
        acc.iter().map(|a| a / total).collect()
    }

    /// A random grid consistent with a random layout of `fleet`: some cells revealed.
    fn random_grid(rows: usize, cols: usize, fleet: &[usize], rng: &mut Rng) -> Option<Vec<CellState>> {
        let mut placer = crate::placement::Placer::new(rows, cols);
        let ships = placer.place_fleet(fleet, rng).ok()?;
        let board = crate::board::Board::new(rows, cols, ships).ok()?;
        let reveal = rng.below(rows as u64 * cols as u64 / 2 + 1);
        let mut grid = vec![CellState::Unknown; rows * cols];
        for _ in 0..reveal {
            let i = rng.below((rows * cols) as u64) as usize;
            grid[i] = if board.is_ship(Position::from_index(i, cols)) { CellState::Hit } else { CellState::Miss };
        }
        Some(grid)
    }

    #[test]
    fn exact_matches_brute_force_on_tiny_boards() {
        let mut rng = Rng::new(11);
        let cases: [(usize, usize, &[usize]); 4] =
            [(3, 4, &[2, 1]), (4, 4, &[3, 1, 1]), (4, 5, &[3, 2, 1]), (5, 4, &[2, 2, 1])];
        let mut checked = 0;
        for _ in 0..40 {
            for &(rows, cols, fleet) in &cases {
                let Some(grid) = random_grid(rows, cols, fleet, &mut rng) else { continue };
                for prior in [Prior::Generator, Prior::Uniform] {
                    let want = brute(rows, cols, &grid, fleet, prior);
                    let got = exact_posterior(rows, cols, &grid, fleet, prior, 1 << 30).unwrap().unwrap();
                    for (i, (&w, &g)) in want.iter().zip(got.probabilities()).enumerate() {
                        assert!(
                            (w - g).abs() < 1e-9,
                            "{prior:?} {rows}x{cols} {fleet:?} cell {i}: {g} != {w}\n{grid:?}"
                        );
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 200);
    }

    #[test]
    fn sampling_agrees_with_brute_force() {
        let mut rng = Rng::new(12);
        let settings = Settings { samples: 20_000, exact_layouts: 0.0, ..Settings::default() };
        for _ in 0..6 {
            let (rows, cols, fleet) = (5, 5, &[3, 2, 1][..]);
            let Some(grid) = random_grid(rows, cols, fleet, &mut rng) else { continue };
            for prior in [Prior::Generator, Prior::Uniform] {
                let want = brute(rows, cols, &grid, fleet, prior);
                let mut est = Estimator::with_settings(3, Settings { prior, ..settings });
                let got = est.estimate(rows, cols, &grid, fleet).unwrap();
                assert_eq!(got.method, Method::Sampled);
                for (i, (&w, &g)) in want.iter().zip(got.probabilities()).enumerate() {
                    assert!((w - g).abs() < 0.03, "{prior:?} cell {i}: {g} != {w}\n{grid:?}");
                }
            }
        }
    }
}

#[cfg(test)]
mod more_tests {
    use super::*;
    use CellState::{Eliminated as E, Hit as H, Miss as M, Unknown as U};

    #[test]
    fn runs_are_found_and_closed() {
        // 3x4: a closed horizontal pair at the top left, an open lone hit at the bottom right.
        let grid = [H, H, M, U, M, M, U, U, U, U, U, H];
        let runs = hit_runs(3, 4, &grid).unwrap();
        assert_eq!(runs.len(), 2);
        assert!(runs[0].closed && runs[0].horizontal && runs[0].len() == 2);
        assert!(!runs[1].closed);
        assert_eq!(runs[1].ends(3, 4), vec![Position::new(1, 3), Position::new(2, 2)]);
        assert!(matches!(hit_runs(2, 2, &[H, U, U, H]), Err(PosteriorError::Contradiction(_))));
        assert!(matches!(hit_runs(2, 2, &[H]), Err(PosteriorError::Grid { .. })));
    }

    #[test]
    fn finished_ships_leave_the_fleet_and_fix_their_surroundings() {
        // 1x5: a closed 2-ship at the left; the 1-ship must be at column 4 (column 3
        // touches nothing but column 2 is next to the finished ship).
        let grid = [H, H, M, U, U];
        let p = exact_posterior(1, 5, &grid, &[2, 1], Prior::Generator, 1000).unwrap().unwrap();
        assert_eq!(p.method, Method::Exact);
        assert_eq!(p.layouts, 2.0);
        assert!((p.prob(Position::new(0, 3)) - 0.5).abs() < 1e-12);
        // A finished 3-ship in a fleet without one is a contradiction.
        assert!(matches!(
            exact_posterior(1, 5, &[H, H, H, M, U], &[2, 1], Prior::Uniform, 1000),
            Err(PosteriorError::Contradiction(_))
        ));
    }

    #[test]
    fn certainties_are_sound() {
        // 1x6, fleet [3]: a hit at column 1 with column 0 water: the ship is columns 1-3.
        let grid = [M, H, U, U, U, U];
        for method in [0.0, 1e9] {
            let settings = Settings { exact_layouts: method, samples: 50, ..Settings::default() };
            let p = Estimator::with_settings(1, settings).estimate(1, 6, &grid, &[3]).unwrap();
            assert!(p.is_certain_ship(Position::new(0, 2)) && p.is_certain_ship(Position::new(0, 3)));
            // Sampled certainties only use single placements (a free 3-ship could sit at
            // columns 3-5 if the fleet had one more), so only the exact count proves these.
            if p.method == Method::Exact {
                assert!(p.is_certain_water(Position::new(0, 4)) && p.is_certain_water(Position::new(0, 5)));
            }
            assert_eq!(p.prob(Position::new(0, 4)), 0.0);
            assert!(p.is_certain_water(Position::new(0, 0)) && !p.is_certain_water(Position::new(0, 2)));
            assert_eq!(p.best(), Some(Position::new(0, 2)));
        }
    }

    #[test]
    fn estimates_are_deterministic_per_seed() {
        let grid = vec![U; 100];
        let a = posterior(10, 10, &grid, &[5, 4, 3, 3, 2, 2, 1, 1], 4).unwrap();
        let b = posterior(10, 10, &grid, &[5, 4, 3, 3, 2, 2, 1, 1], 4).unwrap();
        assert_eq!(a.method, Method::Sampled);
        assert_eq!(a.probabilities(), b.probabilities());
        let total: f64 = a.probabilities().iter().sum();
        assert!((total - 21.0).abs() < 1e-6, "{total}");
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert!(matches!(posterior(2, 2, &[U; 3], &[1], 0), Err(PosteriorError::Grid { .. })));
        assert!(matches!(posterior(2, 2, &[U; 4], &[6], 0), Err(PosteriorError::Fleet(6))));
        assert!(matches!(posterior(2, 2, &[M, M, M, M], &[1], 0), Err(PosteriorError::Contradiction(_))));
        assert!(matches!(posterior(100, 100, &vec![U; 10_000], &[1], 0), Err(PosteriorError::TooLarge(_))));
        let _ = E;
    }
}

//! The estimator: exact counting when the layouts are few, importance sampling
//! otherwise, with its table kept from call to call and its random stream seeded.

use super::exact::enumerate;
use super::groups::{self, Group};
use super::model::Model;
use super::sampling::{consistent, draw, Sample, Scratch};
use super::table::{Fit, Table};
use super::{
    certainties, check, clamp, finish_exact, sized, Evidence, Facts, Method, Posterior, PosteriorError, Prior, Settings,
};
use crate::game::position::Position;
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::ship::Ship;
use crate::scan::record::CellState;

/// One layout of the whole fleet drawn by [`Estimator::sample_layouts`].
#[derive(Debug, Clone)]
pub struct SampledLayout {
    /// Every ship, ordered by its kind in the rules' fleet.
    pub ships: Vec<Ship>,
    /// Its importance weight; the weights of one draw sum to 1.
    pub weight: f64,
}

/// Computes posteriors. Deterministic for a given seed and sequence of calls.
#[derive(Debug, Clone)]
pub struct Estimator {
    settings: Settings,
    rng: Rng,
    table: Option<Table>,
    pool: Vec<Sample>,
    /// The evidence and groups the pool was drawn for.
    last_grid: Vec<CellState>,
    last_groups: Vec<Group>,
    /// The latest estimate of the number of layouts (never increases while the grid
    /// only gains information).
    last_layouts: f64,
    scratch: Scratch,
    union: Vec<u64>,
    /// Samples dropped from the pool, kept for their memory.
    spare: Vec<Sample>,
    /// Work units spent since the last [`Estimator::reset`] (see [`Estimator::work`]).
    work: u64,
    /// The rules of the last call and their groups (a caller asks under the same rules
    /// call after call).
    grouped: Option<(Rules, Vec<Group>)>,
}

/// An estimator's random stream and work count at one moment ([`Estimator::checkpoint`]).
#[derive(Debug, Clone)]
pub struct Checkpoint {
    rng: Rng,
    work: u64,
}

impl Checkpoint {
    /// The checkpoint as five words: the stream's state, then the work count.
    /// Pre: none. Post: [`Checkpoint::from_words`] gives it back.
    pub fn words(&self) -> [u64; 5] {
        let [a, b, c, d] = self.rng.state();
        [a, b, c, d, self.work]
    }

    /// The checkpoint [`Checkpoint::words`] wrote as `w`.
    /// Pre: `w` was written by `words`. Post: an estimator restored to it draws as the
    /// one the words were taken from.
    pub fn from_words(w: [u64; 5]) -> Checkpoint {
        let [a, b, c, d, work] = w;
        Checkpoint { rng: Rng::from_state([a, b, c, d]), work }
    }
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
            last_groups: Vec::new(),
            last_layouts: f64::INFINITY,
            scratch: Scratch::default(),
            union: Vec::new(),
            spare: Vec::new(),
            work: 0,
            grouped: None,
        }
    }

    /// Forgets every kept layout and restarts the random stream from `seed`.
    /// Pre: none. Post: the next call behaves as on a fresh estimator with the same
    /// settings and seed.
    pub fn reset(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
        self.pool.clear();
        self.last_grid.clear();
        self.last_groups.clear();
        self.last_layouts = f64::INFINITY;
        self.work = 0;
    }

    /// Where the random stream and the work count stand: what the next draws depend on
    /// besides the evidence (for a caller that skips a step it has taken before, and
    /// must then stand where that step left it).
    /// Pre: none. Post: no change.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint { rng: self.rng.clone(), work: self.work }
    }

    /// Puts the random stream and the work count back where `at` was taken.
    /// Pre: `at` is of this estimator, since its last reset. Post: the next draws are
    /// those that followed `at`.
    pub fn restore(&mut self, at: &Checkpoint) {
        self.rng = at.rng.clone();
        self.work = at.work;
    }

    /// The work spent on estimates since the last [`Estimator::reset`], in units that
    /// do not depend on the machine (a 64-cell mask word shifted and combined once), so
    /// that a caller can bound a game's cost and stay reproducible.
    /// Pre: none. Post: never decreases until the next reset.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The posterior of `grid` (row-major, `rows * cols` states) for the straight ships
    /// `fleet` (every ship of the bay, finished or not, any order) under Problem G's
    /// rules.
    /// Pre: none. Post: as [`Estimator::estimate_under`].
    pub fn estimate(
        &mut self,
        rows: usize,
        cols: usize,
        grid: &[CellState],
        fleet: &[usize],
    ) -> Result<Posterior, PosteriorError> {
        let rules: Rules = sized(fleet)?;
        self.estimate_facts(&Facts { rows, cols, grid, log: None, wrecks: None, rules: &rules })
    }

    /// The posterior of the evidence `ev` for its rules' fleet (every ship still to
    /// account for: settled or not, but not the wrecks).
    /// Pre: none. Post: `Ok` probabilities are 1 on hits and 0 on water; `Err` when the
    /// evidence is malformed, the board too large, or no layout agrees with it.
    pub fn estimate_under(&mut self, ev: &Evidence<'_>) -> Result<Posterior, PosteriorError> {
        let mut grid = Vec::new();
        self.estimate_facts(&ev.facts(&mut grid))
    }

    /// [`Estimator::estimate_under`] on the facts.
    fn estimate_facts(&mut self, ev: &Facts<'_>) -> Result<Posterior, PosteriorError> {
        self.on_table(ev, |est, t, groups| est.estimate_with(t, ev, groups))
    }

    /// Checks `ev`, then runs `f` on the table of its board and rules (kept from the
    /// last call when it fits) and their groups, counting the table's work.
    fn on_table<R>(
        &mut self,
        ev: &Facts<'_>,
        f: impl FnOnce(&mut Estimator, &Table, Vec<Group>) -> Result<R, PosteriorError>,
    ) -> Result<R, PosteriorError> {
        check(ev)?;
        let groups = match &self.grouped {
            Some((rules, groups)) if rules == ev.rules => groups.clone(),
            _ => {
                let groups = groups::groups(ev.rules.fleet(), ev.rules);
                self.grouped = Some((ev.rules.clone(), groups.clone()));
                groups
            }
        };
        let reach = ev.rules.reach();
        if self.table.as_ref().is_none_or(|t| !t.fits(ev.rows, ev.cols, &groups, reach)) {
            self.table = Some(Table::new(ev.rows, ev.cols, &groups, reach));
            self.scratch.prior.counts.clear();
        }
        let Some(t) = self.table.take() else { return Err(PosteriorError::Intractable) };
        let result = f(self, &t, groups);
        self.work = self.work.saturating_add(t.take_work());
        self.table = Some(t);
        result
    }

    fn estimate_with(&mut self, t: &Table, ev: &Facts<'_>, groups: Vec<Group>) -> Result<Posterior, PosteriorError> {
        let prior = self.settings.prior;
        let grid = ev.grid;
        let m = Model::build(t, ev, &groups, prior, &mut self.scratch.prior.counts)?;
        // The pool stays valid only while the grid refines the one it was drawn for.
        let refines = self.last_groups == groups
            && self.last_grid.len() == grid.len()
            && self.last_grid.iter().zip(grid).all(|(&a, &b)| a == CellState::Unknown || a == b);
        if !refines || !self.settings.reuse {
            self.spare.append(&mut self.pool);
            self.last_layouts = f64::INFINITY;
        }
        self.last_grid.clear();
        self.last_grid.extend_from_slice(grid);
        self.last_groups = groups;

        if self.last_layouts.min(m.layout_bound()) <= self.settings.exact_layouts {
            if let Some(c) = enumerate(t, &m, prior, self.settings.exact_nodes, &mut self.scratch.prior.counts) {
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
            let (ln_count, ln_w) = self.weigh_draw(t, &m, ln_options);
            count_ln.push(ln_count);
            let mut sample = self.spare.pop().unwrap_or(Sample { pids: Vec::new(), ln_w: 0.0 });
            sample.pids.clone_from(&self.scratch.pids);
            sample.ln_w = ln_w;
            self.pool.push(sample);
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
            return match enumerate(
                t,
                &m,
                prior,
                self.settings.exact_nodes.saturating_mul(20),
                &mut self.scratch.prior.counts,
            ) {
                Some(c) => finish_exact(t, &m, grid, c),
                None => Err(PosteriorError::Intractable),
            };
        }
        Ok(self.finish_sampled(t, &m, grid))
    }

    /// Draws `n` layouts of the whole fleet that agree with `ev` (importance sampling
    /// under this estimator's prior, whatever the number of layouts), into `out`: each
    /// one's ships, settled ones included, ordered by their kind in the rules' fleet (the
    /// order [`crate::game::board::Board::with_rules`] names them by), and its weight.
    /// Pre: none. Post: `Ok` with `out` holding at most `n` layouts (draws that got
    /// stuck are dropped) whose weights sum to 1; `Err` as [`Estimator::estimate_under`],
    /// and `Err(Intractable)` when no draw succeeded. The `n` layouts are held at once:
    /// the caller bounds `n`.
    pub fn sample_layouts(
        &mut self,
        ev: &Evidence<'_>,
        n: usize,
        out: &mut Vec<SampledLayout>,
    ) -> Result<(), PosteriorError> {
        out.clear();
        let mut grid = Vec::new();
        let facts = ev.facts(&mut grid);
        self.on_table(&facts, |est, t, groups| est.sample_with(t, &facts, &groups, n, out))
    }

    /// The layout just drawn into the scratch, `ln_options` its `draw`'s: `ln` of the
    /// number of unlabeled layouts it stands for, and `ln` of its importance weight.
    fn weigh_draw(&mut self, t: &Table, m: &Model, ln_options: f64) -> (f64, f64) {
        // 1 / (R q): R = Π rem[g]! labeled paths give the same unlabeled layout.
        let ln_count = ln_options - m.ln_rem_labels;
        let ln_w = match self.settings.prior {
            Prior::Uniform => ln_count,
            Prior::Generator => {
                ln_count + m.ln_generator_prior(t, &self.scratch.pids, &mut self.rng, &mut self.scratch.prior)
            }
        };
        (ln_count, ln_w)
    }

    /// [`Estimator::sample_layouts`] on a table.
    fn sample_with(
        &mut self,
        t: &Table,
        ev: &Facts<'_>,
        groups: &[Group],
        n: usize,
        out: &mut Vec<SampledLayout>,
    ) -> Result<(), PosteriorError> {
        let prior = self.settings.prior;
        let m = Model::build(t, ev, groups, prior, &mut self.scratch.prior.counts)?;
        let mut ln_ws = Vec::with_capacity(n);
        for _ in 0..n {
            let Some(ln_options) = draw(t, &m, &mut self.rng, &mut self.scratch) else { continue };
            let (_, ln_w) = self.weigh_draw(t, &m, ln_options);
            let mut ships: Vec<(usize, Ship)> = Vec::with_capacity(m.finished.len() + self.scratch.pids.len());
            for &pid in m.finished.iter().chain(&self.scratch.pids) {
                let Some(p) = t.get(pid) else { continue };
                let kind = groups.get(p.group as usize).and_then(|g| g.kinds.first()).copied().unwrap_or(usize::MAX);
                let anchor = Position::from_index(p.anchor as usize, ev.cols);
                ships.push((kind, Ship::drawn(anchor, t.shape(p.slot as usize))));
            }
            ships.sort_by_key(|&(kind, _)| kind);
            out.push(SampledLayout { ships: ships.into_iter().map(|(_, s)| s).collect(), weight: 0.0 });
            ln_ws.push(ln_w);
        }
        let max = ln_ws.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !max.is_finite() {
            out.clear();
            return Err(PosteriorError::Intractable);
        }
        let sum: f64 = ln_ws.iter().map(|&l| (l - max).exp()).sum();
        for (layout, &l) in out.iter_mut().zip(&ln_ws) {
            layout.weight = (l - max).exp() / sum;
        }
        Ok(())
    }

    fn finish_sampled(&self, t: &Table, m: &Model, grid: &[CellState]) -> Posterior {
        let max = self.pool.iter().map(|s| s.ln_w).fold(f64::NEG_INFINITY, f64::max);
        let mut prob = vec![0.0; grid.len()];
        let (mut sum, mut sum2) = (0.0, 0.0);
        let rao_blackwell = self.settings.rao_blackwell && self.settings.prior == Prior::Uniform;
        let add = |prob: &mut [f64], pid: u32, w: f64| {
            for cell in t.cells(pid) {
                if let Some(x) = prob.get_mut(cell) {
                    *x += w;
                }
            }
        };
        let mut fit = Fit::default();
        let mut blocked = Vec::new();
        for s in &self.pool {
            let w = (s.ln_w - max).exp();
            sum += w;
            sum2 += w * w;
            for (k, &pid) in s.pids.iter().enumerate() {
                let free = rao_blackwell && t.get(pid).is_some_and(|p| t.disjoint(&m.all_hits, p.cells));
                if !free {
                    add(&mut prob, pid, w);
                    continue;
                }
                // Every placement the ship could take given the other ships, equally.
                blocked.clear();
                blocked.extend_from_slice(&m.base);
                for (j, &other) in s.pids.iter().enumerate() {
                    if let (true, Some(p)) = (j != k, t.get(other)) {
                        t.or_into(&mut blocked, p.halo);
                    }
                }
                let g = t.get(pid).map_or(0, |p| p.group as usize);
                let n = t.fitting(&blocked, g, &mut fit);
                if n == 0 {
                    add(&mut prob, pid, w);
                    continue;
                }
                let share = w / n as f64;
                // Each cell gains the share of every fitting placement over it, in one
                // addition: share times their number.
                t.add_cover(&mut fit, g, share, &mut prob);
            }
        }
        if sum > 0.0 {
            prob.iter_mut().for_each(|x| *x /= sum);
        }
        let (water, ship) = certainties(t, m, grid);
        let mut post = Posterior {
            bay: crate::game::bay::Bay::new(t.rows, t.cols),
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

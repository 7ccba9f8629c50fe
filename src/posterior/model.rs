//! What one body of evidence leaves open: the ships still to place, and where each
//! may go. Built once per estimate from the grid, the sunk answers and the wrecks.
//!
//! The ships are placed in three phases (the enumeration and the sampler both follow
//! them): first the ship of each sunk answer not yet settled (a placement of an afloat
//! group, named when the answer names it, through the answer's cell, every cell a hit
//! made no later than it); then a ship over the first hit no placed ship covers (under
//! sunk answers, one with at least one unknown cell: a ship whose cells were all hit
//! would have been announced); then the ships left, on unknown cells only.

use super::groups::{group_of, Group};
use super::prior::{ln_factorial, ln_in_random_order, Counts, GenPrior, PriorScratch, MAX_LABELINGS};
use super::table::{bit, set_bit, Fit, Table};
use super::{Facts, PosteriorError, Prior};
use crate::game::bay::Bay;
use crate::game::cellset::CellSet;
use crate::game::position::Position;
use crate::game::rng::Rng;
use crate::scan::record::CellState;
use crate::scan::runs;

/// The evidence against one table: the ships still to place and where they may go.
///
/// Its masks (`water`, `hits`, `base`, ...) are the posterior's fast path: words laid
/// out as the table's placement masks (bit `i % 64` of word `i / 64`, `t.words` words),
/// read and written only through [`Table`]'s methods (`disjoint`, `or_into`, `fitting`)
/// and `set_bit`, never cell by cell elsewhere. Sets of cells outside that path are
/// [`CellSet`]s (the same layout: [`CellSet::words_mut`] joins the two).
#[derive(Debug, Clone, Default)]
pub(super) struct Model {
    /// Water cells (probed or eliminated).
    pub water: Vec<u64>,
    /// Hit cells no settled ship holds, and all hit cells.
    pub hits: Vec<u64>,
    pub all_hits: Vec<u64>,
    /// Cells no ship left to place may use: water, wrecks, settled ships and their halos.
    pub base: Vec<u64>,
    /// The ships of each group in the whole fleet, and those still to place.
    pub fleet: Vec<usize>,
    pub rem: Vec<usize>,
    /// Placements of the settled ships (closed runs, sunk answers with one candidate).
    pub finished: Vec<u32>,
    /// The sunk answers not settled (their cells), and the placements each may take.
    pub sunk_cells: Vec<usize>,
    pub sunk_opts: Vec<Vec<u32>>,
    /// Hits no settled ship holds (row-major) and, for each, the placements that may
    /// cover it.
    pub hit_cells: Vec<usize>,
    pub hit_opts: Vec<Vec<u32>>,
    /// Placements of each group that avoid `base` and every hit's halo.
    pub free: Vec<Vec<u32>>,
    /// The cells a free placement avoids: `base` and the hits with what their halos
    /// reach (a placement avoids it exactly when it is in `free`).
    pub free_blocked: Vec<u64>,
    /// `ln Π rem[g]!`: orders of the interchangeable ships still to place.
    pub ln_rem_labels: f64,
    /// The generator prior, split at the largest groups whose ships are all settled
    /// (the prefix, a constant here): `ln` of its sum over labelings, and its halos.
    pub ln_prefix: f64,
    pub prefix_blocked: Vec<u64>,
    /// Groups after the prefix, in placement order, and `ln Π fleet[g]!` over them.
    pub suffix_groups: Vec<usize>,
    pub ln_suffix_labels: f64,
    /// Take the most constrained open constraint first (all rules but Problem G's).
    pub fail_first: bool,
}

/// Sets in `mask` what a ship cell of index `i` forbids to the other ships (its halo,
/// or itself when ships may touch: [`Bay::for_each_forbidden`]).
fn forbid_around(mask: &mut [u64], i: usize, bay: Bay, reach: usize) {
    bay.for_each_forbidden([bay.position(i)], reach, |j| set_bit(mask, j));
}

impl Model {
    /// The model of `ev` for `groups` on table `t`.
    /// Pre: `t` was built for `groups` on the evidence's board. Post: `Err(Contradiction)`
    /// when the evidence is impossible for the fleet in an obvious way (a finished ship
    /// or sunk answer no ship fits, a hit no ship can cover).
    /// `counts` remembers the placement counts of the generator prior.
    pub fn build(
        t: &Table,
        ev: &Facts<'_>,
        groups: &[Group],
        prior: Prior,
        counts: &mut Counts,
    ) -> Result<Model, PosteriorError> {
        let (rows, cols, words) = (t.rows, t.cols, t.words);
        let bay = Bay::new(rows, cols);
        let grid = ev.grid;
        let zero = vec![0; words];
        let n = groups.len();
        let mut m = Model {
            water: zero.clone(),
            hits: zero.clone(),
            all_hits: zero.clone(),
            base: zero.clone(),
            prefix_blocked: zero,
            fleet: groups.iter().map(|g| g.count).collect(),
            free: vec![Vec::new(); n],
            ..Model::default()
        };
        m.rem = m.fleet.clone();
        m.fail_first = !ev.rules.is_problem_g();
        for (i, &s) in grid.iter().enumerate() {
            if s.is_water() {
                set_bit(&mut m.water, i);
                set_bit(&mut m.base, i);
            } else if s == CellState::Hit {
                set_bit(&mut m.all_hits, i);
            }
        }
        // Wrecks: cells of ships sunk and left out of the fleet, with what they forbid.
        let mut wreck = ev.wrecks.and_then(|w| w.next_member(0));
        while let Some(i) = wreck {
            forbid_around(&mut m.base, i, bay, ev.rules.reach());
            wreck = ev.wrecks.and_then(|w| w.next_member(i + 1));
        }
        // With straight ships that never touch, a run of hits closed at both ends is a
        // whole ship: it is settled at once (when its size names one group).
        let settle_runs = ev.rules.reach() > 0
            && groups.iter().all(|g| {
                g.variants.iter().all(|v| v.straight_line().is_some_and(|(n, _)| n <= crate::game::ship::MAX_SHIP))
            });
        let mut settled = CellSet::new(bay.cells());
        if settle_runs {
            let found = runs::find(rows, cols, grid).map_err(|e| {
                PosteriorError::Contradiction(match e {
                    runs::RunError::Diagonal { first, second } => {
                        format!("the hits {first} and {second} touch diagonally")
                    }
                    runs::RunError::TooLong { start, len } => {
                        format!("{len} hits in a row from {start}, longer than any ship")
                    }
                })
            })?;
            for run in found {
                let of_size: Vec<usize> =
                    (0..n).filter(|&g| groups.get(g).is_some_and(|gr| gr.size == run.len)).collect();
                if !run.closed(rows, cols, grid) || of_size.len() > 1 {
                    continue;
                }
                let start = bay.index(run.start);
                let run_cells: Vec<usize> = run.cells().map(|c| bay.index(c)).collect();
                // Under rules that announce sunk ships, a whole ship was announced when
                // its last cell was hit: a closed run with no sunk answer is impossible.
                let announced =
                    ev.log.is_none_or(|log| log.sunk.iter().any(|e| run_cells.contains(&(e.cell as usize))));
                if ev.rules.sunk() != crate::game::rules::Sunk::None && !announced {
                    return Err(PosteriorError::Contradiction(format!(
                        "the ship of {} at {} is whole but was never announced sunk",
                        crate::render::words::count(run.len, "cell"),
                        run.start
                    )));
                }
                let pid = of_size.first().and_then(|&g| {
                    t.slots_of(g)
                        .filter_map(|slot| t.find(slot, start))
                        .find(|&pid| t.cells(pid).eq(run_cells.iter().copied()))
                });
                match (of_size.first().and_then(|&g| m.rem.get_mut(g)), pid) {
                    (Some(k), Some(pid)) if *k > 0 => {
                        *k -= 1;
                        m.finished.push(pid);
                        settled.insert_all(run.cells().map(|c| bay.index(c)));
                        if let Some(p) = t.get(pid) {
                            t.or_into(&mut m.base, p.halo);
                        }
                    }
                    _ => {
                        return Err(PosteriorError::Contradiction(format!(
                            "a finished ship of {} cells at {} is not in the fleet (or one too many)",
                            run.len, run.start
                        )))
                    }
                }
            }
        }
        m.settle_sunk(t, ev, groups, &mut settled)?;
        for (i, &s) in grid.iter().enumerate() {
            if s == CellState::Hit && !settled.contains(i) {
                set_bit(&mut m.hits, i);
                m.hit_cells.push(i);
            }
        }
        let ships: usize = m.rem.iter().sum();
        if ships == 0 && !m.hit_cells.is_empty() {
            return Err(PosteriorError::Contradiction("hits remain but every ship is finished".into()));
        }
        m.ln_rem_labels = m.rem.iter().map(|&k| ln_factorial(k)).sum();
        // A free ship's placement avoids the blocked cells, and its halo the hits: its
        // cells avoid the hits' surroundings as far as a halo reaches.
        m.free_blocked = m.base.clone();
        for &h in &m.hit_cells {
            forbid_around(&mut m.free_blocked, h, bay, ev.rules.reach());
        }
        let mut fit = Fit::default();
        for (g, free) in m.free.iter_mut().enumerate() {
            if m.rem.get(g).copied().unwrap_or(0) > 0 {
                t.fitting_in_order(&m.free_blocked, g, &mut fit, free);
            }
        }
        let announce = ev.rules.sunk() != crate::game::rules::Sunk::None;
        for &h in &m.hit_cells {
            let mut opts = Vec::new();
            // Smallest groups first (the order the sampler draws in).
            for g in (0..n).rev() {
                if m.rem.get(g).copied().unwrap_or(0) == 0 {
                    continue;
                }
                for slot in t.slots_of(g) {
                    for &o in t.offsets(slot) {
                        let Some(anchor) = h.checked_sub(o) else { continue };
                        let Some(pid) = t.find(slot, anchor) else { continue };
                        // The offset must land on h itself, not wrap to another row.
                        if !t.cells(pid).any(|c| c == h) {
                            continue;
                        }
                        let ok = t.get(pid).is_some_and(|p| {
                            t.disjoint(&m.base, p.cells)
                                && t.disjoint(&m.hits, p.ring)
                                && !(announce && m.all_hit(t, pid))
                        });
                        if ok {
                            opts.push(pid);
                        }
                    }
                }
            }
            // A hit no afloat ship can cover must be a sunk ship's (an open sunk answer's
            // candidate); the phases then cover it first.
            let sunk_covers = m.sunk_opts.iter().flatten().any(|&pid| t.cells(pid).any(|c| c == h));
            if opts.is_empty() && !sunk_covers {
                return Err(PosteriorError::Contradiction(format!(
                    "no remaining ship can cover the hit at {}",
                    bay.position(h)
                )));
            }
            m.hit_opts.push(opts);
        }
        m.split_prior(t, groups, prior, counts);
        Ok(m)
    }

    /// True when every cell of `pid` is a hit.
    fn all_hit(&self, t: &Table, pid: u32) -> bool {
        t.cells(pid).all(|c| bit(&self.all_hits, c))
    }

    /// The candidates of each sunk answer; answers with one candidate are settled (and
    /// others re-examined), the rest kept as phase-one slots.
    fn settle_sunk(
        &mut self,
        t: &Table,
        ev: &Facts<'_>,
        groups: &[Group],
        settled: &mut CellSet,
    ) -> Result<(), PosteriorError> {
        let Some(log) = ev.log else { return Ok(()) };
        let rank: std::collections::HashMap<usize, usize> =
            log.hits.iter().enumerate().map(|(r, &h)| (h as usize, r)).collect();
        // (event cell, candidates), unsettled.
        let mut open: Vec<(usize, Vec<u32>)> = Vec::new();
        for e in &log.sunk {
            let cell = e.cell as usize;
            if settled.contains(cell) {
                continue;
            }
            let named = e.kind.and_then(|k| group_of(groups, k));
            let mut opts = Vec::new();
            for g in 0..groups.len() {
                if named.is_some_and(|n| n != g) {
                    continue;
                }
                for slot in t.slots_of(g) {
                    for &o in t.offsets(slot) {
                        let Some(pid) = cell.checked_sub(o).and_then(|a| t.find(slot, a)) else { continue };
                        let hits_before = t.cells(pid).all(|c| rank.get(&c).is_some_and(|&r| r <= e.rank as usize));
                        if t.cells(pid).any(|c| c == cell) && hits_before {
                            opts.push(pid);
                        }
                    }
                }
            }
            open.push((cell, opts));
        }
        loop {
            // Drop candidates that no longer fit; settle the answers left with one.
            let mut changed = false;
            let mut k = 0;
            while k < open.len() {
                let Some((cell, opts)) = open.get_mut(k) else { break };
                opts.retain(|&pid| {
                    t.get(pid).is_some_and(|p| {
                        t.disjoint(&self.base, p.cells)
                            && t.disjoint(&self.all_hits, p.ring)
                            && self.rem.get(p.group as usize).copied().unwrap_or(0) > 0
                    })
                });
                match opts.as_slice() {
                    [] => {
                        return Err(PosteriorError::Contradiction(format!(
                            "no ship left fits the sunk answer at {}",
                            Position::from_index(*cell, t.cols)
                        )))
                    }
                    [pid] => {
                        let pid = *pid;
                        open.remove(k);
                        self.settle(t, pid, settled);
                        changed = true;
                    }
                    _ => k += 1,
                }
            }
            if !changed {
                break;
            }
        }
        for (cell, opts) in open {
            self.sunk_cells.push(cell);
            self.sunk_opts.push(opts);
        }
        Ok(())
    }

    /// Settles the ship of placement `pid`: out of the ships to place, its halo blocked.
    fn settle(&mut self, t: &Table, pid: u32, settled: &mut CellSet) {
        let Some(p) = t.get(pid) else { return };
        if let Some(k) = self.rem.get_mut(p.group as usize) {
            *k = k.saturating_sub(1);
        }
        self.finished.push(pid);
        t.or_into(&mut self.base, p.halo);
        settled.insert_all(t.cells(pid));
    }

    /// Splits the generator's order: the leading groups whose ships are all settled form
    /// a constant prefix, summed over its labelings once here.
    fn split_prior(&mut self, t: &Table, groups: &[Group], prior: Prior, counts: &mut Counts) {
        let mut labelings = 1.0;
        let mut prefix: Vec<u32> = Vec::new();
        let mut order = (0..groups.len()).filter(|&g| self.fleet.get(g).copied().unwrap_or(0) > 0).peekable();
        while let Some(&g) = order.peek() {
            let count = self.fleet.get(g).copied().unwrap_or(0);
            let all_done = self.rem.get(g).copied().unwrap_or(0) == 0;
            let more = labelings * ln_factorial(count).exp();
            if prior == Prior::Uniform || !all_done || more > MAX_LABELINGS {
                break;
            }
            labelings = more;
            prefix
                .extend(self.finished.iter().copied().filter(|&pid| t.get(pid).is_some_and(|p| p.group as usize == g)));
            order.next();
        }
        self.suffix_groups = order.collect();
        self.ln_suffix_labels =
            self.suffix_groups.iter().map(|&g| ln_factorial(self.fleet.get(g).copied().unwrap_or(0))).sum();
        if prior == Prior::Generator {
            let mut gen = GenPrior::new(t, counts);
            let blocked = vec![0; t.words];
            self.ln_prefix = gen.sum_over_labelings(&prefix, &blocked).ln();
            for &pid in &prefix {
                if let Some(p) = t.get(pid) {
                    t.or_into(&mut self.prefix_blocked, p.halo);
                }
            }
        }
    }

    /// Ships of the suffix of the generator's order, group by group: settled ones and
    /// `placed`.
    pub fn suffix_ships(&self, t: &Table, placed: &[u32], out: &mut Vec<u32>) {
        out.clear();
        for &g in &self.suffix_groups {
            for &pid in self.finished.iter().chain(placed) {
                if t.get(pid).is_some_and(|p| p.group as usize == g) {
                    out.push(pid);
                }
            }
        }
    }

    /// An upper bound on the number of unlabeled layouts.
    pub fn layout_bound(&self) -> f64 {
        let mut b = 1.0f64;
        for o in self.sunk_opts.iter().chain(&self.hit_opts) {
            b *= o.len() as f64;
        }
        for (g, free) in self.free.iter().enumerate() {
            let n = free.len() as f64;
            let m = self.rem.get(g).copied().unwrap_or(0);
            // Σ_{k<=m} C(n, k): the free ships of this group are a subset of at most m.
            let (mut term, mut sum) = (1.0f64, 1.0f64);
            for k in 1..=m {
                term *= (n - k as f64 + 1.0).max(0.0) / k as f64;
                sum += term;
            }
            b *= sum;
        }
        b
    }

    /// The first sunk answer whose cell no placed ship holds yet (its index), given the
    /// blocked mask.
    pub fn first_open_sunk(&self, blocked: &[u64]) -> Option<usize> {
        self.sunk_cells.iter().position(|&c| !bit(blocked, c))
    }

    /// The first uncovered hit (its index in `hit_cells`), given the blocked mask.
    pub fn first_uncovered(&self, blocked: &[u64]) -> Option<usize> {
        self.hit_cells.iter().position(|&h| !bit(blocked, h))
    }

    /// The candidates of the next constraint, given the blocked mask and the ships left
    /// of each group: under Problem G's rules the first open sunk answer's, else the
    /// first uncovered hit's (the order the goldens were made with); under other rules
    /// the open constraint with the fewest candidates that still fit (a hit only one
    /// ship can cover first: far fewer dead ends), sunk answers before hits, ties in
    /// row-major order. Either way a function of the ships placed so far, so each layout is still
    /// reached by one path. `None` when every constraint is met.
    pub fn next_constraint(&self, t: &Table, blocked: &[u64], rem: &[usize]) -> Option<&[u32]> {
        if !self.fail_first {
            return match self.first_open_sunk(blocked) {
                Some(k) => self.sunk_opts.get(k).map(Vec::as_slice),
                None => self.first_uncovered(blocked).and_then(|k| self.hit_opts.get(k)).map(Vec::as_slice),
            };
        }
        let fitting = |opts: &[u32]| {
            opts.iter()
                .filter(|&&pid| {
                    t.get(pid).is_some_and(|p| {
                        rem.get(p.group as usize).copied().unwrap_or(0) > 0 && t.disjoint(blocked, p.cells)
                    })
                })
                .count()
        };
        // Sunk answers first: a hit may be a sunk ship's, which only they place.
        let open_sunk = self.first_open_sunk(blocked).is_some();
        let constraints = if open_sunk {
            self.sunk_cells.iter().zip(&self.sunk_opts)
        } else {
            self.hit_cells.iter().zip(&self.hit_opts)
        };
        let mut best: Option<(usize, &[u32])> = None;
        for (&cell, opts) in constraints {
            if bit(blocked, cell) {
                continue;
            }
            let n = fitting(opts);
            if best.is_none_or(|(b, _)| n < b) {
                best = Some((n, opts));
                if n == 0 {
                    break;
                }
            }
        }
        best.map(|(_, opts)| opts)
    }
}

impl Model {
    /// `ln` of an unbiased estimate of the generator prior of the unlabeled layout (settled
    /// ships and `pids`): the constant prefix times `L · Π 1/n_k` for one uniformly random
    /// order of the interchangeable ships of the suffix (`L` the number of such orders).
    pub(super) fn ln_generator_prior(&self, t: &Table, pids: &[u32], rng: &mut Rng, s: &mut PriorScratch) -> f64 {
        let mut ships = std::mem::take(&mut s.ships);
        self.suffix_ships(t, pids, &mut ships);
        let ln = ln_in_random_order(t, &mut ships, &self.prefix_blocked, rng, s);
        s.ships = ships;
        self.ln_prefix + self.ln_suffix_labels + ln
    }
}

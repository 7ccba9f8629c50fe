//! Exact counting: every unlabeled layout consistent with the evidence, each once, by
//! backtracking through the model's three phases (sunk answers, uncovered hits, the
//! ships left, interchangeable ones in increasing placement order), each weighted by
//! its prior summed over the orders of its interchangeable ships.

use super::model::Model;
use super::prior::{Counts, GenPrior, MAX_LABELINGS};
use super::table::{Fit, Table};
use super::Prior;

/// The outcome of an enumeration: unlabeled layouts, their total prior weight, and the
/// weight through each cell.
pub(super) struct Counted {
    pub layouts: f64,
    pub weight: f64,
    pub cells: Vec<f64>,
    /// Every placement some counted layout uses (settled ships excluded).
    pub used: Vec<u32>,
}

/// Exact enumeration of the unlabeled layouts of a model.
struct Enumeration<'a> {
    t: &'a Table,
    m: &'a Model,
    prior: Prior,
    gen: GenPrior<'a>,
    rem: Vec<usize>,
    /// Prior weight of the layouts through each cell.
    weights: Vec<f64>,
    /// Placements on the current path, and scratch.
    placed: Vec<u32>,
    ships: Vec<u32>,
    /// One blocked mask per depth, `words` each.
    stack: Vec<u64>,
    nodes: usize,
    limit: usize,
    /// Placements used by some layout, when asked for.
    used: Option<std::collections::BTreeSet<u32>>,
    /// The free placements that fit at each depth, and scratch for finding them.
    candidates: Vec<Vec<u32>>,
    blocked: Vec<u64>,
    fit: Fit,
    /// Stop at the first layout found (the counts are then 1 or 0).
    first: bool,
}

impl<'a> Enumeration<'a> {
    /// An enumeration of `m`'s layouts from the start, counting them all.
    fn new(t: &'a Table, m: &'a Model, prior: Prior, limit: usize, counts: &'a mut Counts, note: bool) -> Self {
        Enumeration {
            t,
            m,
            prior,
            gen: GenPrior::new(t, counts),
            rem: m.rem.clone(),
            weights: vec![0.0; t.rows * t.cols],
            placed: Vec::new(),
            ships: Vec::new(),
            stack: m.base.clone(),
            nodes: 0,
            limit,
            used: note.then(Default::default),
            candidates: Vec::new(),
            blocked: Vec::new(),
            fit: Fit::default(),
            first: false,
        }
    }

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
        let w = self.gen.sum_over_labelings(&ships, &self.m.prefix_blocked);
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
        if c > 0.0 {
            if let Some(used) = self.used.as_mut() {
                used.insert(pid);
            }
        }
        if w > 0.0 {
            for cell in self.t.cells(pid) {
                if let Some(x) = self.weights.get_mut(cell) {
                    *x += w;
                }
            }
        }
        Some((c, w))
    }

    /// Layouts completing depth `d`: the ship of the next open sunk answer or uncovered
    /// hit, then the free ships.
    fn constraints(&mut self, d: usize) -> Option<(f64, f64)> {
        let Some(opts) = self.m.next_constraint(self.t, self.level(d), &self.rem) else {
            return self.free(d, 0, None);
        };
        let mut total = (0.0, 0.0);
        for &pid in opts {
            let Some(p) = self.t.get(pid).copied() else { continue };
            let g = p.group as usize;
            if self.rem.get(g).copied().unwrap_or(0) == 0 || !self.t.disjoint(self.level(d), p.cells) {
                continue;
            }
            self.rem[g] -= 1;
            let r = self.place(d, pid, |e| e.constraints(d + 1));
            self.rem[g] += 1;
            let (c, w) = r?;
            total = (total.0 + c, total.1 + w);
            if self.first && total.0 > 0.0 {
                break;
            }
        }
        Some(total)
    }

    /// Layouts placing the free ships of the groups from `first` on; ships of group
    /// `first` take placements after `after` (interchangeable ships in increasing
    /// order). The placements tried are those of the model's free list that fit the
    /// depth's mask, in the list's order, found bit-parallel.
    fn free(&mut self, d: usize, first: usize, after: Option<u32>) -> Option<(f64, f64)> {
        let Some(g) = (first..self.rem.len()).find(|&g| self.rem.get(g).copied().unwrap_or(0) > 0) else {
            return Some(self.leaf());
        };
        let after = if g == first { after } else { None };
        if self.candidates.len() <= d {
            self.candidates.resize(d + 1, Vec::new());
        }
        let mut candidates = self.candidates.get_mut(d).map(std::mem::take).unwrap_or_default();
        let mut blocked = std::mem::take(&mut self.blocked);
        blocked.clear();
        blocked.extend(self.level(d).iter().zip(&self.m.free_blocked).map(|(a, b)| a | b));
        self.t.fitting_in_order(&blocked, g, &mut self.fit, &mut candidates);
        self.blocked = blocked;
        let mut total = Some((0.0, 0.0));
        for &pid in candidates.iter().filter(|&&pid| after.is_none_or(|a| pid > a)) {
            self.rem[g] -= 1;
            let r = self.place(d, pid, |e| e.free(d + 1, g, Some(pid)));
            self.rem[g] += 1;
            match (r, total) {
                (Some((c, w)), Some((tc, tw))) => {
                    total = Some((tc + c, tw + w));
                    if self.first && tc + c > 0.0 {
                        break;
                    }
                }
                _ => {
                    total = None;
                    break;
                }
            }
        }
        if let Some(slot) = self.candidates.get_mut(d) {
            *slot = candidates;
        }
        total
    }
}

/// Enumerates every unlabeled consistent layout, or `None` when more than `limit`
/// placements had to be tried (or the generator prior has too many labelings).
/// `counts` remembers placement counts for the generator prior.
pub(super) fn enumerate(t: &Table, m: &Model, prior: Prior, limit: usize, counts: &mut Counts) -> Option<Counted> {
    enumerate_noting(t, m, prior, limit, counts, false)
}

/// Whether some layout agrees with the model, under the uniform prior: `Some(true)` at
/// the first one found, `Some(false)` when the search was exhaustive, `None` when more
/// than `limit` placements had to be tried first.
pub(super) fn any(t: &Table, m: &Model, limit: usize, counts: &mut Counts) -> Option<bool> {
    let mut e = Enumeration::new(t, m, Prior::Uniform, limit, counts, false);
    e.first = true;
    let (layouts, _) = e.constraints(0)?;
    Some(layouts > 0.0)
}

/// As [`enumerate`]; with `note`, also every placement some layout uses.
pub(super) fn enumerate_noting(
    t: &Table,
    m: &Model,
    prior: Prior,
    limit: usize,
    counts: &mut Counts,
    note: bool,
) -> Option<Counted> {
    if prior == Prior::Generator && m.ln_suffix_labels > MAX_LABELINGS.ln() {
        return None;
    }
    let mut e = Enumeration::new(t, m, prior, limit, counts, note);
    let (layouts, weight) = e.constraints(0)?;
    let used = e.used.map_or(Vec::new(), |u| u.into_iter().collect());
    Some(Counted { layouts, weight, cells: e.weights, used })
}

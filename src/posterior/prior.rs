//! The generator prior: the law of the crate's own fleet generator, under which ships
//! are placed in the fleet's order (largest first), each uniformly among the
//! placements still valid. A labeled layout has probability `Π 1/n_k`, `n_k` the
//! valid placements of ship `k` given ships `1..k`; an unlabeled one sums its orders
//! of interchangeable ships.

use super::table::{Fit, Table};
use crate::game::rng::Rng;

/// Orders of interchangeable ships beyond which the generator prior is not summed
/// exactly (the prefix stops growing; exact enumeration is not used).
pub(super) const MAX_LABELINGS: f64 = 120.0;

/// `ln n!`.
pub(super) fn ln_factorial(n: usize) -> f64 {
    (2..=n).map(|k| (k as f64).ln()).sum()
}

/// A product of many counts kept as `ln`, with few logarithms.
#[derive(Debug, Clone, Copy)]
pub(super) struct LnProduct {
    ln: f64,
    product: f64,
}

impl LnProduct {
    /// The empty product, 1.
    pub fn new() -> LnProduct {
        LnProduct { ln: 0.0, product: 1.0 }
    }

    /// Multiplies by `x`.
    pub fn mul(&mut self, x: f64) {
        self.product *= x;
        if self.product > 1e200 || self.product < 1e-200 {
            self.ln += self.product.ln();
            self.product = 1.0;
        }
    }

    /// The product's `ln`.
    pub fn ln(self) -> f64 {
        self.ln + self.product.ln()
    }
}

/// Placement counts remembered by (blocked mask, group), on boards of at most 128
/// cells: a count depends on nothing else, and the layouts an estimator weighs share
/// their larger ships, hence most of their counts. Direct-mapped: a clash forgets.
#[derive(Debug, Clone, Default)]
pub(super) struct Counts {
    entries: Vec<(u128, u32, u64)>,
}

/// Entries of [`Counts`] (a power of two).
const MEMO: usize = 1 << 14;

impl Counts {
    /// Forgets every count (the table changed).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The number of placements of group `g` that fit `blocked` on table `t`.
    pub fn count(&mut self, t: &Table, blocked: &[u64], g: usize, fit: &mut Fit) -> u64 {
        if t.words > 2 {
            return t.fitting(blocked, g, fit);
        }
        let mask =
            u128::from(blocked.first().copied().unwrap_or(0)) | u128::from(blocked.get(1).copied().unwrap_or(0)) << 64;
        if self.entries.is_empty() {
            self.entries = vec![(0, u32::MAX, 0); MEMO];
        }
        let h = (mask as u64 ^ (mask >> 64) as u64 ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let slot = (h >> 50) as usize & (MEMO - 1);
        if let Some(&(m, gg, n)) = self.entries.get(slot) {
            if m == mask && gg == g as u32 {
                return n;
            }
        }
        let n = t.fitting(blocked, g, fit);
        if let Some(e) = self.entries.get_mut(slot) {
            *e = (mask, g as u32, n);
        }
        n
    }
}

/// Evaluates the generator prior.
pub(super) struct GenPrior<'a> {
    t: &'a Table,
    fit: Fit,
    /// The blocked masks of the recursion of [`GenPrior::sum_over_labelings`], one per
    /// depth (`words` each).
    levels: Vec<u64>,
    counts: &'a mut Counts,
    /// The sums of [`GenPrior::sum_rec`] already made in this sum, by the set of ships
    /// placed (bit `k`: `ships[k]`).
    done: Vec<(u64, f64)>,
    /// Which ships the recursion placed (scratch).
    used: Vec<bool>,
}

impl<'a> GenPrior<'a> {
    /// An evaluator on table `t`, remembering its counts in `counts`.
    pub fn new(t: &'a Table, counts: &'a mut Counts) -> GenPrior<'a> {
        GenPrior { t, fit: Fit::default(), levels: Vec::new(), counts, done: Vec::new(), used: Vec::new() }
    }

    /// `ln Π 1/n_k` for `ships` placed in this order after `blocked` (halos so far),
    /// which it updates.
    pub fn ln_in_order(&mut self, ships: &[u32], blocked: &mut [u64]) -> f64 {
        let mut prod = LnProduct::new();
        for &pid in ships {
            let Some(p) = self.t.get(pid) else { continue };
            let n = self.counts.count(self.t, blocked, p.group as usize, &mut self.fit);
            prod.mul(n.max(1) as f64);
            self.t.or_into(blocked, p.halo);
        }
        -prod.ln()
    }

    /// `Σ Π 1/n_k` over every order of `ships` that keeps the groups in placement order
    /// (`ships` grouped by group, in placement order), placed after `blocked`.
    pub fn sum_over_labelings(&mut self, ships: &[u32], blocked: &[u64]) -> f64 {
        let mut used = std::mem::take(&mut self.used);
        used.clear();
        used.resize(ships.len(), false);
        let w = self.t.words;
        self.levels.clear();
        self.levels.resize((ships.len() + 1) * w, 0);
        if let Some(first) = self.levels.get_mut(..w) {
            first.copy_from_slice(blocked.get(..w).unwrap_or(&[]));
        }
        self.done.clear();
        let sum = self.sum_rec(ships, &mut used, 0, 0);
        self.used = used;
        sum
    }

    /// The sum for the unused ships, placed after the mask of depth `d`.
    ///
    /// It depends on the set of ships placed only (their halos' union is the mask, in
    /// whatever order they came), and the orders of interchangeable ships reach each set
    /// many times (both orders of a pair lead to the pair placed): the first sum made for
    /// a set is kept and given again, the very same number.
    /// `set` has bit `k` for each `used[k]` (sums of more than 64 ships are not kept).
    fn sum_rec(&mut self, ships: &[u32], used: &mut [bool], set: u64, d: usize) -> f64 {
        let keep = ships.len() <= 64;
        if let Some(&(_, sum)) = self.done.iter().find(|(s, _)| keep && *s == set) {
            return sum;
        }
        let sum = self.sum_rec_fresh(ships, used, set, d);
        if keep {
            self.done.push((set, sum));
        }
        sum
    }

    /// [`GenPrior::sum_rec`] made afresh.
    fn sum_rec_fresh(&mut self, ships: &[u32], used: &mut [bool], set: u64, d: usize) -> f64 {
        let w = self.t.words;
        // The next slot takes the first group left (in placement order); any unused ship
        // of that group.
        let next = ships
            .iter()
            .zip(used.iter())
            .filter(|(_, &u)| !u)
            .filter_map(|(&pid, _)| self.t.get(pid))
            .map(|p| p.group)
            .min();
        let Some(group) = next else { return 1.0 };
        let blocked = self.levels.get(d * w..(d + 1) * w).unwrap_or(&[]);
        let n = self.counts.count(self.t, blocked, group as usize, &mut self.fit).max(1) as f64;
        let mut total = 0.0;
        for k in 0..ships.len() {
            let (Some(&pid), Some(&u)) = (ships.get(k), used.get(k)) else { continue };
            let Some(p) = self.t.get(pid).copied() else { continue };
            if u || p.group != group {
                continue;
            }
            // The child's mask: this depth's plus the ship's halo.
            self.levels.copy_within(d * w..(d + 1) * w, (d + 1) * w);
            if let Some(child) = self.levels.get_mut((d + 1) * w..(d + 2) * w) {
                self.t.or_into(child, p.halo);
            }
            if let Some(x) = used.get_mut(k) {
                *x = true;
            }
            total += self.sum_rec(ships, used, set | 1u64.checked_shl(k as u32).unwrap_or(0), d + 1) / n;
            if let Some(x) = used.get_mut(k) {
                *x = false;
            }
        }
        total
    }
}

/// Scratch space for [`Model::ln_generator_prior`](super::model::Model::ln_generator_prior).
#[derive(Debug, Clone, Default)]
pub(super) struct PriorScratch {
    pub blocked: Vec<u64>,
    pub fit: Fit,
    pub ships: Vec<u32>,
    pub counts: Counts,
}

/// `ln` of the generator's probability of placing `ships` (a model's suffix, grouped)
/// in one uniformly random order of each run of interchangeable ships, on top of the
/// cells `blocked` already holds.
/// Pre: `ships` are placement ids of `t`, runs of one group adjacent. Post: `ships` is
/// the order used; `s`'s buffers keep their memory.
pub(super) fn ln_in_random_order(
    t: &Table,
    ships: &mut [u32],
    blocked: &[u64],
    rng: &mut Rng,
    s: &mut PriorScratch,
) -> f64 {
    // Shuffle within each run of one group (Fisher-Yates).
    let group_at = |ships: &[u32], k: usize| t.get(ships.get(k).copied().unwrap_or(0)).map_or(0, |p| p.group);
    let mut start = 0;
    while start < ships.len() {
        let group = group_at(ships, start);
        let mut end = start;
        while end < ships.len() && group_at(ships, end) == group {
            end += 1;
        }
        for k in (start + 1..end).rev() {
            let j = start + rng.below((k - start + 1) as u64) as usize;
            ships.swap(k, j);
        }
        start = end.max(start + 1);
    }
    s.blocked.clear();
    s.blocked.extend_from_slice(blocked);
    let mut g = GenPrior {
        t,
        fit: std::mem::take(&mut s.fit),
        levels: Vec::new(),
        counts: &mut s.counts,
        done: Vec::new(),
        used: Vec::new(),
    };
    let ln = g.ln_in_order(ships, &mut s.blocked);
    s.fit = g.fit;
    ln
}

//! Sequential importance sampling: one layout drawn at a time through the model's
//! phases. While a sunk answer is open or a hit uncovered, the first one gets a (ship
//! slot, placement) pair drawn uniformly among those that cover it and fit; then each
//! remaining ship, in placement order, gets a placement uniform among those that fit.
//! Every consistent labeled layout is reached by exactly one path, of probability
//! `q = Π 1/options`; draws that get stuck weigh 0.

use super::model::Model;
use super::prior::{LnProduct, PriorScratch};
use super::table::Table;
use crate::game::rng::Rng;

/// A weighted layout: its placements (settled ships excluded) and `ln` of its
/// importance weight (prior over proposal, per unlabeled layout).
#[derive(Debug, Clone)]
pub(super) struct Sample {
    pub pids: Vec<u32>,
    pub ln_w: f64,
}

/// Scratch space for drawing.
#[derive(Debug, Clone, Default)]
pub(super) struct Scratch {
    pub blocked: Vec<u64>,
    opts: Vec<u32>,
    pub pids: Vec<u32>,
    rem: Vec<usize>,
    pub prior: PriorScratch,
}

/// Draws one layout into `s.pids`; returns `ln Π options` (the inverse of its
/// probability as a labeled path), or `None` when the draw got stuck (weight 0).
pub(super) fn draw(t: &Table, m: &Model, rng: &mut Rng, s: &mut Scratch) -> Option<f64> {
    s.blocked.clear();
    s.blocked.extend_from_slice(&m.base);
    s.pids.clear();
    s.rem.clear();
    s.rem.extend_from_slice(&m.rem);
    let mut options = LnProduct::new();
    // Constraint phases: each option is a (ship slot, placement) pair, so a placement of
    // group g counts rem[g] times (one per interchangeable ship of that group).
    while let Some(opts) = m.next_constraint(t, &s.blocked, &s.rem) {
        let mut total = 0u64;
        s.opts.clear();
        for &pid in opts {
            let Some(p) = t.get(pid) else { continue };
            let n = s.rem.get(p.group as usize).copied().unwrap_or(0) as u64;
            if n > 0 && t.disjoint(&s.blocked, p.cells) {
                total += n;
                s.opts.push(pid);
            }
        }
        let mut r = rng.below(total);
        let rem = &s.rem;
        let pick = s.opts.iter().copied().find(|&pid| {
            let n = t.get(pid).map_or(0, |p| rem.get(p.group as usize).copied().unwrap_or(0)) as u64;
            if r < n {
                true
            } else {
                r -= n;
                false
            }
        })?;
        options.mul(total as f64);
        let p = t.get(pick)?;
        *s.rem.get_mut(p.group as usize)? -= 1;
        t.or_into(&mut s.blocked, p.halo);
        s.pids.push(pick);
    }
    // Free phase: in placement order, each ship uniform among the placements that fit
    // (every constraint is met and its halo blocked, so fitting means avoiding `blocked`).
    for g in 0..s.rem.len() {
        for _ in 0..s.rem.get(g).copied().unwrap_or(0) {
            let n = t.fitting(&s.blocked, g, &mut s.prior.fit);
            if n == 0 {
                return None;
            }
            let pick = t.nth_fit(&s.prior.fit, g, rng.below(n))?;
            options.mul(n as f64);
            if let Some(p) = t.get(pick) {
                t.or_into(&mut s.blocked, p.halo);
            }
            s.pids.push(pick);
        }
    }
    Some(options.ln())
}

/// True when the layout `pids` agrees with the model's grid: no ship cell on water and
/// every hit covered.
pub(super) fn consistent(t: &Table, m: &Model, pids: &[u32], union: &mut Vec<u64>) -> bool {
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

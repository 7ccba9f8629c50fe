//! bayes's advice: the posterior probability of a ship on every cell for the ships
//! afloat, what it and the rules settle, and the unknown cell most likely a ship.

use super::{Advice, AdviceError, Estimate, Reason, Suggestion, Values};
use crate::game::cellset::CellSet;
use crate::game::rules::Rules;
use crate::posterior::{Estimator, Evidence, Found, Posterior, PosteriorError, Prior, Settings};
use crate::scan::deduce::Deduction;
use crate::scan::record::{CellState, ScanRecord};

/// Layouts drawn when bayes must sample (one advice, not a game: it can afford many).
const SAMPLES: usize = 20_000;

/// The most placements the search for one layout tries before `advise` gives up
/// (about a second on the largest grid bayes takes, 4,096 cells).
const SEARCH_BUDGET: usize = 200_000;

/// bayes's advice for the grid `known` with `wrecks`, for the fleet of `rules` (the
/// ships afloat).
/// Pre: the grid passed the consistency check for that fleet. Post: `Err` for a grid
/// no layout agrees with, or one too large for bayes.
pub(super) fn advice(
    known: ScanRecord,
    wrecks: &CellSet,
    rules: &Rules,
    prior: Prior,
    seed: u64,
) -> Result<Advice, AdviceError> {
    let fleet = rules.fleet();
    // The deductions of straight ships that never touch hold whatever a probe answers.
    let apart = !rules.touch() && fleet.is_straight();
    let mut d = if apart {
        crate::scan::deduce::deduce(&known, wrecks, Some(&fleet.sizes()))
            .map_err(|e| AdviceError::Grid(e.to_string()))?
    } else {
        Deduction::known(&known)
    };
    let bay = known.bay();
    let settings = Settings { samples: SAMPLES, prior, ..Settings::default() };
    let ev = Evidence { known: &known, wrecks: Some(wrecks), rules };
    let post: Posterior = Estimator::with_settings(seed, settings)
        .estimate_under(&ev)
        .map_err(|e| AdviceError::Grid(why_none(e, &ev)))?;
    // Both sources are sound: keep what either settles.
    d.water |= post.certain_water();
    d.ship |= post.certain_ship();
    let prob = |i: usize| -> f64 {
        if d.ship.contains(i) {
            1.0
        } else if d.water.contains(i) {
            0.0
        } else {
            post.prob(bay.position(i))
        }
    };
    let values: Vec<f64> = (0..bay.cells()).map(prob).collect();
    // The posterior's own choice, told what the rules settle too (known cells are out).
    let out = CellSet::from_fn(bay.cells(), |i| d.water.contains(i) || known.state_at(i) != CellState::Unknown);
    let suggest = post.best_given(&out, &d.ship).map(|(cell, q)| Suggestion { cell, reason: Reason::Probability(q) });
    let estimate = Estimate {
        method: post.method,
        layouts: post.layouts,
        samples: post.samples,
        effective_samples: post.effective_samples,
    };
    Ok(Advice {
        known,
        values: Values::Probabilities { values, estimate },
        fleet: fleet.clone(),
        prior,
        suggest,
        water: d.water,
        ship: d.ship,
    })
}

/// Why the posterior gave no probabilities, in `advise`'s words: when sampling drew no
/// layout, a search for one ([`crate::posterior::exists`]) says whether any exists.
fn why_none(e: PosteriorError, ev: &Evidence<'_>) -> String {
    let fleet = ev.rules.fleet();
    match e {
        PosteriorError::Contradiction(why) => {
            format!("the grid contradicts the fleet {}: {why}", fleet.describe())
        }
        // Sampling drew no layout: before saying none fits, search for one exactly.
        PosteriorError::Intractable => match crate::posterior::exists(ev, SEARCH_BUDGET) {
            Found::Layout => format!(
                "layouts of the fleet {} agree with the grid (a search found one), but too few could be \
                 sampled to estimate the probabilities (the fleet nearly fills the bay); --strategy prob \
                 gives its scores",
                fleet.describe()
            ),
            Found::None => format!(
                "the grid contradicts the fleet {}: no layout of it agrees with the grid (an exhaustive \
                 search found none)",
                fleet.describe()
            ),
            Found::GaveUp => format!(
                "no layout of the fleet {} that agrees with the grid was found (sampling, then a search of \
                 {SEARCH_BUDGET} placements, neither found one nor proved that none exists)",
                fleet.describe()
            ),
        },
        PosteriorError::TooLarge(_) => format!("bayes: {e}; --strategy prob has no such limit"),
        other => other.to_string(),
    }
}

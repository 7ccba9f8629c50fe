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
//! Each probe plays thousands of games of density, so it plays boards of at most
//! [`LOOKAHEAD_CELLS`] cells (density's fast path) and costs seconds a game: `all` leaves
//! it out ([`super::Entry::in_all`]). Without a fleet to draw layouts of, or when the
//! posterior cannot be sampled, it probes density's cell.

use super::bayes::posterior_rules;
use super::{Density, ScanStrategy};
use crate::game::board::Board;
use crate::game::position::Position;
use crate::game::rules::Rules;
use crate::limits::{BAYES_GAME_WORK, LOOKAHEAD_CELLS};
use crate::posterior::{Estimator, Evidence, Prior, SampledLayout, Settings};
use crate::scan::observer::{Silent, Source};
use crate::scan::record::ScanRecord;
use crate::scan::referee::Referee;
use crate::scan::{Scan, ScanError};

/// How many of density's best cells are weighed at each probe.
pub const CANDIDATES: usize = 5;

/// How many layouts each probe draws. Choosing on 8,192 gains about half a scan a classic
/// game over density; on 2,048 it loses a fifth of one (report/results.md).
pub const LAYOUTS: usize = 8192;

/// The lookahead scanner.
#[derive(Debug, Clone)]
pub struct Lookahead {
    seed: u64,
    /// Layouts drawn at each probe.
    layouts: usize,
    /// Draws the layouts (uniform prior: every layout that agrees equally likely).
    estimator: Estimator,
    /// Ranks the candidates and plays the rollouts (and the game, when the posterior
    /// cannot be used).
    density: Density,
    /// The layouts of the probe being weighed (kept to reuse their memory).
    drawn: Vec<SampledLayout>,
}

impl Lookahead {
    /// A lookahead drawing [`LAYOUTS`] layouts a probe, its draws fixed by `seed`.
    /// Pre: none. Post: two scanners with the same seed play the same games.
    pub fn new(seed: u64) -> Lookahead {
        Lookahead::with_layouts(seed, LAYOUTS)
    }

    /// A lookahead drawing `layouts` layouts a probe (experiments, tests).
    /// Pre: none. Post: as [`Lookahead::new`]; with `layouts` 0 it plays density's cells.
    pub fn with_layouts(seed: u64, layouts: usize) -> Lookahead {
        let settings = Settings { prior: Prior::Uniform, samples: layouts.max(1), ..Settings::default() };
        Lookahead {
            seed,
            layouts,
            estimator: Estimator::with_settings(seed, settings),
            density: Density::default(),
            drawn: Vec::new(),
        }
    }

    /// Draws `n` layouts that agree with `scan`'s record under `rules` (whose fleet is
    /// the scan's) and appends to `rows`, for each, its weight (the batch's weights sum
    /// to `n`) and the scans density needs after each of `cands` is probed on it.
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
        let record = scan.record();
        let ev = Evidence { known: record, wrecks: None, rules };
        let mut drawn = std::mem::take(&mut self.drawn);
        if self.estimator.sample_layouts(&ev, n, &mut drawn).is_err() {
            self.drawn = drawn;
            return false;
        }
        let before = rows.len();
        for layout in &drawn {
            let Ok(board) = Board::with_rules(scan.rows(), scan.cols(), layout.ships.clone(), rules) else { continue };
            let scans: Option<Vec<f64>> =
                cands.iter().map(|&c| played_out(&mut self.density, &board, record, c).map(|s| s as f64)).collect();
            if let Some(scans) = scans {
                rows.push((layout.weight * n as f64, scans));
            }
        }
        self.drawn = drawn;
        rows.len() > before
    }

    /// The cell to probe in `scan`'s state under `rules` (whose fleet is the scan's).
    /// Pre: the scan is not done. Post: an unknown cell; density's when no other
    /// candidate needs fewer scans on average over the layouts drawn.
    fn choose(&mut self, scan: &Scan<'_>, rules: &Rules) -> Result<Position, ScanError> {
        let cands = self.density.ranked(scan, CANDIDATES)?;
        let Some(&first) = cands.first() else { return Err(scan.exhausted()) };
        if cands.len() == 1 || self.layouts == 0 || self.estimator.work() > BAYES_GAME_WORK {
            return Ok(first);
        }
        let mut rows = Vec::new();
        if !self.roll_out(scan, rules, &cands, self.layouts, &mut rows) {
            return Ok(first);
        }
        Ok(cands.get(best_gain(&rows, cands.len()).0).copied().unwrap_or(first))
    }
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
        self.seed = seed;
    }

    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        let (rows, cols) = (scan.rows(), scan.cols());
        if rows.saturating_mul(cols) > LOOKAHEAD_CELLS {
            return Err(super::too_large(self.name(), rows, cols, scan.rules()));
        }
        self.estimator.reset(self.seed);
        let Some(rules) = posterior_rules(scan) else { return self.density.run(scan) };
        while !scan.is_done() {
            let cell = self.choose(scan, &rules)?;
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
        }
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

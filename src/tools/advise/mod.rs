//! Advice on a game in progress: given the rules, a grid of what is known (a
//! [`ScanRecord`] and the wrecks of sunk ships), the ships still afloat, a strategy and
//! a prior, how likely each cell is to hold a ship, which cell to probe next and why,
//! and which cells the grid settles. What `advise` prints and `serve`'s `/api/advise`
//! answers ([`advise`] -> [`Advice`], written by [`Advice::json`] or the command's
//! text printer).
//!
//! One idea a file: the ships afloat ([`afloat`]), the answers' consistency
//! ([`answers`]), prob's matrix and suggestion ([`prob`]), bayes's probabilities and
//! suggestion ([`bayes`]), the JSON object ([`json`]).

mod afloat;
mod answers;
mod bayes;
mod json;
mod prob;
mod text;

use crate::game::cellset::CellSet;
use crate::game::fleet::Fleet;
use crate::game::placement::{PlacementError, Placer};
use crate::game::position::Position;
use crate::game::rules::Rules;
use crate::posterior::{Method, Prior};
use crate::scan::record::{CellState, ScanRecord};
use crate::scan::ScanError;
use crate::strategy::likelihood::Likelihood;
use crate::tools::settings::{choice, RuleSettings, SettingError};
use std::fmt;

/// The two ways of advising.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdviceStrategy {
    /// The statement's likelihood scores (straight ships that never touch).
    Prob,
    /// The probability of a ship on each cell, over the layouts that agree.
    Bayes,
}

impl AdviceStrategy {
    /// The strategy `word` names (`--strategy`), else the default for these rules:
    /// prob under Problem G's preset as it is (no fleet given), bayes otherwise.
    /// Pre: none. Post: `Err` for another word, or prob under rules it cannot play.
    pub(crate) fn choose(word: Option<&str>, rules: &RuleSettings) -> Result<AdviceStrategy, SettingError> {
        let apart = rules.rules.is_problem_g();
        let preset = rules.preset_given.as_deref().unwrap_or(crate::tools::settings::DEFAULT_PRESET);
        let strategy = match choice("--strategy", word, &["prob", "bayes"])? {
            None if apart && !rules.fleet_given() && preset == "problem-g" => AdviceStrategy::Prob,
            Some("prob") => AdviceStrategy::Prob,
            _ => AdviceStrategy::Bayes,
        };
        if strategy == AdviceStrategy::Prob && !apart {
            return Err(SettingError(
                "--strategy prob: the likelihood scores assume straight ships that never touch and answers of hit or miss"
                    .into(),
            ));
        }
        Ok(strategy)
    }
}

/// bayes's prior that `word` names (`--prior`: uniform, the default, or generator).
/// Pre: none. Post: `Err` for another word.
pub(crate) fn prior(word: Option<&str>) -> Result<Prior, SettingError> {
    Ok(match choice("--prior", word, &["uniform", "generator"])? {
        Some("generator") => Prior::Generator,
        _ => Prior::Uniform,
    })
}

/// What an advice is asked under, apart from the grid (read before it: bad settings
/// fail first).
#[derive(Debug, Clone)]
pub struct AdviceSettings {
    /// The rules, with the whole fleet.
    pub rules: Rules,
    /// True when the fleet was given (not the preset's): prob then checks the grid
    /// against it.
    pub fleet_given: bool,
    /// The ships still afloat, by name or size (`battleship,3`); `None`: the fleet less
    /// the sunk ships the wrecks draw.
    pub afloat: Option<String>,
    /// How to advise.
    pub strategy: AdviceStrategy,
    /// bayes's prior.
    pub prior: Prior,
    /// The seed of bayes's sampling.
    pub seed: u64,
}

/// One advice asked: the settings and the grid.
#[derive(Debug, Clone)]
pub struct AdviceRequest {
    /// What the advice is asked under.
    pub settings: AdviceSettings,
    /// What is known of each cell (wrecks eliminated), as
    /// [`crate::scan::state::read`] gives it.
    pub known: ScanRecord,
    /// The cells of ships already sunk (`#`).
    pub wrecks: CellSet,
}

/// Why no advice is given.
#[derive(Debug)]
pub enum AdviceError {
    /// A setting the fleet refutes (an `--afloat` naming ships it lacks).
    Setting(SettingError),
    /// A grid the rules and the fleet make impossible, or one too large for bayes.
    Grid(String),
    /// Ships afloat that fit no bay of the grid's size.
    Placement(PlacementError),
    /// Memory for the check ran short.
    Scan(ScanError),
}

impl fmt::Display for AdviceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdviceError::Setting(e) => write!(f, "{e}"),
            AdviceError::Grid(m) => f.write_str(m),
            AdviceError::Placement(e) => write!(f, "{e}"),
            AdviceError::Scan(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AdviceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AdviceError::Setting(e) => Some(e),
            AdviceError::Grid(_) => None,
            AdviceError::Placement(e) => Some(e),
            AdviceError::Scan(e) => Some(e),
        }
    }
}

impl From<PlacementError> for AdviceError {
    fn from(e: PlacementError) -> AdviceError {
        AdviceError::Placement(e)
    }
}

/// The values of the cells.
#[derive(Debug, Clone)]
pub enum Values {
    /// prob: the statement's likelihood matrix (-1 where blocked or water).
    Scores(Box<Likelihood>),
    /// bayes: the chance of a ship on each cell, row-major, from 0 to 1, and how the
    /// layouts were counted.
    Probabilities {
        /// The chances.
        values: Vec<f64>,
        /// How they were counted.
        estimate: Estimate,
    },
}

/// How bayes counted the layouts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Exact, or sampled.
    pub method: Method,
    /// The layouts that agree with the grid (counted, or estimated).
    pub layouts: f64,
    /// Sampled: the weighted layouts drawn (0 when exact).
    pub samples: usize,
    /// Sampled: the effective sample size (0 when exact).
    pub effective_samples: f64,
}

/// Why a cell is suggested.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reason {
    /// prob: a cell the rules prove a ship cell, with its score.
    CertainShip(i32),
    /// prob: a hit's N/E/S/W neighbour, with its score.
    NextToHit(i32),
    /// prob: the highest score.
    HighestScore(i32),
    /// bayes: the chance of a ship there, from 0 to 1.
    Probability(f64),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::CertainShip(s) => write!(f, "certainly a ship cell, score {s}"),
            Reason::NextToHit(s) => write!(f, "next to a hit, score {s}"),
            Reason::HighestScore(s) => write!(f, "highest score, {s}"),
            Reason::Probability(q) => write!(f, "ship probability {:.1}%", q * 100.0),
        }
    }
}

/// The cell to probe next, and why.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Suggestion {
    /// The cell.
    pub cell: Position,
    /// Why.
    pub reason: Reason,
}

/// An advice.
#[derive(Debug, Clone)]
pub struct Advice {
    /// The grid the advice is about (its unknown cells are the ones valued).
    pub known: ScanRecord,
    /// The value of every cell.
    pub values: Values,
    /// The ships afloat the advice counted.
    pub fleet: Fleet,
    /// bayes's prior.
    pub prior: Prior,
    /// The cell to probe next; `None` when no unknown cell can hold a ship.
    pub suggest: Option<Suggestion>,
    /// Cells the grid settles as water, row-major indices (known cells included).
    pub water: CellSet,
    /// Cells the grid settles as ship cells, row-major indices (known cells included).
    pub ship: CellSet,
}

impl Advice {
    /// Every cell of the grid, row-major.
    pub fn positions(&self) -> impl Iterator<Item = Position> {
        self.known.bay().positions()
    }

    /// True when `p` is unknown in the grid.
    pub fn is_unknown(&self, p: Position) -> bool {
        self.known.state(p) == CellState::Unknown
    }

    /// The unknown cells the grid settles as water (`ship` false) or as ship cells.
    pub fn certain(&self, ship: bool) -> impl Iterator<Item = Position> + '_ {
        let flags = if ship { &self.ship } else { &self.water };
        let bay = self.known.bay();
        self.positions().filter(move |&p| self.is_unknown(p) && flags.contains(bay.index(p)))
    }
}

/// The advice for `request`.
/// Pre: `known` and `wrecks` as [`crate::scan::state::read`] gives them. Post: `Err`
/// for an `--afloat` the fleet refutes, a grid the rules and fleet make impossible, or
/// one too large for bayes.
pub fn advise(request: AdviceRequest) -> Result<Advice, AdviceError> {
    let AdviceRequest { settings: s, known, wrecks } = request;
    let afloat = afloat::afloat(s.afloat.as_deref(), &s.rules, &known, &wrecks)?;
    let fleet_known = s.fleet_given || s.strategy == AdviceStrategy::Bayes;
    // Every deduction below takes the grid as this check leaves it: consistent.
    answers::check_answers(&known, &s.rules, fleet_known.then_some(&afloat))?;
    // A fleet given (or bayes's) must fit the bay at all: no advice on a bay no
    // layout of the ships afloat fits.
    if fleet_known {
        crate::posterior::fleet_fits(known.rows(), known.cols(), &s.rules.clone().with_fleet(afloat.clone()))?;
    }
    match s.strategy {
        AdviceStrategy::Prob => prob::advice(known, &wrecks, afloat, s.fleet_given),
        AdviceStrategy::Bayes => {
            Placer::with_rules(known.rows(), known.cols(), &s.rules).check(&afloat)?;
            let rules = s.rules.clone().with_fleet(afloat);
            bayes::advice(known, &wrecks, &rules, s.prior, s.seed)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::settings::RuleWords;

    fn request(grid: &str, words: RuleWords<'_>, strategy: Option<&str>, afloat: Option<&str>) -> AdviceRequest {
        let rules = RuleSettings::from_words(words).unwrap();
        let strategy = AdviceStrategy::choose(strategy, &rules).unwrap();
        let settings = AdviceSettings {
            fleet_given: rules.fleet_given(),
            rules: rules.rules,
            afloat: afloat.map(str::to_string),
            strategy,
            prior: Prior::Uniform,
            seed: 1,
        };
        let (known, wrecks) = crate::scan::state::parse(grid.as_bytes()).unwrap();
        AdviceRequest { settings, known, wrecks }
    }

    #[test]
    fn prob_suggests_a_hits_neighbour_and_bayes_a_certain_cell() {
        let prob = advise(request("X+...\n.....\n", RuleWords::default(), None, None)).unwrap();
        assert!(matches!(prob.values, Values::Scores(_)));
        let s = prob.suggest.unwrap();
        assert!(matches!(s.reason, Reason::NextToHit(_)), "{}", s.reason);
        assert!([Position::new(0, 2), Position::new(1, 1)].contains(&s.cell), "{}", s.cell);
        // The fleet's one ship of 2 covers the hit, whose sides are water: it lies south.
        let words = RuleWords { fleet: Some("2"), ..RuleWords::default() };
        let bayes = advise(request("X+X\n...\n", words, None, None)).unwrap();
        let Values::Probabilities { estimate, .. } = &bayes.values else { panic!("bayes gives probabilities") };
        assert_eq!((estimate.method, estimate.layouts), (Method::Exact, 1.0));
        let s = bayes.suggest.unwrap();
        assert_eq!((s.cell, s.reason), (Position::new(1, 1), Reason::Probability(1.0)));
        assert_eq!(bayes.certain(true).collect::<Vec<_>>(), [Position::new(1, 1)]);
        assert!(bayes.json().starts_with("{\"rows\": 2, \"cols\": 3, \"method\": \"exact\", \"layouts\": 1, "));
    }

    #[test]
    fn errors_say_which_side_is_at_fault() {
        let words = RuleWords { preset: Some("classic"), ..RuleWords::default() };
        let e = advise(request("...\n", words, None, Some("zeppelin"))).unwrap_err();
        assert!(matches!(e, AdviceError::Setting(_)), "{e}");
        let words = RuleWords { fleet: Some("2"), ..RuleWords::default() };
        let e = advise(request("+X\nX.\n", words, None, None)).unwrap_err();
        assert!(matches!(e, AdviceError::Grid(_) | AdviceError::Placement(_)), "{e}");
        let rules = RuleSettings::from_words(RuleWords { preset: Some("classic"), ..RuleWords::default() }).unwrap();
        assert!(AdviceStrategy::choose(Some("prob"), &rules).is_err());
        assert_eq!(AdviceStrategy::choose(None, &rules), Ok(AdviceStrategy::Bayes));
    }
}

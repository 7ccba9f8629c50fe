//! What the rules settle about the unknown cells of a bay, given what is known of it
//! (a [`ScanRecord`]: `advise`'s grid), the wrecks (cells of ships already sunk and left
//! out of the fleet) and, when known, the sizes of the ships afloat. Where straight
//! ships never touch:
//! * the diagonal neighbours of a hit are water, and so is every cell around a wreck;
//! * a run of hits closed at both ends by water or the edge is a whole ship: its size
//!   leaves the fleet (it must be in it);
//! * an open run as long as the largest ship still unfinished (5 without a fleet) is a
//!   whole ship too: the cells beyond its ends are water;
//! * with a fleet, once every ship cell is hit every unknown cell is water;
//! * with a fleet, an open run shorter than every unfinished ship that can grow at only
//!   one end is certainly continued there: that cell is a ship cell.
//!
//! Every rule is sound: it never marks a cell that some valid layout agreeing with the
//! grid would contradict. What is known must first pass the consistency check
//! ([`crate::scan::check`]), which refuses hits that touch diagonally, lines longer than
//! the longest ship and more hits than the fleet has; the deduction refuses what only
//! it sees, with the cell or run at fault.

use crate::game::cellset::CellSet;
use crate::game::position::Position;
use crate::game::ship::MAX_SHIP;
use crate::render::words::count;
use crate::scan::record::{CellState, ScanRecord};
use crate::scan::runs::{self, RunError};
use std::fmt;

/// Why what is known cannot be true, as only the deduction sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeductionError {
    /// A run that cannot be closed: longer than the largest ship still unfinished once
    /// the whole ships are taken out of the fleet.
    RunTooLong {
        /// Its first cell (top or left end).
        start: Position,
        /// Its length.
        len: usize,
        /// The longest ship that could hold it.
        max: usize,
    },
    /// Fewer cells left that may hold a ship than ship cells still missing.
    NoRoom {
        /// Ship cells of the fleet not hit yet.
        missing: usize,
        /// Unknown cells not known to be water.
        open: usize,
    },
    /// A hit next to a sunk ship's cell, when ships never touch.
    TouchesWreck {
        /// The hit.
        hit: Position,
        /// The sunk ship's cell.
        wreck: Position,
    },
    /// A run that must be a whole ship, of a size the fleet has no (more) ship of.
    NotInFleet {
        /// Its first cell.
        start: Position,
        /// Its length.
        len: usize,
    },
    /// The hits are not lines of ships that never touch: what is known did not pass the
    /// consistency check first (a bug of the caller, said rather than deduced from).
    Unchecked(RunError),
}

impl fmt::Display for DeductionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeductionError::RunTooLong { start, len, max } => write!(
                f,
                "the {len} hits in a line from {start} are longer than any ship that can hold them ({})",
                count(*max, "cell")
            ),
            DeductionError::NoRoom { missing, open } => write!(
                f,
                "{} of the fleet {} still missing but only {} may hold {}",
                count(*missing, "ship cell"),
                if *missing == 1 { "is" } else { "are" },
                count(*open, "unknown cell"),
                if *missing == 1 { "it" } else { "them" }
            ),
            DeductionError::TouchesWreck { hit, wreck } => {
                write!(f, "the hit {hit} touches the sunk ship's cell {wreck}, and ships never touch")
            }
            DeductionError::NotInFleet { start, len } => {
                let hits = if *len == 1 {
                    format!("the hit at {start} must be")
                } else {
                    format!("the {len} hits from {start} must form")
                };
                write!(f, "{hits} a whole ship, but the fleet has no more ships of {}", count(*len, "cell"))
            }
            DeductionError::Unchecked(RunError::Diagonal { first, second }) => {
                write!(f, "internal: the hits {first} and {second} touch diagonally, and were not refused first")
            }
            DeductionError::Unchecked(RunError::TooLong { start, len }) => {
                write!(f, "internal: the {len} hits in a line from {start} are longer than any ship, and were not refused first")
            }
        }
    }
}

impl std::error::Error for DeductionError {}

/// What the rules settle about the unknown cells of a bay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deduction {
    /// The cells (row-major indices) known or certain to be water.
    pub water: CellSet,
    /// The cells that are hits or certain ship cells.
    pub ship: CellSet,
    /// Ship sizes not yet finished (largest first), when the fleet is known.
    pub remaining: Option<Vec<usize>>,
}

impl Deduction {
    /// What `known` itself settles, whatever the rules: misses and eliminated cells
    /// (wrecks among them) are water, hits are ship.
    /// Pre: none. Post: `remaining` is `None`; both sets have the bay's cells as capacity.
    pub fn known(known: &ScanRecord) -> Deduction {
        let n = known.bay().cells();
        Deduction {
            water: CellSet::from_fn(n, |i| known.state_at(i).is_water()),
            ship: CellSet::from_fn(n, |i| known.state_at(i) == CellState::Hit),
            remaining: None,
        }
    }
}

/// Settles what the module's rules settle about `known`, whose wrecks are `wrecks`,
/// for the ships afloat of sizes `fleet` when given (straight ships that never touch).
/// Pre: `known` passed the consistency check ([`crate::scan::check::answer`] of every
/// answer) for these ships, or for ships of 1 to 5 cells with as many cells as it has
/// hits when `fleet` is `None`; `fleet`'s sizes are in 1..=5; `wrecks` are eliminated
/// in `known`. Post: `Ok` marks every hit as ship and every miss, eliminated cell and
/// hit's diagonal as water, plus the deduced cells; `Err` names the cell or run at
/// fault (a hit beside a wreck, a run too long once the whole ships are out, a whole
/// ship of a size the fleet lacks, too little room), or `Unchecked` when the pre is
/// broken.
pub fn deduce(known: &ScanRecord, wrecks: &CellSet, fleet: Option<&[usize]>) -> Result<Deduction, DeductionError> {
    let bay = known.bay();
    let n = bay.cells();
    let runs = runs::in_record(known).map_err(DeductionError::Unchecked)?;
    let hits = known.hits();
    let state = |i: usize| known.state_at(i);
    // Water: what is known to be (misses, wrecks), and the diagonals of the hits.
    let Deduction { mut water, ship, .. } = Deduction::known(known);
    for p in bay.positions().filter(|&p| known.state(p) == CellState::Hit) {
        for d in bay.diagonals(p) {
            let j = bay.index(d);
            if !ship.contains(j) {
                water.insert(j);
            }
        }
    }
    // The cells around a sunk ship are water.
    let mut next = wrecks.next_member(0);
    while let Some(i) = next.filter(|&i| i < n) {
        let p = bay.position(i);
        // The wreck's halo: the wreck itself is eliminated and stays out of `water`.
        for q in bay.around(p) {
            if known.state(q) == CellState::Hit {
                return Err(DeductionError::TouchesWreck { hit: q, wreck: p });
            }
            let j = bay.index(q);
            if !wrecks.contains(j) {
                water.insert(j);
            }
        }
        next = wrecks.next_member(i + 1);
    }
    // A cell outside the bay counts as water (the edge closes a run as water does).
    let is_water = |water: &CellSet, p: Position| !bay.contains(p) || water.contains(bay.index(p));
    // Closing runs can shrink the largest unfinished size, which closes more runs:
    // at most one round per size.
    let mut remaining: Option<Vec<usize>> = None;
    for _ in 0..=MAX_SHIP + 1 {
        let closed: Vec<bool> =
            runs.iter().map(|r| r.ends(bay.rows, bay.cols).iter().all(|&e| is_water(&water, e))).collect();
        remaining = match fleet {
            None => None,
            Some(fleet) => {
                let mut left = fleet.to_vec();
                left.sort_unstable_by(|a, b| b.cmp(a));
                for (run, _) in runs.iter().zip(&closed).filter(|(_, &c)| c) {
                    match left.iter().position(|&s| s == run.len) {
                        Some(k) => {
                            left.remove(k);
                        }
                        None => return Err(DeductionError::NotInFleet { start: run.start, len: run.len }),
                    }
                }
                Some(left)
            }
        };
        let longest = remaining.as_ref().map_or(MAX_SHIP, |l| l.first().copied().unwrap_or(0));
        let mut changed = false;
        for (run, _) in runs.iter().zip(&closed).filter(|(_, &c)| !c) {
            if run.len > longest {
                return Err(DeductionError::RunTooLong { start: run.start, len: run.len, max: longest });
            }
            if run.len == longest {
                for e in run.ends(bay.rows, bay.cols).into_iter().filter(|&e| bay.contains(e)) {
                    changed |= !water.contains(bay.index(e));
                    water.insert(bay.index(e));
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut deduction = Deduction { water, ship, remaining };
    let Some(left) = deduction.remaining.clone() else { return Ok(deduction) };
    let cells: usize = fleet.map_or(0, |f| f.iter().sum());
    if hits >= cells {
        deduction.water.insert_all((0..n).filter(|&i| state(i) == CellState::Unknown));
        return Ok(deduction);
    }
    let open = (0..n).filter(|&i| state(i) == CellState::Unknown && !deduction.water.contains(i)).count();
    if cells - hits > open {
        return Err(DeductionError::NoRoom { missing: cells - hits, open });
    }
    let shortest = left.last().copied().unwrap_or(0);
    for run in runs.iter().filter(|r| r.len < shortest) {
        let open: Vec<Position> =
            run.ends(bay.rows, bay.cols).into_iter().filter(|&e| !is_water(&deduction.water, e)).collect();
        if let [only] = open[..] {
            deduction.ship.insert(bay.index(only));
        }
    }
    Ok(deduction)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::state::parse;

    fn grid(text: &str) -> (ScanRecord, CellSet) {
        parse(text.as_bytes()).unwrap()
    }

    fn deduced(text: &str, fleet: Option<&[usize]>) -> Result<Deduction, DeductionError> {
        let (known, wrecks) = grid(text);
        deduce(&known, &wrecks, fleet)
    }

    /// The unknown cells flagged.
    fn cells_where(flags: &CellSet, text: &str) -> Vec<Position> {
        let (known, _) = grid(text);
        let bay = known.bay();
        assert_eq!(flags.capacity(), bay.cells());
        flags.iter().filter(|&i| known.state_at(i) == CellState::Unknown).map(|i| bay.position(i)).collect()
    }

    #[test]
    fn deduces_diagonals_and_whole_ships() {
        let g = ".....\n.+++.\n.....\n.....\n";
        let d = deduced(g, None).unwrap();
        assert_eq!(cells_where(&d.water, g).len(), 10);
        // Fleet whose largest ship has 3 cells: the run is whole, its ends are water.
        let d = deduced(g, Some(&[3, 2])).unwrap();
        let water = cells_where(&d.water, g);
        assert!(water.contains(&Position::new(1, 0)) && water.contains(&Position::new(1, 4)));
        assert_eq!(d.remaining, Some(vec![2]));
        let too_long = Err(DeductionError::RunTooLong { start: Position::new(1, 1), len: 3, max: 2 });
        assert_eq!(deduced(g, Some(&[2, 2])), too_long);
        assert_eq!(deduced(g, Some(&[2])), too_long);
        assert_eq!(deduced(g, Some(&[3])).map(|d| d.remaining), Ok(Some(vec![])));
        assert_eq!(
            deduced(".....\n.+++.\n.....\n", Some(&[3, 2])),
            Err(DeductionError::NoRoom { missing: 2, open: 0 })
        );
    }

    #[test]
    fn closing_cascades_and_all_found() {
        // Fleet 3,1: `+++` is whole once 3 is the largest; then everything is found.
        let g = "+++..\n.....\n...+.\n";
        let (known, _) = grid(g);
        let d = deduced(g, Some(&[3, 1])).unwrap();
        assert!((0..known.bay().cells()).all(|i| d.water.contains(i) || known.state_at(i) == CellState::Hit));
        // Two whole 3-runs but one 3-ship.
        assert_eq!(
            deduced("+++..\n.....\n+++..\n", Some(&[3, 2, 2, 2])),
            Err(DeductionError::NotInFleet { start: Position::new(2, 0), len: 3 })
        );
        // An open run longer than what is left once the whole ships are out (the check
        // lets it pass: a ship of 3 is afloat as far as it knows).
        assert_eq!(
            deduced("+++X.\nXXX..\n...++\n", Some(&[3, 1, 1])),
            Err(DeductionError::RunTooLong { start: Position::new(2, 3), len: 2, max: 1 })
        );
    }

    #[test]
    fn forced_continuation_is_a_ship() {
        // A lone hit in a corner, fleet of 2s: the only open side continues it.
        let g = "+X\n..\n";
        let d = deduced(g, Some(&[2])).unwrap();
        assert_eq!(cells_where(&d.ship, g), vec![Position::new(1, 0)]);
        assert!(d.water.contains(3));
        assert!(cells_where(&deduced(g, None).unwrap().ship, g).is_empty());
    }

    #[test]
    fn wrecks_are_surrounded_by_water_and_touch_no_hit() {
        let g = "#...\n....\n..+.\n";
        let d = deduced(g, None).unwrap();
        let water: Vec<Position> = [(0, 1), (1, 0), (1, 1), (1, 3)].iter().map(|&(r, c)| Position::new(r, c)).collect();
        assert_eq!(cells_where(&d.water, g), water);
        assert_eq!(
            deduced("#+..\n....\n", None),
            Err(DeductionError::TouchesWreck { hit: Position::new(0, 1), wreck: Position::new(0, 0) })
        );
    }

    #[test]
    fn unchecked_hits_are_said_not_deduced_from() {
        let diagonal = Err(DeductionError::Unchecked(RunError::Diagonal {
            first: Position::new(0, 0),
            second: Position::new(1, 1),
        }));
        assert_eq!(deduced("++\n.+\n", None), diagonal);
        let long = deduced("++++++\n", Some(&[5]));
        assert_eq!(long, Err(DeductionError::Unchecked(RunError::TooLong { start: Position::new(0, 0), len: 6 })));
        assert!(long.unwrap_err().to_string().starts_with("internal: "));
        // More hits than the fleet (the check's to refuse): no panic, some error.
        assert_eq!(
            deduced("+.+\n", Some(&[1])),
            Err(DeductionError::NotInFleet { start: Position::new(0, 2), len: 1 })
        );
    }
}

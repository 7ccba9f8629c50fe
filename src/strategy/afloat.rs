//! The ships still afloat, from the sunk answers: for strategies that keep a simple
//! picture (hunt-parity, density, parity) rather than a posterior.
//!
//! A sunk answer at cell `c` (maybe naming the kind) is matched to a placement of an
//! afloat ship that covers `c` and whose other cells are all hits not yet given to a
//! sunk ship. When several placements fit (ships that touch can make the hits
//! ambiguous), the one of the largest kind is taken, then the first found; the bayes
//! strategy does not guess (its posterior weighs every possibility).

use crate::game::bay::Bay;
use crate::game::cellset::CellSet;
use crate::game::fleet::Fleet;
use crate::game::position::Position;
use crate::game::rules::Rules;
use crate::game::ship::Ship;
use crate::limits::memory::{self, OutOfMemory};
use crate::scan::record::{CellState, ScanRecord};

/// The ships not sunk yet, and the cells of the sunk ones.
#[derive(Debug, Clone, Default)]
pub struct Afloat {
    bay: Bay,
    /// Ships of each kind not sunk yet (empty when the fleet is unknown).
    left: Vec<usize>,
    /// The size of each kind.
    sizes: Vec<usize>,
    /// Cells of sunk ships, by row-major index: 1/8 byte a cell.
    sunk: CellSet,
}

impl Afloat {
    /// Nothing sunk yet on a `rows` x `cols` bay holding `fleet` (when known).
    /// Pre: none. Post: every ship afloat; `Err` when the memory for the bay's cells
    /// (a bit each) cannot be had.
    pub fn new(rows: usize, cols: usize, fleet: Option<&Fleet>) -> Result<Afloat, OutOfMemory> {
        let (left, sizes) = match fleet {
            Some(f) => {
                (f.kinds().iter().map(|k| k.count).collect(), f.kinds().iter().map(|k| k.shape.size()).collect())
            }
            None => (Vec::new(), Vec::new()),
        };
        let bay = Bay::new(rows, cols);
        let sunk = CellSet::try_new(bay.cells())?;
        Ok(Afloat { bay, left, sizes, sunk })
    }

    /// What `record`'s sunk answers leave afloat (a strategy taking over mid-game).
    /// Pre: `record` is of a `rows` x `cols` bay under `rules`. Post: every sunk answer
    /// of the record's log replayed in order; `Err` when the memory cannot be had.
    pub fn from_record(record: &ScanRecord, rules: &Rules, fleet: Option<&Fleet>) -> Result<Afloat, OutOfMemory> {
        let mut afloat = Afloat::new(record.rows(), record.cols(), fleet)?;
        if let Some(log) = record.answers() {
            if log.sunk.is_empty() {
                return Ok(afloat);
            }
            // Each hit's rank in the log, sorted by cell for a binary search (grows with
            // the hits, so it is had fallibly).
            let mut rank: Vec<(u32, u32)> = Vec::new();
            memory::reserve(&mut rank, log.hits.len())?;
            rank.extend(log.hits.iter().enumerate().map(|(r, &h)| (h, r as u32)));
            rank.sort_unstable();
            let rank_of = |cell: usize| {
                let k = rank.partition_point(|&(h, _)| (h as usize) < cell);
                rank.get(k).filter(|&&(h, _)| h as usize == cell).map(|&(_, r)| r as usize)
            };
            for event in &log.sunk {
                // A hit made after this sunk answer cannot be part of the ship it sank.
                let bay = record.bay();
                let cell = bay.position(event.cell as usize);
                let before = |p: Position| {
                    record.state(p) == CellState::Hit && rank_of(bay.index(p)).is_some_and(|r| r <= event.rank as usize)
                };
                afloat.sink(cell, event.kind, rules, fleet, before);
            }
        }
        Ok(afloat)
    }

    /// Records a sunk answer at `cell` (kind named or not): finds the ship it sank among
    /// the afloat ones (see the module notes), marks its cells sunk and takes it off.
    /// `is_hit` tells which cells are hits so far.
    /// Pre: `cell` is a hit. Post: `Some((kind, ship))` for the ship chosen; `None` when
    /// no afloat ship fits the hits (answers that contradict the fleet), nothing changed.
    pub fn sink(
        &mut self,
        cell: Position,
        kind: Option<usize>,
        rules: &Rules,
        fleet: Option<&Fleet>,
        is_hit: impl Fn(Position) -> bool,
    ) -> Option<(usize, Ship)> {
        let fleet = fleet?;
        let live = |p: Position| self.bay.contains(p) && is_hit(p) && !self.is_sunk(p);
        let mut best: Option<(usize, Ship)> = None;
        for (k, kind_info) in fleet.kinds().iter().enumerate() {
            if kind.is_some_and(|named| named != k) || self.left.get(k).copied().unwrap_or(0) == 0 {
                continue;
            }
            if best.as_ref().is_some_and(|(b, _)| self.sizes.get(*b) >= Some(&kind_info.shape.size())) {
                continue;
            }
            'variants: for shape in rules.variants(kind_info.shape) {
                for (dr, dc) in shape.cells() {
                    let (Some(row), Some(col)) = (cell.row.checked_sub(dr), cell.col.checked_sub(dc)) else { continue };
                    let ship = Ship::drawn(Position::new(row, col), shape);
                    if ship.fits(self.bay.rows, self.bay.cols) && ship.cells().all(live) {
                        best = Some((k, ship));
                        break 'variants;
                    }
                }
            }
        }
        let (k, ship) = best?;
        if let Some(n) = self.left.get_mut(k) {
            *n -= 1;
        }
        for p in ship.cells() {
            self.sunk.insert(self.bay.index(p));
        }
        Some((k, ship))
    }

    /// Makes this a copy of `other`, in this one's memory (a rollout starts thousands of
    /// games from one state).
    /// Pre: none. Post: equal to `other.clone()`.
    pub fn copy_from(&mut self, other: &Afloat) {
        self.bay = other.bay;
        self.left.clone_from(&other.left);
        self.sizes.clone_from(&other.sizes);
        self.sunk.clone_from(&other.sunk);
    }

    /// True when `pos` is a cell of a sunk ship.
    /// Pre: none. Post: false outside the bay.
    pub fn is_sunk(&self, pos: Position) -> bool {
        self.bay.contains(pos) && self.sunk.contains(self.bay.index(pos))
    }

    /// Ships of kind `kind` not sunk yet.
    /// Pre: none. Post: 0 for an unknown kind or fleet.
    pub fn left(&self, kind: usize) -> usize {
        self.left.get(kind).copied().unwrap_or(0)
    }

    /// The sizes of the ships afloat, one per ship (any order).
    /// Pre: none. Post: empty when the fleet is unknown.
    pub fn sizes(&self) -> impl Iterator<Item = usize> + '_ {
        self.left.iter().zip(&self.sizes).flat_map(|(&n, &s)| std::iter::repeat_n(s, n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_and_unnamed_sinks() {
        let rules = Rules::preset("classic").unwrap();
        let fleet = rules.fleet().clone();
        let mut a = Afloat::new(3, 6, Some(&fleet)).unwrap();
        // A destroyer at (0,0)-(0,1) and the cruiser at (1,0)-(1,2), side by side.
        let hits =
            [Position::new(0, 0), Position::new(0, 1), Position::new(1, 0), Position::new(1, 1), Position::new(1, 2)];
        let is_hit = |p: Position| hits.contains(&p);
        let destroyer = fleet.kind_named("destroyer");
        let (k, ship) = a.sink(Position::new(0, 1), destroyer, &rules, Some(&fleet), is_hit).unwrap();
        assert_eq!((Some(k), ship.start, ship.size()), (destroyer, Position::new(0, 0), 2));
        assert!(a.is_sunk(Position::new(0, 0)) && !a.is_sunk(Position::new(1, 0)));
        assert_eq!(a.left(k), 0);
        // Unnamed: the largest kind that fits the live hits through (1,2).
        let (k, ship) = a.sink(Position::new(1, 2), None, &rules, Some(&fleet), is_hit).unwrap();
        assert_eq!((ship.start, ship.size()), (Position::new(1, 0), 3));
        assert!(k == 2 || k == 3);
        assert_eq!(a.sizes().count(), 3);
        // Nothing fits a lone hit (the fleet has no 1-cell ship): no change.
        assert!(a.sink(Position::new(2, 5), None, &rules, Some(&fleet), |p| p == Position::new(2, 5)).is_none());
        assert_eq!(a.sizes().count(), 3);
        assert!(Afloat::new(2, 2, None).unwrap().sink(Position::new(0, 0), None, &rules, None, |_| true).is_none());
    }
}

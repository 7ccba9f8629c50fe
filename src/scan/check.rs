//! The consistency check: given what is known of a bay and a new answer, can the answer
//! be true under the rules? One check for every place that takes answers it did not
//! work out itself: a scan on a sonar other than a board, `play` (which asks again at a
//! terminal) and `advise` (which reads a whole grid).
//!
//! It refuses, with a [`Contradiction`] naming the cell and the reason ([`Impossible`]):
//! - a hit beyond the announced number of ship cells;
//! - where ships never touch (straight ships): a hit diagonal to another hit, a hit next
//!   to a sunk ship, a line of hits longer than the longest ship afloat;
//! - a sunk answer under rules that announce none; a named ship of a kind already sunk; a sunk ship that no afloat ship explains (where ships
//!   never touch, the line of hits through the cell is the ship, so its length must be
//!   the size of an afloat ship; where they may touch, a named ship of `k` cells needs
//!   a line of `k` hits through the cell); a sunk answer before as many cells were hit
//!   as the ships sunk so far have;
//! - an answer after which the ship cells still to find do not fit in the cells not yet
//!   asked (the cheap case of "no layout of the afloat ships fits"; the posterior finds
//!   the others, at a cost).
//!
//! A board's own answers are never checked: its ships were validated when it was read.

use crate::game::fleet::Fleet;
use crate::game::position::{Direction, Position};
use crate::game::rules::{Rules, Sunk};
use crate::game::ship::MAX_SHIP;
use crate::scan::record::{CellState, ScanRecord};
use crate::scan::sonar::{Answer, Contradiction, Impossible, LayoutSearch};

/// What is announced of the ships of a bay besides the rules.
#[derive(Debug, Clone, Copy)]
pub struct Announced<'a> {
    /// The rules the answers follow.
    pub rules: &'a Rules,
    /// The fleet, when it is known (else only the number of ship cells is).
    pub fleet: Option<&'a Fleet>,
    /// How many cells the ships cover.
    pub ship_cells: usize,
    /// Also ask this search for a layout of the fleet that agrees with every answer
    /// when the fleet is known and the bay has at most [`crate::limits::POSTERIOR_CELLS`]
    /// cells (the posterior's exhaustive search, `posterior::agrees`, given by the
    /// layer above: the scan does not search layouts itself).
    pub search: Option<LayoutSearch>,
}

/// Checks `answer` at `pos` against what `known` holds and what is `announced`.
/// Pre: `pos` inside `known`'s board and not probed there; under rules that announce
/// sunk ships, `known` logs its answers ([`ScanRecord::log_answers`]).
/// Post: `Ok` when the answer can be true; `known` is unchanged either way.
pub fn answer(known: &ScanRecord, announced: Announced, pos: Position, answer: Answer) -> Result<(), Contradiction> {
    cheap(known, announced, pos, answer)?;
    let (Some(fleet), Some(search)) = (announced.fleet, announced.search) else { return Ok(()) };
    if known.rows().saturating_mul(known.cols()) > crate::limits::POSTERIOR_CELLS {
        return Ok(());
    }
    let mut after = known.clone();
    after.answered(pos.index(known.cols()), answer);
    let rules = announced.rules.clone().with_fleet(fleet.clone());
    if search(&after, &rules) {
        Ok(())
    } else {
        Err(Contradiction { cell: pos, why: Impossible::NoLayout { answer } })
    }
}

/// The checks of [`answer`] that look only at the cells near `pos` and at counts.
fn cheap(known: &ScanRecord, announced: Announced, pos: Position, answer: Answer) -> Result<(), Contradiction> {
    let refuse = |why| Err(Contradiction { cell: pos, why });
    let rules = announced.rules;
    if !answer.is_hit() {
        let missing = announced.ship_cells.saturating_sub(known.hits());
        let left = (known.rows() * known.cols()).saturating_sub(known.scans() + 1);
        return if missing > left { refuse(Impossible::NoRoom { missing, left }) } else { Ok(()) };
    }
    if known.hits() >= announced.ship_cells {
        return refuse(Impossible::AllFound { cells: announced.ship_cells });
    }
    let view = Lines { known, pos };
    let apart = !rules.touch() && announced.fleet.is_none_or(Fleet::is_straight);
    if apart {
        if let Some(hit) = view.diagonal_hit() {
            return refuse(Impossible::Diagonal { hit });
        }
        if let Some(cell) = view.beside_sunk() {
            return refuse(Impossible::BesideSunk { cell });
        }
        let run = view.run();
        let longest = afloat(known, announced).into_iter().rev().position(|n| n > 0).map_or(0, |k| MAX_SHIP - k);
        if run > longest {
            return refuse(Impossible::TooLong { run, longest });
        }
    }
    let Answer::Sunk(kind) = answer else { return Ok(()) };
    if rules.sunk() == Sunk::None {
        return refuse(Impossible::SunkNotAnnounced);
    }
    let Some(fleet) = announced.fleet else { return Ok(()) };
    // (More sunk ships than the fleet has would need more hits than its cells: the
    // hits are refused first.)
    let sunk = known.answers().map_or(&[][..], |log| &log.sunk[..]);
    let named = kind.and_then(|k| fleet.kinds().get(k).map(|kind| (k, kind)));
    if let Some((k, kind)) = named {
        if sunk.iter().filter(|s| s.kind == Some(k)).count() >= kind.count {
            return refuse(Impossible::KindSunk { name: kind.name.clone() });
        }
    }
    let size_of = |k: Option<usize>| k.and_then(|k| fleet.kinds().get(k)).map(|kind| kind.shape.size());
    let smallest = fleet.kinds().iter().map(|k| k.shape.size()).min().unwrap_or(1);
    let needed: usize = sunk.iter().map(|s| size_of(s.kind).unwrap_or(smallest)).sum::<usize>()
        + named.map_or(smallest, |(_, kind)| kind.shape.size());
    let hits = known.hits() + 1;
    if hits < needed {
        return refuse(Impossible::TooFewHits { hits, needed });
    }
    if !fleet.is_straight() {
        return Ok(());
    }
    match named {
        Some((_, kind)) if apart && view.run() != kind.shape.size() => {
            refuse(Impossible::NoLine { name: kind.name.clone(), size: kind.shape.size() })
        }
        Some((_, kind)) if !apart && !view.line_through(kind.shape.size()) => {
            refuse(Impossible::NoLine { name: kind.name.clone(), size: kind.shape.size() })
        }
        None if apart => {
            let run = view.run();
            if afloat(known, announced).get(run).is_some_and(|&n| n > 0) {
                Ok(())
            } else {
                refuse(Impossible::NoShipOfSize { run })
            }
        }
        _ => Ok(()),
    }
}

/// Ships afloat by size (index = size), as far as the sunk answers tell: with no fleet
/// announced, one ship of each size up to [`MAX_SHIP`].
/// Pre: as [`answer`]. Post: no change.
fn afloat(known: &ScanRecord, announced: Announced) -> [usize; MAX_SHIP + 1] {
    let mut by_size = [0; MAX_SHIP + 1];
    let Some(fleet) = announced.fleet else {
        by_size.iter_mut().skip(1).for_each(|n| *n = 1);
        return by_size;
    };
    for kind in fleet.kinds() {
        if let Some(n) = by_size.get_mut(kind.shape.size()) {
            *n += kind.count;
        }
    }
    let bay = known.bay();
    for s in known.answers().map_or(&[][..], |log| &log.sunk[..]) {
        // A named ship's size is its kind's; an unnamed one's, where ships never touch,
        // the line of hits through its cell.
        let size = match s.kind.and_then(|k| fleet.kinds().get(k)) {
            Some(kind) => Some(kind.shape.size()),
            None if !announced.rules.touch() => Some(Lines { known, pos: bay.position(s.cell as usize) }.run()),
            None => None,
        };
        if let Some(n) = size.and_then(|size| by_size.get_mut(size)) {
            *n = n.saturating_sub(1);
        }
    }
    by_size
}

/// The lines of hits through a cell, counting the cell as a hit.
struct Lines<'a> {
    known: &'a ScanRecord,
    pos: Position,
}

impl Lines<'_> {
    fn is_hit(&self, p: Position) -> bool {
        p == self.pos || self.known.state(p) == CellState::Hit
    }

    /// Hits in a line from `from` (excluded) towards `dir`.
    fn towards(&self, from: Position, dir: Direction) -> usize {
        let bay = self.known.bay();
        let mut n = 0;
        let mut p = from;
        while let Some(q) = bay.step(p, dir).filter(|&q| self.is_hit(q)) {
            n += 1;
            p = q;
        }
        n
    }

    /// The longer line of hits through the cell, across or down.
    fn run(&self) -> usize {
        let across = 1 + self.towards(self.pos, Direction::W) + self.towards(self.pos, Direction::E);
        let down = 1 + self.towards(self.pos, Direction::N) + self.towards(self.pos, Direction::S);
        across.max(down)
    }

    /// True when a line of at least `size` hits, across or down, goes through the cell
    /// (the last cell hit of a ship may be any of its cells, not only an end).
    fn line_through(&self, size: usize) -> bool {
        self.run() >= size
    }

    /// A hit diagonal to the cell.
    fn diagonal_hit(&self) -> Option<Position> {
        self.known.bay().diagonals(self.pos).find(|&d| self.known.state(d) == CellState::Hit)
    }

    /// A cell of a sunk ship beside the cell (ships never touch: a sunk ship is the line
    /// of hits through its sunk cell).
    fn beside_sunk(&self) -> Option<Position> {
        let log = self.known.answers()?;
        if log.sunk.is_empty() {
            return None;
        }
        let bay = self.known.bay();
        let is_sunk = |p: Position| log.sunk.iter().any(|s| s.cell as usize == bay.index(p));
        for dir in Direction::ORTHOGONAL {
            let Some(next) = bay.step(self.pos, dir).filter(|&q| self.known.state(q) == CellState::Hit) else {
                continue;
            };
            // The line of hits that `next` is part of, along `dir` (the cell excluded).
            let mut p = next;
            loop {
                if is_sunk(p) {
                    return Some(next);
                }
                match bay.step(p, dir).filter(|&q| self.known.state(q) == CellState::Hit) {
                    Some(q) => p = q,
                    None => break,
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;

    const H: Answer = Answer::Hit;
    const M: Answer = Answer::Miss;
    const S: Answer = Answer::Sunk(None);

    /// What is known after `answers` on a `rows` x `cols` bay.
    fn known(rows: usize, cols: usize, answers: &[(usize, usize, Answer)]) -> ScanRecord {
        let mut record = ScanRecord::new(rows, cols);
        record.log_answers();
        for &(r, c, a) in answers {
            record.answered(Position::new(r, c).index(cols), a);
        }
        record
    }

    /// The check of `answer` at (r, c) after `before`, the fleet known when `fleet`.
    fn verdict(
        rules: &Rules,
        fleet: bool,
        ship_cells: usize,
        before: &[(usize, usize, Answer)],
        (r, c, answer): (usize, usize, Answer),
    ) -> Result<(), Impossible> {
        let record = known(4, 4, before);
        let announced = Announced { rules, fleet: fleet.then_some(rules.fleet()), ship_cells, search: None };
        super::answer(&record, announced, Position::new(r, c), answer).map_err(|e| {
            assert_eq!(e.cell, Position::new(r, c));
            e.why
        })
    }

    fn at(r: usize, c: usize) -> Position {
        Position::new(r, c)
    }

    fn problem_g(sizes: &[usize]) -> Rules {
        Rules::problem_g().with_fleet(Fleet::of_sizes(sizes))
    }

    fn classic_named() -> Rules {
        Rules::preset("classic").unwrap().with_fleet(Fleet::named(&[("boat", 2), ("raft", 1)]))
    }

    fn russian(sizes: &[usize]) -> Rules {
        Rules::preset("russian").unwrap().with_fleet(Fleet::of_sizes(sizes))
    }

    #[test]
    fn a_hit_beyond_the_ship_cells() {
        let g = Rules::problem_g();
        assert_eq!(verdict(&g, false, 1, &[(0, 0, H)], (2, 2, H)), Err(Impossible::AllFound { cells: 1 }));
        assert_eq!(verdict(&g, false, 2, &[(0, 0, H)], (2, 2, H)), Ok(()));
    }

    #[test]
    fn a_hit_diagonal_to_a_hit_where_ships_never_touch() {
        let g = Rules::problem_g();
        assert_eq!(verdict(&g, false, 3, &[(0, 0, H)], (1, 1, H)), Err(Impossible::Diagonal { hit: at(0, 0) }));
        // Ships may touch under classic rules.
        assert_eq!(verdict(&classic_named(), true, 3, &[(0, 0, H)], (1, 1, H)), Ok(()));
    }

    #[test]
    fn a_hit_beside_a_sunk_ship() {
        let r = russian(&[2, 2]);
        let before = [(0, 0, H), (0, 1, S)];
        assert_eq!(verdict(&r, true, 4, &before, (0, 2, H)), Err(Impossible::BesideSunk { cell: at(0, 1) }));
        assert_eq!(verdict(&r, true, 4, &before, (0, 3, H)), Ok(()));
    }

    #[test]
    fn a_line_longer_than_the_longest_ship_afloat() {
        let g = problem_g(&[2, 1]);
        let two = [(0, 0, H), (0, 1, H)];
        assert_eq!(verdict(&g, true, 3, &two, (0, 2, H)), Err(Impossible::TooLong { run: 3, longest: 2 }));
        // Without a fleet, the longest ship has 5 cells.
        let four = [(0, 0, H), (0, 1, H), (0, 2, H), (0, 3, H)];
        let record = known(1, 6, &four);
        let rules = Rules::problem_g();
        let announced = Announced { rules: &rules, fleet: None, ship_cells: 9, search: None };
        assert_eq!(super::answer(&record, announced, at(0, 4), H), Ok(()));
        // Once the 3 is sunk, the longest afloat has 2 cells.
        let r = russian(&[3, 2, 2]);
        let sunk3 = [(0, 0, H), (0, 1, H), (0, 2, S), (2, 0, H), (2, 1, H)];
        assert_eq!(verdict(&r, true, 7, &sunk3, (2, 2, H)), Err(Impossible::TooLong { run: 3, longest: 2 }));
    }

    #[test]
    fn a_sunk_answer_where_the_rules_announce_none() {
        let g = problem_g(&[1]);
        assert_eq!(verdict(&g, true, 1, &[], (0, 0, S)), Err(Impossible::SunkNotAnnounced));
    }

    #[test]
    fn a_named_ship_sunk_twice() {
        let c = classic_named();
        let raft = Answer::Sunk(Some(1));
        let name = "raft".to_string();
        assert_eq!(verdict(&c, true, 3, &[(0, 0, raft)], (2, 2, raft)), Err(Impossible::KindSunk { name }));
    }

    #[test]
    fn a_sunk_ship_of_no_afloat_size_where_ships_never_touch() {
        let r = russian(&[3, 1]);
        assert_eq!(verdict(&r, true, 4, &[(0, 0, H)], (0, 1, S)), Err(Impossible::NoShipOfSize { run: 2 }));
        assert_eq!(verdict(&r, true, 4, &[(0, 0, H), (0, 1, H)], (0, 2, S)), Ok(()));
        assert_eq!(verdict(&r, true, 4, &[], (3, 3, S)), Ok(()));
        // The 1 is sunk: another lone sunk cell has no ship left to be.
        assert_eq!(verdict(&r, true, 4, &[(3, 3, S)], (0, 0, S)), Err(Impossible::NoShipOfSize { run: 1 }));
    }

    #[test]
    fn a_named_ship_sunk_with_no_line_of_its_size() {
        let boat = Answer::Sunk(Some(0));
        let no_line = || Err(Impossible::NoLine { name: "boat".into(), size: 2 });
        // Ships may touch: a line of two hits must go through the cell.
        let c = classic_named();
        assert_eq!(verdict(&c, true, 3, &[(0, 0, H)], (2, 2, boat)), no_line());
        assert_eq!(verdict(&c, true, 3, &[(0, 0, H)], (1, 0, boat)), Ok(()));
        // The last cell hit may be the middle of the ship.
        let long = Rules::preset("classic").unwrap().with_fleet(Fleet::named(&[("long", 3)]));
        assert_eq!(verdict(&long, true, 3, &[(1, 0, H), (1, 2, H)], (1, 1, Answer::Sunk(Some(0)))), Ok(()));
        // Ships never touch: the line through the cell is the ship.
        let apart = Rules::problem_g().with_sunk(Sunk::Named).with_fleet(Fleet::named(&[("boat", 2), ("raft", 1)]));
        assert_eq!(verdict(&apart, true, 3, &[(0, 0, H)], (2, 2, boat)), no_line());
        assert_eq!(verdict(&apart, true, 3, &[(0, 0, H)], (0, 1, boat)), Ok(()));
    }

    #[test]
    fn a_ship_sunk_before_its_cells_were_hit() {
        // The case: a carrier sunk on the first hit.
        let classic = Rules::preset("classic").unwrap();
        let carrier = Answer::Sunk(classic.fleet().kind_named("carrier"));
        assert_eq!(
            verdict(&classic, true, 17, &[(0, 0, M)], (1, 1, carrier)),
            Err(Impossible::TooFewHits { hits: 1, needed: 5 })
        );
        // Unnamed sunk ships count at least the smallest size each.
        let c = Rules::preset("classic").unwrap().with_sunk(Sunk::Yes).with_fleet(Fleet::of_sizes(&[2, 2]));
        assert_eq!(verdict(&c, true, 4, &[(0, 0, H)], (0, 1, S)), Ok(()));
        assert_eq!(
            verdict(&c, true, 4, &[(0, 0, H), (0, 1, S)], (2, 2, S)),
            Err(Impossible::TooFewHits { hits: 3, needed: 4 })
        );
    }

    #[test]
    fn water_where_the_missing_ship_cells_no_longer_fit() {
        let g = Rules::problem_g();
        let record = known(1, 3, &[(0, 0, M)]);
        let announced = Announced { rules: &g, fleet: None, ship_cells: 2, search: None };
        let refused = super::answer(&record, announced, at(0, 1), M);
        assert_eq!(refused.map_err(|e| e.why), Err(Impossible::NoRoom { missing: 2, left: 1 }));
        assert_eq!(super::answer(&record, announced, at(0, 1), H), Ok(()));
    }

    #[test]
    fn each_reason_names_the_cell() {
        let c = Contradiction { cell: at(1, 2), why: Impossible::TooFewHits { hits: 1, needed: 5 } };
        assert_eq!(c.to_string(), "(1,2) sinks a ship after 1 hit, but the ships sunk cover at least 5 cells");
    }
}

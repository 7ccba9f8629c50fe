//! Shrinking a failing input to a *1-minimal* one: an input on which the program still
//! gets the same verdict, and such that no one-step reduction of it does. The one-step
//! reductions ([`reductions`]) are: delete any row or column (top, left and middle
//! ones too; the ships beyond it shift by one, a ship across it loses a cell, a ship
//! along it goes), remove one ship, shorten one ship from either end, move one ship one
//! cell up or left. Every candidate is a valid input of the same strategy (ships
//! inside the board, never touching); a reduction that breaks a rule is skipped
//! without running anything.
//!
//! The search is greedy and deterministic. First coarse steps, to get small fast:
//! remove ships by halves, quarters, ...; crop the board to the box around the ships,
//! or to one half. Then the one-step reductions in a fixed order, round and round: each
//! success makes the new input the current one and the search goes on from the same
//! place in its list; it ends when a whole round of the current input's reductions
//! finds none that still fails (the input is 1-minimal), or when the budget is spent.
//! An input once seen to pass is never run again. Every run counts against the budget.

use super::instance::Instance;
use crate::game::position::{Orientation, Position};
use crate::game::ship::Ship;
use std::collections::HashSet;

/// `inst` with its cells moved by `map` onto a `rows` x `cols` board: `map` gives a
/// cell's new place, or `None` when the cell goes. A straight ship keeps the cells that
/// stay (they stay in a line, one after the other, for the maps used here: deleting
/// rows or columns and cropping); a ship with none left goes.
fn remap(inst: &Instance, rows: usize, cols: usize, map: impl Fn(Position) -> Option<Position>) -> Instance {
    let ships = inst
        .ships
        .iter()
        .filter_map(|s| {
            let kept: Vec<Position> = s.cells().filter_map(&map).collect();
            let first = *kept.first()?;
            Some(Ship::new(first, kept.len(), s.orientation().unwrap_or(Orientation::East)))
        })
        .collect();
    Instance { strategy: inst.strategy.clone(), rows, cols, ships }
}

/// `inst` without row `row`.
fn delete_row(inst: &Instance, row: usize) -> Instance {
    remap(inst, inst.rows.saturating_sub(1), inst.cols, |p| match p.row {
        r if r == row => None,
        r if r > row => Some(Position::new(r - 1, p.col)),
        _ => Some(p),
    })
}

/// `inst` without column `col`.
fn delete_col(inst: &Instance, col: usize) -> Instance {
    remap(inst, inst.rows, inst.cols.saturating_sub(1), |p| match p.col {
        c if c == col => None,
        c if c > col => Some(Position::new(p.row, c - 1)),
        _ => Some(p),
    })
}

/// `inst` cut to the `rows` x `cols` window whose top-left cell is (`top`, `left`).
fn crop(inst: &Instance, top: usize, left: usize, rows: usize, cols: usize) -> Instance {
    remap(inst, rows, cols, |p| {
        let (r, c) = (p.row.checked_sub(top)?, p.col.checked_sub(left)?);
        (r < rows && c < cols).then(|| Position::new(r, c))
    })
}

/// `inst` with ship `k` replaced by `ship` (or removed when `ship` is `None`).
fn with_ship(inst: &Instance, k: usize, ship: Option<Ship>) -> Instance {
    let mut next = inst.clone();
    match ship {
        Some(s) => {
            if let Some(slot) = next.ships.get_mut(k) {
                *slot = s;
            }
        }
        None => {
            if k < next.ships.len() {
                next.ships.remove(k);
            }
        }
    }
    next
}

/// Keeps `cand` when it is a valid input other than `inst`.
fn valid(inst: &Instance, cand: Instance) -> Option<Instance> {
    (cand != *inst && cand.rows >= 1 && cand.cols >= 1 && cand.board().is_ok()).then_some(cand)
}

/// Every one-step reduction of `inst` that is a valid input, in the order they are
/// tried: remove a ship; delete a row, then a column (each from the last to the
/// first); shorten a ship at its end, then at its start; move a ship one cell up, then
/// one cell left. The same input reached two ways is listed once.
/// Pre: none. Post: every entry is valid, differs from `inst`, and is smaller: fewer
/// ships, cells or rows/columns, or a ship nearer the top-left corner.
pub(crate) fn reductions(inst: &Instance) -> Vec<Instance> {
    let mut out = Vec::new();
    let n = inst.ships.len();
    out.extend((0..n).map(|k| with_ship(inst, k, None)));
    out.extend((0..inst.rows).rev().map(|r| delete_row(inst, r)));
    out.extend((0..inst.cols).rev().map(|c| delete_col(inst, c)));
    for (k, s) in inst.ships.iter().enumerate() {
        let size = s.size();
        if size >= 2 {
            let o = s.orientation().unwrap_or(Orientation::East);
            out.push(with_ship(inst, k, Some(Ship::new(s.start, size - 1, o))));
        }
    }
    for (k, s) in inst.ships.iter().enumerate() {
        let size = s.size();
        if size >= 2 {
            let o = s.orientation().unwrap_or(Orientation::East);
            let second = match o {
                Orientation::East => Position::new(s.start.row, s.start.col + 1),
                Orientation::South => Position::new(s.start.row + 1, s.start.col),
            };
            out.push(with_ship(inst, k, Some(Ship::new(second, size - 1, o))));
        }
    }
    let moved = |k: usize, s: &Ship, to: Option<Position>| {
        to.map(|p| with_ship(inst, k, Some(Ship::new(p, s.size(), s.orientation().unwrap_or(Orientation::East)))))
    };
    for (k, s) in inst.ships.iter().enumerate() {
        out.extend(moved(k, s, s.start.row.checked_sub(1).map(|r| Position::new(r, s.start.col))));
    }
    for (k, s) in inst.ships.iter().enumerate() {
        out.extend(moved(k, s, s.start.col.checked_sub(1).map(|c| Position::new(s.start.row, c))));
    }
    dedup(inst, out)
}

/// The coarse steps, tried before the one-step reductions: remove ships by halves,
/// quarters, ... (down to 2 at a time); crop the board to the box around the ships (to
/// one cell when there is none), to its top or bottom half, to its left or right half.
fn coarse(inst: &Instance) -> Vec<Instance> {
    let mut out = Vec::new();
    let n = inst.ships.len();
    let mut len = n;
    while len >= 2 {
        for from in (0..n).step_by(len) {
            let mut next = inst.clone();
            next.ships.drain(from..(from + len).min(n));
            out.push(next);
        }
        len = len.div_ceil(2);
    }
    let ends = inst.ships.iter().filter_map(|s| s.end());
    let bottom = ends.clone().map(|e| e.row).max();
    let right = ends.map(|e| e.col).max();
    let top = inst.ships.iter().map(|s| s.start.row).min();
    let left = inst.ships.iter().map(|s| s.start.col).min();
    match (top, left, bottom, right) {
        (Some(t), Some(l), Some(b), Some(r)) => out.push(crop(inst, t, l, b + 1 - t, r + 1 - l)),
        _ => out.push(crop(inst, 0, 0, 1, 1)),
    }
    let (h, w) = (inst.rows, inst.cols);
    if h >= 2 {
        out.push(crop(inst, 0, 0, h / 2, w));
        out.push(crop(inst, h / 2, 0, h - h / 2, w));
    }
    if w >= 2 {
        out.push(crop(inst, 0, 0, h, w / 2));
        out.push(crop(inst, 0, w / 2, h, w - w / 2));
    }
    dedup(inst, out)
}

/// The valid entries of `list` other than `inst`, each input once, in order.
fn dedup(inst: &Instance, list: Vec<Instance>) -> Vec<Instance> {
    let mut seen = HashSet::new();
    list.into_iter().filter_map(|c| valid(inst, c)).filter(|c| seen.insert(c.text())).collect()
}

/// Runs the program on a batch of candidates; returns the position of the first that
/// still fails the same way, if any.
pub(crate) type Tester<'a, E> = dyn FnMut(&[Instance]) -> Result<Option<usize>, E> + 'a;

/// The smallest input found and the number of runs it took.
#[derive(Debug, Clone)]
pub(crate) struct Shrinking {
    /// The smallest failing input found (the start itself when nothing smaller fails).
    pub instance: Instance,
    /// Runs of the program spent.
    pub runs: usize,
    /// True when every one-step reduction of `instance` was seen to pass (it is
    /// 1-minimal); false when the budget ran out first.
    pub minimal: bool,
}

/// The search's state: the current input, the runs spent, the inputs seen to pass.
struct Search<'t, 'a, E> {
    current: Instance,
    runs: usize,
    budget: usize,
    batch: usize,
    passed: HashSet<String>,
    test: &'t mut Tester<'a, E>,
}

impl<E> Search<'_, '_, E> {
    /// Tries `list` in order, `batch` at a time, skipping inputs seen to pass, until
    /// one still fails or the budget is spent. Returns the position in `list` of the
    /// one that fails (it becomes the current input) and whether every candidate up
    /// to there (or every one, when none fails) was run.
    fn first_failing(&mut self, list: &[Instance]) -> Result<(Option<usize>, bool), E> {
        let mut at = 0;
        loop {
            let mut cands = Vec::new();
            let mut places = Vec::new();
            let mut out_of_budget = false;
            while at < list.len() && cands.len() < self.batch.max(1) {
                let Some(c) = list.get(at) else { break };
                if self.passed.contains(&c.text()) {
                    at += 1;
                    continue;
                }
                if self.runs + cands.len() >= self.budget {
                    out_of_budget = true;
                    break;
                }
                cands.push(c.clone());
                places.push(at);
                at += 1;
            }
            if cands.is_empty() {
                return Ok((None, !out_of_budget));
            }
            let hit = (self.test)(&cands)?.filter(|&k| k < cands.len());
            let tried = hit.map_or(cands.len(), |k| k + 1);
            self.runs += tried;
            for c in cands.iter().take(hit.unwrap_or(cands.len())) {
                self.passed.insert(c.text());
            }
            if let Some(k) = hit {
                if let (Some(next), Some(&place)) = (cands.into_iter().nth(k), places.get(k)) {
                    self.current = next;
                    return Ok((Some(place), true));
                }
            }
            if out_of_budget {
                return Ok((None, false));
            }
        }
    }
}

/// Shrinks `start` within `budget` runs. `test` runs the program on a batch of at
/// most `batch` candidates (in parallel, say) and returns the position of the first
/// that still fails the same way, if any; only the runs up to and including that one
/// count, so the result does not depend on `batch`.
/// Pre: `start` fails; the program is deterministic. Post: the returned instance
/// fails (or is `start`); at most `budget` runs counted; `minimal` says whether no
/// one-step reduction of it fails; `Err` as soon as `test` fails.
pub(crate) fn shrink<E>(
    start: &Instance,
    budget: usize,
    batch: usize,
    test: &mut Tester<'_, E>,
) -> Result<Shrinking, E> {
    let mut s = Search { current: start.clone(), runs: 0, budget, batch, passed: HashSet::new(), test };
    // Coarse steps, while one succeeds.
    loop {
        let list = coarse(&s.current);
        let (hit, _) = s.first_failing(&list)?;
        if hit.is_none() {
            break;
        }
    }
    // One-step reductions, round and round from where the last success was.
    let mut from = 0;
    let minimal = loop {
        let list = reductions(&s.current);
        let k = from.min(list.len());
        let (tail, head) = (list.get(k..).unwrap_or_default(), list.get(..k).unwrap_or_default());
        let rotated: Vec<Instance> = tail.iter().chain(head).cloned().collect();
        match s.first_failing(&rotated)? {
            (Some(place), _) => from = (k + place) % list.len().max(1),
            (None, all_run) => break all_run,
        }
    };
    Ok(Shrinking { instance: s.current, runs: s.runs, minimal })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A "program" that fails when some ship of `size` lies in column 0 or more.
    fn fails_with_ship_of(size: usize) -> impl FnMut(&[Instance]) -> Result<Option<usize>, ()> {
        move |cands: &[Instance]| Ok(cands.iter().position(|i| i.ships.iter().any(|s| s.size() == size)))
    }

    fn big() -> Instance {
        Instance::from_table(
            "prob",
            9,
            10,
            &[(0, 0, 5, 'E'), (0, 6, 4, 'E'), (2, 0, 3, 'E'), (4, 3, 2, 'E'), (6, 6, 1, 'E'), (8, 5, 5, 'E')],
        )
    }

    #[test]
    fn shrinks_to_the_smallest_failing_board() {
        let found = shrink(&big(), 500, 1, &mut fails_with_ship_of(4)).unwrap();
        assert_eq!(found.instance.ships.len(), 1);
        assert_eq!(found.instance.ships[0].size(), 4);
        assert_eq!((found.instance.rows, found.instance.cols), (1, 4), "{:?}", found.instance);
        assert!(found.runs <= 500);
    }

    #[test]
    fn the_result_does_not_depend_on_the_batch() {
        let one = shrink(&big(), 60, 1, &mut fails_with_ship_of(2)).unwrap();
        for batch in [2, 3, 8] {
            let other = shrink(&big(), 60, batch, &mut fails_with_ship_of(2)).unwrap();
            assert_eq!((other.instance.clone(), other.runs), (one.instance.clone(), one.runs), "batch {batch}");
        }
    }

    #[test]
    fn the_budget_bounds_the_runs_and_every_candidate_is_valid() {
        let mut seen = 0;
        let mut test = |cands: &[Instance]| -> Result<Option<usize>, ()> {
            seen += cands.len();
            for c in cands {
                assert!(c.board().is_ok() && c.strategy == "prob");
            }
            Ok(None)
        };
        let found = shrink(&big(), 7, 3, &mut test).unwrap();
        assert_eq!((found.runs, seen), (7, 7));
        assert_eq!(found.instance, big());
        let found = shrink(&big(), 0, 3, &mut fails_with_ship_of(2)).unwrap();
        assert_eq!((found.runs, found.instance), (0, big()));
    }

    /// A "program" that crashes when a hit lies in the last row with a cell beside it
    /// (a smart whose south diagonals are not checked against the bottom edge).
    fn crashes_on_the_last_row(cands: &[Instance]) -> Result<Option<usize>, ()> {
        Ok(cands.iter().position(|i| {
            i.ships.iter().flat_map(|s| s.cells().collect::<Vec<_>>()).any(|p| p.row + 1 == i.rows && i.cols >= 2)
        }))
    }

    #[test]
    fn a_crash_on_the_bottom_right_ship_shrinks_to_two_cells() {
        let mut ships = vec![(16, 16, 1, 'E')];
        ships.extend([(0, 0, 5, 'E'), (3, 3, 4, 'S'), (10, 2, 3, 'E'), (12, 12, 2, 'S')]);
        let start = Instance::from_table("smart", 17, 17, &ships);
        let found = shrink(&start, 200, 2, &mut crashes_on_the_last_row).unwrap();
        assert_eq!(found.instance, Instance::from_table("smart", 1, 2, &[(0, 0, 1, 'E')]), "{:?}", found);
        assert!(found.minimal);
    }

    #[test]
    fn every_result_is_one_minimal() {
        type Pred = fn(&Instance) -> bool;
        let preds: [(&str, Pred); 4] = [
            ("a ship of 3 cells or more", |i| i.ships.iter().any(|s| s.size() >= 3)),
            ("two ships", |i| i.ships.len() >= 2),
            ("a ship cell in the last column", |i| {
                i.ships.iter().any(|s| s.end().is_some_and(|e| e.col + 1 == i.cols))
            }),
            ("a vertical ship away from the top", |i| {
                i.ships.iter().any(|s| s.orientation() == Some(Orientation::South) && s.size() >= 2 && s.start.row > 0)
            }),
        ];
        let mut checked = 0;
        for index in 0..40 {
            let start = crate::tools::grading::cases::random_instance(7, index, "prob");
            for (name, pred) in preds {
                if !pred(&start) {
                    continue;
                }
                let mut test = |c: &[Instance]| Ok::<_, ()>(c.iter().position(pred));
                let found = shrink(&start, 10_000, 3, &mut test).unwrap();
                assert!(found.minimal && pred(&found.instance), "{name}: {:?}", found);
                for r in reductions(&found.instance) {
                    assert!(!pred(&r), "{name}: {:?} reduces to {:?}", found.instance, r);
                }
                checked += 1;
            }
        }
        assert!(checked >= 20, "{checked}");
    }

    #[test]
    fn reductions_delete_any_row_or_column_and_shift_the_ships() {
        let inst = Instance::from_table("linear", 4, 5, &[(1, 1, 3, 'S'), (0, 3, 2, 'E')]);
        let all: Vec<String> =
            reductions(&inst).iter().map(|i| i.text().lines().skip(1).collect::<Vec<_>>().join("/")).collect();
        for want in [
            "4 5 1/0 3 2 E",         // remove the first ship
            "3 5 2/1 1 2 S 0 3 2 E", // delete row 1: the vertical ship loses a cell
            "3 5 1/0 1 3 S",         // delete row 0: the second ship goes, the first moves up
            "4 4 2/1 0 3 S 0 2 2 E", // delete column 0: both ships move left
            "4 4 2/1 1 3 S 0 3 1 E", // delete column 4: the second ship loses a cell
            "4 5 2/1 1 2 S 0 3 2 E", // shorten at the end
            "4 5 2/2 1 2 S 0 3 2 E", // shorten at the start
            "4 5 2/0 1 3 S 0 3 2 E", // move up
            "4 5 2/1 0 3 S 0 3 2 E", // move left
        ] {
            assert!(all.iter().any(|a| a == want), "{want}: {all:?}");
        }
        // Deleting column 2 or moving the second ship left makes the ships touch.
        assert!(!all.iter().any(|a| a == "4 4 2/1 1 3 S 0 2 2 E" || a == "4 5 2/1 1 3 S 0 2 2 E"), "{all:?}");
        for r in reductions(&inst) {
            assert!(r.board().is_ok());
        }
    }

    #[test]
    fn an_empty_board_shrinks_to_one_cell() {
        let start = Instance::from_table("linear", 5, 6, &[]);
        let found =
            shrink(&start, 100, 2, &mut |c: &[Instance]| Ok::<_, ()>(Some(0).filter(|_| !c.is_empty()))).unwrap();
        assert_eq!((found.instance.rows, found.instance.cols), (1, 1));
    }
}

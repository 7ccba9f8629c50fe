//! Shrinking a failing input: a greedy, deterministic search for a smaller input on
//! which the program still gets the same verdict. Each step tries edits in a fixed
//! order and keeps the first that still fails:
//!
//! 1. remove ships: all of them, then halves, quarters, ... down to single ships;
//! 2. cut the board: down to the last row (column) holding a ship, halfway there, or
//!    by one;
//! 3. move every ship up (left) by the same amount, towards the corner;
//! 4. move one ship to row (column) 0, or one step up (left);
//! 5. shorten one ship to a single cell, or by one cell.
//!
//! Every candidate is a valid input of the same strategy (edits that break a rule are
//! skipped without running anything). After a success the search goes on from the
//! same kind of edit; when a whole pass finds nothing, it ends. Every run of the program
//! counts against the budget.

use super::instance::Instance;
use crate::game::position::{Orientation, Position};
use crate::game::ship::Ship;

/// One way to make an input smaller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    /// Remove `len` ships from index `from`.
    Remove { from: usize, len: usize },
    /// Keep only the first `rows` rows.
    Rows(usize),
    /// Keep only the first `cols` columns.
    Cols(usize),
    /// Move every ship up by `up` rows and left by `left` columns.
    Shift { up: usize, left: usize },
    /// Move ship `ship` so that it starts at `to`.
    Move { ship: usize, to: Position },
    /// Make ship `ship` `size` cells long.
    Shorten { ship: usize, size: usize },
}

impl Edit {
    /// The kind of the edit, in the order edits are tried: removals by decreasing
    /// length first (`len` counts down from `usize::MAX`), then the board, shifts,
    /// moves and shortenings.
    fn group(self) -> (u8, usize) {
        match self {
            Edit::Remove { len, .. } => (0, usize::MAX - len),
            Edit::Rows(_) | Edit::Cols(_) => (1, 0),
            Edit::Shift { .. } => (2, 0),
            Edit::Move { .. } => (3, 0),
            Edit::Shorten { .. } => (4, 0),
        }
    }
}

/// Every edit of `inst`, in the order they are tried.
fn edits(inst: &Instance) -> Vec<Edit> {
    let n = inst.ships.len();
    let mut out = Vec::new();
    let mut len = n;
    while len >= 1 {
        out.extend((0..n).step_by(len).map(|from| Edit::Remove { from, len: len.min(n - from) }));
        if len == 1 {
            break;
        }
        len = len.div_ceil(2);
    }
    let last_row = inst.ships.iter().filter_map(|s| s.end()).map(|e| e.row + 1).max().unwrap_or(1);
    let last_col = inst.ships.iter().filter_map(|s| s.end()).map(|e| e.col + 1).max().unwrap_or(1);
    for (have, tight, make) in
        [(inst.rows, last_row, Edit::Rows as fn(usize) -> Edit), (inst.cols, last_col, Edit::Cols)]
    {
        let mut sizes = vec![tight, (have + tight) / 2, have.saturating_sub(1)];
        sizes.dedup();
        out.extend(sizes.into_iter().filter(|&s| s >= tight.max(1) && s < have).map(make));
    }
    let top = inst.ships.iter().map(|s| s.start.row).min().unwrap_or(0);
    let left = inst.ships.iter().map(|s| s.start.col).min().unwrap_or(0);
    let shifts = [(top > 0, top, 0), (top > 1, 1, 0), (left > 0, 0, left), (left > 1, 0, 1)];
    out.extend(shifts.into_iter().filter(|s| s.0).map(|(_, up, left)| Edit::Shift { up, left }));
    for (k, s) in inst.ships.iter().enumerate() {
        let (r, c) = (s.start.row, s.start.col);
        let mut targets = vec![(0, c), (r.saturating_sub(1), c), (r, 0), (r, c.saturating_sub(1))];
        targets.dedup();
        out.extend(
            targets
                .into_iter()
                .filter(|&t| t != (r, c))
                .map(|(row, col)| Edit::Move { ship: k, to: Position::new(row, col) }),
        );
    }
    for (k, s) in inst.ships.iter().enumerate() {
        let size = s.size();
        let mut sizes = vec![1, size.saturating_sub(1)];
        sizes.dedup();
        out.extend(sizes.into_iter().filter(|&z| z >= 1 && z < size).map(|size| Edit::Shorten { ship: k, size }));
    }
    out
}

/// `inst` with `edit` applied, when the result is a valid input.
fn apply(inst: &Instance, edit: Edit) -> Option<Instance> {
    let mut next = inst.clone();
    let straight = |s: &Ship| s.orientation().unwrap_or(Orientation::East);
    match edit {
        Edit::Remove { from, len } => {
            next.ships.drain(from..from.checked_add(len)?.min(next.ships.len()));
        }
        Edit::Rows(rows) => next.rows = rows,
        Edit::Cols(cols) => next.cols = cols,
        Edit::Shift { up, left } => {
            for s in &mut next.ships {
                s.start = Position::new(s.start.row.checked_sub(up)?, s.start.col.checked_sub(left)?);
            }
        }
        Edit::Move { ship, to } => next.ships.get_mut(ship)?.start = to,
        Edit::Shorten { ship, size } => {
            let s = next.ships.get_mut(ship)?;
            *s = Ship::new(s.start, size, straight(s));
        }
    }
    next.board().is_ok().then_some(next)
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
}

/// Shrinks `start` within `budget` runs. `test` runs the program on a batch of at
/// most `batch` candidates (in parallel, say) and returns the position of the first
/// that still fails the same way, if any; only the runs up to and including that one
/// count, so the result does not depend on `batch`.
/// Pre: `start` fails. Post: the returned instance fails (or is `start`); at most
/// `budget` runs counted; `Err` as soon as `test` fails.
pub(crate) fn shrink<E>(
    start: &Instance,
    budget: usize,
    batch: usize,
    test: &mut Tester<'_, E>,
) -> Result<Shrinking, E> {
    let mut current = start.clone();
    let mut runs = 0;
    // Where to go on: the kind of edit that last succeeded and its position in it.
    let mut resume: Option<((u8, usize), usize)> = None;
    'search: while runs < budget {
        let list = edits(&current);
        let begin = match resume {
            None => 0,
            Some((group, offset)) => {
                let first = list.iter().position(|e| e.group() >= group).unwrap_or(list.len());
                let same = list.get(first..).map_or(0, |rest| rest.iter().take_while(|e| e.group() == group).count());
                first + offset.min(same)
            }
        };
        let mut at = begin;
        while at < list.len() && runs < budget {
            // The next batch of valid candidates.
            let mut cands = Vec::new();
            let mut edits_of = Vec::new();
            while at < list.len() && cands.len() < batch.max(1) && cands.len() + runs < budget {
                if let Some(e) = list.get(at) {
                    if let Some(next) = apply(&current, *e) {
                        cands.push(next);
                        edits_of.push(at);
                    }
                }
                at += 1;
            }
            if cands.is_empty() {
                break;
            }
            match test(&cands)? {
                Some(k) if k < cands.len() => {
                    runs += k + 1;
                    let pos = edits_of.get(k).copied().unwrap_or(0);
                    if let (Some(next), Some(edit)) = (cands.into_iter().nth(k), list.get(pos)) {
                        let group = edit.group();
                        let first = list.iter().position(|e| e.group() == group).unwrap_or(pos);
                        resume = Some((group, pos.saturating_sub(first)));
                        current = next;
                    }
                    continue 'search;
                }
                _ => {
                    runs += cands.len();
                    // An edit not run (budget) is skipped for good: its batch stopped short.
                    at = edits_of.last().map_or(at, |&p| p + 1);
                }
            }
        }
        // A pass found nothing: a pass from the start decides whether we are done.
        if begin == 0 || resume.is_none() {
            break;
        }
        resume = None;
    }
    Ok(Shrinking { instance: current, runs })
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

    #[test]
    fn an_empty_board_shrinks_to_one_cell() {
        let start = Instance::from_table("linear", 5, 6, &[]);
        let found =
            shrink(&start, 100, 2, &mut |c: &[Instance]| Ok::<_, ()>(Some(0).filter(|_| !c.is_empty()))).unwrap();
        assert_eq!((found.instance.rows, found.instance.cols), (1, 1));
    }
}

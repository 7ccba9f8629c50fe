//! The answers of a grid asked of the consistency check, in reading order, before
//! anything is deduced from them.

use super::AdviceError;
use crate::game::fleet::Fleet;
use crate::game::position::Position;
use crate::game::rules::Rules;
use crate::limits::memory::Shortage;
use crate::scan::check::{self, Announced};
use crate::scan::record::{CellState, ScanRecord};
use crate::scan::sonar::{Answer, Impossible};
use crate::scan::ScanError;

/// Asks the consistency check ([`check`]) about every answer of the grid, in reading
/// order (a grid keeps no order of its own: the first impossible cell read is named),
/// against the ships afloat when the fleet is known (`#` cells are left out of both).
/// Pre: none. Post: `Err` names the first impossible cell and why; `Ok` when every
/// answer can be true, the preconditions of [`crate::scan::deduce::deduce`].
pub(super) fn check_answers(grid: &ScanRecord, rules: &Rules, afloat: Option<&Fleet>) -> Result<(), AdviceError> {
    let (rows, cols) = (grid.rows(), grid.cols());
    // The answers checked so far.
    let mut known = ScanRecord::default();
    known
        .try_reserve(rows, cols)
        .map_err(|e| AdviceError::Scan(ScanError::OutOfMemory(Shortage::of(rows, cols, e))))?;
    known.reset(rows, cols);
    // Unknown fleet: the grid's own hits are all the ship cells there are to check.
    let announced =
        Announced { rules, fleet: afloat, ship_cells: afloat.map_or(grid.hits(), Fleet::ship_cells), search: None };
    for i in 0..rows * cols {
        let answer = match grid.state_at(i) {
            CellState::Hit => Answer::Hit,
            CellState::Miss => Answer::Miss,
            CellState::Unknown | CellState::Eliminated => continue,
        };
        check::answer(&known, announced, Position::from_index(i, cols), answer).map_err(|c| {
            AdviceError::Grid(match c.why {
                // A grid has no order: say it as a count, not as "already found".
                Impossible::AllFound { cells } => format!(
                    "the grid has more hits than the fleet's {} ({} is one too many, in reading order)",
                    crate::render::words::count(cells, "ship cell"),
                    c.cell
                ),
                _ => format!("the grid is impossible: {c}"),
            })
        })?;
        known.answered(i, answer);
    }
    Ok(())
}

//! prob's advice: the statement's likelihood matrix over the cells prob would have
//! blocked and the cells the rules prove to be water, and its suggestion.

use super::{Advice, AdviceError, Reason, Suggestion, Values};
use crate::game::cellset::CellSet;
use crate::game::fleet::Fleet;
use crate::game::position::Position;
use crate::posterior::Prior;
use crate::scan::record::{CellState, ScanRecord};
use crate::strategy::likelihood::Likelihood;

/// prob's advice for the grid `known` with `wrecks`; the grid is checked against the
/// ships `afloat` when `fleet_given` (else against ships as many cells as its hits).
/// Pre: the grid passed the consistency check. Post: `Err` for a grid the rules'
/// deductions find impossible.
pub(super) fn advice(
    known: ScanRecord,
    wrecks: &CellSet,
    afloat: Fleet,
    fleet_given: bool,
) -> Result<Advice, AdviceError> {
    let sizes = fleet_given.then(|| afloat.sizes());
    let d =
        crate::scan::deduce::deduce(&known, wrecks, sizes.as_deref()).map_err(|e| AdviceError::Grid(e.to_string()))?;
    let bay = known.bay();
    let mut matrix = Likelihood::new(bay.rows, bay.cols);
    // What prob would have blocked (probed cells, a hit's diagonals) is water or a hit:
    // the cells left free are the unknown ones not water.
    for i in (0..bay.cells()).filter(|&i| d.water.contains(i) || known.state_at(i) == CellState::Hit) {
        matrix.block(bay.position(i));
    }
    let positions = || bay.positions();
    let free = |p: Position| !matrix.is_blocked(p);
    // The first cell of highest score among `cells`, free ones only.
    let best_of = |cells: &mut dyn Iterator<Item = Position>| {
        cells.filter(|&p| free(p)).fold(None, |best: Option<Position>, p| match best {
            Some(b) if matrix.score(b) >= matrix.score(p) => Some(b),
            _ => Some(p),
        })
    };
    let flag = |v: &CellSet, p: Position| v.contains(bay.index(p));
    let next_to_hit = |p: Position| {
        known.state(p) == CellState::Unknown && bay.neighbours4(p).any(|n| known.state(n) == CellState::Hit)
    };
    // First the best certain ship cell, then the best neighbour of a hit, then prob's
    // own choice: the highest score.
    let certain = best_of(&mut positions().filter(|&p| flag(&d.ship, p)))
        .map(|p| Suggestion { cell: p, reason: Reason::CertainShip(matrix.score(p)) });
    let suggest = certain.or_else(|| {
        best_of(&mut positions().filter(|&p| next_to_hit(p)))
            .map(|p| Suggestion { cell: p, reason: Reason::NextToHit(matrix.score(p)) })
    });
    let suggest = suggest
        .or_else(|| matrix.best().map(|p| Suggestion { cell: p, reason: Reason::HighestScore(matrix.score(p)) }));
    Ok(Advice {
        known,
        values: Values::Scores(Box::new(matrix)),
        fleet: afloat,
        prior: Prior::Uniform,
        suggest,
        water: d.water,
        ship: d.ship,
    })
}

//! The quiet lane of a scan: nobody watches and a board answers, which is every game
//! `simulate` plays. A probe then needs no observer call and no check of the answer
//! (a validated board cannot contradict the rules), and the record is held by value
//! while the lane is open, so that the compiler keeps its counters in registers
//! instead of reloading them after every store to the packed cells.

use crate::game::board::Board;
use crate::game::position::Position;
use crate::game::rules::Rules;
use crate::scan::observer::{ListView, ScoreView, Source};
use crate::scan::record::{CellState, ScanRecord};
use crate::scan::sonar::Answer;
use crate::scan::{refused, ScanError, Scanner};

/// An open quiet lane; the record goes back to its scan when the lane is dropped.
pub struct QuietScan<'s> {
    /// Where the record lives while the lane is closed.
    home: &'s mut ScanRecord,
    /// The record, taken out of `home` while the lane is open.
    record: ScanRecord,
    board: &'s Board,
    ship_cells: usize,
    /// True when the rules announce sunk ships (answers depend on the record).
    announce: bool,
}

impl<'s> QuietScan<'s> {
    /// Opens the lane on `home`, answered by `board`, which has `ship_cells` ship cells
    /// (`announce`: the rules announce sunk ships).
    /// Pre: `home` is a record of `board`'s size. Post: `home` is empty until the lane
    /// is dropped, then holds everything recorded through it.
    pub(crate) fn new(home: &'s mut ScanRecord, board: &'s Board, ship_cells: usize, announce: bool) -> QuietScan<'s> {
        let record = std::mem::take(home);
        QuietScan { home, record, board, ship_cells, announce }
    }
}

impl Drop for QuietScan<'_> {
    fn drop(&mut self) {
        *self.home = std::mem::take(&mut self.record);
    }
}

impl Scanner for QuietScan<'_> {
    #[inline]
    fn rows(&self) -> usize {
        self.record.rows()
    }
    #[inline]
    fn cols(&self) -> usize {
        self.record.cols()
    }
    #[inline]
    fn is_done(&self) -> bool {
        self.record.hits() >= self.ship_cells
    }
    #[inline]
    fn state(&self, pos: Position) -> CellState {
        self.record.state(pos)
    }
    #[inline]
    fn rules(&self) -> &Rules {
        self.board.rules()
    }
    #[inline]
    fn probe(&mut self, pos: Position, _source: Source) -> Result<Answer, ScanError> {
        let Some(i) = self.record.open_index(pos) else { return Err(refused(&self.record, pos)) };
        Ok(crate::scan::referee::probe(self.board, i, &mut self.record))
    }
    #[inline]
    fn sweep(&mut self, from: usize, _source: Source) -> Result<Option<(usize, bool)>, ScanError> {
        let swept = self.record.sweep(from, self.board);
        if self.announce {
            if let Some((i, true)) = swept {
                // The sweep recorded the hit; its answer (sunk or not) needs the record
                // without it, which is the same but for this cell.
                let answer = crate::scan::referee::answer(self.board, i, &self.record);
                self.record.note_answer(i, answer);
            }
        }
        Ok(swept)
    }
    #[inline]
    fn eliminate(&mut self, pos: Position) -> bool {
        self.record.mark_eliminated(pos)
    }
    #[inline]
    fn show_list(&mut self, _list: &dyn ListView) {}
    #[inline]
    fn show_likelihood(&mut self, _matrix: &dyn ScoreView) {}
    #[inline]
    fn end_step(&mut self) {}
    fn exhausted(&self) -> ScanError {
        ScanError::Exhausted { found: self.record.hits(), expected: self.ship_cells }
    }
}

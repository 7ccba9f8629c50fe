//! What a scan has learnt so far: which cells were probed (hit or miss), which were
//! eliminated without a probe, and how many probes it took. Rendered against the board
//! it gives the judge's final grid.

use crate::game::bay::Bay;
use crate::game::position::Position;
use crate::limits::memory::{self, OutOfMemory};
use crate::scan::answer::Answer;
use std::io::{self, Write};

/// Where the ships are, as a record is drawn against it (the hidden board; see
/// `crate::scan::referee`): the record itself knows nothing of ships.
pub trait ShipCells {
    /// True when the cell of row-major index `i` is a ship cell.
    /// Pre: none. Post: false beyond the bay.
    fn is_ship_at(&self, i: usize) -> bool;
    /// The first ship cell, in row-major order, at or after index `i`.
    /// Pre: none. Post: `None` when there is none.
    fn next_ship_at_or_after(&self, i: usize) -> Option<usize>;
}

/// What is known of one cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum CellState {
    /// Neither probed nor eliminated.
    Unknown,
    /// Probed: ship.
    Hit,
    /// Probed: water.
    Miss,
    /// Known to be water without a probe (next to a ship, diagonally or at a ship's end).
    Eliminated,
}

impl CellState {
    /// True for cells no longer open to a probe (probed or eliminated).
    /// Pre: none. Post: false only for `Unknown`.
    pub fn is_blocked(self) -> bool {
        self != CellState::Unknown
    }

    /// True for cells known to be water: probed as a miss, or eliminated (wrecks too).
    /// Pre: none. Post: true exactly for `Miss` and `Eliminated`.
    #[inline]
    pub fn is_water(self) -> bool {
        matches!(self, CellState::Miss | CellState::Eliminated)
    }
}

/// Cells per word of the packed record.
const CELLS_PER_WORD: usize = 32;

/// The low bit of every cell's pair of bits in a word.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// The two bits of cell `i` in its word `w`.
#[inline]
fn bits_of(w: u64, i: usize) -> u64 {
    (w >> (2 * (i % CELLS_PER_WORD))) & 3
}

impl CellState {
    fn from_bits(bits: u64) -> CellState {
        match bits & 3 {
            0 => CellState::Unknown,
            1 => CellState::Hit,
            2 => CellState::Miss,
            _ => CellState::Eliminated,
        }
    }
}

/// The scan record: one [`CellState`] per cell plus the probe count. States are packed
/// 32 to a 64-bit word (2 bits each, cell `i` at bits `2 * (i % 32)` of word `i / 32`),
/// so the record of a 2000x2000 board takes 1 MB and stays in cache while strategies
/// probe at random, and a row-major sweep handles 32 cells at a time.
#[derive(Debug, Clone, Default)]
pub struct ScanRecord {
    rows: usize,
    cols: usize,
    packed: Vec<u64>,
    scans: usize,
    hits: usize,
    /// Under rules that announce sunk ships: the hits in the order they were made, and
    /// the sunk answers (see [`ScanRecord::log_answers`]).
    log: Option<AnswerLog>,
}

/// The order of the hits and the sunk answers of a scan (what a "sunk" means depends on
/// which hits came before it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AnswerLog {
    /// Row-major indices of the hit cells, first hit first.
    pub hits: Vec<u32>,
    /// The sunk answers, in order.
    pub sunk: Vec<SunkEvent>,
}

/// A probe that completed a ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SunkEvent {
    /// Row-major index of the probed cell.
    pub cell: u32,
    /// Its place in [`AnswerLog::hits`]: the ship's other cells were hit before it.
    pub rank: u32,
    /// The ship's kind (an index into the fleet's kinds) under `sunk named`.
    pub kind: Option<usize>,
}

impl ScanRecord {
    /// A record where nothing is known yet.
    /// Pre: `rows * cols` fits in memory. Post: every cell `Unknown`, 0 scans.
    pub fn new(rows: usize, cols: usize) -> ScanRecord {
        ScanRecord { rows, cols, packed: vec![0; (rows * cols).div_ceil(CELLS_PER_WORD)], scans: 0, hits: 0, log: None }
    }

    /// Makes this the record of a fresh `rows` x `cols` scan, reusing its memory.
    /// Pre: as `new`. Post: as `ScanRecord::new(rows, cols)`.
    pub fn reset(&mut self, rows: usize, cols: usize) {
        self.packed.clear();
        self.packed.resize((rows * cols).div_ceil(CELLS_PER_WORD), 0);
        (self.rows, self.cols, self.scans, self.hits) = (rows, cols, 0, 0);
        self.log = None;
    }

    /// Makes room for a `rows` x `cols` record, or says the memory cannot be had (a
    /// later `reset` to this size then allocates nothing).
    /// Pre: none. Post: on `Err`, unchanged.
    pub fn try_reserve(&mut self, rows: usize, cols: usize) -> Result<(), OutOfMemory> {
        let words = rows.saturating_mul(cols).div_ceil(CELLS_PER_WORD);
        let more = words.saturating_sub(self.packed.len());
        memory::reserve(&mut self.packed, more)
    }

    /// Starts keeping the order of the hits and the sunk answers (rules that announce
    /// sunk ships need it: see [`ScanRecord::note_answer`]).
    /// Pre: nothing probed yet. Post: `answers()` is `Some`, empty.
    pub fn log_answers(&mut self) {
        let mut log = self.log.take().unwrap_or_default();
        log.hits.clear();
        log.sunk.clear();
        self.log = Some(log);
    }

    /// Notes the answer of the probe of cell `i` just recorded (only kept when
    /// [`ScanRecord::log_answers`] was called).
    /// Pre: `set_probed(i, answer.is_hit())` was the last probe. Post: a hit is appended
    /// to the log, and a sunk answer too.
    #[inline]
    pub fn note_answer(&mut self, i: usize, answer: Answer) {
        let Some(log) = self.log.as_mut() else { return };
        if answer.is_hit() {
            log.hits.push(i as u32);
        }
        if let Answer::Sunk(kind) = answer {
            log.sunk.push(SunkEvent { cell: i as u32, rank: log.hits.len() as u32 - 1, kind });
        }
    }

    /// Records `answer` to the probe of cell `i` (from `open_index`): the cell, and the
    /// log when it is kept. Every scan records its answers here.
    /// Pre: `i` inside and unknown. Post: as `set_probed(i, answer.is_hit())` then
    /// `note_answer(i, answer)`.
    #[inline]
    pub fn answered(&mut self, i: usize, answer: Answer) {
        self.set_probed(i, answer.is_hit());
        self.note_answer(i, answer);
    }

    /// The answer recorded for cell `i`: `None` when it was not probed (unknown or
    /// eliminated); a hit reads `Sunk` when the log has a sunk answer there.
    /// Pre: none. Post: no change.
    pub fn answer_at(&self, i: usize) -> Option<Answer> {
        match self.state_at(i) {
            CellState::Miss => Some(Answer::Miss),
            CellState::Hit => {
                let sunk = self.log.as_ref().and_then(|log| log.sunk.iter().find(|s| s.cell as usize == i));
                Some(sunk.map_or(Answer::Hit, |s| Answer::Sunk(s.kind)))
            }
            CellState::Unknown | CellState::Eliminated => None,
        }
    }

    /// The order of the hits and the sunk answers, when they are kept.
    /// Pre: none. Post: `None` unless `log_answers` was called.
    pub fn answers(&self) -> Option<&AnswerLog> {
        self.log.as_ref()
    }

    /// Number of rows.
    /// Pre: none. Post: no change.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The bay the record covers.
    /// Pre: none. Post: `rows()` x `cols()`.
    pub(crate) fn bay(&self) -> Bay {
        Bay::new(self.rows, self.cols)
    }

    /// Number of columns.
    /// Pre: none. Post: no change.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of probes made.
    /// Pre: none. Post: equals the number of `Hit` and `Miss` cells.
    pub fn scans(&self) -> usize {
        self.scans
    }

    /// Number of probes that found a ship.
    /// Pre: none. Post: equals the number of `Hit` cells.
    pub fn hits(&self) -> usize {
        self.hits
    }

    /// What is known of `pos`; cells outside the board read as `Eliminated`.
    /// Pre: none. Post: no change.
    pub fn state(&self, pos: Position) -> CellState {
        if pos.row < self.rows && pos.col < self.cols {
            // Inside, so below rows * cols: no need for `state_at`'s check.
            let i = pos.index(self.cols);
            self.packed.get(i / CELLS_PER_WORD).map_or(CellState::Eliminated, |w| CellState::from_bits(bits_of(*w, i)))
        } else {
            CellState::Eliminated
        }
    }

    /// What is known of the cell with row-major index `i`.
    /// Pre: none. Post: `Eliminated` beyond the board.
    pub fn state_at(&self, i: usize) -> CellState {
        if i >= self.rows * self.cols {
            return CellState::Eliminated;
        }
        self.packed.get(i / CELLS_PER_WORD).map_or(CellState::Eliminated, |w| CellState::from_bits(bits_of(*w, i)))
    }

    /// What is known of every cell, one state a cell in row-major order (for the code
    /// that indexes a small board's states in its inner loops: the posterior, runs).
    /// Pre: none. Post: `rows() * cols()` states.
    pub fn states(&self) -> Vec<CellState> {
        (0..self.rows * self.cols).map(|i| self.state_at(i)).collect()
    }

    /// The row-major index of `pos` when it is inside and still unknown.
    /// Pre: none. Post: `Some(i)` exactly when `state(pos) == Unknown`.
    #[inline]
    pub fn open_index(&self, pos: Position) -> Option<usize> {
        if pos.row >= self.rows || pos.col >= self.cols {
            return None;
        }
        let i = pos.index(self.cols);
        let word = *self.packed.get(i / CELLS_PER_WORD)?;
        (bits_of(word, i) == 0).then_some(i)
    }

    /// Records a probe of the cell with index `i` (from `open_index`) and its answer.
    /// Pre: `i` inside and unknown. Post: `Hit` or `Miss`, scans + 1 (nothing beyond the
    /// board).
    #[inline]
    pub fn set_probed(&mut self, i: usize, hit: bool) {
        if let Some(w) = self.packed.get_mut(i / CELLS_PER_WORD) {
            // Unknown (0) becomes Hit (1) or Miss (2): no bits to clear.
            *w |= (2 - u64::from(hit)) << (2 * (i % CELLS_PER_WORD));
            self.scans += 1;
            self.hits += usize::from(hit);
        }
    }

    /// Probes in row-major order: from cell `from` on, every unknown cell is probed,
    /// water becoming `Miss`, until a ship cell of `board` is met (`Hit`) or the board
    /// ends. Known cells are skipped.
    /// Pre: `board` has this record's size. Post: `Some((i, hit))` for the last cell
    /// probed (`hit` false only when the board ended first); `None`, and no change, when
    /// no unknown cell lies at or after `from`.
    pub fn sweep<S: ShipCells + ?Sized>(&mut self, from: usize, board: &S) -> Option<(usize, bool)> {
        // Between two ship cells everything is water: mark the run's unknown cells a
        // word at a time, then look at the ship cell (it may be known already).
        let cells = self.rows * self.cols;
        let (mut start, mut last_miss) = (from, None);
        while start < cells {
            let ship = board.next_ship_at_or_after(start).map_or(cells, |s| s.min(cells));
            last_miss = self.miss_range(start, ship).or(last_miss);
            if ship >= cells {
                break;
            }
            if self.state_at(ship) == CellState::Unknown {
                self.set_probed(ship, true);
                return Some((ship, true));
            }
            start = ship + 1;
        }
        last_miss.map(|i| (i, false))
    }

    /// Marks every unknown cell of `start..end` as `Miss` (a probe each).
    /// Returns the last cell marked, if any.
    fn miss_range(&mut self, start: usize, end: usize) -> Option<usize> {
        let mut last = None;
        let mut i = start;
        while i < end {
            let (word, first) = (i / CELLS_PER_WORD, i % CELLS_PER_WORD);
            let span = (CELLS_PER_WORD - first).min(end - i);
            let Some(w) = self.packed.get_mut(word) else { break };
            // The low bit of each cell of the run, then of each unknown (00) one.
            let run = if span == CELLS_PER_WORD { LOW_BITS } else { ((1u64 << (2 * span)) - 1) & LOW_BITS };
            let unknown = !(*w | (*w >> 1)) & (run << (2 * first));
            if unknown != 0 {
                *w |= unknown << 1; // 00 becomes 10: Miss
                self.scans += unknown.count_ones() as usize;
                last = Some(word * CELLS_PER_WORD + (63 - unknown.leading_zeros() as usize) / 2);
            }
            i += span;
        }
        last
    }

    /// Marks `pos` eliminated if it is still unknown.
    /// Pre: none. Post: returns true when the cell changed from `Unknown` to `Eliminated`.
    pub fn mark_eliminated(&mut self, pos: Position) -> bool {
        let Some(i) = self.open_index(pos) else { return false };
        if let Some(w) = self.packed.get_mut(i / CELLS_PER_WORD) {
            // Unknown (0) becomes Eliminated (3): no bits to clear.
            *w |= (CellState::Eliminated as u64) << (2 * (i % CELLS_PER_WORD));
        }
        true
    }

    /// The grid as the judge draws it: `+` spotted ship, `X` probed water or eliminated,
    /// `O` ship never spotted (needs the board), `.` untouched water. With no board,
    /// unknown cells are drawn `.`.
    /// Pre: `board`, if given, has this record's size. Post: `rows` lines of `cols`
    /// characters, each ending in `\n`.
    pub fn render_grid(&self, board: Option<&dyn ShipCells>) -> String {
        let mut out = Vec::new();
        let _ = self.write_grid(board, &mut out); // a Vec takes every write
        String::from_utf8(out).unwrap_or_default()
    }

    /// Writes the grid of [`ScanRecord::render_grid`] to `out` a row at a time (a large
    /// board's grid is never held whole).
    /// Pre: as `render_grid`. Post: `Err` is the first failed write.
    pub fn write_grid(&self, board: Option<&dyn ShipCells>, out: &mut dyn Write) -> io::Result<()> {
        const CHARS: [u8; 4] = [b'.', b'+', b'X', b'X'];
        let mut line = Vec::with_capacity(self.cols.min(1 << 16) + 1);
        for r in 0..self.rows {
            line.clear();
            for c in 0..self.cols {
                let i = r * self.cols + c;
                let state = self.packed.get(i / CELLS_PER_WORD).map_or(0, |w| bits_of(*w, i));
                let unseen_ship = state == 0 && board.is_some_and(|b| b.is_ship_at(i));
                line.push(if unseen_ship { b'O' } else { CHARS[(state & 3) as usize] });
                if line.len() >= 1 << 16 {
                    out.write_all(&line)?;
                    line.clear();
                }
            }
            line.push(b'\n');
            out.write_all(&line)?;
        }
        Ok(())
    }

    /// The judge's whole output: the scan count on its own line, then the grid.
    /// Pre: as `render_grid`. Post: ends with `\n`.
    pub fn render_output(&self, board: Option<&dyn ShipCells>) -> String {
        let mut out = Vec::new();
        let _ = self.write_output(board, &mut out); // a Vec takes every write
        String::from_utf8(out).unwrap_or_default()
    }

    /// Writes [`ScanRecord::render_output`] to `out`, the grid a row at a time.
    /// Pre: as `render_grid`. Post: `Err` is the first failed write.
    pub fn write_output(&self, board: Option<&dyn ShipCells>, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{}", self.scans)?;
        self.write_grid(board, out)
    }

    /// Writes the judge's output as one JSON line, `{"scans": N, "grid": [ROW, ...]}`
    /// (each row a string drawn as in [`ScanRecord::render_grid`]), with `"ships":
    /// SHIPS` before the grid when `ships` (a JSON value) is given; the grid is written a
    /// row at a time.
    /// Pre: as `render_grid`; `ships` is valid JSON. Post: one line ending in `\n`.
    pub fn write_json(
        &self,
        board: Option<&dyn ShipCells>,
        ships: Option<&str>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        use crate::render::json::{LineStrings, Object, Raw};
        let mut head = Object::new().field("scans", self.scans);
        if let Some(ships) = ships {
            head = head.field("ships", Raw(ships));
        }
        out.write_all(head.open_last("grid").as_bytes())?;
        // The grid's rows, each becoming a JSON string.
        let mut rows = LineStrings::new(out);
        self.write_grid(board, &mut rows)?;
        rows.finish()?;
        writeln!(out, "{}", Object::CLOSE)
    }

    /// Grows the record to `rows` x `cols`, the new cells unknown, or says the memory
    /// cannot be had (for a record read as text a cell at a time, whose size is known
    /// only at its end: `advise`'s grid, [`crate::scan::state::read`]).
    /// Pre: every cell known so far keeps its row-major index: `cols` is unchanged, or
    /// the record had at most one row and `rows` is 1; no fewer cells than before.
    /// Post: on `Ok`, `rows() == rows`, `cols() == cols`, every cell's state as before at
    /// its index; on `Err`, unchanged.
    pub fn try_grow(&mut self, rows: usize, cols: usize) -> Result<(), OutOfMemory> {
        let words = rows.saturating_mul(cols).div_ceil(CELLS_PER_WORD).max(self.packed.len());
        memory::resize(&mut self.packed, words, 0)?;
        (self.rows, self.cols) = (rows, cols);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::Board;
    use crate::game::position::Orientation;

    /// Records a probe of an unknown cell.
    fn probe(r: &mut ScanRecord, pos: Position, hit: bool) {
        let i = r.open_index(pos).expect("unknown cell");
        r.set_probed(i, hit);
    }
    use crate::game::ship::Ship;

    #[test]
    fn new_is_all_unknown() {
        let r = ScanRecord::new(2, 3);
        assert_eq!((r.rows(), r.cols(), r.scans(), r.hits()), (2, 3, 0, 0));
        assert_eq!(r.state(Position::new(1, 2)), CellState::Unknown);
        assert_eq!(r.state(Position::new(2, 0)), CellState::Eliminated);
        assert_eq!(r.state_at(5), CellState::Unknown);
        assert_eq!(r.state_at(6), CellState::Eliminated);
    }

    #[test]
    fn marks_probes_and_eliminations() {
        let mut r = ScanRecord::new(2, 2);
        assert_eq!(r.open_index(Position::new(1, 0)), Some(2));
        probe(&mut r, Position::new(0, 0), true);
        probe(&mut r, Position::new(0, 1), false);
        assert_eq!(r.open_index(Position::new(0, 0)), None);
        assert_eq!(r.open_index(Position::new(2, 0)), None);
        assert!(r.mark_eliminated(Position::new(1, 1)));
        assert!(!r.mark_eliminated(Position::new(1, 1)));
        assert!(!r.mark_eliminated(Position::new(0, 0)));
        assert!(!r.mark_eliminated(Position::new(9, 9)));
        assert_eq!((r.scans(), r.hits()), (2, 1));
        assert_eq!(r.state(Position::new(0, 0)), CellState::Hit);
        assert_eq!(r.state(Position::new(0, 1)), CellState::Miss);
        assert_eq!(r.state(Position::new(1, 1)), CellState::Eliminated);
        assert!(r.state(Position::new(1, 1)).is_blocked());
        assert!(!r.state(Position::new(1, 0)).is_blocked());
    }

    #[test]
    fn logs_hits_and_sunk_answers_when_asked() {
        let mut r = ScanRecord::new(1, 4);
        r.set_probed(0, true);
        r.note_answer(0, Answer::Hit);
        assert!(r.answers().is_none());
        r.reset(1, 4);
        r.log_answers();
        for (i, a) in [(2, Answer::Hit), (0, Answer::Miss), (3, Answer::Sunk(Some(1))), (1, Answer::Sunk(None))] {
            r.set_probed(i, a.is_hit());
            r.note_answer(i, a);
        }
        let log = r.answers().unwrap();
        assert_eq!(log.hits, vec![2, 3, 1]);
        assert_eq!(
            log.sunk,
            vec![SunkEvent { cell: 3, rank: 1, kind: Some(1) }, SunkEvent { cell: 1, rank: 2, kind: None }]
        );
        r.reset(1, 4);
        assert!(r.answers().is_none());
    }

    #[test]
    fn reset_forgets_everything() {
        let mut r = ScanRecord::new(3, 3);
        probe(&mut r, Position::new(1, 1), true);
        r.mark_eliminated(Position::new(0, 0));
        r.reset(2, 5);
        let fresh = ScanRecord::new(2, 5);
        assert_eq!((r.rows(), r.cols(), r.scans(), r.hits()), (2, 5, 0, 0));
        assert_eq!(r.render_grid(None), fresh.render_grid(None));
        assert!((0..10).all(|i| r.state_at(i) == CellState::Unknown));
    }

    #[test]
    fn renders_all_four_characters() {
        let board = Board::new(
            2,
            3,
            vec![
                Ship::new(Position::new(0, 0), 1, Orientation::East),
                Ship::new(Position::new(0, 2), 2, Orientation::South),
            ],
        )
        .unwrap();
        let mut r = ScanRecord::new(2, 3);
        probe(&mut r, Position::new(0, 0), true);
        probe(&mut r, Position::new(0, 1), false);
        r.mark_eliminated(Position::new(1, 1));
        assert_eq!(r.render_grid(Some(&board)), "+XO\n.XO\n");
        assert_eq!(r.render_grid(None), "+X.\n.X.\n");
        assert_eq!(r.render_output(Some(&board)), "2\n+XO\n.XO\n");
    }

    /// The sweep as the statement would do it: cell by cell.
    fn plain_sweep(r: &mut ScanRecord, from: usize, board: &Board) -> Option<(usize, bool)> {
        let mut last = None;
        for i in from..r.rows() * r.cols() {
            if r.state_at(i) == CellState::Unknown {
                let hit = board.is_ship_at(i);
                r.set_probed(i, hit);
                last = Some((i, hit));
                if hit {
                    break;
                }
            }
        }
        last
    }

    #[test]
    fn sweep_equals_the_cell_by_cell_sweep() {
        // Records with every mix of states (including known ship cells, which the sweep
        // must skip), boards from 1x1 to 9x40 (runs crossing words), every start.
        let mut rng = crate::game::rng::Rng::new(8);
        for _ in 0..300 {
            let (rows, cols) = (1 + rng.below(9) as usize, 1 + rng.below(40) as usize);
            let board = crate::game::placement::random_board(rows, cols, &mut rng).unwrap();
            let mut record = ScanRecord::new(rows, cols);
            for i in 0..rows * cols {
                match rng.below(4) {
                    0 => record.set_probed(i, board.is_ship_at(i)),
                    1 => {
                        record.mark_eliminated(Position::from_index(i, cols));
                    }
                    _ => {}
                }
            }
            let from = rng.below((rows * cols + 2) as u64) as usize;
            let (mut fast, mut plain) = (record.clone(), record);
            loop {
                let (a, b) = (fast.sweep(from, &board), plain_sweep(&mut plain, from, &board));
                assert_eq!(a, b);
                assert_eq!((fast.scans(), fast.hits()), (plain.scans(), plain.hits()));
                assert_eq!(fast.render_grid(Some(&board)), plain.render_grid(Some(&board)));
                if a.is_none() {
                    break;
                }
            }
        }
    }
}

//! What a scan has learnt so far: which cells were probed (hit or miss), which were
//! eliminated without a probe, and how many probes it took. Rendered against the board
//! it gives the judge's final grid.

use crate::board::Board;
use crate::position::Position;

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
}

impl CellState {
    fn from_bits(bits: u8) -> CellState {
        match bits & 3 {
            0 => CellState::Unknown,
            1 => CellState::Hit,
            2 => CellState::Miss,
            _ => CellState::Eliminated,
        }
    }
}

/// The scan record: one [`CellState`] per cell plus the probe count. States are packed
/// four to a byte (2 bits each), so the record of a 2000x2000 board takes 1 MB and
/// stays in cache while strategies probe at random.
#[derive(Debug, Clone, Default)]
pub struct ScanRecord {
    rows: usize,
    cols: usize,
    packed: Vec<u8>,
    scans: usize,
    hits: usize,
}

impl ScanRecord {
    /// A record where nothing is known yet.
    /// Pre: `rows * cols` fits in memory. Post: every cell `Unknown`, 0 scans.
    pub fn new(rows: usize, cols: usize) -> ScanRecord {
        ScanRecord { rows, cols, packed: vec![0; (rows * cols).div_ceil(4)], scans: 0, hits: 0 }
    }

    /// Makes this the record of a fresh `rows` x `cols` scan, reusing its memory.
    /// Pre: as `new`. Post: as `ScanRecord::new(rows, cols)`.
    pub fn reset(&mut self, rows: usize, cols: usize) {
        self.packed.clear();
        self.packed.resize((rows * cols).div_ceil(4), 0);
        (self.rows, self.cols, self.scans, self.hits) = (rows, cols, 0, 0);
    }

    /// Number of rows.
    /// Pre: none. Post: no change.
    pub fn rows(&self) -> usize {
        self.rows
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
            self.state_at(pos.index(self.cols))
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
        self.packed.get(i / 4).map_or(CellState::Eliminated, |b| CellState::from_bits(b >> (2 * (i % 4))))
    }

    /// Overwrites the state of cell `i` (inside the board).
    fn set_at(&mut self, i: usize, state: CellState) {
        if let Some(b) = self.packed.get_mut(i / 4) {
            let shift = 2 * (i % 4);
            *b = (*b & !(3 << shift)) | ((state as u8) << shift);
        }
    }

    /// The row-major index of `pos` when it is inside and still unknown.
    /// Pre: none. Post: `Some(i)` exactly when `state(pos) == Unknown`.
    #[inline]
    pub fn open_index(&self, pos: Position) -> Option<usize> {
        if pos.row >= self.rows || pos.col >= self.cols {
            return None;
        }
        let i = pos.index(self.cols);
        let byte = *self.packed.get(i / 4)?;
        ((byte >> (2 * (i % 4))) & 3 == 0).then_some(i)
    }

    /// Records a probe of the cell with index `i` (from `open_index`) and its answer.
    /// Pre: `i` inside and unknown. Post: `Hit` or `Miss`, scans + 1 (nothing beyond the
    /// board).
    #[inline]
    pub fn set_probed(&mut self, i: usize, hit: bool) {
        if let Some(b) = self.packed.get_mut(i / 4) {
            // Unknown (0) becomes Hit (1) or Miss (2): no bits to clear.
            *b |= (2 - u8::from(hit)) << (2 * (i % 4));
            self.scans += 1;
            self.hits += usize::from(hit);
        }
    }

    /// Marks `pos` eliminated if it is still unknown.
    /// Pre: none. Post: returns true when the cell changed from `Unknown` to `Eliminated`.
    pub fn mark_eliminated(&mut self, pos: Position) -> bool {
        if pos.row >= self.rows || pos.col >= self.cols {
            return false;
        }
        let i = pos.index(self.cols);
        if self.state_at(i) != CellState::Unknown {
            return false;
        }
        self.set_at(i, CellState::Eliminated);
        true
    }

    /// The grid as the judge draws it: `+` spotted ship, `X` probed water or eliminated,
    /// `O` ship never spotted (needs the board), `.` untouched water. With no board,
    /// unknown cells are drawn `.`.
    /// Pre: `board`, if given, has this record's size. Post: `rows` lines of `cols`
    /// characters, each ending in `\n`.
    pub fn render_grid(&self, board: Option<&Board>) -> String {
        const CHARS: [u8; 4] = [b'.', b'+', b'X', b'X'];
        let mut out = Vec::with_capacity(self.rows * (self.cols + 1));
        for r in 0..self.rows {
            for c in 0..self.cols {
                let i = r * self.cols + c;
                let state = self.packed.get(i / 4).map_or(0, |b| (b >> (2 * (i % 4))) & 3);
                let unseen_ship = state == 0 && board.is_some_and(|b| b.is_ship(Position::new(r, c)));
                out.push(if unseen_ship { b'O' } else { CHARS[usize::from(state)] });
            }
            out.push(b'\n');
        }
        String::from_utf8(out).unwrap_or_default()
    }

    /// The judge's whole output: the scan count on its own line, then the grid.
    /// Pre: as `render_grid`. Post: ends with `\n`.
    pub fn render_output(&self, board: Option<&Board>) -> String {
        let grid = self.render_grid(board);
        let mut out = String::with_capacity(grid.len() + 21);
        out.push_str(&self.scans.to_string());
        out.push('\n');
        out.push_str(&grid);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records a probe of an unknown cell.
    fn probe(r: &mut ScanRecord, pos: Position, hit: bool) {
        let i = r.open_index(pos).expect("unknown cell");
        r.set_probed(i, hit);
    }
    use crate::ship::{Orientation, Ship};

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
}

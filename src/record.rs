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

/// The scan record: one [`CellState`] per cell plus the probe count.
#[derive(Debug, Clone)]
pub struct ScanRecord {
    rows: usize,
    cols: usize,
    cells: Vec<CellState>,
    scans: usize,
    hits: usize,
}

impl ScanRecord {
    /// A record where nothing is known yet.
    /// Pre: `rows * cols` fits in memory. Post: every cell `Unknown`, 0 scans.
    pub fn new(rows: usize, cols: usize) -> ScanRecord {
        ScanRecord { rows, cols, cells: vec![CellState::Unknown; rows * cols], scans: 0, hits: 0 }
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
            self.cells.get(pos.index(self.cols)).copied().unwrap_or(CellState::Eliminated)
        } else {
            CellState::Eliminated
        }
    }

    /// What is known of the cell with row-major index `i`.
    /// Pre: none. Post: `Eliminated` beyond the board.
    pub fn state_at(&self, i: usize) -> CellState {
        self.cells.get(i).copied().unwrap_or(CellState::Eliminated)
    }

    /// Records a probe of `pos` and its answer.
    /// Pre: `pos` inside and `Unknown`. Post: `Hit` or `Miss`, scans + 1.
    pub fn mark_probe(&mut self, pos: Position, hit: bool) {
        if let Some(c) = self.cells.get_mut(pos.index(self.cols)) {
            *c = if hit { CellState::Hit } else { CellState::Miss };
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
        match self.cells.get_mut(pos.index(self.cols)) {
            Some(c) if *c == CellState::Unknown => {
                *c = CellState::Eliminated;
                true
            }
            _ => false,
        }
    }

    /// The grid as the judge draws it: `+` spotted ship, `X` probed water or eliminated,
    /// `O` ship never spotted (needs the board), `.` untouched water. With no board,
    /// unknown cells are drawn `.`.
    /// Pre: `board`, if given, has this record's size. Post: `rows` lines of `cols`
    /// characters, each ending in `\n`.
    pub fn render_grid(&self, board: Option<&Board>) -> String {
        let mut out = String::with_capacity(self.rows * (self.cols + 1));
        for (i, state) in self.cells.iter().enumerate() {
            out.push(match state {
                CellState::Hit => '+',
                CellState::Miss | CellState::Eliminated => 'X',
                CellState::Unknown if board.is_some_and(|b| b.is_ship(Position::from_index(i, self.cols))) => 'O',
                CellState::Unknown => '.',
            });
            if (i + 1) % self.cols == 0 {
                out.push('\n');
            }
        }
        out
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
        r.mark_probe(Position::new(0, 0), true);
        r.mark_probe(Position::new(0, 1), false);
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
        r.mark_probe(Position::new(0, 0), true);
        r.mark_probe(Position::new(0, 1), false);
        r.mark_eliminated(Position::new(1, 1));
        assert_eq!(r.render_grid(Some(&board)), "+XO\n.XO\n");
        assert_eq!(r.render_grid(None), "+X.\n.X.\n");
        assert_eq!(r.render_output(Some(&board)), "2\n+XO\n.XO\n");
    }
}

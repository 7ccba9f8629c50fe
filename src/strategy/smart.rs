//! smart: row-major order, but a hit eliminates its diagonal neighbours and moves its E
//! and S neighbours to the front of `boardList` (E first).
//!
//! `boardList` is kept in O(1) per operation without a linked list. Its front part is
//! the cells moved to the front (a stack: the top is the list's first cell); the rest is
//! every untouched cell in row-major order from a cursor. Each cell carries a state
//! saying which of the two parts holds it, or that it left the list; stack entries whose
//! state no longer matches are skipped when met. Once no moved cell is left, the list
//! holds exactly the cells the scan does not know yet, so the scan's row-major sweep
//! finds its first cell (and, unwatched, probes a whole run of water in one call). The
//! tests compare it with a plain `Vec` implementation of the statement's list.

use super::ScanStrategy;
use crate::game::bay::Bay;
use crate::game::position::Position;
use crate::limits::memory::{self, OutOfMemory};
use crate::scan::observer::{ListView, Source};
use crate::scan::{Scan, ScanError};

/// Where a cell is in `boardList`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// In the row-major part, at its original place.
    InOrder,
    /// Moved to the front: in the stack.
    Moved,
    /// Out of the list (probed or eliminated).
    Gone,
}

/// The smart scanner and its `boardList`.
#[derive(Debug, Default, Clone)]
pub struct Smart {
    bay: Bay,
    place: Vec<Place>,
    /// Moved cells; the last entry is the list's first cell.
    front: Vec<u32>,
    /// Row-major index where the list's row-major part starts (cells before it left).
    cursor: usize,
    /// Cells still in the list.
    len: usize,
}

impl Smart {
    fn reset(&mut self, bay: Bay) -> Result<(), OutOfMemory> {
        self.bay = bay;
        self.place.clear();
        memory::resize(&mut self.place, bay.cells(), Place::InOrder)?;
        self.front.clear();
        self.cursor = 0;
        self.len = bay.cells();
        Ok(())
    }

    fn place_of(&self, i: usize) -> Place {
        self.place.get(i).copied().unwrap_or(Place::Gone)
    }

    fn set_gone(&mut self, i: usize) -> bool {
        match self.place.get_mut(i) {
            Some(p) if *p != Place::Gone => {
                *p = Place::Gone;
                self.len -= 1;
                true
            }
            _ => false,
        }
    }

    /// Takes the first moved cell out of the list, if any is left.
    fn take_moved(&mut self) -> Option<Position> {
        while let Some(i) = self.front.pop() {
            if self.place_of(i as usize) == Place::Moved {
                self.set_gone(i as usize);
                return Some(self.bay.position(i as usize));
            }
        }
        None
    }

    /// Takes the cells up to index `last` out of the row-major part (a sweep probed
    /// them), and moves the cursor past them.
    fn take_up_to(&mut self, last: usize) {
        for i in self.cursor..=last {
            if self.place_of(i) == Place::InOrder {
                self.set_gone(i);
            }
        }
        self.cursor = self.cursor.max(last + 1);
    }

    /// Moves cell `i` to the front, if it is still in the list.
    fn move_to_front(&mut self, i: usize) {
        if let Some(p) = self.place.get_mut(i) {
            if *p != Place::Gone {
                *p = Place::Moved;
                self.front.push(i as u32);
            }
        }
    }
}

impl ListView for Smart {
    fn name(&self) -> &'static str {
        "boardList"
    }

    fn len(&self) -> usize {
        self.len
    }

    fn front(&self, limit: usize) -> Vec<Position> {
        let mut out = Vec::new();
        for (k, &i) in self.front.iter().enumerate().rev() {
            if out.len() >= limit {
                return out;
            }
            // A cell moved twice has a stale lower entry: only its topmost counts.
            let stale = self.front.get(k + 1..).is_some_and(|above| above.contains(&i));
            if self.place_of(i as usize) == Place::Moved && !stale {
                out.push(self.bay.position(i as usize));
            }
        }
        let mut i = self.cursor;
        while out.len() < limit && i < self.place.len() {
            if self.place_of(i) == Place::InOrder {
                out.push(self.bay.position(i));
            }
            i += 1;
        }
        out
    }
}

impl ScanStrategy for Smart {
    fn name(&self) -> &'static str {
        "smart"
    }

    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        let bay = scan.bay();
        self.reset(bay).map_err(|e| scan.out_of_memory(e))?;
        while !scan.is_done() {
            // With no moved cell left, every cell still in the list is unknown to the
            // scan and the reverse, and the list is row-major from the cursor on: the
            // scan's sweep takes its first cell (a whole run of water when unwatched).
            let (pos, hit) = match self.take_moved() {
                Some(pos) => (pos, scan.probe(pos, Source::ListFront)?.is_hit()),
                None => {
                    let Some((i, hit)) = scan.sweep(self.cursor, Source::ListFront)? else {
                        return Err(scan.exhausted());
                    };
                    self.take_up_to(i);
                    (bay.position(i), hit)
                }
            };
            if hit {
                bay.for_each_diagonal(pos, |d| {
                    if self.set_gone(bay.index(d)) {
                        scan.eliminate(d);
                    }
                });
                // Push S first so that E ends on top: the list starts E, S, ...
                memory::reserve(&mut self.front, 2).map_err(|e| scan.out_of_memory(e))?;
                let i = bay.index(pos);
                if pos.row + 1 < bay.rows {
                    self.move_to_front(i + bay.cols);
                }
                if pos.col + 1 < bay.cols {
                    self.move_to_front(i + 1);
                }
            }
            scan.show_list(self);
            scan.end_step();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::Board;
    use crate::game::position::Direction;
    use crate::game::rng::Rng;
    use crate::scan::observer::Silent;
    use crate::scan::referee::Referee;
    use crate::strategy::solve;

    /// The statement's algorithm with a plain `Vec` as boardList.
    fn reference(board: &Board) -> (usize, Vec<Position>, Vec<Position>) {
        let (rows, cols) = (board.rows(), board.cols());
        let mut list: Vec<Position> = board.bay().positions().collect();
        let mut count = board.ship_cells();
        let (mut probed, mut eliminated) = (Vec::new(), Vec::new());
        while count > 0 {
            let pos = list.remove(0);
            probed.push(pos);
            if board.is_ship(pos) {
                count -= 1;
                for d in pos.diagonals(rows, cols) {
                    if let Some(k) = list.iter().position(|&p| p == d) {
                        list.remove(k);
                        eliminated.push(d);
                    }
                }
                for dir in [Direction::S, Direction::E] {
                    if let Some(n) = pos.step(dir, rows, cols) {
                        if let Some(k) = list.iter().position(|&p| p == n) {
                            list.remove(k);
                            list.insert(0, n);
                        }
                    }
                }
            }
        }
        (probed.len(), probed, eliminated)
    }

    #[test]
    fn matches_the_plain_list_on_random_boards() {
        let mut rng = Rng::new(5);
        for _ in 0..400 {
            let rows = 1 + rng.below(9) as usize;
            let cols = 1 + rng.below(9) as usize;
            let board = crate::game::placement::random_board(rows, cols, &mut rng).unwrap();
            let record = solve(&mut Smart::default(), &mut Referee::new(&board)).unwrap();
            let (scans, probed, eliminated) = reference(&board);
            assert_eq!(record.scans(), scans);
            for p in probed {
                assert!(matches!(
                    record.state(p),
                    crate::scan::record::CellState::Hit | crate::scan::record::CellState::Miss
                ));
            }
            for p in eliminated {
                assert_eq!(record.state(p), crate::scan::record::CellState::Eliminated);
            }
        }
    }

    #[test]
    fn list_view_shows_the_front() {
        let mut s = Smart::default();
        s.reset(Bay::new(3, 3)).unwrap();
        assert_eq!(s.len(), 9);
        s.take_up_to(0);
        s.move_to_front(4);
        s.move_to_front(1);
        assert_eq!(s.front(3), vec![Position::new(0, 1), Position::new(1, 1), Position::new(0, 2)]);
        assert_eq!(s.len(), 8);
        assert_eq!(s.take_moved(), Some(Position::new(0, 1)));
        assert_eq!(s.take_moved(), Some(Position::new(1, 1)));
        assert_eq!(s.take_moved(), None);
        assert_eq!((s.len(), s.cursor), (6, 1));
        assert_eq!(ListView::name(&s), "boardList");
        let _ = Silent;
    }
}

//! The referee: where the hidden board meets a scan. Every answer a [`Board`] gives is
//! worked out here ([`answer`]), from the board and what the scan has recorded, so that
//! the judge, both lanes of a scan, the `referee` command and the bot arena answer alike.

use crate::game::board::Board;
use crate::game::fleet::Fleet;
use crate::game::position::Position;
use crate::game::rules::{Rules, Sunk};
use crate::scan::record::{CellState, ScanRecord, ShipCells};
use crate::scan::sonar::{Answer, ProbeError, Sonar};

impl ShipCells for Board {
    #[inline]
    fn is_ship_at(&self, i: usize) -> bool {
        Board::is_ship_at(self, i)
    }
    #[inline]
    fn next_ship_at_or_after(&self, i: usize) -> Option<usize> {
        Board::next_ship_at_or_after(self, i)
    }
}

/// What probing the cell of index `i` of `board` answers, given what `record` holds so
/// far: `Sunk` when the rules announce it and every other cell of its ship is hit.
/// Pre: `i` inside, not probed in `record`; `record` is of this board. Post: no change.
#[inline]
pub fn answer(board: &Board, i: usize, record: &ScanRecord) -> Answer {
    if !board.is_ship_at(i) {
        return Answer::Miss;
    }
    let sunk = board.rules().sunk();
    if sunk == Sunk::None {
        return Answer::Hit;
    }
    let pos = board.bay().position(i);
    let Some(k) = board.ship_at(pos) else { return Answer::Hit };
    let Some(ship) = board.ship(k) else { return Answer::Hit };
    if ship.cells().any(|c| c != pos && record.state(c) != CellState::Hit) {
        return Answer::Hit;
    }
    Answer::Sunk(if sunk == Sunk::Named { board.kind_of(k) } else { None })
}

/// The probe step: what probing cell `i` of `board` answers ([`answer`]), recorded in
/// `record` ([`ScanRecord::answered`]). Every scan of a board, the `referee` command,
/// the bot arena and the web page's games probe through here.
/// Pre: `i` inside, not probed in `record`; `record` is of this board. Post: the cell
/// is `Hit` or `Miss` in `record`, one more scan, the answer logged when kept.
#[inline]
pub fn probe(board: &Board, i: usize, record: &mut ScanRecord) -> Answer {
    if board.rules().sunk() == Sunk::None {
        // Hit or miss only, and no log to keep: the step `simulate` takes hundreds of
        // millions of times, kept to the record's two bits (through the general step
        // below, `simulate --games 20000 --threads 1` took 10% more instructions).
        let hit = board.is_ship_at(i);
        record.set_probed(i, hit);
        return Answer::from_hit(hit);
    }
    let said = answer(board, i, record);
    record.answered(i, said);
    said
}

/// Why a referee refused a probe (its `Display` is the message the player reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Every ship cell was found already: the game is over, after this many probes.
    Over {
        /// The probes the game took.
        probes: usize,
    },
    /// A cell outside the bay.
    Outside {
        /// The cell asked for.
        pos: Position,
        /// Rows of the bay.
        rows: usize,
        /// Columns of the bay.
        cols: usize,
    },
    /// A cell probed before in this game.
    Again(Position),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Over { probes } => write!(f, "the game is over: done in {probes} probes"),
            Refused::Outside { pos, rows, cols } => write!(f, "{pos} is outside the {rows}x{cols} bay"),
            Refused::Again(pos) => write!(f, "{pos} was already probed"),
        }
    }
}

impl std::error::Error for Refused {}

/// One game a referee plays against a player who names cells: the hidden board and
/// what was probed (both borrowed: the caller keeps them). The `referee` command, the
/// web page's games and the bot arena play through it, and refuse a probe alike.
#[derive(Debug)]
pub struct RefereeGame<'a> {
    board: &'a Board,
    record: &'a mut ScanRecord,
}

impl<'a> RefereeGame<'a> {
    /// The game of `board` whose probes so far `record` holds.
    /// Pre: `record` is of this board (its size). Post: no change.
    pub fn new(board: &'a Board, record: &'a mut ScanRecord) -> RefereeGame<'a> {
        RefereeGame { board, record }
    }

    /// True when every ship cell was found.
    pub fn is_over(&self) -> bool {
        self.record.hits() >= self.board.ship_cells()
    }

    /// The probes so far.
    pub fn probes(&self) -> usize {
        self.record.scans()
    }

    /// The ship cells found so far.
    pub fn hits(&self) -> usize {
        self.record.hits()
    }

    /// Probes `pos` ([`probe`]) and answers as the rules say.
    /// Pre: none. Post: `Err` (nothing recorded) when the game is over, `pos` is
    /// outside the bay, or it was probed before, checked in that order.
    pub fn probe(&mut self, pos: Position) -> Result<Answer, Refused> {
        if self.is_over() {
            return Err(Refused::Over { probes: self.record.scans() });
        }
        let bay = self.board.bay();
        let Some(i) = self.record.open_index(pos) else {
            return Err(if !bay.contains(pos) {
                Refused::Outside { pos, rows: bay.rows, cols: bay.cols }
            } else {
                Refused::Again(pos)
            });
        };
        Ok(probe(self.board, i, self.record))
    }
}

/// A board as a [`Sonar`]: the hidden board and the record of what was asked of it (a
/// sunk answer depends on the cells asked before). A [`crate::scan::Scan`] started on a
/// referee asks the board directly (see [`Sonar::as_board`]).
#[derive(Debug)]
pub struct Referee<'a> {
    board: &'a Board,
    /// What was asked through [`Sonar::probe`] itself, when the rules announce sunk
    /// ships; made at the first such probe.
    asked: Option<ScanRecord>,
}

impl<'a> Referee<'a> {
    /// A referee of `board`, nothing asked yet.
    /// Pre: none. Post: `as_board()` is `board`.
    pub fn new(board: &'a Board) -> Referee<'a> {
        Referee { board, asked: None }
    }
}

impl Sonar for Referee<'_> {
    fn rows(&self) -> usize {
        self.board.rows()
    }
    fn cols(&self) -> usize {
        self.board.cols()
    }
    fn ship_cells(&self) -> usize {
        self.board.ship_cells()
    }
    fn rules(&self) -> &Rules {
        self.board.rules()
    }
    fn fleet(&self) -> Option<&Fleet> {
        Some(self.board.rules().fleet())
    }
    fn probe(&mut self, pos: Position) -> Result<Answer, ProbeError> {
        let board = self.board;
        if pos.row >= board.rows() || pos.col >= board.cols() {
            return Err(ProbeError::Io(format!("internal: {pos} is outside the board")));
        }
        if board.rules().sunk() == Sunk::None {
            return Ok(Answer::from_hit(board.is_ship(pos)));
        }
        let asked = self.asked.get_or_insert_with(|| ScanRecord::new(board.rows(), board.cols()));
        let i = pos.index(board.cols());
        Ok(match asked.open_index(pos) {
            Some(_) => {
                let a = answer(board, i, asked);
                asked.set_probed(i, a.is_hit());
                a
            }
            // Asked again: the same answer, without the completion it made.
            None => Answer::from_hit(board.is_ship_at(i)),
        })
    }
    fn as_board(&self) -> Option<&Board> {
        Some(self.board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::position::Orientation::East;
    use crate::game::ship::Ship;

    fn ship(r: usize, c: usize, size: usize) -> Ship {
        Ship::new(Position::new(r, c), size, East)
    }

    #[test]
    fn a_game_refuses_outside_again_and_over_with_the_players_words() {
        let b = Board::new(2, 3, vec![ship(0, 0, 1)]).unwrap();
        let mut record = ScanRecord::new(2, 3);
        let mut game = RefereeGame::new(&b, &mut record);
        let outside = game.probe(Position::new(2, 0)).unwrap_err();
        assert_eq!(outside.to_string(), "(2,0) is outside the 2x3 bay");
        assert_eq!(game.probe(Position::new(1, 1)), Ok(Answer::Miss));
        assert_eq!(game.probe(Position::new(1, 1)).unwrap_err().to_string(), "(1,1) was already probed");
        assert_eq!(game.probes(), 1);
        assert!(!game.is_over());
        assert_eq!(game.probe(Position::new(0, 0)), Ok(Answer::Hit));
        assert!(game.is_over() && game.hits() == 1);
        let over = game.probe(Position::new(1, 2)).unwrap_err();
        assert_eq!(
            (over, over.to_string().as_str()),
            (Refused::Over { probes: 2 }, "the game is over: done in 2 probes")
        );
        assert_eq!(record.scans(), 2);
    }

    #[test]
    fn probe_agrees_with_is_ship() {
        let b = Board::new(5, 6, vec![ship(1, 1, 4), Ship::new(Position::new(3, 0), 2, East)]).unwrap();
        let mut r = Referee::new(&b);
        assert_eq!(r.probe(Position::new(1, 1)), Ok(Answer::Hit));
        assert_eq!(r.probe(Position::new(0, 0)), Ok(Answer::Miss));
        assert_eq!(Sonar::fleet(&r).map(Fleet::sizes), Some(vec![4, 2]));
        assert_eq!((Sonar::rows(&r), Sonar::cols(&r), Sonar::ship_cells(&r)), (5, 6, 6));
        assert!(r.probe(Position::new(5, 0)).is_err());
    }

    #[test]
    fn sunk_is_answered_on_the_last_cell() {
        let classic = Rules::preset("classic").unwrap();
        let b = Board::with_rules(3, 4, vec![ship(0, 0, 2), ship(1, 0, 3)], &classic).unwrap();
        let kind = b.kind_of(1);
        let mut r = Referee::new(&b);
        assert_eq!(r.probe(Position::new(1, 1)), Ok(Answer::Hit));
        assert_eq!(r.probe(Position::new(0, 1)), Ok(Answer::Hit));
        assert_eq!(r.probe(Position::new(1, 0)), Ok(Answer::Hit));
        assert_eq!(r.probe(Position::new(1, 2)), Ok(Answer::Sunk(kind)));
        assert_eq!(r.probe(Position::new(0, 0)), Ok(Answer::Sunk(b.kind_of(0))));
        assert_eq!(r.probe(Position::new(2, 2)), Ok(Answer::Miss));
        let russian = Rules::preset("russian").unwrap();
        let b = Board::with_rules(3, 4, vec![ship(0, 0, 1)], &russian).unwrap();
        assert_eq!(Referee::new(&b).probe(Position::new(0, 0)), Ok(Answer::Sunk(None)));
    }
}

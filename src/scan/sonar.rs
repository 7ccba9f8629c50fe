//! The only window a strategy has on the bay: its size, the rules, how many ship cells
//! to find, optionally the fleet, and "ship or water?" for one cell at a time (and,
//! under rules that announce it, "sunk").

use crate::game::board::Board;
use crate::game::fleet::Fleet;
use crate::game::position::Position;
use crate::game::rules::Rules;
use std::fmt;

/// What a probe answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Water.
    Miss,
    /// A ship cell, its ship not complete yet (or rules that never say "sunk").
    Hit,
    /// A ship cell that completes its ship: under `sunk named`, the kind of the ship
    /// (an index into the fleet's kinds), under `sunk yes` none.
    Sunk(Option<usize>),
}

impl Answer {
    /// True for a ship cell (`Hit` or `Sunk`).
    /// Pre: none. Post: false only for `Miss`.
    #[inline]
    pub fn is_hit(self) -> bool {
        self != Answer::Miss
    }

    /// `Hit` for true, `Miss` for false.
    /// Pre: none. Post: `is_hit() == hit`.
    #[inline]
    pub fn from_hit(hit: bool) -> Answer {
        if hit {
            Answer::Hit
        } else {
            Answer::Miss
        }
    }
}

/// What a strategy may ask. The judge's [`crate::game::board::Board`] answers from its ships;
/// `play` answers from a person or a referee program.
pub trait Sonar {
    /// Number of rows of the bay.
    /// Pre: none. Post: at least 1.
    fn rows(&self) -> usize;
    /// Number of columns of the bay.
    /// Pre: none. Post: at least 1.
    fn cols(&self) -> usize;
    /// Total number of ship cells to spot.
    /// Pre: none. Post: at most `rows() * cols()`.
    fn ship_cells(&self) -> usize;
    /// The rules the answers follow (whether ships touch, what a probe answers).
    /// Pre: none. Post: no change.
    fn rules(&self) -> &Rules;
    /// The fleet, when it is known (fleet-aware strategies use it); `None` when only the
    /// number of ship cells is.
    /// Pre: none. Post: when `Some`, its ship cells add up to `ship_cells()`.
    fn fleet(&self) -> Option<&Fleet>;
    /// Scans one cell: `Miss`, `Hit`, or under rules that announce it `Sunk`.
    /// Pre: `pos` inside the bay, not asked before. Post: `Sunk` exactly when the cell
    /// is the last cell of its ship to be asked.
    fn probe(&mut self, pos: Position) -> Result<Answer, ProbeError>;
    /// The board behind this sonar when it is one (a scan then asks it directly,
    /// without a virtual call per probe). Other sonars keep the default.
    /// Pre: none. Post: `Some(b)` answers every probe exactly as `probe` would.
    fn as_board(&self) -> Option<&Board> {
        None
    }
}

/// Why a probe got no usable answer (only interactive sonars fail).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeError {
    /// Reading the answer or writing the question failed.
    Io(String),
    /// The question could not be written: the reader went away (a broken pipe). Not an
    /// error for the command line, which stops quietly.
    ReaderGone(String),
    /// The answer was not one of the accepted words.
    BadAnswer {
        /// The answer as read (control characters escaped).
        answer: String,
        /// The answers these rules accept, as a list for a person (`hit, miss, h, m, 1, 0`).
        allowed: &'static str,
    },
    /// The answer cannot be true, given the rules and the earlier answers.
    Contradiction(crate::scan::check::Contradiction),
    /// The answer was `undo`: the last answer is taken back, and the game is to start
    /// again from the answers before it (not an error for `play`, which replays them).
    Undo,
    /// The answer was `undo` before any other answer.
    NothingToUndo,
    /// The answer says `sunk` with a name that is not a ship of the fleet.
    UnknownShip(String),
    /// The answer channel closed before every ship cell was found.
    Closed,
    /// The sonar's memory for the board's answers could not be had.
    OutOfMemory(crate::limits::memory::Shortage),
}

impl ProbeError {
    /// The error of a failed read or write: [`ProbeError::ReaderGone`] for a broken
    /// pipe, [`ProbeError::Io`] otherwise.
    /// Pre: none. Post: displays as `e`.
    pub fn of_io(e: std::io::Error) -> ProbeError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            ProbeError::ReaderGone(e.to_string())
        } else {
            ProbeError::Io(e.to_string())
        }
    }
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Io(e) | ProbeError::ReaderGone(e) => write!(f, "{e}"),
            ProbeError::BadAnswer { answer, allowed } => write!(f, "answer `{answer}` is not one of {allowed}"),
            ProbeError::Contradiction(c) => write!(f, "contradiction: {c}"),
            ProbeError::Undo => write!(f, "answer `undo`: the last answer was taken back"),
            ProbeError::NothingToUndo => write!(f, "answer `undo` before any other answer: nothing to undo"),
            ProbeError::UnknownShip(name) => write!(f, "answer `sunk {name}`: the fleet has no ship called `{name}`"),
            ProbeError::Closed => write!(f, "the answers ended before every ship cell was found"),
            ProbeError::OutOfMemory(e) => write!(f, "{e}"),
        }
    }
}

//! The only window a strategy has on the bay: its size, how many ship cells to find,
//! optionally the fleet's sizes, and "ship or water?" for one cell at a time.

use crate::board::Board;
use crate::position::Position;
use std::fmt;

/// What a strategy may ask. The judge's [`crate::board::Board`] answers from its ships;
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
    /// The ship sizes, largest first, when they are known (fleet-aware strategies use it).
    /// Pre: none. Post: when `Some`, the sizes add up to `ship_cells()`.
    fn fleet(&self) -> Option<&[usize]>;
    /// Scans one cell: `Ok(true)` for ship, `Ok(false)` for water.
    /// Pre: `pos` inside the bay. Post: the same cell always gets the same answer.
    fn probe(&mut self, pos: Position) -> Result<bool, ProbeError>;
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
    /// The answer was not one of the accepted words.
    BadAnswer(String),
    /// The answer channel closed before every ship cell was found.
    Closed,
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Io(e) => write!(f, "{e}"),
            ProbeError::BadAnswer(a) => {
                write!(f, "answer `{a}` is not one of hit, miss, h, m, 1, 0")
            }
            ProbeError::Closed => write!(f, "the answers ended before every ship cell was found"),
        }
    }
}

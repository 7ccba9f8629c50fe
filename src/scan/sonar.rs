//! The only window a strategy has on the bay: its size, the rules, how many ship cells
//! to find, optionally the fleet, and "ship or water?" for one cell at a time (and,
//! under rules that announce it, "sunk").

use crate::game::board::Board;
use crate::game::fleet::Fleet;
use crate::game::position::Position;
use crate::game::rules::Rules;
use crate::render::words::count;
use crate::scan::record::ScanRecord;
use std::fmt;

pub use super::answer::Answer;

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
    /// The search the scan asks, after each of this sonar's answers, for a layout of
    /// the fleet that agrees with them all ([`crate::scan::check::Announced::search`]).
    /// A board's answers need none; a sonar of answers it did not work out gives one.
    /// Pre: none. Post: no change.
    fn layout_search(&self) -> Option<LayoutSearch> {
        None
    }
}

/// A search for a layout of the rules' fleet that agrees with every answer of a record:
/// `false` only when there is surely none (a search that runs out of budget says
/// `true`). The posterior's (`posterior::agrees`) is handed down by the layers above.
pub type LayoutSearch = fn(&ScanRecord, &Rules) -> bool;

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
    Contradiction(Contradiction),
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

/// Why an answer cannot be true.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Impossible {
    /// The answer passes every local check, but no layout of the fleet agrees with all
    /// the answers once it is given (an exhaustive search found none).
    NoLayout {
        /// The answer refused.
        answer: Answer,
    },
    /// A hit, but every ship cell was already found.
    AllFound {
        /// The ship cells announced.
        cells: usize,
    },
    /// A hit diagonal to another hit, where ships never touch.
    Diagonal {
        /// The other hit.
        hit: Position,
    },
    /// A hit beside a cell of a sunk ship, where ships never touch.
    BesideSunk {
        /// The sunk ship's cell next to it.
        cell: Position,
    },
    /// A hit that makes a line of hits longer than any ship afloat, where ships never
    /// touch.
    TooLong {
        /// The hits in the line, this one included.
        run: usize,
        /// The longest ship afloat.
        longest: usize,
    },
    /// A sunk answer under rules that never announce one.
    SunkNotAnnounced,
    /// A named ship sunk, but every ship of its kind was already sunk.
    KindSunk {
        /// The kind's name.
        name: String,
    },
    /// A sunk ship whose line of hits has no afloat ship's size (ships never touch).
    NoShipOfSize {
        /// The hits in the line through the cell, this one included.
        run: usize,
    },
    /// A named ship sunk whose size does not match the line of hits through the cell
    /// (ships never touch), or with no line of that many hits through the cell (ships
    /// may touch).
    NoLine {
        /// The kind's name.
        name: String,
        /// Its size.
        size: usize,
    },
    /// A sunk ship before as many cells were hit as the ships sunk so far cover.
    TooFewHits {
        /// Hits so far, this one included.
        hits: usize,
        /// The cells of the ships sunk, this one included (at least).
        needed: usize,
    },
    /// Water, where the ship cells still to find no longer fit in the cells left.
    NoRoom {
        /// Ship cells not found yet.
        missing: usize,
        /// Cells not asked yet, this one excluded.
        left: usize,
    },
}

/// An impossible answer: the cell and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contradiction {
    /// The cell answered.
    pub cell: Position,
    /// Why the answer cannot be true.
    pub why: Impossible,
}

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = self.cell;
        match &self.why {
            Impossible::AllFound { cells } => {
                let verb = if *cells == 1 { "was" } else { "were" };
                write!(f, "{pos} is a hit, but {} {verb} already found", count(*cells, "ship cell"))
            }
            Impossible::Diagonal { hit } => {
                write!(f, "{pos} is a hit diagonal to the hit {hit}, and ships never touch")
            }
            Impossible::BesideSunk { cell } => {
                write!(f, "{pos} is a hit beside the sunk ship at {cell}, and ships never touch")
            }
            Impossible::TooLong { run, longest } => {
                write!(
                    f,
                    "{pos} is a hit that makes {run} hits in a line, but the longest ship afloat has {longest} cells"
                )
            }
            Impossible::NoLayout { answer } => {
                let said = match answer {
                    Answer::Hit => "a hit",
                    Answer::Miss => "water",
                    Answer::Sunk(_) => "a sunk ship",
                };
                write!(f, "{pos} is answered {said}, but then no layout of the fleet agrees with all the answers")
            }
            Impossible::SunkNotAnnounced => {
                write!(f, "{pos} is answered sunk, but these rules never announce a sunk ship")
            }
            Impossible::KindSunk { name } => write!(f, "{pos} sinks the {name}, which was already sunk"),
            Impossible::NoShipOfSize { run } => {
                write!(f, "{pos} sinks a ship of {}, but no ship of that size is afloat", count(*run, "cell"))
            }
            Impossible::NoLine { name, size } => {
                write!(
                    f,
                    "{pos} sinks the {name} ({}), but no line of {size} hits goes through it",
                    count(*size, "cell")
                )
            }
            Impossible::TooFewHits { hits, needed } => write!(
                f,
                "{pos} sinks a ship after {}, but the ships sunk cover at least {}",
                count(*hits, "hit"),
                count(*needed, "cell")
            ),
            Impossible::NoRoom { missing, left } => write!(
                f,
                "{pos} is water, but {} {} still to be found and only {} would be left",
                count(*missing, "ship cell"),
                if *missing == 1 { "is" } else { "are" },
                count(*left, "cell")
            ),
        }
    }
}

impl std::error::Error for Contradiction {}

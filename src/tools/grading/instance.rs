//! A judge input under Problem G's rules held as data (strategy, board size, straight
//! ships), so that test cases can be generated, shrunk and written as values. Its text
//! is laid out like the statement's samples; its expected output is this program's own
//! judge output.

use crate::game::board::{Board, BoardError};
use crate::game::input;
use crate::game::position::{Orientation, Position};
use crate::game::rules::Rules;
use crate::game::ship::Ship;
use crate::scan::referee::Referee;
use crate::scan::ScanError;
use crate::strategy::{self, DEFAULT_SEED};
use std::fmt;

/// A judge input as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Instance {
    /// The strategy named on the first line (one of [`strategy::NAMES`]).
    pub strategy: String,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The ships, in input order (straight ships only).
    pub ships: Vec<Ship>,
}

impl Instance {
    /// An input from a table of ships `(row, col, size, 'E' | 'S')`.
    /// Pre: none (validity is checked by [`Instance::expected`]). Post: the ships in order.
    pub(crate) fn from_table(strategy: &str, rows: usize, cols: usize, ships: &[(usize, usize, usize, char)]) -> Self {
        let ships = ships
            .iter()
            .map(|&(r, c, size, o)| {
                let orientation = if o == 'S' { Orientation::South } else { Orientation::East };
                Ship::new(Position::new(r, c), size, orientation)
            })
            .collect();
        Instance { strategy: strategy.to_string(), rows, cols, ships }
    }

    /// Reads a judge input's text under Problem G's rules.
    /// Pre: none (any bytes). Post: `None` unless the text is a valid input.
    pub(crate) fn parse(text: &[u8]) -> Option<Instance> {
        let parsed = input::parse(text, &strategy::NAMES).ok()?;
        let board = parsed.board;
        Some(Instance {
            strategy: parsed.strategy,
            rows: board.rows(),
            cols: board.cols(),
            ships: board.ships().collect(),
        })
    }

    /// The input as text, laid out like the statement's samples: the strategy, then
    /// `rows cols n`, then every ship on the third line (an empty line when n = 0).
    /// Pre: none. Post: ends with a line break; [`Instance::parse`] reads it back.
    pub(crate) fn text(&self) -> String {
        input::text(&self.strategy, self.rows, self.cols, &self.ships, &Rules::problem_g(), usize::MAX)
    }

    /// The board, checked against every rule.
    /// Pre: none. Post: `Err` names the first broken rule.
    pub(crate) fn board(&self) -> Result<Board, BoardError> {
        Board::new(self.rows, self.cols, self.ships.clone())
    }

    /// The judge's output for this input (what `spot-the-ships` prints for its text).
    /// Pre: none. Post: `Err` says why when the input is not valid.
    pub(crate) fn expected(&self) -> Result<String, InstanceError> {
        let board = self.board().map_err(InstanceError::Board)?;
        let mut strategy = strategy::by_name(&self.strategy, DEFAULT_SEED)
            .ok_or_else(|| InstanceError::UnknownStrategy(self.strategy.clone()))?;
        let record = strategy::solve(strategy.as_mut(), &mut Referee::new(&board)).map_err(InstanceError::Scan)?;
        Ok(record.render_output(Some(&board)))
    }

    /// A short description: `5x6, 2 ships`.
    /// Pre: none. Post: no line break.
    pub(crate) fn size_words(&self) -> String {
        let n = self.ships.len();
        format!("{}x{}, {n} ship{}", self.rows, self.cols, if n == 1 { "" } else { "s" })
    }
}

/// Why an instance has no expected output: it is not a valid judge input.
#[derive(Debug)]
pub enum InstanceError {
    /// The board breaks a rule (a ship out of the bay, touching another, ...).
    Board(BoardError),
    /// The first line names no strategy.
    UnknownStrategy(String),
    /// The strategy's scan could not finish.
    Scan(ScanError),
}

impl fmt::Display for InstanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstanceError::Board(e) => write!(f, "{e}"),
            InstanceError::UnknownStrategy(name) => write!(f, "unknown strategy `{name}`"),
            InstanceError::Scan(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for InstanceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InstanceError::Board(e) => Some(e),
            InstanceError::Scan(e) => Some(e),
            InstanceError::UnknownStrategy(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_reads_back_and_matches_the_samples_layout() {
        let sample = include_str!("../../../samples/02-prob.in");
        let inst = Instance::parse(sample.as_bytes()).unwrap();
        assert_eq!(inst.text(), sample);
        assert_eq!(inst.expected().unwrap(), include_str!("../../../samples/02-prob.out"));
        assert_eq!(inst.size_words(), "5x6, 2 ships");
        let empty = Instance::from_table("linear", 1, 1, &[]);
        assert_eq!(empty.text(), "linear\n1 1 0\n\n");
        assert_eq!(Instance::parse(empty.text().as_bytes()), Some(empty.clone()));
        assert_eq!(empty.expected().unwrap(), "0\n.\n");
    }

    #[test]
    fn invalid_inputs_are_refused() {
        let touching = Instance::from_table("prob", 3, 3, &[(0, 0, 1, 'E'), (1, 1, 1, 'E')]);
        assert!(touching.expected().unwrap_err().to_string().contains("touches"));
        assert!(Instance::parse(touching.text().as_bytes()).is_none());
        assert!(Instance::from_table("fast", 1, 1, &[]).expected().is_err());
    }
}

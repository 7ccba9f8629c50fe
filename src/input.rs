//! The judge input: strategy name, `rows cols n`, then `n` ships `row col size E|S`.
//! Read as whitespace-separated tokens (spaces, tabs, CR, LF), so line breaks inside
//! the ship list do not matter. Every problem is a typed [`InputError`] that names the
//! token, the line, and the ship (counted from 1).

use crate::board::{Board, BoardError};
use crate::position::Position;
use crate::ship::{Orientation, Ship};
use std::fmt;

/// A parsed judge input.
#[derive(Debug, Clone)]
pub struct JudgeInput {
    /// The strategy named on the first line.
    pub strategy: String,
    /// The valid board.
    pub board: Board,
}

/// Which value of the input a message is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The first number of line 2.
    Rows,
    /// The second number of line 2.
    Cols,
    /// The third number of line 2.
    ShipCount,
    /// A ship's first-cell row (ship number from 1).
    ShipRow(usize),
    /// A ship's first-cell column.
    ShipCol(usize),
    /// A ship's size.
    ShipSize(usize),
    /// A ship's orientation letter.
    ShipOrientation(usize),
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Field::Rows => write!(f, "number of rows"),
            Field::Cols => write!(f, "number of columns"),
            Field::ShipCount => write!(f, "number of ships"),
            Field::ShipRow(k) => write!(f, "ship {k}: row"),
            Field::ShipCol(k) => write!(f, "ship {k}: column"),
            Field::ShipSize(k) => write!(f, "ship {k}: size"),
            Field::ShipOrientation(k) => write!(f, "ship {k}: orientation"),
        }
    }
}

/// Why an input was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// No token at all.
    Empty,
    /// The first token is not a strategy name.
    UnknownStrategy {
        /// The token found.
        found: String,
        /// Its line, from 1.
        line: usize,
        /// Valid names.
        valid: Vec<&'static str>,
    },
    /// The input ended before this value.
    Missing {
        /// The value expected.
        field: Field,
        /// Ships declared and ships read, when the value belongs to a ship.
        ships: Option<(u64, usize)>,
    },
    /// A token that is not a whole number where a number was expected.
    NotANumber {
        /// The value expected.
        field: Field,
        /// The token found.
        token: String,
        /// Its line, from 1.
        line: usize,
    },
    /// A negative number.
    Negative {
        /// The value expected.
        field: Field,
        /// The token found.
        token: String,
        /// Its line, from 1.
        line: usize,
    },
    /// A number too large to represent.
    TooLarge {
        /// The value expected.
        field: Field,
        /// The token found.
        token: String,
        /// Its line, from 1.
        line: usize,
    },
    /// An orientation other than `E` or `S`.
    BadOrientation {
        /// Ship number, from 1.
        ship: usize,
        /// The token found.
        token: String,
        /// Its line, from 1.
        line: usize,
    },
    /// Something after the last declared ship.
    Trailing {
        /// The extra token.
        token: String,
        /// Its line, from 1.
        line: usize,
        /// Ships declared.
        ships: u64,
    },
    /// The ships do not make a valid board.
    Board(BoardError),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Empty => write!(f, "empty input: expected a strategy name on the first line"),
            InputError::UnknownStrategy { found, line, valid } => {
                write!(f, "unknown strategy `{found}` (line {line}); valid names: {}", valid.join(", "))
            }
            InputError::Missing { field, ships: None } => write!(f, "{field} is missing: the input ended"),
            InputError::Missing { field, ships: Some((declared, read)) } => write!(
                f,
                "{field} is missing: the input ended after {read} complete ship(s), but {declared} were declared"
            ),
            InputError::NotANumber { field, token, line } => {
                write!(f, "{field}: expected a whole number, found `{token}` (line {line})")
            }
            InputError::Negative { field, token, line } => {
                write!(f, "{field}: `{token}` is negative (line {line})")
            }
            InputError::TooLarge { field, token, line } => {
                write!(f, "{field}: `{token}` is too large (line {line})")
            }
            InputError::BadOrientation { ship, token, line } => {
                write!(f, "ship {ship}: orientation must be E or S, found `{token}` (line {line})")
            }
            InputError::Trailing { token, line, ships } => {
                write!(f, "unexpected `{token}` on line {line} after the last of the {ships} declared ship(s)")
            }
            InputError::Board(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for InputError {}

impl From<BoardError> for InputError {
    fn from(e: BoardError) -> InputError {
        InputError::Board(e)
    }
}

/// A token and the line it starts on.
struct Token<'a> {
    text: &'a [u8],
    line: usize,
}

/// Splits `bytes` into whitespace-separated tokens, tracking line numbers.
struct Tokens<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;
    fn next(&mut self) -> Option<Token<'a>> {
        while let Some(&b) = self.bytes.get(self.at) {
            if !b.is_ascii_whitespace() {
                break;
            }
            if b == b'\n' {
                self.line += 1;
            }
            self.at += 1;
        }
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(|b| !b.is_ascii_whitespace()) {
            self.at += 1;
        }
        let text = self.bytes.get(start..self.at)?;
        (!text.is_empty()).then_some(Token { text, line: self.line })
    }
}

/// A token as it may be shown in a message: lossy UTF-8, control characters escaped,
/// at most 40 characters.
pub fn shown(text: &[u8]) -> String {
    let lossy = String::from_utf8_lossy(text);
    let mut out: String = lossy.chars().take(40).flat_map(char::escape_debug).collect();
    if lossy.chars().count() > 40 {
        out.push_str("...");
    }
    out
}

/// Reads a whole non-negative number.
fn number(token: Option<Token<'_>>, field: Field, ships: Option<(u64, usize)>) -> Result<u64, InputError> {
    let Some(t) = token else {
        return Err(InputError::Missing { field, ships });
    };
    let (negative, digits) = match t.text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, t.text),
    };
    let token = || shown(t.text);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(InputError::NotANumber { field, token: token(), line: t.line });
    }
    if negative && digits.iter().any(|&d| d != b'0') {
        return Err(InputError::Negative { field, token: token(), line: t.line });
    }
    digits
        .iter()
        .try_fold(0u64, |acc, &d| acc.checked_mul(10)?.checked_add(u64::from(d - b'0')))
        .ok_or_else(|| InputError::TooLarge { field, token: token(), line: t.line })
}

/// Converts a parsed number to `usize`.
fn to_usize(v: u64, field: Field) -> Result<usize, InputError> {
    usize::try_from(v).map_err(|_| InputError::TooLarge { field, token: v.to_string(), line: 0 })
}

/// Parses a whole judge input; `valid` lists the accepted strategy names.
/// Pre: none (any bytes). Post: `Ok` holds a known strategy and a valid board; otherwise
/// the first problem met, reading from the start.
pub fn parse(bytes: &[u8], valid: &[&'static str]) -> Result<JudgeInput, InputError> {
    let mut tokens = Tokens { bytes, at: 0, line: 1 };
    let name = tokens.next().ok_or(InputError::Empty)?;
    let strategy = String::from_utf8_lossy(name.text).into_owned();
    if !valid.contains(&strategy.as_str()) {
        return Err(InputError::UnknownStrategy { found: shown(name.text), line: name.line, valid: valid.to_vec() });
    }
    let rows = to_usize(number(tokens.next(), Field::Rows, None)?, Field::Rows)?;
    let cols = to_usize(number(tokens.next(), Field::Cols, None)?, Field::Cols)?;
    Board::check_size(rows, cols)?;
    let declared = number(tokens.next(), Field::ShipCount, None)?;
    let mut ships = Vec::new();
    for k in 1..=declared {
        let context = Some((declared, ships.len()));
        let row = to_usize(number(tokens.next(), Field::ShipRow(k as usize), context)?, Field::ShipRow(k as usize))?;
        let col = to_usize(number(tokens.next(), Field::ShipCol(k as usize), context)?, Field::ShipCol(k as usize))?;
        let size = to_usize(number(tokens.next(), Field::ShipSize(k as usize), context)?, Field::ShipSize(k as usize))?;
        let orientation = match tokens.next() {
            None => return Err(InputError::Missing { field: Field::ShipOrientation(k as usize), ships: context }),
            Some(t) => match t.text {
                b"E" => Orientation::East,
                b"S" => Orientation::South,
                other => {
                    return Err(InputError::BadOrientation { ship: k as usize, token: shown(other), line: t.line })
                }
            },
        };
        ships.push(Ship::new(Position::new(row, col), size, orientation));
    }
    if let Some(t) = tokens.next() {
        return Err(InputError::Trailing { token: shown(t.text), line: t.line, ships: declared });
    }
    Ok(JudgeInput { strategy, board: Board::new(rows, cols, ships)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 3] = ["linear", "smart", "prob"];

    fn err(text: &str) -> InputError {
        parse(text.as_bytes(), &NAMES).unwrap_err()
    }

    #[test]
    fn parses_a_sample_with_any_whitespace() {
        let input = parse(b"prob\r\n5 6 2\r\n1 1 4 E\n\t3 3 2 S\r\n", &NAMES).unwrap();
        assert_eq!(input.strategy, "prob");
        assert_eq!((input.board.rows(), input.board.cols(), input.board.ships().len()), (5, 6, 2));
    }

    #[test]
    fn reports_each_problem() {
        assert_eq!(err(""), InputError::Empty);
        assert_eq!(err(" \n\t"), InputError::Empty);
        assert!(matches!(err("fast 1 1 0"), InputError::UnknownStrategy { .. }));
        assert_eq!(err("prob"), InputError::Missing { field: Field::Rows, ships: None });
        assert!(matches!(err("prob x 1 0"), InputError::NotANumber { field: Field::Rows, .. }));
        assert!(matches!(err("prob 1 -1 0"), InputError::Negative { field: Field::Cols, .. }));
        assert!(matches!(err("prob 1 99999999999999999999 0"), InputError::TooLarge { field: Field::Cols, .. }));
        assert!(matches!(err("prob 0 1 0"), InputError::Board(BoardError::EmptyBoard { .. })));
        assert!(matches!(
            err("prob 1 1 2 0 0 1 E"),
            InputError::Missing { field: Field::ShipRow(2), ships: Some((2, 1)) }
        ));
        assert!(matches!(err("prob 2 2 1 0 0 1 N"), InputError::BadOrientation { ship: 1, .. }));
        assert!(matches!(err("prob 2 2 1 0 0 1 E\nextra"), InputError::Trailing { line: 2, .. }));
        assert!(matches!(err("prob 2 2 1 0 0 1 e"), InputError::BadOrientation { ship: 1, .. }));
    }

    #[test]
    fn negative_zero_is_zero() {
        assert!(matches!(err("prob -0 1 0"), InputError::Board(BoardError::EmptyBoard { .. })));
    }

    #[test]
    fn shown_escapes_and_truncates() {
        assert_eq!(shown(b"a\x01b"), "a\\u{1}b");
        assert_eq!(shown(&[b'x'; 50]), format!("{}...", "x".repeat(40)));
        assert_eq!(shown(&[0xff]), "\u{fffd}");
    }
}

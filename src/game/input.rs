//! The judge input: strategy name, `rows cols n`, then `n` ships `row col size E|S`.
//! Read as whitespace-separated tokens (spaces, tabs, CR, LF), so line breaks inside
//! the ship list do not matter. Every problem is a typed [`InputError`] that names the
//! token, the line, and the ship (counted from 1).
//!
//! Under rules whose fleet has drawn ships (a fleet file, `--rules starwars`), a ship
//! is `row col K T` instead: the top-left corner of its drawing's box, its number K in
//! the fleet file (from 1), and its turn T: `N` as drawn, `E` a quarter turn
//! clockwise, `S` a half turn, `W` three quarters (only `N` when ships may not turn).

use crate::game::board::{Board, BoardBuilder, BoardError};
use crate::game::position::{Orientation, Position};
use crate::game::rules::Rules;
use crate::game::shape::Shape;
use crate::game::ship::Ship;
use crate::limits::TOKEN_BYTES;
use crate::text::shown;
use std::fmt;
use std::io::{self, BufRead};

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
    /// A drawn ship's number in the fleet.
    ShipKind(usize),
    /// A drawn ship's turn letter.
    ShipTurn(usize),
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
            Field::ShipKind(k) => write!(f, "ship {k}: number in the fleet"),
            Field::ShipTurn(k) => write!(f, "ship {k}: turn"),
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
    /// A drawn ship's number that is not a ship of the fleet.
    BadKind {
        /// Ship number, from 1.
        ship: usize,
        /// The number given.
        kind: u64,
        /// Ships in the fleet file.
        kinds: usize,
        /// Its line, from 1.
        line: usize,
    },
    /// A drawn ship's turn that is not N, E, S or W (or not N when ships may not turn).
    BadTurn {
        /// Ship number, from 1.
        ship: usize,
        /// The token found.
        token: String,
        /// Its line, from 1.
        line: usize,
        /// True when the rules forbid turning ships.
        fixed: bool,
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
    /// More ships declared than the board can hold.
    TooManyShips {
        /// Ships declared.
        declared: u64,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
        /// The most ships it can hold under the rules.
        most: u64,
    },
    /// A token longer than [`TOKEN_BYTES`] bytes.
    LongToken {
        /// Its line, from 1.
        line: usize,
    },
    /// The input could not be read.
    Read(String),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Empty => write!(f, "empty input: expected a strategy name on the first line"),
            InputError::UnknownStrategy { found, line, valid } => {
                let hint = crate::text::did_you_mean(found, valid);
                write!(f, "unknown strategy `{found}` (line {line}); {hint}valid names: {}", valid.join(", "))
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
            InputError::BadKind { ship, kind, kinds, line } => write!(
                f,
                "ship {ship}: {kind} is not the number of a ship of the fleet file (1 to {kinds}) (line {line})"
            ),
            InputError::BadTurn { ship, token, line, fixed: false } => {
                write!(f, "ship {ship}: turn must be N, E, S or W, found `{token}` (line {line})")
            }
            InputError::BadTurn { ship, token, line, fixed: true } => {
                write!(
                    f,
                    "ship {ship}: ships may not turn here (rotate=no): turn must be N, found `{token}` (line {line})"
                )
            }
            InputError::Trailing { token, line, ships } => {
                write!(f, "unexpected `{token}` on line {line} after the last of the {ships} declared ship(s)")
            }
            InputError::Board(e) => write!(f, "{e}"),
            InputError::TooManyShips { declared, rows, cols, most } => write!(
                f,
                "{declared} ships are declared, but a {rows}x{cols} board holds at most {most} under these rules"
            ),
            InputError::LongToken { line } => {
                write!(
                    f,
                    "line {line}: a word longer than {TOKEN_BYTES} bytes (no value of a judge input is that long)"
                )
            }
            InputError::Read(e) => write!(f, "{e}"),
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

/// Splits a stream into whitespace-separated tokens, tracking line numbers. Only the
/// current token is kept, so reading costs memory for one token whatever the input.
struct Tokens<'r> {
    reader: &'r mut dyn BufRead,
    line: usize,
    token: Vec<u8>,
}

impl<'r> Tokens<'r> {
    fn new(reader: &'r mut dyn BufRead) -> Tokens<'r> {
        Tokens { reader, line: 1, token: Vec::new() }
    }

    /// The bytes buffered next (empty at the end), retrying interrupted reads.
    fn fill(reader: &mut dyn BufRead) -> Result<&[u8], InputError> {
        loop {
            match reader.fill_buf() {
                // The end: asking again would wait for more at a terminal.
                Ok([]) => return Ok(&[]),
                Ok(_) => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(InputError::Read(e.to_string())),
            }
        }
        // Bytes are buffered: this returns them without reading.
        reader.fill_buf().map_err(|e| InputError::Read(e.to_string()))
    }

    /// The next token, `None` at the end of the input.
    fn next(&mut self) -> Result<Option<Token<'_>>, InputError> {
        loop {
            let chunk = Tokens::fill(self.reader)?;
            if chunk.is_empty() {
                return Ok(None);
            }
            let blank = chunk.iter().take_while(|b| b.is_ascii_whitespace()).count();
            self.line += chunk.iter().take(blank).filter(|&&b| b == b'\n').count();
            let found = blank < chunk.len();
            self.reader.consume(blank);
            if found {
                break;
            }
        }
        self.token.clear();
        loop {
            let chunk = Tokens::fill(self.reader)?;
            let n = chunk.iter().take_while(|b| !b.is_ascii_whitespace()).count();
            if self.token.len() + n > TOKEN_BYTES {
                return Err(InputError::LongToken { line: self.line });
            }
            self.token.extend_from_slice(chunk.get(..n).unwrap_or_default());
            let ended = n < chunk.len() || chunk.is_empty();
            self.reader.consume(n);
            if ended {
                break;
            }
        }
        Ok(Some(Token { text: &self.token, line: self.line }))
    }
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

/// Parses a whole judge input under Problem G's rules; `valid` lists the accepted
/// strategy names.
/// Pre: none (any bytes). Post: `Ok` holds a known strategy and a valid board; otherwise
/// the first problem met, reading from the start.
pub fn parse(bytes: &[u8], valid: &[&'static str]) -> Result<JudgeInput, InputError> {
    parse_under(bytes, valid, &Rules::problem_g())
}

/// The turn letters of a drawn ship, by number of quarter turns clockwise.
const TURNS: [u8; 4] = [b'N', b'E', b'S', b'W'];

/// Parses a whole judge input under `rules` (which say whether ships may touch, and
/// whether ships are written `row col size E|S` or, for a drawn fleet, `row col K T`).
/// Pre: none (any bytes). Post: as [`read_under`] of the bytes.
pub fn parse_under(bytes: &[u8], valid: &[&'static str], rules: &Rules) -> Result<JudgeInput, InputError> {
    read_under(&mut &bytes[..], valid, rules)
}

/// The most ships a `rows` x `cols` bay can hold: one per cell when ships may touch,
/// else one per 2x2 block (a ship and its water).
/// Pre: none. Post: at least 1.
pub fn most_ships(rows: usize, cols: usize, touch: bool) -> u64 {
    let n = if touch { rows.saturating_mul(cols) } else { rows.div_ceil(2).saturating_mul(cols.div_ceil(2)) };
    n as u64
}

/// Reads a judge input from `reader` under `rules`, one token at a time: each ship is
/// checked as it is read (so the first bad ship stops the reading), and reading stops
/// at the first token after the last ship. Memory grows with the board and its ships,
/// never with the bytes read.
/// Pre: none (any bytes). Post: `Ok` holds a known strategy and a valid board; otherwise
/// the first problem met, reading from the start.
pub fn read_under(reader: &mut dyn BufRead, valid: &[&'static str], rules: &Rules) -> Result<JudgeInput, InputError> {
    let mut tokens = Tokens::new(reader);
    let name = tokens.next()?.ok_or(InputError::Empty)?;
    let strategy = String::from_utf8_lossy(name.text).into_owned();
    if !valid.contains(&strategy.as_str()) {
        return Err(InputError::UnknownStrategy { found: shown(name.text), line: name.line, valid: valid.to_vec() });
    }
    let rows = to_usize(number(tokens.next()?, Field::Rows, None)?, Field::Rows)?;
    let cols = to_usize(number(tokens.next()?, Field::Cols, None)?, Field::Cols)?;
    Board::check_size(rows, cols)?;
    let declared = number(tokens.next()?, Field::ShipCount, None)?;
    let most = most_ships(rows, cols, rules.touch());
    if declared > most {
        return Err(InputError::TooManyShips { declared, rows, cols, most });
    }
    let mut board = BoardBuilder::new(rows, cols, rules)?;
    board.reserve(declared as usize)?;
    let drawn = !rules.fleet().is_straight();
    for k in 1..=declared {
        let ship = k as usize;
        let context = Some((declared, board.len()));
        let row = to_usize(number(tokens.next()?, Field::ShipRow(ship), context)?, Field::ShipRow(ship))?;
        let col = to_usize(number(tokens.next()?, Field::ShipCol(ship), context)?, Field::ShipCol(ship))?;
        let start = Position::new(row, col);
        if !drawn {
            let size = to_usize(number(tokens.next()?, Field::ShipSize(ship), context)?, Field::ShipSize(ship))?;
            let orientation = match tokens.next()? {
                None => return Err(InputError::Missing { field: Field::ShipOrientation(ship), ships: context }),
                Some(t) => match t.text {
                    b"E" => Orientation::East,
                    b"S" => Orientation::South,
                    other => return Err(InputError::BadOrientation { ship, token: shown(other), line: t.line }),
                },
            };
            if !(crate::game::ship::MIN_SHIP..=crate::game::ship::MAX_SHIP).contains(&size) {
                return Err(InputError::Board(BoardError::BadSize { ship, size }));
            }
            board.add(Ship::new(start, size, orientation))?;
            continue;
        }
        let kinds = rules.fleet().kinds();
        let Some(t) = tokens.next()? else {
            return Err(InputError::Missing { field: Field::ShipKind(ship), ships: context });
        };
        let line = t.line;
        let number = number(Some(t), Field::ShipKind(ship), context)?;
        let Some(kind) = usize::try_from(number).ok().and_then(|n| n.checked_sub(1)).and_then(|n| kinds.get(n)) else {
            return Err(InputError::BadKind { ship, kind: number, kinds: kinds.len(), line });
        };
        let Some(t) = tokens.next()? else {
            return Err(InputError::Missing { field: Field::ShipTurn(ship), ships: context });
        };
        let turns = TURNS.iter().position(|&c| t.text == [c]);
        let shape = match turns {
            Some(0) => kind.shape,
            Some(n) if rules.rotate() => (0..n).fold(kind.shape, |s, _| s.rotated()),
            _ => return Err(InputError::BadTurn { ship, token: shown(t.text), line: t.line, fixed: !rules.rotate() }),
        };
        board.add(Ship::drawn(start, shape))?;
    }
    if let Some(t) = tokens.next()? {
        return Err(InputError::Trailing { token: shown(t.text), line: t.line, ships: declared });
    }
    Ok(JudgeInput { strategy, board: board.finish()? })
}

/// The one writer of a judge input: the strategy, then `rows cols n`, then the ships
/// as [`ship_text`] writes them, `per_line` to a line (`usize::MAX`: all on the third
/// line, as the statement's samples are), and an empty third line when there are none.
/// Pre: `per_line >= 1`; the ships are valid under `rules`. Post: ends with a line
/// break; [`parse_under`] reads it back as the same board.
pub fn text(strategy: &str, rows: usize, cols: usize, ships: &[Ship], rules: &Rules, per_line: usize) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(32 + ships.len() * 16);
    let _ = writeln!(out, "{strategy}\n{rows} {cols} {}", ships.len());
    for (k, ship) in ships.iter().enumerate() {
        let last = k + 1 == ships.len() || (k + 1) % per_line.max(1) == 0;
        let _ = write!(out, "{}{}", ship_text(ship, rules), if last { "\n" } else { " " });
    }
    if ships.is_empty() {
        out.push('\n');
    }
    out
}

/// A ship as a judge input writes it under `rules`: `row col size E|S`, or for a drawn
/// fleet `row col K T` (see the module notes).
/// Pre: a drawn ship is a turn of a kind of the rules' fleet. Post: `parse_under` reads
/// it back as the same ship.
pub fn ship_text(ship: &Ship, rules: &Rules) -> String {
    if rules.fleet().is_straight() {
        return ship.to_string();
    }
    for (k, kind) in rules.fleet().kinds().iter().enumerate() {
        let mut shape: Shape = kind.shape;
        for letter in TURNS {
            if shape == ship.shape {
                return format!("{} {} {} {}", ship.start.row, ship.start.col, k + 1, char::from(letter));
            }
            shape = shape.rotated();
        }
    }
    ship.to_string()
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
            err("prob 3 3 2 0 0 1 E"),
            InputError::Missing { field: Field::ShipRow(2), ships: Some((2, 1)) }
        ));
        assert!(matches!(err("prob 2 2 1 0 0 1 N"), InputError::BadOrientation { ship: 1, .. }));
        assert!(matches!(err("prob 2 2 1 0 0 1 E\nextra"), InputError::Trailing { line: 2, .. }));
        assert!(matches!(err("prob 2 2 1 0 0 1 e"), InputError::BadOrientation { ship: 1, .. }));
    }

    #[test]
    fn drawn_fleets_use_numbers_and_turns() {
        let rules = Rules::preset("starwars").unwrap();
        let written = "bayes\n9 9 4\n0 0 1 N 0 1 2 N 4 0 3 N 0 4 4 N\n";
        let input = parse_under(written.as_bytes(), &["bayes"], &rules).unwrap();
        assert_eq!(input.board.ship_cells(), 21);
        let again: Vec<String> = input.board.ships().map(|s| ship_text(&s, &rules)).collect();
        assert_eq!(again, vec!["0 0 1 N", "0 1 2 N", "4 0 3 N", "0 4 4 N"]);
        let ships: Vec<Ship> = input.board.ships().collect();
        assert_eq!(text(&input.strategy, 9, 9, &ships, &rules, usize::MAX), written);
        assert_eq!(text("bayes", 9, 9, &ships, &rules, 3), "bayes\n9 9 4\n0 0 1 N 0 1 2 N 4 0 3 N\n0 4 4 N\n");
        assert_eq!(text("prob", 2, 3, &[], &rules, 8), "prob\n2 3 0\n\n");
        let e = |t: &str, r: &Rules| parse_under(t.as_bytes(), &["bayes"], r).unwrap_err();
        assert!(matches!(e("bayes 9 9 1 0 0 5 N", &rules), InputError::BadKind { ship: 1, kind: 5, kinds: 4, .. }));
        assert!(matches!(e("bayes 9 9 1 0 0 1 E", &rules), InputError::BadTurn { fixed: true, .. }));
        assert!(matches!(
            e("bayes 9 9 1 0 0 1 Q", &rules.clone().with_rotate(true)),
            InputError::BadTurn { fixed: false, .. }
        ));
        let ell =
            rules.clone().with_rotate(true).with_fleet(crate::game::fleet::Fleet::parse_file("L\nX.\nXX\n").unwrap());
        let turned = parse_under(b"bayes 9 9 1 0 0 1 E", &["bayes"], &ell).unwrap();
        assert_eq!(turned.board.ship(0).unwrap().shape.drawing(), vec!["XX", "X."]);
        // Under classic rules ships may touch.
        let classic = Rules::preset("classic").unwrap();
        assert!(parse_under(b"prob 5 6 2 1 1 2 E 1 3 1 E", &["prob"], &classic).is_ok());
        assert!(parse(b"prob 5 6 2 1 1 2 E 1 3 1 E", &["prob"]).is_err());
    }

    #[test]
    fn refuses_early_and_stops_reading() {
        // More ships than the bay can hold: refused before any ship is read.
        assert_eq!(err("prob 3 3 5"), InputError::TooManyShips { declared: 5, rows: 3, cols: 3, most: 4 });
        let classic = Rules::preset("classic").unwrap();
        let e = parse_under(b"prob 3 3 10", &NAMES, &classic).unwrap_err();
        assert!(matches!(e, InputError::TooManyShips { most: 9, .. }), "{e:?}");
        assert!(err(&format!("prob 1 1 {}", "1".repeat(TOKEN_BYTES + 1))).to_string().contains("longer than 1000"));
        // A reader that fails past the point of interest proves the parser stopped there.
        struct Then<'a>(&'a [u8]);
        impl io::Read for Then<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::other("read past the end"));
                }
                let n = buf.len().min(self.0.len()).min(3);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let stops = |text: &str| {
            let mut r = io::BufReader::with_capacity(4, Then(text.as_bytes()));
            read_under(&mut r, &NAMES, &Rules::problem_g()).unwrap_err()
        };
        assert!(matches!(stops("prob 5 5 2 0 0 9 E "), InputError::Board(BoardError::BadSize { ship: 1, .. })));
        assert!(matches!(stops("prob 5 5 2 0 0 2 E 0 1 1 S "), InputError::Board(BoardError::Overlap { .. })));
        assert!(matches!(stops("prob 5 5 1 0 0 2 E x y"), InputError::Trailing { .. }));
        assert!(matches!(stops("prob 5 5 1 0 0 2 E "), InputError::Read(_)));
    }

    #[test]
    fn negative_zero_is_zero() {
        assert!(matches!(err("prob -0 1 0"), InputError::Board(BoardError::EmptyBoard { .. })));
    }
}

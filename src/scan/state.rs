//! The state file `advise` reads (`state.txt`): what is known of a bay written by hand,
//! one line per row, one character per cell: `.` unknown, `X` (or `x`) water, `+` a hit,
//! `#` a cell of a ship already sunk (a wreck).
//!
//! [`read`] (and [`parse`], its form for bytes in memory) turns the text into what is
//! known as every scan keeps it, a [`ScanRecord`] (`X` a miss, `+` a hit, `#`
//! eliminated), and the set of wrecks. What the rules then settle is
//! [`crate::scan::deduce`]'s; whether the answers can be true, [`crate::scan::check`]'s.
//!
//! It lives in `scan` rather than `render` (with the other formats) because it builds a
//! scan's record, and `render` sits below `scan` (`scan` quotes `render`'s words).

use crate::game::cellset::CellSet;
use crate::game::position::Position;
use crate::limits::memory::{OutOfMemory, Shortage};
use crate::limits::ADVISE_CELLS;
use crate::render::words::count;
use crate::scan::record::{CellState, ScanRecord};
use std::fmt;

/// Why a state file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StateError {
    /// No row at all.
    Empty,
    /// A row whose length differs from the first row's.
    Ragged {
        /// The row (from 0).
        row: usize,
        /// Its number of cells.
        found: usize,
        /// The first row's number of cells.
        expected: usize,
    },
    /// A character that is not `.`, `X`, `x`, `+` or `#`.
    BadChar {
        /// Where.
        pos: Position,
        /// What.
        ch: char,
    },
    /// Blank lines before the first row (lines 1 to `blank`).
    BlankStart {
        /// How many.
        blank: usize,
    },
    /// Reading the grid failed (the message names the stream).
    Read(String),
    /// More cells than [`ADVISE_CELLS`].
    TooLarge {
        /// Rows read so far.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// The memory for the grid could not be had.
    Memory(Shortage),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Empty => write!(f, "empty input: expected a grid of `.`, `X` and `+`, one line per row"),
            StateError::Ragged { row, found, expected } => {
                write!(f, "row {row} has {found} cells but row 0 has {expected}; every row must have the same length")
            }
            StateError::BadChar { pos, ch } => write!(
                f,
                "cell {pos} (row {}, column {}) holds `{}`, not one of `.` (unknown), `X` (water), `+` (hit), `#` (sunk)",
                pos.row,
                pos.col,
                crate::render::words::escaped(&ch.to_string())
            ),
            StateError::BlankStart { blank } => {
                let lines = if *blank == 1 { "line 1 is".to_string() } else { format!("lines 1 to {blank} are") };
                write!(f, "{lines} blank: the grid must start on the first line")
            }
            StateError::Read(e) => write!(f, "{e}"),
            StateError::TooLarge { rows, cols } => {
                write!(f, "the grid has at least {} of {cols} cells, more than {ADVISE_CELLS} cells", count(*rows, "row"))
            }
            StateError::Memory(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StateError {}

/// Reads a grid: lines split on `\n` (a `\r` before it is dropped), trailing empty
/// lines ignored; `.` is unknown, `X` or `x` a miss, `+` a hit, `#` a cell of a ship
/// already sunk (a wreck: eliminated in the record, and a member of the set).
/// Pre: none. Post: `Ok((known, wrecks))`: `known` has at least one row and one column
/// (all rows equally long), its hits and misses the grid's `+` and `X`, its eliminated
/// cells exactly the members of `wrecks` (capacity `rows * cols`), no answer log;
/// errors name the first bad row or cell.
pub fn parse(bytes: &[u8]) -> Result<(ScanRecord, CellSet), StateError> {
    read(&mut &*bytes)
}

/// Reads a grid as [`parse`] does, from a stream: it keeps the record (two bits a cell)
/// and nothing else, so blank lines and long lines cost no memory, and it stops at the
/// first error (blank lines before the first row are counted to the first row, or to
/// the end of an input that has no row).
/// Pre: none. Post: as `parse`; `Read` when the stream fails.
pub fn read(input: &mut dyn std::io::BufRead) -> Result<(ScanRecord, CellSet), StateError> {
    let mut g = GridReader::default();
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(StateError::Read(e.to_string())),
        };
        if chunk.is_empty() {
            break;
        }
        let n = chunk.len();
        for (k, &b) in chunk.iter().enumerate() {
            g.byte(b, chunk.get(k..).unwrap_or_default())?;
        }
        input.consume(n);
    }
    g.finish()
}

/// The error for memory refused while the grid was `rows` x `cols`.
fn out_of_memory(rows: usize, cols: usize, e: OutOfMemory) -> StateError {
    StateError::Memory(Shortage::of(rows, cols, e))
}

/// The state of [`read`] between bytes.
#[derive(Default)]
struct GridReader {
    /// The cells read so far: the first row while it grows, then whole rows and the
    /// current one (its cells beyond the first row's length are not kept).
    known: ScanRecord,
    /// Columns of the first row (`None` until it ends).
    cols: Option<usize>,
    /// Rows ended (blank lines after the grid not counted).
    rows: usize,
    /// Characters in the current line.
    col: usize,
    /// Blank lines before the first row, or after the last.
    blank: usize,
    /// A `\r` waiting to see whether `\n` follows.
    cr: bool,
}

impl GridReader {
    /// Takes one byte; `rest` starts with it (to decode a character that is not ASCII).
    fn byte(&mut self, b: u8, rest: &[u8]) -> Result<(), StateError> {
        if self.cr {
            self.cr = false;
            if b != b'\n' {
                self.cell(b'\r', b"\r")?;
            }
        }
        match b {
            b'\n' => self.end_line(),
            b'\r' => {
                self.cr = true;
                Ok(())
            }
            _ => self.cell(b, rest),
        }
    }

    /// A character of the current line.
    fn cell(&mut self, b: u8, rest: &[u8]) -> Result<(), StateError> {
        if self.col == 0 {
            if self.rows == 0 && self.cols.is_none() && self.blank > 0 {
                return Err(StateError::BlankStart { blank: self.blank });
            }
            if self.blank > 0 {
                // A row after a blank line: the blank line was a row of no cells.
                let expected = self.cols.unwrap_or(0);
                return Err(StateError::Ragged { row: self.rows, found: 0, expected });
            }
            if let Some(cols) = self.cols {
                if (self.rows + 1).saturating_mul(cols) > ADVISE_CELLS {
                    return Err(StateError::TooLarge { rows: self.rows + 1, cols });
                }
            }
        }
        if !matches!(b, b'.' | b'X' | b'x' | b'+' | b'#') {
            let ch = if b < 0x80 {
                char::from(b)
            } else {
                let n = rest.len().min(4);
                (1..=n)
                    .find_map(|k| std::str::from_utf8(rest.get(..k)?).ok()?.chars().next())
                    .unwrap_or(char::REPLACEMENT_CHARACTER)
            };
            return Err(StateError::BadChar { pos: Position::new(self.rows, self.col), ch });
        }
        let (rows, cols) = match self.cols {
            None if self.col >= ADVISE_CELLS => return Err(StateError::TooLarge { rows: 1, cols: self.col + 1 }),
            // Beyond the first row's length: the row is refused when it ends.
            Some(cols) if self.col >= cols => (0, 0),
            // The first row grows a cell at a time, every later row a row at a time.
            None => (1, self.col + 1),
            Some(cols) => (self.rows + 1, cols),
        };
        if rows > 0 {
            if (rows, cols) != (self.known.rows(), self.known.cols()) {
                self.known.try_grow(rows, cols).map_err(|e| out_of_memory(rows, cols, e))?;
            }
            let pos = Position::new(self.rows, self.col);
            match b {
                b'X' | b'x' => self.known.set_probed(pos.index(cols), false),
                b'+' => self.known.set_probed(pos.index(cols), true),
                b'#' => {
                    self.known.mark_eliminated(pos);
                }
                _ => {}
            }
        }
        self.col += 1;
        Ok(())
    }

    /// The end of a line.
    fn end_line(&mut self) -> Result<(), StateError> {
        if self.col == 0 {
            self.blank += 1;
            return Ok(());
        }
        let expected = *self.cols.get_or_insert(self.col);
        if self.col != expected {
            return Err(StateError::Ragged { row: self.rows, found: self.col, expected });
        }
        self.rows += 1;
        self.col = 0;
        Ok(())
    }

    /// The end of the input.
    fn finish(mut self) -> Result<(ScanRecord, CellSet), StateError> {
        self.cr = false;
        if self.col > 0 {
            self.end_line()?;
        }
        let (rows, cols) = match self.cols {
            Some(cols) if self.rows > 0 => (self.rows, cols),
            _ => return Err(StateError::Empty),
        };
        let n = rows * cols;
        let mut wrecks = CellSet::try_new(n).map_err(|e| out_of_memory(rows, cols, e))?;
        for i in (0..n).filter(|&i| self.known.state_at(i) == CellState::Eliminated) {
            wrecks.insert(i);
        }
        Ok((self.known, wrecks))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::Rng;

    fn grid(text: &str) -> (ScanRecord, CellSet) {
        parse(text.as_bytes()).unwrap()
    }

    /// The plain reading of a valid grid's lines, to compare the streaming reader with.
    fn plain(lines: &[String]) -> (ScanRecord, Vec<bool>) {
        let cols = lines[0].len();
        let mut known = ScanRecord::new(lines.len(), cols);
        let mut wrecks = Vec::new();
        for (r, line) in lines.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                let p = Position::new(r, c);
                match ch {
                    'X' | 'x' => known.set_probed(p.index(cols), false),
                    '+' => known.set_probed(p.index(cols), true),
                    '#' => assert!(known.mark_eliminated(p)),
                    _ => {}
                }
                wrecks.push(ch == '#');
            }
        }
        (known, wrecks)
    }

    #[test]
    fn parses_lines_crlf_and_wrecks() {
        let (g, wrecks) = grid(".X+\r\n#..\r\n\r\n");
        assert_eq!((g.rows(), g.cols(), g.hits(), g.scans()), (2, 3, 1, 2));
        assert_eq!(g.state(Position::new(0, 1)), CellState::Miss);
        assert_eq!(g.state(Position::new(0, 2)), CellState::Hit);
        assert_eq!(g.state(Position::new(1, 0)), CellState::Eliminated);
        assert_eq!(g.state(Position::new(1, 1)), CellState::Unknown);
        assert_eq!((wrecks.capacity(), wrecks.count(), wrecks.contains(3)), (6, 1, true));
        assert!(g.answers().is_none());
    }

    #[test]
    fn reads_as_the_plain_reading_does() {
        let mut rng = Rng::new(7);
        for _ in 0..300 {
            let (rows, cols) = (1 + rng.below(40) as usize, 1 + rng.below(70) as usize);
            let lines: Vec<String> = (0..rows)
                .map(|_| (0..cols).map(|_| ['.', '.', 'X', 'x', '+', '#'][rng.below(6) as usize]).collect())
                .collect();
            let text = lines.join("\n") + if rng.below(2) == 0 { "\n" } else { "" };
            let (known, wrecks) = parse(text.as_bytes()).unwrap();
            let (want, want_wrecks) = plain(&lines);
            assert_eq!((known.rows(), known.cols()), (rows, cols));
            assert_eq!((known.scans(), known.hits()), (want.scans(), want.hits()));
            assert_eq!(known.states(), want.states(), "{text}");
            let got: Vec<bool> = (0..rows * cols).map(|i| wrecks.contains(i)).collect();
            assert_eq!(got, want_wrecks);
        }
    }

    #[test]
    fn refuses_bad_text() {
        let parse = |b: &[u8]| parse(b).map(|(g, _)| (g.rows(), g.cols()));
        assert_eq!(parse(b""), Err(StateError::Empty));
        assert_eq!(parse(b"\n\r\n"), Err(StateError::Empty));
        assert!(matches!(parse(b"...\n..\n"), Err(StateError::Ragged { row: 1, found: 2, expected: 3 })));
        assert!(matches!(parse(b"...\n....\n"), Err(StateError::Ragged { row: 1, found: 4, expected: 3 })));
        assert_eq!(parse(b"\n..\n"), Err(StateError::BlankStart { blank: 1 }));
        assert_eq!(parse(b"\n\r\n\n.\n"), Err(StateError::BlankStart { blank: 3 }));
        assert_eq!(parse(b"..\r.\n"), Err(StateError::BadChar { pos: Position::new(0, 2), ch: '\r' }));
        assert_eq!(parse(b".\xc3\xa9\n"), Err(StateError::BadChar { pos: Position::new(0, 1), ch: '\u{e9}' }));
        assert_eq!(parse(b"..\n..\n\n\n"), Ok((2, 2)));
        assert_eq!(parse(b"..\r"), Ok((1, 2)));
        assert!(matches!(parse(b"...\n\n...\n"), Err(StateError::Ragged { row: 1, found: 0, .. })));
        assert_eq!(parse(b"..\n.o\n"), Err(StateError::BadChar { pos: Position::new(1, 1), ch: 'o' }));
        assert_eq!(parse(b". \n"), Err(StateError::BadChar { pos: Position::new(0, 1), ch: ' ' }));
        assert!(matches!(parse(b"\xff"), Err(StateError::BadChar { .. })));
    }

    #[test]
    fn refuses_grids_past_the_limit() {
        let wide = ".".repeat(ADVISE_CELLS + 1);
        assert_eq!(
            parse(wide.as_bytes()).map(|(g, _)| g.cols()),
            Err(StateError::TooLarge { rows: 1, cols: ADVISE_CELLS + 1 })
        );
        let row = format!("{}\n", ".".repeat(1000));
        let tall = row.repeat(ADVISE_CELLS / 1000 + 1);
        assert_eq!(parse(tall.as_bytes()).map(|(g, _)| g.rows()), Err(StateError::TooLarge { rows: 1001, cols: 1000 }));
        assert_eq!(parse(row.repeat(ADVISE_CELLS / 1000).as_bytes()).map(|(g, _)| g.rows()), Ok(1000));
    }
}

//! A knowledge grid written by hand (what `advise` reads): one line per row, one
//! character per cell, `.` unknown, `X` water (a miss or known water), `+` a hit.
//!
//! [`parse`] reads the text, [`StateGrid::runs`] checks that the hits can belong to
//! non-touching straight ships and lists their runs, and [`StateGrid::deduce`] derives
//! the cells the rules settle, with or without the fleet's sizes:
//! * the diagonal neighbours of a hit are water (ships never touch);
//! * a run of hits closed at both ends by water or the edge is a whole ship: its size
//!   leaves the fleet (it must be in it);
//! * an open run as long as the largest ship still unfinished (5 without a fleet) is a
//!   whole ship too: the cells beyond its ends are water;
//! * with a fleet, once every ship cell is hit every unknown cell is water;
//! * with a fleet, an open run shorter than every unfinished ship that can grow at only
//!   one end is certainly continued there: that cell is a ship cell.
//!
//! Every rule is sound: it never marks a cell that some valid layout agreeing with the
//! grid would contradict. Inconsistent grids are refused with the cell at fault.

use crate::game::position::Position;
use crate::game::ship::MAX_SHIP;
use crate::limits::ADVISE_CELLS;
use crate::render::words::count;
use crate::scan::record::CellState;
use crate::scan::runs::{self, Run, RunError};
use std::fmt;

/// Why a grid was refused.
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
    /// A character that is not `.`, `X` or `+`.
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
    /// Two hits touching diagonally (also how a bent shape shows).
    DiagonalHits {
        /// The first hit in row-major order.
        first: Position,
        /// Its diagonal neighbour.
        second: Position,
    },
    /// A straight run of hits longer than any ship that can hold it.
    RunTooLong {
        /// Its first cell (top or left end).
        start: Position,
        /// Its length.
        len: usize,
        /// The longest ship that could hold it.
        max: usize,
    },
    /// More hits than the fleet has ship cells.
    TooManyHits {
        /// Hits in the grid.
        hits: usize,
        /// Ship cells of the fleet.
        cells: usize,
    },
    /// Fewer cells left that may hold a ship than ship cells still missing.
    NoRoom {
        /// Ship cells of the fleet not hit yet.
        missing: usize,
        /// Unknown cells not known to be water.
        open: usize,
    },
    /// A hit next to a sunk ship's cell, when ships never touch.
    TouchesWreck {
        /// The hit.
        hit: Position,
        /// The sunk ship's cell.
        wreck: Position,
    },
    /// A run that must be a whole ship, of a size the fleet has no (more) ship of.
    NotInFleet {
        /// Its first cell.
        start: Position,
        /// Its length.
        len: usize,
    },
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
            StateError::DiagonalHits { first, second } => {
                write!(f, "the hits {first} and {second} touch diagonally, and ships never touch")
            }
            StateError::RunTooLong { start, len, max } => write!(
                f,
                "the {len} hits in a line from {start} are longer than any ship that can hold them ({max} cells)"
            ),
            StateError::TooManyHits { hits, cells } => {
                write!(f, "the grid has {} but the fleet has only {}", count(*hits, "hit"), count(*cells, "ship cell"))
            }
            StateError::NoRoom { missing, open } => write!(
                f,
                "{} of the fleet {} still missing but only {} may hold {}",
                count(*missing, "ship cell"),
                if *missing == 1 { "is" } else { "are" },
                count(*open, "unknown cell"),
                if *missing == 1 { "it" } else { "them" }
            ),
            StateError::TouchesWreck { hit, wreck } => {
                write!(f, "the hit {hit} touches the sunk ship's cell {wreck}, and ships never touch")
            }
            StateError::NotInFleet { start, len } => {
                let hits = if *len == 1 { format!("the hit at {start} must be") } else { format!("the {len} hits from {start} must form") };
                write!(f, "{hits} a whole ship, but the fleet has no more ships of {}", count(*len, "cell"))
            }
        }
    }
}

impl std::error::Error for StateError {}

/// A parsed grid: the state of every cell, row-major.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateGrid {
    rows: usize,
    cols: usize,
    cells: Vec<CellState>,
    /// Cells of ships already sunk (`#`), which read as known (`Eliminated`) in `cells`.
    wrecks: Vec<bool>,
}

/// Reads a grid: lines split on `\n` (a `\r` before it is dropped), trailing empty
/// lines ignored; `.` is `Unknown`, `X` or `x` is `Miss`, `+` is `Hit`, `#` a cell of
/// a ship already sunk (a wreck: `Eliminated` in the states, and marked in `wrecks`).
/// Pre: none. Post: `Ok` grids have at least one row and one column, all rows equally
/// long; errors name the first bad row or cell.
pub fn parse(bytes: &[u8]) -> Result<StateGrid, StateError> {
    read(&mut &*bytes)
}

/// Reads a grid as [`parse`] does, from a stream: it keeps the cells (two bytes each)
/// and nothing else, so blank lines and long lines cost no memory, and it stops at the
/// first error (blank lines before the first row are counted to the first row, or to
/// the end of an input that has no row).
/// Pre: none. Post: as `parse`; `Read` when the stream fails.
pub fn read(input: &mut dyn std::io::BufRead) -> Result<StateGrid, StateError> {
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

/// The state of [`read`] between bytes.
#[derive(Default)]
struct GridReader {
    cells: Vec<CellState>,
    wrecks: Vec<bool>,
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
        let state = match b {
            b'.' => CellState::Unknown,
            b'X' | b'x' => CellState::Miss,
            b'+' => CellState::Hit,
            b'#' => CellState::Eliminated,
            _ => {
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
        };
        match self.cols {
            None if self.col >= ADVISE_CELLS => return Err(StateError::TooLarge { rows: 1, cols: self.col + 1 }),
            Some(cols) if self.col >= cols => {}
            _ => {
                self.cells.push(state);
                self.wrecks.push(b == b'#');
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
    fn finish(mut self) -> Result<StateGrid, StateError> {
        self.cr = false;
        if self.col > 0 {
            self.end_line()?;
        }
        match self.cols {
            Some(cols) if self.rows > 0 => {
                Ok(StateGrid { rows: self.rows, cols, cells: self.cells, wrecks: self.wrecks })
            }
            _ => Err(StateError::Empty),
        }
    }
}

/// What the rules settle about the unknown cells of a grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deduction {
    /// Per cell (row-major): known or certain water.
    pub water: Vec<bool>,
    /// Per cell: a hit or a certain ship cell.
    pub ship: Vec<bool>,
    /// Ship sizes not yet finished (largest first), when the fleet is known.
    pub remaining: Option<Vec<usize>>,
}

impl StateGrid {
    /// A grid from its states (row-major).
    /// Pre: none. Post: `None` unless `rows, cols >= 1` and `cells.len() == rows * cols`.
    pub fn new(rows: usize, cols: usize, cells: Vec<CellState>) -> Option<StateGrid> {
        let wrecks = vec![false; cells.len()];
        (rows >= 1 && cols >= 1 && rows.checked_mul(cols) == Some(cells.len())).then_some(StateGrid {
            rows,
            cols,
            cells,
            wrecks,
        })
    }

    /// Number of rows.
    /// Pre: none. Post: at least 1.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    /// Pre: none. Post: at least 1.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The states, row-major (`Unknown`, `Hit` or `Miss`).
    /// Pre: none. Post: `rows * cols` states.
    pub fn cells(&self) -> &[CellState] {
        &self.cells
    }

    /// The state of `pos`; outside the board reads as `Miss` (water).
    /// Pre: none. Post: no change.
    pub fn state(&self, pos: Position) -> CellState {
        if pos.row >= self.rows || pos.col >= self.cols {
            return CellState::Miss;
        }
        self.cells.get(pos.index(self.cols)).copied().unwrap_or(CellState::Miss)
    }

    /// Cells of ships already sunk (`#`), row-major.
    /// Pre: none. Post: `rows * cols` flags.
    pub fn wrecks(&self) -> &[bool] {
        &self.wrecks
    }

    /// The sizes of the sunk ships the wrecks draw, when ships are straight and never
    /// touch (each group of `#` is then one straight ship).
    /// Pre: none. Post: `None` when a group of wrecks is not a straight line of 1 to 5.
    pub fn wreck_sizes(&self) -> Option<Vec<usize>> {
        let as_hits: Vec<CellState> =
            self.wrecks.iter().map(|&w| if w { CellState::Hit } else { CellState::Unknown }).collect();
        runs::find(self.rows, self.cols, &as_hits).ok().map(|found| found.iter().map(|r| r.len).collect())
    }

    /// Number of hits.
    /// Pre: none. Post: no change.
    pub fn hits(&self) -> usize {
        self.cells.iter().filter(|&&s| s == CellState::Hit).count()
    }

    /// The cells `prob` would have blocked: probed ones (`X`, `+`) and the diagonal
    /// neighbours of hits.
    /// Pre: none. Post: `rows * cols` flags.
    pub fn blocked(&self) -> Vec<bool> {
        let mut blocked: Vec<bool> = self.cells.iter().map(|&s| s != CellState::Unknown).collect();
        for (i, &s) in self.cells.iter().enumerate() {
            if s == CellState::Hit {
                for d in Position::from_index(i, self.cols).diagonals(self.rows, self.cols) {
                    if let Some(b) = blocked.get_mut(d.index(self.cols)) {
                        *b = true;
                    }
                }
            }
        }
        blocked
    }

    /// The runs of hits, in row-major order of their first cell ([`runs::find`]).
    /// Pre: none. Post: `Err(DiagonalHits)` for the first hit (row-major) with a hit
    /// diagonal to it below; `Err(RunTooLong)` for a run longer than [`MAX_SHIP`].
    pub fn runs(&self) -> Result<Vec<Run>, StateError> {
        runs::find(self.rows, self.cols, &self.cells).map_err(|e| match e {
            RunError::Diagonal { first, second } => StateError::DiagonalHits { first, second },
            RunError::TooLong { start, len } => StateError::RunTooLong { start, len, max: MAX_SHIP },
        })
    }

    /// Checks the grid against the rules (and `fleet`, when given) and settles what the
    /// module's rules settle.
    /// Pre: `fleet`, if given, holds sizes in 1..=5. Post: `Ok` marks every hit as ship
    /// and every `X` as water, plus the deduced cells; `Err` names the cell or run at fault
    /// (diagonal hits, a run too long, more hits than the fleet, a whole ship of a size
    /// the fleet lacks).
    pub fn deduce(&self, fleet: Option<&[usize]>) -> Result<Deduction, StateError> {
        let (rows, cols) = (self.rows, self.cols);
        let runs = self.runs()?;
        let hits = self.hits();
        if let Some(fleet) = fleet {
            let largest = fleet.iter().copied().max().unwrap_or(0);
            if let Some(run) = runs.iter().find(|r| r.len > largest) {
                return Err(StateError::RunTooLong { start: run.start, len: run.len, max: largest });
            }
            let cells: usize = fleet.iter().sum();
            if hits > cells {
                return Err(StateError::TooManyHits { hits, cells });
            }
        }
        let mut water: Vec<bool> = self.cells.iter().map(|&s| s == CellState::Miss).collect();
        let ship: Vec<bool> = self.cells.iter().map(|&s| s == CellState::Hit).collect();
        let blocked = self.blocked();
        for (w, (&b, &s)) in water.iter_mut().zip(blocked.iter().zip(&ship)) {
            *w = b && !s;
        }
        // The cells around a sunk ship are water.
        for (i, _) in self.wrecks.iter().enumerate().filter(|(_, &w)| w) {
            let p = Position::from_index(i, cols);
            for n in p.orthogonals(rows, cols).chain(p.diagonals(rows, cols)) {
                if self.state(n) == CellState::Hit {
                    return Err(StateError::TouchesWreck { hit: n, wreck: p });
                }
                if let Some(w) = water.get_mut(n.index(cols)) {
                    *w |= !self.wrecks.get(n.index(cols)).copied().unwrap_or(false);
                }
            }
        }
        let is_water = |water: &[bool], p: Position| water.get(p.index(cols)).copied().unwrap_or(true);
        // Closing runs can shrink the largest unfinished size, which closes more runs:
        // at most one round per size.
        let mut remaining: Option<Vec<usize>> = None;
        for _ in 0..=MAX_SHIP + 1 {
            let closed: Vec<bool> =
                runs.iter().map(|r| r.ends(rows, cols).iter().all(|&e| is_water(&water, e))).collect();
            remaining = match fleet {
                None => None,
                Some(fleet) => {
                    let mut left = fleet.to_vec();
                    left.sort_unstable_by(|a, b| b.cmp(a));
                    for (run, _) in runs.iter().zip(&closed).filter(|(_, &c)| c) {
                        match left.iter().position(|&s| s == run.len) {
                            Some(k) => {
                                left.remove(k);
                            }
                            None => return Err(StateError::NotInFleet { start: run.start, len: run.len }),
                        }
                    }
                    Some(left)
                }
            };
            let longest = remaining.as_ref().map_or(MAX_SHIP, |l| l.first().copied().unwrap_or(0));
            let mut changed = false;
            for (run, _) in runs.iter().zip(&closed).filter(|(_, &c)| !c) {
                if run.len > longest {
                    return Err(StateError::RunTooLong { start: run.start, len: run.len, max: longest });
                }
                if run.len == longest {
                    for e in run.ends(rows, cols) {
                        if let Some(w) = water.get_mut(e.index(cols)) {
                            changed |= !*w;
                            *w = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut deduction = Deduction { water, ship, remaining };
        let Some(left) = deduction.remaining.clone() else { return Ok(deduction) };
        let cells: usize = fleet.map_or(0, |f| f.iter().sum());
        if hits == cells {
            for (w, &s) in deduction.water.iter_mut().zip(&self.cells) {
                *w |= s == CellState::Unknown;
            }
            return Ok(deduction);
        }
        let open = self.cells.iter().zip(&deduction.water).filter(|(&s, &w)| s == CellState::Unknown && !w).count();
        if cells - hits > open {
            return Err(StateError::NoRoom { missing: cells - hits, open });
        }
        let shortest = left.last().copied().unwrap_or(0);
        for run in runs.iter().filter(|r| r.len < shortest) {
            let open: Vec<Position> =
                run.ends(rows, cols).into_iter().filter(|&e| !is_water(&deduction.water, e)).collect();
            if let [only] = open[..] {
                if let Some(s) = deduction.ship.get_mut(only.index(cols)) {
                    *s = true;
                }
            }
        }
        Ok(deduction)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(text: &str) -> StateGrid {
        parse(text.as_bytes()).unwrap()
    }

    fn cells_where(flags: &[bool], g: &StateGrid) -> Vec<Position> {
        flags
            .iter()
            .enumerate()
            .filter(|(i, &f)| f && g.cells()[*i] == CellState::Unknown)
            .map(|(i, _)| Position::from_index(i, g.cols()))
            .collect()
    }

    #[test]
    fn parses_lines_and_crlf() {
        let g = grid(".X+\r\n...\r\n\r\n");
        assert_eq!((g.rows(), g.cols(), g.hits()), (2, 3, 1));
        assert_eq!(g.state(Position::new(0, 1)), CellState::Miss);
        assert_eq!(g.state(Position::new(0, 2)), CellState::Hit);
        assert_eq!(g.state(Position::new(5, 5)), CellState::Miss);
        assert_eq!(StateGrid::new(2, 3, g.cells().to_vec()), Some(g));
    }

    #[test]
    fn refuses_bad_text() {
        assert_eq!(parse(b""), Err(StateError::Empty));
        assert_eq!(parse(b"\n\r\n"), Err(StateError::Empty));
        assert!(matches!(parse(b"...\n..\n"), Err(StateError::Ragged { row: 1, found: 2, expected: 3 })));
        assert_eq!(parse(b"\n..\n"), Err(StateError::BlankStart { blank: 1 }));
        assert_eq!(parse(b"\n\r\n\n.\n"), Err(StateError::BlankStart { blank: 3 }));
        assert_eq!(parse(b"..\r.\n"), Err(StateError::BadChar { pos: Position::new(0, 2), ch: '\r' }));
        assert_eq!(parse(b".\xc3\xa9\n"), Err(StateError::BadChar { pos: Position::new(0, 1), ch: '\u{e9}' }));
        assert_eq!(parse(b"..\n..\n\n\n").map(|g| g.rows()), Ok(2));
        assert_eq!(parse(b"..\r").map(|g| g.cols()), Ok(2));
        assert!(matches!(parse(b"...\n\n...\n"), Err(StateError::Ragged { row: 1, found: 0, .. })));
        assert_eq!(parse(b"..\n.o\n"), Err(StateError::BadChar { pos: Position::new(1, 1), ch: 'o' }));
        assert_eq!(parse(b". \n"), Err(StateError::BadChar { pos: Position::new(0, 1), ch: ' ' }));
        assert!(matches!(parse(b"\xff"), Err(StateError::BadChar { .. })));
    }

    #[test]
    fn finds_runs_and_refuses_contacts() {
        let g = grid("++.+\n...+\n+...\n");
        let runs = g.runs().unwrap();
        assert_eq!(runs.len(), 3);
        assert_eq!(runs[0], Run { start: Position::new(0, 0), len: 2, horizontal: true });
        assert_eq!(runs[1], Run { start: Position::new(0, 3), len: 2, horizontal: false });
        assert_eq!(runs[2].cells().collect::<Vec<_>>(), vec![Position::new(2, 0)]);
        assert_eq!(
            grid("...\n.+.\n+..\n").runs(),
            Err(StateError::DiagonalHits { first: Position::new(1, 1), second: Position::new(2, 0) })
        );
        assert_eq!(
            grid("++\n.+\n").runs(),
            Err(StateError::DiagonalHits { first: Position::new(0, 0), second: Position::new(1, 1) })
        );
        assert_eq!(grid("++++++\n").runs(), Err(StateError::RunTooLong { start: Position::new(0, 0), len: 6, max: 5 }));
    }

    #[test]
    fn deduces_diagonals_and_whole_ships() {
        let g = grid(".....\n.+++.\n.....\n.....\n");
        let d = g.deduce(None).unwrap();
        assert_eq!(cells_where(&d.water, &g).len(), 10);
        // Fleet whose largest ship has 3 cells: the run is whole, its ends are water.
        let d = g.deduce(Some(&[3, 2])).unwrap();
        let water = cells_where(&d.water, &g);
        assert!(water.contains(&Position::new(1, 0)) && water.contains(&Position::new(1, 4)));
        assert_eq!(d.remaining, Some(vec![2]));
        assert_eq!(g.deduce(Some(&[2, 2])), Err(StateError::RunTooLong { start: Position::new(1, 1), len: 3, max: 2 }));
        assert_eq!(g.deduce(Some(&[2])), Err(StateError::RunTooLong { start: Position::new(1, 1), len: 3, max: 2 }));
        assert_eq!(g.deduce(Some(&[3])).map(|d| d.remaining), Ok(Some(vec![])));
        let tight = grid(".....\n.+++.\n.....\n");
        assert_eq!(tight.deduce(Some(&[3, 2])), Err(StateError::NoRoom { missing: 2, open: 0 }));
        assert_eq!(grid("+.+\n").deduce(Some(&[1])), Err(StateError::TooManyHits { hits: 2, cells: 1 }));
    }

    #[test]
    fn closing_cascades_and_all_found() {
        // Fleet 3,1: `+++` is whole once 3 is the largest; then everything is found.
        let g = grid("+++..\n.....\n...+.\n");
        let d = g.deduce(Some(&[3, 1])).unwrap();
        assert!(d.water.iter().zip(g.cells()).all(|(&w, &s)| w || s == CellState::Hit));
        // Two whole 3-runs but one 3-ship.
        assert_eq!(
            grid("+++..\n.....\n+++..\n").deduce(Some(&[3, 2, 2, 2])),
            Err(StateError::NotInFleet { start: Position::new(2, 0), len: 3 })
        );
    }

    #[test]
    fn forced_continuation_is_a_ship() {
        // A lone hit in a corner, fleet of 2s: the only open side continues it.
        let g = grid("+X\n..\n");
        let d = g.deduce(Some(&[2])).unwrap();
        assert_eq!(cells_where(&d.ship, &g), vec![Position::new(1, 0)]);
        assert!(d.water[3]);
        assert!(cells_where(&grid("+X\n..\n").deduce(None).unwrap().ship, &g).is_empty());
    }
}

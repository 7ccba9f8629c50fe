//! The shape of a ship: its cells inside the box that bounds them. A straight ship of
//! `n` cells is a 1 x n box, all cells set (or n x 1 when it runs south); a drawn ship
//! (a fleet file's "TIE fighter") is any pattern, its cells not even connected.
//!
//! A shape is a small `Copy` value: the box's size and one bit per box cell (row-major,
//! bit `r * cols + c`), so boxes hold at most [`SHAPE_BOX_CELLS`] cells.

use crate::game::position::Orientation;
use crate::limits::SHAPE_BOX_CELLS;
use std::fmt;

/// A ship's cells, as offsets from the top-left corner of their box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    rows: u8,
    cols: u8,
    mask: u64,
}

/// Why a drawing is not a shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShapeError {
    /// No `X` at all.
    Empty,
    /// Rows of different lengths.
    Ragged {
        /// The row (from 0 within the drawing).
        row: usize,
        /// Its length.
        found: usize,
        /// The first row's length.
        expected: usize,
    },
    /// A character other than `X` and `.`.
    BadChar {
        /// The row (from 0 within the drawing).
        row: usize,
        /// The column.
        col: usize,
        /// What was found.
        ch: char,
    },
    /// A box of more than [`SHAPE_BOX_CELLS`] cells.
    TooLarge {
        /// The box's rows.
        rows: usize,
        /// The box's columns.
        cols: usize,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::Empty => write!(f, "the drawing has no `X` (ship cell)"),
            ShapeError::Ragged { row, found, expected } => {
                write!(f, "drawing row {} has {found} characters but its first row has {expected}", row + 1)
            }
            ShapeError::BadChar { row, col, ch } => write!(
                f,
                "drawing row {}, column {} holds `{}`: only `X` (ship cell) and `.` (gap) are allowed",
                row + 1,
                col + 1,
                crate::text::escaped(&ch.to_string())
            ),
            ShapeError::TooLarge { rows, cols } => {
                write!(f, "the drawing's box is {rows}x{cols}, more than {SHAPE_BOX_CELLS} cells")
            }
        }
    }
}

impl std::error::Error for ShapeError {}

impl Shape {
    /// A straight ship of `size` cells running `orientation`.
    /// Pre: none. Post: `size()` cells in a 1 x size (East) or size x 1 (South) box;
    /// size 0 gives a 1 x 1 box without cells (which boards refuse), sizes over
    /// [`SHAPE_BOX_CELLS`] are cut to it.
    pub fn straight(size: usize, orientation: Orientation) -> Shape {
        if size == 0 {
            return Shape { rows: 1, cols: 1, mask: 0 };
        }
        let n = size.min(SHAPE_BOX_CELLS);
        let mask = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        match orientation {
            Orientation::East => Shape { rows: 1, cols: n as u8, mask },
            Orientation::South => Shape { rows: n as u8, cols: 1, mask },
        }
    }

    /// The shape drawn by `lines`: `X` a ship cell, `.` a gap; all lines equally long.
    /// Rows and columns of gaps around the cells are dropped, so the box is the one
    /// that bounds the cells.
    /// Pre: none. Post: `Err` for no cell, ragged rows, another character, or a box of
    /// more than [`SHAPE_BOX_CELLS`] cells.
    pub fn from_drawing(lines: &[&str]) -> Result<Shape, ShapeError> {
        let width = lines.first().map_or(0, |l| l.chars().count());
        let mut cells = Vec::new();
        for (row, line) in lines.iter().enumerate() {
            let found = line.chars().count();
            if found != width {
                return Err(ShapeError::Ragged { row, found, expected: width });
            }
            for (col, ch) in line.chars().enumerate() {
                match ch {
                    'X' => cells.push((row, col)),
                    '.' => {}
                    _ => return Err(ShapeError::BadChar { row, col, ch }),
                }
            }
        }
        Shape::from_cells(&cells)
    }

    /// The shape of `cells` (row, column pairs, any offset, any order).
    /// Pre: none. Post: `Err(Empty)` without cells, `Err(TooLarge)` for a box over
    /// [`SHAPE_BOX_CELLS`] cells.
    pub fn from_cells(cells: &[(usize, usize)]) -> Result<Shape, ShapeError> {
        let (Some(r0), Some(c0)) = (cells.iter().map(|c| c.0).min(), cells.iter().map(|c| c.1).min()) else {
            return Err(ShapeError::Empty);
        };
        let rows = cells.iter().map(|c| c.0 - r0).max().unwrap_or(0) + 1;
        let cols = cells.iter().map(|c| c.1 - c0).max().unwrap_or(0) + 1;
        if rows.saturating_mul(cols) > SHAPE_BOX_CELLS {
            return Err(ShapeError::TooLarge { rows, cols });
        }
        let mask = cells.iter().fold(0u64, |m, &(r, c)| m | 1 << ((r - r0) * cols + (c - c0)));
        Ok(Shape { rows: rows as u8, cols: cols as u8, mask })
    }

    /// Rows of the box.
    /// Pre: none. Post: at least 1.
    pub fn rows(self) -> usize {
        usize::from(self.rows)
    }

    /// Columns of the box.
    /// Pre: none. Post: at least 1.
    pub fn cols(self) -> usize {
        usize::from(self.cols)
    }

    /// Number of ship cells.
    /// Pre: none. Post: at most `rows() * cols()`; at least 1 but for `straight(0, _)`.
    pub fn size(self) -> usize {
        self.mask.count_ones() as usize
    }

    /// True when `(row, col)` of the box is a ship cell.
    /// Pre: none. Post: false outside the box.
    pub fn has(self, row: usize, col: usize) -> bool {
        row < self.rows() && col < self.cols() && self.mask >> (row * self.cols() + col) & 1 == 1
    }

    /// The ship cells as (row, column) offsets from the box's top-left corner, row-major.
    /// Pre: none. Post: `size()` offsets.
    pub fn cells(self) -> impl Iterator<Item = (usize, usize)> {
        let cols = self.cols().max(1);
        let mut m = self.mask;
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            Some((k / cols, k % cols))
        })
    }

    /// The orientation and size when the shape is a straight line (a single cell counts
    /// as East, and so does the empty shape of `straight(0, _)`, of size 0).
    /// Pre: none. Post: `Some` exactly for full 1 x n and n x 1 boxes and the empty one.
    pub fn straight_line(self) -> Option<(usize, Orientation)> {
        if self.mask == 0 {
            return Some((0, Orientation::East));
        }
        let full = self.size() == self.rows() * self.cols();
        match (full, self.rows, self.cols) {
            (true, 1, n) => Some((usize::from(n), Orientation::East)),
            (true, n, 1) => Some((usize::from(n), Orientation::South)),
            _ => None,
        }
    }

    /// The shape turned a quarter turn clockwise.
    /// Pre: none. Post: a box of `cols() x rows()`, the same number of cells.
    pub fn rotated(self) -> Shape {
        let rows = self.rows();
        // (r, c) goes to (c, rows - 1 - r).
        let cells: Vec<(usize, usize)> = self.cells().map(|(r, c)| (c, rows - 1 - r)).collect();
        Shape::from_cells(&cells).unwrap_or(self)
    }

    /// The distinct shapes a ship may take: only itself, or with `rotate` its four
    /// quarter turns without repeats (2 for a straight ship of 2 cells or more, 1 for a
    /// single cell or a square).
    /// Pre: none. Post: at least one shape, `self` first.
    pub fn variants(self, rotate: bool) -> Vec<Shape> {
        let mut out = vec![self];
        if rotate {
            let mut s = self;
            for _ in 0..3 {
                s = s.rotated();
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// The drawing: one line per box row, `X` and `.`.
    /// Pre: none. Post: `rows()` lines of `cols()` characters.
    pub fn drawing(self) -> Vec<String> {
        (0..self.rows()).map(|r| (0..self.cols()).map(|c| if self.has(r, c) { 'X' } else { '.' }).collect()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_shapes() {
        let e = Shape::straight(3, Orientation::East);
        assert_eq!((e.rows(), e.cols(), e.size()), (1, 3, 3));
        assert_eq!(e.cells().collect::<Vec<_>>(), vec![(0, 0), (0, 1), (0, 2)]);
        let s = Shape::straight(2, Orientation::South);
        assert_eq!(s.cells().collect::<Vec<_>>(), vec![(0, 0), (1, 0)]);
        assert_eq!(e.straight_line(), Some((3, Orientation::East)));
        assert_eq!(s.straight_line(), Some((2, Orientation::South)));
        assert_eq!(Shape::straight(64, Orientation::East).size(), 64);
        assert_eq!(Shape::straight(0, Orientation::South).size(), 0);
        assert_eq!(e.rotated(), Shape::straight(3, Orientation::South));
        assert_eq!(e.variants(true).len(), 2);
        assert_eq!(e.variants(false), vec![e]);
        assert_eq!(Shape::straight(1, Orientation::East).variants(true).len(), 1);
    }

    #[test]
    fn drawings_are_trimmed_and_checked() {
        let y = Shape::from_drawing(&["X.X", "X.X", ".X."]).unwrap();
        assert_eq!((y.rows(), y.cols(), y.size()), (3, 3, 5));
        assert_eq!(y.drawing(), vec!["X.X", "X.X", ".X."]);
        assert_eq!(y.straight_line(), None);
        let trimmed = Shape::from_drawing(&["....", ".X..", ".XX.", "...."]).unwrap();
        assert_eq!(trimmed.drawing(), vec!["X.", "XX"]);
        assert_eq!(Shape::from_drawing(&["..", ".."]), Err(ShapeError::Empty));
        assert_eq!(Shape::from_drawing(&[]), Err(ShapeError::Empty));
        assert_eq!(Shape::from_drawing(&["X.", "X"]), Err(ShapeError::Ragged { row: 1, found: 1, expected: 2 }));
        assert_eq!(Shape::from_drawing(&["Xo"]), Err(ShapeError::BadChar { row: 0, col: 1, ch: 'o' }));
        let wide = "X".repeat(65);
        assert_eq!(Shape::from_drawing(&[&wide]), Err(ShapeError::TooLarge { rows: 1, cols: 65 }));
    }

    #[test]
    fn rotations_of_a_drawing() {
        let l = Shape::from_drawing(&["X.", "X.", "XX"]).unwrap();
        let r = l.rotated();
        assert_eq!(r.drawing(), vec!["XXX", "X.."]);
        assert_eq!(r.rotated().rotated().rotated(), l);
        assert_eq!(l.variants(true).len(), 4);
        let plus = Shape::from_drawing(&[".X.", "XXX", ".X."]).unwrap();
        assert_eq!(plus.variants(true), vec![plus]);
        let tie = Shape::from_drawing(&["X.X", "XXX", "X.X"]).unwrap();
        assert_eq!(tie.variants(true).len(), 2);
    }
}

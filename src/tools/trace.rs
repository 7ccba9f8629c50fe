//! The tracer: a [`ScanObserver`] that turns every step of a scan into a readable block
//! of text (the probe, the cells it eliminated, the strategy's list, the likelihood
//! matrix when one was read, and the board), and ends with the judge's output.
//!
//! The observer hears about a step in pieces: `likelihood_read` (before the probe it
//! leads to), `probed`, `eliminated`, `list_changed`, and finally `step_done`. The
//! tracer keeps the pieces of the current step and writes the whole block at
//! `step_done`. A block looks like this (prob, scan 2 of the statement's Appendix C):
//!
//! ```text
//! scan 2: (1,3) from matrix, hit
//!   likelihood matrix read to choose it:
//!     10 14 13 16 14 10
//!     13 17 13 19 17 13
//!     11 11 -1 12 13 12
//!     13 17 13 19 17 13
//!     10 14 13 16 14 10
//!   eliminated: (0,4) (2,4) (0,2)
//!   highProbabilityList: (0,3) (1,4) (2,3) (1,2)
//!   board:
//!     ..X.X.
//!     .OO+..
//!     ..X.X.
//!     ...O..
//!     ...O..
//! ```

use crate::game::board::Board;
use crate::game::position::Position;
use crate::limits::{TRACE_OUTPUT_BYTES, TRACE_UNLIMITED_CELLS};
use crate::render::json::{Array, LineStrings, Object, Raw};
use crate::scan::observer::{ListView, ScanObserver, ScoreView, Source};
use crate::scan::record::{CellState, ScanRecord};
use crate::scan::referee::Referee;
use crate::scan::sonar::Answer;
use crate::scan::ScanError;
use crate::strategy::{self, StrategyError};
use std::fmt::Write as _;
use std::io::{self, Write};

/// How many cells of smart's `boardList` a trace shows (the rest are counted).
pub const BOARD_LIST_SHOWN: usize = 12;

/// ANSI colour of a spotted ship cell (`+`): bold red.
pub const COLOR_HIT: &str = "\x1b[1;31m";
/// ANSI colour of a probed water cell (`X`): blue.
pub const COLOR_MISS: &str = "\x1b[34m";
/// ANSI colour of a cell eliminated in an earlier step (`X`): yellow.
pub const COLOR_ELIMINATED: &str = "\x1b[33m";
/// ANSI colour of a cell eliminated in this step (`X`): bold yellow.
pub const COLOR_ELIMINATED_NOW: &str = "\x1b[1;33m";
/// ANSI colour of the cell probed in this step: black on green.
pub const COLOR_PROBED_NOW: &str = "\x1b[30;42m";
/// ANSI code that ends a colour.
pub const COLOR_RESET: &str = "\x1b[0m";

/// How a trace is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TraceOptions {
    /// Colour the drawn boards with ANSI escapes.
    pub color: bool,
    /// Show at most this many cells of the strategy's list (`None`: the whole list).
    pub list_limit: Option<usize>,
    /// Write JSON Lines: one object per scan, then the judge's output as an object.
    pub json: bool,
    /// Show only the first this many scans (`None`: all), then a summary line.
    pub limit: Option<usize>,
}

impl TraceOptions {
    /// The options a trace of `strategy` uses: smart's `boardList` (the whole board at
    /// first) is cut to [`BOARD_LIST_SHOWN`] cells, other lists are shown whole.
    /// Pre: none. Post: `color` as given.
    pub fn for_strategy(strategy: &str, color: bool) -> TraceOptions {
        let list_limit = (strategy == "smart").then_some(BOARD_LIST_SHOWN);
        TraceOptions { color, list_limit, json: false, limit: None }
    }
}

/// Boards with more cells than this do not show their likelihood matrix in a trace.
pub const MATRIX_SHOWN_CELLS: usize = 10_000;

/// The current step's events, kept until `step_done`.
#[derive(Debug, Default)]
struct Step {
    /// The matrix read before the probe, already formatted (one line per row); an
    /// empty list when the board is too large to show it.
    matrix: Option<Vec<String>>,
    probe: Option<(Position, Source, Answer)>,
    eliminated: Vec<Position>,
    /// The list after the step: its name, its first cells, its length.
    list: Option<(&'static str, Vec<Position>, usize)>,
}

/// A [`ScanObserver`] that writes a step-by-step trace of a scan to a writer.
///
/// Writing starts with [`Tracer::begin`], continues with one block per step while the
/// strategy runs, and ends with [`Tracer::finish`]. The first write error is kept: later
/// writes are skipped and `finish` returns it.
pub struct Tracer<'a> {
    board: &'a Board,
    out: &'a mut dyn Write,
    options: TraceOptions,
    step: Step,
    error: Option<io::Error>,
    /// Scans seen so far (shown or not).
    scans: usize,
}

impl<'a> Tracer<'a> {
    /// A tracer of scans of `board`, writing to `out`.
    /// Pre: the scan traced is of `board` (same size). Post: nothing written yet.
    pub fn new(board: &'a Board, options: TraceOptions, out: &'a mut dyn Write) -> Tracer<'a> {
        Tracer { board, out, options, step: Step::default(), error: None, scans: 0 }
    }

    /// Writes the trace's first line: the strategy and the board.
    /// Pre: called once, before the scan starts. Post: one line written (unless a write
    /// failed, which `finish` reports).
    pub fn begin(&mut self, strategy: &str) {
        let b = self.board;
        let ships = b.ships().len();
        let line = if self.options.json {
            Object::new()
                .field("strategy", strategy)
                .field("rows", b.rows())
                .field("cols", b.cols())
                .field("ships", ships)
                .field("ship_cells", b.ship_cells())
                .line()
        } else {
            format!(
                "trace of {strategy} on a {}x{} board: {}, {}\n",
                b.rows(),
                b.cols(),
                crate::render::words::count(ships, "ship"),
                crate::render::words::count(b.ship_cells(), "ship cell")
            )
        };
        self.write(&line);
    }

    /// True while the current scan is one to show (within `--limit`).
    fn shown(&self) -> bool {
        self.options.limit.is_none_or(|limit| self.scans < limit)
    }

    /// Writes the judge's output (count line and final grid) after a `judge output:`
    /// line, and hands back the first write error, if any.
    /// Pre: `record` is the finished scan's record. Post: `Ok` when everything written
    /// since `new` reached the writer; the trace's last bytes are exactly the judge's
    /// output for `record`.
    pub fn finish(mut self, record: &ScanRecord) -> io::Result<()> {
        let hidden = self.scans.saturating_sub(self.options.limit.unwrap_or(usize::MAX));
        if hidden > 0 {
            let text = if self.options.json {
                Object::new().field("scans_not_shown", hidden).line()
            } else {
                format!(
                    "\n... {} not shown (--limit {})\n",
                    crate::render::words::count(hidden, "more scan"),
                    self.options.limit.unwrap_or(0)
                )
            };
            self.write(&text);
        }
        if !self.options.json {
            self.write("\njudge output:\n");
        }
        if self.error.is_none() {
            let written = if self.options.json {
                record.write_json(Some(self.board), None, &mut *self.out)
            } else {
                record.write_output(Some(self.board), &mut *self.out)
            };
            if let Err(e) = written {
                self.error = Some(e);
            }
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }

    /// Writes `text` unless an earlier write failed.
    fn write(&mut self, text: &str) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(text.as_bytes()) {
                self.error = Some(e);
            }
        }
    }

    /// Writes the block of the step that `record` ends: text, or one JSON line.
    fn write_block(&mut self, step: &Step, record: &ScanRecord) -> io::Result<()> {
        if self.options.json {
            let head = self.json_head(step, record);
            self.out.write_all(head.open_last("grid").as_bytes())?;
            let board = self.board;
            let mut rows = LineStrings::new(&mut *self.out);
            let mut line = Vec::new();
            for r in 0..record.rows() {
                line.clear();
                Self::push_row(board, &mut line, r, record);
                rows.line(&line)?;
            }
            rows.finish()?;
            return writeln!(self.out, "{}", Object::CLOSE);
        }
        let head = self.block(step, record);
        self.out.write_all(head.as_bytes())?;
        let mut line = Vec::new();
        for r in 0..record.rows() {
            line.clear();
            line.extend_from_slice(b"    ");
            if self.options.color {
                let mut s = String::new();
                for c in 0..record.cols() {
                    let ch = Self::cell_char(self.board, r * record.cols() + c, record) as char;
                    push_colored(&mut s, ch, self.color_of(Position::new(r, c), step, record));
                }
                line.extend_from_slice(s.as_bytes());
            } else {
                Self::push_row(self.board, &mut line, r, record);
            }
            line.push(b'\n');
            self.out.write_all(&line)?;
        }
        Ok(())
    }

    /// The character of cell `i` as the judge draws it.
    fn cell_char(board: &Board, i: usize, record: &ScanRecord) -> u8 {
        match record.state_at(i) {
            CellState::Hit => b'+',
            CellState::Miss | CellState::Eliminated => b'X',
            CellState::Unknown if board.is_ship_at(i) => b'O',
            CellState::Unknown => b'.',
        }
    }

    /// Appends row `r` of the board as the judge draws it.
    fn push_row(board: &Board, line: &mut Vec<u8>, r: usize, record: &ScanRecord) {
        let cols = record.cols();
        line.extend((r * cols..(r + 1) * cols).map(|i| Self::cell_char(board, i, record)));
    }

    /// A step's JSON object without its last member, `grid` (the rows follow).
    fn json_head(&self, step: &Step, record: &ScanRecord) -> Object {
        let cell = |p: &Position| (p.row, p.col);
        let mut o = Object::new().field("scan", record.scans());
        if let Some((pos, source, answer)) = step.probe {
            o = o
                .field("probe", cell(&pos))
                .field("source", source.to_string())
                .field("answer", describe(answer, self.board));
        }
        o = o.field("eliminated", Array::of(step.eliminated.iter().map(cell)));
        if let Some((name, cells, len)) = &step.list {
            let list = Object::new()
                .field("name", name)
                .field("cells", Array::of(cells.iter().map(cell)))
                .field("length", len);
            o = o.field("list", list);
        }
        match &step.matrix {
            Some(rows) if rows.is_empty() => o = o.field("matrix", None::<u8>),
            Some(rows) => {
                let rows = rows.iter().map(|r| Array::of(r.split_whitespace().map(Raw)));
                o = o.field("matrix", Array::of(rows));
            }
            None => {}
        }
        o
    }

    /// The block of the step that `record` ends, up to its `board:` line.
    fn block(&self, step: &Step, record: &ScanRecord) -> String {
        let mut s = String::new();
        let _ = match step.probe {
            Some((pos, source, answer)) => {
                writeln!(s, "\nscan {}: {pos} from {source}, {}", record.scans(), describe(answer, self.board))
            }
            None => writeln!(s, "\nscan {}: no probe was reported", record.scans()),
        };
        match &step.matrix {
            Some(rows) if rows.is_empty() => {
                let _ =
                    writeln!(s, "  likelihood matrix read to choose it: not shown (over {MATRIX_SHOWN_CELLS} cells)");
            }
            Some(rows) => {
                s.push_str("  likelihood matrix read to choose it:\n");
                for row in rows {
                    let _ = writeln!(s, "    {row}");
                }
            }
            None => {}
        }
        s.push_str("  eliminated:");
        if step.eliminated.is_empty() {
            s.push_str(" none");
        }
        for p in &step.eliminated {
            let _ = write!(s, " {p}");
        }
        s.push('\n');
        if let Some((name, cells, len)) = &step.list {
            let _ = writeln!(s, "  {}", list_line(name, cells, *len));
        }
        s.push_str("  board:\n");
        s
    }

    /// The colour of cell `pos` in the board drawn after `step`.
    fn color_of(&self, pos: Position, step: &Step, record: &ScanRecord) -> Option<&'static str> {
        if step.probe.is_some_and(|(p, _, _)| p == pos) {
            return Some(COLOR_PROBED_NOW);
        }
        match record.state(pos) {
            CellState::Hit => Some(COLOR_HIT),
            CellState::Miss => Some(COLOR_MISS),
            CellState::Eliminated if step.eliminated.contains(&pos) => Some(COLOR_ELIMINATED_NOW),
            CellState::Eliminated => Some(COLOR_ELIMINATED),
            CellState::Unknown => None,
        }
    }
}

/// An answer as the play protocol words it: `hit`, `miss`, `sunk` or `sunk NAME`.
/// Pre: none. Post: no change.
pub fn describe(answer: Answer, board: &Board) -> String {
    match answer {
        Answer::Miss => "miss".into(),
        Answer::Hit => "hit".into(),
        Answer::Sunk(None) => "sunk".into(),
        Answer::Sunk(Some(k)) => match board.rules().fleet().kinds().get(k) {
            Some(kind) => format!("sunk {}", kind.name),
            None => "sunk".into(),
        },
    }
}

/// Appends `ch`, wrapped in `color` and a reset when there is one.
fn push_colored(s: &mut String, ch: char, color: Option<&str>) {
    match color {
        Some(code) => {
            s.push_str(code);
            s.push(ch);
            s.push_str(COLOR_RESET);
        }
        None => s.push(ch),
    }
}

/// The matrix as lines of right-aligned integers in equal-width columns (-1: blocked).
/// Pre: none. Post: `matrix.rows()` lines, each of `matrix.cols()` numbers separated by
/// one space, every number padded to the width of the widest.
pub fn format_matrix(matrix: &dyn ScoreView) -> Vec<String> {
    let (rows, cols) = (matrix.rows(), matrix.cols());
    let values: Vec<String> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| Position::new(r, c)))
        .map(|p| matrix.score(p).to_string())
        .collect();
    let width = values.iter().map(String::len).max().unwrap_or(0);
    values
        .chunks(cols.max(1))
        .map(|row| row.iter().map(|v| format!("{v:>width$}")).collect::<Vec<_>>().join(" "))
        .collect()
}

/// The list as one line: its name, then its cells `(r,c)` separated by spaces, front
/// first; `(empty)` for an empty list; with a `limit`, the cells past it are counted as
/// `... (+N more)`.
/// Pre: none. Post: one line, no newline.
pub fn format_list(list: &dyn ListView, limit: Option<usize>) -> String {
    let len = list.len();
    list_line(list.name(), &list.front(limit.unwrap_or(len)), len)
}

/// The line of [`format_list`] for a list `name` of `len` cells whose first are `shown`.
fn list_line(name: &str, shown: &[Position], len: usize) -> String {
    let mut s = String::from(name);
    s.push(':');
    if shown.is_empty() {
        s.push_str(" (empty)");
    }
    for p in shown {
        let _ = write!(s, " {p}");
    }
    if len > shown.len() {
        let _ = write!(s, " ... (+{} more)", len - shown.len());
    }
    s
}

impl ScanObserver for Tracer<'_> {
    fn likelihood_read(&mut self, matrix: &dyn ScoreView) {
        if self.shown() {
            let small = matrix.rows().saturating_mul(matrix.cols()) <= MATRIX_SHOWN_CELLS;
            self.step.matrix = Some(if small { format_matrix(matrix) } else { Vec::new() });
        }
    }

    fn probed(&mut self, pos: Position, source: Source, answer: Answer) {
        if self.shown() {
            self.step.probe = Some((pos, source, answer));
        }
    }

    fn eliminated(&mut self, pos: Position) {
        if self.shown() {
            self.step.eliminated.push(pos);
        }
    }

    fn list_changed(&mut self, list: &dyn ListView) {
        if self.shown() {
            let len = list.len();
            self.step.list = Some((list.name(), list.front(self.options.list_limit.unwrap_or(len)), len));
        }
    }

    fn step_done(&mut self, record: &ScanRecord) {
        let shown = self.shown();
        self.scans += 1;
        if shown && self.error.is_none() {
            let step = std::mem::take(&mut self.step);
            if let Err(e) = self.write_block(&step, record) {
                self.error = Some(e);
            }
        }
    }
}

/// A trace to write: the strategy, its seed, and how.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TraceRequest<'a> {
    /// The strategy that plays (`all` is refused).
    pub strategy: &'a str,
    /// Its seed.
    pub seed: u64,
    /// JSON Lines instead of text.
    pub json: bool,
    /// The scans shown at most; needed over [`TRACE_UNLIMITED_CELLS`] cells.
    pub limit: Option<usize>,
    /// Colours (text only).
    pub color: bool,
}

/// Why a trace was not written (or not to its end).
#[derive(Debug)]
pub enum TraceError {
    /// A board too large to trace whole without a limit.
    NeedsLimit {
        /// The board's cells.
        cells: usize,
    },
    /// `all` strategies, where a trace follows one.
    AllStrategies,
    /// A strategy that cannot play the board's rules.
    Strategy(StrategyError),
    /// A trace that would write past the output cap.
    TooLarge {
        /// The scans shown.
        shown: usize,
        /// The board's rows.
        rows: usize,
        /// The board's columns.
        cols: usize,
        /// About how many bytes it would write.
        estimate: u64,
        /// The largest limit that fits.
        fits: u64,
    },
    /// The scan failed (a board too large for the strategy, no memory).
    Scan(ScanError),
    /// Writing the trace failed, or reached the output cap.
    Io(io::Error),
}

impl TraceError {
    /// True when the error is a write to a reader that went away (`| head`).
    /// Pre: none. Post: no change.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            TraceError::Io(e) => e.kind() == io::ErrorKind::BrokenPipe,
            TraceError::Scan(ScanError::Probe(crate::scan::sonar::ProbeError::ReaderGone(_))) => true,
            _ => false,
        }
    }
}

impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TraceError::NeedsLimit { cells } => write!(
                f,
                "the board has {cells} cells, and a trace draws the whole board after every scan: give --limit N to \
                 show only the first N scans (boards of up to {TRACE_UNLIMITED_CELLS} cells need no limit)"
            ),
            TraceError::AllStrategies => write!(
                f,
                "--strategy all: a trace follows one strategy; try `spot-the-ships --strategy all FILE` to compare them"
            ),
            TraceError::Strategy(e) => write!(f, "{e}"),
            TraceError::TooLarge { shown, rows, cols, estimate, fits } => write!(
                f,
                "{shown} scans of a {rows}x{cols} board would write about {estimate} bytes, more than the output cap \
                 of {TRACE_OUTPUT_BYTES} bytes (1 GiB): give --limit {fits} or less"
            ),
            TraceError::Scan(e) => write!(f, "{e}"),
            TraceError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TraceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TraceError::Strategy(e) => Some(e),
            TraceError::Scan(e) => Some(e),
            TraceError::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// Traces `request`'s strategy on `board` into `out`: a first line, one block per scan
/// (at most `limit`), then the judge's output.
/// Pre: none. Post: `Err` before the first line for a board that needs a limit, `all`,
/// a strategy that cannot play, or a trace that would pass the output cap; the output
/// never passes [`TRACE_OUTPUT_BYTES`].
pub(crate) fn trace(board: &Board, request: &TraceRequest<'_>, out: &mut dyn Write) -> Result<(), TraceError> {
    let TraceRequest { strategy: name, seed, json, limit, color } = *request;
    let cells = board.rows().saturating_mul(board.cols());
    if limit.is_none() && cells > TRACE_UNLIMITED_CELLS {
        return Err(TraceError::NeedsLimit { cells });
    }
    if name == "all" {
        return Err(TraceError::AllStrategies);
    }
    let mut strategy = strategy::for_rules(name, seed, board.rules()).map_err(TraceError::Strategy)?;
    // Bounded before it starts: at most `shown` scans are drawn.
    let shown = limit.unwrap_or(cells).min(cells);
    let matrix = name == "prob" && cells <= MATRIX_SHOWN_CELLS;
    let (rows, cols) = (board.rows(), board.cols());
    let (per_scan, once) = output_estimate(rows, cols, matrix);
    let estimate = (shown as u64).saturating_mul(per_scan).saturating_add(once);
    if estimate > TRACE_OUTPUT_BYTES {
        let fits = TRACE_OUTPUT_BYTES.saturating_sub(once) / per_scan.max(1);
        return Err(TraceError::TooLarge { shown, rows, cols, estimate, fits });
    }
    // A board too large for the strategy is refused before the trace's first line.
    strategy::check_size(name, rows, cols, board.rules()).map_err(TraceError::Scan)?;
    let mut sonar = Referee::new(board);
    let options = TraceOptions { json, limit, ..TraceOptions::for_strategy(name, color) };
    let mut capped = Capped { inner: out, written: 0 };
    let mut tracer = Tracer::new(board, options, &mut capped);
    tracer.begin(name);
    let record = strategy::solve_observed(strategy.as_mut(), &mut sonar, &mut tracer).map_err(TraceError::Scan)?;
    tracer.finish(&record).map_err(TraceError::Io)
}

/// About how many bytes a trace of a `rows` x `cols` board writes without colour:
/// `(per scan, once)`. Each scan draws the board (four spaces before each row), plus
/// its lines of text and, for prob on small boards, the likelihood matrix; once, the
/// judge's output. Pre: none. Post: saturates instead of overflowing.
fn output_estimate(rows: usize, cols: usize, matrix: bool) -> (u64, u64) {
    let (rows, cols) = (rows as u64, cols as u64);
    let board = rows.saturating_mul(cols.saturating_add(5));
    // A score has at most 5 digits on a board of 10,000 cells, one space between.
    let matrix = if matrix { rows.saturating_mul(cols.saturating_mul(6).saturating_add(4)) } else { 0 };
    (board.saturating_add(matrix).saturating_add(200), rows.saturating_mul(cols.saturating_add(1)).saturating_add(200))
}

/// A writer that refuses to write past [`TRACE_OUTPUT_BYTES`] bytes.
struct Capped<'a> {
    inner: &'a mut dyn std::io::Write,
    written: u64,
}

impl std::io::Write for Capped<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.written.saturating_add(buf.len() as u64) > TRACE_OUTPUT_BYTES {
            return Err(std::io::Error::other(format!(
                "the trace reached the output cap of {TRACE_OUTPUT_BYTES} bytes: give a smaller --limit"
            )));
        }
        let n = self.inner.write(buf)?;
        self.written = self.written.saturating_add(n as u64);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::position::Orientation;
    use crate::game::ship::Ship;
    use crate::scan::referee::Referee;
    use crate::strategy::{self, solve_observed};

    fn appendix_board() -> Board {
        Board::new(
            5,
            6,
            vec![
                Ship::new(Position::new(1, 1), 3, Orientation::East),
                Ship::new(Position::new(3, 3), 2, Orientation::South),
            ],
        )
        .unwrap()
    }

    fn trace(name: &str, color: bool) -> String {
        let board = appendix_board();
        let mut sonar = Referee::new(&board);
        let mut out = Vec::new();
        let mut s = strategy::by_name(name, 1).unwrap();
        let mut tracer = Tracer::new(&board, TraceOptions::for_strategy(name, color), &mut out);
        tracer.begin(name);
        let record = solve_observed(s.as_mut(), &mut sonar, &mut tracer).unwrap();
        tracer.finish(&record).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn matrix_is_right_aligned() {
        let mut m = crate::strategy::likelihood::Likelihood::new(2, 3);
        m.block(Position::new(0, 0));
        assert_eq!(format_matrix(&m), vec!["-1  4  4", " 4  6  5"]);
    }

    #[test]
    fn prob_trace_shows_the_first_matrix_and_list() {
        let t = trace("prob", false);
        assert!(
            t.starts_with("trace of prob on a 5x6 board: 2 ships, 5 ship cells\n\nscan 1: (2,2) from matrix, miss\n")
        );
        assert!(t.contains("    10 14 16 16 14 10\n    13 17 19 19 17 13\n    14 18 20 20 18 14\n"));
        assert!(t.contains("\n  highProbabilityList: (0,3) (1,4) (2,3) (1,2)\n"));
        assert!(t.ends_with("\njudge output:\n11\nXXXXX.\nX+++X.\nXXXXX.\n..X+X.\n..X+X.\n"));
    }

    #[test]
    fn smart_list_is_cut_at_twelve() {
        let t = trace("smart", false);
        assert!(t.contains(
            "  boardList: (0,1) (0,2) (0,3) (0,4) (0,5) (1,0) (1,1) (1,2) (1,3) (1,4) (1,5) (2,0) ... (+17 more)\n"
        ));
        assert!(!t.contains('\x1b'));
    }

    #[test]
    fn linear_has_no_list_and_color_marks_cells() {
        let t = trace("linear", true);
        assert!(!t.contains("List"));
        assert!(t.contains(COLOR_PROBED_NOW) && t.contains(COLOR_MISS) && t.contains(COLOR_HIT));
        assert!(t.ends_with("\njudge output:\n28\nXXXXXX\nX+++XX\nXXXXXX\nXXX+XX\nXXX+..\n"));
    }
}

//! A [`Sonar`] that asks someone else: a person at a terminal or a referee program on
//! the other end of two pipes.
//!
//! # Protocol
//! For each probe it writes one line `? r c` (row and column from 0, one space apart)
//! and flushes, then reads one answer line: `hit`, `h` or `1` for a ship cell, `miss`,
//! `m` or `0` for water, case-insensitive, surrounding spaces (and a `\r`) ignored. A
//! cell is never asked twice. Whatever else it reads is a bad answer: at a terminal it
//! explains on the notes stream and asks again; over pipes it fails
//! ([`ProbeError::BadAnswer`]). The end of input fails with [`ProbeError::Closed`].
//!
//! # Rules
//! An answer the rules make impossible is refused: a hit diagonal to an earlier hit, a
//! hit beyond the announced number of ship cells, or a hit that makes a straight run
//! longer than the largest ship (5, or the fleet's largest). The refusal is kept
//! ([`Interactive::contradiction`]) and the probe fails, so the caller can report it as
//! a contradiction.

use crate::position::{Direction, Position};
use crate::ship::MAX_SHIP;
use crate::sonar::{ProbeError, Sonar};
use std::collections::HashMap;
use std::io::{self, BufRead, Write};

/// Longest answer line kept, in bytes; longer lines are bad answers (read to their end).
pub const MAX_ANSWER: usize = 256;

/// What is announced about the ships.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ships {
    /// Their sizes (any order).
    Fleet(Vec<usize>),
    /// Only the number of ship cells.
    Cells(usize),
}

/// The answer a line means: `Some(true)` hit, `Some(false)` miss, `None` not an answer.
/// Pre: none. Post: accepts exactly hit/h/1 and miss/m/0, any case, trimmed of ASCII
/// whitespace.
pub fn parse_answer(line: &[u8]) -> Option<bool> {
    let word = line.trim_ascii().to_ascii_lowercase();
    match word.as_slice() {
        b"hit" | b"h" | b"1" => Some(true),
        b"miss" | b"m" | b"0" => Some(false),
        _ => None,
    }
}

/// Reads one line of at most [`MAX_ANSWER`] bytes (the rest of a longer line is read
/// and dropped). `Ok(None)` at the end of input; `Ok(Some((bytes, too_long)))` otherwise.
fn read_line(input: &mut dyn BufRead) -> io::Result<Option<(Vec<u8>, bool)>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some((line, too_long)));
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(k) => (k, true),
            None => (chunk.len(), false),
        };
        let room = MAX_ANSWER.saturating_sub(line.len());
        line.extend_from_slice(chunk.get(..take.min(room)).unwrap_or_default());
        too_long |= take > room;
        input.consume(if done { take + 1 } else { take });
        if done {
            return Ok(Some((line, too_long)));
        }
    }
}

/// The interactive sonar.
pub struct Interactive<'a> {
    rows: usize,
    cols: usize,
    ship_cells: usize,
    fleet: Option<Vec<usize>>,
    longest: usize,
    input: &'a mut dyn BufRead,
    output: &'a mut dyn Write,
    notes: &'a mut dyn Write,
    retry: bool,
    /// Answers given so far, by row-major index.
    answers: HashMap<usize, bool>,
    hits: usize,
    questions: usize,
    contradiction: Option<String>,
}

impl<'a> Interactive<'a> {
    /// A sonar for a `rows` x `cols` bay holding `ships`, asking on `output` and reading
    /// answers from `input`. With `retry` (a person at a terminal) bad answers are
    /// explained on `notes` and asked again; otherwise they fail.
    /// Pre: `rows, cols >= 1`; fleet sizes in 1..=5. Post: nothing asked yet.
    pub fn new(
        rows: usize,
        cols: usize,
        ships: Ships,
        input: &'a mut dyn BufRead,
        output: &'a mut dyn Write,
        notes: &'a mut dyn Write,
        retry: bool,
    ) -> Interactive<'a> {
        let (ship_cells, fleet) = match ships {
            Ships::Fleet(mut sizes) => {
                sizes.sort_unstable_by(|a, b| b.cmp(a));
                (sizes.iter().sum(), Some(sizes))
            }
            Ships::Cells(n) => (n, None),
        };
        let longest = fleet.as_ref().map_or(MAX_SHIP, |f| f.first().copied().unwrap_or(0));
        Interactive {
            rows,
            cols,
            ship_cells,
            fleet,
            longest,
            input,
            output,
            notes,
            retry,
            answers: HashMap::new(),
            hits: 0,
            questions: 0,
            contradiction: None,
        }
    }

    /// The impossible answer that stopped the game, if any.
    /// Pre: none. Post: `Some` only after a probe failed because of it.
    pub fn contradiction(&self) -> Option<&str> {
        self.contradiction.as_deref()
    }

    /// Number of questions asked (re-asked ones count once).
    /// Pre: none. Post: no change.
    pub fn questions(&self) -> usize {
        self.questions
    }

    fn is_hit(&self, pos: Position) -> bool {
        self.answers.get(&pos.index(self.cols)).copied().unwrap_or(false)
    }

    /// Hits in a straight line from `pos` (excluded) in direction `dir`.
    fn hits_towards(&self, pos: Position, dir: Direction) -> usize {
        let mut n = 0;
        let mut p = pos;
        while let Some(q) = p.step(dir, self.rows, self.cols).filter(|&q| self.is_hit(q)) {
            n += 1;
            p = q;
        }
        n
    }

    /// Why a hit at `pos` is impossible, if it is.
    fn refuse_hit(&self, pos: Position) -> Option<String> {
        if self.hits >= self.ship_cells {
            return Some(format!("{pos} is a hit, but all {} ship cells were already found", self.ship_cells));
        }
        if let Some(d) = pos.diagonals(self.rows, self.cols).find(|&d| self.is_hit(d)) {
            return Some(format!("{pos} is a hit diagonal to the hit {d}, and ships never touch"));
        }
        let across = 1 + self.hits_towards(pos, Direction::W) + self.hits_towards(pos, Direction::E);
        let down = 1 + self.hits_towards(pos, Direction::N) + self.hits_towards(pos, Direction::S);
        let run = across.max(down);
        if run > self.longest {
            return Some(format!(
                "{pos} is a hit that makes {run} hits in a line, but the longest ship has {} cells",
                self.longest
            ));
        }
        None
    }

    /// Asks about `pos` until a valid answer comes (or fails).
    fn ask(&mut self, pos: Position) -> Result<bool, ProbeError> {
        let io_error = |e: io::Error| ProbeError::Io(e.to_string());
        loop {
            writeln!(self.output, "? {} {}", pos.row, pos.col).map_err(io_error)?;
            self.output.flush().map_err(io_error)?;
            let Some((line, too_long)) = read_line(self.input).map_err(io_error)? else {
                return Err(ProbeError::Closed);
            };
            let answer = if too_long { None } else { parse_answer(&line) };
            if let Some(hit) = answer {
                return Ok(hit);
            }
            let shown = String::from_utf8_lossy(line.trim_ascii()).into_owned();
            let shown = if too_long { format!("{shown}...") } else { shown };
            if !self.retry {
                return Err(ProbeError::BadAnswer(shown));
            }
            writeln!(self.notes, "`{shown}` is not an answer: type hit or miss (or h/m, 1/0)").map_err(io_error)?;
            self.notes.flush().map_err(io_error)?;
        }
    }
}

impl Sonar for Interactive<'_> {
    fn rows(&self) -> usize {
        self.rows
    }

    fn cols(&self) -> usize {
        self.cols
    }

    fn ship_cells(&self) -> usize {
        self.ship_cells
    }

    fn fleet(&self) -> Option<&[usize]> {
        self.fleet.as_deref()
    }

    fn probe(&mut self, pos: Position) -> Result<bool, ProbeError> {
        if pos.row >= self.rows || pos.col >= self.cols {
            return Err(ProbeError::Io(format!("internal: {pos} is outside the board")));
        }
        let i = pos.index(self.cols);
        if let Some(&known) = self.answers.get(&i) {
            return Ok(known);
        }
        if let Some(why) = &self.contradiction {
            return Err(ProbeError::Io(format!("contradiction: {why}")));
        }
        self.questions += 1;
        let hit = self.ask(pos)?;
        if hit {
            if let Some(why) = self.refuse_hit(pos) {
                self.contradiction = Some(why.clone());
                return Err(ProbeError::Io(format!("contradiction: {why}")));
            }
            self.hits += 1;
        }
        self.answers.insert(i, hit);
        Ok(hit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sonar_run(answers: &str, retry: bool, ships: Ships, probes: &[(usize, usize)]) -> (Vec<String>, String, String) {
        let mut input = answers.as_bytes();
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        let mut results = Vec::new();
        {
            let mut s = Interactive::new(3, 4, ships, &mut input, &mut out, &mut notes, retry);
            for &(r, c) in probes {
                results.push(match s.probe(Position::new(r, c)) {
                    Ok(h) => h.to_string(),
                    Err(e) => format!("err {e}"),
                });
            }
        }
        (results, String::from_utf8(out).unwrap(), String::from_utf8(notes).unwrap())
    }

    #[test]
    fn parses_answers() {
        for yes in ["hit", "HIT", " h ", "1\r", "Hit\t"] {
            assert_eq!(parse_answer(yes.as_bytes()), Some(true), "{yes}");
        }
        for no in ["miss", "M", "0", " miss \r"] {
            assert_eq!(parse_answer(no.as_bytes()), Some(false), "{no}");
        }
        for bad in ["", "yes", "hitt", "1 0", "\u{fffd}"] {
            assert_eq!(parse_answer(bad.as_bytes()), None, "{bad}");
        }
    }

    #[test]
    fn asks_and_reads() {
        let (r, out, _) = sonar_run("hit\nmiss\n", false, Ships::Cells(2), &[(0, 1), (2, 3), (0, 1)]);
        assert_eq!(r, vec!["true", "false", "true"]);
        assert_eq!(out, "? 0 1\n? 2 3\n");
    }

    #[test]
    fn bad_answers_fail_over_pipes_and_retry_at_a_terminal() {
        let (r, _, _) = sonar_run("yes\n", false, Ships::Cells(2), &[(0, 0)]);
        assert_eq!(r, vec!["err answer `yes` is not one of hit, miss, h, m, 1, 0"]);
        let (r, out, notes) = sonar_run("yes\n\nm\n", true, Ships::Cells(2), &[(0, 0)]);
        assert_eq!(r, vec!["false"]);
        assert_eq!(out, "? 0 0\n? 0 0\n? 0 0\n");
        assert_eq!(notes.lines().count(), 2);
        let long = "x".repeat(10_000) + "\nhit\n";
        let (r, _, _) = sonar_run(&long, true, Ships::Cells(2), &[(0, 0)]);
        assert_eq!(r, vec!["true"]);
    }

    #[test]
    fn end_of_input_is_closed() {
        let (r, _, _) = sonar_run("", false, Ships::Cells(2), &[(0, 0)]);
        assert_eq!(r, vec![format!("err {}", ProbeError::Closed)]);
        let (r, _, _) = sonar_run("1", false, Ships::Cells(2), &[(0, 0), (0, 2)]);
        assert_eq!(r[0], "true");
        assert!(r[1].starts_with("err the answers ended"));
    }

    #[test]
    fn impossible_hits_are_contradictions() {
        let (r, _, _) = sonar_run("1\n1\n", false, Ships::Cells(3), &[(0, 0), (1, 1)]);
        assert!(r[1].contains("contradiction: (1,1) is a hit diagonal to the hit (0,0)"), "{r:?}");
        let (r, _, _) = sonar_run("1\n1\n", false, Ships::Cells(1), &[(0, 0), (2, 2)]);
        assert!(r[1].contains("all 1 ship cells"), "{r:?}");
        let (r, _, _) = sonar_run("1\n1\n1\n", false, Ships::Fleet(vec![2, 1]), &[(0, 0), (0, 1), (0, 2)]);
        assert!(r[2].contains("3 hits in a line, but the longest ship has 2"), "{r:?}");
        let mut input: &[u8] = b"1\n1\n";
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        let mut s = Interactive::new(2, 2, Ships::Cells(2), &mut input, &mut out, &mut notes, false);
        assert!(s.probe(Position::new(0, 0)).is_ok());
        assert!(s.probe(Position::new(1, 1)).is_err());
        assert!(s.contradiction().is_some_and(|c| c.contains("(1,1)")));
        assert_eq!((s.questions(), s.fleet(), s.ship_cells()), (2, None, 2));
        assert!(s.probe(Position::new(5, 0)).is_err());
    }
}

//! A [`Sonar`] that asks someone else: a person at a terminal or a referee program on
//! the other end of two pipes.
//!
//! # Protocol
//! For each probe it writes one line `? r c` (row and column from 0, one space apart)
//! and flushes, then reads one answer line (see [`crate::tools::play::protocol`]): `hit`, `h` or `1`
//! for a ship cell, `miss`, `m` or `0` for water, and under rules that announce sunk
//! ships `sunk` or `sunk NAME` (NAME a ship of the fleet, or its size), case-insensitive,
//! surrounding spaces (and a `\r`) ignored. A cell is never asked twice. Whatever else
//! it reads is a bad answer: at a terminal it explains on the notes stream and asks
//! again; over pipes it fails ([`ProbeError::BadAnswer`]). The end of input fails with
//! [`ProbeError::Closed`].
//!
//! # Undo and coordinates
//! The answer `undo` takes back the last answer: the probe fails with
//! [`ProbeError::Undo`], and the caller starts the strategy again on a new sonar made
//! [`Interactive::replaying`] the answers before it ([`Interactive::into_replay`]), which
//! answers the same probes without asking. With letters
//! ([`Interactive::with_letters`]) the questions are `? B7` (row B, column 7: rows A,
//! B, ... Z, AA, AB, ...; columns from 1).
//!
//! # Rules
//! What is known is one [`ScanRecord`], and an answer the rules make impossible
//! ([`crate::scan::check`]) is refused: at a terminal it is explained and asked again;
//! over pipes the probe fails with [`ProbeError::Contradiction`].

use crate::game::fleet::Fleet;
use crate::game::position::Position;
use crate::game::rules::{Rules, Sunk};
use crate::limits::memory::{self, Shortage};
use crate::render::coords::letters;
use crate::scan::check::{self, Announced};
use crate::scan::record::ScanRecord;
use crate::scan::sonar::Contradiction;
use crate::scan::sonar::{Answer, ProbeError, Sonar};
use crate::tools::play::protocol::{answer_words, parse_reply, read_line, Header, Reply};
use std::cell::Cell;
use std::io::{BufRead, Write};
use std::rc::Rc;

/// What is announced about the ships.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ships {
    /// The rules' fleet.
    Fleet,
    /// Only the number of ship cells.
    Cells(usize),
}

/// Where the questions go and the answers come from.
pub struct Lines<'a> {
    /// The answers.
    pub input: &'a mut dyn BufRead,
    /// The questions (`? r c`).
    pub output: &'a mut dyn Write,
    /// Explanations of bad answers, at a terminal.
    pub notes: &'a mut dyn Write,
}

/// The answers an undone game gives again: the cells in the order they were answered,
/// and what was answered there.
#[derive(Debug, Default)]
pub struct Replay {
    cells: Vec<u32>,
    known: ScanRecord,
}

impl Replay {
    /// How many answers it gives again.
    /// Pre: none. Post: no change.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// True when it gives nothing again.
    /// Pre: none. Post: no change.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

/// The interactive sonar.
pub struct Interactive<'a> {
    rows: usize,
    cols: usize,
    rules: Rules,
    fleet_known: bool,
    ship_cells: usize,
    input: &'a mut dyn BufRead,
    output: &'a mut dyn Write,
    notes: &'a mut dyn Write,
    retry: bool,
    /// What is known: the answers given so far (made at the first probe).
    known: ScanRecord,
    /// The cells answered, in order (what `undo` takes back and a replay repeats).
    log: Vec<u32>,
    /// Answers to give again without asking, and how many were given.
    replay: Replay,
    replayed: usize,
    /// How many answers are left to replay, shared with whoever draws the board.
    replay_left: Rc<Cell<usize>>,
    undo: bool,
    letters: bool,
    questions: usize,
    contradiction: Option<Contradiction>,
}

impl<'a> Interactive<'a> {
    /// A sonar for the bay of `game` (its size and rules) holding `ships` (the rules'
    /// fleet, or only a number of ship cells), asking on `lines.output` and reading
    /// answers from `lines.input`. With `retry` (a person at a terminal) bad answers are
    /// explained on `lines.notes` and asked again; otherwise they fail.
    /// Pre: `rows, cols >= 1`. Post: nothing asked yet.
    pub fn new(game: Header, ships: Ships, lines: Lines<'a>, retry: bool) -> Interactive<'a> {
        Interactive::replaying(game, ships, lines, retry, Replay::default(), Rc::default())
    }

    /// As [`Interactive::new`], first giving the answers of `replay` (in order, without
    /// asking) to the probes of the same cells; `replay_left` counts the answers still
    /// to give. A probe of another cell ends the replay.
    /// Pre: as `new`. Post: `replay_left` holds `replay.len()`.
    pub fn replaying(
        game: Header,
        ships: Ships,
        lines: Lines<'a>,
        retry: bool,
        replay: Replay,
        replay_left: Rc<Cell<usize>>,
    ) -> Interactive<'a> {
        let Header { rows, cols, rules } = game;
        let Lines { input, output, notes } = lines;
        let (ship_cells, fleet_known) = match ships {
            Ships::Fleet => (rules.fleet().ship_cells(), true),
            Ships::Cells(n) => (n, false),
        };
        Interactive {
            rows,
            cols,
            rules,
            fleet_known,
            ship_cells,
            input,
            output,
            notes,
            retry,
            known: ScanRecord::default(),
            log: Vec::new(),
            replay: {
                replay_left.set(replay.len());
                replay
            },
            replayed: 0,
            replay_left,
            undo: false,
            letters: false,
            questions: 0,
            contradiction: None,
        }
    }

    /// Asks `? B7` rather than `? 1 6`.
    /// Pre: none. Post: questions and notes name cells in letters.
    pub fn with_letters(mut self, letters: bool) -> Interactive<'a> {
        self.letters = letters;
        self
    }

    /// The cell of the last answer given, if any.
    /// Pre: none. Post: no change.
    pub fn last_cell(&self) -> Option<Position> {
        self.log.last().map(|&i| Position::from_index(i as usize, self.cols.max(1)))
    }

    /// After a probe failed with [`ProbeError::Undo`]: the answers before the one taken
    /// back, to give again to a new game ([`Interactive::replaying`]). Nothing is copied:
    /// the log and what is known move into the replay.
    /// Pre: none. Post: the replay gives every answer of the log but the undone one.
    pub fn into_replay(mut self) -> Replay {
        if self.undo {
            self.log.pop();
        }
        Replay { cells: self.log, known: self.known }
    }

    /// Number of questions asked (re-asked ones count once).
    /// Pre: none. Post: no change.
    pub fn questions(&self) -> usize {
        self.questions
    }

    /// What is announced of the ships, for the check.
    fn announced(&self) -> Announced<'_> {
        Announced {
            rules: &self.rules,
            fleet: self.fleet_known.then_some(self.rules.fleet()),
            ship_cells: self.ship_cells,
            search: Some(crate::posterior::agrees),
        }
    }

    /// The answer a reply means under the rules, or why it is not one.
    fn answer_of(&self, reply: Reply) -> Result<Answer, String> {
        let fleet: &Fleet = self.rules.fleet();
        match reply {
            Reply::Miss => Ok(Answer::Miss),
            Reply::Hit => Ok(Answer::Hit),
            Reply::Sunk(_) if self.rules.sunk() == Sunk::None => {
                Err(format!("these rules never announce a sunk ship: answer {}", answer_words(Sunk::None)))
            }
            Reply::Sunk(None) => Ok(Answer::Sunk(None)),
            Reply::Sunk(Some(_)) if self.rules.sunk() == Sunk::Yes || !self.fleet_known => Ok(Answer::Sunk(None)),
            Reply::Sunk(Some(name)) => match fleet.kind_named(&name) {
                Some(k) => Ok(Answer::Sunk(Some(k))),
                None => {
                    let names: Vec<&str> = fleet.kinds().iter().map(|k| k.name.as_str()).collect();
                    Err(format!("the fleet has no ship called `{name}` (ships: {})", names.join(", ")))
                }
            },
        }
    }

    /// Asks about `pos` until a valid answer comes (or fails).
    fn ask(&mut self, pos: Position) -> Result<Answer, ProbeError> {
        let io_error = ProbeError::of_io;
        loop {
            if self.letters {
                writeln!(self.output, "? {}", letters(pos)).map_err(io_error)?;
            } else {
                writeln!(self.output, "? {} {}", pos.row, pos.col).map_err(io_error)?;
            }
            self.output.flush().map_err(io_error)?;
            let Some((line, too_long)) = read_line(self.input).map_err(io_error)? else {
                return Err(ProbeError::Closed);
            };
            if !too_long && line.trim_ascii().eq_ignore_ascii_case(b"undo") {
                if !self.log.is_empty() {
                    self.undo = true;
                    return Err(ProbeError::Undo);
                }
                if !self.retry {
                    return Err(ProbeError::NothingToUndo);
                }
                writeln!(self.notes, "nothing to undo yet").map_err(io_error)?;
                continue;
            }
            let reply = if too_long { None } else { parse_reply(&line) };
            let shown = crate::render::words::shown(line.trim_ascii());
            let shown = if too_long { format!("{shown}...") } else { shown };
            let why = match reply.clone().map(|r| self.answer_of(r)) {
                Some(Ok(answer)) => return Ok(answer),
                Some(Err(why)) => why,
                None => format!("type {}, or undo", answer_words(self.rules.sunk())),
            };
            if !self.retry {
                return Err(match reply {
                    Some(Reply::Sunk(Some(name))) if self.rules.sunk() != Sunk::None => ProbeError::UnknownShip(name),
                    _ => ProbeError::BadAnswer { answer: shown, allowed: answer_words(self.rules.sunk()) },
                });
            }
            writeln!(self.notes, "`{shown}` is not an answer: {why}").map_err(io_error)?;
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

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn fleet(&self) -> Option<&Fleet> {
        self.fleet_known.then_some(self.rules.fleet())
    }

    fn layout_search(&self) -> Option<crate::scan::sonar::LayoutSearch> {
        Some(crate::posterior::agrees)
    }

    fn probe(&mut self, pos: Position) -> Result<Answer, ProbeError> {
        if pos.row >= self.rows || pos.col >= self.cols {
            return Err(ProbeError::Io(format!("internal: {pos} is outside the board")));
        }
        let i = pos.index(self.cols);
        if let Some(known) = self.known.answer_at(i) {
            return Ok(known);
        }
        if let Some(c) = &self.contradiction {
            return Err(ProbeError::Contradiction(c.clone()));
        }
        if self.known.rows() == 0 {
            let shortage = |e| ProbeError::OutOfMemory(Shortage::of(self.rows, self.cols, e));
            self.known.try_reserve(self.rows, self.cols).map_err(shortage)?;
            self.known.reset(self.rows, self.cols);
            if self.rules.sunk() != Sunk::None {
                self.known.log_answers();
            }
        }
        self.questions += 1;
        let replayed = match self.replay.cells.get(self.replayed) {
            Some(&cell) if cell as usize == i => {
                self.replayed += 1;
                self.replay.known.answer_at(i)
            }
            Some(_) => {
                self.replayed = self.replay.cells.len();
                None
            }
            None => None,
        };
        self.replay_left.set(self.replay.cells.len() - self.replayed);
        let answer = loop {
            let answer = match replayed {
                Some(a) => a,
                None => self.ask(pos)?,
            };
            let Err(why) = check::answer(&self.known, self.announced(), pos, answer) else { break answer };
            if self.retry && replayed.is_none() {
                // A person can answer again (or undo an earlier answer).
                let io_error = ProbeError::of_io;
                writeln!(self.notes, "that answer is impossible: {why}; answer again, or undo").map_err(io_error)?;
                continue;
            }
            self.contradiction = Some(why.clone());
            return Err(ProbeError::Contradiction(why));
        };
        self.known.answered(i, answer);
        memory::push(&mut self.log, i as u32)
            .map_err(|e| ProbeError::OutOfMemory(Shortage::of(self.rows, self.cols, e)))?;
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::coords::{parse_letters, row_letters};
    use crate::scan::sonar::Impossible;

    fn run_with(
        rules: Rules,
        answers: &str,
        retry: bool,
        ships: Ships,
        probes: &[(usize, usize)],
    ) -> (Vec<String>, String, String) {
        let mut input = answers.as_bytes();
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        let mut results = Vec::new();
        {
            let lines = Lines { input: &mut input, output: &mut out, notes: &mut notes };
            let mut s = Interactive::new(Header { rows: 3, cols: 4, rules }, ships, lines, retry);
            for &(r, c) in probes {
                results.push(match s.probe(Position::new(r, c)) {
                    Ok(a) => (if a.is_hit() { "true" } else { "false" }).to_string(),
                    Err(e) => format!("err {e}"),
                });
            }
        }
        (results, String::from_utf8(out).unwrap(), String::from_utf8(notes).unwrap())
    }

    fn sonar_run(answers: &str, retry: bool, ships: Ships, probes: &[(usize, usize)]) -> (Vec<String>, String, String) {
        let rules = match ships {
            Ships::Cells(_) => Rules::problem_g(),
            Ships::Fleet => Rules::problem_g().with_fleet(Fleet::of_sizes(&[2, 1])),
        };
        run_with(rules, answers, retry, ships, probes)
    }

    #[test]
    fn sunk_answers_follow_the_rules() {
        let classic = Rules::preset("classic").unwrap().with_fleet(Fleet::named(&[("boat", 2), ("raft", 1)]));
        let (r, _, _) =
            run_with(classic.clone(), "hit\nsunk boat\nsunk RAFT\n", false, Ships::Fleet, &[(0, 0), (0, 1), (2, 2)]);
        assert_eq!(r, vec!["true", "true", "true"]);
        let (r, _, _) = run_with(classic.clone(), "sunk ship\n", false, Ships::Fleet, &[(0, 0)]);
        assert!(r[0].contains("no ship called `ship`"), "{r:?}");
        let (r, _, _) = run_with(classic.clone(), "sunk raft\nsunk raft\n", false, Ships::Fleet, &[(0, 0), (2, 2)]);
        assert!(r[1].contains("contradiction") && r[1].contains("raft, which was already sunk"), "{r:?}");
        let (r, _, notes) = run_with(classic, "sunk ship\nsunk 1\nh\n", true, Ships::Fleet, &[(0, 0)]);
        assert_eq!(r, vec!["true"]);
        assert!(notes.contains("no ship called `ship`"), "{notes}");
        let (r, _, _) = run_with(Rules::problem_g(), "sunk\n", false, Ships::Cells(3), &[(0, 0)]);
        assert!(r[0].starts_with("err answer `sunk`"), "{r:?}");
        // Ships that may touch: hits side by side and diagonal are fine (ships of 3, so
        // that none of the three hits completes a ship, which named sunk rules announce).
        let touching = Rules::preset("classic").unwrap().with_fleet(Fleet::of_sizes(&[3, 3]));
        let (r, _, _) = run_with(touching, "1\n1\n1\n", false, Ships::Fleet, &[(0, 0), (1, 1), (1, 0)]);
        assert_eq!(r, vec!["true", "true", "true"]);
    }

    #[test]
    fn cells_in_letters() {
        assert_eq!(letters(Position::new(1, 6)), "B7");
        assert_eq!(row_letters(25), "Z");
        assert_eq!(row_letters(26), "AA");
        assert_eq!(row_letters(27), "AB");
        assert_eq!(row_letters(26 * 27), "AAA");
        for row in [0, 1, 25, 26, 51, 52, 701, 702, 100_000] {
            let p = Position::new(row, 9);
            assert_eq!(parse_letters(&letters(p)), Some(p), "{}", letters(p));
        }
        assert_eq!(parse_letters("b7"), Some(Position::new(1, 6)));
        for bad in ["B0", "7", "B", "B-1", "BB7x", "", "é1"] {
            assert_eq!(parse_letters(bad), None, "{bad}");
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
        assert!(r[1].contains("but 1 ship cell was already found"), "{r:?}");
        let (r, _, _) = sonar_run("1\n1\n1\n", false, Ships::Fleet, &[(0, 0), (0, 1), (0, 2)]);
        assert!(r[2].contains("3 hits in a line, but the longest ship afloat has 2"), "{r:?}");
        let mut input: &[u8] = b"1\n1\n";
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        let lines = Lines { input: &mut input, output: &mut out, notes: &mut notes };
        let game = Header { rows: 2, cols: 2, rules: Rules::problem_g() };
        let mut s = Interactive::new(game, Ships::Cells(2), lines, false);
        assert!(s.probe(Position::new(0, 0)).is_ok());
        let diagonal =
            Contradiction { cell: Position::new(1, 1), why: Impossible::Diagonal { hit: Position::new(0, 0) } };
        assert_eq!(s.probe(Position::new(1, 1)), Err(ProbeError::Contradiction(diagonal.clone())));
        // The game stays stopped: any other probe fails the same way.
        assert_eq!(s.probe(Position::new(0, 1)), Err(ProbeError::Contradiction(diagonal)));
        assert_eq!((s.questions(), s.fleet().is_none(), s.ship_cells()), (2, true, 2));
        assert!(s.probe(Position::new(5, 0)).is_err());
    }
}

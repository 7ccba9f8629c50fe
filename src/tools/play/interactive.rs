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
//! The answer `undo` takes back the last answer ([`Interactive::undo_requested`]): the
//! caller starts the strategy again on a new sonar made [`Interactive::replaying`] the
//! answers before it, which answers the same probes without asking. With letters
//! ([`Interactive::with_letters`]) the questions are `? B7` (row B, column 7: rows A,
//! B, ... Z, AA, AB, ...; columns from 1).
//!
//! # Rules
//! An answer the rules make impossible is refused: a hit beyond the announced number
//! of ship cells, a sunk ship more than the fleet has, and, when straight ships may not
//! touch, a hit diagonal to an earlier hit or one that makes a straight run longer than
//! the largest ship (5, or the fleet's largest). The refusal is kept
//! ([`Interactive::contradiction`]) and the probe fails, so the caller can report it as
//! a contradiction.

use crate::game::fleet::Fleet;
use crate::game::position::{Direction, Position};
use crate::game::rules::{Rules, Sunk};
use crate::game::ship::MAX_SHIP;
use crate::render::coords::letters;
use crate::scan::sonar::{Answer, ProbeError, Sonar};
use crate::tools::play::protocol::{parse_reply, read_line, Header, Reply};
use std::cell::Cell;
use std::collections::{HashMap, VecDeque};
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

/// A cell not asked yet.
const UNASKED: u8 = 0;
/// A cell answered `miss`.
const MISS: u8 = 1;
/// A cell answered `hit`.
const HIT: u8 = 2;
/// A cell answered `sunk`.
const SUNK: u8 = 3;

/// The interactive sonar.
pub struct Interactive<'a> {
    rows: usize,
    cols: usize,
    rules: Rules,
    fleet_known: bool,
    ship_cells: usize,
    longest: usize,
    input: &'a mut dyn BufRead,
    output: &'a mut dyn Write,
    notes: &'a mut dyn Write,
    retry: bool,
    /// Answers given so far, one byte per cell (row-major): [`UNASKED`], [`MISS`],
    /// [`HIT`] or [`SUNK`] (its kind, if named, in `sunk_kinds`).
    answers: Vec<u8>,
    /// The kind named by each `sunk NAME` answer, by cell.
    sunk_kinds: HashMap<usize, usize>,
    /// The cells answered, in order (what `undo` takes back and a replay repeats).
    log: Vec<u32>,
    /// Answers to give again without asking, first first.
    replay: VecDeque<(Position, Answer)>,
    /// How many answers are left to replay, shared with whoever draws the board.
    replay_left: Rc<Cell<usize>>,
    undo: bool,
    letters: bool,
    hits: usize,
    /// Sunk answers so far, by kind (the last entry: unnamed ones).
    sunk: Vec<usize>,
    questions: usize,
    contradiction: Option<String>,
}

impl<'a> Interactive<'a> {
    /// A sonar for the bay of `game` (its size and rules) holding `ships` (the rules'
    /// fleet, or only a number of ship cells), asking on `lines.output` and reading
    /// answers from `lines.input`. With `retry` (a person at a terminal) bad answers are
    /// explained on `lines.notes` and asked again; otherwise they fail.
    /// Pre: `rows, cols >= 1`. Post: nothing asked yet.
    pub fn new(game: Header, ships: Ships, lines: Lines<'a>, retry: bool) -> Interactive<'a> {
        Interactive::replaying(game, ships, lines, retry, Vec::new(), Rc::default())
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
        replay: Vec<(Position, Answer)>,
        replay_left: Rc<Cell<usize>>,
    ) -> Interactive<'a> {
        let Header { rows, cols, rules } = game;
        let Lines { input, output, notes } = lines;
        let (ship_cells, fleet_known) = match ships {
            Ships::Fleet => (rules.fleet().ship_cells(), true),
            Ships::Cells(n) => (n, false),
        };
        let longest = if fleet_known { rules.fleet().sizes().first().copied().unwrap_or(0) } else { MAX_SHIP };
        let kinds = rules.fleet().kinds().len();
        Interactive {
            rows,
            cols,
            rules,
            fleet_known,
            ship_cells,
            longest,
            input,
            output,
            notes,
            retry,
            answers: Vec::new(),
            sunk_kinds: HashMap::new(),
            log: Vec::new(),
            replay: {
                replay_left.set(replay.len());
                replay.into()
            },
            replay_left,
            undo: false,
            letters: false,
            hits: 0,
            sunk: vec![0; kinds + 1],
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

    /// True when the last answer read was `undo`: the probe failed, and the game is to
    /// start again from [`Interactive::kept_answers`].
    /// Pre: none. Post: no change.
    pub fn undo_requested(&self) -> bool {
        self.undo
    }

    /// The cell of the last answer given, if any.
    /// Pre: none. Post: no change.
    pub fn last_cell(&self) -> Option<Position> {
        self.log.last().map(|&i| Position::from_index(i as usize, self.cols.max(1)))
    }

    /// The answers given before the one undone, in order.
    /// Pre: none. Post: no change.
    pub fn kept_answers(&self) -> Vec<(Position, Answer)> {
        let kept = self.log.len() - usize::from(self.undo && !self.log.is_empty());
        let cols = self.cols.max(1);
        self.log
            .iter()
            .take(kept)
            .filter_map(|&i| {
                let i = i as usize;
                self.answer_at(i).map(|a| (Position::from_index(i, cols), a))
            })
            .collect()
    }

    /// The answer recorded for cell `i`, if any.
    fn answer_at(&self, i: usize) -> Option<Answer> {
        match self.answers.get(i).copied().unwrap_or(UNASKED) {
            MISS => Some(Answer::Miss),
            HIT => Some(Answer::Hit),
            SUNK => Some(Answer::Sunk(self.sunk_kinds.get(&i).copied())),
            _ => None,
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
        self.answer_at(pos.index(self.cols)).is_some_and(|a| a.is_hit())
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

    /// Why the answer `answer` at `pos` is impossible, if it is.
    fn refuse(&self, pos: Position, answer: Answer) -> Option<String> {
        if !answer.is_hit() {
            return None;
        }
        if self.hits >= self.ship_cells {
            let all = crate::render::words::count(self.ship_cells, "ship cell");
            let verb = if self.ship_cells == 1 { "was" } else { "were" };
            return Some(format!("{pos} is a hit, but {all} {verb} already found"));
        }
        if let Answer::Sunk(kind) = answer {
            let fleet = self.rules.fleet();
            let all: usize = self.sunk.iter().sum();
            if self.fleet_known && all >= fleet.len() {
                return Some(format!("{pos} sinks a ship, but all {} ships were already sunk", fleet.len()));
            }
            if let Some(k) = kind.and_then(|k| fleet.kinds().get(k).map(|kind| (k, kind))) {
                if self.sunk.get(k.0).copied().unwrap_or(0) >= k.1.count {
                    return Some(format!("{pos} sinks the {}, which was already sunk", k.1.name));
                }
            }
        }
        // The contact rules below hold only for straight ships that may not touch.
        if self.rules.touch() || (self.fleet_known && !self.rules.fleet().is_straight()) {
            return None;
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

    /// The answer a reply means under the rules, or why it is not one.
    fn answer_of(&self, reply: Reply) -> Result<Answer, String> {
        let fleet: &Fleet = self.rules.fleet();
        match reply {
            Reply::Miss => Ok(Answer::Miss),
            Reply::Hit => Ok(Answer::Hit),
            Reply::Sunk(_) if self.rules.sunk() == Sunk::None => {
                Err("the rules never answer `sunk` here (sunk=none): answer hit or miss".into())
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
                    return Err(ProbeError::Io("undo".into()));
                }
                if !self.retry {
                    return Err(ProbeError::Io("answer `undo` before any other answer: nothing to undo".into()));
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
                None => "type hit or miss (or h/m, 1/0), sunk when a ship is complete, or undo".to_string(),
            };
            if !self.retry {
                return Err(match reply {
                    Some(Reply::Sunk(Some(name))) if !why.contains("sunk=none") => ProbeError::UnknownShip(name),
                    _ => ProbeError::BadAnswer(shown),
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

    fn probe(&mut self, pos: Position) -> Result<Answer, ProbeError> {
        if pos.row >= self.rows || pos.col >= self.cols {
            return Err(ProbeError::Io(format!("internal: {pos} is outside the board")));
        }
        let i = pos.index(self.cols);
        if let Some(known) = self.answer_at(i) {
            return Ok(known);
        }
        if let Some(why) = &self.contradiction {
            return Err(ProbeError::Io(format!("contradiction: {why}")));
        }
        if self.answers.is_empty() {
            self.answers = crate::limits::memory::filled(self.rows.saturating_mul(self.cols), UNASKED)
                .map_err(|e| ProbeError::OutOfMemory(crate::limits::memory::Shortage::of(self.rows, self.cols, e)))?;
        }
        self.questions += 1;
        let replayed = match self.replay.front() {
            Some(&(p, a)) if p == pos => {
                self.replay.pop_front();
                Some(a)
            }
            Some(_) => {
                self.replay.clear();
                None
            }
            None => None,
        };
        self.replay_left.set(self.replay.len());
        let answer = loop {
            let answer = match replayed {
                Some(a) => a,
                None => self.ask(pos)?,
            };
            let Some(why) = self.refuse(pos, answer) else { break answer };
            if self.retry && replayed.is_none() {
                // A person can answer again (or undo an earlier answer).
                let io_error = ProbeError::of_io;
                writeln!(self.notes, "that answer is impossible: {why}; answer again, or undo").map_err(io_error)?;
                continue;
            }
            self.contradiction = Some(why.clone());
            return Err(ProbeError::Io(format!("contradiction: {why}")));
        };
        if answer.is_hit() {
            self.hits += 1;
        }
        if let Answer::Sunk(kind) = answer {
            let slot = kind.unwrap_or(self.sunk.len().saturating_sub(1));
            if let Some(n) = self.sunk.get_mut(slot) {
                *n += 1;
            }
        }
        if let Some(slot) = self.answers.get_mut(i) {
            *slot = match answer {
                Answer::Miss => MISS,
                Answer::Hit => HIT,
                Answer::Sunk(kind) => {
                    if let Some(k) = kind {
                        self.sunk_kinds.insert(i, k);
                    }
                    SUNK
                }
            };
        }
        crate::limits::memory::push(&mut self.log, i as u32)
            .map_err(|e| ProbeError::OutOfMemory(crate::limits::memory::Shortage::of(self.rows, self.cols, e)))?;
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::coords::{parse_letters, row_letters};

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
        // Ships that may touch: hits side by side and diagonal are fine.
        let touching = Rules::preset("classic").unwrap().with_fleet(Fleet::of_sizes(&[2, 2]));
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
        assert_eq!(r, vec!["err answer `yes` is not one of hit, miss, sunk, sunk NAME, h, m, 1, 0"]);
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
        assert!(r[2].contains("3 hits in a line, but the longest ship has 2"), "{r:?}");
        let mut input: &[u8] = b"1\n1\n";
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        let lines = Lines { input: &mut input, output: &mut out, notes: &mut notes };
        let game = Header { rows: 2, cols: 2, rules: Rules::problem_g() };
        let mut s = Interactive::new(game, Ships::Cells(2), lines, false);
        assert!(s.probe(Position::new(0, 0)).is_ok());
        assert!(s.probe(Position::new(1, 1)).is_err());
        assert!(s.contradiction().is_some_and(|c| c.contains("(1,1)")));
        assert_eq!((s.questions(), s.fleet().is_none(), s.ship_cells()), (2, true, 2));
        assert!(s.probe(Position::new(5, 0)).is_err());
    }
}

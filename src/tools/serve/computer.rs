//! The computer's game in a match: its strategy against the player's fleet, played on a
//! thread of its own ([`Job`]), each move published as it is made, so that the page
//! shows the computer's move k as soon as it is there and a strategy that thinks a
//! second a move (lookahead) never makes the player wait for its whole game. A game
//! nobody wants any more (forgotten or evicted) stops at its next move. Games of a
//! strategy that thinks seconds a game take turns through a [`Gate`], one fewer at
//! once than the machine has cores, so that they never take every core from the event
//! loop and the workers.

use super::games::{Feed, Job};
use crate::game::board::Board;
use crate::game::fleet::Fleet;
use crate::game::position::Position;
use crate::game::rules::Rules;
use crate::render::json::Object;
use crate::scan::observer::{ScanObserver, Source};
use crate::scan::referee::Referee;
use crate::scan::sonar::{Answer, ProbeError, Sonar};
use crate::strategy;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Duration;

/// The referee's answer in words: `miss`, `hit` or `sunk`, and the sunk ship's name
/// when the rules announce it.
/// Pre: `said` is an answer about `board`. Post: no change.
pub(crate) fn answer_words(said: Answer, board: &Board) -> (&'static str, Option<String>) {
    let fleet = board.rules().fleet();
    match said {
        Answer::Miss => ("miss", None),
        Answer::Hit => ("hit", None),
        Answer::Sunk(kind) => ("sunk", kind.and_then(|k| fleet.kinds().get(k)).map(|k| k.name.clone())),
    }
}

/// One move as the page reads it: `probe`, `answer`, `ship`, `reply`.
fn move_json(pos: Position, said: Answer, board: &Board) -> String {
    let (word, ship) = answer_words(said, board);
    Object::new()
        .field("probe", (pos.row, pos.col))
        .field("answer", word)
        .field("ship", ship)
        .field("reply", &*crate::tools::play::protocol::reply_line(said, board.rules().fleet()))
        .finish()
}

/// Publishes each of the computer's moves as it is made.
struct Publish<'a> {
    feed: &'a Feed,
    board: &'a Board,
}

impl ScanObserver for Publish<'_> {
    fn probed(&mut self, pos: Position, _source: Source, answer: Answer) {
        self.feed.push(move_json(pos, answer, self.board));
    }
}

/// Why a game nobody wants any more ended.
const LEFT: &str = "the game was left";

/// The referee, refusing the next probe once nobody wants the game.
struct Stoppable<'a> {
    referee: Referee<'a>,
    feed: &'a Feed,
}

impl Sonar for Stoppable<'_> {
    fn rows(&self) -> usize {
        self.referee.rows()
    }
    fn cols(&self) -> usize {
        self.referee.cols()
    }
    fn ship_cells(&self) -> usize {
        self.referee.ship_cells()
    }
    fn rules(&self) -> &Rules {
        self.referee.rules()
    }
    fn fleet(&self) -> Option<&Fleet> {
        self.referee.fleet()
    }
    fn probe(&mut self, pos: Position) -> Result<Answer, ProbeError> {
        if self.feed.stopped() {
            return Err(ProbeError::ReaderGone(LEFT.into()));
        }
        self.referee.probe(pos)
    }
}

/// A counting gate: at most `size` holders at once; the others wait their turn.
#[derive(Debug)]
pub(crate) struct Gate {
    size: usize,
    inside: Mutex<usize>,
    turn: Condvar,
}

/// A place inside a [`Gate`], given back when dropped.
#[derive(Debug)]
pub(crate) struct Pass<'a> {
    gate: &'a Gate,
}

impl Gate {
    /// A gate for `size` holders at once (at least 1).
    pub(crate) const fn new(size: usize) -> Gate {
        Gate { size: if size == 0 { 1 } else { size }, inside: Mutex::new(0), turn: Condvar::new() }
    }

    /// Waits for a place, checking `give_up` every 50 ms while waiting.
    /// Pre: none. Post: `None` when `give_up` said so first; else a place, held until
    /// the pass is dropped.
    pub(crate) fn enter(&self, give_up: impl Fn() -> bool) -> Option<Pass<'_>> {
        let mut inside = self.inside.lock().unwrap_or_else(|e| e.into_inner());
        while *inside >= self.size {
            if give_up() {
                return None;
            }
            inside = self
                .turn
                .wait_timeout(inside, Duration::from_millis(50))
                .map(|(guard, _)| guard)
                .unwrap_or_else(|e| e.into_inner().0);
        }
        *inside += 1;
        Some(Pass { gate: self })
    }
}

impl Drop for Pass<'_> {
    fn drop(&mut self) {
        let mut inside = self.gate.inside.lock().unwrap_or_else(|e| e.into_inner());
        *inside = inside.saturating_sub(1);
        self.gate.turn.notify_one();
    }
}

/// The games of strategies that think seconds a game ([`strategy::Entry::in_all`]
/// false: lookahead) played at once: one fewer than the cores, at least one.
fn thinkers() -> &'static Gate {
    static GATE: OnceLock<Gate> = OnceLock::new();
    GATE.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        Gate::new(cores.saturating_sub(1))
    })
}

/// Starts strategy `name` (seeded by `seed`) against `board`, the player's fleet.
/// Pre: `name` can play `board`'s rules and size. Post: `Err` (why) when no job can
/// start ([`Job::spawn`]); the job's end is the scans, or why the game failed. A
/// strategy that thinks seconds a game first waits its turn ([`thinkers`]).
pub(crate) fn start(name: &str, seed: u64, board: Board) -> Result<Job, String> {
    let mut strategy = strategy::for_rules(name, seed, board.rules()).map_err(|e| e.to_string())?;
    let slow = strategy::STRATEGIES.iter().any(|e| e.name == name && !e.in_all);
    Job::spawn(move |feed| {
        let _pass = if slow { Some(thinkers().enter(|| feed.stopped()).ok_or(LEFT)?) } else { None };
        let mut sonar = Stoppable { referee: Referee::new(&board), feed };
        let mut publish = Publish { feed, board: &board };
        let record =
            strategy::solve_observed(strategy.as_mut(), &mut sonar, &mut publish).map_err(|e| e.to_string())?;
        Ok(record.scans())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;
    use crate::strategy::testing::game_boards;
    use std::time::Duration;

    /// Waits until `ok` holds of where `job` stands (at most a minute).
    fn until(job: &Job, ok: impl Fn(&super::super::games::Since) -> bool) -> super::super::games::Since {
        super::super::games::tests::until(job, Duration::from_secs(60), ok)
    }

    #[test]
    fn the_moves_are_published_as_made_and_the_game_ends_with_its_scans() {
        let rules = Rules::preset("classic").unwrap();
        let board = game_boards(&rules, 10, 10, 5, 1).pop().unwrap();
        let job = start("density", 3, board.clone()).unwrap();
        let done = until(&job, |s| s.end.is_some());
        let want = crate::strategy::solve(&mut crate::strategy::Density::default(), &mut Referee::new(&board)).unwrap();
        assert_eq!(done.end, Some(Ok(want.scans())));
        assert_eq!(done.made, want.scans());
        assert!(done.moves.iter().all(|m| m.starts_with("{\"probe\": [")), "{:?}", done.moves.first());
        assert!(start("seer", 3, board).is_err());
    }

    #[test]
    fn the_gate_lets_in_its_size_and_the_others_wait_or_give_up() {
        let gate = std::sync::Arc::new(Gate::new(1));
        let first = gate.enter(|| false).unwrap();
        assert!(gate.enter(|| true).is_none(), "full: giving up at once");
        let (sent, got) = std::sync::mpsc::channel();
        let waiting = {
            let gate = std::sync::Arc::clone(&gate);
            std::thread::spawn(move || {
                let pass = gate.enter(|| false);
                sent.send(()).unwrap();
                pass.is_some()
            })
        };
        assert!(got.recv_timeout(Duration::from_millis(200)).is_err(), "in while the gate was full");
        drop(first);
        assert!(got.recv_timeout(Duration::from_secs(10)).is_ok());
        assert!(waiting.join().unwrap());
        assert!(gate.enter(|| false).is_some(), "the place was given back");
        assert_eq!(Gate::new(0).size, 1);
    }

    #[test]
    fn a_game_nobody_wants_stops_at_its_next_move() {
        let rules = Rules::preset("classic").unwrap();
        let board = game_boards(&rules, 10, 10, 6, 1).pop().unwrap();
        let job = start("lookahead", 3, board).unwrap();
        until(&job, |s| s.made >= 1);
        job.stop();
        let ended = until(&job, |s| s.end.is_some());
        let why = ended.end.unwrap().unwrap_err();
        assert!(why.contains("the game was left"), "{why}");
        // lookahead needs far more than a few moves: the game did stop early.
        assert!(ended.made < 17, "{}", ended.made);
    }
}

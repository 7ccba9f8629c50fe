//! The computer's game in a match: its strategy against the player's fleet, played on a
//! thread of its own ([`Job`]), each move published as it is made, so that the page
//! shows the computer's move k as soon as it is there and a strategy that thinks a
//! second a move (lookahead) never makes the player wait for its whole game. A game
//! nobody wants any more (forgotten or evicted) stops at its next move.

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
            return Err(ProbeError::ReaderGone("the game was left".into()));
        }
        self.referee.probe(pos)
    }
}

/// Starts strategy `name` (seeded by `seed`) against `board`, the player's fleet.
/// Pre: `name` can play `board`'s rules and size. Post: `Err` (why) when no job can
/// start ([`Job::spawn`]); the job's end is the scans, or why the game failed.
pub(crate) fn start(name: &str, seed: u64, board: Board) -> Result<Job, String> {
    let mut strategy = strategy::for_rules(name, seed, board.rules()).map_err(|e| e.to_string())?;
    Job::spawn(move |feed| {
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
    use std::time::{Duration, Instant};

    /// Waits until `ok` holds of where `job` stands (at most a minute).
    fn until(job: &Job, ok: impl Fn(&super::super::games::Since) -> bool) -> super::super::games::Since {
        let start = Instant::now();
        loop {
            let since = job.since(0);
            if ok(&since) {
                return since;
            }
            assert!(start.elapsed() < Duration::from_secs(60), "{since:?}");
            std::thread::sleep(Duration::from_millis(5));
        }
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

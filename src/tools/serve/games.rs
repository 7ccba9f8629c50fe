//! The games a server keeps: each hidden bay under a random token, at most a fixed
//! number of them (the oldest evicted first), and the 128-bit tokens themselves.

use crate::game::board::Board;
use crate::scan::record::ScanRecord;
use std::collections::{HashMap, VecDeque};
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A source of random tokens: 16 bytes of `/dev/urandom` each, written as 32 hex digits.
#[derive(Debug)]
pub(crate) struct Tokens {
    file: Mutex<std::fs::File>,
}

impl Tokens {
    /// Opens `/dev/urandom`.
    /// Pre: none. Post: `Err` when the system has none.
    pub(crate) fn open() -> io::Result<Tokens> {
        Ok(Tokens { file: Mutex::new(std::fs::File::open("/dev/urandom")?) })
    }

    /// 16 random bytes.
    /// Pre: none. Post: `Err` when the read fails.
    pub(crate) fn bytes(&self) -> io::Result<[u8; 16]> {
        let mut out = [0u8; 16];
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.read_exact(&mut out)?;
        Ok(out)
    }

    /// A new token: 128 random bits as 32 lower-case hex digits.
    /// Pre: none. Post: `Err` when the read fails.
    pub(crate) fn token(&self) -> io::Result<String> {
        Ok(self.bytes()?.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// A random 64-bit seed.
    /// Pre: none. Post: `Err` when the read fails.
    pub(crate) fn seed(&self) -> io::Result<u64> {
        let b = self.bytes()?;
        let mut eight = [0u8; 8];
        eight.copy_from_slice(b.get(..8).unwrap_or(&[0; 8]));
        Ok(u64::from_le_bytes(eight))
    }
}

/// True for a string that can be a token (32 lower-case hex digits, as made).
pub(crate) fn is_token(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// One game: the hidden bay and the probes so far.
#[derive(Debug, Clone)]
pub(crate) struct Game {
    /// The hidden bay.
    pub(crate) board: Board,
    /// What was probed.
    pub(crate) record: ScanRecord,
    /// Cells asked through `/exec` (which may ask a cell again).
    pub(crate) asked: u64,
    /// True once the player gave up (the fleet was revealed): no more probes.
    pub(crate) given_up: bool,
    /// The computer's game against the player's fleet (a match), played off the
    /// request path.
    pub(crate) computer: Option<Job>,
}

impl Game {
    /// A new game of `board`.
    pub(crate) fn new(board: Board) -> Game {
        let record = ScanRecord::new(board.rows(), board.cols());
        Game { board, record, asked: 0, given_up: false, computer: None }
    }

    /// Stops the computer's game, when there is one (the game is being forgotten).
    fn stop(&self) {
        if let Some(job) = &self.computer {
            job.stop();
        }
    }
}

/// Background jobs running at most at once; past it a new one is refused (503).
pub(crate) const MAX_JOBS: usize = 16;

/// Background jobs running now, in the whole process.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// A game the computer plays on a thread of its own: its moves as they are made (each
/// the text of a JSON object), then how it ended (its scans, or why it failed). The
/// page shows each move as it comes, so a strategy that thinks for a second a move
/// never makes the player wait for its whole game.
#[derive(Debug, Clone)]
pub(crate) struct Job {
    shared: Arc<Shared>,
}

/// What the playing thread and the requests share.
#[derive(Debug, Default)]
struct Shared {
    progress: Mutex<Progress>,
    /// Set when nobody wants the game any more (its game forgotten or evicted).
    stop: AtomicBool,
}

/// The moves so far and, once the game is over, its end.
#[derive(Debug, Default)]
struct Progress {
    moves: Vec<String>,
    end: Option<Result<usize, String>>,
}

/// What the playing thread holds: where its moves go, and whether to go on.
#[derive(Debug)]
pub(crate) struct Feed {
    shared: Arc<Shared>,
}

impl Feed {
    /// Adds a move (a JSON object's text) for the requests to see.
    /// Pre: none. Post: one more move.
    pub(crate) fn push(&self, item: String) {
        self.shared.progress.lock().unwrap_or_else(|e| e.into_inner()).moves.push(item);
    }

    /// True once nobody wants the game: the thread should stop at its next move.
    pub(crate) fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::SeqCst)
    }
}

/// Where a job stands: its moves from the one asked for on, how many it has made in
/// all, and its end once over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Since {
    /// The moves from the one asked for on.
    pub(crate) moves: Vec<String>,
    /// The moves made so far, in all.
    pub(crate) made: usize,
    /// `None` while it plays; then the scans, or why the game failed.
    pub(crate) end: Option<Result<usize, String>>,
}

impl Job {
    /// Runs `work` on a new thread, with a [`Feed`] for its moves; its result is the
    /// game's end (the scans, or why it failed).
    /// Pre: none. Post: `Err` (with why) when [`MAX_JOBS`] jobs run already or no
    /// thread could be started; the job counts as running until `work` returns.
    pub(crate) fn spawn(work: impl FnOnce(&Feed) -> Result<usize, String> + Send + 'static) -> Result<Job, String> {
        if RUNNING.fetch_add(1, Ordering::SeqCst) >= MAX_JOBS {
            RUNNING.fetch_sub(1, Ordering::SeqCst);
            return Err(format!("{MAX_JOBS} computer games are being played already: try again in a moment"));
        }
        let job = Job { shared: Arc::new(Shared::default()) };
        let feed = Feed { shared: Arc::clone(&job.shared) };
        let spawned = std::thread::Builder::new().name("serve-job".into()).spawn(move || {
            let end = work(&feed);
            feed.shared.progress.lock().unwrap_or_else(|e| e.into_inner()).end = Some(end);
            RUNNING.fetch_sub(1, Ordering::SeqCst);
        });
        if let Err(e) = spawned {
            RUNNING.fetch_sub(1, Ordering::SeqCst);
            return Err(format!("no thread for the computer's game: {e}"));
        }
        Ok(job)
    }

    /// The moves from the `from`-th on (none when `from` is past them), with the count
    /// and the end so far.
    /// Pre: none. Post: no change.
    pub(crate) fn since(&self, from: usize) -> Since {
        let progress = self.shared.progress.lock().unwrap_or_else(|e| e.into_inner());
        let moves = progress.moves.get(from..).map(<[String]>::to_vec).unwrap_or_default();
        Since { moves, made: progress.moves.len(), end: progress.end.clone() }
    }

    /// Asks the thread to stop at its next move (nobody wants the game any more).
    /// Pre: none. Post: the game ends, failed, within a move.
    pub(crate) fn stop(&self) {
        self.shared.stop.store(true, Ordering::SeqCst);
    }
}

/// Games by token, at most `cap`; adding past the cap evicts the oldest.
#[derive(Debug)]
pub(crate) struct Store {
    inner: Mutex<Inner>,
    cap: usize,
}

#[derive(Debug, Default)]
struct Inner {
    games: HashMap<String, Game>,
    order: VecDeque<String>,
    evicted: u64,
}

impl Store {
    /// An empty store of at most `cap` games (at least 1).
    pub(crate) fn new(cap: usize) -> Store {
        Store { inner: Mutex::new(Inner::default()), cap: cap.max(1) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps `game` under `token`, evicting the oldest games past the cap.
    /// Pre: `token` is new. Post: `len() <= cap`.
    pub(crate) fn insert(&self, token: String, game: Game) {
        let mut inner = self.lock();
        while inner.games.len() >= self.cap {
            let Some(old) = inner.order.pop_front() else { break };
            if let Some(game) = inner.games.remove(&old) {
                inner.evicted += 1;
                game.stop();
            }
        }
        inner.order.push_back(token.clone());
        inner.games.insert(token, game);
    }

    /// Runs `f` on the game of `token`.
    /// Pre: none. Post: `None` when there is no such game (never made, or evicted).
    pub(crate) fn with<T>(&self, token: &str, f: impl FnOnce(&mut Game) -> T) -> Option<T> {
        let mut inner = self.lock();
        inner.games.get_mut(token).map(f)
    }

    /// Forgets the game of `token` (its computer's game, if any, is stopped).
    /// Pre: none. Post: false when there was no such game.
    pub(crate) fn remove(&self, token: &str) -> bool {
        let game = self.lock().games.remove(token);
        game.map(|g| g.stop()).is_some()
    }

    /// Number of games kept.
    pub(crate) fn len(&self) -> usize {
        self.lock().games.len()
    }

    /// Number of games evicted so far.
    pub(crate) fn evicted(&self) -> u64 {
        self.lock().evicted
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn board() -> Board {
        Board::new(2, 2, Vec::new()).unwrap()
    }

    #[test]
    fn the_oldest_game_goes_first() {
        let store = Store::new(2);
        store.insert("a".into(), Game::new(board()));
        store.insert("b".into(), Game::new(board()));
        store.insert("c".into(), Game::new(board()));
        assert_eq!(store.len(), 2);
        assert_eq!(store.evicted(), 1);
        assert!(store.with("a", |_| ()).is_none());
        assert!(store.with("c", |_| ()).is_some());
    }

    /// Waits until `ok` holds of where `job` stands, at most `limit` (the computer's
    /// tests wait on it too).
    pub(crate) fn until(job: &Job, limit: std::time::Duration, ok: impl Fn(&Since) -> bool) -> Since {
        let start = std::time::Instant::now();
        loop {
            let since = job.since(0);
            if ok(&since) {
                return since;
            }
            assert!(start.elapsed() < limit, "{since:?}");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Waits until `job` has ended (at most 10 s).
    fn ended(job: &Job) -> Since {
        until(job, std::time::Duration::from_secs(10), |s| s.end.is_some())
    }

    #[test]
    fn a_job_runs_off_the_callers_thread_and_shows_its_moves_as_they_come() {
        let (send, receive) = std::sync::mpsc::channel::<()>();
        let job = Job::spawn(move |feed| {
            feed.push("a".into());
            let _ = receive.recv();
            feed.push("b".into());
            Ok(2)
        })
        .unwrap();
        let start = std::time::Instant::now();
        while job.since(0).made == 0 {
            assert!(start.elapsed().as_secs() < 10);
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(job.since(0), Since { moves: vec!["a".into()], made: 1, end: None });
        send.send(()).unwrap();
        assert_eq!(ended(&job), Since { moves: vec!["a".into(), "b".into()], made: 2, end: Some(Ok(2)) });
        assert_eq!(job.since(1).moves, vec!["b".to_string()]);
        assert_eq!(job.since(2).moves, Vec::<String>::new());
        assert_eq!(job.since(usize::MAX), Since { moves: Vec::new(), made: 2, end: Some(Ok(2)) });
    }

    #[test]
    fn a_forgotten_or_evicted_game_stops_its_computer() {
        let store = Store::new(1);
        let mut jobs = Vec::new();
        for token in ["a", "b"] {
            let mut game = Game::new(board());
            let job = Job::spawn(|feed| {
                let start = std::time::Instant::now();
                while !feed.stopped() {
                    if start.elapsed().as_secs() >= 10 {
                        return Ok(0);
                    }
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                Err("stopped".into())
            })
            .unwrap();
            game.computer = Some(job.clone());
            jobs.push(job);
            store.insert(token.into(), game);
        }
        // "a" was evicted by "b"; "b" is forgotten.
        assert_eq!(ended(&jobs[0]).end, Some(Err("stopped".into())));
        assert!(jobs[1].since(0).end.is_none());
        assert!(store.remove("b"));
        assert!(!store.remove("b"));
        assert_eq!(ended(&jobs[1]).end, Some(Err("stopped".into())));
        assert_eq!(store.len(), 0);
        assert_eq!(store.evicted(), 1);
    }

    #[test]
    fn tokens_are_128_random_bits() {
        let t = Tokens::open().unwrap();
        let (a, b) = (t.token().unwrap(), t.token().unwrap());
        assert!(is_token(&a) && is_token(&b));
        assert_ne!(a, b);
        assert!(!is_token("abc"));
        assert!(!is_token(&a.to_ascii_uppercase().replace(|c: char| c.is_ascii_digit(), "A")));
    }
}

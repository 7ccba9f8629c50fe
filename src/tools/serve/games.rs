//! The games a server keeps: each hidden bay under a random token, at most a fixed
//! number of them (the oldest evicted first), and the 128-bit tokens themselves.

use crate::game::board::Board;
use crate::scan::record::ScanRecord;
use std::collections::{HashMap, VecDeque};
use std::io::{self, Read};
use std::sync::atomic::{AtomicUsize, Ordering};
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
}

/// Background jobs running at most at once; past it a new one is refused (503).
pub(crate) const MAX_JOBS: usize = 16;

/// Background jobs running now, in the whole process.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// A result computed on a thread of its own: `None` while it runs, then the JSON text
/// or an error message.
#[derive(Debug, Clone)]
pub(crate) struct Job {
    result: Arc<Mutex<Option<Result<String, String>>>>,
}

impl Job {
    /// Runs `work` on a new thread.
    /// Pre: none. Post: `Err` (with why) when [`MAX_JOBS`] jobs run already or no
    /// thread could be started; the job counts as running until `work` returns.
    pub(crate) fn spawn(work: impl FnOnce() -> Result<String, String> + Send + 'static) -> Result<Job, String> {
        if RUNNING.fetch_add(1, Ordering::SeqCst) >= MAX_JOBS {
            RUNNING.fetch_sub(1, Ordering::SeqCst);
            return Err(format!("{MAX_JOBS} computer games are being played already: try again in a moment"));
        }
        let job = Job { result: Arc::new(Mutex::new(None)) };
        let slot = Arc::clone(&job.result);
        let spawned = std::thread::Builder::new().name("serve-job".into()).spawn(move || {
            let out = work();
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(out);
            RUNNING.fetch_sub(1, Ordering::SeqCst);
        });
        if let Err(e) = spawned {
            RUNNING.fetch_sub(1, Ordering::SeqCst);
            return Err(format!("no thread for the computer's game: {e}"));
        }
        Ok(job)
    }

    /// The result: `None` while the job runs.
    pub(crate) fn result(&self) -> Option<Result<String, String>> {
        self.result.lock().unwrap_or_else(|e| e.into_inner()).clone()
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
            if inner.games.remove(&old).is_some() {
                inner.evicted += 1;
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
mod tests {
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

    #[test]
    fn a_job_runs_off_the_callers_thread_and_keeps_its_result() {
        let (send, receive) = std::sync::mpsc::channel::<()>();
        let job = Job::spawn(move || {
            let _ = receive.recv();
            Ok("done".into())
        })
        .unwrap();
        assert!(job.result().is_none());
        send.send(()).unwrap();
        let start = std::time::Instant::now();
        while job.result().is_none() {
            assert!(start.elapsed().as_secs() < 10);
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(job.result(), Some(Ok("done".to_string())));
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

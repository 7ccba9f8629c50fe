//! `serve`: a small HTTP/1.1 server (standard library only) for the page, the JSON API
//! and the remote-service seed's `/exec`.
//!
//! One thread waits on every connection at once (an `epoll` event loop, [`event`]): it
//! reads what arrives on non-blocking sockets and parses it a piece at a time under caps
//! ([`http::Limits`]); only a whole request goes to the fixed pool of workers, and
//! answers are written without blocking (what a slow reader does not take waits in the
//! loop, not in a worker). So an idle or slow connection costs
//! memory (a few hundred bytes, plus what it sent) but never a worker; connections past
//! the cap (or past the open-file limit) get a 503 at once.

pub(crate) mod api;
pub mod client;
mod computer;
mod event;
pub(crate) mod games;
pub mod http;
pub(crate) mod levels;

use crate::game::rules::Rules;
use std::io;
use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How a server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen (port 0: any free port).
    pub bind: SocketAddr,
    /// Worker threads (at least 1): they answer whole requests.
    pub workers: usize,
    /// Whole requests waiting for a worker at most (past it: 503).
    pub queue: usize,
    /// Connections held at most (past it, or past the open-file limit less a reserve:
    /// 503 at once).
    pub max_connections: usize,
    /// A connection idle this long between requests is closed.
    pub idle: Duration,
    /// The caps on one request.
    pub limits: http::Limits,
    /// Games kept at most (the oldest evicted).
    pub max_games: usize,
    /// Requests served on one connection at most.
    pub max_requests: usize,
    /// The rules of `/exec`'s games.
    pub exec_rules: Rules,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            workers: 64,
            queue: 1024,
            max_connections: 10_000,
            idle: Duration::from_secs(5),
            limits: http::Limits::default(),
            max_games: 10_000,
            max_requests: 1000,
            exec_rules: Rules::preset("starwars").unwrap_or_default(),
        }
    }
}

/// What the workers share.
#[derive(Debug)]
pub(crate) struct State {
    /// The configuration.
    pub(crate) config: Config,
    /// The games.
    pub(crate) store: games::Store,
    /// The source of tokens and seeds.
    pub(crate) tokens: games::Tokens,
    /// The rules of `/exec`'s games.
    pub(crate) exec_rules: Rules,
    /// Set when the server stops.
    stop: AtomicBool,
}

/// A running server.
#[derive(Debug)]
pub struct Handle {
    addr: SocketAddr,
    state: Arc<State>,
    shared: Arc<event::Shared>,
    event_loop: Option<JoinHandle<()>>,
    workers: Vec<JoinHandle<()>>,
    cap: usize,
}

/// Starts a server. The soft open-file limit is raised to the hard one first, and the
/// connections held at most are `config.max_connections` or that limit less
/// a reserve, the smaller.
/// Pre: none. Post: listening on `handle.addr()` once this returns; `Err` when the
/// address cannot be bound, `/dev/urandom` cannot be opened, or a thread cannot start.
pub fn start(config: Config) -> io::Result<Handle> {
    let files = crate::sys::raise_open_file_limit();
    let cap = usize::try_from(files.saturating_sub(event::RESERVED_FDS))
        .unwrap_or(usize::MAX)
        .min(config.max_connections)
        .max(1);
    let listener = TcpListener::bind(config.bind)?;
    let addr = listener.local_addr()?;
    let state = Arc::new(State {
        store: games::Store::new(config.max_games),
        tokens: games::Tokens::open()?,
        exec_rules: config.exec_rules.clone(),
        stop: AtomicBool::new(false),
        config,
    });
    let (shared, wake_read) = event::shared()?;
    let shared = Arc::new(shared);
    let mut workers = Vec::new();
    for k in 0..state.config.workers.max(1) {
        let (state, shared) = (Arc::clone(&state), Arc::clone(&shared));
        workers
            .push(std::thread::Builder::new().name(format!("serve-{k}")).spawn(move || event::work(&state, &shared))?);
    }
    let (loop_state, loop_shared) = (Arc::clone(&state), Arc::clone(&shared));
    let event_loop = std::thread::Builder::new()
        .name("serve-loop".into())
        .spawn(move || event::run(&loop_state, &loop_shared, listener, wake_read, cap))?;
    Ok(Handle { addr, state, shared, event_loop: Some(event_loop), workers, cap })
}

impl Handle {
    /// The address listened on (with the port chosen when 0 was asked).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The games kept now, and how many were evicted so far.
    pub fn games(&self) -> (usize, u64) {
        (self.state.store.len(), self.state.store.evicted())
    }

    /// The most connections held at once (past it: 503).
    pub fn max_connections(&self) -> usize {
        self.cap
    }

    /// Serves until the process ends (Ctrl-C).
    /// Pre: none. Post: returns only if the event loop ends.
    pub fn wait(mut self) {
        if let Some(a) = self.event_loop.take() {
            let _ = a.join();
        }
    }

    /// Stops: the requests with workers are answered, every connection is closed, and
    /// every thread joined.
    /// Pre: none. Post: no thread of this server runs.
    pub fn stop(mut self) {
        self.state.stop.store(true, Ordering::SeqCst);
        self.shared.wake();
        if let Some(a) = self.event_loop.take() {
            let _ = a.join();
        }
        self.shared.stop_workers();
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

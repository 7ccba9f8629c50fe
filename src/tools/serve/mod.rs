//! `serve`: a small HTTP/1.1 server (standard library only) for the page, the JSON API
//! and the remote-service seed's `/exec`.
//!
//! One thread accepts connections and hands them to a fixed pool of workers through a
//! bounded queue (a full queue answers 503 at once). A worker serves one connection at
//! a time: requests are read under caps ([`http::Limits`]), a connection idle past the
//! idle timeout is closed, and a kept-alive connection is closed after every 8th
//! response while other connections are waiting, so that a few clients cannot hold
//! every worker.

pub(crate) mod api;
pub mod client;
pub(crate) mod games;
pub mod http;
pub(crate) mod levels;

use crate::game::rules::Rules;
use std::io::{self, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How a server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen (port 0: any free port).
    pub bind: SocketAddr,
    /// Worker threads (at least 1).
    pub workers: usize,
    /// Connections waiting for a worker at most (past it: 503).
    pub queue: usize,
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
    /// Connections waiting for a worker.
    queued: AtomicUsize,
    /// Set when the server stops.
    stop: AtomicBool,
}

/// A running server.
#[derive(Debug)]
pub struct Handle {
    addr: SocketAddr,
    state: Arc<State>,
    accept: Option<JoinHandle<()>>,
    workers: Vec<JoinHandle<()>>,
}

/// Starts a server.
/// Pre: none. Post: listening on `handle.addr()` once this returns; `Err` when the
/// address cannot be bound or `/dev/urandom` cannot be opened.
pub fn start(config: Config) -> io::Result<Handle> {
    let listener = TcpListener::bind(config.bind)?;
    let addr = listener.local_addr()?;
    let state = Arc::new(State {
        store: games::Store::new(config.max_games),
        tokens: games::Tokens::open()?,
        exec_rules: config.exec_rules.clone(),
        queued: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        config,
    });
    let (send, receive) = sync_channel::<TcpStream>(state.config.queue.max(1));
    let receive = Arc::new(Mutex::new(receive));
    let mut workers = Vec::new();
    for k in 0..state.config.workers.max(1) {
        let (state, receive) = (Arc::clone(&state), Arc::clone(&receive));
        workers.push(std::thread::Builder::new().name(format!("serve-{k}")).spawn(move || work(&state, &receive))?);
    }
    let accept_state = Arc::clone(&state);
    let accept = std::thread::Builder::new().name("serve-accept".into()).spawn(move || {
        for stream in listener.incoming() {
            if accept_state.stop.load(Ordering::SeqCst) {
                break;
            }
            let Ok(stream) = stream else { continue };
            let _ = stream.set_nodelay(true);
            accept_state.queued.fetch_add(1, Ordering::SeqCst);
            match send.try_send(stream) {
                Ok(()) => {}
                Err(TrySendError::Full(mut stream)) | Err(TrySendError::Disconnected(mut stream)) => {
                    accept_state.queued.fetch_sub(1, Ordering::SeqCst);
                    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
                    let busy = http::Response::error(503, "the server is busy: try again");
                    let _ = http::write_response(&mut stream, &busy, false, false);
                }
            }
        }
        // Dropping `send` ends the workers once the queue is empty.
    })?;
    Ok(Handle { addr, state, accept: Some(accept), workers })
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

    /// Serves until the process ends (Ctrl-C).
    /// Pre: none. Post: returns only if the accepting thread ends.
    pub fn wait(mut self) {
        if let Some(a) = self.accept.take() {
            let _ = a.join();
        }
    }

    /// Stops accepting, lets the workers finish their connections, and joins them.
    /// Pre: none. Post: no thread of this server runs.
    pub fn stop(mut self) {
        self.state.stop.store(true, Ordering::SeqCst);
        // Wake the accepting thread with a connection of our own.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(a) = self.accept.take() {
            let _ = a.join();
        }
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

/// A worker: takes connections off the queue until it is closed.
fn work(state: &State, receive: &Mutex<Receiver<TcpStream>>) {
    loop {
        let next = {
            let guard = receive.lock().unwrap_or_else(|e| e.into_inner());
            guard.recv()
        };
        let Ok(stream) = next else { return };
        state.queued.fetch_sub(1, Ordering::SeqCst);
        if state.stop.load(Ordering::SeqCst) {
            continue;
        }
        serve_connection(state, stream);
    }
}

/// A kept-alive connection gives its worker up (is closed after a response) every this
/// many requests while other connections wait: often enough to be fair, rarely enough
/// that clients do not spend their time reconnecting.
const YIELD_EVERY: usize = 8;

/// Serves the requests of one connection.
fn serve_connection(state: &State, stream: TcpStream) {
    let config = &state.config;
    let _ = stream.set_read_timeout(Some(config.idle));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(10)));
    let Ok(read_half) = stream.try_clone() else { return };
    let mut reader = BufReader::with_capacity(8192, read_half);
    let mut out = io::BufWriter::new(stream);
    for served in 1..=config.max_requests.max(1) {
        let request = match http::read_request(&mut reader, &config.limits) {
            Ok(r) => r,
            Err(http::ReadError::Closed) => return,
            Err(http::ReadError::Refuse(status, message)) => {
                let _ = http::write_response(&mut out, &http::Response::error(status, &message), false, false);
                return;
            }
        };
        let response = api::route(state, &request);
        let keep = request.keep_alive
            && served < config.max_requests
            && !state.stop.load(Ordering::SeqCst)
            && (served % YIELD_EVERY != 0 || state.queued.load(Ordering::SeqCst) == 0);
        let head = request.method == "HEAD";
        if http::write_response(&mut out, &response, keep, head).is_err() || !keep {
            let _ = out.flush();
            return;
        }
    }
}

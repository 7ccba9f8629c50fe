//! The event loop and the workers: one thread waits on every connection at once
//! (`epoll(7)`, through [`crate::sys::Epoll`]), reads the bytes that arrive on
//! non-blocking sockets and parses them a piece at a time ([`http::RequestReader`]);
//! only a whole request goes further. A request answered in microseconds whatever its
//! body ([`api::quick`]: a probe, a page file, the rules) is answered by the loop
//! itself, in turn after the round's readiness reports; every other goes to the pool of
//! workers, so that a slow one (advice, a trace) never holds the loop. The worker
//! writes its answer at once without blocking, and hands the connection back to the
//! loop, which writes whatever the socket did not take (waiting for it to be writable)
//! and reads on. A connection costs a few hundred bytes while it waits, a slow reader
//! or writer never holds a worker, and every wait has a deadline: the idle timeout
//! between requests, `request_time` from a request's first byte to its last, and
//! [`WRITE_TIME`] for a response to be taken.

use super::{api, http, State};
use crate::sys::{Epoll, Ready, EPOLLERR, EPOLLET, EPOLLHUP, EPOLLIN, EPOLLOUT, EPOLLRDHUP};
use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::fd::AsFd;
use std::os::unix::net::UnixStream;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The longest a response may take to be written (a client that reads slower is
/// dropped).
pub(crate) const WRITE_TIME: Duration = Duration::from_secs(10);

/// After a refusal (408, 413, ...), the connection's input is read and dropped this long
/// at most before it is closed, so that the answer is not lost to a reset.
const LINGER: Duration = Duration::from_secs(2);

/// How often deadlines are checked.
const TICK: Duration = Duration::from_millis(50);

/// File descriptors kept for everything but connections (the listener, the epoll
/// instance, the wake-up pair, `/dev/urandom`, the spare descriptor, standard streams,
/// and a margin).
pub(crate) const RESERVED_FDS: u64 = 32;

/// The most bytes read from one connection per readiness report (then the others get
/// their turn).
const READ_BURST: usize = 256 * 1024;

/// The key of the listener in the epoll set.
const LISTENER: u64 = u64::MAX;
/// The key of the wake-up socket.
const WAKER: u64 = u64::MAX - 1;

/// A request for a worker: the connection's key and the request.
struct Job {
    key: u64,
    /// The connection, for the worker to write the answer at once.
    stream: Arc<TcpStream>,
    request: http::Request,
    /// The connection stays open after the answer.
    keep: bool,
}

/// A worker's answer: the connection's key, the response's bytes and how many of them
/// the worker wrote, and whether the connection stays open after it.
struct Done {
    key: u64,
    bytes: Vec<u8>,
    written: usize,
    keep: bool,
}

/// What the loop and the workers share.
pub(crate) struct Shared {
    /// Requests waiting for a worker, and whether the pool is stopping.
    jobs: Mutex<(VecDeque<Job>, bool)>,
    /// Signalled when a job is queued or the pool stops.
    job_ready: Condvar,
    /// Answers waiting for the loop.
    done: Mutex<Vec<Done>>,
    /// The worker's end of the wake-up pair: a byte written wakes the loop.
    wake: UnixStream,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Shared")
    }
}

impl Shared {
    /// Wakes the loop (a full socket means a wake-up is already pending).
    pub(crate) fn wake(&self) {
        let _ = (&self.wake).write(&[1]);
    }

    /// Tells the workers to end once the queue is empty.
    pub(crate) fn stop_workers(&self) {
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jobs.1 = true;
        self.job_ready.notify_all();
    }
}

/// Where a connection is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Between requests, no byte of the next one yet (the idle timeout runs).
    Idle,
    /// Part of a request has come (the request time runs from its first byte).
    Reading,
    /// A whole request is with a worker (no deadline: the worker always answers).
    Working,
    /// The response is being written (at most [`WRITE_TIME`]).
    Writing,
    /// The last response was written; input is read and dropped until the client closes
    /// (at most [`LINGER`]).
    Closing,
}

/// One connection.
struct Conn {
    /// Shared with the worker that answers its request, which writes the answer itself
    /// (the loop neither reads nor writes it meanwhile).
    stream: Arc<TcpStream>,
    /// Bytes read and not yet taken by a request.
    buf: Vec<u8>,
    reader: http::RequestReader,
    phase: Phase,
    /// When the phase's clock started.
    since: Instant,
    /// When the last byte came (a request that stalls this past the idle timeout gets
    /// 408 too).
    last: Instant,
    /// The response being written, and how much of it is.
    out: Vec<u8>,
    written: usize,
    /// Close (after [`Phase::Closing`]) once `out` is written.
    close_after: bool,
    /// The socket may have bytes (or its end) not read yet: it is watched
    /// edge-triggered, once for all, so this remembers a report not acted on.
    readable: bool,
    /// The peer has closed its side: read until the end is seen (a short read does not
    /// mean the socket has nothing more then: the end may wait behind the bytes).
    hung_up: bool,
    /// Responses written.
    served: usize,
}

/// The loop's state.
struct Loop<'a> {
    state: &'a State,
    shared: &'a Shared,
    epoll: Epoll,
    listener: TcpListener,
    wake_read: UnixStream,
    /// Connections by slot, with each slot's generation (a key is generation << 32 |
    /// slot, so that an answer for a closed connection never reaches its successor).
    conns: Vec<Option<Conn>>,
    generations: Vec<u32>,
    free: Vec<usize>,
    open: usize,
    /// The most connections held at once.
    cap: usize,
    /// A descriptor kept open for the moment the process runs out: closed to accept one
    /// connection and answer it 503, then opened again.
    spare: Option<std::fs::File>,
    /// Accepting is paused until then (out of descriptors, and no spare).
    paused_until: Option<Instant>,
    scratch: Vec<u8>,
    waiting_jobs: usize,
    /// Connections whose turn at reading ended with bytes left.
    again: Vec<usize>,
    /// Whole requests the loop answers itself ([`api::quick`]), in order of arrival.
    quick: Vec<(u64, http::Request, bool)>,
}

/// Makes the pieces the loop and the workers share.
/// Pre: none. Post: `Err` when a socket pair cannot be made.
pub(crate) fn shared() -> io::Result<(Shared, UnixStream)> {
    let (wake_read, wake) = UnixStream::pair()?;
    wake_read.set_nonblocking(true)?;
    wake.set_nonblocking(true)?;
    Ok((
        Shared {
            jobs: Mutex::new((VecDeque::new(), false)),
            job_ready: Condvar::new(),
            done: Mutex::new(Vec::new()),
            wake,
        },
        wake_read,
    ))
}

/// The answer to `request` as bytes, and whether the connection stays open after it
/// (as `keep` asks, unless the server is stopping): a worker's and the loop's.
/// Pre: none. Post: the bytes are a whole HTTP response.
fn answer(state: &State, request: &http::Request, keep: bool) -> (Vec<u8>, bool) {
    let response = api::route(state, request);
    let keep = keep && !state.stop.load(Ordering::SeqCst);
    (http::encode(&response, keep, request.method == "HEAD"), keep)
}

/// A worker: answers requests until the pool stops.
/// Pre: none. Post: returns once [`Shared::stop_workers`] was called and the queue is
/// empty.
pub(crate) fn work(state: &State, shared: &Shared) {
    loop {
        let job = {
            let mut jobs = shared.jobs.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(job) = jobs.0.pop_front() {
                    break job;
                }
                if jobs.1 {
                    return;
                }
                jobs = shared.job_ready.wait(jobs).unwrap_or_else(|e| e.into_inner());
            }
        };
        let (bytes, keep) = answer(state, &job.request, job.keep);
        // Written at once, without blocking, as far as the socket takes it (the whole
        // answer, nearly always): the client need not wait for the loop's turn. The
        // loop writes the rest and goes on with the connection.
        let mut written = 0;
        while let Some(rest) = bytes.get(written..).filter(|r| !r.is_empty()) {
            match (&*job.stream).write(rest) {
                Ok(n) if n > 0 => written += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                _ => break,
            }
        }
        drop(job.stream);
        let first = {
            let mut done = shared.done.lock().unwrap_or_else(|e| e.into_inner());
            done.push(Done { key: job.key, bytes, written, keep });
            done.len() == 1
        };
        if first {
            shared.wake();
        }
    }
}

/// Runs the event loop until the server stops.
/// Pre: `listener` is bound. Post: every connection closed, the workers told to stop.
pub(crate) fn run(state: &State, shared: &Shared, listener: TcpListener, wake_read: UnixStream, cap: usize) {
    let Ok(epoll) = Epoll::new() else {
        shared.stop_workers();
        return;
    };
    let _ = listener.set_nonblocking(true);
    if epoll.add(listener.as_fd(), EPOLLIN, LISTENER).is_err() || epoll.add(wake_read.as_fd(), EPOLLIN, WAKER).is_err()
    {
        shared.stop_workers();
        return;
    }
    let mut lp = Loop {
        state,
        shared,
        epoll,
        listener,
        wake_read,
        conns: Vec::new(),
        generations: Vec::new(),
        free: Vec::new(),
        open: 0,
        cap: cap.max(1),
        spare: std::fs::File::open("/dev/null").ok(),
        paused_until: None,
        scratch: vec![0u8; 64 * 1024],
        waiting_jobs: 0,
        again: Vec::new(),
        quick: Vec::new(),
    };
    let mut events = Vec::with_capacity(1024);
    let mut last_tick = Instant::now();
    while !state.stop.load(Ordering::SeqCst) {
        let wait = if lp.again.is_empty() && lp.quick.is_empty() { TICK } else { Duration::ZERO };
        if lp.epoll.wait(&mut events, Some(wait)).is_err() {
            std::thread::sleep(TICK);
        }
        for slot in std::mem::take(&mut lp.again) {
            let more = matches!(lp.conns.get(slot), Some(Some(c)) if c.readable
                && matches!(c.phase, Phase::Idle | Phase::Reading | Phase::Closing));
            if more {
                lp.read(slot);
            }
        }
        for &Ready { key, events: what } in &events {
            match key {
                LISTENER => lp.accept(),
                WAKER => lp.answers(),
                _ => lp.ready(key, what),
            }
        }
        lp.answer_quick();
        if last_tick.elapsed() >= TICK {
            last_tick = Instant::now();
            lp.deadlines(last_tick);
        }
    }
    shared.stop_workers();
}

/// A 503 for a connection past the cap, written without waiting (it fits a socket's
/// buffer) before the connection is closed.
fn refuse_busy(stream: &TcpStream) {
    let _ = stream.set_nonblocking(true);
    let busy = http::Response::error(503, "the server is busy: too many connections; try again");
    let _ = (&*stream).write(&http::encode(&busy, false, false));
    let _ = stream.shutdown(Shutdown::Write);
}

impl Loop<'_> {
    fn key(&self, slot: usize) -> u64 {
        (u64::from(self.generations.get(slot).copied().unwrap_or(0)) << 32) | slot as u64
    }

    /// The slot of `key`, when it still names an open connection.
    fn slot(&self, key: u64) -> Option<usize> {
        let slot = (key & 0xffff_ffff) as usize;
        let generation = (key >> 32) as u32;
        (self.generations.get(slot) == Some(&generation) && matches!(self.conns.get(slot), Some(Some(_))))
            .then_some(slot)
    }

    /// Accepts the connections waiting (a burst at most), answering 503 past the cap or
    /// when the process has no descriptor left.
    fn accept(&mut self) {
        if self.paused_until.is_some() {
            return;
        }
        for _ in 0..256 {
            match self.listener.accept() {
                Ok((stream, _)) => {
                    if self.open >= self.cap {
                        refuse_busy(&stream);
                        continue;
                    }
                    self.register(stream);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if matches!(e.raw_os_error(), Some(23 | 24)) => {
                    // ENFILE, EMFILE: use the spare descriptor to take one connection off
                    // the queue and answer it; without one, pause accepting a moment
                    // (the listener stays readable: accepting again at once would spin).
                    if self.spare.take().is_some() {
                        if let Ok((stream, _)) = self.listener.accept() {
                            refuse_busy(&stream);
                        }
                        self.spare = std::fs::File::open("/dev/null").ok();
                    }
                    if self.spare.is_none() {
                        self.paused_until = Some(Instant::now() + Duration::from_millis(100));
                        let _ = self.epoll.modify(self.listener.as_fd(), 0, LISTENER);
                        return;
                    }
                }
                Err(_) => {}
            }
        }
    }

    fn register(&mut self, stream: TcpStream) {
        if stream.set_nonblocking(true).is_err() {
            return;
        }
        let _ = stream.set_nodelay(true);
        let slot = self.free.pop().unwrap_or_else(|| {
            self.conns.push(None);
            self.generations.push(0);
            self.conns.len() - 1
        });
        if let Some(g) = self.generations.get_mut(slot) {
            *g = g.wrapping_add(1);
        }
        let key = self.key(slot);
        // Edge-triggered, for reading and writing, once for all: no system call to
        // change what it waits for, request after request.
        if self.epoll.add(stream.as_fd(), EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET, key).is_err() {
            self.free.push(slot);
            return;
        }
        let conn = Conn {
            stream: Arc::new(stream),
            buf: Vec::new(),
            reader: http::RequestReader::default(),
            phase: Phase::Idle,
            since: Instant::now(),
            last: Instant::now(),
            out: Vec::new(),
            written: 0,
            close_after: false,
            readable: false,
            hung_up: false,
            served: 0,
        };
        if let Some(place) = self.conns.get_mut(slot) {
            *place = Some(conn);
            self.open += 1;
        }
    }

    fn close(&mut self, slot: usize) {
        if let Some(place) = self.conns.get_mut(slot) {
            if let Some(conn) = place.take() {
                let _ = self.epoll.remove(conn.stream.as_fd());
                self.open -= 1;
                self.free.push(slot);
            }
        }
    }

    /// A connection is ready to be read or written (or has failed).
    fn ready(&mut self, key: u64, events: u32) {
        let Some(slot) = self.slot(key) else { return };
        let Some(Some(conn)) = self.conns.get_mut(slot) else { return };
        if events & (EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP) != 0 {
            conn.readable = true;
        }
        if events & (EPOLLRDHUP | EPOLLERR | EPOLLHUP) != 0 {
            conn.hung_up = true;
        }
        match conn.phase {
            Phase::Writing if events & (EPOLLOUT | EPOLLERR | EPOLLHUP) != 0 => self.write(slot),
            Phase::Idle | Phase::Reading | Phase::Closing if conn.readable => self.read(slot),
            _ => {}
        }
    }

    /// Reads what has arrived, then looks for a whole request.
    fn read(&mut self, slot: usize) {
        let Some(Some(conn)) = self.conns.get_mut(slot) else { return };
        let mut got = 0;
        let mut ended = false;
        while got < READ_BURST {
            match (&*conn.stream).read(&mut self.scratch) {
                Ok(0) => {
                    ended = true;
                    break;
                }
                Ok(n) => {
                    got += n;
                    conn.last = Instant::now();
                    // Less than asked: the socket had no more (more makes a new report).
                    let drained = n < self.scratch.len() && !conn.hung_up;
                    if drained {
                        conn.readable = false;
                    }
                    if conn.phase == Phase::Closing {
                        if drained {
                            break;
                        }
                        continue;
                    }
                    if conn.phase == Phase::Idle {
                        conn.phase = Phase::Reading;
                        conn.since = Instant::now();
                    }
                    conn.buf.extend_from_slice(self.scratch.get(..n).unwrap_or(&[]));
                    // Past every cap at once: the reader refuses it below.
                    if drained || conn.buf.len() > READ_BURST + self.state.config.limits.body {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    conn.readable = false;
                    break;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => {
                    ended = true;
                    break;
                }
            }
        }
        if conn.readable && !ended {
            // Its turn is over: read on in the next round.
            self.again.push(slot);
        }
        if conn.phase == Phase::Closing {
            if ended {
                self.close(slot);
            }
            return;
        }
        self.parse(slot, ended);
    }

    /// Looks for a whole request in the connection's buffer: hands it to a worker,
    /// refuses it, or waits for more (`ended`: no more will come).
    fn parse(&mut self, slot: usize, ended: bool) {
        let Some(Some(conn)) = self.conns.get_mut(slot) else { return };
        match conn.reader.next(&conn.buf, &self.state.config.limits) {
            http::Parse::Partial => {
                if ended {
                    // The client went away mid-request (or between requests): nobody
                    // to answer.
                    self.close(slot);
                } else if conn.buf.is_empty() && conn.buf.capacity() > 0 {
                    conn.buf = Vec::new();
                }
            }
            http::Parse::Refuse(status, message) => {
                let bytes = http::encode(&http::Response::error(status, &message), false, false);
                conn.buf = Vec::new();
                self.respond(slot, bytes, 0, false);
            }
            http::Parse::Done(request, used) => {
                conn.buf.drain(..used.min(conn.buf.len()));
                conn.phase = Phase::Working;
                if self.waiting_jobs >= self.state.config.queue.max(1) {
                    let busy = http::Response::error(503, "the server is busy: try again");
                    let bytes = http::encode(&busy, false, request.method == "HEAD");
                    self.respond(slot, bytes, 0, false);
                    return;
                }
                // The last request a connection may make is answered `Connection: close`.
                let keep = request.keep_alive && conn.served + 1 < self.state.config.max_requests.max(1);
                if api::quick(&request) {
                    // Answered by the loop after this round's reports (queued, not at
                    // once: a pipelined request behind it is parsed only after its
                    // answer, so nothing recurses).
                    let key = self.key(slot);
                    self.quick.push((key, request, keep));
                    return;
                }
                // Not read while the worker works: a pipelined request waits.
                let stream = Arc::clone(&conn.stream);
                let key = self.key(slot);
                let mut jobs = self.shared.jobs.lock().unwrap_or_else(|e| e.into_inner());
                jobs.0.push_back(Job { key, stream, request, keep });
                self.waiting_jobs = jobs.0.len();
                drop(jobs);
                self.shared.job_ready.notify_one();
            }
        }
    }

    /// Answers the quick requests queued so far (those that their answers' pipelined
    /// successors queue wait for the next round, so each connection gets its turn).
    fn answer_quick(&mut self) {
        for (key, request, keep) in std::mem::take(&mut self.quick) {
            let Some(slot) = self.slot(key) else { continue };
            let (bytes, keep) = answer(self.state, &request, keep);
            self.respond(slot, bytes, 0, keep);
        }
    }

    /// Takes the workers' answers and starts writing them.
    fn answers(&mut self) {
        let mut sink = [0u8; 256];
        while matches!((&self.wake_read).read(&mut sink), Ok(n) if n > 0) {}
        let done = std::mem::take(&mut *self.shared.done.lock().unwrap_or_else(|e| e.into_inner()));
        self.waiting_jobs = self.shared.jobs.lock().map(|j| j.0.len()).unwrap_or(0);
        for d in done {
            if let Some(slot) = self.slot(d.key) {
                self.respond(slot, d.bytes, d.written, d.keep);
            }
        }
    }

    /// Writes `bytes` on the connection, of which `written` are already; `keep`: it stays
    /// open after them.
    fn respond(&mut self, slot: usize, bytes: Vec<u8>, written: usize, keep: bool) {
        let max = self.state.config.max_requests.max(1);
        let Some(Some(conn)) = self.conns.get_mut(slot) else { return };
        conn.served += 1;
        conn.close_after = !keep || conn.served >= max || self.state.stop.load(Ordering::SeqCst);
        conn.out = bytes;
        conn.written = written;
        conn.phase = Phase::Writing;
        conn.since = Instant::now();
        self.write(slot);
    }

    /// Writes what it can of the response; once all is written, goes on to the next
    /// request, or closes.
    fn write(&mut self, slot: usize) {
        let Some(Some(conn)) = self.conns.get_mut(slot) else { return };
        while conn.written < conn.out.len() {
            match (&*conn.stream).write(conn.out.get(conn.written..).unwrap_or(&[])) {
                Ok(0) => {
                    self.close(slot);
                    return;
                }
                Ok(n) => conn.written += n,
                // The socket's report that it is writable again resumes it.
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => {
                    self.close(slot);
                    return;
                }
            }
        }
        conn.out = Vec::new();
        conn.written = 0;
        conn.since = Instant::now();
        if conn.close_after {
            // Say no more, read and drop what still comes for a moment, then close: the
            // answer is not lost to a reset for the unread bytes.
            let _ = conn.stream.shutdown(Shutdown::Write);
            conn.phase = Phase::Closing;
            conn.buf = Vec::new();
            if conn.readable {
                self.read(slot);
            }
            return;
        }
        if conn.buf.is_empty() {
            conn.phase = Phase::Idle;
            if conn.readable {
                self.read(slot);
            }
        } else {
            // A request sent before this answer (pipelined): its clock starts now.
            conn.phase = Phase::Reading;
            conn.last = conn.since;
            self.parse(slot, false);
        }
    }

    /// Closes the connections past their deadline (408 for a request that took too long
    /// to arrive), and resumes accepting after a pause.
    fn deadlines(&mut self, now: Instant) {
        if self.paused_until.is_some_and(|t| now >= t) {
            self.paused_until = None;
            let _ = self.epoll.modify(self.listener.as_fd(), EPOLLIN, LISTENER);
        }
        let config = &self.state.config;
        let mut late = Vec::new();
        for (slot, conn) in self.conns.iter().enumerate() {
            let Some(conn) = conn else { continue };
            let limit = match conn.phase {
                Phase::Idle => config.idle,
                Phase::Reading if now.saturating_duration_since(conn.last) >= config.idle => Duration::ZERO,
                Phase::Reading => config.limits.request_time,
                Phase::Working => continue,
                Phase::Writing => WRITE_TIME,
                Phase::Closing => LINGER,
            };
            if now.saturating_duration_since(conn.since) >= limit {
                late.push((slot, conn.phase));
            }
        }
        for (slot, phase) in late {
            if phase == Phase::Reading {
                let timeout = http::Response::error(408, "the request took too long to arrive");
                if let Some(Some(conn)) = self.conns.get_mut(slot) {
                    conn.buf = Vec::new();
                }
                self.respond(slot, http::encode(&timeout, false, false), 0, false);
            } else {
                self.close(slot);
            }
        }
    }
}

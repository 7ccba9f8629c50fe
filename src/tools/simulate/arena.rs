//! The arena: programs from elsewhere ("bots") played as strategies, for `simulate
//! --bot NAME=COMMAND`.
//!
//! A bot is one process that plays game after game through the play protocol
//! ([`crate::tools::play::protocol`]): for each game it reads the header `referee` writes, asks
//! `? r c` and reads `hit`, `miss`, `sunk` or `sunk NAME` until every ship cell is
//! found, then reads `done N`; after the last game its input ends. Each simulate worker
//! starts its own process of each bot, the first time it needs it.
//!
//! A worker hands a batch of boards to the bot's I/O thread, which talks to the process
//! with plain blocking reads and writes (two process switches per probe, no more) and
//! notes each game's outcome; the worker sleeps meanwhile, and watches the clock: the
//! I/O thread publishes by when the bot's next line is due, and a bot past it is killed
//! and forfeits. A thread stuck on a bot (say a child of the bot keeps the pipes open)
//! is left behind, never waited for, so nothing the bot does can hang the run. A bot
//! that writes anything but a probe, probes outside the bay or twice, is too slow, or
//! stops, forfeits the game; its process is then killed, and a new one starts for the
//! next game when the run goes on. A bot runs in a process group of its own, tracked by
//! [`crate::tools::reaper`]: whenever its process is killed or ends, every process it started
//! is killed too, those that left its group included.

use crate::game::board::Board;
use crate::game::rules::Sunk;
use crate::limits::LINE_BYTES;
use crate::scan::record::ScanRecord;
use crate::scan::referee::{RefereeGame, Refused};
use crate::tools::play::protocol::{parse_probe, read_line, reply_line};
use crate::tools::reaper::{self, Tracked};
use std::fmt;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The time a bot process has for its first probe (its start-up included), when the
/// move time is shorter.
pub(crate) const STARTUP_TIME: Duration = Duration::from_secs(10);

/// How long a bot may take to exit once its input is closed, before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// How long to wait, once a bot lost, for its exit status and the end of its stderr.
const AFTERMATH: Duration = Duration::from_millis(200);

/// Bytes kept of the end of a bot's stderr.
const STDERR_KEPT: usize = 4096;

/// Characters of a bot's stderr line shown in a message.
const STDERR_SHOWN: usize = 160;

/// [`Shared::deadline`] when no line of the bot is awaited.
const NOT_WAITING: u64 = u64::MAX;

/// What a bot did to lose a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Forfeit {
    /// A line that is not `? ROW COL` (what is wrong with it).
    NotAProbe(String),
    /// A line longer than [`LINE_BYTES`] bytes.
    TooLong,
    /// A probe the referee refused: outside the bay, or of a cell already probed in
    /// this game.
    Refused(Refused),
    /// No line within the time allowed (that time).
    Slow(Duration),
    /// Its output ended, or it stopped reading: how (`it exited (exit status: 1)`).
    Ended(String),
    /// Talking to it failed otherwise (the error).
    Broken(String),
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::NotAProbe(why) => write!(f, "{why}"),
            Forfeit::TooLong => write!(f, "it wrote a line longer than {LINE_BYTES} bytes"),
            Forfeit::Refused(Refused::Outside { pos, rows, cols }) => {
                write!(f, "it probed {pos}, outside the {rows}x{cols} bay")
            }
            Forfeit::Refused(Refused::Again(pos)) => write!(f, "it probed {pos} twice"),
            // Never: a finished game asks for no probe.
            Forfeit::Refused(refused @ Refused::Over { .. }) => write!(f, "it probed after the end: {refused}"),
            Forfeit::Slow(time) => write!(f, "it took more than {} s to probe", time.as_secs_f64()),
            Forfeit::Ended(how) => write!(f, "{how} before finding every ship cell"),
            Forfeit::Broken(e) => write!(f, "talking to it failed: {e}"),
        }
    }
}

/// A forfeit, with the last line the bot wrote on stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lost {
    /// What it did.
    pub forfeit: Forfeit,
    /// Its stderr's last non-empty line, shown escaped and shortened.
    pub stderr: Option<String>,
}

impl fmt::Display for Lost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.forfeit)?;
        match &self.stderr {
            Some(line) => write!(f, " (its last line on stderr: `{line}`)"),
            None => Ok(()),
        }
    }
}

/// The outcome of one game of a bot: its scans, or how it lost.
pub(crate) type Outcome = Result<usize, Lost>;

/// Splits a command into words as a shell would with quotes, and nothing else: words
/// are separated by white space; `'...'` keeps everything inside as it is; `"..."`
/// too, but `\"` and `\\` in it stand for `"` and `\`; outside quotes `\` keeps the
/// next character. No variables, globs, pipes or redirections (run `sh -c '...'` for
/// those).
/// Pre: none. Post: `Err` for an unterminated quote, a trailing `\` or no word.
pub(crate) fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("a ' is not closed".into()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("a \" is not closed".into()),
                        },
                        Some(c) => w.push(c),
                        None => return Err("a \" is not closed".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err("the command ends with \\".into()),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    if words.is_empty() {
        return Err("the command is empty".into());
    }
    Ok(words)
}

/// One strategy of the run played by an outside program: the worker's handle on it.
pub(crate) struct BotPlayer {
    /// The program and its arguments.
    argv: Vec<String>,
    /// The time allowed per probe.
    move_time: Duration,
    /// The header of every game (the run's bay and rules).
    header: String,
    /// The running process, once started (and until it lost).
    process: Option<Process>,
}

impl BotPlayer {
    /// A bot to run as `argv` (program first), allowed `move_time` per probe, told
    /// `header` before each game; no process runs until the first game.
    /// Pre: `header` is a protocol header ending with `\n`. Post: nothing started.
    pub(crate) fn new(argv: Vec<String>, move_time: Duration, header: String) -> BotPlayer {
        BotPlayer { argv, move_time, header, process: None }
    }

    /// Plays the games of `boards[..count]` in order, each after its line of `starts`
    /// (`game K SEED`: what the bot reads before the game's header), starting the bot
    /// when it is not
    /// running. After a forfeit the process is killed; with `go_on` a new one plays the
    /// next game, otherwise play stops there.
    /// Pre: `count <= boards.len()`, `starts.len() >= count`. Post: `Ok` with one outcome per game played: all
    /// `count` with `go_on`, else up to and including the first forfeit; `Err` when the
    /// program cannot be started (the reason).
    pub(crate) fn play(
        &mut self,
        boards: &Arc<Vec<Board>>,
        starts: &Arc<Vec<String>>,
        count: usize,
        go_on: bool,
    ) -> Result<Vec<Outcome>, String> {
        let mut out: Vec<Outcome> = Vec::with_capacity(count);
        while out.len() < count {
            let process = match self.process.as_mut() {
                Some(p) => p,
                None => self.process.insert(Process::start(&self.argv, self.move_time, self.header.clone())?),
            };
            let got = process.run(Arc::clone(boards), Arc::clone(starts), out.len(), count);
            let lost = got.last().is_none_or(Result::is_err);
            out.extend(got);
            if lost {
                // Dropping the process kills it if it still runs.
                self.process = None;
                if !go_on {
                    break;
                }
            }
        }
        Ok(out)
    }
}

/// A batch of games for the I/O thread: `boards[from..to]`, each announced by its line
/// of `starts`.
struct Job {
    boards: Arc<Vec<Board>>,
    starts: Arc<Vec<String>>,
    from: usize,
    to: usize,
}

/// What the I/O thread and the worker share.
struct Shared {
    /// The origin of the deadlines.
    base: Instant,
    /// When the bot's next line is due, in nanoseconds after `base`, or [`NOT_WAITING`].
    deadline: AtomicU64,
    /// The time the bot has for that line, in nanoseconds.
    allowed: AtomicU64,
    /// The outcomes of the current job.
    progress: Mutex<Progress>,
    /// Signalled when the job is finished.
    finished: Condvar,
}

/// The outcomes of the current job so far.
#[derive(Default)]
struct Progress {
    outcomes: Vec<Outcome>,
    /// The job is over (all games played, or one lost).
    finished: bool,
    /// The worker gave up on the job (the bot was too slow): report nothing more.
    abandoned: bool,
}

impl Shared {
    fn now(&self) -> u64 {
        u64::try_from(self.base.elapsed().as_nanos()).unwrap_or(NOT_WAITING - 1)
    }

    /// The bot's next line is due within `allowed` from now.
    fn due_within(&self, allowed: Duration) {
        let allowed = u64::try_from(allowed.as_nanos()).unwrap_or(NOT_WAITING / 2);
        self.allowed.store(allowed, Ordering::Relaxed);
        self.deadline.store(self.now().saturating_add(allowed).min(NOT_WAITING - 1), Ordering::Release);
    }

    /// Wakes the worker to look at the deadline again (it sleeps until the deadline it
    /// last saw, and the new one may be earlier).
    fn wake(&self) {
        if let Ok(_progress) = self.progress.lock() {
            self.finished.notify_all();
        }
    }

    /// No line of the bot is awaited.
    fn not_due(&self) {
        self.deadline.store(NOT_WAITING, Ordering::Release);
    }

    /// Notes a game's outcome (the job's last when `last`). Pre: none. Post: false when
    /// the worker abandoned the job (stop talking to the bot).
    fn report(&self, outcome: Outcome, last: bool) -> bool {
        let Ok(mut p) = self.progress.lock() else { return false };
        if p.abandoned {
            return false;
        }
        p.outcomes.push(outcome);
        if last {
            p.finished = true;
            self.finished.notify_all();
        }
        true
    }
}

/// The end of a bot's stderr.
#[derive(Default)]
struct Tail {
    bytes: Vec<u8>,
    /// The bot's stderr has ended.
    closed: bool,
}

/// Reads the bot's stderr to its end, keeping the last [`STDERR_KEPT`] bytes.
fn drain(mut from: ChildStderr, tail: &Mutex<Tail>) {
    let mut chunk = [0u8; 4096];
    loop {
        let n = match from.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if let Ok(mut t) = tail.lock() {
            t.bytes.extend_from_slice(chunk.get(..n).unwrap_or_default());
            if t.bytes.len() > 2 * STDERR_KEPT {
                let cut = t.bytes.len() - STDERR_KEPT;
                t.bytes.drain(..cut);
            }
        }
    }
    if let Ok(mut t) = tail.lock() {
        t.closed = true;
    }
}

/// The last non-empty line of the bot's stderr, once it ended or after [`AFTERMATH`].
fn last_line(tail: &Mutex<Tail>) -> Option<String> {
    let until = Instant::now() + AFTERMATH;
    loop {
        let closed = tail.lock().map(|t| t.closed).unwrap_or(true);
        if closed || Instant::now() >= until {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let t = tail.lock().ok()?;
    let text = String::from_utf8_lossy(&t.bytes);
    let line = text.lines().map(str::trim).rfind(|l| !l.is_empty())?;
    let mut shown: String = line.chars().take(STDERR_SHOWN).flat_map(char::escape_debug).collect();
    if line.chars().count() > STDERR_SHOWN {
        shown.push_str("...");
    }
    Some(shown)
}

/// A bot's process, shared by the worker and the I/O thread.
struct Bot {
    child: Mutex<Child>,
    /// Its process group and everything it started.
    tracked: Tracked,
}

/// Kills the bot (if it still runs) and every process it started, and waits for it.
fn kill(bot: &Bot) {
    bot.tracked.kill_all();
    if let Ok(mut c) = bot.child.lock() {
        let _ = c.kill();
        let _ = c.wait();
    }
}

/// How a bot whose output ended stopped: its exit status if it exits within
/// [`AFTERMATH`]; otherwise it is killed. Whatever it started is killed either way.
fn how_it_ended(bot: &Bot) -> String {
    let until = Instant::now() + AFTERMATH;
    loop {
        match bot.child.lock().map(|mut c| c.try_wait()) {
            Ok(Ok(Some(status))) => {
                bot.tracked.kill_all();
                return format!("it exited ({status})");
            }
            Ok(Ok(None)) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
            _ => break,
        }
    }
    kill(bot);
    "it closed its output or its input".into()
}

/// The loss of a game by `forfeit`: the bot killed (or its exit status read) and the
/// end of its stderr.
fn lose(bot: &Bot, tail: &Mutex<Tail>, forfeit: Forfeit) -> Lost {
    let forfeit = match forfeit {
        Forfeit::Ended(_) => Forfeit::Ended(how_it_ended(bot)),
        other => {
            kill(bot);
            other
        }
    };
    Lost { forfeit, stderr: last_line(tail) }
}

/// A running bot process, seen from the worker.
struct Process {
    bot: Arc<Bot>,
    /// Jobs for the I/O thread (dropped to close the bot's input).
    jobs: Option<SyncSender<Job>>,
    shared: Arc<Shared>,
    tail: Arc<Mutex<Tail>>,
    move_time: Duration,
}

impl Process {
    /// Starts `argv` with its standard streams piped, its I/O thread and its stderr
    /// reader. Pre: none. Post: `Err` says why it could not start.
    fn start(argv: &[String], move_time: Duration, header: String) -> Result<Process, String> {
        let (program, args) = argv.split_first().ok_or("the command is empty")?;
        let mut command = Command::new(program);
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let (mut child, tracked) = reaper::spawn(&mut command).map_err(|e| format!("cannot start `{program}`: {e}"))?;
        let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let bot = Arc::new(Bot { child: Mutex::new(child), tracked });
        let (Some(stdin), Some(stdout), Some(stderr)) = pipes else {
            kill(&bot);
            return Err(format!("cannot start `{program}`: no pipes"));
        };
        let tail = Arc::new(Mutex::new(Tail::default()));
        let shared = Arc::new(Shared {
            base: Instant::now(),
            deadline: AtomicU64::new(NOT_WAITING),
            allowed: AtomicU64::new(0),
            progress: Mutex::new(Progress::default()),
            finished: Condvar::new(),
        });
        let (jobs, inbox) = mpsc::sync_channel(1);
        let link = Link {
            input: BufWriter::new(stdin),
            output: BufReader::new(stdout),
            header,
            move_time,
            probed: false,
            woken: false,
            bot: Arc::clone(&bot),
            tail: Arc::clone(&tail),
        };
        let drained = Arc::clone(&tail);
        let started = std::thread::Builder::new()
            .name("bot stderr".into())
            .spawn(move || drain(stderr, &drained))
            .and_then(|_| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new().name("bot i/o".into()).spawn(move || link.serve(&inbox, &shared))
            });
        if let Err(e) = started {
            kill(&bot);
            return Err(format!("cannot start a thread for `{program}`: {e}"));
        }
        Ok(Process { bot, jobs: Some(jobs), shared, tail, move_time })
    }

    /// Plays `boards[from..to]` and returns their outcomes, ending with the first loss.
    /// Pre: `from < to <= boards.len()`. Post: at least one outcome.
    fn run(&mut self, boards: Arc<Vec<Board>>, starts: Arc<Vec<String>>, from: usize, to: usize) -> Vec<Outcome> {
        if let Ok(mut p) = self.shared.progress.lock() {
            *p = Progress::default();
        }
        let sent = self.jobs.as_ref().is_some_and(|jobs| jobs.send(Job { boards, starts, from, to }).is_ok());
        if !sent {
            return vec![Err(lose(&self.bot, &self.tail, Forfeit::Ended(String::new())))];
        }
        let Ok(mut p) = self.shared.progress.lock() else {
            return vec![Err(lose(&self.bot, &self.tail, Forfeit::Broken("a lock was poisoned".into())))];
        };
        loop {
            if p.finished {
                let out = std::mem::take(&mut p.outcomes);
                return if out.is_empty() {
                    vec![Err(Lost { forfeit: Forfeit::Broken("no game was played".into()), stderr: None })]
                } else {
                    out
                };
            }
            let now = self.shared.now();
            let deadline = self.shared.deadline.load(Ordering::Acquire);
            if deadline != NOT_WAITING && now >= deadline {
                p.abandoned = true;
                let mut out = std::mem::take(&mut p.outcomes);
                drop(p);
                let allowed = Duration::from_nanos(self.shared.allowed.load(Ordering::Relaxed));
                out.push(Err(lose(&self.bot, &self.tail, Forfeit::Slow(allowed))));
                return out;
            }
            let wait = if deadline == NOT_WAITING { self.move_time } else { Duration::from_nanos(deadline - now) };
            p = match self.shared.finished.wait_timeout(p, wait) {
                Ok((guard, _)) => guard,
                Err(_) => return vec![Err(lose(&self.bot, &self.tail, Forfeit::Broken("a lock was poisoned".into())))],
            };
        }
    }
}

impl Drop for Process {
    /// Closes the bot's input, gives it [`EXIT_GRACE`] to exit, then kills it and
    /// whatever it started (what it started is killed even when it exited).
    fn drop(&mut self) {
        self.jobs = None;
        let until = Instant::now() + EXIT_GRACE;
        loop {
            match self.bot.child.lock().map(|mut c| c.try_wait()) {
                Ok(Ok(None)) if Instant::now() < until => std::thread::sleep(Duration::from_millis(1)),
                _ => break,
            }
        }
        kill(&self.bot);
    }
}

/// The I/O thread's side: the pipes to the bot and what it needs to play.
struct Link {
    input: BufWriter<ChildStdin>,
    output: BufReader<ChildStdout>,
    header: String,
    move_time: Duration,
    /// The bot has written its first probe (later ones get the move time only).
    probed: bool,
    /// The worker was told that the deadlines are the move time's from now on.
    woken: bool,
    bot: Arc<Bot>,
    tail: Arc<Mutex<Tail>>,
}

impl Link {
    /// Plays each job's games until the jobs end (then closes the bot's input), a game
    /// is lost or the worker abandons the job.
    fn serve(mut self, inbox: &Receiver<Job>, shared: &Shared) {
        let mut record = ScanRecord::default();
        while let Ok(Job { boards, starts, from, to }) = inbox.recv() {
            if from >= to {
                drop(boards);
                let _ =
                    shared.report(Err(Lost { forfeit: Forfeit::Broken("an empty job".into()), stderr: None }), true);
                continue;
            }
            let mut boards = Some(boards);
            for g in from..to {
                let board = boards.as_deref().and_then(|b| b.get(g));
                let outcome = match board {
                    Some(board) => self.play(board, starts.get(g).map_or("", String::as_str), &mut record, shared),
                    None => Err(Forfeit::Broken("no board for the game".into())),
                };
                shared.not_due();
                let lost = outcome.is_err();
                let outcome = outcome.map_err(|f| lose(&self.bot, &self.tail, f));
                let last = lost || g + 1 >= to;
                if last {
                    // Let go of the boards before the worker hears the job is over.
                    boards = None;
                }
                if !shared.report(outcome, last) || lost {
                    return;
                }
            }
            drop(boards);
        }
        let _ = self.input.flush();
    }

    /// Plays one game on `board`, announced by `start` (`game K SEED`), keeping what is
    /// known in `record`.
    /// Pre: none. Post: `Ok(scans)` once every ship cell was hit and `done` written.
    fn play(&mut self, board: &Board, start: &str, record: &mut ScanRecord, shared: &Shared) -> Result<usize, Forfeit> {
        let (rows, cols) = (board.rows(), board.cols());
        record.reset(rows, cols);
        if board.rules().sunk() != Sunk::None {
            record.log_answers();
        }
        self.due(shared);
        self.input.write_all(start.as_bytes()).map_err(written)?;
        self.input.write_all(self.header.as_bytes()).map_err(written)?;
        let fleet = board.rules().fleet();
        while record.hits() < board.ship_cells() {
            let line = self.next_line(shared)?;
            let pos = parse_probe(&line).map_err(Forfeit::NotAProbe)?;
            let answer = RefereeGame::new(board, record).probe(pos).map_err(Forfeit::Refused)?;
            self.due(shared);
            let reply = reply_line(answer, fleet);
            self.input.write_all(reply.as_bytes()).and_then(|()| self.input.write_all(b"\n")).map_err(written)?;
        }
        writeln!(self.input, "done {}", record.scans()).map_err(written)?;
        Ok(record.scans())
    }

    /// From now on the bot's next line is due (its first probe gets [`STARTUP_TIME`]).
    /// The worker, asleep until the first probe's later deadline, is woken once the
    /// deadlines are the move time's.
    fn due(&mut self, shared: &Shared) {
        shared.due_within(if self.probed { self.move_time } else { self.move_time.max(STARTUP_TIME) });
        if self.probed && !self.woken {
            self.woken = true;
            shared.wake();
        }
    }

    /// Sends what is written and reads the bot's next line.
    fn next_line(&mut self, shared: &Shared) -> Result<Vec<u8>, Forfeit> {
        self.input.flush().map_err(written)?;
        let line = read_line(&mut self.output);
        shared.not_due();
        match line {
            Ok(None) => Err(Forfeit::Ended(String::new())),
            Ok(Some((_, true))) => Err(Forfeit::TooLong),
            Ok(Some((line, false))) => {
                self.probed = true;
                Ok(line)
            }
            Err(e) => Err(Forfeit::Broken(format!("reading its output: {e}"))),
        }
    }
}

/// The forfeit of a failed write to the bot: it stopped reading (exited) or the pipe
/// broke otherwise.
fn written(e: io::Error) -> Forfeit {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Forfeit::Ended(String::new())
    } else {
        Forfeit::Broken(format!("writing to it: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::position::Position;

    #[test]
    fn commands_split_like_a_shell_with_quotes_only() {
        let split = |t: &str| split_command(t).unwrap();
        assert_eq!(split("python3  bot.py\t--fast"), ["python3", "bot.py", "--fast"]);
        assert_eq!(split("sh -c 'cd /tmp && ./bot | tee log'"), ["sh", "-c", "cd /tmp && ./bot | tee log"]);
        assert_eq!(split(r#"a "b \"c\" \\ \n" d\ e '' x"#), ["a", r#"b "c" \ \n"#, "d e", "", "x"]);
        assert_eq!(split("a'b'\"c\"d"), ["abcd"]);
        assert_eq!(split("$HOME *.py"), ["$HOME", "*.py"]);
        for bad in ["", "   ", "a 'b", "a \"b", "a\\", "\"a\\"] {
            assert!(split_command(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn forfeits_say_what_happened() {
        let lost = Lost { forfeit: Forfeit::Refused(Refused::Again(Position::new(3, 4))), stderr: Some("oops".into()) };
        assert_eq!(lost.to_string(), "it probed (3,4) twice (its last line on stderr: `oops`)");
        let slow = Forfeit::Slow(Duration::from_millis(200));
        assert_eq!(slow.to_string(), "it took more than 0.2 s to probe");
        let out = Forfeit::Refused(Refused::Outside { pos: Position::new(10, 0), rows: 10, cols: 10 });
        assert_eq!(out.to_string(), "it probed (10,0), outside the 10x10 bay");
        assert_eq!(
            Forfeit::Ended("it exited (exit status: 3)".into()).to_string(),
            "it exited (exit status: 3) before finding every ship cell"
        );
    }

    #[test]
    fn the_stderr_tail_keeps_the_last_line_shortened() {
        let tail = Mutex::new(Tail { bytes: b"first\nlast one\n\n  \n".to_vec(), closed: true });
        assert_eq!(last_line(&tail).as_deref(), Some("last one"));
        let long = format!("{}\u{1b}", "x".repeat(500));
        let tail = Mutex::new(Tail { bytes: long.into_bytes(), closed: true });
        let shown = last_line(&tail).unwrap();
        assert!(shown.ends_with("...") && shown.chars().count() == STDERR_SHOWN + 3, "{shown}");
        assert_eq!(last_line(&Mutex::new(Tail { bytes: Vec::new(), closed: true })), None);
    }
}

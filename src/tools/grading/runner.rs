//! Runs a program once on an input, as a judge does: the input on its stdin, its stdout
//! and stderr read at the same time on helper threads (so no pipe ever blocks it), both
//! bounded by an output limit, and a wall-clock time limit. The program runs in its own process
//! group; past either limit the whole group is killed (`kill -KILL -- -PGID`), so a
//! program's children die with it.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStderr, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The program to judge: a command and its arguments.
#[derive(Debug, Clone)]
pub(crate) struct Program {
    /// The command (a path, or a name looked up in `PATH`).
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
}

impl Program {
    /// The command line as shown in reports (`python3 sol.py`).
    /// Pre: none. Post: words joined by spaces.
    pub(crate) fn shown(&self) -> String {
        std::iter::once(&self.command).chain(&self.args).cloned().collect::<Vec<_>>().join(" ")
    }
}

/// The limits of one run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Wall-clock time from the start until the program and every process holding its
    /// output have finished.
    pub time: Duration,
    /// Largest stdout (and largest stderr) kept, in bytes; one more byte is an output
    /// limit.
    pub output: usize,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The program ended by itself (its exit code, or `None` when a signal killed it).
    Exited(Option<i32>),
    /// It ran past the time limit and was killed.
    TimedOut,
    /// It wrote past the output limit and was killed.
    OutputLimit,
}

/// What one run produced.
#[derive(Debug, Clone)]
pub(crate) struct Run {
    /// Its standard output (at most the output limit).
    pub stdout: Vec<u8>,
    /// Its standard error (at most the output limit).
    pub stderr: Vec<u8>,
    /// How it ended.
    pub ending: Ending,
    /// Wall-clock time from start to end.
    pub elapsed: Duration,
}

/// Why a program could not be run at all.
#[derive(Debug)]
pub(crate) struct StartError {
    /// The command line.
    pub program: String,
    /// What the system said.
    pub error: std::io::Error,
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot start `{}`: {}", self.program, self.error)
    }
}

/// What the reader threads report.
enum Event {
    /// A stream reached its end (0 stdout, 1 stderr).
    Closed(usize),
    /// A stream (0 stdout, 1 stderr) passed the output limit; its reader has stopped.
    Overflow(usize),
}

/// How long to wait for the pipes to close once the group has been killed.
const GRACE: Duration = Duration::from_secs(2);

/// Runs `program` with `input` on its stdin under `limits`.
/// Pre: none. Post: `Err` only when the program cannot be started; otherwise the run,
/// with every process of its group killed when a limit was passed.
pub(crate) fn run(program: &Program, input: &[u8], limits: Limits) -> Result<Run, StartError> {
    let mut child = Command::new(&program.command)
        .args(&program.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|error| StartError { program: program.shown(), error })?;
    let start = Instant::now();
    let deadline = start + limits.time;
    let (tx, rx) = mpsc::channel();
    if let Some(mut stdin) = child.stdin.take() {
        let data = input.to_vec();
        // A program that does not read its input makes this write fail: that is fine.
        thread::spawn(move || {
            let _ = stdin.write_all(&data);
        });
    }
    let out = reader(child.stdout.take(), 0, limits.output, tx.clone());
    let err = reader(child.stderr.take(), 1, limits.output, tx);
    // Both pipes closed (the usual end: the program exited), then its exit status.
    let (mut limit, mut done) = watch(&rx, deadline);
    let mut status = None;
    if limit.is_none() {
        status = wait_until(&mut child, deadline);
        if status.is_none() {
            limit = Some(Ending::TimedOut);
        }
    }
    let elapsed = start.elapsed();
    if limit.is_some() {
        kill_group(child.id());
        // The leader dies even if it left its group.
        let _ = child.kill();
        status = child.wait().ok();
        // The readers end once every process holding the pipes is dead.
        let (_, more) = watch(&rx, Instant::now() + GRACE);
        done = [done[0] || more[0], done[1] || more[1]];
    }
    // A reader still blocked (a process that left the group holds the pipe) is left
    // behind rather than waited for.
    let join = |h: Option<JoinHandle<Vec<u8>>>, done: bool| h.filter(|_| done).and_then(|h| h.join().ok());
    let stdout = join(out, done[0]).unwrap_or_default();
    let stderr = join(err, done[1]).unwrap_or_default();
    let ending = match (limit, status) {
        (Some(e), _) => e,
        (None, Some(status)) => Ending::Exited(status.code()),
        (None, None) => Ending::TimedOut,
    };
    Ok(Run { stdout, stderr, ending, elapsed })
}

/// Waits until both pipes have closed or `deadline`. Returns the limit passed, if any
/// (`OutputLimit` when a reader overflowed, `TimedOut` at the deadline), and which
/// readers have finished.
fn watch(rx: &Receiver<Event>, deadline: Instant) -> (Option<Ending>, [bool; 2]) {
    let mut done = [false, false];
    while !done.iter().all(|&d| d) {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Event::Closed(k)) => mark(&mut done, k),
            Ok(Event::Overflow(k)) => {
                mark(&mut done, k);
                return (Some(Ending::OutputLimit), done);
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                return (Some(Ending::TimedOut), done);
            }
        }
    }
    (None, done)
}

/// The child's exit status once it has ended, waiting at most until `deadline` (it
/// has closed its output, so it is usually gone already).
fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    let mut pause = Duration::from_micros(20);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => {
                thread::sleep(pause.min(deadline.saturating_duration_since(Instant::now())));
                pause = (pause * 2).min(Duration::from_millis(5));
            }
            _ => return None,
        }
    }
}

/// Notes that reader `k` has finished.
fn mark(done: &mut [bool; 2], k: usize) {
    if let Some(d) = done.get_mut(k) {
        *d = true;
    }
}

/// Kills every process of the group `group` with SIGKILL, through the `kill` utility
/// (this crate has no unsafe code, hence no direct system call).
fn kill_group(group: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{group}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// A pipe of the child, read to its end on a helper thread.
trait Pipe: Read + Send + 'static {}
impl Pipe for ChildStdout {}
impl Pipe for ChildStderr {}

/// Reads `pipe` to its end on a thread, keeping at most `limit` bytes; reports
/// `Closed(which)` at the end, or `Overflow(which)` (and stops reading) past the limit.
fn reader<P: Pipe>(pipe: Option<P>, which: usize, limit: usize, tx: Sender<Event>) -> Option<JoinHandle<Vec<u8>>> {
    let Some(mut pipe) = pipe else {
        let _ = tx.send(Event::Closed(which));
        return None;
    };
    Some(thread::spawn(move || {
        let mut kept = Vec::new();
        let mut chunk = vec![0u8; 1 << 16];
        loop {
            match pipe.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => {
                    let room = limit.saturating_sub(kept.len());
                    kept.extend_from_slice(chunk.get(..n.min(room)).unwrap_or_default());
                    if n > room {
                        let _ = tx.send(Event::Overflow(which));
                        return kept;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = tx.send(Event::Closed(which));
        kept
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Program {
        Program { command: "sh".into(), args: vec!["-c".into(), script.into()] }
    }

    fn limits(ms: u64) -> Limits {
        Limits { time: Duration::from_millis(ms), output: 1000 }
    }

    #[test]
    fn captures_both_streams_and_the_exit_code() {
        let r = run(&sh("cat; echo oops >&2; exit 3"), b"hello\n", limits(5000)).unwrap();
        assert_eq!(r.stdout, b"hello\n");
        assert_eq!(r.stderr, b"oops\n");
        assert_eq!(r.ending, Ending::Exited(Some(3)));
        let r = run(&sh("kill -9 $$"), b"", limits(5000)).unwrap();
        assert_eq!(r.ending, Ending::Exited(None));
    }

    #[test]
    fn a_program_that_ignores_its_input_is_fine() {
        let big = vec![b'x'; 1 << 20];
        let r = run(&sh("echo done"), &big, limits(5000)).unwrap();
        assert_eq!((r.stdout.as_slice(), r.ending), (&b"done\n"[..], Ending::Exited(Some(0))));
    }

    #[test]
    fn time_and_output_limits_kill_the_program() {
        let t = Instant::now();
        let r = run(&sh("sleep 100"), b"", limits(200)).unwrap();
        assert_eq!(r.ending, Ending::TimedOut);
        assert!(t.elapsed() < Duration::from_secs(5));
        let r = run(&sh("yes"), b"", limits(5000)).unwrap();
        assert_eq!(r.ending, Ending::OutputLimit);
        assert_eq!(r.stdout.len(), 1000);
        let r = run(&sh("yes >&2"), b"", limits(5000)).unwrap();
        assert_eq!(r.ending, Ending::OutputLimit);
    }

    #[test]
    fn a_program_that_cannot_start_is_an_error() {
        let p = Program { command: "/no/such/program".into(), args: vec![] };
        let e = run(&p, b"", limits(1000)).unwrap_err();
        assert!(e.to_string().starts_with("cannot start `/no/such/program`: "), "{e}");
    }
}

//! Runs a program once on an input, as a judge does: the input on its stdin, its stdout
//! and stderr read at the same time on helper threads (so no pipe ever blocks it), both
//! bounded by an output limit, and a CPU-time limit as Mooshak's (user + system time
//! of the program and of the children it waited for, from `wait4(2)`'s resource usage;
//! read from `/proc/PID/stat` every 10 ms while it runs), with a wall-clock safety net
//! ([`wall_limit`]: 3 x the CPU limit + 1 s) for a program that waits instead of
//! computing. The program runs in its own process group, tracked by
//! [`crate::tools::reaper`]: past a limit, and after every run whatever its verdict, every
//! process it started is killed with `kill(2)`, those that left its group included.

use crate::sys;
use crate::tools::reaper;
use std::io::{Read, Write};
use std::process::{ChildStderr, ChildStdout, Command, Stdio};
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
    /// CPU time (user + system) of the program and of the children it waited for. The
    /// program and every process holding its output must also have finished within
    /// [`wall_limit`] of this, in wall-clock time.
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
    /// It ran past the CPU-time limit, or the wall-clock safety net, and was killed.
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
    /// CPU time used (user + system, the program's and that of the children it waited
    /// for). Not shown by the report yet (grading/report.rs is another change's).
    #[allow(dead_code)]
    pub cpu: Duration,
}

/// Why a program could not be run at all.
#[derive(Debug)]
pub struct StartError {
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

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// What the reader threads report.
enum Event {
    /// A stream reached its end (0 stdout, 1 stderr).
    Closed(usize),
    /// A stream (0 stdout, 1 stderr) passed the output limit; its reader has stopped.
    Overflow(usize),
}

/// How long to wait for the pipes to close once the run's processes have been killed.
const GRACE: Duration = Duration::from_secs(2);

/// How often the CPU time of a running program is read.
const TICK: Duration = Duration::from_millis(10);

/// The wall-clock safety net of a run whose CPU-time limit is `cpu`: 3 x `cpu` + 1 s.
/// A program gets at least a third of a core even when `--jobs` runs share the cores
/// with the machine's other work, and a second covers starting up (a JVM's start counts
/// in CPU time, but its class loading also waits for the disk); a program that sleeps
/// or waits for input that never comes is ended by this limit.
/// Pre: none. Post: more than `cpu`.
pub(crate) fn wall_limit(cpu: Duration) -> Duration {
    cpu.saturating_mul(3).saturating_add(Duration::from_secs(1))
}

/// Runs `program` with `input` on its stdin under `limits`.
/// Pre: none. Post: `Err` only when the program cannot be started; otherwise the run,
/// and every process it started (found by [`crate::tools::reaper`]) has been killed.
pub(crate) fn run(program: &Program, input: &[u8], limits: Limits) -> Result<Run, StartError> {
    let mut command = Command::new(&program.command);
    command.args(&program.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let (mut child, tracked) =
        reaper::spawn(&mut command).map_err(|error| StartError { program: program.shown(), error })?;
    let pid = child.id();
    let start = Instant::now();
    let deadline = start + wall_limit(limits.time);
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
    // `child` is reaped here through wait4 (for its resource usage), never through std.
    drop(child);
    let (limit, mut done, mut reaped) = watch(&rx, pid, limits.time, deadline);
    let elapsed = start.elapsed();
    if limit.is_some() {
        if reaped.is_none() {
            // Its group cannot be another's while it is not reaped.
            let _ = sys::send_group(pid, sys::SIGKILL);
        }
        tracked.kill_all();
    }
    if reaped.is_none() {
        // Killed (or about to end): its status comes at once, unless the system holds
        // it (a process in uninterruptible sleep is not waited for past the grace).
        let until = Instant::now() + GRACE;
        while reaped.is_none() && Instant::now() < until {
            match sys::reap(pid, false) {
                Ok(Some(r)) => reaped = Some(r),
                Ok(None) => thread::sleep(Duration::from_millis(1)),
                Err(_) => break,
            }
        }
    }
    // Whatever it left behind: a child in the background, one in its own session.
    tracked.finish();
    // The readers end once every process holding the pipes is dead.
    if !done.iter().all(|&d| d) {
        let more = closed(&rx, Instant::now() + GRACE);
        done = [done[0] || more[0], done[1] || more[1]];
    }
    // A reader still blocked (a process out of reach holds the pipe) is left behind
    // rather than waited for.
    let join = |h: Option<JoinHandle<Vec<u8>>>, done: bool| h.filter(|_| done).and_then(|h| h.join().ok());
    let stdout = join(out, done[0]).unwrap_or_default();
    let stderr = join(err, done[1]).unwrap_or_default();
    let cpu = reaped.map_or(Duration::ZERO, |r| r.cpu);
    let ending = match (limit, reaped) {
        (Some(e), _) => e,
        (None, Some(r)) => Ending::Exited(r.status.code()),
        (None, None) => Ending::Exited(None),
    };
    Ok(Run { stdout, stderr, ending, elapsed, cpu })
}

/// Watches the run of the child `pid` until it has exited and both pipes have closed,
/// or a limit is passed: CPU time past `cpu_limit`, the wall clock past `deadline`, or
/// a reader past the output limit. Returns the limit passed, if any, which readers
/// have finished, and the child's exit status once it is reaped.
fn watch(
    rx: &Receiver<Event>,
    pid: u32,
    cpu_limit: Duration,
    deadline: Instant,
) -> (Option<Ending>, [bool; 2], Option<sys::Reaped>) {
    let mut done = [false, false];
    let mut reaped: Option<sys::Reaped> = None;
    // Once both pipes are closed the child is usually gone: look again soon.
    let mut pause = Duration::from_micros(20);
    loop {
        let now = Instant::now();
        if now >= deadline {
            return (Some(Ending::TimedOut), done, reaped);
        }
        let wait = if done.iter().all(|&d| d) {
            pause = (pause * 2).min(Duration::from_millis(5));
            pause
        } else {
            TICK
        };
        match rx.recv_timeout(wait.min(deadline - now)) {
            Ok(Event::Closed(k)) => mark(&mut done, k),
            Ok(Event::Overflow(k)) => {
                mark(&mut done, k);
                return (Some(Ending::OutputLimit), done, reaped);
            }
            Err(RecvTimeoutError::Timeout) => {}
            // Both readers have ended: each said so before.
            Err(RecvTimeoutError::Disconnected) => done = [true, true],
        }
        if reaped.is_none() {
            match sys::reap(pid, false) {
                Ok(r) => reaped = r,
                // Not our child any more (cannot happen): nothing to wait for.
                Err(_) => return (None, [true, true], None),
            }
        }
        let cpu = match reaped {
            Some(r) => r.cpu,
            None => reaper::cpu_time(pid).unwrap_or_default(),
        };
        if cpu > cpu_limit {
            return (Some(Ending::TimedOut), done, reaped);
        }
        if reaped.is_some() && done.iter().all(|&d| d) {
            return (None, done, reaped);
        }
    }
}

/// Waits until both pipes have closed or `deadline`; which readers have finished.
fn closed(rx: &Receiver<Event>, deadline: Instant) -> [bool; 2] {
    let mut done = [false, false];
    while !done.iter().all(|&d| d) {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Event::Closed(k) | Event::Overflow(k)) => mark(&mut done, k),
            Err(RecvTimeoutError::Timeout) => break,
            Err(RecvTimeoutError::Disconnected) => return [true, true],
        }
    }
    done
}

/// Notes that reader `k` has finished.
fn mark(done: &mut [bool; 2], k: usize) {
    if let Some(d) = done.get_mut(k) {
        *d = true;
    }
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
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let r = run(&sh("cat; echo oops >&2; exit 3"), b"hello\n", limits(5000)).unwrap();
        assert_eq!(r.stdout, b"hello\n");
        assert_eq!(r.stderr, b"oops\n");
        assert_eq!(r.ending, Ending::Exited(Some(3)));
        let r = run(&sh("kill -9 $$"), b"", limits(5000)).unwrap();
        assert_eq!(r.ending, Ending::Exited(None));
    }

    #[test]
    fn a_program_that_ignores_its_input_is_fine() {
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let big = vec![b'x'; 1 << 20];
        let r = run(&sh("echo done"), &big, limits(5000)).unwrap();
        assert_eq!((r.stdout.as_slice(), r.ending), (&b"done\n"[..], Ending::Exited(Some(0))));
    }

    #[test]
    fn time_and_output_limits_kill_the_program() {
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
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
    fn the_time_limit_is_cpu_time_with_a_wall_clock_safety_net() {
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        // Asleep 0.3 s under a 0.2 s CPU limit: it ends by itself, having used little CPU.
        let r = run(&sh("sleep 0.3; echo ok"), b"", limits(200)).unwrap();
        assert_eq!((r.stdout.as_slice(), r.ending), (&b"ok\n"[..], Ending::Exited(Some(0))));
        assert!(r.cpu < Duration::from_millis(100) && r.elapsed >= Duration::from_millis(300), "{r:?}");
        // A busy loop is killed once its CPU time passes the limit; CPU time of the
        // children it waited for counts. (On a machine so busy that the program gets
        // less than a sixth of a core, the wall clock's 1.9 s comes first.) A child's
        // time counts once it has been waited for, so the second is killed when the
        // burner ends: by then the run has used the burner's whole CPU time (0.5 s of
        // loop and its start, more on a loaded machine), which it writes on stderr.
        let burn = "python3 -c 'import sys, time\nt = time.process_time()\nwhile time.process_time() - t < 0.5: pass\n\
                    print(time.process_time(), file=sys.stderr)'";
        for script in ["while :; do :; done".to_string(), format!("{burn}; sleep 5")] {
            let r = run(&sh(&script), b"", limits(300)).unwrap();
            assert_eq!(r.ending, Ending::TimedOut, "{script}: {r:?}");
            // What the run must have used when killed: the limit, or the burner's time.
            let burner: f64 = String::from_utf8_lossy(&r.stderr).trim().parse().unwrap_or(0.3);
            let floor = Duration::from_secs_f64(burner.max(0.3));
            if r.elapsed < wall_limit(Duration::from_millis(300)) {
                assert!(r.cpu >= floor && r.cpu < floor + Duration::from_millis(200), "{script}: {r:?}");
            } else {
                println!("{script}: the machine is too busy to tell: {r:?}");
            }
        }
        assert_eq!(wall_limit(Duration::from_secs(2)), Duration::from_secs(7));
    }

    #[test]
    fn a_program_that_cannot_start_is_an_error() {
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let p = Program { command: "/no/such/program".into(), args: vec![] };
        let e = run(&p, b"", limits(1000)).unwrap_err();
        assert!(e.to_string().starts_with("cannot start `/no/such/program`: "), "{e}");
    }
}

//! The referee program `play --referee CMD` starts: its pipes, the end of its stderr,
//! and its end. It is started through the reaper ([`crate::tools::reaper`]), like
//! `check`'s runs and the arena's bots, so that when the game is over every process it
//! started is killed with it: a child that ignores SIGTERM, one that left its session.

use crate::tools::reaper::{self, Tracked};
use std::io::{self, Read};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Bytes kept of the end of the referee's stderr.
const STDERR_KEPT: usize = 4096;

/// How long [`RefereeProcess::failure`] waits for the end of the referee's stderr.
const STDERR_WAIT: Duration = Duration::from_millis(500);

/// Why the referee could not be played, or failed.
#[derive(Debug)]
pub enum RefereeError {
    /// The command has no words.
    Empty,
    /// The program could not start.
    Start {
        /// The program, as named in the command.
        program: String,
        /// Why.
        error: io::Error,
    },
    /// The program started without the pipes asked for.
    Pipes {
        /// The program.
        program: String,
    },
    /// The program ended with a status other than 0.
    Failed {
        /// The program.
        program: String,
        /// Its exit status.
        status: ExitStatus,
        /// The last line of its stderr (control characters dropped), if any.
        said: Option<String>,
    },
}

impl std::fmt::Display for RefereeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RefereeError::Empty => write!(f, "--referee: the command is empty"),
            RefereeError::Start { program, error } => write!(f, "--referee: cannot start `{program}`: {error}"),
            RefereeError::Pipes { program } => write!(f, "--referee: `{program}` started without its pipes"),
            RefereeError::Failed { program, status, said } => {
                write!(f, "the referee `{program}` stopped ({status})")?;
                match said {
                    Some(line) => write!(f, ": {line}"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::error::Error for RefereeError {}

/// A referee program started by [`RefereeProcess::start`]: it, and everything it
/// started, is killed and reaped by [`RefereeProcess::end`] or when dropped, so that no
/// process outlives `play`.
pub(crate) struct RefereeProcess {
    child: Child,
    /// Its run, for the reaper (`None` once everything was killed).
    tracked: Option<Tracked>,
    /// The program, as named in messages.
    program: String,
    /// The end of its stderr, filled by a thread.
    stderr: Arc<Mutex<Vec<u8>>>,
    reader: Option<JoinHandle<()>>,
}

impl RefereeProcess {
    /// Starts `argv` with its stdin, stdout and stderr piped, as a tracked run.
    /// Pre: the process is a child subreaper (`reaper::guard_signals`) for the
    /// referee's orphans to be found. Post: `Err` naming the program when it cannot
    /// start; on `Ok`, the pipes to and from it.
    pub(crate) fn start(argv: &[String]) -> Result<(RefereeProcess, ChildStdin, ChildStdout), RefereeError> {
        let (program, args) = argv.split_first().ok_or(RefereeError::Empty)?;
        let mut command = Command::new(program);
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let (mut child, tracked) =
            reaper::spawn(&mut command).map_err(|error| RefereeError::Start { program: program.clone(), error })?;
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let mut referee = RefereeProcess {
            child,
            tracked: Some(tracked),
            program: program.clone(),
            stderr: Arc::clone(&stderr),
            reader: None,
        };
        let (Some(to), Some(from), Some(mut errors)) = pipes else {
            return Err(RefereeError::Pipes { program: program.clone() });
        };
        referee.reader = std::thread::Builder::new()
            .name("referee stderr".into())
            .spawn(move || {
                let mut chunk = [0u8; 1024];
                while let Ok(n @ 1..) = errors.read(&mut chunk) {
                    if let Ok(mut kept) = stderr.lock() {
                        kept.extend_from_slice(chunk.get(..n).unwrap_or_default());
                        let over = kept.len().saturating_sub(STDERR_KEPT);
                        kept.drain(..over);
                    }
                }
            })
            .ok();
        Ok((referee, to, from))
    }

    /// Waits up to `grace` for the referee to exit by itself.
    /// Pre: none. Post: `Some(status)` when it has exited (its status is kept: asking
    /// again gives it again).
    pub(crate) fn wait_for(&mut self, grace: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Waits up to `grace` for the referee to exit, then kills it (if still there) and
    /// every process it started, and reaps it.
    /// Pre: its input is closed (or it is meant to be killed). Post: no process of the
    /// referee's is left that the reaper can find; `Some(status)` when it exited by
    /// itself.
    pub(crate) fn end(&mut self, grace: Duration) -> Option<ExitStatus> {
        let status = self.wait_for(grace);
        if let Some(tracked) = self.tracked.take() {
            tracked.kill_all();
            let _ = self.child.wait();
            tracked.finish();
        }
        let _ = self.child.wait();
        status
    }

    /// Why the referee failed, from its exit status and the last line of its stderr.
    /// Pre: it has ended ([`RefereeProcess::end`]). Post: waits at most half a second
    /// for the rest of its stderr.
    pub(crate) fn failure(&mut self, status: ExitStatus) -> RefereeError {
        let until = Instant::now() + STDERR_WAIT;
        while self.reader.as_ref().is_some_and(|r| !r.is_finished()) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        if let Some(reader) = self.reader.take_if(|r| r.is_finished()) {
            let _ = reader.join();
        }
        let text = self.stderr.lock().map(|k| String::from_utf8_lossy(&k).into_owned()).unwrap_or_default();
        let last = text.lines().rev().map(str::trim).find(|l| !l.is_empty());
        let said = last.map(|l| l.chars().filter(|c| !c.is_control()).take(300).collect::<String>());
        RefereeError::Failed { program: self.program.clone(), status, said }
    }
}

impl Drop for RefereeProcess {
    /// Kills the referee and everything it started, and reaps it.
    fn drop(&mut self) {
        self.end(Duration::ZERO);
    }
}

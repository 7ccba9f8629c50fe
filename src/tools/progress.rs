//! A progress line at a terminal while long work runs on another thread.

use std::fmt;
use std::io::Write;

/// Runs `work` on a helper thread while this one redraws, every tenth of a second and
/// only when stderr is a terminal, the line `line(elapsed)` gives (`None`: nothing yet);
/// the line is wiped at the end. `what` names the work if its thread dies.
/// Pre: none. Post: `work`'s result, or `Err` when its thread panicked.
pub(crate) fn with_progress<T: Send>(
    stderr: &mut dyn Write,
    stderr_tty: bool,
    what: &str,
    work: impl FnOnce() -> T + Send,
    line: impl Fn(std::time::Duration) -> Option<String>,
) -> Result<T, Stopped> {
    let start = std::time::Instant::now();
    let mut shown = false;
    let result = std::thread::scope(|scope| {
        // The worker drops `done` when it ends, which wakes this thread at once.
        let (done, ended) = std::sync::mpsc::channel::<()>();
        let worker = scope.spawn(move || {
            let result = work();
            drop(done);
            result
        });
        let tick = std::time::Duration::from_millis(100);
        while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = ended.recv_timeout(tick) {
            if let (true, Some(text)) = (stderr_tty, line(start.elapsed())) {
                let _ = write!(stderr, "\r{text:<60}");
                let _ = stderr.flush();
                shown = true;
            }
        }
        worker.join()
    });
    if shown {
        let _ = write!(stderr, "\r{}\r", " ".repeat(60));
        let _ = stderr.flush();
    }
    result.map_err(|_| Stopped(what.to_string()))
}

/// The work of [`with_progress`] stopped unexpectedly (its thread panicked): what it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stopped(pub String);

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} stopped unexpectedly", self.0)
    }
}

impl std::error::Error for Stopped {}

//! Every process a command starts is found and killed: after each run of a program
//! (`check`'s runs, `simulate --bot`'s bots) and when the command is interrupted.
//!
//! A program is started by [`spawn`] in its own process group, with the variable
//! `SPOT_THE_SHIPS_RUN` set to a token of its own that its children inherit, and is
//! tracked until its [`Tracked`] is dropped. The command makes itself a child
//! subreaper ([`guard_signals`]), so that a process whose parent died (a double fork,
//! `setsid`) is reparented to it instead of init: the processes of a run are then the
//! run's first process and everything below it, and every orphan (a child of ours that
//! no run started) whose process group is the run's or whose environment holds the
//! run's token, with everything below them. [`Tracked::kill_all`] stops them all with
//! SIGSTOP (a stopped process cannot fork) until a pass over `/proc` finds no new one,
//! then kills them with SIGKILL through `kill(2)` and collects the orphans' exit
//! statuses. Only processes below this one are ever signalled.
//!
//! [`guard_signals`] also catches SIGINT, SIGTERM and SIGHUP (the handler only writes
//! into a pipe, [`sys::catch_signals`]) and waits for them on a thread of its own: on
//! one, every process below this one is killed, one
//! `error: COMMAND: interrupted by SIGNAL ...` line is written and the command exits
//! with 128 + the signal's number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP),
//! as a shell reports a command that a signal ended. [`sweep`] kills what is left at
//! the end of a command (an orphan that cleared its environment and left the run's
//! process group can be told from no other run until then).

use crate::sys;
use std::io::{self, IsTerminal, Write};
use std::os::fd::AsFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The environment variable holding a run's token (`PID.N`: this process, a counter).
pub(crate) const TOKEN_VARIABLE: &str = "SPOT_THE_SHIPS_RUN";

/// The environment variable that tells a command it is the worker [`supervise`]
/// started: the process id of its thin parent.
const WORKER_VARIABLE: &str = "SPOT_THE_SHIPS_WORKER";

/// Most passes of stopping new processes before the kill (a fork bomb is bounded by
/// the system's process limit, each pass stops every process it found).
const PASSES: usize = 200;

/// How long to wait for the killed orphans to end, to collect their exit status.
const REAP_GRACE: Duration = Duration::from_secs(1);

/// The clock ticks per second of `/proc/PID/stat` times (`USER_HZ`: 100 on every Linux
/// architecture).
const TICKS: u64 = 100;

/// The runs under way, and what is being shut down.
struct Registry {
    /// The command was interrupted: no new program starts.
    closing: bool,
    /// The first process and the token of every run under way.
    runs: Vec<(u32, String)>,
    /// Runs started so far (the counter of the tokens).
    started: u64,
    /// Killed orphans whose exit status is still to be collected.
    dying: Vec<u32>,
}

static REGISTRY: Mutex<Registry> =
    Mutex::new(Registry { closing: false, runs: Vec::new(), started: 0, dying: Vec::new() });

/// The registry (a panic elsewhere does not stop the cleanup: the lock is taken anyway).
fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A program started by [`spawn`]: killed with everything it started by
/// [`Tracked::kill_all`], and when dropped.
#[derive(Debug)]
pub(crate) struct Tracked {
    root: u32,
    token: String,
    /// [`Tracked::finish`] has killed what was left: dropping it need not look again.
    finished: bool,
}

/// Starts `command` as a tracked run: in a process group of its own, with its token in
/// [`TOKEN_VARIABLE`].
/// Pre: none. Post: `Err` when it cannot start, or when the command is being
/// interrupted (`Interrupted`). The caller owns the child: it waits for it (through
/// std or [`sys::reap`]); [`Tracked`] never reaps the first process.
pub(crate) fn spawn(command: &mut Command) -> io::Result<(Child, Tracked)> {
    let mut reg = registry();
    if reg.closing {
        return Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
    }
    reg.started += 1;
    let token = format!("{}.{}", std::process::id(), reg.started);
    let child = command.env(TOKEN_VARIABLE, &token).env_remove(WORKER_VARIABLE).process_group(0).spawn()?;
    let root = child.id();
    reg.runs.push((root, token.clone()));
    Ok((child, Tracked { root, token, finished: false }))
}

impl Tracked {
    /// The first process's id (its process group's too).
    #[cfg(test)]
    /// Pre: none. Post: none.
    pub(crate) fn pid(&self) -> u32 {
        self.root
    }

    /// Kills every process of the run still there: the first process (when not
    /// reaped yet), everything below it, and the orphans it left. Waits up to a second
    /// for the orphans to end and collects their exit status.
    /// Pre: none. Post: every process of the run found is killed.
    pub(crate) fn kill_all(&self) {
        let mut reg = registry();
        let found = freeze(|tree| {
            let tops = tree.children(MY_PID.get()).into_iter().filter(|p| self.claims(p, &reg));
            tree.below(tops.map(|p| p.pid).collect())
        });
        kill(&found);
        reg.dying.extend(found.into_iter().filter(|&p| p != self.root));
        drop(reg);
        reap_dying(REAP_GRACE);
    }

    /// Kills what is left of the run (as [`Tracked::kill_all`]) and forgets it: once
    /// its first process has been reaped, nothing of the run is left after this.
    /// Pre: none. Post: the run is no longer tracked.
    pub(crate) fn finish(mut self) {
        self.kill_all();
        self.finished = true;
    }

    /// Whether the child of ours `p` belongs to this run: its first process, or an
    /// orphan in its process group or with its token (or the token of a run that has
    /// ended: left over).
    fn claims(&self, p: &Proc, reg: &Registry) -> bool {
        if p.pid == self.root {
            return true;
        }
        if reg.runs.iter().any(|(root, _)| *root == p.pid) {
            return false;
        }
        if p.pgid == self.root {
            return true;
        }
        match token(p.pid) {
            Some(t) if t == self.token => true,
            Some(t) => t.starts_with(&format!("{}.", MY_PID.get())) && !reg.runs.iter().any(|(_, k)| *k == t),
            None => false,
        }
    }
}

impl Drop for Tracked {
    /// Kills what is left of the run, and forgets it.
    fn drop(&mut self) {
        if !self.finished {
            self.kill_all();
        }
        registry().runs.retain(|(root, _)| *root != self.root);
    }
}

/// This process's id, read once.
struct MyPid(std::sync::OnceLock<u32>);

impl MyPid {
    fn get(&self) -> u32 {
        *self.0.get_or_init(std::process::id)
    }
}

static MY_PID: MyPid = MyPid(std::sync::OnceLock::new());

/// A process below this one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Proc {
    pid: u32,
    ppid: u32,
    pgid: u32,
}

/// The processes below this one, as `/proc` showed them.
struct Tree {
    procs: Vec<Proc>,
}

impl Tree {
    /// The processes below this one: through the `children` files of `/proc/PID/task`
    /// (only this process's descendants are read) where the kernel has them, else by
    /// reading every process of `/proc`.
    fn read() -> Tree {
        if has_children_files() {
            Tree::from_children_files()
        } else {
            Tree::from_every_process()
        }
    }

    /// Reads the tree from the `children` file of each thread of each process below
    /// this one.
    fn from_children_files() -> Tree {
        let mut procs: Vec<Proc> = Vec::new();
        let mut parents = vec![MY_PID.get()];
        while let Some(parent) = parents.pop() {
            for pid in children_of(parent) {
                if let Some(s) = stat(pid) {
                    procs.push(Proc { pid, ppid: s.ppid, pgid: s.pgid });
                    parents.push(pid);
                }
            }
        }
        Tree { procs }
    }

    /// Reads every process of `/proc` and keeps those below this process.
    fn from_every_process() -> Tree {
        let me = MY_PID.get();
        let mut all: Vec<Proc> = Vec::new();
        if let Ok(dir) = std::fs::read_dir("/proc") {
            for entry in dir.flatten() {
                let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
                if let Some(p) = stat(pid).map(|s| Proc { pid, ppid: s.ppid, pgid: s.pgid }) {
                    all.push(p);
                }
            }
        }
        let mut below: Vec<Proc> = all.iter().filter(|p| p.ppid == me && p.pid != me).copied().collect();
        let mut k = 0;
        while let Some(parent) = below.get(k).map(|p| p.pid) {
            below.extend(all.iter().filter(|p| p.ppid == parent && p.pid != me));
            k += 1;
        }
        Tree { procs: below }
    }

    /// The children of `pid`.
    fn children(&self, pid: u32) -> Vec<Proc> {
        self.procs.iter().filter(|p| p.ppid == pid).copied().collect()
    }

    /// `tops` and every process below them.
    fn below(&self, mut tops: Vec<u32>) -> Vec<u32> {
        let mut k = 0;
        while let Some(&parent) = tops.get(k) {
            tops.extend(self.procs.iter().filter(|p| p.ppid == parent).map(|p| p.pid));
            k += 1;
        }
        tops
    }
}

/// Whether the kernel lists each thread's children (`/proc/PID/task/TID/children`,
/// CONFIG_PROC_CHILDREN).
fn has_children_files() -> bool {
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS.get_or_init(|| std::path::Path::new("/proc/thread-self/children").exists())
}

/// The children of the process `pid` (of each of its threads; a thread that ended
/// meanwhile has none).
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(t.path().join("children")) {
                out.extend(text.split_whitespace().filter_map(|s| s.parse::<u32>().ok()));
            }
        }
    }
    out
}

/// What this crate reads of `/proc/PID/stat`.
struct Stat {
    state: u8,
    ppid: u32,
    pgid: u32,
    /// User and system time, its own and its waited-for children's.
    cpu: Duration,
}

/// Reads `/proc/PID/stat` (`PID (COMM) STATE PPID PGRP ...`; COMM may hold spaces and
/// parentheses, so the fields are counted from its last `)`).
fn stat(pid: u32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = text.get(text.rfind(')')? + 1..)?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let num = |k: usize| f.get(k).and_then(|s| s.parse::<u64>().ok());
    let ticks = num(11)?.saturating_add(num(12)?).saturating_add(num(13)?).saturating_add(num(14)?);
    Some(Stat {
        state: *f.first()?.as_bytes().first()?,
        ppid: u32::try_from(num(1)?).ok()?,
        pgid: u32::try_from(num(2)?).ok()?,
        cpu: Duration::from_millis(ticks.saturating_mul(1000 / TICKS)),
    })
}

/// The CPU time (user and system) the process `pid` has used so far, with that of the
/// children it waited for; `None` once it is gone.
/// Pre: `pid` is a child of ours not reaped yet (else the pid may be another's).
/// Post: precise to a clock tick (10 ms).
pub(crate) fn cpu_time(pid: u32) -> Option<Duration> {
    stat(pid).map(|s| s.cpu)
}

/// The run token in the environment of `pid`, if it has one (a process that replaced
/// its environment, or a zombie, has none).
fn token(pid: u32) -> Option<String> {
    let env = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let prefix = format!("{TOKEN_VARIABLE}=");
    env.split(|&b| b == 0)
        .find_map(|v| v.strip_prefix(prefix.as_bytes()))
        .map(|t| String::from_utf8_lossy(t).into_owned())
}

/// Stops every process `pick` chooses in the tree below this process, reading the tree
/// again until it chooses no new one; returns them all.
fn freeze(pick: impl Fn(&Tree) -> Vec<u32>) -> Vec<u32> {
    let mut stopped: Vec<u32> = Vec::new();
    for _ in 0..PASSES {
        let fresh: Vec<u32> = pick(&Tree::read()).into_iter().filter(|p| !stopped.contains(p)).collect();
        if fresh.is_empty() {
            break;
        }
        for p in fresh {
            let _ = sys::send(p, sys::SIGSTOP);
            stopped.push(p);
        }
    }
    stopped
}

/// Kills `pids` (stopped or not) with SIGKILL.
fn kill(pids: &[u32]) {
    for &p in pids {
        let _ = sys::send(p, sys::SIGKILL);
    }
}

/// Collects the exit status of the killed orphans that have become our zombies,
/// waiting up to `grace` for the others. An orphan that is gone (or was never ours: no
/// subreaper) is forgotten; the first process of a run is never reaped here.
fn reap_dying(grace: Duration) {
    let until = Instant::now() + grace;
    loop {
        let mut reg = registry();
        let me = MY_PID.get();
        let roots: Vec<u32> = reg.runs.iter().map(|(r, _)| *r).collect();
        reg.dying.retain(|&p| match stat(p) {
            None => false,
            // Our zombie cannot be another process until we reap it.
            Some(s) if s.ppid == me && s.state == b'Z' && !roots.contains(&p) => {
                !matches!(sys::reap(p, false), Ok(Some(_)) | Err(_))
            }
            Some(_) => Instant::now() < until,
        });
        if reg.dying.is_empty() || Instant::now() >= until {
            return;
        }
        drop(reg);
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Kills every process below this one (they are all runs' in `check` and `simulate`).
/// Pre: none. Post: what was found is killed.
pub(crate) fn sweep() {
    let _reg = registry();
    let all = freeze(|_| Tree::from_every_process().procs.iter().map(|p| p.pid).collect());
    kill(&all);
}

/// Runs the rest of `command` in a worker process that cleans up even when this one is
/// killed by SIGKILL. This process (the one the user started) becomes a thin parent:
/// it starts this program again with the same arguments and standard streams as the
/// worker, passes it the SIGINT, SIGTERM and SIGHUP it gets, waits for it and gives its
/// status. The worker makes itself a child subreaper and guards its signals
/// ([`guard_signals`]), and asks the kernel for SIGTERM when the thin parent ends
/// (however it ends): on it, the worker kills every process below it, orphans of the
/// runs included, and exits.
/// Pre: called once per process, before any run starts, by a command whose output is
/// all the worker's. Post: `Ok(None)` in the worker (and in a process that could not
/// start one: its signals are guarded as [`guard_signals`] does); `Ok(Some(status))` in
/// the thin parent once the worker ended; `Err` when the system refused.
pub(crate) fn supervise(command: &'static str) -> io::Result<Option<std::process::ExitStatus>> {
    let parent = std::os::unix::process::parent_id();
    if std::env::var(WORKER_VARIABLE).is_ok_and(|v| v == parent.to_string()) {
        guard_signals(command)?;
        sys::set_parent_death_signal(sys::SIGTERM)?;
        if std::os::unix::process::parent_id() != parent {
            // The parent ended before the call: as if it had just ended.
            sys::send(MY_PID.get(), sys::SIGTERM)?;
        }
        return Ok(None);
    }
    // Only this program's binary is started again (not a test binary calling the
    // command in its own process).
    let exe = std::env::current_exe().ok().filter(|e| e.file_name().is_some_and(|n| n == env!("CARGO_PKG_NAME")));
    let Some(exe) = exe else {
        guard_signals(command)?;
        return Ok(None);
    };
    let mut caught = sys::catch_signals(&[sys::SIGINT, sys::SIGTERM, sys::SIGHUP])?;
    let mut worker =
        Command::new(exe).args(std::env::args_os().skip(1)).env(WORKER_VARIABLE, MY_PID.get().to_string()).spawn()?;
    let pid = worker.id();
    std::thread::Builder::new().name("signals".into()).spawn(move || {
        let mut byte = [0u8];
        while std::io::Read::read_exact(&mut caught, &mut byte).is_ok() {
            let _ = sys::send(pid, i32::from(byte[0]));
        }
    })?;
    worker.wait().map(Some)
}

/// Makes this process a child subreaper and starts the thread that, on SIGINT, SIGTERM
/// or SIGHUP, kills every process below this one, writes one `error: COMMAND:
/// interrupted by SIGNAL ...` line on stderr and exits with 128 + the signal number.
/// Pre: called once per process. Post: `Err` when the system refused (the command then
/// runs as before).
pub(crate) fn guard_signals(command: &'static str) -> io::Result<()> {
    sys::set_child_subreaper(true)?;
    let mut caught = sys::catch_signals(&[sys::SIGINT, sys::SIGTERM, sys::SIGHUP])?;
    std::thread::Builder::new().name("signals".into()).spawn(move || {
        let mut byte = [0u8];
        if std::io::Read::read_exact(&mut caught, &mut byte).is_err() {
            return;
        }
        let sig = i32::from(byte[0]);
        let mut reg = registry();
        reg.closing = true;
        let all = freeze(|_| Tree::from_every_process().procs.iter().map(|p| p.pid).collect());
        kill(&all);
        // Main holds std's stderr lock while the command runs: write through a copy of
        // the descriptor.
        let stderr = io::stderr();
        let lead = if stderr.is_terminal() { "\n" } else { "" };
        if let Ok(fd) = stderr.as_fd().try_clone_to_owned() {
            let line = format!(
                "{lead}error: {command}: interrupted by {}; the {} processes it had started were killed\n",
                sys::signal_name(sig),
                all.len()
            );
            let _ = std::fs::File::from(fd).write_all(line.as_bytes());
        }
        std::process::exit(128 + sig);
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Stdio;

    /// The processes whose command line holds `needle`.
    fn alive(needle: &str) -> usize {
        std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter(|e| {
                std::fs::read(e.path().join("cmdline")).is_ok_and(|c| String::from_utf8_lossy(&c).contains(needle))
            })
            .count()
    }

    #[test]
    fn stat_reads_odd_command_names() {
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let mut child =
            Command::new("sh").args(["-c", "exec -a 'a) b (c' sleep 30"]).stdin(Stdio::null()).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(100));
        let s = stat(child.id()).unwrap();
        assert_eq!(s.ppid, std::process::id());
        assert!(cpu_time(child.id()).unwrap() < Duration::from_secs(1));
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(stat(child.id()).is_none() && cpu_time(child.id()).is_none());
    }

    #[test]
    fn a_run_and_its_children_are_killed_even_those_that_left_its_group() {
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let needle = format!("66.{}", std::process::id());
        // A child in the run's group, and one in a session of its own, both below it.
        let script = format!("sleep {needle} & setsid sleep {needle} & echo started; wait");
        let mut command = Command::new("sh");
        command.args(["-c", &script]).stdin(Stdio::null()).stdout(Stdio::piped());
        let (mut child, tracked) = spawn(&mut command).unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().unwrap()), &mut line).unwrap();
        // Until exactly three: a forked copy of sh, not yet become its sleep, has the
        // needle in its command line too for a moment.
        let until = Instant::now() + Duration::from_secs(5);
        while alive(&needle) != 3 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(alive(&needle), 3, "sh and its two sleeps");
        assert_eq!(token(tracked.pid()).as_deref(), Some(tracked.token.as_str()));
        tracked.kill_all();
        assert!(child.wait().unwrap().code().is_none(), "the first process was killed");
        drop(tracked);
        let until = Instant::now() + Duration::from_secs(3);
        while alive(&needle) > 0 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(alive(&needle), 0);
        assert!(registry().runs.iter().all(|(r, _)| *r != child.id()));
    }
}

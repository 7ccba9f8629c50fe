//! The few system calls the standard library lacks, declared with `extern "C"` against
//! the C library std already links (no package): `kill(2)`, `prctl(2)` for the child
//! subreaper flag, `wait4(2)` for an exit status with its resource usage, `signal(2)`
//! with a handler that writes the signal's number into a pipe (the self-pipe trick; a
//! handler, unlike a blocked mask, is not inherited by the programs started: `execve`
//! resets it), `signal(2)` again to ignore SIGXFSZ (so that a write past the file size
//! limit fails with `EFBIG` instead of killing the process), `renameat2(2)` to exchange
//! two paths, `epoll(7)` (`epoll_create1`, `epoll_ctl`, `epoll_wait`) for `serve`'s
//! event loop, `getrlimit`/`setrlimit` for the open-file limit, and `clock_gettime(2)`
//! for the calling thread's CPU time to the nanosecond. This is the crate's only module
//! with `unsafe` code; each call says why it is sound, and each wrapper has a test.
//!
//! `struct rusage` is laid out as glibc and musl lay it out on 64-bit Linux (x86_64 and
//! aarch64: 144 bytes); other targets are refused at compile time.

use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void, CString};
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, IntoRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

#[cfg(not(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64"))))]
compile_error!("src/sys.rs declares Linux's 64-bit structures: x86_64 or aarch64 Linux only");

/// `struct timeval`.
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
struct Timeval {
    tv_sec: c_long,
    tv_usec: c_long,
}

/// `struct timespec`.
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
struct Timespec {
    tv_sec: c_long,
    tv_nsec: c_long,
}

/// `struct rusage`: the two times, then 14 counters this crate does not read.
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
struct Rusage {
    ru_utime: Timeval,
    ru_stime: Timeval,
    rest: [c_long; 14],
}

const _: () = assert!(std::mem::size_of::<Rusage>() == 144);

/// `struct epoll_event`: packed on x86_64 (12 bytes), naturally aligned elsewhere (16).
#[cfg_attr(target_arch = "x86_64", repr(C, packed))]
#[cfg_attr(not(target_arch = "x86_64"), repr(C))]
#[derive(Debug, Default, Clone, Copy)]
struct EpollEvent {
    events: u32,
    data: u64,
}

#[cfg(target_arch = "x86_64")]
const _: () = assert!(std::mem::size_of::<EpollEvent>() == 12);
#[cfg(not(target_arch = "x86_64"))]
const _: () = assert!(std::mem::size_of::<EpollEvent>() == 16);

/// `struct rlimit` (two `rlim_t`, 64-bit).
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
struct Rlimit {
    cur: u64,
    max: u64,
}

extern "C" {
    fn kill(pid: c_int, sig: c_int) -> c_int;
    fn prctl(option: c_int, ...) -> c_int;
    fn wait4(pid: c_int, status: *mut c_int, options: c_int, rusage: *mut Rusage) -> c_int;
    fn signal(sig: c_int, handler: usize) -> usize;
    fn write(fd: c_int, buf: *const c_void, count: usize) -> isize;
    fn __errno_location() -> *mut c_int;
    fn renameat2(olddirfd: c_int, old: *const c_char, newdirfd: c_int, new: *const c_char, flags: c_uint) -> c_int;
    fn epoll_create1(flags: c_int) -> c_int;
    fn epoll_ctl(epfd: c_int, op: c_int, fd: c_int, event: *mut EpollEvent) -> c_int;
    fn epoll_wait(epfd: c_int, events: *mut EpollEvent, maxevents: c_int, timeout: c_int) -> c_int;
    fn getrlimit(resource: c_int, rlim: *mut Rlimit) -> c_int;
    fn setrlimit(resource: c_int, rlim: *const Rlimit) -> c_int;
    fn clock_gettime(clock: c_int, time: *mut Timespec) -> c_int;
}

/// SIGHUP: the terminal went away.
pub(crate) const SIGHUP: i32 = 1;
/// SIGINT: Ctrl-C.
pub(crate) const SIGINT: i32 = 2;
/// SIGKILL: cannot be caught.
pub(crate) const SIGKILL: i32 = 9;
/// SIGTERM: asked to stop.
pub(crate) const SIGTERM: i32 = 15;
/// SIGSTOP: cannot be caught; the process stops (and cannot fork) until killed.
pub(crate) const SIGSTOP: i32 = 19;
/// SIGXFSZ: a write went past the file size limit (`ulimit -f`); kills by default.
const SIGXFSZ: c_int = 25;
/// `SIG_IGN`, the handler that ignores a signal.
const SIG_IGN: usize = 1;

const PR_SET_CHILD_SUBREAPER: c_int = 36;
/// `prctl` option: the signal sent when the parent (the thread that started us) ends.
const PR_SET_PDEATHSIG: c_int = 1;
#[cfg(test)]
const PR_GET_CHILD_SUBREAPER: c_int = 37;
const WNOHANG: c_int = 1;
/// `SIG_ERR`, what `signal` returns when it fails.
const SIG_ERR: usize = usize::MAX;
const AT_FDCWD: c_int = -100;
const RENAME_EXCHANGE: c_uint = 2;
const CLOCK_THREAD_CPUTIME_ID: c_int = 3;

/// The name of a signal this crate handles (`SIGTERM`), or `signal N`.
/// Pre: none. Post: none.
pub(crate) fn signal_name(sig: i32) -> String {
    match sig {
        SIGHUP => "SIGHUP".into(),
        SIGINT => "SIGINT".into(),
        SIGKILL => "SIGKILL".into(),
        SIGTERM => "SIGTERM".into(),
        SIGSTOP => "SIGSTOP".into(),
        n => format!("signal {n}"),
    }
}

/// A pid as `pid_t`, refusing 0, 1 and anything that is not a positive `i32` (a
/// negative pid or 0 would signal whole process groups, or every process).
fn pid_t(pid: u32) -> io::Result<c_int> {
    match c_int::try_from(pid) {
        Ok(p) if p > 1 => Ok(p),
        _ => Err(io::Error::new(io::ErrorKind::InvalidInput, format!("not a process id: {pid}"))),
    }
}

/// Sends `sig` to the process `pid` (`kill(2)`; never the `kill` program of `PATH`).
/// Pre: none. Post: `Err` for pid 0 or 1, or what the system said (`ESRCH`: no such
/// process).
pub(crate) fn send(pid: u32, sig: i32) -> io::Result<()> {
    let pid = pid_t(pid)?;
    // SAFETY: kill(2) takes two integers and touches no memory of ours; `pid > 1`, so it
    // names one process, never a group nor every process.
    if unsafe { kill(pid, sig) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Sends `sig` to every process of the process group `group` (`kill(-group, sig)`).
/// Pre: none. Post: `Err` for group 0 or 1, or what the system said.
pub(crate) fn send_group(group: u32, sig: i32) -> io::Result<()> {
    let group = pid_t(group)?;
    // SAFETY: as in `send`; `-group` with `group > 1` names exactly that process group.
    if unsafe { kill(-group, sig) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Makes this process a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER, on)`): an
/// orphaned descendant (its parent died: a double fork, `setsid` and exit) is
/// reparented to this process instead of init, so it can still be found and killed.
/// Pre: none. Post: `Err` when the kernel refused (before Linux 3.4).
pub(crate) fn set_child_subreaper(on: bool) -> io::Result<()> {
    // SAFETY: this prctl option reads its second argument as an integer (passed as an
    // unsigned long, as the variadic C prototype expects) and touches no memory of ours.
    if unsafe { prctl(PR_SET_CHILD_SUBREAPER, c_ulong::from(on)) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Asks for `sig` when this process's parent ends (`prctl(PR_SET_PDEATHSIG, sig)`),
/// however it ends, SIGKILL included: the kernel sends it when the thread that started
/// this process exits (a parent's main thread exits with the parent). Kept across
/// `execve`, not passed on to children.
/// Pre: `sig` is a signal number (1 to 64). Post: `Err` when the kernel refused. The
/// parent may have ended before the call: compare `std::os::unix::process::parent_id`
/// with the parent expected afterwards.
pub(crate) fn set_parent_death_signal(sig: i32) -> io::Result<()> {
    let sig = c_ulong::try_from(sig).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: this prctl option reads its second argument as a signal number (passed
    // as an unsigned long, as the variadic C prototype expects) and touches no memory
    // of ours.
    if unsafe { prctl(PR_SET_PDEATHSIG, sig) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Whether this process is a child subreaper (for the tests).
#[cfg(test)]
/// Pre: none. Post: `Err` when the kernel refused.
pub(crate) fn is_child_subreaper() -> io::Result<bool> {
    let mut flag: c_int = 0;
    // SAFETY: PR_GET_CHILD_SUBREAPER writes one int through its second argument, which
    // points to `flag`, alive and writable for the whole call.
    if unsafe { prctl(PR_GET_CHILD_SUBREAPER, &mut flag as *mut c_int) } == 0 {
        Ok(flag != 0)
    } else {
        Err(io::Error::last_os_error())
    }
}

/// A child that has ended, as `wait4(2)` reported it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reaped {
    /// Its exit status (a code, or the signal that killed it).
    pub status: ExitStatus,
    /// CPU time it used, user and system, its own and that of the children it waited
    /// for.
    pub cpu: Duration,
}

/// Collects the exit status of the child `pid` (`wait4(2)`), waiting for it to end when
/// `block`.
/// Pre: `pid` is a child of this process that nobody else waits for (a child std's
/// `Child` owns is waited for by it: do not reap it here). Post: `Ok(None)` when it
/// runs (without `block`); `Err` when it is not a child of ours (`ECHILD`). Interrupted
/// calls are retried.
pub(crate) fn reap(pid: u32, block: bool) -> io::Result<Option<Reaped>> {
    let pid = pid_t(pid)?;
    let mut status: c_int = 0;
    let mut usage = Rusage::default();
    loop {
        // SAFETY: `status` and `usage` are alive and writable for the whole call, of the
        // types wait4 writes (an int and a 144-byte struct rusage, checked above); `pid >
        // 1` names one child.
        let got = unsafe { wait4(pid, &mut status, if block { 0 } else { WNOHANG }, &mut usage) };
        if got == pid {
            break;
        }
        if got == 0 {
            return Ok(None);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    let time = |t: Timeval| {
        Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
            + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
    };
    Ok(Some(Reaped {
        status: ExitStatus::from_raw(status),
        cpu: time(usage.ru_utime).saturating_add(time(usage.ru_stime)),
    }))
}

/// The write end of the pipe [`catch_signals`] made (-1 before).
static SIGNAL_PIPE: AtomicI32 = AtomicI32::new(-1);

/// The signal handler: writes the signal's number (one byte) into the pipe. Only
/// async-signal-safe calls (`write`), and `errno` is left as it was.
extern "C" fn note_signal(sig: c_int) {
    let fd = SIGNAL_PIPE.load(Ordering::Relaxed);
    if fd < 0 {
        return;
    }
    let byte = u8::try_from(sig).unwrap_or(0);
    // SAFETY: __errno_location returns this thread's errno, valid for the thread's life;
    // write(2) reads one byte from `byte`, alive for the call. A full pipe makes the
    // write fail (non-blocking is not needed: one byte per signal, read at once).
    unsafe {
        let errno = __errno_location();
        let saved = *errno;
        let _ = write(fd, (&byte as *const u8).cast::<c_void>(), 1);
        *errno = saved;
    }
}

/// From now on, each of `signals` that reaches this process is caught: its number is
/// written (one byte) into the pipe whose read end is returned, and the program goes on.
/// Programs started later get the default handling back (`execve` resets caught
/// signals; the signal mask is left alone).
/// Pre: called once per process. Post: `Err` on a second call or when the system
/// refused (the signals keep their handling then, those already caught aside).
pub(crate) fn catch_signals(signals: &[i32]) -> io::Result<std::io::PipeReader> {
    let (reader, writer) = std::io::pipe()?;
    let fd = writer.into_raw_fd();
    if SIGNAL_PIPE.compare_exchange(-1, fd, Ordering::SeqCst, Ordering::SeqCst).is_err() {
        return Err(io::Error::other("signals are already caught"));
    }
    for &sig in signals {
        // SAFETY: `note_signal` is an `extern "C" fn(c_int)` that only calls
        // async-signal-safe functions; glibc's signal() installs it with SA_RESTART, so
        // the calls it interrupts are restarted.
        if unsafe { signal(sig, note_signal as extern "C" fn(c_int) as usize) } == SIG_ERR {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(reader)
}

/// From now on a write past the file size limit (`ulimit -f`) fails with `EFBIG`
/// ("File too large"), which the caller reports, instead of SIGXFSZ killing the
/// process. The programs this process starts later inherit the ignored signal
/// (`execve` keeps `SIG_IGN`): call it only in commands that start none.
/// Pre: none. Post: `Err` when the system refused.
pub(crate) fn ignore_file_size_signal() -> io::Result<()> {
    // SAFETY: signal(2) with SIG_IGN installs no code of ours; it only changes how the
    // kernel treats SIGXFSZ for this process.
    if unsafe { signal(SIGXFSZ, SIG_IGN) } == SIG_ERR {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A path as a C string.
fn c_path(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a path with a NUL byte"))
}

/// Exchanges the two paths `a` and `b` at once (`renameat2(..., RENAME_EXCHANGE)`):
/// each then names what the other named, and at no moment does either name nothing.
/// Pre: both exist, on the same file system. Post: `Err` otherwise, or where the file
/// system cannot (`EINVAL`); nothing changed then.
pub(crate) fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    let (a, b) = (c_path(a)?, c_path(b)?);
    // SAFETY: both are NUL-terminated strings alive for the call; AT_FDCWD makes them
    // relative to the working directory, as std's paths are.
    if unsafe { renameat2(AT_FDCWD, a.as_ptr(), AT_FDCWD, b.as_ptr(), RENAME_EXCHANGE) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

const EPOLL_CLOEXEC: c_int = 0o2_000_000;
const EPOLL_CTL_ADD: c_int = 1;
const EPOLL_CTL_DEL: c_int = 2;
const EPOLL_CTL_MOD: c_int = 3;
const RLIMIT_NOFILE: c_int = 7;

/// `EPOLLIN`: readable (or a listener with a connection waiting).
pub(crate) const EPOLLIN: u32 = 0x001;
/// `EPOLLOUT`: writable.
pub(crate) const EPOLLOUT: u32 = 0x004;
/// `EPOLLERR`: an error (always reported).
pub(crate) const EPOLLERR: u32 = 0x008;
/// `EPOLLHUP`: hung up (always reported).
pub(crate) const EPOLLHUP: u32 = 0x010;
/// `EPOLLRDHUP`: the peer closed its side (or shut down writing).
pub(crate) const EPOLLRDHUP: u32 = 0x2000;
/// `EPOLLET`: edge-triggered: an event is reported when it starts to hold, not for as
/// long as it holds.
pub(crate) const EPOLLET: u32 = 1 << 31;

/// An epoll instance (`epoll(7)`): a set of file descriptors, each with the events it
/// waits for and a number of the caller's that names it in what [`Epoll::wait`] reports.
/// Level-triggered: an event is reported for as long as it holds.
#[derive(Debug)]
pub(crate) struct Epoll {
    fd: OwnedFd,
}

/// An event [`Epoll::wait`] reported: the number given with the file descriptor, and
/// the events (`EPOLLIN`, ...) that hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ready {
    /// The number given to [`Epoll::add`].
    pub key: u64,
    /// The events that hold (a mask of `EPOLL*`).
    pub events: u32,
}

impl Epoll {
    /// A new, empty epoll instance (closed on exec).
    /// Pre: none. Post: `Err` when the system refused (too many open files).
    pub(crate) fn new() -> io::Result<Epoll> {
        // SAFETY: epoll_create1 takes a flag and touches no memory of ours; the file
        // descriptor it returns is new and owned by nobody else, so OwnedFd may own it.
        let fd = unsafe { epoll_create1(EPOLL_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` is a new, open descriptor that only this value will close.
        Ok(Epoll { fd: unsafe { OwnedFd::from_raw_fd(fd) } })
    }

    fn ctl(&self, op: c_int, fd: BorrowedFd<'_>, events: u32, key: u64) -> io::Result<()> {
        let mut event = EpollEvent { events, data: key };
        // SAFETY: both descriptors are open for the call (one owned, one borrowed);
        // `event` is alive and of the layout the kernel reads (checked above); for
        // EPOLL_CTL_DEL the kernel ignores it.
        if unsafe { epoll_ctl(self.fd.as_raw_fd(), op, fd.as_raw_fd(), &mut event) } == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    /// Watches `fd` for `events`, reported under `key`.
    /// Pre: `fd` stays open until [`Epoll::remove`]d (a closed descriptor leaves the set
    /// by itself). Post: `Err` when already watched (`EEXIST`) or the system refused.
    pub(crate) fn add(&self, fd: BorrowedFd<'_>, events: u32, key: u64) -> io::Result<()> {
        self.ctl(EPOLL_CTL_ADD, fd, events, key)
    }

    /// Changes what `fd` waits for (0: nothing but errors and hang-ups) and its key.
    /// Pre: `fd` is watched. Post: `Err` when it is not (`ENOENT`).
    pub(crate) fn modify(&self, fd: BorrowedFd<'_>, events: u32, key: u64) -> io::Result<()> {
        self.ctl(EPOLL_CTL_MOD, fd, events, key)
    }

    /// Stops watching `fd`.
    /// Pre: none. Post: `Err` when it was not watched (`ENOENT`).
    pub(crate) fn remove(&self, fd: BorrowedFd<'_>) -> io::Result<()> {
        self.ctl(EPOLL_CTL_DEL, fd, 0, 0)
    }

    /// Waits until an event holds or `timeout` passes (`None`: no limit), and puts at most
    /// `out.capacity()` (at least 1) events into `out` (cleared first). Interrupted waits
    /// report nothing.
    /// Pre: none. Post: `out` holds the events; `Err` when the system refused.
    pub(crate) fn wait(&self, out: &mut Vec<Ready>, timeout: Option<Duration>) -> io::Result<()> {
        out.clear();
        let max = out.capacity().clamp(1, 4096);
        let mut raw = vec![EpollEvent::default(); max];
        let ms = match timeout {
            None => -1,
            Some(t) => c_int::try_from(t.as_millis().min(3_600_000)).unwrap_or(3_600_000),
        };
        // SAFETY: `raw` holds `max` writable events for the whole call and the kernel
        // writes at most `max` (its length, passed as maxevents, at most 4096).
        let n = unsafe { epoll_wait(self.fd.as_raw_fd(), raw.as_mut_ptr(), max as c_int, ms) };
        if n < 0 {
            let e = io::Error::last_os_error();
            return if e.kind() == io::ErrorKind::Interrupted { Ok(()) } else { Err(e) };
        }
        for e in raw.iter().take(n as usize) {
            // Copies out of the (maybe packed) struct, never references into it.
            let (events, key) = (e.events, e.data);
            out.push(Ready { key, events });
        }
        Ok(())
    }
}

/// The open-file limit of this process: (soft, hard).
/// Pre: none. Post: `Err` when the system refused.
pub(crate) fn open_file_limit() -> io::Result<(u64, u64)> {
    let mut r = Rlimit::default();
    // SAFETY: getrlimit writes one struct rlimit (two u64 on 64-bit Linux) into `r`,
    // alive and writable for the call.
    if unsafe { getrlimit(RLIMIT_NOFILE, &mut r) } == 0 {
        Ok((r.cur, r.max))
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Sets the soft open-file limit to `soft` (the hard limit is kept).
/// Pre: none. Post: `Err` (EINVAL) when `soft` is past the hard limit; nothing changed
/// then.
pub(crate) fn set_open_file_limit(soft: u64) -> io::Result<()> {
    let (_, hard) = open_file_limit()?;
    let r = Rlimit { cur: soft, max: hard };
    // SAFETY: setrlimit reads one struct rlimit from `r`, alive for the call.
    if unsafe { setrlimit(RLIMIT_NOFILE, &r) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Raises the soft open-file limit to the hard one (a server holding thousands of
/// connections needs more than the usual 1,024).
/// Pre: none. Post: the soft limit now, which is the old one when raising failed.
pub(crate) fn raise_open_file_limit() -> u64 {
    match open_file_limit() {
        Ok((soft, hard)) if soft < hard => {
            if set_open_file_limit(hard).is_ok() {
                hard
            } else {
                soft
            }
        }
        Ok((soft, _)) => soft,
        Err(_) => 1024,
    }
}

/// The CPU time (user and system) the calling thread has used so far, to the
/// nanosecond: `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, which counts the slice running
/// now (`/proc/thread-self/schedstat` lags by up to a scheduler tick, a few
/// milliseconds, which is more than a batch of quick games takes).
/// Pre: none. Post: never less than an earlier call's on the same thread.
pub(crate) fn thread_cpu_time() -> io::Result<Duration> {
    let mut time = Timespec::default();
    // SAFETY: `time` is a valid, writable `struct timespec` (two longs on 64-bit Linux)
    // that lives across the call; the clock id is a constant the kernel knows.
    let r = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut time) };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    let secs = u64::try_from(time.tv_sec).map_err(|_| io::Error::other("negative seconds"))?;
    let nanos = u32::try_from(time.tv_nsec).map_err(|_| io::Error::other("nanoseconds out of range"))?;
    Ok(Duration::new(secs, nanos))
}

/// Serialises the unit tests that start, signal or reap processes: they look at every
/// process of the test binary, so two at once could take each other's children for
/// their own.
#[cfg(test)]
pub(crate) static PROCESS_TESTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    #[test]
    fn the_thread_cpu_time_counts_this_threads_work_only() {
        // 60 ms of spinning count; 60 ms of sleep and another thread's spinning do not.
        let spin = |ms: u64| {
            let start = std::time::Instant::now();
            let mut x = 0u64;
            while start.elapsed() < Duration::from_millis(ms) {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        };
        let t0 = thread_cpu_time().unwrap();
        spin(60);
        let t1 = thread_cpu_time().unwrap();
        std::thread::sleep(Duration::from_millis(60));
        std::thread::spawn(move || spin(60)).join().unwrap();
        let t2 = thread_cpu_time().unwrap();
        // Spinning on a loaded machine may be descheduled: at least some of it counts.
        assert!(t1 - t0 >= Duration::from_millis(5) && t1 - t0 <= Duration::from_millis(200), "{:?}", t1 - t0);
        assert!(t2 - t1 < Duration::from_millis(5), "{:?}", t2 - t1);
        // Precise to well under a tick: two calls in a row differ by microseconds.
        let (a, b) = (thread_cpu_time().unwrap(), thread_cpu_time().unwrap());
        assert!(b >= a && b - a < Duration::from_millis(1), "{a:?} {b:?}");
    }

    #[test]
    fn signals_reach_one_process_or_its_group_never_everyone() {
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let mut child = Command::new("sleep").arg("60").process_group(0).spawn().unwrap();
        send(child.id(), SIGKILL).unwrap();
        assert_eq!(child.wait().unwrap().signal(), Some(SIGKILL));
        assert_eq!(send(child.id(), SIGKILL).unwrap_err().raw_os_error(), Some(3), "ESRCH once reaped");
        let mut child = Command::new("sleep").arg("60").process_group(0).spawn().unwrap();
        send_group(child.id(), SIGTERM).unwrap();
        assert_eq!(child.wait().unwrap().signal(), Some(SIGTERM));
        for bad in [0, 1, u32::MAX] {
            assert!(send(bad, 0).is_err() && send_group(bad, 0).is_err(), "{bad}");
        }
        assert_eq!(signal_name(SIGTERM), "SIGTERM");
        assert_eq!(signal_name(40), "signal 40");
    }

    use std::os::unix::process::CommandExt;

    #[test]
    fn the_subreaper_flag_is_set_and_read_back() {
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let before = is_child_subreaper().unwrap();
        set_child_subreaper(true).unwrap();
        assert!(is_child_subreaper().unwrap());
        set_child_subreaper(before).unwrap();
        assert_eq!(is_child_subreaper().unwrap(), before);
    }

    #[test]
    fn a_child_asking_for_the_parent_death_signal_gets_it_when_its_parent_thread_ends() {
        use std::os::unix::process::{CommandExt, ExitStatusExt};
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        // The thread that starts `sleep` is its parent for the kernel: when it ends,
        // `sleep` gets SIGKILL, long before its 30 s.
        let started = std::time::Instant::now();
        let child = std::thread::spawn(|| {
            let mut command = std::process::Command::new("sleep");
            command.arg("30");
            // SAFETY: the hook runs in the child between fork and exec, and only calls
            // prctl(2) (async-signal-safe) through `set_parent_death_signal`.
            unsafe {
                command.pre_exec(|| set_parent_death_signal(SIGKILL));
            }
            command.spawn().unwrap()
        })
        .join()
        .unwrap();
        let mut child = child;
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(SIGKILL), "{status}");
        assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
        assert!(set_parent_death_signal(0).is_ok() && set_parent_death_signal(-1).is_err());
    }

    #[test]
    // The children are reaped through `reap` (wait4), not through std.
    #[allow(clippy::zombie_processes)]
    fn reaping_gives_the_status_and_the_cpu_time() {
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        // Half a second of CPU in a busy loop, then exit 3.
        let script = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.5: pass\nexit(3)";
        let child = Command::new("python3").args(["-c", script]).stdin(Stdio::null()).spawn().unwrap();
        let pid = child.id();
        let r = reap(pid, true).unwrap().unwrap();
        assert_eq!(r.status.code(), Some(3));
        assert!(r.cpu >= Duration::from_millis(450) && r.cpu < Duration::from_secs(3), "{:?}", r.cpu);
        assert_eq!(reap(pid, false).unwrap_err().raw_os_error(), Some(10), "ECHILD once reaped");
        // Not blocking: none while it runs; children it waited for count.
        let script =
            "read x; python3 -c 'import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass'";
        let mut child = Command::new("sh").args(["-c", script]).stdin(Stdio::piped()).spawn().unwrap();
        let pid = child.id();
        assert!(reap(pid, false).unwrap().is_none());
        drop(child.stdin.take());
        let r = reap(pid, true).unwrap().unwrap();
        assert!(r.cpu >= Duration::from_millis(300), "{:?}", r.cpu);
        assert!(reap(0, false).is_err());
    }

    extern "C" {
        /// Sends a signal to the calling thread.
        fn raise(sig: c_int) -> c_int;
    }

    /// SIGURG: ignored by default, so a slip in this test cannot end the test process.
    const SIGURG: i32 = 23;

    #[test]
    fn a_caught_signal_is_written_into_the_pipe_and_not_inherited() {
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        use std::io::Read;
        let mut pipe = catch_signals(&[SIGURG]).unwrap();
        // SAFETY: raise takes an integer; SIGURG is caught now.
        assert_eq!(unsafe { raise(SIGURG) }, 0);
        let mut byte = [0u8];
        pipe.read_exact(&mut byte).unwrap();
        assert_eq!(byte, [23]);
        // A program started now has SIGURG at its default handling, and nothing blocked.
        let status = Command::new("cat").arg("/proc/self/status").output().unwrap();
        let status = String::from_utf8_lossy(&status.stdout).into_owned();
        let mask = |name: &str| {
            let line = status.lines().find(|l| l.starts_with(name)).unwrap();
            u64::from_str_radix(line.trim_start_matches(name).trim(), 16).unwrap()
        };
        assert_eq!(mask("SigCgt:") & (1 << (SIGURG - 1)), 0, "{status}");
        assert_eq!(mask("SigBlk:"), 0, "{status}");
        assert!(catch_signals(&[SIGURG]).is_err(), "only once");
    }

    #[test]
    fn epoll_reports_what_holds_under_its_key() {
        use std::io::Write;
        use std::os::fd::AsFd;
        let epoll = Epoll::new().unwrap();
        let (mut a, b) = std::os::unix::net::UnixStream::pair().unwrap();
        let mut out = Vec::with_capacity(8);
        epoll.add(b.as_fd(), EPOLLIN, 77).unwrap();
        assert_eq!(epoll.add(b.as_fd(), EPOLLIN, 77).unwrap_err().raw_os_error(), Some(17), "EEXIST");
        epoll.wait(&mut out, Some(Duration::ZERO)).unwrap();
        assert!(out.is_empty(), "nothing to read yet");
        a.write_all(b"x").unwrap();
        epoll.wait(&mut out, Some(Duration::from_secs(5))).unwrap();
        assert_eq!(out, [Ready { key: 77, events: EPOLLIN }]);
        // Level-triggered: still readable, reported again; the key can change.
        epoll.modify(b.as_fd(), EPOLLIN | EPOLLOUT, u64::MAX).unwrap();
        epoll.wait(&mut out, Some(Duration::ZERO)).unwrap();
        assert_eq!(out, [Ready { key: u64::MAX, events: EPOLLIN | EPOLLOUT }]);
        epoll.modify(b.as_fd(), 0, 5).unwrap();
        epoll.wait(&mut out, Some(Duration::ZERO)).unwrap();
        assert!(out.is_empty(), "waiting for nothing");
        // Edge-triggered: reported once when it starts to hold, not while it holds.
        epoll.modify(b.as_fd(), EPOLLIN | EPOLLRDHUP | EPOLLET, 6).unwrap();
        epoll.wait(&mut out, Some(Duration::ZERO)).unwrap();
        assert_eq!(out, [Ready { key: 6, events: EPOLLIN }], "the unread byte, once");
        epoll.wait(&mut out, Some(Duration::ZERO)).unwrap();
        assert!(out.is_empty(), "not again");
        a.write_all(b"y").unwrap();
        epoll.wait(&mut out, Some(Duration::from_secs(5))).unwrap();
        assert_eq!(out, [Ready { key: 6, events: EPOLLIN }], "a new byte: a new edge");
        drop(a);
        epoll.wait(&mut out, Some(Duration::from_secs(5))).unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].key, 6);
        assert_ne!(out[0].events & EPOLLHUP, 0, "a hang-up is always reported");
        assert_ne!(out[0].events & EPOLLRDHUP, 0);
        epoll.wait(&mut out, Some(Duration::from_millis(20))).unwrap();
        assert!(out.is_empty(), "one edge");
        epoll.modify(b.as_fd(), 0, 7).unwrap();
        epoll.wait(&mut out, Some(Duration::ZERO)).unwrap();
        assert_eq!(out.len(), 1, "armed again: the hang-up holds");
        epoll.remove(b.as_fd()).unwrap();
        assert_eq!(epoll.remove(b.as_fd()).unwrap_err().raw_os_error(), Some(2), "ENOENT");
        assert!(epoll.modify(b.as_fd(), EPOLLIN, 1).is_err());
        // A wait with a timeout returns after it.
        let start = std::time::Instant::now();
        epoll.wait(&mut out, Some(Duration::from_millis(50))).unwrap();
        assert!(out.is_empty() && start.elapsed() >= Duration::from_millis(40));
    }

    #[test]
    fn the_open_file_limit_is_read_set_and_raised() {
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let (soft, hard) = open_file_limit().unwrap();
        assert!(soft <= hard && soft > 0);
        if hard < u64::MAX {
            assert_eq!(set_open_file_limit(hard + 1).unwrap_err().raw_os_error(), Some(22), "EINVAL");
        }
        set_open_file_limit(soft.min(hard).saturating_sub(1).max(64)).unwrap();
        assert_eq!(open_file_limit().unwrap().0, soft.saturating_sub(1).max(64));
        assert_eq!(raise_open_file_limit(), hard);
        assert_eq!(open_file_limit().unwrap(), (hard, hard));
        set_open_file_limit(soft).unwrap();
        assert_eq!(open_file_limit().unwrap(), (soft, hard));
    }

    #[test]
    fn the_file_size_signal_is_ignored() {
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let ignored = || {
            let status = std::fs::read_to_string("/proc/self/status").unwrap();
            let line = status.lines().find(|l| l.starts_with("SigIgn:")).unwrap().to_string();
            u64::from_str_radix(line.trim_start_matches("SigIgn:").trim(), 16).unwrap() & (1 << (SIGXFSZ - 1)) != 0
        };
        // SAFETY: SIG_DFL (0) installs no code: SIGXFSZ at its default handling.
        assert_ne!(unsafe { signal(SIGXFSZ, 0) }, SIG_ERR);
        assert!(!ignored());
        ignore_file_size_signal().unwrap();
        assert!(ignored());
        // SAFETY: SIG_DFL (0) installs no code; this puts the default handling back so
        // that the programs the other tests start get it.
        assert_eq!(unsafe { signal(SIGXFSZ, 0) }, SIG_IGN);
        assert!(!ignored());
    }

    #[test]
    fn two_paths_are_exchanged_at_once() {
        let _serial = crate::sys::PROCESS_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let dir = std::env::temp_dir().join(format!("sys-exchange-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("d")).unwrap();
        std::fs::write(dir.join("f"), "file").unwrap();
        exchange(&dir.join("f"), &dir.join("d")).unwrap();
        assert!(dir.join("f").is_dir() && std::fs::read_to_string(dir.join("d")).unwrap() == "file");
        assert_eq!(exchange(&dir.join("f"), &dir.join("none")).unwrap_err().kind(), io::ErrorKind::NotFound);
        assert!(exchange(Path::new("a\0b"), &dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

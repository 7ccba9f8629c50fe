//! No process outlives its run (issue 25.3) and time limits are CPU time (issue 28.2),
//! through the real binary with real programs: a student program's background child,
//! one that leaves its session (`setsid`, a double fork), a bot run through `sh -c`
//! that forfeits, SIGTERM and SIGINT to a running `check` or `simulate`, and a time
//! limit with no `kill` on `PATH`. Each test's `sleep` has its own duration
//! (`77N.PID`), so that the test finds its processes (and only its own) in `/proc`.

use crate::common;

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_spot-the-ships")
}

/// A sleep duration no other test (or process) uses: `77N.PID`.
fn token(n: u32) -> String {
    format!("77{n}.{}", std::process::id())
}

/// The `sleep TOKEN` processes (zombies have no command line: they are gone; `check`
/// and `sh -c` hold the token in a longer argument).
fn alive(token: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let Ok(cmdline) = std::fs::read(e.path().join("cmdline")) else { continue };
        let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
        if args.first().is_some_and(|a| a.ends_with(b"sleep")) && args.get(1) == Some(&token.as_bytes()) {
            out.push(pid);
        }
    }
    out
}

/// Waits up to 3 s for every process holding `token` to go; kills the survivors (so
/// that a failing test leaves nothing behind) and returns how many there were.
fn survivors(token: &str) -> usize {
    let until = Instant::now() + Duration::from_secs(3);
    while !alive(token).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left = alive(token);
    for pid in &left {
        let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
    }
    left.len()
}

/// Waits until some process holds `token` (at most 10 s).
fn appears(token: &str) -> bool {
    let until = Instant::now() + Duration::from_secs(10);
    while alive(token).is_empty() {
        if Instant::now() > until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(name).display().to_string()
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// `check --only sample-00-linear ARGS -- PROGRAM...`.
fn check_linear(args: &[&str], program: &[&str]) -> Output {
    let mut all = vec!["check", "--only", "sample-00-linear", "--shrink-budget", "0"];
    all.extend_from_slice(args);
    all.push("--");
    all.extend_from_slice(program);
    common::run(&all, b"")
}

#[test]
fn a_background_child_of_an_accepted_program_is_killed() {
    let t = token(1);
    let script =
        format!("(exec sleep {t} >/dev/null 2>&1 </dev/null) & cat >/dev/null; cat {}", sample("00-linear.out"));
    let out = check_linear(&[], &["sh", "-c", &script]);
    let left = survivors(&t);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("verdict: AC"), "{}", text(&out));
    assert_eq!(left, 0, "a `sleep {t}` outlived an accepted run");
}

#[test]
fn programs_that_leave_the_session_are_killed() {
    // A classic daemon: fork, setsid, fork again, stdio on /dev/null.
    let t = token(2);
    let script = format!(
        "import os, sys\n\
         sys.stdin.read()\n\
         if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        \
         fd = os.open('/dev/null', os.O_RDWR)\n        [os.dup2(fd, k) for k in (0, 1, 2)]\n        \
         os.execvp('sleep', ['sleep', '{t}'])\n    os._exit(0)\n\
         os.wait()\n\
         sys.stdout.write(open('{}').read())\n",
        sample("00-linear.out")
    );
    let out = check_linear(&[], &["python3", "-c", &script]);
    let left = survivors(&t);
    assert!(text(&out).contains("verdict: AC"), "{}", text(&out));
    assert_eq!(left, 0, "a daemonized `sleep {t}` outlived its run");
    // `setsid sleep` from a shell, twice (two runs of the case).
    let t = token(3);
    let script =
        format!("setsid sleep {t} >/dev/null 2>&1 </dev/null & cat >/dev/null; cat {}", sample("00-linear.out"));
    let out = check_linear(&["--jobs", "1"], &["sh", "-c", &script]);
    let left = survivors(&t);
    assert!(text(&out).contains("verdict: AC"), "{}", text(&out));
    assert_eq!(left, 0, "`setsid sleep {t}` outlived its run");
}

#[test]
fn a_time_limit_needs_no_kill_on_the_path() {
    let t = token(4);
    let script = format!("/bin/sleep {t} & /bin/sleep {t}; wait");
    let out = Command::new(bin())
        .args(["check", "--only", "sample-00-linear", "--time-limit", "0.2", "--shrink-budget", "0", "--"])
        .args(["/bin/sh", "-c", &script])
        .env("PATH", "/nonexistent")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let left = survivors(&t);
    assert!(text(&out).contains("verdict: TLE"), "{}", text(&out));
    assert_eq!(left, 0, "{left} `sleep {t}` survived a TLE with PATH=/nonexistent");
}

/// Starts the binary with `args`, its output piped.
fn start(args: &[&str]) -> Child {
    Command::new(bin()).args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
}

/// Sends `signal` (`TERM`, `INT`) to `child` once `token` runs; its output once it ended
/// (killed after 10 s if it does not end).
fn interrupt(mut child: Child, token: &str, signal: &str) -> Output {
    assert!(appears(token), "no `sleep {token}` started");
    let sent = Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let until = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    child.wait_with_output().unwrap()
}

#[test]
fn sigterm_and_sigint_to_check_kill_every_program_it_started() {
    for (n, signal, code) in [(5, "TERM", 143), (6, "INT", 130)] {
        let t = token(n);
        let script = format!("sleep {t} & sleep {t}");
        let child = start(&[
            "check",
            "--random",
            "4",
            "--strategies",
            "linear",
            "--time-limit",
            "60",
            "--jobs",
            "2",
            "--",
            "sh",
            "-c",
            &script,
        ]);
        let out = interrupt(child, &t, signal);
        let left = survivors(&t);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(code), "SIG{signal}: {err}");
        assert!(out.stdout.is_empty(), "SIG{signal}: {}", text(&out));
        assert!(err.starts_with(&format!("error: check: interrupted by SIG{signal}")), "{err}");
        assert_eq!(err.matches('\n').count(), 1, "{err}");
        assert_eq!(left, 0, "SIG{signal}: {left} `sleep {t}` outlived `check`");
    }
}

#[test]
fn a_bot_run_through_sh_that_forfeits_leaves_nothing() {
    let t = token(7);
    let bot = format!("shy=sh -c 'sleep {t} & echo nonsense'");
    let out = common::run(
        &["simulate", "--games", "3", "--rows", "10", "--cols", "10", "--strategies", "linear", "--bot", &bot],
        b"",
    );
    let left = survivors(&t);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("error: simulate: "), "{}", text(&out));
    assert_eq!(left, 0, "the forfeiting bot's `sleep {t}` outlived `simulate`");
    // And with --forfeit-as-max: a new process per game, each one's child killed.
    let out = common::run(
        &[
            "simulate",
            "--games",
            "3",
            "--rows",
            "10",
            "--cols",
            "10",
            "--strategies",
            "linear",
            "--forfeit-as-max",
            "--bot",
            &bot,
        ],
        b"",
    );
    let left = survivors(&t);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(left, 0, "`sleep {t}` outlived `simulate --forfeit-as-max`");
}

#[test]
fn sigterm_to_simulate_kills_its_bots() {
    let t = token(8);
    let bot = format!("slow=sh -c 'sleep {t}; sleep {t}'");
    let child =
        start(&["simulate", "--games", "20", "--rows", "10", "--cols", "10", "--strategies", "linear", "--bot", &bot]);
    let out = interrupt(child, &t, "TERM");
    let left = survivors(&t);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(143), "{err}");
    assert!(err.starts_with("error: simulate: interrupted by SIGTERM"), "{err}");
    assert_eq!(left, 0, "`sleep {t}` outlived `simulate`");
}

#[test]
fn the_time_limit_is_cpu_time() {
    // Waiting costs no CPU time: 1.5 s asleep under a 1 s limit is accepted (the wall
    // safety net is 3 x 1 + 1 = 4 s).
    let script = format!("sleep 1.5; cat >/dev/null; cat {}", sample("00-linear.out"));
    let out = check_linear(&["--time-limit", "1"], &["sh", "-c", &script]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // Spinning is killed at the CPU limit.
    let out = check_linear(&["--time-limit", "0.5"], &["sh", "-c", "while :; do :; done"]);
    assert!(text(&out).contains("verdict: TLE"), "{}", text(&out));
    // Asleep forever: the wall safety net (3 x 0.2 + 1 = 1.6 s) ends it.
    let t = token(9);
    let start = Instant::now();
    let out = check_linear(&["--time-limit", "0.2"], &["sleep", &t]);
    assert!(text(&out).contains("verdict: TLE"), "{}", text(&out));
    let took = start.elapsed();
    assert_eq!(survivors(&t), 0);
    assert!(took >= Duration::from_millis(1500) && took < Duration::from_secs(5), "{took:?}");
}

/// The processes (not zombies) whose command line holds `token` anywhere, after up to
/// 3 s for them to go; the survivors are killed.
fn holders(token: &str) -> usize {
    let find = || -> Vec<u32> {
        let mut out = Vec::new();
        for e in std::fs::read_dir("/proc").unwrap().flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
            let Ok(cmdline) = std::fs::read(e.path().join("cmdline")) else { continue };
            if pid != std::process::id() && cmdline.windows(token.len()).any(|w| w == token.as_bytes()) {
                out.push(pid);
            }
        }
        out
    };
    let until = Instant::now() + Duration::from_secs(3);
    while !find().is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left = find();
    for pid in &left {
        let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
    }
    left.len()
}

#[test]
fn a_referees_child_that_ignores_sigterm_does_not_outlive_play() {
    let t = token(10);
    let dir = common::scratch("cleanup-referee");
    // The referee starts a child that ignores SIGTERM (its stdio elsewhere), then
    // becomes the real referee, which exits after `done`.
    let script = dir.join("referee.py");
    std::fs::write(
        &script,
        format!(
            "import os, signal\n\
             if os.fork() == 0:\n    signal.signal(signal.SIGTERM, signal.SIG_IGN)\n    \
             fd = os.open('/dev/null', os.O_RDWR)\n    [os.dup2(fd, k) for k in (0, 1, 2)]\n    \
             os.execvp('sleep', ['sleep', '{t}'])\n\
             os.execv('{bin}', ['{bin}', 'referee', '--rows', '3', '--cols', '3', '--fleet', '2', '--seed', '5'])\n",
            bin = bin()
        ),
    )
    .unwrap();
    let referee = format!("python3 {}", script.display());
    let out = common::run(&["play", "--referee", &referee], b"");
    let left = survivors(&t);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let first = String::from_utf8_lossy(&out.stdout).lines().next().map(str::to_string);
    assert!(first.is_some_and(|l| l.parse::<usize>().is_ok()), "the number of probes first: {}", text(&out));
    assert_eq!(left, 0, "the referee's `sleep {t}` outlived `play`");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigkill_to_check_still_kills_the_daemons_of_its_runs() {
    // The run daemonizes a child (fork, setsid, fork, SIGTERM ignored, stdio on
    // /dev/null), then sleeps itself: two `sleep TOKEN`, one in a session of its own.
    let t = token(11);
    let script = format!(
        "import os, signal, sys\n\
         if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        \
         signal.signal(signal.SIGTERM, signal.SIG_IGN)\n        \
         fd = os.open('/dev/null', os.O_RDWR)\n        [os.dup2(fd, k) for k in (0, 1, 2)]\n        \
         os.execvp('sleep', ['sleep', '{t}'])\n    os._exit(0)\n\
         os.wait()\n\
         os.execvp('sleep', ['sleep', '{t}'])\n"
    );
    let mut child = start(&[
        "check",
        "--only",
        "sample-00-linear",
        "--time-limit",
        "60",
        "--shrink-budget",
        "0",
        "--",
        "python3",
        "-c",
        &script,
    ]);
    let until = Instant::now() + Duration::from_secs(10);
    while alive(&t).len() < 2 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(alive(&t).len(), 2, "the run and its daemon");
    let sent = Command::new("kill").args(["-KILL", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let _ = child.wait();
    let start = Instant::now();
    let left = survivors(&t);
    assert_eq!(left, 0, "{left} `sleep {t}` outlived a SIGKILLed `check`");
    assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
    // Nothing holding the token is left either (the worker that cleaned up has gone).
    assert_eq!(holders(&t), 0, "a process of `check` outlived it");
}

#[test]
fn check_gives_its_output_and_status_unchanged_through_its_worker() {
    // Accepted: 0; wrong answer: 1, the report on stdout and nothing on stderr.
    let out = check_linear(&[], &["sh", "-c", &format!("cat >/dev/null; cat {}", sample("00-linear.out"))]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("verdict: AC") && out.stderr.is_empty(), "{}", text(&out));
    let out = check_linear(&[], &["sh", "-c", "cat >/dev/null; echo 0"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("verdict: WA") && out.stderr.is_empty(), "{}", text(&out));
}

//! Hostile inputs that once got through (issue 25): names the protocol cannot carry,
//! control characters in arguments, messages that said the wrong thing, a referee that
//! vanished, unbounded reads and outputs, and grids whose layout was not found.

use crate::common;

use std::process::Output;

/// The one error line of a run that must fail with status 2 and print nothing.
fn error_of(out: &Output, what: &str) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert!(out.stdout.is_empty(), "{what}: stdout {:?}", String::from_utf8_lossy(&out.stdout));
    assert!(err.starts_with("error: ") && err.ends_with('\n'), "{what}: {err:?}");
    assert_eq!(err.matches('\n').count(), 1, "{what}: not one line: {err:?}");
    err
}

/// A fresh scratch folder for this test process.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn fleet_file_names_are_letters_digits_dashes_underscores_and_spaces() {
    let dir = scratch("names");
    let bad = dir.join("bad.fleet");
    std::fs::write(&bad, "Y wing\nXX\n\na,b\nX\n").unwrap();
    let bad = bad.to_string_lossy().into_owned();
    // referee used to send `names Y wing,a,b`, which play then rejected.
    for command in ["referee", "play", "simulate", "generate"] {
        let out = common::run(&[command, "--fleet-file", &bad, "--rows", "6", "--cols", "6"], b"");
        let err = error_of(&out, command);
        assert!(err.contains("line 4") && err.contains("`a,b`") && err.contains("letters, digits"), "{command}: {err}");
    }
    let good = dir.join("good.fleet");
    std::fs::write(&good, "Y wing\nXX\n\nTIE-7_b\nX\n").unwrap();
    let out = common::run(&["referee", "--fleet-file", &good.to_string_lossy(), "--rows", "6", "--cols", "6"], b"");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Y wing") || out.stdout.starts_with(b"bay 6 6\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn control_characters_never_reach_an_error_line_raw() {
    let dir = scratch("control");
    let fleet = dir.join("ctl.fleet");
    std::fs::write(&fleet, "bell\u{7}\nXX\n").unwrap();
    let fleet = fleet.to_string_lossy().into_owned();
    let cases: Vec<Vec<String>> = vec![
        vec!["--fleet-file".into(), "x\ny".into()],
        vec!["--fleet-file".into(), fleet],
        vec!["\u{1b}[31mred".into()],
        vec!["trace".into(), "--strategy".into(), "a\rb".into()],
        vec!["check".into(), "--time-limit".into(), "1\u{1b}".into(), "--".into(), "true".into()],
        vec!["generate".into(), "--rows".into(), "x\ty".into()],
        vec!["simulate".into(), "--bot".into(), "b\u{8}=true".into()],
    ];
    for args in cases {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = common::run(&refs, b"");
        let err = error_of(&out, &format!("{args:?}"));
        let body = err.strip_suffix('\n').unwrap();
        assert!(!body.chars().any(char::is_control), "{args:?}: raw control character in {err:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn generate_speaks_of_touching_only_when_ships_may_not_touch() {
    let fleet = "4,4,4,4,4,4,4,4,4,4,4,4";
    let out = common::run(&["generate", "--rows", "7", "--cols", "7", "--fleet", fleet, "--touch", "yes"], b"");
    let err = error_of(&out, "touch yes");
    assert!(err.contains("could not place the fleet in") && !err.contains("touching"), "{err}");
    let out = common::run(&["generate", "--rows", "8", "--cols", "8", "--fleet", "4,4,4,4,4,4,4,4"], b"");
    let err = error_of(&out, "touch no");
    assert!(err.contains("without touching ships"), "{err}");
}

#[test]
fn a_time_limit_out_of_range_is_quoted_as_typed() {
    for command in ["check", "testset"] {
        let mut args = vec![command, "--time-limit", "1e308"];
        args.extend(if command == "check" {
            &["--", "true"][..]
        } else {
            &["--out", "/nonexistent/x", "--format", "domjudge"]
        });
        let err = error_of(&common::run(&args, b""), command);
        assert!(err.contains("got `1e308`"), "{command}: {err}");
    }
}

#[test]
fn play_wants_the_referees_done_line() {
    let header = "bay 1 2\nfleet 1\nrules touch=no sunk=none\n";
    let out = common::run(&["play", "--strategy", "linear"], format!("{header}hit\n").as_bytes());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("`done 1` was due"), "{err}");
    // Without a header (answers typed by hand) nobody owes a `done` line.
    let out = common::run(&["play", "--rows", "1", "--cols", "2", "--fleet", "1", "--strategy", "linear"], b"hit\n");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Runs the binary under `prlimit --as=300000000` (when prlimit is there) with `args`
/// and stdin from `/dev/zero`, killing it after 20 s. `None`: it had to be killed.
fn endless_input(args: &[&str]) -> Option<Output> {
    use std::process::{Command, Stdio};
    let prlimit = Command::new("prlimit").arg("--version").output().is_ok();
    let mut command = if prlimit {
        let mut c = Command::new("prlimit");
        c.arg("--as=300000000").arg(env!("CARGO_BIN_EXE_spot-the-ships"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_spot-the-ships"))
    };
    let zero = std::fs::File::open("/dev/zero").expect("/dev/zero");
    let mut child = command.args(args).stdin(zero).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Some(child.wait_with_output().unwrap())
}

#[test]
fn every_reader_is_bounded() {
    // (arguments, what the one error line says): each stops at a stated limit, in
    // bounded memory and time, rather than reading on (referee --board grew to 2 GB;
    // play and referee read an endless line for ever).
    let cases: [(&[&str], &str); 9] = [
        (&[], "a word longer than 1000 bytes"),
        (&["trace"], "a word longer than 1000 bytes"),
        (&["referee", "--board", "/dev/zero"], "--board: /dev/zero: line 1: a word longer than 1000 bytes"),
        (&["play"], "header line 1 is longer than 1000 bytes"),
        (&["play", "--rows", "10", "--cols", "10"], "is not one of hit, miss"),
        (&["referee"], "a line longer than 1000 bytes"),
        (&["advise"], "holds `\\u{0}`"),
        (&["simulate", "merge", "-"], "larger than the limit of"),
        (&["--fleet-file", "/dev/zero", "-"], "larger than 1048576 bytes"),
    ];
    for (args, says) in cases {
        let mut out = endless_input(args).unwrap_or_else(|| panic!("{args:?}: still reading after 20 s"));
        if args.len() > 1 && args.first() == Some(&"play") {
            // play has asked its first question before the answer came.
            assert_eq!(out.stdout, b"? 4 4\n");
            out.stdout.clear();
        }
        if args == ["referee"] {
            // The referee has sent its header before the probe came.
            assert!(out.stdout.starts_with(b"bay 10 10\n"));
            out.stdout.clear();
        }
        let err = error_of(&out, &format!("{args:?}"));
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn a_trace_that_would_pass_the_output_cap_is_refused_before_it_starts() {
    use std::process::{Command, Stdio};
    let dir = scratch("trace-cap");
    let input = dir.join("thin.in");
    std::fs::write(&input, "linear\n4 444444 1\n3 444443 1 E\n").unwrap();
    let input = input.to_string_lossy().into_owned();
    let run = |limit: &str| {
        // stdout to /dev/null: the old build wrote about 178 GB there; stopped after 20 s.
        let mut child = Command::new(env!("CARGO_BIN_EXE_spot-the-ships"))
            .args(["trace", "--limit", limit, &input])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(20) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("--limit {limit}: still writing after 20 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        child.wait_with_output().unwrap()
    };
    let out = run("100000");
    let err = error_of(&out, "--limit 100000");
    assert!(
        err.contains("100000 scans of a 4x444444 board would write about 177801377980 bytes")
            && err.contains("output cap of 1073741824 bytes")
            && err.contains("give --limit 602 or less"),
        "{err}"
    );
    assert_eq!(run("60").status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn density_refuses_a_board_over_its_limit_instead_of_playing_hunt() {
    // 2049x2049 = 4,198,401 cells, just over density's 4,194,304 (it played hunt there,
    // while the output still said density).
    for name in ["density", "density-random"] {
        let input = format!("{name}\n2049 2049 1\n0 0 1 E\n");
        let runs: [(&str, Vec<&str>, &[u8]); 4] = [
            ("judge", vec![], input.as_bytes()),
            ("trace", vec!["trace", "--limit", "1"], input.as_bytes()),
            ("play", vec!["play", "--rows", "2049", "--cols", "2049", "--cells", "1", "--strategy", name], b"hit\n"),
            (
                "simulate",
                vec!["simulate", "--rows", "2049", "--cols", "2049", "--games", "1", "--strategies", name],
                b"",
            ),
        ];
        for (command, args, stdin) in runs {
            let out = common::run(&args, stdin);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{command} {name}: {err}");
            assert!(
                err.contains(&format!("strategy {name} plays boards of at most 4194304 cells"))
                    && err.contains("this 2049x2049 board has 4198401")
                    && err.contains(
                        "strategies that can play it: linear, smart, prob, random, parity, bayes, hunt, hunt-parity\n"
                    ),
                "{command} {name}: {err}"
            );
        }
        // At the limit it plays.
        let out = common::run(&[], format!("{name}\n2048 2048 0\n").as_bytes());
        assert_eq!(out.status.code(), Some(0), "{name} 2048x2048: {}", String::from_utf8_lossy(&out.stderr));
    }
    // `--strategy all` lists the strategies that can play the board.
    let out = common::run(&["--strategy", "all", "--rules", "classic"], b"linear\n2049 2049 0\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let names: Vec<&str> = text.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(names, ["linear", "random", "parity", "bayes", "hunt", "hunt-parity"]);
}

#[test]
fn advise_does_not_deny_a_layout_that_exists() {
    // 49 one-cell ships that never touch on an all-unknown 14x14 grid: many layouts
    // (every other cell of every other row is one), yet sampling draws none; advise
    // said no layout agreeing with the grid was found.
    let fleet = vec!["1"; 49].join(",");
    let grid = format!("{}\n", ".".repeat(14)).repeat(14);
    let out = common::run(&["advise", "--fleet", &fleet], grid.as_bytes());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("no layout"), "{err}");
    assert!(err.contains("agree with the grid (a search found one)"), "{err}");
}

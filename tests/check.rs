//! `check` through the real binary: the reference solver and this program get AC; each
//! wrong solver of `tests/solvers` gets its verdict (every verdict kind, each
//! presentation difference), shrunk to a small input; time limits kill whole process
//! trees; the JSON report, `--keep`, `--cases`, `--only` and the exit codes.
//!
//! The runs are kept small here (a strategy, few random cases); the heavy measurement
//! with the defaults is `tests/bench/grading.sh` (its table is in report/grading.md).

use crate::common;

use std::path::PathBuf;
use std::process::Output;
use std::time::{Duration, Instant};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_spot-the-ships")
}

fn solver(name: &str) -> String {
    format!("{}/tests/solvers/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn check(args: &[&str]) -> Output {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    common::run(&all, b"")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("check-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The text between `"key": "` and the next quote of a JSON report.
fn json_str<'a>(json: &'a str, key: &str) -> &'a str {
    let start = json.find(&format!("\"{key}\": \"")).map(|k| k + key.len() + 5).expect(key);
    let rest = &json[start..];
    &rest[..rest.find('"').expect("closing quote")]
}

/// The board size and ship count of a shrunk input shown in a text report
/// (`shrunk in 12 runs from 5x6, 2 ships to 1x2, 1 ship:`).
fn shrunk_size(report: &str) -> Option<(usize, usize)> {
    let line = report.lines().find(|l| l.starts_with("shrunk in "))?;
    let to = line.rsplit(" to ").next()?;
    let (board, ships) = to.split_once(", ")?;
    let (r, c) = board.split_once('x')?;
    let cells = r.parse::<usize>().ok()? * c.parse::<usize>().ok()?;
    let ships = ships.split(' ').next()?.parse().ok()?;
    Some((cells, ships))
}

#[test]
fn the_reference_solver_and_this_program_get_every_case_accepted() {
    let out = check(&["--random", "12", "--time-limit", "10", "--", "python3", &solver("reference.py")]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    let report = stdout(&out);
    assert!(report.contains("69 cases: 6 samples, 51 edge, 12 random;"), "{report}");
    assert!(report.contains("verdict: AC (every case accepted)"), "{report}");
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    // This program as the student, with the defaults.
    let out = check(&["--", bin()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("all             357    357      0      0      0      0      0\n"),
        "{}",
        stdout(&out)
    );
}

/// Each wrong solver, the flags of its small run, and its verdict.
const WRONG: [(&str, &[&str], &str); 16] = [
    ("smart_list_order.py", &["--strategies", "smart", "--random", "4"], "WA"),
    ("prob_tie_break.py", &["--strategies", "prob", "--random", "4"], "WA"),
    ("extra_scan.py", &["--strategies", "linear", "--random", "4"], "WA"),
    ("prob_sizes_1_to_4.py", &["--strategies", "prob", "--random", "4"], "WA"),
    ("prob_keeps_diagonals.py", &["--strategies", "prob", "--random", "4"], "WA"),
    ("smart_wraps.py", &["--strategies", "smart", "--random", "4"], "WA"),
    ("no_final_newline.py", &["--only", "sample-02-prob"], "PE"),
    ("crlf.py", &["--only", "sample-02-prob"], "PE"),
    ("lowercase.py", &["--only", "sample-02-prob"], "PE"),
    ("trailing_space.py", &["--only", "sample-02-prob"], "PE"),
    ("empty_fleet_crash.py", &["--strategies", "linear", "--random", "5"], "RE"),
    ("smart_last_row_crash.py", &["--strategies", "smart", "--random", "4"], "RE"),
    ("debug_on_stderr.py", &["--only", "sample-00-linear"], "RE"),
    ("corner_loop.py", &["--only", "edge-corners-linear", "--time-limit", "1", "--shrink-budget", "40"], "TLE"),
    ("board_each_scan.py", &["--only", "edge-large-300x300-linear"], "OLE"),
    ("slow_prob.py", &["--only", "edge-large-300x300-prob", "--large-time-limit", "1", "--shrink-budget", "0"], "TLE"),
];

#[test]
fn every_wrong_solver_gets_its_verdict_and_a_small_shrunk_input() {
    for (file, flags, verdict) in WRONG {
        let mut args: Vec<&str> = flags.to_vec();
        if !flags.contains(&"--time-limit") {
            args.extend(["--time-limit", "10"]);
        }
        let path = solver(file);
        args.extend(["--", "python3", &path]);
        let out = check(&args);
        let report = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{file}: {report}{}", stderr(&out));
        assert!(report.contains(&format!("\nverdict: {verdict} (")), "{file}: {report}");
        if verdict == "WA" {
            let (cells, ships) = shrunk_size(&report).unwrap_or_else(|| panic!("{file}: not shrunk: {report}"));
            assert!(cells <= 25 && ships <= 3, "{file}: shrunk to {cells} cells, {ships} ships: {report}");
            assert!(report.contains("first difference: line "), "{file}: {report}");
        }
    }
}

#[test]
fn each_presentation_difference_is_named() {
    for (file, why) in [
        ("no_final_newline.py", "no line break after the last line"),
        ("crlf.py", "CR characters (\\r\\n line ends)"),
        ("lowercase.py", "letter case"),
        ("trailing_space.py", "trailing spaces at the end of lines"),
    ] {
        let out = check(&["--only", "sample-05-prob", "--shrink-budget", "0", "--", "python3", &solver(file)]);
        let report = stdout(&out);
        assert!(report.contains(&format!("differs only in: {why}\n")), "{file}: {report}");
    }
}

#[test]
fn a_java_solver_is_compiled_and_judged() {
    let Ok(javac) = std::process::Command::new("javac").arg("-version").output() else {
        println!("skipped: javac is not installed");
        return;
    };
    assert!(javac.status.success());
    let dir = temp("java");
    std::fs::create_dir_all(&dir).unwrap();
    let built = std::process::Command::new("javac")
        .args(["-d", dir.to_str().unwrap(), &solver("LinearOnly.java")])
        .status()
        .unwrap();
    assert!(built.success());
    let cp = dir.to_str().unwrap();
    let out = check(&["--only", "sample-03-linear", "--", "java", "-cp", cp, "LinearOnly"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = check(&["--only", "sample-01-smart", "--", "java", "-cp", cp, "LinearOnly"]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(report.contains("verdict: WA"), "{report}");
    let (cells, ships) = shrunk_size(&report).expect("shrunk");
    assert!(cells <= 25 && ships <= 3, "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// True when some process's command line holds `token`.
fn alive(token: &str) -> bool {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .any(|e| std::fs::read(e.path().join("cmdline")).is_ok_and(|c| String::from_utf8_lossy(&c).contains(token)))
}

#[test]
fn the_time_limit_kills_the_whole_process_tree() {
    let token = format!("787.{}", std::process::id());
    let script = format!("sleep {token} & sleep {token}");
    let start = Instant::now();
    let args = ["--only", "sample-00-linear", "--time-limit", "0.5", "--shrink-budget", "0", "--", "sh", "-c", &script];
    let out = check(&args);
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(1));
    let report = stdout(&out);
    assert!(report.contains("verdict: TLE") && report.contains("killed (with its children) after 0.5 s"), "{report}");
    let gone = Instant::now() + Duration::from_secs(3);
    while alive(&token) && Instant::now() < gone {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!alive(&token), "a `sleep {token}` survived the time limit");
    // A program that exits but leaves a child holding its output is still running.
    let script = format!("(sleep {token} &) ; echo 0");
    let out = check(&[
        "--only",
        "sample-00-linear",
        "--time-limit",
        "0.5",
        "--shrink-budget",
        "0",
        "--",
        "sh",
        "-c",
        &script,
    ]);
    assert!(stdout(&out).contains("verdict: TLE"), "{}", stdout(&out));
    std::thread::sleep(Duration::from_millis(200));
    assert!(!alive(&token));
}

#[test]
fn output_limit_and_runtime_errors() {
    let out = check(&["--only", "sample-00-linear", "--output-limit", "1000", "--", "sh", "-c", "yes"]);
    assert!(stdout(&out).contains("verdict: OLE") && stdout(&out).contains("more than 1000 bytes"), "{}", stdout(&out));
    let out =
        check(&["--only", "sample-00-linear", "--shrink-budget", "0", "--", "sh", "-c", "cat > /dev/null; exit 3"]);
    assert!(stdout(&out).contains("verdict: RE") && stdout(&out).contains("exit status 3"), "{}", stdout(&out));
    let out = check(&["--only", "sample-00-linear", "--shrink-budget", "0", "--", "sh", "-c", "kill -9 $$"]);
    assert!(stdout(&out).contains("killed by a signal"), "{}", stdout(&out));
}

#[test]
fn the_json_report_is_valid_and_complete() {
    let args = ["--strategies", "prob", "--random", "4", "--time-limit", "10", "--format", "json"];
    let path = solver("prob_tie_break.py");
    let out = check(&[&args[..], &["--", "python3", &path]].concat());
    assert_eq!(out.status.code(), Some(1));
    let json = stdout(&out);
    assert_eq!(json_str(&json, "verdict"), "WA");
    let validate = r#"
import json, sys
d = json.load(sys.stdin)
assert set(d) >= {"verdict", "cases", "counts", "by_strategy", "failures"}, d.keys()
assert d["cases"] == 23 and sum(d["counts"].values()) == 23
assert list(d["counts"]) == ["AC", "PE", "WA", "OLE", "TLE", "RE"]
assert list(d["by_strategy"]) == ["prob"]
f = d["failures"]
assert len(f) == d["counts"]["WA"] and all(x["verdict"] == "WA" for x in f)
assert set(f[0]) >= {"case", "strategy", "verdict", "input", "expected", "got", "shrunk"}
s = f[0]["shrunk"]
assert s is not None and set(s) >= {"input", "expected", "got"}
assert all(x["shrunk"] is None for x in f[1:])
print("ok")
"#;
    let py = std::process::Command::new("python3")
        .args(["-c", validate])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    py.stdin.as_ref().unwrap().write_all(json.as_bytes()).unwrap();
    let res = py.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&res.stdout), "ok\n", "{json}");
    // Same report whatever the number of jobs.
    let one = check(&[&args[..], &["--jobs", "1", "--", "python3", &path]].concat());
    assert_eq!(stdout(&one), json);
}

#[test]
fn keep_writes_the_failures_and_cases_reads_them_back() {
    let dir = temp("keep");
    let keep = dir.to_str().unwrap();
    let path = solver("extra_scan.py");
    let out = check(&["--only", "sample-00-linear", "--keep", keep, "--", "python3", &path]);
    assert_eq!(out.status.code(), Some(1));
    for f in ["sample-00-linear.in", "sample-00-linear.out", "sample-00-linear.got", "sample-00-linear-shrunk.in"] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    let out = check(&["--cases", keep, "--no-builtin", "--shrink-budget", "0", "--", "python3", &path]);
    let report = stdout(&out);
    assert!(report.contains("2 cases: 2 user;") && report.contains("verdict: WA"), "{report}");
    assert!(report.contains("user-sample-00-linear"), "{report}");
    let out = check(&["--cases", keep, "--only", "user-sample-00-linear-shrunk", "--", bin()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("1 case: 1 user;"), "{}", stdout(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn exit_codes_and_error_lines() {
    let out = check(&["--only", "random-2021-7-smart", "--", bin()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("1 case: 1 random;"), "{}", stdout(&out));
    for (args, message) in [
        (&["--", "/no/such/program"][..], "error: check: cannot start `/no/such/program`: "),
        (&[][..], "error: check: give the program to check after `--`"),
        (&["--only", "nope", "--", "true"][..], "error: check: --only: no case is called `nope`"),
        (&["--strategies", "fast", "--", "true"][..], "error: check: --strategies: unknown strategy `fast`"),
        (&["--time-limit", "0", "--", "true"][..], "error: check: --time-limit: expected seconds"),
        (&["--no-builtin", "--", "true"][..], "error: check: --no-builtin needs --cases DIR"),
        (&["--cases", "/no/such/dir", "--", "true"][..], "error: check: --cases: cannot read `/no/such/dir`"),
        (&["prog"][..], "error: check: unexpected `prog`: put the program to run after `--`"),
    ] {
        let out = check(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(err.starts_with(message) && err.matches('\n').count() == 1, "{args:?}: {err}");
    }
}

/// A judge input as a table: strategy, rows, columns, ships as (cells, east?).
#[derive(Clone, Debug)]
struct Input {
    strategy: String,
    rows: usize,
    cols: usize,
    ships: Vec<(Vec<(usize, usize)>, bool)>,
}

impl Input {
    fn parse(text: &str) -> Input {
        let t: Vec<&str> = text.split_whitespace().collect();
        let num = |k: usize| t[k].parse::<usize>().unwrap();
        let mut ships = Vec::new();
        for k in 0..num(3) {
            let (r, c, size, east) = (num(4 + 4 * k), num(5 + 4 * k), num(6 + 4 * k), t[7 + 4 * k] == "E");
            ships.push(((0..size).map(|i| if east { (r, c + i) } else { (r + i, c) }).collect(), east));
        }
        Input { strategy: t[0].to_string(), rows: num(1), cols: num(2), ships }
    }

    fn text(&self) -> String {
        let ships: Vec<String> = self
            .ships
            .iter()
            .map(|(cells, east)| {
                let (r, c) = cells[0];
                format!("{r} {c} {} {}", cells.len(), if *east { 'E' } else { 'S' })
            })
            .collect();
        format!("{}\n{} {} {}\n{}\n", self.strategy, self.rows, self.cols, self.ships.len(), ships.join(" "))
    }

    /// Every cell moved by `f` (`None`: the cell goes); ships with no cell left go.
    fn map(&self, rows: usize, cols: usize, f: impl Fn((usize, usize)) -> Option<(usize, usize)>) -> Input {
        let ships = self
            .ships
            .iter()
            .map(|(cells, east)| (cells.iter().filter_map(|&p| f(p)).collect::<Vec<_>>(), *east))
            .filter(|(cells, _)| !cells.is_empty())
            .collect();
        Input { strategy: self.strategy.clone(), rows, cols, ships }
    }

    /// Every one-step reduction, valid or not (the judge refuses the invalid ones).
    fn reductions(&self) -> Vec<Input> {
        let mut out = Vec::new();
        for k in 0..self.ships.len() {
            let mut next = self.clone();
            next.ships.remove(k);
            out.push(next);
            let cells = &self.ships[k].0;
            if cells.len() >= 2 {
                for keep in [&cells[1..], &cells[..cells.len() - 1]] {
                    let mut next = self.clone();
                    next.ships[k].0 = keep.to_vec();
                    out.push(next);
                }
            }
            let (r, c) = cells[0];
            for (dr, dc) in [(1, 0), (0, 1)] {
                if r >= dr && c >= dc {
                    let mut next = self.clone();
                    next.ships[k].0 = cells.iter().map(|&(a, b)| (a - dr, b - dc)).collect();
                    out.push(next);
                }
            }
        }
        for i in 0..self.rows {
            out.push(self.map(self.rows - 1, self.cols, |(r, c)| match r {
                r if r == i => None,
                r if r > i => Some((r - 1, c)),
                r => Some((r, c)),
            }));
        }
        for j in 0..self.cols {
            out.push(self.map(self.rows, self.cols - 1, |(r, c)| match c {
                c if c == j => None,
                c if c > j => Some((r, c - 1)),
                c => Some((r, c)),
            }));
        }
        out.into_iter().filter(|i| i.rows >= 1 && i.cols >= 1).collect()
    }
}

/// The shrunk input of the first failure of `verdict` in a JSON report, if any.
fn shrunk_input(json: &str, verdict: &str) -> Option<String> {
    let at = json.find(&format!("\"verdict\": \"{verdict}\", \"input\""))?;
    let rest = &json[at..];
    let s = &rest[rest.find("\"shrunk\": ")? + 10..];
    let s = s.strip_prefix("{\"input\": \"")?;
    Some(s[..s.find('"')?].replace("\\n", "\n"))
}

/// The input of the first failure of `verdict` in a JSON report.
fn failing_input(json: &str, verdict: &str) -> Option<String> {
    let needle = format!("\"verdict\": \"{verdict}\", \"input\": \"");
    let s = &json[json.find(&needle)? + needle.len()..];
    Some(s[..s.find('"')?].replace("\\n", "\n"))
}

/// Checks that no one-step reduction of `input` gets `verdict` from `command`; returns
/// how many valid reductions there were.
fn assert_one_minimal(input: &str, verdict: &str, command: &[&str], flags: &[&str], name: &str) -> usize {
    let inst = Input::parse(input);
    let dir = temp(&format!("minimal-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut valid = 0;
    for (k, r) in inst.reductions().iter().enumerate() {
        let out = common::run(&[], r.text().as_bytes());
        if out.status.code() != Some(0) {
            continue; // not a valid input
        }
        std::fs::write(dir.join(format!("r{k:03}.in")), r.text()).unwrap();
        std::fs::write(dir.join(format!("r{k:03}.out")), &out.stdout).unwrap();
        valid += 1;
    }
    if valid > 0 {
        let d = dir.to_str().unwrap();
        let mut args = vec!["--no-builtin", "--cases", d, "--shrink-budget", "0", "--format", "json"];
        args.extend_from_slice(flags);
        args.push("--");
        args.extend_from_slice(command);
        let json = stdout(&check(&args));
        let count = json.split(&format!("\"{verdict}\": ")).nth(1).and_then(|s| s.split([',', '}']).next());
        assert_eq!(count, Some("0"), "{name}: a reduction of {input:?} still gets {verdict}: {json}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
    valid
}

#[test]
fn the_shrunk_case_of_every_wrong_solver_is_one_minimal() {
    let mut seen = 0;
    for (file, flags, verdict) in WRONG {
        if file == "board_each_scan.py" || file == "slow_prob.py" {
            continue; // OLE is not shrunk; the slow prob's budget is 0
        }
        let mut args: Vec<&str> = flags.to_vec();
        if !flags.contains(&"--time-limit") {
            args.extend(["--time-limit", "10"]);
        }
        let path = solver(file);
        let command = ["python3", path.as_str()];
        args.extend(["--format", "json", "--"]);
        args.extend(command);
        let json = stdout(&check(&args));
        // Not shrunk: nothing smaller gets the verdict (the first case is already small).
        let input = match shrunk_input(&json, verdict) {
            Some(input) => {
                assert!(json.contains("\"minimal\": true"), "{file}: {json}");
                input
            }
            None => failing_input(&json, verdict).unwrap_or_else(|| panic!("{file}: {json}")),
        };
        let limit: Vec<&str> = flags.windows(2).find(|w| w[0] == "--time-limit").map_or(vec![], |w| w.to_vec());
        assert_one_minimal(&input, verdict, &command, &limit, file);
        seen += 1;
    }
    assert_eq!(seen, 14);
}

#[test]
fn a_crash_that_needs_the_last_row_shrinks_to_two_cells() {
    let path = solver("smart_last_row_crash.py");
    let command = ["python3", path.as_str()];
    // The issue's board: one ship in the bottom-right corner of 17x17.
    let dir = temp("last-row");
    std::fs::create_dir_all(&dir).unwrap();
    let input = "smart\n17 17 3\n0 0 5 E 4 4 3 S 16 16 1 E\n";
    std::fs::write(dir.join("corner.in"), input).unwrap();
    std::fs::write(dir.join("corner.out"), common::run(&[], input.as_bytes()).stdout).unwrap();
    let d = dir.to_str().unwrap();
    let json = stdout(&check(&["--no-builtin", "--cases", d, "--format", "json", "--", command[0], command[1]]));
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(json_str(&json, "verdict"), "RE", "{json}");
    let shrunk = shrunk_input(&json, "RE").expect("shrunk");
    assert_eq!(shrunk, "smart\n1 2 1\n0 0 1 E\n", "{json}");
    assert!(assert_one_minimal(&shrunk, "RE", &command, &[], "last-row") >= 1);
}

/// Runs `check ARGS` in `dir`.
fn check_in(dir: &std::path::Path, args: &[&str]) -> Output {
    std::process::Command::new(bin()).arg("check").args(args).current_dir(dir).output().unwrap()
}

#[test]
fn build_runs_once_before_the_cases_and_a_failure_is_a_compile_error() {
    if std::process::Command::new("javac").arg("-version").output().is_err() {
        println!("skipped: javac is not installed");
        return;
    }
    let dir = temp("build");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(solver("LinearOnly.java"), dir.join("LinearOnly.java")).unwrap();
    let build = "echo built >> builds.txt && javac -d out *.java";
    let args = ["--build", build, "--strategies", "linear", "--random", "3", "--", "java", "-cp", "out", "LinearOnly"];
    let out = check_in(&dir, &args);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}{}", stderr(&out));
    assert!(report.starts_with(&format!("build: {build}: done in ")), "{report}");
    assert!(report.contains("verdict: AC"), "{report}");
    assert_eq!(std::fs::read_to_string(dir.join("builds.txt")).unwrap(), "built\n");
    // A slip that does not compile: CE with javac's own words, no case run.
    let broken = std::fs::read_to_string(dir.join("LinearOnly.java")).unwrap().replacen(';', "", 1);
    std::fs::write(dir.join("LinearOnly.java"), broken).unwrap();
    let out = check_in(&dir, &args);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{report}{}", stderr(&out));
    assert!(report.contains("verdict: CE (compile error): no case was run\n"), "{report}");
    assert!(report.contains("the build exited with status 1 after "), "{report}");
    assert!(report.contains("    | LinearOnly.java:") && report.contains("error: ';' expected"), "{report}");
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    let json = stdout(&check_in(&dir, &[&["--format", "json"][..], &args[..]].concat()));
    assert_eq!(json_str(&json, "verdict"), "CE", "{json}");
    assert!(json.contains("error: ';' expected"), "{json}");
    std::fs::remove_dir_all(&dir).unwrap();
}

//! The command line as a user meets it, through the real binary: help for every
//! command in every form, suggestions for typos, input from files, and `--strategy`
//! overriding the input's first line.

use crate::common;

use std::path::PathBuf;

/// Every command but the judge.
const COMMANDS: [&str; 8] = ["generate", "simulate", "trace", "advise", "play", "referee", "check", "testset"];

fn stdout_of(args: &[&str], stdin: &[u8]) -> String {
    let out = common::run(args, stdin);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{args:?}: stderr {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Runs `args` and checks the error contract: exit 2, one `error: ` line, no stdout.
fn error_of(args: &[&str], stdin: &[u8]) -> String {
    let out = common::run(args, stdin);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: stdout {}", String::from_utf8_lossy(&out.stdout));
    assert!(err.starts_with("error: ") && err.ends_with('\n') && err.matches('\n').count() == 1, "{err:?}");
    err
}

fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples").join(name)
}

#[test]
fn every_command_has_help_in_three_forms() {
    for command in COMMANDS {
        let long = stdout_of(&[command, "--help"], b"");
        assert!(long.starts_with(&format!("spot-the-ships {command}: ")), "{long}");
        assert!(long.contains("USAGE") && long.contains("--help"), "{long}");
        assert_eq!(stdout_of(&[command, "-h"], b""), long, "{command} -h");
        assert_eq!(stdout_of(&["help", command], b""), long, "help {command}");
    }
}

#[test]
fn top_help_lists_every_command() {
    let top = stdout_of(&["--help"], b"");
    for form in [&["-h"][..], &["help"][..]] {
        assert_eq!(stdout_of(form, b""), top);
    }
    for command in COMMANDS {
        assert!(top.contains(&format!("  {command} ")), "{command} missing from {top}");
    }
    assert!(top.contains("linear") && top.contains("bayes") && top.contains("help CMD"));
}

#[test]
fn help_lines_fit_80_columns() {
    for command in COMMANDS.iter().chain(&["--help"]) {
        for line in stdout_of(&[command, "--help"], b"").lines() {
            assert!(line.chars().count() <= 80, "{command}: {line:?} is {} columns", line.chars().count());
        }
    }
}

#[test]
fn typos_get_a_suggestion() {
    let err = error_of(&["simulat"], b"");
    assert!(err.contains("unknown command `simulat`") && err.contains("did you mean `simulate`?"), "{err}");
    let err = error_of(&["help", "advice"], b"");
    assert!(err.contains("did you mean `advise`?"), "{err}");
    let err = error_of(&["simulate", "--game", "3"], b"");
    assert!(err.starts_with("error: simulate: unknown argument `--game`"), "{err}");
    assert!(err.contains("did you mean `--games`?") && err.contains("--strategies"), "{err}");
}

#[test]
fn errors_name_the_command_once() {
    let err = error_of(&["simulate", "--games", "1e6"], b"");
    assert_eq!(err, "error: simulate: --games: expected a whole number, got `1e6`\n");
    let err = error_of(&["generate", "--rows", "x"], b"");
    assert_eq!(err, "error: generate: --rows: expected a whole number, got `x`\n");
    let err = error_of(&["referee", "--sunk", "loud"], b"");
    assert_eq!(err, "error: referee: --sunk: expected none, yes or named, got `loud`\n");
    let err = error_of(&["trace", "--color", "pink"], b"");
    assert_eq!(err, "error: trace: --color: expected auto, always or never, got `pink`\n");
    for command in COMMANDS {
        let err = error_of(&[command, "--frobnicate"], b"");
        assert!(err.starts_with(&format!("error: {command}: unknown argument")), "{err}");
        assert_eq!(err.matches(command).count(), 1, "{err}");
    }
}

#[test]
fn the_judge_and_trace_read_a_file_or_stdin() {
    let input = sample("02-prob.in");
    let expected = std::fs::read_to_string(sample("02-prob.out")).unwrap();
    let path = input.to_str().unwrap();
    assert_eq!(stdout_of(&[path], b""), expected);
    assert_eq!(stdout_of(&["-"], &std::fs::read(&input).unwrap()), expected);
    let traced = stdout_of(&["trace", "--color", "never", path], b"");
    assert!(traced.ends_with(&format!("judge output:\n{expected}")), "{traced}");
    let err = error_of(&["no/such/file.in"], b"");
    assert!(err.contains("cannot open `no/such/file.in`"), "{err}");
    let err = error_of(&[path, path], b"");
    assert!(err.contains("only one input file"), "{err}");
}

#[test]
fn strategy_flag_overrides_the_first_line() {
    let input = std::fs::read(sample("02-prob.in")).unwrap();
    for (name, golden) in [("linear", "00-linear.out"), ("smart", "01-smart.out"), ("prob", "02-prob.out")] {
        // Samples 00, 01 and 02 are the same board under the three strategies.
        let expected = std::fs::read_to_string(sample(golden)).unwrap();
        assert_eq!(stdout_of(&["--strategy", name], &input), expected, "{name}");
        let traced = stdout_of(&["trace", "--strategy", name], &input);
        assert!(traced.starts_with(&format!("trace of {name} ")), "{traced}");
        assert!(traced.ends_with(&expected), "{name}");
    }
    let err = error_of(&["--strategy", "fastest"], &input);
    assert!(err.contains("unknown strategy `fastest`") && err.contains("linear"), "{err}");
}

#[test]
fn cargo_toml_declares_the_minimum_rust_version() {
    // The minimum is checked by clippy's `incompatible_msrv` lint (on by default, so
    // the CI's `clippy -D warnings` fails when the code uses an API newer than this).
    let toml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let line = toml.lines().find(|l| l.starts_with("rust-version")).expect("rust-version declared");
    let version = line.split('"').nth(1).expect("quoted version");
    let minor: u32 = version.strip_prefix("1.").and_then(|m| m.parse().ok()).expect("1.N");
    // `Option::is_none_or` (1.82) and `usize::is_multiple_of` (1.87) are used.
    assert!(minor >= 87, "{version}");
}

#[test]
fn write_and_read_errors_name_the_stream() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    for args in [&["generate"][..], &["simulate", "--games", "3"][..]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_spot-the-ships"))
            .args(args)
            .stdout(full())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.starts_with("error: ") && err.contains("writing standard output: No space left on device\n"),
            "{err}"
        );
        assert!(!err.contains("os error"), "{err}");
    }
    let dir = std::process::Command::new(env!("CARGO_BIN_EXE_spot-the-ships"))
        .arg("trace")
        .stdin(std::fs::File::open("/").unwrap())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&dir.stderr), "error: trace: reading standard input: Is a directory\n");
}

#[test]
fn counts_of_one_are_singular() {
    let traced = stdout_of(&["trace"], b"prob\n2 2 1\n0 0 1 E\n");
    assert!(traced.starts_with("trace of prob on a 2x2 board: 1 ship, 1 ship cell\n"), "{traced}");
    let err = error_of(&["play", "--rows", "1", "--cols", "1", "--cells", "2"], b"");
    assert!(err.contains("--cells: 2 ship cells do not fit on a 1x1 board (1 cell)"), "{err}");
    let out = common::run(&["referee", "--rows", "1", "--cols", "3", "--fleet", "1"], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("stopped after 0 probes, with 0 of 1 ship cell found"), "{err}");
    let err = error_of(&["advise", "--strategy", "prob", "--fleet", "1"], b"+.+\n");
    assert!(
        err.contains("the grid has more hits than the fleet's 1 ship cell ((0,2) is one too many, in reading order)\n"),
        "{err}"
    );
}

/// Runs `args` with a pseudo-terminal as stdin (through `script`), feeding `typed`.
fn at_a_terminal(args: &str, typed: &str) -> Option<String> {
    let script = std::process::Command::new("script").arg("--version").output();
    if script.is_err() {
        eprintln!("skipped: no `script` to make a terminal");
        return None;
    }
    let command = format!("{} {args} 2>&1", env!("CARGO_BIN_EXE_spot-the-ships"));
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("(sleep 0.5; printf '{typed}') | script -qec '{command}' /dev/null"))
        .output()
        .unwrap();
    Some(String::from_utf8_lossy(&out.stdout).replace('\r', ""))
}

#[test]
fn the_judge_at_a_terminal_says_it_is_waiting() {
    let Some(out) = at_a_terminal("", "prob\\n2 2 1\\n0 0 1 E\\n\\004") else { return };
    assert!(
        out.starts_with(
            "reading the input from the terminal (end it with Ctrl-D; `spot-the-ships --help` for the format)\n"
        ),
        "{out}"
    );
    assert!(out.ends_with("\n1\n+.\n.X\n"), "{out:?}");
}

/// Parses each line of `text` as JSON with Python (skipped without python3).
fn json_lines_parse(text: &str) -> Option<String> {
    let mut child = std::process::Command::new("python3")
        .args(["-c", "import sys, json\nfor l in sys.stdin: print(repr(json.loads(l)))"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    use std::io::Write;
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "not JSON: {text}");
    Some(String::from_utf8(out.stdout).unwrap())
}

#[test]
fn the_judge_and_trace_write_json() {
    let input = b"prob\n3 4 1\n0 0 2 E\n";
    assert_eq!(stdout_of(&["--format", "json"], input), "{\"scans\": 6, \"grid\": [\"++X.\", \"XXXX\", \"..X.\"]}\n");
    let lines = stdout_of(&["trace", "--format", "json"], input);
    assert_eq!(lines.lines().count(), 1 + 6 + 1, "{lines}");
    assert!(lines.starts_with("{\"strategy\": \"prob\", \"rows\": 3, \"cols\": 4, \"ships\": 1, \"ship_cells\": 2}\n"));
    assert!(lines.contains(
        "{\"scan\": 1, \"probe\": [1, 1], \"source\": \"matrix\", \"answer\": \"miss\", \"eliminated\": [], "
    ));
    assert!(lines.contains(
        "\"matrix\": [[7, 9, 9, 7], [8, 10, 10, 8], [7, 9, 9, 7]], \"grid\": [\"OO..\", \".X..\", \"....\"]}\n"
    ));
    assert!(lines.ends_with("{\"scans\": 6, \"grid\": [\"++X.\", \"XXXX\", \"..X.\"]}\n"));
    json_lines_parse(&lines);
    let err = error_of(&["--format", "yaml"], input);
    assert_eq!(err, "error: --format: expected text or json, got `yaml`\n");
    // Names from a fleet file reach the JSON (quotes and backslashes, once escaped
    // here, are no longer allowed in a name: tests/hostile.rs).
    let dir = std::env::temp_dir().join(format!("spot-cli-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fleet = dir.join("fleet.txt");
    std::fs::write(&fleet, "Y wing-1_b\nXX\n").unwrap();
    let fleet = fleet.to_str().unwrap();
    let out = stdout_of(&["--fleet-file", fleet, "--strategy", "hunt", "--format", "json"], b"hunt\n2 3 1\n0 1 2 E\n");
    assert!(out.contains("\"ships\": [{\"name\": \"Y wing-1_b\", \"at\": [0, 1]}]"), "{out}");
    if let Some(parsed) = json_lines_parse(&out) {
        assert!(parsed.contains("'Y wing-1_b'"), "{parsed}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn trace_limit_shows_the_first_scans_and_is_needed_on_large_boards() {
    let input = b"prob\n3 4 1\n0 0 2 E\n";
    let out = stdout_of(&["trace", "--limit", "1"], input);
    assert_eq!(out.matches("\nscan ").count(), 1, "{out}");
    assert!(out.ends_with("\n... 5 more scans not shown (--limit 1)\n\njudge output:\n6\n++X.\nXXXX\n..X.\n"), "{out}");
    let json = stdout_of(&["trace", "--limit", "2", "--format", "json"], input);
    assert!(json.contains("\n{\"scans_not_shown\": 4}\n{\"scans\": 6, "), "{json}");
    let big = stdout_of(&["generate", "--rows", "101", "--cols", "100", "--fleet", "5"], b"");
    let err = error_of(&["trace"], big.as_bytes());
    assert!(err.starts_with("error: trace: the board has 10100 cells") && err.contains("give --limit N"), "{err}");
    let out = stdout_of(&["trace", "--limit", "1"], big.as_bytes());
    assert!(out.contains("likelihood matrix read to choose it: not shown (over 10000 cells)"), "{out:.300}");
    let exact = stdout_of(&["trace", "--limit", "1000000"], input);
    assert!(!exact.contains("not shown"));
    assert!(exact.ends_with(&stdout_of(&[], input)));
}

#[test]
fn colour_honours_no_color_and_dumb_terminals() {
    let input = b"prob\n3 4 1\n0 0 2 E\n";
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_spot-the-ships"));
        c.args(args).env_remove("NO_COLOR").env_remove("TERM");
        for (k, v) in env {
            c.env(k, v);
        }
        let mut child = c.stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped()).spawn().unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input).unwrap();
        String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
    };
    assert!(run(&["trace", "--color", "always"], &[("NO_COLOR", "1")]).contains('\x1b'));
    assert!(!run(&["trace"], &[]).contains('\x1b'), "a pipe is not a terminal");
    assert!(!run(&["trace", "--color", "never"], &[]).contains('\x1b'));
    // auto at a terminal: colour unless NO_COLOR (non-empty) or TERM=dumb.
    let tty = |env: &str| at_a_terminal_env(env, "trace --color auto samples/02-prob.in");
    if let Some(plain) = tty("TERM=xterm") {
        assert!(plain.contains('\x1b'), "{plain}");
        assert!(!tty("TERM=xterm NO_COLOR=1").unwrap().contains('\x1b'));
        assert!(tty("TERM=xterm NO_COLOR=").unwrap().contains('\x1b'), "empty NO_COLOR is unset");
        assert!(!tty("TERM=dumb").unwrap().contains('\x1b'));
    }
}

/// Runs `args` with stdout on a pseudo-terminal (through `script`) under `env`.
fn at_a_terminal_env(env: &str, args: &str) -> Option<String> {
    std::process::Command::new("script").arg("--version").output().ok()?;
    let command = format!("env -u NO_COLOR {env} {} {args} < /dev/null", env!("CARGO_BIN_EXE_spot-the-ships"));
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn advise_and_play_speak_battleship_coordinates() {
    let grid = b"..X..\n.+...\n.....\n";
    let out = stdout_of(&["advise", "--strategy", "prob", "--coords", "letters"], grid);
    assert!(out.contains("\n   1  2  3  4  5\nA -1  2 -1  5  5\nB  2 -1  4  8  7\n"), "{out}");
    assert!(out.contains("suggest: B3  (next to a hit, score 4)\ncertain water: A1 C1 C3\n"), "{out}");
    let plain = stdout_of(&["advise", "--strategy", "prob"], grid);
    assert!(plain.contains("suggest: (1,2)") && plain.contains("certain water: (0,0) (2,0) (2,2)"), "{plain}");
    // play asks `? A1` and reads the answers as usual.
    let out = stdout_of(
        &["play", "--rows", "2", "--cols", "3", "--cells", "1", "--strategy", "linear", "--coords", "letters"],
        b"m\nm\nm\nh\n",
    );
    assert_eq!(out, "? A1\n? A2\n? A3\n? B1\n1\n...\n+..\n".replace("1\n...", "4\nXXX"));
    // Rows past Z are named as spreadsheets name columns.
    let tall = stdout_of(&["advise", "--strategy", "prob", "--coords", "letters"], ".\n".repeat(28).as_bytes());
    assert!(tall.contains("\n Z ") && tall.contains("\nAA ") && tall.contains("\nAB "), "{tall}");
    let err = error_of(&["play", "--coords", "roman"], b"");
    assert_eq!(err, "error: play: --coords: expected numbers or letters, got `roman`\n");
}

#[test]
fn play_takes_back_the_last_answer() {
    // linear asks (0,0), (0,1); `undo` takes back the miss at (0,0), which is asked again.
    let args = ["play", "--rows", "1", "--cols", "3", "--cells", "1", "--strategy", "linear"];
    assert_eq!(stdout_of(&args, b"miss\nundo\nhit\n"), "? 0 0\n? 0 1\n? 0 0\n1\n+..\n");
    // Two undos in a row take back two answers; prob replays its own probes.
    let out = stdout_of(&["play", "--rows", "3", "--cols", "3", "--cells", "1"], b"m\nm\nundo\nundo\nh\n");
    let asked: Vec<&str> = out.lines().filter(|l| l.starts_with('?')).collect();
    // Asked: a (miss), b (miss), c (undo: b again), b (undo: a again), a (hit).
    assert_eq!(asked.len(), 5, "{out}");
    assert_eq!((asked[0], asked[1]), (asked[4], asked[3]), "{out}");
    assert!(out.ends_with("\n1\nX.X\n.+.\nX.X\n"), "{out}");
    let out = common::run(&args, b"undo\n");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err, "error: play: answer `undo` before any other answer: nothing to undo\n");
}

#[test]
fn play_refuses_what_can_never_be_played() {
    let err = error_of(&["play", "--rows", "3", "--cols", "3", "--cells", "9"], b"");
    assert!(err.contains("cannot fit on a 3x3 board when ships never touch (at most 8 ship cells)"), "{err}");
    let err = error_of(&["play", "--rows", "3", "--cols", "3", "--cells", "10", "--rules", "classic"], b"");
    assert!(err.contains("do not fit on a 3x3 board (9 cells)"), "{err}");
    let long = format!("{}\n", "h".repeat(1_001));
    let out = common::run(&["play", "--rows", "3", "--cols", "3", "--cells", "1"], long.as_bytes());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err.starts_with("error: play: answer `hhh") && err.ends_with("...` is not one of hit, miss, h, m, 1, 0\n"),
        "{err}"
    );
    let err = error_of(&["play", "--rows", "100000", "--cols", "100000", "--cells", "1"], b"");
    assert!(err.contains("more than the limit"), "{err}");
}

#[test]
fn play_at_a_terminal_draws_the_board_and_undoes() {
    let Some(out) = at_a_terminal(
        "play --rows 2 --cols 3 --cells 1 --strategy linear --coords letters --color never",
        "m\\n\\nundo\\nh\\n",
    ) else {
        return;
    };
    assert!(out.contains("answer each `? B7` with hit or miss (or undo)"), "{out}");
    assert!(out.contains("? A1\n"), "{out}");
    assert!(out.contains("  1 2 3\nA X . .\nB . . .\n"), "{out}");
    assert!(out.contains("is not an answer: type hit, miss, h, m, 1, 0, or undo"), "{out}");
    assert!(out.contains("took back the answer for A1\n  1 2 3\nA . . .\nB . . .\n? A1\n"), "{out}");
    assert!(out.contains("  1 2 3\nA + . .\nB . . .\n1\n+..\n...\n"), "{out}");
}

/// Runs `args` under a 256 MB address-space limit (`ulimit -v`), feeding `stdin`.
fn under_256_mb(args: &str, stdin: Vec<u8>) -> std::process::Output {
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v 262144 && exec {} {args}", env!("CARGO_BIN_EXE_spot-the-ships")))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

#[test]
fn advise_reads_a_stream_in_bounded_memory() {
    // 64 MB of blank lines once cost 16 bytes a line (a gigabyte): now a few MB.
    let blank = vec![b'\n'; 64 << 20];
    let out = under_256_mb("advise", blank.clone());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: advise: empty input: expected a grid of `.`, `X` and `+`, one line per row\n"
    );
    let mut late = blank.clone();
    late.extend_from_slice(b"...\n");
    let out = under_256_mb("advise", late);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("error: advise: lines 1 to {} are blank: the grid must start on the first line\n", 64 << 20)
    );
    let mut trailing = b"...\n".to_vec();
    trailing.extend_from_slice(&blank);
    let out = under_256_mb("advise --strategy prob", trailing);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("likelihood"));
    let out = under_256_mb("advise", vec![b'.'; 64 << 20]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: advise: the grid has at least 1 row of 1000001 cells, more than 1000000 cells\n"
    );
    let err = error_of(&["advise"], "..\n.é\n".as_bytes());
    assert!(err.contains("cell (1,1) (row 1, column 1) holds `é`"), "{err}");
}

#[test]
fn the_judge_tries_every_strategy() {
    let input = std::fs::read(sample("02-prob.in")).unwrap();
    let all = stdout_of(&["--strategy", "all"], &input);
    // Names padded to the longest (density-random).
    assert!(all.starts_with("linear         28\nsmart          18\nprob           11\n"), "{all}");
    assert_eq!(all.lines().count(), 10, "{all}");
    let json = stdout_of(&["--strategy", "all", "--format", "json"], &input);
    assert!(json.starts_with("{\"strategies\": [{\"name\": \"linear\", \"scans\": 28}, "), "{json}");
    json_lines_parse(&json);
    // Under rules where ships touch, only the strategies that can play them.
    let classic = stdout_of(&["generate", "--rules", "classic", "--strategy", "hunt"], b"");
    let all = stdout_of(&["--rules", "classic", "--strategy", "all"], classic.as_bytes());
    assert!(!all.contains("prob") && all.contains("hunt "), "{all}");
}

#[test]
fn generate_with_an_empty_fleet_makes_an_empty_bay() {
    let out = stdout_of(&["generate", "--fleet", ""], b"");
    assert_eq!(out, "prob\n10 10 0\n\n");
    assert_eq!(stdout_of(&[], out.as_bytes()), format!("0\n{}", "..........\n".repeat(10)));
}

#[test]
fn documents_link_only_to_files_in_the_repository() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut docs = vec!["README.md".to_string()];
    for entry in std::fs::read_dir(root.join("report")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            docs.push(format!("report/{name}"));
        }
    }
    assert!(docs.len() >= 10, "{docs:?}");
    for doc in &docs {
        let path = root.join(doc);
        let text = std::fs::read_to_string(&path).unwrap();
        let dir = path.parent().unwrap();
        for (k, _) in text.match_indices("](") {
            let target: String = text[k + 2..].chars().take_while(|&c| c != ')' && c != ' ').collect();
            let target = target.split('#').next().unwrap_or("");
            if target.is_empty() || target.contains("://") {
                continue;
            }
            assert!(!target.contains(".."), "{doc} links outside the repository: {target}");
            assert!(dir.join(target).exists(), "{doc} links to a missing file: {target}");
        }
        assert!(!text.contains("shared/SPEC.md"), "{doc} names a file outside the repository");
        assert!(
            !text.contains("../shared") && !text.contains("cycles.py"),
            "{doc} names a path outside the repository"
        );
        // Documents speak of the project: no tracker numbers, no word of what else ran
        // on the machine a figure was measured on.
        let lower = text.to_lowercase();
        for (k, _) in lower.match_indices("issue ") {
            let next = lower[k + 6..].chars().next().unwrap_or(' ');
            assert!(!next.is_ascii_digit(), "{doc} names a tracker number: {}", &text[k..(k + 12).min(text.len())]);
        }
        for phrase in ["load average", "other agents", "other builds ran", "while other work", "another build"] {
            assert!(!lower.contains(phrase), "{doc} speaks of other work on the machine: `{phrase}`");
        }
        if doc == "README.md" {
            for (k, _) in lower.match_indices("commit ") {
                let word: String = lower[k + 7..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
                let hex = word.len() >= 7 && word.chars().all(|c| c.is_ascii_hexdigit());
                assert!(!hex, "README names a commit: {word}");
            }
            assert!(!lower.contains("md5"), "README quotes a digest");
        }
    }
}

#[test]
fn progress_of_slow_strategies_counts_single_games() {
    // bayes plays a few hundred games a second: the line on a terminal's stderr moves
    // several times a second, by single games, not by blocks of 1,024.
    if std::process::Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to make a terminal");
        return;
    }
    let command = format!(
        "{} simulate --games 3000 --strategies bayes --threads 1 --format csv > /dev/null",
        env!("CARGO_BIN_EXE_spot-the-ships")
    );
    let out = std::process::Command::new("script").args(["-qec", &command, "/dev/null"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let shown: Vec<f64> =
        text.split('\r').filter_map(|l| l.trim().split('%').next().and_then(|p| p.trim().parse().ok())).collect();
    if shown.is_empty() {
        eprintln!("skipped: the run took under a second here");
        return;
    }
    let mut distinct = shown.clone();
    distinct.dedup();
    assert!(distinct.len() >= 2 || shown.len() == 1, "{text:?}");
    // 3,000 games (several seconds, so the line is drawn more than once before 100%):
    // one game is 0.03%; blocks of 1,024 games would show only 0%, 34.1% and 68.3%.
    assert!(shown.iter().any(|&p| p > 0.0 && p < 100.0), "{text:?}");
    let by_block = |p: f64| [0.0, 34.1, 68.3].contains(&p);
    assert!(shown.iter().any(|&p| p < 100.0 && !by_block(p)), "{text:?}");
}

#[test]
fn strategy_lists_accept_all_everywhere() {
    let dir = std::env::temp_dir().join(format!("spot-cli-all-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = stdout_of(&["testset", "--strategies", "all", "--random", "0", "--out", d, "--format", "mooshak"], b"");
    assert!(out.contains("(6 samples, 170 edge, 0 random)"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let _ = std::fs::remove_file(dir.with_file_name(format!(".{name}.testset-manifest")));
    // A problem package's problem has the judge's three rules only: said, not written.
    let err = error_of(&["testset", "--strategies", "all", "--random", "0", "--out", d, "--format", "kattis"], b"");
    assert!(err.contains("the problem package knows the rules linear, smart, prob only, not "), "{err}");
    assert!(!dir.exists());
    let input = std::fs::read(sample("02-prob.in")).unwrap();
    let err = error_of(&["trace", "--strategy", "all"], &input);
    assert!(err.contains("a trace follows one strategy"), "{err}");
    let csv = stdout_of(&["simulate", "--games", "2", "--strategies", "all", "--format", "csv"], b"");
    assert!(csv.contains("\ndensity,") && csv.contains("\nbayes,"), "{csv}");
}

#[test]
fn generate_names_a_strategy_the_rules_allow() {
    // prob by default; under rules prob cannot play (touching or drawn ships), density.
    assert!(stdout_of(&["generate", "--seed", "4"], b"").starts_with("prob\n"));
    for rules in ["classic", "starwars"] {
        let input = stdout_of(&["generate", "--rules", rules, "--seed", "4"], b"");
        assert!(input.starts_with("density\n"), "{rules}: {input}");
        // And the judge plays what generate wrote.
        let out = stdout_of(&["--rules", rules], input.as_bytes());
        assert!(out.lines().any(|l| l.chars().all(|c| c.is_ascii_digit())), "{rules}: {out}");
    }
    let err = error_of(&["generate", "--rules", "classic", "--strategy", "prob"], b"");
    assert!(err.contains("strategy prob cannot play these rules"), "{err}");
}

//! The command line as a user meets it, through the real binary: help for every
//! command in every form, suggestions for typos, input from files, and `--strategy`
//! overriding the input's first line.

mod common;

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

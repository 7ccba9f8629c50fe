//! A reader that goes away is no error, for every command: with its standard output a
//! real pipe that the reader closes early (`| head -1`), each command stops quietly
//! with status 0 and nothing on stderr.

use std::io::{BufRead, BufReader, Write};

/// What the reader does before it goes away.
#[derive(Clone, Copy)]
enum Reader {
    /// Reads one line, as `head -1` does (the command's output is larger than a pipe
    /// holds, so it is still writing when the reader closes).
    OneLine,
    /// Closes the pipe before the command writes anything (its output is small: it
    /// would fit in the pipe's buffer otherwise).
    AtOnce,
}

/// Runs the binary with `args` and `input` on stdin, its stdout a pipe the reader
/// closes as `reader` says; asserts a quiet exit 0.
fn reader_goes_away(what: &str, args: &[&str], input: Vec<u8>, reader: Reader) {
    let mut child = crate::common::spawn(args);
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = child.stdout.take().expect("stdout");
    if let Reader::OneLine = reader {
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("a first line");
        assert!(!line.is_empty(), "{what}: no output at all");
    } else {
        drop(stdout);
    }
    let out = child.wait_with_output().expect("binary finishes");
    writer.join().expect("writer");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{what}: {err}");
    assert!(err.is_empty(), "{what}: stderr {err:?}");
}

/// A judge input: `strategy` on a `rows` x `cols` board with one ship in its far corner.
fn judge_input(strategy: &str, rows: usize, cols: usize) -> Vec<u8> {
    format!("{strategy}\n{rows} {cols} 1\n{} {} 1 E\n", rows - 1, cols - 1).into_bytes()
}

#[test]
fn the_judge() {
    reader_goes_away("judge", &[], judge_input("linear", 1000, 1000), Reader::OneLine);
}

#[test]
fn generate() {
    let args = ["generate", "--rows", "2000", "--cols", "2000", "--density", "0.25"];
    reader_goes_away("generate", &args, Vec::new(), Reader::OneLine);
}

#[test]
fn trace() {
    reader_goes_away("trace", &["trace", "--limit", "2000"], judge_input("linear", 100, 100), Reader::OneLine);
}

#[test]
fn advise() {
    let grid = ".".repeat(300) + "\n";
    let input = grid.repeat(300).into_bytes();
    reader_goes_away("advise", &["advise", "--strategy", "prob"], input, Reader::OneLine);
}

#[test]
fn play() {
    let answers = "miss\n".repeat(100_000).into_bytes();
    let args = ["play", "--rows", "400", "--cols", "400", "--cells", "1", "--strategy", "linear"];
    reader_goes_away("play", &args, answers, Reader::OneLine);
}

#[test]
fn referee() {
    let probes: String = (0..400).flat_map(|r| (0..400).map(move |c| format!("? {r} {c}\n"))).collect();
    let args = ["referee", "--rows", "400", "--cols", "400"];
    reader_goes_away("referee", &args, probes.into_bytes(), Reader::OneLine);
}

#[test]
fn simulate() {
    let args = ["simulate", "--games", "200", "--strategies", "linear,smart"];
    reader_goes_away("simulate", &args, Vec::new(), Reader::AtOnce);
}

#[test]
fn simulate_merge() {
    let shard = std::process::Command::new(env!("CARGO_BIN_EXE_spot-the-ships"))
        .args(["simulate", "--games", "20", "--strategies", "linear", "--shard", "0/1", "--format", "json"])
        .output()
        .expect("simulate");
    assert!(shard.status.success());
    reader_goes_away("merge", &["simulate", "merge", "-"], shard.stdout, Reader::AtOnce);
}

#[test]
fn check() {
    let me = env!("CARGO_BIN_EXE_spot-the-ships");
    let args = ["check", "--random", "3", "--jobs", "1", "--", me];
    reader_goes_away("check", &args, Vec::new(), Reader::AtOnce);
}

#[test]
fn testset() {
    let dir = std::env::temp_dir().join(format!("pipes-testset-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_string_lossy().into_owned();
    let args = ["testset", "--out", out.as_str(), "--format", "kattis", "--random", "3"];
    reader_goes_away("testset", &args, Vec::new(), Reader::AtOnce);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help() {
    reader_goes_away("help", &["help", "simulate"], Vec::new(), Reader::AtOnce);
}

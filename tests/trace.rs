//! The `trace` command: goldens under `tests/trace/` byte for byte, the statement's
//! worked traces (SPEC's prob trace and matrix, Appendix B's smart lists) line by line,
//! every printed matrix against the slow reference likelihood, the judge output at the
//! end, colours, and the error contract.

use crate::common;

use spot_the_ships::game::placement::random_board;
use spot_the_ships::game::rng::Rng;
use std::fs;
use std::path::PathBuf;

const APPENDIX: &str = "5 6 2\n1 1 3 E 3 3 2 S\n";

fn appendix(strategy: &str) -> String {
    format!("{strategy}\n{APPENDIX}")
}

/// Runs `trace` with `args` on `input`; checks success and an empty stderr.
fn trace_with(args: &[&str], input: &str) -> String {
    let mut all = vec!["trace"];
    all.extend_from_slice(args);
    let out = common::run(&all, input.as_bytes());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "status {:?}, stderr {err}", out.status.code());
    assert!(err.is_empty(), "stderr: {err}");
    String::from_utf8(out.stdout).expect("utf-8 trace")
}

fn trace(input: &str) -> String {
    trace_with(&[], input)
}

/// The judge's own output for `input`.
fn judge(input: &str) -> String {
    let out = common::run(&[], input.as_bytes());
    assert!(out.status.success());
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// One scan's block of a plain trace.
#[derive(Debug, Default)]
struct Block {
    header: String,
    matrix: Vec<String>,
    eliminated: String,
    list: Option<String>,
    board: Vec<String>,
}

/// Splits a plain trace into its scan blocks.
fn blocks(text: &str) -> Vec<Block> {
    #[derive(PartialEq)]
    enum In {
        Nothing,
        Matrix,
        Board,
    }
    let mut out: Vec<Block> = Vec::new();
    let mut part = In::Nothing;
    for line in text.lines() {
        if line.starts_with("scan ") {
            out.push(Block { header: line.to_string(), ..Block::default() });
            part = In::Nothing;
            continue;
        }
        if line.is_empty() || line == "judge output:" {
            part = In::Nothing;
            continue;
        }
        let Some(block) = out.last_mut() else { continue };
        if line == "  likelihood matrix read to choose it:" {
            part = In::Matrix;
        } else if line == "  board:" {
            part = In::Board;
        } else if let Some(rest) = line.strip_prefix("    ") {
            match part {
                In::Matrix => block.matrix.push(rest.to_string()),
                In::Board => block.board.push(rest.to_string()),
                In::Nothing => panic!("stray line {line:?}"),
            }
        } else if let Some(rest) = line.strip_prefix("  eliminated: ") {
            block.eliminated = rest.to_string();
        } else if let Some(rest) = line.strip_prefix("  ") {
            block.list = Some(rest.to_string());
        }
    }
    out
}

fn golden(name: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/trace");
    let input = fs::read_to_string(dir.join(format!("{name}.in"))).expect("golden input");
    let expected = fs::read_to_string(dir.join(format!("{name}.out"))).expect("golden output");
    let got = trace_with(&["--color", "never"], &input);
    assert!(got == expected, "{name}: trace differs from the golden\n--- got\n{got}--- expected\n{expected}");
    // The golden itself ends with what the judge prints.
    assert!(expected.ends_with(&format!("\njudge output:\n{}", judge(&input))));
}

#[test]
fn golden_appendix_prob() {
    golden("appendix-prob");
}

#[test]
fn golden_appendix_smart() {
    golden("appendix-smart");
}

#[test]
fn golden_appendix_linear() {
    golden("appendix-linear");
}

#[test]
fn golden_empty_fleet() {
    golden("empty-fleet");
}

#[test]
fn prob_scans_follow_the_spec_worked_trace() {
    let headers: Vec<String> = blocks(&trace(&appendix("prob"))).into_iter().map(|b| b.header).collect();
    let expected = [
        "scan 1: (2,2) from matrix, miss",
        "scan 2: (1,3) from matrix, hit",
        "scan 3: (0,3) from list front, miss",
        "scan 4: (1,4) from list front, miss",
        "scan 5: (2,3) from list front, miss",
        "scan 6: (1,2) from list front, hit",
        "scan 7: (1,1) from list front, hit",
        "scan 8: (1,0) from list front, miss",
        "scan 9: (3,2) from matrix, miss",
        "scan 10: (4,3) from matrix, hit",
        "scan 11: (3,3) from list front, hit",
    ];
    assert_eq!(headers, expected);
}

#[test]
fn prob_scan_2_lists_the_four_neighbours() {
    let b = blocks(&trace(&appendix("prob")));
    assert_eq!(b[1].list.as_deref(), Some("highProbabilityList: (0,3) (1,4) (2,3) (1,2)"));
    assert_eq!(b[1].eliminated, "(0,4) (2,4) (0,2)");
}

#[test]
fn prob_lists_follow_the_spec_worked_trace() {
    let b = blocks(&trace(&appendix("prob")));
    let lists: Vec<&str> = b.iter().map(|b| b.list.as_deref().unwrap_or("-")).collect();
    let expected = [
        "highProbabilityList: (empty)",
        "highProbabilityList: (0,3) (1,4) (2,3) (1,2)",
        "highProbabilityList: (1,4) (2,3) (1,2)",
        "highProbabilityList: (2,3) (1,2)",
        "highProbabilityList: (1,2)",
        "highProbabilityList: (1,1)",
        "highProbabilityList: (1,0)",
        "highProbabilityList: (empty)",
        "highProbabilityList: (empty)",
        "highProbabilityList: (3,3) (4,4) (4,2)",
        "highProbabilityList: (empty)",
    ];
    assert_eq!(lists, expected);
}

#[test]
fn prob_matrix_before_scan_9_equals_spec() {
    let b = blocks(&trace(&appendix("prob")));
    let spec =
        ["-1 -1 -1 -1 -1  6", "-1 -1 -1 -1 -1  9", "-1 -1 -1 -1 -1 10", " 7 11 13 13 11 13", " 7 11 13 13 11 10"];
    assert_eq!(b[8].matrix, spec);
}

#[test]
fn prob_matrices_are_printed_exactly_when_read() {
    let b = blocks(&trace(&appendix("prob")));
    let with_matrix: Vec<usize> = (0..b.len()).filter(|&k| !b[k].matrix.is_empty()).map(|k| k + 1).collect();
    assert_eq!(with_matrix, vec![1, 2, 9, 10]);
    // The statement's empty-board matrix, and Appendix C's two other reads.
    let empty =
        ["10 14 16 16 14 10", "13 17 19 19 17 13", "14 18 20 20 18 14", "13 17 19 19 17 13", "10 14 16 16 14 10"];
    assert_eq!(b[0].matrix, empty);
    let second =
        ["10 14 13 16 14 10", "13 17 13 19 17 13", "11 11 -1 12 13 12", "13 17 13 19 17 13", "10 14 13 16 14 10"];
    assert_eq!(b[1].matrix, second);
    let tenth =
        ["-1 -1 -1 -1 -1  6", "-1 -1 -1 -1 -1  9", "-1 -1 -1 -1 -1 10", " 4  4 -1  5  6 11", " 7 11 12 13 11 10"];
    assert_eq!(b[9].matrix, tenth);
}

#[test]
fn smart_lists_follow_appendix_b() {
    let b = blocks(&trace(&appendix("smart")));
    assert_eq!(b.len(), 19);
    let at = |scan: usize| b[scan - 1].list.clone().unwrap_or_default();
    assert_eq!(b[7].header, "scan 8: (1,1) from list front, hit");
    assert!(at(8).starts_with("boardList: (1,2) (2,1) (1,3) (1,4) (1,5) (2,3) (2,4) "), "{}", at(8));
    assert!(at(8).ends_with(" ... (+8 more)"), "{}", at(8));
    assert!(at(9).starts_with("boardList: (1,3) (1,4) (1,5) (2,4) (2,5) (3,0) (3,1) (3,2) (3,3) "));
    assert!(at(10).starts_with("boardList: (1,4) (1,5) (2,5) (3,0) (3,1) (3,2) (3,3) (3,4) (3,5) (4,0) "));
    assert_eq!(at(16), "boardList: (3,3) (3,4) (3,5) (4,0) (4,1) (4,2) (4,3) (4,4) (4,5)");
    assert_eq!(at(17), "boardList: (3,4) (4,3) (3,5) (4,0) (4,1) (4,5)");
    assert_eq!(at(18), "boardList: (4,3) (3,5) (4,0) (4,1) (4,5)");
    assert_eq!(at(19), "boardList: (3,5) (4,0) (4,1) (4,5)");
    assert_eq!(b[16].eliminated, "(4,4) (4,2)");
}

#[test]
fn smart_list_shows_twelve_cells_and_counts_the_rest() {
    let b = blocks(&trace(&appendix("smart")));
    let first = b[0].list.clone().unwrap_or_default();
    assert_eq!(
        first,
        "boardList: (0,1) (0,2) (0,3) (0,4) (0,5) (1,0) (1,1) (1,2) (1,3) (1,4) (1,5) (2,0) ... (+17 more)"
    );
}

#[test]
fn linear_has_no_list_and_no_matrix() {
    let b = blocks(&trace(&appendix("linear")));
    assert_eq!(b.len(), 28);
    assert!(b.iter().all(|b| b.list.is_none() && b.matrix.is_empty() && b.eliminated == "none"));
    assert_eq!(b[27].header, "scan 28: (4,3) from row-major order, hit");
}

#[test]
fn boards_are_the_judge_grid_after_each_step() {
    let text = trace(&appendix("prob"));
    let b = blocks(&text);
    let last = b.last().map(|b| b.board.join("\n") + "\n").unwrap_or_default();
    assert!(judge(&appendix("prob")).ends_with(&last));
    // Each board differs from the one before only at the probed and eliminated cells.
    let mut before: Vec<Vec<u8>> =
        vec![b"......".to_vec(), b".OOO..".to_vec(), b"......".to_vec(), b"...O..".to_vec(), b"...O..".to_vec()];
    for block in &b {
        let cell = |s: &str| -> (usize, usize) {
            let (r, c) = s.trim_matches(|ch| ch == '(' || ch == ')').split_once(',').unwrap();
            (r.parse().unwrap(), c.parse().unwrap())
        };
        let probed = cell(block.header.split(' ').nth(2).unwrap());
        let mut changed = vec![probed];
        if block.eliminated != "none" {
            changed.extend(block.eliminated.split(' ').map(cell));
        }
        for (r, row) in block.board.iter().enumerate() {
            for (c, ch) in row.bytes().enumerate() {
                if changed.contains(&(r, c)) {
                    assert!(ch == b'X' || ch == b'+', "{}: ({r},{c}) is {}", block.header, ch as char);
                } else {
                    assert_eq!(ch, before[r][c], "{}: ({r},{c}) changed", block.header);
                }
            }
        }
        before = block.board.iter().map(|l| l.as_bytes().to_vec()).collect();
    }
}

/// Every printed matrix equals the reference likelihood of the cells blocked on the
/// board drawn just before it.
fn check_matrices(input: &str) -> usize {
    let problem = common::parse(input);
    let b = blocks(&trace(input));
    let mut blocked = vec![vec![false; problem.cols]; problem.rows];
    let mut read = 0;
    for block in &b {
        if !block.matrix.is_empty() {
            let m = common::likelihood(problem.rows, problem.cols, &blocked);
            let width = m.iter().flatten().map(|v| v.to_string().len()).max().unwrap();
            let expected: Vec<String> =
                m.iter().map(|row| row.iter().map(|v| format!("{v:>width$}")).collect::<Vec<_>>().join(" ")).collect();
            assert_eq!(block.matrix, expected, "{input}: {}", block.header);
            read += 1;
        }
        for (r, row) in block.board.iter().enumerate() {
            for (c, ch) in row.bytes().enumerate() {
                blocked[r][c] = ch == b'X' || ch == b'+';
            }
        }
    }
    read
}

#[test]
fn matrices_agree_with_the_reference_likelihood() {
    assert_eq!(check_matrices(&appendix("prob")), 4);
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut reads = 0;
    for entry in fs::read_dir(samples).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".in") && name.contains("prob") {
            reads += check_matrices(&fs::read_to_string(&path).unwrap());
        }
    }
    assert!(reads > 10);
}

#[test]
fn trace_ends_with_exactly_the_judge_output() {
    let mut inputs: Vec<String> = ["prob", "smart", "linear", "random"].iter().map(|s| appendix(s)).collect();
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples");
    for entry in fs::read_dir(samples).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "in") {
            inputs.push(fs::read_to_string(&path).unwrap());
        }
    }
    let mut rng = Rng::new(2024);
    for k in 0..40 {
        let board = random_board(1 + rng.below(10) as usize, 1 + rng.below(10) as usize, &mut rng).unwrap();
        let mut text = format!(
            "{}\n{} {} {}\n",
            ["linear", "smart", "prob", "random"][k % 4],
            board.rows(),
            board.cols(),
            board.ships().len()
        );
        for ship in board.ships() {
            text.push_str(&format!("{ship}\n"));
        }
        inputs.push(text);
    }
    for input in &inputs {
        let out = trace(input);
        let expected = judge(input);
        assert!(out.ends_with(&format!("\n\njudge output:\n{expected}")), "{input}\n{out}");
        let scans: usize = expected.lines().next().unwrap().parse().unwrap();
        assert_eq!(blocks(&out).len(), scans, "{input}");
        for (k, block) in blocks(&out).iter().enumerate() {
            assert!(block.header.starts_with(&format!("scan {}: (", k + 1)), "{}", block.header);
        }
    }
}

#[test]
fn trace_starts_by_naming_the_strategy_and_board() {
    assert!(trace(&appendix("prob")).starts_with("trace of prob on a 5x6 board: 2 ships, 5 ship cells\n\nscan 1: "));
    assert!(trace("linear\n1 1 1\n0 0 1 E\n").starts_with("trace of linear on a 1x1 board: 1 ship, 1 ship cell\n"));
}

#[test]
fn random_trace_follows_the_seed() {
    let input = appendix("random");
    let a = trace_with(&["--seed", "7"], &input);
    assert_eq!(a, trace_with(&["--seed=7"], &input));
    assert!(a.contains(" from random order, "));
    assert!(blocks(&a).iter().all(|b| b.list.is_none()));
    let out = common::run(&["--seed", "7"], input.as_bytes());
    assert!(a.ends_with(&String::from_utf8(out.stdout).unwrap()));
}

#[test]
fn color_always_emits_ansi_escapes() {
    let text = trace_with(&["--color", "always"], &appendix("prob"));
    assert!(text.contains("\x1b["));
    for code in ["\x1b[1;31m+", "\x1b[34mX", "\x1b[33mX", "\x1b[1;33mX", "\x1b[30;42m"] {
        assert!(text.contains(code), "{code:?} missing");
    }
    // Without the escapes it is the plain trace.
    let mut plain = String::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find('\x1b') {
        plain.push_str(&rest[..i]);
        let tail = &rest[i..];
        rest = &tail[tail.find('m').unwrap() + 1..];
    }
    plain.push_str(rest);
    assert_eq!(plain, trace(&appendix("prob")));
    // The judge output at the end is never coloured.
    assert!(text.ends_with(&format!("\njudge output:\n{}", judge(&appendix("prob")))));
}

#[test]
fn color_never_and_auto_on_a_pipe_emit_none() {
    for args in [&["--color", "never"][..], &["--color=auto"][..], &[][..]] {
        let text = trace_with(args, &appendix("smart"));
        assert!(!text.contains('\x1b'), "{args:?}");
    }
}

/// Checks the error contract: exit 2, one `error: ` line, nothing on stdout.
fn refuse(args: &[&str], input: &[u8]) -> String {
    let mut all = vec!["trace"];
    all.extend_from_slice(args);
    let out = common::run(&all, input);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "stderr {err}");
    assert!(out.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&out.stdout));
    assert!(err.starts_with("error: ") && err.ends_with('\n') && err.matches('\n').count() == 1, "{err:?}");
    err
}

#[test]
fn bad_input_exits_2_with_an_error_line() {
    assert!(refuse(&[], b"").contains("empty input"));
    assert!(refuse(&[], b"fastest\n5 6 0\n").contains("unknown strategy"));
    refuse(&[], b"prob\n5 6 1\n4 4 3 E\n");
    refuse(&[], b"prob\n5 6 2\n1 1 3 E 2 2 1 E\n");
}

#[test]
fn bad_flags_exit_2_with_an_error_line() {
    assert!(refuse(&["--color", "sometimes"], APPENDIX.as_bytes()).contains("--color"));
    assert!(refuse(&["--color"], b"").contains("--color"));
    assert!(refuse(&["--seed", "x"], b"").contains("--seed"));
    assert!(refuse(&["--verbose"], b"").contains("--verbose"));
}

#[test]
fn help_prints_usage_and_the_format() {
    for flag in ["--help", "-h"] {
        let out = common::run(&["trace", flag], b"");
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("spot-the-ships trace [OPTIONS] [FILE]"), "{text}");
        for part in ["--color WHEN", "auto", "always", "never", "--seed S", "--strategy NAME"] {
            assert!(text.contains(part), "{part} missing from {text}");
        }
        assert!(text.contains("boardList") && text.contains("highProbabilityList") && text.contains("judge output:"));
        assert!(out.stderr.is_empty());
    }
}

//! Golden files: every `samples/*.in` run through the real binary must print exactly
//! its `.out`, byte for byte. Inputs whose strategy the slow reference implementation
//! knows are also checked against it, so a golden cannot be silently wrong.

use crate::common;

use std::fs;
use std::path::PathBuf;

fn samples() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_sample_matches_byte_for_byte() {
    let files = samples();
    assert!(files.len() >= 21, "expected the 6 statement samples and at least 15 more, found {}", files.len());
    let mut failures = Vec::new();
    for input in &files {
        let expected = fs::read(input.with_extension("out")).unwrap();
        let out = common::run(&[], &fs::read(input).unwrap());
        if !out.status.success() || out.stdout != expected {
            failures.push(format!(
                "{}: status {:?}\n--- got\n{}--- expected\n{}",
                input.display(),
                out.status.code(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&expected)
            ));
        }
        assert!(out.stderr.is_empty(), "{}: stderr {}", input.display(), String::from_utf8_lossy(&out.stderr));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn goldens_agree_with_the_reference_implementation() {
    let mut checked = 0;
    for input in samples() {
        let text = fs::read_to_string(&input).unwrap();
        let problem = common::parse(&text);
        if !["linear", "smart", "prob"].contains(&problem.strategy.as_str()) {
            continue;
        }
        let expected = fs::read_to_string(input.with_extension("out")).unwrap();
        assert_eq!(common::solve(&problem), expected, "{}", input.display());
        checked += 1;
    }
    assert!(checked >= 20);
}

/// Goldens under other rules: `tests/rules/NAME.in` is run with the arguments of
/// `NAME.args` (one line of words) and must print exactly `NAME.out`.
#[test]
fn rule_goldens_match_byte_for_byte() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/rules");
    let mut inputs: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 5, "{inputs:?}");
    for input in inputs {
        let args_text = fs::read_to_string(input.with_extension("args")).unwrap();
        let mut args: Vec<&str> = args_text.split_whitespace().collect();
        let path = input.to_str().unwrap();
        args.push(path);
        let out = common::run(&args, b"");
        let expected = fs::read_to_string(input.with_extension("out")).unwrap();
        assert_eq!(out.status.code(), Some(0), "{path}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{path}");
    }
}

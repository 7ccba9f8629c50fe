//! Bad input: one line on stderr starting with `error: ` that says what and where, exit
//! status 2, nothing on stdout. One test per case.

use crate::common;

/// Runs the judge on `input` and checks the error contract; returns the message.
fn refuse(input: &[u8]) -> String {
    refuse_with(&[], input)
}

fn refuse_with(args: &[&str], input: &[u8]) -> String {
    let out = common::run(args, input);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "status for {:?}: stderr {err}", String::from_utf8_lossy(input));
    assert!(out.stdout.is_empty(), "stdout not empty: {}", String::from_utf8_lossy(&out.stdout));
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.ends_with('\n') && err.matches('\n').count() == 1, "not one line: {err:?}");
    err
}

fn has(err: &str, parts: &[&str]) {
    for p in parts {
        assert!(err.contains(p), "`{p}` missing from {err}");
    }
}

#[test]
fn empty_input() {
    has(&refuse(b""), &["empty input"]);
    has(&refuse(b"  \r\n\t \n"), &["empty input"]);
}

#[test]
fn unknown_strategy_lists_valid_names() {
    has(&refuse(b"fastest\n5 6 0\n"), &["unknown strategy `fastest`", "line 1", "linear", "smart", "prob"]);
}

#[test]
fn missing_number() {
    has(&refuse(b"prob\n5\n"), &["number of columns", "missing"]);
}

#[test]
fn non_numeric_number() {
    has(&refuse(b"prob\n5 six 0\n"), &["number of columns", "`six`", "line 2"]);
}

#[test]
fn negative_number() {
    has(&refuse(b"prob\n5 6 1\n1 -1 2 E\n"), &["ship 1: column", "`-1`", "negative", "line 3"]);
}

#[test]
fn overflowing_number() {
    has(&refuse(b"prob\n5 6 1\n1 1 184467440737095516160 E\n"), &["ship 1: size", "too large"]);
}

#[test]
fn zero_rows_or_cols() {
    has(&refuse(b"prob\n0 6 0\n"), &["0x6", "at least 1"]);
    has(&refuse(b"prob\n6 0 0\n"), &["6x0", "at least 1"]);
}

#[test]
fn board_over_the_cell_limit() {
    has(&refuse(b"prob\n10001 10000 0\n"), &["10001x10000", "100000000 cells"]);
}

#[test]
fn fewer_ships_than_declared() {
    has(&refuse(b"prob\n5 6 3\n1 1 4 E 3 3 2 S\n"), &["ship 3: row", "after 2 complete ship(s)", "3 were declared"]);
    has(&refuse(b"prob\n5 6 2\n1 1 4 E 3 3\n"), &["ship 2: size", "missing"]);
}

#[test]
fn tokens_after_the_last_ship() {
    has(&refuse(b"prob\n5 6 1\n1 1 4 E\n3 3 2 S\n"), &["unexpected `3`", "line 4", "1 declared"]);
}

#[test]
fn orientation_other_than_e_or_s() {
    has(&refuse(b"prob\n5 6 2\n1 1 4 E 3 3 2 W\n"), &["ship 2", "E or S", "`W`"]);
}

#[test]
fn size_outside_one_to_five() {
    has(&refuse(b"prob\n9 9 1\n1 1 6 E\n"), &["ship 1", "size 6", "1..=5"]);
    has(&refuse(b"prob\n9 9 2\n1 1 1 E 5 5 0 S\n"), &["ship 2", "size 0"]);
}

#[test]
fn ship_leaving_the_board() {
    has(&refuse(b"prob\n5 6 2\n1 1 4 E 3 3 3 S\n"), &["ship 2", "3 3 3 S", "leaves the 5x6 board"]);
    has(&refuse(b"prob\n5 6 1\n7 0 1 E\n"), &["ship 1", "leaves"]);
}

#[test]
fn overlapping_ships() {
    has(&refuse(b"prob\n5 6 2\n1 1 4 E 0 2 3 S\n"), &["ship 2 overlaps ship 1 at (1,2)"]);
}

#[test]
fn touching_ships_side_by_side() {
    has(&refuse(b"prob\n5 6 2\n1 1 2 E 1 3 1 E\n"), &["ship 2 touches ship 1", "(1,3) is beside (1,2)"]);
}

#[test]
fn touching_ships_diagonally() {
    has(&refuse(b"prob\n5 6 2\n1 1 2 E 2 3 2 S\n"), &["ship 2 touches ship 1", "(2,3) is diagonally next to (1,2)"]);
}

#[test]
fn bad_bytes_do_not_panic() {
    has(&refuse(&[0xff, 0xfe, b'\n', 0]), &["unknown strategy"]);
    has(&refuse(b"prob\n5 6 1\n1 1 4 \xff\n"), &["orientation"]);
}

#[test]
fn bad_seed_flag() {
    has(&refuse_with(&["--seed", "abc"], b"random\n1 1 0\n"), &["--seed", "abc"]);
    has(&refuse_with(&["--frobnicate"], b""), &["unknown argument"]);
}

//! Hostile inputs outside the HTTP server: counts too large for a JSON number, errors
//! found after output began, fleets that cannot fit, answers no layout explains, and
//! case files that are not regular files. Each test runs the real binary.

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
    let dir = std::env::temp_dir().join(format!("untrusted-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_layout_count_past_the_largest_float_is_still_json() {
    let dir = scratch("json");
    let grid = dir.join("row.txt");
    std::fs::write(&grid, format!("{}\n", ".".repeat(2500))).unwrap();
    let fleet = vec!["1"; 800].join(",");
    let grid = grid.to_string_lossy().into_owned();
    let args = ["advise", "--strategy", "bayes", "--fleet", &fleet, "--format", "json", &grid];
    let out = common::run(&args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(!text.contains("inf") && !text.contains("NaN"), "{}", &text[..200.min(text.len())]);
    let value = spot_the_ships::render::json::parse(text.trim_end()).expect("the crate's reader takes it");
    let _ = value;
    assert!(text.contains("\"layouts\": null, \"layouts_overflow\": true"), "{}", &text[..200.min(text.len())]);
    // An independent reader takes it too.
    let mut python = std::process::Command::new("python3")
        .args(["-m", "json.tool"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    use std::io::Write;
    python.stdin.take().unwrap().write_all(&out.stdout).unwrap();
    let checked = python.wait_with_output().unwrap();
    assert!(checked.status.success(), "json.tool: {}", String::from_utf8_lossy(&checked.stderr));
    // The text stays readable: the fleet is summed up, not 1,600 characters of `1,`.
    let out = common::run(&["advise", "--strategy", "bayes", "--fleet", &fleet, &grid], b"");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let head = text.lines().next().unwrap();
    assert!(head.contains("fleet of 800 ships and 800 cells") && head.len() < 200, "{head}");
    let _ = std::fs::remove_dir_all(&dir);
}

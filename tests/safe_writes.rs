//! Files the program writes (issue 25.1, 25.2, 25.4), through the real binary: a
//! failing `testset --force` leaves the old test set as it was and no temporary folder;
//! a temporary folder left by a killed run is removed by the next; `--force` replaces
//! only what a test set's manifest lists; `check --keep` never writes through a
//! symbolic link.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A fresh scratch folder `safe-writes-NAME-PID` (its parent is the system's temp dir).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("safe-writes-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(out: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Every file and link under `dir` (hidden ones too), by relative path: the bytes of a
/// file, `-> TARGET` for a link.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            if meta.file_type().is_symlink() {
                out.insert(rel, format!("-> {}", std::fs::read_link(&p).unwrap().display()).into_bytes());
            } else if meta.is_dir() {
                out.insert(format!("{rel}/"), Vec::new());
                walk(root, &p, out);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The names in `dir`.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// Runs the binary with `args` in the folder `dir`.
fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_spot-the-ships"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

fn testset(args: &[&str]) -> std::process::Output {
    common::run(&[&["testset"][..], args].concat(), b"")
}

#[test]
fn a_failing_rewrite_leaves_the_old_set_as_it_was() {
    let parent = scratch("zip");
    let set = parent.join("set");
    let s = set.to_str().unwrap();
    let out = testset(&["--out", s, "--format", "mooshak", "--random", "5"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let before = tree(&set);
    assert!(before.contains_key("tests/T062/input.txt"), "{:?}", before.keys().collect::<Vec<_>>());
    let out = testset(&["--out", s, "--format", "mooshak", "--random", "40000", "--force"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("too large for the ZIP format"), "{}", text(&out));
    assert!(tree(&set) == before, "the old test set changed");
    // The set and its manifest (beside it), and no temporary folder.
    assert_eq!(names(&parent), [".set.testset-manifest", "set"], "a temporary folder was left behind");
    std::fs::remove_dir_all(&parent).unwrap();
}

#[test]
fn a_temporary_folder_left_by_a_killed_run_is_removed() {
    let parent = scratch("stale");
    // A process that has ended: its pid names the stale folders.
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let pid = gone.id();
    gone.wait().unwrap();
    let stale = parent.join(format!(".set.testset-tmp-{pid}"));
    std::fs::create_dir_all(stale.join("tests/T001")).unwrap();
    std::fs::write(stale.join("tests/T001/input.txt"), "half").unwrap();
    // Another program's hidden folder is no concern of testset.
    std::fs::create_dir_all(parent.join(".set.other")).unwrap();
    let set = parent.join("set");
    let out = testset(&["--out", set.to_str().unwrap(), "--format", "kattis", "--random", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(names(&parent), [".set.other", ".set.testset-manifest", "set"]);
    std::fs::remove_dir_all(&parent).unwrap();
}

#[test]
fn force_replaces_only_what_a_manifest_lists() {
    // A project of one's own: `testset --out . --format mooshak --force` in it.
    let project = scratch("project");
    std::fs::create_dir_all(project.join("tests")).unwrap();
    std::fs::write(project.join("tests/check.rs"), "// my tests").unwrap();
    std::fs::write(project.join("README.md"), "mine").unwrap();
    let before = tree(&project);
    let out = run_in(&project, &["testset", "--out", ".", "--format", "mooshak", "--force"]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert!(err.starts_with("error: testset: `./tests` ") && err.contains("manifest"), "{err}");
    assert_eq!(err.matches('\n').count(), 1, "{err}");
    assert!(tree(&project) == before, "something was deleted");
    std::fs::remove_dir_all(&project).unwrap();

    // A test set of its own is rewritten; files beside it are kept.
    let dir = scratch("rewrite");
    let d = dir.to_str().unwrap();
    let out = testset(&["--out", d, "--format", "mooshak", "--random", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let out = testset(&["--out", d, "--format", "mooshak", "--random", "4", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(dir.join("tests/T061/input.txt").is_file() && dir.join("notes.txt").is_file());
    // Switching layouts replaces the old layout's files too (they are in the manifest).
    let out = testset(&["--out", d, "--format", "kattis", "--random", "4", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(!dir.join("tests").exists() && !dir.join("tests.zip").exists() && dir.join("data").is_dir());
    // A file slipped into the test set is not the set's: refused, named, nothing lost.
    std::fs::write(dir.join("data/secret/mine.in"), "mine").unwrap();
    let before = tree(&dir);
    let out = testset(&["--out", d, "--format", "kattis", "--random", "5", "--force"]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("data/secret/mine.in` is not in"), "{err}");
    assert!(tree(&dir) == before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn keep_never_writes_through_a_symbolic_link() {
    let dir = scratch("keep");
    let precious = dir.join("precious.txt");
    std::fs::write(&precious, "precious").unwrap();
    let keep = dir.join("kept");
    std::fs::create_dir_all(&keep).unwrap();
    for ext in ["in", "out", "got"] {
        std::os::unix::fs::symlink(&precious, keep.join(format!("sample-00-linear.{ext}"))).unwrap();
    }
    let out = common::run(
        &[
            "check",
            "--only",
            "sample-00-linear",
            "--shrink-budget",
            "0",
            "--keep",
            keep.to_str().unwrap(),
            "--",
            "sh",
            "-c",
            "cat >/dev/null; echo 1",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "precious", "--keep wrote through a link");
    let input = std::fs::read_to_string(keep.join("sample-00-linear.in")).unwrap();
    assert!(input.starts_with("linear\n5 6 2\n"), "{input}");
    assert_eq!(std::fs::read_to_string(keep.join("sample-00-linear.got")).unwrap(), "1\n");
    // in, out, got and err (stderr in full).
    assert_eq!(names(&keep).len(), 4, "{:?}", names(&keep));
    std::fs::remove_dir_all(&dir).unwrap();
}

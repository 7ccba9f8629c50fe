//! `testset` through the real binary: the Mooshak, Kattis and DOMjudge layouts, the
//! same files for the same seed, the refusal to write into a non-empty directory, and
//! a test set `check` reads back with every case accepted for this program.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("testset-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The manifest of the test set in `dir`, beside it.
fn manifest(dir: &Path) -> PathBuf {
    dir.with_file_name(format!(".{}.testset-manifest", dir.file_name().unwrap().to_str().unwrap()))
}

/// Removes the test set in `dir` and its manifest.
fn remove(dir: &Path) {
    std::fs::remove_dir_all(dir).unwrap();
    let _ = std::fs::remove_file(manifest(dir));
}

fn testset(args: &[&str]) -> std::process::Output {
    let mut all = vec!["testset"];
    all.extend_from_slice(args);
    common::run(&all, b"")
}

/// Every file under `dir` (hidden ones too), by relative path.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(name)).unwrap()
}

#[test]
fn mooshak_layout_with_its_import_files() {
    let dir = temp("mooshak");
    let out = testset(&["--out", dir.to_str().unwrap(), "--format", "mooshak"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("wrote 357 cases (6 samples, 51 edge, 300 random) as "), "{said}");
    let f = files(&dir);
    assert_eq!(f["tests/T001/input.txt"], sample("00-linear.in"));
    assert_eq!(f["tests/T006/output.txt"], sample("05-prob.out"));
    assert!(f.contains_key("tests/T357/output.txt") && !f.contains_key("tests/T358/input.txt"));
    assert_eq!(f["tests/.class.tcl"], b"return Tests\n");
    assert_eq!(f["tests/T100/.class.tcl"], b"return Test\n");
    let data = String::from_utf8_lossy(&f["tests/T100/.data.tcl"]).into_owned();
    assert!(data.contains("set input input.txt\nset output output.txt\n") && data.contains("set Show no\n"), "{data}");
    let index = String::from_utf8_lossy(&f["cases.txt"]).into_owned();
    assert_eq!(index.lines().count(), 357);
    assert!(index.starts_with("T001 sample-00-linear\nT002 sample-01-smart\n"), "{index}");
    // The archive for Mooshak 2's import: Content.xml and the tests' files.
    let listing = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; \
                      print(len(z.namelist())); print(z.read('T357/output.txt').decode(), end='')",
        ])
        .arg(dir.join("tests.zip"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&listing.stdout).into_owned();
    let (count, last) = text.split_once('\n').unwrap();
    assert_eq!(count, (1 + 2 * 357).to_string(), "{}", String::from_utf8_lossy(&listing.stderr));
    assert_eq!(last.as_bytes(), f["tests/T357/output.txt"]);
    let xml = String::from_utf8_lossy(&f["tests/Content.xml"]).into_owned();
    assert!(xml.contains("<Tests xmlns=\"http://www.ncc.up.pt/mooshak/\" xml:id=\"tests\""), "{xml}");
    assert_eq!(xml.matches("<Test xml:id=").count(), 357);
    remove(&dir);
}

#[test]
fn kattis_and_domjudge_layouts_that_check_reads_back() {
    let dir = temp("kattis");
    let out = testset(&["--out", dir.to_str().unwrap(), "--format", "kattis", "--random", "20"]);
    assert_eq!(out.status.code(), Some(0));
    let f = files(&dir);
    assert!(f["problem.yaml"].starts_with(b"name: Spot the ships\n"));
    assert_eq!(f["data/sample/001-sample-00-linear.in"], sample("00-linear.in"));
    assert_eq!(f["data/sample/006-sample-05-prob.ans"], sample("05-prob.out"));
    assert!(f.contains_key("data/secret/001-edge-empty-1x1-linear.in"));
    assert!(f.contains_key("data/secret/071-random-2021-19-smart.ans"));
    // The package: the data, the statement, the validator and the submissions (two
    // accepted, 14 planted-bug ones of two files each), and beside it the manifest
    // (`testset --force` replaces only what it lists).
    assert_eq!(f.len(), 1 + 2 * 77 + 2 + 2 + 2 * 14);
    assert!(f.contains_key("problem_statement/problem.en.tex") && f.contains_key("input_validators/validate.py"));
    assert!(f.contains_key("submissions/accepted/spot.py") && f.contains_key("submissions/accepted/spot.cpp"));
    assert!(f.contains_key("submissions/wrong_answer/crlf/main.py"));
    assert!(f.keys().all(|k| !k.starts_with('.') && !k.contains("/.")), "only names the format allows");
    let manifest = std::fs::read(manifest(&dir)).unwrap();
    assert_eq!(manifest.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count(), 1 + f.len());
    let data = dir.join("data");
    let out = common::run(
        &["check", "--cases", data.to_str().unwrap(), "--no-builtin", "--", env!("CARGO_BIN_EXE_spot-the-ships")],
        b"",
    );
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(report.contains("77 cases: 77 user;"), "{report}");
    remove(&dir);
    // An input repeated (random cases that draw an edge board) is written once.
    let out = testset(&["--out", dir.to_str().unwrap(), "--format", "kattis", "--random", "30", "--force"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("wrote 85 cases (6 samples, 51 edge, 28 random) as "), "{said}");
    remove(&dir);

    let out = testset(&["--out", dir.to_str().unwrap(), "--format", "domjudge", "--random", "0", "--time-limit", "3"]);
    assert_eq!(out.status.code(), Some(0));
    let f = files(&dir);
    assert_eq!(f["domjudge-problem.ini"], b"name='Spot the ships'\ntimelimit='3'\n");
    assert!(f.contains_key("problem.yaml") && f.contains_key("data/secret/051-edge-big-30x30-prob.ans"));
    remove(&dir);
    // The large cases only with --large.
    let out = testset(&["--out", dir.to_str().unwrap(), "--format", "kattis", "--random", "0", "--large"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("wrote 60 cases (6 samples, 54 edge, 0 random)"));
    assert!(files(&dir).contains_key("data/secret/054-edge-large-300x300-prob.ans"));
    remove(&dir);
}

#[test]
fn same_seed_same_files_and_a_non_empty_directory_needs_force() {
    let (a, b) = (temp("seed-a"), temp("seed-b"));
    for dir in [&a, &b] {
        let out = testset(&["--out", dir.to_str().unwrap(), "--format", "mooshak", "--random", "30", "--seed", "9"]);
        assert_eq!(out.status.code(), Some(0));
    }
    assert_eq!(files(&a), files(&b));
    let out = testset(&["--out", a.to_str().unwrap(), "--format", "mooshak", "--random", "30", "--seed", "10"]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty() && err.starts_with("error: testset: `") && err.contains("--force"), "{err}");
    let out =
        testset(&["--out", a.to_str().unwrap(), "--format", "mooshak", "--random", "30", "--seed", "10", "--force"]);
    assert_eq!(out.status.code(), Some(0));
    assert_ne!(files(&a), files(&b));
    for dir in [a, b] {
        remove(&dir);
    }
    for (args, message) in [
        (&["--format", "kattis"][..], "error: testset: --out is required"),
        (&["--out", "x"][..], "error: testset: --format is required"),
        (
            &["--out", "x", "--format", "hackerrank"][..],
            "error: testset: --format: expected mooshak, kattis, kattis-2023 or domjudge",
        ),
    ] {
        let out = testset(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(err.starts_with(message), "{args:?}: {err}");
    }
}

#[test]
fn missing_parent_folders_of_out_are_created() {
    let root = temp("parents");
    let dir = root.join("a/b/c");
    let out = testset(&["--out", dir.to_str().unwrap(), "--format", "kattis", "--random", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(dir.join("problem.yaml").is_file() && manifest(&dir).is_file());
    std::fs::remove_dir_all(&root).unwrap();
}

/// Under `ulimit -f` (a real shell's), a write past the limit is an error line and
/// exit status 2, not death by SIGXFSZ, and the set already there stays as it was.
#[test]
fn a_file_size_limit_is_an_error_and_the_old_set_stays() {
    let dir = temp("ulimit");
    let out = testset(&["--out", dir.to_str().unwrap(), "--format", "mooshak", "--random", "3"]);
    assert_eq!(out.status.code(), Some(0));
    let before = files(&dir);
    let script = format!(
        "ulimit -f 20 && exec {} testset --format mooshak --random 3000 --force --out {}",
        env!("CARGO_BIN_EXE_spot-the-ships"),
        dir.display()
    );
    let out = std::process::Command::new("sh").args(["-c", &script]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty() && err.starts_with("error: testset: ") && err.lines().count() == 1, "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert_eq!(files(&dir), before);
    let parent = dir.parent().unwrap();
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    assert!(std::fs::read_dir(parent)
        .unwrap()
        .flatten()
        .all(|e| !e.file_name().to_string_lossy().starts_with(&format!(".{name}.testset-tmp-"))));
    remove(&dir);
}

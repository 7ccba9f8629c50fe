//! The problem packages `testset --format kattis|domjudge|kattis-2023` writes: the input
//! validator accepts every generated input and refuses malformed ones; `check
//! --package` judges a program on a package's data; and problemtools' `verifyproblem`
//! accepts each package (0 errors; 0 warnings but, for 2023-07-draft, its own warning
//! that its support of that version is incomplete).
//!
//! verifyproblem is looked for as `$SPOT_VERIFYPROBLEM`, then in `target/problemtools/`
//! (the venv `.ci/run` makes), then on `PATH`. Without it the verifyproblem test prints
//! why and passes, unless `SPOT_REQUIRE_PROBLEMTOOLS=1` (as in CI), which makes it fail.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A new folder for one test's packages (removed with them at its end).
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("package-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Writes a package of `format` into `dir` with `random` random cases.
fn package(dir: &Path, format: &str, random: &str) {
    let out = common::run(&["testset", "--out", dir.to_str().unwrap(), "--format", format, "--random", random], b"");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Runs the package's input validator on `input`: its exit status and stderr.
fn validate(validator: &Path, input: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new("python3")
        .arg(validator)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn the_input_validator_accepts_every_case_and_refuses_malformed_ones() {
    let root = temp("validator");
    let dir = root.join("spotships");
    package(&dir, "kattis", "40");
    let validator = dir.join("input_validators/validate.py");
    let mut inputs = 0;
    for group in ["sample", "secret"] {
        for e in std::fs::read_dir(dir.join("data").join(group)).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "in") {
                let (code, why) = validate(&validator, &std::fs::read(e.path()).unwrap());
                assert_eq!(code, Some(42), "{}: {why}", e.path().display());
                inputs += 1;
            }
        }
    }
    assert!(inputs >= 90, "{inputs}");
    let bad: [(&str, &[u8], &str); 16] = [
        ("ships touching at a corner", b"prob\n3 3 2\n0 0 1 E 1 1 1 E\n", "touches"),
        ("ships side by side", b"smart\n3 3 2\n0 0 2 E 1 0 2 E\n", "touches"),
        ("ships overlapping", b"linear\n3 3 2\n0 0 3 E 0 1 1 S\n", "overlaps"),
        ("a ship out of the bay", b"linear\n3 3 1\n0 2 2 E\n", "leaves the grid"),
        ("a ship starting outside", b"linear\n3 3 1\n3 0 1 E\n", "row"),
        ("a ship of 6 cells", b"linear\n1 6 1\n0 0 6 E\n", "length"),
        ("a ship of 0 cells", b"linear\n1 6 1\n0 0 0 E\n", "length"),
        ("fewer ships than N", b"linear\n5 6 2\n1 1 4 E\n", "4 * N"),
        ("more ships than N", b"linear\n5 6 1\n1 1 4 E 3 3 2 S\n", "4 * N"),
        ("an extra token", b"linear\n5 6 1\n1 1 4 E x\n", "4 * N"),
        ("an extra line", b"linear\n5 6 1\n1 1 4 E\n\n", "3 lines"),
        ("an unknown rule", b"random\n5 6 1\n1 1 4 E\n", "unknown rule"),
        ("a bad orientation", b"linear\n5 6 1\n1 1 4 N\n", "orientation"),
        ("no final newline", b"linear\n5 6 1\n1 1 4 E", "newline"),
        ("a board too big", b"linear\n301 1 0\n\n", "R"),
        ("two spaces", b"linear\n5  6 1\n1 1 4 E\n", "single spaces"),
    ];
    for (what, input, why) in bad {
        let (code, said) = validate(&validator, input);
        assert_eq!(code, Some(43), "{what}: {said}");
        assert!(said.contains(why), "{what}: {said}");
    }
    std::fs::remove_dir_all(&root).unwrap();
}

fn solver(name: &str) -> String {
    format!("{}/tests/solvers/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn check_runs_a_program_on_a_packages_data() {
    let root = temp("check");
    let dir = root.join("spotships");
    package(&dir, "kattis", "12");
    let pkg = dir.to_str().unwrap();
    let run = |program: &str| common::run(&["check", "--package", pkg, "--", "python3", &solver(program)], b"");
    let out = run("reference.py");
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(report.contains("69 cases: 69 user;"), "{report}");
    let out = run("smart_list_order.py");
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(report.contains("user-sample-") && report.contains("WA"), "{report}");
    assert!(report.lines().any(|l| l.starts_with("shrunk in ")), "a package's case is shrunk: {report}");
    // Not a package: said in one line, exit status 2.
    let out = common::run(&["check", "--package", dir.join("data").to_str().unwrap(), "--", "true"], b"");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2));
    assert!(err.starts_with("error: check: --package: `") && err.contains("no problem.yaml"), "{err}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// The verifyproblem to run, or why there is none.
fn verifyproblem() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("SPOT_VERIFYPROBLEM") {
        return Ok(PathBuf::from(path));
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/problemtools/bin/verifyproblem");
    if venv.is_file() {
        return Ok(venv);
    }
    let found = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join("verifyproblem"))
        .find(|p| p.is_file());
    found.ok_or_else(|| {
        "problemtools' verifyproblem was not found ($SPOT_VERIFYPROBLEM, target/problemtools/, PATH): \
         .ci/run installs it"
            .to_string()
    })
}

/// verifyproblem's run on `dir`.
fn verify(tool: &Path, dir: &Path) -> Output {
    Command::new(tool).arg(dir).stdin(Stdio::null()).output().unwrap()
}

#[test]
fn verifyproblem_accepts_each_package() {
    let tool = match verifyproblem() {
        Ok(tool) => tool,
        Err(why) if std::env::var("SPOT_REQUIRE_PROBLEMTOOLS").as_deref() != Ok("1") => {
            println!("skipped: {why}");
            return;
        }
        Err(why) => panic!("SPOT_REQUIRE_PROBLEMTOOLS=1 and {why}"),
    };
    let root = temp("verify");
    // The three at once (each waits on its programs most of the time).
    let runs: Vec<_> = ["kattis", "domjudge", "kattis-2023"]
        .into_iter()
        .map(|format| {
            let dir = root.join(format).join("spotships");
            package(&dir, format, "0");
            let tool = tool.clone();
            std::thread::spawn(move || (format, verify(&tool, &dir)))
        })
        .collect();
    for run in runs {
        let (format, out) = run.join().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        let allowed = if format == "kattis-2023" { 1 } else { 0 };
        let warnings: Vec<&str> = text.lines().filter(|l| l.starts_with("WARNING")).collect();
        assert!(text.contains(&format!("spotships tested: 0 errors, {allowed} warning")), "{format}:\n{text}");
        if format == "kattis-2023" {
            assert_eq!(warnings.len(), 1, "{text}");
            assert!(warnings[0].contains("Support for version 2023-07-draft is very incomplete"), "{text}");
        }
        // Each planted-bug submission got the verdict of its folder.
        for kind in ["WA", "RTE", "TLE"] {
            assert!(text.contains(&format!(" OK: {kind} ")), "{format}: no {kind}:\n{text}");
        }
        assert!(text.contains("accepted/spot.py") && text.contains("accepted/spot.cpp"), "{text}");
    }
    // The check can fail: a package without its uuid is warned of.
    let dir = root.join("kattis/spotships");
    let yaml = std::fs::read_to_string(dir.join("problem.yaml")).unwrap();
    let without: String = yaml.lines().filter(|l| !l.starts_with("uuid:")).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("problem.yaml"), without).unwrap();
    let out = Command::new(&tool).arg(&dir).args(["-p", "config"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("Missing uuid") && !text.contains("0 errors, 0 warnings"), "{text}");
    std::fs::remove_dir_all(&root).unwrap();
}

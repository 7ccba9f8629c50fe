//! Writing a test set in a judge's own layout:
//!
//! - **Mooshak**: `tests/T001/{input.txt,output.txt}`, each test folder with the
//!   `.class.tcl` (`return Test`) and `.data.tcl` (its attributes, `set input
//!   input.txt` ...) files of Mooshak's data directory, as found in Mooshak 2's sample
//!   contests (`home/data/contests/*/problems/*/tests`), so that `tests/` can replace
//!   a problem's `tests` folder; `tests/Content.xml`, the descriptor Mooshak 2's
//!   administrator import reads (`AdministratorManager.importMooshakObject`), and
//!   `tests.zip` (that descriptor and the test files) to import into a problem's
//!   `tests`; `cases.txt` names each test's case. Samples are marked `Show yes`.
//! - **Kattis** (problem package format, legacy): `problem.yaml`, `data/sample/*.in,
//!   *.ans` (the statement's samples) and `data/secret/*.in, *.ans` (the others).
//! - **DOMjudge**: the Kattis layout plus `domjudge-problem.ini` with the time limit.
//!
//! Names are numbered from 1, zero-padded so that they sort. The same cases give the
//! same bytes.

use super::cases::{Case, Origin};
use super::zip;
use std::fmt::Write as _;
use std::path::Path;

/// A judge's layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Mooshak's `tests/T001` folders.
    Mooshak,
    /// The Kattis problem package format.
    Kattis,
    /// The Kattis format with DOMjudge's `domjudge-problem.ini`.
    Domjudge,
}

impl Layout {
    /// The layout called `name` (`mooshak`, `kattis`, `domjudge`).
    /// Pre: none. Post: `None` for other names.
    pub(crate) fn from_name(name: &str) -> Option<Layout> {
        match name {
            "mooshak" => Some(Layout::Mooshak),
            "kattis" => Some(Layout::Kattis),
            "domjudge" => Some(Layout::Domjudge),
            _ => None,
        }
    }

    /// The top-level names this layout writes (what `--force` replaces).
    fn owned(self) -> &'static [&'static str] {
        match self {
            Layout::Mooshak => &["tests", "tests.zip", "cases.txt"],
            Layout::Kattis => &["problem.yaml", "data"],
            Layout::Domjudge => &["problem.yaml", "domjudge-problem.ini", "data"],
        }
    }
}

/// A file of the test set: its path inside the directory (`/` separators), contents.
type File = (String, Vec<u8>);

/// Zero-padded width for `count` numbered names (at least 3 digits).
fn width(count: usize) -> usize {
    count.to_string().len().max(3)
}

/// `problem.yaml`: the name, and the default output validator made sensitive to case
/// and to changes of whitespace.
const PROBLEM_YAML: &str = "\
name: Spot the ships
source: UAlg OOP course, Problem G
validation: default
validator_flags: case_sensitive space_change_sensitive
";

/// A Mooshak `.data.tcl` line list for one test (attributes in Mooshak's order).
fn test_data_tcl(show: bool) -> String {
    format!(
        "set Fatal {{}}\nset Warning {{}}\nset args {{}}\nset input input.txt\nset output output.txt\n\
         set Points 0\nset context {{}}\nset Feedback {{}}\nset Show {}\nset Result {{}}\nset Timeout {{}}\n\
         set SolutionErrors {{}}\nset frozen false\n",
        if show { "yes" } else { "no" }
    )
}

/// Every file of the test set for `cases` in `layout`; `time_limit` (seconds) goes
/// where the layout has a place for it.
/// Pre: none. Post: paths are relative, `/`-separated and distinct; `Err` only when
/// the Mooshak archive passes the ZIP format's limits.
pub(crate) fn files(layout: Layout, cases: &[Case], time_limit: f64) -> Result<Vec<File>, String> {
    let mut out: Vec<File> = Vec::new();
    match layout {
        Layout::Mooshak => {
            let w = width(cases.len());
            let mut index = String::new();
            let mut xml = String::from(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
                 <Tests xmlns=\"http://www.ncc.up.pt/mooshak/\" xml:id=\"tests\" Fatal=\"\" Warning=\"\">\n",
            );
            let mut zipped: Vec<File> = Vec::new();
            out.push(("tests/.class.tcl".into(), b"return Tests\n".to_vec()));
            out.push((
                "tests/.data.tcl".into(),
                b"set Fatal {}\nset Warning {}\nset Definition {}\nset Test {}\nset frozen false\n".to_vec(),
            ));
            for (k, case) in cases.iter().enumerate() {
                let t = format!("T{:0w$}", k + 1);
                let show = case.origin == Origin::Sample;
                let _ = writeln!(index, "{t} {}", case.name);
                let _ = writeln!(
                    xml,
                    "  <Test xml:id=\"{t}\" args=\"\" input=\"input.txt\" output=\"output.txt\" Points=\"0\" Show=\"{}\"/>",
                    if show { "yes" } else { "no" }
                );
                out.push((format!("tests/{t}/.class.tcl"), b"return Test\n".to_vec()));
                out.push((format!("tests/{t}/.data.tcl"), test_data_tcl(show).into_bytes()));
                for (name, bytes) in [("input.txt", &case.input), ("output.txt", &case.expected)] {
                    out.push((format!("tests/{t}/{name}"), bytes.clone()));
                    zipped.push((format!("{t}/{name}"), bytes.clone()));
                }
            }
            xml.push_str("</Tests>\n");
            zipped.insert(0, ("Content.xml".into(), xml.clone().into_bytes()));
            out.push(("tests/Content.xml".into(), xml.into_bytes()));
            out.push(("tests.zip".into(), zip::archive(&zipped)?));
            out.push(("cases.txt".into(), index.into_bytes()));
        }
        Layout::Kattis | Layout::Domjudge => {
            out.push(("problem.yaml".into(), PROBLEM_YAML.as_bytes().to_vec()));
            if layout == Layout::Domjudge {
                let ini = format!("name='Spot the ships'\ntimelimit='{time_limit}'\n");
                out.push(("domjudge-problem.ini".into(), ini.into_bytes()));
            }
            for (group, samples) in [("sample", true), ("secret", false)] {
                let chosen: Vec<&Case> = cases.iter().filter(|c| (c.origin == Origin::Sample) == samples).collect();
                let w = width(chosen.len());
                for (k, case) in chosen.iter().enumerate() {
                    let base = format!("data/{group}/{:0w$}-{}", k + 1, file_name(&case.name));
                    out.push((format!("{base}.in"), case.input.clone()));
                    out.push((format!("{base}.ans"), case.expected.clone()));
                }
            }
        }
    }
    Ok(out)
}

/// A case name as a file name the package formats accept: letters, digits, `.`, `_`
/// and `-`, other characters made `_`.
fn file_name(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' }).collect()
}

/// Writes the test set into `dir` (created when missing). A directory that is not
/// empty is refused unless `force`, which first removes what this layout writes
/// (`tests/`, `tests.zip`, `cases.txt`; or `problem.yaml`, `domjudge-problem.ini`,
/// `data/`) and leaves the rest.
/// Pre: none. Post: on `Ok(n)`, `n` files written; `Err` names what failed.
pub(crate) fn write(dir: &Path, layout: Layout, cases: &[Case], time_limit: f64, force: bool) -> Result<usize, String> {
    let shown = dir.display();
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
        if entries.next().is_some() {
            if !force {
                return Err(format!("`{shown}` is not empty; use --force to replace its test set"));
            }
            for name in layout.owned() {
                let path = dir.join(name);
                let gone = if path.is_dir() && !path.is_symlink() {
                    std::fs::remove_dir_all(&path)
                } else if path.symlink_metadata().is_ok() {
                    std::fs::remove_file(&path)
                } else {
                    Ok(())
                };
                gone.map_err(|e| format!("cannot remove `{}`: {e}", path.display()))?;
            }
        }
    }
    let all = files(layout, cases, time_limit)?;
    for (name, bytes) in &all {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create `{}`: {e}", parent.display()))?;
        }
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    }
    Ok(all.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::grading::cases;

    fn some_cases() -> Vec<Case> {
        let all: Vec<String> = ["linear", "smart", "prob"].iter().map(|s| s.to_string()).collect();
        let mut c = cases::samples(&all);
        c.extend(cases::random(5, 4, &all).unwrap());
        c
    }

    #[test]
    fn mooshak_layout() {
        let f = files(Layout::Mooshak, &some_cases(), 2.0).unwrap();
        let get = |n: &str| f.iter().find(|(p, _)| p == n).map(|(_, b)| String::from_utf8_lossy(b).into_owned());
        assert_eq!(get("tests/T001/input.txt").unwrap(), include_str!("../../../samples/00-linear.in"));
        assert_eq!(get("tests/T006/output.txt").unwrap(), include_str!("../../../samples/05-prob.out"));
        assert!(get("tests/T010/input.txt").is_some() && get("tests/T011/input.txt").is_none());
        assert_eq!(get("tests/T001/.class.tcl").unwrap(), "return Test\n");
        assert!(get("tests/T001/.data.tcl").unwrap().contains("set input input.txt\nset output output.txt\n"));
        assert!(get("tests/T001/.data.tcl").unwrap().contains("set Show yes\n"));
        assert!(get("tests/T007/.data.tcl").unwrap().contains("set Show no\n"));
        assert!(get("tests/Content.xml").unwrap().contains("<Test xml:id=\"T010\" "));
        assert!(get("cases.txt").unwrap().starts_with("T001 sample-00-linear\n"));
        assert!(get("cases.txt").unwrap().contains("T007 random-5-0-linear\n"));
        assert!(f.iter().any(|(p, b)| p == "tests.zip" && b.starts_with(b"PK")));
    }

    #[test]
    fn kattis_and_domjudge_layouts() {
        let f = files(Layout::Kattis, &some_cases(), 2.0).unwrap();
        let names: Vec<&str> = f.iter().map(|(p, _)| p.as_str()).collect();
        assert!(names.contains(&"problem.yaml") && !names.contains(&"domjudge-problem.ini"));
        assert!(names.contains(&"data/sample/001-sample-00-linear.in"));
        assert!(names.contains(&"data/sample/006-sample-05-prob.ans"));
        assert!(names.contains(&"data/secret/004-random-5-3-linear.ans"));
        let d = files(Layout::Domjudge, &some_cases(), 1.5).unwrap();
        let ini = d.iter().find(|(p, _)| p == "domjudge-problem.ini").unwrap();
        assert_eq!(ini.1, b"name='Spot the ships'\ntimelimit='1.5'\n");
    }

    #[test]
    fn writing_refuses_a_non_empty_directory_unless_forced() {
        let dir = std::env::temp_dir().join(format!("grading-testset-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cases = some_cases();
        let n = write(&dir, Layout::Kattis, &cases, 2.0, false).unwrap();
        assert_eq!(n, 1 + 2 * cases.len());
        assert!(write(&dir, Layout::Kattis, &cases, 2.0, false).unwrap_err().contains("--force"));
        std::fs::write(dir.join("notes.txt"), "mine").unwrap();
        std::fs::write(dir.join("data/secret/999-stale.in"), "old").unwrap();
        write(&dir, Layout::Kattis, &cases, 2.0, true).unwrap();
        assert!(dir.join("notes.txt").is_file() && !dir.join("data/secret/999-stale.in").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

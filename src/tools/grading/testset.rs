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
//! - **Kattis** (problem package format, legacy), **Kattis 2023** (its `2023-07-draft`
//!   version): a whole problem package ([`package`]), `data/sample/*.in, *.ans` (the
//!   statement's samples) and `data/secret/*.in, *.ans` (the others).
//! - **DOMjudge**: the legacy Kattis package plus `domjudge-problem.ini` with the time
//!   limit.
//!
//! Names are numbered from 1, zero-padded so that they sort. The same cases give the
//! same bytes.
//!
//! The manifest of a set (the files it wrote, which `--force` may replace) lies beside
//! its directory, as `.NAME.testset-manifest`, so that the set holds only files its
//! format allows.

use super::cases::{Case, Origin};
use super::error::{FileAction::*, GradingError};
use super::package::{self, Version};
use super::zip;
use crate::sys;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// A judge's layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Mooshak's `tests/T001` folders.
    Mooshak,
    /// The Kattis problem package format.
    Kattis,
    /// The Kattis format with DOMjudge's `domjudge-problem.ini`.
    Domjudge,
    /// The Kattis format's `2023-07-draft` version.
    Kattis2023,
}

impl Layout {
    /// The names of the layouts, as `--format` takes them.
    pub(crate) const NAMES: [&'static str; 4] = ["mooshak", "kattis", "kattis-2023", "domjudge"];

    /// The layout called `name` (one of [`Layout::NAMES`]).
    /// Pre: none. Post: `None` for other names.
    pub(crate) fn from_name(name: &str) -> Option<Layout> {
        match name {
            "mooshak" => Some(Layout::Mooshak),
            "kattis" => Some(Layout::Kattis),
            "kattis-2023" => Some(Layout::Kattis2023),
            "domjudge" => Some(Layout::Domjudge),
            _ => None,
        }
    }
}

/// A file of the test set: its path inside the directory (`/` separators), contents.
type File = (String, Vec<u8>);

/// The cases a test set in `layout` holds: for a problem package, those whose input
/// repeats an earlier one's are left out ([`package::distinct`]).
/// Pre: none. Post: in the order given.
pub(crate) fn cases_for(layout: Layout, cases: Vec<Case>) -> Vec<Case> {
    match layout {
        Layout::Mooshak => cases,
        Layout::Kattis | Layout::Domjudge | Layout::Kattis2023 => package::distinct(cases),
    }
}

/// Zero-padded width for `count` numbered names (at least 3 digits).
fn width(count: usize) -> usize {
    count.to_string().len().max(3)
}

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
/// Pre: none. Post: paths are relative, `/`-separated and distinct; `Err` when a
/// package's case is played by a rule the problem does not know, or the Mooshak
/// archive passes the ZIP format's limits.
pub(crate) fn files(layout: Layout, cases: &[Case], time_limit: f64) -> Result<Vec<File>, GradingError> {
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
        Layout::Kattis | Layout::Domjudge | Layout::Kattis2023 => {
            let unknown = package::unknown_rules(cases);
            if !unknown.is_empty() {
                return Err(GradingError::RulesUnknown { known: package::RULES.to_vec(), unknown });
            }
            let version = if layout == Layout::Kattis2023 { Version::Draft2023 } else { Version::Legacy };
            out = package::files(version, cases, time_limit, layout == Layout::Domjudge);
        }
    }
    Ok(out)
}

/// The tail of a test set's manifest's name, `.NAME.testset-manifest` beside the set's
/// directory `NAME`: the files the set wrote, one path a line. `--force` replaces only
/// what a manifest lists.
pub(crate) const MANIFEST: &str = ".testset-manifest";

/// The manifest of the set in `parent/name`.
fn manifest_path(parent: &Path, name: &str) -> PathBuf {
    parent.join(format!(".{name}{MANIFEST}"))
}

/// The manifest's first line.
const MANIFEST_HEAD: &str =
    "# spot-the-ships testset: the files of this test set (testset --force replaces only these)";

/// The part of a temporary folder's name after `.NAME`: `.NAME.testset-tmp-PID`.
const TEMP_TAG: &str = ".testset-tmp-";

/// The manifest listing `paths`.
fn manifest<'a>(paths: impl Iterator<Item = &'a str>) -> Vec<u8> {
    let mut text = format!("{MANIFEST_HEAD}\n");
    for p in paths {
        text.push_str(p);
        text.push('\n');
    }
    text.into_bytes()
}

/// The paths a manifest lists: relative, `/`-separated, without `.`, `..` or empty
/// parts (other lines are not this program's and are ignored).
fn listed(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter(|l| l.split('/').all(|part| !part.is_empty() && part != "." && part != ".."))
        .map(str::to_string)
        .collect()
}

/// The first part of `path` (`tests` of `tests/T001/input.txt`).
fn top(path: &str) -> &str {
    path.split('/').next().unwrap_or(path)
}

/// Refuses when `dir/rel` holds something no manifest path lists (`manifest` is the
/// manifest's path): names the folder when nothing in it is listed, else the first
/// file that is not.
fn check_listed(dir: &Path, rel: &str, listed: &BTreeSet<String>, manifest: &Path) -> Result<(), GradingError> {
    let path = dir.join(rel);
    let refuse = || Err(GradingError::NotListed { path: path.clone(), manifest: manifest.to_path_buf() });
    let meta = std::fs::symlink_metadata(&path).map_err(GradingError::file(Read, &path))?;
    if !meta.is_dir() {
        return if listed.contains(rel) { Ok(()) } else { refuse() };
    }
    let inside = format!("{rel}/");
    let mut entries: Vec<String> = std::fs::read_dir(&path)
        .map_err(GradingError::file(Read, &path))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    if entries.is_empty() {
        return Ok(());
    }
    if !listed.iter().any(|p| p.starts_with(&inside)) {
        return refuse();
    }
    entries.sort();
    entries.iter().try_for_each(|name| check_listed(dir, &format!("{inside}{name}"), listed, manifest))
}

/// The folder holding `dir` and `dir`'s own name (`.` is named by its real path).
fn parent_and_name(dir: &Path) -> Result<(PathBuf, String), GradingError> {
    let real;
    let dir = match dir.file_name() {
        Some(_) => dir,
        None => {
            real = std::fs::canonicalize(dir).map_err(GradingError::file(Find, dir))?;
            real.as_path()
        }
    };
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    Ok((parent, name))
}

/// Removes the temporary folders (`.NAME.testset-tmp-PID`) that runs which have ended
/// left in `parent` (killed before they could clean up). Those of a run still going are
/// left alone.
fn remove_stale(parent: &Path, name: &str) {
    let prefix = format!(".{name}{TEMP_TAG}");
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    for e in entries.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = file.strip_prefix(&prefix).and_then(|p| p.parse::<u32>().ok()) else { continue };
        let running = std::fs::read(format!("/proc/{pid}/cmdline"))
            .is_ok_and(|c| c.split(|&b| b == 0).any(|arg| arg == b"testset"));
        if !running && pid != std::process::id() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Writes `bytes` into the new file `path`, which must not exist (a link there is not
/// followed: the call fails).
fn create_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(bytes)
}

/// Replaces the file `path` with `bytes`: written whole into a new temporary file
/// beside it, then renamed over it. A symbolic link at `path` is replaced, never
/// followed; the temporary file is created anew (a link in its place is removed first).
/// Pre: none. Post: `Err` when anything failed; no temporary file is left then.
pub(crate) fn replace_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let result = create_new(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes the test set into `dir` (created when missing, with its missing parents). A
/// directory that is not empty is refused unless `force`; with it, what the new set
/// writes and what the old set's manifest lists is replaced, provided every file there
/// is in that manifest (else the first that is not is named and nothing changes);
/// other files stay. The manifest is `.NAME.testset-manifest` beside `dir`; one that
/// an older version wrote inside `dir` (`.testset-manifest`) is read, and removed.
///
/// The whole set is built first in a temporary folder beside `dir` (`.NAME.testset-
/// tmp-PID`) and moved into place only when complete: into a new `dir` by one rename,
/// into an existing one by exchanging each top-level entry (`tests/`, `tests.zip`, ...)
/// with the old one at once ([`sys::exchange`]), the manifest listing old and new
/// files meanwhile. A failure undoes the exchanges done and removes the temporary
/// folder; one left by a killed run is removed by the next run.
/// Pre: none. Post: on `Ok(n)`, the `n` files of the set (and the manifest) are in
/// place; on `Err` (what failed), the old set is as it was.
pub(crate) fn write(
    dir: &Path,
    layout: Layout,
    cases: &[Case],
    time_limit: f64,
    force: bool,
) -> Result<usize, GradingError> {
    let all = files(layout, cases, time_limit)?;
    let (parent, name) = parent_and_name(dir)?;
    std::fs::create_dir_all(&parent).map_err(GradingError::file(Create, &parent))?;
    remove_stale(&parent, &name);
    let target = manifest_path(&parent, &name);
    let exists = dir.exists();
    let mut old = BTreeSet::new();
    let old_text = std::fs::read(&target).ok();
    if exists {
        let mut entries = std::fs::read_dir(dir).map_err(GradingError::file(Read, dir))?;
        if entries.next().is_some() {
            if !force {
                return Err(GradingError::NotEmpty(dir.to_path_buf()));
            }
            if let Some(text) = &old_text {
                old = listed(&String::from_utf8_lossy(text));
            } else if let Ok(text) = std::fs::read(dir.join(MANIFEST)) {
                // An older version's manifest, inside the set: it goes with the set.
                old = listed(&String::from_utf8_lossy(&text));
                old.insert(MANIFEST.to_string());
            }
            let tops: BTreeSet<&str> = all.iter().map(|(p, _)| top(p)).chain(old.iter().map(|p| top(p))).collect();
            for t in tops {
                if dir.join(t).symlink_metadata().is_ok() {
                    check_listed(dir, t, &old, &target)?;
                }
            }
        }
    }
    let tmp = parent.join(format!(".{name}{TEMP_TAG}{}", std::process::id()));
    std::fs::create_dir(&tmp).map_err(GradingError::file(CreateTemporary, &tmp))?;
    let built = build(&tmp, &all);
    let placed = built.and_then(|()| {
        if exists {
            swap(dir, &tmp, &all, &old, &target, old_text.as_deref())
        } else {
            let listing = manifest(all.iter().map(|(p, _)| p.as_str()));
            replace_file(&target, &listing).map_err(GradingError::file(Write, &target))?;
            std::fs::rename(&tmp, dir).map_err(|e| {
                restore_manifest(&target, old_text.as_deref());
                GradingError::file(MoveSet, dir)(e)
            })
        }
    });
    // The temporary folder holds what was replaced (or the new set, on a failure).
    let _ = std::fs::remove_dir_all(&tmp);
    placed.map(|()| all.len())
}

/// Writes `all` into the new folder `tmp`.
fn build(tmp: &Path, all: &[File]) -> Result<(), GradingError> {
    for (name, bytes) in all {
        let path = tmp.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(GradingError::file(Create, parent))?;
        }
        create_new(&path, bytes).map_err(GradingError::file(Write, &path))?;
    }
    Ok(())
}

/// Puts the manifest `target` back as it was: `old_text`, or none.
fn restore_manifest(target: &Path, old_text: Option<&[u8]>) {
    let _ = match old_text {
        Some(text) => replace_file(target, text),
        None => std::fs::remove_file(target),
    };
}

/// One move of [`swap`], undone in reverse order on a failure.
enum Step {
    /// `dir/T` and `tmp/T` were exchanged.
    Exchanged(String),
    /// `from` was renamed `to`.
    Moved(PathBuf, PathBuf),
}

/// Moves the complete set in `tmp` into the existing `dir`: the manifest `target` of
/// old and new files first, then each top-level entry of the new set exchanged with
/// the old one (or moved in), the old set's other entries moved out into `tmp`, and the
/// new manifest. On a failure every step is undone and the old manifest put back.
fn swap(
    dir: &Path,
    tmp: &Path,
    all: &[File],
    old: &BTreeSet<String>,
    target: &Path,
    old_text: Option<&[u8]>,
) -> Result<(), GradingError> {
    let union: BTreeSet<&str> = all.iter().map(|(p, _)| p.as_str()).chain(old.iter().map(String::as_str)).collect();
    replace_file(target, &manifest(union.into_iter())).map_err(GradingError::file(Write, target))?;
    let new_tops: BTreeSet<&str> = all.iter().map(|(p, _)| top(p)).collect();
    let old_tops: BTreeSet<&str> = old.iter().map(|p| top(p)).filter(|t| !new_tops.contains(t)).collect();
    let mut done: Vec<Step> = Vec::new();
    let mut moves = || -> Result<(), GradingError> {
        for t in &new_tops {
            let (from, to) = (tmp.join(t), dir.join(t));
            if to.symlink_metadata().is_ok() {
                sys::exchange(&from, &to).map_err(GradingError::file(Replace, &to))?;
                done.push(Step::Exchanged(t.to_string()));
            } else {
                std::fs::rename(&from, &to).map_err(GradingError::file(MoveIn, &to))?;
                done.push(Step::Moved(from, to));
            }
        }
        for t in &old_tops {
            let (from, to) = (dir.join(t), tmp.join(t));
            if from.symlink_metadata().is_ok() {
                std::fs::rename(&from, &to).map_err(GradingError::file(Remove, &from))?;
                done.push(Step::Moved(from, to));
            }
        }
        let listing = manifest(all.iter().map(|(p, _)| p.as_str()));
        replace_file(target, &listing).map_err(GradingError::file(Write, target))
    };
    let result = moves();
    if result.is_err() {
        for step in done.iter().rev() {
            let _ = match step {
                Step::Exchanged(t) => sys::exchange(&tmp.join(t), &dir.join(t)),
                Step::Moved(from, to) => std::fs::rename(to, from),
            };
        }
        restore_manifest(target, old_text);
    }
    result
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
        assert!(names.contains(&"problem_statement/problem.en.tex") && names.contains(&"input_validators/validate.py"));
        assert!(names.iter().all(|n| !n.starts_with('.') && !n.contains("/.")), "{names:?}");
        let k = files(Layout::Kattis2023, &some_cases(), 2.0).unwrap();
        assert!(k.iter().any(|(p, _)| p == "statement/problem.en.tex"));
        let d = files(Layout::Domjudge, &some_cases(), 1.5).unwrap();
        let ini = d.iter().find(|(p, _)| p == "domjudge-problem.ini").unwrap();
        assert_eq!(ini.1, b"name='Spot the ships'\ntimelimit='1.5'\n");
        // A package's problem knows linear, smart and prob only.
        let other = cases::samples(&["prob".to_string()])
            .into_iter()
            .map(|mut c| {
                c.strategy = "bayes".into();
                c
            })
            .collect::<Vec<_>>();
        let e = files(Layout::Kattis, &other, 2.0).unwrap_err();
        assert!(e.to_string().contains("knows the rules linear, smart, prob only, not bayes"), "{e}");
        assert!(files(Layout::Mooshak, &other, 2.0).is_ok());
    }

    #[test]
    fn writing_refuses_a_non_empty_directory_unless_forced() {
        let dir = std::env::temp_dir().join(format!("grading-testset-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cases = some_cases();
        let n = write(&dir, Layout::Kattis, &cases, 2.0, false).unwrap();
        assert_eq!(n, files(Layout::Kattis, &cases, 2.0).unwrap().len());
        let (parent, name) = parent_and_name(&dir).unwrap();
        let manifest = manifest_path(&parent, &name);
        assert_eq!(manifest, dir.with_file_name(format!(".{name}.testset-manifest")));
        assert!(!dir.join(MANIFEST).exists(), "the manifest lies beside the set, not in it");
        let listed = listed(&std::fs::read_to_string(&manifest).unwrap());
        assert_eq!(listed.len(), n);
        assert!(listed.contains("problem.yaml") && listed.contains("data/sample/001-sample-00-linear.in"));
        assert!(write(&dir, Layout::Kattis, &cases, 2.0, false).unwrap_err().to_string().contains("--force"));
        std::fs::write(dir.join("notes.txt"), "mine").unwrap();
        write(&dir, Layout::Domjudge, &cases, 2.0, true).unwrap();
        assert!(dir.join("notes.txt").is_file() && dir.join("domjudge-problem.ini").is_file());
        // A file no manifest lists is named, and nothing changes.
        std::fs::write(dir.join("data/secret/999-stale.in"), "old").unwrap();
        let e = write(&dir, Layout::Kattis, &cases, 2.0, true).unwrap_err();
        assert!(e.to_string().contains("data/secret/999-stale.in` is not in the test set's manifest"), "{e}");
        assert!(dir.join("domjudge-problem.ini").is_file());
        std::fs::remove_file(dir.join("data/secret/999-stale.in")).unwrap();
        // Back to Kattis: the DOMjudge file goes (it is in the manifest), notes stay.
        write(&dir, Layout::Kattis, &cases, 2.0, true).unwrap();
        assert!(!dir.join("domjudge-problem.ini").exists() && dir.join("notes.txt").is_file());
        assert!(std::fs::read_dir(&parent)
            .unwrap()
            .flatten()
            .all(|e| !e.file_name().to_string_lossy().starts_with(&format!(".{name}{TEMP_TAG}"))));
        // A set an older version wrote, its manifest inside: read, and removed.
        std::fs::rename(&manifest, dir.join(MANIFEST)).unwrap();
        write(&dir, Layout::Mooshak, &cases, 2.0, true).unwrap();
        assert!(!dir.join(MANIFEST).exists() && !dir.join("problem.yaml").exists() && dir.join("tests.zip").is_file());
        assert!(dir.join("notes.txt").is_file() && manifest.is_file());
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_file(&manifest).unwrap();
    }

    #[test]
    fn missing_parent_folders_are_created() {
        let root = std::env::temp_dir().join(format!("grading-parents-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = root.join("a/b/c");
        write(&dir, Layout::Mooshak, &some_cases(), 2.0, false).unwrap();
        assert!(dir.join("tests/T001/input.txt").is_file() && root.join("a/b/.c.testset-manifest").is_file());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn manifests_list_only_paths_inside_the_set() {
        let text = "# head\ntests/T001/input.txt\n../escape\n/abs\na//b\n./x\n\ncases.txt\n";
        let l = listed(text);
        assert_eq!(l.into_iter().collect::<Vec<_>>(), ["cases.txt", "tests/T001/input.txt"]);
    }

    #[test]
    fn a_replaced_file_is_never_written_through_a_link() {
        let dir = std::env::temp_dir().join(format!("grading-replace-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("precious"), "precious").unwrap();
        std::os::unix::fs::symlink(dir.join("precious"), dir.join("kept.in")).unwrap();
        // A link where the temporary file goes, too.
        std::os::unix::fs::symlink(dir.join("precious"), dir.join(format!(".kept.in.{}.tmp", std::process::id())))
            .unwrap();
        replace_file(&dir.join("kept.in"), b"case").unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("precious")).unwrap(), "precious");
        assert_eq!(std::fs::read_to_string(dir.join("kept.in")).unwrap(), "case");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

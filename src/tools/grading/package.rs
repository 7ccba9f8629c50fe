//! The problem package of the Kattis problem package format (legacy, and the
//! `2023-07-draft` version), around a test set's cases: `problem.yaml`, the statement,
//! the input validator, the submissions and the data.
//!
//! The fixed files live beside this module, in `package/`, and are built in with
//! `include_str!`: the statement (`statement.tex`, in the project's own words), the
//! input validator (`validate.py`) and two accepted solutions (`submissions/spot.py`,
//! `submissions/spot.cpp`). The rejected submissions are the grading kit's planted-bug
//! solvers (`tests/solvers/*.py`), each a folder holding the mutant as `main.py` and
//! the correct solver it imports as `reference.py`; a mutant goes into a package only
//! when the package has the cases that catch it.
//!
//! Output is judged by the format's default validator, sensitive to case and to any
//! change of whitespace: a byte-for-byte comparison, as Mooshak accepts an answer.

use super::cases::{Case, Origin};

/// A version of the package format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Version {
    /// The legacy format (`problem_statement/`, `validation:` in `problem.yaml`).
    Legacy,
    /// The `2023-07-draft` format (`statement/`, `limits.time_limit`).
    Draft2023,
}

/// A file of the package: its path inside the package (`/` separators), contents.
pub(crate) type File = (String, Vec<u8>);

/// The problem's name.
const NAME: &str = "Spot the ships";

/// The package's UUID: the same in every package written, so that a judge that has
/// imported it once recognises it as the same problem.
pub(crate) const UUID: &str = "6b1f3c52-9d0e-4a7b-8c21-5e4f7a9d3b60";

/// Where the problem comes from.
const SOURCE: &str = "UAlg OOP course, Problem G";

/// Who holds the rights to the package (its statement is the project's own text).
const RIGHTS_OWNER: &str = "The spot-the-ships authors";

/// The rule names the package's problem knows.
pub(crate) const RULES: [&str; 3] = ["linear", "smart", "prob"];

/// The default validator's flags: a byte-for-byte comparison.
const VALIDATOR_FLAGS: &str = "case_sensitive space_change_sensitive";

/// The statement's body (the name is given by `problem.yaml`, and in the legacy
/// format by `\problemname` too).
const STATEMENT: &str = include_str!("package/statement.tex");

/// The input validator (exit 42 valid, 43 invalid).
pub(crate) const VALIDATOR: &str = include_str!("package/validate.py");

/// The accepted submissions: file name, source.
const ACCEPTED: [(&str, &str); 2] = [
    ("spot.py", include_str!("package/submissions/spot.py")),
    ("spot.cpp", include_str!("package/submissions/spot.cpp")),
];

/// The correct solver the mutants import.
const REFERENCE: &str = include_str!("../../../tests/solvers/reference.py");

/// A planted-bug solver of the grading kit, as a rejected submission.
struct Mutant {
    /// Its name (the folder's).
    name: &'static str,
    /// The submissions folder of its verdict.
    category: &'static str,
    /// The rule whose cases catch it (`None`: any rule's).
    rule: Option<&'static str>,
    /// True when only the large cases catch it.
    large: bool,
    /// Its source.
    text: &'static str,
}

/// A mutant caught by any rule's cases, or by `rule`'s.
macro_rules! mutant {
    ($name:literal, $category:literal, $rule:expr, $large:expr) => {
        Mutant {
            name: $name,
            category: $category,
            rule: $rule,
            large: $large,
            text: include_str!(concat!("../../../tests/solvers/", $name, ".py")),
        }
    };
}

/// The mutants. Left out: `debug_on_stderr` (a judge of this format ignores stderr, so
/// it is accepted there) and the Java ones (the format's Java needs a newer JDK).
const MUTANTS: [Mutant; 15] = [
    mutant!("extra_scan", "wrong_answer", Some("linear"), false),
    mutant!("smart_list_order", "wrong_answer", Some("smart"), false),
    mutant!("smart_wraps", "wrong_answer", Some("smart"), false),
    mutant!("prob_keeps_diagonals", "wrong_answer", Some("prob"), false),
    mutant!("prob_sizes_1_to_4", "wrong_answer", Some("prob"), false),
    mutant!("prob_tie_break", "wrong_answer", Some("prob"), false),
    mutant!("crlf", "wrong_answer", None, false),
    mutant!("lowercase", "wrong_answer", None, false),
    mutant!("no_final_newline", "wrong_answer", None, false),
    mutant!("trailing_space", "wrong_answer", None, false),
    mutant!("board_each_scan", "wrong_answer", None, false),
    mutant!("empty_fleet_crash", "run_time_error", None, false),
    mutant!("smart_last_row_crash", "run_time_error", Some("smart"), false),
    mutant!("corner_loop", "time_limit_exceeded", Some("linear"), false),
    mutant!("slow_prob", "time_limit_exceeded", Some("prob"), true),
];

/// `problem.yaml` for `version`; `time_limit` (seconds) is the 2023-07 fixed limit.
fn problem_yaml(version: Version, time_limit: f64) -> String {
    let common =
        format!("name: {NAME}\nuuid: {UUID}\nsource: {SOURCE}\nlicense: permission\nrights_owner: {RIGHTS_OWNER}\n");
    match version {
        Version::Legacy => format!("{common}validation: default\nvalidator_flags: {VALIDATOR_FLAGS}\n"),
        Version::Draft2023 => {
            format!(
                "problem_format_version: 2023-07-draft\ntype: pass-fail\n{common}limits:\n  time_limit: {time_limit}\n"
            )
        }
    }
}

/// The rule names `cases` are played by that the package's problem does not know.
/// Pre: none. Post: empty when every case is a `linear`, `smart` or `prob` case.
pub(crate) fn unknown_rules(cases: &[Case]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in cases {
        if !RULES.contains(&c.strategy.as_str()) && !out.contains(&c.strategy) {
            out.push(c.strategy.clone());
        }
    }
    out
}

/// `cases` without those whose input repeats an earlier one's (the format warns of
/// identical inputs).
/// Pre: none. Post: in the order given.
pub(crate) fn distinct(cases: Vec<Case>) -> Vec<Case> {
    let mut seen: std::collections::HashSet<Vec<u8>> = std::collections::HashSet::new();
    cases.into_iter().filter(|c| seen.insert(c.input.clone())).collect()
}

/// Every file of the package for `cases` (those whose input repeats an earlier one
/// left out, see [`distinct`]), with DOMjudge's
/// `domjudge-problem.ini` when `domjudge`; `time_limit` in seconds.
/// Pre: every case is played by one of [`RULES`]. Post: paths are relative,
/// `/`-separated, distinct, and match the format's file name pattern.
pub(crate) fn files(version: Version, cases: &[Case], time_limit: f64, domjudge: bool) -> Vec<File> {
    let mut out: Vec<File> = vec![("problem.yaml".into(), problem_yaml(version, time_limit).into_bytes())];
    if domjudge {
        out.push(("domjudge-problem.ini".into(), format!("name='{NAME}'\ntimelimit='{time_limit}'\n").into_bytes()));
    }
    let statement = match version {
        Version::Legacy => ("problem_statement", format!("\\problemname{{{NAME}}}\n\n{STATEMENT}")),
        Version::Draft2023 => ("statement", STATEMENT.to_string()),
    };
    out.push((format!("{}/problem.en.tex", statement.0), statement.1.into_bytes()));
    out.push(("input_validators/validate.py".into(), VALIDATOR.as_bytes().to_vec()));
    if version == Version::Draft2023 {
        let flags = format!("output_validator_flags: {VALIDATOR_FLAGS}\n");
        out.push(("data/testdata.yaml".into(), flags.into_bytes()));
    }
    let mut seen: std::collections::HashSet<&[u8]> = std::collections::HashSet::new();
    let kept: Vec<&Case> = cases.iter().filter(|c| seen.insert(c.input.as_slice())).collect();
    for (group, samples) in [("sample", true), ("secret", false)] {
        let chosen: Vec<&&Case> = kept.iter().filter(|c| (c.origin == Origin::Sample) == samples).collect();
        let w = chosen.len().to_string().len().max(3);
        for (k, case) in chosen.iter().enumerate() {
            let base = format!("data/{group}/{:0w$}-{}", k + 1, file_name(&case.name));
            out.push((format!("{base}.in"), case.input.clone()));
            out.push((format!("{base}.ans"), case.expected.clone()));
        }
    }
    for (name, text) in ACCEPTED {
        out.push((format!("submissions/accepted/{name}"), text.as_bytes().to_vec()));
    }
    let has = |rule: Option<&str>, large: bool| {
        kept.iter().any(|c| rule.is_none_or(|r| c.strategy == r) && (!large || c.large))
    };
    for m in MUTANTS.iter().filter(|m| has(m.rule, m.large)) {
        let dir = format!("submissions/{}/{}", m.category, m.name);
        out.push((format!("{dir}/main.py"), m.text.as_bytes().to_vec()));
        out.push((format!("{dir}/reference.py"), REFERENCE.as_bytes().to_vec()));
    }
    out
}

/// A case name as a file name the format accepts: letters, digits, `.`, `_` and `-`,
/// other characters made `_`.
fn file_name(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::grading::cases;

    fn all() -> Vec<String> {
        RULES.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_legacy_package_has_every_part_and_a_fixed_uuid() {
        let mut c = cases::samples(&all());
        c.extend(cases::edges(&all()).unwrap());
        let f = files(Version::Legacy, &c, 2.0, false);
        let get = |n: &str| f.iter().find(|(p, _)| p == n).map(|(_, b)| String::from_utf8_lossy(b).into_owned());
        let yaml = get("problem.yaml").unwrap();
        assert!(yaml.contains(&format!("uuid: {UUID}\n")) && yaml.contains("validator_flags: case_sensitive"));
        assert_eq!(yaml, problem_yaml(Version::Legacy, 9.0), "the legacy yaml has no time limit");
        assert!(get("problem_statement/problem.en.tex").unwrap().starts_with("\\problemname{Spot the ships}\n"));
        assert!(get("input_validators/validate.py").is_some() && get("domjudge-problem.ini").is_none());
        assert_eq!(get("data/sample/001-sample-00-linear.in").unwrap(), include_str!("../../../samples/00-linear.in"));
        assert!(get("submissions/accepted/spot.cpp").is_some());
        assert!(get("submissions/time_limit_exceeded/corner_loop/main.py").is_some());
        assert!(get("submissions/time_limit_exceeded/corner_loop/reference.py").is_some());
        // slow_prob is caught by the large cases only.
        assert!(get("submissions/time_limit_exceeded/slow_prob/main.py").is_none());
        let names = f.iter().map(|(p, _)| p.as_str());
        assert!(names.clone().all(|p| p.split('/').all(|part| {
            part.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
                && !part.starts_with(['.', '-'])
        })));
        // A package of smart cases only has no mutant of another rule.
        let smart = cases::edges(&["smart".to_string()]).unwrap();
        let f = files(Version::Draft2023, &smart, 2.0, true);
        let names: Vec<&str> = f.iter().map(|(p, _)| p.as_str()).collect();
        assert!(names.contains(&"submissions/wrong_answer/smart_wraps/main.py"));
        assert!(!names.iter().any(|n| n.contains("prob_") || n.contains("extra_scan")));
        assert!(names.contains(&"statement/problem.en.tex") && names.contains(&"domjudge-problem.ini"));
        let yaml = String::from_utf8_lossy(&f[0].1).into_owned();
        assert!(yaml.starts_with("problem_format_version: 2023-07-draft\n") && yaml.ends_with("time_limit: 2\n"));
    }

    #[test]
    fn repeated_inputs_are_written_once() {
        let c: Vec<Case> = cases::samples(&all()).into_iter().chain(cases::samples(&all())).collect();
        let f = files(Version::Legacy, &c, 2.0, false);
        assert_eq!(f.iter().filter(|(p, _)| p.starts_with("data/sample/")).count(), 12);
        assert_eq!(unknown_rules(&c), Vec::<String>::new());
    }
}

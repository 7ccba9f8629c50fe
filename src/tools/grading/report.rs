//! What a check found, for people and for programs: a text report at most 80 columns
//! wide (verdict counts per strategy, then for each kind of failure and strategy its
//! first case, shrunk, with the expected and the program's output and where they
//! differ; the first line of stderr uncut up to 200 characters), a JSON document, and
//! the failing cases written as `.in`/`.out`/`.got`/`.err` files (`--keep`).

use super::cases::{Case, Origin};
use super::check::{Build, Checked, Outcome, Settings, Shrunk};
use super::error::{FileAction, GradingError};
use super::runner::Ending;
use super::verdict::{self, Verdict};
use crate::render::json::{Array, Object};
use std::fmt::Write as _;
use std::path::Path;

/// Widest text line shown inside an input or output block.
const CLIP: usize = 72;

/// Most lines of one block.
const MAX_LINES: usize = 24;

/// Verdict counts, indexed by [`Verdict::index`].
type Counts = [usize; 6];

/// The strategies of the cases in order of first appearance, with their counts, then
/// the counts over every case.
fn counts(checked: &Checked) -> (Vec<(String, Counts)>, Counts) {
    let mut by: Vec<(String, Counts)> = Vec::new();
    let mut all = [0; 6];
    for (case, outcome) in checked.cases.iter().zip(&checked.outcomes) {
        let k = outcome.verdict.index();
        let row = match by.iter().position(|(s, _)| *s == case.strategy) {
            Some(p) => p,
            None => {
                by.push((case.strategy.clone(), [0; 6]));
                by.len() - 1
            }
        };
        if let (Some((_, c)), Some(a)) = (by.get_mut(row), all.get_mut(k)) {
            if let Some(x) = c.get_mut(k) {
                *x += 1;
            }
            *a += 1;
        }
    }
    (by, all)
}

/// The report of a failed build, Mooshak's Compile Error: the command, how it ended
/// and everything it wrote (stdout then stderr), uncut.
/// Pre: `build` did not succeed. Post: ends with a line break.
pub(crate) fn compile_error_text(build: &Build, settings: &Settings) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "check: {}", clip(&settings.program.shown(), 73));
    let _ = writeln!(out, "build: {}", build.command);
    out.push_str("verdict: CE (compile error): no case was run\n\n");
    let _ = writeln!(out, "the build {} after {} s; its output:", build_ending(build), seconds(build.run.elapsed));
    let mut all = build.run.stdout.clone();
    all.extend_from_slice(&build.run.stderr);
    if all.is_empty() {
        out.push_str("    (nothing)\n");
    }
    for line in String::from_utf8_lossy(&all).lines() {
        let _ = writeln!(out, "    | {line}");
    }
    out
}

/// How a build ended, in words.
fn build_ending(build: &Build) -> String {
    match build.run.ending {
        Ending::Exited(Some(c)) => format!("exited with status {c}"),
        Ending::Exited(None) => "was killed by a signal".into(),
        Ending::TimedOut => format!("was stopped at the safety limit of {} s", seconds(crate::limits::BUILD_TIME)),
        Ending::OutputLimit => "was stopped for writing more than 1 MiB".into(),
    }
}

/// The JSON report of a failed build: `{"program", "build", "verdict": "CE",
/// "build_ending", "stdout", "stderr"}`.
/// Pre: `build` did not succeed. Post: one valid JSON object and a line break.
pub(crate) fn compile_error_json(build: &Build, settings: &Settings) -> String {
    Object::new()
        .field("program", settings.program.shown())
        .field("build", &build.command)
        .field("verdict", "CE")
        .field("build_ending", build_ending(build))
        .field("stdout", bytes_json(&build.run.stdout))
        .field("stderr", bytes_json(&build.run.stderr))
        .line()
}

/// `6 samples, 51 edge, 300 random, 2 user`.
fn origins(cases: &[Case]) -> String {
    let count = |o: Origin| cases.iter().filter(|c| c.origin == o).count();
    let parts = [
        (count(Origin::Sample), "sample", "samples"),
        (count(Origin::Edge), "edge", "edge"),
        (count(Origin::Random), "random", "random"),
        (count(Origin::User), "user", "user"),
    ];
    let shown: Vec<String> = parts
        .iter()
        .filter(|p| p.0 > 0)
        .map(|&(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
        .collect();
    shown.join(", ")
}

/// Seconds with at most 2 decimals (`2`, `0.5`, `1.25`).
/// Pre: none. Post: no trailing zero.
pub(crate) fn seconds(d: std::time::Duration) -> String {
    let s = format!("{:.2}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The text report.
/// Pre: none. Post: every line at most 80 columns, but the lines `stderr's first
/// line: ` and `stderr's last line: ` (their text uncut up to 200 characters); ends
/// with a line break.
pub(crate) fn text(checked: &Checked, settings: &Settings) -> String {
    let mut out = String::new();
    let n = checked.cases.len();
    let _ = writeln!(out, "check: {}", clip(&crate::render::words::escaped(&settings.program.shown()), 73));
    wrap(
        &mut out,
        &format!(
            "{n} case{}: {}; time limit {} s{}; {} job{}",
            if n == 1 { "" } else { "s" },
            origins(&checked.cases),
            seconds(settings.time_limit),
            if checked.cases.iter().any(|c| c.large) {
                format!(" ({} s for the large ones)", seconds(settings.large_time_limit))
            } else {
                String::new()
            },
            settings.jobs,
            if settings.jobs == 1 { "" } else { "s" }
        ),
    );
    let v = checked.verdict();
    let why = if v == Verdict::Accepted { "every case accepted" } else { v.words() };
    let _ = writeln!(out, "verdict: {v} ({why})\n");
    let (by, all) = counts(checked);
    let _ = write!(out, "{:<12}{:>7}", "strategy", "cases");
    for v in Verdict::ALL {
        let _ = write!(out, "{:>7}", v.code());
    }
    out.push('\n');
    for (name, c) in by.iter().map(|(s, c)| (s.as_str(), c)).chain((by.len() > 1).then_some(("all", &all))) {
        let _ = write!(out, "{:<12}{:>7}", clip(name, 11), c.iter().sum::<usize>());
        for x in c {
            let _ = write!(out, "{x:>7}");
        }
        out.push('\n');
    }
    if let Some((k, o)) = checked.outcomes.iter().enumerate().max_by_key(|(_, o)| o.run.elapsed) {
        let name = checked.cases.get(k).map_or("", |c| c.name.as_str());
        let _ = writeln!(
            out,
            "\nslowest run: {} s ({}); the check took {} s",
            seconds(o.run.elapsed),
            clip(name, 30),
            seconds(checked.wall)
        );
    }
    for (v, k) in checked.first_failures() {
        let (Some(case), Some(outcome)) = (checked.cases.get(k), checked.outcomes.get(k)) else { continue };
        let many = checked
            .cases
            .iter()
            .zip(&checked.outcomes)
            .filter(|(c, o)| o.verdict == v && c.strategy == case.strategy)
            .count();
        out.push('\n');
        wrap(
            &mut out,
            &format!(
                "== {v} ({}), {}: {many} case{}; the first is {}",
                v.words(),
                clip(&case.strategy, 20),
                if many == 1 { "" } else { "s" },
                clip(&case.name, 60)
            ),
        );
        let shrunk = checked.shrunk.get(k).and_then(Option::as_ref);
        failure(&mut out, case, outcome, shrunk, settings);
    }
    out
}

/// The block of one failing case: its input (shrunk when possible), the expected
/// output, the program's, and where they differ.
fn failure(out: &mut String, case: &Case, outcome: &Outcome, shrunk: Option<&Shrunk>, settings: &Settings) {
    let (input, expected, shown) = match shrunk {
        Some(s) => {
            let from = case.instance.as_ref().map(|i| i.size_words()).unwrap_or_default();
            let _ = writeln!(
                out,
                "shrunk in {} run{} from {from} to {}:",
                s.runs,
                if s.runs == 1 { "" } else { "s" },
                s.instance.size_words()
            );
            out.push_str(if s.minimal {
                "(1-minimal: no one-step reduction of it gets this verdict)\n"
            } else {
                "(the budget ran out: a smaller input may still get this verdict)\n"
            });
            (s.input.as_slice(), s.expected.as_slice(), &s.outcome)
        }
        None => {
            if case.instance.is_some() && outcome.verdict != Verdict::OutputLimit {
                out.push_str("(no smaller input gets this verdict)\n");
            }
            (case.input.as_slice(), case.expected.as_slice(), outcome)
        }
    };
    let pe = shown.verdict == Verdict::PresentationError;
    out.push_str("input:\n");
    block(out, input, false);
    out.push_str("expected output:\n");
    block(out, expected, pe);
    out.push_str("program's output:\n");
    block(out, &shown.run.stdout, pe);
    match shown.verdict {
        Verdict::PresentationError => {
            let why: Vec<&str> = verdict::presentation(expected, &shown.run.stdout).iter().map(|p| p.words()).collect();
            wrap(out, &format!("differs only in: {}", why.join("; ")));
            if let Some(d) = verdict::first_difference(expected, &shown.run.stdout) {
                wrap(out, &format!("first difference: {}", d.describe()));
            }
        }
        Verdict::WrongAnswer => {
            if let Some(d) = verdict::first_difference(expected, &shown.run.stdout) {
                wrap(out, &format!("first difference: {}", d.describe()));
            }
        }
        Verdict::TimeLimit => {
            let _ = writeln!(
                out,
                "killed (with its children) after {} s, and again on a rerun",
                seconds(settings.time_limit)
            );
        }
        Verdict::OutputLimit => {
            let limit = settings.limits(expected.len()).output;
            let _ = writeln!(out, "killed after writing more than {limit} bytes");
        }
        Verdict::RuntimeError => {
            let how = match shown.run.ending {
                Ending::Exited(Some(0)) => "exit status 0, but it wrote on stderr".to_string(),
                Ending::Exited(Some(c)) => format!("exit status {c}"),
                Ending::Exited(None) => "killed by a signal".to_string(),
                _ => String::new(),
            };
            let _ = writeln!(out, "{how}");
            if let Some(first) = first_line(&shown.run.stderr) {
                let _ = writeln!(out, "stderr's first line: {first}");
                if first.starts_with("Traceback (most recent call last)") {
                    if let Some(last) = last_line(&shown.run.stderr) {
                        let _ = writeln!(out, "stderr's last line: {last}");
                    }
                }
            }
            if !shown.run.stderr.is_empty() {
                out.push_str("stderr:\n");
                block(out, &shown.run.stderr, false);
            }
        }
        Verdict::Accepted => {}
    }
}

/// Longest stderr line shown uncut.
const FIRST_LINE: usize = 200;

/// The first line of `stderr` that is not blank, control characters escaped, cut at
/// [`FIRST_LINE`] characters (`...` marking the cut); `None` when there is none.
fn first_line(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    shown_line(text.lines().find(|l| !l.trim().is_empty())?)
}

/// The last line of `stderr` that is not blank (a Python traceback's exception), as
/// [`first_line`] shows it.
fn last_line(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    shown_line(text.lines().rev().find(|l| !l.trim().is_empty())?)
}

/// `line` with control characters escaped, cut at [`FIRST_LINE`] characters.
fn shown_line(line: &str) -> Option<String> {
    let escaped: String =
        line.chars().map(|c| if c.is_control() { format!("\\x{:02x}", c as u32) } else { c.to_string() }).collect();
    Some(clip(&escaped, FIRST_LINE))
}

/// Writes `line` wrapped at 80 columns (continuation lines indented by 2).
fn wrap(out: &mut String, line: &str) {
    let mut current = String::new();
    for word in line.split(' ') {
        if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > 80 {
            let _ = writeln!(out, "{current}");
            current = "  ".to_string();
        } else if !current.is_empty() && current != "  " {
            current.push(' ');
        }
        current.push_str(word);
    }
    let _ = writeln!(out, "{current}");
}

/// `text` cut to `width` characters, `...` marking the cut.
fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut s: String = text.chars().take(width.saturating_sub(3)).collect();
    s.push_str("...");
    s
}

/// Writes `bytes` as an indented block, one `    | ` line per line: control
/// characters escaped (`\r`, `\t`, `\xNN`), long lines and long blocks cut; with
/// `ends`, each line break is shown as `$` (as `cat -A` does).
fn block(out: &mut String, bytes: &[u8], ends: bool) {
    if bytes.is_empty() {
        out.push_str("    (nothing)\n");
        return;
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let lines: Vec<&[u8]> = body.split(|&b| b == b'\n').collect();
    for (k, line) in lines.iter().enumerate().take(MAX_LINES) {
        let mut shown = String::new();
        for c in String::from_utf8_lossy(line).chars() {
            match c {
                '\r' => shown.push_str("\\r"),
                '\t' => shown.push_str("\\t"),
                c if c.is_control() => shown.push_str(&format!("\\x{:02x}", c as u32)),
                c => shown.push(c),
            }
        }
        let last = k + 1 == lines.len();
        if ends && (!last || bytes.ends_with(b"\n")) {
            shown.push('$');
        }
        if shown.is_empty() {
            out.push_str("    |\n");
        } else {
            let _ = writeln!(out, "    | {}", clip(&shown, CLIP));
        }
    }
    if lines.len() > MAX_LINES {
        let _ = writeln!(out, "    ... {} more lines", lines.len() - MAX_LINES);
    }
    if !bytes.ends_with(b"\n") {
        out.push_str("    (no line break at the end)\n");
    }
}

/// `{"AC": n, "PE": n, ...}`.
fn counts_json(c: &Counts) -> Object {
    Verdict::ALL.iter().zip(c).fold(Object::new(), |o, (v, n)| o.field(v.code(), n))
}

/// Bytes as text for a JSON string (invalid UTF-8 replaced).
fn bytes_json(b: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(b)
}

/// The JSON report: `{"program", "verdict", "cases", "counts", "by_strategy",
/// "failures": [{"case", "strategy", "verdict", "input", "expected", "got", "stderr",
/// "shrunk": {"input", "expected", "got", "stderr", "runs", "minimal"} or null}]}`.
/// Pre: none. Post: one valid JSON object and a line break.
pub(crate) fn json(checked: &Checked, settings: &Settings) -> String {
    let (by, all) = counts(checked);
    let by_strategy = by.iter().fold(Object::new(), |o, (s, c)| o.field(s, counts_json(c)));
    let mut failures = Array::new();
    for ((case, outcome), shrunk) in checked.cases.iter().zip(&checked.outcomes).zip(&checked.shrunk) {
        if outcome.verdict == Verdict::Accepted {
            continue;
        }
        let shrunk = shrunk.as_ref().map(|s| {
            Object::new()
                .field("input", bytes_json(&s.input))
                .field("expected", bytes_json(&s.expected))
                .field("got", bytes_json(&s.outcome.run.stdout))
                .field("stderr", bytes_json(&s.outcome.run.stderr))
                .field("runs", s.runs)
                .field("minimal", s.minimal)
        });
        failures = failures.item(
            Object::new()
                .field("case", &case.name)
                .field("strategy", &case.strategy)
                .field("verdict", outcome.verdict.code())
                .field("input", bytes_json(&case.input))
                .field("expected", bytes_json(&case.expected))
                .field("got", bytes_json(&outcome.run.stdout))
                .field("stderr", bytes_json(&outcome.run.stderr))
                .field("shrunk", shrunk),
        );
    }
    Object::new()
        .field("program", settings.program.shown())
        .field("verdict", checked.verdict().code())
        .field("cases", checked.cases.len())
        .field("counts", counts_json(&all))
        .field("by_strategy", by_strategy)
        .field("failures", failures)
        .line()
}

/// A case name as a file name: letters, digits, `.`, `_` and `-` kept, others `_`.
fn file_name(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' }).collect()
}

/// Writes every failing case into `dir` (created if needed) as `NAME.in` and `NAME.out`
/// (the expected output) with the program's output as `NAME.got` and its stderr, in
/// full, as `NAME.err`, and each shrunk form as `NAME-shrunk.in`, `.out`, `.got` and
/// `.err`. Returns the number of files written.
/// Pre: none. Post: `Err` names the file that could not be written.
pub(crate) fn keep(dir: &Path, checked: &Checked) -> Result<usize, GradingError> {
    std::fs::create_dir_all(dir).map_err(GradingError::file(FileAction::Create, dir))?;
    let mut written = 0;
    let mut put = |name: &str, ext: &str, bytes: &[u8]| -> Result<(), GradingError> {
        let path = dir.join(format!("{}.{ext}", file_name(name)));
        super::testset::replace_file(&path, bytes).map_err(GradingError::file(FileAction::Write, &path))?;
        written += 1;
        Ok(())
    };
    for ((case, outcome), shrunk) in checked.cases.iter().zip(&checked.outcomes).zip(&checked.shrunk) {
        if outcome.verdict == Verdict::Accepted {
            continue;
        }
        put(&case.name, "in", &case.input)?;
        put(&case.name, "out", &case.expected)?;
        put(&case.name, "got", &outcome.run.stdout)?;
        put(&case.name, "err", &outcome.run.stderr)?;
        if let Some(s) = shrunk {
            let name = format!("{}-shrunk", case.name);
            put(&name, "in", &s.input)?;
            put(&name, "out", &s.expected)?;
            put(&name, "got", &s.outcome.run.stdout)?;
            put(&name, "err", &s.outcome.run.stderr)?;
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::grading::cases;
    use crate::tools::grading::check::{Outcome, Shrunk};
    use crate::tools::grading::runner::{Program, Run};
    use std::time::Duration;

    fn run(stdout: &[u8], ending: Ending, stderr: &[u8]) -> Run {
        Run {
            stdout: stdout.to_vec(),
            stderr: stderr.to_vec(),
            ending,
            elapsed: Duration::from_millis(30),
            cpu: Duration::from_millis(20),
        }
    }

    fn settings() -> Settings {
        Settings {
            program: Program { command: "python3".into(), args: vec!["sol.py".into()] },
            time_limit: Duration::from_secs(2),
            large_time_limit: Duration::from_secs(10),
            output_limit: 512_000,
            jobs: 2,
            shrink_budget: 200,
        }
    }

    /// Six samples: AC, PE (no final newline), WA (shrunk), TLE, RE, AC.
    fn checked() -> Checked {
        let all: Vec<String> = ["linear", "smart", "prob"].iter().map(|s| s.to_string()).collect();
        let cases = cases::samples(&all);
        let ok = |k: usize| cases[k].expected.clone();
        let mut no_newline = ok(1);
        no_newline.pop();
        let outcomes = vec![
            Outcome { verdict: Verdict::Accepted, run: run(&ok(0), Ending::Exited(Some(0)), b"") },
            Outcome { verdict: Verdict::PresentationError, run: run(&no_newline, Ending::Exited(Some(0)), b"") },
            Outcome { verdict: Verdict::WrongAnswer, run: run(b"12\n", Ending::Exited(Some(0)), b"") },
            Outcome { verdict: Verdict::TimeLimit, run: run(b"", Ending::TimedOut, b"") },
            Outcome {
                verdict: Verdict::RuntimeError,
                run: run(b"", Ending::Exited(Some(1)), b"Traceback (most recent call last):\nIndexError\n"),
            },
            Outcome { verdict: Verdict::Accepted, run: run(&ok(5), Ending::Exited(Some(0)), b"") },
        ];
        let small = crate::tools::grading::instance::Instance::from_table("prob", 1, 2, &[(0, 1, 1, 'E')]);
        let shrunk = Shrunk {
            input: small.text().into_bytes(),
            expected: small.expected().unwrap().into_bytes(),
            instance: small,
            outcome: Outcome { verdict: Verdict::WrongAnswer, run: run(b"1\nX+\n", Ending::Exited(Some(0)), b"") },
            runs: 17,
            minimal: true,
        };
        Checked {
            shrunk: vec![None, None, Some(shrunk), None, None, None],
            cases,
            outcomes,
            wall: Duration::from_secs(1),
        }
    }

    #[test]
    fn the_text_report_fits_80_columns_and_says_what_differs() {
        let t = text(&checked(), &settings());
        for line in t.lines() {
            assert!(line.chars().count() <= 80, "{line:?}");
        }
        assert!(t.contains("verdict: RE (runtime error)"), "{t}");
        assert!(t.contains("strategy      cases     AC     PE     WA    OLE    TLE     RE\n"), "{t}");
        assert!(t.contains("linear            2      1      0      0      0      1      0\n"), "{t}");
        assert!(t.contains("all               6      2      1      1      0      1      1\n"), "{t}");
        assert!(t.contains("== PE (presentation error), smart: 1 case; the first is sample-01-smart"), "{t}");
        assert!(t.contains("differs only in: no line break after the last line"), "{t}");
        assert!(t.contains("    (no line break at the end)"), "{t}");
        assert!(t.contains("shrunk in 17 runs from 5x6, 2 ships to 1x2, 1 ship:"), "{t}");
        assert!(t.contains("    | prob\n    | 1 2 1\n    | 0 1 1 E\n"), "{t}");
        assert!(t.contains("first difference: line 1, column 1: expected `2`, got `1`"), "{t}");
        assert!(t.contains("killed (with its children) after 2 s"), "{t}");
        assert!(t.contains("exit status 1\nstderr's first line: Traceback (most recent call last):\n"), "{t}");
        assert!(t.contains("stderr's last line: IndexError\nstderr:\n    | Traceback"), "{t}");
        assert!(t.contains("(1-minimal: no one-step reduction of it gets this verdict)\n"), "{t}");
        assert!(t.contains("== WA (wrong answer), prob: 1 case; the first is sample-02-prob"), "{t}");
    }

    #[test]
    fn a_long_first_line_of_stderr_is_shown_uncut_up_to_200_characters() {
        let mut c = checked();
        let long = format!(
            "Exception in thread \"main\" java.lang.ArrayIndexOutOfBoundsException: {}\n\tat X",
            "y".repeat(150)
        );
        c.outcomes[4].run.stderr = long.clone().into_bytes();
        let t = text(&c, &settings());
        let first = long.lines().next().unwrap();
        assert!(first.chars().count() > 200);
        let cut: String = first.chars().take(197).collect();
        assert!(t.contains(&format!("stderr's first line: {cut}...\n")), "{t}");
        let short =
            "Exception in thread \"main\" java.lang.ArrayIndexOutOfBoundsException: Index 1 out of bounds for length 1";
        c.outcomes[4].run.stderr = format!("{short}\n\tat Main.main(Main.java:3)\n").into_bytes();
        assert!(text(&c, &settings()).contains(&format!("stderr's first line: {short}\n")));
    }

    #[test]
    fn the_json_report_lists_every_failure() {
        let j = json(&checked(), &settings());
        assert!(j.starts_with("{\"program\": \"python3 sol.py\", \"verdict\": \"RE\", \"cases\": 6, "), "{j}");
        assert!(j.contains("\"counts\": {\"AC\": 2, \"PE\": 1, \"WA\": 1, \"OLE\": 0, \"TLE\": 1, \"RE\": 1}"), "{j}");
        assert!(j.contains("\"by_strategy\": {\"linear\": {\"AC\": 1, "), "{j}");
        assert_eq!(j.matches("\"case\": ").count(), 4, "{j}");
        assert!(j.contains("\"shrunk\": {\"input\": \"prob\\n1 2 1\\n0 1 1 E\\n\", "), "{j}");
        assert!(j.contains("\"runs\": 17, \"minimal\": true}"), "{j}");
        assert_eq!(j.matches("\"shrunk\": null").count(), 3, "{j}");
        assert!(j.ends_with("]}\n"));
    }

    #[test]
    fn keep_writes_pairs() {
        let dir = std::env::temp_dir().join(format!("grading-keep-{}", std::process::id()));
        let n = keep(&dir, &checked()).unwrap();
        assert_eq!(n, 4 * 4 + 4);
        let err = std::fs::read_to_string(dir.join("sample-04-smart.err")).unwrap();
        assert_eq!(err, "Traceback (most recent call last):\nIndexError\n");
        let input = std::fs::read_to_string(dir.join("sample-02-prob-shrunk.in")).unwrap();
        assert_eq!(input, "prob\n1 2 1\n0 1 1 E\n");
        assert!(dir.join("sample-03-linear.out").is_file());
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(file_name("a b/c"), "a_b_c");
    }
}

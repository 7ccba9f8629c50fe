//! `check`: run a student's program on every case and judge it like Mooshak.

use super::shared::{self, Format, FORMAT, SEED};
use super::{CliError, Status, Streams};
use crate::args::{ArgsError, Command, Flag, Operands, Parsed};
use crate::tools::grading::check::Settings;
use crate::tools::grading::runner::Program;
use crate::tools::grading::session::{self, BuiltinCases, CheckDone, CheckRequest};
use std::time::Duration;

/// Flags choosing the cases (shared with `testset`).
pub(super) const CASE_FLAGS: &[Flag] = &[
    Flag::value("--random", "N", "random cases (at most 100,000)").default("300"),
    SEED.with_help("seed of the random cases"),
    Flag::value("--strategies", "LIST", "strategies of the samples, edge and random cases, or all")
        .default("linear,smart,prob"),
    Flag::switch("--large", "also the large cases (edge-large-300x300-STRATEGY)"),
];

const MORE_CASE_FLAGS: &[Flag] = &[
    Flag::value("--cases", "DIR", "the .in/.out or .in/.ans pairs under DIR too (user-PATH)"),
    Flag::value("--package", "DIR", "only the data/ pairs of the problem package DIR"),
    Flag::switch("--no-builtin", "run the --cases pairs only: no sample, edge or random"),
    Flag::value("--only", "NAME", "run just the case called NAME (as the report names it)"),
];

const RUN_FLAGS: &[Flag] = &[
    Flag::value(
        "--build",
        "COMMAND",
        "run COMMAND once (sh -c, here) before the cases, untimed\n(at most 600 s); a failure is CE with its output",
    ),
    Flag::value("--time-limit", "SECONDS", "CPU-time limit of a run, as Mooshak (a JVM starts in\nabout 0.5 s)")
        .default("2"),
    Flag::value("--large-time-limit", "S", "time limit of a --large case").default("10"),
    Flag::value("--output-limit", "BYTES", "OLE past max(BYTES, twice the expected output)").default("512000"),
    Flag::value("--jobs", "J", "runs at the same time (default: every core)"),
    Flag::value("--shrink-budget", "N", "most runs spent shrinking each kind of failure").default("200"),
];

const REPORT_FLAGS: &[Flag] = &[
    FORMAT.with_help("text (at most 80 columns) or json"),
    Flag::value(
        "--keep",
        "DIR",
        "write each failing case (and its shrunk form) into DIR\nas NAME.in, NAME.out (expected) and NAME.got",
    ),
];

/// `check`'s command line.
pub const COMMAND: Command = Command {
    name: "check",
    summary: "judge a program's output on every case, like Mooshak",
    usage: &["check [OPTIONS] -- PROGRAM [ARGS...]"],
    groups: &[("CASES", CASE_FLAGS), ("YOUR CASES", MORE_CASE_FLAGS), ("RUNS", RUN_FLAGS), ("OPTIONS", REPORT_FLAGS)],
    operands: Operands::AfterDashes,
    after: "\
PROGRAM (java -cp out Main, python3 sol.py, ./a.out) runs once per case, input
on stdin; after each run and on Ctrl-C or SIGTERM every process it started is
killed. Cases: the six samples, edge-BOARD-STRATEGY (up to 30x30; 300x300
with --large), random-SEED-INDEX-STRATEGY (up to 20x20), --cases pairs.
Verdicts, as Mooshak gives them:
  AC   the output is byte-identical to this program's own output
  PE   equal once every run of whitespace is one space, both ends are
       trimmed and letters are lower-cased (final newline, spaces, CR, case)
  WA   any other output
  OLE  more output than the limit: killed
  TLE  more CPU time than the limit (user + system, its own and its
       waited-for children's), or still running (or its output still open)
       at 3 x the limit + 1 s of wall-clock time: killed with its children
  RE   a non-zero exit status, a signal, or anything written on stderr
  CE   (with --build) the build command failed: its output, no case run
A TLE counts only when a rerun times out too. The verdict is the worst over
the cases (AC < PE < WA < OLE < TLE < RE). The first failure of each kind but
OLE, per strategy, is shrunk to a 1-minimal input (no one-step smaller valid
input still gets the verdict) within --shrink-budget runs.

EXIT STATUS: 0 every case AC, 1 some case not AC or a failed --build, 2 bad
  arguments or a PROGRAM that cannot start, 128 + N on signal N (130 Ctrl-C).
",
    extra: None,
    document: Some("report/grading.md"),
};

/// Reads the flags of [`CASE_FLAGS`]: which built-in cases to make.
/// Pre: none. Post: `Err(Usage)` for a bad flag value.
pub(super) fn builtin_cases(p: &Parsed) -> Result<BuiltinCases, CliError> {
    let strategies = BuiltinCases::strategies(p.text("--strategies").unwrap_or_default())?;
    let seed = shared::seed(p)?;
    let random: u64 = p.require("--random")?;
    if random > 100_000 {
        return Err(ArgsError::Rule { flag: "--random", rule: "at most 100,000 cases" }.into());
    }
    Ok(BuiltinCases { strategies, seed, random, large: p.has("--large") })
}

/// Reads the flags into the settings of the check.
fn settings(p: &Parsed) -> Result<Settings, CliError> {
    let program = match p.operands() {
        [command, args @ ..] if !command.is_empty() => Program { command: command.clone(), args: args.to_vec() },
        _ => {
            return Err(CliError::Usage("give the program to check after `--`, e.g. `check -- python3 sol.py`".into()))
        }
    };
    let time_limit = Duration::from_secs_f64(p.seconds("--time-limit")?);
    let large_time_limit = Duration::from_secs_f64(p.seconds("--large-time-limit")?);
    let output_limit: usize = p.require("--output-limit")?;
    if output_limit == 0 || output_limit > 1 << 30 {
        return Err(ArgsError::Rule { flag: "--output-limit", rule: "between 1 and 1073741824 bytes" }.into());
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs: usize = p.get_or("--jobs", cores)?;
    if jobs == 0 || jobs > 256 {
        return Err(ArgsError::Rule { flag: "--jobs", rule: "between 1 and 256" }.into());
    }
    let shrink_budget: usize = p.require("--shrink-budget")?;
    Ok(Settings { program, time_limit, large_time_limit, output_limit, jobs, shrink_budget })
}

/// Reads `check`'s arguments.
/// Pre: `p` was parsed by [`COMMAND`]. Post: `Err(Usage)` for a bad value, no
/// program, `--no-builtin` without `--cases`, or `--package` with `--cases`.
fn config(p: &Parsed) -> Result<CheckRequest, CliError> {
    let settings = settings(p)?;
    let json = Format::read(p, &["text", "json"])? == Format::Json;
    let cases_dir = p.text("--cases").map(str::to_string);
    let package = p.text("--package").map(str::to_string);
    if package.is_some() && cases_dir.is_some() {
        return Err(CliError::Usage("--package and --cases: give one of them".into()));
    }
    let only = p.text("--only").map(str::to_string);
    let builtin = match (&only, p.has("--no-builtin")) {
        (Some(_), _) => None,
        (None, _) if package.is_some() => None,
        (None, true) if cases_dir.is_none() => return Err(CliError::Usage("--no-builtin needs --cases DIR".into())),
        (None, true) => None,
        (None, false) => Some(builtin_cases(p)?),
    };
    let (build, keep) = (p.text("--build").map(str::to_string), p.text("--keep").map(str::to_string));
    Ok(CheckRequest { settings, json, cases_dir, package, only, builtin, build, keep })
}

/// Runs `check`.
/// Pre: none. Post: the report on stdout; `Ok(Rejected)` when some case was not
/// accepted; `Err` (exit 2) for bad flags or a program that cannot be started.
pub fn run(p: &Parsed, io: &mut Streams<'_>) -> Result<Status, CliError> {
    let request = config(p)?;
    match session::run(&request, io.stderr, io.stderr_tty)? {
        CheckDone::Worker(code) => Ok(Status::Worker(code)),
        CheckDone::Report { text, accepted } => {
            io.stdout.write_all(text.as_bytes())?;
            Ok(if accepted { Status::Success } else { Status::Rejected })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy;

    #[test]
    fn reads_defaults_flags_and_bad_values() {
        let c = config(&COMMAND.parse_words(&["--", "prog", "arg"])).unwrap();
        assert_eq!(c.settings.program.command, "prog");
        assert_eq!(
            (c.settings.time_limit, c.settings.large_time_limit),
            (Duration::from_secs(2), Duration::from_secs(10))
        );
        assert_eq!((c.settings.output_limit, c.settings.shrink_budget, c.json), (512_000, 200, false));
        let want = BuiltinCases {
            strategies: vec!["linear".into(), "smart".into(), "prob".into()],
            seed: 2021,
            random: 300,
            large: false,
        };
        assert_eq!(c.builtin, Some(want));
        let words = ["--seed", "3", "--random", "5", "--strategies", "all", "--format", "json", "--", "p"];
        let c = config(&COMMAND.parse_words(&words)).unwrap();
        let cases = c.builtin.unwrap();
        assert_eq!((cases.seed, cases.random, cases.strategies.len(), c.json), (3, 5, strategy::NAMES.len() - 1, true));
        assert!(!cases.strategies.iter().any(|s| s == "lookahead"), "all leaves lookahead out");
        // --only runs one case: the case flags are not read.
        let c = config(&COMMAND.parse_words(&["--only", "x", "--random", "999999", "--", "p"])).unwrap();
        assert_eq!((c.only.as_deref(), c.builtin), (Some("x"), None));
        let e = |w: &[&str]| config(&COMMAND.parse_words(w)).unwrap_err().to_string();
        assert_eq!(e(&["--random", "100001", "--", "p"]), "--random: at most 100,000 cases");
        assert_eq!(e(&["--no-builtin", "--", "p"]), "--no-builtin needs --cases DIR");
        assert_eq!(e(&["--package", "a", "--cases", "b", "--", "p"]), "--package and --cases: give one of them");
        let c = config(&COMMAND.parse_words(&["--package", "pk", "--", "p"])).unwrap();
        assert_eq!((c.package.as_deref(), c.builtin), (Some("pk"), None));
        assert_eq!(e(&["--time-limit", "0", "--", "p"]), "--time-limit: expected seconds between 0 and 86400, got `0`");
    }
}

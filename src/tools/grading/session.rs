//! One whole `check`: the cases chosen, the worker that cleans up even after the
//! command is killed, the build, the runs with their progress line, and the failing
//! cases kept. Typed in ([`CheckRequest`]), the report out, typed errors
//! ([`CheckError`]).

use super::cases::{self, Case, CaseError};
use super::check::{self, Checked, Progress, Settings};
use super::error::GradingError;
use super::report;
use super::runner::StartError;
use super::verdict::Verdict;
use crate::strategy;
use crate::tools::progress::Stopped;
use std::fmt;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Which built-in cases to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BuiltinCases {
    /// The strategies of the cases: known names, none twice.
    pub strategies: Vec<String>,
    /// The seed of the random cases.
    pub seed: u64,
    /// How many random cases (at most 100,000).
    pub random: u64,
    /// The large edge cases too.
    pub large: bool,
}

impl BuiltinCases {
    /// The strategies of a comma-separated `list`: known names (`all`: every one but
    /// lookahead), none twice.
    /// Pre: none. Post: not empty; `Err` naming an unknown or repeated name.
    pub(crate) fn strategies(list: &str) -> Result<Vec<String>, CheckError> {
        let all = strategy::all().map(|e| e.name).collect::<Vec<_>>().join(",");
        let list = if list.trim() == "all" { all.as_str() } else { list };
        let mut out: Vec<String> = Vec::new();
        for name in list.split(',').map(str::trim) {
            if !strategy::NAMES.contains(&name) {
                return Err(CheckError::UnknownStrategy(name.to_string()));
            }
            if out.iter().any(|s| s == name) {
                return Err(CheckError::ListedTwice(name.to_string()));
            }
            out.push(name.to_string());
        }
        Ok(out)
    }

    /// The cases: samples, edge cases (the large ones too when asked) and random cases.
    /// Pre: none. Post: `Err` when a case cannot be made.
    pub(crate) fn cases(&self) -> Result<Vec<Case>, CheckError> {
        let strategies = &self.strategies;
        let mut all = cases::samples(strategies);
        all.extend(cases::edges(strategies).map_err(CheckError::Case)?);
        if self.large {
            all.extend(cases::large_edges(strategies).map_err(CheckError::Case)?);
        }
        all.extend(cases::random(self.seed, self.random, strategies).map_err(CheckError::Case)?);
        Ok(all)
    }
}

/// A check to run, read from `check`'s flags.
#[derive(Debug)]
pub(crate) struct CheckRequest {
    /// The program and the limits of its runs.
    pub settings: Settings,
    /// The report as JSON.
    pub json: bool,
    /// A folder of the user's cases.
    pub cases_dir: Option<String>,
    /// A problem package whose data are the cases.
    pub package: Option<String>,
    /// Just the case of this name.
    pub only: Option<String>,
    /// The built-in cases to run; `None` with `only` or without built-in cases.
    pub builtin: Option<BuiltinCases>,
    /// A command run once before the cases.
    pub build: Option<String>,
    /// A folder for the failing cases.
    pub keep: Option<String>,
}

/// How a check that ran came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CheckDone {
    /// The report: every case accepted (`accepted`) or not, or the build failed.
    Report {
        /// The report, text or JSON.
        text: String,
        /// True when every case was accepted.
        accepted: bool,
    },
    /// The work was done by the worker process, which wrote the report: its status.
    Worker(u8),
}

/// Why a check could not run.
#[derive(Debug)]
pub enum CheckError {
    /// An unknown strategy in the list of the cases' strategies.
    UnknownStrategy(String),
    /// A strategy listed twice.
    ListedTwice(String),
    /// A built-in case that cannot be made.
    Case(CaseError),
    /// The user's cases (`--cases`) cannot be read.
    CasesDir(CaseError),
    /// The package's cases (`--package`) cannot be read.
    Package(CaseError),
    /// No case has the name of `--only`.
    NoSuchCase(String),
    /// No case at all.
    NoCase,
    /// Ctrl-C and SIGTERM could not be watched for.
    Signals(io::Error),
    /// The build command could not start.
    Build(StartError),
    /// The check's thread stopped unexpectedly.
    Stopped(Stopped),
    /// The program could not start.
    Start(StartError),
    /// The failing cases could not be kept.
    Keep(GradingError),
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::UnknownStrategy(name) => write!(
                f,
                "--strategies: unknown strategy `{name}`; {}valid names: {}",
                crate::render::words::did_you_mean(name, &strategy::NAMES),
                strategy::NAMES.join(", ")
            ),
            CheckError::ListedTwice(name) => write!(f, "--strategies: `{name}` is listed twice"),
            CheckError::Case(e) => write!(f, "{e}"),
            CheckError::CasesDir(e) => write!(f, "--cases: {e}"),
            CheckError::Package(e) => write!(f, "--package: {e}"),
            CheckError::NoSuchCase(name) => write!(
                f,
                "--only: no case is called `{name}` (names look like sample-02-prob, edge-1x1-smart, \
                 random-2021-17-linear, or user-NAME with --cases)"
            ),
            CheckError::NoCase => write!(f, "no case to run"),
            CheckError::Signals(e) => write!(f, "cannot watch for signals: {e}"),
            CheckError::Build(e) => write!(f, "--build: {e}"),
            CheckError::Stopped(e) => write!(f, "{e}"),
            CheckError::Start(e) => write!(f, "{e}"),
            CheckError::Keep(e) => write!(f, "--keep: {e}"),
        }
    }
}

impl std::error::Error for CheckError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CheckError::Signals(e) => Some(e),
            CheckError::Build(e) | CheckError::Start(e) => Some(e),
            CheckError::Stopped(e) => Some(e),
            CheckError::Keep(e) => Some(e),
            CheckError::Case(e) | CheckError::CasesDir(e) | CheckError::Package(e) => Some(e),
            _ => None,
        }
    }
}

/// The cases to run: `only` one, else the built-in ones and the user's.
/// Pre: none. Post: `Err` when the user's cases cannot be read, or no case has the
/// name asked for.
pub(crate) fn select(request: &CheckRequest) -> Result<Vec<Case>, CheckError> {
    let user = match (request.cases_dir.as_deref(), request.package.as_deref()) {
        (Some(dir), _) => cases::user(Path::new(dir)).map_err(CheckError::CasesDir)?,
        (None, Some(dir)) => cases::package(Path::new(dir)).map_err(CheckError::Package)?,
        (None, None) => Vec::new(),
    };
    if let Some(name) = request.only.as_deref() {
        if let Some(case) = user.into_iter().find(|c| c.name == name) {
            return Ok(vec![case]);
        }
        return cases::named(name).map(|c| vec![c]).ok_or_else(|| CheckError::NoSuchCase(name.to_string()));
    }
    let Some(builtin) = &request.builtin else {
        return Ok(user);
    };
    let mut all = builtin.cases()?;
    all.extend(user);
    Ok(all)
}

/// Runs the check: the cases chosen, the build, every run (a progress line on `stderr`
/// when `stderr_tty`), the failing cases kept, the report.
/// Pre: none. Post: `Ok(Worker)` in the process that only watched its worker; in the
/// one that worked, the report, or `Err` for no case, a program or build that cannot
/// start. Ctrl-C and SIGTERM kill every program started (the build too); so does the
/// end of this process, SIGKILL included.
pub(crate) fn run(request: &CheckRequest, stderr: &mut dyn Write, stderr_tty: bool) -> Result<CheckDone, CheckError> {
    let (settings, json) = (&request.settings, request.json);
    let cases = select(request)?;
    if cases.is_empty() {
        return Err(CheckError::NoCase);
    }
    // The work goes on in a worker that outlives this process only to clean up.
    if let Some(status) = crate::tools::reaper::supervise("check").map_err(CheckError::Signals)? {
        use std::os::unix::process::ExitStatusExt;
        // The worker's status as this process's: its code, or 128 + its signal.
        let code = status.code().or_else(|| status.signal().map(|s| 128 + s)).unwrap_or(2);
        return Ok(CheckDone::Worker(u8::try_from(code).unwrap_or(2)));
    }
    let mut text = String::new();
    if let Some(command) = request.build.as_deref() {
        let built = check::build(command).map_err(CheckError::Build)?;
        if !built.succeeded() {
            let text = if json {
                report::compile_error_json(&built, settings)
            } else {
                report::compile_error_text(&built, settings)
            };
            return Ok(CheckDone::Report { text, accepted: false });
        }
        if !json {
            text = format!("build: {command}: done in {} s\n", report::seconds(built.run.elapsed));
        }
    }
    let checked = with_progress(cases, settings, stderr, stderr_tty);
    // What escaped every run's tracking (an orphan that cleared its environment).
    crate::tools::reaper::sweep();
    let checked = checked?;
    if let Some(dir) = request.keep.as_deref() {
        report::keep(Path::new(dir), &checked).map_err(CheckError::Keep)?;
    }
    text.push_str(&if json { report::json(&checked, settings) } else { report::text(&checked, settings) });
    Ok(CheckDone::Report { text, accepted: checked.verdict() == Verdict::Accepted })
}

/// Runs the cases while the progress line shows the cases done (at a terminal).
fn with_progress(
    cases: Vec<Case>,
    settings: &Settings,
    stderr: &mut dyn Write,
    stderr_tty: bool,
) -> Result<Checked, CheckError> {
    let progress = Progress::default();
    let total = cases.len();
    let line = |_: Duration| {
        Some(if progress.shrinking.load(Ordering::Relaxed) {
            format!("shrinking the failures: {} runs", progress.shrink_runs.load(Ordering::Relaxed))
        } else {
            format!(
                "{}/{total} cases, {} not accepted",
                progress.done.load(Ordering::Relaxed),
                progress.failing.load(Ordering::Relaxed)
            )
        })
    };
    let work = || check::check(cases, settings, &progress);
    let checked = crate::tools::progress::with_progress(stderr, stderr_tty, "the check", work, line);
    checked.map_err(CheckError::Stopped)?.map_err(CheckError::Start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cases_strategies_are_known_and_listed_once() {
        assert_eq!(BuiltinCases::strategies("linear, prob").unwrap(), ["linear", "prob"]);
        let all = BuiltinCases::strategies("all").unwrap();
        assert!(!all.iter().any(|s| s == "lookahead") && all.len() == strategy::NAMES.len() - 1);
        let e = BuiltinCases::strategies("linear,prb").unwrap_err().to_string();
        assert!(e.starts_with("--strategies: unknown strategy `prb`; did you mean `prob`?"), "{e}");
        let e = BuiltinCases::strategies("prob,prob").unwrap_err().to_string();
        assert_eq!(e, "--strategies: `prob` is listed twice");
    }

    #[test]
    fn only_one_case_is_selected_by_name() {
        let settings = Settings {
            program: super::super::runner::Program { command: "p".into(), args: vec![] },
            time_limit: Duration::from_secs(1),
            large_time_limit: Duration::from_secs(1),
            output_limit: 1,
            jobs: 1,
            shrink_budget: 0,
        };
        let request = |only: &str| CheckRequest {
            settings: settings.clone(),
            json: false,
            cases_dir: None,
            package: None,
            only: Some(only.to_string()),
            builtin: None,
            build: None,
            keep: None,
        };
        let cases = select(&request("sample-02-prob")).unwrap();
        assert_eq!(cases.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["sample-02-prob"]);
        assert!(matches!(select(&request("nope")), Err(CheckError::NoSuchCase(name)) if name == "nope"));
    }
}

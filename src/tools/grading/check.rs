//! Checking a program like the judge does: every case is run (in parallel, results
//! kept in case order) and judged by Mooshak's rules, then the first failing case of
//! each kind (PE, WA, TLE, RE) and strategy is shrunk to a 1-minimal input with the
//! same verdict. A time limit counts only when it repeats: a run the runner stopped
//! for time is run again at once, and the case is TLE only when that run is stopped
//! too (otherwise the second run's verdict stands); the shrunk form of a TLE is run
//! once more alone, with nothing else running, and kept only when it still times out.
//! A [`build`] command may run once before the cases (`check --build`).

use super::cases::Case;
use super::instance::Instance;
use super::runner::{self, Ending, Limits, Program, Run, StartError};
use super::shrink;
use super::verdict::{self, Verdict};
use crate::limits::BUILD_TIME;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How to run and judge the program.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    /// The program and its arguments.
    pub program: Program,
    /// Time limit of one run (what the runner enforces).
    pub time_limit: Duration,
    /// Time limit of one run of a large case (`--large`).
    pub large_time_limit: Duration,
    /// Output limit in bytes (at least twice the expected output is always allowed).
    pub output_limit: usize,
    /// Runs at the same time.
    pub jobs: usize,
    /// Most runs spent shrinking one failing case.
    pub shrink_budget: usize,
}

impl Settings {
    /// These settings for `case`: a large case runs under the large time limit.
    /// Pre: none. Post: only the time limit may differ.
    pub(crate) fn for_case(&self, case: &Case) -> Settings {
        let mut s = self.clone();
        if case.large {
            s.time_limit = self.large_time_limit;
        }
        s
    }

    /// The limits of a run whose expected output is `expected` bytes long.
    /// Pre: none. Post: the output limit is at least twice the expected length.
    pub(crate) fn limits(&self, expected: usize) -> Limits {
        Limits { time: self.time_limit, output: self.output_limit.max(expected.saturating_mul(2)) }
    }
}

/// A judged run.
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    /// The verdict.
    pub verdict: Verdict,
    /// What the run produced.
    pub run: Run,
}

/// Runs the program on `input` and judges its output against `expected`: `TLE` or
/// `OLE` when it was killed for a limit, `RE` when it exited non-zero, died of a signal
/// or wrote on stderr, else `AC`, `PE` or `WA` by [`verdict::compare`].
/// Pre: none. Post: `Err` only when the program cannot be started.
pub(crate) fn judge(settings: &Settings, input: &[u8], expected: &[u8]) -> Result<Outcome, StartError> {
    let run = runner::run(&settings.program, input, settings.limits(expected.len()))?;
    let verdict = match run.ending {
        Ending::TimedOut => Verdict::TimeLimit,
        Ending::OutputLimit => Verdict::OutputLimit,
        Ending::Exited(code) if code != Some(0) || !run.stderr.is_empty() => Verdict::RuntimeError,
        Ending::Exited(_) => verdict::compare(expected, &run.stdout),
    };
    Ok(Outcome { verdict, run })
}

/// [`judge`], with a time limit confirmed: when the run is stopped for time, the
/// program is run again on the same input, and the second run's outcome is the
/// result (TLE only when it is stopped for time too: twice in a row).
/// Pre: none. Post: `TimeLimit` only when two runs in a row ran out of time; `Err`
/// only when the program cannot be started.
pub(crate) fn judge_confirmed(settings: &Settings, input: &[u8], expected: &[u8]) -> Result<Outcome, StartError> {
    let first = judge(settings, input, expected)?;
    if first.verdict != Verdict::TimeLimit {
        return Ok(first);
    }
    judge(settings, input, expected)
}

/// Most bytes of the build command's stdout (and of its stderr) kept.
const BUILD_OUTPUT: usize = 1 << 20;

/// What the build command did.
#[derive(Debug, Clone)]
pub(crate) struct Build {
    /// The command line, as given (run by `sh -c`).
    pub command: String,
    /// Its run.
    pub run: Run,
}

impl Build {
    /// True when the build exited with status 0 (a compiler's warnings on stderr are
    /// fine).
    /// Pre: none. Post: false for a non-zero status, a signal, or a limit passed.
    pub(crate) fn succeeded(&self) -> bool {
        self.run.ending == Ending::Exited(Some(0))
    }
}

/// Runs `command` once through `sh -c` in the current directory, with an empty stdin,
/// untimed but stopped (with its children) after [`BUILD_TIME`] or past 1 MiB of
/// output.
/// Pre: none. Post: `Err` only when `sh` cannot be started.
pub(crate) fn build(command: &str) -> Result<Build, StartError> {
    let sh = Program { command: "sh".into(), args: vec!["-c".into(), command.to_string()] };
    let run = runner::run(&sh, b"", Limits { time: BUILD_TIME, output: BUILD_OUTPUT })?;
    Ok(Build { command: command.to_string(), run })
}

/// Counters a caller may watch from another thread (progress on a terminal).
#[derive(Debug, Default)]
pub(crate) struct Progress {
    /// Cases judged.
    pub done: AtomicUsize,
    /// Cases judged that were not accepted.
    pub failing: AtomicUsize,
    /// Runs spent shrinking so far.
    pub shrink_runs: AtomicUsize,
    /// True once every case is judged (shrinking has begun).
    pub shrinking: AtomicBool,
}

/// A failing case shrunk to a smaller input with the same verdict.
#[derive(Debug, Clone)]
pub(crate) struct Shrunk {
    /// The smaller input.
    pub instance: Instance,
    /// Its text.
    pub input: Vec<u8>,
    /// Its expected output.
    pub expected: Vec<u8>,
    /// The program's run on it.
    pub outcome: Outcome,
    /// Runs spent shrinking.
    pub runs: usize,
    /// True when no one-step reduction of the input gets the verdict (false when the
    /// budget ran out first).
    pub minimal: bool,
}

/// Everything a check found.
#[derive(Debug)]
pub(crate) struct Checked {
    /// The cases, in order.
    pub cases: Vec<Case>,
    /// The outcome of each case.
    pub outcomes: Vec<Outcome>,
    /// For each case, its shrunk form (only for the first failing case of each kind
    /// and strategy).
    pub shrunk: Vec<Option<Shrunk>>,
    /// Wall-clock time of the whole check.
    pub wall: Duration,
}

impl Checked {
    /// The worst verdict over the cases (`AC` when there are none).
    /// Pre: none. Post: `AC` exactly when every case is accepted.
    pub(crate) fn verdict(&self) -> Verdict {
        self.outcomes.iter().map(|o| o.verdict).max().unwrap_or(Verdict::Accepted)
    }

    /// For each verdict other than AC that some case got and each strategy, the index
    /// of the first case of that strategy with that verdict: verdicts in Mooshak's
    /// order, strategies in order of first appearance among the cases.
    /// Pre: none. Post: at most one entry per verdict and strategy.
    pub(crate) fn first_failures(&self) -> Vec<(Verdict, usize)> {
        let mut strategies: Vec<&str> = Vec::new();
        for c in &self.cases {
            if !strategies.contains(&c.strategy.as_str()) {
                strategies.push(&c.strategy);
            }
        }
        let mut out = Vec::new();
        for &v in Verdict::ALL.iter().skip(1) {
            for s in &strategies {
                let first = self.cases.iter().zip(&self.outcomes).position(|(c, o)| o.verdict == v && c.strategy == *s);
                out.extend(first.map(|k| (v, k)));
            }
        }
        out
    }
}

/// Runs `f` on every item with `jobs` threads; results in item order. Stops taking new
/// items after an error, and returns the error of the first item that failed.
fn parallel<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    f: &(dyn Fn(&T) -> Result<R, StartError> + Sync),
) -> Result<Vec<R>, StartError> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<(usize, Result<R, StartError>)>> = Mutex::new(Vec::with_capacity(items.len()));
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(k) else { break };
                    let r = f(item);
                    if r.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    if let Ok(mut all) = results.lock() {
                        all.push((k, r));
                    }
                }
            });
        }
    });
    let mut all = results.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    all.sort_by_key(|(k, _)| *k);
    all.into_iter().map(|(_, r)| r).collect()
}

/// Checks the program on `cases`: runs them all (a TLE confirmed by a second run),
/// then shrinks the first failing case of each kind among PE, WA, TLE and RE and each
/// strategy (when its input can be shrunk).
/// Pre: none. Post: one outcome per case, in order; `Err` when the program cannot be
/// started.
pub(crate) fn check(cases: Vec<Case>, settings: &Settings, progress: &Progress) -> Result<Checked, StartError> {
    let start = Instant::now();
    let outcomes = parallel(&cases, settings.jobs, &|case: &Case| {
        let outcome = judge_confirmed(&settings.for_case(case), &case.input, &case.expected)?;
        progress.done.fetch_add(1, Ordering::Relaxed);
        if outcome.verdict != Verdict::Accepted {
            progress.failing.fetch_add(1, Ordering::Relaxed);
        }
        Ok(outcome)
    })?;
    progress.shrinking.store(true, Ordering::Relaxed);
    let mut checked = Checked { shrunk: vec![None; cases.len()], cases, outcomes, wall: Duration::ZERO };
    for (v, k) in checked.first_failures() {
        if v == Verdict::OutputLimit {
            continue;
        }
        let Some(case) = checked.cases.get(k) else { continue };
        let Some(start) = case.instance.clone() else { continue };
        let found = shrink_case(&start, v, &settings.for_case(case), progress)?;
        if let Some(slot) = checked.shrunk.get_mut(k) {
            *slot = found;
        }
    }
    checked.wall = start.elapsed();
    Ok(checked)
}

/// Shrinks `start`, which got `verdict`; `None` when nothing smaller gets it.
fn shrink_case(
    start: &Instance,
    verdict: Verdict,
    settings: &Settings,
    progress: &Progress,
) -> Result<Option<Shrunk>, StartError> {
    let mut last: Option<(Instance, Vec<u8>, Outcome)> = None;
    let mut test = |cands: &[Instance]| -> Result<Option<usize>, StartError> {
        let expected: Vec<Vec<u8>> = cands.iter().map(|c| c.expected().unwrap_or_default().into_bytes()).collect();
        let runs = parallel(&(0..cands.len()).collect::<Vec<_>>(), settings.jobs, &|&k: &usize| {
            let (Some(c), Some(e)) = (cands.get(k), expected.get(k)) else {
                return Ok(None);
            };
            let o = judge_confirmed(settings, c.text().as_bytes(), e)?;
            progress.shrink_runs.fetch_add(1, Ordering::Relaxed);
            Ok(Some(o))
        })?;
        let hit = runs.iter().position(|o| o.as_ref().is_some_and(|o| o.verdict == verdict));
        if let Some(k) = hit {
            if let (Some(c), Some(e), Some(Some(o))) = (cands.get(k), expected.get(k), runs.into_iter().nth(k)) {
                last = Some((c.clone(), e.clone(), o));
            }
        }
        Ok(hit)
    };
    let found = shrink::shrink(start, settings.shrink_budget, settings.jobs, &mut test)?;
    let Some((instance, expected, mut outcome)) = last.filter(|(inst, _, _)| *inst == found.instance) else {
        return Ok(None);
    };
    if verdict == Verdict::TimeLimit {
        // Rerun alone (nothing else runs now): kept only when it times out again.
        let alone = judge(settings, &instance.text().into_bytes(), &expected)?;
        if alone.verdict != Verdict::TimeLimit {
            return Ok(None);
        }
        outcome = alone;
    }
    Ok(Some(Shrunk {
        input: instance.text().into_bytes(),
        instance,
        expected,
        outcome,
        runs: found.runs,
        minimal: found.minimal,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::grading::cases;

    fn settings(script: &str) -> Settings {
        Settings {
            program: Program { command: "sh".into(), args: vec!["-c".into(), script.into()] },
            time_limit: Duration::from_secs(5),
            large_time_limit: Duration::from_secs(5),
            output_limit: 1 << 20,
            jobs: 2,
            shrink_budget: 50,
        }
    }

    #[test]
    fn judges_each_way_a_run_can_end() {
        let s = settings("cat");
        assert_eq!(judge(&s, b"x\n", b"x\n").unwrap().verdict, Verdict::Accepted);
        assert_eq!(judge(&s, b"X \n", b"x\n").unwrap().verdict, Verdict::PresentationError);
        assert_eq!(judge(&s, b"y\n", b"x\n").unwrap().verdict, Verdict::WrongAnswer);
        let s = settings("cat; echo warning >&2");
        assert_eq!(judge(&s, b"x\n", b"x\n").unwrap().verdict, Verdict::RuntimeError);
        let s = settings("cat; exit 1");
        assert_eq!(judge(&s, b"x\n", b"x\n").unwrap().verdict, Verdict::RuntimeError);
        let mut s = settings("sleep 5");
        s.time_limit = Duration::from_millis(100);
        assert_eq!(judge(&s, b"", b"x\n").unwrap().verdict, Verdict::TimeLimit);
        let mut s = settings("yes");
        s.output_limit = 100;
        assert_eq!(judge(&s, b"", b"x\n").unwrap().verdict, Verdict::OutputLimit);
    }

    #[test]
    fn a_time_limit_counts_only_when_a_rerun_times_out_too() {
        let mark = std::env::temp_dir().join(format!("check-tle-once-{}", std::process::id()));
        let _ = std::fs::remove_file(&mark);
        let m = mark.display();
        // Slow on its first run only.
        let mut s = settings(&format!("if [ -e {m} ]; then cat; else touch {m}; sleep 5; fi"));
        s.time_limit = Duration::from_millis(300);
        assert_eq!(judge_confirmed(&s, b"x\n", b"x\n").unwrap().verdict, Verdict::Accepted);
        let _ = std::fs::remove_file(&mark);
        let mut s = settings("sleep 5");
        s.time_limit = Duration::from_millis(100);
        let t = Instant::now();
        assert_eq!(judge_confirmed(&s, b"", b"x\n").unwrap().verdict, Verdict::TimeLimit);
        assert!(t.elapsed() >= Duration::from_millis(200), "two runs");
    }

    #[test]
    fn checks_in_order_and_shrinks_the_first_failure_of_each_kind() {
        let strategies = vec!["linear".to_string()];
        let mut all = cases::samples(&strategies);
        all.extend(cases::edges(&strategies).unwrap().into_iter().filter(|c| !c.name.contains("big")));
        // A "program" right on boards without ships only.
        let script = "awk 'NR == 2 { r = $1; c = $2; n = $3 } END { if (n > 0) { print \"wrong\"; exit } \
                      print 0; for (i = 0; i < r; i++) { s = \"\"; for (j = 0; j < c; j++) s = s \".\"; print s } }'";
        let progress = Progress::default();
        let checked = check(all.clone(), &settings(script), &progress).unwrap();
        assert_eq!(checked.outcomes.len(), all.len());
        assert_eq!(progress.done.load(Ordering::Relaxed), all.len());
        assert_eq!(checked.verdict(), Verdict::WrongAnswer);
        for (case, outcome) in checked.cases.iter().zip(&checked.outcomes) {
            let empty = case.name.contains("empty");
            assert_eq!(outcome.verdict == Verdict::Accepted, empty, "{}", case.name);
        }
        let firsts = checked.first_failures();
        assert_eq!(firsts, vec![(Verdict::WrongAnswer, 0)]);
        let shrunk = checked.shrunk[0].as_ref().unwrap();
        assert_eq!(shrunk.outcome.verdict, Verdict::WrongAnswer);
        assert_eq!(shrunk.instance.ships.len(), 1);
        assert_eq!(shrunk.instance.rows * shrunk.instance.cols, 1, "{:?}", shrunk.instance);
        assert!(shrunk.runs <= 50);
    }

    #[test]
    fn a_program_that_cannot_start_stops_the_check() {
        let mut s = settings("");
        s.program = Program { command: "/no/such/program".into(), args: vec![] };
        let e = check(cases::samples(&["prob".into()]), &s, &Progress::default()).unwrap_err();
        assert!(e.to_string().contains("/no/such/program"));
    }
}

//! `simulate`: rerun the statement's strategy comparison on random boards.

use super::args::{Command, Flag, Operands, Parsed};
use super::game::{self, RULE_FLAGS};
use super::{CliError, Streams};
use crate::chart;
use crate::rules::Rules;
use crate::simulation::{simulate, SimConfig, SimResult};
use crate::strategy::{self, DEFAULT_SEED};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

const FLAGS: &[Flag] = &[
    Flag::value("--games", "N", "boards to play").default("1000000"),
    Flag::value("--rows", "R", "board rows (default: the rules' bay, 10)"),
    Flag::value("--cols", "C", "board columns (default: the rules' bay, 10)"),
    Flag::value(
        "--strategies",
        "LIST",
        "strategies to compare, or all; each is paired with the\nones before it, board by board",
    )
    .default("random,linear,smart,prob"),
    Flag::value("--seed", "S", "master seed").default("2021"),
    Flag::value(
        "--threads",
        "T",
        "worker threads (default and at most: every core; 1 to 1024\naccepted); results do not depend on it",
    ),
    Flag::value(
        "--format",
        "F",
        "text: statistics, paired comparison and a chart;\ncsv: strategy,scans,games; json: one object with everything",
    )
    .default("text"),
    Flag::value("--svg", "FILE", "also write the chart as a standalone SVG file"),
];

/// `simulate`'s command line.
pub const COMMAND: Command = Command {
    name: "simulate",
    summary: "compare strategies on many random boards",
    usage: &["simulate [OPTIONS]"],
    groups: &[("OPTIONS", FLAGS), ("RULES", RULE_FLAGS)],
    operands: Operands::None,
    after: "\
Every strategy plays the very same boards. Game i places the fleet with its own
random stream drawn from the seed and i: ships largest first, each uniformly
among the valid positions; a fleet that gets stuck starts again. Progress goes
to stderr when stderr is a terminal and the run lasts more than a second.

The paired comparison takes each strategy in turn as the reference of the ones
after it: on how many boards each needed fewer, as many or more scans, and the
share where it was at least as good (fewer or as many). JSON gives the same as
\"vs_earlier\" (and \"vs_first\", the comparison with the first strategy).
",
    extra: Some(game::presets_help),
};

/// The most games one run plays (about a day of the fastest strategies on two cores).
pub(crate) const MAX_GAMES: u64 = 10_000_000_000;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Csv,
    Json,
}

/// Runs `simulate`.
/// Pre: none. Post: on `Ok`, the report is on stdout (and the SVG in its file).
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let config = config(flags)?;
    let format = match flags.choice("--format", &["text", "csv", "json"])? {
        Some("csv") => Format::Csv,
        Some("json") => Format::Json,
        _ => Format::Text,
    };
    // Check the SVG file's path before the run, so a bad one fails at once; the chart
    // replaces it only once the run succeeded.
    if let Some(path) = flags.text("--svg") {
        super::files::check_target("--svg", path)?;
    }
    let result = run_with_progress(&config, io)?;
    if let Some(path) = flags.text("--svg") {
        let title = format!(
            "{} games, {}x{} board, {} rules, fleet {}",
            config.games,
            config.rows,
            config.cols,
            config.rules.preset_name(),
            config.rules.fleet().describe()
        );
        super::files::write_atomically("--svg", path, chart::svg(&result.stats, &title).as_bytes())?;
    }
    let report = match format {
        Format::Text => text(&result),
        Format::Csv => csv(&result),
        Format::Json => json(&result),
    };
    io.stdout.write_all(report.as_bytes())?;
    Ok(())
}

/// Reads and checks the flags.
fn config(flags: &Parsed) -> Result<SimConfig, CliError> {
    let games: u64 = flags.require("--games")?;
    if games == 0 {
        return Err(CliError::Usage("--games: at least 1 game".into()));
    }
    if games > MAX_GAMES {
        return Err(CliError::Usage(format!("--games: at most {MAX_GAMES} games in one run (split a larger study)")));
    }
    let rules = game::rules(flags)?;
    let (rows, cols) = game::bay(flags, &rules)?;
    let strategies = strategy_list(flags.text("--strategies").unwrap_or_default(), &rules)?;
    for (k, name) in strategies.iter().enumerate() {
        strategy::for_rules(name, 0, &rules).map_err(|e| CliError::Usage(format!("--strategies: {e}")))?;
        if strategies.get(..k).is_some_and(|before| before.contains(name)) {
            return Err(CliError::Usage(format!("--strategies: `{name}` is listed twice")));
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: usize = flags.get_or("--threads", cores)?;
    if threads == 0 || threads > 1024 {
        return Err(CliError::Usage(format!("--threads: expected a whole number from 1 to 1024, got `{threads}`")));
    }
    // More threads than cores only add memory (each holds its boards): use the cores.
    let threads = threads.min(cores);
    let seed = flags.get_or("--seed", DEFAULT_SEED)?;
    Ok(SimConfig { games, rows, cols, rules, strategies, seed, threads })
}

/// The names in a comma-separated list; `all` stands for every strategy that can play
/// `rules`.
fn strategy_list(text: &str, rules: &Rules) -> Result<Vec<String>, CliError> {
    let mut out = Vec::new();
    for name in text.split(',').map(str::trim) {
        if name == "all" {
            out.extend(strategy::STRATEGIES.iter().filter(|e| (e.supports)(rules).is_ok()).map(|e| e.name.to_string()));
        } else {
            out.push(name.to_string());
        }
    }
    Ok(out)
}

/// Runs the simulation on a helper thread while this one reports progress on stderr
/// (only when stderr is a terminal and after the first second).
fn run_with_progress(config: &SimConfig, io: &mut Streams<'_>) -> Result<SimResult, CliError> {
    let done = AtomicU64::new(0);
    let start = Instant::now();
    let mut shown = false;
    let result = std::thread::scope(|scope| {
        let worker = scope.spawn(|| simulate(config, &done));
        while !worker.is_finished() {
            std::thread::sleep(Duration::from_millis(100));
            let elapsed = start.elapsed().as_secs_f64();
            if io.stderr_tty && elapsed > 1.0 {
                // `done` counts the games each strategy finished.
                let total = config.games.saturating_mul(config.strategies.len().max(1) as u64);
                let n = done.load(Ordering::Relaxed).min(total);
                let rate = n as f64 / config.strategies.len().max(1) as f64 / elapsed;
                let left = if n > 0 { (total - n) as f64 * elapsed / n as f64 } else { 0.0 };
                let pct = super::percent(n, total);
                let _ = write!(io.stderr, "\r{pct:>5}% done, {rate:.0} games/s, about {left:.0} s left   ");
                let _ = io.stderr.flush();
                shown = true;
            }
        }
        worker.join()
    });
    if shown {
        let _ = write!(io.stderr, "\r{}\r", " ".repeat(60));
        let _ = io.stderr.flush();
    }
    match result {
        Ok(r) => r.map_err(|e| CliError::Invalid(e.to_string())),
        Err(_) => Err(CliError::Invalid("the simulation stopped unexpectedly".into())),
    }
}

/// The text report: statistics, paired comparison, chart and timing.
fn text(r: &SimResult) -> String {
    let c = &r.config;
    let mut out = String::new();
    let cells = c.rules.fleet().ship_cells();
    let w = r.stats.iter().map(|s| s.name.len()).max().unwrap_or(0).max(8);
    let _ = writeln!(
        out,
        "{} games, {}x{} board, fleet {} ({cells} ship cell{}), seed {}\nrules {}: {}",
        c.games,
        c.rows,
        c.cols,
        c.rules.fleet().describe(),
        if cells == 1 { "" } else { "s" },
        c.seed,
        c.rules.preset_name(),
        c.rules.describe()
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<w$} {:>8} {:>7} {:>5} {:>5} {:>6} {:>5} {:>5} {:>10}",
        "strategy", "mean", "stdev", "min", "p10", "median", "p90", "max", "games/s"
    );
    for s in &r.stats {
        let _ = writeln!(
            out,
            "{:<w$} {:>8.2} {:>7.2} {:>5} {:>5} {:>6} {:>5} {:>5} {:>10.0}",
            s.name,
            s.mean(),
            s.stdev(),
            s.min(),
            s.percentile(10.0),
            s.percentile(50.0),
            s.percentile(90.0),
            s.max(),
            s.games_per_second()
        );
    }
    // Each strategy but the last is the reference of the ones after it.
    for (j, reference) in r.stats.iter().enumerate().take(r.stats.len().saturating_sub(1)) {
        let _ = writeln!(out);
        let _ = writeln!(out, "paired with {} (share of boards: fewer / as many / more scans):", reference.name);
        for s in r.stats.iter().skip(j + 1) {
            if let Some([fewer, equal, more]) = s.vs_earlier.get(j).copied() {
                let pct = |v: u64| super::percent(v, c.games);
                let _ = writeln!(
                    out,
                    "{:<w$}  fewer {:>5}%  equal {:>5}%  more {:>5}%  at least as good {:>5}%",
                    s.name,
                    pct(fewer),
                    pct(equal),
                    pct(more),
                    pct(fewer + equal)
                );
            }
        }
    }
    let _ = writeln!(out);
    out.push_str(&chart::terminal(&r.stats));
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "wall time {:.2} s, {} thread(s), {:.0} games/s (games/s per strategy: one thread)",
        r.wall.as_secs_f64(),
        c.threads,
        c.games as f64 / r.wall.as_secs_f64().max(1e-9)
    );
    out
}

/// `strategy,scans,games`, one row per strategy and scan count reached.
fn csv(r: &SimResult) -> String {
    let mut out = String::from("strategy,scans,games\n");
    for s in &r.stats {
        for (scans, &games) in s.histogram.iter().enumerate().filter(|(_, &g)| g > 0) {
            let _ = writeln!(out, "{},{scans},{games}", s.name);
        }
    }
    out
}

/// One JSON object with the configuration and every strategy's statistics.
fn json(r: &SimResult) -> String {
    let c = &r.config;
    let mut out = String::new();
    let _ = write!(
        out,
        "{{\"games\": {}, \"rows\": {}, \"cols\": {}, \"fleet\": [{}], \"rules\": {}, \"seed\": {}, \"strategies\": [",
        c.games,
        c.rows,
        c.cols,
        c.rules.fleet().sizes_text(),
        crate::json::rules(&c.rules),
        c.seed
    );
    for (k, s) in r.stats.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        let _ = write!(
            out,
            "{{\"name\": \"{}\", \"mean\": {}, \"stdev\": {}, \"min\": {}, \"p10\": {}, \"median\": {}, \"p90\": {}, \"max\": {}",
            s.name,
            crate::json::number(s.mean()),
            crate::json::number(s.stdev()),
            s.min(),
            s.percentile(10.0),
            s.percentile(50.0),
            s.percentile(90.0),
            s.max()
        );
        if let Some([fewer, equal, more]) = s.vs_first {
            let _ = write!(out, ", \"vs_first\": {{\"fewer\": {fewer}, \"equal\": {equal}, \"more\": {more}}}");
        }
        if !s.vs_earlier.is_empty() {
            let pairs: Vec<String> = s
                .vs_earlier
                .iter()
                .zip(&r.stats)
                .map(|([fewer, equal, more], other)| {
                    format!(
                        "{{\"with\": \"{}\", \"fewer\": {fewer}, \"equal\": {equal}, \"more\": {more}}}",
                        other.name
                    )
                })
                .collect();
            let _ = write!(out, ", \"vs_earlier\": [{}]", pairs.join(", "));
        }
        let hist: Vec<String> = s
            .histogram
            .iter()
            .enumerate()
            .filter(|(_, &g)| g > 0)
            .map(|(scans, g)| format!("[{scans}, {g}]"))
            .collect();
        let _ = write!(out, ", \"histogram\": [{}]}}", hist.join(", "));
    }
    out.push_str("]}\n");
    out
}

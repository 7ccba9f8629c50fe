//! `simulate`: rerun the statement's strategy comparison on random boards; `simulate
//! merge`: the reports of a run's shards combined.

use super::args::{Command, Flag, Operands, Parsed};
use super::game::{BayFlags, RuleFlags, COLS, ROWS, RULE_FLAGS};
use super::shared::{self, Format, FORMAT, SEED};
use super::{CliError, Streams};
use crate::game::rules::Rules;
use crate::limits::BOT_NAME_CHARS;
use crate::limits::SIMULATE_GAMES;
use crate::strategy;
use crate::tools::opponent;
use crate::tools::simulate::arena;
use crate::tools::simulate::chart;
use crate::tools::simulate::merge;
use crate::tools::simulate::report::{text, Report};
use crate::tools::simulate::{simulate, SimConfig, SimResult};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

const FLAGS: &[Flag] = &[
    Flag::value("--games", "N", "boards to play").default("1000000"),
    ROWS.with_help("board rows (default: the rules' bay, 10)"),
    COLS.with_help("board columns (default: the rules' bay, 10)"),
    Flag::value(
        "--strategies",
        "LIST",
        "strategies to compare, or all (every one the rules allow),\neach paired with the ones before it; default: the\nstatement's four, or all when the rules rule one out",
    )
    .default("random,linear,smart,prob"),
    SEED.with_help("master seed"),
    Flag::value(
        "--threads",
        "T",
        "worker threads (default and at most: every core; 1 to 1024\naccepted); results do not depend on it",
    ),
    FORMAT.with_help(
        "text: statistics, paired comparison and a chart;\ncsv: strategy,scans,games; json: everything",
    ),
    Flag::value("--svg", "FILE", "also write the chart as a standalone SVG file"),
    Flag::value("--shard", "K/N", "play only the games i with i mod N = K (K < N <= games;\nsee SHARDS below)"),
    Flag::value("--bot", "NAME=CMD", "race the program CMD as strategy NAME (repeatable; see\nBOTS below)")
        .repeatable(),
    Flag::value("--move-time", "SECS", "the time a bot has per probe (a process's first: 10 s)").default("1"),
    Flag::value("--placement", "HOW", "uniform (default) or opponent (density's hardest of 16)"),
    Flag::switch(
        "--forfeit-as-max",
        "a game a bot forfeits counts rows*cols scans and the run\ngoes on (without: the run stops with an error)",
    ),
];

/// `simulate`'s command line.
pub const COMMAND: Command = Command {
    name: "simulate",
    summary: "compare strategies on many random boards",
    usage: &["simulate [OPTIONS]", "simulate merge [--format F] FILE..."],
    groups: &[("OPTIONS", FLAGS), ("RULES", RULE_FLAGS)],
    operands: Operands::None,
    after: "\
Every strategy plays the very same boards: game i places the fleet (largest
ship first, each uniformly among the valid places) from the seed and i alone.
Progress goes to stderr at a terminal when the run lasts more than a second.

SHARDS (one study spread over machines)
  `simulate --shard K/N --format json > K.json` for K = 0 to N-1 (same flags,
  any machines, any --threads), then `simulate merge 0.json ... > all.json`:
  byte for byte the whole run's JSON (see `help simulate merge`).

BOTS (your own program in the race: --bot NAME=CMD, repeatable)
  CMD is split into words ('...' and \"...\" group words; no shell: for pipes
  use sh -c '...') and started once per thread; it plays the games through
  the protocol (`help protocol`), each after a `game K SEED` line. A bot comes
  after --strategies, or where its NAME is in --strategies. A forfeit (a bad
  line, a probe outside or repeated, over --move-time) stops the run with an
  error naming the game; with --forfeit-as-max the game counts rows*cols.
    simulate --strategies prob,bayes --bot mine='python3 bot.py'
",
    extra: None,
};

/// `simulate merge`'s command line (reached as `simulate merge ...`).
pub const MERGE_COMMAND: Command = Command {
    name: "simulate merge",
    summary: "combine the shards' JSON into the whole run's",
    usage: &["simulate merge [--format F] FILE..."],
    groups: &[(
        "OPTIONS",
        &[FORMAT
            .with_help(
                "json: the whole run's JSON, byte for byte; text or csv:\nas simulate prints them (without times)",
            )
            .default("json")],
    )],
    operands: Operands::Files,
    after: "\
Each FILE is the output of `simulate --shard K/N --format json` for one K (or
`-` for standard input, once). Every shard from 0/N to N-1/N must be given
once, all from the same run: same games, bay, fleet, rules, seed, strategies.
",
    extra: None,
};

/// Runs `simulate`.
/// Pre: none. Post: on `Ok`, the report is on stdout (and the SVG in its file).
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let SimulateConfig { sim: config, format, svg } = SimulateConfig::read(flags)?;
    // Check the SVG file's path before the run, so a bad one fails at once; the chart
    // replaces it only once the run succeeded.
    if let Some(path) = svg.as_deref() {
        super::files::check_target("--svg", path)?;
    }
    if !config.bots.is_empty() {
        // Ctrl-C and SIGTERM kill every bot and its children.
        crate::tools::reaper::guard_signals("simulate")
            .map_err(|e| CliError::Invalid(format!("cannot watch for signals: {e}")))?;
    }
    let result = run_with_progress(&config, io);
    if !config.bots.is_empty() {
        // What escaped every bot's tracking (an orphan that cleared its environment).
        crate::tools::reaper::sweep();
    }
    let result = result?;
    if let Some(path) = svg.as_deref() {
        let title = format!(
            "{} games, {}x{} board, {} rules, fleet {}",
            config.played(),
            config.rows,
            config.cols,
            config.rules.preset_name(),
            config.rules.fleet().describe()
        );
        super::files::write_atomically("--svg", path, chart::svg(&result.stats, &title).as_bytes())?;
    }
    let report = match format {
        Format::Text => text::simulation(&result),
        Format::Csv => text::csv(&result.stats),
        Format::Json => Report::of(&result).write(),
    };
    io.stdout.write_all(report.as_bytes())?;
    Ok(())
}

/// `simulate`'s flags, read and checked.
#[derive(Debug)]
pub(crate) struct SimulateConfig {
    /// The run: games, bay, rules, strategies, seed, threads, shard, bots.
    pub sim: SimConfig,
    /// `--format`.
    pub format: Format,
    /// `--svg`: the file for the chart.
    pub svg: Option<String>,
}

impl SimulateConfig {
    /// Reads `simulate`'s arguments.
    /// Pre: `p` was parsed by [`COMMAND`]. Post: `Err(Usage)` for a bad value.
    pub(crate) fn read(p: &Parsed) -> Result<SimulateConfig, CliError> {
        let sim = sim_config(p)?;
        let format = Format::read(p, &["text", "csv", "json"])?;
        Ok(SimulateConfig { sim, format, svg: p.text("--svg").map(str::to_string) })
    }
}

/// Reads and checks the flags of the run.
fn sim_config(flags: &Parsed) -> Result<SimConfig, CliError> {
    let games: u64 = flags.require("--games")?;
    if games == 0 {
        return Err(CliError::Usage("--games: at least 1 game".into()));
    }
    if games > SIMULATE_GAMES {
        return Err(CliError::Usage(format!(
            "--games: at most {SIMULATE_GAMES} games in one run (split a larger study)"
        )));
    }
    let rules = RuleFlags::read(flags)?.rules;
    let (rows, cols) = BayFlags::read(flags)?.or_rules(&rules)?;
    // The statement's four by default; under rules one of them cannot play, every
    // strategy that can.
    let listed = flags.text("--strategies").unwrap_or_default();
    let ruled_out = !flags.has("--strategies")
        && listed.split(',').any(|name| !strategy::supporting(&rules).any(|e| e.name == name.trim()));
    let mut strategies = strategy_list(if ruled_out { "all" } else { listed }, &rules)?;
    let bots = bot_list(flags)?;
    for (name, _) in &bots {
        if !strategies.contains(name) {
            strategies.push(name.clone());
        }
    }
    for (k, name) in strategies.iter().enumerate() {
        if !bots.iter().any(|(bot, _)| bot == name) {
            strategy::for_rules(name, 0, &rules).map_err(|e| CliError::Usage(format!("--strategies: {e}")))?;
        }
        if strategies.get(..k).is_some_and(|before| before.contains(name)) {
            return Err(CliError::Usage(format!("--strategies: `{name}` is listed twice")));
        }
    }
    if bots.is_empty() {
        if let Some(flag) = ["--move-time", "--forfeit-as-max"].into_iter().find(|f| flags.has(f)) {
            return Err(CliError::Usage(format!("{flag} applies to bots only: give --bot NAME=CMD")));
        }
    }
    let seconds: f64 = flags.require("--move-time")?;
    if !(0.001..=3600.0).contains(&seconds) {
        return Err(super::args::expected("--move-time", "seconds from 0.001 to 3600", &seconds.to_string()));
    }
    let move_time = Duration::from_secs_f64(seconds);
    let forfeit_as_max = flags.has("--forfeit-as-max");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: usize = flags.get_or("--threads", cores)?;
    if threads == 0 || threads > 1024 {
        return Err(CliError::Usage(format!("--threads: expected a whole number from 1 to 1024, got `{threads}`")));
    }
    // More threads than cores only add memory (each holds its boards): use the cores.
    let threads = threads.min(cores);
    let seed = shared::seed(flags)?;
    let shard = match flags.text("--shard") {
        None => None,
        Some(text) => Some(shard(text, games)?),
    };
    let opponent = flags.choice("--placement", &opponent::NAMES)?.and_then(opponent::is_opponent).unwrap_or(false);
    if opponent && (shard.is_some() || Format::read(flags, &["text", "csv", "json"])? == Format::Json) {
        return Err(CliError::Usage(
            "--placement opponent: the JSON report and its shards hold uniform placements only; use text or csv".into(),
        ));
    }
    Ok(SimConfig {
        games,
        rows,
        cols,
        rules,
        strategies,
        seed,
        threads,
        shard,
        bots,
        move_time,
        forfeit_as_max,
        opponent,
    })
}

/// The bots of `--bot NAME=CMD`: each name and its command split into words.
fn bot_list(flags: &Parsed) -> Result<Vec<(String, Vec<String>)>, CliError> {
    let mut bots: Vec<(String, Vec<String>)> = Vec::new();
    for value in flags.all("--bot") {
        let Some((name, command)) = value.split_once('=') else {
            return Err(super::args::expected("--bot", "NAME=CMD", value));
        };
        let name = name.trim();
        let fits = |c: char| c.is_ascii_alphanumeric() || "-_.".contains(c);
        if name.is_empty() || name.len() > BOT_NAME_CHARS || !name.chars().all(fits) {
            return Err(CliError::Usage(format!(
                "--bot: `{}` is not a bot name (1 to {BOT_NAME_CHARS} letters, digits, '-', '_' or '.')",
                crate::render::words::shown(name.as_bytes())
            )));
        }
        if strategy::NAMES.contains(&name) || name == "all" {
            return Err(CliError::Usage(format!("--bot: `{name}` is a built-in strategy; give the bot another name")));
        }
        if bots.iter().any(|(n, _)| n == name) {
            return Err(CliError::Usage(format!("--bot: two bots are called `{name}`")));
        }
        let argv = arena::split_command(command).map_err(|e| CliError::Usage(format!("--bot {name}: {e}")))?;
        bots.push((name.to_string(), argv));
    }
    Ok(bots)
}

/// `K/N` of `--shard`, with `K < N <= games`.
fn shard(text: &str, games: u64) -> Result<(u64, u64), CliError> {
    let parsed = text.split_once('/').and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((k, n)) if k < n && n <= games => Ok((k, n)),
        _ => Err(super::args::expected("--shard", &format!("K/N with 0 <= K < N <= {games} (the games)"), text)),
    }
}

/// The names in a comma-separated list; `all` stands for every strategy that can play
/// `rules`.
fn strategy_list(text: &str, rules: &Rules) -> Result<Vec<String>, CliError> {
    let mut out = Vec::new();
    for name in text.split(',').map(str::trim) {
        if name == "all" {
            out.extend(strategy::every(rules).map(|e| e.name.to_string()));
        } else {
            out.push(name.to_string());
        }
    }
    Ok(out)
}

/// Runs the simulation while the progress line (at a terminal, after the first
/// second) shows the share of games played, the rate and the time left.
fn run_with_progress(config: &SimConfig, io: &mut Streams<'_>) -> Result<SimResult, CliError> {
    let done = AtomicU64::new(0);
    let line = |elapsed: Duration| {
        let elapsed = elapsed.as_secs_f64();
        if elapsed <= 1.0 {
            return None;
        }
        // `done` counts the games each strategy finished.
        let total = config.played().saturating_mul(config.strategies.len().max(1) as u64);
        let n = done.load(Ordering::Relaxed).min(total);
        let rate = n as f64 / config.strategies.len().max(1) as f64 / elapsed;
        let left = if n > 0 { (total - n) as f64 * elapsed / n as f64 } else { 0.0 };
        Some(format!("{:>5}% done, {rate:.0} games/s, about {left:.0} s left", crate::render::words::percent(n, total)))
    };
    let result = super::with_progress(io, "the simulation", || simulate(config, &done), line)?;
    result.map_err(|e| CliError::Invalid(e.to_string()))
}

/// `simulate merge`'s arguments, read.
#[derive(Debug)]
pub(crate) struct MergeConfig {
    /// `--format`.
    pub format: Format,
    /// The shards' files (`-`: standard input).
    pub files: Vec<String>,
}

impl MergeConfig {
    /// Reads `simulate merge`'s arguments.
    /// Pre: `p` was parsed by [`MERGE_COMMAND`]. Post: `Err(Usage)` for a bad format.
    pub(crate) fn read(p: &Parsed) -> Result<MergeConfig, CliError> {
        Ok(MergeConfig { format: Format::read(p, &["json", "text", "csv"])?, files: p.operands().to_vec() })
    }
}

/// Runs `simulate merge`.
/// Pre: none. Post: on `Ok`, the merged report is on stdout; on `Err` nothing is.
pub fn run_merge(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let MergeConfig { format, files } = MergeConfig::read(flags)?;
    let mut shards = Vec::new();
    let mut stdin_read = false;
    for path in &files {
        let bytes = if path == "-" {
            if std::mem::replace(&mut stdin_read, true) {
                return Err(CliError::Usage("`-` (standard input) given twice".into()));
            }
            super::read_limited(&mut *io.stdin, "standard input", crate::limits::JSON_BYTES as u64)?
        } else {
            let mut file =
                std::fs::File::open(path).map_err(|e| CliError::Invalid(format!("cannot open `{path}`: {e}")))?;
            super::read_limited(&mut file, &format!("`{path}`"), crate::limits::JSON_BYTES as u64)?
        };
        let text = String::from_utf8(bytes).map_err(|_| CliError::Invalid(format!("`{path}` is not UTF-8 text")))?;
        shards.push(merge::read(path, &text).map_err(|e| CliError::Invalid(e.to_string()))?);
    }
    let merged = merge::combine(&shards).map_err(|e| match e {
        merge::MergeError::Nothing => CliError::Usage(e.to_string()),
        e => CliError::Invalid(e.to_string()),
    })?;
    let report = match format {
        Format::Text => text::merged(&merged),
        Format::Csv => text::csv(&merged.report.strategies),
        Format::Json => merged.report.write(),
    };
    io.stdout.write_all(report.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_defaults_flags_and_bad_values() {
        let c = SimulateConfig::read(&COMMAND.parse_words(&[])).unwrap();
        assert_eq!((c.sim.games, c.sim.seed, c.sim.rows, c.sim.cols), (1_000_000, 2021, 10, 10));
        assert_eq!(c.sim.strategies, ["random", "linear", "smart", "prob"]);
        assert_eq!((c.format, c.svg, c.sim.shard), (Format::Text, None, None));
        assert_eq!(c.sim.move_time, Duration::from_secs(1));
        let words =
            ["--games", "40", "--seed", "9", "--rules", "classic", "--format=csv", "--shard", "1/4", "--threads", "1"];
        let c = SimulateConfig::read(&COMMAND.parse_words(&words)).unwrap();
        assert_eq!((c.sim.games, c.sim.seed, c.sim.shard, c.sim.threads), (40, 9, Some((1, 4)), 1));
        assert_eq!((c.format, c.sim.rules.preset_name()), (Format::Csv, "classic"));
        assert!(!c.sim.strategies.contains(&"prob".to_string()), "prob cannot play classic: all that can");
        let e = |w: &[&str]| SimulateConfig::read(&COMMAND.parse_words(w)).unwrap_err().to_string();
        assert_eq!(e(&["--games", "0"]), "--games: at least 1 game");
        assert_eq!(e(&["--format", "xml"]), "--format: expected text, csv or json, got `xml`");
        assert_eq!(e(&["--threads", "0"]), "--threads: expected a whole number from 1 to 1024, got `0`");
    }

    #[test]
    fn merge_reads_its_format_and_files() {
        let c = MergeConfig::read(&MERGE_COMMAND.parse_words(&["a.json", "-"])).unwrap();
        assert_eq!((c.format, c.files), (Format::Json, vec!["a.json".to_string(), "-".to_string()]));
        assert!(MergeConfig::read(&MERGE_COMMAND.parse_words(&["--format", "xml"])).is_err());
    }
}

//! `simulate`: rerun the statement's strategy comparison on random boards; `simulate
//! merge`: the reports of a run's shards combined.

use super::game::{BayFlags, RuleFlags, COLS, ROWS, RULE_FLAGS};
use super::shared::{self, Format, FORMAT, SEED};
use super::{CliError, Streams};
use crate::args::{Command, Flag, Operands, Parsed};
use crate::strategy;
use crate::tools::opponent;
use crate::tools::simulate::chart;
use crate::tools::simulate::report::{text, Report};
use crate::tools::simulate::setup::{self, SimulateError};
use crate::tools::simulate::SimConfig;

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
    document: Some("report/arena.md"),
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
    document: Some("report/arena.md"),
};

/// Runs `simulate`.
/// Pre: none. Post: on `Ok`, the report is on stdout (and the SVG in its file).
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let SimulateConfig { sim: config, format, svg } = SimulateConfig::read(flags)?;
    // Check the SVG file's path before the run, so a bad one fails at once; the chart
    // replaces it only once the run succeeded.
    if let Some(path) = svg.as_deref() {
        crate::tools::files::check_target("--svg", path)?;
    }
    let result = setup::run(&config, io.stderr, io.stderr_tty)?;
    if let Some(path) = svg.as_deref() {
        let title = format!(
            "{} games, {}x{} board, {} rules, fleet {}",
            config.played(),
            config.rows,
            config.cols,
            config.rules.preset_name(),
            config.rules.fleet().describe()
        );
        crate::tools::files::write_atomically("--svg", path, chart::svg(&result.stats, &title).as_bytes())?;
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
    let games = setup::games(flags.require("--games")?)?;
    let rules = RuleFlags::read(flags)?.rules;
    let (rows, cols) = BayFlags::read(flags)?.or_rules(&rules)?;
    // The statement's four by default; under rules one of them cannot play, every
    // strategy that can.
    let listed = flags.text("--strategies").unwrap_or_default();
    let ruled_out = !flags.has("--strategies")
        && listed.split(',').any(|name| !strategy::supporting(&rules).any(|e| e.name == name.trim()));
    let bots = setup::bots(flags.all("--bot"))?;
    let strategies = setup::strategies(if ruled_out { "all" } else { listed }, &rules, &bots)?;
    if bots.is_empty() {
        if let Some(flag) = ["--move-time", "--forfeit-as-max"].into_iter().find(|f| flags.has(f)) {
            return Err(SimulateError::BotsOnly(flag).into());
        }
    }
    let move_time = setup::move_time(flags.require("--move-time")?)?;
    let forfeit_as_max = flags.has("--forfeit-as-max");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = setup::threads(flags.get_or("--threads", cores)?, cores)?;
    let seed = shared::seed(flags)?;
    let shard = match flags.text("--shard") {
        None => None,
        Some(text) => Some(setup::shard(text, games)?),
    };
    let opponent = flags.choice("--placement", &opponent::NAMES)?.and_then(opponent::is_opponent).unwrap_or(false);
    if opponent && (shard.is_some() || Format::read(flags, &["text", "csv", "json"])? == Format::Json) {
        return Err(SimulateError::OpponentJson.into());
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
    let merged = setup::merge_files(&files, &mut *io.stdin)?;
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
    use std::time::Duration;

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

//! A simulation's settings checked (the games, the strategies, the bots, the threads,
//! the shard), the run with its progress line, and the shards' files read for a
//! merge: `simulate`'s work, typed in and out ([`SimulateError`]).

use super::merge::{self, MergeError, Merged};
use super::{simulate, SimConfig, SimError, SimResult};
use crate::game::rules::Rules;
use crate::limits::{BOT_NAME_CHARS, SIMULATE_GAMES};
use crate::strategy::{self, StrategyError};
use crate::tools::progress::Stopped;
use crate::tools::settings::ValueError;
use crate::tools::streams::{read_limited, ReadError};
use std::fmt;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Why `simulate` (or `simulate merge`) could not run.
#[derive(Debug)]
pub enum SimulateError {
    /// No game to play.
    NoGames,
    /// More games than one run plays.
    TooManyGames,
    /// A strategy of `--strategies` that cannot play.
    Strategy(StrategyError),
    /// A strategy listed twice.
    ListedTwice(String),
    /// A bot's flag given without a bot.
    BotsOnly(&'static str),
    /// A value that is not what its flag takes.
    Value(ValueError),
    /// A thread count out of 1 to 1024.
    Threads(usize),
    /// A bot name of other characters, or too long.
    BotName(String),
    /// A bot named as a built-in strategy.
    BotBuiltIn(String),
    /// Two bots of one name.
    BotTwice(String),
    /// A bot's command that does not split into words.
    BotCommand {
        /// The bot.
        name: String,
        /// Why.
        why: String,
    },
    /// The opponent's placement asked of a JSON report or a shard.
    OpponentJson,
    /// Ctrl-C and SIGTERM could not be watched for.
    Signals(io::Error),
    /// The run's thread stopped unexpectedly.
    Stopped(Stopped),
    /// The run failed.
    Run(SimError),
    /// `-` (standard input) given twice to merge.
    StdinTwice,
    /// A shard's file that cannot be opened.
    Open {
        /// The path.
        path: String,
        /// Why.
        error: io::Error,
    },
    /// A shard's file that cannot be read, or is too large.
    Read(ReadError),
    /// A shard's file that is not UTF-8.
    NotText(String),
    /// The shards do not merge.
    Merge(MergeError),
}

impl fmt::Display for SimulateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimulateError::NoGames => write!(f, "--games: at least 1 game"),
            SimulateError::TooManyGames => {
                write!(f, "--games: at most {SIMULATE_GAMES} games in one run (split a larger study)")
            }
            SimulateError::Strategy(e) => write!(f, "--strategies: {e}"),
            SimulateError::ListedTwice(name) => write!(f, "--strategies: `{name}` is listed twice"),
            SimulateError::BotsOnly(flag) => write!(f, "{flag} applies to bots only: give --bot NAME=CMD"),
            SimulateError::Value(e) => write!(f, "{e}"),
            SimulateError::Threads(n) => write!(f, "--threads: expected a whole number from 1 to 1024, got `{n}`"),
            SimulateError::BotName(name) => write!(
                f,
                "--bot: `{}` is not a bot name (1 to {BOT_NAME_CHARS} letters, digits, '-', '_' or '.')",
                crate::render::words::shown(name.as_bytes())
            ),
            SimulateError::BotBuiltIn(name) => {
                write!(f, "--bot: `{name}` is a built-in strategy; give the bot another name")
            }
            SimulateError::BotTwice(name) => write!(f, "--bot: two bots are called `{name}`"),
            SimulateError::BotCommand { name, why } => write!(f, "--bot {name}: {why}"),
            SimulateError::OpponentJson => write!(
                f,
                "--placement opponent: the JSON report and its shards hold uniform placements only; use text or csv"
            ),
            SimulateError::Signals(e) => write!(f, "cannot watch for signals: {e}"),
            SimulateError::Stopped(e) => write!(f, "{e}"),
            SimulateError::Run(e) => write!(f, "{e}"),
            SimulateError::StdinTwice => write!(f, "`-` (standard input) given twice"),
            SimulateError::Open { path, error } => write!(f, "cannot open `{path}`: {error}"),
            SimulateError::Read(e) => write!(f, "{e}"),
            SimulateError::NotText(path) => write!(f, "`{path}` is not UTF-8 text"),
            SimulateError::Merge(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SimulateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SimulateError::Strategy(e) => Some(e),
            SimulateError::Value(e) => Some(e),
            SimulateError::Signals(e) | SimulateError::Open { error: e, .. } => Some(e),
            SimulateError::Stopped(e) => Some(e),
            SimulateError::Run(e) => Some(e),
            SimulateError::Read(e) => Some(e),
            SimulateError::Merge(e) => Some(e),
            _ => None,
        }
    }
}

/// The number of games, checked: at least 1, at most [`SIMULATE_GAMES`].
/// Pre: none. Post: `Err` otherwise.
pub(crate) fn games(games: u64) -> Result<u64, SimulateError> {
    match games {
        0 => Err(SimulateError::NoGames),
        n if n > SIMULATE_GAMES => Err(SimulateError::TooManyGames),
        n => Ok(n),
    }
}

/// The strategies of a run: the names of the comma-separated `listed` (`all`: every
/// strategy that can play `rules`), then each bot not listed; each built-in one must
/// play `rules`, and none is listed twice.
/// Pre: none. Post: `Err` for a strategy that cannot play, or a name listed twice.
pub(crate) fn strategies(listed: &str, rules: &Rules, bots: &[Bot]) -> Result<Vec<String>, SimulateError> {
    let mut strategies = Vec::new();
    for name in listed.split(',').map(str::trim) {
        if name == "all" {
            strategies.extend(strategy::every(rules).map(|e| e.name.to_string()));
        } else {
            strategies.push(name.to_string());
        }
    }
    for (name, _) in bots {
        if !strategies.contains(name) {
            strategies.push(name.clone());
        }
    }
    for (k, name) in strategies.iter().enumerate() {
        if !bots.iter().any(|(bot, _)| bot == name) {
            strategy::for_rules(name, 0, rules).map_err(SimulateError::Strategy)?;
        }
        if strategies.get(..k).is_some_and(|before| before.contains(name)) {
            return Err(SimulateError::ListedTwice(name.clone()));
        }
    }
    Ok(strategies)
}

/// A bot: its name and its command split into words.
pub(crate) type Bot = (String, Vec<String>);

/// The bots of `--bot NAME=CMD` values.
/// Pre: none. Post: `Err` for a value not `NAME=CMD`, a bad or built-in name, a name
/// given twice, or a command that does not split into words.
pub(crate) fn bots(values: &[String]) -> Result<Vec<Bot>, SimulateError> {
    let mut bots: Vec<Bot> = Vec::new();
    for value in values {
        let Some((name, command)) = value.split_once('=') else {
            return Err(SimulateError::Value(ValueError::new("--bot", "NAME=CMD", value)));
        };
        let name = name.trim();
        let fits = |c: char| c.is_ascii_alphanumeric() || "-_.".contains(c);
        if name.is_empty() || name.len() > BOT_NAME_CHARS || !name.chars().all(fits) {
            return Err(SimulateError::BotName(name.to_string()));
        }
        if strategy::NAMES.contains(&name) || name == "all" {
            return Err(SimulateError::BotBuiltIn(name.to_string()));
        }
        if bots.iter().any(|(n, _)| n == name) {
            return Err(SimulateError::BotTwice(name.to_string()));
        }
        let argv = super::arena::split_command(command)
            .map_err(|why| SimulateError::BotCommand { name: name.to_string(), why })?;
        bots.push((name.to_string(), argv));
    }
    Ok(bots)
}

/// A bot's time per probe, `seconds` from 0.001 to 3600.
/// Pre: none. Post: `Err` otherwise.
pub(crate) fn move_time(seconds: f64) -> Result<Duration, SimulateError> {
    if !(0.001..=3600.0).contains(&seconds) {
        let e = ValueError::new("--move-time", "seconds from 0.001 to 3600", &seconds.to_string());
        return Err(SimulateError::Value(e));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// The worker threads: `threads` (1 to 1024), at most `cores` (more only add memory:
/// each holds its boards).
/// Pre: none. Post: `Err` out of 1 to 1024.
pub(crate) fn threads(threads: usize, cores: usize) -> Result<usize, SimulateError> {
    if threads == 0 || threads > 1024 {
        return Err(SimulateError::Threads(threads));
    }
    Ok(threads.min(cores))
}

/// `K/N` of `--shard`, with `K < N <= games`.
/// Pre: none. Post: `Err` saying what was expected otherwise.
pub(crate) fn shard(text: &str, games: u64) -> Result<(u64, u64), SimulateError> {
    let parsed = text.split_once('/').and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((k, n)) if k < n && n <= games => Ok((k, n)),
        _ => {
            let wanted = format!("K/N with 0 <= K < N <= {games} (the games)");
            Err(SimulateError::Value(ValueError::new("--shard", &wanted, text)))
        }
    }
}

/// Runs the simulation while the progress line (on `stderr` when `stderr_tty`, after
/// the first second) shows the share of games played, the rate and the time left.
/// With bots, Ctrl-C and SIGTERM kill every bot and its children, and what escaped
/// their tracking is killed at the end.
/// Pre: `config` was checked by the functions above. Post: the run's result, or why
/// it failed.
pub(crate) fn run(config: &SimConfig, stderr: &mut dyn Write, stderr_tty: bool) -> Result<SimResult, SimulateError> {
    if !config.bots.is_empty() {
        crate::tools::reaper::guard_signals("simulate").map_err(SimulateError::Signals)?;
    }
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
    let work = || simulate(config, &done);
    let result = crate::tools::progress::with_progress(stderr, stderr_tty, "the simulation", work, line);
    if !config.bots.is_empty() {
        // What escaped every bot's tracking (an orphan that cleared its environment).
        crate::tools::reaper::sweep();
    }
    result.map_err(SimulateError::Stopped)?.map_err(SimulateError::Run)
}

/// Reads the shards' `files` (`-`: `stdin`, once) and merges them.
/// Pre: none. Post: `Err` naming the file that cannot be read or does not parse, or
/// why the shards do not make one run.
pub(crate) fn merge_files(files: &[String], stdin: &mut dyn Read) -> Result<Merged, SimulateError> {
    let mut shards = Vec::new();
    let mut stdin_read = false;
    let limit = crate::limits::JSON_BYTES as u64;
    for path in files {
        let bytes = if path == "-" {
            if std::mem::replace(&mut stdin_read, true) {
                return Err(SimulateError::StdinTwice);
            }
            read_limited(stdin, "standard input", limit).map_err(SimulateError::Read)?
        } else {
            let mut file =
                std::fs::File::open(path).map_err(|error| SimulateError::Open { path: path.clone(), error })?;
            read_limited(&mut file, &format!("`{path}`"), limit).map_err(SimulateError::Read)?
        };
        let text = String::from_utf8(bytes).map_err(|_| SimulateError::NotText(path.clone()))?;
        shards.push(merge::read(path, &text).map_err(SimulateError::Merge)?);
    }
    merge::combine(&shards).map_err(SimulateError::Merge)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_games_threads_shards_and_bots() {
        assert_eq!(games(0).unwrap_err().to_string(), "--games: at least 1 game");
        assert!(games(SIMULATE_GAMES + 1).is_err() && games(5).is_ok());
        assert_eq!(
            threads(0, 4).unwrap_err().to_string(),
            "--threads: expected a whole number from 1 to 1024, got `0`"
        );
        assert_eq!(threads(64, 4).unwrap(), 4);
        assert_eq!(shard("1/4", 40).unwrap(), (1, 4));
        assert!(shard("4/4", 40).is_err() && shard("1/41", 40).is_err());
        let b = bots(&["mine=python3 bot.py".to_string()]).unwrap();
        assert_eq!(b, vec![("mine".to_string(), vec!["python3".to_string(), "bot.py".to_string()])]);
        let e = |v: &str| bots(&[v.to_string()]).unwrap_err().to_string();
        assert_eq!(e("prob=x"), "--bot: `prob` is a built-in strategy; give the bot another name");
        assert!(e("nocommand").starts_with("--bot: expected NAME=CMD"));
        assert!(move_time(0.0).is_err() && move_time(1.0).is_ok());
    }
}

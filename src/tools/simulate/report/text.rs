//! `simulate`'s text and CSV reports (the JSON one is [`super::Report`]): the
//! statistics of every strategy, their paired comparison, the terminal chart and the
//! speeds; and the same for a merged run.

use crate::render::words::percent;
use crate::tools::simulate::chart;
use crate::tools::simulate::merge;
use crate::tools::simulate::{SimResult, StrategyStats};
use std::fmt::Write as _;
use std::time::Duration;

/// The text report of a run: statistics, paired comparison, chart and timing.
/// Pre: none. Post: ends with a newline.
pub(crate) fn simulation(r: &SimResult) -> String {
    let c = &r.config;
    let mut out = String::new();
    let cells = c.rules.fleet().ship_cells();
    let games = match c.shard {
        Some((k, n)) => format!("{} games (shard {k}/{n} of a {}-game run)", c.played(), c.games),
        None => format!("{} games", c.games),
    };
    let _ = writeln!(
        out,
        "{games}, {}x{} board, fleet {} ({cells} ship cell{}), seed {}\nrules {}: {}{}",
        c.rows,
        c.cols,
        c.rules.fleet().describe(),
        if cells == 1 { "" } else { "s" },
        c.seed,
        c.rules.preset_name(),
        c.rules.describe(),
        if c.opponent {
            "\nfleets placed as an opponent would: of 16 uniform ones, the one density needs the most scans for"
        } else {
            ""
        }
    );
    let rates: Vec<Rates> = r
        .stats
        .iter()
        .enumerate()
        .map(|(k, s)| Rates {
            wall: s.games_per_second(),
            cpu: r.strategy_cpu.get(k).filter(|_| c.bot(&s.name).is_none()).map(|t| per_second(s.games(), *t)),
        })
        .collect();
    out.push_str(&text_body(&r.stats, c.played(), Some(&rates)));
    if c.forfeit_as_max {
        let bots: Vec<&StrategyStats> = r.stats.iter().filter(|s| c.bot(&s.name).is_some()).collect();
        out.push_str(&forfeit_lines(&bots, c.played(), c.rows * c.cols));
    }
    let _ = writeln!(
        out,
        "wall time {:.2} s, {} thread(s), {} games/s (g/s per strategy: one thread)",
        r.wall.as_secs_f64(),
        c.threads,
        rate(per_second(c.played(), r.wall))
    );
    if let Some(cpu) = r.cpu {
        let _ = writeln!(
            out,
            "CPU time {:.2} s (user + system), {} games per CPU-second",
            cpu.as_secs_f64(),
            rate(per_second(c.played(), cpu))
        );
    }
    out
}

/// A strategy's speed on one thread: games per second of wall time, and of CPU time
/// when the system tells (not for bots: their time is their own process's).
struct Rates {
    wall: f64,
    cpu: Option<f64>,
}

/// `games` per second of `time` (0 for no time).
fn per_second(games: u64, time: Duration) -> f64 {
    let secs = time.as_secs_f64();
    if secs > 0.0 {
        games as f64 / secs
    } else {
        0.0
    }
}

/// A rate of games for the text report: whole games from 10 up, two significant digits
/// below (lookahead plays about 0.05 games a second).
fn rate(v: f64) -> String {
    if v >= 10.0 || v <= 0.0 || !v.is_finite() {
        return format!("{v:.0}");
    }
    let decimals = (1.0 - v.log10().floor()).clamp(0.0, 6.0) as usize;
    format!("{v:.decimals$}")
}

/// What the bots forfeited (under `--forfeit-as-max`), and the first forfeit of each,
/// then a blank line.
fn forfeit_lines(bots: &[&StrategyStats], games: u64, cells: usize) -> String {
    let mut out = format!("forfeits (--forfeit-as-max: each counts {cells} scans, the whole bay):\n");
    for s in bots {
        let _ = write!(out, "  {}: {} of {games} games", s.name, s.forfeits);
        match &s.first_forfeit {
            Some((game, why)) => {
                let _ = writeln!(out, "; the first, game {game}: {why}");
            }
            None => out.push('\n'),
        }
    }
    out.push('\n');
    out
}

/// The statistics of every strategy, the paired comparison with the first and the chart
/// (with each strategy's speed when `rates` are given, one per strategy), after a blank
/// line.
fn text_body(stats: &[StrategyStats], games: u64, rates: Option<&[Rates]>) -> String {
    let mut out = String::new();
    let w = stats.iter().map(|s| s.name.len()).max().unwrap_or(0).max(8);
    let _ = writeln!(out);
    let _ = write!(
        out,
        "{:<w$} {:>8} {:>7} {:>5} {:>5} {:>6} {:>5} {:>5}",
        "strategy", "mean", "stdev", "min", "p10", "median", "p90", "max"
    );
    let _ = writeln!(
        out,
        "{}",
        if rates.is_some() { format!(" {:>8} {:>8}", "wall g/s", "CPU g/s") } else { String::new() }
    );
    for (k, s) in stats.iter().enumerate() {
        let _ = write!(
            out,
            "{:<w$} {:>8.2} {:>7.2} {:>5} {:>5} {:>6} {:>5} {:>5}",
            s.name,
            s.mean(),
            s.stdev(),
            s.min(),
            s.percentile(10.0),
            s.percentile(50.0),
            s.percentile(90.0),
            s.max()
        );
        let speed = rates.and_then(|r| r.get(k)).map(|r| {
            let cpu = r.cpu.map_or_else(|| "-".to_string(), rate);
            format!(" {:>8} {cpu:>8}", rate(r.wall))
        });
        let _ = writeln!(out, "{}", speed.unwrap_or_default());
    }
    // Each strategy but the last is the reference of the ones after it.
    for (j, reference) in stats.iter().enumerate().take(stats.len().saturating_sub(1)) {
        let _ = writeln!(out);
        let _ = writeln!(out, "paired with {} (share of boards: fewer / as many / more scans):", reference.name);
        for s in stats.iter().skip(j + 1) {
            if let Some([fewer, equal, more]) = s.vs_earlier.get(j).copied() {
                let pct = |v: u64| percent(v, games);
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
    out.push_str(&chart::terminal(stats));
    let _ = writeln!(out);
    out
}

/// The CSV report: `strategy,scans,games`, one row per strategy and scan count reached.
/// Pre: none. Post: a header line, then the rows.
pub(crate) fn csv(stats: &[StrategyStats]) -> String {
    let mut out = String::from("strategy,scans,games\n");
    for s in stats {
        for (scans, games) in &s.histogram {
            let _ = writeln!(out, "{},{scans},{games}", s.name);
        }
    }
    out
}

/// The text report of a merged run (the configuration as the JSON gives it, no times).
/// Pre: none. Post: ends with a newline.
pub(crate) fn merged(merged: &merge::Merged) -> String {
    let m = &merged.report;
    let mut out = format!(
        "{} games, {}x{} board, fleet {}, seed {}\nrules {}; merged from {} shard{}\n",
        m.games,
        m.rows,
        m.cols,
        m.fleet,
        m.seed,
        merged.preset,
        merged.shards,
        if merged.shards == 1 { "" } else { "s" }
    );
    out.push_str(&text_body(&m.strategies, m.games, None));
    if m.forfeits.is_some() {
        let bots: Vec<&StrategyStats> =
            m.strategies.iter().filter(|s| s.forfeits > 0 || merged.is_bot(&s.name)).collect();
        out.push_str(&forfeit_lines(&bots, m.games, (m.rows * m.cols) as usize));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_rates_keep_two_significant_digits() {
        assert_eq!(rate(49_608.4), "49608");
        assert_eq!(rate(10.0), "10");
        assert_eq!(rate(9.94), "9.9");
        assert_eq!(rate(0.0546), "0.055");
        assert_eq!(rate(0.0), "0");
    }
}

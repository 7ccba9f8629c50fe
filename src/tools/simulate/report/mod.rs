//! `simulate`'s JSON report, defined once: [`Report`] is what it holds, [`Report::write`]
//! the one function that writes it (`simulate --format json`, and `simulate merge` for
//! the merged run) and [`Report::read`] the one that reads it back (`simulate merge`,
//! from each shard).
//!
//! The shape, one line: `{"games", "rows", "cols", "fleet", "rules", "seed",
//! "strategies": [{"name", "mean", "stdev", "min", "p10", "median", "p90", "max",
//! "vs_first", "vs_earlier", "histogram"}, ...], "forfeits", "shard"}`, members in that
//! order; `vs_first` and `vs_earlier` on all strategies but the first, `forfeits` with
//! `--forfeit-as-max`, `shard` for a shard's report.

pub(crate) mod text;

use crate::render::json::{self, Array, JsonError, Member, Object, Raw, Value};
use crate::tools::simulate::{SimResult, StrategyStats};
use std::collections::BTreeMap;
use std::time::Duration;

/// The members of a report, in the order they are written; `forfeits` and `shard` may
/// be absent.
const KEYS: [&str; 9] = ["games", "rows", "cols", "fleet", "rules", "seed", "strategies", "forfeits", "shard"];

/// The members of a strategy's entry, in order (`vs_first` and `vs_earlier` on all but
/// the first).
const STRATEGY_KEYS: [&str; 11] =
    ["name", "mean", "stdev", "min", "p10", "median", "p90", "max", "vs_first", "vs_earlier", "histogram"];

/// Which shard of a run a report is: `index` of `count`, of a run of `run_games` games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ShardOf {
    /// The shard's number, from 0.
    pub index: u64,
    /// How many shards the run was split into.
    pub count: u64,
    /// Games of the whole run.
    pub run_games: u64,
}

/// One run's (or one shard's) report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Report {
    /// Games played (by this shard, for a shard's report).
    pub games: u64,
    /// Rows of the bay.
    pub rows: u64,
    /// Columns of the bay.
    pub cols: u64,
    /// The fleet's sizes as JSON text, as `simulate` writes them: `[5,4,3,3,2,2,1,1]`
    /// (no spaces); read back as written.
    pub fleet: String,
    /// The rules as JSON text ([`json::rules`]); read back as written.
    pub rules: String,
    /// The master seed.
    pub seed: u64,
    /// One tally per strategy, in the run's order (the statistics written are computed
    /// from the histogram; times are not written).
    pub strategies: Vec<StrategyStats>,
    /// With `--forfeit-as-max`: each bot's forfeited games.
    pub forfeits: Option<Vec<(String, u64)>>,
    /// For a shard's report: which shard.
    pub shard: Option<ShardOf>,
}

/// Why a text is not a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReportError {
    /// Not JSON.
    Json(JsonError),
    /// JSON, but not a report: what is wrong.
    Shape(String),
}

/// The games shard `index` of `count` plays in a run of `games` games.
/// Pre: none. Post: 0 when `index >= games` or `count == 0`.
pub(crate) fn shard_games(index: u64, count: u64, games: u64) -> u64 {
    if index < games && count > 0 {
        (games - 1 - index) / count + 1
    } else {
        0
    }
}

impl Report {
    /// The report of the simulation `r`.
    /// Pre: none. Post: `games` is the games played (the shard's, for a shard).
    pub(crate) fn of(r: &SimResult) -> Report {
        let c = &r.config;
        let forfeits = c.forfeit_as_max.then(|| {
            r.stats.iter().filter(|s| c.bot(&s.name).is_some()).map(|s| (s.name.clone(), s.forfeits)).collect()
        });
        Report {
            games: c.played(),
            rows: c.rows as u64,
            cols: c.cols as u64,
            fleet: format!("[{}]", c.rules.fleet().sizes_text()),
            rules: json::rules(&c.rules),
            seed: c.seed,
            strategies: r.stats.clone(),
            forfeits,
            shard: c.shard.map(|(index, count)| ShardOf { index, count, run_games: c.games }),
        }
    }

    /// The report as one line of JSON.
    /// Pre: `fleet` and `rules` are JSON texts. Post: one valid JSON object and `\n`,
    /// members in the order of [`KEYS`].
    pub(crate) fn write(&self) -> String {
        let stats = &self.strategies;
        let strategies = Array::of(stats.iter().map(|s| {
            let mut entry = Object::new()
                .field("name", &s.name)
                .field("mean", s.mean())
                .field("stdev", s.stdev())
                .field("min", s.min())
                .field("p10", s.percentile(10.0))
                .field("median", s.percentile(50.0))
                .field("p90", s.percentile(90.0))
                .field("max", s.max());
            let counts = |o: Object, [fewer, equal, more]: [u64; 3]| {
                o.field("fewer", fewer).field("equal", equal).field("more", more)
            };
            if let Some(v) = s.vs_first {
                entry = entry.field("vs_first", counts(Object::new(), v));
            }
            if !s.vs_earlier.is_empty() {
                let pairs = s
                    .vs_earlier
                    .iter()
                    .zip(stats)
                    .map(|(v, other)| counts(Object::new().field("with", &other.name), *v));
                entry = entry.field("vs_earlier", Array::of(pairs));
            }
            entry.field("histogram", Array::of(&s.histogram))
        }));
        let mut out = Object::new()
            .field("games", self.games)
            .field("rows", self.rows)
            .field("cols", self.cols)
            .field("fleet", Raw(&self.fleet))
            .field("rules", Raw(&self.rules))
            .field("seed", self.seed)
            .field("strategies", strategies);
        if let Some(list) = &self.forfeits {
            let items = list.iter().map(|(name, games)| Object::new().field("name", name).field("games", games));
            out = out.field("forfeits", Array::of(items));
        }
        if let Some(s) = self.shard {
            let shard = Object::new().field("index", s.index).field("count", s.count).field("run_games", s.run_games);
            out = out.field("shard", shard);
        }
        out.line()
    }

    /// Reads a report written by [`Report::write`].
    /// Pre: none. Post: `Err` for a text that is not JSON, or a missing, unknown or
    /// misplaced member, a bay of a bad size, a `rules` without `preset`, a bad `shard`,
    /// or counts that do not add up (the histograms and comparisons to `games`, a
    /// shard's `games` to its share of the run).
    pub(crate) fn read(text: &str) -> Result<Report, ReportError> {
        let value = json::parse(text).map_err(ReportError::Json)?;
        let bad = |what: String| ReportError::Shape(what);
        let members = value.as_object().ok_or_else(|| bad("not an object".into()))?;
        // The members, in the written order.
        let mut expected = KEYS.iter();
        for m in members {
            if !expected.any(|k| *k == m.key) {
                return Err(bad(if KEYS.contains(&m.key.as_str()) {
                    format!("the member `{}` is out of place", m.key)
                } else {
                    format!("unknown member `{}`", m.key)
                }));
            }
        }
        let member = |key: &str| members.iter().find(|m| m.key == key);
        let need = |key: &str| member(key).ok_or_else(|| bad(format!("no member `{key}`")));
        let number = |key: &str| -> Result<u64, ReportError> {
            need(key)?.value.as_u64().ok_or_else(|| bad(format!("`{key}` is not a whole number")))
        };
        let games = number("games")?;
        let (rows, cols, seed) = (number("rows")?, number("cols")?, number("seed")?);
        crate::game::board::Board::check_size(rows as usize, cols as usize)
            .map_err(|e| bad(format!("rows and cols: {e}")))?;
        let cells = rows.saturating_mul(cols) as usize;
        let as_written = |key: &str| -> Result<String, ReportError> {
            Ok(text.get(need(key)?.span.clone()).unwrap_or("").to_string())
        };
        let (fleet, rules) = (as_written("fleet")?, as_written("rules")?);
        need("rules")?
            .value
            .get("preset")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("`rules` has no `preset`".into()))?;
        let shard = match member("shard") {
            None => None,
            Some(m) => {
                let get = |key: &str| m.value.get(key).and_then(Value::as_u64);
                match (get("index"), get("count"), get("run_games")) {
                    (Some(index), Some(count), Some(run_games)) if index < count && count <= run_games => {
                        Some(ShardOf { index, count, run_games })
                    }
                    _ => {
                        return Err(bad(
                            "`shard` is not {\"index\": K, \"count\": N, \"run_games\": G} with K < N <= G".into(),
                        ))
                    }
                }
            }
        };
        let ShardOf { index, count, run_games } = shard.unwrap_or(ShardOf { index: 0, count: 1, run_games: games });
        let want = shard_games(index, count, run_games);
        if games != want {
            return Err(bad(format!(
                "shard {index}/{count} of a {run_games}-game run plays {want} games, but `games` is {games}"
            )));
        }
        let list = need("strategies")?.value.as_array().ok_or_else(|| bad("`strategies` is not an array".into()))?;
        if list.is_empty() {
            return Err(bad("`strategies` is empty".into()));
        }
        let mut strategies = Vec::new();
        for (k, entry) in list.iter().enumerate() {
            let tally = strategy(entry, &strategies, games, cells)
                .map_err(|what| bad(format!("strategy {}: {what}", k + 1)))?;
            if strategies.iter().any(|t: &StrategyStats| t.name == tally.name) {
                return Err(bad(format!("the strategy `{}` appears twice", tally.name)));
            }
            strategies.push(tally);
        }
        let forfeits = match member("forfeits") {
            None => None,
            Some(m) => {
                Some(forfeit_list(&m.value, &strategies, games).map_err(|what| bad(format!("`forfeits`: {what}")))?)
            }
        };
        Ok(Report { games, rows, cols, fleet, rules, seed, strategies, forfeits, shard })
    }

    /// The rules' preset name.
    /// Pre: none. Post: empty when `rules` holds none (never so for a report read).
    pub(crate) fn preset(&self) -> String {
        let value = json::parse(&self.rules).ok();
        value.as_ref().and_then(|v| v.get("preset")).and_then(Value::as_str).unwrap_or("").to_string()
    }
}

/// One entry of `strategies`, checked: its counts add up to `games`, its scans are at
/// most `cells`, and unless it is the first it has `vs_first` and `vs_earlier` (one
/// comparison with each of the `earlier` strategies, in order, the first `vs_first`).
/// Its statistics are not read (they follow from the histogram).
fn strategy(entry: &Value, earlier: &[StrategyStats], games: u64, cells: usize) -> Result<StrategyStats, String> {
    let first = earlier.is_empty();
    let members: &[Member] = entry.as_object().ok_or("not an object")?;
    let mut expected = STRATEGY_KEYS.iter();
    for m in members {
        if !expected.any(|k| *k == m.key) {
            return Err(format!("unknown or misplaced member `{}`", m.key));
        }
    }
    let name = entry.get("name").and_then(Value::as_str).ok_or("no `name` string")?.to_string();
    let pairs = entry.get("histogram").and_then(Value::as_array).ok_or(format!("{name}: no `histogram` array"))?;
    let mut histogram = BTreeMap::new();
    let mut last: Option<usize> = None;
    for pair in pairs {
        let item = match pair.as_array() {
            Some([s, g]) => s.as_u64().zip(g.as_u64()),
            _ => None,
        };
        let Some((scans, count)) = item else {
            return Err(format!("{name}: the histogram holds something else than [scans, games] pairs"));
        };
        if scans as usize > cells || count == 0 || last.is_some_and(|s| s >= scans as usize) {
            return Err(format!(
                "{name}: the histogram's scans must increase, each at most rows*cols, with at least one game"
            ));
        }
        last = Some(scans as usize);
        histogram.insert(scans as usize, count);
    }
    let total = histogram.values().try_fold(0u64, |t, &g| t.checked_add(g));
    if total != Some(games) {
        return Err(format!("{name}: the histogram does not add up to the {games} games"));
    }
    let counts = |v: &Value, what: &str| {
        let get = |key: &str| v.get(key).and_then(Value::as_u64);
        match (get("fewer"), get("equal"), get("more")) {
            (Some(a), Some(b), Some(c)) if a.checked_add(b).and_then(|s| s.checked_add(c)) == Some(games) => {
                Ok([a, b, c])
            }
            _ => Err(format!("{name}: `{what}` does not add up to the {games} games")),
        }
    };
    let vs_first = match (entry.get("vs_first"), first) {
        (None, true) => None,
        (Some(v), false) => Some(counts(v, "vs_first")?),
        (None, false) => return Err(format!("{name}: no `vs_first`")),
        (Some(_), true) => return Err(format!("{name}: the first strategy has a `vs_first`")),
    };
    let mut vs_earlier = Vec::new();
    match (entry.get("vs_earlier").and_then(Value::as_array), first) {
        (None, true) => {}
        (Some(list), false) if list.len() == earlier.len() => {
            for (v, other) in list.iter().zip(earlier) {
                if v.get("with").and_then(Value::as_str) != Some(other.name.as_str()) {
                    return Err(format!("{name}: `vs_earlier` must compare with {} in turn", names(earlier)));
                }
                vs_earlier.push(counts(v, "vs_earlier")?);
            }
        }
        _ => return Err(format!("{name}: `vs_earlier` must compare with {} in turn", names(earlier))),
    }
    if vs_earlier.first().copied() != vs_first {
        return Err(format!("{name}: `vs_first` and the first of `vs_earlier` differ"));
    }
    Ok(StrategyStats { name, histogram, vs_first, vs_earlier, busy: Duration::ZERO, forfeits: 0, first_forfeit: None })
}

/// The names of `stats`, separated by commas (`none` for none).
fn names(stats: &[StrategyStats]) -> String {
    if stats.is_empty() {
        return "none".into();
    }
    stats.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// The `forfeits` member: `[{"name": NAME, "games": N}, ...]`, each NAME a strategy.
fn forfeit_list(value: &Value, strategies: &[StrategyStats], games: u64) -> Result<Vec<(String, u64)>, String> {
    let mut out: Vec<(String, u64)> = Vec::new();
    for item in value.as_array().ok_or("not an array")? {
        let name = item.get("name").and_then(Value::as_str);
        let count = item.get("games").and_then(Value::as_u64);
        let (Some(name), Some(count), Some(2)) = (name, count, item.as_object().map(<[Member]>::len)) else {
            return Err("expected [{\"name\": NAME, \"games\": N}, ...]".into());
        };
        if !strategies.iter().any(|t| t.name == name) || out.iter().any(|(n, _)| n == name) || count > games {
            return Err(format!("`{name}` is not a strategy of the run, appears twice, or forfeits too many games"));
        }
        out.push((name.to_string(), count));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(name: &str, histogram: &[(usize, u64)], vs: &[[u64; 3]]) -> StrategyStats {
        StrategyStats {
            name: name.into(),
            histogram: histogram.iter().copied().collect(),
            vs_first: vs.first().copied(),
            vs_earlier: vs.to_vec(),
            busy: Duration::ZERO,
            forfeits: 0,
            first_forfeit: None,
        }
    }

    fn sample() -> Report {
        Report {
            games: 3,
            rows: 3,
            cols: 4,
            fleet: "[2,1]".into(),
            rules: json::rules(&crate::game::rules::Rules::preset("problem-g").unwrap()),
            seed: 7,
            strategies: vec![stats("a", &[(4, 1), (6, 2)], &[]), stats("b\"", &[(5, 3)], &[[1, 0, 2]])],
            forfeits: Some(vec![("b\"".into(), 1)]),
            shard: Some(ShardOf { index: 1, count: 3, run_games: 8 }),
        }
    }

    #[test]
    fn writes_the_shape_simulate_always_wrote() {
        let text = sample().write();
        assert!(
            text.starts_with(
                "{\"games\": 3, \"rows\": 3, \"cols\": 4, \"fleet\": [2,1], \"rules\": {\"preset\": \"problem-g\""
            ),
            "{text}"
        );
        assert!(
            text.contains(", \"seed\": 7, \"strategies\": [{\"name\": \"a\", \"mean\": 5.3333, \"stdev\": "),
            "{text}"
        );
        assert!(text.contains("\"max\": 6, \"histogram\": [[4, 1], [6, 2]]}, {\"name\": \"b\\\"\""), "{text}");
        assert!(text.contains("\"vs_first\": {\"fewer\": 1, \"equal\": 0, \"more\": 2}, \"vs_earlier\": [{\"with\": \"a\", \"fewer\": 1, "), "{text}");
        assert!(text.ends_with("]}], \"forfeits\": [{\"name\": \"b\\\"\", \"games\": 1}], \"shard\": {\"index\": 1, \"count\": 3, \"run_games\": 8}}\n"), "{text}");
    }

    #[test]
    fn what_is_written_reads_back() {
        let report = sample();
        assert_eq!(Report::read(&report.write()), Ok(report.clone()));
        assert_eq!(Report::read(&report.write()).unwrap().preset(), "problem-g");
        let whole = Report { games: 8, shard: None, forfeits: None, ..report };
        let whole = Report { strategies: vec![stats("a", &[(4, 8)], &[])], ..whole };
        assert_eq!(Report::read(&whole.write()), Ok(whole.clone()));
        assert!(matches!(Report::read("{"), Err(ReportError::Json(_))));
        assert_eq!(Report::read("[]"), Err(ReportError::Shape("not an object".into())));
    }
}

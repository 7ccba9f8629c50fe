//! `simulate merge`: the JSON reports of the shards of one run (`simulate --shard K/N
//! --format json`) combined into the report the whole run would have printed.
//!
//! Every game's board and every strategy's play depend only on the seed and the game's
//! number, so the whole run's histograms and paired counts are the sums of the shards';
//! the statistics are recomputed from the summed histograms. The members that say which
//! run it is (rows, cols, fleet, rules, seed) are copied byte for byte from the shards,
//! which must agree on them exactly.

use crate::render::json::{self, Member, Value};
use crate::tools::simulate::StrategyStats;
use std::fmt;
use std::time::Duration;

/// The members of a report, in the order `simulate` writes them; `forfeits` and
/// `shard` may be absent.
const KEYS: [&str; 9] = ["games", "rows", "cols", "fleet", "rules", "seed", "strategies", "forfeits", "shard"];

/// The members that must be byte for byte the same in every shard.
const SAME: [&str; 5] = ["rows", "cols", "fleet", "rules", "seed"];

/// The members of a strategy's entry, in order (`vs_first` and `vs_earlier` on all but
/// the first).
const STRATEGY_KEYS: [&str; 11] =
    ["name", "mean", "stdev", "min", "p10", "median", "p90", "max", "vs_first", "vs_earlier", "histogram"];

/// One shard's report, read and checked.
#[derive(Debug, Clone)]
pub(crate) struct Shard {
    /// The file it came from, for messages.
    file: String,
    /// Which shard: `index` of `count`, of a run of `run_games` games (`0`, `1` and the
    /// games for a report without a `shard` member).
    index: u64,
    count: u64,
    run_games: u64,
    /// The text of each member of [`SAME`], in order.
    same: Vec<String>,
    rows: u64,
    cols: u64,
    seed: u64,
    preset: String,
    strategies: Vec<Tally>,
    /// With `--forfeit-as-max`: each bot's forfeited games.
    forfeits: Option<Vec<(String, u64)>>,
}

/// A strategy's counts in one report.
#[derive(Debug, Clone)]
struct Tally {
    name: String,
    /// `(scans, games)`, scans increasing.
    histogram: Vec<(usize, u64)>,
    vs_first: Option<[u64; 3]>,
    /// Against each earlier strategy, in order: fewer, equal, more.
    vs_earlier: Vec<[u64; 3]>,
}

/// The reports of every shard of a run, added up.
#[derive(Debug, Clone)]
pub(crate) struct Merged {
    /// Games of the whole run.
    pub games: u64,
    /// The text of the members rows, cols, fleet, rules and seed, as the shards wrote
    /// them (`"rows": 10, "cols": 10, ...`).
    pub fields: String,
    /// Rows and columns of the bay, and the seed.
    pub rows: u64,
    /// Columns of the bay.
    pub cols: u64,
    /// The master seed.
    pub seed: u64,
    /// The rules' preset name.
    pub preset: String,
    /// The fleet's sizes as the shards wrote them (`[5,4,3,3,2,2,1,1]`).
    pub fleet: String,
    /// One tally per strategy, in the run's order (no time measured).
    pub stats: Vec<StrategyStats>,
    /// With `--forfeit-as-max`: each bot's forfeited games, summed.
    pub forfeits: Option<Vec<(String, u64)>>,
    /// How many shards were merged.
    pub shards: u64,
}

/// Why reports could not be merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MergeError {
    /// A file is not JSON.
    Json {
        /// The file.
        file: String,
        /// Where and why.
        error: json::JsonError,
    },
    /// A file is JSON, but not a report of `simulate --format json`.
    Report {
        /// The file.
        file: String,
        /// What is wrong.
        what: String,
    },
    /// Two files come from different runs.
    Differs {
        /// The file.
        file: String,
        /// The first file, which the others are compared to.
        first: String,
        /// What differs.
        what: String,
    },
    /// Two files hold the same shard.
    Duplicate {
        /// The later file.
        file: String,
        /// The earlier one.
        other: String,
        /// The shard, `K/N`.
        shard: String,
    },
    /// A shard has no file.
    Missing {
        /// The shard, `K/N`.
        shard: String,
    },
    /// No file was given.
    Nothing,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Json { file, error } => write!(f, "`{file}` is not JSON: {error}"),
            MergeError::Report { file, what } => {
                write!(f, "`{file}` is not a report of simulate --format json: {what}")
            }
            MergeError::Differs { file, first, what } => {
                write!(f, "`{file}` is not a shard of the same run as `{first}`: {what}")
            }
            MergeError::Duplicate { file, other, shard } => {
                write!(f, "`{file}` and `{other}` are both shard {shard}")
            }
            MergeError::Missing { shard } => write!(f, "shard {shard} is missing"),
            MergeError::Nothing => write!(f, "give the JSON reports of every shard (simulate merge FILE...)"),
        }
    }
}

impl std::error::Error for MergeError {}

impl Merged {
    /// True when `name` is a bot listed in the `forfeits` member.
    /// Pre: none. Post: false without that member.
    pub(crate) fn is_bot(&self, name: &str) -> bool {
        self.forfeits.as_ref().is_some_and(|list| list.iter().any(|(n, _)| n == name))
    }
}

/// The games shard `index` of `count` plays in a run of `games` games.
fn shard_games(index: u64, count: u64, games: u64) -> u64 {
    if index < games && count > 0 {
        (games - 1 - index) / count + 1
    } else {
        0
    }
}

/// Reads the report `text` of file `file`.
/// Pre: none. Post: `Err` names the file and what is wrong: not JSON, a missing,
/// unknown or misplaced member, or counts that do not add up.
pub(crate) fn read(file: &str, text: &str) -> Result<Shard, MergeError> {
    let value = json::parse(text).map_err(|error| MergeError::Json { file: file.to_string(), error })?;
    let bad = |what: String| MergeError::Report { file: file.to_string(), what };
    let members = value.as_object().ok_or_else(|| bad("not an object".into()))?;
    // The members, in `simulate`'s order.
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
    let number = |key: &str| -> Result<u64, MergeError> {
        need(key)?.value.as_u64().ok_or_else(|| bad(format!("`{key}` is not a whole number")))
    };
    let games = number("games")?;
    let (rows, cols, seed) = (number("rows")?, number("cols")?, number("seed")?);
    crate::game::board::Board::check_size(rows as usize, cols as usize)
        .map_err(|e| bad(format!("rows and cols: {e}")))?;
    let cells = rows.saturating_mul(cols) as usize;
    let mut same = Vec::new();
    for key in SAME {
        let m = need(key)?;
        same.push(text.get(m.span.clone()).unwrap_or("").to_string());
    }
    let preset = need("rules")?
        .value
        .get("preset")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("`rules` has no `preset`".into()))?
        .to_string();
    let (index, count, run_games) = match member("shard") {
        None => (0, 1, games),
        Some(m) => {
            let get = |key: &str| m.value.get(key).and_then(Value::as_u64);
            match (get("index"), get("count"), get("run_games")) {
                (Some(k), Some(n), Some(g)) if k < n && n <= g => (k, n, g),
                _ => {
                    return Err(bad(
                        "`shard` is not {\"index\": K, \"count\": N, \"run_games\": G} with K < N <= G".into()
                    ))
                }
            }
        }
    };
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
        let tally =
            strategy(entry, &strategies, games, cells).map_err(|what| bad(format!("strategy {}: {what}", k + 1)))?;
        if strategies.iter().any(|t: &Tally| t.name == tally.name) {
            return Err(bad(format!("the strategy `{}` appears twice", tally.name)));
        }
        strategies.push(tally);
    }
    let forfeits = match member("forfeits") {
        None => None,
        Some(m) => Some(forfeit_list(&m.value, &strategies, games).map_err(|what| bad(format!("`forfeits`: {what}")))?),
    };
    Ok(Shard { file: file.to_string(), index, count, run_games, same, rows, cols, seed, preset, strategies, forfeits })
}

/// One entry of `strategies`, checked: its counts add up to `games`, its scans are at
/// most `cells`, and unless it is the first it has `vs_first` and `vs_earlier` (one
/// comparison with each of the `earlier` strategies, in order, the first `vs_first`).
fn strategy(entry: &Value, earlier: &[Tally], games: u64, cells: usize) -> Result<Tally, String> {
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
    let mut histogram = Vec::with_capacity(pairs.len());
    for pair in pairs {
        let item = match pair.as_array() {
            Some([s, g]) => s.as_u64().zip(g.as_u64()),
            _ => None,
        };
        let Some((scans, count)) = item else {
            return Err(format!("{name}: the histogram holds something else than [scans, games] pairs"));
        };
        if scans as usize > cells || count == 0 || histogram.last().is_some_and(|&(s, _)| s >= scans as usize) {
            return Err(format!(
                "{name}: the histogram's scans must increase, each at most rows*cols, with at least one game"
            ));
        }
        histogram.push((scans as usize, count));
    }
    let total = histogram.iter().try_fold(0u64, |t, &(_, g)| t.checked_add(g));
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
    Ok(Tally { name, histogram, vs_first, vs_earlier })
}

/// The names of `tallies`, separated by commas (`none` for none).
fn names(tallies: &[Tally]) -> String {
    if tallies.is_empty() {
        return "none".into();
    }
    tallies.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// The `forfeits` member: `[{"name": NAME, "games": N}, ...]`, each NAME a strategy.
fn forfeit_list(value: &Value, strategies: &[Tally], games: u64) -> Result<Vec<(String, u64)>, String> {
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

/// Adds up the shards of one run.
/// Pre: none. Post: `Err` for no shard, shards of different runs (naming the member
/// that differs), a shard given twice, or a missing shard; otherwise the tallies of the
/// whole run.
pub(crate) fn combine(shards: &[Shard]) -> Result<Merged, MergeError> {
    let first = shards.first().ok_or(MergeError::Nothing)?;
    let names = |s: &Shard| s.strategies.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
    let forfeit_names = |s: &Shard| s.forfeits.as_ref().map(|f| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>());
    for s in shards {
        let differs = |what: String| MergeError::Differs { file: s.file.clone(), first: first.file.clone(), what };
        if (s.count, s.run_games) != (first.count, first.run_games) {
            return Err(differs(format!(
                "it is shard {}/{} of {} games, the first {}/{} of {}",
                s.index, s.count, s.run_games, first.index, first.count, first.run_games
            )));
        }
        for ((key, a), b) in SAME.iter().zip(&s.same).zip(&first.same) {
            if a != b {
                return Err(differs(format!("its `{key}` is {a}, the first's {b}")));
            }
        }
        if names(s) != names(first) {
            return Err(differs(format!(
                "its strategies are {}, the first's {}",
                names(s).join(","),
                names(first).join(",")
            )));
        }
        if forfeit_names(s) != forfeit_names(first) {
            return Err(differs("one was run with --forfeit-as-max and the other not, or with other bots".into()));
        }
    }
    // In shard order (a stable sort: of two files with one shard, the earlier first).
    let mut order: Vec<&Shard> = shards.iter().collect();
    order.sort_by_key(|s| s.index);
    for pair in order.windows(2) {
        if let [a, b] = pair {
            if a.index == b.index {
                let shard = format!("{}/{}", b.index, b.count);
                return Err(MergeError::Duplicate { file: b.file.clone(), other: a.file.clone(), shard });
            }
        }
    }
    let present =
        order.iter().enumerate().find(|(k, s)| s.index != *k as u64).map_or(order.len() as u64, |(k, _)| k as u64);
    if present < first.count {
        return Err(MergeError::Missing { shard: format!("{present}/{}", first.count) });
    }
    let mut stats: Vec<StrategyStats> = first
        .strategies
        .iter()
        .map(|t| StrategyStats {
            name: t.name.clone(),
            histogram: std::collections::BTreeMap::new(),
            vs_first: t.vs_first.map(|_| [0; 3]),
            vs_earlier: vec![[0; 3]; t.vs_earlier.len()],
            busy: Duration::ZERO,
            forfeits: 0,
            first_forfeit: None,
        })
        .collect();
    let mut forfeits = first.forfeits.clone().map(|f| f.into_iter().map(|(n, _)| (n, 0)).collect::<Vec<_>>());
    for s in shards {
        for (stat, t) in stats.iter_mut().zip(&s.strategies) {
            for &(scans, games) in &t.histogram {
                let h = stat.histogram.entry(scans).or_insert(0);
                *h = h.saturating_add(games);
            }
            if let (Some(v), Some(w)) = (stat.vs_first.as_mut(), t.vs_first) {
                v.iter_mut().zip(w).for_each(|(a, b)| *a = a.saturating_add(b));
            }
            for (v, w) in stat.vs_earlier.iter_mut().zip(&t.vs_earlier) {
                v.iter_mut().zip(w).for_each(|(a, b)| *a = a.saturating_add(*b));
            }
        }
        if let (Some(total), Some(part)) = (forfeits.as_mut(), &s.forfeits) {
            total.iter_mut().zip(part).for_each(|(a, b)| a.1 += b.1);
        }
    }
    if let Some(list) = &forfeits {
        for stat in stats.iter_mut() {
            stat.forfeits = list.iter().find(|(n, _)| *n == stat.name).map_or(0, |(_, g)| *g);
        }
    }
    let fields = SAME.iter().zip(&first.same).map(|(k, v)| format!("\"{k}\": {v}")).collect::<Vec<_>>().join(", ");
    Ok(Merged {
        games: first.run_games,
        fields,
        rows: first.rows,
        cols: first.cols,
        seed: first.seed,
        preset: first.preset.clone(),
        fleet: first.same.get(2).cloned().unwrap_or_default(),
        stats,
        forfeits,
        shards: first.count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report of shard `k` of `n` (of 5 games) with one or two strategies.
    fn report(k: u64, n: u64, seed: u64) -> String {
        let games = shard_games(k, n, 5);
        let shard = if n > 1 {
            format!(", \"shard\": {{\"index\": {k}, \"count\": {n}, \"run_games\": 5}}")
        } else {
            String::new()
        };
        format!(
            "{{\"games\": {games}, \"rows\": 3, \"cols\": 3, \"fleet\": [2,1], \"rules\": {{\"preset\": \"problem-g\"}}, \
             \"seed\": {seed}, \"strategies\": [{{\"name\": \"a\", \"histogram\": [[4, {games}]]}}, \
             {{\"name\": \"b\", \"vs_first\": {{\"fewer\": 0, \"equal\": {games}, \"more\": 0}}, \
             \"vs_earlier\": [{{\"with\": \"a\", \"fewer\": 0, \"equal\": {games}, \"more\": 0}}], \
             \"histogram\": [[4, {games}]]}}]{shard}}}"
        )
    }

    fn shards(list: &[(u64, u64, u64)]) -> Result<Merged, MergeError> {
        let read: Vec<Shard> =
            list.iter().map(|&(k, n, seed)| read(&format!("{k}.json"), &report(k, n, seed)).unwrap()).collect();
        combine(&read)
    }

    #[test]
    fn shards_add_up() {
        let m = shards(&[(1, 3, 7), (0, 3, 7), (2, 3, 7)]).unwrap();
        assert_eq!((m.games, m.shards, m.seed), (5, 3, 7));
        assert_eq!(m.stats[0].histogram, crate::tools::simulate::dense_histogram(&[0, 0, 0, 0, 5]));
        assert_eq!(m.stats[1].vs_first, Some([0, 5, 0]));
        assert_eq!(
            m.fields,
            "\"rows\": 3, \"cols\": 3, \"fleet\": [2,1], \"rules\": {\"preset\": \"problem-g\"}, \"seed\": 7"
        );
        // A whole run is its own only shard.
        assert_eq!(shards(&[(0, 1, 7)]).unwrap().games, 5);
    }

    #[test]
    fn refuses_other_runs_and_missing_or_repeated_shards() {
        let err = |list: &[(u64, u64, u64)]| shards(list).unwrap_err().to_string();
        assert!(err(&[(0, 3, 7), (1, 3, 8), (2, 3, 7)]).contains("`1.json` is not a shard of the same run"));
        assert!(err(&[(0, 3, 7), (1, 3, 8)]).contains("its `seed` is 8, the first's 7"));
        assert_eq!(err(&[(0, 3, 7), (2, 3, 7)]), "shard 1/3 is missing");
        assert_eq!(err(&[(0, 2, 7), (1, 2, 7), (1, 2, 7)]), "`1.json` and `1.json` are both shard 1/2");
        assert!(err(&[(0, 2, 7), (0, 3, 7)]).contains("shard 0/3 of 5 games, the first 0/2 of 5"));
        assert_eq!(combine(&[]).unwrap_err(), MergeError::Nothing);
    }

    #[test]
    fn refuses_what_is_not_a_report() {
        let bad = |text: &str, part: &str| {
            let e = read("x.json", text).unwrap_err().to_string();
            assert!(e.starts_with("`x.json` ") && e.contains(part), "{e}");
        };
        bad("{", "is not JSON: line 1, column 2");
        bad("[]", "not an object");
        bad(&report(0, 1, 7).replace("\"games\": 5", "\"games\": 4"), "does not add up");
        bad(&report(0, 1, 7).replace("\"with\": \"a\"", "\"with\": \"z\""), "must compare with a in turn");
        bad(&report(0, 1, 7).replace("\"equal\": 5, \"more\": 0}]", "\"equal\": 4, \"more\": 1}]"), "differ");
        bad(&report(0, 1, 7).replace("\"seed\"", "\"sed\""), "unknown member `sed`");
        bad(&report(0, 1, 7).replace("\"rows\": 3, \"cols\": 3", "\"cols\": 3, \"rows\": 3"), "out of place");
        bad(&report(0, 2, 7).replace("\"games\": 3", "\"games\": 2"), "plays 3 games, but `games` is 2");
        bad(&report(0, 1, 7).replace("[[4, 5]]}]", "[[10, 5]]}]"), "at most rows*cols");
        bad(&report(0, 1, 7).replace("\"equal\": 5", "\"equal\": 4"), "`vs_first` does not add up");
        bad(&report(0, 1, 7).replace("\"rows\": 3", "\"rows\": 0"), "rows and cols");
        bad(&report(0, 1, 7).replace("{\"name\": \"b\"", "{\"name\": \"a\""), "appears twice");
    }
}

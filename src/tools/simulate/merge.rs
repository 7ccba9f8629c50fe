//! `simulate merge`: the JSON reports of the shards of one run (`simulate --shard K/N
//! --format json`) combined into the report the whole run would have printed.
//!
//! Every game's board and every strategy's play depend only on the seed and the game's
//! number, so the whole run's histograms and paired counts are the sums of the shards';
//! the statistics are recomputed from the summed histograms. The members that say which
//! run it is (rows, cols, fleet, rules, seed) are copied byte for byte from the shards,
//! which must agree on them exactly.

use crate::render::json;
use crate::tools::simulate::report::{Report, ReportError, ShardOf};
use crate::tools::simulate::StrategyStats;
use std::fmt;
use std::time::Duration;

/// The members that must be the same in every shard, byte for byte as written.
const SAME: [&str; 5] = ["rows", "cols", "fleet", "rules", "seed"];

/// One shard's report, read and checked.
#[derive(Debug, Clone)]
pub(crate) struct Shard {
    /// The file it came from, for messages.
    file: String,
    /// Which shard (`0` of `1` of the report's games for a report without a `shard`
    /// member).
    of: ShardOf,
    /// The report.
    report: Report,
}

impl Shard {
    /// The text of each member of [`SAME`], in order, as written.
    fn same(&self) -> [String; 5] {
        let r = &self.report;
        [r.rows.to_string(), r.cols.to_string(), r.fleet.clone(), r.rules.clone(), r.seed.to_string()]
    }
}

/// The reports of every shard of a run, added up.
#[derive(Debug, Clone)]
pub(crate) struct Merged {
    /// The whole run's report (no `shard` member; no time measured).
    pub report: Report,
    /// The rules' preset name.
    pub preset: String,
    /// How many shards were merged.
    pub shards: u64,
}

/// Why reports could not be merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeError {
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
        self.report.forfeits.as_ref().is_some_and(|list| list.iter().any(|(n, _)| n == name))
    }
}

/// Reads the report `text` of file `file`.
/// Pre: none. Post: `Err` names the file and what is wrong: not JSON, a missing,
/// unknown or misplaced member, or counts that do not add up ([`Report::read`]).
pub(crate) fn read(file: &str, text: &str) -> Result<Shard, MergeError> {
    let report = Report::read(text).map_err(|e| match e {
        ReportError::Json(error) => MergeError::Json { file: file.to_string(), error },
        ReportError::Shape(what) => MergeError::Report { file: file.to_string(), what },
    })?;
    let of = report.shard.unwrap_or(ShardOf { index: 0, count: 1, run_games: report.games });
    Ok(Shard { file: file.to_string(), of, report })
}

/// Adds up the shards of one run.
/// Pre: none. Post: `Err` for no shard, shards of different runs (naming the member
/// that differs), a shard given twice, or a missing shard; otherwise the tallies of the
/// whole run.
pub(crate) fn combine(shards: &[Shard]) -> Result<Merged, MergeError> {
    let first = shards.first().ok_or(MergeError::Nothing)?;
    let names = |s: &Shard| s.report.strategies.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
    let forfeit_names =
        |s: &Shard| s.report.forfeits.as_ref().map(|f| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>());
    let first_same = first.same();
    for s in shards {
        let differs = |what: String| MergeError::Differs { file: s.file.clone(), first: first.file.clone(), what };
        let (a, b) = (s.of, first.of);
        if (a.count, a.run_games) != (b.count, b.run_games) {
            return Err(differs(format!(
                "it is shard {}/{} of {} games, the first {}/{} of {}",
                a.index, a.count, a.run_games, b.index, b.count, b.run_games
            )));
        }
        for ((key, a), b) in SAME.iter().zip(&s.same()).zip(&first_same) {
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
    order.sort_by_key(|s| s.of.index);
    for pair in order.windows(2) {
        if let [a, b] = pair {
            if a.of.index == b.of.index {
                let shard = format!("{}/{}", b.of.index, b.of.count);
                return Err(MergeError::Duplicate { file: b.file.clone(), other: a.file.clone(), shard });
            }
        }
    }
    let present =
        order.iter().enumerate().find(|(k, s)| s.of.index != *k as u64).map_or(order.len() as u64, |(k, _)| k as u64);
    if present < first.of.count {
        return Err(MergeError::Missing { shard: format!("{present}/{}", first.of.count) });
    }
    let mut stats: Vec<StrategyStats> = first
        .report
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
    let mut forfeits = first.report.forfeits.clone().map(|f| f.into_iter().map(|(n, _)| (n, 0)).collect::<Vec<_>>());
    for s in shards {
        for (stat, t) in stats.iter_mut().zip(&s.report.strategies) {
            for (&scans, &games) in &t.histogram {
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
        if let (Some(total), Some(part)) = (forfeits.as_mut(), &s.report.forfeits) {
            total.iter_mut().zip(part).for_each(|(a, b)| a.1 += b.1);
        }
    }
    if let Some(list) = &forfeits {
        for stat in stats.iter_mut() {
            stat.forfeits = list.iter().find(|(n, _)| *n == stat.name).map_or(0, |(_, g)| *g);
        }
    }
    let report = Report { games: first.of.run_games, strategies: stats, forfeits, shard: None, ..first.report.clone() };
    Ok(Merged { preset: first.report.preset(), report, shards: first.of.count })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::simulate::report::shard_games;

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
        assert_eq!((m.report.games, m.shards, m.report.seed, m.preset.as_str()), (5, 3, 7, "problem-g"));
        assert_eq!(m.report.strategies[0].histogram, crate::tools::simulate::dense_histogram(&[0, 0, 0, 0, 5]));
        assert_eq!(m.report.strategies[1].vs_first, Some([0, 5, 0]));
        assert!(m.report.write().starts_with(
            "{\"games\": 5, \"rows\": 3, \"cols\": 3, \"fleet\": [2,1], \"rules\": {\"preset\": \"problem-g\"}, \"seed\": 7, "
        ));
        // A whole run is its own only shard.
        assert_eq!(shards(&[(0, 1, 7)]).unwrap().report.games, 5);
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

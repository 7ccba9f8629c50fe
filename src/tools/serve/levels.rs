//! The page's difficulty levels: for each preset, the strategy the computer plays at
//! Easy, Medium, Hard and Expert, and every strategy's mean scans on the preset's
//! rules, measured by `spot-the-ships simulate --rules PRESET --games 2000 --strategies
//! all --threads 1` (seed 2021). Expert is the strategy of fewest mean scans.
//!
//! Under classic that is lookahead, which `all` leaves out (about 4 CPU-seconds a
//! game, under a second a move): its mean was measured on the same 2,000 boards by
//! `tests/bench/lookahead-study.sh`, density and lookahead in 40 shards, whose record is
//! `report/lookahead-study.txt` (a test checks the table against it). The page shows
//! the computer's moves as they are made ([`super::computer`]), so a player waits at
//! most a move's thinking, not the whole game. Under the other presets lookahead's
//! gain and its time a move were not measured, and Expert is the strongest of the
//! others.

/// The games behind every mean of [`MEANS`].
pub(crate) const MEASURED_GAMES: u64 = 2000;

/// The level names, easiest first.
pub(crate) const LEVELS: [&str; 4] = ["easy", "medium", "hard", "expert"];

/// Per preset: the strategy of Easy, Medium and Hard; Expert's is the strongest for
/// the preset ([`crate::strategy::strongest_for`], which `play` defaults to as well).
const LADDER: [(&str, [&str; 3]); 4] = [
    ("problem-g", ["smart", "prob", "parity"]),
    ("classic", ["hunt", "hunt-parity", "parity"]),
    ("russian", ["smart", "prob", "parity"]),
    ("starwars", ["hunt", "density", "density-random"]),
];

/// Per preset and strategy: the mean scans over [`MEASURED_GAMES`] games (classic's
/// lookahead from the study's record, the others from `simulate --strategies all`).
const MEANS: [(&str, &str, f64); 35] = [
    ("problem-g", "linear", 94.48),
    ("problem-g", "smart", 66.86),
    ("problem-g", "prob", 59.07),
    ("problem-g", "random", 96.56),
    ("problem-g", "parity", 55.97),
    ("problem-g", "bayes", 55.28),
    ("problem-g", "hunt", 90.68),
    ("problem-g", "hunt-parity", 90.74),
    ("problem-g", "density", 86.38),
    ("problem-g", "density-random", 86.03),
    ("classic", "linear", 88.21),
    ("classic", "random", 95.48),
    ("classic", "parity", 49.96),
    ("classic", "bayes", 45.12),
    ("classic", "hunt", 66.40),
    ("classic", "hunt-parity", 60.99),
    ("classic", "density", 44.43),
    ("classic", "density-random", 44.76),
    ("classic", "lookahead", 44.05),
    ("russian", "linear", 95.43),
    ("russian", "smart", 68.79),
    ("russian", "prob", 65.45),
    ("russian", "random", 96.34),
    ("russian", "parity", 55.05),
    ("russian", "bayes", 55.17),
    ("russian", "hunt", 94.13),
    ("russian", "hunt-parity", 94.18),
    ("russian", "density", 54.81),
    ("russian", "density-random", 55.15),
    ("starwars", "linear", 1081.76),
    ("starwars", "random", 1274.60),
    ("starwars", "bayes", 245.79),
    ("starwars", "hunt", 1161.69),
    ("starwars", "density", 281.41),
    ("starwars", "density-random", 280.70),
];

/// The mean scans of `strategy` under `preset`, when measured.
/// Pre: none. Post: `None` for a pair not in the table.
pub(crate) fn mean(preset: &str, strategy: &str) -> Option<f64> {
    MEANS.iter().find(|(p, s, _)| *p == preset && *s == strategy).map(|&(_, _, m)| m)
}

/// The strategies of [`LEVELS`] under `preset`.
/// Pre: none. Post: `None` for a preset not in the table.
pub(crate) fn ladder(preset: &str) -> Option<[&'static str; 4]> {
    let rules = crate::game::rules::Rules::preset(preset).ok()?;
    let (rows, cols) = rules.bay();
    let [easy, medium, hard] = LADDER.iter().find(|(p, _)| *p == preset)?.1;
    Some([easy, medium, hard, crate::strategy::strongest_for(&rules, rows, cols)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::{Rules, PRESET_NAMES};
    use crate::strategy;

    #[test]
    fn every_preset_has_levels_its_rules_allow_and_expert_is_the_strongest() {
        for preset in PRESET_NAMES {
            let rules = Rules::preset(preset).unwrap();
            let (rows, cols) = rules.bay();
            // Whatever can play the preset's rules and bay, lookahead included.
            let playable: Vec<&str> =
                strategy::supporting(&rules).filter(|e| e.max_cells >= rows * cols).map(|e| e.name).collect();
            let ladder = ladder(preset).unwrap();
            for name in ladder {
                assert!(playable.contains(&name), "{preset}: {name}");
            }
            // Every strategy `all` plays has a measured mean, and so has every level's.
            for e in strategy::every(&rules) {
                assert!(mean(preset, e.name).is_some(), "{preset}: {}", e.name);
            }
            let best = playable.iter().filter_map(|n| mean(preset, n)).fold(f64::INFINITY, f64::min);
            assert_eq!(mean(preset, ladder[3]), Some(best), "{preset}");
            // Harder levels need fewer scans.
            let means: Vec<f64> = ladder.iter().filter_map(|n| mean(preset, n)).collect();
            assert!(means.len() == 4 && means.windows(2).all(|w| w[0] > w[1]), "{preset}: {means:?}");
        }
        assert_eq!(MEANS.iter().filter(|(p, _, _)| !PRESET_NAMES.contains(p)).count(), 0);
    }

    #[test]
    fn the_classic_expert_is_lookahead_and_its_mean_is_the_studys() {
        assert_eq!(ladder("classic").unwrap()[3], "lookahead");
        // The study's record: a version line, then one line per shard with its JSON.
        let record = include_str!("../../../report/lookahead-study.txt");
        let mut totals = [(0u64, 0u64); 2]; // (games, scans) of density and lookahead
        let mut shards = std::collections::BTreeSet::new();
        for line in record.lines().filter(|l| l.starts_with("shard ")) {
            let json = crate::render::json::parse(line.get(line.find('{').unwrap()..).unwrap()).unwrap();
            assert_eq!(json.get("seed").and_then(|v| v.as_u64()), Some(2021));
            let shard = json.get("shard").unwrap();
            assert_eq!(shard.get("count").and_then(|v| v.as_u64()), Some(40));
            assert!(shards.insert(shard.get("index").and_then(|v| v.as_u64()).unwrap()), "{line}");
            let strategies = json.get("strategies").and_then(|v| v.as_array()).unwrap();
            for (total, (s, name)) in totals.iter_mut().zip(strategies.iter().zip(["density", "lookahead"])) {
                assert_eq!(s.get("name").and_then(|v| v.as_str()), Some(name));
                for pair in s.get("histogram").and_then(|v| v.as_array()).unwrap() {
                    let [scans, games] = [0, 1].map(|k| pair.as_array().unwrap()[k].as_u64().unwrap());
                    *total = (total.0 + games, total.1 + scans * games);
                }
            }
        }
        assert_eq!(shards.len(), 40, "every shard of the study is in the record");
        for ((games, scans), name) in totals.into_iter().zip(["density", "lookahead"]) {
            assert_eq!(games, MEASURED_GAMES, "{name}");
            // The same boards as `simulate --strategies all`: density's mean is the table's.
            let table = mean("classic", name).unwrap();
            assert!((scans as f64 / games as f64 - table).abs() < 0.005 + 1e-9, "{name}: {scans}/{games} vs {table}");
        }
        assert!(mean("classic", "lookahead") < mean("classic", "density"));
    }
}

//! The page's difficulty levels: for each preset, the strategy the computer plays at
//! Easy, Medium, Hard and Expert, and every strategy's mean scans on the preset's
//! rules, measured by `spot-the-ships simulate --rules PRESET --games 2000 --strategies
//! all --threads 1` (seed 2021). Expert is the strategy of fewest mean scans among
//! those `all` plays. lookahead is left out: the page waits for the computer's whole
//! game before the first turn, and lookahead's takes about 10 CPU-seconds on classic,
//! all of it before the player's first probe.

/// The games behind every mean of [`MEANS`].
pub(crate) const MEASURED_GAMES: u64 = 2000;

/// The level names, easiest first.
pub(crate) const LEVELS: [&str; 4] = ["easy", "medium", "hard", "expert"];

/// Per preset: the strategy of each of [`LEVELS`].
const LADDER: [(&str, [&str; 4]); 4] = [
    ("problem-g", ["smart", "prob", "parity", "bayes"]),
    ("classic", ["hunt", "hunt-parity", "parity", "density"]),
    ("russian", ["smart", "prob", "parity", "density"]),
    ("starwars", ["hunt", "density", "density-random", "bayes"]),
];

/// Per preset and strategy: the mean scans over [`MEASURED_GAMES`] games.
const MEANS: [(&str, &str, f64); 34] = [
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
    LADDER.iter().find(|(p, _)| *p == preset).map(|&(_, l)| l)
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
            let ladder = ladder(preset).unwrap();
            let playable: Vec<&str> = strategy::every(&rules).map(|e| e.name).collect();
            for name in ladder {
                assert!(playable.contains(&name), "{preset}: {name}");
            }
            for name in &playable {
                assert!(mean(preset, name).is_some(), "{preset}: no mean for {name}");
            }
            let best = playable.iter().filter_map(|n| mean(preset, n)).fold(f64::INFINITY, f64::min);
            assert_eq!(mean(preset, ladder[3]), Some(best), "{preset}");
            // Harder levels need fewer scans.
            let means: Vec<f64> = ladder.iter().filter_map(|n| mean(preset, n)).collect();
            assert!(means.windows(2).all(|w| w[0] > w[1]), "{preset}: {means:?}");
        }
        assert_eq!(MEANS.iter().filter(|(p, _, _)| !PRESET_NAMES.contains(p)).count(), 0);
    }
}
